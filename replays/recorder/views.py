"""Recording a hand from one seat: the setup, one saved event per tap, and the finish that
stores the seat-view document as a replay (docs/recorder.md).

Each event is saved by its client sequence number: the same number again is a retry and
is answered without saving twice, so the page's queue may resend after a network drop.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods, require_POST

from games.core.tiles import NotationError, parse_tiles
from games.records.log import FORMAT
from games.records.seat_view import UNKNOWN
from games.variants.registry import VARIANTS
from replays import limits
from replays.matches.engine_refusals import render as engine_refusal
from replays.matches.services import DuplicateUpload, UploadError, store_document
from replays.models import Match, SeatRecord
from replays.tile_names import suit_name, tile_name

MAX_RECORDED_EVENTS = 600
EVENT_TYPES = ("draw", "discard", "peng", "gang", "hu", "dingque", "exchange", "leave")
GANG_KINDS = ("exposed", "added", "concealed")


SEAT_PLACES = (gettext_lazy("the first player listed"), gettext_lazy("the second player listed"),
               gettext_lazy("the third player listed"), gettext_lazy("the fourth player listed"))


class StartForm(forms.Form):
    variant = forms.ChoiceField(label=gettext_lazy("Game"), choices=Match.Variant.choices)
    players = forms.CharField(label=gettext_lazy("Players in turn order, comma between"),
                              max_length=300)
    # Named by their place in the players' list (the page names them as they are typed):
    # the log's seat numbers 0-3 mean nothing at a table.
    seat = forms.TypedChoiceField(label=gettext_lazy("Your seat"), coerce=int,
                                  choices=list(enumerate(SEAT_PLACES)))
    dealer = forms.TypedChoiceField(label=gettext_lazy("Dealer's seat"), coerce=int,
                                    choices=list(enumerate(SEAT_PLACES)))
    die1 = forms.IntegerField(label=gettext_lazy("First die"), min_value=1, max_value=6,
                              initial=3)
    die2 = forms.IntegerField(label=gettext_lazy("Second die"), min_value=1, max_value=6,
                              initial=4)
    tiles = forms.CharField(label=gettext_lazy("Your starting tiles"), max_length=120,
                            help_text=gettext_lazy("Tap them on the keyboard, or write "
                                                   "their codes, such as:"))

    def clean_players(self) -> list[str]:
        names = [n.strip() for n in self.cleaned_data["players"].split(",")]
        if len(names) != 4 or not all(names) or any(len(n) > 64 for n in names):
            raise forms.ValidationError(_("Write four names (at most 64 characters each), "
                                          "separated by commas."))
        return names

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        variant = VARIANTS[data["variant"]]
        try:
            tiles = parse_tiles(data["tiles"].replace(" ", ""))
        except NotationError:
            raise forms.ValidationError(_("The starting tiles are not tile codes.")) from None
        want = variant.HAND_SIZE + (1 if data["seat"] == data["dealer"] else 0)
        if len(tiles) != want:
            raise forms.ValidationError(_("You were dealt %(want)d tiles, not %(n)d.") % {
                "want": want, "n": len(tiles)})
        if any(t.kind not in variant.tile_kinds() for t in tiles):
            raise forms.ValidationError(_("A starting tile is not one this game plays."))
        data["deal"] = [str(t) for t in tiles]
        return data


def _visitor(request: HttpRequest) -> str:
    if not request.session.session_key:
        request.session.save()
    return request.session.session_key or ""


def _record(request: HttpRequest, public_id: str) -> SeatRecord:
    record = SeatRecord.objects.filter(public_id=public_id).first()
    mine = record is not None and (
        record.owner_id == request.user.pk if record.owner_id is not None
        else record.visitor == _visitor(request))
    if record is None or not mine:
        raise Http404(_("No such recording."))
    return record


def _drafts(request: HttpRequest) -> Any:
    """The visitor's unfinished recordings: an account's, else this session's."""
    drafts = SeatRecord.objects.filter(match__isnull=True)
    if request.user.is_authenticated:
        return drafts.filter(owner=request.user)
    return drafts.filter(owner__isnull=True, visitor=_visitor(request))


def _start_page(request: HttpRequest, form: StartForm, status: int = 200) -> HttpResponse:
    return render(request, "recorder/start.html", {
        "form": form, "keys": _keys("sichuan"),
        "drafts": list(_drafts(request).order_by("-updated_at")[:settings.RECORD_MAX_OPEN])},
        status=status)


