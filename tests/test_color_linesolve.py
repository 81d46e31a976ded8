"""The colour line solver against brute-force enumeration of placements."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.linesolve import LineSolver, solve_color_line, solve_line
from tests._brute_color import blocks_of, brute_line, char_of


@st.composite
def color_line_case(draw):
    ncolors = draw(st.integers(2, 5))
    n = draw(st.integers(1, 10))
    if draw(st.booleans()):
        cells = "".join(char_of(v) for v in draw(st.lists(st.integers(0, ncolors), min_size=n, max_size=n)))
        lengths, colors = blocks_of(cells)
    else:
        k = draw(st.integers(0, 4))
        lengths = tuple(draw(st.lists(st.integers(1, 4), min_size=k, max_size=k)))
        colors = tuple(draw(st.lists(st.integers(1, ncolors), min_size=k, max_size=k)))
    # known cells: each cell excludes a random subset of values
    excluded = [0] * (ncolors + 1)
    for i in range(n):
        for v in range(ncolors + 1):
            if draw(st.integers(0, 9)) == 0:
                excluded[v] |= 1 << i
    return lengths, colors, n, tuple(excluded)


@settings(max_examples=2000, deadline=None)
@given(color_line_case())
def test_matches_brute_force(case):
    lengths, colors, n, excluded = case
    got = solve_color_line(lengths, colors, n, excluded)
    want = brute_line(lengths, colors, n, excluded)
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert (got.excluded, got.starts) == want


def test_random_lines_with_known_cells():
    """Random pictures with some cells known (a few wrongly): exact agreement, contradictions included."""
    rng = random.Random(5)
    contradictions = solved = 0
    for _ in range(3000):
        ncolors = rng.randint(2, 5)
        n = rng.randint(1, 11)
        vals = [rng.choice([0, 0] + list(range(1, ncolors + 1))) for _ in range(n)]
        lengths, colors = blocks_of("".join(char_of(v) for v in vals))
        excluded = [0] * (ncolors + 1)
        for i, v in enumerate(vals):
            r = rng.random()
            if r < 0.25:  # known: every other value excluded
                for u in range(ncolors + 1):
                    if u != v:
                        excluded[u] |= 1 << i
            elif r < 0.45:  # partly known: one wrong value excluded
                u = rng.choice([u for u in range(ncolors + 1) if u != v])
                excluded[u] |= 1 << i
            elif r < 0.5:  # wrong: the true value excluded
                excluded[v] |= 1 << i
        excluded_t = tuple(excluded)
        got = solve_color_line(lengths, colors, n, excluded_t)
        want = brute_line(lengths, colors, n, excluded_t)
        assert (got is None) == (want is None), (lengths, colors, n, excluded_t)
        if got is not None:
            assert (got.excluded, got.starts) == want, (lengths, colors, n, excluded_t)
            solved += 1
        else:
            contradictions += 1
    assert solved > 1000 and contradictions > 300


def test_one_colour_line_agrees_with_black_and_white_solver():
    rng = random.Random(9)
    for _ in range(500):
        n = rng.randint(1, 14)
        cells = "".join(rng.choice("a.") for _ in range(n))
        lengths, colors = blocks_of(cells)
        black = sum(1 << i for i in range(n) if rng.random() < 0.15 and cells[i] == "a")
        white = sum(1 << i for i in range(n) if rng.random() < 0.15 and cells[i] == ".")
        bw = solve_line(lengths, n, black, white)
        col = solve_color_line(lengths, colors, n, (black, white))
        assert col is not None and bw is not None
        assert col.excluded == (bw.black, bw.white) and col.starts == bw.starts


def test_different_colours_may_touch_same_colours_may_not():
    # (1 a)(1 b) fits in two cells; (1 a)(1 a) does not
    assert solve_color_line((1, 1), (1, 2), 2, (0, 0, 0)) is not None
    assert solve_color_line((1, 1), (1, 1), 2, (0, 0, 0)) is None
    # a 3-cell line 'ab.' / '.ab' / 'a.b': the middle cell may be a, b or background
    r = solve_color_line((1, 1), (1, 2), 3, (0, 0, 0))
    assert r.excluded == (0, 0b100, 0b001)


def test_long_lines_many_colours():
    """Long random lines: the true picture is always consistent with the result."""
    rng = random.Random(3)
    cache = LineSolver()
    for n in (40, 100, 300):
        for _ in range(5):
            ncolors = rng.randint(2, 6)
            vals = [rng.choice([0] * 3 + list(range(1, ncolors + 1))) for _ in range(n)]
            lengths, colors = blocks_of("".join(char_of(v) for v in vals))
            excluded = [0] * (ncolors + 1)
            for i, v in enumerate(vals):
                if rng.random() < 0.1:
                    for u in range(ncolors + 1):
                        if u != v:
                            excluded[u] |= 1 << i
            got = cache.color(lengths, colors, n, tuple(excluded))
            assert got is not None
            for i, v in enumerate(vals):
                assert not (got.excluded[v] >> i) & 1
    assert cache.color(lengths, colors, n, tuple(excluded)) is got and cache.hits == 1
