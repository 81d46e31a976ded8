"""The compiled core (``satnono.lines._native``) against the Python reference it transcribes.

The C line kernel and clause builder must give exactly what ``satnono.lines.bw._solve_line_py``
and ``satnono.cnf.ladders._bw_line_clauses_py`` give: the same forced cells and valid starts,
the same clauses in the same order with the same literal order, so the CNF is byte-identical
with and without the extension.  The whole pipeline is compared too (a subprocess with
``SATNONO_PURE=1`` against one without), and where a C compiler and the Python headers are
present the extension must have been built, from the C source in this tree, and be in use.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest
from _native_build import can_build, source_sha

from satnono.cnf import ladders
from satnono.cnf.ladders import CellList, CellMap, _bw_line_clauses_py
from satnono.lines import bw
from satnono.lines.bw import LineResult, _solve_line_py

ROOT = Path(__file__).resolve().parents[1]

try:
    from satnono.lines import _native  # type: ignore[attr-defined]
except ImportError:  # not built (no compiler): only the pure path exists
    _native = None

needs_native = pytest.mark.skipif(_native is None, reason="the compiled core is not built")
#: The clause feeder finds CaDiCaL's ``add`` through the same ctypes helper as the deadline timer,
#: which is Linux-only (elsewhere clauses go through python-sat's binding).
FEEDS = _native is not None and sys.platform.startswith("linux")
needs_feeder = pytest.mark.skipif(not FEEDS, reason="the compiled clause feeder is used on Linux only")


@pytest.fixture(scope="module")
def native():
    assert _native is not None
    # under SATNONO_PURE=1 satnono.lines.bw does not configure the module: do it here
    _native.configure(LineResult, _solve_line_py)
    return _native


def _clue_of(cells: list[bool]) -> tuple[int, ...]:
    return tuple(len(r) for r in "".join("#" if b else "." for b in cells).split(".") if r)


def _random_line(rng: random.Random, n: int) -> tuple[tuple[int, ...], int, int]:
    """A clue and known cells: mostly a picture's clue with some of its cells known (maybe a
    cell flipped, maybe the clue altered), otherwise a random clue and random known cells."""
    black = white = 0
    if rng.random() < 0.6:
        fill = rng.choice((0.2, 0.5, 0.8))
        line = [rng.random() < fill for _ in range(n)]
        clue = _clue_of(line)
        if clue and rng.random() < 0.15:
            j = rng.randrange(len(clue))
            clue = tuple(c for c in (*clue[:j], clue[j] + rng.choice((-1, 1)), *clue[j + 1:]) if c > 0)
        keep = rng.choice((0.0, 0.1, 0.4, 0.8, 1.0))
        for i, b in enumerate(line):
            if rng.random() < keep:
                if rng.random() < 0.02:
                    b = not b  # a contradiction
                if b:
                    black |= 1 << i
                else:
                    white |= 1 << i
    else:
        clue = tuple(rng.randint(1, max(1, n // 3)) for _ in range(rng.choice((0, 1, 2, 3, 5, 8))))
        for i in range(n):
            r = rng.random()
            if r < 0.15:
                black |= 1 << i
            elif r < 0.3:
                white |= 1 << i
        if n and rng.random() < 0.05:
            both = 1 << rng.randrange(n)
            black |= both
            white |= both  # a cell known both ways
    return clue, black, white


def _same(a, b) -> bool:
    return a == b and type(a) is type(b)


@needs_native
def test_kernel_equals_the_reference_on_random_lines(native):
    """Every length 0..140, both through ``solve_line`` (the 126-cell fixed-width kernel, 62
    without __int128, then the multi-word one) and through the multi-word kernel alone."""
    assert native.KERNEL_MAX_N in (62, 126)
    rng = random.Random(20240901)
    results = {"none": 0, "some": 0}
    for n in range(141):
        for _ in range(60):
            clue, black, white = _random_line(rng, n)
            want = _solve_line_py(clue, n, black, white)
            got = native.solve_line(clue, n, black, white)
            assert _same(got, want), (clue, n, bin(black), bin(white), got, want)
            got = native.solve_line_wide(clue, n, black, white)
            assert _same(got, want), ("wide", clue, n, bin(black), bin(white), got, want)
            results["none" if want is None else "some"] += 1
    assert min(results.values()) > 1500  # both answers well represented


@needs_native
def test_kernel_equals_the_reference_on_long_lines(native):
    """Lines of several 64-bit words: word boundaries (128, 192, 256, 512, 513), a sample of
    lengths up to 700 and 1000; pictures' clues with known cells (trimmed ends, contradictions),
    random clues and random known cells, empty clues."""
    rng = random.Random(20240903)
    lengths = [128, 191, 192, 193, 255, 256, 257, 320, 511, 512, 513, 1000, *rng.sample(range(141, 701), 40)]
    results = {"none": 0, "some": 0}
    for n in lengths:
        cases = [_random_line(rng, n) for _ in range(30)]
        cases += [((), n, 0), ((), 0, 1 << rng.randrange(n)), ((n,), 0, 0), ((n - 1,), 1 << (n - 1), 0)]
        for clue, black, white in cases:
            want = _solve_line_py(clue, n, black, white)
            got = native.solve_line(clue, n, black, white)
            assert _same(got, want), (clue, n, bin(black), bin(white), got, want)
            results["none" if want is None else "some"] += 1
    assert min(results.values()) > 300, results


@needs_native
def test_long_lines_are_solved_in_c(native, monkeypatch):
    """A 512-cell line does not reach the Python reference: the compiled kernel answers it."""
    calls = []
    native.configure(LineResult, lambda *a: calls.append(a) or _solve_line_py(*a))
    try:
        rng = random.Random(5)
        for n in (127, 512, 1000):
            for _ in range(20):
                clue, black, white = _random_line(rng, n)
                assert _same(native.solve_line(clue, n, black, white), _solve_line_py(clue, n, black, white))
    finally:
        native.configure(LineResult, _solve_line_py)
    assert calls == []


@needs_native
def test_long_lines_keep_memory_flat(native):
    """No reference leaked and no scratch memory kept, stack-sized or heap-sized."""
    rng = random.Random(6)
    cases = [_random_line(rng, n) + (n,) for n in (130, 512, 1000) for _ in range(10)]
    cases += [((1,) * 200, 0, 0, 1000), ((2,) * 100, 0, 1 << 999, 1000)]  # heap-sized scratch

    def run(rounds):
        for _ in range(rounds):
            for clue, black, white, n in cases:
                native.solve_line(clue, n, black, white)
                native.solve_line_wide(clue, n, black, white)

    run(20)
    tracemalloc.start()
    try:
        run(10)
        before = tracemalloc.get_traced_memory()[0]
        run(200)
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert grown < 20_000, grown


@needs_native
def test_kernel_edge_cases(native):
    wide = native.WIDE_MAX_N  # longer lines go to the reference
    cases = [
        ((), 0, 0, 0), ((1,), 0, 0, 0), ((), 5, 0, 0), ((), 5, 0b100, 0), ((5,), 5, 0, 0),
        ((6,), 5, 0, 0), ((0,), 3, 0, 0), ((2, 2), 5, 0b11011, 0b100), ((1,), 3, 0b1000, 0),
        ((1,), 3, -1, 0), ((3,), 126, 0, 0), ((3,), 127, 1 << 126, 0), ((63,), 126, 0, (1 << 63) - 1),
        ((1, 1), 62, 1 | 1 << 61, 0), ((1,) * 63, 125, 0, 0), ((1,) * 64, 127, 0, 0), ([2, 1], 6, 0, 0),
        ((1,) * 64, 126, 0, 0), ((1,) * 64, 127, (1 << 127) - 1, 0), ((3,), 600, -1, 0), ((3,), 600, 1 << 700, 0),
        ((3,), 600, 1 << 600, 0), ((3,), 600, 1 << 599, 0), ((3,), 600, 0, 1 << 640), ((0,), 300, 0, 0),
        ((601,), 600, 0, 0), ((1,) * 300, 599, 0, 0), ((1,) * 301, 599, 0, 0), ((), 1000, 1, 0),
        ((5, "x"), 300, 0, 0), ((5,), 300, "x", 0), ((3,), wide + 1, 0, 0), ((3,), wide, 7 << (wide - 3), 0),
        ((2, 2), 200, 0b11 | 0b11 << 198, (1 << 200) - 1 - (0b11 | 0b11 << 198)),
    ]
    for clue, n, black, white in cases:
        try:
            want = _solve_line_py(clue, n, black, white)
        except Exception as e:  # noqa: BLE001 - the same exception either way
            with pytest.raises(type(e)):
                native.solve_line(clue, n, black, white)
            continue
        assert _same(native.solve_line(clue, n, black, white), want), (clue, n, black, white)
        assert _same(native.solve_line_wide(clue, n, black, white), want), (clue, n, black, white)
    # the defaults and the result type
    assert _same(native.solve_line((3,), 4), _solve_line_py((3,), 4))
    assert native.solve_line((3,), 4).excluded == (0b110, 0)
    assert _same(native.solve_line([3], 300, black=5), _solve_line_py((3,), 300, 5))  # keywords: the reference
    assert _same(native.solve_line_wide((3,), 300), _solve_line_py((3,), 300))


def _clause_cases(rng: random.Random, lengths, per_length: int):
    for n in lengths:
        for _ in range(per_length):
            clue, black, white = _random_line(rng, n)
            res = _solve_line_py(clue, n, black, white)
            if res is None:
                continue
            if rng.random() < 0.5:  # known cells the line forces but the state does not know yet
                black &= res.black
                white &= res.white
            cells = CellMap(rng.randint(1, 5000), rng.choice((1, 1, rng.randint(2, 600))))
            yield rng.randint(1, 10**6), clue, n, res.starts, black, white, cells


@needs_native
def test_clause_builder_equals_the_reference(native):
    """The same clauses, in the same order, literals in the same order, and the same next variable."""
    rng = random.Random(20240902)
    count = 0
    for first, clue, n, starts, black, white, cells in _clause_cases(rng, range(141), 40):
        want = _bw_line_clauses_py(first, clue, n, starts, black, white, cells)
        got = native.bw_line_clauses(first, clue, n, starts, black, white, *cells)
        assert got == want, (first, clue, n, starts, bin(black), bin(white), cells)
        count += 1
    # long lines: masks of several 64-bit words
    for first, clue, n, starts, black, white, cells in _clause_cases(rng, (190, 256, 300, 512), 8):
        want = _bw_line_clauses_py(first, clue, n, starts, black, white, cells)
        assert native.bw_line_clauses(first, clue, n, starts, black, white, *cells) == want
        count += 1
    assert count > 2500


@needs_native
def test_flat_clause_builder_equals_the_lists(native, monkeypatch):
    """``flat=True``: the same clauses, in the same order, as C ints each clause ended by 0, with
    their count, the same next variable and whether one is empty; the reference's lists
    flattened (where the core hands the line back) give the same bytes."""
    from array import array

    rng = random.Random(20261127)
    count = 0
    for first, clue, n, starts, black, white, cells in _clause_cases(rng, range(80), 25):
        want, nv = _bw_line_clauses_py(first, clue, n, starts, black, white, cells)
        got = native.bw_line_clauses(first, clue, n, starts, black, white, *cells, True)
        lits = array("i")
        lits.frombytes(got[0])
        assert lits.tolist() == [x for cl in want for x in (*cl, 0)]
        assert got[1:] == (len(want), nv, not all(want))
        assert ladders.unflatten(got[0]) == want
        assert ladders.bw_line_clauses_flat(first, clue, n, starts, black, white, CellMap(*cells)) == got
        count += 1
    assert count > 1000
    # a known black cell no block can cover: an empty clause, flagged
    got = native.bw_line_clauses(10, (1,), 3, (0b001,), 0b100, 0, 1, 1, True)
    want, nv = _bw_line_clauses_py(10, (1,), 3, (0b001,), 0b100, 0, CellMap(1, 1))
    assert [] in want and got == (ladders.flatten(want), len(want), nv, True)
    # variables beyond a C int: the core hands the line back, the reference's lists are flattened
    big = CellMap(2**31 - 3, 1)
    assert native.bw_line_clauses(2**31, (1,), 3, (0b111,), 0, 0, *big, True) is NotImplemented
    with pytest.raises(OverflowError):
        ladders.bw_line_clauses_flat(2**31, (1,), 3, (0b111,), 0, 0, big)
    # a first variable below 1 would put a 0 among the literals: handed back, and refused flat
    assert native.bw_line_clauses(0, (1,), 3, (0b111,), 0, 0, 1, 1, True) is NotImplemented
    with pytest.raises(ValueError, match="literal 0"):
        ladders.bw_line_clauses_flat(0, (1,), 3, (0b111,), 0, 0, CellMap(1, 1))
    monkeypatch.setattr(ladders, "_native", None)
    want, nv = _bw_line_clauses_py(30, (2, 1), 6, (0b0011, 0b110000), 0, 0, CellMap(1, 1))
    assert ladders.bw_line_clauses_flat(30, (2, 1), 6, (0b0011, 0b110000), 0, 0, CellMap(1, 1)) == \
        (ladders.flatten(want), len(want), nv, False)


@needs_native
def test_clause_builder_over_a_lane_of_cells_equals_the_reference(native):
    """A lane of any cells (:class:`CellList`: cell i is ``base + cells[i]``, a triddler's lane):
    the core's clauses, lists and flat, equal the reference's, whose cell variables are those of
    the same line as a :class:`CellMap` renumbered; an affine lane as a list of cells gives the
    :class:`CellMap`'s clauses; what the core cannot take is handed back."""
    from array import array

    rng = random.Random(39)
    count = 0
    for first, clue, n, starts, black, white, affine in _clause_cases(rng, (*range(70), 130, 300), 12):
        cells = tuple(rng.sample(range(10 * n + 1), n))
        lane = CellList(rng.randint(1, 50), cells)
        want, nv = _bw_line_clauses_py(first, clue, n, starts, black, white, lane)
        shift = {affine(i): lane(i) for i in range(n)}
        renumbered = [[x if abs(x) not in shift else shift[abs(x)] * (1 if x > 0 else -1) for x in cl]
                      for cl in _bw_line_clauses_py(first, clue, n, starts, black, white, affine)[0]]
        if first > affine(n):  # (ladder variables apart from the cells': the renumbering is exact)
            assert renumbered == want
        assert native.bw_line_clauses(first, clue, n, starts, black, white, *lane) == (want, nv)
        assert native.bw_line_clauses(first, clue, n, starts, black, white, lane.base, list(cells)) == (want, nv)
        got = native.bw_line_clauses(first, clue, n, starts, black, white, *lane, True)
        lits = array("i")
        lits.frombytes(got[0])
        assert lits.tolist() == [x for cl in want for x in (*cl, 0)]
        assert got[1:] == (len(want), nv, not all(want))
        assert ladders.bw_line_clauses_flat(first, clue, n, starts, black, white, lane) == got
        as_list = CellList(affine.base, tuple(affine(i) - affine.base for i in range(n)))
        assert ladders.bw_line_clauses(first, clue, n, starts, black, white, as_list) == \
            _bw_line_clauses_py(first, clue, n, starts, black, white, affine)
        count += 1
    assert count > 400
    # handed back: a cell list of the wrong length, a cell that is not an int, a negative cell
    assert native.bw_line_clauses(1, (1,), 3, (0b111,), 0, 0, 1, (0, 1)) is NotImplemented
    assert native.bw_line_clauses(1, (1,), 3, (0b111,), 0, 0, 1, (0, 1, "2")) is NotImplemented
    assert native.bw_line_clauses(1, (1,), 3, (0b111,), 0, 0, 1, (0, -1, 2)) is NotImplemented
    # a cell variable beyond a C int: flat is refused, lists are made
    assert native.bw_line_clauses(10, (1,), 3, (0b111,), 0, 0, 1, (0, 2**31, 2), True) is NotImplemented
    assert native.bw_line_clauses(10, (1,), 3, (0b111,), 0, 0, 1, (0, 2**31, 2)) == \
        _bw_line_clauses_py(10, (1,), 3, (0b111,), 0, 0, CellList(1, (0, 2**31, 2)))


def test_cell_map_of_a_lane():
    """A rectangle's row or column (a ``range``) gives the affine map it had; other cells a list."""
    assert ladders.cell_map(1, range(12, 18)) == CellMap(13, 1)
    assert ladders.cell_map(1, range(3, 60, 7)) == CellMap(4, 7)
    assert ladders.cell_map(1, [5, 2, 9]) == CellList(1, (5, 2, 9))


def test_flat_encoding_is_the_same_cnf(monkeypatch):
    """``encode(..., flat=True)``: the same clauses as the lists, counted before they are made;
    reading them makes the lists, which are the clauses from then on; selectors, rules, blots and
    colour keep the lists."""
    from satnono.cnf.encode import encode
    from satnono.lines import LineSolver
    from satnono.logic.state import GridState
    from satnono.model import Puzzle
    from satnono.logic.propagate import propagate

    rng = random.Random(7)
    lines = LineSolver()
    flat_seen = 0
    for _ in range(40):
        h, w = rng.randint(5, 14), rng.randint(5, 14)
        p = Puzzle.from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(w)) for _ in range(h)])
        state = GridState(p)
        for kw in ({}, {"rows": range(h), "columns": range(w)}):
            if not kw and (propagate(state, lines) is not None or state.is_complete()):
                continue
            lists, flat = encode(state, lines, **kw), encode(state, lines, flat=True, **kw)
            assert flat.flat is not None  # (without the compiled core, the reference's lists flattened)
            flat_seen += 1
            count, data = flat.nclauses, flat.clause_data()
            assert count == len(lists.clauses) and flat.nvars == lists.nvars and flat.unsat == lists.unsat
            assert isinstance(data, bytes) == (flat.flat is not None)
            assert flat.clauses == lists.clauses and flat.flat is None and flat.clause_data() is flat.clauses
            flat.clauses += [[1]]
            assert flat.nclauses == count + 1
            sel = encode(state, lines, selectors=True, flat=True, **kw)
            assert sel.flat is None and sel.selectors
    assert flat_seen > 40
    from satnono.model import Color
    colour = Puzzle.from_grid(["ab.", ".ab", "b.a"], palette=(Color("white", ".", (255, 255, 255)),
                                                             Color("red", "a", (200, 0, 0)), Color("blue", "b", (0, 0, 200))))
    enc = encode(GridState(colour), lines, rows=range(3), columns=range(3), flat=True)
    assert enc.flat is None and enc.clauses


