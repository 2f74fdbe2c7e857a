"""Accessibility in Chromium (issue 32, docs/accessibility.md): the first Tab shows the skip
link and Enter takes the focus to the page's content; the focus ring, the wildcard's ring
and star, claimed tiles, the small-mistake bar and the won chip reach their contrast
(computed colours, measured here); "This hand's decisions" fits a 390 px phone; motion
stops for whoever asks their system for less. Screenshots go to test-artifacts/
(a11y-*.png)."""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from .conftest import bot_document  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

TILE_FACE, TILE_INKS = "#fdfaf0", ("#1b7a3d", "#c62828", "#1f4e9c")  # static/tiles/*.svg


# -- contrast (WCAG 2.x relative luminance) -------------------------------------------


def rgb(colour: str) -> tuple[float, float, float, float]:
    """A computed CSS colour (``rgb(…)``, ``rgba(…)`` or ``#rrggbb``) as r, g, b in 0–255
    and alpha."""
    if colour.startswith("#"):
        if len(colour) == 4:  # #rgb
            colour = "#" + "".join(2 * c for c in colour[1:])
        return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16), 1.0)
    parts = [float(p) for p in re.findall(r"[\d.]+", colour)]
    return (parts[0], parts[1], parts[2], parts[3] if len(parts) > 3 else 1.0)


def over(colour: str, background: str, opacity: float = 1.0) -> str:
    """``colour`` (with its alpha, times ``opacity``) laid over an opaque ``background``."""
    *front, alpha = rgb(colour)
    back = rgb(background)[:3]
    a = alpha * opacity
    mixed = (round(a * f + (1 - a) * b) for f, b in zip(front, back, strict=True))
    return "#" + "".join(f"{value:02x}" for value in mixed)


def grayscale(colour: str, amount: float) -> str:
    """CSS ``filter: grayscale(amount)`` applied to an opaque colour."""
    r, g, b, _ = rgb(colour)
    keep = 1 - amount
    rows = ((.2126 + .7874 * keep, .7152 - .7152 * keep, .0722 - .0722 * keep),
            (.2126 - .2126 * keep, .7152 + .2848 * keep, .0722 - .0722 * keep),
            (.2126 - .2126 * keep, .7152 - .7152 * keep, .0722 + .9278 * keep))
    return "#" + "".join(f"{min(255, round(x * r + y * g + z * b)):02x}" for x, y, z in rows)


def luminance(colour: str) -> float:
    def channel(value: float) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b, _ = rgb(colour)
    return .2126 * channel(r) + .7152 * channel(g) + .0722 * channel(b)


def contrast(one: str, other: str) -> float:
    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_contrast_helper_knows_the_wcag_figures() -> None:
    assert contrast("#000000", "#ffffff") == pytest.approx(21)
    assert contrast("#777777", "#ffffff") == pytest.approx(4.48, abs=.01)
    assert contrast("#f0a500", "#ffffff") == pytest.approx(2.08, abs=.01)  # the old ring
    assert over("rgba(0, 0, 0, 0.5)", "#ffffff") == "#808080"
    assert grayscale("#ff0000", 1) == "#363636"
    assert rgb("#fff") == (255, 255, 255, 1.0)


# Elements of the board and the panels, put on a page of the site so the site's own
# stylesheet colours them.
SPECIMENS = """
<div id="specimens">
  <div class="board"><div class="seat has-won"><span class="seat-status">won</span></div></div>
  <span class="tile is-wild" id="wild"></span>
  <span class="tile is-claimed" id="claimed"></span>
  <svg class="value-bar"><rect class="bar-track" width="10" height="5"/>
    <rect class="severity-small" width="5" height="5"/></svg>
  <button type="button" id="focused">x</button>
</div>
"""

MEASURE = """() => {
  document.querySelector("main").insertAdjacentHTML("beforeend", SPECIMENS);
  const style = (selector, pseudo) => getComputedStyle(document.querySelector(selector), pseudo);
  const wild = style("#wild"), star = style("#wild", "::after");
  return {
    surfaces: ["--surface", "--bg", "--felt", "--accent-soft", "--ok-soft", "--warn-soft"]
      .map((name) => style(":root").getPropertyValue(name).trim()),
    ring: style(":root").getPropertyValue("--focus").trim(),
    wildRing: wild.boxShadow.match(/rgba?\\([^)]*\\)/)[0],
    star: [star.color, star.backgroundColor, star.fontSize],
    claimed: [style("#claimed").opacity, style("#claimed").filter,
              style("#claimed").outlineColor, style("#claimed").outlineStyle],
    bar: [style(".value-bar .severity-small").fill, style(".value-bar .bar-track").fill],
    won: [style(".seat-status").color, style(".seat-status").backgroundColor],
  };
}"""


