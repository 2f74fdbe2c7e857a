"""What the viewer shows at one step of one hand, computed by the engine.

A stored match is read once per process (cached) into the engine's records;
the board at step N replays that hand's first N events through the variant's
table — a millisecond — and describes every seat as a player sees it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from games.core.table import HandSetup, Phase, Table, Win
from games.core.tiles import TILES, WINDS, Tile
from games.core.variant import Hit, PatternDef
from games.records.log import Event, Match, loads
from games.records.match import Replayer
from games.variants.jiaxing import JX_BANK
from games.variants.registry import TABLE_CLASSES
from replays.matches.settlement_lines import LineView, line_views
from replays.tile_names import suit_name, tile_name, wildcard_name

if TYPE_CHECKING:
    from replays.models import Match as StoredMatch

@dataclass
class TileView:
    tile: Tile
    wild: bool = False
    hidden: bool = False
    drawn: bool = False
    claimed: bool = False
    last: bool = False
    claimed_by: str = ""  # who claimed this discard, where the board knows (issue 32)
    winning: bool = False

    @property
    def code(self) -> str:
        return str(self.tile)

    @property
    def title(self) -> str:
        return f"{self.tile} – {self.tile.chinese} – {self.tile.english}"


@dataclass
class SeatView:
    seat: int
    name: str
    wind: str
    score: int
    hand: list[TileView]
    melds: list[list[TileView]]
    river: list[TileView]
    flowers: list[TileView]
    is_dealer: bool = False
    is_turn: bool = False
    won: bool = False
    left: bool = False
    gave_up: bool = False
    ready: bool = False
    void: str | None = None
    place: str = "bottom"
    won_tiles: list[TileView] = field(default_factory=list)  # SC-H2: set aside, face up
    locked: bool = False  # SC-H2: a winner playing on with a locked hand
    note: str = ""  # who plays the seat, at a table with friends: "bot", "offline"…


@dataclass
class WinView:
    name: str
    tile: str
    how: str
    patterns: list[Hit]
    points: int
    tai: int | None
    fan: int | None
    reading: str | None


@dataclass
class Board:
    variant: str
    hand_number: int
    hand_count: int
    step: int
    steps: int
    seats: list[SeatView]
    wall_left: int
    dealer: int
    round_wind: str | None
    wildcards: list[TileView]
    indicator: TileView | None
    event_text: str
    ended: bool
    wins: list[WinView] = field(default_factory=list)
    deltas: list[int] | None = None
    lines: list[LineView] = field(default_factory=list)  # the engine's payment lines so far
    bank: list[BankedFan] = field(default_factory=list)
    bottom: int = 0
    wildcard_name: str = ""

    @property
    def seats_in_place(self) -> list[SeatView]:
        """The seats from the top of the table round to the bottom (top, left, right,
        bottom): the order a narrow screen stacks them in, the viewed seat last."""
        order = {"top": 0, "left": 1, "right": 2, "bottom": 3}
        return sorted(self.seats, key=lambda seat: order[seat.place])


@dataclass(frozen=True)
class BankedFan:
    """A carried fan waiting in the bank (JX-7.11) with how many copies wait; the oldest is
    the one the next win counts."""

    pattern: PatternDef
    count: int
    next_win: bool


# Turn order runs counter-clockwise: the next seat sits to the right of the one before it.
PLACES = ("bottom", "right", "top", "left")


def place_of(seat: int, bottom: int) -> str:
    """Where ``seat`` sits on a table drawn with ``bottom`` at the bottom.

    >>> place_of(1, 0), place_of(0, 1), place_of(3, 3)
    ('right', 'left', 'bottom')
    """
    return PLACES[(seat - bottom) % 4]


def banked_fans(bank: tuple[str, ...]) -> list[BankedFan]:
    """The bank as one entry per kind of carried fan with its count, oldest first; the
    first is the one the next win counts (JX-7.11).

    >>> [(f.pattern.id, f.count, f.next_win) for f in banked_fans(("baozi", "huangfan", "baozi"))]
    [('JX-7.9', 2, True), ('JX-7.4', 1, False)]
    """
    counts: dict[str, int] = {}
    for item in bank:
        counts[item] = counts.get(item, 0) + 1
    return [BankedFan(JX_BANK[item], n, i == 0) for i, (item, n) in enumerate(counts.items())]


@dataclass(frozen=True)
class Replayed:
    """A stored match read by the engine: its records, each hand's setup and prior totals."""

    match: Match
    setups: tuple[HandSetup, ...]
    totals_before: tuple[tuple[int, ...], ...]
    outcomes: tuple[Outcome, ...] = ()


