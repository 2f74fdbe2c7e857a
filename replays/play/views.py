"""``/play/``: start a match against the bots, play it at the table, review it after.

Every page and fragment is drawn from the seat's view (``PlayMatch.view()``), never from
the stored row, so nothing the seat may not see can reach it (docs/play.md). Forms work
without JavaScript (POST, then redirect) and with htmx (the table's fragment is swapped).

Starting is limited (issue 24): starts per address and per account are rate limits (429
with ``Retry-After``), unfinished matches per visitor a cap (409); each refusal names the
limit, as a page, the start form's fragment (htmx) or JSON, and starts nothing.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django.views.decorators.vary import vary_on_headers

from games.core.messages import message_of
from games.play.bot_match import MAX_HANDS, IllegalAction, PlayError, StaleStep
from games.variants.registry import NAMES
from replays import limits
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.matches import presets
from replays.matches.engine_refusals import refusal
from replays.matches.engine_refusals import render as engine_refusal
from replays.matches.services import UploadError
from replays.models import Match, PlayedMatch
from replays.play import bots, levels, services, table

SEAT_CHOICES = [("random", gettext_lazy("random")), ("0", gettext_lazy("East (seat 1)")),
                ("1", gettext_lazy("South (seat 2)")), ("2", gettext_lazy("West (seat 3)")),
                ("3", gettext_lazy("North (seat 4)"))]


class BotLevelForm(forms.Form):
    """A form with a ``level`` field offering the site's bot levels (replays/play/levels.py):
    the start form and the tables' room form."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        level_field = self.fields["level"]
        assert isinstance(level_field, forms.ChoiceField)
        level_field.choices = [(site.key, site.label) for site in levels.offered()]
        level_field.initial = levels.default().key

    def chosen_level(self) -> str:
        """The engine's level the bots play (the default when the field was left out)."""
        site = levels.by_key(self.cleaned_data.get("level") or "") or levels.default()
        return site.level


class StartForm(BotLevelForm):
    variant = forms.ChoiceField(choices=Match.Variant.choices, label=gettext_lazy("Variant"))
    seat = forms.ChoiceField(choices=SEAT_CHOICES, initial="random",
                             label=gettext_lazy("Your seat"))
    hands = forms.IntegerField(min_value=1, max_value=MAX_HANDS, initial=4,
                               label=pgettext_lazy("how many", "Hands"))
    # Optional (docs/play.md): a client that sends only the documented fields gets normal.
    speed = forms.TypedChoiceField(choices=PlayedMatch.Speed.choices, coerce=int,
                                   initial=PlayedMatch.Speed.NORMAL, required=False,
                                   empty_value=None, label=gettext_lazy("Bot speed"))
    # Optional too: the levels the engine has (replays/play/levels.py); blank gets the default.
    level = forms.ChoiceField(choices=(), required=False, label=gettext_lazy("Bots' level"))



def rules_of(variant: str, data: Any) -> dict[str, int | str | bool]:
    """The variant's rules options from the form: ``<variant>-<option>`` (the page's
    fields) or the bare option name (the JSON interface); a blank one keeps its default.
    Raise ``PlayError`` naming a bad value. A rules preset (``<variant>-preset`` or
    ``preset``, issue 29) sets the options it governs (``presets.apply``)."""
    rules: dict[str, int | str | bool] = {}
    for name, option in services.variant_options(variant).items():
        raw = data.get(f"{variant}-{name}", data.get(name))
        if isinstance(option.default, bool):
            # The form sends "off" before its checkbox, so an option on by default (SC-H5)
            # can be turned off; only a value other than the default is recorded.
            if raw is not None and _checked(raw) != option.default:
                rules[name] = _checked(raw)
            continue
        if raw is None or str(raw).strip() == "":
            continue
        if option.choices:
            rules[name] = str(raw)
            continue
        try:
            rules[name] = int(str(raw))
        except ValueError:
            raise PlayError(_("rules option %(name)s must be a whole number, not %(value)r")
                            % {"name": name, "value": str(raw)[:20]}) from None
    return presets.apply(variant, data.get(f"{variant}-preset", data.get("preset")), rules)


def _checked(raw: Any) -> bool:
    """A yes-or-no option's value from a form ("on", "off") or JSON (true, false)."""
    return raw is True or str(raw).lower() in ("on", "true", "1", "yes")


