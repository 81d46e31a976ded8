"""The line kernels against brute-force enumeration of placements, for every kind of line.

A line's kind is :attr:`satnono.clues.LineClue.kind`: ``bw`` (one block colour), ``color``
(blocks of several colours) and ``blotted`` (some lengths hidden).  Every case is answered twice,
through the one dispatch :meth:`satnono.lines.LineSolver.solve` and through the kind's kernel
function directly (``solve_line``, ``solve_color_line``, ``solve_range_line``), and both answers
are checked against the kind's oracle in ``tests/_oracles.py``.  The tests that only make sense
for one kind (the trimmed ends of the black-and-white kernel, colours touching) stay specific.
"""

from __future__ import annotations

import random

import pytest
from _oracles import blocks_of, brute_bw_line, brute_clue, brute_line, char_of
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.clues import LineClue
from satnono.lines.blotted import solve_range_line
from satnono.lines import LineSolver, solve_color_line, solve_line
from satnono.model import line_clue

KINDS = ("bw", "color", "blotted")


def kernel(kind: str, clue: LineClue, n: int, excluded: tuple[int, ...]):
    """The kind's kernel function, called directly."""
    if kind == "bw":
        black, white = excluded
        return solve_line(clue.lengths, n, black, white)
    if kind == "color":
        return solve_color_line(clue.lengths, clue.colors, n, excluded)
    lo, hi = clue.ranges(n)
    return solve_range_line(lo, hi, clue.colors, n, excluded)


def oracle(kind: str, clue: LineClue, n: int, excluded: tuple[int, ...]):
    """``(excluded, starts, ends)`` by the kind's brute force, or None when nothing fits."""
    if kind == "bw":
        black, white = excluded
        want = brute_bw_line(clue.lengths, n, black, white)
        if want is None:
            return None
        ex, starts = want[:2], want[2]
    elif kind == "color":
        want = brute_line(clue.lengths, clue.colors, n, excluded)
        if want is None:
            return None
        ex, starts = want
    else:
        return brute_clue(clue, n, excluded)
    return ex, starts, tuple(s << (c - 1) for s, c in zip(starts, clue.lengths))


def check(kind: str, clue: LineClue, n: int, excluded: tuple[int, ...], solver: LineSolver):
    """Both paths agree with the oracle; returns the oracle's answer."""
    want = oracle(kind, clue, n, excluded)
    case = (kind, clue, n, excluded)
    direct = kernel(kind, clue, n, excluded)
    for got in (direct, solver.solve(clue, n, excluded)):
        if want is None:
            assert got is None, case
            continue
        assert got is not None, case
        assert (got.excluded, got.starts) == want[:2], case
        ends = getattr(got, "ends", None)
        if ends is None:  # fixed lengths: a block ends length - 1 cells after it starts
            ends = tuple(s << (c - 1) for s, c in zip(got.starts, clue.lengths))
        assert ends == want[2], case
    if kind == "bw" and want is not None:
        assert (direct.black, direct.white) == want[0]
    return want


# --- the cases: one generator per kind ----------------------------------------------------------

@st.composite
def bw_case(draw):
    n = draw(st.integers(1, 11))
    if draw(st.booleans()):
        cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        clue = line_clue("".join("#" if b else "." for b in cells))
    else:
        clue = tuple(draw(st.lists(st.integers(1, 5), max_size=4)))
    known = draw(st.lists(st.sampled_from("?#."), min_size=n, max_size=n))
    black = sum(1 << i for i, ch in enumerate(known) if ch == "#")
    white = sum(1 << i for i, ch in enumerate(known) if ch == ".")
    return LineClue(clue, (1,) * len(clue)), n, (black, white)


