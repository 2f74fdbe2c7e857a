"""``/ledger/``: the match ledger of a game at a real table (issue 30, docs/ledger.md).

Forms work without JavaScript (POST, then redirect); the page's script (static/js/ledger.js)
queues a row on the device first, so a row tapped in while the phone is offline is sent when
the network is back, once (its ``client_id``). Only the owner — a signed-in user, or the guest
device holding the ledger's device key — writes; the share link reads, and follows live.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Max, Q, QuerySet
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST
from django.views.decorators.vary import vary_on_headers

from games.core.position import PositionError
from games.core.settlement import SettlementError
from games.variants.registry import NAMES, VARIANTS
from replays import charts, limits
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.ledger import live, rows
from replays.models import Match
from replays.models.ledger import Ledger, LedgerRow

DEVICE_COOKIE = "ledger_device"
NAME_LENGTH = 24


def device_key(request: HttpRequest) -> str:
    """The guest device's key from its cookie ('' when it has none yet)."""
    key = request.COOKIES.get(DEVICE_COOKIE, "")
    return key if 20 <= len(key) <= 64 and key.replace("-", "").replace("_", "").isalnum() \
        else ""


def _mine(request: HttpRequest) -> QuerySet[Ledger]:
    """The visitor's ledgers: their account's, and those this device started as a guest
    (still its own after logging in)."""
    key = device_key(request)
    guest = Q(owner=None, device=key) if key else Q(pk__in=[])
    if request.user.is_authenticated:
        return Ledger.objects.filter(Q(owner=request.user) | guest)
    return Ledger.objects.filter(guest)


def can_write(request: HttpRequest, ledger: Ledger) -> bool:
    if ledger.owner_id is not None:
        return bool(request.user.is_authenticated and request.user.pk == ledger.owner_id)
    key = device_key(request)
    return bool(key) and secrets.compare_digest(key, ledger.device)


def _presets() -> list[dict[str, str]]:
    return [{"value": f"{name}:{key}", "variant": name, "chinese": preset.chinese,
             "english": preset.english, "label": f"{Match.Variant(name).label} · {preset.chinese}"}
            for name in NAMES for key, preset in VARIANTS[name].PRESETS.items()]


def _index_page(request: HttpRequest, error: str = "", status: int = 200) -> HttpResponse:
    data = request.POST if request.method == "POST" else {}
    return render(request, "ledger/index.html", {
        "ledgers": _mine(request)[:50], "error": error,
        "variants": [(name, Match.Variant(name).label) for name in NAMES],
        "presets": _presets(), "data": data,
        "names": [str(data.get(f"name{seat}") or "") for seat in rows.SEATS],
    }, status=status)


@require_GET
def index(request: HttpRequest) -> HttpResponse:
    """The visitor's ledgers and the form that starts one."""
    return _index_page(request)


@require_POST
def create(request: HttpRequest) -> HttpResponse:
    """Start a ledger: its variant, the table's rules (a preset and the base), four names."""
    try:
        limits.check("ledger-create-visitor", limits.address_group(request))
    except limits.RateLimited as limited:
        return limits.retry_after(_index_page(request, str(limited), 429), limited)
    try:
        variant, preset, rules, names = _read_new(request.POST)
    except ValueError as error:
        limits.refund("ledger-create-visitor", limits.address_group(request))
        return _index_page(request, str(error), 400)
    most = settings.LEDGER_MAX_PER_OWNER
    if _mine(request).count() >= most:
        return _index_page(request, ngettext(
            "You already keep %(n)s ledger, the most one player or device may keep: delete "
            "one first.", "You already keep %(n)s ledgers, the most one player or device may "
            "keep: delete one first.", most) % {"n": most}, 400)
    key = device_key(request) or secrets.token_urlsafe(24)
    ledger = Ledger.objects.create(
        owner=request.user if request.user.is_authenticated else None,
        device="" if request.user.is_authenticated else key,
        variant=variant, preset=preset, rules=rules, names=names)
    response = redirect(ledger)
    if not request.user.is_authenticated:
        response.set_cookie(DEVICE_COOKIE, key, max_age=400 * 24 * 3600, httponly=True,
                            samesite="Lax", secure=request.is_secure())
    return response


