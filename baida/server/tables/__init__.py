"""One node's tables: the hall of tables, each table's actor, its config, chat, protocol,
clients' connections, bots and clock."""
