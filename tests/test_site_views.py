"""The site's pages: browse, the step-through viewer, downloads, rules pages and accounts.

alice owns matches, bob is another logged-in user, charlie is anonymous (the bare
``client``); the fixtures and ``make_match`` are in ``conftest.py``.
"""

from __future__ import annotations

import html
import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from games.records.log import loads
from games.records.match import replay
from games.variants.registry import VARIANTS
from replays.matches.option_labels import option_label
from replays.models import Match
from replays.tile_names import tile_name

from .conftest import PASSWORD, bot_document, with_password

HTMX = {"HX-Request": "true"}


def titles(response: Any) -> list[str]:
    """The titles of the matches a browse page lists, in order."""
    assert response.status_code == 200
    found = re.findall(r'<a class="match-title" href="[^"]*">(.*?)</a>',
                       response.content.decode())
    return [html.unescape(title) for title in found]


def text_of(markup: str) -> str:
    """What a reader sees: the markup without tags, entities decoded, spaces collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def counter(response: Any) -> str:
    """The viewer's "Hand h/H · step s/S" line."""
    assert response.status_code == 200
    found = re.search(r'<span class="step-counter">(.*?)</span>', response.content.decode(),
                      re.S)
    assert found, "no step counter"
    return text_of(found.group(1))


def seats(response: Any) -> dict[int, str]:
    """Each seat's ``<section>`` of the board, by seat number."""
    content = response.content.decode()
    found = re.findall(r'<section class="seat seat-(\d)[^"]*"[^>]*>(.*?)</section>', content,
                       re.S)
    assert len(found) == 4, "the board has four seats"
    return {int(seat): body for seat, body in found}


def concealed(section: str) -> str:
    """The concealed hand of one seat's section."""
    found = re.search(r'<div class="seat-hand tiles">(.*?)</div>', section, re.S)
    assert found
    return found.group(1)


def event_line(response: Any) -> str:
    found = re.search(r'<p class="event-line"[^>]*>(.*?)</p>', response.content.decode(), re.S)
    assert found
    return text_of(found.group(1))


def control_links(response: Any) -> list[str]:
    """Every ``<a>`` tag of the replay controls."""
    found = re.search(r'<nav class="controls".*?</nav>', response.content.decode(), re.S)
    assert found, "no controls"
    return re.findall(r"<a\s[^>]*>", found.group(0))


def attribute(tag: str, name: str) -> str | None:
    found = re.search(rf'\s{name}="([^"]*)"', tag)
    return html.unescape(found.group(1)) if found else None


# -- browse ---------------------------------------------------------------------------


def test_it_lists_public_matches_newest_first(client: Client, make_match: Any) -> None:
    make_match(title="First")
    make_match(title="Second")
    make_match(title="Third")

    assert titles(client.get("/")) == ["Third", "Second", "First"]


def test_it_hides_unlisted_private_and_hidden_matches(client: Client, alice: Any,
                                                      make_match: Any) -> None:
    make_match(alice, title="Public one")
    make_match(alice, title="Unlisted one", visibility="unlisted")
    make_match(alice, title="Private one", visibility="private")
    make_match(alice, title="Hidden one", hidden=True)

    assert titles(client.get("/")) == ["Public one"]
    client.force_login(alice)
    assert titles(client.get("/")) == ["Public one"]


def test_it_filters_by_variant(client: Client, make_match: Any) -> None:
    make_match(title="Sichuan match", variant="sichuan")
    make_match(title="Jiaxing match", variant="jiaxing")
    make_match(title="Putian match", variant="putian")

    assert titles(client.get("/", {"variant": "jiaxing"})) == ["Jiaxing match"]
    assert titles(client.get("/", {"variant": "putian"})) == ["Putian match"]
    assert titles(client.get("/", {"variant": "sichuan"})) == ["Sichuan match"]
    assert len(titles(client.get("/", {"variant": ""}))) == 3


