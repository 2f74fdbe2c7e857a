"""The values pass in words: a mistake's explanation, translated (docs/analysis.md)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import get_language, ngettext, pgettext
from django.utils.translation import gettext as _

from replays.kept import Kept, in_each_language
from replays.markup import html
from replays.templatetags.tiles import action_text, score_title, score_value, tile_code, tile_name

register = template.Library()


# The values pass's explanation ids (games/analysis/value_pass.py, docs/analysis.md).
EXPLANATION_IDS = ("lower_value", "missed_win", "more_shanten", "fewer_tiles",
                   "nearer_but_narrower", "cheaper_wait", "wildcard_spent", "void_suit",
                   "contract", "play_on", "flower_pig", "claim")


@register.filter
def explanation(found: dict[str, Any] | None) -> str:
    """The "why" of an explanation alone (no rows to compare): its verdict in numbers and
    its shape part. :func:`why` says more where the decision's rows are at hand."""
    if not found:
        return ""
    return why({"explanation": found, "alternatives": []})


@register.filter
def why(values: dict[str, Any] | None) -> str:
    """Why the choice made was worth less than the best, from the numbers that decide
    (issue 27): the expected points, the win chance (named as the same when it is), in the
    table model where the points went (the payment cause that differs most), then the
    shape as the explanation beside — never a second verdict. Every figure is one the table
    shows; no "X against Y" is said of two equal figures."""
    found = values.get("explanation") if values else None
    if not values or not found:
        return ""
    params = dict(found["params"])
    best, actual = action_text(params["best"]), action_text(params["actual"])
    kind = found["id"]
    if kind == "play_on":
        return _play_on(params, best, actual)
    parts = [_points_part(params, best, actual), _win_part(params)]
    rows = {row["index"]: row for row in values.get("alternatives", [])}
    mine, theirs = rows.get(values.get("actual", -1)), rows.get(values.get("best", -1))
    if kind == "flower_pig":
        parts.append(_("You still held a tile of your void suit when the wall ran out in "
                       "%(pig_actual)s%% of the redeals (%(pig_best)s%% with %(best)s): a 花猪 "
                       "pays every other player still in the cap (查花猪, SC-6.4a), "
                       "%(pig_cost)s points of the loss on average.")
                     % dict(params, best=best))
    elif mine is not None and theirs is not None:
        parts.append(_where_part(mine, theirs))
    parts.append(_shape_part(kind, params, best, actual))
    return _joined(parts)


def _joined(parts: list[str]) -> str:
    """Sentences one after another: with a space in English, none in Chinese."""
    joiner = "" if (get_language() or "").startswith("zh") else " "
    return joiner.join(part for part in parts if part)


def _signed(value: float) -> str:
    """A net amount with its sign: +1.25, −0.50, 0.00."""
    shown = f"{abs(value):.2f}"
    if shown == "0.00":
        return shown
    return ("+" if value > 0 else "−") + shown


def _points_part(params: dict[str, Any], best: str, actual: str) -> str:
    names = {"best": best, "actual": actual, "mine": points(params["points_actual"]),
             "theirs": points(params["points_best"]), "loss": points(params["loss"])}
    if names["mine"] == names["theirs"] or names["loss"] == "0.00":
        return _("%(actual)s instead of %(best)s: slightly fewer points expected (%(mine)s).") \
            % names
    return _("%(actual)s instead of %(best)s: %(mine)s points expected, %(loss)s fewer than "
             "with %(best)s (%(theirs)s).") % names


def _win_part(params: dict[str, Any]) -> str:
    mine, theirs = f"{params['win_actual']:.1f}", f"{params['win_best']:.1f}"
    if mine == theirs:
        return _("The win chance is the same (%(win)s%%): the difference is in what the hand "
                 "pays and is paid, not in winning.") % {"win": mine}
    return _("Win chance %(mine)s%% against %(theirs)s%%.") % {"mine": mine, "theirs": theirs}


