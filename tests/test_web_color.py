"""The level editor on colour puzzles: documents with a palette, verdicts and counts against
brute force, fix proposals, files, and the API's refusal of malformed palettes."""

from __future__ import annotations

import base64
import os
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.formats import dumps, load, loads
from satnono.model import Color, Puzzle, default_palette, grid_diff
from satnono.report import palette_list
from satnono.web import session
from satnono.web.session import DocError, Editor

from _brute_color import grid_solutions, line_placements

ROOT = Path(__file__).resolve().parents[1]
COLOR_FILES = [ROOT / "puzzles" / "satnono" / "colour-search-10x10.non", ROOT / "puzzles" / "webpbn" / "webpbn-color-00047.xml"]


def pal(k: int) -> list[dict[str, str]]:
    return palette_list(default_palette(k))


def doc(grid, k=2, rows=None, cols=None, **kw):
    return {"grid": list(grid), "palette": pal(k), "row_clues": rows, "column_clues": cols, **kw}


# ---------------------------------------------------------------------------
# verdicts against brute force


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 3), st.integers(2, 3), st.data())
def test_color_analyze_agrees_with_brute_force(w, h, k, data):
    chars = ".abc"[: k + 1]
    grid = ["".join(data.draw(st.sampled_from(chars), label="cell") for _ in range(w)) for _ in range(h)]
    res = session.analyze(doc(grid, k))
    p = Puzzle.from_grid(grid, palette=default_palette(k))
    sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors)
    assert tuple(grid) in sols and res["picture_ok"]
    assert res["status"] == ("unique" if len(sols) == 1 else "multiple")
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
    # each count is the number of the line's placements that agree with the settled cells
    for axis, counts, n_lines, n in (("row", res["row_counts"], h, w), ("column", res["column_counts"], w, h)):
        assert len(counts) == n_lines
        for i, count in enumerate(counts):
            line = grid[i] if axis == "row" else "".join(row[i] for row in grid)
            cell = (lambda j: (i, j)) if axis == "row" else (lambda j: (j, i))
            fits = [x for x, _ in line_placements(*p.line(axis, i), n)
                    if all(x[j] == line[j] or cell(j) in open_cells for j in range(n))]
            assert count == (str(len(fits)) if len(fits) > 1 else None), (axis, i, fits)


def test_color_typed_clues_and_no_solution():
    # two blocks of different colours may touch; the same colour needs a gap
    d = doc(["...", "..."], rows=[[[1, "a"], [2, "b"]], [[3, "b"]]], cols=None)
    p = session.puzzle_of(d)
    assert p.row_blocks(0) == ((1, 1), (2, 2)) and p.goal is None
    r = session.analyze(d)
    assert r["status"] == "none" and r["picture_ok"] is False
    ok = doc(["abb", "..."], rows=[[[1, "a"], [2, "b"]], None])
    assert session.puzzle_of(ok).goal == ("abb", "...")
    assert session.analyze(ok)["status"] == "unique"
    # a plain length is a block of the first colour
    assert session.puzzle_of(doc(["...", "..."], rows=[[2], None])).row_blocks(0) == ((2, 1),)


def test_color_fix_proposals_set_a_cell_to_another_colour_and_each_is_verified():
    grid = ["a.bb", ".abb", "....", "...."]  # a 2x2 switch of colour a beside colour b
    d = doc(grid, 3)
    r = session.analyze(d)
    assert r["status"] == "multiple" and len(r["ambiguous"]) == 4
    res = session.propose(d)
    assert res["status"] == "multiple" and res["edits"]
    for e in res["edits"]:
        assert e["char"] in ".abc" and e["char"] != grid[e["row"]][e["col"]]
        assert e["black"] == (e["char"] != ".")
        g = [list(row) for row in grid]
        g[e["row"]][e["col"]] = e["char"]
        after = session.analyze(doc(["".join(row) for row in g], 3))
        assert after["status"] == "unique" and after["line_solvable"] == e["line_solvable"]
    for key in ("givens_unique", "givens_line"):
        for gv in (res[key] or {"givens": []})["givens"]:
            assert gv["char"] == grid[gv["row"]][gv["col"]]


