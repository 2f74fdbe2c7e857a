"""Playing a match against three bots: one human seat, the server decides (issue 14).

A :class:`PlayMatch` is a match in progress between one human seat and three bots
playing at one level (:data:`games.bots.levels.LEVELS`: ``basic`` unless the match names
another). Its state is the ``mahjong-log/1`` event log the
table already checks, plus the human's seat, a ``step`` counter and the secret
seed the walls are shuffled from; :meth:`PlayMatch.to_json` and
:meth:`PlayMatch.from_json` store and restore it exactly.

The human answers one decision at a time with :meth:`PlayMatch.act`, naming the
``step`` it answers; the bots then play on until the human's next decision (or
the end), and the events since are returned as the human sees them. Draws,
white replacements (PT-3) and the drawn tile of a ready Putian hand (PT-5.3)
are played for the human. :meth:`PlayMatch.view` is everything one seat may
see — never another seat's concealed tiles, never the wall.

The walls come from ``random.Random(seed)`` exactly as ``simulate`` deals
(:func:`games.bots.simulation.deal_hand`); the seed's SHA-256 is shown when the match
starts and the seed when it ends, and :func:`verify` re-deals a finished match
from its seed to prove the deals were fixed in advance.

>>> match = PlayMatch.start("sichuan", seat=0, hands=1, seed="example")
>>> match.view()["legal"]
[{'type': 'dingque', 'suit': 'm'}, {'type': 'dingque', 'suit': 'p'}, {'type': 'dingque', 'suit': 's'}]
>>> events = match.act(1, {"type": "dingque", "suit": "m"})
>>> [e["event"]["type"] for e in events][:4]
['dingque', 'dingque', 'dingque', 'dingque']
>>> match.act(1, {"type": "dingque", "suit": "p"})
Traceback (most recent call last):
...
games.play.bot_match.StaleStep: this answers step 1, but the game is at step 2: reload to see the table as it is now
>>> verify(PlayMatch.from_json(match.to_json()).log(), "example") is None
True
"""

from __future__ import annotations

import hashlib
import json
import random
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games.analysis.annotation import outcomes_now
from games.analysis.value_pass import SOLO_SAMPLES, TABLE_SAMPLES
from games.bots.claims import (
    CLAIM_PHASES,
    gold_robbers,
    own_options,
    pass_after_wins,
    passing_action,
    resolve_claims,
)
from games.bots.levels import LEVELS, make_bot
from games.bots.simulation import Dealer, deal_hand
from games.core.messages import Message, message_of
from games.core.position import PositionError
from games.core.table import Action, Phase, RuleViolation, Table, Win
from games.core.tiles import WINDS, Meld
from games.play.hint import MAX_PLAYOUTS, value_hint
from games.records.log import MAX_NAME, Event, Hand, LogError, Match, read_event
from games.records.match import HandResult, Replayer
from games.variants.registry import VARIANTS

FORMAT = "mahjong-play/1"
DEFAULT_LEVEL = "basic"
"""The bots' level of a match stored without one (before levels existed): they played basic."""
MAX_HANDS = 64
TITLE = "Played against the bots; the walls' seed has SHA-256 {commitment}"


class PlayError(ValueError):
    """A match that can't start or be restored as given; the message names the problem."""


class StaleStep(ValueError):
    """An action answering a decision that is no longer the current one (a double click,
    a second tab, a stale page): nothing was applied."""

    def __init__(self, answered: Any, current: int) -> None:
        self.answered = answered
        self.current = current
        self.message = Message("this answers step {answered}, but the game is at step "
                               "{current}: reload to see the table as it is now",
                               answered=answered, current=current)
        super().__init__(self.message)


class IllegalAction(RuleViolation):
    """An action the rules don't allow the human now; ``rule`` is the RULES.md id."""


class VerifyError(ValueError):
    """A finished match whose deals don't come from the seed it was committed to."""


def new_seed() -> str:
    """A fresh secret seed: 128 random bits as hex (the only randomness a match takes)."""
    return secrets.token_hex(16)


def commitment(seed: str) -> str:
    """The SHA-256 of the seed (UTF-8), shown before the first deal.

    >>> commitment("example")[:16]
    '50d858e0985ecc7f'
    """
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class Pending:
    """The human's decision now: its kind (as the annotation names decisions) and options.

    Options are events with the human as actor; ``pass`` declines a claim, a
    robbery or 抢金 (it is not recorded: LOG-FORMAT.md records no passes).
    """

    kind: str  # turn, claim, rob_kong, rob_gold, dingque, contract
    options: tuple[Event, ...]


