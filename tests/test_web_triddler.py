"""The editor on triddlers (issue 39): the document of a triangle grid, its verdicts through the
server's verdict path, opening and saving xml/json/g, a new hexagon, malformed or oversized
requests answered in one line, and the page in a real Chromium (painting triangles, the clue
numbers and the verdict following, Save as, a screenshot)."""

from __future__ import annotations

import json
import os
import shutil
import warnings
from pathlib import Path

import pytest

from satnono.clues import LineClue
from satnono.formats import load, save
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.web import session
from satnono.web.document import EDITOR_MAX_CELLS, DocError, puzzle_of
from satnono.web.session import Editor, analyze, doc_of, export, new_triddler, open_bytes, propose

ROOT = Path(__file__).resolve().parents[1]
FLOWER = ROOT / "puzzles" / "satnono" / "flower-triddler.json"  # two colours, 54 cells, unique, line-solvable
SNOWFLAKE = ROOT / "puzzles" / "satnono" / "snowflake-triddler.xml"  # black and white, 96 cells
# a hexagon of side 2 (rows of 5, 7, 7, 5 triangles): cells (0, 0) and (1, 3) painted have a twin
# picture (cells (0, 2) and (1, 1)), and this picture is unique but needs search (13 cells open)
SWITCH = ["#....", "...#...", ".......", "....."]
SEARCH = ["...#.", ".#.##..", "#..#.##", ".###."]


def hexagon_doc(grid: list[str]) -> dict:
    return {"geometry": Triangle.hexagon(2).as_json(), "grid": grid, "palette": None, "lane_clues": None}


def cells_of(grid: list[str]) -> str:
    return "".join(grid)


# ---------------------------------------------------------------------------
# documents


def test_document_of_a_colour_triddler_carries_geometry_polygons_lanes_and_clues():
    p = load(str(FLOWER))
    d = doc_of(p, "json")
    g = p.geometry
    assert d["geometry"] == g.as_json() and d["format"] == "json" and d["name"] == "Flower"
    assert [len(r) for r in d["grid"]] == list(g.row_lengths())
    assert cells_of(d["grid"]) == p.goal and d["lane_clues"] == [None] * 18
    assert len(d["polygons"]) == 54 and all(len(poly) == 3 for poly in d["polygons"])
    assert d["polygons"][0] == [[round(x, 4), round(y, 4)] for x, y in g.cell_polygon(0)]
    assert [(lane["family"], lane["index"]) for lane in d["lanes"][5:8]] == [("row", 5), ("/", 0), ("/", 1)]
    assert d["lanes"][7]["name"] == "/ line 2" and d["lanes"][7]["cells"] == list(g.lanes()[7].cells)
    assert d["lanes"][2]["clue"] == [[1, "y"], [3, "r"], [3, "y"]]
    assert [c["char"] for c in d["palette"]] == [".", "y", "r"]
    json.dumps(d)  # plain JSON
    back = puzzle_of(json.loads(json.dumps(d)))
    assert isinstance(back, LanePuzzle) and back.clues == p.clues and back.goal == p.goal
    assert back.name == "Flower" and back.meta == p.meta


def test_a_file_without_a_picture_is_solved_and_one_without_a_solution_keeps_every_clue_typed():
    p = load(str(SNOWFLAKE))
    d = doc_of(p.replace(goal=None))
    assert cells_of(d["grid"]) == p.goal and d["lane_clues"] == [None] * len(p.clues)
    bad = p.replace(goal=None, clues=(LineClue((9,), (1,)),) + p.clues[1:])  # row 1 has 9 cells: no solution
    d = doc_of(bad)
    assert set(cells_of(d["grid"])) == {"."}
    assert d["lane_clues"][0] == [[9, "#"]] and all(c is not None for c in d["lane_clues"])
    assert puzzle_of(d).clues == bad.clues
    assert analyze(d)["status"] == "none"


def test_blotted_clues_stay_typed_and_characters_the_page_cannot_type_are_replaced():
    g = Triangle.hexagon(1)
    p = LanePuzzle.from_picture(g, "#..#.#")
    blotted = p.replace(clues=(LineClue((1,), (1,), 1),) + p.clues[1:])
    d = doc_of(blotted)
    assert d["lane_clues"][0] == [["?", "#"]] and d["lane_clues"][1:] == [None] * 5
    assert puzzle_of(d).clues == blotted.clues
    from satnono.palette import Color
    pal = (Color("white", ".", (255, 255, 255)), Color("one", "1", (255, 0, 0)), Color("two", "2", (0, 0, 255)))
    digits = LanePuzzle.from_picture(g, "1..2.1", pal)
    d = doc_of(digits)
    chars = [c["char"] for c in d["palette"]]
    assert "1" not in chars and "2" not in chars and [c["name"] for c in d["palette"]] == ["white", "one", "two"]
    assert puzzle_of(d).clues == digits.clues


