"""The command line through click's runner: verdicts, JSON, exit codes, bad input.

The first tests run on the bundled black-and-white files.  The verbs on small puzzles written
by the tests are parametrized over the clue kind (``bw``, ``color``): the same puzzle shapes in
each kind (:data:`UNIQUE`, :data:`AMBIGUOUS`), written with :func:`write`.  Output that only
colour has (palettes, colour names, ``--colors``, ``--background``) is tested on colour alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import satnono
from satnono.cli import cli
from satnono.formats import dumps, load
from satnono.model import Puzzle, default_palette

from conftest import PUZZLES  # noqa: E402

DANCER = str(PUZZLES / "webpbn" / "webpbn-00001.xml")
EDGE = str(PUZZLES / "webpbn" / "webpbn-00023.xml")
MULTI = str(PUZZLES / "jwilk" / "data001.nin")


KINDS = ("bw", "color")


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def test_check_unique_line_solvable():
    r = run("check", DANCER)
    assert r.exit_code == 0, r.output
    assert "unique (line-solvable)" in r.output


def test_check_json_fields():
    r = run("check", "--json", DANCER, EDGE, MULTI)
    assert r.exit_code == 3
    rows = [json.loads(line) for line in r.stdout.splitlines()]
    assert [d["status"] for d in rows] == ["unique", "unique", "multiple"]
    assert [d["line_solvable"] for d in rows] == [True, False, False]
    for d in rows:
        assert {"file", "status", "line_solvable", "solutions", "diff", "seconds", "stats"} <= d.keys()
        assert {"unknown_after_propagation", "cnf_vars", "cnf_clauses"} <= d["stats"].keys()
    multi = rows[2]
    a, b = multi["solutions"]
    assert a != b and multi["diff"]
    assert all(a[r][c] != b[r][c] for r, c in multi["diff"])
    assert rows[0]["file"] == DANCER and "index" not in rows[0]


#: Well-formed clues without a solution, per kind: black and white (the columns' blocks cannot
#: meet the rows'), and colour (the row's colours never meet the columns' in the crossing cells).
NONE_TEXT = {
    "bw": "width 3\nheight 3\nrows\n1,1\n0\n1,1\ncolumns\n2\n0\n2\n",
    "color": "width 2\nheight 1\ncolor a #ff0000\ncolor b #00ff00\nrows\n1a,1a\ncolumns\n1b\n1b\n",
}


@pytest.mark.parametrize("kind", KINDS)
def test_none_exit_code(tmp_path, kind):
    """Unsatisfiable clues are a 'none' verdict (exit code 4), not an error."""
    f = tmp_path / "bad.non"
    f.write_text(NONE_TEXT[kind])
    p = load(str(f))
    assert p.is_color == (kind == "color")
    assert satnono.check(p).status.value == "none"
    r = run("check", str(f))
    assert r.exit_code == 4
    assert "no solution" in r.output


def test_an_error_of_several_lines_is_printed_on_one(capsys):
    """Every 'satnono: ...' message is one line, also when it quotes a library's error that spans
    several (Dask's FutureCancelledError does: the lost-scheduler message came out on two)."""
    from satnono.batch import BatchError
    from satnono.cli.common import err
    from satnono.cli.options import CliExit

    err("lost the Dask scheduler: FutureCancelledError: x cancelled for reason: lost.\n  Check your connection.")
    CliExit(7, str(BatchError("first\r\nsecond\n"))).show()
    err("a plain message")
    assert capsys.readouterr().err.splitlines() == [
        "satnono: lost the Dask scheduler: FutureCancelledError: x cancelled for reason: lost. Check your connection.",
        "satnono: first second",
        "satnono: a plain message",
    ]


def test_malformed_input_one_line_error_and_batch_continues(tmp_path):
    f = tmp_path / "broken.non"
    f.write_text("width 2\nheight 2\nrows\n1\nx\ncolumns\n1\n1\n")
    r = run("check", str(f), DANCER)
    assert r.exit_code == 6
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and str(f) in err[0] and ":5:" in err[0]
    assert "Traceback" not in r.output
    assert "unique" in r.stdout  # the rest of the batch ran


def test_missing_file_and_json_error_object(tmp_path):
    r = run("check", "--json", str(tmp_path / "nope.non"))
    assert r.exit_code == 6
    d = json.loads(r.stdout)
    assert d["status"] == "error" and "nope.non" in d["reason"]


def test_colour_puzzle_is_settled(corpus):
    r = run("check", str(corpus / "webpbn-survey" / "webpbn-color-00047.xml"))
    assert r.exit_code == 0 and "unique" in r.stdout, r.output


def test_mixed_batch_takes_the_largest_code(tmp_path):
    bad = tmp_path / "none.non"
    bad.write_text("width 2\nheight 2\nrows\n2\n2\ncolumns\n1\n1\n")
    assert run("check", DANCER, MULTI).exit_code == 3
    assert run("check", MULTI, str(bad)).exit_code == 4
    assert run("check", str(bad), str(tmp_path / "missing.non")).exit_code == 6


def test_multi_puzzle_file_and_selector(corpus):
    path = str(corpus / "tournament" / "nonogramrecord" / "question" / "taai2011.txt")
    r = run("check", "--json", path + "#3")
    d = json.loads(r.stdout)
    assert d["file"] == path and d["index"] == 3 and d["status"] in ("unique", "multiple")
    r = run("check", path + "#1001")
    assert r.exit_code == 6 and "Traceback" not in r.output


def test_stdin():
    text = "width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n"
    r = run("check", "--json", "-", input=text)
    d = json.loads(r.stdout)
    assert r.exit_code == 0 and d["file"] == "-" and d["solutions"] == [["##", "#."]]


def test_solve_renders_both_solutions_with_marks():
    r = run("solve", "--ascii", MULTI)
    assert r.exit_code == 3
    assert "second solution" in r.stdout
    assert "@" in r.stdout or "o" in r.stdout
    r = run("solve", DANCER)
    assert "██" in r.stdout


def test_timeout_unknown(tmp_path):
    import random

    from satnono.formats import dumps
    from satnono.model import Puzzle, default_palette

    # a random 36x40 two-colour picture at 47 % fill (issue 19's kind) that no settle has finished
    # in 30 s; the clues alone (its picture would be a first solution)
    rng = random.Random(5)
    pal = default_palette(2)
    chars = "".join(c.char for c in pal)[1:]
    grid = ["".join(rng.choice(chars) if rng.random() < 0.47 else "." for _ in range(40)) for _ in range(36)]
    clues = tmp_path / "hard-clues.json"
    clues.write_text(dumps(Puzzle.from_grid(grid, palette=pal, goal=None), "json"))
    r = run("check", "--timeout", "0.3", "--json", str(clues))
    assert r.exit_code == 5
    d = json.loads(r.stdout)
    assert d["status"] == "unknown" and d["seconds"] < 0.3 * 1.1 + 0.2


def test_solver_choice_and_bad_option():
    assert run("check", "--solver", "glucose4", EDGE).exit_code == 0
    r = run("check", "--solver", "nosuch", EDGE)
    assert r.exit_code == 2
    assert run("check", "--timeout", "-1", EDGE).exit_code == 2


def test_help_documents_exit_codes():
    r = run("check", "--help")
    assert r.exit_code == 0 and "Exit codes" in r.output and "6" in r.output


def test_convert_and_no_overwrite(tmp_path):
    out = tmp_path / "dancer.json"
    r = run("convert", DANCER, str(out))
    assert r.exit_code == 0, r.output
    d = json.loads(out.read_text())
    assert len(d["rows"]) == 10 and len(d["columns"]) == 5
    before = out.read_text()
    r = run("convert", EDGE, str(out))
    assert r.exit_code == 6 and "not overwritten" in r.stderr
    assert out.read_text() == before
    assert run("convert", "--force", EDGE, str(out)).exit_code == 0
    assert out.read_text() != before
    r = run("check", str(out))
    assert r.exit_code == 0


def test_convert_to_stdout_non():
    r = run("convert", DANCER, "-", "--to", "non")
    assert r.exit_code == 0 and "rows" in r.stdout and "columns" in r.stdout


def test_main_returns_code():
    from satnono.cli import main

    assert main(["check", DANCER]) == 0
    assert main(["check", "--bogus"]) == 2


def test_check_progress_goes_to_stderr_only():
    from satnono.cli import main
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["check", "--progress", DANCER, EDGE])
    assert code == 0
    assert [line.split(":")[0] for line in out.getvalue().splitlines()] == [DANCER, EDGE]
    assert "check" in err.getvalue() and "2/2" in err.getvalue()
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main(["check", DANCER]) == 0  # not a terminal: no bar by default
    assert err.getvalue() == ""


