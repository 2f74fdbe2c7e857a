"""Sichuan house rules in the analysis and the puzzles (issue 29): the 换三张 choice is a
decision valued at the table (SC-H1), a 血流成河 hand values without error and shows no
decision where a locked hand's discard is decided for it (SC-H2), and pay puzzles under
the house rules (SC-H3 呼叫转移, SC-H4–H8) are answered by the engine itself."""

from __future__ import annotations

import random
import re
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from games.analysis.annotation import analyze_match
from games.analysis.ranking import places, value_key
from games.analysis.value_pass import value_hand
from games.analysis.value_table import redeal
from games.bots.simulation import simulate
from games.records.match import Replayer
from games.training import exchange_puzzles, pay_puzzles, themes
from games.training.puzzles import PuzzleError
from games.variants.positions import read_position
from games.variants.registry import variant_named
from replays.models import Attempt, Puzzle
from replays.puzzles import services as puzzles

from .test_puzzle_site import HTMX, page, text_of

PRESETS = variant_named("sichuan").PRESETS


def _valued(preset: str, seed: int, kinds: set[str] | None = None
            ) -> tuple[Any, list[dict[str, Any]], list[dict[str, Any]]]:
    """A one-hand bot match under a preset, its annotated decisions and their values."""
    match = simulate("sichuan", 1, seed, rules=PRESETS[preset].rules)
    decisions = [d.to_json() for d in analyze_match(match)[0].decisions]
    wanted = [d for d in decisions if kinds is None or d["kind"] in kinds]
    table = Replayer(match).begin(1, match.hands[0])
    valued = value_hand(table, match.hands[0].events, 1, wanted, {0, 1, 2, 3}, seed=1,
                        solo_samples=10, table_samples=4)
    return match, decisions, valued["decisions"]


def test_it_values_the_exchange_of_every_seat_with_its_best_choice_ranked_first_sc_h1() -> None:
    _match, decisions, valued = _valued("chengdu", 1, {"exchange"})
    exchanges = [d for d in decisions if d["kind"] == "exchange"]
    assert sorted(d["seat"] for d in exchanges) == [0, 1, 2, 3]
    for decision in exchanges:
        chosen = decision["alternatives"][decision["actual"]]["action"]
        assert chosen["type"] == "exchange" and len(chosen["tiles"]) == 3
        assert len({t[-1] for t in chosen["tiles"]}) == 1  # three of one suit
        assert len(decision["alternatives"]) > 1
    assert sorted(v["seat"] for v in valued) == [0, 1, 2, 3]
    for values in valued:
        assert values["model"] == "table"
        rows = values["alternatives"]
        alternatives = exchanges[[d["event"] for d in exchanges].index(values["event"])][
            "alternatives"]
        keys = [value_key(r["expected_points"], r["win_probability"],
                          alternatives[r["index"]]["rank"]) for r in rows]
        ranks = dict(zip((r["index"] for r in rows), places(keys), strict=True))
        if values["best"] is not None:
            assert ranks[values["best"]] == 1
            assert rows[0]["index"] == values["best"] and rows[0]["severity"] == "none"
        assert values["best_taken"] == (ranks[values["actual"]] == 1
                                        and values["best"] is not None)


def test_it_values_a_blood_flow_hand_with_no_decision_at_a_locked_discard_sc_h2() -> None:
    match, decisions, valued = _valued("blood_flow", 2)
    assert valued and any(v["kind"] == "exchange" for v in valued)
    at = {(d["event"], d["seat"]) for d in decisions if d["kind"] == "turn"}
    table = Replayer(match).begin(1, match.hands[0])
    locked = 0
    for index, event in enumerate(match.hands[0].events, start=1):
        if event.type == "end":
            break
        if event.type == "discard" and table.hand_locked(event.actor):
            locked += 1
            assert (index, event.actor) not in at, index
        table.apply(event)
    assert locked > 0  # the hand had locked discards to leave out
    assert all(v["best"] is None or v["best"] in {r["index"] for r in v["alternatives"]}
               for v in valued)