@dataclass(frozen=True)
class Outcome:
    """How a hand ended: the reason, its wins as the table settled them, and each seat's
    delta."""

    end_reason: str
    wins: tuple[Win, ...]
    deltas: tuple[int, ...]


def replayed_match(stored: StoredMatch) -> Replayed:
    """A stored match read by the engine, cached per process by its id and hash."""
    return _replayed(stored.pk, stored.sha256)


@lru_cache(maxsize=128)
def _replayed(pk: int, sha256: str) -> Replayed:
    from replays.models import Match

    document = bytes(Match.objects.values_list("document", flat=True).get(pk=pk))
    return replayed(document)


def replayed(document: bytes) -> Replayed:
    """Read and replay a document."""
    match = loads(document.decode("utf-8-sig"))
    replayer = Replayer(match)
    setups: list[HandSetup] = []
    totals: list[tuple[int, ...]] = []
    outcomes: list[Outcome] = []
    running = [0, 0, 0, 0]
    for result in replayer.hands():
        setups.append(result.table.setup)
        totals.append(tuple(running))
        outcomes.append(Outcome(result.end_reason, tuple(result.wins), tuple(result.deltas)))
        running = [a + b for a, b in zip(running, result.deltas, strict=True)]
    return Replayed(match, tuple(setups), tuple(totals), tuple(outcomes))


def board_at(data: Replayed, hand_number: int, step: int, viewer: int | None = None,
             bottom: int | None = None) -> Board:
    """The table after ``step`` events of hand ``hand_number`` (1-based; step 0 = the deal),
    drawn with the viewed seat at the bottom (else ``bottom``, else the first seat)."""
    hand = data.match.hands[hand_number - 1]
    setup = data.setups[hand_number - 1]
    if data.match.view is not None:
        viewer = data.match.view.seat  # recorded from one seat: only its view is known
    steps = len(hand.events)
    step = max(0, min(step, steps))
    table = TABLE_CLASSES[data.match.variant](setup)
    ended_deltas: list[int] | None = None
    applied = table.apply_run(hand.events[:step])  # stops at the hand's end, its last event
    if applied < step:
        ended_deltas = table.finish(hand.events[applied].reason or "win")
    last_event = hand.events[step - 1] if step else None
    claimers = claimed_by(hand.events[:step], data.match.players)
    seats = [_seat_view(table, data, hand_number, s, viewer, last_event, claimers.get(s, {}))
             for s in range(4)]
    at_bottom = viewer if viewer is not None else (bottom if bottom is not None else 0)
    for view in seats:
        view.place = place_of(view.seat, at_bottom)
    for s, view in enumerate(seats):
        view.score = data.totals_before[hand_number - 1][s] + (
            ended_deltas[s] if ended_deltas is not None else table.deltas[s])
    board = Board(
        variant=data.match.variant,
        hand_number=hand_number,
        hand_count=len(data.match.hands),
        step=step,
        steps=steps,
        seats=seats,
        wall_left=table.tiles_left,
        dealer=setup.dealer,
        round_wind=WINDS[setup.round_wind] if "round_wind" in table.variant.HAND_FIELDS else None,
        wildcard_name=wildcard_name(table.variant),
        wildcards=[TileView(TILES[k], wild=True) for k in sorted(setup.wildcards)],
        indicator=TileView(setup.indicator) if setup.indicator else None,
        event_text=describe(last_event, data.match.players, viewer) if last_event
        else _("The deal"),
        ended=ended_deltas is not None,
        bank=banked_fans(setup.bank),
        bottom=at_bottom,
    )
    board.lines = line_views(table.payments, data.match.players,
                             data.totals_before[hand_number - 1])
    _mark_winning_tiles(seats, table)
    if ended_deltas is not None:
        board.deltas = ended_deltas
        board.wins = [win_view(w, data.match.players) for w in table.wins]
    return board


