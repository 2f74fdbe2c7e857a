"""``Table.apply_run`` (the fast replay of a hand's events) leaves every state ``apply`` does.

Over bot-played matches and the hand-written logs, each hand is replayed twice,
event by event: once through :meth:`Table.apply`, once through
:meth:`Table.apply_run` given one event at a time; the two tables must agree
after every event. A third table runs the whole hand through ``apply_run`` at
once, as the validator does, and must end where the others did.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from games.bots.simulation import simulate
from games.core.table import Table
from games.records.log import Match, read_log
from games.records.match import Replayer
from tests.logbuild import single
from tests.test_logs_play import VALID
from tests.test_rules_precision import (
    jx_kong_on_the_last_tile,
    sc_kong_then_winner_leaves,
    sc_pig_leaves,
)


def state(table: Table) -> dict[str, Any]:
    """Everything the table holds, caches (underscored names) left out."""
    return {name: value for name, value in vars(table).items() if not name.startswith("_")}


def tables_of(match: Match) -> Iterator[tuple[int, Table, Table, Table, Any]]:
    """For every hand: three fresh tables of it and the hand."""
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        tables = [replayer.begin(number, hand) for _ in range(3)]
        yield number, tables[0], tables[1], tables[2], hand
        replayer.play(number, hand)


def compare(match: Match) -> int:
    """Replay the match both ways; returns how many events were compared."""
    compared = 0
    for number, one_by_one, run_by_one, whole, hand in tables_of(match):
        events = [e for e in hand.events if e.type != "end"]
        for index, event in enumerate(events, start=1):
            one_by_one.apply(event)
            assert run_by_one.apply_run([event]) == 1
            assert state(run_by_one) == state(one_by_one), f"hand {number}, event {index}"
            compared += 1
        assert whole.apply_run(hand.events) == len(events)
        assert state(whole) == state(one_by_one), f"hand {number}"
    return compared


def hand_written() -> Iterator[Match]:
    for factory in VALID.values():
        yield read_log(factory())
    yield read_log(single(jx_kong_on_the_last_tile().end("win")))
    yield read_log(single(sc_kong_then_winner_leaves().end("exhausted")))
    yield read_log(single(sc_pig_leaves().end("abandoned")))


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_leaves_the_same_state_after_every_bot_event(variant: str) -> None:
    assert compare(simulate(variant, 12, 5)) > 500


def test_it_leaves_the_same_state_after_every_hand_written_event() -> None:
    assert sum(compare(match) for match in hand_written()) > 500


def test_it_stops_before_the_end_event() -> None:
    match = simulate("sichuan", 1, 2)
    _, table, _, _, hand = next(tables_of(match))
    assert table.apply_run(hand.events) == len(hand.events) - 1
    assert hand.events[-1].type == "end"
