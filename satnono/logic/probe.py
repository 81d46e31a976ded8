"""Probing: refuting single-cell assumptions by line logic, within a budget, on any geometry.

A probe assumes one value of an open cell (black or white; in colour, one of
the colours the cell may still have) and propagates from the lanes through it
(a rectangle's row and column), with the puzzle's extra rules after each fixpoint
of the lanes (a rectangle's rules ``narrow``, any other geometry's lane rules
``deduce``: :mod:`satnono.lanerules`); when some lane then has no placement, or
a rule cannot be kept, the value is ruled out.  Depth 1 uses line logic inside the assumption, depth 2 also
depth-1 probing.  The search (:meth:`Prober.find`) prefers the cheapest
refutation (fewest line-solver calls), trying cells next to known cells first,
and is bounded by a budget of line-solver calls (deterministic) and optionally a
deadline: when either runs out it raises :class:`BudgetExhausted`.

Probing sees a state cell by cell (:class:`Cells`, cells numbered by the geometry: a
rectangle's row-major), so one search serves every geometry: :class:`GridCells` over a
rectangle's :class:`~satnono.logic.state.GridState` (its bit masks, and the rows' and
columns' propagation with its compiled fixpoint), :class:`LaneCells` over any other
geometry's :class:`~satnono.logic.lanes.LaneState` (its lanes one by one).
:func:`cells_of` picks the view of a state; the explanations (:mod:`satnono.explain`) take
their line steps through the same views.

Used by the explanations (:mod:`satnono.explain`) and so by ``classify --probe``
and ``check --grade``.
"""

from __future__ import annotations

import time
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Protocol, Sequence

from ..lines import LineSolver
from ..lines.bits import Mask, known_of
from .lanes import LaneState, cell_lanes
from .lanes import propagate as propagate_lanes
from .propagate import propagate
from .state import Contradiction, Deadline, GridState, partial_grid

if TYPE_CHECKING:
    from ..rules.common import RuleConflict

__all__ = ["BudgetExhausted", "Cells", "DEFAULT_PROBE_BUDGET", "GridCells", "LaneCells", "Prober", "cells_of",
           "deducing", "extra_crossing"]

#: A depth-1 refutation costing at most this many line-solver calls ends the search for an easier one.
QUICK_REFUTATION = 4

#: With more open cells than this, the search for the cheapest depth-1 refutation stops
#: :data:`PROBE_WINDOW` cells after the first one found (with fewer, every cell is tried).
FULL_SCAN_CELLS = 600
#: After the first depth-1 refutation, this many more cells are tried for a cheaper one.
PROBE_WINDOW = 24

#: Default probing effort for one puzzle, in line-solver calls (deterministic, unlike time).
DEFAULT_PROBE_BUDGET = 120_000


class BudgetExhausted(Exception):
    """The probing budget ran out."""


class _TooCostly(Exception):
    """A trial passed its line-solver call limit."""


# --------------------------------------------------------------------------
# A state cell by cell


class Safe(Protocol):
    """Assumptions known to lead to no contradiction from one state: a cell value that a
    consistent trial implied can only imply a subset of that trial's cells (logic is monotone),
    so it cannot contradict either and need not be tried, as long as the state does not change."""

    def has(self, cell: int, value: int) -> bool: ...

    def add(self, trial: Any) -> None: ...


class Cells(Protocol):
    """A puzzle's state seen cell by cell (cells ``0 .. cell_count - 1`` in the geometry's order,
    values colour indices: 0 the background), with its lanes (``puzzle.lanes``, their clues
    ``puzzle.lane_clues``): what probing and the explanations' line steps ask of a state."""

    state: Any
    """The state itself (changed in place by :meth:`set`, :meth:`exclude` and :meth:`propagate_from`)."""

    @property
    def puzzle(self) -> Any: ...

    def copy(self) -> Cells:
        """A view of a copy of the state."""
        ...

    def assume(self, cell: int, value: int, solver: Any, deadline: float | None
               ) -> tuple[Cells, Contradiction | RuleConflict | None]:
        """A view of a copy of the state with ``cell`` set to ``value`` (:meth:`set`) and
        propagated from it (:meth:`propagate_from`), and the contradiction met, if any."""
        ...

    def value(self, cell: int) -> int | None:
        """The cell's value when one is left, else None."""
        ...

    def possible(self, cell: int) -> list[int]:
        """The values the cell may still have, in increasing order."""
        ...

    def set(self, cell: int, value: int) -> None:
        """Rule out every value of the cell but ``value``."""
        ...

    def exclude(self, cell: int, value: int) -> None:
        """Rule ``value`` out of the cell."""
        ...

    def unknown_count(self) -> int: ...

    def open_cells(self) -> list[int]:
        """The cells with more than one value left, in cell order."""
        ...

    def picture(self) -> str:
        """One palette character a cell, ``?`` for an open cell."""
        ...

    def lane_masks(self, k: int) -> tuple[Mask, ...]:
        """Lane ``k``'s masks as the line kernels take them: per value, the lane's positions
        known not to have it."""
        ...

    def crossing(self, cell: int) -> Sequence[int]:
        """The lanes through the cell, in increasing order."""
        ...

    def propagate_from(self, cell: int, solver: Any, deadline: float | None) -> Contradiction | RuleConflict | None:
        """Line logic to its fixpoint starting from the lanes through ``cell``; the lane (or
        rule) that cannot be kept, or None.  Raises :class:`Deadline`."""
        ...

    def probe_order(self) -> list[int]:
        """The open cells in the order probing tries them: most known neighbours first (where a
        person looks), then cell order."""
        ...

    def probe_values(self, cell: int) -> Sequence[int]:
        """The values a probe assumes for an open cell: black then white, or in colour each
        block colour the cell may have, then the background."""
        ...

    def safe(self) -> Safe:
        """An empty :class:`Safe` for this state."""
        ...


