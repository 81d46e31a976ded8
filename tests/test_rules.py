"""Rules through the whole pipeline, against brute force: over small puzzles (black and
white up to 4x4, two colours at 3x3) with each built-in rule and random combinations,
the verdict and the exact count equal the enumeration of grids that satisfy the clues
and the rules, and every reported solution keeps them.  A rule written here, outside
the package, works the same way."""

from __future__ import annotations

import itertools
import random
import dataclasses
from dataclasses import dataclass

import pytest

from satnono.counting import count
from satnono.model import Color, Puzzle, clues_of_grid, color_clues_of_grid
from satnono.rules import rule_from_json
from satnono.solve import check
from test_rules_builtin import oracle

TWO = (Color("white", ".", (255, 255, 255)), Color("red", "r", (200, 0, 0)), Color("blue", "b", (0, 0, 200)))


def _grids(h: int, w: int, chars: str) -> list[tuple[str, ...]]:
    return [tuple("".join(cells[r * w:(r + 1) * w]) for r in range(h))
            for cells in itertools.product(chars, repeat=h * w)]


GRIDS = {(4, 4, ".#"): _grids(4, 4, ".#"), (3, 3, ".rb"): _grids(3, 3, ".rb")}
_BY_CLUES: dict = {}


def _with_clues(grid, colour: bool) -> list[tuple[str, ...]]:
    """Every grid of the same size and palette with the clues of ``grid`` (indexed once)."""
    key = (len(grid), len(grid[0]), ".rb" if colour else ".#")
    index = _BY_CLUES.get(key)
    if index is None:
        index = _BY_CLUES[key] = {}
        for g in GRIDS[key]:
            index.setdefault(_clues(g, colour), []).append(g)
    return index[_clues(grid, colour)]


def _clues(grid, colour: bool):
    return color_clues_of_grid(grid, TWO) if colour else clues_of_grid(grid)


