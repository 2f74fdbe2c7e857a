"""The site's stylesheet is well formed: every block it opens it closes, and no block opens
inside a rule (a lost ``}`` once put the play table's rules inside a phone-only media query,
so the seed's command line widened the page at 1280 px)."""

from __future__ import annotations

import re
from pathlib import Path

STYLESHEETS = sorted((Path(__file__).resolve().parent.parent / "static" / "css").glob("*.css"))


def test_it_closes_every_block_of_every_stylesheet() -> None:
    assert STYLESHEETS
    for sheet in STYLESHEETS:
        text = re.sub(r"/\*.*?\*/", "", sheet.read_text(encoding="utf-8"), flags=re.S)
        depth = 0
        for number, line in enumerate(text.splitlines(), 1):
            if line.startswith("@media") or line.startswith("@supports"):
                assert depth == 0, f"{sheet.name}:{number}: an at-rule inside a block"
            depth += line.count("{") - line.count("}")
            assert depth >= 0, f"{sheet.name}:{number}: a '}}' closes nothing"
        assert depth == 0, f"{sheet.name}: {depth} block(s) left open"
