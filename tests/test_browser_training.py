"""Browser tests of training (issue 18): every mode on a phone (390 px) in English and
Chinese — the daily, the rated stream, a streak to its first miss, a timed run, retrying
a miss — with htmx swapping answers in, and the hub and a run at 1280 px.

Screenshots land in test-artifacts/: training-{hub,rated,streak,timed,retry}-{en,zh}-390.png
and training-{hub,run}-en-1280.png.
"""

from __future__ import annotations

import datetime as dt
import os
import re
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

MONDAY = dt.date(2026, 11, 30)
pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

WORDS = {
    "en": {"solved": "Solved!", "wrong": "Not quite.", "next": "Next puzzle",
           "over": "Streak over: 1 puzzle solved.", "check": "Check my answer",
           "streak": "Start a streak", "clock": "Start the clock", "misses": "My misses"},
    "zh": {"solved": "答对了！", "wrong": "差一点。", "next": "下一题",
           "over": "连胜结束：答对 1 题。", "check": "提交答案",
           "streak": "开始连胜", "clock": "开始计时", "misses": "我答错的题"},
}


@pytest.fixture
def site(live_server: Any, transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> str:
    from replays.puzzles import services as puzzles

    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: MONDAY)
    return str(live_server.url)


def phone(browser: Browser, language: str, width: int = 390) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 844},
                                  extra_http_headers={"Accept-Language": "zh-hans" if
                                                      language == "zh" else "en"})
    return context.new_page()


def shown_puzzle(page: Page) -> Any:
    from replays.models import Puzzle

    found = page.locator("[data-puzzle]").first.get_attribute("data-puzzle")
    assert found
    return Puzzle.objects.get(public_id=found)


def answer(page: Page, right: bool, words: dict[str, str]) -> None:
    puzzle = shown_puzzle(page)
    wins = [w["tile"] for w in puzzle.answer["waits"]]
    tiles = wins if right else [next(v for v in page.locator(".pick input").evaluate_all(
        "els => els.map(e => e.value)") if v not in wins)]
    for tile in tiles:
        page.locator(f'label.pick:has(input[value="{tile}"])').click()
    page.get_by_role("button", name=words["check"]).click()


def no_horizontal_scroll(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"horizontal scroll at {width}px: scrollWidth {scroll}"


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_mode_works_on_a_phone(browser: Browser, site: str, artifacts: Path,
                                     language: str) -> None:
    words = WORDS[language]
    page = phone(browser, language)
    shot = lambda name: page.screenshot(  # noqa: E731
        path=str(artifacts / f"training-{name}-{language}-390.png"), full_page=True)
    # The hub.
    page.goto(f"{site}/puzzles/train/?variant=sichuan")
    no_horizontal_scroll(page, 390)
    shot("hub")
    # The daily puzzle, from the hub.
    page.locator(".mode-card").first.get_by_role("link").click()
    answer(page, True, words)
    expect(page.locator("#answer h2")).to_have_text(words["solved"])
    # The rated stream: answer, then the next puzzle.
    page.goto(f"{site}/puzzles/train/rated/?variant=jiaxing")
    first = shown_puzzle(page)
    answer(page, False, words)
    expect(page.locator("#answer h2")).to_have_text(words["wrong"])
    no_horizontal_scroll(page, 390)
    shot("rated")
    page.get_by_role("link", name=words["next"]).click()
    assert shown_puzzle(page) != first
    # A streak: one solved, then a miss ends it.
    page.goto(f"{site}/puzzles/train/")
    page.get_by_role("button", name=words["streak"]).click()
    answer(page, True, words)
    expect(page.locator(".run-solved")).to_have_text("1")
    answer(page, False, words)
    expect(page.locator(".run-over h1")).to_have_text(words["over"])
    no_horizontal_scroll(page, 390)
    shot("streak")
    # A timed run: the clock counts down, a solve counts.
    page.goto(f"{site}/puzzles/train/")
    page.get_by_role("button", name=words["clock"]).click()
    expect(page.locator(".run-clock")).to_have_text(re.compile(r"^2:5\d$"))
    answer(page, True, words)
    expect(page.locator(".run-solved")).to_have_text("1")
    no_horizontal_scroll(page, 390)
    shot("timed")
    # Retry the misses: the rated miss and the streak's miss are listed.
    page.goto(f"{site}/puzzles/train/")
    page.get_by_role("link", name=words["misses"]).click()
    expect(page.locator(".missed-list li a")).to_have_count(2)
    page.locator(".missed-list li a").first.click()
    answer(page, True, words)
    expect(page.locator("#answer h2")).to_have_text(words["solved"])
    no_horizontal_scroll(page, 390)
    shot("retry")
    page.context.close()


def test_the_hub_and_a_run_at_desktop_width(browser: Browser, site: str,
                                            artifacts: Path) -> None:
    page = phone(browser, "en", 1280)
    page.goto(f"{site}/puzzles/train/")
    page.screenshot(path=str(artifacts / "training-hub-en-1280.png"), full_page=True)
    page.get_by_role("button", name="Start the clock").click()
    answer(page, True, WORDS["en"])
    expect(page.locator(".run-solved")).to_have_text("1")
    no_horizontal_scroll(page, 1280)
    page.screenshot(path=str(artifacts / "training-run-en-1280.png"), full_page=True)
    page.context.close()


@pytest.mark.parametrize("language", ["en", "zh"])
def test_rated_answers_chart_the_rating_on_the_progress_page(
        browser: Browser, site: str, artifacts: Path, alice: Any, language: str) -> None:
    from replays.models import PlayerRating, RatingChange

    from .conftest import PASSWORD, with_password

    with_password(alice)
    words = WORDS[language]
    page = phone(browser, language)
    page.goto(f"{site}/accounts/login/")
    page.locator("#id_username").fill("alice")
    page.locator("#id_password").fill(PASSWORD)
    page.locator("main button[type=submit]").click()
    expect(page).not_to_have_url(re.compile(r"/accounts/login/"))
    for right in (True, False, True):
        page.goto(f"{site}/puzzles/train/rated/?variant=sichuan")
        answer(page, right, words)
        expect(page.locator(".rating-change")).to_be_visible()
    assert RatingChange.objects.filter(user=alice).count() == 3
    page.goto(f"{site}/puzzles/me/")
    rating = round(PlayerRating.objects.get(user=alice).rating)
    expect(page.locator(".rating-value")).to_contain_text(str(rating))
    expect(page.locator(".rating-chart .chart-dot")).to_have_count(4)
    no_horizontal_scroll(page, 390)
    page.screenshot(path=str(artifacts / f"training-progress-{language}-390.png"),
                    full_page=True)
    page.context.close()
