"""The table: one hand's state machine for every variant (RULES JX-1–4, PT-1–5, SC-1–3).

A :class:`Table` starts from a hand's deal and applies events one by one,
raising :class:`RuleViolation` (rule id + a sentence a player understands) at
the first illegal one. At every point it also answers what each seat may do
(:meth:`Table.legal_actions`), which the bots and the annotation use. The
validator, the bots and the analysis all go through this one class, so they
can't disagree about the rules.

Events are :class:`games.records.log.Event` values (LOG-FORMAT.md). Passes and
declined wins are not recorded: a discard nobody claims is followed by the
next draw.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, ClassVar

from games.core.events import Event
from games.core.messages import Message, Templated, after_rule
from games.core.position import Position
from games.core.settlement import Payment, deltas_of, house_of
from games.core.tiles import TILES, Meld, Tile
from games.core.variant import Score, Variant

WHITE = 31


class RuleViolation(Templated, ValueError):
    """An event the rules don't allow; ``rule`` is the RULES.md id."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{message} ({rule})")


class Phase(enum.Enum):
    EXCHANGE = "exchange"  # Sichuan 换三张: three tiles still to be set aside (SC-H1)
    DINGQUE = "dingque"  # Sichuan: void suits still to be named (SC-2)
    FLOWERS = "flowers"  # Putian: the opening replacement passes (PT-3.1)
    TURN = "turn"  # the player to act holds one tile too many
    DISCARDED = "discarded"  # a discard lies on the table: claims or the next draw
    ROBBABLE = "robbable"  # an added kong was declared: robbing or its replacement
    CONTRACT = "contract"  # Jiaxing: the two others answer persist/give up (JX-9)
    DRAW = "draw"  # the player to act must draw
    ENDED = "ended"


_ENDED, _TURN, _DRAW, _DISCARDED, _ROBBABLE = (
    Phase.ENDED, Phase.TURN, Phase.DRAW, Phase.DISCARDED, Phase.ROBBABLE)


@dataclass(frozen=True)
class Action:
    """One thing a seat may do now; ``event`` is the event that would record it."""

    seat: int
    event: Event
    note: str = ""


@dataclass
class Win:
    """A win and its value, as the table settled it."""

    seat: int
    tile: Tile
    target: int | None
    how: str | None
    score: Score
    deltas: list[int]
    position: Position | None = None  # the position the table scored (pay puzzles read it)


@dataclass(frozen=True)
class Settled:
    """One payment line and the event that caused it (its index among the
    hand's events; the end of the hand for an exhausted hand's lines)."""

    event: int
    line: Payment


@dataclass
class SeatState:
    hand: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[Meld] = field(default_factory=list)
    river: list[tuple[Tile, bool]] = field(default_factory=list)  # (tile, claimed)
    flowers: int = 0
    void: int | None = None
    ready: bool = False
    ready_pending: bool = False
    # River entries from this index on were discarded under the ready lock (PT-5.3): each
    # was a drawn tile that did not win, which is what a reader of the table can tell.
    locked_from: int | None = None
    gave_up: bool = False
    won: bool = False
    left: bool = False
    discarded: bool = False
    claims_from: list[int] = field(default_factory=lambda: [0] * 4)
    kong_income: list[tuple[int, int]] = field(default_factory=list)

    @property
    def out(self) -> bool:
        """No longer playing: won (Sichuan plays on without them) or left."""
        return self.won or self.left

    def tiles(self) -> list[Tile]:
        return [TILES[k] for k, n in enumerate(self.hand) for _ in range(n)]

    @property
    def size(self) -> int:
        return sum(self.hand)


@dataclass(frozen=True)
class HandSetup:
    """Everything a hand starts from (LOG-FORMAT.md's hand, checked for structure)."""

    variant: type[Variant]
    players: tuple[str, str, str, str]
    rules: dict[str, int | str | bool]
    dealer: int
    deal: tuple[tuple[Tile, ...], ...]
    wildcards: frozenset[int] = frozenset()
    round_wind: int = 0
    dice: tuple[int, int] | None = None
    indicator: Tile | None = None
    bank: tuple[str, ...] = ()  # the carried fans this hand may use (its own triggers added)
    dealer_streak: int = 0
    wall: tuple[Tile, ...] | None = None
    # Each seat's balance when the hand starts, when the match keeps balances (beans for
    # Sichuan, SC-6.5); a Sichuan leaver pays no more than they have (SC-6.6).
    balances: tuple[int, ...] | None = None


# Discard actions are the most common; being immutable they are built once.
_DISCARDS = [
    [Action(seat, Event("discard", seat, tile=TILES[kind])) for kind in range(34)]
    for seat in range(4)
]


_ORDINALS = (Message("first"), Message("second"), Message("third"), Message("fourth"),
             Message("fifth"))


