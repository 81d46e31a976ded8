"""Colour puzzles end to end against brute force: verdicts, exact counts, CNF model counts."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from satnono import check
from satnono.encode import encode
from satnono.linesolve import LineSolver
from satnono.model import BW_PALETTE, Color, Puzzle, default_rgb
from satnono.propagate import GridState, propagate
from satnono.sat import SatSession
from satnono.solve import Checker
from tests._brute_color import blocks_of, grid_solutions


def palette(k: int):
    return (BW_PALETTE[0],) + tuple(Color(f"c{v}", chr(ord("a") + v - 1), default_rgb(v)) for v in range(1, k + 1))


PAL2 = palette(2)


def clue_key(grid):
    rows = tuple(blocks_of(r) for r in grid)
    cols = tuple(blocks_of("".join(col)) for col in zip(*grid))
    return rows, cols


def puzzle_of_key(key, pal):
    rows, cols = key
    return Puzzle(rows=tuple(r[0] for r in rows), columns=tuple(c[0] for c in cols),
                  row_colors=tuple(r[1] for r in rows), column_colors=tuple(c[1] for c in cols), palette=pal)


def all_clue_sets(h: int, w: int, chars: str = ".ab") -> Counter:
    """Every clue set of an h x w grid over ``chars`` with its exact number of solutions."""
    return Counter(clue_key(tuple("".join(row) for row in zip(*[iter(cells)] * w)))
                   for cells in itertools.product(chars, repeat=h * w))


@pytest.mark.parametrize("h,w", [(1, 1), (1, 2), (2, 1), (1, 3), (2, 2), (2, 3), (3, 2), (3, 3)])
def test_every_clue_set_up_to_3x3_two_colours(h, w):
    """unique / multiple against exact brute-force counts, for every clue set of every grid."""
    from satnono.counting import count

    checker = Checker()
    seen = Counter()
    for key, n in all_clue_sets(h, w).items():
        p = puzzle_of_key(key, PAL2)
        r = checker.check(p)
        want = "unique" if n == 1 else "multiple"
        assert r.status.value == want, (key, n, r.status, r.reason)
        for s in r.solutions:
            assert p.is_solution(s)
        if n > 1:
            assert len(r.solutions) == 2 and r.solutions[0] != r.solutions[1]
        c = count(p, line_solver=checker.lines)
        assert (c.count, c.exact) == (n, True), (key, n, c.count)
        seen[want] += 1
    if h * w >= 4:
        assert seen["unique"] and seen["multiple"]


@pytest.mark.parametrize("h,w", [(1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1)])
def test_every_combination_of_line_clues_small(h, w):
    """Every combination of possible row clues and column clues (satisfiable or not) up to 2x2:
    the verdict and the exact count against the number of grids with those clues (0: none)."""
    from satnono.counting import count

    def line_clues(n):
        return sorted({blocks_of("".join(cells)) for cells in itertools.product(".ab", repeat=n)})

    grids = all_clue_sets(h, w)
    checker = Checker()
    nones = 0
    for rows in itertools.product(line_clues(w), repeat=h):
        for cols in itertools.product(line_clues(h), repeat=w):
            key = (rows, cols)
            n = grids.get(key, 0)
            p = puzzle_of_key(key, PAL2)
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
        rows, cols = clue_key(grid)
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
        p = puzzle_of_key(key, PAL2)
        sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors, limit=2)
        r = checker.check(p)
        want = "none" if not sols else "unique" if len(sols) == 1 else "multiple"
        assert r.status.value == want, (key, r.reason)
        nones += want == "none"
    assert nones > 100


def _cnf_model_count(p: Puzzle, propagated: bool = False) -> int:
    """Models of the CNF of the empty (or propagated) state, projected on the cell colour variables."""
    lines = LineSolver()
    state = GridState(p)
    if propagated:
        assert propagate(state, lines) is None
        if state.unknown_count() == 0:
            return 1
    enc = encode(state, lines, rows=range(p.height), columns=range(p.width))
    cell_vars = [enc.color_var(r, c, v) for r in range(p.height) for c in range(p.width)
                 for v in range(1, p.ncolors + 1)]
    n = 0
    with SatSession(enc.clauses) as sat:
        while sat.solve():
            m = sat.model()
            n += 1
            sat.add_clause([-m[v - 1] for v in cell_vars])
    return n


def test_cnf_model_count_equals_brute_force():
    """The CNF (no propagation at all) has exactly one model per solution, on random small clue sets."""
    rng = random.Random(4)
    multi = 0
    for _ in range(300):
        k = rng.choice((2, 2, 3, 4))
        h, w = rng.randint(1, 4), rng.randint(1, 4)
        chars = "." * k + "abcd"[:k]  # half background: ambiguous pictures are common then
        grid = tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        want = len(grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors))
        assert _cnf_model_count(p) == want, grid
        assert _cnf_model_count(p, propagated=True) == want, grid  # known cells as units, clauses pruned
        multi += want > 1
    assert multi > 8


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


def test_givens_in_colour():
    p = Puzzle.from_grid(("a.b", ".ab"), palette=PAL2)
    r = check(p)
    assert r.status.value == "multiple"
    r2 = check(p, givens={(0, 0): 1})
    assert r2.status.value == "unique" and r2.solutions[0] == ("a.b", ".ab")
    r3 = check(p, givens={(0, 0): 0})
    assert r3.status.value == "unique" and r3.solutions[0] == (".ab", "a.b")
    assert check(p, givens={(0, 0): 2}).status.value == "none"


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