def test_it_searches_player_names_case_insensitively(client: Client, make_match: Any) -> None:
    make_match(title="With Wong", players=("Ivy", "Mei Wong", "Kai", "Lan"))
    make_match(title="Without", players=("Ivy", "Jun", "Kai", "Lan"))

    assert titles(client.get("/", {"q": "wong"})) == ["With Wong"]
    assert titles(client.get("/", {"q": "WONG"})) == ["With Wong"]
    assert titles(client.get("/", {"q": "mei w"})) == ["With Wong"]
    assert titles(client.get("/", {"q": "ivy"})) == ["Without", "With Wong"]
    response = client.get("/", {"q": "nobody"})
    assert titles(response) == []
    assert "No replays match." in response.content.decode()


def test_it_filters_by_date_range(client: Client, make_match: Any) -> None:
    make_match(title="January", played_at="2024-01-10T12:00:00+00:00")
    make_match(title="February", played_at="2024-02-10T12:00:00+00:00")
    make_match(title="March", played_at="2024-03-10T12:00:00+00:00")
    make_match(title="Undated")  # no played_at: its upload date (today) counts

    assert titles(client.get("/", {"since": "2024-02-01"})) == ["Undated", "March", "February"]
    assert titles(client.get("/", {"until": "2024-02-29"})) == ["February", "January"]
    assert titles(client.get("/", {"since": "2024-02-10", "until": "2024-02-10"})) == [
        "February"]
    assert titles(client.get("/", {"since": "2024-04-01", "until": "2025-01-01"})) == []
    today = timezone.now().date()
    assert titles(client.get("/", {"since": today.isoformat()})) == ["Undated"]
    tomorrow = today + timedelta(days=1)
    assert titles(client.get("/", {"since": tomorrow.isoformat()})) == []


def test_it_combines_filters(client: Client, make_match: Any) -> None:
    make_match(title="Old jiaxing", variant="jiaxing", played_at="2024-01-10T12:00:00+00:00")
    make_match(title="New jiaxing", variant="jiaxing", played_at="2024-06-10T12:00:00+00:00")
    make_match(title="New sichuan", variant="sichuan", played_at="2024-06-10T12:00:00+00:00")

    response = client.get("/", {"variant": "jiaxing", "since": "2024-03-01", "q": "ada"})
    assert titles(response) == ["New jiaxing"]


def test_it_paginates(client: Client, make_match: Any) -> None:
    for number in range(21):
        make_match(title=f"Match {number:02}")

    first = client.get("/")
    assert titles(first) == [f"Match {number:02}" for number in range(20, 0, -1)]
    assert "Page 1 of 2" in first.content.decode()
    assert 'href="?page=2"' in first.content.decode()

    second = client.get("/", {"page": "2"})
    assert titles(second) == ["Match 00"]
    assert "Page 2 of 2" in second.content.decode()
    assert 'href="?page=1"' in second.content.decode()


def test_it_keeps_the_filters_in_the_page_links(client: Client, make_match: Any) -> None:
    for number in range(21):
        make_match(title=f"Match {number:02}")

    content = client.get("/", {"variant": "sichuan"}).content.decode()
    assert 'href="?variant=sichuan&amp;page=2"' in content


@pytest.mark.parametrize("query", [
    "page=abc", "page=-1", "page=0", "page=99999", "page=" + "9" * 5000, "q=%00", "q=a%00b",
    "q=" + "x" * 1000, "q=%25", "q=_", "since=garbage", "since=2024-02-30", "until=9999-12-31",
    "since=0001-01-01", "variant=riichi", "variant=%3Cscript%3E", "mine=1", "mine=yes",
    "since=2024-01-01&until=2023-01-01",
])
def test_it_survives_odd_browse_parameters(client: Client, make_match: Any, query: str) -> None:
    make_match(title="Listed")

    response = client.get(f"/?{query}")
    assert response.status_code == 200
    assert "<script>" not in response.content.decode().split("<main", 1)[1]


def test_it_tells_when_filters_are_ignored(client: Client, make_match: Any) -> None:
    make_match(title="Listed")

    response = client.get("/", {"since": "not a date"})
    assert titles(response) == ["Listed"]
    assert "Some filters were not understood" in response.content.decode()


