"""The viewer in a real browser: quick key presses queued and played in order, the focus kept
on a control used from the keyboard, the language select not switched by arrow keys,
autoplay, and screenshots at 1280 and 390 px in English and Chinese (a claim, a win, a
multi-payment Sichuan end, the match overview) with no horizontal scroll.

Screenshots land in test-artifacts/ (git-ignored)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from .conftest import bot_document, wait_for  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore:No directory at:UserWarning")


def stored(variant: str, seed: int, hands: int, title: str) -> Any:
    from replays.matches.services import store_document

    return store_document(bot_document(seed, variant=variant, hands=hands), title=title)


@pytest.fixture
def long_hand(live_server: Any, transactional_db: None) -> tuple[str, int]:
    """A Jiaxing bot match (seed 5: its first hand has 186 events); its viewer's address."""
    from replays.models import Match

    match = stored("jiaxing", 5, 2, "Keys")
    # Analysed before the page opens: the poll that finds the analysis finished reloads the
    # page (the focus then starts on the board), which a test of the focus can't have.
    finished = (Match.Status.DONE, Match.Status.FAILED)
    wait_for(lambda: Match.objects.filter(pk=match.pk, annotation_status__in=finished).exists()
             and not Match.objects.filter(pk=match.pk, values_status__in=("queued", "running"))
             .exists(), 180, "the match's analysis")
    steps = match.hands.get(number=1).event_count
    return f"{live_server.url}{match.get_absolute_url()}", steps


def step_of(page: Page) -> int:
    found = re.search(r"step (\d+)/", page.locator(".step-counter").inner_text())
    assert found
    return int(found.group(1))


@pytest.mark.browser
def test_it_plays_thirty_quick_key_presses_and_lands_on_step_30(
        page: Page, long_hand: tuple[str, int]) -> None:
    url, steps = long_hand
    assert steps > 30
    page.goto(url)
    for _ in range(30):
        page.keyboard.press("ArrowRight", delay=0)
        page.wait_for_timeout(15)  # faster than a step's round trip: presses pile up

    expect(page.locator(".step-counter")).to_contain_text(f"step 30/{steps}", timeout=20000)
    page.wait_for_timeout(300)  # nothing more arrives after the queue ran out
    assert step_of(page) == 30
    expect(page).to_have_url(re.compile(r"[?&]step=30(&|$)"))


@pytest.mark.browser
def test_it_keeps_the_focus_on_next_after_enter(page: Page, long_hand: tuple[str, int]) -> None:
    url, steps = long_hand
    page.goto(url)
    page.locator(".controls a[data-key=ArrowRight]").focus()

    for step in (1, 2, 3):
        page.keyboard.press("Enter")
        expect(page.locator(".step-counter")).to_contain_text(f"step {step}/{steps}")
        expect(page.locator(".controls a[data-key=ArrowRight]")).to_be_focused()


@pytest.mark.browser
def test_it_does_not_switch_language_on_arrow_keys_in_the_select(
        page: Page, long_hand: tuple[str, int]) -> None:
    url, steps = long_hand
    page.goto(url)
    page.locator("#language").focus()

    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowDown")
    page.wait_for_timeout(500)

    expect(page.locator("html")).to_have_attribute("lang", "en")
    expect(page.locator(".step-counter")).to_contain_text(f"step 0/{steps}")
    # the choice is confirmed with the Go button, shown once the choice changed
    go = page.locator(".language-go")
    expect(go).to_be_visible()
    go.click()
    expect(page.locator("html")).to_have_attribute("lang", "zh-hans")


@pytest.mark.browser
def test_it_autoplays_and_stops_on_a_key(page: Page, long_hand: tuple[str, int]) -> None:
    url, steps = long_hand
    page.goto(url)
    page.locator(".autoplay-speed").select_option("400")
    page.locator(".autoplay-toggle").click()
    # (a polled locator, not wait_for_function: the Content Security Policy refuses eval)
    expect(page.locator(".step-counter")).to_contain_text(
        re.compile(r"step ([3-9]|[1-9]\d+)/"), timeout=5000)
    expect(page.locator(".autoplay-toggle")).to_have_attribute("aria-pressed", "true")

    page.keyboard.press("ArrowLeft")
    expect(page.locator(".autoplay-toggle")).to_have_attribute("aria-pressed", "false")
    page.wait_for_timeout(500)  # a step already on its way lands, then the key's step
    stopped = step_of(page)
    page.wait_for_timeout(1000)
    assert step_of(page) == stopped


