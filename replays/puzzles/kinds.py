"""The three kinds of puzzle on the site (docs/puzzles.md): what each shows, asks and marks.

"What wins here?" (``wins``) is the original kind (``views._setup``/``_feedback``);
"how much does it pay?" (``pay``, ``games.training.pay_puzzles``) shows a won hand with the table
around it and asks for the variant's count (``Variant.PAY_ASKS``), answering with the
table's itemised settlement (``replays.matches.settlement_lines``); "what to discard?"
(``discard``, ``games.training.discard_puzzles``) shows a hand to discard from and answers with
every choice's win chance and expected points from the values pass. The functions here
dispatch on ``Puzzle.kind``; the numbers all come from the engine's stored answer.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext

from games.core import settlement
from games.core.position import Position
from games.core.settlement import Formula, Payment
from games.core.table import Settled
from games.core.tiles import TILES, Tile
from games.training import discard_puzzles, exchange_puzzles, pay_puzzles
from games.training import puzzles as engine
from games.variants.positions import read_position
from games.variants.registry import VARIANTS
from replays.matches.board import TileView, banked_fans
from replays.matches.settlement_lines import line_views
from replays.models import Puzzle
from replays.tile_names import tile_name, wildcard_name

MAX_NUMBER = 10**7  # the largest count a form may carry (far beyond any score)


class BadAnswer(ValueError):
    """An answer a form sent that can't be marked; the message says why, for the player."""


# -- what the page shows ---------------------------------------------------------------


def wind(index: int) -> str:
    return (_("East 东"), _("South 南"), _("West 西"), _("North 北"))[index]


def seat_label(seat: int, dealer: int, you: int) -> str:
    """A seat by its wind this hand, and "you" for the player's own."""
    name = wind((seat - dealer) % 4)
    return _("%(wind)s (you)") % {"wind": name} if seat == you else name


def _ask_label(name: str) -> str:
    return {"tai": _("Tai 台"), "fan": _("Fan 番"),
            "points": _("Points a loser pays 分 (before the dealer's extra and 算花)")}[name]


def _how(table: dict[str, Any], position: Position) -> str:
    how = table.get("how")
    if how == "robbing_kong":
        return _("robbing %(seat)s's kong") % {"seat": seat_label(
            table["discarder"], position.dealer, position.seat)}
    if how == "rob_gold":
        return _("robbing the gold (抢金)")
    if how == "bomb":
        return _("a bomb (炸弹)")
    if table.get("discarder") is not None:
        return _("on %(seat)s's discard") % {"seat": seat_label(
            table["discarder"], position.dealer, position.seat)}
    if position.after_kong:
        return _("self-drawn on a kong replacement")
    return _("self-drawn")


def pay_setup(found: Puzzle) -> dict[str, Any]:
    """A pay puzzle's position and table as the page shows them (tiles, winds, seats)."""
    data = found.position
    position = read_position(data["position"])
    table = data["table"]
    variant = position.variant
    wild = position.wildcards
    hand = list(position.hand)
    won_on = position.win_tile
    if won_on is not None and won_on in hand:
        hand.remove(won_on)
    contracts = {s: pair[1 - pair.index(s)] for pair in table.get("contracts", []) for s in pair}
    flowers = table.get("flower_points")
    seats = []
    for seat in range(4):
        notes = []
        if seat == position.dealer:
            notes.append(_("dealer"))
        if seat in contracts:
            notes.append(_("in a contract with %(seat)s (承包, JX-9)") % {
                "seat": seat_label(contracts[seat], position.dealer, position.seat)})
        if seat in table.get("gave_up", []):
            notes.append(_("gave up (JX-9)"))
        if "still_in" in table and seat not in table["still_in"]:
            notes.append(_("already won: out of this hand (SC-3.2)"))
        if flowers is not None and flowers[seat] is not None:
            notes.append(ngettext("%(n)s flower point", "%(n)s flower points",
                                  flowers[seat]) % {"n": flowers[seat]})
        seats.append({"label": seat_label(seat, position.dealer, position.seat),
                      "notes": notes, "you": seat == position.seat})
    flags = [text for flag, text in (
        ("last_tile", _("the last tile of the wall")),
        ("first_turn", _("before the first discard")),
        ("after_kong_discard", _("the discard after a kong"))) if getattr(position, flag)]
    return {
        "hand": [TileView(t, wild=t.kind in wild) for t in sorted(
            hand, key=lambda t: (t.kind not in wild, t.kind))],
        "win_tile": TileView(won_on, wild=won_on.kind in wild, winning=True)
        if won_on is not None else None,
        **_context(position),
        "how": _how(table, position), "flags": flags, "seats": seats,
        "base": table.get("base", 1) if not position.dealer_streak
        else settlement.putian_base(position.dealer_streak),
        "kongs_paid": len(table.get("kongs", [])),
        "asks": [{"name": name, "label": _ask_label(name)} for name in variant.PAY_ASKS],
        "rule": variant.PAY_RULE,
    }


