"""satnono.explain on triddlers: explanations, hints and grades (issue 39), checked against
the independent oracles of tests/_triddler_oracle.py (brute force and a line logic of their own),
and ``satnono explain`` / ``satnono hint`` on triddlers."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from conftest import PUZZLES
from _triddler_oracle import _lane_logic, brute_force, line_solve
from satnono.cli import cli
from satnono.explain import Step, difficulty, explain, next_hint
from satnono.explain.board import cells_text, state_from_cells, state_of_rows
from satnono.lanes import cell_name
from satnono.logic.probe import Prober
from satnono.formats import dumps
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.palette import Color

GEOMETRIES = [Triangle.hexagon(1), Triangle.hexagon(2), Triangle.hexagon(3), Triangle.triangle(2),
              Triangle.triangle(3), Triangle.triangle(4)]
SNOWFLAKE = str(PUZZLES / "satnono" / "snowflake-triddler.xml")
FLOWER = str(PUZZLES / "satnono" / "flower-triddler.json")
#: unique, not line-solvable, settled by depth-1 probing (found by a random search)
PROBE = (Triangle.triangle(4), ".#...#.#...#....")


def _puzzles(seed: int, per: int = 12) -> list[LanePuzzle]:
    """Random black-and-white triddlers on the small geometries (their clues from a random picture,
    and a few with one clue changed, which may have no solution)."""
    rng = random.Random(seed)
    out = []
    for g in GEOMETRIES:
        for k in range(per):
            d = rng.choice([0.3, 0.5, 0.7])
            pic = "".join("#" if rng.random() < d else "." for _ in range(g.cell_count))
            p = LanePuzzle.from_picture(g, pic, keep_goal=False)
            if k % 4 == 3:  # break a clue: a lane's clue of another picture
                other = "".join(rng.choice(".#") for _ in range(g.cell_count))
                q = LanePuzzle.from_picture(g, other, keep_goal=False)
                i = rng.randrange(len(p.clues))
                p = p.replace(clues=p.clues[:i] + (q.clues[i],) + p.clues[i + 1:])
            out.append(p)
    return out


def _not_line_solvable(seed: int, count: int) -> list[LanePuzzle]:
    """Random triddlers of at most 24 cells that line logic leaves open (unique or not): the
    puzzles probing works on."""
    rng = random.Random(seed)
    out = [LanePuzzle.from_picture(PROBE[0], PROBE[1], keep_goal=False)]
    while len(out) < count:
        g = rng.choice([Triangle.hexagon(2), Triangle.triangle(4)])
        p = LanePuzzle.from_picture(g, "".join(rng.choice(".#") for _ in range(g.cell_count)), keep_goal=False)
        dom = line_solve(p)
        if dom is not None and any(d & (d - 1) for d in dom):
            out.append(p)
    return out


def _replay(p: LanePuzzle, steps: list[Step], start: list[int] | None = None) -> list[int]:
    """The cells' possible values (bit masks) after applying what the steps claim."""
    index = {ch: v for v, ch in enumerate(p.chars)}
    full = (1 << len(p.chars)) - 1
    dom = list(start) if start is not None else [full] * p.geometry.cell_count
    for st in steps:
        for cell, ch in st.cells:
            assert dom[cell] >> index[ch] & 1, f"{st.text}: sets a value already ruled out"
            dom[cell] = 1 << index[ch]
        for cell, gone in st.excluded or ():
            for ch in gone:
                dom[cell] &= ~(1 << index[ch])
    return dom


def _picture(p: LanePuzzle, dom: list[int]) -> str:
    return "".join(p.chars[d.bit_length() - 1] if d and not d & (d - 1) else "?" for d in dom)


def _sound(p: LanePuzzle, st: Step, solutions: list[str]) -> None:
    """Every cell a step settles has that value in every solution; no excluded value is in one."""
    for cell, ch in st.cells:
        assert all(s[cell] == ch for s in solutions), f"unsound: {st.text}"
    for cell, gone in st.excluded or ():
        assert all(s[cell] not in gone for s in solutions), f"unsound: {st.text}"


def _refutes(p: LanePuzzle, st: Step, dom: list[int]) -> None:
    """A probe's assumption and its chain (as they claim cells) leave its lane without a
    placement, by the oracle's own lane logic."""
    index = {ch: v for v, ch in enumerate(p.chars)}
    assert st.probe is not None
    cell, ch = st.probe
    trial = list(dom)
    trial[cell] = 1 << index[ch]
    trial = _replay(p, st.chain, trial)
    lane = p.lanes[st.lane]
    assert (lane.family, lane.index) == (st.family, st.index)
    assert _lane_logic([trial[c] for c in lane.cells], p.clues[st.lane]) is None, st.text


