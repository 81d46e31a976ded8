"""Counting solutions exactly (Ganak itself is in :mod:`satnono.cnf.ganak`).

Pipeline (``shared/guide/encodings.md`` §3.3–3.5):

1. line propagation; a contradiction means 0 solutions, a complete grid 1;
2. one SAT call for a first solution of the whole residue (none: 0 solutions);
3. split the unknown cells into independent components
   (:mod:`satnono.logic.components`); the count is the product of their counts;
4. per component, enumerate solutions with blocking clauses over the
   component's unknown cells, up to :data:`ENUM_CAP` models;
5. a component that reaches the cap is counted by a transfer-matrix dynamic
   programme over rows (exact, bounded by a state budget; black and white
   only); if that gives up, or for colour puzzles,
   by Ganak (``pyganak``, projected onto the component's cells) in a
   subprocess that is killed at the deadline, since Ganak has no interrupt.

Counts are Python ints of any size.  A result is *exact* or a proven *lower
bound*: a timeout leaves the solutions found so far, and ``max_solutions``
stops the search once that many solutions are known to exist.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Sequence

from .lines import LineSolver
from .logic.state import COLUMN, ROW, GridState
from .model import Grid, Puzzle
from .results import DEFAULT_SOLVER, Limits, Status
from .solve import Checker, lazy_rules, rule_cuts

if TYPE_CHECKING:  # the CNF, its components and the SAT session: loaded when line logic leaves cells open
    from .lanepuzzle import LanePuzzle
    from .sat import SatSession

#: Models enumerated per component before switching to an exact counter.
ENUM_CAP = 1000
#: Largest number of distinct states the transfer-matrix counter may hold at once.
DP_MAX_STATES = 200_000

NONE = Status.NONE
UNIQUE = Status.UNIQUE
MULTIPLE = Status.MULTIPLE
UNKNOWN = Status.UNKNOWN


@dataclass(slots=True)
class ComponentCount:
    """The count of one independent component."""

    size: int
    """Number of unknown cells in the component."""
    count: int
    """Its number of solutions (a lower bound when not ``exact``)."""
    exact: bool
    method: str
    """``"enumeration"``, ``"dp"`` (transfer matrix) or ``"ganak"``."""
    seconds: float = 0.0

    def as_dict(self) -> dict[str, Any]:
        return {"size": self.size, "count": self.count, "exact": self.exact,
                "method": self.method, "seconds": round(self.seconds, 6)}


@dataclass(slots=True)
class CountResult:
    """How many solutions a puzzle has."""

    puzzle: Puzzle | LanePuzzle
    count: int
    """The number of solutions; a proven lower bound when ``exact`` is false."""
    exact: bool
    status: str
    """``"none"``, ``"unique"``, ``"multiple"`` (count >= 2, exact or not) or ``"unknown"``."""
    line_solvable: bool = False
    unknown_after_propagation: int = 0
    components: list[ComponentCount] = field(default_factory=list)
    """Per independent component, largest first (empty when line logic settles the puzzle)."""
    solution: Grid | str | None = None
    """One solution, when one was found (a picture string for a puzzle of another geometry)."""
    reason: str | None = None
    """Why the count is 0, or why it is only a lower bound."""
    capped: bool = False
    """True when the count is a lower bound because ``max_solutions`` stopped the search (not a timeout)."""
    seconds: float = 0.0


class _Timeout(Exception):
    pass


# --------------------------------------------------------------------------
# Enumeration


class _ComponentEnumerator:
    """Blocking-clause enumeration of one component's solutions inside the session of the whole residue.

    Components are independent, so the projections of the residue's models
    onto a component's cells are exactly the component's solutions; the other
    cells stay free.  The blocking clauses carry an activation literal that is
    assumed while this component is enumerated and retired afterwards.  The
    first model of the residue is the component's first solution.
    """

    def __init__(self, sat: SatSession, cells: list[int], first: list[int], act: int, keeps=None) -> None:
        self.sat = sat
        self.cells = cells
        self.act = act
        self.keeps = keeps
        """``keeps(model)``: False (after adding cuts) for a model a lazily encoded rule rejects."""
        self.found = 1
        self.exhausted = False
        self._block(first)

    def _block(self, model: list[int]) -> None:
        self.sat.add_clause([-self.act] + [-model[v - 1] if v <= len(model) else v for v in self.cells])

    def run(self, deadline: float | None, upto: int | None) -> None:
        """Find solutions until ``upto`` are known (None: all), none is left or the deadline passes."""
        while not self.exhausted and (upto is None or self.found < upto):
            r = self.sat.solve(deadline, [self.act])
            if r is None:
                return
            if not r:
                self.exhausted = True
                return
            model = self.sat.model()  # read before the solver state changes
            if self.keeps is not None and not self.keeps(model):
                continue  # cut off for breaking a rule: not a solution
            self.found += 1
            self._block(model)

    def retire(self) -> None:
        self.sat.add_clause([-self.act])


# --------------------------------------------------------------------------
# Transfer-matrix counting


def dp_count(state: GridState, deadline: float | None = None,
             max_states: int = DP_MAX_STATES, line_solver: LineSolver | None = None) -> int | None:
    """Count the completions of ``state`` (a consistent, propagated state) exactly.

    Scans the grid cell by cell, keeping for every line with unknown cells the
    progress of its clue (blocks finished, length of the current run); states
    are merged with their multiplicity.  A block may only start at one of the
    valid starts the complete line solver allows, which prunes most dead
    states.  Lines without unknown cells are consistent (after propagation)
    and not tracked.  Scans along the longer side so that the frontier is the
    shorter one.  Returns None when the number of states exceeds
    ``max_states`` or the deadline passes.
    """
    p = state.puzzle
    lines = line_solver or LineSolver()
    unknown_cells = state.unknown_cells()
    if not unknown_cells:
        return 1
    rows_u = sorted({r for r, _ in unknown_cells})
    cols_u = sorted({c for _, c in unknown_cells})
    transpose = len(cols_u) > len(rows_u)
    if transpose:
        H, W = state.width, state.height
        scan_axis, cross_axis = COLUMN, ROW
        scan_clues, cross_clues = p.columns, p.rows
        scan_tracked, cross_tracked = set(cols_u), rows_u
        ij = [(c, r) for r, c in unknown_cells]

        def cell(i: int, j: int) -> int | None:
            return state.cell(j, i)
    else:
        H, W = state.height, state.width
        scan_axis, cross_axis = ROW, COLUMN
        scan_clues, cross_clues = p.rows, p.columns
        scan_tracked, cross_tracked = set(rows_u), cols_u
        ij = unknown_cells

        def cell(i: int, j: int) -> int | None:
            return state.cell(i, j)

    lo_row = min(i for i, _ in ij)
    hi_row = max(i for i, _ in ij)

    def line_info(axis: str, index: int, clue: Sequence[int], n: int) -> _LineInfo:
        black, white = state.line(axis, index)
        res = lines(tuple(clue), n, black, white)
        if res is None:
            raise ValueError(f"{axis} {index} is inconsistent; propagate first")
        return _LineInfo(clue, _suffix_need(clue), res.starts, [v.bit_length() - 1 for v in res.starts])

    cross = {c: line_info(cross_axis, c, cross_clues[c], H) for c in cross_tracked}
    base = H + 2  # a field value is done * base + run; run <= H
    fbits = (max(len(cross_clues[c]) + 1 for c in cross_tracked) * base).bit_length()
    slot = {c: n for n, c in enumerate(cross_tracked)}
    fmask = (1 << fbits) - 1

    # Initial column states: columns are fully known above lo_row; run them deterministically.
    start = 0
    for c in cross_tracked:
        st: tuple[int, int] | None = (0, 0)
        for i in range(lo_row):
            v = cell(i, c)
            st = _step(cross_clues[c], st, v == 1)  # type: ignore[arg-type]
            if st is None:
                return 0
        assert st is not None
        start |= (st[0] * base + st[1]) << (slot[c] * fbits)
    rbase = W + 2
    rshift = len(cross_tracked) * fbits  # the scan line's own (done, run) lives above the columns
    states: dict[int, int] = {start: 1}

    for i in range(lo_row, hi_row + 1):
        tracked_row = i in scan_tracked
        row = line_info(scan_axis, i, scan_clues[i], W) if tracked_row else None
        for j in range(W):
            if deadline is not None and time.monotonic() > deadline:
                return None
            v = cell(i, j)
            values = (True, False) if v is None else (v == 1,)
            col = cross.get(j)
            cshift = slot[j] * fbits if col is not None else 0
            new: dict[int, int] = {}
            get = new.get
            rem_col = H - i - 1
            rem_row = W - j - 1
            for s, n in states.items():
                for black in values:
                    t = s
                    if col is not None:
                        done, run = divmod((s >> cshift) & fmask, base)
                        nxt = col.advance(done, run, black, i, rem_col)
                        if nxt is None:
                            continue
                        t = (t & ~(fmask << cshift)) | ((nxt[0] * base + nxt[1]) << cshift)
                    if row is not None:
                        done, run = divmod(t >> rshift, rbase)
                        nxt = row.advance(done, run, black, j, rem_row)
                        if nxt is None:
                            continue
                        t = (t & ((1 << rshift) - 1)) | ((nxt[0] * rbase + nxt[1]) << rshift)
                    new[t] = get(t, 0) + n
            states = new
            if not states:
                return 0
            if len(states) > max_states:
                return None
        if tracked_row:
            # the row is complete (the last cell left no room for more); reset its field
            merged: dict[int, int] = {}
            low = (1 << rshift) - 1
            for s, n in states.items():
                t = s & low
                merged[t] = merged.get(t, 0) + n
            states = merged
    # Columns below hi_row are fully known: finish each tracked column deterministically.
    total = 0
    for s, n in states.items():
        ok = True
        for c in cross_tracked:
            st2: tuple[int, int] | None = divmod((s >> (slot[c] * fbits)) & fmask, base)
            for i in range(hi_row + 1, H):
                st2 = _step(cross_clues[c], st2, cell(i, c) == 1)  # type: ignore[arg-type]
                if st2 is None:
                    break
            if st2 is None or not _complete(cross_clues[c], st2):
                ok = False
                break
        if ok:
            total += n
    return total


class _LineInfo:
    """What the transfer-matrix counter needs to know about one tracked line."""

    __slots__ = ("clue", "suf", "starts", "his")

    def __init__(self, clue: Sequence[int], suf: list[int], starts: Sequence[int], his: list[int]) -> None:
        self.clue = clue
        self.suf = suf
        self.starts = starts
        self.his = his

    def advance(self, done: int, run: int, black: bool, pos: int, remaining: int) -> tuple[int, int] | None:
        """The line's progress after a cell at ``pos`` of the given colour, or None if that is impossible.

        ``remaining`` cells follow ``pos``; blocks may only start at valid starts.
        """
        clue = self.clue
        if black:
            if run:
                if run >= clue[done]:
                    return None
                run += 1
            else:
                if done >= len(clue) or not (self.starts[done] >> pos) & 1:
                    return None
                run = 1
            # the rest of this block, then each later block with the white cell before it
            if clue[done] - run + self.suf[done + 1] > remaining:
                return None
            return done, run
        if run:
            if run != clue[done]:
                return None
            done += 1
            run = 0
        if done < len(clue) and (self.his[done] <= pos or self.suf[done] - 1 > remaining):
            return None  # the next block can no longer start, or no longer fits
        return done, run


def _suffix_need(clue: Sequence[int]) -> list[int]:
    """``need[d]`` = cells needed by blocks d.. each with one separator: sum(clue[d:]) + len(clue[d:])."""
    out = [0] * (len(clue) + 1)
    for d in range(len(clue) - 1, -1, -1):
        out[d] = out[d + 1] + clue[d] + 1
    return out


def _step(clue: Sequence[int], st: tuple[int, int], black: bool) -> tuple[int, int] | None:
    """One cell of a line: ``(blocks done, current run)`` -> next, or None if the clue is violated."""
    done, run = st
    if black:
        if run:
            return (done, run + 1) if run < clue[done] else None
        return (done, 1) if done < len(clue) else None
    if run:
        return (done + 1, 0) if run == clue[done] else None
    return st


def _complete(clue: Sequence[int], st: tuple[int, int]) -> bool:
    done, run = st
    return (run == 0 and done == len(clue)) or (done == len(clue) - 1 and run == clue[done])


# --------------------------------------------------------------------------
# Ganak in a subprocess


def ganak_count(clauses: Sequence[Sequence[int]], sampling: Sequence[int],
                timeout: float | None = None) -> int | None:
    """Projected model count of ``clauses`` on ``sampling`` by Ganak, or None on timeout.

    The CNF is renumbered compactly and counted in a child process
    (``python -m satnono.cnf.ganak``, a plain subprocess, so it also runs inside daemonic
    pool and Dask workers) that is killed when ``timeout`` seconds pass.  The formula should
    be satisfiable (Ganak is slow to report 0 and prints to stdout on UNSAT input; the
    child's stdout is redirected anyway).

    Raises:
        RuntimeError: Ganak failed (its message is included).
    """
    from .batch.child import ChildFailed, call_module
    from .cnf.ganak import compact

    try:
        done, reply = call_module("satnono.cnf.ganak", compact(clauses, sampling), timeout)
    except ChildFailed as e:
        raise RuntimeError(f"Ganak failed: {e}") from None
    if not done:
        return None
    kind, value = reply
    if kind != "ok":
        raise RuntimeError(f"Ganak failed: {value}")
    return int(value)


# --------------------------------------------------------------------------
# The pipeline


def _left(deadline: float | None) -> float | None:
    return None if deadline is None else max(0.0, deadline - time.monotonic())


def count(
    puzzle: Puzzle | LanePuzzle,
    max_solutions: int | None = None,
    limits: Limits = Limits(),
    exact: bool = False,
    solver: str = DEFAULT_SOLVER,
    *,
    enum_cap: int = ENUM_CAP,
    line_solver: LineSolver | None = None,
    decompose: bool = True,
    use_dp: bool = True,
    use_ganak: bool = True,
) -> CountResult:
    """Count the solutions of ``puzzle``.

    ``max_solutions``: stop as soon as this many solutions are known to exist
    and return that proven lower bound (at least ``max_solutions``; more when
    components multiply) with ``exact=False``; a count below
    ``max_solutions`` is exact.  Components that reach the
    enumeration cap are then counted by the transfer-matrix counter when it
    succeeds within its budget, otherwise enumeration goes on (Ganak is not
    started).  ``exact``: ignore ``max_solutions`` and count every component
    exactly, with Ganak past the enumeration cap (as happens anyway when no
    ``max_solutions`` is given).  ``limits`` bounds the whole count
    (:class:`~satnono.results.Limits`: a timeout from when it starts, a deadline);
    when it runs out the result is the lower bound proven so far.

    ``decompose=False`` counts the residue as one component (for tests);
    ``use_dp``/``use_ganak`` switch the exact counters off (for tests).

    A puzzle of another geometry (:class:`~satnono.lanepuzzle.LanePuzzle`, e.g. a triddler) is
    counted by the same pipeline over its lanes (components, enumeration, Ganak); the
    transfer-matrix counter, which runs row by row, is the rectangle's fast path.

    >>> count(Puzzle.from_clues([[1], [1]], [[1], [1]])).count
    2
    """
    t0 = time.monotonic()
    deadline = limits.deadline_from(t0)
    lines = line_solver or LineSolver()
    limit = None if exact else max_solutions

    def done(n: int, is_exact: bool, status: str | None = None, **kw: Any) -> CountResult:
        if status is None:
            if is_exact:
                status = NONE if n == 0 else UNIQUE if n == 1 else MULTIPLE
            else:
                status = MULTIPLE if n >= 2 else UNKNOWN
        return CountResult(puzzle, n, is_exact, status, seconds=time.monotonic() - t0, **kw)

    st = Checker(solver, lines).settle(puzzle, limits=limits.until(deadline), solutions=1, keep_open=True)
    res = st.result
    if st.sat is None:  # settled (or stopped) before a SAT solution was at hand
        if res.status is Status.UNIQUE:
            return done(1, True, line_solvable=True, solution=res.solutions[0])
        if st.enc is None:
            return done(0, res.status is Status.NONE, reason=res.reason)
        return done(0, res.status is Status.NONE, reason=res.reason,
                    unknown_after_propagation=res.stats.unknown_after_propagation)
    from .cnf.encode import cell_vars, encode, solution_grid
    from .logic.components import Component, component_state, split

    state, enc, sat = st.state, st.enc, st.sat
    assert state is not None and enc is not None and st.first_model is not None
    left = res.stats.unknown_after_propagation
    first = st.first_model
    solution = res.solutions[0]
    with sat:
        lazy = lazy_rules(puzzle)
        keeps: Callable[[list[int]], bool] | None = None
        if lazy:  # rules encoded lazily: cut off the models that break them

            def keeps(model: list[int]) -> bool:
                cuts = rule_cuts(lazy, solution_grid(state, enc, model), state, enc)
                for cl in cuts:
                    sat.add_clause(cl)
                return not cuts

        rectangle = isinstance(state, GridState)  # (the transfer-matrix counter runs row by row)
        comps = split(state, lines) if decompose else [Component(state.unknown_cells())]
        comps.sort(key=lambda c: c.size)
        counts: list[ComponentCount] = []
        known = [1] * len(comps)  # proven lower bound per component (each has >= 1 solution)
        reason: str | None = None
        stopped = capped = False
        next_var = enc.nvars + 1
        for n, comp in enumerate(comps):
            tc = time.monotonic()
            others = 1
            for m, k in enumerate(known):
                if m != n:
                    others *= k
            # stop once others * found >= limit
            stop_at = None if limit is None else max(1, -(-limit // others))
            en = _ComponentEnumerator(sat, cell_vars(enc, comp.cells), first, next_var, keeps)
            next_var += 1
            try:
                en.run(deadline, enum_cap if stop_at is None else min(enum_cap, stop_at))
                found, cexact, method = en.found, en.exhausted, "enumeration"
                if not cexact and found >= enum_cap and (stop_at is None or found < stop_at):
                    # The cap was hit and the count is still wanted: exact counters on the
                    # component alone (cells outside it fixed to the first solution).
                    sub = component_state(state, comp, solution)
                    # the transfer-matrix counter knows clues only (givens are known cells of the state)
                    value = (dp_count(sub, deadline, line_solver=lines)
                             if use_dp and rectangle and not puzzle.is_color and not puzzle.rules
                             and not puzzle.has_blots else None)
                    if value is not None:
                        found, cexact, method = value, True, "dp"
                    elif limit is not None:
                        en.run(deadline, stop_at)
                        found, cexact = en.found, en.exhausted
                    elif lazy:  # Ganak needs every rule as clauses: enumerate on
                        en.run(deadline, None)
                        found, cexact = en.found, en.exhausted
                    elif use_ganak and (deadline is None or time.monotonic() < deadline):
                        cenc = encode(sub, lines)
                        g = ganak_count(cenc.clauses, cenc.unknown_vars, _left(deadline))
                        if g is not None:
                            found, cexact, method = g, True, "ganak"
            finally:
                en.retire()
            known[n] = max(found, 1)
            counts.append(ComponentCount(comp.size, known[n], cexact, method, time.monotonic() - tc))
            if not cexact:
                stopped = True
                if stop_at is not None and found >= stop_at:
                    capped = True
                    reason = f"stopped after finding {limit} solutions (the maximum asked for)"
                else:
                    reason = "timed out"
                break
    # components not reached keep their proven lower bound of 1
    for comp in comps[len(counts):]:
        counts.append(ComponentCount(comp.size, 1, False, "none"))
    total = 1
    for k in known:
        total *= k
    is_exact = not stopped and all(c.exact for c in counts)
    counts.sort(key=lambda c: -c.size)
    return done(total, is_exact, unknown_after_propagation=left, components=counts,
                solution=solution, reason=reason, capped=capped)


__all__ = [
    "ComponentCount",
    "CountResult",
    "ENUM_CAP",
    "count",
    "dp_count",
    "ganak_count",
]
