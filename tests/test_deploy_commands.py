"""The commands the docs and tools give for starting gunicorn (issue 24).

gunicorn opens a control socket at one default path per user (``~/.gunicorn/gunicorn.ctl``):
a second gunicorn on the same host takes that path over, and whichever stops first deletes
it under the other. Every gunicorn the project starts or documents runs without it
(``--no-control-socket``) or with a path of its own (``--control-socket PATH``).
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md")) + [ROOT / "README.md"]


def gunicorn_commands(path: Path) -> list[str]:
    """Every shell command starting gunicorn in a Markdown file's code blocks, its
    continuation lines (ending in a backslash) joined."""
    commands, blocks = [], re.findall(r"```(?:sh|bash|console)?\n(.*?)```", path.read_text(
        encoding="utf-8"), re.S)
    for block in blocks:
        for command in re.sub(r"\\\n\s*", " ", block).splitlines():
            if re.match(r"\s*(\$ )?gunicorn\s", command):
                commands.append(command.strip())
    return commands


def test_the_docs_start_gunicorn_without_the_shared_control_socket() -> None:
    commands = [(path.name, command) for path in DOCS for command in gunicorn_commands(path)]
    assert len(commands) >= 2, "docs/deploy.md and docs/site.md each start gunicorn"
    for name, command in commands:
        assert "--no-control-socket" in command or "--control-socket " in command, (
            f"{name}: {command}")


def test_the_load_test_starts_gunicorn_without_the_shared_control_socket(
        monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import loadtest
    finally:
        sys.path.remove(str(ROOT / "tools"))
    started: list[list[str]] = []

    def popen(args: list[str], **kwargs: Any) -> Any:
        started.append(args)
        return None

    monkeypatch.setattr(subprocess, "Popen", popen)
    monkeypatch.setattr(loadtest, "wait_for", lambda port: None)
    loadtest.start_server({}, 8301, 1)
    assert started and "gunicorn" in started[0]
    assert "--no-control-socket" in started[0], started[0]
