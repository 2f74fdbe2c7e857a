"""axe-core on the site's pages (issue 32): twenty-four page states, each in English and Chinese
at 390 and 1280 px, with no violation of any rule axe runs by default (WCAG 2.x A and AA,
and its best practices). axe-core comes bundled in the pinned ``axe-playwright-python``
test dependency (docs/accessibility.md, "Tests").

One browser page per state: the language is the ``django_language`` cookie and the width
the viewport, so the state is reached once and shown four ways (a reload, or the clicks
that open it again). A failure lists each violation with its elements and axe's summary.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"

from axe_playwright_python.sync_playwright import Axe  # noqa: E402
from django.test import Client  # noqa: E402
from playwright.sync_api import Browser, Page  # noqa: E402

from .conftest import bot_document  # noqa: E402

pytestmark = [pytest.mark.browser,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

WIDTHS = (390, 1280)
LANGUAGES = ("en", "zh-hans")
PLAY_SEED = "tablepage-sichuan-0"  # tests/test_play_table_page.py: a pung offered early
AXE = Axe()


@dataclass
class Visit:
    """Where a state is: its address, the session the browser takes over (a player's
    table, a staff account) and what to do once the page is there."""

    path: str
    session: Client | None = None
    then: Callable[[Page], None] | None = None
    cookies: list[dict[str, Any]] = field(default_factory=list)


def stored(**options: Any) -> Any:
    from replays.matches.services import store_document

    return store_document(bot_document(7, variant="sichuan", hands=1), title="Axe", **options)


def valued(alice: Any) -> Any:
    """A one-hand Sichuan match analysed and valued for its owner's seat (few samples)."""
    from django.db import transaction
    from django.test.utils import override_settings

    with override_settings(VALUES_AFTER_ANNOTATION=True, VALUES_SOLO_SAMPLES=20,
                           VALUES_TABLE_SAMPLES=4), transaction.atomic():
        return stored(owner=alice, uploader_seat=0)


def played_to(done: Callable[[dict[str, Any]], bool]) -> Visit:
    """A one-player Sichuan table (the bots' seed fixed) played by the tests' mouse until
    ``done`` holds; the browser takes the player's session over."""
    from tests.test_play_table_page import play_until, start

    player = Client()
    pid = start(player)
    play_until(player, pid, done, limit=400)
    return Visit(f"/play/{pid}/", session=player)


def is_discard(view: dict[str, Any]) -> bool:
    return any(action["type"] == "discard" for action in view["legal"])


def is_claim(view: dict[str, Any]) -> bool:
    return (view["decision"] or {}).get("kind") == "claim"


