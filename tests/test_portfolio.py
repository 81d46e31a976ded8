"""``jobs=N``: a portfolio of searches of one puzzle (satnono.portfolio), the first answer wins.

Verdicts against brute force (tests/_oracles.py, tests/_triddler_oracle.py) and the bundled
puzzles' known verdicts with 1, 2 and 3 jobs, forked members and fresh ones; member 0 searching
exactly as the one search; members that raise, die or report a wrong solution; a timeout; the
memory limit; counting; settles kept open.  No process is left behind (the command line's
cases: tests/test_portfolio_cli.py).  Safety limits only: nothing asserts how fast anything is."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from _oracles import puzzle_solutions
from _triddler_oracle import brute_force, random_puzzle

from satnono import solve
from satnono.counting import count
from satnono.lanes import Triangle
from satnono.model import Puzzle
from satnono.palette import default_palette
from satnono.portfolio import LocalPortfolio, members
from satnono.results import Limits, Status
from satnono.solve import Checker, InternalError, Member, Outcome

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
#: a 40x33 two-colour picture whose first SAT search takes seconds (see tests/test_interrupt.py)
HARD = str(ROOT / "tests" / "data" / "long-search-colour.json")
psutil = pytest.importorskip("psutil")


def _picture(rng: random.Random, h: int, w: int, colours: int) -> Puzzle:
    chars = ".#" if colours == 1 else "." + "abc"[:colours]
    fill = rng.uniform(0.4, 0.65)
    grid = ["".join(rng.choice(chars[1:]) if rng.random() < fill else "." for _ in range(w)) for _ in range(h)]
    p = Puzzle.from_grid(grid, palette=None if colours == 1 else default_palette(colours))
    return p.replace(goal=None)


def _expected(p) -> Status:  # type: ignore[no-untyped-def]
    n = len(puzzle_solutions(p, limit=2) if isinstance(p, Puzzle) else brute_force(p, limit=2))
    return Status.NONE if n == 0 else Status.UNIQUE if n == 1 else Status.MULTIPLE


def _small_puzzles(seed: int, n: int) -> list:
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        p = _picture(rng, rng.randint(4, 6), rng.randint(4, 6), rng.choice((1, 1, 2)))
        if rng.random() < 0.2:  # a clue changed: often no solution
            rows = list(p.rows)
            rows[0] = (*rows[0][:-1], rows[0][-1] + 1) if rows[0] else (1,)
            p = Puzzle.from_clues(rows, p.columns) if not p.is_color else p
        out.append(p)
    return out


def _assert_result(p, res, status: Status) -> None:  # type: ignore[no-untyped-def]
    assert res.status is status, (res.status, status, res.reason)
    for s in res.solutions:
        assert p.is_solution(s)
    if status is Status.MULTIPLE:
        assert res.solutions[0] != res.solutions[1]
    assert len(res.solutions) == {Status.UNIQUE: 1, Status.MULTIPLE: 2, Status.NONE: 0}[status]


_EARLIER: set[int] = set()


TRY_SECOND = solve._Search.try_second


@pytest.fixture(autouse=True)
def _members_at_once(monkeypatch):
    """The members start where the searches part, the second search's short try
    (:meth:`satnono.solve._Search.try_second`) left out, so that the small puzzles of these
    tests reach them; the test of the try puts it back."""
    monkeypatch.setattr(solve._Search, "try_second", lambda self: None)


@pytest.fixture(autouse=True)
def _earlier_children():
    """The processes this test process had before the test (a pool or server another test left
    running): not the portfolio's, so not counted by :func:`_children`."""
    _EARLIER.clear()
    _EARLIER.update(p.pid for p in psutil.Process().children(recursive=True))


def _children() -> list:
    """The processes this test process started during the test that are still there."""
    return [p for p in psutil.Process().children(recursive=True) if p.pid not in _EARLIER]


@pytest.mark.parametrize("short_try", [False, True])
def test_verdicts_as_brute_force_with_one_two_and_three_jobs(monkeypatch, short_try):
    """The same verdicts as the oracle's enumeration; with ``short_try`` the first try is one
    conflict, so that most searches part before the hints (the members' own searches)."""
    if short_try:
        monkeypatch.setattr(solve, "FIRST_TRY", 1)
    checker = Checker()
    searched = 0
    for p in _small_puzzles(41 + short_try, 60):
        expected = _expected(p)
        for jobs in (1, 2, 3):
            res = checker.check(p, jobs=jobs)
            _assert_result(p, res, expected)
            assert (res.cpu_seconds is None) == (jobs == 1)
            searched += res.jobs > 1
    assert searched > 20  # (the portfolio ran, not line logic alone)
    assert not _children()


def test_triddlers_keep_their_verdicts():
    """Triddlers (lanes of three families) with 1, 2 and 3 jobs, against enumeration."""
    rng = random.Random(7)
    shapes = (Triangle.hexagon(2), Triangle.parallelogram(3, 4), Triangle.triangle(4))
    searched = 0
    for _ in range(40):
        p = random_puzzle(rng, rng.choice(shapes), rng.choice((1, 2)))
        expected = _expected(p)
        for jobs in (1, 2, 3):
            res = Checker().check(p, jobs=jobs)
            _assert_result(p, res, expected)
            searched += res.jobs > 1
    assert searched > 10


