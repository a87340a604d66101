"""``baida serve``: run the hall (the lobby, the tables, the browser client) on this machine."""

from __future__ import annotations

import argparse
import functools
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from .nodes.role import NodeRole, handoff_folder
from .ops.paths import default_data_dir
from .tables.pace import MIN_BOT_TIME, UNATTENDED_PACE
from .web.metrics_access import METRICS_FROM

if TYPE_CHECKING:  # the command line imports this module; the hall only when it runs
    from .web.settings import HallSettings

NODE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9-]*")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    parser.add_argument("--data", type=Path, default=None,
                        help="data folder for the database and the signing key "
                        f"(default {default_data_dir()})")
    parser.add_argument("--database", default=None, metavar="URL",
                        help="a PostgreSQL URL (postgresql+psycopg://user@host/db); "
                        "default: SQLite in the data folder")
    parser.add_argument("--bot-workers", type=int, default=1,
                        help="processes that think for bots and 托管 (default 1)")
    parser.add_argument("--starting-balance", type=int, default=1000,
                        help="银子 a new account starts with")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="skip filling the evaluator tables at start")
    parser.add_argument("--secure-cookies", action="store_true",
                        help="mark cookies Secure (when served over HTTPS)")
    parser.add_argument("--client-rate", type=float, default=8.0, metavar="N",
                        help="messages a second one connection may send on average "
                        "(default 8; more are refused, a flood is disconnected)")
    parser.add_argument("--client-burst", type=float, default=24.0, metavar="N",
                        help="... and at once (default 24)")
    parser.add_argument("--guests-per-hour", type=int, default=10, metavar="N",
                        help="guests one address may make in an hour (default 10; 0: no limit)")
    parser.add_argument("--signins-per-address", type=int, default=40, metavar="N",
                        help="sign-ins, registrations and password changes one address may "
                        "try in 10 minutes (default 40; 0: no limit)")
    parser.add_argument("--request-timeout", type=float, default=10.0, metavar="SECONDS",
                        help="time a client has to send a request's headers and body "
                        "(default 10; a slower one gets 408 and is disconnected)")
    parser.add_argument("--max-connections-per-address", type=int, default=64, metavar="N",
                        help="open connections one address may hold (default 64; more get "
                        "429); a trusted proxy is not counted")
    parser.add_argument("--max-sockets-per-address", type=int, default=32, metavar="N",
                        help="table sockets one address may hold (default 32)")
    parser.add_argument("--max-sockets-per-account", type=int, default=8, metavar="N",
                        help="table sockets one account may hold (default 8)")
    parser.add_argument("--forwarded-allow-ips", default="", metavar="ADDRESSES",
                        help="proxies (addresses or networks, comma-separated; * for any) "
                        "whose X-Forwarded-For names the client (default: none, every "
                        "limit counts the connecting address)")
    parser.add_argument("--metrics-from", default=METRICS_FROM, metavar="NETWORKS",
                        help="who may read /metrics: addresses or networks, comma-separated, "
                        "* for any (default: this machine); never through a proxy (a request "
                        "with X-Forwarded-For, Forwarded or X-Real-IP is refused)")
    parser.add_argument("--password-workers", type=int, default=1, metavar="N",
                        help="threads that hash passwords at once (default 1; logins "
                        "beyond wait their turn, play is not slowed)")
    parser.add_argument("--chat-filter", type=Path, default=None, metavar="FILE",
                        help="words the table chat masks with * and names may not hold, one "
                             "a line (UTF-8; # starts a comment): any case or width, spaces "
                             "and punctuation between their letters ignored; read again when "
                             "it changes")
    parser.add_argument("--unattended-pace", type=float, default=UNATTENDED_PACE,
                        metavar="SECONDS",
                        help="at a table nobody is connected to, the least time between two "
                        f"decisions of its bots and 托管 (default {UNATTENDED_PACE:g}; 0: none)")
    parser.add_argument("--min-bot-time", type=float, default=MIN_BOT_TIME, metavar="SECONDS",
                        help="the least time a bot or 托管 may take over a turn at a table a "
                        "player makes: a shorter timing.bot_turn, turn or santan is "
                        f"refused (default {MIN_BOT_TIME:g}; 0: any)")
    parser.add_argument("--log-format", choices=("auto", "text", "json"), default="auto",
                        help="log lines as JSON objects or text (default auto: JSON unless "
                        "stderr is a terminal)")
    parser.add_argument("--log-level", default="info")
    parser.add_argument("--nodes", type=int, default=1, metavar="N",
                        help="run the hall as N processes sharing the port, each owning some "
                        "of the tables (default 1; more need --redis)")
    parser.add_argument("--redis", default="redis://127.0.0.1:6379/0", metavar="URL",
                        help="the Redis server the nodes share (with --nodes)")
    parser.add_argument("--redis-prefix", default="baida", metavar="NAME",
                        help="the hall's keys in Redis (default baida; one per hall)")
    parser.add_argument("--node-name", default=None, metavar="NAME",
                        help="run as one node of a hall on several machines, sharing "
                        "--database (PostgreSQL) and --redis with the others: this node's "
                        "name, unique in the hall (letters, digits, '-')")
    parser.add_argument("--advertise", default=None, metavar="HOST:PORT",
                        help="where the other machines' nodes reach this one (default "
                        "--host:--port)")
    # how the supervisor of --nodes starts each node (not for people)
    for flag in ("--node-index", "--node-count", "--listen-fd", "--ready-fd"):
        parser.add_argument(flag, type=int, default=None, help=argparse.SUPPRESS)


