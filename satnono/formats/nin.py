"""Jakub Wilk's ``.nin`` format: ``W H``, then H row clues, then W column clues.

Numbers are separated by whitespace and ``0`` (or a blank line) is an empty
clue.  The clue lines are counted, never split on blank lines: exactly the
H + W lines after the header are read and anything after them is ignored
(``data142.nin`` of Wilk's test set repeats its clues five times).
"""

from __future__ import annotations

from ..errors import ParseError
from ..model import Clue, Puzzle
from ._palette import require_bw
from ._text import check_size, parse_clue, parse_int, split_lines


def read_header(lines: list[str], names: tuple[str, str], source: str | None) -> tuple[int, int, int]:
    """The two numbers on the first non-blank line, and that line's index."""
    for i, line in enumerate(lines):
        tokens = line.split()
        if not tokens:
            continue
        if len(tokens) != 2:
            raise ParseError(f"the first line should be '{names[0]} {names[1]}'", source, i + 1)
        a = parse_int(tokens[0], names[0], source, i + 1)
        b = parse_int(tokens[1], names[1], source, i + 1)
        return a, b, i
    raise ParseError("empty file", source)


def count_clues(
    lines: list[str], start: int, count: int, what: str, source: str | None
) -> tuple[Clue, ...]:
    """The ``count`` lines from index ``start`` as clues (a blank line is an empty clue)."""
    if start + count > len(lines):
        raise ParseError(
            f"expected {count} {what} clue lines from line {start + 1}, but the file ends at line {len(lines)}",
            source,
            len(lines),
        )
    return tuple(parse_clue(lines[i], source, i + 1) for i in range(start, start + count))


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a ``.nin`` file."""
    lines = split_lines(text)
    width, height, at = read_header(lines, ("width", "height"), source)
    check_size(width, height, source, at + 1)
    rows = count_clues(lines, at + 1, height, "row", source)
    columns = count_clues(lines, at + 1 + height, width, "column", source)
    return [Puzzle(rows=rows, columns=columns)]


def clue_text(clue: Clue) -> str:
    return " ".join(map(str, clue)) if clue else "0"


def write(puzzle: Puzzle) -> str:
    """The puzzle as a ``.nin`` file.

    >>> write(Puzzle.from_clues([[1]], [[1]]))
    '1 1\\n1\\n1\\n'
    """
    require_bw(puzzle, "nin")
    out = [f"{puzzle.width} {puzzle.height}"]
    out += [clue_text(c) for c in puzzle.rows]
    out += [clue_text(c) for c in puzzle.columns]
    return "\n".join(out) + "\n"
