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

from games.bots import simulate
from games.log import LogError, dumps, loads, read_log, write_log
from games.match import MatchResult, replay
from games.tiles import parse_tiles

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


def draw_out(supply: Supply, first: int,
             choose: Callable[[int, Supply], str] | None = None) -> list[Event]:
    """Seats from ``first`` on in playing order each draw a tile and discard it, until
    the wall is empty (the hand is then exhausted, C-5). ``choose(seat, supply)``
    picks each drawn tile (default: the first one left)."""
    events: list[Event] = []
    seat = first
    while len(supply):
        tile = choose(seat, supply) if choose else supply.take_first()
        events += cycle(seat, tile)
        seat = (seat + 1) % 4
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

# Seat 2 waits on 4s with 123s 456s 789s 11s 3s5s. Seat 1 pungs seat 0's 4s, draws the
# last 4s and adds it to the pung; seat 2 robs it.
JX_ROB_DEAL = [
    "4s 123456789m 1234p",  # seat 0, the dealer: 14
    "44s 123456789m 56p",  # seat 1: the konger
    "123s 456s 789s 11s 35s",  # seat 2: waits on 4s
    "11223344556677z",  # seat 3 (13 of them: one 7z)
]
JX_ROB_DEAL[3] = "1122334455667z"


def test_it_robbing_the_kong_without_a_contract_jx_10_4() -> None:
    """JX-10.4, JX-8: no contract in the hand, so the robbed player pays 3× the score and
    the other two pay nothing.

    Seat 2 robs seat 1's added kong of 4s: 123s 345s 456s 789s + 11s is 清一色 4 (JX-6.8)
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
    table = result.hands[0].table
    assert table.seats[2].gave_up and not table.seats[3].gave_up
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
