"""Decision annotation (games/analysis/annotation.py, docs/analysis.md, ``python -m games analyze``).

- Hand-built positions, one per variant with and without wildcards, where the best
  discard is known and its shanten, accepted tiles (unseen copies) and scored waits
  are worked out by hand from RULES.md: JX-5.3/JX-6 (Jiaxing waits need a pattern),
  PT-2/PT-5.5/PT-6/PT-7.2 (golds, robbing the gold, flower points), SC-2/SC-5
  (the void suit goes first, fan and points).
- Counterfactuals on the real wall, computed by hand (PT-6: a white gold counts 2).
- Properties over bot matches: the actual choice is among the alternatives, ranks
  follow the documented ordering key, waits only when ready, remaining copies
  within bounds and agreeing with the variant's own ``waits``, claim decisions
  have a pass, counterfactuals exactly when the document has a wall, the mistake
  flag follows its rule, every decision point is annotated once.
- The ``analyze`` command: JSON with ``hands[*].decisions``; an invalid log exits 1
  naming the hand, the event and the rule.
"""

from __future__ import annotations

import dataclasses
import io
import json
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from games.analysis.annotation import (
    Decision,
    HandAnalysis,
    Outcome,
    analyze_hand,
    analyze_json,
    analyze_match,
)
from games.bots.simulation import simulate
from games.commands.cli import main
from games.core.table import Phase, Table
from games.core.tiles import TILES, Tile
from games.records.log import Event, Match, dumps, read_log, write_log
from games.records.match import Replayer, replay
from tests.conftest import ROOT
from tests.logbuild import (
    SC_NOT_READY_0,
    SC_NOT_READY_2,
    SC_NOT_READY_3,
    SC_WAIT_1,
    HandBuilder,
    jx_contract,
    sc_discard_5p,
    single,
)

VARIANTS = ("jiaxing", "putian", "sichuan")
SEEDS = (1, 2, 3)
TURN_KINDS = ("turn", "claim", "rob_kong")


# -- helpers ---------------------------------------------------------------------------


def analyzed(hand: HandBuilder) -> tuple[Match, HandAnalysis]:
    match = read_log(single(hand))
    replay(match)  # the document is valid: the analysis is only defined for valid logs
    return match, analyze_match(match)[0]


def decision_at(analysis: HandAnalysis, index: int, seat: int, kind: str = "turn") -> Decision:
    found = [d for d in analysis.decisions
             if d.event_index == index and d.seat == seat and d.kind == kind]
    assert len(found) == 1, (index, seat, kind, analysis.decisions)
    return found[0]


def discard_of(decision: Decision, tile: str) -> Outcome:
    found = [o for o in decision.alternatives
             if o.event.type == "discard" and o.event.tile == Tile.parse(tile)]
    assert len(found) == 1, (tile, [o.event for o in decision.alternatives])
    return found[0]


def accepted(outcome: Outcome) -> list[tuple[str, int]]:
    return [(str(t), n) for t, n in outcome.accepted]


def waits(outcome: Outcome) -> list[tuple[str, int, int]]:
    return [(str(t), n, s.points) for t, n, s in outcome.waits]


def actual(decision: Decision) -> Outcome:
    assert decision.actual_index is not None
    return decision.alternatives[decision.actual_index]


def clearly_worse(chosen: Outcome, best: Outcome) -> bool:
    """The mistake rule of docs/analysis.md, written from the text."""
    if best.win is not None:
        return chosen.win is None  # a win was there and not taken
    if chosen.win is not None or chosen.shanten is None or best.shanten is None:
        return False
    if chosen.shanten != best.shanten:
        return chosen.shanten > best.shanten
    fewer = best.accepted_count - chosen.accepted_count
    return fewer >= 4 and 3 * chosen.accepted_count < 2 * best.accepted_count


# -- 1. hand-built positions where the best discard is known ----------------------------
#
# Each scenario: the hand, the seat deciding, the event number of its decision, the
# best discard, a clearly bad discard, and what the best discard leaves (by hand).


def jx_plain(discard: str, wall: bool = True) -> HandBuilder:
    """JX-5.3/JX-6, no wildcard held (wildcard 9s, indicator 8s). The dealer holds
    111m 555p 777s 22z 33z + an isolated 6z. Without 6z: ready on 2z, 3z (对对和 2 +
    无百搭 1 = 3 tai → 3 points) and on the wildcard 9s (a pung of 2z or 3z; 对对和
    2 tai → 2 points). Unseen: 2z, 3z 4 − 2 held = 2; 9s 4 (only 8s is turned up).
    Any other discard leaves two singles or a broken pung: 1 shanten."""
    hand = HandBuilder("jiaxing", ["111m555p777s22z33z6z", "", "", ""], wall=wall)
    return hand.discard(0, discard).end("abandoned")


def jx_wild(discard: str, wall: bool = True) -> HandBuilder:
    """JX-4/JX-5.3 with a wildcard (9s) held: 111m 555p 77s 9s 22z 33z + 6z. Without
    6z the wildcard joins 77s, 22z or 33z: ready on 7s, 2z, 3z and 9s, each a 对对和
    with a wildcard (2 tai, no 无百搭 → 2 points). Unseen: 7s 2, 9s 4 − 1 = 3, 2z 2,
    3z 2. Discarding 1m breaks a pung: 1 shanten."""
    hand = HandBuilder("jiaxing", ["111m555p77s9s22z33z6z", "", "", ""], wall=wall)
    return hand.discard(0, discard).end("abandoned")


def pt_plain(discard: str, wall: bool = True) -> HandBuilder:
    """PT-5.1, no gold held (golds 9p, 9s). Ben (seat 1) holds 111m 444m 777m 222p 55p
    34s and draws 8p. Without 8p: ready on 2s, 5s (no flower points: (1 + 0) × 2 = 2,
    PT-7.2) and on either gold (one gold: (1 + 1) × 2 = 4). Unseen: 2s, 5s 4; golds 3
    each (one of each kind is turned up, PT-2). The dealer's opening discard is 1m.
    (Ben decides, not the dealer: a ready dealer at the opening may rob a gold, PT-5.5,
    and that win outranks every discard — see the test below.)"""
    hand = HandBuilder("putian", ["1m", "111m444m777m222p55p34s", "", ""], front="8p",
                       pad="mps", wall=wall)
    return hand.discard(0, "1m").draw(1).discard(1, discard).end("abandoned")


def pt_gold(discard: str, wall: bool = True) -> HandBuilder:
    """PT-2/PT-6 with a gold held: Ben holds 111m 444m 777m 22p 9s 55p 34s, draws 8p.
    Without 8p: 22p+gold and 55p, or 22p and 55p+gold, with 34s: ready on 2p, 5p, 2s,
    5s (one gold: 4 points) and on a gold (two golds: (1 + 2) × 2 = 6). Unseen: 2p, 5p
    4 − 2 = 2; 2s, 5s 4; 9p 3; 9s 3 − 1 = 2. Discarding 5p: 1 shanten."""
    hand = HandBuilder("putian", ["1m", "111m444m777m22p9s55p34s", "", ""], front="8p",
                       pad="mps", wall=wall)
    return hand.discard(0, "1m").draw(1).discard(1, discard).end("abandoned")