class PlayMatch:
    """One human seat against three bots, from the first deal to the last settlement."""

    def __init__(self, variant: str, seat: int, hands: int, rules: dict[str, int | str | bool],
                 players: tuple[str, str, str, str], seed: str, step: int = 1,
                 level: str = DEFAULT_LEVEL) -> None:
        self.variant = variant
        self.level = level
        self.seat = seat
        self.hands = hands
        self.rules = rules
        self.players = players
        self.seed = seed
        self.commitment = commitment(seed)
        self.step = step
        self.stopped: str | None = None  # why the match ended before its last hand
        self.pending: Pending | None = None
        self._match = Match(variant, players, (), dict(rules),
                            title=TITLE.format(commitment=self.commitment))
        self._replayer = Replayer(self._match)
        self._dealer = Dealer(VARIANTS[variant], random.Random(seed))
        self._finished: list[Hand] = []
        self._hand: Hand | None = None
        self._events: list[Event] = []
        self._table: Table | None = None

    # -- starting and restoring -------------------------------------------------

    @classmethod
    def start(cls, variant: str, *, seed: str, seat: int | None = None, hands: int = 4,
              rules: Mapping[str, Any] | None = None, name: str = "You",
              level: str = DEFAULT_LEVEL) -> PlayMatch:
        """Deal the first hand and let the bots play up to the human's first decision.

        ``seat`` None takes a seat drawn from the seed; every bot plays at ``level`` (a name
        in :data:`games.bots.levels.LEVELS`). Bad parameters raise :class:`PlayError`
        naming the problem.

        >>> PlayMatch.start("riichi", seed="x")
        Traceback (most recent call last):
        ...
        games.play.bot_match.PlayError: unknown variant 'riichi': use jiaxing, putian or sichuan
        >>> PlayMatch.start("jiaxing", seed="x", rules={"base": 0})
        Traceback (most recent call last):
        ...
        games.play.bot_match.PlayError: rules option 'base' must be an integer from 1 to 1000000000, not 0
        >>> PlayMatch.start("jiaxing", seed="x", level="grandmaster")
        Traceback (most recent call last):
        ...
        games.play.bot_match.PlayError: the bots have no level named 'grandmaster' (known: ...)
        """
        checked, chosen = _checked_start(variant, seed, seat, hands, rules, name)
        _check_level(level)
        seat = chosen if chosen is not None else random.Random(f"{seed}/seat").randrange(4)
        players = list(VARIANTS[variant].BOT_NAMES)
        players[seat] = name.strip()
        match = cls(variant, seat, hands, checked,
                    (players[0], players[1], players[2], players[3]), seed, level=level)
        match._deal_next()
        match._advance()
        return match

    def to_json(self) -> dict[str, Any]:
        """Everything needed to restore the match exactly (the seed included: keep it secret).
        The bots' level is part of it: restored, the match plays on as it would have."""
        return {"format": FORMAT, "seat": self.seat, "hands": self.hands, "step": self.step,
                "seed": self.seed, "level": self.level,
                "log": self._log(partial=True).to_json()}

    @classmethod
    def from_json(cls, data: Any) -> PlayMatch:
        """Restore a match from :meth:`to_json`: each hand is re-dealt from the seed and its
        events replayed, so a stored match that was tampered with is refused. A match stored
        without a level (before levels existed) was played by ``basic`` bots."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PlayError(f"not a stored match: the format must be {FORMAT}")
        try:
            doc = data["log"]
            variant, seed = doc["variant"], data["seed"]
            players = tuple(doc["players"])
            rules, _ = _checked_start(variant, seed, data["seat"], data["hands"],
                                      doc.get("rules"), players[data["seat"]])
            if not isinstance(data["step"], int) or data["step"] < 1 or len(players) != 4:
                raise PlayError("the stored match has no valid step or not four players")
            level = data.get("level", DEFAULT_LEVEL)
            _check_level(level)
            match = cls(variant, data["seat"], data["hands"], rules,
                        (players[0], players[1], players[2], players[3]), seed, data["step"],
                        level)
            match._deal_next()
            match._restore_hands(doc["hands"])
        except (KeyError, TypeError, IndexError, AttributeError) as error:
            raise PlayError(f"the stored match is incomplete or malformed ({error!r})") from None
        except (LogError, RuleViolation) as error:
            raise PlayError(f"the stored match doesn't replay: {error}") from None
        match._advance()
        return match

    def _restore_hands(self, raw_hands: Sequence[Any]) -> None:
        for number, raw in enumerate(raw_hands, start=1):
            if self._hand is None:
                raise PlayError(f"the stored match has a hand {number}, but it was over")
            hand = self._hand
            stored = {key: value for key, value in raw.items() if key != "events"}
            if stored != {k: v for k, v in hand.to_json().items() if k != "events"}:
                raise PlayError(f"hand {number} of the stored match is not the deal its seed "
                                "gives")
            events = [read_event(item, self.variant) for item in raw["events"]]
            played = self._live.apply_run(events)  # up to the end event, if any
            self._events = events[:played]
            if played + 1 < len(events):
                raise PlayError(f"hand {number} of the stored match has events after its end")
            if played < len(events):
                self._apply(events[played])
                if self._finished[-1].events[-1] != events[played]:
                    raise PlayError(f"hand {number} of the stored match doesn't end with the "
                                    "settlement its events give")

    # -- the human's decisions --------------------------------------------------

    @property
    def over(self) -> bool:
        """Every hand is played (or SC-6.5 stopped the match): nothing is left to decide."""
        return self._table is None and bool(self._finished)

    def legal(self, seat: int | None = None) -> list[dict[str, Any]]:
        """The human's legal actions now, in the log's event shapes without ``actor``
        (``{"type": "pass"}`` declines); empty for a bot's seat and once the match is over."""
        if self.pending is None or (seat is not None and seat != self.seat):
            return []
        return [_action_json(option) for option in self.pending.options]

    def act(self, step: Any, action: Any) -> list[dict[str, Any]]:
        """Apply the human's answer to decision ``step``; the bots play on to the human's next
        decision. Returns every event since, as the human sees them (:meth:`events_since`).

        A ``step`` that isn't the current one raises :class:`StaleStep` and an action the
        rules don't allow :class:`IllegalAction`; neither changes anything.
        """
        if step != self.step or isinstance(step, bool):
            raise StaleStep(step, self.step)
        if self.pending is None:
            raise IllegalAction("C-5", Message("the match is over: there is nothing left to play"))
        event = self._chosen(action)
        mark = self._mark()
        self._answer(self.pending, event)
        self._advance()
        self.step += 1
        return self.events_since(*mark)

    def leave(self, step: Any) -> list[dict[str, Any]]:
        """The human leaves the table for good at decision ``step`` (the log's ``leave``
        event): the rules charge a leaver what they say (``Variant.LEAVE_CHARGE``: Jiaxing
        the service fee and escape penalty, JX-10.6; Sichuan the cap points for each player
        still in and the 查花猪/查大叫 amounts, SC-6.6, the hand then playing on without
        them), Putian nothing (the hand is abandoned). No further hand is dealt: the match
        is over (``stopped`` says who left). Returns every event since, as :meth:`act`.

        >>> match = PlayMatch.start("putian", seed="leave", seat=0, hands=4)
        >>> entries = match.leave(match.step)
        >>> match.over, entries[0]["event"], match.result()["stopped"]
        (True, {'type': 'leave', 'actor': 0}, 'You left the table in hand 1')
        """
        if step != self.step or isinstance(step, bool):
            raise StaleStep(step, self.step)
        refused = self.leave_refusal()
        if refused is not None:
            raise refused
        mark = self._mark()
        self.pending = None
        self._apply(Event("leave", self.seat))
        self._advance()
        self.step += 1
        return self.events_since(*mark)

    def leave_refusal(self) -> IllegalAction | None:
        """Why the human can't leave now (the refusal :meth:`leave` would raise), or None:
        a page can say so before offering to leave."""
        if self.pending is None:
            return IllegalAction("C-5", Message("the match is over: there is nothing left to play"))
        if self.pending.kind == "dingque":
            return IllegalAction("SC-2", Message("name your void suit first: a leaver's charge "
                                                 "(SC-6.6) is reckoned from it"))
        if self._live.phase is Phase.EXCHANGE:
            return IllegalAction("SC-H1", _EXCHANGE_FIRST)
        return None

    def leave_cost(self) -> dict[str, Any]:
        """What leaving now would cost the human, reckoned by leaving a copy of the match
        (this one is unchanged): the leaving rule's payment lines from the human (``payee``
        None is the house), in points; what the house takes from their balance in this
        hand (``taken``, in the balance's units, when balances are kept); the human's points
        from the hands and the house's takings in the whole match, before and after.
        Raises the refusal :meth:`leave` would raise.

        Sichuan, nobody owed anything yet: the cap (8 points) for each of the three players
        still in goes to the house, and the others get nothing (SC-6.6).

        >>> match = PlayMatch.start("sichuan", seed="cost", seat=0, hands=2)
        >>> match.pending.kind
        'dingque'
        >>> match.leave_cost()
        Traceback (most recent call last):
        ...
        games.play.bot_match.IllegalAction: name your void suit first: a leaver's charge (SC-6.6) is reckoned from it (SC-2)
        >>> _ = match.act(match.step, match.legal()[0])
        >>> cost = match.leave_cost()
        >>> cost["rule"], cost["lines"], cost["to_house"], cost["to_players"]
        ('SC-6.6', [{'payee': None, 'amount': 24}], 24, 0)
        >>> cost["net_after"] - cost["net_before"], cost["fees_after"] - cost["fees_before"]
        (0, 24)
        >>> match.over
        False
        """
        refused = self.leave_refusal()
        if refused is not None:
            raise refused
        before = self.result()
        hand_before = self._live.deltas[self.seat]
        copy = PlayMatch.from_json(self.to_json())
        copy.leave(copy.step)
        after = copy.result()
        number = copy.left_in
        assert number is not None
        rule = VARIANTS[self.variant].LEAVE_CHARGE
        payments = copy._replayer.results[number - 1].table.payments
        lines = [{"payee": settled.line.payee, "amount": settled.line.amount}
                 for settled in payments
                 if settled.line.payer == self.seat and settled.line.rule == rule
                 and settled.line.amount]
        out: dict[str, Any] = {
            "rule": rule, "hand": number, "lines": lines,
            "to_house": sum(line["amount"] for line in lines if line["payee"] is None),
            "to_players": sum(line["amount"] for line in lines if line["payee"] is not None),
            "hand_before": hand_before,
            "hand_after": after["hands"][number - 1]["deltas"][self.seat],
            "net_before": before["you"]["net"] + hand_before, "net_after": after["you"]["net"],
            "fees_before": before["fees"][self.seat], "fees_after": after["fees"][self.seat],
            "balances": "balances" in after,
        }
        if "balances" in after:
            out["balance_after"] = after["balances"][self.seat]
        return out

    @property
    def left_in(self) -> int | None:
        """The hand in which the human left the table (:meth:`leave`), if they did."""
        for number, hand in enumerate(self._finished, start=1):
            if any(e.type == "leave" and e.actor == self.seat for e in hand.events):
                return number
        return None

    def _chosen(self, action: Any) -> Event:
        """The legal option ``action`` names, or IllegalAction with the rule it breaks."""
        assert self.pending is not None
        wanted = _canonical(action)
        for option in self.pending.options:
            if _canonical(_action_json(option)) == wanted:
                return option
        raise self._why_illegal(action)

    def _why_illegal(self, action: Any) -> IllegalAction:
        if not isinstance(action, dict):
            return IllegalAction("C-2", Message("an action is a JSON object such as "
                                                '{{"type": "discard", "tile": "5m"}}'))
        if action.get("type") == "pass":
            return IllegalAction("C-2", Message("{player} can't pass now: choose one of the "
                                                "actions offered", player=self.players[self.seat]))
        if action.get("actor", self.seat) != self.seat:
            return IllegalAction("C-2", Message("{player} can only act for seat {seat}",
                                                player=self.players[self.seat], seat=self.seat))
        if action.get("type") not in _CHOSEN_TYPES:
            # Draws, whites and ends are played for the human; trying one on the table
            # would answer with what the wall holds.
            return IllegalAction("C-5", Message("{type!r} is not an action a player chooses: "
                                                "draws, whites and the end happen by themselves",
                                                type=action.get("type")))
        try:
            event = read_event({**action, "actor": self.seat}, self.variant)
            self._scratch().apply(event)
        except LogError as error:
            return IllegalAction(error.rule or "C-2", error.message)
        except RuleViolation as problem:
            return IllegalAction(problem.rule, problem.message)
        return IllegalAction(_RULE_OF_KIND[self.pending.kind if self.pending else "turn"],
                             Message("{player} can't do that now: it isn't one of the actions "
                                     "offered", player=self.players[self.seat]))


    def _scratch(self) -> Table:
        """A copy of the hand's table to try an action on (the live one stays untouched)."""
        assert self._hand is not None
        table = self._replayer.begin(len(self._finished) + 1, self._hand)
        table.apply_run(self._events)
        return table

    def _answer(self, pending: Pending, event: Event) -> None:
        table = self._live
        actions = table.legal_actions()
        if pending.kind in ("claim", "rob_kong"):
            self._apply_all(self._resolve_claims(table, actions, event))
        elif pending.kind == "rob_gold":
            if event.type != "pass":
                self._apply(event)
                return
            turn = [a for a in actions if a.seat == table.turn]
            after = self._rob_gold_round(table, actions, self._bot_choice(table, turn),
                                         after=self.seat)
            assert not isinstance(after, Pending)
            self._apply_all(after)
        elif pending.kind == "turn" and event.type == "discard":
            robbed = self._rob_gold_round(table, actions, Action(self.seat, event))
            assert not isinstance(robbed, Pending)  # the human is the dealer here
            self._apply_all(robbed)
        else:
            self._apply(event)

    # -- playing on ---------------------------------------------------------------

    def _advance(self) -> None:
        """Play every move that isn't the human's until the human must decide or it ends."""
        self.pending = None
        while self._table is not None:
            table = self._table
            if table.ended:
                self._close_hand()
                continue
            found = self._next(table, table.legal_actions())
            if isinstance(found, Pending):
                self.pending = found
                return
            self._apply_all(found)

    def _next(self, table: Table, actions: list[Action]) -> Pending | list[Event]:
        """What happens next: the human's decision, or the events the table moves by."""
        phase = table.phase
        if phase in (Phase.DRAW, Phase.FLOWERS):
            return [actions[0].event]  # draws and white replacements happen by themselves
        if phase in CLAIM_PHASES:
            mine = [a.event for a in actions if a.seat == self.seat and a.note != "pass"
                    and a.event.type not in ("draw", "end")]
            if mine:
                kind = "claim" if phase is Phase.DISCARDED else "rob_kong"
                return Pending(kind, (*mine, Event("pass", self.seat)))
            return self._resolve_claims(table, actions, None)
        if phase is Phase.DINGQUE:
            mine = [a.event for a in actions if a.seat == self.seat]
            if mine:  # the human names first, so the bots' choices can't tell them anything
                return Pending("dingque", tuple(mine))
            seat = actions[0].seat
            return [self._bot_choice(table, [a for a in actions if a.seat == seat]).event]
        if phase in (Phase.CONTRACT, Phase.EXCHANGE):  # one seat at a time (JX-9, SC-H1)
            if actions[0].seat == self.seat:
                return Pending(phase.value, tuple(a.event for a in actions))
            return [self._bot_choice(table, actions).event]
        return self._turn(table, actions)

    def _turn(self, table: Table, actions: list[Action]) -> Pending | list[Event]:
        own = [a for a in actions if a.seat == table.turn]
        if table.turn != self.seat:
            return self._rob_gold_round(table, actions, self._bot_choice(table, own))
        options = [a.event for a in own]  # PT-5.3's limits are the table's own
        if len(options) == 1 and options[0].type in ("flower", "discard") and (
                options[0].type == "flower" or table.hand_locked(self.seat)):
            return list(options)  # PT-3.2 whites at once; PT-5.3, SC-H2 a locked hand's draw
        return Pending("turn", tuple(options))

    def _rob_gold_round(self, table: Table, actions: list[Action], choice: Action,
                        after: int | None = None) -> Pending | list[Event]:
        """PT-5.5: before the dealer's first discard the others, in playing order after the
        dealer, may rob the gold (bots always do); otherwise the dealer's choice stands."""
        if choice.event.type != "discard":
            return [choice.event]
        for seat, robs in gold_robbers(table, actions, after):
            if seat == self.seat:
                return Pending("rob_gold", (*(a.event for a in robs), Event("pass", seat)))
            return [robs[0].event]
        return [choice.event]

    def _resolve_claims(self, table: Table, actions: list[Action],
                        human: Event | None) -> list[Event]:
        """Every seat's answer to the discard (or added kong) on the table, resolved by the
        table's priority (:func:`games.bots.claims.resolve_claims`)."""
        passing = passing_action(actions)
        intents: dict[int, Event] = {}
        for seat, options in own_options(actions).items():
            if seat == self.seat:
                if human is not None and human.type != "pass":
                    intents[seat] = human
                continue
            choice = self._bot_choice(table, options)
            if choice is not passing:
                intents[seat] = choice.event
        return resolve_claims(table, intents, passing)

    def _bot_choice(self, table: Table, actions: Sequence[Action]) -> Action:
        """A bot's choice at the match's level, from a generator seeded by the seed and the
        moment: the same match replayed makes the same choices (a restored match goes on
        identically)."""
        seat = actions[0].seat
        moment = f"{self.seed}/bot/{len(self._finished) + 1}/{len(self._events)}/{seat}"
        return make_bot(self.level, random.Random(moment)).choose(table, actions)

    def _apply_all(self, events: Sequence[Event]) -> None:
        for event in events:
            if self._table is None or self._table.ended:
                return
            self._apply(event)
            if event.type == "end":
                return  # the hand is settled (and the next one dealt)
        table = self._table
        after = pass_after_wins(table) if table is not None else None
        if after is not None:
            # After the wins on a discard the others have answered too: play goes on (SC-3.2).
            self._apply(after)

    def _apply(self, event: Event) -> None:
        table = self._live
        if event.type == "end":
            deltas = table.finish(event.reason or "exhausted")
            self._events.append(replace(event, deltas=tuple(deltas)))
            self._conclude(table)
            return
        table.apply(event)
        self._events.append(event)

    def _close_hand(self) -> None:
        """The table ended by itself (a win; Sichuan: the third win): record its end."""
        table = self._live
        reason = table.end_reason or "win"
        deltas = table.finish(reason) if reason != "abandoned" else list(table.deltas)
        self._events.append(Event("end", None, reason=reason, deltas=tuple(deltas)))
        self._conclude(table)

    def _conclude(self, table: Table) -> None:
        assert self._hand is not None and self._events[-1].type == "end"
        hand = replace(self._hand, events=tuple(self._events))
        self._replayer.conclude(len(self._finished) + 1, hand, table,
                                self._events[-1].reason or "win")
        self._finished.append(hand)
        self._hand, self._table, self._events = None, None, []
        self.stopped = self._stop_reason()
        if len(self._finished) < self.hands and self.stopped is None:
            self._deal_next()

    def _stop_reason(self) -> str | None:
        """The human left the table (:meth:`leave`); SC-6.5: a match with balances stops
        when a player can't start another hand."""
        left = self.left_in
        if left is not None:
            return f"{self.players[self.seat]} left the table in hand {left}"
        # The replayer's own test (SC-6.5), so the table stops exactly where dealing on
        # would be refused: a minimum of 0 counts too, where balances are kept.
        short = self._replayer.short_of_minimum()
        if short is None or len(self._finished) >= self.hands:
            return None
        seat, balance, minimum = short
        return (f"{self.players[seat]} has {balance}, below the room's minimum "
                f"of {minimum}, and can't start another hand (SC-6.5)")

    def _deal_next(self) -> Hand:
        number = len(self._finished) + 1
        hand = deal_hand(self._replayer, self._dealer, number)
        self._table = self._replayer.begin(number, hand)
        self._hand = hand
        self._events = []
        return hand

    @property
    def _live(self) -> Table:
        assert self._table is not None, "no hand is being played"
        return self._table

    # -- what the human sees ------------------------------------------------------

    def _mark(self) -> tuple[int, int]:
        """Where the log is now: (hand number, entries of that hand already seen)."""
        if self._table is None:
            return (len(self._finished) + 1, 0)
        return (len(self._finished) + 1, len(self._events) + 1)

    def events_since(self, hand: int, seen: int = 0) -> list[dict[str, Any]]:
        """The entries of the log after the first ``seen`` entries of hand ``hand``, as the
        human sees them. Entry 0 of a hand is its deal (``{"type": "deal", …}`` with the
        human's tiles), entry i its i-th event: other seats' draws and concealed kongs
        without their tile, a win with the winner's hand, an end with every hand."""
        out: list[dict[str, Any]] = []
        for number in range(hand, len(self._finished) + 2):
            setup, events, table = self._hand_parts(number)
            if setup is None or table is None:
                break
            first = seen if number == hand else 0
            if first == 0:
                out.append({"hand": number, "index": 0, "event": self._seen_deal(setup)})
            for index in range(max(first, 1), len(events) + 1):
                seen_event = _seen_event(events[index - 1], self.seat, table)
                out.append({"hand": number, "index": index, "event": seen_event})
        return out

    def _hand_parts(self, number: int) -> tuple[Hand | None, Sequence[Event], Table | None]:
        if number <= len(self._finished):
            return (self._finished[number - 1], self._finished[number - 1].events,
                    self._replayer.results[number - 1].table)
        return self._hand, self._events, self._table

    def _seen_deal(self, hand: Hand) -> dict[str, Any]:
        out = {key: value for key, value in hand.to_json().items()
               if key not in ("deal", "wall", "events")}
        out = {"type": "deal", **out, "hand": [str(t) for t in hand.deal[self.seat]],
               "wall_left": len(hand.wall or ())}
        return out

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What the human's ``seat`` sees now, as JSON-ready data (docs/play.md). Another
        seat is refused: its view would show a bot's concealed tiles."""
        if seat is not None and seat != self.seat:
            raise PlayError(f"only seat {self.seat}, the human's, has a view in this match")
        seat = self.seat
        number = len(self._finished) + (0 if self._table is None else 1)
        table = self._table if self._table is not None else self._replayer.results[-1].table
        hand = self._hand if self._hand is not None else self._finished[-1]
        totals = [sum(r.deltas[s] for r in self._replayer.results) for s in range(4)]
        revealed = table.ended
        out: dict[str, Any] = {
            "step": self.step, "variant": self.variant, "seat": seat, "hands": self.hands,
            "level": self.level, "hand_number": number, "commitment": self.commitment,
            "phase": table.phase.value, "turn": table.turn, "dealer": table.dealer,
            **_hand_facts(hand), "wall_left": table.tiles_left,
            "last_discard": _last_discard(table),
            "you": _own_view(table, seat),
            "seats": [_seat_view(table, s, seat, revealed, self.players[s], totals[s])
                      for s in range(4)],
            "scores": totals, "hand_deltas": list(table.deltas),
            "wins": [_win_json(w) for w in table.wins],
            "decision": ({"kind": self.pending.kind, "seat": self.seat}
                         if self.pending is not None and seat == self.seat else None),
            "legal": self.legal(seat),
            "last_hand": self._hand_summary(len(self._finished)) if self._finished else None,
            "over": self.over,
        }
        if self.over:
            out["result"] = self.result()
            out["seed"] = self.seed
        return out

    def hint(self) -> dict[str, Any]:
        """What the annotation shows for the human's current decision: each option's
        shanten, accepted tiles with unseen copies, waits with their values, rank."""
        if self.pending is None:
            return {"step": self.step, "decision": None, "options": []}
        outcomes = outcomes_now(self._live, self.seat, self.pending.options)
        options = []
        for outcome in outcomes:
            shown = outcome.to_json()
            shown["action"] = _action_json(outcome.event)
            options.append(shown)
        return {"step": self.step, "decision": self.pending.kind, "options": options}

    def valued_hint(self, solo_samples: int = SOLO_SAMPLES, table_samples: int = TABLE_SAMPLES,
                    max_playouts: int = MAX_PLAYOUTS) -> dict[str, Any]:
        """The current decision's choices valued as the review values them and ranked by
        value (:func:`games.play.hint.value_hint`; docs/play.md "The hint")."""
        if self.pending is None or self._table is None:
            return {"step": self.step, "decision": None, "options": [], "ranked_by": "shape",
                    "reason": "not_valued", "model": None, "samples": 0,
                    "no_winning_line": False}
        out = value_hint(self._live, self.seat, self.pending.kind, self.pending.options,
                         len(self._finished) + 1, solo_samples, table_samples, max_playouts)
        for option in out["options"]:
            option["action"] = {k: v for k, v in option["action"].items() if k != "actor"}
        return {"step": self.step, **out}

    # -- the finished match -------------------------------------------------------

    def log(self) -> Match:
        """The match as a mahjong-log/1 document (:class:`games.records.log.Match`), walls included;
        complete once the match is over."""
        return self._log(partial=False)

    def _log(self, partial: bool) -> Match:
        hands = list(self._finished)
        if partial and self._hand is not None:
            hands.append(replace(self._hand, events=tuple(self._events)))
        return replace(self._match, hands=tuple(hands))

    def result(self) -> dict[str, Any]:
        """Per finished hand its settlement; the totals; the human's net and points won
        (the sum of the human's winning hands' gains: what the JX-11 ladder adds up)."""
        settled = self._replayer.result()
        mine = [r.deltas[self.seat] for r in settled.hands]
        out: dict[str, Any] = {
            "hands": [self._hand_summary(r.number) for r in settled.hands],
            "totals": settled.totals, "fees": settled.fees,
            "you": {"seat": self.seat, "net": sum(mine),
                    "points_won": sum(d for d in mine if d > 0)},
        }
        if settled.balances is not None:
            out["balances"] = settled.balances
        if self.stopped is not None:
            out["stopped"] = self.stopped
        return out

    def _hand_summary(self, number: int) -> dict[str, Any]:
        """A finished hand as everyone may see it at its end: wins, deltas, every hand."""
        result: HandResult = self._replayer.results[number - 1]
        table = result.table
        return {
            "number": number, "reason": result.end_reason, "deltas": result.deltas,
            "wins": [_win_json(w) for w in table.wins],
            "hands": [[str(t) for t in state.tiles()] for state in table.seats],
            "melds": [[_meld_json(m, True) for m in state.melds] for state in table.seats],
        }


