"""pbnsolve's ``.mk`` format: ``H W``, the row clues, a ``#`` line, the column clues.

Numbers are separated by whitespace and ``0`` is an empty clue.  Blank lines
are handled as in ``.non``: separators when the block already holds the right
number of clues, empty clues otherwise (see
:func:`satnono.formats._text.take_rules`).
"""

from __future__ import annotations

from ..errors import ParseError
from ..model import Puzzle
from ._palette import require_bw
from ._text import check_size, parse_clue, split_lines, take_rules
from .nin import clue_text, read_header


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a ``.mk`` file."""
    lines = split_lines(text)
    height, width, at = read_header(lines, ("height", "width"), source)
    check_size(width, height, source, at + 1)
    sep = next((i for i in range(at + 1, len(lines)) if lines[i].strip() == "#"), None)
    if sep is None:
        raise ParseError("no '#' line between the row and the column clues", source, len(lines))
    row_block = [(i + 1, lines[i]) for i in range(at + 1, sep)]
    col_block = [(i + 1, lines[i]) for i in range(sep + 1, len(lines))]
    rows = take_rules(row_block, height, "row", source, sep + 1)
    columns = take_rules(col_block, width, "column", source, len(lines))
    return [
        Puzzle(
            rows=tuple(parse_clue(t, source, n) for n, t in rows),
            columns=tuple(parse_clue(t, source, n) for n, t in columns),
        )
    ]


def write(puzzle: Puzzle) -> str:
    """The puzzle as a ``.mk`` file.

    >>> write(Puzzle.from_clues([[1]], [[1]]))
    '1 1\\n1\\n#\\n1\\n'
    """
    require_bw(puzzle, "mk")
    out = [f"{puzzle.height} {puzzle.width}"]
    out += [clue_text(c) for c in puzzle.rows]
    out.append("#")
    out += [clue_text(c) for c in puzzle.columns]
    return "\n".join(out) + "\n"