def streak_context(position: Position) -> dict[str, Any]:
    """The dealer's streak (连庄, PT-7.1) as RULES.md counts it: n = the hands this dealer
    has dealt in a row before this one; the hand's base is 1 when n = 0, else n + 2 —
    the dealer's 2nd hand in a row has base 3, the 3rd 4 (the pattern table's "n-th hand
    in a row: n + 1" says the same, n counting this hand)."""
    n = position.dealer_streak
    if not n:
        return {"dealer_streak": 0}
    return {"dealer_streak": n, "streak_hand": n + 1,
            "streak_base": settlement.putian_base(n)}


def _settled(lines: list[dict[str, Any]]) -> list[Settled]:
    return [Settled(0, Payment(line["rule"], line["cause"], line["payer"], line["payee"],
                               line["amount"], Formula(line["formula"]["kind"], tuple(
                                   line["formula"]["numbers"].items()))))
            for line in lines]


def pay_feedback(found: Puzzle, verdict: pay_puzzles.PayVerdict) -> dict[str, Any]:
    """The answer: the score's patterns, the table's lines worded (the library's own
    settlement lines), what the player typed against the engine's counts."""
    answer = found.answer
    position = read_position(found.position["position"])
    players = [seat_label(s, position.dealer, position.seat) for s in range(4)]
    lines = line_views(_settled(answer["lines"]), players, [0, 0, 0, 0])
    kongs = line_views(_settled(found.position["table"].get("kongs", [])), players,
                       [0, 0, 0, 0])
    board = {"lines": lines, "seats": [{"name": name} for name in players],
             "variant": found.variant, "ended": True, "step": -1}
    kong_board = {"lines": kongs, "seats": board["seats"], "variant": found.variant,
                  "ended": False, "step": -1}
    typed = dict(verdict.given)
    return {"asks": [{"name": name, "label": _ask_label(name), "value": answer["values"][name],
                      "right": name in verdict.right, "typed": typed.get(name)}
                     for name in answer["asks"]],
            "collects_typed": verdict.collects,
            "score": answer["score"], "patterns": answer["score"].get("patterns", []),
            "board": board, "kong_board": kong_board, "collects": answer["collects"],
            "unit": VARIANTS[found.variant].SCORE_UNIT}


def discard_setup(found: Puzzle) -> dict[str, Any]:
    """A discard puzzle's hand: the tiles to pick from, the context, what was seen."""
    position = read_position(found.position)
    wild = position.wildcards
    hand = sorted(position.hand, key=lambda t: (t.kind not in wild, t.kind))
    kinds = sorted({t.kind for t in hand}, key=lambda k: (k not in wild, k))
    return {
        "hand": [TileView(t, wild=t.kind in wild) for t in hand],
        "choices": [str(TILES[k]) for k in kinds],
        **_context(position),
        "seen": len(position.seen), "seen_groups": seen_groups(position),
        "dead": dead_tiles(position), "draws": found.answer.get("draws"),
    }


def seen_groups(position: Position) -> list[list[dict[str, Any]]]:
    """The tiles the seat could see on the table (discards, others' melds, laid-out
    whites), one row per suit, each kind once with how many were seen: the page shows them
    as tile pictures, so which tiles are scarce or dead can be read at a glance."""
    counts: dict[int, int] = {}
    for tile in position.seen:
        counts[tile.kind] = counts.get(tile.kind, 0) + 1
    rows: dict[int, list[dict[str, Any]]] = {}
    for kind in sorted(counts):
        rows.setdefault(kind // 9 if kind < 27 else 3, []).append(
            {"tile": TileView(TILES[kind]), "count": counts[kind]})
    return [rows[suit] for suit in sorted(rows)]


def _held(position: Position) -> dict[int, int]:
    held: dict[int, int] = {}
    for tile in (*position.hand, *(t for meld in position.melds for t in meld.tiles),
                 *position.seen):
        held[tile.kind] = held.get(tile.kind, 0) + 1
    return held


