"""The shapes of what the table protocol's server messages carry (version 1): a hand's
events, a seat's view, a table, its timing and seats, as the JSON Schemas of
``docs/protocol-schemas.json`` describe them. The messages themselves are in ``protocol``."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

Seat = Annotated[int, Field(ge=0, le=3)]
Face = Annotated[str, Field(pattern=r"^([1-9][mps]|[ESWNCFP]|f[1-8])$")]


class _Out(BaseModel):
    model_config = ConfigDict(extra="forbid")


Wind = Literal["E", "S", "W", "N"]
Ruleset = Literal["jiaxing", "wenling"]
Mode = Literal["player", "bot", "auto"]
Faces = list[Face]
From = Field(alias="from")  # a field named ``from`` in the JSON


# ---------------------------------------------------------------- what the messages carry


class MeldJson(_Out):
    """A meld: its type, its tiles and the seat its claimed tile came from. Another seat's
    concealed kong shows ``tiles`` and ``from`` null until the hand ends."""

    type: Literal["chi", "pon", "mkong", "bukong", "akong"]
    tiles: Faces | None
    from_: Seat | None = From


class HandJson(_Out):
    """A seat's hand at the end: concealed tiles, melds, flowers."""

    concealed: Faces
    melds: list[MeldJson]
    flowers: Faces


class TransferJson(_Out):
    """One payment between two players (Wenling): ``amount`` = (``high`` − ``low``) // 10,
    ``kind`` "win" (to the winner) or "difference" (between two non-winners); ``behalf``:
    the player whose payment the payer makes in its place (包三家), else null."""

    payer: Seat
    payee: Seat
    amount: int
    kind: Literal["win", "difference"]
    high: int
    low: int
    behalf: Seat | None


class SettlementJson(_Out):
    """A hand's outcome (a view's ``result``, the ``hand_end`` event): the payments by seat,
    the scorer's breakdown (``score``, as in engine.md), every hand and the revealed seed."""

    outcome: Literal["win", "draw"]
    winner: Seat | None
    win_by: Literal["self_draw", "discard", "rob_kong", "lazi"] | None
    win_tile: Face | None
    from_: Seat | None = From
    liable: Seat | None
    payments: Annotated[list[int], Field(min_length=4, max_length=4)]
    carry_pool_after: int | None
    score: dict[str, Any] | None
    hands: list[HandJson]
    seed: str | None
    transfers: list[TransferJson] | None = None


class _Event(_Out):
    seat: Seat | None


class HandStartEvent(_Event):
    """The deal: ``seat`` is the dealer; ``commitment`` is the SHA-256 of the hand's seed."""

    type: Literal["hand_start"]
    seat: Seat
    ruleset: Ruleset
    dealer: Seat
    round_wind: Wind | None
    dice: Annotated[list[int], Field(min_length=2, max_length=2)]
    commitment: str | None
    indicator: Face
    wilds: Faces
    specials: Faces
    carry_pool: int | None
    carry_tokens: list[str]


class DealEvent(_Event):
    """A seat's dealt tiles (``tiles`` null for another seat's); ``drawn``: the dealer's
    extra tile, which its first turn treats as drawn (null for every other seat, and for
    anyone but the dealer)."""

    type: Literal["deal"]
    seat: Seat
    tiles: Faces | None
    count: int
    drawn: Face | None


class DrawEvent(_Event):
    """A draw from the wall, after a kong, or to replace a flower (``tile`` null for another
    seat's)."""

    type: Literal["draw"]
    seat: Seat
    tile: Face | None
    source: Literal["wall", "kong", "special"]
    remaining: int


class TileEvent(_Event):
    """A discard, an added kong (补杠) announced, a flower shown."""

    type: Literal["discard", "bukong", "flower"]
    seat: Seat
    tile: Face


class ClaimEvent(_Event):
    """吃, 碰 or 明杠 of ``from``'s discard ``tile``, making ``meld``."""

    type: Literal["chi", "pon", "mkong"]
    seat: Seat
    tile: Face
    from_: Seat = From
    meld: MeldJson


class AkongEvent(_Event):
    """A concealed kong (``tile`` null for another seat's)."""

    type: Literal["akong"]
    seat: Seat
    tile: Face | None


class KongRobbedEvent(_Event):
    """``seat``'s added kong of ``tile`` robbed by ``by`` (抢杠)."""

    type: Literal["kong_robbed"]
    seat: Seat
    tile: Face
    by: Seat


