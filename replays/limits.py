"""What a visitor may cost the site (issues 16 and 24): rate limits, upload budgets and a
bounded request body.

Rate limits count requests per scope and visitor (address or account) in fixed windows,
in the ``limits`` cache: Redis shared by every web machine when ``RATE_LIMIT_CACHE_URL`` is
set, else each process's memory. A limit is ``"count/seconds"`` in ``RATE_LIMITS``; over
it, :func:`check` raises :class:`RateLimited`, whose sentence names the limit.

Upload budgets (issue 24) count what uploads cost rather than requests: the bytes of the
documents, the hands the engine replays and the engine's CPU time, per visitor (address,
an IPv6 visitor's /64) and per account, in the same cache and windows (``UPLOAD_BUDGETS``,
``"amount/seconds"``). A :class:`Payer` takes bytes and hands before the work is done and
is charged the CPU time after it; a spent budget raises :class:`BudgetSpent` (a
:class:`RateLimited`: 429 with ``Retry-After``), whose sentence names the budget.

:class:`BoundedUploadHandler` stops reading a multipart body as soon as it passes
``MAX_REQUEST_BYTES`` (by its declared length, or by the bytes actually received), and
skips a file past ``MAX_UPLOAD_BYTES`` without keeping it.
"""

from __future__ import annotations

import ipaddress
import math
import socket
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
from django.template.defaultfilters import filesizeformat
from django.utils import translation
from django.utils.crypto import salted_hmac
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
    """Over a rate limit: ``str()`` is the sentence to show, naming the limit;
    ``retry_after`` is the ``Retry-After`` header's seconds."""

    def __init__(self, scope: str, rate: Rate, retry_after: int,
                 sentence: str | None = None) -> None:
        self.scope, self.rate, self.retry_after = scope, rate, retry_after
        super().__init__(sentence or _(
            "Too many requests: %(what)s is limited to %(count)d per %(period)s. Try again "
            "in %(wait)s.") % {
            "what": scope_name(scope), "count": rate.count, "period": duration(rate.seconds),
            "wait": duration(retry_after)})


def scope_name(scope: str) -> str:
    names = {"upload-visitor": _("uploading from one address"),
             "upload-account": _("uploading from one account"),
             "login": _("logging in"), "signup": _("creating accounts"),
             "puzzle-answer": _("answering puzzles"),
             "play-start-visitor": _("starting matches from one address"),
             "play-start-account": _("starting matches from one account"),
             "danger-visitor": _("showing the danger of tiles"),
             "play-hint-visitor": _("asking for hints at the table"),
             "ledger-create-visitor": _("starting ledgers from one address"),
             "ledger-row-visitor": _("entering ledger rows from one address"),
             "record-start-visitor": _("starting recordings from one address")}
    return names.get(scope, scope)


def retry_after(response: HttpResponse, refusal: RateLimited) -> HttpResponse:
    """The response with the ``Retry-After`` header of a rate or budget refusal."""
    response["Retry-After"] = str(refusal.retry_after)
    return response


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
    count, wait = _add(scope, who, rate, 1)
    if count > rate.count:
        raise RateLimited(scope, rate, wait)


def refund(scope: str, who: str) -> None:
    """Take back one request counted by :func:`check` (it started nothing, e.g. a form
    refused for a bad value: only what was really started counts)."""
    if not settings.RATE_LIMITS_ENABLED or not who:
        return
    _add(scope, who, Rate.parse(scope, settings.RATE_LIMITS[scope]), -1)


