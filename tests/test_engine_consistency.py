"""The engine agrees with itself: what the table settles is what ``score`` and ``waits`` say.

Over bot-played matches and the hand-written logs, every win the table settles
pays what :meth:`Variant.score` gives for the position built from the table's
tiles, with the context flags (last tile, after a kong, robbing, first turn,
bank) worked out here from the events alone, as RULES.md defines them
(JX-7.2/7.6/7.7/7.8, SC-5.11/5.12/5.16/5.17/5.18, PT-5.4–5.6). Every exhausted
Sichuan hand pays 查大叫 the best wait of ``waits`` for each ready player's tiles,
as a win on a discard, capped (SC-6.4 b). Issue 12's 海底 on a kong replacement
(JX-7.6) is the kind of disagreement this catches.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

import pytest

from games.bots.simulation import simulate
from games.core import settlement
from games.core.position import Position
from games.core.table import Table
from games.core.tiles import TILES, Tile
from games.core.variant import Score
from games.records.log import Event, Match, read_log
from games.records.match import Replayer
from games.variants.sichuan import Sichuan
from tests.logbuild import single
from tests.test_logs_play import VALID
from tests.test_rules_precision import jx_kong_on_the_last_tile, sc_kong_then_winner_leaves

BOT_SEEDS = (1, 2)
BOT_HANDS = 40


@dataclass
class Witness:
    """What the events of a hand so far say about the context of a win."""

    wall_size: int | None
    events: list[Event] = field(default_factory=list)
    discarded: set[int] = field(default_factory=set)
    claimed: bool = False  # a chow, pung or exposed kong (JX-7.8)
    pung_or_kong: bool = False  # any pung or kong (SC-5.11/5.12)
    draws: int = 0
    won: set[int] = field(default_factory=set)  # SC-H2: a second win is never a first turn

    def saw(self, event: Event) -> None:
        self.events.append(event)
        if event.type == "discard" and event.actor is not None:
            self.discarded.add(event.actor)
        elif event.type == "draw":
            self.draws += 1
        elif event.type in ("chi", "peng") or (event.type == "gang" and event.kind == "exposed"):
            self.claimed = True
        if event.type in ("peng", "gang"):
            self.pung_or_kong = True
        if event.type == "hu" and event.actor is not None:
            self.won.add(event.actor)

    @property
    def wall_empty(self) -> bool:
        return self.wall_size is not None and self.draws == self.wall_size

    def replacement_after_kong(self, back: int = 1) -> bool:
        """The event ``back`` steps ago is a back draw that follows a kong."""
        events = self.events
        if len(events) < back + 1:
            return False
        draw, before = events[-back], events[-back - 1]
        return draw.type == "draw" and draw.source == "back" and before.type == "gang"

    def discard_after_kong(self) -> bool:
        """The discard on the table came right after its discarder's kong replacement."""
        events = [e for e in self.events if e.type != "hu"]
        return bool(events) and events[-1].type == "discard" and Witness(
            None, events[:-1]).replacement_after_kong()

    def first_turn(self, seat: int, table: Table) -> bool:
        no_call = not self.pung_or_kong if table.PLAY_ON else not self.claimed
        return seat not in self.discarded and no_call and seat not in self.won


def expected_score(table: Table, witness: Witness, event: Event) -> Score:
    """``score`` for the position of a ``hu`` about to be applied, flags from the events."""
    seat, tile, how = event.actor, event.tile, event.how
    assert seat is not None and tile is not None
    plain = table.seat_position(seat, win_tile=tile)
    if how == "rob_gold":
        return _best_gold_robbing(table, seat, tile)
    if how == "robbing_kong":
        return table.variant.score(_grown(plain, tile, robbing_kong=True))
    if event.target is not None:
        return table.variant.score(_grown(
            plain, tile, last_tile=witness.wall_empty,
            after_kong_discard=witness.discard_after_kong()))
    return table.variant.score(replace(
        plain, self_draw=True, after_kong=witness.replacement_after_kong(),
        last_tile=witness.wall_empty, first_turn=witness.first_turn(seat, table),
        bomb=how == "bomb"))


