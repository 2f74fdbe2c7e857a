"""``{% tile view %}``: one tile drawn with the shipped artwork."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.tiles import TILES, Tile
from replays.library.board import TileView

register = template.Library()


@register.simple_tag
def tile(view: TileView) -> SafeString:
    return _tile_html(view.code, view.wild, view.drawn, view.claimed, view.last, view.hidden)


@lru_cache(maxsize=2048)
def _tile_html(code: str, wild: bool, drawn: bool, claimed: bool, last: bool,
               hidden: bool) -> SafeString:
    # A board holds ~150 tiles of ~40 distinct looks: build each look once (viewer speed).
    classes = ["tile"]
    for flag, name in ((wild, "is-wild"), (drawn, "is-drawn"), (claimed, "is-claimed"),
                       (last, "is-last"), (hidden, "is-hidden")):
        if flag:
            classes.append(name)
    if hidden:
        return format_html('<span class="{}"><img src="{}" alt="?" width="40" height="54"></span>',
                           " ".join(classes), static("tiles/back.svg"))
    view = TileView(_TILE_BY_CODE[code])
    return format_html('<span class="{}" title="{}"><img src="{}" alt="{}" width="40" '
                       'height="54"></span>', " ".join(classes), view.title,
                       static(f"tiles/{code}.svg"), code)


def _tiles_by_code() -> dict[str, Tile]:

    return {str(t): t for t in TILES}


_TILE_BY_CODE = _tiles_by_code()


@register.filter
def unit(name: str) -> str:
    """A pattern's unit in the reader's language."""
    return {"tai": _("tai"), "fan": _("fan"), "points": _("points")}.get(name, name)


@register.filter
def score_value(score: dict[str, Any] | None) -> str:
    """A win's value in the variant's own terms: points, with the tai and fan they come
    from where the variant counts them (Jiaxing JX-5.1: base × tai × 2^fan; Sichuan fan).

    >>> score_value({"tai": 2, "fan": 1, "points": 4})
    '4 points (2 tai, 1 fan)'
    >>> score_value({"points": 8})
    '8 points'
    """
    if not score:
        return ""
    terms = [f"{score[name]} {unit(name)}" for name in ("tai", "fan") if name in score]
    points = _("%(points)s points") % {"points": score.get("points", 0)}
    if not terms:
        return points
    return pgettext("a score", "%(points)s (%(terms)s)") % {
        "points": points, "terms": pgettext("between terms", ", ").join(terms)}


@register.filter
def score_title(score: dict[str, Any] | None) -> str:
    """Each pattern of a win with its rule id and value, then the reading, for a tooltip.

    >>> score_title({"patterns": [{"id": "JX-6.7", "name": "混一色", "en": "half flush",
    ...              "tai": 2}], "reading": "234s 55s"})
    'JX-6.7 混一色 half flush 2 tai · 234s 55s'
    """
    if not score:
        return ""
    parts = []
    for pattern in score.get("patterns", []):
        value = next((f" {pattern[name]} {unit(name)}" for name in ("tai", "fan", "points")
                      if name in pattern), "")
        parts.append(f"{pattern.get('id', '')} {pattern.get('name', '')} "
                     f"{pattern.get('en', '')}{value}")
    if score.get("reading"):
        parts.append(str(score["reading"]))
    return " · ".join(parts)


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@register.simple_tag
def tile_code(code: str) -> SafeString:
    """A tile from its notation (annotation data stores tiles as text)."""
    return _tile_html(code, False, False, False, False, False)


@register.filter
def seat_name(seat: int, board: object) -> str:
    seats = getattr(board, "seats", [])
    return str(seats[seat].name) if 0 <= seat < len(seats) else str(seat)


@register.filter
def action_text(action: dict[str, object]) -> str:
    """An alternative in words (the annotation stores it as a log event)."""
    kind = action.get("type")
    tile = action.get("tile", "")
    if kind == "discard":
        return _("discard %(tile)s") % {"tile": tile}
    if kind == "pass":
        return _("pass")
    if kind == "hu":
        return _("win on %(tile)s") % {"tile": tile}
    if kind == "peng":
        return _("pung %(tile)s") % {"tile": tile}
    if kind == "chi":
        shown = "".join(str(t) for t in action.get("tiles", []))  # type: ignore[attr-defined]
        return _("chow %(tile)s with %(shown)s") % {"tile": tile, "shown": shown}
    if kind == "gang":
        return _("kong %(tile)s") % {"tile": tile}
    if kind == "ready":
        return _("declare ready")
    if kind == "flower":
        return _("lay out a white")
    if kind == "dingque":
        return _("void %(suit)s") % {"suit": action.get("suit", "")}
    if kind == "contract":
        return _("give up") if action.get("choice") == "give_up" else _("persist")
    return str(kind)


@register.filter
def decision_kind(kind: str) -> str:
    """A decision point's kind in the reader's language."""
    return {"turn": _("turn"), "claim": _("claim"), "rob_kong": _("robbing a kong"),
            "dingque": _("void suit"), "contract": _("contract")}.get(kind, kind)
