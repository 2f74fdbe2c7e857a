"""Tables with friends under chaos (issue 28, docs/tables.md): ten tables filled with bots,
each with one or two people driven by scripted clients, and a seeded storm of
disconnects, reconnects and timeouts across them.

The clients answer through the site's own path (``services.act``, what ``POST …/act``
calls, under the room's row lock, with the seat's ticket in the session), and connect and
disconnect as the socket does (``services.touch(…, connected=True/False)``, what
``replays/tables/consumers.py`` calls). Time is explicit: a virtual clock moved forward
by the script, so a grace period (``TABLES_GRACE_SECONDS``) or a deadline expires when the
script says, never by sleeping.

Asserted: no table is stuck (each ends within a bounded number of steps); no event is
doubled or missing (each table's stored log validates, replays to the same totals, and is
the guests' stored replay byte for byte); every seat is resumable (after each reconnect
its ``state.json`` has its own tiles, the engine's count of them, and its open decision
with the options it may answer, which are then accepted).
"""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import Client, RequestFactory
from django.utils import timezone

from games.play.bot_match import IllegalAction, StaleStep, verify
from games.records.log import dumps, loads
from games.records.match import replay
from replays.models.tables import Room, Seat
from replays.tables import services

pytestmark = pytest.mark.django_db(transaction=False)

TABLES = 10
DISCONNECTS = 100
SEED = 28
MAX_STEPS = 6000
"""All tables together: a bound no healthy run comes near (each ends in a few hundred)."""


@dataclass
class Person:
    """One scripted client: its browser (``Client``, for ``state.json``), the request its
    answers come in (the seat's ticket in the session) and whether its socket is open."""

    seat: int
    client: Client
    request: Any
    connected: bool = True


@dataclass
class Table:
    pid: str
    people: dict[int, Person] = field(default_factory=dict)
    seed: str = ""
    now: dt.datetime = field(default_factory=timezone.now)
    """The table's own clock (a jump past one table's grace period leaves the others be)."""


def _new_table(number: int, rng: random.Random, factory: RequestFactory) -> Table:
    variant = ("jiaxing", "putian", "sichuan")[number % 3]
    humans = rng.choice((1, 2))
    creator = Client()
    response = creator.post("/tables/", {"variant": variant, "humans": humans, "hands": 4,
                                         "name": f"P{number}a", "decision_seconds": 10,
                                         "bank_seconds": 5})
    assert response.status_code == 302, response.content[:300]
    found = re.match(r"^/tables/([^/]+)/$", response["Location"])
    assert found
    table = Table(found.group(1))
    clients = [creator]
    if humans == 2:
        friend = Client()
        assert friend.post(f"/tables/{table.pid}/join", {"name": f"P{number}b"}).status_code == 302
        clients.append(friend)
    room = Room.objects.get(public_id=table.pid)
    assert room.started
    table.seed = room.seed
    for seat in room.seats.filter(kind=Seat.Kind.HUMAN).order_by("number"):
        request = factory.post(f"/tables/{table.pid}/act")
        request.session = {services.SESSION_KEY: {table.pid: seat.ticket}}  # type: ignore[attr-defined]
        request.user = AnonymousUser()
        table.people[seat.number] = Person(seat.number, clients[seat.number], request)
    return table


def _check_resumable(table: Table, person: Person, now: dt.datetime) -> dict[str, Any]:
    """The seat's view after a reconnect: as the socket sends it and as state.json serves
    it, with the seat's own tiles and its open decision, if any. state.json is asked first:
    it runs the timers on the real clock, which on a slow machine may have passed a deadline
    the test's clock hasn't, so the room is read after it."""
    served = person.client.get(f"/tables/{table.pid}/state.json").json()
    room = Room.objects.get(public_id=table.pid)
    match = services.restored(room)
    assert match is not None
    seat = room.seats.get(number=person.seat)
    pushed = services.state_json(room, match, seat, now)
    assert person.seat not in match.autoplay, "the seat is the player's again"
    for view in (pushed, served):
        assert view["seat"] == person.seat and view["started"]
        assert view["step"] == match.step
        assert view["you"] is not None
        if not match.over:
            # The seat's own tiles: as many as the engine holds for it (counts by tile).
            held = sum(match._live.seats[person.seat].hand)
            shown = len(view["you"]["hand"]) + (1 if view["you"]["drawn"] else 0)
            assert shown in (held, held + 1) and shown - held <= 1
        for other in view["seats"]:
            if other["seat"] != person.seat and not match.over:
                assert "hand" not in other or other.get("won"), "no one else's tiles"
        if person.seat in match.pendings:
            assert view["decision"]["opened"] == match.opened_at(person.seat)
            assert view["legal"] == match.legal(person.seat) and view["legal"]
        else:
            assert view["decision"] is None and view["legal"] == []
    assert pushed["you"] == served["you"] and pushed["legal"] == served["legal"]
    return pushed