@needs_native
def test_clauses_are_not_tracked_by_the_cyclic_collector(native):
    """The compiled builder's clauses (lists of ints, which can hold no cycle) are left out of
    the cyclic collector: tracked, the ten thousand clauses of a 25x25 encoding were traversed
    by the collection after each encoding (1.4 s of GC in 1,000 tournament puzzles, 0.3 s
    untracked).  They still behave as lists: equal, appendable, freed with their last reference."""
    import gc

    rng = random.Random(7)
    seen = 0
    for first, clue, n, starts, black, white, cells in _clause_cases(rng, range(10, 40), 5):
        clauses, _ = native.bw_line_clauses(first, clue, n, starts, black, white, *cells)
        for cl in clauses:
            assert isinstance(cl, list) and not gc.is_tracked(cl)
            seen += 1
    assert seen > 100
    cl = clauses[0]
    cl.append(0)
    assert cl[-1] == 0 and not gc.is_tracked(cl)
    # freed with the last reference (no collection needed): memory stays flat over many rounds
    first, clue, n, starts, black, white, cells = next(c for c in _clause_cases(rng, (25,) * 50, 1) if c[1])
    tracemalloc.start()
    try:
        gc.disable()
        native.bw_line_clauses(first, clue, n, starts, black, white, *cells)
        base = tracemalloc.get_traced_memory()[0]
        for _ in range(2000):
            native.bw_line_clauses(first, clue, n, starts, black, white, *cells)
        assert tracemalloc.get_traced_memory()[0] - base < 64 * 1024
    finally:
        gc.enable()
        tracemalloc.stop()