class Table:
    """One hand in play. Subclasses set the variant's switches."""

    variant: ClassVar[type[Variant]]
    """The variant's scoring class: hand size, tiles, claims and rule ids come from it."""
    OUT_OF_PLAY: ClassVar[int] = 0
    """Tiles turned up before play and out of it (JX-4 indicator, PT-2 golds)."""
    CLAIMS_STOP_AT: ClassVar[int] = 0
    """Claims on a discard need at least this many tiles left in the wall (JX-2.8)."""
    PLAY_ON: ClassVar[bool] = False
    """Winners leave and the others play on (SC-3.2) instead of the hand ending."""
    LIMITS_DISCARDS: ClassVar[bool] = False
    """:meth:`check_discard` refuses some discards (golds, the void suit, the ready lock)."""
    CLEARS_ON_PASS: ClassVar[bool] = False
    """:meth:`on_pass` has state to clear when a discard passes (a robbed kong, SC-5.18)."""
    LEAVE_RULE: ClassVar[str] = "C-2"
    """The rule an event by a player who left breaks (JX-10.6, SC-6.6)."""
    NO_CLAIM_RULE: ClassVar[str]
    """The rule a chow or pung breaks in a variant without it (SC-3, PT-4)."""
    ROB_KONG_RULE: ClassVar[str]
    """The rule robbing a kong follows or breaks (JX-8, SC-5.18; PT-4: no added kong)."""
    FIRST_DISCARD_WINNER_RULE: ClassVar[str]
    """The rule a second win on the discard that ended the hand breaks (PT-5.2)."""
    _handler_map: ClassVar[dict[str, Callable[[Table, Event], None]]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._handler_map = cls._handlers()

    def __init__(self, setup: HandSetup) -> None:
        self.setup = setup
        self.seats = [SeatState() for _ in range(4)]
        self.dealer = setup.dealer
        self.turn = setup.dealer
        self.phase = Phase.TURN
        self.drawn: Tile | None = None
        self.after_kong = False  # the turn began with a kong replacement
        self.kong_discard = False  # the discard on the table followed a kong replacement
        self.need_back = False
        self.last_discard: tuple[int, Tile] | None = None
        self.discard_winners: list[int] = []
        self.pending_kong: tuple[int, Tile] | None = None
        self.contracts: list[tuple[int, int]] = []
        self.scored_position: Position | None = None  # the last win position scored
        self.contract_queue: list[int] = []
        self.contract_resume: Phase = Phase.TURN
        self.any_claim = False
        self.wins: list[Win] = []
        self.deltas = [0, 0, 0, 0]
        self.end_reason: str | None = None
        self.settlement_notes: list[str] = []  # rules that moved points, for coverage
        self.fees = [0, 0, 0, 0]  # paid to the house, outside the zero-sum deltas (C-6)
        self.payments: list[Settled] = []  # every line, in the order it was paid
        self.used = [0] * 34
        self.seen_events = 0
        self.wall = list(setup.wall) if setup.wall is not None else None
        self.front = 0
        self.back = len(self.wall) if self.wall is not None else 0
        self._deal()

    # -- setup ----------------------------------------------------------------

    def _deal(self) -> None:
        setup = self.setup
        for seat, tiles in enumerate(setup.deal):
            want = self.variant.HAND_SIZE + (1 if seat == self.dealer else 0)
            if len(tiles) != want:
                raise RuleViolation(
                    self.variant.SETUP_RULE,
                    Message("{player} was dealt {n} tiles; the dealer gets {want}"
                            if seat == self.dealer else
                            "{player} was dealt {n} tiles; the player gets {want}",
                            player=self.name(seat), n=len(tiles), want=want),
                )
            hand = self.seats[seat].hand
            for tile in tiles:
                hand[tile.kind] += 1
        self.used = [a + b + c + d for a, b, c, d in zip(*(s.hand for s in self.seats),
                                                          strict=True)]
        self._check_copies("C-1", lambda kind: next(
            Message("{player}'s deal", player=self.name(s))
            for s in range(4) if self.seats[s].hand[kind]))
        # The turned-up tiles (JX-4 indicator, PT-2 golds) are out of play: _copies()
        # leaves them out of their kinds' counts.
        in_play = 4 * len(self.variant.tile_kinds())
        self.tiles_left = in_play - self.OUT_OF_PLAY - sum(self.used)
        if self.wall is not None:
            for tile in self.wall:
                self.used[tile.kind] += 1
            self._check_copies("C-1", lambda kind: Message("the wall"))
            if len(self.wall) != self.tiles_left:
                raise RuleViolation(
                    "C-5",
                    Message("the wall holds {n} tiles; after the deal {want} should remain",
                            n=len(self.wall), want=self.tiles_left),
                )
            # Wall tiles are counted as used above; draws from it re-count nothing.

    def _copies(self, kind: int) -> int:
        return self.variant.copies(self._position_stub, kind)

    @cached_property
    def _position_stub(self) -> Position:
        """An empty position with the hand's wildcards, for questions about copies."""
        return Position(variant=self.variant, hand=(), wildcards=self.setup.wildcards)

    def _check_copies(self, rule: str, where: Callable[[int], str]) -> None:
        limits = self._copy_limits
        for kind in range(34):
            if self.used[kind] > limits[kind]:
                self.used[kind] -= 1
                self._use(kind, rule, where(kind))

    @cached_property
    def _copy_limits(self) -> list[int]:
        """Copies of each kind in play (C-1; fewer for turned-up kinds, JX-4, PT-2)."""
        return [self._copies(k) for k in range(34)]

    def _use(self, kind: int, rule: str, where: str) -> None:
        self.used[kind] += 1
        limits = self._copy_limits
        if self.used[kind] > limits[kind]:
            rule = self.copy_rule(kind) if limits[kind] < 4 else rule
            raise RuleViolation(
                rule,
                Message("{where} holds a {ordinal} copy of {tile}: only {n} are in play",
                        where=where, ordinal=_ORDINALS[limits[kind]], tile=TILES[kind],
                        n=limits[kind]),
            )

    @property
    def ended(self) -> bool:
        return self.phase is Phase.ENDED

    def rule(self, name: str) -> int:
        """An integer rules option of the hand, or its documented default."""
        return int(self.setup.rules.get(name, self.variant.OPTIONS[name].default))

    def copy_rule(self, kind: int) -> str:
        """The rule that takes a kind's turned-up copy out of play."""
        return "C-1"

    def name(self, seat: int) -> str:
        return self.setup.players[seat]

    # -- queries --------------------------------------------------------------

    def is_wild(self, kind: int) -> bool:
        return kind in self.setup.wildcards

    def seat_position(
        self,
        seat: int,
        win_tile: Tile | None = None,
        extra: Tile | None = None,
        *,
        self_draw: bool = False,
        after_kong: bool = False,
        last_tile: bool = False,
        robbing_kong: bool = False,
        first_turn: bool = False,
        after_kong_discard: bool = False,
        robbing_gold: bool = False,
        bomb: bool = False,
    ) -> Position:
        """The engine's view of a seat's hand, for scoring and waits."""
        state = self.seats[seat]
        hand = state.tiles()
        if extra is not None:
            hand.append(extra)
        return Position(
            variant=self.variant,
            hand=tuple(hand),
            melds=tuple(state.melds),
            win_tile=win_tile,
            wildcards=self.setup.wildcards,
            seat=seat,
            dealer=self.dealer,
            round_wind=self.setup.round_wind,
            bank=self.setup.bank,
            flowers=state.flowers,
            void=state.void,
            dealer_streak=self.setup.dealer_streak,
            rules=self.setup.rules,
            self_draw=self_draw,
            after_kong=after_kong,
            last_tile=last_tile,
            robbing_kong=robbing_kong,
            first_turn=first_turn,
            after_kong_discard=after_kong_discard,
            robbing_gold=robbing_gold,
            bomb=bomb,
        )

    def public_tiles(self, seat: int) -> list[Tile]:
        """The tiles ``seat`` sees besides its own hand and melds: the other players' open
        melds (a concealed kong stays hidden), a winner's shown hand (SC-3.2), every
        discard not claimed, and the turned-up indicator (JX-4)."""
        tiles: list[Tile] = []
        for other, state in enumerate(self.seats):
            if other != seat:
                if state.won:
                    tiles.extend(state.tiles())
                tiles.extend(t for m in state.melds if not m.is_concealed for t in m.tiles)
            tiles.extend(t for t, claimed in state.river if not claimed)
        if self.setup.indicator is not None:
            tiles.append(self.setup.indicator)
        return tiles

    def visible_to(self, seat: int) -> list[int]:
        """How many of each kind ``seat`` can see: its own hand and melds, the
        :meth:`public_tiles` and every laid-out flower (PT-3.3)."""
        state = self.seats[seat]
        counts = list(state.hand)
        for tile in [*(t for m in state.melds for t in m.tiles), *self.public_tiles(seat)]:
            counts[tile.kind] += 1
        for kind in self.variant.FLOWER_KINDS:
            counts[kind] += sum(s.flowers for s in self.seats)
        return counts

    def next_seat(self, seat: int) -> int:
        """The next seat in playing order still playing (C-2, SC-3.2)."""
        seats = self.seats
        for step in (1, 2, 3, 4):
            candidate = (seat + step) % 4
            state = seats[candidate]
            if not state.won and not state.left:
                return candidate
        return seat

    def players_in(self) -> list[int]:
        return [s for s in range(4) if not self.seats[s].out]

    # -- applying events ------------------------------------------------------

    def apply(self, event: Event) -> None:
        """Apply one event, or raise :class:`RuleViolation` naming the rule."""
        if self.phase is _ENDED:
            raise self._after_the_end(event)
        handler = self._handler_map.get(event.type)
        if handler is None:
            raise RuleViolation(
                self.variant.SETUP_RULE, Message("{type!r} events don't exist in {variant}",
                                                 type=event.type, variant=self.variant.name)
            )
        if event.actor is not None and self.seats[event.actor].left:
            raise RuleViolation(self.LEAVE_RULE, Message("{player} has left the table",
                                                         player=self.name(event.actor)))
        handler(self, event)
        self.seen_events += 1

    def _after_the_end(self, event: Event) -> RuleViolation:
        """The refusal of an event after the hand ended, naming the rule it breaks.

        A second win on what ended the hand breaks the rule that lets only the first
        in playing order win it: PT-5.2 on a discard, JX-8 on a kong, PT-5.5 on the
        turned-up gold.
        """
        last = self.wins[-1] if self.wins else None
        if event.type != "hu" or event.actor is None or last is None:
            return RuleViolation("C-5", Message("the hand is already over"))
        if last.how == "rob_gold" and event.how == "rob_gold":
            rule, what = "PT-5.5", Message("rob the gold")
            order = Message("the dealer first, then playing order")
        elif last.target is None or event.target != last.target or event.tile != last.tile:
            return RuleViolation("C-5", Message("the hand is already over"))
        elif last.how == "robbing_kong":
            rule, what = self.ROB_KONG_RULE, Message("rob the same kong")
            order = Message("only the first in playing order after the konger wins")
        else:
            rule, what = self.FIRST_DISCARD_WINNER_RULE, Message("win on the same discard")
            order = Message("only the first in playing order after the discarder wins")
        return RuleViolation(
            rule, Message("{player} can't {what}: {other} won it ({order})",
                          player=self.name(event.actor), what=what,
                          other=self.name(last.seat), order=order)
        )

    def apply_run(self, events: Sequence[Event]) -> int:
        """Apply events up to the first ``end``; returns how many were applied.

        The same as :meth:`apply` event by event; the plain draw from the front and
        the plain discard, nearly every event of a log, skip the handler lookup and go
        straight to the helpers their handlers use (validation speed matters for
        uploads).
        """
        applied = 0
        for event in events:
            if event.type == "end":
                return applied
            if not self._plain_step(event):
                self.apply(event)
            applied += 1
        return applied

    def _plain_step(self, event: Event) -> bool:
        """Apply a plain front draw or discard as its handler would; False if it isn't one
        (then :meth:`apply` takes it, with every check and message)."""
        actor, tile = event.actor, event.tile
        if actor is None or tile is None or self.seats[actor].left:
            return False
        if event.type == "draw":
            if event.source != "front" or self.wall is None:
                return False
            if self.phase is _DISCARDED:
                self._pass_discard()
            if not (self.phase is _DRAW and actor == self.turn and not self.need_back
                    and self.tiles_left > 0 and self.wall[self.front] is tile):
                return False
            self._draw(actor, tile, back=False)
        elif event.type == "discard":
            if not (self.phase is _TURN and actor == self.turn
                    and self.seats[actor].hand[tile.kind] > 0):
                return False
            if self.LIMITS_DISCARDS:
                self.check_discard(actor, tile)
            self._record_discard(actor, tile)
        else:
            return False
        self.seen_events += 1
        return True

    @classmethod
    def _handlers(cls) -> dict[str, Callable[[Table, Event], None]]:
        """Event type → handler (``_on_<type>``), built once per class (replay speed)."""
        return {name[4:]: getattr(cls, name) for name in dir(cls) if name.startswith("_on_")}

    def _wrong_time(self, event: Event, what: str) -> RuleViolation:
        actor = event.actor or 0
        return RuleViolation(self._timing_rule(event),
                             Message("{player} can't {what} now: {why}", player=self.name(actor),
                                     what=what, why=self._waiting_for()))

    def _timing_rule(self, event: Event) -> str:
        """The rule an event out of turn breaks, as precisely as the phase tells."""
        actor = event.actor
        if actor is not None and self.seats[actor].won:
            return "SC-3.2"
        if (self.PLAY_ON and event.type == "draw" and self.phase is Phase.DRAW
                and any(state.won for state in self.seats)):
            return "SC-3.2"  # once someone has won, it says whose turn comes next
        if self.phase is Phase.DINGQUE:
            return "SC-2"
        if self.phase is Phase.EXCHANGE:
            return "SC-H1"
        if self.phase is Phase.FLOWERS:
            return "PT-3.1"
        if self.phase is Phase.CONTRACT:
            return "JX-9"
        if (self.phase is Phase.TURN and actor == self.turn and event.type == "draw"
                and self.drawn is None and self.any_claim and self.seats[actor].melds):
            return "JX-2.7" if self.variant.HAS_CHOW else "SC-3"
        return "C-2"

    def _waiting_for(self) -> Message:
        if self.phase is Phase.DRAW:
            return Message("{player} must draw from the back of the wall" if self.need_back
                           else "{player} must draw from the front of the wall",
                           player=self.name(self.turn))
        if self.phase is Phase.TURN:
            return Message("it is {player}'s turn to discard", player=self.name(self.turn))
        if self.phase is Phase.DISCARDED and self.last_discard:
            return Message("{player}'s discard awaits claims or the next draw",
                           player=self.name(self.last_discard[0]))
        if self.phase is Phase.ROBBABLE:
            return Message("an added kong awaits robbing or its replacement draw")
        if self.phase is Phase.CONTRACT:
            return Message("{player} must answer the contract",
                           player=self.name(self.contract_queue[0]))
        if self.phase is Phase.DINGQUE:
            return Message("every player must first name a void suit")
        if self.phase is Phase.EXCHANGE:
            return Message("every player must first set aside three tiles of one suit (换三张)")
        if self.phase is Phase.FLOWERS:
            return Message("the opening white replacements are under way")
        return Message("the hand is over")

    # draw

    def _on_draw(self, event: Event) -> None:
        actor = event.actor
        tile = event.tile
        if actor is None or tile is None:
            raise RuleViolation("C-2", Message("a draw needs an actor and a tile"))
        phase = self.phase
        if phase is _DISCARDED:
            self._pass_discard()
        elif phase is _ROBBABLE:
            self._complete_added_kong()
        if self.phase is not _DRAW or actor != self.turn:
            raise self._wrong_time(event, Message("draw {tile}", tile=tile))
        back = event.source == "back"
        if back != self.need_back:
            raise RuleViolation(
                "C-5",
                Message("{player} must draw from the back of the wall (a replacement)"
                        if self.need_back else "{player} must draw from the front of the wall",
                        player=self.name(actor)),
            )
        self._draw(actor, tile, back)

    def _draw(self, actor: int, tile: Tile, back: bool) -> None:
        """A checked draw: from the wall into the hand; the actor's turn begins."""
        self._take_from_wall(actor, tile, back)
        self.seats[actor].hand[tile.kind] += 1
        self.drawn = tile
        self.after_kong = back and self.need_back_reason == "kong"
        self.need_back = False
        self.phase = _TURN

    need_back_reason = "kong"

    def _take_from_wall(self, actor: int, tile: Tile, back: bool) -> None:
        if self.tiles_left <= 0:
            raise RuleViolation(
                "C-5", Message("{player} can't draw: the wall is empty and the hand is exhausted",
                               player=self.name(actor))
            )
        wall = self.wall
        if wall is not None:
            expected = wall[self.back - 1] if back else wall[self.front]
            if expected is not tile and expected != tile:
                raise RuleViolation(
                    "C-5",
                    Message("{player} drew {tile}, but the back of the wall holds {expected}"
                            if back else
                            "{player} drew {tile}, but the front of the wall holds {expected}",
                            player=self.name(actor), tile=tile, expected=expected),
                )
            if back:
                self.back -= 1
            else:
                self.front += 1
        else:
            self._use(tile.kind, "C-1", Message("{player}'s draw", player=self.name(actor)))
        self.tiles_left -= 1

    def _pass_discard(self) -> None:
        """Nobody (more) claims the discard on the table: the next player draws."""
        assert self.last_discard is not None
        discarder = self.last_discard[0]
        after = self.discard_winners[-1] if self.discard_winners else discarder
        self.turn = self.next_seat(after)
        if self.discard_winners:
            self.discard_winners = []
        self.kong_discard = False
        self.phase = _DRAW
        self.need_back = False
        if self.CLEARS_ON_PASS:
            self.on_pass()

    def on_pass(self) -> None:
        """What a variant clears when a discard passes (with :attr:`CLEARS_ON_PASS`)."""

    # discard

    def _on_discard(self, event: Event) -> None:
        actor = event.actor
        tile = event.tile
        if actor is None or tile is None:
            raise RuleViolation("C-2", Message("a discard needs an actor and a tile"))
        if self.phase is not _TURN or actor != self.turn:
            raise self._wrong_time(event, Message("discard {tile}", tile=tile))
        state = self.seats[actor]
        if state.hand[tile.kind] <= 0:
            raise RuleViolation(
                "C-1", Message("{player} can't discard {tile}: it is not in their hand",
                               player=self.name(actor), tile=tile)
            )
        if self.LIMITS_DISCARDS:
            self.check_discard(actor, tile)
        self._record_discard(actor, tile)

    def _record_discard(self, actor: int, tile: Tile) -> None:
        """A checked discard: out of the hand, into the river, open to claims."""
        state = self.seats[actor]
        state.hand[tile.kind] -= 1
        state.river.append((tile, False))
        state.discarded = True
        self.last_discard = (actor, tile)
        self.kong_discard = self.after_kong
        self.after_kong = False
        self.drawn = None
        if self.discard_winners:
            self.discard_winners = []
        self.phase = _DISCARDED
        self.after_discard(actor)

    def after_discard(self, seat: int) -> None:
        """Variant bookkeeping after a discard (Putian: the gold can't be robbed any more,
        a pending ready declaration is checked)."""

    def check_discard(self, seat: int, tile: Tile) -> None:
        """Variant limits on discards (gold, void suit, the ready lock)."""

    # claims

    def _claimable(self, event: Event, what: str) -> tuple[int, Tile]:
        if self.phase is not Phase.DISCARDED or self.last_discard is None:
            raise self._wrong_time(event, what)
        discarder, tile = self.last_discard
        target = event.target
        if not (target == discarder):
            raise RuleViolation(
                "C-2",
                Message("{player} can't {what}: the last discard is {other}'s {tile}",
                        player=self.name(self._actor(event)), what=what,
                        other=self.name(discarder), tile=tile),
            )
        if not (event.tile == tile):
            raise RuleViolation(
                "C-2", Message("{player} can't {what}: the last discard is {tile}",
                               player=self.name(self._actor(event)), what=what, tile=tile)
            )
        actor = self._actor(event)
        if not (actor != discarder):
            raise RuleViolation("C-2", Message("{player} can't claim their own discard",
                                               player=self.name(actor)))
        if self.discard_winners:
            raise RuleViolation(
                "SC-3.1",
                Message("{player} can't {what}: the discard was won (a win beats a "
                        "pung or kong)", player=self.name(actor), what=what),
            )
        if self.tiles_left < self.CLAIMS_STOP_AT:
            raise RuleViolation(
                "JX-2.8",
                Message("{player} can't {what}: no claims once fewer than four tiles "
                        "remain in the wall", player=self.name(actor), what=what),
            )
        self.check_claimer(actor, what)
        return discarder, tile

    def check_claimer(self, seat: int, what: str) -> None:
        """Variant limits on who may claim (JX-9 gave up, a Sichuan winner)."""
        if self.seats[seat].won:
            raise RuleViolation("SC-3.2", Message("{player} has won and plays no more",
                                                  player=self.name(seat)))

    def _take_discard(self, discarder: int, claimer: int) -> None:
        river = self.seats[discarder].river
        tile, _ = river[-1]
        river[-1] = (tile, True)
        self.any_claim = True
        self.seats[claimer].claims_from[discarder] += 1
        self.last_discard = None
        self.kong_discard = False

    def _on_chi(self, event: Event) -> None:
        actor = self._actor(event)
        if not self.variant.HAS_CHOW:
            raise RuleViolation(self.NO_CLAIM_RULE, Message("{variant} has no chow",
                                                            variant=self.variant.name.capitalize()))
        tile = self._tile(event)
        discarder, _ = self._claimable(event, Message("chow {tile}", tile=tile))
        if not (actor == (discarder + 1) % 4):
            raise RuleViolation(
                "JX-2.1",
                Message("{player} can't chow {tile}: only the next seat after the "
                        "discarder may chow", player=self.name(actor), tile=tile),
            )
        shown = list(event.tiles)
        kinds = sorted([tile.kind, *(t.kind for t in shown)])
        if not (
            len(shown) == 2
            and kinds[0] < 27
            and kinds[0] % 9 <= 6
            and kinds[1] == kinds[0] + 1
            and kinds[2] == kinds[0] + 2
        ):
            raise RuleViolation(
                "C-3",
                Message("{player} can't chow {tile} with {tiles}: that is no run of three in "
                        "one suit", player=self.name(actor), tile=tile, tiles=tuple(shown)),
            )
        if any(self.is_wild(k) for k in kinds):
            raise RuleViolation(
                "JX-2.9",
                Message("{player} can't chow with a wildcard: wildcards never take "
                        "part in a chow, pung or kong", player=self.name(actor)),
            )
        hand = self.seats[actor].hand
        for shown_tile in shown:
            if not (hand[shown_tile.kind] > 0):
                raise RuleViolation(
                    "C-1", Message("{player} can't chow {tile}: they hold no {shown}",
                                   player=self.name(actor), tile=tile, shown=shown_tile)
                )
            hand[shown_tile.kind] -= 1
        self._take_discard(discarder, actor)
        self.seats[actor].melds.append(Meld.chi(TILES[kinds[0]]))
        self._after_claim(actor, discarder, Phase.TURN)

    def _on_peng(self, event: Event) -> None:
        actor = self._actor(event)
        tile = self._tile(event)
        if not self.variant.HAS_PUNG:
            raise RuleViolation(self.NO_CLAIM_RULE, Message("{variant} has no pung",
                                                            variant=self.variant.name.capitalize()))
        discarder, _ = self._claimable(event, Message("pung {tile}", tile=tile))
        self.check_meld_tile(actor, tile, Message("pung"))
        hand = self.seats[actor].hand
        if not (hand[tile.kind] >= 2):
            raise RuleViolation(
                "JX-2.2",
                Message("{player} can't pung {tile}: they hold {n} of it, a pung needs two",
                        player=self.name(actor), tile=tile, n=hand[tile.kind]),
            )
        hand[tile.kind] -= 2
        self._take_discard(discarder, actor)
        self.seats[actor].melds.append(Meld.peng(tile))
        self._after_claim(actor, discarder, Phase.TURN)

    def check_meld_tile(self, seat: int, tile: Tile, what: str) -> None:
        """Variant limits on the tile of a meld (wildcards, golds, the void suit)."""

    def _after_claim(self, actor: int, discarder: int, then: Phase) -> None:
        self.turn = actor
        self.drawn = None
        self.after_kong = False
        if then is Phase.DRAW:
            self.need_back = True
            self.need_back_reason = "kong"
        self.phase = then
        self.discard_winners = []

    def _on_gang(self, event: Event) -> None:
        actor = self._actor(event)
        tile = self._tile(event)
        kind = event.kind
        if kind == "exposed":
            self._exposed_kong(event, actor, tile)
        elif kind == "concealed":
            self._concealed_kong(event, actor, tile)
        elif kind == "added":
            self._added_kong(event, actor, tile)
        else:
            raise RuleViolation("C-3", Message("unknown kong kind {kind!r}", kind=kind))

    def _exposed_kong(self, event: Event, actor: int, tile: Tile) -> None:
        if "exposed" not in self.variant.KONG_KINDS:
            raise RuleViolation(
                self.variant.KONG_RULE,
                Message("{variant} has no exposed kong: only concealed kongs",
                        variant=self.variant.name.capitalize()),
            )
        discarder, _ = self._claimable(event, Message("kong {tile}", tile=tile))
        self.check_meld_tile(actor, tile, Message("kong"))
        self._kong_needs_a_replacement(actor)
        hand = self.seats[actor].hand
        if not (hand[tile.kind] >= 3):
            raise RuleViolation(
                "JX-2.3",
                Message("{player} can't kong {tile}: they hold {n} of it, an exposed kong "
                        "needs three", player=self.name(actor), tile=tile, n=hand[tile.kind]),
            )
        hand[tile.kind] -= 3
        self._take_discard(discarder, actor)
        self.seats[actor].melds.append(Meld.gang(tile, "exposed"))
        self.on_kong(actor, "exposed", discarder)
        self._after_claim(actor, discarder, Phase.DRAW)

    def _own_kong_allowed(self, event: Event, actor: int, tile: Tile, what: str) -> None:
        if self.phase is not Phase.TURN or actor != self.turn:
            raise self._wrong_time(event, what)
        if not (self.drawn is not None or self._dealer_opening(actor)):
            raise RuleViolation(
                "JX-2.7",
                Message("{player} can't {what} right after a chow or pung: discard first",
                        player=self.name(actor), what=what),
            )
        self.check_meld_tile(actor, tile, Message("kong"))
        self._kong_needs_a_replacement(actor)


    def _kong_needs_a_replacement(self, actor: int) -> None:
        if not (self.tiles_left > 0):
            raise RuleViolation(
                "C-5",
                Message("{player} can't declare a kong: the wall is empty, so no "
                        "replacement can be drawn", player=self.name(actor)),
            )

    def _dealer_opening(self, seat: int) -> bool:
        return seat == self.dealer and not self.seats[seat].discarded and not self.any_claim

    def _concealed_kong(self, event: Event, actor: int, tile: Tile) -> None:
        self._own_kong_allowed(event, actor, tile, Message("kong {tile}", tile=tile))
        hand = self.seats[actor].hand
        if not (hand[tile.kind] == 4):
            raise RuleViolation(
                "JX-2.4",
                Message("{player} can't declare a concealed kong of {tile}: they hold "
                        "{n} of it", player=self.name(actor), tile=tile, n=hand[tile.kind]),
            )
        hand[tile.kind] = 0
        self.seats[actor].melds.append(Meld.gang(tile, "concealed"))
        self.on_kong(actor, "concealed", None)
        self.phase = Phase.DRAW
        self.need_back = True
        self.need_back_reason = "kong"
        self.drawn = None

    def _added_kong(self, event: Event, actor: int, tile: Tile) -> None:
        if "added" not in self.variant.KONG_KINDS:
            raise RuleViolation(
                self.variant.KONG_RULE,
                Message("{variant} has no added kong: only concealed kongs",
                        variant=self.variant.name.capitalize()),
            )
        self._own_kong_allowed(event, actor, tile, Message("add {tile} to a kong", tile=tile))
        state = self.seats[actor]
        index = next(
            (i for i, m in enumerate(state.melds) if m.type == "peng" and m.first == tile), None
        )
        if not (index is not None):
            raise RuleViolation(
                "JX-2.4",
                Message("{player} can't add {tile} to a kong: they have no exposed "
                        "pung of {tile}", player=self.name(actor), tile=tile),
            )
        if not (state.hand[tile.kind] > 0):
            raise RuleViolation(
                "JX-2.4", Message("{player} can't add {tile} to a kong: it is not in their hand",
                                  player=self.name(actor), tile=tile)
            )
        assert index is not None
        state.hand[tile.kind] -= 1
        state.melds[index] = Meld.gang(tile, "added")
        self.pending_kong = (actor, tile)
        self.phase = Phase.ROBBABLE
        self.drawn = None

    def _complete_added_kong(self) -> None:
        assert self.pending_kong is not None
        actor, _ = self.pending_kong
        self.on_kong(actor, "added", None)
        self.pending_kong = None
        self.turn = actor
        self.phase = Phase.DRAW
        self.need_back = True
        self.need_back_reason = "kong"

    def on_kong(self, seat: int, kind: str, feeder: int | None) -> None:
        """Payments at once (SC-6.3) and contract counting; nothing by default."""

    # wins

    def _on_hu(self, event: Event) -> None:
        actor = self._actor(event)
        tile = self._tile(event)
        how = event.how
        if how == "robbing_kong":
            self._rob_kong(event, actor, tile)
        elif how == "rob_gold":
            self._rob_gold(event, actor, tile)
        elif event.target is not None:
            self._discard_win(event, actor, tile)
        else:
            self._self_draw_win(event, actor, tile, bomb=how == "bomb")

    def _self_draw_win(self, event: Event, actor: int, tile: Tile, bomb: bool) -> None:
        if self.phase is not Phase.TURN or actor != self.turn:
            raise self._wrong_time(event, Message("win on {tile}", tile=tile))
        opening = self._dealer_opening(actor)
        if not (self.drawn is not None or opening):
            raise RuleViolation(
                "C-2",
                Message("{player} can't win without drawing: a self-drawn win is on "
                        "the tile just drawn", player=self.name(actor)),
            )
        if self.drawn is not None:
            if not (self.drawn == tile):
                raise RuleViolation("C-2", Message("{player} drew {drawn}, not {tile}",
                                                   player=self.name(actor), drawn=self.drawn,
                                                   tile=tile))
        else:
            if not (self.seats[actor].hand[tile.kind] > 0):
                raise RuleViolation("C-1", Message("{player} holds no {tile}",
                                                   player=self.name(actor), tile=tile))
        self.check_winner(actor)
        position = self.seat_position(
            actor,
            win_tile=tile,
            self_draw=True,
            after_kong=self.after_kong,
            # JX-7.6: a kong replacement that is the last drawable tile counts too.
            last_tile=self.tiles_left == 0,
            first_turn=self.first_turn(actor),
            bomb=bomb,
        )
        score = self._winning_score(actor, position, tile)
        self._record_win(actor, tile, None, "bomb" if bomb else None, score)

    def first_turn(self, seat: int) -> bool:
        """天和/地和 conditions: before the seat's first discard, no claim made yet."""
        return not self.seats[seat].discarded and not self.any_claim

    def _discard_win(self, event: Event, actor: int, tile: Tile) -> None:
        if not self.variant.DISCARD_WINS:
            raise RuleViolation(
                self.variant.DISCARD_WIN_RULE,
                Message("{player} can't win on {tile}: in {variant} a win is by self-draw "
                        "only, never on a discard", player=self.name(actor), tile=tile,
                        variant=self.variant.name.capitalize()),
            )
        if self.phase is not Phase.DISCARDED or self.last_discard is None:
            raise self._wrong_time(event, Message("win on {tile}", tile=tile))
        discarder, discard = self.last_discard
        if not (event.target == discarder and tile == discard):
            raise RuleViolation(
                "C-2",
                Message("{player} can't win on {tile}: the last discard is {other}'s {discard}",
                        player=self.name(actor), tile=tile, other=self.name(discarder),
                        discard=discard),
            )
        if not (actor != discarder):
            raise RuleViolation("C-2", Message("{player} can't win on their own discard",
                                               player=self.name(actor)))
        self.check_winner(actor)
        self.check_discard_winner_order(actor, discarder)
        position = self.seat_position(
            actor,
            win_tile=tile,
            extra=tile,
            after_kong_discard=self.kong_discard,
            last_tile=self.tiles_left == 0,
        )
        score = self._winning_score(actor, position, tile)
        self.discard_winners.append(actor)
        self._record_win(actor, tile, discarder, None, score)

    def check_discard_winner_order(self, seat: int, discarder: int) -> None:
        """Several winners on one discard are recorded in playing order (SC-3.1)."""
        previous = self.discard_winners[-1] if self.discard_winners else discarder
        if not ((seat - discarder) % 4 > (previous - discarder) % 4):
            raise RuleViolation(
                "SC-3.1",
                Message("{player}'s win on the same discard must be recorded in "
                        "playing order after the discarder", player=self.name(seat)),
            )

    def _rob_kong(self, event: Event, actor: int, tile: Tile) -> None:
        if self.phase is not Phase.ROBBABLE or self.pending_kong is None:
            raise RuleViolation(
                self.ROB_KONG_RULE,
                Message("{player} can't rob a kong: no added kong was just declared",
                        player=self.name(actor)),
            )
        konger, kong_tile = self.pending_kong
        if not (event.target == konger and tile == kong_tile):
            raise RuleViolation(
                self.ROB_KONG_RULE,
                Message("{player} can rob only {other}'s added {tile}", player=self.name(actor),
                        other=self.name(konger), tile=kong_tile),
            )
        if not (actor != konger):
            raise RuleViolation(self.ROB_KONG_RULE, Message("a player can't rob their own kong"))
        self.check_winner(actor)
        position = self.seat_position(actor, win_tile=tile, extra=tile, robbing_kong=True)
        score = self._winning_score(actor, position, tile)
        # The kong does not happen (JX-8): the pung stays a pung.
        melds = self.seats[konger].melds
        for index, meld in enumerate(melds):
            if meld.type == "gang" and meld.gang_kind == "added" and meld.first == kong_tile:
                melds[index] = Meld.peng(kong_tile)
        self._record_win(actor, tile, konger, "robbing_kong", score)
        if not self.ended:
            self.discard_winners.append(actor)

    def _rob_gold(self, event: Event, actor: int, tile: Tile) -> None:
        raise RuleViolation("PT-5.5", Message("robbing the gold exists only in Putian"))

    def check_winner(self, seat: int) -> None:
        """Variant limits on who may win (JX-9 gave up, SC-3.2 already won)."""
        if self.seats[seat].won:
            raise RuleViolation("SC-3.2", Message("{player} has already won",
                                                  player=self.name(seat)))

    def _winning_score(self, seat: int, position: Position, tile: Tile) -> Score:
        score = self.variant.score(position)
        self.scored_position = position
        if not score.win:
            reason = score.reason or Message("not a winning hand")
            rule, _, sentence = reason.partition(": ")
            raise RuleViolation(
                rule if sentence else self.variant.SHAPE_RULE,
                Message("{player} can't win on {tile}: {reason}", player=self.name(seat),
                        tile=tile, reason=after_rule(reason) if sentence else reason),
            )
        return score

    def _record_win(
        self, seat: int, tile: Tile, target: int | None, how: str | None, score: Score
    ) -> None:
        if target is not None:  # a self-drawn tile is already in the hand
            self.seats[seat].hand[tile.kind] += 1
            if how != "robbing_kong":
                after_kong = self.kong_discard
                self._take_discard(target, seat)
                # Others may still win on the same discard, 杠上炮 included (SC-3.1, SC-5.17).
                self.last_discard = (target, tile)
                self.kong_discard = after_kong
        deltas = self.settle(self.win_payments(seat, target, how, score))
        self.wins.append(Win(seat, tile, target, how, score, deltas, self.scored_position))
        self.mark_winner(seat, tile)
        self.after_win(seat, target)

    def mark_winner(self, seat: int, tile: Tile) -> None:
        """The winner leaves the play (SC-3.2) or the hand ends; Sichuan's 血流成河 keeps
        the winner in with a locked hand (SC-H2)."""
        self.seats[seat].won = True

    def win_payments(
        self, seat: int, target: int | None, how: str | None, score: Score
    ) -> list[Payment]:
        """The lines a win pays (each variant's settlement)."""
        raise NotImplementedError

    def settle(self, lines: list[Payment]) -> list[int]:
        """Record payment lines now: their deltas and house charges are added to
        the hand's, so the hand's settlement is exactly the sum of its lines.
        Returns the lines' deltas."""
        deltas = deltas_of(lines)
        for seat, (delta, charge) in enumerate(zip(deltas, house_of(lines), strict=True)):
            self.deltas[seat] += delta
            self.fees[seat] += charge
        self.payments.extend(Settled(self.seen_events, line) for line in lines)
        return deltas

    def after_win(self, seat: int, target: int | None) -> None:
        """Jiaxing and Putian: the hand is over; Sichuan plays on."""
        self.phase = Phase.ENDED
        self.end_reason = "win"

    # the rest

    def _on_leave(self, event: Event) -> None:
        actor = self._actor(event)
        self.seats[actor].left = True
        self.on_leave(actor)

    def on_leave(self, seat: int) -> None:
        self.phase = Phase.ENDED
        self.end_reason = "abandoned"


    def finish(self, reason: str) -> list[int]:
        """Check the hand may end this way; return its deltas (C-6)."""
        if reason == "win":
            if not (bool(self.wins) and self.phase is Phase.ENDED or self._all_but_one_won()):
                if self.PLAY_ON and self.wins:
                    raise RuleViolation("SC-3.2", Message(
                        "the hand can't end as a win yet: the others "
                        "play on until three have won or the wall runs out"))
                raise RuleViolation(
                    "C-5",
                    Message("the hand can't end as a win: {why}",
                            why=self._waiting_for() if self.wins else Message("nobody has won")),
                )
        elif reason == "exhausted":
            if self.phase is Phase.DISCARDED:
                self._pass_discard()
            if self.phase is Phase.ROBBABLE:
                self._complete_added_kong()
            if not (self.phase is Phase.DRAW and self.tiles_left == 0):
                raise RuleViolation(
                    "C-5",
                    Message("the hand isn't exhausted: 1 tile is left")
                    if self.tiles_left == 1
                    else Message("the hand isn't exhausted: {n} tiles are left", n=self.tiles_left)
                    if self.tiles_left
                    else Message("the hand isn't exhausted: {why}", why=self._waiting_for()),
                )
            self.settle(self.exhaustion_payments())
        elif reason == "abandoned":
            pass
        else:
            raise RuleViolation("C-5", Message("unknown end reason {reason!r}", reason=reason))
        self.phase = Phase.ENDED
        self.end_reason = reason
        return list(self.deltas)

    def settlement_rule(self) -> str:
        """The rule that decides this hand's settlement, for messages about wrong deltas."""
        return "C-6"

    def _all_but_one_won(self) -> bool:
        return False

    def exhaustion_payments(self) -> list[Payment]:
        """What an exhausted hand pays (JX/PT: nothing; SC-6.4)."""
        return []

    # helpers

    def _actor(self, event: Event) -> int:
        if event.actor is None:
            raise RuleViolation("C-2", Message("{type} needs an actor", type=event.type))
        return event.actor

    def _tile(self, event: Event) -> Tile:
        if event.tile is None:
            raise RuleViolation("C-1", Message("{type} needs a tile", type=event.type))

        return event.tile

    # -- legal actions (bots, annotation) -------------------------------------

    def legal_actions(self, *, leaving: bool = False) -> list[Action]:
        """Everything any seat may do now, each as the event that would record it.

        Declining a claim or a win is not an action: the next event simply comes.
        With ``leaving``, every seat still at the table may also leave (JX-10.6, SC-6.6).
        """
        if self.phase is Phase.ENDED:
            return []
        method = getattr(self, f"_legal_{self.phase.value}")
        actions: list[Action] = method()
        if leaving:
            actions.extend(Action(s, Event("leave", s)) for s in range(4) if not self.seats[s].left)
        return actions

    def _legal_draw(self) -> list[Action]:
        if self.tiles_left == 0:
            return [Action(self.turn, Event("end", None, reason="exhausted"))]
        tile = self.peek_wall(self.need_back)
        source = "back" if self.need_back else "front"
        if tile is None:
            return [Action(self.turn, Event("draw", self.turn, tile=None, source=source))]
        return [Action(self.turn, Event("draw", self.turn, tile=tile, source=source))]

    def peek_wall(self, back: bool) -> Tile | None:
        if self.wall is None or self.tiles_left == 0:
            return None
        return self.wall[self.back - 1] if back else self.wall[self.front]

    def _legal_turn(self) -> list[Action]:
        seat = self.turn
        state = self.seats[seat]
        actions: list[Action] = []
        win_tile = self.drawn
        if win_tile is not None or self._dealer_opening(seat):
            for tile in [win_tile] if win_tile is not None else sorted({t for t in state.tiles()}):
                if self.can_self_draw(seat, tile):
                    actions.append(Action(seat, Event("hu", seat, tile=tile)))
            if (self.drawn is not None or self._dealer_opening(seat)) and self.tiles_left:
                for kind, n in enumerate(state.hand):
                    if n == 4 and self.meld_tile_ok(seat, kind):
                        actions.append(
                            Action(seat, Event("gang", seat, tile=TILES[kind], kind="concealed"))
                        )
                if "added" in self.variant.KONG_KINDS:
                    for meld in state.melds:
                        if meld.type == "peng" and state.hand[meld.first.kind]:
                            actions.append(
                                Action(seat, Event("gang", seat, tile=meld.first, kind="added"))
                            )
        actions.extend(self.extra_turn_actions(seat))
        discards = _DISCARDS[seat]
        for kind in self.discardable(seat):
            actions.append(discards[kind])
        return actions

    def discardable(self, seat: int) -> list[int]:
        """The kinds a seat may discard now (variants narrow it: golds, void, ready)."""
        hand = self.seats[seat].hand
        if not self.LIMITS_DISCARDS:
            return [kind for kind in range(34) if hand[kind]]
        return [kind for kind in range(34) if hand[kind] and self.discard_ok(seat, TILES[kind])]

    def kinds_ruled_out(self, seat: int) -> frozenset[int]:
        """Tile kinds everyone at the table can tell ``seat`` isn't holding now (a redeal
        of the tiles another seat can't see keeps to it; Sichuan's void, SC-2)."""
        return frozenset()

    def hand_rule(self, seat: int) -> Callable[[Sequence[int]], bool] | None:
        """A test every concealed hand ``seat`` could hold now passes, from what everyone
        at the table can see beyond :meth:`kinds_ruled_out` (None: no test; Putian: a
        seat that declared ready holds a ready hand, PT-5.3)."""
        return None

    def extra_turn_actions(self, seat: int) -> list[Action]:
        return []

    @classmethod
    def exchange_receiver(cls, dice: tuple[int, int], seat: int) -> int:
        """The seat that receives the tiles ``seat`` passes (SC-H1); only a variant with
        an exchange has one."""
        raise RuleViolation("C-2", Message("this game passes no tiles"))

    def exchange_received(self, seat: int) -> tuple[Tile, ...]:
        """The tiles the seat received in Sichuan's 换三张 (SC-H1); none elsewhere."""
        return ()

    def exchange_giver(self, seat: int) -> int | None:
        """The seat whose three tiles ``seat`` received (SC-H1); None before the exchange
        or without one."""
        return None

    def won_aside(self, seat: int) -> list[Tile]:
        """The winning tiles the seat has set aside, face up, and plays on without:
        Sichuan's 血流成河 (SC-H2); none elsewhere (a winner's hand simply ends)."""
        return []

    def set_aside(self) -> dict[int, tuple[Tile, ...]]:
        """Tiles seats have set aside face down and not yet passed on, by seat (Sichuan's
        换三张 before the fourth set, SC-H1); nobody else has seen them."""
        return {}

    def known_held(self, seat: int) -> dict[int, list[Tile]]:
        """Tiles ``seat`` knows another seat holds concealed, by seat (Sichuan: the three it
        passed on in 换三张 and hasn't seen leave the receiver's hand, SC-H1)."""
        return {}

    def set_aside_again(self, seat: int, choose: Callable[[Table, list[Action]], Action]) -> None:
        """The seat's set-aside tiles (back in its hand) chosen again by ``choose`` from
        its choices now (the value pass's redeal: what another seat set aside is unseen)."""
        raise RuleViolation("C-2", Message("{player} has set nothing aside",
                                           player=self.name(seat)))

    def hand_locked(self, seat: int) -> bool:
        """The seat's discards are decided for it: a Putian ready hand discards what it
        draws (PT-5.3), a Sichuan winner under 血流成河 too (SC-H2)."""
        return self.seats[seat].ready

    def discard_ok(self, seat: int, tile: Tile) -> bool:
        try:
            self.check_discard(seat, tile)
        except RuleViolation:
            return False
        return True

    def meld_tile_ok(self, seat: int, kind: int) -> bool:
        try:
            self.check_meld_tile(seat, TILES[kind], "kong")
        except RuleViolation:
            return False
        return True

    @property
    def robbed_kong_pending(self) -> bool:
        """Sichuan: a kong was just robbed and others may rob it too (SC-5.18)."""
        return False

    def shape_shanten(self, seat: int, counts: Sequence[int]) -> int:
        """Shape shanten of a seat's melds with these concealed counts (no Position built)."""
        state = self.seats[seat]
        stub = self._stubs.get(seat)
        if stub is None or stub[0] != (len(state.melds), state.void):
            position = Position(
                variant=self.variant,
                hand=(),
                melds=tuple(state.melds),
                wildcards=self.setup.wildcards,
                void=state.void,
            )
            stub = self._stubs[seat] = ((len(state.melds), state.void), position)
        wild = 0
        if self.setup.wildcards:
            real = list(counts)
            for kind in self.setup.wildcards:
                wild += real[kind]
                real[kind] = 0
            counts = real
        return self.variant.shanten_of(stub[1], counts, wild)

    @cached_property
    def _stubs(self) -> dict[int, tuple[tuple[int, int | None], Position]]:
        """Each seat's melds as an empty position, rebuilt when its melds or void change."""
        return {}

    def can_self_draw(self, seat: int, tile: Tile) -> bool:
        try:
            self.check_winner(seat)
        except RuleViolation:
            return False
        if (self.shape_shanten(seat, self.seats[seat].hand) > -1
                and not self.may_win_without_shape(seat)):
            return False
        position = self.seat_position(
            seat,
            win_tile=tile,
            self_draw=True,
            after_kong=self.after_kong,
            last_tile=self.tiles_left == 0,  # JX-7.6, a last replacement included
            first_turn=self.first_turn(seat),
        )
        if self.variant.shanten(position) > -1 and not self.variant.wins_without_shape(position):
            return False
        return self.variant.score(position).win

    def may_win_without_shape(self, seat: int) -> bool:
        """Whether the seat's tiles might win without a winning shape (Putian bombs, PT-5.6);
        a cheap test before the position is built."""
        return False

    def can_win_on(
        self,
        seat: int,
        tile: Tile,
        *,
        robbing_kong: bool = False,
        after_kong_discard: bool = False,
        last_tile: bool = False,
    ) -> bool:
        try:
            self.check_winner(seat)
        except RuleViolation:
            return False
        hand = self.seats[seat].hand
        hand[tile.kind] += 1
        shanten = self.shape_shanten(seat, hand)
        hand[tile.kind] -= 1
        if shanten > -1:
            return False
        position = self.seat_position(
            seat,
            win_tile=tile,
            extra=tile,
            robbing_kong=robbing_kong,
            after_kong_discard=after_kong_discard,
            last_tile=last_tile,
        )
        return self.variant.score(position).win

    def _legal_discarded(self) -> list[Action]:
        assert self.last_discard is not None
        discarder, tile = self.last_discard
        actions: list[Action] = []
        for step in range(1, 4):
            seat = (discarder + step) % 4
            state = self.seats[seat]
            if state.out:
                continue
            if self.variant.DISCARD_WINS and (
                not self.discard_winners
                or ((seat - discarder) % 4 > (self.discard_winners[-1] - discarder) % 4)
            ):
                robbing = self.robbed_kong_pending
                if self.can_win_on(
                    seat, tile, robbing_kong=robbing,
                    after_kong_discard=self.kong_discard and not robbing,
                    last_tile=self.tiles_left == 0 and not robbing,
                ):
                    actions.append(Action(seat, Event(
                        "hu", seat, tile=tile, target=discarder,
                        how="robbing_kong" if robbing else None)))
            if self.discard_winners or self.tiles_left < self.CLAIMS_STOP_AT:
                continue
            if not self.may_claim(seat):
                continue
            if not self.meld_tile_ok(seat, tile.kind):
                continue
            if self.variant.HAS_PUNG and state.hand[tile.kind] >= 2:
                actions.append(Action(seat, Event("peng", seat, tile=tile, target=discarder)))
            if ("exposed" in self.variant.KONG_KINDS and state.hand[tile.kind] >= 3
                    and self.tiles_left):
                actions.append(
                    Action(seat, Event("gang", seat, tile=tile, target=discarder, kind="exposed"))
                )
            if self.variant.HAS_CHOW and seat == (discarder + 1) % 4 and tile.kind < 27:
                actions.extend(self._chows(seat, discarder, tile))
        nxt = self.next_seat(self.discard_winners[-1] if self.discard_winners else discarder)
        if self.tiles_left == 0:
            actions.append(Action(nxt, Event("end", None, reason="exhausted")))
        else:
            tile_next = self.peek_wall(False)
            actions.append(
                Action(nxt, Event("draw", nxt, tile=tile_next, source="front"), note="pass")
            )
        return actions

    def may_claim(self, seat: int) -> bool:
        try:
            self.check_claimer(seat, "claim")
        except RuleViolation:
            return False
        return True

    def _chows(self, seat: int, discarder: int, tile: Tile) -> list[Action]:
        hand = self.seats[seat].hand
        out: list[Action] = []
        number = tile.kind % 9
        for start in range(max(0, number - 2), min(number, 6) + 1):
            kinds = [tile.kind - number + start + i for i in range(3)]
            others = [k for k in kinds if k != tile.kind]
            if all(hand[k] > 0 and not self.is_wild(k) for k in others):
                out.append(
                    Action(
                        seat,
                        Event(
                            "chi",
                            seat,
                            tile=tile,
                            target=discarder,
                            tiles=tuple(TILES[k] for k in others),
                        ),
                    )
                )
        return out

    def _legal_robbable(self) -> list[Action]:
        assert self.pending_kong is not None
        konger, tile = self.pending_kong
        actions: list[Action] = []
        for step in range(1, 4):
            seat = (konger + step) % 4
            if self.seats[seat].out:
                continue
            if self.can_win_on(seat, tile, robbing_kong=True):
                actions.append(
                    Action(seat, Event("hu", seat, tile=tile, target=konger, how="robbing_kong"))
                )
        tile_back = self.peek_wall(True)
        actions.append(
            Action(konger, Event("draw", konger, tile=tile_back, source="back"), note="pass")
        )
        return actions

    def _legal_contract(self) -> list[Action]:
        seat = self.contract_queue[0]
        return [Action(seat, Event("contract", seat, choice=c)) for c in ("persist", "give_up")]

    def _legal_dingque(self) -> list[Action]:
        return []

    def _legal_exchange(self) -> list[Action]:
        return []

    def _legal_flowers(self) -> list[Action]:
        return []

    # -- summaries ------------------------------------------------------------

    def flower_points(self, seat: int) -> int:
        return 0


Table._handler_map = Table._handlers()
