"""CNF encoding of what line propagation left open.

Block-start order encoding ("order-only", see ``shared/guide/encodings.md``):
for block j of a line, y[j,p] means "block j starts at or before p".  Each
block's ladder spans only the start positions the complete line solver still
allows; known cells are constants and are substituted away; lines with no
unknown cell are not encoded at all.

Cell variables are fixed: cell (r, c) is variable ``r * width + c + 1``, so a
model reads back without a lookup.  Block variables follow.

Clauses per encoded line (constants folded in):

* ladder        y[j,p] -> y[j,p+1]
* holes         s_j != p for p between the lowest and highest valid start
* order         y[j+1,p] -> y[j,p-c_j-1]   (a white cell separates blocks)
* white side    block j covers i -> x_i          (x_i v -y[j,i] v y[j,i-c_j])
* black side    x_i -> the last block started by i covers i
                (-x_i v y[0,i]) and (-x_i v -y[j,i] v y[j+1,i] v -y[j,i-c_j])

The black-side clauses are kept for cells already known black: each block's
valid starts respect such a cell on their own, but a combination of blocks can
still skip it.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Iterable, Iterator, Sequence

from .linesolve import LineSolver, spread
from .model import Grid, grid_from_masks
from .propagate import COLUMN, ROW, GridState

Clause = list[int]

@dataclass(slots=True)
class Encoding:
    """A CNF over cell and block-start variables."""

    clauses: list[Clause]
    nvars: int
    width: int
    height: int
    unknown_vars: list[int]
    """Variables of the cells left unknown by propagation (the ones a solution is read from)."""
    unsat: bool = False
    """True when constant folding produced the empty clause."""
    lines: int = 0
    """Number of lines encoded."""
    block_vars: int = field(default=0)
    selectors: dict[tuple[str, int], int] = field(default_factory=dict)
    """With ``selectors=True``: the literal that switches each line's clauses on, keyed by (axis, index)."""

    ncolors: int = 1
    """Block colours K: cell (r, c) has colour v (1..K) is variable ``(r * width + c) * K + v``."""
    unknown_cells: list[tuple[int, int]] = field(default_factory=list)
    """The cells left unknown by propagation, row-major."""
    allowed: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    """Colour puzzles: the colour indices (0 = background) each unknown cell may still have."""

    def cell_var(self, r: int, c: int) -> int:
        return r * self.width + c + 1

    def color_var(self, r: int, c: int, v: int) -> int:
        """The variable "cell (r, c) has block colour v" (``cell_var`` when K = 1)."""
        return (r * self.width + c) * self.ncolors + v

    def cell_value(self, model: Sequence[int], r: int, c: int) -> int:
        """Colour index of an unknown cell in a model (0 background)."""
        k = self.ncolors
        base = (r * self.width + c) * k
        for v in range(1, k + 1):
            x = base + v
            if x <= len(model) and model[x - 1] > 0:
                return v
        return 0

    def blocking_clause(self, model: Sequence[int]) -> list[int]:
        """The clause that excludes ``model`` on the unknown cells."""
        if self.ncolors == 1:
            return [-model[v - 1] if v <= len(model) else v for v in self.unknown_vars]
        out = []
        for r, c in self.unknown_cells:
            v = self.cell_value(model, r, c)
            if v:
                out.append(-self.color_var(r, c, v))
            else:
                out += [self.color_var(r, c, u) for u in self.allowed[(r, c)] if u]
        return out

    def phases(self, model: Sequence[int]) -> list[int]:
        """The model's literals on the unknown cells' variables (to search near it)."""
        k = self.ncolors
        if k == 1:
            return [model[v - 1] for v in self.unknown_vars if v <= len(model)]
        out = []
        for r, c in self.unknown_cells:
            base = (r * self.width + c) * k
            out += [model[x - 1] for x in range(base + 1, base + k + 1) if x <= len(model)]
        return out


