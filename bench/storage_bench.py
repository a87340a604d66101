"""The hall's storage on SQLite and PostgreSQL: appending hand actions and settling hands.

``python -m bench.storage_bench [--postgres URL] [--repeats 9]``

* append_actions throughput, in actions per second, for batches of 50 and of 1 (one
  transaction per batch), and ``append_many`` with 20 hands x 5 actions per transaction
  (a writer thread's group commit);
* settle_hand latency (4 seats: 3 players and a bot, caps and fees), each call on its own;
* finish (record + settlement + match state in one transaction) latency.

SQLite runs with ``synchronous=FULL`` (the store's default) and ``NORMAL``; PostgreSQL with
the server's settings and with ``synchronous_commit=off`` (what is left without the wait for
the disk), in a schema made for the run and dropped after it. Each figure is the
median of ``--repeats`` runs with a distribution-free 95% interval for that median.
"""

from __future__ import annotations

import argparse
import math
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from argon2 import PasswordHasher
from sqlalchemy import create_engine, text
from sqlalchemy.engine import make_url

from baida.server.store import SettleRequest, Store

ACTION = {"type": "discard", "seat": 0, "tile": "5p"}


def median_interval(values: list[float]) -> tuple[float, float, float]:
    """(median, low, high): order statistics that hold the median with >= 95% probability
    (the widest, min and max, when there are too few runs for 95%)."""
    ordered = sorted(values)
    n = len(ordered)
    k = 0  # the largest k with P(Binomial(n, 1/2) < k + 1) * 2 <= 5%
    while k + 1 < n / 2 and 2 * sum(math.comb(n, i) for i in range(k + 2)) / 2**n <= 0.05:
        k += 1
    return statistics.median(ordered), ordered[k], ordered[n - 1 - k]


@contextmanager
def opened(target: str, **options) -> Iterator[Store]:
    store = Store(target, password_hasher=PasswordHasher(time_cost=1, memory_cost=8,
                                                        parallelism=1), **options)
    store.migrate()
    try:
        yield store
    finally:
        store.close()


@contextmanager
def postgres_schema(url: str, options: str = "") -> Iterator[str]:
    schema = f"baida_bench_{uuid.uuid4().hex[:12]}"
    admin = create_engine(url)
    with admin.begin() as connection:
        connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        target = make_url(url).update_query_dict(
            {"options": f"-csearch_path={schema} {options}".strip()})
        yield target.render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        admin.dispose()


class Workload:
    """A table with a match, players and a supply of fresh hands."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.users = [store.accounts.create_guest().id for _ in range(3)]
        table = store.tables.create("jiaxing", 1, options={}, config={"stakes": "silver"})
        self.match_id = store.tables.start_match(table.id, [*self.users, None], {}).id
        self.number = 0

    def hand(self) -> int:
        self.number += 1
        return self.store.hands.start(self.match_id, self.number, ruleset="jiaxing",
                                      seed=self.number.to_bytes(32, "big"), setup={},
                                      seats=[*self.users, None]).id

    def append_rate(self, batch: int, actions: int) -> float:
        hand, seq = self.hand(), 0
        start = time.perf_counter()
        while seq < actions:
            self.store.hands.append_actions(hand, [(seq + i, ACTION) for i in range(batch)])
            seq += batch
        return seq / (time.perf_counter() - start)

    def group_rate(self, hands: int, each: int, rounds: int) -> float:
        ids = [self.hand() for _ in range(hands)]
        start = time.perf_counter()
        for r in range(rounds):
            self.store.hands.append_many(
                {h: [(r * each + i, ACTION) for i in range(each)] for h in ids})
        return hands * each * rounds / (time.perf_counter() - start)

    def settle_ms(self, calls: int) -> float:
        times = []
        for _ in range(calls):
            key = uuid.uuid4().hex
            start = time.perf_counter()
            self.store.ledger.settle_hand(key, [*self.users, None], [-40, 10, 10, 20], 2)
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000

    def finish_ms(self, calls: int) -> float:
        times = []
        record = {"format": "baida-record-v1", "actions": [ACTION] * 80}
        for _ in range(calls):
            hand = self.hand()
            settle = SettleRequest(f"hand:{hand}", [*self.users, None], [-40, 10, 10, 20], 2)
            start = time.perf_counter()
            self.store.hands.finish(hand, record, {"outcome": "win"}, settle=settle,
                                    match_state={"hand_number": hand})
            times.append(time.perf_counter() - start)
        return statistics.median(times) * 1000


def measure(store: Store, repeats: int) -> dict[str, tuple[float, float, float]]:
    work = Workload(store)
    work.append_rate(50, 500)  # warm up: connections, statement caches
    work.settle_ms(20)
    runs: dict[str, Callable[[], float]] = {
        "append_actions, batches of 50 (actions/s)": lambda: work.append_rate(50, 2000),
        "append_actions, batches of 1 (actions/s)": lambda: work.append_rate(1, 200),
        "append_many, 20 hands x 5 (actions/s)": lambda: work.group_rate(20, 5, 20),
        "settle_hand (ms, median of 50 calls)": lambda: work.settle_ms(50),
        "finish with settlement (ms, median of 30)": lambda: work.finish_ms(30),
    }
    return {name: median_interval([run() for _ in range(repeats)]) for name, run in runs.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.storage_bench",
                                     description=__doc__.splitlines()[0])
    parser.add_argument("--postgres", default="", help="a postgresql+psycopg:// URL")
    parser.add_argument("--repeats", type=int, default=9)
    args = parser.parse_args(argv)
    results: dict[str, dict[str, tuple[float, float, float]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for level in ("FULL", "NORMAL"):
            with opened(str(Path(tmp) / f"{level}.db"), sqlite_synchronous=level) as store:
                results[f"SQLite {level}"] = measure(store, args.repeats)
    if args.postgres:
        for label, options in (("PostgreSQL", ""),
                               ("PostgreSQL, no commit wait", "-csynchronous_commit=off")):
            with postgres_schema(args.postgres, options) as url, opened(url) as store:
                results[label] = measure(store, args.repeats)
    columns = list(results)
    print("| measure | " + " | ".join(columns) + " |")
    print("|---|" + "---|" * len(columns))
    for name in next(iter(results.values())):
        cells = []
        for column in columns:
            mid, low, high = results[column][name]
            cells.append(f"{mid:,.0f} [{low:,.0f}–{high:,.0f}]" if mid >= 100 else
                         f"{mid:.2f} [{low:.2f}–{high:.2f}]")
        print(f"| {name} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
