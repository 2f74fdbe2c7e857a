"""``/bots/``: what each level of the bots does, and the arena's figures that rank them.

The figures are the published ladder (:func:`games.bots.levels.published_ladder`, format
``ladder/1``): per variant the duplicate arena's results, A against B on the same walls and
seats. Each result is shown with its walls, seed and the command that reproduces it, so a
reader can check it; nothing is computed here but percentages and signs.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.bots.levels import published_ladder
from games.variants.registry import NAMES
from replays.library.rules_guide import link_rules_anywhere
from replays.models import Match
from replays.play import levels


def context() -> dict[str, Any]:
    """The page's figures per variant (every variant, with or without results), the
    ladder's date and command, and the levels' descriptions with their rule ids linked."""
    ladder = published_ladder()
    published = ladder.get("variants", {})
    variants = [{"name": name, "label": Match.Variant(name).label,
                 "results": [result_view(name, raw) for raw in published.get(name, [])]}
                for name in NAMES]
    return {
        "variants": variants, "published": any(v["results"] for v in variants),
        "measured": ladder.get("measured"), "command": ladder.get("command"),
        "levels": [{**d, "does": link_rules_anywhere(str(d["does"]))}
                   for d in levels.descriptions()],
        "offered": levels.offered(),
    }


METRICS = ("hands", "points_per_hand", "win_rate", "deal_in_rate", "self_draw_share",
           "points_per_win", "exhausted_share")
SHARES = frozenset({"win_rate", "deal_in_rate", "self_draw_share", "exhausted_share"})


def result_view(variant: str, raw: dict[str, Any]) -> dict[str, Any]:
    """One arena/1 result as the page shows it: A and B by the site's names, the difference
    with its interval and what the interval says, and each level's figures side by side."""
    first, second = (str(name) for name in raw["bots"])
    difference = raw["difference"]
    figures = raw.get("levels", {})
    sides = [figures.get(first, {}), figures.get(second, {})]
    return {
        "a": first, "b": second,
        "a_label": levels.label_of(first), "b_label": levels.label_of(second),
        "walls": raw.get("walls"), "seed": raw.get("seed"),
        "plays_per_wall": raw.get("plays_per_wall"),
        "command": (f"python -m games arena --variant {variant} --bots {first} {second} "
                    f"--walls {raw.get('walls')} --seed {raw.get('seed')}"),
        "mean": signed(difference["mean"]), "low": signed(difference["low"]),
        "high": signed(difference["high"]),
        "verdict": verdict(float(difference["low"]), float(difference["high"])),
        "rows": [metric_row(name, sides) for name in METRICS],
        "disasters": disaster_rows(sides),
        "decision": [side.get("decision_ms", {}) for side in sides],
    }


def verdict(low: float, high: float) -> str:
    """What the 95% interval of A minus B says."""
    if low > 0:
        return "stronger"
    if high < 0:
        return "weaker"
    return "unclear"


def metric_row(name: str, sides: list[dict[str, Any]]) -> dict[str, Any]:
    labels = {
        "hands": _("Hands played"), "points_per_hand": _("Points a hand"),
        "win_rate": _("Win rate"), "deal_in_rate": _("Deal-in rate"),
        "self_draw_share": _("Self-draw share of wins"),
        "points_per_win": _("Points a win"), "exhausted_share": _("Hands exhausted"),
    }
    return {"name": name, "label": labels[name],
            "values": [shown(name, side.get(name)) for side in sides]}


def shown(name: str, value: Any) -> str:
    """A figure as text: shares as percentages, points with one or two decimals."""
    if value is None:
        return "—"
    if name in SHARES:
        return f"{100 * float(value):.1f}%"
    if name == "hands":
        return str(int(value))
    return f"{float(value):.2f}"


def signed(value: Any) -> str:
    return f"{float(value):+.2f}"


# The arena's disaster labels (each variant's ARENA_DISASTERS) in the reader's language; a
# label not listed here is shown as the arena wrote it.
DISASTER_WORDS = {
    "承包 payments": gettext_lazy("contract payments (承包, JX-9)"),
    "抢金 losses": gettext_lazy("losses to a robbed gold (抢金, PT-5.5)"),
    "bomb losses": gettext_lazy("losses to a bomb (PT-5.6)"),
    "花猪 payments": gettext_lazy("flower pig payments (花猪, SC-6.4)"),
    "查大叫 payments": gettext_lazy("not-ready payments (查大叫, SC-6.4)"),
}


def disaster_rows(sides: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The variant's disasters (花猪, 查大叫, 承包, 抢金 …: the arena's labels) per level:
    how many hands, how many points."""
    names: list[str] = []
    for side in sides:
        names += [label for label in side.get("disasters", {}) if label not in names]
    rows = []
    for label in names:
        cells = []
        for side in sides:
            found = side.get("disasters", {}).get(label)
            cells.append(None if found is None else {"hands": found.get("hands", 0),
                                                     "points": found.get("points", 0)})
        rows.append({"label": link_rules_anywhere(str(DISASTER_WORDS.get(label, label))),
                     "values": cells})
    return rows
