"""satnono.explain on rectangles with ``line`` rules (issue 39): an extra line is one more lane of
the puzzle (``puzzle.lanes`` past the rows and columns, "extra line N"), explained by line steps
as a row is, never by rule steps.  The truth is tests/test_line_lanes.py's, independent of
satnono: every grid enumerated against the lanes read off it, and line logic's fixpoint by a
brute-force line solver over the same lanes."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from _oracles import brute_line
from test_line_lanes import CASES, brute_fixpoint, every_solution, random_case
from satnono.cli import cli
from satnono.explain import Step, difficulty, explain, next_hint
from satnono.lanes import LINE
from satnono.model import Puzzle
from satnono.rules import rule_from_json


def _apply(p: Puzzle, st: Step, excluded: list[int]) -> list[int]:
    """The cells' excluded values (bit masks) after what a step claims."""
    index = {ch: v for v, ch in enumerate(p.chars)}
    full = (1 << len(p.chars)) - 1
    out = list(excluded)
    for r, c, ch in st.cells:
        cell = r * p.width + c
        assert not out[cell] >> index[ch] & 1, f"{st.text}: sets a value already ruled out"
        out[cell] = full & ~(1 << index[ch])
    for r, c, gone in st.excluded or ():
        for ch in gone:
            out[r * p.width + c] |= 1 << index[ch]
    return out


def _picture(p: Puzzle, excluded: list[int]) -> str:
    full = (1 << len(p.chars)) - 1
    return "".join(p.chars[(full & ~m).bit_length() - 1] if bin(full & ~m).count("1") == 1 else "?" for m in excluded)


def _check_line_step(p: Puzzle, st: Step) -> None:
    """A step on an extra line names the line as the lane naming does and its cells by row and
    column."""
    assert st.kind == "line" and st.axis in ("row", "column", LINE)
    if st.axis != LINE:
        assert st.name is None
        return
    j = st.index
    assert st.name == f"extra line {j + 1}" and st.lane == p.height + p.width + j
    assert st.text.startswith(f"extra line {j + 1} (clue ")
    named = {(int(r) - 1, int(c) - 1) for r, c in re.findall(r"\((\d+),(\d+)\)", st.text.rsplit(": ", 1)[1])}
    assert named == {(r, c) for r, c, _ in st.touched()}, st.text
    lane_cells = {divmod(cell, p.width) for cell in p.lanes[st.lane].cells}
    assert named <= lane_cells


@pytest.mark.parametrize("seed, h, w, chars", CASES[::2])
def test_line_steps_reach_the_brute_force_fixpoint_over_the_extra_lines(seed, h, w, chars):
    p, lines, lane_blocks = random_case(random.Random(seed), h, w, chars)
    sols = every_solution(lane_blocks, h, w, chars, lines)
    want = brute_fixpoint([list(lane.cells) for lane in p.lanes], [(c.lengths, c.colors) for c in p.lane_clues],
                          h * w, len(chars))
    ex = explain(p, max_depth=0, verdict_timeout=5)
    if want is None:
        assert ex.status == "none" and not sols
        return
    excluded = [0] * (h * w)
    for st in ex.steps:
        _check_line_step(p, st)
        assert all(s[r][c] == ch for s in sols for r, c, ch in st.cells), f"unsound: {st.text}"
        excluded = _apply(p, st, excluded)
    assert excluded == want and "".join(ex.grid) == _picture(p, want)
    complete = all(bin(m).count("1") == len(chars) - 1 for m in want)
    assert ex.solved == complete
    if complete:
        assert sols == [tuple(ex.grid)] and ex.difficulty["level"] == "line"


