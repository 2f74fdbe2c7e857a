"""Training modes (issue 18, docs/puzzles.md): the rated stream, streak and timed runs,
practice by theme and variant, and retrying the puzzles a player missed.

Every puzzle a mode serves is one the player hasn't answered: its answer is an ordinary
first answer (``services.answer``), rated when it is ranked. The stream picks puzzles
near the player's rating from the stored ones and generates more when none is near.
A timed run's clock is the server's: an answer after its deadline is refused.
"""

from __future__ import annotations

import datetime as dt
import secrets
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import F, Func, QuerySet
from django.http import Http404, HttpRequest
from django.utils import timezone

from games.training import rating as glicko
from games.training.puzzles import PuzzleError
from games.training.themes import BY_KEY
from games.variants.registry import NAMES
from replays.models import Attempt, Puzzle, TrainingRun
from replays.puzzles import kinds, ratings
from replays.puzzles import services as puzzles

NEAR = 250.0  # the stream's window around the target rating
CLOSEST = 5  # it picks at random among this many closest puzzles in the window
GENERATE_TRIES = 24  # generated candidates tried for a theme before giving up …
KIND_TRIES = {"pay": 12, "discard": 3, "exchange": 3}  # … fewer of the kinds that take longer to make
TIMED_SECONDS = 180  # three minutes
STREAK_START = -300.0  # a streak starts this far below the player's rating …
STREAK_STEP = 60.0  # … and climbs this much per solve
TIMED_OFFSET = -200.0  # timed puzzles are a little easier than the player


class TrainingError(ValueError):
    """A mode asked for something it can't serve (names the variant, theme or run)."""


class RunOver(TrainingError):
    """An answer to a run that has finished (its streak ended or its time is up)."""


class StaleAnswer(TrainingError):
    """An answer to a puzzle the run no longer shows (a second submit of one form, an old
    tab): refused, nothing counted."""


def clean_variant(value: str) -> str:
    """A variant name from a form, or "" for every variant."""
    if value and value not in NAMES:
        raise TrainingError(f"no variant {value!r}; variants: {', '.join(NAMES)}")
    return value


def clean_kind(value: str) -> str:
    """A kind of puzzle from a form, or "" for every kind."""
    if value and value not in Puzzle.Kind.values:
        raise TrainingError(f"no kind of puzzle {value!r}; kinds: "
                            f"{', '.join(Puzzle.Kind.values)}")
    return value


def clean_theme(value: str) -> str:
    if value and value not in BY_KEY:
        raise TrainingError(f"no theme {value!r}; themes: {', '.join(BY_KEY)}")
    return value


def target_rating(request: HttpRequest) -> float:
    """The rating puzzles are picked near: the player's, 1500 for visitors."""
    return ratings.player_rating(request.user).rating


def _difficulty_near(target: float) -> int:
    """The generator's difficulty whose start rating is nearest ``target``."""
    return min(glicko.DIFFICULTY_RATINGS, key=lambda d: abs(glicko.DIFFICULTY_RATINGS[d] - target))


class _Abs(Func):
    function = "ABS"


def with_theme(puzzles_: QuerySet[Puzzle], theme: str) -> QuerySet[Puzzle]:
    """Puzzles tagged ``theme``: its quoted key in the stored JSON list (a text match that
    PostgreSQL and SQLite both run; keys never contain quotes)."""
    return puzzles_.filter(themes__icontains=f'"{theme}"')


def _unanswered(request: HttpRequest, variant: str, theme: str,
                kind: str = "") -> QuerySet[Puzzle]:
    pool = puzzles.open_puzzles().exclude(
        pk__in=puzzles.attempts_of(request).values("puzzle_id"))
    if variant:
        pool = pool.filter(variant=variant)
    if kind:
        pool = pool.filter(kind=kind)
    if theme:
        pool = with_theme(pool, theme)
    return pool


def next_puzzle(request: HttpRequest, variant: str = "", theme: str = "",
                target: float | None = None, kind: str = "") -> Puzzle:
    """An unanswered puzzle near ``target`` (default: the player's rating), of a variant,
    theme and kind when given: one of the closest stored ones, else a newly generated one."""
    aim = target_rating(request) if target is None else target
    pool = _unanswered(request, variant, theme, kind).annotate(
        distance=_Abs(F("rating") - aim))
    last = last_answered(request)
    near = _other_hands(pool.filter(distance__lte=NEAR).order_by("distance", "id"), last)
    if near:
        return secrets.choice(near[:CLOSEST])
    made = _generated(variant, theme, aim, kind)
    if made is not None and pool.filter(pk=made.pk).exists():  # unanswered, and open now
        return made
    farther = _other_hands(pool.order_by("distance", "id"), last)[:1] or list(
        pool.order_by("distance", "id")[:1])  # the same hand again only when nothing else is
    if not farther:
        raise TrainingError(f"no {theme or 'puzzle'} puzzle left for {variant or 'any variant'}")
    return farther[0]


