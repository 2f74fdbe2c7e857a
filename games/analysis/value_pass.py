"""Values for a hand's annotated decisions: what each alternative was worth, the loss
against the best, its severity and a sentence saying why (docs/analysis.md).

The annotation (:mod:`games.analysis.annotation`) lists every decision with its alternatives; this
module prices them. A discard among discards is valued in the ``solo`` model
(:func:`games.analysis.value.solo_values`: exact when ready or 1-shanten, Monte Carlo on shared
shuffles otherwise); every other decision — a claim or a pass, 定缺, a contract answer,
a win, a kong, 抢金, a bomb, ready — is played out in the ``table`` model
(:mod:`games.analysis.value_table`), all its choices on the same redeals with the same bot dice.
Either way the differences between choices are paired, so a loss comes with a 95%
interval of its own.

A choice is a **mistake** only when the interval of its paired difference to the best
choice excludes zero and the loss passes the small threshold. Thresholds are measured in
the decision's own *win unit* — what a win of the best choice is worth on average — so
they mean the same in every variant's currency:

- ``none``: the loss is below ``SMALL`` (0.02) win units, or its interval holds zero;
- ``small``: from ``SMALL`` win units (as much as giving up 2 wins in 100);
- ``big``: from ``BIG`` (0.10) win units (10 wins in 100).

>>> severity(0.5, 10.0, (0.2, 0.8))
'small'
>>> severity(1.5, 10.0, (1.0, 2.0))
'big'
>>> severity(1.5, 10.0, (-0.1, 3.0))
'none'
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from games.analysis.ranking import value_key
from games.analysis.value import Choice, ValueInputError, mean_and_half_width, solo_values
from games.analysis.value_table import (
    LogPoint,
    Playout,
    Result,
    played_or_none,
    position_of,
    redeal,
)
from games.core.table import Action, Phase, Table
from games.core.tiles import Tile
from games.records.log import Event

VALUE_MODEL_VERSION = "values-3"  # 3: strong playouts, claims by seat, solo aims at JX-5.3
SMALL = 0.02  # win units: a loss from here is a small mistake
BIG = 0.10  # win units: a big one
SOLO_SAMPLES = 100  # shuffles for a Monte Carlo discard
TABLE_SAMPLES = 16  # redeals for a decision played out at the table


def severity(loss: float, unit: float, interval: tuple[float, float]) -> str:
    """``none``, ``small`` or ``big`` for a loss in points, a win unit in points and the
    loss's 95% interval (a loss is positive: the best minus this choice)."""
    if interval[0] <= 0.0 or unit <= 0:
        return "none"
    share = loss / unit
    if share >= BIG:
        return "big"
    return "small" if share >= SMALL else "none"


@dataclass
class Priced:
    """One alternative's value (``index``: its place in the annotation's list)."""

    index: int
    win: float
    points: float
    win_ci: tuple[float, float]
    points_ci: tuple[float, float]
    exact: bool
    samples: tuple[list[float], list[float]] | None  # per sample (win, points)
    won_points: float | None = None  # mean points of the samples this choice won
    details: dict[str, Any] | None = None  # table model: what the points came from

    @classmethod
    def of(cls, index: int, choice: Choice) -> Priced:
        return cls(index, choice.win_probability, choice.expected_points,
                   (choice.win_interval.low, choice.win_interval.high),
                   (choice.points_interval.low, choice.points_interval.high),
                   choice.exact, choice.per_sample)

    def unit(self) -> float:
        """What a win of this choice is worth on average (points per win)."""
        if self.won_points is not None:
            return self.won_points
        return self.points / self.win if self.win > 0 else 0.0


def loss_interval(best: Priced, other: Priced) -> tuple[float, float, float]:
    """(loss, low, high): the best choice's points minus this one's, with its 95% interval,
    paired sample by sample where both were sampled on the same deals.

    >>> a = Priced(0, 0.5, 4.0, (0.5, 0.5), (4.0, 4.0), True, None)
    >>> b = Priced(1, 0.25, 2.0, (0.25, 0.25), (2.0, 2.0), True, None)
    >>> loss_interval(a, b)
    (2.0, 2.0, 2.0)
    """
    loss = best.points - other.points
    if best.samples is not None and other.samples is not None:
        diffs = [a - b for a, b in zip(best.samples[1], other.samples[1], strict=True)]
        mean, half = mean_and_half_width(diffs)
        return mean, mean - half, mean + half
    if best.samples is None and other.samples is None:
        return loss, loss, loss
    sampled = best if best.samples is not None else other
    half = (sampled.points_ci[1] - sampled.points_ci[0]) / 2
    return loss, loss - half, loss + half


