"""Mirek Olšák's ``.g`` format (read only), black and white or colour.

Lines before the first line starting with ``:`` are a free-text preamble,
except that ``#d`` (``#D``, or any line starting so, like ``#declaration``)
starts a colour table and ``#t`` marks a triddler.  The first ``:`` line
starts the row clues, the second the column clues, and an optional third ends
the data.  One line per row or column, blocks separated by whitespace, a blank
line is an empty clue (trailing blank lines at the end of the file are
ignored).

Colour table lines are ``<in>:<out> <spec> [comment]``: ``in`` is the letter
written after a clue number (``3b``), ``out`` the character shown in grids
(it becomes the palette character when usable, else ``in`` does, else a free
one), ``spec`` a colour name (the common X11 names of
:data:`satnono.formats._palette.COLOR_NAMES`) or ``#rrggbb``.  ``in`` = ``0``
redefines the background (white by default); ``in`` = ``1`` is the default
colour of numbers without a letter.  Other lines of the table are comments.
The palette holds the colours the clues use, the default colour first, then
the others in table order; a puzzle using one colour is black and white.
A ``#t`` line before the first ``:`` line makes the file a triddler, read by
:func:`satnono.formats.triddler.read_g` into a :class:`~satnono.lanepuzzle.LanePuzzle`
(its six groups of clue lines are described there).  Triangle colours
(``black/white``) raise :class:`UnsupportedPuzzle`.
"""

from __future__ import annotations

import re
from typing import Iterable, Sequence

from ..errors import ParseError, UnsupportedPuzzle
from ..lanepuzzle import LanePuzzle
from ..model import Color, Puzzle
from ..palette import Palette
from ._palette import RGB, build_palette, name_for_rgb, puzzle_of_blocks, rgb_of_name, rgb_of_spec, split_blocks
from ._text import check_size, is_blank, split_lines

_TABLE_LINE = re.compile(r"\s*(\S):(\S?)(?:\s+(\S+))?.*")


class _Colour:
    def __init__(self, key: str, out: str, name: str, rgb: RGB, line: int) -> None:
        self.key, self.out, self.name, self.rgb, self.line = key, out, name, rgb, line


def _table_entry(line_text: str, lineno: int, source: str | None) -> _Colour | None:
    m = _TABLE_LINE.fullmatch(line_text)
    if m is None:
        return None  # a comment inside the table
    key, out, spec = m.group(1), m.group(2), m.group(3)
    if spec is None:
        raise ParseError(f"colour {key!r} has no colour (expected '{key}:{out or 'c'} red' or '#rrggbb')",
                         source, lineno)
    if "/" in spec or "\\" in spec:
        raise UnsupportedPuzzle("triangle colours (trianograms) are not supported", source, lineno)
    if key.isdigit() and key not in "01" or key in ",":
        raise ParseError(f"a colour letter cannot be {key!r}", source, lineno)
    try:
        rgb = rgb_of_spec(spec)
    except ValueError as e:
        raise ParseError(str(e), source, lineno) from None
    name = spec.lower() if rgb_of_name(spec) is not None else name_for_rgb(rgb)
    return _Colour(key, out, name, rgb, lineno)


def colour_keys(raw: Iterable[tuple[int, Sequence[tuple[int, str | None]]]], table: dict[str, _Colour],
                source: str | None, line: int) -> tuple[Palette, dict[str, int]]:
    """The palette of the colour keys that the clue lines ``raw`` (``(line number, blocks)``) use,
    in the table's order (a number without a letter is key ``1``, first), and each key's colour
    index; ``line`` is where errors of the palette as a whole point."""
    used: dict[str, int] = {}
    for lineno, blocks in raw:
        for _, key in blocks:
            key = "1" if key is None else key
            if key not in table and (table or key != "1"):
                if key == "1":
                    raise ParseError("a number without a colour letter, and the colour table declares no "
                                     "default colour ('1:')", source, lineno)
                raise ParseError(f"colour {key!r} is not declared in the colour table ('#d')", source, lineno)
            used.setdefault(key, lineno)
    keys = sorted(used, key=lambda k: (k != "1", table[k].line if k in table else 0))
    bg = table.get("0")
    palette = build_palette(
        Color(bg.name, ".", bg.rgb) if bg is not None else None,
        [(table[k].name, [table[k].out, k], table[k].rgb) if k in table else ("black", [], (0, 0, 0)) for k in keys],
        source, line)
    return palette, {k: i for i, k in enumerate(keys, 1)}


def read(text: str, source: str | None) -> list[Puzzle | LanePuzzle]:
    """The one puzzle of a ``.g`` file: a grid, or with ``#t`` a triddler."""
    lines = split_lines(text)
    marks = [i for i, line in enumerate(lines) if line.lstrip().startswith(":")]
    preamble = range(marks[0] if marks else len(lines))
    if any(lines[i].strip()[:2] in ("#t", "#T") for i in preamble):
        from .triddler import read_g

        return list(read_g(text, source))
    in_table = False
    table: dict[str, _Colour] = {}
    for i in preamble:
        s = lines[i].strip()
        if s[:2] in ("#d", "#D"):
            in_table = True
        elif s.startswith("#"):
            in_table = False
        elif in_table and s:
            entry = _table_entry(lines[i], i + 1, source)
            if entry is not None:
                if entry.key in table:
                    raise ParseError(f"colour {entry.key!r} declared twice (first on line {table[entry.key].line})",
                                     source, i + 1)
                table[entry.key] = entry
    if len(marks) < 2:
        if all(is_blank(x) for x in lines):
            raise ParseError("empty file", source)
        raise ParseError(
            "expected a ':' line before the row clues and another before the column clues",
            source,
            (marks[0] + 1) if marks else len(lines),
        )
    row_range = range(marks[0] + 1, marks[1])
    end = marks[2] if len(marks) > 2 else len(lines)
    while end > marks[1] + 1 and is_blank(lines[end - 1]) and len(marks) <= 2:
        end -= 1
    col_range = range(marks[1] + 1, end)
    check_size(len(col_range), len(row_range), source, marks[1] + 1)
    raw = [(i + 1, split_blocks(lines[i], False, source, i + 1)) for i in (*row_range, *col_range)]
    palette, index = colour_keys(raw, table, source, marks[0] + 1)
    blocks_of = [tuple((n, index["1" if k is None else k]) for n, k in blocks) for _, blocks in raw]
    return [puzzle_of_blocks(blocks_of[: len(row_range)], blocks_of[len(row_range) :], palette)]
