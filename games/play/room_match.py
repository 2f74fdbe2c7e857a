"""A match with several human seats: tables with friends (issue 28, docs/tables.md).

A :class:`RoomMatch` is a :class:`~games.play.bot_match.PlayMatch` in which any of the
four seats may be a person's; the others are bots at the match's level. It shares
PlayMatch's dealing, storing, restoring, views and settlement; what it changes is who
is asked:

- every human seat answers its own decisions (``pendings``: one per seat asked now);
- at a discard or an added kong every seat with a claim option answers — each human
  with an option is asked at once, before anybody's answer is known — and once every
  asked human has answered, the bots' answers are taken and the one resolver
  (:func:`games.bots.claims.resolve_claims`) settles them: wins first (Sichuan every
  winner, SC-3.1), then a pung or kong, then the chow (JX-2.6);
- Sichuan's void suits (SC-2) are named by every human at once, and applied, with the
  bots', only when all have named theirs, so no choice can inform another;
- a seat may be handed to the bot (``autoplay``: a disconnected player, docs/tables.md)
  and given back; :meth:`default_action` is what a timeout answers (a pass, or the
  drawn tile discarded).

Each open decision remembers the ``step`` at which it was opened (``opened``): an
answer naming any step from that one to the current one answers it (another seat's
answer in the same claim window doesn't make it stale).

>>> match = RoomMatch.start("sichuan", seed="room", humans=(0, 2), hands=1,
...                         names={0: "Alice", 2: "Bob"})
>>> sorted(match.pendings), match.pendings[0].kind
([0, 2], 'dingque')
>>> _ = match.act_for(0, match.step, {"type": "dingque", "suit": "m"})
>>> sorted(match.pendings), match.view(2)["seats"][0]["void"] is None
([2], True)
>>> _ = match.act_for(2, 1, {"type": "dingque", "suit": "p"})
>>> [s["void"] for s in match.view(0)["seats"]][:3:2]
['m', 'p']
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from games.bots.claims import (
    CLAIM_PHASES,
    gold_robbers,
    own_options,
    passing_action,
    resolve_claims,
)
from games.core.messages import Message
from games.core.table import Action, Phase, RuleViolation, Table
from games.play.bot_match import (
    _EXCHANGE_FIRST,
    DEFAULT_LEVEL,
    IllegalAction,
    Pending,
    PlayError,
    PlayMatch,
    StaleStep,
    _action_json,
    _check_level,
    _checked_start,
    _last_discard,
    _seat_view,
    _win_json,
)
from games.records.log import Event, LogError, read_event
from games.variants.registry import VARIANTS

FORMAT = "mahjong-room/1"
TITLE = "Played at a table with friends; the walls' seed has SHA-256 {commitment}"
WINDOW_KINDS = ("claim", "rob_kong", "dingque")
"""Decisions several seats answer at once: applied when every asked human has answered."""


class RoomMatch(PlayMatch):
    """Up to four human seats and bots in the others, from the first deal to the end."""

    def __init__(self, variant: str, humans: Sequence[int], hands: int,
                 rules: dict[str, int | str | bool], players: tuple[str, str, str, str],
                 seed: str, step: int = 1, level: str = DEFAULT_LEVEL) -> None:
        super().__init__(variant, min(humans), hands, rules, players, seed, step, level)
        self.humans = tuple(sorted(set(humans)))
        self.autoplay: set[int] = set()
        self.pendings: dict[int, Pending] = {}
        self.answers: dict[int, Event] = {}
        self.opened: dict[int, tuple[int, list[Any]]] = {}
        self._match = self._match.__class__(
            variant, players, (), dict(rules), title=TITLE.format(commitment=self.commitment))
        self._replayer = self._replayer.__class__(self._match)

    # -- starting and restoring -------------------------------------------------

    @classmethod
    def start_room(cls, variant: str, *, seed: str, humans: Sequence[int], hands: int = 4,
                   rules: Mapping[str, Any] | None = None,
                   names: Mapping[int, str] | None = None,
                   level: str = DEFAULT_LEVEL) -> RoomMatch:
        """Deal the first hand with ``humans`` (seat numbers, 1 to 4 of them) named by
        ``names`` (a bot's name for a seat not named); bots play to the first human
        decision. Bad parameters raise :class:`PlayError`.

        >>> RoomMatch.start("jiaxing", seed="x", humans=())
        Traceback (most recent call last):
        ...
        games.play.bot_match.PlayError: a table has 1 to 4 human seats, numbered 0 to 3
        """
        seats = _checked_humans(humans)
        names = dict(names or {})
        players = list(VARIANTS[variant].BOT_NAMES) if variant in VARIANTS else ["", "", "", ""]
        for seat in seats:
            players[seat] = names.get(seat, players[seat]) or players[seat]
        checked, _ = _checked_start(variant, seed, seats[0], hands, rules, players[seats[0]])
        for seat in seats:
            _checked_start(variant, seed, seat, hands, rules, players[seat])
        _check_level(level)
        match = cls(variant, seats, hands, checked,
                    (players[0], players[1], players[2], players[3]), seed, level=level)
        match._deal_next()
        match._advance()
        return match

    @classmethod
    def start(cls, variant: str, *, seed: str, seat: int | None = None, hands: int = 4,
              rules: Mapping[str, Any] | None = None, name: str = "You",
              level: str = DEFAULT_LEVEL, humans: Sequence[int] = (0,),
              names: Mapping[int, str] | None = None) -> RoomMatch:
        """:meth:`start_room`; ``seat`` and ``name`` are PlayMatch's one-human form."""
        if seat is not None:
            humans, names = (seat,), {seat: name}
        return cls.start_room(variant, seed=seed, humans=humans, hands=hands, rules=rules,
                              names=names, level=level)

    def to_json(self) -> dict[str, Any]:
        """PlayMatch's stored form plus the human seats, the seats the bot plays for now,
        the answers given in an open claim window, and when each decision was opened."""
        out = super().to_json()
        out["format"] = FORMAT
        out["humans"] = list(self.humans)
        out.update(self.changing_json())
        return out

    def changing_json(self) -> dict[str, Any]:
        """What :meth:`to_json` writes besides the log that a move may change: the step,
        the seats the bot plays, the answers held, when each open decision was opened."""
        return {"step": self.step, "autoplay": sorted(self.autoplay),
                "answers": {str(s): _action_json(e) for s, e in sorted(self.answers.items())},
                "opened": {str(s): [step, key] for s, (step, key) in sorted(self.opened.items())}}

    def events_json_since(self, mark: tuple[int, int]) -> tuple[int, int, list[Any]] | None:
        """The events recorded since ``mark`` (:meth:`position`) as :meth:`to_json`'s log
        writes them: ``(hand, how many of its events it had at the mark, the events)``;
        None when they don't all belong to the hand being played at the mark (it ended).
        With :meth:`changing_json`, what :meth:`to_json` gained since the mark.

        >>> match = RoomMatch.start_room("jiaxing", seed="since", humans=(0, 1), hands=1)
        >>> before, mark = match.to_json(), match.position()
        >>> _ = match.act_for(min(match.pendings), match.step,
        ...                  match.default_action(min(match.pendings)))
        >>> hand, had, events = match.events_json_since(mark)
        >>> logged = before["log"]["hands"][hand - 1]["events"]
        >>> len(logged) == had and logged + events == match.to_json()["log"]["hands"][-1]["events"]
        True
        """
        hand, seen = mark
        if self._table is None or hand != len(self._finished) + 1 or seen < 1:
            return None
        return hand, seen - 1, [event.to_json() for event in self._events[seen - 1:]]

    @classmethod
    def from_json(cls, data: Any) -> RoomMatch:
        """Restore a match from :meth:`to_json` (the log replayed against the seed, as
        PlayMatch does; a tampered row is refused with :class:`PlayError`)."""
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise PlayError(f"not a stored table: the format must be {FORMAT}")
        try:
            humans = _checked_humans(data["humans"])
            doc = data["log"]
            variant, seed = doc["variant"], data["seed"]
            players = tuple(doc["players"])
            rules, _ = _checked_start(variant, seed, humans[0], data["hands"],
                                      doc.get("rules"), players[humans[0]])
            if not isinstance(data["step"], int) or data["step"] < 1 or len(players) != 4:
                raise PlayError("the stored table has no valid step or not four players")
            level = data.get("level", DEFAULT_LEVEL)
            _check_level(level)
            match = cls(variant, humans, data["hands"], rules,
                        (players[0], players[1], players[2], players[3]), seed,
                        data["step"], level)
            match.autoplay = {int(s) for s in data.get("autoplay", ()) if int(s) in humans}
            match._deal_next()
            match._restore_hands(doc["hands"])
            match.answers = {int(s): read_event({**a, "actor": int(s)}, match.variant)
                             if a.get("type") != "pass" else Event("pass", int(s))
                             for s, a in data.get("answers", {}).items()}
            match.opened = {int(s): (int(v[0]), list(v[1]))
                            for s, v in data.get("opened", {}).items()}
        except PlayError:
            raise
        except (LogError, RuleViolation) as error:
            raise PlayError(f"the stored table doesn't replay: {error}") from None
        except (KeyError, TypeError, IndexError, AttributeError, ValueError) as error:
            raise PlayError(f"the stored table is incomplete or malformed ({error!r})") from None
        match._advance()
        return match

    # -- who is asked -----------------------------------------------------------

    def asked(self, seat: int) -> bool:
        """Is ``seat`` a person's, playing for themselves now (not handed to the bot)?"""
        return seat in self.humans and seat not in self.autoplay

    def legal(self, seat: int | None = None) -> list[dict[str, Any]]:
        """``seat``'s legal actions now (none for a seat that isn't asked now)."""
        pending = self.pendings.get(self.seat if seat is None else seat)
        return [] if pending is None else [_action_json(o) for o in pending.options]

    def opened_at(self, seat: int) -> int | None:
        """The step at which ``seat``'s open decision was opened (None: none is open)."""
        if seat not in self.pendings:
            return None
        return self.opened.get(seat, (self.step, []))[0]

    def act_for(self, seat: int, step: Any, action: Any) -> list[dict[str, Any]]:
        """Apply ``seat``'s answer to its open decision, named by any step from the one it
        was opened at to the current one; then everything that follows without a human
        answer. Returns the entries since, as ``seat`` sees them. :class:`StaleStep` and
        :class:`IllegalAction` change nothing."""
        if self.over:
            raise IllegalAction("C-5", Message("the match is over: there is nothing left to play"))
        opened = self.opened_at(seat)
        if (isinstance(step, bool) or not isinstance(step, int) or opened is None
                or not opened <= step <= self.step):
            if opened is None and self.pendings and isinstance(step, int) \
                    and not isinstance(step, bool) and step == self.step:
                raise IllegalAction("C-2", Message("it isn't {player}'s decision now",
                                                   player=self.players[seat]))
            raise StaleStep(step, self.step)
        pending = self.pendings[seat]
        with self._as(seat):
            self.pending = pending
            event = self._chosen(action)
        mark = self._mark()
        self._take(seat, pending, event)
        return self.events_since(*mark, seat=seat)

    def act(self, step: Any, action: Any) -> list[dict[str, Any]]:
        """PlayMatch's one-human form: answers for the first human seat."""
        return self.act_for(self.humans[0], step, action)

    def default_action(self, seat: int) -> dict[str, Any] | None:
        """What a timeout answers for ``seat``'s open decision: a pass for a claim, a robbery
        or 抢金; for a turn the drawn tile discarded (else the first discard offered);
        otherwise (a void suit, a contract) the bot's choice. None: nothing is open."""
        pending = self.pendings.get(seat)
        if pending is None:
            return None
        options = [_action_json(o) for o in pending.options]
        if {"type": "pass"} in options:
            return {"type": "pass"}
        if pending.kind == "turn":
            table = self._live
            drawn = table.drawn if table.turn == seat else None
            discards = [o for o in options if o["type"] == "discard"]
            for option in discards:
                if drawn is not None and option.get("tile") == str(drawn):
                    return option
            if discards:
                return discards[-1]
        return self.bot_action(seat)

    def bot_action(self, seat: int) -> dict[str, Any] | None:
        """What the match's bot would answer for ``seat``'s open decision."""
        pending = self.pendings.get(seat)
        if pending is None:
            return None
        table = self._live
        events = [e for e in pending.options if e.type != "pass"]
        actions = [a for a in table.legal_actions()
                   if a.seat == seat and any(a.event == e for e in events)]
        if pending.kind in ("claim", "rob_kong"):
            passing = passing_action(table.legal_actions())
            choice = self._bot_choice(table, [*actions, passing])
            return {"type": "pass"} if choice is passing else _action_json(choice.event)
        if pending.kind == "rob_gold":
            return _action_json(actions[0].event) if actions else {"type": "pass"}
        if not actions:
            return _action_json(pending.options[0])
        return _action_json(self._bot_choice(table, actions).event)

    def set_autoplay(self, seat: int, on: bool) -> list[dict[str, Any]]:
        """Hand ``seat`` to the bot (``on``) or give it back; the bot then answers any
        decision of that seat at once. Returns the entries since, as ``seat`` sees them."""
        if seat not in self.humans:
            raise PlayError(f"seat {seat} is not a person's")
        if (seat in self.autoplay) == on:
            return []
        mark = self._mark()
        if on:
            self.autoplay.add(seat)
        else:
            self.autoplay.discard(seat)
        if not self.over:
            self.step += 1
            self._advance()
        return self.events_since(*mark, seat=seat)

    # -- leaving ----------------------------------------------------------------

    def leave_for(self, seat: int) -> list[dict[str, Any]]:
        """``seat``'s person leaves the table for good (the log's ``leave`` event): the
        rules charge them what they say (``Variant.LEAVE_CHARGE``: JX-10.6, SC-6.6; Putian
        nothing, the hand abandoned), the hand plays on as the rules say, and no further
        hand is dealt: the match is over for everyone once this hand ends (``stopped``
        names the leaver). Answers given in an open claim window are asked again.

        >>> match = RoomMatch.start_room("putian", seed="go", humans=(0, 1), hands=4)
        >>> _ = match.leave_for(1)
        >>> match.over, match.result()["stopped"]
        (True, 'Fang left the table in hand 1')
        """
        refused = self.leave_refusal_for(seat)
        if refused is not None:
            raise refused
        mark = self._mark()
        self.step += 1
        self.answers = {}
        self._apply(Event("leave", seat))
        self._advance()
        return self.events_since(*mark, seat=seat)

    def leave_refusal_for(self, seat: int) -> IllegalAction | None:
        """Why ``seat`` can't leave now, or None (the refusal :meth:`leave_for` raises)."""
        if self.over:
            return IllegalAction("C-5", Message("the match is over: there is nothing left to play"))
        if seat not in self.humans:
            return IllegalAction("C-2", Message("only a person's seat can leave the table"))
        table = self._live
        if table.phase is Phase.DINGQUE and table.seats[seat].void is None:
            return IllegalAction("SC-2", Message("name your void suit first: a leaver's charge "
                                                 "(SC-6.6) is reckoned from it"))
        if table.phase is Phase.EXCHANGE:
            return IllegalAction("SC-H1", _EXCHANGE_FIRST)
        if table.seats[seat].left:
            return IllegalAction("C-2", Message("{player} has left already",
                                                player=self.players[seat]))
        return None

    def leave_cost_for(self, seat: int) -> dict[str, Any]:
        """What leaving now would cost ``seat``, reckoned on a copy of the match (this one is
        unchanged): the leaving rule's payment lines from the seat (``payee`` None is the
        house) and the seat's net before and after (PlayMatch.leave_cost's fields)."""
        refused = self.leave_refusal_for(seat)
        if refused is not None:
            raise refused
        before = self.result_for(seat)
        hand_before = self._live.deltas[seat]
        number = len(self._finished) + 1
        copy = RoomMatch.from_json(self.to_json())
        copy.leave_for(seat)
        after = copy.result_for(seat)
        if len(copy._finished) >= number:  # the hand ended with the leave (or after it)
            table = copy._replayer.results[number - 1].table
            playing = 0
        else:  # Sichuan: the hand plays on without the leaver (SC-6.6)
            table = copy._live
            playing = table.deltas[seat]
        rule = VARIANTS[self.variant].LEAVE_CHARGE
        payments = table.payments
        lines = [{"payee": settled.line.payee, "amount": settled.line.amount}
                 for settled in payments
                 if settled.line.payer == seat and settled.line.rule == rule
                 and settled.line.amount]
        return {
            "rule": rule, "hand": number, "lines": lines,
            "to_house": sum(line["amount"] for line in lines if line["payee"] is None),
            "to_players": sum(line["amount"] for line in lines if line["payee"] is not None),
            "net_before": before["you"]["net"] + hand_before,
            "net_after": after["you"]["net"] + playing,
        }

    @property
    def left_in(self) -> int | None:
        """The hand in which a person left the table, if one did."""
        return self._leaver()[1]

    def _leaver(self) -> tuple[int | None, int | None]:
        for number, hand in enumerate(self._finished, start=1):
            for event in hand.events:
                if event.type == "leave" and event.actor in self.humans:
                    return event.actor, number
        return None, None

    def _stop_reason(self) -> str | None:
        seat, number = self._leaver()
        if seat is not None:
            return f"{self.players[seat]} left the table in hand {number}"
        return super()._stop_reason()

    # -- what each seat sees ----------------------------------------------------

    def view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` sees now (docs/play.md's view): its own tiles, the others'
        counted only; ``decision`` and ``legal`` are its own. ``seat`` None: a spectator's
        view, public information only (no hand at all until the hand's end)."""
        viewer = self.humans[0] if seat is None else seat
        if not 0 <= viewer <= 3:
            raise PlayError(f"the seat must be 0, 1, 2 or 3, not {seat!r}")
        with self._as(viewer):
            self.pending = self.pendings.get(viewer)
            out = super().view()
        self.pending = None
        out["decision"] = ({"kind": self.pendings[viewer].kind, "seat": viewer,
                            "opened": self.opened_at(viewer)}
                           if viewer in self.pendings else None)
        out["legal"] = self.legal(viewer)
        out["waiting_for"] = sorted(self.pendings)
        out["answered"] = sorted(self.answers)
        out["humans"] = list(self.humans)
        out["autoplay"] = sorted(self.autoplay)
        if seat is None:  # a spectator: what every seat may see, no hand until it shows
            out["seat"], out["you"], out["decision"], out["legal"] = None, None, None, []
            table = self._table
            for entry in out["seats"]:
                shown = table is None or table.ended or table.seats[entry["seat"]].won
                if not shown:
                    entry.pop("hand", None)
                    entry["melds"] = [{k: v for k, v in m.items()
                                       if not (k == "tile" and m.get("kind") == "concealed")}
                                      for m in entry["melds"]]
        return out

    def spectator_view(self, delay: int = 0) -> dict[str, Any]:
        """A spectator's view ``delay`` events behind the table (a watcher can't tell a
        player what just happened): the board as it was then, public information only.
        Within the current hand; at its start (or the match's end) the view as it is.

        >>> match = RoomMatch.start_room("jiaxing", seed="watch", humans=(0,), hands=1)
        >>> _ = match.act_for(0, match.step, match.default_action(0))
        >>> now, behind = match.view(None), match.spectator_view(3)
        >>> behind["behind"], behind["wall_left"] > now["wall_left"] or behind["wall_left"]
        (3, True)
        """
        out = self.view(None)
        if delay <= 0 or self._table is None or self._hand is None or len(self._events) <= delay:
            return out
        table = self._replayer.begin(len(self._finished) + 1, self._hand)
        table.apply_run(self._events[:len(self._events) - delay])
        scores = out["scores"]
        out["seats"] = [{k: v for k, v in _seat_view(table, s, -1, False, self.players[s],
                                                     scores[s]).items()
                         if k != "hand" or table.seats[s].won} for s in range(4)]
        out.update({"phase": table.phase.value, "turn": table.turn,
                    "wall_left": table.tiles_left, "last_discard": _last_discard(table),
                    "hand_deltas": list(table.deltas),
                    "wins": [_win_json(w) for w in table.wins], "waiting_for": [],
                    "answered": [], "behind": delay})
        return out

    def events_since(self, hand: int, seen: int = 0, seat: int | None = None
                     ) -> list[dict[str, Any]]:
        """The log's entries since, as ``seat`` sees them (PlayMatch.events_since)."""
        with self._as(self.humans[0] if seat is None else seat):
            return super().events_since(hand, seen)

    def position(self) -> tuple[int, int]:
        """Where the log is now, as ``(hand, entries of that hand recorded)``: the mark
        :meth:`digest_since` starts from."""
        return self._mark()

    def digest_since(self, mark: tuple[int, int]) -> str:
        """A short digest of what the match recorded since ``mark`` (:meth:`position`):
        every event (whole, as the log keeps them), the step, who is asked now and what
        they may answer, the answers held and the seats the bot plays. The same inputs
        applied to the same match give the same digest, so a copy of the match that replays
        another process's inputs can check it reached the very same position
        (docs/tables.md, "The kept match").

        >>> match = RoomMatch.start_room("jiaxing", seed="digest", humans=(0, 1), hands=1)
        >>> copy = RoomMatch.from_json(match.to_json())
        >>> mark = match.position()
        >>> for m in (match, copy):
        ...     _ = m.act_for(min(m.pendings), m.step, m.default_action(min(m.pendings)))
        >>> match.digest_since(mark) == copy.digest_since(mark)
        True
        >>> match.digest_since(mark) == match.digest_since(match.position())
        False
        """
        hand, seen = mark
        parts = [f"step {self.step}", f"autoplay {sorted(self.autoplay)}",
                 f"answers {sorted(self.answers.items())!r}",
                 f"opened {sorted(self.opened.items())!r}",
                 f"pendings {sorted(self.pendings.items())!r}"]
        for number in range(hand, len(self._finished) + 2):
            setup, events, _table = self._hand_parts(number)
            if setup is None:
                break
            first = max(seen if number == hand else 0, 1)
            parts.append(f"hand {number} from {first}")
            parts.extend(repr(event) for event in events[first - 1:])
        return hashlib.sha256("\n".join(parts).encode("utf-8")).hexdigest()[:24]

    def last_move(self, seat: int) -> tuple[int, int] | None:
        """Where ``seat``'s latest move is in the log, as ``(hand, index)`` in
        :meth:`events_since`'s numbering (entry ``index`` of a hand is its index-th event):
        what ``/play/`` keeps as the player's ``moves_from``, found here in the log since
        every seat moves in it. A draw or a flower chose nothing: not a move. None before
        the seat's first move.

        >>> match = RoomMatch.start_room("sichuan", seed="last", humans=(0, 2), hands=1)
        >>> match.last_move(0) is None
        True
        >>> _ = match.act_for(0, match.step, {"type": "dingque", "suit": "m"})
        >>> match.last_move(0) is None  # held until every person has named theirs (SC-2)
        True
        >>> _ = match.act_for(2, match.step, {"type": "dingque", "suit": "p"})
        >>> hand, index = match.last_move(0)
        >>> match.events_since(hand, index, seat=0)[0]["event"]["type"]
        'dingque'
        """
        for number in range(len(self._finished) + 1, 0, -1):
            setup, events, _table = self._hand_parts(number)
            if setup is None:
                continue
            for index in range(len(events), 0, -1):
                event = events[index - 1]
                if event.actor == seat and event.type not in ("draw", "flower"):
                    return number, index
        return None

    def result_for(self, seat: int) -> dict[str, Any]:
        """The settlement with ``you`` being ``seat`` (its net and points won)."""
        with self._as(seat):
            return self.result()

    @contextmanager
    def _as(self, seat: int) -> Iterator[None]:
        kept = self.seat
        self.seat = seat
        try:
            yield
        finally:
            self.seat = kept

    # -- playing on -------------------------------------------------------------

    def _key(self, kind: str) -> list[Any]:
        return [len(self._finished) + 1, len(self._events), kind]

    def _take(self, seat: int, pending: Pending, event: Event) -> None:
        """Record ``seat``'s answer; :meth:`_advance` applies it when its moment comes (a
        claim window's once every asked human has answered, a turn's after 抢金, PT-5.5)."""
        self.step += 1
        self.answers[seat] = event
        self._advance()

    def _advance(self) -> None:
        """Play every move that needs no human answer, until some humans must decide (their
        decisions become ``pendings``) or the match ends."""
        self.pending = None
        found: dict[int, Pending] | list[Event] | None = None
        while found is None and self._table is not None:
            table = self._table
            if table.ended:
                self._close_hand()
                continue
            found = self._next_room(table, table.legal_actions())
            if isinstance(found, list):
                self._apply_all(found)
                found = None
        pendings = found if isinstance(found, dict) else {}
        self.pendings = pendings
        opened: dict[int, tuple[int, list[Any]]] = {}
        for seat, pending in pendings.items():
            key = self._key(pending.kind)
            before = self.opened.get(seat)
            opened[seat] = before if before is not None and before[1] == key else (self.step, key)
        self.opened = opened
        if not pendings:
            self.answers = {}
        if self.pendings:
            self.pending = self.pendings.get(self.humans[0])

    def _next_room(self, table: Table, actions: list[Action]
                   ) -> dict[int, Pending] | list[Event]:
        phase = table.phase
        if phase in (Phase.DRAW, Phase.FLOWERS):
            return [actions[0].event]
        if phase in CLAIM_PHASES:
            kind = "claim" if phase is Phase.DISCARDED else "rob_kong"
            asked: dict[int, Pending] = {}
            for seat, options in own_options(actions).items():
                if self.asked(seat) and seat not in self.answers:
                    mine = [a.event for a in options if a.note != "pass"
                            and a.event.type not in ("draw", "end")]
                    if mine:
                        asked[seat] = Pending(kind, (*mine, Event("pass", seat)))
            if asked:
                return asked
            return self._resolve_window(table, actions)
        if phase is Phase.DINGQUE:
            naming: dict[int, list[Event]] = {}
            for action in actions:
                if self.asked(action.seat) and action.seat not in self.answers:
                    naming.setdefault(action.seat, []).append(action.event)
            if naming:
                return {s: Pending("dingque", tuple(o)) for s, o in naming.items()}
            events: list[Event] = []
            for seat in sorted({a.seat for a in actions}):
                if seat in self.answers:
                    events.append(self.answers[seat])
                else:
                    theirs = [a for a in actions if a.seat == seat]
                    events.append(self._bot_choice(table, theirs).event)
            self.answers = {}
            return events
        if phase in (Phase.CONTRACT, Phase.EXCHANGE):  # one seat at a time (JX-9, SC-H1)
            seat = actions[0].seat
            if seat in self.answers:
                return [self.answers.pop(seat)]
            if self.asked(seat):
                return {seat: Pending(phase.value, tuple(a.event for a in actions))}
            return [self._bot_choice(table, actions).event]
        own = [a for a in actions if a.seat == table.turn]
        if table.turn in self.answers:
            return self._rob_round(table, actions, Action(table.turn, self.answers[table.turn]))
        if not self.asked(table.turn):
            return self._rob_round(table, actions, self._bot_choice(table, own))
        choices = [a.event for a in own]  # PT-3.2 whites at once; PT-5.3 a ready hand's draw
        if len(choices) == 1 and choices[0].type in ("flower", "discard") and (
                choices[0].type == "flower" or table.hand_locked(table.turn)):
            return self._rob_round(table, actions, own[0])
        return {table.turn: Pending("turn", tuple(choices))}

    def _rob_round(self, table: Table, actions: list[Action], choice: Action
                   ) -> dict[int, Pending] | list[Event]:
        """PT-5.5: before the dealer's first discard the others, in playing order after the
        dealer, may rob the gold (a human is asked, and may pass; bots always rob);
        otherwise the turn's choice stands."""
        if choice.event.type == "discard":
            for seat, robs in gold_robbers(table, actions):
                answer = self.answers.get(seat)
                if answer is not None and answer.type == "pass":
                    continue
                if answer is not None:
                    self.answers = {}
                    return [answer]
                if self.asked(seat):
                    if choice.seat not in self.answers:
                        self.answers[choice.seat] = choice.event  # the dealer's, kept
                    return {seat: Pending("rob_gold",
                                          (*(a.event for a in robs), Event("pass", seat)))}
                self.answers = {}
                return [robs[0].event]
        self.answers = {}
        return [choice.event]

    def _resolve_window(self, table: Table, actions: list[Action]) -> list[Event]:
        """Every seat's answer to the discard (or added kong): the humans' answers given,
        the bots' taken now; settled by the one resolver."""
        passing = passing_action(actions)
        intents: dict[int, Event] = {}
        for seat, options in own_options(actions).items():
            if seat in self.answers:
                if self.answers[seat].type != "pass":
                    intents[seat] = self.answers[seat]
                continue
            choice = self._bot_choice(table, options)
            if choice is not passing:
                intents[seat] = choice.event
        self.answers = {}
        return resolve_claims(table, intents, passing)


def _checked_humans(humans: Any) -> tuple[int, ...]:
    try:
        seats = tuple(sorted(set(humans)))
    except TypeError:
        seats = ()
    if not 1 <= len(seats) <= 4 or any(
            not isinstance(s, int) or isinstance(s, bool) or not 0 <= s <= 3 for s in seats):
        raise PlayError("a table has 1 to 4 human seats, numbered 0 to 3")
    return seats


def play_scripted(match: RoomMatch, choose: Any, limit: int = 100_000) -> int:
    """Answer every open decision of every human seat with ``choose(match, seat)`` (an
    action) until the match is over; returns the number of answers (tests use it)."""
    for taken in range(limit):
        if not match.pendings:
            return taken
        seat = min(match.pendings)
        match.act_for(seat, match.step, choose(match, seat))
    raise AssertionError(f"the match did not end within {limit} answers")  # pragma: no cover


__all__ = ["FORMAT", "IllegalAction", "PlayError", "RoomMatch", "StaleStep", "play_scripted"]
