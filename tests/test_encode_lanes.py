"""The one CNF driver over lanes (:func:`satnono.cnf.encode.encode`) on any geometry, and the
component split over lanes: a rectangle given as lanes of explicit cells encodes to the same CNF
as the rectangle's own state; on triddlers the models of the CNF, read back as pictures, are
exactly the solutions of the brute-force enumeration of ``tests/_triddler_oracle.py`` (black and
white and two colours, blotted clues, a count rule, known cells), flat or not; the components
of a triddler's open cells multiply to the brute-force count."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import pytest

from _triddler_oracle import brute_force
from satnono.clues import LineClue
from satnono.cnf.encode import cell_vars, encode, estimate, open_lanes, solution_grid, takes_flat
from satnono.formats import load
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerules import lane_rule_from
from satnono.lanes import Lane, Rectangle, Triangle
from satnono.lines import LineSolver
from satnono.logic.components import component_state, split
from satnono.logic.lanes import lane_state, propagate_state
from satnono.logic.propagate import propagate
from satnono.logic.state import initial_state
from satnono.model import Puzzle
from satnono.palette import default_palette
from satnono.sat import SatSession

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"


@dataclass(frozen=True)
class CellRectangle(Rectangle):
    """A rectangle whose rows and columns hold tuples of cells, not ranges: the driver's path
    for lanes of any cells (the compiled builder over a cell list, in black and white)."""

    @cached_property
    def _lanes(self) -> tuple[Lane, ...]:
        return tuple(Lane(lane.family, lane.index, tuple(lane.cells)) for lane in Rectangle(self.height, self.width).lanes())


def _as_lanes(p: Puzzle, geometry: Rectangle) -> LanePuzzle:
    return LanePuzzle(geometry, p.lane_clues, p.palette)


def _same_state(grid_state, lstate) -> None:
    """Narrow ``lstate`` (a LaneState of the same rectangle) to what ``grid_state`` knows."""
    w, full = grid_state.width, lstate.full
    for cell in range(len(lstate.excluded)):
        left = grid_state.possible(*divmod(cell, w))
        lstate.excluded[cell] = full & ~sum(1 << v for v in left)


def _rect_cases():
    for name in ("webpbn/webpbn-00023.xml", "webpbn/webpbn-00027.xml", "satnono/colour-search-10x10.non",
                 "satnono/dancer-blotted.xml", "jwilk/data010.nin", "webpbn/webpbn-color-00220.xml"):
        yield name, load(str(PUZZLES / name))


@pytest.mark.parametrize("geometry_kind", [Rectangle, CellRectangle])
def test_a_rectangle_as_lanes_encodes_the_same_cnf(geometry_kind):
    """The rectangle's rows and columns as a LanePuzzle (ranges, or tuples of cells): the same
    clauses, variables, open cells and selectors as the rectangle's own state, at the empty state,
    at 40 % of the goal revealed and at the line fixpoint, lists, flat and with selectors."""
    lines = LineSolver()
    rng = random.Random(39)
    for name, p in _rect_cases():
        lp = _as_lanes(p, geometry_kind(p.height, p.width))
        fresh = initial_state(p)
        shown = fresh.copy()
        for r in range(p.height):
            for c in range(p.width):
                if p.goal and rng.random() < 0.4:
                    shown.set_cell(r, c, p.chars.index(p.goal[r][c]))
        fix = fresh.copy()
        assert propagate(fix, lines) is None
        for gs in (fresh, shown, fix):
            ls = lane_state(lp)
            _same_state(gs, ls)
            for kw in ({}, {"selectors": True}, {"flat": True}):
                a, b = encode(gs, lines, **kw), encode(ls, lines, **kw)
                assert (a.clauses, a.nvars, a.selectors, a.unknown_vars, a.lines, a.block_vars, a.ladder_lines) == \
                    (b.clauses, b.nvars, b.selectors, b.unknown_vars, b.lines, b.block_vars, b.ladder_lines), (name, kw)
                assert b.open_cells == a.open_cells == [r * p.width + c for r, c in a.unknown_cells]
                assert b.width == 0 and a.width == p.width
            assert estimate(gs, lines) == estimate(ls, lines)
            assert [lane for lane, _ in open_lanes(gs)] == [lane for lane, _ in open_lanes(ls)] or \
                geometry_kind is CellRectangle


def _random_triddler(rng: random.Random, geometry, colours: int, blots: bool = False) -> LanePuzzle:
    """The puzzle of a random picture; with ``blots``, about a third of the lanes' first block blotted."""
    chars = ".#" if colours == 1 else ".ab"
    picture = "".join(rng.choice(chars) for _ in range(geometry.cell_count))
    p = LanePuzzle.from_picture(geometry, picture, default_palette(colours), keep_goal=False)
    if blots:
        p = p.replace(clues=tuple(LineClue((1, *c.lengths[1:]), c.colors, 1) if c.lengths and rng.random() < 0.3
                                  else c for c in p.clues))
    return p