def test_verdicts_unique_multiple_with_the_cells_that_differ_needs_search_and_none():
    r = analyze(doc_of(load(str(FLOWER))))
    assert (r["status"], r["line_solvable"], r["picture_ok"], r["left"]) == ("unique", True, True, 0)
    r = analyze(hexagon_doc(SWITCH))
    assert r["status"] == "multiple" and not r["line_solvable"]
    assert sorted(map(tuple, r["ambiguous"])) == [(0, 0), (0, 2), (1, 1), (1, 3)]
    assert {tuple(c) for c in r["ambiguous"]} <= {tuple(c) for c in r["undetermined"]}
    r = analyze(hexagon_doc(SEARCH))
    assert (r["status"], r["line_solvable"], r["left"]) == ("unique", False, 13) and len(r["undetermined"]) == 13
    assert r["row_counts"] is None and r["column_counts"] is None
    d = hexagon_doc(["." * 5, "." * 7, "." * 7, "." * 5])
    d["lane_clues"] = [[3]] + [None] * 11  # row 1 of three black triangles, every other line empty
    r = analyze(d)
    assert r["status"] == "none" and not r["picture_ok"] and r["conflict"] and r["reason"]
    fixes = propose(hexagon_doc(SWITCH))  # proposals as for a rectangle (test_web_triddler_rules checks them)
    assert fixes["status"] == "multiple" and fixes["edits"] and fixes["givens_unique"]["count"] >= 1


def test_painting_is_setting_cells_of_the_rows_and_the_clues_follow():
    d = new_triddler(2)
    assert [len(r) for r in d["grid"]] == [5, 7, 7, 5] and set(cells_of(d["grid"])) == {"."}
    assert analyze(d)["status"] == "unique"  # the empty picture
    d["grid"] = SWITCH
    p = puzzle_of(d)
    assert p.clues[0] == LineClue((1,), (1,)) and p.goal == cells_of(SWITCH)
    d["grid"] = ["##...", ".......", ".......", "....."]  # row 1's first two triangles: one block of 2
    assert puzzle_of(d).clues[0] == LineClue((2,), (1,))


@pytest.mark.parametrize("bad, message", [
    ({"geometry": Triangle.hexagon(21).as_json()}, "at most 2400 cells"),
    ({"geometry": {"kind": "triangle", "topleft": 10 ** 9}}, "sides of at most 40"),
    ({"geometry": {"kind": "rectangle", "height": 2, "width": 2}}, "kind 'triangle'"),
    ({"geometry": {"kind": "triangle", "topleft": 1}}, "geometry: a triangle geometry needs"),
    ({"geometry": "hexagon"}, "geometry must be a JSON object"),
    ({"grid": ["#....", "...#..."]}, "list of 4 row strings"),
    ({"grid": ["#....", "...#...", "......", "....."]}, "row 3 of the picture must have 7 cells"),
    ({"grid": ["x....", "...#...", ".......", "....."]}, "in no colour of the palette"),
    ({"lane_clues": [[1]]}, "lane_clues must be a list of 12 entries"),
    ({"lane_clues": [None] * 4 + [[1, "x"]] + [None] * 7}, "/ line 1:"),
    ({"row_clues": [None] * 4}, "lane_clues (one per lane), not row_clues"),
    ({"rules": [{"rule": "no-square"}]}, "rule no-square: 2x2 squares have no meaning on a triangle geometry"),
    ({"givens": [[0, 5]]}, "givens: [0, 5] is not a [row, k] cell of the picture (rows of 5, 7, 7, 5 cells)"),
    ({"level": {"completed": True}}, "a triddler cannot be a game level"),
    ({"name": 3}, "name must be a string"),
])
def test_malformed_or_oversized_triddler_documents_are_refused_in_one_line(bad, message):
    doc = {**hexagon_doc(SWITCH), **bad}
    with pytest.raises(DocError) as e:
        puzzle_of(doc)
    assert message in str(e.value) and "\n" not in str(e.value)


