"""The table driver: prompts, refusals, the uniform pause, deadlines, 托管, bots."""

from __future__ import annotations

import hashlib
from typing import Any

import pytest

from baida.bots.policy import make_bot
from baida.engine import Action, Match, Round
from baida.table import Refused, SeatMode, TableDriver, TableTiming, bot_modes, play_bots
from baida.table.driver import _offered

# dyadic numbers, so sums of times are exact
TIMING = TableTiming(
    pause=1.0, claim=4.0, turn=8.0, bank=4.0, santan=8.0, bot_turn=0.75, bot_claim=0.5,
)


def seed(n: int) -> bytes:
    return hashlib.sha256(f"driver-test:{n}".encode()).digest()


def simulate(
    driver: TableDriver, policies: list[Any], *, person_delay: float = 0.25, now: float = 0.0
) -> list[tuple[float, Any, dict[str, Any]]]:
    """Run the hand on virtual time; seats in PLAYER mode answer with their policy after
    ``person_delay``; returns every message with its time."""
    log: list[tuple[float, Any, dict[str, Any]]] = []
    answer_at: dict[int, tuple[float, int]] = {}
    for _ in range(100_000):
        driver.advance(now)
        for recipient, message in driver.drain():
            log.append((now, recipient, message))
            if message["type"] == "prompt" and recipient is not None:
                answer_at[recipient] = (now + person_delay, message["seq"])
        progressed = False
        for turn in driver.bot_turns(now):
            choice = policies[turn.seat].choose(turn.view, turn.legal)
            driver.submit(turn.seat, turn.seq, choice, now)
            progressed = True
        for seat, (when, seq) in list(answer_at.items()):
            prompt = driver.prompts.get(seat)
            if when <= now and prompt is not None and prompt.seq == seq:
                if driver.modes[seat] == SeatMode.PLAYER:
                    rnd = driver.round
                    assert rnd is not None
                    choice = policies[seat].choose(rnd.view(seat), prompt.legal)
                    driver.submit(seat, seq, choice, now)
                    progressed = True
                del answer_at[seat]
        if progressed:
            continue
        if driver.hand_over and driver.idle:
            return log
        wake = [t for t, _ in answer_at.values()]
        nxt = driver.next_wakeup()
        if nxt is not None:
            wake.append(nxt)
        assert wake, "the table is stuck"
        now = max(now, min(wake))
    raise AssertionError("the hand did not end")


def listen_all(driver: TableDriver) -> None:
    driver.listeners.update({0, 1, 2, 3, None})


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_driver_plays_the_same_hand_as_the_engine(ruleset: str) -> None:
    for n in range(3):
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        rnd = Round.from_seed(ruleset, seed(n))
        while not rnd.ended:
            s = rnd.to_act[0]
            rnd.apply(bots[s].choose(rnd.view(s), rnd.legal_actions(s)))
        direct = rnd.result.to_json()

        bots = [make_bot("greedy", seed=s) for s in range(4)]
        driver = TableDriver(Match(ruleset, hands=1), timing=TableTiming.instant(),
                             modes=bot_modes(None))
        driver.start_hand(seed(n), 0.0)
        play_bots(driver, bots)
        assert driver.round is not None and driver.round.result is not None
        assert driver.round.result.to_json() == direct


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_every_seat_sees_the_same_pause_after_every_discard(ruleset: str) -> None:
    windows = 0
    for n in range(4):
        driver = TableDriver(Match(ruleset, hands=1), timing=TIMING, modes=bot_modes(None))
        listen_all(driver)
        driver.start_hand(seed(n), 0.0)
        log = simulate(driver, [make_bot("greedy", seed=s) for s in range(4)])
        by_recipient: dict[Any, list[tuple[float, dict[str, Any]]]] = {}
        for now, recipient, message in log:
            by_recipient.setdefault(recipient, []).append((now, message))
        rnd = driver.round
        assert rnd is not None
        windows += sum(1 for a in rnd.actions if a.type == "pass")
        for recipient, messages in by_recipient.items():
            event_times = [(t, m) for t, m in messages if m["type"] == "events"]
            for i, (t, message) in enumerate(event_times):
                last = message["events"][-1]
                if last["type"] in ("discard", "bukong") and i + 1 < len(event_times):
                    # nothing else reaches the seat before the pause ends, prompts aside
                    following = [
                        (u, m) for u, m in messages if t < u < t + TIMING.pause
                        and m["type"] not in ("prompt",)
                    ]
                    assert following == [], (recipient, last, following)
                    assert event_times[i + 1][0] == t + TIMING.pause, (recipient, last)
    assert windows > 0  # claim windows did open in these hands (and did not show)


