"""Rule-by-rule tests of the Putian variant (RULES.md section 2, PT-*; C-1, C-4).

Every expectation is worked out by hand from RULES.md, not read back from the
engine. Points are what one ordinary loser pays (ENGINE-CLI.md): (base + the
winner's flower points) × 2 (PT-7.2), 50 for a 大炸弹 and 100 for a 超级大炸弹
(PT-7.3); base 1 at dealer streak 0, else streak + 2 (PT-7.1).

Unless a test says otherwise the golds are 5s and 6s (PT-2) and the hands
hold neither, so they score no gold points.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.core.position import Position, PositionError
from games.core.variant import DiscardTable, Score, Waits
from games.variants.positions import read_position

from .conftest import find_shared_rules

GOLDS = ["5s", "6s"]
# 17 tiles, 5 sets + a pair (PT-5.1): 123m 456m 789m 123p 456p 99p.
PLAIN = "123m456m789m123p456p99p"
# The same with one gold (5s) standing for the 6p of 456p.
ONE_GOLD = "123m456m789m123p45p99p5s"
# Tiles that no gold can join into sets: 14 of them, all isolated.
JUNK = ["1m", "3m", "5m", "7m", "9m", "1p", "3p", "5p", "7p", "9p", "1s", "3s", "7s", "9s"]


def position(**fields: Any) -> Position:
    data: dict[str, Any] = {"variant": "putian", "hand": PLAIN, "win_tile": "9p",
                            "wildcards": GOLDS, "seat": 0, "dealer": 0}
    data.update(fields)
    return read_position(data)


def score(**fields: Any) -> Score:
    p = position(**fields)
    return p.variant.score(p)


def ids(result: Score) -> list[str]:
    return [hit.pattern.id for hit in result.patterns]


def names(result: Score) -> list[str]:
    return [hit.pattern.name for hit in result.patterns]


def junk(n: int) -> str:
    """n isolated tiles (no set, no pair, even with two or three golds)."""
    return "".join(JUNK[:n])


def waits_of(**fields: Any) -> Waits:
    p = position(**fields)
    result = p.variant.waits(p)
    assert isinstance(result, Waits)
    return result


def wait_tiles(result: Waits) -> dict[str, int]:
    """Each wait tile with its ``remaining``."""
    return {str(w.tile): w.remaining for w in result.waits}


# ---------------------------------------------------------------------------
# PT-1: 108 suited tiles and the four whites; no other honour.


@pytest.mark.parametrize("honour", ["1z", "2z", "3z", "4z", "6z", "7z"])
def test_it_rejects_every_honour_but_white_pt_1(honour: str) -> None:
    """PT-1: winds, Green and Red are not Putian tiles."""
    with pytest.raises(PositionError, match="PT-1"):
        position(hand="123m456m789m123p456p9p" + honour, win_tile="9p")


def test_it_rejects_an_honour_in_seen_pt_1() -> None:
    """PT-1 holds for tiles seen elsewhere too."""
    with pytest.raises(PositionError, match="PT-1"):
        position(seen="7z")


def test_it_rejects_a_white_in_the_hand_when_white_is_not_gold_pt_3() -> None:
    """PT-3 / PT-3.2: a white that is not gold is laid out at once, never held."""
    with pytest.raises(PositionError, match="PT-3"):
        position(hand="123m456m789m123p45p99p5z", win_tile="9p")


# ---------------------------------------------------------------------------
# PT-2: two gold kinds, 3 copies of each in play, wild, never discarded.


@pytest.mark.parametrize("wildcards", [[], ["5s"], ["5s", "6s", "7s"]])
def test_it_needs_exactly_two_gold_kinds_pt_2(wildcards: list[str]) -> None:
    """PT-2: two tiles are turned up, and both their kinds are gold."""
    with pytest.raises(PositionError, match="wildcard"):
        position(wildcards=wildcards)


def test_it_rejects_the_same_gold_kind_twice_pt_2() -> None:
    """PT-2: two turned tiles of the same kind are put back, so the kinds differ."""
    with pytest.raises(PositionError):
        position(wildcards=["5s", "5s"])


def test_it_scores_a_gold_as_any_tile_pt_2_c_4() -> None:
    """PT-2 / C-4: the gold 5s stands for 6p; 1 gold → (1 + 1) × 2 = 4."""
    result = score(hand=ONE_GOLD, self_draw=True)
    assert result.win
    assert result.points == 4


def test_it_lets_a_gold_stand_for_a_kind_with_all_four_copies_in_hand_c_4() -> None:
    """C-4 (PT-2): 1111m + gold + four sets — the gold can only be a fifth 1m."""
    result = score(hand="1111m234p567p789p234s5s", win_tile="5s", self_draw=True)
    assert result.win
    assert result.points == (1 + 1) * 2


def test_it_lets_a_gold_stand_for_a_kind_whose_four_copies_are_seen_c_4() -> None:
    """C-4 (PT-2): all four 2m are visible elsewhere; 13m + gold is still 123m."""
    result = score(hand="13m234p567p789p234s99s5s", win_tile="9s", seen="2222m")
    assert result.win
    assert result.points == (1 + 1) * 2


def test_it_rejects_four_physical_copies_of_a_gold_kind_pt_2() -> None:
    """PT-2: one tile of each gold kind is turned up, so only 3 copies are in play."""
    with pytest.raises(PositionError, match="copies"):
        position(hand="123m456m789m123p4p5s5s5s5s", win_tile="4p")


def test_it_rejects_five_copies_of_a_gold_kind_counting_seen_pt_2() -> None:
    """PT-2: three in hand and the turned-up one seen is every copy (``seen`` lists the
    turned-up golds, ENGINE-CLI); one more seen is one too many."""
    assert position(hand="123m456m789m123p4p5s5s5s", win_tile="4p", seen="5s").seen
    with pytest.raises(PositionError, match="copies"):
        position(hand="123m456m789m123p4p5s5s5s", win_tile="4p", seen="5s5s")


def test_it_allows_four_copies_of_a_non_gold_kind_pt_2() -> None:
    """PT-2 only limits the gold kinds: 1111m is fine when 1m is not gold."""
    result = score(hand="111m123m456m123p456p99p", self_draw=True)
    assert result.win


def test_it_rejects_a_concealed_kong_of_a_gold_kind_pt_2() -> None:
    """PT-2: a gold kind has 3 copies in play, so no kong of it."""
    with pytest.raises(PositionError):
        position(hand="123m456m789m456p99p",
                 melds=[{"type": "gang", "kind": "concealed", "tile": "5s"}])


def test_it_gives_no_win_on_a_discarded_gold_pt_2() -> None:
    """PT-2: golds can never be discarded, so a gold can't be won on a discard."""
    result = score(hand=ONE_GOLD, win_tile="5s", self_draw=False)
    assert not result.win
    assert "PT-2" in (result.reason or "")
    assert result.to_json()["points"] == 0


