"""``/score/``: the scorer's page, its fragment for htmx, its service worker and manifest.

The page is a GET form: its state is the query string, so it works without JavaScript (a
tap loads the next page, redirected to the state's clean link) and every result is a link;
htmx swaps the form in place and pushes that link (docs/scorer.md).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.http import HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from games.core.position import FLAGS
from games.core.readers import BANK_ITEMS
from games.core.tiles import TILES
from games.variants.registry import NAMES, VARIANTS
from replays.htmx import HtmxHttpRequest, wants_fragment
from replays.matches.board import TileView, banked_fans
from replays.models import Match
from replays.scorer import results
from replays.scorer.options import changed_rules, option_fields, presets
from replays.scorer.state import WINDS, State, meld_tiles, tiles_of
from replays.tile_names import suit_name, wildcard_name

SHELL_VERSION = "2"
"""Bump to make installed service workers fetch the page's files again."""


@require_GET
@vary_on_headers("HX-Request")
def score(request: HtmxHttpRequest) -> HttpResponse:
    """The scorer: read the state, apply a tap, show the result (the state's link is the page)."""
    data = request.GET
    state = State.read(data)
    if "applied" in data and data.get("applied") != state.preset:
        state = replace(state, rules={})  # a preset just picked: its rules, not the old fields
    state = replace(state.tapped(data), rules=changed_rules(state))
    link = f"{reverse('score')}?{state.query()}"
    if not wants_fragment(request) and data and dict(data.lists()) != dict(
            QueryDict(state.query()).lists()):
        return redirect(link)
    answer = results.answer(state)
    template = "scorer/_scorer.html" if wants_fragment(request) else "scorer/page.html"
    response = render(request, template, _context(state, answer), status=answer.status)
    if wants_fragment(request):
        push_url(response, link)
    return response


def _context(state: State, answer: results.Answer) -> dict[str, Any]:
    variant = state.cls
    fields = variant.SCORE_FIELDS
    used = state.used()
    hows = [("self_draw", _("Self-drawn 自摸"))]
    if variant.DISCARD_WINS:
        hows.append(("discard", _("On a discard 点炮")))
    hows += [(how, label) for how, label in (("robbing_kong", _("Robbing a kong 抢杠")),
                                              ("robbing_gold", _("Robbing the gold 抢金")))
             if how in fields]
    return {
        "state": state, "answer": answer, "variant": variant,
        "variants": [(name, Match.Variant(name).label) for name in NAMES],
        "presets": presets(state.variant), "options": option_fields(state),
        "hand": _hand(state),
        "melds": [{"index": i, "code": m, "letter": m[0],
                   "tiles": [str(t) for t in meld_tiles(m)]} for i, m in enumerate(state.melds)],
        "wild": [str(t) for t in tiles_of(state.wild)],
        "wild_label": variant.WILDCARD_LABEL, "wild_name": wildcard_name(variant),
        "keyboard": _keyboard(state, used),
        "modes": _modes(state),
        "hows": hows, "winds": _winds(),
        "flags": [(flag, _flag_label(flag)) for flag in FLAGS
                  if flag in fields and flag not in ("robbing_kong", "robbing_gold")],
        "fields": fields, "bank_items": [(item, banked_fans((item,))[0].pattern)
                                         for item in BANK_ITEMS] if "bank" in fields else [],
        "suits": [(s, suit_name(s)) for s in ("m", "p", "s")],
        "count": state.tiles_count(), "full": state.full_size,
        "link": f"{reverse('score')}?{state.query()}",
        "board_lines": {"lines": answer.lines, "seats": [{"name": p["name"]}
                                                         for p in answer.payers],
                        "variant": state.variant, "ended": True, "step": -1},
    }