def _draw_blocks(draw, ncolors: int, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """A clue's (lengths, colours): a random line's own blocks, or random blocks (which may not fit)."""
    if draw(st.booleans()):
        cells = "".join(char_of(v) for v in draw(st.lists(st.integers(0, ncolors), min_size=n, max_size=n)))
        return blocks_of(cells)
    k = draw(st.integers(0, 4))
    lengths = tuple(draw(st.lists(st.integers(1, 4), min_size=k, max_size=k)))
    return lengths, tuple(draw(st.lists(st.integers(1, ncolors), min_size=k, max_size=k)))


def _draw_excluded(draw, ncolors: int, n: int, odds: int) -> tuple[int, ...]:
    """Known cells: each cell excludes each value with probability 1 / ``odds``."""
    excluded = [0] * (ncolors + 1)
    for i in range(n):
        for v in range(ncolors + 1):
            if draw(st.integers(0, odds - 1)) == 0:
                excluded[v] |= 1 << i
    return tuple(excluded)


@st.composite
def color_case(draw):
    ncolors = draw(st.integers(2, 5))
    n = draw(st.integers(1, 10))
    lengths, colors = _draw_blocks(draw, ncolors, n)
    return LineClue(lengths, colors), n, _draw_excluded(draw, ncolors, n, 10)


@st.composite
def blotted_case(draw):
    ncolors = draw(st.integers(1, 3))
    n = draw(st.integers(1, 7 if ncolors < 3 else 6))
    lengths, colors = _draw_blocks(draw, ncolors, n)
    blots = draw(st.integers(0, (1 << len(lengths)) - 1)) if lengths else 0
    lengths = tuple(1 if (blots >> j) & 1 else c for j, c in enumerate(lengths))
    return LineClue(lengths, colors, blots), n, _draw_excluded(draw, ncolors, n, 7)


CASES = {"bw": (bw_case, 1500), "color": (color_case, 2000), "blotted": (blotted_case, 1000)}


@pytest.mark.parametrize("kind", KINDS)
def test_matches_brute_force(kind):
    strategy, examples = CASES[kind]
    solver = LineSolver()

    @settings(max_examples=examples, deadline=None)
    @given(strategy())
    def run(case):
        clue, n, excluded = case
        check(kind, clue, n, excluded, solver)

    run()


def _random_bw(rng: random.Random):
    n = rng.randint(1, 12)
    cells = "".join(rng.choice("#.") for _ in range(n))
    clue = line_clue(cells)
    black = white = 0
    for i, ch in enumerate(cells):
        r = rng.random()
        if r < 0.2:
            black |= (ch == "#") << i
            white |= (ch == ".") << i
        elif r < 0.25:  # a wrong known cell now and then: contradictions too
            white |= 1 << i
    return LineClue(clue, (1,) * len(clue)), n, (black & ~white, white & ~black)


def _random_color(rng: random.Random):
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
    return LineClue(lengths, colors), n, tuple(excluded)


def _random_blotted(rng: random.Random):
    """The clue of a random picture with some lengths blotted (now and then one changed), some
    cells known (a few wrongly)."""
    ncolors = rng.randint(1, 3)
    n = rng.randint(1, 7 if ncolors < 3 else 6)
    vals = [rng.choice([0] * ncolors + list(range(1, ncolors + 1))) for _ in range(n)]
    lengths, colors = blocks_of("".join(char_of(v) for v in vals))
    if lengths and rng.random() < 0.15:
        j = rng.randrange(len(lengths))
        lengths = lengths[:j] + (max(1, lengths[j] + rng.choice((-1, 1))),) + lengths[j + 1:]
    blots = sum(1 << j for j in range(len(lengths)) if rng.random() < 0.4)
    lengths = tuple(1 if (blots >> j) & 1 else c for j, c in enumerate(lengths))
    excluded = [0] * (ncolors + 1)
    known = rng.random() * 0.6
    for i, v in enumerate(vals):
        if rng.random() < known:
            truth = v if rng.random() < 0.9 else rng.randint(0, ncolors)
            for u in range(ncolors + 1):
                if u != truth:
                    excluded[u] |= 1 << i
        elif rng.random() < 0.15:
            excluded[rng.randint(0, ncolors)] |= 1 << i
    return LineClue(lengths, colors, blots), n, tuple(excluded)


# kind: (seed, lines, generator, at least this many solved, at least this many contradictions)
RANDOM = {"bw": (7, 3000, _random_bw, 1000, 200),
          "color": (5, 3000, _random_color, 1000, 300),
          "blotted": (13, 2000, _random_blotted, 1500, 150)}


@pytest.mark.parametrize("kind", KINDS)
def test_random_lines_with_known_cells(kind):
    """Random pictures with some cells known (a few wrongly): exact agreement, contradictions included."""
    seed, count, make, min_solved, min_contradictions = RANDOM[kind]
    rng = random.Random(seed)
    solver = LineSolver()
    solved = contradictions = blotted = 0
    for _ in range(count):
        clue, n, excluded = make(rng)
        blotted += clue.kind == "blotted"
        if check(kind, clue, n, excluded, solver) is None:
            contradictions += 1
        else:
            solved += 1
    assert solved > min_solved and contradictions > min_contradictions
    assert (blotted > count // 3) == (kind == "blotted")


def test_mostly_known_lines():
    """Black and white: lines with known ends (the trimmed path), complete lines, and wrong known runs."""
    rng = random.Random(11)
    solver = LineSolver()
    trimmed = complete = contradictions = 0
    for _ in range(4000):
        n = rng.randint(1, 12)
        cells = "".join(rng.choice("#.") for _ in range(n))
        clue = line_clue(cells)
        if clue and rng.random() < 0.2:  # a clue that differs from the picture's
            clue = tuple(max(1, c + rng.choice((-1, 1))) for c in clue)
        density = rng.choice((0.6, 0.85, 1.0))
        black = white = 0
        for i, ch in enumerate(cells):
            if rng.random() < density:
                wrong = rng.random() < 0.03
                if (ch == "#") != wrong:
                    black |= 1 << i
                else:
                    white |= 1 << i
        got = solve_line(clue, n, black, white)
        want = brute_bw_line(clue, n, black, white)
        assert (got is None) == (want is None), (clue, n, bin(black), bin(white))
        if got is not None:
            assert (got.black, got.white, got.starts) == want, (clue, n, bin(black), bin(white))
        assert solver.solve(LineClue(clue, (1,) * len(clue)), n, (black, white)) == got
        full = (1 << n) - 1
        complete += (black | white) == full
        trimmed += bool(white & 1) or bool((white >> (n - 1)) & 1)
        contradictions += want is None
    assert trimmed > 1000 and complete > 500 and contradictions > 300


# (kind, clue, n, excluded, the answer: (excluded, starts) or None)
EDGE_CASES = [
    # the empty clue: every cell background
    ("bw", LineClue((), ()), 5, (0, 0), ((0, 0b11111), ())),
    ("bw", LineClue((), ()), 5, (0b100, 0), None),
    ("color", LineClue((), ()), 5, (0, 0, 0), ((0, 0b11111, 0b11111), ())),
    ("color", LineClue((), ()), 5, (0b100, 0, 0), None),
    ("blotted", LineClue((), ()), 5, (0, 0, 0), ((0, 0b11111, 0b11111), ())),
    # clues too long for the line
    ("bw", LineClue((3, 2), (1, 1)), 5, (0, 0), None),
    ("bw", LineClue((6,), (1,)), 5, (0, 0), None),
    ("color", LineClue((3, 2, 1), (1, 2, 2)), 5, (0, 0, 0), None),
    ("blotted", LineClue((1, 1, 1), (1, 1, 1), blots=0b111), 4, (0, 0), None),
    # clues that only just fit
    ("bw", LineClue((3, 1), (1, 1)), 5, (0, 0), ((0b10111, 0b01000), (0b00001, 0b10000))),
    ("color", LineClue((3, 2), (1, 2)), 5, (0, 0, 0), ((0b11111, 0b11000, 0b00111), (0b00001, 0b01000))),
    ("blotted", LineClue((1, 1, 1), (1, 1, 1), blots=0b101), 5, (0, 0),
     ((0b10101, 0b01010), (0b00001, 0b00100, 0b10000))),
]


@pytest.mark.parametrize("kind, clue, n, excluded, want", EDGE_CASES)
def test_edge_cases(kind, clue, n, excluded, want):
    got = kernel(kind, clue, n, excluded)
    if want is None:
        assert got is None
        assert LineSolver().solve(clue, n, excluded) is None
    else:
        assert (got.excluded, got.starts) == want
        assert (LineSolver().solve(clue, n, excluded).excluded, got.starts) == want
    o = oracle(kind, clue, n, excluded)
    assert (o is None) == (want is None) and (o is None or o[:2] == want)


def test_empty_clue():
    r = solve_line((), 5)
    assert r.black == 0 and r.white == 0b11111 and r.starts == ()
    assert solve_line((), 5, black=0b100) is None


def test_clue_too_long():
    assert solve_line((3, 2), 5) is None
    assert solve_line((6,), 5) is None
    r = solve_line((3, 1), 5)
    assert r.black == 0b10111 and r.white == 0b01000


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
        # and the blotted kernel with every range fixed
        rl = solve_range_line(lengths, lengths, colors, n, (black, white))
        assert rl is not None and (rl.excluded, rl.starts) == (col.excluded, col.starts)


def test_different_colours_may_touch_same_colours_may_not():
    # (1 a)(1 b) fits in two cells; (1 a)(1 a) does not
    assert solve_color_line((1, 1), (1, 2), 2, (0, 0, 0)) is not None
    assert solve_color_line((1, 1), (1, 1), 2, (0, 0, 0)) is None
    # a 3-cell line 'ab.' / '.ab' / 'a.b': the middle cell may be a, b or background
    r = solve_color_line((1, 1), (1, 2), 3, (0, 0, 0))
    assert r.excluded == (0, 0b100, 0b001)
    # the same through the one dispatch, and with the lengths blotted
    solver = LineSolver()
    assert solver.solve(LineClue((1, 1), (1, 1)), 2, (0, 0, 0)) is None
    assert solver.solve(LineClue((1, 1), (1, 2)), 3, (0, 0, 0)).excluded == r.excluded
    assert solver.solve(LineClue((1, 1), (1, 1), blots=0b11), 2, (0, 0, 0)) is None
    assert solver.solve(LineClue((1, 1), (1, 2), blots=0b11), 2, (0, 0, 0)) is not None


def _long_line_expectation(clue, n, black, white):
    """Forced cells of a line by a plain O(n*k) prefix/suffix DP, written independently."""
    k = len(clue)
    may_w = [not (black >> i) & 1 for i in range(n)]
    may_b = [not (white >> i) & 1 for i in range(n)]

    def fits(s, c):
        return s + c <= n and all(may_b[s:s + c])

    # pre[j][i]: cells [0, i) hold exactly blocks 0..j-1
    pre = [[False] * (n + 1) for _ in range(k + 1)]
    pre[0][0] = True
    for j in range(k + 1):
        for i in range(n + 1):
            v = pre[j][i] or (i >= 1 and may_w[i - 1] and pre[j][i - 1])
            if j >= 1:
                c = clue[j - 1]
                s = i - c
                if s >= 0 and fits(s, c):
                    if (s == 0 and j == 1) or (s >= 1 and may_w[s - 1] and pre[j - 1][s - 1]):
                        v = True
            pre[j][i] = v
    # suf[j][i]: cells [i, n) hold exactly blocks j..k-1
    suf = [[False] * (n + 2) for _ in range(k + 1)]
    suf[k][n] = True
    for j in range(k, -1, -1):
        for i in range(n, -1, -1):
            v = suf[j][i] or (i < n and may_w[i] and suf[j][i + 1])
            if j < k and fits(i, clue[j]):
                e = i + clue[j]
                if (e == n and j == k - 1) or (e < n and may_w[e] and suf[j + 1][e + 1]):
                    v = True
            suf[j][i] = v
    can_b = can_w = 0
    for j, c in enumerate(clue):
        for s in range(n - c + 1):
            if not fits(s, c):
                continue
            left = (s == 0 and j == 0) or (s >= 1 and may_w[s - 1] and pre[j][s - 1])
            e = s + c
            right = (e == n and j == k - 1) or (e < n and may_w[e] and suf[j + 1][e + 1])
            if left and right:
                can_b |= ((1 << c) - 1) << s
    for i in range(n):
        if may_w[i] and any(pre[j][i] and suf[j][i + 1] for j in range(k + 1)):
            can_w |= 1 << i
    full = (1 << n) - 1
    return full & ~can_w, full & ~can_b


def test_long_lines_against_independent_dp():
    """Black and white, long lines: the forced cells of an independent DP."""
    rng = random.Random(11)
    cache = LineSolver()
    for n in (64, 100, 512, 700, 1030):
        for _ in range(6):
            cells = "".join("#" if rng.random() < 0.55 else "." for _ in range(n))
            clue = line_clue(cells)
            black = white = 0
            for i, ch in enumerate(cells):
                if rng.random() < 0.1:
                    if ch == "#":
                        black |= 1 << i
                    else:
                        white |= 1 << i
            got = cache(clue, n, black, white)
            assert got is not None
            assert (got.black, got.white) == _long_line_expectation(clue, n, black, white)
            # the true line is a placement: its cells agree with everything forced
            m = sum(1 << i for i, ch in enumerate(cells) if ch == "#")
            assert got.black & ~m == 0 and got.white & m == 0
    assert cache(clue, n, black, white) is got and cache.hits >= 1


@pytest.mark.parametrize("kind", KINDS)
def test_long_lines_keep_the_true_picture(kind):
    """Long random lines (one colour for ``bw``, many for the others; a fifth of the blocks
    blotted for ``blotted``): the true picture is always consistent with the result; the cache
    answers a repeated call with the same object."""
    rng = random.Random({"bw": 4, "color": 3, "blotted": 8}[kind])
    cache = LineSolver()
    for n in (40, 100, 300):
        for _ in range(5):
            ncolors = 1 if kind == "bw" else rng.randint(2, 6)
            vals = [rng.choice([0] * 3 + list(range(1, ncolors + 1))) for _ in range(n)]
            lengths, colors = blocks_of("".join(char_of(v) for v in vals))
            blots = sum(1 << j for j in range(len(lengths)) if rng.random() < 0.2) if kind == "blotted" else 0
            clue = LineClue(tuple(1 if (blots >> j) & 1 else c for j, c in enumerate(lengths)), colors, blots)
            excluded = [0] * (ncolors + 1)
            for i, v in enumerate(vals):
                if rng.random() < 0.1:
                    for u in range(ncolors + 1):
                        if u != v:
                            excluded[u] |= 1 << i
            if kind == "color":
                got = cache.color(lengths, colors, n, tuple(excluded))
            else:
                got = cache.solve(clue, n, tuple(excluded))
                assert got == kernel(kind, clue, n, tuple(excluded))
            assert got is not None
            for i, v in enumerate(vals):
                assert not (got.excluded[v] >> i) & 1
    if kind == "color":
        assert cache.color(lengths, colors, n, tuple(excluded)) is got and cache.hits == 1
    else:
        assert cache.solve(clue, n, tuple(excluded)) is got and cache.hits == 1


def test_oracles_agree_on_small_lines():
    """The three oracles answer the same on the lines all of them take (no blot, up to 3 colours)."""
    rng = random.Random(2)
    for _ in range(300):
        k = rng.randint(1, 3)
        n = rng.randint(1, 6)
        vals = [rng.randint(0, k) for _ in range(n)]
        lengths, colors = blocks_of("".join(char_of(v) for v in vals))
        clue = LineClue(lengths, colors)
        excluded = tuple(sum(1 << i for i in range(n) if rng.random() < 0.2) for _ in range(k + 1))
        want = brute_clue(clue, n, excluded)
        assert oracle("color", clue, n, excluded) == want
        if k == 1:
            assert oracle("bw", clue, n, excluded) == want
