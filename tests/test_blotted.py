"""Blotted clues end to end, against brute force: every small grid with subsets of its clue
numbers hidden; the verdict and the exact count must equal the number of grids that fit.

The oracle is independent of satnono: it enumerates every grid of the size and reads its
blocks with its own run-length code; a blotted number matches any length >= 1.
"""

from __future__ import annotations

import itertools
import random
from functools import lru_cache

import pytest

from satnono.counting import count
from satnono.diagnose import diagnose
from satnono.model import Puzzle, default_palette
from satnono.solve import check


def _blocks(cells: str) -> tuple[tuple[int, str], ...]:
    out: list[tuple[int, str]] = []
    prev = "."
    for ch in cells:
        if ch != "." and ch == prev:
            out[-1] = (out[-1][0] + 1, ch)
        elif ch != ".":
            out.append((1, ch))
        prev = ch
    return tuple(out)


def _lines(grid: tuple[str, ...]) -> list[tuple[tuple[int, str], ...]]:
    cols = ["".join(row[c] for row in grid) for c in range(len(grid[0]))]
    return [_blocks(r) for r in grid] + [_blocks(c) for c in cols]


@lru_cache(maxsize=None)
def _all_grids(h: int, w: int, chars: str) -> list[list[tuple[tuple[int, str], ...]]]:
    return [_lines(tuple("".join(cells[r * w:(r + 1) * w]) for r in range(h)))
            for cells in itertools.product(chars, repeat=h * w)]


def _fits(blocks, clue) -> bool:
    return len(blocks) == len(clue) and all(
        ch == cc and (n == cn or cn is None) for (n, ch), (cn, cc) in zip(blocks, clue))


def _brute(h: int, w: int, chars: str, clues) -> int:
    return sum(all(_fits(b, c) for b, c in zip(lines, clues)) for lines in _all_grids(h, w, chars))


def _blotted(goal: tuple[str, ...], hide: set[int], palette):
    """The clues of ``goal`` with the numbers listed in ``hide`` (their order over all lines) hidden:
    ``(puzzle, oracle clues)``."""
    lines = _lines(goal)
    oracle, k = [], 0
    for line in lines:
        clue = []
        for n, ch in line:
            clue.append((None if k in hide else n, ch))
            k += 1
        oracle.append(clue)
    h = len(goal)
    spell = [[("?" if n is None else n, ch) for n, ch in clue] for clue in oracle]
    p = Puzzle.from_clues(spell[:h], spell[h:], palette=palette)
    return p, oracle


def _cases(h: int, w: int, chars: str, grids: int, subsets: int, seed: int):
    rng = random.Random(seed)
    pool = list(itertools.product(chars, repeat=h * w))
    rng.shuffle(pool)
    for cells in pool[:grids]:
        goal = tuple("".join(cells[r * w:(r + 1) * w]) for r in range(h))
        numbers = sum(len(line) for line in _lines(goal))
        if numbers == 0:
            continue
        if 2 ** numbers <= subsets:
            hides = [set(s) for m in range(numbers + 1) for s in itertools.combinations(range(numbers), m)]
        else:
            hides = [set(rng.sample(range(numbers), rng.randint(1, numbers))) for _ in range(subsets)]
        for hide in hides:
            yield goal, hide


SIZES = [
    pytest.param(2, 3, ".#", 64, 64, id="2x3-bw-all"),
    pytest.param(3, 3, ".#", 512, 12, id="3x3-bw"),
    pytest.param(4, 4, ".#", 40, 3, id="4x4-bw"),
    pytest.param(3, 3, ".ab", 150, 3, id="3x3-2col"),
]


@pytest.mark.parametrize("h,w,chars,grids,subsets", SIZES)
def test_verdict_and_count_equal_brute_force(h, w, chars, grids, subsets):
    palette = default_palette(len(chars) - 1)
    if len(chars) == 2:
        chars = ".#"
    seen = 0
    for goal, hide in _cases(h, w, chars, grids, subsets, seed=h * 100 + w + len(chars)):
        p, oracle = _blotted(goal, hide, palette)
        want = _brute(h, w, chars, oracle)
        assert want >= 1  # the goal fits
        got = count(p)
        assert got.exact and got.count == want, (goal, hide, got.count, want)
        res = check(p)
        assert res.status == ("unique" if want == 1 else "multiple"), (goal, hide, res.status, want)
        for s in res.solutions:
            assert all(_fits(b, c) for b, c in zip(_lines(s), oracle)), (goal, hide, s)
        seen += 1
    assert seen > 20


def test_diagnose_counts_placements_of_blotted_lines():
    p = Puzzle.from_clues([["?"], [1], ["?"]], [[1], ["?"], [1]])
    d = diagnose(p)
    assert d.status in ("unique", "multiple")
    for ol in d.open_lines:
        assert ol.placements > 1
        if "?" in (ol.text or ""):
            assert "?" in ol.as_dict()["clue"]


@pytest.mark.parametrize("clue,n,fits", [((("?", 1), ("?", 1)), 3, True), ((("?", 1), ("?", 1)), 2, False),
                                         (((2, 1), ("?", 1), (1, 1)), 5, False)])
def test_blots_count_at_least_one_cell(clue, n, fits):
    """The least lengths of a clue with blots decide whether it fits; a misfit is a clean none."""
    rows = [list(clue)] + [[] for _ in range(n - 1)]
    cols = [[] for _ in range(n)]
    p = Puzzle.from_clues(rows, cols)
    res = check(p)
    if not fits:
        assert res.status == "none" and "cells" in (res.reason or "")
    else:
        assert res.status == "none"  # the columns are empty: a clean none from the totals, not an error
