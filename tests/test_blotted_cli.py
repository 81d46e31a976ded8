"""Every verb on small blotted puzzles (issue 17, point 4), in JSON and webpbn XML, against
brute force over every grid: verdicts, counts, the lengths found, bad input."""

from __future__ import annotations

import html
import itertools
import json
import re

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


# --- one wording for black and white, blots or not (defect 8) -----------------------------------
#
# A black-and-white puzzle with blotted clues was explained the colour way: its cells were
# "background" and "black (#)", its steps "coloured" ("the clue needs 2 coloured cells ..."), while
# its probes said "white" and "black".  Every wording (explain text and --json, hint text and
# --json, explain --svg titles) now says "black" and "white", as for a plain black-and-white
# puzzle; each step is checked sound here by brute force over its line (blots any length >= 1).

BW_PROBE = {"rows": [[1, 1], [1, "?"], ["?"], [1, 1]], "columns": [[2, 1], [0], ["?", 1], [1]]}
_PLACES = r"(?:rows?|columns?) \d+(?:-\d+)?(?:(?:, | and )\d+(?:-\d+)?)*"
_BW_SETTLES = re.compile(rf"(?:: | puts ){_PLACES} (?:black|white)(?: and {_PLACES} (?:black|white))?$")
_BW_PROBE = re.compile(r"^if cell \(row \d+, column \d+\) were (?:black|white), .* so it is (?:black|white)$")
_PLAIN_STEP_KEYS = {"kind", "line", "index", "clue", "cells", "technique", "text", "placements",
                    "probe", "depth", "chain"}


def _bw_sources(tmp_path) -> dict[str, str]:
    probe = tmp_path / "probe.json"
    probe.write_text(json.dumps(BW_PROBE))
    return {"dancer-blotted": str(PUZZLES / "satnono" / "dancer-blotted.xml"),
            "dancer": str(PUZZLES / "webpbn" / "webpbn-00001.xml"),  # the same picture, no blot
            "probe-blotted": str(probe)}


def _assert_bw_worded(step: dict) -> None:
    """A step of a black-and-white puzzle: its cells '#'/'.', worded 'black'/'white', with the keys
    of a black-and-white step (no colours, no exclusions); the same for its chain."""
    text = step["text"]
    assert not any(w in text for w in ("background", "(#)", "colour")), text
    assert (_BW_PROBE if step["kind"] == "probe" else _BW_SETTLES).search(text), text
    assert set(step) <= _PLAIN_STEP_KEYS, sorted(set(step) - _PLAIN_STEP_KEYS)
    assert all(v in "#." for _, _, v in step["cells"])
    for inner in step.get("chain", []):
        _assert_bw_worded(inner)


def _clues_of(path: str) -> tuple[list, list]:
    from satnono.formats import load

    p = load(path)
    as_list = [[("?" if c.is_blotted(j) else n, "#") for j, n in enumerate(c.lengths)] for c in p.row_clues], \
              [[("?" if c.is_blotted(j) else n, "#") for j, n in enumerate(c.lengths)] for c in p.column_clues]
    return as_list


def _line(grid: list[list[str]], axis: str, i: int) -> str:
    return "".join(grid[i]) if axis == "row" else "".join(row[i] for row in grid)


def _fills(known: str, clue: list) -> list[str]:
    return ["".join(t) for t in itertools.product(".#", repeat=len(known))
            if all(k in ("?", ch) for k, ch in zip(known, t)) and _fits("".join(t), clue)]


def _replay_sound(steps: list[dict], grid: list[list[str]], clues: tuple[list, list]) -> None:
    """Apply ``steps`` to ``grid``, asserting each is sound: a line step's cells are new and forced
    by its line alone (and its count of placements true); a probe's chain, replayed on the
    assumption, ends in a line with no filling, and the cell then takes the other value."""
    for st in steps:
        if st["kind"] == "probe":
            r, c, v = st["probe"]
            trial = [row[:] for row in grid]
            trial[r][c] = v
            _replay_sound(st["chain"], trial, clues)
            clue = clues[0 if st["line"] == "row" else 1][st["index"]]
            assert _fills(_line(trial, st["line"], st["index"]), clue) == []
            assert st["cells"] == [[r, c, "#" if v == "." else "."]]
        else:
            clue = clues[0 if st["line"] == "row" else 1][st["index"]]
            fills = _fills(_line(grid, st["line"], st["index"]), clue)
            if st["technique"] == "placements":
                assert st["placements"] == len(fills)
            for r, c, v in st["cells"]:
                pos = c if st["line"] == "row" else r
                assert grid[r][c] == "?" and all(f[pos] == v for f in fills), st["text"]
        for r, c, v in st["cells"]:
            grid[r][c] = v


