"""Money: who pays whom when a hand ends (RULES C-6, JX-10, PT-7, SC-6).

This module is money only. It receives scores that were already computed
elsewhere (Jiaxing base × tai × 2^fan, Putian flower points, Sichuan points)
and turns them into *deltas*: a list of four integers, one per seat 0–3
(RULES C-2), that says how much each seat wins (positive) or pays (negative).

Every win, kong and exhausted-hand settlement sums to zero (C-6):

>>> deltas = jiaxing_win_deltas(0, 60, contracts=[(0, 1)], robbed=1)
>>> deltas
[720, -480, -120, -120]
>>> sum(deltas)
0

House fees (Jiaxing's service fee F and escape penalty, JX-10.6; Sichuan's
fee A, SC-6.5) leave the table, so the functions that compute them return
amounts that do *not* sum to zero; they are kept apart from the deltas, as
C-6 asks, and never take a balance below zero.

Bad arguments raise :class:`SettlementError`, a :class:`ValueError` whose
message starts with the rule it breaks:

>>> jiaxing_win_deltas(0, 60, robbed=0)
Traceback (most recent call last):
...
games.core.settlement.SettlementError: JX-8: seat 0 can't rob their own kong
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

Seat = int
"""A seat 0–3 in playing order (RULES C-2)."""

SEATS: tuple[Seat, ...] = (0, 1, 2, 3)

PUTIAN_BOMBS: dict[str, int] = {"big": 50, "super": 100}
"""PT-7.3: what each loser pays for a 大炸弹 / 超级大炸弹."""

SICHUAN_KONGS: dict[str, int] = {"exposed": 2, "added": 1, "concealed": 2}
"""SC-6.3: the points a kong collects from each payer (kinds as in the log format)."""


class SettlementError(ValueError):
    """Arguments that no hand played by the rules can produce.

    The rule id is kept in :attr:`rule` and starts the message.

    >>> error = SettlementError("SC-6.4", "an exhausted hand needs two players still in")
    >>> error.rule
    'SC-6.4'
    >>> str(error)
    'SC-6.4: an exhausted hand needs two players still in'
    """

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        super().__init__(f"{rule}: {message}")


# ---------------------------------------------------------------------------
# Itemised payments: one line per cause, so a settlement can be checked by hand

_SUPERSCRIPT = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")


class Formula(NamedTuple):
    """A payment's arithmetic in the variant's own terms (底, 台, 番, 花, 庄).

    ``kind`` names the shape of the sum and ``numbers`` its inputs and result,
    so a site can word it in any language; :attr:`text` is the Chinese
    table talk a player would say.

    >>> Formula("base_tai_fan", (("base", 5), ("tai", 3), ("fan", 2), ("score", 60), ("times", 1))).text
    '5 底 × 3 台 × 2² = 60'
    >>> Formula("flowers_doubled", (("base", 1), ("flowers", 3), ("dealer", 2), ("amount", 10))).text
    '(1 + 3 花) × 2 + 2 庄 = 10'
    >>> Formula("fan_points", (("fan", 2), ("points", 2))).text
    '2 番 → 2 分'
    """

    kind: str
    numbers: tuple[tuple[str, int], ...]

    def number(self, name: str) -> int:
        """One input by name.

        >>> Formula("refund", (("amount", 2),)).number("amount")
        2
        """
        return dict(self.numbers)[name]

    @property
    def text(self) -> str:
        """The sum written out with its numbers, in the variant's terms."""
        n = dict(self.numbers)
        return _FORMULA_TEXT[self.kind](n)

    def to_json(self) -> dict[str, object]:
        """``{"kind", "numbers", "text"}`` for ENGINE-CLI output and the site.

        >>> Formula("refund", (("amount", 2),)).to_json()
        {'kind': 'refund', 'numbers': {'amount': 2}, 'text': '退 2'}
        """
        return {"kind": self.kind, "numbers": dict(self.numbers), "text": self.text}


def _tai_fan_text(n: Mapping[str, int]) -> str:
    base, tai, fan, score, times = n["base"], n["tai"], n["fan"], n["score"], n["times"]
    text = f"{base} 底 × {tai} 台 × 2{str(fan).translate(_SUPERSCRIPT)} = {score}"
    if base * tai * (1 << fan) != score:
        text = f"{score}"
    return text if times == 1 else f"{text} × {times} = {score * times}"


def _flowers_doubled_text(n: Mapping[str, int]) -> str:
    text = f"({n['base']} + {n['flowers']} 花) × 2"
    if n["dealer"]:
        text += f" + {n['dealer']} 庄"
    return f"{text} = {n['amount']}"


def _leave_text(n: Mapping[str, int]) -> str:
    text = f"max({n['owed']} × {n['factor']}, {n['minimum']})"
    full = max(n["owed"] * n["factor"], n["minimum"])
    return f"{text} = {full}" + ("" if full == n["amount"] else f" → {n['amount']}")


def _charge_text(n: Mapping[str, int]) -> str:
    text = f"{n['cap']} × {n['players']} + {n['owed']} × {n['factor']}"
    full = max(n["cap"] * n["players"] + n["owed"] * n["factor"], n["minimum"])
    return f"{text} = {full}" + ("" if full == n["amount"] else f" → {n['amount']}")


_FORMULA_TEXT: dict[str, Callable[[Mapping[str, int]], str]] = {
    "base_tai_fan": _tai_fan_text,
    "flowers_doubled": _flowers_doubled_text,
    "bomb": lambda n: f"{n['amount']}",
    "flowers": lambda n: f"{n['more']} 花 − {n['fewer']} 花 = {n['more'] - n['fewer']}",
    "fan_points": lambda n: f"{n['fan']} 番 → {n['points']} 分",
    "fan_points_base": lambda n: f"{n['fan']} 番 → {n['points']} 分 + {n['bonus']} 底 = {n['amount']}",
    "kong": lambda n: f"{n['stake']} × {n['base']} 底 = {n['stake'] * n['base']}",
    "cap": lambda n: f"封顶 {n['cap']} 分",
    "ready": lambda n: f"{n['points']} 分",
    "refund": lambda n: f"退 {n['amount']}",
    "transfer": lambda n: (f"呼叫转移 {n['takings']}" if n["winners"] == 1 else
                           f"呼叫转移 {n['takings']} ÷ {n['winners']} → {n['amount']}"),
    "leave": _leave_text,
    "charge": _charge_text,
    "fee": lambda n: f"{n['fee']}" + ("" if n["fee"] == n["amount"] else f" → {n['amount']}"),
}


class Payment(NamedTuple):
    """One line of a settlement: ``payer`` pays ``payee`` ``amount`` under ``rule``.

    ``payee`` None is the house (a fee or a leaver's charge, C-6): such lines
    are outside the zero-sum deltas.

    >>> line = Payment("SC-6.1", "win", 0, 1, 2, Formula("fan_points", (("fan", 2), ("points", 2))))
    >>> line.to_json()["formula"]["text"]
    '2 番 → 2 分'
    """

    rule: str
    cause: str
    payer: Seat
    payee: Seat | None
    amount: int
    formula: Formula

    def to_json(self) -> dict[str, object]:
        """The line as ENGINE-CLI JSON."""
        return {
            "rule": self.rule, "cause": self.cause, "payer": self.payer, "payee": self.payee,
            "amount": self.amount, "formula": self.formula.to_json(),
        }

    def scaled(self, factor: int) -> Payment:
        """The same line with the amount × ``factor`` (Sichuan's kong base, SC-6.3)."""
        return self._replace(amount=self.amount * factor)


