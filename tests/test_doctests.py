"""Every engine module's docstring examples run (python-chess style: they are documentation
that must stay true). The modules are found in every subpackage: listing only the top
level would see the packages' ``__init__`` and none of the modules in them."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games

MODULES = sorted(m.name for m in pkgutil.walk_packages(games.__path__, "games.")
                 if m.name != "games.__main__")


def test_it_finds_the_modules_inside_the_subpackages() -> None:
    assert {"games.analysis.value", "games.bots.arena", "games.core.shapes"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_it_runs_the_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