def settings_from(args: argparse.Namespace) -> HallSettings:
    """The ``HallSettings`` the flags ask for."""
    from .web.settings import HallSettings

    settings = HallSettings(
        host=args.host,
        port=args.port,
        database=args.database,
        starting_balance=args.starting_balance,
        bot_workers=args.bot_workers,
        warm_up=not args.no_warm_up,
        secure_cookies=args.secure_cookies,
        client_rate=args.client_rate,
        client_burst=args.client_burst,
        guests_per_hour=args.guests_per_hour,
        signins_per_address=args.signins_per_address,
        request_timeout=args.request_timeout,
        connections_per_address=args.max_connections_per_address,
        sockets_per_address=args.max_sockets_per_address,
        sockets_per_account=args.max_sockets_per_account,
        forwarded_allow_ips=args.forwarded_allow_ips,
        metrics_from=args.metrics_from,
        password_workers=args.password_workers,
        chat_filter=args.chat_filter,
        unattended_pace=args.unattended_pace,
        min_bot_time=args.min_bot_time,
    )
    if args.data is not None:
        settings.data_dir = args.data
    if args.node_index is not None:
        settings.node = NodeRole(args.node_index, args.node_count,
                                 handoff_folder(settings.data_dir, args.port),
                                 args.redis, args.redis_prefix, address=args.advertise)
    elif args.node_name is not None:
        settings.node = NodeRole(0, 1, handoff_folder(settings.data_dir, args.port),
                                 args.redis, args.redis_prefix, given_name=args.node_name,
                                 address=args.advertise or f"{args.host}:{args.port}")
    return settings


def node_settings_error(args: argparse.Namespace) -> str | None:
    """What is wrong with ``--node-name`` and ``--advertise`` (None: nothing)."""
    name = args.node_name
    if name is not None:
        if not (0 < len(name) <= 64 and NODE_NAME.fullmatch(name)):
            return "--node-name is 1-64 letters, digits and '-'"
        if args.nodes > 1:
            return "--node-name is one node: run one process per name (not with --nodes)"
        if args.advertise is None and args.host in ("0.0.0.0", "::"):
            return "--advertise HOST:PORT is needed when --host listens on every address"
    if args.advertise is not None:
        host, sep, port = args.advertise.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            return f"--advertise is HOST:PORT, got {args.advertise!r}"
    return None


def node_flags(args: argparse.Namespace) -> list[str]:
    """The flags every node of ``--nodes`` is started with: the supervisor's own but
    ``--nodes``."""
    flags = ["--host", args.host, "--port", str(args.port),
             "--bot-workers", str(args.bot_workers),
             "--starting-balance", str(args.starting_balance),
             "--client-rate", str(args.client_rate), "--client-burst", str(args.client_burst),
             "--guests-per-hour", str(args.guests_per_hour),
             "--signins-per-address", str(args.signins_per_address),
             "--request-timeout", str(args.request_timeout),
             "--max-connections-per-address", str(args.max_connections_per_address),
             "--max-sockets-per-address", str(args.max_sockets_per_address),
             "--max-sockets-per-account", str(args.max_sockets_per_account),
             "--forwarded-allow-ips", args.forwarded_allow_ips,
             "--metrics-from", args.metrics_from,
             "--password-workers", str(args.password_workers),
             "--unattended-pace", str(args.unattended_pace),
             "--min-bot-time", str(args.min_bot_time),
             "--log-format", args.log_format, "--log-level", args.log_level,
             "--redis", args.redis, "--redis-prefix", args.redis_prefix]
    if args.advertise is not None:
        flags += ["--advertise", args.advertise]
    if args.data is not None:
        flags += ["--data", str(args.data)]
    if args.chat_filter is not None:
        flags += ["--chat-filter", str(args.chat_filter.resolve())]
    if args.database is not None:
        flags += ["--database", args.database]
    if args.no_warm_up:
        flags.append("--no-warm-up")
    if args.secure_cookies:
        flags.append("--secure-cookies")
    return flags