class _Builder:
    __slots__ = ("clauses", "next_var", "unsat", "guard", "selectors")

    def __init__(self, first_free: int, selectors: bool) -> None:
        self.clauses: list[Clause] = []
        self.next_var = first_free
        self.unsat = False
        self.guard: int | None = None
        self.selectors: dict[tuple[str, int], int] | None = {} if selectors else None

    def start_line(self, axis: str, index: int) -> None:
        """With selectors, give the next line's clauses a fresh selector literal."""
        if self.selectors is not None:
            self.guard = self.next_var
            self.selectors[(axis, index)] = self.next_var
            self.next_var += 1

    def extend(self, clauses: list[Clause]) -> None:
        """Add one line's clauses (constants already folded), under the current guard."""
        if self.guard is None:
            if not all(clauses):
                self.unsat = True
        else:
            g = -self.guard
            clauses = [[g, *cl] for cl in clauses]
        self.clauses.extend(clauses)


def _ladders(first_var: int, starts: tuple[int, ...]) -> tuple[list[int], list[int], list[int], int]:
    """Ladder variables for blocks with valid start masks ``starts``, from ``first_var``.

    Returns ``(los, his, bases, next_var)``: block j's ladder y[j,p] ("starts at
    or before p") is the variable ``bases[j] + p`` for ``los[j] <= p < his[j]``
    (lowest and highest valid start), the constant false below, true from ``his[j]``.
    """
    los: list[int] = []
    his: list[int] = []
    bases: list[int] = []
    nv = first_var
    for v in starts:
        lo = (v & -v).bit_length() - 1
        hi = v.bit_length() - 1
        los.append(lo)
        his.append(hi)
        bases.append(nv - lo)
        nv += hi - lo
    return los, his, bases, nv


def _order_clauses(out: list[Clause], j: int, gap: int, starts: tuple[int, ...],
                   los: list[int], his: list[int], bases: list[int]) -> None:
    """Append block j's ladder, hole and order clauses.

    * ladder  y[j,p] -> y[j,p+1]
    * holes   s_j != p for p between the lowest and highest valid start
    * order   y[j+1,p] -> y[j,p-gap]: block j+1 starts at least ``gap`` cells
              after block j (its length, plus one when a background cell must
              separate them); dropped, being true, from p - gap >= hi_j
    """
    lo, hi, v, base = los[j], his[j], starts[j], bases[j]
    out += [[-(base + p), base + p + 1] for p in range(lo, hi - 1)]
    out += [[-(base + p), base + p - 1] for p in range(lo + 1, hi) if not (v >> p) & 1]
    if j + 1 < len(starts):
        lo1, hi1, base1 = los[j + 1], his[j + 1], bases[j + 1]
        app = out.append
        for p in range(lo1, min(hi1, hi + gap)):
            q = p - gap
            app([-(base1 + p), base + q] if q >= lo else [-(base1 + p)])


def _line_clauses(
    first_var: int,
    clue: tuple[int, ...],
    n: int,
    starts: tuple[int, ...],
    black: int,
    white: int,
    cell_var,
) -> tuple[list[Clause], int]:
    """The clauses of one line and the next free variable.

    Block j's ladder y[j,p] is a variable for lo_j <= p < hi_j (lowest and
    highest valid start); below lo_j it is the constant false, from hi_j on
    true, and y[k,.] is false.  Every family below is written for the index
    ranges where no literal is a constant that satisfies the clause, and drops
    the literals that are constant false, so no clause is built only to be
    thrown away.  The constant cases that should not arise after a complete
    line solver (a forced cell still unknown) are still folded correctly.
    """
    k = len(clue)
    los, his, bases, nv = _ladders(first_var, starts)
    out: list[Clause] = []
    app = out.append
    for j, c in enumerate(clue):
        _order_clauses(out, j, c + 1, starts, los, his, bases)
        lo, hi, v, base = los[j], his[j], starts[j], bases[j]
        # white side: block j covering an unknown cell i makes it black:
        # x_i v -y[j,i] v y[j,i-c]; -y[j,i] is false from i >= hi, y[j,i-c] false below lo
        cover = 0
        q = v
        while q:
            low = q & -q
            cover |= ((1 << c) - 1) << (low.bit_length() - 1)
            q ^= low
        cover &= ~(black | white)
        while cover:
            low = cover & -cover
            i = low.bit_length() - 1
            cover ^= low
            cl = [cell_var(i)]
            if i < hi:
                cl.append(-(base + i))
            if i - c >= lo:
                cl.append(base + i - c)
            app(cl)
    # black side: a black (or unknown) cell i is covered by the last block started by i:
    # (-x_i v y[0,i]) and, for each j, (-x_i v -y[j,i] v y[j+1,i] v -y[j,i-c_j]).
    # The j-th clause is satisfied unless lo_j + c_j <= i < hi_{j+1}; a known
    # black cell contributes no literal, a known white cell no clause.
    nxl: list[Clause | None] = [
        None if (white >> i) & 1 else [] if (black >> i) & 1 else [-cell_var(i)] for i in range(n)
    ]
    if k == 0:  # an empty clue: every cell white
        out += [x[:] for x in nxl if x is not None]
        return out, nv
    lo0, base0 = los[0], bases[0]
    for i in range(min(his[0], n)):
        x = nxl[i]
        if x is not None:
            app(x + [base0 + i] if i >= lo0 else x[:])
    for j, c in enumerate(clue):
        lo, hi, base = los[j], his[j], bases[j]
        if j + 1 < k:
            lo1, end, base1 = los[j + 1], his[j + 1], bases[j + 1]
        else:
            lo1, end, base1 = n, n, 0  # y[k,.] is false
        hic = hi + c
        for i in range(lo + c, min(end, n)):
            x = nxl[i]
            if x is None:
                continue
            cl = x + [-(base + i)] if i < hi else x[:]
            if i >= lo1:
                cl.append(base1 + i)
            if i < hic:
                cl.append(c - base - i)
            app(cl)
    return out, nv


