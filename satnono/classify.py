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

A batch (:func:`run_batch`) takes files, directories (walked recursively) and
multi-puzzle files, runs on a pool of worker processes and yields results as
they finish, tagged with ``(file, index)``.  :class:`ResultLog` is the resume
file: one JSON object per line, each appended with a single write and fsynced,
so an interrupted run leaves every finished result; damaged lines are dropped
(and the file rewritten atomically) when it is opened again.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Iterator

from .counting import MULTIPLE, NONE, UNIQUE, count
from .errors import ParseError, SatnonoError
from .linesolve import LineSolver
from .model import Puzzle
from .propagate import Contradiction, GridState, propagate
from .interrupt import children_starting, ignore_in_child
from .sat import DEFAULT_SOLVER, leave_sigint_alone

CLASSES = ("line", "search", "multiple", "none", "unknown", "error")
LEVELS = ("line", "probe", "probe2", "search")
#: Columns of the CSV output, in order.
CSV_FIELDS = ("file", "index", "name", "width", "height", "class", "level", "line_solvable",
              "unknown_after_line", "unknown_after_probe", "count", "count_exact", "components",
              "seconds", "reason", "level_exact", "steps", "probes", "grade")

Key = tuple[str, "int | None"]


# --------------------------------------------------------------------------
# One puzzle


def probe(state: GridState, lines: LineSolver, deadline: float | None = None) -> Contradiction | None:
    """Single-cell contradiction probing, in place, repeated until nothing changes.

    Each unknown cell is given each value it may still have (black, then
    white; in colour each colour, then the background) and propagated from
    its row and column; a value that contradicts is excluded from the cell
    (which is propagated at once).  Returns a :class:`Contradiction` if the
    puzzle turns out to have no solution.  Raises :class:`~satnono.propagate.Deadline`.
    """
    h, w = state.height, state.width
    changed = True
    while changed:
        changed = False
        for r, c in state.unknown_cells():
            for value in sorted(state.possible(r, c), reverse=True):
                if state.cell(r, c) is not None:
                    break
                if value not in state.possible(r, c):
                    continue
                trial = state.copy()
                trial.set_cell(r, c, value)
                if _propagate_from(trial, lines, r, c, h, w, deadline) is not None:
                    state.exclude(r, c, value)
                    bad = _propagate_from(state, lines, r, c, h, w, deadline)
                    if bad is not None:
                        return bad
                    changed = True
    return None


def _propagate_from(state: GridState, lines: LineSolver, r: int, c: int, h: int, w: int,
                    deadline: float | None) -> Contradiction | None:
    dr = [False] * h
    dc = [False] * w
    dr[r] = True
    dc[c] = True
    return propagate(state, lines, dr, dc, deadline)


def classify_puzzle(
    puzzle: Puzzle,
    max_solutions: int = 2,
    timeout: float | None = None,
    probing: bool = False,
    solver: str = DEFAULT_SOLVER,
    line_solver: LineSolver | None = None,
) -> dict[str, Any]:
    """Classify one puzzle; returns a JSON-ready dict (without ``file``/``index``).

    Keys: ``name``, ``width``, ``height``, ``class``, ``level`` (with probing, for
    unique puzzles; else null), ``line_solvable``, ``unknown_after_line``,
    ``unknown_after_probe`` (with probing: cells left open when logic stops),
    ``count`` (int; a lower bound when
    ``count_exact`` is false), ``count_exact``, ``components`` (number of
    independent components left by line logic), ``seconds``, ``reason``, and with
    probing ``level_exact``, ``steps``, ``probes`` and ``grade`` (see
    :func:`satnono.explain.engine.grade`; null without probing).
    """
    t0 = time.monotonic()
    lines = line_solver or LineSolver()
    res = count(puzzle, max_solutions=max_solutions, timeout=timeout, solver=solver, line_solver=lines)
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

        left = None if timeout is None else max(0.0, timeout - (time.monotonic() - t0))
        deadline = None if left is None else time.monotonic() + left
        ex = Explainer(lines, 2, DEFAULT_PROBE_BUDGET).explain(puzzle, deadline=deadline, verdict=lambda: "unique")
        grade = ex.difficulty
        level, after_probe = grade["level"], len(ex.remaining)
        if cls == "line":  # known exactly from line propagation, even when the steps were cut short
            level, after_probe = "line", 0
        elif not grade["exact"]:
            reason = "probing budget or time ran out: the level is a lower bound"
    return {
        "name": puzzle.name,
        "width": puzzle.width,
        "height": puzzle.height,
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
    }


def error_record(file: str, index: int | None, message: str) -> dict[str, Any]:
    """The record of an input that could not be classified."""
    return {"file": file, "index": index, "name": None, "width": None, "height": None,
            "class": "error", "level": None, "line_solvable": False, "unknown_after_line": None,
            "unknown_after_probe": None, "count": None, "count_exact": False, "components": None,
            "seconds": 0.0, "reason": message, "level_exact": None, "steps": None, "probes": None,
            "grade": None}


# --------------------------------------------------------------------------
# Inputs



