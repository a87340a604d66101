"""The shape of the code, read from its source: imports run down the layers, never in a circle,
and only the ruleset registry names a ruleset.

The import graph is built from the AST of every module of ``baida`` but the hall
(``baida/server``, checked on its own) and the browser client: every ``import`` counts, inside
functions and under ``TYPE_CHECKING`` too, since each is a dependency of the design. A module
importing a submodule implies its package's ``__init__``; that implicit step is not an edge
(a package's ``__init__`` may gather its own modules). The layers, lowest first, are
``LAYERS``; a module may import its own layer and the ones below.

The name check reads every module of ``baida`` outside ``baida/rulesets``: no comparison with
a ruleset's name (``== "jiaxing"``, ``in ("jiaxing", "wenling")``), no set or dict keyed by
one; a plain use of a name (a default at an edge: a command-line flag) only in the modules of
``NAME_USES``, counted.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

import baida

ROOT = Path(baida.__file__).parent
NAMES = frozenset({"jiaxing", "wenling"})
NOT_IN_GRAPH = ("baida.server", "baida.web")  # the hall has its own check; web is JavaScript

# (layer, the modules and packages in it), lowest first
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("utilities", ("baida.quote", "baida.jsonin")),
    ("tiles", ("baida.tiles", "baida.hand")),
    ("evaluator", ("baida.evaluator",)),
    ("rules", ("baida.rules",)),
    ("scoring", ("baida.scoring",)),
    ("rulesets", ("baida.rulesets",)),
    ("engine", ("baida.engine",)),
    ("rulebook", ("baida.rulebook",)),
    ("table", ("baida.table",)),
    ("bots", ("baida.bots",)),
    ("faces", ("baida.tui", "baida.client", "baida.play", "baida.warmup")),
    ("cli", ("baida.commands", "baida.cli")),
    ("hall", ("baida.server",)),
)
# module -> plain uses of a ruleset's name allowed there (defaults at the edges)
NAME_USES: dict[str, int] = {
    "baida.tui.ruleset": 1,  # a view that names no ruleset is read as Jiaxing
    "baida.tui.session": 1,  # the terminal game's default table
    "baida.play": 1,  # --ruleset default
    "baida.client.cli": 1,  # --ruleset default
    "baida.commands.arena": 1,  # --ruleset default
}
# module -> comparisons with a ruleset's name allowed there (none: the registry answers)
COMPARISONS: dict[str, int] = {}


# ---------------------------------------------------------------------- reading the source


def module_files(root: Path = ROOT, package: str = "baida") -> dict[str, Path]:
    """Every module under ``root`` by dotted name (a package by its own name)."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = list(path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join([package, *parts])] = path
    return out


def _known(name: str, known: Iterable[str]) -> str | None:
    """``name`` or its longest prefix that is a module."""
    modules = set(known)
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def imports(name: str, source: str, known: set[str], is_package: bool) -> set[str]:
    """The modules of ``known`` that module ``name`` imports, anywhere in its source."""
    out: set[str] = set()
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(source)):
        targets: list[str] = []
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[: len(parts) - (node.level - 1)])
                if node.module:
                    base = f"{base}.{node.module}"
            else:
                base = node.module or ""
            for alias in node.names:
                full = f"{base}.{alias.name}"
                targets.append(full if full in known else base)
        for target in targets:
            found = _known(target, known)
            if found is not None and found != name:
                out.add(found)
    return out


def import_graph(
    sources: Mapping[str, str], packages: set[str], skip: tuple[str, ...] = NOT_IN_GRAPH
) -> dict[str, set[str]]:
    """Module -> the modules it imports, for every module of ``sources`` not under ``skip``."""
    known = set(sources)
    return {
        name: imports(name, text, known, name in packages)
        for name, text in sources.items()
        if not _under(name, skip)
    }


def _under(name: str, prefixes: Iterable[str]) -> bool:
    return any(name == p or name.startswith(p + ".") for p in prefixes)


def layer_of(name: str) -> int:
    if name == "baida":
        return 0  # the package's own ``__init__``: its version
    for index, (_, members) in enumerate(LAYERS):
        if _under(name, members):
            return index
    raise AssertionError(f"{name} is in no layer: add it to LAYERS")


def upward_imports(graph: Mapping[str, set[str]]) -> list[str]:
    """Every import of a module from a higher layer, as 'a (layer) -> b (layer)'."""
    out = []
    for name, targets in sorted(graph.items()):
        mine = layer_of(name)
        for target in sorted(targets):
            theirs = layer_of(target)
            if theirs > mine:
                out.append(f"{name} ({LAYERS[mine][0]}) -> {target} ({LAYERS[theirs][0]})")
    return out


