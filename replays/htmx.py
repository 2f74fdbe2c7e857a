"""What every part of the site needs from htmx: a typed request and one answer to "does this
request want a fragment of the page, or the whole page?".

``django_htmx.middleware.HtmxMiddleware`` sets ``request.htmx`` on every request; views take
an :class:`HtmxHttpRequest` so the type checker knows it is there.
"""

from __future__ import annotations

from django.http import HttpRequest
from django_htmx.middleware import HtmxDetails


class HtmxHttpRequest(HttpRequest):
    """A request that went through ``HtmxMiddleware`` (as django-htmx documents it)."""

    htmx: HtmxDetails


def wants_fragment(request: HtmxHttpRequest) -> bool:
    """An htmx swap, but not htmx restoring a page missing from its history cache (that
    one needs the whole page, or the browser would show a bare fragment)."""
    return bool(request.htmx) and not request.htmx.history_restore_request
