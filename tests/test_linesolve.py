"""The line solver against brute-force enumeration of placements."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.linesolve import LineSolver, solve_line
from satnono.model import line_clue


def brute(clue, n, black, white):
    """(forced black, forced white, valid starts per block) or None, by enumeration."""
    full = (1 << n) - 1
    can_b = can_w = 0
    starts = [0] * len(clue)
    found = False
    for bits in itertools.product(".#", repeat=n):
        s = "".join(bits)
        if line_clue(s) != clue:
            continue
        m = sum(1 << i for i, ch in enumerate(s) if ch == "#")
        if m & white or black & ~m:
            continue
        found = True
        can_b |= m
        can_w |= full & ~m
        pos = 0
        for j, c in enumerate(clue):
            i = s.index("#" * c, pos)
            starts[j] |= 1 << i
            pos = i + c + 1
    if not found:
        return None
    return full & ~can_w, full & ~can_b, tuple(starts)


@st.composite
def line_case(draw):
    n = draw(st.integers(1, 11))
    if draw(st.booleans()):
        cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
        clue = line_clue("".join("#" if b else "." for b in cells))
    else:
        clue = tuple(draw(st.lists(st.integers(1, 5), max_size=4)))
    known = draw(st.lists(st.sampled_from("?#."), min_size=n, max_size=n))
    black = sum(1 << i for i, ch in enumerate(known) if ch == "#")
    white = sum(1 << i for i, ch in enumerate(known) if ch == ".")
    return clue, n, black, white


@settings(max_examples=1500, deadline=None)
@given(line_case())
def test_matches_brute_force(case):
    clue, n, black, white = case
    got = solve_line(clue, n, black, white)
    want = brute(clue, n, black, white)
    if want is None:
        assert got is None
    else:
        assert got is not None
        assert (got.black, got.white, got.starts) == want


def test_random_lines_many():
    rng = random.Random(7)
    for _ in range(3000):
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
        got = solve_line(clue, n, black & ~white, white & ~black)
        want = brute(clue, n, black & ~white, white & ~black)
        assert (got is None) == (want is None)
        if got is not None:
            assert (got.black, got.white, got.starts) == want


def test_mostly_known_lines():
    """Lines with known ends (the trimmed path), complete lines, and wrong known runs."""
    rng = random.Random(11)
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
        want = brute(clue, n, black, white)
        assert (got is None) == (want is None), (clue, n, bin(black), bin(white))
        if got is not None:
            assert (got.black, got.white, got.starts) == want, (clue, n, bin(black), bin(white))
        full = (1 << n) - 1
        complete += (black | white) == full
        trimmed += bool(white & 1) or bool((white >> (n - 1)) & 1)
        contradictions += want is None
    assert trimmed > 1000 and complete > 500 and contradictions > 300


def test_empty_clue():
    r = solve_line((), 5)
    assert r.black == 0 and r.white == 0b11111 and r.starts == ()
    assert solve_line((), 5, black=0b100) is None


def test_clue_too_long():
    assert solve_line((3, 2), 5) is None
    assert solve_line((6,), 5) is None
    r = solve_line((3, 1), 5)
    assert r.black == 0b10111 and r.white == 0b01000


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
