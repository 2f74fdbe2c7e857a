"""Edge cases of hand settlement, played through whole ``mahjong-log/1`` documents.

Each test builds a small but complete document by hand (a deal chosen so the hand
goes where the test wants, the events, an ``end`` with the ``deltas`` RULES.md
gives), replays it with ``replay(read_log(doc))`` and checks every hand's deltas
and the match totals. The expected numbers are worked out by hand from RULES.md in
each docstring, never read back from the engine: :func:`settle` first replays the
document *without* the written deltas and compares the engine's own settlement with
them (so a disagreement shows both lists), then replays it *with* them, which is the
engine's ``end.deltas`` check.

Draws are free (no ``wall``) unless a test says otherwise; tile counts are still
checked by the engine (no fifth copy; the Jiaxing indicator and the Putian golds are
out of play). Exhausted hands draw every remaining tile, each discarded at once.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from games.bots.simulation import simulate
from games.core.tiles import parse_tiles
from games.records.log import LogError, dumps, loads, read_log, write_log
from games.records.match import MatchResult, replay

Doc = dict[str, Any]
Event = dict[str, Any]

PLAYERS = ["Ann", "Bo", "Cy", "Di"]


# -- building documents ---------------------------------------------------------


def ts(text: str) -> list[str]:
    """Compact notation to tile strings: ``"123m 55z"`` -> ``["1m", "2m", "3m", "5z", "5z"]``."""
    return [str(t) for t in parse_tiles(text)]


def document(variant: str, hands: list[Doc], rules: dict[str, Any] | None = None) -> Doc:
    doc: Doc = {"format": "mahjong-log/1", "variant": variant, "players": list(PLAYERS)}
    if rules is not None:
        doc["rules"] = rules
    doc["hands"] = hands
    return doc


def hand(dealer: int, deal: list[str], events: list[Event], dice: tuple[int, int] = (3, 5),
         **fields: Any) -> Doc:
    """A hand; ``deal`` gives each seat's tiles in compact notation, seat 0 first."""
    out: Doc = {"dealer": dealer, "dice": list(dice)}
    out.update(fields)
    out["deal"] = [ts(seat) for seat in deal]
    out["events"] = events
    return out


def jx_hand(dealer: int, deal: list[str], events: list[Event], *, wildcard: str,
            indicator: str, dice: tuple[int, int] = (3, 5), round_wind: str = "E",
            bank: list[str] | None = None) -> Doc:
    fields: dict[str, Any] = {"round_wind": round_wind, "wildcards": [wildcard],
                              "indicator": indicator}
    if bank is not None:
        fields["bank"] = bank
    return hand(dealer, deal, events, dice, **fields)


def draw(actor: int, tile: str, back: bool = False) -> Event:
    event: Event = {"type": "draw", "actor": actor, "tile": tile}
    if back:
        event["from"] = "back"
    return event


def discard(actor: int, tile: str) -> Event:
    return {"type": "discard", "actor": actor, "tile": tile}


def cycle(actor: int, tile: str) -> list[Event]:
    """Draw a tile and discard it at once (nobody claims it)."""
    return [draw(actor, tile), discard(actor, tile)]


def chi(actor: int, target: int, tile: str, shown: str) -> Event:
    return {"type": "chi", "actor": actor, "target": target, "tile": tile, "tiles": ts(shown)}


def peng(actor: int, target: int, tile: str) -> Event:
    return {"type": "peng", "actor": actor, "target": target, "tile": tile}


def gang(actor: int, kind: str, tile: str, target: int | None = None) -> Event:
    event: Event = {"type": "gang", "actor": actor, "kind": kind, "tile": tile}
    if target is not None:
        event["target"] = target
    return event


def hu(actor: int, tile: str, target: int | None = None, how: str | None = None) -> Event:
    event: Event = {"type": "hu", "actor": actor, "tile": tile}
    if target is not None:
        event["target"] = target
    if how is not None:
        event["how"] = how
    return event


def flower(actor: int) -> Event:
    return {"type": "flower", "actor": actor, "tile": "5z"}


def dingque(*suits: str) -> list[Event]:
    """Every seat's void suit, seat 0 first (SC-2)."""
    return [{"type": "dingque", "actor": seat, "suit": suit} for seat, suit in enumerate(suits)]


def contract(actor: int, choice: str) -> Event:
    return {"type": "contract", "actor": actor, "choice": choice}


def end(reason: str, deltas: list[int] | None = None) -> Event:
    event: Event = {"type": "end", "reason": reason}
    if deltas is not None:
        event["deltas"] = deltas
    return event


class Supply:
    """The tiles not yet seen in a hand without a wall: what free draws may still take.

    Starts from every copy the variant plays, less the deal and the turned-up tiles
    (the Jiaxing indicator, the two Putian golds).
    """

    KINDS = {
        "jiaxing": ts("123456789m 123456789p 123456789s 1234567z"),
        "putian": ts("123456789m 123456789p 123456789s 5z"),
        "sichuan": ts("123456789m 123456789p 123456789s"),
    }

    def __init__(self, variant: str, deal: Iterable[str], out: Iterable[str] = ()) -> None:
        self.left: Counter[str] = Counter({kind: 4 for kind in self.KINDS[variant]})
        for tile in [*(t for seat in deal for t in ts(seat)), *out]:
            self.take(tile)

    def take(self, tile: str) -> str:
        assert self.left[tile] > 0, f"no {tile} left to draw"
        self.left[tile] -= 1
        return tile

    def take_first(self, allowed: Callable[[str], bool] = lambda tile: True) -> str:
        """The first tile still unseen (in 1m…7z order) that ``allowed`` accepts."""
        for kind in self.KINDS["jiaxing"]:
            if self.left[kind] and allowed(kind):
                return self.take(kind)
        raise AssertionError("no tile left that fits")

    def __len__(self) -> int:
        return sum(self.left.values())

    def wall(self, front: Iterable[str] = (), back: Iterable[str] = ()) -> list[str]:
        """The whole wall, front first: ``front`` in drawing order, the other tiles, then
        ``back`` so that the first replacement draw (from the back) is ``back[0]``."""
        front, back = [self.take(t) for t in front], [self.take(t) for t in back]
        rest = [kind for kind in self.KINDS["jiaxing"] for _ in range(self.left[kind])]
        self.left.clear()
        return [*front, *rest, *reversed(back)]


def draw_out(supply: Supply, first: int,
             choose: Callable[[int, Supply], str] | None = None,
             out: Iterable[int] = ()) -> list[Event]:
    """Seats from ``first`` on in playing order (skipping the seats ``out``) each draw a
    tile and discard it, until the wall is empty (the hand is then exhausted, C-5).
    ``choose(seat, supply)`` picks each drawn tile (default: the first one left)."""
    events: list[Event] = []
    seats = [(first + step) % 4 for step in range(4) if (first + step) % 4 not in set(out)]
    turn = 0
    while len(supply):
        seat = seats[turn % len(seats)]
        tile = choose(seat, supply) if choose else supply.take_first()
        events += cycle(seat, tile)
        turn += 1
    return events


# -- replaying --------------------------------------------------------------------


def written_deltas(doc: Doc) -> list[list[int]]:
    return [list(h["events"][-1]["deltas"]) for h in doc["hands"]]


def without_deltas(doc: Doc) -> Doc:
    bare = copy.deepcopy(doc)
    for h in bare["hands"]:
        h["events"][-1].pop("deltas", None)
    return bare


def settle(doc: Doc) -> MatchResult:
    """Replay ``doc`` and check its settlement against the deltas written in its ``end``
    events (RULES' numbers, computed by hand): first the engine's own settlement of the
    document without them, then the engine's check of the written ones."""
    expected = written_deltas(doc)
    result = replay(read_log(without_deltas(doc)))
    assert [h.deltas for h in result.hands] == expected, "engine settlement vs RULES.md"
    for deltas in expected:
        assert sum(deltas) == 0, f"{deltas} must sum to zero (C-6)"
    assert result.totals == [sum(column) for column in zip(*expected, strict=True)]
    replay(read_log(doc))  # the engine's own end.deltas check agrees
    return result


def rejection(doc: Doc) -> LogError:
    with pytest.raises(LogError) as caught:
        replay(read_log(doc))
    return caught.value


def pattern_ids(result: MatchResult, hand_index: int, win_index: int = 0) -> list[str]:
    return [hit.pattern.id for hit in result.hands[hand_index].wins[win_index].score.patterns]


# -- Jiaxing: robbing the kong (JX-8, JX-10.4) --------------------------------------

