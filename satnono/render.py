"""Drawing a :class:`~satnono.diagnose.Diagnosis` (terminal text, SVG and PNG) and a puzzle's
picture (SVG and PNG), for a puzzle of any geometry.

Pure formatting: every function returns a string or bytes; nothing prints or
writes files.  SVG and PNG share one layout (:func:`layout`, :func:`picture_layout`); the PNG is
drawn with Pillow.  Cells are drawn from their outlines (``geometry.cell_polygon``) and clues
beyond their lanes' ends, so a new geometry needs only its outlines; a rectangle keeps its own
clue layout and grid lines (its pictures byte for byte as they were).  A triddler's terminal
text is :mod:`satnono.lanerender`'s.

Cell levels (see :func:`satnono.diagnose.heat`): white and black by line
logic; undetermined by line logic; ambiguous (differs between solutions);
undetermined in a line of a minimal conflict; white or black in every
solution but found only by search.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from html import escape
from functools import lru_cache
from typing import TYPE_CHECKING, Callable, Sequence

from .diagnose import Diagnosis, heat
from .lanes import FAMILY_NAMES, LINE, Geometry, Lane, Rectangle
from .model import Puzzle, plain_black
from .clues import COLUMN, ROW, LineClue

if TYPE_CHECKING:
    from .lanepuzzle import LanePuzzle

UNICODE_GLYPHS = ("··", "██", "??", "▓▓", "XX", "░░", "▒▒")
ASCII_GLYPHS = (".", "#", "?", "!", "x", "-", "+")
LEVEL_NAMES = ("white", "black", "undetermined by line logic", "ambiguous (differs between solutions)",
               "undetermined, in a conflicting line", "white, but only found by search",
               "black, but only found by search")
#: RGB colours of the levels in SVG and PNG.
COLOURS = ((0xFF, 0xFF, 0xFF), (0x22, 0x22, 0x22), (0xF2, 0xC9, 0x4C), (0xE5, 0x39, 0x35),
           (0x8E, 0x24, 0xAA), (0xD6, 0xE4, 0xF0), (0x4A, 0x6F, 0x94))
GRID_RGB = (0xBB, 0xBB, 0xBB)
#: Levels drawn with a highlight colour of their own (undetermined, ambiguous, in a conflict),
#: and the colours each may take instead when the puzzle's palette has one close to it.
MARK_LEVELS = (2, 3, 4)
MARK_CHOICES = {
    2: ((0xF2, 0xC9, 0x4C), (0x9E, 0xE0, 0xD0), (0xC8, 0xC8, 0xC8), (0xF4, 0xA6, 0xD7), (0xB3, 0xD9, 0x6A)),
    3: ((0xE5, 0x39, 0x35), (0x00, 0x9E, 0xD8), (0xFF, 0x66, 0x00), (0x33, 0x33, 0xCC), (0x00, 0x80, 0x00)),
    4: ((0x8E, 0x24, 0xAA), (0x00, 0x66, 0x66), (0x80, 0x50, 0x00), (0xCC, 0x00, 0x66), (0x40, 0x40, 0x40)),
}
#: Below this distance (RGB, Euclidean) two colours are taken for one another.
MARK_DISTANCE = 90.0


def _distance(a: Sequence[int], b: Sequence[int]) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


def mark_colours(palette: Sequence) -> dict[int, tuple[int, int, int]]:
    """The highlight colour of each marked level for a puzzle over ``palette``: the usual one,
    unless a palette colour (or an earlier mark) is within :data:`MARK_DISTANCE` of it; then
    the choice farthest from all of them."""
    taken = [tuple(c.rgb) for c in palette]
    out: dict[int, tuple[int, int, int]] = {}
    for level in MARK_LEVELS:
        choices = MARK_CHOICES[level]
        ok = [c for c in choices if min((_distance(c, t) for t in taken), default=1e9) >= MARK_DISTANCE]
        pick = ok[0] if ok else max(choices, key=lambda c: min(_distance(c, t) for t in taken))
        out[level] = pick
        taken.append(pick)
    return out


def _numbers(clue: LineClue) -> list[str]:
    """The clue's numbers as drawn, ``?`` for a blotted (hidden) length."""
    return ["?" if (clue.blots >> j) & 1 else str(n) for j, n in enumerate(clue.lengths)]


def _settled_chars(d: Diagnosis) -> list[list[str]]:
    """Per cell, the character of its colour where it is known: settled by line logic, or
    (for the cells line logic leaves open) the same in every solution; else ``""``."""
    known = [[ch if ch != "?" else "" for ch in row] for row in d.after_line]
    if d.solutions and (d.status == "unique" or (d.status == "multiple" and d.ambiguity_complete)):
        s1 = d.solutions[0]
        for r, c in d.undetermined:
            known[r][c] = s1[r][c]
    return known


