"""Accessibility in a real browser (issue 32, docs/accessibility.md, "Announcements, focus
and keys"): the table's live region says every bot move and every decision, in English and
in Chinese; a match, a claim, a discard, leaving, the replay and a puzzle with the keyboard
only (Tab, Enter, Space, arrows and the table's own keys, never the mouse); the single-key
shortcuts act only while the table has the focus and can be turned off; what a screen
reader is given (the aria snapshot) at 390 and 1280 px in both languages, saved with
screenshots in test-artifacts/ (git-ignored)."""

from __future__ import annotations

import datetime as dt
import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402
from playwright.sync_api import Error as PlaywrightError  # noqa: E402

from .conftest import bot_document  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

DECISION = 60_000  # ms: the bots answer within the request, slowly on a loaded machine
MONDAY = dt.date(2026, 11, 30)
FOCUSED = "document.activeElement && document.activeElement.matches(%s)"


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """The same deals on every run (the live server runs in this process)."""
    counter = iter(range(1000))
    monkeypatch.setattr("replays.play.services.new_seed",
                        lambda: f"a11y-{request.node.name}-{next(counter)}")


@pytest.fixture
def site(live_server: Any, transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> str:
    from replays.puzzles import services as puzzles

    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: MONDAY)
    return str(live_server.url)


def focused(page: Page, selector: str) -> bool:
    try:
        return bool(page.evaluate(FOCUSED % json.dumps(selector)))
    except PlaywrightError:  # a page on its way (a form posted, a redirect)
        page.wait_for_load_state()
        return False


def tab_to(page: Page, selector: str, limit: int = 150, key: str = "Tab") -> None:
    """Tab (or Shift+Tab) until the focus is on ``selector``: the keyboard only."""
    for _ in range(limit):
        if focused(page, selector):
            return
        page.keyboard.press(key)
    raise AssertionError(f"{selector} not reached with {key}")


def news(page: Page) -> str:
    """What the table's live region should say now: its moves and question, from the
    table's data-announce (what the server sent)."""
    data = json.loads(page.locator("#play-table").get_attribute("data-announce") or "{}")
    lines = [*data["moves"], *([data["now"]] if data["now"] else [])]
    return str(data["sep"]).join(lines)


def step(page: Page) -> str:
    return str(page.locator("#play-table").get_attribute("data-step"))


def answered(page: Page, before: str) -> None:
    expect(page.locator("#play-table")).not_to_have_attribute("data-step", before,
                                                              timeout=DECISION)


def start_with_mouse(page: Page, url: str, seat: str = "2", speed: str = "0") -> None:
    page.goto(f"{url}/play/")
    page.select_option("#id_variant", "jiaxing")
    page.select_option("#id_seat", seat)
    page.fill("#id_hands", "1")
    page.select_option("#id_speed", speed)
    page.locator(".play-start button[type=submit]").click()
    expect(page.locator("#play-table")).to_be_visible()


def check_announced(page: Page) -> str:
    """The live region says the table's news: every move of the list, then the question."""
    expected = news(page)
    moves = page.locator(".play-moves li")
    said = page.locator("#announcer")
    expect(said).to_have_text(expected)
    for i in range(moves.count()):
        assert moves.nth(i).inner_text() in expected
    assert page.locator("#play-table #announcer").count() == 0  # outside the swapped part
    return expected


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_announces_every_bot_move_and_every_decision(browser: Browser, live_server: Any,
                                                        transactional_db: None,
                                                        language: str) -> None:
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN")
    page = context.new_page()
    try:
        start_with_mouse(page, live_server.url)
        said = [check_announced(page)]
        for _ in range(6):
            if page.locator(".play-end").count():
                break
            before = step(page)
            buttons = page.locator(".play-actions .play-buttons button")
            tiles = page.locator(".play-hand button.tile-button")
            (tiles.last if tiles.count() else buttons.last).click()  # discard, or pass
            answered(page, before)
            said.append(check_announced(page))
        assert len(said) >= 4
        moves = [json.loads(page.locator("#play-table").get_attribute("data-announce") or "")]
        if language == "en":
            assert any(" discards " in s for s in said), said
            assert any(s.split(". ")[-1].startswith(("Your turn: ", "The match is over"))
                       or s.endswith("pass?") for s in said), said
        else:
            assert any("打出" in s for s in said), said
            assert all("discards" not in s and "Your turn" not in s for s in said), said
            assert moves[0]["sep"] == "。"
    finally:
        context.close()