def sc_plain(discard: str, wall: bool = True) -> HandBuilder:
    """SC-4/SC-5, void s, no s held: 111m 234m 567p 789p 5p + an isolated 9m. Without
    9m: ready on 5p and 8p, 平胡 1 + 自摸 1 = 2 fan → 2 points each. Unseen: 5p 4 − 2,
    8p 4 − 1. (Without 5p it waits on 9m alone: same shanten, fewer tiles.) Discarding
    1m: 1 shanten."""
    hand = HandBuilder("sichuan", ["111m234m567p789p5p9m", "", "", ""], pad="mp", wall=wall)
    return hand.dingques("ssss").discard(0, discard).end("abandoned")


def sc_void(discard: str, wall: bool = True) -> HandBuilder:
    """SC-2: the dealer names s void and holds one s tile (1s) beside the ready
    111m 234m 567p 789p 5p: 1s is the only legal discard, and it leaves the hand
    ready on 5p and 8p (2 points each)."""
    hand = HandBuilder("sichuan", ["111m234m567p789p5p1s", "", "", ""], pad="mp", wall=wall)
    return hand.dingques("ssss").discard(0, discard).end("abandoned")


SCENARIOS: dict[str, dict[str, Any]] = {
    "jx-no-wildcard": dict(build=jx_plain, seat=0, index=1, best="6z", bad="1m",
                           accepted=[("9s", 4), ("2z", 2), ("3z", 2)],
                           waits=[("9s", 4, 2), ("2z", 2, 3), ("3z", 2, 3)]),
    "jx-wildcard": dict(build=jx_wild, seat=0, index=1, best="6z", bad="1m",
                        accepted=[("7s", 2), ("9s", 3), ("2z", 2), ("3z", 2)],
                        waits=[("7s", 2, 2), ("9s", 3, 2), ("2z", 2, 2), ("3z", 2, 2)]),
    "pt-no-gold": dict(build=pt_plain, seat=1, index=3, best="8p", bad="4m",
                       accepted=[("9p", 3), ("2s", 4), ("5s", 4), ("9s", 3)],
                       waits=[("9p", 3, 4), ("2s", 4, 2), ("5s", 4, 2), ("9s", 3, 4)]),
    "pt-gold": dict(build=pt_gold, seat=1, index=3, best="8p", bad="5p",
                    accepted=[("2p", 2), ("5p", 2), ("9p", 3), ("2s", 4), ("5s", 4),
                              ("9s", 2)],
                    waits=[("2p", 2, 4), ("5p", 2, 4), ("9p", 3, 6), ("2s", 4, 4),
                           ("5s", 4, 4), ("9s", 2, 6)]),
    "sc-no-void-tile": dict(build=sc_plain, seat=0, index=5, best="9m", bad="1m",
                            accepted=[("5p", 2), ("8p", 3)],
                            waits=[("5p", 2, 2), ("8p", 3, 2)]),
    "sc-void-tile": dict(build=sc_void, seat=0, index=5, best="1s", bad=None,
                         accepted=[("5p", 2), ("8p", 3)],
                         waits=[("5p", 2, 2), ("8p", 3, 2)]),
}


@pytest.mark.parametrize("wall", [True, False], ids=["wall", "no-wall"])
@pytest.mark.parametrize("name", list(SCENARIOS))
def test_it_ranks_the_known_best_discard_first(name: str, wall: bool) -> None:
    """JX-5.3, PT-5.1, SC-2/SC-4: the best discard (worked out by hand) has rank 1, with
    its shanten, unseen accepted tiles and scored waits; played, it is no mistake."""
    case = SCENARIOS[name]
    _, analysis = analyzed(case["build"](case["best"], wall))
    decision = decision_at(analysis, case["index"], case["seat"])
    best = discard_of(decision, case["best"])
    assert actual(decision) is best
    assert best.rank == 1 and not decision.mistake
    assert (best.shanten, accepted(best), waits(best)) == (0, case["accepted"], case["waits"])
    assert all(score.win for _, _, score in best.waits)
    # Only the best discard (or, in Putian, declaring ready before it) shares rank 1.
    firsts = {(o.event.type, str(o.event.tile)) for o in decision.alternatives if o.rank == 1}
    assert firsts <= {("discard", case["best"]), ("ready", "None")}
    others = [o for o in decision.alternatives if o.event.type == "discard" and o is not best]
    assert all(o.rank > 1 for o in others)
    # No later draws of the player in the log: a counterfactual of zero draws, on the wall.
    assert best.counterfactual == ({"win": False, "draws": 0} if wall else None)


@pytest.mark.parametrize("name", [n for n, c in SCENARIOS.items() if c["bad"]])
def test_it_flags_a_clearly_worse_discard_as_a_mistake(name: str) -> None:
    """docs/analysis.md: a choice leaving more shanten than the best is a mistake."""
    case = SCENARIOS[name]
    _, analysis = analyzed(case["build"](case["bad"]))
    decision = decision_at(analysis, case["index"], case["seat"])
    chosen, best = actual(decision), discard_of(decision, case["best"])
    assert chosen is discard_of(decision, case["bad"])
    assert (chosen.shanten, best.shanten) == (1, 0)
    assert chosen.rank > best.rank == 1
    assert decision.mistake
    assert chosen.waits == []


def test_it_offers_only_the_void_suit_tile_sc_2() -> None:
    """SC-2: holding one tile of the void suit, it is the only legal discard; the 定缺
    decision ranks the suit with fewest tiles (s: 1) first."""
    _, analysis = analyzed(sc_void("1s"))
    decision = decision_at(analysis, 5, 0)
    assert [(o.event.type, str(o.event.tile)) for o in decision.alternatives] == [
        ("discard", "1s")]
    assert decision.actual_index == 0 and not decision.mistake
    dingque = decision_at(analysis, 1, 0, "dingque")
    assert {o.event.suit: o.rank for o in dingque.alternatives} == {"s": 1, "m": 2, "p": 3}
    assert actual(dingque).event.suit == "s" and not dingque.mistake


def test_it_same_shanten_with_fewer_tiles_is_no_mistake_below_the_gap_sc_4() -> None:
    """Keeping 9m and throwing 5p waits on 9m alone (3 unseen) against 5 for the best:
    rank 2, but fewer than four tiles fewer, so no mistake."""
    _, analysis = analyzed(sc_plain("5p"))
    decision = decision_at(analysis, 5, 0)
    chosen = actual(decision)
    assert chosen is discard_of(decision, "5p")
    assert (chosen.shanten, accepted(chosen), waits(chosen)) == (0, [("9m", 3)],
                                                                [("9m", 3, 2)])
    assert chosen.rank == 2 and not decision.mistake


