"""satnono.lanes: Lane, Rectangle and Triangle (the triddler geometry).

The triangle's lanes are checked against what the cells' outlines say (independently of how
the lanes are built): consecutive cells of a lane share an edge, a lane runs in its family's
direction, the lanes of a family lie side by side in the documented order.  The worked example
of webpbn's specification pins the order and direction of every family.
"""

from __future__ import annotations

import json
import math
import random
from itertools import product

import pytest

from satnono.lanes import (
    CLUE_SETS, SIDE_ORDER, Geometry, Lane, Rectangle, Triangle, geometry_from_json,
)
from satnono.model import Puzzle


def small_triangles(limit: int = 4) -> list[Triangle]:
    """Every hexagon (sharp corners included) with the free sides A..D at most ``limit``."""
    out = []
    for a, b, c, d in product(range(limit + 1), repeat=4):
        e, f = a + b - d, c + d - a
        if e < 0 or f < 0:
            continue
        try:
            out.append(Triangle(a, b, c, d, e, f))
        except ValueError:
            pass
    return out


SMALL = small_triangles()
SOME = [Triangle.from_sides(2, 1, 2, 2, 1, 2), Triangle.hexagon(1), Triangle.hexagon(3), Triangle.triangle(3),
        Triangle.triangle(2, up=False), Triangle.parallelogram(3, 2), Triangle.parallelogram(2, 4, "\\"),
        Triangle.from_sides(3, 5, 2, 4, 4, 3)]

ROW_HEIGHT = math.sqrt(3) / 2


def centroid(g: Geometry, cell: int) -> tuple[float, float]:
    pts = g.cell_polygon(cell)
    return sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts)


def shared_corners(g: Geometry, a: int, b: int) -> int:
    pa = {(round(x, 6), round(y, 6)) for x, y in g.cell_polygon(a)}
    return sum((round(x, 6), round(y, 6)) in pa for x, y in g.cell_polygon(b))


# ---------------------------------------------------------------------------------------------
# Lane


def test_lane_names_are_one_based_and_in_words():
    assert [Lane(f, i, (0,)).name for f, i in [("row", 2), ("column", 6), ("/", 3), ("\\", 1), ("line", 0)]] == [
        "row 3", "column 7", "/ line 4", "\\ line 2", "extra line 1"]


def test_lane_is_a_frozen_value():
    lane = Lane("row", 0, (1, 2))
    with pytest.raises(AttributeError):
        lane.index = 3  # type: ignore[misc]
    assert lane == Lane("row", 0, (1, 2)) and hash(lane) == hash(Lane("row", 0, (1, 2)))
    assert not hasattr(lane, "__dict__")  # slots


# ---------------------------------------------------------------------------------------------
# The worked example of webpbn's specification


def test_worked_example_lanes():
    g = Triangle.from_sides(2, 1, 2, 2, 1, 2)
    letters = "ABCDEFGHIJKLMNOP"
    assert g.cell_count == len(letters)
    words = {f: ["".join(letters[i] for i in lane.cells) for lane in g.lanes() if lane.family == f]
             for f in g.families}
    assert words == {"row": ["ABCDE", "FGHIJK", "LMNOP"],
                     "/": ["BAGFL", "DCIHNM", "EKJPO"],
                     "\\": ["FLM", "AGHNO", "BCIJP", "DEK"]}
    assert g.text_rows(letters) == ("/ABCDE\\", "/FGHIJK/", "\\LMNOP/")
    # the drawing: A, C, E, F, H, J, M and O point up
    assert "".join(letters[i] for i in range(g.cell_count) if g.points_up(i)) == "ACEFHJMO"
    # the clue sets: topleft/bottomleft rows, top/topright / lines, bottom/bottomright \ lines
    sets = {name: g.clue_set(name) for name in CLUE_SETS}
    assert sets == {"topleft": ("row", range(0, 2)), "bottomleft": ("row", range(2, 3)),
                    "top": ("/", range(0, 2)), "topright": ("/", range(2, 3)),
                    "bottom": ("\\", range(0, 2)), "bottomright": ("\\", range(2, 4))}


# ---------------------------------------------------------------------------------------------
# Triangle: structure


