"""A hand recorded from one seat: the seat view of ``mahjong-log/1`` (docs/log-format.md).

A player at the table sees their own tiles, every discard, claim, kong and win, the
hands a winner lays down, and the hands shown at a drawn end — but not the others'
deals, the others' draws, nor the three tiles two other players pass each other
(换三张). A seat-view document says so with ``"view": {"seat": S}`` and writes each
tile it can't see as ``"?"``. Two fields exist only in a seat view: ``hu.hand``, the
concealed tiles a winner (other than the recorder) lays down besides the winning
tile, and ``end.hands``, the concealed tiles each seat shows at the end (``null``
where nothing was shown).

Validation fills in the unseen tiles (:class:`Filler`) and replays the result like
any other log, so every rule the table checks applies: tile counts, turn order,
claim rights and priority, the recorder's own tiles, each win against the hand its
winner laid down, and the settlement. The filling is honest about what one seat can
know: a tile a seat is seen to discard or meld is taken from what it holds, the
latest unseen tile it drew first (a discarded drawn tile keeps the void-suit and
locked-hand rules satisfiable); the tiles never seen are given from what no one has
seen, avoiding the seat's void suit and flowers. A filling that doesn't replay (a passed
set whose suit only shows later, SC-H1) is followed by others (:func:`choices`), within a
budget. A check that needs tiles nobody saw (a drawn end's ready hands, SC-6.4) needs the
hands shown in ``end.hands``.

:func:`project` is the other direction: a full log as one seat sees it.
"""

from __future__ import annotations

import copy
import dataclasses
import itertools
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import readers
from games.core.events import Event
from games.core.messages import Message
from games.core.position import Position
from games.core.table import Table
from games.core.tiles import TILES, Tile
from games.core.variant import Variant
from games.records import log
from games.records.log import HandLog, LogError, MatchLog
from games.records.match import Replayer
from games.variants.registry import VARIANTS, table_class

UNKNOWN = "?"
"""How a seat view writes a tile its recorder could not see."""

VIEW_FIELDS = ("seat",)

Path = tuple[Any, ...]
"""Where a tile sits in the completed document: keys and indices from the hand."""


@dataclass(frozen=True)
class SeatView:
    """The recorder's seat and where its document had tiles it could not see.

    ``hidden[h]`` lists the places (as paths inside hand ``h``) whose tiles were unseen;
    ``document`` is the seat-view document as written (what ``write_log`` gives back).
    """

    seat: int
    hidden: tuple[frozenset[Path], ...]
    document: dict[str, Any] = field(repr=False, compare=False)


# -- errors --------------------------------------------------------------------------


class SeatViewError(ValueError):
    """A seat-view problem found while filling in the unseen tiles (0-based event)."""

    def __init__(self, message: Message, event: int | None, rule: str = "C-1") -> None:
        super().__init__(message)
        self.message = message
        self.event = event
        self.rule = rule


# -- the slots of one seat's unseen tiles ---------------------------------------------


@dataclass
class Slot:
    """One tile a seat holds that the recorder hasn't seen; ``paths`` are where it is
    written (a deal entry, a draw; an exchange's tile too when the set was unseen)."""

    paths: list[Path]
    owner: int
    group: Group | None = None
    tile: Tile | None = None


@dataclass
class Group:
    """Three unseen tiles passed together (换三张): one suit, whatever they are."""

    suit: int | None = None
    receiver: int | None = None


@dataclass
class Holder:
    """What the filling knows of one seat's concealed tiles."""

    known: Counter[int] = field(default_factory=Counter)
    slots: list[Slot] = field(default_factory=list)
    void: int | None = None
    locked: bool = False  # won and playing on: discards what it draws (SC-H2)


@dataclass(frozen=True)
class Choice:
    """How one filling settles what the seat view leaves open: the suit of each unseen
    passed set in turn (None: the filling picks), whether a receiver lets go of a passed
    set's tiles first, and a seed varying which unseen slot a let-go tile came from (0:
    always the latest)."""

    suits: tuple[int | None, ...] = ()
    sets_first: bool = False
    shuffle: int = 0


FILLING_BUDGET = 48
"""At most this many fillings are replayed for one hand before it is refused."""


