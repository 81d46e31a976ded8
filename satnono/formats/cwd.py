"""The CWD format (QNonograms, Copris): H and W on separate lines, the row
clues, a blank line, the column clues.

Numbers are separated by whitespace; ``0`` or a blank line is an empty clue.
Clue lines are counted: the H lines after the width line are the rows, one
blank separator line is skipped if present, then W column lines follow; only
blank lines may come after them.
"""

from __future__ import annotations

from ..errors import ParseError
from ..model import Puzzle
from ._palette import require_bw
from ._text import check_size, is_blank, parse_int, split_lines
from .nin import clue_text, count_clues


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a CWD file."""
    lines = split_lines(text)
    header = [i for i, line in enumerate(lines) if not is_blank(line)][:2]
    if not header:
        raise ParseError("empty file", source)
    values = []
    for i, what in zip(header, ("height", "width")):
        tokens = lines[i].split()
        if len(tokens) != 1:
            raise ParseError(f"this line should hold the {what} alone", source, i + 1)
        values.append(parse_int(tokens[0], what, source, i + 1))
    if len(values) < 2:
        raise ParseError("the width line is missing", source, header[0] + 1)
    height, width = values
    check_size(width, height, source, header[1] + 1)
    start = header[1] + 1
    rows = count_clues(lines, start, height, "row", source)
    start += height
    if start < len(lines) and is_blank(lines[start]):
        start += 1
    columns = count_clues(lines, start, width, "column", source)
    for i in range(start + width, len(lines)):
        if not is_blank(lines[i]):
            raise ParseError(f"unexpected text after the {width} column clues", source, i + 1)
    return [Puzzle(rows=rows, columns=columns)]


def write(puzzle: Puzzle) -> str:
    """The puzzle as a CWD file.

    >>> write(Puzzle.from_clues([[1]], [[1]]))
    '1\\n1\\n1\\n\\n1\\n'
    """
    require_bw(puzzle, "cwd")
    out = [str(puzzle.height), str(puzzle.width)]
    out += [clue_text(c) for c in puzzle.rows]
    out.append("")
    out += [clue_text(c) for c in puzzle.columns]
    return "\n".join(out) + "\n"
