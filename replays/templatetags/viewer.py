"""``{% viewer_controls links board seat %}``: the replay's step controls.

Built here rather than in the template: they are drawn on every step, and their fixed words
are looked up once per language instead of a dozen translation tags each time."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from replays.kept import in_each_language
from replays.markup import html

register = template.Library()

# (link, data-key, pushes a history entry, label with its arrow): the order they stand in.
_BEFORE = (("previous_hand", "[", True, "« {previous_hand}"), ("first", "Home", False, "⇤ {first}"),
           ("previous", "ArrowLeft", False, "← {previous}"))
_AFTER = (("next", "ArrowRight", False, "{next} →"), ("last", "End", False, "{last} ⇥"))


@register.simple_tag
def viewer_controls(links: dict[str, str | None], board: Any, seat: int | None,
                    danger_on: bool = False, seat_fixed: bool = False) -> SafeString:
    """The step controls; ``seat_fixed`` (a hand recorded from one seat) offers no other
    seat's view, since only that seat's is known."""
    words = _words()
    counter = html(
        '<span class="step-counter">{}</span>',
        _("Hand %(h)s/%(hs)s · step %(s)s/%(ss)s") % {
            "h": board.hand_number, "hs": board.hand_count, "s": board.step,
            "ss": board.steps})
    picker = html(
        '<span class="seat-picker">{}: <a href="{}"{}>{}</a> {}</span>{}', words["view_as"],
        links["all_seats"], _current(seat is None), words["all"], SafeString("".join(
            html('<a href="{}"{}>{}</a> ', links[f"seat{s.seat}"],
                 _current(seat == s.seat), s.name) for s in board.seats)),
        _danger_toggle(links, danger_on, words))
    if seat_fixed:
        picker = _danger_toggle(links, danger_on, words)
    next_hand = _link(links, ("next_hand", "]", True, "{next_hand} »"), words)
    return html(
        '<nav class="controls" aria-label="{}" hx-boost="true" hx-target="#board-wrap" '
        'hx-swap="outerHTML show:none" hx-replace-url="true">{}{}{}{}{}{}</nav>',
        words["controls"], SafeString("".join(_link(links, c, words) for c in _BEFORE)),
        counter, SafeString("".join(_link(links, c, words) for c in _AFTER)),
        words["autoplay"], next_hand, picker)


def _danger_toggle(links: dict[str, str | None], on: bool, words: dict[str, Any]) -> SafeString:
    """Show or hide each tile's danger (only while one seat's view is shown). A link: its
    words say what it does ("Hide danger"), as aria-pressed may not (issue 32, axe)."""
    href = links.get("danger")
    if not href:
        return SafeString("")
    return html(' <a class="danger-toggle" href="{}">{}</a>', href,
                words["danger_off" if on else "danger_on"])


def _current(flag: bool) -> SafeString:
    return SafeString(' aria-current="true"' if flag else "")


def _link(links: dict[str, str | None], control: tuple[str, str, bool, str],
          words: dict[str, Any]) -> SafeString:
    name, key, pushes, label = control
    href = links.get(name)
    if not href:
        return SafeString("")
    return html('<a class="button" data-key="{}"{} href="{}">{}</a> ', key,
                SafeString(' hx-push-url="true"' if pushes else ""), href,
                label.format(**words))


@in_each_language(at_most=16)
def _words() -> dict[str, Any]:
    """The controls' fixed words in the reader's language."""
    words: dict[str, Any] = {
        "controls": _("Replay controls"), "previous_hand": _("Previous hand"),
        "first": _("First"), "previous": _("Previous"), "next": _("Next"), "last": _("Last"),
        "next_hand": _("Next hand"), "view_as": _("View as"), "all": _("all"),
        "danger_on": _("Show danger"), "danger_off": _("Hide danger")}
    words["autoplay"] = html(
        '<span class="autoplay" hidden><button type="button" class="autoplay-toggle" '
        'data-play="{} ▶" data-pause="{} ⏸">{} ▶</button><label><span class="visually-hidden">'
        '{}</span><select class="autoplay-speed"><option value="2000">{}</option>'
        '<option value="1000" selected>{}</option><option value="400">{}</option></select>'
        "</label></span> ", _("Play"), _("Pause"), _("Play"), _("Speed"), _("slow"),
        _("normal"), _("fast"))
    return words
