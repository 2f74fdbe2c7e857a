"""``{% tile view %}``: one tile drawn with the shipped artwork.

Every face is a ``<symbol>`` of one sprite (``static/tiles/tiles.svg``, drawn by
``tools/make_tiles.py`` with its glyphs as paths), so a page costs one request for all its
tiles and needs no Chinese font; each tile is named in the reader's language for screen
readers and tooltips (:func:`tile_name`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from replays import tile_names as tile_names_module
from replays.library.board import TileView

register = template.Library()


@register.simple_tag
def tile(view: TileView) -> SafeString:
    return _tile_html(view.code, view.wild, view.drawn, view.claimed, view.last, view.hidden)


def _tile_html(code: str, wild: bool, drawn: bool, claimed: bool, last: bool,
               hidden: bool) -> SafeString:
    return _tile_html_in(get_language() or "", code, wild, drawn, claimed, last, hidden)


@lru_cache(maxsize=4096)
def _tile_html_in(language: str, code: str, wild: bool, drawn: bool, claimed: bool, last: bool,
                  hidden: bool) -> SafeString:
    # A board holds ~150 tiles of ~40 distinct looks: build each look once per language.
    classes = ["tile"]
    for flag, name in ((wild, "is-wild"), (drawn, "is-drawn"), (claimed, "is-claimed"),
                       (last, "is-last"), (hidden, "is-hidden")):
        if flag:
            classes.append(name)
    sprite = static("tiles/tiles.svg")
    if hidden:  # a face-down tile names nothing but what it is
        return format_html(
            '<span class="{}" data-tile="back"><svg viewBox="0 0 60 80" width="40" height="54" '
            'role="img" aria-label="{}"><use href="{}#back"></use></svg></span>',
            " ".join(classes), _("face-down tile"), sprite)
    name = tile_names_module.tile_name(code)
    return format_html(
        '<span class="{}" data-tile="{}" title="{}"><svg viewBox="0 0 60 80" width="40" '
        'height="54" role="img" aria-label="{}"><use href="{}#{}"></use></svg></span>',
        " ".join(classes), code, name, name, sprite, code)


@register.filter
def tile_name(code: str) -> str:
    """A tile's name in the reader's language, from its notation (see replays.tile_names)."""
    return tile_names_module.tile_name(code)


@register.filter
def tile_names(codes: str) -> str:
    """Tiles in notation (``123m 55z``) as names in the reader's language."""
    return tile_names_module.tile_names(codes)


@register.filter
def suit_name(letter: str) -> str:
    """A suit letter (m, p, s) as the suit's name in the reader's language."""
    return tile_names_module.suit_name(letter)


@register.filter
def wind_name(letter: str) -> str:
    """A wind letter (E, S, W, N) as the wind's name in the reader's language."""
    return tile_names_module.wind_name(letter)


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


@register.simple_tag
def reading_tiles(reading: str | None) -> SafeString:
    """The engine's reading (``123p 456p 11z``) as its sets of tile faces, each set a group;
    text that isn't tile notation is shown as it was."""
    from django.utils.html import format_html_join

    from games.tiles import parse_tiles

    if not reading:
        return SafeString("")
    groups = []
    for group in str(reading).split():
        try:
            faces = SafeString("".join(_tile_html(str(t), False, False, False, False, False)
                                       for t in parse_tiles(group)))
        except ValueError:
            faces = SafeString(format_html("{}", group))
        groups.append((faces,))
    return format_html_join("", '<span class="reading-set tiles">{}</span>', groups)