# Seat 2 waits on 4s with 123s 567s 789s 11s 3s5s. Seat 1 pungs seat 0's 4s, draws the
# last 4s and adds it to the pung; seat 2 robs it.
JX_ROB_DEAL = [
    "4s 123456789m 1234p",  # seat 0, the dealer: 14
    "44s 123456789m 56p",  # seat 1: the konger
    "123s 567s 789s 11s 35s",  # seat 2: waits on 4s
    "1122334455667z",  # seat 3
]


def test_it_robbing_the_kong_without_a_contract_jx_10_4() -> None:
    """JX-10.4, JX-8: no contract in the hand, so the robbed player pays 3× the score and
    the other two pay nothing.

    Seat 2 robs seat 1's added kong of 4s: 123s 345s 567s 789s + 11s is 清一色 4 (JX-6.8)
    + 无百搭 1 (no 9p wildcard in the hand, JX-6.5) = 5 tai; no fan (dice 3/5, a suited
    wildcard, first hand: the bank is empty; robbing is no fan in Jiaxing). Base 2:
    score = 2 × 5 × 2^0 = 10. Seat 1 pays 3 × 10 = 30, seats 0 and 3 pay 0:
    deltas [0, −30, +30, 0].
    """
    events = [
        discard(0, "4s"),
        peng(1, 0, "4s"),
        discard(1, "5p"),
        *cycle(2, "7z"),
        *cycle(3, "6p"),
        *cycle(0, "7p"),
        draw(1, "4s"),
        gang(1, "added", "4s"),
        hu(2, "4s", target=1, how="robbing_kong"),
        end("win", [0, -30, 30, 0]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_ROB_DEAL, events, wildcard="9p",
                                       indicator="8p")], {"base": 2})
    result = settle(doc)
    win = result.hands[0].wins[0]
    assert (win.seat, win.target, win.how) == (2, 1, "robbing_kong")
    assert (win.score.tai, win.score.fan, win.score.points) == (5, 0, 10)
    assert result.totals == [0, -30, 30, 0]


# The contract hand: seat 1 claims three times from seat 0 (chow 3m, chow 4m, pung 7z),
# so seats 0 and 1 are in a mutual contract (JX-9); seats 2 and 3 answer. Wildcard 5s
# (indicator 4s); seat 1 holds three of them.
JX_CONTRACT_DEAL = [
    "34m 7z 99m 112233p 44p 6p",  # seat 0 (R), dealer: 14
    "12m 56m 77z 555s 2m 123p",  # seat 1 (W): 13; 1p 2p 3p are thrown away
    "111s 222s 333s 666s 7s",  # seat 2
    "9m 111z 222z 333z 444z",  # seat 3: discards the 9m seat 0 pungs
]


def _contract_formed(answers: tuple[str, str]) -> list[Event]:
    """Seat 1 chows 3m, chows 4m and pungs 7z, all from seat 0: the third claim forms
    the contract (JX-9) and seats 2 and 3 answer in playing order."""
    return [
        discard(0, "3m"),
        chi(1, 0, "3m", "12m"),
        discard(1, "1p"),
        *cycle(2, "8s"),
        draw(3, "5z"),
        discard(3, "9m"),
        peng(0, 3, "9m"),
        discard(0, "4m"),
        chi(1, 0, "4m", "56m"),
        discard(1, "2p"),
        *cycle(2, "8s"),
        *cycle(3, "5z"),
        draw(0, "6z"),
        discard(0, "7z"),
        peng(1, 0, "7z"),
        contract(2, answers[0]),
        contract(3, answers[1]),
        discard(1, "3p"),
    ]


def test_it_robbing_the_kong_with_a_contract_adds_the_multipliers_jx_10_4() -> None:
    """JX-10.4 with JX-9, JX-10.2 and JX-10.5: the seed example, score 60.

    Seat 1 has chowed 3m, chowed 4m and punged 7z from seat 0: a contract between 0
    and 1; seats 2 and 3 both persist. Seat 0 later adds the last 9m to its pung and
    seat 1 robs it. Seat 1's hand: chow 123m, chow 456m, pung 7z, and 5s 5s 5s 2m +
    the robbed 9m, with 5s the wildcard: 9m + two wildcards is a set, 2m + a wildcard
    the pair (or 2m's set and 9m's pair) — 混一色 2 (JX-6.7) + 红中刻 1 (JX-6.1) = 3 tai
    in every reading (the chows rule out 对对和, the 7z pung 清一色); fan: 三百搭 1
    (JX-7.1) + the banked 包子 1 (dice 3/3, JX-7.9) = 2. Base 5: 5 × 3 × 2^2 = 60.

    Multipliers add (JX-10.4): seat 0 is robbed and in contract with the winner,
    5 + 3 = 8 → pays 480; seats 2 and 3 persisted, winner in a contract → 2 each →
    120 each. Seat 1 gets 480 + 120 + 120 = 720.
    """
    events = [
        *_contract_formed(("persist", "persist")),
        *cycle(2, "8s"),
        *cycle(3, "5z"),
        draw(0, "9m"),
        gang(0, "added", "9m"),
        hu(1, "9m", target=0, how="robbing_kong"),
        end("win", [-480, 720, -120, -120]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_CONTRACT_DEAL, events, wildcard="5s",
                                       indicator="4s", dice=(3, 3))], {"base": 5})
    result = settle(doc)
    table = result.hands[0].table
    assert [tuple(sorted(pair)) for pair in table.contracts] == [(0, 1)]
    win = result.hands[0].wins[0]
    assert (win.score.tai, win.score.fan, win.score.points) == (3, 2, 60)
    assert sorted(pattern_ids(result, 0)) == sorted(["JX-6.7", "JX-6.1", "JX-7.1", "JX-7.9"])
    assert result.hands[0].bank == ("baozi",) and result.hands[0].bank_after == ()


# -- Jiaxing: contracts with a player who gave up (JX-9, JX-10.2, JX-10.3) ------------

JX_GAVE_UP_DEAL = [
    "34m 7z 1234s 6789s 123z",  # seat 0, dealer: 14
    "12m 56m 77z 22m 78m 444z",  # seat 1: 13; the three 4z are thrown away
    "112233s 667788s 9s",  # seat 2: gives up
    "123p 456p 789p 11p 56p",  # seat 3: 清一色, waits on 4p or 7p
]


def _gave_up_prefix() -> list[Event]:
    """Seat 1 chows 3m and 4m and pungs 7z from seat 0: contract 0–1 (JX-9). Seat 2
    gives up, seat 3 persists."""
    return [
        discard(0, "3m"),
        chi(1, 0, "3m", "12m"),
        discard(1, "4z"),
        *cycle(2, "5z"),
        *cycle(3, "5z"),
        draw(0, "5z"),
        discard(0, "4m"),
        chi(1, 0, "4m", "56m"),
        discard(1, "4z"),
        *cycle(2, "6z"),
        *cycle(3, "6z"),
        draw(0, "6z"),
        discard(0, "7z"),
        peng(1, 0, "7z"),
        contract(2, "give_up"),
        contract(3, "persist"),
        discard(1, "4z"),
    ]


def test_it_contract_partner_wins_and_the_player_who_gave_up_pays_nothing_jx_10_2() -> None:
    """JX-10.2, JX-9: the winner is in the contract.

    Seat 1 (contract with seat 0) self-draws 9m: chow 123m, chow 456m, pung 7z, 789m,
    22m — 混一色 2 + 红中刻 1 + 无百搭 1 (no 5s) = 4 tai, no fan; base 1 → score 4.
    Seat 0, the partner, pays ×5 = 20; seat 3 persisted → ×2 = 8; seat 2 gave up → 0.
    Seat 1 gets 28: deltas [−20, +28, 0, −8].
    """
    events = [
        *_gave_up_prefix(),
        *cycle(2, "1z"),
        *cycle(3, "1z"),
        *cycle(0, "2z"),
        draw(1, "9m"),
        hu(1, "9m"),
        end("win", [-20, 28, 0, -8]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_GAVE_UP_DEAL, events, wildcard="5s",
                                       indicator="4s")])
    result = settle(doc)
    assert [tuple(sorted(pair)) for pair in result.hands[0].table.contracts] == [(0, 1)]
    win = result.hands[0].wins[0]
    assert (win.score.tai, win.score.fan, win.score.points) == (4, 0, 4)


def test_it_persisting_player_wins_and_the_player_who_gave_up_pays_nothing_jx_10_3() -> None:
    """JX-10.3, JX-9: the winner is not in the contract.

    Same contract 0–1, seat 2 gave up. Seat 3 (persisted) self-draws 7p: 123p 456p
    567p 789p 11p — 清一色 4 + 无百搭 1 = 5 tai, no fan → score 5. The two players in
    the contract pay ×2 = 10 each; seat 2 gave up → 0; nobody else persisted.
    Deltas [−10, −10, 0, +20].
    """
    events = [
        *_gave_up_prefix(),
        *cycle(2, "1z"),
        draw(3, "7p"),
        hu(3, "7p"),
        end("win", [-10, -10, 0, 20]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_GAVE_UP_DEAL, events, wildcard="5s",
                                       indicator="4s")])
    result = settle(doc)
    win = result.hands[0].wins[0]
    assert (win.seat, win.score.tai, win.score.fan, win.score.points) == (3, 5, 0, 5)


