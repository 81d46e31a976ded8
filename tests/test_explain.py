"""Explanations (issue 12), black and white and colour: every step is checked against independent
truth by the checkers in ``tests/_explain_checks.py`` (``bw_*`` and ``color_*``):

* a line step's cells (and, in colour, the colours it rules out) are forced by its line alone given
  what was known before it: brute force over the line's placements (short lines) or the complete
  line solver (long lines);
* a step's technique name is true: its simple rule, computed by brute force, yields its claims;
* a probe step's chain replays (each chain step sound in turn) to a line with no placement;
* replaying every step reaches exactly the line-logic fixpoint (depth 0; in colour every colour
  exclusion, not only settled cells) or the solution (when the explanation says solved).

Tests that hold for both kinds are parametrized over ``kind`` (``bw``, ``color``); the others are
about puzzles, hints or drawings of one kind.
"""

from __future__ import annotations

import json
import time

import pytest
from _explain_checks import (
    Replay,
    bw_check_line_step,
    bw_check_steps,
    check_color_technique,
    color_check_steps,
    fixpoint_exclusions,
    fixpoint_grid,
    replay_exclusions,
    value_of,
)
from _oracles import brute_line, color_line_placements, grid_solutions
from _oracles import probe as probe_oracle
from conftest import PUZZLES
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satnono import Puzzle, check, load
from satnono.explain import LEVELS, Explainer, difficulty, explain, next_hint
from satnono.explain.draw import legend, render_step, replay, svg_files
from satnono.explain.engine import Engine
from satnono.lines import LineSolver, solve_color_line
from satnono.model import BLACK, WHITE
from satnono.logic.propagate import propagate
from satnono.logic.state import GridState
from satnono.results import Limits

KINDS = ["bw", "color"]



# --------------------------------------------------------------------------
# Property tests on random grids (both kinds)


@st.composite
def grids(draw, max_side: int = 7):
    h = draw(st.integers(1, max_side))
    w = draw(st.integers(1, max_side))
    rows = draw(st.lists(st.text(alphabet=".#", min_size=w, max_size=w), min_size=h, max_size=h))
    return tuple(rows)


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


def draw_puzzle(data, kind: str, max_side: int) -> Puzzle | None:
    """A random puzzle of the kind (None for a colour grid that came out in one colour)."""
    if kind == "bw":
        return Puzzle.from_grid(data.draw(grids(max_side), label="grid"))
    return _puzzle(data.draw(color_grids(max_side), label="grid"))


def replay_to_fixpoint(kind: str, p: Puzzle, steps) -> tuple[str, ...]:
    """Check every step and that replaying them reaches the line-logic fixpoint (in colour the whole
    exclusion state); return the grid reached."""
    if kind == "bw":
        end = bw_check_steps(p, steps)
        assert end == fixpoint_grid(p)
        return end
    rp = color_check_steps(p, steps)
    assert replay_exclusions(rp) == fixpoint_exclusions(p)
    return rp.grid()


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_line_steps_sound_and_replay_reaches_the_fixpoint(kind, data):
    p = draw_puzzle(data, kind, 7 if kind == "bw" else 6)
    if p is None:
        return
    ex = explain(p, max_depth=0, verdict_timeout=None)
    assert all(s.kind == "line" for s in ex.steps)
    if kind == "color":
        assert all(s.excluded is not None for s in ex.steps)
    end = replay_to_fixpoint(kind, p, ex.steps)
    assert end == ex.grid
    assert ex.solved == ("?" not in "".join(end))
    if ex.solved:
        assert p.is_solution(end) and ex.difficulty["level"] == "line"


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_probe_steps_replay_to_a_contradiction(kind, data):
    p = draw_puzzle(data, kind, 6 if kind == "bw" else 5)
    if p is None:
        return
    ex = explain(p, verdict_timeout=None)
    res = check(p)
    if kind == "bw":
        end = bw_check_steps(p, ex.steps)
        assert end == ex.grid
        if ex.solved:
            assert p.is_solution(end)
            assert res.status.value == "unique" and end == res.solutions[0]
        else:
            # what logic settles is true in every solution: it agrees with both solutions shown
            for sol in res.solutions:
                assert all(ch == "?" or ch == sol[r][c] for r, row in enumerate(end) for c, ch in enumerate(row))
    else:
        rp = color_check_steps(p, ex.steps)
        assert rp.grid() == ex.grid
        sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors, limit=2)
        assert sols
        # what logic settles or rules out holds in every solution (the oracle writes colour v as chr(96 + v))
        for sol in sols:
            assert all(value_of(sol[r][c]) in rp.poss[r][c] for r in range(p.height) for c in range(p.width))
        if ex.solved:
            assert len(sols) == 1
            assert ex.grid == tuple("".join(p.chars[value_of(ch)] for ch in row) for row in sols[0])
    level = ex.difficulty["level"]
    assert (level == "line") == res.line_solvable