#: The clauses of one line (black and white / colour), for lines that are not rows or columns
#: (the ``line`` rule's extra lines).
line_clauses = _line_clauses


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (if it runs) for the duration.

    Encoding allocates a list per clause, tens of thousands per puzzle; they
    hold only ints, so they can form no cycle, but each few hundred of them
    trigger a collection, which cost a third of the encoding time.
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def encode(
    state: GridState,
    solver: LineSolver,
    rows: Iterable[int] | None = None,
    columns: Iterable[int] | None = None,
    selectors: bool = False,
) -> Encoding:
    """Encode the lines of a propagated, consistent ``state`` that still have unknown cells.

    ``rows``/``columns`` restrict the encoding to those lines (used for
    independent components); by default every line with an unknown cell.
    With ``selectors`` every clause of a line carries the negation of a fresh
    selector variable, so a line is enforced only when its selector is assumed
    true (for unsatisfiable cores over lines); a line whose clue cannot fit at
    all then contributes the clause ``[-selector]``.
    """
    with _collector_paused():
        enc = _encode(state, solver, rows, columns, selectors)
        if state.puzzle.rules:  # (the givens alone are known cells of the state: nothing to add)
            _encode_rules(enc, state, selectors)
        return enc


def _encode_rules(enc: Encoding, state: GridState, selectors: bool) -> None:
    """Append every rule's clauses, each rule behind a selector keyed ``("rule", i)`` (i its
    index in ``puzzle.all_rules``) with ``selectors``.

    A rule may speak of any cell, so the cells the state knows are pinned by unit clauses
    (the line clauses fold known cells away in black and white, and pin them only on open
    lines in colour); a rule given ``state`` may fold them itself, which saves clauses.
    """
    k = enc.ncolors
    for r in range(state.height):
        for c in range(state.width):
            left = state.possible(r, c)
            if len(left) == len(state.puzzle.palette):
                continue
            enc.clauses += [[-enc.color_var(r, c, v)] for v in range(1, k + 1) if v not in left]
            if 0 not in left:
                enc.clauses.append([enc.color_var(r, c, v) for v in left])
    nv = enc.nvars + 1

    def new_var() -> int:
        nonlocal nv
        nv += 1
        return nv - 1

    for i, rule in enumerate(state.puzzle.all_rules):
        guard = new_var() if selectors else None
        clauses = rule.clauses(enc.color_var, new_var, state)
        if guard is None:
            if not all(clauses):
                enc.unsat = True
        else:
            enc.selectors[("rule", i)] = guard
            clauses = [[-guard, *cl] for cl in clauses]
        enc.clauses.extend(clauses)
    enc.nvars = nv - 1


def _open_lines(state: GridState, rows: Iterable[int] | None,
                columns: Iterable[int] | None) -> tuple[list[int], list[int]]:
    """The rows and columns to encode: those given, by default every line with an unknown cell."""
    full_w = (1 << state.width) - 1
    full_h = (1 << state.height) - 1
    if rows is None:
        rows = [r for r in range(state.height) if state.known_row(r) != full_w]
    if columns is None:
        columns = [c for c in range(state.width) if state.known_column(c) != full_h]
    return list(rows), list(columns)


