"""The ``baida`` command: score | play | replay | arena | review.

Each subcommand lives in its own module and exposes ``add_arguments(parser)`` and
``run(args) -> int``; this file only wires them together and turns unexpected failures
into one clear line instead of a traceback. Only the module of the subcommand that runs is
imported (``baida score`` never loads the terminal UI, the arena or rich), so a short command
starts fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys

SUBCOMMANDS = {
    "score": ("baida.commands.score",
              "score one finished hand given as JSON (docs/scoring-api.md)"),
    "play": ("baida.play", "play a match in the terminal against three bots"),
    "replay": ("baida.commands.replay", "re-run a game record and check its settlement"),
    "arena": ("baida.commands.arena", "pit bots against each other in duplicate matches"),
    "review": ("baida.commands.review", "the expert bot's value of each decision in a hand"),
    "serve": ("baida.server.serve_cli", "run the online hall (lobby, tables, browser client)"),
    "client": ("baida.client.cli", "play a match at a hall from the terminal"),
    "admin": ("baida.server.admin_cli", "operator commands on a hall's database"),
    "nodes": ("baida.server.nodes_cli", "a hall's nodes: list, drain one, undrain it"),
}


def _chosen(argv: list[str]) -> str | None:
    """The subcommand named on the command line (its first word), if it is one."""
    return argv[0] if argv and argv[0] in SUBCOMMANDS else None


def build_parser(argv: list[str] | None = None) -> argparse.ArgumentParser:
    """The parser; every subcommand is listed, but only the chosen one's module (all of them
    when ``argv`` is None) is imported to add its arguments."""
    chosen = None if argv is None else _chosen(argv)
    parser = argparse.ArgumentParser(prog="baida", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, (module_name, help_text) in SUBCOMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        if argv is not None and name != chosen:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue  # not built yet
        module.add_arguments(child)
        child.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(argv)
    args = parser.parse_args(argv)
    run = getattr(args, "_run", None)
    if run is None:
        parser.error(f"the {args.command} command is not available in this build")
    try:
        return int(run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: still one line, never a traceback
        from .jsonin import error_line
        from .quote import quote

        print(error_line(f"internal error: {type(exc).__name__}({quote(str(exc), 80)})"),
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