ClaimMove = tuple[str, int | None, int | None, str | None]
"""An event as :func:`claimers_of` reads it: its type, actor, target and how."""


def claimed_by(events: Sequence[Event], players: Sequence[str]) -> dict[int, dict[int, str]]:
    """Who took each claimed discard: seat → place in its river → the claimer's name."""
    return claimers_of([(e.type, e.actor, e.target, e.how) for e in events], players)


def claimers_of(moves: Sequence[ClaimMove], players: Sequence[str]) -> dict[int, dict[int, str]]:
    """Who took each claimed discard of a hand's ``moves``: seat → place in its river → the
    claimer's name. A pung, chow or kong of a discard, or a win on one (not a robbed kong),
    takes the river's last tile, as the table does (``Table._take_discard``)."""
    rivers = [0, 0, 0, 0]
    out: dict[int, dict[int, str]] = {}
    for kind, actor, target, how in moves:
        if kind == "discard" and actor is not None:
            rivers[actor] += 1
        elif target is not None and actor is not None and rivers[target] and (
                kind in ("peng", "chi", "gang") or (kind == "hu" and how != "robbing_kong")):
            out.setdefault(target, {})[rivers[target] - 1] = players[actor]
    return out


def _seat_view(table: Table, data: Replayed, hand_number: int, seat: int, viewer: int | None,
               last: Event | None, claimers: dict[int, str] | None = None) -> SeatView:
    state = table.seats[seat]
    setup = table.setup
    laid_down = data.match.view is not None and state.won  # a winner's hand is in sight
    hidden = viewer is not None and viewer != seat and not laid_down and (
        table.phase is not Phase.ENDED or not _laid_down(data, hand_number, seat, state.won))
    tiles = state.tiles()
    drawn = table.drawn if table.turn == seat and table.phase is Phase.TURN else None
    if drawn is not None and drawn in tiles:
        tiles.remove(drawn)
    # golds and wildcards first (PT-2 keeps them at the left), then by kind; a face-down
    # tile is marked as nothing, so the backs don't tell how many golds a hand holds
    tiles.sort(key=lambda t: (t.kind not in setup.wildcards, t.kind))
    wild: frozenset[int] = frozenset() if hidden else setup.wildcards
    hand = [TileView(t, wild=t.kind in wild, hidden=hidden) for t in tiles]
    if drawn is not None:
        hand.append(TileView(drawn, wild=drawn.kind in wild, hidden=hidden, drawn=True))
    melds = []
    for meld in state.melds:
        concealed = meld.is_concealed and hidden
        melds.append([TileView(t, hidden=concealed) for t in meld.tiles])
    claimers = claimers or {}
    river = [TileView(t, wild=t.kind in setup.wildcards, claimed=claimed,
                      claimed_by=claimers.get(i, "") if claimed else "")
             for i, (t, claimed) in enumerate(state.river)]
    if last is not None and last.type == "discard" and last.actor == seat and river:
        river[-1].last = True
    return SeatView(
        seat=seat,
        name=data.match.players[seat],
        wind=WINDS[(seat - setup.dealer) % 4],
        score=0,
        hand=hand,
        melds=melds,
        river=river,
        flowers=[TileView(TILES[31]) for _ in range(state.flowers)],
        is_dealer=seat == setup.dealer,
        is_turn=table.turn == seat and table.phase in (Phase.TURN, Phase.DRAW),
        won=state.won,
        left=state.left,
        gave_up=state.gave_up,
        ready=state.ready,
        void="mps"[state.void] if state.void is not None else None,
        won_tiles=[TileView(t, winning=True) for t in table.won_aside(seat)],
        locked=table.hand_locked(seat) and not state.ready and bool(table.won_aside(seat)),
    )


def _laid_down(data: Replayed, hand_number: int, seat: int, won: bool) -> bool:
    """Whether a seat's concealed tiles are shown at the end: always in a full log; in a
    hand recorded from one seat, when the seat won or showed them (``end.hands``), since
    the others' tiles were filled in, not seen (docs/recorder.md)."""
    view = data.match.view
    if view is None or won:
        return True
    raw = view.document["hands"][hand_number - 1]["events"][-1]
    shown = raw.get("hands") or [None] * 4
    return shown[seat] is not None