def _encode(
    state: GridState,
    solver: LineSolver,
    rows: Iterable[int] | None,
    columns: Iterable[int] | None,
    selectors: bool,
) -> Encoding:
    p = state.puzzle
    if state.nvals > 2:
        return _encode_color(state, solver, rows, columns, selectors)
    h, w = state.height, state.width
    rows, columns = _open_lines(state, rows, columns)
    b = _Builder(h * w + 1, selectors)
    for axis, indices, clues, n, blacks, whites in (
        (ROW, rows, p.rows, w, state.row_black, state.row_white),
        (COLUMN, columns, p.columns, h, state.col_black, state.col_white),
    ):
        for i in indices:
            b.start_line(axis, i)
            res = solver(clues[i], n, blacks[i], whites[i])
            if res is None:
                if not selectors:
                    raise ValueError(f"{axis} {i} is inconsistent; propagate first")
                b.extend([[]])
                continue
            if axis == ROW:
                cell_var = (lambda j, base=i * w + 1: base + j)
            else:
                cell_var = (lambda j, c=i: j * w + c + 1)
            cls, b.next_var = _line_clauses(b.next_var, clues[i], n, res.starts, blacks[i], whites[i], cell_var)
            b.extend(cls)
    b.guard = None
    cells = state.unknown_cells()
    unknown = [r * w + c + 1 for r, c in cells]
    return Encoding(
        clauses=b.clauses,
        nvars=b.next_var - 1,
        width=w,
        height=h,
        unknown_vars=unknown,
        unsat=b.unsat,
        lines=len(rows) + len(columns),
        block_vars=b.next_var - 1 - h * w - len(b.selectors or ()),
        selectors=b.selectors or {},
        unknown_cells=cells,
    )


def _color_line_clauses(first_var: int, lengths: tuple[int, ...], colors: tuple[int, ...], n: int,
                        starts: tuple[int, ...], lit, excluded: tuple[int, ...] | None = None) -> tuple[list[Clause], int]:
    """The clauses of one line of a colour puzzle and the next free variable.

    The ladders are those of :func:`_line_clauses`; ``lit(i, v)`` is the
    variable "cell i of this line has colour v".  The gap before block j + 1
    is ``c_j + [colour_j == colour_{j+1}]`` cells after block j's start.
    Known cells are not folded here: :func:`_encode_color` fixes them with
    unit clauses.  With ``excluded`` (per colour, the cells that cannot have
    it) the support clauses of a cell and a colour it cannot have are left
    out: the unit clause ``-x_iv`` satisfies them.

    * ladder, holes, order as in black and white, with the colour-dependent gap
    * cover       block j covers i -> cell i has colour_j
    * support     cell i has colour v -> the last block started by i covers i
                  and has colour v:  (-x_iv v y[0,i]) and for each j
                  (-x_iv v -y[j,i] v y[j+1,i] [v -y[j,i-c_j] when colour_j = v])
    """
    k = len(lengths)
    los, his, bases, nv = _ladders(first_var, starts)
    out: list[Clause] = []
    app = out.append
    for j, c in enumerate(lengths):
        _order_clauses(out, j, c + (j + 1 < k and colors[j] == colors[j + 1]), starts, los, his, bases)
        lo, hi, v, base = los[j], his[j], starts[j], bases[j]
        # cover: x_{i,colour_j} v -y[j,i] v y[j,i-c]; -y[j,i] is false from i >= hi, y[j,i-c] below lo
        col = colors[j]
        cover = spread(v, c)
        while cover:
            low = cover & -cover
            i = low.bit_length() - 1
            cover ^= low
            cl = [lit(i, col)]
            if i < hi:
                cl.append(-(base + i))
            if i - c >= lo:
                cl.append(base + i - c)
            app(cl)
    # support, written over the index ranges where block j can be the last block started by i
    # (lo_j <= i < hi_{j+1}), with constant literals resolved inline
    for col in sorted(set(colors)):
        xs = [-lit(i, col) for i in range(n)]
        skip = 0 if excluded is None else excluded[col]  # cells that cannot have this colour
        lo0, hi0, base0 = los[0], his[0], bases[0]
        for i in range(min(hi0, n)):  # y[0,i] is true from hi_0 on
            if not (skip >> i) & 1:
                app([xs[i], base0 + i] if i >= lo0 else [xs[i]])
        for j, c in enumerate(lengths):
            lo, hi, base = los[j], his[j], bases[j]
            if j + 1 < k:
                lo1, end, base1 = los[j + 1], his[j + 1], bases[j + 1]
            else:
                lo1, end, base1 = n, n, 0
            same = colors[j] == col
            for i in range(lo, min(end, n)):
                if (skip >> i) & 1:
                    continue
                cl = [xs[i]]
                if i < hi:
                    cl.append(-(base + i))
                if i >= lo1:
                    cl.append(base1 + i)
                if same:
                    q = i - c
                    if q < lo:
                        continue  # block j started by i covers i: satisfied
                    if q < hi:
                        cl.append(-(base + q))
                app(cl)
    return out, nv


