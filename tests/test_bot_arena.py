"""The duplicate arena, per-seat choices at a discard, ``simulate --bots`` (issue 26)."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import pytest

from games.bots import levels
from games.bots.arena import arena, level_makers
from games.bots.basic import Bot
from games.bots.claims import passing_action, resolve_claims
from games.bots.simulation import play_hand, simulate
from games.commands.cli import main
from games.core.events import Event
from games.core.table import Action, Phase, Table
from games.records.match import Replayer
from games.variants.registry import NAMES, variant_named
from tests.conftest import ROOT


class Reckless:
    """A test player: any legal action, at random (module level, so workers unpickle it)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        return self.rng.choice(list(actions))


class Watched:
    """A basic bot that records every list of actions it is shown."""

    def __init__(self, seat: int, shown: list[tuple[int, Phase, list[Action]]]) -> None:
        self.seat = seat
        self.bot = Bot(random.Random(seat))
        self.shown = shown

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        self.shown.append((self.seat, table.phase, list(actions)))
        return self.bot.choose(table, actions)


def _figures(result: dict[str, Any]) -> dict[str, Any]:
    """The arena's document without the measured decision times."""
    return {**result, "levels": {name: {k: v for k, v in stats.items() if k != "decision_ms"}
                                 for name, stats in result["levels"].items()}}


def test_it_is_deterministic_by_seed_and_the_same_for_one_or_two_jobs() -> None:
    makers = {**level_makers(), "reckless": Reckless}
    one = arena("sichuan", "reckless", "basic", walls=3, seed=11, jobs=1, makers=makers)
    two = arena("sichuan", "reckless", "basic", walls=3, seed=11, jobs=2, makers=makers)
    again = arena("sichuan", "reckless", "basic", walls=3, seed=11, jobs=1, makers=makers)
    assert _figures(one) == _figures(two) == _figures(again)
    assert one["levels"]["reckless"]["hands"] == one["levels"]["basic"]["hands"] == 12
    assert one["difference"]["sd"] > 0  # a random player is not the baseline
    other = arena("sichuan", "reckless", "basic", walls=3, seed=12, jobs=1, makers=makers)
    assert _figures(other) != _figures(one)


