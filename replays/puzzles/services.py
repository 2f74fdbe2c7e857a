"""Puzzles on the site: the daily roll, attempts, streaks and points (docs/puzzles.md).

The engine (``games.training.puzzles``) makes and answers positions; this module stores
them, picks each day's puzzle per variant — the same for everyone, rolled once
and kept — records first answers (a user's, or an anonymous visitor's kept in
the session and merged at log-in), and adds up streaks, accuracy and points.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.db.models import Count, Q, QuerySet, Sum
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _

from games.analysis.annotation import ENGINE_VERSION
from games.training import discard_puzzles, exchange_puzzles, pay_puzzles, themes
from games.training import puzzles as engine
from games.training.puzzles import PuzzleError
from games.variants.positions import read_position
from games.variants.registry import NAMES, variant_named
from replays.limits import client_address
from replays.matches.board import replayed_match
from replays.models import (
    Attempt,
    DailyPuzzle,
    Match,
    PlayedMatch,
    Puzzle,
    PuzzleReveal,
    shown_puzzles,
)
from replays.puzzles import kinds, ratings

VARIANTS = NAMES
REAL_SOURCES = (Puzzle.Source.REPLAY, Puzzle.Source.PLAYED)  # puzzles from real games
VISITOR_KEY = "puzzle_visitor"
SPOTS_PER_MATCH = 3


# -- days ---------------------------------------------------------------------


def puzzle_zone() -> ZoneInfo:
    return ZoneInfo(settings.PUZZLE_TIME_ZONE)


def puzzle_day(moment: dt.datetime | None = None) -> dt.date:
    """The puzzle calendar's date at a moment (default now): days turn at midnight in
    ``PUZZLE_TIME_ZONE``, the same instant for every player wherever they are."""
    return timezone.localtime(moment or timezone.now(), puzzle_zone()).date()


def open_puzzles(day: dt.date | None = None) -> QuerySet[Puzzle]:
    """The shown puzzles a player may open and answer on ``day`` (default today): all of
    them but a coming day's daily puzzle, which the beat rolls ahead (a staff pin too) and
    which nobody may see or answer before the calendar reaches it. One that was a daily
    puzzle before stays open."""
    today = day or puzzle_day()
    coming = DailyPuzzle.objects.filter(day__gt=today).values("puzzle_id")
    released = DailyPuzzle.objects.filter(day__lte=today).values("puzzle_id")
    return shown_puzzles().exclude(Q(pk__in=coming) & ~Q(pk__in=released))


def day_difficulty(day: dt.date) -> int:
    """Easy on Monday and Tuesday, medium Wednesday and Thursday, hard Friday to Sunday."""
    return (1, 1, 2, 2, 3, 3, 3)[day.weekday()]


# -- making puzzles -----------------------------------------------------------


def answer_of(position: dict[str, Any]) -> tuple[dict[str, Any], int]:
    """The engine's answer (JSON) and the difficulty of a position."""
    checked = read_position(position)
    answer = engine.solve(checked)
    return answer.to_json(), engine.features(checked, answer).difficulty


def training_fields(position: dict[str, Any], answer: dict[str, Any],
                    difficulty: int, kind: str = "wins") -> dict[str, Any]:
    """What a new puzzle row carries for training: its start rating (from the difficulty),
    the engine's themes and the key that makes a duplicate position one puzzle."""
    return {**ratings.puzzle_start(difficulty),
            "themes": themes.themes_of(position, answer, kind),
            "position_key": themes.position_key(position)}


def same_position(position: dict[str, Any], kind: str = Puzzle.Kind.WINS) -> Puzzle | None:
    """The puzzle of a kind already made of this position, from any source (shown ones
    only)."""
    return shown_puzzles().filter(position_key=themes.position_key(position),
                                  kind=kind).order_by("id").first()