class WinEvent(_Event):
    type: Literal["win"]
    seat: Seat
    win_by: Literal["self_draw", "discard", "rob_kong", "lazi"]
    tile: Face | None
    from_: Seat | None = From


class HandEndEvent(SettlementJson):
    """The hand's end, with its settlement, every hand and the seed."""

    type: Literal["hand_end"]
    seat: None


class SantanEvent(_Event):
    """三摊: the pair of seats that made it, and the seats asked to 坚持 or 放弃."""

    type: Literal["santan"]
    seat: None
    pair: Annotated[list[Seat], Field(min_length=2, max_length=2)]
    asks: list[Seat]


class SantanChoiceEvent(_Event):
    type: Literal["santan_choice"]
    seat: Seat
    choice: Literal["continue", "give_up"]


class ShengPhaseEvent(_Event):
    """Wenling: the last tiles of the wall are reached (生张 rules apply)."""

    type: Literal["sheng_phase"]
    seat: None
    remaining: int


EventJson = Annotated[
    HandStartEvent | DealEvent | DrawEvent | TileEvent | ClaimEvent | AkongEvent
    | KongRobbedEvent | WinEvent | HandEndEvent | SantanEvent | SantanChoiceEvent
    | ShengPhaseEvent,
    Field(discriminator="type"),
]


class SeatTile(_Out):
    seat: Seat
    tile: Face


class PlayerJson(_Out):
    """One seat in a view: concealed tiles and the drawn tile only for the viewer's own seat
    (every seat once the hand has ended)."""

    seat: Seat
    wind: Wind
    concealed: Faces | None
    concealed_count: int
    drawn: Face | None
    melds: list[MeldJson]
    discards: Faces
    claimed: list[int]  # positions in ``discards`` that were claimed
    flowers: Faces
    gave_up: bool


class ViewJson(_Out):
    """What a seat (``seat`` null: a spectator) may see of a hand (engine.md, View)."""

    ruleset: Ruleset
    options: dict[str, Any]
    seat: Seat | None
    dealer: Seat
    seat_winds: list[Wind]
    round_wind: Wind | None
    dice: Annotated[list[int], Field(min_length=2, max_length=2)]
    commitment: str | None
    seed: str | None
    indicator: Face
    wilds: Faces
    specials: Faces
    phase: Literal["turn", "claim", "rob", "santan", "ended"]
    turn: Seat
    to_act: list[Seat]
    wall_remaining: int
    last_discard: SeatTile | None
    robbable: SeatTile | None
    players: Annotated[list[PlayerJson], Field(min_length=4, max_length=4)]
    santan_pairs: list[Annotated[list[Seat], Field(min_length=2, max_length=2)]]
    claim_counts: list[list[int]]
    sheng_phase: bool
    carry_pool: int | None
    result: SettlementJson | None


class MatchJson(_Out):
    """The match: hands played, the next (or current) dealer, winds, totals."""

    ruleset: Ruleset
    hand_number: int
    dealer: Seat
    round_wind: Wind | None
    rounds_done: int
    carry_pool: int | None
    totals: Annotated[list[int], Field(min_length=4, max_length=4)]
    over: bool


class TimingJson(_Out):
    """A table's timing, in seconds (null: no limit); see "Time, and what it reveals"."""

    pause: float
    claim: float | None
    turn: float | None
    bank: float
    santan: float | None
    bot_turn: float
    bot_claim: float
    between_hands: float | None
    uniform_window: bool


class LengthJson(_Out):
    hands: int | None
    rounds: int | None


class UserJson(_Out):
    id: int
    name: str


class SeatInfo(_Out):
    seat: Seat
    user: int | None  # null for a bot
    name: str | None  # null: the seat is empty
    kind: Literal["empty", "person", "bot"]
    ready: bool
    mode: Mode
    connected: bool
    auto_reason: str | None = None


class TableInfo(_Out):
    id: int
    number: int
    name: str
    ruleset: Ruleset
    options: dict[str, Any]  # every rule option, named (options.md)
    base: int
    fee: int
    escape_penalty: int = 0  # 银子 an escaper pays on top of the hand
    stakes: Literal["points", "silver"]
    length: LengthJson
    private: bool
    room_code: str | None
    host: int | None
    status: Literal["waiting", "playing", "between", "closed"]
    timing: TimingJson
    seats: Annotated[list[SeatInfo], Field(min_length=4, max_length=4)]
    spectators: int
    match: MatchJson | None
    badges: list[str]