def _readable(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """``rgb`` darkened, when needed, until it reads as text on white."""
    r, g, b = rgb
    while 0.299 * r + 0.587 * g + 0.114 * b > 170:
        r, g, b = int(r * 0.8), int(g * 0.8), int(b * 0.8)
    return (r, g, b)


def _lighter(rgb: tuple[int, int, int]) -> tuple[int, int, int]:
    """Half way to white: a colour found by search only."""
    return tuple((x + 255) // 2 for x in rgb)  # type: ignore[return-value]


def placement_list(axis: str, items: Sequence[tuple[int, int]], limit: int = 12) -> str:
    """``38 rows: row 9 has 19,683 placements, row 12 has 4 placements, ...`` (1-based lines).

    >>> placement_list("column", [(0, 2)])
    '1 column: column 1 has 2 placements'
    """
    noun = axis if len(items) == 1 else axis + "s"
    shown = ", ".join(f"{axis} {i + 1} has {n:,} placements" for i, n in items[:limit])
    if len(items) > limit:
        shown += f", ... ({len(items) - limit} more)"
    return f"{len(items)} {noun}: {shown}"


def render_heatmap(d: Diagnosis, ascii: bool = False) -> str:
    """The grid with each cell drawn by level; open rows carry their number of
    placements on the right, conflicting rows a marker; a legend follows.  The open
    rows and columns are listed once, by :func:`render_summary`, which ``diagnose``
    prints above the map."""
    glyphs: tuple[str, ...] = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
    p = d.puzzle
    if not isinstance(p, Puzzle):  # another geometry: its cells' shapes
        from .lanerender import heat_text

        return heat_text(d, ascii)
    levels = heat(d)
    search_mark = "+" if ascii else "·"
    colour = not plain_black(p.palette)  # a one-colour puzzle of its own (red 'r') is drawn in its colour
    if colour:  # two characters a cell: a known cell shows its colour's character
        chars = _settled_chars(d)
        glyphs = tuple(g * 2 if len(g) == 1 else g for g in glyphs)

        def glyph(r: int, c: int, v: int) -> str:
            if v in (1, 6) and chars[r][c]:
                return chars[r][c] * 2 if v == 1 else chars[r][c] + search_mark
            return glyphs[v]
    else:
        def glyph(r: int, c: int, v: int) -> str:
            return glyphs[v]
    row_notes: dict[int, str] = {o.index: f"{o.placements:,}" for o in d.open_lines if o.axis == ROW}
    for axis, i in d.conflict:
        if axis == ROW:
            row_notes[i] = "<- conflict"
    out = []
    for r, row in enumerate(levels):
        line = "".join(glyph(r, c, v) for c, v in enumerate(row))
        note = row_notes.get(r)
        out.append(f"{line}  {note}" if note else line)
    conflict_cols = [i for axis, i in d.conflict if axis == COLUMN]
    if conflict_cols:
        mark = [" " * len(glyphs[0])] * p.width
        for i in conflict_cols:
            mark[i] = "^" * len(glyphs[0])
        out.append("".join(mark).rstrip() + "  conflict")
    used = sorted({v for row in levels for v in row})
    names = [f"{glyphs[v].strip() or glyphs[v]} {LEVEL_NAMES[v]}" for v in used if not (colour and v in (1, 6))]
    if colour:
        names = [f"{c.char} {c.name}" for c in p.palette[1:]] + names
        if 6 in used:
            names.append(f"x{search_mark} colour x, but only found by search")
    out.append("legend: " + ", ".join(names))
    return "\n".join(out)


def _size(p: Puzzle | LanePuzzle) -> str:
    """``15x10`` for a rectangle; another geometry by :func:`satnono.report.shape_text`."""
    if isinstance(p, Puzzle):
        return f"{p.width}x{p.height}"
    from .report import shape_text

    return shape_text(p.geometry)


def render_summary(d: Diagnosis) -> str:
    """A few lines of prose: the verdict, open lines, ambiguity, conflict."""
    p = d.puzzle
    out = []
    status = {"unique": "unique", "multiple": "several solutions", "none": "no solution",
              "unknown": "not settled"}[d.status]
    how = ""
    if d.status == "unique":
        how = " (line-solvable)" if d.line_solvable else " (needs more than line logic)"
    cpu = "" if d.cpu_seconds is None else f", {d.cpu_seconds:.3f} s CPU"
    out.append(f"{status}{how}  [{_size(p)}, {len(d.undetermined)} cells undetermined "
               f"after line logic, {d.seconds:.3f} s{cpu}]")
    if d.reason and d.status in ("none", "unknown"):
        out.append(f"why: {d.reason}")
    for family in (ROW, COLUMN, LINE) if isinstance(p, Puzzle) else p.geometry.families:  # (LINE: extra lines)
        lanes = [(o.index, o.placements) for o in d.open_lines if o.axis == family]
        if lanes:
            out.append("several placements left after line logic: "
                       + placement_list(FAMILY_NAMES.get(family, family), lanes))
    if d.status == "multiple":
        note = "" if d.ambiguity_complete else " (at least: time ran out before every cell was tested)"
        out.append(f"ambiguity region: {len(d.ambiguous)} cells differ between solutions{note}")
    if d.conflict:
        names = ", ".join(f"{FAMILY_NAMES.get(a, a)} {i + 1} [{p.clue_text(a, i)}]" for a, i in d.conflict)
        quality = "minimal" if d.conflict_minimal else "not proved minimal"
        out.append(f"conflicting lines ({len(d.conflict)}, {quality}): {names}")
    if d.conflict_rules:
        out.append(f"rules in the conflict: {', '.join(d.conflict_rules)}")
    return "\n".join(out)


# --------------------------------------------------------------------------
# Pictures: one layout, drawn as SVG or PNG
#
# The picture shows what an author needs: a title (name and verdict), the clues (a rectangle's
# along the top and the left, any other geometry's beyond one end of each lane), the heat map,
# the number of placements line logic leaves beyond the other end of each lane that has more
# than one (right of rows and below columns), conflicting lines framed in red, and a legend.
# The layout is computed once (sizes from a conservative estimate of text widths) and drawn by
# :func:`render_svg` or :func:`render_png`.

CONFLICT_RGB = (0xD5, 0x00, 0x00)
TEXT_RGB = (0x22, 0x22, 0x22)
NOTE_RGB = (0x55, 0x55, 0x55)
#: Text width per character, in units of the font size (generous for sans-serif).
_EM = 0.62
_TITLE_MAX = 120  # characters; a longer title is cut with an ellipsis


@dataclass(slots=True)
class _Text:
    x: float
    y: float  # baseline
    text: str
    size: int
    anchor: str = "start"  # start, middle or end
    rotate: bool = False  # turned 90 degrees clockwise, reading downwards from (x, y)
    bold: bool = False
    rgb: tuple[int, int, int] = TEXT_RGB
    angle: float = 0.0
    """Degrees clockwise: the text is turned about ``(x, y)``, which is then on its middle line
    (not its baseline): a clue along a slanted lane."""


@dataclass(slots=True)
class _Rect:
    x: float
    y: float
    w: float
    h: float
    fill: tuple[int, int, int] | None
    stroke: tuple[int, int, int] | None = None
    width: float = 1.0


@dataclass(slots=True)
class _Line:
    x1: float
    y1: float
    x2: float
    y2: float
    rgb: tuple[int, int, int]
    width: float


def _title(d: Diagnosis) -> str:
    p = d.puzzle
    verdict = {"unique": "unique", "multiple": "several solutions", "none": "no solution",
               "unknown": "not settled"}[d.status]
    if d.status == "unique":
        verdict += ", line-solvable" if d.line_solvable else ", needs more than line logic"
    elif d.status == "multiple":
        verdict += f", {len(d.ambiguous):,} ambiguous cells"
    elif d.status == "none" and d.conflict:
        verdict += f", {len(d.conflict)} conflicting line{'s' if len(d.conflict) > 1 else ''}"
    name = p.name or p.source or "nonogram"
    text = f"{name}: {verdict} ({_size(p)})"
    return text if len(text) <= _TITLE_MAX else text[:_TITLE_MAX - 1] + "\u2026"


@dataclass(slots=True)
class _Poly:
    points: tuple[tuple[float, float], ...]
    fill: tuple[int, int, int] | None
    stroke: tuple[int, int, int] | None = None
    width: float = 1.0


@dataclass(slots=True)
class Layout:
    """Where everything goes; ``x0``, ``y0`` is the top left corner of the grid (of the box
    around the cells' outlines)."""

    width: int
    height: int
    x0: int
    y0: int
    cell: int
    title: str
    items: list = field(default_factory=list)


# --------------------------------------------------------------------------
# Cells and lanes through the geometry: every cell is drawn from its outline
# (``geometry.cell_polygon``) and every clue beyond one end of its lane, so a new geometry
# needs only its outlines.  The rectangle's clue layout (rows' clues in one line at the left,
# columns' stacked above, colour numbers spaced as they always were) and its grid lines (full
# lines, thicker every five) are that geometry's specialisation, byte for byte as before.


def _shape(poly: Sequence[tuple[float, float]], x0: float, y0: float, cell: int,
           fill: tuple[int, int, int] | None, stroke: tuple[int, int, int] | None = None,
           width: float = 1.0) -> _Rect | _Poly:
    """An outline ``cell`` pixels a unit with its origin at ``(x0, y0)``: a :class:`_Rect` when it
    is an upright rectangle (a rectangle's cells and lanes), else a :class:`_Poly`."""
    if len(poly) == 4:  # clockwise from the top left corner when upright
        (ax, ay), (bx, by), (cx, cy), (dx, dy) = poly
        if ay == by and bx == cx and cy == dy and dx == ax and ax < bx and ay < cy:
            return _Rect(x0 + ax * cell, y0 + ay * cell, (cx - ax) * cell, (cy - ay) * cell, fill, stroke, width)
    return _Poly(tuple((x0 + x * cell, y0 + y * cell) for x, y in poly), fill, stroke, width)


def _outlines(geometry: Geometry) -> tuple[tuple[tuple[float, float], ...], ...]:
    """Every cell's outline, in cell order (kept for the last few geometries drawn, when they
    can be hashed)."""
    try:
        return _outlines_of(geometry)  # type: ignore[arg-type]  # (a frozen dataclass hashes)
    except TypeError:  # an unhashable geometry
        return tuple(geometry.cell_polygon(c) for c in range(geometry.cell_count))


@lru_cache(maxsize=4)
def _outlines_of(geometry: Geometry) -> tuple[tuple[tuple[float, float], ...], ...]:
    return tuple(geometry.cell_polygon(c) for c in range(geometry.cell_count))


def _extent(geometry: Geometry, polys: Sequence[Sequence[tuple[float, float]]] | None = None) -> tuple[float, float]:
    """The width and height of the box round the cells' outlines (a rectangle's without drawing them)."""
    if isinstance(geometry, Rectangle):
        return geometry.width, geometry.height
    polys = _outlines(geometry) if polys is None else polys
    return (max((x for poly in polys for x, _ in poly), default=0),
            max((y for poly in polys for _, y in poly), default=0))


def _hull(points: Sequence[tuple[float, float]]) -> list[tuple[float, float]]:
    """The convex hull, clockwise on screen, without points on its edges (a lane's outline)."""
    pts = sorted(set(points))
    if len(pts) < 3:
        return pts

    def cross(o, a, b):  # type: ignore[no-untyped-def]
        return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])
    lower: list[tuple[float, float]] = []
    upper: list[tuple[float, float]] = []
    for pt in pts:
        while len(lower) >= 2 and cross(lower[-2], lower[-1], pt) <= 1e-9:
            lower.pop()
        lower.append(pt)
    for pt in reversed(pts):
        while len(upper) >= 2 and cross(upper[-2], upper[-1], pt) <= 1e-9:
            upper.pop()
        upper.append(pt)
    return lower[:-1] + upper[:-1]