def choices(unseen_sets: int) -> list[Choice]:
    """The fillings to try for a hand with ``unseen_sets`` unseen passed sets, likeliest
    first, at most :data:`FILLING_BUDGET`: the plain one, each choice of the sets' suits
    (SC-H1), then varied slots."""
    suits: list[tuple[int | None, ...]] = [()]
    suits += list(itertools.product(range(3), repeat=unseen_sets)) if unseen_sets else []
    tried = [Choice(s, first) for first in (False, True) for s in suits]
    seed = 1
    while len(tried) < FILLING_BUDGET:
        tried.append(Choice(suits[seed % len(suits)], seed % 2 == 1, seed))
        seed += 1
    return tried[:FILLING_BUDGET]


class Filler:
    """Fills in one hand of a seat view (see the module's description)."""

    def __init__(self, variant: type[Variant], hand: dict[str, Any], seat: int,
                 players: Sequence[str], choice: Choice = Choice()) -> None:
        self.variant = variant
        self.choice = choice
        self.sets_first = choice.sets_first
        self.rng = random.Random(choice.shuffle) if choice.shuffle else None
        self.players = players
        self.slots: list[Slot] = []
        self.table = table_class(variant.name)
        self.hand = hand
        self.seat = seat
        self.holders = [Holder() for _ in range(4)]
        self.hidden: set[Path] = set()
        self.groups: list[Slot] = []
        stub = Position(variant=variant, hand=(),
                        wildcards=frozenset(Tile.parse(t).kind for t in hand.get("wildcards", [])))
        self.limits = [variant.copies(stub, kind) if kind in variant.tile_kinds() else 0
                       for kind in range(34)]
        self.used = Counter[int]()
        self.event = 0
        self.problem: SeatViewError | None = None
        self.exchanges: list[tuple[int, list[Slot] | list[Tile]]] = []
        self.unseen_sets = 0
        self.opening = True  # before the first discard: Putian's replacement passes (PT-3.1)
        self.run_start = 0  # where the acting seat's current run of events began
        self.last_actor: int | None = None

    # the filling ----------------------------------------------------------------

    def fill(self) -> Filler:
        self._count_seen()
        for seat, tiles in enumerate(self.hand["deal"]):
            for index, text in enumerate(tiles):
                self._enter(seat, ("deal", seat, index), text)
        for index, raw in enumerate(self.hand["events"]):
            self.event = index
            self._follow(raw)
            self._apply(raw)
        # A passed set's slots first: they must share a suit, the others only fit counts.
        for slot in self.slots:
            if slot.tile is None and slot.group is not None:
                self._give_group(slot)
        for slot in self.slots:
            if slot.tile is None and slot.group is None:
                self._give(slot, self.holders[slot.owner])
        return self

    def _follow(self, raw: dict[str, Any]) -> None:
        if raw.get("type") not in ("flower", "draw", "exchange", "dingque"):
            self.opening = False
        if raw.get("actor") != self.last_actor:
            self.run_start, self.last_actor = self.event, raw.get("actor")

    def _count_seen(self) -> None:
        """Tiles written in the deal and the draws: every copy in play enters by them (the
        turned-up indicator, JX-4, is out of play)."""
        if "indicator" in self.hand:
            self.used[Tile.parse(self.hand["indicator"]).kind] += 1
        for tiles in self.hand["deal"]:
            self.used.update(Tile.parse(t).kind for t in tiles if t != UNKNOWN)
        for raw in self.hand["events"]:
            if raw.get("type") == "draw" and raw.get("tile") != UNKNOWN:
                self.used.update([Tile.parse(raw["tile"]).kind])

    def _enter(self, seat: int, path: Path, text: str) -> None:
        if text == UNKNOWN:
            self.hidden.add(path)
            slot = Slot([path], seat)
            self.slots.append(slot)
            self.holders[seat].slots.append(slot)
        else:
            self.holders[seat].known[Tile.parse(text).kind] += 1

    def _apply(self, raw: dict[str, Any]) -> None:
        kind = raw["type"]
        actor: int = raw.get("actor", 0)  # the structure is checked: events but end have one
        if kind == "draw":
            self._enter(actor, ("events", self.event, "tile"), raw["tile"])
        elif kind == "discard":
            self._take(actor, raw["tile"])
        elif kind == "flower":
            self._take(actor, raw["tile"], flower=True)
        elif kind == "chi":
            for text in raw["tiles"]:
                self._take(actor, text)
        elif kind in ("peng", "gang"):
            self._take_meld(actor, raw)
        elif kind == "dingque":
            self.holders[actor].void = "mps".index(raw["suit"])
        elif kind == "exchange":
            self._exchange(actor, raw)
        elif kind == "hu":
            self._win(actor, raw)
        elif kind == "end":
            for seat, shown in enumerate(raw.get("hands") or [None] * 4):
                if shown is not None:
                    self._shown(seat, [Tile.parse(t) for t in shown])

    def _take_meld(self, actor: int, raw: dict[str, Any]) -> None:
        from_hand = {"peng": 2, "exposed": 3, "added": 1, "concealed": 4}
        for _ in range(from_hand[raw.get("kind") or raw["type"]]):
            self._take(actor, raw["tile"])

    def _take(self, seat: int, text: str, drawn: bool = False, flower: bool = False) -> None:
        """The seat lets go of a tile it was seen to hold (``drawn``: the one just drawn,
        if unseen; ``flower``: laid out as a flower)."""
        tile = Tile.parse(text)
        holder = self.holders[seat]
        # An opening pass lays out the whites held as the seat's turn in it began; those
        # drawn meanwhile wait for the next pass (PT-3.1).
        opening = flower and self.opening
        just_drawn = holder.slots[-1] if holder.slots and not opening else None
        if ((drawn or holder.locked or not holder.known[tile.kind])
                and just_drawn is not None
                and just_drawn.paths == [("events", self.event - 1, "tile")]
                and self._fits(just_drawn, tile)
                and self.used[tile.kind] < self.limits[tile.kind]):
            # The tile drawn just now: a locked hand discards it (SC-H2), a self-draw wins
            # on it, and a discarded drawn tile keeps the void suit's order (SC-2).
            self._assign(just_drawn, tile)
            holder.slots.pop()
            return
        if holder.known[tile.kind] > 0:
            holder.known[tile.kind] -= 1
            return
        for slot in self._candidates(holder, tile, opening):
            if slot.tile is None and self._fits(slot, tile):
                self._assign(slot, tile)
                holder.slots.remove(slot)
                return
        self._fail(Message("{player} can't have a {tile}: every tile they hold is accounted "
                           "for", player=self.hand_player(seat), tile=tile))

    def _candidates(self, holder: Holder, tile: Tile, opening: bool) -> list[Slot]:
        """The seat's unseen slots a tile it lets go of may come from, likeliest first."""
        slots = [s for s in reversed(holder.slots)
                 if not (opening and s.paths[0][0] == "events" and s.paths[0][1] >= self.run_start)]
        if self.rng is not None:
            # A retried filling: the latest still likeliest, but not always first.
            rank = {id(s): index + self.rng.random() * 6 for index, s in enumerate(slots)}
            slots.sort(key=lambda s: rank[id(s)])
        # Latest first; a passed set's slots last, so that its suit stays free to be one
        # the receiver isn't void in (SC-2) unless a tile must come from it.
        # A set whose suit is known already takes its own suit's tiles first.
        return sorted(slots, key=lambda s: (
            0 if s.group is not None and s.group.suit == tile.kind // 9 else
            (2 if self.sets_first else 1) if s.group is None else
            (1 if self.sets_first else 2)))

    def hand_player(self, seat: int) -> str:
        return self.players[seat]

    def _fits(self, slot: Slot, tile: Tile) -> bool:
        group = slot.group
        return group is None or group.suit is None or group.suit == tile.kind // 9

    def _assign(self, slot: Slot, tile: Tile) -> None:
        slot.tile = tile
        if slot.group is not None:
            slot.group.suit = tile.kind // 9
        self.used[tile.kind] += 1
        if self.used[tile.kind] > self.limits[tile.kind]:
            self._fail(Message("a {ordinal} copy of {tile} is seen: only {n} are in play",
                               ordinal=_ordinal(self.limits[tile.kind]), tile=tile,
                               n=self.limits[tile.kind]))

    def _fail(self, message: Message, rule: str = "C-1") -> None:
        if self.problem is None:
            self.problem = SeatViewError(message, self.event, rule)

    def _exchange(self, actor: int, raw: dict[str, Any]) -> None:
        holder = self.holders[actor]
        texts = raw["tiles"]
        if UNKNOWN in texts:
            # An unseen set: three of the giver's unseen tiles, filled in by the receiver's
            # side (or at the end) as one suit.
            suits = self.choice.suits
            group = Group(suits[self.unseen_sets] if self.unseen_sets < len(suits) else None)
            self.unseen_sets += 1
            moved: list[Slot] = []
            for index in range(3):
                free = [s for s in holder.slots if s.tile is None and s.group is None]
                if not free:
                    self._fail(Message("{player} can't pass three unseen tiles: every tile "
                                       "they hold is accounted for",
                                       player=self.hand_player(actor)), "SC-H1")
                    return
                slot = free[0]
                holder.slots.remove(slot)
                path = ("events", self.event, "tiles", index)
                self.hidden.add(path)
                slot.paths.append(path)
                slot.group = group
                moved.append(slot)
            self.exchanges.append((actor, moved))
        else:
            tiles = [Tile.parse(t) for t in texts]
            for tile in tiles:
                self._take(actor, str(tile))
            self.exchanges.append((actor, tiles))
        if len(self.exchanges) == 4:
            self._pass_sets()

    def _pass_sets(self) -> None:
        dice = tuple(self.hand["dice"])
        for giver, passed in self.exchanges:
            receiver = self.table.exchange_receiver(dice, giver)
            holder = self.holders[receiver]
            for item in passed:
                if isinstance(item, Slot):
                    assert item.group is not None
                    item.group.receiver = receiver
                    item.owner = receiver
                    holder.slots.append(item)
                else:
                    holder.known[item.kind] += 1

    def _win(self, actor: int, raw: dict[str, Any]) -> None:
        shown = raw.get("hand")
        if shown is None:
            return
        tiles = [Tile.parse(t) for t in shown]
        self_drawn = won_on_own_draw(raw.get("target"), raw.get("how"))
        if self_drawn:
            tiles.insert(0, Tile.parse(raw["tile"]))  # a self-drawn winning tile, drawn last
        self._shown(actor, tiles, self_drawn=self_drawn)
        self.holders[actor].locked = True
        # The winner's tiles are in sight from now on (血流成河 plays on with them).
        self.holders[actor].known.update(Tile.parse(t).kind for t in shown)

    def _shown(self, seat: int, tiles: list[Tile], *,
               self_drawn: bool = False) -> None:
        """The seat lays its concealed tiles down: exactly what it holds (a self-drawn
        winning tile, first, is the one just drawn)."""
        holder = self.holders[seat]
        for index, tile in enumerate(tiles):
            self._take(seat, str(tile), drawn=self_drawn and index == 0)
        left = sum(holder.known.values()) + sum(1 for s in holder.slots if s.tile is None)
        if left:
            self._fail(Message("{player} shows {n} tiles, {left} fewer than they hold",
                               player=self.hand_player(seat), n=len(tiles), left=left))
        holder.known.clear()

    # the tiles nobody saw ----------------------------------------------------------------

    def _avoided(self, holder: Holder) -> set[int]:
        avoid = set(self.variant.FLOWER_KINDS)
        if holder.void is not None:
            avoid.update(range(holder.void * 9, holder.void * 9 + 9))
        return avoid

    def _give(self, slot: Slot, holder: Holder) -> None:
        avoid = self._avoided(holder)
        choices = [k for k in self.variant.tile_kinds() if k not in avoid
                   and self.used[k] < self.limits[k]]
        if not choices:
            choices = [k for k in self.variant.tile_kinds() if self.used[k] < self.limits[k]]
        if not choices:
            self._fail(Message("the hand has more tiles than the game"))
            choices = list(self.variant.tile_kinds())
        kind = max(choices, key=lambda k: (self.limits[k] - self.used[k], -k))
        self._assign(slot, TILES[kind])

    def _give_group(self, slot: Slot) -> None:
        group = slot.group
        assert group is not None
        receiver = self.holders[group.receiver] if group.receiver is not None else Holder()
        avoid = self._avoided(receiver)
        if group.suit is None:
            room = {suit: sum(self.limits[k] - self.used[k] for k in range(suit * 9, suit * 9 + 9)
                              if k not in avoid) for suit in range(3)}
            group.suit = max(room, key=lambda s: (room[s], -s))
            slot.group = group
        kinds = [k for k in range(group.suit * 9, group.suit * 9 + 9)
                 if self.used[k] < self.limits[k]]
        if not kinds:
            self._fail(Message("three unseen tiles of one suit can't be found"), "SC-H1")
            self._give(slot, receiver)
            return
        kind = max(kinds, key=lambda k: (0 if k in avoid else 1, self.limits[k] - self.used[k], -k))
        self._assign(slot, TILES[kind])

    # the completed hand ---------------------------------------------------------------

    def filled(self) -> tuple[Tile | None, ...]:
        """The tile given to each unseen slot, in the order the slots were met."""
        return tuple(slot.tile for slot in self.slots)

    def completed(self) -> dict[str, Any]:
        """The hand with every unseen tile filled in and the seat view's own fields gone."""
        hand = copy.deepcopy(self.hand)
        for slot in self.slots:
            for path in slot.paths:
                if slot.tile is not None:
                    _put(hand, path, str(slot.tile))
        for raw in hand["events"]:
            raw.pop("hand", None)
            if raw.get("type") == "end":
                raw.pop("hands", None)
        return hand