def _add(scope: str, who: str, rate: Rate, amount: int) -> tuple[int, int]:
    """Add ``amount`` to the counter of ``who`` in ``scope``'s current window: the new
    total, and the seconds until the window ends."""
    now = time.time()
    window = int(now // rate.seconds)
    key = f"{scope}:{who}:{window}"
    cache = caches["limits"]
    cache.add(key, 0, timeout=rate.seconds + 1)
    try:
        total = int(cache.incr(key, amount))
    except ValueError:  # expired between add and incr: this amount opens the window
        cache.set(key, amount, timeout=rate.seconds + 1)
        total = amount
    return total, max(1, math.ceil((window + 1) * rate.seconds - now))


def _used(scope: str, who: str, rate: Rate) -> tuple[int, int]:
    """The counter of ``who`` in ``scope``'s current window, and the seconds left in it."""
    now = time.time()
    window = int(now // rate.seconds)
    used = caches["limits"].get(f"{scope}:{who}:{window}", 0)
    return int(used), max(1, math.ceil((window + 1) * rate.seconds - now))


def client_address(request: HttpRequest) -> str | None:
    """The visitor's address: ``REMOTE_ADDR``, or behind a proxy the last address of the
    header it appends (``CLIENT_IP_HEADER``, e.g. ``HTTP_X_FORWARDED_FOR``)."""
    header = settings.CLIENT_IP_HEADER
    value = request.META.get(header, "") if header else ""
    address = value.split(",")[-1].strip() if value else request.META.get("REMOTE_ADDR", "")
    try:
        return str(ipaddress.ip_address(address))
    except ValueError:
        return None


def address_of(request: HttpRequest) -> str:
    return client_address(request) or "unknown"


def check_visitor(request: HttpRequest, scope: str) -> None:
    """Count a request against the visitor's address."""
    check(scope, f"ip:{address_of(request)}")


# -- upload budgets (issue 24) ----------------------------------------------------------

BUDGET_KINDS = ("bytes", "hands", "cpu")
# Budgets are counted in whole units: bytes, hands, and CPU time in milliseconds (the
# settings give CPU seconds).
_UNIT = {"bytes": 1, "hands": 1, "cpu": 1000}


def budget_rate(scope: str) -> Rate:
    """A budget's amount (in its counting unit) per window, from ``UPLOAD_BUDGETS``."""
    rate = Rate.parse(scope, settings.UPLOAD_BUDGETS[scope])
    return Rate(rate.count * _UNIT[scope.split("-")[1]], rate.seconds)


def budget_amount(kind: str, amount: int) -> str:
    """An amount of a budget as a reader reads it: bytes as a size, CPU as a duration."""
    if kind == "bytes":
        return str(filesizeformat(amount))
    if kind == "cpu":
        return duration(max(1, amount // _UNIT["cpu"]))
    return ngettext("%(n)s hand", "%(n)s hands", amount) % {"n": f"{amount:,}"}


def budget_name(scope: str, rate: Rate) -> str:
    """The budget, named: what it limits, to how much, per which period."""
    kind, payer = scope.split("-")[1:3]
    values = {"amount": budget_amount(kind, rate.count), "period": duration(rate.seconds)}
    names = {
        ("bytes", "visitor"): _("documents uploaded from one address are limited to "
                                "%(amount)s per %(period)s"),
        ("bytes", "account"): _("documents uploaded by one account are limited to "
                                "%(amount)s per %(period)s"),
        ("hands", "visitor"): _("hands checked for one address are limited to %(amount)s "
                                "per %(period)s"),
        ("hands", "account"): _("hands checked for one account are limited to %(amount)s "
                                "per %(period)s"),
        ("cpu", "visitor"): _("the rules engine's time for one address's uploads is "
                              "limited to %(amount)s per %(period)s"),
        ("cpu", "account"): _("the rules engine's time for one account's uploads is "
                              "limited to %(amount)s per %(period)s"),
    }
    return names[(kind, payer)] % values


class BudgetSpent(RateLimited):
    """An upload budget is spent (or this document would overspend it): the sentence
    names the budget and says when it is renewed."""

    def __init__(self, scope: str, rate: Rate, retry_after: int) -> None:
        super().__init__(scope, rate, retry_after, _(
            "Upload budget spent: %(budget)s. Try again in %(wait)s.") % {
            "budget": budget_name(scope, rate), "wait": duration(retry_after)})


def address_group(request: HttpRequest) -> str:
    """Who pays as a visitor: the address, or an IPv6 address's /64 (one household or
    machine commonly holds a whole /64, so counting single IPv6 addresses counts nothing)."""
    address = client_address(request)
    if address is None:
        return "ip:unknown"
    parsed = ipaddress.ip_address(address)
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return f"ip:{parsed.ipv4_mapped}"
        return f"net:{ipaddress.ip_network(f'{address}/64', strict=False)}"
    return f"ip:{parsed}"


@dataclass(frozen=True)
class Payer:
    """Who pays for an upload: the visitor's address group, and their account when signed
    in (both budgets are charged). Stored with a document checked later by a worker (it
    holds no request)."""

    visitor: str
    account: int | None = None

    @classmethod
    def of(cls, request: HttpRequest) -> Payer:
        user = request.user
        return cls(address_group(request), user.pk if user.is_authenticated else None)

    @property
    def storage_key(self) -> str:
        """A keyed hash of the address group: what an anonymous upload is counted under
        for the anonymous storage quota (the address itself is not stored with a match)."""
        return salted_hmac("replays.limits.storage_key", self.visitor).hexdigest()[:32]

    def _budgets(self, kind: str) -> list[tuple[str, str]]:
        budgets = [(f"upload-{kind}-visitor", self.visitor)]
        if self.account is not None:
            budgets.append((f"upload-{kind}-account", f"user:{self.account}"))
        return budgets

    def require_left(self, *kinds: str) -> None:
        """Refuse at once when one of the budgets (of ``kinds``; all by default) is spent."""
        if not settings.RATE_LIMITS_ENABLED:
            return
        for kind in kinds or BUDGET_KINDS:
            for scope, who in self._budgets(kind):
                rate = budget_rate(scope)
                used, wait = _used(scope, who, rate)
                if used >= rate.count:
                    raise BudgetSpent(scope, rate, wait)

    def take(self, kind: str, amount: int) -> None:
        """Spend ``amount`` from every budget of ``kind``, or from none: raise
        :class:`BudgetSpent` when one of them hasn't that much left."""
        if not settings.RATE_LIMITS_ENABLED or amount <= 0:
            return
        taken: list[tuple[str, str, Rate]] = []
        for scope, who in self._budgets(kind):
            rate = budget_rate(scope)
            total, wait = _add(scope, who, rate, amount)
            taken.append((scope, who, rate))
            if total > rate.count:
                for done_scope, done_who, done_rate in taken:
                    _add(done_scope, done_who, done_rate, -amount)
                raise BudgetSpent(scope, rate, wait)

    def charge(self, kind: str, amount: int) -> None:
        """Count work already done (the engine's CPU time): never refuses; the next
        upload finds the budget spent."""
        if not settings.RATE_LIMITS_ENABLED or amount <= 0:
            return
        for scope, who in self._budgets(kind):
            _add(scope, who, budget_rate(scope), amount)


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


class UploadSlotsMiddleware:
    """A bulkhead for large request bodies (issue 24): at most ``UPLOAD_CONCURRENCY`` of
    them (bodies over ``UPLOAD_SYNC_BYTES``, i.e. uploads of large documents) are handled
    at once on one web machine, counted in the ``limits`` cache under the machine's name,
    so that uploads can never hold every gunicorn worker and the other pages (and
    ``/healthz``) always find one free. One more is answered 429 with ``Retry-After`` and
    a sentence, after its body is read and dropped (so the browser can read the answer);
    nothing in it is looked at. Without a shared cache (``RATE_LIMIT_CACHE_URL``) each
    process counts only itself, which a sync worker never takes past one."""

    RETRY_SECONDS = 5

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.key = f"upload-slots:{socket.gethostname()}"

    def __call__(self, request: HttpRequest) -> HttpResponse:
        limit = settings.UPLOAD_CONCURRENCY
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = 0
        if request.method != "POST" or limit <= 0 or declared <= settings.UPLOAD_SYNC_BYTES:
            return self.get_response(request)
        cache = caches["limits"]
        # The count lives a few minutes at most: a process killed mid-upload can't hold
        # its slot for longer.
        cache.add(self.key, 0, timeout=300)
        try:
            taken = int(cache.incr(self.key))
        except ValueError:
            cache.set(self.key, 1, timeout=300)
            taken = 1
        try:
            if taken > limit:
                return self._busy(request, limit)
            return self.get_response(request)
        finally:
            try:
                if int(cache.decr(self.key)) < 0:
                    cache.set(self.key, 0, timeout=300)
            except ValueError:
                pass  # expired meanwhile: nothing to give back

    def _busy(self, request: HttpRequest, limit: int) -> HttpResponse:
        while request.read(65536):  # dropped unread, so the browser reads the answer
            pass
        # Before LocaleMiddleware: the reader's language from their browser or cookie.
        with translation.override(translation.get_language_from_request(request)):
            sentence = ngettext(
                "The site is receiving %(n)d large upload already, as many as it takes at "
                "once: nothing of yours was read or stored. Try again in a few seconds.",
                "The site is receiving %(n)d large uploads already, as many as it takes at "
                "once: nothing of yours was read or stored. Try again in a few seconds.",
                limit) % {"n": limit}
            response = render(request, "library/upload.html#results" if request.headers.get(
                "HX-Request") else "library/refused.html", {
                "refusal": sentence, "results": [], "form": None}, status=429)
        response["Retry-After"] = str(self.RETRY_SECONDS)
        return response


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
