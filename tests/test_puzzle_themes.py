"""Puzzle themes (games/training/themes.py): every tag agrees with the engine on generated puzzles.

Each theme is checked against what the engine computes another way: scores recomputed
tile by tile with ``score``, the waits with ``waits``, tile counts of the winning hands,
the void suit, the laid-out whites; the ways of winning (a kong replacement, 抢金, bombs)
by scoring the same tiles without the position's fact, and by counting golds. Themes the
generator rarely makes (全老头, bombs) are checked on hand-made positions too, and every
theme is seen at least once.
"""

from __future__ import annotations

import collections
import dataclasses
from functools import cache
from typing import Any

import pytest

from games.core.position import Position
from games.core.tiles import Tile, parse_tiles
from games.core.variant import Score, Waits
from games.training import puzzles, themes
from games.variants.positions import read_position

VARIANTS = ("jiaxing", "putian", "sichuan")
SEEDS = range(12)


@cache
def sample() -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    out = []
    for variant in VARIANTS:
        for difficulty in (1, 2, 3):
            for seed in SEEDS:
                data = puzzles.generate(variant, difficulty, f"themes/{seed}")
                out.append((data, puzzles.solve(read_position(data)).to_json()))
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


def rule_ids(score: Score) -> set[str]:
    return {str(p["id"]) for p in score.to_json().get("patterns", [])}


KONG_REPLACEMENT = {"JX-7.2", "SC-5.16"}  # 杠上开花, 杠上花
BOMBS = {"小炸弹", "大炸弹", "超级大炸弹"}  # PT-5.6, PT-7.3


def check_ways(position: Position, answer: dict[str, Any], tags: set[str],
               scores: dict[str, Score]) -> None:
    """The ways of winning agree with the engine: scored again without the position's fact
    the pattern goes; only golds are robbed; a bomb needs the golds to be there."""
    variant = position.variant
    context = variant.wait_context(position)
    # A kong replacement: every winning tile scores it, and none would without the kong's
    # replacement (the same tiles scored as a plain self-draw).
    replacement = {t for t, s in scores.items() if KONG_REPLACEMENT & rule_ids(s)}
    assert ("kong_replacement" in tags) == bool(replacement)
    if position.after_kong:
        assert any(m.type == "gang" for m in position.melds)
        assert replacement == set(scores)
        plain = dataclasses.replace(context, after_kong=False)
        for tile in replacement:
            again = variant.score(plain.with_hand((*position.hand, Tile.parse(tile)),
                                                  Tile.parse(tile)))
            assert again.win and not KONG_REPLACEMENT & rule_ids(again)
    else:
        assert not replacement
    # 抢金: only a turned-up gold can be taken; every tile that completes the shape
    # otherwise is a PT-5.5 trap, and robbing scores 抢金.
    assert ("rob_gold" in tags) == position.robbing_gold
    if position.robbing_gold:
        assert scores and all(position.is_wild(Tile.parse(t)) for t in scores)
        assert all("抢金" in names(s) for s in scores.values())
        assert all(t["rule"] == "PT-5.5" for t in answer["traps"] if t.get("copies") is None)
    # A bomb: three golds of a kind or four or more once the tile is drawn (PT-5.6),
    # and with five or more in hand every tile pays the big bomb (PT-7.3).
    bombs = {t for t, s in scores.items() if BOMBS & names(s)}
    assert ("bomb" in tags) == bool(bombs)
    for tile in bombs:
        drawn = Tile.parse(tile)
        golds = [t.kind for t in (*position.hand, drawn) if position.is_wild(t)]
        assert len(golds) >= 4 or max(golds.count(k) for k in golds) >= 3
        assert variant.wins_without_shape(context.with_hand((*position.hand, drawn), drawn))
    if sum(1 for t in position.hand if position.is_wild(t)) >= 5:
        assert bombs == set(scores)


@pytest.mark.parametrize("index", range(len(VARIANTS) * 3 * len(SEEDS)))
def test_it_tags_what_the_engine_says_of_each_generated_puzzle(index: int) -> None:
    data, answer = sample()[index]
    position = read_position(data)
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
    check_ways(position, answer, tags, scores)


