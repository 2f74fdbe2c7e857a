"""The kept match of the tables (issue 28, docs/tables.md, "The kept match").

Each ASGI process keeps the matches it played (``replays/tables/live.py``); the room's row
stays the authority, and keeps its last changes as the inputs they applied with a digest
of what they recorded (``Room.moves``), so a process whose copy is behind replays them
instead of restoring the whole log. Two processes are two caches here (``services._LIVE``
swapped), sharing one database; whatever they do in whatever order, each one's match is
the stored one, and each view it serves is the view of a match freshly restored from the
row. The replay is exact in another interpreter too (another hash seed): the digests are
checked in a subprocess.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from django.contrib.auth.models import AnonymousUser
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.core.table import RuleViolation
from games.play.bot_match import PlayError, StaleStep
from games.play.room_match import RoomMatch
from replays.models.tables import Room
from replays.tables import services
from replays.tables.live import LiveMatches

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parent.parent
RESTORED = RoomMatch.from_json
"""Restoring as the tests' own check does (the tests count the services' restores)."""


class Visitor:
    """What the services read of a request: a session, no account."""

    def __init__(self) -> None:
        self.session: dict[str, Any] = {}
        self.user = AnonymousUser()


def seated(variant: str, humans: int, seed: str) -> tuple[str, list[str | None]]:
    """A started room (its seats for people all taken) and each seat's ticket."""
    visitors = [Visitor() for _ in range(humans)]
    choice = services.RoomChoice(variant=variant, humans=humans, hands=2, rules={},
                                 decision_seconds=20, bank_seconds=10)
    with mock.patch.object(services, "new_seed", return_value=seed):
        room = services.create(visitors[0], choice, "P0")  # type: ignore[arg-type]
    for number, visitor in enumerate(visitors[1:], start=1):
        services.join(visitor, room.public_id, f"P{number}")  # type: ignore[arg-type]
    tickets: list[str | None] = [v.session["tables"][room.public_id] for v in visitors]
    return room.public_id, tickets + [None] * (4 - humans)


def process() -> LiveMatches[RoomMatch]:
    return LiveMatches(step_of=lambda match: match.step)


def fresh(pid: str) -> tuple[Room, RoomMatch | None]:
    """The room's row and its match restored from it (the authority)."""
    room = Room.objects.get(public_id=pid)
    if not room.started:
        return room, None
    return room, RESTORED(services.stored_state(room.state, room.moves))


def assert_kept_is_stored(cache: LiveMatches[RoomMatch], pid: str) -> None:
    """The match a process keeps at the row's step is the stored one, move for move: the
    last state written whole with the changes stored after it."""
    room, _match = fresh(pid)
    entry = cache._entries.get(pid)
    if entry is not None and entry[0] == room.step:
        assert entry[1].to_json() == services.stored_state(room.state, room.moves)


def assert_views_as_restored(cache: LiveMatches[RoomMatch], pid: str, now: dt.datetime) -> None:
    """Every listener's view served through ``cache`` is the view of the match restored from
    the row."""
    room, match = fresh(pid)
    seats = list(room.seats.order_by("number"))
    for seat in [*seats, None]:
        with mock.patch.object(services, "_LIVE", cache):
            served = services.seat_view(room, seat, now)
        expected = services.state_json(room, match, seat, now, seats)
        assert served == expected


OPERATIONS = st.lists(st.tuples(st.integers(0, 1), st.sampled_from(
    ["answer", "answer", "answer", "answer", "read", "timeout", "leave_socket",
     "back_socket"]), st.integers(0, 10_000)), min_size=5, max_size=40)