def _specs(h: int, w: int, colour: bool, rng: random.Random) -> list[dict]:
    cols = [None, "r"] if colour else [None]
    col = rng.choice(cols)
    extra = {} if col is None else {"color": col}
    n = rng.randrange(h * w // 2 + 1)
    pool = [
        {"rule": "symmetric", "axis": rng.choice(["left-right", "top-bottom", "rotate180", "transpose"])},
        {"rule": "count", "op": rng.choice(["=", ">=", "<="]), "n": n, **extra},
        {"rule": "no-square", **extra},
        {"rule": "connected", **extra},
        {"rule": "line", "cells": [[i, i] for i in range(h)],
         "clue": rng.choice([[1], [2], [1, 1]]) if not colour else rng.choice([[[1, "r"]], [[1, "r"], [1, "b"]], [[2, "b"]]])},
    ]
    return rng.sample(pool, rng.choice([1, 1, 2]))


def _cases():
    rng = random.Random(5)
    out = []
    for colour, (h, w, chars) in ((False, (4, 4, ".#")), (True, (3, 3, ".rb"))):
        for i in range(40 if not colour else 30):
            grid = rng.choice(GRIDS[(h, w, chars)])
            out.append((colour, grid, _specs(h, w, colour, rng)))
    return out


def _puzzle(grid, colour: bool, specs) -> Puzzle:
    rules = tuple(rule_from_json(s) for s in specs)
    if colour:
        return Puzzle.from_grid(list(grid), palette=TWO, rules=rules)
    return Puzzle.from_grid(list(grid), rules=rules)


@pytest.mark.parametrize("colour, grid, specs", _cases(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_verdict_and_count_equal_brute_force(colour, grid, specs):
    p = _puzzle(grid, colour, specs)
    _h, _w = len(grid), len(grid[0])
    sols = [g for g in _with_clues(grid, colour) if all(oracle(s, g) for s in specs)]
    try:
        res = check(p)
    except ValueError:  # a bad rule for this grid is refused with a one-line error
        pytest.fail("check raised")
    expected = "none" if not sols else "unique" if len(sols) == 1 else "multiple"
    assert res.status.value == expected, (specs, grid, res.reason)
    for s in res.solutions:
        assert s in sols
    if len(res.solutions) == 2:
        assert res.solutions[0] != res.solutions[1]
    c = count(p)
    assert (c.count, c.exact) == (len(sols), True), specs
    c = count(p, enum_cap=1, use_dp=False)  # past the enumeration cap: Ganak, or enumeration for lazy rules
    assert (c.count, c.exact) == (len(sols), True), specs


@dataclass(frozen=True)
class NoDiagonalTouch:
    """A user-written rule: no two filled cells touch only at a corner (the other two
    cells of their 2x2 square are both empty).  Only name, clauses and accepts."""

    name = "no-diagonal-touch"

    def clauses(self, lit, new_var, state=None):
        out = []
        h, w = self.size
        for r in range(h - 1):
            for c in range(w - 1):
                a, b, x, y = lit(r, c, 1), lit(r, c + 1, 1), lit(r + 1, c, 1), lit(r + 1, c + 1, 1)
                out.append([-a, -y, b, x])  # a and y filled -> b or x filled
                out.append([-b, -x, a, y])
        return out

    def accepts(self, grid):
        h, w = len(grid), len(grid[0])
        for r in range(h - 1):
            for c in range(w - 1):
                q = grid[r][c] + grid[r][c + 1] + grid[r + 1][c] + grid[r + 1][c + 1]
                if q in ("#..#", ".##."):
                    return False
        return True

    def bind(self, puzzle):
        rule = NoDiagonalTouch()
        object.__setattr__(rule, "size", (puzzle.height, puzzle.width))
        return rule


def test_a_user_written_rule_works_with_sat_and_counting():
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        grid = rng.choice(GRIDS[(4, 4, ".#")])
        p = Puzzle.from_grid(list(grid), rules=(NoDiagonalTouch(),))
        sols = [g for g in _with_clues(grid, False) if NoDiagonalTouch().accepts(g)]
        res = check(p)
        assert res.status.value == ("none" if not sols else "unique" if len(sols) == 1 else "multiple")
        assert all(s in sols for s in res.solutions)
        assert count(p).count == len(sols)
        checked += len(sols) != len(_with_clues(grid, False))
    assert checked  # the rule did remove solutions somewhere


@pytest.mark.parametrize("specs", [
    [{"rule": "symmetric", "axis": "left-right"}],
    [{"rule": "connected"}],
    [{"rule": "no-square"}, {"rule": "symmetric", "axis": "rotate180"}],
    [{"rule": "count", "op": "=", "n": 7}],
], ids=lambda s: "+".join(x["rule"] for x in s))
def test_generated_puzzles_keep_their_rules_and_are_unique_under_them(specs):
    from satnono.generation import generate

    rules = tuple(rule_from_json(s) for s in specs)
    gen = generate(4, 4, 6, seed=9, require="unique", rules=rules, max_candidates=3000)
    puzzles = list(gen)
    assert len(puzzles) == 6
    for p in puzzles:
        assert all(oracle(s, p.goal) for s in specs)
        assert [r.as_json() for r in p.rules] == specs
        sols = [g for g in _with_clues(p.goal, False) if all(oracle(s, g) for s in specs)]
        assert sols == [p.goal]
    again = [p.goal for p in generate(4, 4, 6, seed=9, require="unique", rules=rules, max_candidates=3000)]
    assert again == [p.goal for p in puzzles]  # (seed, i) alone decides


def test_explanations_use_rule_steps_soundly():
    """Every step of an explanation under rules (line, probe or rule step) claims only what
    every solution has; a solved explanation ends on the solution; rule steps occur and are
    worded by their rule."""
    from satnono.explain import explain

    rule_steps = 0
    for colour, grid, specs in _cases():
        p = _puzzle(grid, colour, specs)
        sols = [g for g in _with_clues(grid, colour) if all(oracle(s, g) for s in specs)]
        ex = explain(p)
        if len(sols) != 1:
            assert not ex.solved or len(sols) == 1
            continue
        (sol,) = sols
        for st in ex.steps:
            for r, c, v in st.cells:
                assert sol[r][c] == v, (specs, st.text)
            for r, c, gone in st.excluded or ():
                assert sol[r][c] not in gone, (specs, st.text)
            if st.kind == "rule":
                rule_steps += 1
                assert st.as_dict()["line"] == "rule" and st.text
        if ex.solved:
            assert ex.grid == sol
    for seed in range(3):  # symmetric pictures drawn by the generator need symmetry steps
        from satnono.generation import generate
        for p in generate(10, 10, 3, seed=seed, require="unique", density=(0.3, 0.6),
                          rules=(rule_from_json({"rule": "symmetric", "axis": "rotate180"}),)):
            steps = explain(p).steps
            found = [s for s in steps if s.kind == "rule"]
            rule_steps += len(found)
            assert all(s.text.startswith("by symmetry (rotate180), row ") for s in found)
    assert rule_steps > 0


# ---- the command line -------------------------------------------------------------------------

def _cli(*args: str):
    from click.testing import CliRunner

    from satnono.cli import cli

    return CliRunner().invoke(cli, list(args))


def _write(tmp_path, name: str, doc: dict) -> str:
    import json

    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


CROSS = {"rows": [[1], [3], [1]], "columns": [[1], [3], [1]]}
DIAGONALS = {"rows": [[1, 1], [1, 1], [], [], []], "columns": [[1], [1], [], [1], [1]]}


@pytest.mark.parametrize("verb", ["check", "solve", "count", "classify", "diagnose", "explain", "fix"])
def test_every_verb_takes_rule_and_judges_under_it(verb, tmp_path):
    """The diagonal pairs have several solutions, each with 4 black cells: under
    ``count:<=3`` none is left, and every verb says so."""
    path = _write(tmp_path, "d.json", DIAGONALS)
    plain = _cli(verb, "--json", path) if verb not in ("explain", "fix", "classify") else _cli(verb, path)
    ruled = (_cli(verb, "--json", "--rule", "symmetric:left-right", "--rule", "count:<=3", path)
             if verb not in ("explain", "fix", "classify") else
             _cli(verb, "--rule", "symmetric:left-right", "--rule", "count:<=3", path))
    assert plain.output != ruled.output, verb
    assert "Traceback" not in ruled.output
    words = {"check": '"status": "none"', "solve": '"status": "none"', "count": '"count": 0',
             "classify": "none", "diagnose": '"status": "none"', "explain": "no solution",
             "fix": "no solution"}
    assert words[verb] in ruled.output, (verb, ruled.output)


def test_bad_rules_are_one_line_errors_naming_the_file_and_the_rule(tmp_path):
    bad = _write(tmp_path, "bad.json", {**CROSS, "rules": [{"rule": "symmetric", "axis": "transpose"},
                                                          {"rule": "line", "cells": [[0, 0], [9, 9]], "clue": [1]}]})
    r = _cli("check", bad)
    assert r.exit_code == 6 and "Traceback" not in r.output
    # the first rule is fine on a square grid; the second names its cell
    assert f"{bad}: rules[1]: rule line: cell [9, 9] is outside the 3x3 grid" in r.output
    r = _cli("check", "--rule", "bogus", bad)
    assert r.exit_code == 2 and "unknown rule 'bogus'" in r.output
    wide = _write(tmp_path, "wide.json", {"rows": [[1]], "columns": [[1], [0]]})
    r = _cli("check", "--rule", "symmetric:transpose", wide)
    assert r.exit_code == 6 and "rule symmetric: transpose needs a square grid, not 2x1" in r.output
    r = _cli("convert", _write(tmp_path, "sym.json", {**CROSS, "rules": [{"rule": "no-square"}]}),
             str(tmp_path / "out.non"))
    assert r.exit_code != 0 and "cannot store rules (no-square)" in r.output
    assert not (tmp_path / "out.non").exists()


# a clue too long for its line, in a row, a column or a line rule (an extra line of the puzzle):
# the same clean 'none' verdict with its reason (the line rule's was an input error, exit 6); the
# puzzle without that line has solutions (the 3x3 permutation matrices), so the verdict is the
# long clue's
_ONE_EACH = [[1], [1], [1]]
TOO_LONG = {
    "row": ({"rows": [[2, 1], [0], [0]], "columns": _ONE_EACH},
            "row 1: clue 2 1 needs 4 cells but the line has 3"),
    "column": ({"rows": _ONE_EACH, "columns": [[2, 1], [0], [0]]},
               "column 1: clue 2 1 needs 4 cells but the line has 3"),
    "line rule": ({"rows": _ONE_EACH, "columns": _ONE_EACH,
                   "rules": [{"rule": "line", "cells": [[0, 0], [1, 1], [2, 2]], "clue": [2, 1]}]},
                  "extra line 1 through (1,1), (2,2), (3,3): clue 2 1 needs 4 cells but the line has 3"),
}


@pytest.mark.parametrize("verb", ["check", "count", "classify", "solve"])
@pytest.mark.parametrize("kind", list(TOO_LONG))
def test_a_clue_too_long_for_its_line_is_a_clean_none(tmp_path, kind, verb):
    import json

    doc, reason = TOO_LONG[kind]
    path = _write(tmp_path, "long.json", doc)
    text, data = _cli(verb, path), _cli(verb, "--json", path)
    _assert_none_verdict(verb, path, text, data, reason)
    without = {k: v for k, v in doc.items() if k != "rules"} if kind == "line rule" else None
    if without is not None:  # the rule alone makes it none
        assert _cli("count", "--json", _write(tmp_path, "free.json", without)).exit_code == 0
        assert json.loads(_cli("count", "--json", str(tmp_path / "free.json")).stdout)["count"] == 6


@pytest.mark.parametrize("kind", list(TOO_LONG))
def test_a_clue_too_long_for_its_line_diagnose_explain_hint_fix(tmp_path, kind):
    """The other verbs on the same puzzles: no solution, no traceback, the reason where they give one."""
    import json

    doc, reason = TOO_LONG[kind]
    path = _write(tmp_path, "long.json", doc)
    r = _cli("diagnose", path)
    assert r.exit_code == 4 and f"why: {reason}" in r.output and "Traceback" not in r.output
    d = json.loads(_cli("diagnose", "--json", path).stdout)
    assert d["status"] == "none" and d["reason"] == reason
    # (the line rule is a lane of the puzzle, "line" 0, not a rule of the conflict)
    assert d["conflict"][0]["axis"] == {"line rule": "line"}.get(kind, kind) and d["conflict_rules"] == []
    _assert_explain_hint_fix_none(tmp_path, path, reason)


def test_a_line_rule_outside_the_grid_or_malformed_stays_an_input_error(tmp_path):
    for rule, message in (({"rule": "line", "cells": [[0, 0], [1, 1], [3, 3]], "clue": [2, 1]},
                           "rule line: cell [3, 3] is outside the 3x3 grid"),
                          ({"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [-1]},
                           "rule line: a clue length must be a whole number >= 0, not -1"),
                          ({"rule": "line", "cells": [[0, 0], [0, 0], [1, 1]], "clue": [2, 1]},
                           "rule line: a cell appears twice in the line")):
        path = _write(tmp_path, "bad.json", {"rows": _ONE_EACH, "columns": _ONE_EACH, "rules": [rule]})
        for verb in ("check", "count", "classify", "solve"):
            r = _cli(verb, path)
            assert r.exit_code == 6, (verb, r.output)
            assert f"{path}: rules[0]: {message}" in r.output and "Traceback" not in r.output


# a count rule asking for more cells than the grid has (filled, or of one colour): as a clue too
# long for its line, a clean 'none' with its reason (it was an input error, exit 6, when bound),
# from a file's rules or from --rule; without the rule each puzzle has solutions
_COLOUR_DIAGONAL = {"colors": {"r": "#c80000", "b": "#0000c8"},
                    "rows": [[[1, "r"]], [[1, "b"]], [[1, "r"]]], "columns": [[[1, "r"]], [[1, "b"]], [[1, "r"]]]}
TOO_MANY = {
    "exactly": ({"rows": _ONE_EACH, "columns": _ONE_EACH}, {"rule": "count", "op": "=", "n": 10}, "count:=10",
                "rule count: exactly 10 filled cells asked for, but the 3x3 grid has 9 cells"),
    "at least": ({"rows": _ONE_EACH, "columns": _ONE_EACH}, {"rule": "count", "op": ">=", "n": 10}, "count:>=10",
                 "rule count: at least 10 filled cells asked for, but the 3x3 grid has 9 cells"),
    "at least, colour": (_COLOUR_DIAGONAL, {"rule": "count", "op": ">=", "n": 12, "color": "r"}, "count:>=12:r",
                         "rule count: at least 12 cells of colour 'r' asked for, but the 3x3 grid has 9 cells"),
    "exactly, colour": (_COLOUR_DIAGONAL, {"rule": "count", "op": "=", "n": 10, "color": "b"}, "count:=10:b",
                        "rule count: exactly 10 cells of colour 'b' asked for, but the 3x3 grid has 9 cells"),
}


def _too_many(tmp_path, kind: str, given: str) -> tuple[str, list[str]]:
    """The puzzle file of ``kind`` and the options that give its rule: in the file, or by --rule."""
    doc, obj, spec, _ = TOO_MANY[kind]
    if given == "file":
        return _write(tmp_path, "many.json", {**doc, "rules": [obj]}), []
    return _write(tmp_path, "many.json", doc), ["--rule", spec]


@pytest.mark.parametrize("given", ["file", "--rule"])
@pytest.mark.parametrize("verb", ["check", "count", "classify", "solve"])
@pytest.mark.parametrize("kind", list(TOO_MANY))
def test_a_count_above_the_grid_is_a_clean_none(tmp_path, kind, verb, given):
    import json

    reason = TOO_MANY[kind][3]
    path, opts = _too_many(tmp_path, kind, given)
    text, data = _cli(verb, *opts, path), _cli(verb, "--json", *opts, path)
    _assert_none_verdict(verb, path, text, data, reason)
    free = json.loads(_cli("count", "--json", _write(tmp_path, "free.json", TOO_MANY[kind][0])).stdout)
    assert free["count"] >= 1  # the rule alone makes it none


@pytest.mark.parametrize("kind", list(TOO_MANY))
def test_a_count_above_the_grid_diagnose_explain_hint_fix(tmp_path, kind):
    """The other verbs on the same puzzles: no solution, no traceback, the reason where they give one."""
    import json

    reason, spec = TOO_MANY[kind][3], TOO_MANY[kind][2]
    path, _ = _too_many(tmp_path, kind, "file")
    r = _cli("diagnose", path)
    assert r.exit_code == 4 and f"why: {reason}" in r.output and "Traceback" not in r.output
    d = json.loads(_cli("diagnose", "--json", path).stdout)
    assert d["status"] == "none" and d["reason"] == reason and d["conflict_rules"] == [spec]
    _assert_explain_hint_fix_none(tmp_path, path, reason)


def test_a_malformed_count_rule_stays_an_input_error(tmp_path):
    """A negative N or a colour the palette lacks is the input's fault: one line, exit 6 (a
    --rule that cannot be read at all is a usage error, exit 2)."""
    for doc, rule, message in (
            (CROSS, {"rule": "count", "op": ">=", "n": -1}, "rules[0]: rule count: n must be a whole number >= 0, not -1"),
            (CROSS, {"rule": "count", "op": "=", "n": 99, "color": "z"},
             "rules[0]: rule count: colour 'z' is not in the puzzle's palette ('#')"),
            (_COLOUR_DIAGONAL, {"rule": "count", "op": ">=", "n": 99, "color": "g"},
             "rules[0]: rule count: colour 'g' is not in the puzzle's palette ('r', 'b')")):
        path = _write(tmp_path, "bad.json", {**doc, "rules": [rule]})
        for verb in ("check", "count", "classify", "solve"):
            r = _cli(verb, path)
            assert r.exit_code == 6, (verb, r.output)
            assert f"{path}: {message}" in r.output and "Traceback" not in r.output
    path = _write(tmp_path, "cross.json", CROSS)
    for verb in ("check", "count", "classify", "solve"):
        r = _cli(verb, "--rule", "count:>=99:z", path)
        assert r.exit_code == 6 and "rule count: colour 'z' is not in the puzzle's palette" in r.output, verb
        r = _cli(verb, "--rule", "count:=-1", path)
        assert r.exit_code == 2 and "write count:=N, count:>=N or count:<=N" in r.output, verb


def test_rules_round_trip_through_json(tmp_path):
    from satnono.formats import dumps, loads

    rules = [{"rule": "symmetric", "axis": "rotate180"}, {"rule": "count", "op": ">=", "n": 3},
             {"rule": "no-square"}, {"rule": "connected"}, {"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [2]}]
    p = loads(_write(tmp_path, "r.json", {**CROSS, "rules": rules}).encode() and
              (tmp_path / "r.json").read_bytes(), "json")[0]
    again = loads(dumps(p, "json").encode(), "json")[0]
    assert [r.as_json() for r in again.rules] == rules
    assert again.rules == p.rules


def test_generate_and_fix_with_a_user_written_rule():
    from satnono.fixer import FixError, fix
    from satnono.generation import generate

    puzzles = list(generate(5, 5, 4, seed=3, require="unique", rules=(NoDiagonalTouch(),), max_candidates=5000))
    assert len(puzzles) == 4
    for p in puzzles:
        assert NoDiagonalTouch().accepts(p.goal)
        sols = [g for g in _grids5(p) if NoDiagonalTouch().accepts(g)]
        assert sols == [p.goal]
    assert fix(puzzles[0]).status.value == "unique"
    bad = Puzzle.from_grid(["#...#", ".#.#.", ".....", ".....", "....."], rules=(NoDiagonalTouch(),))
    with pytest.raises(FixError, match="the goal picture breaks the rule no-diagonal-touch"):
        fix(bad)


def _grids5(p: Puzzle) -> list[tuple[str, ...]]:
    """Every 5x5 grid with the clues of ``p`` (rows enumerated, columns checked)."""
    from _oracles import brute_force_solutions

    return brute_force_solutions(dataclasses.replace(p, rules=()))


def test_narrow_is_told_which_cells_changed():
    """Propagation calls a rule's narrow with None first, then with exactly the cells whose
    values changed since the rules last ran (never an empty set: then nothing is left to do).
    The spy rule settles one cell on its first call, so the lines move and it is called again."""
    from satnono.lines import LineSolver
    from satnono.logic.propagate import propagate
    from satnono.logic.state import initial_state

    calls: list = []

    def view(state):
        return [[tuple(state.possible(r, c)) for c in range(state.width)] for r in range(state.height)]

    class Spy:
        name = "spy"

        def narrow(self, state, touched):
            entry = view(state)
            if touched is None:
                state.set_cell(0, 0, 1)  # as a rule would: the picture's corner is black
            calls.append((touched, entry, view(state)))
            return None

        def clauses(self, lit, new_var, state=None):
            return [[lit(0, 0, 1)]]

        def accepts(self, grid):
            return grid[0][0] == "#"

    # two solutions without the spy (a 2x2 switch at the corner), one with it
    p = Puzzle.from_grid(["#....", ".##..", "..#.#", "..#..", "##.##"], rules=(Spy(),))
    st = initial_state(p)
    assert propagate(st, LineSolver()) is None
    assert len(calls) >= 2 and calls[0][0] is None
    for (_, _, exit_view), (touched, entry_view, _) in zip(calls, calls[1:]):
        changed = {(r, c) for r in range(5) for c in range(5) if exit_view[r][c] != entry_view[r][c]}
        assert touched == changed and touched


@pytest.mark.parametrize("spec, colors", [("count:>=10", 1), ("count:=10:a", 2), ("count:>=26:b", 3)])
def test_generate_refuses_a_count_above_the_grid(spec, colors):
    """No picture keeps a count of more cells than the grid has (a puzzle with such a rule has no
    solution): generate refuses it before drawing a candidate, in colour too."""
    from satnono.generation import generate
    from satnono.rules import rule_from_spec

    cells = 9 if spec != "count:>=26:b" else 25
    side = 3 if cells == 9 else 5
    with pytest.raises(ValueError, match=f"rule {spec} asks for {spec.split('=')[-1].split(':')[0]} cells, but the "
                                         f"{side}x{side} grid has {cells}: no picture keeps it"):
        generate(side, side, 1, seed=1, colors=colors, density=(0.0, 1.0), rules=(rule_from_spec(spec),))
    r = _cli("generate", "--size", f"{side}x{side}", "--count", "1", "--seed", "1", "--colors", str(colors),
             "--rule", spec)
    assert r.exit_code == 2 and "no picture keeps it" in r.output and "Traceback" not in r.output


def test_generate_refuses_a_count_outside_the_density_band():
    """Every candidate would be drawn to the count and rejected by the density band: the
    run could never end, so it is refused before it starts."""
    from satnono.generation import generate

    with pytest.raises(ValueError, match="outside the density band 0.2-0.7"):
        generate(5, 5, 1, seed=1, rules=(rule_from_json({"rule": "count", "op": "=", "n": 20}),))
    assert len(list(generate(5, 5, 1, seed=1, density=(0.7, 0.9),
                             rules=(rule_from_json({"rule": "count", "op": "=", "n": 20}),)))) == 1


def _assert_none_verdict(verb: str, path: str, text, data, reason: str) -> None:
    """``verb``'s text and --json runs on ``path`` both give the clean none verdict with ``reason``."""
    import json

    for r in (text, data):
        assert r.exit_code == {"check": 4, "solve": 4, "count": 0, "classify": 0}[verb], (r.exit_code, r.output)
        assert "Traceback" not in r.output and "satnono:" not in r.stderr  # (classify's summary is on stderr)
    d = json.loads(data.stdout.splitlines()[0])
    assert d["reason"] == reason
    if verb in ("check", "solve"):
        assert d["status"] == "none" and d["solutions"] == []
        assert text.stdout.startswith(f"{path}: no solution: {reason}  [")
    elif verb == "count":
        assert d["count"] == 0 and d["exact"] and d["status"] == "none"
        assert text.stdout.startswith(f"{path}: 0 solutions: {reason}  [")
    else:
        assert d["class"] == "none" and d["count"] == 0
        assert text.stdout.startswith(f"{path}: none  [")


def _assert_explain_hint_fix_none(tmp_path, path: str, reason: str) -> None:
    """explain, hint and fix on a 3x3 ``path`` with no solution: exit 4, the reason, no traceback."""
    r = _cli("explain", path)
    assert r.exit_code == 4 and "no solution" in r.output and "Traceback" not in r.output
    state = tmp_path / "state.txt"
    state.write_text("???\n???\n???\n")
    r = _cli("hint", "--state", str(state), path)
    assert r.exit_code == 4 and f"the puzzle itself has no solution: {reason}" in r.output
    r = _cli("fix", path)
    assert r.exit_code == 4 and reason in r.output and "Traceback" not in r.output


@pytest.mark.parametrize("ascii", [True, False])
def test_a_rule_step_is_drawn_without_a_row_or_column_mark(ascii):
    """``explain --grids`` marks a row step's row and a column step's column; a rule step's cells
    are in no one line, so it gets neither (a caret under the column numbered like the rule was
    drawn)."""
    from satnono.explain import explain
    from satnono.explain.draw import apply, render_step

    for colour, grid, specs in _cases():
        p = _puzzle(grid, colour, specs)
        before = tuple("?" * p.width for _ in range(p.height))
        for st in explain(p).steps:
            drawn = render_step(before, st, ascii, p.palette).splitlines()
            if st.kind == "rule":
                assert len(drawn) == p.height, st.text
                assert not any(line.rstrip().endswith(("<", "◀")) for line in drawn)
                return
            assert len(drawn) == p.height + (st.axis == "column")
            before = apply(before, st)
    pytest.fail("no rule step among the cases")


def test_a_commands_rules_do_not_stay_for_later_reads_in_the_process(tmp_path):
    """``--rule`` applies to the files of its command; a file read afterwards in the same process
    (a library call after an in-process command line) has no extra rule."""
    from click.testing import CliRunner

    from satnono.cli import cli
    from satnono.formats import load

    path = tmp_path / "p.non"
    path.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    r = CliRunner().invoke(cli, ["check", "--rule", "connected", "--format", "non", str(path)])
    assert r.exit_code == 4, r.output  # (both diagonals are disconnected: the rule applied)
    assert load(str(path)).rules == ()
