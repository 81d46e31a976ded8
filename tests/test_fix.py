"""fix: givens and single-cell edits that make a picture unique / line-solvable,
checked with brute force on small pictures and with the core Checker on 20x20."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from click.testing import CliRunner

import satnono
from satnono.cli import cli
from satnono.fixer import FixError, fix
from satnono.generation import generate
from satnono.model import Puzzle, clues_of_grid
from satnono.solve import Checker, Status

from test_generate import count_solutions, line_solvable

from tests._oracles import grid_solutions, palette

SWITCH_4 = ["....", ".#..", "..#.", "...."]
SWITCH_5 = [".....", ".##..", ".#.#.", "..##.", "....."]
TATHAM = Puzzle.from_clues(rows=[[1, 1], [2], [1], [1]], columns=[[2], [1], [2], [1]])  # unique, not line-solvable


def as_dict(prop):
    return {(g.row, g.col): g.black for g in prop.givens}


def check_small(res, goal):
    """Every proposal, re-checked by brute force; given sets minimal under removal."""
    rows, cols = clues_of_grid(tuple(goal))
    gu = as_dict(res.givens_unique)
    assert all((goal[r][c] == "#") == b for (r, c), b in gu.items())
    assert count_solutions(rows, cols, gu) == 1
    for cell in gu:
        rest = {k: v for k, v in gu.items() if k != cell}
        assert count_solutions(rows, cols, rest) > 1, "a unique given is redundant"
    gl = as_dict(res.givens_line)
    assert line_solvable(rows, cols, gl)
    for cell in gl:
        rest = {k: v for k, v in gl.items() if k != cell}
        assert not line_solvable(rows, cols, rest), "a line given is redundant"
    for e in res.edits:
        edited = [list(r) for r in goal]
        assert (edited[e.row][e.col] == "#") != e.black
        edited[e.row][e.col] = "#" if e.black else "."
        edited = ["".join(r) for r in edited]
        assert e.puzzle.goal == tuple(edited)
        er, ec = clues_of_grid(tuple(edited))
        assert count_solutions(er, ec) == 1
        assert line_solvable(er, ec) == e.line_solvable


@pytest.mark.parametrize("goal", [SWITCH_4, SWITCH_5, ["#.", ".#"]])
def test_switch_pictures(goal):
    p = Puzzle.from_grid(goal, name="switch")
    res = fix(p, timeout=20)
    assert res.status == Status.MULTIPLE and len(res.diff) >= 4
    assert res.givens_unique is not None and res.givens_line is not None
    assert 1 <= len(res.givens_unique.givens) <= len(res.givens_line.givens)
    assert res.edits, "a single flip breaks an isolated switch"
    check_small(res, goal)


def test_unique_but_not_line_solvable():
    res = fix(TATHAM)
    assert res.status == Status.UNIQUE and not res.line_solvable
    assert res.goal_from == "solver"
    assert res.givens_unique.givens == ()
    assert len(res.givens_line.givens) >= 1
    assert all(e.line_solvable for e in res.edits)
    check_small(res, res.goal)


def test_nothing_to_fix_and_no_solution():
    ok = fix(Puzzle.from_grid(["##.", ".##", "#.."]))
    assert ok.status == Status.UNIQUE and ok.line_solvable and not ok.needs_fix
    assert ok.givens_unique is None and not ok.edits and "nothing to fix" in ok.reason
    none = fix(Puzzle.from_clues(rows=[[2], [0]], columns=[[1], [0]]))
    assert none.status == Status.NONE and none.reason


def test_goal_must_satisfy_clues():
    p = Puzzle(rows=((1,), (1,)), columns=((1,), (1,)), goal=("##", ".."))
    with pytest.raises(FixError):
        fix(p)


def test_no_goal_uses_first_solution():
    p = Puzzle.from_clues(rows=[[1], [1]], columns=[[1], [1]])
    res = fix(p)
    assert res.goal_from == "solver" and res.status == Status.MULTIPLE
    check_small(res, res.goal)


def _ambiguous_20x20(n):
    checker = Checker()
    out = []
    for p in generate(20, 20, count=60, seed=20, require="any", density=(0.45, 0.55)):
        if checker.check(p).status == Status.MULTIPLE:
            out.append(p)
            if len(out) == n:
                break
    return out


def test_generated_ambiguous_20x20_become_unique():
    checker = Checker()
    pictures = _ambiguous_20x20(4)
    assert len(pictures) == 4
    with_edits = 0
    for p in pictures:
        res = fix(p, timeout=15, max_edits=2)
        assert res.status == Status.MULTIPLE
        gu = as_dict(res.givens_unique)
        r = checker.check(p.with_givens(gu))
        assert r.status == Status.UNIQUE and r.solutions[0] == p.goal
        for cell in gu:  # minimal under removal
            assert checker.check(p.with_givens({k: v for k, v in gu.items() if k != cell})).status == Status.MULTIPLE
        gl = as_dict(res.givens_line)
        r = checker.check(p.with_givens(gl))
        assert r.status == Status.UNIQUE and r.line_solvable
        assert len(gl) < 20 * 20 // 4
        for e in res.edits:
            r = checker.check(e.puzzle)
            assert r.status == Status.UNIQUE and r.line_solvable == e.line_solvable
            assert sum(a != b for ra, rb in zip(e.puzzle.goal, p.goal) for a, b in zip(ra, rb)) == 1
        with_edits += bool(res.edits)
    assert with_edits >= 1


def test_edits_near_ambiguity_first():
    p = Puzzle.from_grid(["......", ".#....", "..#...", "......", "......", "......"])
    res = fix(p, max_edits=3)
    first = res.edits[0]
    assert (first.row, first.col) in {(1, 1), (1, 2), (2, 1), (2, 2)}


def test_timeout_is_respected():
    [p] = _ambiguous_20x20(1)
    res = fix(p, timeout=0.05)
    assert res.seconds < 3


def test_package_api():
    res = satnono.fix(Puzzle.from_grid(SWITCH_4))
    assert res.givens_unique is not None


def _within(a, b):
    """Every key of ``a`` is in ``b`` with the same value (dicts and lists compared entry by entry)."""
    if isinstance(a, dict):
        return isinstance(b, dict) and all(k in b and _within(v, b[k]) for k, v in a.items())
    if isinstance(a, list):
        return isinstance(b, list) and len(a) == len(b) and all(_within(x, y) for x, y in zip(a, b))
    return a == b


def _without_seconds(d):
    return {k: v for k, v in d.items() if k != "seconds"}


@pytest.mark.parametrize("grid,colours", [(SWITCH_4, 1), (["a.", ".a", "b."], 2), (["#..#", "##..", "..#.", "..#."], 1)])
def test_as_dict_holds_what_the_cli_and_the_editor_emit(tmp_path, grid, colours):
    """FixResult.as_dict is one shape for both consumers: every key the CLI's --json and
    the editor's proposal emit today, with the same values (the character as value and char)."""
    from satnono.formats import dumps, load
    from satnono.model import default_palette
    from satnono.web import session

    puzzle = Puzzle.from_grid(grid, palette=default_palette(colours))
    f = tmp_path / "p.json"
    f.write_text(dumps(puzzle, "json"))
    r = run("fix", str(f), "--json")
    cli_out = json.loads(r.stdout)
    res = fix(load(str(f)))
    ours = res.as_dict(str(f))
    assert _within(_without_seconds(cli_out), ours)
    assert ours["seconds"] == round(res.seconds, 6) and ours["file"] == str(f)
    doc = session.doc_of(puzzle)
    web_out = session.propose(doc)
    assert _within(_without_seconds(web_out), fix(session.puzzle_of(doc), timeout=session.FIX_TIMEOUT).as_dict())
    assert res.as_dict()["file"] is None
    for prop in (ours["givens_unique"], ours["givens_line"]):
        assert prop is not None
        assert all(g["value"] == g["char"] == grid[g["row"]][g["col"]] for g in prop["givens"])
    assert all(e["value"] == e["char"] != grid[e["row"]][e["col"]] for e in ours["edits"])
    assert ours["edits"] or res.status == Status.UNIQUE