def won_on_own_draw(target: int | None, how: str | None) -> bool:
    """Whether a win is on the winner's own tile (a self-draw, or a bomb, PT-5.6), which
    ``hu.hand`` leaves out like a discarded winning tile."""
    return target is None and how in (None, "bomb")


def _put(hand: dict[str, Any], path: Path, value: str) -> None:
    target: Any = hand
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _ordinal(n: int) -> Message:
    ordinals = (Message("first"), Message("second"), Message("third"), Message("fourth"),
                Message("fifth"))
    return ordinals[min(n, 4)]


# -- reading a seat view ----------------------------------------------------------------


def read_seat_view(data: dict[str, Any]) -> MatchLog:
    """Read a seat-view document: its structure checked, its unseen tiles filled in.

    The result replays like any log (:func:`games.records.match.replay`); its ``view``
    keeps the recorder's seat and which tiles were unseen, and writing it gives the
    seat-view document back. A tile the filling can't account for (a fifth copy, a
    tile a seat can't hold) is a :class:`LogError` at its event, unless the replay
    finds an earlier problem, which is reported instead.
    """
    seat = _view_seat(data.get("view"))
    probe = {key: value for key, value in data.items() if key != "view"}
    variant = _variant_of(data)
    players = data.get("players")
    raw_hands = data.get("hands")
    if variant is None or not isinstance(raw_hands, list) or not _names(players):
        return log._read_log(probe)  # the plain reader names the problem
    placeholder = str(TILES[variant.tile_kinds()[0]])
    probe["hands"] = [_probe_hand(raw, number, seat, variant, placeholder)
                      for number, raw in enumerate(raw_hands, 1)]
    log._read_log(probe)  # the structure, with every unseen tile standing in for one
    fillers = [Filler(variant, raw, seat, list(players or [])).fill() for raw in raw_hands]
    match = log._read_log({**probe, "hands": [f.completed() for f in fillers]})
    hands = list(match.hands)
    replayer = Replayer(match)
    for number, filler in enumerate(fillers, 1):
        hands[number - 1], fillers[number - 1] = _replayed_hand(
            replayer, number, hands[number - 1], filler)
    hidden = tuple(frozenset(f.hidden) for f in fillers)
    view = SeatView(seat, hidden, copy.deepcopy(data))
    return dataclasses.replace(match, hands=tuple(hands), view=view)