def test_refusals_change_nothing_and_reveal_nothing() -> None:
    driver = TableDriver(Match("jiaxing", hands=1), timing=TableTiming.instant())
    driver.listeners.update({0, 1, 2, 3})
    rnd = driver.start_hand(seed(1), 0.0)
    dealer = rnd.dealer
    prompt = driver.prompts[dealer]
    state = (rnd.view(None).to_json(), len(rnd.actions))
    other = (dealer + 1) % 4
    cases: list[tuple[int, Any, Any, str]] = [
        (other, prompt.seq, prompt.legal[0].to_json(), "no_prompt"),  # not asked
        (dealer, prompt.seq + 1, prompt.legal[0], "stale"),
        (dealer, prompt.seq - 1, prompt.legal[0], "stale"),
        (dealer, "1", prompt.legal[0], "stale"),
        (dealer, True, prompt.legal[0], "stale"),
        (dealer, prompt.seq, {"type": "pon"}, "not_offered"),
        (dealer, prompt.seq, {"type": "discard", "tile": "nonsense"}, "malformed"),
        (dealer, prompt.seq, {"type": "discard", "tile": "5m", "seat": other}, "malformed"),
        (dealer, prompt.seq, ["discard"], "malformed"),
        (dealer, prompt.seq, Action("pass", dealer), "not_offered"),
    ]
    for seat, seq, action, code in cases:
        with pytest.raises(Refused) as caught:
            driver.submit(seat, seq, action, 0.0)
        assert caught.value.code == code, (seat, seq, action)
        assert (rnd.view(None).to_json(), len(rnd.actions)) == state
    # a seat without a prompt is told the same whatever the state of the hand
    with pytest.raises(Refused) as first:
        driver.submit(other, 0, {"type": "pass"}, 0.0)
    assert first.value.message == "no decision is pending for you"


def test_a_claim_timeout_passes_and_a_turn_timeout_goes_to_tuoguan() -> None:
    timing = TableTiming(pause=0.0, claim=2.0, turn=4.0, bank=2.0, santan=4.0,
                         bot_turn=0.5, bot_claim=0.0)
    for n in range(40):
        driver = TableDriver(Match("jiaxing", hands=1), timing=timing)
        driver.listeners.update({0, 1, 2, 3})
        rnd = driver.start_hand(seed(100 + n), 0.0)
        # play turns at once (discard the drawn tile) until a claim window opens
        now = 0.0
        while not rnd.ended and rnd.phase == "turn":
            seat = rnd.turn
            p = driver.prompts[seat]
            choice = next((a for a in p.legal if a.type == "discard"
                           and a.tile == rnd.drawn[seat]), None)
            driver.submit(seat, p.seq, choice or p.legal[-1], now)
            driver.advance(now)
        if rnd.phase != "claim":
            continue
        asked = sorted(driver.prompts)
        driver.drain()
        driver.advance(now + 1.5)
        assert sorted(driver.prompts) == asked  # not yet
        driver.advance(now + 2.0)
        assert all(a.type == "pass" for a in rnd.actions[-len(asked):])
        closed = [m for r, m in driver.drain() if m["type"] == "prompt_closed"]
        assert len(closed) == len(asked)
        assert all(m == SeatMode.PLAYER for m in driver.modes)
        # the next turn: nobody answers; at free time + bank the seat goes to 托管
        seat = rnd.turn
        p = driver.prompts[seat]
        assert p.deadline == p.released + 4.0 + 2.0
        driver.advance(p.released + 5.9)
        assert driver.modes[seat] == SeatMode.PLAYER
        driver.advance(p.released + 6.0)
        assert driver.modes[seat] == SeatMode.AUTO
        notices = [m for r, m in driver.drain() if m["type"] == "seat_mode"]
        assert len(notices) == 4  # every seat is told
        assert notices[0] == {"type": "seat_mode", "seat": seat, "mode": "auto",
                              "reason": "timeout"}
        turns = driver.bot_turns(p.released + 6.0)
        assert [t.seat for t in turns] == [seat]
        driver.submit(seat, turns[0].seq, turns[0].legal[-1], p.released + 6.0)
        driver.take_back(seat, p.released + 7.0)
        assert driver.modes[seat] == SeatMode.PLAYER
        return
    pytest.fail("no claim window in 40 hands")


