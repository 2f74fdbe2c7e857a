"""The ``strong`` bot: reads the table, weighs each discard's chance of winning against
its danger, folds when a discard would cost more than the hand can still win, and
claims, kongs and wins by value.

What it reads (:mod:`games.bots.reading`): the copies it can't see, how likely each
other seat is ready (turns played, melds shown, PT-5.3 declarations), each kind's
chance of dealing in (:func:`tile_danger`: the calibrated estimator of
:mod:`games.bots.danger` where the variant's ``BOT_CALIBRATED_DANGER`` says so, else
:func:`~games.bots.reading.tile_danger`: void suits, SC-2; discards under the ready
lock; kinds thrown before). How far its hand is
(:mod:`games.bots.plans`): shanten toward the nearest shape the variant lets win
(JX-5.3: one suit and honours, or all pungs; SC-2 void; SC-4.1 seven pairs) and the
live tiles each discard keeps accepted. A candidate discard is worth its rough chance
of winning times what a win brings (:attr:`~games.core.variant.Variant.BOT_WIN_VALUE`)
minus its danger times what dealing in costs
(:attr:`~games.core.variant.Variant.BOT_DEAL_IN_COST`): far from ready against a
ready seat, the safe tile wins and the bot folds.

It keeps wildcards (百搭, JX-4; golds can't be thrown anyway, PT-2), never declares
ready (PT-5.3 only locks the hand and tells the others), gives up a contract (JX-9)
unless its hand is close, and in a variant where winners leave and the others play on
(SC-3.2) it passes a cheap discard win when drawing the win itself, or the 查大叫 an
exhausted wall pays a ready hand, is worth more (SC-3.3, SC-6.2, SC-6.4b); a kong there
is weighed against its refund (SC-6.4c) and 杠上炮 (SC-5.17). Plans are weighed by what
their wins pay (:attr:`~games.core.variant.Variant.BOT_PLAN_VALUES`).

It answers for its own seat: shown other seats' actions too (a caller that doesn't
split them), it lets another seat's win stand and leaves other seats' claims to the
``basic`` answer. Stateless between calls apart from its seeded generator.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from games.bots import danger as estimator
from games.bots import reading
from games.bots.basic import Bot as BasicBot
from games.bots.basic import exchange_choice
from games.bots.plans import INF, Option, Planner, win_chance
from games.bots.reading import ready_chance, unseen_counts
from games.core import shapes
from games.core.table import Action, Phase, Table

# Of the draws left, the share a seat can count on before someone else ends the hand.
DRAW_SHARE = 0.75
# Play on when what the wait may still bring exceeds this share of the discard win in
# hand (chosen by paired games on the same walls).
PASS_MARGIN = 1.0
# What a discard that leaves the hand a step further from a win keeps of its chance.
STEP_BACK = 0.6


class StrongBot:
    """One seat's choices at the ``strong`` level."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, table: Table, actions: Sequence[Action]) -> Action:
        if len(actions) == 1:
            return actions[0]
        me = actions[0].seat
        phase = table.phase
        if phase is Phase.DINGQUE:
            return self._void(table, [a for a in actions if a.seat == me])
        if phase is Phase.EXCHANGE:
            return exchange_choice(table, actions)
        if phase is Phase.CONTRACT:
            return self._contract(table, actions)
        mine = [a for a in actions if a.seat == me]
        wins = [a for a in mine if a.event.type == "hu"]
        if wins:
            win = self._win(table, wins)
            if win is not None:
                return win
        others_win = [a for a in actions if a.seat != me and a.event.type == "hu"]
        if others_win:
            return others_win[0]  # another seat wins it (they would: a win comes first)
        if phase in (Phase.DISCARDED, Phase.ROBBABLE):
            return self._claim(table, actions, me)
        return self._turn(table, mine)

    # -- context --------------------------------------------------------------

    def _draws_left(self, table: Table) -> float:
        """The draws this seat can expect before the hand ends."""
        playing = max(len([s for s in table.players_in() if not table.seats[s].gave_up]), 1)
        return DRAW_SHARE * table.tiles_left / playing

    # -- void suit, contract -----------------------------------------------------

    def _void(self, table: Table, actions: Sequence[Action]) -> Action:
        """SC-2: the void suit that leaves the hand closest, the fewest tiles to shed."""
        seat = actions[0].seat
        hand = table.seats[seat].hand
        needs = shapes.needed_two_suits(hand, 4)
        counts = [sum(hand[s * 9 : s * 9 + 9]) for s in range(3)]
        suit = min(range(3), key=lambda s: (max(needs[s], counts[s]) + counts[s] * 0.5, s))
        return next(a for a in actions if a.event.suit == "mps"[suit])

    def _contract(self, table: Table, actions: Sequence[Action]) -> Action:
        """JX-9: persist while the hand can still meet JX-5.3; giving up pays nothing but
        gives up the win too. Paired games (400 walls, strong − basic in Jiaxing): persisting
        only one step from ready or closer +8.75 a hand, up to three steps +9.66, always
        +9.78; a hand with no plan left can't win, so it gives up."""
        seat = actions[0].seat
        persist = Planner(table, seat).shanten(table.seats[seat].hand) < INF
        return next(a for a in actions
                    if (a.event.choice == "persist") == persist)

    # -- wins -----------------------------------------------------------------------

    def _win(self, table: Table, wins: Sequence[Action]) -> Action | None:
        """The win to take, or None to play on (SC-3.3)."""
        bombs = [a for a in wins if a.event.how == "bomb"]
        win = bombs[0] if bombs else wins[0]
        if (table.PLAY_ON and win.event.target is not None and win.event.how is None
                and self._plays_on(table, win)):
            return None
        return win

    def _plays_on(self, table: Table, win: Action) -> bool:
        """SC-3.3: pass a discard win when the self-draw it waits for is worth more.

        A discard win is paid by the discarder alone (SC-6.1); the same hand drawn is
        paid by every seat still in, a fan more (SC-5.15, SC-6.2). Playing on risks
        nothing of the hand's shape (the win stays possible on a later discard) but
        keeps the seat paying others' self-draws while it stays.
        """
        seat = win.seat
        tile = win.event.tile
        assert tile is not None
        variant = table.variant
        position = table.seat_position(seat, win_tile=tile, extra=tile)
        now = variant.score(position)
        if not now.win:
            return False
        drawn = variant.score(table.seat_position(seat, win_tile=tile, extra=tile,
                                                  self_draw=True))
        payers = len(table.players_in()) - 1
        unseen = unseen_counts(table, seat)
        planner = Planner(table, seat)
        shanten, live = planner.acceptance(table.seats[seat].hand, unseen)
        if shanten != 0 or live < 2:
            return False
        draws = self._draws_left(table)
        self_draw = win_chance(0, live, sum(unseen), draws)
        # While it stays, the seat pays its share of the others' self-draws: about a
        # tenth of a win for each other seat still in, less as the wall runs out.
        exposure = 0.1 * (payers - 1) * min(draws, 6.0) / 6.0 * variant.BOT_WIN_VALUE
        # Not drawn: a later discard may still win, or an exhausted wall pays the ready
        # hand its best wait from every seat still in that isn't ready (查大叫, SC-6.4b).
        unready = sum(1 - ready_chance(table, seat, other)
                      for other in table.players_in() if other != seat)
        rest = max(0.5, unready if variant.BOT_PAYS_READY_AT_THE_END else 0.0)
        later = (self_draw * drawn.points * payers + (1 - self_draw) * rest * now.points)
        return later - exposure > PASS_MARGIN * now.points

    # -- claims ---------------------------------------------------------------------

    def _claim(self, table: Table, actions: Sequence[Action], me: int) -> Action:
        passing = next(a for a in actions if a.note == "pass" or a.event.type == "end")
        claims = [a for a in actions if a.seat == me and a.event.type in ("peng", "chi", "gang")]
        choice = self._best_claim(table, claims, me) if claims else None
        if choice is not None:
            outranked = choice.event.type == "chi" and any(
                a.seat != me and a.event.type in ("peng", "gang") for a in actions)
            if not outranked:
                return choice
        others = [a for a in actions if a.seat != me or a is passing]
        if len(others) > 1:
            # Another seat may claim: it decides as the table's other players do.
            return BasicBot(self.rng).choose(table, others)
        return passing

    def _best_claim(self, table: Table, claims: Sequence[Action], me: int) -> Action | None:
        state = table.seats[me]
        unseen = unseen_counts(table, me)
        total = sum(unseen)
        draws = self._draws_left(table)
        planner = Planner(table, me)
        shanten, _ = planner.acceptance(state.hand, unseen)
        now = max((win_chance(s, live, total, draws) * planner.value(name)
                  for name, s, live in planner.options(state.hand, unseen)), default=0.0)
        danger = tile_danger(table, me)
        best: tuple[float, Action] | None = None
        for claim in claims:
            event = claim.event
            assert event.tile is not None
            kind = event.tile.kind
            after = list(state.hand)
            if event.type == "chi":
                for shown in event.tiles:
                    after[shown.kind] -= 1
            else:
                after[kind] -= 3 if event.type == "gang" else 2
            claimed = planner.with_meld(kind, chow=event.type == "chi")
            if event.type == "gang":
                closeness, live_after = claimed.acceptance(after, unseen)
                if closeness > shanten or not self._kong_pays(
                        table, after, closeness, live_after, unseen, danger, 2):
                    continue
                chance = max((win_chance(s, live, total, draws + 1) * claimed.value(name)
                              for name, s, live in claimed.options(after, unseen)), default=0.0)
                chance += 0.02  # the kong pays at once (SC-6.3) and scores (JX-6)
            else:
                chance = self._best_after(table, claimed, after, unseen, draws, danger)
            if event.type != "gang" and table.variant.HAS_CONTRACTS:
                if state.claims_from[event.target or 0] >= 2 and chance < 0.5:
                    continue  # a third claim from one seat binds a contract (JX-9)
            if chance > now * 1.05 + 0.005 and (best is None or chance > best[0]):
                best = (chance, claim)
        return best[1] if best is not None else None

    def _best_after(self, table: Table, planner: Planner, counts: list[int],
                    unseen: Sequence[int], draws: float, danger: Sequence[float]) -> float:
        """The best worth (as :func:`hand_worth`, danger taken off) after discarding one
        tile from ``counts``."""
        kinds = [k for k in range(34) if counts[k] and not table.is_wild(k)]
        if not kinds:
            return 0.0
        win_value, deal_in = self._values(table)
        rows = planner.after_discards(counts, kinds, unseen)
        worth = hand_worth(planner, rows, sum(unseen), draws)
        return max(worth[k] - danger[k] * deal_in / win_value for k in kinds)

    @staticmethod
    def _values(table: Table) -> tuple[float, float]:
        variant = table.variant
        return float(variant.BOT_WIN_VALUE), float(variant.BOT_DEAL_IN_COST)

    # -- the seat's own turn ----------------------------------------------------------

    def _turn(self, table: Table, actions: Sequence[Action]) -> Action:
        by_type: dict[str, list[Action]] = {}
        for action in actions:
            by_type.setdefault(action.event.type, []).append(action)
        if "flower" in by_type:
            return by_type["flower"][0]
        seat = actions[0].seat
        discards = by_type.get("discard", [])
        if not discards:
            return next((a for a in actions if a.event.type != "ready"), actions[0])
        state = table.seats[seat]
        planner = Planner(table, seat)
        unseen = unseen_counts(table, seat)
        kinds = [a.event.tile.kind for a in discards if a.event.tile is not None]
        rows = planner.after_discards(state.hand, kinds, unseen)
        danger = tile_danger(table, seat)
        kong = self._kong(table, by_type.get("gang", []), planner, rows, unseen, danger)
        if kong is not None:
            return kong
        return self._discard(table, planner, discards, rows, unseen, danger)

    def _kong(self, table: Table, kongs: Sequence[Action], planner: Planner,
              rows: dict[int, list[Option]], unseen: Sequence[int],
              danger: Sequence[float]) -> Action | None:
        """A kong that keeps the hand as close (it pays at once, SC-6.3, and scores, JX-6)
        and is worth its risks: an added kong not while another seat may well be
        waiting on its tile (robbing, JX-8, SC-5.18); where kong payments come back
        from a seat not ready at the end (SC-6.4c), not when the discard after it is
        more likely to be won on, a fan dearer (杠上炮, SC-5.17), than the hand to be
        ready to keep what the kong brought."""
        if not kongs:
            return None
        best_now = min((s for options in rows.values() for _, s, _ in options), default=INF)
        state = table.seats[kongs[0].seat]
        for kong in kongs:
            tile = kong.event.tile
            assert tile is not None
            after = list(state.hand)
            concealed = kong.event.kind == "concealed"
            after[tile.kind] -= 4 if concealed else 1
            melded = planner.with_meld(tile.kind, chow=False) if concealed else planner
            shanten, live = melded.acceptance(after, unseen)
            if shanten > best_now:
                continue
            if not concealed and danger[tile.kind] > 0.05:
                continue
            payers = len(table.players_in()) - 1
            if not self._kong_pays(table, after, shanten, live, unseen, danger,
                                   (2 if concealed else 1) * payers):
                continue
            return kong
        return None

    def _kong_pays(self, table: Table, after: Sequence[int], shanten: int, live: int,
                   unseen: Sequence[int], danger: Sequence[float], income: int) -> bool:
        """SC-6.3/SC-6.4c/SC-5.17: what the kong brings (``income``), kept if the hand is
        ready by the end, against a win on the discard that follows its replacement."""
        if not table.variant.BOT_KONG_REFUNDED:
            return True
        draws = self._draws_left(table)
        kept = win_chance(shanten - 1, live, sum(unseen), draws) if shanten > 0 else 1.0
        safest = min((danger[k] for k in range(34) if after[k]), default=0.0)
        return income * kept >= safest * 2 * table.variant.BOT_WIN_VALUE

    def _discard(self, table: Table, planner: Planner, discards: Sequence[Action],
                 rows: dict[int, list[Option]], unseen: Sequence[int],
                 danger: Sequence[float]) -> Action:
        win_value, deal_in = self._values(table)
        worth = hand_worth(planner, rows, sum(unseen), self._draws_left(table))
        scored = []
        for action in discards:
            tile = action.event.tile
            assert tile is not None
            kind = tile.kind
            value = worth[kind] * win_value - danger[kind] * deal_in
            if table.is_wild(kind):
                value -= win_value  # keep the wildcard (百搭, JX-4)
            nearest = min((shanten for _, shanten, _ in rows[kind]), default=INF)
            live = max((live for _, shanten, live in rows[kind] if shanten == nearest),
                       default=0)
            # ties: the nearer shape, the wider one, then an honour before a suited tile
            scored.append((-value, nearest, -live, kind < 27, self.rng.random(), action))
        scored.sort(key=lambda row: row[:5])
        return scored[0][5]