def test_it_ranks_robbing_the_gold_above_every_discard_pt_5_5() -> None:
    """PT-5.5: a dealer whose hand is ready after setting one tile aside may rob a gold
    at once ((1 + 1 gold) × 2 = 4 points): that win ranks first, the best discard (8p)
    next, and discarding instead is a mistake (a win not taken)."""
    hand = HandBuilder("putian", ["111m444m777m222p55p34s8p", "", "", ""], pad="mps")
    _, analysis = analyzed(hand.discard(0, "8p").end("abandoned"))
    decision = decision_at(analysis, 1, 0)
    robs = [o for o in decision.alternatives if o.event.how == "rob_gold"]
    assert robs and all(o.rank == 1 and o.win is not None and o.win.points == 4 for o in robs)
    best = discard_of(decision, "8p")
    assert best.rank == 2 and (best.shanten, waits(best)) == (
        0, [("9p", 3, 4), ("2s", 4, 2), ("5s", 4, 2), ("9s", 3, 4)])
    assert min(o.rank for o in decision.alternatives if o.event.type == "discard") == 2
    assert actual(decision) is best and decision.mistake


def test_it_values_a_win_now_as_the_table_settles_it_jx_7_6() -> None:
    """JX-7.6 海底捞月: Cal (111p 222p 333p 444p 5p) draws the wall's last tile, 5p, and
    wins: 清一色 4 + 对对和 2 + 无百搭 1 = 7 tai, 1 fan → 14, as the table settles it.
    The win-now alternative must carry that value, not the 7 of an ordinary draw."""
    hand = HandBuilder("jiaxing", ["", "", "111p222p333p444p5p", ""], back="5p", pad="ms")
    hand.discard(0, hand.deal[0][0]).cycle(1, 81)
    assert (hand.left, hand.peek()) == (1, "5p")
    match, analysis = analyzed(hand.draw(2).hu(2).end("win"))
    settled = replay(match).hands[0].wins[0].score
    assert settled.points == 14 and "JX-7.6" in [h.pattern.id for h in settled.patterns]
    decision = decision_at(analysis, len(hand.events) - 1, 2)
    won = actual(decision)
    assert won.event.type == "hu" and won.rank == 1 and won.win is not None
    assert won.win.points == 14, [h.pattern.id for h in won.win.patterns]


def test_it_counts_tiles_shown_by_a_sichuan_winner_as_seen_sc_3_2() -> None:
    """SC-3.2: Ben wins on Ann's 5p and leaves the hand, his tiles shown: 111m 234m
    567p 789p 5p 5p — three 5p with the one in 567p. Cal (ready on 5p alone) then draws
    1s, his void, and throws it: he has seen all three of Ben's 5p, so 4 − 3 = 1 copy
    remains."""
    hand = sc_discard_5p(front="1s")
    _, analysis = analyzed(hand.ron(1).draw(2).discard(2, "1s").end("abandoned"))
    decision = decision_at(analysis, 8, 2)
    assert accepted(discard_of(decision, "1s")) == [("5p", 1)]


# -- counterfactuals on the real wall, by hand -------------------------------------------


def test_it_counterfactual_wins_on_the_next_draw_like_the_log_jx_6() -> None:
    """Jiaxing: the dealer throws 6z, the others throw what they draw, the dealer draws
    2z and wins: 111m 555p 777s 222z 33z = 对对和 2 + 无百搭 1 = 3 points. Throwing 1m
    instead, 2z doesn't complete 11m 555p 777s 222z 33z 6z: no win in the one draw."""
    hand = HandBuilder("jiaxing", ["111m555p777s22z33z6z", "", "", ""], front="1s2s3s2z",
                       pad="mp")
    hand.discard(0, "6z").cycle(1, 3).draw(0).hu(0).end("win")
    match, analysis = analyzed(hand)
    assert replay(match).hands[0].wins[0].score.points == 3
    decision = decision_at(analysis, 1, 0)
    assert discard_of(decision, "6z").counterfactual == {"win": True, "draw": 1,
                                                         "tile": "2z", "points": 3}
    assert discard_of(decision, "1m").counterfactual == {"win": False, "draws": 1}


def test_it_counterfactual_keeps_drawing_until_the_win_sc_5() -> None:
    """Sichuan: after throwing 9m the dealer draws 1p (no use: thrown back), then 8p:
    111m 234m 55p 678p 789p = 平胡 1 + 自摸 1 → 2 points at the second draw. Waiting
    on 9m alone (throwing 5p) neither draw wins."""
    hand = HandBuilder("sichuan", ["111m234m567p789p5p9m", "", "", ""],
                       front="1s2s3s1p4s5s6s8p", pad="mp")
    hand.dingques("ssss").discard(0, "9m").cycle(1, 3).draw(0).discard(0)
    hand.cycle(1, 3).draw(0).hu(0).end("abandoned")  # the others would play on (SC-3.2)
    match, analysis = analyzed(hand)
    assert replay(match).hands[0].wins[0].score.points == 2
    decision = decision_at(analysis, 5, 0)
    assert discard_of(decision, "9m").counterfactual == {"win": True, "draw": 2,
                                                         "tile": "8p", "points": 2}
    assert discard_of(decision, "5p").counterfactual == {"win": False, "draws": 2}


def test_it_counterfactual_scores_a_drawn_gold_of_the_other_kind_pt_2() -> None:
    """PT-2/PT-6: Ben throws 8p and his next draw is a gold of the second kind (9s, golds
    9p and 9s): with two golds he wins for (1 + 2) × 2 = 6, as the log's own win says."""
    hand = HandBuilder("putian", ["1m", "111m444m777m22p9s55p34s", "", ""],
                       front="8p1s1s1s9s", pad="mps")
    hand.discard(0, "1m").draw(1).discard(1, "8p").cycle(2, 3).draw(1).hu(1).end("win")
    match, analysis = analyzed(hand)
    assert replay(match).hands[0].wins[0].score.points == 6
    decision = decision_at(analysis, 3, 1)
    assert discard_of(decision, "8p").counterfactual == {"win": True, "draw": 1,
                                                         "tile": "9s", "points": 6}
    assert discard_of(decision, "5p").counterfactual == {"win": False, "draws": 1}


