"""The evaluator gives every hand of the golden corpus the answers it gave before it was
rewritten for speed: waits (with and without ``visible``), shanten (the capped count and dead
waits included), pattern distances, the batch queries and the win test, with wilds."""

from __future__ import annotations

import pytest
from evaluator_golden import answers, parse, read

LINES = read()
CHUNK = 500


def test_the_corpus_is_whole() -> None:
    assert len(LINES) == 6000
    assert len({line.split()[0] + line.split()[1] for line in LINES}) > 5000


@pytest.mark.parametrize("start", range(0, 6000, CHUNK))
def test_the_answers_are_those_of_the_corpus(start: int) -> None:
    for number, line in enumerate(LINES[start : start + CHUNK], start + 1):
        assert answers(parse(line)) == line, f"line {number} of the golden corpus"