@settings(max_examples=12, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(variant=st.sampled_from(["jiaxing", "putian", "sichuan"]), humans=st.integers(2, 4),
       seed=st.text("0123456789abcdef", min_size=4, max_size=8), operations=OPERATIONS)
def test_it_keeps_each_process_match_equal_to_the_stored_one_whatever_the_order(
        variant: str, humans: int, seed: str, operations: list[tuple[int, str, int]]) -> None:
    caches = [process(), process()]
    with mock.patch.object(services, "_LIVE", caches[0]):
        pid, tickets = seated(variant, humans, seed)
    now = timezone.now()
    for who, kind, choice in operations:
        cache = caches[who]
        _room, match = fresh(pid)
        assert match is not None
        if match.over:
            break
        now += dt.timedelta(seconds=1)
        with mock.patch.object(services, "_LIVE", cache):
            if kind == "answer" and match.pendings:
                seat = sorted(match.pendings)[choice % len(match.pendings)]
                legal = match.legal(seat)
                try:
                    services.answer(pid, tickets[seat], match.step, legal[choice % len(legal)],
                                    now)
                except (StaleStep, RuleViolation):  # a deadline passed first: answered for
                    pass
            elif kind == "timeout":  # past every deadline: the server answers
                now += dt.timedelta(seconds=31)
                services.touch(pid, now=now)
            elif kind in ("leave_socket", "back_socket"):
                seat = choice % humans
                services.touch(pid, seat, now=now, connected=kind == "back_socket")
                if kind == "leave_socket":  # past the grace: the bot takes the seat
                    now += dt.timedelta(seconds=25)
                    services.touch(pid, now=now)
        if kind == "read":
            assert_views_as_restored(cache, pid, now)
        assert_kept_is_stored(cache, pid)
    for cache in caches:
        assert_views_as_restored(cache, pid, now)
        assert_kept_is_stored(cache, pid)


def alternate(pid: str, tickets: list[str | None], caches: list[LiveMatches[RoomMatch]],
              answers: int, first: int = 0) -> None:
    """``answers`` answers, each by the other process than the one before."""
    rng = random.Random(pid)
    for number in range(answers):
        _room, match = fresh(pid)
        assert match is not None and match.pendings
        seat = min(match.pendings)
        with mock.patch.object(services, "_LIVE", caches[(first + number) % 2]):
            services.answer(pid, tickets[seat], match.step, rng.choice(match.legal(seat)))


def test_it_replays_another_process_changes_instead_of_restoring_the_match() -> None:
    caches = [process(), process()]
    with mock.patch.object(services, "_LIVE", caches[0]):
        pid, tickets = seated("sichuan", 4, "cafe")
    alternate(pid, tickets, caches, 1, first=1)  # the second process's first: restored
    restore = mock.Mock(wraps=RoomMatch.from_json)
    with mock.patch.object(RoomMatch, "from_json", restore):
        alternate(pid, tickets, caches, 20)
        assert restore.call_count == 0
        for cache in caches:
            assert_views_as_restored(cache, pid, timezone.now())
            assert_kept_is_stored(cache, pid)


def test_it_restores_the_match_when_a_kept_change_gives_another_position(
        caplog: pytest.LogCaptureFixture) -> None:
    caches = [process(), process()]
    with mock.patch.object(services, "_LIVE", caches[0]):
        pid, tickets = seated("jiaxing", 4, "beef")
    alternate(pid, tickets, caches, 2, first=1)
    alternate(pid, tickets, caches, 1, first=0)  # the second process is one change behind
    room = Room.objects.get(public_id=pid)
    moves = room.moves
    moves["changes"][-1]["digest"] = "0" * 24  # as if replaying it gave another position
    Room.objects.filter(pk=room.pk).update(moves=moves)
    restore = mock.Mock(wraps=RoomMatch.from_json)
    with mock.patch.object(RoomMatch, "from_json", restore):
        alternate(pid, tickets, caches, 1, first=1)
    assert restore.call_count == 1
    assert "gave another position" in caplog.text
    assert_kept_is_stored(caches[1], pid)
    assert_views_as_restored(caches[0], pid, timezone.now())


def test_it_restores_a_match_further_behind_than_the_changes_kept() -> None:
    caches = [process(), process()]
    with mock.patch.object(services, "_LIVE", caches[0]):
        pid, tickets = seated("putian", 4, "face")
    alternate(pid, tickets, caches, 1, first=1)
    for _ in range(services.KEPT_CHANGES + services.STATE_EVERY + 1):  # all by the first
        alternate(pid, tickets, caches, 1, first=0)
    restore = mock.Mock(wraps=RoomMatch.from_json)
    with mock.patch.object(RoomMatch, "from_json", restore):
        alternate(pid, tickets, caches, 1, first=1)
    assert restore.call_count == 1
    assert_kept_is_stored(caches[1], pid)


def test_it_writes_the_whole_state_only_every_few_changes_and_at_each_hand_end() -> None:
    """Between whole writes a change stores only what it added; the state it stores with
    them is, at every step, the kept match's ``to_json``, which restores to the same
    views."""
    cache = process()
    with mock.patch.object(services, "_LIVE", cache):
        pid, tickets = seated("sichuan", 4, "d00d")
        rng = random.Random(7)
        answers = whole = 0
        written = Room.objects.get(public_id=pid).state
        for _ in range(2000):
            room, match = fresh(pid)
            assert match is not None
            if match.over:
                break
            seat = min(match.pendings)
            services.answer(pid, tickets[seat], match.step, rng.choice(match.legal(seat)))
            answers += 1
            room.refresh_from_db()
            kept = cache._entries[pid][1]
            assert kept.to_json() == services.stored_state(room.state, room.moves)
            if room.state != written:
                whole, written = whole + 1, room.state
                assert room.state == kept.to_json()
        assert match.over
    hands = len(match.to_json()["log"]["hands"])
    assert answers > 2 * services.STATE_EVERY
    assert whole <= answers // services.STATE_EVERY + hands + 1


def test_it_refuses_stored_changes_that_do_not_follow_the_state() -> None:
    cache = process()
    with mock.patch.object(services, "_LIVE", cache):
        pid, tickets = seated("jiaxing", 2, "abba")
        alternate(pid, tickets, [cache, cache], 2)
    room = Room.objects.get(public_id=pid)
    changes = room.moves["changes"]
    assert changes[-1]["added"] is not None
    skipped = {**room.moves, "changes": changes[:-2] + changes[-1:]}
    with pytest.raises(PlayError, match="don't follow"):
        services.stored_state(room.state, skipped)
    wrong = {**room.moves, "state_at": room.moves["state_at"] - 1}
    with pytest.raises(PlayError, match="not at the step"):
        services.stored_state(room.state, wrong)


REPLAY = """
import json, sys
from games.play.room_match import RoomMatch
games = json.load(sys.stdin)
out = []
for game in games:
    match = RoomMatch.from_json(game["start"])
    digests = []
    for change in game["changes"]:
        mark = match.position()
        for kind, seat, *args in change["inputs"]:
            if kind == "act":
                match.act_for(seat, args[0], args[1])
            else:
                match.set_autoplay(seat, args[0])
        digests.append(match.digest_since(mark))
    out.append({"digests": digests, "final": match.to_json()})
json.dump(out, sys.stdout)
"""


def test_it_replays_the_same_inputs_to_the_same_digests_in_another_interpreter() -> None:
    """The digest a process stores is the one another process computes after replaying the
    same inputs, whatever its hash seed (bots decide from the seed and the moment only)."""
    games = []
    for variant in ("jiaxing", "putian", "sichuan"):
        rng = random.Random(variant)
        match = RoomMatch.start_room(variant, seed=f"kept-{variant}", humans=(0, 2), hands=2)
        start, changes, digests = match.to_json(), [], []
        while match.pendings:
            mark = match.position()
            seat = rng.choice(sorted(match.pendings))
            if rng.random() < 0.03:
                match.set_autoplay(seat, True)
                inputs: list[Any] = [["autoplay", seat, True]]
            else:
                action = rng.choice(match.legal(seat))
                inputs = [["act", seat, match.step, action]]
                match.act_for(seat, match.step, action)
            changes.append({"inputs": inputs})
            digests.append(match.digest_since(mark))
        games.append({"start": start, "changes": changes, "digests": digests,
                      "final": match.to_json()})
    for hash_seed in ("1", "2"):
        done = subprocess.run(
            [sys.executable, "-c", REPLAY], input=json.dumps(games), capture_output=True,
            text=True, cwd=ROOT, check=True, env={**os.environ, "PYTHONHASHSEED": hash_seed})
        for game, replayed in zip(games, json.loads(done.stdout), strict=True):
            assert replayed["digests"] == game["digests"]
            assert replayed["final"] == game["final"]
