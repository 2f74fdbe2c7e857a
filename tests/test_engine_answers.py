"""The engine answers every valid question (issue 31): the table model values every
decision point of a valid log in every variant, and no command of ``python -m games``
ever prints a traceback.

The sweep plays every choice of every decision point of a few bot hands per variant out
on one redeal: hands with Putian ready declarations (PT-5.3), 抢金 (PT-5.5) and a bomb
within reach (PT-5.6), Jiaxing contracts (JX-9) and kongs, Sichuan winners playing on
(SC-3.2) and a leaver (SC-6.6). One choice comes back per legal action, paired.
"""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest

from games.analysis.value import ValueInputError
from games.analysis.value_table import LogPoint, table_values
from games.bots.simulation import simulate
from games.commands import cli
from games.play.bot_match import PlayMatch
from games.records.log import EngineFault, MatchLog, write_log


def run(argv: list[str], stdin: str = "") -> tuple[int, Any]:
    out = io.StringIO()
    status = cli.main(argv, io.StringIO(stdin), out)
    return status, json.loads(out.getvalue())


@cache
def bot_match(variant: str, hands: int, seed: int) -> MatchLog:
    return simulate(variant, hands, seed)


def decision_points(match: MatchLog, hand: int) -> Iterator[LogPoint]:
    """Every (event, seat) of a hand where the seat has a choice."""
    for event in range(1, len(match.hands[hand - 1].events) + 1):
        for seat in range(4):
            try:
                point = LogPoint.at(match, hand, event, seat)
                point.choices()
            except ValueInputError:  # no choice for this seat here
                continue
            yield point


def test_it_answers_the_putian_repro_of_issue_31_pt_5_3() -> None:
    """The dealer's first discard of a Putian bot hand, table model: a playout in which a
    bot declared ready and then could not keep its hand ready raised PT-5.3 as a
    traceback. Every choice is answered now, one per legal action."""
    match = bot_match("putian", 40, 4242)
    request = {"model": "table", "log": write_log(match), "hand": 1, "event": 3, "seat": 3,
               "samples": 30, "seed": 1}
    status, answer = run(["value"], json.dumps(request))
    assert status == 0, answer
    point = LogPoint.at(match, 1, 3, 3)
    assert len(answer["choices"]) == len(point.choices())
    assert all(choice["ci95"] for choice in answer["choices"])


# Hands chosen for what happens in them (found by scanning bot matches), and the choice
# (an event type, and ``how`` for a win) that must be among their decision points.
SWEEPS = {
    "putian ready (PT-5.3), first hand of the repro": ("putian", 40, 4242, 1, "ready"),
    "putian ready declared and played on (PT-5.3)": ("putian", 4, 24, 1, "ready"),
    "putian 抢金 offered at the first turn (PT-5.5)": ("putian", 4, 11, 1, "hu rob_gold"),
    "putian a bomb among the choices (PT-5.6)": ("putian", 4, 13, 2, "hu bomb"),
    "jiaxing contracts and a kong (JX-9, JX-2.4)": ("jiaxing", 4, 5, 4, "contract None"),
    "sichuan three winners playing on (SC-3.2)": ("sichuan", 4, 5, 4, "hu None"),
}


@pytest.mark.parametrize("case", sorted(SWEEPS))
def test_it_values_every_decision_point_of_a_bot_hand(case: str) -> None:
    variant, hands, seed, hand, wanted = SWEEPS[case]
    match = bot_match(variant, hands, seed)
    offered: set[str] = set()
    for point in decision_points(match, hand):
        choices = point.choices()
        offered.update(f"{c.event.type} {c.event.how}" for c in choices if c is not None)
        offered.update(c.event.type for c in choices if c is not None)
        valued = table_values(point, 1, point.event)
        assert len(valued.choices) == len(choices), (case, point.event, point.seat)
        assert valued.samples == 1
    assert wanted in offered, (case, sorted(offered))
    if "winners" in case:
        assert sum(e.type == "hu" for e in match.hands[hand - 1].events) >= 2


def test_it_values_every_decision_point_after_a_sichuan_leaver_sc_6_6() -> None:
    """SC-6.6: the human leaves after a few moves and the bots play the hand out without
    them; every later decision of the others is valued."""
    match = PlayMatch.start("sichuan", seed="issue-31-leaver", seat=0, hands=1)
    for _ in range(6):
        if match.over or match.pending is None:
            break
        match.act(match.step, match.legal()[0])
    assert not match.over, "the hand ended before the player could leave"
    match.leave(match.step)
    log = match.log()
    events = log.hands[0].events
    left = next(i for i, e in enumerate(events, start=1) if e.type == "leave")
    after = [p for p in decision_points(log, 1) if p.event > left]
    assert after, "nobody had a choice after the leave"
    for point in after:
        assert point.seat != 0  # the leaver is out
        valued = table_values(point, 1, point.event)
        assert len(valued.choices) == len(point.choices())


# -- no traceback, ever -----------------------------------------------------------------


def test_it_answers_an_engine_failure_as_json_naming_the_point(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """An error of the engine's own is one JSON document naming the command, the hand and
    the event, with exit status 2 (ENGINE-CLI: not 1, the input was valid)."""
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise ZeroDivisionError("forced for the test")

    match = bot_match("sichuan", 4, 5)
    point = next(decision_points(match, 2))
    request = {"model": "table", "log": write_log(match), "hand": 2, "event": point.event,
               "seat": point.seat, "samples": 2, "seed": 1}
    monkeypatch.setattr("games.analysis.value_table.play_out", broken)
    status, answer = run(["value"], json.dumps(request))
    assert status == 2
    error = answer["error"]
    assert error["command"] == "value" and error["internal"] is True
    assert (error["hand"], error["event"]) == (2, point.event)
    assert "ZeroDivisionError" in error["message"]


def test_it_names_the_hand_and_event_where_a_replay_failed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from games.core.table import Table

    original = Table.apply

    def failing(table: Table, event: Any) -> None:
        if table.seen_events == 4:
            raise KeyError("forced for the test")
        original(table, event)

    document = json.dumps(write_log(bot_match("jiaxing", 2, 3)))
    monkeypatch.setattr(Table, "apply", failing)
    monkeypatch.setattr(Table, "apply_run", lambda table, events: 0)
    status, answer = run(["validate"], document)
    assert status == 2
    assert answer["ok"] is False
    error = answer["error"]
    assert error["command"] == "validate" and error["internal"] is True
    assert (error["hand"], error["event"]) == (1, 5)
    assert "KeyError" in error["message"]


def test_it_names_the_position_of_an_array_item_that_failed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(data: Any) -> dict[str, Any]:
        if data.get("hand") == "boom":
            raise MemoryError("forced")
        return {"ok": True}

    monkeypatch.setattr(cli, "score_json", broken)
    status, answer = run(["score"], json.dumps([{"hand": "fine"}, {"hand": "boom"}]))
    assert status == 2
    assert answer["error"]["position"] == 1 and answer["error"]["command"] == "score"


def test_an_engine_fault_keeps_the_first_place_it_was_given() -> None:
    fault = EngineFault.of(EngineFault.of(ValueError("x"), event=7), hand=3, event=9)
    assert (fault.hand, fault.event) == (3, 7)
