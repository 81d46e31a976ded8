"""Izaron/Nonograms colour ``.pzl`` files (``src/puzzle.cpp``, ``ReadColored``), read only.

Whitespace-separated tokens:

* ``K``, the number of colours, then ``K`` colours ``#rrggbb``.  The background is
  white and is not listed; a listed ``#ffffff`` is a block colour of its own (a
  clue whose RGB is white means it, as in Izaron's reader).
* ``H W`` (rows, then columns).
* ``H`` row clues then ``W`` column clues, each ``N`` (the number of blocks)
  followed by ``N`` blocks ``LENGTH R G B`` (decimal 0..255), left to right or
  top to bottom.

The palette holds the listed colours the clues use, in file order, named after
their RGB (``red``, else ``#rrggbb``) with the characters ``a``, ``b``, ...; a
lone black is black and white (``#``).  A block whose RGB is not listed is an
error (Izaron's reader silently takes it as the background).
"""

from __future__ import annotations

from ..errors import ParseError
from ..model import Puzzle
from ._palette import RGB, build_palette, name_for_rgb, puzzle_of_blocks
from ._text import check_size, parse_block, parse_int
from .sniff import is_hex_color


def _tokens(text: str) -> list[tuple[str, int]]:
    return [(t, n) for n, line in enumerate(text.splitlines(), 1) for t in line.split()]


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a ``.pzl`` colour file."""
    toks = _tokens(text)
    pos = 0

    def take(what: str) -> tuple[str, int]:
        nonlocal pos
        if pos >= len(toks):
            raise ParseError(f"the file ends where {what} was expected", source, toks[-1][1] if toks else None)
        pos += 1
        return toks[pos - 1]

    def number(what: str, limit: int | None = None) -> int:
        t, line = take(what)
        n = parse_int(t, what, source, line)
        if limit is not None and n > limit:
            raise ParseError(f"{what} must be 0..{limit}, got {n}", source, line)
        return n

    k = number("the number of colours")
    listed: dict[RGB, int] = {}
    for i in range(k):
        t, line = take(f"colour {i + 1} (#rrggbb)")
        if not is_hex_color(t):
            raise ParseError(f"colour {i + 1} should be #rrggbb, got {t[:20]!r}", source, line)
        listed[(int(t[1:3], 16), int(t[3:5], 16), int(t[5:7], 16))] = i  # a repeated colour: the last one
    height = number("the number of rows")
    width = number("the number of columns")
    check_size(width, height, source, toks[pos - 1][1])
    lines: list[list[tuple[int, RGB]]] = []
    used: dict[int, int] = {}  # listed colour -> first line using it
    for axis, count in (("row", height), ("column", width)):
        for i in range(count):
            what = f"{axis} {i + 1}"
            n = number(f"the number of blocks of {what}", max(width, height))
            blocks = []
            for _ in range(n):
                t, line = take(f"a block length of {what}")
                length = parse_block(t, source, line)
                rgb = (number(f"a red value of {what}", 255), number(f"a green value of {what}", 255),
                       number(f"a blue value of {what}", 255))
                if rgb not in listed:
                    raise ParseError(f"{what}: colour #%02x%02x%02x is not in the file's colour list" % rgb,
                                     source, toks[pos - 1][1])
                used.setdefault(listed[rgb], toks[pos - 1][1])
                if length:
                    blocks.append((length, rgb))
            lines.append(blocks)
    if pos < len(toks):
        raise ParseError(f"unexpected {toks[pos][0][:20]!r} after the column clues", source, toks[pos][1])
    order = sorted(used)
    by_index = {i: rgb for rgb, i in listed.items()}
    palette = build_palette(None, [(name_for_rgb(by_index[i]), [], by_index[i]) for i in order], source,
                            min(used.values(), default=None))
    index = {by_index[i]: j for j, i in enumerate(order, 1)}
    clues = [tuple((n, index[rgb]) for n, rgb in b) for b in lines]
    return [puzzle_of_blocks(clues[:height], clues[height:], palette)]
