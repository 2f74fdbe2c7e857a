"""Shared test helpers."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent


def shared_rules() -> Path:
    """The project's shared rules folder (beside the checkout, or named by SHARED_RULES)."""
    named = os.environ.get("SHARED_RULES")
    if named:
        return Path(named)
    for candidate in (ROOT.parent / "shared" / "rules", ROOT / "shared" / "rules"):
        if candidate.is_dir():
            return candidate
    pytest.skip("the shared rules folder is not beside this checkout")
    raise AssertionError  # unreachable


@pytest.fixture(scope="session")
def examples() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads(
        (shared_rules() / "examples.json").read_text(encoding="utf-8"))
    return data