@needs_native
def test_literals_are_shared_int_objects(native):
    """Literals up to the builder's cache bound are shared int objects, not one made (and freed)
    per occurrence; beyond it they are plain ints of the right value (the equality test above
    covers both ranges)."""
    rng = random.Random(11)
    first, clue, n, starts, black, white, cells = next(c for c in _clause_cases(rng, (25,) * 50, 1) if len(c[1]) > 1)
    a, _ = native.bw_line_clauses(1000, clue, n, starts, black, white, 300, 1)
    b, _ = native.bw_line_clauses(1000, clue, n, starts, black, white, 300, 1)
    lits = [x for cl in a for x in cl if abs(x) > 256]  # (CPython shares -5..256 anyway)
    assert len(lits) > 10
    objs = {x: x for cl in b for x in cl}
    assert all(x is objs[x] for x in lits)
    far = native.bw_line_clauses(10**6, clue, n, starts, black, white, 10**6 - 5000, 1)
    assert far == _bw_line_clauses_py(10**6, clue, n, starts, black, white, CellMap(10**6 - 5000, 1))


@needs_native
def test_clause_builder_hands_unusual_input_back(native):
    """What the C builder does not handle it declines, and the public function asks the reference."""
    assert native.bw_line_clauses(1, (2,), 4, (-1,), 0, 0, 1, 1) is NotImplemented
    assert native.bw_line_clauses(1, (2,), 4, (0,), 0, 0, 1, 1) is NotImplemented
    assert native.bw_line_clauses(1, (2, 1), 4, (1,), 0, 0, 1, 1) is NotImplemented
    assert native.bw_line_clauses(1, (2,), 4, (1 << 70,), 0, 0, 1, 1) is NotImplemented
    # known cells beyond the line's end are ignored, as the reference ignores them
    want = _bw_line_clauses_py(7, (2,), 4, (0b111,), 1 << 80, 1 << 90, CellMap(1, 1))
    assert native.bw_line_clauses(7, (2,), 4, (0b111,), 1 << 80, 1 << 90, 1, 1) == want
    # any callable still works, through the reference
    assert ladders.bw_line_clauses(7, (2,), 4, (0b111,), 0, 0, lambda i: i + 1) == \
        _bw_line_clauses_py(7, (2,), 4, (0b111,), 0, 0, CellMap(1, 1))


