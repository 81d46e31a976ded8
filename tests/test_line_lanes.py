"""A rectangle's ``line`` rules are lanes of the puzzle (issue 39): ``puzzle.lanes`` ends with one
lane of family ``"line"`` per line rule, propagated by the same line solver as the rows and
columns (its cache), encoded by the same ladders, cut into segments by components and named
"extra line N" in messages.

The truth is independent of satnono: every grid of small rectangles (up to 12 cells in black
and white, 9 in two colours) is enumerated and checked against the rows, the columns and the
extra lines read off the grid here; line logic's fixpoint is the fixpoint of a brute-force line
solver (every placement of a clue tried) over the same lanes, written here too.
"""

from __future__ import annotations

import itertools
import json
import random

import pytest

from _oracles import PAL2, brute_line
from satnono.counting import count
from satnono.diagnose import diagnose
from satnono.lanes import LINE, Lane
from satnono.lines import LineSolver
from satnono.logic.components import split
from satnono.logic.propagate import propagate
from satnono.logic.state import Contradiction, initial_state
from satnono.model import BW_PALETTE, Puzzle
from satnono.render import render_summary
from satnono.rules import rule_from_json
from satnono.solve import check

# ---- the oracles ------------------------------------------------------------------------------


def blocks(cells: str) -> tuple[tuple[int, str], ...]:
    """The blocks of a line read off its characters: ``(length, character)``, background '.'."""
    return tuple((len(list(run)), ch) for ch, run in itertools.groupby(cells) if ch != ".")


def lane_strings(grid: tuple[str, ...], lines: list[list[tuple[int, int]]]) -> list[str]:
    """The rows, the columns and the extra lines of ``grid``, each as its characters in order."""
    h, w = len(grid), len(grid[0])
    return ([grid[r] for r in range(h)] + ["".join(grid[r][c] for r in range(h)) for c in range(w)]
            + ["".join(grid[r][c] for r, c in cells) for cells in lines])


def every_solution(grid_clues: list, h: int, w: int, chars: str, lines: list) -> list[tuple[str, ...]]:
    """Every grid over ``chars`` whose lanes (rows, columns, extra lines) have the blocks
    ``grid_clues`` (one tuple of ``(length, character)`` blocks a lane), by enumeration."""
    out = []
    for cells in itertools.product(chars, repeat=h * w):
        grid = tuple("".join(cells[r * w:(r + 1) * w]) for r in range(h))
        if [blocks(s) for s in lane_strings(grid, lines)] == grid_clues:
            out.append(grid)
    return out


def brute_fixpoint(lanes: list[list[int]], clues: list[tuple[tuple[int, ...], tuple[int, ...]]], ncells: int,
                   nvals: int) -> list[int] | None:
    """Line logic by the brute-force line solver over ``lanes`` (cell numbers) to its fixpoint:
    per cell the mask of the values ruled out, or None when a lane has no placement left."""
    excluded = [0] * ncells
    changed = True
    while changed:
        changed = False
        for cells, (lengths, colors) in zip(lanes, clues):
            masks = tuple(sum(((excluded[cell] >> v) & 1) << i for i, cell in enumerate(cells)) for v in range(nvals))
            got = brute_line(lengths, colors, len(cells), masks)
            if got is None:
                return None
            for v, m in enumerate(got[0]):
                for i, cell in enumerate(cells):
                    if (m >> i) & 1 and not (excluded[cell] >> v) & 1:
                        excluded[cell] |= 1 << v
                        changed = True
    return excluded


# ---- random puzzles with extra lines ------------------------------------------------------------