def test_it_player_who_gave_up_can_neither_claim_nor_win_jx_9() -> None:
    """JX-9: after giving up a player only draws and discards — a pung by seat 2 after
    its answer is rejected, citing JX-9."""
    events = [
        *_gave_up_prefix(),
        *cycle(2, "1z"),
        draw(3, "1s"),
        discard(3, "1s"),
        peng(2, 3, "1s"),
        discard(2, "9s"),
        end("abandoned"),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_GAVE_UP_DEAL, events, wildcard="5s",
                                       indicator="4s")])
    error = rejection(doc)
    assert (error.hand, error.rule) == (1, "JX-9"), str(error)


# -- Jiaxing: the bank of carried fans (JX-7.11, JX-7.4, JX-7.5, JX-7.9, JX-7.10) -----

# Exhausted hands: any deal will do; every remaining tile is drawn and thrown away.
JX_PLAIN_DEAL = [
    "123456789m 12345p",
    "6789p 123456789s",
    "1234567z 123456m",
    "789m 6789p 123456z",
]


def _exhausted_jiaxing(wildcard: str, indicator: str, dice: tuple[int, int],
                       bank: list[str] | None) -> Doc:
    supply = Supply("jiaxing", JX_PLAIN_DEAL, out=[indicator])
    assert len(supply) == 82  # 136 − 53 dealt − the indicator (JX-1, JX-4)
    events = [discard(0, "1m"), *draw_out(supply, 1), end("exhausted", [0, 0, 0, 0])]
    return jx_hand(0, JX_PLAIN_DEAL, events, wildcard=wildcard, indicator=indicator,
                   dice=dice, bank=bank)


# A self-draw 清一色 for seat 1: 123p 456p 789p 11p 56p waits on 4p/7p.
JX_WIN_DEAL = [
    "123456789m 1234s 1z",
    "123p 456p 789p 11p 56p",
    "6789s 123456789m",
    "2233445566777z",
]


def test_it_exhausted_hands_feed_the_bank_and_a_win_takes_the_oldest_jx_7_11() -> None:
    """JX-7.11 (reading): each hand appends its own triggers when it starts (包子,
    老头黄, 百搭连庄, in that order), an exhausted hand appends 黄番 when it ends and
    consumes nothing, a win counts the oldest item (first in, first out).

    Hand 1: dice 3/5, wildcard 5m, first hand: no trigger; exhausted → bank [黄番].
    Hand 2: dice 4/4 (包子, JX-7.9), wildcard 5m again (百搭连庄, JX-7.10); it can use
      [黄番, 包子, 百搭连庄]; exhausted (dealer stays, JX-3) → + 黄番.
    Hand 3: wildcard 2z, an honour (老头黄, JX-7.5): it can use
      [黄番, 包子, 百搭连庄, 黄番, 老头黄]. Seat 1 self-draws 7p: 123p 456p 567p 789p 11p
      = 清一色 4 + 无百搭 1 = 5 tai; fan: the oldest item, 黄番 (JX-7.4) = 1 → score
      1 × 5 × 2 = 10; each of the three others pays 10 (JX-10.1): [−10, +30, −10, −10].
      Bank after: [包子, 百搭连庄, 黄番, 老头黄]. Seat 1 won, not the dealer → seat 1 deals.
    Hand 4: wildcard 5m (not 2z again), dice 2/5: no trigger. The dealer, seat 1,
      self-draws the same 清一色: 5 tai, + 包子 (JX-7.9) 1 fan → 10; each pays 10:
      [−10, +30, −10, −10]. Bank after: [百搭连庄, 黄番, 老头黄].
    Totals [−20, +60, −20, −20].
    """
    win3 = [discard(0, "1z"), *cycle(1, "5s"), *cycle(2, "5s"), *cycle(3, "5s"),
            *cycle(0, "5s"), draw(1, "7p"), hu(1, "7p"), end("win", [-10, 30, -10, -10])]
    deal4 = ["6789s 123456789m", "123p 456p 789p 11p 56p 1z", "2233445566777z",
             "123456789m 1234s"]
    win4 = [discard(1, "1z"), *cycle(2, "5s"), *cycle(3, "5s"), *cycle(0, "5s"),
            draw(1, "7p"), hu(1, "7p"), end("win", [-10, 30, -10, -10])]
    doc = document("jiaxing", [
        _exhausted_jiaxing("5m", "4m", (3, 5), None),
        _exhausted_jiaxing("5m", "4m", (4, 4), ["huangfan"]),
        jx_hand(0, JX_WIN_DEAL, win3, wildcard="2z", indicator="1z", dice=(1, 6),
                bank=["huangfan", "baozi", "baida_lianzhuang", "huangfan"]),
        jx_hand(1, deal4, win4, wildcard="5m", indicator="4m", dice=(2, 5),
                bank=["baozi", "baida_lianzhuang", "huangfan", "laotouhuang"]),
    ])
    result = settle(doc)
    assert result.totals == [-20, 60, -20, -20]
    usable = [h.bank for h in result.hands]
    after = [h.bank_after for h in result.hands]
    assert usable == [
        (),
        ("huangfan", "baozi", "baida_lianzhuang"),
        ("huangfan", "baozi", "baida_lianzhuang", "huangfan", "laotouhuang"),
        ("baozi", "baida_lianzhuang", "huangfan", "laotouhuang"),
    ]
    assert after == [
        ("huangfan",),
        ("huangfan", "baozi", "baida_lianzhuang", "huangfan"),
        ("baozi", "baida_lianzhuang", "huangfan", "laotouhuang"),
        ("baida_lianzhuang", "huangfan", "laotouhuang"),
    ]
    assert [h.end_reason for h in result.hands] == ["exhausted", "exhausted", "win", "win"]
    carried_ids = {"JX-7.4", "JX-7.5", "JX-7.9", "JX-7.10"}
    for number, carried in ((2, "JX-7.4"), (3, "JX-7.9")):
        win = result.hands[number].wins[0]
        assert (win.score.tai, win.score.fan, win.score.points) == (5, 1, 10)
        # exactly one carried fan counts, the oldest
        assert [i for i in pattern_ids(result, number) if i in carried_ids] == [carried]


def test_it_a_stated_bank_must_match_what_earlier_hands_left_jx_7_11() -> None:
    """JX-7.11: after an exhausted first hand the bank is [黄番]; a second hand that
    states an empty bank is rejected at hand 2 citing JX-7.11."""
    doc = document("jiaxing", [
        _exhausted_jiaxing("5m", "4m", (3, 5), None),
        _exhausted_jiaxing("5m", "4m", (3, 5), []),
    ])
    error = rejection(doc)
    assert (error.hand, error.rule) == (2, "JX-7.11"), str(error)


def test_it_an_honour_wildcard_pays_its_own_laotouhuang_at_once_jx_7_5() -> None:
    """JX-7.11 / JX-7.5: the first hand's wildcard is 7z (an honour), so its own
    老头黄 is in the bank when it starts and the hand's win counts it.

    Seat 1 self-draws 7p: 清一色 4 + 无百搭 1 (no 7z in the hand) = 5 tai, 老头黄 1 fan;
    base 3 → 3 × 5 × 2 = 30; each other seat pays 30: [−30, +90, −30, −30]. Nothing is
    left in the bank.
    """
    deal = list(JX_WIN_DEAL)
    deal[3] = "2233445566111z"  # no 7z anywhere: seat 3 holds 1z 1z 1z instead
    deal[0] = "123456789m 1234s 4z"
    events = [discard(0, "4z"), *cycle(1, "5s"), *cycle(2, "5s"), *cycle(3, "5s"),
              *cycle(0, "5s"), draw(1, "7p"), hu(1, "7p"), end("win", [-30, 90, -30, -30])]
    doc = document("jiaxing", [jx_hand(0, deal, events, wildcard="7z", indicator="6z")],
                   {"base": 3})
    result = settle(doc)
    assert result.hands[0].bank == ("laotouhuang",)
    assert result.hands[0].bank_after == ()
    assert "JX-7.5" in pattern_ids(result, 0)


# -- Sichuan: several winners on one discard (SC-3.1, SC-3.2, SC-6.1) -----------------

