"""The one-player table, phone first (issue 28): at 390×844 and at 1280×800, in English and
Chinese, your hand and your choices are in the window without scrolling at 定缺 (SC-2), at a
discard and at a claim prompt that names the tile and the discarder; a bot's win in the
middle of a Sichuan hand is told with its winner, tile and points. Screenshots of each go to
test-artifacts/ (git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from tests.test_browser_play import (  # noqa: E402
    await_decision,
    choose_and_wait,
    choose_with_mouse,
    start,
)

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")

# A Sichuan deal (seat 0, the mouse's choices of tests.test_browser_play, normal bots): 定缺
# first, then a pung offered within a few decisions and a win in the middle of the hand.
SEED = "tablepage-sichuan-0"
DECISIONS = 30


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("replays.play.services.new_seed", lambda: SEED)


def on_screen(page: Page, height: int) -> None:
    """Every tile of the hand and every choice button lies inside the window."""
    hand = page.locator(".play-hand .tile-button")
    assert hand.count() >= 1  # fewer than 13 beside melds
    for locator in (hand, page.locator(".play-buttons button")):
        for box in [item.bounding_box() for item in locator.all()]:
            assert box is not None
            assert 0 <= box["y"] and box["y"] + box["height"] <= height, box
    assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]


def shoot(page: Page, artifacts: Path, name: str, top: bool = True) -> None:
    """The first screen as it loads (from the top unless ``top`` is False: as the page
    scrolled itself), then the whole page."""
    if top:
        page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(artifacts / f"{name}.png"))
    page.screenshot(path=str(artifacts / f"{name}-full.png"), full_page=True)


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_it_keeps_your_hand_and_choices_on_the_first_screen(
        browser: Browser, live_server: Any, transactional_db: None, artifacts: Path,
        language: str, width: int, height: int) -> None:
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN",
                                  viewport={"width": width, "height": height})
    page = context.new_page()
    tag = f"{width}-{language}"
    try:
        start(page, live_server.url, "sichuan")
        assert await_decision(page)
        # 定缺 (SC-2): you are asked, so your seat is the one framed, not the dealer's.
        expect(page.locator(".seat.is-turn")).to_have_count(1)
        expect(page.locator(".seat.is-viewer")).to_have_class(
            __import__("re").compile(r"\bis-turn\b"))
        on_screen(page, height)
        shoot(page, artifacts, f"table-dingque-{tag}")
        seen = {"discard": False, "claim": False, "win": False}
        for _ in range(DECISIONS):
            if not await_decision(page):
                break
            if page.locator(".play-moves li.is-win").count() and not seen["win"]:
                seen["win"] = True
                win = page.locator(".play-moves li.is-win").first.inner_text()
                assert ("point" in win) if language == "en" else ("分" in win), win
                shoot(page, artifacts, f"table-win-{tag}")
            if page.locator(".claim-text").count() and not seen["claim"]:
                seen["claim"] = True
                prompt = page.locator(".claim-text").inner_text()
                seat = page.locator("#board").get_attribute("data-claim-seat")
                name = page.locator(f".seat.seat-{seat} .seat-name").inner_text()
                assert name in prompt, prompt
                assert ("discards" in prompt) if language == "en" else ("打出" in prompt)
                tile = page.locator(f".seat-river[data-seat='{seat}'] .tile.is-last")
                expect(tile).to_be_visible()
                on_screen(page, height)
                # The page brings the tile above your hand, where you can see it.
                box, bar = tile.bounding_box(), page.locator(".play-actions").bounding_box()
                assert box is not None and bar is not None
                assert 0 <= box["y"] and box["y"] + box["height"] <= bar["y"], (box, bar)
                shoot(page, artifacts, f"table-claim-{tag}", top=False)
            elif (page.locator(".play-hand button.tile-button").count()
                  and not seen["discard"]):
                seen["discard"] = True
                on_screen(page, height)
                shoot(page, artifacts, f"table-discard-{tag}")
            if all(seen.values()):
                break
            choose_and_wait(page, choose_with_mouse)
        assert seen == {"discard": True, "claim": True, "win": True}, seen
        keys = page.locator(".play-keys")
        if seen["discard"] and keys.count():
            # Headless Chromium has a mouse: the keys show at 1280 px, never on a phone.
            assert keys.is_visible() == (width >= 700)
    finally:
        context.close()


# Records, after each change of what is hidden, the moves shown that add a discard to a
# river (the first move is on the board from the start) and the river tiles shown.
TOGETHER = """
window.__together = [];
new MutationObserver(() => {
  const moves = Array.from(document.querySelectorAll(".play-moves li")).slice(1)
    .filter((li) => !li.hidden && li.hasAttribute("data-river")).length;
  const tiles = Array.from(document.querySelectorAll(".seat-river .river-tiles > .tile"))
    .filter((tile) => !tile.hidden).length;
  window.__together.push([moves, tiles]);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["hidden"]});
"""


@pytest.mark.browser
def test_the_board_advances_with_the_move_list(page: Page, live_server: Any,
                                               transactional_db: None, artifacts: Path) -> None:
    """Issue 28: the board showed the end state while the list still told the bots' moves
    one by one; now each discard appears in its river as the list reaches it."""
    page.set_viewport_size({"width": 1280, "height": 800})
    start(page, live_server.url, "sichuan", speed="600")
    for _ in range(4):
        assert await_decision(page)
        if page.locator(".play-moves li[data-river]").count() >= 3:
            break
        choose_and_wait(page, choose_with_mouse)
    pending = page.locator(".play-moves li[data-river]:not(:first-child)").count()
    assert pending >= 2, "no bot discards to narrate"
    total = page.locator(".seat-river .river-tiles > .tile").count()
    page.add_init_script(TOGETHER)
    page.reload()
    page.screenshot(path=str(artifacts / "table-narrating-1280-en.png"))  # mid-way
    expect(page.locator(".play-moves li:not([hidden])")).to_have_count(
        page.locator(".play-moves li").count(), timeout=15000)
    records = page.evaluate("window.__together")
    # Hidden at first: the river tiles of the moves still to tell ...
    assert [moves for moves, _ in records if moves == 0], records
    # ... and each discard told puts exactly its tile back on the board.
    assert {tiles - moves for moves, tiles in records} == {total - pending}, records
    assert records[-1] == [pending, total], records


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
@pytest.mark.parametrize("variant, seed, choice", [
    ("jiaxing", "tablepage-jiaxing-38", '"contract"'),  # JX-9 at the sixteenth decision
    ("putian", "tablepage-putian-16", '"bomb"'),  # PT-5.4 at the second
])
def test_the_contract_and_the_bomb_are_on_the_first_screen(
        browser: Browser, live_server: Any, transactional_db: None, artifacts: Path,
        monkeypatch: pytest.MonkeyPatch, variant: str, seed: str, choice: str,
        language: str, width: int, height: int) -> None:
    monkeypatch.setattr("replays.play.services.new_seed", lambda: seed)
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN",
                                  viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        start(page, live_server.url, variant)
        for _ in range(DECISIONS):
            assert await_decision(page)
            if page.locator(f".play-buttons button[value*='{choice}']").count():
                break
            choose_and_wait(page, choose_with_mouse)
        else:
            raise AssertionError(f"no {choice} choice")
        on_screen(page, height)
        shoot(page, artifacts, f"table-{variant}-{choice.strip(chr(34))}-{width}-{language}")
    finally:
        context.close()
