"""The editor's library calls (satnono.web.session) and the level format, without HTTP (but for
one test of the colour API through HTTP), for black-and-white and colour pictures: documents and
palettes, verdicts and counts against brute force, fix proposals, files, and the Editor.

Where a test holds for every kind of picture it is parametrized over ``kind`` (``bw``, ``color``);
the tests that stay specific to one kind are about what only that kind has (the level format is
black and white; palettes are colour)."""

from __future__ import annotations

import base64
import io
import os
import warnings
import zipfile
from pathlib import Path

import pytest
from _oracles import (
    brute_force_solutions,
    brute_line,
    bw_line_placements,
    color_line_placements,
    grid_solutions,
)
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.errors import ParseError
from satnono.formats import dumps, load, loads
from satnono.formats import level as levelfmt
from satnono.model import Color, Puzzle, default_palette, grid_diff
from satnono.report import palette_list
from satnono.web import session
from satnono.web.session import DocError, Editor

SWITCH = ["#.", ".#"]
ROOT = Path(__file__).resolve().parents[1]
COLOR_FILES = [ROOT / "puzzles" / "satnono" / "colour-search-10x10.non", ROOT / "puzzles" / "webpbn" / "webpbn-color-00047.xml"]


def doc(grid, rows=None, cols=None, **kw):
    """A black-and-white document (no palette)."""
    return {"grid": list(grid), "row_clues": rows, "column_clues": cols, **kw}


def pal(k: int) -> list[dict[str, str]]:
    return palette_list(default_palette(k))


def cdoc(grid, k=2, rows=None, cols=None, **kw):
    """A colour document with the default palette of ``k`` colours ('a', 'b', ...)."""
    return {"grid": list(grid), "palette": pal(k), "row_clues": rows, "column_clues": cols, **kw}



# ---------------------------------------------------------------------------
# documents and palettes


def test_puzzle_of_derives_clues_and_keeps_the_picture_as_goal():
    p = session.puzzle_of(doc(["##.", "..#"]))
    assert p.rows == ((2,), (1,)) and p.columns == ((1,), (1,), (1,))
    assert p.goal == ("##.", "..#")


def test_typed_clues_override_and_a_mismatching_picture_is_no_goal():
    p = session.puzzle_of(doc(["...", "..."], rows=[[3], None], cols=[None, [0], None]))
    assert p.rows == ((3,), ()) and p.columns == ((), (), ())
    assert p.goal is None
    same = session.puzzle_of(doc(["###", "..."], rows=[[3], None]))
    assert same.goal == ("###", "...")


@pytest.mark.parametrize("bad, words", [
    ({"grid": []}, "non-empty"),
    ({"grid": ["#.", "#"]}, "row 2 has 1 cells"),
    ({"grid": ["#x"]}, "characters"),
    ({"grid": ["." * 101]}, "1 to 100"),
    ({"grid": ["."] * 101}, "1 to 100"),
    ({"grid": ["#."], "row_clues": [[1], [1]]}, "list of 1 entries"),
    ({"grid": ["#."], "row_clues": [["1"]]}, "block lengths"),
    ({"grid": ["#."], "row_clues": [[-1]]}, "block lengths"),
    ({"grid": ["#."], "row_clues": [[True]]}, "block lengths"),
    ({"grid": ["#."], "column_clues": "12"}, "list of 2 entries"),
    ({"grid": ["#."], "name": 3}, "name"),
    ({"grid": ["#."], "meta": [["a"]]}, "meta"),
    ({"grid": ["#."], "level": 1}, "level"),
    ("grid", "JSON object"),
])
def test_malformed_documents_are_refused_with_a_message(bad, words):
    with pytest.raises(DocError, match=words):
        session.puzzle_of(bad)


@pytest.mark.parametrize("path", COLOR_FILES, ids=lambda p: p.name)
def test_bundled_colour_puzzles_open_with_their_palette(path):
    p = load(str(path))
    d = session.doc_of(p)
    assert [(e["name"], e["rgb"]) for e in d["palette"]] == [(c.name, c.hex) for c in p.palette]
    q = session.puzzle_of(d)
    assert q.goal is not None and p.is_solution(q.goal) and q.is_color
    assert q.row_colors == p.row_colors and q.column_colors == p.column_colors


