"""Tables with friends, the site (issue 28, docs/tables.md): rooms, seats, JSON, timers.

alice creates a table for two people; bob joins by the link and the match starts; charlie
(no seat) sees neither's tiles, and a private table without spectators not at all. Timers
are tested with explicit times: no sleeping.
"""

from __future__ import annotations

import datetime as dt
import json
import re
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.play.bot_match import verify
from games.records.log import loads
from replays.models import Match
from replays.models.tables import Room, Seat
from replays.tables import services

pytestmark = pytest.mark.django_db(transaction=False)


def create(client: Client, humans: int = 2, variant: str = "jiaxing", hands: int = 4,
           **extra: Any) -> str:
    response = client.post("/tables/", {"variant": variant, "humans": humans, "hands": hands,
                                        "name": "Alice", "decision_seconds": 20,
                                        "bank_seconds": 30, **extra})
    assert response.status_code == 302, response.content[:500]
    found = re.match(r"^/tables/([^/]+)/$", response["Location"])
    assert found
    return found.group(1)


def state(client: Client, pid: str, status: int = 200) -> dict[str, Any]:
    response = client.get(f"/tables/{pid}/state.json")
    assert response.status_code == status, response.content[:300]
    data: dict[str, Any] = response.json()
    return data


def act(client: Client, pid: str, step: Any, action: Any) -> Any:
    return client.post(f"/tables/{pid}/act", json.dumps({"step": step, "action": action}),
                       content_type="application/json")


def seated_pair() -> tuple[Client, Client, str]:
    alice, bob = Client(), Client()
    pid = create(alice)
    assert state(alice, pid)["started"] is False
    response = bob.post(f"/tables/{pid}/join", {"name": "Bob"})
    assert response.status_code == 302
    return alice, bob, pid


def play_out(clients: dict[int, Client], pid: str, limit: int = 3000) -> dict[str, Any]:
    for _ in range(limit):
        views = {seat: state(c, pid) for seat, c in clients.items()}
        if all(v["over"] for v in views.values()):
            return views[min(views)]
        for seat, view in views.items():
            if view["legal"]:
                response = act(clients[seat], pid, view["step"], view["legal"][0])
                assert response.status_code in (200, 409), response.content[:300]
    raise AssertionError("the table did not end")


def test_it_creates_a_room_for_alice_and_starts_when_bob_joins() -> None:
    alice, bob, pid = seated_pair()
    a, b = state(alice, pid), state(bob, pid)
    assert a["started"] and b["started"]
    assert (a["seat"], b["seat"]) == (0, 1)
    kinds = [s["kind"] for s in a["seats"]]
    assert kinds == ["human", "human", "bot", "bot"]
    assert [s["name"] for s in a["seats"]][:2] == ["Alice", "Bob"]
    assert "connected" in a["seats"][0] and a["you"]["hand"]
    assert "hand" not in a["seats"][1] and "hand" not in b["seats"][0]
    text = json.dumps(a) + json.dumps(b)
    room = Room.objects.get(public_id=pid)
    assert room.seed not in text and "wall" not in a