def test_the_bank_is_spent_only_beyond_the_free_time() -> None:
    timing = TableTiming(pause=0.0, claim=2.0, turn=4.0, bank=3.0, santan=4.0)
    driver = TableDriver(Match("jiaxing", hands=1), timing=timing)
    rnd = driver.start_hand(seed(7), 0.0)
    seat = rnd.dealer
    p = driver.prompts[seat]
    discard = next(a for a in p.legal if a.type == "discard")
    driver.submit(seat, p.seq, discard, 5.0)  # 1 s into the bank
    assert driver.bank[seat] == 2.0
    assert driver.bank[(seat + 1) % 4] == 3.0


def test_snapshots_wait_for_the_pause_and_for_windows_of_others() -> None:
    for n in range(60):
        driver = TableDriver(Match("jiaxing", hands=1), timing=TIMING, modes=bot_modes(None))
        rnd = driver.start_hand(seed(200 + n), 0.0)
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        now = 0.0
        while not rnd.ended:
            driver.advance(now)
            turns = driver.bot_turns(now)
            for t in turns:
                driver.submit(t.seat, t.seq, bots[t.seat].choose(t.view, t.legal), now)
            if rnd.phase == "claim":
                asked = set(driver.prompts)
                for s in range(4):
                    assert driver.snapshot_ready(s) == (s in asked and driver.idle)
                assert not driver.snapshot_ready(None)
                return
            if not driver.idle:
                assert not driver.snapshot_ready(0)
            nxt = driver.next_wakeup()
            if not turns:
                assert nxt is not None
                now = nxt
    pytest.fail("no claim window")


def test_a_bot_that_fails_is_replaced_by_the_safe_action() -> None:
    class Broken:
        name = "broken"

        def choose(self, view: Any, legal: Any) -> Any:
            raise RuntimeError("boom")

    problems: list[str] = []
    driver = TableDriver(Match("wenling", hands=1), timing=TableTiming.instant(),
                         modes=bot_modes(None))
    driver.start_hand(seed(3), 0.0)
    play_bots(driver, [Broken(), make_bot("random", seed=1), make_bot("random", seed=2),
                       make_bot("random", seed=3)],
              on_decision=lambda turn, s, problem: problems.append(problem) if problem else None)
    assert driver.hand_over and problems and all("boom" in p for p in problems)


def test_a_seat_taken_back_while_its_bot_thinks_is_asked_again_when_it_times_out() -> None:
    """托管 was asked, the person took the seat back before the bot's answer came (the hall
    drops that answer): the person gets the prompt again, and when they time out 托管 is
    asked afresh; the table never waits on a deadline that nothing acts on."""
    driver = TableDriver(Match("jiaxing", hands=1), timing=TIMING)
    listen_all(driver)
    rnd = driver.start_hand(seed(11), 0.0)
    seat = rnd.dealer
    prompt = driver.prompts[seat]
    driver.set_mode(seat, SeatMode.AUTO, 0.5, reason="offline")
    due = 0.5 + TIMING.bot_turn
    assert driver.next_wakeup() == due
    asked = driver.bot_turns(due)
    assert [t.seat for t in asked] == [seat]
    driver.drain()
    driver.take_back(seat, 1.5)  # the bot's answer will be dropped
    again = [m for r, m in driver.drain() if r == seat and m["type"] == "prompt"]
    assert [m["seq"] for m in again] == [prompt.seq]
    assert prompt.deadline is not None
    assert driver.next_wakeup() == prompt.deadline
    driver.advance(prompt.deadline)
    assert driver.modes[seat] == SeatMode.AUTO
    turns = driver.bot_turns(prompt.deadline)
    assert [(t.seat, t.seq) for t in turns] == [(seat, prompt.seq)]
    # the bot is thinking: nothing is due until it answers
    assert driver.next_wakeup() is None
    driver.submit(seat, turns[0].seq, turns[0].legal[-1], prompt.deadline + 0.5)
    nxt = driver.next_wakeup()
    assert nxt is not None and nxt >= prompt.deadline + 0.5


