"""One hall as several processes: the supervisor, handing sockets between nodes, every node's
metrics."""
