"""Tiles, suits and winds named in the reader's language (一万, 东, 白 in Chinese; 1 Characters,
East, White in English), so that no page shows tile notation such as ``1z`` as words.
"""

from __future__ import annotations

import re

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy, pgettext, pgettext_lazy

from games.core.tiles import parse_tiles
from games.core.variant import Variant
from replays.kept import in_each_language

_NUMBERED: dict[str, tuple[Promise, ...]] = {
    "m": (pgettext_lazy("tile", "1 Characters"), pgettext_lazy("tile", "2 Characters"),
          pgettext_lazy("tile", "3 Characters"), pgettext_lazy("tile", "4 Characters"),
          pgettext_lazy("tile", "5 Characters"), pgettext_lazy("tile", "6 Characters"),
          pgettext_lazy("tile", "7 Characters"), pgettext_lazy("tile", "8 Characters"),
          pgettext_lazy("tile", "9 Characters")),
    "p": (pgettext_lazy("tile", "1 Dots"), pgettext_lazy("tile", "2 Dots"),
          pgettext_lazy("tile", "3 Dots"), pgettext_lazy("tile", "4 Dots"),
          pgettext_lazy("tile", "5 Dots"), pgettext_lazy("tile", "6 Dots"),
          pgettext_lazy("tile", "7 Dots"), pgettext_lazy("tile", "8 Dots"),
          pgettext_lazy("tile", "9 Dots")),
    "s": (pgettext_lazy("tile", "1 Bamboo"), pgettext_lazy("tile", "2 Bamboo"),
          pgettext_lazy("tile", "3 Bamboo"), pgettext_lazy("tile", "4 Bamboo"),
          pgettext_lazy("tile", "5 Bamboo"), pgettext_lazy("tile", "6 Bamboo"),
          pgettext_lazy("tile", "7 Bamboo"), pgettext_lazy("tile", "8 Bamboo"),
          pgettext_lazy("tile", "9 Bamboo")),
    "z": (pgettext_lazy("tile", "East"), pgettext_lazy("tile", "South"),
          pgettext_lazy("tile", "West"), pgettext_lazy("tile", "North"),
          pgettext_lazy("tile", "White"), pgettext_lazy("tile", "Green"),
          pgettext_lazy("tile", "Red")),
}


def tile_name(code: str) -> str:
    """A tile's name in the reader's language (一万, 东, 白 in Chinese; 1 Characters, East,
    White in English), from its notation; anything else comes back as it was.

    >>> tile_name("3p"), tile_name("7z"), tile_name("x")
    ('3 Dots', 'Red', 'x')
    """
    return _tile_name(str(code))


@in_each_language(at_most=512)
def _tile_name(text: str) -> str:
    if len(text) == 2 and text[0].isdigit() and text[1] in _NUMBERED:
        names = _NUMBERED[text[1]]
        number = int(text[0])
        if 1 <= number <= len(names):
            return str(names[number - 1])
    return text


def tile_names(codes: str) -> str:
    """Tiles written in notation (``123m 55z``) as names in the reader's language.

    >>> tile_names("12m 5z")
    '1 Characters 2 Characters White'
    """
    try:
        tiles = parse_tiles(str(codes).replace(" ", ""))
    except ValueError:
        return str(codes)
    return pgettext("between tile names", " ").join(tile_name(str(t)) for t in tiles)


_SUITS: dict[str, Promise] = {
    "m": pgettext_lazy("suit", "Characters"), "p": pgettext_lazy("suit", "Dots"),
    "s": pgettext_lazy("suit", "Bamboo")}
_WINDS: dict[str, Promise] = {
    "E": pgettext_lazy("wind", "East"), "S": pgettext_lazy("wind", "South"),
    "W": pgettext_lazy("wind", "West"), "N": pgettext_lazy("wind", "North")}


def suit_name(letter: str) -> str:
    """A suit letter as its name (万 / Characters); anything else comes back as it was.

    >>> suit_name("p"), suit_name("q")
    ('Dots', 'q')
    """
    return str(_SUITS.get(str(letter), letter))


def wind_name(letter: str) -> str:
    """A wind letter as its name (东 / East); anything else comes back as it was.

    >>> wind_name("S")
    'South'
    """
    return str(_WINDS.get(str(letter), letter))


_WILDCARD_NAMES: dict[str, Promise] = {"wildcard": gettext_lazy("Wildcard"),
                                       "golds": gettext_lazy("Golds")}