SHOTS = [  # (name, variant, seed, hands, where)
    ("claim", "sichuan", 2, 2, "claim"),
    ("win", "jiaxing", 12, 2, "win"),
    ("sichuan-end", "sichuan", 2, 2, "end"),
]


def moment(match: Any, where: str) -> tuple[int, int]:
    """The hand and step of a claim (the first pung or chow), a win or the first hand's end."""
    hand = match.hands.get(number=1)
    kinds = {"claim": ("peng", "chi"), "win": ("hu",)}
    if where == "end":
        return 1, hand.event_count
    step = next(i for i, e in enumerate(hand.events, 1) if e["type"] in kinds[where])
    return 1, step


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_renders_the_screenshots_without_horizontal_scroll(
        browser: Browser, live_server: Any, transactional_db: None, artifacts: Path,
        language: str) -> None:
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN")
    try:
        page = context.new_page()
        matches: dict[str, Any] = {}
        for name, variant, seed, hands, _where in SHOTS:
            twin = next((m for m in matches.values() if m.title == f"{variant} {seed}"), None)
            matches[name] = twin or stored(variant, seed, hands, f"{variant} {seed}")
        for width, height in ((1280, 900), (390, 844)):
            page.set_viewport_size({"width": width, "height": height})
            for name, _variant, _seed, _hands, where in SHOTS:
                match = matches[name]
                hand, step = moment(match, where)
                seat = 1 if name == "claim" else None
                query = f"?hand={hand}&step={step}" + (f"&seat={seat}" if seat is not None else "")
                page.goto(f"{live_server.url}{match.get_absolute_url()}{query}")
                expect(page.locator("html")).to_have_attribute("lang", language)
                page.screenshot(path=str(artifacts / f"viewer-{name}-{width}-{language}.png"),
                                full_page=True)
                scroll = page.evaluate("document.documentElement.scrollWidth")
                assert scroll <= width + 1, f"{name} at {width}px scrolls: {scroll}"
            page.goto(f"{live_server.url}/replays/{matches['sichuan-end'].public_id}/hands/")
            expect(page.locator("svg.chart")).to_be_visible()
            page.screenshot(path=str(artifacts / f"overview-{width}-{language}.png"),
                            full_page=True)
            assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
    finally:
        context.close()


@pytest.mark.browser
def test_it_keeps_the_controls_on_screen_and_the_board_first_on_a_phone(
        page: Page, long_hand: tuple[str, int]) -> None:
    url, steps = long_hand
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto(f"{url}?step=20")
    board = page.locator("#board").bounding_box()
    assert board is not None and board["y"] < 250, board
    page.mouse.wheel(0, 1500)
    page.wait_for_timeout(200)
    bar = page.locator("#board-wrap > .controls").bounding_box()
    assert bar is not None and bar["y"] + bar["height"] <= 741 and bar["y"] > 400, bar
    page.locator(".controls a[data-key=ArrowRight]").click()
    expect(page.locator(".step-counter")).to_contain_text(f"step 21/{steps}")
    assert page.evaluate("document.documentElement.scrollWidth") <= 361


@pytest.mark.browser
@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_it_fits_every_step_control_label_in_its_button_on_a_phone(
        browser: Browser, long_hand: tuple[str, int], language: str) -> None:
    url, _steps = long_hand
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN",
                                  viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        page.goto(f"{url}?step=20")
        expect(page.locator("html")).to_have_attribute("lang", language)
        controls = page.locator("#board-wrap > .controls :is(.button, .autoplay)")
        clipped = controls.evaluate_all(
            "els => els.filter(e => e.offsetWidth && e.scrollWidth > e.clientWidth + 1)"
            ".map(e => `${e.innerText}: ${e.scrollWidth} > ${e.clientWidth}`)")
        assert clipped == [], clipped
        tops = controls.evaluate_all(
            "els => els.filter(e => e.offsetWidth).map(e => Math.round(e.offsetTop))")
        assert len(set(tops)) == 1, f"the buttons take more than one row: {tops}"
    finally:
        context.close()