def _read_new(data: Any) -> tuple[str, str, dict[str, Any], list[str]]:
    variant = str(data.get("variant") or "")
    if variant not in VARIANTS:
        raise ValueError(_("Choose the game: %(known)s.") % {
            "known": ", ".join(str(Match.Variant(n).label) for n in NAMES)})
    cls = VARIANTS[variant]
    chosen = str(data.get("preset") or "")
    preset = ""
    rules: dict[str, Any] = {}
    if chosen:
        name, _colon, key = chosen.partition(":")
        if name != variant or key not in cls.PRESETS:
            raise ValueError(_("The table rules “%(preset)s” are not a way of playing "
                               "%(variant)s.") % {"preset": chosen[:30],
                                                  "variant": Match.Variant(variant).label})
        preset = key
        rules = {k: v for k, v in cls.PRESETS[key].rules.items() if k in cls.OPTIONS}
    base = str(data.get("base") or "1").strip()
    if not base.isdigit() or not 1 <= int(base) <= 10000:
        raise ValueError(_("The base 底分: a whole number from 1 to 10000, not “%(raw)s”.") % {
            "raw": base[:12]})
    if "base" in cls.OPTIONS:  # PT-7.1: Putian's base is the dealer's streak's
        rules["base"] = int(base)
    try:
        rules = cls.check_rules(rules)
    except PositionError as error:
        raise ValueError(str(error)) from error
    names = [str(data.get(f"name{seat}") or "").strip()[:NAME_LENGTH] for seat in rows.SEATS]
    if not all(names):
        raise ValueError(_("Give all four players a name."))
    if len(set(names)) < 4:
        raise ValueError(_("Give the four players four different names."))
    return variant, preset, rules, names


def _ledger_context(request: HttpRequest, ledger: Ledger, *, owner: bool,
                    form_error: str = "", data: Any = None) -> dict[str, Any]:
    cls = VARIANTS[ledger.variant]
    records = list(ledger.rows.order_by("number").values_list("number", "record"))
    view = rows.work_out(cls, ledger.rules, ledger.names, records)
    names = list(ledger.names)
    prefill = data if data is not None else (request.GET or None)
    preset = cls.PRESETS.get(ledger.preset)
    return {
        "ledger": ledger, "variant": cls, "owner": owner, "view": view, "names": names,
        "seats": list(zip(rows.SEATS, names, strict=True)),
        "standings": list(zip(names, view.totals, strict=True)),
        "preset": preset, "base": ledger.rules.get("base"),
        "chart": _chart(names, view) if view.rows else "",
        "transfers": [{"payer": names[t.payer], "payee": names[t.payee], "amount": t.amount}
                      for t in view.transfers],
        "last": view.rows[-1].number if view.rows else 0,
        "form_error": form_error, "form": row_form(cls, names, prefill) if owner else None,
        "win_slots": list(range(1, cls.MOST_RECORDED_WINS + 1)),
        "kong_slots": list(range(1, rows.KONG_SLOTS + 1)) if cls.RECORDS_KONGS else [],
        "client_id": secrets.token_urlsafe(16),
        "share_url": request.build_absolute_uri(reverse("ledger_shared",
                                                        args=[ledger.share_token])),
        "socket_path": reverse("ledger_shared", args=[ledger.share_token]) + "ws",
        "score_link": f"{reverse('score')}?v={ledger.variant}"
                      + (f"&preset={ledger.preset}" if ledger.preset else "")
                      + f"&ledger={ledger.public_id}",
        "most_rows": settings.LEDGER_MAX_ROWS,
    }


def _chart(names: list[str], view: rows.LedgerView) -> str:
    labels = ["0", *(str(row.number) for row in view.rows)]
    series = [charts.Series(name, [0, *(row.totals[seat] for row in view.rows)])
              for seat, name in enumerate(names)]
    return charts.line_chart(_("Running totals"), labels, series)


def _page(request: HtmxHttpRequest, ledger: Ledger, *, owner: bool, status: int = 200,
          form_error: str = "", data: Any = None) -> HttpResponse:
    context = _ledger_context(request, ledger, owner=owner, form_error=form_error, data=data)
    template = "ledger/_body.html" if wants_fragment(request) else "ledger/page.html"
    return render(request, template, context, status=status)


def _owned(request: HttpRequest, public_id: str) -> Ledger:
    ledger = get_object_or_404(Ledger, public_id=public_id)
    if not can_write(request, ledger):
        raise _NotYours(ledger)
    return ledger


class _NotYours(Exception):
    def __init__(self, ledger: Ledger) -> None:
        self.ledger = ledger


