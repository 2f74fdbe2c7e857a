"""The viewer as a table: the viewed seat at the bottom, the rivers in the centre labelled by
seat, the winning tile marked, the carried fans counted with their effect, steps that replace
the history entry, and the match overview (hands, results, a chart of the running totals)."""

from __future__ import annotations

import html
import re
from typing import Any

import pytest
from django.test import Client

from replays.matches.board import banked_fans, place_of
from replays.models import Match

PLACES = ("top", "left", "right", "bottom")


def places(response: Any) -> dict[int, str]:
    """Each seat's place on the table, as the board's sections say."""
    found = re.findall(r'<section class="seat seat-(\d) place-(\w+)', response.content.decode())
    assert len(found) == 4, found
    return {int(seat): place for seat, place in found}


def section_order(response: Any) -> list[str]:
    return re.findall(r'<section class="seat seat-\d place-(\w+)', response.content.decode())


@pytest.fixture
def sichuan(make_match: Any) -> Match:
    return make_match(seed=2, hands=2, title="Table")


def test_it_seats_the_next_player_to_the_right() -> None:
    assert [place_of(seat, 0) for seat in range(4)] == ["bottom", "right", "top", "left"]
    assert [place_of(seat, 2) for seat in range(4)] == ["top", "left", "bottom", "right"]


@pytest.mark.parametrize("seat", [0, 1, 2, 3])
def test_it_puts_the_viewed_seat_at_the_bottom(client: Client, sichuan: Match,
                                                seat: int) -> None:
    response = client.get(sichuan.get_absolute_url(), {"step": 10, "seat": seat})

    found = places(response)
    assert found[seat] == "bottom"
    assert found[(seat + 1) % 4] == "right" and found[(seat + 2) % 4] == "top"
    # stacked on a narrow screen from the top of the table round to the viewed seat
    assert section_order(response) == list(PLACES)


def test_it_puts_the_first_seat_or_the_asked_one_at_the_bottom_with_every_seat_shown(
        client: Client, sichuan: Match) -> None:
    assert places(client.get(sichuan.get_absolute_url()))[0] == "bottom"
    response = client.get(sichuan.get_absolute_url(), {"bottom": 3, "step": 4})
    assert places(response)[3] == "bottom"
    # the step links keep that seat at the bottom
    assert f"{sichuan.get_absolute_url()}?hand=1&amp;step=5&amp;bottom=3" in (
        response.content.decode())


def test_it_keeps_the_viewed_seat_at_the_bottom_when_switching_to_every_seat(
        client: Client, sichuan: Match) -> None:
    response = client.get(sichuan.get_absolute_url(), {"step": 4, "seat": 2})
    all_link = re.search(r'<a href="([^"]*)">all</a>', response.content.decode())
    assert all_link and all_link.group(1).endswith("step=4&amp;bottom=2")


def test_it_labels_each_river_with_its_seat(client: Client, sichuan: Match) -> None:
    content = client.get(sichuan.get_absolute_url(), {"step": 12}).content.decode()

    rivers = re.findall(r'<div class="seat-river river-(\w+)" data-seat="(\d)" role="group" '
                        r'aria-label="([^"]*)"><span class="river-name">([^<]*)</span>', content)
    assert sorted(place for place, *_ in rivers) == sorted(PLACES)
    players = sichuan.players
    for _place, seat, label, name in rivers:
        assert name == players[int(seat)]
        assert html.unescape(label) == f"{players[int(seat)]}'s discards"


def test_it_marks_the_winning_tile_in_the_winners_hand(client: Client, sichuan: Match) -> None:
    hand = sichuan.hands.get(number=1)
    win_step = next(i for i, e in enumerate(hand.events, 1) if e["type"] == "hu")
    winner, tile = hand.events[win_step - 1]["actor"], hand.events[win_step - 1]["tile"]

    before = client.get(sichuan.get_absolute_url(), {"step": win_step - 1}).content.decode()
    after = client.get(sichuan.get_absolute_url(), {"step": win_step}).content.decode()

    assert "is-winning" not in before
    section = re.search(rf'<section class="seat seat-{winner} .*?</section>', after, re.S)
    assert section is not None
    winning = re.findall(r'<span class="tile[^"]*is-winning[^"]*" data-tile="(\w+)"',
                         section.group(0))
    assert winning == [tile]
    assert "the winning tile" in section.group(0)