def dead_tiles(position: Position) -> list[dict[str, Any]]:
    """Kinds no copy of which is left to draw (C-1): every copy in play is seen on the
    table or in this hand and its melds — a wait on one of them can never come."""
    variant = position.variant
    context = variant.wait_context(position)
    held = _held(position)
    seen = {t.kind for t in position.seen}
    return [{"tile": TileView(TILES[kind]), "count": variant.copies(context, kind)}
            for kind in sorted(seen)
            if held.get(kind, 0) >= variant.copies(context, kind)]


def _context(position: Position) -> dict[str, Any]:
    """What both kinds show around a hand: melds, wildcards or golds, winds, the dealer,
    the void, laid-out whites."""
    variant = position.variant
    return {
        "melds": [[TileView(t) for t in m.tiles] for m in position.melds],
        "wildcards": [TileView(TILES[k], wild=True) for k in sorted(position.wildcards)],
        "wildcard_name": wildcard_name(variant),
        "seat_wind": wind(position.seat_wind), "dealer": position.is_dealer,
        "round_wind": wind(position.round_wind) if "round_wind" in variant.HAND_FIELDS
        else None,
        "void": "mps"[position.void] if position.void is not None else "",
        "has_flowers": variant.HAS_FLOWERS, "flowers": position.flowers,
        **bank_context(position), **streak_context(position),
    }


def bank_context(position: Position) -> dict[str, Any]:
    """The carried fans (黄番, JX-7.11) the position's scores count, for every kind of
    puzzle: the answer's values are doubled by them, so the page must show them."""
    return {"bank": banked_fans(position.bank),
            "has_bank": "bank" in position.variant.HAND_FIELDS}


def discard_feedback(found: Puzzle, verdict: discard_puzzles.DiscardVerdict) -> dict[str, Any]:
    answer = found.answer
    accepting = acceptance(read_position(found.position))
    rows = []
    for choice in answer["choices"]:
        rows.append({**choice, "name": tile_name(choice["tile"]),
                     "win_percent": round(100 * choice["win_probability"], 1),
                     "picked": choice["tile"] == verdict.picked,
                     "accepts": accepting.get(choice["tile"])})
    by_tile = {row["tile"]: row for row in rows}
    best = by_tile.get(answer["best"])
    other = by_tile.get(verdict.picked) if verdict.picked != answer["best"] else by_tile.get(
        answer.get("runner_up", ""))
    return {"choices": rows, "best": answer["best"], "unit_value": round(answer["unit"], 2),
            "draws": answer.get("draws"),
            "runner_up_loss": answer.get("runner_up_loss"), "model": answer.get("model"),
            "why": why_sentences(best, other, verdict.solved) if best and other else []}


def acceptance(position: Position) -> dict[str, dict[str, Any]]:
    """What each discard leaves, by the engine's ``waits`` (ENGINE-CLI): ready (its
    winning tiles, each with the copies left to draw) or how far from ready, and the
    tiles that bring it closer with their copies left. Copies left count what the seat
    sees (C-1), so a wait whose copies are all seen shows 0: dead."""
    table = position.variant.waits(position)
    found: dict[str, dict[str, Any]] = {}
    for option in getattr(table, "discards", []):
        after = option.after
        ready = after.shanten == 0 and bool(after.waits)
        tiles = [{"tile": TileView(w.tile), "left": w.remaining} for w in after.waits] \
            if ready else [{"tile": TileView(a.tile), "left": a.remaining}
                           for a in after.accepted]
        found.setdefault(str(option.tile), {
            "ready": ready, "shanten": after.shanten, "tiles": tiles,
            "live": sum(t["left"] for t in tiles),
            "dead": [t for t in tiles if t["left"] == 0]})
    return found


