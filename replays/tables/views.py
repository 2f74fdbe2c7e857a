"""``/tables/``: rooms for up to four people, bots in the empty seats (issue 28).

Every page, JSON answer and socket message is drawn from one seat's view
(``RoomMatch.view(seat)``), or a spectator's (public information only), never from the
stored row (docs/tables.md). Forms work without JavaScript (POST, then redirect); the page's
script (static/js/tables.js) swaps the state pushed over the WebSocket.
"""

from __future__ import annotations

import json
from typing import Any

import segno
from django import forms
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.core.messages import message_of
from games.core.position import PositionError
from games.core.tiles import TILES, Tile
from games.play.bot_match import MAX_HANDS, IllegalAction, PlayError, StaleStep
from replays import limits
from replays.matches.board import TileView
from replays.models import Match
from replays.models.tables import Room
from replays.play.views import BotLevelForm, _answer, _option_fields, rules_of
from replays.tables import services
from replays.tile_names import suit_name, tile_name


class RoomForm(BotLevelForm):
    variant = forms.ChoiceField(choices=Match.Variant.choices, label=gettext_lazy("Variant"))
    humans = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in range(1, 5)], coerce=int, initial=2,
        label=gettext_lazy("Seats for people (bots take the others)"))
    hands = forms.IntegerField(min_value=1, max_value=MAX_HANDS, initial=4,
                               label=pgettext_lazy("how many", "Hands"))
    level = forms.ChoiceField(choices=(), required=False, label=gettext_lazy("Bots' level"))
    decision_seconds = forms.IntegerField(min_value=5, max_value=300, initial=20,
                                          required=False,
                                          label=gettext_lazy("Seconds per decision"))
    bank_seconds = forms.IntegerField(min_value=0, max_value=1800, initial=60, required=False,
                                      label=gettext_lazy("Time bank (seconds)"))
    open = forms.BooleanField(required=False,
                              label=gettext_lazy("Open: list it in the lobby (else only the "
                                                 "invite link)"))
    spectators = forms.BooleanField(required=False, label=gettext_lazy("Spectators allowed"))
    name = forms.CharField(max_length=40, required=False,
                           label=gettext_lazy("Your name at the table (guests)"))



