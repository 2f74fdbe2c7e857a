"""Danger per tile (games.bots.danger) and ``python -m games danger`` (issue 26)."""

from __future__ import annotations

import io
import json
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path

from games.bots import danger
from games.bots.simulation import simulate
from games.commands.cli import main
from games.core.table import Phase, Table
from games.records.log import MatchLog, dumps
from games.records.match import Replayer


@cache
def _match(variant: str, seed: int, hands: int = 6) -> MatchLog:
    return simulate(variant, hands=hands, seed=seed)


def _turns(match: MatchLog) -> Iterator[tuple[int, int, Table]]:
    """Every discard point of the match: (hand, event, the table just before it)."""
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        for index, event in enumerate(hand.events, start=1):
            if event.type == "end":
                table.finish(event.reason or "win")
                break
            if event.type == "discard" and table.phase is Phase.TURN:
                yield number, index, table
            table.apply(event)
        replayer.conclude(number, hand, table, hand.events[-1].reason or "win")


def test_it_finds_a_declared_putian_seats_waits_dangerous_and_its_locked_discards_safe() -> None:
    waits_seen: list[float] = []
    others: list[float] = []
    locked_checked = 0
    for seed in (1, 2, 3, 4):
        for _, _, table in _turns(_match("putian", seed)):
            seat = table.turn
            for opponent in range(4):
                state = table.seats[opponent]
                if opponent == seat or not state.ready:
                    continue
                reading = danger.tile_danger(table, seat)
                assert reading.ready[opponent] == 1.0  # PT-5.3: declared
                waits = danger.true_waits(table, opponent)
                for kind in reading.held:
                    (waits_seen if kind in waits else others).append(
                        reading.chance(kind, opponent))
                assert state.locked_from is not None
                for tile, _claimed in state.river[state.locked_from:]:
                    # drawn under the lock and not a win: no wait (PT-5.3)
                    assert danger.wait_shares(table, seat, opponent)[tile.kind] == 0.0
                    if tile.kind in reading.held:
                        assert reading.chance(tile.kind, opponent) == 0.0
                    locked_checked += 1
    assert len(waits_seen) >= 10 and locked_checked >= 10
    mean_waits = sum(waits_seen) / len(waits_seen)
    mean_others = sum(others) / len(others)
    # A declared hand with golds waits wide (PT-2), so the model separates its waits from
    # the rest only so far; the locked discards above are the sharp part.
    assert mean_waits > 0.1
    assert mean_waits > 1.1 * mean_others


def test_it_reads_a_kind_with_no_unseen_copies_nearby_as_no_wait() -> None:
    # 1m with no 1m, 2m or 3m left unseen: no single, pair, edge, gap or two-sided wait
    # and no wildcard beside a tile can be waiting on it (every copy seen, C-1).
    pool = [2] * 34
    pool[0] = pool[1] = pool[2] = 0
    allowed = [True] * 27 + [False] * 7
    shares = danger.shares_of(pool, allowed, thrown=[0] * 34, no_wait=[False] * 34,
                              wild_unseen=0, wild_total=0)
    assert shares[0] == 0.0
    assert shares[4] > 0.0


def test_it_never_finds_danger_in_a_sichuan_opponents_void_suit() -> None:
    checked = 0
    for _, _, table in _turns(_match("sichuan", 5)):
        seat = table.turn
        reading = danger.tile_danger(table, seat)
        for opponent in reading.opponents():
            void = table.seats[opponent].void
            if void is None or table.seats[opponent].out:
                continue
            for kind in range(void * 9, void * 9 + 9):
                assert reading.chance(kind, opponent) == 0.0  # SC-2, SC-4.2
                checked += 1
    assert checked > 100


def test_it_answers_zero_with_the_rule_where_no_discard_wins() -> None:
    for _, _, table in list(_turns(_match("jiaxing", 2, hands=1)))[:20]:
        reading = danger.tile_danger(table, table.turn)
        assert reading.rule == "JX-5.1"
        assert all(reading.total(kind) == 0.0 for kind in reading.held)
        assert reading.to_json()["rule"] == "JX-5.1"


def test_it_gives_winners_already_out_no_danger() -> None:
    out_seen = 0
    for _, _, table in _turns(_match("sichuan", 7)):
        reading = danger.tile_danger(table, table.turn)
        for opponent in reading.opponents():
            if table.seats[opponent].won:  # SC-3.2: out of the hand
                assert all(reading.chance(k, opponent) == 0.0 for k in range(34))
                out_seen += 1
    assert out_seen > 0


def test_it_is_deterministic() -> None:
    points = list(_turns(_match("sichuan", 3, hands=1)))
    _, _, table = points[len(points) // 2]
    assert danger.tile_danger(table, table.turn) == danger.tile_danger(table, table.turn)
    first = danger.tile_danger(table, table.turn, rng=random.Random(9), samples=40)
    again = danger.tile_danger(table, table.turn, rng=random.Random(9), samples=40)
    assert first == again
    assert first.samples == 40


def _cli(tmp_path: Path, *args: str) -> tuple[int, dict[str, object]]:
    path = tmp_path / "match.json"
    if not path.exists():
        path.write_text(dumps(_match("sichuan", 4, hands=2)), encoding="utf-8")
    out = io.StringIO()
    status = main(["danger", str(path), *args], stdout=out)
    return status, json.loads(out.getvalue())


def test_it_prints_each_held_tile_with_its_chance_per_opponent(tmp_path: Path) -> None:
    status, answer = _cli(tmp_path, "--hand", "1", "--event", "40", "--samples", "0")
    assert status == 0 and answer["ok"] is True
    tiles = answer["tiles"]
    assert isinstance(tiles, list) and tiles
    seat = answer["seat"]
    for row in tiles:
        assert set(row["by_seat"]) == {str(s) for s in range(4) if s != seat}
        assert 0.0 <= row["total"] <= 1.0


def test_it_names_the_hand_and_event_it_refuses(tmp_path: Path) -> None:
    status, answer = _cli(tmp_path, "--hand", "9", "--event", "1")
    assert status == 1
    assert answer["error"] == {"hand": 9, "event": None, "rule": None,
                               "message": "the log has hands 1 to 2"}
    status, answer = _cli(tmp_path, "--hand", "1", "--event", "99999")
    assert status == 1
    error = answer["error"]
    assert isinstance(error, dict) and error["event"] == 99999
    assert "events 1 to" in str(error["message"])
    status, answer = _cli(tmp_path, "--hand", "1", "--event", "3", "--seat", "4")
    assert status == 1 and "C-2" in json.dumps(answer)
    status, answer = _cli(tmp_path, "--hand", "1", "--event", "3", "--samples", "-1")
    assert status == 1 and "--samples" in json.dumps(answer)


def test_it_reads_standard_input_and_refuses_what_is_not_json() -> None:
    out = io.StringIO()
    status = main(["danger", "-", "--hand", "1", "--event", "2"], stdin=io.StringIO("{"),
                  stdout=out)
    assert status == 1
    assert "not" in json.loads(out.getvalue())["error"]["message"]
