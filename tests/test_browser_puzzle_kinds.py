"""Browser tests of the two new kinds of puzzle: a "how much does it pay?" puzzle counted
and typed in, and a "what to discard?" puzzle picked by clicking a tile, at 390 px and
1280 px, in English and Chinese, with htmx swapping the answer in (no reload).

Screenshots land in test-artifacts/ (git-ignored):
kinds-{pay,discard}-{en,zh}-{390,1280}-{before,after}.png.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

WORDS = {
    "en": {"solved": "Solved!", "check": "Check my answer", "pay": "How much does it pay?",
           "discard": "What to discard?", "lines": "Payments, line by line",
           "values": "Win chance"},
    "zh": {"solved": "答对了！", "check": "提交答案", "pay": "这手牌值多少？",
           "discard": "打哪张？", "lines": "逐项结算", "values": "胜率"},
}


@pytest.fixture
def site(live_server: Any, transactional_db: None) -> str:
    return str(live_server.url)


def opened(browser: Browser, language: str, width: int) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  extra_http_headers={"Accept-Language": "zh-hans" if
                                                      language == "zh" else "en"})
    return context.new_page()


def no_horizontal_scroll(page: Page, width: int) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width, f"horizontal scroll at {width}px: scrollWidth {scroll}"


def made(kind: str, variant: str, seed: str) -> Any:
    from replays.puzzles import services as puzzles

    return puzzles.generated_puzzle(variant, 3, seed, kind)


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_it_answers_a_pay_puzzle(browser: Browser, site: str, artifacts: Path,
                                 language: str, width: int) -> None:
    from replays.models import Attempt

    words = WORDS[language]
    puzzle = made("pay", "jiaxing", "browser")  # a hard one: a contract pays (JX-10.2)
    page = opened(browser, language, width)
    page.goto(site + puzzle.get_absolute_url())
    expect(page.locator("h1")).to_have_text(words["pay"])
    expect(page.locator(".win-tile [data-tile]")).to_have_count(1)
    no_horizontal_scroll(page, width)
    page.screenshot(path=str(artifacts / f"kinds-pay-{language}-{width}-before.png"),
                    full_page=True)
    for name in puzzle.answer["asks"]:
        page.locator(f'input[name="{name}"]').fill(str(puzzle.answer["values"][name]))
    page.locator('input[name="collects"]').fill(str(puzzle.answer["collects"]))
    url = page.url
    page.get_by_role("button", name=words["check"]).click()
    expect(page.locator("#answer h2")).to_have_text(words["solved"])
    assert page.url == url  # swapped in by htmx, no reload
    expect(page.locator("#answer .settlement-lines h3")).to_have_text(words["lines"])
    expect(page.locator("#answer .settlement-line")).to_have_count(len(puzzle.answer["lines"]))
    no_horizontal_scroll(page, width)
    page.screenshot(path=str(artifacts / f"kinds-pay-{language}-{width}-after.png"),
                    full_page=True)
    assert Attempt.objects.get(puzzle=puzzle).solved


@pytest.mark.parametrize("width", [390, 1280])
@pytest.mark.parametrize("language", ["en", "zh"])
def test_it_answers_a_discard_puzzle(browser: Browser, site: str, artifacts: Path,
                                     language: str, width: int) -> None:
    from replays.models import Attempt

    words = WORDS[language]
    puzzle = made("discard", "sichuan", "browser")
    page = opened(browser, language, width)
    page.goto(site + puzzle.get_absolute_url())
    expect(page.locator("h1")).to_have_text(words["discard"])
    no_horizontal_scroll(page, width)
    page.screenshot(path=str(artifacts / f"kinds-discard-{language}-{width}-before.png"),
                    full_page=True)
    page.locator(f'label.pick:has(input[value="{puzzle.answer["best"]}"])').click()
    page.get_by_role("button", name=words["check"]).click()
    expect(page.locator("#answer h2")).to_have_text(words["solved"])
    table = page.locator("#answer .discard-table")
    expect(table.locator("th").nth(1)).to_have_text(words["values"])
    expect(table.locator("tbody tr")).to_have_count(len(puzzle.answer["choices"]))
    expect(table.locator("tbody tr.is-best td:first-child [data-tile]")).to_have_attribute(
        "data-tile", puzzle.answer["best"])
    no_horizontal_scroll(page, width)
    page.screenshot(path=str(artifacts / f"kinds-discard-{language}-{width}-after.png"),
                    full_page=True)
    assert Attempt.objects.get(puzzle=puzzle).solved