VARIETY_WINDOW = 60  # stored candidates looked at for one from another hand


def hand_key(puzzle: Puzzle) -> str | None:
    """The hand a puzzle comes from — a replay's or played match's (match, hand), a
    generated pay puzzle's bot match (its seed and hand) — or None for a hand of its own
    (every other generated puzzle is a hand dealt for it alone)."""
    if puzzle.match_id is not None and puzzle.hand_number is not None:
        return f"match/{puzzle.match_id}/{puzzle.hand_number}"
    source = puzzle.position.get("source") if isinstance(puzzle.position, dict) else None
    if isinstance(source, dict) and "match_seed" in source:
        return f"bots/{puzzle.variant}/{source['match_seed']}/{source.get('hand')}"
    return None


def last_answered(request: HttpRequest) -> Puzzle | None:
    """The puzzle the player answered last (in any mode): the next one served comes from
    another hand."""
    latest = puzzles.attempts_of(request).select_related("puzzle").order_by("-id").first()
    return latest.puzzle if latest is not None else None


def _other_hands(candidates: QuerySet[Puzzle], last: Puzzle | None) -> list[Puzzle]:
    """The candidates (in their order) not from the hand of ``last``: never two puzzles of
    one hand in a row while there are others."""
    key = hand_key(last) if last is not None else None
    if key is None:
        return list(candidates[:VARIETY_WINDOW])
    if last is not None and last.match_id is not None:
        candidates = candidates.exclude(match_id=last.match_id,
                                        hand_number=last.hand_number)
    return [p for p in candidates[:VARIETY_WINDOW] if hand_key(p) != key]


def _generated(variant: str, theme: str, aim: float, kind: str = "") -> Puzzle | None:
    difficulty = _difficulty_near(aim)
    found = BY_KEY[theme] if theme else None
    # every kind is stored; new ones of the asked kind, or of one the theme tags
    chosen = kind or (found.first_kind if found else Puzzle.Kind.WINS)
    if found is not None and chosen not in found.kinds:
        return None
    # A theme needing house rules (SC-H1–H8) is looked for under them (pay puzzles).
    ruled = found is not None and bool(found.rules) and chosen == Puzzle.Kind.PAY
    for _ in range(KIND_TRIES.get(chosen, GENERATE_TRIES) if theme else 1):
        name = variant or secrets.choice(NAMES)
        try:
            made = puzzles.generated_puzzle(
                name, difficulty, f"train/{secrets.token_hex(4 if ruled else 8)}", chosen,
                theme if ruled else "")
        except PuzzleError:  # no clearly best discard found within the generator's budget,
            continue  # or a variant whose tables don't play the theme's rules
        if not theme or theme in made.themes:
            return made
    return None


# -- runs ---------------------------------------------------------------------


def start_run(request: HttpRequest, mode: str, variant: str = "",
              kind: str = "") -> TrainingRun:
    """A new streak or timed run for this player (of one kind of puzzle when given), with
    its first puzzle."""
    if mode not in TrainingRun.Mode.values:
        raise TrainingError(f"no run mode {mode!r}; modes: {', '.join(TrainingRun.Mode.values)}")
    user = request.user if request.user.is_authenticated else None
    now = timezone.now()
    run = TrainingRun(mode=mode, variant=clean_variant(variant), kind=clean_kind(kind),
                      user=user,
                      visitor="" if user else puzzles.visitor_id(request),
                      ends_at=now + dt.timedelta(seconds=TIMED_SECONDS)
                      if mode == TrainingRun.Mode.TIMED else None)
    run.current = next_puzzle(request, run.variant, target=_run_target(request, run),
                              kind=run.kind)
    run.save()
    return run


def _run_target(request: HttpRequest, run: TrainingRun) -> float:
    base = target_rating(request)
    if run.mode == TrainingRun.Mode.STREAK:
        return base + STREAK_START + STREAK_STEP * run.solved
    return base + TIMED_OFFSET


def run_of(request: HttpRequest, public_id: str) -> TrainingRun:
    """The player's own run (another player's is a 404: charlie sees nothing)."""
    run = TrainingRun.objects.select_related("current").filter(public_id=public_id).first()
    if run is None or not _owns(request, run):
        raise Http404("No such run")
    return run


def _owns(request: HttpRequest, run: TrainingRun) -> bool:
    if run.user_id is not None:
        return bool(request.user.is_authenticated and request.user.pk == run.user_id)
    visitor = puzzles.visitor_id(request, create=False)
    return bool(visitor) and visitor == run.visitor


def seconds_left(run: TrainingRun, now: dt.datetime | None = None) -> int | None:
    """A timed run's seconds to go by the server's clock (None for a streak)."""
    if run.ends_at is None:
        return None
    return max(0, int((run.ends_at - (now or timezone.now())).total_seconds()))


def finish_if_due(run: TrainingRun, now: dt.datetime | None = None) -> bool:
    """End a timed run whose time is up; True when the run is over."""
    if run.finished_at is None and run.ends_at is not None and (
            now or timezone.now()) >= run.ends_at:
        run.finished_at = run.ends_at
        run.current = None
        run.save(update_fields=["finished_at", "current"])
    return run.finished_at is not None