# ---------------------------------------------------------------------------
# command line


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_cli_text_and_json(tmp_path):
    f = tmp_path / "switch.txt"
    f.write_text("\n".join(SWITCH_4) + "\n")
    r = run("fix", str(f), "--ascii")
    assert r.exit_code == 0, r.output
    assert "several solutions" in r.stdout
    assert "givens for a unique solution (1 cell, verified" in r.stdout
    assert "row 2 col 2" in r.stdout or "row 3 col 3" in r.stdout  # 1-based
    assert "single-cell edits" in r.stdout
    j = run("fix", str(f), "--json")
    assert j.exit_code == 0
    d = json.loads(j.stdout)
    assert d["status"] == "multiple"
    cells = {(g["row"], g["col"]) for g in d["givens_unique"]["givens"]}
    assert cells <= {(1, 1), (1, 2), (2, 1), (2, 2)}  # 0-based
    assert d["edits"] and all({"row", "col", "black", "line_solvable"} <= e.keys() for e in d["edits"])


def test_cli_exit_codes(tmp_path):
    ok = tmp_path / "ok.txt"
    ok.write_text("##.\n.##\n#..\n")
    r = run("fix", str(ok))
    assert r.exit_code == 0 and "nothing to fix" in r.stdout
    none = tmp_path / "none.non"
    none.write_text("width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n")
    assert run("fix", str(none)).exit_code == 4
    bad = tmp_path / "bad.non"
    bad.write_text("this is not a puzzle\n")
    assert run("fix", str(bad)).exit_code == 6
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"rows": [[1], [1]], "columns": [[1], [1]], "goal": ["##", ".."]}))
    r = run("fix", str(wrong))
    assert r.exit_code == 6 and "goal" in r.stderr
    assert run("fix", str(ok), "--timeout", "0").exit_code == 2
    assert run("fix").exit_code == 2