def test_it_lists_my_uploads_including_private_and_unlisted(client: Client, alice: Any,
                                                             bob: Any, make_match: Any) -> None:
    make_match(alice, title="Alice public")
    make_match(alice, title="Alice unlisted", visibility="unlisted")
    make_match(alice, title="Alice private", visibility="private")
    make_match(bob, title="Bob public")
    make_match(bob, title="Bob private", visibility="private")

    client.force_login(alice)
    response = client.get("/", {"mine": "1"})
    assert titles(response) == ["Alice private", "Alice unlisted", "Alice public"]
    content = response.content.decode()
    assert "My uploads" in content
    assert "Private: only me" in content
    assert "Unlisted: anyone with the link" in content


def test_it_filters_my_uploads(client: Client, alice: Any, make_match: Any) -> None:
    make_match(alice, title="Alice sichuan", visibility="private")
    make_match(alice, title="Alice jiaxing", visibility="private", variant="jiaxing")

    client.force_login(alice)
    response = client.get("/", {"mine": "1", "variant": "jiaxing"})
    assert titles(response) == ["Alice jiaxing"]


# -- the viewer -------------------------------------------------------------------------

# Sichuan, bots' seed 2, two hands: hand 1 has 82 events and ends with three wins.
SEED = 2


@pytest.fixture
def match(make_match: Any) -> Match:
    return make_match(seed=SEED, hands=2, title="Seed two")


def document_of(match: Match) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(bytes(match.document))
    return data


def test_it_shows_the_deal_at_step_0(client: Client, match: Match) -> None:
    response = client.get(match.get_absolute_url())

    events = document_of(match)["hands"][0]["events"]
    assert counter(response) == f"Hand 1/2 · step 0/{len(events)}"
    assert event_line(response) == "The deal"
    deal = document_of(match)["hands"][0]["deal"]
    for seat, section in seats(response).items():
        assert concealed(section).count('class="tile') == len(deal[seat])
        assert 'data-tile="back"' not in section
    assert "Settlement" not in response.content.decode()


def test_it_shows_a_middle_step(client: Client, match: Match) -> None:
    hand = document_of(match)["hands"][0]
    players = document_of(match)["players"]
    step = 9
    event = hand["events"][step - 1]
    assert event["type"] == "discard"

    response = client.get(match.get_absolute_url(), {"hand": 1, "step": step})

    assert counter(response) == f"Hand 1/2 · step {step}/{len(hand['events'])}"
    assert event_line(response) == f"{players[event['actor']]} discards {tile_name(event['tile'])}"
    river = re.search(rf'<div class="seat-river [^"]*" data-seat="{event["actor"]}"[^>]*>'
                      r'.*?<div class="river-tiles tiles">(.*?)</div>',
                      response.content.decode(), re.S)
    assert river and "is-last" in river.group(1)
    assert f'data-tile="{event["tile"]}"' in river.group(1).rsplit('<span class="', 1)[1]
    assert "Settlement" not in response.content.decode()


def test_it_shows_the_settlement_at_the_last_step(client: Client, match: Match) -> None:
    document = document_of(match)
    players = document["players"]
    steps = len(document["hands"][0]["events"])
    result = replay(loads(bytes(match.document).decode()))
    played = result.hands[0]
    assert played.wins, "the test needs a hand with wins"

    response = client.get(match.get_absolute_url(), {"hand": 1, "step": steps})

    assert counter(response) == f"Hand 1/2 · step {steps}/{steps}"
    content = response.content.decode()
    settlement = content.split('<section class="settlement">', 1)[1].split("</section>", 1)[0]
    for win in played.wins:
        assert f"<strong>{players[win.seat]}</strong>" in settlement
        for hit in win.score.patterns:
            link = f'<a class="pattern-id" href="/rules/sichuan/#{hit.pattern.id}">'
            assert f"{link}{hit.pattern.id}</a>" in settlement
    # The itemised lines (issue 15): each names its rule and settles each seat's delta exactly.
    lines = content.split('<section class="settlement-lines"', 1)[1].split("</section>", 1)[0]
    rows = re.findall(r'href="/rules/sichuan/#(SC-[\w.]+)">.*?<td class="who"[^>]*>(.*?) → (.*?)</td>\s*'
                      r'<td class="amount"[^>]*>(\d+)</td>', lines, re.S)
    assert rows
    balance = dict.fromkeys(players, 0)
    for _rule, payer, payee, amount in rows:
        balance[html.unescape(payer)] -= int(amount)
        balance[html.unescape(payee)] += int(amount)
    assert [balance[name] for name in players] == played.deltas
    assert {rule for rule, *_ in rows} & {"SC-6.1", "SC-6.2"}  # the wins are lines
    assert document["hands"][0]["events"][-1]["deltas"] == played.deltas


