"""Draw the 34 tile faces and the tile back as small SVG files.

Run from anywhere: ``python tools/make_tiles.py`` (it needs ``fonttools`` from PyPI
and fontconfig's ``fc-match`` to find the two fonts it traces: Noto Sans CJK SC Bold
and DejaVu Sans Bold, e.g. Debian's ``fonts-noto-cjk`` and ``fonts-dejavu-core``). The
script empties ``static/tiles/`` of its SVG files and writes them again, so the output
is always exactly what this file describes (deterministic, ready to commit).

It writes each face as its own file and all of them as ``<symbol>``s of one sprite,
``tiles.svg``, which the pages use: one request for every face on a page.

Design notes
------------
* viewBox 0 0 60 80: a rounded ivory face over a darker edge (the tile's
  thickness shows at the bottom).
* The suits differ by colour and form, not only by glyph, so a tile stays
  readable at ~28x38 px and without a CJK font:
  characters: a big red Arabic numeral, the Chinese numeral, a red 万 (drawn
  as strokes); dots: circles in the traditional patterns; bamboo: green
  sticks; winds: the character in dark blue with E/S/W/N in the corner;
  White: an empty blue frame; Green: 发 in green; Red: 中 in red (strokes).
* Only rect, circle, line and path; no gradients, filters, text or fonts: every
  glyph (东南西北发, the Chinese numerals, the corner indices) is traced from the
  fonts above into a path when this script runs, so a reader's machine needs no
  Chinese font to see the faces.
"""

from __future__ import annotations

import math
import subprocess
from functools import cache
from pathlib import Path
from typing import Any

OUT = Path(__file__).resolve().parent.parent / "static" / "tiles"

CJK = "Noto Sans CJK SC:bold"
LATIN = "DejaVu Sans:bold"

IVORY = "#fdfaf0"
EDGE = "#d9cca6"
EDGE_LINE = "#a8976b"
INK = "#1d1d1b"
RED = "#c62828"
GREEN = "#1b7a3d"
BLUE = "#1f4e9c"
NAVY = "#1c2d6b"

NUMERALS = "一二三四五六七八九"
WINDS = (("东", "E", "East"), ("南", "S", "South"), ("西", "W", "West"), ("北", "N", "North"))


def n(x: float) -> str:
    """A compact number: at most two decimals, no trailing zeros."""
    text = f"{x:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def svg(title: str, body: list[str], *, back: bool = False) -> str:
    if back:
        base = [
            '<rect x="1" y="1" width="58" height="78" rx="7" fill="#17624b" stroke="#0e4435"/>',
            '<rect x="1.5" y="1.5" width="57" height="74" rx="6.5" fill="#23876a"/>',
        ]
    else:
        base = [
            f'<rect x="1" y="1" width="58" height="78" rx="7" fill="{EDGE}" stroke="{EDGE_LINE}"/>',
            f'<rect x="1.5" y="1.5" width="57" height="74" rx="6.5" fill="{IVORY}"/>',
        ]
    lines = [
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 60 80" width="60" height="80"'
        ' role="img">',
        f"<title>{title}</title>",
        *base,
        *body,
        "</svg>",
    ]
    return "\n".join(lines) + "\n"


@cache
def font(pattern: str) -> Any:
    """The font fontconfig picks for ``pattern`` (a TrueType/OpenType file, maybe a collection)."""
    try:
        from fontTools.ttLib import TTFont
    except ImportError:
        raise SystemExit("make_tiles needs fonttools: pip install fonttools") from None
    found = subprocess.run(["fc-match", "-f", "%{file}:%{index}", pattern],
                           capture_output=True, text=True, check=True).stdout
    path, number = found.rsplit(":", 1)
    return TTFont(path, fontNumber=int(number))


