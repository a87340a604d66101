"""The online hall (`baida serve`), in layers: each folder uses the folders below it, never
one above, and no modules import each other round a circle (``tests/test_server_layers.py``).

Top to bottom:

- ``serve_cli``, ``admin_cli``: the commands (``baida serve``, ``baida admin``);
- ``web``: the running hall and its settings, the ASGI app, the lobby API, the admin page,
  sessions, the table WebSocket;
- ``tables``: one node's tables: the hall of tables, the table actor and its parts, a
  table's config, chat, protocol, a client's connection, bots, the clock, ``HallStore``;
- ``nodes``: one hall as several processes: a node's role, the supervisor, socket handoff,
  every node's metrics;
- ``directory``: who owns which table, the lobby, room codes, who is online (in one process,
  or in Redis);
- ``store``: the database, and the hall's writes to it (the writer, the database process);
- ``ops``: logs, metrics, the stall watchdog, where data lives.

See docs/hall.md, "How the code is laid out".
"""
