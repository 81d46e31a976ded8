"""Pictures and reports of puzzles of any geometry (satnono.lanerender, satnono.report's lane
functions): the layout follows the outline, every cell is drawn once in its colour."""

from __future__ import annotations

import io
import json
import math
import random
import re
import xml.etree.ElementTree as ET

import pytest
from test_geometry_seam import Diagonals

from satnono.lanecheck import settle_lanes
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerender import picture_png, picture_svg, picture_text
from satnono.render import picture_layout
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
    lay = picture_layout(p, cells, 20)
    image = Image.open(io.BytesIO(picture_png(p, cells, scale=20))).convert("RGB")
    assert image.size == (lay.width, lay.height)
    for c in range(g.cell_count):
        (x0, y0), (x1, y1), (x2, y2) = g.cell_polygon(c)
        cx, cy = (x0 + x1 + x2) / 3 * 20 + lay.x0, (y0 + y1 + y2) / 3 * 20 + lay.y0
        assert image.getpixel((round(cx), round(cy))) == (255, 0, 0)
    assert image.getpixel((0, 0)) == (255, 255, 255)


# --------------------------------------------------------------------------
# Clues: every lane's clue beside the end of that lane that webpbn's clue sets name


def _texts(svg: str) -> list[tuple[float, float, str, float]]:
    """(x, y, text, angle) of every text of an SVG; x, y the point the text hangs on."""
    out = []
    for e in ET.fromstring(svg).iter():
        if not e.tag.endswith("text"):
            continue
        if e.get("transform"):
            m = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\) rotate\(([-\d.]+)\)", e.get("transform"))
            out.append((float(m[1]), float(m[2]), e.text, float(m[3])))
        else:
            out.append((float(e.get("x")), float(e.get("y")), e.text, 0.0))
    return out


#: Where webpbn shows each family's clues, as the unit vector pointing out of the lane there
#: (x right, y down): left of a row's first cell (clue sets topleft, bottomleft), up and right of
#: a ``/`` line's first cell (top, topright), down and right of a ``\\`` line's last cell (bottom,
#: bottomright).
OUT = {"row": (-1.0, 0.0), "/": (0.5, -(3 ** 0.5) / 2), "\\": (0.5, (3 ** 0.5) / 2)}


@pytest.mark.parametrize("g", [Triangle.hexagon(2), Triangle.from_sides(2, 1, 2, 2, 1, 2), Triangle.parallelogram(3, 4),
                               Triangle.parallelogram(2, 3, "\\"), Triangle.triangle(4), Triangle.triangle(3, up=False)],
                         ids=str)
def test_each_clue_is_drawn_beyond_its_lane_where_webpbn_shows_it(g):
    cells = _picture(g, ".#", 11)
    p = LanePuzzle.from_picture(g, cells, name="clues")
    scale = 24
    lay = picture_layout(p, cells, scale)
    texts = _texts(picture_svg(p, cells, scale))
    assert sorted(t for _, _, t, _ in texts) == sorted(" ".join(map(str, c.lengths)) or "0" for c in p.clues)
    for lane, clue in zip(p.lanes, p.clues):
        ox, oy = OUT[lane.family]
        corners = [((x * scale + lay.x0), (y * scale + lay.y0)) for c in lane.cells for x, y in g.cell_polygon(c)]
        across = [-oy * x + ox * y for x, y in corners]  # across the lane: its strip's two sides
        middle = (max(across) + min(across)) / 2
        beyond = max(ox * x + oy * y for x, y in corners)  # the lane's outer end, along it
        # on the lane's axis (a level text by its baseline, a little below), past its end
        hanging = [t for t in texts if abs(-oy * t[0] + ox * t[1] - middle) < scale * (0.35 if t[3] == 0 else 0.05)
                   and 0 < ox * t[0] + oy * t[1] - beyond < scale]
        assert [t[2] for t in hanging] == [" ".join(map(str, clue.lengths)) or "0"], (lane.name, hanging)
        # a row's clue reads level; a slanted lane's is turned along it
        assert hanging[0][3] == pytest.approx({"row": 0, "/": -60, "\\": 60}[lane.family], abs=0.01)


