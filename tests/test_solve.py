"""Verdicts against brute force; encoding exactness; timeouts, givens, back ends."""

from __future__ import annotations

import collections
import random
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Checker, Puzzle, Status, check
from satnono.encode import encode
from satnono.linesolve import LineSolver
from satnono.model import clues_of_grid
from satnono.propagate import GridState, propagate
from satnono.sat import SOLVERS, SatSession

from _brute import brute_force_solutions
from _encode_ref import reference_line_clauses


def all_grids(h, w):
    for bits in range(1 << (h * w)):
        yield tuple("".join("#" if bits >> (r * w + c) & 1 else "." for c in range(w)) for r in range(h))


def test_every_clue_set_up_to_4x4_matches_brute_force():
    """Every puzzle that has a solution, up to 4x4: unique iff exactly one grid has its clues."""
    checker = Checker()
    seen = 0
    for h, w in [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 3), (4, 4)]:
        groups = collections.Counter(clues_of_grid(g) for g in all_grids(h, w))
        for (rows, cols), n in groups.items():
            res = checker.check(Puzzle(rows, cols))
            assert res.status == (Status.UNIQUE if n == 1 else Status.MULTIPLE), (rows, cols, n)
            assert all(Puzzle(rows, cols).is_solution(s) for s in res.solutions)
            if res.line_solvable:
                assert res.status is Status.UNIQUE
            seen += 1
    assert seen > 52362  # all 4x4 unique clue sets alone are 52362 (OEIS A242876)


def test_clue_sets_without_solution_up_to_3x3():
    """Random clue combinations that no grid has must get 'none'; those some grid has must not."""
    rng = random.Random(3)
    checker = Checker()
    for h, w in [(2, 2), (2, 3), (3, 3), (3, 4)]:
        groups = collections.Counter(clues_of_grid(g) for g in all_grids(h, w))
        row_clues = sorted({r for rows, _ in groups for r in rows})
        col_clues = sorted({c for _, cols in groups for c in cols})
        for _ in range(400):
            rows = tuple(rng.choice(row_clues) for _ in range(h))
            cols = tuple(rng.choice(col_clues) for _ in range(w))
            res = checker.check(Puzzle(rows, cols))
            n = groups.get((rows, cols), 0)
            want = Status.NONE if n == 0 else Status.UNIQUE if n == 1 else Status.MULTIPLE
            assert res.status is want, (rows, cols)
            if want is Status.NONE:
                assert res.reason


@settings(max_examples=150, deadline=None)
@given(st.integers(1, 9), st.integers(1, 9), st.randoms(use_true_random=False), st.floats(0.2, 0.8))
def test_random_grid_round_trip(h, w, rng, density):
    """A random grid's clues solve back to a grid with the same clues."""
    grid = tuple("".join("#" if rng.random() < density else "." for _ in range(w)) for _ in range(h))
    p = Puzzle.from_grid(grid)
    res = check(p)
    assert res.status in (Status.UNIQUE, Status.MULTIPLE)
    for s in res.solutions:
        assert clues_of_grid(s) == (p.rows, p.columns)
    if res.status is Status.UNIQUE:
        assert res.solutions[0] == grid
    else:
        assert len(res.solutions) == 2 and res.solutions[0] != res.solutions[1]
        assert res.diff and all(res.solutions[0][r][c] != res.solutions[1][r][c] for r, c in res.diff)


def _enumerate_cnf(p: Puzzle) -> int:
    """Number of solutions by blocking-clause enumeration over the residue CNF."""
    ls = LineSolver()
    state = GridState(p)
    if propagate(state, ls) is not None:
        return 0
    if state.is_complete():
        return 1
    enc = encode(state, ls)
    n = 0
    with SatSession(enc.clauses) as s:
        while s.solve():
            m = s.model()
            n += 1
            s.add_clause([-m[v - 1] for v in enc.unknown_vars])
    return n