def _json(data: Any, status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def _is_json(request: HttpRequest) -> bool:
    return request.content_type == "application/json" or "application/json" in request.headers.get(
        "Accept", "")


@require_http_methods(["GET", "POST"])
def index(request: HttpRequest) -> HttpResponse:
    """``GET /tables/`` the lobby; ``POST /tables/`` creates a room."""
    if request.method == "POST":
        return create(request)
    return lobby(request)


def lobby(request: HttpRequest) -> HttpResponse:
    """Open rooms waiting for people, and the visitor's own rooms."""
    rooms = list(services.lobby()[:50])
    mine = list(services.my_rooms(request).filter(over=False)[:10])
    return render(request, "tables/lobby.html", {"rooms": rooms, "mine": mine})


@require_http_methods(["GET"])
def new(request: HttpRequest) -> HttpResponse:
    return _new_page(request, RoomForm(), "", 200)


def _new_page(request: HttpRequest, form: RoomForm, error: str, status: int) -> HttpResponse:
    return render(request, "tables/new.html",
                  {"form": form, "error": error, "variant_options": _option_fields(
                      request.POST if request.method == "POST" else None)}, status=status)


def create(request: HttpRequest) -> HttpResponse:
    """Create a room, seat its creator, go to it (limits as ``/play/``'s starts)."""
    form = RoomForm(request.POST)
    try:
        limits.check("table-create-visitor", limits.address_group(request))
    except limits.RateLimited as limited:
        return limits.retry_after(_new_page(request, form, str(limited), 429), limited)
    if not form.is_valid():
        limits.refund("table-create-visitor", limits.address_group(request))
        return _new_page(request, form, "", 400)
    data = form.cleaned_data
    variant = data["variant"]
    try:
        choice = services.RoomChoice(
            variant=variant, humans=data["humans"], hands=data["hands"],
            rules=rules_of(variant, request.POST), level=form.chosen_level(),
            decision_seconds=data["decision_seconds"] or 20,
            bank_seconds=60 if data["bank_seconds"] is None else data["bank_seconds"],
            private=not data["open"], spectators=bool(data["spectators"]))
        room = services.create(request, choice, data["name"] or "")
    except (PlayError, PositionError, ValueError) as refused:
        limits.refund("table-create-visitor", limits.address_group(request))
        return _new_page(request, form, message_of(refused), 400)
    except services.TableError as capped:
        limits.refund("table-create-visitor", limits.address_group(request))
        return _new_page(request, form, str(capped), capped.status)
    return redirect(room.get_absolute_url())


def _qr_svg(url: str) -> SafeString:
    """The invite link as a QR code, inline SVG (no request to anyone)."""
    svg = segno.make(url, error="m").svg_inline(scale=4, dark="#222", light="#fff")
    return SafeString(svg)


@require_GET
def room_page(request: HttpRequest, public_id: str) -> HttpResponse:
    """The room: the waiting list with the invite, or the table from the seat's view."""
    try:
        room, seat, view = _seen_by(request, public_id)
    except services.TableError as refused:
        return render(request, "tables/refused.html", {"message": str(refused)},
                      status=refused.status)
    invite = request.build_absolute_uri(room.get_absolute_url())
    return render(request, "tables/table.html", _context(request, room, seat, view, invite))


def _context(request: HttpRequest, room: Room, seat: Any, view: dict[str, Any],
             invite: str) -> dict[str, Any]:
    context: dict[str, Any] = {"room": room, "seat": seat, "view": view, "invite": invite,
                               "qr": _qr_svg(invite) if not room.started else "",
                               "ws_path": reverse("table_state", args=[room.public_id])
                               .replace("state.json", "ws"),
                               "variant_name": Match.Variant(room.variant).label}
    if view.get("started"):
        wild = frozenset(view.get("wildcards", []))
        you = view.get("you") or {}
        legal = view.get("legal", [])
        discards = {a["tile"]: a for a in legal if a["type"] == "discard"}
        hand = [TileView(Tile.parse(c), wild=c in wild) for c in you.get("hand", [])]
        context["hand"] = [{"tile": t, "action": _value(discards[str(t.tile)])
                            if str(t.tile) in discards else None} for t in hand]
        drawn = you.get("drawn")
        if drawn:
            context["hand"].append({"tile": TileView(Tile.parse(drawn), wild=drawn in wild,
                                                     drawn=True),
                                    "action": _value(discards[drawn]) if drawn in discards
                                    else None})
        context["buttons"] = [{"value": _value(a), "text": _words(a)} for a in legal
                              if a["type"] != "discard"]
        context["others"] = [_seat_row(s, wild) for s in view["seats"]]
        context["prompt"] = _prompt(view)
        last = view.get("last_hand")
        if last:
            names = [s["name"] for s in view["seats"]]
            context["last_hand"] = {
                "number": last["number"],
                "wins": [{"name": names[w["seat"]], "tile": tile_name(w["tile"]),
                          "points": w["points"]} for w in last["wins"]],
                "deltas": [{"name": names[n], "delta": d} for n, d in enumerate(last["deltas"])]}
    return context


def _value(action: dict[str, Any]) -> str:
    return json.dumps(action, sort_keys=True, separators=(",", ":"))


def _seat_row(entry: dict[str, Any], wild: frozenset[str]) -> dict[str, Any]:
    hand = entry.get("hand")
    tiles = ([TileView(Tile.parse(c), wild=c in wild) for c in hand] if hand is not None
             else [TileView(TILES[0], hidden=True) for _ in range(entry["concealed_count"])])
    river = [TileView(Tile.parse(r["tile"]), wild=r["tile"] in wild, claimed=r["claimed"])
             for r in entry["river"]]
    melds = []
    for meld in entry["melds"]:
        if meld["type"] == "chi":
            melds.append([TileView(Tile.parse(c + meld["tiles"][-1])) for c in meld["tiles"][:3]])
        elif "tile" in meld:
            n = 4 if meld["type"] == "gang" else 3
            melds.append([TileView(Tile.parse(meld["tile"])) for _ in range(n)])
        else:
            melds.append([TileView(TILES[0], hidden=True) for _ in range(4)])
    return {**entry, "tiles": tiles, "river_tiles": river, "meld_tiles": melds}


def _words(action: dict[str, Any]) -> str:
    kind = action["type"]
    tile = tile_name(action["tile"]) if action.get("tile") else ""
    if kind == "pass":
        return _("Pass")
    if kind == "hu":
        return _("Win on %(tile)s") % {"tile": tile} if tile else _("Win")
    if kind == "peng":
        return _("Pung %(tile)s") % {"tile": tile}
    if kind == "gang":
        return _("Kong %(tile)s") % {"tile": tile}
    if kind == "chi":
        return _("Chow %(tile)s with %(tiles)s") % {
            "tile": tile, "tiles": ", ".join(tile_name(t) for t in action["tiles"])}
    if kind == "dingque":
        return _("Void: %(suit)s") % {"suit": suit_name(action["suit"])}
    if kind == "ready":
        return _("Declare ready, discarding %(tile)s") % {"tile": tile}
    if kind == "contract":
        return _("Persist") if action.get("choice") == "persist" else _("Give up")
    return str(kind)


def _prompt(view: dict[str, Any]) -> str:
    decision = view.get("decision")
    if view.get("over"):
        return _("The match is over.")
    if decision is None:
        waiting = [view["seats"][s]["name"] for s in view.get("waiting_for", [])]
        if waiting:
            return _("Waiting for %(names)s.") % {"names": ", ".join(waiting)}
        return ""
    kind = decision["kind"]
    last = view.get("last_discard")
    if kind == "claim" and last:
        return _("%(name)s discarded %(tile)s: claim it, or pass.") % {
            "name": view["seats"][last["seat"]]["name"], "tile": tile_name(last["tile"])}
    return {
        "turn": _("Your turn: choose a tile to discard, or an action."),
        "rob_kong": _("You can rob the kong (JX-8, SC-5.18): win or pass."),
        "rob_gold": _("You can rob the gold (PT-5.5): win or pass."),
        "dingque": _("Name your void suit (SC-2)."),
        "contract": _("Contract (JX-9): persist or give up."),
    }.get(kind, "")


@require_GET
def state(request: HttpRequest, public_id: str) -> HttpResponse:
    """The requester's seat view (or a spectator's) as JSON."""
    try:
        _room, _seat, data = _seen_by(request, public_id)
    except services.TableError as refused:
        return _json({"error": {"rule": None, "message": str(refused)}}, refused.status)
    return _json(data)


def _seen_by(request: HttpRequest, public_id: str) -> tuple[Room, Any, dict[str, Any]]:
    """The room, the requester's seat (None for a spectator) and their view of it, with
    passed deadlines applied and, once over, the replay's address; raise ``TableError``
    when the requester may not see the room."""
    room = services.get_room(public_id)
    seat = services.seat_of(request, room)
    services.visible(request, room)
    room, _match = services.touch(public_id, seat.number if seat else None)
    view = services.seat_view(room, seat)
    if view.get("over"):
        view["replay"] = _replay_url(room, seat)
    return room, seat, view


def _replay_url(room: Room, seat: Any) -> str | None:
    if seat is not None:
        seat.refresh_from_db()
        if seat.replay_id is not None:
            return reverse("viewer", args=[seat.replay.public_id])
    if room.replay is not None:
        return reverse("viewer", args=[room.replay.public_id])
    return None


@require_POST
def join(request: HttpRequest, public_id: str) -> HttpResponse:
    """Take a seat (guests give a display name); joining is being ready."""
    try:
        limits.check("table-join-visitor", limits.address_group(request))
    except limits.RateLimited as limited:
        return limits.retry_after(_json({"error": {"rule": None, "message": str(limited)}},
                                        429), limited)
    try:
        room = services.join(request, public_id, request.POST.get("name", "")[:40])
    except services.TableError as refused:
        if _is_json(request):
            return _json({"error": {"rule": None, "message": str(refused)}}, refused.status)
        return render(request, "tables/refused.html", {"message": str(refused)},
                      status=refused.status)
    if _is_json(request):
        seat = services.seat_of(request, room)
        return _json({"id": room.public_id, "seat": seat.number if seat else None,
                      "started": room.started})
    return redirect(room.get_absolute_url())


@require_POST
def start(request: HttpRequest, public_id: str) -> HttpResponse:
    """The creator starts early: bots take the empty seats."""
    try:
        room = services.start_early(request, public_id)
    except services.TableError as refused:
        return render(request, "tables/refused.html", {"message": str(refused)},
                      status=refused.status)
    return redirect(room.get_absolute_url())


@require_POST
def act(request: HttpRequest, public_id: str) -> HttpResponse:
    """Answer the seat's decision: JSON in, JSON out (409 stale, 400 illegal), or the
    page's form (redirect)."""
    try:
        step, action = _answer(request)  # type: ignore[arg-type]
    except PlayError as bad:
        services.get_room(public_id)  # no such table: a 404 before the body's fault
        return _refused(request, public_id, 400, None, str(bad))
    try:
        room, data, seat = services.act(request, public_id, step, action)
    except StaleStep as stale:
        return _refused(request, public_id, 409, None, stale.message)
    except IllegalAction as illegal:
        return _refused(request, public_id, 400, illegal.rule, illegal.message)
    except PlayError as bad:
        return _refused(request, public_id, 400, None, str(bad))
    except services.TableError as refused:
        return _refused(request, public_id, refused.status, None, str(refused))
    if request.content_type == "application/json":
        if data.get("over"):  # the seat's own link, not in the view its sockets were sent
            data = {**data, "replay": _replay_url(room, seat)}
        return _json(data)
    return redirect(room.get_absolute_url())


@require_http_methods(["GET", "POST"])
def leave(request: HttpRequest, public_id: str) -> HttpResponse:
    """"Leave this table": a confirmation with what leaving now costs under the room's rules
    (JX-10.6, SC-6.6), then (POST) the leave; the match ends with this hand."""
    room = services.get_room(public_id)
    seat = services.seat_of(request, room)
    match = services.restored(room)
    if seat is None or match is None:
        return _refused(request, public_id, 403, None, _("You have no seat at this table."))
    if request.method == "POST":
        try:
            room, _match, seat = services.leave(request, public_id)
        except IllegalAction as illegal:
            return _refused(request, public_id, 400, illegal.rule, illegal.message)
        except services.TableError as refused:
            return _refused(request, public_id, refused.status, None, str(refused))
        if request.content_type == "application/json":
            return _json(services.seat_view(room, seat))
        return redirect(room.get_absolute_url())
    refusal = match.leave_refusal_for(seat.number)
    cost = match.leave_cost_for(seat.number) if refusal is None else None
    names = [s["name"] for s in match.view(seat.number)["seats"]]
    lines = ([{"name": names[line["payee"]] if line["payee"] is not None else None,
               "amount": line["amount"]} for line in cost["lines"]] if cost else [])
    response = render(request, "tables/leave.html", {
        "room": room, "refusal": str(refusal) if refusal else "", "cost": cost,
        "lines": lines})
    response["Cache-Control"] = "no-store"
    return response


def _refused(request: HttpRequest, public_id: str, status: int, rule: str | None,
             message: Any) -> HttpResponse:
    text = str(message)
    if request.content_type == "application/json":
        return _json({"error": {"rule": rule, "message": text}}, status=status)
    return render(request, "tables/refused.html",
                  {"message": text, "back": reverse("table_room", args=[public_id])},
                  status=status)


__all__ = ["act", "create", "index", "join", "leave", "lobby", "new", "room_page", "start", "state"]