# -- checking a finished match against its seed -------------------------------------


def verify(match: Match, seed: str, expected: str | None = None) -> None:
    """Check that every hand of ``match`` was dealt from ``seed`` and the seed is the one
    committed to (``expected``, or the SHA-256 in the match's title); raise
    :class:`VerifyError` naming the first difference, or the log's own LogError.

    >>> match = PlayMatch.start("putian", seat=1, hands=2, seed="s3cret")
    >>> play_randomly(match, random.Random(1)) > 0, match.over
    (True, True)
    >>> verify(match.log(), "s3cret") is None
    True
    >>> verify(match.log(), "guess")
    Traceback (most recent call last):
    ...
    games.play.bot_match.VerifyError: the seed's SHA-256 is f1ab…, not the committed 1ec1…
    """
    if expected is None:
        expected = (match.title or "").rsplit(" ", 1)[-1]
    if commitment(seed) != expected:
        raise VerifyError(f"the seed's SHA-256 is {commitment(seed)[:4]}…, not the committed "
                          f"{expected[:4]}…")
    replayer = Replayer(match)
    dealer = Dealer(VARIANTS[match.variant], random.Random(seed))
    for number, hand in enumerate(match.hands, start=1):
        dealt = deal_hand(replayer, dealer, number).to_json()
        stated = hand.to_json()
        for key, value in dealt.items():
            if key != "events" and stated.get(key) != value:
                raise VerifyError(f"hand {number}: the {key} is not what the seed deals")
        if hand.events and hand.events[-1].type == "end":
            replayer.play(number, hand)