# --------------------------------------------------------------------------- every verb, both kinds

#: Per kind, a line-solvable puzzle with one solution, and an ambiguous one whose two solutions
#: (AMBIGUOUS and OTHER) differ in the top-left 2x2 square (SWAPPED), its last row settled.
UNIQUE = {"bw": ("##.", ".#.", "###"), "color": ("ab.", ".ba", "aab")}
AMBIGUOUS = {"bw": ("#..#", ".#.#", "..##"), "color": ("a.b", ".ab", "bb.")}
OTHER = {"bw": (".#.#", "#..#", "..##"), "color": (".ab", "a.b", "bb.")}
SWAPPED = [(0, 0), (0, 1), (1, 0), (1, 1)]
#: The palette's characters, background first.
CHARS = {"bw": ".#", "color": ".ab"}


def write(tmp_path: Path, grid, fmt: str = "non", name: str = "p") -> str:
    """The puzzle of ``grid`` in ``fmt``: black and white over '#', colour over 'a' and 'b'."""
    colour = "#" not in "".join(grid)
    p = Puzzle.from_grid(grid, palette=default_palette(2), name=name) if colour else Puzzle.from_grid(grid, name=name)
    assert p.is_color == colour
    path = tmp_path / f"{name}.{fmt}"
    data = dumps(p, fmt)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