# -- pricing one decision -----------------------------------------------------------------


def _is_discard(alternative: dict[str, Any]) -> bool:
    return bool(alternative["action"].get("type") == "discard")


def _actions_by_json(table: Table, seat: int) -> dict[str, Action | None]:
    found: dict[str, Action | None] = {"pass": None}
    for action in table.legal_actions():
        if action.seat == seat:
            found.setdefault(_key(action.event.to_json()), action)
    return found


def _key(event: dict[str, Any]) -> str:
    if event.get("type") == "pass":
        return "pass"
    return repr(sorted((k, repr(v)) for k, v in event.items() if k != "actor"))


def followed_up(alternative: dict[str, Any]) -> bool:
    """Whether a choice can be carried through: a ready declaration needs a discard that
    leaves the hand ready (PT-5.3: "declared ready, but their hand is not ready"), which
    the annotation's shanten after its best discard tells.

    >>> followed_up({"action": {"type": "ready"}, "shanten": 1})
    False
    >>> followed_up({"action": {"type": "ready"}, "shanten": 0})
    True
    """
    return alternative["action"].get("type") != "ready" or alternative.get("shanten") == 0


def real_choices(decision: dict[str, Any]) -> list[int]:
    """The indices of the decision's alternatives that can be carried through."""
    return [i for i, alt in enumerate(decision["alternatives"]) if followed_up(alt)]


