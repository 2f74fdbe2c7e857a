"""Annotation: every decision of a hand with its alternatives and where they lead.

For each decision point — a turn (discard, kong, win, ready, bomb, 抢金), a
claim chance on a discard or an added kong (including chances passed), 定缺 and
the contract answer — :func:`analyze_hand` lists the legal alternatives, and for
each: the shanten after it, the accepted tiles with the copies the player can't
see, the waits with their full scores when ready, and, when the log has the
wall, a counterfactual: play this alternative, then keep drawing the player's
own next tiles (discarding each draw unless it improves the hand) — would they
have won, at which draw, for how much.

Alternatives are ranked by a documented ordering (docs/analysis.md): a win now
first, then fewer shanten, then more accepted tiles, then the best wait's value.
The player's actual choice gets its rank, and a *mistake* flag when it is
clearly worse than the best: more shanten, or the same shanten with less than
two thirds of the best acceptance (and at least four tiles fewer).

>>> from games.bots.simulation import simulate
>>> match = simulate("sichuan", 1, 3)
>>> hand = analyze_match(match)[0]
>>> all(d.actual_index is not None for d in hand.decisions)
True
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core.position import Position
from games.core.table import Action, Phase, Table
from games.core.tiles import TILES, Meld, Tile
from games.core.variant import Score, ShantenSteps, Variant
from games.records.log import EngineFault, Event, MatchLog
from games.records.match import Replayer

ANNOTATION_VERSION = "5"  # 5: the 换三张 decision (SC-H1); no locked auto-discards (SC-H2)
"""The version of the annotation's output (raise it when any annotation changes, so that
``manage.py reannotate`` redoes stored ones). Not the site's own ENGINE_VERSION in
replays/services.py, which versions stored validation results."""

ENGINE_VERSION = ANNOTATION_VERSION  # the older name, kept for code written against it


@dataclass
class Outcome:
    """Where one alternative leads."""

    event: Event
    win: Score | None = None
    shanten: int | None = None
    accepted: list[tuple[Tile, int]] = field(default_factory=list)
    waits: list[tuple[Tile, int, Score]] = field(default_factory=list)
    counterfactual: dict[str, Any] | None = None
    rank: int = 0

    @property
    def accepted_count(self) -> int:
        return sum(n for _, n in self.accepted)

    @property
    def best_wait_points(self) -> int:
        return max((s.points for _, _, s in self.waits), default=0)

    def key(self) -> tuple[int, int, int, int]:
        """Smaller is better: win now, fewer shanten, more acceptance, higher value."""
        if self.win is not None:
            return (0, -self.win.points, 0, 0)
        return (1, self.shanten if self.shanten is not None else 99, -self.accepted_count,
                -self.best_wait_points)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.event.to_json(), "rank": self.rank}
        if self.win is not None:
            out["win"] = self.win.to_json()
        if self.shanten is not None:
            out["shanten"] = self.shanten
            out["accepted"] = [{"tile": str(t), "remaining": n} for t, n in self.accepted]
            out["accepted_count"] = self.accepted_count
        if self.waits:
            out["waits"] = [{"tile": str(t), "remaining": n, "score": s.to_json()}
                            for t, n, s in self.waits]
        if self.counterfactual is not None:
            out["counterfactual"] = self.counterfactual
        return out


@dataclass
class Decision:
    """One decision point of one seat."""

    event_index: int  # 1-based index of the event the decision led to (or followed)
    seat: int
    kind: str  # turn, claim, rob_kong, exchange, dingque, contract
    alternatives: list[Outcome]
    actual_index: int | None
    mistake: bool = False

    @property
    def actual(self) -> Outcome | None:
        return self.alternatives[self.actual_index] if self.actual_index is not None else None

    def to_json(self) -> dict[str, Any]:
        return {
            "event": self.event_index,
            "seat": self.seat,
            "kind": self.kind,
            "actual": self.actual_index,
            "actual_rank": self.actual.rank if self.actual else None,
            "mistake": self.mistake,
            "alternatives": [a.to_json() for a in self.alternatives],
        }


@dataclass
class HandAnalysis:
    number: int
    decisions: list[Decision]

    def summary(self) -> list[dict[str, int]]:
        """Per seat: decisions, agreement with the engine's first choice, mistakes."""
        rows = []
        for seat in range(4):
            mine = [d for d in self.decisions if d.seat == seat and len(d.alternatives) > 1]
            rows.append({
                "seat": seat,
                "decisions": len(mine),
                "agreed": sum(1 for d in mine if d.actual and d.actual.rank == 1),
                "mistakes": sum(1 for d in mine if d.mistake),
            })
        return rows

    def to_json(self) -> dict[str, Any]:
        return {"hand": self.number, "summary": self.summary(),
                "decisions": [d.to_json() for d in self.decisions]}


def analyze_match(match: MatchLog) -> list[HandAnalysis]:
    """Annotate every hand of a match (the match must be valid)."""
    replayer = Replayer(match)
    out: list[HandAnalysis] = []
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        out.append(analyze_hand(table, hand.events, number, seats_of(match)))
        replayer.play(number, hand)
    return out


