"""The annotation's own page part: its progress, polled by the viewer."""

from __future__ import annotations

from django.http import HttpResponse
from django.shortcuts import render

from replays.annotation.tasks import progress as count
from replays.htmx import HtmxHttpRequest
from replays.library.services import visible_match
from replays.security import mark_not_shared


def progress(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The annotation status of a match; polled by htmx until it is done or failed."""
    match = visible_match(request, public_id)
    done, total = count(match)
    return mark_not_shared(render(request, "annotation/progress.html", {
        "match": match, "done": done, "total": total}), match)
