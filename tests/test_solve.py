"""Verdicts against brute force for every kind of puzzle; encoding exactness; timeouts, givens,
back ends.

A puzzle's kind is that of its lines (:attr:`satnono.clues.LineClue.kind`): ``bw`` (one block
colour) or ``color``.  The tests that hold for both are parametrized over the kind, with the
kind's oracle from ``tests/_oracles.py``; the tests that only make sense for one kind (the
black-and-white reference encoder, colour exact counts) stay specific.
"""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest
from _encode_ref import reference_line_clauses
from _oracles import PAL2, blocks_of, brute_force_solutions, grid_solutions, palette
from _oracles import puzzle_solutions as solutions
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono import Checker, Puzzle, Status, check
from satnono.cnf.encode import encode
from satnono.lines import LineSolver
from satnono.model import BW_PALETTE, Color, clues_of_grid
from satnono.logic.propagate import propagate
from satnono.logic.state import GridState
from satnono.sat import SOLVERS, SatSession

KINDS = ("bw", "color")


# --- clue sets of every grid, by kind -----------------------------------------------------------

def clue_key(kind: str, grid):
    """The clues of a grid: lengths in black and white, (lengths, colours) per line in colour."""
    if kind == "bw":
        return clues_of_grid(grid)
    rows = tuple(blocks_of(r) for r in grid)
    cols = tuple(blocks_of("".join(col)) for col in zip(*grid))
    return rows, cols


def puzzle_of_key(kind: str, key, pal=PAL2) -> Puzzle:
    rows, cols = key
    if kind == "bw":
        return Puzzle(rows, cols)
    return Puzzle(rows=tuple(r[0] for r in rows), columns=tuple(c[0] for c in cols),
                  row_colors=tuple(r[1] for r in rows), column_colors=tuple(c[1] for c in cols), palette=pal)


def all_clue_sets(kind: str, h: int, w: int) -> Counter:
    """Every clue set of an h x w grid (black and white over "#.", colour over ".ab") with its
    exact number of solutions."""
    chars = "#." if kind == "bw" else ".ab"
    return Counter(clue_key(kind, tuple("".join(row) for row in zip(*[iter(cells)] * w)))
                   for cells in itertools.product(chars, repeat=h * w))


SIZES = {"bw": [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (3, 4), (4, 3), (4, 4)],
         "color": [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3)]}


@pytest.mark.parametrize("kind,h,w", [(kind, h, w) for kind in KINDS for h, w in SIZES[kind]])
def test_every_clue_set_matches_brute_force(kind, h, w):
    """Every puzzle that has a solution (up to 4x4 in black and white, 3x3 in two colours):
    unique iff exactly one grid has its clues; in colour also the exact count."""
    from satnono.counting import count

    checker = Checker()
    seen = Counter()
    for key, n in all_clue_sets(kind, h, w).items():
        p = puzzle_of_key(kind, key)
        r = checker.check(p)
        want = Status.UNIQUE if n == 1 else Status.MULTIPLE
        assert r.status is want, (key, n, r.status, r.reason)
        assert all(p.is_solution(s) for s in r.solutions)
        if r.line_solvable:
            assert r.status is Status.UNIQUE
        if n > 1:
            assert len(r.solutions) == 2 and r.solutions[0] != r.solutions[1]
        if kind == "color":
            c = count(p, line_solver=checker.lines)
            assert (c.count, c.exact) == (n, True), (key, n, c.count)
        seen[want] += 1
    if h > 1 and w > 1:
        assert seen[Status.UNIQUE] and seen[Status.MULTIPLE]
    if (kind, h, w) == ("bw", 4, 4):
        assert sum(seen.values()) > 52362  # the 4x4 unique clue sets alone are 52362 (OEIS A242876)


# --- clue sets no grid has ---------------------------------------------------------------------

def test_clue_sets_without_solution_up_to_3x3():
    """Random clue combinations that no grid has must get 'none'; those some grid has must not."""
    rng = random.Random(3)
    checker = Checker()
    for h, w in [(2, 2), (2, 3), (3, 3), (3, 4)]:
        groups = all_clue_sets("bw", h, w)
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


