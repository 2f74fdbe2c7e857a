"""Self-play bots and ``simulate``: whole matches played through the table.

Bots play sensibly rather than strongly: they take every win, rob kongs and
golds when allowed, name the weakest suit as void (SC-2), steer a Jiaxing hand
toward one suit and honours (the JX-5.3 requirement), claim when a claim brings
the hand closer, and otherwise discard the tile that keeps the hand closest to
ready with the most tiles accepted. Everything is decided by a seeded
:class:`random.Random`, so the same seed gives the same match.

>>> match = simulate("sichuan", hands=1, seed=7)
>>> match.variant, len(match.hands)
('sichuan', 1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import replace

from games.core import shapes
from games.core.table import Action, Phase, Table
from games.core.tiles import TILES, WINDS, Tile
from games.core.variant import Variant
from games.records.log import Event, HandLog, MatchLog
from games.records.match import Replayer
from games.variants.registry import variant_named


class Dealer:
    """Shuffles and deals a new hand the way its variant does (JX-1/4, PT-1/2, SC-1)."""

    def __init__(self, variant: type[Variant], rng: random.Random) -> None:
        self.variant = variant
        self.rng = rng

    def tiles(self) -> list[Tile]:
        tiles = [TILES[k] for k in self.variant.tile_kinds() for _ in range(4)]
        self.rng.shuffle(tiles)
        return tiles

    def deal(self, dealer: int) -> tuple[list[list[Tile]], list[Tile], dict[str, object]]:
        wall = self.tiles()
        extra: dict[str, object] = {"dice": (self.rng.randint(1, 6), self.rng.randint(1, 6))}
        wall = self.variant.turn_up(wall, self.rng, extra)
        size = self.variant.HAND_SIZE
        hands = [[] for _ in range(4)]  # type: list[list[Tile]]
        for seat in range(4):
            count = size + (1 if seat == dealer else 0)
            hands[seat] = sorted(wall[:count])
            wall = wall[count:]
        return hands, wall, extra


class Bot:
    """One seat's choices, given the table and the legal actions."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        phase = table.phase
        if phase is Phase.DINGQUE:
            return self._dingque(table, actions)
        if phase is Phase.CONTRACT:
            give_up = self.rng.random() < 0.25
            return next(a for a in actions if (a.event.choice == "give_up") == give_up)
        wins = [a for a in actions if a.event.type == "hu"]
        if wins:
            return wins[0]  # take every win, robbing kongs and golds included
        if phase in (Phase.DISCARDED, Phase.ROBBABLE):
            return self._claim(table, actions)
        return self._turn(table, actions)

    def _dingque(self, table: Table, actions: Sequence[Action]) -> Action:
        seat = actions[0].seat
        hand = table.seats[seat].hand
        counts = [sum(hand[s * 9 : s * 9 + 9]) for s in range(3)]
        weakest = "mps"[min(range(3), key=lambda s: (counts[s], s))]
        return next(a for a in actions if a.seat == seat and a.event.suit == weakest)

    # -- evaluating hands -----------------------------------------------------

    def _value(self, table: Table, seat: int, counts: list[int], melds: int) -> tuple[int, ...]:
        """Lower is better: (shanten toward a legal win, shanten)."""
        return self._evaluator(table, seat, counts, melds)(counts)

    def _evaluator(self, table: Table, seat: int, counts: Sequence[int],
                   melds: int) -> Callable[[list[int]], tuple[int, int]]:
        """A hand evaluator with what doesn't change between candidates worked out once."""
        variant = table.variant
        wild_kinds = sorted(table.setup.wildcards)
        sets = variant.SETS - melds
        shanten = shapes.shanten
        if variant.HAS_VOID:
            void = table.seats[seat].void
            seven = shapes.seven_pairs_shanten
            pairs_too = variant.SEVEN_PAIRS and not melds

            def with_void(c: list[int]) -> tuple[int, int]:
                value = shanten(c, sets, 0, void=void, honours=False)
                if pairs_too:
                    value = min(value, seven(c, void))
                return (value, value)
            return with_void
        if not variant.BOTS_AIM_AT_ONE_SUIT:
            # Honours that are flowers (PT-3) are laid out, never part of a set.
            honours = bool(variant.HONOURS) and not variant.HAS_FLOWERS

            def plain(c: list[int]) -> tuple[int, int]:
                wild = sum(c[k] for k in wild_kinds)
                real = list(c)
                for kind in wild_kinds:
                    real[kind] = 0
                value = shanten(real, sets, wild, honours=honours)
                return (value, value)
            return plain
        # JX-5.3: aim at one suit plus honours (all pungs often come along).
        suit = self._focus(table, seat, counts)
        low, high = suit * 9, suit * 9 + 9

        def jiaxing(c: list[int]) -> tuple[int, int]:
            wild = sum(c[k] for k in wild_kinds)
            real = list(c)
            for kind in wild_kinds:
                real[kind] = 0
            plain = shanten(real, sets, wild)
            focused = [0] * low + real[low:high] + [0] * (27 - high) + real[27:]
            off_suit = sum(real) - sum(focused)
            flush = max(shanten(focused, sets, wild), off_suit - 1)
            return (min(flush, plain + 2), plain)
        return jiaxing

    def _void_discard_values(self, table: Table, seat: int, counts: list[int],
                                melds: int) -> list[tuple[int, int]]:
        """Regular shape (void excluded) and seven pairs after each discard, in one pass."""
        void = table.seats[seat].void
        _, regular = shapes.needed_after_each(counts, 4 - melds, void=void, honours=False,
                                              step=-1)
        pairs = singles = 0
        if not melds:
            for kind in range(27):
                if counts[kind] and kind // 9 != void:
                    pairs += counts[kind] >> 1
                    singles += counts[kind] & 1
        values = [(99, 99)] * 34
        for kind in range(27):
            if not counts[kind]:
                continue
            if void is not None and kind // 9 == void:
                value = max(shapes.needed(shapes.part_ids(counts, void, False), 4 - melds) - 1,
                            -1)
                if not melds:
                    value = min(value, shapes.seven_pairs_from(pairs, singles))
            else:
                value = max(regular[kind] - 1, -1)
                if not melds:
                    odd = counts[kind] & 1
                    seven = shapes.seven_pairs_from(pairs - (1 - odd), singles - odd + (1 - odd))
                    value = min(value, seven)
            values[kind] = (value, value)
        return values

    def _focus(self, table: Table, seat: int, counts: Sequence[int]) -> int:
        melds = table.seats[seat].melds
        weight = [sum(counts[s * 9 : s * 9 + 9]) for s in range(3)]
        for meld in melds:
            if meld.first.kind < 27:
                weight[meld.first.kind // 9] += 10  # a suited meld fixes the suit
        return max(range(3), key=lambda s: (weight[s], -s))

    def _turn(self, table: Table, actions: Sequence[Action]) -> Action:
        seat = table.turn
        state = table.seats[seat]
        by_type: dict[str, list[Action]] = {}
        for action in actions:
            by_type.setdefault(action.event.type, []).append(action)
        if "flower" in by_type:
            return by_type["flower"][0]
        counts = list(state.hand)
        melds = len(state.melds)
        kongs = by_type.get("gang", [])
        if kongs:
            current = self._value(table, seat, counts, melds)
            for kong in kongs:
                tile = kong.event.tile
                assert tile is not None
                after = list(counts)
                after[tile.kind] -= 4 if kong.event.kind == "concealed" else 1
                concealed = kong.event.kind == "concealed"
                if self._value(table, seat, after, melds + concealed)[0] <= current[0]:
                    return kong
        discards = by_type.get("discard", [])
        if not discards:
            return actions[0]
        values = self._discard_values(table, seat, counts, melds)
        best = self._best_discard(table, discards, values)
        if "ready" in by_type and not state.ready:
            assert best.event.tile is not None
            if values[best.event.tile.kind][1] == 0:  # the hand left is ready (PT-5.3)
                return by_type["ready"][0]
        return best

    def _best_discard(self, table: Table, discards: Sequence[Action],
                      values: Sequence[tuple[int, int]]) -> Action:
        scored = []
        for action in discards:
            tile = action.event.tile
            assert tile is not None
            keep = 5 if table.is_wild(tile.kind) else (0 if tile.kind >= 27 else 1)
            scored.append((values[tile.kind], keep, self.rng.random(), action))
        scored.sort(key=lambda row: row[:3])
        return scored[0][3]

    def _discard_values(self, table: Table, seat: int, counts: list[int],
                        melds: int) -> list[tuple[int, int]]:
        """The evaluation after discarding each kind, all kinds in one pass where possible."""
        variant = table.variant
        if variant.HAS_VOID:
            return self._void_discard_values(table, seat, counts, melds)
        if not variant.BOTS_AIM_AT_ONE_SUIT:
            evaluate = self._evaluator(table, seat, counts, melds)
            values = []
            for kind in range(34):
                if counts[kind]:
                    counts[kind] -= 1
                    values.append(evaluate(counts))
                    counts[kind] += 1
                else:
                    values.append((99, 99))
            return values
        sets = variant.SETS - melds
        wild_kinds = sorted(table.setup.wildcards)
        wild = sum(counts[k] for k in wild_kinds)
        real = list(counts)
        for kind in wild_kinds:
            real[kind] = 0
        suit = self._focus(table, seat, counts)
        low, high = suit * 9, suit * 9 + 9
        focused = [0] * low + real[low:high] + [0] * (27 - high) + real[27:]
        off_suit = sum(real) - sum(focused)
        plain_now, plain = shapes.needed_after_each(real, sets, step=-1)
        if off_suit:
            flush_now, flush = shapes.needed_after_each(focused, sets, step=-1)
        else:  # already one suit and honours: the flush view is the plain one
            flush_now, flush = plain_now, plain
        values = [(99, 99)] * 34
        for kind in range(34):
            if not counts[kind]:
                continue
            if kind in table.setup.wildcards:
                # discarding a wildcard: one wildcard fewer
                p = shapes.shanten(real, sets, wild - 1)
                f = max(shapes.shanten(focused, sets, wild - 1), off_suit - 1)
                values[kind] = (min(f, p + 2), p)
                continue
            p = max(plain[kind] - wild - 1, -1)
            if low <= kind < high or kind >= 27:
                f = max(flush[kind] - wild - 1, -1)
                f = max(f, off_suit - 1)
            else:
                f = max(flush_now - wild - 1, -1)
                f = max(f, off_suit - 2)
            values[kind] = (min(f, p + 2), p)
        return values

    def _claim(self, table: Table, actions: Sequence[Action]) -> Action:
        passing = next(a for a in actions if a.note == "pass" or a.event.type == "end")
        claims = [a for a in actions if a.event.type in ("peng", "chi", "gang")]
        best: tuple[tuple[int, ...], Action] | None = None
        for claim in claims:
            seat = claim.seat
            state = table.seats[seat]
            before = self._value(table, seat, list(state.hand), len(state.melds))
            after = list(state.hand)
            event = claim.event
            assert event.tile is not None
            if event.type == "chi":
                for shown in event.tiles:
                    after[shown.kind] -= 1
            else:
                after[event.tile.kind] -= 3 if event.type == "gang" else 2
            value = self._value(table, seat, after, len(state.melds) + 1)
            # A pung or chow must bring the hand closer; a kong must not set it back
            # (and is preferred on a tie: it scores and draws a tile).
            kong = event.type == "gang"
            if value[0] < before[0] or (kong and value[0] <= before[0]):
                key = (value[0], 0 if kong else 1, value[1])
                if best is None or key < best[0]:
                    best = (key, claim)
        if best is not None and self.rng.random() < 0.9:
            return best[1]
        return passing


def _event_for(action: Action, table: Table) -> Event:
    event = action.event
    if event.type == "draw" and event.tile is None:
        raise AssertionError("the simulator always knows its wall")
    return event


def play_hand(table: Table, bots: Sequence[Bot]) -> list[Event]:
    """Play one hand to its end; returns its events, the end included."""
    events: list[Event] = []
    for _ in range(2000):
        if table.phase is Phase.ENDED:
            reason = table.end_reason or "win"
            deltas = table.finish(reason) if reason != "abandoned" else list(table.deltas)
            events.append(Event("end", None, reason=reason, deltas=tuple(deltas)))
            return events
        actions = table.legal_actions()
        chooser = bots[actions[0].seat] if actions else bots[0]
        action = chooser.choose(table, actions)
        event = _event_for(action, table)
        if event.type == "end":
            deltas = table.finish(event.reason or "exhausted")
            events.append(replace(event, deltas=tuple(deltas)))
            return events
        table.apply(event)
        events.append(event)
    raise AssertionError("a hand did not end")  # pragma: no cover


def simulate(variant: str, hands: int, seed: int, wall_seed: int | None = None,
             rules: dict[str, int | str | bool] | None = None) -> MatchLog:
    """Bots play a match of ``hands`` hands; the same seeds give the same match."""
    rules_class = variant_named(variant)
    rng = random.Random(seed)
    dealer_rng = random.Random(seed if wall_seed is None else wall_seed)
    dealer = Dealer(rules_class, dealer_rng)
    bots = [Bot(random.Random(rng.random())) for _ in range(4)]
    match = MatchLog(variant=variant, players=rules_class.BOT_NAMES, rules=dict(rules or {}),
                  title=f"Bots, seed {seed}", played_at=None, hands=())
    replayer = Replayer(match)
    played: list[HandLog] = []
    for number in range(1, hands + 1):
        hand = deal_hand(replayer, dealer, number)
        table = replayer.begin(number, hand)
        events = play_hand(table, bots)
        hand = replace(hand, events=tuple(events))
        replayer.conclude(number, hand, table, events[-1].reason or "win")
        played.append(hand)
    return replace(match, hands=tuple(played))


def deal_hand(replayer: Replayer, dealer: Dealer, number: int) -> HandLog:
    """Hand ``number`` of the match ``replayer`` is playing, shuffled and dealt by ``dealer``.

    What the hand states besides its tiles follows from the earlier hands
    (JX-3 dealer and round wind, JX-7.11 carried fans, PT-7.1 dealer streak); the
    hand has no events yet. The same dealer seed and the same earlier hands give
    the same hand, which is how a played match's deals can be checked afterwards.
    """
    variant = dealer.variant
    fields = variant.HAND_FIELDS
    seat = _next_dealer(variant, replayer, dealer.rng, number)
    deal, wall, extra = dealer.deal(seat)
    wildcards = extra.get("wildcards", ())
    if replayer.match.rules.get("wildcard_method") == "indicator":
        wildcards = (extra["indicator"],)  # the turned-up tile itself is wild (JX-4)
    return HandLog(
        dealer=seat,
        round_wind=WINDS[replayer.carry.round_wind] if "round_wind" in fields else None,
        dice=extra["dice"],  # type: ignore[arg-type]
        wildcards=wildcards,  # type: ignore[arg-type]
        indicator=extra.get("indicator"),  # type: ignore[arg-type]
        bank=replayer.carry.bank if "bank" in fields else None,
        dealer_streak=replayer.carry.dealer_streak if "dealer_streak" in fields else None,
        deal=tuple(tuple(h) for h in deal),
        wall=tuple(wall),
        events=(),
    )


def _next_dealer(variant: type[Variant], replayer: Replayer, rng: random.Random,
                 number: int) -> int:
    if variant.DEALER_RULE is None:
        return rng.randrange(4)  # chosen by dice each hand (SC-1)
    if number == 1:
        return variant.FIRST_DEALER if variant.FIRST_DEALER is not None else rng.randrange(4)
    return replayer.carry.dealer if replayer.carry.dealer is not None else 0


def coverage(matches: Sequence[MatchLog]) -> dict[str, dict[str, int]]:
    """How often each event type, pattern and settlement rule occurred."""
    from games.records.match import settlement_rule

    events: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    for match in matches:
        replayer = Replayer(match)
        for result in replayer.hands():
            table = result.table
            streak: list[Event] = []
            for hand_event in match.hands[result.number - 1].events:
                if hand_event.type == "hu" and hand_event.target is not None and (
                        streak and streak[-1].target == hand_event.target):
                    streak.append(hand_event)
                elif hand_event.type == "hu" and hand_event.target is not None:
                    streak = [hand_event]
                else:
                    if len(streak) >= 2:
                        rules[f"SC-3.1 {len(streak)} winners on one discard"] += 1
                    streak = []
                key = hand_event.type
                if hand_event.type == "hu" and hand_event.how:
                    key = f"hu:{hand_event.how}"
                elif hand_event.type == "gang":
                    key = f"gang:{hand_event.kind}"
                elif hand_event.type in ("contract", "end"):
                    key = f"{hand_event.type}:{hand_event.choice or hand_event.reason}"
                elif hand_event.type == "hu":
                    key = "hu:" + ("discard" if hand_event.target is not None else "self_draw")
                events[key] += 1
            for win in table.wins:
                for hit in win.score.patterns:
                    patterns[f"{hit.pattern.id} {hit.pattern.name}"] += 1
            rules[settlement_rule(table)] += 1
            winners = len(table.wins)
            if winners >= 2:
                rules[f"{winners} winners"] += 1
            rules.update(table.settlement_notes)
    return {"events": dict(sorted(events.items())), "patterns": dict(sorted(patterns.items())),
            "settlement": dict(sorted(rules.items()))}
