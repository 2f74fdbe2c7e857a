"""The advice as a player: a seat that takes the values pass's best choice at every
decision it faces, so the arena can measure what following the site's advice wins
(issue 26, docs/bots.md "The advice").

At each decision the seat lists its alternatives as the annotation lists them for the
table in front of it (:func:`games.analysis.annotation.outcomes_now`: the same options,
the pass included where there is one), prices them with
:func:`games.analysis.value_pass.price_decision` at the pass's own sample counts — a
discard among discards in the solo model, anything else played out at the table — and
plays the alternative ranked best, mapped back to the legal action by the event it
records. Where the pass gives no value — fewer than two choices to price, a position the
models refuse (:class:`~games.analysis.value.ValueInputError`), no best choice marked,
or a phase the annotation lists no decision for — it plays as its fallback level
(``basic`` by default; the arena gives it the level it is measured against).

The seat decides from what it is shown and its generator only: the pricing seed of a
decision comes from the generator's first number (read from a copy, so the fallback
receives the generator untouched and plays as that level would in the same seat) and
the decision's place in the hand, as :func:`~games.analysis.value_pass.value_hand`
seeds a logged decision.

The bots can't import the analysis (docs/engine.md), so the commands layer seats it:
:func:`players` is the arena's mapping of names with ``advice`` added.

>>> sorted(players("strong"))
['advice', 'basic', 'strong']
>>> players("strong")["advice"]
AdviceMaker(fallback='strong', solo_samples=100, table_samples=16)
>>> players("grandmaster")
Traceback (most recent call last):
...
ValueError: advice: no level named 'grandmaster' to fall back on (known: basic, strong)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from games.analysis.annotation import outcomes_now
from games.analysis.value import ValueInputError
from games.analysis.value_pass import SOLO_SAMPLES, TABLE_SAMPLES, _key, price_decision
from games.analysis.value_table import LogPoint
from games.bots.arena import Maker, level_makers
from games.bots.claims import CLAIM_PHASES, passing_action
from games.bots.levels import LEVELS, Seat, make_bot
from games.core.events import Event
from games.core.table import Action, Phase, Table

NAME = "advice"
DEFAULT_FALLBACK = "basic"
ARENA_HAND = 1  # an arena wall is one hand, dealt as a match's first (named in errors only)


class Advice:
    """A seat that plays the values pass's best choice, or its fallback level's where
    the pass gives no value. ``fallback`` names a level of :data:`games.bots.levels.LEVELS`;
    the sample counts default to the pass's own (tests lower them)."""

    def __init__(self, rng: random.Random, fallback: str = DEFAULT_FALLBACK,
                 solo_samples: int = SOLO_SAMPLES, table_samples: int = TABLE_SAMPLES) -> None:
        peek = random.Random()
        peek.setstate(rng.getstate())
        self.seed = peek.randrange(2**31)
        self.fallback = make_bot(fallback, rng)
        self.solo_samples = solo_samples
        self.table_samples = table_samples
        self.advised = 0  # decisions played as the pass advised
        self.fell_back = 0  # decisions played as the fallback level

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        chosen = self.advice(table, actions)
        if chosen is None:
            self.fell_back += 1
            return self.fallback.choose(table, actions)
        self.advised += 1
        return chosen

    def advice(self, table: Table, actions: Sequence[Action]) -> Action | None:
        """The legal action the values pass ranks best here, or None where it gives no value."""
        seat = actions[0].seat  # a seat is shown its own options only (docs/bots.md)
        listed = decision_now(table, seat, actions)
        if listed is None:
            return None
        decision, by_key = listed
        point = LogPoint(table, ARENA_HAND, decision["event"], seat)
        own_seed = (self.seed * 1_000_003 + decision["event"] * 7 + seat) % 2**31
        try:
            valued = price_decision(point, decision, self.solo_samples, self.table_samples,
                                    own_seed)
        except ValueInputError:
            return None  # no choice the models can price here (e.g. a wall too short)
        if valued is None or valued.get("best") is None:
            return None
        best = decision["alternatives"][valued["best"]]
        return by_key.get(_key(best["action"]))


def decision_now(table: Table, seat: int, actions: Sequence[Action]
                 ) -> tuple[dict[str, Any], dict[str, Action]] | None:
    """The decision ``seat`` faces with ``actions`` as the annotation lists it (its
    ``kind``, the event it leads to, its alternatives as JSON), and the actions by the
    key the values pass matches alternatives with; None for a phase the annotation lists
    no decision in (the Putian flower passes, a draw)."""
    phase = table.phase
    passing: Action | None = None
    if phase in CLAIM_PHASES:
        passing = passing_action(actions)
        kind = "rob_kong" if phase is Phase.ROBBABLE else "claim"
    elif phase is Phase.TURN:
        passing = next((a for a in actions if a.event.type == "pass"), None)
        kind = "rob_gold" if seat != table.turn else "turn"
    elif phase in (Phase.DINGQUE, Phase.CONTRACT):
        kind = phase.value
    else:
        return None
    options = [a.event for a in actions if a is not passing]
    if passing is not None:
        options.append(Event("pass", seat))
    outcomes = outcomes_now(table, seat, options)
    decision = {"event": table.seen_events + 1, "seat": seat, "kind": kind, "actual": None,
                "alternatives": [outcome.to_json() for outcome in outcomes]}
    by_key: dict[str, Action] = {}
    for action in actions:
        by_key.setdefault("pass" if action is passing else _key(action.event.to_json()), action)
    return decision, by_key


@dataclass(frozen=True)
class AdviceMaker:
    """The advice seat's factory for the arena: module-level, so it travels pickled to
    the worker processes."""

    fallback: str = DEFAULT_FALLBACK
    solo_samples: int = SOLO_SAMPLES
    table_samples: int = TABLE_SAMPLES

    def __call__(self, rng: random.Random) -> Seat:
        return Advice(rng, self.fallback, self.solo_samples, self.table_samples)


def players(fallback: str = DEFAULT_FALLBACK, solo_samples: int = SOLO_SAMPLES,
            table_samples: int = TABLE_SAMPLES) -> dict[str, Maker]:
    """The arena's players: the levels, and ``advice`` falling back on ``fallback``."""
    if fallback not in LEVELS:
        known = ", ".join(sorted(LEVELS))
        raise ValueError(f"advice: no level named {fallback!r} to fall back on (known: {known})")
    makers = level_makers()
    makers[NAME] = AdviceMaker(fallback, solo_samples, table_samples)
    return makers


def fallback_for(a: str, b: str) -> str:
    """The level the advice falls back on in an arena of ``a`` against ``b``: the level
    it is measured against (B, or A when the advice is B), else ``basic``.

    >>> fallback_for("advice", "strong"), fallback_for("basic", "advice")
    ('strong', 'basic')
    >>> fallback_for("advice", "advice")
    'basic'
    """
    other = b if a == NAME else a
    return other if other in LEVELS else DEFAULT_FALLBACK
