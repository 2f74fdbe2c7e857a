"""Puzzle themes, tagged by the engine from the position and its answer (never by hand).

A theme is what a puzzle teaches: 百搭 or 金 held as a wildcard (two or more of
them), a trap the win rules set (JX-5.3), 清一色, 对对和, seven pairs,
根, a declared kong, laid-out whites, the 定缺 void, many waits, a choice of
values, and the ways of winning a generated puzzle may be set in (a kong
replacement, 抢金, a bomb). :func:`themes_of` reads them off the answer
:func:`games.training.puzzles.solve` gives — the patterns each winning tile scores, the
traps — and off the position, so a theme is always what the engine says of the
hand.

>>> from games.training.puzzles import solve
>>> data = {"variant": "sichuan", "hand": "1112345678999p", "void": "s"}
>>> themes_of(data, solve(read_position(data)).to_json())
['pure_suit', 'gen', 'void', 'many_waits', 'value_choice']

The ways of winning are the position's own facts (``after_kong``: the next tile is a
kong's replacement; ``robbing_gold``: the dealer hasn't discarded yet and a turned-up
gold may be taken; ``bomb``): on a "what wins here?" puzzle they are tagged only when the
engine's scores show them (杠上开花 / 杠上花, 抢金, a bomb's value), on a "how much does it
pay?" puzzle (``games.training.pay_puzzles``), whose position is the won hand and whose answer
names the settlement's rules, by the way the hand was won. "What to discard?" puzzles
(``games.training.discard_puzzles``) add a discard worth more than the fastest one.

>>> data = {"variant": "putian", "hand": "111222333m456p77s", "wildcards": ["7s", "8s"],
...         "win_tile": "7s", "robbing_gold": True, "self_draw": True}
>>> themes_of(data, {"score": {"patterns": []}, "rules": ["PT-7.2", "PT-7.4"]})
['wildcard_held', 'golds', 'rob_gold', 'flower_settlement']
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from games.core.position import Position
from games.core.tiles import Tile
from games.core.variant import Variant
from games.variants.positions import read_position

MANY_WAITS = 5  # natural winning tiles (wildcards aside) for "many waits"

Check = Callable[[Position, dict[str, Any]], bool]


@dataclass(frozen=True)
class Theme:
    """A theme: its key (URLs, storage), its Chinese and English names and its rule."""

    key: str
    chinese: str
    english: str
    rule: str
    check: Check
    kinds: frozenset[str] = frozenset(("wins", "pay", "discard"))  # the kinds it can tag
    # A table's rules options the theme needs (house rules such as SC-H1–H8): generated
    # puzzles of it are played under them, in the variants that have those options.
    rules: tuple[tuple[str, int | str | bool], ...] = ()

    def applies(self, position: Position, answer: dict[str, Any]) -> bool:
        return self.check(position, answer)

    def rules_in(self, variant: type[Variant]) -> dict[str, int | str | bool] | None:
        """The rules a generated puzzle of the theme is played under in ``variant`` (None:
        the variant's tables never play them, so it has no such puzzle).

        >>> from games.variants.registry import variant_named
        >>> theme_named("call_transfer").rules_in(variant_named("sichuan"))
        {'call_transfer': True}
        >>> theme_named("call_transfer").rules_in(variant_named("jiaxing")) is None
        True
        >>> theme_named("gen").rules_in(variant_named("jiaxing"))
        {}
        """
        if any(name not in variant.OPTIONS for name, _value in self.rules):
            return None
        return dict(self.rules)

    @property
    def first_kind(self) -> str:
        """The kind of puzzle a theme is practised with when none is asked ("what wins
        here?" when it can tag those)."""
        return "wins" if "wins" in self.kinds else sorted(self.kinds)[0]


def _pattern_names(answer: dict[str, Any]) -> Iterator[str]:
    """The patterns every winning tile scores ("what wins"), or the won hand's ("pay")."""
    scores = [wait["score"] for wait in answer.get("waits", [])]
    if "score" in answer:
        scores.append(answer["score"])
    for score in scores:
        for pattern in score.get("patterns", []):
            yield str(pattern["name"])


def _scores(*names: str) -> Check:
    """Some winning tile scores one of the patterns ``names`` (the engine's own names)."""
    wanted = frozenset(names)
    return lambda _position, answer: not wanted.isdisjoint(_pattern_names(answer))


def _held_wildcard(position: Position, _answer: dict[str, Any]) -> bool:
    return any(position.is_wild(t) for t in position.hand)


def _several_wildcards(position: Position, _answer: dict[str, Any]) -> bool:
    return sum(1 for t in position.hand if position.is_wild(t)) >= 2


def _win_rule_trap(_position: Position, answer: dict[str, Any]) -> bool:
    """A tile completes the shape but a win rule (JX-5.3 …) refuses it: not a copy trap."""
    return any(t.get("copies") is None and t.get("rule") for t in answer.get("traps", []))


def _copy_trap(_position: Position, answer: dict[str, Any]) -> bool:
    return any(t.get("copies") is not None for t in answer.get("traps", []))


def _kong(position: Position, _answer: dict[str, Any]) -> bool:
    return any(m.type == "gang" for m in position.melds)


def _void(position: Position, _answer: dict[str, Any]) -> bool:
    return position.void is not None


def _whites(position: Position, _answer: dict[str, Any]) -> bool:
    return position.flowers > 0


def natural_waits(position: Position, answer: dict[str, Any]) -> int:
    """Winning tiles that are not wildcards (drawing a wildcard wins any ready hand whose
    shape is all that counts, so those are no waits to find)."""
    return sum(1 for w in answer.get("waits", [])
               if not position.is_wild(Tile.parse(w["tile"])))


def _many_waits(position: Position, answer: dict[str, Any]) -> bool:
    return natural_waits(position, answer) >= MANY_WAITS


def _value_choice(_position: Position, answer: dict[str, Any]) -> bool:
    return len({w["points"] for w in answer.get("waits", [])}) > 1


def _won_hand(answer: dict[str, Any]) -> bool:
    """A "how much does it pay?" answer: the won hand's score (not winning tiles')."""
    return "score" in answer


def _way_of_winning(flag: str, *patterns: str) -> Check:
    """A won hand won this way (its position's ``flag``), or a "what wins" position in
    that way whose winning tiles the engine scores so (one of ``patterns``)."""
    scored = _scores(*patterns)

    def check(position: Position, answer: dict[str, Any]) -> bool:
        if _won_hand(answer):
            return bool(getattr(position, flag))
        return scored(position, answer)

    return check


def _robbing_gold(position: Position, answer: dict[str, Any]) -> bool:
    """抢金 (PT-5.5): the moment before the dealer's first discard, and the gold taken (a
    won hand) or scored by the engine as robbed (a "what wins" position)."""
    return position.robbing_gold and (_won_hand(answer)
                                      or "抢金" in set(_pattern_names(answer)))


def _flag(name: str) -> Check:
    """The won hand was won this way (a pay puzzle's position flag)."""
    return lambda position, _answer: bool(getattr(position, name))


def _settled_by(*rules: str) -> Check:
    """The win's payment lines cite one of ``rules`` (a pay puzzle's answer)."""
    wanted = frozenset(rules)
    return lambda _position, answer: not wanted.isdisjoint(answer.get("rules", []))


def _scores_rule(*ids: str) -> Check:
    """Some winning tile, or the won hand, scores a pattern of one of the rules ``ids``."""
    wanted = frozenset(ids)

    def check(_position: Position, answer: dict[str, Any]) -> bool:
        scores = [w["score"] for w in answer.get("waits", [])] + (
            [answer["score"]] if "score" in answer else [])
        return any(p.get("id") in wanted for score in scores
                   for p in score.get("patterns", []))

    return check


HOUSE_SCORING = ("SC-H4", "SC-H5", "SC-H6", "SC-H7", "SC-H8")
"""The Sichuan house rules that change a win's value (自摸加底, 天地胡, 门清中张, 金钩钓,
海底): a table playing them, 成都's say, counts them into the fan or the base."""


def _passes_three(_position: Position, answer: dict[str, Any]) -> bool:
    """A "which three to pass?" answer: the sets of three the hand may pass on (SC-H1)."""
    return answer.get("rule") == "SC-H1" and bool(answer.get("best"))


def _kongs_paid(_position: Position, answer: dict[str, Any]) -> bool:
    return int(answer.get("kongs_paid", 0)) > 0


def _streak(position: Position, _answer: dict[str, Any]) -> bool:
    return position.dealer_streak > 0


def _value_over_speed(_position: Position, answer: dict[str, Any]) -> bool:
    """The best discard by expected points is not the one that wins most often."""
    choices = answer.get("choices", [])
    if not choices:
        return False
    fastest = max(c["win_probability"] for c in choices)
    return all(c["win_probability"] < fastest for c in choices if c["best"])


PAY = frozenset(("pay",))  # themes only a won hand and its settlement show
DISCARD = frozenset(("discard",))
EXCHANGE = frozenset(("exchange",))  # "which three to pass?" (games.training.exchange_puzzles)
WINS_ONLY = frozenset(("wins",))
WON_HANDS = frozenset(("wins", "pay"))  # patterns a winning tile or a won hand scores

THEMES: tuple[Theme, ...] = (
    Theme("wildcard_held", "百搭/金在手", "wildcard kept in hand", "C-4", _held_wildcard),
    Theme("win_rule_trap", "番型陷阱", "trap: the shape is complete, the rules say no",
          "JX-5.3", _win_rule_trap, WINS_ONLY),
    Theme("copy_trap", "绝张陷阱", "trap: every copy is in your hand", "C-1", _copy_trap, WINS_ONLY),
    Theme("all_honours", "全老头", "all honours", "JX-6.9", _scores("全老头"), WON_HANDS),
    Theme("pure_suit", "清一色", "pure one suit", "JX-6.8 / SC-5.3",
          _scores("清一色", "清对", "清七对", "清龙七对", "清幺九"), WON_HANDS),
    Theme("half_flush", "混一色", "half flush", "JX-6.7", _scores("混一色"), WON_HANDS),
    Theme("all_pungs", "对对和", "all pungs", "JX-6.6 / SC-5.2",
          _scores("对对和", "对对胡", "清对", "将对"), WON_HANDS),
    Theme("seven_pairs", "七对", "seven pairs", "SC-5.5",
          _scores("七对", "龙七对", "清七对", "清龙七对"), WON_HANDS),
    Theme("gen", "根", "four of a kind held", "SC-5.14", _scores("根", "龙七对", "清龙七对"), WON_HANDS),
    Theme("golds", "多张百搭/金", "two or more wildcards in hand", "C-4", _several_wildcards),
    Theme("whites", "白板", "laid-out whites", "PT-6", _whites),
    Theme("kong", "杠", "a declared kong", "C-3", _kong),
    Theme("void", "定缺", "the void suit", "SC-2", _void),
    Theme("many_waits", "多面听", "many waits", "C-3", _many_waits, WINS_ONLY),
    Theme("value_choice", "选最大", "which wait pays most", "C-3", _value_choice, WINS_ONLY),
    Theme("contract", "承包", "a contract pays", "JX-9", _settled_by("JX-10.2", "JX-10.3"), PAY),
    Theme("carried_fans", "黄番", "fans carried from earlier hands", "JX-7.11",
          _scores("黄番", "老头黄", "包子", "百搭连庄"), PAY),
    Theme("rob_kong", "抢杠", "robbing a kong", "JX-8 / SC-5.18", _flag("robbing_kong"), PAY),
    Theme("kong_replacement", "杠上开花", "a win on the kong replacement", "JX-7.2 / SC-5.16",
          _way_of_winning("after_kong", "杠上开花", "杠上花"), WON_HANDS),
    Theme("rob_gold", "抢金", "robbing the gold", "PT-5.5", _robbing_gold, WON_HANDS),
    Theme("bomb", "炸弹", "a bomb: golds win whatever the shape", "PT-5.6 / PT-7.3",
          _way_of_winning("bomb", "小炸弹", "大炸弹", "超级大炸弹"), WON_HANDS),
    Theme("flower_settlement", "算花", "flower settlement", "PT-7.4", _settled_by("PT-7.4"), PAY),
    Theme("dealer_streak", "连庄", "a dealer's streak", "PT-7.1", _streak, PAY),
    Theme("kong_payments", "刮风下雨", "kongs paid this hand", "SC-6.3", _kongs_paid, PAY),
    Theme("house_scoring", "成都加番", "Chengdu house scoring: 自摸加底, 门清中张, 金钩钓, "
          "海底, 天地胡", "SC-H4–H8", _scores_rule(*HOUSE_SCORING), WON_HANDS,
          (("self_draw_bonus", "base"), ("heavenly_earthly", True), ("concealed_middle", True),
           ("golden_hook", True), ("sea_bottom", True))),
    Theme("call_transfer", "呼叫转移", "a kong's takings transferred to the winner",
          "SC-H3", _settled_by("SC-H3"), PAY, (("call_transfer", True),)),
    Theme("exchange_three", "换三张", "which three tiles to pass on", "SC-H1",
          _passes_three, EXCHANGE),
    Theme("value_over_speed", "舍快求大", "a slower discard worth more", "C-3",
          _value_over_speed, DISCARD),
)

BY_KEY = {theme.key: theme for theme in THEMES}


class ThemeError(ValueError):
    """A theme key the engine doesn't tag."""


def theme_named(key: str) -> Theme:
    """The theme of a key.

    >>> theme_named("gen").chinese
    '根'
    >>> theme_named("nope")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    ThemeError: no theme 'nope'; themes: wildcard_held, ...
    """
    try:
        return BY_KEY[key]
    except KeyError:
        raise ThemeError(f"no theme {key!r}; themes: {', '.join(BY_KEY)}") from None


def themes_of(position: dict[str, Any] | Position, answer: dict[str, Any],
              kind: str | None = None) -> list[str]:
    """The keys of every theme a puzzle shows, in :data:`THEMES` order (only the themes a
    ``kind`` of puzzle can show, when it is given)."""
    checked = position if isinstance(position, Position) else read_position(position)
    return [theme.key for theme in THEMES if (kind is None or kind in theme.kinds)
            and theme.applies(checked, answer)]


def position_key(position: dict[str, Any]) -> str:
    """One key per position whatever its source (a generated puzzle and a replay's spot
    that hold the same hand in the same context are one puzzle): a hash of the position
    JSON without what the seat has seen on the table.

    >>> a = position_key({"variant": "sichuan", "hand": "1112345678999p", "void": "s"})
    >>> a == position_key({"void": "s", "hand": "1112345678999p", "variant": "sichuan",
    ...                    "seen": "9p"})
    True
    """
    kept = {k: v for k, v in position.items() if k != "seen"}
    text = json.dumps(kept, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
