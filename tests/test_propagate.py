"""Propagation: the bit-matrix transposition and the two ways new cells reach the crossing lines."""

from __future__ import annotations

import random

import pytest

from satnono import Puzzle
from satnono.logic import propagate as prop
from satnono.lines import LineSolver, solve_line
from satnono.logic.propagate import propagate, transpose
from satnono.logic.state import GridState


def _naive_transpose(masks, width):
    return [sum(((m >> c) & 1) << r for r, m in enumerate(masks)) for c in range(width)]


@pytest.mark.parametrize("h, w", [(0, 3), (1, 1), (1, 9), (9, 1), (3, 5), (8, 8), (25, 25), (7, 40), (33, 17),
                                  (100, 80), (130, 257)])
def test_transpose_matches_bit_by_bit(h, w):
    rng = random.Random(h * 1000 + w)
    for density in (0.0, 0.3, 1.0):
        masks = [sum(1 << c for c in range(w) if rng.random() < density) for _ in range(h)]
        cols = transpose(masks, w)
        assert cols == _naive_transpose(masks, w)
        assert transpose(cols, h) == masks


def _random_case(rng: random.Random):
    h, w = rng.randint(1, 45), rng.randint(1, 45)
    grid = ["".join("#" if rng.random() < 0.55 else "." for _ in range(w)) for _ in range(h)]
    givens = []
    for _ in range(rng.choice((0, 0, 3, 12))):  # some givens contradict the picture
        givens.append((rng.randrange(h), rng.randrange(w), rng.random() < 0.5))
    return Puzzle.from_grid(grid), givens


def _run(puzzle, givens, monkeypatch, limit):
    monkeypatch.setattr(prop, "scatter_limit", lambda side: limit)
    state = GridState(puzzle)
    for r, c, black in givens:
        if state.cell(r, c) is None:
            state.set_cell(r, c, black)
    bad = propagate(state, LineSolver())
    return state, bad


def test_scatter_and_transpose_reach_the_same_fixpoint(monkeypatch):
    rng = random.Random(5)
    contradictions = 0
    for _ in range(150):
        puzzle, givens = _random_case(rng)
        a, bad_a = _run(puzzle, givens, monkeypatch, 1 << 60)  # always cell by cell
        b, bad_b = _run(puzzle, givens, monkeypatch, -1)  # always by transposition
        assert (a.row_black, a.row_white, a.col_black, a.col_white) == (b.row_black, b.row_white,
                                                                        b.col_black, b.col_white)
        assert bad_a == bad_b
        contradictions += bad_a is not None
        for s in (a, b):  # both views agree, and (without a contradiction) no line has more to give
            assert transpose(s.row_black, s.width) == s.col_black
            assert transpose(s.row_white, s.width) == s.col_white
            if bad_a is None:
                for i, clue in enumerate(puzzle.rows):
                    r = solve_line(clue, s.width, s.row_black[i], s.row_white[i])
                    assert (r.black, r.white) == (s.row_black[i], s.row_white[i])
                for i, clue in enumerate(puzzle.columns):
                    r = solve_line(clue, s.height, s.col_black[i], s.col_white[i])
                    assert (r.black, r.white) == (s.col_black[i], s.col_white[i])
    assert contradictions > 5


def test_no_transposition_beyond_the_largest_side(monkeypatch):
    """Grids longer than TRANSPOSE_MAX_SIDE set new cells one by one (the masks would be too large)."""
    from satnono.model import MAX_CELLS

    assert prop.scatter_limit(prop.TRANSPOSE_MAX_SIDE + 1) > MAX_CELLS
    assert prop.scatter_limit(prop.TRANSPOSE_MAX_SIDE) < MAX_CELLS
    assert 32 < prop.scatter_limit(512) < 512 * 512 // 16

    rng = random.Random(3)
    grid = ["".join("#" if rng.random() < 0.75 else "." for _ in range(40)) for _ in range(300)]
    puzzle = Puzzle.from_grid(grid)
    calls = []
    real = prop.transpose

    def counting(masks, width):
        calls.append(width)
        return real(masks, width)

    monkeypatch.setattr(prop, "transpose", counting)
    monkeypatch.setattr(prop, "_native", None)  # the Python sweeps (the compiled fixpoint takes this grid)
    control = GridState(puzzle)
    assert propagate(control, LineSolver()) is None
    assert calls  # this grid is transposed at the usual cap
    calls.clear()
    monkeypatch.setattr(prop, "TRANSPOSE_MAX_SIDE", 64)  # now it is over the cap
    state = GridState(puzzle)
    assert propagate(state, LineSolver()) is None
    assert not calls
    assert (state.row_black, state.row_white, state.col_black, state.col_white) == (
        control.row_black, control.row_white, control.col_black, control.col_white)
    assert _naive_transpose(state.row_black, 40) == state.col_black