@pytest.mark.parametrize("h,w", [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)])
def test_every_combination_of_line_clues_small(h, w):
    """Every combination of possible row clues and column clues (satisfiable or not) up to 2x2:
    the verdict and the exact count against the number of grids with those clues (0: none)."""
    from satnono.counting import count

    def line_clues(n):
        return sorted({blocks_of("".join(cells)) for cells in itertools.product(".ab", repeat=n)})

    grids = all_clue_sets("color", h, w)
    checker = Checker()
    nones = 0
    for rows in itertools.product(line_clues(w), repeat=h):
        for cols in itertools.product(line_clues(h), repeat=w):
            key = (rows, cols)
            n = grids.get(key, 0)
            p = puzzle_of_key("color", key)
            r = checker.check(p)
            want = "none" if n == 0 else "unique" if n == 1 else "multiple"
            assert r.status.value == want, (key, n, r.reason)
            c = count(p, line_solver=checker.lines)
            assert (c.count, c.exact) == (n, True), key
            nones += n == 0
    assert nones


def test_unsatisfiable_clue_sets_up_to_3x3():
    """Clue sets no grid has (mutated colours and lengths): `none`, exactly when brute force finds nothing."""
    rng = random.Random(2)
    checker = Checker()
    nones = 0
    for _ in range(400):
        h, w = rng.randint(1, 3), rng.randint(1, 3)
        grid = tuple("".join(rng.choice(".ab") for _ in range(w)) for _ in range(h))
        rows, cols = clue_key("color", grid)
        rows = list(rows)
        i = rng.randrange(h)
        ls, cs = rows[i]
        if ls and rng.random() < 0.5:
            j = rng.randrange(len(ls))
            cs = cs[:j] + (3 - cs[j],) + cs[j + 1:]  # swap a block's colour
        else:
            ls, cs = ls + (1,), cs + (rng.randint(1, 2),)
        rows[i] = (ls, cs)
        key = (tuple(rows), cols)
        p = puzzle_of_key("color", key)
        sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors, limit=2)
        r = checker.check(p)
        want = "none" if not sols else "unique" if len(sols) == 1 else "multiple"
        assert r.status.value == want, (key, r.reason)
        nones += want == "none"
    assert nones > 100


# --- round trips ------------------------------------------------------------------------------

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


