"""Tests of the puzzle engine ``games.training.puzzles`` (answers, marking, generator, ladder).

- Answers (``solve``) per variant, on hands whose winning tiles are worked out by hand
  from RULES.md: JX-5.1/JX-5.3 and the wildcard (C-4) for Jiaxing, golds (PT-2) and
  flower points (PT-6, PT-7.2) for Putian, the void suit (SC-2, SC-4.2), seven pairs
  (SC-4.1) and 根 (SC-5.14) for Sichuan; traps are shape-complete tiles a rule refuses.
- ``check`` marks a pick: 10 × difficulty for a solved puzzle, 5 × difficulty for the
  bonus (the most valuable wait; ties all count); ``parse_pick`` reads notation (C-1).
- ``generate``: the same (variant, difficulty, seed) gives the same position in any
  process; every position is valid, ready, mostly of the difficulty asked for, and its
  answer agrees with ``Variant.score`` tile by tile.
- ``ready_spots`` finds ready hands in bot matches; ``position_json`` round-trips.
- JX-11: the 24-level rank ladder of ``seeds/001_*.txt``.

Unless a test says otherwise a Jiaxing position has the winner at seat 2 with seat 0
dealing in the East round (seat wind West, C-2) and 8p as the wildcard, a kind the
hands don't hold.
"""

from __future__ import annotations

import doctest
import functools
import json
import os
import subprocess
import sys
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import games.training.puzzles
from games.bots.simulation import simulate
from games.core.position import Position
from games.core.tiles import Tile, counts_of, parse_tiles
from games.core.variant import Score
from games.training.puzzles import (
    LADDER,
    Answer,
    PuzzleError,
    Trap,
    Verdict,
    check,
    features,
    generate,
    parse_pick,
    position_json,
    ready_spots,
    solve,
    standing,
)
from games.variants.positions import read_position

from .conftest import ROOT

VARIANTS = ("jiaxing", "putian", "sichuan")
DIFFICULTIES = (1, 2, 3)

JIAXING = {"variant": "jiaxing", "wildcards": ["8p"], "seat": 2, "dealer": 0,
           "round_wind": "E", "self_draw": True}
PUTIAN = {"variant": "putian", "wildcards": ["1p", "9s"], "seat": 1, "dealer": 0,
          "self_draw": True}
SICHUAN = {"variant": "sichuan", "seat": 1, "dealer": 0, "self_draw": True}


def answer_of(base: dict[str, Any], hand: str, **fields: Any) -> Answer:
    return solve(read_position({**base, "hand": hand, **fields}))


def points_of(answer: Answer) -> dict[str, int]:
    return {str(w.tile): w.score.points for w in answer.waits}


def rule_ids(score: Score) -> set[str]:
    return {hit.pattern.id for hit in score.patterns}


def wait_named(answer: Answer, tile: str) -> Score:
    return next(w.score for w in answer.waits if str(w.tile) == tile)


def score_with(position: Position, tile: Tile) -> Score:
    """The variant's own verdict on the hand plus ``tile`` drawn (the puzzle's context)."""
    context = position.variant.wait_context(position)
    return position.variant.score(context.with_hand((*position.hand, tile), tile))


@functools.cache
def generated(variant: str, difficulty: int, seed: int | str) -> str:
    """``generate`` once per argument triple for the whole module (as JSON text)."""
    return json.dumps(generate(variant, difficulty, seed), sort_keys=True)