def _replayed_hand(replayer: Replayer, number: int, hand: HandLog,
                   filler: Filler) -> tuple[HandLog, Filler]:
    """The hand filled in so that it replays: the filling as described, else the other
    :func:`choices` in turn; the first filling's problem (or the replay's, when it comes
    first) when none replays within the budget."""
    first = _attempt(replayer, number, hand, filler)
    if first is None:
        return hand, filler
    tried = {filler.filled()}
    for choice in choices(filler.unseen_sets)[1:]:
        again = Filler(filler.variant, filler.hand, filler.seat, filler.players, choice).fill()
        if again.problem is not None or again.filled() in tried:
            continue  # refused already, or a filling replayed already
        tried.add(again.filled())
        other = log._read_hand(again.completed(), filler.variant, filler.players, number)
        try:
            replayer.play(number, other)
        except LogError:
            continue
        return other, again
    raise first


def _attempt(replayer: Replayer, number: int, hand: HandLog, filler: Filler) -> LogError | None:
    """Replay the hand (concluding it when it replays); its first problem, else None."""
    problem = filler.problem
    if problem is None:
        try:
            replayer.play(number, hand)
        except LogError as error:
            return error
        return None
    event = (problem.event or 0) + 1
    trial = copy.deepcopy(replayer)  # only to find an earlier problem of the replay's
    try:
        trial.play(number, hand)
    except LogError as error:
        if error.event is not None and error.event <= event:
            return error
    return LogError(problem.message, hand=number, event=event, rule=problem.rule)


