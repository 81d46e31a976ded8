"""Settling a puzzle of any geometry over its lanes: line logic, then SAT on what is left.

The pipeline of :mod:`satnono.solve`, lane by lane: :func:`satnono.logic.lanes.propagate` to its
fixpoint (a lane with no placement: ``none``; every cell known: ``unique``, line-solvable), then
the CNF of the open lanes (:func:`satnono.cnf.lanes.encode_lanes`) to CaDiCaL for a first
solution, the clause that blocks it, and a second search (none: ``unique``; one: ``multiple``,
both shown).  Past its deadline a search is ``unknown``, or ``multiple`` when two solutions are
known already.  :func:`count_lanes` goes on blocking until no solution is left.  Every picture
reported is checked against every lane's clue first (:meth:`LanePuzzle.breaks`); a timeout is
``unknown`` with the reason.

Given cells and extra rules (:attr:`LanePuzzle.all_rules`, :mod:`satnono.lanerules`): the givens
narrow the state before line logic; the rules' clauses (``count``) join the CNF; a lazy rule
(``connected``) judges each picture the search finds, and a picture it rejects is cut off (its
``cut`` clauses, and the clause that blocks that picture) and never counted.  Line-solvable means
that line logic with the givens alone settles every cell and the rules accept that picture; when
a rule rejects it, the puzzle has no solution.

>>> from satnono.lanes import Triangle
>>> from satnono.lanepuzzle import LanePuzzle
>>> r = settle_lanes(LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False))
>>> r.status.value, r.line_solvable, r.solutions
('unique', True, ('#..#.#',))
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from .lanepuzzle import LanePuzzle, cells_differ
from .lines import LineSolver
from .logic.lanes import LaneState, cell_lanes, propagate
from .logic.state import Deadline
from .results import DEFAULT_SOLVER, Limits, Status
from .rules.protocol import describe
from .solve import InternalError


@dataclass
class LaneStats:
    cells: int = 0
    unknown_after_propagation: int = 0
    line_calls: int = 0
    cnf_vars: int = 0
    cnf_clauses: int = 0
    sat_calls: int = 0


@dataclass
class LaneResult:
    """The verdict on a :class:`LanePuzzle`: ``solutions`` are pictures (one palette character a
    cell, in cell order), up to two (or all that were counted, with :func:`count_lanes`); ``diff``
    the cells where the first two differ."""

    puzzle: LanePuzzle
    status: Status
    line_solvable: bool = False
    solutions: tuple[str, ...] = ()
    diff: tuple[int, ...] = ()
    reason: str | None = None
    seconds: float = 0.0
    count: int | None = None
    """With :func:`count_lanes`: the solutions found (all of them when ``exact``)."""
    exact: bool = False
    stats: LaneStats = field(default_factory=LaneStats)


def _verified(puzzle: LanePuzzle, cells: str) -> str:
    why = puzzle.breaks(cells)
    if why is not None:
        raise InternalError(f"solver produced a picture that breaks a clue of {puzzle.source or 'the puzzle'}: {why}")
    return cells


def settle_lanes(puzzle: LanePuzzle, limits: Limits = Limits(), *, solutions: int = 2,
                 solver: str = DEFAULT_SOLVER, line_solver: LineSolver | None = None) -> LaneResult:
    """The verdict on ``puzzle``, with up to ``solutions`` solutions found (2 tells ``unique``
    from ``multiple``; more counts them: ``count`` and ``exact`` of the result)."""
    t0 = time.monotonic()
    deadline = limits.deadline_from(t0)
    lines = line_solver or LineSolver()
    calls0 = lines.calls
    lanes = [lane.cells for lane in puzzle.lanes]
    n = puzzle.geometry.cell_count
    chars = puzzle.chars
    stats = LaneStats(cells=n)

    def done(status: Status, **kw: object) -> LaneResult:
        stats.line_calls = lines.calls - calls0
        return LaneResult(puzzle, status, seconds=time.monotonic() - t0, stats=stats, **kw)  # type: ignore[arg-type]

    state = LaneState.empty(n, len(puzzle.palette))
    rules = puzzle.all_rules
    for rule in rules:  # the givens: known before line logic
        narrow = getattr(rule, "narrow", None)
        if narrow is not None:
            narrow(state)
    crossing = cell_lanes(lanes, n)
    try:
        bad = propagate(state, lanes, puzzle.clues, lines, deadline, crossing=crossing)
    except Deadline:
        stats.unknown_after_propagation = len(state.open_cells())
        return done(Status.UNKNOWN, reason="timed out during line logic")
    stats.unknown_after_propagation = len(state.open_cells())
    if bad is not None:
        lane = puzzle.lanes[bad]
        from .lanepuzzle import clue_text

        given = " with the given cells" if puzzle.givens else ""
        return done(Status.NONE, reason=f"{lane.name}: clue {clue_text(puzzle.clues[bad], chars)} cannot be placed"
                                        f"{given}", count=0, exact=True)
    if not state.open_cells():
        picture = state.picture(chars)
        broken = _rejecting(rules, picture)
        if broken is not None:
            return done(Status.NONE, reason=f"rule {describe(broken)}: the only picture line logic leaves breaks it",
                        count=0, exact=True)
        return done(Status.UNIQUE, line_solvable=True, solutions=(_verified(puzzle, picture),),
                    count=1, exact=True)

    from .cnf.lanes import encode_lanes
    from .sat import SatSession

    enc = encode_lanes(state, lanes, puzzle.clues, lines, rules)
    stats.cnf_vars, stats.cnf_clauses = enc.nvars, len(enc.clauses)
    found: list[str] = []  # the first two
    count = 0
    known = state.picture(chars)
    with SatSession(enc.clauses, solver) as s:
        while count < solutions:
            ok = s.solve(deadline)
            stats.sat_calls += 1
            if ok is None:
                reason = "timed out during the search" + (f" ({count} solution(s) found)" if count else "")
                status = Status.MULTIPLE if count > 1 else Status.UNKNOWN
                return done(status, reason=reason, solutions=tuple(found), diff=_diff(found), count=count)
            if not ok:
                break
            model = s.model()
            cells = list(known)
            for cell in enc.open_cells:
                cells[cell] = chars[enc.value(model, cell)]
            picture = "".join(cells)
            broken = _rejecting(rules, picture)
            if broken is not None:  # cut off (the rule's clauses, and this picture blocked) and not counted
                for rule in rules:
                    if not rule.accepts(picture):
                        for clause in enc.cut(rule, picture) or ():
                            s.add_clause(clause)
                s.add_clause(enc.blocking_clause(model))
                continue
            picture = _verified(puzzle, picture)
            count += 1
            if len(found) < 2:
                found.append(picture)
            s.add_clause(enc.blocking_clause(model))
    if not count:
        reason = "no solution (the search found none" + (" that keeps the rules)" if puzzle.rules else ")")
        return done(Status.NONE, reason=reason, count=0, exact=True)
    status = Status.UNIQUE if count == 1 else Status.MULTIPLE
    return done(status, solutions=tuple(found), diff=_diff(found), count=count, exact=count < solutions)


def _rejecting(rules: tuple, picture: str) -> object | None:
    """The first of ``rules`` that rejects ``picture``, or None."""
    return next((rule for rule in rules if not rule.accepts(picture)), None)


def _diff(found: list[str]) -> tuple[int, ...]:
    return cells_differ(found[0], found[1]) if len(found) > 1 else ()


def count_lanes(puzzle: LanePuzzle, max_solutions: int | None = None, limits: Limits = Limits(), *,
                solver: str = DEFAULT_SOLVER, line_solver: LineSolver | None = None) -> LaneResult:
    """The number of solutions of ``puzzle``, by enumeration (each one blocked in turn): exact
    when the search runs out of solutions, a lower bound when ``max_solutions`` or the time
    ends it first.  The result keeps the first two solutions only."""
    cap = max_solutions if max_solutions is not None else 1 << 62
    return settle_lanes(puzzle, limits, solutions=cap, solver=solver, line_solver=line_solver)


__all__ = ["LaneResult", "LaneStats", "count_lanes", "settle_lanes"]