def test_it_counterfactual_counts_a_white_gold_twice_pt_6() -> None:
    """PT-6: golds 9p and white; Ben holds a white gold and wins on his next draw 2s:
    a white that is gold counts 2 flower points → (1 + 2) × 2 = 6, in the log and in
    the counterfactual alike."""
    hand = HandBuilder("putian", ["1m", "111m444m777m22p5z55p34s", "", ""],
                       wildcards=["9p", "5z"], front="8p1s1s1s2s", pad="mps")
    hand.discard(0, "1m").draw(1).discard(1, "8p").cycle(2, 3).draw(1).hu(1).end("win")
    match, analysis = analyzed(hand)
    assert replay(match).hands[0].wins[0].score.points == 6
    decision = decision_at(analysis, 3, 1)
    best = discard_of(decision, "8p")
    assert {tile: points for tile, _, points in waits(best)}["2s"] == 6
    assert best.counterfactual == {"win": True, "draw": 1, "tile": "2s", "points": 6}


# -- special decision points -------------------------------------------------------------


def test_it_annotates_contract_answers_jx_9() -> None:
    """JX-9: Cal and Dee each answer the contract: persist or give up, their answer
    being the actual choice."""
    _, analysis = analyzed(jx_contract(("persist", "give_up")).end("abandoned"))
    found = [d for d in analysis.decisions if d.kind == "contract"]
    assert [(d.seat, actual(d).event.choice) for d in found] == [(2, "persist"),
                                                                 (3, "give_up")]
    for decision in found:
        assert sorted(str(o.event.choice) for o in decision.alternatives) == ["give_up",
                                                                               "persist"]
        assert not decision.mistake


def test_it_equal_contract_answers_share_a_rank_jx_9() -> None:
    """docs/analysis.md "Equal keys share a rank": persist and give up carry no win,
    shanten or acceptance, so neither may rank above the other (and the summary's
    "agreed" must not count persisting as agreeing with the engine)."""
    _, analysis = analyzed(jx_contract(("persist", "give_up")).end("abandoned"))
    for decision in (d for d in analysis.decisions if d.kind == "contract"):
        keys = {o.key() for o in decision.alternatives}
        assert len(keys) == 1
        assert [o.rank for o in decision.alternatives] == [1, 1], decision


def test_it_gives_each_winner_of_one_discard_one_decision_sc_3_1() -> None:
    """SC-3.1 一炮多响: Ann's 5p is won by Ben, Cal and Dee. Each had one chance and took
    it: one claim decision each, the win as the actual choice, no mistake."""
    hand = sc_discard_5p()
    _, analysis = analyzed(hand.ron(1).ron(2).ron(3).end("win"))
    claims = [d for d in analysis.decisions if d.kind == "claim"]
    assert sorted(d.seat for d in claims) == [1, 2, 3], [
        (d.event_index, d.seat, actual(d).event.type) for d in claims]
    assert all(actual(d).event.type == "hu" and not d.mistake for d in claims)
    assert all(row["mistakes"] == 0 for row in analysis.summary())


def test_it_annotates_a_chance_on_the_last_discard_sc_3() -> None:
    """SC-3/C-5: the wall's last tile (8p) is drawn and thrown by Dee; Ben (ready on 5p
    and 8p) may win on it but lets the hand end exhausted. That passed chance is a
    claim decision like any other (docs/analysis.md: passed chances are decisions)."""
    hand = HandBuilder("sichuan", [SC_NOT_READY_0, SC_WAIT_1, SC_NOT_READY_2,
                                   SC_NOT_READY_3], back="8p")
    hand.dingques("ssss").discard(0, "2m").cycle(1, 55)
    assert hand.left == 0 and hand.events[-1] == {"type": "discard", "actor": 3, "tile": "8p"}
    match, analysis = analyzed(hand.end("exhausted"))
    last = len(hand.events) - 1  # the final discard's number
    chances = [d for d in analysis.decisions
               if d.seat == 1 and d.kind == "claim" and d.event_index > last]
    assert len(chances) == 1
    assert any(o.event.type == "hu" and str(o.event.tile) == "8p"
               for o in chances[0].alternatives)
    assert actual(chances[0]).event.type == "pass" and chances[0].mistake


def test_it_annotates_a_non_dealer_chance_to_rob_the_gold_pt_5_5() -> None:
    """PT-5.5: Ben's dealt 16 tiles are ready, so at the dealer's opening he may rob a
    gold; he lets the dealer discard. That passed chance to win is his decision."""
    hand = pt_plain("8p")
    match = read_log(single(hand))
    table = Replayer(match).begin(1, match.hands[0])
    assert any(a.seat == 1 and a.event.how == "rob_gold" for a in table.legal_actions())
    analysis = analyze_match(match)[0]
    mine = [d for d in analysis.decisions if d.seat == 1 and d.event_index == 1]
    assert len(mine) == 1
    assert any(o.event.how == "rob_gold" for o in mine[0].alternatives)
    assert actual(mine[0]).win is None and mine[0].mistake


# -- 2. properties over bot matches -------------------------------------------------------


@cache
def bot(variant: str, seed: int, wall: bool = True) -> tuple[Match, tuple[HandAnalysis, ...]]:
    """A 3-hand bot match and its annotation (without walls: the same match, walls dropped)."""
    match = simulate(variant, 3, seed)
    if not wall:
        match = dataclasses.replace(match, hands=tuple(
            dataclasses.replace(h, wall=None) for h in match.hands))
        replay(match)  # still valid
    return match, tuple(analyze_match(match))


def bot_decisions(variant: str, wall: bool = True,
                  seeds: tuple[int, ...] = SEEDS) -> Iterator[tuple[Any, ...]]:
    """(seed, hand number, the hand, its analysis, decision) over the seeds."""
    for seed in seeds:
        match, analyses = bot(variant, seed, wall)
        for number, (hand, analysis) in enumerate(zip(match.hands, analyses, strict=True), 1):
            assert analysis.number == number
            for decision in analysis.decisions:
                yield seed, number, hand, analysis, decision