def _cause_name(cause: str) -> str:
    return {"win": _("payments for wins (yours and the others')"),
            "not_ready": _("查叫 at the wall's end (SC-6.4b)"),
            "flower_pig": _("花猪 payments (SC-6.4a)"), "kong": _("kong payments"),
            "refund": _("kong refunds"), "flowers": _("flower payments (PT-7.4)"),
            "leave": _("payments for leaving the table (SC-6.6)"),
            "call_transfer": _("call transfers (呼叫转移, SC-H3)")}.get(
                cause, _("other payments"))


def _where_part(mine: dict[str, Any], theirs: dict[str, Any]) -> str:
    """The payment cause (table model) whose mean net differs most between the two rows,
    when it accounts for a visible part of the difference."""
    mine_causes, their_causes = mine.get("causes") or {}, theirs.get("causes") or {}
    gaps = {cause: (their_causes.get(cause, [0.0, 0.0, 0.0])[2]
                    - mine_causes.get(cause, [0.0, 0.0, 0.0])[2])
            for cause in set(mine_causes) | set(their_causes)}
    if not gaps:
        return ""
    cause = max(sorted(gaps), key=lambda c: gaps[c])
    if round(gaps[cause], 2) <= 0:
        return ""
    mine_row = mine_causes.get(cause, [0.0, 0.0, 0.0])
    their_row = their_causes.get(cause, [0.0, 0.0, 0.0])
    sentence = _("The biggest difference is in %(what)s: %(mine)s points on average against "
                 "%(theirs)s.") % {"what": _cause_name(cause), "mine": _signed(mine_row[2]),
                                    "theirs": _signed(their_row[2])}
    paid_mine, paid_theirs = f"{100 * mine_row[1]:.1f}", f"{100 * their_row[1]:.1f}"
    if cause == "win" and paid_mine != paid_theirs:
        sentence = _joined([sentence, _(
            "You paid for another player's win in %(mine)s%% of the redeals against "
            "%(theirs)s%%.") % {"mine": paid_mine, "theirs": paid_theirs}])
    return sentence


def _shape_part(kind: str, params: dict[str, Any], best: str, actual: str) -> str:
    """The shape beside the value: what the annotation measures, as the explanation."""
    names = dict(params, best=best, actual=actual)
    if kind == "missed_win":
        won = int(params.get("win_points", 0))
        return ngettext("%(best)s wins now, for %(n)s point.", "%(best)s wins now, for %(n)s "
                        "points.", won) % dict(names, n=won)
    if kind == "more_shanten":
        steps = int(params.get("steps", 1))
        return ngettext("By shape, %(actual)s leaves the hand %(n)s step further from ready "
                        "than %(best)s.", "By shape, %(actual)s leaves the hand %(n)s steps "
                        "further from ready than %(best)s.", steps) % dict(names, n=steps)
    if kind in ("fewer_tiles", "nearer_but_narrower"):
        tiles = int(params.get("tiles_actual", 0))
        if kind == "fewer_tiles":
            return ngettext(
                "By shape, %(actual)s keeps %(n)s tile that improves the hand, %(best)s keeps "
                "%(tiles_best)s.", "By shape, %(actual)s keeps %(n)s tiles that improve the "
                "hand, %(best)s keeps %(tiles_best)s.", tiles) % dict(names, n=tiles)
        return ngettext(
            "By shape, %(actual)s is a step nearer to ready but keeps only %(n)s tile that "
            "improves the hand; %(best)s keeps %(tiles_best)s.", "By shape, %(actual)s is a "
            "step nearer to ready but keeps only %(n)s tiles that improve the hand; %(best)s "
            "keeps %(tiles_best)s.", tiles) % dict(names, n=tiles)
    if kind == "cheaper_wait":
        wait = int(params.get("wait_actual", 0))
        return ngettext("%(actual)s waits for at most %(n)s point, %(best)s for "
                        "%(wait_best)s.", "%(actual)s waits for at most %(n)s points, "
                        "%(best)s for %(wait_best)s.", wait) % dict(names, n=wait)
    if kind == "wildcard_spent":
        return _("%(actual)s throws a wildcard away; %(best)s keeps it.") % names
    if kind == "contract":
        return _("Contract answers: JX-9.")
    return ""


