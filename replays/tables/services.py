"""Tables with friends (issue 28, docs/tables.md): creating, joining, starting, answering,
timing out and finishing a room, on the engine's :class:`~games.play.room_match.RoomMatch`.

Every change locks the room's row (``select_for_update``), so that answers, joins, timeouts
and disconnects are applied one after the other; the engine's step check refuses a stale
answer. The room's state is written at every move (each hand is stored as it is played);
at the end each signed-in human gets the match as a private replay of their own, valued
for their seat, and the seed is shown (commitment first, seed at the end, as ``/play/``).

Timers live in the database (``Seat.deadline``): :func:`apply_expired` answers for every
seat whose deadline has passed — a pass for a claim, the drawn tile discarded for a turn —
on any request touching the room and from beat (``replays.tables.tasks``). A deadline is
applied by whoever clears it first (a conditional UPDATE on the deadline and the decision's
step), and an answer clears it, so no decision is answered twice.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import hashlib
import logging
import secrets
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

import psycopg
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection, models, transaction
from django.http import Http404, HttpRequest
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.play.bot_match import DEFAULT_LEVEL, PlayError, commitment, new_seed
from games.play.room_match import RoomMatch
from games.records.log import dumps
from games.variants.registry import VARIANTS
from replays.matches.services import DuplicateUpload, UploadError, store_document
from replays.models import Match
from replays.models.tables import Room, Seat
from replays.puzzles.services import visitor_id
from replays.tables import router
from replays.tables.live import LiveMatches

log = logging.getLogger(__name__)
T = TypeVar("T")
SESSION_KEY = "tables"
"""The session's seat tickets: ``{room public id: ticket}``."""

def group_name(public_id: str) -> str:
    """The prefix of the channel layer's groups of a room's sockets (``router.group``)."""
    return f"table.{public_id}"


_LIVE: LiveMatches[RoomMatch] = LiveMatches(step_of=lambda match: match.step)
"""The matches this process restored, by room (replays/tables/live.py)."""

KEPT_CHANGES = 4
"""How many of its last changes a room's row keeps besides those after its stored state
(``Room.moves``): a process whose kept match is at most that many changes behind replays
them instead of restoring the match."""

STATE_EVERY = 8
"""A change writes the match's whole state when this many changes are stored after the last
one written, when a hand ends and at the end; the others write only what they added (their
events, the step, who is asked), in the room's row (``Room.moves``)."""


def _changed(room: Room, match: RoomMatch | None = None,
             seats: list[Seat] | None = None) -> dict[int | None, dict[str, Any]]:
    """The room changed: each listener's view is built now, from what is being committed,
    and once the change is committed every listener's group is sent its own view
    (replays/tables/router.py); without a channel layer, nothing is pushed. Returns the
    views built, by listener."""
    public_id = room.public_id
    layer = get_channel_layer()
    views: dict[int | None, dict[str, Any]] = {}
    if layer is not None:
        seats = seats if seats is not None else list(room.seats.order_by("number"))
        listeners: list[int | None] = [s.number for s in seats if s.taken]
        if room.spectators or not room.started:
            listeners.append(None)
        now = timezone.now()
        views = {n: state_json(room, match, None if n is None else seats[n], now, seats)
                 for n in listeners}
        # Encoded once, here: each socket sends the text as it comes (no copy of the view
        # per socket, in the channel layer or on the way out).
        messages = router.messages(public_id, views)

    def committed() -> None:
        if layer is None:
            return
        try:
            async_to_sync(_send_all)(layer, messages)
        except Exception as error:  # noqa: BLE001 - the layer is down: pages still reload
            log.warning("table %s: no push (%s: %s)", public_id, type(error).__name__, error)

    transaction.on_commit(committed)
    return views


async def _send_all(layer: Any, messages: list[tuple[str, dict[str, Any]]]) -> None:
    """Every listener's message, from one hop to the event loop; the groups at once (a
    Redis layer's round trips overlap)."""
    await asyncio.gather(*(layer.group_send(group, message) for group, message in messages))


@dataclass(frozen=True)
class RoomChoice:
    """What the new-table form asks (already checked by the form)."""

    variant: str
    humans: int
    hands: int
    rules: dict[str, int | str | bool]
    level: str = DEFAULT_LEVEL
    decision_seconds: int = 20
    bank_seconds: int = 60
    private: bool = True
    spectators: bool = False