_BW_VALUES = (1, 0)


def _probe_values(left: list[int]) -> Sequence[int]:
    return left[1:] + left[:1] if left[0] == 0 else left


def extra_crossing(puzzle: Any) -> dict[int, tuple[int, ...]]:
    """A rectangle's extra lanes (its ``line`` rules: ``puzzle.lanes`` past the rows and columns)
    through each cell that has any, by their index in ``puzzle.lanes``; empty without them."""
    if not puzzle.line_rules:
        return {}
    out: dict[int, list[int]] = {}
    base = puzzle.height + puzzle.width
    for k, lane in enumerate(puzzle.lanes[base:], base):
        for cell in lane.cells:
            out.setdefault(cell, []).append(k)
    return {cell: tuple(ks) for cell, ks in out.items()}


class GridCells:
    """:class:`Cells` of a rectangle's :class:`GridState`: cell ``r * width + c``, its lanes row
    ``r`` and column ``c`` (lanes ``r`` and ``height + c``) and the extra lanes of its ``line``
    rules through it (:func:`extra_crossing`), the state's own bit masks."""

    __slots__ = ("state", "height", "width", "extra")

    def __init__(self, state: GridState, extra: dict[int, tuple[int, ...]] | None = None) -> None:
        self.state = state
        self.height = state.height
        self.width = state.width
        self.extra = extra if extra is not None else extra_crossing(state.puzzle)

    @property
    def puzzle(self) -> Any:
        return self.state.puzzle

    def copy(self) -> GridCells:
        return GridCells(self.state.copy(), self.extra)

    def assume(self, cell: int, value: int, solver: Any, deadline: float | None) -> tuple[GridCells, Contradiction | None]:
        t = self.state.copy()
        r = cell // self.width
        c = cell - r * self.width
        t.set_cell(r, c, value)
        dr = [False] * self.height
        dc = [False] * self.width
        dr[r] = True
        dc[c] = True
        return GridCells(t, self.extra), propagate(t, solver, dr, dc, deadline)

    def value(self, cell: int) -> int | None:
        r, c = divmod(cell, self.width)
        return self.state.cell(r, c)

    def possible(self, cell: int) -> list[int]:
        r, c = divmod(cell, self.width)
        return self.state.possible(r, c)

    def set(self, cell: int, value: int) -> None:
        r, c = divmod(cell, self.width)
        self.state.set_cell(r, c, value)

    def exclude(self, cell: int, value: int) -> None:
        r, c = divmod(cell, self.width)
        self.state.exclude(r, c, value)

    def unknown_count(self) -> int:
        return self.state.unknown_count()

    def open_cells(self) -> list[int]:
        w = self.width
        return [r * w + c for r, c in self.state.unknown_cells()]

    def picture(self) -> str:
        return "".join(partial_grid(self.state))

    def lane_masks(self, k: int) -> tuple[Mask, ...]:
        s = self.state
        h = self.height
        if k < h:
            return (s.row_black[k], s.row_white[k]) if s.nvals == 2 else tuple(ex[k] for ex in s.row_ex)
        k -= h
        if k >= self.width:  # an extra lane (a line rule's)
            return s.lane_masks(s.puzzle.lanes[h + k])
        return (s.col_black[k], s.col_white[k]) if s.nvals == 2 else tuple(ex[k] for ex in s.col_ex)

    def crossing(self, cell: int) -> tuple[int, ...]:
        r, c = divmod(cell, self.width)
        return (r, self.height + c, *self.extra.get(cell, ())) if self.extra else (r, self.height + c)

    def propagate_from(self, cell: int, solver: Any, deadline: float | None) -> Contradiction | None:
        r, c = divmod(cell, self.width)
        dr = [False] * self.height
        dc = [False] * self.width
        dr[r] = True
        dc[c] = True
        return propagate(self.state, solver, dr, dc, deadline)

    def probe_order(self) -> list[int]:
        state = self.state
        h, w = self.height, self.width
        full = (1 << w) - 1
        if state.nvals == 2:
            settled = known = [b | x for b, x in zip(state.row_black, state.row_white)]
        else:  # (a cell with no value left is neither open nor known)
            settled, known = [], []
            for r in range(h):
                exs = [ex[r] for ex in state.row_ex]
                gone = full
                for ex in exs:
                    gone &= ex
                settled.append(known_of(tuple(exs), full))
                known.append(settled[-1] & ~gone)
        keyed = []
        for r in range(h):
            row = known[r]
            open_ = full & ~settled[r]
            if not open_:
                continue
            up = known[r - 1] if r > 0 else 0
            down = known[r + 1] if r + 1 < h else 0
            left = row << 1  # bit c: cell c - 1 known
            right = row >> 1  # bit c: cell c + 1 known
            base = r * w
            while open_:
                low = open_ & -open_
                c = low.bit_length() - 1
                k = ((up >> c) & 1) + ((down >> c) & 1) + ((left >> c) & 1) + ((right >> c) & 1)
                keyed.append((-k, base + c))
                open_ ^= low
        keyed.sort()
        return [cell for _, cell in keyed]

    def probe_values(self, cell: int) -> Sequence[int]:
        if self.state.nvals == 2:
            return _BW_VALUES
        return _probe_values(self.possible(cell))

    def safe(self) -> _GridSafe:
        return _GridSafe(self.state)