def glyph_path(char: str, pattern: str) -> tuple[str, float]:
    """The outline of ``char`` in font units (y up) and its advance width."""
    from fontTools.pens.svgPathPen import SVGPathPen

    face = font(pattern)
    glyphs = face.getGlyphSet()
    name = face.getBestCmap()[ord(char)]
    pen = SVGPathPen(glyphs, ntos=lambda value: n(value))
    glyphs[name].draw(pen)
    return pen.getCommands(), float(glyphs[name].width)


def text(x: float, y: float, size: float, fill: str, content: str, *, cjk: bool = True,
         anchor: str = "middle", weight: str = "700") -> str:
    """``content`` as filled outlines, placed as an SVG ``<text>`` with this baseline would be."""
    pattern = CJK if cjk else LATIN
    units = font(pattern)["head"].unitsPerEm
    scale = size / units
    outlines, advance = [], 0.0
    for char in content:
        path, width = glyph_path(char, pattern)
        outlines.append((advance, path))
        advance += width
    start = x - advance * scale / 2 if anchor == "middle" else x
    shapes = "".join(
        f'<path transform="translate({n(start + offset * scale)},{n(y)}) '
        f'scale({scale:.5f},{-scale:.5f})" d="{path}"/>' for offset, path in outlines)
    return f'<g fill="{fill}">{shapes}</g>'


def index(label: str, fill: str, size: float = 15) -> str:
    """The plain sans-serif corner index (top left)."""
    return text(4.5, 4 + size * 0.78, size, fill, label, cjk=False, anchor="start")


# --- characters -----------------------------------------------------------

# 万 as three strokes, so the suit mark never depends on a CJK font.
WAN = ("M16,47.5H44"            # top horizontal
       "M27,47.5Q27.5,63 16.5,71.5"  # left-falling stroke
       "M27,56.5H40.5V66Q40.5,71.5 35,70.5")  # turn, down, hook


def characters(num: int) -> list[str]:
    return [
        index(str(num), RED, 19),
        text(34.5, 37, 24, INK, NUMERALS[num - 1]),
        f'<path d="{WAN}" fill="none" stroke="{RED}" stroke-width="4.2" '
        'stroke-linecap="round" stroke-linejoin="round"/>',
    ]


# --- dots -----------------------------------------------------------------

def dot(cx: float, cy: float, r: float, colour: str) -> str:
    # a coloured ring (0.45r..r) around an ivory gap and a coloured centre
    return (f'<circle cx="{n(cx)}" cy="{n(cy)}" r="{n(r * 0.725)}" fill="{IVORY}" '
            f'stroke="{colour}" stroke-width="{n(r * 0.55)}"/>'
            f'<circle cx="{n(cx)}" cy="{n(cy)}" r="{n(r * 0.27)}" fill="{colour}"/>')


B, G, R = BLUE, GREEN, RED
DOTS: dict[int, tuple[float, list[tuple[float, float, str]]]] = {
    2: (10.5, [(30, 31, G), (30, 61, B)]),
    3: (8.5, [(17.5, 28, B), (30, 47, R), (42.5, 66, G)]),
    4: (9.5, [(19.5, 31, B), (40.5, 31, G), (19.5, 61, G), (40.5, 61, B)]),
    5: (8.3, [(17.5, 29, B), (42.5, 29, G), (30, 47.5, R), (17.5, 66, G), (42.5, 66, B)]),
    6: (8.3, [(19.5, 28, G), (40.5, 28, G), (19.5, 48.5, R), (40.5, 48.5, R),
              (19.5, 67, R), (40.5, 67, R)]),
    7: (6.8, [(16, 25, G), (30, 31.5, G), (44, 38, G), (20.5, 53, R), (39.5, 53, R),
              (20.5, 68, R), (39.5, 68, R)]),
    8: (6.8, [(21, 25, B), (40, 25, B), (21, 39.5, B), (40, 39.5, B), (21, 54, B),
              (40, 54, B), (21, 68.5, B), (40, 68.5, B)]),
    9: (7.2, [(15.5, 28, B), (30, 28, B), (44.5, 28, B), (15.5, 47.5, R), (30, 47.5, R),
              (44.5, 47.5, R), (15.5, 67, G), (30, 67, G), (44.5, 67, G)]),
}