def test_palette_characters_a_clue_cannot_type_are_replaced():
    odd = (default_palette(1)[0], Color("red", "1", (255, 0, 0)), Color("green", ",", (0, 200, 0)), Color("blue", "b", (0, 0, 255)))
    p = Puzzle.from_grid(["1,b", "b.1"], palette=odd)
    d = session.doc_of(p)
    chars = [e["char"] for e in d["palette"]]
    assert chars[3] == "b" and all(session.editable_char(ch) for ch in chars[1:]) and len(set(chars)) == 4
    q = session.puzzle_of(d)
    assert q.row_colors == p.row_colors and q.goal is not None
    # a one-colour palette keeps its own character, name and RGB in the editor (issue 20)
    navy = Puzzle.from_grid(["x.", ".x"], palette=(odd[0], Color("navy", "x", (0, 0, 128))))
    d1 = session.doc_of(navy)
    assert d1["grid"] == ["x.", ".x"] and d1["palette"][1] == {"name": "navy", "char": "x", "rgb": "#000080"}
    back = session.puzzle_of(d1)
    assert back.palette == navy.palette and back.goal == navy.goal
    verdict = session.analyze(d1)
    assert verdict["status"] == "multiple"


BAD_PALETTES = [
    ("red", "palette must list"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}], "palette must list"),
    ([{"name": f"c{i}", "char": ".", "rgb": "#ffffff"} for i in range(35)], "palette must list"),
    ([{"name": "white", "char": "x", "rgb": "#ffffff"}, {"name": "a", "char": "a", "rgb": "#000000"},
      {"name": "b", "char": "b", "rgb": "#000000"}], "background"),
    ([{"name": "white", "char": ".", "rgb": "#fff"}, {"name": "a", "char": "a"}], "name, char and rgb"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "a", "rgb": "red"}], "malformed RGB"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "a", "rgb": "#12345"}], "malformed RGB"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "a", "rgb": "#ff00ff00"}], "malformed RGB"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "", "char": "a", "rgb": "#000000"}], "name"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "x" * 41, "char": "a", "rgb": "#000000"}], "name"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "1", "rgb": "#000000"},
      {"name": "b", "char": "b", "rgb": "#000000"}], "cannot be typed"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "?", "rgb": "#000000"},
      {"name": "b", "char": "b", "rgb": "#000000"}], "reserved"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "ab", "rgb": "#000000"},
      {"name": "b", "char": "b", "rgb": "#000000"}], "one character"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "b", "rgb": "#000000"},
      {"name": "b", "char": "b", "rgb": "#000000"}], "two colours use"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, {"name": "a", "char": "a", "rgb": "#000000"},
      {"name": "a", "char": "b", "rgb": "#000000"}], "two colours are named"),
    ([{"name": "white", "char": ".", "rgb": "#ffffff"}, 7], "name, char and rgb"),
]


@pytest.mark.parametrize("palette, words", BAD_PALETTES)
def test_malformed_palettes_are_refused(palette, words):
    with pytest.raises(DocError, match=words):
        session.puzzle_of({"grid": ["."], "palette": palette})


@pytest.mark.parametrize("bad, words", [
    (cdoc(["a#"]), "characters other than"),
    (cdoc(["ab"], rows=[[[1, "z"]]]), "colour the palette does not have"),
    (cdoc(["ab"], rows=[[[1, "a", 2]]]), "block lengths"),
    (cdoc(["ab"], rows=[[["1", "a"]]]), "block lengths"),
    (cdoc(["ab"], rows=[[[1, 2]]]), "block lengths"),
    (cdoc(["ab"], rows=[[[101, "a"]]]), "block lengths"),
])
def test_malformed_colour_documents_are_refused(bad, words):
    with pytest.raises(DocError, match=words):
        session.puzzle_of(bad)


# ---------------------------------------------------------------------------
# verdicts and fix proposals against brute force