# Seat 0 deals and must throw its only void-suit tile, 5m, first. On it:
#   seat 1: 123m 456m 234p 678p 99p        平胡 (SC-5.1)          1 fan → 1 point
#   seat 2: 11m 234m 555m 678m 999m       清一色 (SC-5.3)         3 fan → 4 points
#   seat 3: 222s 444s 666s 888s 55m       对对胡 (SC-5.2)         2 fan → 2 points
SC_MULTI_DEAL = [
    "5m 11335577s 99s 111p",  # seat 0: void m
    "123m 46m 234p 678p 99p",  # seat 1: void s, waits on 5m
    "11m 234m 55m 678m 999m",  # seat 2: void p, waits on 1m or 5m
    "222s 444s 666s 888s 5m",  # seat 3: void p, waits on 5m
]


def test_it_three_winners_on_one_discard_end_the_hand_sc_3_1() -> None:
    """SC-3.1, SC-6.1, SC-3.2: seats 1, 2 and 3 all win on seat 0's 5m (recorded in
    playing order after the discarder). The discarder pays each winner its own points:
    1 + 4 + 2 = 7 → [−7, +1, +4, +2]. Three players have won, so the hand is over
    (SC-3.2) and ends as a win.
    """
    events = [
        *dingque("m", "s", "p", "p"),
        discard(0, "5m"),
        hu(1, "5m", target=0),
        hu(2, "5m", target=0),
        hu(3, "5m", target=0),
        end("win", [-7, 1, 4, 2]),
    ]
    result = settle(document("sichuan", [hand(0, SC_MULTI_DEAL, events)]))
    wins = result.hands[0].wins
    assert [(w.seat, w.target, w.score.points) for w in wins] == [(1, 0, 1), (2, 0, 4), (3, 0, 2)]
    assert [w.deltas for w in wins] == [[-1, 1, 0, 0], [-4, 0, 4, 0], [-2, 0, 0, 2]]


def test_it_two_winners_on_one_discard_and_play_goes_on_sc_3_1() -> None:
    """SC-3.1, SC-3.2, SC-3.3, SC-6.1, SC-6.2.

    Seats 1 and 3 win on seat 0's 5m; seat 2 declines (SC-3.3). Seat 0 pays 1 + 2.
    The next turn goes to the first player still in after the last winner (seat 3),
    counting from the discarder: seat 0 draws. Then seat 2 (seat 1 has left), then
    seat 0, then seat 2 self-draws the last 1m: 111m 234m 55m 678m 999m = 清一色 3 +
    自摸 1 (SC-5.15) = 4 fan → 8 points (not 地胡: seat 2 has discarded). Only seat 0 is
    still in to pay it (SC-6.2). Three winners: the hand ends.
    Deltas: [−1 −2 −8, +1, +8, +2] = [−11, +1, +8, +2].
    """
    events = [
        *dingque("m", "s", "p", "p"),
        discard(0, "5m"),
        hu(1, "5m", target=0),
        hu(3, "5m", target=0),
        *cycle(0, "3p"),
        *cycle(2, "3p"),
        *cycle(0, "3p"),
        draw(2, "1m"),
        hu(2, "1m"),
        end("win", [-11, 1, 8, 2]),
    ]
    result = settle(document("sichuan", [hand(0, SC_MULTI_DEAL, events)]))
    wins = result.hands[0].wins
    assert [(w.seat, w.target, w.score.points) for w in wins] == [(1, 0, 1), (3, 0, 2),
                                                                  (2, None, 8)]


def test_it_after_a_multiple_win_the_turn_passes_the_last_winner_sc_3_2() -> None:
    """SC-3.2: after seats 1 and 3 win on seat 0's discard, the next draw is seat 0's
    (the first player still in after seat 3); a draw by seat 2 is rejected."""
    events = [
        *dingque("m", "s", "p", "p"),
        discard(0, "5m"),
        hu(1, "5m", target=0),
        hu(3, "5m", target=0),
        draw(2, "3p"),
        end("abandoned"),
    ]
    error = rejection(document("sichuan", [hand(0, SC_MULTI_DEAL, events)]))
    assert (error.hand, error.event) == (1, 8), str(error)


# -- Sichuan: 杠上炮 (SC-5.17) -----------------------------------------------------

SC_KONG_DEAL = [
    "9999p 8m 11s 234s 567s 7s",  # seat 0: void m; konged 9p at once
    "123m 456m 234p 567p 8m",  # seat 1: void s, waits on 8m
    "111p 333p 555p 777m 9m",  # seat 2: void s
    "11m 234m 345m 567m 78s",  # seat 3: void p, waits on 6s or 9s
]


def test_it_win_on_the_discard_after_a_kong_replacement_gets_a_fan_sc_5_17() -> None:
    """SC-5.17 杠上炮, SC-6.3, SC-6.1, SC-5.14.

    Seat 0 (dealer) declares a concealed kong of 9p at once: seats 1, 2, 3 pay 2 each
    (SC-6.3) → [+6, −2, −2, −2]. Seat 0 draws the replacement 8s and discards 8m; seat 1
    wins on it: 123m 456m 88m 234p 567p = 平胡 1 + 杠上炮 1 = 2 fan → 2 points, paid by
    seat 0 → [−2, +2, 0, 0].
    Play goes on with seat 2, who draws and throws 9s; seats 3 and 0 both win on it,
    neither with 杠上炮 (that discard did not follow a kong): seat 3 11m 234m 345m 567m
    789s = 平胡 → 1 point; seat 0 [9999p] 11s 234s 567s 789s = 平胡 1 + 根 1 (all four
    9p, SC-5.14) = 2 fan → 2 points; seat 2 pays both → [+2, 0, −3, +1].
    Total [6 − 2 + 2, −2 + 2, −2 − 3, −2 + 1] = [+6, 0, −5, −1].

    This hand gives its whole wall (55 tiles): 9s in front, 8s at the back.
    """
    wall = Supply("sichuan", SC_KONG_DEAL).wall(front=["9s"], back=["8s"])
    assert len(wall) == 55
    events = [
        *dingque("m", "s", "s", "p"),
        gang(0, "concealed", "9p"),
        draw(0, "8s", back=True),
        discard(0, "8m"),
        hu(1, "8m", target=0),
        *cycle(2, "9s"),
        hu(3, "9s", target=2),
        hu(0, "9s", target=2),
        end("win", [6, 0, -5, -1]),
    ]
    result = settle(document("sichuan", [hand(0, SC_KONG_DEAL, events, wall=wall)]))
    wins = result.hands[0].wins
    assert [(w.seat, w.score.fan, w.score.points) for w in wins] == [(1, 2, 2), (3, 1, 1),
                                                                     (0, 2, 2)]
    assert sorted(pattern_ids(result, 0, 0)) == ["SC-5.1", "SC-5.17"]
    assert "SC-5.17" not in pattern_ids(result, 0, 1) + pattern_ids(result, 0, 2)
    assert sorted(pattern_ids(result, 0, 2)) == ["SC-5.1", "SC-5.14"]


# -- Sichuan: exhausted hand, 查花猪 / 查大叫 / refunds (SC-6.4) ----------------------

# At the end of the hand (everybody throws what they draw):
#   seat 0 (void s): [6666m] 2m 4m 8m 9m 1p 2p 3p 4p 5p 7p — not ready, not 花猪
#   seat 1 (void s): 123m 789m 111p 99p 78p — ready: 9p → 带幺九 3 fan = 4 points,
#       6p → 平胡 1 point; best 4
#   seat 2 (void m): 234p 567p 234s 66s 78s — ready: 6s or 9s, 平胡 → 1 point
#   seat 3 (void m): 345m 568p 123s 7788s — all three suits: 花猪
SC_EXHAUST_DEAL = [
    "6666m 2489m 123457p",
    "123m 789m 111p 99p 78p",
    "234p 567p 234s 66s 78s",
    "345m 568p 123s 7788s",
]


def _sichuan_exhausted(deal: list[str], opening: list[Event], first: int,
                       deltas: list[int], rules: dict[str, Any] | None = None,
                       out: Iterable[int] = ()) -> Doc:
    """Play ``opening`` after the void suits, then everyone throws what they draw until
    the wall is empty; seat 3, holding its void suit m, only ever draws m tiles."""
    supply = Supply("sichuan", deal)
    for event in opening:
        if event["type"] == "draw":
            supply.take(event["tile"])

    def choose(seat: int, left: Supply) -> str:
        if seat == 3:  # it holds m tiles, so it may only throw m (SC-2): it draws only m
            return left.take_first(lambda tile: tile.endswith("m"))
        others = [kind for kind, n in left.left.items() if n and not kind.endswith("m")]
        return left.take(others[0]) if others else left.take_first()

    events = [*dingque("s", "s", "m", "m"), *opening, *draw_out(supply, first, choose, out),
              end("exhausted", deltas)]
    return document("sichuan", [hand(0, deal, events)], rules)


