"""Playing in a real browser (issue 14): a whole hand of each variant with the mouse, one
with the keyboard only, one at 390 px; screenshots of the table mid-hand and at a hand's
end at 1280 and 390 px in English and Chinese (test-artifacts/, git-ignored)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")

MOVES = 400  # far more decisions than a hand has
DECISION = 60_000  # ms: the bots answer within the request, slowly on a loaded machine
DECISION_OR_END = (".play-hand button.tile-button, .play-buttons button, .play-settlement, "
                   ".play-end")


@pytest.fixture(autouse=True)
def fixed_seeds(monkeypatch: pytest.MonkeyPatch, request: pytest.FixtureRequest) -> None:
    """Deal every match of a test from seeds the test names (the live server runs in this
    process): the same hands on every run, whatever the machine's load."""
    counter = iter(range(1000))
    monkeypatch.setattr("replays.play.services.new_seed",
                        lambda: f"browser-{request.node.name}-{next(counter)}")


def start(page: Page, url: str, variant: str, hands: int = 1, speed: str = "0") -> None:
    page.goto(f"{url}/play/")
    page.select_option("#id_variant", variant)
    page.select_option("#id_seat", "0")
    page.fill("#id_hands", str(hands))
    page.select_option("#id_speed", speed)
    page.locator(".play-start button[type=submit]").click()
    expect(page.locator("#play-table")).to_be_visible()


def step(page: Page) -> str:
    return str(page.locator("#play-table").get_attribute("data-step"))


def hand_over(page: Page) -> bool:
    return page.locator(".play-settlement, .play-end").count() > 0


def await_decision(page: Page) -> bool:
    """Wait for the player's next decision or the hand's end; True for a decision."""
    page.locator(DECISION_OR_END).first.wait_for(state="visible", timeout=DECISION)
    return not hand_over(page)


def choose_and_wait(page: Page, choose: Any) -> None:
    """One choice, then wait until the table has moved on past it."""
    before = step(page)
    choose(page)
    expect(page.locator("#play-table")).not_to_have_attribute("data-step", before,
                                                              timeout=DECISION)


def choose_with_mouse(page: Page) -> None:
    """A win when offered, else the drawn tile (or the last), else the first button."""
    wins = page.locator(".play-buttons button.primary")
    tiles = page.locator(".play-hand button.tile-button")
    if wins.count():
        wins.first.click()
    elif tiles.count():
        tiles.last.click()
    else:
        page.locator(".play-buttons button").first.click()


def choose_with_keys(page: Page) -> None:
    """Keys only: ← from nowhere lands on the last tile, Enter discards it; otherwise Tab to
    the first action button and Enter."""
    if page.locator(".play-hand button.tile-button").count():
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("Enter")
        return
    for _ in range(120):
        page.keyboard.press("Tab")
        if page.locator(".play-buttons button:focus").count():
            page.keyboard.press("Enter")
            return
    raise AssertionError("no action button reached with Tab")


def play_a_hand(page: Page, choose: Any) -> None:
    for _ in range(MOVES):
        if not await_decision(page):
            return
        choose_and_wait(page, choose)
    raise AssertionError("the hand did not end")


def check_end(page: Page) -> None:
    expect(page.locator(".play-end")).to_be_visible()
    expect(page.locator(".seed")).to_be_visible()
    review = page.locator("a.review-link")
    expect(review).to_have_attribute("href", __import__("re").compile(r"spoilers=0"))
    review.click()
    expect(page.locator("#board")).to_be_visible()


@pytest.mark.browser
def test_it_shows_only_the_chosen_variants_rules_options(page: Page, live_server: Any,
                                                         transactional_db: None) -> None:
    page.goto(f"{live_server.url}/play/")
    options = page.locator("fieldset.play-options")
    assert options.count() == 3
    for variant in ("putian", "sichuan", "jiaxing"):
        page.select_option("#id_variant", variant)
        expect(page.locator(f'fieldset.play-options[data-variant="{variant}"]')).to_be_visible()
        expect(options.filter(visible=True)).to_have_count(1)


@pytest.mark.browser
@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_plays_a_whole_hand_with_the_mouse(page: Page, live_server: Any,
                                             transactional_db: None, variant: str) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, live_server.url, variant)
    play_a_hand(page, choose_with_mouse)
    check_end(page)


@pytest.mark.browser
def test_it_plays_a_whole_hand_with_the_keyboard_only(page: Page, live_server: Any,
                                                     transactional_db: None) -> None:
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, live_server.url, "sichuan")
    play_a_hand(page, choose_with_keys)
    expect(page.locator(".play-end")).to_be_visible()


