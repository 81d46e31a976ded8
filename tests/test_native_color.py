"""The compiled colour line kernel (``satnono.lines._native_color``) against the Python reference.

The C kernel must give exactly what ``satnono.lines.color._solve_color_line_py`` gives: the same
``ColorLineResult`` (excluded masks and valid starts) or None, for every input; what it does not
handle (a line longer than ``KERNEL_MAX_N`` cells, unusual arguments) it hands to the reference.
It is compared on random lines, on edge cases, and on every colour line met while checking
puzzles of ``puzzles/`` and random colour pictures.  Where a C compiler and the Python headers
are present the extension must have been built, from the C source in this tree, and be in use.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest
from _native_build import can_build, source_sha

import satnono.lines
from satnono.formats import load_all
from satnono.lines import bw, color
from satnono.lines.color import ColorLineResult, _solve_color_line_py
from satnono.model import Puzzle
from satnono.solve import Checker

ROOT = Path(__file__).resolve().parents[1]

try:
    from satnono.lines import _native_color  # type: ignore[attr-defined]
except ImportError:  # not built (no compiler): only the pure path exists
    _native_color = None

needs_native = pytest.mark.skipif(_native_color is None, reason="the compiled colour kernel is not built")


@pytest.fixture(scope="module")
def native():
    assert _native_color is not None
    # under SATNONO_PURE=1 satnono.lines.color does not configure the module: do it here
    _native_color.configure(ColorLineResult, color._solve_color_line_py, bw.solve_line)
    return _native_color


def _same(a, b) -> bool:
    """Equal, of the same type, and so the parts (a ColorLineResult of two tuples of ints)."""
    if a is None or b is None:
        return a is b
    return (a == b and type(a) is type(b) and all(type(x) is tuple for x in (*a, *b))
            and all(type(v) is int for part in (*a, *b) for v in part))


def _blocks(cells: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    lengths: list[int] = []
    colors: list[int] = []
    prev = 0
    for v in cells:
        if v and v == prev:
            lengths[-1] += 1
        elif v:
            lengths.append(1)
            colors.append(v)
        prev = v
    return tuple(lengths), tuple(colors)


def _random_line(rng: random.Random, n: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """lengths, colors, excluded: mostly a random picture's clue with some of its cells' other
    values excluded (maybe its own value: a contradiction; maybe the clue altered), otherwise a
    random clue (same-colour neighbours included) with random exclusions."""
    nvals = rng.randint(2, 5)  # 1..4 block colours
    if rng.random() < 0.6:
        fill = rng.choice((0.2, 0.5, 0.8, 1.0))
        palette = rng.sample(range(1, nvals), rng.randint(1, nvals - 1))
        cells = [rng.choice(palette) if rng.random() < fill else 0 for _ in range(n)]
        lengths, colors = _blocks(cells)
        if lengths and rng.random() < 0.15:
            j = rng.randrange(len(lengths))
            if rng.random() < 0.5:
                lengths = tuple(c for c in (*lengths[:j], lengths[j] + rng.choice((-1, 1)), *lengths[j + 1:]) if c > 0)
                colors = colors[:len(lengths)] if len(lengths) < len(colors) else colors
            else:
                colors = (*colors[:j], rng.randrange(1, nvals), *colors[j + 1:])
        ex = [0] * nvals
        keep = rng.choice((0.0, 0.1, 0.4, 0.8, 1.0))
        for i, v in enumerate(cells):
            if rng.random() < keep:
                for w in range(nvals):
                    if w != v and rng.random() < 0.8:
                        ex[w] |= 1 << i
                if rng.random() < 0.02:
                    ex[v] |= 1 << i  # a contradiction
    else:
        k = rng.choice((0, 1, 2, 3, 5, 8, 12))
        lengths = tuple(rng.randint(1, max(1, n // 4)) for _ in range(k))
        colors = tuple(rng.randrange(1, nvals) for _ in range(k))
        ex = [sum(1 << i for i in range(n) if rng.random() < 0.12) for _ in range(nvals)]
        if n and rng.random() < 0.05:
            i = rng.randrange(n)
            for w in range(nvals):
                ex[w] |= 1 << i  # a cell that can have no value
    return lengths, colors, tuple(ex)


@needs_native
def test_kernel_equals_the_reference_on_random_lines(native):
    """Every length 0..140: the 126-cell limit of the C kernel (62 without __int128) and the
    hand-over to the Python reference beyond it are both inside the range."""
    assert native.KERNEL_MAX_N in (62, 126)
    rng = random.Random(20240911)
    seen = {"none": 0, "one colour": 0, "colours": 0}
    for n in range(141):
        for _ in range(50):
            lengths, colors, ex = _random_line(rng, n)
            want = _solve_color_line_py(lengths, colors, n, ex)
            got = native.solve_color_line(lengths, colors, n, ex)
            assert _same(got, want), (lengths, colors, n, ex, got, want)
            if want is None:
                seen["none"] += 1
            else:
                seen["one colour" if len(set(colors)) <= 1 else "colours"] += 1
    assert min(seen.values()) > 1000, seen  # every kind of answer well represented


@needs_native
def test_kernel_edge_cases(native):
    """Unusual arguments go to the reference: the same answer or the same exception."""
    big = 1 << 126
    cases = [
        ((), (), 0, (0, 0)), ((), (), 0, (0,)), ((), (), 3, (0, 0, 0)), ((), (), 3, (0b100, 0)),
        ((1,), (1,), 0, (0, 0)), ((1, 1), (1, 2), 2, (0, 0, 0)), ((1, 1), (1, 1), 2, (0, 0, 0)),
        ((1, 1), (1, 2), 3, (0, 0, 0)), ((2, 1), (1, 2), 3, (0, 0b011, 0)),
        ((0, 1), (1, 2), 3, (0, 0, 0)), ((4, 1), (1, 2), 3, (0, 0, 0)), ((1, 1), (0, 2), 3, (0, 0, 0)),
        ((1, 1), (1, 3), 3, (0, 0, 0)), ((1, 1), (1, -1), 3, (0, 0, 0)), ((1, 1), (1, 2, 2), 3, (0, 0, 0)),
        ((1, 1), (1, 2), 3, (0, 0, 0b1000)), ((1, 1), (1, 2), 3, (-1, 0, 0)), ((1, 1), (1, 2), 3, (0, -2, 0)),
        ((1, 1), (1, 2), 3, (0, 0, 0, -5)), ((1, 1), (1, 2), 3, (0, 0, 0, "x")), ((1,), (1,), 3, (0, 0, "x")),
        ((1, 1), (1, 2), 3, (0, 0, 0, 1 << 200)), ((1, 1), (1, 2), 3, (0, 0, 0.0)),
        ((1, 1), (True, 2), 3, (0, 0, 0)), ((1, 1), (1, 2), 3, (False, 0, 0)), ((1,), (1,), 3, (True, 0)),
        ([1, 2], [2, 1], 5, [0, 0, 0]), ([1, 2], (2, 2), 5, (0, 0b1, 0)),
        ((3, 3), (1, 2), 126, (0, 0, 0)), ((3, 3), (1, 2), 127, (0, 0, 0)), ((3, 3), (1, 2), 126, (big, 0, 0)),
        ((3, 3), (1, 2), 127, (big, 0, 0)), ((3, 3), (1, 2), 126, (0, big, 0)),
        ((63, 63), (1, 2), 126, (0, 0, 0)), ((63, 63), (1, 1), 126, (0, 0, 0)), ((63, 62), (1, 1), 126, (0, 0, 0)),
        ((1,) * 126, (1, 2) * 63, 126, (0, 0, 0)), ((1,) * 127, (1, 2) * 63 + (1,), 127, (0, 0, 0)),
        ((1,) * 127, (1, 2) * 63 + (1,), 126, (0, 0, 0)), ((126,), (2,), 126, (0, 0, 0)),
        ((1, 1), (1, 2), 3, (0, 0, 0) + (0,) * 300), ((1, 1), (1, 300), 3, (0,) * 301),
    ]
    for lengths, colors, n, ex in cases:
        try:
            want = _solve_color_line_py(lengths, colors, n, ex)
        except Exception as e:  # noqa: BLE001 - the same exception either way
            with pytest.raises(type(e)):
                native.solve_color_line(lengths, colors, n, ex)
            continue
        got = native.solve_color_line(lengths, colors, n, ex)
        assert got == want and type(got) is type(want), (lengths, colors, n, ex, got, want)
    assert native.solve_color_line((1, 1), (1, 2), 3, (0, 0, 0)).excluded == (0, 0b100, 0b001)
    with pytest.raises(TypeError):
        native.solve_color_line((1, 1), (1, 2), 3)


class _Compare:
    """A stand-in for ``satnono.lines.solve_color_line`` that asks both kernels (the reference's
    answer is the one used) and counts the lines by the path the C kernel takes."""

    def __init__(self, native):
        self.native = native
        self.counts = {"short": 0, "long": 0}

    def __call__(self, lengths, colors, n, excluded):
        want = _solve_color_line_py(lengths, colors, n, excluded)
        got = self.native.solve_color_line(lengths, colors, n, excluded)
        assert _same(got, want), (lengths, colors, n, excluded, got, want)
        self.counts["short" if n <= self.native.KERNEL_MAX_N else "long"] += 1
        return want


def _picture(rng: random.Random, w: int, h: int, fill: float, chars: str = "abc") -> Puzzle:
    grid = ["".join(rng.choice(chars) if rng.random() < fill else "." for _ in range(w)) for _ in range(h)]
    return Puzzle.from_grid(grid, goal=None)


COLOUR_PUZZLES = ("satnono/colour-search-10x10.non", "webpbn/webpbn-color-00047.xml",
                  "webpbn/webpbn-color-00220.xml")


@needs_native
def test_every_line_of_checked_colour_puzzles(native, monkeypatch):
    """Every colour line the checker meets (propagation, probing, search), on puzzles of
    ``puzzles/`` and random pictures, one of them wider than the C kernel's limit."""
    compare = _Compare(native)
    monkeypatch.setattr(satnono.lines, "solve_color_line", compare)
    rng = random.Random(20240912)
    puzzles = [load_all(str(ROOT / "puzzles" / p))[0].replace(goal=None) for p in COLOUR_PUZZLES]
    puzzles += [_picture(rng, rng.randint(8, 20), rng.randint(8, 20), rng.choice((0.3, 0.5, 0.7)))
                for _ in range(6)]
    puzzles.append(_picture(rng, 130, 6, 0.5, "ab"))
    checker = Checker()
    for p in puzzles:
        assert p.ncolors > 1
        checker.check(p)
    assert compare.counts["short"] > 1000 and compare.counts["long"] > 0, compare.counts


@pytest.mark.skipif(not can_build(), reason="no C compiler or no Python headers: pure Python by design")
def test_the_compiled_colour_kernel_is_built_and_used():
    """With a compiler and the headers the install builds the kernel; a silent fall-back fails here."""
    assert _native_color is not None, "satnono.lines._native_color was not built: reinstall (pip install .) " \
        "or python setup.py build_ext --inplace"
    assert _native_color.SOURCE_SHA256 == source_sha("_native_color"), \
        "satnono.lines._native_color was built from another version of satnono/lines/_native_color.c: rebuild it"
    pure = os.environ.get("SATNONO_PURE", "") not in ("", "0")
    assert color.NATIVE is (not pure)
    assert (color.solve_color_line is _native_color.solve_color_line) is (not pure)
    assert (satnono.lines.solve_color_line is _native_color.solve_color_line) is (not pure)