_PIPELINE = r"""
import hashlib, json, sys
from satnono import Checker
from satnono.cnf import ladders
from satnono.cnf.encode import encode
from satnono.formats import load_all
from satnono.lines import LineSolver, bw
from satnono.logic.state import GridState
from satnono.logic.propagate import propagate

from satnono.sat import SatSession

with SatSession([[1]]) as session:
    feeds = session._feed is not None
out = {"native": [bw.NATIVE, ladders.NATIVE, feeds], "puzzles": {}}
for path in sys.argv[1:]:
    p = load_all(path)[0]
    lines = LineSolver()
    digests = []
    state = GridState(p)
    # every line of the empty grid, then what propagation leaves open
    enc = encode(state, lines, rows=range(p.height), columns=range(p.width))
    digests.append(hashlib.sha256(repr((enc.clauses, enc.nvars)).encode()).hexdigest())
    if propagate(state, lines) is None and not state.is_complete():
        enc = encode(state, lines)
        digests.append(hashlib.sha256(repr((enc.clauses, enc.nvars)).encode()).hexdigest())
        # the flat form (what settle feeds CaDiCaL) holds the same clauses in the same order
        flat = encode(state, lines, flat=True)
        count = flat.nclauses
        digests.append(hashlib.sha256(repr((flat.clauses, flat.nvars, count)).encode()).hexdigest())
    r = Checker().check(p)
    out["puzzles"][path] = [digests, str(r.status), r.line_solvable, [list(s) for s in r.solutions],
                            r.stats.conflicts]
print(json.dumps(out))
"""

