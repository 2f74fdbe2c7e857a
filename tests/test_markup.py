"""``replays.markup.html`` escapes exactly as Django's ``format_html``: the viewer's hot
paths use it, and a difference would be an injection or a garbled page."""

from __future__ import annotations

from typing import Any

from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy, override
from hypothesis import given
from hypothesis import strategies as st

from replays.markup import html

PIECES = st.one_of(
    st.text(), st.integers(), st.floats(allow_nan=False),
    st.text().map(SafeString), st.sampled_from([gettext_lazy("won"), gettext_lazy("dealer")]),
    st.none(), st.booleans())


@given(st.lists(PIECES, max_size=5))
def test_it_escapes_as_format_html_does(pieces: list[Any]) -> None:
    template = '<span title="{}">' + "{}" * max(len(pieces) - 1, 0) + "</span>"
    pieces = pieces or [""]
    with override("zh-hans"):
        assert html(template, *pieces) == format_html(template, *pieces)


def test_it_is_safe_markup() -> None:
    assert isinstance(html("<b>{}</b>", "<i>"), SafeString)
    assert html("<b>{}</b>", "<i>") == "<b>&lt;i&gt;</b>"
    assert html("{}", SafeString("<i>x</i>")) == "<i>x</i>"
