"""The rules presets of the play and table forms (issue 29): a variant's ``PRESETS`` (the
ways of playing players name, "成都 血战") as choices, each with its options spelled out,
and "custom" for the options one by one.

A preset sets every option any of the variant's presets names (the house rules), each at
the preset's value or its default; the other options (the base, the fee …) stay the
form's. Nothing here names a variant: the presets are read from the variant class.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from django.utils.functional import Promise
from django.utils.translation import get_language, gettext_lazy, pgettext
from django.utils.translation import gettext as _

from games.core.variant import Preset
from games.play.bot_match import PlayError
from games.variants.registry import VARIANTS
from replays.matches.option_labels import option_label

CUSTOM = "custom"
"""The form's value for "the options one by one"."""

# A preset's options in a few words each, as players say them (an option without its
# words here is named by its label).
SHORT: dict[str, Promise] = {
    "exchange_three": gettext_lazy("换三张 exchange three"),
    "blood_flow": gettext_lazy("血流成河 winners play on"),
    "call_transfer": gettext_lazy("呼叫转移 call transfer"),
    "concealed_middle": gettext_lazy("门清中张 concealed and middle"),
    "golden_hook": gettext_lazy("金钩钓 golden hook"),
    "sea_bottom": gettext_lazy("海底 sea bottom"),
    "heavenly_earthly": gettext_lazy("天地胡 heavenly and earthly hands"),
}
VALUE_WORDS: dict[tuple[str, str], Promise] = {
    ("self_draw_bonus", "base"): gettext_lazy("自摸加底 a base more on a self-draw"),
    ("self_draw_bonus", "fan"): gettext_lazy("自摸加番 a fan more on a self-draw"),
}


@dataclass(frozen=True)
class PresetChoice:
    """One choice of the form's "Rules" field: its value, name and options in words."""

    key: str
    label: str
    spelled: str
    checked: bool
    values: str = ""
    """The governed options' values it sets, as JSON (the page's script fills the
    fields with them); blank for custom."""


def presets_of(variant: str) -> dict[str, Preset]:
    return dict(VARIANTS[variant].PRESETS)


def governed(variant: str) -> list[str]:
    """The options a preset sets: those any of the variant's presets names, in the
    variant's order of options."""
    named = {name for preset in presets_of(variant).values() for name in preset.rules}
    return [name for name in VARIANTS[variant].OPTIONS if name in named]


def option_words(name: str, value: int | str | bool) -> str:
    """One option of a preset in words: "换三张 exchange three", "no 天地胡", "cap 4"."""
    if isinstance(value, bool):
        words = str(SHORT[name]) if name in SHORT else option_label(name)
        return words if value else _("no %(option)s") % {"option": words}
    if (name, str(value)) in VALUE_WORDS:
        return str(VALUE_WORDS[(name, str(value))])
    return _("%(option)s %(value)s") % {"option": option_label(name), "value": value}


def label(preset: Preset) -> str:
    """The preset's name: Chinese, glossed in English for an English reader."""
    if (get_language() or "").startswith("zh"):
        return preset.chinese
    return f"{preset.chinese} – {preset.english}"


def spelled(preset: Preset, variant: str) -> str:
    """The preset's options in words, the way players list them."""
    if not preset.rules:
        return _("no house rules: every option at its default")
    return pgettext("between items of a list", ", ").join(option_words(name, value) for name, value in preset.rules.items())


def choices(variant: str, chosen: str | None) -> list[PresetChoice]:
    """The "Rules" field's choices, the variant's presets then custom; ``chosen`` (the
    form's value) checked, else the first preset (the default)."""
    presets = presets_of(variant)
    if not presets:
        return []
    chosen = chosen if chosen in presets or chosen == CUSTOM else next(iter(presets))
    options = VARIANTS[variant].OPTIONS
    out = [PresetChoice(key, label(preset), spelled(preset, variant), key == chosen,
                        json.dumps({name: preset.rules.get(name, options[name].default)
                                    for name in governed(variant)}))
           for key, preset in presets.items()]
    out.append(PresetChoice(CUSTOM, _("Custom"), _("choose each option below"),
                            chosen == CUSTOM))
    return out


def apply(variant: str, chosen: Any, rules: dict[str, int | str | bool]
          ) -> dict[str, int | str | bool]:
    """The rules a form asks for: ``rules`` (the options one by one) when ``chosen`` is
    blank or custom; with a preset, its options in place of the governed ones. Raise
    ``PlayError`` naming an unknown preset."""
    if chosen is None or str(chosen) in ("", CUSTOM):
        return rules
    presets = presets_of(variant)
    preset = presets.get(str(chosen))
    if preset is None:
        known = ", ".join([*presets, CUSTOM])
        raise PlayError(_("unknown rules preset %(name)r (known: %(known)s)") % {
            "name": str(chosen)[:20], "known": known})
    kept = {name: value for name, value in rules.items() if name not in governed(variant)}
    return {**kept, **preset.rules}
