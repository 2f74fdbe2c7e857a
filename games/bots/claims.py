"""Answers to a discard, an added kong or the turned-up gold, seat by seat, and the
table's priority among them.

At a discard (or an added kong that may be robbed) every seat that may claim chooses
among its *own* options — claim or pass — without seeing the others' answers; the
table then resolves them: wins first (in playing order after the discarder; several
in the play-on variants, SC-3.1/SC-3.2, else only the first, PT-5.2, JX-8), then a
pung or kong, then a chow (JX-2.6); if nobody claims, the next draw. The simulation,
the arena and the match against a human (``games.play.bot_match``) all resolve here.

>>> from games.core.events import Event
>>> from games.core.table import Action
>>> actions = [Action(1, Event("peng", 1)), Action(2, Event("chi", 2)),
...            Action(3, Event("hu", 3)), Action(1, Event("draw", 1), note="pass")]
>>> passing_action(actions).seat, sorted(own_options(actions))
(1, [1, 2, 3])
>>> [a.event.type for a in own_options(actions)[1]]
['peng', 'draw']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.core.events import Event
from games.core.table import Action, Phase, Table

CLAIM_PHASES = (Phase.DISCARDED, Phase.ROBBABLE)
"""The phases where several seats answer at once."""


def passing_action(actions: Sequence[Action]) -> Action:
    """What happens when nobody claims: the next draw (or the end of an exhausted wall)."""
    return next(a for a in actions if a.note == "pass" or a.event.type == "end")


def own_options(actions: Sequence[Action]) -> dict[int, list[Action]]:
    """Each seat that may claim: its own claims, then the pass (in playing order of the
    actions, so a seat sees its options as the table lists them)."""
    passing = passing_action(actions)
    options: dict[int, list[Action]] = {}
    for action in actions:
        if action is not passing:
            options.setdefault(action.seat, []).append(action)
    return {seat: [*own, passing] for seat, own in options.items()}


def claimed_from(table: Table) -> int:
    """The seat whose discard (or added kong) is being answered."""
    if table.phase is Phase.ROBBABLE:
        assert table.pending_kong is not None
        return table.pending_kong[0]
    assert table.last_discard is not None
    return table.last_discard[0]


def resolve_claims(table: Table, intents: Mapping[int, Event], passing: Action) -> list[Event]:
    """The events the seats' answers come to: every win in playing order when the variant
    plays on (SC-3.1), else the first (PT-5.2, JX-8); else the first pung or kong, else
    the chow (JX-2.6); else the pass. ``intents`` holds the seats that claim (a seat
    that passes is absent). After wins on a discard, :func:`pass_after_wins` moves play on.
    """
    origin = claimed_from(table)
    ordered = [intents[(origin + step) % 4] for step in (1, 2, 3)
               if (origin + step) % 4 in intents]
    wins = [e for e in ordered if e.type == "hu"]
    if wins:
        return wins if table.PLAY_ON else wins[:1]
    for types in (("peng", "gang"), ("chi",)):
        claims = [e for e in ordered if e.type in types]
        if claims:
            return claims[:1]
    return [passing.event]


def pass_after_wins(table: Table) -> Event | None:
    """After the wins on one discard every seat has answered: the next draw (SC-3.2), or
    None when there is nothing to pass (no win on a discard pending, or the hand ended)."""
    if table.ended or table.phase is not Phase.DISCARDED or not table.discard_winners:
        return None
    return passing_action(table.legal_actions()).event


def gold_robbers(table: Table, actions: Sequence[Action],
                 after: int | None = None) -> list[tuple[int, list[Action]]]:
    """PT-5.5: the seats other than the dealer that may rob the turned-up gold now, in
    playing order after the dealer (after seat ``after`` when given), each with its
    robbing actions. Empty outside that moment."""
    turn = table.turn
    robs: dict[int, list[Action]] = {}
    for action in actions:
        if action.event.how == "rob_gold" and action.seat != turn:
            robs.setdefault(action.seat, []).append(action)
    order = sorted(robs, key=lambda s: (s - turn) % 4)
    if after is not None:
        order = [s for s in order if (s - turn) % 4 > (after - turn) % 4]
    return [(seat, robs[seat]) for seat in order]