def _option_fields(data: Any = None) -> list[dict[str, Any]]:
    """Each variant's rules options as the start form shows them."""
    out = []
    for variant in NAMES:
        fields = []
        for name, option in services.variant_options(variant).items():
            key = f"{variant}-{name}"
            value = data.get(key) if data is not None else None
            kind = ("bool" if isinstance(option.default, bool)
                    else "choice" if option.choices else "int")
            if kind == "bool" and value is not None:
                value = _checked(value)
            fields.append({"key": key, "name": name, "option": option, "kind": kind,
                           "value": option.default if value is None else value})
        chosen = data.get(f"{variant}-preset") if data is not None else None
        out.append({"variant": variant, "label": Match.Variant(variant).label,
                    "fields": fields, "presets": presets.choices(variant, chosen),
                    "governed": presets.governed(variant)})
    return out


@require_http_methods(["GET", "POST"])
@vary_on_headers("HX-Request")
def index(request: HtmxHttpRequest) -> HttpResponse:
    """The start form and the visitor's matches; POST starts one and goes to its table."""
    error = ""
    form = StartForm(request.POST or None)
    if request.method == "POST":
        try:
            _count_start(request)
        except limits.RateLimited as limited:
            return limits.retry_after(_start_page(request, form, str(limited), 429), limited)
        if form.is_valid():
            variant = form.cleaned_data["variant"]
            seat = form.cleaned_data["seat"]
            try:
                choice = services.StartChoice(
                    variant=variant, seat=None if seat == "random" else int(seat),
                    hands=form.cleaned_data["hands"], rules=rules_of(variant, request.POST),
                    speed=PlayedMatch.Speed.NORMAL if form.cleaned_data["speed"] is None
                    else form.cleaned_data["speed"], level=form.chosen_level())
                row = services.start(request, choice)
            except PlayError as refused:
                error = refusal(None, message_of(refused))
            except services.TooManyOpen as capped:
                _refund_start(request)
                return _start_page(request, form, str(capped), 409)
            else:
                return redirect(row.get_absolute_url())
        _refund_start(request)  # nothing was started
        return _start_page(request, form, error, 400)
    return _start_page(request, form, error, 200)


def _count_start(request: HtmxHttpRequest) -> None:
    """Count a start against the visitor's address and account (RateLimited past either)."""
    limits.check("play-start-visitor", limits.address_group(request))
    if request.user.is_authenticated:
        limits.check("play-start-account", f"user:{request.user.pk}")


def _refund_start(request: HtmxHttpRequest) -> None:
    """A start refused for its form or a cap started nothing: it doesn't count."""
    limits.refund("play-start-visitor", limits.address_group(request))
    if request.user.is_authenticated:
        limits.refund("play-start-account", f"user:{request.user.pk}")


def _start_page(request: HtmxHttpRequest, form: StartForm, error: str,
                status: int) -> HttpResponse:
    """The start page, or a refusal to start: JSON for a JSON caller, the start form's
    fragment for htmx, the page otherwise (the refusal's sentence above the form)."""
    if status >= 400 and _wants_json(request):
        message = error or _("the start form is not valid: %(errors)s") % {
            "errors": "; ".join(f"{field}: {' '.join(str(e) for e in errors)}"
                                for field, errors in form.errors.items())}
        return _json({"error": {"rule": None, "message": message}}, status=status)
    rows = list(services.mine(request)[:50])
    context = {
        "form": form, "error": error, "options": _option_fields(request.POST or None),
        "playing": [r for r in rows if not r.over], "finished": [r for r in rows if r.over],
        "puzzles_consent": services.puzzles_consent(request.user),
        "max_open": settings.PLAY_MAX_OPEN_MATCHES,
    }
    template = ("play/index.html#start" if request.method == "POST" and wants_fragment(request)
                else "play/index.html")
    return render(request, template, context, status=status)


def _wants_json(request: HtmxHttpRequest) -> bool:
    """A JSON caller: it sent JSON, or it accepts JSON and not a page."""
    return _is_json(request) or (request.accepts("application/json")
                                 and not request.accepts("text/html"))


@require_GET
def bots_page(request: HtmxHttpRequest) -> HttpResponse:
    """``/bots/``: what each level does and the arena's published figures per variant."""
    return render(request, "play/bots.html", bots.context())


@require_POST
@login_required
def puzzles_consent(request: HtmxHttpRequest) -> HttpResponse:
    """The player's choice (the checkbox ``consent``): may the site make puzzles from their
    finished played matches? Off by default; off again hides the puzzles made of them."""
    allowed = request.POST.get("consent") == "on"
    changed = services.set_puzzles_consent(request.user, allowed)
    if allowed:
        text = (_("Puzzles will be made from your finished matches (your own seat only).")
                if changed else _("Puzzles are already made from your finished matches."))
    else:
        text = (_("No more puzzles will be made from your matches, and those already made "
                  "are off the site.") if changed
                else _("No puzzles are made from your matches."))
    messages.success(request, text)
    return redirect(reverse("play") + "#puzzle-consent")