@pytest.mark.parametrize("kind", ["bw", "color"])
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_analyze_agrees_with_brute_force(kind, data):
    """Black and white up to 4x4, colour up to 4x3 in 2 or 3 colours: the verdict, the marked cells,
    the cells line logic settled and every count shown against the kind's brute-force oracle."""
    w = data.draw(st.integers(1, 4), label="w")
    if kind == "bw":
        h, chars = data.draw(st.integers(1, 4), label="h"), "#."
    else:
        h, k = data.draw(st.integers(1, 3), label="h"), data.draw(st.integers(2, 3), label="k")
        chars = ".abc"[: k + 1]
    grid = ["".join(data.draw(st.sampled_from(chars), label="cell") for _ in range(w)) for _ in range(h)]
    if kind == "bw":
        res = session.analyze(doc(grid))
        p = Puzzle.from_grid(grid)
        sols = brute_force_solutions(p)

        def placements(axis, i, n):
            return bw_line_placements(p.rows[i] if axis == "row" else p.columns[i], n)
    else:
        res = session.analyze(cdoc(grid, k))
        p = Puzzle.from_grid(grid, palette=default_palette(k))
        sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors)

        def placements(axis, i, n):
            return [x for x, _ in color_line_placements(*p.line(axis, i), n)]
    assert tuple(grid) in sols and res["picture_ok"]
    assert res["status"] == ("unique" if len(sols) == 1 else "multiple")
    # the marked cells are where two of the solutions differ
    diffs = {tuple(grid_diff(a, b)) for a in sols for b in sols if a != b}
    assert tuple(tuple(c) for c in res["ambiguous"]) in diffs or (not diffs and not res["ambiguous"])
    if res["line_solvable"]:
        assert res["left"] == 0 and len(sols) == 1
    # the cells line logic settled are those where every solution agrees (or fewer)
    open_cells = {tuple(c) for c in res["undetermined"]}
    for r in range(h):
        for c in range(w):
            if (r, c) not in open_cells:
                assert all(s[r][c] == grid[r][c] for s in sols)
    # every count shown is the number of the line's placements that agree with what line logic settled
    # (in colour also the colours it ruled out of cells it did not settle: the brute-force fixpoint)
    ruled_out = _brute_line_fixpoint(p, k) if kind == "color" else None
    for axis, counts, n_lines, n in (("row", res["row_counts"], h, w), ("column", res["column_counts"], w, h)):
        assert len(counts) == n_lines
        for i, count in enumerate(counts):
            line = grid[i] if axis == "row" else "".join(row[i] for row in grid)
            cell = (lambda j, i=i: (i, j)) if axis == "row" else (lambda j, i=i: (j, i))
            fits = [x for x in placements(axis, i, n)
                    if all(x[j] == line[j] or cell(j) in open_cells for j in range(n))]
            if ruled_out is not None:
                fits = [x for x in fits if not any(_value(x[j]) in ruled_out[cell(j)] for j in range(n))]
            assert count == (str(len(fits)) if len(fits) > 1 else None), (axis, i, fits)


def _value(ch: str) -> int:
    """The value of an oracle's cell character ('.' background, 'a' colour 1, ...)."""
    return 0 if ch == "." else ord(ch) - ord("a") + 1


def _brute_line_fixpoint(p: Puzzle, k: int) -> dict[tuple[int, int], set[int]]:
    """Per cell, the values line logic rules out, by the brute-force line solver run to a fixpoint."""
    out: dict[tuple[int, int], set[int]] = {(r, c): set() for r in range(p.height) for c in range(p.width)}
    lines = [(("row", i), p.width, lambda j, i=i: (i, j)) for i in range(p.height)]
    lines += [(("column", i), p.height, lambda j, i=i: (j, i)) for i in range(p.width)]
    changed = True
    while changed:
        changed = False
        for (axis, i), n, cell in lines:
            excluded = tuple(sum(1 << j for j in range(n) if v in out[cell(j)]) for v in range(k + 1))
            found = brute_line(*p.line(axis, i), n, excluded)
            assert found is not None  # the picture is a solution
            for v, mask in enumerate(found[0]):
                for j in range(n):
                    if (mask >> j) & 1 and v not in out[cell(j)]:
                        out[cell(j)].add(v)
                        changed = True
    return out


def test_analyze_switch_and_no_solution():
    r = session.analyze(doc(SWITCH))
    assert r["status"] == "multiple" and r["row_counts"] == ["2", "2"] and len(r["ambiguous"]) == 4
    none = session.analyze(doc(["...", "..."], rows=[[3], None]))
    assert none["status"] == "none" and "black cells" in none["reason"]
    assert none["picture_ok"] is False
    cannot_fit = session.analyze(doc(["...", "..."], rows=[[2, 1], None]))
    assert cannot_fit["status"] == "none" and ["row", 0] in cannot_fit["conflict"]