def _mark_winning_tiles(seats: list[SeatView], table: Table) -> None:
    """Once a seat has won, its winning tile is set apart at the end of its hand and marked
    (the hand is sorted, so one copy of that kind stands for the tile drawn or claimed)."""
    for win in table.wins:
        if seats[win.seat].won_tiles:  # SC-H2: the winning tiles are set aside already
            continue
        hand = seats[win.seat].hand
        for index in range(len(hand) - 1, -1, -1):
            if hand[index].tile.kind == win.tile.kind:
                view = hand.pop(index)
                view.winning = view.drawn = True
                hand.append(view)
                break


def win_view(win: Win, players: tuple[str, ...]) -> WinView:
    """A win in words: who, on which tile, how, and its patterns and value."""
    how = {None: _("self-draw") if win.target is None else _("on {name}'s discard").format(
        name=players[win.target]),
           "robbing_kong": _("robbing {name}'s kong").format(
               name=players[win.target or 0]),
           "rob_gold": _("robbing the gold"), "bomb": _("a bomb")}[win.how]
    score = win.score
    tile = tile_name(str(win.tile))
    return WinView(players[win.seat], tile, how, list(score.patterns), score.points,
                   score.tai, score.fan, score.reading)


def describe(event: Event, players: tuple[str, ...], viewer: int | None = None) -> str:
    """One sentence for an event, in the viewer's language; a seat's view hides others' draws."""
    name = players[event.actor] if event.actor is not None else ""
    if event.type == "draw" and viewer is not None and event.actor != viewer:
        return _("{name} draws a tile").format(name=name)
    target = players[event.target] if event.target is not None else ""
    tile = tile_name(str(event.tile)) if event.tile is not None else ""
    kind = event.type
    if kind == "draw":
        if event.source == "back":
            return _("{name} draws a replacement {tile}").format(name=name, tile=tile)
        return _("{name} draws {tile}").format(name=name, tile=tile)
    if kind == "discard":
        return _("{name} discards {tile}").format(name=name, tile=tile)
    if kind == "chi":
        return _("{name} chows {tile} from {target}").format(name=name, tile=tile, target=target)
    if kind == "peng":
        return _("{name} pungs {tile} from {target}").format(name=name, tile=tile, target=target)
    if kind == "gang":
        labels = {"exposed": _("an exposed kong"), "added": _("an added kong"),
                  "concealed": _("a concealed kong")}
        return _("{name} declares {what} of {tile}").format(
            name=name, what=labels.get(event.kind or "", ""), tile=tile)
    if kind == "hu":
        if event.how == "robbing_kong":
            return _("{name} wins by robbing {target}'s kong of {tile}").format(
                name=name, target=target, tile=tile)
        if event.how == "rob_gold":
            return _("{name} robs the gold {tile} and wins").format(name=name, tile=tile)
        if event.how == "bomb":
            return _("{name} wins with a bomb").format(name=name)
        if event.target is not None:
            return _("{name} wins on {target}'s {tile}").format(
                name=name, target=target, tile=tile)
        return _("{name} wins by self-draw on {tile}").format(name=name, tile=tile)
    if kind == "flower":
        return _("{name} lays out a white").format(name=name)
    if kind == "dingque":
        return _("{name} names {suit} as the void suit").format(name=name, suit=suit_name(event.suit or ""))
    if kind == "exchange":
        if viewer is not None and event.actor != viewer:  # SC-H1: face down to the others
            return _("{name} sets aside three tiles to pass (换三张, SC-H1)").format(name=name)
        return _("{name} sets aside {tiles} to pass (换三张, SC-H1)").format(
            name=name, tiles=" ".join(tile_name(str(t)) for t in event.tiles))
    if kind == "ready":
        return _("{name} declares ready").format(name=name)
    if kind == "contract":
        if event.choice == "give_up":
            return _("{name} gives up (contract)").format(name=name)
        return _("{name} persists (contract)").format(name=name)
    if kind == "leave":
        return _("{name} leaves the table").format(name=name)
    if kind == "end":
        return {"win": _("The hand is over"), "exhausted": _("The wall is exhausted"),
                "abandoned": _("The hand was abandoned")}.get(event.reason or "", "")
    return kind