def puzzle(variant: str, difficulty: int, seed: int | str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(generated(variant, difficulty, seed))
    return data


# ---------------------------------------------------------------------------
# Jiaxing (JX-5)


def test_it_lists_the_waits_of_a_half_flush_jx_5_3() -> None:
    """JX-5.3/JX-6.7: 111z 222z 789m 55m + 23m waits on 1m and 4m (123m/234m), and on the
    wildcard 8p standing for either (C-4). Nothing else completes 4 sets + a pair: the
    lone chance is the 23m partial (22m/33m would leave it broken, 5m makes 555m and
    strands 23m). 1m/4m: 混一色 2 + East round-wind pung 1 (JX-6.4; 222z is South, not
    West) + 无百搭 1 = 4 tai, 0 fan → 4 points; the wildcard loses 无百搭 → 3."""
    answer = answer_of(JIAXING, "111z 222z 789m 55m 23m")
    assert [str(w.tile) for w in answer.waits] == ["1m", "4m", "8p"]
    assert points_of(answer) == {"1m": 4, "4m": 4, "8p": 3}
    assert rule_ids(wait_named(answer, "1m")) == {"JX-6.7", "JX-6.4", "JX-6.5"}
    assert rule_ids(wait_named(answer, "8p")) == {"JX-6.7", "JX-6.4"}, "a wildcard: no JX-6.5"
    assert answer.best == {"1m", "4m"}, "1m and 4m tie as the most valuable waits"
    assert answer.traps == ()
    assert [w.remaining for w in answer.waits] == [4, 4, 4]


def test_it_lists_shape_completing_tiles_that_fail_jx_5_3_as_traps() -> None:
    """JX-5.3: 111m 555m 777p 88p 99p. 8p or 9p makes 对对和 (2 tai + 无百搭 1 = 3 points);
    the wildcard 3s standing for 8p/9p makes 对对和 without 无百搭 (2). 7p completes the
    shape too — 111m 555m 789p 789p 77p — but with chows in two suits that is none of
    清一色, 混一色, 全老头, 对对和: a trap, and not a wait."""
    answer = answer_of(JIAXING, "111m 555m 777p 88p 99p", wildcards=["3s"])
    assert [str(w.tile) for w in answer.waits] == ["8p", "9p", "3s"]
    assert points_of(answer) == {"8p": 3, "9p": 3, "3s": 2}
    assert rule_ids(wait_named(answer, "8p")) == {"JX-6.6", "JX-6.5"}
    assert [t.tile for t in answer.traps] == [Tile.parse("7p")]
    trap = answer.traps[0]
    assert isinstance(trap, Trap) and "JX-5.3" in trap.reason, trap.reason
    assert "7p" not in answer.tiles
    assert answer.to_json()["traps"] == [{"tile": "7p", "reason": trap.reason,
                                          "rule": "JX-5.3"}]


def test_it_wins_a_ready_flush_on_the_wildcard_c_4() -> None:
    """C-4/JX-6.8: 123m 234m 456m 789m + 5m is a pure-suit hand; drawing the wildcard 8p
    (a dot tile!) wins as 5m: 清一色 4 tai, no 无百搭, 0 fan → 4 points. The real waits
    2m (22m pair, 123 345 456 789) and 5m (55m pair) add 无百搭: 5 points."""
    answer = answer_of(JIAXING, "123m 234m 456m 789m 5m")
    assert answer.tiles == {"2m", "5m", "8p"}
    wild = wait_named(answer, "8p")
    assert (wild.win, wild.tai, wild.fan, wild.points) == (True, 4, 0, 4)
    assert rule_ids(wild) == {"JX-6.8"}
    assert points_of(answer)["5m"] == 5 and answer.best == {"2m", "5m"}


def test_it_asks_what_wins_on_the_next_draw_jx_5_1() -> None:
    """JX-5.1: Jiaxing never wins on a discard, so a puzzle is always about the next
    self-draw: a position without ``self_draw`` has the same answer."""
    hand = "111z 222z 789m 55m 23m"
    assert (answer_of(JIAXING, hand, self_draw=False).to_json()
            == answer_of(JIAXING, hand).to_json())


# ---------------------------------------------------------------------------
# Putian (PT-2, PT-6, PT-7.2)


PUTIAN_HAND = "123456789m 234s 55s 7s 9s"  # 16 concealed tiles, the 9s a gold


def test_it_wins_a_putian_hand_on_a_drawn_gold_pt_2() -> None:
    """PT-2/PT-5.1: golds 1p and 9s; 123m 456m 789m 234s + 55s 7s and a held gold 9s.
    The s tiles + gold must make a set and a pair: 5s (555s/57s+gold), 6s (567s),
    7s (77s+gold), 8s (78s+gold), 2s (22s pair, 345s, 57s+gold as 6s), or a drawn gold
    (1p or 9s). 1s, 3s, 4s and every other m/p tile leave a broken group.
    PT-6/PT-7.2: each loser pays (base 1 + flower points) × 2: one gold → 4, two
    golds (a gold drawn) → 6, so the golds are the best waits."""
    answer = answer_of(PUTIAN, PUTIAN_HAND)
    assert [str(w.tile) for w in answer.waits] == ["1p", "2s", "5s", "6s", "7s", "8s", "9s"]
    assert points_of(answer) == {"1p": 6, "2s": 4, "5s": 4, "6s": 4, "7s": 4, "8s": 4,
                                 "9s": 6}
    assert answer.best == {"1p", "9s"}
    remaining = {str(w.tile): w.remaining for w in answer.waits}
    assert remaining["1p"] == 3 and remaining["9s"] == 2, "PT-2: 3 copies of a gold kind"
    assert remaining["5s"] == 2 and remaining["6s"] == 4


def test_it_refuses_a_discarded_gold_pt_2() -> None:
    """PT-2: golds are never discarded, so on a discard the golds only complete the shape:
    they are traps citing PT-2. The puzzle (``self_draw`` set, as ``generate`` and
    ``position_json`` do) is about the next draw, where they win."""
    answer = answer_of(PUTIAN, PUTIAN_HAND, self_draw=False)
    assert answer.tiles == {"2s", "5s", "6s", "7s", "8s"}
    assert {str(t.tile) for t in answer.traps} == {"1p", "9s"}
    assert all("PT-2" in t.reason for t in answer.traps)


# ---------------------------------------------------------------------------
# Sichuan (SC-2, SC-4)


def test_it_finds_a_seven_pairs_wait_sc_4_1() -> None:
    """SC-4.1/SC-5.5: 11m 22m 55m 77m 33p 66p + 9p is ready only as seven pairs (no two
    sets can be made of it): 9p alone wins, 七对 3 + 自摸 1 = 4 fan → 2^3 = 8 points."""
    answer = answer_of(SICHUAN, "11m 22m 55m 77m 33p 66p 9p", void="s")
    assert [str(w.tile) for w in answer.waits] == ["9p"]
    score = wait_named(answer, "9p")
    assert (score.fan, score.points) == (4, 8)
    assert rule_ids(score) == {"SC-5.5", "SC-5.15"}


def test_it_values_waits_that_make_a_fourth_copy_sc_5_14() -> None:
    """SC-4.1/SC-5.14: 111m 23m 456p 789p 55p (void s) waits on 1m (111m 123m, 55p pair),
    4m (111m 234m) and 5p (555p with the 11m pair + 123m); 2m/3m break the 23m.
    1m makes four 1m, 5p four 5p (456p holds one): 平胡 1 + 根 1 + 自摸 1 = 3 fan →
    2^2 = 4 points; 4m: 平胡 1 + 自摸 1 = 2 fan → 2 points. Best: 1m and 5p, a tie."""
    answer = answer_of(SICHUAN, "111m 23m 456p 789p 55p", void="s")
    assert [str(w.tile) for w in answer.waits] == ["1m", "4m", "5p"]
    assert points_of(answer) == {"1m": 4, "4m": 2, "5p": 4}
    assert rule_ids(wait_named(answer, "1m")) == {"SC-5.1", "SC-5.14", "SC-5.15"}
    assert rule_ids(wait_named(answer, "4m")) == {"SC-5.1", "SC-5.15"}
    assert answer.best == {"1m", "5p"}


def test_it_never_wins_while_holding_the_void_suit_sc_4_2() -> None:
    """SC-2/SC-4.2: void p, 123m 456m 789m 11p 55s. 1p (111p, 55s pair) or 5s (555s, 11p
    pair) completes the shape, but the hand still holds its void suit (and three suits):
    no tile wins, so it is no puzzle."""
    data = {**SICHUAN, "hand": "123m 456m 789m 11p 55s", "void": "p"}
    with pytest.raises(PuzzleError, match="no tile wins"):
        solve(read_position(data))
    position = read_position(data)
    for tile in ("1p", "5s"):
        result = score_with(position, Tile.parse(tile))
        assert not result.win and "SC-4.2" in (result.reason or ""), result.reason


@pytest.mark.parametrize(("data", "impossible", "expected"), [
    # 1111m 2233m 456p 55p: 4m (111m 123m 234m) and 5p (555p 456p, 11m pair) win;
    # 1m would too (111m 123m 123m) but all four 1m are in the hand.
    ({**SICHUAN, "hand": "1111m 2233m 456p 55p", "void": "s"}, "1m", {"4m", "5p"}),
    # A concealed kong of 4s and 123s 5677s: 7s (567s 77s) and the wildcard 3m win; 4s
    # (123s 456s 77s) would need a fifth 4s.
    ({"variant": "jiaxing", "hand": "1235677s", "wildcards": ["3m"], "seat": 3, "dealer": 0,
      "self_draw": True, "melds": [{"type": "peng", "tile": "3z"},
                                   {"type": "gang", "kind": "concealed", "tile": "4s"}]},
     "4s", {"7s", "3m"}),
])
def test_it_never_lists_a_kind_whose_copies_are_all_held_c_1(
        data: dict[str, Any], impossible: str, expected: set[str]) -> None:
    """C-1: 4 copies of a kind; a kind the player holds (hand and melds) all four of can't
    be drawn, so it is no wait — it is a trap that names the rule."""
    answer = solve(read_position(data))
    assert impossible not in answer.tiles, [w.to_json()["remaining"] for w in answer.waits]
    assert answer.tiles == expected
    traps = {str(t.tile): t for t in answer.traps}
    assert traps[impossible].reason.startswith("C-1: all 4 copies"), traps
    assert traps[impossible].to_json() == {"tile": impossible, "reason": traps[impossible].reason,
                                           "rule": "C-1", "copies": 4}


def test_it_refuses_a_hand_that_is_not_one_tile_short() -> None:
    """A puzzle is one tile short (JX-5.2): a 14-tile hand gets a discard table from
    ``waits``, and ``solve`` says so in a sentence; a 12-tile hand is named as such."""
    with pytest.raises(PuzzleError, match="one tile short") as raised:
        answer_of(JIAXING, "111z 222z 789m 55m 234m")
    assert isinstance(raised.value, ValueError)
    assert "tile to discard" in str(raised.value) and "JX-5.2" in str(raised.value)
    with pytest.raises(PuzzleError, match="12 concealed tiles"):
        answer_of(SICHUAN, "123m 456m 789m 11p 5s", void="s")


def test_it_refuses_a_hand_no_tile_wins_jx_5_3() -> None:
    """JX-5.3: 123m 456m 789m 55m + 23p waits on 1p/4p for the shape, but chows in two
    suits meet no requirement, nor does the wildcard: no winning tile, no puzzle."""
    with pytest.raises(PuzzleError, match="no tile wins this hand"):
        answer_of(JIAXING, "123m 456m 789m 55m 23p")


# ---------------------------------------------------------------------------
# Marking: check and parse_pick


@pytest.fixture(scope="module")
def half_flush() -> Answer:
    """Waits 1m, 4m (4 points each, the best) and the wildcard 8p (3 points)."""
    return answer_of(JIAXING, "111z 222z 789m 55m 23m")


def test_it_marks_a_solved_puzzle_with_the_bonus(half_flush: Answer) -> None:
    """10 × difficulty for the exact set of waits, 5 × difficulty more for a best wait."""
    verdict = check(half_flush, ["8p", "4m", "1m"], "1m", 2)
    assert isinstance(verdict, Verdict)
    assert verdict.solved and verdict.bonus is True
    assert (verdict.right, verdict.missed, verdict.wrong) == (("1m", "4m", "8p"), (), ())
    assert verdict.points == 20 + 10
    assert check(half_flush, ["1m", "4m", "8p"], "1m", 3).points == 30 + 15
    assert check(half_flush, ["1m", "4m", "8p"], "1m", 1).points == 10 + 5


def test_it_accepts_every_tied_best_wait_as_the_bonus(half_flush: Answer) -> None:
    """1m and 4m tie at 4 points: either is the bonus answer; 8p (3 points) is not."""
    picked = ["1m", "4m", "8p"]
    assert check(half_flush, picked, "4m", 1).bonus is True
    assert check(half_flush, picked, "1m", 1).bonus is True
    wrong_bonus = check(half_flush, picked, "8p", 1)
    assert wrong_bonus.bonus is False and wrong_bonus.points == 10
    assert check(half_flush, picked, "9m", 1).bonus is False


def test_it_leaves_the_bonus_unanswered_when_not_given(half_flush: Answer) -> None:
    for bonus in (None, ""):
        verdict = check(half_flush, ["1m", "4m", "8p"], bonus, 2)
        assert verdict.bonus is None and verdict.points == 20
        assert verdict.to_json()["bonus"] is None


def test_it_marks_missed_and_wrong_tiles(half_flush: Answer) -> None:
    """A missed or a wrong tile: not solved, no solve points; a right bonus still counts."""
    missed = check(half_flush, ["4m"], None, 2)
    assert (missed.right, missed.missed, missed.wrong) == (("4m",), ("1m", "8p"), ())
    assert not missed.solved and missed.points == 0
    wrong = check(half_flush, ["1m", "4m", "8p", "7m", "2m"], None, 2)
    assert (wrong.right, wrong.missed, wrong.wrong) == (("1m", "4m", "8p"), (), ("2m", "7m"))
    assert not wrong.solved and wrong.points == 0
    assert check(half_flush, ["1m"], "4m", 2).points == 10, "the bonus alone: 5 × 2"
    nothing = check(half_flush, [], None, 1)
    assert nothing.missed == ("1m", "4m", "8p") and not nothing.solved
    assert nothing.to_json() == {"right": [], "missed": ["1m", "4m", "8p"], "wrong": [],
                                 "solved": False, "bonus": None, "points": 0}


def test_it_marks_an_answer_and_its_json_alike(half_flush: Answer) -> None:
    as_json = json.loads(json.dumps(half_flush.to_json()))
    for picked, bonus in ((["1m", "4m", "8p"], "4m"), (["1m", "9p"], "8p"), ([], None)):
        assert check(half_flush, picked, bonus, 3) == check(as_json, picked, bonus, 3)


def test_it_reads_a_pick_in_notation_c_1() -> None:
    assert parse_pick("3m 69p") == ["3m", "6p", "9p"]
    assert parse_pick("9p,6p, 3m") == ["3m", "6p", "9p"], "commas and spaces"
    assert parse_pick("6p 6p 69p 6p") == ["6p", "9p"], "duplicates collapsed"
    assert parse_pick("1z 5s 5p 5m") == ["5m", "5p", "5s", "1z"], "tile order m p s z"
    assert parse_pick("") == []


@pytest.mark.parametrize(("text", "word", "named"), [
    ("3x", "3x", "'x' at position 2"), ("3m, 6?", "6?", "'?' at position 2"),
    ("8z", "8z", "8z"), ("m", "m", "'m'")])
def test_it_names_the_bad_character_of_a_pick_c_1(text: str, word: str, named: str) -> None:
    """The message quotes the word as typed, so the position counts within it."""
    with pytest.raises(PuzzleError) as raised:
        parse_pick(text)
    message = str(raised.value)
    assert named in message and "C-1" in message and repr(word) in message, message


# ---------------------------------------------------------------------------
# The generator


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_generates_the_same_puzzle_for_the_same_seed(variant: str) -> None:
    for difficulty in DIFFICULTIES:
        for seed in (0, "2026-11-30"):
            assert generate(variant, difficulty, seed) == puzzle(variant, difficulty, seed)


def test_it_generates_the_same_puzzles_in_another_process() -> None:
    """The seed alone decides (str seeds too): a new interpreter with another hash seed
    gives the same positions."""
    cases = [(v, d, s) for v in VARIANTS for d in DIFFICULTIES for s in ("day-42",)]
    cases += [(v, 1, 3) for v in VARIANTS]
    code = ("import json, sys; from games.training.puzzles import generate; "
            "print(json.dumps([generate(v, d, s) for v, d, s in json.load(sys.stdin)], "
            "sort_keys=True))")
    hash_seed = "271828" if os.environ.get("PYTHONHASHSEED") != "271828" else "314159"
    done = subprocess.run([sys.executable, "-c", code], input=json.dumps(cases), cwd=ROOT,
                          env={**os.environ, "PYTHONHASHSEED": hash_seed},
                          capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(done.stdout) == [puzzle(v, d, s) for v, d, s in cases]


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_generates_different_puzzles_for_different_seeds(variant: str) -> None:
    hands = {generated(variant, 2, seed) for seed in range(20)}
    assert len(hands) >= 16, f"only {len(hands)} distinct puzzles in 20 seeds"


def test_it_refuses_an_unknown_difficulty_or_variant() -> None:
    with pytest.raises(PuzzleError, match="difficulty must be 1, 2 or 3"):
        generate("sichuan", 4, 1)
    with pytest.raises(ValueError, match="unknown variant"):
        generate("riichi", 1, 1)


GENERATED = settings(max_examples=30, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("variant", VARIANTS)
@GENERATED
@given(seed=st.one_of(st.integers(), st.text(max_size=20)),
       difficulty=st.sampled_from(DIFFICULTIES))
def test_it_generates_valid_ready_positions(variant: str, seed: int | str,
                                           difficulty: int) -> None:
    """Every generated position is valid, has a winning tile, the answer doesn't change
    through JSON or ``position_json``, and no Sichuan wait is in the void suit (SC-2)."""
    data = generate(variant, difficulty, seed)
    position = read_position(data)
    answer = solve(position)
    assert answer.waits
    assert len(position.hand) == position.variant.concealed_size(position) - 1
    expected = answer.to_json()
    assert solve(read_position(json.loads(json.dumps(data)))).to_json() == expected
    assert solve(read_position(position_json(position))).to_json() == expected
    assert 1 <= features(position, answer).difficulty <= 3
    if position.void is not None:
        assert all(w.tile.kind // 9 != position.void for w in answer.waits)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("difficulty", DIFFICULTIES)
def test_it_generates_mostly_the_difficulty_asked_for(variant: str, difficulty: int) -> None:
    """At least 80% of 40 seeds give a puzzle whose features rate the difficulty asked."""
    hits = 0
    for seed in range(40):
        position = read_position(puzzle(variant, difficulty, seed))
        hits += features(position, solve(position)).difficulty == difficulty
    assert hits >= 32, f"{variant} difficulty {difficulty}: {hits}/40"


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_agrees_with_score_on_every_tile_of_a_generated_puzzle(variant: str) -> None:
    """JX-5, PT-5, SC-4: a listed wait is a win by ``Variant.score`` on the hand plus that
    tile (with the same points), and every other drawable tile is not — or would be a copy
    more than the game has (C-1)."""
    positions = tiles = 0
    for difficulty in DIFFICULTIES:
        for seed in range(6):
            position = read_position(puzzle(variant, difficulty, seed))
            positions += 1
            answer = solve(position)
            listed = {w.tile.kind: w.score.points for w in answer.waits}
            own = counts_of([*position.hand, *(t for m in position.melds for t in m.tiles)])
            for tile in position.variant.drawable(position):
                result = score_with(position, tile)
                exists = own[tile.kind] < position.variant.copies(position, tile.kind)
                assert (result.win and exists) == (tile.kind in listed), (position.hand, tile)
                if result.win and exists:
                    assert result.points == listed[tile.kind]
                tiles += 1
    assert positions == 18 and tiles >= 18 * 18, "Sichuan draws 18 kinds, the others 27+"


# ---------------------------------------------------------------------------
# Puzzles from real hands


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_finds_ready_spots_in_bot_matches(variant: str) -> None:
    """Each spot follows a discard by its seat, is one tile short with ≥ 2 waits, and its
    ``seen`` keeps every kind within its copies (C-1, PT-2), so it reads back."""
    found = 0
    for seed in (1, 2):
        match = simulate(variant, 6, seed)
        for spot in ready_spots(match):
            found += 1
            event = match.hands[spot.hand - 1].events[spot.event - 1]
            assert (event.type, event.actor) == ("discard", spot.seat)
            position = read_position(spot.position)  # raises past the copies
            assert position.seat == spot.seat
            variant_class = position.variant
            assert len(position.hand) == variant_class.concealed_size(position) - 1
            counts = Counter(t.kind for t in (*position.hand, *position.seen,
                                              *(t for m in position.melds for t in m.tiles)))
            counts[31] += position.flowers
            assert all(n <= variant_class.copies(position, kind) for kind, n in counts.items())
            answer = solve(position)
            assert len(answer.waits) >= 2
            if position.void is not None:
                assert all(w.tile.kind // 9 != position.void for w in answer.waits)
    assert found >= 2, f"only {found} spots in two {variant} matches"


# ---------------------------------------------------------------------------
# position_json


ROUND_TRIPS = [
    {"variant": "jiaxing", "hand": "456m 789m 5m", "wildcards": ["8p"], "seat": 2, "dealer": 1,
     "round_wind": "S", "bank": ["huangfan", "baozi"], "self_draw": True,
     "melds": [{"type": "chi", "tiles": "123m"}, {"type": "peng", "tile": "7z"}]},
    {"variant": "jiaxing", "hand": "111z 234p 678p 9p", "wildcards": ["5z"], "seat": 0,
     "dealer": 0, "round_wind": "N", "self_draw": True,
     "melds": [{"type": "gang", "kind": "concealed", "tile": "1p"}]},
    {"variant": "jiaxing", "hand": "5p", "wildcards": ["1s"], "seat": 3, "dealer": 2,
     "self_draw": True, "melds": [{"type": "peng", "tile": "1p"}, {"type": "chi", "tiles": "234p"},
                                  {"type": "gang", "kind": "exposed", "tile": "7z"},
                                  {"type": "gang", "kind": "added", "tile": "9p"}]},
    {"variant": "putian", "hand": "456m 789m 234s 55s 7s 9s", "wildcards": ["1p", "9s"],
     "seat": 1, "dealer": 3, "flowers": 2, "dealer_streak": 2, "self_draw": True,
     "melds": [{"type": "gang", "kind": "concealed", "tile": "3m"}]},
    {"variant": "putian", "hand": "123456789m 234s 55s 7s 5z", "wildcards": ["5z", "2m"],
     "seat": 0, "dealer": 0, "self_draw": True},
    {"variant": "sichuan", "hand": "456s 11s 33s", "void": "m", "seat": 2, "dealer": 1,
     "self_draw": True, "rules": {"cap_fan": 6},
     "melds": [{"type": "peng", "tile": "9p"}, {"type": "gang", "kind": "exposed", "tile": "2p"}]},
    {"variant": "sichuan", "hand": "11m 22m 55m 77m 33p 66p 9p", "void": "s", "seat": 1,
     "dealer": 1, "self_draw": True},
]


@pytest.mark.parametrize("data", ROUND_TRIPS, ids=lambda d: f"{d['variant']}-{d['hand']}")
def test_it_round_trips_a_position_through_position_json(data: dict[str, Any]) -> None:
    position = read_position(data)
    back = read_position(json.loads(json.dumps(position_json(position))))
    assert Counter(back.hand) == Counter(position.hand)
    assert back.melds == position.melds
    for name in ("variant", "wildcards", "seat", "dealer", "void", "flowers", "bank",
                 "dealer_streak", "rules"):
        assert getattr(back, name) == getattr(position, name), name
    if position.variant.name == "jiaxing":
        assert back.round_wind == position.round_wind
    assert solve(back).to_json() == solve(position).to_json()


def test_it_caps_seen_tiles_at_the_copies_in_play_c_1() -> None:
    """C-1/PT-2: ``seen`` never pushes a kind past its copies: the hand's own 55s leave
    room for two more 5s, and its 9s (a gold: 3 in play and one turned up, which ``seen``
    may list) for three more 9s."""
    position = read_position({**PUTIAN, "hand": PUTIAN_HAND})
    seen = parse_tiles("5555s 9999s 1m")
    data = position_json(position, seen=seen)
    assert Counter(parse_tiles(data["seen"])) == Counter(parse_tiles("55s 999s 1m"))
    back = read_position(data)
    remaining = {str(w.tile): w.remaining for w in solve(back).waits}
    assert remaining["5s"] == 0 and remaining["9s"] == 0 and remaining["1p"] == 3


# ---------------------------------------------------------------------------
# JX-11: the rank ladder

TITLES = ("待业 临时工 合同工 正式工 助理主管 副主管 主管 助理经理 副经理 经理 助理总裁 副总裁 "
          "总裁 董事 副董事长 董事长 赌王 赌圣 赌神 边锋首富 中国首富 亚洲首富 世界首富 财神").split()
GRADES = ("麻袋 街头一段 街头二段 街头三段 街头霸王 茶室一段 茶室二段 茶室三段 茶室不败 酒店一段 "
          "酒店二段 酒店三段 酒店至尊 县级大师 市级大师 省级大师 国家大师 国际大师 特级大师 "
          "麻将部长 麻将总理 麻将总统 麻将皇帝 麻将无敌").split()


def test_it_has_the_24_levels_of_the_jx_11_ladder() -> None:
    """JX-11 (seeds/001): titles 待业 … 财神, grades 麻袋 … 麻将无敌, next level at 100,
    200, 400, … 838860800 points."""
    assert len(LADDER) == 24 == len(TITLES) == len(GRADES)
    assert [level.number for level in LADDER] == list(range(1, 25))
    assert [level.title for level in LADDER] == TITLES
    assert [level.grade for level in LADDER] == GRADES
    thresholds = [level.next_at for level in LADDER]
    assert thresholds[:4] == [100, 200, 400, 800] and thresholds[-1] == 838860800
    assert all(b == 2 * a for a, b in zip(thresholds, thresholds[1:], strict=False))
    assert all(level.title_en for level in LADDER)


@pytest.mark.parametrize(("points", "level", "to_next"), [
    (0, 1, 100), (99, 1, 1), (100, 2, 100), (199, 2, 1), (200, 3, 200), (250, 3, 150),
    (419430399, 23, 1), (419430400, 24, None), (838860800, 24, None),
    (10**15, 24, None),
])
def test_it_places_points_on_the_jx_11_ladder(points: int, level: int,
                                             to_next: int | None) -> None:
    where = standing(points)
    assert (where.level.number, where.to_next, where.points) == (level, to_next, points)
    assert where.level.title == TITLES[level - 1] and where.level.grade == GRADES[level - 1]


# ---------------------------------------------------------------------------


def test_it_passes_the_module_doctests() -> None:
    result = doctest.testmod(games.training.puzzles)
    assert result.attempted >= 8 and result.failed == 0, result


def test_it_takes_any_text_as_a_seed() -> None:
    """A seed typed in a form may hold a lone surrogate; it still makes a puzzle."""
    assert generate("sichuan", 1, "\ud800") == generate("sichuan", 1, "\ud800")
    assert generate("sichuan", 1, "\ud800") != generate("sichuan", 1, "\ud801")