class _GridSafe:
    """:class:`Safe` over a rectangle's rows: ``settled[v][r]`` holds the cells of row r that some
    consistent trial settled to value v."""

    __slots__ = ("settled", "width")

    def __init__(self, state: GridState) -> None:
        self.settled = [[0] * state.height for _ in range(state.nvals)]
        self.width = state.width

    def has(self, cell: int, value: int) -> bool:
        r = cell // self.width
        return bool((self.settled[value][r] >> (cell - r * self.width)) & 1)

    def add(self, trial: GridCells) -> None:
        t = trial.state
        if t.nvals == 2:
            white, black = self.settled
            for r, (b, w) in enumerate(zip(t.row_black, t.row_white)):
                black[r] |= b
                white[r] |= w
            return
        full = (1 << t.width) - 1
        for r in range(t.height):
            exs = [ex[r] for ex in t.row_ex]
            known = known_of(tuple(exs), full)
            for v, e in enumerate(exs):
                self.settled[v][r] |= known & ~e


class _Shape:
    """What a geometry's lanes give every :class:`LaneCells` of its puzzles: each lane's cells,
    each cell's lanes and its edge neighbours."""

    __slots__ = ("lanes", "crossing", "neighbours")

    def __init__(self, geometry: Any) -> None:
        lanes = geometry.lanes()
        self.lanes = [lane.cells for lane in lanes]
        self.crossing = [tuple(ks) for ks in cell_lanes(self.lanes, geometry.cell_count)]
        self.neighbours = [geometry.neighbours(c) for c in range(geometry.cell_count)]


@lru_cache(maxsize=16)
def _shape(geometry: Any) -> _Shape:
    return _Shape(geometry)


def deducing(puzzle: Any) -> tuple[Any, ...]:
    """The rules of a puzzle of any geometry (``puzzle.all_rules``) that deduce cells from what a
    state knows (their ``deduce``: :mod:`satnono.lanerules`), in order."""
    return tuple(rule for rule in puzzle.all_rules if getattr(rule, "deduce", None) is not None)