# ---------------------------------------------------------------------------------------------
# Naming


def test_cells_are_named_by_row_and_place_in_the_row():
    g = Triangle.from_sides(2, 1, 2, 2, 1, 2)  # webpbn's example: rows ABCDE FGHIJK LMNOP
    assert cell_name(g, 0) == "row 1, cell 1"
    assert cell_name(g, 7) == "row 2, cell 3"  # H
    assert cell_name(g, 15) == "row 3, cell 5"  # P
    assert cells_text(g, [5, 6, 7, 9, 11]) == "row 2, cells 1-3 and 5 and row 3, cell 1"


# ---------------------------------------------------------------------------------------------
# The library against the oracles


@pytest.mark.parametrize("seed", [1, 2])
def test_line_steps_reach_the_oracles_line_logic(seed):
    for p in _puzzles(seed):
        ex = explain(p, max_depth=0, verdict_timeout=5)
        want = line_solve(p)
        if want is None:
            assert ex.status == "none" and ex.difficulty["level"] == "none", p
            assert "has no placement that fits the known cells" in ex.note
            continue
        dom = _replay(p, ex.steps)
        assert dom == want, (p, ex.note)
        assert ex.picture == _picture(p, want)
        assert all(s.kind == "line" and s.technique in {"empty", "complete", "fill", "edge", "fixed", "overlap",
                                                        "gap", "reach", "placements"} for s in ex.steps)
        if all(d & (d - 1) == 0 for d in want):
            assert ex.solved and ex.difficulty["level"] == "line" and ex.difficulty["exact"]


@pytest.mark.parametrize("seed", [3, 4])
def test_every_step_is_sound_and_the_grade_matches(seed):
    for p in _puzzles(seed, per=8) + _not_line_solvable(seed, 12):
        if p.geometry.cell_count > 24:
            continue
        sols = brute_force(p, limit=50)
        ex = explain(p, verdict_timeout=5)
        dom = _replay(p, [])
        for st in ex.steps:
            _sound(p, st, sols)
            if st.kind == "probe":
                _refutes(p, st, dom)
            dom = _replay(p, [st], dom)
        assert _picture(p, dom) == ex.picture
        level = ex.difficulty["level"]
        if not sols:
            assert level == "none"
        elif len(sols) > 1:
            assert level == "multiple" and not ex.solved and "several solutions" in ex.note
        elif all(d & (d - 1) == 0 for d in line_solve(p)):
            assert level == "line" and ex.picture == sols[0]
        else:
            assert level in ("probe", "probe2", "search") and ex.difficulty["exact"]
            assert ex.picture == sols[0] if level != "search" else "needs search" in ex.difficulty["text"]


def test_a_puzzle_that_needs_probing():
    g, pic = PROBE
    p = LanePuzzle.from_picture(g, pic, keep_goal=False)
    sols = brute_force(p)
    assert sols == [pic] and line_solve(p) != [1 << ".#".index(ch) for ch in pic]
    ex = explain(p)
    assert ex.solved and ex.picture == pic
    assert ex.difficulty["level"] == "probe" and ex.difficulty["exact"] and ex.difficulty["probes"] >= 1
    probe = next(s for s in ex.steps if s.kind == "probe")
    assert re.match(r"if row \d+, cell \d+ were (black|white), .* would have no placement after \d+ line steps?, "
                    r"so it is (white|black)$", probe.text)
    assert probe.as_dict()["probe"][0] == probe.probe[0] and probe.as_dict()["chain"]
    # with line logic only: at least probing, not exact
    ex0 = explain(p, max_depth=0)
    assert ex0.status == "stuck" and ex0.difficulty["level"] == "probe" and not ex0.difficulty["exact"]
    assert "the rest needs search (the puzzle is unique only globally)" in ex0.note
    assert difficulty(p)["level"] == "probe"


def test_search_when_probing_cannot_finish(monkeypatch):
    """A unique puzzle that probing to depth 2 does not settle is graded 'search' (probing is made
    to find nothing here: small triddlers that need search are too rare to pin one)."""
    g, pic = PROBE
    p = LanePuzzle.from_picture(g, pic, keep_goal=False)
    monkeypatch.setattr(Prober, "find", lambda self, state, depth: None)
    ex = explain(p)
    assert ex.status == "stuck" and ex.difficulty["level"] == "search" and ex.difficulty["exact"]
    assert ex.note.endswith("the rest needs search (the puzzle is unique only globally)")
    assert ex.note.startswith("line logic and probing up to depth 2 settle no more cells;")


