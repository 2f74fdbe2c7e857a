"""The ``strong`` bot (issue 26): it plays only legal actions, the same seed plays the
same, it beats ``basic`` on a small fixed packet of walls, and it does what its level
promises in positions built by hand: it passes a cheap Sichuan discard win early
(SC-3.3), folds against a Putian seat that declared ready (PT-5.3), and keeps the
Jiaxing wildcard while it sheds the tiles JX-5.3 can't use.

The positions are a real deal's table with the seats' tiles and rivers set by hand, so
each test states exactly what the bot can see.
"""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games.bots.basic import Bot
from games.bots.levels import LEVELS, make_bot
from games.bots.plans import Planner
from games.bots.simulation import Dealer, deal_hand, play_hand, simulate
from games.bots.strong import StrongBot
from games.core.events import Event
from games.core.table import Action, Phase, Table
from games.core.tiles import Meld, Tile, counts_of, parse_tiles
from games.records.log import MatchLog
from games.records.match import Replayer
from games.variants.registry import variant_named

VARIANTS = ("jiaxing", "putian", "sichuan")


def fresh_table(variant: str, seed: int = 1) -> Table:
    match = simulate(variant, 1, seed)
    return Replayer(match).begin(1, match.hands[0])


def set_hand(table: Table, seat: int, text: str) -> None:
    table.seats[seat].hand = counts_of(parse_tiles(text))


def river(text: str) -> list[tuple[Tile, bool]]:
    return [(tile, False) for tile in parse_tiles(text)]


# -- legal and deterministic ---------------------------------------------------------


class Checked:
    """A strong seat that asserts it only ever picks one of the actions it is shown."""

    def __init__(self, rng: random.Random) -> None:
        self.bot = StrongBot(rng)

    def choose(self, table: Table, actions: list[Action]) -> Action:
        choice = self.bot.choose(table, actions)
        assert choice in actions, (choice, actions)
        return choice


def play_wall(variant: str, wall: int, levels: list[type]) -> tuple[list[int], list[Event]]:
    rules = variant_named(variant)
    match = MatchLog(variant=variant, players=rules.BOT_NAMES, rules={}, title="packet",
                     played_at=None, hands=())
    replayer = Replayer(match)
    hand = deal_hand(replayer, Dealer(rules, random.Random(wall)), 1)
    table = replayer.begin(1, hand)
    bots = [level(random.Random(wall * 10 + seat)) for seat, level in enumerate(levels)]
    events = play_hand(table, bots)  # type: ignore[arg-type]
    return list(table.deltas), events


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_plays_only_legal_actions_and_the_same_seed_plays_the_same(variant: str) -> None:
    for wall in range(3):
        deltas, events = play_wall(variant, wall, [Checked] * 4)
        again, replayed = play_wall(variant, wall, [Checked] * 4)
        assert (deltas, events) == (again, replayed)
        assert sum(deltas) == 0 and events[-1].type == "end"


def test_it_is_a_level_by_name() -> None:
    assert LEVELS["strong"].summary
    assert isinstance(make_bot("strong", random.Random(1)), StrongBot)


# -- the regression packet -----------------------------------------------------------


@pytest.mark.parametrize("variant", VARIANTS)
def test_it_beats_basic_on_a_fixed_packet_of_walls(variant: str) -> None:
    """Strong in each seat in turn against three basic bots, and the four basic bots,
    on the same 40 walls: strong's seat must come out ahead in total."""
    gained = 0
    for wall in range(5000, 5040):
        base, _ = play_wall(variant, wall, [Bot] * 4)
        for seat in range(4):
            levels: list[type] = [Bot] * 4
            levels[seat] = StrongBot
            strong, _ = play_wall(variant, wall, levels)
            gained += strong[seat] - base[seat]
    assert gained > 0


# -- Sichuan: passing a cheap discard win (SC-3.3) -------------------------------------


def sichuan_discard_win(tiles_left: int) -> tuple[Table, list[Action]]:
    """Seat 1 waits on 1p/4p with a 平胡 (SC-5.1, 1 point); seat 0 has just thrown 4p."""
    table = fresh_table("sichuan", 2)
    for seat, void in enumerate((2, 2, 0, 1)):
        table.seats[seat].void = void
    set_hand(table, 0, "1122m345678p99m")
    set_hand(table, 1, "123m456m789m23p55p")
    set_hand(table, 2, "1133557799p246s")
    set_hand(table, 3, "1357m2468s9s135s")
    table.seats[0].river = river("9s8s4p")
    table.seats[2].river = river("1m2m")
    table.seats[3].river = river("1p2p")
    table.phase = Phase.DISCARDED
    table.last_discard = (0, Tile.parse("4p"))
    table.turn = 0
    table.tiles_left = tiles_left
    table.drawn = None
    actions = table.legal_actions()
    assert Action(1, Event("hu", 1, tile=Tile.parse("4p"), target=0)) in actions
    return table, actions