class LaneCells:
    """:class:`Cells` of any geometry's :class:`LaneState` (its ``puzzle`` set, as
    :func:`~satnono.logic.state.initial_state` sets it), propagated lane by lane, with the
    puzzle's rules that deduce (:func:`deducing`) after each fixpoint of the lanes."""

    __slots__ = ("state", "shape", "rules")

    def __init__(self, state: LaneState, shape: _Shape | None = None, rules: tuple[Any, ...] | None = None) -> None:
        if state.puzzle is None:
            raise ValueError("a lane state without its puzzle (make it with satnono.logic.state.initial_state)")
        self.state = state
        self.shape = shape if shape is not None else _shape(state.puzzle.geometry)
        self.rules = rules if rules is not None else deducing(state.puzzle)

    @property
    def puzzle(self) -> Any:
        return self.state.puzzle

    def copy(self) -> LaneCells:
        return LaneCells(self.state.copy(), self.shape, self.rules)

    def assume(self, cell: int, value: int, solver: Any, deadline: float | None
               ) -> tuple[LaneCells, Contradiction | RuleConflict | None]:
        t = LaneCells(self.state.copy(), self.shape, self.rules)
        t.set(cell, value)
        return t, t.propagate_from(cell, solver, deadline)

    def value(self, cell: int) -> int | None:
        return self.state.value(cell)

    def possible(self, cell: int) -> list[int]:
        return self.state.possible(cell)

    def set(self, cell: int, value: int) -> None:
        s = self.state
        s.excluded[cell] |= s.full & ~(1 << value)

    def exclude(self, cell: int, value: int) -> None:
        self.state.excluded[cell] |= 1 << value

    def unknown_count(self) -> int:
        return len(self.state.open_cells())

    def open_cells(self) -> list[int]:
        return self.state.open_cells()

    def picture(self) -> str:
        return self.state.picture(self.puzzle.chars)

    def lane_masks(self, k: int) -> tuple[Mask, ...]:
        return self.state.lane_excluded(self.shape.lanes[k])

    def crossing(self, cell: int) -> tuple[int, ...]:
        return self.shape.crossing[cell]

    def propagate_from(self, cell: int, solver: Any, deadline: float | None) -> Contradiction | RuleConflict | None:
        shape, state = self.shape, self.state
        p = self.puzzle
        crossing = shape.crossing
        todo: Sequence[int] = crossing[cell]
        while True:
            k = propagate_lanes(state, shape.lanes, p.lane_clues, solver, deadline, todo=todo, crossing=crossing)
            if k is not None:
                lane = p.lanes[k]
                return Contradiction(lane.family, lane.index, True)
            if not self.rules:
                return None
            before = list(state.excluded)
            for rule in self.rules:
                bad = rule.deduce(state)
                if bad is not None:
                    return bad  # type: ignore[no-any-return]
            touched = {k for c, (a, b) in enumerate(zip(before, state.excluded)) if a != b for k in crossing[c]}
            if not touched:
                return None
            todo = sorted(touched)

    def probe_order(self) -> list[int]:
        value = self.state.value
        near = self.shape.neighbours
        return sorted(self.state.open_cells(),
                      key=lambda c: (-sum(1 for n in near[c] if value(n) is not None), c))

    def probe_values(self, cell: int) -> Sequence[int]:
        return _probe_values(self.state.possible(cell))

    def safe(self) -> _LaneSafe:
        return _LaneSafe(len(self.state.excluded))


class _LaneSafe:
    """:class:`Safe` cell by cell: ``settled[cell]`` has bit v when some consistent trial settled
    the cell to value v."""

    __slots__ = ("settled",)

    def __init__(self, cells: int) -> None:
        self.settled = [0] * cells

    def has(self, cell: int, value: int) -> bool:
        return bool((self.settled[cell] >> value) & 1)

    def add(self, trial: LaneCells) -> None:
        t = trial.state
        settled, full = self.settled, t.full
        for cell, ex in enumerate(t.excluded):
            left = full & ~ex
            if left and not left & (left - 1):
                settled[cell] |= left


def cells_of(state: GridState | LaneState | Cells) -> Cells:
    """The :class:`Cells` view of a state (a view is returned as it is)."""
    if isinstance(state, GridState):
        return GridCells(state)
    if isinstance(state, LaneState):
        return LaneCells(state)
    return state


# --------------------------------------------------------------------------
# The search


class _Limited:
    """A line solver that raises :class:`_TooCostly` after ``limit`` calls."""

    __slots__ = ("solver", "left")

    def __init__(self, solver: LineSolver, limit: int) -> None:
        self.solver = solver
        self.left = limit

    def __call__(self, clue, n, black, white):
        self.left -= 1
        if self.left < 0:
            raise _TooCostly
        return self.solver(clue, n, black, white)

    def color(self, lengths, colors, n, excluded):
        self.left -= 1
        if self.left < 0:
            raise _TooCostly
        return self.solver.color(lengths, colors, n, excluded)

    def solve(self, clue, n, excluded):
        self.left -= 1
        if self.left < 0:
            raise _TooCostly
        return self.solver.solve(clue, n, excluded)

    @property
    def calls(self) -> int:
        return self.solver.calls


