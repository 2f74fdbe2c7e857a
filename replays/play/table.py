"""The play table's context, drawn from the seat's view only (``PlayMatch.view()``).

Other seats' hands are face-down tiles counted from ``concealed_count``; their concealed
kongs are four backs. The settlement between hands is the viewer's, itemised, from the
finished hands (every tile of a finished hand is shown at its end anyway).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse
from django.utils.translation import get_language, ngettext, pgettext, pgettext_lazy
from django.utils.translation import gettext as _

from games.core.events import Event
from games.core.tiles import TILES, Tile, parse_tiles
from games.play.bot_match import PlayMatch
from games.records.log import read_event
from games.variants.registry import VARIANTS
from replays.matches.board import (
    Board,
    SeatView,
    TileView,
    banked_fans,
    board_at,
    claimers_of,
    describe,
    place_of,
    replayed,
)
from replays.models import PlayedMatch
from replays.play import services
from replays.tile_names import suit_name, tile_name, tile_states, wildcard_name


@dataclass
class Choice:
    """One legal action as a button: its JSON (the form's value), words and key."""

    action: dict[str, Any]
    text: str
    tile: TileView | None = None

    @property
    def value(self) -> str:
        return json.dumps(self.action, sort_keys=True, separators=(",", ":"))

    @property
    def label(self) -> str:
        """The words with what the tile's face shows: "Discard 5 Dots (wildcard, just
        drawn)" (issue 32: the button's name replaces the tile's own)."""
        if self.tile is None:
            return self.text
        return self.text + tile_states(wild=self.tile.wild, drawn=self.tile.drawn)


VIEW_FIELDS = ("hands", "melds", "hand")
"""Fields of a seen event that the page shows and the log format doesn't have."""


def _tv(code: str, wild: frozenset[str], *, hidden: bool = False, drawn: bool = False,
        claimed: bool = False, winning: bool = False, claimed_by: str = "") -> TileView:
    return TileView(Tile.parse(code), wild=code in wild, hidden=hidden, drawn=drawn,
                    claimed=claimed, winning=winning, claimed_by=claimed_by)


def river_claimers(match: PlayMatch, view: dict[str, Any]) -> dict[int, dict[int, str]]:
    """Who took each claimed discard of the hand in play, from its moves as the seat sees
    them (claims are public: only their kind, actor and target are read)."""
    if view.get("over") or not view.get("hand_number"):
        return {}
    entries = match.events_since(int(view["hand_number"]), 0)
    moves = [(str(e["event"]["type"]), e["event"].get("actor"), e["event"].get("target"),
              e["event"].get("how")) for e in entries]
    return claimers_of(moves, [s["name"] for s in view["seats"]])


def _backs(n: int) -> list[TileView]:
    return [TileView(TILES[0], hidden=True) for _ in range(n)]


def _meld(meld: dict[str, Any], wild: frozenset[str]) -> list[TileView]:
    if meld["type"] == "chi":
        return [TileView(t, wild=str(t) in wild) for t in parse_tiles(str(meld["tiles"]))]
    if "tile" not in meld:  # another seat's concealed kong: face down
        return _backs(4)
    count = 4 if meld["type"] == "gang" else 3
    hidden = meld.get("kind") == "concealed"
    return [_tv(meld["tile"], wild, hidden=hidden and i in (0, 3)) for i in range(count)]


def seat_views(view: dict[str, Any],
               claimers: dict[int, dict[int, str]] | None = None) -> list[SeatView]:
    """The four seats as the viewer's seat sections draw them, the player at the bottom;
    ``claimers`` names who took each claimed discard (:func:`river_claimers`)."""
    claimers = claimers or {}
    wild = frozenset(view.get("wildcards", []))
    variant = VARIANTS[view["variant"]]
    flower_kinds = getattr(variant, "FLOWER_KINDS", ())
    last = view.get("last_discard") or {}
    # Whose turn it is, as the page shows it: the seat being asked. While the player is
    # asked (their turn, a claim, 定缺 SC-2, the contract JX-9) that is their seat, not the
    # dealer's or the discarder's (issue 28).
    turn = view["seat"] if view.get("decision") else view.get("turn")
    bottom = view["seat"] if view["seat"] is not None else 0  # a spectator: the first seat
    seats = []
    for raw in view["seats"]:
        number = raw["seat"]
        if number == view["seat"]:
            hand: list[TileView] = []  # the player's own tiles are the discard buttons
        elif "hand" in raw:  # revealed: a Sichuan winner, or the end of the match
            hand = [_tv(t, wild) for t in raw["hand"]]
        else:
            hand = _backs(int(raw["concealed_count"]))
        taken = claimers.get(number, {})
        river = [_tv(d["tile"], wild, claimed=bool(d["claimed"]),
                     claimed_by=taken.get(i, "") if d["claimed"] else "")
                 for i, d in enumerate(raw["river"])]
        if river and last.get("seat") == number:
            river[-1].last = True
        flowers = ([TileView(TILES[flower_kinds[0]]) for _ in range(int(raw["flowers"]))]
                   if flower_kinds and raw.get("flowers") else [])
        seats.append(SeatView(
            seat=number, name=raw["name"], wind=raw["wind"], score=int(raw["score"]),
            hand=hand, melds=[_meld(m, wild) for m in raw["melds"]], river=river,
            flowers=flowers, is_dealer=number == view["dealer"],
            is_turn=number == turn, won=bool(raw.get("won")),
            gave_up=bool(raw.get("gave_up")), ready=bool(raw.get("ready")),
            void=raw.get("void"), place=place_of(number, bottom),
            won_tiles=[_tv(t, wild, winning=True) for t in raw.get("won_tiles", [])],
            locked=bool(raw.get("locked"))))
    order = {"top": 0, "left": 1, "right": 2, "bottom": 3}
    return sorted(seats, key=lambda s: order[s.place])


def choice_text(action: dict[str, Any], names: list[str]) -> str:
    """A legal action in words, in the reader's language."""
    kind = action["type"]
    tile = tile_name(str(action.get("tile", "")))
    if kind == "discard":
        return _("Discard %(tile)s") % {"tile": tile}
    if kind == "chi":
        shown = " ".join(tile_name(str(t)) for t in action["tiles"])
        return _("Chow %(tile)s with %(shown)s") % {"tile": tile, "shown": shown}
    if kind == "peng":
        return _("Pung %(tile)s") % {"tile": tile}
    if kind == "gang":
        labels = {"exposed": _("Kong %(tile)s (exposed)"), "added": _("Kong %(tile)s (added)"),
                  "concealed": _("Kong %(tile)s (concealed)")}
        return labels.get(str(action.get("kind")), _("Kong %(tile)s")) % {"tile": tile}
    if kind == "hu":
        how = action.get("how")
        if how == "bomb":
            return _("Win with a bomb (PT-5.4)")
        if how == "rob_gold":
            return _("Rob the gold %(tile)s and win (PT-5.5)") % {"tile": tile}
        if how == "robbing_kong":
            return _("Rob the kong: win on %(tile)s") % {"tile": tile}
        if "target" in action:
            return _("Win on %(name)s's %(tile)s") % {"name": names[action["target"]],
                                                     "tile": tile}
        return _("Win by self-draw on %(tile)s") % {"tile": tile}
    if kind == "ready":
        return _("Declare ready (PT-5.3)")
    if kind == "dingque":
        from replays.tile_names import suit_name
        return _("Void suit: %(suit)s (SC-2)") % {"suit": suit_name(str(action["suit"]))}
    if kind == "contract":
        return (_("Give up (JX-9)") if action.get("choice") == "give_up"
                else _("Persist (JX-9)"))
    if kind == "pass":
        return _("Pass")
    return str(kind)


def choices(view: dict[str, Any]) -> tuple[list[Choice], list[Choice]]:
    """The legal actions: discards (the tiles of the hand, drawn tile last) and buttons."""
    wild = frozenset(view.get("wildcards", []))
    names = [s["name"] for s in view["seats"]]
    discards: list[Choice] = []
    buttons: list[Choice] = []
    for action in view["legal"]:
        if action["type"] == "exchange":  # SC-H1: a hand to pick from (exchange_view)
            continue
        text = choice_text(action, names)
        if action["type"] == "discard":
            discards.append(Choice(action, text))
        else:
            buttons.append(Choice(action, text))
    # Every copy of the hand is a tile to click; each copy discards the same kind.
    by_tile = {c.action["tile"]: c for c in discards}
    hand_tiles: list[Choice] = []
    you = view["you"] or {"hand": []}  # a spectator has no hand
    for code in you["hand"]:
        picked = by_tile.get(code)
        hand_tiles.append(Choice(picked.action if picked else {}, picked.text if picked
                                 else tile_name(code), _tv(code, wild)))
    if you.get("drawn"):
        code = you["drawn"]
        picked = by_tile.get(code)
        hand_tiles.append(Choice(picked.action if picked else {}, picked.text if picked
                                 else tile_name(code), _tv(code, wild, drawn=True)))
    return hand_tiles, buttons


@dataclass
class ExchangeTile:
    """One tile of the hand to tick for 换三张 (SC-H1): its code (the form's value)."""

    code: str
    tile: TileView
    text: str


@dataclass
class ExchangeSuggestion:
    """A suggested three of one suit for 换三张, a button: the action, tiles, suit's name."""

    choice: Choice
    tiles: list[TileView]
    suit: str


def exchange_view(view: dict[str, Any]) -> dict[str, Any] | None:
    """The 换三张 decision (SC-H1): the hand's tiles to tick three of (a checkbox each, so
    it works without JavaScript) and, a tap each, a suggested three of every suit held
    three times or more."""
    legal = [tuple(a["tiles"]) for a in view["legal"] if a["type"] == "exchange"]
    if not legal:
        return None
    you = view["you"] or {"hand": []}
    hand = [*you["hand"], *([you["drawn"]] if you.get("drawn") else [])]
    wild = frozenset(view.get("wildcards", []))
    suggestions = []
    for suit in dict.fromkeys(three[0][-1] for three in legal):
        three = suggested_three([t for t in legal if t[0][-1] == suit], hand)
        words = " ".join(tile_name(code) for code in three)
        suggestions.append(ExchangeSuggestion(
            Choice({"type": "exchange", "tiles": list(three)},
                   _("Pass %(tiles)s") % {"tiles": words}),
            [_tv(code, wild) for code in three], suit_name(suit)))
    return {"tiles": [ExchangeTile(code, _tv(code, wild), tile_name(code)) for code in hand],
            "suggestions": suggestions}


def suggested_three(threes: list[tuple[str, ...]], hand: list[str]) -> tuple[str, ...]:
    """Of the sets of three of one suit, the one whose tiles are loneliest: fewest links
    (another tile of the suit in the hand within two ranks), then the farthest from the
    middle. A quick suggestion, not the bots' choice.

    >>> suggested_three([("1m", "2m", "3m"), ("1m", "2m", "9m"), ("1m", "3m", "9m"),
    ...                  ("2m", "3m", "9m")], ["1m", "2m", "3m", "9m", "5p"])
    ('1m', '2m', '9m')
    """
    def cost(three: tuple[str, ...]) -> tuple[int, int]:
        links = 0
        for code in three:
            others = list(hand)
            others.remove(code)
            links += sum(1 for other in others if other[-1] == code[-1]
                         and abs(int(other[0]) - int(code[0])) <= 2)
        middle = sum(-abs(int(code[0]) - 5) for code in three)
        return links, middle
    return min(threes, key=cost)


def received_note(view: dict[str, Any]) -> str:
    """The three tiles the seat received in 换三张 (SC-H1), in words, with whom from."""
    you = view.get("you") or {}
    if not you.get("received"):
        return ""
    tiles = " ".join(tile_name(code) for code in you["received"])
    giver = you.get("received_from")
    if giver is None:
        return _("You received %(tiles)s (SC-H1)") % {"tiles": tiles}
    names = [s["name"] for s in view["seats"]]
    return _("You received %(tiles)s from %(name)s (SC-H1)") % {
        "tiles": tiles, "name": names[int(giver)]}


@dataclass
class Move:
    """One move since the player's last, in words, with what it adds to the board: the
    page's script shows the board one move at a time with the list (issue 28): a move that
    adds a discard to ``seat``'s river (``river``) or a meld (``meld``) in the hand the
    board shows (``on_board``) is hidden there until the list reaches it."""

    text: str
    seat: int | None = None
    river: bool = False
    meld: bool = False
    on_board: bool = False
    win: bool = False

    def __str__(self) -> str:
        return self.text


MELDS = ("peng", "chi")  # a kong adds a meld unless it is added to a pung


def moves(entries: list[dict[str, Any]], view: dict[str, Any]) -> list[Move]:
    """The log's ``entries`` since the player's last move (``events_since``, as their seat
    sees them), one sentence an entry (the other seats' moves the page shows one by one)."""
    names = tuple(s["name"] for s in view["seats"])
    out: list[Move] = []
    for entry in entries:
        raw = entry["event"]
        on_board = int(entry["hand"]) == int(view["hand_number"]) and not view["over"]
        if raw["type"] == "deal":
            out.append(Move(_("Hand %(n)d is dealt") % {"n": entry["hand"]}))
            continue
        actor = raw.get("actor")
        seat = int(actor) if actor is not None else None
        adds_meld = raw["type"] in MELDS or (raw["type"] == "gang" and raw.get("kind") != "added")
        board = {"seat": seat, "on_board": on_board, "river": raw["type"] == "discard",
                 "meld": adds_meld}
        if raw["type"] == "draw" and "tile" not in raw:  # another seat's draw: face down
            out.append(Move(_("{name} draws a tile").format(name=names[int(actor)]), **board))
            continue
        if raw["type"] == "exchange" and "tiles" not in raw:  # SC-H1: face down
            out.append(Move(_("{name} sets aside three tiles to pass (换三张, SC-H1)").format(
                name=names[int(actor)]), **board))
            continue
        if raw["type"] == "gang" and "tile" not in raw:  # another seat's concealed kong
            out.append(Move(_("{name} declares a concealed kong").format(
                name=names[int(actor)]), **board))
            continue
        # The seat's view adds what the page shows beside an event: every hand at the end,
        # the winner's hand at a win. The log's reader knows neither field.
        raw = {k: v for k, v in raw.items() if k not in VIEW_FIELDS}
        try:
            event = read_event(raw, view["variant"])
        except ValueError:
            out.append(Move(str(raw["type"]), **board))
            continue
        text = in_second_person(event, names, view["seat"])
        if event.type == "hu":
            key = (int(entry["hand"]), raw.get("actor"), raw.get("tile"))
            later = sum(1 for e in entries if e["event"]["type"] == "hu" and (
                int(e["hand"]), e["event"].get("actor"), e["event"].get("tile")) == key
                and int(e["index"]) > int(entry["index"]))
            text = with_points(text, win_of(view, int(entry["hand"]), raw, later))
        out.append(Move(text, win=event.type == "hu", **board))
    exchanged = any(e["event"]["type"] == "exchange" and int(e["hand"]) == int(
        view["hand_number"]) for e in entries)
    if exchanged and received_note(view):  # the sets have passed (SC-H1)
        out.append(Move(received_note(view)))
    return out


def win_of(view: dict[str, Any], hand: int, raw: dict[str, Any],
           later: int = 0) -> dict[str, Any] | None:
    """The scored win (``view["wins"]``, or the last hand's) that a ``hu`` event made;
    ``later``: how many wins of the same seat on the same tile came after it in the hand
    (血流成河, SC-H2: a seat may win on one tile again and again)."""
    if hand == int(view["hand_number"]):
        wins = view.get("wins", [])
    elif view.get("last_hand") and int(view["last_hand"]["number"]) == hand:
        wins = view["last_hand"]["wins"]
    else:
        return None
    same = [w for w in wins if w["seat"] == raw.get("actor") and w["tile"] == raw.get("tile")]
    return same[-1 - later] if later < len(same) else None


def with_points(text: str, win: dict[str, Any] | None) -> str:
    """A win in words with its points and patterns: a Sichuan win in the middle of a hand
    (SC-5) reads "Jun wins on Kai's 9 Characters: 1 point (平胡 plain win)"."""
    if win is None:
        return text
    points = int(win.get("points") or 0)
    names = []
    for hit in (win.get("score") or {}).get("patterns", []):
        name = str(hit.get("name", ""))
        names.append(pattern_words(name, str(hit.get("en", ""))))
    said = ngettext("%(text)s: %(n)d point", "%(text)s: %(n)d points", points) % {
        "text": text, "n": points}
    if names:
        said = _("%(said)s (%(patterns)s)") % {"said": said, "patterns": ", ".join(names)}
    return said


def pattern_words(name: str, english: str) -> str:
    """A pattern by its Chinese name, glossed in English for an English reader."""
    if english and not (get_language() or "").startswith("zh"):
        return f"{name} {english}"
    return name


def in_second_person(event: Event, names: tuple[str, ...], seat: int) -> str:
    """One move in words for the player at ``seat``: their own moves as "You discard 5
    Dots", a move on their tile as "Ada pungs 5 Dots from you"; the others' as the replay
    says them (``describe``)."""
    tile = tile_name(str(event.tile)) if event.tile is not None else ""
    kind = event.type
    if event.actor == seat:
        if kind == "draw":
            return (_("You draw a replacement {tile}") if event.source == "back"
                    else _("You draw {tile}")).format(tile=tile)
        target = names[event.target] if event.target is not None else ""
        if kind == "hu":
            if event.how == "robbing_kong":
                return _("You win by robbing {target}'s kong of {tile}").format(
                    target=target, tile=tile)
            if event.how == "rob_gold":
                return _("You rob the gold {tile} and win").format(tile=tile)
            if event.how == "bomb":
                return _("You win with a bomb")
            if event.target is not None:
                return _("You win on {target}'s {tile}").format(target=target, tile=tile)
            return _("You win by self-draw on {tile}").format(tile=tile)
        if kind == "gang":
            return {"exposed": _("You declare an exposed kong of {tile}"),
                    "added": _("You declare an added kong of {tile}"),
                    "concealed": _("You declare a concealed kong of {tile}")}.get(
                        event.kind or "", _("You declare a kong of {tile}")).format(tile=tile)
        if kind == "dingque":
            return _("You name {suit} as the void suit").format(suit=suit_name(event.suit or ""))
        if kind == "exchange":
            return _("You pass {tiles} (换三张, SC-H1)").format(
                tiles=" ".join(tile_name(str(t)) for t in event.tiles))
        if kind == "contract":
            return (_("You give up (contract)") if event.choice == "give_up"
                    else _("You persist (contract)"))
        own = {"discard": _("You discard {tile}"), "chi": _("You chow {tile} from {target}"),
               "peng": _("You pung {tile} from {target}"), "flower": _("You lay out a white"),
               "ready": _("You declare ready"), "leave": _("You leave the table")}
        if kind in own:
            return own[kind].format(tile=tile, target=target)
    elif event.target == seat and event.actor is not None:
        name = names[event.actor]
        theirs = {"chi": _("{name} chows {tile} from you"),
                  "peng": _("{name} pungs {tile} from you"),
                  "gang": _("{name} declares an exposed kong of {tile} from you")}
        if kind == "hu":
            text = (_("{name} wins by robbing your kong of {tile}")
                    if event.how == "robbing_kong" else _("{name} wins on your {tile}"))
            return text.format(name=name, tile=tile)
        if kind in theirs:
            return theirs[kind].format(name=name, tile=tile)
    return describe(event, names, seat)


def claim_prompt(view: dict[str, Any]) -> dict[str, Any] | None:
    """A claim or a robbed kong in words, naming the tile and the seat it comes from, with
    the choices: "Lan discards 5 Dots: pung, win or pass?" (issue 28). ``seat`` and
    ``tile`` let the page highlight that tile on the board."""
    decision = view.get("decision") or {}
    kind = decision.get("kind")
    if kind not in ("claim", "rob_kong"):
        return None
    names = [s["name"] for s in view["seats"]]
    last = view.get("last_discard") or {}
    seat, code = last.get("seat"), last.get("tile")
    if kind == "rob_kong" or seat is None:
        win: dict[str, Any] = next((a for a in view["legal"] if a["type"] == "hu"), {})
        seat, code = win.get("target", view.get("turn")), win.get("tile")
    if seat is None or code is None:
        return None
    words = {"hu": pgettext("a claim choice", "win"), "peng": pgettext("a claim choice", "pung"),
             "gang": pgettext("a claim choice", "kong"),
             "chi": pgettext("a claim choice", "chow")}
    kinds = [a["type"] for a in view["legal"]]
    said = [words[k] for k in ("chi", "peng", "gang", "hu") if k in kinds]
    said.append(pgettext("a claim choice", "pass"))
    choices = (said[0] if len(said) == 1 else pgettext("the last of the choices", "%(some)s or %(last)s") % {
        "some": pgettext("between choices", ", ").join(said[:-1]), "last": said[-1]})
    tile = tile_name(str(code))
    name = names[int(seat)]
    text = (_("%(name)s adds a kong of %(tile)s: %(choices)s? (JX-8, SC-5.18)")
            if kind == "rob_kong" else _("%(name)s discards %(tile)s: %(choices)s?")) % {
        "name": name, "tile": tile, "choices": choices}
    return {"text": text, "seat": int(seat), "tile": _tv(str(code), frozenset(
        view.get("wildcards", []))), "name": name}


TURN_WORDS = {"discard": pgettext_lazy("a turn choice", "discard"),
              "hu": pgettext_lazy("a turn choice", "win"),
              "gang": pgettext_lazy("a turn choice", "kong"),
              "ready": pgettext_lazy("a turn choice", "declare ready")}


def one_of(words: list[str]) -> str:
    """Choices in words: "discard", "discard or kong", "discard, win or kong"."""
    if len(words) == 1:
        return words[0]
    return pgettext("the last of the choices", "%(some)s or %(last)s") % {
        "some": pgettext("between choices", ", ").join(words[:-1]), "last": words[-1]}


def asked_now(view: dict[str, Any], claim: dict[str, Any] | None, waiting: str = "") -> str:
    """What the table asks the seat now, in one sentence for the page's live region (issue
    32): "Your turn: discard or kong", the claim's question, the match's end, whom the table
    waits for. The prompt above the hand says the same (without JavaScript, the page)."""
    if view.get("over"):
        return _("The match is over")
    kind = (view.get("decision") or {}).get("kind")
    you = next((s for s in view["seats"] if s["seat"] == view["seat"]), None) or {}
    if kind == "turn" and you.get("locked"):
        return _("Your hand is locked (SC-H2): win, or discard the tile you drew.")
    if kind == "turn":
        kinds = {a["type"] for a in view["legal"]}
        return _("Your turn: %(choices)s") % {"choices": one_of(
            [str(word) for key, word in TURN_WORDS.items() if key in kinds])}
    if claim is not None:
        return str(claim["text"])
    fixed = {"claim": _("A discard you can claim: choose, or pass."),
             "rob_kong": _("You can rob the kong (JX-8, SC-5.18): win or pass."),
             "rob_gold": _("You can rob the gold (PT-5.5): win or pass."),
             "exchange": _("Choose three tiles of one suit to pass (SC-H1)."),
             "dingque": _("Name your void suit (SC-2)."),
             "contract": _("Contract (JX-9): persist or give up.")}
    if kind in fixed:
        return fixed[kind]
    if any(a["type"] == "exchange" for a in view.get("legal", [])):
        return fixed["exchange"]
    return waiting


def announcement(moves: list[Move], view: dict[str, Any], claim: dict[str, Any] | None,
                 waiting: str = "") -> str:
    """The live region's news as JSON (the table's ``data-announce``): the moves since the
    seat's last one, each a sentence, and what is asked now. The page's script says the
    moves it has not said yet (a table with friends refreshes mid-list) and the question."""
    return json.dumps({"moves": [m.text for m in moves],
                       "now": asked_now(view, claim, waiting),
                       "sep": pgettext("between announced sentences", ". ")},
                      ensure_ascii=False)


def hand_end_board(match: PlayMatch, view: dict[str, Any]) -> Board | None:
    """The last finished hand at its end, as the viewer itemises it."""
    if not view.get("last_hand") and not view["over"]:
        return None
    data = replayed(services.hand_end_document(match))
    number = len(data.match.hands)
    if number == 0:
        return None
    steps = len(data.match.hands[number - 1].events)
    return board_at(data, number, steps, view["seat"])


def hand_just_ended(mark: Sequence[int] | None, view: dict[str, Any]) -> bool:
    """The settlement shows from a hand's end until the player's first move in the next
    (``mark``: where their last move is in the log, ``[hand, index]``)."""
    if view["over"]:
        return True
    return bool(view.get("last_hand")) and mark is not None and len(mark) > 0 and (
        int(mark[0]) < int(view["hand_number"]))


def review_url(replay: str | None, match: PlayMatch, seat: int | None = None) -> str | None:
    """The viewer of the replay ``replay`` (its public id) at the player's first decision,
    spoilers off, their seat (``seat``, else the match's) at the bottom."""
    if replay is None:
        return None
    seat = match.seat if seat is None else seat
    step = first_decision(match, seat)
    return reverse("viewer", args=[replay]) + f"?hand=1&step={step}&seat={seat}&spoilers=0"


def first_decision(match: PlayMatch, seat: int | None = None) -> int:
    """The step (events before it) of the first event of hand 1 of ``seat`` (else the
    match's player) that is a choice."""
    seat = match.seat if seat is None else seat
    document = match.log()
    if not document.hands:
        return 0
    for index, event in enumerate(document.hands[0].events):
        if event.actor == seat and event.type not in ("draw", "flower"):
            return index
    return 0


def parts(view: dict[str, Any], match: PlayMatch, mark: Sequence[int] | None,
          entries: list[dict[str, Any]]) -> dict[str, Any]:
    """What the table's shared parts draw (play/_table_*.html: the moves, the settlement,
    the board, your hand and choices), for ``/play/`` and a table with friends alike, from
    the seat's ``view`` only; ``mark`` is where the seat's last move is in the log and
    ``entries`` the log's entries from there as the seat sees them. A spectator's view
    (``seat`` None) draws the board with the first seat at the bottom and no hand."""
    variant = VARIANTS[view["variant"]]
    hand_tiles, buttons = choices(view)
    wild = frozenset(view.get("wildcards", []))
    return {
        "view": view, "seats": seat_views(view, river_claimers(match, view)),
        "hand_tiles": hand_tiles,
        "buttons": buttons, "moves": moves(entries, view), "claim": claim_prompt(view),
        "wildcards": [_tv(k, wild) for k in view.get("wildcards", [])],
        "wildcard_name": wildcard_name(variant),
        "indicator": _tv(view["indicator"], frozenset()) if view.get("indicator") else None,
        "bank": banked_fans(tuple(view.get("bank", []))),
        "you": next((s for s in view["seats"] if s["seat"] == view["seat"]), None),
        "board": hand_end_board(match, view) if hand_just_ended(mark, view) else None,
        "exchange": exchange_view(view), "received": received_note(view),
        "received_tiles": [_tv(code, wild) for code in (view["you"] or {}).get("received", [])],
    }


def context(request: HttpRequest, row: PlayedMatch, match: PlayMatch,
            hint: dict[str, Any] | None = None) -> dict[str, Any]:
    """The table's context; ``hint`` is the valued hint when the player asked for it."""
    view = match.view()
    mark = row.moves_from or None
    entries = match.events_since(int(mark[0]), int(mark[1])) if mark else []
    return {
        **parts(view, match, mark, entries), "row": row,
        "hint": hint_view(hint, view) if hint is not None and not match.over else None,
        "review": review_url(row.replay.public_id if row.replay is not None else None,
                             match) if match.over else None,
        # A match the player left is kept and analysed only when its owner asks (issue 24).
        "left_unkept": match.over and row.left and row.replay_id is None,
        "seed": view.get("seed"),
        "left": left_view(row, match) if match.over else None,
    }


def left_view(row: PlayedMatch, match: PlayMatch) -> dict[str, Any] | None:
    """The player left the table: in which hand, what that hand and the house took from
    them (both itemised above: the hand's settlement, the match's fees), and the terms."""
    number = match.left_in
    if number is None:
        return None
    result = match.result()
    rules = dict(match.rules)
    return {"hand": number, "delta": result["hands"][number - 1]["deltas"][match.seat],
            "fees": result["fees"][match.seat],
            "terms": services.leave_terms(row.variant, rules)}


HINT_TILES = 5  # accepted tiles shown per row, the most numerous first; then "+N more"
HINT_WAITS = 4  # waits shown per row
HINT_ROWS = 5  # rows shown at once; the rest behind "N more choices"


@dataclass
class HintRow:
    """One choice of the hint: its place (None: a choice that can't be carried through),
    words, tile, value and the shape that explains it."""

    rank: int | None
    text: str
    tile: TileView | None
    win: float | None  # chance of winning the hand, 0–1 (None: not valued)
    points: float | None  # expected points
    exact: bool
    shanten: int | None
    accepted: list[tuple[TileView, int]]
    accepted_count: int
    accepted_more: int
    waits: list[tuple[TileView, int]]
    waits_more: int
    win_now: int | None
    void_tiles: int | None  # 定缺: tiles of the suit to get rid of (SC-2)
    best: bool = False

    @property
    def win_percent(self) -> str:
        return f"{100 * self.win:.0f}" if self.win is not None else ""


def hint_view(hint: dict[str, Any], view: dict[str, Any]) -> dict[str, Any]:
    """The valued hint (``PlayMatch.valued_hint``) as the page shows it: a few words on how
    it is ranked and one short row per choice."""
    names = [s["name"] for s in view["seats"]]
    wild = frozenset(view.get("wildcards", []))
    rows = []
    for option in hint["options"]:
        action = option["action"]
        accepted = sorted((a for a in option.get("accepted", []) if a["remaining"] > 0),
                          key=lambda a: (-a["remaining"], a["tile"]))  # none left: not shown
        waits = sorted(option.get("waits", []),
                       key=lambda w: (-int(w["score"].get("points", 0)), w["tile"]))
        dingque = action["type"] == "dingque"
        rows.append(HintRow(
            rank=option["rank"], text=choice_text(action, names),
            tile=_tv(str(action["tile"]), wild) if action.get("tile") else None,
            win=option.get("win_probability"), points=option.get("expected_points"),
            exact=bool(option.get("exact")),
            shanten=None if dingque else option.get("shanten"),
            accepted=[(_tv(a["tile"], wild), a["remaining"]) for a in accepted[:HINT_TILES]],
            accepted_count=int(option.get("accepted_count", 0)),
            accepted_more=max(0, len(accepted) - HINT_TILES),
            waits=[(_tv(w["tile"], wild), int(w["score"].get("points", 0)))
                   for w in waits[:HINT_WAITS]],
            waits_more=max(0, len(waits) - HINT_WAITS),
            win_now=int(option["win"].get("points", 0)) if option.get("win") else None,
            void_tiles=option.get("shanten") if dingque else None,
            best=option["rank"] == 1 and hint["ranked_by"] == "value"))
    return {"rows": rows[:HINT_ROWS], "more": rows[HINT_ROWS:], "more_start": HINT_ROWS + 1,
            "ranked_by": hint["ranked_by"], "reason": hint["reason"],
            "model": hint["model"], "samples": hint["samples"]}
