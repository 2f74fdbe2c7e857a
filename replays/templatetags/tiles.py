"""``{% tile view %}``: one tile drawn with the shipped artwork.

Every face is a ``<symbol>`` of one sprite (``static/tiles/tiles.svg``, drawn by
``tools/make_tiles.py`` with its glyphs as paths), so a page costs one request for all its
tiles and needs no Chinese font; each tile is named in the reader's language for screen
readers and tooltips (:func:`tile_name`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from django import template
from django.templatetags.static import static
from django.utils.html import escape
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from replays import tile_names as tile_names_module
from replays.kept import in_each_language
from replays.markup import html
from replays.matches.board import SeatView, TileView

register = template.Library()


@register.simple_tag
def tile(view: TileView) -> SafeString:
    return _tile_html(view.code, view.wild, view.drawn, view.claimed, view.last, view.hidden,
                      view.winning, view.claimed_by)


@register.simple_tag
def tiles(views: list[TileView]) -> SafeString:
    """A row of tiles at once (one tag instead of a template loop: a board shows ~150)."""
    language = get_language() or ""  # once per row, not per tile (a thread-local lookup)
    return SafeString("".join(
        _tile_html_in(language, view.code, view.wild, view.drawn, view.claimed, view.last,
                      view.hidden, view.winning, view.claimed_by) for view in views))


@register.simple_tag
def seat_section(seat: SeatView, viewer: int | None,
                 best: dict[int, str] | None = None, danger: Any = None) -> SafeString:
    """One seat of the board: its header, concealed hand, melds and flowers; ``best`` maps
    a seat to the tile of its best-value discard at this step, marked in its hand;
    ``danger`` (a :class:`~replays.matches.danger.DangerView`) labels the tiles of the seat
    it reads with their chance of dealing in.

    Built here rather than in the template: the board is drawn on every step, and a
    template loop over four seats' dozens of flags and tiles was most of a step's cost."""
    words = _seat_words()
    classes = ["seat", f"seat-{seat.seat}", f"place-{seat.place}"]
    for flag, name in ((seat.is_dealer, "is-dealer"), (seat.is_turn, "is-turn"),
                       (seat.won or bool(seat.won_tiles), "has-won"), (seat.left, "has-left"),
                       (seat.gave_up, "gave-up"), (viewer == seat.seat, "is-viewer")):
        if flag:
            classes.append(name)
    statuses = "".join(words[status] for status, flag in (
        ("won", seat.won), ("locked", seat.locked), ("ready", seat.ready),
        ("gave up", seat.gave_up), ("left", seat.left)) if flag)
    score_class = "positive" if seat.score > 0 else "negative" if seat.score < 0 else ""
    note = html('<span class="seat-note">({})</span>', seat.note) if seat.note else ""
    # Whose turn it is, in words as well as the frame (issue 32).
    turn = words["turn"] if seat.is_turn else ""
    head = html(
        '<header class="seat-head">{}<span class="seat-name">{}</span>{}{}{}'
        '<span class="seat-score {}">{}</span>{}{}</header>',
        words["wind " + seat.wind], seat.name, turn, note,
        words["dealer"] if seat.is_dealer else "", score_class, signed(seat.score),
        words["void " + seat.void] if seat.void else "", SafeString(statuses))
    melds = html('<div class="seat-melds">{}</div>', SafeString("".join(
        html('<span class="meld tiles">{}</span>', tiles(meld))
        for meld in seat.melds))) if seat.melds else ""
    flowers = html('<div class="seat-flowers tiles">{}</div>',
                   tiles(seat.flowers)) if seat.flowers else ""
    won = html('<div class="seat-won"><span class="seat-won-label">{}</span> '
               '<span class="tiles">{}</span></div>', ngettext(
                   "won on:", "won %(n)d times, on:", len(seat.won_tiles)) % {
                       "n": len(seat.won_tiles)}, tiles(seat.won_tiles)) if seat.won_tiles else ""
    label = (_("%(name)s, to play") % {"name": seat.name}) if seat.is_turn else seat.name
    return html('<section class="{}" aria-label="{}">{}<div class="seat-hand tiles">{}'
                "</div>{}{}{}</section>", " ".join(classes), label, head,
                _hand_html(seat.hand, best.get(seat.seat) if best else None,
                           danger if danger is not None and danger.seat == seat.seat else None),
                melds, won, flowers)


@in_each_language(at_most=16)
def _seat_words() -> dict[str, SafeString]:
    """A seat header's fixed pieces in the reader's language."""
    words = {f"wind {wind}": html('<span class="seat-wind" title="{}">{}</span>',
                                  _("seat wind: %(w)s") % {
                                      "w": tile_names_module.wind_name(wind)},
                                  tile_names_module.wind_letter(wind)) for wind in "ESWN"}
    words.update({f"void {suit}": html('<span class="seat-void">{}</span>', _("void %(v)s") % {
        "v": tile_names_module.suit_name(suit)}) for suit in "mps"})
    words["locked"] = html('<span class="seat-status seat-locked" title="{}">{}</span>',
                           _("a winner playing on: each tile drawn is discarded unless it wins "
                             "again (SC-H2)"), _("locked hand"))
    words["turn"] = html('<span class="visually-hidden"> ({})</span>', _("to play"))
    for key, text in (("dealer", _("dealer")), ("won", _("won")), ("ready", _("ready")),
                      ("gave up", _("gave up")), ("left", _("left"))):
        words[key] = html('<span class="seat-status">{}</span>', text)
    return words


def _hand_html(views: list[TileView], best: str | None, danger: Any = None) -> SafeString:
    """A concealed hand's tiles, the first face-up tile of kind ``best`` marked ★ as the
    best-value discard (a class and a hidden label added to its cached look); with
    ``danger``, each tile labelled with its chance of dealing in."""
    if danger is not None and danger.tiles:
        return _danger_hand_html(views, best, danger)
    at = None if best is None else next(
        (i for i, v in enumerate(views) if v.code == best and not v.hidden), None)
    if at is None:
        return tiles(views)
    view = views[at]
    plain = _tile_html(view.code, view.wild, view.drawn, view.claimed, view.last, view.hidden,
                       view.winning)
    marked = (plain[:-len("</span>")].replace('class="tile', 'class="tile is-best-value', 1)
              + f'<span class="visually-hidden"> ({escape(_("Best by value"))})</span></span>')
    return SafeString(tiles(views[:at]) + marked + tiles(views[at + 1:]))


def _danger_hand_html(views: list[TileView], best: str | None, danger: Any) -> SafeString:
    parts = []
    for view in views:
        label = danger.tiles.get(view.code) if not view.hidden else None
        tile = _hand_html([view], best)
        if label is None:
            parts.append(tile)
            continue
        parts.append(html('<span class="danger-tile danger-{}" title="{}">{}'
                          '<span class="danger-pct">{}</span></span>', label.level,
                          label.detail, tile, label.text))
        if best == view.code:
            best = None  # the first tile of the kind carries the mark
    return SafeString("".join(parts))


@register.simple_tag
def seat_river(seat: SeatView) -> SafeString:
    """A seat's discards in the table's centre, labelled with the seat."""
    return html(
        '<div class="seat-river river-{}" data-seat="{}" role="group" aria-label="{}">'
        '<span class="river-name">{}</span><div class="river-tiles tiles">{}</div></div>',
        seat.place, seat.seat, _("%(name)s's discards") % {"name": seat.name}, seat.name,
        tiles(seat.river))


def _tile_html(code: str, wild: bool, drawn: bool, claimed: bool, last: bool,
               hidden: bool, winning: bool = False, claimed_by: str = "") -> SafeString:
    return _tile_html_in(get_language() or "", code, wild, drawn, claimed, last, hidden,
                         winning, claimed_by)


@lru_cache(maxsize=4096)
def _tile_html_in(language: str, code: str, wild: bool, drawn: bool, claimed: bool, last: bool,
                  hidden: bool, winning: bool = False, claimed_by: str = "") -> SafeString:
    # A board holds ~150 tiles of ~40 distinct looks: build each look once per language.
    classes = ["tile"]
    for flag, name in ((wild, "is-wild"), (drawn, "is-drawn"), (claimed, "is-claimed"),
                       (last, "is-last"), (hidden, "is-hidden"), (winning, "is-winning")):
        if flag:
            classes.append(name)
    sprite = static("tiles/tiles.svg")
    if hidden:  # a face-down tile names nothing but what it is
        return html(
            '<span class="{}" data-tile="back"><svg viewBox="0 0 60 80" width="40" height="54" '
            'role="img" aria-label="{}"><use href="{}#back"></use></svg></span>',
            " ".join(classes), _("face-down tile"), sprite)
    # The name says every state the face shows (issue 32): "5 Dots, wildcard, last discard".
    name = tile_names_module.tile_label(code, wild=wild, drawn=drawn, last=last,
                                        claimed=claimed, winning=winning, claimed_by=claimed_by)
    return html(
        '<span class="{}" data-tile="{}" title="{}"><svg viewBox="0 0 60 80" width="40" '
        'height="54" role="img" aria-label="{}"><use href="{}#{}"></use></svg></span>',
        " ".join(classes), code, name, name, sprite, code)


@register.filter
def tile_name(code: str) -> str:
    """A tile's name in the reader's language, from its notation (see replays.tile_names)."""
    return tile_names_module.tile_name(code)


@register.filter
def tile_names(codes: str) -> str:
    """Tiles in notation (``123m 55z``) as names in the reader's language."""
    return tile_names_module.tile_names(codes)