def test_it_wins_on_a_drawn_gold_pt_2() -> None:
    """PT-2 / PT-5.2: drawing the gold yourself is fine: (1 + 1) × 2."""
    result = score(hand=ONE_GOLD, win_tile="5s", self_draw=True)
    assert result.win
    assert result.points == 4


# ---------------------------------------------------------------------------
# PT-3.4: white as gold.


def test_it_counts_whites_as_golds_worth_2_when_white_is_gold_pt_3_4() -> None:
    """PT-3.4 / PT-6: one white-gold (for 6p) is 2 flower points → (1 + 2) × 2."""
    result = score(hand="123m456m789m123p45p99p5z", wildcards=["5z", "8s"], self_draw=True)
    assert result.win
    assert result.points == 6
    assert result.to_json()["flower_points"] == 2


def test_it_counts_two_white_golds_and_a_gold_pt_3_4() -> None:
    """PT-6: two white-golds (2 each) + one 8s gold (1) = 5 → (1 + 5) × 2 = 12."""
    result = score(hand="123m456m789m12p4p99p5z5z8s", wildcards=["5z", "8s"],
                   self_draw=True)
    assert result.win
    assert result.to_json()["flower_points"] == 5
    assert result.points == 12


def test_it_rejects_laid_out_whites_when_white_is_gold_pt_3_4() -> None:
    """PT-3.4: gold whites are never laid out, so flowers must be 0."""
    with pytest.raises(PositionError):
        position(hand="123m456m789m123p45p99p5z", wildcards=["5z", "8s"], flowers=1)


