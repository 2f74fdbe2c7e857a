"""嘉兴麻将 Jiaxing (RULES JX): its scoring class and its table.

Everything that differs in Jiaxing is an attribute or a method of
:class:`Jiaxing` (scoring, waits, setup) or :class:`JiaxingTable` (play,
settlement); the shared core is :mod:`games.core.variant` and :mod:`games.core.table`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence

from games.core import settlement, shapes
from games.core.events import Event
from games.core.messages import Message
from games.core.position import Position, PositionError
from games.core.reading import Reading
from games.core.recorded import RecordedHand, check_recorded, rule_of
from games.core.table import Action, HandSetup, Phase, RuleViolation, Table
from games.core.tiles import KINDS, TILES, Meld, Tile, counts_of
from games.core.variant import Hit, Option, PatternDef, Score, Variant, pattern_table, reading_text

# -- Jiaxing ------------------------------------------------------------------

_NEEDS_PATTERN = Message("JX-5.3: needs 清一色, 混一色, 全老头 or 对对和")

def successor(kind: int) -> int:
    """JX-4: the indicator's successor within its cycle (1–9 per suit, winds, dragons).

    >>> [successor(k) for k in (8, 9, 30, 33)]
    [0, 10, 27, 31]
    """
    if kind < 27:
        return kind - kind % 9 + (kind % 9 + 1) % 9
    if kind < 31:
        return 27 + (kind - 27 + 1) % 4
    return 31 + (kind - 31 + 1) % 3


BANK_ORDER = ("baozi", "laotouhuang", "baida_lianzhuang")
"""JX-7.11: the order in which a hand's own triggers join the bank."""

_TaiFeatures = tuple[int, bool, tuple[int, ...]]
"""What a Jiaxing reading's tai depend on: suit bits, all pungs, honour pungs (one per pung)."""

JX_BANK = {
    "huangfan": PatternDef("JX-7.4", "黄番", "carried from an exhausted hand", "fan", 1),
    "laotouhuang": PatternDef("JX-7.5", "老头黄", "carried: an honour wildcard", "fan", 1),
    "baozi": PatternDef("JX-7.9", "包子", "carried: doubles on the dice", "fan", 1),
    "baida_lianzhuang": PatternDef("JX-7.10", "百搭连庄", "carried: the same wildcard again",
                                   "fan", 1),
}


