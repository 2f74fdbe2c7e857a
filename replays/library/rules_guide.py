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
from django.utils.safestring import SafeData, SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from games.core import settlement
from games.core.tiles import WINDS, parse_tiles
from games.core.variant import Score
from games.variants.positions import read_position
from games.variants.registry import VARIANTS
from replays.library.rule_book import book


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
        # The house rules (SC-H), each with its option on.
        _Case(_("自摸加底 (house rule): the same pure one suit self-drawn adds a base, not a fan"),
              "SC-H4", {"variant": "sichuan", "hand": "11122233345699m", "win_tile": "9m",
                        "seat": 2, "dealer": 0, "void": "p", "self_draw": True,
                        "rules": {"self_draw_bonus": "base"}},
              lambda score: settlement.sichuan_self_draw_deltas(2, score.points, {0, 1, 2, 3}),
              _("Everyone still in pays the points and 1 base more (SC-6.2, SC-H4).")),
        _Case(_("门清中张 (house rule): no pung, no 1 or 9, won on East's discard"),
              "SC-H6", {"variant": "sichuan", "hand": "234m456m678m23455p", "win_tile": "5p",
                        "seat": 2, "dealer": 0, "void": "s",
                        "rules": {"concealed_middle": True}},
              lambda score: settlement.sichuan_discard_win_deltas({2: score.points}, 0),
              _("Only the discarder pays (SC-6.1).")),
        _Case(_("金钩钓 (house rule): four pungs shown and one tile held, won on East's discard"),
              "SC-H7", {"variant": "sichuan", "hand": "55m", "win_tile": "5m", "seat": 2,
                        "dealer": 0, "void": "s",
                        "melds": [{"type": "peng", "tile": t} for t in ("2m", "4m", "6p", "8p")],
                        "rules": {"golden_hook": True}},
              lambda score: settlement.sichuan_discard_win_deltas({2: score.points}, 0),
              _("Only the discarder pays (SC-6.1).")),
        _Case(_("海底 (house rule): a plain win self-drawn on the wall's last tile"),
              "SC-H8", {"variant": "sichuan", "hand": "111234567m78999p", "win_tile": "9p",
                        "seat": 1, "dealer": 0, "void": "s", "self_draw": True,
                        "last_tile": True, "rules": {"sea_bottom": True}},
              lambda score: settlement.sichuan_self_draw_deltas(1, score.points, {0, 1, 2, 3}),
              _("Everyone still in pays the points (SC-6.2).")),
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


@dataclass(frozen=True)
class SettledExample:
    """A contract or a leaving, settled by the engine: each seat's wind, what it pays or
    receives (and, for a contract, how many times the score it pays)."""

    key: str
    winds: list[str]
    deltas: list[int]
    multipliers: list[int | None] | None = None  # None: the winner, who pays nothing
    house: int = 0  # what leaves the table for the house (a fee, a leaver's charge)


# Jiaxing contracts (JX-9, JX-10.2, JX-10.3): East and South are in a contract (South claimed
# three of East's discards), West persists and North gives up; the winner's score is
# base 1 × 2 tai × 2¹ = 4. The page's prose states these numbers, worked by hand.
CONTRACT_PAIRS = [(0, 1)]
CONTRACT_GAVE_UP = [3]
CONTRACT_SCORE = (1, 2, 1)  # base, tai, fan


def contract_examples() -> list[SettledExample]:
    """The contract's two cases: the winner in the contract (South), and not (West)."""
    base, tai, fan = CONTRACT_SCORE
    found = []
    for key, winner in (("in", 1), ("out", 2)):
        lines = settlement.jiaxing_win_payments(winner, base, tai, fan, contracts=CONTRACT_PAIRS,
                                                gave_up=CONTRACT_GAVE_UP)
        multipliers = settlement.jiaxing_multipliers(winner, contracts=CONTRACT_PAIRS,
                                                     gave_up=CONTRACT_GAVE_UP)
        shown: list[int | None] = [None if seat == winner else times
                                   for seat, times in enumerate(multipliers)]
        found.append(SettledExample(key, list(WINDS), settlement.deltas_of(lines), shown))
    return found


def _jiaxing_leave() -> SettledExample:
    # North leaves mid-hand with 500 silver; the fee is 50 and the escape penalty 100.
    deltas = settlement.jiaxing_leave_deltas(3, [500, 500, 500, 500], 50, 100)
    return SettledExample("jiaxing", list(WINDS), deltas, house=-sum(deltas))


