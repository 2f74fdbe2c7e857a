"""The rules pages' worked examples: small hands scored and settled by the engine itself
(``Variant.score`` and ``games.core.settlement``), so that what the page shows is what the site
computes — only the hands and their circumstances are chosen here.

Also the pages' anchors: one per pattern row, unique even where several rows share a rule id
(PT-6 has three), and the target of each rule id mentioned in a note.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.template.loader import get_template
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.core import settlement
from games.core.tiles import WINDS, parse_tiles
from games.core.variant import Score
from games.variants.positions import read_position
from games.variants.registry import VARIANTS


@dataclass(frozen=True)
class Example:
    """One worked example: the hand, what the engine makes of it and who pays what."""

    title: str
    rule: str
    hand: list[str]
    win_tile: str
    wildcards: list[str]
    score: Score
    deltas: list[int] | None
    payment: str
    winds: list[str]  # each seat's wind letter, from the example's dealer


Settle = Callable[[Score], list[int]]


@dataclass(frozen=True)
class _Case:
    title: Promise
    rule: str
    position: dict[str, Any]
    settle: Settle | None
    payment: Promise


def _jiaxing(winner: int) -> Settle:
    return lambda score: settlement.jiaxing_win_deltas(winner, score.points)


def _putian(winner: int, dealer: int) -> Settle:
    def settle(score: Score) -> list[int]:
        flowers = [0, 0, 0, 0]
        flowers[winner] = int(score.to_json().get("flower_points", 0))
        return settlement.putian_win_deltas(winner, dealer, dealer_streak=0,
                                            flower_points=flowers)
    return settle


CASES: dict[str, list[_Case]] = {
    "jiaxing": [
        _Case(_("A half flush with a pung of East, self-drawn by South in the East round"),
              "JX-6.7", {"variant": "jiaxing", "hand": "123456789p11122z", "win_tile": "2z",
                         "wildcards": ["9s"], "seat": 1, "dealer": 0, "round_wind": "E",
                         "self_draw": True},
              _jiaxing(1), _("Each of the three others pays the score (JX-10).")),
        _Case(_("All pungs: the wildcard completes West's pung of the seat wind"),
              "JX-4", {"variant": "jiaxing", "hand": "111m555p99s777z33z5s", "win_tile": "3z",
                       "wildcards": ["5s"], "seat": 2, "dealer": 0, "round_wind": "E",
                       "self_draw": True},
              _jiaxing(2), _("Each of the three others pays the score (JX-10).")),
        _Case(_("A complete shape is not enough: no flush, no all pungs"),
              "JX-5.3", {"variant": "jiaxing", "hand": "234m567p789s55z666z", "win_tile": "6z",
                         "wildcards": ["1m"], "seat": 2, "dealer": 0, "round_wind": "E",
                         "self_draw": True},
              None, _("No win, so nobody pays.")),
    ],
    "putian": [
        _Case(_("The dealer self-draws holding one laid-out white"),
              "PT-7.2", {"variant": "putian", "hand": "111222333m456789p99s", "win_tile": "9s",
                         "wildcards": ["1s", "2s"], "seat": 0, "dealer": 0, "self_draw": True,
                         "flowers": 1, "dealer_streak": 0},
              _putian(0, 0), _("Each loser pays (base + flower points) × 2 (PT-7.2).")),
        _Case(_("South wins on a discard holding a gold and one laid-out white"),
              "PT-6", {"variant": "putian", "hand": "123456789m12345p1s99s", "win_tile": "9s",
                       "wildcards": ["1s", "2s"], "seat": 1, "dealer": 0, "self_draw": False,
                       "flowers": 1, "dealer_streak": 0},
              _putian(1, 0), _("Each loser pays (base + flower points) × 2; the dealer pays 2 "
                               "more (PT-7.2).")),
    ],
    "sichuan": [
        _Case(_("A plain win, self-drawn: the self-draw adds a fan"),
              "SC-5.15", {"variant": "sichuan", "hand": "111234567m78999p", "win_tile": "9p",
                          "seat": 1, "dealer": 0, "void": "s", "self_draw": True},
              lambda score: settlement.sichuan_self_draw_deltas(1, score.points, {0, 1, 2, 3}),
              _("Everyone still in pays the points (SC-6.2).")),
        _Case(_("A pure one suit won on East's discard"),
              "SC-5.3", {"variant": "sichuan", "hand": "11122233345699m", "win_tile": "9m",
                         "seat": 2, "dealer": 0, "void": "p", "self_draw": False},
              lambda score: settlement.sichuan_discard_win_deltas({2: score.points}, 0),
              _("Only the discarder pays (SC-6.1).")),
    ],
}


def examples(variant: str) -> list[Example]:
    """The variant's worked examples, scored and settled now by the engine."""
    found = []
    for case in CASES.get(variant, []):
        position = read_position({"melds": [], **case.position})
        score = position.variant.score(position)
        deltas = case.settle(score) if case.settle and score.win else None
        found.append(Example(
            title=str(case.title), rule=case.rule,
            hand=[str(t) for t in parse_tiles(case.position["hand"])],
            win_tile=case.position["win_tile"], wildcards=list(case.position["wildcards"])
            if "wildcards" in case.position else [],
            score=score, deltas=deltas, payment=str(case.payment),
            winds=[WINDS[(seat - position.dealer) % 4] for seat in range(4)]))
    return found


