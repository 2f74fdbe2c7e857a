"""The viewer's danger per tile (``?danger=1``, issue 26): a toggle that works without
JavaScript and as an htmx step, percentages under the viewed seat's tiles, rate-limited per
visitor, in Chinese too."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client, override_settings

HTMX = {"HTTP_HX_REQUEST": "true"}


def _url(match: Any, query: str) -> str:
    return f"/replays/{match.public_id}/?{query}"


def test_it_offers_the_toggle_only_with_one_seat_viewed(client: Client, make_match: Any) -> None:
    match = make_match(seed=11)
    page = client.get(_url(match, "hand=1&step=20")).content.decode()
    assert "danger-toggle" not in page
    page = client.get(_url(match, "hand=1&step=20&seat=1")).content.decode()
    toggle = re.search(r'<a class="danger-toggle" href="([^"]+)">Show danger', page)
    assert toggle is not None
    assert "danger=1" in toggle.group(1).replace("&amp;", "&")
    assert "danger-pct" not in page


def test_it_labels_each_tile_of_the_viewed_seat_with_a_percentage(client: Client,
                                                                   make_match: Any) -> None:
    match = make_match(seed=11)
    page = client.get(_url(match, "hand=1&step=20&seat=1&danger=1")).content.decode()
    labels = re.findall(r'<span class="danger-pct">([^<]+)</span>', page)
    assert labels and all(re.fullmatch(r"(\d{1,3}|<1)%", text.replace("&lt;", "<"))
                          for text in labels)
    assert "Deals in if discarded now" in page
    assert '">Hide danger</a>' in page
    # the step links keep it on, and the toggle turns it off
    assert page.count("danger=1") > 4
    # as an htmx step: the board alone, labelled the same way
    fragment = client.get(_url(match, "hand=1&step=20&seat=1&danger=1"), **HTMX)
    body = fragment.content.decode()
    assert "<html" not in body and "danger-pct" in body


def test_it_says_why_nothing_is_dangerous_in_jiaxing(client: Client, make_match: Any) -> None:
    match = make_match(seed=12, variant="jiaxing")
    page = client.get(_url(match, "hand=1&step=10&seat=0&danger=1")).content.decode()
    assert "JX-5.1" in page
    assert "danger-pct" not in page


@pytest.fixture
def danger_limited() -> Iterator[None]:
    caches["limits"].clear()
    with override_settings(RATE_LIMITS_ENABLED=True, RATE_LIMITS={"danger-visitor": "2/600"}):
        yield
    caches["limits"].clear()


def test_it_limits_the_danger_per_visitor(client: Client, make_match: Any,
                                          danger_limited: None) -> None:
    match = make_match(seed=11)
    for step in (20, 21):
        page = client.get(_url(match, f"hand=1&step={step}&seat=1&danger=1")).content.decode()
        assert "danger-pct" in page
    response = client.get(_url(match, "hand=1&step=22&seat=1&danger=1"))
    page = response.content.decode()
    assert response.status_code == 200  # the board still shows; only the danger waits
    assert "danger-pct" not in page
    assert "showing the danger of tiles" in page
    # the plain board is not counted
    assert client.get(_url(match, "hand=1&step=23&seat=1")).status_code == 200


def test_it_reads_in_chinese(client: Client, make_match: Any) -> None:
    match = make_match(seed=11)
    page = client.get(_url(match, "hand=1&step=20&seat=1&danger=1"),
                      HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "Deals in if discarded now" not in page and "Hide danger" not in page
    assert "隐藏危险度" in page and "现在打出" in page
