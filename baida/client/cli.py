"""``baida client``: play a match at a hall from the terminal (``docs/protocol.md``)."""

from __future__ import annotations

import argparse
import sys

from ..rulesets import names


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--url", default="http://127.0.0.1:8000", help="the hall's address")
    parser.add_argument("--ruleset", choices=names(), default="jiaxing",
                        help="quick play: the ruleset of the table with three bots")
    parser.add_argument("--table", type=int, default=None, help="join this table instead")
    parser.add_argument("--room", default=None, help="join a private table by its room code")
    parser.add_argument("--name", default=None, help="sign in (default: play as a guest)")
    parser.add_argument("--password", default=None)
    parser.add_argument("--auto", action="store_true",
                        help="answer every prompt by a fixed rule (win, pass, discard the draw)")


def run(args: argparse.Namespace) -> int:
    from .play import run_client
    from .session import HallError

    try:
        return run_client(args.url, ruleset=args.ruleset, auto=args.auto, table=args.table,
                          room=args.room, name=args.name, password=args.password)
    except HallError as exc:
        print(f"baida client: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"baida client: cannot reach {args.url}: {exc}", file=sys.stderr)
        return 2
