"""The online hall (`baida serve`)."""