def same_choice(option: Event, event: Event) -> bool:
    return (option.type, option.actor, option.tile, option.target, option.kind, option.how,
            option.suit, option.choice, sorted(option.tiles)) == (
        event.type, event.actor, event.tile, event.target, event.kind, event.how,
        event.suit, event.choice, sorted(event.tiles))


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_finds_the_actual_choice_among_the_alternatives(variant: str) -> None:
    """Every decision names its actual choice: the logged event itself, or pass for a
    seat whose chance went by (the logged event being someone else's)."""
    for seed, number, hand, _, decision in bot_decisions(variant):
        where = (seed, number, decision.event_index, decision.seat, decision.kind)
        event = hand.events[decision.event_index - 1]
        assert decision.actual_index is not None, where
        chosen = actual(decision)
        if decision.kind in ("claim", "rob_kong") and not (
                event.actor == decision.seat and event.type != "draw"):
            assert chosen.event.type == "pass", (where, event, chosen.event)
        else:
            assert same_choice(chosen.event, event), (where, event, chosen.event)


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_ranks_by_the_documented_ordering_key(variant: str) -> None:
    """docs/analysis.md: ranks start at 1, equal keys share a rank, a smaller key (win now,
    then fewer shanten, more accepted tiles, the best wait's value) a better one.
    Contract answers are checked by their own test."""
    for seed, number, _, _, decision in bot_decisions(variant):
        if decision.kind == "contract":
            continue
        where = (seed, number, decision.event_index, decision.seat, decision.kind)
        options = decision.alternatives
        ranks = sorted({o.rank for o in options})
        assert ranks == list(range(1, len(ranks) + 1)), where
        for a in options:
            for b in options:
                assert (a.key() < b.key()) == (a.rank < b.rank), (where, a.event, b.event)
        assert min(options, key=Outcome.key).rank == 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_lists_waits_only_for_ready_hands_with_winning_scores(variant: str) -> None:
    """Waits only at shanten 0, each a tile that is also accepted and whose score wins;
    remaining copies between 0 and 4 (their exact values: the test against
    ``Variant.waits_of`` below)."""
    for seed, number, _, _, decision in bot_decisions(variant):
        where = (seed, number, decision.event_index, decision.seat, decision.kind)
        for option in decision.alternatives:
            if option.waits:
                assert option.shanten == 0, (where, option.event)
            for tile, left, score in option.waits:
                assert score.win and score.points > 0, (where, option.event, tile)
                assert (tile, left) in option.accepted, (where, option.event, tile)
            for tile, left in option.accepted:
                assert 0 <= left <= 4, (where, option.event, tile, left)
            if option.win is not None:
                assert option.win.win and option.win.points > 0
                assert option.event.type == "hu"


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_values_the_wins_taken_as_the_table_settled_them(variant: str) -> None:
    """A win-now alternative that was the actual choice carries the score the table
    settled for that win (JX-6/7, PT-6/7, SC-5)."""
    checked = 0
    for seed in SEEDS:
        match, analyses = bot(variant, seed)
        for hand, analysis, result in zip(match.hands, analyses, replay(match).hands,
                                          strict=True):
            hus = [i for i, e in enumerate(hand.events, 1) if e.type == "hu"]
            for decision in analysis.decisions:
                chosen = actual(decision)
                if chosen.event.type != "hu" or decision.event_index not in hus:
                    continue
                settled = result.wins[hus.index(decision.event_index)]
                assert settled.seat == decision.seat
                assert chosen.win is not None and chosen.win.points == settled.score.points, (
                    seed, analysis.number, decision.event_index)
                checked += 1
    assert checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_always_offers_pass_on_a_claim(variant: str) -> None:
    """Claims and robbed kongs: exactly one pass, besides at least one real claim."""
    count = 0
    for seed, number, _, _, decision in bot_decisions(variant):
        if decision.kind not in ("claim", "rob_kong"):
            continue
        count += 1
        types = [o.event.type for o in decision.alternatives]
        assert types.count("pass") == 1, (seed, number, decision.event_index, types)
        assert len(types) >= 2 and all(
            o.event.actor == decision.seat for o in decision.alternatives)
    assert count or variant == "putian"


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_follows_the_mistake_rule(variant: str) -> None:
    """The mistake flag is exactly the rule of docs/analysis.md applied to the actual
    choice and the best alternative."""
    flagged = 0
    for seed, number, _, _, decision in bot_decisions(variant):
        if len(decision.alternatives) < 2 or decision.kind == "contract":
            continue
        best = min(decision.alternatives, key=Outcome.key)
        expected = clearly_worse(actual(decision), best)
        assert decision.mistake == expected, (seed, number, decision.event_index,
                                              decision.seat, decision.kind)
        flagged += decision.mistake
        assert not (decision.mistake and actual(decision).rank == 1)
    assert flagged  # the bots are not perfect: some choices are flagged


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_gives_counterfactuals_to_discards_and_passes_exactly_with_a_wall(
        variant: str) -> None:
    """Discards and passes carry a counterfactual when the document has the wall and
    none without it; wins and the other alternatives never carry one without it."""
    for wall in (True, False):
        for seed, number, hand, _, decision in bot_decisions(variant, wall, SEEDS[:1]):
            assert (hand.wall is not None) == wall
            for option in decision.alternatives:
                if option.event.type in ("discard", "pass"):
                    assert (option.counterfactual is not None) == wall, (
                        seed, number, decision.event_index, option.event)
                    if wall:
                        assert option.counterfactual is not None
                        assert set(option.counterfactual) in (
                            {"win", "draws"}, {"win", "draw", "tile", "points"})
                elif not wall or option.win is not None:
                    assert option.counterfactual is None


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_gives_every_played_alternative_a_counterfactual_with_a_wall(variant: str) -> None:
    """docs/analysis.md: "the counterfactual, when the log carries the wall: play this
    alternative, then keep drawing" — for claims, kongs, ready and flowers too, not
    only discards and passes (a win now needs none)."""
    missing: list[tuple[Any, ...]] = []
    for seed, number, _, _, decision in bot_decisions(variant):
        if decision.kind not in TURN_KINDS:
            continue
        for option in decision.alternatives:
            if option.win is None and option.counterfactual is None:
                missing.append((seed, number, decision.event_index, option.event.type))
    assert not missing, f"{len(missing)} without one, e.g. {missing[:3]}"


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_dropping_the_wall_changes_only_counterfactuals(variant: str) -> None:
    """The wall is the counterfactual's only input: without it every other field of
    the annotation is the same."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k != "counterfactual"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    for seed in SEEDS[:1]:
        with_wall = [h.to_json() for h in bot(variant, seed)[1]]
        without = [h.to_json() for h in bot(variant, seed, False)[1]]
        assert strip(with_wall) == strip(without)


def replayed_tables(match: Match) -> Iterator[tuple[int, int, Table, Event]]:
    """Like ``tables_before_events``, but the ``end`` event too: a chance on the last
    discard is a decision point as well."""
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        for index, event in enumerate(hand.events, start=1):
            yield number, index, table, event
            if event.type == "end":
                break
            table.apply(event)
        replayer.play(number, hand)


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_annotates_every_decision_point_once(variant: str) -> None:
    """Every event on one's turn is one turn decision; every seat with a legal claim on
    the discard (or added kong) on the table gets one decision for that chance;
    every 换三张, 定缺 and contract answer is one decision; a turn whose only action is
    decided for a locked hand is none."""
    for seed in SEEDS:
        match, analyses = bot(variant, seed)
        got: dict[tuple[int, int, int, str], int] = {}
        for analysis in analyses:
            for d in analysis.decisions:
                key = (analysis.number, d.event_index, d.seat, d.kind)
                got[key] = got.get(key, 0) + 1
        want: dict[tuple[int, int, int, str], int] = {}
        chance: set[tuple[int, int]] = set()  # (hand, seat) that had this chance already
        for number, index, table, event in replayed_tables(match):
            if table.phase is Phase.TURN and (event.actor == table.turn or event.how == "rob_gold"):
                decided = (event.actor == table.turn and table.hand_locked(table.turn)
                           and len([a for a in table.legal_actions()
                                    if a.seat == table.turn]) == 1)
                if not decided:  # a locked hand's only discard is no choice (PT-5.3, SC-H2)
                    want[(number, index, event.actor or 0, "turn")] = 1
                chance.clear()
            elif table.phase in (Phase.DISCARDED, Phase.ROBBABLE):
                kind = "rob_kong" if table.phase is Phase.ROBBABLE else "claim"
                for seat in sorted({a.seat for a in table.legal_actions()
                                    if a.note != "pass" and a.event.type not in
                                    ("draw", "end")}):
                    if (number, seat) in chance:
                        continue  # one decision per seat and chance
                    chance.add((number, seat))
                    want[(number, index, seat, kind)] = 1
            elif event.type in ("dingque", "contract", "exchange"):
                want[(number, index, event.actor or 0, event.type)] = 1
        assert got == want, (seed, set(got.items()) ^ set(want.items()))


def seat_view(table: Table, seat: int, also: Tile | None) -> list[Tile]:
    """What the seat sees besides its own hand and melds (docs/analysis.md): every
    exposed meld, every river tile not claimed, laid-out whites, the indicator, and
    (SC-3.2) the shown tiles of a Sichuan player who has won."""
    seen: list[Tile] = [also] if also is not None else []
    for other, state in enumerate(table.seats):
        if other != seat:
            seen.extend(t for m in state.melds if not m.is_concealed for t in m.tiles)
            if state.won:
                seen.extend(state.tiles())
        seen.extend(t for t, claimed in state.river if not claimed)
        seen.extend([TILES[31]] * state.flowers)
    if table.setup.indicator is not None:
        seen.append(table.setup.indicator)
    return seen


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_agrees_with_the_variants_own_waits(variant: str) -> None:
    """C-4/PT-2/SC-2: for every discard and pass, shanten, accepted tiles with their
    unseen copies, and waits with their points are what ``Variant.waits_of`` says for
    the hand left, seen from that seat."""
    match, analyses = bot(variant, 1)
    decisions = {(a.number, d.event_index, d.seat): d for a in analyses
                 for d in a.decisions if d.kind in TURN_KINDS}
    checked = 0
    for number, index, table, _ in replayed_tables(match):
        for seat in range(4):
            decision = decisions.get((number, index, seat))
            if decision is None:
                continue
            base = table.seat_position(seat, self_draw=True)
            for option in decision.alternatives:
                if option.event.type not in ("discard", "pass"):
                    continue
                rest = table.seats[seat].tiles()
                if option.event.type == "discard":
                    assert option.event.tile is not None
                    rest.remove(option.event.tile)
                position = dataclasses.replace(
                    base.with_hand(tuple(rest), None),
                    seen=tuple(seat_view(table, seat, option.event.tile)))
                want = table.variant.waits_of(position, rest)
                where = (number, index, seat, option.event)
                assert option.shanten == want.shanten, where
                assert accepted(option) == [(str(a.tile), a.remaining)
                                            for a in want.accepted], where
                if option.shanten == 0:
                    assert waits(option) == [(str(w.tile), w.remaining, w.score.points)
                                             for w in want.waits], where
                else:  # waits_of also lists a PT-5.6 bomb one gold away; the analysis
                    assert option.waits == []  # lists waits of ready hands only
                checked += 1
    assert checked > 50


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_counterfactual_matches_a_win_on_the_next_draw(variant: str) -> None:
    """When the log's own next draw of the player wins at once (not the last tile, not
    a first-turn hand), the counterfactual of the actual choice says the same: a win at
    draw 1 on that tile for the points the table settled."""
    checked = 0
    for seed in (*SEEDS, 6, 7, 8):  # Putian self-draws are rarer: enough of them
        match, analyses = bot(variant, seed)
        wins = {number: list(result.wins) for number, result in
                enumerate(replay(match).hands, 1)}
        hu_tables = {(n, i): t for n, i, t, e in replayed_tables(match) if e.type == "hu"
                     and (t.tiles_left == 0 or t.first_turn(e.actor or 0))}
        for hand, analysis in zip(match.hands, analyses, strict=True):
            events = hand.events
            hus = [i for i, e in enumerate(events, 1) if e.type == "hu"]
            for decision in analysis.decisions:
                chosen = actual(decision)
                if chosen.event.type not in ("discard", "pass"):
                    continue
                later = [(i, e) for i, e in enumerate(events, 1)
                         if i > decision.event_index and e.actor == decision.seat]
                if len(later) < 2:
                    continue
                (i1, draw), (i2, win) = later[0], later[1]
                if not (draw.type == "draw" and draw.source == "front" and i2 == i1 + 1
                        and win.type == "hu" and win.target is None and win.how is None
                        and win.tile == draw.tile
                        and (analysis.number, i2) not in hu_tables):
                    continue
                settled = wins[analysis.number][hus.index(i2)]
                assert settled.seat == decision.seat
                assert chosen.counterfactual == {
                    "win": True, "draw": 1, "tile": str(draw.tile),
                    "points": settled.score.points}, (seed, analysis.number,
                                                      decision.event_index)
                checked += 1
    assert checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_writes_json_that_agrees_with_the_decisions(variant: str) -> None:
    """analyze_json: serialisable; each decision's actual rank and each alternative's
    accepted count agree with the data; the summary counts a seat's real decisions."""
    match, analyses = bot(variant, 2)
    out = json.loads(json.dumps(analyze_json(match), ensure_ascii=False))
    assert out["variant"] == variant and len(out["hands"]) == len(match.hands)
    for hand, analysis in zip(out["hands"], analyses, strict=True):
        assert hand["hand"] == analysis.number
        assert len(hand["decisions"]) == len(analysis.decisions)
        for row, decision in zip(hand["decisions"], analysis.decisions, strict=True):
            assert (row["event"], row["seat"], row["kind"], row["actual"], row["mistake"]) == (
                decision.event_index, decision.seat, decision.kind, decision.actual_index,
                decision.mistake)
            assert row["actual_rank"] == row["alternatives"][row["actual"]]["rank"]
            for option in row["alternatives"]:
                if "accepted" in option:
                    assert option["accepted_count"] == sum(
                        a["remaining"] for a in option["accepted"])
        for seat, line in enumerate(hand["summary"]):
            mine = [d for d in analysis.decisions
                    if d.seat == seat and len(d.alternatives) > 1]
            assert line == {"seat": seat, "decisions": len(mine),
                            "agreed": sum(actual(d).rank == 1 for d in mine),
                            "mistakes": sum(d.mistake for d in mine)}