def test_color_typed_clues_and_no_solution():
    # two blocks of different colours may touch; the same colour needs a gap
    d = cdoc(["...", "..."], rows=[[[1, "a"], [2, "b"]], [[3, "b"]]], cols=None)
    p = session.puzzle_of(d)
    assert p.row_blocks(0) == ((1, 1), (2, 2)) and p.goal is None
    r = session.analyze(d)
    assert r["status"] == "none" and r["picture_ok"] is False
    ok = cdoc(["abb", "..."], rows=[[[1, "a"], [2, "b"]], None])
    assert session.puzzle_of(ok).goal == ("abb", "...")
    assert session.analyze(ok)["status"] == "unique"
    # a plain length is a block of the first colour
    assert session.puzzle_of(cdoc(["...", "..."], rows=[[2], None])).row_blocks(0) == ((2, 1),)


def test_analyze_reports_unknown_at_the_time_limit():
    p = load(os.path.join(os.path.dirname(__file__), "..", "puzzles", "webpbn", "webpbn-00065.xml"))
    d = session.doc_of(p)
    r = session.analyze(d, timeout=1e-6)
    assert r["status"] == "unknown" and r["timeout"] == 1e-6
    full = session.analyze(d)
    assert full["status"] == "unique" and not full["line_solvable"] and full["left"] == 810
    assert any(full["row_counts"]) and any(full["column_counts"])


def test_propose_edits_each_make_the_picture_unique():
    grid = ["#.....", ".#....", "......", "..##..", "......", "......"]
    res = session.propose(doc(grid))
    assert res["status"] == "multiple" and res["edits"]
    for e in res["edits"]:
        g = [list(r) for r in grid]
        g[e["row"]][e["col"]] = "#" if e["black"] else "."
        g2 = ["".join(r) for r in g]
        assert len(brute_force_solutions(Puzzle.from_grid(g2), limit=2)) == 1
    assert res["givens_unique"]["count"] >= 1
    skipped = session.propose(doc(["...", "..."], rows=[[3], None]))
    assert skipped["status"] == "skipped" and not skipped["edits"]


def test_color_fix_proposals_set_a_cell_to_another_colour_and_each_is_verified():
    grid = ["a.bb", ".abb", "....", "...."]  # a 2x2 switch of colour a beside colour b
    d = cdoc(grid, 3)
    r = session.analyze(d)
    assert r["status"] == "multiple" and len(r["ambiguous"]) == 4
    res = session.propose(d)
    assert res["status"] == "multiple" and res["edits"]
    for e in res["edits"]:
        assert e["char"] in ".abc" and e["char"] != grid[e["row"]][e["col"]]
        assert e["black"] == (e["char"] != ".")
        g = [list(row) for row in grid]
        g[e["row"]][e["col"]] = e["char"]
        after = session.analyze(cdoc(["".join(row) for row in g], 3))
        assert after["status"] == "unique" and after["line_solvable"] == e["line_solvable"]
    for key in ("givens_unique", "givens_line"):
        for gv in (res[key] or {"givens": []})["givens"]:
            assert gv["char"] == grid[gv["row"]][gv["col"]]


# ---------------------------------------------------------------------------
# files


def test_export_every_format_reads_back():
    d = doc(["##..#", ".#.##", "#####"], name="A test: picture")
    for fmt in session.SAVE_FORMATS:
        name, data = session.export(d, fmt)
        assert name.startswith("A-test--picture") or name.startswith("A-test")
        if fmt == "level":
            with zipfile.ZipFile(io.BytesIO(data)) as z:
                stem = name[:-4]
                assert sorted(z.namelist()) == sorted(stem + s for s in (".level", ".pbm", ".ppm"))
                p = levelfmt.parse(z.read(stem + ".level"), z.read(stem + ".pbm"), stem + ".level")
                assert z.read(stem + ".ppm").startswith(b"P6\n5 3\n255\n")
        else:
            p = loads(data, fmt, source=name)[0]
        assert p.is_solution(d["grid"]), fmt
    with pytest.raises(DocError, match="cannot write"):
        session.export(d, "g")
    with pytest.raises(DocError, match="does not match the typed clues"):
        session.export(doc(["...", "..."], rows=[[3], None]), "pbm")


