"""The table model in Sichuan (issue 17): redeals keep the void rule (SC-2), a win is
valued as the table settles it, and a win taken where playing on was worth more is
explained from the computed numbers (SC-3.3, SC-6.2, SC-6.4)."""

from __future__ import annotations

from typing import Any

from games.analysis.annotation import analyze_match
from games.analysis.value_pass import paired_playouts, price_decision, where_from
from games.analysis.value_table import LogPoint, table_values
from games.bots.simulation import simulate
from games.commands.cli import score_json
from games.core.table import Table
from games.core.tiles import Meld


def _table_at(seed: int, hands: int, hand: int, event: int) -> Table:
    match = simulate("sichuan", hands, seed)
    return LogPoint.at(match, hand, event, 0).table


def test_it_rules_out_the_void_suit_once_a_seat_has_discarded_another() -> None:
    table = _table_at(10, 8, 7, 114)  # late in the hand: every seat has discarded
    for seat, state in enumerate(table.seats):
        assert state.void is not None
        assert any(tile.kind // 9 != state.void for tile, _ in state.river)
        assert {k // 9 for k in table.kinds_ruled_out(seat)} == {state.void}


def test_it_no_longer_pays_a_pass_by_flower_pigs_the_table_rules_out() -> None:
    """The demo's "passing: 22.25 expected points vs taking the win": the redeal dealt the
    three others random tiles of all three suits, so at the wall's end they were 花猪 and
    paid the passer the cap each (SC-6.4a) — hands the void rule (SC-2) rules out, since
    each of them had discarded outside its void suit."""
    match = simulate("sichuan", 8, 10)
    point = LogPoint.at(match, 7, 114, 2)
    assert point.table.tiles_left == 1
    choices = point.choices()
    assert [c.event.type if c else "pass" for c in choices] == ["hu", "pass"]
    results = paired_playouts(point, choices, 16, 7)
    assert all(r is not None for r in results)
    win, passing = (where_from(r.results) for r in results if r is not None)
    assert "flower_pig" not in passing["causes"]  # nobody is a 花猪 in any redeal
    # With one tile left, playing on can collect at most 查大叫 from the three others (the
    # hand's best wait is 平胡 + 根, 2 points as a discard win, SC-6.4b) or one more win.
    valued = table_values(point, 16, 7)
    by_type = {c.action.type: c for c in valued.choices}
    assert by_type["pass"].expected_points <= 3 * 2
    assert by_type["hu"].expected_points == 2.0 and win["causes"] == {"win": [1.0, 0.0, 2.0]}


def _position_json(table: Table, seat: int, tile: Any) -> dict[str, Any]:
    state = table.seats[seat]

    def meld(m: Meld) -> dict[str, Any]:
        out: dict[str, Any] = {"type": m.type, "tile": str(m.first)}
        if m.type == "gang":
            out["kind"] = m.gang_kind
        return out

    return {"variant": "sichuan", "hand": "".join(str(t) for t in [*state.tiles(), tile]),
            "melds": [meld(m) for m in state.melds], "win_tile": str(tile), "seat": seat,
            "dealer": table.dealer, "void": "mps"[state.void or 0]}


def test_it_values_a_win_on_a_discard_as_score_and_the_table_settle_it() -> None:
    """The engine never disagrees with itself: taking a win on a discard is worth, in every
    redeal, what the seat had plus what ``score`` says one loser pays (SC-6.1) — the seat
    leaves the hand (SC-3.2), so nothing later moves its points when it paid no kong."""
    checked = 0
    for seed in range(1, 9):
        match = simulate("sichuan", 4, seed)
        for number, hand in enumerate(match.hands, start=1):
            for index, event in enumerate(hand.events, start=1):
                if event.type != "hu" or event.target is None or event.how is not None:
                    continue
                point = LogPoint.at(match, number, index, event.actor or 0)
                table = point.table
                if (table.kong_discard or not table.tiles_left
                        or any(payer == point.seat for s in table.seats
                               for payer, _ in s.kong_income)):
                    continue
                points = score_json(_position_json(table, point.seat, event.tile))["points"]
                valued = table_values(point, 4, index)
                win = next(c for c in valued.choices if c.action.type == "hu")
                assert win.expected_points == table.deltas[point.seat] + points
                assert win.points_interval.low == win.points_interval.high
                checked += 1
    assert checked >= 5


def test_it_explains_a_win_taken_where_playing_on_was_worth_more() -> None:
    found = []
    for seed in (1, 2, 3):
        match = simulate("sichuan", 8, seed)
        for analysed in analyze_match(match):
            for decision in analysed.to_json()["decisions"]:
                actual = decision["alternatives"][decision["actual"]]
                if decision["kind"] != "claim" or not actual.get("win"):
                    continue
                point = LogPoint.at(match, analysed.number, decision["event"],
                                    decision["seat"])
                valued = price_decision(point, decision, 100, 16, decision["event"])
                if valued and (valued["explanation"] or {}).get("id") == "play_on":
                    found.append(valued)
    assert found, "the demo matches take wins that playing on would have beaten"
    for valued in found:
        params = valued["explanation"]["params"]
        best = valued["alternatives"][0]
        assert params["self_draw"] == round(100 * best["self_draw"], 1)
        ready = best["causes"].get("not_ready", [0.0, 0.0, 0.0])
        assert params["ready_share"] == round(100 * ready[0], 1)
        assert params["points_best"] == round(best["expected_points"], 2)
        assert params["win_points"] >= 1