def _hand(state: State) -> list[dict[str, Any]]:
    """The hand's tiles, wildcards marked, the winning tile marked once (the last of its kind)."""
    tiles = tiles_of(state.hand)
    wild = {t.kind for t in tiles_of(state.wild)}
    last = max((i for i, t in enumerate(tiles) if str(t) == state.win), default=-1)
    return [{"code": str(t), "view": TileView(t, wild=t.kind in wild, winning=i == last)}
            for i, t in enumerate(tiles)]


def _keyboard(state: State, used: dict[str, int]) -> list[dict[str, Any]]:
    """The variant's tiles in rows by suit (honours last), each with its copies left."""
    rows: dict[str, list[dict[str, Any]]] = {}
    wild = {t.kind for t in tiles_of(state.wild)}
    for kind in state.cls.tile_kinds():
        code = str(TILES[kind])
        row = code[1] if kind < 27 else "z"
        most = state.cls.WILDCARD_COPIES if kind in wild else 4  # PT-2: a gold is turned up
        rows.setdefault(row, []).append({"code": code, "full": used.get(code, 0) >= most,
                                         "view": TileView(TILES[kind], wild=kind in wild)})
    names = {"m": suit_name("m"), "p": suit_name("p"), "s": suit_name("s"), "z": _("Honours")}
    return [{"suit": suit, "name": names[suit], "tiles": tiles} for suit, tiles in rows.items()]


def _modes(state: State) -> list[tuple[str, str]]:
    variant = state.cls
    modes = [("hand", _("Hand"))]
    if variant.WILDCARD_KINDS:  # set once per hand, first
        name = wildcard_name(variant)
        modes.append(("g", name if name == variant.WILDCARD_LABEL
                       else f"{name} {variant.WILDCARD_LABEL}"))
    modes.append(("win", _("Winning tile")))
    if variant.HAS_PUNG:
        modes.append(("p", _("Pung 碰")))
    if variant.HAS_CHOW:
        modes.append(("c", _("Chow 吃")))
    if "exposed" in variant.KONG_KINDS:
        modes.append(("k", _("Kong 杠")))
    modes.append(("a", _("Concealed kong 暗杠")))
    return modes


def _winds() -> list[tuple[str, str]]:
    from replays.puzzles.kinds import wind

    return [(letter, wind(index)) for index, letter in enumerate(WINDS)]


def _flag_label(flag: str) -> str:
    return {
        "after_kong": _("On a kong's replacement tile 杠上开花"),
        "after_kong_discard": _("On the discard after a kong 杠上炮"),
        "last_tile": _("On the wall's last tile 海底"),
        "first_turn": _("Before the first discard 天和/地和"),
        "bomb": _("A bomb 炸弹 (three golds or more)"),
        "self_draw": _("Self-drawn 自摸"),
    }.get(flag, flag)


@require_GET
def service_worker(request: HtmxHttpRequest) -> HttpResponse:
    """The scorer's service worker (docs/scorer.md), scoped to /score/."""
    response = render(request, "scorer/sw.js", {
        "version": SHELL_VERSION, "page": reverse("score"),
        "files": [static(path) for path in (
            "css/site.css", "css/scorer.css", "js/site.js", "js/scorer.js", "tiles/tiles.svg", "tiles/7z.svg")],
    }, content_type="text/javascript")
    response["Service-Worker-Allowed"] = reverse("score")
    response["Cache-Control"] = "no-cache"
    return response


@require_GET
def manifest(request: HtmxHttpRequest) -> JsonResponse:
    """The web app manifest: the scorer installs as an app of its own."""
    return JsonResponse({
        "name": _("Score a mahjong hand"), "short_name": _("Score"),
        "start_url": reverse("score"), "scope": reverse("score"), "display": "standalone",
        "background_color": "#ffffff", "theme_color": "#1f5f3f",
        "icons": [{"src": static("tiles/7z.svg"), "sizes": "any", "type": "image/svg+xml"}],
    }, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


__all__ = ["VARIANTS", "manifest", "score", "service_worker"]
