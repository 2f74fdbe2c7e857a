"""Every alternative valued (issue 17): every discard of a discard decision in the solo
model, every choice of any other decision played out at the table — claims and passes,
定缺, contract answers, wins, kongs, 抢金, bombs and Putian's ready declarations (PT-5.3)
— and redeals that keep to what the table shows of each seat."""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.analysis.annotation import analyze_match
from games.analysis.value_pass import followed_up, value_hand
from games.analysis.value_table import LogPoint, hidden_tiles, redeal
from games.bots.simulation import simulate
from games.records.match import Replayer

# Which alternatives are valued and by which model doesn't depend on how many shuffles and
# redeals price them: the fewest that still give every alternative an interval.
SOLO_SAMPLES, TABLE_SAMPLES = 4, 2


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(["jiaxing", "putian", "sichuan"]), seed=st.integers(1, 40),
       share=st.floats(0.05, 0.95), seat=st.integers(0, 3), deal=st.integers(0, 2**20))
def test_it_keeps_what_the_table_shows_in_every_redeal(variant: str, seed: int, share: float,
                                                       seat: int, deal: int) -> None:
    match = simulate(variant, 1, seed)
    events = match.hands[0].events
    event = max(1, min(len(events) - 1, int(share * len(events))))
    table = LogPoint.at(match, 1, event, seat).table
    dealt = redeal(table, seat, random.Random(deal))
    redealt = Counter(str(t) for other, state in enumerate(dealt.seats)
                      if other != seat and not (state.won and table.PLAY_ON)
                      for t in state.tiles())
    redealt.update(str(t) for t in dealt.wall[dealt.front:dealt.back])
    assert redealt == Counter(str(t) for t in hidden_tiles(table, seat))
    for other, state in enumerate(table.seats):
        ruled_out, rule = table.kinds_ruled_out(other), table.hand_rule(other)
        # What the table says of a seat holds of its real hand ...
        assert not any(state.hand[kind] for kind in ruled_out)
        assert rule is None or rule(state.hand)
        # ... and of the hand each other seat is dealt again.
        if other != seat:
            hand = dealt.seats[other].hand
            assert not any(hand[kind] for kind in ruled_out)
            assert rule is None or rule(hand)
            assert sum(hand) == state.size


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_values_every_alternative_that_can_be_carried_through(variant: str) -> None:
    match = simulate(variant, 3, 20261130)
    replayer = Replayer(match)
    kinds = Counter()
    for analysed, hand in zip(analyze_match(match), match.hands, strict=True):
        table = replayer.begin(analysed.number, hand)
        decisions = analysed.to_json()["decisions"]
        valued = value_hand(table, hand.events, analysed.number, decisions, {0, 1, 2, 3},
                            seed=analysed.number, solo_samples=SOLO_SAMPLES,
                            table_samples=TABLE_SAMPLES)
        by_key = {(d["event"], d["seat"]): d for d in valued["decisions"]}
        for decision in decisions:
            alternatives = decision["alternatives"]
            real = [i for i, alt in enumerate(alternatives) if followed_up(alt)]
            if len(real) < 2:
                continue
            found = by_key[(decision["event"], decision["seat"])]
            assert sorted(r["index"] for r in found["alternatives"]) == real, decision
            assert found["cannot"] == [i for i in range(len(alternatives)) if i not in real]
            discards = all(alternatives[i]["action"]["type"] == "discard" for i in real)
            assert found["model"] == ("solo" if decision["kind"] == "turn" and discards
                                      else "table")
            kinds[(found["model"], decision["kind"])] += 1
        replayer.play(analysed.number, hand)
    assert kinds[("solo", "turn")] and kinds[("table", "claim")]


def test_it_plays_a_putian_ready_declaration_out() -> None:
    """PT-5.3: a ready declaration is offered only when a discard can follow it (the
    table's own legal actions), and it is played out with every discard of the turn."""
    match = simulate("putian", 4, 20261130)
    replayer = Replayer(match)
    played = unfollowable = 0
    for analysed, hand in zip(analyze_match(match), match.hands, strict=True):
        decisions = [d for d in analysed.to_json()["decisions"] if any(
            a["action"]["type"] == "ready" for a in d["alternatives"])]
        valued = value_hand(replayer.begin(analysed.number, hand), hand.events,
                            analysed.number, decisions, {0, 1, 2, 3}, seed=1,
                            solo_samples=SOLO_SAMPLES, table_samples=TABLE_SAMPLES)
        for found in valued["decisions"]:
            decision = next(d for d in decisions if d["event"] == found["event"]
                            and d["seat"] == found["seat"])
            ready = next(i for i, a in enumerate(decision["alternatives"])
                         if a["action"]["type"] == "ready")
            if ready in found["cannot"]:
                unfollowable += 1
                assert decision["alternatives"][ready]["shanten"] > 0
                assert found["model"] == "solo"
            else:
                played += 1
                assert found["model"] == "table"
                assert len(found["alternatives"]) == len(decision["alternatives"])
        replayer.play(analysed.number, hand)
    assert played >= 3 and unfollowable == 0