def _centroid(poly: Sequence[tuple[float, float]]) -> tuple[float, float]:
    return sum(x for x, _ in poly) / len(poly), sum(y for _, y in poly) / len(poly)


def _grid_lines(geometry: Geometry, lanes: Sequence[Lane], x0: float, y0: float, cell: int) -> list[_Line]:
    """The lines between cells: every edge of the outlines once, thicker on the outside and
    between the 5th and 6th, 10th and 11th, ... lanes of a family.  A rectangle's are drawn as
    full rows and columns (its specialisation: the same lines, as its pictures always had them)."""
    out: list[_Line] = []
    if isinstance(geometry, Rectangle):
        h, w = geometry.height, geometry.width
        for r in range(h + 1):
            out.append(_Line(x0, y0 + r * cell, x0 + w * cell, y0 + r * cell, GRID_RGB,
                             2 if r % 5 == 0 or r == h else 1))
        for c in range(w + 1):
            out.append(_Line(x0 + c * cell, y0, x0 + c * cell, y0 + h * cell, GRID_RGB,
                             2 if c % 5 == 0 or c == w else 1))
        return out
    polys = _outlines(geometry)
    place: list[dict[str, int]] = [{} for _ in polys]  # each cell's lane index in each family
    for lane in lanes:
        for c in lane.cells:
            place[c][lane.family] = lane.index
    edges: dict[tuple[tuple[float, float], tuple[float, float]], list[int]] = {}
    for c, poly in enumerate(polys):
        for a, b in zip(poly, (*poly[1:], poly[0])):
            key = tuple(sorted(((round(a[0], 6), round(a[1], 6)), (round(b[0], 6), round(b[1], 6)))))
            edges.setdefault(key, []).append(c)  # type: ignore[arg-type]
    for ((xa, ya), (xb, yb)), cells in edges.items():
        thick = len(cells) == 1
        if not thick:
            one, two = place[cells[0]], place[cells[1]]
            apart = [f for f in one if f in two and one[f] != two[f]]
            thick = len(apart) == 1 and max(one[apart[0]], two[apart[0]]) % 5 == 0
        out.append(_Line(x0 + xa * cell, y0 + ya * cell, x0 + xb * cell, y0 + yb * cell, GRID_RGB, 2 if thick else 1))
    return out