@pytest.mark.parametrize("side", [0, 21, "3", True, None, 2.0])
def test_a_new_hexagon_side_is_a_whole_number_from_1_to_20(side):
    with pytest.raises(DocError, match="from 1 to 20"):
        new_triddler(side)


def test_the_largest_new_hexagon_is_within_the_limits():
    d = new_triddler(20)
    assert len(cells_of(d["grid"])) == EDITOR_MAX_CELLS == 6 * 20 ** 2
    assert analyze(d)["status"] == "unique"


def test_a_triddler_with_rules_and_revealed_cells_is_opened_with_them():
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#")  # rows of 3 and 3 triangles
    from satnono.lanerules import lane_rule_from
    q = p.replace(rules=(lane_rule_from("count:=3"),), givens=((0, 1), (4, 0)))
    d = doc_of(q)
    assert d["givens"] == [[0, 0], [1, 1]] and d["rules"] == [{"rule": "count", "op": "=", "n": 3}]
    back = puzzle_of(d)
    assert back.givens == q.givens and back.rules == q.rules and back.goal == q.goal


def test_a_triddler_beyond_the_limits_is_not_opened(tmp_path):
    p = LanePuzzle.from_picture(Triangle.hexagon(21), "." * 6 * 21 ** 2)
    with pytest.raises(DocError, match="at most 2400 cells"):
        doc_of(p)


# ---------------------------------------------------------------------------
# files


@pytest.mark.parametrize("fmt", ["xml", "json", "g"])
def test_open_edit_save_and_reopen_in_each_triddler_format(tmp_path, fmt):
    src = tmp_path / f"snow.{fmt}"
    save(load(str(SNOWFLAKE)), str(src), fmt)
    ed = Editor(str(src))
    d = ed.initial()
    assert d["geometry"] == Triangle.hexagon(4).as_json() and d["format"] == fmt
    assert cells_of(d["grid"]) == load(str(SNOWFLAKE)).goal
    d["grid"][0] = "#" + d["grid"][0][1:]  # paint the first triangle
    assert ed.save(d) == str(src)
    back = load(str(src))
    assert isinstance(back, LanePuzzle) and back.clues == puzzle_of(d).clues
    assert cells_of(ed.initial()["grid"]) == cells_of(d["grid"])  # the file changed: read again
    for other in ("xml", "json", "g"):
        path = ed.save_as(d, f"copy-{fmt}.{other}")
        assert load(path).clues == back.clues
    assert ed.path.endswith(f"copy-{fmt}.g")


def test_save_as_names_a_triddler_format_and_refuses_the_others_in_one_line(tmp_path):
    ed = Editor(str(tmp_path / "new.xml"))
    d = new_triddler(2)
    d["grid"] = SWITCH
    for fmt in ("non", "level", "png"):
        with pytest.raises(DocError) as e:
            ed.save_as(d, "x." + fmt, fmt)
        assert "a triddler is saved in xml, g, json" in str(e.value) and "\n" not in str(e.value)
    assert not list(tmp_path.iterdir())
    path = ed.save_as(d, "t.data", "g")
    assert load(path, "g").clues == puzzle_of(d).clues
    rect = {"grid": ["#."], "palette": None, "row_clues": [None], "column_clues": [None, None]}
    with pytest.raises(DocError, match="cannot write format 'g'"):  # a rectangle: as before
        ed.save_as(rect, "r.g", "g")


def test_download_and_open_from_the_page(tmp_path):
    d = doc_of(load(str(FLOWER)))
    name, data = export(d, "xml")
    assert name == "Flower.xml" and b'type="triddler"' in data
    name, data = export(d, "g")
    assert name == "Flower.g" and data.startswith(b"#t")
    with pytest.raises(DocError, match="a triddler is saved in"):
        export(d, "non")
    opened = open_bytes([("flower.json", FLOWER.read_bytes())])
    assert opened["geometry"] == d["geometry"] and opened["grid"] == d["grid"]


# ---------------------------------------------------------------------------
# the HTTP API (the server's verdict path, in threads)

pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from satnono.web import server  # noqa: E402

TOKEN = "tri-t0ken"
HOST = "testserver"


@pytest.fixture
def client(tmp_path):
    src = tmp_path / "flower.json"
    shutil.copy(FLOWER, src)
    app = server.create_app(Editor(str(src)), TOKEN, [HOST], workers="thread")
    with TestClient(app, base_url=f"http://{HOST}") as c:
        yield c


def api(client, route, body):
    return client.post(f"/{TOKEN}/api/{route}", json=body)


