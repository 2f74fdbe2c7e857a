"""The danger of each tile in the viewed seat's hand (``?danger=1`` in the viewer): the
chance that discarding it at this step deals in to someone, from the engine's fast reading
(games.bots.danger, docs/analysis.md "Danger per tile"), as percentages a player reads."""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from games.bots.danger import tile_danger
from games.core.table import Phase
from games.core.tiles import TILES
from games.variants.registry import TABLE_CLASSES
from replays.matches.board import Replayed


@dataclass(frozen=True)
class TileDanger:
    """One kind's danger: the percentage shown, a level for its colour, and each
    opponent's share in words (the tile's title)."""

    text: str
    level: str
    detail: str


@dataclass(frozen=True)
class DangerView:
    seat: int
    tiles: dict[str, TileDanger]
    rule: str | None = None


def percent(chance: float) -> str:
    """A chance as a player reads it: whole percents, "<1%" for a small non-zero one.

    >>> percent(0.0), percent(0.004), percent(0.126), percent(1.0)
    ('0%', '<1%', '13%', '100%')
    """
    if chance <= 0:
        return "0%"
    if chance < 0.005:
        return "<1%"
    return f"{round(chance * 100)}%"


def level(chance: float) -> str:
    """low under 3%, high from 10%, mid between (the colour of the label)."""
    return "low" if chance < 0.03 else "high" if chance >= 0.10 else "mid"


def danger_at(data: Replayed, hand_number: int, step: int, seat: int) -> DangerView | None:
    """The danger of the seat's tiles after ``step`` events, or None when it has no hand
    to play (the hand is over, or the seat is out, SC-3.2)."""
    hand = data.match.hands[hand_number - 1]
    table = TABLE_CLASSES[data.match.variant](data.setups[hand_number - 1])
    step = max(0, min(step, len(hand.events)))
    if table.apply_run(hand.events[:step]) < step or table.phase is Phase.ENDED:
        return None
    if table.seats[seat].out:
        return None
    reading = tile_danger(table, seat)
    if reading.rule is not None:  # no win on a discard (JX-5.1): the note says so, no labels
        return DangerView(seat, {}, reading.rule)
    players = data.match.players
    tiles: dict[str, TileDanger] = {}
    for kind in reading.held:
        total = reading.total(kind)
        parts = [_("%(name)s %(chance)s") % {"name": players[s],
                                               "chance": percent(reading.chance(kind, s))}
                 for s in reading.opponents() if not table.seats[s].out]
        detail = _("Deals in if discarded now: %(total)s (%(parts)s)") % {
            "total": percent(total), "parts": ", ".join(parts)}
        tiles[str(TILES[kind])] = TileDanger(percent(total), level(total), detail)
    return DangerView(seat, tiles, reading.rule)
