"""A plain text picture: one line per row, ``#`` black and ``.`` white.

``X``/``x`` and ``1`` are also read as black, ``-`` and ``0`` as white
(Simpson's solver prints ``#``/``-``; 0/1 pictures are common exports);
cells may be separated by single spaces or TABs (``1 0 1``) when every row
is written so.  Trailing whitespace is ignored, as are blank lines before and
after the grid, but not inside it.  All rows must have the same length.  The
picture becomes the goal and the clues are derived from it.
"""

from __future__ import annotations

from ..errors import ParseError
from ..model import BLACK, WHITE, Puzzle
from ._palette import require_bw
from ._text import check_size, is_blank, split_lines
from .sniff import GRID_BLACK, GRID_WHITE, grid_rows

CELLS = {**dict.fromkeys(GRID_BLACK, BLACK), **dict.fromkeys(GRID_WHITE, WHITE)}
_TABLE = str.maketrans(CELLS)


def read(text: str, source: str | None) -> list[Puzzle]:
    """The picture of a text grid as a puzzle with that goal."""
    lines = grid_rows(split_lines(text))
    used = [i for i, line in enumerate(lines) if not is_blank(line)]
    if not used:
        raise ParseError("empty file", source)
    first, last = used[0], used[-1]
    width = len(lines[first])
    check_size(width, last - first + 1, source, first + 1)
    rows = []
    for i in range(first, last + 1):
        row = lines[i]
        if not row:
            raise ParseError("blank line inside the grid", source, i + 1)
        bad = next((ch for ch in row if ch not in CELLS), None)
        if bad is not None:
            raise ParseError(f"unexpected character {bad!r} in the grid (use '#' and '.', or 1 and 0)", source, i + 1)
        if len(row) != width:
            raise ParseError(f"this row has {len(row)} cells, the first has {width}", source, i + 1)
        rows.append(row.translate(_TABLE))
    return [Puzzle.from_grid(rows)]


def write(puzzle: Puzzle) -> str:
    """The goal as rows of ``#``/``.``.

    >>> write(Puzzle.from_grid(["#.", ".#"]))
    '#.\\n.#\\n'

    Raises:
        ValueError: when the puzzle has no goal.
    """
    require_bw(puzzle, "txt")
    if puzzle.goal is None:
        raise ValueError("the txt format stores a picture, and this puzzle has no goal to write")
    return "\n".join(puzzle.goal) + "\n"
