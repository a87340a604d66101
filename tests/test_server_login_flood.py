"""A login flood does not slow play: 24 clients signing in with a valid password (real argon2
parameters, in the hall's hashing thread at a low priority) leave a table socket's ping p99
within 3× its quiet value (``bench.login_flood``; a quiet p99 under 2 ms counts as 2 ms, so
that loopback jitter of a fraction of a millisecond is not read as a slowdown)."""

from __future__ import annotations

from bench.login_flood import run

FLOOR_MS = 2.0


def test_a_login_flood_leaves_the_table_sockets_ping_within_three_times_quiet() -> None:
    out = run(clients=24, pings=200, gap=0.01)
    assert out["logins_per_s"] > 0, out  # the flood did sign in
    assert out["flood_ping_p99_ms"] <= 3 * max(out["quiet_ping_p99_ms"], FLOOR_MS), out
    # the lobby is not starved either (its requests read the session from the database)
    assert out["flood_lobby_p50_ms"] <= 3 * max(out["quiet_lobby_p50_ms"], 10.0), out