@dataclass(slots=True)
class Task:
    """One unit of a batch: a puzzle, or an input that failed to load."""

    seq: int
    """Position in input order."""
    file: str
    index: int | None
    """1-based position in a multi-puzzle file; None for a single-puzzle file."""
    puzzle: Puzzle | None
    error: str | None = None

    @property
    def key(self) -> Key:
        return result_key(self.file, self.index)


def result_key(file: str, index: int | None) -> Key:
    """The identity of a result, as used by the resume file."""
    return (os.path.realpath(file) if file != "-" else file, index)


def _looks_like_puzzle(path: str) -> bool:
    """Whether a file met while walking a directory should be read as a puzzle.

    Files with a puzzle suffix are; other files only when their content has
    the unmistakable signature of a format (PBM, XML, JSON, a ``$n`` tournament
    header, picross-solver's ``GRID`` line, a pynogram/nonogrid ``[clues]``
    section).  READMEs, licences and CSV tables are skipped.
    """
    from .formats.sniff import SIGNATURE_FORMATS, candidates, format_from_suffix

    if format_from_suffix(path) is not None:
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return True  # let the reader report it
    found = candidates(head)
    return bool(found) and found[0] in SIGNATURE_FORMATS


def discover(paths: Iterable[str], exclude: Iterable[str] = ()) -> Iterator[str]:
    """The puzzle files named by ``paths``: files as given, directories walked
    recursively in sorted order (see :func:`_looks_like_puzzle`); ``exclude`` are
    paths never to read (the resume file)."""
    skip = {os.path.realpath(p) for p in exclude}
    for path in paths:
        if path != "-" and os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if os.path.realpath(full) in skip or name.startswith("."):
                        continue
                    if _looks_like_puzzle(full):
                        yield full
        elif path == "-" or os.path.realpath(path) not in skip:
            yield path


def load_tasks(paths: Iterable[str], fmt: str | None = None, exclude: Iterable[str] = ()) -> list[Task]:
    """Every puzzle of every input, in input order, as tasks (unreadable inputs as error tasks)."""
    from .formats import load_all

    tasks: list[Task] = []
    for path in discover(paths, exclude):
        try:
            puzzles = load_all(path, fmt)
        except ParseError as e:
            tasks.append(Task(len(tasks), path, None, None, str(e)))
            continue
        except (OSError, ValueError) as e:
            tasks.append(Task(len(tasks), path, None, None, f"{path}: {e}"))
            continue
        many = len(puzzles) > 1
        for k, p in enumerate(puzzles, 1):
            index = _index_of(path, p, k) if many else _index_of(path, p, None)
            tasks.append(Task(len(tasks), path, index, p))
    return tasks


def _index_of(path: str, puzzle: Puzzle, default: int | None) -> int | None:
    src = puzzle.source or ""
    if src.startswith(path + "#") and src[len(path) + 1:].isdigit():
        return int(src[len(path) + 1:])
    return default


# --------------------------------------------------------------------------
# The resume file


class ResumeFileError(SatnonoError):
    """The resume file is not one satnono wrote (it is left untouched)."""


def _valid_record(rec: object) -> bool:
    if not isinstance(rec, dict) or not isinstance(rec.get("file"), str) or rec.get("class") not in CLASSES:
        return False
    index = rec.get("index")
    if index is not None and (type(index) is not int or index < 1):
        return False
    # written by earlier versions when Ctrl-C landed inside a SAT call: not a result
    return not (rec["class"] == "error" and "caught keyboard interrupt" in str(rec.get("reason")).lower())