def deltas_of(payments: Iterable[Payment]) -> list[int]:
    """The zero-sum deltas of some lines; lines to the house are left out (C-6).

    >>> refund = Formula("refund", (("amount", 2),))
    >>> deltas_of([Payment("SC-6.4c", "refund", 1, 0, 2, refund)])
    [2, -2, 0, 0]
    """
    deltas = [0] * 4
    for line in payments:
        if line.payee is not None:
            _pay(deltas, line.payer, line.payee, line.amount)
    return deltas


def house_of(payments: Iterable[Payment]) -> list[int]:
    """What each seat paid the house in some lines.

    >>> house_of([Payment("SC-6.6", "charge", 3, None, 48, Formula("bomb", (("amount", 48),)))])
    [0, 0, 0, 48]
    """
    paid = [0] * 4
    for line in payments:
        if line.payee is None:
            paid[line.payer] += line.amount
    return paid


# ---------------------------------------------------------------------------
# Shared helpers


def _check_seat(seat: Seat, rule: str, what: str = "seat") -> None:
    if not 0 <= seat <= 3:
        raise SettlementError(rule, f"{what} {seat} is not a seat 0–3 (C-2)")


def _seat_set(seats: Iterable[Seat], rule: str, what: str) -> frozenset[Seat]:
    result = frozenset(seats)
    for seat in sorted(result):
        _check_seat(seat, rule, what)
    return result


def _check_four(values: Sequence[int], rule: str, what: str) -> None:
    if len(values) != 4:
        raise SettlementError(rule, f"{what} needs one value per seat (4), got {len(values)}")


def _check_non_negative(value: int, rule: str, what: str) -> None:
    if value < 0:
        raise SettlementError(rule, f"{what} can't be negative, got {value}")


def _check_positive(value: int, rule: str, what: str) -> None:
    if value < 1:
        raise SettlementError(rule, f"{what} must be at least 1, got {value}")


def _collect(receiver: Seat, stakes: Sequence[int]) -> list[int]:
    """Each seat pays its stake to ``receiver`` (whose own stake must be 0).

    >>> _collect(2, [1, 5, 0, 2])
    [-1, -5, 8, -2]
    """
    deltas = [-stake for stake in stakes]
    deltas[receiver] = sum(stakes)
    return deltas


def _add(*parts: Sequence[int]) -> list[int]:
    """Seat-by-seat sum of several settlements.

    >>> _add([1, -1, 0, 0], [0, 2, -2, 0])
    [1, 1, -2, 0]
    """
    return [sum(column) for column in zip(*parts, strict=True)]


def _pay(deltas: list[int], payer: Seat, payee: Seat, amount: int) -> None:
    deltas[payer] -= amount
    deltas[payee] += amount


def _capped_charges(balances: Sequence[int], charges: Sequence[int]) -> list[int]:
    """Each charge, as a non-positive delta, never more than the balance (C-6).

    A balance at or below zero pays nothing.

    >>> _capped_charges([100, 3, 0, -5], [10, 10, 10, 10])
    [-10, -3, 0, 0]
    """
    return [
        -min(charge, max(balance, 0)) for balance, charge in zip(balances, charges, strict=True)
    ]


# ---------------------------------------------------------------------------
# Jiaxing 嘉兴麻将 (JX-9, JX-10)


def jiaxing_score(base: int, tai: int, fan: int) -> int:
    """The score of a Jiaxing win: base × tai × 2^fan (JX-10).

    The seed's example (JX-10.5): base 5, 3 tai, 2 fan.

    >>> jiaxing_score(5, 3, 2)
    60
    >>> jiaxing_score(1, 2, 0)
    2
    """
    _check_non_negative(base, "JX-10", "the base (底分)")
    _check_non_negative(tai, "JX-6", "tai")
    _check_non_negative(fan, "JX-7", "fan")
    return base * tai * (1 << fan)


def _jiaxing_partners(contracts: Iterable[tuple[Seat, Seat]]) -> dict[Seat, Seat]:
    """Seat → contract partner, for the contracts of a hand (JX-9).

    The same pair named twice (in either order) is one contract; a seat in two
    different pairs is an error, since pairs form among players who are not
    already in one.

    >>> _jiaxing_partners([(0, 2), (3, 1), (2, 0)])
    {0: 2, 2: 0, 3: 1, 1: 3}
    """
    partners: dict[Seat, Seat] = {}
    for pair in contracts:
        if len(pair) != 2:
            raise SettlementError("JX-9", f"a contract is a pair of seats, got {pair!r}")
        first, second = pair
        _check_seat(first, "JX-9", "contract seat")
        _check_seat(second, "JX-9", "contract seat")
        if first == second:
            raise SettlementError("JX-9", f"seat {first} can't be in a contract with itself")
        for seat, partner in ((first, second), (second, first)):
            known = partners.get(seat)
            if known is not None and known != partner:
                raise SettlementError(
                    "JX-9",
                    f"seat {seat} can't be in two contracts (with {known} and {partner})",
                )
            partners[seat] = partner
    return partners


def jiaxing_multipliers(
    winner: Seat,
    *,
    contracts: Iterable[tuple[Seat, Seat]] = (),
    gave_up: Collection[Seat] = (),
    robbed: Seat | None = None,
) -> list[int]:
    """How many times the score each seat pays the winner (JX-10.1–JX-10.4).

    The winner's own entry is 0. Arguments as in :func:`jiaxing_win_deltas`.

    No contract, self-draw (JX-10.1), and robbing the kong (JX-10.4):

    >>> jiaxing_multipliers(0)
    [0, 1, 1, 1]
    >>> jiaxing_multipliers(0, robbed=2)
    [0, 0, 3, 0]

    Winner in a contract (JX-10.2): partner ×5, persisting ×2, gave up ×0.

    >>> jiaxing_multipliers(0, contracts=[(0, 1)], gave_up=[3])
    [0, 5, 2, 0]

    Winner not in a contract (JX-10.3), with the konger robbed (JX-10.4: +3):

    >>> jiaxing_multipliers(2, contracts=[(0, 1)], robbed=3)
    [2, 2, 0, 4]
    """
    _check_seat(winner, "JX-10", "winner")
    partners = _jiaxing_partners(contracts)
    quitters = _seat_set(gave_up, "JX-9", "gave-up seat")
    if quitters and not partners:
        raise SettlementError(
            "JX-9", "players are asked to persist or give up only after a contract"
        )
    if winner in quitters:
        raise SettlementError("JX-9", f"seat {winner} gave up and can't win")
    for seat in sorted(quitters):
        if seat in partners:
            raise SettlementError("JX-9", f"seat {seat} is in a contract and can't give up")
    if robbed is not None:
        _check_seat(robbed, "JX-8", "robbed seat")
        if robbed == winner:
            raise SettlementError("JX-8", f"seat {winner} can't rob their own kong")
        if robbed in quitters:
            raise SettlementError("JX-9", f"seat {robbed} gave up and can't make a kong")

    multipliers = [
        0 if seat == winner else _jiaxing_contract_multiplier(winner, seat, partners, quitters)
        for seat in SEATS
    ]
    if robbed is not None:
        if partners:
            multipliers[robbed] += 3  # JX-10.4: the multipliers add up.
        else:
            multipliers = [3 if seat == robbed else 0 for seat in SEATS]  # JX-10.4
    return multipliers