def _choice_text(row: dict[str, Any]) -> str:
    accepts = row.get("accepts") or {}
    numbers = {"tile": row["name"], "win": row["win_percent"],
               "points": f"{row['expected_points']:.2f}", "live": accepts.get("live", 0),
               "kinds": len(accepts.get("tiles", []))}
    if accepts.get("ready"):
        text = ngettext(
            "discarding %(tile)s leaves you ready on %(kinds)s kind of tile with "
            "%(live)s copies left to draw: it wins %(win)s%% of the time, "
            "%(points)s points expected",
            "discarding %(tile)s leaves you ready on %(kinds)s kinds of tile with "
            "%(live)s copies left to draw: it wins %(win)s%% of the time, "
            "%(points)s points expected", numbers["kinds"]) % numbers
    elif accepts.get("shanten", 1) > 1:
        text = _("discarding %(tile)s leaves you %(away)s tiles from ready, %(kinds)s kinds "
                 "of tile (%(live)s copies left) bringing you closer: it wins %(win)s%% of "
                 "the time, %(points)s points expected") % {**numbers,
                                                            "away": accepts["shanten"]}
    else:
        text = ngettext(
            "discarding %(tile)s leaves you a tile from ready, %(kinds)s kind of tile "
            "(%(live)s copies left) bringing you closer: it wins %(win)s%% of the time, "
            "%(points)s points expected",
            "discarding %(tile)s leaves you a tile from ready, %(kinds)s kinds of tile "
            "(%(live)s copies left) bringing you closer: it wins %(win)s%% of the time, "
            "%(points)s points expected", numbers["kinds"]) % numbers
    dead = accepts.get("dead") or []
    if dead:
        text += _(" (dead: %(tiles)s — every copy is seen or in your hand)") % {
            "tiles": pgettext("between items of a list", ", ").join(
                tile_name(t["tile"].code) for t in dead)}
    return text


def _difference(best: dict[str, Any], other: dict[str, Any]) -> str:
    numbers = {"best": best["name"],
               "points": f"{best['expected_points'] - other['expected_points']:.2f}",
               "win": f"{abs(best['win_percent'] - other['win_percent']):.1f}"}
    if best["win_percent"] >= other["win_percent"]:
        return _("%(best)s is worth %(points)s expected points more and wins %(win)s "
                 "percentage points more often.") % numbers
    return _("%(best)s wins %(win)s percentage points less often, but its wins score more: "
             "%(points)s expected points more.") % numbers


def why_sentences(best: dict[str, Any], other: dict[str, Any], solved: bool) -> list[str]:
    """Why the best discard is best, from the numbers that decide: what each of it and
    the other discard (yours when you missed, else the runner-up) leaves, its win chance
    and its expected points, and the difference."""
    second = _("The runner-up: %(text)s.") if solved else _("Yours: %(text)s.")
    return [
        _("The best: %(text)s.") % {"text": _choice_text(best)},
        second % {"text": _choice_text(other)},
        _difference(best, other),
    ]


# -- reading and marking an answer -----------------------------------------------------


def read_pay(post: Any, found: Puzzle) -> tuple[dict[str, int], str]:
    """The typed counts (``tai``, ``fan``, ``points`` as the variant asks) and the bonus
    (``collects``: what the winner collects in all)."""
    given: dict[str, int] = {}
    for name in VARIANTS[found.variant].PAY_ASKS:
        given[name] = _number(post.get(name, ""), _ask_label(name), required=True)
    collects = post.get("collects", "").strip()
    if collects:
        given["collects"] = _number(collects, _("What the winner collects"), required=True,
                                    signed=True)
    return given, ""


def _number(text: str, label: str, required: bool, signed: bool = False) -> int:
    value = str(text).strip()
    if not value and required:
        raise BadAnswer(_("%(field)s: type a whole number.") % {"field": label})
    try:
        number = int(value)
    except ValueError:
        raise BadAnswer(_("%(field)s: “%(text)s” is not a whole number.") % {
            "field": label, "text": value[:12]}) from None
    if (number < 0 and not signed) or abs(number) > MAX_NUMBER:
        raise BadAnswer(_("%(field)s: type a whole number from 0 to %(most)s.") % {
            "field": label, "most": MAX_NUMBER})
    return number


def read_discard(post: Any, found: Puzzle) -> tuple[list[str], str]:
    """The one tile picked to discard: a tile of the hand."""
    picked = post.get("tile", "").strip()
    if not picked:
        raise BadAnswer(_("Pick the tile you would discard."))
    choices = {str(t) for t in read_position(found.position).hand}
    if picked not in choices:
        raise BadAnswer(_("%(tile)s is not a tile of this hand.") % {
            "tile": tile_name(picked[:4])})
    return [picked], ""


# -- which three to pass? (换三张, SC-H1) -------------------------------------------------


EXCHANGE_ROWS = 3  # sets shown per suit after the answer (the best first), with the pick


def exchange_setup(found: Puzzle) -> dict[str, Any]:
    """An exchange puzzle's dealt hand and the sets of three it may pass on, by suit."""
    position = read_position(found.position["position"])
    by_suit: dict[str, list[dict[str, Any]]] = {}
    for row in sorted(found.answer["choices"], key=lambda r: r["tiles"]):
        by_suit.setdefault(row["suit"], []).append(
            {"code": row["tiles"], "tiles": [TileView(Tile.parse(t))
                                             for t in row["tiles"].split()]})
    return {
        "hand": [TileView(t) for t in sorted(position.hand, key=lambda t: t.kind)],
        **_context(position),
        "suits": [{"suit": suit, "sets": sets} for suit, sets in sorted(by_suit.items())],
    }