def test_it_shows_the_second_hand(client: Client, match: Match) -> None:
    steps = len(document_of(match)["hands"][1]["events"])

    response = client.get(match.get_absolute_url(), {"hand": 2, "step": 3})

    assert counter(response) == f"Hand 2/2 · step 3/{steps}"


@pytest.mark.parametrize(("query", "hand", "step"), [
    ({"hand": "0"}, 1, 0),
    ({"hand": "-3"}, 1, 0),
    ({"hand": "3"}, 2, 0),
    ({"hand": "99999999999999999999999999"}, 2, 0),
    ({"hand": "abc"}, 1, 0),
    ({"hand": "1.5"}, 1, 0),
    ({"hand": ""}, 1, 0),
    ({"hand": "\x00"}, 1, 0),
    ({"hand": "9" * 5000}, 1, 0),
    ({"step": "-1"}, 1, 0),
    ({"step": "100000"}, 1, "last"),
    ({"step": "1e3"}, 1, 0),
    ({"step": "abc"}, 1, 0),
    ({"step": "NaN"}, 1, 0),
    ({"step": "-99999999999999999999999999"}, 1, 0),
    ({"hand": "2", "step": "100000"}, 2, "last"),
    ({"hand": "2", "step": "x"}, 2, 0),
    ({"seat": "9"}, 1, 0),
    ({"seat": "-1"}, 1, 0),
    ({"seat": "abc"}, 1, 0),
    ({"seat": "99999999999999999999999999"}, 1, 0),
    ({"seat": "2.0"}, 1, 0),
    ({"hand": ["1", "2"], "step": ["3", "4"]}, 2, 4),
])
def test_it_clamps_hand_step_and_seat(client: Client, match: Match, query: dict[str, Any],
                                      hand: int, step: int | str) -> None:
    steps = len(document_of(match)["hands"][hand - 1]["events"])
    expected = steps if step == "last" else step

    for headers in ({}, HTMX):
        response = client.get(match.get_absolute_url(), query, headers=headers)
        assert counter(response) == f"Hand {hand}/2 · step {expected}/{steps}"


@pytest.mark.parametrize("seat", ["9", "-1", "abc", "4"])
def test_it_shows_every_seat_for_an_unknown_seat(client: Client, match: Match,
                                                 seat: str) -> None:
    response = client.get(match.get_absolute_url(), {"step": 20, "seat": seat})

    assert response.status_code == 200
    assert 'data-tile="back"' not in response.content.decode()


def test_it_returns_only_the_board_to_htmx(client: Client, match: Match) -> None:
    response = client.get(match.get_absolute_url(), {"step": 9}, headers=HTMX)

    assert response.status_code == 200
    content = response.content.decode()
    assert "<html" not in content
    assert "<title>" not in content
    assert "site-header" not in content
    assert content.strip().startswith('<div id="board-wrap">')
    assert 'id="board"' in content
    assert counter(response).startswith("Hand 1/2 · step 9/")


def test_it_returns_the_whole_page_without_htmx(client: Client, match: Match) -> None:
    response = client.get(match.get_absolute_url(), {"step": 9})

    content = response.content.decode()
    assert "<html" in content
    assert '<div id="board-wrap">' in content
    assert "Seed two" in content