def test_it_flower_pig_and_not_ready_pay_and_kongs_are_refunded_at_exhaustion_sc_6_4() -> None:
    """SC-6.4 (a), (b), (c) and SC-6.3, default cap 4 fan → 8 points.

    Seat 0 (dealer) declares a concealed kong of 6m at once: seats 1, 2, 3 pay 2 each
    at once (SC-6.3): [+6, −2, −2, −2]. Nobody wins; the wall runs out (55 draws).
    (a) 查花猪: seat 3 holds m, p and s → pays the cap, 8, to each of seats 0, 1, 2:
        [+8, +8, +8, −24].
    (b) 查大叫: seat 0 is not ready (and no 花猪) → pays seat 1 its best wait, 带幺九 on
        9p = 4 points (not the 1 point of 6p), and seat 2 its 1 point: [−5, +4, +1, 0].
        Seat 3, the 花猪, pays no 查大叫.
    (c) seat 0 is not ready → refunds its kong income, 2 to each payer: [−6, +2, +2, +2].
    Total: seat 0 6 + 8 − 5 − 6 = 3; seat 1 −2 + 8 + 4 + 2 = 12; seat 2 −2 + 8 + 1 + 2
    = 9; seat 3 −2 − 24 + 2 = −24 → [+3, +12, +9, −24].
    """
    opening = [gang(0, "concealed", "6m"), draw(0, "1s", back=True), discard(0, "1s")]
    doc = _sichuan_exhausted(SC_EXHAUST_DEAL, opening, 1, [3, 12, 9, -24])
    result = settle(doc)
    assert result.hands[0].wins == [] and result.hands[0].end_reason == "exhausted"


# -- Putian: the opening white passes (PT-3.1) -------------------------------------

# Seat 2 deals. Golds 9s and 9p (nobody holds one). Whites: seat 2, seat 3 and seat 1
# hold one each; the fourth is seat 2's first replacement.
PT_FLOWER_DEAL = [
    "666777888m 111222p 3p",  # seat 0: 16, no white
    "111222333444555m 5z",  # seat 1: 16
    "111222333444555s 6p 5z",  # seat 2, dealer: 17
    "123m 456m 789m 123p 4p 77p 5z",  # seat 3: 16; wins on 6p with the 5p replacement
]


def _flower_passes() -> list[Event]:
    """Pass 1 from the dealer: seat 2 lays out its white and draws a white from the back,
    which waits; seat 3 lays out its white (replacement 5p); seat 0 has none; seat 1 lays
    out its white (replacement 6s). Pass 2, again from the dealer: seat 2 lays out the
    white it drew (replacement 6s)."""
    return [
        flower(2), draw(2, "5z", back=True),
        flower(3), draw(3, "5p", back=True),
        flower(1), draw(1, "6s", back=True),
        flower(2), draw(2, "6s", back=True),
    ]


def test_it_whites_drawn_in_an_opening_pass_wait_for_the_next_pass_pt_3_1() -> None:
    """PT-3.1, PT-3.3, PT-6, PT-7.2, PT-7.4.

    After the passes (see :func:`_flower_passes`) seat 2 has 2 laid-out whites, seats 1
    and 3 one each. Seat 2 discards 6p and seat 3 wins on it: 123m 456m 789m 123p
    456p 77p. Base 1 (no streak); seat 3's flower points: 1 white = 1. Each loser pays
    (1 + 1) × 2 = 4 (PT-7.2), the dealer, seat 2, 2 more = 6 → seat 3 +14.
    算花 among the losers (PT-7.4): seat 2 has 2, seat 1 has 1, seat 0 has 0 → seat 0
    pays seat 2 2 and seat 1 1; seat 1 pays seat 2 1: [−3, 0, +3, 0].
    Deltas: seat 0 −4 − 3 = −7; seat 1 −4 + 0 = −4; seat 2 −6 + 3 = −3; seat 3 +14.
    """
    events = [*_flower_passes(), discard(2, "6p"), hu(3, "6p", target=2),
              end("win", [-7, -4, -3, 14])]
    doc = document("putian", [hand(2, PT_FLOWER_DEAL, events, wildcards=["9s", "9p"])])
    result = settle(doc)
    assert [(w.seat, w.target, w.score.points) for w in result.hands[0].wins] == [(3, 2, 4)]


@pytest.mark.parametrize("order", ["replacement_white_at_once", "seat_1_first",
                                   "seat_1_before_seat_3"])
def test_it_opening_passes_go_from_the_dealer_in_playing_order_pt_3_1(order: str) -> None:
    """PT-3.1: the passes start with the dealer (seat 2) and go in playing order
    (2, 3, 0, 1); a white drawn as a replacement waits for the next pass. Laying out the
    replacement white at once, starting with seat 1, or letting seat 1 go before seat 3
    are each rejected citing PT-3.1."""
    passes = _flower_passes()
    if order == "replacement_white_at_once":
        passes = [*passes[:2], flower(2), draw(2, "6s", back=True), *passes[2:6]]
    elif order == "seat_1_first":
        passes = [*passes[4:6], *passes[:4], *passes[6:]]
    else:
        passes = [*passes[:2], *passes[4:6], *passes[2:4], *passes[6:]]
    events = [*passes, discard(2, "6p"), hu(3, "6p", target=2), end("win")]
    doc = document("putian", [hand(2, PT_FLOWER_DEAL, events, wildcards=["9s", "9p"])])
    error = rejection(doc)
    assert error.rule == "PT-3.1", str(error)


# -- Putian: 算花 with the dealer's extra 2 and a streak base (PT-7) ------------------


def test_it_flower_settlement_with_dealer_extra_and_streak_base_pt_7_4() -> None:
    """PT-7.1, PT-7.2, PT-7.4, PT-6, PT-5.4 through a two-hand match.

    Hand 1: seat 0 deals and wins on its dealt 17 tiles (天胡, PT-5.4, paid as PT-7.2):
    nobody has flower points, base 1 → each loser pays (1 + 0) × 2 = 2: [+6, −2, −2, −2].
    The dealer won, so seat 0 deals again with a streak of 1 (PT-1).

    Hand 2: golds 1s and 9p. Base 1 + 2 = 3 (PT-7.1, n = 1). Seat 0 (A) lays out all four
    whites in the opening pass and holds one gold 1s: 5 + 1 = 6 points (the seed's own
    example, PT-6). Seat 1 (B) draws its fourth 2m and declares a concealed kong: 2 points.
    Seat 3 (D) holds one gold 1s: 1 point. Seat 2 (C, one gold 9p: 1 point) wins on
    seat 1's discard 6s with 345m 678m 345p 678p 33s 56s + 9p.
    Each loser pays (3 + 1) × 2 = 8, the dealer 2 more = 10 (PT-7.2) → seat 2 +26.
    算花 (PT-7.4, the seed's example A 6, B 2, D 1): D pays A 5, D pays B 1, B pays A 4
    → A +9, B −3, D −6. Deltas: A −10 + 9 = −1, B −8 − 3 = −11, C +26, D −8 − 6 = −14.
    Totals [6 − 1, −2 − 11, −2 + 26, −2 − 14] = [+5, −13, +24, −16].
    """
    deal1 = [
        "123m 456m 789m 123p 456p 77p",
        "123m 456m 789m 123p 456p 8p",
        "123m 456m 789m 123p 456p 8p",
        "111222333444555s 6s",
    ]
    hand1 = hand(0, deal1, [hu(0, "7p"), end("win", [6, -2, -2, -2])],
                 wildcards=["9s", "9p"])
    deal2 = [
        "5555z 1s 111333444555m",  # A: 17
        "222m 111222333444p 6m",  # B: 16
        "345m 678m 345p 678p 33s 5s 9p",  # C: 16
        "1s 222s 33s 444s 777s 888s 9s",  # D: 16
    ]
    events2 = [
        flower(0), draw(0, "7p", back=True),
        flower(0), draw(0, "7p", back=True),
        flower(0), draw(0, "7p", back=True),
        flower(0), draw(0, "8p", back=True),
        discard(0, "8p"),
        draw(1, "2m"),
        gang(1, "concealed", "2m"),
        draw(1, "6s", back=True),
        discard(1, "6s"),
        hu(2, "6s", target=1),
        end("win", [-1, -11, 26, -14]),
    ]
    hand2 = hand(0, deal2, events2, wildcards=["1s", "9p"], dealer_streak=1)
    result = settle(document("putian", [hand1, hand2]))
    assert result.totals == [5, -13, 24, -16]
    win = result.hands[1].wins[0]
    assert win.score.points == 8  # what one non-dealer loser pays: (3 + 1) × 2


# -- Sichuan: robbing a kong (SC-5.18, SC-6.3) ------------------------------------