def test_it_rejects_four_white_golds_pt_2_pt_3_4() -> None:
    """PT-2: white as gold has one white turned up, so 3 are in play."""
    with pytest.raises(PositionError, match="copies"):
        position(hand="123m456m789m123p4p5z5z5z5z", wildcards=["5z", "8s"], win_tile="4p")


def test_it_rejects_a_fifth_white_counting_seen_pt_1() -> None:
    """PT-1: four whites in all; four laid out here and one seen elsewhere is five."""
    with pytest.raises(PositionError):
        position(flowers=4, seen="5z")


def test_it_rejects_more_than_four_laid_out_whites_pt_3() -> None:
    """PT-3 / PT-1: there are four whites."""
    with pytest.raises(PositionError):
        position(flowers=5)


# ---------------------------------------------------------------------------
# PT-4: no chow, no pung, no exposed or added kong; concealed kongs only.


@pytest.mark.parametrize("meld", [
    {"type": "chi", "tiles": "123p"},
    {"type": "peng", "tile": "3p"},
    {"type": "gang", "kind": "exposed", "tile": "3p"},
    {"type": "gang", "kind": "added", "tile": "3p"},
])
def test_it_rejects_every_meld_but_a_concealed_kong_pt_4(meld: dict[str, str]) -> None:
    """PT-4: no chow and no pung, and so no exposed or added kong."""
    hand = "123m456m789m456p99p"  # 14 tiles: what a one-meld hand holds
    with pytest.raises(PositionError, match="PT-4"):
        position(hand=hand, melds=[meld])


def test_it_counts_a_concealed_kong_as_a_set_worth_2_pt_4_pt_5_1_pt_6() -> None:
    """PT-4 / PT-5.1: 14 tiles + a concealed kong win; the kong is 2 points → (1 + 2) × 2."""
    result = score(hand="123m456m789m456p99p",
                   melds=[{"type": "gang", "kind": "concealed", "tile": "3p"}],
                   self_draw=True)
    assert result.win
    assert result.to_json()["flower_points"] == 2
    assert result.points == 6


def test_it_counts_two_concealed_kongs_pt_6() -> None:
    """PT-6: two kongs 2 each → (1 + 4) × 2 = 10; the hand holds 17 − 6 = 11 tiles."""
    result = score(hand="123m456m789m99p",
                   melds=[{"type": "gang", "kind": "concealed", "tile": "3p"},
                          {"type": "gang", "kind": "concealed", "tile": "7s"}],
                   self_draw=True)
    assert result.win
    assert result.points == 10


def test_it_wants_17_tiles_minus_3_per_kong_pt_5_1() -> None:
    """PT-5.1: with one kong the concealed hand holds 14 tiles, not 17."""
    p = position(melds=[{"type": "gang", "kind": "concealed", "tile": "3s"}])
    with pytest.raises(PositionError, match="needs 14"):
        p.variant.score(p)


# ---------------------------------------------------------------------------
# PT-5.1 / PT-5.2: the shape, and who may win.


def test_it_wins_with_five_sets_and_a_pair_pt_5_1() -> None:
    """PT-5.1: 123m 456m 789m 123p 456p 99p, no gold, no flower → (1 + 0) × 2 = 2."""
    result = score(self_draw=True)
    assert result.win
    assert result.points == 2
    assert result.to_json()["flower_points"] == 0


def test_it_wins_with_all_pungs_pt_5_1() -> None:
    """PT-5.1 (seed shape F): five pungs and a pair."""
    result = score(hand="111m333m555m777p999p11s", win_tile="1s")
    assert result.win
    assert result.points == 2


def test_it_gives_no_win_without_the_shape_pt_5_1() -> None:
    """PT-5.1: 17 tiles that are not 5 sets + a pair don't win; the reason says so."""
    result = score(hand="123m456m789m123p456p19p", win_tile="9p", self_draw=True)
    assert not result.win
    assert "PT-5.1" in (result.reason or "")