def test_api_state_new_analyze_save_as_and_export_a_triddler(client, tmp_path):
    state = client.get(f"/{TOKEN}/api/state").json()
    assert state["doc"]["geometry"]["kind"] == "triangle" and state["triddler_formats"] == ["xml", "g", "json"]
    assert state["max_hexagon_side"] == 20 and "g" not in state["formats"]
    doc = api(client, "new", {"hexagon": 2}).json()["doc"]
    assert doc["geometry"] == Triangle.hexagon(2).as_json() and len(doc["polygons"]) == 24
    doc["grid"] = SWITCH
    r = api(client, "analyze", {"client": "c", "version": 1, "doc": doc}).json()
    assert r["version"] == 1 and r["result"]["status"] == "multiple" and len(r["result"]["ambiguous"]) == 4
    r = api(client, "fix", {"client": "c", "version": 1, "doc": doc}).json()
    assert r["result"]["status"] == "multiple" and all("cell" in e for e in r["result"]["edits"])
    r = api(client, "save-as", {"doc": doc, "name": "switch.g", "format": "g"})
    assert r.status_code == 200 and load(str(tmp_path / "switch.g")).clues == puzzle_of(doc).clues
    r = api(client, "export", {"doc": doc, "format": "json"})
    assert r.status_code == 200 and json.loads(r.content)["geometry"] == doc["geometry"]
    r = api(client, "save", {"doc": doc})  # Save writes the file Save as named last
    assert r.status_code == 200 and r.json()["file"] == "switch.g"


@pytest.mark.parametrize("body, status, message", [
    ({"hexagon": 21}, 400, "from 1 to 20"),
    ({"hexagon": "2"}, 400, "from 1 to 20"),
    ({}, 400, "from 1 to 20"),
])
def test_api_new_refuses_sizes_out_of_bounds_in_one_line(client, body, status, message):
    r = api(client, "new", body)
    assert r.status_code == status and message in r.json()["error"] and "\n" not in r.json()["error"]


def test_api_analyze_refuses_an_oversized_triddler_before_any_worker(client):
    doc = {"geometry": Triangle.hexagon(30).as_json(), "grid": []}
    r = api(client, "analyze", {"client": "c", "version": 1, "doc": doc})
    assert r.status_code == 400 and "at most 2400 cells" in r.json()["error"]


# ---------------------------------------------------------------------------
# the page, in Chromium

from test_web_browser import CHROMIUM, WAIT, browser, page, shot, start, verdict  # noqa: E402,F401

sync_api = pytest.importorskip("playwright.sync_api")
browser_only = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")


def tri(page, r: int, k: int):
    return page.locator(f'polygon.cell[data-row="{r}"][data-col="{k}"]')


def clue(page, family: str, index: int) -> str:
    return page.get_by_test_id(f"lane-clue-{family}-{index}").evaluate(
        "g => [...g.querySelectorAll('text')].map(t => t.textContent).join(' ')")


