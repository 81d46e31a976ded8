"""The SAT back end: the only module that imports pysat.

:class:`SatSession` wraps one incremental python-sat solver chosen by name and
adds a wall-clock deadline to every call, without changing the search:

* CaDiCaL (``terminate`` in :data:`SOLVERS`) runs each call in one piece.  Its
  own asynchronous ``Solver::terminate()`` (documented as callable from another
  thread or a signal handler) is called at the deadline by a POSIX timer whose
  notification runs in a thread of the C library (``timer_create`` with
  ``SIGEV_THREAD``): python-sat holds the GIL for the whole CaDiCaL call and has
  no Python-level interrupt for it, so no Python thread could.  A call that runs
  to its end does exactly the search it does without a deadline (same conflicts,
  same models); a call stopped at the deadline leaves the solver intact, and a
  later call with a later deadline continues from where it stopped (CaDiCaL
  keeps what it learnt).  Where the timer or the symbol is missing (not Linux),
  CaDiCaL falls back to conflict-budget slices (``budget``), which do perturb the
  search: each new slice restarts its schedules.
* solvers with ``interrupt()`` (Glucose, MiniSat family) are interrupted by a
  watcher thread at the deadline, or at once on SIGINT/SIGTERM.

A call that runs out of time returns ``None`` ("unknown"); the session then has
``timed_out`` set and ``resumable`` says whether it may be called again.

Ctrl-C: python-sat catches SIGINT inside a solve call (main thread only) and
jumps out of the native solver, leaving it unusable (CaDiCaL aborts the whole
process on the next call, including its destructor).  :meth:`SatSession.solve`
turns that into :class:`KeyboardInterrupt` and abandons the native solver
without touching it again, so an interrupted call can never be mistaken for an
error of the puzzle and the process can stop cleanly.  A deadline never sends a
signal, so a Ctrl-C is always the user's.

Clauses: for CaDiCaL, a compiled loop (``feed_clauses`` of ``satnono.lines._native``) hands each
literal to the solver's own ``Solver::add(int)``, found the same way as ``terminate``: the same
calls in the same order as python-sat's binding makes, without a Python call per clause (which
had cost as much as CaDiCaL's own work).  Without the compiled core or the symbol, clauses go
through the binding.
"""

from __future__ import annotations

import atexit
import ctypes
import os
import select
import signal
import sys
import threading
import time
from collections import deque
from contextlib import suppress
from itertools import repeat
from typing import TYPE_CHECKING, Callable, Iterable, Sequence

if TYPE_CHECKING:
    from pysat.solvers import Solver

from .errors import UnsupportedOperation
from .interrupt import SIGNALS, checkpoint, critical
from .results import DEFAULT_SOLVER, SOLVERS

#: CaDiCaL options applied at start-up, chosen by measurement on the tournament sets
#: (one puzzle at a time, first solution then second/uniqueness):
#: ``stabilizeonly`` (stable mode: target phases and reluctant doubling restarts) cut
#: the first-solution time by about 20 %; ``elim=0`` keeps variable elimination from
#: making every incremental call re-extend the model (the second call got 20-40x faster).
#: ``walk=0`` (no local search when rephasing), ``chrono=0`` (no chronological backtracking),
#: ``bumpreason=0`` (no bumping of reason-side literals) and ``shrink=0`` (no shrinking of learnt
#: clauses) make each conflict cheaper on these small, dense formulas: 0.75x the CPU of the two
#: options above on two samples of 450 and 600 tournament puzzles (about 10 % fewer conflicts,
#: each cheaper; the three whole files 0.76x), Faase 0.66x, Knotty unchanged; on colour mixed
#: (bench's seven deadline pictures 0.78x, its colour set and random 36x40 two-colour ones 1.1x).
#: ``vivify=0`` (no vivification of clauses between restarts): on the tournament sets it cost
#: time and bought nothing (icga2017 #450-600: the same 212,984 conflicts with and without it,
#: 0.83x the CPU without); the three whole files 0.88x (bench_compare.py, 4445ee3); n-Dom and
#: Wilk the same conflicts.  The proof call turns it back on (proofs of uniqueness may use it).
CADICAL_OPTIONS = {"stabilizeonly": 1, "elim": 0, "walk": 0, "chrono": 0, "bumpreason": 0, "shrink": 0, "vivify": 0}
#: ... and switched to these (CaDiCaL's defaults) by :meth:`SatSession.for_proof` once a solution is
#: known and the next call is to show there is no other: the cheaper conflicts above cost proofs of
#: uniqueness of structured puzzles 1.3-1.7x (n-Dom: each of the three alone), while the search for
#: a second solution next to a first one hardly needs either.
CADICAL_PROOF_OPTIONS = {"chrono": 1, "bumpreason": 1, "shrink": 3, "vivify": 1}
#: ... and ``lucky=0`` for every call that goes on from phases given to it (:meth:`SatSession.guide`:
#: the search from the hints, and the second call, next to the first solution): CaDiCaL tries its "lucky" assignments (all false, all true,
#: forward, backward, ...) at the start of every call, ignoring the phases; on a 25x25 tournament
#: puzzle that cost about 2 ms a call, 5 % of a settle (6 s of the 3,000 puzzles), for nothing.
CADICAL_GUIDED_OPTIONS = {"lucky": 0}