def test_it_analyze_hand_annotates_one_hand_from_its_fresh_table() -> None:
    """analyze_hand(table, events, number) on hand 2's fresh table (after replaying
    hand 1) gives what analyze_match gives for hand 2."""
    match, analyses = bot("putian", 2)
    replayer = Replayer(match)
    replayer.play(1, match.hands[0])
    table = replayer.begin(2, match.hands[1])
    alone = analyze_hand(table, match.hands[1].events, 2)
    assert alone.number == 2 and alone.to_json() == analyses[1].to_json()


# -- 3. the command line ---------------------------------------------------------------------


def run_cli(argv: list[str]) -> tuple[int, Any]:
    out = io.StringIO()
    code = main(argv, io.StringIO(""), out)
    return code, json.loads(out.getvalue())


def test_it_cli_analyzes_a_simulated_file(tmp_path: Any) -> None:
    match = simulate("putian", 2, 11)
    path = tmp_path / "match.json"
    path.write_text(dumps(match), encoding="utf-8")
    code, out = run_cli(["analyze", str(path)])
    assert code == 0
    assert [h["hand"] for h in out["hands"]] == [1, 2]
    assert all(h["decisions"] for h in out["hands"])
    for hand in out["hands"]:
        for decision in hand["decisions"]:
            assert {"event", "seat", "kind", "actual", "actual_rank", "mistake",
                    "alternatives"} <= set(decision)
            assert decision["actual"] is not None
    assert out == json.loads(json.dumps(analyze_json(read_log(json.loads(dumps(match))))))