@browser_only
def test_page_opens_a_triddler_paints_triangles_clues_and_verdict_follow_and_saves(start, page, tmp_path):
    src = tmp_path / "snow.xml"
    shutil.copy(SNOWFLAKE, src)
    ed = start(str(src))
    page.goto(ed.url)
    assert "line-solvable" in verdict(page, "unique")
    assert page.locator("polygon.cell").count() == 96
    assert page.locator("polygon.cell.ink").count() == load(str(SNOWFLAKE)).goal.count("#")
    assert page.get_by_test_id("save-format").input_value() == "xml"
    assert page.get_by_test_id("width").is_disabled()
    assert clue(page, "row", 0) == "0" and clue(page, "row", 1) == "2 2"

    # a new hexagon of side 2, then the two triangles of a switch: two solutions, four cells outlined
    page.get_by_test_id("hexagon-side").fill("2")
    page.get_by_test_id("new-triddler").click()
    sync_api.expect(page.locator("polygon.cell")).to_have_count(24, timeout=WAIT)
    verdict(page, "unique")
    tri(page, 0, 0).click()
    assert clue(page, "row", 0) == "1"
    tri(page, 1, 3).click()
    assert clue(page, "row", 1) == "1"
    verdict(page, "multiple")
    sync_api.expect(page.locator("polygon.cell.diff")).to_have_count(4, timeout=WAIT)
    assert page.locator(".marks .m-diff").count() == 4
    sync_api.expect(page.get_by_test_id("fixes")).to_contain_text("Reveal 1 cell", timeout=WAIT)

    # a drag across row 3 paints a block of triangles in one stroke (one undo step)
    a, b = tri(page, 2, 1).bounding_box(), tri(page, 2, 4).bounding_box()
    page.mouse.move(a["x"] + a["width"] / 2, a["y"] + a["height"] * 0.6)
    page.mouse.down()
    page.mouse.move(b["x"] + b["width"] / 2, b["y"] + b["height"] * 0.6, steps=3)
    page.mouse.up()
    assert clue(page, "row", 2) == "4"
    page.keyboard.press("Control+z")
    assert clue(page, "row", 2) == "0"
    page.keyboard.press("Control+Shift+z")
    assert clue(page, "row", 2) == "4"
    grid = page.evaluate("() => [...document.querySelectorAll('polygon.cell')].map(c => c.dataset.v).join('')")
    assert grid == "#...." + "...#..." + ".####.." + "....."
    puzzle = LanePuzzle.from_picture(Triangle.hexagon(2), grid)
    from satnono.lanecheck import settle_lanes
    res = settle_lanes(puzzle.replace(goal=None))  # the page's verdict is the library's
    text = verdict(page, res.status.value)
    assert ("line-solvable" in text) == res.line_solvable

    # Save as g and xml: the files hold the drawing
    page.get_by_test_id("save-name").fill("drawn.g")
    page.get_by_test_id("save-format").select_option("g")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    assert load(str(tmp_path / "drawn.g")).clues == puzzle.clues
    page.get_by_test_id("save-name").fill("drawn.xml")
    page.get_by_test_id("save-format").select_option("xml")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("drawn.xml", timeout=WAIT)
    saved = load(str(tmp_path / "drawn.xml"))
    assert saved.clues == puzzle.clues and saved.goal == grid
    shot(page, "editor-triddler-drawn.png")

    # undo back to the snowflake (a rectangle-free history), and back to a grid by opening a .non
    for _ in range(5):
        page.keyboard.press("Control+z")
    sync_api.expect(page.locator("polygon.cell")).to_have_count(96, timeout=WAIT)
    page.get_by_test_id("board").locator("xpath=..")  # the board is still there
    nonfile = tmp_path / "dot.non"
    nonfile.write_text("width 2\nheight 1\nrows\n1\ncolumns\n1\n0\n")
    page.locator("#picker").set_input_files(str(nonfile))
    sync_api.expect(page.locator("div.cell")).to_have_count(2, timeout=WAIT)
    assert page.locator("polygon.cell").count() == 0
    verdict(page, "unique")
    assert not page.get_by_test_id("width").is_disabled()
    assert page.get_by_test_id("save-format").input_value() != "g"


@browser_only
def test_page_screenshot_of_the_colour_flower_with_two_solutions(start, page, tmp_path):
    """The picture of the docs: the flower with three yellow triangles of its left petals erased,
    so that two solutions differ in four cells (outlined in red); ``SATNONO_SCREENSHOTS=DIR``
    keeps it."""
    src = tmp_path / "flower.json"
    shutil.copy(FLOWER, src)
    ed = start(str(src))
    page.goto(ed.url)
    assert "line-solvable" in verdict(page, "unique")
    assert clue(page, "row", 2) == "1 3 3" and clue(page, "/", 0) == "1"
    colours = page.evaluate("() => [...document.querySelectorAll('.tri-clue rect.chip')].map(r => r.getAttribute('fill'))")
    assert set(colours) == {"#f0c800", "#c81e1e"}
    for r, k in ((1, 2), (2, 3), (3, 2)):  # right button: erase
        tri(page, r, k).click(button="right")
    assert clue(page, "row", 1) == "1 2" and clue(page, "row", 2) == "3 3"
    text = verdict(page, "multiple")
    assert "differ in 4 cells" in text
    assert page.locator("polygon.cell.diff").count() == 4 and page.locator("polygon.cell.open").count() == 4
    sync_api.expect(page.locator('[data-testid="fix"]').first).to_be_visible(timeout=WAIT)  # the proposals
    page.locator(".fix.edit").first.hover()  # one previewed on the board
    sync_api.expect(page.locator(".marks .m-preview")).to_have_count(1, timeout=WAIT)
    doc = page.evaluate("() => fetch('api/state').then(r => r.json())")  # the file is as it was
    assert doc["doc"]["grid"][1][2] == "y"
    shot(page, "editor-triddler.png")