@pytest.mark.browser
def test_it_plays_a_whole_hand_at_390_px(page: Page, live_server: Any,
                                        transactional_db: None) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    start(page, live_server.url, "jiaxing")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    play_a_hand(page, choose_with_mouse)
    check_end(page)


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_renders_the_screenshots(browser: Browser, live_server: Any, transactional_db: None,
                                    artifacts: Path, language: str) -> None:
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN")
    page = context.new_page()
    try:
        page.set_viewport_size({"width": 1280, "height": 1000})
        start(page, live_server.url, "putian", hands=2, speed="250")
        expect(page.locator("html")).to_have_attribute("lang", language)
        for _ in range(4):  # a few of the player's decisions, fewer if the hand ends
            if not await_decision(page):
                break
            choose_and_wait(page, choose_with_mouse)
        for width, height in ((1280, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.reload()
            page.screenshot(path=str(artifacts / f"play-mid-{width}-{language}.png"),
                            full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
        play_a_hand(page, choose_with_mouse)
        for width, height in ((1280, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(artifacts / f"play-end-{width}-{language}.png"),
                            full_page=True)
        for _ in range(MOVES):  # on to the match's end: the seed and the review link
            page.locator(DECISION_OR_END).first.wait_for(state="visible", timeout=DECISION)
            if page.locator(".play-end").count():
                break
            choose_and_wait(page, choose_with_mouse)
        for width, height in ((1280, 1000), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            page.screenshot(path=str(artifacts / f"play-over-{width}-{language}.png"),
                            full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
    finally:
        context.close()


# Records, after each change to the moves list, how many of its moves are visible: the
# table's script hides them and shows them one at a time, at the match's speed.
REVEALS = """
window.__reveals = [];
new MutationObserver((changes) => {
  if (!changes.some((change) => change.target.closest(".play-moves"))) return;
  const moves = document.querySelectorAll(".play-moves li");
  window.__reveals.push(Array.from(moves).filter((li) => !li.hidden).length);
}).observe(document, {subtree: true, attributes: true, attributeFilter: ["hidden"]});
"""


@pytest.mark.browser
def test_it_reveals_the_bots_moves_one_by_one_after_a_reload_without_a_script_error(
        page: Page, live_server: Any, transactional_db: None) -> None:
    """Issue 24: play.js threw ``root.closest is not a function`` on every full page
    load, so a reloaded table showed the bots' moves all at once."""
    errors: list[str] = []
    page.on("console", lambda message: errors.append(message.text)
            if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 1280, "height": 900})
    start(page, live_server.url, "jiaxing", speed="250")
    for _ in range(6):  # to a table showing a few moves since the player's last
        if hand_over(page):
            pytest.skip("the hand ended before the bots made moves to show")
        before = step(page)
        choose_with_mouse(page)
        expect(page.locator("#play-table")).not_to_have_attribute("data-step", before)
        if page.locator(".play-moves li").count() >= 3:
            break
    total = page.locator(".play-moves li").count()
    assert total >= 2, "no moves to reveal"
    page.add_init_script(REVEALS)
    page.reload()
    expect(page.locator(".play-moves li:not([hidden])")).to_have_count(total, timeout=15000)
    assert not errors, errors
    reveals = page.evaluate("window.__reveals")
    assert reveals == list(range(1, total + 1)), f"not shown one by one: {reveals}"


@pytest.mark.browser
@pytest.mark.parametrize("width, height", [(390, 844), (1280, 800)])
def test_your_hand_and_choices_are_on_screen_when_the_table_loads(
        page: Page, live_server: Any, transactional_db: None, width: int, height: int) -> None:
    """On a phone and on a laptop your hand and your choices are in the window as soon as
    the table loads (a Sichuan table opens on the void-suit choice, SC-2, whatever the
    deal), and stay there while the board scrolls behind them."""
    page.set_viewport_size({"width": width, "height": height})
    start(page, live_server.url, "sichuan")
    assert await_decision(page)
    hand = page.locator(".play-hand .tile-button")
    assert hand.count() >= 13
    for locator in (hand, page.locator(".play-buttons button")):
        for box in [item.bounding_box() for item in locator.all()]:
            assert box is not None
            assert 0 <= box["y"] and box["y"] + box["height"] <= height, box
    page.mouse.wheel(0, -2000)
    first = hand.first.bounding_box()
    assert first is not None and 0 <= first["y"] and first["y"] + first["height"] <= height
