"""``option_label``: a rules option named in words (``replays.matches.option_labels``)."""

from __future__ import annotations

from django import template

from replays.matches.option_labels import option_label as label_of

register = template.Library()


@register.filter
def option_label(name: str) -> str:
    return label_of(str(name))