def _models(enc, state, session: SatSession) -> set[str]:
    """Every solution of the encoding, read back as pictures (blocking clause after each)."""
    out = set()
    while session.solve(None):
        model = session.model()
        pic = solution_grid(state, enc, model)
        assert pic not in out
        out.add(pic)
        session.add_clause(enc.blocking_clause(model))
    return out


def _all_models(state, lines: LineSolver, **kw) -> set[str]:
    if kw.get("sink"):
        sess = SatSession(())
        enc = encode(state, lines, flat=True, sink=sess.add_clauses)
        assert enc.fed == takes_flat(state.puzzle)
        if not enc.fed:
            sess.add_clauses(enc.clause_data())
    else:
        enc = encode(state, lines, **kw)
        sess = SatSession(enc.clause_data())
    with sess:
        return _models(enc, state, sess)


def _cases():
    rng = random.Random(391)
    small = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.triangle(3, up=False), Triangle.from_sides(1, 2, 1, 1, 2, 1)]
    big = [Triangle.hexagon(2), Triangle.from_sides(2, 1, 2, 2, 1, 2), Triangle.parallelogram(3, 3)]
    out = []
    for g in big:
        for _ in range(6):
            out.append(_random_triddler(rng, g, 1))
        out.append(_random_triddler(rng, g, 1, blots=True))
    for g in small:
        for _ in range(4):
            out.append(_random_triddler(rng, g, 2))
        out.append(_random_triddler(rng, g, 2, blots=True))
    return [p for p in out if p.geometry.cell_count <= (24 if len(p.palette) == 2 else 12)]


@pytest.mark.parametrize("kw", [{}, {"flat": True}, {"sink": True}, {"selectors": True}], ids=lambda kw: ",".join(kw) or "lists")
def test_triddler_models_are_the_brute_force_solutions(kw):
    lines = LineSolver()
    cases = _cases()
    assert len(cases) > 30
    for p in cases:
        want = set(brute_force(p))
        state = lane_state(p)
        sel = kw.get("selectors")
        if sel:  # every lane switched on
            enc = encode(state, lines, selectors=True)
            assert sorted(enc.selectors) == sorted((lane.family, lane.index) for lane, _ in open_lanes(state))
            with SatSession(enc.clauses) as s:
                s.add_clauses([[x] for x in enc.selectors.values()])
                assert _models(enc, state, s) == want
            continue
        assert _all_models(state, lines, **kw) == want, p
        fix = lane_state(p)
        if propagate_state(fix, lines) is None:  # the known cells folded in (or pinned)
            assert _all_models(fix, lines, **kw) == want
        else:
            assert want == set()


