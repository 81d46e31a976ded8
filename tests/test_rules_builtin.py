"""The built-in rules against independent oracles, over every grid of small sizes,
black and white and colour: their clauses hold exactly on the grids the rule allows,
their lazy cuts remove the grid they cut and nothing allowed, and their narrowing
never removes a value that some allowed grid agreeing with the state has."""

from __future__ import annotations

import itertools
import random
import zlib
from collections import deque

import pytest
from pysat.solvers import Solver

from satnono.cnf.encode import encode
from satnono.lines import LineSolver
from satnono.logic.propagate import propagate
from satnono.logic.state import Contradiction, GridState, initial_state
from satnono.model import Color, Puzzle
from satnono.rules.common import RuleConflict, RuleError
from satnono.rules.spec import rule_from_json, rule_from_spec

BW = (Color("white", ".", (255, 255, 255)), Color("black", "#", (0, 0, 0)))
TWO = (Color("white", ".", (255, 255, 255)), Color("red", "r", (200, 0, 0)), Color("blue", "b", (0, 0, 200)))


# ---- oracles, written from the rules' definitions -------------------------------------------

def _has(ch: str, color: str | None) -> bool:
    return ch != "." if color is None else ch == color


def oracle(spec: dict, grid: tuple[str, ...]) -> bool:
    h, w = len(grid), len(grid[0])
    kind = spec["rule"]
    if kind == "symmetric":
        a = spec["axis"]
        for r in range(h):
            for c in range(w):
                m = {"left-right": (r, w - 1 - c), "top-bottom": (h - 1 - r, c),
                     "rotate180": (h - 1 - r, w - 1 - c), "transpose": (c, r)}[a]
                if grid[r][c] != grid[m[0]][m[1]]:
                    return False
        return True
    color = spec.get("color")
    if kind == "count":
        k = sum(_has(ch, color) for row in grid for ch in row)
        return {"=": k == spec["n"], ">=": k >= spec["n"], "<=": k <= spec["n"]}[spec["op"]]
    if kind == "no-square":
        return not any(all(_has(grid[r + dr][c + dc], color) for dr in (0, 1) for dc in (0, 1))
                       for r in range(h - 1) for c in range(w - 1))
    if kind == "connected":
        cells = [(r, c) for r in range(h) for c in range(w) if _has(grid[r][c], color)]
        if not cells:
            return True
        seen = {cells[0]}
        todo = deque([cells[0]])
        while todo:
            r, c = todo.popleft()
            for nb in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)):
                if nb in set(cells) and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        return len(seen) == len(cells)
    if kind == "line":
        s = "".join(grid[r][c] for r, c in spec["cells"])
        runs = [(ch, len(list(g))) for ch, g in itertools.groupby(s) if ch != "."]
        want = [(b[1], b[0]) if isinstance(b, list) else ("#", b) for b in spec["clue"]]
        want = [(ch, n) for ch, n in want if n]
        return runs == want
    raise AssertionError(kind)


def all_grids(h: int, w: int, chars: str):
    for cells in itertools.product(chars, repeat=h * w):
        yield tuple("".join(cells[r * w:(r + 1) * w]) for r in range(h))


def _puzzle(h: int, w: int, palette) -> Puzzle:
    return Puzzle.from_grid(["." * w] * h, palette=palette) if len(palette) > 2 else Puzzle.from_grid(["." * w] * h)


def specs_for(h: int, w: int, colour: bool) -> list[dict]:
    out: list[dict] = [{"rule": "symmetric", "axis": a} for a in ("left-right", "top-bottom", "rotate180")]
    if h == w:
        out.append({"rule": "symmetric", "axis": "transpose"})
    colours = [None, "r"] if colour else [None]
    for col in colours:
        extra = {} if col is None else {"color": col}
        for op, n in (("=", 3), (">=", h * w - 3), ("<=", 2), ("=", 0)):
            out.append({"rule": "count", "op": op, "n": n, **extra})
        out.append({"rule": "no-square", **extra})
        out.append({"rule": "connected", **extra})
    diag = [[i, i] for i in range(min(h, w))]
    out.append({"rule": "line", "cells": diag, "clue": [[1, "r"], [1, "b"]] if colour else [1, 1]})
    out.append({"rule": "line", "cells": [[0, c] for c in range(w)] + [[1, w - 1]],
                "clue": [[2, "r"]] if colour else [2]})
    return out


CASES = [(3, 3, False), (3, 4, False), (2, 3, True), (3, 2, True)]


def _kinds(h, w, colour):
    return [(h, w, colour, spec) for spec in specs_for(h, w, colour)]


ALL = [case for hwc in CASES for case in _kinds(*hwc)]


def _ids(case):
    h, w, colour, spec = case
    return f"{h}x{w}-{'colour' if colour else 'bw'}-" + "-".join(str(v) for v in spec.values())


