"""Browser tests of the viewer's annotation panel: decisions with their ranked alternatives,
stepping between decisions (↑ ↓) and mistakes, the spoiler-free mode and screenshots.

Run: DATABASE_URL=postgres://... .venv/bin/python -m pytest tests/test_browser_analysis.py -n 2
Screenshots land in test-artifacts/ (git-ignored).
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

# The live server and the ORM are used from the test thread while Playwright's sync API runs
# an event loop in it; Django must not refuse that as "async-unsafe".
os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Page, expect  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
LOCALE = "en-US"

# One hand of Jiaxing played by the bots (182 events, exhausted wall): 113 decisions with
# more than one alternative, the first at step 0, and 14 of them mistakes (the first at
# step 13, a claim passed up). The tests read the annotation itself rather than these numbers.
VARIANT, HANDS, SEED = "jiaxing", 1, 3

# WhiteNoise looks for collected files (STATIC_ROOT) that tests do not need.
pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]


@pytest.fixture(scope="session")
def document() -> bytes:
    from games.bots.simulation import simulate
    from games.records.log import dumps

    return dumps(simulate(VARIANT, HANDS, SEED)).encode()


@dataclass
class Annotated:
    """A stored, annotated match: its viewer URL and where the panel has something to show."""

    url: str
    steps: int  # events in hand 1
    decisions: list[dict[str, Any]]  # those the panel shows: more than one alternative

    def at(self, step: int) -> list[dict[str, Any]]:
        return [d for d in self.decisions if d["event"] == step + 1]

    @property
    def decision_steps(self) -> list[int]:
        return sorted({d["event"] - 1 for d in self.decisions})

    @property
    def mistake_steps(self) -> list[int]:
        from replays.annotation.services import is_mistake

        # the site calls a choice a mistake only where its loss is measurable
        return sorted({d["event"] - 1 for d in self.decisions if is_mistake(d)})

    def step(self, step: int, **query: str) -> str:
        extra = "".join(f"&{k}={v}" for k, v in query.items())
        return f"{self.url}?hand=1&step={step}{extra}"


@pytest.fixture
def annotated(live_server: Any, transactional_db: None, document: bytes) -> Annotated:
    """The match stored as an upload would be; its annotation runs in-process on commit."""
    from django.db import transaction

    from games.analysis.annotation import ENGINE_VERSION
    from replays.matches.services import store_document
    from replays.models import Annotation, Match

    with transaction.atomic():
        match = store_document(document, title="Browser analysis match")
    match.refresh_from_db()
    assert match.annotation_status == Match.Status.DONE == "done", (
        f"annotation {match.annotation_status}: {match.annotation_error}")
    data = Annotation.objects.get(hand__match=match, hand__number=1,
                                  engine_version=ENGINE_VERSION).data
    decisions = [d for d in data["decisions"] if len(d["alternatives"]) > 1]
    assert decisions, "the hand has no decision with alternatives"
    steps = match.hands.get(number=1).event_count
    return Annotated(f"{live_server.url}{match.get_absolute_url()}", steps, decisions)


def panel(page: Page) -> Any:
    return page.locator("#board-wrap .analysis-panel")


def expect_step(page: Page, step: int, steps: int) -> None:
    """The counter and the address (pushed by htmx or loaded) both name the step."""
    expect(page.locator(".step-counter")).to_have_text(f"Hand 1/{HANDS} · step {step}/{steps}")
    expect(page).to_have_url(re.compile(rf"[?&]hand=1&step={step}(&|$)"))


def expect_decisions(page: Page, annotated: Annotated, step: int) -> None:
    """The panel shows exactly the decisions of this step, each with its best and actual."""
    here = annotated.at(step)
    assert here, f"no decision at step {step}"
    decisions = panel(page).locator("details.decision")
    expect(decisions).to_have_count(len(here))
    for i, decision in enumerate(here):
        table = decisions.nth(i).locator("table.alternatives")
        expect(table.locator("tbody tr")).to_have_count(len(decision["alternatives"]))
        expect(table.locator("tbody tr.actual")).to_have_count(1)
        expect(table.locator("tbody tr.best")).to_have_count(
            sum(1 for a in decision["alternatives"] if a["rank"] == 1))


def first_step(annotated: Annotated, predicate: Any) -> int:
    return next(s for s in annotated.decision_steps if all(predicate(d) for d in annotated.at(s)))


def test_the_panel_shows_a_decision_with_its_best_and_actual_choice(
        page: Page, annotated: Annotated) -> None:
    # A turn where the player did not play a best-ranked alternative: best and actual differ.
    step = first_step(annotated, lambda d: d["kind"] == "turn" and d["actual_rank"] > 1)
    decision = annotated.at(step)[0]
    page.goto(annotated.step(step))
    expect_step(page, step, annotated.steps)
    expect(panel(page)).to_be_visible()
    expect_decisions(page, annotated, step)

    details = panel(page).locator("details.decision").first
    expect(details).to_have_attribute("open", "")
    expect(details.locator("summary")).to_contain_text("Decision of ")
    best = details.locator("tr.best").first
    actual = details.locator("tr.actual")
    expect(best).to_be_visible()
    expect(actual).to_be_visible()
    expect(best.locator("td").first).to_have_text("1")
    expect(actual.locator("td").first).to_have_text(f"{decision['actual_rank']} ◀ played")
    chosen = decision["alternatives"][decision["actual"]]["action"]
    from django.utils import translation

    from replays.tile_names import tile_name

    with translation.override("en"):
        expect(actual.locator("td").nth(1)).to_have_text(f"discard {tile_name(chosen['tile'])}")
    expect(details.locator("tr.best.actual")).to_have_count(0)

    # Where the player chose a best alternative, one row is both.
    step = first_step(annotated, lambda d: d["actual_rank"] == 1)
    page.goto(annotated.step(step))
    expect_decisions(page, annotated, step)
    expect(panel(page).locator("tr.best.actual")).to_have_count(1)
    expect(panel(page).locator("tr.best.actual td").first).to_have_text("1 ◀ played")

    # A step with no decision before the next event says so.
    quiet = next(s for s in range(annotated.steps) if not annotated.at(s))
    page.goto(annotated.step(quiet))
    expect(panel(page).locator(".analysis-empty")).to_have_text(
        "No decision before the next event.")
    expect(panel(page).locator("details.decision")).to_have_count(0)


def test_arrow_keys_step_between_decisions_and_the_mistake_links_find_mistakes(
        page: Page, annotated: Annotated) -> None:
    steps = annotated.decision_steps
    first, second, third = steps[:3]
    page.goto(annotated.step(first))
    expect_step(page, first, annotated.steps)
    expect(panel(page).locator("a[data-key=ArrowUp]")).to_have_count(0)  # nothing before

    for step in (second, third):  # each swap lands before the next key follows the new link
        page.keyboard.press("ArrowDown")
        expect_step(page, step, annotated.steps)
        expect_decisions(page, annotated, step)
    for step in (second, first):
        page.keyboard.press("ArrowUp")
        expect_step(page, step, annotated.steps)
        expect_decisions(page, annotated, step)

    # From a step without a decision, ↓ and ↑ find the nearest ones on either side.
    quiet = next(s for s in range(first + 1, annotated.steps) if not annotated.at(s))
    after = min(s for s in steps if s > quiet)
    before = max(s for s in steps if s < quiet)
    page.goto(annotated.step(quiet))
    expect(panel(page).locator(".analysis-empty")).to_be_visible()
    page.keyboard.press("ArrowDown")
    expect_step(page, after, annotated.steps)
    page.goto(annotated.step(quiet))
    page.keyboard.press("ArrowUp")
    expect_step(page, before, annotated.steps)

    # The last decision has no "Next decision".
    page.goto(annotated.step(steps[-1]))
    expect(panel(page).locator("a[data-key=ArrowDown]")).to_have_count(0)
    expect(panel(page).locator("a[data-key=ArrowUp]")).to_have_count(1)

    mistakes = annotated.mistake_steps
    if len(mistakes) < 2:
        pytest.skip(f"seed {SEED} has {len(mistakes)} mistakes; the mistake links need two")
    page.goto(annotated.step(0))
    if mistakes[0] == 0:
        pytest.skip("the first mistake is at step 0: 'Next mistake' cannot reach it")
    controls = panel(page).locator(".analysis-controls")
    expect(controls.get_by_role("link", name="Previous mistake")).to_have_count(0)
    for step in mistakes[:2]:
        controls.get_by_role("link", name="Next mistake").click()
        expect_step(page, step, annotated.steps)
        expect_decisions(page, annotated, step)
        mistaken = panel(page).locator("details.decision", has=page.locator("strong.mistake"))
        expect(mistaken).to_have_count(sum(1 for d in annotated.at(step) if d["mistake"]))
        expect(mistaken.first.locator("summary")).to_contain_text("· mistake")
        expect(mistaken.first.locator("tr.actual")).to_be_visible()
        expect(mistaken.first.locator("tr.best.actual")).to_have_count(0)
    controls.get_by_role("link", name="Previous mistake").click()
    expect_step(page, mistakes[0], annotated.steps)
    page.goto(annotated.step(mistakes[-1]))
    expect(controls.get_by_role("link", name="Next mistake")).to_have_count(0)


def test_spoiler_free_mode_folds_the_decisions_until_one_is_opened(
        page: Page, annotated: Annotated) -> None:
    step = first_step(annotated, lambda d: d["kind"] == "turn" and d["actual_rank"] > 1)
    page.goto(annotated.step(step, spoilers="0"))
    expect_step(page, step, annotated.steps)
    details = panel(page).locator("details.decision")
    expect(details).to_have_count(len(annotated.at(step)))
    for i in range(len(annotated.at(step))):
        expect(details.nth(i)).not_to_have_attribute("open", re.compile(".*"))
        expect(details.nth(i).locator("summary")).to_be_visible()
        expect(details.nth(i).locator("table.alternatives")).to_be_hidden()
        expect(details.nth(i).locator("tr.actual")).to_be_hidden()

    details.first.locator("summary").click()
    expect(details.first).to_have_attribute("open", "")
    expect(details.first.locator("table.alternatives")).to_be_visible()
    expect(details.first.locator("tr.best").first).to_be_visible()
    expect(details.first.locator("tr.actual")).to_be_visible()
    details.first.locator("summary").click()  # and folds again
    expect(details.first.locator("table.alternatives")).to_be_hidden()

    # The other way in: pick an alternative first; the analysis opens with the pick marked.
    page.reload()
    decision = annotated.at(step)[0]
    pick = panel(page).locator(".pick").first
    buttons = pick.locator("button[data-alternative]")
    expect(pick).to_contain_text("What would you do as")
    expect(buttons).to_have_count(len(decision["alternatives"]))
    expect(details.first.locator("table.alternatives")).to_be_hidden()
    mine = next(i for i, a in enumerate(decision["alternatives"]) if a["rank"] == 1)
    pick.locator(f'button[data-alternative="{mine}"]').click()  # buttons go best first
    expect(details.first.locator("table.alternatives")).to_be_visible()
    picked = details.first.locator("tr.picked")
    expect(picked).to_have_count(1)
    expect(picked).to_have_attribute("data-alternative", str(mine))
    expect(picked).to_have_class(re.compile(r"\bbest\b"))

    # Without the parameter the same step shows everything, and asks nothing.
    page.goto(annotated.step(step))
    expect(panel(page).locator("details.decision table.alternatives").first).to_be_visible()
    expect(panel(page).locator(".pick")).to_have_count(0)


def test_spoiler_free_mode_survives_stepping_to_the_next_decision(
        page: Page, annotated: Annotated) -> None:
    first, second = annotated.decision_steps[:2]
    page.goto(annotated.step(first, spoilers="0"))
    expect(panel(page).locator("details.decision table.alternatives").first).to_be_hidden()
    page.keyboard.press("ArrowDown")
    expect_step(page, second, annotated.steps)
    expect_decisions(page, annotated, second)  # the swap is in
    assert not panel(page).locator("details.decision table.alternatives").first.is_visible()
    assert "spoilers=0" in page.url, page.url


def test_spoiler_free_mode_does_not_reveal_a_mistake_before_the_pick(
        page: Page, annotated: Annotated) -> None:
    step = annotated.mistake_steps[0]
    page.goto(annotated.step(step, spoilers="0"))
    summary = panel(page).locator("details.decision summary").first
    expect(summary).to_be_visible()
    assert "mistake" not in summary.inner_text()


def test_picking_an_alternative_puts_the_question_away(page: Page, annotated: Annotated) -> None:
    page.goto(annotated.step(annotated.decision_steps[0], spoilers="0"))
    pick = panel(page).locator(".pick").first
    pick.locator("button[data-alternative]").first.click()
    expect(panel(page).locator("details.decision table.alternatives").first).to_be_visible()
    expect(pick).to_have_attribute("hidden", "")
    assert pick.is_hidden()


def test_the_annotation_status_is_shown_once(page: Page, annotated: Annotated) -> None:
    page.goto(annotated.step(0))
    expect(panel(page)).to_be_visible()
    assert page.locator("#annotation-status").count() == 1


def test_it_renders_the_panel_at_desktop_and_phone_widths(
        page: Page, annotated: Annotated, artifacts: Path) -> None:
    # A mistaken turn: the widest table (a dozen discards) with the mistake marker.
    step = first_step(annotated, lambda d: d["kind"] == "turn" and d["mistake"])
    for width, height in ((1280, 900), (390, 844)):
        page.set_viewport_size({"width": width, "height": height})
        page.goto(annotated.step(step))
        expect_step(page, step, annotated.steps)
        table = panel(page).locator("table.alternatives").first
        expect(table).to_be_visible()
        panel(page).scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"analysis-{width}.png"), full_page=True)
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width + 1, f"horizontal scroll at {width}px: scrollWidth {scroll}"
        overflow = panel(page).evaluate(
            "p => [p.scrollWidth, p.clientWidth, p.querySelector('table').scrollWidth]")
        assert overflow[0] <= overflow[1] + 1, f"the panel overflows at {width}px: {overflow}"
