"""Discard puzzles from a replay's values pass (``games.training.discard_puzzles.discard_spots``):
the stored values rows of the current engine and value model, joined to the annotation's
alternatives that name each choice's tile."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from games.analysis.annotation import ENGINE_VERSION
from games.training.discard_puzzles import DiscardSpot, discard_spots
from replays.annotation.values import current_values
from replays.matches.board import replayed_match
from replays.models import Annotation, Match


def valued_discards(match: Match) -> dict[tuple[int, int, int], tuple[Any, Any]]:
    """(hand, event, seat) → (the values pass's decision, the annotation's alternatives),
    for the solo-model discards of the match's values rows."""
    rows = list(current_values(match).values_list("hand__number", "data"))
    if not rows:
        return {}
    annotations = {number: data.get("decisions", []) for number, data in
                   Annotation.objects.filter(hand__match=match, engine_version=ENGINE_VERSION)
                   .values_list("hand__number", "data")}
    out: dict[tuple[int, int, int], tuple[Any, Any]] = {}
    for number, data in rows:
        by_key = {(d["event"], d["seat"]): d for d in annotations.get(number, [])}
        for decision in data:
            if decision.get("model") != "solo":
                continue
            annotated = by_key.get((decision["event"], decision["seat"]))
            if annotated is not None:
                out[(number, decision["event"], decision["seat"])] = (
                    decision, annotated["alternatives"])
    return out


def discard_spots_of(match: Match) -> Iterator[DiscardSpot]:
    """The match's clearly-best discards as puzzle spots (none before its values exist)."""
    valued = valued_discards(match)
    if valued:
        yield from discard_spots(replayed_match(match).match, valued)
