"""Lanes and geometries: a puzzle's cells and the lines that carry its clues.

A *lane* (:class:`Lane`) is an ordered tuple of cell numbers that one clue describes, in the
order the clue reads it; it belongs to a *family* (``"row"``, ``"column"``, ``"/"``,
``"\\\\"``, or ``"line"`` for an extra lane a rule adds) and has a 0-based index in it.  A
*geometry* (:class:`Geometry`) makes the cells (numbered ``0 .. cell_count - 1``), its
families of lanes, the cells' edge neighbours and their outlines for pictures.

Two geometries are built in:

* :class:`Rectangle` ``(height, width)``: cells row-major (``cell = r * width + c``), the lanes
  rows (left to right) then columns (top to bottom): satnono's rows and columns as they are.
* :class:`Triangle`: the triangular grid of webpbn's and Olšák's *triddlers*, whose outline is
  a hexagon (see the class).

Each geometry has a JSON form, ``as_json()``, read back by its ``from_json`` (and by
:func:`geometry_from_json`, which dispatches on ``"kind"``)::

    {"kind": "rectangle", "height": 10, "width": 15}
    {"kind": "triangle", "topleft": 2, "bottomleft": 1, "bottom": 2,
     "bottomright": 2, "topright": 1, "top": 2}

A triangle's six numbers are the lengths of the hexagon's sides (the numbers of lanes in
webpbn's six clue sets, which carry the same names).

>>> Rectangle(2, 3).lanes()[2]
Lane(family='column', index=0, cells=range(0, 6, 3))
>>> [lane.name for lane in Triangle.from_sides(2, 1, 2, 2, 1, 2).lanes()[2:5]]
['row 3', '/ line 1', '/ line 2']
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Mapping, Protocol, Sequence, runtime_checkable

ROW = "row"
COLUMN = "column"
SLASH = "/"
BACKSLASH = "\\"
LINE = "line"

#: The families a lane may belong to, and how a lane of each is named for people.
FAMILY_NAMES = {ROW: "row", COLUMN: "column", SLASH: "/ line", BACKSLASH: "\\ line", LINE: "extra line"}

Point = tuple[float, float]
"""``(x, y)``: x to the right, y downwards, in units of a square cell's side (a triangle's side)."""


@dataclass(frozen=True, slots=True)
class Lane:
    """One line of cells that one clue describes.

    >>> Lane("/", 3, (1, 0, 6)).name, Lane("row", 0, (0, 1)).name
    ('/ line 4', 'row 1')
    """

    family: str
    """``"row"``, ``"column"``, ``"/"``, ``"\\\\"`` or ``"line"``."""
    index: int
    """0-based within the family."""
    cells: Sequence[int]
    """The cell numbers in the order the clue reads them: a tuple, or a ``range`` when they are
    evenly spaced (a rectangle's rows and columns), which drivers may use as a fast path."""

    @property
    def name(self) -> str:
        """The lane as people say it, 1-based: ``row 3``, ``column 7``, ``/ line 4``, ``\\ line 2``,
        ``extra line 1`` (a puzzle's first ``line`` rule)."""
        return f"{FAMILY_NAMES.get(self.family, self.family)} {self.index + 1}"


@runtime_checkable
class Geometry(Protocol):
    """What a puzzle's shape provides: its cells, its lanes, adjacency and outlines."""

    @property
    def kind(self) -> str:
        """``"rectangle"`` or ``"triangle"`` (the ``kind`` of the JSON form)."""
        ...

    @property
    def cell_count(self) -> int:
        """The number of cells; cells are numbered ``0 .. cell_count - 1``."""
        ...

    @property
    def families(self) -> tuple[str, ...]:
        """The families of lanes, in the order :meth:`lanes` gives them."""
        ...

    def lanes(self) -> tuple[Lane, ...]:
        """Every lane: family by family (in :attr:`families` order), each in index order."""
        ...

    def neighbours(self, cell: int) -> tuple[int, ...]:
        """The cells sharing an edge with ``cell``, in increasing order."""
        ...

    def cell_polygon(self, cell: int) -> tuple[Point, ...]:
        """The corners of ``cell`` clockwise on screen, from the leftmost one (the upper of two);
        the picture's top and left edges are at ``y = 0`` and ``x = 0``."""
        ...

    def as_json(self) -> dict[str, Any]:
        """The documented JSON form (a dict of plain values)."""
        ...

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Geometry:
        """The geometry of a JSON form made by :meth:`as_json`.

        Raises:
            ValueError: a form of another kind, or malformed (one line).
        """
        ...


def _count(value: object, what: str, least: int) -> int:
    """``value`` as a whole number of at least ``least``, else a one-line ValueError."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{what} must be a whole number, got {value!r}"[:200])
    if value < least:
        raise ValueError(f"{what} must be at least {least}, got {value}")
    return value


def _check_keys(data: Mapping[str, Any], kind: str, keys: Sequence[str]) -> None:
    if not isinstance(data, Mapping):
        raise ValueError(f"a geometry is a JSON object, got {type(data).__name__}")
    if data.get("kind") != kind:
        raise ValueError(f"expected a geometry of kind {kind!r}, got {data.get('kind')!r}"[:200])
    unknown = sorted(set(data) - {"kind", *keys})
    if unknown:
        raise ValueError(f"unknown key {unknown[0]!r} in a {kind} geometry (its keys: kind, {', '.join(keys)})"[:200])
    missing = [k for k in keys if k not in data]
    if missing:
        raise ValueError(f"a {kind} geometry needs {', '.join(repr(k) for k in missing)}")


@dataclass(frozen=True)
class Rectangle:
    """The rectangular grid: ``height`` rows of ``width`` square cells.

    Cells are numbered row-major (``cell = r * width + c``); the lanes are the rows (read from
    the left) then the columns (read from the top), as satnono has always ordered them.

    >>> g = Rectangle(2, 3)
    >>> [tuple(lane.cells) for lane in g.lanes()]
    [(0, 1, 2), (3, 4, 5), (0, 3), (1, 4), (2, 5)]
    >>> g.neighbours(4), g.cell_polygon(5)
    ((1, 3, 5), ((2, 1), (3, 1), (3, 2), (2, 2)))
    """

    height: int
    width: int

    kind: ClassVar[str] = "rectangle"
    families: ClassVar[tuple[str, ...]] = (ROW, COLUMN)

    def __post_init__(self) -> None:
        _count(self.height, "the height", 1)
        _count(self.width, "the width", 1)

    @property
    def cell_count(self) -> int:
        return self.height * self.width

    def lanes(self) -> tuple[Lane, ...]:
        return self._lanes

    @cached_property
    def _lanes(self) -> tuple[Lane, ...]:
        h, w = self.height, self.width
        rows = tuple(Lane(ROW, r, range(r * w, r * w + w)) for r in range(h))
        columns = tuple(Lane(COLUMN, c, range(c, h * w, w)) for c in range(w))
        return rows + columns

    def neighbours(self, cell: int) -> tuple[int, ...]:
        r, c = self._locate(cell)
        w = self.width
        out = []
        if r > 0:
            out.append(cell - w)
        if c > 0:
            out.append(cell - 1)
        if c < w - 1:
            out.append(cell + 1)
        if r < self.height - 1:
            out.append(cell + w)
        return tuple(out)

    def cell_polygon(self, cell: int) -> tuple[Point, ...]:
        r, c = self._locate(cell)
        return ((c, r), (c + 1, r), (c + 1, r + 1), (c, r + 1))

    def _locate(self, cell: int) -> tuple[int, int]:
        if not 0 <= cell < self.cell_count:
            raise IndexError(f"cell {cell} is not in a {self.height}x{self.width} rectangle")
        return divmod(cell, self.width)

    def as_json(self) -> dict[str, Any]:
        """``{"kind": "rectangle", "height": H, "width": W}``."""
        return {"kind": self.kind, "height": self.height, "width": self.width}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Rectangle:
        _check_keys(data, cls.kind, ("height", "width"))
        return cls(_count(data["height"], "the height", 1), _count(data["width"], "the width", 1))


#: webpbn's six clue sets, in the order a triangle's lanes list them: the rows (``topleft``
#: above the left side's bend, ``bottomleft`` below it), the ``/`` lines (``top``, from the
#: top side, then ``topright``) and the ``\\`` lines (``bottom``, from the bottom side, then
#: ``bottomright``).
CLUE_SETS = ("topleft", "bottomleft", "top", "topright", "bottom", "bottomright")

#: The six sides in Olšák's ``.g`` order (counter-clockwise from the upper left), which is the
#: order of :meth:`Triangle.from_sides`'s arguments: A .. F.
SIDE_ORDER = ("topleft", "bottomleft", "bottom", "bottomright", "topright", "top")

_ROW_HEIGHT = math.sqrt(3) / 2


@dataclass(frozen=True)
class Triangle:
    """The triangular grid of a triddler: rows of triangles whose outline is a hexagon.

    The six fields are the lengths of the hexagon's sides, in triangle sides, named after the
    webpbn clue sets whose lanes start on them: ``topleft`` and ``bottomleft`` are the left
    side above and below its bend (one row per unit), ``bottom`` and ``top`` the horizontal
    sides, ``bottomright`` and ``topright`` the right side below and above its bend.  Olšák's
    ``.g`` lists them as A..F = topleft, bottomleft, bottom, bottomright, topright, top, and a
    hexagon closes exactly when ``E = A + B - D`` and ``F = C + D - A``.  A side may be 0: a
    triangle or a parallelogram is such a hexagon.

    Cells are numbered row by row, each row left to right (the order of webpbn's solution
    image); each points up or down (:meth:`points_up`).  Three families of lanes, each in the
    order and direction of webpbn's XML:

    * ``"row"``: the rows, top to bottom, each read from the left (``topleft`` then
      ``bottomleft``);
    * ``"/"``: the ``/`` lines, left to right along the top side then down the upper-right
      side (``top`` then ``topright``), each read from its top end;
    * ``"\\\\"``: the ``\\`` lines, left to right along the bottom side then up the
      lower-right side (``bottom`` then ``bottomright``), each read from its top-left end.

    The worked example of webpbn's specification (cells lettered in order)::

          ________
         /\\ B/\\D /\\           rows:  ABCDE FGHIJK LMNOP
        /A_\\/C_\\/E_\\          /:     BAGFL DCIHNM EKJPO
       /\\G /\\I /\\K /          \\:     FLM AGHNO BCIJP DEK
      /F_\\/H_\\/J_\\/
      \\L /\\ N/\\ P/
       \\/_M\\/_O\\/

    >>> g = Triangle.from_sides(2, 1, 2, 2, 1, 2)
    >>> ["".join("ABCDEFGHIJKLMNOP"[i] for i in lane.cells) for lane in g.lanes()]
    ['ABCDE', 'FGHIJK', 'LMNOP', 'BAGFL', 'DCIHNM', 'EKJPO', 'FLM', 'AGHNO', 'BCIJP', 'DEK']
    >>> g.text_rows("ABCDEFGHIJKLMNOP")
    ('/ABCDE\\\\', '/FGHIJK/', '\\\\LMNOP/')
    """

    topleft: int
    bottomleft: int
    bottom: int
    bottomright: int
    topright: int
    top: int

    kind: ClassVar[str] = "triangle"
    families: ClassVar[tuple[str, ...]] = (ROW, SLASH, BACKSLASH)

    # Coordinates.  A point at height v (in rows, downwards) and x (in sides) has the skew
    # coordinates u1 = x - v/2 (constant along a \ line) and u2 = x + v/2 (constant along a /
    # line); the lattice lines are the integer values of v, u1 and u2.  A cell is the triangle
    # floor(v) = r, floor(u1) = p, floor(u2) = q, with q - p - r = 0 (pointing down) or 1 (up).
    # The hexagon is 0 <= v <= A + B, -A <= u1 <= F, 0 <= u2 <= F + E: a cell's row, \ line
    # and / line are r, p + A and q.

    def __post_init__(self) -> None:
        sides = [_count(getattr(self, name), f"side {name}", 0) for name in SIDE_ORDER]
        a, b, c, d, e, f = sides
        if a + b == 0:
            raise ValueError("a triangle grid needs at least one row (topleft + bottomleft >= 1)")
        if e != a + b - d or f != c + d - a:
            raise ValueError(
                f"the sides {a} {b} {c} {d} {e} {f} (A..F: topleft, bottomleft, bottom, bottomright, topright, top) "
                f"do not close a hexagon: E = A + B - D and F = C + D - A must hold")
        if f + e == 0 or a + f == 0:
            raise ValueError(f"the sides {a} {b} {c} {d} {e} {f} enclose no triangle")

    @classmethod
    def from_sides(cls, a: int, b: int, c: int, d: int, e: int, f: int) -> Triangle:
        """The hexagon of sides A..F in Olšák's order: topleft, bottomleft, bottom, bottomright,
        topright, top.

        Raises:
            ValueError: a side is negative or not a whole number, or the sides do not close a
                hexagon (``E = A + B - D`` and ``F = C + D - A``).

        >>> Triangle.from_sides(1, 0, 1, 0, 1, 0).cell_count   # one triangle pointing up
        1
        """
        return cls(a, b, c, d, e, f)

    @classmethod
    def hexagon(cls, side: int) -> Triangle:
        """The regular hexagon of ``side`` (``6 * side ** 2`` cells).

        >>> Triangle.hexagon(2).cell_count, Triangle.hexagon(2).row_lengths()
        (24, (5, 7, 7, 5))
        """
        _count(side, "the side", 1)
        return cls(side, side, side, side, side, side)

    @classmethod
    def parallelogram(cls, rows: int, width: int, lean: str = "/") -> Triangle:
        """A parallelogram of ``rows`` rows of ``2 * width`` triangles; with ``lean="/"`` its
        left and right sides slope as ``/``, with ``lean="\\\\"`` as ``\\``.

        >>> Triangle.parallelogram(2, 3).text_rows("x" * 12), Triangle.parallelogram(2, 3, "\\\\").row_lengths()
        (('/xxxxxx/', '/xxxxxx/'), (6, 6))
        """
        _count(rows, "the number of rows", 1)
        _count(width, "the width", 1)
        if lean == SLASH:
            return cls(rows, 0, width, rows, 0, width)
        if lean == BACKSLASH:
            return cls(0, rows, width, 0, rows, width)
        raise ValueError(f"a parallelogram leans '/' or '\\', got {lean!r}")

    @classmethod
    def triangle(cls, side: int, up: bool = True) -> Triangle:
        """The big triangle of ``side``, pointing up (or down): ``side ** 2`` cells.

        >>> Triangle.triangle(3).row_lengths(), Triangle.triangle(3, up=False).row_lengths()
        ((1, 3, 5), (5, 3, 1))
        """
        _count(side, "the side", 1)
        return cls(side, 0, side, 0, side, 0) if up else cls(0, side, 0, side, 0, side)

    @property
    def sides(self) -> tuple[int, int, int, int, int, int]:
        """A..F, in Olšák's order (:data:`SIDE_ORDER`)."""
        return (self.topleft, self.bottomleft, self.bottom, self.bottomright, self.topright, self.top)

    @property
    def rows(self) -> int:
        """The number of rows."""
        return self.topleft + self.bottomleft

    def family_size(self, family: str) -> int:
        """The number of lanes of ``family``: rows ``A + B``, ``/`` lines ``F + E``, ``\\`` lines
        ``C + D`` (= ``A + F``)."""
        return {ROW: self.rows, SLASH: self.top + self.topright, BACKSLASH: self.bottom + self.bottomright}[family]

    def clue_set(self, name: str) -> tuple[str, range]:
        """The family and the lane indices (within it) of one of webpbn's six clue sets.

        >>> Triangle.from_sides(2, 1, 2, 2, 1, 2).clue_set("bottomright")
        ('\\\\', range(2, 4))
        """
        a, b, f, e, c, d = self.topleft, self.bottomleft, self.top, self.topright, self.bottom, self.bottomright
        spans = {"topleft": (ROW, 0, a), "bottomleft": (ROW, a, a + b), "top": (SLASH, 0, f),
                 "topright": (SLASH, f, f + e), "bottom": (BACKSLASH, 0, c), "bottomright": (BACKSLASH, c, c + d)}
        if name not in spans:
            raise ValueError(f"unknown clue set {name!r} (expected one of {', '.join(CLUE_SETS)})")
        family, lo, hi = spans[name]
        return family, range(lo, hi)

    def _row_spans(self, r: int) -> tuple[range, range]:
        """The values of ``p`` of row ``r``'s cells pointing down and up."""
        a, f, e = self.topleft, self.top, self.topright
        down = range(max(-a, -r), min(f, f + e - r))
        up = range(max(-a, -r - 1), min(f, f + e - r - 1))
        return down, up

    def row_lengths(self) -> tuple[int, ...]:
        """The number of cells of each row."""
        return tuple(len(d) + len(u) for d, u in map(self._row_spans, range(self.rows)))

    @property
    def cell_count(self) -> int:
        return sum(self.row_lengths())

    @cached_property
    def _cells(self) -> tuple[tuple[int, int, int, bool], ...]:
        """Per cell ``(r, p, q, up)``, in cell order."""
        out = []
        for r in range(self.rows):
            down, up = self._row_spans(r)
            row = [(2 * p + r, p, p + r, False) for p in down] + [(2 * p + r + 1, p, p + r + 1, True) for p in up]
            row.sort()
            out += [(r, p, q, is_up) for _, p, q, is_up in row]
        return tuple(out)

    @cached_property
    def _row_starts(self) -> tuple[int, ...]:
        starts = [0]
        for n in self.row_lengths():
            starts.append(starts[-1] + n)
        return tuple(starts)

    @cached_property
    def _index(self) -> dict[tuple[int, int], int]:
        """Cell number of ``(row, k)``, ``k = p + q`` (twice the x of the cell's left corner)."""
        return {(r, p + q): i for i, (r, p, q, _) in enumerate(self._cells)}

    def _cell(self, cell: int) -> tuple[int, int, int, bool]:
        if not 0 <= cell < len(self._cells):
            raise IndexError(f"cell {cell} is not in this triangle grid of {len(self._cells)} cells")
        return self._cells[cell]

    def row_cells(self, r: int) -> range:
        """The cell numbers of row ``r`` (0-based), left to right."""
        return range(self._row_starts[r], self._row_starts[r + 1])

    def points_up(self, cell: int) -> bool:
        """Whether ``cell`` points up (its horizontal side at the bottom)."""
        return self._cell(cell)[3]

    def coordinates(self, cell: int) -> tuple[int, int, int]:
        """The index of ``cell``'s lane in each family: ``(row, / line, \\ line)``, 0-based.

        >>> Triangle.from_sides(2, 1, 2, 2, 1, 2).coordinates(0)   # A: row 1, / line 1, \\ line 2
        (0, 0, 1)
        """
        r, p, q, _ = self._cell(cell)
        return r, q, p + self.topleft

    def lanes(self) -> tuple[Lane, ...]:
        return self._lanes

    @cached_property
    def _lanes(self) -> tuple[Lane, ...]:
        a = self.topleft
        slash: list[list[tuple[int, int, int]]] = [[] for _ in range(self.family_size(SLASH))]
        back: list[list[tuple[int, int, int]]] = [[] for _ in range(self.family_size(BACKSLASH))]
        for i, (r, p, q, _) in enumerate(self._cells):
            slash[q].append((r, -(p + q), i))  # from the top end: down the rows, right to left in a row
            back[p + a].append((r, p + q, i))  # from the top-left end: down the rows, left to right
        rows = tuple(Lane(ROW, r, tuple(self.row_cells(r))) for r in range(self.rows))
        return (rows
                + tuple(Lane(SLASH, j, tuple(i for *_, i in sorted(c))) for j, c in enumerate(slash))
                + tuple(Lane(BACKSLASH, j, tuple(i for *_, i in sorted(c))) for j, c in enumerate(back)))

    def neighbours(self, cell: int) -> tuple[int, ...]:
        r, p, q, up = self._cell(cell)
        k = p + q
        index = self._index
        near = [(r, k - 1), (r, k + 1), (r + 1, k) if up else (r - 1, k)]
        return tuple(sorted(index[rk] for rk in near if rk in index))

    def cell_polygon(self, cell: int) -> tuple[Point, ...]:
        """The three corners, clockwise on screen from the leftmost one (up: left, apex, right;
        down: left, right, bottom); x in sides, y in sides too (a row is ``sqrt(3)/2`` high).

        >>> Triangle.triangle(1).cell_polygon(0)
        ((0.0, 0.8660254037844386), (0.5, 0.0), (1.0, 0.8660254037844386))
        """
        r, p, q, up = self._cell(cell)
        x = (p + q + self.topleft) / 2  # the hexagon's leftmost corner (row A's left end) at x = 0
        top, bottom = r * _ROW_HEIGHT, (r + 1) * _ROW_HEIGHT
        if up:
            return ((x, bottom), (x + 0.5, top), (x + 1.0, bottom))
        return ((x, top), (x + 1.0, top), (x + 0.5, bottom))

    def row_ends(self, r: int) -> tuple[str, str]:
        """The characters that start and end row ``r`` in webpbn's solution image: the slope of
        the outline there (``/`` above the left side's bend, ``\\`` below it; ``\\`` above the
        right side's bend, ``/`` below it)."""
        if not 0 <= r < self.rows:
            raise IndexError(f"row {r} is not in this triangle grid of {self.rows} rows")
        return (SLASH if r < self.topleft else BACKSLASH), (BACKSLASH if r < self.topright else SLASH)

    def text_rows(self, values: Sequence[str]) -> tuple[str, ...]:
        """The solution image of one character per cell (``values``, in cell order), row by
        row, each row between the characters of :meth:`row_ends`, as webpbn stores it.

        Raises:
            ValueError: ``values`` does not hold one character per cell.
        """
        if len(values) != self.cell_count:
            raise ValueError(f"expected {self.cell_count} cells, got {len(values)}")
        out = []
        for r in range(self.rows):
            left, right = self.row_ends(r)
            cells = "".join(values[i] for i in self.row_cells(r))
            if len(cells) != len(self.row_cells(r)):
                raise ValueError(f"row {r + 1}: a cell is not one character")
            out.append(left + cells + right)
        return tuple(out)

    def parse_text_rows(self, rows: Sequence[str]) -> str:
        """The cells (one character each, in cell order) of a solution image written as
        :meth:`text_rows` writes it.

        Raises:
            ValueError: a row count, row length or row end that does not fit (one line, naming
                the row).

        >>> g = Triangle.triangle(2)
        >>> g.parse_text_rows(g.text_rows("abcd"))
        'abcd'
        """
        if len(rows) != self.rows:
            raise ValueError(f"expected {self.rows} rows, got {len(rows)}")
        out = []
        for r, text in enumerate(rows):
            left, right = self.row_ends(r)
            n = len(self.row_cells(r))
            if len(text) < 2 or text[0] != left or text[-1] != right:
                raise ValueError(f"row {r + 1} must start with {left!r} and end with {right!r} "
                                 f"(the slope of the outline), got {text[:40]!r}")
            if len(text) - 2 != n:
                raise ValueError(f"row {r + 1} has {n} cells, got {len(text) - 2}")
            out.append(text[1:-1])
        return "".join(out)

    def as_json(self) -> dict[str, Any]:
        """``{"kind": "triangle", "topleft": A, "bottomleft": B, "bottom": C, "bottomright": D,
        "topright": E, "top": F}``: the sides, in Olšák's order."""
        return {"kind": self.kind, **{name: getattr(self, name) for name in SIDE_ORDER}}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Triangle:
        _check_keys(data, cls.kind, SIDE_ORDER)
        return cls(*(_count(data[name], f"side {name}", 0) for name in SIDE_ORDER))


_KINDS: dict[str, Any] = {Rectangle.kind: Rectangle, Triangle.kind: Triangle}


def cell_name(geometry: Geometry, cell: int) -> str:
    """A cell as people say it: ``row R, cell K`` on a triangle grid (1-based, K from the left
    within row R), ``row R, column C`` on a rectangle, else ``cell N`` (1-based).

    >>> from satnono.lanes import Triangle, Rectangle
    >>> cell_name(Triangle.hexagon(1), 4), cell_name(Rectangle(2, 3), 4)
    ('row 2, cell 2', 'row 2, column 2')
    """
    if geometry.kind == "triangle":
        r = geometry.coordinates(cell)[0]  # type: ignore[attr-defined]
        return f"row {r + 1}, cell {cell - geometry.row_cells(r).start + 1}"  # type: ignore[attr-defined]
    if geometry.kind == "rectangle":
        r, c = divmod(cell, geometry.width)  # type: ignore[attr-defined]
        return f"row {r + 1}, column {c + 1}"
    return f"cell {cell + 1}"


def geometry_from_json(data: Mapping[str, Any]) -> Geometry:
    """The geometry of a JSON form, by its ``"kind"``.

    Raises:
        ValueError: an unknown kind or a malformed form (one line).

    >>> geometry_from_json({"kind": "rectangle", "height": 2, "width": 5})
    Rectangle(height=2, width=5)
    """
    kind = data.get("kind") if isinstance(data, Mapping) else None
    if kind not in _KINDS:
        raise ValueError(f"unknown geometry kind {kind!r} (expected one of {', '.join(sorted(_KINDS))})"[:200])
    geometry: Geometry = _KINDS[kind].from_json(data)
    return geometry