def _play_on(params: dict[str, Any], best: str, actual: str) -> str:
    won = int(params.get("win_points", 0))
    return _joined([ngettext(
        "%(actual)s scores %(n)s point, paid by the discarder alone (SC-6.1), and takes you "
        "out of the hand (SC-3.2).", "%(actual)s scores %(n)s points, paid by the discarder "
        "alone (SC-6.1), and takes you out of the hand (SC-3.2).", won) % {
            "actual": actual, "n": won}, _(
        "Playing on instead (SC-3.3, %(best)s) won later in %(win_best)s%% of the redeals, "
        "%(self_draw)s%% by self-draw, which every player still in pays (SC-6.2), and kept a "
        "ready hand to the wall's end that collected 查大叫 from the players not ready "
        "(SC-6.4b) in %(ready_share)s%%: %(points_best)s points on average for the hand, "
        "%(points_actual)s with the win. The redeals give the others random tiles, so they "
        "are ready less often than real players late in a hand: this favours playing on.") % (
        dict(params, best=best, points_best=points(params["points_best"]),
             points_actual=points(params["points_actual"])))])


@register.filter
def percent(value: float | None) -> str:
    """A probability as a percentage with one decimal."""
    return "" if value is None else f"{100 * value:.1f}%"


@register.filter
def severity_name(severity: str) -> str:
    """A value verdict's severity in words (the same words in the table, the heading and
    the summaries)."""
    return {"none": _("no clear loss"), "small": _("small mistake"),
            "big": _("mistake")}.get(severity, severity)


@register.filter
def points(value: float | None) -> str:
    """An amount of points with two decimals and no "−0.00"."""
    if value is None:
        return ""
    shown = f"{value:.2f}"
    return "0.00" if shown == "-0.00" else shown.replace("-", "−")


@register.filter
def values_line(row: dict[str, Any], name: str = "") -> str:
    """A seat's (or a player's) values summary in one sentence, each count with its plural
    form: decisions, the best-choice share, mistakes (big ones), points lost; with
    ``name``, the seat's name and the hands valued first."""
    decisions = int(row.get("decisions", 0))
    mistakes = int(row.get("mistakes", 0))
    parts = {
        "decisions": ngettext("%(n)s decision", "%(n)s decisions", decisions) % {
            "n": decisions},
        "share": row.get("best_share", 0),
        "mistakes": ngettext("%(n)s mistake (%(big)s big)", "%(n)s mistakes (%(big)s big)",
                             mistakes) % {"n": mistakes, "big": row.get("big", 0)},
        "lost": points(row.get("points_lost", 0.0))}
    if not name:
        return _("Over all of them: %(decisions)s, the best choice taken %(share)s%% of the "
                 "time, %(mistakes)s, %(lost)s points lost to them.") % parts
    hands = int(row.get("hands", 0))
    return _("%(name)s: %(hands)s, %(decisions)s, the best choice taken %(share)s%% of the "
             "time, %(mistakes)s, %(lost)s points lost to them.") % dict(
        parts, name=name, hands=ngettext("%(n)s hand valued", "%(n)s hands valued",
                                         hands) % {"n": hands})


@register.simple_tag
def alternative_rows(decision: dict[str, Any]) -> SafeString:
    """The rows of a decision's table of alternatives, in the one ranking's order
    (replays.annotation.value_view.rank_decision).

    Built here rather than in the template: a step shows up to a dozen alternatives, each
    with its waits, and the template's loop over them was most of a step's render time."""
    labels = _labels()
    actual, values = decision.get("actual"), decision.get("values")
    ranked_by = decision.get("ranked_by", "shape")
    return SafeString("".join(_alternative_row(alt, actual, bool(values), labels, ranked_by)
                              for alt in decision["alternatives"]))