@pytest.mark.parametrize("name", ["dancer-blotted", "dancer", "probe-blotted"])
def test_black_and_white_is_worded_alike_blotted_or_not(tmp_path, name):
    path = _bw_sources(tmp_path)[name]
    clues = _clues_of(path)
    h, w = len(clues[0]), len(clues[1])
    r = run("explain", "--json", path)
    assert r.exit_code == 0, r.output
    steps = json.loads(r.stdout)["steps"]
    for st in steps:
        _assert_bw_worded(st)
    grid = [["?"] * w for _ in range(h)]
    _replay_sound(steps, grid, clues)
    assert all(_fits("".join(row), clue) for row, clue in zip(grid, clues[0]))
    assert all(_fits(_line(grid, "column", c), clue) for c, clue in enumerate(clues[1]))
    # the text says what the JSON says, step by step
    text = run("explain", path).stdout.splitlines()
    numbered = [t.split(". ", 1)[1] for t in text if re.match(r"^\d+\. ", t)]
    assert numbered == [st["text"] for st in steps]
    assert not any(word in t for t in text for word in ("background", "(#)", "colour"))
    if name != "dancer":  # the blotted lines were explained, and ordinary lines by their techniques
        assert any("whatever the length of the blotted block" in st["text"] for st in steps)
        assert {st["technique"] for st in steps} - {"placements", "probe"}
    # hint, from the grid before each step: the same words, text and --json
    state = tmp_path / "state.txt"
    before = [["?"] * w for _ in range(h)]
    for st in steps[:8]:
        state.write_text("\n".join("".join(row) for row in before) + "\n")
        hinted = json.loads(run("hint", "--json", "--state", str(state), path).stdout)
        assert hinted["kind"] == "step"
        _assert_bw_worded(hinted["step"])
        assert run("hint", "--state", str(state), path).stdout.splitlines()[0] == "step: " + hinted["text"]
        for r_, c_, v in st["cells"]:
            before[r_][c_] = v
    # a filled cell against the solution is named black or white
    wrong = [row[:] for row in grid]
    wrong[0][0] = "." if grid[0][0] == "#" else "#"
    state.write_text("\n".join("".join(row) for row in wrong) + "\n")
    said = json.loads(run("hint", "--json", "--state", str(state), path).stdout)["text"]
    assert said.startswith(f"cell (row 1, column 1) is {'white' if grid[0][0] == '#' else 'black'},")
    # explain --svg: each step's title is its text
    out = tmp_path / "svg"
    assert run("explain", "--svg", str(out), path).exit_code == 0
    titles = [re.search(r"<title>Step \d+ of \d+: (.*)</title>", f.read_text()).group(1)
              for f in sorted(out.glob("step-*.svg"))]
    assert titles == [html.escape(st["text"]) for st in steps]


def test_colour_and_one_colour_puzzles_still_word_colours(files, tmp_path):
    """Colour explanations name colours (blots or not); a one-colour puzzle of its own names its
    colour in every step, probes too (they said 'white' and 'black')."""
    text = run("explain", files["colour"][0]).stdout
    assert "red (r)" in text and "blue (b)" in text and "background" in text
    assert not re.search(r"\b(black|white)\b", text)
    own = tmp_path / "own.json"
    r_ = lambda n: [n, "r"]  # noqa: E731
    own.write_text(json.dumps({"colors": {"r": "#c80000"},
                               "rows": [[r_(1), r_(1)], [r_(1), r_("?")], [r_("?")], [r_(1), r_(1)]],
                               "columns": [[r_(2), r_(1)], [], [r_("?"), r_(1)], [r_(1)]]}))
    d = json.loads(run("explain", "--json", str(own)).stdout)
    probes = [st for st in d["steps"] if st["kind"] == "probe"]
    assert probes and d["solved"]
    for st in d["steps"]:
        assert not re.search(r"\b(black|white)\b", st["text"]), st["text"]
        assert "colour r" in st["text"] or "background" in st["text"]
    assert all(" were colour r, " in st["text"] or " were background, " in st["text"] for st in probes)
    state = tmp_path / "state.txt"
    state.write_text(".???\n????\n????\n????\n")
    said = json.loads(run("hint", "--json", "--state", str(state), str(own)).stdout)["text"]
    assert said.startswith("cell (row 1, column 1) is background,")


# --- a blotted clue number is drawn '?' (explain --svg drew its least length, 1) ---------------

DANCER_BLOTTED = PUZZLES / "satnono" / "dancer-blotted.xml"


