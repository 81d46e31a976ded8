"""Deadlines that do not perturb the SAT search (issue 19, cause 3).

A call that settles before its deadline must do exactly the search it does without one
(same conflict count, same models), a call that does not is stopped near its deadline with
"unknown" and may be resumed, and a Ctrl-C during a deadline-bound call still stops the
process at once.  Nothing here asserts a duration except generous upper bounds.
"""

from __future__ import annotations

import ctypes
import os
import random
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satnono import Checker, Puzzle, Status
from satnono import sat as sat_module
from satnono.counting import count
from satnono.model import default_palette
from satnono.results import Limits
from satnono.sat import SOLVERS, SatSession

ROOT = Path(__file__).resolve().parents[1]
FAR = 1000.0  # seconds: a deadline that is never reached here


def _picture(seed: int, n: int = 28, colours: int = 2, fill: float = 0.5) -> Puzzle:
    """A random n x n picture: each cell filled with probability ``fill``, in one of
    ``colours`` colours uniformly."""
    rng = random.Random(seed)
    pal = default_palette(colours)
    chars = "".join(c.char for c in pal)[1:]
    grid = tuple("".join(rng.choice(chars) if rng.random() < fill else "." for _ in range(n)) for _ in range(n))
    return Puzzle.from_grid(grid, palette=pal, goal=None)  # the clues alone: a stored picture would spare the search


#: A 28x28 two-colour picture at half fill whose settle needs about 270 conflicts (2,600 without
#: the phases of belief propagation; 0.1 s on an idle machine): found by trying seeds 0, 1, 2, ...
SEARCH = _picture(8)


def _random_3sat(n: int, seed: int, ratio: float = 4.26) -> list[list[int]]:
    """Random 3-SAT; at the threshold ratio (4.26 clauses a variable) hard for its size."""
    rng = random.Random(seed)
    return [[rng.choice([-1, 1]) * rng.randint(1, n) for _ in range(3)] for _ in range(int(ratio * n))]


#: UNSAT, and CaDiCaL needs about 35,000 conflicts to show it (seconds, not milliseconds).
HARD_CNF = _random_3sat(230, 5)
#: Satisfiable and easy.
EASY_CNF = _random_3sat(60, 1, 3.0)
#: Satisfiable, about 2,300 conflicts.
MEDIUM_CNF = _random_3sat(150, 1, 4.1)


def _satisfies(clauses: list[list[int]], model: list[int]) -> bool:
    true = set(model)
    return all(any(lit in true for lit in cl) for cl in clauses)


# --------------------------------------------------------------------------
# The search is the same with and without a deadline


def test_search_puzzle_needs_search():
    """Its first search outlasts the short first try (three calls: the try, the search that goes
    on from the hints, the second solution)."""
    from satnono.solve import FIRST_TRY

    r = Checker().check(SEARCH)
    assert r.status is Status.MULTIPLE
    assert r.stats.conflicts > FIRST_TRY and r.stats.sat_calls == 3


@pytest.mark.parametrize("solver", ["cadical195", "cadical153"])
def test_a_far_deadline_changes_nothing(solver, monkeypatch):
    """Same conflict count, same solutions, same verdict, with and without a deadline; and
    each SAT call is one CaDiCaL call, never a conflict-budget slice: the only budgets are the
    first try's (``first_try`` conflicts, before the hints) and those of the rounds under the
    hints' assumptions (``hunch_budget`` conflicts each), with a deadline or without."""
    from pysat.solvers import Solver

    from satnono.solve import first_try, hunch_budget

    state = Checker(solver).settle(SEARCH).state
    try_, rounds = first_try(state), hunch_budget(state)
    budgets: list[int] = []
    real = Solver.conf_budget

    def spy(self, budget=-1):
        budgets.append(budget)
        return real(self, budget)

    monkeypatch.setattr(Solver, "conf_budget", spy)
    plain = Checker(solver).check(SEARCH)
    plain_budgets, budgets[:] = budgets[:], []
    timed = Checker(solver).check(SEARCH, timeout=FAR)
    assert budgets == plain_budgets and budgets[0] == try_
    assert len(budgets) >= 2 and set(budgets[1:]) == {rounds}
    assert timed.status is plain.status is Status.MULTIPLE
    assert timed.stats.conflicts == plain.stats.conflicts > 0
    assert timed.stats.sat_calls == plain.stats.sat_calls
    assert timed.solutions == plain.solutions
    assert all(SEARCH.is_solution(s) for s in timed.solutions)


def test_a_far_deadline_changes_nothing_in_a_session():
    with SatSession(HARD_CNF) as plain, SatSession(HARD_CNF) as timed:
        assert plain.solve(None) is False
        assert timed.solve(time.monotonic() + FAR) is False
        assert timed.conflicts == plain.conflicts > 10000
        assert not timed.timed_out


