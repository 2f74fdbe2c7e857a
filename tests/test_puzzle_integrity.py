"""Puzzle scores can't be farmed (issue 16, finding 8).

The leaderboard counts only signed-in first answers given before the answer was shown to
the same visitor — the same session, account or address — and the generated daily
puzzle's seed is signed with a server secret, so a coming day can't be computed offline.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.test import Client, override_settings

from replays.models import Attempt, Puzzle
from replays.puzzles import services as puzzles

from .conftest import PASSWORD, with_password

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")
MONDAY = dt.date(2026, 11, 30)


@pytest.fixture
def puzzle(db: None) -> Puzzle:
    return puzzles.generated_puzzle("jiaxing", 1, "integrity")


def winning(found: Puzzle) -> dict[str, Any]:
    return {"tile": [w["tile"] for w in found.answer["waits"]],
            "bonus": found.answer["best"][0]}


def board(client: Client) -> list[tuple[str, int]]:
    return [(row["user"].username, row["points"]) for row in puzzles.leaderboard()]


def test_it_does_not_rank_an_answer_read_from_a_throwaway_session_first(
        puzzle: Puzzle, bob: Any) -> None:
    throwaway, mine = Client(), Client()
    throwaway.post(f"/puzzles/{puzzle.public_id}/answer/", {"notation": "1m"})
    shown = throwaway.get(puzzle.get_absolute_url()).content.decode()
    assert "verdict" in shown, "the throwaway session sees the answer"

    mine.force_login(bob)
    mine.post(f"/puzzles/{puzzle.public_id}/answer/", winning(puzzle))

    attempt = Attempt.objects.get(user=bob)
    assert attempt.solved and attempt.points > 0
    assert not attempt.ranked, "same address as the session that was shown the answer"
    assert board(mine) == []


def test_it_does_not_rank_answers_given_anonymously_then_merged_at_log_in(
        puzzle: Puzzle, bob: Any, client: Client) -> None:
    with_password(bob)
    client.post(f"/puzzles/{puzzle.public_id}/answer/", winning(puzzle))
    client.post("/accounts/login/", {"username": "bob", "password": PASSWORD})

    attempt = Attempt.objects.get(puzzle=puzzle)
    assert attempt.user == bob and attempt.solved
    assert board(client) == []


def test_it_ranks_a_signed_in_first_answer(puzzle: Puzzle, bob: Any, client: Client) -> None:
    client.force_login(bob)
    client.post(f"/puzzles/{puzzle.public_id}/answer/", winning(puzzle))
    attempt = Attempt.objects.get(user=bob)
    assert attempt.ranked
    assert board(client) == [("bob", attempt.points)]


def test_it_does_not_rank_an_answer_from_another_address_after_the_account_saw_it(
        puzzle: Puzzle, bob: Any) -> None:
    here, elsewhere = Client(REMOTE_ADDR="10.0.0.1"), Client(REMOTE_ADDR="10.0.0.2")
    here.force_login(bob)
    here.post(f"/puzzles/{puzzle.public_id}/answer/", {"notation": "1m"})
    Attempt.objects.all().delete()  # even had the first answer gone, the reveal stays
    elsewhere.force_login(bob)
    elsewhere.post(f"/puzzles/{puzzle.public_id}/answer/", winning(puzzle))
    assert not Attempt.objects.get(user=bob).ranked


def test_it_seeds_the_generated_daily_with_a_server_secret(db: None) -> None:
    with override_settings(PUZZLE_SEED_SECRET="one secret"):
        first = puzzles.daily_seed(MONDAY)
    with override_settings(PUZZLE_SEED_SECRET="another secret"):
        second = puzzles.daily_seed(MONDAY)
    assert first != second
    assert MONDAY.isoformat() not in first
    with override_settings(PUZZLE_SEED_SECRET="one secret"):
        rolled = puzzles.daily("putian", MONDAY).puzzle
    assert rolled.seed.startswith(first + "/")
