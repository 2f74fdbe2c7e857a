"""What the scorer shows for a state: the engine's score and settlement, its waits, or why not.

The engine does all the counting (``Variant.score``, ``Variant.waits``, ``Variant.win_lines``);
this module builds the position from the page's state, asking the variant which fields its
score reads (``Variant.SCORE_FIELDS``), and words the lines as the replay viewer does.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _

from games.core.messages import message_of
from games.core.position import FLAGS, Position, PositionError
from games.core.settlement import deltas_of
from games.core.table import Settled
from games.core.tiles import Tile
from games.core.variant import Waits
from games.play.bot_match import PlayError
from games.variants.positions import read_position
from replays.matches.engine_refusals import render
from replays.matches.settlement_lines import LineView, line_views
from replays.models import Match
from replays.puzzles.kinds import wind
from replays.scorer.options import rules_of_state
from replays.scorer.state import WINDS, State, meld_tiles, notation, tiles_of
from replays.tile_names import tile_name


@dataclass
class Answer:
    """The result part of the page: one of an error, a prompt, the waits or a score."""

    status: int = 200
    error: str = ""
    prompt: str = ""
    score: dict[str, Any] | None = None
    lines: list[LineView] = field(default_factory=list)
    payers: list[dict[str, Any]] = field(default_factory=list)
    waits: list[dict[str, Any]] = field(default_factory=list)
    shanten: int | None = None


def position_json(state: State, *, waiting: bool = False) -> dict[str, Any]:
    """The engine's position object for the state: only the fields the variant's score reads."""
    fields = state.cls.SCORE_FIELDS
    data: dict[str, Any] = {
        "variant": state.variant, "hand": state.hand or "",
        "melds": [_meld_json(m) for m in state.melds],
        "wildcards": [str(t) for t in _wild_tiles(state)],
        "seat": WINDS.index(state.seat), "dealer": 0,
        "self_draw": state.how == "self_draw",
        "rules": rules_of_state(state),
    }
    if not waiting:
        data["win_tile"] = state.win or None
    if state.how in ("robbing_kong", "robbing_gold") and state.how in fields:
        data[state.how] = True
    for flag in FLAGS:
        if flag in state.flags and flag in fields and flag not in ("robbing_kong",
                                                                      "robbing_gold"):
            data[flag] = True
    if "round_wind" in fields:
        data["round_wind"] = state.round_wind
    if "bank" in fields and state.bank:
        data["bank"] = [state.bank]
    if "flowers" in fields:
        data["flowers"] = state.flowers
    if "dealer_streak" in fields:
        data["dealer_streak"] = state.streak
    if "void" in fields and state.void:
        data["void"] = state.void
    return data


def _wild_tiles(state: State) -> list[Tile]:
    return tiles_of(state.wild)


def _meld_json(code: str) -> dict[str, Any]:
    tiles = meld_tiles(code)
    if code[0] == "c":
        return {"type": "chi", "tiles": "".join(str(t) for t in tiles)}
    if code[0] == "p":
        return {"type": "peng", "tile": str(tiles[0])}
    return {"type": "gang", "kind": "concealed" if code[0] == "a" else "exposed",
            "tile": str(tiles[0])}


def answer(state: State) -> Answer:
    """Score the state's hand, list its waits, or say what is missing or wrong."""
    count, full = state.tiles_count(), state.full_size
    wanted_wilds = state.cls.WILDCARD_KINDS
    if count == 0:
        return Answer(prompt=_("Tap the tiles of the winning hand below."))
    problem = _tile_problem(state) or _meld_problem(state)
    if problem:
        return Answer(status=400, error=problem)
    if wanted_wilds and len(_wild_tiles(state)) != wanted_wilds:
        return Answer(prompt=_("Set the hand's %(name)s first: %(n)s kind(s), tapped in the "
                               "%(name)s row.") % {"name": state.cls.WILDCARD_LABEL,
                                                    "n": wanted_wilds})
    if count == full - 1:
        return _waits(state)
    if count != full:
        return Answer(status=200 if count < full else 400, error="" if count < full else _(
            "%(count)s tiles: a complete hand has %(full)s (a meld counts three).") % {
                "count": count, "full": full},
            prompt=_("%(count)s of %(full)s tiles (a meld counts three).") % {
                "count": count, "full": full} if count < full else "")
    if not state.win:
        return Answer(prompt=_("Tap the winning tile in the hand to mark it."))
    if state.how != "self_draw" and state.discarder == state.seat:
        return Answer(status=400, error=_("The winner can't win on their own discard: choose "
                                          "who discarded (C-5)."))
    try:
        position = read_position(position_json(state))
        score = position.variant.score(position)
    except PlayError as error:
        return Answer(status=400, error=str(error))
    except PositionError as error:
        return Answer(status=400, error=_named(render(message_of(error))))
    result = score.to_json()
    if not score.win:
        reason = str(result.get("reason") or "")
        return Answer(status=200, score=result, error=_("Not a win: %(reason)s") % {
            "reason": _named(render(score.reason or reason))})
    discarder = None if state.how == "self_draw" else WINDS.index(state.discarder)
    lines = position.variant.win_lines(position, score, discarder)
    return Answer(score=result, lines=line_views([Settled(0, line) for line in lines],
                                                 players(position), [0, 0, 0, 0]),
                  payers=_payers(position, deltas_of(lines)))