def unique_anchors(ids: Iterable[str]) -> list[str]:
    """One anchor per row: a rule id, then ``-2``, ``-3`` … where the id repeats.

    >>> unique_anchors(["PT-6", "PT-6.1", "PT-6", "PT-6"])
    ['PT-6', 'PT-6.1', 'PT-6-2', 'PT-6-3']
    """
    seen: dict[str, int] = {}
    anchors = []
    for rule in ids:
        seen[rule] = seen.get(rule, 0) + 1
        anchors.append(rule if seen[rule] == 1 else f"{rule}-{seen[rule]}")
    return anchors


RULE_ID = re.compile(r"\b((?:JX|PT|SC|C)-\d+(?:\.\d+)*)\b")


def anchor_for(rule: str, anchors: frozenset[str]) -> str:
    """The page's anchor for a rule id: itself, else its nearest section on the page (PT-7.2
    → PT-7), else the guide.

    >>> anchor_for("PT-7.2", frozenset({"PT-7"})), anchor_for("SC-9", frozenset())
    ('PT-7', 'guide')
    """
    parts = rule.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in anchors:
            return candidate
        parts.pop()
    return "guide"


def link_rule_ids(text: str, anchors: frozenset[str], base: str = "") -> SafeString:
    """Text with every rule id in it made a link to its anchor (escaped otherwise)."""
    pieces = RULE_ID.split(str(text))
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:
            out.append(format_html('<a class="rule-link" href="{}#{}">{}</a>', base,
                                   anchor_for(piece, anchors), piece))
        else:
            out.append(format_html("{}", piece))
    return mark_safe("".join(out))  # noqa: S308 - each piece escaped above


def rule_anchors(variant: str) -> frozenset[str]:
    """The anchors of a variant's rules page: one per pattern row and the guide's sections."""
    patterns = VARIANTS[variant].PATTERNS.values()
    return (frozenset(unique_anchors(p.id for p in patterns))
            | guide_sections(f"library/guide/{variant}.html"))


def link_rules_anywhere(text: str) -> SafeString:
    """Text with each rule id linked to the rules page that has it (its own anchor or its
    nearest section's), whichever variant's page that is; an id no page has stays text."""
    pieces = RULE_ID.split(str(text))
    out = []
    for index, piece in enumerate(pieces):
        target = _rule_target(piece) if index % 2 else None
        if target is None:
            out.append(format_html("{}", piece))
        else:
            out.append(format_html('<a class="rule-link" href="{}">{}</a>', target, piece))
    return mark_safe("".join(out))  # noqa: S308 - each piece escaped above


def _rule_target(rule: str) -> str | None:
    for variant in VARIANTS:
        anchor = anchor_for(rule, rule_anchors(variant))
        if anchor != "guide":
            return f"{reverse('rules', args=[variant])}#{anchor}"
    return None


@functools.cache
def guide_sections(template_name: str) -> frozenset[str]:
    """The rule ids a variant's guide (library/guide/<variant>.html) carries as anchors, read
    from the template itself so that a new section's anchor needs no list kept beside it."""
    source = get_template(template_name).template.source  # type: ignore[attr-defined]
    return frozenset(re.findall(r'\bid="([A-Z]{2}-[0-9.]+)"', source))