PIPELINE_PUZZLES = ("webpbn/webpbn-00436.xml", "webpbn/webpbn-00803.xml", "dom/7-dom.xml",
                    "jwilk/data001.nin", "jwilk/data016.nin", "webpbn/webpbn-00001.xml")


def _pipeline(pure: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    env.pop("SATNONO_PURE", None)
    if pure:
        env["SATNONO_PURE"] = "1"
    paths = [str(ROOT / "puzzles" / p) for p in PIPELINE_PUZZLES]
    run = subprocess.run([sys.executable, "-c", _PIPELINE, *paths], env=env, capture_output=True,
                         text=True, timeout=600, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout)


@needs_native
def test_pipeline_gives_the_same_cnf_and_verdicts_pure_and_native():
    native, pure = _pipeline(False), _pipeline(True)
    assert native["native"] == [True, True, FEEDS]
    assert pure["native"] == [False, False, False]
    # the same clauses, verdicts, solutions and searches (conflicts): clauses fed to CaDiCaL by
    # the compiled loop make the same solver as python-sat's binding does
    assert native["puzzles"] == pure["puzzles"]
    statuses = {v[1] for v in native["puzzles"].values()}
    assert len(statuses) > 1 and any(len(v[0]) == 3 for v in native["puzzles"].values())


@pytest.mark.skipif(not can_build(), reason="no C compiler or no Python headers: pure Python by design")
def test_the_compiled_core_is_built_and_used():
    """With a compiler and the headers the install builds the core; a silent fall-back fails here."""
    assert _native is not None, "satnono.lines._native was not built: reinstall (pip install .) or " \
        "python setup.py build_ext --inplace"
    assert _native.SOURCE_SHA256 == source_sha("_native"), \
        "satnono.lines._native was built from another version of satnono/lines/_native.c: rebuild it"
    pure = os.environ.get("SATNONO_PURE", "") not in ("", "0")
    assert bw.NATIVE is ladders.NATIVE is (not pure)
    assert (bw.solve_line is _native.solve_line) is (not pure)


@needs_feeder
def test_clauses_fed_in_c_make_the_same_searches(monkeypatch):
    """Settling through the compiled feeder (the default) and through python-sat's binding one
    clause at a time: the same verdicts, solutions and conflict counts, puzzle by puzzle."""
    import satnono.sat as sat_module
    from satnono.model import Puzzle
    from satnono.solve import Checker

    rng = random.Random(5)
    puzzles = []
    for _ in range(30):
        h, w = rng.randint(8, 20), rng.randint(8, 20)
        fill = rng.choice((0.4, 0.5, 0.6))
        p = Puzzle.from_grid(["".join("#" if rng.random() < fill else "." for _ in range(w)) for _ in range(h)])
        puzzles += [p, p.replace(goal=None)]  # a second solution next to the picture; a search from the clues

    def settle_all():
        out = []
        for p in puzzles:
            r = Checker().check(p)
            out.append((r.status, r.solutions, r.stats.conflicts, r.stats.sat_calls))
        return out

    with sat_module.SatSession([[1]]) as s:
        assert s._feed is not None, "the compiled feeder is not used here"
    fed = settle_all()
    monkeypatch.setattr(sat_module, "_feed_call", lambda name, inner: None)
    with sat_module.SatSession([[1]]) as s:
        assert s._feed is None
    assert settle_all() == fed
    assert sum(f[2] for f in fed) > 0  # some searches needed conflicts


@needs_feeder
def test_clause_feeder_takes_each_clause_whole_or_not_at_all():
    """A bad clause stops the feed with an error naming it; the clauses before it are in the
    solver, nothing of it is (a half-added clause would leave CaDiCaL's clause open: it aborts
    the process on the next call)."""
    from satnono.sat import SatSession

    with SatSession() as s:
        assert s._feed is not None
        feed, add, solver, _flat = s._feed
        assert feed(add, solver, [[1, 2], (-1,)]) == 2
        for bad, error in (([[3, 0]], ValueError), ([[3, 2**31]], ValueError), ([[3, -(2**31)]], ValueError),
                           ([[3, 2**70]], ValueError), ([[3, "4"]], TypeError), ([[3, 4.0]], TypeError),
                           ([3], TypeError), ([[5], iter([3, None])], TypeError)):
            with pytest.raises(error, match="clause"):
                feed(add, solver, bad)
        with pytest.raises(TypeError):
            feed(add, solver, ((3,),))  # the clauses must be a list
        # [5] came before a bad clause: it is in; 3 never was (with -3 assumed it is satisfiable)
        assert s.solve(None, assumptions=[-3]) is True
        model = s.model()
        assert model[0] < 0 and model[1] > 0 and model[4] > 0
        assert s.solve(None, assumptions=[-5]) is False
        # what reading a clause raises is not turned into a TypeError

        def interrupted():
            yield 11
            raise KeyboardInterrupt

        with pytest.raises(KeyboardInterrupt):
            feed(add, solver, [[12], interrupted()])
        assert s.solve(None, assumptions=[-11]) is True and s.solve(None, assumptions=[-12]) is False
        # any iterable of ints is a clause, as for python-sat's binding
        assert feed(add, solver, [(x for x in (6, 7)), range(8, 10)]) == 2
        assert s.solve(None, assumptions=[-6, -7]) is False and s.solve(None, assumptions=[-8, -9]) is False
        # a clause longer than the feeder's buffer on the stack
        n = 1000
        assert feed(add, solver, [[-(10 + i) for i in range(n)], *[[10 + i] for i in range(n - 1)]]) == n
        assert s.solve(None) is True
        assert s.model()[10 + n - 2] < 0


@needs_feeder
def test_flat_clauses_make_the_same_searches(monkeypatch):
    """Settling with the clauses in the flat form (the default where the feeder is) and as lists:
    the same verdicts, solutions, clause counts and conflicts, puzzle by puzzle; the feeder takes
    whole clauses only."""
    import satnono.sat as sat_module
    from satnono import Checker
    from satnono.model import Puzzle

    assert sat_module.feeds_flat("cadical195") and not sat_module.feeds_flat("glucose4")
    rng = random.Random(11)
    puzzles = []
    for _ in range(30):
        h, w = rng.randint(8, 20), rng.randint(8, 20)
        p = Puzzle.from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(w)) for _ in range(h)])
        puzzles += [p.replace(goal=None)]

    def settle_all():
        return [(r.status, r.solutions, r.stats.conflicts, r.stats.sat_calls, r.stats.cnf_clauses)
                for r in (Checker().check(p) for p in puzzles)]

    flat = settle_all()
    monkeypatch.setattr(sat_module, "feeds_flat", lambda name: False)
    assert settle_all() == flat
    assert sum(f[2] for f in flat) > 0
    with sat_module.SatSession() as s:
        feed_flat, add, solver = s._feed[3], s._feed[1], s._feed[2]
        for bad in (b"\x01\x00\x00\x00", b"\x00\x00\x00", b"\x01\x00\x00\x00\x00\x00\x00\x00\x02"):
            with pytest.raises(ValueError, match="whole clauses"):
                feed_flat(add, solver, bad)
        assert feed_flat(add, solver, b"") == 0
        s.add_clauses(ladders.flatten([[1, 2], [-1]]))
        assert s.solve(None) is True and s.model()[:2] == [-1, 2]
        s.add_clauses(ladders.flatten([[-2]]))
        assert s.solve(None) is False