#: What a CNF costs in memory once the solver holds it, per variable and per clause (CaDiCaL 1.9.5
#: measured on random pictures: 8.2 million variables and 32 million clauses of two to four
#: literals, a 400x400 picture, took 4.3 GB; a variable alone about 190 bytes, a clause about 95),
#: with the models and phases a settle keeps in Python beside it (a list item per variable).
BYTES_PER_VAR = 250
BYTES_PER_CLAUSE = 100
#: ... and for each clause kept as a Python list (colour, blotted clues, rules: encodings not in the
#: flat form), the list and its int objects.
BYTES_PER_LISTED_CLAUSE = 200
#: Clauses handed over at a time when a deadline is to be kept (between two hand-overs the clock is read).
FEED_SLICE = 100_000


def memory_needed(nvars: int, nclauses: int, lists: bool = False) -> int:
    """About the bytes a settle over a CNF of ``nvars`` variables and ``nclauses`` clauses needs
    (``lists``: the clauses are Python lists, not the flat form).

    >>> memory_needed(8_000_000, 32_000_000) / 2 ** 30 > 4
    True
    """
    return nvars * BYTES_PER_VAR + nclauses * (BYTES_PER_CLAUSE + (BYTES_PER_LISTED_CLAUSE if lists else 0))


class SatSession:
    """One incremental SAT solver over a clause set.

    Use as a context manager so native memory is freed::

        with SatSession(clauses) as s:
            if s.solve(deadline):
                model = s.model()
    """

    #: Budgeted slices (CaDiCaL without the native timer).  The first slice assumes
    #: ``SLOW_RATE`` conflicts per second on up to 10,000 clauses, falling with the square root
    #: of the clause count beyond, and aims at ``FIRST_SHARE`` of the time left.  Measured rates are 3-15 times higher (on
    #: 2-core machines: 25x25 tournament puzzles, 12,000 clauses, 6,000-20,000 conflicts per
    #: second; Knotty, 35,000 clauses, 3,500-8,000; Faase, 280,000 clauses, 1,700-3,900), so
    #: the first slice ends well before the deadline.  Later slices aim at ``SLICE_SHARE`` of
    #: the time left at the measured rate; no slice is shorter than ``MIN_SLICE``.
    SLOW_RATE = 2000.0
    FIRST_SHARE = 0.5
    MIN_SLICE = 100
    SLICE_SHARE = 0.3

    def __init__(self, clauses: Iterable[Sequence[int]] | bytes = (), name: str = DEFAULT_SOLVER) -> None:
        if name not in SOLVERS:
            raise UnsupportedOperation(
                f"unknown or unsupported SAT solver {name!r}; choose one of: {', '.join(SOLVERS)}"
            )
        from pysat.solvers import Solver  # loaded with the first session: a line-solvable run never pays for it

        self.name = name
        self._limit = SOLVERS[name]
        # a Ctrl-C inside python-sat's constructor, before it has set its native handle, would
        # make its finaliser print a traceback: the signal waits until the object is whole
        with critical():
            self._solver = Solver(name=name)
        if name == "cadical195":
            self._solver.configure(CADICAL_OPTIONS)
        self._feed = _feed_call(name, self._solver.solver)  # (compiled loop, add function, native solver)
        self._stop: tuple[int, int] | None = None  # (terminate function, native solver) for the deadline timer
        if self._limit == "terminate":
            self._stop = _terminate_call(name, self._solver.solver)
            if self._stop is None:  # no POSIX timer or no symbol here: conflict-budget slices
                self._limit = "budget"
        self.add_clauses(clauses)
        self.calls = 0
        self.conflicts = 0
        #: True when the last call stopped at its deadline (and returned None)
        self.timed_out = False
        #: True when the last call stopped at its conflict budget (and returned None)
        self.out_of_budget = False
        self._rate: float | None = None  # conflicts per second, measured on budgeted slices
        self._abandoned = False  # True once a call was interrupted (the native solver is unusable)
        self._late_until = 0.0  # a deadline timer fired: its notification may reach the solver until then

    def __enter__(self) -> "SatSession":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def resumable(self) -> bool:
        """Whether the session may be called again: True after a call stopped at its deadline
        (the native solver is intact; a later call with a later deadline goes on with what it
        learnt), False once a signal interrupted a call or the session was closed."""
        return self._solver is not None and not self._abandoned

    def close(self, defer: bool = False) -> None:
        """Free the native solver.  ``defer``: not now but when the next session is closed or
        called with a deadline (or never, at exit): a settle that ran out of time answers at
        once, instead of after freeing what may be gigabytes of clauses (1.5 s for a 400x400
        random picture's)."""
        if self._solver is not None and not self._abandoned:
            # a KeyboardInterrupt between python-sat's native delete and its forgetting the
            # handle would have the handle deleted again later (a double free)
            with critical():
                if defer or time.monotonic() < self._late_until:
                    # freed once a late terminate() cannot come (a deferred one: at the next reap)
                    _LATE.add(self._late_until if not defer else 0.0, self._solver)
                    self._solver = None  # type: ignore[assignment]
                    return
                self._solver.delete()
                self._solver = None  # type: ignore[assignment]
                _LATE.reap()

    def add_clause(self, clause: Sequence[int]) -> None:
        if self._abandoned:  # interrupted: the native solver is unusable (CaDiCaL aborts the process on add)
            return
        self._solver.add_clause(list(clause))

    def add_clauses(self, clauses: Iterable[Sequence[int]] | bytes, deadline: float | None = None) -> bool:
        """Add clauses: lists of literals, or the flat form of :class:`satnono.cnf.encode.Encoding`
        (bytes of C ints, each clause's literals then 0), which the compiled feeder hands over
        without a Python object per clause (elsewhere it is read into lists first).

        With a ``deadline`` a list is handed over :data:`FEED_SLICE` clauses at a time, the
        clock read between them: False when it passed before every clause was added (the
        session then holds only some of them and must not be solved), True otherwise."""
        if deadline is not None and isinstance(clauses, list) and len(clauses) > FEED_SLICE:
            for start in range(0, len(clauses), FEED_SLICE):
                if time.monotonic() >= deadline:
                    return False
                self.add_clauses(clauses[start:start + FEED_SLICE])
            return True
        self._add(clauses)
        return True

    def _add(self, clauses: Iterable[Sequence[int]] | bytes) -> None:
        if getattr(self, "_abandoned", False):
            return
        inner = self._solver.solver  # (a closed session fails here, before its freed native solver is used)
        if isinstance(clauses, bytes):
            if self._feed is not None and self._feed[3] is not None:
                feed_flat, add, solver = self._feed[3], self._feed[1], self._feed[2]
                feed_flat(add, solver, clauses)
                return
            from .cnf.ladders import unflatten

            clauses = unflatten(clauses)
        if isinstance(clauses, list) and self._feed is not None:
            # the compiled loop hands every literal to CaDiCaL's own ``add`` (the same calls, in
            # the same order, as python-sat's binding makes, without a Python call per clause)
            feed, add, solver, _ = self._feed
            feed(add, solver, clauses)
            return
        from pysat.solvers import Cadical195
        from pysolvers import cadical195_add_cl

        if isinstance(inner, Cadical195):
            # pysat's per-clause wrapper costs as much as CaDiCaL's own add: call the binding directly
            # (map drained by a zero-length deque: the loop runs in C)
            deque(map(cadical195_add_cl, repeat(inner.cadical), clauses), maxlen=0)
        else:
            self._solver.append_formula(clauses)

    def for_proof(self) -> None:
        """Configure the solver for a call that most likely proves unsatisfiability (a uniqueness
        check after a first solution): CaDiCaL gets :data:`CADICAL_PROOF_OPTIONS`; other solvers
        are left as they are.  Learnt clauses and phases are kept."""
        if self.name == "cadical195" and not self._abandoned:
            self._solver.configure(CADICAL_PROOF_OPTIONS)

    def configure(self, options: dict[str, int]) -> None:
        """Set CaDiCaL ``options`` (by CaDiCaL's names; a portfolio member's, :class:`satnono.solve.Member`);
        other back ends are left as they are."""
        if self.name == "cadical195" and not self._abandoned:
            self._solver.configure(options)

    def set_phases(self, literals: Sequence[int]) -> None:
        if self._abandoned:
            return
        self._solver.set_phases(list(literals))

    def guide(self, literals: Sequence[int]) -> None:
        """Make ``literals`` the phases of the rest of the search (CaDiCaL's forced phases: each
        decision on their variables takes them) and skip the search's start-of-call tries that
        ignore them (:data:`CADICAL_GUIDED_OPTIONS`)."""
        if self._abandoned:
            return
        self.set_phases(literals)
        if self.name == "cadical195":
            self._solver.configure(CADICAL_GUIDED_OPTIONS)

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

    def solve(self, deadline: float | None = None, assumptions: Sequence[int] = (),
              budget: int | None = None) -> bool | None:
        """Solve under ``assumptions``; None if the monotonic ``deadline`` passed first (then
        ``timed_out`` is set) or, with ``budget``, once the call has had that many conflicts
        (then ``out_of_budget`` is set; a later call goes on with what this one learnt)."""
        self.calls += 1
        s = self._solver
        a = list(assumptions)
        if self._abandoned:
            raise KeyboardInterrupt("the SAT solver was interrupted earlier")
        checkpoint()
        self.timed_out = self.out_of_budget = False
        try:
            r = self._solve(s, deadline, a) if budget is None else self._solve_bounded(s, deadline, a, budget)
            self.timed_out = r is None and deadline is not None and not self.out_of_budget
            return r
        except KeyboardInterrupt:
            self._abandon()
            raise
        except Exception as e:
            if _is_sigint(e):
                self._abandon()
                SIGNALS.reinstall_sigint()  # python-sat leaves its own handler installed
                SIGNALS.note(signal.SIGINT)
                raise KeyboardInterrupt(str(e)) from None
            raise

    def _abandon(self) -> None:
        """Forget the native solver after an interrupted call: never call it again, not even
        to free it (its memory is lost; the process is about to stop)."""
        self._abandoned = True  # first, whatever happens next: the native solver is never called again
        with critical(check=False):  # entered even when the signal that stopped the call is noted already
            _forget_native(self._solver)

    def _solve(self, s: Solver, deadline: float | None, a: list[int]) -> bool | None:
        if self._limit == "terminate":
            return self._solve_terminate(s, deadline, a)
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
        return self._solve_budget(s, deadline, a)

    def _solve_bounded(self, s: Solver, deadline: float | None, a: list[int], budget: int) -> bool | None:
        """A call of at most ``budget`` conflicts (and the deadline): one native call with the
        solver's conflict limit, as a deadline is kept on each kind of back end (a late
        terminate flag that stops it early is used up, and the call made again for the rest)."""
        try:
            return self._solve_within(s, deadline, a, budget)
        finally:
            if self._limit == "interrupt":  # (a MiniSat-family budget lasts until it is switched off;
                s.conf_budget(-1)         # CaDiCaL's limits are for one call)

    def _solve_within(self, s: Solver, deadline: float | None, a: list[int], budget: int) -> bool | None:
        start = self.conflicts
        for _ in range(3):  # (a call stopped early by a late terminate flag is made again, as in _solve_terminate)
            left = budget - (self.conflicts - start)
            if left <= 0:
                self.out_of_budget = True
                return None
            if deadline is not None and time.monotonic() >= deadline:
                return None
            timer = None
            if self._limit == "terminate" and deadline is not None:
                assert self._stop is not None
                timer = _Timer.start(self._stop, deadline)
            s.conf_budget(left)
            # (the budget slices, and a terminate back end without a timer, stop at the budget)
            r, fired = self._native_call(s, a, timer, deadline if self._limit == "interrupt" else None)
            if r is not None or fired:
                return r
        self.out_of_budget = True  # (stopped three times without an answer: the try is spent)
        return None

    def _native_call(self, s: Solver, a: list[int], timer: _Timer | None,
                     watch: float | None = None) -> tuple[bool | None, bool]:
        """One ``solve_limited`` call (under the interrupt watcher until ``watch``, a deadline,
        when given), then its deadline timer stopped and the statistics read: ``(answer, whether
        the timer fired)``; a timer that fired may still reach the solver for a while, so the
        session is freed only after that."""
        fired = False
        try:
            if watch is not None:
                try:
                    with _Watch(s.interrupt, watch):
                        r = s.solve_limited(assumptions=a, expect_interrupt=True)
                finally:
                    s.clear_interrupt()
            else:
                r = s.solve_limited(assumptions=a)
        finally:
            if timer is not None:
                fired = timer.stop()
                if fired:
                    self._late_until = time.monotonic() + LATE_GRACE
        self._update_stats()
        return r, fired

    def _solve_terminate(self, s: Solver, deadline: float | None, a: list[int]) -> bool | None:
        """One CaDiCaL call, stopped at ``deadline`` by the native timer.

        Always ``solve_limited``: python-sat's ``solve`` reports a stopped call as False, and a
        timer that fired just after an earlier call had returned leaves CaDiCaL's terminate
        flag set for the next call.  Such a call (stopped while its own timer did not fire) is
        made again: the flag is used up by then, and only one late notification exists per
        fired timer."""
        assert self._stop is not None
        for _ in range(3):
            timer = None
            if deadline is not None:
                if time.monotonic() >= deadline:
                    return None
                timer = _Timer.start(self._stop, deadline)
                if timer is None:  # the C library would not make a timer (resource limits): slices
                    return self._solve_budget(s, deadline, a)
            r, fired = self._native_call(s, a, timer)
            if r is not None or fired:
                return r
        return None

    def _solve_budget(self, s: Solver, deadline: float, a: list[int]) -> bool | None:
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


