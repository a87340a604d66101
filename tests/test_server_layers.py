"""The hall's code in layers (``baida/server``): folders by job, read top to bottom.

Every import of ``baida.server``'s modules is read from their source (the AST, so an import
inside a function or under ``TYPE_CHECKING`` counts as much as one at the top: a circle
cannot hide in either). A module may import the modules of its own folder and of the
folders below its own, never of one above; no modules import each other round a circle; no
file is past 700 lines. The order, top to bottom (``""``: the modules at the top of
``baida/server``, the command-line faces):
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

import baida.server

LAYERS = ["", "web", "tables", "nodes", "directory", "store", "ops"]
PACKAGE = "baida.server"
ROOT = Path(baida.server.__file__).resolve().parent
MAX_LINES = 700

Graph = dict[str, set[str]]


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def server_modules() -> dict[str, Path]:
    return {module_name(path): path for path in sorted(ROOT.rglob("*.py"))}


def imported(name: str, source: str, is_package: bool, known: Iterable[str]) -> set[str]:
    """The modules of ``known`` that ``source`` (module ``name``) imports."""
    known = set(known)
    package = name if is_package else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")
                parts = parts[: len(parts) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:  # ``from pkg import mod`` imports pkg.mod
                out.add(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
    return {m for m in out if m in known and m != name}


def import_graph() -> Graph:
    modules = server_modules()
    return {
        name: imported(name, path.read_text(), path.name == "__init__.py", modules)
        for name, path in modules.items()
    }


def layer(name: str) -> str:
    """The folder of ``baida/server`` a module (or a package: its ``__init__``) is in
    (``""``: its top)."""
    parts = name.removeprefix(PACKAGE).lstrip(".").split(".")
    head = parts[0]
    return head if head and (len(parts) > 1 or (ROOT / head).is_dir()) else ""


def upward(graph: Graph, layers: list[str]) -> list[str]:
    """Every import from a lower layer to a higher one."""
    return [f"{a} ({layer(a) or 'top'}) imports {b} ({layer(b) or 'top'})"
            for a, targets in sorted(graph.items()) for b in sorted(targets)
            if layers.index(layer(b)) < layers.index(layer(a))]


def circles(graph: Graph) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


# ---------------------------------------------------------------- the hall's code


def test_every_folder_has_its_place_in_the_order() -> None:
    folders = {layer(name) for name in server_modules()}
    assert folders <= set(LAYERS), f"place {sorted(folders - set(LAYERS))} in LAYERS"
    assert set(LAYERS) <= folders, f"{sorted(set(LAYERS) - folders)} no longer exist"


def test_no_import_runs_up_the_layers() -> None:
    assert upward(import_graph(), LAYERS) == []


def test_no_import_circle() -> None:
    assert circles(import_graph()) == []


def test_no_file_is_past_700_lines() -> None:
    long = {str(path.relative_to(ROOT)): n for path in ROOT.rglob("*.py")
            if (n := len(path.read_text().splitlines())) > MAX_LINES}
    assert long == {}


def test_the_graph_sees_the_layers_it_checks() -> None:
    """The graph is not empty by mistake: imports the hall is known to make are in it."""
    graph = import_graph()
    assert "baida.server.tables.hall" in graph["baida.server.web.runtime"]
    assert "baida.server.tables.actor" in graph["baida.server.tables.hall"]
    assert "baida.server.store" in graph["baida.server.nodes.supervisor"]  # from ..store import
    assert "baida.server.tables.protocol" in graph["baida.server.tables.actor.outbox"]


# ---------------------------------------------------------------- the checks themselves


def test_a_circle_is_found_also_through_a_local_or_type_only_import() -> None:
    known = {"baida.server.tables.a", "baida.server.tables.b", "baida.server.tables.c"}
    sources = {
        "baida.server.tables.a": "from .b import X\n",
        "baida.server.tables.b": "def f():\n    from . import c\n",
        "baida.server.tables.c": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
            "    from baida.server.tables.a import Y\n"),
    }
    graph = {name: imported(name, src, False, known) for name, src in sources.items()}
    assert graph["baida.server.tables.b"] == {"baida.server.tables.c"}
    assert circles(graph) == [sorted(known)]
    del graph["baida.server.tables.c"]
    assert circles(graph) == []


def test_an_import_up_the_layers_is_found() -> None:
    known = {"baida.server.ops.logs", "baida.server.web.app", "baida.server.serve_cli"}
    down = imported("baida.server.web.app", "from ..ops.logs import fields\n", False, known)
    up = imported("baida.server.ops.logs", "from ..serve_cli import run\n", False, known)
    assert down == {"baida.server.ops.logs"} and up == {"baida.server.serve_cli"}
    graph = {"baida.server.web.app": down, "baida.server.ops.logs": up}
    assert upward(graph, LAYERS) == [
        "baida.server.ops.logs (ops) imports baida.server.serve_cli (top)"]


def test_a_package_and_its_modules_resolve() -> None:
    known = {"baida.server.store", "baida.server.store.hands", "baida.server.tables.protocol"}
    src = ("from ...store import Store\nfrom ...store.hands import SettleRequest\n"
           "from .. import protocol as P\nimport json\n")
    assert imported("baida.server.tables.actor.outbox", src, False, known) == known
