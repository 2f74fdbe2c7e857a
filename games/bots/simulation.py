"""``simulate``: whole matches played through the table by bots.

The seats are :mod:`games.bots.basic` bots unless told otherwise (``bots``: a level
per seat, :mod:`games.bots.levels`). Each seat chooses among its own actions only;
claims on a discard are resolved by the table's priority (:mod:`games.bots.claims`).
Everything is decided by seeded :class:`random.Random` generators, so the same seed
gives the same match.

>>> match = simulate("sichuan", hands=1, seed=7)
>>> match.variant, len(match.hands)
('sichuan', 1)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import replace

from games.bots.claims import (
    CLAIM_PHASES,
    gold_robbers,
    own_options,
    pass_after_wins,
    passing_action,
    resolve_claims,
)
from games.bots.levels import Seat, make_bot, read_levels
from games.core.table import Action, Phase, Table
from games.core.tiles import TILES, WINDS, Tile
from games.core.variant import Variant
from games.records.log import Event, HandLog, MatchLog
from games.records.match import Replayer
from games.variants.registry import variant_named


class Dealer:
    """Shuffles and deals a new hand the way its variant does (JX-1/4, PT-1/2, SC-1)."""

    def __init__(self, variant: type[Variant], rng: random.Random) -> None:
        self.variant = variant
        self.rng = rng

    def tiles(self) -> list[Tile]:
        tiles = [TILES[k] for k in self.variant.tile_kinds() for _ in range(4)]
        self.rng.shuffle(tiles)
        return tiles

    def deal(self, dealer: int) -> tuple[list[list[Tile]], list[Tile], dict[str, object]]:
        wall = self.tiles()
        extra: dict[str, object] = {"dice": (self.rng.randint(1, 6), self.rng.randint(1, 6))}
        wall = self.variant.turn_up(wall, self.rng, extra)
        size = self.variant.HAND_SIZE
        hands = [[] for _ in range(4)]  # type: list[list[Tile]]
        for seat in range(4):
            count = size + (1 if seat == dealer else 0)
            hands[seat] = sorted(wall[:count])
            wall = wall[count:]
        return hands, wall, extra


def _checked(event: Event) -> Event:
    if event.type == "draw" and event.tile is None:
        raise AssertionError("the simulator always knows its wall")
    return event


def next_events(table: Table, seats: Sequence[Seat], actions: Sequence[Action],
                passing: Collection[int] = ()) -> list[Event]:
    """What the table moves by now, each seat choosing among its own actions only.

    At a discard or an added kong every seat that may claim answers (claim or pass) and
    the table's priority decides (:mod:`games.bots.claims`); the seats in ``passing``
    pass without being asked. On a turn the player to act chooses; a discard before the
    dealer's first lets the others rob the gold in playing order (PT-5.5). A seat with
    a single legal action is not asked.
    """
    phase = table.phase
    if phase in CLAIM_PHASES:
        pass_action = passing_action(actions)
        intents: dict[int, Event] = {}
        for seat, own in own_options(actions).items():
            if seat in passing:
                continue
            choice = seats[seat].choose(table, own)
            if choice is not pass_action:
                intents[seat] = choice.event
        return resolve_claims(table, intents, pass_action)
    mover = table.turn if phase is Phase.TURN else actions[0].seat
    own = [a for a in actions if a.seat == mover]
    choice = own[0] if len(own) == 1 else seats[mover].choose(table, own)
    if phase is Phase.TURN and choice.event.type == "discard":
        for seat, robs in gold_robbers(table, actions):
            declined = Action(seat, Event("pass", seat), note="pass")
            answer = seats[seat].choose(table, [*robs, declined])
            if answer is not declined:
                return [answer.event]
    return [choice.event]


def play_hand(table: Table, seats: Sequence[Seat]) -> list[Event]:
    """Play one hand to its end, each seat choosing for itself; returns its events,
    the end included."""
    events: list[Event] = []

    def play(event: Event) -> bool:
        """Apply one event; True once the hand is over."""
        if event.type == "end":
            deltas = table.finish(event.reason or "exhausted")
            events.append(replace(event, deltas=tuple(deltas)))
            return True
        table.apply(_checked(event))
        events.append(event)
        return False

    for _ in range(2000):
        if table.phase is Phase.ENDED:
            reason = table.end_reason or "win"
            deltas = table.finish(reason) if reason != "abandoned" else list(table.deltas)
            events.append(Event("end", None, reason=reason, deltas=tuple(deltas)))
            return events
        for event in next_events(table, seats, table.legal_actions()):
            if table.ended:
                break  # SC-3.2: the third win ends the hand
            if play(event):
                return events
        after = pass_after_wins(table)
        if after is not None and play(after):
            return events
    raise AssertionError("a hand did not end")  # pragma: no cover


def simulate(variant: str, hands: int, seed: int, wall_seed: int | None = None,
             rules: dict[str, int | str | bool] | None = None,
             bots: Sequence[str] = ("basic",) * 4) -> MatchLog:
    """Bots play a match of ``hands`` hands; the same seeds give the same match.

    ``bots`` names each seat's level (:data:`games.bots.levels.LEVELS`). The walls come
    from ``wall_seed`` (default ``seed``) alone: the bots' decisions never draw from the
    dealer's generator, so the same wall seed deals the same first wall whatever the bots.

    >>> simulate("sichuan", 1, 7, bots=("basic", "nobody"))
    Traceback (most recent call last):
    ...
    ValueError: bots: give one level for every seat or four, one per seat (got 2): basic,nobody
    """
    levels = read_levels(",".join(bots))
    rules_class = variant_named(variant)
    rng = random.Random(seed)
    dealer_rng = random.Random(seed if wall_seed is None else wall_seed)
    dealer = Dealer(rules_class, dealer_rng)
    seats = [make_bot(level, random.Random(rng.random())) for level in levels]
    match = MatchLog(variant=variant, players=rules_class.BOT_NAMES, rules=dict(rules or {}),
                  title=f"Bots, seed {seed}", played_at=None, hands=())
    replayer = Replayer(match)
    played: list[HandLog] = []
    for number in range(1, hands + 1):
        hand = deal_hand(replayer, dealer, number)
        table = replayer.begin(number, hand)
        events = play_hand(table, seats)
        hand = replace(hand, events=tuple(events))
        replayer.conclude(number, hand, table, events[-1].reason or "win")
        played.append(hand)
    return replace(match, hands=tuple(played))


def deal_hand(replayer: Replayer, dealer: Dealer, number: int) -> HandLog:
    """Hand ``number`` of the match ``replayer`` is playing, shuffled and dealt by ``dealer``.

    What the hand states besides its tiles follows from the earlier hands
    (JX-3 dealer and round wind, JX-7.11 carried fans, PT-7.1 dealer streak); the
    hand has no events yet. The same dealer seed and the same earlier hands give
    the same hand, which is how a played match's deals can be checked afterwards.
    """
    variant = dealer.variant
    fields = variant.HAND_FIELDS
    seat = _next_dealer(variant, replayer, dealer.rng, number)
    deal, wall, extra = dealer.deal(seat)
    wildcards = extra.get("wildcards", ())
    if replayer.match.rules.get("wildcard_method") == "indicator":
        wildcards = (extra["indicator"],)  # the turned-up tile itself is wild (JX-4)
    return HandLog(
        dealer=seat,
        round_wind=WINDS[replayer.carry.round_wind] if "round_wind" in fields else None,
        dice=extra["dice"],  # type: ignore[arg-type]
        wildcards=wildcards,  # type: ignore[arg-type]
        indicator=extra.get("indicator"),  # type: ignore[arg-type]
        bank=replayer.carry.bank if "bank" in fields else None,
        dealer_streak=replayer.carry.dealer_streak if "dealer_streak" in fields else None,
        deal=tuple(tuple(h) for h in deal),
        wall=tuple(wall),
        events=(),
    )


def _next_dealer(variant: type[Variant], replayer: Replayer, rng: random.Random,
                 number: int) -> int:
    if variant.DEALER_RULE is None:
        return rng.randrange(4)  # chosen by dice each hand (SC-1)
    if number == 1:
        return variant.FIRST_DEALER if variant.FIRST_DEALER is not None else rng.randrange(4)
    return replayer.carry.dealer if replayer.carry.dealer is not None else 0


def coverage(matches: Sequence[MatchLog]) -> dict[str, dict[str, int]]:
    """How often each event type, pattern and settlement rule occurred."""
    from games.records.match import settlement_rule

    events: Counter[str] = Counter()
    patterns: Counter[str] = Counter()
    rules: Counter[str] = Counter()
    for match in matches:
        replayer = Replayer(match)
        for result in replayer.hands():
            table = result.table
            streak: list[Event] = []
            for hand_event in match.hands[result.number - 1].events:
                if hand_event.type == "hu" and hand_event.target is not None and (
                        streak and streak[-1].target == hand_event.target):
                    streak.append(hand_event)
                elif hand_event.type == "hu" and hand_event.target is not None:
                    streak = [hand_event]
                else:
                    if len(streak) >= 2:
                        rules[f"SC-3.1 {len(streak)} winners on one discard"] += 1
                    streak = []
                key = hand_event.type
                if hand_event.type == "hu" and hand_event.how:
                    key = f"hu:{hand_event.how}"
                elif hand_event.type == "gang":
                    key = f"gang:{hand_event.kind}"
                elif hand_event.type in ("contract", "end"):
                    key = f"{hand_event.type}:{hand_event.choice or hand_event.reason}"
                elif hand_event.type == "hu":
                    key = "hu:" + ("discard" if hand_event.target is not None else "self_draw")
                events[key] += 1
            for win in table.wins:
                for hit in win.score.patterns:
                    patterns[f"{hit.pattern.id} {hit.pattern.name}"] += 1
            rules[settlement_rule(table)] += 1
            winners = len(table.wins)
            if winners >= 2:
                rules[f"{winners} winners"] += 1
            # A seat that won again in the same hand (血流成河, SC-H2).
            again = winners - len({win.seat for win in table.wins})
            if again:
                rules["SC-H2 repeated wins"] += again
            rules.update(table.settlement_notes)
    return {"events": dict(sorted(events.items())), "patterns": dict(sorted(patterns.items())),
            "settlement": dict(sorted(rules.items()))}