class _Vars:
    """Cell variables (r, c, v) -> int, and a counter for fresh ones."""

    def __init__(self, h: int, w: int, k: int) -> None:
        self.h, self.w, self.k = h, w, k
        self.next = h * w * k + 1

    def lit(self, r: int, c: int, v: int) -> int:
        assert 1 <= v <= self.k
        return (r * self.w + c) * self.k + v

    def new_var(self) -> int:
        self.next += 1
        return self.next - 1

    def assumptions(self, grid, chars: str) -> list[int]:
        return [self.lit(r, c, v) if chars[v] == grid[r][c] else -self.lit(r, c, v)
                for r in range(self.h) for c in range(self.w) for v in range(1, self.k + 1)]


@pytest.mark.parametrize("case", ALL, ids=_ids)
def test_clauses_hold_exactly_on_the_grids_the_rule_allows(case):
    h, w, colour, spec = case
    pal = TWO if colour else BW
    chars = "".join(c.char for c in pal)
    rule = rule_from_json(spec).bind(_puzzle(h, w, pal))
    vs = _Vars(h, w, len(pal) - 1)
    clauses = rule.clauses(vs.lit, vs.new_var) if spec["rule"] != "line" else _lane_clauses(h, w, pal, spec)
    if spec["rule"] == "connected":
        assert clauses == []  # encoded lazily: see the cut test
        return
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        for grid in all_grids(h, w, chars):
            assert s.solve(assumptions=vs.assumptions(grid, chars)) == oracle(spec, grid), grid
            assert rule.accepts(grid) == oracle(spec, grid), grid


def _lane_clauses(h: int, w: int, pal, spec: dict, selectors: bool = False) -> list[list[int]]:
    """The clauses of a ``line`` rule: it is a lane of the puzzle (the last of ``puzzle.lanes``),
    encoded by the encoder with the rows and columns (over the same cell variables as
    :class:`_Vars`: cell (r, c) has colour v is ``(r * w + c) * K + v``), here alone."""
    p = _puzzle(h, w, pal).replace(rules=(rule_from_json(spec),))
    enc = encode(initial_state(p), LineSolver(), lanes=[len(p.lanes) - 1], selectors=selectors)
    return enc.clauses


@pytest.mark.parametrize("case", [c for c in ALL if c[3]["rule"] == "connected"], ids=_ids)
def test_cuts_remove_the_grid_and_nothing_allowed(case):
    h, w, colour, spec = case
    pal = TWO if colour else BW
    chars = "".join(c.char for c in pal)
    rule = rule_from_json(spec).bind(_puzzle(h, w, pal))
    vs = _Vars(h, w, len(pal) - 1)
    grids = list(all_grids(h, w, chars))
    allowed = [g for g in grids if oracle(spec, g)]
    rejected = [g for g in grids if not oracle(spec, g)]
    assert rejected and allowed
    for grid in random.Random(7).sample(rejected, min(60, len(rejected))):
        assert not rule.accepts(grid)
        cuts = rule.cut(grid, vs.lit)
        assert cuts
        with Solver(name="cadical195", bootstrap_with=cuts) as s:
            assert not s.solve(assumptions=vs.assumptions(grid, chars))
            for ok in allowed:
                assert s.solve(assumptions=vs.assumptions(ok, chars)), (grid, ok)
    assert all(rule.cut(g, vs.lit) is None for g in allowed)


def _random_state(puzzle: Puzzle, rng: random.Random, truth) -> GridState:
    """A state that knows a few cells of ``truth`` and excludes some other values at random."""
    st = GridState(puzzle)
    chars = puzzle.chars
    for r in range(puzzle.height):
        for c in range(puzzle.width):
            x = rng.random()
            if x < 0.6:
                st.set_cell(r, c, chars.index(truth[r][c]))
            elif x < 0.75 and st.nvals > 2:
                others = [v for v in range(st.nvals) if chars[v] != truth[r][c]]
                st.exclude(r, c, rng.choice(others))
    return st


def _agrees(state: GridState, grid, chars: str) -> bool:
    return all(chars.index(grid[r][c]) in state.possible(r, c)
               for r in range(state.height) for c in range(state.width))