@pytest.mark.parametrize("fmt", ["json", "non", "xml", "ppm", "png"])
def test_colour_export_reads_back_with_its_palette(fmt):
    d = session.doc_of(load(str(COLOR_FILES[0])))
    d["palette"][2]["name"] = "tomato"
    d["palette"][2]["rgb"] = "#ff6347"
    name, data = session.export(d, fmt)
    back = loads(data, fmt, source=name)[0]
    mine = session.puzzle_of(d)

    def rgb_picture(p):  # readers may order and name colours their own way: compare what is seen
        rgb = {c.char: c.rgb for c in p.palette}
        return [[rgb[ch] for ch in row] for row in p.goal]

    assert rgb_picture(back) == rgb_picture(mine)
    assert sorted(c.rgb for c in back.palette[1:]) == sorted(c.rgb for c in mine.palette[1:])
    if fmt in ("json", "xml"):
        assert "tomato" in [c.name for c in back.palette]


@pytest.mark.parametrize("fmt, words", [("nin", "black-and-white puzzles only"), ("pbm", "black-and-white puzzles only"),
                                        ("level", "level's picture is a black-and-white PBM")])
def test_black_and_white_formats_refuse_a_colour_picture(fmt, words, tmp_path):
    d = cdoc(["ab", "b."])
    with pytest.raises(DocError, match=words):
        session.export(d, fmt)
    ed = Editor(str(tmp_path / "new.non"))
    with pytest.raises(DocError, match=words):
        ed.save_as(d, "pic" + ("" if fmt == "level" else "." + fmt), fmt)
    assert os.listdir(tmp_path) == []  # nothing written, not even a level's reward image


def test_open_bytes_single_file_level_trio_and_errors():
    d = session.open_bytes([("x.non", b"width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")])
    assert session.puzzle_of(d).rows == ((1,), (1,)) and d["format"] == "non"
    assert d["row_clues"] == [None, None]  # a solution became the picture
    pbm = b"P1\n2 2\n1 0\n0 1\n"
    d = session.open_bytes([("l.level", b"1"), ("l.pbm", pbm), ("l.ppm", b"P6\n1 1\n255\n\0\0\0")])
    assert d["level"]["completed"] is True and d["grid"] == SWITCH
    assert base64.b64decode(d["level"]["ppm"]) == b"P6\n1 1\n255\n\0\0\0"
    with pytest.raises(DocError, match="l.pbm too"):
        session.open_bytes([("l.level", b"1")])
    with pytest.raises(ParseError, match="0 or 1"):
        session.open_bytes([("l.level", b"2"), ("l.pbm", pbm)])
    with pytest.raises(ParseError, match="not a PPM"):
        session.open_bytes([("l.level", b"0"), ("l.pbm", pbm), ("l.ppm", b"GIF89a")])
    with pytest.raises(ParseError, match="bad.non:2"):
        session.open_bytes([("bad.non", b"width 2\nheight x\n")])
    with pytest.raises(DocError, match="holds 2 puzzles"):
        session.open_bytes([("two.json", b'[{"rows": [[1]], "columns": [[1]]}, {"rows": [[1]], "columns": [[1]]}]')])
    with pytest.raises(DocError, match="1 to 100"):
        session.open_bytes([("big.txt", ("#" * 101 + "\n").encode())])


def test_clue_only_file_without_solution_opens_with_typed_clues():
    d = session.open_bytes([("x.non", b"width 2\nheight 2\nrows\n2\n0\ncolumns\n1\n0\n")])
    assert d["grid"] == ["..", ".."] and d["row_clues"] == [[2], []] and d["column_clues"] == [[1], []]
    assert session.analyze(d)["status"] == "none"


def test_a_clue_only_colour_file_opens_with_typed_colour_clues():
    text = "width 2\nheight 1\ncolor a #ff0000\ncolor b #0000ff\nrows\n1a 1b\ncolumns\n1a\n1a\n"
    d = session.open_bytes([("x.non", text.encode())])
    assert d["row_clues"] == [[[1, "a"], [1, "b"]]] and d["grid"] == [".."]
    assert session.analyze(d)["status"] == "none"