def dots(num: int) -> list[str]:
    body = [index(str(num), BLUE, 14)]
    if num == 1:
        body += [
            f'<circle cx="30" cy="45" r="18.5" fill="{IVORY}" stroke="{BLUE}" stroke-width="5"/>',
            f'<circle cx="30" cy="45" r="11" fill="{IVORY}" stroke="{GREEN}" stroke-width="4"/>',
            f'<circle cx="30" cy="45" r="5.5" fill="{RED}"/>',
        ]
        return body
    radius, spots = DOTS[num]
    body += [dot(x, y, radius, c) for x, y, c in spots]
    return body


# --- bamboo ---------------------------------------------------------------

def stick(x1: float, y1: float, x2: float, y2: float, colour: str, width: float = 5.2) -> str:
    """A bamboo stick from (x1, y1) to (x2, y2) with a pale node across its middle."""
    mx, my = (x1 + x2) / 2, (y1 + y2) / 2
    length = math.hypot(x2 - x1, y2 - y1)
    px, py = -(y2 - y1) / length, (x2 - x1) / length  # unit normal
    half = width / 2 + 0.4
    return (f'<line x1="{n(x1)}" y1="{n(y1)}" x2="{n(x2)}" y2="{n(y2)}" stroke="{colour}" '
            f'stroke-width="{n(width)}" stroke-linecap="round"/>'
            f'<line x1="{n(mx - px * half)}" y1="{n(my - py * half)}" x2="{n(mx + px * half)}" '
            f'y2="{n(my + py * half)}" stroke="{IVORY}" stroke-width="1.3"/>')


def vertical(x: float, top: float, bottom: float, colour: str = GREEN, width: float = 5.2) -> str:
    return stick(x, top, x, bottom, colour, width)


TOP, LOW = (23, 42), (53, 72)  # two rows of sticks
ROWS3 = ((21, 33), (41, 53), (61, 73))      # three rows of short sticks


def bamboo(num: int) -> list[str]:
    body = [index(str(num), GREEN, 14)]
    if num == 1:
        # One large stick with red bands: clearly "one" even at thumbnail size.
        body += [
            f'<line x1="30" y1="22" x2="30" y2="70" stroke="{GREEN}" stroke-width="11" '
            'stroke-linecap="round"/>',
            f'<line x1="24" y1="34" x2="36" y2="34" stroke="{RED}" stroke-width="3"/>',
            f'<line x1="24" y1="46" x2="36" y2="46" stroke="{IVORY}" stroke-width="2"/>',
            f'<line x1="24" y1="58" x2="36" y2="58" stroke="{RED}" stroke-width="3"/>',
        ]
        return body
    (t1, t2), (l1, l2) = TOP, LOW
    if num == 2:
        body += [vertical(30, t1, t2), vertical(30, l1, l2)]
    elif num == 3:
        body += [vertical(30, t1, t2), vertical(20, l1, l2), vertical(40, l1, l2)]
    elif num == 4:
        body += [vertical(x, a, b) for a, b in (TOP, LOW) for x in (20, 40)]
    elif num == 5:
        body += [vertical(x, a, b) for a, b in (TOP, LOW) for x in (16, 44)]
        body.append(vertical(30, 38, 57, RED))
    elif num == 6:
        body += [vertical(x, a, b) for a, b in (TOP, LOW) for x in (16, 30, 44)]
    elif num == 7:
        (a1, a2), (b1, b2), (c1, c2) = ROWS3
        body.append(vertical(30, a1, a2, RED))
        body += [vertical(x, y1, y2) for y1, y2 in ((b1, b2), (c1, c2)) for x in (16, 30, 44)]
    elif num == 8:
        w = 4.6
        for (a, b), down in ((TOP, True), (LOW, False)):
            body += [vertical(11.5, a, b, width=w), vertical(48.5, a, b, width=w)]
            # middle pair: a V on top, an inverted V below (the traditional M / W)
            if down:
                body += [stick(19, a, 27, b, GREEN, w), stick(41, a, 33, b, GREEN, w)]
            else:
                body += [stick(27, a, 19, b, GREEN, w), stick(33, a, 41, b, GREEN, w)]
    elif num == 9:
        for y1, y2 in ROWS3:
            body += [vertical(16, y1, y2), vertical(30, y1, y2, RED), vertical(44, y1, y2)]
    return body