def _jiaxing_contract_multiplier(
    winner: Seat, payer: Seat, partners: Mapping[Seat, Seat], quitters: Collection[Seat]
) -> int:
    if payer in quitters:
        return 0  # JX-9: a player who gave up pays nothing.
    if not partners:
        return 1  # JX-10.1
    if winner in partners:
        return 5 if partners[winner] == payer else 2  # JX-10.2
    return 2 if payer in partners else 1  # JX-10.3


def jiaxing_win_deltas(
    winner: Seat,
    score: int,
    *,
    contracts: Iterable[tuple[Seat, Seat]] = (),
    gave_up: Collection[Seat] = (),
    robbed: Seat | None = None,
) -> list[int]:
    """Settle a Jiaxing win (JX-10): each other seat pays score × multiplier.

    ``score`` is base × tai × 2^fan (:func:`jiaxing_score`). ``contracts`` are
    the mutual contract pairs formed in the hand (JX-9; at most two, disjoint),
    ``gave_up`` the seats that answered give up (they pay 0 whatever happens)
    and ``robbed`` the seat whose added kong was robbed (JX-8), if any.

    >>> jiaxing_win_deltas(1, 4)
    [-4, 12, -4, -4]

    The seed's example (JX-10.4): score 60, the robbed seat 1 is in contract
    with the winner (5 + 3 = ×8), the persisting others pay ×2.

    >>> jiaxing_win_deltas(0, 60, contracts=[(0, 1)], robbed=1)
    [720, -480, -120, -120]

    Two contract pairs: the winner's partner ×5, the other pair ×2 each.

    >>> jiaxing_win_deltas(3, 10, contracts=[(0, 1), (2, 3)])
    [-20, -20, -50, 90]
    """
    _check_non_negative(score, "JX-10", "the score")
    multipliers = jiaxing_multipliers(winner, contracts=contracts, gave_up=gave_up, robbed=robbed)
    return _collect(winner, [score * multiplier for multiplier in multipliers])


def jiaxing_win_payments(
    winner: Seat,
    base: int,
    tai: int,
    fan: int,
    *,
    contracts: Iterable[tuple[Seat, Seat]] = (),
    gave_up: Collection[Seat] = (),
    robbed: Seat | None = None,
) -> list[Payment]:
    """A Jiaxing win as lines (JX-10): each payer's score × multiplier, with
    the rule that sets the multiplier. Same arguments and sums as
    :func:`jiaxing_win_deltas`.

    >>> lines = jiaxing_win_payments(0, 5, 3, 2, contracts=[(0, 1)], robbed=1)
    >>> [(p.rule, p.payer, p.amount, p.formula.text) for p in lines]  # doctest: +NORMALIZE_WHITESPACE
    [('JX-10.4', 1, 480, '5 底 × 3 台 × 2² = 60 × 8 = 480'),
     ('JX-10.2', 2, 120, '5 底 × 3 台 × 2² = 60 × 2 = 120'),
     ('JX-10.2', 3, 120, '5 底 × 3 台 × 2² = 60 × 2 = 120')]
    >>> deltas_of(lines) == jiaxing_win_deltas(0, 60, contracts=[(0, 1)], robbed=1)
    True
    """
    contracts = list(contracts)
    score = jiaxing_score(base, tai, fan)
    multipliers = jiaxing_multipliers(winner, contracts=contracts, gave_up=gave_up, robbed=robbed)
    partners = _jiaxing_partners(contracts)
    if not partners:
        rule = "JX-10.1"
    else:
        rule = "JX-10.2" if winner in partners else "JX-10.3"
    lines = []
    for payer, times in enumerate(multipliers):
        if times == 0 or score == 0:
            continue
        numbers = (("base", base), ("tai", tai), ("fan", fan), ("score", score), ("times", times))
        line_rule = "JX-10.4" if payer == robbed else rule
        lines.append(Payment(line_rule, "win", payer, winner, score * times,
                             Formula("base_tai_fan", numbers)))
    return lines


def jiaxing_fee_deltas(balances: Sequence[int], fee: int) -> list[int]:
    """The service fee F after a hand that ended normally (JX-10.6).

    Every player pays ``fee`` to the house, but never more than their balance
    (``balances``: each seat's silver after the hand's settlement was applied;
    a balance at or below zero pays nothing). Returns the non-positive amounts:
    the fee leaves the table, so this does **not** sum to zero (C-6: fees are
    taken separately).

    >>> jiaxing_fee_deltas([500, 30, 0, 120], 50)
    [-50, -30, 0, -50]
    """
    _check_four(balances, "JX-10.6", "balances")
    _check_non_negative(fee, "JX-10.6", "the fee F")
    return _capped_charges(balances, [fee] * 4)


def jiaxing_leave_deltas(
    leaver: Seat, balances: Sequence[int], fee: int, penalty: int
) -> list[int]:
    """What a player who leaves mid-hand (逃跑/断线) pays (JX-10.6).

    **Reading** (RULES JX-10.6): the leaver pays the service fee plus the
    escape penalty (the seed's "原来正常的游戏消耗"), both to the house, capped
    by their balance; the hand ends with no other payment, and the players who
    stay pay no fee for a hand that did not end normally. Like
    :func:`jiaxing_fee_deltas` this does **not** sum to zero.

    >>> jiaxing_leave_deltas(2, [500, 500, 70, 500], 50, 100)
    [0, 0, -70, 0]
    >>> jiaxing_leave_deltas(0, [500, 500, 70, 500], 50, 100)
    [-150, 0, 0, 0]
    """
    _check_seat(leaver, "JX-10.6", "leaver")
    _check_four(balances, "JX-10.6", "balances")
    _check_non_negative(fee, "JX-10.6", "the fee F")
    _check_non_negative(penalty, "JX-10.6", "the escape penalty")
    return _capped_charges(balances, [fee + penalty if seat == leaver else 0 for seat in SEATS])


# ---------------------------------------------------------------------------
# Putian 莆田麻将 (PT-6, PT-7)


def putian_flower_points(
    golds_in_hand: int, white_golds_in_hand: int, laid_out_whites: int, concealed_kongs: int
) -> int:
    """A player's flower points 花分 (PT-6).

    ``golds_in_hand`` counts the gold tiles in the hand that are *not* whites
    (1 each); ``white_golds_in_hand`` counts the whites in the hand when white
    is gold (2 each) — two separate counts. Laid-out whites score 1 each but
    all four score 5; each concealed kong scores 2.

    The seed's example: 1 gold and 4 laid-out whites.

    >>> putian_flower_points(1, 0, 4, 0)
    6
    >>> putian_flower_points(1, 2, 0, 1)
    7
    """
    for value, what in (
        (golds_in_hand, "golds in hand"),
        (white_golds_in_hand, "white golds in hand"),
        (laid_out_whites, "laid-out whites"),
        (concealed_kongs, "concealed kongs"),
    ):
        _check_non_negative(value, "PT-6", what)
    for value, what in ((laid_out_whites, "laid-out whites"), (white_golds_in_hand, "white golds")):
        if value > 4:
            raise SettlementError("PT-6", f"there are only 4 whites, not {value} {what}")
    if white_golds_in_hand and laid_out_whites:
        raise SettlementError("PT-3.4", "when white is gold, whites are never laid out")
    whites = 5 if laid_out_whites == 4 else laid_out_whites
    return golds_in_hand + 2 * white_golds_in_hand + whites + 2 * concealed_kongs