def test_encoding_is_exact_on_random_puzzles():
    """The residue CNF has exactly as many models (over unknown cells) as the puzzle has solutions."""
    rng = random.Random(5)
    for _ in range(150):
        h, w = rng.randint(2, 6), rng.randint(2, 6)
        grid = tuple("".join("#" if rng.random() < rng.choice((0.35, 0.5, 0.65)) else "." for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid)
        assert _enumerate_cnf(p) == len(brute_force_solutions(p)), grid


def test_line_clauses_equal_the_reference_encoder():
    """The range-computing line encoder emits exactly the clauses of the build-then-fold reference."""
    from satnono.cnf.ladders import bw_line_clauses as _line_clauses
    from satnono.linesolve import solve_line

    rng = random.Random(77)
    checked = 0
    for _ in range(3000):
        n = rng.randint(1, 30)
        line = [rng.random() < rng.choice((0.3, 0.5, 0.7)) for _ in range(n)]
        clue = tuple(len(run) for run in "".join("#" if b else "." for b in line).split(".") if run)
        # known cells: a random subset of the placement's cells (the rest unknown), so
        # cells the line forces may still be unknown, as in an unpropagated state
        keep = rng.choice((0.0, 0.2, 0.5, 0.8))
        black = sum(1 << i for i, b in enumerate(line) if b and rng.random() < keep)
        white = sum(1 << i for i, b in enumerate(line) if not b and rng.random() < keep)
        res = solve_line(clue, n, black, white)
        assert res is not None
        first = rng.randint(1, 50) + n
        cell = (lambda i: i + 1) if rng.random() < 0.5 else (lambda i, s=rng.randint(1, 9): i * s + 3)
        got, got_next = _line_clauses(first, clue, n, res.starts, black, white, cell)
        want, want_next = reference_line_clauses(first, clue, n, res.starts, black, white, cell)
        assert got_next == want_next
        assert sorted(map(sorted, got)) == sorted(map(sorted, want)), (clue, n, bin(black), bin(white))
        checked += 1
    assert checked > 2500


def test_known_black_cells_keep_their_cover_clauses():
    """Regression for the pitfall in the encodings guide: a combination of blocks must not skip a known black cell."""
    rng = random.Random(1234)
    checked = 0
    while checked < 40:
        grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(6)) for _ in range(6))
        p = Puzzle.from_grid(grid)
        ls = LineSolver()
        st_ = GridState(p)
        propagate(st_, ls)
        if st_.is_complete() or not any(st_.row_black):
            continue
        checked += 1
        assert _enumerate_cnf(p) == len(brute_force_solutions(p))


def test_encoding_leaves_the_garbage_collector_as_it_found_it():
    import gc

    p = Puzzle.from_grid(["#.", ".#"])  # two solutions: nothing propagates
    st_ = GridState(p)
    ls = LineSolver()
    assert propagate(st_, ls) is None
    was = gc.isenabled()
    try:
        for enabled in (True, False):
            gc.enable() if enabled else gc.disable()
            assert encode(st_, ls).clauses
            assert gc.isenabled() is enabled
            with pytest.raises(ValueError):  # an inconsistent state: the error passes, the collector is restored
                bad = GridState(p)
                bad.set_cell(0, 0, True)
                bad.set_cell(0, 1, True)
                encode(bad, ls, rows=[0], columns=[])
            assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()


def test_none_reasons():
    res = check(Puzzle.from_clues([[2, 1], [0]], [[1], [1], [1]]))
    assert res.status is Status.NONE and "row 1" in res.reason and "needs 4 cells" in res.reason
    res = check(Puzzle.from_clues([[1], [1]], [[1], [0]]))
    assert res.status is Status.NONE and "total" in res.reason
    res = check(Puzzle.from_clues([[1, 1], [0], [1, 1]], [[2], [0], [2]]))
    assert res.status is Status.NONE


def test_empty_and_full():
    assert check(Puzzle.from_clues([[0]] * 3, [[0]] * 4)).solutions == (("....",) * 3,)
    r = check(Puzzle.from_clues([[4]] * 3, [[3]] * 4))
    assert r.status is Status.UNIQUE and r.line_solvable and r.solutions == (("####",) * 3,)


def test_givens():
    p = Puzzle.from_grid(["#.", ".#"])
    assert check(p).status is Status.MULTIPLE
    r = check(p, givens={(0, 0): True})
    assert r.status is Status.UNIQUE and r.solutions == (("#.", ".#"),)
    r = check(p, givens={(0, 0): True, (1, 0): True})
    assert r.status is Status.NONE and "given" in r.reason


@pytest.mark.parametrize("name", list(SOLVERS))
def test_every_backend(name):
    p = Puzzle.from_grid(["#..#", ".##.", ".##.", "#..#"])
    r = check(p, solver=name)
    assert r.status is Status.MULTIPLE
    n_queens = Puzzle.from_clues([[1]] * 5, [[1]] * 5)  # 5! solutions
    assert check(n_queens, solver=name).status is Status.MULTIPLE
    uniq = Puzzle.from_grid(["##.", "#..", "###"])
    assert check(uniq, solver=name).status is Status.UNIQUE


def _hard_puzzle() -> Puzzle:
    """A 45x45 random picture at density 0.5: line logic leaves most of it open."""
    rng = random.Random(0)
    grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(45)) for _ in range(45))
    return Puzzle.from_grid(grid)