def test_triddler_with_a_count_rule_and_given_cells():
    """Rules of another geometry take ``var(cell, v)``; given cells are known cells of the state."""
    lines = LineSolver()
    rng = random.Random(7)
    done = 0
    for _ in range(300):
        p = _random_triddler(rng, Triangle.hexagon(2), 1)
        sols = brute_force(p)
        if done == 12:
            break
        if len(sols) < 2:
            continue
        n = sorted(s.count("#") for s in sols)[len(sols) // 2]
        cell = rng.randrange(p.geometry.cell_count)
        value = ".#".index(sols[0][cell])
        ruled = p.replace(rules=(lane_rule_from({"rule": "count", "op": ">=", "n": n}),), givens=((cell, value),))
        want = {s for s in sols if s.count("#") >= n and s[cell] == sols[0][cell]}
        state = lane_state(ruled)
        assert not takes_flat(ruled)
        assert _all_models(state, lines) == want
        sel = encode(state, lines, selectors=True)
        assert ("rule", 1) in sel.selectors and ("rule", 0) in sel.selectors  # the givens, the count
        done += 1
    assert done == 12


def _connected(picture: str, neighbours) -> bool:
    """Whether the filled cells of ``picture`` form one region (a plain search over ``neighbours``)."""
    filled = {c for c, ch in enumerate(picture) if ch != "."}
    if not filled:
        return True
    seen, todo = set(), [min(filled)]
    while todo:
        c = todo.pop()
        if c in seen:
            continue
        seen.add(c)
        todo += [d for d in neighbours[c] if d in filled]
    return seen == filled


def test_triddler_connected_rule_cuts_over_cell_numbers():
    """A lazy rule of another geometry cuts through :meth:`Encoding.cut` (``color_var(cell, v)``):
    solving and cutting until no model breaks it leaves exactly the brute force's connected
    solutions."""
    lines = LineSolver()
    rng = random.Random(21)
    rule = lane_rule_from({"rule": "connected"})
    cut_some = 0
    for _ in range(40):
        p = _random_triddler(rng, Triangle.hexagon(2), 1).replace(rules=(rule,))
        g = p.geometry
        neighbours = [g.neighbours(c) for c in range(g.cell_count)]
        want = {s for s in brute_force(p) if _connected(s, neighbours)}
        state = lane_state(p)
        enc = encode(state, lines)
        got = set()
        with SatSession(enc.clauses) as s:
            while s.solve(None):
                model = s.model()
                pic = solution_grid(state, enc, model)
                cuts = [cl for r in p.rules if not r.accepts(pic) for cl in enc.cut(r, pic) or ()]
                if cuts:
                    cut_some += 1
                    for cl in cuts:
                        s.add_clause(cl)
                    continue
                got.add(pic)
                s.add_clause(enc.blocking_clause(model))
        assert got == want
    assert cut_some > 0


def test_encoding_reads_a_known_picture_and_names_cells_by_number():
    lines = LineSolver()
    rng = random.Random(5)
    for colours in (1, 2):
        g = Triangle.hexagon(2) if colours == 1 else Triangle.hexagon(1)
        for _ in range(20):
            p = _random_triddler(rng, g, colours)
            sols = brute_force(p)
            state = lane_state(p)
            enc = encode(state, lines)
            k = len(p.palette) - 1
            assert enc.ncolors == k and enc.unknown_cells == enc.open_cells == state.open_cells()
            assert cell_vars(enc, [3, 1]) == [3 * k + v for v in range(1, k + 1)] + [k + v for v in range(1, k + 1)]
            assert enc.color_var(4, 1) == enc.var(4, 1) == 4 * k + 1
            model = enc.model_of(sols[0], p.chars)
            assert solution_grid(state, enc, model) == sols[0]
            with SatSession(enc.clauses) as s:
                s.add_clause(enc.blocking_clause(model))
                others = _models(enc, state, s)
            assert others == set(sols) - {sols[0]}
            assert len(enc.phases(model)) == len(enc.unknown_vars)


def test_the_rows_and_columns_arguments_are_the_rectangle_s():
    lines = LineSolver()
    p = _random_triddler(random.Random(11), Triangle.hexagon(2), 1)
    with pytest.raises(ValueError, match="rows and columns"):
        encode(lane_state(p), lines, rows=[0])


def test_components_of_a_triddler_multiply_to_its_count():
    """:func:`split` over a triddler's lanes: a partition of the open cells (cell numbers) whose
    per-component counts (every other cell at one solution) multiply to the brute force's count
    of the solutions that keep the state's known cells: at a share of a solution revealed (which
    leaves several components: line logic alone settles most small triddlers) and at the line
    fixpoint from there."""
    lines = LineSolver()
    rng = random.Random(12)
    split_some = 0
    for _ in range(60):
        p = _random_triddler(rng, Triangle.hexagon(2), 1)
        sols = brute_force(p)
        shown = {cell: sols[0][cell] for cell in range(p.geometry.cell_count) if rng.random() < 0.5}
        for fixpoint in (False, True):
            state = lane_state(p)
            for cell, ch in shown.items():
                state.excluded[cell] = state.full & ~(1 << p.chars.index(ch))
            if fixpoint:
                assert propagate_state(state, lines) is None
            keep = [s for s in sols if all(s[cell] == ch for cell, ch in shown.items())]
            comps = split(state, lines)
            assert sorted(c for comp in comps for c in comp.cells) == state.open_cells()
            assert all(isinstance(c, int) for comp in comps for c in comp.cells)
            counts = []
            for comp in comps:
                sub = component_state(state, comp, sols[0])
                assert sub.open_cells() == comp.cells
                counts.append(len(_all_models(sub, lines)))
            assert math.prod(counts) == len(keep)
            split_some += len(comps) > 1
    assert split_some >= 10


def test_components_of_a_rectangle_as_lanes_are_the_rectangle_s():
    lines = LineSolver()
    for name, p in _rect_cases():
        gs = initial_state(p)
        if propagate(gs, lines) is not None:
            continue
        ls = lane_state(_as_lanes(p, CellRectangle(p.height, p.width)))
        _same_state(gs, ls)
        w = p.width
        want = [[r * w + c for r, c in comp.cells] for comp in split(gs, lines)]
        assert [comp.cells for comp in split(ls, lines)] == want, name
        assert [[(s.axis, s.index, s.start, s.stop) for s in comp.segments] for comp in split(ls, lines)] == \
            [[(s.axis, s.index, s.start, s.stop) for s in comp.segments] for comp in split(gs, lines)]
