"""The editor on triddlers with given cells, rules and fix proposals (issue 39): documents to
the library and back, verdicts and proposals against the brute force of ``_triddler_oracle``
filtered by this file's own reading of givens, ``count`` and ``connected`` (edge neighbours
found from the cells' corners), files that keep givens and rules (json) or refuse them in one
line (xml, g), untrusted documents refused in one line with HTTP 400, and the page in a real
Chromium: revealing and hiding cells, rules, applying a fix, saving and reopening."""

from __future__ import annotations

import json
import shutil
import warnings
from pathlib import Path

import pytest

from _triddler_oracle import brute_force
from satnono.clues import LineClue
from satnono.formats import load, save
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.web.document import DocError, puzzle_of
from satnono.web.session import Editor, analyze, doc_of, export, open_bytes, propose

G = Triangle.hexagon(2)  # rows of 5, 7, 7, 5 triangles
# two triangles painted, (0, 0) and (1, 3); two other pictures paint (0, 1) and (1, 2), (0, 2) and (1, 1)
SWITCH = ["#....", "...#...", ".......", "....."]
SEARCH = ["...#.", ".#.##..", "#..#.##", ".###."]  # unique, line logic leaves 13 cells open


def doc(grid: list[str], givens=(), rules=()) -> dict:
    return {"geometry": G.as_json(), "grid": list(grid), "palette": None, "lane_clues": None,
            "givens": [list(g) for g in givens], "rules": list(rules)}


def cell_of(grid: list[str], r: int, k: int) -> int:
    """Cell number of the k-th triangle of row r: the rows' cells numbered in turn."""
    return sum(len(row) for row in grid[:r]) + k


def place_of(grid: list[str], cell: int) -> list[int]:
    for r, row in enumerate(grid):
        if cell < len(row):
            return [r, cell]
        cell -= len(row)
    raise IndexError(cell)


def _neighbours() -> list[set[int]]:
    """Edge neighbours: two triangles that share two corners."""
    corners = [{(round(x, 3), round(y, 3)) for x, y in G.cell_polygon(c)} for c in range(G.cell_count)]
    return [{d for d in range(G.cell_count) if d != c and len(corners[c] & corners[d]) == 2}
            for c in range(G.cell_count)]


NEIGHBOURS = _neighbours()


def keeps(picture: str, givens: list[tuple[int, str]], rules: list[dict]) -> bool:
    """This file's reading of given cells and of the count and connected rules (black and white)."""
    if any(picture[c] != ch for c, ch in givens):
        return False
    filled = [c for c, ch in enumerate(picture) if ch == "#"]
    for rule in rules:
        if rule["rule"] == "count":
            n = len(filled)
            if not {"=": n == rule["n"], ">=": n >= rule["n"], "<=": n <= rule["n"]}[rule["op"]]:
                return False
        elif rule["rule"] == "connected" and filled:
            seen, todo = {filled[0]}, [filled[0]]
            while todo:
                for d in NEIGHBOURS[todo.pop()]:
                    if picture[d] == "#" and d not in seen:
                        seen.add(d)
                        todo.append(d)
            if len(seen) != len(filled):
                return False
    return True


def clues_of(picture: str) -> tuple[LineClue, ...]:
    out = []
    for lane in G.lanes():
        runs = "".join(picture[c] for c in lane.cells).replace(".", " ").split()
        out.append(LineClue(tuple(len(x) for x in runs), (1,) * len(runs)))
    return tuple(out)


def solutions(grid: list[str], givens=(), rules=()) -> list[str]:
    """Every picture with the clues of ``grid`` that keeps the givens (values from ``grid``) and rules."""
    picture = "".join(grid)
    given = [(cell_of(grid, r, k), grid[r][k]) for r, k in givens]
    return [s for s in brute_force(LanePuzzle(G, clues_of(picture))) if keeps(s, given, list(rules))]


CASES = [
    (SWITCH, [], []),
    (SWITCH, [(0, 0)], []),  # the painted corner given: unique
    (SWITCH, [(1, 1)], []),  # one other picture's cell given as background: still two
    (SWITCH, [(1, 1), (1, 2)], [{"rule": "count", "op": "=", "n": 2}]),  # both others' cells: unique
    (SWITCH, [], [{"rule": "count", "op": ">=", "n": 2}]),
    (SWITCH, [], [{"rule": "count", "op": "<=", "n": 1}]),  # every picture has two cells: none
    (SWITCH, [], [{"rule": "connected"}]),
    (SEARCH, [(0, 3), (2, 0)], [{"rule": "count", "op": ">=", "n": 9}]),
    (SEARCH, [], [{"rule": "connected"}]),
]


