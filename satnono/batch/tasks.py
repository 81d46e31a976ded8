"""The task functions of the check and count batches (``--workers``, ``--scheduler``), and the
loop that runs one of them over many puzzles in input order.

A task function is what the batch engine (:mod:`satnono.batch`) sends to a worker: a top-level
function of one picklable item.  Classify's own task is next to its verb
(:func:`satnono.classify.classify_task`).
"""

from __future__ import annotations

import time
from contextlib import closing
from typing import Any, Callable, Generator

from ..counting import CountResult, count
from ..explain import difficulty
from ..lines import shared_solver
from ..model import Puzzle
from ..results import Limits
from ..solve import Checker, CheckResult, InternalError
from . import hang_limit, run
from .ordered import in_order

__all__ = ["check_task", "count_task", "graded", "run_items"]

#: The checker of this process per SAT back end, on the process's one line solver.
_CHECKERS: dict[str, Checker] = {}


def check_task(item: tuple[Puzzle, float | None, str, bool]) -> tuple[str, Any, Any]:
    """Check one puzzle (in a worker): ``("ok", CheckResult, difficulty or None)`` or
    ``("internal", message, None)``; ``difficulty`` (the explain grade) when asked for."""
    puzzle, timeout, solver, with_difficulty = item
    checker = _CHECKERS.get(solver)
    if checker is None:
        checker = _CHECKERS[solver] = Checker(solver, line_solver=shared_solver())
    try:
        res = checker.check(puzzle, timeout)
    except InternalError as e:
        return "internal", str(e), None
    return "ok", res, graded(res, checker) if with_difficulty else None


def graded(res: CheckResult, checker: Checker) -> dict | None:
    """The explain grade of a checked puzzle (None for a puzzle of another geometry, a triddler,
    which is not graded yet); its time is added to ``res.seconds``, so that
    the seconds reported for the puzzle cover everything reported for it."""
    if not isinstance(res.puzzle, Puzzle):
        return None
    t0 = time.monotonic()
    d = difficulty(res.puzzle, res, line_solver=checker.lines)
    res.seconds += time.monotonic() - t0
    return d


def count_task(item: tuple[Puzzle, int | None, float | None, bool, str]) -> CountResult:
    """Count the solutions of one puzzle (in a worker): a :class:`satnono.counting.CountResult`."""
    puzzle, max_solutions, timeout, exact, solver = item
    return count(puzzle, max_solutions, Limits(timeout), exact, solver, line_solver=shared_solver())


def run_items(fn: Callable[[Any], Any], items: list[Any], workers: int = 1, scheduler: str | None = None,
              timeout: float | None = None,
              on_start: Callable[[Any], None] | None = None) -> Generator[tuple[int, Any], None, None]:
    """``(i, fn(items[i]))`` in input order on the batch engine (a :class:`~satnono.batch.Lost`
    when an item could not be run); for the check and count commands.

    Raises:
        BatchError: the Dask back end failed (results yielded before stay valid).
    """
    stream = run(fn, list(enumerate(items)), workers=min(workers, max(1, len(items))), scheduler=scheduler,
                 hang_after=hang_limit(timeout), on_start=on_start)
    with closing(stream):
        yield from in_order(stream, range(len(items)))
