"""Diagnostics for authors, for every kind of puzzle: placements, ambiguity region, minimal
conflicts, classification, rendering, CLI.

A puzzle's kind is that of its lines (:attr:`satnono.clues.LineClue.kind`): ``bw`` or
``color``.  The ambiguity region is checked for both kinds against the kind's brute force
(``tests/_oracles.py``); the tests of one kind's own matter (its placement counter, its
conflicts and messages) stay specific.
"""

from __future__ import annotations

import io
import itertools
import json
import os
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from _oracles import PAL2, blocks_of, char_of, color_line_placements, palette
from _oracles import bw_line_placements as _placements
from _oracles import puzzle_solutions as solutions

from satnono.classify import classify_puzzle
from satnono.cli import main
from satnono.diagnose import diagnose, heat, minimal_conflict
from satnono.cnf.encode import encode
from satnono.lines import LineSolver
from satnono.lines.count import count_color_placements, count_placements
from satnono.model import Puzzle, line_clue
from satnono.logic.state import COLUMN, ROW, GridState
from satnono.render import (
    COLOURS,
    layout,
    render_heatmap,
    render_png,
    render_summary,
    render_svg,
)
from satnono.sat import SatSession

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
KINDS = ("bw", "color")


def lines_satisfiable_brute(p: Puzzle, lines: list[tuple[str, int]]) -> bool:
    """Is there a grid meeting the clues of just these lines?  (Brute force.)"""
    rows = [_placements(p.rows[r], p.width) if (ROW, r) in lines
            else ["".join(b) for b in itertools.product(".#", repeat=p.width)] for r in range(p.height)]
    cols = [c for a, c in lines if a == COLUMN]
    for combo in itertools.product(*rows):
        if all(line_clue("".join(row[c] for row in combo)) == p.columns[c] for c in cols):
            return True
    return False


def lines_satisfiable_sat(p: Puzzle, lines: list[tuple[str, int]]) -> bool:
    enc = encode(GridState(p), LineSolver(), rows=range(p.height), columns=range(p.width), selectors=True)
    with SatSession(enc.clauses) as s:
        return bool(s.solve(assumptions=[enc.selectors[k] for k in lines]))


def random_grid(rng, h, w, d=0.5):
    return ["".join("#" if rng.random() < d else "." for _ in range(w)) for _ in range(h)]


def random_picture(kind: str, rng) -> Puzzle:
    """A small random picture: black and white up to 5x5, two or three colours up to 4x4."""
    if kind == "bw":
        return Puzzle.from_grid(random_grid(rng, rng.randint(2, 5), rng.randint(2, 5), rng.uniform(0.3, 0.7)))
    k = rng.choice((2, 3))
    h, w = rng.randint(2, 4), rng.randint(2, 4)
    grid = tuple("".join(rng.choice("." * k + "abc"[:k]) for _ in range(w)) for _ in range(h))
    return Puzzle.from_grid(grid, palette=palette(k))



# --------------------------------------------------------------------------
# Placements


def test_count_placements_matches_brute_force():
    rng = random.Random(1)
    for n in range(0, 9):
        for bits in itertools.product(".#", repeat=n):
            line = "".join(bits)
            clue = line_clue(line)
            for _ in range(3):
                black = white = 0
                for i, ch in enumerate(line):  # known cells taken from a consistent line or at random
                    if rng.random() < 0.3:
                        if (ch == "#") if rng.random() < 0.8 else rng.random() < 0.5:
                            black |= 1 << i
                        else:
                            white |= 1 << i
                want = sum(1 for pl in _placements(clue, n)
                           if all((pl[i] == "#") == bool((black >> i) & 1) for i in range(n)
                                  if ((black | white) >> i) & 1))
                assert count_placements(clue, n, black, white) == want, (clue, n, black, white)


