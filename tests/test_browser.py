"""Browser tests: upload, the step-through viewer (keys, htmx history, no-JS links), privacy
and screenshots, driven through Debian's Chromium against pytest-django's live server.

Run: DATABASE_URL=postgres://... .venv/bin/python -m pytest tests/test_browser.py -n 2
Screenshots land in test-artifacts/ (git-ignored).
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

# The live server and the ORM are used from the test thread while Playwright's sync API runs
# an event loop in it; Django must not refuse that as "async-unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "a-long-enough-secret-42"
LOCALE = "en-US"

# The match every test replays: 2 hands of Jiaxing played by bots (186 and 196 events, both
# ending on an exhausted wall); seed 12's first hand ends in a win (114 events), for the
# settlement with patterns.
VARIANT, HANDS, SEED, WIN_SEED = "jiaxing", 2, 5, 12

# WhiteNoise looks for collected files (STATIC_ROOT) that tests do not need.
pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def make_document(seed: int) -> bytes:
    from games.bots.simulation import simulate
    from games.records.log import dumps

    return dumps(simulate(VARIANT, HANDS, seed)).encode()


@pytest.fixture(scope="session")
def document() -> bytes:
    return make_document(SEED)


@pytest.fixture
def document_file(document: bytes, tmp_path: Path) -> Path:
    path = tmp_path / "bots-jiaxing.json"
    path.write_bytes(document)
    return path


@pytest.fixture
def viewer_url(live_server: Any, transactional_db: None, document: bytes) -> str:
    """A public match stored directly; the viewer's address on the live server."""
    from replays.matches.services import store_document

    match = store_document(document, title="Browser test match")
    return f"{live_server.url}{match.get_absolute_url()}"


def steps_in(hand: int, document: bytes) -> int:
    from games.records.log import loads

    return len(loads(document.decode()).hands[hand - 1].events)


def counter(page: Page) -> Any:
    return page.locator(".step-counter")


def expect_at(page: Page, hand: int, step: int, steps: int) -> None:
    """The counter and the address (pushed by htmx or loaded) both name hand and step."""
    expect(counter(page)).to_have_text(f"Hand {hand}/{HANDS} · step {step}/{steps}")
    expect(page).to_have_url(re.compile(rf"[?&]hand={hand}&step={step}(&|$)"))


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page.locator(".site-nav")).to_contain_text(f"Log out {username}")


@pytest.mark.browser
def test_it_uploads_a_log_and_opens_the_replay(
        page: Page, live_server: Any, transactional_db: None, document_file: Path) -> None:
    from replays.models import Match

    page.goto(f"{live_server.url}/upload/")
    page.set_input_files("input[type=file][name=files]", str(document_file))
    page.locator("form.upload-form button[type=submit]").click()

    result = page.locator("#upload-results li.ok")
    expect(result).to_contain_text(document_file.name)
    expect(result).to_contain_text("stored")
    match = Match.objects.get()
    assert match.hand_count == HANDS and match.variant == VARIANT

    result.get_by_role("link", name="open the replay").click()
    expect(page).to_have_url(f"{live_server.url}/replays/{match.public_id}/")
    expect(page.locator("h1.viewer-title")).to_have_text(str(match))
    expect(counter(page)).to_contain_text(f"Hand 1/{HANDS} · step 0/")


@pytest.mark.browser
def test_it_steps_through_with_keys_and_buttons(
        page: Page, viewer_url: str, document: bytes) -> None:
    first, second = steps_in(1, document), steps_in(2, document)
    page.goto(viewer_url)
    expect(counter(page)).to_have_text(f"Hand 1/{HANDS} · step 0/{first}")

    for step in (1, 2, 3):  # each swap lands before the next key follows the new link
        page.keyboard.press("ArrowRight")
        expect_at(page, 1, step, first)
    expect(page.locator("#board .event-line")).not_to_have_text("The deal")

    page.locator(".controls").get_by_role("link", name="Next →").click()
    expect_at(page, 1, 4, first)
    page.keyboard.press("ArrowLeft")
    expect_at(page, 1, 3, first)

    page.keyboard.press("End")
    expect_at(page, 1, first, first)
    expect(page.locator(".settlement")).to_be_visible()
    expect(page.locator(".settlement h2")).to_have_text("Settlement")
    expect(page.locator(".controls a[data-key=ArrowRight]")).to_have_count(0)

    page.keyboard.press("Home")
    expect_at(page, 1, 0, first)
    expect(page.locator(".settlement")).to_have_count(0)

    page.keyboard.press("]")
    expect_at(page, 2, 0, second)
    page.keyboard.press("[")
    expect_at(page, 1, 0, first)