@register.simple_tag
def alternatives_head(decision: dict[str, Any]) -> SafeString:
    """The head of a decision's table of alternatives (with the value columns when valued);
    the rank column says what ranks the rows."""
    return _head(bool(decision.get("values")), decision.get("ranked_by", "shape"))


@in_each_language(at_most=32)
def _head(valued: bool, ranked_by: str = "shape") -> SafeString:
    names = [_rank_name(ranked_by), _("Choice"), _("Shanten"), _("Accepted"), _("Waits"),
             _("With the real wall")]
    if valued:
        names += [_("Win chance"), _("Expected points"), _("Against the best")]
    return html("<thead><tr>{}</tr></thead>", SafeString("".join(
        html("<th>{}</th>", name) for name in names)))


def _rank_name(ranked_by: str) -> str:
    """The rank column's name: what ranks the rows (a card's label on phones too)."""
    return {"value": _("Rank by value"), "no_line": _("Rank by shape (no winning line)")
            }.get(ranked_by, _("Rank by shape"))


@in_each_language(at_most=16)
def _labels() -> dict[str, str]:
    """The table's fixed words in the reader's language."""
    return {"rank": _("Rank"), "shanten": _("Shanten"), "accepted": _("Accepted"),
            "waits": _("Waits"), "wall": _("With the real wall"), "win": _("Win chance"),
            "points": _("Expected points"), "against": _("Against the best"),
            "best_title": _("Best by value"), "best": _("best"), "wins": _("win"),
            "no_win": _("no win with these draws"), "not_played": _("not played out"),
            "unranked": _("not ranked"), "same": _("as good as the best"),
            "played": pgettext("the choice made at a decision", "played"),
            "cannot": _("not a choice here: no discard leaves the hand ready (PT-5.3)")}


def _alternative_row(alt: dict[str, Any], actual: int | None, valued: bool,
                     labels: dict[str, str], ranked_by: str = "shape") -> SafeString:
    is_actual = alt["index"] == actual
    place = alt.get("place", alt.get("rank"))
    not_a_choice = bool(alt.get("not_a_choice"))
    # Green is the first place by value, or by shape when nothing is valued; never a
    # choice that isn't one, never a decision with no winning line.
    first = (alt.get("is_best") if ranked_by == "value"
             else place == 1 and ranked_by == "shape" and not not_a_choice)
    classes = " ".join(name for name, on in (("best", first), ("actual", is_actual),
                                              ("not-a-choice", not_a_choice)) if on)
    action = alt["action"]
    value = alt.get("value")
    choice = html(
        "{}{}{}", html("{} ", tile_code(action["tile"]))
        if action.get("type") == "discard" else "", action_text(action),
        html(' <span class="best-value" title="{}">★ {}</span>', labels["best_title"],
             labels["best"]) if alt.get("is_best") else "")
    win = alt.get("win")
    shanten = (f"{labels['wins']} ({win.get('points')})" if win
               else "–" if alt.get("shanten") is None else alt["shanten"])
    accepted = alt.get("accepted_count")
    rank = html('<span title="{}">–</span>', labels["unranked"]) if place is None else place
    cells = html(
        '<td data-label="{}">{}{}</td><td class="alt-choice">{}</td>'
        '<td data-label="{}">{}</td><td data-label="{}">{}</td>'
        '<td class="alt-waits" data-label="{}">{}</td><td class="alt-wall" data-label="{}">{}</td>',
        _rank_name(ranked_by), rank, html(' <span aria-hidden="true">◀</span> {}', labels["played"])
        if is_actual else "", choice,
        labels["shanten"], shanten, labels["accepted"], "" if accepted is None else accepted,
        labels["waits"], SafeString("".join(_wait(w) for w in alt.get("waits", []))),
        labels["wall"], _counterfactual(alt.get("counterfactual"), labels))
    if valued:
        cells = html("{}{}", cells, _value_cells(value, not_a_choice, labels))
    return html('<tr data-alternative="{}" class="{}">{}</tr>', alt["index"], classes, cells)


