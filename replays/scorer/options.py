"""The table's rules on the scorer: the variant's presets (``Variant.PRESETS``) and its options,
shown with the play form's own fields (``play/_rules_options.html``) and read by its reader."""

from __future__ import annotations

from typing import Any

from games.play.bot_match import PlayError
from games.variants.registry import VARIANTS
from replays.play.views import _option_fields, rules_of
from replays.scorer.state import State


def presets(variant: str) -> list[dict[str, str]]:
    """The variant's named sets of rules, the default first (none: no choice to offer)."""
    return [{"key": p.key, "chinese": p.chinese, "english": p.english}
            for p in VARIANTS[variant].PRESETS.values()]


def preset_rules(state: State) -> dict[str, Any]:
    """The preset's rules that a hand's score reads (a preset also names the table's own,
    such as SC-H1's exchange, which no position takes)."""
    variant = VARIANTS[state.variant]
    preset = variant.PRESETS.get(state.preset)
    rules = preset.rules if preset is not None else {}
    return {name: value for name, value in rules.items() if name in variant.OPTIONS}


def rules_of_state(state: State) -> dict[str, Any]:
    """The preset's rules with the options the page sets over them (raises PlayError naming a
    bad value)."""
    return {**preset_rules(state), **rules_of(state.variant, state.rules)}


def option_fields(state: State) -> list[dict[str, Any]]:
    """The variant's options as the play form shows them, valued as the state's rules say."""
    try:
        rules = rules_of_state(state)
    except PlayError:
        rules = preset_rules(state)
    values = {f"{state.variant}-{name}": value for name, value in rules.items()}
    return [group for group in _option_fields(values) if group["variant"] == state.variant]


def changed_rules(state: State) -> dict[str, str]:
    """The page's option fields that say something the preset (or the default) doesn't: what
    the state's link keeps (the form sends every field)."""
    variant = VARIANTS[state.variant]
    base = preset_rules(state)
    kept = {}
    for key, raw in state.rules.items():
        name = key.removeprefix(f"{state.variant}-")
        option = variant.OPTIONS.get(name)
        if option is None:
            continue
        standard = base.get(name, option.default)
        if isinstance(option.default, bool):
            same = (raw in ("on", "true", "1", "yes")) == standard
        else:
            same = raw.strip() == str(standard)
        if not same:
            kept[key] = raw
    return kept
