"""Probing: refuting single-cell assumptions by line logic, within a budget.

A probe assumes one value of an open cell (black or white; in colour, one of
the colours the cell may still have) and propagates from its row and column;
when some line then has no placement, the value is ruled out.  Depth 1 uses
line logic inside the assumption, depth 2 also depth-1 probing.  The search
(:meth:`Prober.find`) prefers the cheapest refutation (fewest line-solver
calls), trying cells next to known cells first, and is bounded by a budget of
line-solver calls (deterministic) and optionally a deadline: when either runs
out it raises :class:`BudgetExhausted`.

Used by the explanations (:mod:`satnono.explain`) and so by ``classify --probe``
and ``check --grade``.
"""

from __future__ import annotations

import time
from typing import Sequence

from ..lines import LineSolver
from ..lines.bits import known_of
from .propagate import propagate
from .state import Contradiction, Deadline, GridState

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
    """Finds refutations of single-cell assumptions with fast propagation, within a budget."""

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

    def _propagate_from(self, state: GridState, r: int, c: int, limit: int | None = None) -> Contradiction | None:
        """Propagate ``state`` in place from the row and column of a cell just set, charging the budget.

        With ``limit``, gives up (raises :class:`_TooCostly`) after that many line-solver calls.
        """
        dr = [False] * state.height
        dc = [False] * state.width
        dr[r] = True
        dc[c] = True
        calls0 = self.solver.calls
        solver = self.solver if limit is None else _Limited(self.solver, limit)
        try:
            bad = propagate(state, solver, dr, dc, self.deadline)
        except Deadline:
            self.exhausted = True
            raise BudgetExhausted from None
        finally:
            if limit is not None:
                self._charge(calls0)
        if limit is None:
            self._charge(calls0)
        return bad

    def refutes(self, state: GridState, r: int, c: int, black: bool, depth: int) -> Contradiction | None:
        """The contradiction that setting ``(r, c)`` leads to by line logic (with depth-1
        probing inside when ``depth`` is 2), or None."""
        return self._trial(state, r, c, black, depth)[1]

    def _trial(self, state: GridState, r: int, c: int, black: int, depth: int,
               limit: int | None = None) -> tuple[GridState, Contradiction | None]:
        trial = state.copy()
        trial.set_cell(r, c, black)
        bad = self._propagate_from(trial, r, c, limit)
        if bad is not None or depth < 2:
            return trial, bad
        return trial, self.fixpoint(trial)

    def fixpoint(self, state: GridState) -> Contradiction | None:
        """Single-cell contradiction probing (depth 1), in place, repeated until nothing changes.

        Each unknown cell is set black, then white, and propagated from its row
        and column; a value that contradicts fixes the cell to the other value
        (which is propagated at once).  Returns a contradiction if the state
        turns out to have no solution.
        """
        changed = True
        while changed:
            changed = False
            safe = _Safe(state)
            for r, c in state.unknown_cells():
                if state.cell(r, c) is not None:
                    continue
                for black in _values(state, r, c):
                    if safe.has(r, c, black):
                        continue
                    trial, bad = self._trial(state, r, c, black, 1)
                    if bad is None:
                        safe.add(trial)
                        continue
                    state.exclude(r, c, black)  # in black and white: the cell has the other value
                    bad = self._propagate_from(state, r, c)
                    if bad is not None:
                        return bad
                    changed = True
                    safe = _Safe(state)  # the state grew: what was safe may not be now
                    break
        return None

    def find(self, state: GridState, depth: int) -> tuple[int, int, int] | None:
        """A refutable assumption ``(r, c, black)`` at this depth, the cheapest to refute
        at depth 1 (fewest line-solver calls); None when there is none."""
        best: tuple[int, int, int, int] | None = None
        window = None
        safe = _Safe(state)
        order = _probe_order(state)
        for r, c in order:
            if window is not None:
                window -= 1
                if window < 0:  # a refutation is in hand and no cheaper one showed up nearby
                    break
            for black in _values(state, r, c):
                if safe.has(r, c, black):
                    continue
                calls0 = self.solver.calls
                try:
                    # once a refutation is in hand, only a cheaper one is of interest
                    trial, bad = self._trial(state, r, c, black, depth,
                                             None if best is None or depth > 1 else best[0])
                except _TooCostly:
                    continue
                if bad is None:
                    safe.add(trial)
                    continue
                work = self.solver.calls - calls0
                if depth > 1:
                    return r, c, black
                if best is None or work < best[0]:
                    best = (work, r, c, black)
                    if work <= QUICK_REFUTATION:  # as easy as refutations get: stop looking
                        return best[1], best[2], best[3]
                if window is None and len(order) > FULL_SCAN_CELLS:
                    window = PROBE_WINDOW
        if best is None:
            self.insufficient = max(self.insufficient, depth)
            return None
        return best[1:]


class _Safe:
    """Assumptions known to lead to no contradiction from one state.

    A cell value that a consistent trial implied can only imply a subset of
    that trial's cells (logic is monotone), so it cannot contradict either and
    need not be tried -- as long as the state does not change.  ``settled[v][r]``
    holds the cells of row r that some consistent trial settled to colour index v
    (in black and white: 1 black, 0 white, so ``has(r, c, True)`` asks about black).
    """

    __slots__ = ("settled",)

    def __init__(self, state: GridState) -> None:
        self.settled = [[0] * state.height for _ in range(state.nvals)]

    def has(self, r: int, c: int, value: int | bool) -> bool:
        return bool((self.settled[value][r] >> c) & 1)

    def add(self, trial: GridState) -> None:
        if trial.nvals == 2:
            white, black = self.settled
            for r, (b, w) in enumerate(zip(trial.row_black, trial.row_white)):
                black[r] |= b
                white[r] |= w
            return
        full = (1 << trial.width) - 1
        for r in range(trial.height):
            exs = [ex[r] for ex in trial.row_ex]
            known = known_of(tuple(exs), full)
            for v, e in enumerate(exs):
                self.settled[v][r] |= known & ~e


_BW_VALUES = (True, False)


def _values(state: GridState, r: int, c: int) -> Sequence[int]:
    """The values a probe may assume for an open cell: black then white, or in colour
    each block colour the cell may have, then the background."""
    if state.nvals == 2:
        return _BW_VALUES
    left = state.possible(r, c)
    return left[1:] + left[:1] if left[0] == 0 else left


def _probe_order(state: GridState) -> list[tuple[int, int]]:
    """Unknown cells, those with most known neighbours first (where a person looks), then row-major."""
    cells = state.unknown_cells()

    def known(r: int, c: int) -> int:
        k = 0
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < state.height and 0 <= cc < state.width and state.cell(rr, cc) is not None:
                k += 1
        return k

    return sorted(cells, key=lambda rc: (-known(*rc), rc))