def test_color_placements_match_brute_force():
    rng = random.Random(12)
    for _ in range(1500):
        k = rng.randint(2, 4)
        n = rng.randint(1, 10)
        cells = "".join(char_of(rng.choice([0, 0] + list(range(1, k + 1)))) for _ in range(n))
        lengths, colors = blocks_of(cells)
        excluded = [0] * (k + 1)
        for i in range(n):
            for v in range(k + 1):
                if rng.random() < 0.1:
                    excluded[v] |= 1 << i
        want = sum(
            1 for line, _ in color_line_placements(lengths, colors, n)
            if not any((excluded[0 if ch == "." else ord(ch) - 96] >> i) & 1 for i, ch in enumerate(line))
        )
        assert count_color_placements(lengths, colors, n, excluded) == want


def test_count_placements_is_exact_for_long_lines():
    # 1 1 ... 1 (k ones) in n cells: C(n - k + 1, k)
    from math import comb

    assert count_placements((1,) * 40, 200) == comb(161, 40)


# --------------------------------------------------------------------------
# Diagnoses


def test_unique_puzzle():
    d = diagnose(Puzzle.from_grid(["##.##", "#....", "#...#", "..#.#", "....#"]))
    assert d.status == "unique" and d.line_solvable and not d.open_lines and not d.ambiguous


def test_open_lines_and_undetermined_cells():
    p = Puzzle.from_grid(["#.", ".#"])
    d = diagnose(p)
    assert d.status == "multiple" and d.after_line == ("??", "??")
    assert [(o.axis, o.index, o.placements) for o in d.open_lines] == [
        (ROW, 0, 2), (ROW, 1, 2), (COLUMN, 0, 2), (COLUMN, 1, 2)]
    assert d.undetermined == [(0, 0), (0, 1), (1, 0), (1, 1)] and d.ambiguous == d.undetermined


AMBIGUITY = {"bw": (8, 300, 20), "color": (13, 80, 5)}  # kind: seed, pictures, ambiguous ones at least


@pytest.mark.parametrize("kind", KINDS)
def test_ambiguity_region_is_where_solutions_disagree(kind):
    """The ambiguity region is exactly the cells where the solutions differ; what line logic
    settles agrees with every solution."""
    seed, n, at_least = AMBIGUITY[kind]
    rng = random.Random(seed)
    seen = strict = 0
    for _ in range(n):
        p = random_picture(kind, rng)
        sols = solutions(p)
        d = diagnose(p)
        assert d.status == ("multiple" if len(sols) > 1 else "unique")
        want = sorted({(r, c) for r in range(p.height) for c in range(p.width)
                       if len({s[r][c] for s in sols}) > 1})
        assert d.ambiguity_complete and d.ambiguous == want
        seen += len(sols) > 1
        strict += len(sols) > 1 and len(want) < len(d.undetermined)  # open cells with one value
        for s in d.solutions:
            assert p.is_solution(s)
        for r, c in d.undetermined:
            assert d.after_line[r][c] == "?"
        for r, row in enumerate(d.after_line):
            for c, ch in enumerate(row):
                if ch != "?":
                    assert all(s[r][c] == ch for s in sols)
        for o in d.open_lines:
            assert o.placements > 1 and (o.colors is not None) == (kind == "color")
    assert seen > at_least
    if kind == "bw":  # (the colour sample has no ambiguous picture with an open cell of one value)
        assert strict > 0


def _unsat_cases():
    rng = random.Random(21)
    out = []
    while len(out) < 40:
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        p = Puzzle.from_grid(random_grid(rng, h, w))
        rows = list(p.rows)
        rows[rng.randrange(h)] = tuple(rng.randint(1, 2) for _ in range(rng.randint(0, 2)))
        q = Puzzle.from_clues(rows, p.columns)
        if not solutions(q):
            out.append(q)
    return out


def test_minimal_conflict_is_minimal_by_brute_force():
    for p in _unsat_cases():
        found = minimal_conflict(p)
        assert found is not None
        conflict, minimal = found
        assert minimal and conflict
        assert not lines_satisfiable_brute(p, conflict)
        for line in conflict:
            rest = [x for x in conflict if x != line]
            assert lines_satisfiable_brute(p, rest), (p.rows, p.columns, conflict, line)


