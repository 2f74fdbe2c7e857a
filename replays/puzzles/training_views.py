"""Training pages (issue 18): the hub, the rated stream (by theme and variant), streak and
timed runs, and retrying the misses. One template per page; htmx swaps its fragment."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games.training.themes import BY_KEY, THEMES, Theme
from replays import limits
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.models import Match, Puzzle, TrainingRun
from replays.puzzles import ratings, training
from replays.puzzles import services as puzzles
from replays.puzzles.views import (
    BadPick,
    _credit,
    _puzzle_page,
    feedback_for,
    read_answer,
    setup_for,
)


def theme_label(theme: Theme) -> str:
    """A theme's name for the reader: Chinese alone on Chinese pages."""
    if (get_language() or "").startswith("zh"):
        return theme.chinese
    return f"{theme.chinese} {theme.english}"


def _choice(request: HtmxHttpRequest, name: str) -> str:
    value = (request.POST if request.method == "POST" else request.GET).get(name, "")
    try:
        if name == "kind":
            return training.clean_kind(value)
        return training.clean_theme(value) if name == "theme" else training.clean_variant(value)
    except training.TrainingError as error:
        raise Http404(str(error)) from None


@require_GET
def hub(request: HtmxHttpRequest) -> HttpResponse:
    """``/puzzles/train/``: the modes, and the themes to practise, by variant."""
    variant, kind = _choice(request, "variant"), _choice(request, "kind")
    counts = training.theme_counts(variant, kind)
    rows = [{"key": t.key, "label": theme_label(t), "rule": t.rule, "count": counts[t.key],
             "url": _stream_link(variant, t.key, kind)} for t in THEMES
            if (not kind or kind in t.kinds) and counts[t.key]]  # no puzzle: not listed
    return render(request, "puzzles/training.html", {
        "variant": variant, "variants": Match.Variant.choices, "themes": rows,
        "kind": kind, "kinds": [(code, label, _hub_link(variant, code))
                                for code, label in Puzzle.Kind.choices],
        "all_kinds_url": _hub_link(variant, ""),
        "variant_links": [(code, name, _hub_link(code, kind))
                          for code, name in Match.Variant.choices],
        "all_variants_url": _hub_link("", kind),
        "rated_url": _stream_link(variant, "", kind), "rating": ratings.summary(request.user),
        "missed": training.missed(request).count(),
        "best_streak": training.best_runs(request, TrainingRun.Mode.STREAK),
        "best_timed": training.best_runs(request, TrainingRun.Mode.TIMED),
        "timed_minutes": training.TIMED_SECONDS // 60,
    })


def _stream_query(variant: str, theme: str, kind: str = "") -> dict[str, str]:
    return {k: v for k, v in (("variant", variant), ("theme", theme), ("kind", kind)) if v}


def _stream_link(variant: str, theme: str, kind: str = "") -> str:
    query = _stream_query(variant, theme, kind)
    return reverse("training_rated") + (f"?{urlencode(query)}" if query else "")


def _hub_link(variant: str, kind: str) -> str:
    query = {k: v for k, v in (("variant", variant), ("kind", kind)) if v}
    return reverse("training") + (f"?{urlencode(query)}" if query else "")


@require_GET
def rated(request: HtmxHttpRequest) -> HttpResponse:
    """``/puzzles/train/rated/``: picks the next unanswered puzzle near your rating (of a
    variant, theme and kind when asked) and redirects to its own address in the stream,
    so a reload shows the same puzzle; answering leads back here for the next one."""
    variant, theme = _choice(request, "variant"), _choice(request, "theme")
    kind = _choice(request, "kind")
    try:
        found = training.next_puzzle(request, variant, theme, kind=kind)
    except training.TrainingError as error:
        message = _("No puzzle of this theme is left for you in this variant (%(why)s).") % {
            "why": str(error)}
        return render(request, "puzzles/training_empty.html", {"error": message},
                      status=404)
    query = _stream_query(variant, theme, kind)
    return redirect(reverse("training_rated_puzzle", args=[found.public_id])
                    + (f"?{urlencode(query)}" if query else ""))


