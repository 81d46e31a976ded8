"""Line propagation to a fixpoint.

The state of a grid is four lists of int masks: known black and known white
cells per row (bit c = column c) and per column (bit r = row r).  Each dirty
line is solved completely (:mod:`satnono.linesolve`); newly forced cells mark
the crossing lines dirty; this repeats until nothing changes, a line admits no
placement (contradiction) or every cell is known.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from .linesolve import ColorLineResult, LineResult, LineSolver, Mask
from .model import Grid, Puzzle, grid_from_color_masks, grid_from_masks

ROW = "row"
COLUMN = "column"


class Deadline(Exception):
    """Propagation ran past its deadline."""


@dataclass(slots=True)
class Contradiction:
    """Why propagation proved that a puzzle has no solution."""

    axis: str
    """``"row"`` or ``"column"``."""
    index: int
    """0-based line index."""
    fits: bool
    """False when the clue cannot fit in the line at all (even with nothing known)."""

    def describe(self, puzzle: Puzzle) -> str:
        n = puzzle.width if self.axis == ROW else puzzle.height
        text = puzzle.clue_text(self.axis, self.index)
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

    def unknown_cells(self) -> list[tuple[int, int]]:
        full = (1 << self.width) - 1
        out = []
        for r in range(self.height):
            u = full & ~self.known_row(r)
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


def initial_state(puzzle: Puzzle, givens=None) -> GridState:
    """A fresh state with the puzzle's given cells set, and ``givens`` (a mapping
    ``(row, col) -> colour index``, True/False for black/white) too: a cell given two
    different values is left with none (propagation then reports the contradiction)."""
    state = GridState(puzzle)
    # rules: the givens are the first rule, applied here; the other rules narrow the state
    # when it is propagated
    if puzzle.givens:
        puzzle.all_rules[0].narrow(state, None)
    for (r, c), v in (givens or {}).items():
        state.set_cell(r, c, v)
    return state


def known_of(excluded: tuple[Mask, ...], full: Mask) -> Mask:
    """Cells where at most one value is left (every value but one excluded)."""
    one = two = 0
    for ex in excluded:
        may = full & ~ex
        two |= one & may
        one |= may
    return full & ~two


def _scatter(bits: Mask, index: int, cross: list[Mask], dirty: list[bool]) -> None:
    """Set bit ``index`` in ``cross[i]`` for every bit i of ``bits``; mark those lines dirty."""
    one = 1 << index
    while bits:
        low = bits & -bits
        i = low.bit_length() - 1
        cross[i] |= one
        dirty[i] = True
        bits ^= low


_DELTA_MASKS: dict[int, list[tuple[int, int]]] = {}


def _delta_masks(side: int) -> list[tuple[int, int]]:
    """For a ``side`` x ``side`` bit matrix (side a power of two), the delta swaps of a transposition.

    Level j swaps the j x j blocks above and below the diagonal of every
    2j x 2j block: element (r, c) with r & j == 0 and c & j != 0 trades
    places with (r + j, c - j), j * (side - 1) bits further up.
    """
    found = _DELTA_MASKS.get(side)
    if found is None:
        found = []
        nbytes = side >> 3
        zero = bytes(nbytes)
        j = side >> 1
        while j:
            row = sum(1 << c for c in range(side) if c & j).to_bytes(nbytes, "little")
            mask = int.from_bytes(b"".join(zero if r & j else row for r in range(side)), "little")
            found.append((j * (side - 1), mask))
            j >>= 1
        _DELTA_MASKS[side] = found
    return found


def transpose(masks: list[Mask], width: int) -> list[Mask]:
    """The ``width`` column masks of the matrix whose row masks are ``masks`` (bit c = column c).

    The rows are packed into one int (a square of power-of-two side, at least
    8 so rows are whole bytes), transposed by log2(side) delta swaps, and
    read back: about 0.5 ms for 512 x 512, where setting bits one by one
    costs about 0.3 microseconds a bit.
    """
    side = 8
    while side < len(masks) or side < width:
        side <<= 1
    nbytes = side >> 3
    x = int.from_bytes(b"".join(m.to_bytes(nbytes, "little") for m in masks), "little")
    for shift, mask in _delta_masks(side):
        t = (x ^ (x >> shift)) & mask
        x ^= t ^ (t << shift)
    buf = x.to_bytes(nbytes * side, "little")
    fb = int.from_bytes
    return [fb(buf[i * nbytes:(i + 1) * nbytes], "little") for i in range(width)]


#: Grids with a longer side than this never use the transposition (its masks would take
#: over 100 MB, and a sweep's cells one by one cost less).
TRANSPOSE_MAX_SIDE = 4096


def scatter_limit(side: int) -> int:
    """How many new cells are set one by one, on a grid whose longer side is ``side``, before a transposition pays.

    A cell costs about 0.3 microseconds; a transposition of the padded
    ``side`` x ``side`` square about 2 ns a bit at side 512, 4.5 ns at 4096.
    """
    if side > TRANSPOSE_MAX_SIDE:
        return 1 << 62
    return 32 + (side * side >> (7 if side <= 1024 else 6))


def _push(changes: list[tuple[int, Mask]], nbits: int, masks: list[Mask], width: int,
          cross: list[Mask], dirty: list[bool]) -> None:
    """Copy the new cells of one colour from a swept axis to the crossing lines.

    ``changes`` lists ``(line, new cells)``; ``nbits`` is their total count.
    Up to :func:`scatter_limit` cells are set one by one; more (a large grid
    early on) by transposing the swept axis's masks.
    """
    if nbits <= scatter_limit(max(len(masks), width)):
        for i, bits in changes:
            _scatter(bits, i, cross, dirty)
        return
    for c, m in enumerate(transpose(masks, width)):
        if m != cross[c]:
            cross[c] = m
            dirty[c] = True


def propagate(
    state: GridState,
    solver: LineSolver,
    dirty_rows: list[bool] | None = None,
    dirty_cols: list[bool] | None = None,
    deadline: float | None = None,
) -> Contradiction | None:
    """Run line solving on ``state`` (in place) to a fixpoint.

    By default every line starts dirty.  Returns a :class:`Contradiction` if a
    line admits no placement, else None.  Raises :class:`Deadline` when the
    monotonic clock passes ``deadline``.

    With rules (``puzzle.rules``; the givens, the first rule, are set by
    :func:`initial_state`), each line fixpoint is followed by every rule's ``narrow``; the lines whose cells it changed are solved again, until
    neither lines nor rules change anything.  A rule's conflict is returned as
    the contradiction (it has ``describe`` too).
    """
    rules = state.puzzle.rules
    if dirty_rows is None:
        dirty_rows = [True] * state.height
    if dirty_cols is None:
        dirty_cols = [True] * state.width
    after_rules = None  # the row masks when the rules last ran: what changed since is "touched"
    while True:
        bad = _lines_fixpoint(state, solver, dirty_rows, dirty_cols, deadline)
        if bad is not None or not rules:
            return bad
        rows_before = [ex[:] for ex in state.row_ex]
        touched = None if after_rules is None else _changed_cells(after_rules, rows_before)
        if touched is not None and not touched:
            return None  # nothing new since the rules last looked
        for rule in rules:
            narrow = getattr(rule, "narrow", None)
            bad = None if narrow is None else narrow(state, touched)
            if bad is not None:
                return bad
        after_rules = [ex[:] for ex in state.row_ex]
        changed = False
        for r, bits in enumerate(_changed_rows(rows_before, after_rules)):
            if bits:
                dirty_rows[r] = changed = True
                for c in _bit_list(bits):
                    dirty_cols[c] = True
        if not changed:
            return None


def _changed_rows(before: list[list[Mask]], after: list[list[Mask]]) -> list[Mask]:
    """Per row, the cells whose exclusions differ between two copies of ``row_ex``."""
    out = [0] * len(before[0])
    for ex0, ex1 in zip(before, after):
        for r, (a, b) in enumerate(zip(ex0, ex1)):
            out[r] |= a ^ b
    return out


def _changed_cells(before: list[list[Mask]], after: list[list[Mask]]) -> set[tuple[int, int]]:
    """The cells whose exclusions differ between two copies of ``row_ex``."""
    return {(r, c) for r, bits in enumerate(_changed_rows(before, after)) for c in _bit_list(bits)}


def _bit_list(mask: Mask) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def _lines_fixpoint(
    state: GridState,
    solver: LineSolver,
    dirty_rows: list[bool],
    dirty_cols: list[bool],
    deadline: float | None,
) -> Contradiction | None:
    """:func:`propagate` without rules: the lines alone to their fixpoint."""
    p = state.puzzle
    h, w = state.height, state.width
    rows, cols = p.rows, p.columns
    rb, rw, cb, cw = state.row_black, state.row_white, state.col_black, state.col_white
    if state.nvals > 2:
        return _propagate_color(state, solver, dirty_rows, dirty_cols, deadline)
    # A line is solved even when all its cells are known: that is where a
    # line completed by crossing lines is checked against its own clue.
    while True:
        if deadline is not None and time.monotonic() > deadline:
            raise Deadline
        bad = _sweep(ROW, rows, w, rb, rw, cb, cw, dirty_rows, dirty_cols, solver)
        if bad is not None:
            return bad
        bad = _sweep(COLUMN, cols, h, cb, cw, rb, rw, dirty_cols, dirty_rows, solver)
        if bad is not None:
            return bad
        if not any(dirty_rows) and not any(dirty_cols):
            return None


def _sweep(
    axis: str,
    clues: tuple[tuple[int, ...], ...],
    n: int,
    black: list[Mask],
    white: list[Mask],
    cross_black: list[Mask],
    cross_white: list[Mask],
    dirty: list[bool],
    cross_dirty: list[bool],
    solver: LineSolver,
) -> Contradiction | None:
    """Solve every dirty line of one axis once, then push its new cells to the crossing lines."""
    new_black: list[tuple[int, Mask]] = []
    new_white: list[tuple[int, Mask]] = []
    nblack = nwhite = 0
    bad = None
    for i, is_dirty in enumerate(dirty):
        if not is_dirty:
            continue
        dirty[i] = False
        b, wh = black[i], white[i]
        res = solver(clues[i], n, b, wh)
        if res is None:
            bad = Contradiction(axis, i, solver(clues[i], n, 0, 0) is not None)
            break
        nb = res.black & ~b
        nw = res.white & ~wh
        if nb:
            black[i] = res.black
            new_black.append((i, nb))
            nblack += nb.bit_count()
        if nw:
            white[i] = res.white
            new_white.append((i, nw))
            nwhite += nw.bit_count()
    # pushed even on a contradiction, so both views of the state agree
    _push(new_black, nblack, black, n, cross_black, cross_dirty)
    _push(new_white, nwhite, white, n, cross_white, cross_dirty)
    return bad


def _propagate_color(state: GridState, solver: LineSolver, dirty_rows: list[bool], dirty_cols: list[bool],
                     deadline: float | None) -> Contradiction | None:
    """:func:`propagate` for a puzzle with more than one block colour: the same sweeps,
    with one excluded-cells mask per colour instead of the black and white pair."""
    p = state.puzzle
    h, w = state.height, state.width
    while True:
        if deadline is not None and time.monotonic() > deadline:
            raise Deadline
        bad = _sweep_color(ROW, p.rows, p.row_colors, w, state.row_ex, state.col_ex, dirty_rows, dirty_cols, solver)
        if bad is not None:
            return bad
        bad = _sweep_color(COLUMN, p.columns, p.column_colors, h, state.col_ex, state.row_ex,
                           dirty_cols, dirty_rows, solver)
        if bad is not None:
            return bad
        if not any(dirty_rows) and not any(dirty_cols):
            return None


def _sweep_color(axis, lengths, colors, n, ex, cross_ex, dirty, cross_dirty, solver: LineSolver) -> Contradiction | None:
    """Solve every dirty line of one axis once, then push each colour's new exclusions to the crossing lines."""
    nvals = len(ex)
    news: list[list[tuple[int, Mask]]] = [[] for _ in range(nvals)]
    counts = [0] * nvals
    bad = None
    for i, is_dirty in enumerate(dirty):
        if not is_dirty:
            continue
        dirty[i] = False
        cur = tuple(e[i] for e in ex)
        res = solver.color(lengths[i], colors[i], n, cur)
        if res is None:
            fits = solver.color(lengths[i], colors[i], n, (0,) * nvals) is not None
            bad = Contradiction(axis, i, fits)
            break
        for v, (new, old) in enumerate(zip(res.excluded, cur)):
            d = new & ~old
            if d:
                ex[v][i] = new
                news[v].append((i, d))
                counts[v] += d.bit_count()
    for v in range(nvals):  # pushed even on a contradiction, so both views of the state agree
        _push(news[v], counts[v], ex[v], n, cross_ex[v], cross_dirty)
    return bad


def line_starts(state: GridState, solver: LineSolver, axis: str, index: int) -> LineResult | ColorLineResult:
    """The line solver's result for one line of a consistent state (valid starts per block)."""
    p = state.puzzle
    if state.nvals > 2:
        lengths, colors = p.line(axis, index)
        n = state.width if axis == ROW else state.height
        res = solver.color(lengths, colors, n, state.line_excluded(axis, index))
    elif axis == ROW:
        res = solver(p.rows[index], state.width, state.row_black[index], state.row_white[index])
    else:
        res = solver(p.columns[index], state.height, state.col_black[index], state.col_white[index])
    if res is None:
        raise ValueError(f"{axis} {index} is inconsistent; propagate first")
    return res