class Jiaxing(Variant):
    """嘉兴麻将: one wildcard kind, self-draw only, base × tai × 2^fan (JX)."""

    name = "jiaxing"
    chinese = "嘉兴麻将"
    WILDCARD_KINDS = 1
    SHAPE_RULE = "JX-5.2"
    SETUP_RULE = "JX-1"
    WILDCARD_RULE = "JX-4"
    WILDCARDS_WANTED = Message('one wildcard kind, like ["5m"]')
    HAND_FIELDS = ("dealer", "round_wind", "dice", "wildcards", "indicator", "bank", "deal",
                   "wall", "events")
    REQUIRED_FIELDS = {**Variant.REQUIRED_FIELDS, "wildcards": "JX-4", "round_wind": "JX-3"}
    OWN_FIELDS = {"round_wind": "JX-3", "indicator": "JX-4", "bank": "JX-7.11"}
    MISSING_EVENTS = {"flower": "PT-3", "ready": "PT-5.3", "dingque": "SC-2", "exchange": "SC-H1"}
    MISSING_WINS = {"rob_gold": "PT-5.5", "bomb": "PT-5.6"}
    DISCARD_WINS = False
    DISCARD_WIN_RULE = "JX-5.1"
    BOT_NAMES = ("Ada", "Bo", "Cheng", "Dana")
    ARENA_DISASTERS = {"JX-10.2": "承包 payments", "JX-10.3": "承包 payments"}  # JX-9/JX-10
    DEALER_RULE = "JX-3"
    FIRST_DEALER = 0
    HAS_CONTRACTS = True
    WILDCARD_LABEL = "百搭"
    WILDCARD_NAME = "wildcard"
    WIN_RULES = "JX-5.1, JX-5.3"
    SCORE_UNIT = "tai"
    PAY_ASKS = ("tai", "fan")
    PAY_RULE = "JX-6, JX-7, JX-10"
    BOTS_AIM_AT_ONE_SUIT = True
    BOT_WIN_VALUE = 20.0  # tai x 2^fan from three payers (JX-10.1)
    BOT_PLAN_VALUES = {"flush": 1.0, "pungs": 1.0}  # what JX-5.3 lets win
    BOT_DEAL_IN_COST = 0.0  # no win on a discard (JX-5.1)
    HAS_CHOW = True
    PUZZLE_PUNGS_ONLY = 0.3
    PUZZLE_WAYS = ("after_kong",)  # JX-7.2 杠上开花
    LEAVE_CHARGE = "JX-10.6"
    SCORE_FIELDS = ("seat", "round_wind", "bank", "after_kong", "robbing_kong", "last_tile",
                    "first_turn")  # JX-6.4 winds, JX-7.2–7.11

    @classmethod
    def win_lines(cls, position: Position, score: Score,
                  discarder: int | None) -> list[settlement.Payment]:
        """Every other seat pays base × tai × 2^fan (JX-10.1); a robbed seat more (JX-10.4).

        >>> from games.variants import read_position
        >>> p = read_position({"variant": "jiaxing", "hand": "11122233344455m", "win_tile": "5m",
        ...     "wildcards": ["9p"], "seat": 2, "self_draw": True})
        >>> [(line.payer, line.amount) for line in Jiaxing.win_lines(p, Jiaxing.score(p), None)]
        [(0, 7), (1, 7), (3, 7)]
        """
        return settlement.jiaxing_win_payments(
            position.seat, int(position.rule("base")), score.tai or 0, score.fan or 0,
            robbed=discarder if position.robbing_kong else None)

    RECORDS_TAI = True

    @classmethod
    def recorded_lines(cls, hand: RecordedHand,
                       rules: dict[str, int | str | bool]) -> list[settlement.Payment]:
        """Self-drawn only (JX-5.1): every other seat pays base × tai × 2^fan (JX-10.1); a
        win's ``discarder`` is the seat whose added kong was robbed (JX-8), who pays three
        times (JX-10.4). An exhausted hand pays nothing (its 黄番 carry on, JX-7.11).

        >>> from games.core.recorded import RecordedWin
        >>> hand = RecordedHand(wins=(RecordedWin(2, tai=3, fan=1),))
        >>> [(p.rule, p.payer, p.amount) for p in Jiaxing.recorded_lines(hand, {"base": 5})]
        [('JX-10.1', 0, 30), ('JX-10.1', 1, 30), ('JX-10.1', 3, 30)]
        >>> robbed = RecordedHand(wins=(RecordedWin(2, discarder=1, tai=1),))
        >>> [(p.rule, p.payer, p.amount) for p in Jiaxing.recorded_lines(robbed, {})]
        [('JX-10.4', 1, 3)]
        """
        check_recorded(hand, most_wins=1, wins_rule="JX-5.1")
        if hand.kongs:
            raise settlement.SettlementError("JX-10", "kongs are not paid at once here")
        if hand.checked_at_the_end:
            raise settlement.SettlementError(
                "JX-7.11", "an exhausted hand pays nothing: nobody is checked as 花猪 or ready")
        if not hand.wins:
            return []
        win = hand.wins[0]
        return settlement.jiaxing_win_payments(
            win.winner, int(rule_of(cls.OPTIONS, rules, "base")), win.tai, win.fan,
            robbed=win.discarder)

    @classmethod
    def puzzle_wildcards(cls, rng: random.Random) -> list[int]:
        return [rng.randrange(34)]

    @classmethod
    def puzzle_kinds(cls, difficulty: int, rng: random.Random) -> list[int]:
        """One suit, often with honours (JX-5.3 needs a flush, honours or all pungs)."""
        suits = (0, 9, 18)
        suit = rng.choice(suits)
        style = rng.random()
        kinds = list(range(suit, suit + 9))
        if style < 0.55:
            kinds += list(range(27, 34))
        elif style > 0.85:
            kinds += list(range(rng.choice(suits), 34)) if rng.random() < 0.5 else []
        return kinds
    LEAVERS_PAY_ON_ABANDON = True
    OPTIONS = {
        "base": Option("base", 1, "底分: the base of every score (JX-10)", minimum=1),
        "fee": Option("fee", 0, "service fee F every player pays after a hand (JX-10.6)"),
        "escape_penalty": Option("escape_penalty", 0, "paid by a player who leaves (JX-10.6)"),
        "start_balance": Option("start_balance", 0,
                                "each player's silver at the start, when balances are kept "
                                "(JX-10.6)"),
        "wildcard_method": Option("wildcard_method", "indicator_next",
                                  "how a new hand's wildcard is chosen (JX-4)",
                                  choices=("indicator_next", "indicator")),
    }
    PATTERNS = pattern_table(
        PatternDef("JX-6.1", "红中刻", "pung of Red", "tai", 1),
        PatternDef("JX-6.2", "发财刻", "pung of Green", "tai", 1),
        PatternDef("JX-6.3", "白板刻", "pung of White", "tai", 1),
        PatternDef("JX-6.4", "风刻", "pung of the round or seat wind", "tai", None,
                   "1 for the round wind, 1 for the seat wind"),
        PatternDef("JX-6.5", "无百搭", "no wildcard", "tai", 1),
        PatternDef("JX-6.6", "对对和", "all pungs", "tai", 2),
        PatternDef("JX-6.7", "混一色", "half flush", "tai", 2),
        PatternDef("JX-6.8", "清一色", "pure one suit", "tai", 4),
        PatternDef("JX-6.9", "全老头", "all honours", "tai", 10),
        PatternDef("JX-7.1", "三百搭", "three wildcards", "fan", 1),
        PatternDef("JX-7.2", "杠上开花", "win on a kong replacement", "fan", 1),
        PatternDef("JX-7.3", "单吊", "four melds, won on the pair", "fan", 1),
        *JX_BANK.values(),
        PatternDef("JX-7.6", "海底捞月", "win on the last tile", "fan", 1),
        PatternDef("JX-7.7", "天和", "heavenly hand", "fan", 2),
        PatternDef("JX-7.8", "地和", "earthly hand", "fan", 2),
    )
    # One suited kind per suit and every honour: enough to score any
    # wildcard-only group, since suited tiles of one suit score alike here.
    FREE_KINDS = (TILES[0], TILES[9], TILES[18], *TILES[27:34])

    @classmethod
    def turn_up(cls, wall: list[Tile], rng: random.Random,
                extra: dict[str, object]) -> list[Tile]:
        """JX-4: the indicator is turned up from the back; the wildcard is its successor."""
        indicator = wall.pop()
        extra["indicator"] = indicator
        extra["wildcards"] = (TILES[successor(indicator.kind)],)
        return wall

    @classmethod
    def bank_triggers(cls, dice: tuple[int, int], wildcard: int | None,
                      previous_wildcard: int | None) -> tuple[str, ...]:
        """JX-7.11: 包子, 老头黄, 百搭连庄, appended in this order at the start of a hand.

        >>> Jiaxing.bank_triggers((3, 3), 27, 27)
        ('baozi', 'laotouhuang', 'baida_lianzhuang')
        >>> Jiaxing.bank_triggers((2, 5), 4, 27)
        ()
        """
        triggers = {
            "baozi": dice[0] == dice[1],
            "laotouhuang": wildcard is not None and wildcard >= 27,
            "baida_lianzhuang": wildcard is not None and wildcard == previous_wildcard,
        }
        return tuple(item for item in BANK_ORDER if triggers[item])

    @classmethod
    def bank_after(cls, bank: tuple[str, ...], *, won: bool, exhausted: bool) -> tuple[str, ...]:
        """JX-7.11: a win counts the oldest carried fan; an exhausted hand appends 黄番.

        >>> Jiaxing.bank_after(("baozi", "huangfan"), won=True, exhausted=False)
        ('huangfan',)
        >>> Jiaxing.bank_after(("baozi",), won=False, exhausted=True)
        ('baozi', 'huangfan')
        """
        left = bank[1:] if won else bank
        return (*left, "huangfan") if exhausted else left

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        if any(position.is_wild(t) for t in meld.tiles):
            raise PositionError(f"meld {meld} holds the wildcard {meld.first}: a wildcard never "
                                "takes part in a chow, pung or kong (JX-2.9)")

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        assert position.win_tile is not None
        if position.self_draw and position.robbing_kong:
            raise PositionError("self_draw and robbing_kong can't both be true")
        if not position.own_draw and not position.robbing_kong:
            return Message("JX-5.1: Jiaxing wins only by self-draw or by robbing a kong, never on a "
                           "discard")
        if position.robbing_kong:
            if position.is_wild(position.win_tile):
                return Message("JX-2.9: a wildcard is never part of a kong, so it can't be robbed")
            if cls._wins_on_everything(position):
                return Message("JX-8: a hand that would win on every tile kind may not rob a kong")
        return None

    @classmethod
    def may_win(cls, position: Position, counts: Sequence[int], wild: int) -> bool:
        # JX-5.3 needs a flush, all honours or all pungs. With real tiles (or melds) of two
        # suits only all pungs is left: no chow meld, and every real kind in pungs and at
        # most one pair, wildcards filling them (n copies: ceil(n / 3) pungs, one fewer
        # tile when a kind of 1, 2 or 4 copies takes the pair). Wildcards left over make
        # sets and the pair alone.
        suits = 0
        for meld in position.melds:
            suits |= 1 << min(meld.first.kind // 9, 3)
        for suit in range(3):
            if any(counts[suit * 9 : suit * 9 + 9]):
                suits |= 1 << suit
        if suits & 7 in (0, 1, 2, 4):
            return True  # a flush or all honours may be read
        if any(meld.type == "chi" for meld in position.melds):
            return False
        slots, paired = 0, False
        for n in counts:
            if n:
                slots += 3 * ((n + 2) // 3)
                paired = paired or n % 3 != 0
        return slots - paired <= sum(counts) + wild

    @classmethod
    def aimed_shanten_of(cls, position: Position, counts: Sequence[int], wild: int) -> int:
        return cls.aimed_shanten_after_each(position, counts, wild)[0]

    @classmethod
    def aimed_shanten_after_each(cls, position: Position, counts: Sequence[int],
                                 wild: int) -> tuple[int, list[int]]:
        """JX-5.3: the steps to the nearest complete hand that may win — one suit and
        honours (清一色, 混一色, 全老头) or all pungs (对对和) — now and after drawing each
        kind; wildcards (百搭) fill any gap of either. Not the shape's shanten:

        >>> from games.core.tiles import parse_tiles
        >>> p = Position(variant=Jiaxing, hand=(), wildcards=frozenset({33}))
        >>> counts, wild = Jiaxing.split(p, parse_tiles("123456789m123p1s7z"))
        >>> Jiaxing.shanten_of(p, counts, wild), Jiaxing.aimed_shanten_of(p, counts, wild)
        (-1, 3)

        Drawing a tile of the flush's suit or a pair's partner brings it nearer; a tile of
        another suit doesn't (seven more tiles of 1m–9m make a 清一色 of it, 1p … 3s go):

        >>> now, after = Jiaxing.aimed_shanten_after_each(p, counts, wild)
        >>> now, after[0], after[9], after[33]
        (3, 2, 3, 2)
        """
        suits = 0  # what of the melds matters: how many, their suits, a chow among them
        for meld in position.melds:
            suits |= 1 << min(meld.first.kind // 9, 3) | (meld.type == "chi") << 4
        key = bytes([*counts, wild, suits, len(position.melds), *sorted(position.wildcards)])
        found = _AIMED.get(key)
        if found is None:
            if len(_AIMED) > _AIMED_AT_MOST:
                _AIMED.clear()
            now, out = cls._aimed(position, counts, wild)
            # Kept as bytes, each entry one more than its shanten (−1 to 98): a tenth
            # of the memory of tuples, so a worker stays small.
            found = _AIMED[key] = bytes([now + 1, *(n + 1 for n in out)])
        return found[0] - 1, [n - 1 for n in found[1:]]

    @classmethod
    def _aimed(cls, position: Position, counts: Sequence[int],
               wild: int) -> tuple[int, list[int]]:
        now, after = _nearest_aims(position, counts, cls.SETS - len(position.melds))
        if now >= shapes.INF:  # melds of two suits and a chow: no hand may win (value 0)
            return cls.shanten_after_each(position, counts, wild)
        limit = wild + 1  # as the shape's shanten counts wildcards (C-4)
        out = [n - limit if n >= limit else -1 for n in after]
        for kind in position.wildcards:
            out[kind] = max(now - wild - 2, -1)
        return max(now - wild - 1, -1), out

    @classmethod
    def _wins_on_everything(cls, position: Position) -> bool:
        assert position.win_tile is not None
        rest = list(position.hand)
        rest.remove(position.win_tile)
        drawn = position.with_hand((), None)
        for tile in cls.drawable(position):
            grown = (*rest, tile)
            trial = drawn.with_hand(grown, tile)
            if not cls.could_win(trial, grown, cls.shanten(trial, grown)) or not cls.best_value(
                    trial, cls.readings(trial)).win:
                return False
        return True

    @classmethod
    def wait_context(cls, position: Position) -> Position:
        if position.own_draw or position.robbing_kong:
            return position
        from dataclasses import replace
        return replace(position, self_draw=True)

    @classmethod
    def best_value(cls, position: Position, found: Sequence[Reading]) -> Score:
        # Fans depend on the context only, so the best reading is the one with most tai;
        # readings are compared by the few features tai depends on.
        if not found:
            return super().best_value(position, found)
        wild = sum(1 for t in position.hand if t.kind in position.wildcards)
        melds = cls._meld_features(position)
        tai_of: dict[_TaiFeatures, int] = {}
        best: tuple[int, _TaiFeatures, Reading] | None = None
        for reading in found:
            free = reading.free_sets + int(reading.free_pair)
            for kinds in itertools.product(cls.FREE_KINDS, repeat=free):
                features = cls._features(reading, kinds, melds)
                tai = tai_of.get(features)
                if tai is None:
                    tai = tai_of[features] = sum(h.value for h in cls._tai(position, features, wild))
                if tai and (best is None or tai > best[0]):
                    best = (tai, features, reading.with_free_kinds(kinds) if kinds else reading)
        if best is None:
            return Score.no_win(_NEEDS_PATTERN)
        tai, features, reading = best
        if reading.free_kinds:
            reading = reading.with_free_kinds([_shown_kind(position, k) for k in reading.free_kinds])
        fans = cls._fans(position, wild)
        fan = sum(h.value for h in fans)
        points = settlement.jiaxing_score(int(position.rule("base")), tai, fan)
        return Score(True, points, cls._tai(position, features, wild) + fans, tai=tai, fan=fan,
                     reading=reading_text(position, reading))

    @staticmethod
    def _meld_features(position: Position) -> _TaiFeatures:
        suits, all_pungs, honour_pungs = 0, True, []
        for meld in position.melds:
            suits |= 1 << min(meld.first.kind // 9, 3)
            if meld.type == "chi":
                all_pungs = False
            elif meld.first.kind >= 27:
                honour_pungs.append(meld.first.kind)
        return suits, all_pungs, tuple(sorted(honour_pungs))

    @staticmethod
    def _features(reading: Reading, free_kinds: Sequence[Tile],
                  melds: _TaiFeatures) -> _TaiFeatures:
        """What tai depends on: suits present (bits m, p, s, honours), all pungs, honour pungs.

        Honour pungs are a sorted tuple with one entry per pung, so that two pungs
        of one kind (wildcards standing for a kind whose copies are in use, C-4)
        each earn their row (JX-6 Reading).
        """
        parts = reading.parts
        suits, all_pungs, melded = melds
        honour_pungs = list(melded)
        for index in range(4):
            if parts[index].sets or parts[index].pairs:
                suits |= 1 << index
        all_pungs = all_pungs and parts[0].all_pungs and parts[1].all_pungs and parts[2].all_pungs
        honour_pungs.extend(27 + i for i in parts[3].pung_kinds)
        for index, kind in enumerate(free_kinds):
            suits |= 1 << min(kind.kind // 9, 3)
            if index < reading.free_sets and kind.kind >= 27:
                honour_pungs.append(kind.kind)
        return suits, all_pungs, tuple(sorted(honour_pungs))

    @classmethod
    def _tai(cls, position: Position, features: _TaiFeatures, wild: int) -> list[Hit]:
        """The tai of a reading's features (JX-6); nothing when JX-5.3 isn't met.

        Every honour pung earns its own row, two pungs of one kind included:

        >>> from games.core.position import Position
        >>> from games.core.tiles import parse_tiles
        >>> position = Position(variant=Jiaxing, hand=tuple(parse_tiles("11z")),
        ...                     wildcards=frozenset({0}), seat=0, dealer=0)
        >>> [(h.pattern.id, h.value) for h in Jiaxing._tai(position, (8, True, (27, 27)), 3)]
        [('JX-6.4', 2), ('JX-6.4', 2), ('JX-6.9', 10), ('JX-6.6', 2)]
        """
        p = cls.PATTERNS
        suits, all_pungs, honour_pungs = features
        requirement: list[Hit] = []
        if suits == 8:
            requirement.append(Hit(p["JX-6.9"], 10))
        elif suits & 7 in (1, 2, 4):
            requirement.append(Hit(p["JX-6.7"], 2) if suits & 8 else Hit(p["JX-6.8"], 4))
        if all_pungs:
            requirement.append(Hit(p["JX-6.6"], 2))
        if not requirement:
            return []
        hits: list[Hit] = []
        for kind, rule in ((33, "JX-6.1"), (32, "JX-6.2"), (31, "JX-6.3")):
            hits.extend(Hit(p[rule], 1) for _ in range(honour_pungs.count(kind)))
        for wind in range(4):
            tai = (wind == position.round_wind) + (wind == position.seat_wind)
            if tai:
                hits.extend(Hit(p["JX-6.4"], tai) for _ in range(honour_pungs.count(27 + wind)))
        if not wild:
            hits.append(Hit(p["JX-6.5"], 1))
        return hits + requirement

    @classmethod
    def _fans(cls, position: Position, wild: int) -> list[Hit]:
        p = cls.PATTERNS
        hits: list[Hit] = []
        if wild >= 3:
            hits.append(Hit(p["JX-7.1"], 1))
        if position.after_kong and position.own_draw:
            hits.append(Hit(p["JX-7.2"], 1))
        if len(position.melds) == 4 and len(position.hand) == 2:
            hits.append(Hit(p["JX-7.3"], 1))
        if position.bank:
            hits.append(Hit(JX_BANK[position.bank[0]], 1))
        if position.last_tile and position.own_draw:
            hits.append(Hit(p["JX-7.6"], 1))
        if position.first_turn and position.own_draw and not any(
                m.type != "gang" or m.gang_kind != "concealed" for m in position.melds):
            # JX-7.7/7.8: before the first discard, no claim made yet.
            hits.append(Hit(p["JX-7.7" if position.is_dealer else "JX-7.8"], 2))
        return hits



_AIMED: dict[bytes, bytes] = {}
_AIMED_AT_MOST = 10_000  # a pure cache: the solo model's playouts meet hands again and again


def _nearest_aims(position: Position, counts: Sequence[int],
                  sets: int) -> tuple[int, list[int]]:
    """Tiles needed now and after drawing each kind for the nearest hand JX-5.3 lets win
    that the melds still allow: one suit with honours (each suit; all honours is among
    them) or all pungs (no chow declared). A suit whose other suits' tiles alone need
    more than the best so far (each must go, a tile drawn for it) can't lower any entry
    and is skipped."""
    now, after = _pungs_after_each(counts, sets) if not any(
        m.type == "chi" for m in position.melds) else (shapes.INF, [shapes.INF] * KINDS)
    meld_suits = {min(m.first.kind // 9, 3) for m in position.melds}
    slots = 3 * sets + 2
    held = [sum(counts[s * 9 : s * 9 + 9]) for s in range(3)]
    real = sum(counts)
    for suit in sorted(range(3), key=lambda s: -held[s]):
        if meld_suits - {suit, 3}:
            continue
        if slots - (real - sum(held) + held[suit]) > now:  # at best every such tile used
            continue
        needed, grown = _flush_after_each(counts, sets, suit)
        if needed < now:
            now = needed
        after = [a if a < g else g for a, g in zip(after, grown, strict=True)]
    return now, after


def _flush_after_each(counts: Sequence[int], sets: int, suit: int) -> tuple[int, list[int]]:
    """Tiles needed now and after drawing each kind for one suit with honours."""
    others = [s for s in range(3) if s != suit]
    kept = list(counts)
    kept[others[1] * 9 : others[1] * 9 + 9] = [0] * 9
    # One other suit void, the other emptied: sets from nothing there cost three
    # tiles, as an honour pung from nothing does, so the tiles needed are the
    # flush's; drawing a tile of either other suit brings nothing.
    needed, grown = shapes.needed_after_each(kept, sets, void=others[0])
    for other in others:
        grown[other * 9 : other * 9 + 9] = [needed] * 9
    return needed, grown


def pungs_needed(held: Sequence[int], sets: int) -> int:
    """Tiles to add to the counts ``held`` (one per kind) for ``sets`` pungs and a pair
    (对对和, JX-6.6); kinds held more than a pung's worth keep three.

    >>> pungs_needed([3, 3, 3, 2, 1, 1], 4)  # 111m 222p 333s 44z 5z 6z: a 5z and a 4z or 5z
    2
    >>> pungs_needed([2, 2, 1, 1, 1], 4)
    7
    """
    top = sorted(held, reverse=True)[: sets + 1]
    top += [0] * (sets + 1 - len(top))
    pungs = [min(n, 3) for n in top]
    total = sum(pungs)
    used = max(total - pungs[i] + min(top[i], 2) for i in range(sets + 1))
    return 3 * sets + 2 - used


_PUNGS: dict[tuple[tuple[int, ...], int], tuple[int, dict[int, int]]] = {}
_PUNGS_AT_MOST = 20_000


def _pungs_after_each(counts: Sequence[int], sets: int) -> tuple[int, list[int]]:
    """:func:`pungs_needed` now and with one tile more of each kind: it depends only on
    how many of each kind are held, so it is remembered by those counts (a pure cache)."""
    held = tuple(sorted((n for n in counts if n), reverse=True))
    found = _PUNGS.get((held, sets))
    if found is None:
        if len(_PUNGS) > _PUNGS_AT_MOST:
            _PUNGS.clear()
        by_count: dict[int, int] = {}
        for n in {0, *held}:
            grown = list(held) if n else [*held, 0]
            grown[grown.index(n)] += 1
            by_count[n] = pungs_needed(grown, sets)
        found = _PUNGS[held, sets] = (pungs_needed(held, sets), by_count)
    needed, by_count = found
    return needed, [by_count[n] for n in counts]


def _shown_kind(position: Position, kind: Tile) -> Tile:
    """For showing a wildcard-only group: a kind of the same suit the hand holds least of.

    Any kind of that suit scores alike (JX-6), so pick the least surprising one.
    """
    if kind.is_honour:
        return kind
    held = counts_of([*position.hand, *(t for m in position.melds for t in m.tiles)])
    suit = kind.kind // 9 * 9
    return min(TILES[suit : suit + 9], key=lambda t: (held[t.kind], t.kind))


class JiaxingTable(Table):
    """JX-1–JX-10."""

    variant = Jiaxing
    OUT_OF_PLAY = 1  # the indicator (JX-4)
    CLAIMS_STOP_AT = 4  # JX-2.8
    LEAVE_RULE = "JX-10.6"
    NO_CLAIM_RULE = "JX-2"  # Jiaxing has every claim
    ROB_KONG_RULE = "JX-8"
    FIRST_DISCARD_WINNER_RULE = "JX-5.1"  # no win on a discard at all

    def __init__(self, setup: HandSetup) -> None:
        super().__init__(setup)
        self.gave_up_seats: set[int] = set()

    def copy_rule(self, kind: int) -> str:
        return "JX-4"

    def _copies(self, kind: int) -> int:
        indicator = self.setup.indicator
        return 3 if indicator is not None and indicator.kind == kind else 4

    def check_meld_tile(self, seat: int, tile: Tile, what: str) -> None:
        if self.is_wild(tile.kind):
            raise RuleViolation(
                "JX-2.9",
                Message("{player} can't {what} {tile}: wildcards never take part in a "
                        "chow, pung or kong", player=self.name(seat), what=what, tile=tile),
            )
        if self.seats[seat].gave_up:
            raise RuleViolation("JX-9", Message("{player} gave up and only draws and discards",
                                                player=self.name(seat)))

    def check_claimer(self, seat: int, what: str) -> None:
        if self.seats[seat].gave_up:
            raise RuleViolation(
                "JX-9", Message("{player} can't {what}: they gave up and only draw and discard",
                                player=self.name(seat), what=what)
            )

    def check_winner(self, seat: int) -> None:
        if self.seats[seat].gave_up:
            raise RuleViolation("JX-9", Message("{player} gave up and can't win this hand",
                                                player=self.name(seat)))

    def _after_claim(self, actor: int, discarder: int, then: Phase) -> None:
        super()._after_claim(actor, discarder, then)
        state = self.seats[actor]
        in_contract = {s for pair in self.contracts for s in pair}
        # JX-9: pair by pair, among players still playing normally.
        if (
            state.claims_from[discarder] == 3
            and actor not in in_contract
            and discarder not in in_contract
            and not self.seats[discarder].gave_up
        ):
            self.contracts.append((actor, discarder))
            others = [(actor + step) % 4 for step in range(1, 4)]
            self.contract_queue = [
                s
                for s in others
                if s != discarder and s not in in_contract and not self.seats[s].gave_up
            ]
            if self.contract_queue:
                self.contract_resume = self.phase
                self.phase = Phase.CONTRACT

    def _on_contract(self, event: Event) -> None:
        actor = self._actor(event)
        if self.phase is not Phase.CONTRACT:
            raise RuleViolation(
                "JX-9", Message("{player} can't answer a contract: no contract was just formed",
                                player=self.name(actor))
            )
        if not (actor == self.contract_queue[0]):
            raise RuleViolation(
                "JX-9",
                Message("{player} answers the contract first (in playing order)",
                        player=self.name(self.contract_queue[0])),
            )

        self.settlement_notes.append(f"JX-9 {event.choice}")
        if event.choice == "give_up":
            self.seats[actor].gave_up = True
            self.gave_up_seats.add(actor)
        self.contract_queue.pop(0)
        if not self.contract_queue:
            self.phase = self.contract_resume

    def win_payments(
        self, seat: int, target: int | None, how: str | None, score: Score
    ) -> list[settlement.Payment]:
        return settlement.jiaxing_win_payments(
            seat,
            int(self.rule("base")),
            score.tai or 0,
            score.fan or 0,
            contracts=self.contracts,
            gave_up=self.gave_up_seats,
            robbed=target if how == "robbing_kong" else None,
        )

    def settlement_rule(self) -> str:
        wins = self.wins
        if not wins:
            return "JX-10"
        if wins[-1].how == "robbing_kong":
            return "JX-10.4"
        if self.contracts:
            in_contract = any(wins[-1].seat in pair for pair in self.contracts)
            return "JX-10.2" if in_contract else "JX-10.3"
        return "JX-10.1"

    def _legal_turn(self) -> list[Action]:
        actions = super()._legal_turn()
        if self.seats[self.turn].gave_up:  # 抓一张打一张 (JX-9)
            actions = [a for a in actions if a.event.type == "discard"]
        return actions
