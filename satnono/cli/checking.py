"""``satnono check`` and ``satnono solve`` without click: the verdict loop and what each prints.
Their click commands call :func:`check_files` and :func:`solve_files`; so does
:func:`satnono.cli.main` for the plain command lines it runs without loading click."""

from __future__ import annotations

import sys
import time
from collections import Counter
from typing import Callable, Sequence

from ..report import error_dict, label, result_dict, verdict_text
from ..results import DEFAULT_SOLVER
from ..model import Puzzle
from ..solve import Checker, CheckResult, InternalError, Stats, Status
from .common import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_MULTIPLE,
    EXIT_NONE,
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

Emit = Callable[..., None]

STATUS_EXIT = {
    Status.UNIQUE: EXIT_UNIQUE,
    Status.MULTIPLE: EXIT_MULTIPLE,
    Status.NONE: EXIT_NONE,
    Status.UNKNOWN: EXIT_UNKNOWN,
    Status.ERROR: EXIT_INPUT,
}



def run_checks(files, fmt, timeout, solver, emit: Emit, bar: Bar, checker: Checker | None = None,
               workers: int = 1, scheduler: str | None = None, graded: bool = False, jobs: int | str = 1) -> int:
    """Check every puzzle of ``files``, calling ``emit(file, index, result, error, **extra)`` for each
    in input order; the exit code of the batch.  ``jobs`` other than 1: one puzzle after the other,
    each with that many searches at once (on the Dask cluster with a ``scheduler``)."""
    checker = checker or Checker(solver)
    items, reading = _read_timed(files, fmt)
    codes: list[int] = []
    batch = None
    status = None  # a long settle's status line: where the bar would show, but has one puzzle only
    portfolio = None
    if scheduler and jobs != 1:  # each puzzle's searches on the cluster, one puzzle at a time
        from ..batch.dask_portfolio import DaskPortfolio

        portfolio = checker.portfolio = DaskPortfolio(scheduler)
        jobs = portfolio.slots if jobs == "auto" else jobs
        scheduler = None
    if bar.show and bar.auto and len(items) <= 1 and workers <= 1 and not scheduler:
        from .status import PhaseStatus

        status = checker.progress = PhaseStatus(True)
    if workers > 1 or scheduler:  # on the batch engine: results in input order, graded in the workers
        from ..batch.tasks import check_task, run_items

        lead = next((k for k, it in enumerate(items) if it[3] is None), len(items))
        batch = run_items(check_task, [(p, timeout, solver, graded) for _, _, p, e in items if e is None],
                          workers, scheduler, timeout, on_start=batch_started(bar, len(items), lead))
    else:
        bar.start(len(items))
    try:
        for file, index, puzzle, error in items:
            if error is not None:
                with SIGNALS.critical():
                    codes.append(EXIT_INPUT)
                    emit(file, index, None, error)
                    bar.advance()
                continue
            assert puzzle is not None
            extra = {}
            try:
                if batch is None:
                    if status is not None:
                        status.start(label(file, index))
                    try:
                        res = _check_in_time(checker, puzzle, timeout, reading.get(file, 0.0), jobs)
                    finally:
                        if status is not None:
                            status.clear()
                else:
                    kind, res, diff = _batched(next(batch)[1])
                    if kind == "lost":
                        with SIGNALS.critical():
                            codes.append(EXIT_UNKNOWN if diff else EXIT_INTERNAL)
                            emit(file, index, None, f"{label(file, index)}: {res}")
                            bar.advance()
                        continue
                    if kind == "internal":
                        raise InternalError(res)
                    extra = {"difficulty": diff} if graded else {}
            except InternalError as e:
                with SIGNALS.critical():
                    codes.append(EXIT_INTERNAL)
                    emit(file, index, None, f"internal error: {e}")
                    bar.advance()
                continue
            with SIGNALS.critical():
                codes.append(STATUS_EXIT[res.status])
                emit(file, index, res, None, **extra)
                bar.advance()
    except KeyboardInterrupt as e:
        bar.stop()
        sys.stdout.flush()
        stopped(e, len(codes), len(items))
    finally:
        bar.stop()
        if batch is not None:
            batch.close()
        if portfolio is not None:
            portfolio.close()
    return batch_code(codes)


