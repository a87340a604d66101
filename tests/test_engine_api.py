"""The public API: JSON forms of actions, events and views, and who sees what."""

from __future__ import annotations

import json

import pytest
from test_engine_helpers import act, passive, scripted

from baida.engine import Action, Event, MalformedAction, Round, View
from baida.tiles import parse_tile


@pytest.mark.parametrize(
    "obj",
    [
        {"type": "discard", "seat": 0, "tile": "5p"},
        {"type": "win", "seat": 1},
        {"type": "akong", "seat": 2, "tile": "E"},
        {"type": "bukong", "seat": 3, "tile": "f1"},
        {"type": "lazi", "seat": 0},
        {"type": "chi", "seat": 1, "tiles": ["3m", "4m"]},
        {"type": "pon", "seat": 2},
        {"type": "mkong", "seat": 2},
        {"type": "pass", "seat": 3},
        {"type": "continue", "seat": 3},
        {"type": "give_up", "seat": 0},
    ],
)
def test_action_json_round_trip(obj: dict) -> None:
    action = Action.from_json(obj)
    assert action.to_json() == obj
    assert Action.from_json(json.loads(json.dumps(action.to_json()))) == action


def test_chi_tiles_are_normalised() -> None:
    action = Action.from_json({"type": "chi", "seat": 1, "tiles": ["4m", "3m"]})
    assert action.tiles == (parse_tile("3m"), parse_tile("4m"))


@pytest.mark.parametrize(
    "obj,message",
    [
        ([], "a JSON object"),
        ({"type": "ron", "seat": 0}, "unknown action type 'ron'"),
        ({"type": "pass"}, "'seat' must be 0-3"),
        ({"type": "pass", "seat": 4}, "'seat' must be 0-3"),
        ({"type": "pass", "seat": True}, "'seat' must be 0-3"),
        ({"type": "discard", "seat": 0}, "needs 'tile'"),
        ({"type": "discard", "seat": 0, "tile": "0m"}, "bad tile"),
        ({"type": "discard", "seat": 0, "tile": "*"}, "by its face"),
        ({"type": "discard", "seat": 0, "tile": 5}, "a string like '5m'"),
        ({"type": "discard", "seat": 0, "tile": "5m5m"}, "bad tile"),
        ({"type": "pon", "seat": 0, "tile": "5m"}, "takes no 'tile'"),
        ({"type": "chi", "seat": 0, "tiles": ["5m"]}, "two own tiles"),
        ({"type": "pass", "seat": 0, "why": 1}, "unknown field"),
    ],
)
def test_malformed_actions(obj: object, message: str) -> None:
    with pytest.raises(MalformedAction, match=message):
        Action.from_json(obj)
    rnd = Round.from_seed("jiaxing", b"m")
    with pytest.raises(MalformedAction):
        rnd.apply(obj)  # type: ignore[arg-type]
    assert rnd.actions == []


def test_views_show_only_ones_own_tiles() -> None:
    rnd = Round.from_seed("wenling", b"views")
    for seat in range(4):
        view = rnd.view(seat)
        assert view.me is not None and view.me.concealed is not None
        assert len(view.me.concealed) == view.me.concealed_count
        others = [p for p in view.players if p.seat != seat]
        assert all(p.concealed is None and p.drawn is None for p in others)
    spectator = rnd.view(None)
    assert spectator.me is None and all(p.concealed is None for p in spectator.players)
    assert spectator.seed is None and spectator.commitment == rnd.commitment
    dealer = rnd.view(rnd.dealer).me
    assert dealer is not None and dealer.drawn is not None


def test_view_json_round_trip_and_end_reveal() -> None:
    rnd = Round.from_seed("jiaxing", b"reveal")
    view = rnd.view(1)
    assert View.from_json(json.loads(json.dumps(view.to_json()))) == view
    passive(rnd)
    ended = rnd.view(None).to_json()
    assert ended["seed"] == b"reveal".hex() and ended["result"]["outcome"] == "draw"
    assert all(p["concealed"] is not None for p in ended["players"])
    with pytest.raises(MalformedAction):
        View.from_json({"seat": 0})