# --- honours --------------------------------------------------------------

# 中 as strokes: a box and the long vertical.
ZHONG = "M14.5,27.5H45.5V50H14.5Z M30,13V69"


def honour(num: int) -> tuple[str, list[str]]:
    if num <= 4:
        char, letter, name = WINDS[num - 1]
        return f"{char} – {name} wind", [index(letter, NAVY, 14), text(30, 59, 36, NAVY, char)]
    if num == 5:
        return "白 – White dragon", [
            f'<rect x="11" y="12" width="38" height="54" rx="3" fill="none" stroke="{BLUE}" '
            'stroke-width="3.5"/>',
            f'<rect x="16.5" y="17.5" width="27" height="43" rx="1.5" fill="none" '
            f'stroke="{BLUE}" stroke-width="1.5"/>',
        ]
    if num == 6:
        return "发 – Green dragon", [text(30, 55, 40, GREEN, "发")]
    return "中 – Red dragon", [
        f'<path d="{ZHONG}" fill="none" stroke="{RED}" stroke-width="5.5" '
        'stroke-linejoin="miter"/>',
    ]


def back() -> list[str]:
    return [
        '<rect x="7" y="7" width="46" height="63" rx="4" fill="none" stroke="#7fc3a9" '
        'stroke-width="1.5"/>',
        '<path d="M30,21L43,38.5L30,56L17,38.5Z" fill="none" stroke="#7fc3a9" '
        'stroke-width="2"/>',
        '<circle cx="30" cy="38.5" r="4" fill="#7fc3a9"/>',
    ]


def tiles() -> dict[str, str]:
    out: dict[str, str] = {}
    for num in range(1, 10):
        cn = NUMERALS[num - 1]
        out[f"{num}m"] = svg(f"{num}m – {cn}万 – {num} of characters", characters(num))
        out[f"{num}p"] = svg(f"{num}p – {cn}筒 – {num} of dots", dots(num))
        out[f"{num}s"] = svg(f"{num}s – {cn}条 – {num} of bamboo", bamboo(num))
    for num in range(1, 8):
        title, body = honour(num)
        out[f"{num}z"] = svg(f"{num}z – {title}", body)
    out["back"] = svg("back – face-down tile", back(), back=True)
    return out


def sprite(drawn: dict[str, str]) -> str:
    """Every face as a ``<symbol id="1m">`` of one file, for ``<use href="tiles.svg#1m">``."""
    symbols = []
    for name, content in sorted(drawn.items()):
        inner = content.split(">", 1)[1].rsplit("</svg>", 1)[0].strip()
        symbols.append(f'<symbol id="{name}" viewBox="0 0 60 80">{inner}</symbol>')
    return ('<svg xmlns="http://www.w3.org/2000/svg">\n' + "\n".join(symbols) + "\n</svg>\n")


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.svg"):
        old.unlink()
    drawn = tiles()
    for name, content in sorted(drawn.items()):
        (OUT / f"{name}.svg").write_text(content, encoding="utf-8")
    (OUT / "tiles.svg").write_text(sprite(drawn), encoding="utf-8")
    print(f"wrote {len(drawn)} faces and their sprite to {OUT.relative_to(OUT.parent.parent)}")


if __name__ == "__main__":
    main()
