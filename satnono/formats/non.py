"""Steve Simpson's ``.non`` format with the mikix/nonogram-db extensions.

Reading rules:

* ``width W`` / ``columns W`` and ``height H`` / ``rows H`` give the size; a
  bare ``rows`` (``columns``) line starts a block of clue lines: numbers
  separated by commas (spaces are tolerated).  The block runs until the next
  line that starts with a letter (a keyword or property) or the end of the file.
* Empty lines inside a clue block: if the block holds exactly H (W) non-blank
  lines, blank lines are separators and an empty clue is written ``0``
  (Simpson).  Otherwise blank lines count as empty clues, starting right after
  the ``rows`` line, and only blank lines may follow the H-th (mikix, pbnsolve).
  See :func:`satnono.formats._text.take_rules`.
* ``goal "0110..."`` (quoted or not) is the picture row by row, ``0`` blank and
  any other character filled.  Without a ``rows`` or ``columns`` block the
  missing clues are derived from the goal.
* ``title`` becomes the puzzle name; ``by`` is stored as ``author``; every
  other ``word value`` line (``copyright``, ``catalogue``, ``license``, ...) is
  kept in ``meta`` in file order.  Values may be quoted; HTML entities
  (``&copy;``) are decoded.  Empty values are dropped.
* Lines that start with neither a letter nor a digit are ignored (mikix:
  "parsers must ignore any line that they don't recognize"); so are
  ``maxrule`` and pbnsolve's ``saved`` lines.
* ``color`` lines and colour clues (``3b,1d``) raise :class:`UnsupportedPuzzle`.
* A ``.nonpack`` bundle (puzzles separated by a line of ``====``) gives
  several puzzles.
"""

from __future__ import annotations

import html
import re

from ..errors import ParseError, PuzzleTooLarge, UnsupportedPuzzle
from ..model import BLACK, MAX_SIDE, WHITE, Clue, Puzzle, clues_of_grid
from ._text import COLOUR_MESSAGE, check_size, is_blank, parse_clue, parse_int, split_lines, take_rules

_WORD = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)(?:\s+(.*))?")
_SEPARATOR = re.compile(r"={4,}\s*")
_CLUE_START = frozenset("0123456789-+,")
_CLUE_SEP = r"\s*,\s*|\s+"
_IGNORED = frozenset({"maxrule", "saved"})
_STRUCTURAL = frozenset({"width", "height", "rows", "columns", "goal", "maxrule", "color", "colour", "saved"})


def read(text: str, source: str | None) -> list[Puzzle]:
    """All puzzles in a ``.non`` file (several for a ``====``-separated bundle)."""
    lines = split_lines(text)
    chunks: list[tuple[int, list[str]]] = []
    start = 0
    for i, line in enumerate(lines):
        if _SEPARATOR.fullmatch(line):
            chunks.append((start, lines[start:i]))
            start = i + 1
    chunks.append((start, lines[start:]))
    chunks = [(offset, chunk) for offset, chunk in chunks if not all(is_blank(x) for x in chunk)]
    if not chunks:
        raise ParseError("empty file", source)
    return [_read_one(chunk, offset, source) for offset, chunk in chunks]


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        value = value[1:-1]
    elif value.startswith('"'):
        value = value[1:]
    return html.unescape(value)