def _bundled(limit: int = 12) -> list[tuple[Path, Status]]:
    out = []
    for line in (PUZZLES / "expected.txt").read_text().splitlines():
        parts = line.split()
        if line.startswith("#") or len(parts) < 3 or "slow" in parts or parts[2] != "no":
            continue
        out.append((PUZZLES / parts[0], Status(parts[1])))
    return out[:limit]


@pytest.mark.parametrize("fresh", [False, True])
def test_bundled_puzzles_that_need_search_keep_their_verdicts(fresh):
    from satnono.formats import load

    cases = _bundled(6 if fresh else 12)
    assert cases
    checker = Checker(portfolio=LocalPortfolio(fresh=fresh))
    for path, status in cases:
        p = load(str(path))
        for jobs in (2, 3):
            res = checker.check(p.replace(goal=None), jobs=jobs)
            assert res.status is status, (path, jobs, res.reason)
            for s in res.solutions:
                assert p.is_solution(s)


class _MemberZeroOnly(LocalPortfolio):
    """A portfolio that runs its first member alone (forked, or fresh)."""

    def run(self, search, members):  # type: ignore[no-untyped-def]
        return super().run(search, members[:1])


@pytest.mark.parametrize("fresh", [False, True])
def test_member_0_searches_exactly_as_the_one_search(fresh):
    """Member 0, forked where the searches part or fresh in a process of its own, answers as the
    one search does: the same solutions, SAT calls and conflicts."""
    from satnono.formats import load

    for path, _ in _bundled(5):
        p = load(str(path)).replace(goal=None)
        one = Checker().check(p)
        res = Checker(portfolio=_MemberZeroOnly(fresh=fresh)).check(p, jobs=2)
        assert (res.status, res.solutions, res.stats.sat_calls, res.stats.conflicts) == \
            (one.status, one.solutions, one.stats.sat_calls, one.stats.conflicts), path


def test_member_0_wins_when_the_others_fail(monkeypatch):
    finish = solve._Search.finish

    def others_raise(self):  # type: ignore[no-untyped-def]
        if self.member != Member():
            raise ValueError("injected")
        return finish(self)

    monkeypatch.setattr(solve._Search, "finish", others_raise)
    from satnono.formats import load

    p = load(str(_bundled(1)[0][0])).replace(goal=None)
    one = Checker().check(p)
    res = Checker().check(p, jobs=3)
    assert (res.solutions, res.stats.conflicts, res.jobs) == (one.solutions, one.stats.conflicts, 3)


def _needs_search() -> Puzzle:
    from satnono.formats import load

    return load(str(PUZZLES / "dom" / "12-dom.xml")).replace(goal=None)


def test_a_member_that_raises_is_out_and_the_others_answer(monkeypatch):
    finish = solve._Search.finish

    def zero_raises(self):  # type: ignore[no-untyped-def]
        if self.member == Member():
            raise ValueError("injected")
        return finish(self)

    monkeypatch.setattr(solve._Search, "finish", zero_raises)
    p = _needs_search()
    res = Checker().check(p, jobs=2)
    assert res.status is Status.UNIQUE and res.jobs == 2
    assert not _children()


def test_when_every_member_raises_the_first_ones_error_is_raised(monkeypatch):
    def raises(self):  # type: ignore[no-untyped-def]
        raise ValueError(f"injected in member {members(3).index(self.member)}")

    monkeypatch.setattr(solve._Search, "finish", raises)
    with pytest.raises(ValueError, match="injected in member 0"):
        Checker().check(_needs_search(), jobs=3)
    assert not _children()


def test_a_member_that_dies_is_out(monkeypatch):
    finish = solve._Search.finish

    def zero_dies(self):  # type: ignore[no-untyped-def]
        if self.member == Member():
            os.kill(os.getpid(), signal.SIGKILL)
        return finish(self)

    monkeypatch.setattr(solve._Search, "finish", zero_dies)
    res = Checker().check(_needs_search(), jobs=2)
    assert res.status is Status.UNIQUE
    monkeypatch.setattr(solve._Search, "finish", lambda self: os._exit(3))
    with pytest.raises(RuntimeError, match="search 0 of the portfolio ended without an answer"):
        Checker().check(_needs_search(), jobs=2)
    assert not _children()


def test_a_wrong_solution_from_a_member_is_an_internal_error(monkeypatch):
    p = _needs_search()
    wrong = tuple("#" * p.width for _ in range(p.height))
    monkeypatch.setattr(solve._Search, "finish", lambda self: Outcome(Status.UNIQUE, (wrong,)))
    with pytest.raises(InternalError):
        Checker().check(p, jobs=2)
    assert not _children()