def _read_timed(files, fmt) -> tuple[list, dict[str, float]]:  # type: ignore[no-untyped-def]
    """:func:`iter_puzzles` as a list, and the seconds each file took to read, shared among its
    puzzles (the time of a puzzle's file counts towards its ``--timeout``)."""
    items: list = []
    spent: dict[str, float] = {}
    it = iter_puzzles(files, fmt)
    while True:
        t0 = time.monotonic()
        item = next(it, None)
        if item is None:
            break
        items.append(item)
        spent[item[0]] = spent.get(item[0], 0.0) + time.monotonic() - t0
    counts = Counter(item[0] for item in items)
    return items, {file: seconds / counts[file] for file, seconds in spent.items()}


def _check_in_time(checker: Checker, puzzle, timeout: float | None, read: float,  # type: ignore[no-untyped-def]
                   jobs: int | str = 1) -> CheckResult:
    """``checker.check`` within what is left of ``timeout`` after ``read`` seconds of reading (its
    seconds count the reading too), with ``jobs`` searches at once."""
    if timeout is not None and read >= timeout:
        reason = f"timed out while reading its file ({read:.1f} s)"
        cells = puzzle.width * puzzle.height if isinstance(puzzle, Puzzle) else puzzle.geometry.cell_count
        return CheckResult(puzzle, Status.UNKNOWN, reason=reason, seconds=read,
                           stats=Stats(cells=cells, unknown_after_propagation=cells),
                           cpu_seconds=None if jobs == 1 else read)
    left = None if timeout is None else timeout - read
    res = checker.check(puzzle, left) if jobs == 1 else checker.check(puzzle, left, jobs)
    res.seconds += read
    if res.cpu_seconds is not None:
        res.cpu_seconds += read
    return res


def _batched(result):  # type: ignore[no-untyped-def]
    """A check task's result as ``(kind, payload, extra)``; a lost task as ``("lost", reason, timed_out)``."""
    from ..batch import Lost

    if isinstance(result, Lost):
        return "lost", result.reason, result.timed_out
    return result


def graded(res: CheckResult, checker: Checker) -> dict | None:
    """The difficulty grade of a checked puzzle (``satnono explain``'s); its time is added to
    ``res.seconds``, so that the seconds reported cover everything reported.  A puzzle of another
    geometry (a triddler) is graded here (:func:`satnono.explain.difficulty`)."""
    if not isinstance(res.puzzle, Puzzle):  # another geometry
        from ..explain import difficulty

        t0 = time.monotonic()
        d = difficulty(res.puzzle, res, line_solver=checker.lines)
        res.seconds += time.monotonic() - t0
        return d
    from ..batch.tasks import graded as _graded  # (the SAT and counting modules come with it)

    return _graded(res, checker)


def check_files(files: tuple[str, ...], fmt: str | None = None, timeout: float | None = None,
                solver: str = DEFAULT_SOLVER, as_json: bool = False, grade: bool = False,
                progress: bool | None = None, workers: int = 1, scheduler: str | None = None,
                jobs: int | str = 1) -> int:
    """``satnono check``: a verdict line (or JSON object) per puzzle; the exit code.  The defaults
    are the command's."""
    checker = Checker(solver)
    bar = Bar("check", progress)

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None, **extra) -> None:
        # with --grade: graded here, or in a batch worker (which counted its time in res.seconds too)
        difficulty = extra.get("difficulty") if res is not None else None
        if grade and res is not None and difficulty is None:
            difficulty = graded(res, checker)
        if as_json:
            import json

            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            if difficulty is not None:
                d["difficulty"] = difficulty
            bar.echo(json.dumps(d))
            if error is not None:
                bar.echo(f"satnono: {error}", err=True)
        elif res is not None:
            bar.echo(f"{label(file, index)}: {verdict_text(res)}")
            if difficulty is not None:
                bar.echo(f"  grade: {difficulty['text']}")
        else:
            bar.echo(f"satnono: {error or ''}", err=True)

    return run_checks(files, fmt, timeout, solver, emit, bar, checker, workers, scheduler, graded=grade, jobs=jobs)