def test_it_gives_no_win_with_pairs_only_pt_5_1() -> None:
    """PT-5.1: no other shape (no seven-pairs-like hands): 8 pairs + 1 tile."""
    result = score(hand="11m33m55m77m22p44p66p88p9s", win_tile="9s", self_draw=True)
    assert not result.win


def test_it_wants_17_tiles_for_score_pt_5_1() -> None:
    """PT-5.1: a 14-tile hand without melds is the wrong size."""
    p = position(hand="123m456m789m123p99p")
    with pytest.raises(PositionError, match="needs 17"):
        p.variant.score(p)


def test_it_wins_on_a_discard_and_by_self_draw_alike_pt_5_2_pt_7_2() -> None:
    """PT-5.2: a discard win is allowed; PT-7.2: it pays the same as a self-draw."""
    on_discard = score(self_draw=False)
    drawn = score(self_draw=True)
    assert on_discard.win and drawn.win
    assert on_discard.points == drawn.points == 2


def test_it_pays_the_same_to_a_non_dealer_winner_pt_7_2() -> None:
    """PT-7.2: `points` is an ordinary (non-dealer) loser's payment: (1 + 1) × 2."""
    result = score(hand=ONE_GOLD, seat=2, dealer=0)
    assert result.win
    assert result.points == 4


# ---------------------------------------------------------------------------
# PT-5.4 天胡.


def test_it_names_tianhu_for_the_dealer_first_turn_pt_5_4() -> None:
    """PT-5.4: the dealer wins before the first discard; paid as PT-7.2, no bonus."""
    result = score(hand=ONE_GOLD, first_turn=True, self_draw=True)
    assert result.win
    assert "PT-5.4" in ids(result)
    assert result.points == (1 + 1) * 2


def test_it_lets_the_dealer_win_on_a_gold_at_tianhu_pt_5_4() -> None:
    """PT-5.4 / PT-2: the dealer's 17 dealt tiles include no one's discard."""
    result = score(hand=ONE_GOLD, win_tile="5s", first_turn=True, self_draw=True)
    assert result.win
    assert "PT-5.4" in ids(result)


def test_it_gives_no_tianhu_to_a_non_dealer_pt_5_4() -> None:
    """PT-5.4 is the dealer's only."""
    result = score(seat=1, dealer=0, first_turn=True, self_draw=True)
    assert result.win
    assert "PT-5.4" not in ids(result)


# ---------------------------------------------------------------------------
# PT-5.5 抢金.


def test_it_lets_a_ready_non_dealer_rob_the_gold_pt_5_5() -> None:
    """PT-5.5: 16 ready tiles + the turned-up gold; it counts as a gold: (1 + 1) × 2."""
    result = score(hand="123m456m789m123p456p9p5s", win_tile="5s", robbing_gold=True,
                   seat=1, dealer=0)
    assert result.win
    assert "PT-5.5" in ids(result)
    assert result.points == 4


def test_it_lets_the_dealer_rob_the_gold_pt_5_5() -> None:
    """PT-5.5: the dealer, after setting one tile aside, is ready and robs the gold."""
    result = score(hand="123m456m789m123p456p9p6s", win_tile="6s", robbing_gold=True)
    assert result.win
    assert "PT-5.5" in ids(result)
    assert result.points == 4


def test_it_counts_golds_already_held_when_robbing_pt_5_5_pt_6() -> None:
    """PT-5.5 / PT-6: one gold held + the robbed one = 2 → (1 + 2) × 2 = 6."""
    result = score(hand="123m456m789m123p45p9p5s6s", win_tile="6s", robbing_gold=True,
                   seat=3, dealer=0)
    assert result.win
    assert result.points == 6


def test_it_needs_a_gold_win_tile_to_rob_the_gold_pt_5_5() -> None:
    """PT-5.5: robbing the gold takes a turned-up gold, not another tile."""
    result = score(win_tile="9p", robbing_gold=True, seat=1)
    assert not result.win
    assert "PT-5.5" in (result.reason or "")