def random_case(rng: random.Random, h: int, w: int, chars: str) -> tuple[Puzzle, list, list]:
    """A random picture's rows and columns and one or two random extra lines (random distinct
    cells in a random order), their clues mostly the picture's, sometimes another picture's (so
    that some puzzles have no solution).  Returns the puzzle, the extra lines' cells, and every
    lane's blocks as :func:`blocks` reads them."""
    grid = tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))
    other = tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))
    lines = []
    for _ in range(rng.choice((1, 1, 2))):
        n = rng.randint(2, min(5, h * w))
        lines.append(rng.sample([(r, c) for r in range(h) for c in range(w)], n))
    palette = BW_PALETTE if chars == ".#" else PAL2
    rules = []
    line_blocks = []
    for cells in lines:
        source = other if rng.random() < 0.25 else grid
        bl = blocks("".join(source[r][c] for r, c in cells))
        line_blocks.append(bl)
        clue = [n for n, _ in bl] if chars == ".#" else [[n, ch] for n, ch in bl]
        rules.append(rule_from_json({"rule": "line", "cells": [list(c) for c in cells], "clue": clue}))
    p = Puzzle.from_grid(grid, palette=palette).replace(goal=None, rules=tuple(rules))
    lane_blocks = [blocks(s) for s in lane_strings(grid, [])] + line_blocks
    return p, lines, lane_blocks


CASES = [(seed, 3, 4, ".#") for seed in range(60)] + [(seed, 4, 3, ".#") for seed in range(60, 90)] + \
        [(seed, 3, 3, ".ab") for seed in range(90, 150)]


@pytest.mark.parametrize("seed, h, w, chars", CASES)
def test_verdicts_counts_and_line_logic_agree_with_enumeration(seed, h, w, chars):
    rng = random.Random(seed)
    p, lines, lane_blocks = random_case(rng, h, w, chars)
    sols = every_solution(lane_blocks, h, w, chars, lines)
    # the lanes: rows, columns, then the extra lines in rule order, cells numbered r * w + c
    assert [lane.family for lane in p.lanes] == ["row"] * h + ["column"] * w + [LINE] * len(lines)
    assert p.lanes[h + w:] == tuple(Lane(LINE, j, tuple(r * w + c for r, c in cells)) for j, cells in enumerate(lines))
    assert p.line_rules == tuple(range(len(lines))) and p.cell_rules == ()
    # line logic: satnono's fixpoint is the brute-force one over the same lanes
    lanes = [list(lane.cells) for lane in p.lanes]
    clues = [(clue.lengths, clue.colors) for clue in p.lane_clues]
    want = brute_fixpoint(lanes, clues, h * w, len(chars))
    state = initial_state(p)
    bad = propagate(state, LineSolver())
    if want is None:
        assert bad is not None and not sols
    else:
        assert bad is None
        got = [sum(1 << v for v in range(len(chars)) if v not in state.possible(r, c))
               for r in range(h) for c in range(w)]
        assert got == want
    # the verdict, the solutions, the line-solvable flag, the count
    res = check(p)
    assert res.status == ("none" if not sols else "unique" if len(sols) == 1 else "multiple")
    assert set(res.solutions) <= set(sols) and len(res.solutions) == min(len(sols), 2)
    solved = want is not None and all(bin(m).count("1") == len(chars) - 1 for m in want)
    assert res.line_solvable == solved
    counted = count(p)
    assert counted.exact and counted.count == len(sols)
    assert count(p, decompose=False).count == len(sols)


def test_components_couple_a_line_by_its_segments():
    """Two 2x2 switches (rows and columns of one black cell each; every other cell given white)
    are two components and 4 solutions; an extra line through one cell of each with clue 1
    couples them (one component, 2 solutions), and one whose given white cell cuts it into two
    segments, a block in each, does not (two components, 4 solutions)."""
    picture = ["#...", ".#..", "..#.", "...#"]
    outside = {(r, c): 0 for r in range(4) for c in range(4) if (r < 2) != (c < 2)}
    base = Puzzle.from_grid(picture).replace(goal=None).with_givens(outside)
    for rules, components, solutions in (
            ((), 2, 4),
            (({"rule": "line", "cells": [[0, 0], [2, 2]], "clue": [1]},), 1, 2),
            (({"rule": "line", "cells": [[0, 0], [0, 1], [0, 2], [2, 2], [2, 3]], "clue": [1, 1]},), 2, 4)):
        p = base.replace(rules=tuple(map(rule_from_json, rules)))
        state = initial_state(p)
        assert propagate(state, LineSolver()) is None and state.unknown_count() == 8
        assert len(split(state, LineSolver())) == components, rules
        lines = [[tuple(c) for c in rule["cells"]] for rule in rules]
        want = [g for g in every_solution([blocks(s) for s in lane_strings(tuple(picture), [])]
                                          + [tuple((n, "#") for n in rule["clue"]) for rule in rules],
                                          4, 4, ".#", lines)
                if all(g[r][c] == "." for r, c in outside)]
        assert count(p).count == len(want) == solutions, rules


