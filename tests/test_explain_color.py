"""Explanations of colour puzzles (issue 12's last point), checked against independent truth.

The replay state here is a set of possible colours per cell, kept by this file
alone.  For every line step:

* what it claims (settled cells, and colours ruled out of unsettled cells) is
  new and forced by its line alone given the state before it: brute force over
  the line's placements (``tests/_brute_color.py``) on short lines, the complete
  colour line solver on long ones;
* its technique's own simple rule, recomputed here by brute force, yields
  exactly what it claims;

every probe step's chain replays (each chain step checked in turn) to a line
with no placement; replaying every step reaches exactly the propagation
fixpoint (every colour exclusion, not only settled cells) or the solution.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _brute_color import brute_line, grid_solutions, line_placements
from satnono import Puzzle, check, load, next_hint
from satnono.explain import explain
from satnono.explain.draw import legend, render_step, replay, svg_files
from satnono.explain.engine import Engine
from satnono.explain.explainer import Explainer
from satnono.linesolve import LineSolver, solve_color_line
from satnono.propagate import GridState, propagate

from conftest import PUZZLES  # noqa: E402

BRUTE_MAX = 12  # lines up to this length are checked by enumerating their placements
GOLDEN = PUZZLES.parent / "tests" / "golden_explain"


class Replay:
    """Possible colour indices per cell, changed only by what steps claim."""

    def __init__(self, puzzle: Puzzle, known=None) -> None:
        self.p = puzzle
        self.index = {ch: v for v, ch in enumerate(puzzle.chars)}
        nv = len(puzzle.palette)
        self.poss = [[set(range(nv)) for _ in range(puzzle.width)] for _ in range(puzzle.height)]
        for r, row in enumerate(known or ()):
            for c, ch in enumerate(row):
                if ch != "?":
                    self.poss[r][c] = {self.index[ch]}

    def copy(self) -> "Replay":
        other = Replay.__new__(Replay)
        other.p, other.index = self.p, self.index
        other.poss = [[set(x) for x in row] for row in self.poss]
        return other

    def cells(self, axis: str, i: int) -> list[set[int]]:
        if axis == "row":
            return self.poss[i]
        return [row[i] for row in self.poss]

    def excluded(self, axis: str, i: int) -> tuple[int, ...]:
        cells = self.cells(axis, i)
        return tuple(sum(1 << k for k, s in enumerate(cells) if v not in s) for v in range(len(self.p.palette)))

    def claims(self, stp) -> dict[tuple[int, int], set[int]]:
        """The colours each touched cell loses by the step, checked to be well formed."""
        out: dict[tuple[int, int], set[int]] = {}
        for r, c, ch in stp.cells:
            assert len(ch) == 1 and ch in self.index
            v = self.index[ch]
            assert v in self.poss[r][c] and len(self.poss[r][c]) > 1, "a settled cell that was known or impossible"
            out[(r, c)] = self.poss[r][c] - {v}
        for r, c, chars in stp.excluded:
            gone = {self.index[ch] for ch in chars}
            assert gone and gone <= self.poss[r][c], "an exclusion that is not new"
            assert len(self.poss[r][c] - gone) > 1, "a cell left with one colour must be listed as settled"
            assert (r, c) not in out
            out[(r, c)] = gone
        return out

    def apply(self, stp) -> None:
        for (r, c), gone in self.claims(stp).items():
            self.poss[r][c] -= gone

    def grid(self) -> tuple[str, ...]:
        chars = self.p.chars
        return tuple("".join(chars[next(iter(s))] if len(s) == 1 else "?" for s in row) for row in self.poss)


def check_line_step(rp: Replay, stp) -> None:
    p = rp.p
    lengths, colors = p.line(stp.axis, stp.index)
    assert tuple(stp.clue) == lengths and stp.colors == "".join(p.chars[v] for v in colors)
    claims = rp.claims(stp)
    assert claims, "a step that changes nothing"
    line_cells = rp.cells(stp.axis, stp.index)
    n = len(line_cells)
    pos: dict[int, set[int]] = {}
    for (r, c), gone in claims.items():
        assert (r == stp.index) if stp.axis == "row" else (c == stp.index), "a cell off the step's line"
        pos[c if stp.axis == "row" else r] = gone
    ex = rp.excluded(stp.axis, stp.index)
    if n <= BRUTE_MAX:
        fits = [(cells, starts) for cells, starts in line_placements(lengths, colors, n)
                if all(_val(ch) in line_cells[k] for k, ch in enumerate(cells))]
        assert fits, "the line had no placement before the step"
        for k, gone in pos.items():
            assert all(_val(f[k]) not in gone for f, _ in fits), f"{stp.text}: cell {k} is not forced"
        assert brute_line(lengths, colors, n, ex) is not None
        _check_technique(stp, lengths, colors, line_cells, fits, pos)
    else:
        res = solve_color_line(lengths, colors, n, ex)
        assert res is not None
        for k, gone in pos.items():
            assert all((res.excluded[v] >> k) & 1 for v in gone), f"{stp.text}: cell {k} is not forced"
        if stp.technique == "placements":
            assert stp.placements and stp.placements > 0


def _val(ch: str) -> int:
    return 0 if ch == "." else ord(ch) - ord("a") + 1


def _check_technique(stp, lengths, colors, line_cells, fits, pos) -> None:
    """The technique's simple rule, by brute force, yields exactly the step's claims."""
    t = stp.technique
    n = len(line_cells)
    nv = max(max(s) for s in line_cells) + 1 if line_cells else 1
    nv = max(nv, max(colors, default=0) + 1)
    may = [{k for k in range(n) if v in line_cells[k]} for v in range(nv)]
    claimed = {(k, v) for k, gone in pos.items() for v in gone}
    starts = [sorted({s[j] for _, s in fits}) for j in range(len(lengths))]
    known = {k: next(iter(s)) for k, s in enumerate(line_cells) if len(s) == 1}
    present = set(colors)
    if t == "empty":
        assert not lengths and claimed == {(k, v) for v in range(1, nv) for k in may[v]}
    elif t == "absent":
        assert lengths
        assert claimed == {(k, v) for v in range(1, nv) if v not in present for k in may[v]}
    elif t == "complete":
        for k, v in claimed:
            total = sum(c for c, col in zip(lengths, colors) if col == v)
            assert v in present and sum(1 for x in known.values() if x == v) == total
            assert known.get(k) != v
        done = {v for _, v in claimed}
        assert claimed == {(k, v) for v in done for k in may[v] if known.get(k) != v}
    elif t == "fill":
        coloured = set().union(*(may[v] for v in present)) if present else set()
        assert len(coloured) == sum(lengths)
        assert claimed == {(k, 0) for k in coloured if k in may[0]}
    elif t in ("edge", "fixed"):
        rule = set()
        for j, (c, col) in enumerate(zip(lengths, colors)):
            if len(starts[j]) == 1:
                s = starts[j][0]
                rule |= {(k, v) for k in range(s, s + c) for v in range(nv) if v != col and k in may[v]}
                rule |= {(k, col) for k in (s - 1, s + c) if 0 <= k < n and k in may[col]}
        assert claimed and claimed <= rule
    elif t == "overlap":
        for k, v in claimed:
            assert any(max(starts[j]) <= k < min(starts[j]) + c and v != col
                       for j, (c, col) in enumerate(zip(lengths, colors)))
    elif t == "reach":
        for k, v in claimed:
            assert v in present
            assert not any(col == v and min(starts[j]) <= k < max(starts[j]) + c
                           for j, (c, col) in enumerate(zip(lengths, colors)))
    else:
        assert t == "placements" and stp.placements == len(fits)
        forced = {(k, v) for k in range(n) for v in range(nv)
                  if v in line_cells[k] and all(_val(f[k]) != v for f, _ in fits)}
        assert claimed == forced


@st.composite
def line_states(draw):
    """A line of 3..10 cells, a clue of up to 4 blocks in 1 or 2 colours, and known exclusions."""
    n = draw(st.integers(3, 10))
    k = draw(st.integers(0, 4))
    lengths = tuple(draw(st.lists(st.integers(1, 3), min_size=k, max_size=k)))
    two = draw(st.booleans())
    colors = tuple(draw(st.lists(st.integers(1, 2 if two else 1), min_size=k, max_size=k)))
    ex = tuple(draw(st.integers(0, (1 << n) - 1)) if draw(st.booleans()) else 0 for _ in range(3))
    return lengths, colors, n, ex


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(line_states())
def test_colour_line_moves_against_brute_force(case):
    """One line at a time, over many more states than whole puzzles reach: the move's exclusions
    are new and forced, and its technique's rule gives them (placements counted by brute force)."""
    from types import SimpleNamespace

    from satnono.explain.techniques import color_line_move

    lengths, colors, n, ex = case
    p = Puzzle.from_grid(["ab", "ba"])
    res = solve_color_line(lengths, colors, n, ex)
    brute = brute_line(lengths, colors, n, ex)
    assert (res is None) == (brute is None)
    if res is None:
        return
    mv = color_line_move(p, lengths, colors, n, ex, res, "row")
    new = [b & ~e for b, e in zip(brute[0], ex)]
    if mv is None:
        assert not any(new)
        return
    assert any(mv.ex) and all(not (m & ~nw) for m, nw in zip(mv.ex, new)), mv.technique
    line_cells = [{v for v in range(3) if not (ex[v] >> k) & 1} for k in range(n)]
    fits = [(cells, starts) for cells, starts in line_placements(lengths, colors, n)
            if all(_val(ch) in line_cells[k] for k, ch in enumerate(cells))]
    pos: dict[int, set[int]] = {}
    for v, m in enumerate(mv.ex):
        for k in range(n):
            if (m >> k) & 1:
                pos.setdefault(k, set()).add(v)
    placements = None
    if mv.technique == "placements":
        from satnono.diagnose import count_color_placements

        placements = count_color_placements(lengths, colors, n, ex)
    _check_technique(SimpleNamespace(technique=mv.technique, placements=placements), lengths, colors,
                     line_cells, fits, pos)


