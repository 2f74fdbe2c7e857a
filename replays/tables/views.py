"""``/tables/``: rooms for up to four people, bots in the empty seats (issue 28).

Every page, JSON answer and socket message is drawn from one seat's view
(``RoomMatch.view(seat)``), or a spectator's (public information only), never from the
stored row (docs/tables.md). Forms work without JavaScript (POST, then redirect); the page's
script (static/js/tables.js) swaps the state pushed over the WebSocket.
"""

from __future__ import annotations

from dataclasses import replace
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
from django.views.decorators.vary import vary_on_headers

from games.core.messages import message_of
from games.core.position import PositionError
from games.play.bot_match import MAX_HANDS, IllegalAction, PlayError, StaleStep
from games.play.room_match import RoomMatch
from replays import limits
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.matches.engine_refusals import refusal
from replays.models import Match, PlayedMatch
from replays.models.tables import Room, Seat
from replays.play import table
from replays.play.views import BotLevelForm, _answer, _option_fields, rules_of
from replays.tables import services


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


ROOM_SPEED = PlayedMatch.Speed.FAST
"""Milliseconds between the moves the page's list shows one by one (with the board)."""


@vary_on_headers("HX-Request")
@require_GET
def room_page(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The room: the waiting list with the invite, or the table from the seat's view; with
    htmx (the page's script, at each new step) the table's part only."""
    try:
        room, seat = _seen(request, public_id)
    except services.TableError as refused:
        return render(request, "tables/refused.html", {"message": str(refused)},
                      status=refused.status)
    return _table(request, room, seat)


def _table(request: HtmxHttpRequest, room: Room, seat: Seat | None, refusal: str = "",
           status: int = 200) -> HttpResponse:
    """The room page, or its table's fragment for htmx (``#play-table``, as ``/play/``)."""
    invite = request.build_absolute_uri(room.get_absolute_url())
    replay = _replay_of(room, seat) if room.over else None
    context = services.seat_read(room, seat, lambda view, match: _context(
        room, seat, view, match, invite, replay))
    context["refusal"] = refusal
    template = "tables/table.html#table" if wants_fragment(request) else "tables/table.html"
    response = render(request, template, context, status=status)
    response["Cache-Control"] = "no-store"
    return response


def _context(room: Room, seat: Seat | None, view: dict[str, Any], match: RoomMatch | None,
             invite: str, replay: Match | None = None) -> dict[str, Any]:
    """The room page's context: ``/play/``'s table parts (``table.parts``: the board, the
    prompt, your hand and choices, the moves since your last one, the settlement) from the
    seat's view, and the room's own: who plays each seat, whom the table waits for, the
    invite while it waits. Built under the kept match's lock (``services.seat_read``): it
    reads the match and touches no database (``replay`` is the finished match's, looked up
    before)."""
    context: dict[str, Any] = {"room": room, "seat": seat, "view": view, "invite": invite,
                               "qr": _qr_svg(invite) if not room.started else "",
                               "ws_path": reverse("table_state", args=[room.public_id])
                               .replace("state.json", "ws"),
                               "variant_name": Match.Variant(room.variant).label,
                               "speed": ROOM_SPEED}
    if match is None or not view.get("started"):
        return context
    number = seat.number if seat is not None else None
    mark: tuple[int, int] | None = None
    entries: list[dict[str, Any]] = []
    if number is not None:  # a spectator's view is behind the table: no moves, no news
        mark = match.last_move(number)
        entries = match.events_since(*(mark or (1, 1)), seat=number)
    context.update(table.parts(view, match, mark, entries))
    # Whose turn it is: the seats the table waits for (a claim window may ask several),
    # framed on every seat's board; /play/'s own rule when nobody is asked.
    asked = set(view.get("waiting_for") or ())
    context["seats"] = [replace(s, note=_note(view["seats"][s.seat]),
                                is_turn=s.seat in asked if asked else s.is_turn)
                        for s in context["seats"]]
    context["waiting"] = _waiting(view)
    if view.get("over"):
        view["replay"] = reverse("viewer", args=[replay.public_id]) if replay else None
        context["review"] = table.review_url(replay.public_id if replay else None, match,
                                             number)
        context["seed"] = view.get("seed")
    return context


def _note(entry: dict[str, Any]) -> str:
    """Who plays a seat, when not its person at the table now."""
    if entry.get("kind") == "bot":
        return _("bot")
    if entry.get("autoplay"):
        return _("played by the bot")
    if not entry.get("connected", True):
        return _("offline")
    return ""


def _waiting(view: dict[str, Any]) -> str:
    """Whom the table waits for, when the seat has nothing to answer."""
    if view.get("decision") is not None or view.get("over"):
        return ""
    names = [view["seats"][s]["name"] for s in view.get("waiting_for", [])]
    return _("Waiting for %(names)s.") % {"names": ", ".join(names)} if names else ""


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
    room, seat = _seen(request, public_id)
    view = services.seat_view(room, seat)
    if view.get("over"):
        view["replay"] = _replay_url(room, seat)
    return room, seat, view


def _seen(request: HttpRequest, public_id: str) -> tuple[Room, Seat | None]:
    """The room once passed deadlines are applied, and the requester's seat (None for a
    spectator); ``TableError`` when the requester may not see the room."""
    room = services.get_room(public_id)
    seat = services.seat_of(request, room)
    services.visible(request, room)
    room, _match = services.touch(public_id, seat.number if seat else None)
    return room, seat


def _replay_of(room: Room, seat: Seat | None) -> Match | None:
    """The finished match's replay as ``seat`` reaches it: its own (a signed-in player's),
    else the room's (unlisted)."""
    if seat is not None:
        seat.refresh_from_db()
        if seat.replay is not None:
            return seat.replay
    return room.replay


def _replay_url(room: Room, seat: Any) -> str | None:
    replay = _replay_of(room, seat)
    return reverse("viewer", args=[replay.public_id]) if replay is not None else None


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
def act(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Answer the seat's decision: JSON in, JSON out (409 stale, 400 illegal), or the
    page's form: a redirect back, or with htmx the table's fragment (as ``/play/``)."""
    try:
        step, action = _answer(request)
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
    if wants_fragment(request):
        return _table(request, room, seat)
    return redirect(room.get_absolute_url())


@require_http_methods(["GET", "POST"])
def leave(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
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


def _refused(request: HtmxHttpRequest, public_id: str, status: int, rule: str | None,
             message: Any) -> HttpResponse:
    """A refusal naming the problem: JSON, the table's fragment with it above the board
    (htmx), or a page with a link back."""
    text = str(message)
    if request.content_type == "application/json":
        return _json({"error": {"rule": rule, "message": text}}, status=status)
    if wants_fragment(request):
        try:
            room, seat = _seen(request, public_id)
        except services.TableError:
            pass
        else:
            return _table(request, room, seat, refusal(rule, text), status)
    return render(request, "tables/refused.html",
                  {"message": text, "back": reverse("table_room", args=[public_id])},
                  status=status)


__all__ = ["act", "create", "index", "join", "leave", "lobby", "new", "room_page", "start", "state"]
