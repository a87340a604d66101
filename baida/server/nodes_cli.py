"""``baida nodes``: the nodes of a hall on several machines, from its database: list them,
drain one (it takes no more tables and gives its tables away between hands, so that it can
be stopped without any player losing more than a reconnect), or let it take tables again."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from .ops.paths import default_data_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", type=Path, default=None,
                        help=f"the hall's data folder (default {default_data_dir()})")
    parser.add_argument("--database", default=None, metavar="URL", help="a PostgreSQL URL")
    sub = parser.add_subparsers(dest="nodes_command", required=True, metavar="ACTION")
    sub.add_parser("list", help="every node: alive, draining, its tables (JSON lines)")
    for name, text in (("drain", "give a node's tables to the others and take no more"),
                       ("undrain", "let a drained node take tables again")):
        child = sub.add_parser(name, help=text)
        child.add_argument("node", help="the node's name (--node-name, or node-N)")


def run(args: argparse.Namespace) -> int:
    from .store import Store, StoreError

    data = args.data or default_data_dir()
    if not args.database and not (data / "hall.db").exists():
        print(f"baida nodes: no hall database in {data}", file=sys.stderr)
        return 2
    from .store.preflight import database_problem

    url = args.database or str(data / "hall.db")
    problem = database_problem(url)
    if problem is not None:
        print(f"baida nodes: {problem}", file=sys.stderr)
        return 2
    store = Store(url)
    try:
        store.migrate()
        if args.nodes_command == "list":
            now, nodes = store.leases.nodes()
            _, leases = store.leases.leases()
            for node in nodes:
                held = sum(1 for lease in leases if lease.owner == node.name
                           and lease.expires > now)
                print(json.dumps({"node": node.name, "address": node.address,
                                  "alive": node.expires > now, "draining": node.draining,
                                  "tables": held}))
            return 0
        draining = args.nodes_command == "drain"
        if not store.leases.set_draining(args.node, draining):
            print(f"baida nodes: no node named {args.node!r} has run in this hall",
                  file=sys.stderr)
            return 2
        print(json.dumps({"node": args.node, "draining": draining}))
        return 0
    except StoreError as exc:
        print(f"baida nodes: {exc}", file=sys.stderr)
        return 2
    finally:
        store.close()