def test_level_format_read_write_keeps_unchanged_bytes(tmp_path):
    pbm = b"P4\n3 2\n" + bytes([0b10100000, 0b01000000])
    (tmp_path / "a.level").write_bytes(b" 0 \n")
    (tmp_path / "a.pbm").write_bytes(pbm)
    (tmp_path / "a.ppm").write_bytes(b"P3\n1 1\n255\n1 2 3\n")
    p = load(str(tmp_path / "a.level"))
    assert p.goal == ("#.#", ".#.") and not levelfmt.completed(p) and p.name == "a"
    files = levelfmt.write_files(p, None, b" 0 \n", pbm)
    assert files[".level"] == b" 0 \n" and files[".pbm"] == pbm
    with pytest.raises(FileExistsError):
        levelfmt.save(p, str(tmp_path / "a.level"))
    done = Puzzle(p.rows, p.columns, p.name, p.goal, (("completed", "1"),))
    levelfmt.save(done, str(tmp_path / "a.level"), overwrite=True, old_level=b" 0 \n", old_pbm=pbm)
    assert (tmp_path / "a.level").read_bytes() == b"1\n"
    assert (tmp_path / "a.pbm").read_bytes() == pbm  # same picture: kept as P4
    assert (tmp_path / "a.ppm").read_bytes() == b"P3\n1 1\n255\n1 2 3\n"
    (tmp_path / "b.level").write_bytes(b"0\n")
    with pytest.raises(ParseError, match="b.pbm: the level's picture"):
        load(str(tmp_path / "b.level"))
    (tmp_path / "c.level").write_bytes(b"\n\nyes\n")
    (tmp_path / "c.pbm").write_bytes(pbm)
    with pytest.raises(ParseError, match=r"c.level:3: a .level file holds 0 or 1"):
        load(str(tmp_path / "c.level"))


def test_colour_level_save_over_an_existing_level_is_refused_before_asking(tmp_path):
    for name, data in (("cat.level", b"0\n"), ("cat.pbm", b"P1\n2 1\n1 0\n")):
        (tmp_path / name).write_bytes(data)
    ed = Editor(str(tmp_path / "cat.level"))
    with pytest.raises(DocError, match="black-and-white PBM"):
        ed.save_as(cdoc(["ab"]), "cat.level", "level", overwrite=False)  # not "exists": the picture cannot go there
    assert (tmp_path / "cat.pbm").read_bytes() == b"P1\n2 1\n1 0\n"


# ---------------------------------------------------------------------------
# the Editor: what it may write


def test_editor_new_file_is_created_on_save(tmp_path):
    path = tmp_path / "new.non"
    ed = Editor(str(path))
    d = ed.initial()
    assert d["grid"] == ["." * 10] * 10 and d["name"] == "new"
    d["grid"][0] = "##" + "." * 8
    ed.save(d)
    assert load(str(path)).goal[0] == "##" + "." * 8


def test_editor_save_as_stays_in_its_folder(tmp_path):
    src = tmp_path / "p.non"
    src.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    (tmp_path / "sub").mkdir()
    ed = Editor(str(src))
    d = ed.initial()
    for bad in ("../x.non", "/tmp/x.non", "sub/../../x.non", "", "~/x.non", "nodir/x.non"):
        with pytest.raises(DocError):
            ed.save_as(d, bad)
    os.symlink("/tmp", tmp_path / "out")
    with pytest.raises(DocError, match="outside"):
        ed.save_as(d, "out/x.non")
    with pytest.raises(DocError, match="cannot tell the format"):
        ed.save_as(d, "x.unknown")
    with pytest.raises(FileExistsError):
        ed.save_as(d, "p.non")
    assert src.read_text().startswith("width 2")  # untouched
    path = ed.save_as(d, "sub/copy.json")
    assert load(path).is_solution(d["grid"]) and ed.path == path
    ed.save_as(d, "p.non", overwrite=True)
    assert "goal" in src.read_text()


def test_editor_refuses_to_save_over_a_multi_puzzle_file(tmp_path):
    f = tmp_path / "two.json"
    f.write_text('[{"rows": [[1]], "columns": [[1]]}, {"rows": [[0]], "columns": [[0]]}]')
    with pytest.raises(DocError, match="FILE#k"):
        Editor(str(f)).initial()
    ed = Editor(f"{f}#2")
    d = ed.initial()
    assert d["grid"] == ["."]
    with pytest.raises(DocError, match="one of several"):
        ed.save(d)
    with pytest.raises(DocError, match="no file was named"):
        Editor().save(d)
    g = tmp_path / "p.g"  # a read-only format's name (the content is sniffed: JSON)
    g.write_text('{"rows": [[1]], "columns": [[1]]}')
    ed = Editor(str(g))
    with pytest.raises(DocError, match="cannot write format 'g'"):
        ed.save(ed.initial())
    assert g.read_text().startswith("{")


