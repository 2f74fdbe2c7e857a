"""A match's title in the reader's language where the site or the engine wrote it.

A title is the uploader's own words and is shown as they wrote it, except the two the
site itself makes: a played match's (``games.play.bot_match.TITLE``, naming the walls' seed) and a
demo match's (``manage.py seed_demo``); those are read back and said in the reader's
language. A played match is titled as a person would name it (issue 27): the variant,
"vs bots", its hands and when it was stored ("Sichuan vs bots · 4 hands · 3 Dec 14:05");
the walls' commitment is not a title: the viewer shows it below the title
(:func:`played_commitment`).

>>> shown_title("Friday night at Wei's")
"Friday night at Wei's"
>>> shown_title("Demo: Sichuan bots, game 3")
'Demo: Sichuan bots, game 3'
"""

from __future__ import annotations

import re
from datetime import datetime

from django.utils import timezone
from django.utils.dateformat import format as date_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.play.bot_match import TITLE as PLAYED_TITLE

DEMO_TITLE = "Demo: {variant} bots, game {number}"

_PLAYED = re.compile(re.escape(PLAYED_TITLE).replace(r"\{commitment\}",
                                                     r"(?P<commitment>[0-9a-f]{64})"))
_DEMO = re.compile(r"Demo: (?P<variant>Jiaxing|Putian|Sichuan) bots, game (?P<number>\d+)")


def demo_title(variant: str, number: int) -> str:
    """The title ``seed_demo`` stores (English, as documents are written)."""
    return DEMO_TITLE.format(variant=variant.capitalize(), number=number)


def played_commitment(title: str) -> str | None:
    """The SHA-256 commitment of a played match's walls, read from its stored title (None
    for any other title).

    >>> played_commitment(PLAYED_TITLE.format(commitment="ab" * 32)) == "ab" * 32
    True
    >>> played_commitment("Friday night") is None
    True
    """
    played = _PLAYED.fullmatch(title)
    return played["commitment"] if played else None


def shown_title(title: str, variant: str = "", hands: int = 0,
                when: datetime | None = None) -> str:
    """The title as the reader should see it. A played match's needs its ``variant``,
    ``hands`` and ``when`` (the stored match's); without them it is said in words
    without its hash."""
    if _PLAYED.fullmatch(title):
        return played_title(variant, hands, when)
    demo = _DEMO.fullmatch(title)
    if demo:
        return _("Demo: %(variant)s bots, game %(number)s") % {
            "variant": pgettext("variant name", demo["variant"]), "number": demo["number"]}
    return title


def played_title(variant: str, hands: int, when: datetime | None) -> str:
    """"Sichuan vs bots · 4 hands · 3 Dec 14:05" in the reader's language and time zone."""
    parts = [_("%(variant)s vs bots") % {
        "variant": pgettext("variant name", variant.capitalize()) if variant
        else _("Mahjong")}]
    if hands:
        parts.append(ngettext("%(n)d hand", "%(n)d hands", hands) % {"n": hands})
    if when is not None:
        local = timezone.localtime(when) if timezone.is_aware(when) else when
        # Translators: a date and time in a played match's title (Django's date format
        # letters: j day, M month's short name, n month number, H:i hours and minutes).
        parts.append(date_format(local, pgettext("played match title", "j M H:i")))
    return " · ".join(parts)
