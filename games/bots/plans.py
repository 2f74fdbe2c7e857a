"""Hand plans for the ``strong`` bot: how far a seat's hand is from a win its variant
allows, and which draws bring it closer.

A *plan* is a shape the hand may win with: the regular shape (C-3) with the seat's void
suit left out (SC-2) or seven pairs (SC-4.1); and, where the variant wants a pattern on
top of the shape (:attr:`~games.core.variant.Variant.BOTS_AIM_AT_ONE_SUIT`, JX-5.3),
one suit with honours for each suit, or all pungs. The hand's distance is its
*shanten* toward the nearest plan, and a kind is *accepted* when drawing it lowers that.
Wildcards (C-4) stand for whatever a plan needs.

>>> from games.core.tiles import counts_of, parse_tiles
>>> counts = counts_of(parse_tiles("111222m333p44s55z6z"))
>>> pungs_needed(counts, 4)  # 4s or 5z makes the fourth pung
(1, [31, 21])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from games.core import shapes
from games.core.table import Table

INF = shapes.INF
Option = tuple[str, int, int]
"""A plan's name, the hand's shanten toward it and the live tiles that bring it closer."""
_FLUSH_KINDS = [frozenset(range(s * 9, s * 9 + 9)) | frozenset(range(27, 34)) for s in range(3)]


def pungs_needed(real: Sequence[int], sets: int) -> tuple[int, list[int]]:
    """Tiles to add for ``sets`` pungs and a pair from the real tiles ``real`` (对对和,
    JX-6.6), and the kinds whose draw would lower that.

    The fullest kinds make the pungs, the next the pair: a pung gains nothing from a
    fourth copy and a pair from a third, so the greedy choice is the cheapest. A draw
    helps a kind as full as the emptiest set it could take the place of.
    """
    held = sorted(((min(n, 3), kind) for kind, n in enumerate(real) if n), reverse=True)
    need = 0
    weakest_pung = 3
    pair = 2
    for index in range(sets + 1):
        n = held[index][0] if index < len(held) else 0
        if index == sets:
            pair = min(n, 2)
            need += 2 - pair
        else:
            weakest_pung = min(weakest_pung, n)
            need += 3 - n
    if weakest_pung == 0 or pair == 0:
        return need, list(range(34))  # a set still to start: any kind starts it
    useful = [kind for n, kind in held
              if (weakest_pung <= n < 3) or (pair <= n < 2)]
    return need, useful


class Planner:
    """One seat's plans, worked out once per decision: what doesn't change between the
    candidate discards (melds, void, wildcards, the plans still open) is fixed here."""

    def __init__(self, table: Table, seat: int) -> None:
        variant = table.variant
        state = table.seats[seat]
        self.table = table
        self.seat = seat
        self.wild_kinds = sorted(table.setup.wildcards)
        self.sets = variant.SETS - len(state.melds)
        self.void = state.void
        self.seven = variant.SEVEN_PAIRS and not state.melds
        self.honours = bool(variant.HONOURS) and not variant.HAS_FLOWERS
        self.patterned = variant.BOTS_AIM_AT_ONE_SUIT
        suits_melded = {m.first.kind // 9 for m in state.melds if m.first.kind < 27}
        self.flush_suits = [s for s in range(3) if suits_melded <= {s}]
        self.pungs_open = all(m.type != "chi" for m in state.melds)
        self.values = variant.BOT_PLAN_VALUES
        if not self.patterned:  # the regular shape is a plan; patterns only add value
            if "flush" not in self.values:
                self.flush_suits = []
            if "pungs" not in self.values:
                self.pungs_open = False
        if self.void is not None:
            self.flush_suits = [s for s in self.flush_suits if s != self.void]

    def with_meld(self, kind: int, chow: bool) -> Planner:
        """The same seat's plans once it has melded a set of ``kind`` (a chow if ``chow``)."""
        other = Planner.__new__(Planner)
        other.__dict__.update(self.__dict__)
        other.sets = self.sets - 1
        other.seven = False
        if kind < 27:
            other.flush_suits = [s for s in self.flush_suits if s == kind // 9]
        other.pungs_open = self.pungs_open and not chow
        return other

    def split(self, counts: Sequence[int]) -> tuple[list[int], int]:
        """The real tiles (wildcards taken out) and how many wildcards."""
        real = list(counts)
        wild = 0
        for kind in self.wild_kinds:
            wild += real[kind]
            real[kind] = 0
        return real, wild

    # -- shanten toward the nearest plan ----------------------------------------

    def shanten(self, counts: Sequence[int]) -> int:
        """Shanten of concealed ``counts`` toward the nearest plan (−1: a win's shape)."""
        return min(self.plan_shanten(counts).values(), default=INF)

    def plan_shanten(self, counts: Sequence[int]) -> dict[str, int]:
        """Each open plan's shanten for concealed ``counts``."""
        real, wild = self.split(counts)
        return {name: now for name, now, _ in self._plans_stepped(real, wild)}

    # -- after each discard -------------------------------------------------------

    def after_discards(self, counts: Sequence[int], kinds: Sequence[int],
                       unseen: Sequence[int]) -> dict[int, list[Option]]:
        """For each kind in ``kinds`` (held): the :meth:`options` of the hand left after
        discarding one of it; ``unseen`` counts the copies the seat can't see."""
        out: dict[int, list[Option]] = {}
        hand = list(counts)
        for kind in kinds:
            hand[kind] -= 1
            out[kind] = self.options(hand, unseen)
            hand[kind] += 1
        return out

    def options(self, counts: Sequence[int], unseen: Sequence[int]) -> list[Option]:
        """For each open plan of a hand waiting for a tile: (plan, shanten, live tiles
        whose draw lowers it). A wildcard drawn fills any gap (C-4)."""
        real, wild = self.split(counts)
        wild_live = sum(unseen[k] for k in self.wild_kinds)
        wild_kinds = self.wild_kinds
        out: list[Option] = []
        for name, now, after in self._plans_stepped(real, wild):
            live = sum(unseen[k] for k in range(34) if after[k] < now and k not in wild_kinds)
            out.append((name, now, live + wild_live if now >= 0 else live))
        return out

    def acceptance(self, counts: Sequence[int], unseen: Sequence[int]) -> tuple[int, int]:
        """(shanten, live tiles whose draw lowers it) of a hand waiting for a tile, toward
        its nearest plans."""
        real, wild = self.split(counts)
        best = INF
        accepted: set[int] = set()
        for _, now, after in self._plans_stepped(real, wild):
            if now < best:
                best, accepted = now, set()
            if now == best:
                accepted.update(k for k in range(34) if after[k] < now)
        accepted.difference_update(self.wild_kinds)
        live = sum(unseen[k] for k in accepted)
        if best >= 0:
            live += sum(unseen[k] for k in self.wild_kinds)
        return best, live

    def value(self, name: str) -> float:
        """What a win by plan ``name`` is worth against the plain shape (1)."""
        return self.values.get(name.rstrip("012"), 1.0)

    def _plans_stepped(self, real: list[int], wild: int) -> list[tuple[str, int, list[int]]]:
        """Each open plan's name, shanten now and shanten after drawing each kind."""
        sets = self.sets
        rows: list[tuple[str, int, list[int]]] = []
        if not self.patterned:
            need, after = shapes.needed_after_each(real, sets, void=self.void,
                                                   honours=self.honours)
            rows.append(("shape", max(need - wild - 1, -1),
                         [max(a - wild - 1, -1) for a in after]))
            if self.seven:
                rows.append(("seven", *self._seven_stepped(real)))
        total = sum(real)
        for suit in self.flush_suits:
            kinds = _FLUSH_KINDS[suit]
            focused = [n if k in kinds else 0 for k, n in enumerate(real)]
            off = total - sum(focused)
            need, after = shapes.needed_after_each(focused, sets, honours=self.honours)
            now = max(max(need - wild, off) - 1, -1)
            # a drawn kind of another suit is one more tile to shed: never better
            stepped = [max(max(a - wild, off) - 1, -1) if k in kinds else INF
                       for k, a in enumerate(after)]
            rows.append((f"flush{suit}", now, stepped))
        if self.pungs_open:
            if self.void is not None:
                real = [0 if k // 9 == self.void else n for k, n in enumerate(real)]
            need, useful = pungs_needed(real, sets)
            now = max(need - wild - 1, -1)
            stepped = [INF] * 34
            for kind in useful:
                if self.void is None or kind // 9 != self.void:
                    stepped[kind] = now - 1
            rows.append(("pungs", now, stepped))
        return rows

    def _seven_stepped(self, real: list[int]) -> tuple[int, list[int]]:
        now = shapes.seven_pairs_shanten(real, self.void)
        stepped = [INF] * 34
        if now >= 0:
            for kind, n in enumerate(real):
                if n % 2 == 1 and (self.void is None or kind // 9 != self.void):
                    stepped[kind] = now - 1
        return now, stepped


# The share of the unseen tiles a typical hand accepts at each shanten beyond the first
# step (a ready hand waits on a few; a hand three away takes nearly half of them).
_LATER_RATES = (0.06, 0.18, 0.32, 0.44, 0.52, 0.58, 0.62, 0.65)


def win_chance(shanten: int, accepted: int, unseen: int, draws: float) -> float:
    """A rough chance of completing the hand in ``draws`` draws: the first step comes
    with a chance ``accepted / unseen`` a draw, each later one with a typical hand's
    chance at its shanten.

    >>> round(win_chance(0, 8, 80, 10), 2)
    0.65
    >>> win_chance(-1, 0, 80, 0)
    1.0
    >>> win_chance(1, 20, 80, 10) > win_chance(2, 40, 80, 10)
    True
    """
    if shanten < 0:
        return 1.0
    if accepted <= 0 or unseen <= 0 or draws <= 0:
        return 0.0
    return _chance(min(shanten, 7), min(accepted / unseen, 1.0), int(draws + 0.5))


@lru_cache(maxsize=65_536)
def _chance(shanten: int, first: float, draws: int) -> float:
    rates = [first] + [_LATER_RATES[k] for k in range(shanten - 1, -1, -1)]
    # reach[j]: the chance of having made j steps so far
    reach = [1.0] + [0.0] * len(rates)
    for _ in range(draws):
        for j in range(len(rates) - 1, -1, -1):
            moved = reach[j] * rates[j]
            reach[j] -= moved
            reach[j + 1] += moved
    return reach[-1]