def test_events_are_redacted_per_seat() -> None:
    rnd = Round.from_seed("jiaxing", b"events")
    deals = [e for e in rnd.events if e.type == "deal"]
    assert len(deals) == 4 and rnd.events[0].type == "hand_start"
    for event in deals:
        assert event.for_seat(event.seat)["tiles"] is not None
        assert event.for_seat((event.seat + 1) % 4)["tiles"] is None
        assert event.for_seat(None)["tiles"] is None
    # the dealer's deal says which tile is its extra one, as its view does; nobody else sees it
    dealer_deal = next(e for e in deals if e.seat == rnd.dealer)
    own = rnd.view(rnd.dealer).players[rnd.dealer]
    assert own.drawn is not None and dealer_deal.for_seat(rnd.dealer)["drawn"] == own.drawn
    assert all(dealer_deal.for_seat(s)["drawn"] is None for s in (None, *range(1, 4)))
    assert all(e.to_json()["drawn"] is None for e in deals if e.seat != rnd.dealer)
    start = rnd.events[0].to_json()
    assert start["commitment"] == rnd.commitment and "seed" not in start
    act(rnd, "discard", rnd.dealer, tile=rnd.view(rnd.dealer).players[rnd.dealer].concealed[0])
    draw = next(e for e in reversed(rnd.events) if e.type == "draw")
    assert draw.for_seat(draw.seat)["tile"] is not None and draw.for_seat(None)["tile"] is None
    assert Event.from_json(draw.to_json()).to_json() == draw.to_json()


def test_hand_end_reveals_seed_and_hands() -> None:
    rnd = scripted(
        "jiaxing",
        [
            "111m222m333m456m7m",
            "123p456p789p 1s2s3s E",
            "123p456p789p 4s5s6s S",
            "11p22p33p 44s55s66s W",
        ],
        extra="7m",
    )
    events = act(rnd, "win", 0)
    end = events[-1].to_json()
    assert end["type"] == "hand_end" and end["outcome"] == "win" and len(end["hands"]) == 4
    assert end["payments"] == rnd.result.payments and sum(end["payments"]) == 0


def test_options_are_validated() -> None:
    from baida.rules.options import OptionError, WenlingOptions

    with pytest.raises(OptionError, match="allow_chi"):
        Round.from_seed("jiaxing", b"o", options={"allow_chi": 1})
    with pytest.raises(OptionError, match="not jiaxing options"):
        Round.from_seed("jiaxing", b"o", options=WenlingOptions())
    with pytest.raises(ValueError, match="unknown ruleset"):
        Round.from_seed("riichi", b"o")


def test_views_do_not_tell_who_may_claim() -> None:
    rnd = scripted(
        "jiaxing",
        [
            "3p 1m4m7m 1s4s7s E S W N C F",
            "12p 2m5m8m 2s5s8s E S W N C",
            "3m6m9m 3s6s8p F P E S W N C",
            "3p3p 1m4m7m 1s4s7s F P W N C",
        ],
        extra="P",
    )
    act(rnd, "discard", 0, tile="3p")
    assert rnd.to_act == (1, 3)
    assert [rnd.view(s).to_act for s in (None, 0, 1, 2, 3)] == [[], [], [1], [], [3]]


def test_the_dealers_extra_tile_looks_the_same_to_the_others_whatever_it_is() -> None:
    """Two deals that differ only in the dealer's extra tile (swapped with a tile of seat 2):
    seat 1 and a spectator receive the same deal events and the same view; the dealer's own
    deal event and view say which tile it is."""
    wall = list(Round.from_seed("jiaxing", b"two deals").wall)
    extra, other = 4 * 13, 2 * 13  # dealer 0: 13 tiles a seat from the head, then the extra
    k = next(i for i in range(other, other + 13) if wall[i] != wall[extra])
    swapped = list(wall)
    swapped[extra], swapped[k] = swapped[k], swapped[extra]
    a, b = (Round.from_wall("jiaxing", w, (1, 2)) for w in (wall, swapped))
    assert a.drawn[0] != b.drawn[0]
    for viewer in (1, 3, None):
        assert [e.for_seat(viewer) for e in a.events] == [e.for_seat(viewer) for e in b.events]
        assert a.view(viewer).to_json() == b.view(viewer).to_json()
    dealer_deal = [next(e for e in r.events if e.type == "deal" and e.seat == 0) for r in (a, b)]
    assert [d.for_seat(0)["drawn"] for d in dealer_deal] == [
        r.view(0).players[0].drawn for r in (a, b)
    ]