def test_it_counts_each_carried_fan_once_and_says_which_the_next_win_counts() -> None:
    fans = banked_fans(("huangfan", "baozi", "huangfan", "huangfan", "laotouhuang"))
    assert [(fan.pattern.id, fan.count, fan.next_win) for fan in fans] == [
        ("JX-7.4", 3, True), ("JX-7.9", 1, False), ("JX-7.5", 1, False)]


def test_it_shows_the_carried_fans_with_counts_links_and_their_effect(
        client: Client, make_match: Any) -> None:
    # Jiaxing, bots' seed 5: hand 3 starts with 黄番, 包子, 黄番 in the bank.
    match = make_match(seed=5, hands=4, variant="jiaxing")
    content = client.get(match.get_absolute_url(), {"hand": 3}).content.decode()

    chip = re.search(r'<span class="info-item bank-chip">(.*?)</span></span>', content, re.S)
    assert chip, "no carried fans"
    text = " ".join(re.sub(r"<[^>]+>", " ", chip.group(1)).split())
    assert "黄番 ×2" in text and "包子" in text and text.count("黄番") == 2  # once, and in the effect
    assert "the next win counts 黄番: +1 fan" in text
    assert '/rules/jiaxing/#JX-7.4"' in chip.group(1)


def test_it_links_the_overview_and_spoiler_free_mode(client: Client, sichuan: Match) -> None:
    content = client.get(sichuan.get_absolute_url()).content.decode()
    assert f'href="/replays/{sichuan.public_id}/hands/"' in content


def test_it_lists_every_hand_with_dealer_winners_patterns_and_deltas(
        client: Client, sichuan: Match) -> None:
    response = client.get(f"/replays/{sichuan.public_id}/hands/")
    content = response.content.decode()

    assert response.status_code == 200
    rows = re.findall(r'<li class="hand-row" id="hand-(\d+)">(.*?)</li>\s*(?=<li class="hand-row"|'
                      r'</ol>)', content, re.S)
    assert [int(number) for number, _ in rows] == [1, 2]
    totals = [0, 0, 0, 0]
    for (number, row), hand in zip(rows, sichuan.hands.order_by("number"), strict=True):
        assert f"dealer {sichuan.players[hand.dealer]}" in row
        deltas = [int(d) for d in re.findall(
            r'<td class="(?:positive|negative|)">([+-]?\d+)</td>', row)]
        assert deltas == hand.deltas
        totals = [a + b for a, b in zip(totals, hand.deltas, strict=True)]
        assert re.findall(r"total ([+-]?\d+)", row) == [
            f"+{t}" if t > 0 else str(t) for t in totals]
        winners = [e for e in hand.events if e["type"] == "hu"]
        for win in winners:
            assert f"{sichuan.players[win['actor']]} wins on" in row
        if winners:
            assert re.search(r'href="/rules/sichuan/#SC-[\d.]+"', row)
        assert f"?hand={number}&amp;step=0" in row


def test_it_charts_each_players_running_total(client: Client, sichuan: Match) -> None:
    content = client.get(f"/replays/{sichuan.public_id}/hands/").content.decode()

    svg = re.search(r"<svg class=\"chart\".*?</svg>", content, re.S)
    assert svg
    assert svg.group(0).count('class="chart-line"') == 4
    final = [sum(hand.deltas[s] for hand in sichuan.hands.all()) for s in range(4)]
    for seat, name in enumerate(sichuan.players):
        assert f"after hand 2 · {name}: {final[seat]:+d}" in svg.group(0)
        assert name in svg.group(0)


def test_it_answers_404_for_the_overview_of_an_unknown_or_private_match(
        client: Client, make_match: Any, alice: Any) -> None:
    assert client.get("/replays/nope/hands/").status_code == 404
    private = make_match(alice, visibility="private")
    assert client.get(f"/replays/{private.public_id}/hands/").status_code == 404
