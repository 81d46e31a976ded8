"""The puzzle model: clues, grids and their basic laws.

A *clue* is the sequence of block lengths of one line, top to bottom for a
column and left to right for a row.  Black-and-white only for now: when colour
puzzles arrive a clue becomes a sequence of ``(length, colour)`` blocks; every
module that reads clues goes through :class:`Puzzle`, so that change stays local.

A *grid* is a tuple of row strings over ``#`` (black) and ``.`` (white).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterable, Mapping, Sequence

Clue = tuple[int, ...]
Grid = tuple[str, ...]

BLACK = "#"
WHITE = "."

#: Largest accepted side length; larger puzzles are refused with a clear error.
MAX_SIDE = 10_000
#: Largest accepted number of cells.
MAX_CELLS = 4_000_000


@dataclass(frozen=True, slots=True)
class Puzzle:
    """A black-and-white nonogram: row and column clues plus optional metadata."""

    rows: tuple[Clue, ...]
    """Row clues, top to bottom."""
    columns: tuple[Clue, ...]
    """Column clues, left to right."""
    name: str | None = None
    """A title, if the file gave one."""
    goal: Grid | None = None
    """The intended picture, if the file carried one (not trusted: it is checked, never assumed)."""
    meta: tuple[tuple[str, str], ...] = field(default=())
    """Other properties from the file (author, copyright, licence, ...), in file order."""
    source: str | None = None
    """Where the puzzle came from: the file name as given, with ``#k`` for the k-th puzzle of a multi-puzzle file."""

    def __post_init__(self) -> None:
        # Normalise so that every consumer sees the same clue shape: tuples of
        # positive ints, an empty line as ``()`` (``[0]`` is accepted for it).
        object.__setattr__(self, "rows", tuple(normalise_clue(c) for c in self.rows))
        object.__setattr__(self, "columns", tuple(normalise_clue(c) for c in self.columns))
        if self.goal is not None:
            object.__setattr__(self, "goal", tuple(self.goal))
        object.__setattr__(self, "meta", tuple((str(k), str(v)) for k, v in self.meta))

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self.meta)

    @classmethod
    def from_clues(
        cls,
        rows: Iterable[Iterable[int]],
        columns: Iterable[Iterable[int]],
        **kwargs: object,
    ) -> "Puzzle":
        """Build a puzzle, normalising clues (a lone ``0`` means an empty line)."""
        return cls(rows=tuple(rows), columns=tuple(columns), **kwargs)  # type: ignore[arg-type]

    @classmethod
    def from_grid(cls, grid: Sequence[str], **kwargs: object) -> "Puzzle":
        """The puzzle whose clues describe ``grid`` (which becomes its goal)."""
        g = check_grid(grid)
        rows, cols = clues_of_grid(g)
        kwargs.setdefault("goal", g)
        return cls(rows=rows, columns=cols, **kwargs)  # type: ignore[arg-type]

    def with_source(self, source: str | None) -> "Puzzle":
        return Puzzle(self.rows, self.columns, self.name, self.goal, self.meta, source)

    def is_solution(self, grid: Sequence[str]) -> bool:
        """True when ``grid`` has this puzzle's size and satisfies every clue."""
        if len(grid) != self.height or any(len(r) != self.width for r in grid):
            return False
        if any(r.strip(BLACK + WHITE) for r in grid):  # a character other than '#' and '.'
            return False
        rows, cols = clues_of_grid(tuple(grid))
        return rows == self.rows and cols == self.columns

    def sum_mismatch(self) -> bool:
        """True when row clues and column clues disagree on the number of black cells."""
        return sum(map(sum, self.rows)) != sum(map(sum, self.columns))


def normalise_clue(clue: Iterable[int]) -> Clue:
    """``[0]`` and ``[]`` both mean an empty line; zeros elsewhere are dropped.

    Negative lengths are a caller error (parsers reject them with a line number).
    """
    out = tuple(int(x) for x in clue)
    if any(x < 0 for x in out):
        raise ValueError(f"negative block length in clue {list(out)}")
    return tuple(x for x in out if x != 0)


def line_clue(cells: str) -> Clue:
    """The clue of one line given as a string of ``#``/``.``."""
    return tuple(len(run) for run in cells.split(WHITE) if run)


def check_grid(grid: Sequence[str]) -> Grid:
    """Validate a rectangular grid of ``#``/``.`` and return it as a tuple."""
    g = tuple(grid)
    if not g or not g[0]:
        raise ValueError("empty grid")
    w = len(g[0])
    for r, row in enumerate(g):
        if len(row) != w:
            raise ValueError(f"grid row {r + 1} has {len(row)} cells, expected {w}")
        bad = set(row) - {BLACK, WHITE}
        if bad:
            raise ValueError(f"grid row {r + 1} has characters other than '#' and '.': {''.join(sorted(bad))!r}")
    return g


def clues_of_grid(grid: Grid) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row and column clues of a grid."""
    rows = tuple(line_clue(r) for r in grid)
    if not grid:
        return rows, ()
    w = len(grid[0])
    if any(len(r) != w for r in grid):
        raise ValueError("grid rows differ in length")
    flat = "".join(grid)  # column c is every w-th character from c (rows must all have width w)
    cols = tuple(line_clue(flat[c::w]) for c in range(w))
    return rows, cols


_BITS_TO_CELLS = str.maketrans("01", WHITE + BLACK)


def grid_from_masks(masks: Sequence[int], width: int) -> Grid:
    """Rows given as int bitmasks (bit c = column c black) to row strings."""
    if width <= 0:
        return tuple("" for _ in masks)
    full = (1 << width) - 1
    spec = f"0{width}b"
    # binary digits run from the highest bit down: reverse so column 0 comes first
    return tuple(format(m & full, spec)[::-1].translate(_BITS_TO_CELLS) for m in masks)


def masks_from_grid(grid: Sequence[str]) -> list[int]:
    """Row strings to int bitmasks (bit c = column c black)."""
    out = []
    for row in grid:
        m = 0
        for c, ch in enumerate(row):
            if ch == BLACK:
                m |= 1 << c
        out.append(m)
    return out


def grid_diff(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """The ``(row, col)`` cells where two grids of the same size differ, row-major."""
    return [
        (r, c)
        for r, (ra, rb) in enumerate(zip(a, b))
        if ra != rb
        for c, (x, y) in enumerate(zip(ra, rb))
        if x != y
    ]


def meta_from_mapping(m: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in m.items())