@require_http_methods(["GET", "POST"])
def start(request: HttpRequest) -> HttpResponse:
    """The setup form, the visitor's drafts; a valid setup starts a recording, within the
    rate limit and ``RECORD_MAX_OPEN`` drafts (docs/recorder.md, "Limits")."""
    form = StartForm(request.POST or None, initial={
        "variant": "sichuan", "players": ", ".join(
            [_("East"), _("South"), _("West"), _("North")])})
    if request.method != "POST":
        return _start_page(request, form)
    address = limits.address_group(request)
    try:
        limits.check("record-start-visitor", address)
    except limits.RateLimited as limited:
        form.add_error(None, str(limited))
        return limits.retry_after(_start_page(request, form, 429), limited)
    if not form.is_valid():
        limits.refund("record-start-visitor", address)
        return _start_page(request, form, 400)
    most = settings.RECORD_MAX_OPEN
    if _drafts(request).count() >= most:
        limits.refund("record-start-visitor", address)
        form.add_error(None, ngettext(
            "You already have %(n)s unfinished recording, the most one player may keep: "
            "finish or discard it first.", "You already have %(n)s unfinished recordings, the "
            "most one player may keep: finish or discard one first.", most) % {"n": most})
        return _start_page(request, form, 409)
    data = form.cleaned_data
    record = SeatRecord.objects.create(
        owner=request.user if request.user.is_authenticated else None,
        visitor=_visitor(request), variant=data["variant"], rules={},
        players=data["players"], seat=data["seat"], dealer=data["dealer"],
        dice=[data["die1"], data["die2"]], deal=data["deal"])
    return redirect("record_page", public_id=record.public_id)


@require_POST
def discard(request: HttpRequest, public_id: str) -> HttpResponse:
    """Throw an unfinished recording away (a finished one is a replay: deleted there)."""
    record = _record(request, public_id)
    if record.match_id is None:
        record.delete()
    return redirect("record_start")


def _keys(variant: str) -> list[str]:
    return [str(t) for t in (parse_tiles("123456789m123456789p123456789s"))
            if t.kind in VARIANTS[variant].tile_kinds()]


@require_http_methods(["GET"])
def page(request: HttpRequest, public_id: str) -> HttpResponse:
    record = _record(request, public_id)
    return render(request, "recorder/page.html", _page_context(record))


def _page_context(record: SeatRecord, error: str = "") -> dict[str, Any]:
    names = list(record.players)
    return {"record": record, "keys": _keys(record.variant), "error": error,
            "me": names[record.seat],
            "seats": [(s, names[s]) for s in range(4)], "types": EVENT_TYPES,
            "gang_kinds": GANG_KINDS, "unknown": UNKNOWN,
            "events": [_described(e, names) for e in record.events[-12:]],
            "count": len(record.events)}


TYPE_LABELS = {
    "draw": gettext_lazy("draws"), "discard": gettext_lazy("discards"),
    "peng": gettext_lazy("pungs"), "gang": gettext_lazy("makes a kong of"),
    "hu": gettext_lazy("wins on"), "dingque": gettext_lazy("is void in"),
    "exchange": gettext_lazy("passes three tiles"), "leave": gettext_lazy("leaves"),
    "end": gettext_lazy("The hand is over"),
}


def _described(event: dict[str, Any], names: list[str]) -> str:
    """One saved event in the reader's language, with tile names (never codes)."""
    parts = [names[event["actor"]]] if "actor" in event else []
    parts.append(str(TYPE_LABELS[event["type"]]))
    tile = event.get("tile")
    if tile == UNKNOWN:
        parts.append(_("an unseen tile"))
    elif tile:
        parts.append(tile_name(tile))
    if event.get("suit"):
        parts.append(suit_name(event["suit"]))
    return " ".join(parts)


def _event_from(data: Any, record: SeatRecord) -> dict[str, Any]:
    """The event a form or a JSON body describes, its fields checked for type; the rules
    are checked at the finish."""
    kind = str(data.get("type", ""))
    if kind not in EVENT_TYPES and kind != "end":
        raise ValueError(_("Choose what happened."))
    event: dict[str, Any] = {"type": kind}
    if kind == "end":
        event["reason"] = "exhausted" if data.get("reason") == "exhausted" else "win"
        given = data.get("hands") if isinstance(data.get("hands"), list) else [None] * 4
        shown = [None if seat == record.seat else _codes(
            data.get(f"shown{seat}") or (given[seat] if seat < len(given) else None))
            for seat in range(4)]
        if any(shown):
            event["hands"] = [tiles or None for tiles in shown]
        return event
    actor = _seat(data.get("actor"))
    event["actor"] = actor
    if kind in ("draw", "discard", "peng", "gang", "hu"):
        tile = str(data.get("tile", ""))
        allowed = _keys(record.variant) + ([UNKNOWN] if kind == "draw" and actor != record.seat
                                           else [])
        if tile not in allowed:
            raise ValueError(_("Choose a tile."))
        event["tile"] = tile
    if kind == "gang":
        gang = str(data.get("kind", ""))
        if gang not in GANG_KINDS:
            raise ValueError(_("Choose the kind of kong."))
        event["kind"] = gang
    if kind in ("peng", "hu") or kind == "gang" and event["kind"] == "exposed":
        target = data.get("target")
        if target not in (None, ""):
            event["target"] = _seat(target)
        elif kind != "hu":
            raise ValueError(_("Choose whose tile was claimed."))
    if kind == "hu" and actor != record.seat:
        event["hand"] = _codes(data.get("hand", ""))
    if kind == "dingque":
        suit = str(data.get("suit", ""))
        if suit not in ("m", "p", "s"):
            raise ValueError(_("Choose the void suit."))
        event["suit"] = suit
    return event