@pytest.mark.parametrize("seed, h, w, chars", CASES[1::2])
def test_probes_grade_and_hint_over_the_extra_lines(seed, h, w, chars):
    p, lines, lane_blocks = random_case(random.Random(seed), h, w, chars)
    sols = every_solution(lane_blocks, h, w, chars, lines)
    ex = explain(p, verdict_timeout=5)
    excluded = [0] * (h * w)
    index = {ch: v for v, ch in enumerate(p.chars)}
    for st in ex.steps:
        assert st.kind in ("line", "probe"), st.text
        assert all(s[r][c] == ch for s in sols for r, c, ch in st.cells), f"unsound: {st.text}"
        if st.kind == "probe":  # the assumption and its chain leave its lane without a placement
            r, c, ch = st.probe
            full = (1 << len(p.chars)) - 1
            trial = list(excluded)
            trial[r * w + c] = full & ~(1 << index[ch])
            for sub in st.chain:
                if sub.kind == "line":
                    _check_line_step(p, sub)
                trial = _apply(p, sub, trial)
            cells, clue = p.lanes[st.lane].cells, p.lane_clues[st.lane]
            masks = tuple(sum((trial[cell] >> v & 1) << i for i, cell in enumerate(cells)) for v in range(len(chars)))
            assert brute_line(clue.lengths, clue.colors, len(cells), masks) is None, st.text
        else:
            _check_line_step(p, st)
        excluded = _apply(p, st, excluded)
    level = ex.difficulty["level"]
    if not sols:
        assert level == "none"
    elif len(sols) > 1:
        assert level == "multiple" and not ex.solved
    else:
        assert ex.solved == (level != "search") and (not ex.solved or tuple(ex.grid) == sols[0])
        assert difficulty(p)["level"] == level
        if chars == ".#":
            h0 = next_hint(p, ["?" * w] * h)
            assert h0.kind == "step" and h0.step.text == ex.steps[0].text


def test_some_explanations_need_the_extra_lines():
    """The cases are not trivial: extra lines take steps, probes end on them, and some puzzles
    are settled only with them."""
    on_lines = probes = needed = 0
    for seed, h, w, chars in CASES:
        p, lines, lane_blocks = random_case(random.Random(seed), h, w, chars)
        ex = explain(p, verdict_timeout=5)
        on_lines += sum(st.axis == LINE for st in ex.steps if st.kind == "line")
        probes += sum(st.axis == LINE for st in ex.steps if st.kind == "probe")
        if ex.solved and len(every_solution([b for b in lane_blocks[:h + w]], h, w, chars, [])) > 1:
            needed += 1
    assert on_lines >= 20 and needed >= 5
    assert probes >= 1


DIAGONAL = {"rows": [[1], [1]], "columns": [[1], [1]],
            "rules": [{"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [2]}]}


def test_a_line_rule_is_explained_as_a_line():
    p = Puzzle.from_clues([[1], [1]], [[1], [1]]).replace(rules=(rule_from_json(DIAGONAL["rules"][0]),))
    ex = explain(p)
    assert ex.solved and ex.grid == ("#.", ".#") and ex.difficulty["text"] == "line logic only, 3 steps"
    first = ex.steps[0]
    assert first.text == ("extra line 1 (clue 2): the clue needs 2 black cells and only 2 cells are not white, "
                          "so all are black: cells (1,1) and (2,2) black")
    assert first.as_dict() == {"kind": "line", "line": "line", "index": 0, "name": "extra line 1", "clue": [2],
                               "cells": [[0, 0, "#"], [1, 1, "#"]], "technique": "fill", "text": first.text}
    assert [st.axis for st in ex.steps] == [LINE, "row", "row"] and ex.steps[1].as_dict().get("name") is None
    # without the rule: two solutions, nothing to explain
    assert explain(p.replace(rules=())).difficulty["level"] == "multiple"
    # a hint names the extra line too
    assert next_hint(p, ["??", "??"]).step.text == first.text
    # a line that cannot be kept: the explanation names it
    q = p.replace(rules=(rule_from_json({"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [1, 1]}),))
    bad = explain(q)
    assert bad.status == "none" and bad.difficulty["level"] == "none"
    assert bad.note == "no solution: extra line 1 (clue 1 1) has no placement that fits the known cells"


def test_the_command_line_explains_an_extra_line(tmp_path):
    f = tmp_path / "diagonal.json"
    f.write_text(json.dumps(DIAGONAL))
    r = CliRunner().invoke(cli, ["explain", "--grids", "--ascii", str(f)])
    assert r.exit_code == 0, r.output
    out = r.output.splitlines()
    assert out[2].startswith("1. extra line 1 (clue 2): ") and out[3:5] == ["@?", "?@"]  # no row or column marked
    d = json.loads(CliRunner().invoke(cli, ["explain", "--json", str(f)]).output)
    assert d["steps"][0]["line"] == "line" and d["steps"][0]["name"] == "extra line 1"
    r = CliRunner().invoke(cli, ["explain", "--svg", str(tmp_path / "svg"), str(f)])
    assert r.exit_code == 0, r.output
    svg = (tmp_path / "svg" / "step-0001.svg").read_text()
    assert svg.count('fill="#f2c94c"') == 2  # the extra line's two cells shaded