def check_steps(puzzle: Puzzle, steps, rp: Replay | None = None) -> Replay:
    rp = rp or Replay(puzzle)
    for stp in steps:
        if stp.kind == "line":
            check_line_step(rp, stp)
        else:
            check_probe_step(rp, stp)
        rp.apply(stp)
    return rp


def check_probe_step(rp: Replay, stp) -> None:
    r, c, assumed = stp.probe
    v = rp.index[assumed]
    assert v in rp.poss[r][c] and len(rp.poss[r][c]) > 1
    assert rp.claims(stp) == {(r, c): {v}}, "a probe rules out exactly the assumed colour"
    trial = rp.copy()
    trial.poss[r][c] = {v}
    end = check_steps(rp.p, stp.chain, trial)
    lengths, colors = rp.p.line(stp.axis, stp.index)
    n = len(end.cells(stp.axis, stp.index))
    ex = end.excluded(stp.axis, stp.index)
    assert solve_color_line(lengths, colors, n, ex) is None, "the refutation does not end in a line without placement"
    if n <= BRUTE_MAX:
        assert brute_line(lengths, colors, n, ex) is None
    nested = [s.depth for s in stp.chain if s.kind == "probe"]
    assert stp.depth >= 1 + max(nested, default=0)
    assert stp.technique == ("probe" if stp.depth == 1 else "probe2")