@pytest.mark.parametrize("n", range(1, 7))
def test_hexagon_counts(n):
    g = Triangle.hexagon(n)
    assert g.cell_count == 6 * n * n
    assert [sum(1 for lane in g.lanes() if lane.family == f) for f in g.families] == [2 * n] * 3
    half = [2 * n + 1 + 2 * i for i in range(n)]
    assert g.row_lengths() == tuple(half + half[::-1])
    # every lane of a regular hexagon: the same lengths in each family
    lengths = {f: sorted(len(lane.cells) for lane in g.lanes() if lane.family == f) for f in g.families}
    assert lengths["row"] == lengths["/"] == lengths["\\"]
    assert sum(g.points_up(i) for i in range(g.cell_count)) == 3 * n * n


def test_triangle_and_parallelogram_shapes():
    for n in range(1, 6):
        up, down = Triangle.triangle(n), Triangle.triangle(n, up=False)
        assert up.cell_count == down.cell_count == n * n
        assert up.row_lengths() == tuple(range(1, 2 * n, 2)) and down.row_lengths() == tuple(range(2 * n - 1, 0, -2))
        assert sum(map(up.points_up, range(up.cell_count))) == n * (n + 1) // 2
    for rows, width, lean in product(range(1, 4), range(1, 4), "/\\"):
        g = Triangle.parallelogram(rows, width, lean)
        assert g.row_lengths() == (2 * width,) * rows
        assert {g.row_ends(r) for r in range(rows)} == {(lean, lean)}


@pytest.mark.parametrize("shapes", [SMALL, SOME], ids=["all small", "some"])
def test_every_cell_in_one_lane_of_each_family(shapes):
    for g in shapes:
        _check_every_cell_in_one_lane_of_each_family(g)


def _check_every_cell_in_one_lane_of_each_family(g):
    lanes = g.lanes()
    assert [lane.family for lane in lanes] == sorted((lane.family for lane in lanes), key=g.families.index)
    for family in g.families:
        mine = [lane for lane in lanes if lane.family == family]
        assert [lane.index for lane in mine] == list(range(g.family_size(family)))
        cells = [c for lane in mine for c in lane.cells]
        assert sorted(cells) == list(range(g.cell_count))
        assert all(lane.cells for lane in mine)
    for cell in range(g.cell_count):
        r, s, b = g.coordinates(cell)
        assert cell in lanes[r].cells and cell in lanes[g.rows + s].cells
        assert cell in lanes[g.rows + g.family_size("/") + b].cells


@pytest.mark.parametrize("shapes", [SMALL, SOME], ids=["all small", "some"])
def test_neighbours_agree_with_the_outlines(shapes):
    for g in shapes:
        _check_neighbours_agree_with_the_outlines(g)


def _check_neighbours_agree_with_the_outlines(g):
    n = g.cell_count
    for a in range(n):
        near = g.neighbours(a)
        assert list(near) == sorted(set(near)) and a not in near and len(near) <= 3
        for b in near:
            assert a in g.neighbours(b)
    # independently: two cells share an edge exactly when their outlines share two corners
    if n <= 40:
        for a in range(n):
            assert set(g.neighbours(a)) == {b for b in range(n) if b != a and shared_corners(g, a, b) == 2}


@pytest.mark.parametrize("shapes", [SMALL, SOME], ids=["all small", "some"])
def test_lanes_run_along_the_grid(shapes):
    for g in shapes:
        _check_lanes_run_along_the_grid(g)


