"""Playing against the bots: starting, restoring, answering and finishing a stored match.

The state lives in :class:`~replays.models.PlayedMatch` as ``PlayMatch.to_json()``;
every answer locks the row (``select_for_update``) so that two answers to one step are
applied one after the other, and the engine's step check refuses the second
(``StaleStep``). A finished match is stored as an ordinary replay the way an upload is
(``store_document``): owned by the player, private, queued for annotation.

Limits (issue 24, docs/play.md): a visitor has at most ``PLAY_MAX_OPEN_MATCHES`` matches
unfinished (starts are serialised per visitor, so two at once can't pass the cap
together); a match the player leaves is neither stored nor analysed unless its signed-in
owner asks (:func:`keep_left`, paid from their upload budgets as an upload is); beat
deletes anonymous matches left untouched for ``PLAY_ANONYMOUS_EXPIRE_HOURS``
(``replays.play.tasks``).
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.db.models import QuerySet, Sum
from django.http import Http404, HttpRequest
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.variant import Option
from games.play.bot_match import (
    DEFAULT_LEVEL,
    IllegalAction,
    PlayError,
    PlayMatch,
    StaleStep,
    new_seed,
)
from games.records.log import dumps
from games.training.puzzles import Standing, standing
from games.variants.registry import VARIANTS
from replays.limits import Payer
from replays.matches.services import DuplicateUpload, UploadError, store_document
from replays.models import Match, PlayedMatch, PlaySettings
from replays.puzzles.services import visitor_id

log = logging.getLogger(__name__)

# Restoring replays the match so far (docs/play.md, "Speed"): keep the latest matches in
# memory, keyed by row and step. The row lock and the step check make an entry safe to use:
# it is only taken when its step is the row's step.
_CACHE: OrderedDict[tuple[int, str, str], tuple[int, PlayMatch]] = OrderedDict()
_CACHE_SIZE = 64


@dataclass(frozen=True)
class StartChoice:
    """What the start form asks (already checked by the form)."""

    variant: str
    seat: int | None
    hands: int
    rules: dict[str, int | str | bool]
    speed: int
    level: str = DEFAULT_LEVEL  # the engine's level name (replays/play/levels.py names it)


def variant_options(variant: str) -> dict[str, Option]:
    """The rules options a variant offers (asked of the registry, never by name)."""
    return dict(VARIANTS[variant].OPTIONS)


class TooManyOpen(Exception):
    """The visitor has as many unfinished matches as one may: ``str()`` is the sentence."""

    def __init__(self, open_now: int) -> None:
        limit = settings.PLAY_MAX_OPEN_MATCHES
        super().__init__(ngettext(
            "You have %(n)d match in progress, and one player may have at most %(limit)d: "
            "finish or leave it first.",
            "You have %(n)d matches in progress, and one player may have at most %(limit)d: "
            "finish or leave one of them first.", open_now) % {"n": open_now, "limit": limit})


def start(request: HttpRequest, choice: StartChoice) -> PlayedMatch:
    """Deal a new match for the visitor (their account, or their session); raise
    :class:`TooManyOpen` when they have ``PLAY_MAX_OPEN_MATCHES`` unfinished already."""
    user = request.user if request.user.is_authenticated else None
    name = user.get_username()[:40] if user is not None else _("You")
    visitor = "" if user else visitor_id(request)
    with transaction.atomic():  # the row and, for a match already over, its replay
        _serialise_starts(f"user:{user.pk}" if user is not None else f"visitor:{visitor}")
        open_now = mine(request).filter(over=False).count()
        if open_now >= settings.PLAY_MAX_OPEN_MATCHES:
            raise TooManyOpen(open_now)
        match = PlayMatch.start(choice.variant, seed=new_seed(), seat=choice.seat,
                                hands=choice.hands, rules=choice.rules, name=name,
                                level=choice.level)
        row = PlayedMatch(
            owner=user, visitor=visitor, signed_in=user is not None,
            variant=choice.variant, state=match.to_json(), step=match.step,
            hands=choice.hands, speed=choice.speed, level=match.level, commitment=match.view()["commitment"],
            hand_number=match.view()["hand_number"])
        if match.over:  # the bots ended it before the player's first move (a dealer robbed
            finish(row, match)  # the gold, PT-5.5): finished, stored, counted like any other
        row.save()
    _remember(row, match)
    return row


def _serialise_starts(who: str) -> None:
    """One start at a time per visitor, until the transaction ends (PostgreSQL's advisory
    lock), so that two starts at once can't both count the same open matches. Other
    databases write one transaction at a time anyway."""
    if connection.vendor != "postgresql":
        return
    key = int.from_bytes(hashlib.sha256(f"play-start:{who}".encode()).digest()[:8], "big",
                         signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def mine(request: HttpRequest) -> QuerySet[PlayedMatch]:
    """The visitor's played matches: their account's, or their session's."""
    rows = PlayedMatch.objects.defer("state")
    if request.user.is_authenticated:
        return rows.filter(owner=request.user)
    visitor = visitor_id(request, create=False)
    return rows.filter(owner__isnull=True, visitor=visitor) if visitor else rows.none()