def test_it_shows_the_waiting_room_with_an_invite_and_qr_code() -> None:
    alice = Client()
    pid = create(alice, humans=3)
    page = alice.get(f"/tables/{pid}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert f"/tables/{pid}/" in html and "<svg" in html
    assert "Start now" in html


def test_it_lets_the_creator_start_early_with_bots() -> None:
    alice, bob = Client(), Client()
    pid = create(alice, humans=4)
    bob.post(f"/tables/{pid}/join", {"name": "Bob"})
    assert state(bob, pid)["started"] is False
    refused = bob.post(f"/tables/{pid}/start")
    assert refused.status_code == 403
    alice.post(f"/tables/{pid}/start")
    view = state(alice, pid)
    assert view["started"] and [s["kind"] for s in view["seats"]] == [
        "human", "human", "bot", "bot"]
    late = Client().post(f"/tables/{pid}/join", {"name": "Charlie"})
    assert late.status_code == 409


def test_it_never_shows_charlie_alice_or_bobs_tiles() -> None:
    alice, bob = Client(), Client()
    pid = create(alice, spectators="on")
    bob.post(f"/tables/{pid}/join", {"name": "Bob"})
    charlie = Client()
    view = state(charlie, pid)
    assert view["seat"] is None and view["you"] is None and view["legal"] == []
    assert all("hand" not in s for s in view["seats"])
    assert act(charlie, pid, view["step"], {"type": "pass"}).status_code == 403
    # A table without spectators shows charlie nothing at all.
    pid2 = create(Client(), humans=1)
    assert state(charlie, pid2, 403)["error"]["message"]


def test_it_answers_stale_and_illegal_acts_like_play() -> None:
    alice, bob, pid = seated_pair()
    clients = {0: alice, 1: bob}
    for _ in range(200):
        views = {s: state(c, pid) for s, c in clients.items()}
        asked = [s for s, v in views.items() if v["legal"]]
        if asked:
            break
        pytest.fail("nobody was asked")  # pragma: no cover
    seat = asked[0]
    view = views[seat]
    assert act(clients[seat], pid, view["step"] + 5, view["legal"][0]).status_code == 409
    bad = act(clients[seat], pid, view["step"], {"type": "discard", "tile": "9z"})
    assert bad.status_code == 400 and bad.json()["error"]["rule"]
    ok = act(clients[seat], pid, view["step"], view["legal"][0])
    assert ok.status_code == 200 and ok.json()["step"] > view["step"]


def test_it_plays_a_table_to_the_end_and_gives_each_player_a_private_replay(
        django_user_model: Any) -> None:
    alice_user = django_user_model.objects.create_user("alice", password="pw-alice-123")
    alice, bob = Client(), Client()
    alice.force_login(alice_user)
    pid = create(alice, variant="sichuan", hands=1)
    bob.post(f"/tables/{pid}/join", {"name": "Bob"})
    first = state(alice, pid)
    assert "seed" not in first
    end = play_out({0: alice, 1: bob}, pid)
    assert end["over"] and end["seed"]
    room = Room.objects.get(public_id=pid)
    assert room.over
    seat = room.seats.get(number=0)
    assert seat.replay is not None and seat.replay.owner == alice_user
    assert seat.replay.visibility == Match.Visibility.PRIVATE
    verify(loads(bytes(seat.replay.document).decode()), end["seed"], first["commitment"])
    assert room.replay is not None  # bob's (a guest's): unlisted, linked from his end screen
    assert room.replay.visibility == Match.Visibility.UNLISTED
    assert room.replay.public_id in state(bob, pid)["replay"]
    assert seat.replay.public_id in state(alice, pid)["replay"]
    page = alice.get(f"/tables/{pid}/").content.decode()
    assert seat.replay.public_id in page and end["seed"] in page


def test_it_times_out_a_decision_once_with_explicit_times() -> None:
    alice, bob, pid = seated_pair()
    room = Room.objects.get(public_id=pid)
    seats = {s.number: s for s in room.seats.all()}
    waiting = [n for n, s in seats.items() if s.deadline is not None]
    assert waiting, "an open decision has a deadline"
    seat = seats[waiting[0]]
    assert seat.decision_step is not None
    before = room.step
    # Before the deadline nothing happens.
    services.touch(pid, now=seat.deadline - dt.timedelta(seconds=1))
    assert Room.objects.get(public_id=pid).step == before
    # After it, the seat's decision is answered (once), its bank spent.
    later = seat.deadline + dt.timedelta(seconds=1)
    services.touch(pid, now=later)
    room.refresh_from_db()
    assert room.step > before
    seat.refresh_from_db()
    assert seat.bank_left == 0
    step_after = room.step
    services.touch(pid, now=later)  # the same moment again: nothing left to apply
    room.refresh_from_db()
    assert room.step == step_after


def test_it_applies_a_deadline_only_for_whoever_clears_it() -> None:
    alice, bob, pid = seated_pair()
    room = Room.objects.get(public_id=pid)
    seat = room.seats.exclude(deadline=None).first()
    assert seat is not None
    # Another process took the timer (cleared it): this one must not apply it.
    Seat.objects.filter(pk=seat.pk).update(deadline=None)
    stale = [s for s in room.seats.order_by("number")]
    stale[seat.number].deadline = seat.deadline
    match = services.restored(room)
    assert match is not None
    applied = services.apply_expired(room, match, stale,
                                     seat.deadline + dt.timedelta(seconds=5))
    assert applied == 0


def test_it_hands_a_disconnected_seat_to_the_bot_after_the_grace_period() -> None:
    alice, bob, pid = seated_pair()
    now = timezone.now()
    services.touch(pid, 1, now=now, connected=True)
    services.touch(pid, 1, now=now, connected=False)
    bank = Room.objects.get(public_id=pid).seats.get(number=1).bank_left
    services.touch(pid, now=now + dt.timedelta(seconds=5))
    room = Room.objects.get(public_id=pid)
    match = services.restored(room)
    assert match is not None and 1 not in match.autoplay
    services.touch(pid, now=now + dt.timedelta(seconds=21))
    room.refresh_from_db()
    match = services.restored(room)
    assert match is not None and 1 in match.autoplay
    assert room.seats.get(number=1).bank_left == bank  # the bank is kept
    services.touch(pid, 1, now=now + dt.timedelta(seconds=30), connected=True)
    match = services.restored(Room.objects.get(public_id=pid))
    assert match is not None and 1 not in match.autoplay


def test_it_lists_open_rooms_in_the_lobby_and_not_private_ones() -> None:
    alice = Client()
    open_pid = create(alice, humans=2, open="on")
    private_pid = create(Client(), humans=2)
    lobby = Client().get("/tables/").content.decode()
    assert open_pid in lobby and private_pid not in lobby
    assert Client().get("/tables/new").status_code == 200


def test_it_caps_open_rooms_per_visitor(settings: Any) -> None:
    settings.TABLES_MAX_OPEN_ROOMS = 1
    alice = Client()
    create(alice)
    response = alice.post("/tables/", {"variant": "jiaxing", "humans": 2, "hands": 1})
    assert response.status_code == 409


def test_it_refuses_a_bad_form_without_a_500() -> None:
    response = Client().post("/tables/", {"variant": "riichi", "humans": 9, "hands": 0})
    assert response.status_code == 400
    assert Client().post("/tables/nosuch/join", {"name": "x"}).status_code == 404


def test_it_plays_by_the_form_without_javascript() -> None:
    alice, bob, pid = seated_pair()
    for _ in range(50):
        views = {0: state(alice, pid), 1: state(bob, pid)}
        asked = [s for s, v in views.items() if v["legal"]]
        if asked:
            break
    seat = asked[0]
    client = (alice, bob)[seat]
    view = views[seat]
    page = client.get(f"/tables/{pid}/").content.decode()
    assert 'name="action"' in page and f'value="{view["step"]}"' in page
    response = client.post(f"/tables/{pid}/act", {
        "step": str(view["step"]),
        "action": json.dumps(view["legal"][0], sort_keys=True, separators=(",", ":"))})
    assert response.status_code == 302 and response["Location"] == f"/tables/{pid}/"
    assert state(client, pid)["step"] > view["step"]


def test_it_declares_the_deadlines_beat_task_and_applies_every_due_room(settings: Any) -> None:
    from mahjong_site.celery import app
    from replays.tables import tasks

    entry = settings.CELERY_BEAT_SCHEDULE["apply-table-deadlines"]
    assert entry["task"] == tasks.apply_table_deadlines.name
    assert app.tasks[entry["task"]] is not None
    alice, bob, pid = seated_pair()
    room = Room.objects.get(public_id=pid)
    seat = room.seats.exclude(deadline=None).first()
    assert seat is not None and seat.deadline is not None
    assert services.expire_all(seat.deadline - dt.timedelta(seconds=1)) == 0
    assert services.expire_all(seat.deadline + dt.timedelta(seconds=1)) == 1
    assert Room.objects.get(public_id=pid).step > room.step


@pytest.mark.django_db(transaction=True)
def test_it_serialises_concurrent_answers_of_one_seat() -> None:
    import threading

    from django.db import connection

    alice = Client()
    pid = create(alice, humans=1)  # four hands: the bots can't end it before alice's turn
    data = state(alice, pid)
    assert data["legal"]
    statuses: list[int] = []
    barrier = threading.Barrier(2)

    def answer() -> None:
        client = Client()
        client.cookies = alice.cookies  # the same session: the same seat, two tabs
        barrier.wait()
        statuses.append(act(client, pid, data["step"], data["legal"][0]).status_code)
        connection.close()

    threads = [threading.Thread(target=answer) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [200, 409]


def test_it_spends_the_bank_only_past_the_time_per_decision() -> None:
    alice, bob, pid = seated_pair()
    room = Room.objects.get(public_id=pid)
    seat = room.seats.exclude(deadline=None).first()
    assert seat is not None and seat.decision_started is not None
    bank = seat.bank_left
    assert seat.deadline == seat.decision_started + dt.timedelta(
        seconds=room.decision_seconds + bank)
    services._spend(room, seat, seat.decision_started + dt.timedelta(
        seconds=room.decision_seconds - 1))
    assert seat.bank_left == bank and seat.deadline is None
    seat.decision_started = timezone.now()
    services._spend(room, seat, seat.decision_started + dt.timedelta(
        seconds=room.decision_seconds + 12))
    assert seat.bank_left == bank - 12


def test_it_cleans_a_guests_name_of_control_characters() -> None:
    alice, bob = Client(), Client()
    pid = create(alice, humans=2)
    bob.post(f"/tables/{pid}/join", {"name": "Bo\x00b\u200b \t\n"})
    names = [s["name"] for s in state(alice, pid)["seats"]]
    assert names[1] == "Bob\u200b" or names[1] == "Bob"
    silent = Client()
    pid2 = create(silent, humans=2)
    Client().post(f"/tables/{pid2}/join", {"name": "   "})
    assert state(silent, pid2)["seats"][1]["name"] == "Guest"


def test_it_lets_bob_leave_after_showing_the_cost_and_ends_the_match() -> None:
    alice, bob, pid = seated_pair()
    page = bob.get(f"/tables/{pid}/leave")
    assert page.status_code == 200 and "JX-10.6" in page.content.decode()
    assert Client().get(f"/tables/{pid}/leave").status_code == 403
    response = bob.post(f"/tables/{pid}/leave")
    assert response.status_code == 302
    end = play_out({0: alice}, pid)
    assert end["over"] and "Bob left the table" in end["result"]["stopped"]
    assert bob.post(f"/tables/{pid}/leave").status_code == 400
