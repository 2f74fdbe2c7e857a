"""The seat view of mahjong-log/1 (docs/log-format.md, docs/recorder.md): a hand recorded
from one seat, its validation and the projection of a full log onto a seat."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.bots.simulation import simulate
from games.core.table import Table
from games.records.log import LogError, MatchLog, read_log, write_log
from games.records.match import Replayer, replay
from games.records.seat_view import (
    FILLING_BUDGET,
    UNKNOWN,
    Choice,
    choices,
    project,
    read_seat_view,
)

# Every variant, with Sichuan's 换三张 (SC-H1) and 血流成河 (SC-H2) and Putian's flowers and
# golds: each seat view of a legal hand validates (docs/recorder.md).
PROJECTED = [("sichuan", {}), ("sichuan", {"blood_flow": True}), ("jiaxing", {}),
             ("sichuan", {"exchange_three": True}),
             ("sichuan", {"exchange_three": True, "blood_flow": True}), ("putian", {})]


def recorded_from_seat(match: MatchLog, seat: int) -> dict[str, Any]:
    """What a player at ``seat`` writes down, built from the table as the hand is played:
    every event as the table shows it to that seat (not through ``project``)."""
    out = match.to_json()
    out["view"] = {"seat": seat}
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, 1):
        table = replayer.begin(number, hand)
        raw = out["hands"][number - 1]
        del raw["wall"]
        raw["deal"] = [list(t) if s == seat else ["?"] * len(t) for s, t in enumerate(raw["deal"])]
        _record_hand(table, hand.events, raw["events"], seat)
        replayer.conclude(number, hand, table, table.end_reason)
    return out


def _record_hand(table: Table, events: Any, written: list[dict[str, Any]], seat: int) -> None:
    exchanges: dict[int, dict[str, Any]] = {}
    for event, raw in zip(events, written, strict=True):
        mine = event.actor == seat
        if event.type == "draw" and not mine:
            raw["tile"] = UNKNOWN
        if event.type == "exchange":
            exchanges[event.actor] = raw
        if event.type == "hu" and not mine:
            concealed = table.seats[event.actor].tiles()
            if event.target is None and event.how in (None, "bomb"):  # PT-5.6: a self-draw
                concealed.remove(event.tile)
            raw["hand"] = [str(t) for t in sorted(concealed)]
        if event.type == "end":
            shown = [[str(t) for t in sorted(table.seats[s].tiles())]
                     if s != seat and not (table.seats[s].won or table.seats[s].left) else None
                     for s in range(4)]
            if any(shown):
                raw["hands"] = shown
            table.finish(event.reason or "win")
        else:
            table.apply(event)
        if event.type == "exchange" and len(exchanges) == 4:
            # The sets have moved: the recorder saw its own and the one it received.
            giver = table.exchange_giver(seat)
            for actor, passed in exchanges.items():
                if actor not in (seat, giver):
                    passed["tiles"] = [UNKNOWN] * 3


def _sorted_shown(document: dict[str, Any]) -> dict[str, Any]:
    out = copy.deepcopy(document)
    for hand in out["hands"]:
        for raw in hand["events"]:
            if "hand" in raw:
                raw["hand"] = sorted(raw["hand"])
    return out


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(PROJECTED) - 1), seed=st.integers(0, 10_000),
       seat=st.integers(0, 3))
def test_it_projects_a_full_log_as_the_seat_records_it(which: int, seed: int, seat: int) -> None:
    variant, rules = PROJECTED[which]
    full = simulate(variant, 1, seed, rules=rules)
    assert _sorted_shown(project(full, seat)) == _sorted_shown(recorded_from_seat(full, seat))


@settings(max_examples=24, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.integers(0, len(PROJECTED) - 1), seed=st.integers(0, 10_000),
       seat=st.integers(0, 3))
def test_it_validates_a_projected_log_with_the_same_settlement(which: int, seed: int,
                                                                seat: int) -> None:
    variant, rules = PROJECTED[which]
    _validates_as_the_full_log(simulate(variant, 2, seed, rules=rules), seat)


# Seat views the first, greedy filling refused although their hands were legal: a passed
# set that had to be one suit (SC-H1), tiles a winner later laid down, or a white drawn
# during Putian's opening pass laid out before its time (PT-3.1).
REFUSED_ONCE = [
    ("sichuan", {"exchange_three": True}, 3, 0),
    ("sichuan", {"exchange_three": True}, 25, 0),
    ("sichuan", {"exchange_three": True}, 26, 2),
    ("sichuan", {"exchange_three": True}, 35, 1),
    ("sichuan", {"exchange_three": True, "blood_flow": True}, 2, 2),
    ("sichuan", {"exchange_three": True, "blood_flow": True}, 26, 0),
    ("putian", {}, 10, 1),
    ("putian", {}, 14, 3),
]


@pytest.mark.parametrize(("variant", "rules", "seed", "seat"), REFUSED_ONCE)
def test_it_validates_the_seat_views_a_greedy_filling_refused(
        variant: str, rules: dict[str, bool], seed: int, seat: int) -> None:
    _validates_as_the_full_log(simulate(variant, 1, seed, rules=rules), seat)


def test_it_validates_a_bomb_won_on_the_winners_own_draw() -> None:
    # PT-5.6: a bomb is won on the tile just drawn, left out of hu.hand like a self-draw's.
    full = simulate("putian", 1, 47, bots=("strong", "basic", "strong", "basic"))
    assert any(e.how == "bomb" for e in full.hands[0].events)
    for seat in (1, 2, 3):
        _validates_as_the_full_log(full, seat)


def test_it_tries_every_suit_of_the_unseen_passed_sets_within_its_budget() -> None:
    tried = choices(2)
    assert tried[0] == Choice() and len(tried) == FILLING_BUDGET
    assert {c.suits for c in tried} >= {(a, b) for a in range(3) for b in range(3)}
    assert len(set(tried)) == len(tried)  # no filling is replayed twice


def test_it_still_refuses_a_win_no_filling_explains() -> None:
    # Every filling within the budget is tried, and the error is still the first one's:
    # the hand, the win's event and its rule.
    document = project(simulate("sichuan", 1, 3, rules={"exchange_three": True}), 1)
    events = document["hands"][0]["events"]
    index, win = next((i, e) for i, e in enumerate(events) if e["type"] == "hu" and "hand" in e)
    win["hand"][0] = win["hand"][-1]
    error = _error(document)
    assert (error.hand, error.event, error.rule) == (1, index + 1, "SC-4.1")
    assert "can't win" in error.message


def _validates_as_the_full_log(full: MatchLog, seat: int) -> None:
    document = project(full, seat)
    seen = read_log(document)
    assert seen.view is not None and seen.view.seat == seat
    assert write_log(seen) == document  # the seat view is written back as it was
    assert [h.deltas for h in replay(seen).hands] == [h.deltas for h in replay(full).hands]
    for number, hand in enumerate(seen.hands):
        assert all(t != UNKNOWN for tiles in hand.deal for t in map(str, tiles))
        assert seen.view.hidden[number]  # the others' deals were unseen


def test_it_plays_no_alternative_on_a_filled_in_wall() -> None:
    # The annotation's "with the real wall" plays each alternative on the seat's own next
    # draws, which need the wall; a seat view has none (its unseen tiles are a filling),
    # so the column stays empty rather than showing a made-up outcome.
    from games.analysis.annotation import analyze_match

    def played_on(match: MatchLog) -> int:
        return sum(1 for hand in analyze_match(match) for d in hand.decisions
                   for a in d.to_json()["alternatives"] if a.get("counterfactual"))

    full = simulate("sichuan", 1, 5, rules={"exchange_three": True})
    seen = read_log(project(full, 2))
    assert all(hand.wall is None for hand in seen.hands)
    assert played_on(full) > 0 and played_on(seen) == 0


def _a_view(seat: int = 0) -> dict[str, Any]:
    return project(simulate("sichuan", 1, 5), seat)


def _error(document: dict[str, Any]) -> LogError:
    with pytest.raises(LogError) as caught:
        replay(read_log(document))
    return caught.value


def test_it_refuses_an_unseen_tile_in_the_recorders_own_deal() -> None:
    document = _a_view(0)
    document["hands"][0]["deal"][0][0] = "?"
    error = _error(document)
    assert error.rule == "C-1" and "in sight of the recorder" in error.message


def test_it_refuses_an_unseen_discard() -> None:
    document = _a_view(0)
    events = document["hands"][0]["events"]
    index = next(i for i, e in enumerate(events) if e["type"] == "discard")
    events[index]["tile"] = "?"
    error = _error(document)
    assert error.event == index + 1 and "in sight of the recorder" in error.message


def test_it_names_the_event_of_a_fifth_copy_seen() -> None:
    document = _a_view(0)
    events = document["hands"][0]["events"]
    mine = [t for t in document["hands"][0]["deal"][0]]
    kind = max(set(mine), key=mine.count)
    # Another player discards the recorder's most held kind again and again.
    others = [i for i, e in enumerate(events) if e["type"] == "discard" and e["actor"] != 0]
    for index in others[:5]:
        events[index]["tile"] = kind
    error = _error(document)
    assert error.event is not None and error.rule is not None
    assert error.event <= others[4] + 1


def test_it_needs_the_hand_another_winner_lays_down() -> None:
    document = _a_view(0)
    events = document["hands"][0]["events"]
    win = next(e for e in events if e["type"] == "hu" and e["actor"] != 0)
    del win["hand"]
    error = _error(document)
    assert "lays down" in error.message


def test_it_checks_a_win_against_the_hand_laid_down() -> None:
    document = _a_view(0)
    events = document["hands"][0]["events"]
    index, win = next((i, e) for i, e in enumerate(events) if e["type"] == "hu"
                      and e["actor"] != 0)
    win["hand"] = win["hand"][:-1]
    error = _error(document)
    assert error.event is not None and error.event <= index + 1


def test_it_refuses_a_view_of_no_seat() -> None:
    document = _a_view(0)
    document["view"] = {"seat": 7}
    assert _error(document).rule == "C-2"
    document["view"] = {"seat": 1, "colour": "red"}
    assert "colour" in _error(document).message


def test_it_refuses_seat_view_fields_in_a_full_log() -> None:
    document = _a_view(0)
    del document["view"]
    with pytest.raises(LogError):
        read_log(document)


def test_it_lets_the_schema_allow_unseen_tiles_only_in_a_seat_view() -> None:
    import jsonschema

    from games.records.log import schema

    validator = jsonschema.Draft202012Validator(schema())
    document = _a_view(1)
    assert list(validator.iter_errors(document)) == []
    full = copy.deepcopy(document)
    del full["view"]
    assert list(validator.iter_errors(full))  # "?" and hu.hand need the view
    document["view"] = {"seat": 4}
    assert list(validator.iter_errors(document))


@pytest.mark.parametrize("variant, seed", [("sichuan", 5), ("jiaxing", 3)])
def test_it_values_the_recorders_decisions_of_a_seat_view_without_a_wall(variant: str,
                                                                          seed: int) -> None:
    """A seat view has no wall: the tiles the values pass deals again are the variant's set
    less those used, and Sichuan's set has no honours (SC-1), so the redealt wall holds
    exactly the tiles left."""
    from games.analysis.annotation import analyze_hand
    from games.analysis.value_pass import value_hand
    from games.analysis.value_table import hidden_tiles

    match = read_seat_view(project(simulate(variant, 1, seed), 0))
    hand = match.hands[0]
    table = Replayer(match).begin(1, hand)
    others = sum(len(state.tiles()) for seat, state in enumerate(table.seats) if seat)
    assert len(hidden_tiles(table, 0)) == others + table.tiles_left
    decisions = [d.to_json() for d in analyze_hand(copy.deepcopy(table), hand.events, 1,
                                                   frozenset({0})).decisions][:4]
    valued = value_hand(Replayer(match).begin(1, hand), hand.events, 1, decisions, {0},
                        solo_samples=8, table_samples=2)
    choices = [d for d in decisions if len(d["alternatives"]) > 1]
    assert choices and len(valued["decisions"]) == len(choices)
