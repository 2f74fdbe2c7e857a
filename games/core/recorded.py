"""A hand recorded at a real table, settled by the variant's rules (issue 30's ledger).

A ledger replays no tiles: it keeps what the players at the table agreed on — who won,
from whom, for how many tai or fan, the kongs, and at an exhausted hand who was a 花猪 and
who was ready for how much — and the variant's class turns it into the engine's payment
lines (``Variant.recorded_lines``), each with its rule. This module holds the record and
the checks every variant shares; the money is :mod:`games.core.settlement`'s.

>>> hand = RecordedHand(wins=(RecordedWin(1, discarder=0, fan=2),))
>>> hand.wins[0].self_drawn, hand.winners
(False, [1])
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core.settlement import SettlementError


@dataclass(frozen=True)
class RecordedWin:
    """One win: ``winner`` took it from ``discarder`` (None: self-drawn; the robbed seat of a
    robbed kong), worth ``fan`` and, where the variant counts them, ``tai``."""

    winner: int
    discarder: int | None = None
    fan: int = 0
    tai: int = 0

    @property
    def self_drawn(self) -> bool:
        return self.discarder is None


@dataclass(frozen=True)
class RecordedKong:
    """A kong of ``kind`` (``exposed``, ``added``, ``concealed``) by ``seat``, on ``feeder``'s
    discard for an exposed one, made after ``after_wins`` of the hand's wins."""

    seat: int
    kind: str
    feeder: int | None = None
    after_wins: int = 0


@dataclass(frozen=True)
class RecordedHand:
    """What a hand came to, as the players tell it.

    ``wins`` in the order they happened; ``kongs``; at an exhausted hand the 花猪 seats
    (``flower_pigs``) and each ready seat's best wait in fan (``ready_fan``); and, for a
    variant that reads them, the dealer, the dealer's streak, every seat's flower points
    and a bomb.
    """

    wins: tuple[RecordedWin, ...] = ()
    kongs: tuple[RecordedKong, ...] = ()
    flower_pigs: frozenset[int] = frozenset()
    ready_fan: Mapping[int, int] = field(default_factory=dict)
    dealer: int = 0
    dealer_streak: int = 0
    flower_points: tuple[int, ...] = (0, 0, 0, 0)
    bomb: str | None = None

    @property
    def winners(self) -> list[int]:
        return [win.winner for win in self.wins]

    @property
    def checked_at_the_end(self) -> bool:
        """Whether 花猪 or ready seats were given (only an exhausted hand reads them)."""
        return bool(self.flower_pigs or self.ready_fan)


def check_recorded(hand: RecordedHand, *, most_wins: int, wins_rule: str) -> None:
    """The checks every variant makes: seats 0–3 (C-2), at most ``most_wins`` wins
    (``wins_rule``), no win on one's own discard (C-5), kongs after wins that happened.

    >>> check_recorded(RecordedHand(wins=(RecordedWin(2, 2, fan=1),)), most_wins=1,
    ...                wins_rule="PT-5.2")
    Traceback (most recent call last):
    ...
    games.core.settlement.SettlementError: C-5: seat 2 can't win on their own discard
    >>> check_recorded(RecordedHand(wins=(RecordedWin(0), RecordedWin(1))), most_wins=1,
    ...                wins_rule="JX-5.1")
    Traceback (most recent call last):
    ...
    games.core.settlement.SettlementError: JX-5.1: a hand here has at most 1 win, not 2
    """
    if len(hand.wins) > most_wins:
        raise SettlementError(wins_rule, f"a hand here has at most {most_wins} win"
                              f"{'' if most_wins == 1 else 's'}, not {len(hand.wins)}")
    seats = [*(w.winner for w in hand.wins), *(w.discarder for w in hand.wins),
             *(k.seat for k in hand.kongs), *(k.feeder for k in hand.kongs),
             *hand.flower_pigs, *hand.ready_fan, hand.dealer]
    for seat in seats:
        if seat is not None and not 0 <= seat <= 3:
            raise SettlementError("C-2", f"{seat} is not a seat 0–3")
    for win in hand.wins:
        if win.discarder == win.winner:
            raise SettlementError("C-5", f"seat {win.winner} can't win on their own discard")
        if win.fan < 0 or win.tai < 0:
            raise SettlementError("C-6", f"seat {win.winner}'s win can't be worth less than 0")
    for kong in hand.kongs:
        if not 0 <= kong.after_wins <= len(hand.wins):
            raise SettlementError("C-2", f"a kong can't come after {kong.after_wins} wins "
                                  f"of a hand with {len(hand.wins)}")
    if len(hand.flower_points) != 4 or any(p < 0 for p in hand.flower_points):
        raise SettlementError("C-2", "flower points are four numbers, none below 0")
    if hand.dealer_streak < 0:
        raise SettlementError("C-2", "the dealer's streak can't be below 0")


def rule_of(options: Mapping[str, Any], rules: Mapping[str, Any], name: str) -> Any:
    """A rules option's value: the table's, else the option's default.

    >>> from games.core.variant import Option
    >>> rule_of({"base": Option("base", 1, "")}, {}, "base")
    1
    """
    return rules[name] if name in rules else options[name].default
