"""What a visitor may cost the site (issue 16): rate limits and a bounded request body.

Rate limits count requests per scope and visitor (address or account) in fixed windows,
in the ``limits`` cache: Redis shared by every web machine when ``RATE_LIMIT_CACHE_URL`` is
set, else each process's memory. A limit is ``"count/seconds"`` in ``RATE_LIMITS``; over
it, :func:`check` raises :class:`RateLimited`, whose sentence names the limit.

:class:`BoundedUploadHandler` stops reading a multipart body as soon as it passes
``MAX_REQUEST_BYTES`` (by its declared length, or by the bytes actually received), and
skips a file past ``MAX_UPLOAD_BYTES`` without keeping it.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.core.exceptions import ImproperlyConfigured
from django.core.files.uploadhandler import FileUploadHandler, SkipFile, StopUpload
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext


@dataclass(frozen=True)
class Rate:
    count: int
    seconds: int

    @classmethod
    def parse(cls, scope: str, text: str) -> Rate:
        """``"20/3600"``: 20 requests in an hour.

        >>> Rate.parse("login", "10/300")
        Rate(count=10, seconds=300)
        """
        count, _slash, seconds = text.partition("/")
        try:
            rate = cls(int(count), int(seconds))
        except ValueError:
            rate = cls(0, 0)
        if rate.count < 1 or rate.seconds < 1:
            raise ImproperlyConfigured(
                f"the {scope} rate limit {text!r} is not COUNT/SECONDS, e.g. 20/3600")
        return rate


class RateLimited(Exception):
    """Over a rate limit: ``str()`` is the sentence to show, naming the limit."""

    def __init__(self, scope: str, rate: Rate, retry_after: int) -> None:
        self.scope, self.rate, self.retry_after = scope, rate, retry_after
        super().__init__(_("Too many requests: %(what)s is limited to %(count)d per "
                           "%(period)s. Try again in %(wait)s.") % {
            "what": scope_name(scope), "count": rate.count, "period": duration(rate.seconds),
            "wait": duration(retry_after)})


def scope_name(scope: str) -> str:
    names = {"upload-visitor": _("uploading from one address"),
             "upload-account": _("uploading from one account"),
             "login": _("logging in"), "signup": _("creating accounts"),
             "puzzle-answer": _("answering puzzles")}
    return names.get(scope, scope)


def duration(seconds: int) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        hours = seconds // 3600
        return ngettext("%(n)d hour", "%(n)d hours", hours) % {"n": hours}
    if seconds >= 60:
        minutes = math.ceil(seconds / 60)
        return ngettext("%(n)d minute", "%(n)d minutes", minutes) % {"n": minutes}
    return ngettext("%(n)d second", "%(n)d seconds", seconds) % {"n": seconds}


def check(scope: str, who: str) -> None:
    """Count one request of ``who`` in ``scope``; raise :class:`RateLimited` past the
    limit (nothing is counted while rate limits are off)."""
    if not settings.RATE_LIMITS_ENABLED or not who:
        return
    rate = Rate.parse(scope, settings.RATE_LIMITS[scope])
    now = time.time()
    window = int(now // rate.seconds)
    key = f"{scope}:{who}:{window}"
    cache = caches["limits"]
    cache.add(key, 0, timeout=rate.seconds + 1)
    try:
        count = cache.incr(key)
    except ValueError:  # expired between add and incr: this request opens the window
        cache.set(key, 1, timeout=rate.seconds + 1)
        count = 1
    if count > rate.count:
        raise RateLimited(scope, rate, max(1, math.ceil((window + 1) * rate.seconds - now)))


def address_of(request: HttpRequest) -> str:
    from replays.puzzles.services import client_address

    return client_address(request) or "unknown"


def check_visitor(request: HttpRequest, scope: str) -> None:
    """Count a request against the visitor's address."""
    check(scope, f"ip:{address_of(request)}")


class BoundedBodyMiddleware:
    """Refuses a request whose declared body is over ``MAX_REQUEST_BYTES`` with 413 before
    anything reads it (the CSRF check would read a form's fields first). Django never reads
    past the declared length, so a body can't be longer than this allowed."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if declared > settings.MAX_REQUEST_BYTES:
            return render(request, "library/upload.html#results" if request.headers.get(
                "HX-Request") else "library/refused.html", {
                "refusal": too_big(declared), "results": [], "form": None}, status=413)
        return self.get_response(request)


class BoundedUploadHandler(FileUploadHandler):
    """First of ``FILE_UPLOAD_HANDLERS``: passes the data on to Django's own handlers, and
    stops reading the body past ``MAX_REQUEST_BYTES`` (``StopUpload`` with a connection
    reset: the rest is never read) or skips a file past ``MAX_UPLOAD_BYTES``. What it
    refused is noted on the request (``upload_refusals``) for the page to say."""

    def __init__(self, request: Any = None) -> None:
        super().__init__(request)
        self.received = 0
        self.file_received = 0

    def _refuse(self, name: str, message: str) -> None:
        if self.request is not None:
            refusals = getattr(self.request, "upload_refusals", [])
            refusals.append((name, message))
            setattr(self.request, "upload_refusals", refusals)  # noqa: B010 - not an HttpRequest attribute

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.file_received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        self.file_received += len(raw_data)
        if self.received > settings.MAX_REQUEST_BYTES:
            self._refuse("", too_big(self.received))
            raise StopUpload(connection_reset=True)
        if self.file_received > settings.MAX_UPLOAD_BYTES:
            self._refuse(self.file_name or "file", _(
                "the file is over %(limit)s bytes; the limit is %(limit)s bytes") % {
                "limit": f"{settings.MAX_UPLOAD_BYTES:,}"})
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler keeps the file


def too_big(size: int) -> str:
    """The whole request is too big: nothing in it was read."""
    return _("The upload is %(size)s bytes; the limit is %(limit)s bytes for all files "
             "together: nothing was stored.") % {
        "size": f"{size:,}", "limit": f"{settings.MAX_REQUEST_BYTES:,}"}
