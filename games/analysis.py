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

>>> from games.bots import simulate
>>> match = simulate("sichuan", 1, 3)
>>> hand = analyze_match(match)[0]
>>> all(d.actual_index is not None for d in hand.decisions)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.log import Event, Match
from games.match import Replayer
from games.table import Phase, Table
from games.tiles import TILES, Tile, counts_of
from games.variants import Score, Variant

ENGINE_VERSION = "2"


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
    kind: str  # turn, claim, rob_kong, dingque, contract
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


def analyze_match(match: Match) -> list[HandAnalysis]:
    """Annotate every hand of a match (the match must be valid)."""
    replayer = Replayer(match)
    out: list[HandAnalysis] = []
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        out.append(analyze_hand(table, hand.events, number))
        replayer.play(number, hand)
    return out


def analyze_hand(table: Table, events: Sequence[Event], number: int) -> HandAnalysis:
    """Annotate one hand, replaying its events on ``table`` (a fresh table of the hand)."""
    future = _future_draws(events)
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
                decisions.extend(_claim_decisions(table, events, index, future))
        elif event.type != "end":
            decisions.extend(_decisions_before(table, event, index, future))
        if event.type == "end":
            break
        table.apply(event)
    return HandAnalysis(number, decisions)


def _future_draws(events: Sequence[Event]) -> dict[int, list[tuple[int, Tile]]]:
    """Per seat, its draws in order with their event index (for counterfactuals)."""
    draws: dict[int, list[tuple[int, Tile]]] = {s: [] for s in range(4)}
    for index, event in enumerate(events, start=1):
        if event.type == "draw" and event.actor is not None and event.tile is not None:
            draws[event.actor].append((index, event.tile))
    return draws


def _decisions_before(table: Table, event: Event, index: int,
                      future: dict[int, list[tuple[int, Tile]]]) -> list[Decision]:
    phase = table.phase
    if phase is Phase.TURN:
        decisions = _rob_gold_chances(table, event, index)
        if event.actor == table.turn and not (event.type == "hu" and event.how == "rob_gold"
                                              and event.actor != table.turn):
            decisions.insert(0, _turn_decision(table, event, index, future))
        elif event.type == "hu" and event.how == "rob_gold" and event.actor == table.turn:
            decisions.insert(0, _turn_decision(table, event, index, future))
        return decisions
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


def _turn_decision(table: Table, event: Event, index: int,
                   future: dict[int, list[tuple[int, Tile]]]) -> Decision:
    seat = event.actor if event.actor is not None else table.turn
    actions = [a.event for a in table.legal_actions() if a.seat == seat]
    outcomes = [_turn_outcome(table, seat, option, index, future) for option in actions]
    actual = _match_actual(outcomes, event)
    if actual is None:  # an action bots never offer (e.g. a declined kong): still shown
        outcomes.append(_turn_outcome(table, seat, event, index, future))
        actual = len(outcomes) - 1
    return _decision(index, seat, "turn", outcomes, actual)


def _rob_gold_chances(table: Table, event: Event, index: int) -> list[Decision]:
    """PT-5.5: every other seat that could rob the gold before the dealer's first discard."""
    decisions = []
    by_seat: dict[int, list[Event]] = {}
    for action in table.legal_actions():
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


def _claim_decisions(table: Table, events: Sequence[Event], index: int,
                     future: dict[int, list[tuple[int, Tile]]]) -> list[Decision]:
    by_seat: dict[int, list[Event]] = {}
    for action in table.legal_actions():
        if action.note == "pass" or action.event.type in ("draw", "end"):
            continue
        by_seat.setdefault(action.seat, []).append(action.event)
    answers = _answers(table, events, index)
    decisions = []
    for seat, options in by_seat.items():
        outcomes = [_claim_outcome(table, seat, option, index, future) for option in options]
        outcomes.append(_pass_outcome(table, seat, index, future))
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
    _rank(outcomes)
    mistake = False
    if actual is not None and len(outcomes) > 1:
        mistake = _clearly_worse(outcomes[actual], min(outcomes, key=Outcome.key))
    return Decision(index, seat, kind, outcomes, actual, mistake)


def _rank(outcomes: list[Outcome]) -> None:
    keys = sorted({o.key() for o in outcomes})
    for outcome in outcomes:
        outcome.rank = keys.index(outcome.key()) + 1


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


def _visible(table: Table, seat: int) -> list[int]:
    """What ``seat`` can see: own hand, all melds and rivers, flowers, turned-up tiles."""
    tiles: list[Tile] = list(table.seats[seat].tiles())
    for other, state in enumerate(table.seats):
        if state.won and other != seat:
            tiles.extend(state.tiles())  # a Sichuan winner's tiles are shown (SC-3.2)
    for state in table.seats:
        for meld in state.melds:
            if not meld.is_concealed or state is table.seats[seat]:
                tiles.extend(meld.tiles)
        tiles.extend(t for t, claimed in state.river if not claimed)
        tiles.extend([TILES[31]] * state.flowers)
    if table.setup.indicator is not None:
        tiles.append(table.setup.indicator)
    return counts_of(tiles)