def fixpoint_exclusions(puzzle: Puzzle) -> list[list[int]]:
    state = GridState(puzzle)
    propagate(state, LineSolver())
    return [list(x) for x in state.row_ex]


def replay_exclusions(rp: Replay) -> list[list[int]]:
    nv = len(rp.p.palette)
    return [[sum(1 << c for c, s in enumerate(row) if v not in s) for row in rp.poss] for v in range(nv)]


# --------------------------------------------------------------------------
# Property tests on random colour grids


@st.composite
def color_grids(draw, max_side: int = 6, max_colors: int = 3):
    k = draw(st.integers(2, max_colors))
    alphabet = "." + "abc"[:k]
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    rows = draw(st.lists(st.text(alphabet=alphabet, min_size=w, max_size=w), min_size=h, max_size=h))
    if len(set("".join(rows)) - {"."}) < 2:  # make it a real colour puzzle
        rows[0] = ("ab" + rows[0][2:])[:w] if w >= 2 else rows[0]
        if len(set("".join(rows)) - {"."}) < 2:
            rows = ["ab"[: w] for _ in range(h)] if w >= 2 else rows
    return tuple(rows)


def _puzzle(g) -> Puzzle | None:
    p = Puzzle.from_grid(g)
    return p if p.is_color else None


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(color_grids())
def test_colour_line_steps_sound_and_replay_reaches_the_fixpoint(g):
    p = _puzzle(g)
    if p is None:
        return
    ex = explain(p, max_depth=0, verdict_timeout=None)
    assert all(s.kind == "line" and s.excluded is not None for s in ex.steps)
    rp = check_steps(p, ex.steps)
    # the full exclusion state, not only the settled cells
    assert replay_exclusions(rp) == fixpoint_exclusions(p)
    assert rp.grid() == ex.grid
    assert ex.solved == ("?" not in "".join(ex.grid))
    if ex.solved:
        assert p.is_solution(ex.grid) and ex.difficulty["level"] == "line"


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(color_grids(max_side=5))
def test_colour_probe_steps_replay_to_a_contradiction(g):
    p = _puzzle(g)
    if p is None:
        return
    ex = explain(p, verdict_timeout=None)
    rp = check_steps(p, ex.steps)
    assert rp.grid() == ex.grid
    sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors, limit=2)
    assert sols
    # what logic settles or rules out holds in every solution (the oracle writes colour v as chr(96 + v))
    for sol in sols:
        assert all(_val(sol[r][c]) in rp.poss[r][c] for r in range(p.height) for c in range(p.width))
    if ex.solved:
        assert len(sols) == 1
        assert ex.grid == tuple("".join(p.chars[_val(ch)] for ch in row) for row in sols[0])
    level = ex.difficulty["level"]
    assert (level == "line") == check(p).line_solvable


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(color_grids(max_side=6))
def test_colour_rounds_order_reaches_the_fixpoint(g):
    p = _puzzle(g)
    if p is None:
        return
    eng = Engine(GridState(p), LineSolver(), strict=False)
    steps = []
    while eng.step(steps) is not None:
        pass
    assert replay_exclusions(check_steps(p, steps)) == fixpoint_exclusions(p)


