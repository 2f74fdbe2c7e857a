"""The engine's modules import each other without a cycle.

The graph is read with ``ast`` from ``games/*.py``: an edge for every ``import``
of another ``games`` module that runs when the module is loaded (at the top
level, or in a top-level ``if``/``try`` other than ``if TYPE_CHECKING:``, whose
imports are for the type checker only). An import inside a function runs when
the function is called and is left out: ``Position.from_json`` reaches its
reader that way (docs/engine.md, "Reading JSON input").

Each module is also imported first thing in a fresh interpreter, which is how a
cycle shows itself (a partly initialised module).
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

GAMES = Path(__file__).resolve().parent.parent / "games"
MODULES = sorted(f"games.{path.stem}" for path in GAMES.glob("*.py")
                 if path.stem not in ("__init__", "__main__"))


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING"
            or isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _load_time_statements(body: list[ast.stmt]) -> list[ast.stmt]:
    """The statements that run when the module is loaded, nested blocks opened."""
    out: list[ast.stmt] = []
    for node in body:
        if isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                out += _load_time_statements(node.body)
            out += _load_time_statements(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody,
                          *(handler.body for handler in node.handlers)):
                out += _load_time_statements(block)
        else:
            out.append(node)
    return out


def _imported(node: ast.stmt) -> set[str]:
    """The ``games`` modules one statement imports."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name.startswith("games.")}
    if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
        if node.module == "games":
            return {f"games.{alias.name}" for alias in node.names}
        if node.module.startswith("games."):
            return {node.module}
    return set()


def import_graph() -> dict[str, set[str]]:
    """Each engine module to the engine modules it imports when loaded."""
    graph: dict[str, set[str]] = {}
    for name in MODULES:
        tree = ast.parse((GAMES / f"{name.removeprefix('games.')}.py").read_text("utf-8"))
        edges: set[str] = set()
        for node in _load_time_statements(tree.body):
            edges |= _imported(node)
        graph[name] = {edge for edge in edges if edge in MODULES and edge != name}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a path that ends where it starts, or None."""
    done: set[str] = set()

    def visit(name: str, path: list[str]) -> list[str] | None:
        if name in path:
            return path[path.index(name):] + [name]
        if name in done:
            return None
        for edge in sorted(graph[name]):
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


def test_it_finds_a_cycle_when_there_is_one() -> None:
    graph = {"games.a": {"games.b"}, "games.b": {"games.c"}, "games.c": {"games.a"},
             "games.d": set()}
    assert find_cycle(graph) == ["games.a", "games.b", "games.c", "games.a"]
    assert find_cycle({"games.a": {"games.b"}, "games.b": set()}) is None


def test_it_reads_type_only_imports_as_no_edge() -> None:
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                     "    from games.variants import Variant\nelse:\n    import games.tiles\n")
    found = set().union(*map(_imported, _load_time_statements(tree.body)))
    assert found == {"games.tiles"}


def test_it_sees_the_engine_modules_and_their_imports() -> None:
    graph = import_graph()
    assert "games.readers" in graph and "games.position_json" in graph
    assert graph["games.position_json"] >= {"games.readers", "games.position", "games.registry"}
    assert graph["games.log"] >= {"games.readers", "games.registry"}


def test_it_has_no_import_cycle_among_the_engine_modules() -> None:
    assert find_cycle(import_graph()) is None


def test_the_position_and_the_readers_import_nothing_that_knows_the_variants() -> None:
    """The value type and the readers sit below the variants (types aside)."""
    graph = import_graph()
    assert graph["games.messages"] <= {"games.tiles"}  # the refusals' templates
    assert graph["games.readers"] <= {"games.tiles", "games.messages"}
    assert graph["games.position"] <= {"games.readers", "games.tiles"}


@pytest.mark.parametrize("name", MODULES)
def test_each_module_imports_first_in_a_fresh_interpreter(name: str) -> None:
    # One interpreter per module: the module loads before anything else of the engine.
    done = subprocess.run([sys.executable, "-c", f"import {name}"], cwd=GAMES.parent,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