def open_every_details(page: Page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")


def answer_the_puzzle(page: Page) -> None:
    """The daily puzzle answered (its first tile picked): the verdict swaps in, and a reload
    shows it again."""
    if page.locator("#puzzle-form").count():
        page.locator("label.pick").first.click()
        page.locator("#puzzle-form button[type=submit]").first.click()
        page.locator("#answer h2").wait_for()


def match_visit(step: int | None = 12) -> Visit:
    """A replay at ``step`` (None: its hand's end, with the settlement)."""
    match = stored()
    last = match.hands.get(number=1).event_count
    return Visit(f"{match.get_absolute_url()}?step={last if step is None else step}")


def values_visit(django_user_model: Any) -> Visit:
    from replays.models import HandValues

    alice = django_user_model.objects.create_user("alice")
    match = valued(alice)
    decision = HandValues.objects.get(hand__match=match).data[0]
    owner = Client()
    owner.force_login(alice)
    return Visit(f"{match.get_absolute_url()}?hand=1&step={decision['event'] - 1}&seat=0",
                 session=owner, then=open_every_details)


def room_visit() -> Visit:
    host = Client()
    response = host.post("/tables/", {"variant": "sichuan", "humans": 2, "hands": 1,
                                      "name": "Alice", "decision_seconds": 20,
                                      "bank_seconds": 30})
    assert response.status_code == 302, response.content[:500]
    return Visit(str(response["Location"]), session=host)


def staff_visit(django_user_model: Any) -> Visit:
    stored()
    staff = Client()
    staff.force_login(django_user_model.objects.create_user("sam", is_staff=True))
    return Visit("/dashboard/", session=staff)


def ledger_visit() -> Visit:
    """A guest's Sichuan ledger with a three-winner hand and an exhausted one (issue 30)."""
    keeper = Client()
    names = {f"name{seat}": name for seat, name in enumerate(("Ada", "Bo", "Cy", "Di"))}
    created = keeper.post("/ledger/new", {"variant": "sichuan", "preset": "sichuan:chengdu",
                                          "base": "1", **names})
    assert created.status_code == 302, created.content[:500]
    rows = ({"w1": "1", "w1_from": "self", "w1_fan": "3", "w2": "2", "w2_from": "3",
             "w2_fan": "1", "w3": "3", "w3_from": "self", "w3_fan": "2"},
            {"x0": "pig", "x1": "ready", "x1_fan": "2", "x2": "ready", "x2_fan": "1"})
    for number, row in enumerate(rows):
        added = keeper.post(f"{created['Location']}rows", {"client_id": f"axe-row-{number}",
                                                           **row},
                            HTTP_ACCEPT="application/json")
        assert added.status_code in (200, 201), added.content[:500]
    return Visit(str(created["Location"]), session=keeper)


def recording_visit() -> Visit:
    """A hand being recorded from the dealer's seat, a few events in (issue 30)."""
    from games.bots.simulation import simulate
    from games.records.seat_view import project

    document = project(simulate("sichuan", 1, 5), 0)
    hand = document["hands"][0]
    recorder = Client()
    started = recorder.post("/record/", {
        "variant": "sichuan", "seat": 0, "dealer": hand["dealer"], "die1": hand["dice"][0],
        "die2": hand["dice"][1], "players": ", ".join(document["players"]),
        "tiles": " ".join(hand["deal"][0])})
    assert started.status_code == 302, started.content[:500]
    for seq, event in enumerate(hand["events"][:6]):
        saved = recorder.post(f"{started['Location']}events/",
                              json.dumps({"seq": seq, "event": event}),
                              content_type="application/json")
        assert saved.status_code in (200, 201), saved.content[:500]
    return Visit(str(started["Location"]), session=recorder)


SCORED = "/score/?v=sichuan&h=11122233345699m&w=9m&how=self_draw&seat=S&void=p"

STATES: dict[str, Callable[[Any], Visit]] = {
    "home": lambda users: Visit("/"),
    "rules": lambda users: Visit("/rules/jiaxing/"),
    "upload": lambda users: Visit("/upload/"),
    "library": lambda users: (stored(), Visit("/?variant=sichuan"))[1],
    "viewer-step": lambda users: match_visit(),
    "viewer-hand-end": lambda users: match_visit(None),
    "viewer-values-open": values_visit,
    "play-form": lambda users: Visit("/play/"),
    "play-discard": lambda users: played_to(is_discard),
    "play-claim": lambda users: played_to(is_claim),
    "play-hand-end": lambda users: played_to(lambda view: bool(view["over"])),
    "tables-lobby": lambda users: Visit("/tables/"),
    "table-room": lambda users: room_visit(),
    "puzzles-list": lambda users: Visit("/puzzles/"),
    "puzzle": lambda users: Visit("/puzzles/daily/?variant=sichuan"),
    "puzzle-answered": lambda users: Visit("/puzzles/daily/?variant=sichuan",
                                           then=answer_the_puzzle),
    "score-result": lambda users: Visit(SCORED),
    "log-in": lambda users: Visit("/accounts/login/"),
    "sign-up": lambda users: Visit("/accounts/signup/"),
    "dashboard": staff_visit,
    "ledger": lambda users: ledger_visit(),
    "record-form": lambda users: Visit("/record/"),
    "recording": lambda users: recording_visit(),
    "bots": lambda users: Visit("/bots/"),
}


def readable(violations: list[dict[str, Any]]) -> str:
    """axe's violations as lines a person reads: the rule, its impact and help, then each
    element with what to fix."""
    lines = []
    for violation in violations:
        lines.append(f"{violation['id']} ({violation['impact']}): {violation['help']}")
        for node in violation["nodes"][:6]:
            summary = " ".join(node.get("failureSummary", "").split())
            lines.append(f"    {json.dumps(node['target'])}: {summary[:300]}")
        if len(violation["nodes"]) > 6:
            lines.append(f"    … and {len(violation['nodes']) - 6} more")
    return "\n".join(lines)


def session_cookies(visit: Visit, url: str) -> list[dict[str, Any]]:
    if visit.session is None:
        return []
    return [{"name": name, "value": morsel.value, "url": url}
            for name, morsel in visit.session.cookies.items()]


@pytest.mark.parametrize("state", list(STATES))
def test_it_finds_no_axe_violation(browser: Browser, live_server: Any, transactional_db: None,
                                   django_user_model: Any, monkeypatch: pytest.MonkeyPatch,
                                   state: str) -> None:
    monkeypatch.setattr("replays.play.services.new_seed", lambda: PLAY_SEED)
    monkeypatch.setattr("replays.puzzles.services.puzzle_day",
                        lambda moment=None: __import__("datetime").date(2026, 11, 30))
    visit = STATES[state](django_user_model)
    url = str(live_server.url)
    context = browser.new_context(locale="en-US")
    context.add_cookies(session_cookies(visit, url))
    page = context.new_page()
    found = []
    try:
        for language in LANGUAGES:
            context.add_cookies([{"name": "django_language", "value": language, "url": url}])
            for width in WIDTHS:
                page.set_viewport_size({"width": width, "height": 800})
                response = page.goto(url + visit.path)
                assert response is not None and response.ok, (state, language, response)
                if visit.then:
                    visit.then(page)
                assert page.locator("html").get_attribute("lang") == language
                violations = AXE.run(page).response["violations"]
                if violations:
                    found.append(f"{state}, {language}, {width} px:\n{readable(violations)}")
    finally:
        context.close()
    assert not found, "\n\n".join(found)