def _tile_names(codes: str) -> str:
    """Tiles written in notation ("3p 6p 6p") by their names in the reader's language."""
    return pgettext("between tile names", " ").join(tile_name(code) for code in codes.split())


def read_exchange(post: Any, found: Puzzle) -> tuple[list[str], str]:
    """The set of three picked: one of the sets the hand may pass on (SC-H1)."""
    picked = post.get("tiles", "").strip()
    if not picked:
        raise BadAnswer(_("Pick the three tiles you would pass on."))
    if picked not in {row["tiles"] for row in found.answer["choices"]}:
        raise BadAnswer(_("%(tiles)s is not three tiles of one suit from this hand (SC-H1).")
                        % {"tiles": picked[:20]})
    return [picked], ""


def exchange_feedback(found: Puzzle, verdict: exchange_puzzles.ExchangeVerdict
                      ) -> dict[str, Any]:
    """The answer: the best sets, and the best few of each suit with the pick, each with
    the shanten and the improving tiles of what it keeps."""
    answer = found.answer
    shown: list[dict[str, Any]] = []
    per_suit: dict[str, int] = {}
    for row in answer["choices"]:  # best first
        count = per_suit.get(row["suit"], 0)
        if count < EXCHANGE_ROWS or row["tiles"] == verdict.picked:
            per_suit[row["suit"]] = count + 1
            shown.append({**row, "tiles_view": [TileView(Tile.parse(t))
                                                for t in row["tiles"].split()],
                          "best": row["tiles"] in answer["best"],
                          "picked": row["tiles"] == verdict.picked})
    best = answer["choices"][0]
    other = next((r for r in answer["choices"] if r["suit"] != best["suit"]), None)
    why = [_("The three tiles you receive are unknown when you choose (SC-H1), so the "
             "engine measures what you keep: its shanten with the void suit still to name "
             "(SC-2), then the unseen tiles that would improve it.")]
    if other is not None:
        why.append(_("Passing on %(best)s keeps a hand %(shanten)s from ready with %(tiles)s "
                     "improving tiles; the best set of another suit, %(other)s, keeps "
                     "%(other_shanten)s with %(other_tiles)s.") % {
            "best": _tile_names(best["tiles"]), "shanten": best["shanten"],
            "tiles": best["accepted"], "other": _tile_names(other["tiles"]),
            "other_shanten": other["shanten"],
            "other_tiles": other["accepted"]})
    return {"choices": shown, "best": answer["best"], "why": why}


def check(found: Puzzle, picked: Any, bonus: str) -> Any:
    """The verdict on an answer of any kind (its ``solved`` and ``points`` count)."""
    if found.kind == Puzzle.Kind.PAY:
        given = dict(picked) if isinstance(picked, dict) else {}
        collects = given.pop("collects", None)
        return pay_puzzles.check(found.answer, given, collects, found.difficulty)
    if found.kind == Puzzle.Kind.DISCARD:
        tile = picked[0] if picked else ""
        return discard_puzzles.check(found.answer, tile, found.difficulty)
    if found.kind == Puzzle.Kind.EXCHANGE:
        return exchange_puzzles.check(found.answer, picked[0] if picked else "",
                                      found.difficulty)
    return engine.check(found.answer, picked, bonus or None, found.difficulty)


def share_lines(found: Puzzle, verdict: Any) -> list[str]:
    """How an answer of a new kind went, for the share text: never the numbers or tile."""
    if found.kind == Puzzle.Kind.PAY:
        marks = "".join("🟩" if name in verdict.right else "🟥" for name in found.answer["asks"])
        lines = [_("Counted %(right)d of %(asked)d %(marks)s") % {
            "right": len(verdict.right), "asked": len(found.answer["asks"]), "marks": marks}]
        if verdict.bonus is not None:
            lines.append(_("What the winner collects: %(mark)s") % {
                "mark": "✓" if verdict.bonus else "✗"})
        return lines
    if found.kind == Puzzle.Kind.EXCHANGE:
        return [_("Best three to pass: %(mark)s") % {"mark": "🟩" if verdict.solved else "🟥"}]
    return [_("Best discard: %(mark)s") % {"mark": "🟩" if verdict.solved else "🟥"}]


