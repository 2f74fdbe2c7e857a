"""Puzzle themes (games/themes.py): every tag agrees with the engine on generated puzzles.

Each theme is checked against what the engine computes another way: scores recomputed
tile by tile with ``score``, the waits with ``waits``, tile counts of the winning hands,
the void suit, the laid-out whites. Themes the generator rarely or never makes (全老头,
kongs) are checked on hand-made positions too, and every theme is seen at least once.
"""

from __future__ import annotations

import collections
from functools import cache
from typing import Any

import pytest

from games import puzzles, themes
from games.position import Position
from games.tiles import Tile, parse_tiles
from games.variants import Score, Waits

VARIANTS = ("jiaxing", "putian", "sichuan")
SEEDS = range(12)


@cache
def sample() -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    out = []
    for variant in VARIANTS:
        for difficulty in (1, 2, 3):
            for seed in SEEDS:
                data = puzzles.generate(variant, difficulty, f"themes/{seed}")
                out.append((data, puzzles.solve(Position.from_json(data)).to_json()))
    return tuple(out)


def scores_by_tile(position: Position) -> dict[str, Score]:
    """Each winning tile's score, recomputed with ``score`` on the completed hand."""
    variant = position.variant
    context = variant.wait_context(position)
    found = variant.waits(position)
    assert isinstance(found, Waits)
    return {str(w.tile): variant.score(context.with_hand((*position.hand, w.tile), w.tile))
            for w in found.waits}


def names(score: Score) -> set[str]:
    return {str(p["name"]) for p in score.to_json().get("patterns", [])}


def natural_tiles(position: Position, tile: str) -> list[Tile]:
    tiles = [*position.hand, Tile.parse(tile), *(t for m in position.melds for t in m.tiles)]
    return [t for t in tiles if not position.is_wild(t)]


def has_pattern_named(position: Position, name: str) -> bool:
    return any(p.name == name for p in position.variant.PATTERNS.values())


@pytest.mark.parametrize("index", range(len(VARIANTS) * 3 * len(SEEDS)))
def test_it_tags_what_the_engine_says_of_each_generated_puzzle(index: int) -> None:
    data, answer = sample()[index]
    position = Position.from_json(data)
    tags = set(themes.themes_of(data, answer))
    scores = scores_by_tile(position)
    assert set(scores) == {w["tile"] for w in answer["waits"]}
    wild_held = sum(1 for t in position.hand if position.is_wild(t))
    # Wildcards in hand: counted in the hand itself.
    assert ("wildcard_held" in tags) == (wild_held >= 1)
    assert ("golds" in tags) == (wild_held >= 2)
    # A pure suit: tagged only when some winning hand's natural tiles are of one suit,
    # and always when a winning hand without wildcards is.
    one_suit = {tile: {t.suit for t in natural_tiles(position, tile)} for tile in scores}
    if "pure_suit" in tags:
        assert any(len(s) == 1 and "z" not in s for s in one_suit.values())
    if any(len(s) == 1 and "z" not in s for tile, s in one_suit.items()
           if wild_held == 0 and not position.is_wild(Tile.parse(tile))):
        assert "pure_suit" in tags
    # All pungs: the engine's reading of some winning tile has no chow.
    if "all_pungs" in tags:
        assert any(all(g[0] == g[1] for g in w["score"]["reading"].replace("[", "")
                       .replace("]", "").split()) for w in answer["waits"])
    # Seven pairs: a winning hand of seven pairs by its counts (no melds).
    pairs = [tile for tile in scores if not position.melds and all(
        n % 2 == 0 for n in collections.Counter(
            t.kind for t in (*position.hand, Tile.parse(tile))).values())]
    if wild_held == 0:
        assert ("seven_pairs" in tags) == (bool(pairs) and position.variant.SEVEN_PAIRS)
    # 根: only where the variant scores it, and then a winning hand holds four of a kind.
    four = [tile for tile in scores if 4 in collections.Counter(
        t.kind for t in natural_tiles(position, tile)).values()]
    assert ("gen" in tags) == (has_pattern_named(position, "根") and any(
        "根" in names(scores[t]) or any("龙七对" in n for n in names(scores[t]))
        for t in four))
    # The void suit: named, and no tile of it in hand (SC-2).
    assert ("void" in tags) == (position.void is not None)
    if position.void is not None:
        assert all(t.suit != "mps"[position.void] for t in position.hand)
    # Laid-out whites: the position has them, and every winning tile scores them (PT-6).
    assert ("whites" in tags) == (position.flowers > 0)
    if position.flowers:
        assert all("白板" in names(s) for s in scores.values())
    # Many waits and a choice of values: the waits and scores recomputed.
    natural = [t for t in scores if not position.is_wild(Tile.parse(t))]
    assert ("many_waits" in tags) == (len(natural) >= themes.MANY_WAITS)
    assert ("value_choice" in tags) == (len({s.points for s in scores.values()}) > 1)
    # Traps: a tile that completes the shape and still doesn't win (score says why).
    variant = position.variant
    context = variant.wait_context(position)
    refused = []
    for trap in answer["traps"]:
        tile = Tile.parse(trap["tile"])
        if trap.get("copies") is not None:
            held = sum(1 for t in (*position.hand, *(x for m in position.melds for x in m.tiles))
                       if t == tile)
            assert held == trap["copies"]
        else:
            result = variant.score(context.with_hand((*position.hand, tile), tile))
            assert not result.win and result.reason.startswith(trap["rule"])
            refused.append(trap)
    assert ("win_rule_trap" in tags) == bool(refused)
    assert ("copy_trap" in tags) == any(t.get("copies") is not None for t in answer["traps"])
    # Pattern themes agree with the recomputed scores.
    every = set().union(*(names(s) for s in scores.values()))
    assert ("half_flush" in tags) == ("混一色" in every)
    assert ("all_honours" in tags) == ("全老头" in every)
    assert ("kong" in tags) == any(m.type == "gang" for m in position.melds)