def test_it_passes_a_cheap_sichuan_discard_win_when_the_self_draw_is_worth_more() -> None:
    """Early in the wall with seven live waits, the 1-point win on seat 0's discard is
    worth less than playing on for the self-draw (SC-5.15: 2 points from each of the
    three seats still in, SC-6.2): the bot passes."""
    table, actions = sichuan_discard_win(tiles_left=50)
    choice = StrongBot(random.Random(1)).choose(table, actions)
    assert choice.event.type == "draw" and choice.note == "pass"


def test_it_takes_the_same_win_late_when_the_others_look_ready() -> None:
    """Three tiles left, seat 3 has won and left (SC-3.2), and the two others have
    played long with two pungs each, so they are probably ready: the wall running out
    would pay the waiting hand little (查大叫, SC-6.4b) and a self-draw is unlikely, so
    the bot takes the discard win."""
    table, _ = sichuan_discard_win(tiles_left=3)
    table.seats[3].won = True
    for seat in (0, 2):
        state = table.seats[seat]
        state.river = river("9s8s7s6s1p2p3p7m8m9m1m2m3m4p")
        state.melds = [Meld.peng(Tile.parse("5m" if seat else "6m")),
                       Meld.peng(Tile.parse("7p" if seat else "8p"))]
    actions = table.legal_actions()
    choice = StrongBot(random.Random(1)).choose(table, actions)
    assert (choice.seat, choice.event.type) == (1, "hu")


# -- Putian: folding against a declared-ready seat (PT-5.3) ----------------------------


def putian_turn(ready: bool) -> tuple[Table, list[Action]]:
    """Seat 0 holds a hand far from ready, late in the wall; seat 2 may have declared
    ready and then thrown 4p and 7p under the lock."""
    table = fresh_table("putian", 3)
    table.setup = replace(table.setup, wildcards=frozenset(
        {Tile.parse("9p").kind, Tile.parse("9s").kind}))
    for state in table.seats:
        state.flowers = 0
    set_hand(table, 0, "1245799m345678p1346s")  # 17 tiles: its turn
    set_hand(table, 1, "1122334455667788m")
    set_hand(table, 2, "123456p1234567s66m")
    set_hand(table, 3, "1122334466778p88p")
    table.seats[1].river = river("1p7s")
    table.seats[2].river = river("5s8m3m4p7p")
    table.seats[3].river = river("6p2s")
    table.seats[2].ready = ready
    if ready:
        table.seats[2].locked_from = 3
    table.phase = Phase.TURN
    table.turn = 0
    table.drawn = Tile.parse("6s")
    table.tiles_left = 20
    table.gold_robbable = False  # type: ignore[attr-defined]
    table.seats[0].discarded = True
    return table, table.legal_actions()


def test_it_folds_a_dangerous_tile_against_a_declared_ready_putian_seat() -> None:
    """Seat 2 declared ready and threw 4p and 7p under the lock (PT-5.3): those can't
    win for it. Seat 0, far from ready late in the wall, gives one of them up rather
    than the tile it would otherwise throw."""
    quiet, quiet_actions = putian_turn(ready=False)
    usual = StrongBot(random.Random(1)).choose(quiet, quiet_actions)
    table, actions = putian_turn(ready=True)
    folded = StrongBot(random.Random(1)).choose(table, actions)
    assert usual.event.tile is not None and folded.event.tile is not None
    assert usual.event.tile not in (Tile.parse("4p"), Tile.parse("7p"))
    assert folded.event.tile in (Tile.parse("4p"), Tile.parse("7p"))


# -- Jiaxing: the wildcard kept, the hand steered to JX-5.3 ----------------------------


def test_it_keeps_the_jiaxing_wildcard_and_sheds_what_jx_5_3_cannot_use() -> None:
    """A hand of dots and honours with a stray 9m and 2s3s: ready as a plain shape, but
    JX-5.3 wants one suit and honours (or all pungs). The bot keeps the 百搭 (5m, JX-4)
    and throws an off-suit tile; its hand then heads to a one-suit-and-honours win."""
    table = fresh_table("jiaxing", 4)
    wild = Tile.parse("5m")
    table.setup = replace(table.setup, wildcards=frozenset({wild.kind}))
    set_hand(table, 0, "123456p78p11z23s9m5m")
    table.phase = Phase.TURN
    table.turn = 0
    table.drawn = Tile.parse("9m")
    table.seats[0].discarded = True
    choice = StrongBot(random.Random(1)).choose(table, table.legal_actions())
    assert choice.event.type == "discard" and choice.event.tile is not None
    assert choice.event.tile != wild
    assert choice.event.tile in (Tile.parse("9m"), Tile.parse("2s"), Tile.parse("3s"))
    hand = list(table.seats[0].hand)
    hand[choice.event.tile.kind] -= 1
    plans = Planner(table, 0).plan_shanten(hand)
    assert plans["flush1"] == min(plans.values())  # dots and honours, the nearest
