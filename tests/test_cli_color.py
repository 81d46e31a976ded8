"""Every verb of the command line on colour input."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from satnono.cli import cli
from satnono.formats import dumps, load
from satnono.model import Puzzle, default_palette

AMBIGUOUS = ("a.b", ".ab", "bb.")  # the a/. swap in the top-left corner: two solutions
UNIQUE = ("ab.", ".ba", "aab")


def run(*args, input=None):
    return CliRunner().invoke(cli, list(args), input=input)


def write(tmp_path: Path, grid, fmt: str = "non", name: str = "p") -> str:
    p = Puzzle.from_grid(grid, palette=default_palette(2), name=name)
    path = tmp_path / f"{name}.{fmt}"
    data = dumps(p, fmt)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())
    return str(path)


def test_check_and_solve(tmp_path):
    u, m = write(tmp_path, UNIQUE, name="u"), write(tmp_path, AMBIGUOUS, name="m")
    r = run("check", u, m)
    assert r.exit_code == 3 and "unique" in r.output and "multiple" in r.output
    r = run("check", "--json", u, m)
    rows = [json.loads(x) for x in r.stdout.splitlines()]
    assert rows[0]["solutions"] == [list(UNIQUE)] and rows[0]["colors"] == 2
    assert [c["char"] for c in rows[0]["palette"]] == [".", "a", "b"]
    assert rows[0]["palette"][1]["rgb"].startswith("#")
    a, b = rows[1]["solutions"]
    assert {tuple(a), tuple(b)} == {AMBIGUOUS, (".ab", "a.b", "bb.")}
    assert sorted(map(tuple, rows[1]["diff"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    # not a terminal: the palette's characters, differing cells marked with '*'
    r = run("solve", m)
    assert r.exit_code == 3
    assert "a.b" in r.output and ("a*.*b" in r.output or ".*a*b" in r.output)
    r = run("solve", "--ascii", u)
    assert r.exit_code == 0 and "\n".join(UNIQUE) in r.output


def test_count_classify_diagnose(tmp_path):
    m = write(tmp_path, AMBIGUOUS, name="m")
    r = run("count", "--json", m)
    d = json.loads(r.stdout)
    assert d["count"] == 2 and d["exact"] is True
    r = run("classify", "--json", m)
    assert json.loads(r.stdout.splitlines()[0])["class"] == "multiple"
    r = run("diagnose", "--json", m)
    d = json.loads(r.stdout)
    assert d["status"] == "multiple"
    assert sorted(map(tuple, d["ambiguous"])) == [(0, 0), (0, 1), (1, 0), (1, 1)]
    assert d["after_line"][2] == "bb."  # settled cells in the palette's characters
    assert all(o["colors"] for o in d["open_lines"])


def test_fix(tmp_path):
    m = write(tmp_path, AMBIGUOUS, name="m")
    r = run("fix", "--json", m)
    d = json.loads(r.stdout)
    assert d["status"] == "multiple" and d["givens_unique"]["count"] == 1
    g = d["givens_unique"]["givens"][0]
    assert AMBIGUOUS[g["row"]][g["col"]] == g["value"]
    assert d["edits"] and all(e["value"] in ".ab" for e in d["edits"])
    r = run("fix", m)
    assert "givens for a unique solution" in r.output and ("c1" in r.output or "black (a)" in r.output)


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


def test_convert_to_picture_and_back(tmp_path):
    u = write(tmp_path, UNIQUE, name="u", fmt="xml")
    png = tmp_path / "u.png"
    r = run("convert", u, str(png))
    assert r.exit_code == 0, r.output
    r = run("check", "--json", str(png))
    assert json.loads(r.stdout)["solutions"] == [list(UNIQUE)]


def test_solve_draws_the_solution_in_its_colours(tmp_path):
    from PIL import Image

    u = write(tmp_path, UNIQUE, name="u")
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    r = run("solve", u, "--svg", str(svg), "--png", str(png), "--cell", "4")
    assert r.exit_code == 0, r.output
    img = Image.open(png).convert("RGB")
    assert img.size == (12, 12)
    pal = {c.char: c.rgb for c in default_palette(2)}
    for row, cells in enumerate(UNIQUE):
        for col, ch in enumerate(cells):
            assert img.getpixel((col * 4 + 1, row * 4 + 1)) == pal[ch]
    text = svg.read_text()
    assert text.count("<rect") == 1 + sum(ch != "." for row in UNIQUE for ch in row)
    assert "#%02x%02x%02x" % pal["b"] in text
    # never overwritten without --force; nothing drawn for a puzzle without a solution
    r = run("solve", u, "--svg", str(svg))
    assert r.exit_code == 6 and "exists" in r.output
    bad = tmp_path / "bad.json"
    bad.write_text('{"colors": {"a": "#ff0000", "b": "#0000ff"}, "rows": [["1a"]], "columns": [["1b"]]}')
    r = run("solve", str(bad), "--png", str(tmp_path / "none.png"))
    assert r.exit_code == 4 and not (tmp_path / "none.png").exists()
    r = run("solve", u, u, "--png", str(tmp_path / "two.png"))
    assert r.exit_code == 2


def test_diagnose_pictures_and_map_in_colour(tmp_path):
    from PIL import Image

    m = write(tmp_path, AMBIGUOUS, name="m")
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