@register.filter
def suit_name(letter: str) -> str:
    """A suit letter (m, p, s) as the suit's name in the reader's language."""
    return tile_names_module.suit_name(letter)


@register.filter
def wind_name(letter: str) -> str:
    """A wind letter (E, S, W, N) as the wind's name in the reader's language."""
    return tile_names_module.wind_name(letter)


@register.filter
def wind_letter(letter: str) -> str:
    """A wind letter as the seat badge's one character in the reader's language (东, E)."""
    return tile_names_module.wind_letter(letter)


def _reads_chinese() -> bool:
    return (get_language() or "").lower().startswith("zh")


@register.filter
def gloss(pattern: Any) -> str:
    """A pattern's English gloss, for readers of English only: a Chinese page names the
    pattern by its Chinese name alone (the gloss is the engine's English, not translated)."""
    if _reads_chinese():
        return ""
    return str(pattern.get("en", "") if isinstance(pattern, dict) else getattr(pattern, "en", ""))


@register.filter
def rule_links(text: str, anchors: frozenset[str]) -> SafeString:
    """Every rule id in the text a link to its place on the rules page."""
    from replays.library.rules_guide import link_rule_ids

    return link_rule_ids(text, anchors)


@register.filter
def book_anchor(rule: str, anchors: frozenset[str]) -> str:
    """The anchor a rule id of the rule book links to: its own, or its row's or section's."""
    from replays.library.rules_guide import anchor_for

    return anchor_for(rule, anchors)