def test_line_lanes_go_through_the_line_solvers_cache():
    """The rows and columns of a black-and-white grid run in the compiled fixpoint (their calls
    counted, no cache); the extra lanes through :meth:`LineSolver.solve`: the same puzzle
    propagated again by the same solver finds every extra lane's results in its cache."""
    grid = ["#.#.#", ".#.#.", "#.#.#", ".#.#.", "#.#.#"]
    diagonal = [[i, i] for i in range(5)]
    anti = [[i, 4 - i] for i in range(5)]
    p = Puzzle.from_grid(grid).replace(goal=None, rules=(
        rule_from_json({"rule": "line", "cells": diagonal, "clue": [5]}),
        rule_from_json({"rule": "line", "cells": anti, "clue": [5]})))
    solver = LineSolver()
    assert propagate(initial_state(p), solver) is None
    hits = solver.hits
    state = initial_state(p)
    assert propagate(state, solver) is None and state.is_complete() and p.is_solution(state.grid())
    # the second time, each extra lane's solve() repeats one of the first run's: a hit (the
    # compiled rows' and columns' calls never are)
    assert solver.hits - hits >= 2
    # a solver that records its calls: the extra lanes are solved through solve(), with their clue
    seen: list[tuple] = []

    class Recording(LineSolver):
        __slots__ = ()

        def solve(self, clue, n, excluded):
            seen.append((clue.lengths, n))
            return super().solve(clue, n, excluded)

    assert propagate(initial_state(p), Recording()) is None
    assert ((5,), 5) in seen and seen.count(((5,), 5)) >= 2


def test_diagnose_names_the_extra_line_of_a_conflict():
    """A 3x3 whose rows and columns are the identity's and whose diagonal asks for 1 block:
    line logic meets the contradiction on the extra line, named as a lane; diagnose's minimal
    conflict holds the extra line (the rows and columns alone have solutions), and the summary
    names it "extra line 1" with its clue."""
    p = Puzzle.from_grid(["#..", ".#.", "..#"]).replace(goal=None, rules=(
        rule_from_json({"rule": "count", "op": ">=", "n": 0}),
        rule_from_json({"rule": "line", "cells": [[0, 0], [1, 1], [2, 2]], "clue": [1, 1]})))
    assert p.lanes[-1] == Lane(LINE, 0, (0, 4, 8)) and p.line_rules == (1,)
    assert p.lanes[-1].name == "extra line 1"
    d = diagnose(p)
    assert d.status == "none"
    assert ("line", 0) in d.conflict and d.conflict_rules == []
    # minimal: without any one of its lanes the others have a solution (enumeration)
    lines = [[(0, 0), (1, 1), (2, 2)]]
    names = [(lane.family, lane.index) for lane in p.lanes]
    for drop in d.conflict:
        keep = [k for k, key in enumerate(names) if key in d.conflict and key != drop]
        found = False
        for cells in itertools.product(".#", repeat=9):
            grid = tuple("".join(cells[r * 3:(r + 1) * 3]) for r in range(3))
            strings = lane_strings(grid, lines)
            if all(blocks(strings[k]) == tuple((n, "#") for n in p.lane_clues[k].lengths) for k in keep):
                found = True
                break
        assert found, drop
    text = render_summary(d)
    assert "extra line 1 [1 1]" in text
    data = d.as_dict()
    assert {"axis": "line", "index": 0, "clue": [1, 1]} in data["conflict"]
    json.dumps(data)


