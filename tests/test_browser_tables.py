"""Four friends at one Sichuan table in four browsers (issue 28, docs/tables.md).

alice (1280 px) creates a room for four people; bob and charlie (390 px, phones) and dora
(1280 px, in Chinese) join by its link; each answers their own decisions with the mouse
until the hand is over (SC-2's void suit first, claims and turns after), with a fixed seed.
In the middle, a player asked to answer a discard (a claim window, SC-3) closes their page
and opens the room again: the same prompt and the same choices are back.

The live server is the site's ASGI application under daphne (``asgi_live_server``:
channels' ``DaphneProcess``, forked from the test so the fixed seed holds, on the test's
database), so the pages here are updated by their WebSockets (``static/js/tables.js``):
no page is reloaded to see another player's move. Which page must answer is read from the
room's ``state.json`` (``waiting_for``), and a page answers once its room shows that step.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from collections.abc import Iterator  # noqa: E402

from playwright.sync_api import Browser, BrowserContext, Page, expect  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")

SEED = "friends-sichuan-28"
ROUNDS = 400


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("replays.tables.services.new_seed", lambda: SEED)


def _asgi_application() -> Any:
    """The site's ASGI application with its static files, built anew in the server's process
    (without the in-process task pool its import starts for a web process). A socket test
    run before in the parent process (tests/test_tables_socket.py, tests/test_ledger.py)
    left behind an application whose origin check holds that test's ALLOWED_HOSTS, and
    asgiref's single thread, which a forked process doesn't have (the consumers' database
    calls would wait for it forever)."""
    import importlib
    import sys
    from concurrent.futures import ThreadPoolExecutor

    from asgiref.sync import SyncToAsync
    from django.contrib.staticfiles.handlers import ASGIStaticFilesHandler
    from django.db import connections

    from replays import inprocess

    for connection in connections.all():
        connection.connection = None  # the parent's socket is the parent's: connect anew
        # as mahjong_site/asgi.py sets it (after the parent read the settings): each request
        # runs on a thread of its own, whose kept connection would only pile up
        connection.settings_dict["CONN_MAX_AGE"] = 0
    inprocess.run_beside_requests = lambda *args, **kwargs: None  # type: ignore[assignment]
    SyncToAsync.single_thread_executor = ThreadPoolExecutor(max_workers=1)
    sys.modules.pop("mahjong_site.asgi", None)
    return ASGIStaticFilesHandler(importlib.import_module("mahjong_site.asgi").application)


@pytest.fixture
def asgi_live_server(transactional_db: None, fixed_seed: None) -> Iterator[str]:
    """daphne serving the site (HTTP and the tables' WebSockets) on the test's database:
    what pytest-django's WSGI ``live_server`` can't (no WebSockets)."""
    yield from serve_under_daphne()


def serve_under_daphne() -> Iterator[str]:
    """The site's ASGI application under daphne until the caller is done: its address."""
    from daphne.testing import DaphneProcess

    server = DaphneProcess("127.0.0.1", _asgi_application)
    server.start()
    if not server.ready.wait(timeout=30):
        server.terminate()
        pytest.fail("daphne did not start")
    try:
        yield f"http://127.0.0.1:{server.port.value}"
    finally:
        server.terminate()
        server.join(timeout=10)


def _context(browser: Browser, url: str, width: int, chinese: bool = False) -> BrowserContext:
    context = browser.new_context(locale="zh-CN" if chinese else "en-US",
                                  viewport={"width": width, "height": 844 if width < 500 else 800})
    if chinese:
        context.add_cookies([{"name": "django_language", "value": "zh-hans", "url": url}])
    return context


def _join(page: Page, name: str) -> None:
    """Take a seat by the link's form; the waiting list is swapped in whenever someone else
    sits down (their socket's push), which may empty the form being filled: then again."""
    for _attempt in range(5):
        page.locator(".room-join input[name=name]").fill(name)
        page.locator(".room-join button[type=submit]").click()
        page.wait_for_load_state()
        try:
            expect(page.locator(".room-join")).to_have_count(0, timeout=3000)
            return
        except AssertionError:
            continue
    raise AssertionError(f"{name} could not take a seat")


def _create_room(page: Page, url: str, variant: str, humans: int) -> None:
    """Alice opens a one-hand room of ``variant`` for ``humans`` people (five minutes a
    decision) and sits in it."""
    page.goto(f"{url}/tables/new")
    page.select_option("#id_variant", variant)
    page.select_option("#id_humans", str(humans))
    page.fill("#id_hands", "1")
    page.fill("#id_decision_seconds", "300")
    page.fill("#id_name", "Alice")
    page.locator("form.table-new button[type=submit]").click()


def _choices(page: Page) -> list[str]:
    """The values of every choice on the page (tiles to discard and buttons)."""
    return [str(b.get_attribute("value"))
            for b in page.locator(".play-actions button[name=action]").all()]


def _choose(page: Page) -> None:
    """A win when offered, else the drawn tile (or the last tile), else the first button;
    then wait for the table to show the answer (htmx swaps it in: no page load)."""
    before = str(page.locator("#play-table").get_attribute("data-step"))
    buttons = page.locator(".play-actions .play-buttons button")
    wins = [b for b in buttons.all() if re.search(r'"(hu|win|self_draw)"',
                                                  str(b.get_attribute("value")))]
    tiles = page.locator(".play-actions .play-hand button.tile-button")
    if wins:
        wins[0].click()
    elif tiles.count():
        drawn = page.locator(".play-actions .play-hand button.is-drawn-button")
        (drawn.first if drawn.count() else tiles.last).click()
    else:
        buttons.first.click()
    expect(page.locator("#play-table")).not_to_have_attribute("data-step", before,
                                                              timeout=15_000)


@pytest.mark.browser
def test_it_lets_four_friends_play_a_sichuan_hand_and_one_come_back_to_a_claim(
        browser: Browser, asgi_live_server: str, artifacts: Path) -> None:
    url = asgi_live_server
    contexts = [_context(browser, url, 1280), _context(browser, url, 390),
                _context(browser, url, 390), _context(browser, url, 1280, chinese=True)]
    pages = [c.new_page() for c in contexts]
    try:
        alice = pages[0]
        _create_room(alice, url, "sichuan", humans=4)
        expect(alice.locator(".room-waiting")).to_be_visible()
        room = alice.url
        for page, name in zip(pages[1:], ("Bob", "Charlie", "Dora"), strict=True):
            page.goto(room)
            _join(page, name)
        names = ("Alice", "Bob", "Charlie", "Dora")
        expect(pages[3].locator(".room-status")).to_contain_text("局")  # dora reads Chinese
        state_url = room.rstrip("/") + "/state.json"
        came_back = False
        seen_kinds: set[str] = set()
        for _ in range(ROUNDS):
            state = contexts[0].request.get(state_url).json()
            if state["over"]:
                break
            asked = state["waiting_for"]
            assert asked, "someone is always asked at a table of four people"
            seat = asked[0]
            page = pages[seat]
            # Pushed by the socket: the page shows the step without being reloaded.
            expect(page.locator("#play-table")).to_have_attribute("data-step", str(state["step"]),
                                                             timeout=15_000)
            mine = contexts[seat].request.get(state_url).json()
            kind = mine["decision"]["kind"]
            seen_kinds.add(kind)
            expect(page.locator(".play-actions")).to_be_visible()
            if kind == "claim" and not came_back:
                # The claim window is open for this seat: the page goes, and comes back.
                prompt = page.locator(".play-prompt").inner_text()
                choices = _choices(page)
                assert any('"pass"' in c for c in choices)
                page.screenshot(path=str(artifacts / "tables-claim-before.png"))
                page.close()
                # The socket closed: the others see the player offline, pushed to them.
                other = pages[(seat + 1) % 4]
                expect(other.locator(".seat-head", has_text=names[seat])).to_contain_text(
                    re.compile("offline|离线"), timeout=15_000)
                page = pages[seat] = contexts[seat].new_page()
                page.goto(room)
                expect(page.locator(".play-prompt")).to_have_text(prompt)
                assert _choices(page) == choices
                again = contexts[seat].request.get(state_url).json()
                assert again["decision"]["opened"] == mine["decision"]["opened"]
                assert again["you"]["hand"] == mine["you"]["hand"]
                page.screenshot(path=str(artifacts / "tables-claim-after.png"))
                came_back = True
            _choose(page)
        else:
            raise AssertionError(f"the hand did not end within {ROUNDS} answers")
        assert came_back, "a claim window was opened to a person"
        assert {"dingque", "turn", "claim"} <= seen_kinds, seen_kinds
        for number, page in enumerate(pages):
            expect(page.locator(".play-end")).to_be_visible(timeout=15_000)  # pushed
            expect(page.locator(".seed")).to_have_text(SEED)
            page.screenshot(path=str(artifacts / f"tables-end-{number}.png"), full_page=True)
        assert pages[1].evaluate("document.documentElement.scrollWidth") <= 390
        expect(pages[3].locator(".play-end h2")).not_to_have_text("The match is over")
    finally:
        for context in contexts:
            context.close()


@pytest.mark.browser
def test_it_catches_up_a_page_that_lost_a_push_at_the_next_heartbeat(
        browser: Browser, asgi_live_server: str) -> None:
    """A push lost on the way (a proxy's hiccup, a busy layer) leaves a page behind until
    the heartbeat's answer, which carries the room's step, makes it fetch its view again."""
    url = asgi_live_server
    alice_context, bob_context = _context(browser, url, 1280), _context(browser, url, 390)
    try:
        alice, bob = alice_context.new_page(), bob_context.new_page()
        _create_room(alice, url, "jiaxing", humans=2)
        room = alice.url
        to_bob: list[Any] = []  # the page's end of each of bob's sockets: to speak as the server

        def lose_pushes(socket: Any) -> None:
            server = socket.connect_to_server()
            server.on_message(lambda text: None if '"type":"state"' in str(text).replace(
                " ", "") else socket.send(text))
            to_bob.append(socket)

        bob.route_web_socket(re.compile(r".*/ws$"), lose_pushes)
        bob.goto(room)
        _join(bob, "Bob")
        state_url = room.rstrip("/") + "/state.json"
        state = alice_context.request.get(state_url).json()
        expect(alice.locator("#play-table")).to_have_attribute("data-step", str(state["step"]),
                                                             timeout=15_000)
        bob.reload()  # the seated page (the join's own page load); its pushes are lost
        expect(bob.locator("#play-table")).to_have_attribute("data-step", str(state["step"]))
        while 0 not in state["waiting_for"]:
            _choose(bob)  # bob's own answers swap his page in, pushes or not
            state = alice_context.request.get(state_url).json()
        _choose(alice)
        state = alice_context.request.get(state_url).json()
        behind = int(str(bob.locator("#play-table").get_attribute("data-step")))
        assert behind < state["step"], "bob's page was not told of alice's move"

        to_bob[-1].send(json.dumps({"type": "heartbeat", "step": state["step"]}))

        expect(bob.locator("#play-table")).to_have_attribute("data-step", str(state["step"]),
                                                           timeout=15_000)
    finally:
        alice_context.close()
        bob_context.close()
