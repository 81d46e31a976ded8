"""picross-solver's native text format (``GRID`` / ``ROWS`` / ``COLUMNS`` / ``[ n n ]``).

::

    # a comment
    GRID Two notes          # a puzzle starts; the rest of the line is its name
    ROWS
    [ 1 2 ]                 # one clue per line, in brackets
    [ ]                     # an empty line
    COLUMNS
    [ 3 ]
    ...
    GRID Next one           # a file may hold several puzzles

Comment lines start with ``#``; lines ``# Key: value`` before a ``GRID`` line
(as picross-solver writes them) become the puzzle's metadata (``# Size:`` aside),
and the writer writes every property so.  A title (the rest of the ``GRID`` line)
and a property are text on one line (see :mod:`satnono.formats._comments`).
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import Clue, Puzzle
from ._comments import comment_lines, one_line, parse_comment
from ._palette import require_bw
from ._text import check_size, parse_clue, split_lines

_CLUE = re.compile(r"\[(.*)\]")


class _Grid:
    def __init__(self, name: str, line: int, meta: list[tuple[str, str]]) -> None:
        self.name = name or None
        self.line = line
        self.meta = meta
        self.rows: list[Clue] | None = None
        self.columns: list[Clue] | None = None


def read(text: str, source: str | None) -> list[Puzzle]:
    """Every puzzle of a picross-solver file."""
    lines = split_lines(text)
    grids: list[_Grid] = []
    meta: list[tuple[str, str]] = []
    target: list[Clue] | None = None
    for i, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            pair = parse_comment(line)
            if pair is not None and pair[0] != "size":
                meta.append(pair)
            continue
        word = line.split(None, 1)[0]
        if word == "GRID":
            grids.append(_Grid(line[4:].strip(), i, meta))
            meta = []
            target = None
        elif word in ("ROWS", "COLUMNS"):
            if not grids:
                raise ParseError(f"{word} before the first GRID line", source, i)
            if line != word:
                raise ParseError(f"unexpected text after {word}", source, i)
            g = grids[-1]
            if (g.rows if word == "ROWS" else g.columns) is not None:
                raise ParseError(f"{word} given twice for this grid", source, i)
            target = []
            if word == "ROWS":
                g.rows = target
            else:
                g.columns = target
        elif line.startswith("["):
            m = _CLUE.fullmatch(line)
            if m is None:
                raise ParseError("a clue should be written [ n n ... ] on one line", source, i)
            if target is None:
                raise ParseError("a clue outside a ROWS or COLUMNS section", source, i)
            target.append(parse_clue(m.group(1), source, i))
        else:
            raise ParseError(f"unexpected {word[:20]!r} (expected GRID, ROWS, COLUMNS, [ clue ] or # comment)",
                             source, i)
    if not grids:
        raise ParseError("no GRID line", source)
    out = []
    for g in grids:
        for what, clues in (("ROWS", g.rows), ("COLUMNS", g.columns)):
            if clues is None:
                raise ParseError(f"grid {g.name or ''!s} has no {what} section".replace("  ", " "), source, g.line)
        assert g.rows is not None and g.columns is not None
        check_size(len(g.columns), len(g.rows), source, g.line)
        out.append(Puzzle(rows=tuple(g.rows), columns=tuple(g.columns), name=g.name, meta=tuple(g.meta)))
    return out


def write(puzzle: Puzzle) -> str:
    """The puzzle in picross-solver's format.

    >>> print(write(Puzzle.from_clues([[1]], [[1]], name="dot")), end="")
    GRID dot
    ROWS
    [ 1 ]
    COLUMNS
    [ 1 ]
    """
    require_bw(puzzle, "picross")  # its clues are bare lengths: a colour puzzle would become another puzzle

    def clue(c: Clue) -> str:
        return "[ " + " ".join(map(str, c)) + (" ]" if c else "]")

    # a 'size' property would be read as picross-solver's own '# Size:' line, and not kept
    out = comment_lines(None, tuple((k, v) for k, v in puzzle.meta if one_line(k).lower() != "size"), title=False)
    out.append(f"GRID {one_line(puzzle.name or '')}".rstrip())
    out.append("ROWS")
    out += [clue(c) for c in puzzle.rows]
    out.append("COLUMNS")
    out += [clue(c) for c in puzzle.columns]
    return "\n".join(out) + "\n"
