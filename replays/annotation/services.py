"""The viewer's analysis panel, from a hand's stored annotation (docs/analysis.md).

A step reads only what it shows: the annotation's small index (which steps have decisions,
whose, and which are mistakes) and the one stored step of decisions, never the hand's whole
analysis. The index and steps are written with the annotation (:func:`store_steps`);
annotations stored before them are split on first read.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction

from games.analysis.annotation import ENGINE_VERSION
from replays.kept import Kept
from replays.matches.links import step_url
from replays.models import Annotation, AnnotationStep, Match
from replays.prepared import Prepared


def shown(decision: dict[str, Any]) -> bool:
    """A decision the panel shows: one with a choice to make."""
    return len(decision["alternatives"]) > 1


def loss(decision: dict[str, Any]) -> dict[str, int | str] | None:
    """What the choice made loses against the engine's first choice, measured in the
    annotation's own terms, or None when it loses nothing measurable:

    - ``missed_win``: the best choice wins now (``size``: its points) and this doesn't;
    - ``points``: both win, this one for fewer points;
    - ``shanten``: this leaves the hand further from ready (``size``: how many steps);
    - ``accepted``: as near to ready, but fewer tiles improve it (``size``: how many fewer);
    - ``wait_value``: as near and as wide, but the best wait is worth fewer points.

    >>> best = {"rank": 1, "shanten": 1, "accepted_count": 12}
    >>> loss({"actual": 1, "alternatives": [best, {"rank": 2, "shanten": 1,
    ...       "accepted_count": 8}]})
    {'kind': 'accepted', 'size': 4, 'best': 12, 'actual': 8}
    >>> loss({"actual": 0, "alternatives": [best]}) is None
    True
    """
    actual_index = decision.get("actual")
    alternatives = decision["alternatives"]
    if actual_index is None or not alternatives:
        return None
    actual = alternatives[actual_index]
    best = min(alternatives, key=lambda alt: alt["rank"])
    if actual["rank"] <= best["rank"]:
        return None
    if best.get("win"):
        best_points = int(best["win"].get("points", 0))
        if not actual.get("win"):
            return {"kind": "missed_win", "size": best_points}
        gap = best_points - int(actual["win"].get("points", 0))
        return {"kind": "points", "size": gap} if gap > 0 else None
    if actual.get("shanten") is None or best.get("shanten") is None:
        return None
    if actual["shanten"] > best["shanten"]:
        return {"kind": "shanten", "size": actual["shanten"] - best["shanten"]}
    accepted_gap = best.get("accepted_count", 0) - actual.get("accepted_count", 0)
    if accepted_gap > 0:
        return {"kind": "accepted", "size": accepted_gap,
                "best": best.get("accepted_count", 0), "actual": actual.get("accepted_count", 0)}
    value_gap = _best_wait_points(best) - _best_wait_points(actual)
    if value_gap > 0:
        return {"kind": "wait_value", "size": value_gap}
    return None


def _best_wait_points(alternative: dict[str, Any]) -> int:
    return max((int(w["score"].get("points", 0)) for w in alternative.get("waits", [])),
               default=0)


def is_mistake(decision: dict[str, Any]) -> bool:
    """The engine calls it a mistake and the loss is measurable (a choice that loses
    nothing the annotation measures is never called one)."""
    return bool(decision.get("mistake")) and loss(decision) is not None


def store_steps(annotation: Annotation) -> None:
    """Write the annotation's index, summary and one row per step with decisions."""
    data = annotation.data
    by_event: dict[int, list[dict[str, Any]]] = {}
    index = []
    for decision in data.get("decisions", []):
        if not shown(decision):
            continue
        by_event.setdefault(decision["event"], []).append(decision)
        index.append([decision["event"], decision["seat"], is_mistake(decision)])
    summary = [dict(row, mistakes=sum(1 for event, seat, mistake in index
                                      if seat == row["seat"] and mistake))
               for row in data.get("summary", [])]
    with transaction.atomic():
        AnnotationStep.objects.filter(annotation=annotation).delete()
        AnnotationStep.objects.bulk_create(
            AnnotationStep(annotation=annotation, event=event, decisions=decisions)
            for event, decisions in by_event.items())
        annotation.index, annotation.summary = index, summary
        Annotation.objects.filter(pk=annotation.pk).update(index=index, summary=summary)


HandIndex = tuple[int, tuple[tuple[int, int, bool], ...], list[Any]]