def _view_seat(value: Any) -> int:
    view = _located(readers.read_object, value, Message("view"))
    _located(readers.no_unknown_fields, view, VIEW_FIELDS, Message("view"))
    return int(_located(readers.read_seat, readers.required(view, "seat", Message("view")),
                        "view.seat"))


def _located(read: Any, *args: Any) -> Any:
    try:
        return read(*args)
    except readers.ReadError as error:
        raise LogError(error.message, rule=error.rule) from None


def _variant_of(data: dict[str, Any]) -> type[Variant] | None:
    name = data.get("variant")
    return VARIANTS.get(name) if isinstance(name, str) else None


def _names(players: Any) -> bool:
    return isinstance(players, list) and len(players) == 4


def _probe_hand(raw: Any, number: int, seat: int, variant: type[Variant],
                placeholder: str) -> Any:
    """The hand with each unseen tile standing in for a tile, once it is checked to be
    somewhere a seat can't see, and the seat view's own fields checked and left out."""
    if not isinstance(raw, dict):
        return raw
    hand = copy.deepcopy(raw)
    deal = hand.get("deal")
    if isinstance(deal, list):
        for owner, tiles in enumerate(deal):
            if isinstance(tiles, list):
                deal[owner] = [_unseen(t, placeholder, owner != seat, number, None,
                                       Message("the recorder's own deal"))
                               for t in tiles]
    events = hand.get("events")
    if isinstance(events, list):
        for index, event in enumerate(events, 1):
            if isinstance(event, dict):
                _probe_event(event, number, index, seat, variant, hand.get("dice"), placeholder)
    return hand


