"""Browser test of /score/ on a phone (issue 30): a Sichuan hand tapped on the tile keyboard is
scored in place (htmx, the link pushed), and the page opens again offline once its service
worker is installed, saying it is offline.

Run: DATABASE_URL=postgres://... .venv/bin/pytest tests/test_browser_scorer.py
"""

from __future__ import annotations

import os
from typing import Any

import pytest

# The live server and the ORM are used from the test thread while Playwright's sync API runs
# an event loop in it; Django must not refuse that as "async-unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, expect  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

PHONE = {"width": 390, "height": 844}
HAND = ["1m", "1m", "1m", "2m", "2m", "2m", "3m", "3m", "3m", "4m", "5m", "6m", "9m", "9m"]


@pytest.fixture
def site(live_server: Any, transactional_db: None) -> str:
    return str(live_server.url)


def test_it_scores_a_tapped_sichuan_hand_and_opens_offline(browser: Browser, site: str) -> None:
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    page = context.new_page()
    page.goto(f"{site}/score/?v=sichuan")
    page.select_option("#scorer-void", "p")
    expect(page.locator("#scorer-void")).to_have_value("p")
    for count, code in enumerate(HAND, start=1):
        page.locator(f'button.scorer-key[value="{code}"]').tap()
        expect(page.locator(".scorer-count")).to_contain_text(f"{count} / 14 tiles")
    expect(page.locator(".scorer-total")).to_have_text("8 points (4 fan)")
    expect(page.locator(".pattern-list")).to_contain_text("SC-5.3")
    expect(page.locator(".scorer-payers")).to_contain_text("+24")
    assert "w=9m" in page.url and "h=11122233345699m" in page.url  # the link is the result

    # The service worker takes the page; loaded once more online, the result is kept.
    # Controlled by the worker (evaluate: the page's policy refuses wait_for_function's eval).
    page.evaluate("""() => navigator.serviceWorker.controller ? true : new Promise((done) =>
        navigator.serviceWorker.addEventListener("controllerchange", () => done(true)))""")
    page.reload()
    expect(page.locator(".scorer-total")).to_have_text("8 points (4 fan)")
    # Installable: Chromium finds nothing wrong but the test's private window.
    errors = context.new_cdp_session(page).send("Page.getInstallabilityErrors")
    assert {e["errorId"] for e in errors["installabilityErrors"]} <= {"in-incognito"}

    context.set_offline(True)
    page.reload()
    expect(page.locator(".scorer-total")).to_have_text("8 points (4 fan)")
    expect(page.locator("#scorer-offline")).to_be_visible()
    page.goto(f"{site}/score/?v=jiaxing")  # never fetched: the page itself, saying so
    expect(page.locator("h1")).to_have_text("Score this hand")
    expect(page.locator("#scorer-offline")).to_be_visible()
    context.close()


def test_it_keeps_every_tap_of_a_quick_thumb(browser: Browser, site: str) -> None:
    """Taps faster than the answers come are sent one after another, none lost."""
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    page = context.new_page()
    page.goto(f"{site}/score/?v=sichuan")
    page.evaluate("""codes => { for (const code of codes) document.querySelector(
        `button.scorer-key[value="${code}"]`).click(); }""", HAND[:7])
    expect(page.locator(".scorer-count")).to_contain_text("7 / 14 tiles")
    expect(page).to_have_url(f"{site}/score/?v=sichuan&h=1112223m&how=self_draw&seat=S")
    context.close()