# ---------------------------------------------------------------------------
# documents and palettes


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


def test_a_clue_only_colour_file_opens_with_typed_colour_clues():
    text = "width 2\nheight 1\ncolor a #ff0000\ncolor b #0000ff\nrows\n1a 1b\ncolumns\n1a\n1a\n"
    d = session.open_bytes([("x.non", text.encode())])
    assert d["row_clues"] == [[[1, "a"], [1, "b"]]] and d["grid"] == [".."]
    assert session.analyze(d)["status"] == "none"


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
    (doc(["a#"]), "characters other than"),
    (doc(["ab"], rows=[[[1, "z"]]]), "colour the palette does not have"),
    (doc(["ab"], rows=[[[1, "a", 2]]]), "block lengths"),
    (doc(["ab"], rows=[[["1", "a"]]]), "block lengths"),
    (doc(["ab"], rows=[[[1, 2]]]), "block lengths"),
    (doc(["ab"], rows=[[[101, "a"]]]), "block lengths"),
])
def test_malformed_colour_documents_are_refused(bad, words):
    with pytest.raises(DocError, match=words):
        session.puzzle_of(bad)


# ---------------------------------------------------------------------------
# files


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
    d = doc(["ab", "b."])
    with pytest.raises(DocError, match=words):
        session.export(d, fmt)
    ed = Editor(str(tmp_path / "new.non"))
    with pytest.raises(DocError, match=words):
        ed.save_as(d, "pic" + ("" if fmt == "level" else "." + fmt), fmt)
    assert os.listdir(tmp_path) == []  # nothing written, not even a level's reward image


def test_colour_level_save_over_an_existing_level_is_refused_before_asking(tmp_path):
    for name, data in (("cat.level", b"0\n"), ("cat.pbm", b"P1\n2 1\n1 0\n")):
        (tmp_path / name).write_bytes(data)
    ed = Editor(str(tmp_path / "cat.level"))
    with pytest.raises(DocError, match="black-and-white PBM"):
        ed.save_as(doc(["ab"]), "cat.level", "level", overwrite=False)  # not "exists": the picture cannot go there
    assert (tmp_path / "cat.pbm").read_bytes() == b"P1\n2 1\n1 0\n"


def test_save_colour_json_and_open_it_again(tmp_path):
    d = session.doc_of(load(str(COLOR_FILES[1])))
    ed = Editor(str(tmp_path / "pic.json"))
    path = ed.save(d)
    again = Editor(path).initial()
    assert again["grid"] == d["grid"] and again["palette"] == d["palette"]


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

        r = api("analyze", {"client": "a", "version": 1, "doc": doc(["a.bb", ".abb", "....", "...."])}).json()
        assert r["result"]["status"] == "multiple" and len(r["result"]["ambiguous"]) == 4
        f = api("fix", {"client": "a", "version": 1, "doc": doc(["a.bb", ".abb", "....", "...."])}).json()
        assert f["result"]["edits"] and all("char" in e for e in f["result"]["edits"])
        for palette, words in BAD_PALETTES[:8]:
            r = api("analyze", {"client": "a", "version": 2, "doc": {"grid": ["."], "palette": palette}})
            assert r.status_code == 400 and words in r.json()["error"] and "Traceback" not in r.text
        r = api("export", {"doc": doc(["ab"]), "format": "pbm"})
        assert r.status_code == 400 and "black-and-white puzzles only" in r.json()["error"]
        r = api("export", {"doc": doc(["ab"], name="duo"), "format": "json"})
        assert r.status_code == 200 and loads(r.content, "json")[0].goal == ("ab",)
        data = dumps(load(str(COLOR_FILES[0])), "json").encode()
        d = api("open", {"files": [{"name": "c.json", "data": base64.b64encode(data).decode()}]}).json()["doc"]
        assert len(d["palette"]) == 4 and d["grid"] == list(load(str(COLOR_FILES[0])).goal)
        assert api("save", {"doc": d}).status_code == 200
        assert load(str(tmp_path / "c.json")).palette == session.puzzle_of(d).palette
