"""血战到底 Sichuan (RULES SC): its scoring class and its table.

Everything that differs in Sichuan is an attribute or a method of
:class:`Sichuan` (scoring, waits, setup) or :class:`SichuanTable` (play,
void suits, kongs paid at once, leaving, settlement); the shared core is
:mod:`games.core.variant` and :mod:`games.core.table`.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from itertools import combinations_with_replacement

from games.core import settlement, shapes
from games.core.events import Event
from games.core.messages import Message
from games.core.position import Position, PositionError
from games.core.reading import Reading, readings, seven_pairs_reading
from games.core.recorded import RecordedHand, RecordedWin, check_recorded, rule_of
from games.core.table import Action, HandSetup, Phase, RuleViolation, Table
from games.core.tiles import KINDS, TILES, Meld, Tile, counts_of
from games.core.variant import (
    Hit,
    Option,
    PatternDef,
    Preset,
    Score,
    ShantenSteps,
    Variant,
    pattern_table,
)

# 成都 血战: 换三张, 自摸加底, 门清中张, 金钩钓, 海底, 天地胡, cap 4 (SC-H1, SC-H4–H8, SC-5).
_CHENGDU: dict[str, int | str | bool] = {
    "exchange_three": True, "self_draw_bonus": "base", "concealed_middle": True,
    "golden_hook": True, "sea_bottom": True, "heavenly_earthly": True, "cap_fan": 4,
}
_SUIT_KINDS = tuple(frozenset(range(suit * 9, suit * 9 + 9)) for suit in range(3))


class Sichuan(Variant):
    """血战到底: void suit, seven pairs, fan with a cap (SC)."""

    name = "sichuan"
    chinese = "血战到底"
    SEVEN_PAIRS = True
    HONOURS = frozenset()
    SHAPE_RULE = "SC-4.1"
    SETUP_RULE = "SC-1"
    TILES_RULE = "SC-1"
    TILES_PLAYED = Message("the 108 suited tiles, no honours")
    WILDCARD_RULE = "SC-1"
    DISCARD_WIN_RULE = "SC-6.1"
    SEVERAL_DISCARD_WINNERS = True  # 一炮多响 (SC-3.1)
    MISSING_EVENTS = {"chi": "SC-3", "flower": "PT-3", "ready": "PT-5.3", "contract": "JX-9"}
    MISSING_WINS = {"rob_gold": "PT-5.5", "bomb": "PT-5.6"}
    BOT_NAMES = ("Ivy", "Jun", "Kai", "Lan")
    ARENA_DISASTERS = {"flower_pig": "花猪 payments", "not_ready": "查大叫 payments"}  # SC-6.4
    HAS_VOID = True
    PUZZLE_WAYS = ("after_kong",)  # SC-5.16 杠上花
    LEAVE_CHARGE = "SC-6.6"
    SCORE_FIELDS = ("seat", "void", "after_kong", "after_kong_discard", "robbing_kong",
                    "last_tile", "first_turn")  # SC-2, SC-5.11–5.18, SC-H8

    @classmethod
    def win_lines(cls, position: Position, score: Score,
                  discarder: int | None) -> list[settlement.Payment]:
        """The discarder pays (SC-6.1; the robbed seat for 抢杠胡), or on one's own tile every
        other seat (SC-6.2, with SC-H4's base more).

        >>> from games.variants import read_position
        >>> p = read_position({"variant": "sichuan", "hand": "111234567m78999p",
        ...     "win_tile": "9p", "void": "s", "seat": 1})
        >>> [(line.payer, line.amount) for line in Sichuan.win_lines(p, Sichuan.score(p), 0)]
        [(0, 1)]
        """
        return settlement.sichuan_win_payments(
            position.seat, score.fan or 0, score.points,
            discarder=None if position.own_draw else discarder, still_in=range(4),
            base_bonus=self_draw_base_bonus(score))

    MOST_RECORDED_WINS = 3  # SC-3.2
    RECORDS_KONGS = True  # SC-6.3
    RECORDS_EXHAUSTION = True  # SC-6.4

    @classmethod
    def recorded_points(cls, fan: int, rules: dict[str, int | str | bool], *,
                        self_drawn: bool) -> tuple[int, int, int]:
        """(fan counted, points, base more) of a win of ``fan`` as the table counts it (the
        self-draw's fan included where it adds one, SC-5.15): base × 2^(fan − 1) with the fan
        capped (SC-5), plus a base from each payer of a self-draw under 自摸加底 (SC-H4).

        >>> Sichuan.recorded_points(6, {}, self_drawn=False)
        (4, 8, 0)
        >>> Sichuan.recorded_points(2, {"self_draw_bonus": "base", "base": 2}, self_drawn=True)
        (2, 6, 2)
        """
        if fan < 1:
            raise settlement.SettlementError("SC-5", f"a win counts at least 1 fan, not {fan}")
        base = int(rule_of(cls.OPTIONS, rules, "base"))
        counted = min(fan, int(rule_of(cls.OPTIONS, rules, "cap_fan")))
        bonus = base if self_drawn and rule_of(cls.OPTIONS, rules, "self_draw_bonus") == "base" \
            else 0
        return counted, base * 2 ** (counted - 1) + bonus, bonus

    @classmethod
    def recorded_lines(cls, hand: RecordedHand,
                       rules: dict[str, int | str | bool]) -> list[settlement.Payment]:
        """A hand of 血战到底 as the table tells it: the wins in order, each paid by its
        discarder (SC-6.1) or by every other player still in (SC-6.2), a winner leaving the
        hand (SC-3.2; not under 血流成河, SC-H2); each kong paid at once by those still in
        (SC-6.3); and when fewer than three won, the wall ran out: 查花猪, 查大叫 and the
        kong refunds among the players still in (SC-6.4).

        Three winners: seat 1 self-draws 2 fan, seat 3 wins 3 fan on seat 0's discard, then
        seat 2 self-draws 1 fan from seat 0 alone; seat 0 had made a concealed kong first.

        >>> from games.core.recorded import RecordedKong, RecordedWin
        >>> hand = RecordedHand(
        ...     wins=(RecordedWin(1, fan=2), RecordedWin(3, 0, fan=3), RecordedWin(2, fan=1)),
        ...     kongs=(RecordedKong(0, "concealed"),))
        >>> settlement.deltas_of(Sichuan.recorded_lines(hand, {}))
        [-1, 4, -3, 0]

        Exhausted after one win: seat 0 a 花猪, seat 2 ready for 2 fan, seat 3 not ready
        gives back its added kong.

        >>> hand = RecordedHand(wins=(RecordedWin(1, 0, fan=1),),
        ...     kongs=(RecordedKong(3, "added"),), flower_pigs=frozenset({0}), ready_fan={2: 2})
        >>> [(p.rule, p.payer, p.payee, p.amount) for p in Sichuan.recorded_lines(hand, {})]
        ... # doctest: +NORMALIZE_WHITESPACE
        [('SC-6.3', 0, 3, 1), ('SC-6.3', 1, 3, 1), ('SC-6.3', 2, 3, 1), ('SC-6.1', 0, 1, 1),
         ('SC-6.4a', 0, 2, 8), ('SC-6.4a', 0, 3, 8), ('SC-6.4b', 3, 2, 2),
         ('SC-6.4c', 3, 0, 1), ('SC-6.4c', 3, 1, 1), ('SC-6.4c', 3, 2, 1)]
        """
        check_recorded(hand, most_wins=cls.MOST_RECORDED_WINS, wins_rule="SC-3.2")
        flow = bool(rule_of(cls.OPTIONS, rules, "blood_flow"))
        base = int(rule_of(cls.OPTIONS, rules, "base"))
        still_in, won = {0, 1, 2, 3}, set[int]()
        income: dict[int, list[tuple[int, int]]] = {seat: [] for seat in range(4)}
        lines: list[settlement.Payment] = []
        for index in range(len(hand.wins) + 1):
            for kong in (k for k in hand.kongs if k.after_wins == index):
                if kong.seat in won:  # SC-3.2 gone; SC-H2 a locked hand makes no kong
                    raise settlement.SettlementError(
                        "SC-H2" if flow else "SC-3.2",
                        f"seat {kong.seat} has won and makes no more kongs")
                paid = settlement.sichuan_kong_payments(kong.seat, kong.kind, still_in=still_in,
                                                        feeder=kong.feeder, base=base)
                income[kong.seat] += [(line.payer, line.amount) for line in paid]
                lines += paid
            if index < len(hand.wins):
                lines += cls._recorded_win(hand.wins[index], rules, still_in, won)
                won.add(hand.wins[index].winner)
                if not flow:
                    still_in.discard(hand.wins[index].winner)
        if (len(hand.wins) >= 3 and not flow) or len(still_in) < 2:
            if hand.checked_at_the_end:
                raise settlement.SettlementError(
                    "SC-6.4", "only an exhausted hand with two or more players still in checks "
                              "花猪 and ready seats")
            return lines
        ready = {seat: cls.recorded_points(fan, rules, self_drawn=False)[1]
                 for seat, fan in hand.ready_fan.items()}
        if flow:  # SC-H2: a winner stays in, locked and ready
            ready.update({seat: base for seat in won if seat not in ready})
        return lines + settlement.sichuan_exhaustion_payments(
            still_in=still_in, flower_pigs=hand.flower_pigs, ready_points=ready,
            cap_points=base * 2 ** (int(rule_of(cls.OPTIONS, rules, "cap_fan")) - 1),
            kong_income={seat: income[seat] for seat in still_in})

    @classmethod
    def _recorded_win(cls, win: RecordedWin, rules: dict[str, int | str | bool],
                      still_in: set[int], won: set[int]) -> list[settlement.Payment]:
        if win.winner not in still_in:
            raise settlement.SettlementError("SC-3.2", f"seat {win.winner} has already won "
                                                       "and left the hand")
        if win.discarder is not None and win.discarder not in still_in:
            raise settlement.SettlementError("SC-3.2", f"seat {win.discarder} has already won "
                                                       "and left the hand")
        fan, points, bonus = cls.recorded_points(win.fan, rules, self_drawn=win.self_drawn)
        return settlement.sichuan_win_payments(win.winner, fan, points, discarder=win.discarder,
                                               still_in=still_in, base_bonus=bonus)

    @classmethod
    def puzzle_kinds(cls, difficulty: int, rng: random.Random) -> list[int]:
        """One or two suits: the third is the void (SC-2); one suit (清一色) has many waits."""
        one_suit = rng.random() < (0.8 if difficulty == 3 else 0.2)
        suits = [rng.choice((0, 9, 18))] if one_suit else rng.sample((0, 9, 18), 2)
        return [k for s in suits for k in range(s, s + 9)]
    SCORE_UNIT = "fan"
    PAY_ASKS = ("fan",)
    PAY_DIFFICULTY = (1, 2)
    BOT_WIN_VALUE = 6.0  # 2^(fan-1) points, from every seat still in on a self-draw
    # SC-5: 平胡 1 point, 对对胡 2, 清一色 and 七对 4; weighed lower than their points, as
    # the paired games on the same walls found best (the plain shape comes faster)
    BOT_PLAN_VALUES = {"shape": 1.0, "seven": 2.0, "flush": 2.0, "pungs": 1.5}
    # The discarder pays alone (SC-6.1), but a ready seat left in would draw the win
    # later and be paid a fan more by everyone (SC-5.15): dealing in costs little more.
    BOT_DEAL_IN_COST = 0.75
    # Paired games (strong with the calibrated danger − strong with its heuristic, 300
    # walls): -0.21 a hand at this cost (-0.15, -0.28 to -0.03, on 1,000), -0.16 at 0.3,
    # -0.31 at 2, -0.52 at 4; strong keeps its heuristic here (docs/bots.md).
    BOT_CALIBRATED_DANGER = False
    BOT_KONG_REFUNDED = True  # SC-6.4c
    BOT_PAYS_READY_AT_THE_END = True  # SC-6.4b
    PAY_RULE = "SC-5, SC-6"
    WIN_RULES = "SC-2, SC-4.1"
    TILE_RULE = "SC-1: Sichuan plays the 108 suited tiles, no honours"
    OPTIONS = {
        "base": Option("base", 1, "the room's base unit (SC-6)", minimum=1),
        "cap_fan": Option("cap_fan", 4, "封顶: the most fan a win counts (SC-5)", minimum=1,
                          maximum=20),
        "room_coefficient": Option("room_coefficient", 1, "N: beans per point (SC-6.5)",
                                   minimum=1),
        "fee": Option("fee", 0, "A: beans every player pays each hand (SC-6.5)"),
        "min_balance": Option("min_balance", 0, "the least balance to start a hand (SC-6.5)"),
        "start_balance": Option("start_balance", 0,
                                "each player's beans at the start, when balances are kept "
                                "(SC-6.5)"),
        "escape_factor": Option("escape_factor", 1, "X: the correction factor of SC-6.6"),
        "escape_minimum": Option("escape_minimum", 0, "the least a leaver pays (SC-6.6)"),
        # House rules that change a win's value (SC-H4–H8); the defaults are the seed's.
        "self_draw_bonus": Option("self_draw_bonus", "fan",
                                  "what a self-draw adds: a fan, or a base from each payer "
                                  "(SC-H4)", choices=("fan", "base")),
        "heavenly_earthly": Option("heavenly_earthly", True,
                                   "天胡 and 地胡 count (SC-H5)"),
        "concealed_middle": Option("concealed_middle", False,
                                   "门清中张: a fan for no pung or open kong, a fan for no 1 "
                                   "or 9 (SC-H6)"),
        "golden_hook": Option("golden_hook", False,
                              "金钩钓: a fan for a win on a single tile beside four melds "
                              "(SC-H7)"),
        "sea_bottom": Option("sea_bottom", False,
                             "海底: a fan for a win on the wall's last tile or on the discard "
                             "after it (SC-H8)"),
        "exchange_three": Option("exchange_three", False,
                                 "换三张: three tiles of one suit passed by the dice before "
                                 "定缺 (SC-H1)"),
        "blood_flow": Option("blood_flow", False,
                             "血流成河: winners stay with a locked hand; the hand ends at the "
                             "wall's end (SC-H2)"),
        "call_transfer": Option("call_transfer", False,
                                "呼叫转移: a win on the discard after a kong takes that kong's "
                                "takings (SC-H3)"),
    }
    # The tables players name (issue 29). SC-H1 exchange_three and SC-H2 blood_flow are the
    # table's options; a preset spells out every house rule it turns on.
    PRESETS = {preset.key: preset for preset in (
        Preset("seed", "种子规则", "the seed's rules", {}),
        Preset("chengdu", "成都 血战", "Chengdu blood battle", dict(_CHENGDU)),
        Preset("blood_flow", "血流成河", "blood flowing into a river (as Chengdu, winners "
               "play on)", {**_CHENGDU, "blood_flow": True}),
    )}
    PATTERNS = pattern_table(
        PatternDef("SC-5.1", "平胡", "plain win", "fan", 1),
        PatternDef("SC-5.2", "对对胡", "all pungs", "fan", 2),
        PatternDef("SC-5.3", "清一色", "pure one suit", "fan", 3),
        PatternDef("SC-5.4", "带幺九", "terminals in every set", "fan", 3),
        PatternDef("SC-5.5", "七对", "seven pairs", "fan", 3),
        PatternDef("SC-5.6", "清对", "pure all pungs", "fan", 4),
        PatternDef("SC-5.7", "将对", "all pungs of 2, 5, 8", "fan", 4),
        PatternDef("SC-5.8", "龙七对", "seven pairs with four of a kind", "fan", 5,
                   "its four is not also a 根"),
        PatternDef("SC-5.9", "清七对", "pure seven pairs", "fan", 5),
        PatternDef("SC-5.10", "清幺九", "pure terminals in every set", "fan", 5),
        PatternDef("SC-5.11", "天胡", "heavenly hand", "fan", 6),
        PatternDef("SC-5.12", "地胡", "earthly hand", "fan", 6),
        PatternDef("SC-5.13", "清龙七对", "pure seven pairs with four of a kind", "fan", 6,
                   "its four is not also a 根"),
        PatternDef("SC-5.14", "根", "four of a kind held", "fan", 1),
        PatternDef("SC-5.15", "自摸加番", "self-draw", "fan", 1),
        PatternDef("SC-5.16", "杠上花", "win on a kong replacement", "fan", 1),
        PatternDef("SC-5.17", "杠上炮", "win on the discard after a kong", "fan", 1),
        PatternDef("SC-5.18", "抢杠胡", "robbing a kong", "fan", 1),
        # House rules (SC-H), each counted only when its rules option is on.
        PatternDef("SC-H4", "自摸加底", "self-draw: a base more", "points", None,
                   "each payer of the self-draw pays 1 base more"),
        PatternDef("SC-H6", "门清", "concealed hand", "fan", 1, "no pung, no open kong",
                   key="concealed"),
        PatternDef("SC-H6", "中张", "no terminals", "fan", 1, "no 1 or 9",
                   key="middle"),
        PatternDef("SC-H7", "金钩钓", "golden hook", "fan", 1),
        PatternDef("SC-H8", "海底", "sea bottom", "fan", 1,
                   "海底捞月 on the last tile, 海底炮 on the discard after it"),
    )

    @classmethod
    def rank(cls, result: Score) -> tuple[int, ...]:
        # Past the cap many readings pay alike; show the one worth most before it.
        return (result.points, sum(h.value for h in result.patterns))

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        if meld.type == "chi":
            raise PositionError(f"meld {meld}: Sichuan has no chow (SC-3)")

    @classmethod
    def check_position(cls, position: Position) -> None:
        super().check_position(position)
        if position.void is not None and any(
                m.first.kind // 9 == position.void for m in position.melds):
            raise PositionError(f"a meld of the void suit {'mps'[position.void]}: a player may "
                                "not pung or kong their void suit (SC-2)")

    @classmethod
    def _voids(cls, position: Position) -> list[int | None]:
        return [position.void] if position.void is not None else [0, 1, 2]

    @classmethod
    def sets_to_pass(cls, position: Position) -> list[tuple[Tile, ...]]:
        if not position.rule("exchange_three"):
            return []
        return exchange_choices(counts_of(position.hand))

    @classmethod
    def shanten_of(cls, position: Position, counts: Sequence[int], wild: int) -> int:
        by_void = shapes.needed_two_suits(counts, cls.SETS - len(position.melds))
        pairs = [0, 0, 0]
        singles = [0, 0, 0]
        if not position.melds:
            for kind in range(27):
                n = counts[kind]
                if n:
                    pairs[kind // 9] += n >> 1
                    singles[kind // 9] += n & 1
        best = shapes.INF
        for void in cls._voids(position):
            assert void is not None
            best = min(best, by_void[void] - 1)
            if not position.melds:  # seven pairs (SC-4.1), void suit excluded
                best = min(best, shapes.seven_pairs_from(sum(pairs) - pairs[void],
                                                         sum(singles) - singles[void]))
        return max(best, -1)

    @classmethod
    def shanten_after_each(cls, position: Position, counts: Sequence[int],
                           wild: int) -> tuple[int, list[int]]:
        """Shanten now and after each draw, the best over the suits that may be void;
        the seven-pairs shanten after a draw is taken once for kinds held an odd, once
        for kinds held an even number of times."""
        sets = cls.SETS - len(position.melds)
        seven = not position.melds
        best_now, best_after = shapes.INF, [shapes.INF] * KINDS
        for void in cls._voids(position):
            now, after = shapes.needed_after_each(counts, sets, void=void, honours=False)
            best_now = min(best_now, now - 1)
            best_after = [b if b < n - 1 else n - 1 for b, n in zip(best_after, after, strict=True)]
            if seven:
                pairs = singles = 0
                for kind, n in enumerate(counts):
                    if n and kind // 9 != void:
                        pairs += n // 2
                        singles += n % 2
                best_now = min(best_now, shapes.seven_pairs_from(pairs, singles))
                # The tile pairs a single (odd), or starts one (even).
                on_odd = max(shapes.seven_pairs_from(pairs + 1, singles - 1), -1)
                on_even = max(shapes.seven_pairs_from(pairs, singles + 1), -1)
                for kind in range(27):
                    if kind // 9 != void:
                        value = on_odd if counts[kind] % 2 else on_even
                        if value < best_after[kind]:
                            best_after[kind] = value
        return max(best_now, -1), [b if b > -1 else -1 for b in best_after]

    @classmethod
    def shanten_steps(cls, position: Position, counts: Sequence[int],
                      wild: int) -> ShantenSteps:
        return SichuanShantenSteps(cls, position, counts)

    @classmethod
    def drawable(cls, position: Position) -> list[Tile]:
        return [TILES[k] for k in range(27) if k // 9 != position.void]

    @classmethod
    def legal_discards(cls, position: Position) -> list[Tile]:
        void = [t for t in position.hand if t.kind // 9 == position.void]
        return sorted(set(void or position.hand))  # SC-2: the void suit goes first

    @classmethod
    def readings(cls, position: Position) -> list[Reading]:
        counts = counts_of(position.hand)
        found = readings(counts, 0, cls.SETS - len(position.melds))
        seven = seven_pairs_reading(counts) if not position.melds else None
        return [*found, seven] if seven else found

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        tiles = [*position.hand, *(t for m in position.melds for t in m.tiles)]
        suits = {t.kind // 9 for t in tiles}
        if position.void is not None and position.void in suits:
            return Message("SC-4.2: the hand holds its void suit {suit}; no win before it is "
                           "gone", suit="mps"[position.void])
        if len(suits) == 3:
            return Message("SC-4.2: a winning hand has at most two suits (缺一门)")
        if position.self_draw and position.robbing_kong:
            raise PositionError("self_draw and robbing_kong can't both be true")
        return None

    @classmethod
    def values(cls, position: Position, reading: Reading) -> Iterator[Score]:
        p = cls.PATTERNS
        tiles = [*position.hand, *(t for m in position.melds for t in m.tiles)]
        counts = counts_of(tiles)
        pure = len({t.kind // 9 for t in tiles}) == 1
        roots = sum(1 for n in counts if n == 4)
        bases: list[tuple[str, int]] = [("SC-5.1", 0)]
        if reading.seven_pairs:
            long = any(counts[t.kind] == 4 for t in position.hand)
            bases.append(("SC-5.5", 0))
            if pure:
                bases.append(("SC-5.9", 0))
            if long:
                bases.append(("SC-5.13" if pure else "SC-5.8", -1))
        else:
            pungs = all(s.all_pungs for s in reading.parts) and all(
                m.is_pung_like for m in position.melds)
            terminal = all(s.all_terminal for s in reading.parts) and all(
                _meld_terminal(m) for m in position.melds)
            if pungs:
                bases.append(("SC-5.6" if pure else "SC-5.2", 0))
                if all(t.number in (2, 5, 8) for t in tiles):
                    bases.append(("SC-5.7", 0))
            if terminal:
                bases.append(("SC-5.10" if pure else "SC-5.4", 0))
            if pure:
                bases.append(("SC-5.3", 0))
        if (position.first_turn and position.own_draw and not position.melds
                and position.rule("heavenly_earthly")):
            # SC-5.11/5.12: the dealt hand or the first draw, no pung or kong yet; a house
            # rule may leave them out (SC-H5), and the hand scores by its other patterns.
            bases.append(("SC-5.11" if position.is_dealer else "SC-5.12", 0))
        # The highest base pattern; on a tie (清龙七对 6 − 根 vs 清七对 5) the named one.
        rule, root_change = max(bases, key=lambda b: ((p[b[0]].value or 0) + b[1],
                                                      p[b[0]].value or 0))
        hits = [Hit(p[rule], p[rule].value or 0)]
        if roots + root_change > 0:
            hits.append(Hit(p["SC-5.14"], roots + root_change, roots + root_change))
        base = int(position.rule("base"))
        base_bonus = 0
        if position.own_draw:
            if position.rule("self_draw_bonus") == "base":
                base_bonus = base  # SC-H4 自摸加底: no fan, a base more from each payer
                hits.append(Hit(p["SC-H4"], base_bonus))
            else:
                hits.append(Hit(p["SC-5.15"], 1))
            if position.after_kong:
                hits.append(Hit(p["SC-5.16"], 1))
        elif position.after_kong_discard:
            hits.append(Hit(p["SC-5.17"], 1))
        if position.robbing_kong:
            hits.append(Hit(p["SC-5.18"], 1))
        hits.extend(cls._house_fan(position, tiles))
        raw = sum(h.value for h in hits if h.pattern.unit == "fan")
        cap = int(position.rule("cap_fan"))
        fan = min(raw, cap)
        points = base * 2 ** (fan - 1) + base_bonus  # the bonus is outside the cap (SC-H4)
        extra = {"fan_uncapped": raw} if raw > fan else {}
        yield Score(True, points, hits, fan=fan, extra=extra, read_as=(position, reading))

    @classmethod
    def _house_fan(cls, position: Position, tiles: Sequence[Tile]) -> Iterator[Hit]:
        """The fan the house rules SC-H6–H8 add, each when its option is on."""
        p = cls.PATTERNS
        if position.rule("concealed_middle"):
            # SC-H6 门清 names only melds: a claimed winning tile makes no meld, so a win
            # on a discard may be 门清 too; a concealed kong is allowed.
            if all(m.is_concealed for m in position.melds):
                yield Hit(p["concealed"], 1)
            if not any(t.is_terminal for t in tiles):  # 中张: no 1 or 9 (no honours here)
                yield Hit(p["middle"], 1)
        if position.rule("golden_hook") and len(position.melds) == 4:
            # SC-H7 金钩钓: with four melds shown the concealed tiles before the win were
            # one single tile, which the winning tile pairs.
            yield Hit(p["SC-H7"], 1)
        if position.rule("sea_bottom") and position.last_tile and not position.robbing_kong:
            # SC-H8: 海底捞月 (a self-draw on the last tile) or 海底炮 (the discard after it);
            # robbing a kong is neither.
            yield Hit(p["SC-H8"], 1)



def self_draw_base_bonus(score: Score) -> int:
    """The base more each payer pays under 自摸加底 (SC-H4), already in ``score.points``."""
    return sum(hit.value for hit in score.patterns if hit.pattern.id == "SC-H4")


def _meld_terminal(meld: Meld) -> bool:
    return any(t.is_terminal for t in meld.tiles)


def exchange_choices(hand: Sequence[int]) -> list[tuple[Tile, ...]]:
    """Every set of three tiles of one suit a hand (counts by kind) can set aside (SC-H1),
    each once, in tile order.

    >>> from games.core.tiles import parse_tiles
    >>> [" ".join(map(str, c)) for c in exchange_choices(counts_of(parse_tiles("1m1m2m5p")))]
    ['1m 1m 2m']
    >>> len(exchange_choices(counts_of(parse_tiles("123456789m1234p"))))
    88
    """
    choices: list[tuple[Tile, ...]] = []
    for suit in range(3):
        kinds = [k for k in range(suit * 9, suit * 9 + 9) if hand[k]]
        for three in combinations_with_replacement(kinds, 3):
            if all(hand[k] >= n for k, n in Counter(three).items()):
                choices.append(tuple(TILES[k] for k in three))
    return choices


def exchange_step(dice: tuple[int, int] | None) -> int:
    """How many seats on the three tiles move (SC-H1): with the dice sum s, to the next
    player if s mod 3 = 1, the previous one (three seats on) if 2, across if 0.

    >>> exchange_step((3, 4)), exchange_step((2, 6)), exchange_step((1, 2))
    (1, 3, 2)
    """
    if dice is None:
        raise RuleViolation("SC-H1", Message("the hand's dice decide where the three tiles go "
                                             "(换三张), and this hand has none"))
    return {1: 1, 2: 3, 0: 2}[sum(dice) % 3]


class SichuanTable(Table):
    """SC-1–SC-6."""

    variant = Sichuan
    PLAY_ON = True
    LIMITS_DISCARDS = True  # the void suit goes first (SC-2)
    CLEARS_ON_PASS = True  # a robbed kong stops being robbable
    LEAVE_RULE = "SC-6.6"
    NO_CLAIM_RULE = "SC-3"
    ROB_KONG_RULE = "SC-5.18"
    FIRST_DISCARD_WINNER_RULE = "SC-3.1"

    def __init__(self, setup: HandSetup) -> None:
        super().__init__(setup)
        rules = setup.rules
        self.exchanging = bool(rules.get("exchange_three", False))  # SC-H1
        self.blood_flow = bool(rules.get("blood_flow", False))  # SC-H2
        self.call_transfer = bool(rules.get("call_transfer", False))  # SC-H3
        self.phase = Phase.EXCHANGE if self.exchanging else Phase.DINGQUE
        self.any_pung_or_kong = False
        self.kong_payments: list[tuple[int, int, int]] = []  # (payer, receiver, amount)
        # SC-H1: the sets of three in the order they were set aside (from the dealer), and
        # what each seat received once all four had.
        self.exchanged: list[tuple[Tile, ...]] = []
        self.received: list[tuple[Tile, ...]] = [(), (), (), ()]
        # SC-H2: seats whose hand is locked after a win, and each seat's winning tiles,
        # set aside (they count for nothing later, but everyone has seen them).
        self.locked = [False, False, False, False]
        self.won_tiles: list[list[Tile]] = [[], [], [], []]
        # SC-H3: the last kong (its maker and what each payer paid for it), and the
        # winners on the discard right after its replacement, paid when the discard passes.
        self.last_kong: tuple[int, list[tuple[int, int]]] | None = None
        self.transfer_winners: list[int] = []

    # -- SC-H1 换三张 ----------------------------------------------------------------

    @property
    def next_exchanger(self) -> int:
        """The seat that sets aside its three tiles next: from the dealer in playing order."""
        return (self.dealer + len(self.exchanged)) % 4

    def _on_exchange(self, event: Event) -> None:
        actor = self._actor(event)
        if not self.exchanging:
            raise RuleViolation("SC-H1", Message(
                "{player} can't exchange tiles: this table doesn't play 换三张 (the rules "
                "option exchange_three is off)", player=self.name(actor)))
        if self.phase is not Phase.EXCHANGE:
            raise RuleViolation("SC-H1", Message(
                "{player} can't exchange tiles now: each player sets aside three tiles "
                "once, right after the deal and before 定缺", player=self.name(actor)))
        if actor != self.next_exchanger:
            raise RuleViolation("SC-H1", Message(
                "{player} can't set aside tiles yet: {other} is next (from the dealer in "
                "playing order)", player=self.name(actor), other=self.name(self.next_exchanger)))
        tiles = tuple(event.tiles)
        if len(tiles) != 3 or len({t.kind // 9 for t in tiles}) != 1:
            raise RuleViolation("SC-H1", Message(
                "{player} can't set aside {tiles}: the three tiles must all be of one suit",
                player=self.name(actor), tiles=tiles))
        hand = self.seats[actor].hand
        for kind, n in Counter(t.kind for t in tiles).items():
            if hand[kind] < n:
                raise RuleViolation("SC-H1", Message(
                    "{player} can't set aside {tiles}: they hold {n} of {tile}",
                    player=self.name(actor), tiles=tiles, n=hand[kind], tile=TILES[kind]))
        for tile in tiles:
            hand[tile.kind] -= 1
        self.exchanged.append(tiles)
        if len(self.exchanged) == 4:
            self._pass_the_sets()

    def _pass_the_sets(self) -> None:
        """SC-H1: the four sets move at once, by the dice; then 定缺 (SC-2)."""
        step = exchange_step(self.setup.dice)
        for offset, tiles in enumerate(self.exchanged):
            receiver = (self.dealer + offset + step) % 4
            for tile in tiles:
                self.seats[receiver].hand[tile.kind] += 1
            self.received[receiver] = tiles
        self.phase = Phase.DINGQUE

    def _on_leave(self, event: Event) -> None:
        if self.phase is Phase.EXCHANGE:  # the exchange can't go on without a seat
            raise RuleViolation("SC-H1", Message(
                "the three tiles of 换三张 are exchanged first: a leaver's charge "
                "(SC-6.6) is reckoned after it"))
        super()._on_leave(event)

    def legal_actions(self, *, leaving: bool = False) -> list[Action]:
        return super().legal_actions(leaving=leaving and self.phase is not Phase.EXCHANGE)

    def _legal_exchange(self) -> list[Action]:
        seat = self.next_exchanger
        return [Action(seat, Event("exchange", seat, tiles=tiles))
                for tiles in exchange_choices(self.seats[seat].hand)]

    def set_aside(self) -> dict[int, tuple[Tile, ...]]:
        if self.phase is not Phase.EXCHANGE:
            return {}  # SC-H1: all four sets have been passed on
        return {(self.dealer + n) % 4: tiles for n, tiles in enumerate(self.exchanged)}

    def set_aside_again(self, seat: int, choose: Callable[[Table, list[Action]], Action]) -> None:
        number = (seat - self.dealer) % 4
        if self.phase is not Phase.EXCHANGE or number >= len(self.exchanged):
            super().set_aside_again(seat, choose)
        hand = self.seats[seat].hand
        actions = [Action(seat, Event("exchange", seat, tiles=tiles))
                   for tiles in exchange_choices(hand)]
        tiles = tuple(choose(self, actions).event.tiles)
        for tile in tiles:
            hand[tile.kind] -= 1
        self.exchanged[number] = tiles

    # -- SC-2 定缺 -------------------------------------------------------------------

    def _on_dingque(self, event: Event) -> None:
        actor = self._actor(event)
        if self.phase is Phase.EXCHANGE:
            raise RuleViolation("SC-H1", Message(
                "{player} can't name a void suit yet: with 换三张 every player first sets "
                "aside three tiles (next: {other})", player=self.name(actor),
                other=self.name(self.next_exchanger)))
        if self.phase is not Phase.DINGQUE:
            raise RuleViolation(
                "SC-2",
                Message("{player} can't name a void suit now: void suits are named "
                        "right after the deal", player=self.name(actor)),
            )
        if self.seats[actor].void is not None:
            raise RuleViolation("SC-2", Message("{player} already named a void suit",
                                                player=self.name(actor)))
        suit = event.suit
        if suit not in ("m", "p", "s"):
            raise RuleViolation("SC-2", Message("the void suit is m, p or s"))
        assert suit is not None
        self.seats[actor].void = "mps".index(suit)
        if all(s.void is not None for s in self.seats):
            self.phase = Phase.TURN
            self.turn = self.dealer

    def discardable(self, seat: int) -> list[int]:
        if self.locked[seat] and self.drawn is not None and self.turn == seat:
            return [self.drawn.kind]  # SC-H2: a locked hand discards what it drew
        hand = self.seats[seat].hand
        void = self.seats[seat].void
        if void is not None and any(hand[void * 9 : void * 9 + 9]):  # SC-2: void first
            return [kind for kind in range(void * 9, void * 9 + 9) if hand[kind]]
        return [kind for kind in range(34) if hand[kind]]

    def kinds_ruled_out(self, seat: int) -> frozenset[int]:
        """SC-2: while a seat holds its void suit, every discard must be of that suit. So
        a seat that has discarded any other tile held none of its void suit then, and
        holds none now: a void tile drawn later must be its next discard. Only the seat
        in the middle of its turn may hold one (just drawn).

        >>> from games.bots.simulation import simulate
        >>> from games.records.match import Replayer
        >>> match = simulate("sichuan", 1, 3)
        >>> table = Replayer(match).begin(1, match.hands[0])
        >>> table.kinds_ruled_out(1)  # no void named yet
        frozenset()
        >>> events = iter(match.hands[0].events)
        >>> while not table.kinds_ruled_out(1):
        ...     table.apply(next(events))
        >>> void = table.seats[1].void
        >>> table.kinds_ruled_out(1) == frozenset(range(9 * void, 9 * void + 9))
        True
        >>> sum(table.seats[1].hand[9 * void : 9 * void + 9])  # and none is held
        0
        """
        state = self.seats[seat]
        void = state.void
        if void is None or all(tile.kind // 9 == void for tile, _ in state.river):
            return frozenset()
        if self.turn == seat and self.phase in (Phase.TURN, Phase.ROBBABLE):
            return frozenset()
        return _SUIT_KINDS[void]

    def check_discard(self, seat: int, tile: Tile) -> None:
        drawn = self.drawn
        if (self.locked[seat] and drawn is not None and self.turn == seat
                and tile.kind != drawn.kind):
            raise RuleViolation("SC-H2", Message(
                "{player} can't discard {tile}: after a win their hand is locked (血流成河) "
                "and they discard the tile they drew, {drawn}", player=self.name(seat),
                tile=tile, drawn=drawn))
        void = self.seats[seat].void
        if void is None or tile.kind // 9 == void:
            return
        if any(self.seats[seat].hand[void * 9 : void * 9 + 9]):
            raise RuleViolation(
                "SC-2",
                Message("{player} can't discard {tile}: they still hold their void suit "
                        "{suit}, which goes first", player=self.name(seat), tile=tile,
                        suit="mps"[void]),
            )

    def check_claimer(self, seat: int, what: str) -> None:
        super().check_claimer(seat, what)
        if self.locked[seat]:
            raise RuleViolation("SC-H2", Message(
                "{player} can't {what}: after a win their hand is locked (血流成河) and "
                "claims nothing but wins", player=self.name(seat), what=what))

    def check_meld_tile(self, seat: int, tile: Tile, what: str) -> None:
        if self.locked[seat]:
            raise RuleViolation("SC-H2", Message(
                "{player} can't {what} {tile}: after a win their hand is locked (血流成河) "
                "and makes no kong", player=self.name(seat), what=what, tile=tile))
        void = self.seats[seat].void
        if not (void is None or tile.kind // 9 != void):
            raise RuleViolation(
                "SC-2", Message("{player} can't {what} {tile}: it is their void suit",
                                player=self.name(seat), what=what, tile=tile)
            )

    def _after_claim(self, actor: int, discarder: int, then: Phase) -> None:
        self.any_pung_or_kong = True
        super()._after_claim(actor, discarder, then)

    def first_turn(self, seat: int) -> bool:
        # SC-5.11/5.12: before any discard of the seat, and no pung or kong by anyone yet;
        # never a second win of the same hand (SC-H2: a winner who has not discarded yet).
        return (not self.seats[seat].discarded and not self.any_pung_or_kong
                and not self.locked[seat])

    def _legal_turn(self) -> list[Action]:
        actions = super()._legal_turn()
        if self.locked[self.turn]:  # SC-H2: a locked hand makes no kong
            return [a for a in actions if a.event.type != "gang"]
        return actions

    def on_kong(self, seat: int, kind: str, feeder: int | None) -> None:
        self.any_pung_or_kong = True
        lines = settlement.sichuan_kong_payments(
            seat, kind, still_in=self.players_in() or [seat], feeder=feeder,
            base=self.rule("base"),
        )
        income = [(line.payer, line.amount) for line in lines]
        self.seats[seat].kong_income.extend(income)
        self.last_kong = (seat, income)
        self.settle(lines)

    def mark_winner(self, seat: int, tile: Tile) -> None:
        if not self.blood_flow:
            super().mark_winner(seat, tile)
            return
        # SC-H2: the winner stays; the winning tile is set aside, the 13 tiles are locked.
        self.seats[seat].hand[tile.kind] -= 1
        self.won_tiles[seat].append(tile)
        self.locked[seat] = True

    def hand_locked(self, seat: int) -> bool:
        return self.locked[seat]

    def won_aside(self, seat: int) -> list[Tile]:
        return list(self.won_tiles[seat])

    def exchange_received(self, seat: int) -> tuple[Tile, ...]:
        return self.received[seat]

    @classmethod
    def exchange_receiver(cls, dice: tuple[int, int], seat: int) -> int:
        return (seat + exchange_step(dice)) % 4

    def exchange_giver(self, seat: int) -> int | None:
        if not self.received[seat]:
            return None
        return (seat - exchange_step(self.setup.dice)) % 4

    def known_held(self, seat: int) -> dict[int, list[Tile]]:
        """SC-H1: the receiver of the seat's three still holds those the seat hasn't seen
        leave its hand (a kind it discarded or melded since counts as gone: the copy it
        let go may have been the passed one)."""
        if self.phase is Phase.EXCHANGE or len(self.exchanged) < 4:
            return {}
        passed = self.exchanged[(seat - self.dealer) % 4]
        receiver = (seat + exchange_step(self.setup.dice)) % 4
        state = self.seats[receiver]
        if state.won:
            return {}  # a winner's tiles are in sight of everyone (SC-3.2)
        gone = Counter(t.kind for t, _claimed in state.river)
        gone.update(t.kind for meld in state.melds for t in meld.tiles)
        gone.update(t.kind for t in self.won_tiles[receiver])
        held: list[Tile] = []
        for tile in passed:
            if gone[tile.kind]:
                gone[tile.kind] -= 1
            elif state.hand[tile.kind] > sum(1 for t in held if t.kind == tile.kind):
                held.append(tile)
        return {receiver: held} if held else {}

    def public_tiles(self, seat: int) -> list[Tile]:
        # SC-H2: the winning tiles set aside are in sight of everyone.
        return [*super().public_tiles(seat), *(t for tiles in self.won_tiles for t in tiles)]

    def _settle_transfer(self) -> None:
        """SC-H3 呼叫转移: the winners on the discard after a kong take what its maker
        received for that kong, shared equally (a remainder to the first winner after
        the discarder). The kong's maker gives back nothing of it later (SC-6.4c)."""
        winners, self.transfer_winners = self.transfer_winners, []
        if not winners or self.last_kong is None:
            return
        konger, income = self.last_kong
        self.last_kong = None
        for entry in income:
            self.seats[konger].kong_income.remove(entry)
        lines = settlement.sichuan_transfer_payments(
            konger, sorted(winners, key=lambda s: (s - konger) % 4),
            sum(amount for _, amount in income))
        if lines:
            self.settle(lines)
            self.settlement_notes.append("SC-H3 呼叫转移")

    def win_payments(
        self, seat: int, target: int | None, how: str | None, score: Score
    ) -> list[settlement.Payment]:
        return settlement.sichuan_win_payments(
            seat, score.fan or 0, score.points,
            discarder=target, still_in=self.players_in(),
            base_bonus=self_draw_base_bonus(score),
        )

    def after_win(self, seat: int, target: int | None) -> None:
        if (self.call_transfer and target is not None and self.kong_discard
                and self.wins[-1].how is None and self.last_kong is not None
                and self.last_kong[0] == target):
            self.transfer_winners.append(seat)  # SC-H3, paid once every winner is known
        # SC-3.2: three have won; or, with a player who left (SC-6.6), fewer than two are
        # still in, so nobody is left to pay another win. Under 血流成河 (SC-H2) no winner
        # leaves: only the wall's end ends the hand.
        if sum(1 for s in self.seats if s.won) >= 3 or len(self.players_in()) < 2:
            self.phase = Phase.ENDED
            self.end_reason = "win"
            self._settle_transfer()
            return
        if target is None:
            # SC-3.2: after a self-draw the next player still in draws.
            self.turn = self.next_seat(seat)
            self.phase = Phase.DRAW
            self.need_back = False
            self.drawn = None
        # After a win on a discard (or a robbed kong) others may still win on the same
        # tile (SC-3.1); the next draw decides where play goes on (SC-3.2).

    def _discard_win(self, event: Event, actor: int, tile: Tile) -> None:
        if self.rob_pending is not None and self.phase is Phase.DISCARDED:
            raise RuleViolation("SC-5.18", Message("{player}'s win on the robbed kong tile "
                                                   "must be recorded as robbing the kong",
                                                   player=self.name(actor)))
        super()._discard_win(event, actor, tile)

    def _rob_kong(self, event: Event, actor: int, tile: Tile) -> None:
        if self.phase is Phase.DISCARDED and self.rob_pending is not None:
            # another robber of the same kong (一炮多响 on a kong)
            konger, kong_tile = self.rob_pending
            if not (event.target == konger and tile == kong_tile):
                raise RuleViolation(
                    "SC-5.18", Message("{player} can rob only {other}'s {tile}",
                                       player=self.name(actor), other=self.name(konger),
                                       tile=kong_tile)
                )

            self.check_winner(actor)
            self.check_discard_winner_order(actor, konger)
            position = self.seat_position(actor, win_tile=tile, extra=tile, robbing_kong=True)
            score = self._winning_score(actor, position, tile)
            self.discard_winners.append(actor)
            self._record_win(actor, tile, konger, "robbing_kong", score)
            return
        konger_tile = self.pending_kong
        super()._rob_kong(event, actor, tile)
        self.rob_pending = konger_tile
        if self.phase is not Phase.ENDED and konger_tile is not None:
            self.last_discard = konger_tile
            self.phase = Phase.DISCARDED

    rob_pending: tuple[int, Tile] | None = None

    @property
    def robbed_kong_pending(self) -> bool:
        return self.rob_pending is not None and self.phase is Phase.DISCARDED

    def on_pass(self) -> None:
        self.rob_pending = None
        self._settle_transfer()

    def finish(self, reason: str) -> list[int]:
        if reason == "win" and self.blood_flow and not self.ended:
            raise RuleViolation("SC-H2", Message(
                "the hand can't end as a win: under 血流成河 it ends only when the wall "
                "is exhausted"))
        if reason != "exhausted":  # an exhausted hand passes its last discard first
            self._settle_transfer()
        return super().finish(reason)

    def _all_but_one_won(self) -> bool:
        return sum(1 for s in self.seats if s.won) >= 3

    def exhaustion_payments(self) -> list[settlement.Payment]:
        still_in = self.players_in()
        if len(still_in) < 2:
            return []
        cap_points = self._cap_points()
        # SC-H2: a winner (locked, still in) is ready and not a 花猪.
        pigs = [s for s in still_in if not self.locked[s] and self.is_flower_pig(s)]
        ready = {s: self.best_wait_points(s) for s in still_in if s not in pigs}
        ready = {s: p for s, p in ready.items() if p > 0}
        ready.update({s: self.rule("base") for s in still_in if self.locked[s] and s not in ready})
        # SC-6.6: a payer who has left (a winner who left included) is refunded nothing.
        income = {s: [(payer, amount) for payer, amount in self.seats[s].kong_income
                      if not self.seats[payer].left] for s in still_in}
        not_ready = [s for s in still_in if s not in ready]
        if pigs and len(pigs) < len(still_in):
            self.settlement_notes.append("SC-6.4a 查花猪")
        if ready and any(s not in pigs for s in not_ready):
            self.settlement_notes.append("SC-6.4b 查大叫")
        if any(income[s] for s in not_ready):
            self.settlement_notes.append("SC-6.4c kong refunds")
        return settlement.sichuan_exhaustion_payments(
            still_in=still_in,
            flower_pigs=pigs,
            ready_points=ready,
            cap_points=cap_points,
            kong_income=income,
        )

    def settlement_rule(self) -> str:
        if any(seat.left for seat in self.seats):
            return "SC-6.6"  # the leaver's charge and compensation decide the hand
        if self.end_reason == "exhausted":
            return "SC-6.4"
        return "SC-6.2" if self.wins and self.wins[-1].target is None else "SC-6.1"

    def is_flower_pig(self, seat: int) -> bool:
        """花猪: tiles of all three suits, melds included (SC-6.4a)."""
        state = self.seats[seat]
        suits = {k // 9 for k, n in enumerate(state.hand) if n}
        suits.update(m.first.kind // 9 for m in state.melds)
        return len(suits) == 3

    def best_wait_points(self, seat: int) -> int:
        """查大叫: the most this ready hand could win, as a discard win (SC-6.4b).

        **Reading** (SC-6.6): a player who leaves on their own turn holds a tile more than a
        waiting hand; their hand counts as the best one a discard of theirs would leave.
        """
        position = self.seat_position(seat)
        if len(position.hand) == self.variant.concealed_size(position):
            return max((self._ready_points(position.with_hand(
                tuple(t for i, t in enumerate(position.hand) if i != index), None))
                for index in range(len(position.hand))), default=0)
        return self._ready_points(position)

    def _ready_points(self, position: Position) -> int:
        if self.variant.shanten(position) != 0:
            return 0
        waits = self.variant.waits_of(position, position.hand)
        return max((w.score.points for w in waits.waits), default=0)

    def on_leave(self, seat: int) -> None:
        # SC-6.6: the leaver is charged and the others compensated; the hand goes on if
        # it can. A leaver who had already won owes nothing and gets nothing back.
        if not self.seats[seat].won:
            self._charge_leaver(seat)
        if len(self.players_in()) < 2:
            self.phase = Phase.ENDED
            self.end_reason = "abandoned"
        elif self.turn == seat:
            self.turn = self.next_seat(seat)
            self.phase = Phase.DRAW
            self.drawn = None

    def _charge_leaver(self, leaver: int) -> None:
        """SC-6.6: the charge to the house and the compensation to the others still in,
        both from the leaver, split when the leaver's balance can't cover them."""
        others = [s for s in self.players_in() if s != leaver]
        lines = settlement.sichuan_leave_payments(
            leaver,
            {p: self._exhaustion_owed(leaver, p) for p in others},
            cap_points=self._cap_points(),
            factor=self.rule("escape_factor"),
            minimum=self.rule("escape_minimum"),
            balance=self._balance_in_points(leaver),
        )
        self.settle(lines)
        self.settlement_notes.append("SC-6.6 leaving")

    def _balance_in_points(self, seat: int) -> int | None:
        """What a seat has now, in whole points (balances are in beans, SC-6.5)."""
        if self.setup.balances is None:
            return None
        coefficient = self.rule("room_coefficient")
        return (self.setup.balances[seat] + self.deltas[seat] * coefficient) // coefficient

    def _cap_points(self) -> int:
        return int(self.rule("base") * 2 ** (self.rule("cap_fan") - 1))

    def _exhaustion_owed(self, payer: int, receiver: int) -> int:
        """What ``payer`` would owe ``receiver`` under SC-6.4 (a) and (b) right now."""
        pig = {s: self.is_flower_pig(s) for s in (payer, receiver)}
        if pig[payer] and not pig[receiver]:
            return self._cap_points()
        if pig[receiver] and not pig[payer]:
            return -self._cap_points()
        if pig[payer]:
            return 0
        payer_ready = self.best_wait_points(payer)
        receiver_ready = self.best_wait_points(receiver)
        if receiver_ready and not payer_ready:
            return receiver_ready
        if payer_ready and not receiver_ready:
            return -payer_ready
        return 0

    def _legal_dingque(self) -> list[Action]:
        actions: list[Action] = []
        for seat in range(4):
            if self.seats[seat].void is None:
                actions.extend(Action(seat, Event("dingque", seat, suit=s)) for s in "mps")
        return actions


class SichuanShantenSteps(ShantenSteps):
    """:class:`ShantenSteps` for Sichuan's shanten: the best over the possible void
    suits, seven pairs too without melds (as :meth:`Sichuan.shanten_after_each`; no
    wildcards)."""

    __slots__ = ("now", "_counts", "_voids", "_seven")

    def __init__(self, variant: type[Sichuan], position: Position,
                 counts: Sequence[int]) -> None:
        sets = variant.SETS - len(position.melds)
        self._counts = tuple(counts)
        self._seven = not position.melds
        self._voids: list[tuple[int, shapes.OneTileOn, int, int]] = []
        best = shapes.INF
        for void in variant._voids(position):
            assert void is not None
            needs = shapes.OneTileOn(counts, sets, void=void, honours=False)
            pairs = singles = 0
            if self._seven:
                for kind in range(27):
                    if counts[kind] and kind // 9 != void:
                        pairs += counts[kind] >> 1
                        singles += counts[kind] & 1
                best = min(best, shapes.seven_pairs_from(pairs, singles))
            best = min(best, needs.needed - 1)
            self._voids.append((void, needs, pairs, singles))
        self.now = max(best, -1)

    def adding(self, kind: int) -> int:
        best = shapes.INF
        for void, needs, pairs, singles in self._voids:
            value = needs.after(kind, 1) - 1
            if self._seven and kind < 27 and kind // 9 != void:
                odd = self._counts[kind] & 1  # the tile pairs a single, or starts one
                value = min(value, max(shapes.seven_pairs_from(pairs + odd,
                                                               singles - odd + (1 - odd)), -1))
            best = min(best, value)
        return max(best, -1)

    def removing(self, kind: int) -> int:
        if kind >= 27 or not self._counts[kind]:
            return shapes.INF
        best = shapes.INF
        for void, needs, pairs, singles in self._voids:
            in_void = kind // 9 == void
            value = (needs.needed if in_void else needs.after(kind, -1)) - 1
            if self._seven:
                if in_void:
                    seven = shapes.seven_pairs_from(pairs, singles)
                else:
                    odd = self._counts[kind] & 1
                    seven = shapes.seven_pairs_from(pairs - (1 - odd), singles - odd + (1 - odd))
                value = min(value, seven)
            best = min(best, max(value, -1))
        return best
