"""Opponents written outside the project's bot ladder, for measuring the bots from outside."""