def _tile_problem(state: State) -> str:
    """What the keyboard can't stop a link from holding: a fifth copy, a tile the variant
    doesn't play (its TILES_RULE), a flower held where flowers are laid out (its FLOWER_RULE)."""
    variant = state.cls
    kinds = set(variant.tile_kinds())
    whites_out = {kind for kind in variant.FLOWER_KINDS
                  if kind not in {t.kind for t in tiles_of(state.wild)}}
    for code, copies in sorted(state.used().items()):
        kind = Tile.parse(code).kind
        if copies > 4:
            return _("%(n)s copies of %(tile)s: the game has only 4 of each tile (C-1).") % {
                "n": copies, "tile": tile_name(code)}
        if kind not in kinds:
            return _("%(tile)s is not a tile of %(variant)s (%(rule)s).") % {
                "tile": tile_name(code), "variant": Match.Variant(state.variant).label,
                "rule": variant.TILES_RULE}
        if kind in whites_out:
            return _("%(tile)s is laid out as a flower, not held: count it under the "
                     "laid-out whites (%(rule)s).") % {"tile": tile_name(code),
                                                        "rule": variant.FLOWER_RULE}
    return ""


def _meld_problem(state: State) -> str:
    """A meld the variant doesn't have (a link may hold one the keyboard doesn't offer)."""
    variant = state.cls
    for code in state.melds:
        event = {"p": "peng", "c": "chi"}.get(code[0])
        if event in variant.MISSING_EVENTS:
            rule = variant.MISSING_EVENTS[event]
        elif code[0] == "k" and "exposed" not in variant.KONG_KINDS:
            rule = variant.KONG_RULE
        else:
            continue
        return _("%(variant)s has no such meld: %(tiles)s (%(rule)s).") % {
            "variant": Match.Variant(state.variant).label, "rule": rule,
            "tiles": " ".join(tile_name(str(t)) for t in meld_tiles(code))}
    return ""


def _named(text: str) -> str:
    """An engine sentence the catalogue doesn't hold, its tile codes as tile names."""
    return _CODE.sub(lambda found: tile_name(found.group(0)), text)


_CODE = re.compile(r"(?<![\w#/.-])[1-9][mpsz](?![\w-])")


def players(position: Position) -> list[str]:
    """The seats by their wind (East deals), the winner named."""
    return [_("%(wind)s (winner)") % {"wind": wind(seat)} if seat == position.seat
            else wind(seat) for seat in range(4)]


def _payers(position: Position, deltas: list[int]) -> list[dict[str, Any]]:
    names = players(position)
    return [{"name": names[seat], "delta": delta, "winner": seat == position.seat}
            for seat, delta in enumerate(deltas)]


def _waits(state: State) -> Answer:
    try:
        position = read_position(position_json(state, waiting=True))
        found = position.variant.waits(position)
        assert isinstance(found, Waits)  # a hand one tile short gets its waits
    except PlayError as error:
        return Answer(status=400, error=str(error))
    except PositionError as error:
        return Answer(status=400, error=_named(render(message_of(error))))
    waits = [{"tile": str(w.tile), "remaining": w.remaining, "score": w.score.to_json(),
              "query": state.query(hand=_with(state.hand, str(w.tile)), win=str(w.tile))}
             for w in found.waits]
    prompt = (_("One tile short: these tiles win. Tap one to score it.") if waits else
              _("One tile short, and no tile wins this hand yet."))
    return Answer(prompt=prompt, waits=waits, shanten=found.shanten)


def _with(hand: str, code: str) -> str:
    return notation([*tiles_of(hand), Tile.parse(code)])