def test_fix_words_a_unique_puzzle_that_needs_search_as_such():
    """A unique puzzle that is not line-solvable wants a line-solvable edit: when there is
    none the text says so, not 'no single-cell edit makes it unique' (issue 20, item 6)."""
    from click.testing import CliRunner

    from satnono.cli import cli

    src = str(Path(__file__).resolve().parents[1] / "puzzles" / "webpbn" / "webpbn-00023.xml")
    out = CliRunner().invoke(cli, ["fix", src]).output
    assert "no single-cell edit makes it line-solvable" in out and "makes it unique" not in out


def test_classify_help_no_longer_calls_colour_puzzles_errors():
    from click.testing import CliRunner

    from satnono.cli import cli

    assert "colour puzzle" not in CliRunner().invoke(cli, ["classify", "--help"]).output


# --- every kind of line: each proposal against brute force -----------------------------------------


def _solutions_with(p: Puzzle, givens) -> list:
    sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors)
    return [s for s in sols if all(s[g.row][g.col] == g.char for g in givens)]


@pytest.mark.parametrize("kind", ["one-colour", "color"])
def test_proposals_on_random_ambiguous_pictures(kind):
    """Givens and edits on small ambiguous pictures, checked by enumerating every solution: one
    block colour (black and white inside, in the palette's own character ``a``) and two or three."""
    rng = random.Random(21 if kind == "color" else 23)
    fixed = 0
    for _ in range(60):
        k = 1 if kind == "one-colour" else rng.choice((2, 3))
        h, w = rng.randint(2, 4), rng.randint(2, 5)
        grid = tuple("".join(rng.choice("." * k + "abc"[:k]) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        res = fix(p, timeout=60)
        if not res.needs_fix:
            continue
        fixed += 1
        assert res.givens_unique is not None and res.givens_line is not None
        for prop in (res.givens_unique, res.givens_line):
            assert _solutions_with(p, prop.givens) == [grid]  # unique, and the picture itself
            for g in prop.givens:
                assert grid[g.row][g.col] == g.char
        assert res.givens_line.line_solvable
        for e in res.edits:
            assert e.char != grid[e.row][e.col] and e.char in p.chars
            edited = list(grid)
            edited[e.row] = edited[e.row][:e.col] + e.char + edited[e.row][e.col + 1:]
            q = e.puzzle
            assert q.goal == tuple(edited) and q.palette == p.palette
            assert grid_solutions(q.rows, q.row_colors, q.columns, q.column_colors) == [tuple(edited)]
    assert fixed > 10


@pytest.mark.parametrize("grid,k", [(("#.", ".#"), 0), (("ab", "ba"), 2)])
def test_unique_line_solvable_needs_nothing(grid, k):
    p = Puzzle.from_grid(grid, palette=palette(k)) if k else Puzzle.from_grid(("##", "#."))
    res = fix(p)
    assert res.status == Status.UNIQUE and res.line_solvable and not res.needs_fix
