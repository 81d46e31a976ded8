"""Settling a puzzle of any geometry (a :class:`~satnono.lanepuzzle.LanePuzzle`, e.g. a triddler).

There is one settle pipeline, :meth:`satnono.solve.Checker.settle`, for every geometry: line logic
to its fixpoint over the puzzle's lanes (:func:`satnono.logic.propagate.propagate`, which takes a
rectangle's bit masks on its fast path and any other geometry's
:class:`~satnono.logic.lanes.LaneState` lane by lane), then the CNF of the open lanes
(:func:`satnono.cnf.encode.encode`), a first solution, the clause that blocks it and a second
search; every picture is checked against every lane's clue, given cell and rule before it is
shown (:meth:`LanePuzzle.breaks`), a timeout is ``unknown`` with the reason.  Counting is
:func:`satnono.counting.count`'s, for every geometry too.  The two functions here are those
pipelines under names that say what they take.

Given cells and extra rules (:attr:`LanePuzzle.all_rules`, :mod:`satnono.lanerules`): the givens
narrow the state before line logic; the rules' clauses (``count``) join the CNF; a lazy rule
(``connected``) judges each picture the search finds, and a picture it rejects is cut off and
never counted.

>>> from satnono.lanes import Triangle
>>> from satnono.lanepuzzle import LanePuzzle
>>> r = settle_lanes(LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False))
>>> r.status.value, r.line_solvable, r.solutions
('unique', True, ('#..#.#',))
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .lines import LineSolver
from .results import DEFAULT_SOLVER, Limits

if TYPE_CHECKING:
    from .counting import CountResult
    from .lanepuzzle import LanePuzzle
    from .solve import CheckResult


def settle_lanes(puzzle: LanePuzzle, limits: Limits = Limits(), *, solver: str = DEFAULT_SOLVER,
                 line_solver: LineSolver | None = None) -> CheckResult:
    """The verdict on ``puzzle`` (:meth:`satnono.solve.Checker.settle`): ``solutions`` are pictures
    (one palette character a cell, in cell order), up to two; ``diff`` the cells where they differ."""
    from .solve import Checker

    return Checker(solver, line_solver).settle(puzzle, limits=limits).result  # type: ignore[arg-type]


def count_lanes(puzzle: LanePuzzle, max_solutions: int | None = None, limits: Limits = Limits(), *,
                solver: str = DEFAULT_SOLVER, line_solver: LineSolver | None = None) -> CountResult:
    """The number of solutions of ``puzzle`` (:func:`satnono.counting.count`): exact when the
    search runs out of solutions, a lower bound when ``max_solutions`` or the time ends it first."""
    from .counting import count

    return count(puzzle, max_solutions, limits, solver=solver, line_solver=line_solver)


__all__ = ["count_lanes", "settle_lanes"]
