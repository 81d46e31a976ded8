"""Settling a puzzle: line propagation, then SAT for what is left.

:func:`check` is the one-way pipeline: propagate to a fixpoint; if every cell
is known the puzzle is line-solvable (hence unique); otherwise encode the
residue, find a solution, block it over the undetermined cells and solve
again.  Every solution is re-checked against the clues before it is returned.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Callable

from .lines import LineSolver
from .logic.propagate import propagate, transpose
from .logic.state import Contradiction, Deadline, GridState, initial_state
from .model import Grid, Puzzle, grid_diff
from .results import DEFAULT_SOLVER, Limits, Status
from .rules.protocol import cut, describe, is_lazy

Progress = Callable[[str, "float | None"], None]

if TYPE_CHECKING:  # the CNF and the SAT session are loaded when line logic leaves cells open
    from .cnf.encode import Encoding
    from .lanepuzzle import LanePuzzle
    from .logic.lanes import LaneState
    from .portfolio import Portfolio
    from .sat import SatSession


@dataclass
class Stats:
    """How much work a verdict took."""

    cells: int = 0
    unknown_after_propagation: int = 0
    line_calls: int = 0
    cnf_vars: int = 0
    cnf_clauses: int = 0
    sat_calls: int = 0
    conflicts: int = 0
    cuts: int = 0
    """Clauses added lazily by rules that cut off solutions breaking them (``connected``)."""

    def as_dict(self) -> dict[str, int]:
        d = {
            "cells": self.cells,
            "unknown_after_propagation": self.unknown_after_propagation,
            "line_calls": self.line_calls,
            "cnf_vars": self.cnf_vars,
            "cnf_clauses": self.cnf_clauses,
            "sat_calls": self.sat_calls,
            "conflicts": self.conflicts,
        }
        if self.cuts:  # only puzzles with a lazily encoded rule have them
            d["cuts"] = self.cuts
        return d


@dataclass
class CheckResult:
    """The outcome of :func:`check`."""

    puzzle: Puzzle | LanePuzzle
    status: Status
    line_solvable: bool = False
    """True when line logic alone determines every cell (implies ``unique``)."""
    solutions: tuple[Grid, ...] = ()
    """Up to two solutions, each a tuple of row strings over the palette's characters (``#``/``.`` in black and white);
    for a puzzle of another geometry (:class:`~satnono.lanepuzzle.LanePuzzle`) each a picture, one character a cell."""
    diff: tuple[tuple[int, int], ...] = ()
    """0-based ``(row, col)`` cells where the two solutions differ (cell numbers for another geometry)."""
    reason: str | None = None
    """Why, for ``none``, ``unknown`` and ``error``."""
    seconds: float = 0.0
    stats: Stats = field(default_factory=Stats)
    cpu_seconds: float | None = None
    """CPU seconds of the settle, its portfolio's processes included; measured only when it was
    allowed more than one job (None with ``jobs=1``: ``seconds`` is then its one measure)."""
    jobs: int = 1
    """The searches that ran at once (a portfolio's members; 1 when no portfolio was needed)."""


#: Conflicts of the first search before it takes the phases of belief propagation
#: (:mod:`satnono.logic.beliefs`) and the hunches, on a grid whose belief propagation does at most
#: :data:`TRY_WORK` (about a fully open 25x25 puzzle): a search that ends within it never pays for
#: the hints.  The first searches of n-Dom's puzzles fit (they search exactly as without hints), and
#: all but three of those of the survey and Wilk that need search.  A longer try does not only cost
#: its own conflicts: the hinted search that follows starts from the scores of its unhinted
#: conflicts and needs more of its own.  Measured on the 3,000 tournament puzzles (with the
#: hunches): a try of 100 conflicts 1.05M conflicts in all, 30 1.20M (one puzzle 270k), 20 0.87M,
#: 10 0.88M, 5 0.90M, none (the hints from the start) 0.83M; without a try n-Dom 12 needs 15,559
#: conflicts instead of 6,324 (the hunches mislead a unique puzzle's short search), with one of 10
#: or 20 the same 6,324.  The price: a search that needs 20 to 100 conflicts now pays for the hints
#: (about 5 ms on a 25x25; the first 100 puzzles of taai2011 1.37x the CPU of a try of 100).
FIRST_TRY = 20
#: The conflicts that stand for a hint's worth of work (the hunch rounds' budgets are counted in
#: them: :data:`HUNCH_UNITS`) on a grid up to :data:`TRY_WORK`; beyond, the unit, and the first try
#: with it, grow with the square root of the work, so that the try lasts about as long as the hints
#: would take to compute (a 100x100 puzzle's take 0.15 s, about 600 of its conflicts; a 25x25's
#: 2.5 ms, about 70): a search that ends within the try never pays for them, one that goes on pays
#: at most about twice.  (The short try of :data:`FIRST_TRY` is for grids up to TRY_WORK only: on
#: larger ones it was measured on the single, chaotic searches of a few puzzles, each of which
#: moved a lot either way - 100 random 35x35 pictures 20.8k -> 11.2k conflicts, 20 colour36
#: pictures 365k -> 380k, Faase 12k -> 78k, the deadline set's #158 127k -> over 380k - so their
#: searches are left as they were.)
SEARCH_UNIT = 100
#: See :data:`FIRST_TRY` and :data:`SEARCH_UNIT`.
TRY_WORK = 750_000


#: After the try, the search from the hints first *assumes* the hints of this share of the open
#: cells, the ones belief propagation is surest of (:meth:`satnono.cnf.encode.Encoding.hunches`):
#: puzzles that need search most often have many solutions, and a grid that keeps the surest
#: hints is found long before one the search reaches from the phases alone.  Measured on 400
#: tournament puzzles drawn at random from the three files (the first searches after the try, in
#: conflicts): phases alone 292k; assuming 20 % 143k, 30 % 103k, 40 % 107k, 50 % 127k, 70 % 194k,
#: 90 % 215k (with 2,000 conflicts a round; 1,000 and 4,000 within 10 % of it at 30 %).
HUNCH_SHARE = 0.3
#: Conflicts of each round under the assumptions, in units (:func:`search_unit`): 3,000 for a 25x25.
HUNCH_UNITS = 30
#: Rounds under assumptions.  A round that proves the assumptions wrong drops those of them in its
#: unsatisfiable core; one that runs out of conflicts keeps the surer half.  Then the search goes
#: on from the phases alone (it keeps every clause it learnt), so hunches never decide a verdict.
HUNCH_ROUNDS = 6


def _work(state: GridState | LaneState) -> float:
    """Belief propagation's work on this puzzle's open lanes, in :data:`TRY_WORK`."""
    from .logic.beliefs import work

    return work(state) / TRY_WORK


def _unit(w: float) -> int:
    return SEARCH_UNIT if w <= 1 else int(SEARCH_UNIT * w ** 0.5)


def search_unit(state: GridState | LaneState) -> int:
    """The conflicts that stand for the hints' work on this puzzle (see :data:`SEARCH_UNIT`)."""
    return _unit(_work(state))


def first_try(state: GridState | LaneState) -> int:
    """Conflicts of plain search before the hints (see :data:`FIRST_TRY`), on any geometry."""
    w = _work(state)
    return FIRST_TRY if w <= 1 else _unit(w)


def hunch_budget(state: GridState | LaneState) -> int:
    """Conflicts of each round under the hunches (:data:`HUNCH_UNITS` units, at least one)."""
    return max(HUNCH_UNITS * search_unit(state), 1)


def _cell_count(puzzle: Puzzle | LanePuzzle) -> int:
    return puzzle.height * puzzle.width if isinstance(puzzle, Puzzle) else puzzle.geometry.cell_count


def solutions_differ(a: Grid | str, b: Grid | str) -> tuple:
    """Where two solutions differ: ``(row, col)`` cells of a rectangle's grids, cell numbers of
    pictures of another geometry (one character a cell)."""
    if isinstance(a, str):
        from .lanepuzzle import cells_differ

        return tuple(cells_differ(a, b))
    return tuple(grid_diff(a, b))


class InternalError(RuntimeError):
    """A solution failed its re-check against the clues (a bug, never a verdict)."""


def verified(puzzle: Puzzle | LanePuzzle, grid: Grid) -> Grid:
    """``grid``, when it is a solution (the clues, the givens, the rules); else :class:`InternalError`."""
    if not puzzle.is_solution(grid):  # type: ignore[arg-type]  # (a picture, on another geometry)
        raise InternalError(f"solver produced a grid that does not satisfy the clues of {puzzle.source or 'the puzzle'}")
    return grid


def switched(puzzle: Puzzle | LanePuzzle, state: GridState, grid: Grid) -> Grid | None:
    """A second solution next to the solution ``grid`` without SAT, or None: four cells that
    line logic left open in ``state`` whose exchange keeps their two rows' and two columns'
    clues (a 2x2 switch, :func:`satnono.lines.switches.find_switch`), re-checked whole against
    the clues, givens and rules (a switch that breaks a rule is no answer).  Black and white
    only (a colour grid's switches are not looked for).  Nearly every random picture with
    several solutions has one (294 of the 309 such among the first 100 puzzles of each
    tournament file and the random set), and next to a solution known beforehand (a drawing,
    a stored solution, a generator's picture) it spares encoding the puzzle at all: the random
    set settled from its pictures 2.6x faster.  After a first solution found by SAT the CNF is
    built already and the second call costs about what this search costs in Python, so it is
    not used there."""
    if not isinstance(state, GridState) or puzzle.is_color or not grid or not grid[0]:
        return None
    from .lines.switches import find_switch
    from .model import grid_from_masks, masks_from_grid

    w, chars = state.width, puzzle.chars
    rows = masks_from_grid(grid, chars)
    cols = transpose(rows, w)
    found = find_switch(rows, cols, state.open_rows(), state.open_columns())
    if found is None:
        return None
    (r1, c1), (r2, c2) = found
    flip = (1 << c1) | (1 << c2)
    rows[r1] ^= flip
    rows[r2] ^= flip
    other = grid_from_masks(rows, w, chars)
    return other if puzzle.is_solution(other) else None  # type: ignore[arg-type]  # (a picture, on another geometry)


def known_solution(puzzle: Puzzle | LanePuzzle) -> Grid | None:
    """The puzzle's goal picture when it is a solution (clues, givens, rules): a first solution
    known without search, so settling it takes one SAT call, for a second one, next to it.
    An author's picture in the editor, a file that stores its solution."""
    goal = puzzle.goal
    return goal if goal is not None and puzzle.is_solution(goal) else None  # type: ignore[arg-type, return-value]


def broken_rule(puzzle: Puzzle | LanePuzzle, grid: Grid) -> str | None:
    """A rule ``grid`` breaks, in words (:func:`~satnono.rules.protocol.describe`: rules that
    narrow cannot leave one broken in a complete state; a rule with clauses only can), or None."""
    for rule in puzzle.rules:
        if not rule.accepts(grid):
            return describe(rule)
    return None


def lazy_rules(puzzle: Puzzle | LanePuzzle) -> list:
    """The puzzle's rules that are encoded lazily (their ``cut`` is called on rejected models)."""
    return [rule for rule in puzzle.all_rules if is_lazy(rule)]


def rule_cuts(lazy: list, grid: Grid, state, enc) -> list[list[int]]:
    """The clauses the lazily encoded rules that reject ``grid`` cut it off with (empty: it keeps them)."""
    return [cl for rule in lazy if not rule.accepts(grid) for cl in (cut(rule, grid, enc.color_var, state) or ())]


def solve_keeping_rules(sat: SatSession, state, enc, deadline: float | None, stats: Stats | None = None,
                        assumptions=None, budget: int | None = None):
    """Solve, cutting off every model that a lazily encoded rule rejects, until one keeps
    every rule: ``(grid, model)``, False when there is none, None when time ran out (or, with
    ``budget``, a call ran out of conflicts: ``sat.out_of_budget``)."""
    from .cnf import encode as _encode

    lazy = lazy_rules(state.puzzle)
    while True:
        r = sat.solve(deadline, () if assumptions is None else assumptions, budget)
        if not r:
            return r
        model = sat.model()
        grid = _encode.solution_grid(state, enc, model)
        cuts = rule_cuts(lazy, grid, state, enc)
        if not cuts:
            return grid, model
        if stats is not None:
            stats.cuts += len(cuts)
        for cl in cuts:
            sat.add_clause(cl)


def solve_on_hunches(sat: SatSession, state, enc, hunches: list[int], budget: int, deadline: float | None,
                     stats: Stats | None = None):
    """:func:`solve_keeping_rules` after up to :data:`HUNCH_ROUNDS` rounds of at most ``budget``
    conflicts each under ``hunches`` (assumptions, the surest first): a round that finds a
    solution ends it; one whose assumptions are contradictory drops those in its core, one out of
    conflicts the less sure half.  A solution is a solution, whatever was assumed; only the last
    call, under no assumption, can say that there is none."""
    assume = list(hunches)
    for _ in range(HUNCH_ROUNDS):
        if not assume:
            break
        found = solve_keeping_rules(sat, state, enc, deadline, stats, assumptions=assume, budget=budget)
        if found:
            return found
        if found is None:
            if not sat.out_of_budget:
                return None  # out of time
            assume = assume[:len(assume) // 2]
        else:
            core = set(sat.core())
            assume = [x for x in assume if x not in core] if core else []
    return solve_keeping_rules(sat, state, enc, deadline, stats)


def sum_mismatch_reason(puzzle: Puzzle) -> str:
    """Why the row and column clues cannot describe one grid (``puzzle.sum_mismatch()`` is true)."""
    rt, ct = puzzle.color_totals("row"), puzzle.color_totals("column")
    for v in range(1, len(rt)):
        if rt[v] != ct[v]:
            name = "black" if not puzzle.is_color else f"{puzzle.palette[v].name} ({puzzle.palette[v].char!r})"
            return f"row clues total {rt[v]} {name} cells but column clues total {ct[v]}"
    return "row and column clues disagree"


def totals_reason(puzzle: Puzzle | LanePuzzle) -> str | None:
    """Why the clues of two families of lanes that each hold every cell once (a rectangle's rows
    and columns, a triddler's three families) cannot describe one picture: their totals of some
    colour differ; but when a lane's clue cannot fit in it at all, that lane, as line logic names
    it (the more specific reason, as ``diagnose`` gives it).  None when the totals agree."""
    if isinstance(puzzle, Puzzle):
        why = sum_mismatch_reason(puzzle) if puzzle.sum_mismatch() else None
    else:
        found = puzzle.totals_mismatch()
        why = None if found is None else found[0]
    if why is None:
        return None
    for lane, clue in zip(puzzle.lanes, puzzle.lane_clues):
        if clue.min_length() > len(lane.cells):
            return Contradiction(lane.family, lane.index, False).describe(puzzle)
    return why


@dataclass
class Settlement:
    """What :meth:`Checker.settle` found, with the work it did, for verbs that go on from there
    (counting enumerates in the same SAT session, diagnose probes cells in it)."""

    result: CheckResult
    state: GridState | None = None
    """The state after line propagation (None when it did not run)."""
    contradiction: Contradiction | None = None
    """What line logic (or a rule) found impossible, for a ``none`` found by propagation."""
    enc: Encoding | None = None
    """The CNF of the residue (None when line logic settled the puzzle or stopped it)."""
    sat: SatSession | None = None
    """The SAT session, left open with ``keep_open=True`` when a first solution was found; the
    caller closes it (:meth:`close`).  After a ``multiple`` it holds the blocking clause of the
    first solution."""
    first_model: list[int] | None = None
    """The SAT model of the first solution."""
    outcome: Outcome | None = None
    """What the SAT search found (None when it did not run), with a portfolio's figures."""

    def close(self) -> None:
        if self.sat is not None:
            self.sat.close()
            self.sat = None


@dataclass(frozen=True)
class Start:
    """What a caller knows before :meth:`Checker.settle` begins, beyond the puzzle.

    >>> Start(known=("#.", ".#")).propagated
    False
    """

    state: GridState | None = None
    """Start from this state (propagated further in place) instead of a fresh one."""
    propagated: bool = False
    """``state`` is at the line fixpoint already (a batch kernel propagated it): straight to the CNF."""
    known: Grid | None = None
    """A solution known beforehand (a generator's picture): verified and blocked at once, and the one
    SAT call looks for another next to it; the result is ``unique`` with it or ``multiple`` with both."""
    switch_looked: bool = False
    """The caller has looked for a 2x2 switch of ``known`` among the open cells already (:func:`switched`),
    so the settle does not look again."""


_FRESH = Start()


class Checker:
    """Settles puzzles one after another, sharing the line-solver cache.

    ``Checker().check(p)`` is what :func:`check` does; keep one Checker for a
    batch so repeated lines are solved once.  :meth:`settle` is the one pipeline
    every verb uses (check, count, diagnose, generate, fix and the editor):
    propagate, encode, a first solution, a second one, each verified.
    """

    def __init__(self, solver: str = DEFAULT_SOLVER, line_solver: LineSolver | None = None,
                 max_memory: int | None | str = "auto", progress: Progress | None = None,
                 portfolio: Portfolio | None = None) -> None:
        self.solver = solver
        self.lines = line_solver or LineSolver()
        #: The memory one settle may take, in bytes (None: no limit; ``"auto"``: the limit in force,
        #: :func:`satnono.memory.current`: ``--max-memory``, else half of the machine's): a puzzle
        #: whose CNF would need more is answered ``unknown`` with the reason, before it is encoded.
        self.max_memory = max_memory
        #: Called with the name of each long phase of a settle as it starts (``"encoding"``,
        #: ``"hints"``, ``"search"``, ``"proof"``) and how far it is (a share from 0 to 1, or None):
        #: the command line shows it on a terminal.
        self.progress = progress
        #: Where the searches of a settle allowed several jobs run (:class:`satnono.portfolio.Portfolio`;
        #: None: processes forked on this machine).  A Dask cluster: :class:`satnono.batch.dask_portfolio.DaskPortfolio`.
        self.portfolio = portfolio
        #: How the one search of a settle goes on after the first try (:class:`Member`: a portfolio
        #: member's configuration; ``Member()``, the default, is the search of ``jobs=1``).
        self.member = Member()
        #: Called with a first solution when the search finds it and goes on (a portfolio member
        #: tells its parent: :mod:`satnono.portfolio`).
        self.on_first: Callable[[Grid], None] | None = None
        self._deferred = False  # a session was closed with ``defer``: free it before the next settle

    def propagate(self, puzzle: Puzzle | LanePuzzle, deadline: float | None = None):
        """Propagate a fresh state (with the puzzle's givens set first); returns
        ``(state, contradiction)``."""
        state = initial_state(puzzle)
        return state, propagate(state, self.lines, deadline=deadline)

    def _note(self, phase: str, share: float | None) -> None:
        if self.progress is not None:
            self.progress(phase, share)

    def _encoding(self, done: int, total: int) -> None:
        if done % 64 == 0 and self.progress is not None:
            self.progress("encoding", done / total)

    def _too_big(self, state: GridState, flat: bool, deadline: float | None = None, copies: int = 1,
                 sizes: dict | None = None) -> str | None:
        """Why the CNF of ``state``'s open cells would take more memory than :attr:`max_memory`
        allows (None when it fits).  A bound from the grid's size alone spares the estimate on
        every grid that cannot come near the limit (the tournament's, up to about 100x100).
        ``copies``: that many solvers hold it at once (a portfolio's); ``sizes`` keeps the
        estimate for the next call."""
        from .memory import current, format_size  # (with the CNF: a line-solvable puzzle never needs them)

        limit = current() if isinstance(self.max_memory, str) else self.max_memory
        if limit is None:
            return None
        from .cnf.encode import estimate
        from .sat import memory_needed

        p = state.puzzle
        k = len(p.palette) - 1
        if isinstance(state, GridState):
            h, w = state.height, state.width
            side = max(h, w) + 1
            steps = (h + w) * side * side // 2
        else:
            steps = sum((len(lane.cells) + 1) ** 2 for lane in p.lanes) // 2
        most = steps * (2 if p.has_blots else 1) + _cell_count(p) * k  # ladder steps
        if memory_needed(most, (4 + k) * most, lists=not flat) * copies <= limit:
            return None
        sizes = {} if sizes is None else sizes
        if "estimate" not in sizes:
            sizes["estimate"] = estimate(state, self.lines, deadline)
        nvars, nclauses = sizes["estimate"]
        need = memory_needed(nvars, nclauses, lists=not flat)
        if need * copies <= limit:
            return None
        return (f"not encoded: the SAT encoding of the {state.unknown_count():,} cells line logic left open would "
                f"need about {format_size(need)} ({nvars:,} variables, {nclauses:,} clauses), more than the "
                f"memory limit of {format_size(limit)} (--max-memory to raise it)")

    def check(self, puzzle: Puzzle | LanePuzzle, timeout: float | None = None, jobs: int | str = 1) -> CheckResult:
        """Settle ``puzzle``: unique, multiple (two solutions), none or unknown (timeout).

        Cells revealed to the player are the puzzle's givens (``puzzle.with_givens(...)``).  A
        puzzle of another geometry (:class:`~satnono.lanepuzzle.LanePuzzle`, e.g. a triddler) is
        settled by the same pipeline over its lanes; its solutions are pictures (one palette
        character a cell) and ``diff`` holds cell numbers.  ``jobs``: as :attr:`Limits.jobs`.
        """
        return self.settle(puzzle, limits=Limits(timeout, jobs=jobs)).result

    def settle(self, puzzle: Puzzle | LanePuzzle, start: Start | None = None, limits: Limits = Limits(), *,
               solutions: int = 2, keep_open: bool = False) -> Settlement:
        """The one settle pipeline: totals, line propagation, then for what is left the CNF,
        a first solution and (``solutions=2``) a second one; every solution is verified
        against the clues, the givens and the rules before it is reported.

        ``start``: what the caller knows already (:class:`Start`: a state to go on from, a
        solution).  With a known solution, a 2x2 switch of it among the cells line logic left
        open (:func:`switched`) is looked for first, unless ``keep_open`` or the caller has
        looked; when there is one it is the second solution and the puzzle is not even
        encoded.  Without one, the puzzle's goal picture is the known solution when it
        satisfies the clues, the givens and the rules (:func:`known_solution`: the editor's
        drawing, a file that stores its solution); a goal that does not is ignored and the
        search finds a first solution.

        ``limits`` bounds the whole run (a timeout, a deadline).  With ``solutions=1`` it stops
        at the first solution (``unknown`` unless line logic alone settled the puzzle; the
        solution is in ``result.solutions``).  ``keep_open``: leave the SAT session open in the
        :class:`Settlement` for the caller to go on with.

        ``limits.jobs`` above 1: where the SAT search may take long (after the short first try),
        that many searches of the same CNF, each configured its own way (:class:`Member`; the
        first is the one search of ``jobs=1``), run at once in processes of their own
        (:mod:`satnono.portfolio`, or a Dask cluster: :attr:`portfolio`), and the first to
        answer wins: the same verdict, but for a puzzle with several solutions maybe another
        second solution.  Fewer run when their copies of the solver would not fit in
        :attr:`max_memory`.  With ``keep_open`` this process's session takes the winner's first
        solution as known (blocked, when the winner went on to a second search).  The result's
        ``cpu_seconds`` counts every process.
        """
        if self._deferred:  # a settle that ran out of time left its solver to free: now, before the clock starts
            from .sat import free_deferred

            free_deferred()
            self._deferred = False
        t0 = time.monotonic()
        deadline = limits.deadline_from(t0)
        if start is None:
            start = _FRESH
        stats = Stats(cells=_cell_count(puzzle))
        calls0 = self.lines.calls
        out = Settlement(CheckResult(puzzle, Status.UNKNOWN))
        members = limits.job_count()
        measured = members > 1  # (with one job, the CPU is not measured: the result is as it always was)
        cpu0 = time.process_time() if measured else 0.0
        found: Outcome | None = None  # a portfolio's answer (its winner's)

        def done(status: Status, **kw) -> Settlement:
            stats.line_calls = self.lines.calls - calls0
            out.result = CheckResult(puzzle, status, stats=stats, seconds=time.monotonic() - t0, **kw)
            if measured:
                out.result.cpu_seconds = time.process_time() - cpu0 + ((found.cpu or 0.0) if found is not None else 0.0)
                out.result.jobs = found.members if found is not None else 1
            return out

        # "cells left after line logic" means one thing everywhere (check, diagnose): the cells
        # line logic had not settled when it stopped, at its fixpoint or at a contradiction
        # (all of them when it did not run)
        stats.unknown_after_propagation = stats.cells
        if (mismatch := totals_reason(puzzle)) is not None:
            return done(Status.NONE, reason=mismatch)
        state = initial_state(puzzle) if start.state is None else start.state
        out.state = state
        self._note("lines", None)
        try:
            bad = None if start.propagated else propagate(state, self.lines, deadline=deadline)
        except Deadline:
            stats.unknown_after_propagation = state.unknown_count()
            return done(Status.UNKNOWN, reason="timed out during line propagation")
        stats.unknown_after_propagation = state.unknown_count()
        if bad is not None:
            out.contradiction = bad
            why = bad.describe(puzzle)
            if puzzle.givens:
                why += " (with the given cells)"
            return done(Status.NONE, reason=why)
        if stats.unknown_after_propagation == 0:
            broken = broken_rule(puzzle, state.grid())
            if broken is not None:
                return done(Status.NONE, reason=f"rule {broken}: the only picture line logic leaves breaks it")
            return done(Status.UNIQUE, line_solvable=True, solutions=(verified(puzzle, state.grid()),))

        known: Grid | None
        if start.known is not None:
            known = verified(puzzle, start.known)
        else:  # (known_solution checks the goal as verified would)
            known = known_solution(puzzle) if solutions >= 2 else None
        if known is not None and not start.switch_looked and not keep_open:
            # a solution known beforehand and a 2x2 switch next to it: no CNF at all
            s2 = switched(puzzle, state, known)
            if s2 is not None:
                return done(Status.MULTIPLE, solutions=(known, s2), diff=solutions_differ(known, s2))

        from .cnf import encode as cnf_encode
        from .sat import SatSession, feeds_flat

        flat = feeds_flat(self.solver) and cnf_encode.takes_flat(puzzle)
        try:
            too_big = self._too_big(state, flat, deadline)
            sizes: dict = {}
            # a portfolio's members each hold a copy of the solver, beside this process's: fewer
            # members where the copies would not fit
            while too_big is None and members > 1 and self._too_big(state, flat, deadline, members + 1, sizes):
                members -= 1
        except Deadline:
            too_big = "timed out while estimating the size of the SAT encoding"
        if too_big is not None:
            return done(Status.UNKNOWN, reason=too_big)
        self._note("encoding", 0.0)
        sat = SatSession((), self.solver)
        try:
            enc = out.enc = cnf_encode.encode(state, self.lines, flat=flat, deadline=deadline,
                                              sink=sat.add_clauses if flat else None,
                                              tick=None if self.progress is None else self._encoding)
            fed = enc.fed or enc.unsat or sat.add_clauses(enc.clause_data(), deadline)
        except Deadline:
            fed = False
        stats.cnf_vars = out.enc.nvars if out.enc is not None else 0
        stats.cnf_clauses = out.enc.nclauses if out.enc is not None else 0
        if not fed:
            sat.close(defer=True)
            self._deferred = True
            return done(Status.UNKNOWN, reason="timed out while encoding the open cells for the SAT solver")
        if enc.unsat:
            sat.close()
            return done(Status.NONE, reason="no solution: the remaining constraints are contradictory")
        search = _Search(self, puzzle, state, enc, sat, stats, deadline, solutions)
        try:
            outcome = search.start(known)
            if outcome is None and members > 1 and search.stage == "proof":
                outcome = search.try_second()
            if outcome is None and members > 1:
                from .portfolio import run_portfolio

                found = outcome = run_portfolio(search, members, self.portfolio)
            elif outcome is None:
                outcome = search.finish()
            out.first_model = search.first_model
            out.outcome = outcome
            if found is not None and search.s1 is None and found.solutions:
                # a member found the first solution: this process's session takes it as known
                out.first_model = enc.model_of(found.solutions[0], puzzle.chars)
                if found.proving and keep_open:
                    sat.add_clause(enc.blocking_clause(out.first_model))
            elif found is not None and found.proving and keep_open and search.stage != "proving":
                assert search.model is not None
                sat.add_clause(enc.blocking_clause(search.model))  # (as the members did before their proof)
            s = outcome.solutions
            diff = solutions_differ(s[0], s[1]) if len(s) == 2 else ()
            return done(outcome.status, solutions=s, diff=diff, reason=outcome.reason)
        finally:
            stats.sat_calls = sat.calls if found is None else found.sat_calls
            stats.conflicts = sat.conflicts if found is None else found.conflicts
            if found is not None:
                stats.cuts = found.cuts
            if keep_open and (out.first_model is not None or known is not None):
                out.sat = sat
            else:  # (past the deadline: the answer first, the freeing later)
                overdue = deadline is not None and time.monotonic() >= deadline
                sat.close(defer=overdue)
                self._deferred = self._deferred or overdue


@dataclass(frozen=True)
class Member:
    """How one search of a portfolio (:mod:`satnono.portfolio`) goes on from where the searches
    part (:attr:`_Search.stage`); ``Member()`` goes on exactly as the one search of ``jobs=1``.

    >>> Member().options
    ()
    """

    options: tuple[tuple[str, int], ...] = ()
    """CaDiCaL options set when the member starts, on top of those in force then
    (:data:`satnono.sat.CADICAL_OPTIONS`; the second search's are set on top of them)."""


@dataclass
class Outcome:
    """What the SAT part of a settle found (picklable: a portfolio member's answer)."""

    status: Status
    solutions: tuple[Grid, ...] = ()
    reason: str | None = None
    sat_calls: int = 0
    conflicts: int = 0
    cuts: int = 0
    proving: bool = False
    """The search went past its first solution (a blocking clause, a second search)."""
    final: bool = True
    """An answer (False: the search ran out of time)."""
    cpu: float | None = None
    """CPU seconds of the whole portfolio, its members' included (set by :mod:`satnono.portfolio`)."""
    members: int = 1
    """Searches that ran (a portfolio's members)."""
    winner: int | None = None
    """The member whose answer this is."""


class _Search:
    """The SAT part of one settle, in the order :meth:`Checker.settle` runs it: :meth:`start`
    (up to where the next call may be long: after a first try that ran out of conflicts, or
    before the second search), then :meth:`finish`.  A
    portfolio (:mod:`satnono.portfolio`) runs :meth:`finish` in each of its members, each
    under its own :class:`Member`, from :attr:`stage` on (at the second search, after
    :meth:`try_second`)."""

    def __init__(self, checker: Checker, puzzle: Puzzle | LanePuzzle, state: GridState, enc: Encoding,
                 sat: SatSession, stats: Stats, deadline: float | None, solutions: int) -> None:
        self.checker = checker
        self.puzzle = puzzle
        self.state = state
        self.enc = enc
        self.sat = sat
        self.stats = stats
        self.deadline = deadline
        self.solutions = solutions
        self.member = checker.member
        self.known: Grid | None = None
        """The solution known beforehand (:attr:`Start.known`, the goal), if any."""
        self.stage = ""
        """Where :meth:`finish` goes on: ``"hints"`` (the search from the hints after the first
        try), ``"proof"`` (the second search) or ``"proving"`` (the second search, on from
        :meth:`try_second`)."""
        self.hinted = False  # whether the ladders have forced phases from belief propagation
        self.s1: Grid | None = None
        self.model: list[int] | None = None
        self.first_model: list[int] | None = None
        self.late = ""
        self.on_first: Callable[[Grid], None] | None = checker.on_first
        """Called with the first solution when it is found (a portfolio member tells its parent)."""

    def _outcome(self, status: Status, solutions: tuple[Grid, ...] = (), reason: str | None = None,
                 final: bool = True) -> Outcome:
        return Outcome(status, solutions, reason, self.sat.calls, self.sat.conflicts, self.stats.cuts,
                       proving=self.stage in ("proof", "proving"), final=final)

    def start(self, known: Grid | None) -> Outcome | None:
        """The search up to :attr:`stage`: an answer, or None when :meth:`finish` is to go on."""
        self.known = known
        if known is not None:  # a solution known beforehand: only a second one is sought
            self.s1 = known
            self.model = self.enc.model_of(known, self.puzzle.chars)
            self.late = "timed out before proving the known solution unique"
            self.stage = "proof"
            return None
        # A short first search with CaDiCaL's own phases settles most puzzles; one that
        # needs more goes on from where belief propagation between the lines puts the
        # solutions (Knotty: 150 s -> under 0.2 s; tournament puzzles about half the
        # conflicts), which would cost more than it saves on the easy ones.
        # From there it first assumes the surest of the hints (:data:`HUNCH_SHARE`).
        self.checker._note("search", None)
        first = solve_keeping_rules(self.sat, self.state, self.enc, self.deadline, self.stats,
                                    budget=first_try(self.state))
        if first is None and self.sat.out_of_budget:
            self.stage = "hints"
            return None
        return self._first(first)

    def finish(self) -> Outcome:
        """The rest of the search, from :attr:`stage`, with :attr:`member`'s options."""
        if self.member.options:
            self.sat.configure(dict(self.member.options))
        if self.stage == "hints":
            found = self._first(self._hinted())
            if found is not None:
                return found
        return self._proof()

    def _hinted(self):  # type: ignore[no-untyped-def]
        """The first search after the try, from the hints."""
        from .logic.beliefs import phase_hints

        sat, state, enc = self.sat, self.state, self.enc
        self.checker._note("hints", None)
        try:
            hints = phase_hints(state, deadline=self.deadline)
            sat.guide(enc.hint_phases(hints))
            self.hinted = True
            hunches = enc.hunches(hints, HUNCH_SHARE)
            self.checker._note("search", None)
            return solve_on_hunches(sat, state, enc, hunches, hunch_budget(state), self.deadline, self.stats)
        except Deadline:
            return None

    def _first(self, first) -> Outcome | None:  # type: ignore[no-untyped-def]
        """After the first search: an answer, or None with :attr:`stage` the proof."""
        if first is None:
            return self._outcome(Status.UNKNOWN, reason="timed out before a first solution was found", final=False)
        if not first:
            return self._outcome(Status.NONE, reason="no solution (proved by SAT search after line propagation)")
        grid, self.model = first
        self.first_model = self.model
        s1 = self.s1 = verified(self.puzzle, grid)
        if self.solutions < 2:
            return self._outcome(Status.UNKNOWN, (s1,), "stopped at the first solution")
        if self.on_first is not None:
            self.on_first(s1)
        self.late = "found a solution, but timed out before proving it unique"
        self.stage = "proof"
        return None

    def try_second(self) -> Outcome | None:
        """At the second search (:attr:`stage` ``"proof"``): its first :func:`search_unit`
        conflicts, here; the answer, or None and the search goes on from where it is (stage
        ``"proving"``).  Most second searches are that short (a second solution next to the
        first, a refutation that needs little), shorter than starting a portfolio's members
        (10-20 ms), so a settle with ``jobs`` > 1 makes this try before it starts them."""
        assert self.stage == "proof"
        self._set_up_proof()
        second = solve_keeping_rules(self.sat, self.state, self.enc, self.deadline, self.stats,
                                     budget=search_unit(self.state))
        if second is None and self.sat.out_of_budget:
            return None
        return self._second(second)

    def _proof(self) -> Outcome:
        """The second search, next to the first solution (or on from :meth:`try_second`)."""
        if self.stage == "proof":
            self._set_up_proof()
        return self._second(solve_keeping_rules(self.sat, self.state, self.enc, self.deadline, self.stats))

    def _set_up_proof(self) -> None:
        """Before the second search, next to the first solution: second solutions usually differ
        in few cells; with the solver set for a proof, as most of the time there is none.  After
        hints, the ladders' phases too (left at the hints, they cost a 36x40 two-colour picture
        100,000 conflicts for a second solution one conflict away)."""
        assert self.s1 is not None and self.model is not None
        self.checker._note("proof", None)
        self.sat.add_clause(self.enc.blocking_clause(self.model))
        self.sat.guide(self.enc.phases(self.model, with_ladders=self.hinted))
        self.sat.for_proof()
        self.stage = "proving"

    def _second(self, second) -> Outcome:  # type: ignore[no-untyped-def]
        """The second search's answer: none (unique), another (multiple), or out of time."""
        assert self.s1 is not None
        if second is None:
            return self._outcome(Status.UNKNOWN, (self.s1,), self.late, final=False)
        if not second:
            return self._outcome(Status.UNIQUE, (self.s1,))
        return self._outcome(Status.MULTIPLE, (self.s1, verified(self.puzzle, second[0])))


def check(puzzle: Puzzle | LanePuzzle, timeout: float | None = None,
          solver: str = DEFAULT_SOLVER, jobs: int | str = 1) -> CheckResult:
    """Settle one puzzle (of any geometry: :meth:`Checker.check`).  See :class:`Checker` for batches;
    ``jobs``: searches at once, each in its own process (:attr:`~satnono.results.Limits.jobs`).

    >>> from satnono.model import Puzzle
    >>> check(Puzzle.from_grid(["#.", ".#"])).status.value
    'multiple'
    >>> check(Puzzle.from_grid(["#.", ".#"]).with_givens({(0, 0): True})).status.value
    'unique'
    """
    return Checker(solver).check(puzzle, timeout, jobs)