def refutation_proof(clauses: Iterable[Sequence[int]], deadline: float | None = None,
                     slice_conflicts: int = 20_000) -> tuple[bool | None, list[str]]:
    """Solve ``clauses`` once with CaDiCaL 1.9.5 logging a DRAT proof (a fresh solver: a proof of
    an incremental session's later call is not a proof for its formula): ``(False, proof lines)``
    when they are unsatisfiable, ``(True, [])`` when they are satisfiable, ``(None, [])`` when the
    monotonic ``deadline`` passed first (checked between slices of ``slice_conflicts`` conflicts).
    For certificates (:mod:`satnono.certify`)."""
    from pysat.solvers import Solver
    from pysolvers import cadical195_add_cl

    with critical():
        solver = Solver(name="cadical195", with_proof=True)
    try:
        deque(map(cadical195_add_cl, repeat(solver.solver.cadical), clauses), maxlen=0)
        if deadline is None:
            found = solver.solve()
        else:
            found = None
            while found is None:
                if time.monotonic() >= deadline:
                    return None, []
                solver.conf_budget(slice_conflicts)
                found = solver.solve_limited()
        return (True, []) if found else (False, list(solver.get_proof() or []))
    finally:
        solver.delete()


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


# --------------------------------------------------------------------------
# The deadline timer for CaDiCaL: its own asynchronous terminate(), called by the C library