def _answer(table: Table, person: Person, rng: random.Random, now: dt.datetime) -> bool:
    """The client answers its open decision (as the bot would, or any legal option), from
    its view as ``state.json`` serves it at ``now`` (passed deadlines applied first): an
    answer to that view is never stale."""
    _room, match = services.touch(table.pid, person.seat, now=now)
    assert match is not None
    if person.seat not in match.pendings:
        return False
    view = match.view(person.seat)
    action = match.bot_action(person.seat) if rng.random() < 0.8 else rng.choice(view["legal"])
    step = rng.choice(range(view["decision"]["opened"], view["step"] + 1))
    try:
        services.act(person.request, table.pid, step, action, now=now)
    except (StaleStep, IllegalAction) as refused:  # pragma: no cover - a bug: fail loudly
        raise AssertionError(f"{table.pid} seat {person.seat}: {refused}") from refused
    return True


def test_it_survives_a_hundred_disconnects_and_timeouts_across_ten_tables(
        settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    walls = iter(f"chaos-{n}" for n in range(TABLES))  # the same deals every run
    monkeypatch.setattr("replays.tables.services.new_seed", lambda: next(walls))
    settings.TABLES_GRACE_SECONDS = 20
    rng = random.Random(SEED)
    factory = RequestFactory()
    tables = [_new_table(n, rng, factory) for n in range(TABLES)]
    for table in tables:
        for person in table.people.values():
            services.touch(table.pid, person.seat, now=table.now, connected=True)
    counts: Counter[str] = Counter()
    for _step in range(MAX_STEPS):
        live = [t for t in tables if not Room.objects.get(public_id=t.pid).over]
        if not live:
            break
        table = rng.choice(live)
        person = table.people[rng.choice(sorted(table.people))]
        table.now += dt.timedelta(seconds=rng.choice((0, 1, 2)))
        now = table.now
        roll = rng.random()
        if person.connected and counts["disconnect"] < DISCONNECTS and roll < 0.35:
            services.touch(table.pid, person.seat, now=now, connected=False)
            person.connected = False
            counts["disconnect"] += 1
            # Away past the grace period: the bot takes the seat (at a table of one person
            # rarely: the bots then play the match to its end at once).
            if rng.random() < (0.3 if len(table.people) == 2 else 0.05):
                now = table.now = now + dt.timedelta(seconds=settings.TABLES_GRACE_SECONDS + 1)
                services.touch(table.pid, now=now)
                match = services.restored(Room.objects.get(public_id=table.pid))
                assert match is not None
                assert match.over or person.seat in match.autoplay
                counts["grace expired"] += 1
        elif not person.connected:
            if roll < 0.7:  # back: the socket opens, the seat is theirs again
                services.touch(table.pid, person.seat, now=now, connected=True)
                person.connected = True
                counts["reconnect"] += 1
                view = _check_resumable(table, person, now)
                counts["resumed with a prompt"] += bool(view["legal"])
            else:
                services.touch(table.pid, now=now)
        elif 0.35 <= roll < 0.45:  # the player lets the clock run out: the server answers
            seat = Seat.objects.get(room__public_id=table.pid, number=person.seat)
            if seat.deadline is not None:
                now = table.now = max(now, seat.deadline + dt.timedelta(seconds=1))
                before = Room.objects.get(public_id=table.pid).step
                services.touch(table.pid, now=now)
                assert Room.objects.get(public_id=table.pid).step > before
                counts["timeout"] += 1
        elif _answer(table, person, rng, now):
            counts["answer"] += 1
        else:  # nothing to answer: the table waits for someone else (or their clock)
            services.touch(table.pid, now=now)
    stuck = [t.pid for t in tables if not Room.objects.get(public_id=t.pid).over]
    assert not stuck, f"tables not ended within {MAX_STEPS} steps: {stuck} ({counts})"
    assert counts["disconnect"] == DISCONNECTS, counts
    assert counts["timeout"] >= 5 and counts["grace expired"] >= 5, counts
    assert counts["resumed with a prompt"] > 0, counts
    for table in tables:
        room = Room.objects.get(public_id=table.pid)
        match = services.restored(room)
        assert match is not None and match.over
        log = match.log()
        raw = dumps(log)
        assert loads(raw) == log
        settled = replay(loads(raw))  # validates: every event, every end's deltas
        assert settled.totals == match.result()["totals"]
        verify(log, table.seed)  # the deal is the seed's
        assert room.replay is not None  # the guests' replay is exactly this log
        assert bytes(room.replay.document) == raw.encode("utf-8")