def wildcard_name(variant: type[Variant]) -> str:
    """What a variant calls its wildcards, in the reader's language (百搭 wildcard, 金 golds);
    empty for a variant without them."""
    return str(_WILDCARD_NAMES.get(variant.WILDCARD_NAME, variant.WILDCARD_NAME))
_WIND_LETTERS: dict[str, Promise] = {
    "E": pgettext_lazy("wind letter", "E"), "S": pgettext_lazy("wind letter", "S"),
    "W": pgettext_lazy("wind letter", "W"), "N": pgettext_lazy("wind letter", "N")}


def wind_letter(letter: str) -> str:
    """A wind letter as the one character a seat's badge shows (东 in Chinese, E in English).

    >>> wind_letter("N")
    'N'
    """
    return str(_WIND_LETTERS.get(str(letter), letter))


_CHINESE_NUMBERS = "一二三四五六七八九"
_CHINESE_SUITS = {"万": "m", "萬": "m", "筒": "p", "饼": "p", "餅": "p", "条": "s", "條": "s",
                  "索": "s"}
_CHINESE_HONOURS = (("红中", "7z"), ("紅中", "7z"), ("发财", "6z"), ("發財", "6z"),
                    ("白板", "5z"), ("东风", "1z"), ("南风", "2z"), ("西风", "3z"), ("北风", "4z"),
                    ("東", "1z"), ("东", "1z"), ("南", "2z"), ("西", "3z"), ("北", "4z"),
                    ("白", "5z"), ("发", "6z"), ("發", "6z"), ("中", "7z"))
_CHINESE_SUITED = re.compile(r"([一二三四五六七八九1-9]+)([万萬筒饼餅条條索])")


def notation_from_names(text: str) -> str:
    """Tiles typed by their Chinese names (三筒 六筒 中, 三六筒, 东风) as notation, so the
    answer field reads what a Chinese page shows; notation passes through unchanged.

    >>> notation_from_names("三筒 六筒 中")
    '3p 6p 7z'
    >>> notation_from_names("三六饼, 红中 5s")
    '36p , 7z 5s'
    """
    def suited(match: re.Match[str]) -> str:
        digits = "".join(str(_CHINESE_NUMBERS.index(c) + 1) if c in _CHINESE_NUMBERS else c
                         for c in match.group(1))
        return f" {digits}{_CHINESE_SUITS[match.group(2)]} "

    out = _CHINESE_SUITED.sub(suited, text)
    for name, code in _CHINESE_HONOURS:
        out = out.replace(name, f" {code} ")
    return " ".join(out.split())


def tile_label(code: str, *, wild: bool = False, drawn: bool = False, last: bool = False,
               claimed: bool = False, winning: bool = False, claimed_by: str = "") -> str:
    """A tile's name with every state the eye sees on its face (the wildcard's star, the
    drawn tile set apart, the last discard outlined, a claimed discard greyed, the winning
    tile), as a screen reader should say it.

    >>> tile_label("5p", wild=True, drawn=True)
    '5 Dots, wildcard, just drawn'
    >>> tile_label("7z"), tile_label("3s", claimed=True, claimed_by="Ada")
    ('Red', '3 Bamboo, claimed by Ada')
    """
    taken = (pgettext("a tile's state", "claimed by %(name)s") % {"name": claimed_by}
             if claimed_by else pgettext("a tile's state", "claimed"))
    states = [str(word) for flag, word in (
        (wild, pgettext_lazy("a tile's state", "wildcard")),
        (drawn, pgettext_lazy("a tile's state", "just drawn")),
        (last, pgettext_lazy("a tile's state", "last discard")),
        (claimed, taken),
        (winning, pgettext_lazy("a tile's state", "the winning tile"))) if flag]
    return pgettext("between a tile's states", ", ").join([tile_name(code), *states])


def tile_states(*, wild: bool = False, drawn: bool = False) -> str:
    """The states of a tile of the player's hand, for a button whose label names the tile
    already ("Discard 5 Dots" + " (wildcard, just drawn)"); empty for a plain tile.

    >>> tile_states(drawn=True), tile_states()
    (' (just drawn)', '')
    """
    states = [str(word) for flag, word in (
        (wild, pgettext_lazy("a tile's state", "wildcard")),
        (drawn, pgettext_lazy("a tile's state", "just drawn"))) if flag]
    if not states:
        return ""
    return pgettext("a tile's states after its name", " (%(states)s)") % {
        "states": pgettext("between a tile's states", ", ").join(states)}
