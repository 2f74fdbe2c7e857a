"""Replaying a whole match: hands in order, what carries across them, and settlement.

:func:`replay` runs every hand of a :class:`games.records.log.MatchLog` through its
variant's :class:`~games.core.table.Table`, checks what each hand states against
what the earlier hands left (JX-3 dealer and round wind, JX-7.11 the carried
fans, PT-1/PT-7.1 the dealer and streak), checks each ``end.deltas`` against
the settlement, and adds up the match. The first problem raises a
:class:`games.records.log.LogError` naming the hand, the event and the rule.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from games.core import settlement
from games.core.messages import Message
from games.core.table import HandSetup, RuleViolation, Table, Win
from games.core.tiles import WINDS
from games.core.variant import Variant
from games.records.log import EngineFault, HandLog, LogError, MatchLog
from games.variants.registry import VARIANTS, table_class


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
        # Issue 15, additive: each hand's payment lines, with the event that paid them.
        out["payments"] = [
            [{"event": settled.event, **settled.line.to_json()} for settled in h.table.payments]
            for h in self.hands
        ]
        if self.balances is not None:
            out["balances"] = self.balances
        return out


def _option(match: MatchLog, name: str) -> Any:
    variant = VARIANTS[match.variant]
    option = variant.OPTIONS.get(name)
    return match.rules.get(name, option.default if option else 0)


class Replayer:
    """Replays one match hand by hand; ``hands()`` yields each as it is settled."""

    def __init__(self, match: MatchLog) -> None:
        self.match = match
        self.variant = VARIANTS[match.variant]
        self.carry = Carry()
        self.results: list[HandResult] = []
        self.fee = int(_option(match, "fee") or 0)
        start = int(_option(match, "start_balance") or 0)
        # Balances are kept (JX-10.6 silver, SC-6.5 beans) when a fee or a start is set.
        self.balances: list[int] | None = [start] * 4 if self.fee or start else None
        self.coefficient = int(_option(match, "room_coefficient") or 1)

    def setup_for(self, number: int, hand: HandLog) -> HandSetup:
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

    def _expected(self, number: int, hand: HandLog) -> Carry:
        """What the hand must state, from the earlier hands; the first hand states it."""
        if number == 1:
            return Carry(hand.dealer, WINDS.index(hand.round_wind or "E"), tuple(hand.bank or ()),
                         dealer_streak=hand.dealer_streak or 0)
        carry = self.carry
        variant = self.variant
        if variant.DEALER_RULE is not None:
            _agree(number, carry.dealer == hand.dealer, variant.DEALER_RULE,
                   Message("the dealer should be {player}: the dealer stays after a dealer "
                           "win or an exhausted hand, otherwise (an abandoned hand included) "
                           "the next seat deals", player=self.match.players[carry.dealer or 0]))
        fields = variant.HAND_FIELDS
        if "round_wind" in fields:
            _agree(number, hand.round_wind == WINDS[carry.round_wind], variant.OWN_FIELDS[
                "round_wind"], Message("the round wind should be {wind}",
                                       wind=WINDS[carry.round_wind]))
        bank = carry.bank if "bank" in fields else ()
        if "bank" in fields and hand.bank is not None:
            _agree(number, tuple(hand.bank) == bank, variant.OWN_FIELDS["bank"],
                   Message("the carried fans should be {bank}, not {given}", bank=list(bank),
                           given=list(hand.bank)))
        streak = carry.dealer_streak if "dealer_streak" in fields else 0
        if "dealer_streak" in fields:
            _agree(number, hand.dealer_streak is None or hand.dealer_streak == streak,
                   variant.OWN_FIELDS["dealer_streak"],
                   Message("the dealer streak should be {n}", n=streak))
        return Carry(hand.dealer, carry.round_wind, bank, carry.wildcard, streak)

    def _own_triggers(self, hand: HandLog, wildcards: frozenset[int]) -> tuple[str, ...]:
        """The carried fans a hand adds at its start (JX-7.11; none in most variants)."""
        wildcard = min(wildcards) if wildcards else None
        return self.variant.bank_triggers(hand.dice, wildcard, self.carry.wildcard)

    def play(self, number: int, hand: HandLog) -> HandResult:
        """Replay one hand; raise LogError at its first problem (EngineFault, placed, at an
        error of the engine's own)."""
        try:
            return self._play(number, hand)
        except LogError:
            raise
        except Exception as error:
            raise EngineFault.of(error, hand=number) from error

    def _play(self, number: int, hand: HandLog) -> HandResult:
        table = self.begin(number, hand)
        deltas: list[int] | None = None
        reason = "abandoned"
        events = hand.events
        try:
            done = table.apply_run(events)  # the common draw/discard stretch, fast
        except RuleViolation as problem:
            raise LogError(problem.message, hand=number, event=table.seen_events + 1,
                           rule=problem.rule) from None
        except Exception as error:
            raise EngineFault.of(error, event=table.seen_events + 1) from error
        for index, event in enumerate(events[done:], start=done + 1):
            try:
                if event.type == "end":
                    reason = event.reason or "win"
                    deltas = table.finish(reason)
                    if event.deltas is not None and list(event.deltas) != deltas:
                        raise RuleViolation(settlement_rule(table), Message(
                            "the deltas {deltas} don't match the settlement {settled}",
                            deltas=list(event.deltas), settled=deltas))
                else:
                    table.apply(event)
            except RuleViolation as problem:
                raise LogError(problem.message, hand=number, event=index,
                               rule=problem.rule) from None
            except Exception as error:
                raise EngineFault.of(error, event=index) from error
        if deltas is None:
            raise LogError(Message("the hand has no end event"), hand=number, rule="C-5")
        return self.conclude(number, hand, table, reason)

    def begin(self, number: int, hand: HandLog) -> Table:
        """The table of a hand, its setup checked against the earlier hands."""
        self._check_minimum(number)
        setup = self._setup_checked(number, hand)
        try:
            return table_class(self.variant.name)(setup)
        except RuleViolation as problem:
            raise LogError(problem.message, hand=number, rule=problem.rule) from None

    def conclude(self, number: int, hand: HandLog, table: Table, reason: str) -> HandResult:
        """Record a finished hand and what it leaves to the next."""
        result = HandResult(number, table, list(table.deltas), reason, table.setup.bank)
        result.fees = self._take_fees(result)
        self._carry_over(result, hand)
        self.results.append(result)
        return result

    def _setup_checked(self, number: int, hand: HandLog) -> HandSetup:
        try:
            return self.setup_for(number, hand)
        except RuleViolation as problem:
            raise LogError(problem.message, hand=number, rule=problem.rule) from None

    def _carry_over(self, result: HandResult, hand: HandLog) -> None:
        table = result.table
        dealer = hand.dealer
        dealer_won = any(w.seat == dealer for w in table.wins)
        # JX-3, PT-1: an abandoned hand is neither a win nor exhausted: the next seat deals.
        stays = dealer_won or result.end_reason == "exhausted"
        next_dealer = dealer if stays else (dealer + 1) % 4
        round_wind = table.setup.round_wind
        if dealer == 3 and next_dealer == 0:
            round_wind = (round_wind + 1) % 4  # the deal returns to seat 0 (JX-3)
        bank = self.variant.bank_after(result.bank, won=bool(table.wins),
                                       exhausted=result.end_reason == "exhausted")
        result.bank_after = bank
        wildcard = min((t.kind for t in hand.wildcards), default=None)
        streak = table.setup.dealer_streak + 1 if next_dealer == dealer else 0
        self.carry = Carry(next_dealer, round_wind, bank, wildcard, streak)

    def hands(self) -> Iterator[HandResult]:
        for number, hand in enumerate(self.match.hands, start=1):
            yield self.play(number, hand)

    def result(self) -> MatchResult:
        results = list(self.hands()) if not self.results else self.results
        totals = [sum(h.deltas[s] for h in results) for s in range(4)]
        fees = [sum(r.fees[s] for r in results) for s in range(4)]
        balances = list(self.balances) if self.balances is not None else None
        return MatchResult(self.variant, results, totals, fees, balances)

    def short_of_minimum(self) -> tuple[int, int, int] | None:
        """SC-6.5: the first seat whose balance is below the room's minimum, with that
        balance and the minimum (0 unless the rules set one), or None: such a player
        can't start another hand. Only where balances are kept."""
        minimum = int(_option(self.match, "min_balance") or 0)
        if self.balances is None:
            return None
        short = [s for s in range(4) if self.balances[s] < minimum]
        return (short[0], self.balances[short[0]], minimum) if short else None

    def _check_minimum(self, number: int) -> None:
        """SC-6.5: a player below the room's minimum can't start another hand."""
        short = None if number == 1 else self.short_of_minimum()
        if short:
            raise LogError(Message("{player} has {n}, below the room's minimum of {minimum}, "
                                   "and can't start another hand",
                                   player=self.match.players[short[0]],
                                   n=short[1], minimum=short[2]),
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
        if result.end_reason == "abandoned" and self.variant.LEAVERS_PAY_ON_ABANDON:
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
    return table.settlement_rule()


def _agree(number: int, ok: bool, rule: str, message: str) -> None:
    if not ok:
        raise LogError(message, hand=number, rule=rule)


def replay(match: MatchLog) -> MatchResult:
    """Replay every hand and settle the match; raises LogError at the first problem."""
    return Replayer(match).result()