def _codes(value: Any) -> list[str]:
    """Tiles a player laid down, written as codes (``123m 55p``) or as a list of them."""
    text = " ".join(map(str, value)) if isinstance(value, list) else str(value or "")
    try:
        return [str(t) for t in parse_tiles(text.replace(" ", ""))]
    except NotationError:
        raise ValueError(_("Write the tiles laid down as tile codes.")) from None


def _seat(value: Any) -> int:
    try:
        seat = int(value)
    except (TypeError, ValueError):
        raise ValueError(_("Choose a seat.")) from None
    if not 0 <= seat <= 3:
        raise ValueError(_("Choose a seat."))
    return seat


@require_POST
def save_event(request: HttpRequest, public_id: str) -> HttpResponse:
    """Save one event; ``seq`` numbers them from 1: a number already saved is a retry."""
    record = _record(request, public_id)
    wants_json = request.content_type == "application/json"
    try:
        data = json.loads(request.body) if wants_json else request.POST
        seq = int(data.get("seq") or record.last_seq + 1)
        event = _event_from(data.get("event", data) if wants_json else data, record)
    except (ValueError, TypeError, AttributeError) as problem:
        if wants_json:
            return JsonResponse({"ok": False, "error": str(problem)}, status=400)
        return render(request, "recorder/page.html", _page_context(record, str(problem)),
                      status=400)
    if record.match_id is not None:
        return JsonResponse({"ok": False, "error": _("This hand is finished.")}, status=409)
    if seq <= record.last_seq:
        saved = True  # a retry of an event already saved
    elif seq == record.last_seq + 1 and len(record.events) < MAX_RECORDED_EVENTS:
        record.events = [*record.events, event]
        record.last_seq = seq
        record.save(update_fields=["events", "last_seq", "updated_at"])
        saved = True
    else:
        saved = False
    if not wants_json:
        return redirect("record_page", public_id=record.public_id)
    if not saved:
        return JsonResponse({"ok": False, "last_seq": record.last_seq,
                             "error": _("Events must be saved in order.")}, status=409)
    return JsonResponse({"ok": True, "seq": seq, "last_seq": record.last_seq})


def document_of(record: SeatRecord) -> dict[str, Any]:
    """The seat-view document of a recording (docs/recorder.md)."""
    variant = VARIANTS[record.variant]
    deal = [list(record.deal) if s == record.seat else
            [UNKNOWN] * (variant.HAND_SIZE + (1 if s == record.dealer else 0)) for s in range(4)]
    events = [dict(e) for e in record.events]
    for before, event in zip(events, events[1:], strict=False):
        if event["type"] == "draw" and before["type"] in ("gang", "flower"):
            event["from"] = "back"  # a kong's or a flower's replacement (C-5)
    if not events or events[-1]["type"] != "end":
        events.append({"type": "end", "reason": "win"})
    hand = {"dealer": record.dealer, "dice": list(record.dice), "deal": deal, "events": events}
    return {"format": FORMAT, "variant": record.variant, "view": {"seat": record.seat},
            "players": list(record.players), "rules": dict(record.rules), "hands": [hand]}


@require_POST
def finish(request: HttpRequest, public_id: str) -> HttpResponse:
    record = _record(request, public_id)
    if record.match_id is not None:
        return redirect(reverse("viewer", args=[record.match.public_id]))  # type: ignore[union-attr]
    raw = json.dumps(document_of(record), ensure_ascii=False).encode("utf-8")
    payer = limits.Payer.of(request)  # the check is paid for like an upload's
    try:
        payer.require_left()
        payer.take("bytes", len(raw))
        stored = store_document(raw, owner=request.user, uploader_seat=record.seat,
                                payer=payer)
    except limits.RateLimited as spent:
        return limits.retry_after(render(request, "recorder/page.html", _page_context(
            record, str(spent)), status=429), spent)
    except DuplicateUpload as duplicate:
        stored = duplicate.existing
    except UploadError as problem:
        text = engine_refusal(problem.message)
        if problem.where:
            text = f"{text} ({problem.where})"
        return render(request, "recorder/page.html", _page_context(record, text), status=400)
    record.match = stored
    record.save(update_fields=["match", "updated_at"])
    return redirect(reverse("viewer", args=[stored.public_id]))
