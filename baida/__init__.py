"""baida: rules engine, scorer, bots and game hall for Jiaxing 台头和 and Wenling 温岭麻将."""

__version__ = "0.1.0"