def test_it_needs_a_ready_hand_to_rob_the_gold_pt_5_5() -> None:
    """PT-5.5: the hand with the robbed gold must still be 5 sets + a pair."""
    result = score(hand="123m456m789m147p1379s5s", win_tile="5s", robbing_gold=True,
                   seat=1)
    assert not result.win


def test_it_lets_the_robbed_gold_be_a_fourth_copy_of_its_kind_pt_5_5_pt_2() -> None:
    """PT-2 / PT-5.5: the robbed tile is one of the turned-up ones, out of play until then.

    So a player holding all 3 in-play 5s may rob the turned-up fourth: 4 golds
    → (1 + 4) × 2 = 10 (also a 小炸弹's value, so the reading doesn't matter).
    """
    result = score(hand="123m456m789m123p4p5s5s5s5s", win_tile="5s", robbing_gold=True,
                   seat=1, dealer=0)
    assert result.win
    assert result.points == 10


# ---------------------------------------------------------------------------
# PT-5.6 bombs (PT-7.2, PT-7.3).


def test_it_wins_a_small_bomb_with_three_golds_of_a_kind_pt_5_6() -> None:
    """PT-5.6: 5s5s5s + 14 loose tiles, on one's own turn: (1 + 3) × 2 = 8."""
    result = score(hand="5s5s5s" + junk(14), win_tile="1m", self_draw=True, bomb=True)
    assert result.win
    assert "PT-5.6" in ids(result)
    assert result.points == 8
    assert result.to_json()["bomb"]


def test_it_wins_a_small_bomb_with_four_golds_pt_5_6() -> None:
    """PT-5.6: any 4 golds (AABB): (1 + 4) × 2 = 10."""
    result = score(hand="5s5s6s6s" + junk(13), win_tile="1m", self_draw=True, bomb=True)
    assert result.win
    assert "PT-5.6" in ids(result)
    assert result.points == 10


def test_it_wins_a_small_bomb_without_the_bomb_flag_pt_5_6() -> None:
    """PT-5.6: 3 golds of a kind win on one's own turn whatever the shape."""
    result = score(hand="6s6s6s" + junk(14), win_tile="6s", self_draw=True)
    assert result.win
    assert result.points == 8


def test_it_raises_a_small_bomb_with_the_streak_pt_5_6_pt_7_1() -> None:
    """PT-7.2 covers 小炸弹: streak 1 → base 3; (3 + 3) × 2 = 12."""
    result = score(hand="5s5s5s" + junk(14), win_tile="1m", self_draw=True, bomb=True,
                   dealer_streak=1)
    assert result.points == 12


def test_it_counts_white_golds_in_a_small_bomb_pt_5_6_pt_3_4() -> None:
    """PT-5.6 with white as gold: three whites, 2 points each → (1 + 6) × 2 = 14."""
    result = score(hand="5z5z5z" + junk(14), wildcards=["5z", "8s"], win_tile="1m",
                   self_draw=True, bomb=True)
    assert result.win
    assert result.points == 14


def test_it_refuses_a_bomb_with_three_golds_of_two_kinds_pt_5_6() -> None:
    """PT-5.6: 5s5s6s is neither 3 of one kind nor 4 golds."""
    result = score(hand="5s5s6s" + junk(14), win_tile="1m", self_draw=True, bomb=True)
    assert not result.win
    assert "PT-5.6" in (result.reason or "")


def test_it_refuses_a_bomb_with_no_golds_pt_5_6() -> None:
    """PT-5.6: `bomb` on a complete hand with no gold is no bomb, and names PT-5.6."""
    result = score(self_draw=True, bomb=True)
    assert not result.win
    assert "PT-5.6" in (result.reason or "")


def test_it_refuses_a_bomb_on_a_discard_pt_5_6() -> None:
    """PT-5.6: a bomb is won on one's own turn only."""
    result = score(hand="5s5s5s" + junk(14), win_tile="1m", self_draw=False, bomb=True)
    assert not result.win
    assert "PT-5.6" in (result.reason or "")