def test_count_with_and_without_a_deadline():
    plain = count(SEARCH, max_solutions=3)
    timed = count(SEARCH, max_solutions=3, limits=Limits(FAR))
    assert (timed.count, timed.exact, timed.status, timed.solution) == (plain.count, plain.exact, plain.status,
                                                                         plain.solution)


@pytest.mark.parametrize("name", list(SOLVERS))
def test_every_backend_under_a_deadline(name):
    """Every back end gives the no-deadline verdict under a far deadline, and a model that
    satisfies the clauses (checked here, not by the solver)."""
    with SatSession(EASY_CNF, name) as s:
        assert s.solve(time.monotonic() + FAR) is True
        assert _satisfies(EASY_CNF, s.model())
        assert not s.timed_out and s.resumable
    p = _picture(3, n=12, colours=2)
    assert Checker(name).check(p, timeout=FAR).solutions == Checker(name).check(p).solutions


# --------------------------------------------------------------------------
# A near deadline: unknown, promptly, and the session can go on


@pytest.mark.parametrize("solver", ["cadical195", "cadical153", "glucose4"])
def test_a_near_deadline_gives_unknown_and_the_session_goes_on(solver):
    with SatSession(HARD_CNF, solver) as s:
        t0 = time.monotonic()
        r = s.solve(t0 + 0.2)
        took = time.monotonic() - t0
        assert r is None and s.timed_out and s.resumable
        assert took < 15  # generous: the deadline is 0.2 s away
        stopped_at = s.conflicts
        # continued without a deadline: the verdict is the true one (UNSAT, as a fresh session says)
        assert s.solve(None) is False and not s.timed_out
        assert s.conflicts > stopped_at


def test_check_with_a_tiny_timeout_is_unknown():
    t0 = time.monotonic()
    r = Checker().check(SEARCH, timeout=1e-3)
    assert r.status is Status.UNKNOWN and r.reason
    assert time.monotonic() - t0 < 15


def test_a_deadline_already_passed_never_enters_the_solver():
    with SatSession(EASY_CNF) as s:
        assert s.solve(time.monotonic() - 1) is None
        assert s.timed_out and s.conflicts == 0
        assert s.solve(None) is True


def _terminate_now(session: SatSession) -> None:
    """Call CaDiCaL 1.9.5's asynchronous terminate() on the session's native solver, as a
    deadline timer that fires just after a call has returned does."""
    import pysolvers

    function = ctypes.CDLL(pysolvers.__file__)["_ZN10CaDiCaL1956Solver9terminateEv"]
    function.argtypes = [ctypes.c_void_p]
    function.restype = None
    get = ctypes.pythonapi.PyCapsule_GetPointer
    get.argtypes = [ctypes.py_object, ctypes.c_char_p]
    get.restype = ctypes.c_void_p
    function(get(session._solver.solver.cadical, None))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the native deadline timer is Linux only")
@pytest.mark.parametrize("with_deadline", [False, True])
def test_a_late_terminate_does_not_stop_the_next_call(with_deadline):
    """CaDiCaL keeps a terminate() that comes between calls for the next call, which then
    stops at once; python-sat's plain solve() would even report that as False (UNSAT)."""
    with SatSession(MEDIUM_CNF) as s:
        _terminate_now(s)  # as if an earlier call's timer fired after that call had returned
        assert s.solve(time.monotonic() + FAR if with_deadline else None) is True
        assert _satisfies(MEDIUM_CNF, s.model()) and not s.timed_out
        assert s.conflicts > 1000  # it did search (a formula that needs no conflict might not look at the flag)


def test_the_budget_fallback_where_no_native_timer(monkeypatch):
    """Without POSIX timers (not Linux) CaDiCaL keeps deadlines with conflict-budget slices."""
    monkeypatch.setattr(sat_module, "_NATIVE", [None])
    with SatSession(HARD_CNF) as s:
        assert s._limit == "budget"
        assert s.solve(time.monotonic() + 0.2) is None and s.timed_out and s.resumable
        assert s.solve(None) is False
    r = Checker().check(SEARCH, timeout=FAR)
    assert r.status is Status.MULTIPLE and r.solutions == Checker().check(SEARCH).solutions


def test_a_closed_session_after_a_deadline_frees_later():
    """A session whose timer fired is freed only after the grace period (a late notification
    may still reach the solver); the session is closed and no longer resumable at once."""
    s = SatSession(HARD_CNF)
    for wait in (0.05, 0.5, 2.0):  # a stall before the call starts may pass a short deadline before the timer starts
        assert s.solve(time.monotonic() + wait) is None
        if s._late_until:  # the timer fired
            break
    s.close()
    assert not s.resumable
    assert any(until > time.monotonic() for until, _ in sat_module._LATE.items)