def made_of_kind(kind: str, variant: str, difficulty: int, seed: str, theme: str = ""
                 ) -> tuple[dict[str, Any], dict[str, Any], int]:
    """A generated puzzle of a kind: its position, the engine's answer, its difficulty. A
    pay puzzle of a ``theme`` that needs house rules (SC-H3–H8) is played under them and
    is a win of that theme."""
    if kind == Puzzle.Kind.PAY:
        rules: dict[str, int | str | bool] | None = None
        wanted = None
        if theme:
            found = themes.theme_named(theme)
            rules = found.rules_in(variant_named(variant))
            if rules is None:
                raise PuzzleError(f"{variant} tables don't play the rules of the theme "
                                  f"{theme} ({found.rule})")

            def wanted(spot: pay_puzzles.WinSpot) -> bool:
                return theme in themes.themes_of(spot.puzzle["position"], spot.answer, kind)
        puzzle = pay_puzzles.generate(variant, difficulty, seed, rules=rules, wanted=wanted)
        answer = pay_puzzles.solve(puzzle)
        return puzzle, answer, pay_puzzles.difficulty_of(puzzle, answer)
    if kind == Puzzle.Kind.EXCHANGE:
        made, answer = exchange_puzzles.generate(variant, difficulty, seed)
        return made, answer, exchange_puzzles.difficulty_of(answer) or difficulty
    if kind == Puzzle.Kind.DISCARD:
        position, answer = discard_puzzles.generate(variant, difficulty, seed)
        return position, answer, discard_puzzles.difficulty_of(answer)
    position = engine.generate(variant, difficulty, seed)
    answer, measured = answer_of(position)
    return position, answer, measured


def kind_themes(kind: str, position: dict[str, Any], answer: dict[str, Any]) -> list[str]:
    """The engine's themes of a puzzle of any kind (a pay puzzle's are its won hand's)."""
    shown = position["position"] if kind in (Puzzle.Kind.PAY, Puzzle.Kind.EXCHANGE) \
        else position
    return themes.themes_of(shown, answer, kind)


def generated_puzzle(variant: str, difficulty: int, seed: str,
                     kind: str = Puzzle.Kind.WINS, theme: str = "") -> Puzzle:
    """The generated puzzle of a kind, seed and asked difficulty: made once, found again
    later.

    The row keeps the difficulty the puzzle really has (the generator returns the
    closest it found when none of its candidates had the one asked for) and the asked
    one in its key, ``<seed>/<difficulty>`` (``<kind>/<seed>/<difficulty>`` for the
    kinds other than "what wins here?").
    """
    key = f"{seed}/{difficulty}" if kind == Puzzle.Kind.WINS else f"{kind}/{seed}/{difficulty}"
    if theme:  # a theme needing house rules: found again only with its theme
        key = f"{key}/{theme}"
    existing = Puzzle.objects.filter(source=Puzzle.Source.GENERATED, variant=variant,
                                     seed=key).first()
    if existing is not None:
        return existing
    position, answer, measured = made_of_kind(kind, variant, difficulty, seed, theme)
    try:
        with transaction.atomic():
            return Puzzle.objects.create(
                variant=variant, kind=kind, difficulty=measured, seed=key,
                position=position, answer=answer, engine_version=ENGINE_VERSION,
                **ratings.puzzle_start(measured),
                themes=kind_themes(kind, position, answer),
                position_key=themes.position_key(position))
    except IntegrityError:  # made at the same moment by another request
        return Puzzle.objects.get(source=Puzzle.Source.GENERATED, variant=variant, seed=key)


def daily(variant: str, day: dt.date | None = None) -> DailyPuzzle:
    """The day's puzzle of a variant, rolled on first use and kept.

    A staff pin wins; otherwise an unused puzzle from a public replay of the day's
    difficulty, chosen by a hash of the date (so the choice doesn't depend on who
    asks first), else a puzzle generated from the date itself.
    """
    day = day or puzzle_day()
    found = DailyPuzzle.objects.select_related("puzzle").filter(day=day, variant=variant).first()
    if found is not None and not shown_puzzles().filter(pk=found.puzzle_id).exists():
        found.delete()  # its replay was taken down since (takedowns.py re-rolls it too)
        found = None
    if found is not None:
        return found
    puzzle = _from_replays(variant, day) or generated_puzzle(
        variant, day_difficulty(day), daily_seed(day))
    try:
        with transaction.atomic():
            return DailyPuzzle.objects.create(day=day, variant=variant, puzzle=puzzle)
    except IntegrityError:
        return DailyPuzzle.objects.select_related("puzzle").get(day=day, variant=variant)