def solve_files(files: tuple[str, ...], fmt: str | None = None, timeout: float | None = None,
                solver: str = DEFAULT_SOLVER, as_json: bool = False, ascii_: bool = False,
                outputs: Sequence[tuple[str, str]] = (), cell: int = 16, force: bool = False,
                grade: bool = False, jobs: int | str = 1) -> int:
    """``satnono solve``: the solution of every puzzle (and a second one, its differences marked,
    for an ambiguous puzzle); the exit code.  ``outputs`` are the pictures to draw of the first
    puzzle's first solution, as ``(path, kind)`` (checked by the command beforehand); the other
    defaults are the command's."""
    import json

    from ..model import plain_black
    from ..report import blot_lengths_text, diff_legend, render_grid

    drawn = 0

    def draw(res: CheckResult) -> None:
        nonlocal drawn
        from ..formats.picture import write_png
        from ..render import solution_svg
        from .options import write_pictures

        drawn += 1
        if drawn > 1:
            if drawn == 2:
                err(f"{files[0]} holds several puzzles: only the first was drawn (choose one with FILE#k)")
            return
        if not res.solutions:
            err(f"{files[0]}: no solution to draw")
            return
        grid = res.solutions[0]
        if not isinstance(res.puzzle, Puzzle):  # a puzzle of another geometry: its cells' outlines
            from ..lanerender import picture_png, picture_svg

            lanes, cells = res.puzzle, str(res.solutions[0])
            write_pictures(list(outputs), force, lambda kind: picture_svg(lanes, cells, cell).encode("utf-8")
                           if kind == "svg" else picture_png(lanes, cells, cell))
            return
        p = res.puzzle
        write_pictures(list(outputs), force, lambda kind: solution_svg(p, grid, cell).encode("utf-8")
                       if kind == "svg" else write_png(p, grid, scale=cell))

    checker = Checker(solver)

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None) -> None:
        if outputs and res is not None:
            draw(res)
        difficulty = graded(res, checker) if grade and res is not None else None
        if as_json:
            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            if difficulty is not None:
                d["difficulty"] = difficulty
            echo(json.dumps(d))
            if error is not None:
                err(error)
            return
        if res is None:
            err(error or "")
            return
        echo(f"{label(file, index)}: {verdict_text(res)}")
        if difficulty is not None:
            echo(f"grade: {difficulty['text']}")
        if not isinstance(res.puzzle, Puzzle):  # a puzzle of another geometry
            _print_lane_solutions(res, ascii_)
            return
        pal = res.puzzle.palette
        colour = not plain_black(pal)  # a one-colour puzzle of its own shows its own characters
        # colour grids: 24-bit terminal colour on a terminal, the palette's characters otherwise
        plain = ascii_ or (colour and not sys.stdout.isatty())
        blotted = res.puzzle.has_blots
        if res.solutions:
            echo(render_grid(res.solutions[0], plain, palette=pal))
            if blotted:
                echo(blot_lengths_text(res.puzzle, res.solutions[0]))
        if len(res.solutions) > 1:
            echo("second solution " + diff_legend(plain, colour) + ":")
            echo(render_grid(res.solutions[1], plain, res.diff, palette=pal))
            if blotted:
                echo(blot_lengths_text(res.puzzle, res.solutions[1]))
        echo("")

    return run_checks(files, fmt, timeout, solver, emit, Bar("solve", False), checker, jobs=jobs)


def _print_lane_solutions(res, ascii_: bool) -> None:  # type: ignore[no-untyped-def]
    """``satnono solve``'s pictures of a puzzle of another geometry (a triddler): triangles on a
    terminal, webpbn's text rows with ``--ascii`` or off a terminal (:mod:`satnono.lanerender`)."""
    from ..lanerender import MARK, picture_text
    from ..report import lane_blot_lengths_text

    p = res.puzzle
    plain = ascii_ or not sys.stdout.isatty()
    if res.solutions:
        echo(picture_text(p, res.solutions[0], plain))
        if p.has_blots:
            echo(lane_blot_lengths_text(p, res.solutions[0]))
    if len(res.solutions) > 1:
        echo(f"second solution (cells that differ from the first are marked {'*' if plain else MARK}):")
        echo(picture_text(p, res.solutions[1], plain, res.diff))
        if p.has_blots:
            echo(lane_blot_lengths_text(p, res.solutions[1]))
    echo("")
