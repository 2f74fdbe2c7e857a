"""The ``basic`` bot: today's sensible beginner, frozen as the ladder's baseline.

It takes every win, robs kongs and golds when allowed, names the weakest suit as void
(SC-2), steers a Jiaxing hand toward one suit and honours (the JX-5.3 requirement),
claims when a claim brings the hand closer, and otherwise discards the tile that keeps
the hand closest to ready with the most tiles accepted. Its choices are decided by a
seeded :class:`random.Random`, so the same seed gives the same play. Changing how it
plays changes the baseline every other level is measured against (docs/bots.md):
leave it alone and add a level instead.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from games.core import shapes
from games.core.table import Action, Phase, Table


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
        if phase is Phase.EXCHANGE:
            return exchange_choice(table, actions)
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


def exchange_choice(table: Table, actions: Sequence[Action]) -> Action:
    """SC-H1 换三张: three tiles of the suit the seat holds fewest of (at least three;
    the lowest suit on a tie), the three whose loss leaves the rest closest to a win.
    The bots' shared choice: simple, and it gives away what the hand needs least."""
    seat = actions[0].seat
    hand = table.seats[seat].hand
    held = [sum(hand[s * 9 : s * 9 + 9]) for s in range(3)]
    suit = min((s for s in range(3) if held[s] >= 3), key=lambda s: (held[s], s))
    mine = [a for a in actions if a.seat == seat and a.event.tiles[0].kind // 9 == suit]

    def left_needing(action: Action) -> tuple[int, list[int]]:
        rest = list(hand)
        for tile in action.event.tiles:
            rest[tile.kind] -= 1
        return (min(shapes.needed_two_suits(rest, 4)), [-t.kind for t in action.event.tiles])
    return min(mine, key=left_needing)