@pytest.mark.parametrize("grid, givens, rules", CASES)
def test_givens_and_rules_reach_the_library_and_the_verdict_agrees_with_enumeration(grid, givens, rules):
    d = doc(grid, givens, rules)
    p = puzzle_of(d)
    assert p.givens == tuple(sorted((cell_of(grid, r, k), int(grid[r][k] == "#")) for r, k in givens))
    assert [r.name for r in p.rules] == [r["rule"] for r in rules]
    sols = solutions(grid, givens, rules)
    v = analyze(d)
    assert v["status"] == ("none" if not sols else "unique" if len(sols) == 1 else "multiple")
    assert v["picture_ok"] == ("".join(grid) in sols)
    if len(sols) > 1:  # the cells two solutions differ in, named [row, k]
        differ = {tuple(place_of(grid, c)) for c in range(G.cell_count) if len({s[c] for s in sols}) > 1}
        assert v["ambiguous"] and {tuple(c) for c in v["ambiguous"]} <= differ
    if not sols:
        assert v["reason"] and "\n" not in v["reason"]
    json.dumps(v)


@pytest.mark.parametrize("grid, givens, rules", [c for c in CASES if c[0] == SWITCH][:5] + [(SEARCH, [], [])])
def test_fix_proposals_on_a_triddler_are_each_verified_by_enumeration(grid, givens, rules):
    d = doc(grid, givens, rules)
    res = propose(d)
    sols = solutions(grid, givens, rules)
    assert res["status"] == ("unique" if len(sols) == 1 else "multiple")
    if len(sols) == 1 and res["line_solvable"]:
        assert not res["edits"] and not res["givens_unique"] and "nothing to fix" in res["reason"]
        return
    # a single-cell edit changes how many cells are filled: none keeps count:=2
    assert bool(res["edits"]) == (not any(r.get("op") == "=" for r in rules))
    for e in res["edits"]:  # each edit: its cell by number and as [row, k]; the edited picture is unique
        assert e["cell"] == cell_of(grid, e["row"], e["col"])
        assert e["char"] != grid[e["row"]][e["col"]]
        edited = [row if r != e["row"] else row[:e["col"]] + e["char"] + row[e["col"] + 1:] for r, row in enumerate(grid)]
        assert solutions(edited, givens, rules) == ["".join(edited)], e
    for key in ("givens_unique", "givens_line"):
        g = res[key]
        cells = [(x["row"], x["col"]) for x in g["givens"]]
        assert all(x["cell"] == cell_of(grid, x["row"], x["col"]) and x["char"] == grid[x["row"]][x["col"]]
                   for x in g["givens"])
        assert solutions(grid, [*givens, *cells], rules) == ["".join(grid)]


def test_open_and_save_keep_givens_and_rules_in_json_and_refuse_them_in_one_line_elsewhere(tmp_path):
    d = doc(SWITCH, [(0, 0), (1, 1)], [{"rule": "count", "op": "=", "n": 2}, {"rule": "connected"}])
    d["rules"] = d["rules"][:1]
    ed = Editor(str(tmp_path / "switch.json"))
    path = ed.save_as(d, "switch.json")
    back = load(path)
    assert isinstance(back, LanePuzzle) and back.givens == ((0, 1), (6, 0)) and back.rules == puzzle_of(d).rules
    again = Editor(path).initial()
    assert again["givens"] == [[0, 0], [1, 1]] and again["rules"] == d["rules"] and again["grid"] == SWITCH
    name, data = export(d, "json")
    assert json.loads(data)["givens"] == [[0, "#"], [6, "."]]
    assert open_bytes([(name, data)])["givens"] == [[0, 0], [1, 1]]
    for fmt in ("xml", "g"):
        with pytest.raises(DocError) as e:
            ed.save_as(d, f"switch.{fmt}")
        assert f"the {fmt} format cannot store given" in str(e.value) and "\n" not in str(e.value)
        assert not (tmp_path / f"switch.{fmt}").exists()
    # a file whose clues have no solution: the givens stay, the empty picture shows their values
    bad = LanePuzzle(G, (LineClue((5,), (1,)),) + clues_of("".join(SWITCH))[1:], givens=((0, 1), (2, 0)))
    save(bad, str(tmp_path / "bad.json"))
    opened = Editor(str(tmp_path / "bad.json")).initial()
    assert opened["givens"] == [[0, 0], [0, 2]] and opened["grid"][0] == "#...." and opened["lane_clues"][0] == [[5, "#"]]
    assert puzzle_of(opened).givens == bad.givens