#: Seconds after a deadline timer fired during which its notification thread may still be on
#: its way to ``terminate()``: the solver (and the timer) are freed only after that.  The
#: thread starts at the expiry and makes one call that only sets a flag.
LATE_GRACE = 10.0

#: CaDiCaL's ``Solver::terminate()`` in python-sat's extension (Itanium C++ ABI: the object is
#: the one argument), and the attribute of python-sat's solver object that holds the handle.
_TERMINATE = {
    "cadical195": ("_ZN10CaDiCaL1956Solver9terminateEv", "cadical"),
    "cadical153": ("_ZN10CaDiCaL1536Solver9terminateEv", "cadical"),
}
_SIGEV_THREAD = 2  # Linux
_CLOCK_MONOTONIC = 1  # Linux: the clock of time.monotonic()


class _SigEvent(ctypes.Structure):
    """``struct sigevent`` (Linux, 64 bytes) for a ``SIGEV_THREAD`` notification."""

    _fields_ = [
        ("value", ctypes.c_void_p),  # union sigval: passed to the function
        ("signo", ctypes.c_int),
        ("notify", ctypes.c_int),
        ("function", ctypes.c_void_p),
        ("attributes", ctypes.c_void_p),
        ("pad", ctypes.c_byte * (56 - 3 * ctypes.sizeof(ctypes.c_void_p))),
    ]