def _grown(position: Position, tile: Tile, **flags: bool) -> Position:
    return replace(position.with_hand((*position.hand, tile), tile), **flags)


def _best_gold_robbing(table: Table, seat: int, gold: Tile) -> Score:
    """PT-5.5: the taken gold completes the hand; the dealer sets aside one tile first."""
    tiles = table.seats[seat].tiles()
    hands = [tiles]
    if seat == table.dealer:
        hands = [tiles[:i] + tiles[i + 1:] for i in range(len(tiles))]
    base = table.seat_position(seat, win_tile=gold, robbing_gold=True)
    scores = [table.variant.score(base.with_hand((*rest, gold), gold)) for rest in hands]
    return max((s for s in scores if s.win), key=lambda s: s.points)


def best_wait_as_discard_win(table: Table, seat: int) -> int:
    """SC-6.4 b: the most a player's tiles could win, as a win on a discard, capped."""
    answer = Sichuan.waits(table.seat_position(seat))
    assert not hasattr(answer, "discards")
    return max((w.score.points for w in answer.waits), default=0)  # type: ignore[union-attr]


def expected_exhaustion(table: Table) -> list[int]:
    """SC-6.4 from ``waits`` and the tiles, with the kong payments the table recorded."""
    still_in = table.players_in()
    if len(still_in) < 2:
        return [0, 0, 0, 0]
    pigs = [s for s in still_in if len({t.kind // 9 for t in table.seats[s].tiles()}
                                         | {m.first.kind // 9 for m in table.seats[s].melds}) == 3]
    ready = {s: best_wait_as_discard_win(table, s) for s in still_in if s not in pigs}
    income = {s: [(payer, amount) for payer, amount in table.seats[s].kong_income
                   if not table.seats[payer].left] for s in still_in}
    cap = table.rule("base") * 2 ** (table.rule("cap_fan") - 1)
    return settlement.sichuan_exhaustion_deltas(
        still_in=still_in, flower_pigs=pigs, ready_points={s: p for s, p in ready.items() if p},
        cap_points=cap, kong_income=income)


@dataclass
class Checked:
    """How many wins and exhausted Sichuan hands a replay checked."""

    wins: int = 0
    exhausted: int = 0


def replay_checking(match: Match) -> Checked:
    """Replay a match event by event, checking every win and every exhausted hand."""
    checked = Checked()
    replayer = Replayer(match)
    for number, hand in enumerate(match.hands, start=1):
        table = replayer.begin(number, hand)
        witness = Witness(len(hand.wall) if hand.wall is not None else None)
        reason = "abandoned"
        for event in hand.events:
            if event.type == "end":
                reason = event.reason or "win"
                _check_end(table, reason, checked)
                break
            if event.type == "hu":
                _check_win(table, witness, event, number)
                checked.wins += 1
            else:
                table.apply(event)
            witness.saw(event)
        replayer.conclude(number, hand, table, reason)
    return checked


def _check_win(table: Table, witness: Witness, event: Event, number: int) -> None:
    """Apply a ``hu``; what the table settled must be what ``score`` says."""
    expected = expected_score(table, witness, event)
    before, lines_before = len(table.wins), len(table.payments)
    table.apply(event)
    settled = table.wins[before].score
    where = f"hand {number}: {event}"
    assert settled.points == expected.points, where
    assert [h.pattern.id for h in settled.patterns] == [
        h.pattern.id for h in expected.patterns], where
    if table.variant is Sichuan:  # SC-6.1/6.2: each payer pays the points (SC-H4 included)
        paid = [line.line.amount for line in table.payments[lines_before:]
                if line.line.cause == "win" and line.line.payee == event.actor]
        assert paid and set(paid) == {expected.points}, where


def _check_end(table: Table, reason: str, checked: Checked) -> None:
    """End the hand; an exhausted Sichuan hand must pay SC-6.4 with 查大叫 from ``waits``."""
    if reason != "exhausted" or not table.PLAY_ON:
        table.finish(reason)
        return
    before = list(table.deltas)
    expected = expected_exhaustion(table)
    after = table.finish(reason)
    assert [a - b for a, b in zip(after, before, strict=True)] == expected
    checked.exhausted += 1


def hand_written() -> Iterator[Match]:
    for factory in VALID.values():
        yield read_log(factory())
    yield read_log(single(jx_kong_on_the_last_tile().end("win")))
    yield read_log(single(sc_kong_then_winner_leaves().end("exhausted")))


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_settles_every_bot_win_as_score_says_and_every_chadajiao_as_waits_says(
        variant: str) -> None:
    checked = Checked()
    for seed in BOT_SEEDS:
        found = replay_checking(simulate(variant, BOT_HANDS, seed))
        checked.wins += found.wins
        checked.exhausted += found.exhausted
    assert checked.wins >= len(BOT_SEEDS) * BOT_HANDS // 4  # it saw wins, not an empty corpus
    if variant == "sichuan":
        assert checked.exhausted > 0


# Every house rule that changes a win's value on (SC-H4–H8), and those that differ from
# the seed's among the Chengdu table's; each seed's matches show SC-H4, SC-H6 and SC-H8.
HOUSE_RULES = [
    {"self_draw_bonus": "base", "concealed_middle": True, "golden_hook": True,
     "sea_bottom": True, "heavenly_earthly": False, "cap_fan": 6},
    {k: v for k, v in Sichuan.PRESETS["chengdu"].rules.items() if k in Sichuan.OPTIONS},
]


@pytest.mark.parametrize("rules", HOUSE_RULES)
def test_it_settles_every_bot_win_as_score_says_with_the_house_rules_sc_h(
        rules: dict[str, int | str | bool]) -> None:
    checked = Checked()
    seen: set[str] = set()
    for seed in BOT_SEEDS:
        match = simulate("sichuan", BOT_HANDS, seed, rules=rules)
        found = replay_checking(match)
        checked.wins += found.wins
        checked.exhausted += found.exhausted
        seen |= {hit.pattern.id for hand in Replayer(match).hands() for win in hand.table.wins
                 for hit in win.score.patterns}
    assert checked.wins >= len(BOT_SEEDS) * BOT_HANDS // 4 and checked.exhausted > 0
    assert {"SC-H4", "SC-H6", "SC-H8"} <= seen


def test_it_settles_every_hand_written_win_as_score_says() -> None:
    wins = sum(replay_checking(match).wins for match in hand_written())
    assert wins >= 20


def test_it_catches_a_table_that_drops_haidi_on_a_kong_replacement_jx_7_6(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The check itself fails when the table builds the win position without 海底
    on the last replacement, as before issue 12."""
    original = Table.seat_position

    def old_flags(self: Table, seat: int, *args: object, **flags: bool) -> Position:
        if flags.get("after_kong"):
            flags["last_tile"] = False
        return original(self, seat, *args, **flags)  # type: ignore[arg-type]

    monkeypatch.setattr(Table, "seat_position", old_flags)
    with pytest.raises(AssertionError):
        replay_checking(read_log(single(jx_kong_on_the_last_tile().end("win"))))


def test_the_witness_reads_a_replacement_after_a_kong() -> None:
    witness = Witness(10)
    for event in (Event("gang", 0, tile=TILES[0], kind="concealed"),
                  Event("draw", 0, tile=TILES[1], source="back")):
        witness.saw(event)
    assert witness.replacement_after_kong()
    assert 0 not in witness.discarded and not witness.claimed and witness.pung_or_kong
    assert not witness.wall_empty