def run(args: argparse.Namespace) -> int:
    from .ops.logs import setup_logging
    from .store.ledger import MAX_BALANCE
    from .web.app import create_app, hall_server, server_config
    from .web.ws_protocol import adopt

    if not 0 < args.port < 65536:
        print("baida serve: --port must be 1-65535", file=sys.stderr)
        return 2
    if min(args.bot_workers, args.starting_balance, args.guests_per_hour,
           args.signins_per_address) < 0:
        print("baida serve: --bot-workers, --starting-balance, --guests-per-hour and "
              "--signins-per-address are >= 0", file=sys.stderr)
        return 2
    if args.starting_balance > MAX_BALANCE:
        print(f"baida serve: --starting-balance is at most {MAX_BALANCE}", file=sys.stderr)
        return 2
    if not (0 < args.client_rate <= 10_000 and 1 <= args.client_burst <= 10_000):
        print("baida serve: --client-rate is in (0, 10000] and --client-burst in [1, 10000]",
              file=sys.stderr)
        return 2
    if not 0 <= args.unattended_pace <= 60:
        print("baida serve: --unattended-pace is in [0, 60] seconds", file=sys.stderr)
        return 2
    if not 0 <= args.min_bot_time <= 60:
        print("baida serve: --min-bot-time is in [0, 60] seconds", file=sys.stderr)
        return 2
    if not 0 < args.request_timeout <= 3600:
        print("baida serve: --request-timeout is in (0, 3600] seconds", file=sys.stderr)
        return 2
    if min(args.max_connections_per_address, args.max_sockets_per_address,
           args.max_sockets_per_account, args.password_workers) < 1:
        print("baida serve: the --max-... limits and --password-workers are >= 1",
              file=sys.stderr)
        return 2
    try:
        from .web.client_limits import TrustedProxies

        TrustedProxies(args.forwarded_allow_ips)
    except ValueError as exc:
        print(f"baida serve: --forwarded-allow-ips: {exc}", file=sys.stderr)
        return 2
    try:
        TrustedProxies(args.metrics_from)
    except ValueError as exc:
        print(f"baida serve: --metrics-from: {exc}", file=sys.stderr)
        return 2
    if args.chat_filter is not None:
        from .tables.chat_filter import ChatFilter, ChatFilterError

        try:
            ChatFilter.from_file(args.chat_filter)
        except ChatFilterError as exc:
            print(f"baida serve: --chat-filter: {exc}", file=sys.stderr)
            return 2
    if not 1 <= args.nodes <= 64:
        print("baida serve: --nodes must be 1-64", file=sys.stderr)
        return 2
    problem = node_settings_error(args)
    if problem is not None:
        print(f"baida serve: {problem}", file=sys.stderr)
        return 2
    settings = settings_from(args)
    if args.node_index is None:  # the supervisor or a lone hall: its nodes inherit a good one
        from .store.preflight import database_problem, folder_problem

        problem = folder_problem(settings.data_dir) or database_problem(settings.database_url)
        if problem is not None:
            print(f"baida serve: {problem}", file=sys.stderr)
            return 2
    setup_logging(args.log_format, args.log_level)
    from .web.client_limits import raise_descriptor_limit

    raise_descriptor_limit()  # one descriptor a connection: as many as the system allows
    if args.nodes > 1 and args.node_index is None:
        from .nodes.supervisor import supervise

        return supervise(args, node_flags(args), data_dir=settings.data_dir,
                         database_url=settings.database_url,
                         sqlite_synchronous=settings.sqlite_synchronous)
    if settings.node is not None:  # held until this process ends: a new supervisor waits
        from .nodes import lifeline

        try:
            lock = lifeline.hold(lifeline.lock_path(settings.node.folder, settings.node.name))
        except BlockingIOError:
            print(f"baida serve: {settings.node.name} of this hall is already running",
                  file=sys.stderr)
            return 1
    app = create_app(settings)
    where = {} if args.listen_fd is None else {"fd": args.listen_fd}  # a node: the shared socket
    config = server_config(app, settings.host, settings.port, log_config=None, lifespan="on",
                           ws_ping_interval=20.0, ws_ping_timeout=20.0, server_header=False,
                           **where)
    server = hall_server(config, f"http://{settings.host}:{settings.port}/",
                         ready_fd=args.ready_fd)
    app.runtime.adopt = functools.partial(adopt, server)  # connections other nodes hand over
    server.run()
    if settings.node is not None:
        lock.close()
    return 0