@pytest.mark.parametrize("case", [c for c in ALL if c[3]["rule"] != "line"], ids=_ids)
def test_narrowing_is_sound(case):
    """(A ``line`` rule does not narrow: it is a lane of the puzzle, propagated with the rows and
    columns; tests/test_line_lanes.py checks that against enumeration.)"""
    h, w, colour, spec = case
    pal = TWO if colour else BW
    chars = "".join(c.char for c in pal)
    puzzle = _puzzle(h, w, pal)
    rule = rule_from_json(spec).bind(puzzle)
    grids = list(all_grids(h, w, chars))
    rng = random.Random(zlib.crc32(_ids(case).encode()))
    narrowed = conflicts = 0
    for trial in range(150):
        truth = rng.choice(grids)
        st = _random_state(puzzle, rng, truth)
        before = [[st.possible(r, c) for c in range(w)] for r in range(h)]
        allowed = [g for g in grids if oracle(spec, g) and _agrees(st, g, chars)]
        bad = rule.narrow(st)
        if bad is not None:
            assert isinstance(bad, RuleConflict) and bad.describe(puzzle).startswith(f"rule {spec['rule']}")
            assert not allowed, (spec, before)
            conflicts += 1
            continue
        for r in range(h):
            for c in range(w):
                for v in set(before[r][c]) - set(st.possible(r, c)):
                    narrowed += 1
                    assert not any(g[r][c] == chars[v] for g in allowed), (spec, r, c, v, before)
    assert narrowed + conflicts > 0, "the random states never made the rule narrow anything"


def test_narrowing_completes_a_symmetric_state():
    p = _puzzle(3, 3, BW)
    st = GridState(p)
    st.set_cell(0, 0, 1)
    st.set_cell(2, 1, 0)
    assert rule_from_spec("symmetric:rotate180").bind(p).narrow(st) is None
    assert st.cell(2, 2) == 1 and st.cell(0, 1) == 0


@pytest.mark.parametrize("text, message", [
    ("symmetric:diagonal", "axis 'diagonal' is not one of"),
    ("symmetric", "write symmetric:AXIS"),
    ("count:40", "write count:=N"),
    ("count:=x", "write count:=N"),
    ("connected:r:b", "write connected or connected:COLOUR"),
    ("line", "only a puzzle file can give it"),
    ("bogus", "unknown rule 'bogus'"),
    ("no-square:", "an empty part"),
    ("count:<=5:", "an empty part"),
])
def test_bad_specs_say_what_is_expected(text, message):
    with pytest.raises(RuleError, match=message):
        rule_from_spec(text)


@pytest.mark.parametrize("obj, message", [
    ({"rule": "symmetric", "axis": "transpose"}, "transpose needs a square grid"),
    ({"rule": "count", "op": "=", "n": 3, "color": "z"}, "colour 'z' is not in the puzzle's palette"),
    ({"rule": "line", "cells": [[0, 0], [5, 0]], "clue": [1]}, r"cell \[5, 0\] is outside the 4x3 grid"),
    ({"rule": "line", "cells": [[0, 0], [0, 0]], "clue": [1]}, "appears twice"),
])
def test_bad_parameters_are_refused_when_bound(obj, message):
    with pytest.raises(RuleError, match=message):
        rule_from_json(obj).bind(_puzzle(3, 4, BW))


@pytest.mark.parametrize("colour", [False, True])
def test_a_line_clue_too_long_for_its_cells_binds_and_no_grid_keeps_it(colour):
    """Like a row's clue that cannot fit its row, a line rule's is no input error but a
    puzzle without solution (it was refused when bound): propagation says why, as for a row (the
    rule is the puzzle's extra line 1), no grid is accepted, the lane's clauses are
    unsatisfiable, and the generator's repair leaves the picture."""
    pal = TWO if colour else BW
    chars = "".join(c.char for c in pal)
    clue = [[1, "r"], [1, "r"]] if colour else [3]
    spec = {"rule": "line", "cells": [[0, 0], [1, 1]], "clue": clue}
    puzzle = _puzzle(2, 2, pal).replace(rules=(rule_from_json(spec),))
    rule = puzzle.rules[0]
    bad = propagate(GridState(puzzle), LineSolver())
    assert isinstance(bad, Contradiction) and (bad.axis, bad.index, bad.fits) == ("line", 0, False)
    assert bad.describe(puzzle) == (f"extra line 1 through (1,1), (2,2): clue {'1r 1r' if colour else '3'} "
                                    "needs 3 cells but the line has 2")
    assert not any(rule.accepts(g) for g in all_grids(2, 2, chars))
    clauses = _lane_clauses(2, 2, pal, spec, selectors=True)
    assert len(clauses) == 1 and len(clauses[0]) == 1  # the lane's selector, off
    with Solver(name="cadical195", bootstrap_with=clauses) as s:
        assert not s.solve(assumptions=[-clauses[0][0]])
    values = [[1, 0], [0, 1]]
    assert rule.keep([row[:] for row in values], random.Random(1)) == values