@pytest.mark.parametrize("variant", NAMES)
def test_it_finds_exactly_no_difference_between_a_level_and_itself(variant: str) -> None:
    result = arena(variant, "basic", "basic", walls=2, seed=3, jobs=1)
    assert result["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0, "sd": 0.0}
    assert result["format"] == "arena/1" and result["plays_per_wall"] == 5
    labels = set(variant_named(variant).ARENA_DISASTERS.values())
    assert set(result["levels"]["basic"]["disasters"]) == labels


def test_it_refuses_unknown_players_and_bad_sizes() -> None:
    with pytest.raises(ValueError, match="no player named 'grandmaster'"):
        arena("jiaxing", "grandmaster", "basic", walls=1, seed=1, jobs=1)
    with pytest.raises(ValueError, match="number of walls"):
        arena("jiaxing", "basic", "basic", walls=0, seed=1, jobs=1)
    makers = {**level_makers(), "local": lambda rng: Reckless(rng)}
    with pytest.raises(ValueError, match="player 'local' can't be sent to the worker"):
        arena("jiaxing", "local", "basic", walls=2, seed=1, jobs=2, makers=makers)
    assert arena("jiaxing", "local", "basic", walls=1, seed=1, jobs=1, makers=makers)["walls"] == 1


@pytest.mark.parametrize("variant", NAMES)
def test_it_shows_each_seat_only_its_own_actions(variant: str) -> None:
    shown: list[tuple[int, Phase, list[Action]]] = []
    seats = [Watched(s, shown) for s in range(4)]
    for seed in range(101, 105):
        match = simulate(variant, 1, seed)
        play_hand(Replayer(match).begin(1, match.hands[0]), seats)
    claims = 0
    for seat, phase, actions in shown:
        own = [a for a in actions if a.note != "pass" and a.event.type != "end"]
        assert all(a.seat == seat for a in own), (seat, actions)
        claims += phase is Phase.DISCARDED
    assert claims, "no seat was asked about a discard"


def _discarded_table(variant: str) -> Table:
    """A table of ``variant`` with a discard waiting for answers."""
    match = simulate(variant, 1, 5)
    hand = match.hands[0]
    table = Replayer(match).begin(1, hand)
    for event in hand.events:
        table.apply(event)
        if table.phase is Phase.DISCARDED:
            return table
    raise AssertionError("no discard in the hand")  # pragma: no cover


@pytest.mark.parametrize("variant", NAMES)
def test_it_resolves_answers_by_the_tables_priority(variant: str) -> None:
    table = _discarded_table(variant)
    assert table.last_discard is not None
    discarder, tile = table.last_discard
    passing = passing_action(table.legal_actions())
    first, second, third = ((discarder + step) % 4 for step in (1, 2, 3))
    win = {s: Event("hu", s, tile=tile, target=discarder) for s in range(4)}
    both = resolve_claims(table, {third: win[third], first: win[first]}, passing)
    if table.PLAY_ON:  # SC-3.1: every winner on the discard, in playing order
        assert both == [win[first], win[third]]
    else:  # PT-5.2, JX-8: the first after the discarder
        assert both == [win[first]]
    pung = Event("peng", second, tile=tile, target=discarder)
    chow = Event("chi", first, tile=tile, target=discarder)
    assert resolve_claims(table, {first: chow, second: pung}, passing) == [pung]
    assert resolve_claims(table, {second: pung, third: win[third]}, passing) == [win[third]]
    assert resolve_claims(table, {}, passing) == [passing.event]


def test_it_lets_two_seats_win_on_one_discard_in_play_on() -> None:
    match = simulate("sichuan", 40, 5)
    doubles = 0
    for hand in match.hands:
        events = hand.events
        for before, after in zip(events, events[1:], strict=False):
            if (before.type == after.type == "hu" and before.target is not None
                    and before.target == after.target and before.tile == after.tile):
                doubles += 1
    assert doubles >= 1


def test_it_refuses_bad_bots_in_simulate() -> None:
    with pytest.raises(ValueError, match="got 2"):
        simulate("sichuan", 1, 1, bots=("basic", "basic"))
    with pytest.raises(ValueError, match="no level named 'nobody'"):
        simulate("sichuan", 1, 1, bots=("basic", "nobody", "basic", "basic"))
    for bots, message in (("basic,basic", "got 2"), ("nobody", "no level named 'nobody'")):
        out = io.StringIO()
        code = main(["simulate", "--variant", "putian", "--hands", "1", "--bots", bots],
                    io.StringIO(), out)
        assert code == 2
        assert message in json.loads(out.getvalue())["error"]


def test_it_deals_the_same_walls_whatever_the_bots(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(levels.LEVELS, "reckless",
                        levels.Level("reckless", "any legal action", Reckless))
    calm = simulate("sichuan", 3, 1, wall_seed=9)
    wild = simulate("sichuan", 3, 2, wall_seed=9, bots=("reckless", "basic", "reckless", "basic"))
    assert [h.events for h in calm.hands] != [h.events for h in wild.hands]
    for mine, theirs in zip(calm.hands, wild.hands, strict=True):
        assert (mine.dealer, mine.deal, mine.wall, mine.dice) == (
            theirs.dealer, theirs.deal, theirs.wall, theirs.dice)


def test_it_runs_the_arena_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--variant", "putian", "--bots", "basic", "basic", "--walls", "2",
                 "--seed", "4", "--jobs", "1"])
    captured = capsys.readouterr()
    result = json.loads(captured.out)
    assert code == 0
    assert result["format"] == "arena/1" and result["bots"] == ["basic", "basic"]
    assert "points a hand on the same wall and seat" in captured.err
    code = main(["arena", "--variant", "putian", "--bots", "basic", "nobody", "--walls", "2"])
    assert code == 2
    assert "no player named 'nobody'" in json.loads(capsys.readouterr().out)["error"]


def test_it_writes_the_ladder(tmp_path: Any) -> None:
    out = tmp_path / "ladder.json"
    done = subprocess.run([sys.executable, "tools/bot_ladder.py", "--pairs", "basic:basic",
                           "--walls", "1", "--jobs", "1", "--variants", "putian",
                           "--out", str(out)], capture_output=True, text=True, cwd=ROOT,
                          check=False)
    assert done.returncode == 0, done.stderr
    ladder = json.loads(out.read_text(encoding="utf-8"))
    assert ladder["format"] == "ladder/1"
    assert [r["bots"] for r in ladder["variants"]["putian"]] == [["basic", "basic"]]
    assert "| putian | basic against basic | 1 |" in done.stdout
    assert levels.published_ladder()["format"] == "ladder/1"
