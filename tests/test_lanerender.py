"""Pictures and reports of puzzles of any geometry (satnono.lanerender, satnono.report's lane
functions): the layout follows the outline, every cell is drawn once in its colour."""

from __future__ import annotations

import io
import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

from satnono.lanecheck import settle_lanes
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerender import picture_png, picture_svg, picture_text
from satnono.lanes import Rectangle, Triangle
from satnono.palette import Color
from satnono.report import lane_result_dict, lane_verdict_text

THREE = (Color("white", ".", (255, 255, 255)), Color("red", "r", (255, 0, 0)), Color("blue", "b", (0, 0, 255)))
SHAPES = [Triangle.hexagon(1), Triangle.hexagon(3), Triangle.triangle(4), Triangle.triangle(3, up=False),
          Triangle.parallelogram(3, 4), Triangle.from_sides(2, 1, 2, 2, 1, 2), Rectangle(3, 4)]
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def _picture(g, chars: str, seed: int) -> str:
    rng = random.Random(seed)
    return "".join(rng.choice(chars) for _ in range(g.cell_count))


@pytest.mark.parametrize("g", SHAPES, ids=str)
def test_the_terminal_picture_has_every_cell_once_in_its_row(g):
    cells = _picture(g, ".#", 1)
    p = LanePuzzle.from_picture(g, cells)
    lines = picture_text(p, cells).splitlines()
    glyphs = "".join(line.replace(" ", "") for line in lines)
    assert len(glyphs) == g.cell_count
    filled = sum(ch in "▲▼█" for ch in glyphs)
    assert filled == cells.count("#")
    if g.kind == "triangle":
        assert [len(line.strip()) for line in lines] == list(g.row_lengths())
        # up and down triangles alternate along a row
        for line in lines:
            ups = [ch in "▲△" for ch in line.strip()]
            assert all(a != b for a, b in zip(ups, ups[1:]))
        assert picture_text(p, cells, plain=True).splitlines() == list(g.text_rows(cells))


def test_differing_cells_are_marked_and_colours_drawn_in_colour():
    g = Triangle.hexagon(2)
    cells = _picture(g, ".rb", 2)
    p = LanePuzzle.from_picture(g, cells, THREE)
    text = picture_text(p, cells, marks=[0, 7])
    plain = ANSI.sub("", text).replace(" ", "").replace("\n", "")
    assert plain[0] == "×" and plain.count("×") == 2
    assert "\x1b[38;2;255;0;0m" in text and "\x1b[38;2;0;0;255m" in text
    assert picture_text(p, cells, plain=True, marks=[0]).replace("\n", "").count("*") == 1


@pytest.mark.parametrize("g", SHAPES, ids=str)
def test_the_svg_has_one_polygon_a_cell_in_its_colour(g):
    cells = _picture(g, ".rb", 3)
    p = LanePuzzle.from_picture(g, cells, THREE, name="a <name>")
    root = ET.fromstring(picture_svg(p, cells, cell=10))
    polys = [e for e in root.iter() if e.tag.endswith("polygon")]
    assert len(polys) == g.cell_count
    fills = {"." : "#ffffff", "r": "#ff0000", "b": "#0000ff"}
    assert [e.get("fill") for e in polys] == [fills[ch] for ch in cells]
    assert root.find("{http://www.w3.org/2000/svg}title").text == "a <name>"


def test_the_png_shows_the_colours_inside_the_cells():
    from PIL import Image

    g = Triangle.hexagon(2)
    cells = "r" * g.cell_count
    p = LanePuzzle.from_picture(g, cells, THREE)
    image = Image.open(io.BytesIO(picture_png(p, cells, scale=20))).convert("RGB")
    (x0, y0), (x1, y1), (x2, y2) = g.cell_polygon(5)
    cx, cy = (x0 + x1 + x2) / 3 * 20 + 2, (y0 + y1 + y2) / 3 * 20 + 2
    assert image.getpixel((round(cx), round(cy))) == (255, 0, 0)
    assert image.getpixel((0, 0)) == (255, 255, 255)


def test_the_report_of_a_triddler():
    g = Triangle.hexagon(1)
    res = settle_lanes(LanePuzzle.from_picture(g, "#..#.#", name="six", keep_goal=False))
    assert lane_verdict_text(res).startswith("unique (line-solvable)  [triddler of 6 cells, 0 cells left")
    d = json.loads(json.dumps(lane_result_dict(res, "six.xml", None)))
    assert d["geometry"] == g.as_json() and d["cells"] == 6 and d["solutions"] == ["#..#.#"]
    assert d["status"] == "unique" and d["line_solvable"] is True and "lanes" not in d
    blotted = LanePuzzle.from_picture(g, "##.#.#", keep_goal=False)
    blotted = blotted.replace(clues=tuple(c._replace(blots=1, lengths=(1, *c.lengths[1:])) if c.lengths else c
                                          for c in blotted.clues))
    d = lane_result_dict(settle_lanes(blotted), "b.xml", 2)
    assert d["index"] == 2 and len(d["lanes"]) == len(g.lanes()) and "?" in json.dumps(d["lanes"])
