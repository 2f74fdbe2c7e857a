"""Puzzle ratings on the site: Glicko-2 (``games.training.rating``) for players and puzzles.

Only ranked answers move ratings (``Attempt.ranked``: a signed-in player's first
answer, given before the answer was shown to them in any guise). Each one is a
rating period of one game: a solve is the player's win over the puzzle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from games.training import rating as glicko
from replays.charts import Series, line_chart
from replays.models import Attempt, PlayerRating, Puzzle, RatingChange

LEADERBOARD_MIN_ANSWERS = 10  # rated answers before a player is ranked by rating
HISTORY_POINTS = 60  # the chart shows the latest this many rated answers


def puzzle_start(difficulty: int) -> dict[str, float]:
    """A new puzzle's rating fields, from its generator's difficulty."""
    start = glicko.Rating.for_puzzle(difficulty)
    return {"rating": start.rating, "rating_deviation": start.deviation,
            "rating_volatility": start.volatility}


def rating_of_player(row: PlayerRating | None) -> glicko.Rating:
    if row is None:
        return glicko.Rating()
    return glicko.Rating(row.rating, row.deviation, row.volatility)


def rating_of_puzzle(puzzle: Puzzle) -> glicko.Rating:
    return glicko.Rating(puzzle.rating, puzzle.rating_deviation, puzzle.rating_volatility)


def player_rating(user: Any) -> glicko.Rating:
    """A player's current rating (a new player's default when they have none yet)."""
    if not getattr(user, "is_authenticated", False):
        return glicko.Rating()
    return rating_of_player(PlayerRating.objects.filter(user=user).first())


def rate(attempt: Attempt) -> RatingChange | None:
    """Move the player's and the puzzle's ratings by a ranked first answer (once)."""
    if not attempt.ranked or attempt.user_id is None:
        return None
    with transaction.atomic():
        if RatingChange.objects.filter(attempt=attempt).exists():
            return None
        row, _created = PlayerRating.objects.select_for_update().get_or_create(
            user_id=attempt.user_id)
        puzzle = Puzzle.objects.select_for_update().get(pk=attempt.puzzle_id)
        before_player, before_puzzle = rating_of_player(row), rating_of_puzzle(puzzle)
        outcome = glicko.answer(before_player, before_puzzle, attempt.solved)
        row.rating, row.deviation, row.volatility = (
            outcome.player.rating, outcome.player.deviation, outcome.player.volatility)
        row.rated_answers += 1
        row.save()
        puzzle.rating, puzzle.rating_deviation, puzzle.rating_volatility = (
            outcome.puzzle.rating, outcome.puzzle.deviation, outcome.puzzle.volatility)
        puzzle.save(update_fields=["rating", "rating_deviation", "rating_volatility"])
        return RatingChange.objects.create(
            attempt=attempt, user_id=attempt.user_id, rating_before=before_player.rating,
            rating_after=outcome.player.rating, deviation_after=outcome.player.deviation,
            puzzle_before=before_puzzle.rating, puzzle_after=outcome.puzzle.rating)


@dataclass(frozen=True)
class RatingSummary:
    rating: int
    deviation: int
    rated_answers: int
    provisional: bool  # fewer rated answers than the leaderboard asks for


def summary(user: Any) -> RatingSummary | None:
    if not getattr(user, "is_authenticated", False):
        return None
    row = PlayerRating.objects.filter(user=user).first()
    current = rating_of_player(row)
    answers = row.rated_answers if row else 0
    return RatingSummary(round(current.rating), round(current.deviation), answers,
                         answers < LEADERBOARD_MIN_ANSWERS)


def history_chart(user: Any) -> SafeString | None:
    """The rating after each rated answer, as the site's inline SVG line chart."""
    if not getattr(user, "is_authenticated", False):
        return None
    changes = list(RatingChange.objects.filter(user=user).order_by("-created_at", "-id")
                   .values_list("rating_before", "rating_after")[:HISTORY_POINTS])[::-1]
    if not changes:
        return None
    values: list[float | None] = [float(round(changes[0][0]))]
    values += [float(round(after)) for _before, after in changes]
    labels = [str(n) for n in range(len(values))]
    name = _("Rating")
    return line_chart(
        _("Your puzzle rating after each rated answer"), labels, [Series(name, values)],
        y_top=max(v for v in values if v is not None) + 25, floating=True,
        tooltip=lambda label, _series, value: _("after answer %(n)s: %(rating)s") % {
            "n": label, "rating": round(value)},
        description=_("From %(first)s to %(last)s over %(answers)s rated answers.") % {
            "first": round(changes[0][0]), "last": round(changes[-1][1]),
            "answers": len(changes)})


def leaderboard(limit: int = 50) -> list[dict[str, Any]]:
    """Players by rating, only those with at least ``LEADERBOARD_MIN_ANSWERS`` rated answers
    (every rated answer is ranked: signed in, first, before the answer was shown)."""
    rows = list(PlayerRating.objects.filter(rated_answers__gte=LEADERBOARD_MIN_ANSWERS)
                .select_related("user").order_by("-rating", "user__username")[:limit])
    counts = {row["user_id"]: row for row in Attempt.objects.filter(
        user_id__in=[r.user_id for r in rows], ranked=True).values("user_id").annotate(
        total=Count("id"), wins=Count("id", filter=Q(solved=True)))}
    out = []
    for row in rows:
        found = counts.get(row.user_id, {"total": 0, "wins": 0})
        total, wins = found["total"], found["wins"]
        out.append({"user": row.user, "rating": round(row.rating),
                    "deviation": round(row.deviation), "attempts": total,
                    "accuracy": round(100 * wins / total) if total else 0})
    return out
