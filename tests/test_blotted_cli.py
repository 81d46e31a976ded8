"""Every verb on small blotted puzzles (issue 17, point 4), in JSON and webpbn XML, against
brute force over every grid: verdicts, counts, the lengths found, bad input."""

from __future__ import annotations

import itertools
import json

import pytest
from click.testing import CliRunner
from conftest import PUZZLES

from satnono.cli import cli

BW = {"rows": [["?", 1], [2], [1, 1], [4]], "columns": [[1, 2], ["?", 1], [1, 1], [1, 2]]}
BW_MULTIPLE = {"rows": [["?", 1], [2], [1, 1], ["?"]], "columns": [[1, 2], ["?", 1], [1, 1], [1, "?"]]}
XML = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="red">
<color name="white" char=".">FFFFFF</color><color name="red" char="r">C80000</color>
<color name="blue" char="b">0000C8</color>
<clues type="columns">
<line><count>1</count><count color="blue">0</count></line>
<line><count>1</count><count color="blue">1</count><count>1</count></line>
<line><count color="blue">1</count></line>
</clues>
<clues type="rows">
<line><count>0</count><count color="blue">1</count></line>
<line><count color="blue">1</count></line>
<line><count color="blue">1</count><count>1</count></line>
</clues>
</puzzle></puzzleset>
"""


def _blocks(cells: str) -> list[tuple[int, str]]:
    return [(len(list(g)), ch) for ch, g in itertools.groupby(cells) if ch != "."]


def _fits(cells: str, clue: list) -> bool:
    """Independent of the library: the line's blocks match a clue of (length or "?", colour)."""
    got = _blocks(cells)
    return len(got) == len(clue) and all((n == "?" or n == m) and c == ch for (m, ch), (n, c) in zip(got, clue))


def _brute(rows: list, columns: list, chars: str) -> list[tuple[str, ...]]:
    w = len(columns)
    line_options = [["".join(t) for t in itertools.product(chars, repeat=w) if _fits("".join(t), r)] for r in rows]
    return [g for g in itertools.product(*line_options)
            if all(_fits("".join(row[c] for row in g), columns[c]) for c in range(w))]


def _bw_clues(doc: dict) -> tuple[list, list]:
    return ([[(n, "#") for n in r] for r in doc["rows"]], [[(n, "#") for n in c] for c in doc["columns"]])


XML_CLUES = ([[("?", "r"), (1, "b")], [(1, "b")], [(1, "b"), (1, "r")]],
             [[(1, "r"), ("?", "b")], [(1, "r"), (1, "b"), (1, "r")], [(1, "b")]])


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


@pytest.fixture
def files(tmp_path):
    out = {}
    for name, doc in (("bw", BW), ("multiple", BW_MULTIPLE)):
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(doc))
        out[name] = (str(path), _brute(*_bw_clues(doc), ".#"))
    path = tmp_path / "colour.xml"
    path.write_text(XML)
    out["colour"] = (str(path), _brute(*XML_CLUES, ".rb"))
    return out


def _expected_code(n: int) -> int:
    return 0 if n == 1 else 3 if n > 1 else 4


@pytest.mark.parametrize("name", ["bw", "multiple", "colour"])
def test_check_solve_count_agree_with_brute_force(files, name):
    path, truth = files[name]
    r = run("check", "--json", path)
    assert r.exit_code == _expected_code(len(truth)), r.output
    d = json.loads(r.stdout)
    assert all(tuple(s) in truth for s in d["solutions"])
    first = d["solutions"][0]
    # the lengths reported are the blocks the first solution shows
    for b in d["blots"]:
        cells = first[b["index"]] if b["axis"] == "row" else "".join(row[b["index"]] for row in first)
        assert _blocks(cells)[b["block"]][0] == b["length"]
    assert len(d["blots"]) == sum(str(n).startswith("?") or n == "?" or (isinstance(n, list) and n[0] == "?")
                                  for k in ("rows", "columns") for line in d[k] for n in line)
    r = run("count", "--json", path)
    assert json.loads(r.stdout)["count"] == len(truth)
    r = run("solve", "--ascii", path)
    assert r.exit_code == _expected_code(len(truth))
    assert "blotted lengths: " in r.output
    shown = r.output.split("blotted lengths: ")[1].splitlines()[0]
    assert shown == ", ".join(f"{b['axis']} {b['index'] + 1} block {b['block'] + 1} = {b['length']}" for b in d["blots"])


def test_classify_explain_hint_diagnose(files, tmp_path):
    path, truth = files["colour"]
    assert len(truth) == 1
    r = run("classify", "--json", path)
    assert json.loads(r.stdout.splitlines()[0])["class"] in ("line", "search")
    r = run("explain", path)
    assert r.exit_code == 0 and "0 cells left open" in r.output.splitlines()[0]
    assert "whatever the length of the blotted block" in r.output
    state = tmp_path / "state.txt"
    state.write_text("???\n???\n???\n")
    r = run("hint", "--json", "--state", str(state), path)
    assert r.exit_code == 0 and json.loads(r.stdout)["kind"] == "step"
    (sol,) = truth
    state.write_text("\n".join(sol) + "\n")
    assert json.loads(run("hint", "--json", "--state", str(state), path).stdout)["kind"] == "solved"
    r = run("diagnose", files["multiple"][0])
    assert r.exit_code == 3 and "several solutions" in r.output
    # a blotted clue that cannot fit its line: a clean 'none' naming it with '?'
    over = tmp_path / "over.json"
    over.write_text(json.dumps({"rows": [["?", "?"], [1]], "columns": [[1], ["?"]]}))
    r = run("check", str(over))
    assert r.exit_code == 4 and "row 1: clue ? ? needs 3 cells but the line has 2" in r.output
    r = run("diagnose", str(over))
    assert r.exit_code == 4 and "row 1 [? ?]" in r.output


def test_convert_keeps_blots_or_refuses(files, tmp_path):
    path, _ = files["colour"]
    out = tmp_path / "c.json"
    assert run("convert", path, str(out)).exit_code == 0
    doc = json.loads(out.read_text())
    assert doc["rows"][0] == [["?", "r"], [1, "b"]]
    back = tmp_path / "c.xml"
    assert run("convert", str(out), str(back)).exit_code == 0
    assert back.read_text().count(">0</count>") == 2
    r = run("convert", files["bw"][0], str(tmp_path / "x.non"))
    assert r.exit_code == 6 and "blotted clues (row 1 block 1, column 2 block 1)" in r.output
    assert len(r.output.strip().splitlines()) == 1 and not (tmp_path / "x.non").exists()


def test_a_blot_where_the_format_cannot_hold_one(tmp_path):
    f = tmp_path / "p.nin"
    f.write_text("2 2\n1 ?\n1\n1\n1\n")
    r = run("check", str(f))
    assert r.exit_code == 6
    assert r.output.strip() == (f"satnono: {f}:2: a blotted clue ('?') cannot be written in this format: "
                                "use webpbn XML (<count>0</count>) or JSON (\"?\")")


def test_bundled_blotted_example():
    r = run("solve", "--ascii", str(PUZZLES / "satnono" / "dancer-blotted.xml"))
    assert r.exit_code == 0 and "unique (line-solvable)" in r.output
    assert "row 1 block 1 = 2" in r.output