def test_a_contradiction_on_an_extra_line_is_the_lanes():
    """Line logic's contradiction on an extra line is a lane's: ``("line", j)``, described by the
    lane's name and its first cells (the rule's index among other rules does not matter)."""
    p = Puzzle.from_clues([[2], [0]], [[1], [1]], rules=(
        rule_from_json({"rule": "count", "op": ">=", "n": 0}),
        rule_from_json({"rule": "line", "cells": [[0, 0], [0, 1]], "clue": [2]}),
        rule_from_json({"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [2]})))
    bad = propagate(initial_state(p), LineSolver())
    assert isinstance(bad, Contradiction) and (bad.axis, bad.index, bad.fits) == ("line", 1, True)
    assert bad.describe(p) == ("extra line 2 through (1,1), (2,2): clue 2 contradicts the cells forced by the "
                               "crossing lines")
    res = check(p)
    assert res.status == "none" and res.reason == bad.describe(p)


def test_the_summary_lists_open_extra_lines():
    """An extra line line logic leaves with several placements is listed after the rows and
    columns, by its name (it is in the JSON's open lines as family "line")."""
    p = Puzzle.from_clues([[1], [1], [1]], [[1], [1], [1]], rules=(
        rule_from_json({"rule": "line", "cells": [[0, 0], [0, 1], [1, 1], [2, 2]], "clue": [1]}),))
    d = diagnose(p)
    assert "1 extra line: extra line 1 has 4 placements" in render_summary(d)
    assert {"axis": "line", "index": 0, "clue": [1], "placements": 4, "unknown": 4} in d.as_dict()["open_lines"]
    assert d.status == "multiple" and len(every_solution(
        [((1, "#"),)] * 6 + [((1, "#"),)], 3, 3, ".#", [[(0, 0), (0, 1), (1, 1), (2, 2)]])) > 1


class Ring:
    """A rule written outside satnono that is an extra lane (the protocol's ``lane()``): the eight
    cells around the centre of a 3x3, read clockwise from the top left, with its own clue."""

    name = "ring"
    cells = ((0, 0), (0, 1), (0, 2), (1, 2), (2, 2), (2, 1), (2, 0), (1, 0))

    def __init__(self, lengths: tuple[int, ...]) -> None:
        self.lengths = lengths

    def lane(self):
        from satnono.clues import LineClue

        return self.cells, LineClue(self.lengths, (1,) * len(self.lengths))

    def clauses(self, lit, new_var, state=None):
        raise AssertionError("a lane is encoded as a lane, not by its rule's clauses")

    def accepts(self, grid):
        return tuple(n for n, _ in blocks("".join(grid[r][c] for r, c in self.cells))) == self.lengths


@pytest.mark.parametrize("lengths, given", [((1, 1), None), ((1, 1), (0, 0)), ((1, 1, 1), None), ((2, 1), None),
                                            ((3,), None), ((), None)])
def test_a_rule_written_outside_satnono_can_be_a_lane(lengths, given):
    """Any rule with ``lane()`` is a lane of the puzzle: settled and counted with the rows and
    columns (never through its clauses), against enumeration (the six 3x3 permutation matrices,
    those whose ring has the rule's blocks, and a given black cell)."""
    p = Puzzle.from_clues([[1]] * 3, [[1]] * 3, rules=(Ring(lengths),))
    if given is not None:
        p = p.with_givens({given: 1})
    assert p.lanes[-1] == Lane(LINE, 0, (0, 1, 2, 5, 8, 7, 6, 3)) and p.cell_rules == ()
    sols = [g for g in every_solution([((1, "#"),)] * 6, 3, 3, ".#", [])
            if p.rules[0].accepts(g) and (given is None or g[given[0]][given[1]] == "#")]
    res = check(p)
    assert res.status == ("none" if not sols else "unique" if len(sols) == 1 else "multiple")
    assert count(p).count == len(sols)