def _probe_event(event: dict[str, Any], number: int, index: int, seat: int,
                 variant: type[Variant], dice: Any, placeholder: str) -> None:
    kind, actor = event.get("type"), event.get("actor")
    others = isinstance(actor, int) and actor != seat
    if "tile" in event:
        may = kind == "draw" and others
        event["tile"] = _unseen(event["tile"], placeholder, may, number, index,
                                Message("a {type}'s tile", type=str(kind)))
    if kind == "exchange" and isinstance(event.get("tiles"), list):
        tiles = event["tiles"]
        unseen = [t == UNKNOWN for t in tiles]
        may = others and _exchange_unseen_allowed(variant, dice, int(actor or 0), seat)
        if any(unseen) and not all(unseen):
            raise LogError(Message("the three passed tiles are all seen or all unseen (?)"),
                           hand=number, event=index, rule="SC-H1")
        event["tiles"] = [_unseen(t, placeholder, may, number, index,
                                  Message("tiles passed by or to the recorder")) for t in tiles]
    elif "tiles" in event:
        event["tiles"] = [_unseen(t, placeholder, False, number, index,
                                  Message("a {type}'s tiles", type=str(kind)))
                          for t in event["tiles"]] if isinstance(event["tiles"], list) \
            else event["tiles"]
    if "hand" in event:
        if kind != "hu" or not others:
            raise LogError(Message("only another player's hu has the field hand (the tiles "
                                   "the winner lays down)"), hand=number, event=index)
        _shown_tiles(event.pop("hand"), variant, number, index, "hand")
    elif kind == "hu" and others:
        raise LogError(Message("hu by another player needs the field hand: the tiles the "
                               "winner lays down besides the winning tile"),
                       hand=number, event=index)
    if "hands" in event:
        if kind != "end":
            raise LogError(Message("only end has the field hands"), hand=number, event=index)
        _end_hands(event.pop("hands"), seat, variant, number, index)


def _exchange_unseen_allowed(variant: type[Variant], dice: Any, actor: int, seat: int) -> bool:
    if not (isinstance(dice, list) and len(dice) == 2
            and all(type(d) is int and 1 <= d <= 6 for d in dice)):
        return True  # the plain reader names the dice's problem
    return table_class(variant.name).exchange_receiver((dice[0], dice[1]), actor) != seat


