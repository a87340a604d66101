"""baida play: a match in the terminal against three bots.

Keys: the key under a tile discards it (1-9, 0, a b d e f g i j, counted from the left), or
move the ▲ with ←/→ and press Enter/Space (▲ starts on the tile you drew: Enter is 摸切);
Enter/Space also pass a claim and mean 坚持 at 三摊; w 和, p 碰, c 吃, k 杠, l 腊子, y/n
坚持/放弃 at 三摊, r the hands played, q quits, ? helps. When you can win, the discard and
pass keys ask first and x confirms: a win is never thrown away by accident. A settlement
stays until Enter. Keys may come from a pipe, one character each:
yes w | baida play --hands 1   (w, Enter for ever: win when you can, else pass and 摸切)

Exit status: 0 the match was played to its end (or you quit with q); 1 the input ended
before the match did; 2 bad arguments; 130 interrupted (Ctrl-C).
"""

from __future__ import annotations

import argparse
import secrets
import sys

from rich.console import Console
from rich.text import Text

from .rules.options import OptionError
from .rulesets import names, ruleset
from .tui.i18n import LANGS, text
from .tui.keyboard import KeyReader
from .tui.recorder import RecordWriter
from .tui.session import EndOfInput, QuitMatch, Session, Settings

RULESETS = names()
DEFAULT_BOT = "efficient"
FALLBACK_BOT = "greedy"


def _positive(value: str) -> int:
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {value!r}") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"expected at least 1, got {n}")
    return n


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = __doc__.split("\n\n", 1)[1]
    parser.add_argument(
        "--ruleset", choices=RULESETS, default="jiaxing",
        help="嘉兴台头和 (jiaxing, the default) or 温岭麻将 (wenling)",
    )
    parser.add_argument(
        "--seed", default=None,
        help="any text; the same seed deals the same match (default: a random one, shown)",
    )
    parser.add_argument(
        "--hands", type=_positive, default=None, metavar="N",
        help="play N hands (default: Jiaxing 4 rounds, Wenling 1 round)",
    )
    parser.add_argument("--no-chi", action="store_true", help="a table without 吃 (Jiaxing)")
    parser.add_argument("--lang", choices=LANGS, default="zh", help="zh (default) or en")
    parser.add_argument(
        "--auto", action="store_true",
        help="a bot plays your seat too: the match runs unattended, printing each settlement",
    )
    parser.add_argument(
        "--bot", default=DEFAULT_BOT, metavar="NAME",
        help=f"the opponents' policy from baida.bots (default {DEFAULT_BOT})",
    )
    parser.add_argument(
        "--record", default=None, metavar="DIR",
        help="save every hand's game record in DIR as JSON (baida replay DIR/FILE re-runs it)",
    )


def _options(args: argparse.Namespace) -> dict[str, object]:
    options: dict[str, object] = {}
    if args.no_chi:
        if not ruleset(args.ruleset).claims_by_option:
            raise OptionError(
                "--no-chi: only a Jiaxing table may forbid 吃 (Wenling always allows it)"
            )
        options["allow_chi"] = False
    ruleset(args.ruleset).make_options(options)  # validated here, for a clear message
    return options


def _bot_name(requested: str) -> str:
    """The requested policy; the default falls back to greedy when efficient is not installed."""
    from .bots.policy import factory

    try:
        factory(requested)
    except (ImportError, AttributeError):
        if requested != DEFAULT_BOT:
            raise
        factory(FALLBACK_BOT)
        return FALLBACK_BOT
    return requested


def run(args: argparse.Namespace) -> int:
    console = Console(highlight=False)
    err = Console(stderr=True, highlight=False)
    seed = args.seed if args.seed is not None else secrets.token_hex(4)
    try:
        options = _options(args)
        bot = _bot_name(args.bot)
        recorder = RecordWriter(args.record, seed) if args.record is not None else None
    except (OptionError, ValueError, ImportError, OSError) as exc:
        err.print(Text(f"baida play: {exc}", style="red"))
        return 2
    settings = Settings(
        ruleset=args.ruleset,
        options=options,
        seed=seed,
        hands=args.hands,
        lang=args.lang,
        auto=args.auto,
        bot=bot,
    )
    reader = None if args.auto else KeyReader(sys.stdin)
    session = Session(settings, console, reader, recorder)
    try:
        if reader is None:
            session.run()
        else:
            with reader:
                session.run()
    except QuitMatch:
        session.print_totals()
        console.print(text("goodbye", args.lang))
        return 0
    except EndOfInput:
        console.print()
        session.print_totals()
        console.print(Text(text("eof", args.lang), style="yellow"))
        return 1
    except KeyboardInterrupt:
        console.print()
        session.print_totals()
        console.print(Text(text("interrupted", args.lang), style="yellow"))
        return 130
    return 0