def circles(graph: Mapping[str, set[str]]) -> list[list[str]]:
    """The import circles: strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in graph:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                out.append(sorted(group))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return out


def _is_name(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in NAMES


def _holds_name(node: ast.AST) -> bool:
    """A ruleset's name, or a literal tuple/list/set of values holding one."""
    if _is_name(node):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_is_name(e) for e in node.elts)
    return False


def name_switches(source: str) -> list[int]:
    """Lines that compare with a ruleset's name, or build a set or dict keyed by one."""
    out = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            if any(_holds_name(operand) for operand in (node.left, *node.comparators)):
                out.append(node.lineno)
        elif isinstance(node, ast.Dict):
            if any(key is not None and _is_name(key) for key in node.keys):
                out.append(node.lineno)
        elif isinstance(node, ast.Set) and any(_is_name(e) for e in node.elts):
            out.append(node.lineno)
    return sorted(out)


def name_uses(source: str) -> list[int]:
    """Lines holding a ruleset's name as a string constant."""
    return sorted(node.lineno for node in ast.walk(ast.parse(source)) if _is_name(node))


# ---------------------------------------------------------------------- the checks


def _sources() -> tuple[dict[str, str], set[str]]:
    files = module_files()
    sources = {name: path.read_text(encoding="utf-8") for name, path in files.items()}
    packages = {name for name, path in files.items() if path.name == "__init__.py"}
    return sources, packages


SOURCES, PACKAGES = _sources()
GRAPH = import_graph(SOURCES, PACKAGES)


def test_every_module_has_a_layer() -> None:
    for name in GRAPH:
        layer_of(name)


def test_no_import_runs_up_the_layers() -> None:
    assert upward_imports(GRAPH) == []


def test_no_import_circle() -> None:
    assert circles(GRAPH) == []


def test_the_engine_imports_no_bot_table_terminal_or_hall() -> None:
    engine = {n: t for n, t in GRAPH.items() if _under(n, ("baida.engine",))}
    above = ("baida.bots", "baida.table", "baida.tui", "baida.server", "baida.commands")
    assert {n: sorted(t for t in ts if _under(t, above)) for n, ts in engine.items()} == {
        n: [] for n in engine
    }


def test_only_the_registry_names_a_ruleset() -> None:
    switches, uses = {}, {}
    for name, text in SOURCES.items():
        if _under(name, ("baida.rulesets", "baida.web")):
            continue
        found = name_switches(text)
        if len(found) != COMPARISONS.get(name, 0):
            switches[name] = found
        if _under(name, ("baida.server",)):
            continue  # the hall's defaults and schema; its files are moving (checked there)
        count = len(name_uses(text))
        if count != NAME_USES.get(name, 0):
            uses[name] = count
    assert switches == {}, "compare with the ruleset object's facts instead"
    assert uses == {}, "look the name up once at the edge (baida.rulesets.ruleset)"


def test_the_layers_name_real_modules() -> None:
    for _, members in LAYERS:
        for member in members:
            assert member in SOURCES, member


# ---------------------------------------------------------------------- the checks can fail


def _fake(sources: dict[str, str]) -> dict[str, set[str]]:
    packages = {n for n in sources if n.count(".") == 1 and not n.endswith(("py", "cli"))}
    return import_graph(sources, packages, skip=())


def test_an_upward_import_is_found() -> None:
    graph = _fake({
        "baida.engine": "",
        "baida.engine.round": "from ..bots.expert import ExpertBot\n",
        "baida.bots": "",
        "baida.bots.expert": "from ..engine import round\n",
    })
    assert upward_imports(graph) == [
        "baida.engine.round (engine) -> baida.bots.expert (bots)"
    ]


def test_a_circle_is_found_even_for_typing_only_or_lazy_imports() -> None:
    graph = _fake({
        "baida.engine": "",
        "baida.engine.round": "def f():\n    from .views import build_view\n",
        "baida.engine.views": (
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from .round import Round\n"
        ),
        "baida.engine.wall": "from . import round\n",
    })
    assert circles(graph) == [["baida.engine.round", "baida.engine.views"]]
    assert graph["baida.engine.wall"] == {"baida.engine.round"}


def test_name_switches_are_found() -> None:
    source = (
        'if seen.ruleset == "jiaxing":\n    pass\n'
        'ok = r not in ("jiaxing", "wenling")\n'
        'TABLE = {"wenling": 1}\n'
        'SPLIT = frozenset({"jiaxing"})\n'
        'DEFAULT = "jiaxing"\n'
        'KEY = "ruleset.jiaxing"\n'
    )
    assert name_switches(source) == [1, 3, 4, 5]
    assert name_uses(source) == [1, 3, 3, 4, 5, 6]


@pytest.mark.parametrize("name", ["baida.nowhere", "baidax.tiles"])
def test_a_module_outside_the_layers_is_refused(name: str) -> None:
    with pytest.raises(AssertionError):
        layer_of(name)
