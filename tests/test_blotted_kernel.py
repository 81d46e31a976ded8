"""The blotted-clue line kernel and its CNF against brute force (issue 17, points 2 and 3).

The oracle enumerates every colouring of a line of up to 7 cells (12 for the narrow ranges;
values 0..K), splits it
into maximal runs (which are its blocks: same-colour blocks never touch), and keeps the
colourings whose runs have the clue's colours, lengths in the clue's ranges and no excluded
value.  Nothing of the kernel's method is reused.

Benchmark (``python -c "import tests.test_blotted_kernel as t; t.bench(rounds=30, lines=100)"``):
time per call, best of 30 rounds over 100 random pictures' lines, 20 % of the cells with one
value they do not have excluded (in black and white: known) and 20 % of the blocks blotted (1..n); ``solve_color_line`` gets the same
lines unblotted.  Measured on the shared 2-core machine at load average ~10 (two runs agreed
within 2 %, outliers of one run aside):

    cells  colours  solve_range_line  solve_color_line
    30     1        16 us             13 us
    30     3        19.5 us           16 us
    60     1        27 us             19 us
    60     3        34 us             27 us

A 40-cell black-and-white line with 10 blocks, 2 of them blotted: 18.5 us per call
(``count_range_placements``, a plain-Python DP: 285 us).
"""

from __future__ import annotations

import itertools
import random
import time

import pytest

from satnono.cnf.blotted import range_line_clauses
from satnono.lines.blotted import count_range_placements, solve_range_line
from satnono.lines import solve_color_line, solve_line
from satnono.sat import SatSession
from tests._oracles import colourings as _colourings


def brute(lo, hi, colors, n, excluded):
    """(excluded after, starts, ends, the set of colourings) by enumeration."""
    nvals = len(excluded)
    can = [0] * nvals
    st = [0] * len(lo)
    en = [0] * len(lo)
    lines = set()
    for lengths, starts, ends, vals in _colourings(n, nvals - 1).get(tuple(colors), ()):
        if not all(a <= m <= b for a, m, b in zip(lo, lengths, hi)):
            continue
        if any((excluded[v] >> i) & 1 for i, v in enumerate(vals)):
            continue
        lines.add(vals)
        for i, v in enumerate(vals):
            can[v] |= 1 << i
        for j in range(len(lo)):
            st[j] |= 1 << starts[j]
            en[j] |= 1 << ends[j]
    full = (1 << n) - 1
    return tuple(full & ~c for c in can), tuple(st), tuple(en), lines


def _range_of(rng: random.Random, length: int | None, n: int) -> tuple[int, int]:
    """A blot (1..n), a random range around ``length`` (or anywhere) or the fixed length."""
    r = rng.random()
    if r < 0.35:
        return 1, n
    if length is None:
        length = rng.randint(1, n)
    if r < 0.6:
        return rng.randint(1, length), rng.randint(length, n)
    return length, length