def test_without_the_compiled_core_clauses_go_through_python_sat(monkeypatch):
    """SATNONO_PURE=1 (or no compiled core): no feeder; the binding's path settles as before."""
    from satnono.sat import SatSession, _feed_call

    monkeypatch.setenv("SATNONO_PURE", "1")
    with SatSession([[1, 2], [-1]]) as s:
        assert s._feed is None
        assert _feed_call("cadical195", s._solver.solver) is None
        assert s.solve(None) is True and s.model()[:2] == [-1, 2]
    # the flat form is read into lists for the binding
    from satnono.cnf.ladders import flatten

    with SatSession(flatten([[1, 2], [-1]])) as s:
        assert s._feed is None
        assert s.solve(None) is True and s.model()[:2] == [-1, 2]


def _fixpoint_case(rng: random.Random, h: int, w: int):
    """A black-and-white puzzle of a random picture, and givens: none, some of the picture's
    cells, or some flipped (a contradiction, in a row or a column)."""
    from satnono.model import Puzzle

    fill = rng.choice((0.3, 0.5, 0.7))
    grid = ["".join("#" if rng.random() < fill else "." for _ in range(w)) for _ in range(h)]
    p = Puzzle.from_grid(grid).replace(goal=None)
    givens = {}
    kind = rng.random()
    for _ in range(rng.randint(1, 6) if kind > 0.3 else 0):
        r, c = rng.randrange(h), rng.randrange(w)
        givens[(r, c)] = (grid[r][c] == "#") != (kind > 0.8)
    return p, givens


