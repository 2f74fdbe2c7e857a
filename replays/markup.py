"""``html(template, *args)``: Django's ``format_html`` for the pieces drawn on every step.

It escapes exactly as ``format_html`` does (safe strings pass, lazy strings are translated,
everything else goes through ``html.escape``), but without ``conditional_escape``'s check of
every argument for lazy strings (``keep_lazy``), which costs more than the escaping itself;
a replay step builds a few hundred pieces of markup.

>>> from django.utils.safestring import SafeString
>>> html('<b title="{}">{}</b>{}', 'say "5"', 3, SafeString("<i>kept</i>"))
'<b title="say &quot;5&quot;">3</b><i>kept</i>'
>>> html("{}", "<script>")
'&lt;script&gt;'
"""

from __future__ import annotations

from html import escape

from django.utils.functional import Promise
from django.utils.safestring import SafeString


def html(template: str, *args: object) -> SafeString:
    """``template`` with each argument escaped unless it is already safe markup."""
    return SafeString(template.format(*map(escaped, args)))


def escaped(value: object) -> str:
    """``value`` as markup: its own when it has some (``__html__``), else escaped text."""
    if type(value) is str:
        return escape(value)
    if isinstance(value, Promise):
        value = str(value)
    markup = getattr(value, "__html__", None)
    return str(markup()) if markup is not None else escape(str(value))