def test_budget_and_max_steps_give_at_least_grades():
    g, pic = PROBE
    p = LanePuzzle.from_picture(g, pic, keep_goal=False)
    ex = explain(p, probe_budget=0)
    assert ex.status == "budget" and not ex.difficulty["exact"]
    ex = explain(p, max_steps=2)
    assert ex.status == "truncated" and len(ex.steps) == 2 and not ex.difficulty["steps_exact"]


def test_colour_triddlers():
    from satnono.formats import load

    p = load(FLOWER)
    ex = explain(p)
    assert ex.solved and ex.picture == p.goal and ex.difficulty["level"] == "line"
    assert _replay(p, ex.steps) == line_solve(p)
    assert any(s.technique == "absent" for s in ex.steps) and all(s.excluded is not None for s in ex.steps)
    # small two-colour ones against the brute force
    rng = random.Random(5)
    palette = (Color("white", ".", (255, 255, 255)), Color("red", "r", (255, 0, 0)), Color("blue", "b", (0, 0, 255)))
    for g in (Triangle.hexagon(1), Triangle.triangle(3)):
        for _ in range(10):
            pic = "".join(rng.choice(".rb") for _ in range(g.cell_count))
            q = LanePuzzle.from_picture(g, pic, palette, keep_goal=False)
            sols = brute_force(q, limit=50)
            ex = explain(q, verdict_timeout=5)
            dom = _replay(q, [])
            for st in ex.steps:
                _sound(q, st, sols)
                dom = _replay(q, [st], dom)
            if len(sols) == 1 and ex.solved:
                assert ex.picture == sols[0]


def test_hint_gives_a_sound_next_step():
    rng = random.Random(6)
    for p in _puzzles(7, per=6):
        if p.geometry.cell_count > 24:
            continue
        sols = brute_force(p, limit=50)
        if len(sols) != 1:
            continue
        sol = sols[0]
        known = "".join(ch if rng.random() < 0.4 else "?" for ch in sol)
        h = next_hint(p, known)
        if "?" not in known:
            assert h.kind == "solved"
            continue
        assert h.kind in ("step", "stuck"), h.text
        if h.kind == "step":
            _sound(p, h.step, sols)
            assert any(known[c] == "?" for c, _ in h.step.cells) or h.step.excluded
        # a wrong cell is named instead
        filled = [c for c, ch in enumerate(known) if ch != "?"]
        if filled:
            c = filled[0]
            bad = known[:c] + ("#" if known[c] == "." else ".") + known[c + 1:]
            w = next_hint(p, bad)
            assert w.kind == "wrong" and w.wrong == [c] and w.text.startswith(cell_name(p.geometry, c) + " is ")


def test_states_are_checked_in_one_line():
    p = LanePuzzle.from_picture(Triangle.triangle(2), "#.##", keep_goal=False)
    assert state_of_rows(p, ["/?\\", "/#.#\\"]) == "?#.#"
    for rows, msg in [(["/?\\"], "expected 2 rows, got 1"), (["/??\\", "/#.#\\"], "row 1 has 1 cells, got 2"),
                      (["\\?/", "/#.#\\"], "row 1 must start with '/'")]:
        with pytest.raises(ValueError, match=re.escape(msg)):
            state_of_rows(p, rows)
    with pytest.raises(ValueError, match=r"row 2, cell 2: 'x' is not one of"):
        state_from_cells(p, "?#x#")
    assert state_from_cells(p, "?#.#").picture(".#") == "?#.#"


# ---------------------------------------------------------------------------------------------
# The commands


