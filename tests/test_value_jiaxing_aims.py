"""The solo model plays toward what JX-5.3 lets win (issue 26): a Jiaxing hand two
steps from a legal win gets a value, and a hand with no winning line is said to have
none, with no best choice (games/analysis/value.py, value_pass.py)."""

from __future__ import annotations

from typing import Any

from games.analysis.value import solo_values
from games.analysis.value_pass import Priced, judged, no_winning_line, summary
from games.core.tiles import Tile
from games.variants.positions import read_position
from games.variants.registry import VARIANTS

JIAXING = VARIANTS["jiaxing"]


def _jiaxing(hand: str, **fields: Any) -> Any:
    return read_position({"variant": "jiaxing", "hand": hand, "wildcards": ["7z"],
                          "round_wind": "E", "seat": 1, "dealer": 0, **fields})


def test_it_values_a_hand_two_steps_from_a_legal_win_and_discards_toward_it() -> None:
    """11234556789m 33p and a 百搭 (7z), ten draws left.

    By hand: eleven 万 and the wildcard, and the 33p pair. JX-5.3 lets this hand win only
    as a 清一色/混一色 in 万 (an all-pungs hand is far: 123 456 789 are chows), so the 3p
    must go. Discarding 3p leaves 11 万 + 百搭 with a lone 3p: one 万 drawn (and the 3p
    thrown) makes it ready, a second draw wins — two steps, valued exactly (the
    1-shanten sum). Any other discard keeps both 3p and needs two more 万 before ready:
    three steps, a lower value. Discarding 1m or 5m leaves a hand ready *in shape*
    (123 456 789m, 5m + 百搭, 33p) that no tile can make a legal win; the shape-only
    model (values-2) stopped there and valued every discard 0.0%.
    """
    position = _jiaxing("11234556789m33p7z")
    valuation = solo_values(position, draws_left=10, samples=200, seed=3)
    best, *others = valuation.choices
    assert best.discard == Tile.parse("3p")
    assert best.exact and best.shanten == 1
    assert best.win_probability > 0.3 and best.expected_points > 0
    assert all(c.shanten == 2 for c in others)
    assert all(c.expected_points < best.expected_points for c in others)
    shape_ready = next(c for c in others if c.discard == Tile.parse("1m"))
    rest = list(position.hand)
    rest.remove(Tile.parse("1m"))
    assert JIAXING.shanten(position, rest) == 0  # ready in shape, not toward a legal win
    assert shape_ready.win_probability > 0  # the playouts go on toward the flush


def test_it_keeps_the_wildcard_for_the_legal_shape() -> None:
    """The same hand: throwing the 百搭 costs more than throwing a 万 from a chow, as the
    wildcard fills any gap of the flush (JX-4, C-4)."""
    valuation = solo_values(_jiaxing("11234556789m33p7z"), draws_left=10, samples=200, seed=3)
    points = {str(c.discard): c.expected_points for c in valuation.choices}
    assert points["7z"] < min(points[t] for t in ("1m", "5m", "9m"))


def test_it_counts_steps_to_all_pungs_too() -> None:
    """111m 222p 333s 44z 5z 6z: three suits, but three pungs — JX-5.3's 对对和 is two
    draws off (a 4z or 5z, then the other), so the hand is 1-shanten toward a legal win,
    not far from every flush; with 7z too, the best discard is a lone honour."""
    position = _jiaxing("111m222p333s445z6z", wildcards=["1z"])
    counts, wild = JIAXING.split(position, position.hand)
    assert JIAXING.aimed_shanten_of(position, counts, wild) == 1
    valuation = solo_values(_jiaxing("111m222p333s4456z7z", wildcards=["1z"]), 10, samples=100)
    best = valuation.choices[0]
    assert best.win_probability > 0 and best.shanten == 1
    assert str(best.discard) in ("5z", "6z", "7z")  # a lone honour, never a pung's tile


def _dead() -> Any:
    """A chow of 万 and a pung of 筒 declared: neither a flush nor all pungs can be made,
    so no draw ever wins (JX-5.3)."""
    return read_position({
        "variant": "jiaxing", "hand": "23456m22p5s", "wildcards": ["7z"], "round_wind": "E",
        "seat": 1, "dealer": 0,
        "melds": [{"type": "chi", "tiles": "123m"}, {"type": "peng", "tile": "9p"}]})


def test_it_finds_no_winning_line_where_jx_5_3_allows_none() -> None:
    valuation = solo_values(_dead(), draws_left=20, samples=50)
    assert valuation.choices
    assert all(c.win_probability == 0 and c.expected_points == 0 for c in valuation.choices)
    priced = [Priced.of(i, c) for i, c in enumerate(valuation.choices)]
    assert no_winning_line(priced)


def test_it_marks_a_decision_with_no_winning_line_and_stars_nothing() -> None:
    """The pass's verdict: no best, no mistake, no explanation; the summary counts it apart."""
    valuation = solo_values(_dead(), draws_left=20, samples=50)
    priced = [Priced.of(i, c) for i, c in enumerate(valuation.choices)]
    decision = {"event": 9, "seat": 1, "kind": "turn", "actual": 2,
                "alternatives": [{"action": {"type": "discard", "tile": str(c.discard)}}
                                 for c in valuation.choices]}
    out = judged(decision, priced, "solo", 50, point=None)  # type: ignore[arg-type]
    assert out["no_winning_line"] is True and out["best"] is None
    assert not out["mistake"] and out["severity"] == "none" and out["explanation"] is None
    assert all(row["severity"] == "none" for row in out["alternatives"])
    figures = summary([out], 1)
    assert (figures["decisions"], figures["best_taken"], figures["no_line"]) == (0, 0, 1)


def test_it_leaves_a_decision_with_a_win_its_best() -> None:
    valuation = solo_values(_jiaxing("11234556789m33p7z"), draws_left=10, samples=50)
    priced = [Priced.of(i, c) for i, c in enumerate(valuation.choices)]
    assert not no_winning_line(priced)
