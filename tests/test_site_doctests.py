"""The site's docstring examples run (the engine's are in test_doctests.py)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest
from django.utils import translation

import replays

MODULES = sorted(m.name for m in pkgutil.walk_packages(replays.__path__, "replays.")
                 if ".migrations" not in m.name)


@pytest.mark.parametrize("name", MODULES)
def test_it_runs_the_docstring_examples(name: str) -> None:
    with translation.override("en"):  # the examples are written in English
        failures, _ = doctest.testmod(importlib.import_module(name))
    assert failures == 0
