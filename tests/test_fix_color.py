"""fix on colour pictures: every proposal is checked against brute force."""

from __future__ import annotations

import random

from satnono import fix
from satnono.model import Puzzle
from satnono.solve import Status
from tests._brute_color import grid_solutions
from tests._oracles import palette


def _solutions_with(p: Puzzle, givens) -> list:
    sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors)
    return [s for s in sols if all(s[g.row][g.col] == g.char for g in givens)]


def test_proposals_on_random_ambiguous_pictures():
    rng = random.Random(21)
    fixed = 0
    for _ in range(60):
        k = rng.choice((2, 3))
        h, w = rng.randint(2, 4), rng.randint(2, 5)
        grid = tuple("".join(rng.choice("." * k + "abc"[:k]) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        res = fix(p, timeout=60)
        if not res.needs_fix:
            continue
        fixed += 1
        assert res.givens_unique is not None and res.givens_line is not None
        for prop in (res.givens_unique, res.givens_line):
            assert _solutions_with(p, prop.givens) == [grid]  # unique, and the picture itself
            for g in prop.givens:
                assert grid[g.row][g.col] == g.char
        assert res.givens_line.line_solvable
        for e in res.edits:
            assert e.char != grid[e.row][e.col] and e.char in p.chars
            edited = list(grid)
            edited[e.row] = edited[e.row][:e.col] + e.char + edited[e.row][e.col + 1:]
            q = e.puzzle
            assert q.goal == tuple(edited) and q.palette == p.palette
            assert grid_solutions(q.rows, q.row_colors, q.columns, q.column_colors) == [tuple(edited)]
    assert fixed > 10


def test_unique_line_solvable_needs_nothing():
    p = Puzzle.from_grid(("ab", "ba"), palette=palette(2))
    res = fix(p)
    assert res.status == Status.UNIQUE and res.line_solvable and not res.needs_fix