@require_GET
def rated_puzzle(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """``/puzzles/train/rated/<id>/``: one puzzle of the rated stream, named by its id (a
    reload shows it again, answered or not)."""
    variant, theme = _choice(request, "variant"), _choice(request, "theme")
    kind = _choice(request, "kind")
    found = get_object_or_404(puzzles.open_puzzles().select_related("match"),
                              public_id=public_id)
    summary = ratings.summary(request.user)
    stream = {"url": _stream_link(variant, theme, kind), "title": _("Rated puzzles"),
              "theme": theme_label(BY_KEY[theme]) if theme else "",
              "rating": summary.rating if summary else None}
    return _puzzle_page(request, found, daily_day=None, stream=stream)


# -- runs ---------------------------------------------------------------------


@require_POST
def start(request: HtmxHttpRequest) -> HttpResponse:
    """Start a streak or timed run (POST ``mode``, ``variant``)."""
    mode = request.POST.get("mode", "")
    try:
        run = training.start_run(request, mode, _choice(request, "variant"),
                                 _choice(request, "kind"))
    except training.TrainingError as error:
        return render(request, "puzzles/training_empty.html", {"error": str(error)},
                      status=400)
    return redirect("training_run", run.public_id)


@require_GET
def run_page(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    run = training.run_of(request, public_id)
    training.finish_if_due(run)
    wanted = _run_url(run)
    if request.get_full_path() != wanted:  # the address names the puzzle the run shows
        return redirect(wanted)
    return _run_page(request, run, None)


def _run_url(run: TrainingRun) -> str:
    """A run's page, naming the puzzle it shows now (``?puzzle=<id>``) while it has one."""
    url = reverse("training_run", args=[run.public_id])
    if run.current is not None:
        url += f"?{urlencode({'puzzle': run.current.public_id})}"
    return url


@require_POST
@vary_on_headers("HX-Request")
def run_answer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Answer the run's current puzzle; the page then shows that verdict and the next one."""
    run = training.run_of(request, public_id)
    try:
        limits.check_visitor(request, "puzzle-answer")
        if run.current is None:
            raise training.RunOver(f"run {run.public_id} is over")
        shown, at = _answered(request)
        training.check_answers_current(run, shown, at)  # before reading a pick of its kind
        picked, bonus = read_answer(request, run.current)
        step = training.answer_in_run(request, run, picked, bonus, shown, at)
    except limits.RateLimited as refusal:
        return _run_page(request, run, None, error=str(refusal), status=429)
    except BadPick as problem:
        return _run_page(request, run, None, error=str(problem), status=400)
    except training.RunOver:
        run.refresh_from_db()
        return _run_page(request, run, None, error=_(
            "This run is over: answers after its end don't count."), status=409)
    except training.StaleAnswer:
        run.refresh_from_db()
        return _run_page(request, run, None, error=_(
            "That answer was for a puzzle this run has already moved past, so it was not "
            "counted. Here is the run's current puzzle."), status=409)
    if not wants_fragment(request):
        return redirect(_run_url(run))
    response = _run_page(request, run, step)
    response["HX-Push-Url"] = _run_url(run)  # the address names the next puzzle
    return response


def _answered(request: HtmxHttpRequest) -> tuple[str, int]:
    """The puzzle and run step a run's answer form says it answers (its hidden ``puzzle``
    and ``step`` fields); :class:`BadPick` when they are missing or unreadable."""
    shown, step = request.POST.get("puzzle", ""), request.POST.get("step", "")
    if not shown or not (step.isascii() and step.isdigit()):
        raise BadPick(_("The answer must name the puzzle and the step of the run it answers "
                        "(the form's puzzle and step fields): reload the page."))
    return shown[:32], int(step[:9])


def _run_page(request: HtmxHttpRequest, run: TrainingRun, step: training.Step | None,
              error: str = "", status: int = 200) -> HttpResponse:
    last = training.last_step(run)
    context: dict[str, Any] = {
        **training.context_of(run), "error": error, "variants": Match.Variant.choices,
        "best": training.best_runs(request, run.mode), "form_target": "#run",
        "form_action": reverse("training_run_answer", args=[run.public_id]),
    }
    if last is not None:
        verdict = puzzles.verdict_of(last)
        context.update({"last": last, "verdict": verdict, "attempt": last, "counted": True,
                        "feedback": feedback_for(last.puzzle, verdict),
                        "credit": _credit(request, last.puzzle)})
    if run.current is not None:
        context.update({"puzzle": run.current, "setup": setup_for(run.current),
                        "current_credit": _credit(request, run.current),
                        # the answer names what it answers: a stale one is refused (409)
                        "form_hidden": [("puzzle", run.current.public_id),
                                        ("step", training.run_step(run))]})
    template = "puzzles/training_run.html"
    if wants_fragment(request) and request.method == "POST":
        template += "#run"
    return render(request, template, context, status=status)


# -- retrying the misses ------------------------------------------------------


@require_GET
def missed(request: HtmxHttpRequest) -> HttpResponse:
    rows = training.missed(request).select_related("puzzle")[:100]
    return render(request, "puzzles/training_missed.html", {"rows": rows})


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def retry(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A missed puzzle again, for practice: marked, never counted."""
    attempt = training.missed_attempt(request, public_id)
    context: dict[str, Any] = {
        "puzzle": attempt.puzzle, "setup": setup_for(attempt.puzzle), "first": attempt,
        "form_action": reverse("training_retry", args=[public_id]), "error": "",
        "credit": _credit(request, attempt.puzzle),
    }
    status = 200
    if request.method == "POST":
        try:
            picked, bonus = read_answer(request, attempt.puzzle)
        except BadPick as problem:
            context["error"], status = str(problem), 400
        else:
            verdict = training.retry(request, attempt, picked, bonus)
            puzzles.record_reveal(request, attempt.puzzle)
            context.update({"verdict": verdict, "counted": True,
                            "feedback": feedback_for(attempt.puzzle, verdict),
                            "next_missed": training.missed(request).select_related(
                                "puzzle").exclude(pk=attempt.pk).first()})
    template = "puzzles/training_retry.html"
    if wants_fragment(request) and request.method == "POST":
        template += "#answer"
    return render(request, template, context, status=status)