class ResultLog:
    """An append-only JSON-lines file of finished results.

    Opening reads the results already there.  Damaged lines (a torn last line
    left by a crash, lines that are not JSON objects with a ``file`` and a
    ``class``) are dropped and the file is rewritten atomically without them
    (:attr:`dropped` says how many), so that it stays valid JSON lines.  A
    non-empty file without a single valid record is refused with
    :class:`ResumeFileError` and left as it is: it is not a resume file (a
    puzzle or a random file given by mistake).  :meth:`append` writes one whole
    line with a single ``write`` and fsyncs it.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self.records: dict[Key, dict[str, Any]] = {}
        self.dropped = 0
        """Damaged lines dropped from the file when it was opened."""
        self._load()
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return
        keep: list[bytes] = []
        rewrite = False
        for line in data.splitlines(keepends=True):
            if not line.strip():
                rewrite = True  # blank lines are not JSON lines
                continue
            try:
                rec = json.loads(line) if line.endswith(b"\n") else None  # no newline: a torn write
            except ValueError:
                rec = None
            if _valid_record(rec):
                self.records[result_key(rec["file"], rec.get("index"))] = rec
                keep.append(line)
            else:
                self.dropped += 1
                rewrite = True
        if self.dropped and not keep:
            raise ResumeFileError(
                f"{self.path}: not a satnono resume file (no line is a classify result); "
                "left untouched: give another file to --resume")
        if rewrite:
            from .formats import write_atomic

            write_atomic(self.path, b"".join(keep), overwrite=True)

    def __contains__(self, key: Key) -> bool:
        return key in self.records

    def append(self, record: dict[str, Any]) -> None:
        data = (json.dumps(record) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]
        os.fsync(self._fd)
        self.records[result_key(record["file"], record.get("index"))] = record

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "ResultLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# --------------------------------------------------------------------------
# Running a batch


@dataclass(slots=True)
class Options:
    max_solutions: int = 2
    timeout: float | None = None
    probing: bool = False
    solver: str = DEFAULT_SOLVER


def _run_one(task: Task, opts: Options, lines: LineSolver) -> dict[str, Any]:
    if task.puzzle is None:
        return error_record(task.file, task.index, task.error or "unreadable input")
    try:
        rec = classify_puzzle(task.puzzle, opts.max_solutions, opts.timeout, opts.probing,
                              opts.solver, lines)
    except Exception as e:  # a bug must not end the batch; the record says so
        return error_record(task.file, task.index, f"internal error: {type(e).__name__}: {e}")
    return {"file": task.file, "index": task.index, **rec}


def _worker_main(tasks: Any, results: Any, opts: Options) -> None:
    """A pool worker: classify tasks until a None arrives (runs in a child process)."""
    # the parent decides what Ctrl-C and SIGTERM do (it kills the workers); a worker that
    # died of the signal sent to the whole process group would be taken for a crash
    ignore_in_child()
    leave_sigint_alone()
    parent = os.getppid()
    lines = LineSolver()
    while True:
        try:
            task = tasks.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:  # the parent died (killed): do not linger
                results.cancel_join_thread()
                os._exit(0)
            continue
        if task is None:
            return
        results.put(("start", task.seq, os.getpid()))
        results.put(("done", task.seq, _run_one(task, opts, lines)))


def _mp_context() -> Any:
    if "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class _Pool:
    """Worker processes fed through a queue; a worker that dies is replaced and
    its puzzle reported as an error."""

    def __init__(self, workers: int, opts: Options) -> None:
        self.ctx = _mp_context()
        self.opts = opts
        self.tasks = self.ctx.Queue()
        self.results = self.ctx.Queue()
        self.procs: list[Any] = []
        self.current: dict[int, int] = {}  # pid -> seq being worked on
        for _ in range(workers):
            self._spawn()

    def _spawn(self) -> None:
        p = self.ctx.Process(target=_worker_main, args=(self.tasks, self.results, self.opts), daemon=True)
        with children_starting():
            p.start()
        self.procs.append(p)

    def put(self, task: Task) -> None:
        self.tasks.put(task)

    def get(self, timeout: float) -> tuple[int, dict[str, Any]] | tuple[int, None] | None:
        """A finished ``(seq, record)``, ``(seq, None)`` when a worker died on it, or None."""
        try:
            kind, seq, payload = self.results.get(timeout=timeout)
        except queue.Empty:
            for p in list(self.procs):
                if not p.is_alive():
                    self.procs.remove(p)
                    lost = self.current.pop(p.pid, None)
                    self._spawn()
                    if lost is not None:
                        return lost, None
            return None
        if kind == "start":
            self.current[payload] = seq
            return None
        for pid, s in list(self.current.items()):
            if s == seq:
                del self.current[pid]
        return seq, payload

    def close(self, kill: bool = False) -> None:
        if kill:
            for p in self.procs:
                if p.is_alive():
                    p.kill()
        else:
            for _ in self.procs:
                self.tasks.put(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
        self.tasks.cancel_join_thread()
        self.results.cancel_join_thread()
        self.tasks.close()
        self.results.close()


def run_batch(tasks: list[Task], opts: Options, workers: int = 1,
              on_start: Callable[[], None] | None = None) -> Iterator[tuple[Task, dict[str, Any]]]:
    """Classify ``tasks``; yields ``(task, record)`` as each finishes (completion order).

    ``workers`` > 1 uses that many processes.  Error tasks are yielded at once.
    ``on_start`` is called once the workers exist (start a progress display
    there: worker processes are forked before any display thread runs).
    Closing the generator (or Ctrl-C in the caller) stops the workers.
    """
    by_seq = {t.seq: t for t in tasks}
    todo = [t for t in tasks if t.puzzle is not None]
    if workers <= 1 or len(todo) <= 1:
        if on_start:
            on_start()
        lines = LineSolver()
        for t in tasks:
            yield t, _run_one(t, opts, lines)
        return
    pool = _Pool(min(workers, len(todo)), opts)
    if on_start:
        on_start()
    clean = False
    try:
        for t in tasks:
            if t.puzzle is None:
                yield t, _run_one(t, opts, LineSolver())
        pending = iter(todo)
        inflight = 0
        limit = 2 * len(pool.procs)
        exhausted = False
        while True:
            while not exhausted and inflight < limit:
                nxt = next(pending, None)
                if nxt is None:
                    exhausted = True
                    break
                pool.put(nxt)
                inflight += 1
            if exhausted and inflight == 0:
                break
            got = pool.get(0.2)
            if got is None:
                continue
            seq, rec = got
            inflight -= 1
            t = by_seq[seq]
            if rec is None:
                rec = error_record(t.file, t.index, "internal error: the worker process died on this puzzle")
            yield t, rec
        clean = True
    finally:
        pool.close(kill=not clean)


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
