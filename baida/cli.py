"""The ``baida`` command: score | play | replay | arena | review.

Each subcommand lives in its own module and exposes ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them together and turns unexpected failures
into one clear line instead of a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = {
    "score": ("baida.scoring.cli", "score one finished hand given as JSON (SCORING_API.md)"),
    "play": ("baida.play", "play a match in the terminal against three bots"),
    "replay": ("baida.engine.replay_cli", "re-run a game record and check its settlement"),
    "arena": ("baida.bots.arena_cli", "pit bots against each other in duplicate matches"),
    "review": ("baida.bots.review_cli", "the expert bot's value of each decision in a hand"),
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="baida", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # not built yet
        child = sub.add_parser(name, help=help_text, description=help_text)
        module.add_arguments(child)
        child.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