def test_a_seat_taken_back_after_its_time_ran_out_is_the_players_once_tuoguan_answered(
) -> None:
    """``resume`` right after a turn timed out: the prompt came again with no time left, ran
    out at once and handed the seat back to 托管 (a second ``resume`` was needed). Now 托管
    answers the decision whose time is spent, and the seat is the player's from then on; it
    buys no time."""
    timing = TableTiming(pause=0.0, claim=2.0, turn=4.0, bank=0.0, santan=4.0, bot_turn=0.75)
    driver = TableDriver(Match("jiaxing", hands=1), timing=timing)
    listen_all(driver)
    rnd = driver.start_hand(seed(11), 0.0)
    seat = rnd.dealer
    prompt = driver.prompts[seat]
    assert prompt.deadline == 4.0
    driver.drain()
    driver.advance(4.0)
    assert driver.modes[seat] == SeatMode.AUTO and driver.auto_reason[seat] == "timeout"
    turns = driver.bot_turns(4.0)
    assert [t.seq for t in turns] == [prompt.seq]
    driver.drain()
    driver.take_back(seat, 4.1)  # 托管 is thinking
    assert driver.modes[seat] == SeatMode.AUTO and driver.returning(seat)
    assert not [m for r, m in driver.drain() if m["type"] in ("prompt", "seat_mode")]
    driver.advance(4.2)  # nothing runs out again, nothing is asked again
    assert driver.bot_turns(4.2) == [] and driver.modes[seat] == SeatMode.AUTO
    driver.submit(seat, turns[0].seq, turns[0].legal[-1], 4.5)  # 托管's answer lands
    assert driver.modes[seat] == SeatMode.PLAYER and not driver.returning(seat)
    told = [m for r, m in driver.drain() if m["type"] == "seat_mode"]
    assert told and told[-1] == {"type": "seat_mode", "seat": seat, "mode": "player",
                                 "reason": None}
    # taken back, then the connection drops before 托管 answered: 托管 keeps the seat
    driver = TableDriver(Match("jiaxing", hands=1), timing=timing)
    rnd = driver.start_hand(seed(11), 0.0)
    driver.advance(4.0)
    turns = driver.bot_turns(4.0)
    driver.take_back(seat, 4.1)
    driver.set_mode(seat, SeatMode.AUTO, 4.2, reason="offline")
    assert not driver.returning(seat)
    driver.submit(seat, turns[0].seq, turns[0].legal[-1], 4.5)
    assert driver.modes[seat] == SeatMode.AUTO and driver.auto_reason[seat] == "offline"


def test_a_bot_slower_than_a_window_does_not_make_the_table_spin() -> None:
    """A bot seat's claim window outlives its deadline (the bot worker is slow): the deadline
    belongs to nobody, so ``next_wakeup`` does not return it."""
    for n in range(40):
        driver = TableDriver(Match("jiaxing", hands=1), timing=TIMING, modes=bot_modes(None))
        rnd = driver.start_hand(seed(300 + n), 0.0)
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        now = 0.0
        while not rnd.ended and rnd.phase != "claim":
            driver.advance(now)
            for t in driver.bot_turns(now):
                driver.submit(t.seat, t.seq, bots[t.seat].choose(t.view, t.legal), now)
            nxt = driver.next_wakeup()
            now = nxt if nxt is not None else now
        if rnd.phase != "claim":
            continue
        driver.advance(now)
        asked = driver.bot_turns(now + TIMING.bot_claim)
        assert asked
        late = now + 60.0  # far past every window's deadline; no answer yet
        driver.advance(late)
        nxt = driver.next_wakeup()
        assert nxt is None or nxt > late, (nxt, late)
        return
    pytest.fail("no claim window in 40 hands")


