"""CNF encoding of what line propagation left open.

Block-start order encoding ("order-only", see ``shared/guide/encodings.md``):
for block j of a line, y[j,p] means "block j starts at or before p".  Each
block's ladder spans only the start positions the complete line solver still
allows; known cells are constants and are substituted away; lines with no
unknown cell are not encoded at all.

Cell variables are fixed: cell (r, c) has colour v (1..K) is variable
``(r * width + c) * K + v`` (``r * width + c + 1`` in black and white), so a
model reads back without a lookup.  Block variables follow.

The driver below is written once for every kind of line: each open line's
clauses come from the builder for its clue (:mod:`satnono.cnf.ladders`; blotted
lines add an end ladder, :mod:`satnono.cnf.blotted`).  In black and white the
builder folds the known cells in as constants; the other builders leave them to
unit clauses over the cells of the lines they encoded.

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
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable, Iterable, Iterator, Sequence

from ..clues import COLUMN, ROW
from ..lines import LineSolver
from ..logic.state import Deadline, GridState
from ..model import Grid, Puzzle, grid_from_masks
from .ladders import Builder, CellMap, Clause, bw_line_clauses_flat, ladders, line_clauses, unflatten

if TYPE_CHECKING:
    from ..lanepuzzle import LanePuzzle
    from ..logic.beliefs import Hints

__all__ = ["Encoding", "cell_vars", "encode", "estimate", "line_clauses", "solution_grid", "takes_flat"]


@dataclass(slots=True)
class Encoding:
    """A CNF over cell and block-start variables.

    The clauses are kept in one of two forms: as lists (:attr:`clauses`), or, from
    ``encode(..., flat=True)``, flat (:attr:`flat`: C ints, each clause's literals then 0), which
    the compiled feeder hands to CaDiCaL without a Python object per clause or literal.  Reading
    :attr:`clauses` of a flat encoding makes the lists, which are its clauses from then on."""

    _clauses: list[Clause] | None
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
    ladder_lines: list[tuple[str, int, int, tuple[int, ...]]] = field(default_factory=list)
    """The encoded lines with start ladders only (not blotted): ``(axis, index, first ladder
    variable, valid starts per block)``, from which :func:`satnono.cnf.ladders.ladders` gives
    every block's ladder variables (for :meth:`hint_phases`)."""
    flat: bytes | None = None
    """The clauses in the flat form (:func:`satnono.cnf.ladders.flatten`), until :attr:`clauses` is read."""
    flat_count: int = 0
    """How many clauses :attr:`flat` holds."""
    fed: bool = False
    """True when the flat clauses went straight to a ``sink`` as they were made (:func:`encode`):
    the encoding then keeps no copy of them, and reading :attr:`clauses` is an error."""
    open_rows: list[int] = field(default_factory=list)
    """Per row, the mask of its cells left unknown by propagation (the cells of :attr:`unknown_cells`)."""
    _ladders: list[tuple[list[int], list[int], list[int], int]] | None = None
    """:func:`satnono.cnf.ladders.ladders` of each of :attr:`ladder_lines`, made on first use."""

    def line_ladders(self) -> list[tuple[list[int], list[int], list[int], int]]:
        """``(los, his, bases, next_var)`` of each of :attr:`ladder_lines` (:func:`ladders`)."""
        if self._ladders is None:
            self._ladders = [ladders(first, starts) for _axis, _index, first, starts in self.ladder_lines]
        return self._ladders

    @property
    def clauses(self) -> list[Clause]:
        """The clauses as lists (made from the flat form on first use; they are the clauses then)."""
        if self._clauses is None:
            if self.fed:
                raise ValueError("the clauses of this encoding went to the SAT solver as they were made; "
                                 "encode again without a sink to read them")
            self._clauses = unflatten(self.flat or b"")
            self.flat = None
        return self._clauses

    @clauses.setter
    def clauses(self, clauses: list[Clause]) -> None:
        self._clauses = clauses
        self.flat = None

    @property
    def nclauses(self) -> int:
        return self.flat_count if self._clauses is None else len(self._clauses)

    def clause_data(self) -> list[Clause] | bytes:
        """The clauses for :class:`satnono.sat.SatSession`: the flat form when there is one."""
        return self._clauses if self._clauses is not None else (self.flat or b"")

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

    def model_of(self, grid: Grid, chars: str) -> list[int]:
        """A model (signed literals by variable) that gives the unknown cells their values in
        ``grid`` (over the palette characters ``chars``): for :meth:`blocking_clause` and
        :meth:`phases` of a solution known beforehand."""
        model = [-(i + 1) for i in range(self.nvars)]
        for r, c in self.unknown_cells:
            v = chars.index(grid[r][c])
            if v:
                x = self.color_var(r, c, v)
                model[x - 1] = x
        return model

    def blocking_clause(self, model: Sequence[int]) -> list[int]:
        """The clause that excludes ``model`` on the unknown cells."""
        if self.ncolors == 1:
            n = len(model)
            return [-model[v - 1] if v <= n else v for v in self.unknown_vars]
        out = []
        for r, c in self.unknown_cells:
            v = self.cell_value(model, r, c)
            if v:
                out.append(-self.color_var(r, c, v))
            else:
                out += [self.color_var(r, c, u) for u in self.allowed[(r, c)] if u]
        return out

    def hint_phases(self, hints: Hints) -> list[int]:
        """Phases from belief propagation (:func:`satnono.logic.beliefs.phase_hints`): each
        unknown cell's most likely value, and each block's ladder y[j,p] true from the block's
        median start on."""
        k, w = self.ncolors, self.width
        cells = hints.cells
        if k == 1:  # (a cell's variable is its index + 1)
            out = [x if cells[x - 1] else -x for x in self.unknown_vars]
        else:
            out = []
            for r, c in self.unknown_cells:
                best = cells[r * w + c]
                base = (r * w + c) * k
                out += [base + v if v == best else -(base + v) for v in range(1, k + 1)]
        extend = out.extend
        for (axis, index, _first, _starts), (los, his, bases, _) in zip(self.ladder_lines, self.line_ladders()):
            medians = (hints.row_starts if axis == ROW else hints.column_starts)[index]
            if medians is None:
                continue
            for lo, hi, base, m in zip(los, his, bases, medians):
                m = lo if m < lo else hi if m > hi else m
                extend(range(-(base + lo), -(base + m), -1))  # y[j,p] false below the median start
                extend(range(base + m, base + hi))  # and true from it
        return out

    def hunches(self, hints: Hints, share: float) -> list[int]:
        """Assumptions from belief propagation: the open cells whose most likely value is the
        surest (:attr:`Hints.confidence`), ``share`` of them, the surest first (ties in
        row-major order), each as the literals that give it that value (a colour cell hinted
        background: none of its colours)."""
        conf, cells, k, w = hints.confidence, hints.cells, self.ncolors, self.width
        if k == 1:  # (a cell's variable is its index + 1)
            # the surest first, ties in row-major order (a reversed sort keeps equal keys in order)
            order = sorted(self.unknown_vars, key=[0.0, *conf].__getitem__, reverse=True)
            return [x if cells[x - 1] else -x for x in order[:int(len(order) * share)]]
        out: list[int] = []
        picked = sorted(self.unknown_cells, key=lambda rc: -conf[rc[0] * w + rc[1]])
        for r, c in picked[:int(len(picked) * share)]:
            base, best = (r * w + c) * k, cells[r * w + c]
            out += [base + best] if best else [-(base + v) for v in self.allowed[(r, c)] if v]
        return out

    def phases(self, model: Sequence[int], with_ladders: bool = False) -> list[int]:
        """The model's literals on the unknown cells' variables (to search near it); with
        ``with_ladders``, on the ladder variables of :meth:`hint_phases` too (the forced phases a
        hinted search left there would otherwise pull the next search away from the model)."""
        k = self.ncolors
        n = len(model)
        if k == 1:
            out = [model[v - 1] for v in self.unknown_vars if v <= n]
        else:
            out = []
            for r, c in self.unknown_cells:
                base = (r * self.width + c) * k
                out += [model[x - 1] for x in range(base + 1, base + k + 1) if x <= n]
        if with_ladders:
            for (_axis, _index, first, _starts), lad in zip(self.ladder_lines, self.line_ladders()):
                out += model[first - 1:min(lad[3], n + 1) - 1]
        return out


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
    flat: bool = False,
    deadline: float | None = None,
    sink: Callable[[bytes], object] | None = None,
    tick: Callable[[int, int], object] | None = None,
) -> Encoding:
    """Encode the lines of a propagated, consistent ``state`` that still have unknown cells.

    ``rows``/``columns`` restrict the encoding to those lines (used for
    independent components); by default every line with an unknown cell.
    With ``selectors`` every clause of a line carries the negation of a fresh
    selector variable, so a line is enforced only when its selector is assumed
    true (for unsatisfiable cores over lines); a line whose clue cannot fit at
    all then contributes the clause ``[-selector]``.
    ``flat``: keep the clauses in the flat form (:class:`Encoding`) where that is the quicker
    way (black and white without selectors or rules); with ``sink`` as well, each line's flat
    clauses are handed to ``sink`` as soon as they are made (a SAT session's ``add_clauses``)
    and not kept (:attr:`Encoding.fed`), so a large puzzle's CNF is never held twice.
    ``tick(done, total)`` is called after each line (for progress displays).

    Raises:
        Deadline: the monotonic clock passed ``deadline`` (checked before each line).
    """
    if not isinstance(state, GridState):  # another geometry: its lanes (:mod:`satnono.cnf.lanes`)
        from .lanes import encode_lanes

        puzzle = state.puzzle
        keys = [(lane.family, lane.index) for lane in puzzle.lanes] if selectors else None
        return encode_lanes(state, [lane.cells for lane in puzzle.lanes], puzzle.lane_clues, solver,  # type: ignore[return-value]
                            puzzle.all_rules, keys)
    flat = flat and not selectors and takes_flat(state.puzzle)
    with _collector_paused():
        enc = _encode(state, solver, rows, columns, selectors, flat, deadline, sink if flat else None, tick)
        if state.puzzle.rules:  # (the givens alone are known cells of the state: nothing to add)
            _encode_rules(enc, state, selectors)
        return enc


