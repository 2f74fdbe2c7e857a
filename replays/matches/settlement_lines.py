"""The itemised settlement a viewer shows: the engine's payment lines, worded.

The amounts come from the table's own lines (games.core.settlement.Payment); this
module only words them in the reader's language and keeps running totals, so
what the page shows is the engine's settlement, never a sum redone here.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.core.settlement import Formula
from games.core.table import Settled
from replays.kept import in_each_language

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


@dataclass(frozen=True)
class LineView:
    """One payment as shown: its rule, cause, formula, who pays whom, and the totals after it."""

    rule: str
    cause: str
    formula: str
    payer: str
    payee: str
    amount: int
    totals: tuple[int, ...]
    step: int
    players: tuple[str, ...] = ()
    to_house: bool = False  # a fee or a leaver's charge: off the balance, not the points

    @property
    def named_totals(self) -> list[tuple[str, int]]:
        """Each seat's name with its running total, for a phone's card (no column heads)."""
        return list(zip(self.players, self.totals, strict=False))


@in_each_language(at_most=16)
def _causes() -> dict[str, str]:
    return {
        "win": _("win"), "kong": _("kong payment (刮风下雨)"),
        "flower_pig": _("flower pig (查花猪)"), "not_ready": _("not ready (查大叫)"),
        "refund": _("kong refund"), "flowers": _("flower settlement (算花)"),
        "leave": _("compensation for leaving"), "charge": _("leaver's charge"),
        "fee": _("fee"), "call_transfer": _("call transfer (呼叫转移)"),
    }


def _tai_fan(n: Mapping[str, int]) -> str:
    text = _("%(base)s base × %(tai)s tai × 2%(fan)s = %(score)s") % {
        "base": n["base"], "tai": n["tai"], "fan": str(n["fan"]).translate(_SUPERSCRIPT),
        "score": n["score"]}
    return text if n["times"] == 1 else f"{text} × {n['times']} = {n['score'] * n['times']}"


def _flowers_doubled(n: Mapping[str, int]) -> str:
    text = ngettext("(%(base)s base + %(flowers)s flower) × 2",
                    "(%(base)s base + %(flowers)s flowers) × 2", n["flowers"]) % n
    if n["dealer"]:
        text += " + " + _("%(dealer)s dealer") % n
    return f"{text} = {n['amount']}"


def _leave(n: Mapping[str, int]) -> str:
    full = max(n["owed"] * n["factor"], n["minimum"])
    text = f"max({n['owed']} × {n['factor']}, {n['minimum']}) = {full}"
    return text if full == n["amount"] else f"{text} → {n['amount']}"


def _charge(n: Mapping[str, int]) -> str:
    full = max(n["cap"] * n["players"] + n["owed"] * n["factor"], n["minimum"])
    text = _("%(cap)s cap × %(players)s players + %(owed)s × %(factor)s") % n + f" = {full}"
    return text if full == n["amount"] else f"{text} → {n['amount']}"


_WORDING: dict[str, Callable[[Mapping[str, int]], str]] = {
    "base_tai_fan": _tai_fan,
    "flowers_doubled": _flowers_doubled,
    "bomb": lambda n: _("bomb: %(amount)s") % n,
    "flowers": lambda n: ngettext("%(more)s flower", "%(more)s flowers", n["more"]) % n
    + " − " + ngettext("%(fewer)s flower", "%(fewer)s flowers", n["fewer"]) % n
    + f" = {n['more'] - n['fewer']}",
    "fan_points": lambda n: ngettext("%(fan)s fan → %(points)s point",
                                     "%(fan)s fan → %(points)s points", n["points"]) % n,
    "fan_points_base": lambda n: ngettext("%(fan)s fan → %(points)s point",
                                          "%(fan)s fan → %(points)s points", n["points"]) % n
    + " + " + _("%(bonus)s base more for the self-draw (SC-H4)") % n + f" = {n['amount']}",
    "kong": lambda n: _("%(stake)s × %(base)s base") % n + f" = {n['stake'] * n['base']}",
    "cap": lambda n: _("the cap, %(cap)s points") % n,
    "ready": lambda n: ngettext("their best win, %(points)s point",
                                "their best win, %(points)s points", n["points"]) % n,
    "refund": lambda n: _("gives back %(amount)s") % n,
    "transfer": lambda n: (_("the kong's takings, %(takings)s") % n if n["winners"] == 1
                           else _("the kong's takings, %(takings)s, shared by %(winners)s "
                                  "winners") % n + f" → {n['amount']}"),
    "leave": _leave,
    "charge": _charge,
}


def formula_text(formula: Formula) -> str:
    """A formula in the reader's language, from the engine's numbers."""
    return _WORDING[formula.kind](dict(formula.numbers))


def line_views(
    payments: Sequence[Settled], players: Sequence[str], totals_before: Sequence[int]
) -> list[LineView]:
    """Each payment worded, with every seat's running total after it.

    The totals are the match's points, as the board shows them: a payment to the house
    (a fee, a leaver's charge) comes off a balance and leaves the points alone (C-6)."""
    totals = list(totals_before)
    causes = _causes()
    views = []
    for settled in payments:
        line = settled.line
        if line.payee is not None:
            totals[line.payer] -= line.amount
            totals[line.payee] += line.amount
        views.append(LineView(
            rule=line.rule, cause=causes.get(line.cause, line.cause),
            formula=formula_text(line.formula), payer=players[line.payer],
            payee=players[line.payee] if line.payee is not None else _("the house"),
            amount=line.amount, totals=tuple(totals), step=settled.event + 1,
            players=tuple(players), to_house=line.payee is None,
        ))
    return views