def _sichuan_leave() -> SettledExample:
    # North leaves, not ready; East (best wait 4 points) and South (2) are ready, West is not;
    # the cap is 4 fan = 8 points, X = 1, no minimum.
    lines = settlement.sichuan_leave_payments(3, {0: 4, 1: 2, 2: 0}, cap_points=8)
    house = settlement.house_of(lines)
    deltas = [d - h for d, h in zip(settlement.deltas_of(lines), house, strict=True)]
    return SettledExample("sichuan", list(WINDS), deltas, house=sum(house))


LEAVING: dict[str, Callable[[], SettledExample]] = {
    "jiaxing": _jiaxing_leave, "sichuan": _sichuan_leave}


def _sichuan_house() -> dict[str, SettledExample]:
    # SC-H2: South wins on East's discard (2 fan → 2 points), stays with a locked hand and
    # later self-draws a plain win (2 fan → 2 points, all three others pay).
    everyone = {0, 1, 2, 3}
    blood = [*settlement.sichuan_win_payments(1, 2, 2, discarder=0, still_in=everyone),
             *settlement.sichuan_win_payments(1, 2, 2, discarder=None, still_in=everyone)]
    # SC-H3: East makes an exposed kong of West's discard (West pays 2), draws the
    # replacement and discards; South wins on it (杠上炮, 2 fan → 2 points) and takes the 2.
    kong = settlement.sichuan_kong_payments(0, "exposed", still_in=everyone, feeder=2)
    win = settlement.sichuan_win_payments(1, 2, 2, discarder=0, still_in=everyone)
    transfer = settlement.sichuan_transfer_payments(0, [1], sum(p.amount for p in kong))
    return {"blood_flow": SettledExample("blood_flow", list(WINDS), settlement.deltas_of(blood)),
            "call_transfer": SettledExample("call_transfer", list(WINDS), settlement.deltas_of(
                [*kong, *win, *transfer]))}


HOUSE: dict[str, Callable[[], dict[str, SettledExample]]] = {"sichuan": _sichuan_house}


def house_examples(variant: str) -> dict[str, SettledExample]:
    """The variant's house rules that change play, settled by the engine (SC-H2, SC-H3)."""
    make = HOUSE.get(variant)
    return make() if make else {}


def leave_example(variant: str) -> SettledExample | None:
    """The variant's leaving, settled by the engine (None where leaving costs nothing)."""
    make = LEAVING.get(variant)
    return make() if make else None


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


RULE_ID = re.compile(r"\b((?:JX|PT|SC|C)-(?:\d+(?:\.\d+)*[a-c]?|H\d*))\b")


def anchor_for(rule: str, anchors: frozenset[str]) -> str:
    """The page's anchor for a rule id: itself, else its nearest section on the page (PT-7.2
    → PT-7), else the guide.

    >>> anchor_for("PT-7.2", frozenset({"PT-7"})), anchor_for("SC-9", frozenset())
    ('PT-7', 'guide')
    >>> anchor_for("SC-6.4b", frozenset({"SC-6.4"}))
    'SC-6.4'

    """
    if rule in anchors:
        return rule
    parts = rule.rstrip("abc").split(".")  # SC-6.4a → SC-6.4 → SC-6
    while parts:
        candidate = ".".join(parts)
        if candidate in anchors:
            return candidate
        parts.pop()
    return "guide"


def link_rule_ids(text: str, anchors: frozenset[str], base: str = "") -> SafeString:
    """Text with every rule id in it made a link to its anchor (escaped otherwise): on this
    page where it has one, else on the rules page that has it (SC-3 cites JX-2.2)."""
    pieces = RULE_ID.split(str(text))
    out = []
    for index, piece in enumerate(pieces):
        if index % 2:
            anchor = anchor_for(piece, anchors)
            target = _rule_target(piece) if anchor == "guide" else None
            out.append(format_html('<a class="rule-link" href="{}">{}</a>',
                                   target or f"{base}#{anchor}", piece))
        else:
            out.append(format_html("{}", piece))
    return mark_safe("".join(out))  # noqa: S308 - each piece escaped above


def prefixes() -> dict[str, str]:
    """Each variant's rule-id prefix (from its own pattern table), to its name.

    >>> sorted(prefixes())
    ['JX', 'PT', 'SC']
    """
    return {next(iter(cls.PATTERNS.values())).id.split("-")[0]: name
            for name, cls in VARIANTS.items()}