def test_minimal_conflict_is_minimal_by_sat_on_larger_puzzles():
    rng = random.Random(3)
    checked = 0
    while checked < 10:
        p = Puzzle.from_grid(random_grid(rng, 10, 10))
        rows = list(p.rows)
        cols = list(p.columns)
        rows[rng.randrange(10)] = (rng.randint(1, 3), rng.randint(1, 3))
        cols[rng.randrange(10)] = (rng.randint(1, 3),)
        q = Puzzle.from_clues(rows, cols)
        d = diagnose(q, timeout=30)
        if d.status != "none":
            continue
        checked += 1
        assert d.conflict_minimal and d.conflict
        assert not lines_satisfiable_sat(q, d.conflict)
        for line in d.conflict:
            assert lines_satisfiable_sat(q, [x for x in d.conflict if x != line])


def test_a_clue_too_long_for_its_line_is_a_conflict_of_one():
    p = Puzzle.from_clues([[1], [2, 2]], [[1], [1], [1], [1]])
    d = diagnose(p)
    assert d.status == "none" and d.conflict == [(ROW, 1)] and d.conflict_minimal
    assert "needs 5 cells" in (d.reason or "")


def test_row_and_column_totals_that_disagree():
    p = Puzzle.from_clues([[1], [1], [1]], [[1], [1], [2]])
    d = diagnose(p)
    assert d.status == "none" and "total" in d.reason
    assert d.conflict and d.conflict_minimal
    assert not lines_satisfiable_brute(p, d.conflict)
    for line in d.conflict:
        assert lines_satisfiable_brute(p, [x for x in d.conflict if x != line])


def test_json_form_is_data():
    d = diagnose(Puzzle.from_clues([[1], [2, 2]], [[1], [1], [1], [1]]))
    j = json.loads(json.dumps(d.as_dict()))
    assert j["status"] == "none" and j["conflict"] == [{"axis": "row", "index": 1, "clue": [2, 2]}]


def test_a_blotted_line_in_a_conflict_keeps_its_hidden_numbers_hidden_in_json():
    """A hidden number is ``"?"`` in the conflict's clue as in the open lines' (it was written as
    the placeholder length 1)."""
    p = Puzzle.from_clues([["?", 2, "?"], [1]], [[1], [1], [1], [1]])
    d = diagnose(p)
    assert d.status == "none" and d.conflict == [(ROW, 0)] and d.conflict_minimal
    assert d.as_dict()["conflict"] == [{"axis": "row", "index": 0, "clue": ["?", 2, "?"]}]


def test_conflicting_colour_lines():
    """A row asks for red where every crossing column asks for blue: `none` with a minimal set of lines."""
    p = Puzzle.from_clues(rows=[[(2, "a")], [(2, "b")]], columns=[[(1, "b"), (1, "a")], [(1, "b"), (1, "a")]],
                          palette=PAL2)
    assert not p.sum_mismatch()
    d = diagnose(p)
    assert d.status == "none" and d.conflict and d.conflict_minimal
    rec = classify_puzzle(p)
    assert rec["class"] == "none"


def test_sum_mismatch_names_the_colour():
    p = Puzzle.from_clues(rows=[[(1, "a")]], columns=[[(1, "b")]], palette=PAL2)
    d = diagnose(p)
    assert d.status == "none" and "c1" in d.reason