def test_it_varies_the_viewer_on_the_htmx_header(client: Client, match: Match) -> None:
    """One URL answers a page or a fragment depending on HX-Request, so caches (and the
    browser's back button) must key on that header too (htmx docs, "Caching")."""
    for headers in ({}, HTMX):
        response = client.get(match.get_absolute_url(), {"step": 3}, headers=headers)
        vary = {value.strip().lower() for value in response.get("Vary", "").split(",")}
        assert "hx-request" in vary, response.get("Vary")


@pytest.mark.parametrize("query", [
    {"hand": 1, "step": 9}, {"hand": 2, "step": 5}, {"hand": 1, "step": 9, "seat": 2},
    {"hand": 1, "step": 0}, {"hand": 2, "step": 100000, "seat": 0},
])
@pytest.mark.parametrize("headers", [{}, HTMX], ids=["page", "htmx"])
def test_it_boosts_every_control_link_from_the_nav(
        client: Client, match: Match, query: dict[str, Any], headers: dict[str, str]) -> None:
    """The nav says once how its links load (hx-boost, into #board-wrap, replacing the
    history entry); the links are plain links that inherit it, and only a hand's links push
    a new entry (so Back leaves a hand instead of walking back through its steps)."""
    response = client.get(match.get_absolute_url(), query, headers=headers)

    nav = re.search(r'<nav class="controls"[^>]*>', response.content.decode())
    assert nav, "no controls"
    assert attribute(nav.group(0), "hx-boost") == "true"
    assert attribute(nav.group(0), "hx-target") == "#board-wrap"
    assert attribute(nav.group(0), "hx-replace-url") == "true"
    assert attribute(nav.group(0), "hx-push-url") is None
    links = control_links(response)
    assert len(links) >= 6  # at least a step link, "all" and the four seats
    for tag in links:
        href = attribute(tag, "href")
        assert href, tag
        assert attribute(tag, "hx-get") is None, tag
        pushes = attribute(tag, "data-key") in ("[", "]")
        assert attribute(tag, "hx-push-url") == ("true" if pushes else None), tag
        assert client.get(href, headers=HTMX).status_code == 200, href


def test_it_links_the_neighbouring_steps_and_hands(client: Client, match: Match) -> None:
    base = match.get_absolute_url()
    steps = len(document_of(match)["hands"][0]["events"])

    hrefs = {attribute(tag, "href") for tag in control_links(client.get(base, {"step": 9}))}

    for expected in (f"{base}?hand=1&step=0", f"{base}?hand=1&step=8",
                     f"{base}?hand=1&step=10", f"{base}?hand=1&step={steps}",
                     f"{base}?hand=2&step=0", f"{base}?hand=1&step=9&seat=2"):
        assert expected in hrefs


def test_it_hides_the_other_seats_concealed_tiles(client: Client, match: Match) -> None:
    response = client.get(match.get_absolute_url(), {"hand": 1, "step": 20, "seat": 2})

    by_seat = seats(response)
    mine = concealed(by_seat[2])
    assert 'class="tile' in mine
    assert 'data-tile="back"' not in mine
    for seat in (0, 1, 3):
        hand = concealed(by_seat[seat])
        tiles = hand.count('class="tile')
        assert tiles >= 10
        assert hand.count('data-tile="back"') == tiles
        assert "title=" not in hand  # a hidden tile doesn't name itself
    # discards stay visible to everyone
    for seat in (0, 1, 3):
        river = re.search(rf'<div class="seat-river [^"]*" data-seat="{seat}"[^>]*>'
                          r'.*?<div class="river-tiles tiles">(.*?)</div>',
                          response.content.decode(), re.S)
        assert river and 'data-tile="back"' not in river.group(1)
    assert 'aria-current="true">Kai</a>' in response.content.decode()


