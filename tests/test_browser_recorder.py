"""Browser test of /record/ on a phone (issue 30): a whole Sichuan hand recorded from one
seat at 390 px, one tap (or a few) per event, each saved to the server; the network drops
mid-hand and comes back, and no event is lost or saved twice. Prints the median time from
a tap to its event saved (docs/recorder.md); nothing is asserted about time.

Run: DATABASE_URL=postgres://... .venv/bin/pytest tests/test_browser_recorder.py -s
"""

from __future__ import annotations

import os
import re
import statistics
from pathlib import Path
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from playwright.sync_api import Browser, Page, expect  # noqa: E402

from games.bots.simulation import simulate  # noqa: E402
from games.records.seat_view import project  # noqa: E402
from replays.models import Match, SeatRecord  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

PHONE = {"width": 390, "height": 844}
SEAT = 0


@pytest.fixture
def site(live_server: Any, transactional_db: None) -> str:
    return str(live_server.url)


def the_hand() -> dict[str, Any]:
    """A bot-played Sichuan hand as seat 0 records it: pungs, an exposed and a concealed kong,
    three wins of others (each laid down) and the recorder's own 定缺."""
    return project(simulate("sichuan", 1, 2), SEAT)


def tap_chip(page: Page, name: str, value: Any) -> None:
    chip = page.locator(f'#rec-form input[name="{name}"][value="{value}"]')
    if not chip.is_checked():
        page.locator(f'#rec-form label:has(input[name="{name}"][value="{value}"])').tap()


def enter(page: Page, event: dict[str, Any]) -> None:
    """One event as a thumb enters it: what happened, who, then the tile (a draw or a
    discard is saved by the tile's tap); claims and wins end with Save."""
    kind = event["type"]
    more = page.locator("#rec-more")
    if kind not in ("draw", "discard") and not more.evaluate("d => d.open"):
        page.locator("#rec-more summary").tap()
    tap_chip(page, "type", kind)
    if kind == "end":
        tap_chip(page, "reason", event["reason"])
        for seat, shown in enumerate(event.get("hands") or []):
            if shown is not None:  # the tiles a player still in the hand shows
                tap_tiles(page, f"rec-shown{seat}", shown)
        page.locator("#rec-save").tap()
        return
    tap_chip(page, "actor", event["actor"])
    if kind == "dingque":
        tap_chip(page, "suit", event["suit"])
    if kind in ("peng", "gang", "hu"):
        tap_chip(page, "target", event.get("target", ""))
    if kind == "gang":
        tap_chip(page, "kind", event["kind"])
    if kind == "hu" and "hand" in event:
        tap_tiles(page, "rec-hand", event["hand"])
    if "tile" in event:
        tap_chip(page, "tile", event["tile"])
    if kind not in ("draw", "discard"):
        page.locator("#rec-save").tap()


def tap_tiles(page: Page, field: str, codes: list[str]) -> None:
    """Tiles laid down, tapped on the page's keyboard for them into ``field`` (chosen first);
    the field then holds their codes and shows them as tiles."""
    page.locator(f"#{field}").tap()
    keyboard = page.locator(".rec-more .rec-keys[data-fills]")
    for code in codes:
        keyboard.locator(f'button[data-code="{code}"]').tap()
    expect(page.locator(f"#{field}")).to_have_value(" ".join(codes))
    expect(page.locator(f'[data-shows="{field}"] .tile')).to_have_count(len(codes))


def saved(page: Page) -> int:
    return int(page.locator("#recorder").get_attribute("data-saved") or 0)