def takes_flat(puzzle: Puzzle | LanePuzzle) -> bool:
    """Whether :func:`encode` makes ``puzzle``'s clauses in the flat form when asked (a rectangle
    in black and white without blotted clues or rules; selectors never)."""
    return isinstance(puzzle, Puzzle) and not puzzle.rules and puzzle.ncolors == 1 and not puzzle.has_blots


def estimate(state: GridState, solver: LineSolver, deadline: float | None = None) -> tuple[int, int]:
    """About how many variables and clauses :func:`encode` would make for ``state`` (every open
    line), without making them: the block ladders' variables exactly (one per valid start of each
    block past its first, twice for a blotted line's end ladders), the clauses from the families
    of :mod:`satnono.cnf.ladders` (ladder, holes, order, cover and support, each about one per
    ladder step and colour of the line).  For memory limits, checked before anything is encoded:
    a random 400x400 picture has about 8 million variables and 32 million clauses.

    Raises:
        Deadline: the monotonic clock passed ``deadline`` (checked before each line).
    """
    p = state.puzzle
    h, w, k = state.height, state.width, p.ncolors
    rows, columns = _open_lines(state, None, None)
    nvars, nclauses = h * w * k, 0
    for indices, n, clues, exs in ((rows, w, p.row_clues, state.row_ex),
                                   (columns, h, p.column_clues, state.col_ex)):
        for i in indices:
            if deadline is not None and time.monotonic() >= deadline:
                raise Deadline("estimating the encoding ran past its deadline")
            clue = clues[i]
            res = solver.solve(clue, n, tuple([e[i] for e in exs]))
            if res is None:
                continue
            steps = sum(v.bit_length() - (v & -v).bit_length() for v in res.starts)
            if clue.blots:
                steps *= 2
            colours = len(set(clue.colors)) if k > 1 else 1
            nvars += steps
            nclauses += (3 + colours) * steps + n * k + sum(clue.lengths)
    return nvars, nclauses


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
    flat: bool = False,
    deadline: float | None = None,
    sink: Callable[[bytes], object] | None = None,
    tick: Callable[[int, int], object] | None = None,
) -> Encoding:
    p = state.puzzle
    h, w, k = state.height, state.width, p.ncolors
    rows, columns = _open_lines(state, rows, columns)
    b = Builder(h * w * k + 1, selectors, flat, sink)
    flat = b.chunks is not None
    folded_kind = k == 1  # one variable a cell: the black-and-white builder folds known cells

    def var(r: int, c: int, v: int) -> int:
        return (r * w + c) * k + v

    pinned: set[tuple[int, int]] = set()  # cells of lines whose builder does not fold them
    ladder_lines: list[tuple[str, int, int, tuple[int, ...]]] = []
    total, done = len(rows) + len(columns), 0
    for axis, indices, n, clues, exs in ((ROW, rows, w, p.row_clues, state.row_ex),
                                         (COLUMN, columns, h, p.column_clues, state.col_ex)):
        for i in indices:
            if deadline is not None and time.monotonic() >= deadline:
                raise Deadline(f"encoding ran past its deadline at {axis} {i + 1}")
            if tick is not None:
                tick(done, total)
                done += 1
            b.start_line(axis, i)
            clue = clues[i]
            ex = tuple([e[i] for e in exs])
            res = solver.solve(clue, n, ex)
            if res is None:
                if not selectors:
                    raise ValueError(f"{axis} {i} is inconsistent; propagate first")
                b.extend([[]])
                continue
            lit = (lambda j, v, r=i: var(r, j, v)) if axis == ROW else (lambda j, v, c=i: var(j, c, v))
            folded = folded_kind and not clue.blots
            if not clue.blots:
                ladder_lines.append((axis, i, b.next_var, res.starts))
            cell = None
            if folded:
                cell = CellMap(i * w + 1, 1) if axis == ROW else CellMap(i + 1, w)
                if flat:
                    data, count, b.next_var, empty = bw_line_clauses_flat(b.next_var, clue.lengths, n, res.starts,
                                                                          ex[0], ex[1], cell)
                    b.extend_flat(data, count, empty)
                    continue
            cls, b.next_var = line_clauses(b.next_var, clue, n, res, ex, lit, cell)
            b.extend(cls)
            if not folded:
                pinned.update(((i, j) if axis == ROW else (j, i)) for j in range(n))
    b.guard = None
    # what propagation knows of the pinned cells, as unit clauses (and "not background" as a
    # clause over the colours left)
    pins: list[Clause] = []
    for r, c in sorted(pinned):
        left = state.possible(r, c)
        for v in range(1, k + 1):
            if v not in left:
                pins.append([-var(r, c, v)])
        if 0 not in left:
            pins.append([var(r, c, v) for v in left])  # (empty when nothing is left: unsat)
    if pins:
        b.extend(pins)
    cells = state.unknown_cells()
    return Encoding(
        open_rows=state.open_rows(),
        _clauses=None if flat else b.clauses,
        flat=b"".join(b.chunks) if b.chunks is not None and sink is None else None,
        flat_count=b.count,
        fed=sink is not None,
        nvars=b.next_var - 1,
        width=w,
        height=h,
        unknown_vars=([r * w + c + 1 for r, c in cells] if k == 1  # (var(r, c, 1), without the calls)
                      else [var(r, c, v) for r, c in cells for v in range(1, k + 1)]),
        unsat=b.unsat,
        lines=len(rows) + len(columns),
        block_vars=b.next_var - 1 - h * w * k - len(b.selectors or ()),
        selectors=b.selectors or {},
        ncolors=k,
        unknown_cells=cells,
        allowed={(r, c): tuple(state.possible(r, c)) for r, c in cells} if k > 1 else {},
        ladder_lines=ladder_lines,
    )


