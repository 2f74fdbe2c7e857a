"""Building ``mahjong-log/1`` documents for the hand-history tests.

A :class:`HandBuilder` holds one hand: its deal (short hands are padded with
unremarkable tiles), a complete wall (the tiles left after the deal and the
turned-up indicator or golds, with chosen tiles at the front and the back) and
the events, written one call at a time. It only keeps the wall's two ends and
each seat's tiles so that draws can be filled in; it checks no rule — that is
the engine's job, and the tests' expectations come from RULES.md.

>>> hand = HandBuilder("sichuan", ["123456789m11p", "", "", ""], pad="ps")
>>> len(hand.deal[0]), len(hand.deal[1]), len(hand.wall), hand.deal[0][-1]
(14, 13, 55, '4p')
>>> hand.dingques("ssss").discard(0, "1m").draw(1).events[-1]
{'type': 'draw', 'actor': 1, 'tile': '1m'}
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from games.core.table import Table
from games.records.log import LogError, read_log, write_log
from games.records.match import MatchResult, Replayer, replay
from games.variants.registry import table_class

Doc = dict[str, Any]
Event = dict[str, Any]

PLAYERS = ["Ann", "Ben", "Cal", "Dee"]

_SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
_HONOURS = [f"{n}z" for n in range(1, 8)]
KINDS = {
    "jiaxing": _SUITED + _HONOURS,
    "putian": _SUITED + ["5z"],
    "sichuan": list(_SUITED),
}
HAND_SIZE = {"jiaxing": 13, "putian": 16, "sichuan": 13}


def tiles(text: str) -> list[str]:
    """``"123m55z"`` -> ``["1m", "2m", "3m", "5z", "5z"]`` (also accepts ``"1m 1m"``)."""
    out: list[str] = []
    digits = ""
    for char in text.replace(" ", ""):
        if char.isdigit():
            digits += char
        elif char in "mpsz":
            if not digits:
                raise ValueError(f"no digits before {char!r} in {text!r}")
            out.extend(f"{d}{char}" for d in digits)
            digits = ""
        else:
            raise ValueError(f"bad tile text {text!r}")
    if digits:
        raise ValueError(f"digits without a suit in {text!r}")
    return out


def _pad_kinds(variant: str, pad: str | None) -> list[str]:
    if pad is None:
        return KINDS[variant]
    wanted: list[str] = []
    for part in re.findall(r"\d*[mpsz]", pad):
        if part[:-1]:
            wanted.extend(tiles(part))
        else:
            wanted.extend(k for k in KINDS[variant] if k.endswith(part))
    return [k for k in KINDS[variant] if k in wanted]


class HandBuilder:
    """One hand of a document, written event by event."""

    def __init__(self, variant: str, deal: Sequence[str], *, dealer: int = 0,
                 front: str = "", back: str = "", wildcards: Sequence[str] | None = None,
                 indicator: str | None = None, round_wind: str = "E",
                 dice: Sequence[int] = (2, 5), bank: Sequence[str] | None = None,
                 dealer_streak: int | None = None, wall: bool = True,
                 pad: str | None = None, avoid: str = "") -> None:
        """``deal``: four hand texts, padded to size; ``front``/``back``: the wall's
        first tiles from the front and the first replacement tiles from the back, in
        the order they are drawn; ``pad``: the kinds padding may use (``"mp"``, ``"19m5z"``);
        ``avoid``: kinds padding must not use."""
        self.variant = variant
        self.dealer = dealer
        self.fields: dict[str, Any] = {"dealer": dealer}
        if variant == "jiaxing":
            self.fields["round_wind"] = round_wind
        self.fields["dice"] = list(dice)
        out_of_play: list[str] = []
        if variant == "jiaxing":
            if wildcards is None and indicator is None:
                indicator, wildcards = "8s", ["9s"]
            self.fields["wildcards"] = list(wildcards or [])
            if indicator is not None:
                self.fields["indicator"] = indicator
                out_of_play.append(indicator)
            if bank is not None:
                self.fields["bank"] = list(bank)
        elif variant == "putian":
            wildcards = list(wildcards or ["9p", "9s"])
            self.fields["wildcards"] = wildcards
            out_of_play.extend(wildcards)
            if dealer_streak is not None:
                self.fields["dealer_streak"] = dealer_streak
        self.wildcards = list(self.fields.get("wildcards", []))

        pool = Counter({kind: 4 for kind in KINDS[variant]})
        pool.subtract(out_of_play)
        hands = [tiles(text) for text in deal]
        front_tiles, back_tiles = tiles(front), tiles(back)
        for tile in [*(t for h in hands for t in h), *front_tiles, *back_tiles]:
            pool[tile] -= 1
            if pool[tile] < 0:
                raise ValueError(f"the test asks for too many {tile}")
        named = {t for h in hands for t in h} | set(front_tiles) | set(back_tiles)
        never = set(self.wildcards) | set(out_of_play) | set(tiles(avoid))
        kinds = [k for k in _pad_kinds(variant, pad) if k not in never]
        allowed = [k for k in kinds if k not in named]
        # Kinds the test names are used only when nothing else is left.
        padding = [k for round_ in range(4) for k in allowed if pool[k] > round_]
        padding += [k for round_ in range(4) for k in kinds if k in named and pool[k] > round_]
        for seat, hand in enumerate(hands):
            size = HAND_SIZE[variant] + (seat == dealer)
            while len(hand) < size:
                if not padding:
                    raise ValueError("no padding tiles left")
                tile = padding.pop(0)
                pool[tile] -= 1
                hand.append(tile)
            if len(hand) != size:
                raise ValueError(f"seat {seat} is given {len(hand)} tiles, not {size}")
        self.deal = hands
        # The rest in rounds over the kinds, so that copies of a kind are spread out.
        middle = [k for round_ in range(4) for k in KINDS[variant] if pool[k] > round_]
        self.wall = [*front_tiles, *middle, *reversed(back_tiles)]
        self.use_wall = wall
        self.front = 0
        self.back = len(self.wall)
        self.held = [Counter(h) for h in hands]
        self.events: list[Event] = []
        self.last_discard: tuple[int, str] | None = None
        self.last_drawn: str | None = None

    # -- what is left ------------------------------------------------------------

    @property
    def left(self) -> int:
        """Tiles still in the wall."""
        return self.back - self.front

    @property
    def next(self) -> int:
        """The 1-based number the next event will have (as LogError counts events)."""
        return len(self.events) + 1

    def peek(self, back: bool = False) -> str:
        return self.wall[self.back - 1] if back else self.wall[self.front]

    # -- events ------------------------------------------------------------------

    def add(self, event: Event) -> HandBuilder:
        """Append a raw event (no bookkeeping)."""
        self.events.append(event)
        return self

    def draw(self, actor: int, tile: str | None = None, *, back: bool = False,
             written_from: bool = False) -> HandBuilder:
        """Draw the next wall tile (from the back for a replacement); ``tile`` overrides it."""
        if tile is None:
            tile = self.peek(back)
        if back:
            self.back -= 1
        else:
            self.front += 1
        event: Event = {"type": "draw", "actor": actor, "tile": tile}
        if back:
            event["from"] = "back"
        elif written_from:
            event["from"] = "front"
        self.held[actor][tile] += 1
        self.last_drawn = tile
        return self.add(event)

    def discard(self, actor: int, tile: str | None = None) -> HandBuilder:
        """Discard ``tile`` (default: the tile just drawn)."""
        tile = tile or self.last_drawn
        assert tile is not None
        self.held[actor][tile] -= 1
        self.last_discard = (actor, tile)
        return self.add({"type": "discard", "actor": actor, "tile": tile})

    def chi(self, actor: int, shown: str, target: int | None = None,
            tile: str | None = None) -> HandBuilder:
        target, tile = self._claimed(target, tile)
        shown_tiles = tiles(shown)
        for t in shown_tiles:
            self.held[actor][t] -= 1
        return self.add({"type": "chi", "actor": actor, "target": target, "tile": tile,
                         "tiles": shown_tiles})

    def peng(self, actor: int, target: int | None = None, tile: str | None = None) -> HandBuilder:
        target, tile = self._claimed(target, tile)
        self.held[actor][tile] -= 2
        return self.add({"type": "peng", "actor": actor, "target": target, "tile": tile})

    def gang(self, actor: int, kind: str, tile: str | None = None,
             target: int | None = None) -> HandBuilder:
        """A kong; an exposed kong takes the last discard. The replacement draw is separate."""
        if kind == "exposed":
            target, tile = self._claimed(target, tile)
            self.held[actor][tile] -= 3
            return self.add({"type": "gang", "actor": actor, "kind": kind, "target": target,
                             "tile": tile})
        assert tile is not None
        self.held[actor][tile] -= 4 if kind == "concealed" else 1
        return self.add({"type": "gang", "actor": actor, "kind": kind, "tile": tile})

    def hu(self, actor: int, tile: str | None = None, *, target: int | None = None,
           how: str | None = None) -> HandBuilder:
        event: Event = {"type": "hu", "actor": actor, "tile": tile or self.last_drawn}
        if target is not None:
            event["target"] = target
        if how is not None:
            event["how"] = how
        return self.add(event)

    def ron(self, actor: int) -> HandBuilder:
        """A win on the last discard."""
        assert self.last_discard is not None
        discarder, tile = self.last_discard
        return self.hu(actor, tile, target=discarder)

    def flower(self, actor: int) -> HandBuilder:
        self.held[actor]["5z"] -= 1
        return self.add({"type": "flower", "actor": actor, "tile": "5z"})

    def ready(self, actor: int) -> HandBuilder:
        return self.add({"type": "ready", "actor": actor})

    def dingque(self, actor: int, suit: str) -> HandBuilder:
        return self.add({"type": "dingque", "actor": actor, "suit": suit})

    def dingques(self, suits: str) -> HandBuilder:
        """Every seat names its void suit, seat 0 first: ``"spmm"``."""
        for seat, suit in enumerate(suits):
            self.dingque(seat, suit)
        return self

    def exchange(self, actor: int, three: str) -> HandBuilder:
        """Sichuan 换三张 (SC-H1): ``actor`` sets aside ``three`` (``"119m"``); after the
        fourth set the sets move by the dice, as the table moves them."""
        shown = tiles(three)
        for tile in shown:
            self.held[actor][tile] -= 1
        self.add({"type": "exchange", "actor": actor, "tiles": shown})
        sets = [e for e in self.events if e["type"] == "exchange"]
        if len(sets) == 4:
            step = {1: 1, 2: 3, 0: 2}[sum(self.fields["dice"]) % 3]
            for event in sets:
                for tile in event["tiles"]:
                    self.held[(event["actor"] + step) % 4][tile] += 1
        return self

    def contract(self, actor: int, choice: str) -> HandBuilder:
        return self.add({"type": "contract", "actor": actor, "choice": choice})

    def leave(self, actor: int) -> HandBuilder:
        return self.add({"type": "leave", "actor": actor})

    def end(self, reason: str = "win", deltas: Sequence[int] | None = None) -> HandBuilder:
        event: Event = {"type": "end", "reason": reason}
        if deltas is not None:
            event["deltas"] = list(deltas)
        return self.add(event)

    def cycle(self, seat: int, draws: int) -> HandBuilder:
        """``draws`` turns of draw-and-discard, from ``seat`` on in playing order.

        Each player discards the tile they drew; a Putian white is laid out and
        replaced first, and a drawn gold (never discarded, PT-2) is kept and an
        ordinary tile goes instead.
        """
        for step in range(draws):
            actor = (seat + step) % 4
            self.draw(actor)
            tile = self.last_drawn
            if self.variant == "putian":
                while tile == "5z" and "5z" not in self.wildcards:
                    self.flower(actor)
                    self.draw(actor, back=True)
                    tile = self.last_drawn
                if tile in self.wildcards:
                    tile = next(t for t, n in sorted(self.held[actor].items())
                                if n > 0 and t not in self.wildcards and t != "5z")
            self.discard(actor, tile)
        return self

    def exhaust(self, seat: int) -> HandBuilder:
        """:meth:`cycle` from ``seat`` on until the wall is empty."""
        while self.left:
            self.cycle(seat, 1)
            seat = (seat + 1) % 4
        return self

    def _claimed(self, target: int | None, tile: str | None) -> tuple[int, str]:
        assert self.last_discard is not None or (target is not None and tile is not None)
        discarder, discarded = self.last_discard or (target, tile)
        return (discarder if target is None else target,
                discarded if tile is None else tile)

    # -- the hand as JSON ----------------------------------------------------------

    def to_json(self) -> Doc:
        out = dict(self.fields)
        out["deal"] = [list(h) for h in self.deal]
        if self.use_wall:
            out["wall"] = list(self.wall)
        out["events"] = copy.deepcopy(self.events)
        return out


def document(variant: str, *hands: HandBuilder | Doc, rules: dict[str, Any] | None = None) -> Doc:
    """A whole document of the given hands."""
    doc: Doc = {"format": "mahjong-log/1", "variant": variant, "players": list(PLAYERS)}
    if rules is not None:
        doc["rules"] = dict(rules)
    doc["hands"] = [h.to_json() if isinstance(h, HandBuilder) else h for h in hands]
    return doc


def single(hand: HandBuilder, rules: dict[str, Any] | None = None) -> Doc:
    return document(hand.variant, hand, rules=rules)


# -- running documents -------------------------------------------------------------


def run(doc: Doc) -> MatchResult:
    """Read and replay a document (raises LogError)."""
    return replay(read_log(doc))


def rejection(doc: Doc) -> LogError:
    """The LogError a document gets; fails the test when it is accepted."""
    try:
        run(doc)
    except LogError as error:
        return error
    raise AssertionError("the document was accepted")


def tables_before_events(doc: Doc) -> Iterable[tuple[int, int, Table, Any]]:
    """For every event but ``end``: (hand, event number, the table just before it, the event).

    Each event is applied after it is yielded, so the table moves on.
    """
    match = read_log(doc)
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        reason = "abandoned"
        for index, event in enumerate(hand.events, start=1):
            if event.type == "end":
                reason = event.reason or "win"
                table.finish(reason)
                break
            yield number, index, table, event
            table.apply(event)
        replayer.conclude(number, hand, table, reason)


def table_after(doc: Doc, hand: int = 1, events: int | None = None) -> Table:
    """The table of ``hand`` after its first ``events`` events (all but end by default)."""
    match = read_log(doc)
    replayer = Replayer(match)
    for number, played in enumerate(match.hands, start=1):
        if number < hand:
            replayer.play(number, played)
            continue
        table = table_class(match.variant)(replayer.setup_for(number, played))
        todo = [e for e in played.events if e.type != "end"]
        for event in todo[: len(todo) if events is None else events]:
            table.apply(event)
        return table
    raise ValueError(f"no hand {hand}")


def roundtrip(doc: Doc) -> Doc:
    return write_log(read_log(doc))


# -- scenarios shared by the tests -------------------------------------------------
#
# Each returns a HandBuilder stopped at an interesting point; the tests write what
# comes next. The docstrings give the hands; the tests work out the values.

EARTHLY = "111p222p333p444p5p"
"""A Jiaxing hand ready on 5p: with it, four pungs and a pair of one suit."""


def jx_earthly(dealer: int = 0, *, wildcard: str = "9s", indicator: str = "8s",
               round_wind: str = "E", dice: Sequence[int] = (2, 5),
               bank: Sequence[str] | None = None) -> HandBuilder:
    """Jiaxing: the dealer discards; the next seat, holding :data:`EARTHLY`, draws
    5p and wins at once (地和). The ``hu`` is written; the ``end`` is not."""
    winner = (dealer + 1) % 4
    deal = ["", "", "", ""]
    deal[winner] = EARTHLY
    hand = HandBuilder("jiaxing", deal, dealer=dealer, front="5p", wildcards=[wildcard],
                       indicator=indicator, round_wind=round_wind, dice=dice, bank=bank,
                       pad="mz")
    hand.discard(dealer, hand.deal[dealer][0]).draw(winner).hu(winner)
    return hand


def jx_contract(answers: Sequence[str | None] = ("persist", "persist"), *, seat2: str = "",
                tail: str = "") -> HandBuilder:
    """Jiaxing: Ben (seat 1) chows Ann's (seat 0) 1m, 4m and 7m — three claims from
    one player, a contract between them (JX-9) — and Cal and Dee answer ``answers``
    (``None``: not written). Ben keeps 1z 1z 1z 2z beside his three chows.

    The wall's front: 1s–6s for the six draws between the chows, then ``tail``.
    """
    hand = HandBuilder("jiaxing", ["147m", "235689m1112z345z", seat2, ""],
                       front="1s2s3s4s5s6s" + tail, pad="ps")
    hand.discard(0, "1m").chi(1, "23m").discard(1, "3z")
    hand.draw(2).discard(2).draw(3).discard(3).draw(0).discard(0, "4m")
    hand.chi(1, "56m").discard(1, "4z")
    hand.draw(2).discard(2).draw(3).discard(3).draw(0).discard(0, "7m")
    hand.chi(1, "89m")
    for seat, answer in zip((2, 3), answers, strict=True):
        if answer is not None:
            hand.contract(seat, answer)
    return hand


def jx_added_kong(robber: str) -> HandBuilder:
    """Jiaxing: Cal (seat 2) pungs Ann's 4m, and on his next turn draws the last 4m
    and adds it to the pung (an added kong, JX-2.4). Dee (seat 3) holds ``robber``.
    Stops right after the ``gang``."""
    hand = HandBuilder("jiaxing", ["4m", "", "44m", robber], front="1p2p3p4m", pad="ps")
    hand.discard(0, "4m").peng(2).discard(2, hand.deal[2][2])
    hand.draw(3).discard(3).draw(0).discard(0).draw(1).discard(1)
    hand.draw(2).gang(2, "added", "4m")
    return hand


SC_WAIT_1 = "111m234m567p789p5p"
"""Sichuan, void s: ready on 5p (or 8p); 平胡 1 fan."""
SC_WAIT_2 = "222m345m678p99p46p"
"""Sichuan, void s: ready on 5p only; 平胡 1 fan."""
SC_WAIT_3 = "666m777m888m123p5p"
"""Sichuan, void s: ready on 5p only (a chow of p, so no 对对胡); 平胡 1 fan."""


def sc_discard_5p(seat3: str = SC_WAIT_3, front: str = "") -> HandBuilder:
    """Sichuan: everyone names s void (nobody holds an s tile); Ann (dealer) discards
    5p, on which Ben (:data:`SC_WAIT_1`) and Cal (:data:`SC_WAIT_2`) can win, and Dee
    too with the default ``seat3``. Stops after the discard."""
    hand = HandBuilder("sichuan", ["5p", SC_WAIT_1, SC_WAIT_2, seat3], pad="mp",
                       front=front)
    hand.dingques("ssss").discard(0, "5p")
    return hand


SC_NOT_READY_0 = "2m4m7m9m2p4p7p9p3m8m1p6p8m3p"
"""Ann's 14 (she discards the 2m first): 3m 4m 7m 8m 8m 9m 1p 2p 3p 4p 6p 7p 9p,
at least two tiles from ready, two suits."""
SC_NOT_READY_2 = "3m5m7m9m5m9m2p4p6p8p1p3p6m"
"""Cal: 567m 123p 99m + 35m 46p 8p: two tiles from ready, two suits."""
SC_NOT_READY_3 = "1m2m4m6m8m1p3p5p7p9p2m6p8p"
"""Dee: 789p and scraps: far from ready, two suits."""


def sc_exhausted() -> HandBuilder:
    """Sichuan: everyone names s void and holds no s; Ben holds :data:`SC_WAIT_1`
    (ready, 1 point at best), the others are not ready and no 花猪. Every player
    discards what they draw until the wall (55 tiles) is empty. Stops before
    ``end``."""
    hand = HandBuilder("sichuan", [SC_NOT_READY_0, SC_WAIT_1, SC_NOT_READY_2,
                                   SC_NOT_READY_3])
    hand.dingques("ssss").discard(0, "2m").cycle(1, 55)
    assert hand.left == 0
    return hand


def sc_pig_and_kong() -> HandBuilder:
    """Sichuan, exhausted with a 花猪 and a refunded kong (SC-6.4 a–c).

    Ann (void s) makes a concealed kong of 8m on her dealt hand, draws 1s from the
    back and discards it; she is not ready. Ben holds :data:`SC_WAIT_1` (void s,
    ready, 1 point at best); Cal :data:`SC_NOT_READY_2` (void s). Dee names m void
    but holds 1m with p and s tiles; every tile she draws is an m, which she
    discards, so she ends with all three suits (a 花猪). Everyone discards what they
    draw until the wall is empty. Stops before ``end``.
    """
    hand = HandBuilder("sichuan", ["8888m1p3p4p6p8p2m3m5m6m7m", SC_WAIT_1, SC_NOT_READY_2,
                                   "1m2p5p7p9p1s3s5s7s9s2s4s6s"], back="1s")
    body = hand.wall[:-1]
    suited_m = [t for t in body if t.endswith("m")]
    others = [t for t in body if not t.endswith("m")]
    # Front draws go to Ben, Cal, Dee, Ann, ...: Dee's are draws 3, 7, 11, ...
    hand.wall[:-1] = [suited_m.pop(0) if k % 4 == 3 else others.pop(0)
                      for k in range(1, len(body) + 1)]
    hand.dingques("sssm").gang(0, "concealed", "8m").draw(0, back=True).discard(0)
    hand.cycle(1, len(body))
    assert hand.left == 0
    return hand