def test_it_redeals_the_passed_tiles_into_the_receivers_hand_and_others_sets_anew_sc_h1(
        ) -> None:
    """The value pass's redeal keeps what the seat knows: the three it passed on are in
    the receiver's hand until seen leaving it; what others set aside, still face down, is
    dealt again with the unseen tiles (never the tiles the seat will really receive)."""
    match = simulate("sichuan", 1, 11, rules=PRESETS["chengdu"].rules)
    table = Replayer(match).begin(1, match.hands[0])
    kept = asides = 0
    for index, event in enumerate(match.hands[0].events, start=1):
        if event.type == "end":
            break
        for seat in range(4):
            dealt = redeal(table, seat, random.Random(index))
            assert [s.size for s in dealt.seats] == [s.size for s in table.seats]
            assert dealt.tiles_left == table.tiles_left
            for other, tiles in table.known_held(seat).items():
                for kind, count in Counter(t.kind for t in tiles).items():
                    assert dealt.seats[other].hand[kind] >= count
                kept += len(tiles)
            for other, tiles in dealt.set_aside().items():
                assert len(tiles) == 3 and len({t.kind // 9 for t in tiles}) == 1
                asides += other != seat
        table.apply(event)
    assert kept > 0 and asides > 0


def _house_scored(spot: pay_puzzles.WinSpot) -> bool:
    return "house_scoring" in themes.themes_of(spot.puzzle["position"], spot.answer, "pay")


def test_it_makes_pay_puzzles_under_chengdu_rules_the_engine_agrees_with_sc_h4_h8() -> None:
    rules = PRESETS["chengdu"].rules
    puzzle = pay_puzzles.generate("sichuan", 3, "house", rules=rules, wanted=_house_scored)
    answer = pay_puzzles.solve(puzzle)  # raises when score and table disagree
    assert puzzle["source"]["rules"] == rules
    position = read_position(puzzle["position"])
    assert position.variant.score(position).to_json() == answer["score"]
    assert "house_scoring" in themes.themes_of(puzzle["position"], answer, "pay")
    ids = {p["id"] for p in answer["score"]["patterns"]}
    assert ids & set(themes.HOUSE_SCORING), ids  # the answer names the rule ids
    assert pay_puzzles.check(answer, answer["values"], answer["collects"], 3).solved


def test_it_makes_call_transfer_pay_puzzles_the_engine_agrees_with_sc_h3() -> None:
    rules = {**PRESETS["chengdu"].rules, "call_transfer": True}
    puzzle = pay_puzzles.generate("sichuan", 2, "transfer", rules=rules,
                                  wanted=lambda spot: "SC-H3" in spot.answer["rules"])
    answer = pay_puzzles.solve(puzzle)
    assert "SC-H3" in answer["rules"]
    assert "call_transfer" in themes.themes_of(puzzle["position"], answer, "pay")
    transfer = [line for line in answer["lines"] if line["rule"] == "SC-H3"]
    assert transfer and all(line["cause"] == "call_transfer" for line in transfer)
    assert answer["collects"] >= sum(line["amount"] for line in transfer)


def test_it_makes_which_three_to_pass_puzzles_the_engine_agrees_with_sc_h1() -> None:
    for difficulty in (1, 2, 3):
        puzzle, answer = exchange_puzzles.generate("sichuan", difficulty, "house")
        assert (puzzle, answer) == exchange_puzzles.generate("sichuan", difficulty, "house")
        assert exchange_puzzles.solve(puzzle["position"]) == answer
        assert exchange_puzzles.difficulty_of(answer) == difficulty
        assert answer["rule"] == "SC-H1" and "SC-H1" in answer["rules"]
        best_suits = {row["suit"] for row in answer["choices"] if row["tiles"] in answer["best"]}
        assert len(best_suits) == 1
        other = next(r for r in answer["choices"] if r["suit"] not in best_suits)
        assert exchange_puzzles.check(answer, answer["best"][0], difficulty).solved
        assert not exchange_puzzles.check(answer, other["tiles"], difficulty).solved
        assert "exchange_three" in themes.themes_of(puzzle["position"], answer, "exchange")
        assert "exchange_three" not in themes.themes_of(puzzle["position"], answer, "pay")


def test_it_measures_the_sets_to_pass_as_the_annotation_ranks_them_sc_h1() -> None:
    match = simulate("sichuan", 1, 3, rules=PRESETS["chengdu"].rules)
    decisions = [d.to_json() for d in analyze_match(match)[0].decisions
                 if d.kind == "exchange"]
    positions = {(event, seat): data for _h, event, seat, data
                 in exchange_puzzles.exchange_positions(match)}
    assert len(decisions) == len(positions) == 4
    for decision in decisions:
        answer = exchange_puzzles.solve(positions[decision["event"], decision["seat"]])
        measured = {row["tiles"]: (row["shanten"], row["accepted"]) for row in answer["choices"]}
        for alternative in decision["alternatives"]:
            tiles = " ".join(alternative["action"]["tiles"])
            assert measured[tiles] == (alternative["shanten"], alternative["accepted_count"])
            assert (alternative["rank"] == 1) == (tiles in answer["best"])


# -- the site ------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
def test_it_asks_which_three_to_pass_on_the_site_and_marks_the_engines_answer_sc_h1(
        client: Client) -> None:
    puzzle = puzzles.generated_puzzle("sichuan", 2, "site", Puzzle.Kind.EXCHANGE)
    assert puzzle.kind == "exchange" and "exchange_three" in puzzle.themes
    markup = page(client.get(puzzle.get_absolute_url()))
    assert "Which three to pass?" in text_of(markup) and "SC-H1" in markup
    offered = set(re.findall(r'<input type="radio" name="tiles" value="([^"]+)"', markup))
    assert offered == {row["tiles"] for row in puzzle.answer["choices"]}
    refused = client.post(f"/puzzles/{puzzle.public_id}/answer/", {"tiles": "1z 1z 1z"},
                          headers=HTMX)
    assert refused.status_code == 400 and "SC-H1" in refused.content.decode()
    markup = page(client.post(f"/puzzles/{puzzle.public_id}/answer/",
                              {"tiles": puzzle.answer["best"][0]}, headers=HTMX))
    assert "Solved!" in markup and "exchange-table" in markup and "SC-2" in markup
    assert Attempt.objects.get(puzzle=puzzle).points == 20
    hub = page(client.get("/puzzles/train/?kind=exchange"))
    assert "换三张" in hub  # the theme is listed once a puzzle carries it


@pytest.mark.django_db
def test_it_generates_a_house_scoring_pay_puzzle_for_its_theme_under_the_house_rules() -> None:
    made = puzzles.generated_puzzle("sichuan", 3, "house", Puzzle.Kind.PAY, "house_scoring")
    assert "house_scoring" in made.themes and made.seed.endswith("/house_scoring")
    assert made.position["source"]["rules"]["concealed_middle"] is True
    assert pay_puzzles.solve(made.position) == made.answer
    with pytest.raises(PuzzleError, match="SC-H3"):
        puzzles.generated_puzzle("jiaxing", 2, "x", Puzzle.Kind.PAY, "call_transfer")
