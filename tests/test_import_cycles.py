"""Nothing imports in a circle, and every part imports only from the layers below it.

The graph is read with ``ast`` from the engine (``games/``) and the site (``replays/``,
``mahjong_site/``): an edge for every ``import`` of another module of theirs, wherever
it is written — at the top, in a function (it runs when the function is called, but it
is a dependency all the same) — except under ``if TYPE_CHECKING:``, whose imports are
for the type checker only. Migrations are generated code and left out.

The engine's layers (docs/engine.md, ``games/__init__.py``): core ← variants ← records
← bots ← analysis ← play | training ← commands. A module imports its own part and the
parts before it; play and training sit side by side and don't import each other. The
site's parts (``replays.library``, ``.annotation``, ``.puzzles``, ``.operations``,
``.play``) import each other without a circle too, part by part, and the engine never
imports the site.

Each engine module is also imported first thing in a fresh interpreter, which is how a
cycle the graph missed would show itself (a partly initialised module).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("games", "replays", "mahjong_site")
ENGINE_LAYERS: tuple[tuple[str, ...], ...] = (
    ("core",), ("variants",), ("records",), ("bots",), ("analysis",), ("play", "training"),
    ("commands",),
)


def module_files() -> dict[str, Path]:
    """Every module of the engine and the site by its dotted name (packages by theirs)."""
    found: dict[str, Path] = {}
    for source in SOURCES:
        for path in sorted((ROOT / source).rglob("*.py")):
            relative = path.relative_to(ROOT).with_suffix("")
            if "migrations" in relative.parts:
                continue
            parts = relative.parts[:-1] if relative.name == "__init__" else relative.parts
            found[".".join(parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def imported_names(tree: ast.AST) -> set[str]:
    """Every dotted name a module imports, anywhere but under ``if TYPE_CHECKING:``
    (``from a.b import c`` gives ``a.b.c``: a module, or a name in ``a.b``)."""
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def resolve(name: str, modules: Iterable[str]) -> str | None:
    """The module a dotted name lives in (the longest known prefix), or None."""
    known = set(modules)
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def import_graph() -> dict[str, set[str]]:
    """Each module to the modules of the engine and the site it imports."""
    files = module_files()
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        edges = {resolve(imported, files) for imported in imported_names(
            ast.parse(path.read_text(encoding="utf-8")))}
        graph[name] = {edge for edge in edges
                       if edge is not None and edge != name and not name.startswith(edge + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a path that ends where it starts, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for edge in sorted(graph.get(name, ())):
            cycle = visit(edge, [*path, name])
            if cycle:
                return cycle
        done.add(name)
        return None

    for name in sorted(graph):
        cycle = visit(name, [])
        if cycle:
            return cycle
    return None


def part_of(module: str, package: str) -> str | None:
    """``games.analysis.value`` → ``analysis`` (for package ``games``); None outside."""
    parts = module.split(".")
    if parts[0] != package or len(parts) < 2:
        return None
    return parts[1]


def layer_violations(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """Imports of the engine that reach a layer not below the importer's (or the site)."""
    rank = {part: number for number, parts in enumerate(ENGINE_LAYERS) for part in parts}
    wrong = []
    for module, edges in graph.items():
        own = part_of(module, "games")
        if own is None:
            continue
        for edge in edges:
            if not edge.startswith("games"):
                wrong.append((module, edge))  # the engine never imports the site
                continue
            other = part_of(edge, "games")
            if own == "__main__" or other == own:
                continue
            if own not in rank or other not in rank or rank[other] >= rank[own]:
                wrong.append((module, edge))
    return sorted(wrong)


def parts_graph(graph: dict[str, set[str]], package: str) -> dict[str, set[str]]:
    """The graph between a package's parts (its subpackages and top modules)."""
    collapsed: dict[str, set[str]] = {}
    for module, edges in graph.items():
        own = part_of(module, package)
        if own is None:
            continue
        targets = {part_of(edge, package) for edge in edges}
        collapsed.setdefault(own, set()).update(t for t in targets if t and t != own)
    return collapsed


# -- the checks ---------------------------------------------------------------------------


def test_it_finds_a_cycle_when_there_is_one() -> None:
    graph = {"games.a": {"games.b"}, "games.b": {"games.c"}, "games.c": {"games.a"},
             "games.d": set()}
    assert find_cycle(graph) == ["games.a", "games.b", "games.c", "games.a"]
    assert find_cycle({"games.a": {"games.b"}, "games.b": set()}) is None


def test_it_counts_imports_in_functions_but_not_type_only_ones() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from games.core.variant import Variant\nelse:\n"
                     "    import games.core.tiles\n"
                     "def later():\n    from games.records.log import read_log\n")
    assert imported_names(tree) == {"typing.TYPE_CHECKING", "games.core.tiles",
                                    "games.records.log.read_log"}


def test_it_sees_the_modules_of_the_engine_and_the_site() -> None:
    graph = import_graph()
    assert graph["games.variants.positions"] >= {"games.core.readers", "games.core.position",
                                                 "games.variants.registry"}
    assert graph["games.records.log"] >= {"games.core.readers", "games.variants.registry"}
    assert "replays.annotation.tasks" in graph and "mahjong_site.settings" in graph


def test_nothing_imports_in_a_circle() -> None:
    assert find_cycle(import_graph()) is None


def test_each_engine_part_imports_only_the_layers_below_it() -> None:
    assert layer_violations(import_graph()) == []


def test_the_sites_parts_import_each_other_without_a_circle() -> None:
    """``replays``' parts (library, annotation, puzzles, operations, play, the models…):
    a part may use another, but never both ways round, even through a third."""
    assert find_cycle(parts_graph(import_graph(), "replays")) is None


def test_a_cycle_or_an_upward_import_added_is_found() -> None:
    """The checks fail when a circle or a layer break is added to the real graph."""
    graph = import_graph()
    upward = {**graph, "games.core.tiles": graph["games.core.tiles"] | {"games.variants.registry"}}
    assert find_cycle(upward) is not None
    assert ("games.core.tiles", "games.variants.registry") in layer_violations(upward)
    sideways = {**graph, "games.play.bot_match": graph["games.play.bot_match"]
                | {"games.training.puzzles"}}
    assert ("games.play.bot_match", "games.training.puzzles") in layer_violations(sideways)
    circle = {**graph, "replays.models": graph["replays.models"] | {"replays.puzzles.services"}}
    assert find_cycle(parts_graph(circle, "replays")) is not None


def test_the_core_knows_no_variant() -> None:
    """The value type and the readers sit at the bottom (types aside)."""
    graph = import_graph()
    assert graph["games.core.tiles"] == set()
    assert graph["games.core.messages"] <= {"games.core.tiles"}
    assert graph["games.core.readers"] <= {"games.core.tiles", "games.core.messages"}
    assert graph["games.core.position"] <= {"games.core.readers", "games.core.tiles"}


ENGINE_MODULES = sorted(name for name in module_files() if name.startswith("games.")
                        and name != "games.__main__")


@pytest.mark.parametrize("name", ENGINE_MODULES)
def test_each_module_imports_first_in_a_fresh_interpreter(name: str) -> None:
    # One interpreter per module: the module loads before anything else of the engine.
    done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
