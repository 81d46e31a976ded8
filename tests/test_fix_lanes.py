"""``fix`` on puzzles of another geometry (triddlers), every proposal checked by the test's own
solvers (:mod:`tests._triddler_oracle`: enumeration, and line logic as a plain dynamic programme),
never by satnono's."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from _triddler_oracle import brute_force, check_fix, line_solvable, random_puzzle
from satnono.cli import cli
from satnono.fixer import fix
from satnono.formats import save
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.results import Status

SHAPES = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.triangle(4), Triangle.parallelogram(2, 3),
          Triangle.hexagon(2)]


def _needs_fix(rng: random.Random, geometry: Triangle, colours: int = 1) -> LanePuzzle:
    """A random puzzle with several solutions, or unique but not line-solvable (the oracle's
    judgement; most random pictures are line-solvable)."""
    for _ in range(500):
        p = random_puzzle(rng, geometry, colours)
        if len(brute_force(p, 2)) > 1 or not line_solvable(p):
            return p
    raise AssertionError("no puzzle to fix was drawn")


def _check(p: LanePuzzle) -> None:
    res = fix(p, timeout=None, max_edits=3)
    if len(brute_force(p, 2)) == 1 and line_solvable(p):
        assert res.status is Status.UNIQUE and res.line_solvable and not res.edits
        return
    check_fix(p, res, brute_force, line_solvable)
    for prop in (res.givens_unique, res.givens_line):
        for g in prop.givens:  # named by row and place in the row
            assert p.geometry.row_cells(g.row)[g.col] == g.cell


@pytest.mark.parametrize("seed", range(24))
def test_black_and_white_triddlers_are_fixed_as_the_oracle_agrees(seed: int) -> None:
    rng = random.Random(seed)
    _check(_needs_fix(rng, SHAPES[seed % len(SHAPES)]))


@pytest.mark.parametrize("seed", range(6))
def test_line_solvable_triddlers_need_nothing(seed: int) -> None:
    rng = random.Random(100 + seed)
    _check(random_puzzle(rng, SHAPES[seed % len(SHAPES)]))


@pytest.mark.parametrize("seed", range(8))
def test_two_colour_triddlers_are_fixed_as_the_oracle_agrees(seed: int) -> None:
    rng = random.Random(500 + seed)
    _check(_needs_fix(rng, SHAPES[seed % 2], colours=2))


def test_a_triddler_with_no_solution_gets_no_proposal() -> None:
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    clues = list(p.clues)
    clues[0] = clues[1]._replace(lengths=(3,), colors=(1,))
    res = fix(p.replace(clues=tuple(clues)))
    assert res.status is Status.NONE and not res.edits and res.givens_unique is None


def test_the_command_line_fixes_a_triddler(tmp_path) -> None:
    rng = random.Random(11)
    while True:
        p = random_puzzle(rng, Triangle.hexagon(2))
        if len(brute_force(p, 3)) > 1:
            break
    path = str(tmp_path / "amb.xml")
    save(p.replace(name="amb"), path)
    r = CliRunner().invoke(cli, ["fix", path])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"{path}: several solutions")
    assert "givens for a unique solution (" in r.output and ", cell " in r.output
    assert "edits tried: " in r.output and " of 24 cells" in r.output
    r = CliRunner().invoke(cli, ["fix", "--json", path])
    d = json.loads(r.output)
    assert d["cells"] == 24 and d["geometry"]["kind"] == "triangle" and isinstance(d["goal"], str)
    givens = {g["cell"]: p.chars.index(g["char"]) for g in d["givens_unique"]["givens"]}
    assert [s for s in brute_force(p) if all(p.chars.index(s[c]) == v for c, v in givens.items())] == [d["goal"]]


def test_the_command_line_s_exit_codes_on_triddlers(tmp_path) -> None:
    """As documented for fix: 4 when the clues have no solution (told by enumeration), 6 when the
    goal picture breaks them, 5 when time runs out first; 0 when there is nothing to fix."""
    rng = random.Random(12)
    while True:
        p = random_puzzle(rng, Triangle.hexagon(2))
        if len(brute_force(p, 3)) > 1:
            break
    goal = brute_force(p, 1)[0]
    clues = list(p.clues)
    clues[0] = clues[0]._replace(lengths=(5,), colors=(1,), blots=0)
    none = p.replace(clues=tuple(clues))
    assert not brute_force(none, 1)
    broken = goal[:3] + (".#"[goal[3] == "."]) + goal[4:]
    assert broken not in brute_force(p)
    files = {"none": (none, 4), "broken": (p.replace(goal=broken), 6), "slow": (p, 5)}
    for name, (puzzle, code) in files.items():
        path = str(tmp_path / f"{name}.json")
        save(puzzle, path)
        r = CliRunner().invoke(cli, ["fix", *(["--timeout", "1e-9"] if name == "slow" else []), path])
        assert r.exit_code == code, (name, r.output)
        if name == "broken":
            assert r.output.strip() == f"satnono: {path}: the goal picture does not satisfy the clues"
    r = CliRunner().invoke(cli, ["fix", "puzzles/satnono/snowflake-triddler.xml"])
    assert r.exit_code == 0 and "already unique and line-solvable: nothing to fix" in r.output


def _connected(grid: tuple[str, ...]) -> bool:
    """The test's own reading of the ``connected`` rule: the black cells are one 4-connected region."""
    black = {(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "#"}
    if not black:
        return True
    seen, todo = set(), [min(black)]
    while todo:
        r, c = todo.pop()
        if (r, c) in seen:
            continue
        seen.add((r, c))
        todo += [n for n in ((r + 1, c), (r - 1, c), (r, c + 1), (r, c - 1)) if n in black]
    return seen == black


def test_a_rectangle_s_edits_keep_its_rules() -> None:
    """An edit is verified with the puzzle's rules, and the edited puzzle keeps them (it dropped
    them before: an edit that breaks ``connected`` could be proposed)."""
    from _oracles import brute_force_solutions

    from satnono.model import Puzzle
    from satnono.rules import rule_from_spec

    rng = random.Random(3)
    checked = 0
    for _ in range(400):
        grid = tuple("".join(rng.choice("#.") for _ in range(5)) for _ in range(5))
        if not _connected(grid):
            continue
        p = Puzzle.from_grid(grid, rules=(rule_from_spec("connected"),))
        if len([s for s in brute_force_solutions(p) if _connected(s)]) < 2:
            continue
        res = fix(p, timeout=None, max_edits=3)
        for e in res.edits:
            assert [r.name for r in e.puzzle.rules] == ["connected"]
            assert _connected(e.puzzle.goal)
            assert [s for s in brute_force_solutions(e.puzzle) if _connected(s)] == [e.puzzle.goal]
            checked += 1
        if checked >= 6:
            break
    assert checked >= 6


def test_edits_of_a_unique_puzzle_are_settled_by_line_logic_alone(monkeypatch) -> None:
    """A unique puzzle wants only line-solvable edits: an edit line logic leaves open is never
    searched (no settle past propagation), and the edits proposed are still the oracle's."""
    from satnono import solve

    rng = random.Random(77)
    while True:  # unique, not line-solvable (the oracle's judgement)
        p = random_puzzle(rng, Triangle.hexagon(2))
        if len(brute_force(p, 2)) == 1 and not line_solvable(p):
            break
    searched = []
    settle = solve.Checker.settle

    def spy(self, puzzle, start=None, *args, **kw):  # type: ignore[no-untyped-def]
        out = settle(self, puzzle, start, *args, **kw)
        if puzzle.goal != p.goal and out.result.stats.unknown_after_propagation:
            searched.append(puzzle)  # an edited puzzle that went past line logic
        return out

    monkeypatch.setattr(solve.Checker, "settle", spy)
    res = fix(p, timeout=None, max_edits=3)
    check_fix(p, res, brute_force, line_solvable)
    assert res.edits_tried > len(res.edits) and not searched  # (some edit tried was not line-solvable)