def putian_base(dealer_streak: int) -> int:
    """The hand's base 底分 (PT-7.1).

    ``dealer_streak`` is n, the hands this dealer has dealt in a row before
    this one: 1 when n = 0, else n + 2.

    >>> [putian_base(n) for n in range(4)]
    [1, 3, 4, 5]
    """
    _check_non_negative(dealer_streak, "PT-7.1", "the dealer streak")
    return 1 if dealer_streak == 0 else dealer_streak + 2


def _putian_bomb_stake(bomb: str | None) -> int | None:
    """Each loser's fixed payment for a big bomb, or None for PT-7.2 (PT-7.3)."""
    if bomb is None or bomb == "small":
        return None
    if bomb not in PUTIAN_BOMBS:
        raise SettlementError(
            "PT-7.3", f"unknown bomb {bomb!r}: expected 'small', 'big' or 'super'"
        )
    return PUTIAN_BOMBS[bomb]


def putian_points(dealer_streak: int, winner_flower_points: int, bomb: str | None = None) -> int:
    """What one non-dealer loser pays the winner (PT-7.2, PT-7.3).

    (base + the winner's flower points) × 2, or 50 for a 大炸弹 (``"big"``)
    and 100 for a 超级大炸弹 (``"super"``). A 小炸弹 (``"small"``) pays as
    PT-7.2. 算花 (PT-7.4) is not included.

    >>> putian_points(0, 1)
    4
    >>> putian_points(2, 3, bomb="small")
    14
    >>> putian_points(2, 3, bomb="super")
    100
    """
    base = putian_base(dealer_streak)
    _check_non_negative(winner_flower_points, "PT-6", "flower points")
    stake = _putian_bomb_stake(bomb)
    return (base + winner_flower_points) * 2 if stake is None else stake


def putian_flower_settlement(winner: Seat, flower_points: Sequence[int]) -> list[int]:
    """算花 among the three losers, not doubled (PT-7.4).

    Every pair of losers settles the difference of their flower points: the
    one with fewer pays the one with more. The winner takes no part (0).

    The seed's example: C (seat 2) wins; A 6, B 2, D 1.

    >>> putian_flower_settlement(2, [6, 2, 9, 1])
    [9, -3, 0, -6]
    """
    _check_seat(winner, "PT-7.4", "winner")
    _check_four(flower_points, "PT-6", "flower points")
    for points in flower_points:
        _check_non_negative(points, "PT-6", "flower points")
    losers = [seat for seat in SEATS if seat != winner]
    deltas = [0] * 4
    for index, first in enumerate(losers):
        for second in losers[index + 1 :]:
            _pay(deltas, second, first, flower_points[first] - flower_points[second])
    return deltas


def putian_win_deltas(
    winner: Seat,
    dealer: Seat,
    *,
    dealer_streak: int,
    flower_points: Sequence[int],
    bomb: str | None = None,
) -> list[int]:
    """Settle a Putian win (PT-7.2–PT-7.4).

    ``flower_points`` are the four seats' PT-6 points. Each of the three
    losers pays (base + the winner's flower points) × 2, whether the win was
    on a discard or a self-draw (PT-7.2 reading); when a non-dealer wins the
    dealer pays 2 more. A ``"big"`` / ``"super"`` bomb instead makes each
    loser pay 50 / 100 (PT-7.3); ``"small"`` pays as PT-7.2. Then the losers
    settle 算花 among themselves (PT-7.4, :func:`putian_flower_settlement`),
    after bombs too.

    The dealer wins with one laid-out white, nobody else has flowers:

    >>> putian_win_deltas(0, 0, dealer_streak=0, flower_points=[1, 0, 0, 0])
    [12, -4, -4, -4]

    The seed's 算花 example (A 6, B 2, C wins with 3, D 1), A deals:

    >>> putian_win_deltas(2, 0, dealer_streak=0, flower_points=[6, 2, 3, 1])
    [-1, -11, 26, -14]
    """
    _check_seat(winner, "PT-7.2", "winner")
    _check_seat(dealer, "PT-1", "dealer")
    _check_four(flower_points, "PT-6", "flower points")
    stake = putian_points(dealer_streak, flower_points[winner], bomb)
    stakes = [0 if seat == winner else stake for seat in SEATS]
    if _putian_bomb_stake(bomb) is None and winner != dealer:
        stakes[dealer] += 2  # PT-7.2: the dealer pays 2 more.
    return _add(_collect(winner, stakes), putian_flower_settlement(winner, flower_points))


def putian_win_payments(
    winner: Seat,
    dealer: Seat,
    *,
    dealer_streak: int,
    flower_points: Sequence[int],
    bomb: str | None = None,
) -> list[Payment]:
    """A Putian win as lines: each loser's payment (PT-7.2, the dealer's 2 more
    in the same line; or PT-7.3), then each pair's 算花 (PT-7.4). Same
    arguments and sums as :func:`putian_win_deltas`.

    >>> lines = putian_win_payments(2, 0, dealer_streak=0, flower_points=[6, 2, 3, 1])
    >>> [(p.rule, p.payer, p.payee, p.amount, p.formula.text) for p in lines]
    ... # doctest: +NORMALIZE_WHITESPACE
    [('PT-7.2', 0, 2, 10, '(1 + 3 花) × 2 + 2 庄 = 10'),
     ('PT-7.2', 1, 2, 8, '(1 + 3 花) × 2 = 8'),
     ('PT-7.2', 3, 2, 8, '(1 + 3 花) × 2 = 8'),
     ('PT-7.4', 1, 0, 4, '6 花 − 2 花 = 4'),
     ('PT-7.4', 3, 0, 5, '6 花 − 1 花 = 5'),
     ('PT-7.4', 3, 1, 1, '2 花 − 1 花 = 1')]
    >>> deltas_of(lines) == putian_win_deltas(2, 0, dealer_streak=0, flower_points=[6, 2, 3, 1])
    True
    """
    stake = putian_points(dealer_streak, flower_points[winner], bomb)
    big = _putian_bomb_stake(bomb) is not None
    lines = []
    for payer in SEATS:
        if payer == winner:
            continue
        if big:
            formula = Formula("bomb", (("amount", stake),))
            lines.append(Payment("PT-7.3", "win", payer, winner, stake, formula))
            continue
        extra = 2 if payer == dealer else 0  # PT-7.2: the dealer pays 2 more.
        numbers = (("base", putian_base(dealer_streak)), ("flowers", flower_points[winner]),
                   ("dealer", extra), ("amount", stake + extra))
        lines.append(Payment("PT-7.2", "win", payer, winner, stake + extra,
                             Formula("flowers_doubled", numbers)))
    losers = [seat for seat in SEATS if seat != winner]
    for index, first in enumerate(losers):
        for second in losers[index + 1:]:
            more, fewer = sorted((first, second), key=lambda s: -flower_points[s])
            if flower_points[more] != flower_points[fewer]:
                pair = (("more", flower_points[more]), ("fewer", flower_points[fewer]))
                lines.append(Payment("PT-7.4", "flowers", fewer, more,
                                     flower_points[more] - flower_points[fewer],
                                     Formula("flowers", pair)))
    return lines


