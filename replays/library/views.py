"""The replay library's pages: browse, upload, the step-through viewer, downloads, rules,
sign-up."""

from __future__ import annotations

import functools
import hashlib
from typing import Any
from urllib.parse import urlencode

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import User
from django.core.paginator import Paginator
from django.db import transaction
from django.db.models import Q, QuerySet
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.text import format_lazy
from django.utils.translation import get_language, gettext_lazy, ngettext
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games.variants.registry import VARIANTS
from replays import limits
from replays.annotation.services import panel
from replays.annotation.tasks import waiting_for_broker
from replays.annotation.views import values_context
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.library.overview import hand_rows, totals_chart
from replays.library.rules_guide import (
    book_entries,
    contract_examples,
    examples,
    house_examples,
    leave_example,
    rule_anchors,
    unique_anchors,
)
from replays.matches import presets
from replays.matches.board import board_at, replayed_match
from replays.matches.danger import danger_at
from replays.matches.engine_refusals import from_json
from replays.matches.engine_refusals import render as engine_refusal
from replays.matches.links import viewer_links
from replays.matches.services import (
    DuplicateUpload,
    UploadError,
    check_bytes,
    check_storage,
    duplicate_of,
    store_document,
    visible_match,
)
from replays.matches.tasks import send_check
from replays.models import Match, UploadCheck, write_document
from replays.puzzles.services import visitor_id
from replays.puzzles.takedowns import take_down
from replays.security import mark_not_shared
from replays.tile_names import wildcard_name


class FilterForm(forms.Form):
    q = forms.CharField(required=False, max_length=100, label=gettext_lazy("Player"))
    variant = forms.ChoiceField(required=False, choices=[("", "—"), *Match.Variant.choices])
    since = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))
    until = forms.DateField(required=False, widget=forms.DateInput(attrs={"type": "date"}))