def price_solo(point: LogPoint, decision: dict[str, Any], samples: int,
               seed: int) -> list[Priced]:
    """A discard among discards in the solo model: every discard, on the same shuffles."""
    alternatives = decision["alternatives"]
    tiles = {alternatives[i]["action"]["tile"]: i for i in real_choices(decision)}
    table = point.table
    draws = min(table.tiles_left // max(len(table.players_in()), 1), 40)
    valuation = solo_values(position_of(point), draws, samples, seed,
                            only={Tile.parse(t) for t in tiles})
    return [Priced.of(tiles[str(c.discard)], c) for c in valuation.choices
            if str(c.discard) in tiles]


def price_table(point: LogPoint, decision: dict[str, Any], samples: int,
                seed: int) -> list[Priced]:
    """Any other decision: every choice that can be carried through played out at the
    table on the same redeals."""
    alternatives = decision["alternatives"]
    legal = _actions_by_json(point.table, point.seat)
    picked: list[tuple[int, Action | None]] = []
    for index in real_choices(decision):
        key = _key(alternatives[index]["action"])
        if key in legal:
            picked.append((index, legal[key]))
    if len(picked) < 2:
        return []
    results = paired_playouts(point, [a for _, a in picked], samples, seed)
    priced = []
    for (index, _action), result in zip(picked, results, strict=True):
        if result is None or not result.wins:
            continue
        win, win_half = mean_and_half_width(result.wins)
        points, half = mean_and_half_width(result.points)
        won = [p for w, p in zip(result.wins, result.points, strict=True) if w]
        priced.append(Priced(index, win, points, (max(win - win_half, 0.0),
                                                  min(win + win_half, 1.0)),
                             (points - half, points + half), False,
                             (result.wins, result.points),
                             sum(won) / len(won) if won else None,
                             where_from(result.results)))
    return priced


def where_from(results: Sequence[Result]) -> dict[str, Any]:
    """What a choice's points came from over its redeals: how often it won by self-draw,
    and per payment cause (``win``, ``kong``, ``not_ready`` for 查大叫, ``flower_pig``...)
    the share of redeals where such payments brought the seat points, the share where
    they cost it points, and their mean net (the explanations quote them).

    >>> where_from([Result(True, 6, True, (("win", 6),)), Result(False, -2, False,
    ...             (("not_ready", -2),))])
    {'self_draw': 0.5, 'causes': {'not_ready': [0.0, 0.5, -1.0], 'win': [0.5, 0.0, 3.0]}}
    """
    count = max(len(results), 1)
    totals: dict[str, list[int]] = {}
    for result in results:
        for cause, amount in result.causes:
            total = totals.setdefault(cause, [0, 0, 0])
            total[0] += amount > 0
            total[1] += amount < 0
            total[2] += amount
    return {"self_draw": round(sum(r.self_drawn for r in results) / count, 4),
            "causes": {cause: [round(gained / count, 4), round(lost / count, 4),
                               round(net / count, 4)]
                       for cause, (gained, lost, net) in sorted(totals.items())}}


def paired_playouts(point: LogPoint, choices: Sequence[Action | None], samples: int,
                    seed: int) -> list[Playout | None]:
    """Every choice played out on the same ``samples`` redeals (None: a choice the bots
    can't play out). A bot can meet a redeal that contradicts the table — a ready
    declaration the redealt hand no longer keeps (PT-5.3), a seat left no legal move —
    or play a declaration it can't follow up: a choice failing on more than a quarter of
    the redeals is left unvalued, and a redeal failing for a kept choice is dropped for
    every choice, so the rest stay paired."""
    rng = random.Random(seed)
    table: list[list[Result | None]] = []
    for _ in range(samples):
        dealt = redeal(point.table, point.seat, rng)
        bot_seed = rng.randrange(2**31)
        table.append([played_or_none(dealt, point.seat, c, bot_seed) for c in choices])
    kept = [sum(row[i] is None for row in table) * 4 <= samples for i in range(len(choices))]
    rows = [row for row in table if all(row[i] is not None for i in range(len(row)) if kept[i])]
    results: list[Playout | None] = []
    for i, keep in enumerate(kept):
        outcomes = [row[i] for row in rows]
        kept_results = [o for o in outcomes if o is not None]
        results.append(Playout([float(o.won) for o in kept_results],
                               [float(o.net) for o in kept_results], kept_results)
                       if keep else None)
    return results


def price_decision(point: LogPoint, decision: dict[str, Any], solo_samples: int,
                   table_samples: int, seed: int) -> dict[str, Any] | None:
    """The values of one decision (None when it has fewer than two choices to price)."""
    alternatives = decision["alternatives"]
    solo = (decision["kind"] == "turn" and point.table.phase is Phase.TURN
            and all(_is_discard(alternatives[i]) for i in real_choices(decision)))
    if solo:
        priced = price_solo(point, decision, solo_samples, seed)
    else:
        priced = price_table(point, decision, table_samples, seed)
    if len(priced) < 2:
        return None
    # One ranking (games/analysis/ranking.py): points, then win chance, then shape.
    priced.sort(key=lambda p: (*value_key(p.points, p.win, alternatives[p.index].get("rank", 0)),
                               p.index))
    return judged(decision, priced, "solo" if solo else "table",
                  solo_samples if solo else table_samples, point)


def no_winning_line(priced: Sequence[Priced]) -> bool:
    """Whether no choice has any value: none won on any shuffle or redeal, and none is
    worth more points than another (in the solo model, every win chance is zero: a
    Jiaxing hand no draws left can bring to a win JX-5.3 allows, say). No choice is
    then best.

    >>> nothing = Priced(0, 0.0, 0.0, (0.0, 0.0), (0.0, 0.0), True, None)
    >>> no_winning_line([nothing, Priced(1, 0.0, 0.0, (0.0, 0.0), (0.0, 0.0), True, None)])
    True
    >>> no_winning_line([nothing, Priced(1, 0.0, -1.0, (0.0, 0.0), (-1.0, -1.0), False, None)])
    False
    """
    first = round(priced[0].points, 6)
    return all(p.win == 0 and round(p.points, 6) == first for p in priced)


def judged(decision: dict[str, Any], priced: Sequence[Priced], model: str, samples: int,
           point: LogPoint) -> dict[str, Any]:
    """The priced alternatives with each one's loss, and the verdict on the choice made;
    with no winning line (:func:`no_winning_line`) no choice is best (``best`` None) and
    none is a mistake."""
    best = priced[0]
    no_line = no_winning_line(priced)
    unit = best.unit() or max((p.unit() for p in priced), default=0.0) or 1.0
    rows = []
    for p in priced:
        loss, low, high = loss_interval(best, p)
        rows.append({"index": p.index, "win_probability": round(p.win, 4),
                     "expected_points": round(p.points, 4),
                     "ci95": {"win_probability": [round(p.win_ci[0], 4), round(p.win_ci[1], 4)],
                              "expected_points": [round(p.points_ci[0], 4),
                                                  round(p.points_ci[1], 4)]},
                     "exact": p.exact, "loss": round(loss, 4),
                     "loss_ci95": [round(low, 4), round(high, 4)],
                     "severity": "none" if p is best or no_line
                     else severity(loss, unit, (low, high)),
                     **(p.details or {})})
    out: dict[str, Any] = {"event": decision["event"], "seat": decision["seat"],
                           "kind": decision["kind"], "model": model, "samples": samples,
                           "unit": round(unit, 4), "best": None if no_line else best.index,
                           "no_winning_line": no_line,
                           "actual": decision.get("actual"), "alternatives": rows,
                           "cannot": [i for i, alt in enumerate(decision["alternatives"])
                                      if not followed_up(alt)]}
    actual = next((r for r in rows if r["index"] == decision.get("actual")), None)
    out["valued_actual"] = actual is not None

    def key(row: dict[str, Any]) -> tuple[float, float, int]:
        return value_key(row["expected_points"], row["win_probability"],
                         decision["alternatives"][row["index"]].get("rank", 0))

    # Best taken: the choice made shares the first place (games/analysis/ranking.py) — an
    # exact tie with the first row is the best too, as the viewer ranks it.
    out["best_taken"] = bool(not no_line and actual is not None and key(actual) == key(rows[0]))
    out["loss"] = actual["loss"] if actual else 0.0
    out["severity"] = actual["severity"] if actual else "none"
    out["mistake"] = out["severity"] != "none"
    out["explanation"] = (explain(decision, rows, best.index, actual, point)
                          if out["mistake"] and actual else None)
    return out


# -- explanations ---------------------------------------------------------------------------


def explain(decision: dict[str, Any], rows: Sequence[dict[str, Any]], best: int,
            actual: dict[str, Any], point: LogPoint) -> dict[str, Any]:
    """Why the choice made was worse, as a sentence id and its parameters, all from the
    computed differences (the site words it in each language)."""
    alternatives = decision["alternatives"]
    mine, theirs = alternatives[actual["index"]], alternatives[best]
    best_row = next(r for r in rows if r["index"] == best)
    params: dict[str, Any] = {
        "best": theirs["action"], "actual": mine["action"],
        "win_best": round(100 * best_row["win_probability"], 1),
        "win_actual": round(100 * actual["win_probability"], 1),
        "points_best": round(best_row["expected_points"], 2),
        "points_actual": round(actual["expected_points"], 2),
        "loss": round(actual["loss"], 2)}
    kind = decision["kind"]
    if point.table.PLAY_ON and mine.get("win") and not theirs.get("win"):
        return {"id": "play_on", "params": dict(params, **_play_on(mine, best_row))}
    pig = _flower_pig(best_row, actual)
    if pig is not None and pig["pig_cost"] >= actual["loss"] / 2:
        return {"id": "flower_pig", "params": dict(params, **pig)}
    if kind == "dingque":
        return {"id": "void_suit", "params": params}
    if kind == "contract":
        return {"id": "contract", "params": params}
    if theirs.get("win") and not mine.get("win"):
        return {"id": "missed_win", "params": dict(params, win_points=int(
            theirs["win"].get("points", 0)))}
    if mine["action"].get("type") == "discard" and _discards_wildcard(point, mine):
        return {"id": "wildcard_spent", "params": params}
    if theirs.get("shanten") is not None and mine.get("shanten") is not None:
        if mine["shanten"] > theirs["shanten"]:
            return {"id": "more_shanten", "params": dict(
                params, steps=mine["shanten"] - theirs["shanten"])}
        gap = theirs.get("accepted_count", 0) - mine.get("accepted_count", 0)
        if mine["shanten"] < theirs["shanten"]:
            return {"id": "nearer_but_narrower", "params": dict(
                params, tiles_best=theirs.get("accepted_count", 0),
                tiles_actual=mine.get("accepted_count", 0))}
        if gap > 0:
            return {"id": "fewer_tiles", "params": dict(
                params, tiles_best=theirs.get("accepted_count", 0),
                tiles_actual=mine.get("accepted_count", 0))}
        best_wait, my_wait = _best_wait(theirs), _best_wait(mine)
        if mine["shanten"] == 0 and best_wait > my_wait:
            return {"id": "cheaper_wait", "params": dict(
                params, wait_best=best_wait, wait_actual=my_wait)}
    if kind in ("claim", "rob_kong"):
        return {"id": "claim", "params": params}
    return {"id": "lower_value", "params": params}


def _play_on(taken: dict[str, Any], best: dict[str, Any]) -> dict[str, Any]:
    """A win taken where playing on (SC-3.3) was worth more: the win's points, and how
    often playing on won later by self-draw and collected 查大叫 at the end (SC-6.4b)."""
    ready = best.get("causes", {}).get("not_ready", [0.0, 0.0, 0.0])
    return {"win_points": int(taken["win"].get("points", 0)),
            "self_draw": round(100 * best.get("self_draw", 0.0), 1),
            "ready_share": round(100 * ready[0], 1)}


def _flower_pig(best: dict[str, Any], actual: dict[str, Any]) -> dict[str, Any] | None:
    """How much more the choice made paid as a 花猪 (SC-6.4a: still holding the void suit
    when the wall ran out) than the best choice, from the two rows' redeals; None when
    it paid no more."""
    mine = actual.get("causes", {}).get("flower_pig")
    if mine is None:
        return None
    theirs = best.get("causes", {}).get("flower_pig", [0.0, 0.0, 0.0])
    cost = round(theirs[2] - mine[2], 2)
    if cost <= 0:
        return None
    return {"pig_actual": round(100 * mine[1], 1), "pig_best": round(100 * theirs[1], 1),
            "pig_cost": cost}


def _discards_wildcard(point: LogPoint, alternative: dict[str, Any]) -> bool:
    return point.table.is_wild(Tile.parse(alternative["action"]["tile"]).kind)


def _best_wait(alternative: dict[str, Any]) -> int:
    return max((int(w["score"].get("points", 0)) for w in alternative.get("waits", [])),
               default=0)


# -- a whole hand ---------------------------------------------------------------------------


def value_hand(table: Table, events: Sequence[Event], hand: int,
               decisions: Sequence[dict[str, Any]], seats: Collection[int], seed: int = 0,
               solo_samples: int = SOLO_SAMPLES,
               table_samples: int = TABLE_SAMPLES) -> dict[str, Any]:
    """Values of the hand's decisions by ``seats`` (``table`` at the hand's start, its
    ``events``, the annotation's ``decisions``), and each seat's summary.

    The table is replayed once; each decision is priced just before its event with a
    seed of its own (``seed``, the event and the seat), so a hand's values are the same
    whichever worker computes them and in whatever order.
    """
    wanted: dict[int, list[dict[str, Any]]] = {}
    for decision in decisions:
        if decision["seat"] in seats and len(decision["alternatives"]) > 1:
            wanted.setdefault(decision["event"], []).append(decision)
    valued: list[dict[str, Any]] = []
    for number, event in enumerate(events, start=1):
        for decision in wanted.get(number, []):
            point = LogPoint(table, hand, number, decision["seat"])
            own_seed = (seed * 1_000_003 + number * 7 + decision["seat"]) % 2**31
            try:
                priced = price_decision(point, decision, solo_samples, table_samples,
                                        own_seed)
            except ValueInputError:
                priced = None  # no choice the models can price here (e.g. a wall too short)
            if priced is not None:
                valued.append(priced)
        if event.type == "end":
            break
        table.apply(event)
    return {"version": VALUE_MODEL_VERSION, "hand": hand, "decisions": valued,
            "summary": [summary(valued, seat) for seat in sorted(seats)]}


def summary(valued: Sequence[dict[str, Any]], seat: int) -> dict[str, Any]:
    """A seat's figures over valued decisions: how many, how often the best was taken,
    mistakes (small, big) and the points they lost. Decisions with no winning line have
    no best to take: they are counted apart (``no_line``), not among ``decisions``.

    >>> figures = summary([{"seat": 0, "best": 1, "actual": 1, "mistake": False, "loss": 0.0,
    ...                     "severity": "none", "valued_actual": True},
    ...                    {"seat": 0, "best": None, "actual": 0, "mistake": False,
    ...                     "loss": 0.0, "severity": "none", "valued_actual": True,
    ...                     "no_winning_line": True}], 0)
    >>> figures["decisions"], figures["best_taken"], figures["no_line"]
    (1, 1, 1)
    """
    valued_here = [d for d in valued if d["seat"] == seat and d["valued_actual"]]
    mine = [d for d in valued_here if not d.get("no_winning_line")]
    mistakes = [d for d in mine if d["mistake"]]
    return {"seat": seat, "decisions": len(mine),
            "best_taken": sum(1 for d in mine if d.get("best_taken", d["best"] == d["actual"])),
            "mistakes": len(mistakes),
            "big": sum(1 for d in mistakes if d["severity"] == "big"),
            "points_lost": round(sum(d["loss"] for d in mistakes), 4),
            "no_line": len(valued_here) - len(mine)}
