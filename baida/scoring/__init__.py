"""Scoring of finished hands: the request type and the two rulesets' scorers."""
