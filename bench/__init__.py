"""Benchmarks: ``python -m bench`` prints baida beside the anchors, measured in the same run."""