def solution_grid(state: GridState, enc: Encoding, model: Sequence[int]) -> Grid:
    """The grid of a model: the state's known cells plus the model's values of the unknown ones
    (for a puzzle of another geometry, its picture: one character a cell)."""
    if not isinstance(state, GridState):
        return enc.picture(model)  # type: ignore[attr-defined, no-any-return]
    if enc.ncolors > 1:
        full = state.copy()
        for r, c in enc.unknown_cells:
            full.set_cell(r, c, enc.cell_value(model, r, c))
        return full.grid()
    w = state.width
    hw = state.height * w
    # the model's value of every cell variable (cell (r, c) is variable r * w + c + 1) as the
    # digits '0'/'1' (beyond the model: false), read row by row onto the unknown cells
    digits = bytes(map(_POSITIVE, model[:hw])).ljust(hw, b"\0").translate(_DIGITS)
    rows = [b | (int(digits[r * w:(r + 1) * w][::-1], 2) & o) if o else b
            for r, (b, o) in enumerate(zip(state.row_black, enc.open_rows))]
    return grid_from_masks(rows, w, state.puzzle.chars)


_POSITIVE = (0).__lt__  # a literal's truth
_DIGITS = bytes.maketrans(b"\0\1", b"01")


def cell_vars(enc: Encoding, cells: Iterable[tuple[int, int]]) -> list[int]:
    """Every variable that fixes the value of the given cells (one per cell in black and white, K in colour)."""
    k = enc.ncolors
    if not isinstance(enc, Encoding):  # another geometry's: cells by number
        return [enc.color_var(cell, v) for cell in cells for v in range(1, k + 1)]  # type: ignore[arg-type]
    return [enc.color_var(r, c, v) for r, c in cells for v in range(1, k + 1)]
