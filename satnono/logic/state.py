"""The grid's known cells, kept row-wise and column-wise, and what stops propagation."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..clues import COLUMN, ROW
from ..lanes import FAMILY_NAMES, LINE, Lane
from ..lines.bits import Mask, known_of
from ..model import Grid, Puzzle, grid_from_color_masks, grid_from_masks
from ..rules.common import cells_text
from ..rules.protocol import lane_of

if TYPE_CHECKING:
    from ..lanepuzzle import LanePuzzle

__all__ = ["COLUMN", "ROW", "Contradiction", "Deadline", "GridState", "initial_state", "known_of", "partial_grid"]


class Deadline(Exception):
    """Propagation ran past its deadline."""


@dataclass
class Contradiction:
    """Why propagation proved that a puzzle has no solution."""

    axis: str
    """The lane's family: ``"row"`` or ``"column"``, ``"line"`` for an extra line (a ``line``
    rule), or ``"/"``, ``"\\"`` on a triangle."""
    index: int
    """0-based lane index in its family."""
    fits: bool
    """False when the clue cannot fit in the line at all (even with nothing known)."""

    def describe(self, puzzle: Puzzle | LanePuzzle) -> str:
        if not isinstance(puzzle, Puzzle):  # a puzzle of another geometry: its lane by name
            from ..lanepuzzle import clue_text

            k = next(k for k, lane in enumerate(puzzle.lanes) if (lane.family, lane.index) == (self.axis, self.index))
            lane, clue = puzzle.lanes[k], puzzle.lane_clues[k]
            if not self.fits:
                return (f"{lane.name}: clue {clue_text(clue, puzzle.chars)} needs {clue.min_length()} cells "
                        f"but the lane has {len(lane.cells)}")
            return f"{lane.name}: clue {clue_text(clue, puzzle.chars)} cannot be placed"
        text = puzzle.clue_text(self.axis, self.index)
        if self.axis == LINE:  # an extra line (a line rule): its name and its first cells
            cells = lane_of(puzzle.rules[puzzle.line_rules[self.index]])[0]  # type: ignore[index]
            name = f"{FAMILY_NAMES[LINE]} {self.index + 1} through {cells_text(cells)}"
            if not self.fits:
                need = puzzle.min_length(LINE, self.index)
                return f"{name}: clue {text} needs {need} cells but the line has {len(cells)}"
            return f"{name}: clue {text} contradicts the cells forced by the crossing lines"
        n = puzzle.width if self.axis == ROW else puzzle.height
        if not self.fits:
            need = puzzle.min_length(self.axis, self.index)
            return f"{self.axis} {self.index + 1}: clue {text} needs {need} cells but the line has {n}"
        return f"{self.axis} {self.index + 1}: clue {text} contradicts the cells forced by the crossing lines"


class GridState:
    """Known cells of a puzzle, kept both row-wise and column-wise.

    ``row_ex[v][r]`` is the mask of the cells of row r known *not* to have
    colour v (v = 0 the background); ``col_ex[v][c]`` the same by column.  A
    cell is known when every value but one is excluded.  In black and white
    (two values) ``row_black`` is ``row_ex[0]`` (cells that are not
    background: black) and ``row_white`` is ``row_ex[1]`` (cells that are not
    black: white) -- the same lists, so either view may be used.
    """

    __slots__ = ("puzzle", "height", "width", "nvals", "row_ex", "col_ex",
                 "row_black", "row_white", "col_black", "col_white")

    def __init__(self, puzzle: Puzzle) -> None:
        self.puzzle = puzzle
        self.height = puzzle.height
        self.width = puzzle.width
        self.nvals = len(puzzle.palette)
        self.row_ex = [[0] * self.height for _ in range(self.nvals)]
        self.col_ex = [[0] * self.width for _ in range(self.nvals)]
        self._alias()

    def _alias(self) -> None:
        self.row_black, self.row_white = self.row_ex[0], self.row_ex[1]
        self.col_black, self.col_white = self.col_ex[0], self.col_ex[1]

    def copy(self) -> "GridState":
        s = GridState.__new__(GridState)
        s.puzzle = self.puzzle
        s.height = self.height
        s.width = self.width
        s.nvals = self.nvals
        s.row_ex = [x[:] for x in self.row_ex]
        s.col_ex = [x[:] for x in self.col_ex]
        s._alias()
        return s

    def known_row(self, r: int) -> Mask:
        """The known cells of row r."""
        if self.nvals == 2:
            return self.row_black[r] | self.row_white[r]
        return known_of(tuple(ex[r] for ex in self.row_ex), (1 << self.width) - 1)

    def known_column(self, c: int) -> Mask:
        """The known cells of column c."""
        if self.nvals == 2:
            return self.col_black[c] | self.col_white[c]
        return known_of(tuple(ex[c] for ex in self.col_ex), (1 << self.height) - 1)

    def known_count(self) -> int:
        if self.nvals == 2:
            return sum((b | w).bit_count() for b, w in zip(self.row_black, self.row_white))
        return sum(self.known_row(r).bit_count() for r in range(self.height))

    def unknown_count(self) -> int:
        return self.height * self.width - self.known_count()

    def is_complete(self) -> bool:
        full = (1 << self.width) - 1
        return all(self.known_row(r) == full for r in range(self.height))

    def open_rows(self) -> list[Mask]:
        """Per row, the mask of its cells not known yet."""
        full = (1 << self.width) - 1
        return [full & ~self.known_row(r) for r in range(self.height)]

    def open_columns(self) -> list[Mask]:
        """Per column, the mask of its cells not known yet."""
        full = (1 << self.height) - 1
        return [full & ~self.known_column(c) for c in range(self.width)]

    def unknown_cells(self) -> list[tuple[int, int]]:
        out = []
        for r, u in enumerate(self.open_rows()):
            while u:
                low = u & -u
                out.append((r, low.bit_length() - 1))
                u ^= low
        return out

    def cell(self, r: int, c: int) -> int | None:
        """The cell's colour index when known (1 black, 0 white in black and white), else None."""
        if self.nvals == 2:
            if (self.row_black[r] >> c) & 1:
                return 1
            if (self.row_white[r] >> c) & 1:
                return 0
            return None
        left = [v for v in range(self.nvals) if not (self.row_ex[v][r] >> c) & 1]
        return left[0] if len(left) == 1 else None

    def possible(self, r: int, c: int) -> list[int]:
        """The colour indices cell (r, c) may still have."""
        return [v for v in range(self.nvals) if not (self.row_ex[v][r] >> c) & 1]

    def set_cell(self, r: int, c: int, value: int | bool) -> None:
        """Fix a cell to colour index ``value`` (True/False: black/white in black and white)."""
        value = int(value)
        rb, cb = 1 << c, 1 << r
        for v in range(self.nvals):
            if v != value:
                self.row_ex[v][r] |= rb
                self.col_ex[v][c] |= cb

    def exclude(self, r: int, c: int, value: int) -> None:
        """Record that cell (r, c) does not have colour index ``value``."""
        self.row_ex[value][r] |= 1 << c
        self.col_ex[value][c] |= 1 << r

    def grid(self) -> Grid:
        """The grid of a complete state."""
        if self.nvals == 2:
            return grid_from_masks(self.row_black, self.width, self.puzzle.chars)
        full = (1 << self.width) - 1
        masks = [[full & ~m for m in ex] for ex in self.row_ex]
        return grid_from_color_masks(masks, self.width, self.puzzle.chars)

    def line(self, axis: str, index: int) -> tuple[Mask, Mask]:
        if axis == ROW:
            return self.row_black[index], self.row_white[index]
        return self.col_black[index], self.col_white[index]

    def line_excluded(self, axis: str, index: int) -> tuple[Mask, ...]:
        """Per colour index, the cells of one line known not to have it."""
        exs = self.row_ex if axis == ROW else self.col_ex
        return tuple(ex[index] for ex in exs)

    def lane_masks(self, lane: Lane) -> tuple[Mask, ...]:
        """Per colour index, the positions of ``lane`` (bit ``i`` its ``i``-th cell) known not to
        have it: what the line kernels take.  A row's or a column's are the state's own masks;
        any other lane's (an extra line) are gathered cell by cell."""
        if lane.family == ROW:
            return tuple(ex[lane.index] for ex in self.row_ex)
        if lane.family == COLUMN:
            return tuple(ex[lane.index] for ex in self.col_ex)
        masks = [0] * self.nvals
        w = self.width
        for i, cell in enumerate(lane.cells):
            r, c = divmod(cell, w)
            for v, ex in enumerate(self.row_ex):
                masks[v] |= ((ex[r] >> c) & 1) << i
        return tuple(masks)


def initial_state(puzzle: Puzzle | LanePuzzle) -> GridState:
    """A fresh state with the puzzle's given cells set: a :class:`GridState` (the rectangle's bit
    masks), or for a puzzle of another geometry a :class:`~satnono.logic.lanes.LaneState`."""
    if not isinstance(puzzle, Puzzle):
        from .lanes import lane_state

        return lane_state(puzzle)  # type: ignore[return-value]
    state = GridState(puzzle)
    # rules: the givens are the first rule, applied here; the other rules narrow the state
    # when it is propagated
    if puzzle.givens:
        puzzle.all_rules[0].narrow(state, None)
    return state


def partial_grid(state: GridState) -> Grid:
    """The grid as far as ``state`` knows it: each known cell's palette character, ``?`` for
    an unknown one."""
    chars = state.puzzle.chars
    cell = state.cell
    return tuple("".join("?" if (v := cell(r, c)) is None else chars[v] for c in range(state.width))
                 for r in range(state.height))