def test_editor_new_level_is_created_with_a_reward_image(tmp_path):
    ed = Editor(str(tmp_path / "new.level"))
    d = ed.initial()
    assert d["level"]["completed"] is False and d["format"] == "level"
    d["grid"][0] = "#" * 10
    d["level"]["completed"] = True
    ed.save(d)
    p = load(str(tmp_path / "new.level"))
    assert p.goal[0] == "#" * 10 and levelfmt.completed(p)
    assert (tmp_path / "new.ppm").read_bytes().startswith(b"P6\n10 10\n255\n")


def test_save_colour_json_and_open_it_again(tmp_path):
    d = session.doc_of(load(str(COLOR_FILES[1])))
    ed = Editor(str(tmp_path / "pic.json"))
    path = ed.save(d)
    again = Editor(path).initial()
    assert again["grid"] == d["grid"] and again["palette"] == d["palette"]


def test_revealed_cells_count_in_the_verdict_and_travel_in_json(tmp_path):
    """Revealed cells ("givens" in a document: cells whose value the player sees) take part in the
    verdict, are saved in JSON only and come back when the file is opened."""
    doc = {"grid": ["#..", "..#", ".#."]}  # a permutation matrix: six solutions
    p = session.puzzle_of(doc)
    sols = brute_force_solutions(p)
    assert len(sols) > 1 and session.analyze(doc)["status"] == "multiple"
    # reveal every cell where the solutions differ: the verdict becomes unique
    cells = sorted({(r, c) for s in sols for r in range(3) for c in range(3) if s[r][c] != doc["grid"][r][c]})
    doc["givens"] = [[r, c] for r, c in cells]
    q = session.puzzle_of(doc)
    assert q.givens == tuple((r, c, 1 if doc["grid"][r][c] == "#" else 0) for r, c in cells)
    assert session.analyze(doc)["status"] == "unique"
    name, data = session.export(doc, "json")
    back = loads(data.decode(), source=name)[0]
    assert back.givens == q.givens
    reopened = session.doc_of(back)
    assert sorted(map(tuple, reopened["givens"])) == cells
    with pytest.raises(DocError, match="revealed"):
        session.export(doc, "non")
    with pytest.raises(DocError, match="revealed"):
        Editor(str(tmp_path / "x.level")).save_as(doc, "x.level", "level")
    for bad in ([[0, 9]], [[0]], "x", [[0, True]]):
        with pytest.raises(DocError, match="givens"):
            session.puzzle_of({"grid": ["#..", "..#", ".#."], "givens": bad})


# ---------------------------------------------------------------------------
# one validation, one read, one verification


def test_analyze_and_propose_take_the_validated_puzzle_as_well_as_the_document():
    d = doc(SWITCH)
    p = session.puzzle_of(d)
    a, b = session.analyze(p), session.analyze(d)
    assert {k: v for k, v in a.items() if k != "seconds"} == {k: v for k, v in b.items() if k != "seconds"}
    f, g = session.propose(p), session.propose(d)
    assert [(e["row"], e["col"], e["char"]) for e in f["edits"]] == [(e["row"], e["col"], e["char"]) for e in g["edits"]]


def test_editor_reads_its_file_once_until_the_file_changes(tmp_path, monkeypatch):
    src = tmp_path / "p.non"
    src.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    reads = []
    real = session.load_all
    monkeypatch.setattr(session, "load_all", lambda *a, **k: reads.append(a) or real(*a, **k))
    ed = Editor(str(src))
    first = ed.initial()
    first["grid"][0] = "##"  # the caller's copy: the kept document does not change
    again = ed.initial()
    assert len(reads) == 1 and again["grid"] in (["#.", ".#"], [".#", "#."])
    ed.save({"grid": ["##", ".."]})
    assert ed.initial()["grid"] == ["##", ".."] and len(reads) == 3  # save counts the file's puzzles, then a new read


def test_editor_reads_a_level_once(tmp_path, monkeypatch):
    (tmp_path / "a.level").write_bytes(b"1\n")
    (tmp_path / "a.pbm").write_bytes(b"P1\n2 2\n1 0\n0 1\n")
    reads = []
    real = session.read_bytes
    monkeypatch.setattr(session, "read_bytes", lambda path: reads.append(path) or real(path))
    ed = Editor(str(tmp_path / "a.level"))
    assert ed.initial() == ed.initial() and len(reads) == 2  # the .level and the .pbm, once each
    (tmp_path / "a.ppm").write_bytes(b"P6\n1 1\n255\n\0\0\0")  # a new reward image is a change
    assert ed.initial()["level"]["ppm"] is not None and len(reads) == 5
    os.remove(tmp_path / "a.pbm")
    with pytest.raises(ParseError, match="a.pbm"):
        ed.initial()