class _TimeSpec(ctypes.Structure):
    _fields_ = [("sec", ctypes.c_long), ("nsec", ctypes.c_long)]


class _ITimerSpec(ctypes.Structure):
    _fields_ = [("interval", _TimeSpec), ("value", _TimeSpec)]


class _Native:
    """The C library's POSIX timers and python-sat's extension, through ctypes."""

    def __init__(self) -> None:
        import pysolvers

        if not sys.platform.startswith("linux") or ctypes.sizeof(_SigEvent) != 64:
            raise OSError("POSIX timers with SIGEV_THREAD are only used on Linux")
        libc = ctypes.CDLL(None, use_errno=True)
        if not hasattr(libc, "timer_create"):  # glibc before 2.34: in librt
            from ctypes.util import find_library  # (here: it loads subprocess, shutil, tempfile, ...)

            libc = ctypes.CDLL(find_library("rt"), use_errno=True)
        self.create = libc.timer_create
        self.create.argtypes = [ctypes.c_int, ctypes.POINTER(_SigEvent), ctypes.POINTER(ctypes.c_void_p)]
        self.create.restype = ctypes.c_int
        self.settime = libc.timer_settime
        self.settime.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(_ITimerSpec),
                                 ctypes.POINTER(_ITimerSpec)]
        self.settime.restype = ctypes.c_int
        self.delete = libc.timer_delete
        self.delete.argtypes = [ctypes.c_void_p]
        self.delete.restype = ctypes.c_int
        self.extension = ctypes.CDLL(pysolvers.__file__)  # already loaded: the same copy
        self.pointer = ctypes.pythonapi.PyCapsule_GetPointer
        self.pointer.argtypes = [ctypes.py_object, ctypes.c_char_p]
        self.pointer.restype = ctypes.c_void_p