@pytest.mark.parametrize("kind", KINDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_rounds_order_is_sound_and_reaches_the_fixpoint(kind, data):
    """The order by rounds (used on large grids) gives sound steps and the same fixpoint."""
    p = draw_puzzle(data, kind, 7 if kind == "bw" else 6)
    if p is None:
        return
    eng = Engine(GridState(p), LineSolver(), strict=False)
    steps = []
    while eng.step(steps) is not None:
        pass
    replay_to_fixpoint(kind, p, steps)


def _dom5(kind: str) -> Puzzle:
    """5-Dom, which needs probing depth 2; in colour recoloured as a 2-colour puzzle (its black cells
    colour a and an extra row holding one colour-b cell), which still does."""
    p0 = load(str(PUZZLES / "dom" / "5-dom.xml"))
    if kind == "bw":
        return p0
    sol = check(p0).solutions[0]
    return Puzzle.from_grid([row.replace("#", "a") for row in sol] + ["b" + "." * (p0.width - 1)])


@pytest.mark.parametrize("kind", KINDS)
def test_depth_two_probes_replay(kind):
    """Every step, nested probes included, replays soundly to the solution (in colour by brute force
    on its 11- and 12-cell lines' placements)."""
    p = _dom5(kind)
    ex = explain(p, probe_budget=400_000)
    assert ex.solved and ex.difficulty["level"] == "probe2" and ex.difficulty["exact"]
    deep = [s for s in ex.steps if s.kind == "probe" and s.depth == 2]
    assert deep and any(x.kind == "probe" for s in deep for x in s.chain)
    if kind == "color":
        assert "placements" in {s.technique for s in ex.steps}
    end = bw_check_steps(p, ex.steps) if kind == "bw" else color_check_steps(p, ex.steps).grid()
    assert end == ex.grid == check(p).solutions[0]


# --------------------------------------------------------------------------
# Single lines and large grids


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
    fits = [(cells, starts) for cells, starts in color_line_placements(lengths, colors, n)
            if all(value_of(ch) in line_cells[k] for k, ch in enumerate(cells))]
    pos: dict[int, set[int]] = {}
    for v, m in enumerate(mv.ex):
        for k in range(n):
            if (m >> k) & 1:
                pos.setdefault(k, set()).add(v)
    placements = None
    if mv.technique == "placements":
        from satnono.lines.count import count_color_placements

        placements = count_color_placements(lengths, colors, n, ex)
    check_color_technique(SimpleNamespace(technique=mv.technique, placements=placements), lengths, colors,
                     line_cells, fits, pos)


def test_larger_lines_checked_against_the_line_solver():
    g = tuple(("#" * ((r * 7 + 3) % 19) + "." + "#" * (r % 5)).ljust(24, ".")[:24] for r in range(18))
    p = Puzzle.from_grid(g)
    ex = explain(p, verdict_timeout=None)
    end = bw_check_steps(p, ex.steps)
    assert end == ex.grid


def test_bundled_colour_puzzles_replay_soundly():
    """Long lines (31 and 40 cells) checked against the complete line solver; replay == solution."""
    for name in ("webpbn/webpbn-color-00047.xml", "satnono/colour-search-10x10.non"):
        p = load(str(PUZZLES / name))
        ex = explain(p)
        assert ex.solved, name
        rp = color_check_steps(p, ex.steps)
        assert rp.grid() == ex.grid == check(p).solutions[0]
        assert p.is_solution(ex.grid)


# --------------------------------------------------------------------------
# Order, techniques and texts


def test_easy_steps_come_first():
    p = load(str(PUZZLES / "webpbn" / "webpbn-00016.xml"))
    ex = explain(p)
    assert ex.solved
    ranks = [s for s in ex.steps]
    # the first step is a classic: a long block's overlap on the empty grid
    assert ranks[0].technique == "overlap"
    # no general-placements step is taken while an easier technique was available: the first
    # step of every technique class appears no later than the first placements step
    first = {t: next((k for k, s in enumerate(ex.steps) if s.technique == t), None) for t in ("overlap", "placements")}
    if first["placements"] is not None:
        assert first["overlap"] < first["placements"]


def test_step_texts_use_one_based_lines_and_json_zero_based():
    p = Puzzle.from_grid(["###", "...", "#.."])
    ex = explain(p)
    d = ex.as_dict()
    s0 = d["steps"][0]
    assert set(s0) >= {"kind", "line", "index", "cells", "technique", "text"}
    line_word = s0["line"]
    assert f"{line_word} {s0['index'] + 1} " in s0["text"]
    assert d["solved"] and d["remaining"] == [] and d["difficulty"]["level"] == "line"
    json.dumps(d)


def test_empty_and_complete_lines():
    p = Puzzle.from_grid(["...", "###", ".#."])
    ex = explain(p, verdict_timeout=None)
    techs = {s.technique for s in ex.steps}
    assert "empty" in techs
    bw_check_steps(p, ex.steps)


def test_probe_needed_puzzle_has_probe_steps_and_grade():
    p = load(str(PUZZLES / "webpbn" / "webpbn-00023.xml"))
    ex = explain(p)
    assert ex.solved
    probes = [s for s in ex.steps if s.kind == "probe"]
    assert probes and ex.difficulty["level"] == "probe" and ex.difficulty["probes"] == len(probes)
    assert "would have no placement after" in probes[0].text
    bw_check_steps(p, ex.steps)


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


def test_multiple_solutions_said_honestly():
    p = Puzzle.from_grid(["#.", ".#"])
    ex = explain(p)
    assert not ex.solved and ex.difficulty["level"] == "multiple"
    assert "several solutions" in ex.note
    assert ex.remaining == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_no_solution():
    p = Puzzle.from_clues(rows=[[2], [0]], columns=[[1], [0]])
    ex = explain(p)
    assert ex.status == "none" and ex.difficulty["level"] == "none" and "no solution" in ex.note


def test_max_steps_truncates():
    p = load(str(PUZZLES / "webpbn" / "webpbn-00001.xml"))
    ex = explain(p, max_steps=3)
    assert len(ex.steps) == 3 and not ex.solved and ex.status == "truncated"
    assert ex.difficulty["exact"] is False


def test_limits_bound_explain_hint_and_difficulty():
    """explain(), next_hint() and difficulty() take the one limits value (as Checker.settle does);
    a deadline already past stops each at once."""
    p = load(str(PUZZLES / "webpbn" / "webpbn-00001.xml"))
    past = Limits(deadline=time.monotonic() - 1)
    ex = explain(p, limits=past, verdict_timeout=None)
    assert ex.status == "truncated" and ex.steps == [] and ex.difficulty["exact"] is False
    assert "time limit" in ex.note
    assert Explainer(LineSolver()).explain(p, limits=past).status == "truncated"
    assert explain(p, limits=Limits(timeout=60)).status == "solved"
    empty = ["?" * p.width] * p.height
    assert next_hint(p, empty, past).status == "unknown"  # the check ran out: the hint still comes
    assert next_hint(p, empty, Limits(timeout=60)).status == "unique"
    assert difficulty(p, limits=past)["level"] == "unknown"
    assert difficulty(p)["level"] == "line"
    with pytest.raises(TypeError):
        explain(p, timeout=1.0)  # type: ignore[call-arg]


def test_budget_gives_an_at_least_grade():
    p = load(str(PUZZLES / "dom" / "8-dom.xml"))
    ex = explain(p, probe_budget=200, verdict_timeout=None)
    assert ex.status == "budget" and ex.difficulty["exact"] is False
    assert ex.difficulty["text"].startswith("needs at least")


@pytest.mark.parametrize("status, one, two", [
    ("truncated", "stopped after the requested number of steps; 1 cell is still open",
     "stopped after the requested number of steps; 2 cells are still open"),
    ("budget", "the probing budget ran out with 1 cell open", "the probing budget ran out with 2 cells open"),
    ("stuck", "line logic and probing up to depth 2 settle no more cells; 1 is open",
     "line logic and probing up to depth 2 settle no more cells; 2 are open"),
])
def test_end_note_counts_open_cells_in_the_singular_and_plural(status, one, two):
    from satnono.explain.grade import end_note

    p = Puzzle.from_grid(["#.", ".#"])
    assert end_note(p, status, None, None, 1, 2).startswith(one)
    assert end_note(p, status, None, None, 2, 2).startswith(two)


def test_a_placements_sentence_counts_in_the_singular_and_plural():
    from satnono.explain.techniques import line_text

    def said(n):
        return line_text("row 1 (clue 3)", n, "puts", "column 2 black", lambda: "")

    assert said(1) == "row 1 (clue 3): the only placement of the clue that fits the known cells puts column 2 black"
    assert said(1234) == ("row 1 (clue 3): every one of the 1,234 placements of the clue that fit the known cells "
                          "puts column 2 black")


# --------------------------------------------------------------------------
# Grades are monotone


def _small_bundled():
    """The small rectangular puzzles of puzzles/ (triddlers: tests/test_explain_lanes.py)."""
    out = []
    for f in sorted(PUZZLES.rglob("*")):
        if f.suffix in {".xml", ".non", ".nin"} and f.is_file():
            p = load(str(f))
            if isinstance(p, Puzzle) and p.width * p.height <= 400:
                out.append((str(f.relative_to(PUZZLES)), p))
    return out


def test_grade_is_monotone_on_the_corpus():
    """line < probe < probe2 < search, each level confirmed independently."""
    lines = LineSolver()
    ex = Explainer(lines)
    seen = set()
    for name, p in _small_bundled()[:60]:
        res = check(p, timeout=30)
        if res.status.value != "unique":
            continue
        e = ex.explain(p, verdict=lambda: "unique")
        d = e.difficulty
        if not d["exact"]:
            continue
        seen.add(d["level"])
        state = GridState(p)
        propagate(state, lines)
        if d["level"] == "line":
            assert res.line_solvable, name
            continue
        assert not res.line_solvable, name
        solved_by_depth1 = probe_oracle(state, lines) is None and state.unknown_count() == 0
        if d["level"] == "probe":
            assert solved_by_depth1, name
        else:
            assert not solved_by_depth1, name
            if e.solved:
                assert p.is_solution(e.grid) and d["level"] == "probe2"
            else:
                assert d["level"] == "search"
    assert {"line", "probe"} <= seen
    assert LEVELS.index("line") < LEVELS.index("probe") < LEVELS.index("probe2") < LEVELS.index("search")


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


@pytest.mark.parametrize("chars", [".#", "..abc"])
def test_prober_fixpoint_matches_plain_probing(chars):
    """``Prober.fixpoint`` (which skips the assumptions a consistent trial implied) reaches the same
    depth-1 probing fixpoint as plain probing of every value of every cell, in black and white and
    colour, also from states with a wrong cell set; both agree on whether a contradiction is found."""
    import random

    from satnono.logic.probe import Prober

    lines = LineSolver()
    rng = random.Random(7)
    settled = 0
    for k in range(60):
        g = ["".join(rng.choice(chars) for _ in range(7)) for _ in range(7)]
        p = Puzzle.from_grid(g)
        state = GridState(p)
        assert propagate(state, lines) is None
        if k % 2 and state.unknown_cells():  # a wrong value in an open cell
            r, c = rng.choice(state.unknown_cells())
            state.set_cell(r, c, rng.choice([v for v in state.possible(r, c) if p.chars[v] != g[r][c]]))
            if propagate(state, lines) is not None:
                continue
        plain, fast = state.copy(), state.copy()
        bad_plain = probe_oracle(plain, lines)
        bad_fast = Prober(lines, 10**9, None).fixpoint(fast)
        assert (bad_plain is None) == (bad_fast is None), g
        if bad_plain is None:
            assert fast.row_ex == plain.row_ex and fast.col_ex == plain.col_ex, g
            settled += fast.known_count() - state.known_count()
    assert settled  # probing settled cells somewhere, so the comparison is not vacuous


# --------------------------------------------------------------------------
# Golden explanations


GOLDEN = PUZZLES.parent / "tests" / "golden_explain"


@pytest.mark.parametrize("path", ["webpbn/webpbn-00001.xml", "webpbn/webpbn-00023.xml", "dom/3-dom.xml",
                                  "satnono/colour-search-10x10.non"])
def test_golden_explanations(path):
    p = load(str(PUZZLES / path))
    got = explain(p).as_dict()
    got.pop("seconds")
    want_file = GOLDEN / (path.replace("/", "__") + ".json")
    want = json.loads(want_file.read_text())
    assert got == want


# --------------------------------------------------------------------------
# Hints


def test_hint_gives_a_sound_easiest_step():
    p = load(str(PUZZLES / "webpbn" / "webpbn-00001.xml"))
    ex = explain(p)
    grid = ["?" * p.width] * p.height
    for before, stp in list(replay(p, ex.steps))[:10]:
        h = next_hint(p, before)
        assert h.kind == "step"
        bw_check_line_step(p, before, h.step)
        grid = before
    assert grid


def test_hint_names_a_wrong_cell():
    p = load(str(PUZZLES / "webpbn" / "webpbn-00001.xml"))
    sol = check(p).solutions[0]
    known = ["?" * p.width] * p.height
    r, c = 3, 2
    row = list(known[r])
    row[c] = WHITE if sol[r][c] == BLACK else BLACK
    known[r] = "".join(row)
    h = next_hint(p, known)
    assert h.kind == "wrong" and h.wrong == [(r, c)] and "row 4, column 3" in h.text


def test_hint_solved_and_stuck_and_bad_state():
    p = Puzzle.from_grid(["#.", ".#"])
    assert next_hint(p, ["#.", ".#"]).kind == "solved"
    h = next_hint(p, ["??", "??"])
    assert h.kind == "stuck" and "several solutions" in h.text
    assert next_hint(p, ["#?", "??"]).kind == "step"
    with pytest.raises(ValueError):
        next_hint(p, ["??"])
    with pytest.raises(ValueError):
        next_hint(p, ["?x", "??"])


def test_hint_contradiction_on_ambiguous_puzzle():
    p = Puzzle.from_grid(["#.", ".#"])
    h = next_hint(p, ["##", "??"])
    assert h.kind == "contradiction"


def test_colour_hint_step_wrong_and_solved():
    p = load(str(PUZZLES / "satnono" / "colour-search-10x10.non"))
    sol = check(p).solutions[0]
    blank = ["?" * p.width] * p.height
    for known in (blank, [row[:5] + "?" * 5 for row in sol]):  # empty, and half filled in correctly
        h = next_hint(p, known)
        assert h.kind == "step" and h.step is not None and h.step.technique != "absent"
        # the hint is sound once the absent steps (read off the clues) are taken, which are checked too
        color_check_steps(p, _absent_steps(p, known) + [h.step], Replay(p, known))
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


def test_library_export():
    import satnono

    assert satnono.next_hint is next_hint


# --------------------------------------------------------------------------
# Drawing


def test_render_step_marks_line_and_new_cells():
    p = Puzzle.from_grid(["##.", "...", "#.."])
    ex = explain(p)
    before, st0 = next(iter(replay(p, ex.steps)))
    text = render_step(before, st0, ascii=True)
    assert ("<" in text) if st0.axis == "row" else ("^" in text)
    assert "@" in text or "o" in text


def test_svg_files_one_per_step():
    p = load(str(PUZZLES / "webpbn" / "webpbn-00001.xml"))
    ex = explain(p)
    files = svg_files(p, ex.steps)
    assert sorted(files) == [f"step-{k:04d}.svg" for k in range(1, len(ex.steps) + 1)]
    import xml.dom.minidom

    for data in list(files.values())[:3]:
        xml.dom.minidom.parseString(data)


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


@pytest.mark.parametrize("chars", [".#", "..abc"])
def test_probe_order_puts_cells_with_most_known_neighbours_first(chars):
    """``GridCells.probe_order`` (bit masks) against a plain count of each open cell's known
    neighbours, cell by cell, on propagated states with a few more cells set (or ruled out)."""
    import random

    from satnono.logic.probe import GridCells

    rng = random.Random(3)
    lines = LineSolver()
    for _ in range(40):
        g = ["".join(rng.choice(chars) for _ in range(rng.randint(1, 8))) for _ in range(rng.randint(1, 8))]
        g = [row.ljust(len(g[0]), ".")[:len(g[0])] for row in g]
        p = Puzzle.from_grid(g)
        state = GridState(p)
        for _ in range(rng.randint(0, 6)):
            r, c = rng.randrange(p.height), rng.randrange(p.width)
            state.exclude(r, c, rng.randrange(len(p.palette)))
        h, w = p.height, p.width
        open_cells = state.unknown_cells()

        def known(r: int, c: int) -> int:
            return sum(1 for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                       if 0 <= rr < h and 0 <= cc < w and state.cell(rr, cc) is not None)

        want = [r * w + c for r, c in sorted(open_cells, key=lambda rc: (-known(*rc), rc))]
        assert GridCells(state).probe_order() == want, g