class Prober:
    """Finds refutations of single-cell assumptions with fast propagation, within a budget.

    Its methods take a state (a :class:`GridState`, a :class:`LaneState`) or its :class:`Cells`
    view; cells are numbered by the geometry (a rectangle's ``r * width + c``).
    """

    def __init__(self, solver: LineSolver, budget: int, deadline: float | None) -> None:
        self.solver = solver
        self.budget = budget
        self.deadline = deadline
        self.exhausted = False
        self.insufficient = 0
        """The deepest probing depth seen to settle nothing in some state reached (a lower bound)."""

    def _charge(self, calls0: int) -> None:
        self.budget -= self.solver.calls - calls0
        if self.budget < 0 or (self.deadline is not None and time.monotonic() > self.deadline):
            self.exhausted = True
            raise BudgetExhausted

    def _propagate_from(self, cells: Cells, cell: int) -> Contradiction | RuleConflict | None:
        """Propagate in place from the lanes through a cell just set, charging the budget."""
        calls0 = self.solver.calls
        try:
            bad = cells.propagate_from(cell, self.solver, self.deadline)
        except Deadline:
            self.exhausted = True
            raise BudgetExhausted from None
        self._charge(calls0)
        return bad

    def _trial(self, cells: Cells, cell: int, value: int, depth: int,
               limit: int | None = None) -> tuple[Cells, Contradiction | RuleConflict | None]:
        """Assume ``cell = value`` on a copy and propagate (at depth 2, probe at depth 1 too),
        charging the budget; with ``limit``, give up (raise :class:`_TooCostly`) after that many
        line-solver calls."""
        calls0 = self.solver.calls
        solver = self.solver if limit is None else _Limited(self.solver, limit)
        try:
            trial, bad = cells.assume(cell, value, solver, self.deadline)
        except Deadline:
            self.exhausted = True
            raise BudgetExhausted from None
        finally:
            if limit is not None:
                self._charge(calls0)
        if limit is None:
            self._charge(calls0)
        if bad is not None or depth < 2:
            return trial, bad
        return trial, self.fixpoint(trial)

    def fixpoint(self, state: GridState | LaneState | Cells) -> Contradiction | RuleConflict | None:
        """Single-cell contradiction probing (depth 1), in place, repeated until nothing changes.

        Each open cell is given each of its values in turn and propagated from its lanes; a value
        that contradicts is ruled out (in black and white the cell has the other value), which
        is propagated at once.  Returns a contradiction if the state turns out to have no solution.
        """
        cells = cells_of(state)
        changed = True
        while changed:
            changed = False
            safe = cells.safe()
            for cell in cells.open_cells():
                if cells.value(cell) is not None:
                    continue
                for value in cells.probe_values(cell):
                    if safe.has(cell, value):
                        continue
                    trial, bad = self._trial(cells, cell, value, 1)
                    if bad is None:
                        safe.add(trial)
                        continue
                    cells.exclude(cell, value)
                    bad = self._propagate_from(cells, cell)
                    if bad is not None:
                        return bad
                    changed = True
                    safe = cells.safe()  # the state grew: what was safe may not be now
                    break
        return None

    def find(self, state: GridState | LaneState | Cells, depth: int) -> tuple[int, int] | None:
        """A refutable assumption ``(cell, value)`` at this depth, the cheapest to refute at
        depth 1 (fewest line-solver calls); None when there is none."""
        cells = cells_of(state)
        best: tuple[int, int, int] | None = None
        window = None
        safe = cells.safe()
        has, values, trial_of, solver = safe.has, cells.probe_values, self._trial, self.solver
        order = cells.probe_order()
        for cell in order:
            if window is not None:
                window -= 1
                if window < 0:  # a refutation is in hand and no cheaper one showed up nearby
                    break
            for value in values(cell):
                if has(cell, value):
                    continue
                calls0 = solver.calls
                try:
                    # once a refutation is in hand, only a cheaper one is of interest
                    trial, bad = trial_of(cells, cell, value, depth, None if best is None or depth > 1 else best[0])
                except _TooCostly:
                    continue
                if bad is None:
                    safe.add(trial)
                    continue
                work = solver.calls - calls0
                if depth > 1:
                    return cell, value
                if best is None or work < best[0]:
                    best = (work, cell, value)
                    if work <= QUICK_REFUTATION:  # as easy as refutations get: stop looking
                        return cell, value
                if window is None and len(order) > FULL_SCAN_CELLS:
                    window = PROBE_WINDOW
        if best is None:
            self.insufficient = max(self.insufficient, depth)
            return None
        return best[1], best[2]
