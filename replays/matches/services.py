"""Storing uploads: a document is validated by the engine, then stored whole or not at all.

What the check costs is paid from the uploader's budgets (``replays.limits.Payer``, issue
24): the hands it replays before it replays them, the engine's CPU time after.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q, Sum
from django.db.models.functions import Length
from django.dispatch import Signal
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from games.records.log import LogError, loads
from games.records.log import Match as MatchLog
from games.records.match import MatchResult, replay
from replays.limits import Payer
from replays.models import Hand, Match
from replays.prepared import Prepared

match_stored = Signal()
"""Sent when a match is stored (``sender=Match``, ``match_id``), inside the request or the
worker's check: the annotation queues it (``replays.annotation.receivers``). A receiver
answers False when the match must wait for the broker."""

ENGINE_VERSION = "1"


@dataclass
class UploadError(ValueError):
    """A refused document: a sentence, and for engine errors hand/event/rule."""

    message: str
    hand: int | None = None
    event: int | None = None
    rule: str | None = None

    def __str__(self) -> str:
        return self.message

    @property
    def where(self) -> str:
        parts = []
        if self.hand is not None:
            parts.append(_("hand %(n)d") % {"n": self.hand})
        if self.event is not None:
            parts.append(_("event %(n)d") % {"n": self.event})
        if self.rule:
            parts.append(self.rule)
        return ", ".join(parts)


class DuplicateUpload(Exception):
    """The same bytes were uploaded before."""

    def __init__(self, existing: Match) -> None:
        super().__init__(f"already uploaded as {existing.public_id}")
        self.existing = existing


@dataclass(frozen=True)
class CheckedDocument:
    """A document the engine read and replayed whole: what it says, and how it ended."""

    log: MatchLog
    result: MatchResult


def check_bytes(raw: bytes) -> None:
    """The checks that cost nothing: empty, too big, not a text file."""
    if not raw.strip():
        raise UploadError(_("the file is empty"))
    if len(raw) > settings.MAX_UPLOAD_BYTES:
        raise UploadError(_("the file is %(size)s bytes; the limit is %(limit)s bytes") % {
            "size": f"{len(raw):,}", "limit": f"{settings.MAX_UPLOAD_BYTES:,}"})
    if raw[:4] == b"PK\x03\x04":
        raise UploadError(_("this is a zip archive: upload the .json file inside it"))
    if raw[:1] in (b"\x1f", b"\x89", b"\xff", b"%"):
        raise UploadError(_("this is not a text file: upload a mahjong-log/1 JSON document"))


def check_size_of(log: MatchLog) -> None:
    """Hands per match and events per hand are capped (``MAX_MATCH_HANDS``,
    ``MAX_HAND_EVENTS``), checked before the engine replays anything."""
    if len(log.hands) > settings.MAX_MATCH_HANDS:
        raise UploadError(_("the match has %(n)s hands; the limit is %(limit)s hands") % {
            "n": f"{len(log.hands):,}", "limit": f"{settings.MAX_MATCH_HANDS:,}"})
    for number, hand in enumerate(log.hands, start=1):
        if len(hand.events) > settings.MAX_HAND_EVENTS:
            raise UploadError(_("the hand has %(n)s events; the limit is %(limit)s events") % {
                "n": f"{len(hand.events):,}", "limit": f"{settings.MAX_HAND_EVENTS:,}"},
                hand=number)


# The CPU time the engine's check is charged (the thread's: a check may run in a thread
# beside others in one process).
cpu_clock: Callable[[], float] = time.thread_time


def check_document(raw: bytes, payer: Payer | None = None) -> CheckedDocument:
    """Decode, read and replay a document once; raise :class:`UploadError` naming the
    problem. With a ``payer``, its hands budget pays for the hands before they are
    replayed (``BudgetSpent`` when it can't) and its CPU budget for the time taken."""
    check_bytes(raw)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise UploadError(_("the file is not UTF-8 text (byte %(n)d)") % {
            "n": error.start + 1}) from None
    started = cpu_clock()
    try:
        log = loads(text)
        check_size_of(log)
        if payer is not None:
            payer.require_left("cpu")
            payer.take("hands", len(log.hands))
        result = replay(log)
    except LogError as error:
        raise UploadError(error.message, error.hand, error.event, error.rule) from None
    finally:
        if payer is not None:
            payer.charge("cpu", round((cpu_clock() - started) * 1000))
    return CheckedDocument(log, result)


def duplicate_of(digest: str, owner: Any) -> Match | None:
    """An earlier copy of the same bytes that counts as this upload: the uploader's own, a
    public one, or one hidden by staff (re-uploading must not undo a takedown). Someone
    else's private or unlisted copy is not one: it neither blocks the upload nor is
    revealed by it."""
    copies = Match.objects.defer("document").filter(sha256=digest)
    mine = Q(owner=owner) if getattr(owner, "is_authenticated", False) else Q(pk__in=[])
    return copies.filter(mine | Q(visibility=Match.Visibility.PUBLIC) | Q(hidden=True)).order_by(
        "uploaded_at", "pk").first()


def check_storage(owner: Any, size: int, uploader_key: str = "") -> None:
    """An account keeps at most ``MAX_ACCOUNT_BYTES`` of documents; the anonymous uploads
    of one address (``uploader_key``) at most ``MAX_ANONYMOUS_BYTES``."""
    if getattr(owner, "is_authenticated", False):
        used = Match.objects.filter(owner=owner).aggregate(
            used=Sum(Length("document")))["used"] or 0
        if used + size > settings.MAX_ACCOUNT_BYTES:
            raise UploadError(_("your replays use %(used)s bytes; with this one they would "
                                "pass your account's %(limit)s bytes: delete some first") % {
                "used": f"{used:,}", "limit": f"{settings.MAX_ACCOUNT_BYTES:,}"})
        return
    if not uploader_key:
        return
    used = Match.objects.filter(owner__isnull=True, uploader_key=uploader_key).aggregate(
        used=Sum(Length("document")))["used"] or 0
    if used + size > settings.MAX_ANONYMOUS_BYTES:
        raise UploadError(_("uploads without an account from your address keep %(used)s "
                            "bytes; with this one they would pass the %(limit)s bytes they "
                            "may keep: sign in to upload more") % {
            "used": f"{used:,}", "limit": f"{settings.MAX_ANONYMOUS_BYTES:,}"})


def store_document(raw: bytes, *, owner: Any = None, visibility: str = Match.Visibility.PUBLIC,
                   title: str = "", uploader_seat: int | None = None,
                   payer: Payer | None = None) -> Match:
    """Validate and store one document atomically; raise UploadError or DuplicateUpload
    (or ``BudgetSpent`` when the ``payer`` can't pay for its check).

    The cheap checks come first (size, type, the hash's duplicate, the storage of the
    account, or of an anonymous payer's address), so a refused document costs no replay."""
    check_bytes(raw)
    digest = hashlib.sha256(raw).hexdigest()
    existing = duplicate_of(digest, owner)
    if existing is not None:
        raise DuplicateUpload(existing)
    anonymous = not getattr(owner, "is_authenticated", False)
    uploader_key = payer.storage_key if payer is not None and anonymous else ""
    check_storage(owner, len(raw), uploader_key)
    checked = check_document(raw, payer)
    log, result = checked.log, checked.result
    played_at = _played_at(log.played_at)
    with transaction.atomic():
        stored = Match.objects.create(
            owner=owner if getattr(owner, "is_authenticated", False) else None,
            visibility=visibility,
            title=(title or log.title or "")[:200],
            variant=log.variant,
            players=list(log.players),
            players_text=" | ".join(log.players)[:300],
            played_at=played_at,
            sha256=digest,
            document=raw,
            hand_count=len(log.hands),
            totals=result.totals,
            engine_version=ENGINE_VERSION,
            uploader_seat=uploader_seat,
            uploader_key=uploader_key,
        )
        Hand.objects.bulk_create(
            Hand(match=stored, number=number, dealer=hand.dealer,
                 end_reason=played.end_reason, deltas=played.deltas,
                 events=[event.to_json() for event in hand.events],
                 event_count=len(hand.events))
            for number, (hand, played) in enumerate(
                zip(log.hands, result.hands, strict=True), start=1)
        )
        transaction.on_commit(lambda: _queue(stored))
    return stored


# What a replay's step fragment reads of its match (the page around it reads more).
STEP_FIELDS = ("public_id", "sha256", "variant", "players", "hand_count", "visibility",
               "hidden", "owner", "uploader_seat", "annotation_status", "annotation_run",
               "values_status", "values_seats", "values_run")
# Read on every step: compiled once (replays/prepared.py).
_STEP_MATCH: Prepared[Match] = Prepared(
    lambda public_id: Match.objects.only(*STEP_FIELDS).filter(public_id=public_id).order_by(),
    "sample-id")


def visible_match(request: HttpRequest, public_id: str, document: bool = False,
                  step: bool = False) -> Match:
    """The match, when the request's user may see it; 404 otherwise (and for no match).
    Without ``document`` the uploaded bytes are not loaded; for a ``step``, only
    :data:`STEP_FIELDS`."""
    if step:
        found = _STEP_MATCH.first(public_id)
        if found is None:
            raise Http404("No such replay")
        match = found
    else:
        matches = Match.objects.all() if document else Match.objects.defer("document")
        match = get_object_or_404(matches, public_id=public_id)
    if not match.visible_to(request.user):
        raise Http404("No such replay")
    return match


def _queue(match: Match) -> None:
    """Tell the parts above that the match is stored (:data:`match_stored`: the annotation
    queues it); when the broker is down it waits, marked, for beat's ``send_waiting`` (the
    upload is stored either way, and says so)."""
    answers = match_stored.send(sender=Match, match_id=match.pk)
    # The page that stored it says so (the row says it too: no queued time).
    match.waiting_for_broker = not all(bool(sent) for _receiver, sent in answers)


def _played_at(value: str | None) -> datetime | None:
    if not value:
        return None
    from django.utils import timezone

    moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    try:
        moment = moment.astimezone(UTC)
    except OverflowError:
        moment = None  # type: ignore[assignment]
    if moment is None or not 1 <= moment.year <= 9998:
        raise UploadError(_("played_at %(value)s is outside the calendar the site keeps") % {
            "value": value})
    return timezone.localtime(moment, UTC)