# --------------------------------------------------------------------------
# Ctrl-C during a deadline-bound call: the user's, told apart from the deadline


def test_ctrl_c_during_a_deadline_bound_call_is_a_keyboard_interrupt():
    code = """
import os, random, subprocess, time
from satnono.sat import SatSession
rng = random.Random(5); n = 330  # minutes of search
clauses = [[rng.choice([-1, 1]) * rng.randint(1, n) for _ in range(3)] for _ in range(int(4.26 * n))]
s = SatSession(clauses)
# from another process: no thread of this one runs while CaDiCaL holds the GIL
killer = subprocess.Popen(["sh", "-c", "sleep 1; kill -INT " + str(os.getpid())])
t0 = time.monotonic()
try:
    r = s.solve(time.monotonic() + 300)
    print("returned", r)
except KeyboardInterrupt:
    print("interrupted", round(time.monotonic() - t0), s.resumable, s.timed_out)
s.add_clause([1, 2])  # ignored: the native solver is never touched again
s.close()
killer.wait()
"""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert out.returncode == 0, (out.returncode, out.stdout, out.stderr)
    word, seconds, resumable, timed_out = out.stdout.split()
    assert word == "interrupted" and int(seconds) < 30 and resumable == "False" and timed_out == "False"


# --------------------------------------------------------------------------
# A conflict budget (the first try before the hints of belief propagation)


@pytest.mark.parametrize("solver,deadline", [("cadical195", None), ("cadical195", FAR), ("glucose4", None),
                                             ("glucose4", FAR), ("budget-fallback", FAR)])
def test_a_budget_stops_the_call_and_the_session_goes_on(solver, deadline, monkeypatch):
    """A call with a conflict budget stops at about that many conflicts, says so (not a
    timeout), and the session goes on to the true verdict."""
    if solver == "budget-fallback":
        monkeypatch.setattr(sat_module, "_NATIVE", [None])
        solver = "cadical195"
    with SatSession(HARD_CNF, solver) as s:
        r = s.solve(None if deadline is None else time.monotonic() + deadline, budget=500)
        assert r is None and s.out_of_budget and not s.timed_out and s.resumable
        # (CaDiCaL stops at the budget; Glucose looks at it only between restarts)
        assert 500 <= s.conflicts and (s.conflicts < 600 or solver == "glucose4")
        assert s.solve(None) is False and not s.out_of_budget
        assert s.conflicts > 10000
    with SatSession(HARD_CNF, solver) as s:
        assert s.solve(None, budget=0) is None and s.out_of_budget and s.conflicts == 0
    with SatSession(EASY_CNF, solver) as s:  # settled within the budget: an answer
        assert s.solve(None, budget=10000) is True and not s.out_of_budget
        assert _satisfies(EASY_CNF, s.model())


def test_the_deadline_still_holds_with_a_budget():
    with SatSession(HARD_CNF) as s:
        t0 = time.monotonic()
        assert s.solve(t0 + 0.2, budget=10**9) is None
        assert s.timed_out and not s.out_of_budget
        assert time.monotonic() - t0 < 15  # generous


def test_hints_only_for_a_first_search_past_the_first_try(monkeypatch):
    """An easy first search never pays for belief propagation; a longer one gets it once."""
    from satnono.logic import beliefs

    calls: list[int] = []
    real = beliefs.phase_hints

    def spy(state, rounds=None, deadline=None):
        calls.append(state.unknown_count())
        return real(state, rounds, deadline)

    monkeypatch.setattr(beliefs, "phase_hints", spy)
    easy = _picture(3, n=12, colours=2)
    r = Checker().check(easy)
    assert r.stats.sat_calls == 2 and r.stats.conflicts < 300 and calls == []
    r = Checker().check(SEARCH)
    assert r.stats.sat_calls == 3 and len(calls) == 1


@pytest.mark.parametrize("solver", ["glucose4", "minisat22"])
def test_a_budget_is_for_one_call_only(solver):
    """A MiniSat-family budget lasts until switched off: the call after a budgeted one must not
    stop at it (a settle with Glucose under --timeout said "unknown" at once)."""
    with SatSession(HARD_CNF, solver) as s:
        assert s.solve(None, budget=100) is None and s.out_of_budget
        assert s.solve(None) is False and not s.out_of_budget
    with SatSession(HARD_CNF, solver) as s:
        assert s.solve(time.monotonic() + FAR, budget=100) is None and s.out_of_budget
        assert s.solve(time.monotonic() + FAR) is False and not s.timed_out
    assert Checker(solver).check(SEARCH, timeout=FAR).status is Status.MULTIPLE
