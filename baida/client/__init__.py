"""``baida client``: play at a hall from the terminal, through the same protocol as the browser.

A small, complete client of ``docs/protocol.md``: it signs in (as a guest, or with a name and
password), opens a quick-play table with three bots (or joins a table by id or room code),
and plays: events are printed as they come, prompts are answered from the keyboard (or, with
``--auto``, by a fixed rule). The keyboard is read by a thread of its own (``keyboard``), so
the table's messages, chat and the prompt's deadline keep coming while the player thinks.
"""
