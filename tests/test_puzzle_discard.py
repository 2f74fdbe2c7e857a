"""'What to discard?' puzzles (docs/puzzles.md): a hand a tile too many where the values
say one discard is clearly best (its advantage's paired interval excludes zero and the
runner-up's loss is big); the player picks a tile; the answer shows every valued
discard's win chance and expected points. Generated ones are valued again with
``solo_values`` and compared; harvested ones come from a replay's values pass.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client, override_settings

from games.analysis.annotation import analyze_hand
from games.analysis.value import solo_values
from games.analysis.value_pass import BIG, severity, value_hand
from games.bots.simulation import simulate
from games.core.tiles import Tile
from games.records.match import Replayer
from games.training import discard_puzzles
from games.training.themes import themes_of
from games.variants.positions import read_position
from replays.matches.services import store_document
from replays.models import Attempt, Match, Puzzle, RatingChange
from replays.puzzles import services as puzzles

from .conftest import bot_document
from .test_puzzle_modes import run_fields
from .test_puzzle_site import HTMX, logged_in, page, text_of

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
NAMES = ("jiaxing", "putian", "sichuan")


def assert_clear(answer: dict[str, Any]) -> None:
    """One discard clearly best: the most expected points, every other loss's interval
    above zero, the runner-up's loss big (docs/analysis.md)."""
    choices = answer["choices"]
    best, runner_up = choices[0], choices[1]
    assert best["tile"] == answer["best"] and best["best"] and runner_up["tile"] == answer[
        "runner_up"]
    assert all(best["expected_points"] >= c["expected_points"] for c in choices)
    assert all(c["loss_ci95"][0] > 0 for c in choices[1:])
    assert severity(runner_up["loss"], answer["unit"], tuple(runner_up["loss_ci95"])) == "big"
    assert runner_up["loss"] >= BIG * answer["unit"]
    for choice in choices:
        assert abs(choice["loss"] - (best["expected_points"] - choice["expected_points"])) < 1e-3


# -- the engine ------------------------------------------------------------------------


@pytest.mark.parametrize(("variant", "seeds"), [("jiaxing", 8), ("putian", 1), ("sichuan", 8)])
def test_it_stores_what_the_solo_values_say_for_generated_puzzles(variant: str,
                                                                  seeds: int) -> None:
    for seed in range(seeds):
        for difficulty in (1, 2, 3):
            data, answer = discard_puzzles.generate(variant, difficulty, f"t{seed}")
            position = read_position(data)
            assert len(position.hand) == position.variant.concealed_size(position)
            assert_clear(answer)
            tiles = {Tile.parse(c["tile"]) for c in answer["choices"]}
            assert tiles <= set(position.hand)
            valuation = solo_values(position, answer["draws"], discard_puzzles.SAMPLES,
                                    answer["seed"], only=tiles)
            fresh = {str(c.discard): c for c in valuation.choices}
            for choice in answer["choices"]:
                again = fresh[choice["tile"]]
                assert round(again.win_probability, 4) == choice["win_probability"]
                assert round(again.expected_points, 4) == choice["expected_points"]
                assert again.exact == choice["exact"]
            assert discard_puzzles.revalued(data, answer) == answer
            assert discard_puzzles.difficulty_of(answer) in (1, 2, 3)


@pytest.mark.parametrize("variant", ["jiaxing", "sichuan"])
def test_it_finds_every_difficulty(variant: str) -> None:
    for difficulty in (1, 2, 3):
        _data, answer = discard_puzzles.generate(variant, difficulty, "levels")
        assert discard_puzzles.difficulty_of(answer) == difficulty
        share = answer["runner_up_loss"] / answer["unit"]
        assert share >= {1: 0.5, 2: 0.25, 3: BIG}[difficulty]


def test_it_makes_the_same_puzzle_from_the_same_seed() -> None:
    assert discard_puzzles.generate("sichuan", 2, "same") == discard_puzzles.generate(
        "sichuan", 2, "same")


def test_it_marks_only_the_best_discard_right() -> None:
    _data, answer = discard_puzzles.generate("jiaxing", 2, "marks")
    assert discard_puzzles.check(answer, answer["best"], 2).points == 20
    verdict = discard_puzzles.check(answer, answer["runner_up"], 2)
    assert not verdict.solved and verdict.points == 0 and verdict.missed == (answer["best"],)