def tile_danger(table: Table, seat: int) -> list[float]:
    """For each kind, the chance that ``seat`` discarding it now deals in: the calibrated
    estimator's fast reading (:func:`games.bots.danger.tile_danger`, 0 for kinds the seat
    doesn't hold) or, where the variant's ``BOT_CALIBRATED_DANGER`` is off, the heuristic
    of :func:`games.bots.reading.tile_danger`."""
    if not table.variant.BOT_CALIBRATED_DANGER:
        return reading.tile_danger(table, seat)
    found = estimator.tile_danger(table, seat)
    return [found.total(kind) for kind in range(34)]


def hand_worth(planner: Planner, rows: dict[int, list[Option]], unseen: int,
               draws: float) -> dict[int, float]:
    """For each candidate discard, the best over the plans of the rough chance of winning
    by it times what it is worth (:meth:`Planner.value`). A discard that leaves a plan a
    step further than the best discard for it keeps only ``STEP_BACK`` of its chance
    per step: the wider hand a step further is seldom worth it."""
    nearest: dict[str, int] = {}
    for options in rows.values():
        for name, shanten, _ in options:
            if shanten < nearest.get(name, INF):
                nearest[name] = shanten
    out: dict[int, float] = {}
    for kind, options in rows.items():
        best = 0.0
        for name, shanten, live in options:
            chance = win_chance(shanten, live, unseen, draws)
            chance *= STEP_BACK ** (shanten - nearest[name]) * planner.value(name)
            best = max(best, chance)
        out[kind] = best
    return out
