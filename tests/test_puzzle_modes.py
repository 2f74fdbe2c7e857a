"""Training on the site (issue 18): ratings moved by ranked answers, the leaderboard by
rating, and the modes (rated stream, streak, timed, retry the misses).

alice answers signed in, bob is another user, charlie is anonymous (the bare ``client``).
"""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from games import rating as glicko
from replays.models import Attempt, PlayerRating, Puzzle, RatingChange
from replays.puzzles import ratings
from replays.puzzles import services as puzzles

HTMX = {"HX-Request": "true"}
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def text_of(markup: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def page(response: Any) -> str:
    assert response.status_code == 200, response.status_code
    return response.content.decode()


def logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def right(found: Puzzle) -> dict[str, Any]:
    return {"tile": [w["tile"] for w in found.answer["waits"]]}


def wrong(found: Puzzle) -> dict[str, Any]:
    wins = {w["tile"] for w in found.answer["waits"]}
    return {"tile": [t for t in ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p")
                     if t not in wins][:1]}


@pytest.fixture
def easy(db: None) -> Puzzle:
    return puzzles.generated_puzzle("sichuan", 1, "modes-easy")


@pytest.fixture
def hard(db: None) -> Puzzle:
    return puzzles.generated_puzzle("jiaxing", 3, "modes-hard")


# -- ratings ----------------------------------------------------------------------------


def test_it_starts_new_puzzles_from_their_generators_difficulty(easy: Puzzle,
                                                               hard: Puzzle) -> None:
    for found in (easy, hard):
        start = glicko.Rating.for_puzzle(found.difficulty)
        assert (found.rating, found.rating_deviation) == (start.rating, start.deviation)


def test_it_rates_a_signed_in_first_answer_as_glicko_2_says(easy: Puzzle, alice: Any) -> None:
    start = glicko.Rating.for_puzzle(easy.difficulty)
    logged_in(alice).post(f"/puzzles/{easy.public_id}/answer/", right(easy))
    expected = glicko.answer(glicko.Rating(), start, solved=True)
    row = PlayerRating.objects.get(user=alice)
    assert row.rating == pytest.approx(expected.player.rating)
    assert row.deviation == pytest.approx(expected.player.deviation)
    assert row.rated_answers == 1
    easy.refresh_from_db()
    assert easy.rating == pytest.approx(expected.puzzle.rating)
    assert easy.rating < start.rating
    change = RatingChange.objects.get()
    assert (change.rating_before, change.puzzle_before) == (1500, start.rating)


def test_it_moves_a_rating_down_on_a_miss(hard: Puzzle, alice: Any) -> None:
    logged_in(alice).post(f"/puzzles/{hard.public_id}/answer/", wrong(hard))
    assert PlayerRating.objects.get(user=alice).rating < 1500
    hard.refresh_from_db()
    assert hard.rating > glicko.Rating.for_puzzle(hard.difficulty).rating


def test_it_does_not_rate_a_second_answer_an_anonymous_one_or_one_after_the_reveal(
        easy: Puzzle, hard: Puzzle, alice: Any, bob: Any, client: Client) -> None:
    hers = logged_in(alice)
    hers.post(f"/puzzles/{easy.public_id}/answer/", right(easy))
    hers.post(f"/puzzles/{easy.public_id}/answer/", wrong(easy))  # marked, not counted
    assert RatingChange.objects.count() == 1
    client.post(f"/puzzles/{hard.public_id}/answer/", right(hard))  # anonymous
    assert RatingChange.objects.count() == 1
    # bob's address was shown the answer (the anonymous client shares it): not rated.
    logged_in(bob).post(f"/puzzles/{hard.public_id}/answer/", right(hard))
    assert not Attempt.objects.get(user=bob).ranked
    assert not PlayerRating.objects.filter(user=bob).exists()


def test_the_progress_page_charts_the_rating_history(easy: Puzzle, hard: Puzzle,
                                                     alice: Any) -> None:
    hers = logged_in(alice)
    hers.post(f"/puzzles/{easy.public_id}/answer/", right(easy))
    hers.post(f"/puzzles/{hard.public_id}/answer/", wrong(hard))
    markup = page(hers.get("/puzzles/me/"))
    row = PlayerRating.objects.get(user=alice)
    assert f"Rating {round(row.rating)} ± {round(row.deviation)}" in text_of(markup)
    chart = re.search(r'<figure class="chart-card rating-chart">(<svg.*?</svg>)', markup, re.S)
    assert chart, "no rating chart"
    dots = re.findall(r'<circle class="chart-dot"[^>]*><title>([^<]*)</title>', chart.group(1))
    changes = list(RatingChange.objects.order_by("id"))
    assert dots == [f"after answer 0: {round(changes[0].rating_before)}",
                    f"after answer 1: {round(changes[0].rating_after)}",
                    f"after answer 2: {round(changes[1].rating_after)}"]
    assert 'id="ladder"' in markup  # the ladder keeps its own section


def test_the_leaderboard_ranks_by_rating_from_the_minimum_of_rated_answers(
        db: None, alice: Any, bob: Any, staff: Any, client: Client) -> None:
    need = ratings.LEADERBOARD_MIN_ANSWERS
    PlayerRating.objects.create(user=alice, rating=1720.4, deviation=80, rated_answers=need)
    PlayerRating.objects.create(user=bob, rating=1810, deviation=90, rated_answers=need + 5)
    PlayerRating.objects.create(user=staff, rating=2400, deviation=300, rated_answers=need - 1)
    found = puzzles.generated_puzzle("jiaxing", 1, "board")
    Attempt.objects.create(puzzle=found, user=alice, picked=["1m"], solved=True)
    Attempt.objects.create(puzzle=found, user=bob, picked=["1m"], solved=False)
    markup = page(client.get("/puzzles/leaderboard/"))
    body = re.search(r"<tbody>(.*?)</tbody>", markup, re.S)
    assert body
    rows = [text_of(r) for r in re.findall(r"<tr[^>]*>(.*?)</tr>", body.group(1), re.S)]
    assert rows == ["1 bob 1810 ± 90 1 0%", "2 alice 1720 ± 80 1 100%"]
    assert staff.username not in text_of(markup).split()  # too few rated answers