def test_a_bot_floor_spaces_bot_decisions_and_lifting_it_frees_them_at_once() -> None:
    """``bot_floor``: at an instant table of bots, one decision at most every ``bot_floor``
    seconds (``next_wakeup`` says when the next may come, never sooner); set back to 0, every
    decision due is handed out at once. The same hand is played either way."""
    bots = [make_bot("greedy", seed=s) for s in range(4)]
    free = TableDriver(Match("jiaxing", hands=1), timing=TableTiming.instant(),
                       modes=bot_modes(None))
    free.start_hand(seed(500), 0.0)
    play_bots(free, bots)
    assert free.round is not None and free.round.result is not None

    bots = [make_bot("greedy", seed=s) for s in range(4)]
    driver = TableDriver(Match("jiaxing", hands=1), timing=TableTiming.instant(),
                         modes=bot_modes(None))
    driver.bot_floor = 1.0
    rnd = driver.start_hand(seed(500), 0.0)
    handed: list[float] = []
    now = 0.0
    while not rnd.ended and len(handed) < 20:
        driver.advance(now)
        turns = driver.bot_turns(now)
        assert len(turns) <= 1
        for t in turns:
            handed.append(now)
            driver.submit(t.seat, t.seq, bots[t.seat].choose(t.view, t.legal), now)
        nxt = driver.next_wakeup()
        assert nxt is not None and (turns or nxt > now)
        now = max(now, nxt)
    assert handed == [float(i) for i in range(20)]
    driver.bot_floor = 0.0  # someone came: the rest at once
    play_bots(driver, bots, now=now)
    assert rnd.ended and rnd.result.to_json() == free.round.result.to_json()


def discard_gaps(log: list[tuple[float, Any, dict[str, Any]]],
                 recipient: Any) -> list[tuple[float, bool]]:
    """For every discard or 补杠 the recipient hears: the time until it hears the next events,
    and whether a claim or 抢杠 window was opened for someone after it."""
    window_at = {t for t, _, m in log if m["type"] == "prompt" and m["kind"] in ("claim", "rob")}
    heard = [(t, m) for t, r, m in log if r == recipient and m["type"] == "events"]
    out = []
    for (t, m), (u, _) in zip(heard, heard[1:], strict=False):
        if m["events"][-1]["type"] in ("discard", "bukong"):
            out.append((u - t, t in window_at))
    return out


SLOW = 2.5  # a person slower than the pause, faster than the claim window


def persons_timeline(ruleset: str, n: int, timing: TableTiming) -> list[tuple[float, bool]]:
    driver = TableDriver(Match(ruleset, hands=1), timing=timing)
    listen_all(driver)
    driver.start_hand(seed(400 + n), 0.0)
    log = simulate(driver, [make_bot("greedy", seed=s) for s in range(4)], person_delay=SLOW)
    return discard_gaps(log, None)


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_people_slower_than_the_pause_show_a_window_by_default(ruleset: str) -> None:
    """The documented limit of the uniform pause: a person who answers a window after the
    pause holds up the table, which a spectator can see."""
    gaps = [g for n in range(3) for g in persons_timeline(ruleset, n, TIMING)]
    assert {g for g, window in gaps if not window} == {TIMING.pause}
    assert {g for g, window in gaps if window} == {SLOW}


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_the_uniform_window_shows_nothing_whoever_may_claim(ruleset: str) -> None:
    """``uniform_window``: after every discard and 补杠 the table waits the whole claim
    window, whether or not a window opened and however fast the people in it answer."""
    strict = TableTiming(**{**TIMING.to_json(), "uniform_window": True})
    assert TIMING.claim is not None
    gaps = [g for n in range(3) for g in persons_timeline(ruleset, n, strict)]
    with_window = {g for g, window in gaps if window}
    without = {g for g, window in gaps if not window}
    assert with_window and without  # both kinds of discard were seen
    assert with_window == without == {TIMING.claim}
    # an early pass ends nothing early: bots answer at once, the table still waits
    driver = TableDriver(Match(ruleset, hands=1), timing=strict, modes=bot_modes(None))
    listen_all(driver)
    driver.start_hand(seed(400), 0.0)
    log = simulate(driver, [make_bot("greedy", seed=s) for s in range(4)])
    assert {g for g, _ in discard_gaps(log, None)} == {TIMING.claim}


def test_uniform_window_settings_are_checked() -> None:
    from baida.table import TimingError

    with pytest.raises(TimingError, match="timing.uniform_window"):
        TableTiming(uniform_window="yes")  # type: ignore[arg-type]
    with pytest.raises(TimingError, match="timing.uniform_window: needs a claim window"):
        TableTiming(uniform_window=True, claim=None)
    assert TableTiming(uniform_window=True).after_discard == TableTiming().claim
    assert TableTiming().after_discard == TableTiming().pause
    assert TableTiming.instant().to_json()["uniform_window"] is False


