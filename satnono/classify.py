"""Classifying puzzles, one or whole corpora.

Per puzzle (:func:`classify_puzzle`) the class is

* ``line``: line logic alone determines every cell (so the solution is unique);
* ``search``: the solution is unique but line logic leaves cells open;
* ``multiple``: at least two solutions;
* ``none``: no solution;
* ``unknown``: not settled within the time limit;
* ``error``: the input could not be read (or an internal error).

With probing, a unique puzzle also gets a finer *level*, the difficulty grade
of :mod:`satnono.explain`: ``line``, ``probe`` (line logic plus single-cell
contradiction probing settles it), ``probe2`` (probing depth 2) or ``search``
(black and white and colour alike);
``level_exact`` is false when the probing budget or the time ran out (the level
is then a lower bound), and ``steps``, ``probes`` and ``grade`` (the grade in
words) come with it.  The solution count is capped by ``max_solutions``.

A batch (:func:`run_batch`) takes the tasks :func:`satnono.batch.inputs.load_tasks` reads
from files, directories (walked recursively) and multi-puzzle files, runs on the batch engine
(:mod:`satnono.batch`: this process, local worker processes or a Dask cluster) and yields
results as they finish, tagged with ``(file, index)``.  The resume file is
:class:`satnono.batch.resume.ResultLog`: one JSON object per line, each appended with a single
write and fsynced, so an interrupted run leaves every finished result; damaged lines are
dropped (and the file rewritten atomically) when it is opened again.
"""

from __future__ import annotations

import time
from contextlib import closing
from dataclasses import dataclass
from typing import Any, Callable, Generator, Iterable

from .counting import MULTIPLE, NONE, UNIQUE, count
from . import batch
from .batch import Lost, hang_limit
from .batch.inputs import Task
from .lines import LineSolver, shared_solver
from .lanepuzzle import LanePuzzle
from .model import Puzzle
from .results import LEVELS, Limits
from .sat import DEFAULT_SOLVER

CLASSES = ("line", "search", "multiple", "none", "unknown", "error")
#: Columns of the CSV output, in order.
CSV_FIELDS = ("file", "index", "name", "width", "height", "class", "level", "line_solvable",
              "unknown_after_line", "unknown_after_probe", "count", "count_exact", "components",
              "seconds", "reason", "level_exact", "steps", "probes", "grade")


# --------------------------------------------------------------------------
# One puzzle


def classify_puzzle(
    puzzle: Puzzle | LanePuzzle,
    max_solutions: int = 2,
    timeout: float | None = None,
    probing: bool = False,
    solver: str = DEFAULT_SOLVER,
    line_solver: LineSolver | None = None,
) -> dict[str, Any]:
    """Classify one puzzle; returns a JSON-ready dict (without ``file``/``index``).  A puzzle of
    another geometry (a triddler) has no width and height (null) but its ``geometry`` (JSON form)
    and ``cells``, and with probing a level only when line logic solves it.

    Keys: ``name``, ``width``, ``height``, ``class``, ``level`` (with probing, for
    unique puzzles; else null), ``line_solvable``, ``unknown_after_line``,
    ``unknown_after_probe`` (with probing: cells left open when logic stops),
    ``count`` (int; a lower bound when
    ``count_exact`` is false), ``count_exact``, ``components`` (number of
    independent components left by line logic), ``seconds``, ``reason``, and with
    probing ``level_exact``, ``steps``, ``probes`` and ``grade`` (see
    :func:`satnono.explain.grade.grade`; null without probing).
    """
    t0 = time.monotonic()
    limits = Limits(timeout)
    lines = line_solver or LineSolver()
    res = count(puzzle, max_solutions, limits, solver=solver, line_solver=lines)
    if res.status == NONE:
        cls = "none"
    elif res.status == UNIQUE:
        cls = "line" if res.line_solvable else "search"
    elif res.status == MULTIPLE:
        cls = "multiple"
    else:
        cls = "unknown"
    level: str | None = None
    after_probe: int | None = None
    grade: dict[str, Any] = {}
    reason = res.reason
    if probing and cls in ("line", "search"):
        from .explain import DEFAULT_PROBE_BUDGET, Explainer

        left = Limits(deadline=limits.deadline_from(t0))  # what the count left of the time limit
        ex = Explainer(lines, 2, DEFAULT_PROBE_BUDGET).explain(puzzle, limits=left, verdict=lambda: "unique")
        grade = ex.difficulty
        level, after_probe = grade["level"], len(ex.remaining)
        if cls == "line":  # known exactly from line propagation, even when the steps were cut short
            level, after_probe = "line", 0
        elif not grade["exact"]:
            reason = "probing budget or time ran out: the level is a lower bound"
    return {
        "name": puzzle.name,
        "width": puzzle.width if isinstance(puzzle, Puzzle) else None,
        "height": puzzle.height if isinstance(puzzle, Puzzle) else None,
        "class": cls,
        "level": level,
        "line_solvable": res.line_solvable,
        "unknown_after_line": res.unknown_after_propagation,
        "unknown_after_probe": after_probe,
        "count": res.count,
        "count_exact": res.exact,
        "components": len(res.components),
        "seconds": round(time.monotonic() - t0, 6),
        "reason": reason,
        "level_exact": (level == "line" or bool(grade.get("exact"))) if level is not None else None,
        "steps": grade.get("steps"),
        "probes": grade.get("probes"),
        "grade": grade.get("text"),
        # a puzzle of another geometry (a triddler) says which, instead of a width and a height
        **({} if isinstance(puzzle, Puzzle) else {"geometry": puzzle.geometry.as_json(),
                                                  "cells": puzzle.geometry.cell_count}),
    }