@vary_on_headers("HX-Request")
@require_GET
def table_page(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """The table from the player's seat; reloading resumes where they were."""
    row = services.owned(request, public_id)
    match = services.restored(row)
    context = table.context(request, row, match)
    template = "play/table.html#table" if wants_fragment(request) else "play/table.html"
    response = render(request, template, context)
    response["Cache-Control"] = "no-store"
    return response


@require_GET
def state(request: HtmxHttpRequest, public_id: str) -> JsonResponse:
    row = services.owned(request, public_id)
    match = services.restored(row)
    return _json(services.state_json(row, match, _replay_url(row)))


def _replay_url(row: PlayedMatch) -> str | None:
    return reverse("viewer", args=[row.replay.public_id]) if row.replay is not None else None


def _json(data: Any, status: int = 200) -> JsonResponse:
    response = JsonResponse(data, status=status, json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "no-store"
    return response


def _is_json(request: HtmxHttpRequest) -> bool:
    return request.content_type == "application/json"


def _answer(request: HtmxHttpRequest) -> tuple[int, Any]:
    """The step and the action of a POST: a JSON body, or the table's form (``step`` and
    ``action``, the action as JSON text in the button's value)."""
    if _is_json(request):
        body = _json_of(request.body or b"null", _(
            "the body is not JSON: send {\"step\": N, \"action\": {…}}"))
        if not isinstance(body, dict):
            raise PlayError(_("the body must be an object: {\"step\": N, \"action\": {…}}"))
        return _step_of(body.get("step")), body.get("action")
    if "action" not in request.POST and request.POST.get("confirm") == "exchange":
        action: Any = exchange_action(request.POST.getlist("exchange"))
    else:
        action = _json_of(request.POST.get("action", ""), _("the action is not JSON"))
    step_text = request.POST.get("step", "")
    return _step_of(int(step_text) if step_text.isascii() and step_text.isdigit()
                    else step_text), action


def exchange_action(tiles: list[str]) -> dict[str, Any]:
    """The table's 换三张 form (SC-H1): the ticked tiles (``exchange``, a checkbox each) as
    the action; anything but three is refused at once, naming the rule."""
    if len(tiles) != 3:
        raise PlayError(_("tick three tiles of one suit to pass, not %(n)d (SC-H1)")
                        % {"n": len(tiles)})
    return {"type": "exchange", "tiles": [str(t)[:4] for t in tiles]}


def _json_of(text: str | bytes, unreadable: str) -> Any:
    """Parsed JSON, or ``PlayError``: ``unreadable`` for text that isn't JSON, and a
    sentence of its own for nesting deeper than Python's parser goes (a 400, never a 500)."""
    try:
        return json.loads(text)
    except RecursionError:
        raise PlayError(_("the JSON is nested too deeply: an action is an object of a few "
                          "fields")) from None
    except ValueError:
        raise PlayError(unreadable) from None


def _step_of(value: Any) -> int:
    """The answered step: a whole number (the state's ``step``); anything else is named as
    a bad field, not taken for a stale step."""
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise PlayError(_("\"step\" must be a whole number, the state's \"step\" (like 12), "
                          "not %(value)s") % {"value": json.dumps(value)[:20]})
    return value


@require_POST
def act(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """Answer the current decision: JSON in, JSON out; or the table's form (redirect, or
    with htmx the table's fragment)."""
    services.owned(request, public_id)  # 404 before anything else for another's match
    try:
        step, action = _answer(request)
        row, match, entries = services.act(request, public_id, step, action)
    except StaleStep as stale:
        return _refused(request, public_id, 409, None, stale.message)
    except IllegalAction as illegal:
        return _refused(request, public_id, 400, illegal.rule, illegal.message)
    except PlayError as bad:
        return _refused(request, public_id, 400, None, str(bad))
    if _is_json(request):
        data = services.state_json(row, match, _replay_url(row))
        data["entries"] = entries
        return _json(data)
    if wants_fragment(request):
        response = render(request, "play/table.html#table", table.context(request, row, match))
        response["Cache-Control"] = "no-store"
        return response
    return redirect(row.get_absolute_url())


@require_POST
def keep(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """A signed-in player asks for a match they left to be kept and analysed (a left match
    is neither, unless asked: issue 24). Paid from their upload budgets as an upload; a
    refusal names the budget (429 with ``Retry-After``) or the storage quota (409)."""
    row = services.owned(request, public_id)  # 404 before anything else for another's
    if not request.user.is_authenticated:
        return _refused(request, public_id, 403, None, _(
            "Sign in to keep and analyse a match you left: matches played without an "
            "account are not analysed once left."))
    try:
        row = services.keep_left(request, public_id)
    except limits.RateLimited as spent:
        return limits.retry_after(_refused(request, public_id, 429, None, str(spent)), spent)
    except services.NotLeft as not_left:
        return _refused(request, public_id, 409, None, str(not_left))
    except UploadError as error:
        return _refused(request, public_id, 409, None, engine_refusal(error.message))
    if _is_json(request):
        match = services.restored(row)
        return _json(services.state_json(row, match, _replay_url(row)))
    messages.success(request, _("The match is kept: its analysis has started."))
    return redirect(row.get_absolute_url())


def _refused(request: HtmxHttpRequest, public_id: str, status: int, rule: str | None,
             message: str) -> HttpResponse:
    if _is_json(request):
        return _json({"error": {"rule": rule, "message": message}}, status=status)
    row = services.owned(request, public_id)
    context = table.context(request, row, services.restored(row))
    context["refusal"] = refusal(rule, message)
    template = "play/table.html#table" if wants_fragment(request) else "play/table.html"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "POST"])
def leave(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """"Leave this match": a confirmation saying what leaving costs under the match's rules,
    then (POST) the leave; the match is over, stored, and no longer in progress."""
    row = services.owned(request, public_id)
    if row.over:
        if request.method == "POST":
            return _refused(request, public_id, 409, None, _("This match is over already."))
        return redirect(row.get_absolute_url())
    if request.method == "POST":
        try:
            row, match = services.leave(request, public_id)
        except IllegalAction as illegal:
            if _is_json(request):
                return _json({"error": {"rule": illegal.rule, "message": illegal.message}},
                             status=400)
            return _leave_page(request, row, refusal(illegal.rule, illegal.message), 400)
        if _is_json(request):
            return _json(services.state_json(row, match, _replay_url(row)))
        messages.info(request, _("You left the match."))
        return redirect(row.get_absolute_url())
    return _leave_page(request, row, "", 200)


def _leave_page(request: HtmxHttpRequest, row: PlayedMatch, error: str,
                status: int) -> HttpResponse:
    """The confirmation: the terms, and what leaving now costs in amounts; when leaving is
    refused now, the refusal instead of the button."""
    rules = dict(row.state.get("log", {}).get("rules") or {})
    cost = services.leave_cost(services.restored(row))
    refused = cost["refused"]
    if refused is not None and not error:
        error = refusal(refused.rule, refused.message)
    response = render(request, "play/leave.html", {
        "row": row, "error": error, "terms": services.leave_terms(row.variant, rules),
        "cost": cost}, status=status)
    response["Cache-Control"] = "no-store"
    return response


HINTS: OrderedDict[tuple[int, str, int], dict[str, Any]] = OrderedDict()
"""The latest hints by (row, commitment, step): showing the hint again for the same decision
(a reload, the language switched) costs nothing and is not counted."""
HINTS_KEPT = 128


def _valued_hint(request: HtmxHttpRequest, row: PlayedMatch, match: Any) -> dict[str, Any]:
    """The current decision's valued hint, kept per step; a new one is counted against
    the visitor's hint limit first (``RATE_PLAY_HINTS_PER_VISITOR``)."""
    key = (row.pk, row.commitment, row.step)
    kept = HINTS.get(key)
    if kept is not None:
        HINTS.move_to_end(key)
        return kept
    limits.check("play-hint-visitor", limits.address_group(request))
    hint: dict[str, Any] = match.valued_hint(
        solo_samples=settings.PLAY_HINT_SOLO_SAMPLES,
        table_samples=settings.PLAY_HINT_TABLE_SAMPLES,
        max_playouts=settings.PLAY_HINT_MAX_PLAYOUTS)
    HINTS[key] = hint
    while len(HINTS) > HINTS_KEPT:
        HINTS.popitem(last=False)
    return hint


@vary_on_headers("HX-Request")
@require_http_methods(["GET", "POST"])
def hint(request: HtmxHttpRequest, public_id: str) -> HttpResponse:
    """``GET``: the table with the hint for the current decision open — its choices valued
    as the review values them (docs/play.md, "The hint"), computed on this request only.
    ``POST hint=on`` (the former switch) leads there; ``hint=off`` back to the table."""
    row = services.owned(request, public_id)
    if request.method == "POST":
        if request.POST.get("hint") == "on":
            return redirect(reverse("play_hint", args=[public_id]))
        return redirect(row.get_absolute_url())
    match = services.restored(row)
    template = "play/table.html#table" if wants_fragment(request) else "play/table.html"
    if match.over or match.pending is None:
        response = render(request, template, table.context(request, row, match))
    else:
        try:
            valued = _valued_hint(request, row, match)
        except limits.RateLimited as limited:
            context = table.context(request, row, match)
            context["refusal"] = str(limited)
            response = limits.retry_after(render(request, template, context, status=429),
                                          limited)
        else:
            response = render(request, template, table.context(request, row, match, valued))
    response["Cache-Control"] = "no-store"
    return response