@pytest.mark.parametrize("kind", KINDS)
def test_check_and_solve(tmp_path, kind):
    unique, ambiguous = UNIQUE[kind], AMBIGUOUS[kind]
    u, m = write(tmp_path, unique, name="u"), write(tmp_path, ambiguous, name="m")
    r = run("check", u, m)
    assert r.exit_code == 3 and "unique" in r.output and "multiple" in r.output
    r = run("check", "--json", u, m)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert rows[0]["solutions"] == [list(unique)] and rows[0]["colors"] == len(CHARS[kind]) - 1
    assert [c["char"] for c in rows[0]["palette"]] == list(CHARS[kind])
    assert rows[0]["palette"][1]["rgb"].startswith("#")
    a, b = rows[1]["solutions"]
    assert {tuple(a), tuple(b)} == {ambiguous, OTHER[kind]}
    assert sorted(map(tuple, rows[1]["diff"])) == SWAPPED
    r = run("solve", m)
    assert r.exit_code == 3 and "second solution" in r.output
    if kind == "color":  # not a terminal: the palette's characters, differing cells marked with '*'
        assert "a.b" in r.output and ("a*.*b" in r.output or ".*a*b" in r.output)
    else:  # blocks, differing cells shaded by what they are in the second solution
        assert "░░▓▓··██" in r.output or "▓▓░░··██" in r.output
    r = run("solve", "--ascii", u)
    assert r.exit_code == 0 and "\n".join(unique) in r.output


@pytest.mark.parametrize("kind", KINDS)
def test_count_classify_diagnose(tmp_path, kind):
    m = write(tmp_path, AMBIGUOUS[kind], name="m")
    r = run("count", "--json", m)
    d = json.loads(r.stdout)
    assert d["count"] == 2 and d["exact"] is True
    r = run("classify", "--json", m)
    assert json.loads(r.stdout.splitlines()[0])["class"] == "multiple"
    r = run("diagnose", "--json", m)
    d = json.loads(r.stdout)
    assert d["status"] == "multiple"
    assert sorted(map(tuple, d["ambiguous"])) == SWAPPED
    assert d["after_line"][2] == AMBIGUOUS[kind][2]  # settled cells in the palette's characters
    assert d["open_lines"]
    if kind == "color":
        assert all(o["colors"] for o in d["open_lines"])


@pytest.mark.parametrize("kind", KINDS)
def test_fix(tmp_path, kind):
    ambiguous = AMBIGUOUS[kind]
    m = write(tmp_path, ambiguous, name="m")
    r = run("fix", "--json", m)
    d = json.loads(r.stdout)
    assert d["status"] == "multiple" and d["givens_unique"]["count"] == 1
    g = d["givens_unique"]["givens"][0]
    assert ambiguous[g["row"]][g["col"]] == g["value"]
    assert d["edits"] and all(e["value"] in CHARS[kind] for e in d["edits"])
    r = run("fix", m)
    assert "givens for a unique solution" in r.output
    if kind == "color":
        assert "c1" in r.output or "black (a)" in r.output
    else:
        [line] = [x for x in r.output.splitlines() if x.startswith("givens for a unique solution")]
        assert line.endswith((" black", " white"))


@pytest.mark.parametrize("kind", KINDS)
def test_convert_to_picture_and_back(tmp_path, kind):
    u = write(tmp_path, UNIQUE[kind], name="u", fmt="xml")
    png = tmp_path / "u.png"
    r = run("convert", u, str(png))
    assert r.exit_code == 0, r.output
    r = run("check", "--json", str(png))
    assert json.loads(r.stdout)["solutions"] == [list(UNIQUE[kind])]


