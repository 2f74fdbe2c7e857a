"""Operations pages: the staff dashboard (with its Retry button) and the load balancer's
health check, ``/healthz`` (docs/deploy.md)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST, require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import HttpResponseClientRedirect

from replays import health
from replays.annotation.tasks import queue_match
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.models import Match
from replays.operations.dashboard import DAY_CHOICES, days_from, metrics


def staff_required(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Anonymous visitors are sent to log in; logged-in users who are not staff get 403."""

    @wraps(view)
    def wrapped(request: HtmxHttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        user = request.user
        if not user.is_authenticated:
            if request.htmx:
                # A poll after the session ended: the whole page goes to the log-in form.
                return HttpResponseClientRedirect(
                    f"{reverse(settings.LOGIN_URL)}?{urlencode({'next': reverse('dashboard')})}")
            return redirect_to_login(request.get_full_path())
        if not (user.is_active and user.is_staff):
            raise PermissionDenied("Staff only")
        return view(request, *args, **kwargs)

    return wrapped


@never_cache
@require_GET
@vary_on_headers("HX-Request")
@staff_required
def dashboard(request: HtmxHttpRequest) -> HttpResponse:
    """The page, or (for htmx's poll) just its numbers."""
    context = metrics(days_from(request.GET.get("days")))
    context.update(day_choices=DAY_CHOICES, sees_private=sees_private(request.user))
    if wants_fragment(request):
        return render(request, "operations/dashboard.html#numbers", context)
    return render(request, "operations/dashboard.html", context)


def sees_private(user: Any) -> bool:
    """Staff with ``view_private_match`` see private and hidden matches' titles on the
    dashboard and may retry any match; other staff see what everyone sees."""
    return bool(user.has_perm("replays.view_private_match"))


@never_cache
@require_POST
@staff_required
def retry(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """Queue every hand of a match again (a failed one, or one stuck waiting). Only staff
    with ``view_private_match``: the ids are sequential, so for others every id is a 404
    (whether the match exists or not) and nothing is queued."""
    if not sees_private(request.user):
        raise Http404("No such match")
    match = get_object_or_404(Match.objects.defer("document"), pk=match_id)
    queue_match(match.pk)
    match.refresh_from_db(fields=["annotation_status", "annotation_error"])
    notice = _("Requeued “%(match)s”: now %(status)s.") % {
        "match": match, "status": match.get_annotation_status_display()}
    if match.annotation_status == Match.Status.FAILED:
        notice += " " + match.annotation_error
    days = days_from(request.POST.get("days"))
    if wants_fragment(request):
        context = metrics(days)
        context.update(notice=notice, retried=match, day_choices=DAY_CHOICES,
                       sees_private=True)
        return render(request, "operations/dashboard.html#numbers", context)
    messages.success(request, notice)
    return redirect(f"{reverse('dashboard')}?days={days}")


@never_cache
@require_safe
def healthz(request: HttpRequest) -> JsonResponse:
    """``{"database": …, "broker": …}``: 200 when both are reachable (or tasks run
    in-process), 503 otherwise. No authentication, no session, no writes."""
    report = {"database": health.database_status(), "broker": health.broker_status()}
    healthy = (report["database"] == health.OK
               and report["broker"] in (health.OK, health.IN_PROCESS))
    return JsonResponse(report, status=200 if healthy else 503)
