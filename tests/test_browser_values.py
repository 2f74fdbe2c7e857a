"""The values in Chromium (issue 17): the viewer's panel with win chances, expected points,
bars and severities at 1280 and 390 px in English and Chinese, and the trends page; no
horizontal scroll. Screenshots go to test-artifacts/ (values-*.png)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Page, expect  # noqa: E402

from .conftest import bot_document  # noqa: E402

PASSWORD = "a-long-enough-secret-42"
pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def valued(live_server: Any, transactional_db: None, django_user_model: Any,
           values_priced_once: None) -> tuple[str, int]:
    """Alice's 2-hand Sichuan match valued for her seat; the URL of its first step with a
    mistake in value (else its first valued step). Both tests value it the same way: the
    engine's work is done once per process."""
    from django.db import transaction
    from django.test.utils import override_settings

    from replays.matches.services import store_document
    from replays.models import HandValues, Match

    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    with override_settings(VALUES_AFTER_ANNOTATION=True, VALUES_SOLO_SAMPLES=60,
                           VALUES_TABLE_SAMPLES=8), transaction.atomic():
        match = store_document(bot_document(41, variant="sichuan", hands=2), owner=alice,
                               uploader_seat=0)
    match.refresh_from_db()
    assert match.values_status == Match.Status.DONE, match.values_error
    rows = list(HandValues.objects.filter(hand__match=match).order_by("hand__number"))
    found = [(r.hand.number, d) for r in rows for d in r.data]
    hand, decision = next(((h, d) for h, d in found if d["mistake"]), found[0])
    return (f"{live_server.url}{match.get_absolute_url()}?hand={hand}"
            f"&step={decision['event'] - 1}&seat=0", len(decision["alternatives"]))


def _no_horizontal_scroll(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width + 1, f"horizontal scroll at {width}px: scrollWidth {scroll}"


def test_it_shows_values_at_desktop_and_phone_widths_in_both_languages(
        browser: Any, valued: tuple[str, int], live_server: Any, artifacts: Path) -> None:
    url, alternatives = valued
    for language, header in (("en", "Win chance"), ("zh-hans", "胜率")):
        context = browser.new_context(locale="en-US" if language == "en" else "zh-CN")
        page = context.new_page()
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(url)
            panel = page.locator(".analysis-panel")
            expect(panel.locator(".alt-win").first).to_be_visible()
            assert panel.locator("td.alt-value").count() >= alternatives
            assert panel.locator(".best-value").count() >= 1
            if width == 1280:
                expect(panel.locator("th", has_text=header).first).to_be_visible()
            panel.scroll_into_view_if_needed()
            page.screenshot(path=str(artifacts / f"values-{language}-{width}.png"),
                            full_page=True)
            _no_horizontal_scroll(page, width)
        context.close()


def test_it_shows_the_trends_page(browser: Any, valued: tuple[str, int], live_server: Any,
                                  artifacts: Path) -> None:
    page: Page = browser.new_context(locale="zh-CN").new_page()
    page.goto(f"{live_server.url}/accounts/login/")
    page.fill("#id_username", "alice")
    page.fill("#id_password", PASSWORD)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_load_state()
    for language, width in (("zh-hans", 1280), ("zh-hans", 390)):
        page.set_viewport_size({"width": width, "height": 800})
        page.goto(f"{live_server.url}/me/trends/")
        expect(page.locator("table.trends tbody tr")).to_have_count(1)
        page.screenshot(path=str(artifacts / f"values-trends-{language}-{width}.png"),
                        full_page=True)
        _no_horizontal_scroll(page, width)