def play_randomly(match: PlayMatch, rng: random.Random, limit: int = 100_000) -> int:
    """Answer each decision with a random legal action until the match is over (tests and
    the benchmark play this way); returns the number of actions taken."""
    for taken in range(limit):
        legal = match.legal()
        if not legal:
            return taken
        match.act(match.step, rng.choice(legal))
    raise AssertionError(f"the match did not end within {limit} actions")  # pragma: no cover


# -- JSON shapes ----------------------------------------------------------------------


_CHOSEN_TYPES = ("discard", "chi", "peng", "gang", "hu", "ready", "dingque", "contract",
                 "exchange")
_RULE_OF_KIND = {"turn": "C-2", "claim": "C-2", "rob_kong": "JX-8", "rob_gold": "PT-5.5",
                 "dingque": "SC-2", "contract": "JX-9", "exchange": "SC-H1"}
_EXCHANGE_FIRST = Message("the three tiles of 换三张 are exchanged first: a leaver's charge "
                          "(SC-6.6) is reckoned after it")


def _checked_start(variant: Any, seed: Any, seat: Any, hands: Any, rules: Any,
                   name: Any) -> tuple[dict[str, int | str | bool], int | None]:
    if not isinstance(variant, str) or variant not in VARIANTS:
        raise PlayError(f"unknown variant {variant!r}: use jiaxing, putian or sichuan")
    if not isinstance(seed, str) or not 1 <= len(seed) <= 200:
        raise PlayError("the seed must be text of 1 to 200 characters")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)
                             or not 0 <= seat <= 3):
        raise PlayError(f"the seat must be 0, 1, 2 or 3 (or none for a random seat), not {seat!r}")
    if not isinstance(hands, int) or isinstance(hands, bool) or not 1 <= hands <= MAX_HANDS:
        raise PlayError(f"the number of hands must be from 1 to {MAX_HANDS}, not {hands!r}")
    if not isinstance(name, str) or not name.strip() or len(name.strip()) > MAX_NAME:
        raise PlayError(f"the player's name must be 1 to {MAX_NAME} characters")
    try:
        checked = VARIANTS[variant].check_rules(dict(rules or {}))
    except (PositionError, TypeError, ValueError) as error:
        raise PlayError(message_of(error)) from None
    return checked, seat