@pytest.mark.browser
def test_it_keeps_a_key_pressed_while_a_step_settles(
        page: Page, viewer_url: str, document: bytes) -> None:
    """Issue 32: a key pressed between a step's swap and its settle was dropped (the focus was
    on the page's body until the settle gave it back). A slow settle makes the gap wide."""
    steps = steps_in(1, document)
    page.goto(viewer_url)
    page.evaluate("htmx.config.defaultSettleDelay = 1500")
    page.locator(".controls").get_by_role("link", name="Next →").click()
    expect(counter(page)).to_have_text(f"Hand 1/{HANDS} · step 1/{steps}")
    page.keyboard.press("End")  # at once: the swap is in, its settle 1.5 s away
    expect_at(page, 1, steps, steps)


@pytest.mark.browser
def test_it_goes_back_to_the_previous_hand_not_the_previous_step(
        page: Page, viewer_url: str, document: bytes) -> None:
    """Steps replace the history entry, hands push one: Back leaves a hand where it was left
    instead of walking back through its steps."""
    steps = steps_in(1, document)
    page.goto(viewer_url)
    for step in (1, 2):
        page.keyboard.press("ArrowRight")
        expect_at(page, 1, step, steps)
    page.keyboard.press("]")
    expect_at(page, 2, 0, steps_in(2, document))

    page.go_back()
    expect_at(page, 1, 2, steps)
    page.go_forward()
    expect_at(page, 2, 0, steps_in(2, document))
    page.go_back()
    expect_at(page, 1, 2, steps)
    # After the restores the page is whole and the keys still step.
    expect(page.locator(".site-header")).to_have_count(1)
    page.keyboard.press("ArrowRight")
    expect_at(page, 1, 3, steps)


@pytest.mark.browser
def test_it_navigates_with_plain_links_without_javascript(
        browser: Browser, viewer_url: str, document: bytes) -> None:
    steps = steps_in(1, document)
    context = browser.new_context(java_script_enabled=False, locale=LOCALE)
    try:
        page = context.new_page()
        page.goto(viewer_url)
        expect(counter(page)).to_have_text(f"Hand 1/{HANDS} · step 0/{steps}")
        with page.expect_navigation():  # a full page load, not an htmx swap
            page.locator(".controls a[data-key=ArrowRight]").click()
        expect_at(page, 1, 1, steps)
        expect(page.locator(".site-header")).to_have_count(1)
        with page.expect_navigation():
            page.locator(".controls a[data-key=']']").click()
        expect_at(page, 2, 0, steps_in(2, document))
    finally:
        context.close()


@pytest.mark.browser
def test_it_hides_a_private_replay_from_other_users(
        browser: Browser, live_server: Any, transactional_db: None, document: bytes) -> None:
    from django.contrib.auth import get_user_model

    from replays.matches.services import store_document

    users = get_user_model().objects
    alice = users.create_user("alice", password=PASSWORD)
    users.create_user("bob", password=PASSWORD)
    match = store_document(document, owner=alice, visibility="private", title="Alice's secret")
    url = f"{live_server.url}{match.get_absolute_url()}"

    for username, status in (("bob", 404), ("alice", 200)):
        context = browser.new_context(locale=LOCALE)
        try:
            page = context.new_page()
            log_in(page, live_server.url, username)
            response = page.goto(url)
            assert response is not None and response.status == status, username
            if status == 404:
                expect(page.locator("h1")).to_have_text("Page not found")
                expect(page.locator("body")).not_to_contain_text("Alice's secret")
            else:
                expect(page.locator("h1.viewer-title")).to_have_text("Alice's secret")
                expect(counter(page)).to_contain_text("step 0/")
        finally:
            context.close()


@pytest.mark.browser
def test_it_renders_the_viewer_at_desktop_and_phone_widths(
        page: Page, live_server: Any, viewer_url: str, document: bytes, artifacts: Path) -> None:
    steps = steps_in(1, document)
    middle = steps // 2

    def no_horizontal_scroll(width: int) -> None:
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width + 1, f"horizontal scroll at {width}px: scrollWidth {scroll}"

    page.set_viewport_size({"width": 1280, "height": 900})
    page.goto(f"{viewer_url}?hand=1&step={middle}")
    expect_at(page, 1, middle, steps)
    page.screenshot(path=str(artifacts / "viewer-1280.png"), full_page=True)

    page.set_viewport_size({"width": 390, "height": 844})
    expect(counter(page)).to_be_visible()
    page.screenshot(path=str(artifacts / "viewer-390.png"), full_page=True)
    no_horizontal_scroll(390)

    page.goto(f"{viewer_url}?hand=1&step={steps}")
    expect(page.locator(".settlement")).to_contain_text("Nobody won this hand.")
    page.screenshot(path=str(artifacts / "viewer-390-settlement.png"), full_page=True)
    no_horizontal_scroll(390)

    from replays.matches.services import store_document

    won = make_document(WIN_SEED)
    match = store_document(won, title="Browser test win")
    steps = steps_in(1, won)
    page.goto(f"{live_server.url}{match.get_absolute_url()}?hand=1&step={steps}")
    expect(page.locator(".settlement .win .pattern").first).to_be_visible()
    page.screenshot(path=str(artifacts / "viewer-390-settlement-win.png"), full_page=True)
    no_horizontal_scroll(390)