class TableError(Exception):
    """A request the room refuses (full, started, not yours): ``str()`` is the sentence,
    ``status`` the HTTP status."""

    def __init__(self, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.status = status


class TooManyOpen(TableError):
    def __init__(self, open_now: int) -> None:
        limit = settings.TABLES_MAX_OPEN_ROOMS
        super().__init__(ngettext(
            "You have %(n)d table not finished, and one player may have at most %(limit)d.",
            "You have %(n)d tables not finished, and one player may have at most %(limit)d.",
            open_now) % {"n": open_now, "limit": limit})


def _name_of(request: HttpRequest, given: str) -> str:
    """The seat's name: the account's, or the guest's without control characters (the
    log refuses them)."""
    if request.user.is_authenticated:
        return request.user.get_username()[:40]
    cleaned = "".join(c for c in given if unicodedata.category(c) not in ("Cc", "Cs"))
    return " ".join(cleaned.split())[:40] or _("Guest")


def _serialise(who: str) -> None:
    """One creation at a time per visitor (PostgreSQL's advisory lock), as ``/play/``."""
    if connection.vendor != "postgresql":
        return
    key = int.from_bytes(hashlib.sha256(f"table-create:{who}".encode()).digest()[:8], "big",
                         signed=True)
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


def my_rooms(request: HttpRequest) -> Any:
    if request.user.is_authenticated:
        return Room.objects.filter(creator=request.user)
    visitor = visitor_id(request, create=False)
    return Room.objects.filter(creator__isnull=True, visitor=visitor) if visitor else (
        Room.objects.none())


def create(request: HttpRequest, choice: RoomChoice, name: str = "") -> Room:
    """A new room with its creator in seat 0; a room for one person starts at once."""
    user = request.user if request.user.is_authenticated else None
    visitor = "" if user else visitor_id(request)
    VARIANTS[choice.variant].check_rules(dict(choice.rules))
    with transaction.atomic():
        _serialise(f"user:{user.pk}" if user is not None else f"visitor:{visitor}")
        open_now = my_rooms(request).filter(over=False).count()
        if open_now >= settings.TABLES_MAX_OPEN_ROOMS:
            raise TooManyOpen(open_now)
        seed = new_seed()
        room = Room.objects.create(
            creator=user, visitor=visitor, variant=choice.variant, rules=choice.rules,
            hands=choice.hands, humans=choice.humans, level=choice.level,
            decision_seconds=choice.decision_seconds, bank_seconds=choice.bank_seconds,
            private=choice.private, spectators=choice.spectators, seed=seed,
            commitment=commitment(seed))
        bots = VARIANTS[choice.variant].BOT_NAMES
        for number in range(4):
            human = number < choice.humans
            Seat.objects.create(room=room, number=number,
                                kind=Seat.Kind.HUMAN if human else Seat.Kind.BOT,
                                name="" if human else bots[number],
                                bank_left=choice.bank_seconds)
        seat = room.seats.get(number=0)
        _take(request, room, seat, _name_of(request, name))
        match = _start(room, timezone.now()) if choice.humans == 1 else None
        _changed(room, match)
    return room


def _take(request: HttpRequest, room: Room, seat: Seat, name: str) -> None:
    seat.ticket = secrets.token_urlsafe(24)
    seat.taken = True
    seat.name = name
    seat.user = request.user if request.user.is_authenticated else None
    seat.last_seen = timezone.now()
    seat.save()
    tickets = dict(request.session.get(SESSION_KEY, {}))
    tickets[room.public_id] = seat.ticket
    request.session[SESSION_KEY] = tickets


def seat_of(request: HttpRequest, room: Room) -> Seat | None:
    """The requester's seat at ``room``: the one whose ticket their session holds."""
    ticket = request.session.get(SESSION_KEY, {}).get(room.public_id)
    if not ticket:
        return None
    return room.seats.filter(ticket=ticket, taken=True).first()


def seat_by_ticket(room: Room, ticket: str | None) -> Seat | None:
    if not ticket:
        return None
    return room.seats.filter(ticket=ticket, taken=True).first()


def get_room(public_id: str, *, lock: bool = False) -> Room:
    rows = Room.objects.all()
    if lock:
        rows = rows.select_for_update()
    try:
        return rows.get(public_id=public_id)
    except Room.DoesNotExist:
        raise Http404("No such table") from None


def visible(request: HttpRequest, room: Room) -> Seat | None:
    """The requester's seat, or None for a spectator; 404 when the room lets no one else
    look (a private room's link is its invitation: anyone may look at its waiting list and
    join, but a started room shows its table only to its seats and, if allowed, spectators)."""
    seat = seat_of(request, room)
    if seat is None and room.started and not room.spectators:
        raise TableError(_("This table is being played and doesn't allow spectators."), 403)
    return seat


def join(request: HttpRequest, public_id: str, name: str) -> Room:
    """Take the first free seat for a person (joining is being ready); the match starts
    when the last one is taken."""
    with transaction.atomic():
        room = get_room(public_id, lock=True)
        if seat_of(request, room) is not None:
            return room
        if room.started:
            raise TableError(_("This table has started: every seat is taken."))
        free = room.seats.filter(kind=Seat.Kind.HUMAN, taken=False).order_by("number").first()
        if free is None:  # pragma: no cover - a full room has started
            raise TableError(_("This table is full."))
        _take(request, room, free, _name_of(request, name))
        match = None
        if not room.seats.filter(kind=Seat.Kind.HUMAN, taken=False).exists():
            match = _start(room, timezone.now())
        room.save()
        _changed(room, match)
    return room


def start_early(request: HttpRequest, public_id: str) -> Room:
    """The creator starts now: bots take the seats no person has taken."""
    with transaction.atomic():
        room = get_room(public_id, lock=True)
        seat = seat_of(request, room)
        if seat is None or seat.number != 0:
            raise TableError(_("Only the table's creator can start it early."), 403)
        if room.started:
            return room
        bots = VARIANTS[room.variant].BOT_NAMES
        for free in room.seats.filter(kind=Seat.Kind.HUMAN, taken=False):
            free.kind = Seat.Kind.BOT
            free.name = bots[free.number]
            free.save()
        _changed(room, _start(room, timezone.now()))
    return room


def _start(room: Room, now: dt.datetime) -> RoomMatch:
    seats = list(room.seats.order_by("number"))
    humans = [s.number for s in seats if s.kind == Seat.Kind.HUMAN]
    match = RoomMatch.start_room(room.variant, seed=room.seed, humans=humans, hands=room.hands,
                                 rules=room.rules, names={s.number: s.name for s in seats},
                                 level=room.level)
    room.started = True
    room.moves = None  # no state stored yet: this change writes it whole
    _store(_Change(room, seats, match), now)
    _kept_after_commit(room, match)
    return match


def restored(room: Room) -> RoomMatch | None:
    """The room's match, restored from its row: the caller's own copy."""
    if not room.started or room.state is None:
        return None
    return RoomMatch.from_json(stored_state(room.state, room.moves))


def stored_state(state: Any, moves: Any) -> Any:
    """The match's state (``RoomMatch.to_json``) at the row's step: the last whole state
    written and what each change stored after it added (its events, the step, who is asked;
    :func:`_store`). The log is then replayed by ``RoomMatch.from_json``, so a stored change
    that doesn't follow is refused there (or here, ``PlayError``)."""
    if not isinstance(moves, dict) or not isinstance(state, dict):
        return state  # a row written whole at every change (before ``Room.moves`` held events)
    at = moves.get("state_at")
    if state.get("step") != at:
        raise PlayError("the stored table's state is not at the step its changes start from")
    out: dict[str, Any] | None = None
    for change in moves.get("changes", ()):
        if change["to"] <= at:
            continue
        added = change.get("added")
        if change["from"] != at or added is None:
            raise PlayError("the stored table's changes don't follow its state")
        if out is None:
            out = {**state, "log": {**state["log"], "hands": list(state["log"]["hands"])}}
        hand, had, events = added["events"]
        hands = out["log"]["hands"]
        if hand != len(hands) or len(hands[-1]["events"]) != had:
            raise PlayError("the stored table's changes don't follow its log")
        hands[-1] = {**hands[-1], "events": [*hands[-1]["events"], *events]}
        out.update(added["state"])
        at = change["to"]
    return state if out is None else out


TIMER_FIELDS = ["bank_left", "deadline", "decision_step", "decision_started", "last_seen"]
ROOM_FIELDS = ["state", "step", "moves", "started", "over", "replay", "updated_at"]
"""What a change of a started room writes of its row."""


def _timers_of(seat: Seat) -> tuple[Any, ...]:
    return tuple(getattr(seat, name) for name in TIMER_FIELDS)


@dataclass
class _Change:
    """A change of a room, made under its row's lock: the seats as read (their timers as
    stored, so that only the seats whose timers change are written), the match, and the
    inputs applied to it in this change (stored with it in ``Room.moves``, so that a
    process whose kept match is behind can replay them, :func:`_replayed`)."""

    room: Room
    seats: list[Seat]
    match: RoomMatch | None
    stored: dict[int, tuple[Any, ...]] = field(default_factory=dict)
    inputs: list[list[Any]] = field(default_factory=list)
    begun: int = 0
    mark: tuple[int, int] = (1, 0)

    def __post_init__(self) -> None:
        self.stored = self.stored or {s.pk: _timers_of(s) for s in self.seats}
        self._begin()

    def _begin(self) -> None:
        self.inputs = []
        if self.match is not None:
            self.begun, self.mark = self.match.step, self.match.position()

    def act(self, seat: int, step: Any, action: Any) -> None:
        assert self.match is not None
        self.match.act_for(seat, step, action)
        self.inputs.append(["act", seat, step, action])

    def autoplay(self, seat: int, on: bool) -> None:
        assert self.match is not None
        if (seat in self.match.autoplay) != on:
            self.match.set_autoplay(seat, on)
            self.inputs.append(["autoplay", seat, on])

    def leave(self, seat: int) -> None:
        assert self.match is not None
        self.match.leave_for(seat)
        self.inputs.append(["leave", seat])

    def recorded(self) -> dict[str, Any] | None:
        """This change as ``Room.moves`` keeps it (None: it applied no input): its inputs
        and their digest (for another process's kept match), and what it added to the
        stored state (``added``: None when a hand ended, which needs the whole state); a
        new change is begun from here."""
        if self.match is None or not self.inputs:
            return None
        events = self.match.events_json_since(self.mark)
        entry = {"from": self.begun, "to": self.match.step, "inputs": self.inputs,
                 "digest": self.match.digest_since(self.mark),
                 "added": None if events is None else {
                     "events": list(events), "state": self.match.changing_json()}}
        self._begin()
        return entry

    def changed_seats(self) -> list[Seat]:
        """The seats whose timers differ from the stored ones (now taken as stored)."""
        changed = [s for s in self.seats if _timers_of(s) != self.stored.get(s.pk)]
        self.stored.update({s.pk: _timers_of(s) for s in changed})
        return changed


def _locked(public_id: str) -> _Change:
    """A change of the room: its row locked and its seats read in one query, and its match
    (:func:`_taken`). The stored state is left unread: it is read only when this process
    has no match at the row's step and none it can bring forward."""
    if connection.vendor != "postgresql":
        seats = list(Seat.objects.select_related("room").select_for_update(of=("room",))
                     .defer("room__state").filter(room__public_id=public_id)
                     .order_by("number"))
    else:
        seats = _locked_rows(public_id)
    if not seats:
        raise Http404("No such table")
    room = seats[0].room
    for seat in seats:
        seat.room = room
    return _Change(room, seats, _taken(room))


def _locked_rows(public_id: str) -> list[Seat]:
    """The seats of the room, each with the room (its state deferred), the room's row
    locked: the query :func:`_locked` makes with the ORM, written once (building it per
    change cost more than running it)."""
    sql, room_names, seat_names, converters = _locked_query()
    with connection.cursor() as cursor:
        cursor.execute(sql, [public_id])
        rows = cursor.fetchall()
    if not rows:
        return []
    width = len(room_names)
    room = Room.from_db(connection.alias, room_names, [  # every row repeats the room's columns
        _converted(value, found) for value, found in zip(rows[0][:width], converters[:width],
                                                         strict=True)])
    seats = [Seat.from_db(connection.alias, seat_names, [
        _converted(value, found) for value, found in zip(row[width:], converters[width:],
                                                         strict=True)]) for row in rows]
    for seat in seats:
        seat.room = room
    return seats


@functools.cache
def _locked_query() -> tuple[str, list[str], list[str], list[tuple[Any, list[Any]]]]:
    room_fields = [f for f in Room._meta.concrete_fields if f.name != "state"]
    seat_fields = list(Seat._meta.concrete_fields)
    quote = connection.ops.quote_name
    columns = ([f"r.{quote(_column(f))}" for f in room_fields]
               + [f"s.{quote(_column(f))}" for f in seat_fields])
    sql = (f"SELECT {', '.join(columns)} FROM {quote(Room._meta.db_table)} r "
           f"JOIN {quote(Seat._meta.db_table)} s ON s.{quote('room_id')} = r.{quote('id')} "
           f"WHERE r.{quote('public_id')} = %s ORDER BY s.{quote('number')} FOR UPDATE OF r")
    return (sql, [f.attname for f in room_fields], [f.attname for f in seat_fields],
            [_converters(f) for f in [*room_fields, *seat_fields]])


def _converters(field: models.Field[Any, Any]) -> tuple[Any, list[Any]]:
    """What the ORM applies to a column's value as the database gives it (JSON decoded)."""
    column = field.get_col(field.model._meta.db_table)
    return column, [*connection.ops.get_db_converters(column), *field.get_db_converters(connection)]


def _converted(value: Any, found: tuple[Any, list[Any]]) -> Any:
    column, converters = found
    for converter in converters:
        value = converter(value, column, connection)
    return value


def _restore(room: Room) -> RoomMatch:
    """The room's match from its stored state, read now if the row was read without it
    (with the step and changes it is at: the caller may hold an older row)."""
    if "state" in room.get_deferred_fields():
        room.step, room.state, room.moves = Room.objects.values_list(
            "step", "state", "moves").get(pk=room.pk)
    return RoomMatch.from_json(stored_state(room.state, room.moves))


def _replayed(room: Room) -> Callable[[RoomMatch, int], RoomMatch | None]:
    """Bring a kept match that is behind the row to the row's step by replaying the changes
    the row keeps (``Room.moves``), each checked against its digest: the same position or
    None (then the match is restored from the stored state, which stays the authority)."""
    changes = list(room.moves.get("changes", ())) if isinstance(room.moves, dict) else []
    target = room.step

    def forward(match: RoomMatch, _kept_at: int) -> RoomMatch | None:
        try:
            for change in changes:
                if change["to"] <= match.step:
                    continue
                if change["from"] != match.step:
                    return None  # older than the changes kept
                mark = match.position()
                for kind, seat, *args in change["inputs"]:
                    if kind == "act":
                        match.act_for(seat, args[0], args[1])
                    elif kind == "autoplay":
                        match.set_autoplay(seat, args[0])
                    elif kind == "leave":
                        match.leave_for(seat)
                    else:
                        return None
                if match.step != change["to"] or match.digest_since(mark) != change["digest"]:
                    log.warning("table %s: a replayed change gave another position; restored",
                                room.public_id)
                    return None
        except Exception as error:  # noqa: BLE001 - whatever went wrong, the row decides
            log.warning("table %s: the kept match could not replay the changes (%s: %s); "
                        "restored", room.public_id, type(error).__name__, error)
            return None
        return match if match.step == target else None

    return forward


def _taken(room: Room) -> RoomMatch | None:
    """The room's match for a change under the row's lock: the one this process keeps if it
    is at the row's step (or can be brought to it), else restored; once the change is
    committed it is kept again, at the step the change reached."""
    if not room.started:
        return None
    match = _LIVE.take(room.public_id, room.step, lambda: _restore(room), _replayed(room))
    _kept_after_commit(room, match)
    return match


def _kept_after_commit(room: Room, match: RoomMatch) -> None:
    transaction.on_commit(lambda: _LIVE.keep(room.public_id, room.step, match))


def seat_view(room: Room, seat: Seat | None, now: dt.datetime | None = None) -> dict[str, Any]:
    """``state_json`` for ``seat`` (None: a spectator) at the room's committed state, from
    the match this process keeps (restored if it has none at the row's step)."""
    return seat_read(room, seat, lambda view, _match: view, now)


def seat_read(room: Room, seat: Seat | None,
              build: Callable[[dict[str, Any], RoomMatch | None], T],
              now: dt.datetime | None = None) -> T:
    """``build(view, match)``: ``seat``'s view (``state_json``) and the match it was built
    from, at the room's committed state. The match is the one this process keeps, shared:
    ``build`` runs under the cache's lock, only reads it, and touches no database."""
    seats = list(room.seats.order_by("number"))
    if not room.started:
        return build(state_json(room, None, seat, now, seats), None)
    return _LIVE.read(room.public_id, room.step, lambda: _restore(room),
                      lambda match: build(state_json(room, match, seat, now, seats), match),
                      _replayed(room))


def _store(change: _Change, now: dt.datetime) -> None:
    """Write the match (every move so far, and this change's inputs with the last ones kept)
    and the seats' timers that changed (an answering seat's spent bank with them); finish
    it when over."""
    room, match, seats = change.room, change.match, change.seats
    assert match is not None
    stored = room.moves if isinstance(room.moves, dict) else {"state_at": None, "changes": []}
    recorded = change.recorded()
    changes = [*stored["changes"], *([recorded] if recorded is not None else [])]
    after = [c for c in changes if stored["state_at"] is not None and c["to"] > stored["state_at"]]
    whole = (match.over or stored["state_at"] is None or len(after) >= STATE_EVERY
             or any(c.get("added") is None for c in after))
    if whole:
        room.state = match.to_json()
        room.moves = {"state_at": match.step, "changes": [
            {k: v for k, v in c.items() if k != "added"} for c in changes[-KEPT_CHANGES:]]}
    else:
        room.moves = {"state_at": stored["state_at"],
                      "changes": changes[-(KEPT_CHANGES + STATE_EVERY):]}
    room.step = match.step
    sync_timers(room, match, seats, now)
    if match.over and not room.over:
        finish(room, match, seats)
    _write(room, change.changed_seats(), with_state=whole)


def _write(room: Room, seats: list[Seat], with_state: bool = True) -> None:
    """The room's row (``ROOM_FIELDS``, the state only ``with_state``) and the timers of
    ``seats``: on PostgreSQL one statement, so a change costs one round trip to write
    whatever it touched."""
    room.updated_at = timezone.now()
    names = ROOM_FIELDS if with_state else [n for n in ROOM_FIELDS if n != "state"]
    if connection.vendor != "postgresql":
        room.save(update_fields=names)
        _write_timers(seats)
        return
    quote = connection.ops.quote_name
    fields = _fields(Room, names)
    sql = (f"UPDATE {quote(Room._meta.db_table)} SET "
           + ", ".join(f"{quote(_column(f))} = %s" for f in fields)
           + f" WHERE {quote(_column(_fields(Room, ['id'])[0]))} = %s")
    params = [f.get_db_prep_save(getattr(room, f.attname), connection) for f in fields]
    params.append(room.pk)
    if seats:
        timers, seat_params = _timers_sql(seats)
        sql, params = f"WITH timers AS ({timers}) {sql}", [*seat_params, *params]
    _execute_bound(sql, params)


def _execute_bound(sql: str, params: list[Any]) -> None:
    """Run a write with its parameters sent apart from the statement (the server binds
    them): the match's state, several kilobytes of JSON, is not quoted into the statement's
    text, which Django's cursor (it binds on the client) spent more CPU on than on anything
    else in the write. On the change's own connection and transaction."""
    connection.ensure_connection()
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(sql, params, prepare=False)


def _write_timers(seats: list[Seat]) -> None:
    if not seats:
        return
    if connection.vendor != "postgresql":
        Seat.objects.bulk_update(seats, TIMER_FIELDS)
        return
    _execute_bound(*_timers_sql(seats))


def _timers_sql(seats: list[Seat]) -> tuple[str, list[Any]]:
    """One UPDATE of the seats' timers from a VALUES list (Django's ``bulk_update`` builds
    a CASE per field and seat: several times the CPU for the same effect)."""
    quote = connection.ops.quote_name
    fields = _fields(Seat, ["id", *TIMER_FIELDS])
    row = "(" + ", ".join(f"%s::{f.cast_db_type(connection)}" for f in fields) + ")"
    columns = [quote(_column(f)) for f in fields]
    sql = (f"UPDATE {quote(Seat._meta.db_table)} AS seat SET "
           + ", ".join(f"{c} = v.{c}" for c in columns[1:])
           + f" FROM (VALUES {', '.join([row] * len(seats))}) AS v({', '.join(columns)})"
           + f" WHERE seat.{columns[0]} = v.{columns[0]}")
    params = [f.get_db_prep_save(getattr(seat, f.attname), connection)
              for seat in seats for f in fields]
    return sql, params


def _fields(model: type[models.Model], names: list[str]) -> list[models.Field[Any, Any]]:
    found = [model._meta.get_field(name) for name in names]
    assert all(isinstance(f, models.Field) for f in found)
    return cast(list[models.Field[Any, Any]], found)


def _column(field: models.Field[Any, Any]) -> str:
    return cast(str, field.column)


def sync_timers(room: Room, match: RoomMatch, seats: list[Seat], now: dt.datetime) -> None:
    """Each human seat's deadline: its open decision's (a new one runs from ``now`` for the
    time per decision plus what is left of the seat's bank); none without a decision. Set
    on the seats only: the change writes those that changed (:func:`_write`)."""
    for seat in seats:
        if seat.kind != Seat.Kind.HUMAN:
            continue
        opened = match.opened_at(seat.number)
        if opened is None:
            seat.deadline = seat.decision_step = seat.decision_started = None
            continue
        if seat.decision_step == opened and seat.deadline is not None:
            continue
        seat.decision_step = opened
        seat.decision_started = now
        seat.deadline = now + dt.timedelta(seconds=room.decision_seconds + seat.bank_left)


def _spend(room: Room, seat: Seat, now: dt.datetime) -> None:
    """An answer: what it took past the time per decision comes out of the bank (written
    with the timers, :func:`sync_timers`)."""
    if seat.decision_started is not None:
        used = (now - seat.decision_started).total_seconds() - room.decision_seconds
        if used > 0:
            seat.bank_left = max(0.0, seat.bank_left - used)
    seat.deadline = seat.decision_step = seat.decision_started = None


def act(request: HttpRequest, public_id: str, step: Any, action: Any,
        now: dt.datetime | None = None) -> tuple[Room, dict[str, Any], Seat]:
    """Apply the requester's seat's answer (``POST …/act``): :func:`answer` with the ticket
    their session holds."""
    ticket = request.session.get(SESSION_KEY, {}).get(public_id)
    return answer(public_id, ticket, step, action, now)


def answer(public_id: str, ticket: str | None, step: Any, action: Any,
           now: dt.datetime | None = None) -> tuple[Room, dict[str, Any], Seat]:
    """Apply the answer of the seat holding ``ticket`` (a page's POST or its socket's
    ``act`` message) under the room's lock and return the room, the seat's view after it
    and the seat; the engine's ``StaleStep`` / ``IllegalAction`` change nothing."""
    now = now or timezone.now()
    with transaction.atomic():
        change = _locked(public_id)
        room, seats, match = change.room, change.seats, change.match
        seat = next((s for s in seats if ticket and s.taken and s.ticket == ticket), None)
        if seat is None:
            raise TableError(_("You have no seat at this table."), 403)
        if match is None:
            raise TableError(_("The match hasn't started yet."))
        _apply_expired(change, now)
        _reclaim(change, seat, now)  # last_seen is written with the timers
        change.act(seat.number, step, action)
        _spend(room, seat, now)
        _store(change, now)
        views = _changed(room, match, seats)
        view = views.get(seat.number) or state_json(room, match, seat, now, seats)
    return room, view, seat


def leave(request: HttpRequest, public_id: str,
          now: dt.datetime | None = None) -> tuple[Room, RoomMatch, Seat]:
    """The requester's person leaves the table for good under the room's lock
    (``RoomMatch.leave_for``: charged as the rules say; the match ends with this hand).
    ``IllegalAction`` when leaving isn't allowed now."""
    now = now or timezone.now()
    ticket = request.session.get(SESSION_KEY, {}).get(public_id)
    with transaction.atomic():
        change = _locked(public_id)
        room, seats, match = change.room, change.seats, change.match
        seat = next((s for s in seats if ticket and s.taken and s.ticket == ticket), None)
        if seat is None or match is None:
            raise TableError(_("You have no seat at this table."), 403)
        change.leave(seat.number)
        _store(change, now)
        _changed(room, match, seats)
    return room, match, seat


def _reclaim(change: _Change, seat: Seat, now: dt.datetime) -> None:
    """The seat's player is here: the bot gives the seat back (``last_seen`` is written
    with the timers)."""
    seat.last_seen = now
    change.autoplay(seat.number, False)


def touch(public_id: str, seat_number: int | None = None, now: dt.datetime | None = None,
          connected: bool | None = None) -> tuple[Room, RoomMatch | None]:
    """Apply every expired deadline and disconnect of the room (any request touching it
    does); ``seat_number`` is a seat whose player is here (given back by the bot);
    ``connected`` records its socket opening or closing."""
    now = now or timezone.now()
    with transaction.atomic():
        change = _locked(public_id)
        room, seats, match = change.room, change.seats, change.match
        before = room.step
        if seat_number is not None:
            seat = seats[seat_number]
            if connected is not None:
                seat.connected = connected
                seat.disconnected_at = None if connected else now
                seat.save(update_fields=["connected", "disconnected_at"])
            if match is not None and connected is not False and not match.over:
                _reclaim(change, seat, now)
        if match is not None and not match.over:
            _apply_expired(change, now)
        if match is not None and match.step != before:  # the row written only when moved
            _store(change, now)
        else:
            _write_timers(change.changed_seats())
        if room.step != before or connected is not None:
            _changed(room, match, seats)
    return room, match


def apply_expired(room: Room, match: RoomMatch, seats: list[Seat], now: dt.datetime) -> int:
    """Answer for every seat whose deadline passed (a pass, or the drawn tile discarded)
    and hand to the bot every seat disconnected longer than the grace period, under the
    room's lock; the seats' timers are written. Returns the number of deadlines applied."""
    change = _Change(room, seats, match)
    applied = _apply_expired(change, now)
    _write_timers(change.changed_seats())
    return applied


def _apply_expired(change: _Change, now: dt.datetime) -> int:
    """:func:`apply_expired` within a change (which writes the timers). Each deadline is
    taken by a conditional UPDATE: only the one who clears it applies it."""
    room, match, seats = change.room, change.match, change.seats
    assert match is not None
    applied = 0
    grace = dt.timedelta(seconds=settings.TABLES_GRACE_SECONDS)
    for _round in range(400):
        if match.over:
            break
        moved = False
        for seat in seats:
            if (seat.kind == Seat.Kind.HUMAN and seat.taken and not seat.connected
                    and seat.disconnected_at is not None and seat.disconnected_at <= now - grace
                    and seat.number not in match.autoplay):
                change.autoplay(seat.number, True)
                moved = True
        for seat in seats:
            opened = match.opened_at(seat.number)
            if (seat.deadline is None or seat.deadline > now or opened is None
                    or seat.decision_step != opened):
                continue
            owned = Seat.objects.filter(pk=seat.pk, deadline=seat.deadline,
                                        decision_step=seat.decision_step).update(
                deadline=None, decision_step=None, decision_started=None, bank_left=0)
            seat.deadline = seat.decision_step = seat.decision_started = None
            if not owned:
                change.stored[seat.pk] = _timers_of(seat)  # as another process left it
                continue
            seat.bank_left = 0
            change.stored[seat.pk] = _timers_of(seat)  # as the conditional UPDATE left it
            change.act(seat.number, match.step, match.default_action(seat.number))
            applied += 1
            moved = True
            break
        sync_timers(room, match, seats, now)
        if not moved:
            break
    return applied


def expire_all(now: dt.datetime | None = None) -> int:
    """Beat: apply the passed deadlines and disconnects of every room being played."""
    now = now or timezone.now()
    grace = now - dt.timedelta(seconds=settings.TABLES_GRACE_SECONDS)
    due = set(Seat.objects.filter(room__started=True, room__over=False, deadline__lte=now)
              .values_list("room__public_id", flat=True))
    due |= set(Seat.objects.filter(room__started=True, room__over=False, kind=Seat.Kind.HUMAN,
                                   taken=True, connected=False, disconnected_at__lte=grace)
               .values_list("room__public_id", flat=True))
    for public_id in sorted(due):
        touch(public_id, now=now)
    return len(due)


def finish(room: Room, match: RoomMatch, seats: list[Seat]) -> None:
    """A finished match: a private replay for each signed-in human (their seat valued), an
    unlisted one for the guests (their end screens have its link)."""
    room.over = True
    raw = dumps(match.log()).encode("utf-8")
    for seat in seats:
        if seat.kind != Seat.Kind.HUMAN or not seat.taken:
            continue
        if seat.user is None:
            if room.replay_id is None:
                room.replay = _stored(raw, None, Match.Visibility.UNLISTED, seat.number)
            continue
        seat.replay = _stored(raw, seat.user, Match.Visibility.PRIVATE, seat.number)
        seat.save(update_fields=["replay"])


def _stored(raw: bytes, owner: Any, visibility: str, seat: int) -> Match | None:
    try:
        return store_document(raw, owner=owner, visibility=visibility, uploader_seat=seat)
    except DuplicateUpload as duplicate:
        return duplicate.existing
    except UploadError:
        return None


def waiting_json(room: Room, seat: Seat | None,
                 seats: list[Seat] | None = None) -> dict[str, Any]:
    """A room not yet started: who is seated (names and kinds), what it will play."""
    seats = seats if seats is not None else list(room.seats.order_by("number"))
    return {"id": room.public_id, "started": False, "over": False, "variant": room.variant,
            "hands": room.hands, "humans": room.humans, "level": room.level,
            "commitment": room.commitment, "seat": seat.number if seat else None,
            "seats": [_seat_facts(s) | {"seat": s.number, "name": s.name} for s in seats]}


def _seat_facts(seat: Seat) -> dict[str, Any]:
    return {"kind": seat.kind, "taken": seat.taken or seat.kind == Seat.Kind.BOT,
            "connected": seat.connected if seat.kind == Seat.Kind.HUMAN else True}


def state_json(room: Room, match: RoomMatch | None, seat: Seat | None,
               now: dt.datetime | None = None,
               seats: list[Seat] | None = None) -> dict[str, Any]:
    """The seat's view as ``state.json`` serves it and the socket pushes it: ``/play/``'s
    fields, plus per seat ``kind`` and ``connected``, ``started``, and the seat's clock."""
    if match is None:
        return waiting_json(room, seat, seats)
    now = now or timezone.now()
    view = (match.view(seat.number) if seat is not None
            else match.spectator_view(settings.TABLES_SPECTATOR_DELAY))
    seats = seats if seats is not None else list(room.seats.order_by("number"))
    for entry, row in zip(view["seats"], seats, strict=True):
        entry.update(_seat_facts(row))
        entry["autoplay"] = row.number in match.autoplay
    view["id"] = room.public_id
    view["started"] = True
    if seat is not None:
        mine = seats[seat.number]
        view["clock"] = {
            "deadline": mine.deadline.isoformat() if mine.deadline else None,
            "seconds_left": (max(0, int((mine.deadline - now).total_seconds()))
                             if mine.deadline else None),
            "bank_left": int(mine.bank_left), "per_decision": room.decision_seconds}
    if match.over:
        view["replay"] = None
    return view


def lobby() -> Any:
    """Open rooms still waiting for people, newest first."""
    return Room.objects.filter(private=False, started=False, over=False).order_by("-created_at")


__all__ = ["PlayError", "RoomChoice", "SESSION_KEY", "TableError", "TooManyOpen", "act", "answer",
           "apply_expired", "create", "expire_all", "finish", "group_name", "join", "leave", "lobby",
           "restored", "seat_by_ticket", "seat_of", "seat_read", "seat_view", "start_early", "state_json", "touch",
           "visible", "waiting_json"]

