"""``satnono explain`` and ``satnono hint`` on the command line: output, JSON, exit codes, files."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from satnono import check, load
from satnono.cli import cli

from conftest import PUZZLES  # noqa: E402

DANCER = str(PUZZLES / "webpbn" / "webpbn-00001.xml")
EDGE = str(PUZZLES / "webpbn" / "webpbn-00023.xml")
MULTI = str(PUZZLES / "jwilk" / "data001.nin")


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_explain_text():
    r = run("explain", DANCER)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert "line logic only" in lines[0]
    assert lines[1].startswith("1. column 3 (clue 7): ")
    assert lines[-1] == "solved: every cell is settled"


def test_explain_json_shape():
    r = run("explain", "--json", EDGE)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["solved"] is True and d["remaining"] == [] and d["difficulty"]["level"] == "probe"
    kinds = {s["kind"] for s in d["steps"]}
    assert kinds == {"line", "probe"}
    for s in d["steps"]:
        assert {"kind", "line", "index", "cells", "technique", "text"} <= s.keys()
        assert s["line"] in ("row", "column")
        for r_, c_, v in s["cells"]:
            assert v in "#." and 0 <= r_ < d["height"] and 0 <= c_ < d["width"]
        if s["kind"] == "probe":
            assert len(s["probe"]) == 3 and s["chain"] and all(x["kind"] == "line" for x in s["chain"])
    # replaying the JSON steps gives the solution
    grid = [["?"] * d["width"] for _ in range(d["height"])]
    for s in d["steps"]:
        for r_, c_, v in s["cells"]:
            grid[r_][c_] = v
    assert tuple("".join(x) for x in grid) == check(load(EDGE)).solutions[0]


def test_explain_multiple_and_exit_code():
    r = run("explain", MULTI)
    assert r.exit_code == 3
    assert "several solutions" in r.output


def test_explain_step_and_grids():
    r = run("explain", DANCER, "--step", "2", "--ascii")
    assert r.exit_code == 0, r.output
    assert "2. row 2" in r.output and "<" in r.output and "1. column" not in r.output
    r = run("explain", DANCER, "--step", "999")
    assert r.exit_code == 2 and "does not exist" in r.output
    r = run("explain", DANCER, "--grids", "--max-steps", "2")
    assert r.exit_code == 3 and "▲" in r.output


def test_explain_bad_input_is_one_line(tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width x\n")
    r = run("explain", str(bad))
    assert r.exit_code == 6 and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_explain_svg_folder_no_clobber_and_force(tmp_path):
    out = tmp_path / "steps"
    r = run("explain", DANCER, "--svg", str(out))
    assert r.exit_code == 0, r.output
    files = sorted(os.listdir(out))
    assert files[0] == "step-0001.svg" and len(files) == 27
    assert b"<svg" in (out / "step-0001.svg").read_bytes()
    r = run("explain", DANCER, "--svg", str(out))
    assert r.exit_code == 6 and "--force" in r.output
    r = run("explain", EDGE, "--svg", str(out), "--force")
    assert r.exit_code == 0, r.output
    from satnono.explain import explain

    assert len(os.listdir(out)) == len(explain(load(EDGE)).steps) != 27  # replaced as a whole: no stale files
    # a folder with other files is never replaced
    (out / "notes.txt").write_text("mine")
    r = run("explain", DANCER, "--svg", str(out), "--force")
    assert r.exit_code == 6 and (out / "notes.txt").read_text() == "mine"
    # nor is a plain file
    f = tmp_path / "file.svg"
    f.write_text("keep")
    r = run("explain", DANCER, "--svg", str(f), "--force")
    assert r.exit_code == 6 and f.read_text() == "keep"


def _state(tmp_path, rows):
    f = tmp_path / "state.txt"
    f.write_text("\n".join(rows) + "\n")
    return str(f)


def test_hint_step(tmp_path):
    p = load(DANCER)
    r = run("hint", DANCER, "--state", _state(tmp_path, ["?" * p.width] * p.height), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["kind"] == "step" and d["step"]["technique"] == "overlap"
    r = run("hint", DANCER, "--state", _state(tmp_path, ["?" * p.width] * p.height))
    assert r.exit_code == 0 and r.output.startswith("step: column 3")


def test_hint_wrong_cell(tmp_path):
    p = load(DANCER)
    sol = check(p).solutions[0]
    rows = ["?" * p.width] * p.height
    rows[0] = ("." if sol[0][0] == "#" else "#") + rows[0][1:]
    r = run("hint", DANCER, "--state", _state(tmp_path, rows), "--json")
    assert r.exit_code == 4
    d = json.loads(r.stdout)
    assert d["kind"] == "wrong" and d["wrong"] == [[0, 0]]


def test_hint_bad_state(tmp_path):
    r = run("hint", DANCER, "--state", _state(tmp_path, ["??x"]))
    assert r.exit_code == 6 and ":1:" in r.output and "Traceback" not in r.output
    r = run("hint", DANCER, "--state", _state(tmp_path, ["???"]))
    assert r.exit_code == 6 and "rows" in r.output
    r = run("hint", DANCER, "--state", str(tmp_path / "missing.txt"))
    assert r.exit_code == 6 and "cannot read" in r.output


def test_check_json_has_difficulty_on_request():
    r = run("check", "--json", "--grade", DANCER, EDGE, MULTI)
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["difficulty"]["level"] for d in rows] == ["line", "probe", "multiple"]
    assert rows[0]["difficulty"]["steps"] == 27
    r = run("check", "--json", DANCER, EDGE, MULTI)  # not asked: not computed
    assert all("difficulty" not in json.loads(line) for line in r.stdout.splitlines())
    r = run("check", "--grade", EDGE)
    assert "  grade: needs probing (depth 1)" in r.stdout
    r = run("solve", "--json", "--grade", DANCER)
    assert json.loads(r.stdout)["difficulty"]["level"] == "line"


def test_explain_svg_refuses_huge_output(tmp_path):
    big = str(PUZZLES / "picross-solver" / "webpbn-35105-wild.non")  # 60x45, over 500 steps
    r = run("explain", big, "--svg", str(tmp_path / "out"))
    assert r.exit_code == 6 and "--max-steps" in r.output and not (tmp_path / "out").exists()
    r = run("explain", big, "--svg", str(tmp_path / "out"), "--max-steps", "5")
    assert r.exit_code == 3 and len(os.listdir(tmp_path / "out")) == 5


def test_explain_from_a_state(tmp_path):
    p = load(DANCER)
    sol = check(p).solutions[0]
    half = [row if r < 5 else "?" * p.width for r, row in enumerate(sol)]
    r = run("explain", DANCER, "--state", _state(tmp_path, half), "--json")
    assert r.exit_code == 0
    d = json.loads(r.stdout)
    assert d["solved"] and all(c[0] >= 5 for s in d["steps"] for c in s["cells"])
    wrong = ["#" * p.width] + ["?" * p.width] * (p.height - 1)
    r = run("explain", DANCER, "--state", _state(tmp_path, wrong))
    assert r.exit_code == 4 and "the given cells fit no solution" in r.output


# --------------------------------------------------------------------------
# Colour puzzles

COLOUR = str(PUZZLES / "satnono" / "colour-search-10x10.non")
MAP = str(PUZZLES / "webpbn" / "webpbn-color-00047.xml")


def test_explain_colour_json_replays_to_the_solution():
    r = run("explain", "--json", COLOUR)
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    p = load(COLOUR)
    assert d["solved"] and d["difficulty"]["level"] == "probe"
    index = {ch: v for v, ch in enumerate(p.chars)}
    poss = [[set(range(len(p.chars))) for _ in range(d["width"])] for _ in range(d["height"])]
    for s in d["steps"]:
        assert "excluded" in s and "colors" in s
        for r_, c_, v in s["cells"]:
            assert v in p.chars
            poss[r_][c_] = {index[v]}
        for r_, c_, gone in s["excluded"]:
            poss[r_][c_] -= {index[ch] for ch in gone}
        if s["kind"] == "probe":
            assert s["probe"][2] in p.chars and "so it is not" in s["text"]
    grid = tuple("".join(p.chars[next(iter(x))] for x in row) for row in poss)
    assert all(len(x) == 1 for row in poss for x in row)
    assert grid == check(p).solutions[0] == tuple(d["grid"])


def test_explain_colour_text_grids_and_svg(tmp_path):
    r = run("explain", MAP, "--step", "3", "--ascii")
    assert r.exit_code == 0, r.output
    assert "line logic only" in r.output.splitlines()[0] and "palette's characters" in r.output
    r = run("explain", COLOUR, "--svg", str(tmp_path / "out"))
    assert r.exit_code == 0, r.output
    files = sorted(os.listdir(tmp_path / "out"))
    assert files[0] == "step-0001.svg"
    assert "#dc2828" in (tmp_path / "out" / files[-1]).read_text()


def test_hint_colour_state(tmp_path):
    p = load(COLOUR)
    sol = check(p).solutions[0]
    half = [row[:4] + "?" * (p.width - 4) for row in sol]
    r = run("hint", COLOUR, "--state", _state(tmp_path, half), "--json")
    assert r.exit_code == 0, r.output
    d = json.loads(r.stdout)
    assert d["kind"] == "step" and d["step"]["cells"] + d["step"]["excluded"]
    wrong = [list(row) for row in half]
    wrong[6][0] = "c" if sol[6][0] != "c" else "a"
    r = run("hint", COLOUR, "--state", _state(tmp_path, ["".join(x) for x in wrong]))
    assert r.exit_code == 4 and "row 7, column 1" in r.output
    r = run("hint", COLOUR, "--state", _state(tmp_path, ["#" * p.width] * p.height))
    assert r.exit_code == 6 and ":1:" in r.output and "palette" in r.output and "Traceback" not in r.output


def test_check_json_difficulty_and_classify_grade_for_colour():
    r = run("check", "--json", "--grade", COLOUR, MAP)
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["difficulty"]["level"] for d in rows] == ["probe", "line"]
    r = run("classify", "--json", "--probe", COLOUR)
    d = json.loads(r.stdout.splitlines()[0])
    assert d["level"] == "probe" and d["grade"].startswith("needs probing (depth 1)")


def test_explain_svg_heading_fits_a_narrow_puzzle(tmp_path):
    """The step heading of explain --svg was cut on narrow puzzles ('Step 1 o' on a 1x3)."""
    import re as _re

    from satnono.explain.draw import HEADING_EM

    path = tmp_path / "narrow.json"
    path.write_text(json.dumps({"rows": [[3]], "columns": [[1], [1], [1]]}))
    r = run("explain", str(path), "--svg", str(tmp_path / "out"))
    assert r.exit_code == 0
    for f in os.listdir(tmp_path / "out"):
        svg = (tmp_path / "out" / f).read_text()
        width = int(_re.search(r'<svg[^>]* width="(\d+)"', svg).group(1))
        heading = _re.search(r'<text x="4" y="14" font-size="12">([^<]*)</text>', svg).group(1)
        assert heading.startswith("Step 1 of ") and 4 + len(heading) * 12 * HEADING_EM <= width