def test_it_records_a_sichuan_hand_from_a_seat_on_a_phone(browser: Browser, site: str,
                                                          artifacts: Path) -> None:
    document = the_hand()
    hand = document["hands"][0]
    events = [{k: v for k, v in e.items() if k != "deltas"} for e in hand["events"]]
    context = browser.new_context(viewport=PHONE, locale="en-US", has_touch=True)
    page = context.new_page()
    page.goto(f"{site}/record/")
    page.select_option("#id_variant", "sichuan")
    page.select_option("#id_seat", str(SEAT))
    page.select_option("#id_dealer", str(hand["dealer"]))
    page.fill("#id_die1", str(hand["dice"][0]))
    page.fill("#id_die2", str(hand["dice"][1]))
    page.fill("#id_players", ", ".join(document["players"]))
    # the seats are chosen by place in the list, and named once the names are typed
    expect(page.locator("#id_dealer option[value='1']")).to_have_text(
        f"the second player listed: {document['players'][1]}")
    for code in hand["deal"][SEAT]:  # the dealt tiles, tapped on the keyboard
        page.locator(f'#rec-start button.rec-key[data-code="{code}"]').tap()
    expect(page.locator("#id_tiles")).to_have_value(" ".join(hand["deal"][SEAT]))
    page.locator(".rec-go").tap()
    expect(page.locator("#recorder")).to_be_visible()

    drop_at = len(events) // 2
    for index, event in enumerate(events):
        if index == drop_at:
            context.set_offline(True)
        enter(page, event)
        if drop_at <= index < drop_at + 6:
            continue  # offline: the events wait on the phone
        if index == drop_at + 6:
            expect(page.locator("#rec-queue")).to_be_visible()
            assert int(page.locator("#recorder").get_attribute("data-waiting") or 0) >= 6
            page.screenshot(path=str(artifacts / "recorder-offline-390.png"))
            context.set_offline(False)
        expect(page.locator("#recorder")).to_have_attribute("data-saved", str(index + 1),
                                                            timeout=15_000)
    expect(page.locator("#recorder")).to_have_attribute("data-waiting", "0")
    times = page.evaluate("() => window.recorderTimes")
    online = times[:drop_at] + times[drop_at + 7:]
    print(f"\nrecorder: {len(times)} events, median tap-to-saved {statistics.median(online):.0f} ms "
          f"online ({len(online)} events), max {max(online)} ms")
    page.screenshot(path=str(artifacts / "recorder-390.png"), full_page=True)

    record = SeatRecord.objects.get()
    assert record.events == [_as_sent(e) for e in events]  # none lost, none twice
    assert record.last_seq == len(events)

    page.locator("#rec-finish button").tap()
    expect(page).to_have_url(re.compile(r"/replays/[\w-]+/$"), timeout=20_000)
    match = Match.objects.get()
    assert page.url == f"{site}/replays/{match.public_id}/"
    assert match.uploader_seat == SEAT
    assert match.hands.get().deltas == hand["events"][-1]["deltas"]
    context.close()
    review(browser, site, match, artifacts)


def review(browser: Browser, site: str, match: Match, artifacts: Path) -> None:
    """The recorded hand's replay, in Chinese on the phone and in English on a desktop."""
    for language, viewport, name in (("zh-hans", PHONE, "zh-390"),
                                     ("en", {"width": 1280, "height": 900}, "en-1280")):
        context = browser.new_context(viewport=viewport, locale="en-US")
        context.add_cookies([{"name": "django_language", "value": language, "url": site}])
        page = context.new_page()
        page.goto(f"{site}/replays/{match.public_id}/?hand=1&step=40")
        note = page.locator("#recorded-from")
        expect(note).to_be_visible()
        expect(note).to_contain_text("座位" if language == "zh-hans" else "seat")
        assert page.locator('.seat [data-tile="back"]').count() > 0  # unseen: face down
        page.screenshot(path=str(artifacts / f"recorder-replay-{name}.png"), full_page=True)
        page.goto(f"{site}/record/")
        page.screenshot(path=str(artifacts / f"recorder-start-{name}.png"), full_page=True)
        context.close()


def _as_sent(event: dict[str, Any]) -> dict[str, Any]:
    """The event as the page sends it (the server keeps what the form says)."""
    return {k: v for k, v in event.items() if k != "from"}  # "from": implied
