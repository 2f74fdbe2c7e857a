"""The home page (issue 27): one sentence of what the site is and its three ways in (play
against the bots, today's puzzle, the replays), in both languages; not repeated over a
filtered, paged or "my uploads" list."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from .test_site_i18n import text_of

pytestmark = pytest.mark.django_db


def ways_in(markup: str) -> list[tuple[str, str]]:
    """The welcome's ways in: (link, its heading)."""
    return [(href, text_of(name)) for href, name in re.findall(
        r'<a class="welcome-way[^"]*" href="([^"]+)"><strong>(.*?)</strong>', markup)]


def test_it_says_what_the_site_is_and_where_to_start(client: Client) -> None:
    markup = client.get("/").content.decode()
    assert "Learn regional Chinese mahjong by playing and replaying it" in text_of(markup)
    assert ways_in(markup) == [("/play/", "Play against the bots"),
                               ("/puzzles/daily/", "Today's puzzle"),
                               ("#replays", "Browse replays")]
    assert 'id="replays"' in markup


def test_it_says_it_in_chinese(client: Client) -> None:
    markup = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "边打边复盘，学会中国地方麻将" in text_of(markup)
    assert [name for _, name in ways_in(markup)] == ["与机器人对局", "今日题目", "浏览牌谱"]


@pytest.mark.parametrize("query", ["?variant=sichuan", "?page=2", "?mine=1"])
def test_it_leaves_the_welcome_out_of_a_filtered_list(client: Client, alice: Any,
                                                      query: str) -> None:
    client.force_login(alice)
    markup = client.get("/" + query).content.decode()
    assert not ways_in(markup)
    assert markup.count("<h1") == 1