def daily_seed(day: dt.date) -> str:
    """The generated daily's seed: the date signed with the server's secret
    (``PUZZLE_SEED_SECRET``), so nobody can compute a coming day's puzzle offline."""
    return _signed(f"daily/{day.isoformat()}")[:24]


def _signed(text: str) -> str:
    secret = settings.PUZZLE_SEED_SECRET.encode()
    return hmac.new(secret, text.encode(), hashlib.sha256).hexdigest()


def _from_replays(variant: str, day: dt.date) -> Puzzle | None:
    candidates = list(shown_puzzles().filter(
        source__in=REAL_SOURCES, variant=variant, difficulty=day_difficulty(day),
        kind=Puzzle.Kind.WINS,
        dailies__isnull=True, attempts__isnull=True,  # nobody may have solved it early
    ).values_list("pk", "public_id"))
    if not candidates:
        return None
    pk, _public_id = min(candidates, key=lambda c: _signed(
        f"{day.isoformat()}/{variant}/{c[1]}"))
    return Puzzle.objects.get(pk=pk)


def pin_daily(puzzle: Puzzle, day: dt.date, user: Any = None) -> DailyPuzzle:
    """Make ``puzzle`` the daily puzzle of its variant on ``day`` (staff)."""
    pinned, _created = DailyPuzzle.objects.update_or_create(
        day=day, variant=puzzle.variant,
        defaults={"puzzle": puzzle, "pinned_by": user if getattr(user, "pk", None) else None})
    return pinned


def roll_days(days: int = 2) -> list[DailyPuzzle]:
    """Roll today's and the next days' puzzles for every variant (Celery beat)."""
    today = puzzle_day()
    return [daily(variant, today + dt.timedelta(days=offset))
            for offset in range(days) for variant in VARIANTS]


def harvest(match: Match, limit: int = SPOTS_PER_MATCH, hand: int | None = None
            ) -> list[Puzzle]:
    """Puzzles from a replay's ready hands (hardest, then most waits, first), credited to
    it; only hand number ``hand`` when given. Found again if made before."""
    return _harvest(match, Puzzle.Source.REPLAY, limit, hand)


def played_source(match: Match) -> PlayedMatch | None:
    """The finished played match this replay was stored from, when its puzzles may be
    made: played signed in (an anonymous player's match never is, even once given to an
    account at log-in), by the replay's owner, who lets the site make them."""
    if match.owner_id is None:
        return None
    return PlayedMatch.objects.defer("state").filter(
        replay=match, over=True, signed_in=True, owner_id=match.owner_id,
        owner__play_settings__puzzles_from_play=True).first()


def may_harvest(match: Match) -> bool:
    """Puzzles may be made of this replay: it is public, or a played match whose player
    lets the site make puzzles of it (and staff haven't hidden it)."""
    return match.publishable or (not match.hidden and played_source(match) is not None)


def harvest_played(match: Match, limit: int = SPOTS_PER_MATCH) -> list[Puzzle]:
    """Puzzles from a played match's stored replay, from the player's own seat only, when
    its player lets the site make them (:func:`played_source`); none otherwise."""
    row = played_source(match)
    if row is None or match.hidden:
        return []
    seat = PlayedMatch.objects.filter(pk=row.pk).values_list("state__seat", flat=True)[0]
    return _harvest(match, Puzzle.Source.PLAYED, limit, seat=int(seat))


