"""The annotation's own page part: its progress, polled by the viewer."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from replays.annotation.tasks import progress as count
from replays.annotation.value_view import totals, trends
from replays.annotation.values import SEATS, queue_values
from replays.annotation.values import progress as values_progress_count
from replays.htmx import HtmxHttpRequest
from replays.matches.services import visible_match
from replays.models import Match
from replays.security import mark_not_shared

FINISHED = (Match.Status.DONE, Match.Status.FAILED)


def progress(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The annotation status of a match; polled by htmx until it is done or failed. The
    poll that finds it finished reloads the page it is on (``HX-Refresh``): the analysis
    panel and the values line come with the page, not with this fragment."""
    match = visible_match(request, public_id)
    done, total = count(match)
    response = render(request, "annotation/progress.html", {
        "match": match, "done": done, "total": total})
    return mark_not_shared(_reload_when_finished(request, response, match.annotation_status),
                           match)


def values_progress(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The values pass's status of a match; polled by htmx while it runs, and, like the
    annotation's, reloading the page once it has finished (the values join the panel)."""
    match = visible_match(request, public_id)
    response = render(request, "annotation/values_status.html", values_context(request, match))
    return mark_not_shared(_reload_when_finished(request, response, match.values_status), match)


def _reload_when_finished(request: HtmxHttpRequest, response: HttpResponse,
                          status: str) -> HttpResponse:
    if request.htmx and status in FINISHED:
        response["HX-Refresh"] = "true"
    return response


def values_context(request: HtmxHttpRequest, match: Match) -> dict[str, Any]:
    """What the values status shows: progress, and whether this user may ask for more
    (seats not valued yet, the hands an anonymous upload's cap left out, or after a
    failure). Asked while a run is under way, its tasks send what is added in turn."""
    done, total = values_progress_count(match)
    may_ask = match.owned_by(request.user) or bool(getattr(request.user, "is_staff", False))
    unvalued = [seat for seat in SEATS if seat not in (match.values_seats or [])]
    more = bool(unvalued) or total < match.hand_count
    return {"match": match, "values_done": done, "values_total": total,
            "values_partial": total < match.hand_count,
            "values_may_ask": may_ask and (match.values_status == Match.Status.FAILED or more),
            "values_seat_choices": [(seat, seat + 1) for seat in SEATS]}


@require_POST
@login_required
def value_all_seats(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The owner (or staff) asks for one seat's values (``seat`` 0-3) or every seat's
    (``seat`` empty or absent), of every hand; after a failure this queues the missing
    hands again (rows already stored are kept)."""
    match = visible_match(request, public_id)
    if not (match.owned_by(request.user) or request.user.is_staff):
        raise Http404("No such replay")
    seat = request.POST.get("seat", "")
    if seat not in ("", *(str(s) for s in SEATS)):
        return HttpResponseBadRequest(_("unknown seat: choose seat 1 to 4, or every seat"))
    queue_values(match.pk, [int(seat)] if seat else list(SEATS))
    messages.success(request, _("Seat %(seat)s's choices are being valued.") % {
        "seat": int(seat) + 1} if seat else _("Every seat's choices are being valued."))
    return redirect(match)


@login_required
def my_trends(request: HtmxHttpRequest) -> HttpResponse:
    """``/me/trends/``: the signed-in player's own valued matches, newest first."""
    rows = trends(request.user)
    overall = totals([row for row in rows]) if rows else None
    peak = max((row["lost_per_decision"] for row in rows), default=0.0) or 1.0
    for row in rows:
        row["bar"] = round(100 * row["lost_per_decision"] / peak)
    response = render(request, "annotation/trends.html", {"rows": rows, "overall": overall})
    response["Cache-Control"] = "private, no-store"
    return response