# ---------------------------------------------------------------------------
# Sichuan 血战到底 (SC-6), in base units: callers apply the room coefficient N.


def sichuan_discard_win_deltas(winners: Mapping[Seat, int], discarder: Seat) -> list[int]:
    """Settle a win on a discard, 点炮 (SC-6.1).

    ``winners`` maps each winning seat to its points (SC-5); with several
    winners (一炮多响, SC-3.1) the discarder pays each of them.

    >>> sichuan_discard_win_deltas({1: 4}, 0)
    [-4, 4, 0, 0]
    >>> sichuan_discard_win_deltas({1: 2, 3: 8}, 2)
    [0, 2, -10, 8]
    """
    _check_seat(discarder, "SC-6.1", "discarder")
    if not winners:
        raise SettlementError("SC-6.1", "a win on a discard needs at least one winner")
    deltas = [0] * 4
    for winner, points in sorted(winners.items()):
        _check_seat(winner, "SC-6.1", "winner")
        if winner == discarder:
            raise SettlementError("SC-6.1", f"seat {winner} can't win on their own discard")
        _check_positive(points, "SC-5", f"seat {winner}'s points")
        _pay(deltas, discarder, winner, points)
    return deltas


def _still_in(still_in: Collection[Seat], rule: str, *required: Seat) -> frozenset[Seat]:
    seats = _seat_set(still_in, rule, "seat still in")
    for seat in required:
        if seat not in seats:
            raise SettlementError(rule, f"seat {seat} is no longer in the hand (SC-3.2)")
    if len(seats) < 2:
        raise SettlementError(rule, "nobody else is still in the hand (SC-3.2)")
    return seats


def sichuan_self_draw_deltas(winner: Seat, points: int, still_in: Collection[Seat]) -> list[int]:
    """Settle a self-drawn win, 自摸 (SC-6.2).

    ``still_in`` are the seats still in the hand when the winner wins, the
    winner included; every other one of them pays the winner ``points``.
    Players who won earlier (血战到底, SC-3.2) pay nothing.

    >>> sichuan_self_draw_deltas(1, 4, still_in={0, 1, 2, 3})
    [-4, 12, -4, -4]
    >>> sichuan_self_draw_deltas(1, 4, still_in={1, 3})
    [0, 4, 0, -4]
    """
    _check_seat(winner, "SC-6.2", "winner")
    _check_positive(points, "SC-5", "the points")
    seats = _still_in(still_in, "SC-6.2", winner)
    return _collect(winner, [points if seat in seats and seat != winner else 0 for seat in SEATS])


def sichuan_kong_deltas(
    konger: Seat, kind: str, *, still_in: Collection[Seat], feeder: Seat | None = None
) -> list[int]:
    """Settle a kong at once, 刮风下雨 (SC-6.3).

    ``kind`` as in the log format: ``"exposed"`` (直杠) — the ``feeder``,
    whose discard was konged, pays 2; ``"added"`` (面下杠) — every other
    player still in pays 1; ``"concealed"`` (暗杠) — every other player still
    in pays 2. ``still_in`` are the seats still in the hand, the konger
    included.

    A robbed added kong (抢杠胡, SC-5.18) pays nothing: the kong does not
    happen, so the caller does not call this function for it.

    >>> sichuan_kong_deltas(0, "exposed", still_in={0, 1, 2, 3}, feeder=2)
    [2, 0, -2, 0]
    >>> sichuan_kong_deltas(0, "added", still_in={0, 1, 2, 3})
    [3, -1, -1, -1]
    >>> sichuan_kong_deltas(3, "concealed", still_in={0, 3})
    [-2, 0, 0, 2]
    """
    _check_seat(konger, "SC-6.3", "konger")
    if kind not in SICHUAN_KONGS:
        raise SettlementError(
            "SC-6.3", f"unknown kong kind {kind!r}: expected 'exposed', 'added' or 'concealed'"
        )
    seats = _still_in(still_in, "SC-6.3", konger)
    stake = SICHUAN_KONGS[kind]
    if kind == "exposed":
        if feeder is None:
            raise SettlementError(
                "SC-6.3", "an exposed kong needs the feeder whose discard it took"
            )
        _check_seat(feeder, "SC-6.3", "feeder")
        if feeder == konger:
            raise SettlementError("SC-6.3", f"seat {konger} can't kong their own discard")
        if feeder not in seats:
            raise SettlementError("SC-6.3", f"feeder {feeder} is no longer in the hand (SC-3.2)")
        payers: frozenset[Seat] = frozenset({feeder})
    else:
        if feeder is not None:
            raise SettlementError("SC-6.3", f"an {kind} kong has no feeder")
        payers = seats - {konger}
    return _collect(konger, [stake if seat in payers else 0 for seat in SEATS])


def sichuan_exhaustion_deltas(
    *,
    still_in: Collection[Seat],
    flower_pigs: Collection[Seat],
    ready_points: Mapping[Seat, int],
    cap_points: int,
    kong_income: Mapping[Seat, Sequence[tuple[Seat, int]]],
) -> list[int]:
    """Settle an exhausted hand with two or more players still in (SC-6.4).

    - (a) 查花猪: each 花猪 in ``flower_pigs`` (a player still in whose tiles
      show all three suits) pays ``cap_points`` to every other player still
      in who is not a 花猪. Players who already won are out of this.
    - (b) 查大叫: each player still in who is neither ready nor a 花猪 pays
      every ready player still in that player's ``ready_points[seat]`` (their
      best win as a win on a discard, already capped by the caller). A seat
      is ready when it is a key of ``ready_points``.
    - (c) every player still in who is not ready (花猪 included) gives back
      the kong payments they received: ``kong_income[seat]`` lists them as
      (payer, amount) pairs, each refunded to its payer — also to a payer
      who has won since. A payer who has left is refunded nothing (SC-6.6):
      the caller leaves that entry out. Entries of ready players and of
      players no longer in are ignored: they keep their kong income.

    Seats 0 (a 花猪) and 1 (not ready, with a concealed kong paid by 0, 2, 3)
    against seat 2 (ready for 4 points); seat 3 has won already:

    >>> sichuan_exhaustion_deltas(
    ...     still_in={0, 1, 2}, flower_pigs={0}, ready_points={2: 4}, cap_points=8,
    ...     kong_income={1: [(0, 2), (2, 2), (3, 2)]},
    ... )
    [-14, -2, 14, 2]
    """
    seats = _seat_set(still_in, "SC-6.4", "seat still in")
    if len(seats) < 2:
        raise SettlementError(
            "SC-6.4", "an exhausted hand is settled only with two or more players still in"
        )
    pigs = _seat_set(flower_pigs, "SC-6.4", "花猪 seat")
    ready = _seat_set(ready_points, "SC-6.4", "ready seat")
    _check_positive(cap_points, "SC-5", "the cap points")
    for seat in sorted(pigs | ready):
        if seat not in seats:
            raise SettlementError(
                "SC-6.4", f"seat {seat} has already won and is out of 查花猪/查大叫"
            )
    if pigs & ready:
        seat = min(pigs & ready)
        raise SettlementError("SC-4.2", f"seat {seat} holds three suits (花猪) and can't be ready")
    for seat, points in sorted(ready_points.items()):
        _check_positive(points, "SC-5", f"seat {seat}'s ready points")
        if points > cap_points:
            raise SettlementError(
                "SC-5", f"seat {seat}'s {points} points are above the cap {cap_points}"
            )
    refunds = _sichuan_kong_refunds(kong_income, seats - ready)
    return _add(
        _sichuan_flower_pigs(seats, pigs, cap_points),
        _sichuan_not_ready(seats, pigs, ready_points),
        refunds,
    )