def _valued_match(seed: int) -> tuple[Any, dict[tuple[int, int, int], Any], list[Any]]:
    match = simulate("sichuan", 1, seed)
    hand = match.hands[0]
    decisions = analyze_hand(Replayer(match).begin(1, hand), hand.events, 1).to_json()[
        "decisions"]
    values = value_hand(Replayer(match).begin(1, hand), hand.events, 1, decisions, {0, 1, 2, 3},
                        seed=seed, solo_samples=40, table_samples=4)
    by_key = {(d["event"], d["seat"]): d for d in decisions}
    valued = {(1, d["event"], d["seat"]): (d, by_key[(d["event"], d["seat"])]["alternatives"])
              for d in values["decisions"]}
    return match, valued, values["decisions"]


def test_it_keeps_the_values_passs_clearly_best_discards_and_no_others() -> None:
    match, valued, decisions = _valued_match(2)
    spots = {(s.hand, s.event, s.seat): s for s in discard_puzzles.discard_spots(match, valued)}
    assert spots, "a Sichuan bot hand has clearly best discards"
    for key, (decision, alternatives) in valued.items():
        rows = decision["alternatives"]
        clear = (decision["model"] == "solo" and len(rows) > 1
                 and all(r["loss_ci95"][0] > 0 for r in rows[1:])
                 and rows[1]["severity"] == "big")
        assert (key in spots) == clear, key
        if not clear:
            continue
        spot = spots[key]
        assert_clear(spot.answer)
        assert [c["tile"] for c in spot.answer["choices"]] == [
            alternatives[r["index"]]["action"]["tile"] for r in rows]
        assert [c["expected_points"] for c in spot.answer["choices"]] == [
            r["expected_points"] for r in rows]
        position = read_position(spot.position)
        assert position.seat == key[2]
        exact = {Tile.parse(c["tile"]) for c in spot.answer["choices"] if c["exact"]}
        if exact:  # the position and draws as the values pass saw them: exact rows agree
            fresh = solo_values(position, spot.answer["draws"], 40, 0, only=exact)
            for choice in fresh.choices:
                stored = next(c for c in spot.answer["choices"]
                              if c["tile"] == str(choice.discard))
                assert round(choice.expected_points, 4) == stored["expected_points"]
    assert len(decisions) >= len(spots)


def test_it_tags_a_slower_discard_worth_more() -> None:
    for seed in range(6):
        data, answer = discard_puzzles.generate("sichuan", 3, f"speed{seed}")
        tags = themes_of(data, answer, "discard")
        fastest = max(c["win_probability"] for c in answer["choices"])
        assert ("value_over_speed" in tags) == (
            answer["choices"][0]["win_probability"] < fastest)
        assert not {"many_waits", "value_choice", "contract"} & set(tags)


# -- the site --------------------------------------------------------------------------


@pytest.fixture
def discard(db: None) -> dict[str, Puzzle]:
    return {variant: puzzles.generated_puzzle(variant, 2, "site", Puzzle.Kind.DISCARD)
            for variant in ("jiaxing", "sichuan")}


def test_it_asks_for_one_tile_of_the_hand_and_answers_with_every_value(
        client: Client, discard: dict[str, Puzzle]) -> None:
    for puzzle in discard.values():
        markup = page(client.get(puzzle.get_absolute_url()))
        assert "What to discard?" in text_of(markup)
        choices = set(re.findall(r'<input type="radio" name="tile" value="([^"]+)"', markup))
        assert choices == {str(t) for t in read_position(puzzle.position).hand}
        assert "discard-table" not in markup
        markup = page(client.post(f"/puzzles/{puzzle.public_id}/answer/",
                                  {"tile": puzzle.answer["best"]}, headers=HTMX))
        assert "Solved!" in markup
        table = re.search(r'<table class="waits-table discard-table">(.*?)</table>', markup,
                          re.S)
        assert table
        shown = re.findall(r'<tr class="[^"]*">\s*<td><span class="tiles"><span class="tile"'
                           r'[^>]*data-tile="([^"]+)"', table.group(1))
        assert shown == [c["tile"] for c in puzzle.answer["choices"]]
        for choice in puzzle.answer["choices"]:
            assert f"{round(100 * choice['win_probability'], 1)}%" in table.group(1)
        assert Attempt.objects.get(puzzle=puzzle).points == 20


def test_it_refuses_a_tile_not_in_the_hand(client: Client, discard: dict[str, Puzzle]) -> None:
    puzzle = discard["sichuan"]
    held = {str(t) for t in read_position(puzzle.position).hand}
    other = next(code for code in ("1z", "5z", "9s", "9m") if code not in held)
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", {"tile": other},
                           headers=HTMX)
    assert response.status_code == 400 and "is not a tile of this hand" in text_of(
        response.content.decode())
    response = client.post(f"/puzzles/{puzzle.public_id}/answer/", {}, headers=HTMX)
    assert response.status_code == 400
    assert not Attempt.objects.filter(puzzle=puzzle).exists()