def test_timeout_stops_every_member():
    from satnono.formats import load

    p = load(HARD)
    res = Checker().check(p, timeout=1.0, jobs=2)
    assert res.status is Status.UNKNOWN and res.jobs == 2
    assert res.cpu_seconds is not None and res.cpu_seconds > 0
    assert not _children()


def test_too_little_memory_for_the_copies_means_fewer_members():
    from satnono.cnf.encode import estimate
    from satnono.lines import LineSolver
    from satnono.logic.propagate import propagate
    from satnono.logic.state import initial_state
    from satnono.sat import feeds_flat, memory_needed

    p = _needs_search()
    state = initial_state(p)
    lines = LineSolver()
    propagate(state, lines)
    need = memory_needed(*estimate(state, lines), lists=not feeds_flat("cadical195"))
    assert Checker(max_memory=int(need * 2.5)).check(p, jobs=3).jobs == 1  # this process and one member: not two
    assert Checker(max_memory=int(need * 3.5)).check(p, jobs=3).jobs == 2
    res = Checker(max_memory=int(need * 1.5)).check(p, jobs=3)
    assert res.jobs == 1 and res.status is Status.UNIQUE


def test_counting_with_jobs_counts_as_with_one():
    checker_counts = []
    for p in _small_puzzles(5, 25):
        expected = len(puzzle_solutions(p))
        for jobs in (1, 2):
            res = count(p, limits=Limits(jobs=jobs))
            assert res.exact and res.count == expected
        checker_counts.append(expected)
    assert max(checker_counts) >= 2


def test_keep_open_takes_the_winners_first_solution():
    """A settle kept open for counting (one solution) or probing (two) gives a session that
    holds the winner's first solution blocked when the winner went on past it."""
    p = _needs_search()
    st = Checker().settle(p, limits=Limits(jobs=2), solutions=1, keep_open=True)
    try:
        assert st.sat is not None and st.first_model is not None
        assert st.sat.solve()  # (not blocked: the solution itself is still there)
    finally:
        st.close()
    st = Checker().settle(p, limits=Limits(jobs=2), keep_open=True)
    try:
        assert st.result.status is Status.UNIQUE
        assert st.sat is not None and st.sat.solve() is False  # its only solution is blocked
    finally:
        st.close()


def test_members_are_diverse_and_member_0_is_the_one_search():
    assert members(1) == [Member()]
    many = members(9)
    assert len(set(many)) == 9
    assert Limits(jobs="auto").job_count() == len(os.sched_getaffinity(0))


def test_members_that_cannot_be_started_are_out(monkeypatch):
    """When the system will not start another process, the members started go on."""
    from satnono import portfolio

    fork = portfolio.LocalPortfolio._fork
    started = []

    def fork_once(search, member, pids):  # type: ignore[no-untyped-def]
        if started:
            raise BlockingIOError(11, "Resource temporarily unavailable")
        started.append(member)
        return fork(search, member, pids)

    monkeypatch.setattr(portfolio.LocalPortfolio, "_fork", staticmethod(fork_once))
    res = Checker().check(_needs_search(), jobs=3)
    assert res.status is Status.UNIQUE and started == [Member()]
    assert not _children()


class _Recording(LocalPortfolio):
    """A portfolio that notes the stage each search is at when its members start."""

    def __init__(self) -> None:
        super().__init__()
        self.stages: list[str] = []

    def run(self, search, members):  # type: ignore[no-untyped-def]
        self.stages.append(search.stage)
        return super().run(search, members)


def test_a_second_search_settled_within_its_try_starts_no_member(monkeypatch):
    """A second search gets a short try in this process before the members start: the small
    puzzles whose second search is that short start none; the members of the others go on from
    the try (stage ``proving``) or from the hints.  Verdicts: brute force, and the bundled
    puzzles' known ones."""
    from satnono.formats import load

    answers = []

    def noted(self):  # type: ignore[no-untyped-def]
        answers.append(TRY_SECOND(self))
        return answers[-1]

    monkeypatch.setattr(solve._Search, "try_second", noted)
    portfolio = _Recording()
    for p in _small_puzzles(43, 60):
        before = len(portfolio.stages)
        res = Checker(portfolio=portfolio).check(p, jobs=2)
        _assert_result(p, res, _expected(p))
        assert (res.jobs == 1) == (len(portfolio.stages) == before)
    settled = sum(a is not None for a in answers)
    assert settled >= 10  # (the bundled puzzles below include second searches longer than the try)
    for path, status in _bundled(12):
        p = load(str(path))
        # (kept open, as count and probing keep it: the session holds the first solution blocked)
        st = Checker(portfolio=portfolio).settle(p.replace(goal=None), limits=Limits(jobs=2), keep_open=True)
        try:
            res = st.result
            assert res.status is status, (path, res.reason)
            for s in res.solutions:
                assert p.is_solution(s)
            if status is Status.UNIQUE:
                assert st.sat is not None and st.sat.solve() is False
        finally:
            st.close()
    assert set(portfolio.stages) == {"hints", "proving"}, portfolio.stages
    assert not _children()