def _wait(wait: dict[str, Any]) -> SafeString:
    remaining = wait.get("remaining", 0)
    return html(
        '<span class="wait" title="{}">{} <span class="wait-value">{}</span> '
        '<span class="wait-left">{}</span></span> ', score_title(wait.get("score")),
        tile_code(wait["tile"]), score_value(wait.get("score")),
        ngettext("%(n)s left", "%(n)s left", remaining) % {"n": remaining})


def _counterfactual(found: dict[str, Any] | None, labels: dict[str, str]) -> str:
    if not found:
        return ""
    if not found.get("win"):
        return labels["no_win"]
    won = int(found.get("points") or 0)
    return ngettext("wins on draw %(n)s (%(t)s) for %(p)s point",
                    "wins on draw %(n)s (%(t)s) for %(p)s points", won) % {
        "n": found.get("draw"), "t": tile_name(str(found.get("tile", ""))), "p": won}


def _value_cells(value: dict[str, Any] | None, not_a_choice: bool,
                 labels: dict[str, str]) -> SafeString:
    if not value or not_a_choice:
        return html(
            '<td class="alt-win" data-label="{}">–</td><td class="alt-points" data-label="{}">'
            '–</td><td class="alt-value" data-label="{}">{}</td>', labels["win"],
            labels["points"], labels["against"],
            labels["cannot"] if not_a_choice else labels["not_played"])
    low, high = value["ci95"]["expected_points"]
    severity = value.get("severity", "")
    if value.get("is_best"):
        verdict: str = labels["best"]
    elif value.get("no_line"):
        verdict = "–"
    elif points(value["loss"]) in ("0.00", "−0.00"):
        verdict = labels["same"]
    else:
        verdict = html('−{} <span class="severity severity-{}">{}</span>',
                       points(value["loss"]), severity, severity_name(severity))
    interval = _("95%% interval %(lo)s to %(hi)s") % {"lo": points(low), "hi": points(high)}
    # Sampled: "0.47 ±0.12" on every screen (the half-width of the interval), the interval
    # itself in the tooltip.
    half = f"{max(0.0, (high - low) / 2):.2f}"
    shown = "" if value.get("exact") or half == "0.00" else html(
        ' <span class="alt-interval">±{}</span>', half)
    return html(
        '<td class="alt-win" data-label="{}">{}</td>'
        '<td class="alt-points" data-label="{}" title="{}">{}{}</td>'
        '<td class="alt-value" data-label="{}"><svg class="value-bar" viewBox="0 0 100 8" '
        'preserveAspectRatio="none" role="img" aria-label="{}%"><rect class="bar-track" '
        'width="100" height="8"/><rect class="severity-{}" width="{}" height="8"/></svg> {}</td>',
        labels["win"], percent(value.get("win_probability")), labels["points"], interval,
        points(value["expected_points"]), shown,
        labels["against"], value.get("bar", 0), severity, value.get("bar", 0), verdict)


@register.simple_tag(takes_context=True)
def step_summaries(context: template.Context) -> SafeString:
    """The hand's and the match's summaries under the panel (``annotation/_summaries.html``).

    They are the same on every step of a hand, so once both passes are done (the panel's
    ``summary_key`` is set) each is drawn once per process and language, then reused."""
    key = context["analysis"].get("summary_key")
    if key is None:
        return _render_summaries(context)
    return _KEPT_SUMMARIES.get_or_make((*key, get_language()),
                                       lambda: _render_summaries(context))


def _render_summaries(context: template.Context) -> SafeString:
    assert context.template is not None
    summaries = context.template.engine.get_template("annotation/_summaries.html")
    with context.render_context.push_state(summaries):
        return SafeString(summaries.render(context))


# Drawn summaries by (panel's key, language), oldest first; bounded (a few kB each).
_KEPT_SUMMARIES: Kept[tuple[Any, ...], SafeString] = Kept(at_most=512)