def test_it_pays_50_for_a_big_bomb_pt_5_6_pt_7_3() -> None:
    """PT-5.6 / PT-7.3: 5 golds (AAABB) → 大炸弹, each loser pays 50."""
    result = score(hand="5s5s5s6s6s" + junk(12), win_tile="1m", self_draw=True, bomb=True)
    assert result.win
    assert "大炸弹" in names(result)
    assert result.points == 50
    assert result.to_json()["bomb"]


def test_it_pays_50_for_a_big_bomb_whatever_the_streak_pt_7_3() -> None:
    """PT-7.3: the 50 replaces PT-7.2, so neither base nor flowers change it."""
    result = score(hand="5s5s6s6s6s" + junk(12), win_tile="1m", self_draw=True, bomb=True,
                   dealer_streak=3, flowers=4)
    assert result.points == 50


def test_it_pays_100_for_a_super_bomb_pt_5_6_pt_7_3() -> None:
    """PT-5.6 / PT-7.3: all 6 golds (AAABBB) → 超级大炸弹, each loser pays 100."""
    result = score(hand="5s5s5s6s6s6s" + junk(11), win_tile="1m", self_draw=True, bomb=True)
    assert result.win
    assert "超级大炸弹" in names(result)
    assert result.points == 100


def test_it_prefers_the_big_bomb_to_a_complete_hand_pt_5_6_c_4() -> None:
    """C-4: the legal answer that scores highest. 5 golds complete a shape
    ((1 + 5) × 2 = 12) but the 大炸弹 pays 50."""
    result = score(hand="123m456m789m12p9p5s5s5s6s6s", win_tile="1p", self_draw=True)
    assert result.win
    assert result.points == 50


# ---------------------------------------------------------------------------
# PT-6 flower points (through PT-7.2's points).


@pytest.mark.parametrize(("flowers", "flower_points"), [(0, 0), (1, 1), (2, 2), (3, 3), (4, 5)])
def test_it_counts_laid_out_whites_1_each_but_four_as_5_pt_6(flowers: int,
                                                          flower_points: int) -> None:
    """PT-6: laid-out whites 1 each, all four 5."""
    result = score(flowers=flowers, self_draw=True)
    assert result.win
    assert result.to_json()["flower_points"] == flower_points
    assert result.points == (1 + flower_points) * 2


def test_it_scores_the_seed_example_one_gold_and_four_whites_pt_6() -> None:
    """PT-6 seed example: 1 gold + 4 whites = 6 → (1 + 6) × 2 = 14."""
    result = score(hand=ONE_GOLD, flowers=4, self_draw=True)
    assert result.win
    assert result.to_json()["flower_points"] == 6
    assert result.points == 14


def test_it_counts_golds_1_each_pt_6() -> None:
    """PT-6: three golds (two 5s, one 6s) standing for 4p 6p 9p = 3 → (1 + 3) × 2."""
    result = score(hand="123m456m789m123p5p9p5s5s6s", win_tile="5p")
    assert result.win
    assert result.points == 8


def test_it_adds_every_kind_of_flower_point_pt_6() -> None:
    """PT-6: 2 golds + 3 whites + 1 concealed kong = 2 + 3 + 2 = 7 → (1 + 7) × 2 = 16."""
    result = score(hand="123m456m789m4p99p5s6s",
                   melds=[{"type": "gang", "kind": "concealed", "tile": "3p"}],
                   flowers=3, self_draw=True)
    assert result.win
    assert result.to_json()["flower_points"] == 7
    assert result.points == 16


# ---------------------------------------------------------------------------
# PT-7.1 the dealer streak.


@pytest.mark.parametrize(("streak", "base"), [(0, 1), (1, 3), (2, 4), (3, 5)])
def test_it_raises_the_base_with_the_dealer_streak_pt_7_1(streak: int, base: int) -> None:
    """PT-7.1: base 1 at n = 0, else n + 2; no flower points → base × 2."""
    result = score(dealer_streak=streak, self_draw=True)
    assert result.win
    assert result.points == base * 2


