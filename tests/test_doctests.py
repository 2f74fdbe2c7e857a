"""Every engine module's docstring examples run (python-chess style: they are documentation
that must stay true)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import games

MODULES = sorted(m.name for m in pkgutil.iter_modules(games.__path__, "games.")
                 if m.name != "games.__main__")


@pytest.mark.parametrize("name", MODULES)
def test_it_runs_the_module_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples in {name} failed"