def error_record(file: str, index: int | None, message: str) -> dict[str, Any]:
    """The record of an input that could not be classified."""
    return {"file": file, "index": index, "name": None, "width": None, "height": None,
            "class": "error", "level": None, "line_solvable": False, "unknown_after_line": None,
            "unknown_after_probe": None, "count": None, "count_exact": False, "components": None,
            "seconds": 0.0, "reason": message, "level_exact": None, "steps": None, "probes": None,
            "grade": None}


# --------------------------------------------------------------------------
# Running a batch (on satnono.batch: inputs, resume file and back ends live there)


@dataclass(slots=True)
class Options:
    max_solutions: int = 2
    timeout: float | None = None
    probing: bool = False
    solver: str = DEFAULT_SOLVER


def _shared_lines() -> LineSolver:
    """This process's line-solver cache, shared by the tasks it runs."""
    return shared_solver()


def _run_one(task: Task, opts: Options, lines: LineSolver) -> dict[str, Any]:
    if task.puzzle is None:
        return error_record(task.file, task.index, task.error or "unreadable input")
    try:
        rec = classify_puzzle(task.puzzle, opts.max_solutions, opts.timeout, opts.probing,
                              opts.solver, lines)
    except Exception as e:  # a bug must not end the batch; the record says so
        return error_record(task.file, task.index, f"internal error: {type(e).__name__}: {e}")
    return {"file": task.file, "index": task.index, **rec}


def classify_task(item: tuple[Task, Options]) -> dict[str, Any]:
    """The batch task of classify: the record of one task (runs in a worker)."""
    task, opts = item
    return _run_one(task, opts, _shared_lines())


def lost_record(task: Task, lost: Lost) -> dict[str, Any]:
    """The record of a task that could not be run: ``unknown`` if it ran out of time,
    ``error`` if its worker died on it."""
    rec = error_record(task.file, task.index, lost.reason)
    if lost.timed_out and task.puzzle is not None:
        p = task.puzzle
        rec.update({"name": p.name, "width": p.width if isinstance(p, Puzzle) else None,
                    "height": p.height if isinstance(p, Puzzle) else None, "class": "unknown",
                    "count": 0, "count_exact": False})
    return rec


def run_batch(tasks: list[Task], opts: Options, workers: int = 1,
              on_start: Callable[[Any], None] | None = None,
              scheduler: str | None = None) -> Generator[tuple[Task, dict[str, Any]], None, None]:
    """Classify ``tasks``; yields ``(task, record)`` as each finishes (completion order).

    ``workers`` > 1 uses that many local processes; ``scheduler`` a Dask cluster (see
    :func:`satnono.batch.runner_for`).  Error tasks are yielded at once.  ``on_start`` is
    called with the runner once the workers exist (start a progress display there: worker processes are
    forked before any display thread runs).  Closing the generator (or Ctrl-C in the
    caller) stops the workers.

    Raises:
        satnono.batch.BatchError: the Dask back end failed (records yielded before stay valid).
    """
    by_seq = {t.seq: t for t in tasks}
    todo = [t for t in tasks if t.puzzle is not None]
    if not scheduler and (workers <= 1 or len(todo) <= 1):
        workers = 1
        todo = tasks
    else:
        for t in tasks:
            if t.puzzle is None:
                yield t, _run_one(t, opts, _shared_lines())
    items = [(t.seq, (t, opts)) for t in todo]  # a list: the back end knows how many are left
    with closing(batch.run(classify_task, items, workers=min(workers, max(1, len(todo))), scheduler=scheduler,
                           hang_after=hang_limit(opts.timeout),
                           on_start=on_start)) as stream:
        for seq, rec in stream:
            t = by_seq[seq]
            yield t, lost_record(t, rec) if isinstance(rec, Lost) else rec


def summarize(records: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """Counts per class (and per probing level), and line-solvable versus unique."""
    per = {c: 0 for c in CLASSES}
    levels = {lv: 0 for lv in LEVELS}
    total = 0
    seconds = 0.0
    for r in records:
        total += 1
        per[r.get("class", "error")] = per.get(r.get("class", "error"), 0) + 1
        if r.get("level") in levels:
            levels[r["level"]] += 1
        seconds += float(r.get("seconds") or 0.0)
    unique = per["line"] + per["search"]
    return {
        "puzzles": total,
        "classes": per,
        "levels": levels if any(levels.values()) else None,
        "unique": unique,
        "line_solvable": per["line"],
        "line_solvable_share_of_unique": (per["line"] / unique) if unique else None,
        "seconds": round(seconds, 3),
    }