SC_ROB_DEAL = [
    "123p 789p 99p 34p 234s 5p",  # seat 0, dealer: void m; throws 5p, later waits 2p/5p
    "55p 22s 33s 55s 66s 77s 8s",  # seat 1: void m; pungs 5p, adds the last one
    "123s 456s 789s 34p 11s",  # seat 2: void m; waits 2p/5p
    "111m 123m 789m 67p 99m",  # seat 3: void s; waits 5p/8p
]


def test_it_robbing_an_added_kong_pays_no_kong_and_adds_a_fan_sc_5_18() -> None:
    """SC-5.18, SC-6.3, SC-6.1, SC-6.2, SC-3.2.

    Seat 1 pungs seat 0's 5p, later draws the last 5p and adds it; seat 2 robs it:
    123s 456s 789s 345p 11s = 平胡 1 + 抢杠胡 1 = 2 fan → 2 points, paid by the konger
    (as for a discard, SC-6.1) → [0, −2, +2, 0]. The robbed kong pays nothing (SC-6.3).
    Play goes on with seat 3 (the first still in after the robber): seat 3 self-draws
    8p: 111m 123m 789m 678p 99m = 平胡 1 + 根 1 (four 1m, SC-5.14) + 自摸 1 = 3 fan →
    4 points from each of seats 0 and 1 → [−4, −4, 0, +8]. Then seat 0 (after seat 3)
    self-draws 2p: 123p 234p 789p 99p 234s = 平胡 1 + 自摸 1 = 2 fan → 2 points from
    seat 1, the only other player still in → [+2, −2, 0, 0]. Three winners: over.
    Total [−4 + 2, −2 − 4 − 2, +2, +8] = [−2, −8, +2, +8].
    """
    events = [
        *dingque("m", "m", "m", "s"),
        discard(0, "5p"),
        peng(1, 0, "5p"),
        discard(1, "8s"),
        *cycle(2, "2m"),
        *cycle(3, "9s"),
        *cycle(0, "3m"),
        draw(1, "5p"),
        gang(1, "added", "5p"),
        hu(2, "5p", target=1, how="robbing_kong"),
        draw(3, "8p"),
        hu(3, "8p"),
        draw(0, "2p"),
        hu(0, "2p"),
        end("win", [-2, -8, 2, 8]),
    ]
    result = settle(document("sichuan", [hand(0, SC_ROB_DEAL, events)]))
    wins = result.hands[0].wins
    assert [(w.seat, w.score.fan, w.score.points) for w in wins] == [(2, 2, 2), (3, 3, 4),
                                                                     (0, 2, 2)]
    assert sorted(pattern_ids(result, 0, 0)) == ["SC-5.1", "SC-5.18"]


def test_it_exhaustion_leaves_winners_out_but_refunds_them_sc_6_4() -> None:
    """SC-6.4 (a)–(c) with a player who has already won; SC-5.17.

    Seat 0 konged 6m at once (seats 1, 2, 3 pay 2 each): [+6, −2, −2, −2]. Its
    replacement is 9p, which it throws: seat 1 wins on it, 123m 789m 111p 789p 99p =
    带幺九 3 + 杠上炮 1 = 4 fan → 8 points from seat 0: [−8, +8, 0, 0]. Seat 1 is out;
    seats 2, 3, 0 draw and throw until the wall is empty.
    (a) seat 3, the 花猪, pays the cap 8 to seats 0 and 2 only (seat 1 has won and is out
        of this): [+8, 0, +8, −16].
    (b) seat 0 is not ready: pays ready seat 2 its 1 point: [−1, 0, +1, 0].
    (c) seat 0 refunds its kong income to every payer, seat 1 included (it paid before
        it won): [−6, +2, +2, +2].
    Total: seat 0 6 − 8 + 8 − 1 − 6 = −1; seat 1 −2 + 8 + 2 = 8; seat 2 −2 + 8 + 1 + 2 = 9;
    seat 3 −2 − 16 + 2 = −16 → [−1, +8, +9, −16].
    """
    opening = [gang(0, "concealed", "6m"), draw(0, "9p", back=True), discard(0, "9p"),
               hu(1, "9p", target=0)]
    doc = _sichuan_exhausted(SC_EXHAUST_DEAL, opening, 2, [-1, 8, 9, -16], out=[1])
    result = settle(doc)
    assert [(w.seat, w.score.fan, w.score.points) for w in result.hands[0].wins] == [(1, 4, 8)]


# -- Jiaxing: robbing a contract player's kong, the winner outside the contract -------

JX_ROB_OUTSIDE_DEAL = [
    "34m 7z 99m 112233p 44p 6p",  # seat 0 (R), dealer
    "12m 56m 77z 555s 2m 123p",  # seat 1 (W)
    "78m 11m 567m 555z 666z",  # seat 2: waits on 6m or 9m
    "9m 111z 222z 333z 444z",  # seat 3
]


def test_it_robbing_with_the_winner_outside_the_contract_jx_10_4() -> None:
    """JX-10.4 with JX-10.3: contract 0–1 (three claims by seat 1 from seat 0), seats 2
    and 3 persist. Seat 2 robs seat 0's added 9m: 789m 11m 567m 555z 666z = 混一色 2 +
    白板刻 1 + 发财刻 1 + 无百搭 1 = 5 tai, no fan; base 5 → 25.
    Seat 2 is in no contract (JX-10.3): seats 0 and 1 (in the contract) ×2, seat 3 ×1;
    seat 0 is robbed: 2 + 3 = 5. Seat 0 pays 125, seat 1 50, seat 3 25; seat 2 +200.
    """
    events = [
        discard(0, "3m"),
        chi(1, 0, "3m", "12m"),
        discard(1, "1p"),
        *cycle(2, "8s"),
        draw(3, "1s"),
        discard(3, "9m"),
        peng(0, 3, "9m"),
        discard(0, "4m"),
        chi(1, 0, "4m", "56m"),
        discard(1, "2p"),
        *cycle(2, "8s"),
        *cycle(3, "1s"),
        draw(0, "2s"),
        discard(0, "7z"),
        peng(1, 0, "7z"),
        contract(2, "persist"),
        contract(3, "persist"),
        discard(1, "3p"),
        *cycle(2, "8s"),
        *cycle(3, "1s"),
        draw(0, "9m"),
        gang(0, "added", "9m"),
        hu(2, "9m", target=0, how="robbing_kong"),
        end("win", [-125, -50, 200, -25]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_ROB_OUTSIDE_DEAL, events, wildcard="5s",
                                       indicator="4s")], {"base": 5})
    result = settle(doc)
    win = result.hands[0].wins[0]
    assert (win.score.tai, win.score.fan, win.score.points) == (5, 0, 25)


# -- Putian: an exhausted hand pays nothing and the dealer's streak grows (PT-7.5, PT-7.1)


def test_it_exhausted_putian_hand_pays_nothing_and_raises_the_base_pt_7_1() -> None:
    """PT-7.5, PT-1, PT-7.1.

    Hand 1 (seat 1 deals): seat 2 lays out the four whites in the opening pass (their
    replacements 1m 1m 1m 1m); all six golds (3 × 9s, 3 × 9p) are dealt; the wall's
    other tiles are drawn and thrown until it is empty: no payment, [0, 0, 0, 0].
    Hand 2: the dealer stays after an exhausted hand (PT-1), streak 1 → base 3 (PT-7.1).
    Seat 1 (the dealer) wins on its dealt tiles (天胡, PT-5.4) with no flower points:
    each loser pays (3 + 0) × 2 = 6 → [−6, +18, −6, −6].
    """
    deal1 = [
        "999s 999p 2345678m 123s",  # seat 0: 16, all six golds
        "23456789m 12345678p 9m",  # seat 1, dealer: 17
        "5555z 12345678s 2345p",  # seat 2: 16
        "23456789m 12345678s",  # seat 3: 16
    ]
    supply = Supply("putian", deal1, out=["9s", "9p"])
    passes = []
    for _ in range(4):
        passes += [flower(2), draw(2, supply.take("1m"), back=True)]
    events1 = [*passes, discard(1, "2m"), *draw_out(supply, 2), end("exhausted", [0, 0, 0, 0])]
    deal2 = [
        "123m 456m 789m 123p 456p 8p",
        "123m 456m 789m 123p 456p 77p",
        "123m 456m 789m 123p 456p 8p",
        "111222333444555s 6s",
    ]
    hand2 = hand(1, deal2, [hu(1, "7p"), end("win", [-6, 18, -6, -6])],
                 wildcards=["9s", "9p"], dealer_streak=1)
    doc = document("putian", [hand(1, deal1, events1, wildcards=["9s", "9p"]), hand2])
    result = settle(doc)
    assert result.hands[0].end_reason == "exhausted" and result.hands[0].wins == []