def owned(request: HttpRequest, public_id: str, *, lock: bool = False) -> PlayedMatch:
    """The visitor's match, or 404 for anyone else's (or none): a match is seen by its
    player only."""
    rows = mine(request).defer(None)
    if lock:
        rows = rows.select_for_update()
    try:
        return rows.get(public_id=public_id)
    except PlayedMatch.DoesNotExist:
        raise Http404("No such match") from None


def restored(row: PlayedMatch) -> PlayMatch:
    """The engine's match of a row (from memory when the row's step is the one kept)."""
    kept = _CACHE.get(_key(row))
    if kept is not None and kept[0] == row.step:
        _CACHE.move_to_end(_key(row))
        return kept[1]
    match = PlayMatch.from_json(row.state)
    _remember(row, match)
    return match


def _key(row: PlayedMatch) -> tuple[int, str, str]:
    """A kept match is the row's only if its id, public id and seed's commitment agree."""
    return (row.pk, row.public_id, row.commitment)


def _remember(row: PlayedMatch, match: PlayMatch) -> None:
    _CACHE[_key(row)] = (match.step, match)
    _CACHE.move_to_end(_key(row))
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def forget(row: PlayedMatch) -> None:
    _CACHE.pop(_key(row), None)


def act(request: HttpRequest, public_id: str, step: Any, action: Any
        ) -> tuple[PlayedMatch, PlayMatch, list[dict[str, Any]]]:
    """Apply the visitor's answer to ``step`` under the row's lock; raise the engine's
    ``StaleStep`` / ``IllegalAction`` with nothing applied. Returns the row, the match and
    the entries since (the player's own move and every bot move after it)."""
    with transaction.atomic():
        row = owned(request, public_id, lock=True)
        match = restored(row)
        forget(row)  # taken out while it changes; kept again once the row is written
        try:
            entries = match.act(step, action)
            row.state = match.to_json()
            row.step = match.step
            row.hand_number = match.view()["hand_number"]
            if entries:
                row.moves_from = [entries[0]["hand"], entries[0]["index"]]
            if match.over:
                finish(row, match)
            row.save()
        except (StaleStep, IllegalAction):
            _remember(row, match)  # refused: the engine changed nothing
            raise
    # Kept under its new step once the row is written: should an outer transaction roll
    # back, the row's step differs from the kept one, and the next request restores.
    _remember(row, match)
    return row, match, entries