def test_bundled_colour_puzzles_replay_soundly():
    """Long lines (31 and 40 cells) checked against the complete line solver; replay == solution."""
    for name in ("webpbn/webpbn-color-00047.xml", "satnono/colour-search-10x10.non"):
        p = load(str(PUZZLES / name))
        ex = explain(p)
        assert ex.solved, name
        rp = check_steps(p, ex.steps)
        assert rp.grid() == ex.grid == check(p).solutions[0]
        assert p.is_solution(ex.grid)


def test_colour_search_puzzle_needs_a_probe_and_techniques_are_varied():
    p = load(str(PUZZLES / "satnono" / "colour-search-10x10.non"))
    ex = explain(p)
    assert ex.difficulty["level"] == "probe" and ex.difficulty["exact"]
    probes = [s for s in ex.steps if s.kind == "probe"]
    assert probes and all("so it is not" in s.text for s in probes)
    assert {"absent", "complete", "fill", "edge"} <= {s.technique for s in ex.steps}
    d = ex.as_dict()
    line = next(s for s in d["steps"] if s["kind"] == "line")
    assert set(line) >= {"cells", "excluded", "colors", "clue"}
    for s in d["steps"]:
        for r, c, v in s["cells"]:
            assert v in p.chars


def test_colour_depth_one_grade_is_monotone():
    """line < probe < search on random colour puzzles, each level confirmed by independent probing."""
    import random

    from _oracles import probe as probe_oracle

    lines = LineSolver()
    seen = set()
    rng = random.Random(12)
    for _ in range(40):
        g = ["".join(rng.choice("..abc") for _ in range(9)) for _ in range(9)]
        p = Puzzle.from_grid(g)
        if True:
            res = check(p)
            if res.status.value != "unique":
                continue
            e = Explainer(lines).explain(p, verdict=lambda: "unique")
            d = e.difficulty
            if not d["exact"]:
                continue
            seen.add(d["level"])
            state = GridState(p)
            propagate(state, lines)
            assert (d["level"] == "line") == res.line_solvable
            if d["level"] == "line":
                continue
            by_depth1 = probe_oracle(state, lines) is None and state.unknown_count() == 0
            assert (d["level"] == "probe") == by_depth1
    assert "line" in seen


