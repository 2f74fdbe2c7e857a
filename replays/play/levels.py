"""The bots' levels as the site names them: easy, normal and hard (issue 26).

The engine's levels (:data:`games.bots.levels.LEVELS`) keep English summaries; the site
names each level its own way and describes it in words it translates. A site level is
offered only when the engine has its level, so a level registered in the engine appears
on the start form and the bots page with no change here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.bots.levels import LEVELS
from games.play.bot_match import DEFAULT_LEVEL


@dataclass(frozen=True)
class SiteLevel:
    """One level on the site: the form's value, the engine's level it plays, its words."""

    key: str
    level: str
    label: Promise | str
    does: Promise | str

    @property
    def offered(self) -> bool:
        return self.level in LEVELS


SITE_LEVELS = (
    SiteLevel("easy", "basic", pgettext_lazy("bot level", "easy"), _(
        "Takes every win it can, never folds, claims whatever brings its hand closer to "
        "winning and discards toward the most useful tiles. It does not look at the other "
        "players. This is the baseline every stronger level is measured against.")),
    SiteLevel("normal", "strong", pgettext_lazy("bot level", "normal"), _(
        "Reads the table: how long each player has played, their melds, void suits and "
        "ready declarations, and which tiles are all in sight, to judge who looks ready "
        "and how dangerous each tile is to discard. Far from winning against a player who "
        "looks ready, it throws the safe tile. It passes a discard win when playing on is "
        "worth more (SC-3.3), weighs kongs against the refunds of an exhausted hand "
        "(SC-6.4) and a win on the discard after them, plans Jiaxing hands toward a hand "
        "JX-5.3 lets win and never throws a wildcard (JX-4), and in Putian takes a bomb "
        "before a plain win (PT-5.6) and keeps its hand free rather than declaring ready "
        "(PT-5.3).")),
    SiteLevel("hard", "search", pgettext_lazy("bot level", "hard"), _(
        "Plays as the normal bots do, but before each decision it plays the hand out many "
        "times from the table as it stands and picks the choice that scored best (about a "
        "second a decision at most).")),
)
"""In order of strength; the form offers those whose engine level exists."""


def offered() -> list[SiteLevel]:
    """The levels the site offers now: those the engine has."""
    return [level for level in SITE_LEVELS if level.offered]


def default() -> SiteLevel:
    """Normal when the engine has it, else the weakest offered (easy)."""
    shown = offered()
    return next((level for level in shown if level.key == "normal"), shown[0])


def by_key(key: str) -> SiteLevel | None:
    return next((level for level in offered() if level.key == key), None)


def of_level(level: str) -> SiteLevel | None:
    """The site's level of an engine level name (None for one the site doesn't name)."""
    return next((site for site in SITE_LEVELS if site.level == level), None)


def label_of(level: str) -> Promise | str:
    """How a played match's level is named on its pages: the site's word, else the engine's
    name (a level the site doesn't name yet)."""
    site = of_level(level or DEFAULT_LEVEL)
    return site.label if site is not None else level


def descriptions() -> list[dict[str, object]]:
    """Every level the engine has, as the bots page describes it: the site's words for the
    levels it names, the engine's English summary for any other."""
    out: list[dict[str, object]] = []
    for name, level in LEVELS.items():
        site = of_level(name)
        out.append({"name": name, "key": site.key if site else None,
                    "label": site.label if site else name,
                    "does": site.does if site else level.summary, "translated": site is not None})
    strength = {site.level: index for index, site in enumerate(SITE_LEVELS)}
    return sorted(out, key=lambda d: strength.get(str(d["name"]), len(SITE_LEVELS)))
