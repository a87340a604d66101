"""The phases of a hand and the seat-wind letters, shared by ``round`` and its helper modules."""

TURN, CLAIM, ROB, SANTAN, ENDED = "turn", "claim", "rob", "santan", "ended"
WINDS = "ESWN"