@pytest.mark.parametrize("name", ["cadical195", "glucose4"])
def test_timeout_gives_unknown_promptly(name):
    p = _hard_puzzle()
    t0 = time.monotonic()
    r = check(p, timeout=0.05, solver=name)
    took = time.monotonic() - t0
    # Either settled that fast, or honest 'unknown' close to the limit (generous bound for slow CI machines).
    assert r.status in (Status.UNKNOWN, Status.MULTIPLE, Status.UNIQUE)
    if r.status is Status.UNKNOWN:
        assert r.reason and took < 1.0


def _search_puzzle(min_conflicts: int) -> Puzzle:
    """A random 30x30 picture whose check needs at least ``min_conflicts`` CaDiCaL conflicts."""
    for seed in range(100):
        rng = random.Random(seed)
        grid = tuple("".join("#" if rng.random() < 0.5 else "." for _ in range(30)) for _ in range(30))
        p = Puzzle.from_grid(grid)
        if check(p).stats.conflicts >= min_conflicts:
            return p
    raise AssertionError("no such puzzle")


def test_cadical_deadline_slices(monkeypatch):
    """Where the native deadline timer is missing (not Linux) CaDiCaL runs under a deadline in
    conflict-budget slices: a long first one, then by the measured rate."""
    from pysat.solvers import Solver

    from satnono import sat

    monkeypatch.setattr(sat, "_NATIVE", [None])  # as on a platform without POSIX timers

    budgets: list[int] = []
    original = Solver.conf_budget

    def recording(self, budget=-1):
        budgets.append(budget)
        return original(self, budget)

    monkeypatch.setattr(Solver, "conf_budget", recording)
    p = _search_puzzle(300)
    plain = check(p)
    # a generous deadline: each of the two calls finishes in its first slice, sized from the clause count
    r = check(p, timeout=60)
    assert r.status is plain.status is Status.MULTIPLE
    assert len(budgets) == 2
    rate = SatSession.SLOW_RATE * (10000 / max(10000, r.stats.cnf_clauses)) ** 0.5
    assert 0.9 * rate * 60 * SatSession.FIRST_SHARE <= budgets[0] <= rate * 60 * SatSession.FIRST_SHARE
    # a pessimistic rate: the first slice is the shortest allowed, the search goes on in later slices
    budgets.clear()
    monkeypatch.setattr(SatSession, "SLOW_RATE", 1e-3)
    r = check(p, timeout=60)
    assert r.status is Status.MULTIPLE and r.stats.conflicts >= 300
    assert budgets[0] == SatSession.MIN_SLICE and len(budgets) >= 3
    assert budgets[1] > SatSession.MIN_SLICE  # from the rate measured on the first slice


def test_unknown_keeps_the_solution_found():
    """Timing out in the uniqueness proof still returns the (verified) first solution."""
    from satnono import sat as solve_mod  # the settle pipeline opens its session from satnono.sat

    p = Puzzle.from_grid(["#..#", ".##.", ".##.", "#..#"])
    calls = []

    class Session(solve_mod.SatSession):
        def solve(self, deadline=None, assumptions=()):
            calls.append(1)
            if len(calls) == 2:
                return None
            return super().solve(deadline, assumptions)

    orig = solve_mod.SatSession
    solve_mod.SatSession = Session
    try:
        r = check(p)
    finally:
        solve_mod.SatSession = orig
    assert r.status is Status.UNKNOWN and len(r.solutions) == 1 and p.is_solution(r.solutions[0])


def test_grid_helpers_against_cell_by_cell_definitions():
    """Masks -> rows and grid -> clues, checked against plain per-cell definitions."""
    from satnono.model import clues_of_grid, grid_from_masks

    rng = random.Random(11)
    for _ in range(300):
        h, w = rng.randint(1, 12), rng.randint(1, 70)
        masks = [rng.getrandbits(w + 3) for _ in range(h)]  # stray high bits are ignored
        grid = grid_from_masks(masks, w)
        assert grid == tuple("".join("#" if m >> c & 1 else "." for c in range(w)) for m in masks)
        rows, cols = clues_of_grid(grid)

        def runs(cells):
            out, n = [], 0
            for ch in cells + ".":
                if ch == "#":
                    n += 1
                elif n:
                    out.append(n)
                    n = 0
            return tuple(out)

        assert rows == tuple(runs(r) for r in grid)
        assert cols == tuple(runs("".join(r[c] for r in grid)) for c in range(w))
        assert Puzzle(rows, cols).is_solution(grid)
        assert not Puzzle(rows, cols).is_solution(grid[:-1] + (grid[-1][:-1] + "x",))
    with pytest.raises(ValueError):
        clues_of_grid(("##", "#"))