color_line_clauses = _color_line_clauses


def _encode_color(state: GridState, solver: LineSolver, rows: Iterable[int] | None,
                  columns: Iterable[int] | None, selectors: bool) -> Encoding:
    """:func:`encode` for a puzzle with more than one block colour."""
    p = state.puzzle
    h, w, k = state.height, state.width, p.ncolors
    rows, columns = _open_lines(state, rows, columns)
    b = _Builder(h * w * k + 1, selectors)

    def var(r: int, c: int, v: int) -> int:
        return (r * w + c) * k + v

    for axis, indices, n in ((ROW, rows, w), (COLUMN, columns, h)):
        for i in indices:
            b.start_line(axis, i)
            lengths, colors = p.line(axis, i)
            ex = state.line_excluded(axis, i)
            res = solver.color(lengths, colors, n, ex)
            if res is None:
                if not selectors:
                    raise ValueError(f"{axis} {i} is inconsistent; propagate first")
                b.extend([[]])
                continue
            lit = (lambda j, v, r=i: var(r, j, v)) if axis == ROW else (lambda j, v, c=i: var(j, c, v))
            cls, b.next_var = _color_line_clauses(b.next_var, lengths, colors, n, res.starts, lit, ex)
            # a colour the line's clue does not have is impossible in it
            absent = [v for v in range(1, k + 1) if v not in colors]
            cls += [[-lit(j, v)] for j in range(n) for v in absent]
            b.extend(cls)
    b.guard = None
    # what propagation knows, as unit clauses (and "not background" as a clause over the colours left)
    seen: set[tuple[int, int]] = set()
    for r in rows:
        seen.update((r, c) for c in range(w))
    for c in columns:
        seen.update((r, c) for r in range(h))
    for r, c in sorted(seen):
        left = state.possible(r, c)
        for v in range(1, k + 1):
            if v not in left:
                b.clauses.append([-var(r, c, v)])
        if 0 not in left:
            b.clauses.append([var(r, c, v) for v in left])
            if not left:
                b.unsat = True
    cells = state.unknown_cells()
    return Encoding(
        clauses=b.clauses,
        nvars=b.next_var - 1,
        width=w,
        height=h,
        unknown_vars=[var(r, c, v) for r, c in cells for v in range(1, k + 1)],
        unsat=b.unsat,
        lines=len(rows) + len(columns),
        block_vars=b.next_var - 1 - h * w * k - len(b.selectors or ()),
        selectors=b.selectors or {},
        ncolors=k,
        unknown_cells=cells,
        allowed={(r, c): tuple(state.possible(r, c)) for r, c in cells},
    )


def solution_grid(state: GridState, enc: Encoding, model: Sequence[int]) -> Grid:
    """The grid of a model: the state's known cells plus the model's values of the unknown ones."""
    if enc.ncolors > 1:
        full = state.copy()
        for r, c in enc.unknown_cells:
            full.set_cell(r, c, enc.cell_value(model, r, c))
        return full.grid()
    w = state.width
    rows = state.row_black[:]
    for v in enc.unknown_vars:
        if v <= len(model) and model[v - 1] > 0:
            r, c = divmod(v - 1, w)
            rows[r] |= 1 << c
    return grid_from_masks(rows, w, state.puzzle.chars)


def cell_vars(enc: Encoding, cells: Iterable[tuple[int, int]]) -> list[int]:
    """Every variable that fixes the value of the given cells (one per cell in black and white, K in colour)."""
    k = enc.ncolors
    return [enc.color_var(r, c, v) for r, c in cells for v in range(1, k + 1)]