@dataclass(frozen=True)
class Step:
    """One answer in a run: the answer and whether the run goes on."""

    result: puzzles.Result
    puzzle: Puzzle
    over: bool


def run_step(run: TrainingRun) -> int:
    """How many answers the run has counted: the step its form answers."""
    return run.solved + run.missed


def check_answers_current(run: TrainingRun, shown: str, step: int) -> None:
    """:class:`StaleAnswer` unless the answer is for the run's current puzzle and step."""
    current = run.current.public_id if run.current is not None else None
    if current != shown or run_step(run) != step:
        raise StaleAnswer(f"run {run.public_id} is at step {run_step(run)}, puzzle "
                          f"{current}; the answer was for step {step}, {shown}")


def answer_in_run(request: HttpRequest, run: TrainingRun, picked: Any, bonus: str,
                  shown: str, step: int) -> Step:
    """Mark the run's current puzzle, count it, and serve the next (or end the run: a
    streak at its first miss). The answer names the puzzle the page ``shown`` and the run's
    ``step`` it answers: under the run's lock, anything else is :class:`StaleAnswer` (so
    concurrent submits of one form count once). Refused once the run is over, a timed one
    by the clock."""
    with transaction.atomic():
        locked = TrainingRun.objects.select_for_update().get(pk=run.pk)
        if finish_if_due(locked) or locked.current is None:
            raise RunOver(f"run {run.public_id} is over")
        check_answers_current(locked, shown, step)
        puzzle = locked.current
        result = puzzles.answer(request, puzzle, picked, bonus, mode=locked.mode, run=locked)
        if result.verdict.solved:
            locked.solved += 1
        else:
            locked.missed += 1
        if locked.mode == TrainingRun.Mode.STREAK and not result.verdict.solved:
            locked.finished_at, locked.current = timezone.now(), None
        else:
            locked.current = next_puzzle(request, locked.variant,
                                         target=_run_target(request, locked), kind=locked.kind)
        locked.save()
    run.refresh_from_db()
    return Step(result, puzzle, run.finished_at is not None)


def last_step(run: TrainingRun) -> Attempt | None:
    return run.attempts.select_related("puzzle").order_by("-id").first()


def best_runs(request: HttpRequest, mode: str) -> int:
    """The player's best score in a mode's runs (solved puzzles)."""
    runs = TrainingRun.objects.filter(mode=mode)
    if request.user.is_authenticated:
        runs = runs.filter(user=request.user)
    else:
        visitor = puzzles.visitor_id(request, create=False)
        if not visitor:
            return 0
        runs = runs.filter(user__isnull=True, visitor=visitor)
    best = runs.order_by("-solved").values_list("solved", flat=True).first()
    return best or 0


# -- retrying the misses ------------------------------------------------------


def missed(request: HttpRequest) -> QuerySet[Attempt]:
    """The player's first answers that missed and that they haven't solved again since, of
    puzzles still on the site."""
    return puzzles.attempts_of(request).filter(solved=False, retried_at__isnull=True,
                                               puzzle__in=puzzles.open_puzzles())


def retry(request: HttpRequest, attempt: Attempt, picked: Any, bonus: str) -> Any:
    """Practise a missed puzzle again: marked, never counted (the first answer stands);
    solved, it leaves the list."""
    verdict = kinds.check(attempt.puzzle, picked, bonus)
    if verdict.solved and attempt.retried_at is None:
        attempt.retried_at = timezone.now()
        attempt.save(update_fields=["retried_at"])
    return verdict


def missed_attempt(request: HttpRequest, public_id: str) -> Attempt:
    """The player's missed first answer of a puzzle, solved again since or not (the page
    stays for practice), while the puzzle is on the site: a taken-down one is a 404."""
    found = puzzles.attempts_of(request).select_related("puzzle").filter(
        puzzle__public_id=public_id, solved=False,
        puzzle__in=puzzles.open_puzzles()).first()
    if found is None:
        raise Http404("Not a puzzle you missed")
    return found


def theme_counts(variant: str, kind: str = "") -> dict[str, int]:
    """How many open puzzles carry each theme (of a variant and kind, when given)."""
    shown = puzzles.open_puzzles()
    if variant:
        shown = shown.filter(variant=variant)
    if kind:
        shown = shown.filter(kind=kind)
    return {key: with_theme(shown, key).count() for key in BY_KEY}


def clock(seconds: int | None) -> str:
    """Seconds as the run page shows them.

    >>> clock(179), clock(0), clock(None)
    ('2:59', '0:00', '')
    """
    if seconds is None:
        return ""
    return f"{seconds // 60}:{seconds % 60:02d}"


def context_of(run: TrainingRun) -> dict[str, Any]:
    left = seconds_left(run)
    return {"run": run, "seconds_left": left, "clock": clock(left)}
