"""Browser tests of the daily puzzle: solving with the mouse and with the keyboard (htmx swaps
the feedback in, no reload), a wrong answer, a phone's width, and the form without JavaScript.

Run: DATABASE_URL=postgres://... .venv/bin/pytest tests/test_browser_puzzles.py
Screenshots land in test-artifacts/ (git-ignored): puzzle-{1280,390}-{before,after}.png.
"""

from __future__ import annotations

import datetime as dt
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
MONDAY = dt.date(2026, 11, 30)

# WhiteNoise looks for collected files (STATIC_ROOT) that tests do not need.
pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture
def site(live_server: Any, transactional_db: None, monkeypatch: pytest.MonkeyPatch) -> str:
    """The live server, its puzzle calendar pinned to MONDAY (the server thread shares the
    module); returns the base URL."""
    from replays.puzzles import services as puzzles

    monkeypatch.setattr(puzzles, "puzzle_day", lambda moment=None: MONDAY)
    return str(live_server.url)


def daily(variant: str) -> Any:
    from replays.puzzles import services as puzzles

    return puzzles.daily(variant, MONDAY).puzzle


def winning(puzzle: Any) -> list[str]:
    return [w["tile"] for w in puzzle.answer["waits"]]


def attempt_of(puzzle: Any) -> Any:
    from replays.models import Attempt

    return Attempt.objects.get(puzzle=puzzle)


def pick(page: Page, tile: str) -> Any:
    return page.locator(f'label.pick:has(input[value="{tile}"])')


def verdict(page: Page, kind: str) -> list[str]:
    """The tiles of the verdict's Right / Missed / Wrong line."""
    faces = page.locator(f"#answer .verdict-{kind} [data-tile]")
    return [faces.nth(i).get_attribute("data-tile") or "" for i in range(faces.count())]


def bonus_line(page: Page) -> Any:
    return page.locator("#answer .verdict div", has_text="Best wait").locator("dd")