def _directions(lanes: Sequence, centres: Sequence[tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Per family, the unit vector pointing out of a lane at its first cell (every family's lanes
    are parallel): from the middle of its last two cells to the middle of its first two (the
    midpoints of edges inside the lane, on its axis); a family of one-cell lanes gets a direction
    of its own round the circle."""
    longest: dict[str, Sequence[int]] = {}
    for lane in lanes:
        if len(lane.cells) > len(longest.get(lane.family, ())):
            longest[lane.family] = lane.cells
    out: dict[str, tuple[float, float]] = {}
    for k, (family, cells) in enumerate(longest.items()):
        if len(cells) >= 2:
            (ax, ay), (bx, by) = centres[cells[0]], centres[cells[1]]
            (cx, cy), (dx, dy) = centres[cells[-2]], centres[cells[-1]]
            vx, vy = (ax + bx - cx - dx) / 2, (ay + by - cy - dy) / 2
            if len(cells) == 2:
                vx, vy = ax - bx, ay - by
        else:
            angle = math.pi + k * math.pi / len(longest)
            vx, vy = math.cos(angle), math.sin(angle)
        n = math.hypot(vx, vy)
        out[family] = (vx / n, vy / n)
    return out


def _clue_ends(directions: dict[str, tuple[float, float]]) -> dict[str, bool]:
    """Per family, whether its clues sit before the lanes' first cells (else after their last):
    family by family, the end that points away from the ends already taken (the first on a tie).
    A rectangle's rows get the left, its columns the top; a triddler's rows the left, its ``/``
    lines the top and upper right, its ``\\`` lines the bottom and lower right, as webpbn shows them."""
    taken: list[tuple[float, float]] = []
    out: dict[str, bool] = {}
    for family, (ux, uy) in directions.items():
        def near(vx: float, vy: float) -> float:
            return max((vx * tx + vy * ty for tx, ty in taken), default=-1.0)
        first = near(ux, uy) <= near(-ux, -uy) + 1e-9
        out[family] = first
        taken.append((ux, uy) if first else (-ux, -uy))
    return out


@dataclass(slots=True)
class _Clues:
    """Clues and placement counts round the cells: the room they take on each side, and their
    items, made once the corner of the cells' box is known (``draw(x0, y0)``)."""

    left: int
    top: int
    right: int
    bottom: int
    draw: Callable[[float, float], list]
    note: str = ""
    """The legend's line on the counts ("" without counts)."""


def _rectangle_clues(p: Puzzle, counts: dict[tuple[str, int], str], cell: int, fs: int, pad: int, text: bool,
                     colour: bool, ink: Sequence[tuple[int, int, int]]) -> _Clues:
    """The rectangle's clues: a row's in one line left of it, a column's stacked above it; the
    placement counts right of the rows and below the columns."""
    h, w = p.height, p.width
    row_clues = [" ".join(_numbers(c)) or "0" for c in p.row_clues] if text else []
    col_clues = [_numbers(c) or ["0"] for c in p.column_clues] if text else []
    col_inks = [[ink[v] for v in cs] or [TEXT_RGB] for cs in p.column_colors] if text else []
    row_counts = {i: t for (axis, i), t in counts.items() if axis == ROW} if text else {}
    col_counts = {i: t for (axis, i), t in counts.items() if axis == COLUMN} if text else {}
    left = int(max((len(t) for t in row_clues), default=0) * _EM * fs) + (pad if text else 0)
    top = max((len(c) for c in col_clues), default=0) * cell + (pad if text else 0)
    right = int(max((len(t) for t in row_counts.values()), default=0) * _EM * fs) + pad
    longest = max((len(t) for t in col_counts.values()), default=0)
    upright = longest == 1  # one-digit counts stand under their column, longer ones turn
    bottom = (fs + pad if upright and longest else int(longest * _EM * fs)) + pad

    def draw(x0: float, y0: float) -> list:
        items: list = []
        base = cell * 3 // 4 + 1  # baseline of text centred in a cell
        for r, t in enumerate(row_clues):
            if not colour:
                items.append(_Text(x0 - pad, y0 + r * cell + base, t, fs, "end"))
                continue
            # each number in its block's colour, laid out from the grid leftwards
            x: float = x0 - pad
            for t, v in reversed(list(zip(_numbers(p.row_clues[r]), p.row_colors[r]))):
                items.append(_Text(x, y0 + r * cell + base, t, fs, "end", bold=True, rgb=ink[v]))
                x -= (len(t) + 1) * _EM * fs
            if not p.rows[r]:
                items.append(_Text(x, y0 + r * cell + base, "0", fs, "end"))
        for c, nums in enumerate(col_clues):
            inks = col_inks[c]
            for k, (t, rgb) in enumerate(zip(reversed(nums), reversed(inks))):
                size = fs if len(t) == 1 else fs - 2 if len(t) == 2 else max(7, fs * 2 // 3)  # keep neighbours apart
                items.append(_Text(x0 + c * cell + cell / 2, y0 - pad - k * cell - (cell - base), t, size, "middle",
                                   bold=colour, rgb=rgb))
        for r, t in row_counts.items():
            items.append(_Text(x0 + w * cell + pad // 2, y0 + r * cell + base, t, fs, rgb=NOTE_RGB))
        for c, t in col_counts.items():
            if upright:
                items.append(_Text(x0 + c * cell + cell / 2, y0 + h * cell + pad // 2 + fs, t, fs, "middle",
                                   rgb=NOTE_RGB))
            else:
                items.append(_Text(x0 + c * cell + cell / 2 - fs * 0.35, y0 + h * cell + pad // 2, t, fs,
                                   rotate=True, rgb=NOTE_RGB))
        return items
    note = ("numbers right of rows and below columns: placements left after line logic"
            if row_counts or col_counts else "")
    return _Clues(left, top, right, bottom, draw, note)


def _lane_clues(p: Puzzle | LanePuzzle, counts: dict[tuple[str, int], str], cell: int, fs: int, pad: int,
                text: bool, colour: bool, ink: Sequence[tuple[int, int, int]]) -> _Clues:
    """Any geometry's clues, each beyond one end of its lane (:func:`_clue_ends`), in clue order
    read left to right (top to bottom): along an upright lane stacked a cell apart (a rectangle's
    columns), along any other in one line on the lane's axis, turned with a slanted lane; a
    placement count beyond the other end."""
    if not text:
        return _Clues(0, 0, pad, pad, lambda x0, y0: [])
    polys = _outlines(p.geometry)
    lanes, clues = p.lanes, p.lane_clues
    centres = [_centroid(poly) for poly in polys]
    directions = _directions(lanes, centres)
    at_first = _clue_ends(directions)
    base = cell * 3 // 4 + 1
    lift = base - cell / 2  # from a text's middle to its baseline
    rel: list[_Text] = []  # with the cells' box at (0, 0)

    def end_point(cells: Sequence[int], ux: float, uy: float, first: bool) -> tuple[float, float]:
        """Where the lane's axis (half way between the sides of its strip) leaves its end cell
        (the farthest corner along it), in pixels."""
        across = [-uy * x + ux * y for c in cells for x, y in polys[c]]
        middle = (max(across) + min(across)) / 2
        along = max(ux * x + uy * y for x, y in polys[cells[0] if first else cells[-1]])
        return (along * ux - middle * uy) * cell, (along * uy + middle * ux) * cell

    def place(seq: list[tuple[str, tuple[int, int, int]]], at: tuple[float, float], ux: float, uy: float,
              bold: bool, size: int) -> None:
        """``seq`` (in clue order) outwards from ``at`` along ``(ux, uy)``, reading left to right
        or top to bottom."""
        ax, ay = at
        if abs(ux) < 1e-9:  # along an upright lane: stacked, a cell apart (a rectangle's columns)
            for k, (t, rgb) in enumerate(reversed(seq) if uy < 0 else seq):
                step = pad + k * cell + cell / 2
                small = size if len(t) == 1 else size - 2 if len(t) == 2 else max(7, size * 2 // 3)
                rel.append(_Text(ax + ux * step, ay + uy * step + lift, t, small, "middle", bold=bold, rgb=rgb))
            return
        # along any other lane: one line on the lane's axis (turned with a slanted lane)
        anchor = "end" if ux < 0 else "start"
        angle = math.degrees(math.atan2(uy, ux) if ux > 0 else math.atan2(-uy, -ux))
        x, y = ax + ux * pad, ay + uy * pad
        if angle == 0:
            y += lift
        parts = seq if bold else [(" ".join(t for t, _ in seq), seq[0][1])]
        for t, rgb in reversed(parts) if ux < 0 else parts:  # from the cells outwards
            rel.append(_Text(x, y, t, size, anchor, bold=bold, rgb=rgb, angle=angle))
            advance = (len(t) + 1) * _EM * size
            x, y = x + ux * advance, y + uy * advance

    for lane, clue in zip(lanes, clues):
        if not lane.cells:
            continue
        ux, uy = directions[lane.family]
        first = at_first[lane.family]
        if not first:
            ux, uy = -ux, -uy
        seq = list(zip(_numbers(clue), (ink[v] for v in clue.colors))) or [("0", TEXT_RGB)]
        place(seq, end_point(lane.cells, ux, uy, first), ux, uy, colour, fs)
        count = counts.get((lane.family, lane.index))
        if count:
            place([(count, NOTE_RGB)], end_point(lane.cells, -ux, -uy, not first), -ux, -uy, False,
                  fs if len(count) <= 2 else max(7, fs * 2 // 3))
    gw, gh = (v * cell for v in _extent(p.geometry, polys))
    lo_x = lo_y = 0.0
    hi_x, hi_y = gw, gh
    for it in rel:
        for x, y in _text_corners(it):
            lo_x, hi_x, lo_y, hi_y = min(lo_x, x), max(hi_x, x), min(lo_y, y), max(hi_y, y)

    def draw(x0: float, y0: float) -> list:
        return [_Text(x0 + it.x, y0 + it.y, it.text, it.size, it.anchor, it.rotate, it.bold, it.rgb, it.angle)
                for it in rel]
    note = "numbers beyond a lane's other end: placements left after line logic" if counts else ""
    return _Clues(math.ceil(-lo_x), math.ceil(-lo_y), math.ceil(hi_x - gw) + pad, math.ceil(hi_y - gh) + pad,
                  draw, note)


def _text_corners(it: _Text) -> list[tuple[float, float]]:
    """The corners of the box a text takes, as the layout estimates text widths."""
    w = len(it.text) * _EM * it.size
    start = -(w if it.anchor == "end" else w / 2 if it.anchor == "middle" else 0)
    if not it.angle:
        return [(it.x + start, it.y - it.size), (it.x + start + w, it.y + it.size * 0.3)]
    cos, sin = math.cos(math.radians(it.angle)), math.sin(math.radians(it.angle))
    half = it.size * 0.6
    return [(it.x + a * cos - b * sin, it.y + a * sin + b * cos) for a in (start, start + w) for b in (-half, half)]


def _levels(d: Diagnosis) -> list[int]:
    """:func:`satnono.diagnose.heat`'s level of each cell, in cell order (any geometry)."""
    if isinstance(d.puzzle, Puzzle):
        return [v for row in heat(d) for v in row]
    from .diagnose import lane_heat

    return lane_heat(d)


def _known_chars(d: Diagnosis) -> list[str]:
    """:func:`_settled_chars` in cell order (any geometry)."""
    if isinstance(d.puzzle, Puzzle):
        return [ch for row in _settled_chars(d) for ch in row]
    known = [ch if ch != "?" else "" for ch in d.after_line]
    if d.solutions and (d.status == "unique" or (d.status == "multiple" and d.ambiguity_complete)):
        s1: str = d.solutions[0]  # type: ignore[assignment]  # (a picture here)
        cells: list[int] = d.undetermined  # type: ignore[assignment]  # (cell numbers here)
        for cell in cells:
            known[cell] = s1[cell]
    return known


def _clues(p: Puzzle | LanePuzzle, counts: dict[tuple[str, int], str], cell: int, fs: int, pad: int, text: bool,
           colour: bool) -> _Clues:
    """The clues of ``p`` round its cells: a rectangle's as it has always had them, any other
    geometry's beyond its lanes' ends."""
    ink = [TEXT_RGB] + [_readable(c.rgb) for c in p.palette[1:]]  # clue text per colour index
    if isinstance(p, Puzzle):
        return _rectangle_clues(p, counts, cell, fs, pad, text, colour, ink)
    return _lane_clues(p, counts, cell, fs, pad, text, colour, ink)


def layout(d: Diagnosis, cell: int = 16, text: bool = True) -> Layout:
    """The picture of ``d`` (a puzzle of any geometry) with cells of ``cell`` pixels a side;
    ``text=False`` leaves out the clues and placement counts (for grids too large for them to
    be read)."""
    p = d.puzzle
    g = p.geometry
    levels = _levels(d)
    fs = max(8, round(cell * 0.75))  # clue and count text
    ts, ls = 14, 12  # title and legend text
    pad = 6
    margin = 8
    title = _title(d)
    colour = not plain_black(p.palette)  # a one-colour puzzle of its own is drawn in its colour
    rgb_of = {c.char: c.rgb for c in p.palette}
    counts = {(o.axis, o.index): f"{o.placements:,}" for o in d.open_lines} if text else {}
    clues = _clues(p, counts, cell, fs, pad, text, colour)
    used = sorted(set(levels))
    level_rgb = {**dict(enumerate(COLOURS)), **mark_colours(p.palette)}
    legend: list[tuple[tuple[int, int, int] | None, str, bool]] = [
        (level_rgb[v], LEVEL_NAMES[v], False) for v in used if not (colour and v in (1, 6))]
    chars = _known_chars(d) if colour else []
    if colour:
        legend[:0] = [(c.rgb, f"{c.name} ({c.char})", False) for c in p.palette[1:]]
        if 6 in used:
            legend.append((_lighter((0x80, 0x80, 0x80)), "lighter: that colour, but only found by search", False))

    def fill(i: int, v: int) -> tuple[int, int, int]:
        if colour and v in (1, 6) and chars[i]:
            rgb = rgb_of[chars[i]]
            return _lighter(rgb) if v == 6 else rgb
        return level_rgb[v]
    if d.conflict:
        quality = "a minimal" if d.conflict_minimal else "a"
        legend.append((None, f"red frame: a line of {quality} set of clues that admit no solution together", True))
    if clues.note:
        legend.append((None, clues.note, False))
    gw, gh = (v * cell for v in _extent(g))
    title_h = ts + pad
    x0 = margin + clues.left
    y0 = margin + title_h + clues.top
    legend_y = y0 + gh + clues.bottom + pad
    legend_w = max((cell + 6 + len(t) * _EM * ls for _, t, _ in legend), default=0)
    width = int(max(x0 + gw + clues.right + margin, margin * 2 + len(title) * _EM * ts, margin * 2 + legend_w))
    height = int(legend_y + len(legend) * (cell + 4) + margin)
    out = Layout(width, height, x0, y0, cell, title)
    items = out.items
    items.append(_Rect(0, 0, width, height, (0xFF, 0xFF, 0xFF)))
    items.append(_Text(margin, margin + ts, title, ts, bold=True))
    add = items.append
    if isinstance(g, Rectangle):  # its specialisation: cell_polygon's unit squares placed row by row
        w = g.width  # (no call a cell), its white cells left to the background as always
        for r in range(g.height):
            y, i = y0 + r * cell, r * w
            for c, v in enumerate(levels[i:i + w]):
                if v:
                    add(_Rect(x0 + c * cell, y, cell, cell, fill(i + c, v)))
    else:
        outline = g.cell_polygon
        for i, v in enumerate(levels):
            add(_shape(outline(i), x0, y0, cell, fill(i, v)))
    items += _grid_lines(g, p.lanes, x0, y0, cell)
    items += clues.draw(x0, y0)
    lane_of = {(lane.family, lane.index): lane for lane in p.lanes}
    for family, i in d.conflict:
        hull = _hull([pt for c in lane_of[(family, i)].cells for pt in g.cell_polygon(c)])
        items.append(_shape(hull, x0, y0, cell, None, CONFLICT_RGB, 2))
    base = cell * 3 // 4 + 1
    ly = legend_y
    for swatch, t, frame in legend:
        if swatch is not None:
            items.append(_Rect(margin, ly, cell, cell, swatch, GRID_RGB, 1))
        elif frame:
            items.append(_Rect(margin + 1, ly + 1, cell - 2, cell - 2, None, CONFLICT_RGB, 2))
        items.append(_Text(margin + cell + 6, ly + base, t, ls))
        ly += cell + 4
    return out


@lru_cache(maxsize=256)
def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def render_svg(d: Diagnosis, cell: int = 16) -> str:
    """An SVG picture of the diagnosis (see :func:`layout`)."""
    p = d.puzzle
    return _svg(layout(d, cell), f"{escape(p.name or p.source or 'nonogram')}: {escape(d.status)}")


def _svg(lay: Layout, title: str) -> str:
    """The SVG of a layout; ``title`` (escaped) is its ``<title>``."""
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
        f'viewBox="0 0 {lay.width} {lay.height}" font-family="DejaVu Sans, Verdana, sans-serif">',
        f"<title>{title}</title>",
    ]
    anchors = {"start": "start", "middle": "middle", "end": "end"}
    for it in lay.items:
        if isinstance(it, _Rect):
            fill = _hex(it.fill) if it.fill else "none"
            stroke = f' stroke="{_hex(it.stroke)}" stroke-width="{it.width:g}"' if it.stroke else ""
            parts.append(f'<rect x="{it.x:g}" y="{it.y:g}" width="{it.w:g}" height="{it.h:g}" fill="{fill}"{stroke}/>')
        elif isinstance(it, _Poly):
            fill = _hex(it.fill) if it.fill else "none"
            stroke = f' stroke="{_hex(it.stroke)}" stroke-width="{it.width:g}"' if it.stroke else ""
            points = " ".join(f"{x:.2f},{y:.2f}" for x, y in it.points)
            parts.append(f'<polygon points="{points}" fill="{fill}"{stroke}/>')
        elif isinstance(it, _Line):
            parts.append(f'<line x1="{it.x1:g}" y1="{it.y1:g}" x2="{it.x2:g}" y2="{it.y2:g}" '
                         f'stroke="{_hex(it.rgb)}" stroke-width="{it.width * 0.75:g}"/>')
        else:
            weight = ' font-weight="bold"' if it.bold else ""
            fill = f' fill="{_hex(it.rgb)}"' if it.rgb != TEXT_RGB else ""
            if it.rotate:
                parts.append(f'<text transform="translate({it.x:g},{it.y:g}) rotate(90)" dy="0.35em" '
                             f'font-size="{it.size}"{fill}>{escape(it.text)}</text>')
            elif it.angle:
                parts.append(f'<text transform="translate({it.x:.2f},{it.y:.2f}) rotate({it.angle:.2f})" dy="0.35em" '
                             f'font-size="{it.size}" text-anchor="{anchors[it.anchor]}"{weight}{fill}>'
                             f'{escape(it.text)}</text>')
            else:
                parts.append(f'<text x="{it.x:g}" y="{it.y:g}" font-size="{it.size}" '
                             f'text-anchor="{anchors[it.anchor]}"{weight}{fill}>{escape(it.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------
# PNG


def png_cell(d: Diagnosis) -> int:
    """The default cell size of :func:`render_png`: 16 pixels, less for large grids (over 100
    cells a side)."""
    across = max(_extent(d.puzzle.geometry))
    return max(3, min(16, int(1600 // max(across, 1))))


def render_png(d: Diagnosis, cell: int | None = None) -> bytes:
    """A PNG picture of the diagnosis (see :func:`layout`; drawn with Pillow).

    Clues and placement counts are left out when cells are under 8 pixels
    (grids over 200 cells a side by default): they could not be read.
    """
    cell = cell or png_cell(d)
    return _png(layout(d, cell, text=cell >= 8))


def _png(lay: Layout, title: str | None = None, optimize: bool = True) -> bytes:
    """The PNG of a layout (Pillow); ``title`` goes in a ``Title`` text chunk."""
    import io

    from PIL import Image, ImageDraw, ImageFont
    from PIL.PngImagePlugin import PngInfo

    img = Image.new("RGB", (lay.width, lay.height), (0xFF, 0xFF, 0xFF))
    draw = ImageDraw.Draw(img)
    fonts: dict[tuple[int, bool], object] = {}

    def font(size: int, bold: bool):
        key = (size, bold)
        if key not in fonts:
            fonts[key] = ImageFont.load_default(size=size + (1 if bold else 0))
        return fonts[key]

    anchors = {"start": "ls", "middle": "ms", "end": "rs"}
    for it in lay.items:
        if isinstance(it, _Rect):
            box = [round(it.x), round(it.y), round(it.x + it.w), round(it.y + it.h)]
            if it.fill:
                draw.rectangle([box[0], box[1], box[2] - 1, box[3] - 1] if it.stroke is None else box,
                               fill=it.fill)
            if it.stroke:
                draw.rectangle(box, outline=it.stroke, width=max(1, round(it.width)))
        elif isinstance(it, _Poly):
            points = [(round(x), round(y)) for x, y in it.points]
            if it.fill:
                draw.polygon(points, fill=it.fill)
            if it.stroke:
                draw.line(points + points[:1], fill=it.stroke, width=max(1, round(it.width)), joint="curve")
        elif isinstance(it, _Line):
            draw.line([round(it.x1), round(it.y1), round(it.x2), round(it.y2)], fill=it.rgb,
                      width=max(1, round(it.width * 0.5)) if it.width < 2 else 2)
        elif it.rotate:
            f = font(it.size, it.bold)
            tw = int(f.getlength(it.text)) + 2
            tile = Image.new("RGBA", (tw, it.size + 4), (0, 0, 0, 0))
            ImageDraw.Draw(tile).text((0, 0), it.text, font=f, fill=it.rgb + (255,))
            turned = tile.rotate(-90, expand=True)
            img.paste(turned, (round(it.x), round(it.y)), turned)
        elif it.angle:  # drawn level in a square tile centred on (x, y), turned about its centre
            f = font(it.size, it.bold)
            half = int(f.getlength(it.text)) + it.size + 2
            tile = Image.new("RGBA", (2 * half, 2 * half), (0, 0, 0, 0))
            ImageDraw.Draw(tile).text((half, half), it.text, font=f, fill=it.rgb + (255,),
                                      anchor="rm" if it.anchor == "end" else "lm")
            turned = tile.rotate(-it.angle, resample=Image.Resampling.BICUBIC, center=(half, half))
            img.paste(turned, (round(it.x) - half, round(it.y) - half), turned)
        else:
            draw.text((it.x, it.y), it.text, font=font(it.size, it.bold), fill=it.rgb, anchor=anchors[it.anchor])
    info = None
    if title is not None:
        info = PngInfo()
        info.add_itxt("Title", title)
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=optimize, pnginfo=info)
    return buf.getvalue()


# --------------------------------------------------------------------------
# A picture of a puzzle of any geometry (a solution, or its goal), with its clues


def picture_layout(puzzle: Puzzle | LanePuzzle, cells: str | None = None, cell: int = 16,
                   text: bool = True) -> Layout:
    """The cells of a puzzle in its colours (``cells``: one palette character a cell, in cell
    order; a blank puzzle without), each its outline filled (one polygon a cell), the grid lines,
    and with ``text`` its clues beyond the lanes' ends as :func:`layout` draws them."""
    g = puzzle.geometry
    rgb = {c.char: c.rgb for c in puzzle.palette}
    background = puzzle.palette[0].char
    fs = max(8, round(cell * 0.75))
    colour = not plain_black(puzzle.palette)
    clues = _clues(puzzle, {}, cell, fs, 6, text, colour)
    margin = 2
    gw, gh = (v * cell for v in _extent(g))
    x0, y0 = margin + clues.left, margin + clues.top
    width = math.ceil(x0 + gw + (clues.right if text else 0) + margin)
    height = math.ceil(y0 + gh + (clues.bottom if text else 0) + margin)
    out = Layout(width, height, x0, y0, cell, puzzle.name or puzzle.source or "nonogram")
    out.items.append(_Rect(0, 0, width, height, (0xFF, 0xFF, 0xFF)))
    for i, poly in enumerate(_outlines(g) if cells is not None else ()):  # every cell, one polygon each
        ch = cells[i]  # type: ignore[index]
        fill = (0xFF, 0xFF, 0xFF) if ch == background else rgb.get(ch, (128, 128, 128))
        out.items.append(_Poly(tuple((x0 + x * cell, y0 + y * cell) for x, y in poly), fill))
    out.items += _grid_lines(g, puzzle.lanes, x0, y0, cell)
    if text:
        out.items += clues.draw(x0, y0)
    return out


def picture_svg(puzzle: Puzzle | LanePuzzle, cells: str | None = None, cell: int = 16, text: bool = True) -> str:
    """An SVG of :func:`picture_layout`."""
    return _svg(picture_layout(puzzle, cells, cell, text), escape(puzzle.name or puzzle.source or "nonogram"))


def picture_png(puzzle: Puzzle | LanePuzzle, cells: str | None = None, cell: int = 16, text: bool = True) -> bytes:
    """A PNG of :func:`picture_layout` (the puzzle's name in its ``Title`` chunk)."""
    return _png(picture_layout(puzzle, cells, cell, text and cell >= 8), puzzle.name, optimize=False)


# --------------------------------------------------------------------------
# A solution as a picture


def solution_svg(puzzle, grid: Sequence[str], cell: int = 16) -> str:
    """An SVG picture of ``grid`` (a solution of ``puzzle``) in the puzzle's colours, with
    thin grid lines and a thicker one every five cells."""
    rgb = {c.char: c.rgb for c in puzzle.palette}
    h, w = len(grid), len(grid[0]) if grid else 0
    m = 2
    width, height = w * cell + 2 * m, h * cell + 2 * m
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}">',
             f"<title>{escape(puzzle.name or puzzle.source or 'nonogram')}</title>",
             f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch != ".":
                parts.append(f'<rect x="{m + c * cell}" y="{m + r * cell}" width="{cell}" height="{cell}" '
                             f'fill="{_hex(rgb.get(ch, (128, 128, 128)))}"/>')
    for r in range(h + 1):
        sw = 1.5 if r % 5 == 0 or r == h else 0.5
        parts.append(f'<line x1="{m}" y1="{m + r * cell}" x2="{m + w * cell}" y2="{m + r * cell}" '
                     f'stroke="{_hex(GRID_RGB)}" stroke-width="{sw}"/>')
    for c in range(w + 1):
        sw = 1.5 if c % 5 == 0 or c == w else 0.5
        parts.append(f'<line x1="{m + c * cell}" y1="{m}" x2="{m + c * cell}" y2="{m + h * cell}" '
                     f'stroke="{_hex(GRID_RGB)}" stroke-width="{sw}"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"
