"""One hall as several processes: a node's role, the supervisor, handing sockets between
nodes, every node's metrics."""
