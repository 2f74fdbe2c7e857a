"""The engine's annotation of one stored hand: the match replayed from its rows
(:func:`replays.matches.board.replayed_match`) and the hand annotated by
:func:`games.analysis.annotation.analyze_hand`. The annotation's tasks and the values pass
(which needs a hand's decisions) both call it."""

from __future__ import annotations

from games.analysis.annotation import analyze_hand, seats_of
from games.variants.registry import TABLE_CLASSES
from replays.matches.board import replayed_match
from replays.models import Match


def annotate(match: Match, number: int) -> dict[str, object]:
    """The analysis of one stored hand, as JSON."""
    data = replayed_match(match)
    table = TABLE_CLASSES[data.match.variant](data.setups[number - 1])
    # A hand recorded from one seat is annotated for that seat alone (docs/recorder.md).
    return analyze_hand(table, data.match.hands[number - 1].events, number,
                        seats_of(data.match)).to_json()