def test_the_diagnosis_of_a_triddler_is_drawn_with_clues_counts_frames_and_a_legend():
    from satnono.diagnose import diagnose
    from satnono.render import CONFLICT_RGB, LEVEL_NAMES, _text_corners, layout, render_png, render_svg

    g = Triangle.hexagon(2)
    rng = random.Random(5)
    for seed in range(30):
        cells = "".join(rng.choice(".#") for _ in range(g.cell_count))
        p = LanePuzzle.from_picture(g, cells, name=f"hex {seed}", keep_goal=False)
        if seed % 3 == 0:  # one clue changed: often no solution
            clues = list(p.clues)
            k = rng.randrange(len(clues))
            clues[k] = clues[k]._replace(lengths=(clues[k].lengths or (0,))[:-1] + ((clues[k].lengths or (0,))[-1] + 1,),
                                         colors=(clues[k].colors or (1,))[:-1] + (1,))
            p = p.replace(clues=tuple(clues))
        d = diagnose(p, 5.0)
        svg = render_svg(d, 20)
        root = ET.fromstring(svg)
        texts = [t for _, _, t, _ in _texts(svg)]
        assert texts[0].startswith(f"hex {seed}: ")
        for v in {v for v in lane_heat_levels(d)}:
            assert LEVEL_NAMES[v] in texts
        frames = [e for e in root.iter() if e.tag.endswith("polygon") and e.get("stroke") == "#%02x%02x%02x" % CONFLICT_RGB]
        assert len(frames) == len(d.conflict)
        counts = [f"{o.placements:,}" for o in d.open_lines]
        for n in counts:
            assert n in texts
        lay = layout(d, 20)
        for it in lay.items:  # every text inside the canvas (as the layout estimates widths)
            if hasattr(it, "text"):
                for x, y in _text_corners(it):
                    assert -1 <= x <= lay.width + 1 and -1 <= y <= lay.height + 1, (it.text, x, y)
        cells_drawn = [e for e in root.iter() if e.tag.endswith("polygon") and e.get("stroke") is None]
        assert len(cells_drawn) == g.cell_count
    from PIL import Image

    image = Image.open(io.BytesIO(render_png(d, 20)))
    assert image.size == (lay.width, lay.height)


def lane_heat_levels(d):
    from satnono.diagnose import lane_heat

    return lane_heat(d)


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


# --------------------------------------------------------------------------
# A geometry satnono does not know, drawn from its outlines alone


@pytest.mark.parametrize("h,w", [(4, 5), (3, 3), (5, 2)])
def test_a_new_geometry_is_drawn_from_its_outlines_with_every_clue_by_its_lane(h, w):
    from satnono.diagnose import diagnose
    from satnono.render import layout, render_png, render_svg

    g = Diagonals(h, w)  # (tests/test_geometry_seam.py's: satnono knows nothing of it)
    cells = _picture(g, ".#", h * w)
    p = LanePuzzle.from_picture(g, cells, name="diagonals")
    scale = 20
    texts = _texts(picture_svg(p, cells, scale))
    lay = picture_layout(p, cells, scale)
    wanted = [t for lane, c in zip(p.lanes, p.clues)
              for t in ([str(n) for n in c.lengths] or ["0"] if lane.family == "column"
                        else [" ".join(map(str, c.lengths)) or "0"])]
    assert sorted(t for _, _, t, _ in texts) == sorted(wanted)
    # the rows' clues on the left, the columns' on top (stacked, one number a cell), the diagonals'
    # past their lower right ends, where no other family's are, turned along them
    s = 2 ** -0.5
    out = {"row": (-1.0, 0.0), "column": (0.0, -1.0), "diagonal": (s, s)}
    for lane, clue in zip(p.lanes, p.clues):
        ox, oy = out[lane.family]
        corners = [(x * scale + lay.x0, y * scale + lay.y0) for c in lane.cells for x, y in g.cell_polygon(c)]
        across = [-oy * x + ox * y for x, y in corners]
        middle = (max(across) + min(across)) / 2
        beyond = max(ox * x + oy * y for x, y in corners)
        numbers = [str(n) for n in clue.lengths] or ["0"]
        near = [t for t in texts if abs(-oy * t[0] + ox * t[1] - middle) < scale * 0.4
                and 0 < ox * t[0] + oy * t[1] - beyond < scale * len(numbers) + scale]
        if lane.family == "column":  # top to bottom in clue order
            assert [t[2] for t in sorted(near, key=lambda t: t[1])] == numbers, (lane.name, near)
        else:
            assert [t[2] for t in near] == [" ".join(numbers)], (lane.name, near)
            assert near[0][3] == pytest.approx(0 if lane.family == "row" else 45, abs=0.01)
    # a diagnosis of it too: one <rect> a cell (its outlines are upright squares), a title, clues
    d = diagnose(p, 5.0)
    svg = render_svg(d, scale)
    root = ET.fromstring(svg)
    assert len([e for e in root.iter() if e.tag.endswith("rect") and e.get("stroke") is None]) == 1 + h * w
    assert _texts(svg)[0][2].startswith("diagonals: ")
    from PIL import Image

    assert Image.open(io.BytesIO(render_png(d, scale))).size == (layout(d, scale).width, layout(d, scale).height)
