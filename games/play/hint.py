"""The in-game hint (issue 27): the current decision's choices valued the way the review
values them, so that the hint and the review give one verdict.

The review's values pass prices a decision with
:func:`games.analysis.value_pass.price_decision` — a discard among discards in the solo
model, anything else played out at the table — and ranks the choices by expected points,
then win chance. The hint calls the same function for the decision in front of the
player, with the same sample counts and the seed the pass gives that decision
(:func:`decision_seed`: the hand's number, the event and the seat, as
:func:`~games.analysis.value_pass.value_hand` seeds it with ``seed=hand``), and ranks its
rows by expected points, then win chance, then shape (the annotation's order: shanten,
acceptance, wait values). Shape — shanten, accepted tiles, waits — is shown as the
explanation, not as the ranking.

What the player can't see stays out of it: the table model redeals the hidden tiles at
random, and the order it starts from would be the real wall's; the hint starts from a copy
of the table whose hidden tiles are put in a fixed order first (:func:`canonical_table`),
so the hint is the same whatever the wall and the other seats hold. The solo model reads
only the player's own position: its values are exactly the review's. A table-model
decision is priced on the same number of redeals but other ones, so its figures may
differ from the review's within their intervals.

The cost is bounded: the solo model's shuffles and the table model's redeals are fixed
counts, and a table-model decision with many choices is played out on fewer redeals so
that choices × redeals stays within ``max_playouts`` (the answer says on how many).

Where no choice wins on any shuffle or redeal (``no_winning_line``), or where the models
can't price the decision (one choice, a position they refuse), the rows are ranked by
shape and the answer says why.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

from games.analysis.annotation import outcomes_now
from games.analysis.ranking import places, value_key
from games.analysis.value import ValueInputError
from games.analysis.value_pass import (
    SOLO_SAMPLES,
    TABLE_SAMPLES,
    followed_up,
    price_decision,
    real_choices,
)
from games.analysis.value_table import LogPoint, hidden_tiles
from games.core.events import Event
from games.core.table import Phase, Table

MAX_PLAYOUTS = 160  # table model: choices × redeals at most (10 choices at 16 redeals)
MIN_TABLE_SAMPLES = 4


def decision_seed(hand: int, event: int, seat: int) -> int:
    """The pricing seed the values pass gives the decision before ``event`` of hand ``hand``
    by ``seat`` (``value_hand(..., seed=hand)``).

    >>> decision_seed(1, 12, 2)
    1000089
    """
    return (hand * 1_000_003 + event * 7 + seat) % 2**31


def decision_json(table: Table, seat: int, kind: str, options: Sequence[Event]) -> dict[str, Any]:
    """The decision as the annotation lists it: its kind, the event it leads to, and each
    option's outcome (the pass last, where there is one)."""
    outcomes = outcomes_now(table, seat, options)
    return {"event": table.seen_events + 1, "seat": seat, "kind": kind, "actual": None,
            "alternatives": [outcome.to_json() for outcome in outcomes]}


def canonical_table(table: Table, seat: int) -> Table:
    """A copy of ``table`` whose hidden tiles (the other seats' concealed tiles and the
    wall) are dealt again in sorted order: the same multiset, in an order that depends on
    nothing ``seat`` can't see."""
    hidden = sorted(hidden_tiles(table, seat), key=lambda t: t.kind)
    dealt = copy.deepcopy(table, {id(table.setup): table.setup})
    start = 0
    for other, state in enumerate(dealt.seats):
        if other == seat or (state.won and table.PLAY_ON):
            continue
        size = state.size
        counts = [0] * len(state.hand)
        for tile in hidden[start : start + size]:
            counts[tile.kind] += 1
        state.hand = counts
        start += size
    if dealt.wall is not None:
        dealt.wall[dealt.front : dealt.back] = hidden[start:]
    return dealt


def value_hint(table: Table, seat: int, kind: str, options: Sequence[Event], hand: int,
               solo_samples: int = SOLO_SAMPLES, table_samples: int = TABLE_SAMPLES,
               max_playouts: int = MAX_PLAYOUTS) -> dict[str, Any]:
    """The hint for ``seat``'s decision ``kind`` with ``options`` at ``table`` in hand
    ``hand``: the options as the annotation shows them, each with its value where the
    models give one, ranked (``rank`` 1 = best; None for a choice that can't be carried
    through, e.g. ready with a hand a discard can't leave ready, PT-5.3).

    ``ranked_by`` says how: ``value`` (expected points, then win chance, then shape),
    ``shape`` with ``reason`` ``no_winning_line`` or ``not_valued`` (one choice, or a
    position the models refuse), and ``model``/``samples`` say how it was valued."""
    decision = decision_json(table, seat, kind, options)
    alternatives = decision["alternatives"]
    playable = real_choices(decision)
    out: dict[str, Any] = {"decision": kind, "event": decision["event"], "model": None,
                           "samples": 0, "ranked_by": "shape", "reason": "not_valued",
                           "no_winning_line": False}
    valued: dict[str, Any] | None = None
    if len(playable) > 1:
        solo = (kind == "turn" and table.phase is Phase.TURN
                and all(alternatives[i]["action"].get("type") == "discard" for i in playable))
        samples = table_samples
        if not solo and len(playable) * table_samples > max_playouts:
            samples = max(MIN_TABLE_SAMPLES, max_playouts // len(playable))
        point = LogPoint(canonical_table(table, seat), hand, decision["event"], seat)
        try:
            valued = price_decision(point, decision, solo_samples, samples,
                                    decision_seed(hand, decision["event"], seat))
        except ValueInputError:
            valued = None
    rows: list[dict[str, Any]] = []
    by_index = {r["index"]: r for r in valued["alternatives"]} if valued else {}
    for index, alternative in enumerate(alternatives):
        row = dict(alternative)
        row["index"] = index
        row["shape_rank"] = alternative.get("rank", 99)
        row["can"] = followed_up(alternative)
        priced = by_index.get(index)
        if priced is not None:
            row["win_probability"] = priced["win_probability"]
            row["expected_points"] = priced["expected_points"]
            row["ci95"] = priced["ci95"]
            row["exact"] = priced["exact"]
        rows.append(row)
    if valued is not None:
        out.update(model=valued["model"], samples=valued["samples"],
                   no_winning_line=valued["no_winning_line"])
        if valued["no_winning_line"]:
            out["reason"] = "no_winning_line"
        else:
            out.update(ranked_by="value", reason=None)
    # One ranking (games.analysis.ranking): the same key and places as the review's table.
    def order(row: dict[str, Any]) -> tuple[Any, ...]:
        if out["ranked_by"] == "value" and "expected_points" in row:
            return (0, value_key(row["expected_points"], row["win_probability"],
                                 row["shape_rank"]))
        return (1, (0.0, 0.0, row["shape_rank"]))

    ranked = sorted((r for r in rows if r["can"]), key=lambda r: (order(r), r["index"]))
    for row, place in zip(ranked, places([order(r) for r in ranked]), strict=True):
        row["rank"] = place
    for row in rows:
        if not row["can"]:
            row["rank"] = None
    out["options"] = ranked + [r for r in rows if not r["can"]]
    return out