def _xml_clues(path) -> tuple[list[str], list[str]]:
    """Each row's and column's numbers as the webpbn XML gives them, '?' for a blot (<count>0</count>),
    read from the file itself."""
    import xml.etree.ElementTree as ET

    out = {}
    for clues in ET.parse(path).getroot().iter("clues"):
        out[clues.get("type")] = [" ".join("?" if c.text.strip() == "0" else c.text.strip() for c in line.iter("count"))
                                  or "0" for line in clues.iter("line")]
    return out["rows"], out["columns"]


def _svg_clue_labels(svg: str) -> tuple[list[str], list[str]]:
    """The clue numbers an SVG draws: a row's are the end-anchored texts on one baseline (left to
    right), a column's the middle-anchored texts at one x (top to bottom); top to bottom, left to right."""
    import xml.etree.ElementTree as ET

    rows: dict[float, list[tuple[float, str]]] = {}
    cols: dict[float, list[tuple[float, str]]] = {}
    for t in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}text"):
        x, y = float(t.get("x", "nan")), float(t.get("y", "nan"))
        if t.get("text-anchor") == "end":
            rows.setdefault(y, []).append((x, t.text))
        elif t.get("text-anchor") == "middle":
            cols.setdefault(x, []).append((y, t.text))
    return ([" ".join(text for _, text in sorted(rows[y])) for y in sorted(rows)],
            [" ".join(text for _, text in sorted(cols[x])) for x in sorted(cols)])


@pytest.mark.parametrize("name", ["dancer-blotted", "colour"])
def test_blotted_clue_numbers_are_drawn_as_question_marks(files, tmp_path, name):
    """Every picture that draws clues (each explain --svg step, diagnose --svg and the layout its
    --png is drawn from) shows a blot as '?' and every other number as it is."""
    from satnono.diagnose import diagnose
    from satnono.formats import load
    from satnono.render import _Text, layout

    path = str(DANCER_BLOTTED) if name == "dancer-blotted" else files["colour"][0]
    want = _xml_clues(path)
    assert "?" in " ".join(want[0]) and "?" in " ".join(want[1])
    out = tmp_path / "steps"
    assert run("explain", "--svg", str(out), path).exit_code == 0
    steps = sorted(out.glob("step-*.svg"))
    assert steps
    for f in steps:
        assert _svg_clue_labels(f.read_text()) == want, f.name
    svg = tmp_path / "d.svg"
    assert run("diagnose", "--svg", str(svg), path).exit_code == 0
    assert _svg_clue_labels(svg.read_text()) == want
    texts = {it.text for it in layout(diagnose(load(path)), 16).items if isinstance(it, _Text)}
    assert "?" in texts or "? ?" in texts


# --- one placement, one cell: the singular (it said "every one of the 1 placements") ------------

def test_one_placement_or_cell_is_worded_in_the_singular(files):
    """The placements steps of blotted lines (black and white and colour), a colour fill of one
    cell, and the note of an explanation stopped with one cell open."""
    steps = json.loads(run("explain", "--json", str(DANCER_BLOTTED)).stdout)["steps"]
    steps += json.loads(run("explain", "--json", files["colour"][0]).stdout)["steps"]
    counted = [st for st in steps if st["technique"] == "placements"]
    assert {st["placements"] == 1 for st in counted} == {True, False}
    for st in counted:
        n = st["placements"]
        said = (r"the only placement (of the clue )?that fits the known cells" if n == 1 else
                rf"every one of the {n:,} placements (of the clue )?that fit the known cells")
        assert re.search(said, st["text"]), st["text"]
    for st in steps:
        assert not re.search(r"\b1 (placements|cells|blocks)\b|\bthe 1 |\b1 coloured cells\b", st["text"]), st["text"]
    texts = [st["text"] for st in steps]
    assert ("row 3 (clue ? ?): whatever the length of the 2 blotted blocks (at least 1), the only placement "
            "that fits the known cells puts column 5 black and column 4 white") in texts
    assert ("column 1 (clue 1r ?b): whatever the length of the blotted block (at least 1), the only placement "
            "that fits the known cells makes row 1 red (r)") in texts
    assert ("column 3 (clue 1b): the clue needs 1 coloured cell and only 1 cell can be coloured, so it is not "
            "background: row 1 blue (b)") in texts
    # the last step of the dancer settles one cell: stopped before it, one cell is open
    last = run("explain", "--max-steps", "25", str(DANCER_BLOTTED)).stdout.splitlines()[-1]
    assert last == "stopped after the requested number of steps; 1 cell is still open"
    last = run("explain", "--max-steps", "24", str(DANCER_BLOTTED)).stdout.splitlines()[-1]
    assert last == "stopped after the requested number of steps; 2 cells are still open"