_NATIVE: list[_Native | None] = []  # built on first use; [None] when not available here


def _native() -> _Native | None:
    if not _NATIVE:
        try:
            _NATIVE.append(_Native())
        except (OSError, AttributeError, ImportError):
            _NATIVE.append(None)
    return _NATIVE[0]


def _native_entry(symbol: str, attribute: str, inner: object) -> tuple[int, int] | None:
    """(the address of ``symbol`` in python-sat's extension, the native solver behind the handle
    ``attribute`` of python-sat's solver object ``inner``), or None where either cannot be had."""
    native = _native()
    function = _symbol_address(symbol)
    if native is None or function is None:
        return None
    try:
        solver = native.pointer(getattr(inner, attribute), None)
    except (AttributeError, ValueError, TypeError):
        return None
    return (function, solver) if solver else None


def _symbol_address(symbol: str) -> int | None:
    """The address of ``symbol`` in python-sat's extension, or None where it cannot be had."""
    native = _native()
    if native is None:
        return None
    try:
        return ctypes.cast(getattr(native.extension, symbol), ctypes.c_void_p).value or None
    except (AttributeError, ValueError, TypeError):
        return None


def _terminate_call(name: str, inner: object) -> tuple[int, int] | None:
    """(address of ``terminate``, the native solver) for python-sat's solver object ``inner``,
    or None where that cannot be had (then the session uses conflict-budget slices)."""
    return _native_entry(*_TERMINATE[name], inner) if name in _TERMINATE else None


#: CaDiCaL's ``Solver::add(int)`` in python-sat's extension, and the attribute of its solver handle.
_ADD = {
    "cadical195": ("_ZN10CaDiCaL1956Solver3addEi", "cadical"),
    "cadical153": ("_ZN10CaDiCaL1536Solver3addEi", "cadical"),
}


def _feed_call(name: str, inner: object) -> tuple[Callable[[int, int, list], int], int, int,
                                                  Callable[[int, int, bytes], int] | None] | None:
    """(the compiled clause feeder, the address of CaDiCaL's ``add``, the native solver, the
    compiled feeder of the flat form or None) for python-sat's solver object ``inner``, or None
    where one of them cannot be had (not Linux, no compiled core, another solver, a python-sat
    whose symbols differ): then clauses go through python-sat's binding, one call each."""
    if name not in _ADD:
        return None
    from .lines.bits import native_core

    core = native_core()
    feed = getattr(core, "feed_clauses", None)
    if feed is None:
        return None
    entry = _native_entry(*_ADD[name], inner)
    return None if entry is None else (feed, *entry, getattr(core, "feed_flat", None))