def no_horizontal_scroll(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"horizontal scroll at {width}px: scrollWidth {scroll}"


def test_it_solves_the_jiaxing_daily_with_the_mouse(page: Page, site: str,
                                                    artifacts: Path) -> None:
    puzzle = daily("jiaxing")
    page.set_viewport_size({"width": 1280, "height": 900})
    url = f"{site}/puzzles/daily/?variant=jiaxing"
    page.goto(url)
    expect(page.locator("h1")).to_have_text("What wins here?")
    expect(page.locator("#puzzle")).to_have_attribute("data-puzzle", puzzle.public_id)
    expect(page.locator(".puzzle-meta")).to_contain_text("Daily puzzle of 2026-11-30")
    expect(page.locator(".waits-table")).to_have_count(0)
    page.screenshot(path=str(artifacts / "puzzle-1280-before.png"), full_page=True)

    for tile in winning(puzzle):
        pick(page, tile).click()
        expect(pick(page, tile).locator("input")).to_be_checked()
    # A misclick, taken back.
    stray = next(str(t) for t in _tiles() if str(t) not in winning(puzzle))
    pick(page, stray).click()
    pick(page, stray).click()
    expect(pick(page, stray).locator("input")).not_to_be_checked()
    page.select_option("#bonus", puzzle.answer["best"][0])
    page.screenshot(path=str(artifacts / "puzzle-1280-picked.png"))
    page.evaluate("window.__sameDocument = true")

    page.get_by_role("button", name="Check my answer").click()

    expect(page.locator("#answer h2")).to_have_text("Solved!")
    share = page.locator("#share-text")
    expect(share).to_be_visible()
    expect(share).to_have_value(
        re.compile(r"^What wins here\? Jiaxing 嘉兴 · 2026-11-30 \(easy\)"))
    assert page.evaluate("window.__sameDocument === true"), "the page was reloaded"
    # The daily address redirects to the puzzle's own (a reload shows it again), and the
    # answer swaps in without leaving it.
    expect(page).to_have_url(site + puzzle.get_absolute_url())
    expect(page.locator("#puzzle-form")).to_have_count(0)
    expect(page.locator("#answer .waits-table tbody tr")).to_have_count(len(winning(puzzle)))
    assert sorted(verdict(page, "right")) == sorted(winning(puzzle))
    expect(bonus_line(page)).to_have_text("✓ right")
    page.screenshot(path=str(artifacts / "puzzle-1280-after.png"), full_page=True)
    attempt = attempt_of(puzzle)
    assert attempt.solved and attempt.bonus_right and attempt.daily_day == MONDAY
    # The answer stays: a reload shows the feedback, not the form.
    page.reload()
    expect(page.locator("#answer h2")).to_have_text("Solved!")


def _tiles() -> Any:
    from games.core.tiles import TILES

    return TILES


def test_it_solves_the_sichuan_daily_with_the_keyboard_only(page: Page, site: str,
                                                            artifacts: Path) -> None:
    puzzle = daily("sichuan")
    page.goto(f"{site}/puzzles/daily/?variant=sichuan")
    boxes = page.locator("#puzzle-form input[name=tile]")
    expect(boxes.first).to_be_attached()
    count = boxes.count()
    assert count == 18, "Sichuan offers the two suits that are not void (SC-2)"
    for _ in range(80):  # Tab from the top of the page to the first tile
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.name") == "tile":
            break
    codes = [boxes.nth(i).get_attribute("value") for i in range(count)]
    # The 1 of the first suit offered (which suit is void depends on the day's puzzle).
    assert page.evaluate("document.activeElement.value") == codes[0]
    assert codes[0] in ("1m", "1p")
    wins = set(winning(puzzle))
    for code in codes:
        assert page.evaluate("document.activeElement.value") == code
        if code in wins:
            page.keyboard.press("Space")
            expect(page.locator(f'input[name=tile][value="{code}"]')).to_be_checked()
            if code == min(wins, key=codes.index):
                page.screenshot(path=str(artifacts / "puzzle-keyboard-focus.png"))
        page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "notation"
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.id") == "bonus"
    best = puzzle.answer["best"][0]
    for _ in range(40):
        if page.evaluate("document.activeElement.value") == best:
            break
        page.keyboard.press("ArrowDown")
    assert page.locator("#bonus").input_value() == best
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.type") == "submit"

    page.keyboard.press("Enter")

    expect(page.locator("#answer h2")).to_have_text("Solved!")
    expect(bonus_line(page)).to_have_text("✓ right")
    assert attempt_of(puzzle).solved


def test_a_wrong_typed_answer_shows_right_missed_and_wrong_tiles(page: Page, site: str,
                                                                 artifacts: Path) -> None:
    puzzle = daily("putian")
    tiles = winning(puzzle)
    assert len(tiles) >= 2
    extra = next(str(t) for t in _tiles() if str(t) not in tiles)
    page.goto(f"{site}/puzzles/daily/?variant=putian")
    page.locator("#notation").fill(f"{tiles[0]} {extra}")
    page.locator("#notation").press("Enter")  # submits the form

    expect(page.locator("#answer h2")).to_have_text("Not quite.")
    assert verdict(page, "right") == [tiles[0]]
    assert sorted(verdict(page, "missed")) == sorted(tiles[1:])
    assert verdict(page, "wrong") == [extra]
    expect(page.locator("#answer .waits-table tr.wait-missed")).to_have_count(len(tiles) - 1)
    expect(bonus_line(page)).to_have_text("not answered")
    page.screenshot(path=str(artifacts / "puzzle-1280-wrong.png"), full_page=True)
    assert not attempt_of(puzzle).solved


def test_a_refused_answer_shows_its_message_with_javascript(page: Page, site: str) -> None:
    daily("jiaxing")
    page.goto(f"{site}/puzzles/daily/?variant=jiaxing")
    page.locator("#notation").fill("3x")
    page.get_by_role("button", name="Check my answer").click()
    expect(page.locator("#answer .error")).to_contain_text("Can't read “3x” as tiles", timeout=1500)


def test_it_works_on_a_phone(browser: Browser, browser_context_args: dict[str, Any],
                             site: str, artifacts: Path) -> None:
    puzzle = daily("jiaxing")
    context = browser.new_context(**{**browser_context_args,
                                     "viewport": {"width": 390, "height": 844},
                                     "has_touch": True, "is_mobile": True})
    try:
        page = context.new_page()
        page.goto(f"{site}/puzzles/daily/?variant=jiaxing")
        expect(page.locator("#puzzle-form")).to_be_visible()
        no_horizontal_scroll(page, 390)
        page.screenshot(path=str(artifacts / "puzzle-390-before.png"), full_page=True)
        for tile in winning(puzzle):
            pick(page, tile).tap()
            expect(pick(page, tile).locator("input")).to_be_checked()
        page.select_option("#bonus", puzzle.answer["best"][0])
        page.get_by_role("button", name="Check my answer").tap()
        expect(page.locator("#answer h2")).to_have_text("Solved!")
        expect(page.locator("#share-text")).to_be_visible()
        no_horizontal_scroll(page, 390)
        page.screenshot(path=str(artifacts / "puzzle-390-after.png"), full_page=True)
    finally:
        context.close()


def test_the_form_works_without_javascript(browser: Browser,
                                           browser_context_args: dict[str, Any],
                                           site: str) -> None:
    puzzle = daily("jiaxing")
    context = browser.new_context(**{**browser_context_args, "java_script_enabled": False})
    try:
        page = context.new_page()
        page.goto(f"{site}/puzzles/daily/?variant=jiaxing")
        for tile in winning(puzzle):
            pick(page, tile).click()
        page.select_option("#bonus", puzzle.answer["best"][0])
        with page.expect_navigation():
            page.get_by_role("button", name="Check my answer").click()
        expect(page).to_have_url(f"{site}/puzzles/{puzzle.public_id}/#answer")
        expect(page.locator("#answer h2")).to_have_text("Solved!")
        expect(page.locator("#share-text")).to_be_visible()
        assert attempt_of(puzzle).solved

        # A refused answer is shown too (a full page with the message).
        page.goto(f"{site}/puzzles/daily/?variant=sichuan")
        page.locator("#notation").fill("3x")
        page.get_by_role("button", name="Check my answer").click()
        expect(page.locator("#answer .error")).to_contain_text("Can't read “3x” as tiles")
    finally:
        context.close()