class UploadForm(forms.Form):
    title = forms.CharField(required=False, max_length=200, label=gettext_lazy("Title"))
    # Not listed until the uploader says so (issue 27): a hand history names its players.
    # Private for an account; an anonymous upload has no one to be private to, so it is
    # unlisted (reachable by its link only, which the results give its uploader).
    visibility = forms.ChoiceField(choices=Match.Visibility.choices,
                                   initial=Match.Visibility.PRIVATE,
                                   label=gettext_lazy("Who can see it"))
    seat = forms.TypedChoiceField(
        required=False, coerce=int, empty_value=None, label=gettext_lazy("My seat"),
        choices=[("", gettext_lazy("not said (no seat is valued)")),
                 *((str(s), format_lazy("{} {}", gettext_lazy("seat"), s + 1)) for s in range(4))])
    text = forms.CharField(required=False, widget=forms.Textarea(attrs={"rows": 6}),
                           label=gettext_lazy("…or paste a document"))

    def __init__(self, *args: Any, user: Any = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        if not getattr(user, "is_authenticated", False):
            field = self.fields["visibility"]
            assert isinstance(field, forms.ChoiceField)
            self.initial.setdefault("visibility", Match.Visibility.UNLISTED)
            field.widget.choices = [(value, label) for value, label in Match.Visibility.choices
                                    if value != Match.Visibility.PRIVATE]

    def clean_visibility(self) -> str:
        visibility: str = self.cleaned_data["visibility"]
        if visibility == Match.Visibility.PRIVATE and not getattr(
                self.user, "is_authenticated", False):
            raise forms.ValidationError(_("Log in to keep a replay private; anonymous uploads "
                                          "can be public or unlisted."))
        return visibility


def _visible(request: HtmxHttpRequest) -> QuerySet[Match]:
    return Match.objects.filter(visibility=Match.Visibility.PUBLIC, hidden=False)


def browse(request: HtmxHttpRequest) -> HttpResponse:
    """Newest first, with filters; ``?mine=1`` lists the user's own uploads."""
    form = FilterForm(request.GET or None)
    user = request.user
    mine = request.GET.get("mine") == "1" and user.is_authenticated
    matches = (Match.objects.filter(owner=user) if mine and user.is_authenticated
               else _visible(request))
    if form.is_valid():
        data = form.cleaned_data
        if data["q"]:
            matches = matches.filter(players_text__icontains=data["q"])
        if data["variant"]:
            matches = matches.filter(variant=data["variant"])
        if data["since"]:
            matches = matches.filter(Q(played_at__date__gte=data["since"]) | Q(
                played_at__isnull=True, uploaded_at__date__gte=data["since"]))
        if data["until"]:
            matches = matches.filter(Q(played_at__date__lte=data["until"]) | Q(
                played_at__isnull=True, uploaded_at__date__lte=data["until"]))
    page = Paginator(matches.only("public_id", "title", "variant", "players", "played_at",
                                  "uploaded_at", "hand_count", "visibility"), 20).get_page(
        request.GET.get("page"))
    query = {k: v for k, v in request.GET.items() if k != "page" and v}
    # The site's front door (issue 27): what it is and the ways in, above the list, unless
    # the visitor is already filtering, paging or looking at their own uploads.
    welcome = not mine and not any(request.GET.values())
    return render(request, "library/browse.html", {
        "form": form, "page": page, "mine": mine, "query": urlencode(query),
        "welcome": welcome})


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def upload(request: HtmxHttpRequest) -> HttpResponse:
    """One or several files, or pasted JSON; each stored whole or refused with a reason.

    Rate limits and spent budgets are checked before any document is looked at; the body
    itself is bounded by ``replays.limits.BoundedUploadHandler``. Each document's bytes
    are paid from the uploader's budget; small ones are checked while the page waits, the
    others by a worker (issue 24): the page lists them as being checked, and polls."""
    payer = limits.Payer.of(request)
    if request.method == "POST":
        try:
            limits.check_visitor(request, "upload-visitor")
            if request.user.is_authenticated:
                limits.check("upload-account", f"user:{request.user.pk}")
            payer.require_left()
        except limits.RateLimited as refusal:
            return limits.retry_after(_upload_page(
                request, UploadForm(user=request.user), [], status=429,
                refusal=str(refusal)), refusal)
    form = UploadForm(request.POST or None, user=request.user)
    results: list[dict[str, Any]] = []
    refusals: list[tuple[str, str]] = getattr(request, "upload_refusals", [])
    if request.method == "POST":
        results.extend({"name": name, "ok": False, "error": text} for name, text in refusals)
    spent: limits.RateLimited | None = None
    if request.method == "POST" and form.is_valid():
        files = request.FILES.getlist("files")
        if len(files) > settings.MAX_UPLOAD_FILES:
            form.add_error(None, ngettext("At most %(n)d file at once.",
                                          "At most %(n)d files at once.",
                                          settings.MAX_UPLOAD_FILES) % {
                "n": settings.MAX_UPLOAD_FILES})
        else:
            items: list[tuple[str, bytes | None, str | None]] = []
            for upload_file in files:
                if upload_file.size and upload_file.size > settings.MAX_UPLOAD_BYTES:
                    items.append((upload_file.name or "file", None, _(
                        "the file is %(size)s bytes; the limit is %(limit)s bytes") % {
                        "size": f"{upload_file.size:,}",
                        "limit": f"{settings.MAX_UPLOAD_BYTES:,}"}))
                else:
                    items.append((upload_file.name or "file", upload_file.read(), None))
            if form.cleaned_data["text"].strip():
                items.append((_("pasted text"), form.cleaned_data["text"].encode("utf-8"), None))
            if not items and not refusals:
                form.add_error(None, _("Choose a file or paste a document."))
            uploads = Uploads(request, form, payer)
            for name, raw, problem in items:
                results.append(uploads.store_one(name, raw, problem))
            spent = uploads.spent
    if spent is not None:  # a budget refused some document: the others are listed too
        return limits.retry_after(_upload_page(request, form, results, status=429), spent)
    return _upload_page(request, form, results)


def _upload_page(request: HtmxHttpRequest, form: UploadForm, results: list[dict[str, Any]],
                 status: int = 200, refusal: str = "") -> HttpResponse:
    context = {"form": form, "results": results, "limit": settings.MAX_UPLOAD_BYTES,
               "refusal": refusal}
    if wants_fragment(request) and request.method == "POST":
        return render(request, "library/upload.html#results", context, status=status)
    return render(request, "library/upload.html", context, status=status)


class Uploads:
    """The documents of one upload request: each paid for, then checked here while the
    request's allowance (``UPLOAD_SYNC_BYTES``) lasts, or kept for a worker."""

    def __init__(self, request: HtmxHttpRequest, form: UploadForm, payer: limits.Payer) -> None:
        self.request, self.form, self.payer = request, form, payer
        self.sync_left = settings.UPLOAD_SYNC_BYTES
        self.spent: limits.RateLimited | None = None

    def store_one(self, name: str, raw: bytes | None, problem: str | None) -> dict[str, Any]:
        if problem is not None or raw is None:
            return {"name": name, "ok": False, "error": problem}
        try:
            check_bytes(raw)
        except UploadError as error:  # costs nothing: refused before it is paid for
            return {"name": name, "ok": False, "error": engine_refusal(error.message)}
        try:
            self.payer.take("bytes", len(raw))
            if len(raw) > self.sync_left:
                return self._keep(name, raw)
            self.sync_left -= len(raw)
            match = store_document(raw, owner=self.request.user, payer=self.payer,
                                   **self._choices())
        except limits.RateLimited as spent:
            self.spent = spent
            return {"name": name, "ok": False, "error": str(spent)}
        except DuplicateUpload as duplicate:
            return duplicate_result(self.request, name, duplicate.existing)
        except UploadError as error:
            return {"name": name, "ok": False, "error": engine_refusal(error.message),
                    "where": error.where}
        return {"name": name, "ok": True, "match": match,
                "waiting": match.waiting_for_broker}

    def _choices(self) -> dict[str, Any]:
        data = self.form.cleaned_data
        return {"visibility": data["visibility"], "title": data["title"],
                "uploader_seat": data.get("seat")}

    def _keep(self, name: str, raw: bytes) -> dict[str, Any]:
        """Keep a large document for a worker's check, after the checks that cost no
        replay (a duplicate, the storage left); the page then follows its check."""
        user = self.request.user
        existing = duplicate_of(hashlib.sha256(raw).hexdigest(), user)
        if existing is not None:
            raise DuplicateUpload(existing)
        owner = user if user.is_authenticated else None
        check_storage(user, len(raw), self.payer.storage_key if owner is None else "")
        with transaction.atomic():
            check = UploadCheck.objects.create(
                owner=owner, payer=self.payer.visitor,
                visitor=visitor_id(self.request) if owner is None else "",
                language=get_language() or "", name=name[:200], document=b"", size=len(raw),
                **self._choices())
            write_document(check.pk, raw)
        transaction.on_commit(functools.partial(send_check, check.pk))
        # Without a broker it may be checked already (not its bytes: they are gone then).
        check.refresh_from_db(fields=["status", "match", "refusal", "duplicate"])
        return check_result(self.request, check)


def duplicate_result(request: HtmxHttpRequest, name: str, existing: Match) -> dict[str, Any]:
    """A duplicate: linked when the uploader may see the earlier copy."""
    visible = existing.owned_by(request.user) or existing.publishable
    return {"name": name, "ok": False, "duplicate": existing if visible else None,
            "error": _("this document was uploaded before")}


def check_result(request: HtmxHttpRequest, check: UploadCheck) -> dict[str, Any]:
    """A kept upload as the results list shows it: being checked (``check``: the page
    polls it), stored, or refused in the reader's language."""
    name = check.name
    if check.is_open:
        return {"name": name, "check": check}
    if check.status == UploadCheck.Status.STORED:
        if check.match is None:  # its owner deleted it since
            return {"name": name, "ok": False,
                    "error": _("it was stored, and has been deleted since")}
        return {"name": name, "ok": True, "match": check.match,
                "waiting": waiting_for_broker(check.match)}
    if check.duplicate and check.match is not None:
        return duplicate_result(request, name, check.match)
    if check.status == UploadCheck.Status.REFUSED and check.refusal:
        refused = UploadError(from_json(check.refusal["message"]), check.refusal.get("hand"),
                              check.refusal.get("event"), check.refusal.get("rule"))
        return {"name": name, "ok": False, "error": engine_refusal(refused.message),
                "where": refused.where}
    return {"name": name, "ok": False, "error": _(
        "the check failed on the site's side, not because of the document; nothing was "
        "stored: upload it again")}


@vary_on_headers("HX-Request")
def upload_check(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """``/upload/checks/<id>/``: where a kept upload's check stands, for its uploader only
    (404 for anyone else). The page refreshes itself while the check runs; htmx polls the
    result's line alone."""
    check = UploadCheck.objects.defer("document").select_related("match").filter(
        public_id=public_id).first()
    if check is None or not _checks_mine(request, check):
        raise Http404("No such upload")
    context = {"item": check_result(request, check), "check": check}
    template = ("library/upload.html#item" if wants_fragment(request)
                else "library/upload_check.html")
    response = render(request, template, context)
    response["Cache-Control"] = "private, no-store"
    return response


def _checks_mine(request: HtmxHttpRequest, check: UploadCheck) -> bool:
    if check.owner_id is not None:
        return bool(request.user.is_authenticated and check.owner_id == request.user.pk)
    visitor = visitor_id(request, create=False)
    return bool(visitor) and check.visitor == visitor


def _int(value: str | None, default: int) -> int:
    try:
        return int(value) if value is not None else default
    except ValueError:
        return default


@vary_on_headers("HX-Request")
def viewer(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """``/replays/<id>/?hand=H&step=N&seat=S``: every step is a URL."""
    fragment = wants_fragment(request)
    match = visible_match(request, public_id, step=fragment)
    data = replayed_match(match)
    hand_number = min(max(_int(request.GET.get("hand"), 1), 1), match.hand_count)
    steps = len(data.match.hands[hand_number - 1].events)
    step = min(max(_int(request.GET.get("step"), 0), 0), steps)
    seat_value = request.GET.get("seat")
    seat = _int(seat_value, -1) if seat_value not in (None, "") else -1
    viewer_seat = seat if 0 <= seat <= 3 else None
    recorded_from = data.match.view.seat if data.match.view is not None else None
    if recorded_from is not None:
        viewer_seat = recorded_from  # a hand recorded from one seat shows only that seat's view
    bottom = _int(request.GET.get("bottom"), 0)
    board = board_at(data, hand_number, step, viewer_seat, bottom if 0 <= bottom <= 3 else 0)
    spoilers = request.GET.get("spoilers") != "0"
    wants_danger = request.GET.get("danger") == "1" and viewer_seat is not None
    links = viewer_links(match, board, viewer_seat, spoilers, wants_danger)
    analysis = panel(match, hand_number, step, viewer_seat, spoilers)
    context = {"match": match, "board": board, "links": links, "seat": viewer_seat,
               "recorded_from": recorded_from, "seat_fixed": recorded_from is not None,
               "recorder_name": data.match.players[
                   recorded_from] if recorded_from is not None else "", "analysis": analysis, "spoilers": spoilers, "danger_on": wants_danger,
               **_danger(request, data, hand_number, step, viewer_seat, wants_danger)}
    if fragment:  # a step: the board alone, not the page's status lines
        return mark_not_shared(render(request, "library/viewer.html#board", context), match)
    context.update(values_context(request, match), owner_form=VisibilityForm(
        initial={"visibility": match.visibility}) if match.owned_by(request.user) else None)
    return mark_not_shared(render(request, "library/viewer.html", context), match)


def _danger(request: HtmxHttpRequest, data: Any, hand: int, step: int, seat: int | None,
            wanted: bool) -> dict[str, Any]:
    """The danger of the viewed seat's tiles when asked for, counted against the visitor's
    rate limit (the engine reads the table at every step); over it, the sentence why."""
    if not wanted or seat is None:
        return {"danger": None, "danger_refused": None}
    try:
        limits.check_visitor(request, "danger-visitor")
    except limits.RateLimited as refusal:
        return {"danger": None, "danger_refused": str(refusal)}
    return {"danger": danger_at(data, hand, step, seat), "danger_refused": None}


class VisibilityForm(forms.Form):
    visibility = forms.ChoiceField(choices=Match.Visibility.choices)


def _owned_match(request: HtmxHttpRequest, public_id: str) -> Match:
    """The match, when the request's user owns it; 404 otherwise (as for no match)."""
    match = visible_match(request, public_id)
    if not match.owned_by(request.user):
        raise Http404("No such replay")
    return match


@require_POST
def change_visibility(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The owner makes a match public, unlisted or private; a match that stops being public
    takes its puzzles and any daily puzzle from it along (takedowns.py)."""
    match = _owned_match(request, public_id)
    form = VisibilityForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose public, unlisted or private."))
        return redirect(match)
    match.visibility = form.cleaned_data["visibility"]
    match.save(update_fields=["visibility"])
    take_down([match.pk])
    messages.success(request, _("“%(match)s” is now: %(visibility)s") % {
        "match": match, "visibility": match.get_visibility_display()})
    return redirect(match)


@require_http_methods(["GET", "POST"])
def delete_match(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The owner deletes a match: a confirmation page, then the deletion (with its hands,
    annotations and puzzles)."""
    match = _owned_match(request, public_id)
    if request.method == "POST":
        name = str(match)
        match.delete()
        messages.success(request, _("“%(match)s” was deleted.") % {"match": name})
        return redirect(f"{reverse('browse')}?mine=1")
    response = render(request, "library/delete.html", {"match": match})
    return mark_not_shared(response, match)


def overview(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The match at a glance: every hand's result and a chart of the running totals."""
    match = visible_match(request, public_id)
    data = replayed_match(match)
    rows = hand_rows(match, data)
    return mark_not_shared(render(request, "library/overview.html", {
        "match": match, "rows": rows, "players": data.match.players,
        "chart": totals_chart(data.match.players, rows)}), match)


def download(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The document exactly as uploaded."""
    match = visible_match(request, public_id, document=True)
    response = HttpResponse(bytes(match.document), content_type="application/json")
    response["Content-Disposition"] = f'attachment; filename="match-{match.public_id}.json"'
    return mark_not_shared(response, match)


def rules(request: HtmxHttpRequest, variant: str) -> HttpResponse:
    """The variant's patterns and options, straight from the engine's own tables."""
    cls = VARIANTS.get(variant)
    if cls is None:
        raise Http404("No such variant")
    patterns = list(cls.PATTERNS.values())
    rows = list(zip(unique_anchors(p.id for p in patterns), patterns, strict=True))
    guide = f"library/guide/{variant}.html"
    return render(request, "library/rules.html", {
        "variant": cls, "rows": rows, "anchors": rule_anchors(variant),
        "guide": guide, "examples": examples(variant), "book": book_entries(variant),
        "contracts": contract_examples(), "leaving": leave_example(variant),
        "house": house_examples(variant),
        "presets": [p for p in presets.choices(variant, None) if p.key != presets.CUSTOM],
        "options": list(cls.OPTIONS.values()), "variants": list(VARIANTS.values()),
        "wildcard_name": wildcard_name(cls)})


@require_http_methods(["GET", "POST"])
def signup(request: HtmxHttpRequest) -> HttpResponse:
    """A new account. The limit per address counts accounts created, not forms sent: a
    newcomer who mistypes the password twice is not held back."""
    form: UserCreationForm[User] = UserCreationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            limits.check_visitor(request, "signup")
        except limits.RateLimited as refusal:
            return render(request, "registration/signup.html", {
                "form": form, "refusal": str(refusal)}, status=429)
        user = form.save()
        # The log-in lockouts' backend only watches log-ins: the account's is the model's.
        login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        messages.success(request, _("Welcome, %(name)s!") % {"name": user.get_username()})
        return redirect("browse")
    return render(request, "registration/signup.html", {"form": form})