def _run(*args: str, input: str | None = None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_explain_cli_text_and_json():
    r = _run("explain", SNOWFLAKE)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert re.match(rf"{re.escape(SNOWFLAKE)}: line logic only, 21 steps  \[triddler of 96 cells, 0 cells left open, "
                    r"\d+\.\d{3} s\]$", lines[0])
    assert lines[1] == "1. row 1 (clue 0): the clue is 0, so every cell is white: row 1, cells 1-9 white"
    assert any(line.startswith("3. / line 1 (clue 0): ") for line in lines)
    assert lines[-1] == "solved: every cell is settled"
    assert "column" not in r.output and "fits only at positions 5-11" in r.output  # positions along a lane
    r = _run("explain", "--json", SNOWFLAKE)
    d = json.loads(r.output)
    assert d["file"] == SNOWFLAKE and d["cells"] == 96 and d["geometry"]["kind"] == "triangle"
    assert d["solved"] and d["remaining"] == [] and d["difficulty"]["level"] == "line"
    st = d["steps"][2]
    assert (st["kind"], st["line"], st["index"], st["name"], st["technique"]) == ("line", "/", 0, "/ line 1", "empty")
    assert all(isinstance(c, int) and v == "." for c, v in st["cells"])
    assert d["grid"][0] == "/.........\\"


def test_explain_cli_probe_steps_grids_and_svg(tmp_path):
    g, pic = PROBE
    f = tmp_path / "probe.json"
    f.write_text(dumps(LanePuzzle.from_picture(g, pic, keep_goal=False), "json"))
    r = _run("explain", str(f))
    assert r.exit_code == 0, r.output
    assert "needs probing (depth 1)" in r.output.splitlines()[0]
    assert re.search(r"^\d+\. if row \d+, cell \d+ were (black|white), ", r.output, re.M)
    assert re.search(r"^     1\. ", r.output, re.M)  # the chain, indented
    r = _run("explain", "--step", "1", str(f))
    assert r.exit_code == 0 and "'?' unknown" in r.output and re.search(r"^/\S*\\$", r.output, re.M)
    r = _run("explain", "--svg", str(tmp_path / "out"), str(f))
    assert r.exit_code == 6 and len(r.output.strip().splitlines()) == 1 and "rectangular puzzles only" in r.output
    r = _run("explain", "--depth", "0", str(f))
    assert r.exit_code == 3 and "needs at least probing (depth 1)" in r.output


def test_explain_cli_multiple_and_state(tmp_path):
    rng = random.Random(8)
    g = Triangle.hexagon(2)
    while True:  # a triddler of several solutions
        p = LanePuzzle.from_picture(g, "".join(rng.choice(".#") for _ in range(24)), keep_goal=False)
        sols = brute_force(p, limit=3)
        if len(sols) > 1 and line_solve(p) is not None:
            break
    f = tmp_path / "multi.json"
    f.write_text(dumps(p, "json"))
    r = _run("explain", str(f))
    assert r.exit_code == 3, r.output
    assert r.output.splitlines()[0].split(": ", 1)[1].startswith("several solutions")
    assert r.output.splitlines()[-1].endswith("the puzzle has several solutions, so no logic can settle the rest")
    # from a partial state: the rows of one solution with its first row unknown
    rows = g.text_rows(sols[0])
    s = tmp_path / "state.txt"
    s.write_text("% a partial state\n" + "\n".join([rows[0][0] + "?" * (len(rows[0]) - 2) + rows[0][-1], *rows[1:]]))
    r = _run("explain", "--json", "--state", str(s), str(f))
    d = json.loads(r.output)
    assert all(c < len(rows[0]) - 2 for st in d["steps"] for c, _ in st["cells"])
    s.write_text("\n".join([rows[0][0] + "x" * (len(rows[0]) - 2) + rows[0][-1], *rows[1:]]))
    r = _run("explain", "--state", str(s), str(f))
    assert r.exit_code == 6 and r.output.strip().splitlines()[-1].endswith(
        "row 1, cell 1: 'x' is not one of '#', '.' or '?'")


def test_hint_cli(tmp_path):
    s = tmp_path / "state.txt"
    rows = ["/" + "?" * 9 + "\\", "/" + "?" * 11 + "\\", "/" + "?" * 13 + "\\", "/" + "?" * 15 + "\\",
            "\\" + "?" * 15 + "/", "\\" + "?" * 13 + "/", "\\" + "?" * 11 + "/", "\\" + "?" * 9 + "/"]
    s.write_text("\n".join(rows) + "\n")
    r = _run("hint", SNOWFLAKE, "--state", str(s))
    assert r.exit_code == 0, r.output
    out = r.output.splitlines()
    assert out[0] == "step: row 1 (clue 0): the clue is 0, so every cell is white: row 1, cells 1-9 white"
    assert out[2] == "/.........\\"
    d = json.loads(_run("hint", "--json", SNOWFLAKE, "--state", str(s)).output)
    assert d["kind"] == "step" and d["step"]["line"] == "row" and d["step"]["cells"][0] == [0, "."]
    # a wrong cell
    s.write_text("\n".join(["/#" + "?" * 8 + "\\"] + rows[1:]) + "\n")
    r = _run("hint", SNOWFLAKE, "--state", str(s))
    assert r.exit_code == 4 and r.output.startswith("wrong: row 1, cell 1 is black, but the solution differs there")
    assert json.loads(_run("hint", "--json", SNOWFLAKE, "--state", str(s)).output)["wrong"] == [0]
    # bad state files: one line, exit 6
    for text, msg in [("\n".join(rows[:3]), "expected 8 rows, got 3"),
                      ("\n".join(["/" + "?" * 10 + "\\"] + rows[1:]), "row 1 has 9 cells, got 10"),
                      ("\n".join(["/" + "?" * 8 + "z\\"] + rows[1:]), "row 1, cell 9: 'z' is not one of")]:
        s.write_text(text + "\n")
        r = _run("hint", SNOWFLAKE, "--state", str(s))
        assert r.exit_code == 6 and len(r.output.strip().splitlines()) == 1, r.output
        assert msg in r.output and str(s) in r.output


def test_check_grade_and_classify_probe_grade_triddlers(tmp_path):
    r = _run("check", "--grade", SNOWFLAKE)
    assert r.exit_code == 0 and r.output.splitlines()[1] == "  grade: line logic only, 21 steps", r.output
    g, pic = PROBE
    f = tmp_path / "probe.json"
    f.write_text(dumps(LanePuzzle.from_picture(g, pic, keep_goal=False), "json"))
    d = json.loads(_run("check", "--grade", "--json", str(f)).output)
    assert d["difficulty"]["level"] == "probe" and d["difficulty"]["exact"]
    from satnono.classify import classify_puzzle
    from satnono.formats import load

    rec = classify_puzzle(load(str(f)), probing=True)
    assert (rec["class"], rec["level"], rec["level_exact"], rec["unknown_after_probe"]) == ("search", "probe", True, 0)
    assert rec["grade"].startswith("needs probing (depth 1)")


def test_givens_start_the_explanation_and_rules_are_taken(tmp_path):
    if "givens" not in LanePuzzle.__dataclass_fields__:
        pytest.skip("LanePuzzle has no givens here")
    g, pic = PROBE
    givens = [(c, ".#".index(pic[c])) for c in range(0, len(pic), 2)]
    p = LanePuzzle.from_picture(g, pic, keep_goal=False, givens=givens)
    ex = explain(p)
    assert ex.solved and ex.picture == pic
    assert not {c for st in ex.steps for c, _ in st.cells} & {c for c, _ in givens}
    assert ex.difficulty["level"] == "line" and _replay(p, ex.steps, [1 << v if (c, v) in givens else 3
                                                                      for c in range(len(pic))
                                                                      for v in [".#".index(pic[c])]]) == \
        [1 << ".#".index(ch) for ch in pic]
    from satnono.lanerules import lane_rule_from

    q = LanePuzzle.from_picture(g, pic, keep_goal=False, rules=(lane_rule_from("count:>=1"),))
    assert explain(q).difficulty == explain(p.replace(givens=())).difficulty  # (a rule that settles nothing)
    assert difficulty(q)["level"] == "probe"
    f = tmp_path / "rules.json"
    f.write_text(dumps(q, "json"))
    r = _run("explain", str(f))
    assert r.exit_code == 0 and "needs probing (depth 1)" in r.output.splitlines()[0], r.output


# ---------------------------------------------------------------------------------------------
# A third geometry: the same explainer on lanes it has never seen


def test_a_toy_geometry_is_explained_over_its_lanes():
    """The rectangle with a family of diagonal lanes that tests/test_geometry_seam.py builds:
    every step is sound against its enumeration, probes refute by the oracle's lane logic, the
    grade matches, and steps name the diagonals."""
    from test_geometry_seam import Diagonals, _enumerate, _puzzles

    families = set()
    for p in _puzzles():
        sols = _enumerate(p)
        ex = explain(p, verdict_timeout=5)
        dom = _replay(p, [])
        for st in ex.steps:
            _sound(p, st, sols)
            if st.kind == "probe":
                _refutes(p, st, dom)
            else:
                assert st.name == p.lanes[st.lane].name and st.text.startswith(st.name + " (clue ")
                families.add(st.family)
            dom = _replay(p, [st], dom)
        assert _picture(p, dom) == ex.picture and ex.as_dict()["geometry"]["kind"] == Diagonals.kind
        level = ex.difficulty["level"]
        if not sols:
            assert level == "none" and ex.status == "none"
        elif len(sols) > 1:
            assert level == "multiple" and not ex.solved
        else:
            assert ex.picture == sols[0] if ex.solved else level == "search"
    assert "diagonal" in families
