"""What the viewer and the trends page show of the values pass (docs/analysis.md).

Each alternative of a shown decision gets its win chance, expected points, a bar (full for
the best choice, shorter by the loss measured in wins of this decision's value: a loss of a
whole win's value empties it), its loss and severity; the hand's and the match's summaries
add up the seat's rows; the trends page lists a player's own matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

from replays.annotation.values import current_values
from replays.kept import Kept
from replays.matches.links import step_url
from replays.models import HandValues, Match

BIGGEST = 5  # mistakes listed in a match's summary


def bar(points: float, best: float, loss: float, unit: float) -> int:
    """The bar's width in percent: this choice's expected points as a share of the best
    choice's; where the best is worth nothing or less (the table model's net results can
    be negative), full less the loss counted in wins of this decision's value.

    >>> bar(0.5, 2.0, 1.5, 4.0), bar(2.0, 2.0, 0.0, 4.0), bar(-1.0, -0.5, 0.5, 2.0)
    (25, 100, 75)
    """
    if best > 0:
        return max(0, min(100, round(100 * points / best)))
    if unit <= 0:
        return 100
    return max(0, min(100, round(100 * (1 - loss / unit))))


def attach(match: Match, hand_number: int, decisions: list[dict[str, Any]]) -> None:
    """Add each decision's values (``decision["values"]``) and each alternative's
    (``alt["value"]``) where the values pass has priced them, then rank every decision's
    choices by the one ranking (:func:`rank_decision`)."""
    seats = valued_seats(match) or frozenset(d["seat"] for d in decisions)
    for decision in decisions:
        # Always a key: a template's ``decision.values`` would otherwise find dict.values().
        decision.setdefault("values", None)
    by_key = (_hand_values(match, hand_number, seats)
              if decisions and match.values_status else {})
    for decision in decisions:
        valued = by_key.get((decision["event"], decision["seat"]))
        if valued is not None:
            decision["values"] = valued
            priced = {row["index"]: row for row in valued["alternatives"]}
            for alt in decision["alternatives"]:
                row = priced.get(alt["index"])
                if row is not None:
                    alt["value"] = dict(row)
        rank_decision(decision)


def rank_decision(decision: dict[str, Any]) -> None:
    """Rank a decision's choices by the one ranking (games/analysis/ranking.py), in place.

    Sets ``decision["ranked_by"]`` (``value``; ``no_line`` when no choice can win, ranked
    by shape; ``shape`` when there are no values), ``decision["verdict"]`` (below), and per
    alternative ``place`` (None: not ranked — not a choice here, or not played out),
    ``not_a_choice`` and ``is_best`` (place 1 by value: the star); the alternatives are put
    in that order, unranked ones last. Each valued alternative's ``value`` gets its bar.

    The verdict on the choice made: ``best`` (place 1 by value), ``mistake`` (the values
    pass's severity is small or big), ``no_clear_loss`` (worth less, but within the
    noise), ``no_line``, ``shape`` (no values: the annotation's shape verdict stands),
    or ``unvalued`` (the choice made wasn't priced).

    >>> d = {"actual": 1, "values": {"best": 0, "unit": 4.0, "cannot": [2], "severity": "none",
    ...      "no_winning_line": False}, "alternatives": [
    ...     {"index": 0, "rank": 1, "action": {"type": "discard"},
    ...      "value": {"expected_points": 0.16, "win_probability": 0.2, "loss": 0.0,
    ...                "severity": "none"}},
    ...     {"index": 1, "rank": 5, "action": {"type": "discard"},
    ...      "value": {"expected_points": 0.18, "win_probability": 0.2, "loss": 0.0,
    ...                "severity": "none"}},
    ...     {"index": 2, "rank": 1, "shanten": 1, "action": {"type": "ready"}}]}
    >>> rank_decision(d)
    >>> [(a["index"], a["place"], a["is_best"]) for a in d["alternatives"]], d["verdict"]
    ([(1, 1, True), (0, 2, False), (2, None, False)], 'best')
    """
    from games.analysis.ranking import places, value_key
    from games.analysis.value_pass import followed_up

    values = decision.get("values")
    alternatives = decision["alternatives"]
    cannot = set(values.get("cannot", ())) if values else set()
    for alt in alternatives:
        alt["not_a_choice"] = alt["index"] in cannot or not followed_up(alt)
        alt["is_best"] = False
        alt["place"] = None
    no_line = bool(values and values.get("no_winning_line"))
    if values and not no_line:
        decision["ranked_by"] = "value"
        ranked = [a for a in alternatives if a.get("value") and not a["not_a_choice"]]
        keyed = sorted(((value_key(a["value"]["expected_points"],
                                   a["value"]["win_probability"], a["rank"]), a)
                        for a in ranked), key=lambda pair: (pair[0], pair[1]["index"]))
    else:
        decision["ranked_by"] = "no_line" if no_line else "shape"
        # By shape: the annotation's own ranks (rank 1 stays 1 when a non-choice is left out).
        ranked = [a for a in alternatives if not a["not_a_choice"]]
        keyed = sorted((((0.0, 0.0, a["rank"]), a) for a in ranked),
                       key=lambda pair: (pair[0], pair[1]["index"]))
    shown = (places([k for k, _a in keyed]) if decision["ranked_by"] == "value"
             else [a["rank"] for _k, a in keyed])
    for place, (_key, alt) in zip(shown, keyed, strict=True):
        alt["place"] = place
        alt["is_best"] = place == 1 and decision["ranked_by"] == "value"
    order = [a for _k, a in keyed]
    decision["alternatives"] = order + [a for a in alternatives if a["place"] is None]
    if values:
        top = next((a["value"] for a in order if a["is_best"]), None)
        for alt in decision["alternatives"]:
            value = alt.get("value")
            if value is None:
                continue
            if top is None or alt["not_a_choice"]:
                value.update(bar=0, is_best=False, no_line=True)
            else:
                value.update(bar=bar(value["expected_points"], top["expected_points"],
                                     value["loss"], values["unit"]), is_best=alt["is_best"])
    decision["verdict"] = _verdict(decision)


def _verdict(decision: dict[str, Any]) -> str:
    values = decision.get("values")
    if decision["ranked_by"] == "shape":
        return "shape"
    if decision["ranked_by"] == "no_line":
        return "no_line"
    actual = next((a for a in decision["alternatives"]
                   if a["index"] == decision.get("actual")), None)
    if actual is None or actual["place"] is None:
        return "unvalued"
    if actual["place"] == 1:
        return "best"
    return "mistake" if values and values.get("mistake") else "no_clear_loss"


def _hand_values(match: Match, hand_number: int,
                 seats: frozenset[int]) -> dict[tuple[int, int], dict[str, Any]]:
    """The hand's valued decisions of these seats by (event, seat); kept per process once
    the pass is done, as the hand's steps are stepped through one after another."""
    key = _rows_key(match)
    found = None if key is None else _KEPT_HANDS.get((key, hand_number, seats))
    if found is None:
        rows = current_values(match).filter(hand__number=hand_number,
                                            seat__in=seats).values_list("data", flat=True)
        found = {(v["event"], v["seat"]): v for data in rows for v in data}
        if key is not None:
            _KEPT_HANDS.keep((key, hand_number, seats), found)
    return found


def best_discards(decisions: Sequence[dict[str, Any]]) -> dict[int, str]:
    """Per seat, the tile of its best-value choice at this step when that is a discard
    (the board marks it in the seat's hand).

    >>> best_discards([{"seat": 2, "values": {"best": 1}, "alternatives": [
    ...     {"index": 0, "action": {"type": "pass"}},
    ...     {"index": 1, "action": {"type": "discard", "tile": "5m"}}]}])
    {2: '5m'}
    >>> best_discards([{"seat": 2, "values": {"best": None, "no_winning_line": True},
    ...                 "alternatives": [{"index": 0, "action": {"type": "discard",
    ...                                                          "tile": "5m"}}]}])
    {}
    """
    found: dict[int, str] = {}
    for decision in decisions:
        values = decision.get("values")
        if not values or values.get("best") is None:  # no winning line: nothing to mark
            continue
        if "ranked_by" in decision:  # ranked (rank_decision): its first place by value
            firsts = [alt for alt in decision["alternatives"] if alt.get("is_best")]
        else:
            firsts = [alt for alt in decision["alternatives"] if alt["index"] == values["best"]]
        action: dict[str, Any] = firsts[0]["action"] if firsts else {}
        if action.get("type") == "discard":
            found[decision["seat"]] = action["tile"]
    return found


def valued_seats(match: Match) -> frozenset[int]:
    """The seats the match's values were asked for (read together, one kept set)."""
    return frozenset(match.values_seats or ())


def value_mistakes(match: Match, hand_number: int) -> dict[tuple[int, int], bool]:
    """Per valued decision of the hand, (event, seat): whether the values pass calls the
    choice made a mistake — the one verdict the viewer's "previous/next mistake" follow
    where values exist."""
    seats = valued_seats(match)
    if not match.values_status or not seats:
        return {}
    return {key: bool(v.get("mistake")) for key, v in
            _hand_values(match, hand_number, seats).items()}


def hand_summary(match: Match, hand_number: int) -> list[dict[str, Any]]:
    """Per valued seat of the hand: decisions, best taken, mistakes, points lost."""
    return [dict(row.summary) for row in sorted(_value_rows(match), key=lambda r: r.seat)
            if row.hand == hand_number]


def match_summary(match: Match, seat: int | None = None) -> list[dict[str, Any]]:
    """Per valued seat of the match: the hands' figures added up, and the biggest mistakes
    (with links to their steps). Kept per process with the rows it is made of: every step
    of a valued match shows it."""
    key = _rows_key(match)
    if key is None:
        return _match_summary(match, seat)
    return _KEPT_SUMMARIES.get_or_make((key, seat), lambda: _match_summary(match, seat))


def _match_summary(match: Match, seat: int | None) -> list[dict[str, Any]]:
    seats: dict[int, dict[str, Any]] = {}
    for row in _value_rows(match):
        if seat is not None and row.seat != seat:
            continue
        total = seats.setdefault(row.seat, {"seat": row.seat, "hands": 0, "decisions": 0,
                                            "best_taken": 0, "mistakes": 0, "big": 0,
                                            "points_lost": 0.0, "worst": []})
        total["hands"] += 1
        for name in ("decisions", "best_taken", "mistakes", "big"):
            total[name] += row.summary[name]
        total["points_lost"] += row.summary["points_lost"]
        total["worst"].extend(
            {"hand": row.hand, "event": d["event"], "step": d["event"] - 1, "loss": d["loss"],
             "severity": d["severity"], "explanation": d["explanation"], "values": d,
             "url": step_url(match, row.hand, d["event"] - 1, row.seat)}
            for d in row.mistakes)
    for total in seats.values():
        total["worst"] = sorted(total["worst"], key=lambda m: -m["loss"])[:BIGGEST]
        total["points_lost"] = round(total["points_lost"], 2)
        total["best_share"] = share(total["best_taken"], total["decisions"])
    return [seats[s] for s in sorted(seats)]


class ValueRow(NamedTuple):
    """One seat's values of one hand as the summaries need them: its figures and mistakes."""

    seat: int
    hand: int
    summary: dict[str, Any]
    mistakes: tuple[dict[str, Any], ...]


def _value_rows(match: Match) -> tuple[ValueRow, ...]:
    """The match's values rows, read whole once per process when the pass is done: every
    step shows the match's summary, and reading every hand's values for each step was most
    of a step's cost. A new run or more seats valued make a new key."""
    if not match.values_status:  # never valued: nothing to read
        return ()
    key = _rows_key(match)
    if key is None:
        return _read_value_rows(match)
    return _KEPT_ROWS.get_or_make(key, lambda: _read_value_rows(match))


def _rows_key(match: Match) -> tuple[Any, ...] | None:
    """What a finished pass's rows are kept under; None while the pass may still change."""
    if match.values_status != Match.Status.DONE:
        return None
    return (match.pk, match.values_run, match.annotation_run, tuple(match.values_seats))


def _read_value_rows(match: Match) -> tuple[ValueRow, ...]:
    return tuple(
        ValueRow(seat, number, summary, tuple(d for d in data if d["mistake"]))
        for seat, number, summary, data in current_values(match).values_list(
            "seat", "hand__number", "summary", "data"))


# Finished matches' values rows, oldest first; bounded (only their mistakes are kept).
_KEPT_ROWS: Kept[tuple[Any, ...], tuple[ValueRow, ...]] = Kept(at_most=256)
_KEPT_SUMMARIES: Kept[tuple[Any, ...], list[dict[str, Any]]] = Kept(at_most=256)
# Finished hands' valued decisions (tens of kB each), for the steps of hands being viewed.
_KEPT_HANDS: Kept[tuple[Any, ...], dict[tuple[int, int], dict[str, Any]]] = Kept(at_most=128)


def share(part: int, whole: int) -> int:
    """A percentage, rounded (0 of 0 is 0).

    >>> share(2, 3)
    67
    """
    return round(100 * part / whole) if whole else 0


def trends(user: Any) -> list[dict[str, Any]]:
    """The user's own matches with values, newest first: for each, the seats valued and
    the figures of the seat they played (the uploader's seat, else every valued seat)."""
    matches = list(Match.objects.filter(owner=user).defer("document").order_by(
        "-uploaded_at", "-id")[:200])
    by_match: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    rows = HandValues.objects.filter(hand__match__in=matches).values_list(
        "hand__match_id", "seat", "summary", "engine_version", "value_version")
    from games.analysis.annotation import ENGINE_VERSION
    from games.analysis.value_pass import VALUE_MODEL_VERSION

    for match_id, seat, summary, engine, model in rows:
        if engine == ENGINE_VERSION and model == VALUE_MODEL_VERSION:
            by_match.setdefault(match_id, []).append((seat, summary))
    out = []
    for match in matches:
        found = by_match.get(match.pk)
        if not found:
            continue
        seats = ({match.uploader_seat} if match.uploader_seat is not None
                 else {seat for seat, _ in found})
        picked = [s for seat, s in found if seat in seats]
        if not picked:
            continue
        out.append(dict(totals(picked), match=match, seats=sorted(seats)))
    return out


def totals(summaries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """Hand summaries added up, with the best-choice share and the points lost per
    decision."""
    decisions = sum(s["decisions"] for s in summaries)
    best = sum(s["best_taken"] for s in summaries)
    lost = sum(s["points_lost"] for s in summaries)
    return {"decisions": decisions, "best_taken": best, "best_share": share(best, decisions),
            "mistakes": sum(s["mistakes"] for s in summaries),
            "big": sum(s["big"] for s in summaries), "points_lost": round(lost, 2),
            "lost_per_decision": round(lost / decisions, 3) if decisions else 0.0}
