"""The engine's own sentences that the site shows (rules notes, options' meanings, the
refusals its worked examples show) in the reader's language.

The engine (``games``) writes English and knows nothing of Django; the site's catalogue
holds their translations, keyed by the English. A sentence not listed here is shown as
the engine wrote it, and ``tests/test_site_i18n_complete.py`` fails when a Chinese page
shows one.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

CATALOGUE: dict[str, Promise] = {
    # pattern notes
    "1 for the round wind, 1 for the seat wind": _("1 for the round wind, 1 for the seat wind"),
    "paid as PT-7.2": _("paid as PT-7.2"),
    "each loser pays 50": _("each loser pays 50"),
    "each loser pays 100": _("each loser pays 100"),
    "a white that is gold: 2": _("a white that is gold: 2"),
    "all four: 5": _("all four: 5"),
    "base 1; the dealer's 2nd hand in a row: 3, the 3rd: 4, … (PT-7.1)":
        _("base 1; the dealer's 2nd hand in a row: 3, the 3rd: 4, … (PT-7.1)"),
    "its four is not also a 根": _("its four is not also a 根"),
    "each payer of the self-draw pays 1 base more":
        _("each payer of the self-draw pays 1 base more"),
    "no pung, no open kong": _("no pung, no open kong"),
    "no 1 or 9": _("no 1 or 9"),
    "海底捞月 on the last tile, 海底炮 on the discard after it":
        _("海底捞月 on the last tile, 海底炮 on the discard after it"),
    # options' choices (their values are the engine's names)
    "indicator_next": _("the indicator's next kind (JX-4)"),
    "indicator": _("the indicator's own kind"),
    "fan": _("自摸加番: a fan more (SC-5.15)"),
    "base": _("自摸加底: a base more from each payer (SC-H4)"),
    # a yes-or-no option's default
    "True": _("on"),
    "False": _("off"),
    # options
    "底分: the base of every score (JX-10)": _("底分: the base of every score (JX-10)"),
    "service fee F every player pays after a hand (JX-10.6)":
        _("service fee F every player pays after a hand (JX-10.6)"),
    "paid by a player who leaves (JX-10.6)": _("paid by a player who leaves (JX-10.6)"),
    "each player's silver at the start, when balances are kept (JX-10.6)":
        _("each player's silver at the start, when balances are kept (JX-10.6)"),
    "how a new hand's wildcard is chosen (JX-4)": _("how a new hand's wildcard is chosen (JX-4)"),
    "house fee every player pays after a hand (C-6)":
        _("house fee every player pays after a hand (C-6)"),
    "the room's base unit (SC-6)": _("the room's base unit (SC-6)"),
    "封顶: the most fan a win counts (SC-5)": _("封顶: the most fan a win counts (SC-5)"),
    "N: beans per point (SC-6.5)": _("N: beans per point (SC-6.5)"),
    "A: beans every player pays each hand (SC-6.5)":
        _("A: beans every player pays each hand (SC-6.5)"),
    "the least balance to start a hand (SC-6.5)": _("the least balance to start a hand (SC-6.5)"),
    "each player's beans at the start, when balances are kept (SC-6.5)":
        _("each player's beans at the start, when balances are kept (SC-6.5)"),
    "X: the correction factor of SC-6.6": _("X: the correction factor of SC-6.6"),
    "the least a leaver pays (SC-6.6)": _("the least a leaver pays (SC-6.6)"),
    "what a self-draw adds: a fan, or a base from each payer (SC-H4)":
        _("what a self-draw adds: a fan, or a base from each payer (SC-H4)"),
    "天胡 and 地胡 count (SC-H5)": _("天胡 and 地胡 count (SC-H5)"),
    "门清中张: a fan for no pung or open kong, a fan for no 1 or 9 (SC-H6)":
        _("门清中张: a fan for no pung or open kong, a fan for no 1 or 9 (SC-H6)"),
    "金钩钓: a fan for a win on a single tile beside four melds (SC-H7)":
        _("金钩钓: a fan for a win on a single tile beside four melds (SC-H7)"),
    "海底: a fan for a win on the wall's last tile or on the discard after it (SC-H8)":
        _("海底: a fan for a win on the wall's last tile or on the discard after it (SC-H8)"),
    "换三张: three tiles of one suit passed by the dice before 定缺 (SC-H1)":
        _("换三张: three tiles of one suit passed by the dice before 定缺 (SC-H1)"),
    "血流成河: winners stay with a locked hand; the hand ends at the wall's end (SC-H2)":
        _("血流成河: winners stay with a locked hand; the hand ends at the wall's end (SC-H2)"),
    "呼叫转移: a win on the discard after a kong takes that kong's takings (SC-H3)":
        _("呼叫转移: a win on the discard after a kong takes that kong's takings (SC-H3)"),
    # refusals the worked examples show
    "JX-5.3: needs 清一色, 混一色, 全老头 or 对对和": _("JX-5.3: needs 清一色, 混一色, 全老头 or 对对和"),
}


def translate(text: str) -> str:
    """The engine's sentence in the reader's language, or as written when not listed.

    >>> translate("all four: 5"), translate("something new")
    ('all four: 5', 'something new')
    """
    found = CATALOGUE.get(text)
    return str(found) if found is not None else text
