"""Accessibility and lighter pages without a browser (issue 32, docs/accessibility.md): pages
and htmx fragments gzipped for clients that accept it; the skip link first in every page;
every navigation landmark named, in both languages; the pages valid HTML (the sign-up page
was not); tile groups named only with a role that takes a name.
"""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import html5lib
import pytest
from django.conf import settings
from django.test import Client

from .conftest import ROOT, bot_document

pytestmark = [pytest.mark.django_db,
              pytest.mark.filterwarnings("ignore:No directory at:UserWarning")]

PAGES = ["/", "/upload/", "/play/", "/tables/", "/puzzles/", "/bots/", "/rules/sichuan/",
         "/score/?v=sichuan&h=11122233345699m&w=9m&how=self_draw&seat=S&void=p",
         "/accounts/login/", "/accounts/signup/"]


TOKEN = re.compile(rb'name="csrfmiddlewaretoken" value="([^"]+)"|"X-CSRFToken": "([^"]+)"')


def without_tokens(html: bytes) -> bytes:
    return TOKEN.sub(b"token", html)


def stored_match() -> str:
    from replays.matches.services import store_document

    match = store_document(bot_document(7, variant="sichuan", hands=1), title="Gzip")
    return str(match.get_absolute_url())


def test_it_gzips_a_page_for_a_client_that_accepts_it(client: Client) -> None:
    plain = client.get("/play/")
    packed = client.get("/play/", HTTP_ACCEPT_ENCODING="gzip, deflate, br")
    assert "Content-Encoding" not in plain
    assert packed["Content-Encoding"] == "gzip"
    assert "Accept-Encoding" in packed["Vary"]
    unpacked = gzip.decompress(packed.content)
    assert without_tokens(unpacked) == without_tokens(plain.content)
    assert len(packed.content) * 3 < len(plain.content)
    # BREACH: the CSRF token is masked afresh in every response, so no secret repeats
    # from one compressed page to the next for an attacker to guess at.
    assert set(TOKEN.findall(unpacked)).isdisjoint(TOKEN.findall(plain.content))


def test_it_gzips_an_htmx_fragment_of_the_viewer(client: Client) -> None:
    url = stored_match()
    fragment = client.get(f"{url}?step=5", HTTP_HX_REQUEST="true",
                          HTTP_ACCEPT_ENCODING="gzip")
    assert fragment.status_code == 200
    assert fragment["Content-Encoding"] == "gzip"
    body = gzip.decompress(fragment.content).decode()
    assert 'id="board-wrap"' in body and "<html" not in body


def test_it_compresses_after_whitenoise_and_before_the_rest() -> None:
    """WhiteNoise answers static files itself (collected ones already compressed), so the
    gzip middleware sits just below it, above everything that reads or writes a body."""
    order = settings.MIDDLEWARE
    gzip_at = order.index("django.middleware.gzip.GZipMiddleware")
    assert gzip_at == order.index("whitenoise.middleware.WhiteNoiseMiddleware") + 1
    assert gzip_at < order.index("django.contrib.sessions.middleware.SessionMiddleware")


@pytest.mark.parametrize("language, skip, site", [("en", "Skip to main content", "Site"),
                                                  ("zh-hans", "跳到正文", "网站")])
def test_it_offers_the_skip_link_first_and_names_every_navigation(
        client: Client, language: str, skip: str, site: str) -> None:
    for path in [*PAGES, stored_match()]:
        html = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        body = html.split("<body", 1)[1].split(">", 1)[1]
        first = re.search(r"<a\b[^>]*>[^<]*</a>", body)
        assert first and first.start() == len(body) - len(body.lstrip()), (path, body[:200])
        assert 'class="skip-link" href="#main"' in first.group() and skip in first.group()
        assert re.search(r'<main\b[^>]*\bid="main"', html), path
        navs = re.findall(r"<nav\b[^>]*>", html)
        assert navs and all("aria-label=" in nav for nav in navs), (path, navs)
        assert f'<nav class="site-nav" aria-label="{site}">' in html


def parse_errors(html: str) -> list[str]:
    parser = html5lib.HTMLParser()
    parser.parse(html)
    return [f"line {line}, column {column}: {code} {data}"
            for (line, column), code, data in parser.errors]


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_the_pages_parse_as_html_without_an_error(client: Client, language: str) -> None:
    """The sign-up page put a list inside a paragraph (the password rules): a parser closes
    the paragraph early and the end tags are left over."""
    for path in [*PAGES, stored_match()]:
        html = client.get(path, HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert parse_errors(html) == [], path


def test_it_knows_an_invalid_page_when_it_sees_one() -> None:
    assert parse_errors("<!doctype html><html lang=en><head><title>t</title></head><body>"
                        "<p><span><ul><li>x</li></ul></span></p></body></html>")


def templates() -> list[Path]:
    return sorted([*ROOT.glob("templates/**/*.html"), *ROOT.glob("replays/**/templates/**/*.html")])


def test_no_plain_div_or_span_carries_a_name() -> None:
    """aria-label on a div or span without a role is ignored by screen readers (and axe
    flags it): tile groups say role="group"."""
    unnamed = []
    for path in templates():
        for tag in re.findall(r"<(?:div|span)\b[^>]*\baria-label=[^>]*>", path.read_text()):
            if "role=" not in tag:
                unnamed.append(f"{path.relative_to(ROOT)}: {tag[:120]}")
    assert templates() and unnamed == []