def test_random_grids_round_trip():
    """Random colour grids -> clues -> solve -> a grid with the same clues (sizes up to 15x15, 2-5 colours)."""
    rng = random.Random(8)
    checker = Checker()
    statuses = Counter()
    for _ in range(60):
        k = rng.randint(2, 5)
        h, w = rng.randint(2, 15), rng.randint(2, 15)
        chars = "." + "abcde"[:k]
        weights = [rng.uniform(0.5, 2)] + [1] * k
        grid = tuple("".join(rng.choices(chars, weights)[0] for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        r = checker.check(p, timeout=60)
        assert r.status.value in ("unique", "multiple"), r.reason
        for s in r.solutions:
            assert p.is_solution(s)
        if r.status.value == "unique":
            assert r.solutions[0] == grid
        statuses[(r.status.value, r.line_solvable)] += 1
    assert statuses[("unique", True)] and statuses[("multiple", False)]


def test_propagation_state_views_agree():
    """After colour propagation the row and column masks describe the same cells."""
    rng = random.Random(6)
    lines = LineSolver()
    for _ in range(40):
        k = rng.randint(2, 4)
        h, w = rng.randint(2, 10), rng.randint(2, 10)
        grid = tuple("".join(rng.choice("." + "abcd"[:k]) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        st = GridState(p)
        assert propagate(st, lines) is None
        for v in range(k + 1):
            for r in range(h):
                for c in range(w):
                    assert (st.row_ex[v][r] >> c) & 1 == (st.col_ex[v][c] >> r) & 1
                    if (st.row_ex[v][r] >> c) & 1:
                        assert grid[r][c] != p.chars[v]  # never excludes the truth


def test_black_and_white_is_the_one_colour_case():
    """A one-colour puzzle written with explicit colours is the same puzzle as plain lengths."""
    p = Puzzle.from_clues(rows=[[(1, 1)], [(1, "black")]], columns=[[1], [(1, "#")]])
    q = Puzzle.from_clues(rows=[[1], [1]], columns=[[1], [1]])
    assert p == q and not p.is_color
    assert check(p).status.value == "multiple"


# --- the CNF ----------------------------------------------------------------------------------

def _cnf_model_count(p: Puzzle, propagated: bool = False) -> int:
    """Models of the CNF of the empty (or propagated) state, by blocking-clause enumeration.

    In colour every line is encoded and the models are projected on every cell's colour
    variables; in black and white the propagated state gives the residue CNF (the lines with
    unknown cells, known cells folded away), projected on the unknown cells."""
    lines = LineSolver()
    state = GridState(p)
    if propagated:
        if propagate(state, lines) is not None:
            return 0
        if state.is_complete():
            return 1
    if propagated and not p.is_color:
        enc = encode(state, lines)
        project = enc.unknown_vars
    else:
        enc = encode(state, lines, rows=range(p.height), columns=range(p.width))
        project = [enc.color_var(r, c, v) for r in range(p.height) for c in range(p.width)
                   for v in range(1, p.ncolors + 1)]
    n = 0
    with SatSession(enc.clauses) as sat:
        while sat.solve():
            m = sat.model()
            n += 1
            sat.add_clause([-m[v - 1] for v in project])
    return n


def _cnf_cases(kind: str):
    """Random small pictures: (seed, count, picture drawer)."""
    if kind == "bw":
        def draw(rng):
            h, w = rng.randint(2, 6), rng.randint(2, 6)
            d = rng.choice((0.35, 0.5, 0.65))
            return Puzzle.from_grid(tuple("".join("#" if rng.random() < d else "." for _ in range(w))
                                          for _ in range(h)))
        return 5, 150, draw

    def draw(rng):
        k = rng.choice((2, 2, 3, 4))
        h, w = rng.randint(1, 4), rng.randint(1, 4)
        chars = "." * k + "abcd"[:k]  # half background: ambiguous pictures are common then
        grid = tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))
        return Puzzle.from_grid(grid, palette=palette(k))
    return 4, 300, draw


@pytest.mark.parametrize("kind", KINDS)
def test_cnf_model_count_equals_brute_force(kind):
    """The CNF has exactly one model per solution, with no propagation at all and on the
    propagated state (known cells as units or folded away), on random small pictures."""
    seed, n, draw = _cnf_cases(kind)
    rng = random.Random(seed)
    multi = 0
    for _ in range(n):
        p = draw(rng)
        want = len(solutions(p))
        assert _cnf_model_count(p, propagated=True) == want, p.goal
        assert _cnf_model_count(p) == want, p.goal
        multi += want > 1
    assert multi > 8


def test_line_clauses_equal_the_reference_encoder():
    """The range-computing line encoder emits exactly the clauses of the build-then-fold reference."""
    from satnono.cnf.ladders import bw_line_clauses as _line_clauses
    from satnono.lines import solve_line

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
        assert _cnf_model_count(p, propagated=True) == len(brute_force_solutions(p))


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


# --- none, givens, the one-colour case ----------------------------------------------------------

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


GIVENS = {
    # kind: (picture, palette, [(givens, status, its one solution or a word of the reason)])
    "bw": (("#.", ".#"), None, [({(0, 0): True}, Status.UNIQUE, ("#.", ".#")),
                                ({(0, 0): True, (1, 0): True}, Status.NONE, "given")]),
    "color": (("a.b", ".ab"), PAL2, [({(0, 0): 1}, Status.UNIQUE, ("a.b", ".ab")),
                                     ({(0, 0): 0}, Status.UNIQUE, (".ab", "a.b")),
                                     ({(0, 0): 2}, Status.NONE, "")]),
}


@pytest.mark.parametrize("kind", KINDS)
def test_givens(kind):
    grid, pal, cases = GIVENS[kind]
    p = Puzzle.from_grid(grid, palette=pal) if pal else Puzzle.from_grid(grid)
    assert check(p).status is Status.MULTIPLE
    for givens, status, want in cases:
        r = check(p.with_givens(givens))
        assert r.status is status, givens
        if status is Status.UNIQUE:
            assert r.solutions == (want,)
        else:
            assert want in (r.reason or "")


def test_exact_counts_against_brute_force():
    """count(): exact integers for colour puzzles, through components, enumeration and Ganak."""
    from satnono.counting import count

    rng = random.Random(3)
    multi = 0
    for _ in range(120):
        k = rng.choice((2, 2, 3))
        h, w = rng.randint(1, 4), rng.randint(1, 5)
        chars = "." * k + "abc"[:k]
        grid = tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        want = len(grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors))
        for kw in ({}, {"decompose": False}, {"enum_cap": 2}):
            r = count(p, **kw)
            assert (r.count, r.exact) == (want, True), (grid, kw)
        multi += want > 1
    assert multi > 5


def test_components_multiply_in_colour():
    """Two independent ambiguous switches in different colours: 2 x 2 solutions in two components."""
    from satnono.counting import count

    grid = ("a.....", ".a....", "......", "....b.", ".....b")
    p = Puzzle.from_grid(grid, palette=PAL2)
    r = count(p)
    assert r.count == 4 and r.exact and len(r.components) == 2


def test_a_lone_colour_keeps_its_character():
    """A picture with one block colour is solved as black and white but keeps its own
    character, name and RGB (issue 20, item 1: it was renamed '#')."""
    p = Puzzle.from_grid(["a.", "aa"])
    assert not p.is_color and p.chars == ".a" and p.goal == ("a.", "aa")
    r = check(p)
    assert r.status.value == "unique" and r.solutions == (("a.", "aa"),)
    q = Puzzle.from_clues(rows=[[1], [2]], columns=[[2], [1]],
                          palette=(BW_PALETTE[0], Color("red", "r", (255, 0, 0))))
    assert q.palette[1] == Color("red", "r", (255, 0, 0)) and check(q).solutions == (("r.", "rr"),)
    assert Puzzle.from_grid(["#.", "##"]).palette == BW_PALETTE


# --- back ends and deadlines --------------------------------------------------------------------


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
        p = Puzzle.from_grid(grid, goal=None)  # clues only: a stored picture would spare the first search
        if check(p).stats.conflicts >= min_conflicts:
            return p
    raise AssertionError("no such puzzle")


def test_cadical_deadline_slices(monkeypatch):
    """Where the native deadline timer is missing (not Linux) CaDiCaL runs under a deadline in
    conflict-budget slices: a long first one, then by the measured rate (after the first try,
    which is a conflict budget with or without a deadline; the rounds under the hints'
    assumptions, conflict budgets too, are left out here)."""
    from pysat.solvers import Solver

    import satnono.solve
    from satnono import sat
    from satnono.solve import first_try

    monkeypatch.setattr(satnono.solve, "HUNCH_ROUNDS", 0)
    monkeypatch.setattr(satnono.solve, "switched", lambda *a: None)  # a second SAT call, always
    p = _search_puzzle(300)
    try_ = first_try(Checker().settle(p).state)
    monkeypatch.setattr(sat, "_NATIVE", [None])  # as on a platform without POSIX timers

    budgets: list[int] = []
    original = Solver.conf_budget

    def recording(self, budget=-1):
        budgets.append(budget)
        return original(self, budget)

    monkeypatch.setattr(Solver, "conf_budget", recording)
    plain = check(p)
    assert budgets == [try_]  # no deadline: the first try, then each call in one piece
    budgets.clear()
    # a generous deadline: after the try, each of the two calls finishes in its first slice, sized
    # from the clause count, then from the rate measured on it
    r = check(p, timeout=60)
    assert r.status is plain.status is Status.MULTIPLE
    assert len(budgets) == 3 and budgets[0] == try_
    rate = SatSession.SLOW_RATE * (10000 / max(10000, r.stats.cnf_clauses)) ** 0.5
    assert 0.9 * rate * 60 * SatSession.FIRST_SHARE <= budgets[1] <= rate * 60 * SatSession.FIRST_SHARE
    # a pessimistic rate: the first slice is the shortest allowed, the search goes on in later slices
    budgets.clear()
    monkeypatch.setattr(SatSession, "SLOW_RATE", 1e-3)
    r = check(p, timeout=60)
    assert r.status is Status.MULTIPLE and r.stats.conflicts >= 300
    assert budgets[0] == try_ and budgets[1] == SatSession.MIN_SLICE and len(budgets) >= 4
    assert budgets[2] > SatSession.MIN_SLICE  # from the rate measured on the first slice


def test_unknown_keeps_the_solution_found():
    """Timing out in the uniqueness proof still returns the (verified) first solution: the one
    found (the second call times out) or the one stored (its only call times out)."""
    from satnono import sat as solve_mod  # the settle pipeline opens its session from satnono.sat

    grid = ["#..#", ".##.", ".##.", "#..#"]
    for p, late in ((Puzzle.from_grid(grid, goal=None), 2), (Puzzle.from_grid(grid), 1)):
        calls = []

        class Session(solve_mod.SatSession):
            def solve(self, deadline=None, assumptions=(), budget=None):
                calls.append(1)
                if len(calls) == late:
                    return None
                return super().solve(deadline, assumptions, budget)

        orig = solve_mod.SatSession
        solve_mod.SatSession = Session
        try:
            r = check(p)
        finally:
            solve_mod.SatSession = orig
        assert len(calls) == late
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


@pytest.mark.parametrize("colors", [1, 2])
def test_a_stored_solution_is_the_first_solution(colors):
    """A goal picture that solves the puzzle spares the first SAT search (one call, for a
    second solution next to it, or none when a 2x2 switch of it is one); the verdict and the
    second solution are those of the clues alone (brute force), and a goal that is not a
    solution (clues, givens) is ignored."""
    rng = random.Random(11 + colors)
    chars = BW_PALETTE if colors == 1 else palette(colors)
    seen = Counter()
    for _ in range(80):
        h, w = rng.randrange(3, 7 - colors), rng.randrange(3, 7)
        grid = tuple("".join(rng.choice(".." + "".join(c.char for c in chars[1:])) for _ in range(w))
                     for _ in range(h))
        p = Puzzle.from_grid(grid, palette=chars)
        truth = solutions(p)
        want = Status.UNIQUE if len(truth) == 1 else Status.MULTIPLE
        r = check(p)
        assert r.status is want and r.solutions[0] == grid
        assert all(s in truth for s in r.solutions) and len(set(r.solutions)) == len(r.solutions)
        if not r.line_solvable:
            assert r.stats.sat_calls == 1 - _by_switch(r)
            seen[want, r.stats.sat_calls] += 1
        bare = check(Puzzle.from_grid(grid, palette=chars, goal=None))
        assert bare.status is want and (r.line_solvable or bare.stats.sat_calls == 2)  # (no switch after SAT)
        if want is Status.MULTIPLE:  # another solution stored: still a first solution, also one call
            other = next(s for s in truth if s != grid)
            q = check(Puzzle.from_grid(grid, palette=chars, goal=other))
            assert q.status is Status.MULTIPLE and q.solutions[0] == other and q.stats.sat_calls == 1 - _by_switch(q)
        wrong = tuple(row[::-1] for row in grid)  # mirrored: a solution only when symmetric
        if wrong not in truth:
            q = check(Puzzle.from_grid(grid, palette=chars, goal=wrong))
            assert q.status is want and q.solutions[0] != wrong
        if not r.line_solvable:  # a given that the goal breaks: the goal is no solution of it
            (rr, cc), = [next((x, y) for x in range(h) for y in range(w) if grid[x][y] != ".")]
            q = check(Puzzle.from_grid(grid, palette=chars).with_givens({(rr, cc): 0}))
            assert all(s[rr][cc] == "." for s in q.solutions)
            assert q.status is {0: Status.NONE, 1: Status.UNIQUE}.get(
                sum(s[rr][cc] == "." for s in truth), Status.MULTIPLE)
    # verdicts that met the SAT path (and in black and white, second solutions by a switch)
    assert seen[Status.MULTIPLE, 1] and (colors > 1 or seen[Status.UNIQUE, 1] and seen[Status.MULTIPLE, 0]), seen


def _by_switch(r) -> int:
    """1 when the second solution of ``r``, settled from a known first solution, came without a
    SAT call: a multiple whose two solutions differ in the four corners of a rectangle, in black
    and white (see :func:`satnono.solve.switched`)."""
    if r.status is not Status.MULTIPLE or r.puzzle.is_color or len(r.diff) != 4:
        return 0
    return int(len({rc[0] for rc in r.diff}) == 2 and len({rc[1] for rc in r.diff}) == 2)


def test_a_stored_colour_solution_proves_uniqueness_in_one_call():
    """The bundled colour puzzle that needs search stores its picture: one SAT call (unsatisfiable)
    proves it unique, with the verdict of its clues alone."""
    from pathlib import Path

    from satnono.formats import load

    p = load(str(Path(__file__).resolve().parents[1] / "puzzles" / "satnono" / "colour-search-10x10.non"))
    assert p.goal is not None and p.is_color
    r, bare = check(p), check(p.replace(goal=None))
    assert r.status is bare.status is Status.UNIQUE and not r.line_solvable
    assert r.solutions == bare.solutions == (p.goal,)
    assert (r.stats.sat_calls, bare.stats.sat_calls) == (1, 2)


@pytest.mark.parametrize("stored", [False, True])
def test_the_call_after_a_solution_runs_with_proof_options(monkeypatch, stored):
    """CaDiCaL searches for a first solution with cheap-conflict options and is switched to
    CADICAL_PROOF_OPTIONS (its defaults) for the call after it (or for the one call next to a
    stored solution), with the learnt state kept; other solvers are left as they are."""
    from satnono import sat as satmod

    events = []
    real_solve = SatSession.solve

    def solve(self, *a, **kw):
        events.append("solve")
        return real_solve(self, *a, **kw)

    monkeypatch.setattr(SatSession, "solve", solve)
    seen_options = []

    class Spy:
        def __init__(self, inner):
            self.inner = inner

        def configure(self, options):
            seen_options.append(dict(options))
            events.append("configure")
            return self.inner.configure(options)

        def __getattr__(self, name):
            return getattr(self.inner, name)

    real_init = SatSession.__init__

    def init(self, *a, **kw):
        real_init(self, *a, **kw)
        self._solver = Spy(self._solver)

    monkeypatch.setattr(SatSession, "__init__", init)
    grid = ("#.#.", ".#.#", "#.#.", ".#.#")  # needs search (2x2 switches), several solutions
    p = Puzzle.from_grid(grid) if stored else Puzzle.from_grid(grid, goal=None)
    r = Checker().check(p)
    assert r.status is Status.MULTIPLE and not r.line_solvable
    # (guide(): the phases of the first solution, without CaDiCaL's lucky tries; then the proof options)
    assert seen_options == [satmod.CADICAL_GUIDED_OPTIONS, satmod.CADICAL_PROOF_OPTIONS]
    assert events == (["configure", "configure", "solve"] if stored else ["solve", "configure", "configure", "solve"])
    seen_options.clear()
    events.clear()
    r = Checker(solver="minisat22").check(p)
    assert r.status is Status.MULTIPLE and seen_options == []


def test_proof_options_change_cadicals_search():
    """The switch reaches the native solver: the same unsatisfiable call (10-Dom's uniqueness,
    after the same first solution) takes a different number of conflicts with and without it
    (CaDiCaL is deterministic), and both prove the same thing."""
    from pathlib import Path

    from satnono.formats import load

    p = load(str(Path(__file__).resolve().parents[1] / "puzzles" / "dom" / "10-dom.xml")).replace(goal=None)
    state = GridState(p)
    assert propagate(state, LineSolver()) is None and state.unknown_count() > 0
    enc = encode(state, LineSolver())
    runs = []
    for proof in (False, True):
        with SatSession(enc.clauses) as s:
            assert s.solve()
            model = s.model()
            s.add_clause(enc.blocking_clause(model))
            s.set_phases(enc.phases(model))
            if proof:
                s.for_proof()
            before = s.conflicts
            runs.append((s.solve(), s.conflicts - before))
    assert runs[0][0] is False and runs[1][0] is False, runs
    assert runs[0][1] > 100 and runs[0][1] != runs[1][1], runs


def test_a_second_solution_by_a_2x2_switch():
    """A second solution without a SAT call (``satnono.solve.switched``): four open cells of the
    first whose exchange keeps the clues.  Against brute force on random pictures with and
    without a rule: what it returns is another solution, differing in the corners of a
    rectangle of cells line logic left open; a switch that breaks a rule (or a given) is no
    answer (the SAT call then decides); ``keep_open`` settles never take it; colour never."""
    from satnono.lines.switches import find_switch
    from satnono.rules.spec import rule_from_json
    from satnono.solve import switched

    rng = random.Random(23)
    took = refused = 0
    for i in range(400):
        h, w = rng.randrange(3, 6), rng.randrange(3, 6)
        grid = tuple("".join(rng.choice(".#") for _ in range(w)) for _ in range(h))
        cells = [[k, k] for k in range(min(h, w))]  # the diagonal's clue in the picture, as a rule
        clue = [len(run) for run in "".join(grid[k][k] for k, _ in cells).split(".") if run]
        rules = (rule_from_json({"rule": "line", "cells": cells, "clue": clue}),) if i % 2 else ()
        p = Puzzle.from_grid(grid, rules=rules, goal=None)
        truth = [g for g in solutions(Puzzle.from_grid(grid, goal=None)) if p.is_solution(g)]
        state, bad = Checker().propagate(p)
        assert bad is None or not truth
        if bad is not None:
            continue
        for g in truth:
            other = switched(p, state, g)
            masks = [int(row[::-1].replace(".", "0").replace("#", "1"), 2) for row in g]
            cols = [int("".join(col)[::-1].replace(".", "0").replace("#", "1"), 2) for col in zip(*g)]
            open_rows = [((1 << w) - 1) & ~state.known_row(r) for r in range(h)]
            open_cols = [((1 << h) - 1) & ~state.known_column(c) for c in range(w)]
            raw = find_switch(masks, cols, open_rows, open_cols)
            if other is None:
                refused += raw is not None  # a switch whose grid breaks the rule
                assert raw is None or rules
                continue
            took += 1
            assert other in truth and other != g
            diff = [(r, c) for r in range(h) for c in range(w) if other[r][c] != g[r][c]]
            assert len(diff) == 4 and len({r for r, _ in diff}) == 2 and len({c for _, c in diff}) == 2
            assert all(state.cell(r, c) is None for r, c in diff)
        drawn = Puzzle.from_grid(grid, rules=rules)  # the picture is a known first solution
        r = check(drawn)
        assert r.status is {1: Status.UNIQUE}.get(len(truth), Status.MULTIPLE) and r.solutions[0] == grid
        assert all(s in truth for s in r.solutions)
        if not r.line_solvable:
            by_switch = switched(drawn, state, grid) is not None
            assert r.stats.sat_calls == (0 if by_switch else 1)
            assert r.stats.cnf_clauses == 0 or not by_switch  # not even encoded
            s = Checker().settle(drawn, keep_open=True)
            assert s.result.status is r.status and s.result.stats.sat_calls == 1  # the session goes on
            s.close()
            if by_switch:
                assert check(p).stats.sat_calls == 2  # clues alone: after SAT's first solution, SAT's second
    assert took > 80 and refused > 0, (took, refused)

    diag = Puzzle.from_grid(["#.", ".#"])
    r = check(diag)
    assert r.status is Status.MULTIPLE and r.stats.sat_calls == 0 and r.solutions == (("#.", ".#"), (".#", "#."))
    # a given is known to line logic: never switched
    perm = Puzzle.from_grid(["#..", ".#.", "..#"])
    for given in ({(0, 0): True}, {(0, 0): True, (2, 0): False}):
        r = check(perm.with_givens(given))
        assert r.status is Status.MULTIPLE and r.stats.sat_calls == 0 and len(r.diff) == 4
        assert all(s[x][y] == "#."[not v] for s in r.solutions for (x, y), v in given.items())
    r = check(perm.with_givens({(0, 0): True, (1, 1): True}))
    assert r.status is Status.UNIQUE and r.line_solvable
    # colour: no switch is looked for (the SAT call finds the second solution)
    r = check(Puzzle.from_grid(["a.", ".a", "bb"]))
    assert r.status is Status.MULTIPLE and r.stats.sat_calls == 1