def test_a_solution_that_breaks_the_clues_is_an_internal_error_from_diagnose(monkeypatch):
    """analyze relies on diagnose's own verification (the settle pipeline's) of every solution."""
    import satnono.cnf.encode as cnf_encode
    import satnono.diagnose as diag
    import satnono.solve as solve
    from satnono.solve import InternalError

    real = cnf_encode.solution_grid

    def wrong(state, enc, model):
        g = list(real(state, enc, model))
        g[0] = ("." if g[0][0] == "#" else "#") + g[0][1:]
        return tuple(g)

    monkeypatch.setattr(cnf_encode, "solution_grid", wrong)
    assert session.analyze(doc(SWITCH))["status"].value == "multiple"  # its 2x2 switch: a second solution without SAT
    monkeypatch.setattr(solve, "switched", lambda *a: None)  # the SAT call next to the drawing
    with pytest.raises(InternalError, match="does not satisfy the clues"):
        session.analyze(doc(SWITCH))
    monkeypatch.setattr(solve, "propagate", lambda state, *a, **k: None)  # line logic settles nothing...
    line = session.puzzle_of(doc(["#."]))
    monkeypatch.setattr(type(diag.initial_state(line)), "unknown_count", lambda self: 0)  # ...yet claims it did
    with pytest.raises(InternalError, match="does not satisfy the clues"):
        diag.diagnose(line)


def test_page_limits_are_the_librarys():
    from satnono.model import MAX_COLORS, default_palette

    lim = session.page_limits()
    assert lim["max_side"] == session.EDITOR_MAX_SIDE == 100 and lim["max_colors"] == MAX_COLORS
    assert lim["default_colors"] == [[c.name, c.hex] for c in default_palette(MAX_COLORS)[1:]]
    spare = lim["spare_chars"]
    assert len(set(spare)) == len(spare) >= MAX_COLORS and all(session.editable_char(ch) for ch in spare)
    # a file colour whose character cannot be typed gets the first spare character the page would also pick
    from satnono.model import Color

    p = Puzzle.from_grid(["1b"], palette=(default_palette(1)[0], Color("red", "1", (255, 0, 0)), Color("blue", "b", (0, 0, 255))))
    assert [e["char"] for e in session.doc_of(p)["palette"]] == [".", next(ch for ch in spare if ch != "b"), "b"]


# ---------------------------------------------------------------------------
# through HTTP


def test_api_colour_verdicts_fixes_and_refusals(tmp_path):
    pytest.importorskip("httpx")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient
    from satnono.web import server

    app = server.create_app(Editor(str(tmp_path / "c.json")), "tok", ["testserver"], workers="thread")
    with TestClient(app, base_url="http://testserver") as c:
        def api(route, body):
            return c.post(f"/tok/api/{route}", json=body)

        r = api("analyze", {"client": "a", "version": 1, "doc": cdoc(["a.bb", ".abb", "....", "...."])}).json()
        assert r["result"]["status"] == "multiple" and len(r["result"]["ambiguous"]) == 4
        f = api("fix", {"client": "a", "version": 1, "doc": cdoc(["a.bb", ".abb", "....", "...."])}).json()
        assert f["result"]["edits"] and all("char" in e for e in f["result"]["edits"])
        for palette, words in BAD_PALETTES[:8]:
            r = api("analyze", {"client": "a", "version": 2, "doc": {"grid": ["."], "palette": palette}})
            assert r.status_code == 400 and words in r.json()["error"] and "Traceback" not in r.text
        r = api("export", {"doc": cdoc(["ab"]), "format": "pbm"})
        assert r.status_code == 400 and "black-and-white puzzles only" in r.json()["error"]
        r = api("export", {"doc": cdoc(["ab"], name="duo"), "format": "json"})
        assert r.status_code == 200 and loads(r.content, "json")[0].goal == ("ab",)
        data = dumps(load(str(COLOR_FILES[0])), "json").encode()
        d = api("open", {"files": [{"name": "c.json", "data": base64.b64encode(data).decode()}]}).json()["doc"]
        assert len(d["palette"]) == 4 and d["grid"] == list(load(str(COLOR_FILES[0])).goal)
        assert api("save", {"doc": d}).status_code == 200
        assert load(str(tmp_path / "c.json")).palette == session.puzzle_of(d).palette