def test_it_applies_the_streak_base_when_another_seat_wins_pt_7_1() -> None:
    """PT-7.1 Reading: the base applies whoever wins: streak 2 → 4; 1 gold → (4 + 1) × 2."""
    result = score(hand=ONE_GOLD, seat=1, dealer=0, dealer_streak=2)
    assert result.win
    assert result.points == 10


# ---------------------------------------------------------------------------
# examples.json


def _examples(variant: str) -> list[dict[str, Any]]:
    folder = find_shared_rules()  # read while collecting: no skip here
    if folder is None:
        return []
    return [e for e in json.loads((folder / "examples.json").read_text(encoding="utf-8"))
            if e["input"]["variant"] == variant]


@pytest.mark.parametrize("example", _examples("putian"), ids=lambda e: e["about"][:40])
def test_it_answers_the_putian_examples_pt_7_2(example: dict[str, Any]) -> None:
    """The shared examples (e.g. PT-7.2: one laid-out white → (1 + 1) × 2 = 4)."""
    p = read_position(example["input"])
    if example["command"] == "score":
        out = p.variant.score(p).to_json()
        for key, value in example["output_includes"].items():
            assert out[key] == value, key
    else:
        result = p.variant.waits(p)
        assert isinstance(result, Waits)
        assert sorted(str(w.tile) for w in result.waits) == sorted(example["output_wait_tiles"])


# ---------------------------------------------------------------------------
# waits (PT-2, PT-5.6, ENGINE-CLI `remaining`).

READY = "111m333m555p777p999p4s"  # 16 tiles, waits on 4s alone (no gold held)


def test_it_lists_both_golds_as_waits_on_a_self_draw_pt_2() -> None:
    """PT-2: a drawn gold completes any ready hand; each gold kind has 3 in play."""
    result = waits_of(hand=READY, win_tile=None, self_draw=True)
    assert result.shanten == 0
    assert wait_tiles(result) == {"4s": 3, "5s": 3, "6s": 3}


def test_it_lists_no_gold_as_a_wait_on_a_discard_pt_2() -> None:
    """PT-2: golds are never discarded, so only 4s wins on a discard."""
    result = waits_of(hand=READY, win_tile=None, self_draw=False)
    assert wait_tiles(result) == {"4s": 3}


def test_it_counts_remaining_golds_out_of_3_pt_2() -> None:
    """PT-2: 3 of each gold kind in play, one turned up: one 5s held → 2 left. ``seen``
    lists the turned-up golds (ENGINE-CLI), so the 6s seen is the turned-up one, counted
    once: 3 left, as when ``seen`` leaves it out."""
    for seen in ("6s", ""):
        result = waits_of(hand="111m333m555p777p99p5s4s", win_tile=None, self_draw=True,
                          seen=seen)
        found = wait_tiles(result)
        assert found["5s"] == 2
        assert found["6s"] == 3
        assert found["4s"] == 3


def test_it_counts_remaining_ordinary_tiles_out_of_4_with_seen() -> None:
    """ENGINE-CLI `remaining`: 4 copies less those in hand and seen: 4s 4 − 1 − 2 = 1."""
    result = waits_of(hand=READY, win_tile=None, seen="4s4s")
    assert wait_tiles(result) == {"4s": 1}


def test_it_lists_white_as_a_wait_only_when_white_is_gold_pt_3_4() -> None:
    """PT-3: a non-gold white is a flower (never completes a hand); a gold white
    does (3 in play, one is turned up)."""
    plain = waits_of(hand=READY, win_tile=None, self_draw=True)
    assert "5z" not in wait_tiles(plain)
    white = waits_of(hand=READY, win_tile=None, self_draw=True, wildcards=["5z", "8s"])
    assert wait_tiles(white) == {"4s": 3, "5z": 3, "8s": 3}


def test_it_lists_the_third_gold_of_a_kind_as_a_bomb_wait_pt_5_6() -> None:
    """PT-5.6: two 5s and loose tiles: only a drawn third 5s wins (small bomb,
    (1 + 3) × 2 = 8); 1 copy of 5s remains."""
    result = waits_of(hand="5s5s" + junk(14), win_tile=None, self_draw=True)
    assert wait_tiles(result) == {"5s": 1}
    assert result.waits[0].score.points == 8