BAD = [
    ({"givens": "x"}, "givens must be a list of [row, k] cells"),
    ({"givens": [[0]]}, "is not a [row, k] cell"),
    ({"givens": [[0, 5]]}, "[0, 5] is not a [row, k] cell of the picture (rows of 5, 7, 7, 5 cells)"),
    ({"givens": [[4, 0]]}, "is not a [row, k] cell"),
    ({"givens": [[0, -1]]}, "is not a [row, k] cell"),
    ({"givens": [[0, True]]}, "is not a [row, k] cell"),
    ({"givens": [[0, 0]] * 25}, "givens must be a list of [row, k] cells"),
    ({"rules": [{"rule": "symmetric", "axis": "left-right"}]}, "symmetry is not supported on a triangle geometry"),
    ({"rules": [{"rule": "no-square"}]}, "2x2 squares have no meaning on a triangle geometry"),
    ({"rules": [{"rule": "line", "cells": [[0, 0]], "clue": [1]}]}, "rule line: its cells are (row, column) pairs"),
    ({"rules": [{"rule": "givens", "cells": [[0, 0, "#"]]}]}, "givens"),
    ({"rules": [{"rule": "bogus"}]}, "unknown rule 'bogus'"),
    ({"rules": [{"rule": "count", "op": "=", "n": -1}]}, "rule count"),
    ({"rules": [{"rule": "count", "op": "=", "n": 1, "color": "z"}]}, "z"),
    ({"rules": [1]}, "rule"),
    ({"rules": "connected"}, "rules must be a list"),
    ({"rules": [{"rule": "connected"}] * 21}, "rules must be a list of at most 20"),
]


@pytest.mark.parametrize("bad, message", BAD)
def test_untrusted_givens_and_rules_are_refused_in_one_line(bad, message):
    with pytest.raises(DocError) as e:
        puzzle_of({**doc(SWITCH), **bad})
    assert message in str(e.value) and "\n" not in str(e.value)


# ---------------------------------------------------------------------------
# the HTTP API

pytest.importorskip("httpx")
with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

from satnono.web import server  # noqa: E402

TOKEN = "rules-t0ken"
HOST = "testserver"


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    folder = tmp_path_factory.mktemp("api")
    app = server.create_app(Editor(str(folder / "t.json")), TOKEN, [HOST], workers="thread")
    with TestClient(app, base_url=f"http://{HOST}", raise_server_exceptions=False) as c:
        yield c


@pytest.mark.parametrize("route", ["analyze", "fix", "export", "save-as"])
@pytest.mark.parametrize("bad, message", BAD[::3])
def test_api_answers_bad_givens_and_rules_with_400_and_one_line(client, route, bad, message):
    body = {"client": "c", "version": 1, "doc": {**doc(SWITCH), **bad}, "format": "json", "name": "x.json"}
    r = client.post(f"/{TOKEN}/api/{route}", json=body)
    assert r.status_code == 400
    err = r.json()["error"]
    assert message in err and "\n" not in err and "Traceback" not in err


def test_api_fix_proposals_of_a_triddler_name_cells_by_number(client):
    d = doc(SWITCH, [], [{"rule": "count", "op": ">=", "n": 2}])
    r = client.post(f"/{TOKEN}/api/fix", json={"client": "c", "version": 3, "doc": d}).json()
    res = r["result"]
    assert r["version"] == 3 and res["status"] == "multiple" and res["geometry"] == G.as_json()
    assert res["edits"] and all(e["cell"] == cell_of(SWITCH, e["row"], e["col"]) for e in res["edits"])
    v = client.post(f"/{TOKEN}/api/analyze", json={"client": "c", "version": 4, "doc": {**d, "givens": [[0, 0]]}}).json()
    assert v["result"]["status"] == "unique"


# ---------------------------------------------------------------------------
# the page, in Chromium

from test_web_browser import CHROMIUM, WAIT, browser, page, shot, start, verdict  # noqa: E402,F401

sync_api = pytest.importorskip("playwright.sync_api")
browser_only = pytest.mark.skipif(CHROMIUM is None, reason="no chromium binary (apt-get install chromium)")


def tri(page, r: int, k: int):
    return page.locator(f'polygon.cell[data-row="{r}"][data-col="{k}"]')


def page_doc(page) -> dict:
    return page.evaluate("() => import('./static/app.js').then(m => m.state.doc)")


