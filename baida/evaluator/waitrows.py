"""Waits from one table row per part: which of a part's kinds complete the hand when drawn.

The win test (``tables.NEED``) says a hand is complete when ``sum(n0) + min(n1 - n0) <= wilds``
over its four parts. Drawing kind ``i`` changes one part only, from key ``K`` to ``K + i``, so
the hand plus ``i`` is complete exactly when

    (n0(K + i) - n0(K)) + min(m, n1(K + i) - n0(K + i)) <= wilds - sum(n0)

where ``m`` is the smallest ``n1 - n0`` of the other three parts. Both differences lie in
-1..2 (one more tile changes the wilds a part needs by -1..+2, and a pair is at most one wild
cheaper and two dearer than sets alone), so the left side lies in -2..4. A part's *row*
(``ROWS[K]``) holds, for each ``m`` and each right side ``T`` clipped to -2..4, the bit set of
the part's kinds that pass; a kind the part holds four times never does. ``waits`` is then four
row lookups and a few integer operations, exactly the answers of 34 win tests.
"""

from __future__ import annotations

from .tables import NEED, need_code

# ``ROWS[key]``: (n0, the bit 1 << (n1 - n0 + 1), rows): ``rows[b][T + 2]`` is the bit set of
# kinds that pass when ``b`` is the OR of the other parts' bits (its lowest bit gives ``m``)
ROWS: dict[bytes, tuple[int, int, tuple[tuple[int, ...], ...]]] = {}
RIGHT = 7  # right sides -2..4, the last meaning "4 or more": every kind that can be drawn


def _kinds_of(offset: int, width: int) -> tuple[tuple[int, ...], ...]:
    """For each bit set over ``width`` kinds, the kinds it holds, counted from ``offset``."""
    return tuple(
        tuple(offset + i for i in range(width) if mask >> i & 1) for mask in range(1 << width)
    )


KINDS = (_kinds_of(0, 9), _kinds_of(9, 9), _kinds_of(18, 9), _kinds_of(27, 7))


def _need(key: bytes) -> tuple[int, int]:
    code = NEED.get(key)
    if code is None:
        code = need_code(key)
    return code >> 16, (code & 0xFF).bit_length() - 5


def wait_row(key: bytes) -> tuple[int, int, tuple[tuple[int, ...], ...]]:
    """Fill and return ``ROWS[key]`` for a suit (9 bytes) or the honours (7 bytes)."""
    n0, d = _need(key)
    drawn = []  # (n0 difference, n1 - n0) of the key with one more copy of each kind
    for i in range(len(key)):
        if key[i] >= 4:
            continue
        work = bytearray(key)
        work[i] += 1
        n0_after, d_after = _need(bytes(work))
        if not -1 <= n0_after - n0 <= 2 or not -1 <= d_after <= 2:  # the bounds the rows rely on
            raise AssertionError(f"need codes of {key!r} out of bounds")
        drawn.append((i, n0_after - n0, d_after))
    by_least = []
    for least in range(-1, 3):
        masks = []
        for right in range(-2, -2 + RIGHT):
            mask = 0
            for i, step, d_after in drawn:
                if right == 4 or step + min(least, d_after) <= right:
                    mask |= 1 << i
            masks.append(mask)
        by_least.append(tuple(masks))
    # the lowest bit of b: the smallest n1 - n0 of the other parts (b is never 0)
    rows = tuple(by_least[(b & -b).bit_length() - 1] if b else () for b in range(16))
    row = (n0, 1 << (d + 1), rows)
    ROWS[key] = row
    return row


def waits_of(b: bytes, wilds: int) -> list[int]:
    """The kinds that complete the hand of 34 counts ``b`` with ``wilds`` wilds, none of them a
    kind held four times."""
    k = b[0:9]
    m = ROWS.get(k) or wait_row(k)
    k = b[9:18]
    p = ROWS.get(k) or wait_row(k)
    k = b[18:27]
    s = ROWS.get(k) or wait_row(k)
    k = b[27:34]
    h = ROWS.get(k) or wait_row(k)
    right = wilds - m[0] - p[0] - s[0] - h[0] + 2
    if right < 0:
        return []
    if right >= RIGHT:
        right = RIGHT - 1
    bm, bp, bs, bh = m[1], p[1], s[1], h[1]
    mm = m[2][bp | bs | bh][right]
    mp = p[2][bm | bs | bh][right]
    ms = s[2][bm | bp | bh][right]
    mh = h[2][bm | bp | bs][right]
    if not (mm or mp or ms or mh):
        return []
    return [*KINDS[0][mm], *KINDS[1][mp], *KINDS[2][ms], *KINDS[3][mh]]