def feeds_flat(name: str) -> bool:
    """Whether a session of solver ``name`` hands the flat form of an encoding to the solver
    directly (:meth:`SatSession.add_clauses`): then it is the quicker form to encode into."""
    if name not in _ADD:
        return False
    from .lines.bits import native_core

    return getattr(native_core(), "feed_flat", None) is not None and _symbol_address(_ADD[name][0]) is not None


class _Timer:
    """A one-shot timer on the monotonic clock whose expiry calls ``function(solver)`` in a
    new thread of the C library: no Python code, so it runs while the caller holds the GIL."""

    def __init__(self, native: _Native, tid: ctypes.c_void_p) -> None:
        self.native = native
        self.tid = tid

    @classmethod
    def start(cls, stop: tuple[int, int], deadline: float) -> _Timer | None:
        native = _native()
        assert native is not None
        _LATE.reap()
        function, solver = stop
        event = _SigEvent(value=solver, notify=_SIGEV_THREAD, function=function)
        tid = ctypes.c_void_p()
        if native.create(_CLOCK_MONOTONIC, ctypes.byref(event), ctypes.byref(tid)) != 0:
            return None
        timer = cls(native, tid)
        left = max(deadline - time.monotonic(), 1e-6)
        sec = int(left)
        nsec = max(int((left - sec) * 1e9), 0 if sec else 1)  # an all-zero value would disarm it
        spec = _ITimerSpec(value=_TimeSpec(sec, nsec))
        if native.settime(tid, 0, ctypes.byref(spec), None) != 0:
            native.delete(tid)
            return None
        return timer

    def stop(self) -> bool:
        """Disarm the timer; True if it had fired (its notification may still be on its way:
        the timer is then deleted only after ``LATE_GRACE``)."""
        old = _ITimerSpec()
        self.native.settime(self.tid, 0, ctypes.byref(_ITimerSpec()), ctypes.byref(old))
        fired = old.value.sec == 0 and old.value.nsec == 0
        if fired:
            _LATE.add(time.monotonic() + LATE_GRACE, self.tid)
        else:  # disarmed before it expired: no notification will ever come
            self.native.delete(self.tid)
        return fired


class _Late:
    """Timers that fired and the solvers they point at, kept until a late notification cannot
    come any more, then freed.  At exit, what is not due yet is left to the system."""

    def __init__(self) -> None:
        self.items: list[tuple[float, object]] = []

    def add(self, until: float, thing: object) -> None:
        self.items.append((until, thing))

    def reap(self) -> None:
        now = time.monotonic()
        if not any(until <= now for until, _ in self.items):
            return
        due = [thing for until, thing in self.items if until <= now]
        self.items = [(until, thing) for until, thing in self.items if until > now]
        native = _native()
        for thing in due:
            if isinstance(thing, ctypes.c_void_p):
                if native is not None:
                    native.delete(thing)
            else:
                thing.delete()  # type: ignore[attr-defined]

    def at_exit(self) -> None:
        """Forget every solver still held (the process ends: the system takes its memory back,
        sooner than freeing it clause by clause would)."""
        for _, thing in self.items:
            if not isinstance(thing, ctypes.c_void_p):
                _forget_native(thing)  # not even its __del__ may free it now
        self.items = []


_LATE = _Late()
atexit.register(_LATE.at_exit)


def free_deferred() -> None:
    """Free the solvers whose sessions were closed with ``defer`` (and whatever else is due)."""
    _LATE.reap()


def forget_inherited() -> None:
    """In a forked child: forget the solvers and timers the parent was keeping to free later (they
    are the parent's; the child's copies go with the child, which ends without freeing anything)."""
    _LATE.at_exit()


def _forget_native(solver: object) -> None:
    """Unset the native handle of python-sat's solver object, so that nothing (not even its
    ``__del__``) calls the native solver again; its memory is left to the system."""
    inner = getattr(solver, "solver", None)
    if inner is not None:
        for key, value in list(vars(inner).items()):
            if type(value).__name__ == "PyCapsule":  # the native handle: unset, so __del__ skips it
                setattr(inner, key, None)


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
