"""The SAT back end: the only module that imports pysat.

:class:`SatSession` wraps one incremental python-sat solver chosen by name and
adds a wall-clock deadline to every call:

* solvers with ``interrupt()`` (Glucose, MiniSat family) are interrupted by a
  watcher thread at the deadline, or at once on SIGINT/SIGTERM;
* CaDiCaL 1.9.5 has no interrupt, so it runs in conflict-budget slices.
  Every new slice re-enters the solver and sends its search elsewhere (on
  hard tournament puzzles anywhere from 3x fewer to 8x more conflicts), so
  the first slice is as long as a conservative conflict rate for the
  formula's size allows, and most calls finish in it; later slices aim at a
  share of the time left at the rate measured.

A call that runs out of time returns ``None`` ("unknown").

Ctrl-C: python-sat catches SIGINT inside a solve call (main thread only) and
jumps out of the native solver, leaving it unusable (CaDiCaL aborts the whole
process on the next call, including its destructor).  :meth:`SatSession.solve`
turns that into :class:`KeyboardInterrupt` and abandons the native solver
without touching it again, so an interrupted call can never be mistaken for an
error of the puzzle and the process can stop cleanly.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections import deque
from contextlib import suppress
from itertools import repeat
from typing import TYPE_CHECKING, Iterable, Sequence

if TYPE_CHECKING:
    from pysat.solvers import Solver

from .errors import UnsupportedOperation
from .interrupt import SIGNALS, checkpoint, critical

#: Back ends that can be chosen with ``--solver`` (all incremental: clauses may be added after a solve).
SOLVERS: dict[str, str] = {
    "cadical195": "budget",
    "cadical153": "budget",
    "glucose4": "interrupt",
    "glucose42": "interrupt",
    "glucose3": "interrupt",
    "minisat22": "interrupt",
    "maplechrono": "interrupt",
    "mergesat3": "interrupt",
}
DEFAULT_SOLVER = "cadical195"

#: CaDiCaL options applied at start-up, chosen by measurement on the tournament sets
#: (one puzzle at a time, first solution then second/uniqueness):
#: ``stabilizeonly`` (stable mode: target phases and reluctant doubling restarts) cut
#: the first-solution time by about 20 %; ``elim=0`` keeps variable elimination from
#: making every incremental call re-extend the model (the second call got 20-40x faster).
CADICAL_OPTIONS = {"stabilizeonly": 1, "elim": 0}


class SatSession:
    """One incremental SAT solver over a clause set.

    Use as a context manager so native memory is freed::

        with SatSession(clauses) as s:
            if s.solve(deadline):
                model = s.model()
    """

    #: Budgeted slices (CaDiCaL).  The first slice assumes ``SLOW_RATE`` conflicts per second
    #: on up to 10,000 clauses, falling with the square root of the clause count beyond, and
    #: aims at ``FIRST_SHARE`` of the time left.  Measured rates are 3-15 times higher (on
    #: 2-core machines: 25x25 tournament puzzles, 12,000 clauses, 6,000-20,000 conflicts per
    #: second; Knotty, 35,000 clauses, 3,500-8,000; Faase, 280,000 clauses, 1,700-3,900), so
    #: the first slice ends well before the deadline.  Later slices aim at ``SLICE_SHARE`` of
    #: the time left at the measured rate; no slice is shorter than ``MIN_SLICE``.
    SLOW_RATE = 2000.0
    FIRST_SHARE = 0.5
    MIN_SLICE = 100
    SLICE_SHARE = 0.3

    def __init__(self, clauses: Iterable[Sequence[int]] = (), name: str = DEFAULT_SOLVER) -> None:
        if name not in SOLVERS:
            raise UnsupportedOperation(
                f"unknown or unsupported SAT solver {name!r}; choose one of: {', '.join(SOLVERS)}"
            )
        from pysat.solvers import Solver  # loaded with the first session: a line-solvable run never pays for it

        self.name = name
        self._limit = SOLVERS[name]
        self._solver = Solver(name=name)
        if name == "cadical195":
            self._solver.configure(CADICAL_OPTIONS)
        self.add_clauses(clauses)
        self.calls = 0
        self.conflicts = 0
        self._rate: float | None = None  # conflicts per second, measured on budgeted slices
        self._abandoned = False  # True once a call was interrupted (the native solver is unusable)

    def __enter__(self) -> "SatSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._solver is not None and not self._abandoned:
            # a KeyboardInterrupt between python-sat's native delete and its forgetting the
            # handle would have the handle deleted again later (a double free)
            with critical():
                self._solver.delete()
                self._solver = None  # type: ignore[assignment]

    def add_clause(self, clause: Sequence[int]) -> None:
        if self._abandoned:  # interrupted: the native solver is unusable (CaDiCaL aborts the process on add)
            return
        self._solver.add_clause(list(clause))

    def add_clauses(self, clauses: Iterable[Sequence[int]]) -> None:
        if getattr(self, "_abandoned", False):
            return
        from pysat.solvers import Cadical195
        from pysolvers import cadical195_add_cl

        inner = self._solver.solver
        if isinstance(inner, Cadical195):
            # pysat's per-clause wrapper costs as much as CaDiCaL's own add: call the binding directly
            # (map drained by a zero-length deque: the loop runs in C)
            deque(map(cadical195_add_cl, repeat(inner.cadical), clauses), maxlen=0)
        else:
            self._solver.append_formula(clauses)

    def set_phases(self, literals: Sequence[int]) -> None:
        if self._abandoned:
            return
        self._solver.set_phases(list(literals))

    def model(self) -> list[int]:
        m = self._solver.get_model()
        if m is None:
            raise UnsupportedOperation("no model: the last call was not satisfiable")
        return m

    def core(self) -> list[int]:
        return list(self._solver.get_core() or [])

    def _update_stats(self) -> None:
        st = self._solver.accum_stats() or {}
        self.conflicts = int(st.get("conflicts", self.conflicts))

    def solve(self, deadline: float | None = None, assumptions: Sequence[int] = ()) -> bool | None:
        """Solve under ``assumptions``; None if the monotonic ``deadline`` passed first."""
        self.calls += 1
        s = self._solver
        a = list(assumptions)
        if self._abandoned:
            raise KeyboardInterrupt("the SAT solver was interrupted earlier")
        checkpoint()
        try:
            return self._solve(s, deadline, a)
        except KeyboardInterrupt:
            self._abandon()
            raise
        except Exception as e:
            if _is_sigint(e):
                SIGNALS.reinstall_sigint()  # python-sat leaves its own handler installed
                SIGNALS.note(signal.SIGINT)
                self._abandon()
                raise KeyboardInterrupt(str(e)) from None
            raise

    def _abandon(self) -> None:
        """Forget the native solver after an interrupted call: never call it again, not even
        to free it (its memory is lost; the process is about to stop)."""
        with critical():
            self._abandoned = True
            inner = getattr(self._solver, "solver", None)
            if inner is not None:
                for key, value in list(vars(inner).items()):
                    if type(value).__name__ == "PyCapsule":  # the native handle: unset, so __del__ skips it
                        setattr(inner, key, None)

    def _solve(self, s: Solver, deadline: float | None, a: list[int]) -> bool | None:
        if deadline is None:
            r = s.solve(assumptions=a)
            self._update_stats()
            return r
        if time.monotonic() >= deadline:
            return None
        if self._limit == "interrupt":
            try:
                with _Watch(s.interrupt, deadline):
                    r = s.solve_limited(assumptions=a, expect_interrupt=True)
            finally:
                s.clear_interrupt()  # after the watcher has stopped: it cannot set the flag again
            self._update_stats()
            return r
        # Conflict-budget slices.  Every slice re-enters CaDiCaL, which perturbs its search
        # (restart and rephase schedules start again), so slices are few and the first is long.
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            if self._rate is None:
                clauses = max(10000, s.nof_clauses() or 0)
                rate = self.SLOW_RATE * (10000 / clauses) ** 0.5
                budget = int(max(self.MIN_SLICE, rate * left * self.FIRST_SHARE))
            else:
                budget = int(max(self.MIN_SLICE, self._rate * left * self.SLICE_SHARE))
            t0 = time.monotonic()
            before = self.conflicts
            s.conf_budget(budget)
            r = s.solve_limited(assumptions=a)
            self._update_stats()
            used = time.monotonic() - t0
            done = self.conflicts - before
            if done >= self.MIN_SLICE and used > 0:
                self._rate = done / used
            if r is not None:
                return r


class _Watch:
    """Interrupt an ``interrupt()``-capable solver at ``deadline``, or at once when SIGINT or
    SIGTERM arrives.

    With ``expect_interrupt`` python-sat releases the GIL and does not catch SIGINT itself,
    so Python's handler would run only after the call.  A watcher thread waits on a pipe
    that Python's signal handling writes to (``signal.set_wakeup_fd``, main thread only)
    until the deadline, and interrupts the solver when either comes; the handler then
    raises as soon as the call returns.
    """

    _pipe: tuple[int, int] | None = None

    def __init__(self, interrupt: object, deadline: float) -> None:
        self.interrupt = interrupt
        self.deadline = deadline
        self.old_fd: int | None = None
        self.thread: threading.Thread | None = None
        self.done = False

    @classmethod
    def _fds(cls) -> tuple[int, int]:
        if cls._pipe is None:
            r, w = os.pipe()
            os.set_blocking(r, False)
            os.set_blocking(w, False)
            cls._pipe = (r, w)
        return cls._pipe

    def __enter__(self) -> "_Watch":
        r, w = self._fds()
        self._drain(r)
        if threading.current_thread() is threading.main_thread():
            try:
                self.old_fd = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
            except ValueError:
                self.old_fd = None
        self.thread = threading.Thread(target=self._run, args=(r,), daemon=True)
        self.thread.start()
        return self

    def _run(self, r: int) -> None:
        select.select([r], [], [], max(0.0, self.deadline - time.monotonic()))
        if not self.done:
            self.interrupt()  # type: ignore[operator]

    def __exit__(self, *exc: object) -> None:
        self.done = True
        r, w = self._fds()
        with suppress(BlockingIOError):
            os.write(w, b"\0")  # wake the watcher
        assert self.thread is not None
        self.thread.join()
        self._drain(r)
        if self.old_fd is not None:
            signal.set_wakeup_fd(self.old_fd)

    @staticmethod
    def _drain(r: int) -> None:
        with suppress(BlockingIOError):
            while os.read(r, 4096):
                pass


def leave_sigint_alone() -> None:
    """Keep python-sat from catching SIGINT inside solve calls in this process.

    For worker processes that ignore SIGINT because their parent decides what Ctrl-C
    does: python-sat would otherwise install its own handler around every call made in
    the main thread, and the worker would die of a Ctrl-C meant for the parent.
    """
    from pysat._utils import MainThread

    MainThread.check = staticmethod(lambda: False)  # type: ignore[method-assign]


def _is_sigint(e: Exception) -> bool:
    """Whether ``e`` is python-sat's report of a SIGINT caught inside the native solver."""
    return type(e).__module__ == "pysolvers" and "keyboard interrupt" in str(e).lower()
