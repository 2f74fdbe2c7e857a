"""A match's title in the reader's language where the site or the engine wrote it.

A title is the uploader's own words and is shown as they wrote it, except the two the
site itself makes: a played match's (``games.play.bot_match.TITLE``, naming the walls' seed) and a
demo match's (``manage.py seed_demo``); those are read back and said in the reader's
language.

>>> shown_title("Friday night at Wei's")
"Friday night at Wei's"
>>> shown_title("Demo: Sichuan bots, game 3")
'Demo: Sichuan bots, game 3'
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.play.bot_match import TITLE as PLAYED_TITLE

DEMO_TITLE = "Demo: {variant} bots, game {number}"

_PLAYED = re.compile(re.escape(PLAYED_TITLE).replace(r"\{commitment\}",
                                                     r"(?P<commitment>[0-9a-f]{64})"))
_DEMO = re.compile(r"Demo: (?P<variant>Jiaxing|Putian|Sichuan) bots, game (?P<number>\d+)")


def demo_title(variant: str, number: int) -> str:
    """The title ``seed_demo`` stores (English, as documents are written)."""
    return DEMO_TITLE.format(variant=variant.capitalize(), number=number)


def shown_title(title: str) -> str:
    """The title as the reader should see it."""
    played = _PLAYED.fullmatch(title)
    if played:
        return _("Played against the bots; the walls' seed has SHA-256 %(commitment)s") % {
            "commitment": played["commitment"]}
    demo = _DEMO.fullmatch(title)
    if demo:
        return _("Demo: %(variant)s bots, game %(number)s") % {
            "variant": pgettext("variant name", demo["variant"]), "number": demo["number"]}
    return title
