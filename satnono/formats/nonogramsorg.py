"""A saved nonograms.org / nonograms.ru puzzle page (read only).

The page carries no clues: its solution is an obfuscated array ``var d=[[a,b,c,d],...];``
in a script.  The decoding follows the two public ports of the site's
``nonogram.min.059.js`` (tsionyx/pynogram ``NonogramsOrg.decipher`` and
tsionyx/nonogrid ``src/parser.rs``); with ``x = d[k]`` and ``v(x) = x0%x3 + x1%x3 - x2%x3``:

* ``v(d[1])`` is the width, ``v(d[2])`` the height, ``v(d[3])`` the number of colours K;
* colour i (1..K) is ``d[4+i]`` against ``x = d[4]``: red ``y0-x1``, green ``y1-x0``,
  blue ``y2-x3``;
* with ``z = K+5`` and ``x = d[z]``, the number of runs is ``(x0%x3)^2 + 2(x1%x3) + x2%x3``;
  run j is ``y = d[z+2+j]`` against ``x = d[z+1]``: ``y1-x1`` cells of colour ``y2-x2``
  in row ``y3-x3-1`` from column ``y0-x0-1``.

The clues are derived from the decoded picture (its goal).  The page's ``<title>`` is the
puzzle's name.  Colours are named after their RGB with the characters ``a``, ``b``, ...;
a lone black is black and white (``#``).  Anything out of range is an error naming the
file and the line of the array.
"""

from __future__ import annotations

import html
import json
import re

from ..errors import ParseError
from ..model import MAX_CELLS, MAX_COLORS, MAX_SIDE, Puzzle
from ._palette import build_palette, name_for_rgb, puzzle_of_blocks
from ._text import check_size

CYPHER = re.compile(r"var\s+d\s*=\s*(\[[0-9,\[\]\s]*\])\s*;")
_TITLE = re.compile(r"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)


def looks_like(text: str) -> bool:
    """True when the text holds a nonograms.org solution array."""
    return CYPHER.search(text) is not None


def decipher(d: list[list[int]]) -> tuple[list[tuple[int, int, int]], list[list[int]]]:
    """The colours (RGB) and the picture (rows of colour numbers, 0 the background) of an array.

    Raises:
        ValueError: the array is too short, a size is out of range, or a run leaves the grid.
    """
    def row(k: int) -> list[int]:
        if k >= len(d) or len(d[k]) < 4:
            raise ValueError(f"entry {k} of the array is missing or has fewer than 4 numbers")
        return d[k]

    def value(k: int) -> int:
        x = row(k)
        if x[3] == 0:
            raise ValueError(f"entry {k} of the array divides by zero")
        return x[0] % x[3] + x[1] % x[3] - x[2] % x[3]

    width, height, k = value(1), value(2), value(3)
    if not (0 < width <= MAX_SIDE and 0 < height <= MAX_SIDE) or width * height > MAX_CELLS:
        raise ValueError(f"the decoded size {width}x{height} is not a grid of at most {MAX_SIDE} a side "
                         f"and {MAX_CELLS:,} cells")
    if not 1 <= k <= MAX_COLORS:
        raise ValueError(f"the decoded number of colours {k} is not 1..{MAX_COLORS}")
    x = row(4)
    colours = []
    for i in range(k):
        y = row(i + 5)
        rgb = (y[0] - x[1], y[1] - x[0], y[2] - x[3])
        if not all(0 <= c <= 255 for c in rgb):
            raise ValueError(f"colour {i + 1} decodes to {rgb}, not an RGB colour")
        colours.append(rgb)
    z = k + 5
    x = row(z)
    if x[3] == 0:
        raise ValueError(f"entry {z} of the array divides by zero")
    runs = (x[0] % x[3]) ** 2 + (x[1] % x[3]) * 2 + x[2] % x[3]
    x = row(z + 1)
    picture = [[0] * width for _ in range(height)]
    for j in range(runs):
        y = row(z + 2 + j)
        start, length, colour, r = y[0] - x[0] - 1, y[1] - x[1], y[2] - x[2], y[3] - x[3] - 1
        if not (0 <= r < height and 0 <= start and start + length <= width and length >= 0):
            raise ValueError(f"run {j + 1} leaves the {width}x{height} grid")
        if not 1 <= colour <= k:
            raise ValueError(f"run {j + 1} has colour {colour}, not 1..{k}")
        picture[r][start:start + length] = [colour] * length
    return colours, picture


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a saved puzzle page."""
    m = CYPHER.search(text)
    if m is None:
        raise ParseError("no nonograms.org solution array ('var d=[[...]];') in the page", source)
    line = text.count("\n", 0, m.start()) + 1
    try:
        array = json.loads(m.group(1))
        if not all(isinstance(e, list) and all(type(v) is int for v in e) for e in array):
            raise ValueError("the array should hold lists of whole numbers")
        colours, picture = decipher(array)
    except (ValueError, RecursionError) as e:
        raise ParseError(f"nonograms.org solution array: {e}", source, line) from None
    check_size(len(picture[0]), len(picture), source, line)
    used = sorted({v for r in picture for v in r} - {0})
    palette = build_palette(None, [(name_for_rgb(colours[v - 1]), [], colours[v - 1]) for v in used], source, line)
    chars = "".join(c.char for c in palette)
    index = {v: i for i, v in enumerate(used, 1)}
    goal = tuple("".join(chars[index[v]] if v else "." for v in r) for r in picture)
    t = _TITLE.search(text)
    name = html.unescape(re.sub(r"\s+", " ", t.group(1))).strip() or None if t else None
    return [puzzle_of_blocks(None, None, palette, goal, name=name)]
