"""Reading the table for the ``strong`` bot: what a seat can't see, how likely each other
seat is to be ready, and how dangerous each tile kind is to discard.

Everything comes from what the seat sees: its own hand, the rivers, the open melds,
the void suits (SC-2), the winners' shown hands (SC-3.2), the ready declarations
(PT-5.3) and the wildcards. :func:`tile_danger` is the one entry point the bot uses
for danger, so a calibrated estimator can take its place.

>>> from games.bots.simulation import simulate
>>> from games.records.match import Replayer
>>> match = simulate("sichuan", 1, 3)
>>> table = Replayer(match).begin(1, match.hands[0])
>>> len(tile_danger(table, 0))
34
"""

from __future__ import annotations

from collections.abc import Sequence

from games.core.table import Table

# A hand waits on about two kinds: the share of a ready seat's wait each kind gets is
# scaled to this total.
WAIT_KINDS = 2.0
# A kind's weight as a wait by its number (1–9): the middle makes more waits.
_NUMBER_WEIGHT = (0.6, 0.8, 1.0, 1.0, 1.0, 1.0, 1.0, 0.8, 0.6)
_HONOUR_WEIGHT = 0.5


def unseen_counts(table: Table, seat: int) -> list[int]:
    """Copies of each kind ``seat`` can't see (in the wall or other hands)."""
    visible = table.visible_to(seat)
    limits = _copy_limits(table)
    return [max(limits[k] - visible[k], 0) for k in range(34)]


def _copy_limits(table: Table) -> list[int]:
    variant = table.variant
    kinds = set(variant.tile_kinds())
    wild = table.setup.wildcards
    return [(variant.WILDCARD_COPIES if k in wild else 4) if k in kinds else 0
            for k in range(34)]


def ready_chance(table: Table, seat: int, other: int) -> float:
    """How likely ``other`` is ready, as ``seat`` reads it: a declaration (PT-5.3) says
    so; otherwise it grows with the turns played and the melds shown."""
    state = table.seats[other]
    if state.out or other == seat or state.gave_up:
        return 0.0
    if state.ready or state.ready_pending:
        return 1.0
    turns = len(state.river)
    melds = len(state.melds)
    size = table.variant.HAND_SIZE
    # Thirteen-tile hands get ready after about ten draws; seventeen-tile ones later.
    pace = 13.0 / size
    chance = 0.035 * pace * max(turns - 2, 0) + 0.12 * melds
    return min(chance, 0.85)


def wait_shares(table: Table, seat: int, other: int, unseen: Sequence[int]) -> list[float]:
    """For each kind, the chance it is among ``other``'s waits if ``other`` is ready."""
    state = table.seats[other]
    ruled_out = set(table.kinds_ruled_out(other))
    void = state.void
    discarded = {tile.kind for tile, _ in state.river}
    locked = _discarded_when_ready(table, other)
    kinds = table.variant.tile_kinds()
    weights = [0.0] * 34
    for kind in kinds:
        if void is not None and kind // 9 == void:
            continue  # a seat can't win holding its void suit (SC-2)
        if kind in locked:
            continue  # discarded under the ready lock: not a wait (PT-5.3)
        left = unseen[kind]
        if left == 0 and kind not in table.setup.wildcards:
            continue
        weight = _HONOUR_WEIGHT if kind >= 27 else _NUMBER_WEIGHT[kind % 9]
        if kind in discarded:
            weight *= 0.35  # seldom a wait: it was thrown once
        elif kind < 27 and _suji(kind, discarded):
            weight *= 0.7
        if kind in ruled_out:
            weight *= 0.9
        weights[kind] = weight * (0.4 + 0.15 * left)
    total = sum(weights)
    if total <= 0:
        return weights
    scale = WAIT_KINDS / total
    return [min(w * scale, 1.0) for w in weights]


def _suji(kind: int, discarded: set[int]) -> bool:
    number = kind % 9
    return ((number >= 3 and kind - 3 in discarded)
            or (number <= 5 and kind + 3 in discarded))


def _discarded_when_ready(table: Table, other: int) -> set[int]:
    """Kinds ``other`` threw under its ready lock: drawn tiles that didn't win (PT-5.3)."""
    state = table.seats[other]
    if state.locked_from is None:
        return set()
    return {tile.kind for tile, _ in state.river[state.locked_from:]}


def tile_danger(table: Table, seat: int) -> list[float]:
    """For each kind, the chance that ``seat`` discarding it now lets another seat win on
    it (0 where discards can't win, JX-5.1)."""
    return [sum(row) for row in zip(*danger_by_seat(table, seat), strict=True)]


def danger_by_seat(table: Table, seat: int) -> list[list[float]]:
    """For each other seat, for each kind, the chance a discard of it wins for them."""
    rows = [[0.0] * 34 for _ in range(4)]
    if not table.variant.DISCARD_WINS:
        return rows
    unseen = unseen_counts(table, seat)
    for other in range(4):
        chance = ready_chance(table, seat, other)
        if chance <= 0.0:
            continue
        shares = wait_shares(table, seat, other, unseen)
        rows[other] = [chance * share for share in shares]
    return rows