def test_classify_with_probing_in_colour():
    rng = random.Random(14)
    seen = set()
    for _ in range(60):
        k = rng.choice((2, 3))
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        grid = tuple("".join(rng.choice("." * k + "abc"[:k]) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        rec = classify_puzzle(p, probing=True, max_solutions=1000)
        n = len(solutions(p, limit=1001))
        assert rec["count"] == n and rec["count_exact"]
        if rec["class"] in ("line", "search"):
            assert rec["level"] in ("line", "probe", "probe2", "search")
            seen.add(rec["level"])
        else:
            assert rec["class"] == "multiple"
    assert "line" in seen


# --------------------------------------------------------------------------
# Rendering


def _png(data: bytes):
    from PIL import Image

    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def _inked(img, box) -> int:
    """Pixels in ``box`` (x0, y0, x1, y1) that are not white."""
    data = img.crop(box).tobytes()
    return sum(1 for i in range(0, len(data), 3) if data[i:i + 3] != b"\xff\xff\xff")


def test_png_and_svg_show_the_levels():
    p = Puzzle.from_grid(["###.", "#.#.", "##..", "...."])
    d = diagnose(p)
    levels = heat(d)
    for cell in (4, 16):
        img = _png(render_png(d, cell=cell))
        lay = layout(d, cell, text=cell >= 8)
        assert img.size == (lay.width, lay.height)
        for r in range(4):
            for c in range(4):
                x, y = lay.x0 + c * cell + cell // 2, lay.y0 + r * cell + cell // 2  # inside the cell
                assert img.getpixel((x, y)) == COLOURS[levels[r][c]]
    root = ET.fromstring(render_svg(d))
    assert root.tag.endswith("svg")
    fills = {e.get("fill") for e in root.iter() if e.tag.endswith("rect")}
    assert "#%02x%02x%02x" % COLOURS[1] in fills


def _svg_texts(svg: str) -> list[tuple[float, float, str, float, str]]:
    root = ET.fromstring(svg)
    out = []
    for e in root.iter():
        if e.tag.endswith("text") and e.get("x") is not None:
            out.append((float(e.get("x")), float(e.get("y")), e.text or "", float(e.get("font-size")),
                        e.get("text-anchor") or "start"))
    return out


def _assert_fits(svg: str) -> None:
    root = ET.fromstring(svg)
    width, height = float(root.get("width")), float(root.get("height"))
    for x, y, text, size, anchor in _svg_texts(svg):
        extent = len(text) * 0.6 * size
        left = x - extent if anchor == "end" else x - extent / 2 if anchor == "middle" else x
        assert left >= 0 and left + extent <= width and 0 < y <= height, (text, x, y, width, height)
    for e in root.iter():
        if e.tag.endswith("rect"):
            assert float(e.get("x")) + float(e.get("width")) <= width
            assert float(e.get("y")) + float(e.get("height")) <= height


def test_pictures_show_clues_counts_legend_and_a_title_that_fits():
    long_name = "A very long title of a puzzle, as some authors give them " * 3
    p = Puzzle.from_grid(["#.", ".#"], name=long_name)  # ambiguous: every line has 2 placements
    d = diagnose(p)
    svg = render_svg(d)
    _assert_fits(svg)
    texts = [t for _, _, t, _, _ in _svg_texts(svg)]
    assert texts[0].startswith("A very long title") and texts[0].endswith("\u2026")
    assert texts.count("1") >= 4  # the row clues and the column clues
    assert "ambiguous (differs between solutions)" in texts
    assert any("placements left after line logic" in t for t in texts)
    assert texts.count("2") == 4  # the placements beside each row and under each column
    lay = layout(d, 16)
    img = _png(render_png(d, cell=16))
    assert _inked(img, (0, lay.y0, lay.x0 - 2, lay.y0 + 32)) > 10  # row clues left of the grid
    assert _inked(img, (lay.x0, lay.y0 - 20, lay.x0 + 32, lay.y0 - 2)) > 10  # column clues above
    assert _inked(img, (lay.x0 + 34, lay.y0, lay.width, lay.y0 + 32)) > 10  # row counts right
    assert _inked(img, (0, lay.y0 + 40, lay.width, lay.height)) > 200  # legend and column counts


def test_contradictory_pictures_list_every_level_and_agree_with_the_header():
    # a contradiction found by line logic part-way: some cells settled, some left open
    p = Puzzle.from_clues([[2], [1], [1, 1], [3]], [[1, 1], [2], [1, 2], [1]])
    d = diagnose(p)
    assert d.status == "none"
    open_cells = sum(row.count("?") for row in d.after_line)
    assert len(d.undetermined) == open_cells  # header, JSON and map agree
    assert f"{open_cells} cells undetermined" in render_summary(d)
    levels = {v for row in heat(d) for v in row}
    svg = render_svg(d)
    _assert_fits(svg)
    texts = [t for _, _, t, _, _ in _svg_texts(svg)]
    from satnono.render import LEVEL_NAMES

    for v in levels:
        assert LEVEL_NAMES[v] in texts
    assert any(t.startswith("red frame") for t in texts)


def test_summary_lists_placements_readably():
    d = diagnose(Puzzle.from_grid(["#.", ".#"]))
    text = render_summary(d)
    assert "several placements left after line logic: 2 rows: row 1 has 2 placements, row 2 has 2 placements" in text


def test_text_heat_map():
    d = diagnose(Puzzle.from_grid(["#.", ".#"]))
    text = render_heatmap(d, ascii=True)
    assert text.splitlines()[:2] == ["!!  2", "!!  2"]
    assert "ambiguous" in text
    assert "several solutions" in render_summary(d)
    d = diagnose(Puzzle.from_clues([[1], [2, 2]], [[1], [1], [1], [1]]))
    assert "<- conflict" in render_heatmap(d) and "row 2 [2 2]" in render_summary(d)


def _text_box(it, em: float):
    """The horizontal extent of a layout text item, as the layout itself estimates widths."""
    w = len(it.text) * em * it.size
    x = it.x - (w if it.anchor == "end" else w / 2 if it.anchor == "middle" else 0)
    return x, x + w


@pytest.mark.parametrize("seed", range(12))
def test_picture_marks_differ_from_every_palette_colour_and_text_fits(seed):
    """Diagnose pictures: the undetermined, ambiguous and conflict marks stay apart from every
    colour of the puzzle (orange #FFAC2B was the undetermined yellow's twin) and every text
    fits the canvas, small and large, colour and black and white (issue 20, item 4)."""
    import random as _random

    from satnono import render
    from satnono.diagnose import diagnose
    from satnono.model import Color, Puzzle

    rng = _random.Random(seed)
    k = rng.randint(1, 5)
    near = [(0xFF, 0xAC, 0x2B), (0xF2, 0xC9, 0x4C), (0xE5, 0x39, 0x35), (0x8E, 0x24, 0xAA)]
    rgbs = [rng.choice(near) if rng.random() < 0.5 else tuple(rng.randrange(256) for _ in range(3)) for _ in range(k)]
    rgbs = list(dict.fromkeys(rgbs))
    pal = (Color("white", ".", (255, 255, 255)),) + tuple(
        Color(f"c{i}", "abcde"[i], rgb) for i, rgb in enumerate(rgbs))
    h, w = rng.choice([(1, 3), (3, 1), (5, 5), (12, 9), (30, 25)])
    grid = ["".join(rng.choice(".." + "abcde"[:len(rgbs)]) for _ in range(w)) for _ in range(h)]
    p = Puzzle.from_grid(grid, palette=pal) if len(pal) > 2 else Puzzle.from_grid(
        [r.replace("a", "#") for r in grid])
    marks = render.mark_colours(p.palette)
    for level, rgb in marks.items():
        assert all(render._distance(rgb, c.rgb) >= render.MARK_DISTANCE for c in p.palette), (level, rgb)
    lay = render.layout(diagnose(p, timeout=5))
    for it in lay.items:
        if isinstance(it, render._Text) and not it.rotate:
            x1, x2 = _text_box(it, render._EM)
            assert 0 <= x1 and x2 <= lay.width, (it.text, x1, x2, lay.width)
            assert 0 < it.y <= lay.height


# --------------------------------------------------------------------------
# CLI


def _write(tmp_path: Path, name: str, p: Puzzle) -> str:
    rows = "\n".join(" ".join(map(str, r)) or "0" for r in p.rows)
    cols = "\n".join(" ".join(map(str, c)) or "0" for c in p.columns)
    path = tmp_path / name
    path.write_text(f"width {p.width}\nheight {p.height}\nrows\n{rows}\ncolumns\n{cols}\n")
    return str(path)


def test_cli_diagnose_exit_codes_and_outputs(tmp_path, capsys):
    multi = _write(tmp_path, "m.non", Puzzle.from_grid(["#.", ".#"]))
    unique = _write(tmp_path, "u.non", Puzzle.from_grid(["#.", "##"]))
    none = _write(tmp_path, "n.non", Puzzle.from_clues([[1], [2, 2]], [[1], [1], [1], [1]]))
    assert main(["diagnose", unique]) == 0
    assert main(["diagnose", none]) == 4
    svg, png = tmp_path / "m.svg", tmp_path / "m.png"
    assert main(["diagnose", multi, "--svg", str(svg), "--png", str(png), "--ascii"]) == 3
    out = capsys.readouterr().out
    assert "ambiguity region: 4 cells" in out and "!!" in out
    ET.fromstring(svg.read_text())
    _png(png.read_bytes())
    assert main(["diagnose", "--json", multi]) == 3
    j = json.loads(capsys.readouterr().out)
    assert j["file"] == multi and j["status"] == "multiple" and len(j["ambiguous"]) == 4


_OPEN_LINES = {
    # rows and columns both open (a 2x2 diagonal)
    "bw": {"rows": [[1], [1]], "columns": [[1], [1]]},
    # some lines open (row 3 with 3 placements), row 2 and column 2 settled
    "bw-some": {"rows": [[1, 1], [1], [2, 1], [2]], "columns": [[1], [1, 2], [1], [1], [2]]},
    "color": {"colors": {"a": "#ff0000", "b": "#0000ff"},
              "rows": [[[1, "a"]], [[1, "a"]], [[2, "b"]]],
              "columns": [[[1, "a"], [1, "b"]], [[1, "a"], [1, "b"]]]},
}


@pytest.mark.parametrize("ascii_", [False, True])
@pytest.mark.parametrize("name", sorted(_OPEN_LINES))
def test_cli_diagnose_lists_open_rows_and_columns_once(tmp_path, capsys, name, ascii_):
    """Defect 6: the columns' 'several placements left' line was printed twice (by the
    summary and again under the heat map); each of the rows' and the columns' lines comes
    once, and no line outside the map itself is repeated."""
    from satnono.formats import load

    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(_OPEN_LINES[name]))
    d = diagnose(load(str(path)))
    rows = [(o.index, o.placements) for o in d.open_lines if o.axis == ROW]
    cols = [(o.index, o.placements) for o in d.open_lines if o.axis == COLUMN]
    assert rows and cols and d.status == "multiple"
    assert main(["diagnose", str(path)] + (["--ascii"] if ascii_ else [])) == 3
    lines = capsys.readouterr().out.splitlines()
    from satnono.render import placement_list

    expected = ["several placements left after line logic: " + placement_list("row", rows),
                "several placements left after line logic: " + placement_list("column", cols)]
    assert [t for t in lines if "placements left" in t] == expected
    grid = render_heatmap(d, ascii_).splitlines()[:d.puzzle.height]
    prose = [t for t in lines if t not in grid]
    assert len(prose) == len(set(prose)), prose
    assert len(lines) == len(prose) + d.puzzle.height


def test_cli_diagnose_never_overwrites_without_force(tmp_path, capsys):
    multi = _write(tmp_path, "m.non", Puzzle.from_grid(["#.", ".#"]))
    out = tmp_path / "old.png"
    out.write_bytes(b"keep me")
    assert main(["diagnose", multi, "--png", str(out)]) == 6
    assert out.read_bytes() == b"keep me"
    assert "exists" in capsys.readouterr().err
    assert main(["diagnose", multi, "--png", str(out), "--force"]) == 3
    assert out.read_bytes().startswith(b"\x89PNG")


def test_cli_diagnose_bad_input(tmp_path, capsys):
    bad = tmp_path / "bad.non"
    bad.write_text("width 2\nheight 1\nrows\n1 x\ncolumns\n1\n1\n")
    assert main(["diagnose", str(bad)]) == 6
    err = capsys.readouterr().err
    assert "bad.non:4" in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    many = tmp_path / "set.json"
    many.write_text(json.dumps([{"rows": [[1]], "columns": [[1]]}] * 2))
    assert main(["diagnose", str(many)]) == 6
    assert "#k" in capsys.readouterr().err
    assert main(["diagnose", str(many) + "#2"]) == 0


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
def test_corpus_ambiguous_puzzle():
    from satnono.formats import load

    d = diagnose(load(str(CORPUS / "jwilk-nonogram" / "data" / "data001.nin")), timeout=30)
    assert d.status == "multiple" and len(d.ambiguous) == 4 and d.ambiguity_complete


def test_cli_diagnose_writes_atomically(tmp_path, capsys, monkeypatch):
    import satnono.formats as formats

    multi = _write(tmp_path, "m.non", Puzzle.from_grid(["#.", ".#"]))
    out = tmp_path / "map.svg"
    out.write_text("precious")

    def crash(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(formats.os, "replace", crash)
    assert main(["diagnose", multi, "--svg", str(out), "--force"]) == 6
    assert "No space left" in capsys.readouterr().err
    assert out.read_text() == "precious"  # the old file survives a failed write
    assert sorted(os.listdir(tmp_path)) == ["m.non", "map.svg"]
    monkeypatch.undo()
    assert main(["diagnose", multi, "--svg", str(out), "--force"]) == 3
    assert out.read_text().startswith("<svg")


def test_cells_left_after_line_logic_mean_one_thing(tmp_path):
    """For a puzzle with no solution, check and diagnose give the same count of cells line
    logic left open (it was 0 in check), and explain gives none (issue 20, item 5)."""
    import json as _json
    import random as _random

    from click.testing import CliRunner

    from satnono.cli import cli
    from satnono.model import Puzzle

    rng = _random.Random(3)
    p = Puzzle.from_grid(["".join(rng.choice("#.") for _ in range(15)) for _ in range(15)])
    rows, cols = [list(r) for r in p.rows], [list(c) for c in p.columns]
    rows[3][-1] += 1
    cols[5][-1] += 1
    path = tmp_path / "contra.json"
    path.write_text(_json.dumps({"rows": rows, "columns": cols}))
    run = CliRunner().invoke
    checked = _json.loads(run(cli, ["check", "--json", str(path)]).stdout)
    diag = _json.loads(run(cli, ["diagnose", "--json", str(path)]).stdout)
    assert checked["status"] == diag["status"] == "none"
    left = checked["stats"]["unknown_after_propagation"]
    assert left > 0 and left == len(diag["undetermined"]) == sum(r.count("?") for r in diag["after_line"])
    assert f"{left} cells left after line logic" in run(cli, ["check", str(path)]).stdout
    assert "contradiction found" in run(cli, ["explain", str(path)]).stdout


def test_conflicting_colour_lines_are_listed_with_their_colours(tmp_path):
    import json as _json

    from click.testing import CliRunner

    from satnono.cli import cli

    path = tmp_path / "cc.json"
    path.write_text(_json.dumps({"colors": {"a": "#ff0000", "b": "#0000ff"},
                                 "rows": [[[1, "a"], [1, "b"]], [[1, "b"], [1, "a"]]],
                                 "columns": [[[1, "a"], [1, "b"]], [[1, "a"], [1, "a"]]]}))
    run = CliRunner().invoke
    assert "column 2 [1a 1a]" in run(cli, ["diagnose", str(path)]).stdout
    d = _json.loads(run(cli, ["diagnose", "--json", str(path)]).stdout)
    assert d["conflict"] == [{"axis": "column", "index": 1, "clue": [1, 1], "colors": ["a", "a"]}]