def hand_index(match: Match, hand_number: int) -> HandIndex | None:
    """A hand's annotation: its primary key, which events have whose decisions (and whether
    one is a mistake), and the per-player summary.

    Every step of a replay reads it, so a finished match's is kept per process: it can't
    change until the match is annotated again, which starts a new run (and a new key)."""
    if match.annotation_status != Match.Status.DONE:
        return _read_index(match.pk, hand_number)
    key = (match.pk, match.annotation_run, hand_number)
    found = _KEPT_INDEXES.get(key)
    if found is None:
        found = _read_index(match.pk, hand_number)
        if found is not None:
            _KEPT_INDEXES.keep(key, found)
    return found


# Finished hands' indexes by (match, run, hand), oldest first; bounded (a few MB).
_KEPT_INDEXES: Kept[tuple[int, int, int], HandIndex] = Kept(at_most=512)


def _read_index(match_pk: int, hand_number: int) -> HandIndex | None:
    annotation = (Annotation.objects.filter(hand__match_id=match_pk, hand__number=hand_number,
                                            engine_version=ENGINE_VERSION)
                  .only("pk", "index", "summary").first())
    if annotation is None:
        return None
    if annotation.index is None:  # stored before steps were: split it once
        annotation.refresh_from_db(fields=["data"])
        store_steps(annotation)
    index = tuple((event, who, bool(mistake)) for event, who, mistake in annotation.index or [])
    return annotation.pk, index, annotation.summary or []


# Read on every step with decisions: compiled once (replays/prepared.py).
_STORED_STEP: Prepared[AnnotationStep] = Prepared(
    lambda annotation, event: AnnotationStep.objects.filter(
        annotation_id=annotation, event=event).only("decisions").order_by(), 1_000_000_001,
    1_000_000_002)


def panel(match: Match, hand_number: int, step: int, seat: int | None,
          spoilers: bool = True) -> dict[str, Any] | None:
    """The annotation panel: the decisions before the next event, and where others are."""
    found = hand_index(match, hand_number)
    if found is None:
        return None
    annotation_pk, index, summary = found
    from replays.annotation import value_view

    # One verdict (issue 27): where the values pass priced a decision, its mistake flag is
    # the value's, not the shape's; the shape's stands for decisions not valued.
    by_value = value_view.value_mistakes(match, hand_number)
    entries = [(event, who, by_value.get((event, who), mistake))
               for event, who, mistake in index if seat is None or who == seat]
    decisions: list[dict[str, Any]] = []
    if any(event == step + 1 for event, _who, _mistake in entries):
        row = _STORED_STEP.first(annotation_pk, step + 1)
        stored = row.decisions if row is not None else []
        decisions = [_ranked(d) for d in stored if seat is None or d["seat"] == seat]
    value_view.attach(match, hand_number, decisions)
    steps = sorted({event - 1 for event, _who, _mistake in entries})
    mistakes = sorted({event - 1 for event, _who, mistake in entries if mistake})

    def at(target: int | None) -> str | None:
        return None if target is None else step_url(match, hand_number, target, seat,
                                                     spoilers)

    hand_values = value_view.hand_summary(match, hand_number)
    valued_seats = {row["seat"] for row in hand_values}
    return {
        "decisions": decisions,
        "best_discards": value_view.best_discards(decisions) if spoilers else None,
        # The shape's summary only for seats not valued: one verdict per seat.
        "summary": [row for row in summary if row["seat"] not in valued_seats],
        "hand_values": hand_values,
        "match_values": value_view.match_summary(match, seat),
        "summary_key": _summary_key(match, hand_number, seat),
        "previous_decision": at(max((s for s in steps if s < step), default=None)),
        "next_decision": at(min((s for s in steps if s > step), default=None)),
        "previous_mistake": at(max((s for s in mistakes if s < step), default=None)),
        "next_mistake": at(min((s for s in mistakes if s > step), default=None)),
    }


def _summary_key(match: Match, hand_number: int, seat: int | None) -> tuple[Any, ...] | None:
    """What the hand's and match's summaries under the panel are drawn from, once neither
    pass can change them any more (a new run or more seats valued make a new key); None
    while one may."""
    if match.annotation_status != Match.Status.DONE or match.values_status not in (
            "", Match.Status.DONE):
        return None
    return (match.pk, match.annotation_run, match.values_status, match.values_run,
            tuple(match.values_seats or ()), hand_number, seat)


def _ranked(decision: dict[str, Any]) -> dict[str, Any]:
    """The decision with its alternatives best first, each knowing its own index, and what
    the choice made loses (None when nothing measurable)."""
    alternatives = [dict(alt, index=i) for i, alt in enumerate(decision["alternatives"])]
    alternatives.sort(key=lambda alt: (alt["rank"], alt["index"]))
    return dict(decision, alternatives=alternatives, loss=loss(decision),
                mistake=is_mistake(decision))