def sichuan_exhaustion_payments(
    *,
    still_in: Collection[Seat],
    flower_pigs: Collection[Seat],
    ready_points: Mapping[Seat, int],
    cap_points: int,
    kong_income: Mapping[Seat, Sequence[tuple[Seat, int]]],
) -> list[Payment]:
    """An exhausted hand as lines: 查花猪 (SC-6.4a), 查大叫 (SC-6.4b) and the kong
    refunds (SC-6.4c). Same arguments, checks and sums as
    :func:`sichuan_exhaustion_deltas`.

    >>> lines = sichuan_exhaustion_payments(
    ...     still_in={0, 1, 2}, flower_pigs={0}, ready_points={2: 4}, cap_points=8,
    ...     kong_income={1: [(0, 2), (2, 2), (3, 2)]},
    ... )
    >>> [(p.rule, p.payer, p.payee, p.amount) for p in lines]  # doctest: +NORMALIZE_WHITESPACE
    [('SC-6.4a', 0, 1, 8), ('SC-6.4a', 0, 2, 8), ('SC-6.4b', 1, 2, 4),
     ('SC-6.4c', 1, 0, 2), ('SC-6.4c', 1, 2, 2), ('SC-6.4c', 1, 3, 2)]
    >>> deltas_of(lines)
    [-14, -2, 14, 2]
    """
    expected = sichuan_exhaustion_deltas(  # the checks, and the sums the lines must make
        still_in=still_in, flower_pigs=flower_pigs, ready_points=ready_points,
        cap_points=cap_points, kong_income=kong_income,
    )
    seats, pigs = frozenset(still_in), frozenset(flower_pigs)
    lines = [
        Payment("SC-6.4a", "flower_pig", pig, payee, cap_points,
                Formula("cap", (("cap", cap_points),)))
        for pig in sorted(pigs) for payee in sorted(seats - pigs)
    ]
    lines += [
        Payment("SC-6.4b", "not_ready", payer, payee, points,
                Formula("ready", (("points", points),)))
        for payer in sorted(seats - pigs - ready_points.keys())
        for payee, points in sorted(ready_points.items())
    ]
    lines += [
        Payment("SC-6.4c", "refund", seat, payer, amount, Formula("refund", (("amount", amount),)))
        for seat, payments in sorted(kong_income.items())
        if seat in seats - ready_points.keys()
        for payer, amount in payments
    ]
    if deltas_of(lines) != expected:  # pragma: no cover - the two must never disagree
        raise SettlementError("SC-6.4", f"lines {deltas_of(lines)} != deltas {expected}")
    return lines


def sichuan_win_payments(
    winner: Seat, fan: int, points: int, *, discarder: Seat | None, still_in: Collection[Seat],
    base_bonus: int = 0,
) -> list[Payment]:
    """A Sichuan win as lines: the discarder pays (SC-6.1) or every other
    player still in pays (SC-6.2), ``fan`` → ``points`` each. ``points`` is the
    score's, ``base_bonus`` included: the base more each payer of a self-draw pays
    under 自摸加底 (SC-H4), outside the cap, which the line's formula shows apart.

    >>> [(p.rule, p.payer, p.formula.text) for p in
    ...  sichuan_win_payments(1, 2, 2, discarder=None, still_in={1, 3})]
    [('SC-6.2', 3, '2 番 → 2 分')]
    >>> deltas_of(sichuan_win_payments(1, 1, 4, discarder=0, still_in={0, 1, 2, 3}))
    [-4, 4, 0, 0]
    >>> [(p.payer, p.amount, p.formula.text) for p in sichuan_win_payments(
    ...  1, 4, 9, discarder=None, still_in={1, 3}, base_bonus=1)]
    [(3, 9, '4 番 → 8 分 + 1 底 = 9')]
    """
    if discarder is None:
        rule, deltas = "SC-6.2", sichuan_self_draw_deltas(winner, points, still_in)
    else:
        rule, deltas = "SC-6.1", sichuan_discard_win_deltas({winner: points}, discarder)
    formula = Formula("fan_points", (("fan", fan), ("points", points)))
    if base_bonus:
        formula = Formula("fan_points_base", (("fan", fan), ("points", points - base_bonus),
                                              ("bonus", base_bonus), ("amount", points)))
    return [Payment(rule, "win", payer, winner, -deltas[payer], formula)
            for payer in SEATS if deltas[payer] < 0]


def sichuan_kong_payments(
    konger: Seat, kind: str, *, still_in: Collection[Seat], feeder: Seat | None = None,
    base: int = 1,
) -> list[Payment]:
    """A kong's 刮风下雨 as lines (SC-6.3), each stake × the room's ``base``.

    >>> [(p.payer, p.amount, p.formula.text) for p in
    ...  sichuan_kong_payments(0, "added", still_in={0, 1, 3}, base=2)]
    [(1, 2, '1 × 2 底 = 2'), (3, 2, '1 × 2 底 = 2')]
    """
    deltas = sichuan_kong_deltas(konger, kind, still_in=still_in, feeder=feeder)
    return [
        Payment("SC-6.3", "kong", payer, konger, -deltas[payer] * base,
                Formula("kong", (("stake", -deltas[payer]), ("base", base))))
        for payer in SEATS if deltas[payer] < 0
    ]


def sichuan_transfer_payments(discarder: Seat, winners: Sequence[Seat],
                              takings: int) -> list[Payment]:
    """呼叫转移 as lines (SC-H3): the ``takings`` the discarder received for the kong
    before the discard pass to the ``winners`` on it (in playing order after the
    discarder), shared equally; a remainder goes to the first of them.

    >>> [(p.rule, p.payer, p.payee, p.amount, p.formula.text)
    ...  for p in sichuan_transfer_payments(0, [1, 3], 3)]
    [('SC-H3', 0, 1, 2, '呼叫转移 3 ÷ 2 → 2'), ('SC-H3', 0, 3, 1, '呼叫转移 3 ÷ 2 → 1')]
    >>> deltas_of(sichuan_transfer_payments(2, [3], 6))
    [0, 0, -6, 6]
    """
    _check_seat(discarder, "SC-H3", "discarder")
    if not winners:
        raise SettlementError("SC-H3", "a call transfer needs at least one winner")
    share, remainder = divmod(takings, len(winners))
    lines = []
    for index, winner in enumerate(winners):
        _check_seat(winner, "SC-H3", "winner")
        if winner == discarder:
            raise SettlementError("SC-H3", f"seat {winner} can't win on their own discard")
        amount = share + (remainder if index == 0 else 0)
        if amount:
            lines.append(Payment("SC-H3", "call_transfer", discarder, winner, amount, Formula(
                "transfer", (("takings", takings), ("winners", len(winners)),
                             ("amount", amount)))))
    return lines