GAVE_UP_HANDS = [
    "3m6m 1s4s7s E S W N C F P 2s",  # dealer: discards 3m, seat 1 chows it
    "1m2m 4m5m 7m8m 2s5s8s 3s6s E S",
    "123p456p789p 11p 23p",  # chooses 放弃
    "E W N C F P 3m6m 1s4s7s 2m5m",
]


@pytest.mark.parametrize("uniform", [False, True])
def test_the_pause_follows_a_gave_up_players_automatic_discard(uniform: bool) -> None:
    """Seat 2 chose 放弃: its draw goes out by itself, and every seat still waits the pause
    (or the window) after that discard, as after any other."""
    from baida.engine.wall import wall_from_deal
    from baida.tiles import parse_tile, parse_tiles

    wall = wall_from_deal(
        "jiaxing", [parse_tiles(h) for h in GAVE_UP_HANDS], draws=parse_tiles("8m W 5m 7s 1p"),
        tail=[], indicator=parse_tile("9s"), dealer_extra=parse_tile("5s"),
    )
    timing = TableTiming(**{**TIMING.to_json(), "uniform_window": uniform})
    gap = timing.after_discard
    driver = TableDriver(Match("jiaxing", {"santan_threshold": 1}, hands=1), timing=timing)
    listen_all(driver)
    driver.start_hand_from_wall(wall, (1, 2), 0.0)
    now = 0.0

    def answer(seat: int, **action: Any) -> None:
        nonlocal now
        prompt = driver.prompts[seat]
        now = max(now, prompt.released)
        driver.advance(now)
        driver.submit(seat, prompt.seq, {"type": action.pop("type"), **action}, now)
        driver.advance(now)

    answer(0, type="discard", tile="3m")
    answer(1, type="chi", tiles=["1m", "2m"])
    answer(2, type="give_up")
    answer(3, type="continue")
    driver.drain()
    answer(1, type="discard", tile="E")
    t0 = now
    heard: list[tuple[float, list[tuple[str, int]]]] = []
    while now < t0 + 3 * gap:
        driver.advance(now)
        for recipient, message in driver.drain():
            if recipient is None and message["type"] == "events":
                heard.append((now - t0, [(e["type"], e["seat"]) for e in message["events"]]))
        nxt = driver.next_wakeup()
        assert nxt is not None
        now = max(now + 0.25, nxt) if nxt <= now else nxt
    assert heard[:3] == [
        (0.0, [("discard", 1)]),
        (gap, [("draw", 2), ("discard", 2)]),  # the automatic discard
        (2 * gap, [("draw", 3)]),  # one pause (or window) after it
    ]


@pytest.mark.parametrize("ruleset", ["jiaxing", "wenling"])
def test_an_answer_as_offered_and_an_answer_parsed_pick_the_same_action(ruleset: str) -> None:
    """Every action a prompt offers, sent back as the prompt wrote it, with the seat, or with
    its fields in another order, is matched to that same action; anything else is refused."""
    for n in range(2):
        bots = [make_bot("greedy", seed=s) for s in range(4)]
        driver = TableDriver(Match(ruleset, hands=1), timing=TableTiming.instant(),
                             modes=[SeatMode.PLAYER] * 4)
        driver.start_hand(seed(100 + n), 0.0)
        checked = 0
        while not driver.hand_over:
            driver.advance(0.0)
            driver.drain()
            seat, prompt = next(iter(driver.prompts.items()))
            offered = prompt.to_json(0.0)["actions"]
            for action, as_offered in zip(prompt.legal, offered, strict=True):
                reordered = dict(reversed(list(as_offered.items())))
                for answer in (dict(as_offered), {**as_offered, "seat": seat}, reordered):
                    assert driver._match_offered(prompt, answer) is action
                checked += 1
            with pytest.raises(Refused):
                driver._match_offered(prompt, {"type": "discard", "tile": "nonsense"})
            rnd = driver.round
            assert rnd is not None
            choice = bots[seat].choose(rnd.view(seat), prompt.legal)
            driver.submit(seat, prompt.seq, dict(_offered(choice)), 0.0)
        assert checked > 50
