"""A plain text picture: one line per row, ``#`` black and ``.`` white.

``X``/``x`` and ``1`` are also read as black, ``-`` and ``0`` as white
(Simpson's solver prints ``#``/``-``; 0/1 pictures are common exports);
cells may be separated by single spaces or TABs (``1 0 1``) when every row
is written so.  Trailing whitespace is ignored, as are blank lines before and
after the grid, but not inside it.  All rows must have the same length.  The
picture becomes the goal and the clues are derived from it.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import BLACK, WHITE, Puzzle
from ._palette import require_bw
from ._text import check_size, is_blank, split_lines

CELLS = {"#": BLACK, "X": BLACK, "x": BLACK, "1": BLACK, ".": WHITE, "-": WHITE, "0": WHITE}
_TABLE = str.maketrans(CELLS)
_SPACED = re.compile(r"\S(?:[ \t]\S)*")


def _rows(lines: list[str]) -> list[str]:
    """The lines with trailing whitespace removed, and the separators of spaced cells."""
    rows = [x.rstrip() for x in lines]
    body = [x.lstrip() for x in rows if x]
    if body and all(_SPACED.fullmatch(x) for x in body) and any(len(x) > 1 for x in body):
        return ["".join(x.split()) for x in rows]
    return rows


def read(text: str, source: str | None) -> list[Puzzle]:
    """The picture of a text grid as a puzzle with that goal."""
    lines = _rows(split_lines(text))
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


def looks_like_grid(lines: list[str]) -> bool:
    """True when every non-blank line holds grid characters only."""
    body = [x for x in _rows(lines) if x]
    return bool(body) and all(ch in CELLS for x in body for ch in x)


def looks_like_picture(lines: list[str]) -> bool:
    """A grid of at least two rows, all of the same length (at least 2): more likely a picture
    than a list of numbers even when its rows are 0/1 digits."""
    body = [x for x in _rows(lines) if x]
    return (looks_like_grid(lines) and len(body) >= 2 and len(body[0]) >= 2
            and all(len(x) == len(body[0]) for x in body))


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