def _seat_view(table: Table, seat: int) -> tuple[Any, list[int]]:
    """The seat's position and what it can see, once per decision point (all alternatives)."""
    cache: dict[tuple[int, int], tuple[Any, list[int]]] = table.__dict__.setdefault(
        "_analysis_views", {})
    key = (seat, table.seen_events)
    view = cache.get(key)
    if view is None:
        if len(cache) > 8:
            cache.clear()
        view = cache[key] = (table.seat_position(seat, self_draw=True), _visible(table, seat))
    return view


def _hand_metrics(table: Table, seat: int, hand: list[Tile],
                  extra_melds: Sequence[Any] = ()) -> tuple[int, list[tuple[Tile, int]],
                                                          list[tuple[Tile, int, Score]]]:
    """Shanten, accepted tiles with unseen copies, and scored waits of a waiting hand."""
    variant: type[Variant] = table.variant
    base, visible = _seat_view(table, seat)
    position = _with_hand(base, tuple(hand), extra_melds)
    counts, wild = variant.split(position, hand)
    shanten, after = variant.shanten_after_each(position, counts, wild)
    accepted: list[tuple[Tile, int]] = []
    waits: list[tuple[Tile, int, Score]] = []
    own = counts_of([*hand, *(t for m in position.melds for t in m.tiles)])
    for tile in variant.drawable(position):
        if after[tile.kind] < shanten:
            remaining = max(variant.copies(position, tile.kind) - visible[tile.kind], 0)
            accepted.append((tile, remaining))
            if shanten == 0 and own[tile.kind] < variant.copies(position, tile.kind):  # C-1
                score = _wait_score(position, hand, tile)
                if score.win:
                    waits.append((tile, remaining, score))
    return shanten, accepted, waits


_WAIT_SCORES: dict[tuple[Any, ...], Score] = {}


def _wait_score(position: Any, hand: list[Tile], tile: Tile) -> Score:
    """The score of a wait, remembered: a ready hand often waits unchanged for many turns."""
    key = (position.variant.name, tuple(sorted(t.kind for t in hand)), tile.kind,
           position.melds, position.wildcards, position.seat, position.dealer,
           position.round_wind, position.bank, position.flowers, position.void,
           position.dealer_streak, tuple(sorted(position.rules.items())))
    score = _WAIT_SCORES.get(key)
    if score is None:
        if len(_WAIT_SCORES) > 50_000:
            _WAIT_SCORES.clear()
        score = _WAIT_SCORES[key] = position.variant.score(
            position.with_hand((*hand, tile), tile))
    return score


def _with_hand(position: Any, hand: tuple[Tile, ...], extra_melds: Sequence[Any]) -> Any:
    from dataclasses import replace

    if extra_melds:
        position = replace(position, melds=(*position.melds, *extra_melds))
    return position.with_hand(hand, None)


def _turn_outcome(table: Table, seat: int, option: Event, index: int,
                  future: dict[int, list[tuple[int, Tile]]]) -> Outcome:
    outcome = Outcome(option)
    hand = table.seats[seat].tiles()
    if option.type == "hu":
        outcome.win = _win_score(table, seat, option)
        return outcome
    if option.type == "discard" and option.tile is not None:
        rest = list(hand)
        rest.remove(option.tile)
        _fill(outcome, table, seat, rest)
        outcome.counterfactual = _counterfactual(table, seat, rest, index, future)
        return outcome
    if option.type == "gang" and option.tile is not None:
        from games.tiles import Meld

        if option.kind == "added":
            rest = list(hand)
            rest.remove(option.tile)
            _fill(outcome, table, seat, rest)
            outcome.counterfactual = _counterfactual(table, seat, rest, index, future)
            return outcome
        rest = [t for t in hand if t != option.tile]
        kong = (Meld.gang(option.tile, "concealed"),)
        _fill(outcome, table, seat, rest, kong)
        outcome.counterfactual = _counterfactual(table, seat, rest, index, future, kong)
        return outcome
    # ready, flower: the hand itself, best discard after
    kept = _fill_best_discard(outcome, table, seat, hand)
    outcome.counterfactual = _counterfactual(table, seat, kept, index, future)
    return outcome


def _claim_outcome(table: Table, seat: int, option: Event, index: int,
                   future: dict[int, list[tuple[int, Tile]]]) -> Outcome:
    from games.tiles import Meld

    outcome = Outcome(option)
    if option.type == "hu":
        outcome.win = _win_score(table, seat, option)
        return outcome
    hand = table.seats[seat].tiles()
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
        _fill(outcome, table, seat, hand, (meld,))
        kept = hand
    else:
        kept = _fill_best_discard(outcome, table, seat, hand, (meld,))
    outcome.counterfactual = _counterfactual(table, seat, kept, index, future, (meld,))
    return outcome


