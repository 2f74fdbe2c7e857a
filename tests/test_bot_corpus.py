"""The bot corpus: 2,000 bot-played hands per variant validate, settle to zero and round-trip.

Each variant's corpus is four matches of 500 hands (the reader's limit per
document). Besides validity, the corpus must reach what bots can reach: every
kind of claim and kong, contracts, robbed kongs, 抢金, bombs, several winners,
查大叫 and refunds (see docs/table.md for what only hand-written tests cover).

`make test` checks the first 100 hands of the same four matches (400 per variant), which
already reach every rule listed here (the last one first met: Putian's PT-5.4, in the
80th hand of seed 4); the whole corpus is a slow test (`make test-slow`).
"""

from __future__ import annotations

from collections import Counter

import pytest

from games.bots.simulation import coverage, simulate
from games.core.settlement import deltas_of
from games.records.log import dumps, loads, read_log, write_log
from games.records.match import replay

SEEDS = (1, 2, 3, 4)
CORPUS_HANDS = 500  # per match: the reader's limit per document
FIRST_HANDS = 100  # per match in `make test`: every rule below is reached by then

REACHED = {
    "jiaxing": {
        "events": ["chi", "peng", "gang:exposed", "gang:added", "gang:concealed",
                   "contract:persist", "contract:give_up", "hu:self_draw", "hu:robbing_kong",
                   "end:win", "end:exhausted"],
        "settlement": ["JX-10.1", "JX-10.2", "JX-10.3", "JX-10.4"],
        "patterns": ["JX-6.1", "JX-6.2", "JX-6.3", "JX-6.4", "JX-6.5", "JX-6.6", "JX-6.7",
                     "JX-6.8", "JX-7.1", "JX-7.2", "JX-7.3", "JX-7.4", "JX-7.5", "JX-7.9",
                     "JX-7.10"],
    },
    "putian": {
        "events": ["flower", "ready", "gang:concealed", "hu:discard", "hu:self_draw",
                   "hu:rob_gold"],
        "settlement": ["PT-7.1 streak base", "PT-7.2", "PT-7.2 dealer pays 2 more", "PT-7.4 算花"],
        "patterns": ["PT-5.4", "PT-5.5", "PT-5.6", "PT-6", "PT-7.1"],
    },
    "sichuan": {
        "events": ["dingque", "peng", "gang:exposed", "gang:added", "gang:concealed",
                   "hu:discard", "hu:self_draw", "hu:robbing_kong", "end:win", "end:exhausted"],
        "settlement": ["SC-6.1", "SC-6.2", "SC-6.4", "SC-6.4b 查大叫", "SC-6.4c kong refunds",
                       "SC-3.1 2 winners on one discard", "3 winners"],
        "patterns": ["SC-5.1", "SC-5.2", "SC-5.5", "SC-5.8", "SC-5.14", "SC-5.15", "SC-5.16",
                     "SC-5.17", "SC-5.18"],
    },
}


def check_corpus(variant: str, hands: int) -> None:
    """The first ``hands`` hands of each seed's match validate, settle to zero, round-trip
    and, together, reach every rule of ``REACHED``."""
    matches = [simulate(variant, hands, seed) for seed in SEEDS]
    for match in matches:
        document = write_log(match)
        assert write_log(read_log(document)) == document  # LOG-FORMAT: write(read(x)) == x
        result = replay(loads(dumps(match)))
        assert len(result.hands) == hands
        for hand, played in zip(result.hands, match.hands, strict=True):
            assert sum(hand.deltas) == 0  # C-6
            assert list(played.events[-1].deltas or ()) == hand.deltas
            assert deltas_of(s.line for s in hand.table.payments) == hand.deltas  # issue 15
        assert result.totals == [sum(h.deltas[s] for h in result.hands) for s in range(4)]
    reached = coverage(matches)
    patterns = Counter(name.split()[0] for name in reached["patterns"])
    wanted = REACHED[variant]
    assert [e for e in wanted["events"] if e not in reached["events"]] == []
    assert [s for s in wanted["settlement"] if s not in reached["settlement"]] == []
    assert [p for p in wanted["patterns"] if p not in patterns] == []


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_validates_400_bot_hands_and_reaches_every_bot_reachable_rule(variant: str) -> None:
    check_corpus(variant, FIRST_HANDS)


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_validates_2000_bot_hands_and_reaches_every_bot_reachable_rule(variant: str) -> None:
    check_corpus(variant, CORPUS_HANDS)


def test_it_plays_the_same_match_for_the_same_seeds() -> None:
    first = write_log(simulate("putian", 3, 42, wall_seed=7))
    assert first == write_log(simulate("putian", 3, 42, wall_seed=7))
    assert first != write_log(simulate("putian", 3, 42, wall_seed=8))
    assert all("wall" in hand for hand in first["hands"])
