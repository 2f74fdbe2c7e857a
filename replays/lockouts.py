"""Log-in lockouts (issue 24): failed log-ins counted per (user name, address) and per
address, never per name alone, with django-axes (docs/deploy.md).

Counting per name alone let anyone lock the real owner out (root included) from anywhere
for as long as they kept guessing. Here a name is locked only from the address that failed
with it ``LOGIN_FAILURES_PER_NAME`` times, and an address trying many names is locked after
``LOGIN_FAILURES_PER_ADDRESS`` failures in all; the owner logs in from elsewhere. A lockout
lasts ``LOGIN_LOCKOUT_MINUTES`` after the last failure it counted; while it lasts nothing
more is written, so a locked address keeps hammering at no cost to the database.

Axes takes one failure limit for all its lockout parameters (``AXES_LOCKOUT_PARAMETERS``
names the pair and the address): :class:`PairAndAddressHandler` counts both and holds the
address to a limit of its own (an address's failures always include each of its pairs', so
one limit would lock by address alone).
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from axes.attempts import get_cool_off_threshold
from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_client_username, get_cool_off, get_failure_limit
from axes.models import AccessAttempt
from django.conf import settings
from django.contrib.auth.forms import AuthenticationForm
from django.db.models import Sum
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from replays import limits


class PairAndAddressHandler(AxesDatabaseHandler):  # type: ignore[misc]  # axes is untyped
    """Axes' database handler with a limit per address besides the one per (name, address):
    the failures it reports reach ``AXES_FAILURE_LIMIT`` (``LOGIN_FAILURES_PER_NAME``) when
    the pair's count reaches it or the address's reaches ``LOGIN_FAILURES_PER_ADDRESS``."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        recent = AccessAttempt.objects.filter(
            ip_address=request.axes_ip_address,
            attempt_time__gte=get_cool_off_threshold(request))
        name = get_client_username(request, credentials)
        pair = _failures(recent.filter(username=name))
        if _failures(recent) >= settings.LOGIN_FAILURES_PER_ADDRESS:
            return max(pair, int(get_failure_limit(request, credentials)))
        return pair


def _failures(attempts: Any) -> int:
    return int(attempts.aggregate(n=Sum("failures_since_start"))["n"] or 0)


def login_name(request: HttpRequest, credentials: dict[str, Any] | None) -> str:
    """The name a failure is counted under: as typed, case and spaces aside (BOB and bob
    are one name to guess), cut to the longest a user name can be."""
    typed = (credentials or {}).get("username")
    if typed is None:
        typed = request.POST.get("username", "")
    return str(typed).strip().lower()[:150]


def locked_out(request: HttpRequest, response: HttpResponse | None = None,
               credentials: dict[str, Any] | None = None) -> HttpResponse:
    """The log-in page again (an unbound form: binding it would check the password, which
    is the point), saying why and for how long, with 429."""
    pause: dt.timedelta = get_cool_off(request)
    wait = limits.duration(int(pause.total_seconds()))
    refusal = _("Too many failed log-ins from your address: logging in from it is paused. "
                "Try again in %(wait)s.") % {"wait": wait}
    return render(request, "registration/login.html", {
        "form": AuthenticationForm(request), "refusal": refusal,
        "next": request.POST.get("next", "")}, status=429)