def test_it_cli_runs_as_a_module(tmp_path: Any) -> None:
    path = tmp_path / "match.json"
    path.write_text(dumps(simulate("putian", 1, 4)), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "games", "analyze", str(path)],
                          capture_output=True, text=True, cwd=ROOT, check=False)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["variant"] == "putian" and out["hands"][0]["decisions"]


def test_it_cli_refuses_an_invalid_log_naming_hand_event_and_rule(tmp_path: Any) -> None:
    """An illegal event in hand 2 (a discard out of turn, C-2): exit 1, the error names
    hand 2, the event's number and the rule; nothing is annotated."""
    doc = write_log(simulate("sichuan", 2, 5))
    events = doc["hands"][1]["events"]
    number, event = next((i, e) for i, e in enumerate(events, 1) if e["type"] == "discard")
    event["actor"] = (event["actor"] + 1) % 4
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    code, out = run_cli(["analyze", str(path)])
    assert code == 1
    assert out["ok"] is False and "hands" not in out
    assert (out["error"]["hand"], out["error"]["event"], out["error"]["rule"]) == (2, number,
                                                                                 "C-2")
    assert out["error"]["message"]


def test_it_cli_refuses_a_file_that_is_not_json(tmp_path: Any) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{", encoding="utf-8")
    code, out = run_cli(["analyze", str(path)])
    assert code == 1 and out["ok"] is False and out["error"]["message"]


# -- 4. long matches ------------------------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_annotates_a_sixteen_hand_bot_match(variant: str) -> None:
    match = simulate(variant, 16, 2026)
    analyses = analyze_match(match)
    assert [a.number for a in analyses] == list(range(1, 17))
    assert all(a.decisions for a in analyses)
    assert all(d.actual_index is not None for a in analyses for d in a.decisions)
    json.dumps([a.to_json() for a in analyses])


# -- 5. the fast paths the annotation uses ---------------------------------------------------


def random_shapes(variant: str, count: int, seed: int) -> Iterator[tuple[Any, list[int], int]]:
    """Positions (melds, wildcards, void) with random concealed counts of 3n+1 or 3n+2 tiles."""
    import random

    from games.core.position import Position
    from games.core.tiles import Meld
    from games.variants.registry import VARIANTS as CLASSES

    cls = CLASSES[variant]
    rng = random.Random(seed)
    kinds = [k for k in range(34) if k < 27 or k in cls.HONOURS]
    for _ in range(count):
        wildcards = frozenset(rng.sample(range(27), cls.WILDCARD_KINDS))
        melds = tuple(Meld.peng(TILES[k]) for k in rng.sample(range(27), rng.randint(0, 3)))
        void = rng.choice([None, 0, 1, 2]) if variant == "sichuan" else None
        position = Position(variant=cls, hand=(), melds=melds, wildcards=wildcards, void=void)
        size = 3 * (cls.SETS - len(melds)) + rng.choice([1, 2])
        wall = [k for k in kinds for _ in range(4)]
        rng.shuffle(wall)
        counts, wild = [0] * 34, 0
        for kind in wall[:size]:
            if kind in wildcards:
                wild += 1
            else:
                counts[kind] += 1
        yield position, counts, wild


@pytest.mark.parametrize("step", (1, -1))
def test_it_needs_after_each_kind_what_the_changed_hand_needs(step: int) -> None:
    from games.core import shapes
    from tests import reference_shapes as plain

    for variant in VARIANTS:
        for position, counts, _ in random_shapes(variant, 300, 7):
            sets = position.variant.SETS - len(position.melds)
            for void, honours in ((None, True), (position.void, False), (1, True)):
                assert shapes.needed_after_each(counts, sets, void, honours, step) == \
                    plain.needed_after_each(counts, sets, void, honours, step)


def test_it_builds_and_combines_vectors_like_the_plain_definitions() -> None:
    import random

    from games.core import shapes
    from tests import reference_shapes as plain

    rng = random.Random(29)
    for _ in range(400):
        suit = [0] * 9
        for kind in rng.choices(range(9), k=rng.randint(0, 14)):
            suit[kind] = min(suit[kind] + 1, 5)
        honours = [min(n, 4) for n in rng.choices(range(4), k=7)]
        for counts, suited in ((tuple(suit), True), (tuple(honours), False)):
            assert shapes._build(counts, suited, {}) == plain.build(counts, suited, {})
            for low in (i for i, n in enumerate(counts) if n):
                groups = shapes._groups_from(counts, low, suited)
                assert len(set(groups)) == len(groups), "each group once"
                assert set(groups) == set(plain.groups_from(counts, low, suited))
        shapes.suit_id(tuple(suit))  # vectors to combine below
        shapes.honour_id(tuple(honours))
    ids = range(len(shapes._vectors))
    for _ in range(400):
        a, b = rng.choice(ids), rng.choice(ids)
        assert shapes.vector(shapes.combine(a, b)) == plain.combine(shapes.vector(a),
                                                                    shapes.vector(b))


_THREADED_TABLES = """
import json, random, sys, threading
sys.setswitchinterval(1e-6)  # switch threads as often as possible
from games.core import shapes

def work(seed, out):
    rng = random.Random(seed)
    for _ in range(1500):
        counts = [0] * 34
        for kind in rng.sample(list(range(34)) * 4, rng.choice([13, 14, 16, 17])):
            counts[kind] += 1
        sets = 4 if sum(counts) < 15 else 5
        step = rng.choice([1, -1])
        needs = shapes.OneTileOn(counts, sets)
        out.append([counts, sets, step, shapes.needed_after_each(counts, sets, step=step),
                    [needs.after(kind, step) for kind in range(34)]])

outs = [[] for _ in range(4)]
threads = [threading.Thread(target=work, args=(seed, outs[seed])) for seed in range(4)]
for thread in threads:
    thread.start()
for thread in threads:
    thread.join()
print(json.dumps([row for out in outs for row in out]))
"""


def test_it_builds_the_tables_right_from_several_threads_at_once() -> None:
    """A threaded web server renders boards while it annotates: threads numbering new
    parts at the same time once swapped their entries for good (a fresh process, threads
    switching as often as possible, every answer checked against the plain definition)."""
    from tests import reference_shapes as plain

    done = subprocess.run([sys.executable, "-c", _THREADED_TABLES], capture_output=True,
                          text=True, cwd=ROOT, timeout=300, check=True)
    rows = json.loads(done.stdout)
    assert len(rows) == 6000 and not done.stderr
    for counts, sets, step, (now, after), one_by_one in rows:
        assert (now, after) == plain.needed_after_each(counts, sets, step=step)
        assert one_by_one == after


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_gives_the_shanten_after_each_draw_of_the_plain_definition(variant: str) -> None:
    from tests import reference_shapes as plain

    for position, counts, wild in random_shapes(variant, 400, 11):
        cls = position.variant
        assert cls.shanten_after_each(position, counts, wild) == \
            plain.shanten_after_each(cls, position, counts, wild)


@pytest.mark.parametrize("variant", VARIANTS)
def test_shanten_steps_give_the_vectors_entries_one_kind_at_a_time(variant: str) -> None:
    from games.core import shapes
    from tests import reference_shapes as plain

    for position, counts, wild in random_shapes(variant, 400, 17):
        cls = position.variant
        steps = cls.shanten_steps(position, counts, wild)
        now, each = cls.shanten_after_each(position, counts, wild)
        assert steps.now == now == cls.shanten_of(position, counts, wild)
        assert [steps.adding(k) for k in range(34)] == each
        assert [steps.removing(k) for k in range(34)] == \
            plain.shanten_after_removing(cls, position, counts, wild)
        sets = cls.SETS - len(position.melds)
        needs = shapes.OneTileOn(counts, sets, position.void, variant != "sichuan")
        for step in (1, -1):
            assert [needs.after(k, step) for k in range(34)] == shapes.needed_after_each(
                counts, sets, position.void, variant != "sichuan", step)[1]


@pytest.mark.parametrize("variant", VARIANTS)
def test_a_discard_never_leaves_fewer_shanten_than_the_hand_had(variant: str) -> None:
    """The counterfactual stops looking for the best discard at the first kind whose
    removal leaves the shanten of the hand with the drawn tile: none can leave fewer.
    And it takes the removal's entry as the shanten of the hand kept."""
    for position, counts, wild in random_shapes(variant, 400, 19):
        cls = position.variant
        if (sum(counts) + wild) % 3 != 2:
            continue
        steps = cls.shanten_steps(position, counts, wild)
        removed = [steps.removing(kind) for kind in range(34)]
        assert min(removed) >= cls.shanten_of(position, counts, wild)
        # and each entry is the shanten of the hand the discard leaves
        for kind in range(34):
            if kind in position.wildcards:
                if wild:
                    assert removed[kind] == cls.shanten_of(position, counts, wild - 1)
            elif counts[kind]:
                counts[kind] -= 1
                assert removed[kind] == cls.shanten_of(position, counts, wild)
                counts[kind] += 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_vector_after_each_draw_decides_like_the_shanten_of_the_grown_hand(
        variant: str) -> None:
    """What the counterfactual relies on: for each drawn kind, the vector entry is at
    least the current shanten exactly when the grown hand's shanten is (no improvement),
    and equals it otherwise; wildcard kinds are always exact."""
    for position, counts, wild in random_shapes(variant, 300, 13):
        cls = position.variant
        if (sum(counts) + wild) % 3 != 1:
            continue
        now, after = cls.shanten_after_each(position, counts, wild)
        assert now == cls.shanten_of(position, counts, wild)
        for tile in cls.drawable(position):
            kind = tile.kind
            if kind in position.wildcards:
                assert after[kind] == cls.shanten_of(position, counts, wild + 1)
                continue
            counts[kind] += 1
            grown = cls.shanten_of(position, counts, wild)
            counts[kind] -= 1
            assert (after[kind] >= now) == (grown >= now)
            if grown < now:
                assert after[kind] == grown


def test_jiaxing_may_win_is_never_too_strict() -> None:
    """JX-5.3: the annotation skips the full score of hands ``may_win`` turns down; random
    complete hands (melds, wildcards, flushes and pungs favoured): every win passes it,
    and it does turn hands down."""
    import random

    from games.core.position import Position
    from games.core.tiles import Meld
    from games.variants.jiaxing import Jiaxing

    rng = random.Random(23)
    turned_down = wins = 0
    for _ in range(3000):
        suits = rng.sample(range(4), rng.choice([1, 1, 2, 2, 3]))
        def kind_in(suit: int, top: int = 9) -> int:
            return suit * 9 + rng.randrange(7 if suit == 3 else top)
        melds, groups = [], []
        for _ in range(rng.choice([0, 0, 1, 2, 3])):
            suit = rng.choice(suits)
            if suit < 3 and rng.random() < 0.3:
                melds.append(Meld.chi(TILES[kind_in(suit, 7)]))
            else:
                melds.append(Meld.peng(TILES[kind_in(suit)]))
        for _ in range(4 - len(melds)):
            suit = rng.choice(suits)
            if suit < 3 and rng.random() < 0.4:
                start = kind_in(suit, 7)
                groups.append([start, start + 1, start + 2])
            else:
                groups.append([kind_in(suit)] * 3)
        groups.append([kind_in(rng.choice(suits))] * 2)
        wildcard = rng.randrange(34)
        kinds = [k for group in groups for k in group]
        for i in rng.sample(range(len(kinds)), rng.choice([0, 0, 1, 2, 3])):
            kinds[i] = wildcard
        shown = [k for m in melds for k in (t.kind for t in m.tiles)]
        if any((kinds + shown).count(k) > 4 for k in set(kinds + shown)) or any(
                m.first.kind == wildcard or wildcard in (t.kind for t in m.tiles)
                for m in melds):
            continue
        hand = tuple(TILES[k] for k in kinds)
        position = Position(variant=Jiaxing, hand=hand, melds=tuple(melds),
                            win_tile=hand[-1], wildcards=frozenset({wildcard}), self_draw=True)
        counts, wild = Jiaxing.split(position, hand)
        allowed = Jiaxing.may_win(position, counts, wild)
        won = Jiaxing.score(position).win
        assert allowed or not won, (hand, melds, wildcard)
        turned_down += not allowed
        wins += won
    assert turned_down > 300 and wins > 300