#: Per kind, a JSON puzzle without a solution.
NONE_JSON = {
    "bw": '{"rows": [[1], [1]], "columns": [[1], [0]]}',
    "color": '{"colors": {"a": "#ff0000", "b": "#0000ff"}, "rows": [["1a"]], "columns": [["1b"]]}',
}


@pytest.mark.parametrize("kind", KINDS)
def test_solve_draws_the_solution_in_its_colours(tmp_path, kind):
    from PIL import Image

    unique = UNIQUE[kind]
    u = write(tmp_path, unique, name="u")
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    r = run("solve", u, "--svg", str(svg), "--png", str(png), "--cell", "4")
    assert r.exit_code == 0, r.output
    img = Image.open(png).convert("RGB")
    assert img.size == (12, 12)
    pal = {c.char: c.rgb for c in load(u).palette}
    if kind == "color":
        assert pal == {c.char: c.rgb for c in default_palette(2)}
    assert set(pal) == set(CHARS[kind])
    for row, cells in enumerate(unique):
        for col, ch in enumerate(cells):
            assert img.getpixel((col * 4 + 1, row * 4 + 1)) == pal[ch]
    text = svg.read_text()
    assert text.count("<rect") == 1 + sum(ch != "." for row in unique for ch in row)
    for ch in CHARS[kind][1:]:
        assert "#{:02x}{:02x}{:02x}".format(*pal[ch]) in text
    # never overwritten without --force; nothing drawn for a puzzle without a solution
    r = run("solve", u, "--svg", str(svg))
    assert r.exit_code == 6 and "exists" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text(NONE_JSON[kind])
    r = run("solve", str(bad), "--png", str(tmp_path / "none.png"))
    assert r.exit_code == 4 and not (tmp_path / "none.png").exists()
    r = run("solve", u, u, "--png", str(tmp_path / "two.png"))
    assert r.exit_code == 2


# --------------------------------------------------------------------------- colour only

def test_generate_colors(tmp_path):
    r = run("generate", "--size", "8x6", "--count", "2", "--seed", "1", "--colors", "3")
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert len(lines) == 2
    for line in lines:
        d = json.loads(line)
        assert set(d["colors"]) == {"a", "b", "c"}
    out = tmp_path / "gen"
    r = run("generate", "--size", "8x6", "--count", "2", "--seed", "1", "--colors", "3", "--out", str(out),
            "--format", "non")
    assert r.exit_code == 0
    files = sorted(out.iterdir())
    assert len(files) == 2
    p = load(str(files[0]))
    assert p.is_color and p.ncolors <= 3
    assert run("check", *map(str, files)).exit_code == 0
    r = run("generate", "--size", "8x6", "--count", "1", "--seed", "1", "--colors", "2", "--out", str(tmp_path / "x"),
            "--format", "pbm")
    assert r.exit_code == 2 and "black and white only" in r.output


def test_diagnose_pictures_and_map_in_colour(tmp_path):
    from PIL import Image

    m = write(tmp_path, AMBIGUOUS["color"], name="m")
    svg, png = tmp_path / "d.svg", tmp_path / "d.png"
    r = run("diagnose", m, "--svg", str(svg), "--png", str(png))
    assert r.exit_code == 3, r.output
    pal = load(m).palette  # (.non names its colours by RGB)
    text = svg.read_text()
    for c in pal[1:]:
        assert c.hex in text and f"{c.name} ({c.char})" in text  # cells and legend in the puzzle's colours
    assert Image.open(png).size[0] > 50
    # the text map shows settled cells as their colour's character: row 3 is "bb." in every solution
    lines = r.output.splitlines()
    assert any(line.startswith("bbbb··") for line in lines)
    assert f"legend: a {pal[1].name}, b {pal[2].name}" in r.output


def test_background_colour_of_pictures(tmp_path):
    """A level image on green: --background names the colour that is not a block."""
    from PIL import Image

    img = Image.new("RGB", (3, 2), (0, 255, 0))
    img.putpixel((0, 0), (255, 0, 0))
    img.putpixel((2, 1), (0, 0, 255))
    img.putpixel((1, 1), (0, 0, 255))
    path = tmp_path / "level.png"
    img.save(path)
    r = run("--background", "#00ff00", "check", "--json", str(path))
    d = json.loads(r.stdout)
    assert r.exit_code == 0 and d["colors"] == 2
    assert d["solutions"] == [["a..", ".bb"]]
    r = run("check", "--json", str(path))  # white background: green is a block colour too
    assert json.loads(r.stdout)["colors"] == 3
    r = run("--background", "nosuchcolour", "check", str(path))
    assert r.exit_code == 2 and "--background" in r.output
