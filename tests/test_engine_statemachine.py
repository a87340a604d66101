"""A hypothesis state machine over a hand: any legal action, any refused one, invariants always."""

from __future__ import annotations

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule
from test_engine_helpers import snapshot
from test_engine_random import TOTAL, check_views

from baida.engine import Action, IllegalAction, Round


class HandMachine(RuleBasedStateMachine):
    """Random legal (and illegal) play of one hand of either ruleset."""

    rnd: Round

    @initialize(
        ruleset=st.sampled_from(["jiaxing", "wenling"]),
        seed=st.binary(min_size=16, max_size=16),
        options=st.sampled_from([{}, {"allow_chi": False}]),
    )
    def deal(self, ruleset: str, seed: bytes, options: dict) -> None:
        if ruleset == "wenling":
            options = {}
        self.rnd = Round.from_seed(ruleset, seed, options=options)

    @precondition(lambda self: not self.rnd.ended)
    @rule(who=st.integers(0, 3), which=st.integers(0, 1000))
    def play(self, who: int, which: int) -> None:
        waiting = self.rnd.to_act
        seat = waiting[who % len(waiting)]
        legal = self.rnd.legal_actions(seat)
        assert legal
        self.rnd.apply(legal[which % len(legal)])

    @rule(
        kind=st.sampled_from(["discard", "win", "pon", "chi", "pass", "akong", "give_up"]),
        seat=st.integers(0, 3),
        tile=st.integers(0, 41),
    )
    def refused(self, kind: str, seat: int, tile: int) -> None:
        action = Action(
            kind,
            seat,
            tile if kind in ("discard", "akong") else None,
            (tile, min(tile + 2, 41)) if kind == "chi" else None,
        )
        if action in self.rnd.legal_actions(seat):
            return
        before = snapshot(self.rnd)
        try:
            self.rnd.apply(action)
        except IllegalAction:
            pass
        else:
            raise AssertionError(f"{action} accepted")
        assert snapshot(self.rnd) == before

    @invariant()
    def tiles_are_conserved(self) -> None:
        assert self.rnd.tile_census() == TOTAL[self.rnd.ruleset]

    @invariant()
    def views_keep_secrets(self) -> None:
        check_views(self.rnd)

    @invariant()
    def someone_decides_until_the_end(self) -> None:
        assert bool(self.rnd.to_act) != self.rnd.ended


HandMachine.TestCase.settings = settings(max_examples=15, stateful_step_count=80, deadline=None)
TestHandMachine = HandMachine.TestCase