def test_every_theme_is_tagged_somewhere() -> None:
    seen = {tag for data, answer in sample() for tag in themes.themes_of(data, answer)}
    seen |= set(themes.themes_of(*solved(ALL_HONOURS))) | set(themes.themes_of(*solved(KONG)))
    assert seen == {key for key, theme in themes.BY_KEY.items() if "wins" in theme.kinds}


ALL_HONOURS = {"variant": "jiaxing", "hand": "1112223335566z", "wildcards": ["1m"],
               "seat": 0, "dealer": 0, "round_wind": "E"}
KONG = {"variant": "sichuan", "hand": "2345678999p", "void": "s",
        "melds": [{"type": "gang", "kind": "concealed", "tile": "1m"}]}


def solved(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return data, puzzles.solve(Position.from_json(data)).to_json()


def test_it_tags_all_honours_on_a_hand_of_honours() -> None:
    data, answer = solved(ALL_HONOURS)
    position = Position.from_json(data)
    tags = themes.themes_of(data, answer)
    assert "all_honours" in tags and "all_pungs" in tags
    for tile, score in scores_by_tile(position).items():
        assert all(t.suit == "z" for t in natural_tiles(position, tile))
        assert "全老头" in names(score)


def test_it_tags_a_declared_kong() -> None:
    data, answer = solved(KONG)
    assert "kong" in themes.themes_of(data, answer)
    assert "kong" not in themes.themes_of(*solved({**KONG, "melds": [],
                                                   "hand": "1112345678999p"}))


def test_it_names_every_theme_in_both_languages() -> None:
    for theme in themes.THEMES:
        assert theme.chinese and theme.english and theme.rule
        assert themes.theme_named(theme.key) is theme
    with pytest.raises(themes.ThemeError, match="no theme 'x'"):
        themes.theme_named("x")


def test_one_position_has_one_key_whatever_was_seen() -> None:
    data, _answer = sample()[0]
    assert themes.position_key(data) == themes.position_key({**data, "seen": "1m"})
    assert themes.position_key(data) != themes.position_key({**data, "seat": (data["seat"] + 1) % 4})
    assert parse_tiles(data["hand"])