@cache
def ways_sample() -> tuple[tuple[dict[str, Any], dict[str, Any]], ...]:
    """Generated puzzles set in a way of winning (a kong replacement, 抢金, four or more
    golds): the first ones of 60 seeds of each variant and difficulty."""
    out = []
    for variant in VARIANTS:
        for difficulty in (1, 2, 3):
            for seed in range(60):
                data = puzzles.generate(variant, difficulty, f"ways/{seed}")
                position = read_position(data)
                golds = sum(1 for t in position.hand if position.is_wild(t))
                if position.after_kong or position.robbing_gold or (
                        variant == "putian" and golds >= 4):
                    out.append((data, puzzles.solve(position).to_json()))
    return tuple(out)


@pytest.mark.parametrize("index", range(24))
def test_it_tags_the_ways_of_winning_of_generated_puzzles_as_the_engine_scores_them(
        index: int) -> None:
    found = ways_sample()
    assert len(found) >= 24
    data, answer = found[index * len(found) // 24]
    position = read_position(data)
    tags = set(themes.themes_of(data, answer))
    scores = scores_by_tile(position)
    assert set(scores) == {w["tile"] for w in answer["waits"]}
    assert {w["tile"]: w["points"] for w in answer["waits"]} == {
        t: s.points for t, s in scores.items()}
    check_ways(position, answer, tags, scores)


def test_the_generator_makes_every_way_of_winning() -> None:
    tags = collections.Counter(tag for data, answer in ways_sample()
                               for tag in themes.themes_of(data, answer))
    for key in ("kong_replacement", "rob_gold", "bomb"):
        assert tags[key] >= 2, (key, tags)
    by_variant = {(data["variant"], tag) for data, answer in ways_sample()
                  for tag in themes.themes_of(data, answer)}
    assert {("jiaxing", "kong_replacement"), ("sichuan", "kong_replacement"),
            ("putian", "rob_gold"), ("putian", "bomb")} <= by_variant


def test_every_theme_is_tagged_somewhere() -> None:
    seen = {tag for data, answer in sample() for tag in themes.themes_of(data, answer)}
    seen |= {tag for made in (ALL_HONOURS, KONG, BOMB, HOUSE)
             for tag in themes.themes_of(*solved(made))}
    assert seen == {key for key, theme in themes.BY_KEY.items() if "wins" in theme.kinds}


def test_it_tags_a_big_bomb_on_a_hand_of_five_golds() -> None:
    """PT-7.3: five golds in hand win on any draw as the big bomb (each loser pays 50); the
    sixth gold drawn makes the super bomb (each pays 100), the best wait."""
    data, answer = solved(BOMB)
    position = read_position(data)
    tags = set(themes.themes_of(data, answer))
    scores = scores_by_tile(position)
    assert "bomb" in tags and "value_choice" in tags
    for tile, score in scores.items():
        assert ("超级大炸弹" if tile == "2s" else "大炸弹") in names(score), tile
    assert answer["best"] == ["2s"]
    check_ways(position, answer, tags, scores)
    fewer = {**BOMB, "hand": "1s2s123456789m23p789p"}  # two golds only: no bomb
    assert "bomb" not in themes.themes_of(*solved(fewer))


ALL_HONOURS = {"variant": "jiaxing", "hand": "1112223335566z", "wildcards": ["1m"],
               "seat": 0, "dealer": 0, "round_wind": "E"}
KONG = {"variant": "sichuan", "hand": "2345678999p", "void": "s",
        "melds": [{"type": "gang", "kind": "concealed", "tile": "1m"}]}
# 门清中张 (SC-H6) at a table playing it: no pung or kong, no 1 or 9, a fan each.
HOUSE = {"variant": "sichuan", "hand": "234567m34567p88p", "void": "s",
         "rules": {"concealed_middle": True}}
BOMB = {"variant": "putian", "hand": "111s22s123456789m23p", "wildcards": ["1s", "2s"],
        "seat": 1, "dealer": 0, "self_draw": True}


def solved(data: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    return data, puzzles.solve(read_position(data)).to_json()


def test_it_tags_all_honours_on_a_hand_of_honours() -> None:
    data, answer = solved(ALL_HONOURS)
    position = read_position(data)
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