def _pass_outcome(table: Table, seat: int, index: int,
                  future: dict[int, list[tuple[int, Tile]]]) -> Outcome:
    outcome = Outcome(Event("pass", seat))
    hand = table.seats[seat].tiles()
    _fill(outcome, table, seat, hand)
    outcome.counterfactual = _counterfactual(table, seat, hand, index, future)
    return outcome


def _fill(outcome: Outcome, table: Table, seat: int, hand: list[Tile],
          melds: Sequence[Any] = ()) -> None:
    outcome.shanten, outcome.accepted, outcome.waits = _hand_metrics(
        table, seat, hand, extra_melds=melds)


def _fill_best_discard(outcome: Outcome, table: Table, seat: int, hand: list[Tile],
                       melds: Sequence[Any] = ()) -> list[Tile]:
    """A hand a tile too many: the metrics after its best discard; returns the hand kept."""
    best: tuple[Any, ...] | None = None
    for kind in sorted({t.kind for t in hand}):
        tile = TILES[kind]
        if table.is_wild(kind) and table.variant.name == "putian":
            continue  # golds are never discarded (PT-2)
        rest = list(hand)
        rest.remove(tile)
        metrics = _hand_metrics(table, seat, rest, extra_melds=melds)
        key = (metrics[0], -sum(n for _, n in metrics[1]))
        if best is None or key < best[0]:
            best = (key, metrics, rest)
    if best is None:
        return hand
    outcome.shanten, outcome.accepted, outcome.waits = best[1]
    kept: list[Tile] = best[2]
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


def _counterfactual(table: Table, seat: int, hand: list[Tile], index: int,
                    future: dict[int, list[tuple[int, Tile]]],
                    extra_melds: Sequence[Any] = ()) -> dict[str, Any] | None:
    """Keep drawing this seat's own next tiles from the log; win, at which draw, for how much.

    Each draw is discarded unless discarding another tile leaves fewer shanten
    (golds are never discarded, PT-2). Works on count vectors: it runs for every
    alternative of every decision.
    """
    if table.wall is None:
        return None
    pending = [(at, tile) for at, tile in future.get(seat, []) if at > index]
    position = _seat_view(table, seat)[0]
    if extra_melds:
        position = _with_hand(position, (), extra_melds)
    # The same hand before the same draws gives the same answer (a passed claim, then
    # the turn's discard of the drawn tile): remember it for the hand.
    key = (seat, tuple(sorted(t.kind for t in hand)), pending[0][0] if pending else None,
           position.melds, position.flowers)
    memo: dict[tuple[Any, ...], dict[str, Any]] = table.__dict__.setdefault(
        "_counterfactuals", {})
    known = memo.get(key)
    if known is None:
        known = memo[key] = _play_on(table.variant, position, hand, [t for _, t in pending])
    return dict(known)


def _play_on(variant: type[Variant], position: Any, hand: list[Tile],
             draws: list[Tile]) -> dict[str, Any]:
    counts, wild = variant.split(position, hand)
    wild_tiles = [t for t in hand if position.is_wild(t)]  # their faces matter for scores
    never_discard = set(position.wildcards) if variant.name == "putian" else set()
    current = variant.shanten_of(position, counts, wild)
    for number, tile in enumerate(draws, start=1):
        kind = tile.kind
        drawn_wild = kind in position.wildcards
        if drawn_wild:
            wild += 1
            wild_tiles.append(tile)
        else:
            counts[kind] += 1
        grown = variant.shanten_of(position, counts, wild)  # = the best discard's shanten
        if grown >= current and not (drawn_wild and never_discard):
            if drawn_wild:  # no improvement: the drawn tile goes straight back
                wild -= 1
                wild_tiles.pop()
            else:
                counts[kind] -= 1
            continue
        if grown == -1:
            tiles = tuple(t for k in range(34) for t in [TILES[k]] * counts[k]) + tuple(
                wild_tiles)
            score = variant.score(position.with_hand(tiles, tile))
            if score.win:
                return {"win": True, "draw": number, "tile": str(tile), "points": score.points}
        _, after = variant.shanten_after_removing(position, counts, wild)
        keep_drawn = after[kind]
        choice = kind
        for other in range(34):
            if after[other] < keep_drawn and other not in never_discard and (
                    counts[other] or other in position.wildcards):
                keep_drawn, choice = after[other], other
        if choice in position.wildcards and (drawn_wild or not counts[choice]):
            wild -= 1
            wild_tiles.remove(TILES[choice] if TILES[choice] in wild_tiles else wild_tiles[-1])
        else:
            counts[choice] -= 1
        current = variant.shanten_of(position, counts, wild)
    return {"win": False, "draws": len(draws)}


def analyze_json(match: Match) -> dict[str, Any]:
    """The whole match's annotation as JSON (the ``analyze`` command's output)."""
    return {"engine_version": ENGINE_VERSION, "variant": match.variant,
            "hands": [h.to_json() for h in analyze_match(match)]}

