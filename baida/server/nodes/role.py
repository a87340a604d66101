"""A node's place in a hall of several processes (``baida serve --nodes N`` on one machine,
or ``baida serve --node-name NAME`` on each of several): its name, where the nodes of its
machine take handed connections, where other machines' nodes reach it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

NODE_PREFIX = "node-"


@dataclass(frozen=True, slots=True)
class NodeRole:
    """This process's place in a hall of several nodes."""

    index: int
    count: int
    folder: Path  # where the nodes' handoff sockets are
    redis_url: str
    prefix: str  # the hall's keys in Redis
    given_name: str | None = None  # a node of a hall on several machines (--node-name)
    address: str | None = None  # host:port where the other machines' nodes reach this one

    @property
    def name(self) -> str:
        return self.given_name or node_name(self.index)

    def owns(self, table_id: int, config: dict[str, Any]) -> bool:
        """Whether a stored open table is this node's: a player's table stays with the node
        that made it (modulo the nodes there are now), a standing table goes by its id."""
        home = config.get("node")
        return (home if isinstance(home, int) else table_id) % self.count == self.index


def node_name(index: int) -> str:
    return f"{NODE_PREFIX}{index}"


def node_index(name: str) -> int | None:
    tail = name.removeprefix(NODE_PREFIX)
    return int(tail) if name.startswith(NODE_PREFIX) and tail.isdigit() else None


def handoff_folder(data_dir: Path, port: int) -> Path:
    return data_dir / "nodes" / str(port)