@register.filter
def rule_href(rule: str, variant: str | None = None) -> str:
    """The address of a rule id on the rules pages (the variant's page for a common id):
    always an anchor the page has (``rules_guide.rule_href``)."""
    from replays.library.rules_guide import rule_href as href

    return href(str(rule), str(variant) if variant else None)


@register.filter
def rule_links_to(text: str, variant: str | None = None) -> SafeString:
    """Every rule id in a sentence a link to its anchor on the rules pages (a common id such as
    C-6 to the given variant's page)."""
    from replays.library.rules_guide import link_rules_anywhere

    return link_rules_anywhere(str(text), str(variant) if variant else None)


@register.filter
def hit_value(hit: Any) -> str:
    """What a pattern adds to a win, with how many times it counts: ``+2 tai``, and for a
    pattern counted several times the count first and the total after (``×2: +2 fan`` for two
    根 of 1 fan each; ``×4: +5 points`` for four laid-out whites), never a count that reads as
    a multiplier of the total. Nothing for a pattern that adds nothing by itself (天胡).

    >>> hit_value({"id": "SC-5.14", "fan": 2, "count": 2})
    '×2: +2 fan'
    >>> hit_value({"id": "JX-6.5", "tai": 1}), hit_value({"id": "PT-5.4", "points": 0})
    ('+1 tai', '')
    """
    if isinstance(hit, dict):
        unit_key = next((k for k in ("tai", "fan", "points") if k in hit), "points")
        value, count = int(hit.get(unit_key) or 0), int(hit.get("count") or 1)
    else:
        unit_key, value, count = hit.pattern.unit, hit.value, hit.times
    if not value:
        return ""
    numbers = {"value": value, "unit": unit(unit_key), "count": count}
    if count > 1:
        return _("×%(count)s: +%(value)s %(unit)s") % numbers
    if unit_key == "points":
        return ngettext("+%(value)s point", "+%(value)s points", value) % numbers
    return f"+{value} {numbers['unit']}"


