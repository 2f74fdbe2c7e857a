"""Error pages read as the site's, in the reader's language: a dead link gets the site's
header and a way on, and a server error a plain page in both languages that needs nothing
from the request (it may be what broke)."""

from __future__ import annotations

from django.template.loader import get_template
from django.test import Client

from tests.test_puzzle_site import text_of


def test_it_answers_a_dead_link_with_the_sites_page(db: None, client: Client) -> None:
    response = client.get("/replays/nosuchreplay/")
    assert response.status_code == 404
    text = text_of(response.content.decode())
    assert "Page not found" in text and "may have been deleted or made private" in text
    assert 'class="site-header"' in response.content.decode()
    assert "Browse the replays" in text and "Today's puzzle" in text


def test_it_says_so_in_chinese(db: None, client: Client) -> None:
    response = client.get("/puzzles/nosuchpuzzle/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 404
    text = text_of(response.content.decode())
    assert "找不到页面" in text and "浏览牌谱" in text
    assert "Page not found" not in text


def test_the_server_error_page_needs_no_request() -> None:
    markup = get_template("500.html").render({})
    assert "Something went wrong on our side" in markup and "服务器出错了" in markup
    assert "css/site.css" in markup
