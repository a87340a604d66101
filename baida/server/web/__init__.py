"""The hall's face to browsers: the running hall and its settings, the ASGI app, the lobby API,
the admin page, sessions, and the table WebSocket."""