def _fixpoint_run(p, givens, use_c: bool, rng_seed: int, deadline: float | None = None):
    from satnono.lines import LineSolver
    from satnono.logic import propagate as prop
    from satnono.logic.state import Deadline, initial_state

    state = initial_state(p.with_givens(givens))
    rng = random.Random(rng_seed)  # the same dirty lines both ways
    rows = [rng.random() < 0.7 for _ in range(p.height)]
    cols = [rng.random() < 0.7 for _ in range(p.width)]
    if not any(rows) and not any(cols):
        rows[0] = True
    solver = LineSolver()
    saved = prop._native
    prop._native = prop._native if use_c else None
    try:
        try:
            bad = prop._lines_fixpoint(state, solver, rows, cols, deadline)
            found = None if bad is None else (bad.axis, bad.index, bad.fits)
        except Deadline:
            found = "deadline"
    finally:
        prop._native = saved
    return found, [list(e) for e in state.row_ex], [list(e) for e in state.col_ex], rows, cols, solver.calls


@needs_native
def test_the_line_fixpoint_in_c_is_the_reference():
    """``bw_fixpoint`` (the black-and-white line fixpoint in C) against the Python sweeps it
    transcribes: the same masks, dirty flags, line-solver calls and contradiction (its line and
    whether the clue fits at all), from random dirty lines, on grids with and without givens
    (contradictory ones included), up to the kernel's widest side and past it (masks as words)."""
    from satnono.logic import propagate as prop

    assert prop._native is not None
    rng = random.Random(11)
    kinds: dict[str, int] = {}
    wide_kinds: dict[str, int] = {}
    widest = _native.KERNEL_MAX_N
    sizes = [(rng.randint(1, 12), rng.randint(1, 12)) for _ in range(300)]
    sizes += [(rng.randint(13, 40), rng.randint(13, 40)) for _ in range(80)]
    sizes += [(widest, 30), (20, widest), (widest + 1, 20), (20, widest + 3)]
    # past the kernel: the masks as words, lines of either kind on either side
    sizes += [(rng.randint(widest + 1, 300), rng.randint(1, 200)) for _ in range(10)]
    sizes += [(rng.randint(1, 200), rng.randint(widest + 1, 300)) for _ in range(10)]
    sizes += [(1, widest + 1), (widest + 1, 1), (widest + 1, widest + 1), (64, 200), (200, 63), (65, 129)]
    cases = [(h, w, *_fixpoint_case(rng, h, w)) for h, w in sizes]
    from satnono.model import Puzzle

    for _ in range(24):  # dense wide pictures with a flipped given: contradictions past the kernel
        long, short = rng.randint(widest + 1, 260), rng.randint(3, 60)
        h, w = (long, short) if rng.random() < 0.5 else (short, long)
        grid = ["".join("#" if rng.random() < 0.85 else "." for _ in range(w)) for _ in range(h)]
        r, c = rng.randrange(h), rng.randrange(w)
        cases.append((h, w, Puzzle.from_grid(grid).replace(goal=None), {(r, c): grid[r][c] != "#"}))
    for i, (h, w, p, givens) in enumerate(cases):
        a = _fixpoint_run(p, givens, True, i)
        b = _fixpoint_run(p, givens, False, i)
        assert a == b, (h, w, givens)
        kind = "fixpoint" if a[0] is None else "contradiction " + a[0][0] if isinstance(a[0], tuple) else a[0]
        kinds[kind] = kinds.get(kind, 0) + 1
        if max(h, w) > widest:
            wide_kinds[kind] = wide_kinds.get(kind, 0) + 1
    assert kinds.get("fixpoint", 0) > 200 and kinds.get("contradiction row", 0) > 5
    assert kinds.get("contradiction column", 0) > 5, kinds
    assert wide_kinds.get("fixpoint", 0) > 5 and wide_kinds.get("contradiction row", 0) > 1, wide_kinds
    assert wide_kinds.get("contradiction column", 0) > 1, wide_kinds
    # a deadline already passed: raised before any line is solved, both ways
    p, givens = _fixpoint_case(random.Random(3), 15, 15)
    assert _fixpoint_run(p, givens, True, 0, deadline=0.0) == _fixpoint_run(p, givens, False, 0, deadline=0.0)
    assert _fixpoint_run(p, givens, True, 0, deadline=0.0)[0] == "deadline"
    p, givens = _fixpoint_case(random.Random(3), widest + 5, 15)  # and past the kernel
    assert _fixpoint_run(p, givens, True, 0, deadline=0.0) == _fixpoint_run(p, givens, False, 0, deadline=0.0)
    assert _fixpoint_run(p, givens, True, 0, deadline=0.0)[0] == "deadline"


