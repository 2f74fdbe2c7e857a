"""The advice as a player in the arena: the values pass's best choice at every decision
(issue 26; games/analysis/advice.py, docs/bots.md "The advice").

The sample counts are lowered here (the ``players`` and ``Advice`` parameters) so the
tests stay fast; the arena's figures use the pass's own counts.
"""

from __future__ import annotations

import functools
import importlib.util
import io
import json
import random
from collections.abc import Sequence
from typing import Any

import pytest

from games.analysis import advice as advice_module
from games.analysis.advice import Advice, AdviceMaker, fallback_for, players
from games.analysis.annotation import analyze_match
from games.analysis.value import ValueInputError
from games.analysis.value_pass import price_decision
from games.analysis.value_table import LogPoint
from games.bots.arena import arena, deal_wall, seat_generator
from games.bots.basic import Bot
from games.bots.simulation import play_hand, simulate
from games.commands.cli import main
from games.core.table import Action, Table
from games.records.match import Replayer
from tests.conftest import ROOT

# What is checked here (legal answers, the priced best taken, fallbacks, determinism, the
# commands) holds for any sample count: the fewest that still give each choice an interval.
SOLO = 4  # shuffles for a Monte Carlo discard (the pass uses SOLO_SAMPLES)
TABLE = 2  # redeals for a decision played out at the table (the pass uses TABLE_SAMPLES)
FAST = functools.partial(players, solo_samples=SOLO, table_samples=TABLE)


class Checked:
    """The advice seat, with every action it is shown and every answer it gives kept."""

    def __init__(self, rng: random.Random) -> None:
        self.seat = Advice(rng, solo_samples=SOLO, table_samples=TABLE)
        self.answers: list[tuple[list[Action], Action]] = []

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        action = self.seat.choose(table, actions)
        self.answers.append((list(actions), action))
        return action


def _figures(result: dict[str, Any]) -> dict[str, Any]:
    """The arena's document without the measured decision times."""
    return {**result, "levels": {name: {k: v for k, v in stats.items() if k != "decision_ms"}
                                 for name, stats in result["levels"].items()}}


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_plays_only_the_legal_actions_it_is_shown(variant: str) -> None:
    replayer, hand = deal_wall(variant, 2026, 0)
    table = replayer.begin(1, hand)
    seats = [Checked(seat_generator(2026, 0, s)) for s in range(4)]
    events = play_hand(table, seats)
    assert events[-1].type == "end"
    answers = [answer for seat in seats for answer in seat.answers]
    assert answers, "the advice seats were asked something"
    for shown, chosen in answers:
        assert any(chosen is action for action in shown), (chosen, shown)
    assert sum(seat.seat.advised for seat in seats) > 0, "the pass priced some decisions"


def _discard_positions(match: Any, count: int) -> list[tuple[int, dict[str, Any]]]:
    """Logged turns where the seat chose among discards only (the solo model's case)."""
    found = []
    for analysed in analyze_match(match):
        for decision in analysed.to_json()["decisions"]:
            kinds = {alt["action"]["type"] for alt in decision["alternatives"]}
            if decision["kind"] == "turn" and kinds == {"discard"} \
                    and len(decision["alternatives"]) > 3:
                found.append((analysed.number, decision))
    return found[3:3 + count]  # past the first turns, where hands are still far


@pytest.mark.parametrize("variant", ["putian", "sichuan"])
def test_it_takes_the_priced_best_at_a_discard(variant: str) -> None:
    match = simulate(variant, 1, 4)
    positions = _discard_positions(match, 3)
    assert positions
    for number, decision in positions:
        replayer = Replayer(match)
        table = replayer.begin(number, match.hands[number - 1])
        for event in match.hands[number - 1].events[:decision["event"] - 1]:
            table.apply(event)
        seat = decision["seat"]
        actions = [a for a in table.legal_actions() if a.seat == seat]
        player = Advice(random.Random(9), solo_samples=SOLO, table_samples=TABLE)
        chosen = player.choose(table, actions)
        own_seed = (player.seed * 1_000_003 + decision["event"] * 7 + seat) % 2**31
        point = LogPoint.at(match, number, decision["event"], seat)
        valued = price_decision(point, decision, SOLO, TABLE, own_seed)
        assert valued is not None and valued["model"] == "solo"
        best = decision["alternatives"][valued["best"]]["action"]
        assert chosen.event.type == "discard"
        assert str(chosen.event.tile) == best["tile"]
        assert player.advised == 1 and player.fell_back == 0


@pytest.mark.parametrize("trouble", ["none", "refused"])
def test_it_falls_back_where_the_pass_gives_no_value(
        monkeypatch: pytest.MonkeyPatch, trouble: str) -> None:
    def nothing(*args: Any) -> dict[str, Any] | None:
        if trouble == "refused":
            raise ValueInputError("draws_left must be from 0 to 40, not 41")
        return None

    monkeypatch.setattr(advice_module, "price_decision", nothing)
    # With no value anywhere the advice plays its fallback in every seat with the same
    # generator, so it plays the baseline itself: the difference is exactly 0.
    result = arena("putian", "advice", "basic", walls=2, seed=3, jobs=1, makers=FAST())
    assert result["difference"] == {"mean": 0.0, "low": 0.0, "high": 0.0, "sd": 0.0}
    replayer, hand = deal_wall("putian", 3, 0)
    player = Advice(seat_generator(3, 0, 0))
    play_hand(replayer.begin(1, hand),
              [player, *(Bot(seat_generator(3, 0, s)) for s in (1, 2, 3))])
    assert player.fell_back > 0 and player.advised == 0


def test_it_is_deterministic() -> None:
    one = arena("sichuan", "advice", "basic", walls=1, seed=7, jobs=1, makers=FAST())
    two = arena("sichuan", "advice", "basic", walls=1, seed=7, jobs=1, makers=FAST())
    assert _figures(one) == _figures(two)
    assert one["levels"]["advice"]["hands"] == 4


def test_it_falls_back_on_the_level_it_is_measured_against() -> None:
    assert fallback_for("advice", "basic") == "basic"
    assert players("basic")["advice"] == AdviceMaker("basic")
    with pytest.raises(ValueError, match="no level named 'grandmaster' to fall back on"):
        players("grandmaster")


def test_it_plays_in_the_arena_command(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(advice_module, "players", FAST)
    out = io.StringIO()
    status = main(["arena", "--variant", "sichuan", "--bots", "advice", "basic",
                   "--walls", "2", "--seed", "2026", "--jobs", "2"], stdout=out)
    assert status == 0, out.getvalue()
    result = json.loads(out.getvalue())
    assert result["bots"] == ["advice", "basic"]
    assert result["walls"] == 2 and result["levels"]["advice"]["hands"] == 8


def test_it_plays_in_the_ladder(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = importlib.util.spec_from_file_location("bot_ladder", ROOT / "tools" / "bot_ladder.py")
    assert spec is not None and spec.loader is not None
    ladder_module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(ladder_module)
    monkeypatch.setattr(ladder_module, "players", FAST)
    document = ladder_module.ladder([("advice", "basic")], ["putian"], 1, 2026, 1, "test")
    assert [r["bots"] for r in document["variants"]["putian"]] == [["advice", "basic"]]
    assert "| putian | advice against basic | 1 |" in ladder_module.markdown(document)