def _check_level(level: Any) -> None:
    if not isinstance(level, str) or level not in LEVELS:
        known = ", ".join(sorted(LEVELS))
        raise PlayError(f"the bots have no level named {level!r} (known: {known})")


def _action_json(event: Event) -> dict[str, Any]:
    """An event as an action: its log shape without ``actor``."""
    out = event.to_json()
    out.pop("actor", None)
    return out


def _canonical(action: Any) -> str | None:
    """A comparable form of an action (a chow's two tiles in any order)."""
    if not isinstance(action, dict):
        return None
    action = {k: v for k, v in action.items() if k != "actor"}
    if isinstance(action.get("tiles"), list):
        action["tiles"] = sorted(action["tiles"], key=str)
    try:
        return json.dumps(action, sort_keys=True)
    except (TypeError, ValueError):
        return None


def _seen_event(event: Event, seat: int, table: Table) -> dict[str, Any]:
    out = event.to_json()
    hidden = event.actor is not None and event.actor != seat and (
        event.type == "draw" or (event.type == "gang" and event.kind == "concealed"))
    if hidden:
        out.pop("tile", None)
    if event.type == "exchange" and event.actor != seat:
        out.pop("tiles", None)  # SC-H1: the three tiles set aside are face down
    if event.type == "hu" and event.actor is not None:
        out["hand"] = [str(t) for t in table.seats[event.actor].tiles()]
    if event.type == "end":
        out["hands"] = [[str(t) for t in state.tiles()] for state in table.seats]
        out["melds"] = [[_meld_json(m, True) for m in state.melds] for state in table.seats]
    return out