@needs_native
@pytest.mark.parametrize("reads", [0, 1, 2])
def test_the_line_fixpoint_keeps_its_deadline_between_sweeps(monkeypatch, reads: int):
    """The clock passes the deadline after ``reads`` readings within it: at the start of the
    first round (nothing solved), between its row and column sweeps (the rows solved, no column)
    or at the start of the second round; C and Python stop at the same point, the same state."""
    import time as time_module

    runs = []
    for use_c in (True, False):
        clock = iter([0.0] * reads + [1e12] * 1000)
        monkeypatch.setattr(time_module, "monotonic", lambda: next(clock))
        p, givens = _fixpoint_case(random.Random(5), 20, 20)
        runs.append(_fixpoint_run(p, givens, use_c, 1, deadline=1.0))
        monkeypatch.undo()
    assert runs[0] == runs[1] and runs[0][0] == "deadline"
    calls, rows_dirty, columns_dirty = runs[0][-1], runs[0][3], runs[0][4]
    if reads == 0:
        assert calls == 0
    if reads == 1:  # the rows' sweep alone ran: no row dirty, the columns it touched still to do
        assert 0 < calls <= 20 and not any(rows_dirty) and any(columns_dirty)
    if reads == 2:
        assert calls > 20


@needs_native
def test_the_line_fixpoint_in_c_leaves_what_it_does_not_take():
    """NotImplemented, with nothing changed, for what the Python sweeps must do: a side beyond
    the kernel, a mask beyond its line, a clue that is not block lengths; propagate then gives
    the reference's answer (and a LineSolver subclass or a colour or blotted grid never gets here)."""
    k = _native.FIXPOINT_MAX_SIDE
    masks = [[0] * 3, [0] * 3, [0] * 4, [0] * 4]
    flags = [[True] * 3, [True] * 4]
    clues = ((1,), (2,), ()), ((1,), (1,), (1,), (1,))
    for bad in (
        (((1,),) * (k + 1), ((1,),)),  # a side beyond the fixpoint's
        (((0,), (2,), ()), ((1,), (1,), (1,), (1,))),  # a block of length 0
        (((1,), (2,), (5,)), ((1,), (1,), (1,), (1,))),  # a block longer than its line
        ((("1",), (2,), ()), ((1,), (1,), (1,), (1,))),  # not an int
    ):
        before = [list(m) for m in masks], [list(f) for f in flags]
        assert _native.bw_fixpoint(*bad, *masks, *flags, None, None) is NotImplemented
        assert ([list(m) for m in masks], [list(f) for f in flags]) == before
    wide = [[0] * 3, [1 << 5] * 3, [0] * 4, [0] * 4]  # a white cell past a row's 4 cells
    assert _native.bw_fixpoint(*clues, *wide, [True] * 3, [True] * 4, None, None) is NotImplemented
    # the same refusals past the kernel (the masks as words), with nothing changed
    n = _native.KERNEL_MAX_N + 2
    for rows, cols, masks2 in (
        (((1,),) * n, ((0,),) * 3, None),  # a block of length 0
        (((1,),) * n, ((n + 1,),) * 3, None),  # a block longer than its line
        (((1,),) * n, (("1",),) * 3, None),  # not an int
        (((1,),) * n, ((1,),) * 3, [[0] * n, [1 << 3] * n, [0] * 3, [0] * 3]),  # past a row's 3 cells
        (((1,),) * n, ((1,),) * 3, [[0] * n, [0] * n, [0] * 3, [-1] * 3]),  # a negative mask
        (((1,),) * n, ((1,),) * 3, [[0] * n, [0] * n, [0] * 3, [0] * 2]),  # a list too short
    ):
        m = masks2 or [[0] * n, [0] * n, [0] * 3, [0] * 3]
        f = [[True] * n, [True] * 3]
        before = [list(x) for x in m], [list(x) for x in f]
        assert _native.bw_fixpoint(rows, cols, *m, *f, None, None) is NotImplemented
        assert ([list(x) for x in m], [list(x) for x in f]) == before
    with pytest.raises(TypeError):
        _native.bw_fixpoint(*clues)


@needs_native
def test_propagate_takes_the_line_fixpoint_in_c(monkeypatch):
    """Black and white through a plain LineSolver goes through ``bw_fixpoint``; a LineSolver
    subclass (it may count or answer otherwise), a colour grid and a blotted one do not."""
    from satnono.lines import LineSolver
    from satnono.logic import propagate as prop
    from satnono.logic.state import initial_state
    from satnono.model import Puzzle
    from satnono.palette import default_palette

    used = []

    class Spy:
        def bw_fixpoint(self, *args):
            used.append(len(args[0]))
            return _native.bw_fixpoint(*args)

    monkeypatch.setattr(prop, "_native", Spy())
    bw_puzzle = Puzzle.from_grid(["#.#.", "##..", ".###"])
    assert prop.propagate(initial_state(bw_puzzle), LineSolver()) is None and used == [3]

    class Counting(LineSolver):
        __slots__ = ()

    colour = Puzzle.from_grid(["ab.", "b.a"], palette=default_palette(2))
    blotted = bw_puzzle.replace(row_blots=(1, 0, 0))
    assert prop.propagate(initial_state(bw_puzzle), Counting()) is None
    assert prop.propagate(initial_state(colour), LineSolver()) is None
    assert prop.propagate(initial_state(blotted), LineSolver()) is None
    assert used == [3]
