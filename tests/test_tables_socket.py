"""Tables with friends, real time (issue 28, docs/tables.md): the WebSocket at
``/tables/<id>/ws`` and the pure router behind it.

alice and bob sit at one table, each with a socket: each gets their own view on connect
and after every change, never the other's tiles; charlie without a seat is refused at a
table without spectators. Driven by channels' WebsocketCommunicator (no server, no
sleeping): the in-memory channel layer of the test settings.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from replays import inprocess
from replays.models.tables import Seat
from replays.tables import router
from replays.tables.router import messages

ORIGIN = (b"origin", b"http://localhost")


def run_apart(scenario: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``scenario`` to its end on a thread of its own: in a test worker where a browser
    test ran before, the main thread may hold Playwright's event loop, and async_to_sync
    refuses to run beside a running loop."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(async_to_sync(scenario)).result()


def _create(client: Client, humans: int = 2, **extra: Any) -> str:
    response = client.post("/tables/", {"variant": "jiaxing", "humans": humans, "hands": 2,
                                        "name": "Alice", **extra})
    assert response.status_code == 302
    found = re.match(r"^/tables/([^/]+)/$", response["Location"])
    assert found
    return found.group(1)


def _application() -> Any:
    """The site's ASGI application (mahjong_site/asgi.py), imported without starting the
    in-process pool its import starts for a web process (the tests run tasks at once)."""
    import importlib

    real = inprocess.run_beside_requests
    inprocess.run_beside_requests = lambda *args, **kwargs: None  # type: ignore[assignment]
    try:
        return importlib.import_module("mahjong_site.asgi").application
    finally:
        inprocess.run_beside_requests = real


def _socket(pid: str, client: Client | None) -> WebsocketCommunicator:
    headers = [ORIGIN, (b"host", b"localhost")]
    if client is not None:
        headers.append((b"cookie", f"sessionid={client.cookies['sessionid'].value}".encode()))
    return WebsocketCommunicator(_application(), f"/tables/{pid}/ws", headers=headers)


def test_it_routes_each_listener_its_own_view_to_its_own_group_only() -> None:
    views = {0: {"seat": 0, "you": {"hand": ["1m"]}}, 1: {"seat": 1, "you": {"hand": ["2m"]}},
             None: {"seat": None, "you": None}}
    out = messages("r9", views)
    assert [group for group, _ in out] == ["table.r9.seat.0", "table.r9.seat.1",
                                          "table.r9.watch"]
    for (group, message), listener in zip(out, views, strict=True):
        assert group == router.group("r9", listener)
        assert message["type"] == "room.view"
        assert json.loads(router.forwarded(message)) == {"type": "state",
                                                         "state": views[listener]}
    assert len({group for group, _ in out}) == len(views)  # no group hears two listeners


@pytest.mark.django_db(transaction=True)
def test_it_pushes_alice_and_bob_their_own_views_and_refuses_charlie(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    alice, bob = Client(), Client()
    pid = _create(alice)
    bob.post(f"/tables/{pid}/join", {"name": "Bob"})

    async def scenario() -> None:
        a, b = _socket(pid, alice), _socket(pid, bob)
        assert (await a.connect())[0] and (await b.connect())[0]
        first_a = await a.receive_json_from(timeout=5)
        first_b = await b.receive_json_from(timeout=5)
        assert first_a["type"] == "state" and first_a["state"]["seat"] == 0
        assert first_b["state"]["seat"] == 1
        assert first_a["state"]["you"]["hand"] and "hand" not in first_a["state"]["seats"][1]
        assert "hand" not in first_b["state"]["seats"][0]
        # Connecting marks the seat connected: a push follows (the room changed).
        for socket in (a, b):
            while not await socket.receive_nothing(timeout=0.3):
                await socket.receive_json_from(timeout=5)
        assert await sync_to_async(
            lambda: list(Seat.objects.filter(room__public_id=pid, number__in=(0, 1))
                         .values_list("connected", flat=True)))() == [True, True]
        # The heartbeat is answered with the room's committed step: a page that missed a
        # push sees it is behind.
        await a.send_json_to({"type": "heartbeat"})
        assert (await a.receive_json_from(timeout=5)) == {"type": "heartbeat",
                                                          "step": first_a["state"]["step"]}
        # Someone answers over HTTP: both sockets get their own new view.
        views = {0: first_a["state"], 1: first_b["state"]}
        asked = [s for s, v in views.items() if v["legal"]]
        if not asked:  # the state at connect may be old: ask for the latest
            for s, socket in ((0, a), (1, b)):
                await socket.send_json_to({"type": "state"})
                views[s] = (await socket.receive_json_from(timeout=5))["state"]
            asked = [s for s, v in views.items() if v["legal"]]
        assert asked, "alice or bob has a decision"
        seat = asked[0]
        client = (alice, bob)[seat]
        response = await sync_to_async(client.post)(
            f"/tables/{pid}/act",
            json.dumps({"step": views[seat]["step"], "action": views[seat]["legal"][0]}),
            content_type="application/json")
        assert response.status_code == 200
        pushed_a = await a.receive_json_from(timeout=5)
        pushed_b = await b.receive_json_from(timeout=5)
        assert pushed_a["state"]["step"] > views[0]["step"]
        assert pushed_b["state"]["step"] == pushed_a["state"]["step"]
        assert "hand" not in pushed_b["state"]["seats"][0]
        assert "hand" not in pushed_a["state"]["seats"][1]
        # charlie has no seat and the table allows no spectators: refused.
        c = _socket(pid, None)
        connected, code = await c.connect()
        assert not connected and code == 4403
        await b.disconnect()
        await a.disconnect()

    run_apart(scenario)
    bob_seat = Seat.objects.get(room__public_id=pid, number=1)
    assert bob_seat.connected is False and bob_seat.disconnected_at is not None


@pytest.mark.django_db(transaction=True)
def test_it_lets_a_spectator_watch_public_information_only(settings: Any) -> None:
    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    alice = Client()
    pid = _create(alice, humans=1, spectators="on")

    async def scenario() -> None:
        charlie = _socket(pid, None)
        assert (await charlie.connect())[0]
        first = await charlie.receive_json_from(timeout=5)
        assert first["state"]["seat"] is None and first["state"]["you"] is None
        assert all("hand" not in s for s in first["state"]["seats"])
        await charlie.disconnect()

    run_apart(scenario)


@pytest.mark.django_db(transaction=True)
def test_it_gives_bob_his_seat_back_from_the_bot_when_his_socket_reconnects(
        settings: Any) -> None:
    import datetime as dt

    from django.utils import timezone

    from replays.models.tables import Room
    from replays.tables import services

    settings.ALLOWED_HOSTS = ["localhost", "testserver"]
    alice, bob = Client(), Client()
    pid = _create(alice)
    bob.post(f"/tables/{pid}/join", {"name": "Bob"})
    now = timezone.now()
    services.touch(pid, 1, now=now, connected=False)
    services.touch(pid, now=now + dt.timedelta(seconds=settings.TABLES_GRACE_SECONDS + 1))
    match = services.restored(Room.objects.get(public_id=pid))
    assert match is not None and 1 in match.autoplay

    async def scenario() -> None:
        b = _socket(pid, bob)
        assert (await b.connect())[0]
        first = await b.receive_json_from(timeout=5)
        assert first["type"] == "state" and first["state"]["seat"] == 1
        await b.disconnect()

    run_apart(scenario)
    match = services.restored(Room.objects.get(public_id=pid))
    assert match is not None and 1 not in match.autoplay