def _meld_json(meld: Meld, shown: bool) -> dict[str, Any]:
    """A meld in ENGINE-CLI.md's shape; a concealed kong another seat can't see has no tile."""
    if meld.type == "chi":
        return {"type": "chi", "tiles": str(meld)}
    out: dict[str, Any] = {"type": meld.type}
    if meld.gang_kind is not None:
        out["kind"] = meld.gang_kind
    if shown or not meld.is_concealed:
        out["tile"] = str(meld.first)
    return out


def _hand_facts(hand: Hand) -> dict[str, Any]:
    """The hand's public setup: dice, wildcards and the variant's own facts."""
    out: dict[str, Any] = {"dice": list(hand.dice),
                           "wildcards": [str(t) for t in hand.wildcards]}
    if hand.round_wind is not None:
        out["round_wind"] = hand.round_wind
    if hand.indicator is not None:
        out["indicator"] = str(hand.indicator)
    if hand.bank is not None:
        out["bank"] = list(hand.bank)
    if hand.dealer_streak is not None:
        out["dealer_streak"] = hand.dealer_streak
    return out


def _last_discard(table: Table) -> dict[str, Any] | None:
    if table.phase is not Phase.DISCARDED or table.last_discard is None:
        return None
    return {"seat": table.last_discard[0], "tile": str(table.last_discard[1])}