def _harvest(match: Match, source: str, limit: int, hand: int | None = None,
             seat: int | None = None) -> list[Puzzle]:
    parsed = replayed_match(match).match
    spots = []
    for spot in engine.ready_spots(parsed):
        if hand is not None and spot.hand != hand:
            if spot.hand > hand:
                break
            continue
        if seat is not None and spot.seat != seat:
            continue
        answer, difficulty = answer_of(spot.position)
        spots.append((len(answer["waits"]), difficulty, spot, answer))
    spots.sort(key=lambda s: (-s[1], -s[0], s[2].hand, s[2].event))
    made = []
    for _waits, difficulty, spot, answer in spots[:limit]:
        known = Puzzle.objects.filter(source=source, match=match,
                                      hand_number=spot.hand, event_number=spot.event,
                                      seat=spot.seat, kind=Puzzle.Kind.WINS).first()
        if known is None:
            known = same_position(spot.position)  # a duplicate position is one puzzle
        if known is None:
            known, _created = Puzzle.objects.get_or_create(
                source=source, match=match, hand_number=spot.hand,
                event_number=spot.event, seat=spot.seat,
                defaults={"variant": match.variant, "difficulty": difficulty,
                          "position": spot.position, "answer": answer,
                          "engine_version": ENGINE_VERSION,
                          **training_fields(spot.position, answer, difficulty)})
        made.append(known)
    if hand is None:
        made += harvest_discards(match, limit)
    return made


def harvest_discards(match: Match, limit: int = SPOTS_PER_MATCH) -> list[Puzzle]:
    """"What to discard?" puzzles from a replay's values (the values pass's solo-model
    discards where one is clearly best, docs/puzzles.md), clearest first, credited to the
    match, hand, event and seat; one puzzle per position. Found again if made before."""
    from replays.puzzles.discards import discard_spots_of

    spots = sorted(discard_spots_of(match), key=lambda s: (
        discard_puzzles.difficulty_of(s.answer), -s.answer["runner_up_loss"] / s.answer["unit"],
        s.hand, s.event))
    made = []
    for spot in spots[:limit]:
        known = Puzzle.objects.filter(source=Puzzle.Source.REPLAY, match=match,
                                      hand_number=spot.hand, event_number=spot.event,
                                      seat=spot.seat, kind=Puzzle.Kind.DISCARD).first()
        if known is None:
            known = same_position(spot.position, Puzzle.Kind.DISCARD)
        if known is None:
            difficulty = discard_puzzles.difficulty_of(spot.answer)
            known, _created = Puzzle.objects.get_or_create(
                source=Puzzle.Source.REPLAY, match=match, hand_number=spot.hand,
                event_number=spot.event, seat=spot.seat, kind=Puzzle.Kind.DISCARD,
                defaults={"variant": match.variant, "difficulty": difficulty,
                          "position": spot.position, "answer": spot.answer,
                          "engine_version": ENGINE_VERSION,
                          **training_fields(spot.position, spot.answer, difficulty,
                                            Puzzle.Kind.DISCARD)})
        made.append(known)
    return made


# -- who is answering ---------------------------------------------------------


def visitor_id(request: HttpRequest, create: bool = True) -> str:
    """An anonymous player's id, kept in their session (survives log-in's new key)."""
    visitor: str = request.session.get(VISITOR_KEY, "")
    if not visitor and create:
        visitor = request.session[VISITOR_KEY] = secrets.token_hex(16)
    return visitor


def attempts_of(request: HttpRequest) -> QuerySet[Attempt]:
    user = request.user
    if user.is_authenticated:
        return Attempt.objects.filter(user=user)
    visitor = visitor_id(request, create=False)
    return Attempt.objects.filter(user__isnull=True, visitor=visitor) if visitor else (
        Attempt.objects.none())


def merge_visitor(user: Any, visitor: str) -> int:
    """Give a visitor's anonymous attempts to the user who just logged in; where both
    answered the same puzzle the user's own first answer stays. Returns the number moved."""
    if not visitor:
        return 0
    with transaction.atomic():
        anonymous = Attempt.objects.filter(user__isnull=True, visitor=visitor)
        answered = Attempt.objects.filter(user=user).values("puzzle_id")
        anonymous.filter(puzzle_id__in=answered).delete()
        # Kept in the player's history, but off the leaderboard: answered while anonymous.
        return anonymous.update(user=user, ranked=False)