def leave(request: HttpRequest, public_id: str) -> tuple[PlayedMatch, PlayMatch]:
    """The visitor leaves their match for good, under the row's lock: the rules charge the
    leaver what they say (``PlayMatch.leave``), no further hand is dealt, and the match is
    finished and stored like any other. Raise ``IllegalAction`` when it can't be left now
    (over already, or before naming the void suit, SC-2)."""
    with transaction.atomic():
        row = owned(request, public_id, lock=True)
        match = restored(row)
        forget(row)
        try:
            entries = match.leave(match.step)
        except IllegalAction:
            _remember(row, match)
            raise
        row.state = match.to_json()
        row.step = match.step
        row.left = True
        if entries:
            row.moves_from = [entries[0]["hand"], entries[0]["index"]]
        finish(row, match, keep=False)
        row.save()
    _remember(row, match)
    return row, match


class NotLeft(Exception):
    """Only a match the player left waits for their ask to be kept and analysed."""


def keep_left(request: HttpRequest, public_id: str) -> PlayedMatch:
    """The signed-in owner of a match they left asks for it to be kept and analysed: its
    replay is stored as a finished match's is (private, queued for annotation, their seat
    valued), paid from their upload budgets like an upload (``BudgetSpent``); the
    storage quota may refuse it (``UploadError``). Asking twice stores it once."""
    payer = Payer.of(request)
    with transaction.atomic():
        row = owned(request, public_id, lock=True)
        if not (row.over and row.left):
            raise NotLeft(_("Only a match you left waits to be kept: a match played to its "
                            "end is stored and analysed by itself."))
        if row.replay_id is None:
            raw = dumps(restored(row).log()).encode("utf-8")
            payer.require_left()
            payer.take("bytes", len(raw))
            try:
                row.replay = store_document(
                    raw, owner=row.owner, visibility=Match.Visibility.PRIVATE,
                    uploader_seat=int(row.state["seat"]), payer=payer)
            except DuplicateUpload as duplicate:
                row.replay = duplicate.existing
            row.save(update_fields=["replay", "updated_at"])
    return row


def leave_terms(variant: str, rules: dict[str, Any]) -> dict[str, Any]:
    """What leaving costs in this match, for the confirmation and the end screen: the rule
    that charges a leaver (``Variant.LEAVE_CHARGE``, None when the rules charge nothing)
    and the match's values of the options it uses."""
    options = variant_options(variant)
    values = {name: rules.get(name, option.default) for name, option in options.items()}
    return {"rule": VARIANTS[variant].LEAVE_CHARGE, **values}


def leave_cost(match: PlayMatch) -> dict[str, Any]:
    """What leaving now would cost, for the confirmation (issue 27): the actual amounts,
    reckoned by the engine on a copy of the match (``PlayMatch.leave_cost``), with the
    players' names; or ``refused`` with the rule and its sentence when leaving is not
    allowed now (Sichuan before naming the void suit, SC-2), so the page says so at once
    instead of offering to leave."""
    refused = match.leave_refusal()
    if refused is not None:
        return {"refused": refused}
    cost = match.leave_cost()
    players = [{"name": match.players[line["payee"]], "amount": line["amount"]}
               for line in cost["lines"] if line["payee"] is not None]
    house = cost["fees_after"] - cost["fees_before"]
    return {**cost, "refused": None, "players": players, "house": house,
            "total": house + cost["to_players"] if not cost["balances"] else None,
            "free": not house and not players}


def finish(row: PlayedMatch, match: PlayMatch, keep: bool = True) -> None:
    """A finished match: its points for the ladder, and (``keep``) its replay stored like
    an upload (owned by the player, private, queued for annotation). A match the player
    left is not kept: its owner may ask for it (:func:`keep_left`)."""
    result = match.result()
    row.over = True
    row.points_won = int(result["you"]["points_won"])
    row.net = int(result["you"]["net"])
    if keep and row.replay_id is None:
        raw = dumps(match.log()).encode("utf-8")
        # An anonymous player's replay has no owner to be private to: it is unlisted (only
        # their end screen has its link) until they log in, when it becomes theirs, private.
        visibility = Match.Visibility.PRIVATE if row.owner_id else Match.Visibility.UNLISTED
        try:
            # Its values are the player's own seat's (issue 17), as an upload naming its seat.
            row.replay = store_document(raw, owner=row.owner, visibility=visibility,
                                        uploader_seat=int(row.state["seat"]))
        except DuplicateUpload as duplicate:  # the same seed and play: one stored copy
            row.replay = duplicate.existing
        except UploadError:  # the account's storage is full: the end screen says so
            row.replay = None