@browser_only
def test_page_reveals_cells_takes_rules_applies_a_fix_and_saves_and_reopens_them(start, page, tmp_path):
    src = tmp_path / "switch.json"
    save(LanePuzzle.from_picture(G, "".join(SWITCH)), str(src), "json")
    ed = start(str(src))
    page.goto(ed.url)
    text = verdict(page, "multiple")
    assert "differ in 4 cells" in text

    # a proposal to reveal one cell: previewed as a dot, applied as a ring; the verdict follows
    reveal = page.locator(".fix.givens").first
    sync_api.expect(reveal).to_contain_text("Reveal 1 cell", timeout=WAIT)
    reveal.hover()
    sync_api.expect(page.locator(".marks .m-reveal")).to_have_count(1)
    reveal.click()
    sync_api.expect(page.locator(".marks .m-given")).to_have_count(1, timeout=WAIT)
    verdict(page, "unique")
    sync_api.expect(page.get_by_test_id("revealed")).to_contain_text("1 cell revealed", timeout=WAIT)
    (given,) = page_doc(page)["givens"]
    assert solutions(SWITCH, [tuple(given)]) == ["".join(SWITCH)]

    # Shift+click hides it again, and reveals another cell: a background cell of one other picture
    tri(page, *given).click(modifiers=["Shift"])
    verdict(page, "multiple")
    assert page.locator(".marks .m-given").count() == 0
    tri(page, 1, 1).click(modifiers=["Shift"])
    sync_api.expect(page.locator(".marks .m-given")).to_have_count(1, timeout=WAIT)
    verdict(page, "multiple")
    assert page_doc(page)["givens"] == [[1, 1]] and page_doc(page)["grid"] == SWITCH  # not painted

    # rules: one with no meaning on triangles is refused in one line; count is honoured
    page.get_by_test_id("rule-text").fill("no-square")
    page.get_by_test_id("rule-add").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("2x2 squares have no meaning on a triangle grid")
    assert page.get_by_test_id("rule").count() == 0
    page.get_by_test_id("rule-text").fill("count:<=1")
    page.get_by_test_id("rule-add").click()
    text = verdict(page, "none")
    assert "count:<=1" in text and "breaks a rule" in text
    page.get_by_test_id("rule").locator("button").click()
    page.get_by_test_id("rule-text").fill("count:>=2")
    page.get_by_test_id("rule-text").press("Enter")
    sync_api.expect(page.get_by_test_id("rule")).to_have_text("count:>=2 ✕")
    verdict(page, "multiple")

    # a single-cell edit: previewed, applied, the clues of its lanes recomputed, the verdict unique
    edit = page.locator(".fix.edit").first
    sync_api.expect(edit).to_be_visible(timeout=WAIT)
    edit.hover()
    sync_api.expect(page.locator(".marks .m-preview")).to_have_count(1)
    edit.click()
    verdict(page, "unique")
    d = page_doc(page)
    assert solutions(d["grid"], [tuple(g) for g in d["givens"]], d["rules"]) == ["".join(d["grid"])]
    shot(page, "editor-triddler-givens.png")

    # Save as json keeps the revealed cell and the rule; reopening shows them
    page.get_by_test_id("save-name").fill("fixed.json")
    page.get_by_test_id("save-format").select_option("json")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("Saved", timeout=WAIT)
    saved = load(str(tmp_path / "fixed.json"))
    assert saved.givens == ((6, int(d["grid"][1][1] == "#")),) and [r.name for r in saved.rules] == ["count"]
    assert saved.goal == "".join(d["grid"])
    page.get_by_test_id("save-name").fill("fixed.xml")
    page.get_by_test_id("save-format").select_option("xml")
    page.get_by_test_id("save-as").click()
    sync_api.expect(page.get_by_test_id("message")).to_contain_text("cannot store given", timeout=WAIT)
    assert not (tmp_path / "fixed.xml").exists()
    page.get_by_test_id("hexagon-side").fill("1")
    page.get_by_test_id("new-triddler").click()
    sync_api.expect(page.locator("polygon.cell")).to_have_count(6, timeout=WAIT)
    assert page.get_by_test_id("rule").count() == 0
    page.locator("#picker").set_input_files(str(tmp_path / "fixed.json"))
    sync_api.expect(page.locator("polygon.cell")).to_have_count(24, timeout=WAIT)
    sync_api.expect(page.locator(".marks .m-given")).to_have_count(1, timeout=WAIT)
    sync_api.expect(page.get_by_test_id("rule")).to_have_text("count:>=2 ✕")
    verdict(page, "unique")
