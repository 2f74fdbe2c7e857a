"""莆田麻将 Putian (RULES PT): its scoring class and its table.

Everything that differs in Putian is an attribute or a method of
:class:`Putian` (scoring, waits, setup) or :class:`PutianTable` (play,
flowers, golds, settlement); the shared core is :mod:`games.core.variant` and
:mod:`games.core.table`.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence

from games.core import settlement
from games.core.events import Event
from games.core.messages import Message
from games.core.position import Position, PositionError
from games.core.reading import Reading, readings
from games.core.recorded import RecordedHand, check_recorded
from games.core.table import Action, HandSetup, Phase, RuleViolation, Table, Win
from games.core.tiles import TILES, Meld, Tile
from games.core.variant import Hit, Option, PatternDef, Score, Variant, pattern_table

WHITE = 31
"""White (5z): a flower unless it is gold (PT-3)."""


class Putian(Variant):
    """莆田麻将: 17-tile hands, two gold kinds, whites as flowers (PT)."""

    name = "putian"
    chinese = "莆田麻将"
    SETS = 5
    WILDCARD_KINDS = 2
    HONOURS = frozenset({31})
    SHAPE_RULE = "PT-5.1"
    SETUP_RULE = "PT-1"
    TILES_RULE = "PT-1"
    TILES_PLAYED = Message("the 108 suited tiles and the four whites (5z)")
    WILDCARD_RULE = "PT-2"
    WILDCARDS_WANTED = Message('two different gold kinds, like ["3p", "7s"]')
    HAND_FIELDS = ("dealer", "dice", "wildcards", "dealer_streak", "deal", "wall", "events")
    REQUIRED_FIELDS = {**Variant.REQUIRED_FIELDS, "wildcards": "PT-2"}
    OWN_FIELDS = {"dealer_streak": "PT-7.1"}
    MISSING_EVENTS = {"chi": "PT-4", "peng": "PT-4", "dingque": "SC-2", "contract": "JX-9", "exchange": "SC-H1"}
    MISSING_WINS = {"robbing_kong": "PT-4"}
    KONG_KINDS = ("concealed",)
    KONG_RULE = "PT-4"
    DISCARD_WIN_RULE = "PT-5.2"
    BOT_NAMES = ("Eli", "Fang", "Gus", "Hui")
    ARENA_DISASTERS = {"win:rob_gold": "抢金 losses", "win:bomb": "bomb losses"}  # PT-5.5/5.6
    DEALER_RULE = "PT-1"
    HAND_SIZE = 16
    HAS_FLOWERS = True
    FLOWER_KINDS = (WHITE,)
    FLOWER_RULE = "PT-3"
    HAS_PUNG = False
    WILDCARD_COPIES = 3
    WILDCARDS_DISCARDABLE = False
    PUZZLE_WAYS = ("robbing_gold", "bomb")  # PT-5.5 抢金, PT-5.6 / PT-7.3 bombs
    SCORE_FIELDS = ("seat", "flowers", "dealer_streak", "robbing_gold", "bomb",
                    "first_turn")  # PT-3, PT-7.1, PT-5.4–5.6, PT-7.2's dealer

    @classmethod
    def win_lines(cls, position: Position, score: Score,
                  discarder: int | None) -> list[settlement.Payment]:
        """Each loser pays (base + the winner's flower points) × 2, the dealer 2 more, or a
        bomb's stake (PT-7.2, PT-7.3); the others' flowers are not counted here (PT-7.4).

        >>> from games.variants import read_position
        >>> p = read_position({"variant": "putian", "hand": "11122233344455566m",
        ...     "win_tile": "6m", "wildcards": ["9p", "9s"], "seat": 1, "self_draw": True})
        >>> [(line.payer, line.amount) for line in Putian.win_lines(p, Putian.score(p), None)]
        [(0, 4), (2, 2), (3, 2)]
        """
        flowers = [0, 0, 0, 0]
        flowers[position.seat] = int(score.extra.get("flower_points", 0))
        bomb = score.extra.get("bomb")
        return settlement.putian_win_payments(
            position.seat, position.dealer, dealer_streak=position.dealer_streak,
            flower_points=flowers, bomb=None if bomb == "small" else bomb)

    RECORDS_FLOWERS = True

    @classmethod
    def recorded_lines(cls, hand: RecordedHand,
                       rules: dict[str, int | str | bool]) -> list[settlement.Payment]:
        """Each loser pays (base + the winner's flower points) × 2, the dealer 2 more, or a
        bomb's stake (PT-7.2, PT-7.3), on a discard as on a self-draw; then the losers settle
        their flowers (算花, PT-7.4). An exhausted hand pays nothing (PT-7.5).

        >>> from games.core.recorded import RecordedWin
        >>> hand = RecordedHand(wins=(RecordedWin(2, discarder=1),), flower_points=(6, 2, 3, 1))
        >>> [(p.rule, p.payer, p.amount) for p in Putian.recorded_lines(hand, {})]
        [('PT-7.2', 0, 10), ('PT-7.2', 1, 8), ('PT-7.2', 3, 8), ('PT-7.4', 1, 4), \
('PT-7.4', 3, 5), ('PT-7.4', 3, 1)]
        """
        check_recorded(hand, most_wins=1, wins_rule="PT-5.2")
        if hand.kongs:
            raise settlement.SettlementError(
                "PT-6", "a concealed kong counts in its owner's flower points, not paid at once")
        if hand.checked_at_the_end:
            raise settlement.SettlementError(
                "PT-7.5", "an exhausted hand pays nothing: nobody is checked as 花猪 or ready")
        if not hand.wins:
            return []
        return settlement.putian_win_payments(
            hand.wins[0].winner, hand.dealer, dealer_streak=hand.dealer_streak,
            flower_points=list(hand.flower_points), bomb=hand.bomb)

    @classmethod
    def puzzle_wildcards(cls, rng: random.Random) -> list[int]:
        return rng.sample(cls.tile_kinds(), 2)
    WILDCARD_LABEL = "金"
    WILDCARD_NAME = "golds"
    WIN_RULES = "PT-5.1, PT-2"
    PAY_RULE = "PT-6, PT-7"
    SHOWS_FLOWER_POINTS = True
    PAY_DIFFICULTY = (3, 5)
    BOT_WIN_VALUE = 18.0  # (base + flower points) x 2 from each of three (PT-7.2)
    BOT_DEAL_IN_COST = 4.0  # all three pay alike: dealing in costs the hand it ends
    # The calibrated danger reads an undeclared seat as never ready (the bots it was fitted
    # on declare, PT-5.3; strong doesn't): paired games (strong with it − strong with its
    # heuristic, 300 walls) -0.19 a hand, so strong keeps its heuristic here (docs/bots.md).
    BOT_CALIBRATED_DANGER = False

    @classmethod
    def turn_up(cls, wall: list[Tile], rng: random.Random,
                extra: dict[str, object]) -> list[Tile]:
        """PT-2: two adjacent tiles from the back, of two kinds, are the golds."""
        while True:
            first, second = wall[-1], wall[-2]
            if first != second:
                extra["wildcards"] = tuple(sorted((first, second)))
                return wall[:-2]
            rng.shuffle(wall)
    TILE_RULE = "PT-1: Putian plays the suited tiles and the four whites"
    OPTIONS = {
        "fee": Option("fee", 0, "house fee every player pays after a hand (C-6)"),
    }
    PATTERNS = pattern_table(
        PatternDef("PT-5.4", "天胡", "heavenly hand", "points", 0, "paid as PT-7.2"),
        PatternDef("PT-5.5", "抢金", "robbing the gold", "points", 0, "paid as PT-7.2"),
        PatternDef("PT-5.6", "小炸弹", "small bomb: 3 golds of a kind or 4 golds", "points", 0,
                   "paid as PT-7.2"),
        PatternDef("PT-7.3", "大炸弹", "big bomb: 5 golds", "points", 50, "each loser pays 50",
                   key="big"),
        PatternDef("PT-7.3", "超级大炸弹", "super bomb: 6 golds", "points", 100,
                   "each loser pays 100", key="super"),
        PatternDef("PT-6", "金", "gold in hand", "points", 1, "a white that is gold: 2",
                   key="gold"),
        PatternDef("PT-6", "白板", "laid-out whites", "points", 1, "all four: 5", key="whites"),
        PatternDef("PT-6", "暗杠", "concealed kong", "points", 2, key="kong"),
        PatternDef("PT-7.1", "连庄", "dealer streak base", "points", None,
                   "base 1; the dealer's 2nd hand in a row: 3, the 3rd: 4, … (PT-7.1)"),
    )

    @classmethod
    def check_tile(cls, position: Position, tile: Tile) -> None:
        if tile.is_honour and tile.kind != 31:
            raise PositionError(f"{tile} is not a Putian tile (PT-1: the suited tiles and the "
                                "four whites)")

    @classmethod
    def check_position(cls, position: Position) -> None:
        super().check_position(position)
        white_gold = 31 in position.wildcards
        if not white_gold and any(t.kind == 31 for t in position.hand):
            raise PositionError("a white (5z) in the hand: whites are flowers, laid out and "
                                "replaced at once unless white is gold (PT-3)")
        if position.flowers > (0 if white_gold else 4):
            raise PositionError(f"{position.flowers} laid-out whites: there are "
                                f"{0 if white_gold else 4} to lay out (PT-3.4)")

    @classmethod
    def check_meld(cls, position: Position, meld: Meld) -> None:
        if not meld.is_concealed:
            raise PositionError(f"meld {meld}: Putian has no chow or pung, only concealed "
                                "kongs (PT-4)")
        if position.is_wild(meld.first):
            raise PositionError(f"meld {meld}: golds can't form a kong (PT-2)")

    @classmethod
    def copies(cls, position: Position, kind: int) -> int:
        # PT-2: one tile of each gold kind is turned up and out of play, unless it was
        # just robbed (PT-5.5).
        if kind in position.wildcards and not position.robbing_gold:
            return cls.WILDCARD_COPIES
        return 4

    @classmethod
    def seen_limit(cls, position: Position, kind: int) -> int:
        # PT-2: `seen` may list a gold kind's turned-up tile beside the three in play.
        return 4 if kind in position.wildcards else cls.copies(position, kind)

    @classmethod
    def remaining(cls, position: Position, kind: int, visible: Sequence[int]) -> int:
        """Copies not visible. The turned-up tile of a gold kind (PT-2) counts once, whether
        ``seen`` lists it (as ENGINE-CLI asks) or leaves it out.

        >>> from games.variants import read_position
        >>> p = read_position({"variant": "putian", "hand": "1112223334567p3s78s",
        ...                         "wildcards": ["3s", "5s"], "seen": "5s"})
        >>> visible = Putian.visible(p, p.hand)
        >>> Putian.remaining(p, 22, visible), Putian.remaining(p, 20, visible)
        (3, 2)
        """
        if kind in position.wildcards and not position.robbing_gold:
            listed = any(tile.kind == kind for tile in position.seen)
            return max(4 - visible[kind] - (0 if listed else 1), 0)
        return super().remaining(position, kind, visible)

    @classmethod
    def copy_rule(cls, position: Position, kind: int) -> str:
        return "PT-2" if kind in position.wildcards else "PT-1"

    @classmethod
    def readings(cls, position: Position) -> list[Reading]:
        # PT-7: the value never depends on the reading, so one (to show) is enough.
        counts, wild = cls.split(position, position.hand)
        return readings(counts, wild, cls.SETS - len(position.melds), limit=1)

    @classmethod
    def drawable(cls, position: Position) -> list[Tile]:
        extra = [TILES[31]] if 31 in position.wildcards else []
        return [*TILES[:27], *extra]

    @classmethod
    def legal_discards(cls, position: Position) -> list[Tile]:
        return sorted({t for t in position.hand if not position.is_wild(t)})  # PT-2

    @classmethod
    def golds(cls, position: Position, hand: Iterable[Tile]) -> list[Tile]:
        return [t for t in hand if position.is_wild(t)]

    @classmethod
    def flower_points(cls, position: Position) -> tuple[int, list[Hit]]:
        p = cls.PATTERNS
        golds = cls.golds(position, position.hand)
        white_golds = sum(1 for t in golds if t.kind == 31)
        kongs = sum(1 for m in position.melds if m.is_concealed)
        hits: list[Hit] = []
        if golds:
            hits.append(Hit(p["gold"], len(golds) + white_golds, len(golds)))
        if position.flowers:
            hits.append(Hit(p["whites"], 5 if position.flowers == 4 else position.flowers,
                            position.flowers))
        if kongs:
            hits.append(Hit(p["kong"], 2 * kongs, kongs))
        total = settlement.putian_flower_points(len(golds) - white_golds, white_golds,
                                                position.flowers, kongs)
        return total, hits

    @classmethod
    def draws_winning_without_shape(cls, position: Position,
                                    hand: Sequence[Tile]) -> frozenset[int]:
        """PT-5.6: with three golds of a kind or four in hand any draw makes a bomb; with
        two of a kind, the third; with three, a fourth gold.

        >>> from games.variants import read_position
        >>> p = read_position({"variant": "putian", "hand": "1112223334567p33s8s",
        ...                         "wildcards": ["3s", "5s"]})
        >>> [str(TILES[kind]) for kind in Putian.draws_winning_without_shape(p, p.hand)]
        ['3s']
        """
        golds = [sum(1 for tile in hand if tile.kind == kind) for kind in position.wildcards]
        total = sum(golds)
        if total >= 4 or max(golds, default=0) >= 3:
            return frozenset(tile.kind for tile in cls.drawable(position))
        return frozenset(kind for kind, held in zip(position.wildcards, golds, strict=True)
                         if held == 2 or total == 3)

    @classmethod
    def wins_without_shape(cls, position: Position) -> bool:
        return cls.bomb(position) is not None

    @classmethod
    def bomb(cls, position: Position) -> str | None:
        golds = cls.golds(position, position.hand)
        if len(golds) >= 6:
            return "super"
        if len(golds) == 5:
            return "big"
        if len(golds) == 4 or any(golds.count(t) >= 3 for t in set(golds)):
            return "small"
        return None

    @classmethod
    def context_problem(cls, position: Position) -> str | None:
        assert position.win_tile is not None
        if position.robbing_gold and not position.is_wild(position.win_tile):
            return Message("PT-5.5: robbing the gold takes one of the turned-up golds")
        own = position.own_draw or position.robbing_gold
        if not own and position.is_wild(position.win_tile):
            return Message("PT-2: golds are never discarded, so no one wins on a discarded gold")
        if position.bomb and not (position.own_draw and cls.bomb(position)):
            return Message("PT-5.6: a bomb needs 3 golds of one kind or 4 or more golds, on "
                           "one's own turn")
        return None

    @classmethod
    def could_win(cls, position: Position, hand: Sequence[Tile], shanten: int) -> bool:
        if position.own_draw and len(cls.golds(position, hand)) >= 3:
            return True  # maybe a bomb (PT-5.6), whatever the shape
        return shanten == -1

    @classmethod
    def best_value(cls, position: Position, found: Sequence[Reading]) -> Score:
        normal = None if position.bomb else super().best_value(position, found)
        if position.own_draw and cls.bomb(position):
            bomb = cls._bomb_value(position)
            if normal is None or not normal.win or bomb.points > normal.points:
                return bomb
        assert normal is not None
        return normal

    @classmethod
    def _bomb_value(cls, position: Position) -> Score:
        p = cls.PATTERNS
        kind = cls.bomb(position)
        assert kind is not None
        rule = {"small": "PT-5.6", "big": "big", "super": "super"}[kind]
        flowers, hits = cls.flower_points(position)
        points = settlement.putian_points(position.dealer_streak, flowers,
                                          None if kind == "small" else kind)
        hits = [Hit(p[rule], p[rule].value or 0), *hits, *cls._streak(position)]
        return Score(True, points, hits, reading=" ".join(str(t) for t in sorted(position.hand)),
                     extra={"flower_points": flowers, "bomb": kind})

    @classmethod
    def _streak(cls, position: Position) -> list[Hit]:
        if not position.dealer_streak:
            return []
        return [Hit(cls.PATTERNS["PT-7.1"], settlement.putian_base(position.dealer_streak))]

    @classmethod
    def values(cls, position: Position, reading: Reading) -> Iterator[Score]:
        p = cls.PATTERNS
        flowers, hits = cls.flower_points(position)
        special: list[Hit] = []
        if position.first_turn and position.is_dealer and position.own_draw:
            special.append(Hit(p["PT-5.4"], 0))
        if position.robbing_gold:
            special.append(Hit(p["PT-5.5"], 0))
        points = settlement.putian_points(position.dealer_streak, flowers)
        face = min(position.wildcards)
        kinds = [TILES[face]] * (reading.free_sets + int(reading.free_pair))
        yield Score(True, points, [*special, *hits, *cls._streak(position)],
                    extra={"flower_points": flowers},
                    read_as=(position, reading.with_free_kinds(kinds)))


_WHITES = frozenset({WHITE})


class PutianTable(Table):
    """PT-1–PT-7."""

    variant = Putian
    OUT_OF_PLAY = 2  # the two turned-up golds (PT-2)
    LIMITS_DISCARDS = True  # golds, laid-out whites, the ready lock
    NO_CLAIM_RULE = "PT-4"
    ROB_KONG_RULE = "PT-4"
    FIRST_DISCARD_WINNER_RULE = "PT-5.2"

    def __init__(self, setup: HandSetup) -> None:
        super().__init__(setup)
        self.white_is_gold = WHITE in setup.wildcards
        self.gold_robbable = True
        self.flower_turn = self.dealer
        self.flower_left = 0
        self.flower_stage = "flower"
        self.pass_offset = 0
        self._begin_flower_pass()

    def _copies(self, kind: int) -> int:
        return 3 if kind in self.setup.wildcards else 4

    def copy_rule(self, kind: int) -> str:
        return "PT-2"

    # PT-3.1: passes from the dealer in playing order; in a player's slot they lay out
    # every white they hold then, each followed by a replacement from the back; whites
    # drawn meanwhile wait for the next pass.

    def _begin_flower_pass(self) -> None:
        self.pass_offset = 0
        self._enter_flower_slot()

    def _enter_flower_slot(self) -> None:
        while self.pass_offset < 4 and not self.white_is_gold:
            seat = (self.dealer + self.pass_offset) % 4
            due = self.seats[seat].hand[WHITE]
            if due:
                self.phase = Phase.FLOWERS
                self.flower_turn, self.flower_left, self.flower_stage = seat, due, "flower"
                return
            self.pass_offset += 1
        if not self.white_is_gold and any(s.hand[WHITE] for s in self.seats):
            self._begin_flower_pass()
            return
        self.phase = Phase.TURN
        self.turn = self.dealer
        self.drawn = None

    def _on_flower(self, event: Event) -> None:
        actor = self._actor(event)
        tile = self._tile(event)
        if not (tile.kind == WHITE and not self.white_is_gold):
            raise RuleViolation(
                "PT-3",
                Message("{player} can't lay out {tile}: only whites are flowers, and white is "
                        "gold this hand (PT-3.4)" if self.white_is_gold else
                        "{player} can't lay out {tile}: only whites are flowers",
                        player=self.name(actor), tile=tile),
            )
        state = self.seats[actor]
        if not (state.hand[WHITE] > 0):
            raise RuleViolation("PT-3", Message("{player} holds no white to lay out",
                                                player=self.name(actor)))
        if self.phase is Phase.FLOWERS:
            if not (actor == self.flower_turn and self.flower_stage == "flower"):
                raise RuleViolation(
                    "PT-3.1",
                    Message("the opening replacements go in playing order from the dealer: "
                            "{why}", why=self._flower_expectation()),
                )
            self.flower_stage = "draw"
        else:
            if not (self.phase is Phase.TURN and actor == self.turn):
                raise RuleViolation(
                    "PT-3.2", Message("{player} can't lay out a white now: {why}",
                                      player=self.name(actor), why=self._waiting_for())
                )
            self.phase = Phase.DRAW
            self.need_back = True
            self.need_back_reason = "flower"
            self.drawn = None
        state.hand[WHITE] -= 1
        state.flowers += 1

    def _flower_expectation(self) -> Message:
        seat = self.flower_turn
        if self.flower_stage == "flower":
            return Message("{player} lays out a white next", player=self.name(seat))
        return Message("{player} draws a replacement from the back next", player=self.name(seat))

    def _on_draw(self, event: Event) -> None:
        if self.phase is not Phase.FLOWERS:
            super()._on_draw(event)
            return
        actor = self._actor(event)
        tile = self._tile(event)
        if not (
            actor == self.flower_turn and self.flower_stage == "draw" and event.source == "back"
        ):
            raise RuleViolation(
                "PT-3.1", Message("the opening replacements go in order: {why}",
                                  why=self._flower_expectation())
            )
        self._take_from_wall(actor, tile, back=True)
        self.seats[actor].hand[tile.kind] += 1
        self.flower_left -= 1
        if self.flower_left:
            self.flower_stage = "flower"
        else:
            self.pass_offset += 1
            self._enter_flower_slot()

    def check_discard(self, seat: int, tile: Tile) -> None:
        if self.is_wild(tile.kind):
            raise RuleViolation(
                "PT-2", Message("{player} can't discard {tile}: golds can never be discarded",
                                player=self.name(seat), tile=tile)
            )
        state = self.seats[seat]
        if not (tile.kind != WHITE or self.white_is_gold):
            raise RuleViolation(
                "PT-3.2", Message("{player} can't discard a white: it is laid out as a flower",
                                  player=self.name(seat))
            )
        if not (self.white_is_gold or state.hand[WHITE] == 0):
            raise RuleViolation(
                "PT-3.2", Message("{player} must lay out their white before discarding",
                                  player=self.name(seat))
            )
        if state.ready and self.drawn is not None:
            if not (tile == self.drawn):
                raise RuleViolation(
                    "PT-5.3",
                    Message("{player} declared ready: the drawn {tile} is discarded unless "
                            "it wins", player=self.name(seat), tile=self.drawn),
                )
        if state.ready_pending:
            left = list(state.hand)
            left[tile.kind] -= 1
            if not self.is_ready(seat, left):
                raise RuleViolation(
                    "PT-5.3", Message("{player} declared ready, but discarding {tile} leaves "
                                      "the hand not ready", player=self.name(seat), tile=tile)
                )

    def after_discard(self, actor: int) -> None:
        self.gold_robbable = False  # PT-5.5: only before the dealer's first discard
        state = self.seats[actor]
        if state.ready_pending:  # check_discard kept the hand ready
            state.ready_pending = False
            state.ready = True  # the lock starts with the next draw
            state.locked_from = len(state.river)

    def is_ready(self, seat: int, counts: Sequence[int]) -> bool:
        """PT-5.3: a hand (a tile short of 17) that may declare ready: a ready shape, or
        three golds, which a fourth makes a bomb (PT-5.6). Under the declaration's lock a
        drawn tile is discarded unless it wins, and a drawn gold can't be (PT-2), so every
        gold must win: two golds of a kind and no ready shape are not enough, though the
        third gold of that kind would win (``waits`` calls that hand ready)."""
        return self.shape_shanten(seat, counts) <= 0 or self._bomb_in_reach(counts)

    def _bomb_in_reach(self, counts: Sequence[int]) -> bool:
        """Three golds: any gold drawn makes four, or a fourth of a kind, a bomb (PT-5.6)."""
        return sum(counts[kind] for kind in self.setup.wildcards) >= 3

    def may_declare_ready(self, seat: int) -> bool:
        """PT-5.3: a declaration is offered only when some discard then leaves the hand
        ready (the table would refuse every discard after it otherwise)."""
        hand = self.seats[seat].hand
        if self._bomb_in_reach(hand):  # golds are never discarded: every discard keeps it
            return bool(self.discardable(seat))
        if self.shape_shanten(seat, hand) > 0:  # a tile fewer never lowers it
            return False
        for kind in self.discardable(seat):
            left = list(hand)
            left[kind] -= 1
            if self.shape_shanten(seat, left) <= 0:
                return True
        return False

    def _on_ready(self, event: Event) -> None:
        actor = self._actor(event)
        if self.phase is not Phase.TURN or actor != self.turn:
            raise self._wrong_time(event, Message("declare ready"))
        state = self.seats[actor]
        if state.ready and not state.ready_pending:
            raise RuleViolation("PT-5.3", Message("{player} is already ready",
                                                  player=self.name(actor)))
        if not self.may_declare_ready(actor):
            raise RuleViolation("PT-5.3", Message("{player} can't declare ready: their hand "
                                                  "is not ready after any discard",
                                                  player=self.name(actor)))
        state.ready_pending = True

    def check_meld_tile(self, seat: int, tile: Tile, what: str) -> None:
        if self.is_wild(tile.kind):
            raise RuleViolation("PT-2", Message("{player} can't {what} golds",
                                                player=self.name(seat), what=what))
        state = self.seats[seat]
        if state.ready or state.ready_pending:  # the drawn tile wins or is discarded
            raise RuleViolation("PT-5.3", Message("{player} declared ready: no kong after "
                                                  "the declaration", player=self.name(seat)))

    def _rob_gold(self, event: Event, actor: int, tile: Tile) -> None:
        if not (
            self.gold_robbable
            and self.phase is Phase.TURN
            and self.turn == self.dealer
            and not self.seats[self.dealer].discarded
        ):
            raise RuleViolation(
                "PT-5.5",
                Message("{player} can't rob the gold: only after the opening "
                        "replacements and before the dealer's first discard",
                        player=self.name(actor)),
            )
        if not (self.is_wild(tile.kind)):
            raise RuleViolation("PT-5.5", Message("{player} can't rob {tile}: it is not a gold",
                                                  player=self.name(actor), tile=tile))
        if not (self.used[tile.kind] < 4 or self.wall is not None):
            raise RuleViolation("PT-5.5", Message("that gold is no longer on the table"))
        position = self._rob_gold_position(actor, tile)
        if not (position is not None):
            raise RuleViolation(
                "PT-5.5", Message("{player} can't rob the gold: their hand is not ready",
                                  player=self.name(actor))
            )

        assert position is not None
        score = self._winning_score(actor, position, tile)
        self.seats[actor].hand[tile.kind] += 1
        if actor == self.dealer:
            aside = next(
                t
                for t in self.seats[actor].tiles()
                if t not in position.hand or self.seats[actor].hand[t.kind] > position.hand.count(t)
            )
            self.seats[actor].hand[aside.kind] -= 1
        deltas = self.settle(self.win_payments(actor, None, "rob_gold", score))
        self.wins.append(Win(actor, tile, None, "rob_gold", score, deltas, position))
        self.seats[actor].won = True
        self.after_win(actor, None)

    def _rob_gold_position(self, seat: int, gold: Tile) -> Position | None:
        """The 17-tile hand that robs the gold, the dealer setting one tile aside (PT-5.5)."""
        tiles = self.seats[seat].tiles()
        choices: list[list[Tile]] = [tiles]
        if seat == self.dealer:
            choices = []
            for kind in sorted({t.kind for t in tiles}):
                rest = list(tiles)
                rest.remove(TILES[kind])
                choices.append(rest)
        best: Position | None = None
        best_points = -1
        for rest in choices:
            position = self.seat_position(seat, win_tile=gold, robbing_gold=True)
            position = position.with_hand((*rest, gold), gold)
            score = self.variant.score(position)
            if score.win and score.points > best_points:
                best, best_points = position, score.points
        return best

    def win_payments(
        self, seat: int, target: int | None, how: str | None, score: Score
    ) -> list[settlement.Payment]:
        bomb = score.extra.get("bomb")
        flowers = [self.flower_points(s) for s in range(4)]
        flowers[seat] = int(score.extra.get("flower_points", flowers[seat]))
        losers = [flowers[s] for s in range(4) if s != seat]
        if max(losers) != min(losers):
            self.settlement_notes.append("PT-7.4 算花")
        if seat != self.dealer:
            self.settlement_notes.append("PT-7.2 dealer pays 2 more")
        if self.setup.dealer_streak:
            self.settlement_notes.append("PT-7.1 streak base")
        return settlement.putian_win_payments(
            seat,
            self.dealer,
            dealer_streak=self.setup.dealer_streak,
            flower_points=flowers,
            bomb=None if bomb == "small" else bomb,
        )

    def may_win_without_shape(self, seat: int) -> bool:
        hand = self.seats[seat].hand
        return sum(hand[kind] for kind in self.setup.wildcards) >= 3  # a bomb (PT-5.6)

    def settlement_rule(self) -> str:
        if not self.wins:
            return "PT-7.5"
        bomb = self.wins[-1].score.extra.get("bomb")
        return "PT-7.3" if bomb in ("big", "super") else "PT-7.2"

    def flower_points(self, seat: int) -> int:
        """PT-6 for any seat (算花 among losers, PT-7.4)."""
        state = self.seats[seat]
        golds = sum(n for k, n in enumerate(state.hand) if self.is_wild(k))
        white_golds = state.hand[WHITE] if self.white_is_gold else 0
        kongs = sum(1 for m in state.melds if m.is_concealed)
        return settlement.putian_flower_points(
            golds - white_golds, white_golds, state.flowers, kongs
        )

    def kinds_ruled_out(self, seat: int) -> frozenset[int]:
        """PT-3.2: a white that isn't gold is laid out as soon as it is drawn, so after the
        opening replacements only the seat in the middle of its turn may hold one."""
        if self.white_is_gold or self.phase is Phase.FLOWERS or (
                self.turn == seat and self.phase is Phase.TURN):
            return frozenset()
        return _WHITES

    def hand_rule(self, seat: int) -> Callable[[Sequence[int]], bool] | None:
        """PT-5.3: a seat that declared ready keeps a ready hand (it discards every drawn
        tile that doesn't win).

        >>> from games.bots.simulation import simulate
        >>> from games.records.match import Replayer
        >>> match = simulate("putian", 1, 1)
        >>> table = Replayer(match).begin(1, match.hands[0])
        >>> table.hand_rule(0) is None  # nobody has declared ready yet
        True
        """
        if not self.seats[seat].ready:
            return None

        def ready(counts: Sequence[int]) -> bool:
            return self.is_ready(seat, counts)

        return ready

    def extra_turn_actions(self, seat: int) -> list[Action]:
        state = self.seats[seat]
        actions: list[Action] = []
        if not self.white_is_gold and state.hand[WHITE]:
            return [Action(seat, Event("flower", seat, tile=TILES[WHITE]))]
        if not state.ready and not state.ready_pending and self.may_declare_ready(seat):
            actions.append(Action(seat, Event("ready", seat)))
        if self.gold_robbable and seat == self.dealer and not state.discarded:
            for other in range(4):
                for kind in sorted(self.setup.wildcards):
                    if self._rob_gold_position(other, TILES[kind]) is not None:
                        actions.append(
                            Action(other, Event("hu", other, tile=TILES[kind], how="rob_gold"))
                        )
                        break
        position = self.seat_position(seat, self_draw=True)
        if self.drawn is not None and Putian.bomb(position):
            actions.append(Action(seat, Event("hu", seat, tile=self.drawn, how="bomb")))
        return actions

    def _legal_turn(self) -> list[Action]:
        state = self.seats[self.turn]
        if not self.white_is_gold and state.hand[WHITE]:
            return [Action(self.turn, Event("flower", self.turn, tile=TILES[WHITE]))]
        return super()._legal_turn()

    def _legal_flowers(self) -> list[Action]:
        seat = self.flower_turn
        if self.flower_stage == "flower":
            return [Action(seat, Event("flower", seat, tile=TILES[WHITE]))]
        return [Action(seat, Event("draw", seat, tile=self.peek_wall(True), source="back"))]
