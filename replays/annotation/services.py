"""The viewer's analysis panel, from a hand's stored annotation (docs/analysis.md)."""

from __future__ import annotations

from typing import Any

from games.analysis import ENGINE_VERSION
from replays.library.links import step_url
from replays.models import Annotation, Match


def panel(match: Match, hand_number: int, step: int, seat: int | None,
          spoilers: bool = True) -> dict[str, Any] | None:
    """The annotation panel: the decisions before the next event, and where others are."""
    annotation = Annotation.objects.filter(hand__match=match, hand__number=hand_number,
                                           engine_version=ENGINE_VERSION).first()
    if annotation is None:
        return None
    decisions = [d for d in annotation.data["decisions"]
                 if (seat is None or d["seat"] == seat) and len(d["alternatives"]) > 1]
    here = [_ranked(d) for d in decisions if d["event"] == step + 1]
    steps = sorted({d["event"] - 1 for d in decisions})
    mistakes = sorted({d["event"] - 1 for d in decisions if d["mistake"]})
    def at(target: int | None) -> str | None:
        return None if target is None else step_url(match, hand_number, target, seat,
                                                     spoilers)

    return {
        "decisions": here,
        "summary": annotation.data.get("summary", []),
        "previous_decision": at(max((s for s in steps if s < step), default=None)),
        "next_decision": at(min((s for s in steps if s > step), default=None)),
        "previous_mistake": at(max((s for s in mistakes if s < step), default=None)),
        "next_mistake": at(min((s for s in mistakes if s > step), default=None)),
    }


def _ranked(decision: dict[str, Any]) -> dict[str, Any]:
    """The decision with its alternatives best first, each knowing its own index."""
    alternatives = [dict(alt, index=i) for i, alt in enumerate(decision["alternatives"])]
    alternatives.sort(key=lambda alt: (alt["rank"], alt["index"]))
    return dict(decision, alternatives=alternatives)