def seats_of(match: MatchLog) -> frozenset[int] | None:
    """The seats whose decisions a match's annotation shows: a hand recorded from one seat
    (``view``, docs/recorder.md) only that seat's, since the others' concealed tiles are
    filled in, not known; otherwise every seat (``None``)."""
    return frozenset({match.view.seat}) if match.view is not None else None


def analyze_hand(table: Table, events: Sequence[Event], number: int,
                 seats: frozenset[int] | None = None) -> HandAnalysis:
    """Annotate one hand, replaying its events on ``table`` (a fresh table of the hand);
    an error of the engine's own is raised as an EngineFault naming the hand and event.
    With ``seats``, only those seats' decisions are kept."""
    try:
        analysis = _analyze_hand(table, events, number)
    except Exception as error:
        raise EngineFault.of(error, hand=number, event=table.seen_events + 1) from error
    if seats is not None:
        analysis.decisions = [d for d in analysis.decisions if d.seat in seats]
    return analysis


def _analyze_hand(table: Table, events: Sequence[Event], number: int) -> HandAnalysis:
    future = _future_draws(events)
    memo = _HandMemo()  # this hand's alone: dropped with the hand, never kept on the table
    decisions: list[Decision] = []
    answered: tuple[Any, ...] | None = None  # the claim window already annotated
    for index, event in enumerate(events, start=1):
        if table.phase in (Phase.DISCARDED, Phase.ROBBABLE):
            # One decision per seat per discard (or added kong), whatever the number of
            # events answering it (several winners, SC-3.1); the last discard's too.
            window: tuple[Any, ...] | None = (
                table.seen_events - len(table.discard_winners), table.last_discard)
            if table.robbed_kong_pending:  # later robbers of the same kong (SC-5.18)
                window = answered
            if window != answered:
                answered = window
                decisions.extend(_claim_decisions(table, memo, events, index, future))
        elif event.type != "end":
            decisions.extend(_decisions_before(table, memo, event, index, future))
        if event.type == "end":
            break
        table.apply(event)
    return HandAnalysis(number, decisions)


def outcomes_now(table: Table, seat: int, options: Sequence[Event]) -> list[Outcome]:
    """What the annotation shows for ``seat``'s options at this moment of a hand, ranked.

    ``options`` are the seat's legal events now; an event of type ``pass``
    stands for declining a claim, a robbery or 抢金. Nothing comes from the
    future of the hand: no counterfactual (it would need the seat's next
    draws), so a player at the table may be shown this without learning the wall.
    """
    phase = table.phase
    index = table.seen_events + 1
    no_future: dict[int, list[tuple[int, Tile]]] = {}
    memo = _HandMemo()
    outcomes: list[Outcome] = []
    for option in options:
        if option.type == "pass":
            outcome = _pass_outcome(table, memo, seat, index, no_future)
        elif phase in (Phase.DISCARDED, Phase.ROBBABLE):
            outcome = _claim_outcome(table, memo, seat, option, index, no_future)
        elif option.how == "rob_gold" and seat != table.turn:
            outcome = Outcome(option, win=_win_score(table, seat, option))
        elif phase is Phase.TURN:
            outcome = _turn_outcome(table, memo, seat, option, index, no_future)
        else:
            outcome = Outcome(option)  # 定缺 and the contract answer: ranked below
        outcome.counterfactual = None
        outcomes.append(outcome)
    if phase is Phase.DINGQUE:
        _rank_dingque(table, seat, outcomes)
    elif phase is Phase.CONTRACT:
        for outcome in outcomes:
            outcome.rank = 1  # no preference between persisting and giving up (as above)
    else:
        _rank(outcomes)
    return outcomes


def _future_draws(events: Sequence[Event]) -> dict[int, list[tuple[int, Tile]]]:
    """Per seat, its draws in order with their event index (for counterfactuals)."""
    draws: dict[int, list[tuple[int, Tile]]] = {s: [] for s in range(4)}
    for index, event in enumerate(events, start=1):
        if event.type == "draw" and event.actor is not None and event.tile is not None:
            draws[event.actor].append((index, event.tile))
    return draws


def _decisions_before(table: Table, memo: _HandMemo, event: Event, index: int,
                      future: dict[int, list[tuple[int, Tile]]]) -> list[Decision]:
    phase = table.phase
    if phase is Phase.TURN:
        decisions = _rob_gold_chances(table, memo, event, index)
        turn: Decision | None = None
        if event.actor == table.turn and not (event.type == "hu" and event.how == "rob_gold"
                                              and event.actor != table.turn):
            turn = _turn_decision(table, memo, event, index, future)
        elif event.type == "hu" and event.how == "rob_gold" and event.actor == table.turn:
            turn = _turn_decision(table, memo, event, index, future)
        if turn is not None:
            decisions.insert(0, turn)
        return decisions
    if phase is Phase.EXCHANGE and event.type == "exchange" and event.actor is not None:
        return [_exchange_decision(table, memo, event, index)]
    if phase is Phase.DINGQUE and event.type == "dingque" and event.actor is not None:
        options = [a.event for a in table.legal_actions() if a.seat == event.actor]
        outcomes = [Outcome(e) for e in options]
        actual = next((i for i, o in enumerate(outcomes) if o.event.suit == event.suit), None)
        _rank_dingque(table, event.actor, outcomes)
        return [_decision(index, event.actor, "dingque", outcomes, actual)]
    if phase is Phase.CONTRACT and event.type == "contract" and event.actor is not None:
        outcomes = [Outcome(a.event) for a in table.legal_actions()]
        actual = next((i for i, o in enumerate(outcomes) if o.event.choice == event.choice),
                      None)
        for outcome in outcomes:
            outcome.rank = 1  # the engine has no preference between persisting and giving up
        return [Decision(index, event.actor, "contract", outcomes, actual)]
    return []