def _unseen(value: Any, placeholder: str, may: bool, number: int, index: int | None,
            where: Message) -> Any:
    if value != UNKNOWN:
        return value
    if not may:
        raise LogError(Message("{where} is in sight of the recorder: an unseen tile (?) "
                               "stands only for another player's deal, draw or passed tiles",
                               where=where), hand=number, event=index, rule="C-1")
    return placeholder


def _shown_tiles(value: Any, variant: type[Variant], number: int, index: int,
                 name: str) -> list[Tile]:
    if not isinstance(value, list) or len(value) > variant.HAND_SIZE + 1:
        raise LogError(Message("{name} must be an array of at most {n} tiles", name=name,
                               n=variant.HAND_SIZE + 1), hand=number, event=index)
    tiles = []
    for text in value:
        try:
            tile = readers.read_tile(text, name)
        except readers.ReadError as error:
            raise LogError(error.message, hand=number, event=index, rule=error.rule) from None
        if tile.kind not in variant.tile_kinds():
            raise LogError(Message("{name}: {tile} is not a {variant} tile", name=name,
                                   tile=tile, variant=variant.name),
                           hand=number, event=index, rule="C-1")
        tiles.append(tile)
    return tiles


def _end_hands(value: Any, seat: int, variant: type[Variant], number: int, index: int) -> None:
    if not isinstance(value, list) or len(value) != 4:
        raise LogError(Message("hands must be four entries, seat 0 first: the tiles a seat "
                               "shows, or null"), hand=number, event=index)
    for owner, shown in enumerate(value):
        if shown is None:
            continue
        if owner == seat:
            raise LogError(Message("hands: the recorder's own tiles are known; write null for "
                                   "them"), hand=number, event=index)
        _shown_tiles(shown, variant, number, index, f"hands[{owner}]")


# -- projecting a full log onto one seat --------------------------------------------------


def project(match: MatchLog, seat: int) -> dict[str, Any]:
    """The seat-view document of a full log: what a player at ``seat`` would record.

    Hidden: the others' deals and draws, and the three tiles two others pass each other;
    the wall is left out. Shown besides: each other winner's concealed tiles (``hu.hand``)
    and, at a drawn end, the concealed tiles of every other player still in the hand
    (``end.hands``). The match must replay (it is read back through the table).
    """
    document = match.to_json()
    document["view"] = {"seat": seat}
    replayer = Replayer(match)
    for number, (hand, raw) in enumerate(zip(match.hands, document["hands"], strict=True), 1):
        table = replayer.begin(number, hand)
        _project_hand(table, hand, raw, seat)
        replayer.conclude(number, hand, table, table.end_reason or "abandoned")
    return document


def _project_hand(table: Table, hand: HandLog, raw: dict[str, Any], seat: int) -> None:
    raw.pop("wall", None)
    raw["deal"] = [tiles if owner == seat else [UNKNOWN] * len(tiles)
                   for owner, tiles in enumerate(raw["deal"])]
    for event, out in zip(hand.events, raw["events"], strict=True):
        _project_event(table, event, out, seat)
        if event.type == "end":
            table.finish(event.reason or "win")
        else:
            table.apply(event)


def _project_event(table: Table, event: Event, out: dict[str, Any], seat: int) -> None:
    actor = event.actor
    if actor == seat or actor is None and event.type != "end":
        return
    if event.type == "draw":
        out["tile"] = UNKNOWN
    elif event.type == "exchange" and actor is not None:
        receiver = type(table).exchange_receiver(table.setup.dice or (1, 1), actor)
        if receiver != seat:
            out["tiles"] = [UNKNOWN] * 3
    elif event.type == "hu" and actor is not None:
        held = sorted(table.seats[actor].tiles())
        if won_on_own_draw(event.target, event.how) and event.tile is not None:
            held.remove(event.tile)
        out["hand"] = [str(t) for t in held]
    elif event.type == "end":
        shown = [None if owner == seat or table.seats[owner].out
                 else [str(t) for t in sorted(table.seats[owner].tiles())]
                 for owner in range(4)]
        if any(s is not None for s in shown):
            out["hands"] = shown


log.SEAT_VIEW_READERS[:] = [read_seat_view]
