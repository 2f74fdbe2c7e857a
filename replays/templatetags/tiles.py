"""``{% tile view %}``: one tile drawn with the shipped artwork."""

from __future__ import annotations

from django import template
from django.templatetags.static import static
from django.utils.html import format_html

from replays.board import TileView

register = template.Library()


@register.simple_tag
def tile(view: TileView) -> str:
    classes = ["tile"]
    for flag, name in ((view.wild, "is-wild"), (view.drawn, "is-drawn"),
                       (view.claimed, "is-claimed"), (view.last, "is-last"),
                       (view.hidden, "is-hidden")):
        if flag:
            classes.append(name)
    if view.hidden:
        return format_html('<span class="{}"><img src="{}" alt="?" width="40" height="54"></span>',
                           " ".join(classes), static("tiles/back.svg"))
    return format_html('<span class="{}" title="{}"><img src="{}" alt="{}" width="40" '
                       'height="54"></span>', " ".join(classes), view.title,
                       static(f"tiles/{view.code}.svg"), view.code)


@register.filter
def signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)