def _sichuan_flower_pigs(
    seats: frozenset[Seat], pigs: frozenset[Seat], cap_points: int
) -> list[int]:
    """SC-6.4 (a) 查花猪: every 花猪 pays every non-花猪 still in the cap."""
    deltas = [0] * 4
    for pig in sorted(pigs):
        for payee in sorted(seats - pigs):
            _pay(deltas, pig, payee, cap_points)
    return deltas


def _sichuan_not_ready(
    seats: frozenset[Seat], pigs: frozenset[Seat], ready_points: Mapping[Seat, int]
) -> list[int]:
    """SC-6.4 (b) 查大叫: the not-ready, non-花猪 pay every ready player its best win."""
    deltas = [0] * 4
    for payer in sorted(seats - pigs - ready_points.keys()):
        for payee, points in sorted(ready_points.items()):
            _pay(deltas, payer, payee, points)
    return deltas


def _sichuan_kong_refunds(
    kong_income: Mapping[Seat, Sequence[tuple[Seat, int]]], refunders: frozenset[Seat]
) -> list[int]:
    """SC-6.4 (c): the not-ready players still in give back their kong income."""
    deltas = [0] * 4
    for seat, payments in sorted(kong_income.items()):
        _check_seat(seat, "SC-6.4", "kong owner")
        for payment in payments:
            if len(payment) != 2:
                raise SettlementError(
                    "SC-6.4", f"a kong payment is (payer, amount), got {payment!r}"
                )
            payer, amount = payment
            _check_seat(payer, "SC-6.4", "kong payer")
            if payer == seat:
                raise SettlementError("SC-6.3", f"seat {seat} can't have paid for their own kong")
            _check_positive(amount, "SC-6.3", "a kong payment")
            if seat in refunders:
                _pay(deltas, seat, payer, amount)
    return deltas


class LeaveSettlement(NamedTuple):
    """What a Sichuan leaver pays (SC-6.6): ``deltas`` to the others, ``charge`` to the house.

    ``deltas`` sum to zero (C-6); the leaver loses ``charge`` on top of them.
    """

    deltas: list[int]
    charge: int


def sichuan_leave_deltas(
    leaver: Seat,
    owed: Mapping[Seat, int],
    *,
    cap_points: int,
    factor: int = 1,
    minimum: int = 0,
    balance: int | None = None,
) -> LeaveSettlement:
    """Settle a player leaving a Sichuan hand, 逃跑 (SC-6.6).

    ``owed`` maps every other player still in to what the leaver would owe them
    under 查花猪/查大叫 (SC-6.4 a, b) if the hand were exhausted now (0 or less
    when they would owe nothing). The leaver is charged, for the house, the cap
    points × those players plus the owed amounts × the correction factor X,
    at least ``minimum``; each of those players is compensated their owed
    amount × X, at least ``minimum``. The leaver loses both (the seed's
    实际减少 = 扣豆 + 赔偿).

    A 花猪 leaves three players still in, cap 8: 8 to each and 48 to the house.

    >>> sichuan_leave_deltas(3, {0: 8, 1: 8, 2: 8}, cap_points=8)
    LeaveSettlement(deltas=[8, 8, 8, -24], charge=48)

    ``balance`` is what the leaver has (in points); when it can't cover charge
    + compensation it is split between them in the ratio they would have had,
    and the compensation among the others in theirs (rounded down, the points
    left over going one each in playing order after the leaver):

    >>> sichuan_leave_deltas(3, {0: 8, 1: 8, 2: 8}, cap_points=8, balance=36)
    LeaveSettlement(deltas=[4, 4, 4, -12], charge=24)

    A non-default factor and minimum: seat 1 is owed 4 × 2, seat 2 nothing but
    gets the minimum 3; the charge is 8 × 2 + 8 = 24.

    >>> sichuan_leave_deltas(0, {1: 4, 2: 0}, cap_points=8, factor=2, minimum=3)
    LeaveSettlement(deltas=[-11, 8, 3, 0], charge=24)
    """
    rule = "SC-6.6"
    _check_seat(leaver, rule, "leaver")
    others = _seat_set(owed, rule, "seat still in")
    if leaver in others:
        raise SettlementError(rule, f"seat {leaver} can't be compensated for their own leaving")
    _check_positive(cap_points, "SC-5", "the cap points")
    _check_non_negative(factor, rule, "the correction factor X")
    _check_non_negative(minimum, rule, "the minimum")
    scaled = {seat: max(amount, 0) * factor for seat, amount in owed.items()}
    compensation = {seat: max(amount, minimum) for seat, amount in scaled.items()}
    charge = max(cap_points * len(others) + sum(scaled.values()), minimum)
    if balance is not None and balance < charge + sum(compensation.values()):
        charge, compensation = _split_short_balance(leaver, max(balance, 0), charge, compensation)
    deltas = [0] * 4
    for seat, amount in compensation.items():
        _pay(deltas, leaver, seat, amount)
    return LeaveSettlement(deltas, charge)


def sichuan_leave_payments(
    leaver: Seat,
    owed: Mapping[Seat, int],
    *,
    cap_points: int,
    factor: int = 1,
    minimum: int = 0,
    balance: int | None = None,
) -> list[Payment]:
    """A leaver's compensation to each player still in and charge to the house,
    as lines (SC-6.6). Same arguments and sums as :func:`sichuan_leave_deltas`.

    >>> lines = sichuan_leave_payments(0, {1: 4, 2: 0}, cap_points=8, factor=2, minimum=3)
    >>> [(p.payee, p.amount, p.formula.text) for p in lines]
    [(1, 8, 'max(4 × 2, 3) = 8'), (2, 3, 'max(0 × 2, 3) = 3'), (None, 24, '8 × 2 + 4 × 2 = 24')]
    """
    result = sichuan_leave_deltas(leaver, owed, cap_points=cap_points, factor=factor,
                                  minimum=minimum, balance=balance)
    lines = [
        Payment("SC-6.6", "leave", leaver, seat, result.deltas[seat],
                Formula("leave", (("owed", max(amount, 0)), ("factor", factor),
                                  ("minimum", minimum), ("amount", result.deltas[seat]))))
        for seat, amount in sorted(owed.items()) if result.deltas[seat]
    ]
    if result.charge:
        numbers = (("cap", cap_points), ("players", len(owed)),
                   ("owed", sum(max(a, 0) for a in owed.values())), ("factor", factor),
                   ("minimum", minimum), ("amount", result.charge))
        lines.append(Payment("SC-6.6", "charge", leaver, None, result.charge,
                             Formula("charge", numbers)))
    return lines