def _check_lanes_run_along_the_grid(g):
    """A lane's consecutive cells share an edge; rows run left to right, / lines from their top
    end (down and to the left), \\ lines from their top-left end (down and to the right); the
    lanes of a family lie side by side in order (u = x + y/sqrt(3) for /, x - y/sqrt(3) for \\,
    y for rows, constant along a lane up to its cells' shapes)."""
    for lane in g.lanes():
        for a, b in zip(lane.cells, lane.cells[1:]):
            assert b in g.neighbours(a)
        points = [centroid(g, c) for c in lane.cells]
        xs, ys = [x for x, _ in points], [y for _, y in points]
        if lane.family == "row":
            assert xs == sorted(xs) and len(set(ys)) <= 2
        elif lane.family == "/":
            assert ys == sorted(ys) and xs == sorted(xs, reverse=True)
        else:
            assert ys == sorted(ys) and xs == sorted(xs)
    slope = {"row": lambda x, y: y / ROW_HEIGHT, "/": lambda x, y: x + y / math.sqrt(3),
             "\\": lambda x, y: x - y / math.sqrt(3)}
    for family in g.families:
        means = [sum(slope[family](*centroid(g, c)) for c in lane.cells) / len(lane.cells)
                 for lane in g.lanes() if lane.family == family]
        assert all(b - a > 0.5 for a, b in zip(means, means[1:])), (family, means)


@pytest.mark.parametrize("g", SOME, ids=lambda g: " ".join(map(str, g.sides)))
def test_polygons(g):
    corners = [p for c in range(g.cell_count) for p in g.cell_polygon(c)]
    assert min(x for x, _ in corners) == pytest.approx(0) and min(y for _, y in corners) == pytest.approx(0)
    for c in range(g.cell_count):
        pts = g.cell_polygon(c)
        assert len(pts) == 3
        sides = [math.dist(p, q) for p, q in zip(pts, pts[1:] + pts[:1])]
        assert sides == pytest.approx([1, 1, 1])
        (x1, y1), (x2, y2), (x3, y3) = pts
        assert (x2 - x1) * (y3 - y1) - (y2 - y1) * (x3 - x1) > 0  # clockwise on screen (y down)
        assert x1 == min(x for x, _ in pts)  # from the leftmost corner
        bottom = max(y for _, y in pts)
        assert (sum(y == pytest.approx(bottom) for _, y in pts) == 2) == g.points_up(c)  # a side at the bottom
        r = g.coordinates(c)[0]
        assert {round(y / ROW_HEIGHT, 6) for _, y in pts} == {r, r + 1}


def test_row_ends_follow_the_outline():
    g = Triangle.from_sides(3, 5, 2, 4, 4, 3)
    ends = [g.row_ends(r) for r in range(g.rows)]
    assert [left for left, _ in ends] == ["/"] * 3 + ["\\"] * 5
    assert [right for _, right in ends] == ["\\"] * 4 + ["/"] * 4
    # the top side of a row is the bottom side of the row above; a side sloping out (/ on the
    # left, \ on the right) makes its bottom half a side longer there, sloping in half a side shorter
    for g in SMALL + SOME:
        top = g.top
        for r, length in enumerate(g.row_lengths()):
            left, right = g.row_ends(r)
            bottom = top + (left == "/") + (right == "\\") - 1
            assert length == top + bottom and bottom >= 0
            top = bottom
        assert top == g.bottom


def test_text_rows_round_trip_and_errors():
    rng = random.Random(5)
    for g in SOME:
        cells = "".join(rng.choice(".#ab") for _ in range(g.cell_count))
        rows = g.text_rows(cells)
        assert [len(row) - 2 for row in rows] == list(g.row_lengths())
        assert g.parse_text_rows(rows) == cells
    g = Triangle.from_sides(2, 1, 2, 2, 1, 2)
    with pytest.raises(ValueError, match="expected 16 cells"):
        g.text_rows("." * 15)
    for rows, message in [(("/ABCDE\\", "/FGHIJK/"), "expected 3 rows"),
                          (("/ABCDE\\", "/FGHIJK\\", "\\LMNOP/"), "row 2 must start with '/' and end with '/'"),
                          (("/ABCD\\", "/FGHIJK/", "\\LMNOP/"), "row 1 has 5 cells, got 4")]:
        with pytest.raises(ValueError, match=message.replace("\\", "\\\\")):
            g.parse_text_rows(rows)


# ---------------------------------------------------------------------------------------------
# Triangle: construction, validation and JSON