@pytest.mark.parametrize("colour", [False, True])
@pytest.mark.parametrize("op", ["=", ">="])
def test_a_count_above_the_grid_binds_and_no_grid_keeps_it(op, colour):
    """Like a line clue too long for its cells, a count of more cells than the grid has is no
    input error but a puzzle without solution (it was refused when bound): narrowing says why,
    no grid is accepted, the clauses are unsatisfiable, and the generator's repair leaves the
    picture; ``<=`` the same number is no conflict."""
    pal = TWO if colour else BW
    chars = "".join(c.char for c in pal)
    extra = {"color": "r"} if colour else {}
    rule = rule_from_json({"rule": "count", "op": op, "n": 5, **extra}).bind(_puzzle(2, 2, pal))
    bad = rule.narrow(GridState(_puzzle(2, 2, pal)))
    assert isinstance(bad, RuleConflict) and not bad.fits
    what = "cells of colour 'r'" if colour else "filled cells"
    assert bad.describe() == (f"rule count: {'exactly' if op == '=' else 'at least'} 5 {what} asked for, "
                              "but the 2x2 grid has 4 cells")
    assert not any(rule.accepts(g) for g in all_grids(2, 2, chars))
    vs = _Vars(2, 2, len(pal) - 1)
    with Solver(name="cadical195", bootstrap_with=rule.clauses(vs.lit, vs.new_var)) as s:
        assert not s.solve()
    values = [[1, 0], [0, 1]]
    assert rule.keep([row[:] for row in values], random.Random(1)) == values
    at_most = rule_from_json({"rule": "count", "op": "<=", "n": 5, **extra}).bind(_puzzle(2, 2, pal))
    assert at_most.narrow(GridState(_puzzle(2, 2, pal))) is None


@pytest.mark.parametrize("obj, message", [
    ({"rule": "count", "op": "=", "n": -1}, "whole number"),
    ({"rule": "count", "op": "==", "n": 1}, "operator"),
    ({"rule": "count", "op": "=", "n": 1, "colour": "r"}, "unknown key colour"),
    ({"rule": "no-square", "color": 3}, "palette character or name"),
    ({"rule": "nope"}, "unknown rule 'nope'"),
    ([1, 2], 'must be an object with a "rule" name'),
])
def test_bad_json_is_refused(obj, message):
    with pytest.raises(RuleError, match=message):
        rule_from_json(obj)


@pytest.mark.parametrize("spec", specs_for(3, 3, True), ids=lambda s: "-".join(map(str, s.values())))
def test_json_round_trip(spec):
    rule = rule_from_json(spec)
    assert rule_from_json(rule.as_json()) == rule
    assert rule.as_json() == spec


@pytest.mark.parametrize("case", [c for c in ALL if c[0] * c[1] <= 12], ids=_ids)
def test_keep_makes_drawn_pictures_keep_the_rule(case):
    """The generator's repair: after keep(), a random picture satisfies the rule (every
    rule but count and line alone always succeeds; those two only fail when the grid
    is too small for them)."""
    h, w, colour, spec = case
    pal = TWO if colour else BW
    chars = "".join(c.char for c in pal)
    rule = rule_from_json(spec).bind(_puzzle(h, w, pal))
    rng = random.Random(3)
    for _ in range(50):
        values = [[rng.randrange(len(pal)) for _ in range(w)] for _ in range(h)]
        grid = tuple("".join(chars[v] for v in row) for row in rule.keep(values, rng))
        assert oracle(spec, grid), grid


@pytest.mark.parametrize("cap", [24, 1], ids=["totalizer", "sorting-network"])
def test_cardinality_encodings_are_exact(cap, monkeypatch):
    """At least / at most / exactly k of m literals, for every k and every assignment of
    m <= 7 inputs, with the totalizer and (its cap lowered) the sorting network."""
    import satnono.rules.cardinality as card

    monkeypatch.setattr(card, "TOTALIZER_MAX_CAP", cap)
    for m in range(1, 8):
        for k in range(-1, m + 2):
            for f, ok in ((card.at_least, lambda s: s >= k), (card.at_most, lambda s: s <= k),
                          (card.exactly, lambda s: s == k)):
                top = [m]

                def new_var() -> int:
                    top[0] += 1
                    return top[0]

                with Solver(name="cadical195", bootstrap_with=f(list(range(1, m + 1)), k, new_var)) as s:
                    for bits in itertools.product([0, 1], repeat=m):
                        a = [i + 1 if b else -(i + 1) for i, b in enumerate(bits)]
                        assert s.solve(assumptions=a) == ok(sum(bits)), (f.__name__, m, k, bits)


def test_givens_named_as_a_json_rule_says_where_they_go():
    """Not "unknown rule 'givens' (known: ..., givens)", which contradicts itself."""
    from satnono.rules import RuleError, rule_from_json

    with pytest.raises(RuleError, match=r'^rule givens: revealed cells are the puzzle\'s "givens", not one of its "rules"$'):
        rule_from_json({"rule": "givens"})