def test_it_rates_a_first_answer_and_serves_discards_in_training(
        alice: Any, discard: dict[str, Puzzle]) -> None:
    client = logged_in(alice)
    puzzle = discard["jiaxing"]
    client.post(f"/puzzles/{puzzle.public_id}/answer/", {"tile": puzzle.answer["runner_up"]})
    attempt = Attempt.objects.get(puzzle=puzzle, user=alice)
    assert not attempt.solved and RatingChange.objects.filter(attempt=attempt).exists()
    markup = page(client.get("/puzzles/train/rated/?kind=discard&variant=sichuan", follow=True))
    found = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"', markup).group(1))
    assert found.kind == "discard"
    response = client.post("/puzzles/train/start/", {"mode": "timed", "kind": "discard"})
    markup = page(client.get(response["Location"], follow=True))
    current = Puzzle.objects.get(public_id=re.search(r'data-puzzle="([^"]+)"', markup).group(1))
    assert current.kind == "discard"
    retry = page(client.post(f"/puzzles/train/missed/{puzzle.public_id}/",
                             {"tile": puzzle.answer["best"]}, headers=HTMX))
    assert "Solved!" in retry


def test_it_shows_the_last_discard_verdict_when_a_streak_ends(
        client: Client, discard: dict[str, Puzzle]) -> None:
    """The streak's end page (no current puzzle) words the missed discard puzzle as a
    discard puzzle: the tile discarded and the best one, with the values table."""
    response = client.post("/puzzles/train/start/", {"mode": "streak", "kind": "discard",
                                                     "variant": "jiaxing"})
    url = response["Location"]
    markup = page(client.get(url, follow=True))
    found = re.search(r'data-puzzle="([^"]+)"', markup)
    assert found
    puzzle = Puzzle.objects.get(public_id=found.group(1))
    assert puzzle.kind == "discard"
    client.post(url + "answer/", {"tile": puzzle.answer["runner_up"], **run_fields(markup)})
    shown = text_of(page(client.get(url, follow=True)))
    assert "Streak over: 0 puzzles solved." in shown
    assert "Your discard" in shown and "Best discard" in shown
    assert "Best wait" not in shown and "Every winning tile" not in shown
    assert '<table class="waits-table discard-table">' in page(client.get(url, follow=True))


@pytest.mark.django_db(transaction=True)
@override_settings(VALUES_AFTER_ANNOTATION=True, VALUES_SOLO_SAMPLES=40, VALUES_TABLE_SAMPLES=4)
def test_it_harvests_discards_from_a_public_replays_values(alice: Any) -> None:
    """The first bot hands whose values pass finds a clearly best discard: each such spot
    (up to the match's limit) becomes a puzzle, and nothing else does."""
    from replays.puzzles.discards import discard_spots_of

    for seed in range(2, 14):
        with transaction.atomic():
            match = store_document(bot_document(seed, variant="sichuan", hands=1),
                                   owner=alice, uploader_seat=0,
                                   visibility=Match.Visibility.PUBLIC)
        match.refresh_from_db()
        assert match.values_status == Match.Status.DONE, match.values_error
        spots = {(s.hand, s.event, s.seat) for s in discard_spots_of(match)}
        made = Puzzle.objects.filter(match=match, kind=Puzzle.Kind.DISCARD)
        assert len(made) == min(len(spots), puzzles.SPOTS_PER_MATCH)
        assert {(p.hand_number, p.event_number, p.seat) for p in made} <= spots
        if spots:
            break
    else:
        pytest.fail("no clearly best discard in twelve bot hands' values")
    before = sorted(made.values_list("pk", flat=True))
    puzzles.harvest(match)  # idempotent
    assert sorted(Puzzle.objects.filter(match=match, kind="discard").values_list(
        "pk", flat=True)) == before
    for puzzle in made:
        assert puzzle.source == "replay" and puzzle.seat == 0 and puzzle.hand_number == 1
        assert_clear(puzzle.answer)
        assert len(set(made.values_list("position_key", flat=True))) == made.count()
    assert puzzles.daily("sichuan").puzzle.kind == "wins"  # a daily is always "what wins"
    puzzle = made.first()
    assert puzzle is not None
    client = Client()
    markup = page(client.post(f"/puzzles/{puzzle.public_id}/answer/",
                              {"tile": puzzle.answer["best"]}, headers=HTMX))
    step = puzzle.event_number - 1
    assert f"hand=1&amp;step={step}&amp;seat=0" in markup
    assert "See the moment in the replay" in markup
