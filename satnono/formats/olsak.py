"""Mirek Olšák's ``.g`` format (read only), black and white only.

Lines before the first line starting with ``:`` are a free-text preamble,
except that ``#d`` starts a colour table (``<in>:<out> <colour>`` lines) and
``#t`` marks a triddler.  The first ``:`` line starts the row clues, the
second the column clues, and an optional third ends the data.  One line per
row or column, blocks separated by whitespace, a blank line is an empty clue
(trailing blank lines at the end of the file are ignored).  Colour tables
declaring more than the background ``0`` and the default ``1``, colour blocks
(``3b``) and triddlers raise :class:`UnsupportedPuzzle`.
"""

from __future__ import annotations

from ..errors import ParseError, UnsupportedPuzzle
from ..model import Puzzle
from ._text import COLOUR_MESSAGE, check_size, is_blank, parse_clue, split_lines


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a ``.g`` file."""
    lines = split_lines(text)
    marks = [i for i, line in enumerate(lines) if line.lstrip().startswith(":")]
    in_table = False
    for i in range(marks[0] if marks else len(lines)):
        s = lines[i].strip()
        if s[:2] in ("#t", "#T"):
            raise UnsupportedPuzzle("triddlers are not supported yet", source, i + 1)
        if s[:2] in ("#d", "#D"):
            in_table = True
        elif in_table and ":" in s and s.split(":", 1)[0].strip() not in ("0", "1"):
            raise UnsupportedPuzzle(COLOUR_MESSAGE, source, i + 1)
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
    rows = tuple(parse_clue(lines[i], source, i + 1, colour_ok=True) for i in row_range)
    columns = tuple(parse_clue(lines[i], source, i + 1, colour_ok=True) for i in col_range)
    return [Puzzle(rows=rows, columns=columns)]