def random_case(rng: random.Random, n: int, k: int):
    """(lo, hi, colors, n, excluded) with values 0..k: mostly clues of a random picture with
    some numbers blotted or widened and some cells known (a few wrongly), else random clues."""
    pic = [rng.choice([0] * k + list(range(1, k + 1))) for _ in range(n)]
    if rng.random() < 0.7:
        runs = [(v, len(list(g))) for v, g in itertools.groupby(pic) if v]
        colors = tuple(v for v, _ in runs)
        bounds = [_range_of(rng, m, n) for _, m in runs]
    else:
        nb = rng.randint(0, (n + 1) // 2 + 1)
        colors = tuple(rng.randint(1, k) for _ in range(nb))
        bounds = [_range_of(rng, None, n) for _ in range(nb)]
    excluded = [0] * (k + 1)
    known = rng.random() * 0.6
    for i in range(n):
        if rng.random() < known:
            truth = pic[i] if rng.random() < 0.9 else rng.randint(0, k)
            for v in range(k + 1):
                if v != truth:
                    excluded[v] |= 1 << i
        elif rng.random() < 0.15:
            excluded[rng.randint(0, k)] |= 1 << i
    lo = tuple(a for a, _ in bounds)
    hi = tuple(b for _, b in bounds)
    return lo, hi, colors, n, tuple(excluded)


def _cases(seed: int, count: int):
    rng = random.Random(seed)
    for t in range(count):
        k = 1 + t % 3
        n = rng.randint(1, 7 if k < 3 else 6 + (t % 2))
        yield random_case(rng, n, k)


@pytest.mark.parametrize("seed", range(4))
def test_kernel_matches_brute_force(seed):
    feasible = infeasible = blots = 0
    for lo, hi, colors, n, excluded in _cases(seed, 1500):
        got = solve_range_line(lo, hi, colors, n, excluded)
        ex, st, en, lines = brute(lo, hi, colors, n, excluded)
        case = (lo, hi, colors, n, excluded)
        blots += sum(a == 1 and b == n for a, b in zip(lo, hi))
        if not lines:
            assert got is None, case
            infeasible += 1
            continue
        feasible += 1
        assert got is not None, case
        assert got.excluded == ex, case
        assert got.starts == st, case
        assert got.ends == en, case
    assert feasible > 500 and infeasible > 100 and blots > 500


def _narrow_case(rng: random.Random):
    """Black and white, 8-12 cells, 2-3 blocks with narrow ranges (or blots), a stretch of cells
    known filled and a few known empty: a run of possible cells longer than a block's upper
    bound, where two placements of a block can leave a cell between them uncovered."""
    n = rng.randint(8, 12)
    lo, hi = [], []
    for _ in range(rng.randint(2, 3)):
        if rng.random() < 0.3:
            a, b = 1, n
        else:
            a = rng.randint(1, 3)
            b = a + rng.randint(1, 2)
        lo.append(a)
        hi.append(b)
    filled = ((1 << rng.randint(2, 4)) - 1) << rng.randint(0, n - 3)
    empty = 0
    for _ in range(rng.randint(1, 3)):
        empty |= 1 << rng.randrange(n)
    return tuple(lo), tuple(hi), (1,) * len(lo), n, (filled & ~empty & ((1 << n) - 1), empty)


def test_kernel_bounded_ranges_on_longer_lines():
    """Narrow ranges (hi < n) on lines of 8-12 cells (the case the kernel answers length by length)."""
    rng = random.Random(11)
    feasible = 0
    for t in range(2000):
        if t % 2:
            lo, hi, colors, n, excluded = _narrow_case(rng)
        else:
            k = 1 + t % 4 // 2
            lo, hi, colors, n, excluded = random_case(rng, rng.randint(8, 11 if k == 1 else 9), k)
            bounds = []
            for _ in lo:  # a..n or a narrow range
                a = rng.randint(1, 3)
                bounds.append((a, n) if rng.random() < 0.4 else (a, a + rng.randint(1, 3)))
            lo = tuple(a for a, _ in bounds)
            hi = tuple(b for _, b in bounds)
        got = solve_range_line(lo, hi, colors, n, excluded)
        ex, st, en, lines = brute(lo, hi, colors, n, excluded)
        case = (lo, hi, colors, n, excluded)
        if not lines:
            assert got is None, case
            continue
        feasible += 1
        assert got == (ex, st, en), case
        assert count_range_placements(lo, hi, colors, n, excluded) == len(lines), case
    assert feasible > 600


@pytest.mark.parametrize("seed", range(2))
def test_count_matches_brute_force(seed):
    big = 0
    for lo, hi, colors, n, excluded in _cases(100 + seed, 1500):
        want = len(brute(lo, hi, colors, n, excluded)[3])
        assert count_range_placements(lo, hi, colors, n, excluded) == want, (lo, hi, colors, n, excluded)
        big += want > 10
    assert big > 50


def test_count_large_line():
    """Big counts are exact ints, checked against closed forms."""
    n = 200
    assert count_range_placements((1,), (n,), (1,), n, (0, 0)) == n * (n + 1) // 2
    # two same-colour blots: block 1 ends at e (e + 1 starts), block 2 lies in the m = n - e - 2
    # cells after the gap (m (m + 1) / 2 intervals)
    want = sum((e + 1) * (n - e - 2) * (n - e - 1) // 2 for e in range(n - 2))
    assert count_range_placements((1, 1), (n, n), (1, 1), n, (0, 0)) == want
    assert count_range_placements((1,) * 40, (n,) * 40, (1, 2) * 20, n, (0, 0, 0)) > 2 ** 64


def _enumerate(clauses, units, cells: list[list[int]], nvars: int) -> list[tuple[int, ...]]:
    """Every model, blocked on all variables 1..nvars; each as its cells' values."""
    out = []
    with SatSession(clauses + units) as s:
        while s.solve():
            m = s.model()
            val = {abs(x): x > 0 for x in m}
            out.append(tuple(next((v + 1 for v, x in enumerate(lits) if val.get(x)), 0) for lits in cells))
            s.add_clause([-x for x in m if abs(x) <= nvars])
    return out


def _check_cnf(lo, hi, colors, n, excluded, starts, ends):
    k = len(excluded) - 1
    if k == 1:
        def cell_lit(i, v):
            return i + 1 if v else -(i + 1)
    else:
        def cell_lit(i, v):
            return i * k + v
    cells = [[cell_lit(i, v) for v in range(1, k + 1)] for i in range(n)]
    clauses, nv = range_line_clauses(n * k + 1, lo, hi, colors, n, starts, ends, cell_lit, ncolors=k)
    units = []
    for i in range(n):
        units += [[-cells[i][v - 1]] for v in range(1, k + 1) if (excluded[v] >> i) & 1]
        if (excluded[0] >> i) & 1:
            units.append(list(cells[i]))
    models = _enumerate(clauses, units, cells, nv - 1)
    lines = brute(lo, hi, colors, n, excluded)[3]
    assert len(models) == len(set(models)) == len(lines), (lo, hi, colors, n, excluded)
    assert set(models) == lines


@pytest.mark.parametrize("seed", range(2))
def test_cnf_models_are_the_placements(seed):
    """Ladders restricted to the kernel's valid starts and ends, known cells as unit clauses:
    one model per placement (the ladders are fixed by the cells), projecting onto exactly the
    brute-force colourings."""
    checked = 0
    for lo, hi, colors, n, excluded in _cases(200 + seed, 250):
        res = solve_range_line(lo, hi, colors, n, excluded)
        if res is None:
            continue
        _check_cnf(lo, hi, colors, n, excluded, res.starts, res.ends)
        checked += 1
    assert checked > 100
    rng = random.Random(400 + seed)
    for _ in range(100):  # narrow ranges on longer lines
        lo, hi, colors, n, excluded = _narrow_case(rng)
        res = solve_range_line(lo, hi, colors, n, excluded)
        if res is not None:
            _check_cnf(lo, hi, colors, n, excluded, res.starts, res.ends)
            checked += 1
    assert checked > 150


def test_cnf_unrestricted_ladders():
    """Every cell a possible start and end (the encoding alone, without the kernel's help)."""
    full_cases = 0
    for lo, hi, colors, n, excluded in _cases(300, 300):
        full = (1 << n) - 1
        _check_cnf(lo, hi, colors, n, excluded, (full,) * len(lo), (full,) * len(lo))
        full_cases += 1
    assert full_cases == 300


def test_cnf_refuses_a_block_without_starts():
    clauses, nv = range_line_clauses(5, (1,), (3,), (1,), 4, (0,), (0b1111,), lambda i, v: i + 1)
    assert clauses == [[]] and nv == 5


def test_fixed_lengths_agree_with_the_existing_kernels():
    """lo == hi everywhere: the same answer as solve_color_line (and solve_line in black and white)."""
    rng = random.Random(7)
    agreed = infeasible = 0
    for t in range(3000):
        k = 1 + t % 4
        n = rng.randint(1, 20)
        pic = [rng.choice([0] * k + list(range(1, k + 1))) for _ in range(n)]
        runs = [(v, len(list(g))) for v, g in itertools.groupby(pic) if v]
        if rng.random() < 0.2:
            runs = [(v, max(1, m + rng.randint(-1, 1))) for v, m in runs]
        lengths = tuple(m for _, m in runs)
        colors = tuple(v for v, _ in runs)
        excluded = [0] * (k + 1)
        for i in range(n):
            if rng.random() < 0.3:
                excluded[rng.randint(0, k)] |= 1 << i
        excluded_t = tuple(excluded)
        got = solve_range_line(lengths, lengths, colors, n, excluded_t)
        want = solve_color_line(lengths, colors, n, excluded_t)
        if k == 1:
            bw = solve_line(lengths, n, excluded[0], excluded[1])
            assert (bw is None) == (want is None)
            if bw is not None:
                assert (bw.black, bw.white) == want.excluded and bw.starts == want.starts
        if want is None:
            assert got is None
            infeasible += 1
            continue
        assert got is not None
        assert got.excluded == want.excluded
        assert got.starts == want.starts
        assert got.ends == tuple(s << (c - 1) for s, c in zip(want.starts, lengths))
        agreed += 1
    assert agreed > 1000 and infeasible > 100


def bench(rounds: int = 5, lines: int = 300) -> None:  # pragma: no cover - run by hand
    """Time solve_range_line on blotted lines against solve_color_line on the same lines unblotted."""
    for n in (30, 60):
        for k in (1, 3):
            rng = random.Random(n * 10 + k)
            cases = []
            for _ in range(lines):
                pic = [rng.choice([0] * k + list(range(1, k + 1))) for _ in range(n)]
                runs = [(v, len(list(g))) for v, g in itertools.groupby(pic) if v]
                lengths = tuple(m for _, m in runs)
                colors = tuple(v for v, _ in runs)
                blot = [rng.random() < 0.2 for _ in runs]
                lo = tuple(1 if b else m for b, m in zip(blot, lengths))
                hi = tuple(n if b else m for b, m in zip(blot, lengths))
                excluded = [0] * (k + 1)
                for i in range(n):
                    if rng.random() < 0.2:
                        excluded[rng.choice([v for v in range(k + 1) if v != pic[i]])] |= 1 << i
                cases.append((lo, hi, lengths, colors, tuple(excluded)))
            best_r = best_c = float("inf")
            for _ in range(rounds):
                t0 = time.perf_counter()
                for lo, hi, _, colors, ex in cases:
                    solve_range_line(lo, hi, colors, n, ex)
                t1 = time.perf_counter()
                for _, _, lengths, colors, ex in cases:
                    solve_color_line(lengths, colors, n, ex)
                t2 = time.perf_counter()
                best_r = min(best_r, (t1 - t0) / lines)
                best_c = min(best_c, (t2 - t1) / lines)
            print(f"{n:5d}  {k:7d}  {best_r * 1e6:8.1f} us  {best_c * 1e6:8.1f} us")