def test_it_calls_a_hand_ready_when_a_drawn_gold_makes_a_bomb_pt_5_6() -> None:
    """ENGINE-CLI: ready (shanten 0) when some drawn tile would win, a bomb included. Two
    5s and loose tiles are far from any shape, but the third 5s wins."""
    result = waits_of(hand="5s5s" + junk(14), win_tile=None, self_draw=True)
    assert result.shanten == 0
    assert [str(a.tile) for a in result.accepted] == ["5s"]


def test_it_calls_three_golds_of_a_kind_ready_on_any_draw_pt_5_6() -> None:
    """PT-5.6: 5s5s5s + 13 loose tiles win on any draw of one's own; waits lists every
    kind that can still be drawn, and the hand is ready (shanten 0), not 1 or more."""
    result = waits_of(hand="5s5s5s" + junk(13), win_tile=None, self_draw=True)
    assert result.shanten == 0
    assert len(result.waits) == 27 - 1  # every suited kind but 5s, whose copies are all held
    own = position(hand="5s5s5s" + junk(13), win_tile=None, self_draw=True)
    assert own.variant.ready_shanten(own) == 0


def test_it_lists_no_bomb_wait_on_a_discard_pt_5_6() -> None:
    """PT-5.6 (own turn only) and PT-2 (no discarded gold): nothing wins here on a discard."""
    result = waits_of(hand="5s5s" + junk(14), win_tile=None, self_draw=False)
    assert result.waits == []


def test_it_counts_remaining_white_golds_out_of_3_pt_3_4() -> None:
    """PT-2 / PT-3.4: with white gold and one white held, 2 whites remain."""
    result = waits_of(hand="111m333m555p777p99p5z4s", win_tile=None, self_draw=True,
                      wildcards=["5z", "8s"])
    assert wait_tiles(result)["5z"] == 2


def test_it_never_offers_a_gold_as_a_discard_pt_2() -> None:
    """PT-2: golds can never be discarded, so the discard table leaves them out."""
    p = position(hand=ONE_GOLD, win_tile=None)
    table = p.variant.waits(p)
    assert isinstance(table, DiscardTable)
    offered = {str(d.tile) for d in table.discards}
    assert "5s" not in offered
    assert "9p" in offered


def test_it_wants_16_or_17_tiles_for_waits_pt_5_1() -> None:
    """PT-5.1: waits takes a hand one tile short (16) or full (17)."""
    p = position(hand="123m456m789m123p456p", win_tile=None)
    with pytest.raises(PositionError, match="16 or 17"):
        p.variant.waits(p)


# ---------------------------------------------------------------------------
# Bad input.


def test_it_rejects_an_unknown_variant() -> None:
    with pytest.raises(PositionError, match='unknown variant "putien"'):
        read_position({"variant": "putien", "hand": PLAIN})


def test_it_rejects_an_unknown_rules_option() -> None:
    with pytest.raises(PositionError, match="cap_fan"):
        position(rules={"cap_fan": 4})


def test_it_rejects_an_unknown_field() -> None:
    with pytest.raises(PositionError, match="jokers"):
        position(jokers=2)


def test_it_rejects_a_wrong_tile_count_for_score_pt_5_1() -> None:
    p = position(hand="123m456m789m123p456p9p", win_tile="9p")
    with pytest.raises(PositionError, match="16 concealed tiles"):
        p.variant.score(p)


def test_it_rejects_a_fifth_copy_c_1() -> None:
    with pytest.raises(PositionError, match="5 copies of 1m"):
        position(hand="11111m23m456m123p45p99p")


def test_it_rejects_a_win_tile_not_in_the_hand() -> None:
    p = position(win_tile="1s")
    with pytest.raises(PositionError, match="win_tile"):
        p.variant.score(p)


def test_it_rejects_negative_flowers() -> None:
    with pytest.raises(PositionError, match="flowers must be an integer 0 or more, not -1"):
        position(flowers=-1)


def test_it_rejects_bad_tile_notation_c_1() -> None:
    with pytest.raises(PositionError, match="notation"):
        position(hand="123m456m789m123p456p99x")