def _own_view(table: Table, seat: int) -> dict[str, Any]:
    state = table.seats[seat]
    tiles = state.tiles()
    drawn = table.drawn if table.turn == seat and table.phase is Phase.TURN else None
    if drawn is not None and drawn in tiles:
        tiles.remove(drawn)
    out = {"hand": [str(t) for t in tiles], "drawn": str(drawn) if drawn else None,
           "melds": [_meld_json(m, True) for m in state.melds],
           "flowers": state.flowers, "void": _void(state.void), "ready": state.ready}
    received = table.exchange_received(seat)
    if received:  # SC-H1: the three tiles passed to this seat
        out["received"] = [str(t) for t in received]
        out["received_from"] = table.exchange_giver(seat)
    if table.hand_locked(seat) and not state.ready:  # SC-H2: a winner's locked hand
        out["locked"] = True
    return out


def _seat_view(table: Table, seat: int, viewer: int, revealed: bool, name: str,
               score: int) -> dict[str, Any]:
    """One seat as ``viewer`` sees it: concealed tiles only counted, unless the rules
    show them (the hand is over; a Sichuan winner's frozen hand, SC-3.2)."""
    state = table.seats[seat]
    own = seat == viewer
    out: dict[str, Any] = {
        "seat": seat, "name": name, "wind": WINDS[(seat - table.dealer) % 4],
        "melds": [_meld_json(m, own or revealed) for m in state.melds],
        "river": [{"tile": str(t), "claimed": claimed} for t, claimed in state.river],
        "concealed_count": state.size, "flowers": state.flowers, "void": _void(state.void),
        "won": state.won, "ready": state.ready, "gave_up": state.gave_up, "score": score,
    }
    if own or revealed or state.won:
        out["hand"] = [str(t) for t in state.tiles()]
    aside = table.won_aside(seat)
    if aside:  # SC-H2: the winning tiles set aside are in sight of everyone
        out["won_tiles"] = [str(t) for t in aside]
    if table.hand_locked(seat) and not state.ready:  # SC-H2: a winner's locked hand
        out["locked"] = True
    return out


def _void(void: int | None) -> str | None:
    return None if void is None else "mps"[void]


def _win_json(win: Win) -> dict[str, Any]:
    return {"seat": win.seat, "tile": str(win.tile), "target": win.target, "how": win.how,
            "points": win.score.points, "deltas": win.deltas, "score": win.score.to_json()}
