"""``satnono count`` without click: its click command (:mod:`satnono.cli.batch`) calls
:func:`count_files`, and so does :func:`satnono.cli.main` for the plain command lines it runs without
loading click."""

from __future__ import annotations

import json
import sys

from ..report import count_dict, count_text, label
from ..results import DEFAULT_SOLVER, Limits, cpu_seconds
from .common import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_UNIQUE,
    EXIT_UNKNOWN,
    SIGNALS,
    Bar,
    batch_code,
    batch_started,
    echo,
    err,
    iter_puzzles,
    stopped,
)


def count_files(files: tuple[str, ...], fmt: str | None = None, max_solutions: int | None = None,
                timeout: float | None = None, exact: bool = False, solver: str = DEFAULT_SOLVER,
                as_json: bool = False, workers: int = 1, scheduler: str | None = None, jobs: int | str = 1) -> int:
    """``satnono count``: the number of solutions of every puzzle, a line (or JSON object) each, in
    input order; the exit code.  The defaults are the command's.  ``jobs`` other than 1: the search
    for each puzzle's first solution runs that many searches at once, on this machine, and the
    CPU seconds of every process are shown."""
    from ..counting import count as count_solutions
    from ..lines import LineSolver

    lines = LineSolver()
    codes: list[int] = []
    items = list(iter_puzzles(files, fmt))
    batch = None
    if workers > 1 or scheduler:  # on the batch engine, results in input order
        from ..batch import Lost
        from ..batch.tasks import count_task, run_items

        batch = run_items(count_task, [(p, max_solutions, timeout, exact, solver) for _, _, p, e in items if e is None],
                          workers, scheduler, timeout, on_start=batch_started(Bar("count", False), 0))
    try:
        for file, index, puzzle, error in items:
            if error is not None:
                with SIGNALS.critical():
                    codes.append(EXIT_INPUT)
                    if as_json:
                        echo(json.dumps({"file": file, **({"index": index} if index is not None else {}),
                                               "count": None, "exact": False, "status": "error", "reason": error}))
                    err(error)
                continue
            assert puzzle is not None
            try:
                cpu0 = cpu_seconds() if jobs != 1 else None
                res = (count_solutions(puzzle, max_solutions, Limits(timeout, jobs=jobs), exact, solver, line_solver=lines)
                       if batch is None else next(batch)[1])
                cpu = None if cpu0 is None else cpu_seconds() - cpu0
                if batch is not None and isinstance(res, Lost):
                    with SIGNALS.critical():
                        codes.append(EXIT_UNKNOWN if res.timed_out else EXIT_INTERNAL)
                        err(f"{label(file, index)}: {res.reason}")
                    continue
            except Exception as e:  # a bug: report it on one line, keep going
                with SIGNALS.critical():
                    codes.append(EXIT_INTERNAL)
                    err(f"{label(file, index)}: internal error: {type(e).__name__}: {e}")
                continue
            with SIGNALS.critical():
                codes.append(EXIT_UNIQUE if res.exact or res.capped else EXIT_UNKNOWN)
                if as_json:
                    echo(json.dumps(count_dict(res, file, index, cpu)))
                else:
                    echo(f"{label(file, index)}: {count_text(res, cpu)}")
    except KeyboardInterrupt as e:
        sys.stdout.flush()
        stopped(e, len(codes), len(items))
    finally:
        if batch is not None:
            batch.close()
    return batch_code(codes)