def test_it_plays_a_match_a_claim_the_replay_and_a_puzzle_with_the_keyboard_only(
        page: Page, site: str, alice: Any) -> None:
    from django.test import Client

    client = Client()
    client.force_login(alice)  # signed in, to keep the match left and step through it
    page.context.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                               "url": site}])
    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{site}/play/")
    tab_to(page, ".play-start button[type=submit]")
    page.keyboard.press("Enter")
    expect(page.locator("#play-table")).to_be_visible()

    claims = discards = 0
    for _ in range(80):  # until a claim has been passed and a tile discarded by a key
        if claims and discards >= 2:
            break
        if page.locator(".play-end").count():
            raise AssertionError("the match ended before a claim")
        page.wait_for_function(
            "document.activeElement && document.activeElement.closest('.play-actions')",
            timeout=DECISION)  # the new decision took the focus to its first choice
        before = step(page)
        if page.locator(".play-hand button.tile-button").count():
            assert focused(page, ".play-hand button.tile-button")
            page.keyboard.press("ArrowLeft")  # the drawn tile, at the hand's end
            if discards % 2:
                page.keyboard.press("Enter")
            else:
                page.keyboard.press(str(min(9, page.locator(
                    ".play-hand button.tile-button").count())))  # the digit shortcut
            discards += 1
        else:
            assert focused(page, ".play-buttons button")  # not 14 Tabs away any more
            tab_to(page, ".play-buttons button:last-child")  # Pass
            page.keyboard.press("Space")
            claims += 1
        answered(page, before)
    assert claims and discards >= 2

    # Shortcuts act only while the table has the focus: a digit from the page's header
    # discards nothing; turned off, they do nothing in the table either.
    before = step(page)
    tab_to(page, ".site-name", key="Shift+Tab")
    page.keyboard.press("1")
    page.wait_for_timeout(300)
    assert step(page) == before

    tab_to(page, ".play-leave-link a")
    page.keyboard.press("Enter")
    tab_to(page, "form button[type=submit].danger, form button[type=submit].primary")
    page.keyboard.press("Enter")
    expect(page.locator(".play-end")).to_be_visible(timeout=DECISION)
    tab_to(page, ".play-keep button[type=submit]")
    page.keyboard.press("Enter")
    review = page.locator("a.review-link")
    expect(review).to_be_visible(timeout=DECISION)
    tab_to(page, "a.review-link")
    page.keyboard.press("Enter")

    expect(page.locator("#board")).to_be_focused()  # the step keys act from the start
    counter = page.locator(".controls .step-counter")
    first = counter.inner_text()
    page.keyboard.press("ArrowRight")
    expect(counter).not_to_have_text(first)
    expect(page.locator("#announcer")).to_have_text(
        page.locator("#board .event-line").inner_text())
    tab_to(page, ".controls a[data-key=ArrowRight]")
    for _ in range(2):
        now = counter.inner_text()
        page.keyboard.press("Enter")
        expect(counter).not_to_have_text(now)
        expect(page.locator(".controls a[data-key=ArrowRight]")).to_be_focused()
    expect(page.locator("#announcer")).to_have_text(
        page.locator("#board .event-line").inner_text())

    from replays.puzzles import services as puzzles

    puzzle = puzzles.daily("jiaxing", MONDAY).puzzle
    winning = {w["tile"] for w in puzzle.answer["waits"]}
    page.goto(f"{site}/puzzles/daily/?variant=jiaxing")
    boxes = page.locator(".tile-picker input[type=checkbox]")
    tab_to(page, ".tile-picker input[type=checkbox]")
    for _ in range(boxes.count()):
        value = page.evaluate("document.activeElement.value")
        if value in winning:
            page.keyboard.press("Space")
        page.keyboard.press("Tab")
    tab_to(page, ".puzzle-form button[type=submit]")
    page.keyboard.press("Enter")
    verdict = page.locator("#answer h2")
    expect(verdict).to_be_focused()
    expect(verdict).to_have_text("Solved!")
    expect(page.locator("#announcer")).to_contain_text("Solved!")


def test_the_switch_turns_the_shortcuts_off_and_is_remembered(page: Page, live_server: Any,
                                                             transactional_db: None) -> None:
    start_with_mouse(page, live_server.url, seat="0")
    switch = page.locator(".shortcuts-switch input")
    expect(switch).to_be_visible()
    expect(switch).to_be_checked()
    switch.uncheck()
    page.reload()
    expect(page.locator(".shortcuts-switch input")).not_to_be_checked()
    tiles = page.locator(".play-hand button.tile-button")
    expect(tiles.first).to_be_visible()
    tiles.first.focus()
    before = step(page)
    page.keyboard.press("1")
    page.wait_for_timeout(300)
    assert step(page) == before
    page.keyboard.press("Enter")  # the button itself still works
    answered(page, before)


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_records_what_a_screen_reader_is_given(browser: Browser, live_server: Any,
                                                  transactional_db: None, artifacts: Path,
                                                  language: str) -> None:
    """The table's and the viewer's aria snapshots and screenshots at 390 and 1280 px: the
    tiles named with their states, whose turn it is in words, the live region's text."""
    from replays.matches.services import store_document

    document = bot_document(7, variant="putian", hands=1)
    match = store_document(document, title="Aria")
    events = json.loads(document)["hands"][0]["events"]
    discard = next(i for i, e in enumerate(events) if i > 8 and e["type"] == "discard")
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN")
    page = context.new_page()
    try:
        start_with_mouse(page, live_server.url, seat="2")
        expect(page.locator("#announcer")).not_to_be_empty()
        for width, height in ((1280, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            snapshot = page.locator("main").aria_snapshot()
            (artifacts / f"a11y-play-{width}-{language}.txt").write_text(snapshot)
            page.screenshot(path=str(artifacts / f"a11y-play-{width}-{language}.png"),
                            full_page=True)
            turn = "to play" if language == "en" else "轮到此家"
            assert turn in snapshot
            assert "★" not in snapshot
        page.goto(f"{live_server.url}{match.get_absolute_url()}?hand=1&step={discard + 1}")
        for width, height in ((1280, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            snapshot = page.locator("main").aria_snapshot()
            (artifacts / f"a11y-viewer-{width}-{language}.txt").write_text(snapshot)
            page.screenshot(path=str(artifacts / f"a11y-viewer-{width}-{language}.png"),
                            full_page=True)
            last = "last discard" if language == "en" else "最后打出"
            wild = "wildcard" if language == "en" else "万能牌"
            assert last in snapshot and wild in snapshot
    finally:
        context.close()