# -- answering ----------------------------------------------------------------


@dataclass(frozen=True)
class Result:
    attempt: Attempt
    verdict: Any  # engine.Verdict, pay_puzzles.PayVerdict or discard_puzzles.DiscardVerdict
    counted: bool  # False: answered before, this answer is only marked


def answer(request: HttpRequest, puzzle: Puzzle, picked: Any, bonus: str,
           mode: str = "", run: Any = None) -> Result:
    """Mark a pick; the first answer of each player is recorded (and counts), with the
    training mode and run it was given in (replays/puzzles/training.py)."""
    previous = attempts_of(request).filter(puzzle=puzzle).first()
    if previous is not None:  # the first answer stands, and is what the page shows
        return Result(previous, verdict_of(previous), counted=False)
    verdict = kinds.check(puzzle, picked, bonus)
    today = puzzle_day()
    is_daily = DailyPuzzle.objects.filter(puzzle=puzzle, day=today).exists()
    user = request.user if request.user.is_authenticated else None
    attempt = Attempt(
        puzzle=puzzle, user=user, visitor="" if user else visitor_id(request),
        picked=picked, bonus=bonus, solved=verdict.solved, bonus_right=verdict.bonus,
        points=verdict.points, daily_day=today if is_daily else None,
        ranked=user is not None and not revealed_to(request, puzzle), mode=mode, run=run)
    try:
        with transaction.atomic():
            attempt.save()
    except IntegrityError:  # a double submit: the first one counts
        previous = attempts_of(request).get(puzzle=puzzle)
        return Result(previous, verdict_of(previous), counted=False)
    record_reveal(request, puzzle)  # answered: the verdict, with the answer, comes next
    ratings.rate(attempt)  # ranked answers only
    return Result(attempt, verdict, counted=True)


def _same_visitor(request: HttpRequest) -> Q:
    """Reveals to this visitor: their session, their account or their address."""
    same = Q(pk__in=[])
    visitor = visitor_id(request, create=False)
    if visitor:
        same |= Q(visitor=visitor)
    if request.user.is_authenticated:
        same |= Q(user=request.user)
    address = client_address(request)
    if address:
        same |= Q(address=address)
    return same


def revealed_to(request: HttpRequest, puzzle: Puzzle) -> bool:
    """Was the puzzle's answer shown to this visitor before (in any of their guises)?"""
    return PuzzleReveal.objects.filter(puzzle=puzzle).filter(_same_visitor(request)).exists()


def record_reveal(request: HttpRequest, puzzle: Puzzle) -> None:
    """The page is about to show the answer: note to whom (session, account, address)."""
    user = request.user if request.user.is_authenticated else None
    PuzzleReveal.objects.get_or_create(puzzle=puzzle, user=user, visitor=visitor_id(request),
                                       address=client_address(request))


def verdict_of(attempt: Attempt) -> Any:
    """The verdict on a stored first answer, of the puzzle's kind."""
    return kinds.check(attempt.puzzle, attempt.picked, attempt.bonus)


# -- progress -----------------------------------------------------------------


@dataclass(frozen=True)
class Progress:
    attempts: int
    solved: int
    points: int
    streak: int
    best_streak: int
    in_a_row: int = 0  # first answers solved in a row, up to the latest (any puzzle)

    @property
    def accuracy(self) -> int:
        """Solved attempts in percent (0 before the first)."""
        return round(100 * self.solved / self.attempts) if self.attempts else 0


def streaks(days: set[dt.date], today: dt.date) -> tuple[int, int]:
    """The current streak (days in a row up to today, or up to yesterday while today's
    puzzle is still open) and the best streak."""
    current = 0
    day = today if today in days else today - dt.timedelta(days=1)
    while day in days:
        current += 1
        day -= dt.timedelta(days=1)
    best = run = 0
    previous: dt.date | None = None
    for day in sorted(days):
        run = run + 1 if previous is not None and day - previous == dt.timedelta(days=1) else 1
        best = max(best, run)
        previous = day
    return current, best


