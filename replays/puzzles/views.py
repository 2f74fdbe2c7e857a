"""Puzzle pages: the daily puzzle, one puzzle, answering, the archive, progress, leaders."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from games.core.position import Position
from games.core.tiles import TILES, Tile
from games.training import puzzles as engine
from games.variants.positions import read_position
from games.variants.registry import NAMES, VARIANTS
from replays import limits
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.matches.board import TileView
from replays.matches.links import step_url
from replays.models import DailyPuzzle, Match, Puzzle, RatingChange, shown_puzzles
from replays.puzzles import kinds, ratings
from replays.puzzles import services as puzzles
from replays.tile_names import notation_from_names, wildcard_name

STREAM_PREFIX = "/puzzles/train/"
SUIT_NAMES = {"m": gettext_lazy("万 characters"), "p": gettext_lazy("饼 dots"),
              "s": gettext_lazy("条 bamboo")}


def _variant_from(request: HtmxHttpRequest) -> str:
    variant = request.GET.get("variant", NAMES[0])
    if variant not in puzzles.VARIANTS:
        raise Http404("No such variant")
    return variant


@require_GET
def daily(request: HtmxHttpRequest) -> HttpResponse:
    """``/puzzles/daily/?variant=V``: today's puzzle of a variant, the same for everyone."""
    variant = _variant_from(request)
    today = puzzles.puzzle_day()
    chosen = puzzles.daily(variant, today)
    # Its own address: a reload (or a link shared) shows this puzzle, even after midnight.
    return redirect(chosen.puzzle.get_absolute_url())


