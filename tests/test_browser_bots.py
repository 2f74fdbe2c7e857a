"""The bots page and the level on the start form in a real browser (issue 26): the arena
tables fit a phone (390 px) and a laptop (1280 px) in English and Chinese; screenshots in
test-artifacts/ (git-ignored)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, expect  # noqa: E402

from games.bots import levels as engine_levels  # noqa: E402
from games.bots.basic import Bot  # noqa: E402
from games.bots.levels import LEVELS, Level  # noqa: E402
from tests.test_play_levels import LADDER  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


@pytest.fixture
def published(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A published ladder and a registered "strong" (the live server runs in this process)."""
    (tmp_path / "ladder.json").write_text(json.dumps(LADDER), encoding="utf-8")
    monkeypatch.setattr(engine_levels.resources, "files", lambda package: tmp_path)
    monkeypatch.setitem(LEVELS, "strong", Level("strong", "plays as basic", Bot))


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_bots_page_fits_a_phone_and_a_laptop(browser: Browser, live_server: Any,
                                                 transactional_db: None, artifacts: Path,
                                                 published: None, language: str) -> None:
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN")
    page = context.new_page()
    try:
        for width, height in ((1280, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{live_server.url}/bots/")
            expect(page.locator("html")).to_have_attribute("lang", language)
            expect(page.locator(".arena-table")).to_have_count(1)
            page.screenshot(path=str(artifacts / f"bots-{width}-{language}.png"),
                            full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


@pytest.mark.browser
def test_the_chosen_level_is_the_one_played(browser: Browser, live_server: Any,
                                            transactional_db: None, published: None) -> None:
    page = browser.new_page()
    try:
        page.goto(f"{live_server.url}/play/")
        expect(page.locator("#id_level")).to_have_value("normal")
        page.select_option("#id_level", "easy")
        page.fill("#id_hands", "1")
        page.locator(".play-start button[type=submit]").click()
        expect(page.locator(".play-level")).to_have_text("Bots' level: easy")
        page.locator(".play-level").click()
        expect(page.locator("#level-basic")).to_be_visible()
    finally:
        page.close()
