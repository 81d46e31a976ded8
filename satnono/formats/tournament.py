"""Tournament text files (TAAI / TCGA / ICGA Computer Olympiad nonogram sets).

Layout: a ``$<n>`` header line per puzzle, then 2N clue lines, numbers
separated by TABs (any whitespace is accepted): first the N **column** clues,
then the N **row** clues; the puzzle is N x N.  An empty line is an empty clue,
so blank lines inside a puzzle are never skipped.  N is half the number of
lines up to the next header (or the end of the file), not counting trailing
blank lines, rounded up to an even count.  A file without any ``$`` header is
one headerless puzzle (CGI-Lab's ``PuzzleCannotSolve.txt``).

The header number goes to ``meta`` as ``("id", "<n>")``; puzzle k of the file
gets the source ``path#k`` when the file holds several.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from ..errors import ParseError
from ..model import Puzzle
from ._text import check_size, is_blank, parse_clue, split_lines

HEADER = re.compile(r"\$\s*(\S*)")


def read(text: str, source: str | None) -> list[Puzzle]:
    """All puzzles of a tournament file."""
    count, puzzle = index(text, source)
    return [puzzle(k) for k in range(1, count + 1)]


def index(text: str, source: str | None) -> tuple[int, Callable[[int], Puzzle]]:
    """How many puzzles the file holds, and a function reading puzzle k (from 1) alone.

    Finding the puzzles costs a scan of the lines for ``$`` headers; reading one
    parses only its own clue lines, so ``FILE#k`` on a 1000-puzzle file does not
    parse the other 999.
    """
    lines = split_lines(text)
    headers = [i for i, line in enumerate(lines) if line.lstrip().startswith("$")]
    if not headers:
        if all(is_blank(x) for x in lines):
            raise ParseError("empty file", source)
        return 1, lambda k: _puzzle(lines, 0, len(lines), None, source)
    for i in range(headers[0]):
        if not is_blank(lines[i]):
            raise ParseError("text before the first '$' puzzle header", source, i + 1)
    bounds = headers + [len(lines)]
    return len(headers), lambda k: _puzzle(lines, bounds[k - 1] + 1, bounds[k], bounds[k - 1], source)


def _puzzle(lines: list[str], start: int, end: int, header: int | None, source: str | None) -> Puzzle:
    meta: tuple[tuple[str, str], ...] = ()
    if header is not None:
        m = HEADER.fullmatch(lines[header].strip())
        label = m.group(1) if m else ""
        if not label.isascii() or not label.isdigit():
            raise ParseError(f"puzzle header should be '$<number>', got {lines[header].strip()[:30]!r}", source, header + 1)
        meta = (("id", label.lstrip("0") or "0"),)
    last = end
    while last > start and is_blank(lines[last - 1]):
        last -= 1
    used = last - start
    if used == 0:
        where = f"puzzle {lines[header].strip()!r}" if header is not None else "the file"
        raise ParseError(f"{where} has no clue lines", source, (header + 1) if header is not None else None)
    if used % 2:
        if last == end:
            raise ParseError(
                f"a puzzle needs an even number of clue lines (N columns then N rows), found {used}",
                source,
                last,
            )
        used += 1  # the last row clue is an empty line
    n = used // 2
    check_size(n, n, source, (header + 1) if header is not None else None)
    clues = [parse_clue(lines[i], source, i + 1) for i in range(start, start + used)]
    return Puzzle(rows=tuple(clues[n:]), columns=tuple(clues[:n]), meta=meta)