def give_to(user: Any, visitor: str) -> int:
    """At log-in: a visitor's matches become the account's, and so do the replays of those
    already finished. Returns how many moved."""
    if not visitor:
        return 0
    with transaction.atomic():
        rows = PlayedMatch.objects.filter(owner__isnull=True, visitor=visitor)
        Match.objects.filter(pk__in=rows.exclude(replay=None).values("replay_id"),
                             owner__isnull=True).update(owner=user,
                                                        visibility=Match.Visibility.PRIVATE)
        return rows.update(owner=user, visitor="")


def puzzles_consent(user: Any) -> bool:
    """Does this player let the site make puzzles of their finished played matches? Off
    until they say so, and always for anonymous players."""
    if not getattr(user, "is_authenticated", False):
        return False
    return PlaySettings.objects.filter(user=user, puzzles_from_play=True).exists()


def set_puzzles_consent(user: Any, allowed: bool) -> bool:
    """Record the player's choice; returns whether it changed. Turned on, their finished
    matches played signed in are harvested by the workers (their own seat only); turned
    off, the puzzles already made of them are hidden at once (``shown_puzzles``) and the
    daily puzzles taken from them, today's and later, are rolled again."""
    from replays.puzzles.takedowns import take_down_played
    from replays.puzzles.tasks import harvest_played_puzzles

    with transaction.atomic():
        row, _created = PlaySettings.objects.select_for_update().get_or_create(user=user)
        if row.puzzles_from_play == allowed:
            return False
        row.puzzles_from_play = allowed
        row.save(update_fields=["puzzles_from_play", "changed_at"])
        if not allowed:
            take_down_played(user.pk)
            return True
        user_id = user.pk

        def queue() -> None:
            try:
                harvest_played_puzzles.delay(user_id)
            except Exception as error:  # noqa: BLE001 - the broker is down: made next time
                log.warning("puzzles of user %s's played matches wait: %s: %s", user_id,
                            type(error).__name__, error)

        transaction.on_commit(queue)
    return True


def points_of(request: HttpRequest) -> int:
    """The points won in the visitor's finished matches: all the JX-11 ladder counts."""
    total = mine(request).filter(over=True).aggregate(total=Sum("points_won"))["total"]
    return int(total or 0)


def ladder_standing(request: HttpRequest) -> Standing:
    """Where the visitor stands on the JX-11 ladder: by the points won in play only (their
    puzzle progress is their rating, issue 18)."""
    return standing(points_of(request))


def state_json(row: PlayedMatch, match: PlayMatch, replay_url: str | None) -> dict[str, Any]:
    """The seat's view as ``state.json`` serves it (docs/play.md): the engine's view, and at
    the end the URL of the stored replay."""
    view = match.view()
    view["id"] = row.public_id
    if match.over:
        view["replay"] = replay_url
        view["left_in"] = match.left_in
    return view


def hand_end_document(match: PlayMatch) -> bytes:
    """The finished hands as a document, for the itemised settlement between hands (every
    hand in it is over, so nothing in it is secret but the walls, which are not drawn)."""
    return dumps(match.log()).encode("utf-8")


__all__ = ["NotLeft", "PlayError", "StartChoice", "TooManyOpen", "act", "give_to",
           "keep_left", "ladder_standing", "leave", "leave_cost", "leave_terms", "mine", "owned", "points_of",
           "puzzles_consent", "restored", "set_puzzles_consent", "start", "state_json",
           "variant_options"]