@register.filter
def engine_text(text: str) -> str:
    """A sentence of the engine's (a rule's note, an option's meaning, a refusal) in the
    reader's language, where the site's catalogue has it."""
    from replays.matches.engine_text import translate

    return translate(str(text))


@register.filter
def english_gloss(text: str) -> str:
    """An English gloss of a Chinese name, for readers of English only."""
    return "" if _reads_chinese() else str(text)


@register.filter
def unit(name: str) -> str:
    """A pattern's unit in the reader's language."""
    return _units().get(name, name)


@in_each_language(at_most=16)
def _units() -> dict[str, str]:
    return {"tai": _("tai"), "fan": _("fan"), "points": _("points")}


@register.filter
def score_value(score: dict[str, Any] | None) -> str:
    """A win's value in the variant's own terms: points, with the tai and fan they come
    from where the variant counts them (Jiaxing JX-5.1: base × tai × 2^fan; Sichuan fan).

    >>> score_value({"tai": 2, "fan": 1, "points": 4})
    '4 points (2 tai, 1 fan)'
    >>> score_value({"points": 8})
    '8 points'
    """
    if not score:
        return ""
    terms = [f"{score[name]} {unit(name)}" for name in ("tai", "fan") if name in score]
    points = _("%(points)s points") % {"points": score.get("points", 0)}
    if not terms:
        return points
    return pgettext("a score", "%(points)s (%(terms)s)") % {
        "points": points, "terms": pgettext("between terms", ", ").join(terms)}


@register.filter
def score_title(score: dict[str, Any] | None) -> str:
    """Each pattern of a win with its rule id and value, then the reading, for a tooltip.

    >>> score_title({"patterns": [{"id": "JX-6.7", "name": "混一色", "en": "half flush",
    ...              "tai": 2}], "reading": "234s 55s"})
    'JX-6.7 混一色 half flush 2 tai · 234s 55s'
    """
    if not score:
        return ""
    parts = []
    for pattern in score.get("patterns", []):
        value = next((f" {pattern[name]} {unit(name)}" for name in ("tai", "fan", "points")
                      if name in pattern), "")
        english = "" if _reads_chinese() else f" {pattern.get('en', '')}"
        parts.append(f"{pattern.get('id', '')} {pattern.get('name', '')}{english}{value}")
    if score.get("reading"):
        parts.append(str(score["reading"]))
    return " · ".join(parts)


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


@register.simple_tag
def tile_code(code: str) -> SafeString:
    """A tile from its notation (annotation data stores tiles as text)."""
    return _tile_html(code, False, False, False, False, False)


@register.filter
def seat_name(seat: int, board: object) -> str:
    seats = getattr(board, "seats", [])
    return str(seats[seat].name) if 0 <= seat < len(seats) else str(seat)


@register.filter
def action_text(action: dict[str, object]) -> str:
    """An alternative in words (the annotation stores it as a log event)."""
    tiles = action.get("tiles")
    return _action_text(
        str(action.get("type")), str(action.get("tile", "")),
        tuple(str(t) for t in tiles) if isinstance(tiles, list) else (),
        str(action.get("suit", "")), action.get("choice") == "give_up")