def test_it_does_not_mark_the_golds_among_another_seats_face_down_tiles(
        client: Client, db: None) -> None:
    """PT-2: viewed as one seat, another seat's concealed golds are backs like the rest —
    no gold mark, or the backs would tell how many golds that hand holds."""
    from games.records.match import Replayer
    from replays.matches.services import store_document

    raw = bot_document(3, variant="putian", hands=1)
    stored = store_document(raw)
    log = loads(raw.decode())
    table = Replayer(log).begin(1, log.hands[0])
    found = None
    for step, event in enumerate(log.hands[0].events, start=1):
        holders = [seat for seat in range(1, 4) if any(
            table.seats[seat].hand[kind] for kind in table.setup.wildcards)]
        if holders and event.type != "end":
            found = (step - 1, holders[0])
            break
        if event.type == "end":
            break
        table.apply(event)
    assert found is not None, "a seat other than 0 holds a gold at some step"
    step, holder = found
    response = client.get(stored.get_absolute_url(), {"hand": 1, "step": step, "seat": 0})
    hand = concealed(seats(response)[holder])
    assert hand.count('data-tile="back"') >= 16
    assert "is-wild" not in hand
    shown = client.get(stored.get_absolute_url(), {"hand": 1, "step": step})
    assert "is-wild" in concealed(seats(shown)[holder])  # every seat shown: golds marked


def test_it_hides_the_other_seats_tiles_in_the_htmx_fragment(client: Client,
                                                             match: Match) -> None:
    response = client.get(match.get_absolute_url(), {"hand": 1, "step": 20, "seat": 2},
                          headers=HTMX)

    by_seat = seats(response)
    assert 'data-tile="back"' not in concealed(by_seat[2])
    assert 'data-tile="back"' in concealed(by_seat[0])


def test_it_does_not_name_another_seats_draw_when_viewing_as_a_seat(client: Client,
                                                                   match: Match) -> None:
    """Viewing as seat 2 hides the others' concealed tiles, so the event line must not
    tell which tile another seat drew either."""
    events = document_of(match)["hands"][0]["events"]
    step = next(number for number, event in enumerate(events, 1)
                if event["type"] == "draw" and event["actor"] != 2)
    tile = events[step - 1]["tile"]

    response = client.get(match.get_absolute_url(), {"hand": 1, "step": step, "seat": 2})

    assert tile not in event_line(response)


def test_it_shows_every_hand_without_a_seat(client: Client, match: Match) -> None:
    response = client.get(match.get_absolute_url(), {"hand": 1, "step": 20})

    assert 'data-tile="back"' not in response.content.decode()


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_renders_steps_of_every_variant(client: Client, make_match: Any,
                                           variant: str) -> None:
    match = make_match(variant=variant, seed=3)
    steps = match.hands.get(number=1).event_count

    for step in [*range(0, steps + 1, 7), steps]:
        for seat in ("", "1"):
            response = client.get(match.get_absolute_url(), {"step": step, "seat": seat},
                                  headers=HTMX)
            assert counter(response) == f"Hand 1/1 · step {step}/{steps}"
    assert "Settlement" in response.content.decode()


@pytest.mark.parametrize("public_id", ["nope", "a%00b", "%3Cscript%3E", "x" * 100])
def test_it_answers_404_for_an_unknown_replay(client: Client, match: Match,
                                              public_id: str) -> None:
    client.raise_request_exception = False  # a server error is a 500, not an exception

    assert client.get(f"/replays/{public_id}/").status_code == 404
    assert client.get(f"/replays/{public_id}/", headers=HTMX).status_code == 404
    assert client.get(f"/replays/{public_id}/download/").status_code == 404


# -- download -----------------------------------------------------------------------------


def test_it_downloads_the_exact_bytes_uploaded(client: Client, db: None) -> None:
    from replays.matches.services import store_document

    raw = bot_document(7, hands=2).replace(b"\n", b"\r\n") + b"\r\n\r\n"
    match = store_document(raw)

    response = client.get(f"/replays/{match.public_id}/download/")

    assert response.status_code == 200
    assert response.content == raw
    assert response["Content-Type"].startswith("application/json")
    disposition = response["Content-Disposition"]
    assert disposition.startswith("attachment;")
    assert f'filename="match-{match.public_id}.json"' in disposition


def test_it_links_the_download_from_the_viewer(client: Client, match: Match) -> None:
    content = client.get(match.get_absolute_url()).content.decode()

    assert f'href="/replays/{match.public_id}/download/"' in content