EXCHANGE_CANDIDATES = 2
"""Sets of three shown per suit for 换三张 (SC-H1), the best by shape, with the one chosen:
listing every set (up to 88 in a hand) would leave the values pass hundreds of playouts."""


def _exchange_decision(table: Table, memo: _HandMemo, event: Event, index: int) -> Decision:
    """SC-H1 换三张: which three tiles of one suit to pass on. The tiles coming in are
    unknown when the choice is made, so each set is measured by the shape of the tiles
    kept (their shanten, the best void suit still to name, and the tiles improving them);
    the best few sets of each suit are the alternatives, the one chosen always among them."""
    seat = event.actor
    assert seat is not None
    held = list(_seat_view(table, memo, seat).tiles)
    options = [a.event for a in _legal_actions(table, memo) if a.seat == seat]
    outcomes = []
    for option in options:
        rest = list(held)
        for tile in option.tiles:
            rest.remove(tile)
        outcome = Outcome(option)
        _fill(outcome, table, memo, seat, rest)
        outcomes.append(outcome)
    chosen = sorted(t.kind for t in event.tiles)
    actual = next((o for o in outcomes if sorted(t.kind for t in o.event.tiles) == chosen),
                  None)
    by_suit: dict[int, list[Outcome]] = {}
    for outcome in outcomes:
        by_suit.setdefault(outcome.event.tiles[0].kind // 9, []).append(outcome)
    kept = {id(o) for suit in by_suit.values()
            for o in sorted(suit, key=Outcome.key)[:EXCHANGE_CANDIDATES]}
    shown = [o for o in outcomes if id(o) in kept or o is actual]
    if actual is None:  # a set the table didn't offer (it can't be: the log is valid)
        shown.append(Outcome(event))
        actual = shown[-1]
    return _decision(index, seat, "exchange", shown, shown.index(actual))


def _turn_decision(table: Table, memo: _HandMemo, event: Event, index: int,
                   future: dict[int, list[tuple[int, Tile]]]) -> Decision | None:
    seat = event.actor if event.actor is not None else table.turn
    actions = [a.event for a in _legal_actions(table, memo) if a.seat == seat]
    if len(actions) == 1 and table.hand_locked(seat) and event.actor == seat:
        return None  # a locked hand's discard is decided for it (SC-H2, PT-5.3): no choice
    outcomes = [_turn_outcome(table, memo, seat, option, index, future) for option in actions]
    actual = _match_actual(outcomes, event)
    if actual is None:  # an action bots never offer (e.g. a declined kong): still shown
        outcomes.append(_turn_outcome(table, memo, seat, event, index, future))
        actual = len(outcomes) - 1
    return _decision(index, seat, "turn", outcomes, actual)


def _rob_gold_chances(table: Table, memo: _HandMemo, event: Event, index: int) -> list[Decision]:
    """PT-5.5: every other seat that could rob the gold before the dealer's first discard."""
    decisions = []
    by_seat: dict[int, list[Event]] = {}
    for action in _legal_actions(table, memo):
        if action.seat != table.turn and action.event.how == "rob_gold":
            by_seat.setdefault(action.seat, []).append(action.event)
    for seat, options in sorted(by_seat.items()):
        outcomes = [Outcome(option, win=_win_score(table, seat, option)) for option in options]
        outcomes.append(Outcome(Event("pass", seat)))
        taken = _match_actual(outcomes, event) if event.actor == seat else None
        decisions.append(_decision(index, seat, "rob_gold", outcomes,
                                   taken if taken is not None else len(outcomes) - 1))
    return decisions


def _answers(table: Table, events: Sequence[Event], index: int) -> dict[int, Event]:
    """The seats that answered the discard or kong on the table, and how (SC-3.1)."""
    answers: dict[int, Event] = {}
    for event in events[index - 1:]:
        if event.type == "hu" and event.target is not None and event.actor is not None:
            answers[event.actor] = event
            continue
        if event.type in ("chi", "peng", "gang") and event.actor is not None and not answers:
            answers[event.actor] = event
        break
    return answers


def _claim_decisions(table: Table, memo: _HandMemo, events: Sequence[Event], index: int,
                     future: dict[int, list[tuple[int, Tile]]]) -> list[Decision]:
    by_seat: dict[int, list[Event]] = {}
    for action in table.legal_actions():
        if action.note == "pass" or action.event.type in ("draw", "end"):
            continue
        by_seat.setdefault(action.seat, []).append(action.event)
    answers = _answers(table, events, index)
    decisions = []
    for seat, options in by_seat.items():
        outcomes = [_claim_outcome(table, memo, seat, option, index, future) for option in options]
        outcomes.append(_pass_outcome(table, memo, seat, index, future))
        answer = answers.get(seat)
        claimed = _match_actual(outcomes, answer) if answer is not None else None
        actual = claimed if claimed is not None else len(outcomes) - 1  # else: passed
        kind = "rob_kong" if table.phase is Phase.ROBBABLE else "claim"
        decisions.append(_decision(index, seat, kind, outcomes, actual))
    return decisions


def _match_actual(outcomes: Sequence[Outcome], event: Event) -> int | None:
    for i, outcome in enumerate(outcomes):
        option = outcome.event
        if (option.type == event.type and option.tile == event.tile
                and option.kind == event.kind and option.how == event.how
                and option.target == event.target
                and (option.type != "chi" or sorted(option.tiles) == sorted(event.tiles))):
            return i
    return None


def _decision(index: int, seat: int, kind: str, outcomes: list[Outcome],
              actual: int | None) -> Decision:
    keys = _rank(outcomes)
    mistake = False
    if actual is not None and len(outcomes) > 1:
        best = outcomes[keys.index(min(keys))]  # the first of the best, as min() gives
        mistake = _clearly_worse(outcomes[actual], best)
    return Decision(index, seat, kind, outcomes, actual, mistake)


def _rank(outcomes: list[Outcome]) -> list[tuple[int, int, int, int]]:
    """Rank the outcomes (1 = best; equal keys, equal ranks); returns their keys."""
    keys = [o.key() for o in outcomes]
    order = sorted(set(keys))
    for outcome, key in zip(outcomes, keys, strict=True):
        outcome.rank = order.index(key) + 1
    return keys


def _clearly_worse(actual: Outcome, best: Outcome) -> bool:
    if best.win is not None:
        return actual.win is None
    if actual.win is not None:
        return False
    if actual.shanten is None or best.shanten is None:
        return False
    if actual.shanten > best.shanten:
        return True
    gap = best.accepted_count - actual.accepted_count
    return actual.shanten == best.shanten and gap >= 4 and \
        actual.accepted_count * 3 < best.accepted_count * 2


def _rank_dingque(table: Table, seat: int, outcomes: list[Outcome]) -> None:
    hand = table.seats[seat].hand
    for outcome in outcomes:
        suit = "mps".index(outcome.event.suit or "m")
        outcome.shanten = sum(hand[suit * 9 : suit * 9 + 9])  # tiles to get rid of
    order = sorted({o.shanten or 0 for o in outcomes})
    for outcome in outcomes:
        outcome.rank = order.index(outcome.shanten or 0) + 1


# -- evaluating one alternative ---------------------------------------------------


class _Melded:
    """A seat's position with some melds (its own, plus an alternative's), tiles aside."""

    __slots__ = ("position", "shape", "context", "melds", "wait_key")

    def __init__(self, position: Position, memo: _HandMemo) -> None:
        self.position = position
        # What shanten depends on besides the tiles (wildcards are the hand's own).
        self.shape = bytes((len(position.melds), 3 if position.void is None else position.void))
        # Everything a counterfactual depends on besides the tiles, as a small number.
        self.context = memo.contexts.setdefault(position.context_key(), len(memo.contexts))
        # The melds and flowers as a small number (for the hand's counterfactual keys).
        self.melds = memo.meld_sets.setdefault((position.melds, position.flowers),
                                               len(memo.meld_sets))
        # What a wait's score depends on besides the tiles, as a number for the process.
        wait_key = position.context_key()
        number = _WAIT_CONTEXTS.get(wait_key)
        if number is None:
            if len(_WAIT_CONTEXTS) > 10_000:
                _WAIT_CONTEXTS.clear()  # numbers are never reused: old scores just go unused
            number = _WAIT_CONTEXTS[wait_key] = next(_WAIT_NUMBERS)
        self.wait_key = number


class _View:
    """A seat at one decision point: its tiles, what it can see, the copies in play."""

    __slots__ = ("seat", "tiles", "visible", "copies", "pending", "_shared", "_melded")

    def __init__(self, table: Table, seat: int, memo: _HandMemo) -> None:
        state = table.seats[seat]
        self.seat = seat
        self.tiles = tuple(state.tiles())
        self.visible = table.visible_to(seat)
        # Besides the tiles, a seat's position changes only with its melds, flowers and
        # void (the rest is the hand's setup): positions are shared by decision points.
        self._shared = (seat, tuple(state.melds), state.flowers, state.void)
        # Drawable kinds and their copies in play depend on the hand's setup and the
        # seat's void only (not on melds or tiles held): once per hand and void.
        copies = memo.copies.get(state.void)
        if copies is None:
            variant: type[Variant] = table.variant
            position = table.seat_position(seat, self_draw=True)
            copies = memo.copies[state.void] = [
                (tile.kind, variant.copies(position, tile.kind))
                for tile in variant.drawable(position)]
        self.copies = copies
        self.pending: dict[int, list[tuple[int, Tile]]] = {}  # the seat's draws after an event
        self._melded: dict[tuple[Any, ...], _Melded] = {}

    def melded(self, extra_melds: Sequence[Meld], memo: _HandMemo, table: Table) -> _Melded:
        """The seat's position (``table`` as at this decision point) with more melds."""
        key = tuple(extra_melds)
        found = self._melded.get(key)
        if found is None:
            shared = (*self._shared, key)
            found = memo.melded.get(shared)
            if found is None:
                position = table.seat_position(self.seat, self_draw=True)
                if key:
                    position = _with_hand(position, (), extra_melds)
                found = memo.melded[shared] = _Melded(position, memo)
            self._melded[key] = found
        return found


class _HandMemo:
    """What the annotation of one hand computes more than once (one table, one hand).

    The shape tables are pure functions of their keys (the hand's variant and
    wildcards never change); so is a counterfactual continued from a given
    draw with given tiles (``plays``).
    """

    __slots__ = ("views", "melded", "copies", "legal", "after_each",
                 "contexts", "meld_sets", "tiles", "plays", "counterfactuals")

    def __init__(self) -> None:
        self.views: dict[tuple[int, int], _View] = {}
        self.copies: dict[int | None, list[tuple[int, int]]] = {}
        self.legal: tuple[int, list[Action]] | None = None
        self.melded: dict[tuple[Any, ...], _Melded] = {}
        self.after_each: dict[bytes, tuple[int, tuple[int, ...]]] = {}
        self.contexts: dict[tuple[Any, ...], int] = {}
        self.meld_sets: dict[tuple[Any, ...], int] = {}
        self.tiles: dict[bytes, int] = {}  # the tiles of a counterfactual, as numbers
        # per context: (tiles number << 32 | draw's event index) → the play's win or None
        self.plays: dict[int, dict[int, tuple[int, str, int] | None]] = {}
        self.counterfactuals: dict[tuple[Any, ...], dict[str, Any]] = {}


def _legal_actions(table: Table, memo: _HandMemo) -> list[Action]:
    """``table.legal_actions()``, once per table state (a turn asks twice: 抢金 and the turn)."""
    if memo.legal is None or memo.legal[0] != table.seen_events:
        memo.legal = (table.seen_events, table.legal_actions())
    return memo.legal[1]


def _seat_view(table: Table, memo: _HandMemo, seat: int) -> _View:
    """The seat's tiles and what it can see, once per decision point (all alternatives)."""
    cache = memo.views
    key = (seat, table.seen_events)
    view = cache.get(key)
    if view is None:
        if len(cache) > 8:
            cache.clear()
        view = cache[key] = _View(table, seat, memo)
    return view


_BYTES = tuple(bytes((n,)) for n in range(256))


def _after_each(memo: _HandMemo, variant: type[Variant], melded: _Melded, counts: list[int],
                wild: int) -> tuple[int, tuple[int, ...]]:
    """``variant.shanten_after_each``, remembered for the hand."""
    key = bytes(counts) + _BYTES[wild] + melded.shape  # not a tuple: no work for the GC
    found = memo.after_each.get(key)
    if found is None:
        now, after = variant.shanten_after_each(melded.position, counts, wild)
        found = memo.after_each[key] = (now, tuple(after))
    return found


def _hand_metrics(table: Table, memo: _HandMemo, seat: int, hand: list[Tile], extra_melds: Sequence[Meld] = (),
                  with_waits: bool = True) -> tuple[int, list[tuple[Tile, int]],
                                                    list[tuple[Tile, int, Score]]]:
    """Shanten, accepted tiles with unseen copies, and scored waits of a waiting hand."""
    variant: type[Variant] = table.variant
    view = _seat_view(table, memo, seat)
    melded = view.melded(extra_melds, memo, table)
    counts, wild = variant.split(melded.position, hand)
    shanten, after = _after_each(memo, variant, melded, counts, wild)
    visible = view.visible  # unseen copies: those in play less those seen
    bombs = (variant.draws_winning_without_shape(melded.position, hand)
             if shanten >= 0 and wild >= 2 else ())
    if bombs:  # ready whatever the shape (PT-5.6), as Variant.waits_of says
        shanten = 0
        accepted = [_accepted(kind, n - visible[kind] if n > visible[kind] else 0)
                    for kind, n in view.copies if after[kind] < 0 or kind in bombs]
    else:
        accepted = [_accepted(kind, n - visible[kind] if n > visible[kind] else 0)
                    for kind, n in view.copies if after[kind] < shanten]
    waits = _waits(melded, hand, accepted) if with_waits and shanten == 0 else []
    return shanten, accepted, waits


# The (tile, unseen copies) entries, shared: a match's outcomes hold a hundred thousand
# of them, which the garbage collector would otherwise walk through again and again.
_ACCEPTED = tuple(tuple((tile, n) for n in range(5)) for tile in TILES)


def _accepted(kind: int, remaining: int) -> tuple[Tile, int]:
    return _ACCEPTED[kind][remaining] if remaining < 5 else (TILES[kind], remaining)


def _waits(melded: _Melded, hand: list[Tile],
           accepted: list[tuple[Tile, int]]) -> list[tuple[Tile, int, Score]]:
    """The accepted tiles of a ready hand that win, with their scores."""
    waits = []
    position = melded.position
    variant: type[Variant] = position.variant
    counts, wild = variant.split(position, hand)
    kinds = tuple(sorted([t.kind for t in hand]))
    held = variant.held_every_copy(position, hand)
    for tile, remaining in accepted:
        if tile.kind in held:
            continue  # C-1: the win would need a copy more than the game has
        key = (melded.wait_key, kinds, tile.kind)
        score = _WAIT_SCORES.get(key)
        if score is None:
            kind = tile.kind
            if kind in position.wildcards:
                hopeless = not variant.may_win(position, counts, wild + 1)
            else:
                counts[kind] += 1
                hopeless = not variant.may_win(position, counts, wild)
                counts[kind] -= 1
            if len(_WAIT_SCORES) > 10_000:  # bounds a worker's memory (docs/analysis.md)
                _WAIT_SCORES.clear()
            # No reading can win: not worth the full score (nor the question again).
            score = _WAIT_SCORES[key] = _HOPELESS if hopeless else variant.score(
                position.with_hand((*hand, tile), tile))
        if score.win:
            waits.append((tile, remaining, score))
    return waits


# A wait's score, remembered: a ready hand often waits unchanged for many turns.
_WAIT_SCORES: dict[tuple[Any, ...], Score] = {}
_WAIT_CONTEXTS: dict[tuple[Any, ...], int] = {}
_HOPELESS = Score.no_win("no reading can win (Variant.may_win)")  # never shown: no win
_WAIT_NUMBERS = itertools.count()


def _with_hand(position: Position, hand: tuple[Tile, ...],
               extra_melds: Sequence[Meld]) -> Position:
    from dataclasses import replace

    if extra_melds:
        position = replace(position, melds=(*position.melds, *extra_melds))
    return position.with_hand(hand, None)


def _turn_outcome(table: Table, memo: _HandMemo, seat: int, option: Event, index: int,
                  future: dict[int, list[tuple[int, Tile]]]) -> Outcome:
    outcome = Outcome(option)
    hand = list(_seat_view(table, memo, seat).tiles)
    if option.type == "hu":
        outcome.win = _win_score(table, seat, option)
        return outcome
    if option.type == "discard" and option.tile is not None:
        rest = list(hand)
        rest.remove(option.tile)
        _fill(outcome, table, memo, seat, rest)
        outcome.counterfactual = _counterfactual(table, memo, seat, rest, index, future)
        return outcome
    if option.type == "gang" and option.tile is not None:

        if option.kind == "added":
            rest = list(hand)
            rest.remove(option.tile)
            _fill(outcome, table, memo, seat, rest)
            outcome.counterfactual = _counterfactual(table, memo, seat, rest, index, future)
            return outcome
        rest = [t for t in hand if t != option.tile]
        kong = (Meld.gang(option.tile, "concealed"),)
        _fill(outcome, table, memo, seat, rest, kong)
        outcome.counterfactual = _counterfactual(table, memo, seat, rest, index, future, kong)
        return outcome
    # ready, flower: the hand itself, best discard after
    kept = _fill_best_discard(outcome, table, memo, seat, hand)
    outcome.counterfactual = _counterfactual(table, memo, seat, kept, index, future)
    return outcome


def _claim_outcome(table: Table, memo: _HandMemo, seat: int, option: Event, index: int,
                   future: dict[int, list[tuple[int, Tile]]]) -> Outcome:

    outcome = Outcome(option)
    if option.type == "hu":
        outcome.win = _win_score(table, seat, option)
        return outcome
    hand = list(_seat_view(table, memo, seat).tiles)
    tile = option.tile
    assert tile is not None
    if option.type == "chi":
        for shown in option.tiles:
            hand.remove(shown)
        kinds = sorted([tile.kind, *(t.kind for t in option.tiles)])
        meld = Meld.chi(TILES[kinds[0]])
    elif option.type == "peng":
        hand.remove(tile)
        hand.remove(tile)
        meld = Meld.peng(tile)
    else:
        for _ in range(3):
            hand.remove(tile)
        meld = Meld.gang(tile, "exposed")
    if option.type == "gang":
        _fill(outcome, table, memo, seat, hand, (meld,))
        kept = hand
    else:
        kept = _fill_best_discard(outcome, table, memo, seat, hand, (meld,))
    outcome.counterfactual = _counterfactual(table, memo, seat, kept, index, future, (meld,))
    return outcome


def _pass_outcome(table: Table, memo: _HandMemo, seat: int, index: int,
                  future: dict[int, list[tuple[int, Tile]]]) -> Outcome:
    outcome = Outcome(Event("pass", seat))
    hand = list(_seat_view(table, memo, seat).tiles)
    _fill(outcome, table, memo, seat, hand)
    outcome.counterfactual = _counterfactual(table, memo, seat, hand, index, future)
    return outcome


def _fill(outcome: Outcome, table: Table, memo: _HandMemo, seat: int, hand: list[Tile],
          melds: Sequence[Meld] = ()) -> None:
    outcome.shanten, outcome.accepted, outcome.waits = _hand_metrics(
        table, memo, seat, hand, extra_melds=melds)


def _fill_best_discard(outcome: Outcome, table: Table, memo: _HandMemo, seat: int, hand: list[Tile],
                       melds: Sequence[Meld] = ()) -> list[Tile]:
    """A hand a tile too many: the metrics after its best discard; returns the hand kept."""
    variant: type[Variant] = table.variant
    melded = _seat_view(table, memo, seat).melded(melds, memo, table)
    candidates = [kind for kind in sorted({t.kind for t in hand})
                  if not (table.is_wild(kind) and not variant.WILDCARDS_DISCARDABLE)]
    # Only the discards leaving the fewest shanten can be best: the others' acceptance
    # isn't needed (a removal's entry is the shanten of the hand it leaves).
    counts, wild = variant.split(melded.position, hand)
    removing = variant.shanten_steps(melded.position, counts, wild).removing
    left = [removing(kind) for kind in candidates]
    fewest = min(left, default=0)
    best: tuple[Any, ...] | None = None
    for kind, shanten in zip(candidates, left, strict=True):
        if shanten > fewest:
            continue
        tile = TILES[kind]
        rest = list(hand)
        rest.remove(tile)
        metrics = _hand_metrics(table, memo, seat, rest, extra_melds=melds, with_waits=False)
        key = (metrics[0], -sum(n for _, n in metrics[1]))
        if best is None or key < best[0]:
            best = (key, metrics, rest)
    if best is None:
        return hand
    kept: list[Tile] = best[2]
    outcome.shanten, outcome.accepted, _ = best[1]
    # Waits don't take part in the choice: scored for the kept hand only.
    outcome.waits = (_waits(melded, kept, outcome.accepted)
                     if outcome.shanten == 0 else [])
    return kept


def _win_score(table: Table, seat: int, option: Event) -> Score | None:
    tile = option.tile
    if tile is None:
        return None
    if option.target is None:
        position = table.seat_position(
            seat, win_tile=tile, self_draw=True, after_kong=table.after_kong,
            last_tile=table.tiles_left == 0 and not table.after_kong,
            first_turn=table.first_turn(seat), bomb=option.how == "bomb",
            robbing_gold=option.how == "rob_gold")
        if option.how == "rob_gold":
            rob = getattr(table, "_rob_gold_position", None)
            found = rob(seat, tile) if rob else None
            if found is not None:
                position = found
    else:
        robbing = option.how == "robbing_kong"
        position = table.seat_position(seat, win_tile=tile, extra=tile, robbing_kong=robbing,
                                       after_kong_discard=table.kong_discard and not robbing,
                                       last_tile=table.tiles_left == 0 and not robbing)
    score = table.variant.score(position)
    return score if score.win else None


def _counterfactual(table: Table, memo: _HandMemo, seat: int, hand: list[Tile], index: int,
                    future: dict[int, list[tuple[int, Tile]]],
                    extra_melds: Sequence[Meld] = ()) -> dict[str, Any] | None:
    """Keep drawing this seat's own next tiles from the log; win, at which draw, for how much.

    Each draw is discarded unless discarding another tile leaves fewer shanten
    (golds are never discarded, PT-2). Works on count vectors: it runs for every
    alternative of every decision.
    """
    if table.wall is None:
        return None
    view = _seat_view(table, memo, seat)
    pending = view.pending.get(index)
    if pending is None:
        pending = view.pending[index] = [(at, t) for at, t in future.get(seat, []) if at > index]
    melded = view.melded(extra_melds, memo, table)
    # The same hand before the same draws gives the same answer (a passed claim, then
    # the turn's discard of the drawn tile): remember it for the hand.
    key = (seat, tuple(sorted([t.kind for t in hand])), pending[0][0] if pending else None,
           melded.melds)  # (the position's melds and flowers)
    known = memo.counterfactuals.get(key)
    if known is None:
        known = memo.counterfactuals[key] = _play_on(memo, table.variant, melded, hand, pending)
    return dict(known)


_UNKNOWN: Any = object()


def _play_on(memo: _HandMemo, variant: type[Variant], melded: _Melded, hand: list[Tile],
             draws: list[tuple[int, Tile]]) -> dict[str, Any]:
    """The counterfactual of ``hand`` before ``draws`` (event index, tile), to the last one.

    Alternatives (and later decisions) often reach the same tiles before the
    same draw: the rest of the play is remembered per (context, draw, tiles) for
    the hand, so a play stops at the first state already known.
    """
    plays = memo.plays.get(melded.context)
    if plays is None:
        plays = memo.plays[melded.context] = {}
    play = _PlayOn(memo, variant, melded, hand)
    visited: list[int] = []
    result: tuple[int, str, int] | None = None
    for at, tile in draws:
        state = play.number | at
        result = plays.get(state, _UNKNOWN)
        if result is not _UNKNOWN:
            break
        visited.append(state)
        result = play.draw(at, tile)
        if result is not None:
            break
    for state in visited:
        plays[state] = result
    if result is None:
        return {"win": False, "draws": len(draws)}
    number = next(n for n, (at, _) in enumerate(draws, start=1) if at == result[0])
    return {"win": True, "draw": number, "tile": result[1], "points": result[2]}


class _PlayOn:
    """A player's tiles in a counterfactual: each draw is discarded straight back
    unless it lowers the shanten; then the first kind (in kind order) leaving the
    fewest shanten goes.

    The shanten after a draw is the entry of ``shanten_after_each`` when the hand's
    vector was already computed, else asked of ``shanten_steps`` kind by kind; the
    shanten after each discard is always asked of ``shanten_steps``.
    """

    __slots__ = ("number", "_memo", "_variant", "_position", "_shape", "_counts", "_wild",
                 "_wild_tiles", "_never_discard", "_current", "_after", "_steps")

    def __init__(self, memo: _HandMemo, variant: type[Variant], melded: _Melded,
                 hand: list[Tile]) -> None:
        self._memo, self._variant, self._position = memo, variant, melded.position
        self._shape = melded.shape
        wildcards = melded.position.wildcards
        self._counts, self._wild = variant.split(melded.position, hand)
        self._wild_tiles = [t for t in hand if t.kind in wildcards]  # faces matter to scores
        # Putian never throws a gold away (PT-2); elsewhere a wildcard is a tile like any.
        self._never_discard = (frozenset() if variant.WILDCARDS_DISCARDABLE
                               else frozenset(wildcards))
        self._restate(None)

    def _restate(self, current: int | None) -> None:
        """Number the tiles held (the key of a state, with a draw's event index: numbers,
        not tuples, leave the garbage collector no work) and take the hand's shanten
        vector when it is known; ``current`` is the shanten when the caller knows it."""
        memo, real = self._memo, bytes(self._counts)
        held = real + bytes([t.kind for t in self._wild_tiles])
        self.number = memo.tiles.setdefault(held, len(memo.tiles)) << 32
        known = memo.after_each.get(real + _BYTES[self._wild] + self._shape)
        self._after = known[1] if known is not None else None
        self._steps: ShantenSteps | None = None
        if current is None:
            current = known[0] if known is not None else self._variant.shanten_of(
                self._position, self._counts, self._wild)
        self._current = current

    def draw(self, at: int, tile: Tile) -> tuple[int, str, int] | None:
        """Play the draw at event ``at``: (``at``, tile, points) when it wins, else None."""
        kind = tile.kind
        drawn_wild = kind in self._position.wildcards
        # Exact when it improves on the current shanten (a Sichuan void-suit tile gets
        # INF, never an improvement).
        grown = self._grown(kind)
        if grown >= self._current and not (drawn_wild and self._never_discard):
            return None  # no improvement: the drawn tile goes straight back
        if drawn_wild:
            self._wild += 1
            self._wild_tiles.append(tile)
        else:
            self._counts[kind] += 1
        if grown == -1:
            points = self._points_won(tile)
            if points is not None:
                return at, str(tile), points
        choice, left = self._best_discard(kind, grown)
        self._throw(choice, drawn_wild)
        self._restate(left)  # the removal's entry is the shanten of the hand it leaves
        return None

    def _grown(self, kind: int) -> int:
        """The shanten with one tile more of ``kind`` (= after its best discard)."""
        if self._after is not None:
            return self._after[kind]
        if self._steps is None:
            self._steps = self._variant.shanten_steps(self._position, self._counts, self._wild)
        return self._steps.adding(kind)

    def _points_won(self, tile: Tile) -> int | None:
        """The points of a win with the tiles held, just completed by ``tile``."""
        variant, position, counts = self._variant, self._position, self._counts
        if not variant.may_win(position, counts, self._wild):
            return None
        tiles = tuple(t for k in range(34) for t in [TILES[k]] * counts[k]) + tuple(
            self._wild_tiles)
        score = variant.score(position.with_hand(tiles, tile))
        return score.points if score.win else None

    def _best_discard(self, drawn: int, grown: int) -> tuple[int, int]:
        """The first kind leaving the fewest shanten, and that shanten; none can leave
        fewer than the hand with the drawn tile has, so the search stops at ``grown``."""
        removing = self._variant.shanten_steps(self._position, self._counts, self._wild).removing
        wildcards, counts = self._position.wildcards, self._counts
        best, choice = removing(drawn), drawn
        for other in range(34):
            if other in self._never_discard or not (counts[other] or other in wildcards):
                continue
            left = removing(other)
            if left < best:
                best, choice = left, other
                if left == grown:
                    break
        return choice, best

    def _throw(self, choice: int, drawn_wild: bool) -> None:
        if choice in self._position.wildcards and (drawn_wild or not self._counts[choice]):
            self._wild -= 1
            face = TILES[choice]
            self._wild_tiles.remove(face if face in self._wild_tiles else self._wild_tiles[-1])
        else:
            self._counts[choice] -= 1


def analyze_json(match: MatchLog) -> dict[str, Any]:
    """The whole match's annotation as JSON (the ``analyze`` command's output)."""
    return {"engine_version": ANNOTATION_VERSION, "variant": match.variant,
            "hands": [h.to_json() for h in analyze_match(match)]}