def _split_short_balance(
    leaver: Seat, balance: int, charge: int, compensation: Mapping[Seat, int]
) -> tuple[int, dict[Seat, int]]:
    """SC-6.6: a short balance split between charge and compensation, then among the others.

    >>> _split_short_balance(0, 10, 30, {1: 10, 2: 0, 3: 10})
    (6, {1: 2, 2: 0, 3: 2})
    """
    total = charge + sum(compensation.values())
    charge_part = balance * charge // total
    return charge_part, _shares(leaver, balance - charge_part, compensation)


def _shares(leaver: Seat, amount: int, weights: Mapping[Seat, int]) -> dict[Seat, int]:
    """``amount`` split in the ratio of ``weights``, rounded down; the points left over
    go one each in playing order after ``leaver``, to seats with a weight.

    >>> _shares(3, 10, {0: 1, 1: 1, 2: 1})
    {0: 4, 1: 3, 2: 3}
    """
    total = sum(weights.values())
    if total == 0:
        return {seat: 0 for seat in weights}
    shares = {seat: amount * weight // total for seat, weight in weights.items()}
    order = [seat for seat in ((leaver + step) % 4 for step in (1, 2, 3)) if weights.get(seat)]
    for index in range(amount - sum(shares.values())):
        shares[order[index % len(order)]] += 1
    return shares


class BeanSettlement(NamedTuple):
    """Beans 欢乐豆 moved by a Sichuan hand (SC-6.5).

    ``deltas`` are the hand's points × N and sum to zero (C-6); ``fees`` are
    the fee A each seat pays the house, as non-positive amounts taken
    separately (they do not sum to zero). ``totals`` is their sum per seat.
    """

    deltas: list[int]
    fees: list[int]

    @property
    def totals(self) -> list[int]:
        """Each seat's whole change of beans: delta + fee.

        >>> BeanSettlement([10800, -3600, -3600, -3600], [-400] * 4).totals
        [10400, -4000, -4000, -4000]
        """
        return _add(self.deltas, self.fees)


def sichuan_bean_deltas(
    deltas: Sequence[int],
    coefficient: int,
    fee: int,
    balances: Sequence[int] | None = None,
) -> BeanSettlement:
    """Turn a hand's points into beans 欢乐豆 (SC-6.5).

    ``deltas`` are the hand's settlements in base units added up (wins,
    kongs, exhaustion: they sum to zero); each is multiplied by the room
    coefficient N. Every player also pays the fee A once per hand, taken
    separately. With ``balances`` (each seat's beans before this hand) the
    fee never takes a balance below zero: a seat pays at most what it has
    left after its delta × N, and nothing when that is not positive. The
    deltas themselves are not capped (a leaver's shortfall is SC-6.6's
    business, not this function's). Returns a :class:`BeanSettlement`
    ``(deltas, fees)``.

    The seed's example: N 200, the winner's 54 points from three losers of 18,
    fee 400.

    >>> beans = sichuan_bean_deltas([54, -18, -18, -18], 200, 400)
    >>> beans.deltas, beans.fees
    ([10800, -3600, -3600, -3600], [-400, -400, -400, -400])
    >>> sichuan_bean_deltas([54, -18, -18, -18], 200, 400, balances=[0, 4000, 3700, 3600]).fees
    [-400, -400, -100, 0]
    """
    _check_four(deltas, "SC-6.5", "deltas")
    if sum(deltas) != 0:
        raise SettlementError("C-6", f"the deltas {list(deltas)} don't sum to zero")
    _check_non_negative(coefficient, "SC-6.5", "the room coefficient N")
    _check_non_negative(fee, "SC-6.5", "the fee A")
    beans = [delta * coefficient for delta in deltas]
    if balances is None:
        return BeanSettlement(beans, [-fee] * 4)
    _check_four(balances, "SC-6.5", "balances")
    after = [balance + delta for balance, delta in zip(balances, beans, strict=True)]
    return BeanSettlement(beans, _capped_charges(after, [fee] * 4))


# ---------------------------------------------------------------------------
# Settling up at the end of a session


MOST_TRANSFER_PLAYERS = 12
"""The most players :func:`fewest_transfers` settles (its search is 2^n)."""


class Transfer(NamedTuple):
    """``payer`` hands ``payee`` ``amount`` when the table settles up."""

    payer: int
    payee: int
    amount: int


def fewest_transfers(balances: Sequence[int]) -> list[Transfer]:
    """The fewest payments that bring every balance to zero (the balances sum to zero, C-6).

    Players whose balances cancel among themselves settle apart: with the players split
    into the most groups that each sum to zero, a group of k settles in k − 1 payments
    (the biggest debtor pays the biggest creditor, and again), which is the fewest
    possible. So a table of n never needs more than n − 1.

    >>> fewest_transfers([30, -10, -20, 0])
    [Transfer(payer=2, payee=0, amount=20), Transfer(payer=1, payee=0, amount=10)]
    >>> fewest_transfers([5, -5, 7, -7])  # two pairs: 2 payments, not 3
    [Transfer(payer=1, payee=0, amount=5), Transfer(payer=3, payee=2, amount=7)]
    >>> fewest_transfers([1, 2])
    Traceback (most recent call last):
    ...
    games.core.settlement.SettlementError: C-6: the balances [1, 2] don't sum to zero
    """
    if sum(balances) != 0:
        raise SettlementError("C-6", f"the balances {list(balances)} don't sum to zero")
    if len(balances) > MOST_TRANSFER_PLAYERS:
        raise SettlementError("C-6", f"at most {MOST_TRANSFER_PLAYERS} players settle up, "
                                     f"not {len(balances)}")
    owing = [player for player, balance in enumerate(balances) if balance]
    transfers: list[Transfer] = []
    for group in _zero_groups([balances[p] for p in owing]):
        transfers += _settle_group({owing[i]: balances[owing[i]] for i in group})
    return transfers


def _zero_groups(values: Sequence[int]) -> list[list[int]]:
    """The indices of ``values`` (summing to zero) split into the most groups that each sum
    to zero: over every subset, the most zero-sum prefixes an order of it can have.

    >>> _zero_groups([5, -5, 7, -7])
    [[0, 1], [2, 3]]
    """
    size = len(values)
    totals = [0] * (1 << size)
    most = [0] * (1 << size)
    last = [0] * (1 << size)
    for mask in range(1, 1 << size):
        low = (mask & -mask).bit_length() - 1
        totals[mask] = totals[mask & (mask - 1)] + values[low]
        best, pick = -1, 0
        for index in range(size):
            if mask >> index & 1 and most[mask ^ (1 << index)] > best:
                best, pick = most[mask ^ (1 << index)], index
        most[mask] = best + (totals[mask] == 0)
        last[mask] = pick
    order, mask = [], (1 << size) - 1
    while mask:
        order.append(last[mask])
        mask ^= 1 << last[mask]
    groups: list[list[int]] = [[]]
    mask = 0
    for index in reversed(order):
        groups[-1].append(index)
        mask |= 1 << index
        if totals[mask] == 0:
            groups.append([])
    return sorted(sorted(group) for group in groups if group)


def _settle_group(balances: dict[int, int]) -> list[Transfer]:
    """A zero-sum group settled in one payment fewer than its size."""
    left = dict(balances)
    transfers = []
    while any(left.values()):
        payer = min(left, key=lambda p: (left[p], p))
        payee = max(left, key=lambda p: (left[p], -p))
        amount = min(-left[payer], left[payee])
        transfers.append(Transfer(payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return transfers