def test_from_sides_validates_in_one_line():
    cases = [((2, 1, 2, 2, 2, 2), "do not close a hexagon"), ((-1, 1, 0, 0, 0, 1), "at least 0"),
             ((0, 0, 1, 0, 0, 1), "at least one row"), ((1, 0, 0, 1, 0, 0), "enclose no triangle"),
             ((1.5, 0, 1, 0, 1, 0), "whole number"), ((True, 0, 1, 0, 1, 0), "whole number")]
    for sides, message in cases:
        with pytest.raises(ValueError, match=message) as info:
            Triangle.from_sides(*sides)  # type: ignore[arg-type]
        assert "\n" not in str(info.value)
    with pytest.raises(ValueError, match="leans"):
        Triangle.parallelogram(2, 2, "|")
    with pytest.raises(ValueError, match="at least 1"):
        Triangle.hexagon(0)


def test_geometry_json_round_trip():
    for g in [*SOME, Rectangle(3, 7), Rectangle(1, 1)]:
        data = g.as_json()
        assert json.loads(json.dumps(data)) == data
        assert geometry_from_json(data) == g and type(g).from_json(data) == g
        assert isinstance(g, Geometry)
    assert Triangle.from_sides(2, 1, 2, 2, 1, 2).as_json() == {
        "kind": "triangle", "topleft": 2, "bottomleft": 1, "bottom": 2, "bottomright": 2, "topright": 1, "top": 2}
    assert list(Triangle.hexagon(1).as_json())[1:] == list(SIDE_ORDER)
    assert Rectangle(3, 7).as_json() == {"kind": "rectangle", "height": 3, "width": 7}


@pytest.mark.parametrize("data, message", [
    ({"kind": "hexagon"}, "unknown geometry kind"),
    ([1, 2], "unknown geometry kind"),
    ({"kind": "rectangle", "height": 2}, "needs 'width'"),
    ({"kind": "rectangle", "height": 2, "width": 0}, "at least 1"),
    ({"kind": "rectangle", "height": 2, "width": "3"}, "whole number"),
    ({"kind": "rectangle", "height": 2, "width": 3, "depth": 1}, "unknown key 'depth'"),
    ({"kind": "triangle", "topleft": 1, "bottomleft": 0, "bottom": 1, "bottomright": 0, "topright": 1}, "needs 'top'"),
    ({"kind": "triangle", "topleft": 1, "bottomleft": 0, "bottom": 1, "bottomright": 0, "topright": 2, "top": 0},
     "do not close"),
])
def test_geometry_json_errors(data, message):
    with pytest.raises(ValueError, match=message) as info:
        geometry_from_json(data)
    assert "\n" not in str(info.value)


def test_cells_out_of_range():
    for g in [Triangle.hexagon(1), Rectangle(2, 2)]:
        for bad in (-1, g.cell_count):
            with pytest.raises(IndexError):
                g.neighbours(bad)
            with pytest.raises(IndexError):
                g.cell_polygon(bad)


# ---------------------------------------------------------------------------------------------
# Rectangle: today's rows and columns


@pytest.mark.parametrize("h, w", [(1, 1), (1, 5), (4, 1), (3, 7), (6, 4)])
def test_rectangle_lanes_are_todays_rows_and_columns(h, w):
    rng = random.Random(h * 100 + w)
    grid = tuple("".join(rng.choice("#.") for _ in range(w)) for _ in range(h))
    puzzle = Puzzle.from_grid(grid)
    g = Rectangle(h, w)
    flat = "".join(grid)
    assert g.families == ("row", "column") and g.cell_count == h * w
    lanes = g.lanes()
    assert [(lane.family, lane.index) for lane in lanes] == [("row", r) for r in range(h)] + [
        ("column", c) for c in range(w)]

    def runs(text: str) -> tuple[int, ...]:
        return tuple(len(run) for run in text.split(".") if run)

    assert tuple(runs("".join(flat[i] for i in lane.cells)) for lane in lanes[:h]) == puzzle.rows
    assert tuple(runs("".join(flat[i] for i in lane.cells)) for lane in lanes[h:]) == puzzle.columns
    for lane in lanes:
        assert lane.name == f"{lane.family} {lane.index + 1}"
        for a, b in zip(lane.cells, lane.cells[1:]):
            assert b in g.neighbours(a) and shared_corners(g, a, b) == 2
    for a in range(g.cell_count):
        assert set(g.neighbours(a)) == {b for b in range(g.cell_count) if shared_corners(g, a, b) == 2}