# -- Sichuan: 杠上花 after an exposed kong (SC-5.16, SC-6.3) ----------------------

SC_FLOWER_DEAL = [
    "9m 111s 234s 567s 55s 78s",  # seat 0, dealer: void m; throws 9m, waits 6s/9s
    "999m 123m 456m 46p 11p",  # seat 1: void s
    "222p 333p 777p 888p 9p",  # seat 2: void s
    "234m 567m 678m 45s 99s",  # seat 3: void p, waits 3s/6s
]


def test_it_kong_replacement_win_after_an_exposed_kong_is_paid_by_all_sc_5_16() -> None:
    """SC-5.16 (reading: 杠上花 is paid as a self-draw even after an exposed kong),
    SC-6.3, SC-6.2, SC-6.1; cap 6 fan so no value is capped.

    Seat 1 konges seat 0's 9m: seat 0 pays 2 at once → [−2, +2, 0, 0]. The replacement
    5p completes [9999m] 123m 456m 456p 11p = 平胡 1 + 根 1 + 自摸 1 + 杠上花 1 = 4 fan
    → 2^3 = 8 points from each of seats 0, 2, 3 → [−8, +24, −8, −8].
    Seat 2 (the next after the self-drawing winner) draws and throws 6s; seats 3 and 0
    win on it: seat 3 234m 567m 678m 456s 99s = 平胡 → 1 point; seat 0 111s 234s 567s
    678s 55s = 清一色 3 fan → 4 points; seat 2 pays both → [+4, 0, −5, +1].
    Total [−2 − 8 + 4, 2 + 24, −8 − 5, −8 + 1] = [−6, +26, −13, −7].
    """
    events = [
        *dingque("m", "s", "s", "p"),
        discard(0, "9m"),
        gang(1, "exposed", "9m", target=0),
        draw(1, "5p", back=True),
        hu(1, "5p"),
        *cycle(2, "6s"),
        hu(3, "6s", target=2),
        hu(0, "6s", target=2),
        end("win", [-6, 26, -13, -7]),
    ]
    result = settle(document("sichuan", [hand(0, SC_FLOWER_DEAL, events)], {"cap_fan": 6}))
    wins = result.hands[0].wins
    assert [(w.seat, w.score.fan, w.score.points) for w in wins] == [(1, 4, 8), (3, 1, 1),
                                                                     (0, 3, 4)]
    assert "SC-5.16" in pattern_ids(result, 0, 0)


# -- Jiaxing: a contract formed by an exposed kong, then 杠上开花 (JX-9, JX-7.2, JX-10.2)

JX_KONG_CONTRACT_DEAL = [
    "34m 7z 1234s 6789s 123z",  # seat 0, dealer: 14
    "12m 56m 777z 22m 78m 44z",  # seat 1: 13; the two 4z are thrown away
    "112233s 667788s 9s",  # seat 2
    "123p 456p 789p 11p 56p",  # seat 3
]


def test_it_contract_formed_by_an_exposed_kong_then_kong_replacement_win_jx_9() -> None:
    """JX-9, JX-2.5, JX-7.2, JX-10.2.

    Seat 1 chows 3m and 4m from seat 0, then konges seat 0's 7z (exposed): the third
    claim from seat 0 forms the contract, so seats 2 and 3 answer right after the kong,
    before the replacement draw; both persist. The replacement 9m completes chow 123m,
    chow 456m, kong 7z, 789m, 22m: 混一色 2 + 红中刻 1 + 无百搭 1 = 4 tai; 杠上开花 1 fan
    (JX-7.2) → score 1 × 4 × 2 = 8. Winner in the contract (JX-10.2): seat 0 pays
    5 × 8 = 40, seats 2 and 3 persisted: 2 × 8 = 16 each; seat 1 +72.
    """
    events = [
        discard(0, "3m"),
        chi(1, 0, "3m", "12m"),
        discard(1, "4z"),
        *cycle(2, "5z"),
        *cycle(3, "5z"),
        draw(0, "5z"),
        discard(0, "4m"),
        chi(1, 0, "4m", "56m"),
        discard(1, "4z"),
        *cycle(2, "6z"),
        *cycle(3, "6z"),
        draw(0, "6z"),
        discard(0, "7z"),
        gang(1, "exposed", "7z", target=0),
        contract(2, "persist"),
        contract(3, "persist"),
        draw(1, "9m", back=True),
        hu(1, "9m"),
        end("win", [-40, 72, -16, -16]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_KONG_CONTRACT_DEAL, events, wildcard="5s",
                                       indicator="4s")])
    result = settle(doc)
    win = result.hands[0].wins[0]
    assert (win.score.tai, win.score.fan, win.score.points) == (4, 1, 8)
    assert "JX-7.2" in pattern_ids(result, 0)


# -- Sichuan: a kong after some players have won (SC-6.3 "still in") ----------------


def test_it_kong_after_winners_left_is_paid_by_those_still_in_sc_6_3() -> None:
    """SC-6.3, SC-3.2, SC-6.1, SC-6.2.

    Seats 1 and 3 win on seat 0's 5m (1 and 2 points) → [−3, +1, 0, +2]. Seat 0 then
    draws its fourth 1p and declares a concealed kong: every other player *still in*
    pays 2 — only seat 2 → [+2, 0, −2, 0]. Seat 0 draws the replacement 3p and throws
    it; seat 2 and seat 0 throw a 3p each; seat 2 self-draws 1m: 清一色 3 + 自摸 1 = 4
    fan → 8 points from seat 0 → [−8, 0, +8, 0].
    Total [−3 + 2 − 8, +1, −2 + 8, +2] = [−9, +1, +6, +2].
    """
    events = [
        *dingque("m", "s", "p", "p"),
        discard(0, "5m"),
        hu(1, "5m", target=0),
        hu(3, "5m", target=0),
        draw(0, "1p"),
        gang(0, "concealed", "1p"),
        draw(0, "3p", back=True),
        discard(0, "3p"),
        *cycle(2, "3p"),
        *cycle(0, "3p"),
        draw(2, "1m"),
        hu(2, "1m"),
        end("win", [-9, 1, 6, 2]),
    ]
    settle(document("sichuan", [hand(0, SC_MULTI_DEAL, events)]))


# -- balances: Jiaxing's service fee (JX-10.6) and Sichuan's beans (SC-6.5) -----------


def test_it_service_fee_never_takes_more_than_a_balance_jx_10_6() -> None:
    """JX-10.6, C-6: the robbing hand above ([0, −30, +30, 0]) with start balance 15 and
    fee 10. After the hand the balances are [15, −15, 45, 15]; each player pays the fee
    but never more than they have: [10, 0, 10, 10] → balances [5, −15, 35, 5]. The fee
    leaves the table; the hand's deltas are unchanged."""
    events = [
        discard(0, "4s"), peng(1, 0, "4s"), discard(1, "5p"), *cycle(2, "7z"),
        *cycle(3, "6p"), *cycle(0, "7p"), draw(1, "4s"), gang(1, "added", "4s"),
        hu(2, "4s", target=1, how="robbing_kong"), end("win", [0, -30, 30, 0]),
    ]
    doc = document("jiaxing", [jx_hand(0, JX_ROB_DEAL, events, wildcard="9p",
                                       indicator="8p")],
                   {"base": 2, "fee": 10, "start_balance": 15})
    result = settle(doc)
    assert result.fees == [10, 0, 10, 10]
    assert result.balances == [5, -15, 35, 5]


def test_it_beans_multiply_points_and_the_fee_is_taken_apart_sc_6_5() -> None:
    """SC-6.5, C-6: the three-winner hand ([−7, +1, +4, +2] points) in a room with
    N = 200, fee A = 400 and 2000 beans each: beans [−1400, +200, +800, +400] →
    [600, 2200, 2800, 2400]; the fee, 400 each, is taken apart → [200, 1800, 2400, 2000].
    """
    events = [*dingque("m", "s", "p", "p"), discard(0, "5m"), hu(1, "5m", target=0),
              hu(2, "5m", target=0), hu(3, "5m", target=0), end("win", [-7, 1, 4, 2])]
    doc = document("sichuan", [hand(0, SC_MULTI_DEAL, events)],
                   {"room_coefficient": 200, "fee": 400, "start_balance": 2000})
    result = settle(doc)
    assert result.fees == [400, 400, 400, 400]
    assert result.balances == [200, 1800, 2400, 2000]


# -- Putian: robbing the gold and a big bomb (PT-5.5, PT-5.6, PT-7.2, PT-7.3, PT-7.4) ---


