"""Short names for the engine's rules options (issue 27): pages name an option in words,
never by its key (``cap_fan``), which stays in the form's field names and the documents.

The keys are the engine's (``Variant.OPTIONS``, the same key may mean one thing in every
variant that has it); an option the site has no name for yet is named by its meaning, the
engine's ``doc`` in the reader's language.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from games.variants.registry import VARIANTS
from replays.matches.engine_text import translate

LABELS: dict[str, Promise] = {
    "base": _("Base points"),
    "fee": _("House fee per hand"),
    "escape_penalty": _("Penalty for leaving"),
    "start_balance": _("Starting balance"),
    "wildcard_method": _("How the wildcard is chosen"),
    "cap_fan": _("Fan cap"),
    "room_coefficient": _("Beans per point"),
    "min_balance": _("Least balance to start a hand"),
    "escape_factor": _("Leaving correction factor"),
    "escape_minimum": _("Least a leaver pays"),
    "self_draw_bonus": _("Self-draw bonus (自摸加番 or 自摸加底)"),
    "heavenly_earthly": _("Heavenly and earthly hands (天胡, 地胡)"),
    "concealed_middle": _("Concealed and middle (门清中张)"),
    "golden_hook": _("Golden hook (金钩钓)"),
    "sea_bottom": _("Sea bottom (海底)"),
    "exchange_three": _("Exchange three (换三张)"),
    "blood_flow": _("Blood flow (血流成河)"),
    "call_transfer": _("Call transfer (呼叫转移)"),
}


def option_label(name: str) -> str:
    """The option's short name in the reader's language; its meaning when it has none."""
    label = LABELS.get(name)
    if label is not None:
        return str(label)
    for variant in VARIANTS.values():
        option = variant.OPTIONS.get(name)
        if option is not None:
            return translate(option.doc)
    return name
