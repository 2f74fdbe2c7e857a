"""The match ledger on a phone (issue 30, docs/ledger.md).

A guest starts a Sichuan ledger at 390 px and taps a hand in; a friend follows the share link
at 1280 px. The phone goes offline and two more hands are tapped in (one with three winners):
they wait on the phone, nothing reaches the server, and when the network is back each is
saved exactly once and pushed to the follower without a reload. One answer is lost on the
way back (the server stored the row, the phone never heard): the retry stores nothing new.
Then an eight-hand ledger with a three-winner hand and an exhausted hand is shown in Chinese
at 390 px and in English at 1280 px (screenshots in test-artifacts/).

The server is the site's ASGI application under daphne (the ledger's WebSocket).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, Route, expect  # noqa: E402

from .test_browser_tables import serve_under_daphne  # noqa: E402
from .test_ledger import EIGHT_HANDS, NAMES  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

PHONE = {"width": 390, "height": 844}
WIDE = {"width": 1280, "height": 900}


@pytest.fixture
def server(transactional_db: None) -> Iterator[str]:
    yield from serve_under_daphne()


def tap(page: Page, name: str, value: str) -> None:
    page.locator(f'label.ledger-chip:has(input[name="{name}"][value="{value}"])').tap()


def open_more(page: Page) -> None:
    for summary in page.locator("details.ledger-more > summary").all():
        if summary.locator("xpath=..").get_attribute("open") is None:
            summary.click()


def rows_stored() -> list[tuple[int, str]]:
    from replays.models.ledger import LedgerRow

    return list(LedgerRow.objects.order_by("number").values_list("number", "client_id"))


def test_it_keeps_rows_tapped_in_offline_and_saves_each_once(browser: Browser,
                                                             server: str) -> None:
    phone = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    page = phone.new_page()
    page.goto(f"{server}/ledger/")
    tap(page, "variant", "sichuan")
    for seat, name in enumerate(NAMES):
        page.fill(f"#ledger-name{seat}", name)
    page.locator(".ledger-go").tap()
    expect(page.locator("h1")).to_contain_text("Match ledger")

    tap(page, "w1", "0")
    tap(page, "w1_from", "1")
    page.fill('input[name="w1_fan"]', "2")
    page.locator(".ledger-add").tap()
    expect(page.locator("#row-1")).to_be_visible()
    expect(page.locator(".ledger-score")).to_contain_text("+2")

    friend = browser.new_context(viewport=WIDE, locale="en-US")
    follower = friend.new_page()
    follower.goto(page.locator(".ledger-share-link").input_value())
    expect(follower.locator("#row-1")).to_be_visible()
    expect(follower.locator("#row-form")).to_have_count(0)

    phone.set_offline(True)
    tap(page, "w1", "2")
    page.fill('input[name="w1_fan"]', "3")  # self-drawn: the default
    page.locator(".ledger-add").tap()
    open_more(page)
    tap(page, "w1", "1")
    page.fill('input[name="w1_fan"]', "1")
    tap(page, "w2", "2")
    tap(page, "w2_from", "0")
    page.fill('input[name="w2_fan"]', "2")
    tap(page, "w3", "3")
    page.fill('input[name="w3_fan"]', "1")
    page.locator(".ledger-add").tap()
    expect(page.locator("[data-pending]")).to_contain_text("2")
    expect(page.locator("[data-offline-note]")).to_be_visible()
    assert len(rows_stored()) == 1
    expect(follower.locator("#row-2")).to_have_count(0)

    phone.set_offline(False)
    expect(page.locator("#row-3")).to_be_visible(timeout=15000)
    expect(page.locator("[data-pending]")).to_be_hidden()
    stored = rows_stored()
    assert [number for number, _id in stored] == [1, 2, 3]
    assert len({client_id for _n, client_id in stored}) == 3
    expect(follower.locator("#row-3")).to_be_visible(timeout=15000)  # pushed, not reloaded
    expect(follower.locator("#row-3")).to_contain_text("Cy")

    # The server stores a row but its answer never reaches the phone: the row stays queued
    # and is sent again; the server answers with the row it has, and stores nothing new.
    lost: list[bool] = []

    def lose_first_answer(route: Route) -> None:
        if not lost:
            lost.append(True)
            route.fetch()
            route.abort()
        else:
            route.continue_()

    page.route("**/rows", lose_first_answer)
    tap(page, "w1", "3")
    tap(page, "w1_from", "0")
    page.fill('input[name="w1_fan"]', "1")
    page.locator(".ledger-add").tap()
    expect(page.locator("#row-4")).to_be_visible(timeout=15000)
    assert [number for number, _id in rows_stored()] == [1, 2, 3, 4]
    assert lost == [True]
    phone.close()
    friend.close()


def _eight_hand_ledger() -> Any:
    from games.variants.registry import VARIANTS
    from replays.ledger import rows
    from replays.models.ledger import Ledger, LedgerRow

    sichuan = VARIANTS["sichuan"]
    ledger = Ledger.objects.create(variant="sichuan", preset="chengdu", device="d" * 32,
                                   rules={**{k: v for k, v in sichuan.PRESETS["chengdu"]
                                             .rules.items() if k in sichuan.OPTIONS},
                                          "base": 1},
                                   names=["阿安", "博文", "小慈", "迪迪"])
    for number, fields in enumerate(EIGHT_HANDS, start=1):
        LedgerRow.objects.create(ledger=ledger, number=number, client_id=f"shot-{number}",
                                 record=rows.read_form(sichuan, fields))
    return ledger


def test_it_shows_an_eight_hand_sichuan_ledger_in_both_languages(
        browser: Browser, server: str, artifacts: Path) -> None:
    ledger = _eight_hand_ledger()
    for name, viewport, language in (("ledger-390-zh", PHONE, "zh-hans"),
                                     ("ledger-1280-en", WIDE, "en")):
        context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)
        context.add_cookies([
            {"name": "django_language", "value": language, "url": server},
            {"name": "ledger_device", "value": "d" * 32, "url": server}])
        page = context.new_page()
        page.goto(f"{server}{ledger.get_absolute_url()}")
        expect(page.locator("#row-8")).to_be_visible()
        expect(page.locator("#row-2 .ledger-event")).to_have_count(4)  # a kong, three wins
        settle = page.locator(".ledger-settle")
        expect(settle).to_contain_text("结清" if language != "en" else "Settle up")
        page.locator("#row-4 details.ledger-lines > summary").click()
        expect(page.locator("#row-4")).to_contain_text("SC-6.4a")
        page.screenshot(path=str(artifacts / f"{name}.png"), full_page=True)
        page.locator(".ledger-totals").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}-totals.png"))
        page.locator("#row-4").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / f"{name}-exhausted.png"))
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(artifacts / f"{name}-top.png"))
        open_more(page)
        page.locator("#row-form").screenshot(path=str(artifacts / f"{name}-form.png"))
        page.goto(f"{server}/ledger/")
        expect(page.locator(".ledger-list")).to_contain_text("阿安")
        page.screenshot(path=str(artifacts / f"{name}-index.png"), full_page=True)
        context.close()