@pytest.mark.parametrize("width", [390, 1280])
def test_rings_and_marks_reach_their_contrast(browser: Browser, live_server: Any,
                                              transactional_db: None, width: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/play/")
    got = page.evaluate(MEASURE.replace("SPECIMENS", repr(SPECIMENS.replace("\n", " "))))
    context.close()
    surfaces = got["surfaces"]
    assert len(surfaces) == 6 and all(s.startswith("#") for s in surfaces), surfaces
    # Marks and rings: 3:1 against every surface they are drawn on (WCAG 1.4.11).
    for surface in surfaces:
        assert contrast(got["ring"], surface) >= 3, ("focus ring", got["ring"], surface)
        assert contrast(over(got["wildRing"], surface), surface) >= 3, ("wildcard ring", surface)
    star, badge, size = got["star"]
    assert contrast(star, badge) >= 4.5, ("wildcard star", star, badge)
    assert float(size.removesuffix("px")) >= (9 if width < 600 else 11)
    opacity, tile_filter, outline, outline_style = got["claimed"]
    found = re.search(r"grayscale\(([\d.]+)\)", tile_filter)
    assert found, tile_filter
    amount = float(found.group(1))
    felt = surfaces[2]
    face = over(grayscale(TILE_FACE, amount), felt, float(opacity))
    for ink in TILE_INKS:  # the tile still reads: its drawing against its face, faded
        assert contrast(over(grayscale(ink, amount), felt, float(opacity)), face) >= 3, ink
    assert outline_style == "dashed" and contrast(outline, felt) >= 3
    small, track = got["bar"]
    assert contrast(small, track) >= 3 and contrast(small, surfaces[0]) >= 3, got["bar"]
    text, chip = got["won"]
    assert contrast(text, chip) >= 4.5, got["won"]


# -- the skip link --------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh-hans"])
@pytest.mark.parametrize("width", [390, 1280])
def test_the_first_tab_shows_the_skip_link_and_enter_goes_to_the_content(
        browser: Browser, live_server: Any, transactional_db: None, artifacts: Path,
        language: str, width: int) -> None:
    context = browser.new_context(locale="en-US" if language == "en" else "zh-CN",
                                  viewport={"width": width, "height": 800})
    page = context.new_page()
    page.goto(f"{live_server.url}/play/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip-link")
    expect(skip).to_be_focused()
    expect(skip).to_have_text("Skip to main content" if language == "en" else "跳到正文")
    box = skip.bounding_box()
    assert box is not None and box["y"] >= 0 and box["x"] >= 0, box
    # The ring shows around it.
    assert page.evaluate("getComputedStyle(document.activeElement).outlineStyle") == "solid"
    page.screenshot(path=str(artifacts / f"a11y-skip-{width}-{language}.png"))
    page.keyboard.press("Enter")
    expect(page.locator("main#main")).to_be_focused()
    page.keyboard.press("Tab")
    inside = page.evaluate("document.querySelector('main').contains(document.activeElement)")
    assert inside, "the Tab after the skip link left the content"
    page.screenshot(path=str(artifacts / f"a11y-focus-{width}-{language}.png"))
    context.close()


# -- "This hand's decisions" on a phone -------------------------------------------------


def test_the_hand_decisions_fit_a_phone(browser: Browser, live_server: Any,
                                        transactional_db: None, artifacts: Path) -> None:
    from replays.matches.services import store_document

    match = store_document(bot_document(7, variant="sichuan", hands=1), title="Phone")
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto(f"{live_server.url}{match.get_absolute_url()}?step=20")
    summary = page.locator("details.hand-summary")
    summary.locator("summary").click()
    table = summary.locator("table").first
    expect(table).to_be_visible()
    box = table.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, box
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    # Each value keeps its column's name.
    expect(table.locator("td[data-label]").first).to_be_visible()
    table.scroll_into_view_if_needed()
    page.screenshot(path=str(artifacts / "a11y-hand-decisions-390.png"))
    context.close()


# -- motion -----------------------------------------------------------------------------


@pytest.mark.parametrize("motion", ["reduce", "no-preference"])
def test_motion_stops_when_the_system_asks_for_less(page: Page, live_server: Any,
                                                    transactional_db: None, motion: str) -> None:
    page.emulate_media(reduced_motion=motion)  # type: ignore[arg-type]
    page.goto(f"{live_server.url}/play/")
    timings = page.evaluate("""() => {
      document.querySelector("main").insertAdjacentHTML("beforeend",
        '<div class="htmx-request"><span class="htmx-indicator" id="spin">…</span></div>' +
        '<div class="play-board" data-claim-seat="1"><div class="seat-river">' +
        '<span class="tile is-last" id="pulse"></span></div></div>');
      const spin = getComputedStyle(document.getElementById("spin"));
      const pulse = getComputedStyle(document.getElementById("pulse"));
      return [parseFloat(spin.transitionDuration), pulse.animationName,
              parseFloat(pulse.animationDuration),
              getComputedStyle(document.documentElement).scrollBehavior];
    }""")
    transition, animation, duration, scroll = timings
    if motion == "reduce":
        assert transition < .001 and (animation == "none" or duration < .001), timings
    else:
        assert transition >= .1 and animation == "claim-pulse" and duration >= 1, timings
    assert scroll == "auto"