@require_GET
def puzzle(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    found = get_object_or_404(puzzles.open_puzzles().select_related("match"),
                              public_id=public_id)
    return _puzzle_page(request, found, daily_day=_daily_day_of(found))


def _daily_day_of(found: Puzzle) -> Any:
    row = DailyPuzzle.objects.filter(puzzle=found, day__lte=puzzles.puzzle_day()).first()
    return row.day if row else None


def _puzzle_page(request: HtmxHttpRequest, found: Puzzle, daily_day: Any,
                 result: puzzles.Result | None = None, error: str = "",
                 status: int = 200, stream: dict[str, Any] | None = None) -> HttpResponse:
    attempt = result.attempt if result else puzzles.attempts_of(request).filter(
        puzzle=found).first()
    verdict = result.verdict if result else (
        puzzles.verdict_of(attempt) if attempt else None)
    if verdict is not None:  # the page shows the answer: later answers from here don't rank
        puzzles.record_reveal(request, found)
    context = {
        "puzzle": found, "setup": setup_for(found), "daily_day": daily_day,
        "variants": Match.Variant.choices,
        "attempt": attempt, "verdict": verdict, "counted": result.counted if result else True,
        "error": error, "feedback": feedback_for(found, verdict) if verdict else None,
        "credit": _credit(request, found),
        "next_url": stream_url(request.POST.get("next", "") or request.GET.get("next", "")),
        "stream": stream,
    }
    if stream is not None:
        context["form_hidden"] = [("next", stream["url"])]
    if verdict is not None:
        progress = puzzles.progress(puzzles.attempts_of(request))
        context["progress"] = progress
        # A daily puzzle counts the days in a row, any other the puzzles solved in a row:
        # right after a solve either is at least 1.
        context["streak"] = progress.streak if daily_day else progress.in_a_row
        context["share"] = puzzles.share_text(found, verdict, daily_day, context["streak"])
        context["rating_change"] = RatingChange.objects.filter(attempt=attempt).first()
    if wants_fragment(request) and request.method == "POST":
        return render(request, "puzzles/puzzle.html#answer", context, status=status)
    return render(request, "puzzles/puzzle.html", context, status=status)


@require_POST
@vary_on_headers("HX-Request")
def answer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Mark the picked tiles (checkboxes ``tile`` and/or ``notation`` text) and the bonus."""
    found = get_object_or_404(puzzles.open_puzzles(), public_id=public_id)
    daily_day = _daily_day_of(found)
    try:
        limits.check_visitor(request, "puzzle-answer")
    except limits.RateLimited as refusal:
        return _puzzle_page(request, found, daily_day, status=429, error=str(refusal))
    try:
        ordered, bonus = read_answer(request, found)
    except BadPick as problem:
        return _puzzle_page(request, found, daily_day, status=400, error=str(problem))
    next_url = stream_url(request.POST.get("next", ""))
    result = puzzles.answer(request, found, ordered, bonus, mode="rated" if next_url else "")
    if not wants_fragment(request):
        if not result.counted:
            messages.info(request, _("You answered this puzzle before: your first answer is "
                                     "the one that counts."))
        query = f"?{urlencode({'next': next_url})}" if next_url else ""
        return redirect(found.get_absolute_url() + query + "#answer")
    return _puzzle_page(request, found, daily_day, result=result)


class BadPick(ValueError):
    """A pick a form sent that can't be marked; the message says why, for the player."""


def read_answer(request: HtmxHttpRequest, found: Puzzle) -> tuple[Any, str]:
    """An answer of the puzzle's kind: winning tiles and the bonus ("what wins"), the
    typed counts ("how much", a dict) or the one tile to discard; :class:`BadPick` names
    what can't be read."""
    try:
        if found.kind == Puzzle.Kind.PAY:
            return kinds.read_pay(request.POST, found)
        if found.kind == Puzzle.Kind.DISCARD:
            return kinds.read_discard(request.POST, found)
        if found.kind == Puzzle.Kind.EXCHANGE:
            return kinds.read_exchange(request.POST, found)
    except kinds.BadAnswer as problem:
        raise BadPick(str(problem)) from None
    return read_pick(request)


def setup_for(found: Puzzle) -> dict[str, Any]:
    """What the page shows of a puzzle of any kind before the answer."""
    if found.kind == Puzzle.Kind.PAY:
        return kinds.pay_setup(found)
    if found.kind == Puzzle.Kind.DISCARD:
        return kinds.discard_setup(found)
    if found.kind == Puzzle.Kind.EXCHANGE:
        return kinds.exchange_setup(found)
    return _setup(found)


def feedback_for(found: Puzzle, verdict: Any) -> dict[str, Any]:
    """The answer of a puzzle of any kind, as the page shows it after an answer."""
    if found.kind == Puzzle.Kind.PAY:
        return kinds.pay_feedback(found, verdict)
    if found.kind == Puzzle.Kind.DISCARD:
        return kinds.discard_feedback(found, verdict)
    if found.kind == Puzzle.Kind.EXCHANGE:
        return kinds.exchange_feedback(found, verdict)
    return _feedback(found, verdict)


def read_pick(request: HtmxHttpRequest) -> tuple[list[str], str]:
    """The picked tiles (checkboxes ``tile`` and/or ``notation`` text) in tile order, and the
    bonus tile; :class:`BadPick` names what can't be read."""
    picked = set(request.POST.getlist("tile"))
    known = {str(t) for t in TILES}
    unknown = sorted(picked - known)
    if unknown:
        raise BadPick(_("%(tile)s is not a tile.") % {"tile": unknown[0][:8]})
    try:
        picked |= set(engine.parse_pick(notation_from_names(
            request.POST.get("notation", "")[:200])))
    except engine.PickError as problem:
        raise BadPick(_(
            "Can't read “%(word)s” as tiles: character %(position)s is not tile notation "
            "(C-1). Write tiles like 36p 7z.") % {"word": problem.word[:20],
                                                   "position": problem.position}) from None
    bonus = request.POST.get("bonus", "").strip()
    if bonus and bonus not in known:
        raise BadPick(_("The best wait must be one tile, like 5m."))
    if not picked:
        raise BadPick(_("Pick at least one winning tile: click tiles or type them, like 36p 7z."))
    return sorted(picked, key=lambda t: Tile.parse(t).kind), bonus


def stream_url(value: str) -> str:
    """A "next puzzle" address a form or link carried: only the site's own training pages."""
    if value.startswith(STREAM_PREFIX) and url_has_allowed_host_and_scheme(
            value, allowed_hosts=None) and "//" not in value and len(value) < 200:
        return value
    return ""


@require_GET
def archive(request: HtmxHttpRequest) -> HttpResponse:
    """Every puzzle, daily ones with their day, with how often each was solved."""
    variant = request.GET.get("variant", "")
    rows = puzzles.solve_rates(shown_puzzles().filter(
        dailies__day__lte=puzzles.puzzle_day()).distinct())
    if variant in puzzles.VARIANTS:
        rows = rows.filter(variant=variant)
    page = Paginator(rows.order_by("-dailies__day", "-id").prefetch_related("dailies"),
                     30).get_page(request.GET.get("page"))
    mine = dict(puzzles.attempts_of(request).filter(
        puzzle__in=[p.pk for p in page]).values_list("puzzle_id", "solved"))
    today = puzzles.puzzle_day()
    return render(request, "puzzles/archive.html", {
        "page": page, "variant": variant, "variants": Match.Variant.choices, "mine": mine,
        "today": today, "more": puzzles.solve_rates(shown_puzzles().filter(
            dailies__isnull=True, source__in=puzzles.REAL_SOURCES))[:12]})


@require_GET
def profile(request: HtmxHttpRequest) -> HttpResponse:
    """Your rating, streak, accuracy and points, and your level on the JX-11 ladder (by the
    points won in play only: the puzzles have the rating)."""
    attempts = puzzles.attempts_of(request)
    return render(request, "puzzles/profile.html", {
        "progress": puzzles.progress(attempts),
        "recent": attempts.select_related("puzzle")[:20],
        "ladder": engine.LADDER,
        "rating": ratings.summary(request.user),
        "rating_chart": ratings.history_chart(request.user),
        "min_answers": ratings.LEADERBOARD_MIN_ANSWERS,
    })


@require_GET
def leaderboard(request: HtmxHttpRequest) -> HttpResponse:
    """Players by puzzle rating, from ``LEADERBOARD_MIN_ANSWERS`` rated answers on."""
    return render(request, "puzzles/leaderboard.html",
                  {"rows": ratings.leaderboard(50),
                   "min_answers": ratings.LEADERBOARD_MIN_ANSWERS})


# -- what the page shows ------------------------------------------------------


def _setup(found: Puzzle) -> dict[str, Any]:
    position = read_position(found.position)
    wild = position.wildcards
    hand = sorted(position.hand, key=lambda t: (t.kind not in wild, t.kind))
    variant = position.variant
    return {
        "hand": [TileView(t, wild=t.kind in wild) for t in hand],
        "melds": [[TileView(t) for t in m.tiles] for m in position.melds],
        "wildcards": [TileView(TILES[k], wild=True) for k in sorted(wild)],
        "seat_wind": _wind(position.seat_wind),
        "round_wind": _wind(position.round_wind) if "round_wind" in variant.HAND_FIELDS else None,
        "dealer": position.is_dealer,
        "void": str(SUIT_NAMES["mps"[position.void]]) if position.void is not None else None,
        "flowers": position.flowers,
        "choices": [str(t) for t in variant.drawable(position)],
        "rule": variant.WIN_RULES,
        "wildcard_name": wildcard_name(variant),
        "has_flowers": variant.HAS_FLOWERS,
        "seen": len(position.seen),
        "ways": _ways(position),
        **kinds.bank_context(position), **kinds.streak_context(position),
    }


def _ways(position: Position) -> list[str]:
    """The way of winning the position is set in, when it is not a plain self-draw: the
    player must know it to find the winning tiles and their values."""
    ways = []
    if position.after_kong:
        ways.append(_("You have just declared a kong: the tile you draw next is its "
                      "replacement from the back of the wall."))
    if position.robbing_gold:
        ways.append(_("The dealer hasn't discarded yet: a ready hand may take one of the "
                      "turned-up golds and win at once (抢金, PT-5.5)."))
    return ways


def _wind(index: int) -> str:
    return (_("East 东"), _("South 南"), _("West 西"), _("North 北"))[index]


def _feedback(found: Puzzle, verdict: engine.Verdict) -> dict[str, Any]:
    unit = VARIANTS[found.variant].SCORE_UNIT
    waits = []
    for wait in found.answer["waits"]:
        score = wait["score"]
        waits.append({
            "tile": wait["tile"], "remaining": wait["remaining"], "points": wait["points"],
            "tai": score.get("tai"), "fan": score.get("fan"), "reading": score.get("reading"),
            "patterns": score.get("patterns", []), "best": wait["tile"] in found.answer["best"],
            "status": "right" if wait["tile"] in verdict.right else "missed",
        })
    traps = [{**trap, "text": trap_text(trap)} for trap in found.answer.get("traps", [])]
    return {"waits": waits, "traps": traps, "unit": unit, "wrong": verdict.wrong}


def trap_text(trap: dict[str, Any]) -> str:
    """Why a trap tile doesn't win, in the reader's language where the rule is one the
    engine words the same way every time; else the engine's own sentence."""
    rule = trap.get("rule", "")
    if trap.get("copies") is not None:
        return _("%(rule)s: all %(copies)s copies of %(tile)s are in this hand already") % {
            "rule": rule, "copies": trap["copies"], "tile": trap["tile"]}
    if rule == "JX-5.3":
        return _("JX-5.3: a win needs 清一色, 混一色, 全老头 or 对对和")
    return str(trap.get("reason", ""))


def _credit(request: HtmxHttpRequest, found: Puzzle) -> dict[str, Any] | None:
    """Where a puzzle from a real game comes from: the replay and its moment for those who
    may see it (a played match's replay is private: its player, and permitted staff)."""
    match = found.match
    if found.source not in puzzles.REAL_SOURCES or match is None:
        return None
    played = found.source == Puzzle.Source.PLAYED
    if not match.visible_to(request.user):
        return {"title": None, "played": played}
    if found.kind == Puzzle.Kind.DISCARD:  # the position stands before its event, as the
        # values panel links a decision: that seat's view at the step before
        url = step_url(match, found.hand_number or 1, max((found.event_number or 1) - 1, 0),
                       found.seat)
    else:
        url = step_url(match, found.hand_number or 1, found.event_number or 0,
                       found.seat if played else None)
    return {"title": str(match), "hand": found.hand_number, "seat": found.seat,
            "played": played, "url": url}
