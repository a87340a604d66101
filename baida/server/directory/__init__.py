"""Who owns which table, the lobby, room codes, who is online: in one process or in Redis."""
