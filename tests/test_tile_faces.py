"""Tile faces: self-contained artwork (glyphs as paths, one sprite for a page) and tiles named
in the reader's language, never by their notation, on every page."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from games.core.tiles import TILES
from replays.tile_names import suit_name, tile_name, tile_names, wind_name

FACES = Path(__file__).resolve().parent.parent / "static" / "tiles"
CODES = [str(t) for t in TILES]
ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}


def test_it_draws_every_face_without_a_font() -> None:
    for path in FACES.glob("*.svg"):
        content = path.read_text(encoding="utf-8")
        assert "<text" not in content and "font-family" not in content, path.name


def test_it_keeps_every_face_in_one_sprite() -> None:
    sprite = (FACES / "tiles.svg").read_text(encoding="utf-8")
    symbols = re.findall(r'<symbol id="([^"]+)" viewBox="0 0 60 80">', sprite)
    assert sorted(symbols) == sorted([*CODES, "back"])
    for code in CODES:  # each symbol is exactly its single-file face
        face = (FACES / f"{code}.svg").read_text(encoding="utf-8")
        body = face.split(">", 1)[1].rsplit("</svg>", 1)[0].strip()
        assert f'<symbol id="{code}" viewBox="0 0 60 80">{body}</symbol>' in sprite


@pytest.mark.parametrize(("language", "expected"), [
    ("en", {"1m": "1 Characters", "9p": "9 Dots", "5s": "5 Bamboo", "1z": "East",
            "4z": "North", "5z": "White", "6z": "Green", "7z": "Red"}),
    ("zh-hans", {"1m": "一万", "9p": "九筒", "5s": "五条", "1z": "东", "4z": "北",
                 "5z": "白", "6z": "发", "7z": "中"}),
])
def test_it_names_tiles_in_the_readers_language(language: str, expected: dict[str, str]) -> None:
    with translation.override(language):
        assert {code: tile_name(code) for code in expected} == expected
        names = [tile_name(code) for code in CODES]
    assert len(set(names)) == 34 and not set(names) & set(CODES)


def test_it_names_suits_winds_and_hands_in_chinese() -> None:
    with translation.override("zh-hans"):
        assert [suit_name(s) for s in "mps"] == ["万", "筒", "条"]
        assert [wind_name(w) for w in "ESWN"] == ["东", "南", "西", "北"]
        assert tile_names("12m 5z") == "一万、二万、白"
        assert tile_names("not tiles") == "not tiles"


def _visible_text(markup: str) -> str:
    markup = re.sub(r"<(script|style)\b.*?</\1>", " ", markup, flags=re.S)
    return re.sub(r"<[^>]+>", " ", markup)


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_shows_no_tile_code_on_a_chinese_replay(client: Client, make_match: Any,
                                                   variant: str) -> None:
    match = make_match(variant=variant, seed=7, hands=1)
    first = client.get(match.get_absolute_url(), **ZH)
    last_step = int(re.search(r"第 \d+/(\d+) 步", first.content.decode()).group(1))  # type: ignore[union-attr]
    for step in [*range(0, last_step, 7), last_step]:
        markup = client.get(match.get_absolute_url(), {"step": step}, **ZH).content.decode()
        codes = re.findall(r"\b[1-9][mpsz]\b", _visible_text(markup))
        assert not codes, (step, codes)
        titles = re.findall(r'(?:title|aria-label)="([^"]*)"', markup)
        assert not [t for t in titles if re.search(r"\b[1-9][mpsz]\b", t)], step


def test_it_fetches_one_sprite_for_every_face_of_a_page(client: Client, make_match: Any) -> None:
    match = make_match(variant="jiaxing", seed=3, hands=1)
    markup = client.get(match.get_absolute_url(), {"step": 30}).content.decode()
    faces = set(re.findall(r'(?:src|href)="([^"#]*tiles/[^"#]*)', markup))
    assert {Path(url).name for url in faces} <= {"tiles.svg", "7z.svg"}  # 7z: the favicon
    assert markup.count('data-tile="') >= 14