# --------------------------------------------------------------------------
# Golden explanation, hints, drawings


def test_golden_colour_explanation():
    p = load(str(PUZZLES / "satnono" / "colour-search-10x10.non"))
    got = explain(p).as_dict()
    got.pop("seconds")
    want = json.loads((GOLDEN / "satnono__colour-search-10x10.non.json").read_text())
    assert got == want


def test_colour_hint_step_wrong_and_solved():
    p = load(str(PUZZLES / "satnono" / "colour-search-10x10.non"))
    sol = check(p).solutions[0]
    blank = ["?" * p.width] * p.height
    for known in (blank, [row[:5] + "?" * 5 for row in sol]):  # empty, and half filled in correctly
        h = next_hint(p, known)
        assert h.kind == "step" and h.step is not None and h.step.technique != "absent"
        # the hint is sound once the absent steps (read off the clues) are taken, which are checked too
        check_steps(p, _absent_steps(p, known) + [h.step], Replay(p, known))
    # a wrong cell is named with its colour
    r, c = 6, 0
    wrong = [list(row) for row in blank]
    wrong[r][c] = next(ch for ch in p.chars if ch != sol[r][c])
    h = next_hint(p, ["".join(x) for x in wrong])
    assert h.kind == "wrong" and h.wrong == [(r, c)] and "row 7, column 1" in h.text
    assert next_hint(p, list(sol)).kind == "solved"
    with pytest.raises(ValueError, match="palette"):
        next_hint(p, ["#" * p.width] * p.height)


def _absent_steps(p: Puzzle, known) -> list:
    from satnono.explain import state_from_known

    eng = Engine(state_from_known(p, known), LineSolver())
    out = []
    got = eng.next_move()
    while got is not None and got[1].technique == "absent":
        out.append(eng.make_step(*got))
        eng.apply_step(out[-1])
        got = eng.next_move()
    return out


def test_colour_drawings():
    p = load(str(PUZZLES / "satnono" / "colour-search-10x10.non"))
    ex = explain(p)
    before, stp = list(replay(p, ex.steps))[-1]
    text = render_step(before, stp, True, p.palette)
    assert "*" in text and "?" not in text.replace("'?'", "")
    assert "\x1b[48;2;" in render_step(before, stp, False, p.palette)
    assert "palette" in legend(True, p.palette)
    files = svg_files(p, ex.steps)
    assert len(files) == len(ex.steps)
    last = files[max(files)].decode()
    assert "#dc2828" in last and "#289628" in last  # the puzzle's own colours


def test_colour_depth_two_probes_replay():
    """5-Dom needs probing depth 2; recoloured as a 2-colour puzzle (its black cells colour a and
    an extra row holding one colour-b cell) it still does: every step, nested probes included,
    replays soundly (by brute force on its 11- and 12-cell lines' placements) to the solution."""
    p0 = load(str(PUZZLES / "dom" / "5-dom.xml"))
    sol = check(p0).solutions[0]
    p = Puzzle.from_grid([row.replace("#", "a") for row in sol] + ["b" + "." * (p0.width - 1)])
    ex = explain(p, probe_budget=400_000)
    assert ex.solved and ex.difficulty["level"] == "probe2" and ex.difficulty["exact"]
    deep = [s for s in ex.steps if s.kind == "probe" and s.depth == 2]
    assert deep and any(x.kind == "probe" for s in deep for x in s.chain)
    assert "placements" in {s.technique for s in ex.steps}
    rp = check_steps(p, ex.steps)
    assert rp.grid() == ex.grid == check(p).solutions[0]