def _refused(request: HttpRequest, refusal: _NotYours) -> HttpResponse:
    message = _("Only the ledger's owner can change it; this is its read-only page.")
    if _wants_json(request):
        return JsonResponse({"error": message}, status=403)
    return render(request, "ledger/refused.html", {
        "message": message, "shared": reverse("ledger_shared",
                                              args=[refusal.ledger.share_token])}, status=403)


def _wants_json(request: HttpRequest) -> bool:
    return "application/json" in request.headers.get("Accept", "")


@require_GET
@vary_on_headers("HX-Request")
def page(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The owner's ledger: the row form, the rows with their payments, totals, chart."""
    try:
        ledger = _owned(request, public_id)
    except _NotYours as refusal:
        return _refused(request, refusal)
    return _page(request, ledger, owner=True)


@require_GET
@vary_on_headers("HX-Request")
def shared(request: HtmxHttpRequest, token: str) -> HttpResponse:
    """The read-only ledger (the share link); its script follows new rows live."""
    ledger = Ledger.objects.filter(share_token=token).first()
    if ledger is None:
        raise Http404("no such ledger")
    return _page(request, ledger, owner=False)


@require_POST
def add_row(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Add a row. A ``client_id`` already stored answers as stored (a retry, not a second row)."""
    try:
        ledger = _owned(request, public_id)
        limits.check("ledger-row-visitor", limits.address_group(request))
    except _NotYours as refusal:
        return _refused(request, refusal)
    except limits.RateLimited as limited:
        return limits.retry_after(_row_refused(request, ledger, str(limited), 429), limited)
    client_id = str(request.POST.get("client_id") or "").strip()
    if not 8 <= len(client_id) <= 64:
        return _row_refused(request, ledger, _("The row has no id from this device: reload the "
                                               "page and enter it again."), 400)
    existing = ledger.rows.filter(client_id=client_id).first()
    if existing is not None:
        return _row_saved(request, ledger, existing, duplicate=True)
    cls = VARIANTS[ledger.variant]
    try:
        record = rows.read_form(cls, request.POST)
        rows.settle(cls, ledger.rules, record)
    except rows.RowError as error:
        return _row_refused(request, ledger, str(error), 400)
    except SettlementError as refused:
        return _row_refused(request, ledger, _("The rules refuse this hand: %(why)s") % {
            "why": rows.refusal_words(refused, ledger.names)}, 400)
    try:
        row = _insert(ledger, client_id, record)
    except _Full:
        most = settings.LEDGER_MAX_ROWS
        return _row_refused(request, ledger, ngettext(
            "This ledger has %(n)s row, the most one ledger keeps: start a new one.",
            "This ledger has %(n)s rows, the most one ledger keeps: start a new one.",
            most) % {"n": most}, 400)
    except IntegrityError:  # the same row sent twice at once: the other one stored it
        row = ledger.rows.get(client_id=client_id)
        return _row_saved(request, ledger, row, duplicate=True)
    return _row_saved(request, ledger, row, duplicate=False)


class _Full(Exception):
    pass


def _insert(ledger: Ledger, client_id: str, record: dict[str, Any]) -> LedgerRow:
    with transaction.atomic():
        locked = Ledger.objects.select_for_update().get(pk=ledger.pk)
        count = locked.rows.count()
        if count >= settings.LEDGER_MAX_ROWS:
            raise _Full
        number = (locked.rows.aggregate(most=Max("number"))["most"] or 0) + 1
        row = LedgerRow.objects.create(ledger=locked, number=number, client_id=client_id,
                                       record=record)
        locked.save(update_fields=["updated_at"])
        live.changed(locked, number)
    return row


def _row_saved(request: HttpRequest, ledger: Ledger, row: LedgerRow, *,
               duplicate: bool) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"saved": row.number, "client_id": row.client_id,
                             "duplicate": duplicate}, status=200 if duplicate else 201)
    return redirect(f"{ledger.get_absolute_url()}#row-{row.number}")


def _row_refused(request: HtmxHttpRequest, ledger: Ledger, message: str,
                 status: int) -> HttpResponse:
    if _wants_json(request):
        return JsonResponse({"error": message}, status=status)
    return _page(request, ledger, owner=True, status=status, form_error=message,
                 data=request.POST)


@require_POST
def undo(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Take back the last row (the form names it: a second tap doesn't take back another)."""
    try:
        ledger = _owned(request, public_id)
    except _NotYours as refusal:
        return _refused(request, refusal)
    number = str(request.POST.get("row") or "")
    with transaction.atomic():
        locked = Ledger.objects.select_for_update().get(pk=ledger.pk)
        last = locked.rows.order_by("-number").first()
        if last is None or str(last.number) != number:
            return _row_refused(request, ledger, _("Only the last row can be undone, and row "
                                                   "%(n)s is not it (already undone?).") % {
                "n": number[:6] or "?"}, 400)
        last.delete()
        locked.save(update_fields=["updated_at"])
        live.changed(locked, last.number - 1)
    if _wants_json(request):
        return JsonResponse({"undone": last.number})
    return redirect(ledger)


@require_POST
def delete(request: HttpRequest, public_id: str) -> HttpResponse:
    """Delete a whole ledger (its owner only)."""
    try:
        ledger = _owned(request, public_id)
    except _NotYours as refusal:
        return _refused(request, refusal)
    ledger.delete()
    return redirect("ledgers")



def _chips(name: str, options: list[tuple[str, str]], prefill: Any, default: str
           ) -> dict[str, Any]:
    chosen = str(prefill.get(name) or default) if prefill is not None else default
    return {"name": name, "options": [{"value": value, "label": label,
                                       "checked": value == chosen} for value, label in options]}


def row_form(cls: Any, names: list[str], prefill: Any) -> dict[str, Any]:
    """The row form's fields, valued from ``prefill`` (a refused row's fields, or the fan and
    tai the scorer sends back with "add to the ledger")."""
    people = [(str(seat), name) for seat, name in enumerate(names)]
    get = prefill.get if prefill is not None else (lambda _name, _default=None: None)
    wins = []
    for slot in range(1, cls.MOST_RECORDED_WINS + 1):
        nobody = _("nobody: the wall ran out") if slot == 1 else _("nobody more")
        source = _("robbed the kong of") if cls.RECORDS_TAI else _("on the discard of")
        wins.append({
            "slot": slot,
            "winner": _chips(f"w{slot}", [("", nobody), *people], prefill, ""),
            "source_label": source,
            "source": _chips(f"w{slot}_from", [("self", _("self-drawn 自摸")), *people],
                             prefill, "self"),
            "fan": get(f"w{slot}_fan") or (get("fan") if slot == 1 else "") or "",
            "tai": get(f"w{slot}_tai") or (get("tai") if slot == 1 else "") or "",
        })
    kongs = [{
        "slot": slot,
        "seat": _chips(f"k{slot}", [("", _("none")), *people], prefill, ""),
        "kind": _chips(f"k{slot}_kind", [("concealed", _("concealed 暗杠")),
                                         ("added", _("added 面下杠")),
                                         ("exposed", _("exposed 直杠"))], prefill, "concealed"),
        "source": _chips(f"k{slot}_from", [("", "—"), *people], prefill, ""),
        "after": _chips(f"k{slot}_after", [("0", _("before any win")), *(
            (str(n), _("after win %(n)s") % {"n": n}) for n in range(1, cls.MOST_RECORDED_WINS))],
            prefill, "0"),
    } for slot in range(1, rows.KONG_SLOTS + 1)] if cls.RECORDS_KONGS else []
    ends = [{
        "seat": seat, "name": name,
        "state": _chips(f"x{seat}", [("", _("not ready")), ("ready", _("ready 听牌")),
                                     ("pig", _("花猪 flower pig"))], prefill, ""),
        "fan": get(f"x{seat}_fan") or "",
    } for seat, name in enumerate(names)] if cls.RECORDS_EXHAUSTION else []
    flowers = {
        "dealer": _chips("dealer", people, prefill, "0"),
        "streak": get("streak") or "0",
        "points": [{"seat": seat, "name": name, "value": get(f"fl{seat}") or "0"}
                   for seat, name in enumerate(names)],
        "bomb": _chips("bomb", [("", _("no bomb")), ("big", _("大炸弹 big bomb (50)")),
                                ("super", _("超级大炸弹 super bomb (100)"))], prefill, ""),
    } if cls.RECORDS_FLOWERS else None
    return {"wins": wins, "kongs": kongs, "ends": ends, "flowers": flowers,
            "opened": bool(get("w2")) or bool(get("k1")) or any(get(f"x{s}") for s in range(4))}
