"""The editor's library calls (satnono.web.session) and the level format, without HTTP."""

from __future__ import annotations

import base64
import io
import os
import zipfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from satnono.errors import ParseError
from satnono.formats import level as levelfmt
from satnono.formats import load, loads
from satnono.model import Puzzle, grid_diff
from satnono.web import session
from satnono.web.session import DocError, Editor

from _brute import brute_force_solutions, line_placements

SWITCH = ["#.", ".#"]


def doc(grid, rows=None, cols=None, **kw):
    return {"grid": list(grid), "row_clues": rows, "column_clues": cols, **kw}


# ---------------------------------------------------------------------------
# documents


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


# ---------------------------------------------------------------------------
# verdicts against brute force


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 4), st.integers(1, 4), st.data())
def test_analyze_agrees_with_brute_force(w, h, data):
    grid = ["".join(data.draw(st.sampled_from("#."), label="cell") for _ in range(w)) for _ in range(h)]
    res = session.analyze(doc(grid))
    p = Puzzle.from_grid(grid)
    sols = brute_force_solutions(p)
    assert res["status"] == ("unique" if len(sols) == 1 else "multiple")
    # the marked cells are where two of the solutions differ
    diffs = {tuple(grid_diff(a, b)) for a in sols for b in sols if a != b}
    assert tuple(tuple(c) for c in res["ambiguous"]) in diffs or (not diffs and not res["ambiguous"])
    assert res["picture_ok"]
    if res["line_solvable"]:
        assert res["left"] == 0 and len(sols) == 1
    # every count shown is the number of placements that agree with what line logic settled
    settled = {tuple(c) for c in res["undetermined"]}
    for r, count in enumerate(res["row_counts"]):
        fits = [x for x in line_placements(p.rows[r], w)
                if all(x[c] == grid[r][c] or (r, c) in settled for c in range(w))]
        assert count == (str(len(fits)) if len(fits) > 1 else None)
    assert len(res["column_counts"]) == w


def test_analyze_switch_and_no_solution():
    r = session.analyze(doc(SWITCH))
    assert r["status"] == "multiple" and r["row_counts"] == ["2", "2"] and len(r["ambiguous"]) == 4
    none = session.analyze(doc(["...", "..."], rows=[[3], None]))
    assert none["status"] == "none" and "black cells" in none["reason"]
    assert none["picture_ok"] is False
    cannot_fit = session.analyze(doc(["...", "..."], rows=[[2, 1], None]))
    assert cannot_fit["status"] == "none" and ["row", 0] in cannot_fit["conflict"]


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