@in_each_language(at_most=1024)
def _action_text(kind: str, code: str, shown_codes: tuple[str, ...], suit: str,
                 gives_up: bool) -> str:
    tile = tile_names_module.tile_name(code)
    if kind == "discard":
        return _("discard %(tile)s") % {"tile": tile}
    if kind == "pass":
        return _("pass")
    if kind == "hu":
        return _("win on %(tile)s") % {"tile": tile}
    if kind == "peng":
        return _("pung %(tile)s") % {"tile": tile}
    if kind == "chi":
        shown = pgettext("between tile names", " ").join(
            tile_names_module.tile_name(t) for t in shown_codes)
        return _("chow %(tile)s with %(shown)s") % {"tile": tile, "shown": shown}
    if kind == "gang":
        return _("kong %(tile)s") % {"tile": tile}
    if kind == "ready":
        return _("declare ready")
    if kind == "flower":
        return _("lay out a white")
    if kind == "dingque":
        return _("void %(suit)s") % {"suit": tile_names_module.suit_name(suit)}
    if kind == "exchange":
        passed = pgettext("between tile names", " ").join(
            tile_names_module.tile_name(t) for t in shown_codes)
        return _("pass on %(tiles)s (换三张)") % {"tiles": passed}
    if kind == "contract":
        return _("give up") if gives_up else _("persist")
    if kind == "exchange":
        shown = pgettext("between tile names", " ").join(
            tile_names_module.tile_name(t) for t in shown_codes)
        return _("pass %(tiles)s (换三张)") % {"tiles": shown}
    return kind


@register.filter
def loss_text(loss: dict[str, Any] | None) -> str:
    """What a choice loses against the engine's first choice, with its size, in words."""
    if not loss:
        return ""
    size = int(loss["size"])
    kind = loss["kind"]
    if kind == "missed_win":
        return ngettext("a win worth %(n)d point missed", "a win worth %(n)d points missed",
                        size) % {"n": size}
    if kind == "points":
        return ngettext("a win worth %(n)d point less", "a win worth %(n)d points less",
                        size) % {"n": size}
    if kind == "shanten":
        return ngettext("%(n)d step further from ready", "%(n)d steps further from ready",
                        size) % {"n": size}
    if kind == "accepted":
        return ngettext("%(n)d tile fewer to improve the hand (%(actual)d against %(best)d)",
                        "%(n)d tiles fewer to improve the hand (%(actual)d against %(best)d)",
                        size) % {"n": size, "actual": loss.get("actual", 0),
                                 "best": loss.get("best", 0)}
    if kind == "wait_value":
        return ngettext("a wait worth %(n)d point less", "a wait worth %(n)d points less",
                        size) % {"n": size}
    return ""


@register.filter
def decision_kind(kind: str) -> str:
    """A decision point's kind in the reader's language."""
    return {"turn": _("turn"), "claim": _("claim"), "rob_kong": _("robbing a kong"),
            "dingque": _("void suit"), "exchange": _("three tiles passed on, 换三张"),
            "contract": _("contract")}.get(kind, kind)


@register.simple_tag
def reading_tiles(reading: str | None) -> SafeString:
    """The engine's reading (``123p 456p 11z [777p]``) as its sets of tile faces, each set a
    group; a set in brackets is a declared meld (shown apart and named so); text that isn't
    tile notation is shown as it was."""
    from games.core.tiles import parse_tiles

    if not reading:
        return SafeString("")
    groups: list[SafeString] = []
    for group in str(reading).split():
        melded = group.startswith("[") and group.endswith("]")
        notation = group[1:-1] if melded else group
        try:
            faces = SafeString("".join(_tile_html(str(t), False, False, False, False, False)
                                       for t in parse_tiles(notation)))
        except ValueError:
            faces = SafeString(html("{}", group))
        groups.append(html('<span class="reading-set tiles is-meld" title="{}">{}</span>',
                           _("declared meld"), faces) if melded else
                      html('<span class="reading-set tiles">{}</span>', faces))
    return SafeString("".join(groups))