class _Reader:
    def __init__(self, lines: list[str], offset: int, source: str | None) -> None:
        self.lines = lines
        self.offset = offset
        self.source = source
        self.size: dict[str, tuple[int, int]] = {}  # "width"/"height" -> (value, line)
        self.blocks: dict[str, tuple[int, list[tuple[int, str]], int]] = {}
        self.goal: tuple[str, int] | None = None
        self.name: str | None = None
        self.meta: list[tuple[str, str]] = []

    def error(self, message: str, line: int | None) -> ParseError:
        return ParseError(message, self.source, line)

    def set_size(self, key: str, value: str, line: int) -> None:
        n = parse_int(value.split()[0] if value.split() else value, key, self.source, line)
        if n == 0:
            raise self.error(f"{key} must be at least 1", line)
        if n > MAX_SIDE:
            raise PuzzleTooLarge(f"{key} {n} is too large (at most {MAX_SIDE})", self.source, line)
        old = self.size.get(key)
        if old is not None and old[0] != n:
            raise self.error(f"{key} given twice: {old[0]} on line {old[1]}, now {n}", line)
        self.size[key] = (n, line)

    def run(self) -> Puzzle:
        lines = self.lines
        i = 0
        while i < len(lines):
            lineno = self.offset + i + 1
            s = lines[i].strip()
            i += 1
            if not s:
                continue
            if s[0] in _CLUE_START:
                raise self.error("clue line outside a 'rows' or 'columns' section", lineno)
            m = _WORD.fullmatch(s)
            if m is None:
                continue  # not a recognisable line: ignored, as the format says
            key, value = m.group(1).lower(), (m.group(2) or "").strip()
            if key in ("width", "height") or (key in ("rows", "columns") and value):
                self.set_size("height" if key in ("height", "rows") else "width", value, lineno)
            elif key in ("rows", "columns"):
                if key in self.blocks:
                    raise self.error(f"a second '{key}' section (the first is on line {self.blocks[key][0]})", lineno)
                block: list[tuple[int, str]] = []
                while i < len(lines) and (is_blank(lines[i]) or lines[i].strip()[0] in _CLUE_START):
                    block.append((self.offset + i + 1, lines[i]))
                    i += 1
                end = self.offset + i + 1 if i < len(lines) else self.offset + len(lines)
                self.blocks[key] = (lineno, block, end)
            elif key == "goal":
                if self.goal is not None:
                    raise self.error(f"a second goal (the first is on line {self.goal[1]})", lineno)
                self.goal = ("".join(_unquote(value).split()), lineno)
            elif key in ("color", "colour"):
                raise UnsupportedPuzzle(COLOUR_MESSAGE, self.source, lineno)
            elif key in _IGNORED:
                continue
            elif key == "title":
                self.name = _unquote(value)
            else:
                v = _unquote(value)
                if v:
                    self.meta.append(("author" if key == "by" else key, v))
        return self.build()

    def clues(self, key: str, count: int | None) -> tuple[Clue, ...] | None:
        if key not in self.blocks:
            return None
        kw_line, block, end = self.blocks[key]
        what = "row" if key == "rows" else "column"
        if count is None:
            chosen = [item for item in block if not is_blank(item[1])]
            if not chosen:
                raise self.error(f"'{key}' section has no clue lines", kw_line)
        else:
            chosen = take_rules(block, count, what, self.source, end)
        return tuple(parse_clue(t, self.source, n, sep=_CLUE_SEP, colour_ok=True) for n, t in chosen)

    def build(self) -> Puzzle:
        if not self.size and not self.blocks and self.goal is None:
            first = self.offset + 1
            raise self.error("no puzzle found (expected width, height, rows, columns or goal lines)", first)
        height = self.size.get("height", (None, None))[0]
        width = self.size.get("width", (None, None))[0]
        where = max((ln for _, ln in self.size.values()), default=None)
        if width is not None and height is not None:
            check_size(width, height, self.source, where)
        rows = self.clues("rows", height)
        columns = self.clues("columns", width)
        if height is None and rows is not None:
            height = len(rows)
        if width is None and columns is not None:
            width = len(columns)
        goal = None
        if self.goal is not None:
            cells, line = self.goal
            if width is None or height is None:
                raise self.error("a goal needs the width and height to be known", line)
            check_size(width, height, self.source, line)
            if len(cells) != width * height:
                raise self.error(
                    f"goal has {len(cells)} cells, expected {width}x{height} = {width * height}", line
                )
            goal = tuple(
                "".join(WHITE if ch == "0" else BLACK for ch in cells[r * width : (r + 1) * width])
                for r in range(height)
            )
            derived_rows, derived_cols = clues_of_grid(goal)
            rows = derived_rows if rows is None else rows
            columns = derived_cols if columns is None else columns
        if rows is None:
            raise self.error("no 'rows' section (and no goal to derive it from)", None)
        if columns is None:
            raise self.error("no 'columns' section (and no goal to derive it from)", None)
        check_size(len(columns), len(rows), self.source, where)
        return Puzzle(rows=rows, columns=columns, name=self.name, goal=goal, meta=tuple(self.meta))


def _read_one(lines: list[str], offset: int, source: str | None) -> Puzzle:
    return _Reader(lines, offset, source).run()


def _quote(value: str) -> str:
    escaped = value.replace("&", "&amp;").replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")
    return f'"{escaped}"'


def _clue_text(clue: Clue) -> str:
    return ",".join(map(str, clue)) if clue else "0"


def write(puzzle: Puzzle) -> str:
    """The puzzle as a ``.non`` file (empty lines written ``0``, properties quoted).

    >>> print(write(Puzzle.from_clues([[1], []], [[1], []])), end="")
    width 2
    height 2
    <BLANKLINE>
    rows
    1
    0
    <BLANKLINE>
    columns
    1
    0
    """
    out: list[str] = []
    if puzzle.name is not None:
        out.append(f"title {_quote(puzzle.name)}")
    for key, value in puzzle.meta:
        word = "by" if key == "author" else key.lower()
        if _WORD.fullmatch(word) and word not in _STRUCTURAL and word != "title":
            out.append(f"{word} {_quote(value)}")
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [_clue_text(c) for c in puzzle.rows]
    out += ["", "columns"]
    out += [_clue_text(c) for c in puzzle.columns]
    if puzzle.goal is not None:
        out += ["", 'goal "' + "".join("1" if ch == BLACK else "0" for row in puzzle.goal for ch in row) + '"']
    return "\n".join(out) + "\n"
