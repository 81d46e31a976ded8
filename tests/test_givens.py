"""Given (revealed) cells as part of a puzzle: the model, JSON, and every consumer honours them."""

from __future__ import annotations

import random

import pytest

from satnono import check
from satnono.counting import count
from satnono.diagnose import diagnose
from satnono.errors import ParseError
from satnono.fixer import fix
from satnono.formats import dumps, loads
from satnono.model import Puzzle, default_palette

from _oracles import brute_force_solutions, grid_solutions


def _with(p: Puzzle, givens) -> Puzzle:
    return Puzzle(p.rows, p.columns, p.name, p.goal, p.meta, p.source, p.palette, p.row_colors, p.column_colors,
                  givens)


def test_model_validates_and_sorts():
    p = Puzzle.from_grid(["#.", ".#"], givens=[(1, 1, True), (0, 0, 1)])
    assert p.givens == ((0, 0, 1), (1, 1, 1))
    for bad in ([(2, 0, 1)], [(0, 0, 2)], [(0, 0, 1), (0, 0, 0)], [(0, 1)]):
        with pytest.raises(ValueError):
            Puzzle.from_grid(["#.", ".#"], givens=bad)
    assert not p.is_solution((".#", "#."))  # it disagrees with the givens


def test_verdicts_and_counts_against_brute_force():
    """Black and white and colour: with random givens taken from a solution (or not), the verdict,
    the count and the diagnosis match brute force over the solutions that agree with the givens."""
    rng = random.Random(31)
    seen = set()
    for _ in range(120):
        colour = rng.random() < 0.5
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        if colour:
            pal = default_palette(2)
            grid = tuple("".join(rng.choice("..ab") for _ in range(w)) for _ in range(h))
            p = Puzzle.from_grid(grid, palette=pal)
            sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors)
        else:
            grid = tuple("".join(rng.choice("#.") for _ in range(w)) for _ in range(h))
            p = Puzzle.from_grid(grid)
            sols = brute_force_solutions(p)
        chars = p.chars
        cells = rng.sample([(r, c) for r in range(h) for c in range(w)], rng.randint(1, 3))
        source = rng.choice(sols) if rng.random() < 0.8 else grid
        givens = [(r, c, chars.index(source[r][c]) if rng.random() < 0.9 else rng.randrange(len(chars)))
                  for r, c in cells]
        q = _with(p, givens)
        want = [s for s in sols if all(s[r][c] == chars[v] for r, c, v in q.givens)]
        status = "none" if not want else "unique" if len(want) == 1 else "multiple"
        res = check(q)
        assert res.status.value == status, (grid, givens)
        for s in res.solutions:
            assert s in want
        c = count(q)
        assert (c.count, c.exact) == (len(want), True)
        d = diagnose(q)
        assert d.status == status
        if status == "multiple":
            region = sorted({(r, c) for s in want for r in range(h) for c in range(w) if s[r][c] != want[0][r][c]})
            assert d.ambiguous == region and d.ambiguity_complete
        seen.add(status)
    assert seen == {"none", "unique", "multiple"}


def test_json_round_trip_and_refusal_elsewhere():
    p = Puzzle.from_grid(["ab.", ".ab"], palette=default_palette(2), givens=[(0, 0, 1), (1, 0, 0)])
    text = dumps(p, "json")
    assert '"givens"' in text and '[0, 0, "a"]' in text and '[1, 0, "."]' in text
    q = loads(text)[0]
    assert q.givens == p.givens and q.palette == p.palette
    with pytest.raises(ValueError, match="cannot store given"):
        dumps(p, "non")
    bw = loads('{"rows": [[1], [1]], "columns": [[1], [1]], "givens": [[0, 1, "#"]]}')[0]
    assert bw.givens == ((0, 1, 1),) and check(bw).solutions == ((".#", "#."),)
    for bad, why in (('[[0, 0, "z"]]', "value one of"), ('[[9, 0, "#"]]', "outside"), ('{"a": 1}', "list"),
                     ('[[0, 0, "#"], [0, 0, "."]]', "twice")):
        with pytest.raises(ParseError, match=why):
            loads('{"rows": [[1], [1]], "columns": [[1], [1]], "givens": %s}' % bad, source="g.json")


def test_fix_proposals_respect_existing_givens():
    """A puzzle that already reveals a cell: proposals are verified with it, and edits keep it."""
    p = Puzzle.from_grid(["#..#", ".#..", "..#.", "#..#"], givens=[(0, 0, 1)])
    res = fix(p, timeout=30)
    assert res.givens_unique is not None
    full = _with(p, list(p.givens) + [(g.row, g.col, int(g.black)) for g in res.givens_unique.givens])
    assert check(full).status.value == "unique"
    for e in res.edits:
        assert e.puzzle.givens and check(e.puzzle).status.value == "unique"
