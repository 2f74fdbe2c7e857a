"""Itemised settlements (issue 15): every payment is a line with its rule and formula,
and a hand's lines add up exactly to its deltas and house charges (C-6).

The sums are checked over bot matches of all three variants and over every
hand-written valid log of the play tests; each line's formula is recomputed
from its own numbers, so a line can't show one sum and pay another.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from games.bots.simulation import simulate
from games.commands.cli import main
from games.core.settlement import (
    Payment,
    deltas_of,
    house_of,
    jiaxing_win_payments,
    putian_win_payments,
)
from games.records.log import dumps, loads
from games.records.match import MatchResult, replay
from tests import test_logs_play
from tests.logbuild import run

SEEDS = (11, 12, 13)


def formula_amount(line: Payment) -> int:
    """What the line's formula says it pays, from its numbers alone."""
    n = dict(line.formula.numbers)
    kind = line.formula.kind
    if kind == "base_tai_fan":
        assert n["base"] * n["tai"] * 2 ** n["fan"] == n["score"]
        return n["score"] * n["times"]
    if kind == "flowers_doubled":
        return (n["base"] + n["flowers"]) * 2 + n["dealer"]
    if kind == "flowers":
        return n["more"] - n["fewer"]
    if kind == "kong":
        return n["stake"] * n["base"]
    if kind == "fan_points":
        return n["points"]
    if kind == "cap":
        return n["cap"]
    if kind == "ready":
        return n["points"]
    return n["amount"]  # bombs, refunds, a leaver's shares: the amount is the number


def check_lines(result: MatchResult) -> int:
    """Every hand's lines add up to its deltas and house charges; returns the line count."""
    count = 0
    for hand in result.hands:
        lines = [settled.line for settled in hand.table.payments]
        assert deltas_of(lines) == hand.deltas, f"hand {hand.number}"
        assert house_of(lines) == hand.table.fees, f"hand {hand.number}"
        for line in lines:
            assert line.amount > 0 and line.payer != line.payee
            assert formula_amount(line) == line.amount, line
        events = [settled.event for settled in hand.table.payments]
        assert events == sorted(events)  # recorded when paid, in order
        count += len(lines)
    return count


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_adds_up_the_lines_of_every_bot_hand(variant: str) -> None:
    lines = 0
    for seed in SEEDS:
        match = simulate(variant, 40, seed)
        lines += check_lines(replay(loads(dumps(match))))
    assert lines > 40  # the corpus pays: the check is not vacuous


def test_it_adds_up_the_lines_of_every_hand_written_log() -> None:
    checked = 0
    for _name, factory in sorted(test_logs_play.VALID.items()):
        result = run(factory())
        check_lines(result)
        checked += 1
    assert checked > 20


# == hand-built cases, checked by hand ==============================================


def test_it_itemises_a_jiaxing_contract_win_jx_10_2() -> None:
    lines = jiaxing_win_payments(0, 5, 3, 2, contracts=[(0, 1)], gave_up=[3])
    assert [(line.rule, line.payer, line.payee, line.amount, line.formula.text)
            for line in lines] == [
        ("JX-10.2", 1, 0, 300, "5 底 × 3 台 × 2² = 60 × 5 = 300"),  # the partner ×5
        ("JX-10.2", 2, 0, 120, "5 底 × 3 台 × 2² = 60 × 2 = 120"),  # persisting ×2
    ]  # seat 3 gave up and pays nothing (JX-9)


def test_it_itemises_a_putian_win_with_flowers_and_a_streak_pt_7() -> None:
    # dealer 0 on a streak of 1 (base 3); seat 1 wins with 2 flower points;
    # losers hold 4, 0 and 1 flower points.
    lines = putian_win_payments(1, 0, dealer_streak=1, flower_points=[4, 2, 0, 1])
    assert [(line.rule, line.payer, line.payee, line.amount, line.formula.text)
            for line in lines] == [
        ("PT-7.2", 0, 1, 12, "(3 + 2 花) × 2 + 2 庄 = 12"),
        ("PT-7.2", 2, 1, 10, "(3 + 2 花) × 2 = 10"),
        ("PT-7.2", 3, 1, 10, "(3 + 2 花) × 2 = 10"),
        ("PT-7.4", 2, 0, 4, "4 花 − 0 花 = 4"),
        ("PT-7.4", 3, 0, 3, "4 花 − 1 花 = 3"),
        ("PT-7.4", 2, 3, 1, "1 花 − 0 花 = 1"),
    ]
    assert deltas_of(lines) == [-12 + 4 + 3, 10 + 12 + 10, -10 - 4 - 1, -10 - 3 + 1]


def test_it_itemises_a_sichuan_kong_then_flower_pig_ready_and_refund_sc_6_3_sc_6_4() -> None:
    """The play test's hand (SC-6.4): Ann's concealed kong takes 2 from each at
    once; at the end Dee, a 花猪, pays the cap 8 to each of the others (a), Ann
    and Cal pay the ready Ben 1 (b), and Ann gives her kong income back (c)."""
    result = run(test_logs_play.doc_sc_pig_and_kong())
    table = result.hands[0].table
    kong_event = 5 - 1  # the concealed kong, after the four 定缺
    end_event = table.seen_events
    assert [(s.event, s.line.rule, s.line.payer, s.line.payee, s.line.amount, s.line.formula.text)
            for s in table.payments] == [
        (kong_event, "SC-6.3", 1, 0, 2, "2 × 1 底 = 2"),
        (kong_event, "SC-6.3", 2, 0, 2, "2 × 1 底 = 2"),
        (kong_event, "SC-6.3", 3, 0, 2, "2 × 1 底 = 2"),
        (end_event, "SC-6.4a", 3, 0, 8, "封顶 8 分"),
        (end_event, "SC-6.4a", 3, 1, 8, "封顶 8 分"),
        (end_event, "SC-6.4a", 3, 2, 8, "封顶 8 分"),
        (end_event, "SC-6.4b", 0, 1, 1, "1 分"),
        (end_event, "SC-6.4b", 2, 1, 1, "1 分"),
        (end_event, "SC-6.4c", 0, 1, 2, "退 2"),
        (end_event, "SC-6.4c", 0, 2, 2, "退 2"),
        (end_event, "SC-6.4c", 0, 3, 2, "退 2"),
    ]
    assert result.hands[0].deltas == [7, 10, 7, -24]


def test_it_adds_the_lines_to_validates_json_without_renaming_a_field(tmp_path: Path) -> None:
    """ENGINE-CLI: fields may be added, never renamed; ``payments`` is one list per hand."""
    document = test_logs_play.doc_sc_pig_and_kong()
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(document), encoding="utf-8")
    out = io.StringIO()
    assert main(["validate", str(path)], stdout=out) == 0
    answer = json.loads(out.getvalue())
    assert {"ok", "hands", "deltas", "totals"} <= answer.keys()
    assert answer["deltas"] == [[7, 10, 7, -24]]
    (lines,) = answer["payments"]
    assert lines[0] == {
        "event": 4, "rule": "SC-6.3", "cause": "kong", "payer": 1, "payee": 0, "amount": 2,
        "formula": {"kind": "kong", "numbers": {"stake": 2, "base": 1}, "text": "2 × 1 底 = 2"},
    }
    assert len(lines) == 11
