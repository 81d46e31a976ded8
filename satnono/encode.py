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

from dataclasses import dataclass, field
from typing import Iterable

from .linesolve import LineSolver
from .propagate import COLUMN, ROW, GridState

Clause = list[int]

# Constants stand in for literals whose value is known; they never reach the solver.
_TRUE = True
_FALSE = False


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

    def cell_var(self, r: int, c: int) -> int:
        return r * self.width + c + 1


class _Builder:
    __slots__ = ("clauses", "next_var", "unsat", "guard")

    def __init__(self, first_free: int) -> None:
        self.clauses: list[Clause] = []
        self.next_var = first_free
        self.unsat = False
        self.guard: int | None = None

    def add(self, lits: Iterable[int | bool]) -> None:
        out = [] if self.guard is None else [-self.guard]
        for lit in lits:
            if lit is _TRUE:
                return
            if lit is _FALSE:
                continue
            out.append(lit)
        if not out:
            self.unsat = True
        self.clauses.append(out)


def _neg(lit: int | bool) -> int | bool:
    if lit is _TRUE:
        return _FALSE
    if lit is _FALSE:
        return _TRUE
    return -lit  # type: ignore[operator]


def _encode_line(
    b: _Builder,
    clue: tuple[int, ...],
    n: int,
    starts: tuple[int, ...],
    black: int,
    white: int,
    cell_var,
) -> None:
    k = len(clue)
    los: list[int] = []
    his: list[int] = []
    bases: list[int] = []
    for v in starts:
        lo = (v & -v).bit_length() - 1
        hi = v.bit_length() - 1
        los.append(lo)
        his.append(hi)
        bases.append(b.next_var - lo)
        b.next_var += hi - lo

    def y(j: int, p: int) -> int | bool:
        if j >= k or p < los[j]:
            return _FALSE
        if p >= his[j]:
            return _TRUE
        return bases[j] + p

    def x(i: int) -> int | bool:
        if (black >> i) & 1:
            return _TRUE
        if (white >> i) & 1:
            return _FALSE
        return cell_var(i)

    add = b.add
    for j, c in enumerate(clue):
        lo, hi, v = los[j], his[j], starts[j]
        base = bases[j]
        for p in range(lo, hi - 1):
            add((-(base + p), base + p + 1))
        for p in range(lo + 1, hi):
            if not (v >> p) & 1:
                add((-(base + p), base + p - 1))
        if j + 1 < k:
            for p in range(los[j + 1], his[j + 1]):
                add((-y(j + 1, p), y(j, p - c - 1)))
        # white side: block j covering an unknown cell makes it black
        cover = 0
        q = v
        while q:
            low = q & -q
            s = low.bit_length() - 1
            cover |= ((1 << c) - 1) << s
            q ^= low
        cover &= ~(black | white)
        while cover:
            low = cover & -cover
            i = low.bit_length() - 1
            cover ^= low
            add((cell_var(i), _neg(y(j, i)), y(j, i - c)))
    # black side: a black cell is covered by the last block started at or before it
    for i in range(n):
        if (white >> i) & 1:
            continue
        xi = x(i)
        nx = _neg(xi)
        add((nx, y(0, i)))
        for j, c in enumerate(clue):
            add((nx, _neg(y(j, i)), y(j + 1, i), _neg(y(j, i - c))))


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
    p = state.puzzle
    h, w = state.height, state.width
    full_w = (1 << w) - 1
    full_h = (1 << h) - 1
    if rows is None:
        rows = [r for r in range(h) if state.row_black[r] | state.row_white[r] != full_w]
    if columns is None:
        columns = [c for c in range(w) if state.col_black[c] | state.col_white[c] != full_h]
    rows = list(rows)
    columns = list(columns)
    b = _Builder(h * w + 1)
    sel: dict[tuple[str, int], int] = {}

    def guard(axis: str, index: int) -> None:
        """With selectors, give the line's clauses a fresh selector literal."""
        if selectors:
            b.guard = b.next_var
            sel[(axis, index)] = b.next_var
            b.next_var += 1

    for axis, indices, clues, n, blacks, whites in (
        (ROW, rows, p.rows, w, state.row_black, state.row_white),
        (COLUMN, columns, p.columns, h, state.col_black, state.col_white),
    ):
        for i in indices:
            guard(axis, i)
            res = solver(clues[i], n, blacks[i], whites[i])
            if res is None:
                if not selectors:
                    raise ValueError(f"{axis} {i} is inconsistent; propagate first")
                b.add(())
                continue
            if axis == ROW:
                cell_var = (lambda j, base=i * w + 1: base + j)
            else:
                cell_var = (lambda j, c=i: j * w + c + 1)
            _encode_line(b, clues[i], n, res.starts, blacks[i], whites[i], cell_var)
    b.guard = None
    unknown = [r * w + c + 1 for r, c in state.unknown_cells()]
    return Encoding(
        clauses=b.clauses,
        nvars=b.next_var - 1,
        width=w,
        height=h,
        unknown_vars=unknown,
        unsat=b.unsat,
        lines=len(rows) + len(columns),
        block_vars=b.next_var - 1 - h * w - len(sel),
        selectors=sel,
    )