def placed_anchors(variant: str) -> frozenset[str]:
    """The anchors a variant's page has outside its rule book: one per pattern row and the
    guide's sections (the contract and leaving explanations among them)."""
    patterns = VARIANTS[variant].PATTERNS.values()
    return (frozenset(unique_anchors(p.id for p in patterns))
            | guide_sections(f"library/guide/{variant}.html"))


def book_entries(variant: str) -> list[tuple[str, str, bool]]:
    """The variant's rule book: each id, its statement and whether the book holds its anchor
    (an id with a pattern row or a guide section keeps its anchor there)."""
    prefix = {name: pre for pre, name in prefixes().items()}[variant]
    placed = placed_anchors(variant)
    return [(rule, str(text), rule not in placed) for rule, text in book(prefix)]


@functools.cache
def rule_anchors(variant: str) -> frozenset[str]:
    """The anchors of a variant's rules page: its pattern rows, its guide's sections and every
    other rule id of its book (the common ground's included)."""
    prefix = {name: pre for pre, name in prefixes().items()}[variant]
    return placed_anchors(variant) | frozenset(rule for rule, _ in book(prefix))


def rule_href(rule: str, variant: str | None = None) -> str:
    """The address of a rule id's anchor: on the page of the variant its prefix names, the
    given variant's page for a common id (C-6), else wherever a page has it; the variant's
    guide when no page does.

    >>> rule_href("SC-6.4", "sichuan"), rule_href("C-6", "putian")
    ('/rules/sichuan/#SC-6.4', '/rules/putian/#C-6')
    >>> rule_href("JX-10.2", "sichuan")
    '/rules/jiaxing/#JX-10.2'
    """
    owner = prefixes().get(rule.split("-")[0], variant)
    if owner in VARIANTS:
        anchor = anchor_for(rule, rule_anchors(owner))
        if anchor != "guide" or variant == owner:
            return f"{reverse('rules', args=[owner])}#{anchor}"
    return _rule_target(rule) or f"{reverse('rules', args=[variant or 'jiaxing'])}#guide"


# Left as they are in safe markup: links, and elements whose text can't hold a link.
_MARKUP = re.compile(r"(<a\b.*?</a>|<script\b.*?</script>|<textarea\b.*?</textarea>"
                     r"|<button\b.*?</button>|<select\b.*?</select>|<[^>]+>)", re.S)


def link_rules_anywhere(text: str, variant: str | None = None) -> SafeString:
    """Text with each rule id linked to the rules page that has it (its own anchor or its
    nearest section's), whichever variant's page that is; an id no page has stays text.

    Markup already safe (a rendered block) keeps its tags and links as they are: only the
    ids in its text become links.

    >>> str(link_rules_anywhere(mark_safe("Pick <strong>every</strong> tile (JX-5.1)")))
    'Pick <strong>every</strong> tile (<a class="rule-link" href="/rules/jiaxing/#JX-5.1">JX-5.1</a>)'
    """
    if isinstance(text, SafeData):
        return mark_safe("".join(  # noqa: S308 - the markup was safe, the links are built safe
            piece if index % 2 else _link_ids(piece, variant, escape=False)
            for index, piece in enumerate(_MARKUP.split(str(text)))))
    return _link_ids(str(text), variant, escape=True)


def _link_ids(text: str, variant: str | None, escape: bool) -> SafeString:
    pieces = RULE_ID.split(text)
    out: list[str] = []
    for index, piece in enumerate(pieces):
        target = None
        if index % 2:
            target = rule_href(piece, variant) if variant else _rule_target(piece)
        if target is not None:
            out.append(format_html('<a class="rule-link" href="{}">{}</a>', target, piece))
        else:
            out.append(format_html("{}", piece) if escape else piece)
    return mark_safe("".join(out))  # noqa: S308 - each piece escaped above, or safe already


def _rule_target(rule: str) -> str | None:
    owner = prefixes().get(rule.split("-")[0])
    for variant in ([owner] if owner else []) + [v for v in VARIANTS if v != owner]:
        anchor = anchor_for(rule, rule_anchors(variant))
        if anchor != "guide":
            return f"{reverse('rules', args=[variant])}#{anchor}"
    return None


@functools.cache
def guide_sections(template_name: str) -> frozenset[str]:
    """The rule ids a variant's guide (library/guide/<variant>.html) carries as anchors, read
    from the template itself so that a new section's anchor needs no list kept beside it."""
    source = get_template(template_name).template.source  # type: ignore[attr-defined]
    return frozenset(re.findall(r'\bid="([A-Z]{2}-(?:[0-9.]+|H[0-9]*))"', source))