def test_it_robbing_the_gold_counts_the_taken_gold_pt_5_5() -> None:
    """PT-5.5, PT-6, PT-7.2, PT-7.4.

    Golds 9s and 8p. Before the dealer's first discard seat 2, ready with 16 tiles
    (123m 456m 789m 123p 456p 7p), takes the turned-up 9s and wins at once: the gold
    pairs the 7p. Its flower points: the taken gold, 1 (PT-5.5 reading). Base 1: each
    loser pays (1 + 1) × 2 = 4, the dealer (seat 0) 2 more = 6 → seat 2 +14. The losers
    have no flower points: no 算花. Deltas [−6, −4, +14, −4].
    """
    deal = [
        "111m 222m 333m 444p 555p 66p",  # seat 0, dealer: 17
        "445567789m 1234567s",  # seat 1: 16
        "123m 456m 789m 123p 456p 7p",  # seat 2: 16, ready for 7p
        "999p 7p 112233445566s",  # seat 3: 16
    ]
    events = [hu(2, "9s", how="rob_gold"), end("win", [-6, -4, 14, -4])]
    doc = document("putian", [hand(0, deal, events, wildcards=["9s", "8p"])])
    result = settle(doc)
    win = result.hands[0].wins[0]
    assert (win.seat, win.how, win.score.points) == (2, "rob_gold", 4)


def test_it_big_bomb_pays_fifty_each_then_flower_settlement_pt_7_3() -> None:
    """PT-5.6, PT-7.3, PT-7.4.

    Golds 9s and 9p. Seat 1 holds three 9s and two 9p — five golds, a 大炸弹 — and wins
    on its own turn after drawing 6s. Each loser pays 50 instead of PT-7.2 (so no dealer
    extra) → seat 1 +150. 算花 among the losers: seat 3 holds the sixth gold (1 point),
    seats 0 and 2 none → each of them pays seat 3 1. Deltas [−51, +150, −51, −48].
    """
    deal = [
        "111m 222m 333m 444p 555p 66p",  # seat 0, dealer: 17
        "999s 99p 456789m 12345s",  # seat 1: 16
        "123m 456m 789m 123p 78p 12s",  # seat 2: 16
        "9p 1122337788p 6677s 8s",  # seat 3: 16
    ]
    events = [discard(0, "6p"), draw(1, "6s"), hu(1, "6s", how="bomb"),
              end("win", [-51, 150, -51, -48])]
    doc = document("putian", [hand(0, deal, events, wildcards=["9s", "9p"])])
    result = settle(doc)
    assert result.hands[0].wins[0].score.extra.get("bomb") == "big"


# -- Sichuan: 杠上炮 for every winner on that discard (SC-5.17 with SC-3.1) -----------


def test_it_every_winner_on_the_discard_after_a_kong_gets_gang_shang_pao_sc_5_17() -> None:
    """SC-5.17 with SC-3.1: 杠上炮 is a property of the discard (the one made right after
    the kong replacement), so each player who wins on it gets the +1 fan.

    Seat 0 konges 9p at once (seats 1, 2, 3 pay 2 each): [+6, −2, −2, −2]. It draws
    8s from the back and throws 8m. Seats 1 and 2 both win on it:
      seat 1: 123m 456m 88m 234p 567p = 平胡 1 + 杠上炮 1 = 2 fan → 2 points;
      seat 2: 111p 333p 555p 777m 88m = 对对胡 2 + 杠上炮 1 = 3 fan → 4 points;
    seat 0 pays both → [−6, +2, +4, 0]. Seat 3, the next still in after seat 2,
    self-draws 9s: 11m 234m 345m 567m 789s = 平胡 1 + 自摸 1 = 2 fan → 2 points from
    seat 0, the only other player still in → [−2, 0, 0, +2]. Three winners: over.
    Total [6 − 6 − 2, −2 + 2, −2 + 4, −2 + 2] = [−2, 0, +2, 0].
    """
    deal = list(SC_KONG_DEAL)
    deal[2] = "111p 333p 555p 777m 8m"  # seat 2: void s, waits on 8m (对对胡)
    events = [
        *dingque("m", "s", "s", "p"),
        gang(0, "concealed", "9p"),
        draw(0, "8s", back=True),
        discard(0, "8m"),
        hu(1, "8m", target=0),
        hu(2, "8m", target=0),
        draw(3, "9s"),
        hu(3, "9s"),
        end("win", [-2, 0, 2, 0]),
    ]
    result = settle(document("sichuan", [hand(0, deal, events)]))
    wins = result.hands[0].wins
    assert [(w.seat, w.score.fan, w.score.points) for w in wins] == [(1, 2, 2), (2, 3, 4),
                                                                     (3, 2, 2)]
    assert "SC-5.17" in pattern_ids(result, 0, 1)


# -- Jiaxing: a win on the last drawable tile (JX-7.6) -------------------------------


def test_it_win_on_the_last_drawable_tile_jx_7_6() -> None:
    """JX-7.6 海底捞月, C-5: every tile but one 7p is drawn and thrown (81 draws from
    seat 1 on); the 82nd and last draw is seat 2's, the 7p, completing 123p 456p 567p
    789p 11p: 清一色 4 + 无百搭 1 (no 5m) = 5 tai, 海底捞月 1 fan → score 10; each
    other seat pays 10 → [−10, −10, +30, −10]."""
    deal = ["123456789m 1234s 1z", "6789s 123456789m", "123p 456p 789p 11p 56p",
            "2233445566777z"]
    supply = Supply("jiaxing", deal, out=["4m"])
    supply.take("7p")
    events = [discard(0, "1z"), *draw_out(supply, 1)]
    assert events[-2] == draw(1, events[-2]["tile"])  # 81 draws: the last by seat 1
    events += [draw(2, "7p"), hu(2, "7p"), end("win", [-10, -10, 30, -10])]
    doc = document("jiaxing", [jx_hand(0, deal, events, wildcard="5m", indicator="4m")])
    result = settle(doc)
    win = result.hands[0].wins[0]
    assert (win.score.tai, win.score.fan, win.score.points) == (5, 1, 10)
    assert "JX-7.6" in pattern_ids(result, 0)


# -- Sichuan: the room's minimum balance (SC-6.5) -----------------------------------


@pytest.mark.parametrize(("minimum", "allowed"), [(3, True), (4, False)])
def test_it_a_player_below_the_minimum_balance_cannot_start_a_hand_sc_6_5(
        minimum: int, allowed: bool) -> None:
    """SC-6.5: "A player whose balance falls below the room's minimum can't start another
    hand." Start balance 10 beans, N = 1, no fee: after the three-winner hand
    ([−7, +1, +4, +2]) seat 0 has 3 beans. With a minimum of 3 a second hand may start;
    with a minimum of 4 seat 0 can't start one, so a document with a second hand is
    rejected at hand 2, citing SC-6.5."""
    first = [*dingque("m", "s", "p", "p"), discard(0, "5m"), hu(1, "5m", target=0),
             hu(2, "5m", target=0), hu(3, "5m", target=0), end("win", [-7, 1, 4, 2])]
    second = [*dingque("m", "s", "p", "p"), discard(0, "5m"), hu(1, "5m", target=0),
              hu(2, "5m", target=0), hu(3, "5m", target=0), end("win", [-7, 1, 4, 2])]
    doc = document("sichuan", [hand(0, SC_MULTI_DEAL, first), hand(0, SC_MULTI_DEAL, second)],
                   {"start_balance": 10, "min_balance": minimum})
    if allowed:
        result = settle(doc)
        assert result.balances == [-4, 12, 18, 14]
    else:
        error = rejection(doc)
        assert (error.hand, error.rule) == (2, "SC-6.5"), str(error)


# -- bots: every hand sums to zero and the replay agrees with what the bots wrote ------


@pytest.mark.parametrize("variant", ["jiaxing", "putian", "sichuan"])
def test_it_bot_hands_sum_to_zero_and_replay_agrees_c_6(variant: str) -> None:
    """C-6 and LOG-FORMAT ``end.deltas``: 50 bot-played hands of each variant, written
    as JSON text and read back; every hand's deltas sum to zero, the replay's deltas of
    every hand equal the ``end.deltas`` the bots wrote, and the totals are their sums."""
    match = simulate(variant, 50, seed=20261120)
    text = dumps(match)
    doc = json.loads(text)
    assert len(doc["hands"]) == 50
    written = [h["events"][-1].get("deltas") for h in doc["hands"]]
    assert all(deltas is not None for deltas in written)
    for number, deltas in enumerate(written, 1):
        assert sum(deltas) == 0, f"hand {number}: {deltas}"
    result = replay(loads(text))
    assert [h.deltas for h in result.hands] == written
    bare = replay(read_log(without_deltas(doc)))  # the engine's own settlement, unprompted
    assert [h.deltas for h in bare.hands] == written
    assert result.totals == [sum(column) for column in zip(*written, strict=True)]
    assert write_log(read_log(doc)) == doc