# -- rules ---------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_lists_every_pattern_of_the_variant(client: Client, variant: str) -> None:
    response = client.get(f"/rules/{variant}/")

    assert response.status_code == 200
    content = response.content.decode()
    patterns = list(VARIANTS[variant].PATTERNS.values())
    assert patterns
    for pattern in patterns:  # each row its own anchor, the first of a repeated id bare
        assert re.search(rf'<tr id="{re.escape(pattern.id)}(-\d)?"><td class="pattern-id">'
                         rf'<a href="#{re.escape(pattern.id)}(-\d)?">{re.escape(pattern.id)}</a>'
                         r'</td>', content), pattern.id
        assert html.escape(pattern.en) in content
    for option in VARIANTS[variant].OPTIONS:  # named in words, the key kept for scripts
        assert f'<span class="option-name" data-option="{option}">{option_label(option)}</span>' \
            in content


@pytest.mark.parametrize("variant", ["riichi", "Sichuan", "sichuan2", "%00", "x" * 300])
def test_it_answers_404_for_an_unknown_variant(client: Client, variant: str) -> None:
    assert client.get(f"/rules/{variant}/").status_code == 404


# -- accounts -------------------------------------------------------------------------------


def test_it_signs_up_and_logs_in(client: Client, django_user_model: Any) -> None:
    response = client.post("/accounts/signup/", {
        "username": "dora", "password1": PASSWORD, "password2": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert django_user_model.objects.filter(username="dora").exists()
    content = client.get("/").content.decode()
    assert "Log out dora" in content
    assert "Welcome, dora!" in content


def test_it_refuses_a_signup_with_mismatched_passwords(client: Client,
                                                       django_user_model: Any) -> None:
    response = client.post("/accounts/signup/", {
        "username": "dora", "password1": PASSWORD, "password2": PASSWORD + "x"})

    assert response.status_code == 200
    assert not django_user_model.objects.filter(username="dora").exists()
    assert "didn’t match" in response.content.decode() or "didn&#x27;t match" in \
        response.content.decode()


def test_it_refuses_a_taken_username(client: Client, alice: Any,
                                     django_user_model: Any) -> None:
    response = client.post("/accounts/signup/", {
        "username": "alice", "password1": PASSWORD, "password2": PASSWORD})

    assert response.status_code == 200
    assert django_user_model.objects.filter(username="alice").count() == 1
    assert "_auth_user_id" not in client.session


def test_it_shows_the_signup_and_login_forms(client: Client) -> None:
    assert client.get("/accounts/signup/").status_code == 200
    assert client.get("/accounts/login/").status_code == 200


def test_it_logs_in(client: Client, alice: Any) -> None:
    with_password(alice)

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "Log out alice" in client.get("/").content.decode()


@pytest.mark.parametrize("next_url", ["https://evil.example/", "//evil.example/"])
def test_it_stays_on_the_site_after_logging_in(client: Client, alice: Any,
                                               next_url: str) -> None:
    with_password(alice)

    response = client.post("/accounts/login/", {
        "username": "alice", "password": PASSWORD, "next": next_url})

    assert response.status_code == 302
    assert response["Location"] == "/"


def test_it_refuses_a_wrong_password(client: Client, alice: Any) -> None:
    with_password(alice)

    response = client.post("/accounts/login/", {"username": "alice", "password": "nope"})

    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    assert "Log out" not in client.get("/").content.decode()


def test_it_logs_out(client: Client, alice: Any) -> None:
    client.force_login(alice)

    response = client.post("/accounts/logout/")

    assert response.status_code == 302
    assert response["Location"] == "/"
    assert "_auth_user_id" not in client.session
    content = client.get("/").content.decode()
    assert "Log out" not in content
    assert "Log in" in content


def test_it_loads_the_htmx_that_django_htmx_ships(client: Client, db: None) -> None:
    """htmx comes from the pinned django-htmx package (its file names the major version),
    not from a copy of unknown version in static/."""
    scripts = re.findall(r'<script src="([^"]+)"', client.get("/").content.decode())
    assert "/static/django_htmx/htmx-2.min.js" in scripts
    assert not any(src.endswith("/js/htmx.min.js") for src in scripts)
