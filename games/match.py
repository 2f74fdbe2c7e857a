"""Replaying a whole match: hands in order, what carries across them, and settlement.

:func:`replay` runs every hand of a :class:`games.log.Match` through its
variant's :class:`~games.table.Table`, checks what each hand states against
what the earlier hands left (JX-3 dealer and round wind, JX-7.11 the carried
fans, PT-1/PT-7.1 the dealer and streak), checks each ``end.deltas`` against
the settlement, and adds up the match. The first problem raises a
:class:`games.log.LogError` naming the hand, the event and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games import settlement
from games.log import Hand, LogError, Match
from games.registry import VARIANTS, table_class
from games.table import HandSetup, RuleViolation, Table, Win
from games.tiles import WINDS
from games.variants import Variant

BANK_ORDER = ("baozi", "laotouhuang", "baida_lianzhuang")


@dataclass
class Carry:
    """What one hand leaves to the next."""

    dealer: int | None = None
    round_wind: int = 0
    bank: tuple[str, ...] = ()
    wildcard: int | None = None
    dealer_streak: int = 0


@dataclass
class HandResult:
    """One replayed hand."""

    number: int
    table: Table
    deltas: list[int]
    end_reason: str
    bank: tuple[str, ...] = ()  # the carried fans the hand could use (JX-7.11)
    bank_after: tuple[str, ...] = ()
    fees: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def wins(self) -> list[Win]:
        return self.table.wins


@dataclass
class MatchResult:
    variant: type[Variant]
    hands: list[HandResult]
    totals: list[int]
    fees: list[int]
    balances: list[int] | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "ok": True,
            "hands": len(self.hands),
            "deltas": [h.deltas for h in self.hands],
            "totals": self.totals,
        }
        if any(self.fees):
            out["fees"] = self.fees
        if self.balances is not None:
            out["balances"] = self.balances
        return out


def _option(match: Match, name: str) -> Any:
    variant = VARIANTS[match.variant]
    option = variant.OPTIONS.get(name)
    return match.rules.get(name, option.default if option else 0)


class Replayer:
    """Replays one match hand by hand; ``hands()`` yields each as it is settled."""

    def __init__(self, match: Match) -> None:
        self.match = match
        self.variant = VARIANTS[match.variant]
        self.carry = Carry()
        self.results: list[HandResult] = []
        self.fee = int(_option(match, "fee") or 0)
        start = int(_option(match, "start_balance") or 0)
        # Balances are kept (JX-10.6 silver, SC-6.5 beans) when a fee or a start is set.
        self.balances: list[int] | None = [start] * 4 if self.fee or start else None
        self.coefficient = int(_option(match, "room_coefficient") or 1)

    def setup_for(self, number: int, hand: Hand) -> HandSetup:
        """Check what the hand states against what earlier hands left; build its setup."""
        expected = self._expected(number, hand)
        wildcards = frozenset(t.kind for t in hand.wildcards)
        bank = expected.bank + self._own_triggers(hand, wildcards)
        return HandSetup(
            variant=self.variant,
            players=self.match.players,
            rules=dict(self.match.rules),
            dealer=hand.dealer,
            deal=hand.deal,
            wildcards=wildcards,
            round_wind=WINDS.index(hand.round_wind) if hand.round_wind else 0,
            dice=hand.dice,
            indicator=hand.indicator,
            bank=bank,
            dealer_streak=expected.dealer_streak,
            wall=hand.wall,
            balances=tuple(self.balances) if self.balances is not None else None,
        )

    def _expected(self, number: int, hand: Hand) -> Carry:
        carry = self.carry
        name = self.variant.name
        first = number == 1
        if name == "jiaxing":
            stated_bank = tuple(hand.bank or ())
            if not first:
                _agree(number, carry.dealer == hand.dealer, "JX-3",
                       f"the dealer should be {self.match.players[carry.dealer or 0]}: the "
                       "dealer stays after a dealer win or an exhausted hand, otherwise (an "
                       "abandoned hand included) the next seat deals")
                _agree(number, hand.round_wind == WINDS[carry.round_wind], "JX-3",
                       f"the round wind should be {WINDS[carry.round_wind]}")
                _agree(number, hand.bank is None or stated_bank == carry.bank, "JX-7.11",
                       f"the carried fans should be {list(carry.bank)}, not {list(stated_bank)}")
                return Carry(hand.dealer, carry.round_wind, carry.bank, carry.wildcard)
            return Carry(hand.dealer, WINDS.index(hand.round_wind or "E"), stated_bank)
        if name == "putian":
            streak = hand.dealer_streak or 0
            if not first:
                _agree(number, carry.dealer == hand.dealer, "PT-1",
                       f"the dealer should be {self.match.players[carry.dealer or 0]}: the "
                       "dealer stays after a dealer win or an exhausted hand, otherwise (an "
                       "abandoned hand included) the next seat deals")
                _agree(number, hand.dealer_streak is None
                       or hand.dealer_streak == carry.dealer_streak, "PT-7.1",
                       f"the dealer streak should be {carry.dealer_streak}")
                streak = carry.dealer_streak
            return Carry(hand.dealer, dealer_streak=streak)
        return Carry(hand.dealer)

    def _own_triggers(self, hand: Hand, wildcards: frozenset[int]) -> tuple[str, ...]:
        """JX-7.11: 包子, 老头黄, 百搭连庄 appended at the start of the hand."""
        if self.variant.name != "jiaxing":
            return ()
        wildcard = min(wildcards) if wildcards else None
        triggers = {
            "baozi": hand.dice is not None and hand.dice[0] == hand.dice[1],
            "laotouhuang": wildcard is not None and wildcard >= 27,
            "baida_lianzhuang": wildcard is not None and wildcard == self.carry.wildcard,
        }
        return tuple(item for item in BANK_ORDER if triggers[item])

    def play(self, number: int, hand: Hand) -> HandResult:
        """Replay one hand; raise LogError at its first problem."""
        table = self.begin(number, hand)
        deltas: list[int] | None = None
        reason = "abandoned"
        events = hand.events
        try:
            done = table.apply_run(events)  # the common draw/discard stretch, fast
        except RuleViolation as problem:
            raise LogError(problem.message, hand=number, event=table.seen_events + 1,
                           rule=problem.rule) from None
        for index, event in enumerate(events[done:], start=done + 1):
            try:
                if event.type == "end":
                    reason = event.reason or "win"
                    deltas = table.finish(reason)
                    if event.deltas is not None and list(event.deltas) != deltas:
                        raise RuleViolation(settlement_rule(table),
                                            f"the deltas {list(event.deltas)} don't match the "
                                            f"settlement {deltas}")
                else:
                    table.apply(event)
            except RuleViolation as problem:
                raise LogError(problem.message, hand=number, event=index,
                               rule=problem.rule) from None
        if deltas is None:
            raise LogError("the hand has no end event", hand=number, rule="C-5")
        return self.conclude(number, hand, table, reason)

    def begin(self, number: int, hand: Hand) -> Table:
        """The table of a hand, its setup checked against the earlier hands."""
        self._check_minimum(number)
        setup = self._setup_checked(number, hand)
        try:
            return table_class(self.variant.name)(setup)
        except RuleViolation as problem:
            raise LogError(problem.message, hand=number, rule=problem.rule) from None

    def conclude(self, number: int, hand: Hand, table: Table, reason: str) -> HandResult:
        """Record a finished hand and what it leaves to the next."""
        result = HandResult(number, table, list(table.deltas), reason, table.setup.bank)
        result.fees = self._take_fees(result)
        self._carry_over(result, hand)
        self.results.append(result)
        return result

    def _setup_checked(self, number: int, hand: Hand) -> HandSetup:
        try:
            return self.setup_for(number, hand)
        except RuleViolation as problem:
            raise LogError(problem.message, hand=number, rule=problem.rule) from None

    def _carry_over(self, result: HandResult, hand: Hand) -> None:
        table = result.table
        dealer = hand.dealer
        dealer_won = any(w.seat == dealer for w in table.wins)
        # JX-3, PT-1: an abandoned hand is neither a win nor exhausted: the next seat deals.
        stays = dealer_won or result.end_reason == "exhausted"
        next_dealer = dealer if stays else (dealer + 1) % 4
        round_wind = table.setup.round_wind
        if dealer == 3 and next_dealer == 0:
            round_wind = (round_wind + 1) % 4  # the deal returns to seat 0 (JX-3)
        bank = list(result.bank)
        if table.wins and bank:
            bank.pop(0)  # a win counts the oldest carried fan (JX-7.11)
        if result.end_reason == "exhausted":
            bank.append("huangfan")
        result.bank_after = tuple(bank)
        wildcard = min((t.kind for t in hand.wildcards), default=None)
        streak = table.setup.dealer_streak + 1 if next_dealer == dealer else 0
        self.carry = Carry(next_dealer, round_wind, tuple(bank), wildcard, streak)

    def hands(self) -> Iterator[HandResult]:
        for number, hand in enumerate(self.match.hands, start=1):
            yield self.play(number, hand)

    def result(self) -> MatchResult:
        results = list(self.hands()) if not self.results else self.results
        totals = [sum(h.deltas[s] for h in results) for s in range(4)]
        fees = [sum(r.fees[s] for r in results) for s in range(4)]
        balances = list(self.balances) if self.balances is not None else None
        return MatchResult(self.variant, results, totals, fees, balances)

    def _check_minimum(self, number: int) -> None:
        """SC-6.5: a player below the room's minimum can't start another hand."""
        minimum = int(_option(self.match, "min_balance") or 0)
        if self.balances is None or number == 1:
            return
        short = [s for s in range(4) if self.balances[s] < minimum]
        if short:
            raise LogError(f"{self.match.players[short[0]]} has {self.balances[short[0]]}, below "
                           f"the room's minimum of {minimum}, and can't start another hand",
                           hand=number, rule="SC-6.5")

    def _take_fees(self, result: HandResult) -> list[int]:
        """JX-10.6 silver and SC-6.5 beans: the hand's deltas × N, then the fees taken
        separately, never below zero. The table's own house charges (SC-6.6) are in
        points, so they are multiplied by N like the deltas."""
        house = [charge * self.coefficient for charge in result.table.fees]
        balances = self.balances
        if balances is None:
            return house
        for seat in range(4):
            balances[seat] += result.deltas[seat] * self.coefficient
        if result.end_reason == "abandoned" and self.variant.name == "jiaxing":
            taken = self._leave_fees(result, balances, self.fee)
        else:
            taken = [min(self.fee + house[s], max(b, 0)) for s, b in enumerate(balances)]
        for seat in range(4):
            balances[seat] -= taken[seat]
        return taken

    def _leave_fees(self, result: HandResult, balances: list[int], fee: int) -> list[int]:
        penalty = int(_option(self.match, "escape_penalty") or 0)
        leavers = [s for s in range(4) if result.table.seats[s].left]
        taken = [0, 0, 0, 0]
        for seat in leavers:
            charges = settlement.jiaxing_leave_deltas(seat, balances, fee, penalty)
            taken[seat] = -charges[seat]
        return taken


def settlement_rule(table: Table) -> str:
    """The rule that decides a hand's settlement, for messages about wrong deltas."""
    variant = table.variant.name
    wins = table.wins
    if variant == "jiaxing":
        if not wins:
            return "JX-10"
        if wins[-1].how == "robbing_kong":
            return "JX-10.4"
        if table.contracts:
            in_contract = any(wins[-1].seat in pair for pair in table.contracts)
            return "JX-10.2" if in_contract else "JX-10.3"
        return "JX-10.1"
    if variant == "putian":
        if not wins:
            return "PT-7.5"
        bomb = wins[-1].score.extra.get("bomb")
        return "PT-7.3" if bomb in ("big", "super") else "PT-7.2"
    if any(seat.left for seat in table.seats):
        return "SC-6.6"  # the leaver's charge and compensation decide the hand
    if table.end_reason == "exhausted":
        return "SC-6.4"
    return "SC-6.2" if wins and wins[-1].target is None else "SC-6.1"


def _agree(number: int, ok: bool, rule: str, message: str) -> None:
    if not ok:
        raise LogError(message, hand=number, rule=rule)


def replay(match: Match) -> MatchResult:
    """Replay every hand and settle the match; raises LogError at the first problem."""
    return Replayer(match).result()