def progress(attempts: QuerySet[Attempt], today: dt.date | None = None) -> Progress:
    totals = attempts.aggregate(n=Count("id"), solved=Count("id", filter=Q(solved=True)),
                                points=Sum("points"))
    days = {day for day in attempts.filter(solved=True, daily_day__isnull=False)
            .values_list("daily_day", flat=True) if day is not None}
    current, best = streaks(days, today or puzzle_day())
    return Progress(totals["n"], totals["solved"], totals["points"] or 0, current, best,
                    solved_in_a_row(attempts))


IN_A_ROW_LIMIT = 1000  # answers looked back at for the run of solves


def solved_in_a_row(attempts: QuerySet[Attempt]) -> int:
    """How many of the latest first answers were solved in a row: 1 right after a solve
    that follows a miss (or comes first), 0 right after a miss."""
    count = 0
    for solved in attempts.order_by("-id").values_list("solved", flat=True)[:IN_A_ROW_LIMIT]:
        if not solved:
            break
        count += 1
    return count


def leaderboard(limit: int = 20) -> list[dict[str, Any]]:
    """Players by puzzle points, with their accuracy: only ranked answers count (signed in,
    first, before the answer was shown to the same visitor). The JX-11 ladder is not theirs:
    it counts the points won in play."""
    ranked = Q(puzzle_attempts__ranked=True)
    rows = (get_user_model().objects.filter(puzzle_attempts__ranked=True)
            .annotate(points=Sum("puzzle_attempts__points", filter=ranked),
                      attempts=Count("puzzle_attempts", filter=ranked),
                      solved=Count("puzzle_attempts",
                                   filter=ranked & Q(puzzle_attempts__solved=True)))
            .order_by("-points", "username")[:limit])
    return [{"user": row, "points": row.points, "attempts": row.attempts,
             "accuracy": round(100 * row.solved / row.attempts) if row.attempts else 0}
            for row in rows]


def solve_rates(puzzles: QuerySet[Puzzle]) -> QuerySet[Puzzle]:
    return puzzles.annotate(tries=Count("attempts", distinct=True),
                            solves=Count("attempts", filter=Q(attempts__solved=True),
                                         distinct=True))


def share_text(puzzle: Puzzle, verdict: Any, day: dt.date | None,
               streak: int) -> str:
    """A result to paste anywhere: how it went, never which tiles."""
    label = f"{puzzle.get_variant_display()} · {day.isoformat()}" if day else (
        f"{puzzle.get_variant_display()} · #{puzzle.public_id}")
    if puzzle.kind != Puzzle.Kind.WINS:
        lines = [f"{puzzle.get_kind_display()} {label} ({puzzle.get_difficulty_display()})",
                 *kinds.share_lines(puzzle, verdict)]
        if streak:
            lines.append(_streak_line(streak, day))
        return "\n".join(lines)
    waits = len(puzzle.answer["waits"])
    marks = "🟩" * len(verdict.right) + "🟥" * len(verdict.wrong) + "⬜" * len(verdict.missed)
    lines = [_("What wins here? %(label)s (%(difficulty)s)") % {
                 "label": label, "difficulty": puzzle.get_difficulty_display()},
             _("%(right)d/%(waits)d winning tiles %(marks)s") % {
                 "right": len(verdict.right), "waits": waits, "marks": marks}]
    if verdict.bonus is not None:
        lines.append(_("Best wait: %(mark)s") % {"mark": "✓" if verdict.bonus else "✗"})
    if streak:
        lines.append(_streak_line(streak, day))
    return "\n".join(lines)


def _streak_line(streak: int, day: dt.date | None) -> str:
    """A daily puzzle's streak is in days; any other's in puzzles solved in a row."""
    if day is not None:
        return _("Streak: %(days)d 🔥") % {"days": streak}
    return _("Solved in a row: %(n)d 🔥") % {"n": streak}
