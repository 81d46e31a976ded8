"""Pictures of puzzles of any geometry (:mod:`satnono.lanes`): on a terminal, in SVG and in PNG,
laid out from each cell's outline (:meth:`~satnono.lanes.Geometry.cell_polygon`).

On a terminal a triangle is one character, ``▲``/``▼`` filled and ``△``/``▽`` background, a
cell that differs between two solutions ``×``; rows are indented as the outline is, so a
triddler reads as its picture::

    >>> from satnono.lanes import Triangle
    >>> from satnono.lanepuzzle import LanePuzzle
    >>> p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#")
    >>> print(picture_text(p, "#..#.#"))
    ▲▽△
    ▼△▼

With ``plain`` (no terminal, ``--ascii``, or a colour puzzle not on a terminal) a triangle
picture is written as webpbn stores it: each row between ``/`` or ``\\`` following the outline,
one palette character a cell (:meth:`~satnono.lanes.Triangle.text_rows`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable, Sequence

from .lanepuzzle import LanePuzzle
from .palette import plain_black

if TYPE_CHECKING:
    from .diagnose import Diagnosis

MARK = "×"


def _layout(puzzle: LanePuzzle) -> list[list[tuple[int, int]]]:
    """Rows of ``(column, cell)``: the cells by the top of their outline, left to right, each at a
    character column proportional to its leftmost x (the smallest step in a row is one column)."""
    g = puzzle.geometry
    corners = [g.cell_polygon(c) for c in range(g.cell_count)]
    tops = sorted({round(min(y for _, y in poly), 6) for poly in corners})
    row_of = {y: r for r, y in enumerate(tops)}
    lefts = [min(x for x, _ in poly) for poly in corners]
    xs = sorted({round(x, 6) for x in lefts})
    unit = min((b - a for a, b in zip(xs, xs[1:])), default=1.0)
    low = xs[0] if xs else 0.0
    rows: list[list[tuple[int, int]]] = [[] for _ in tops]
    for c, poly in enumerate(corners):
        rows[row_of[round(min(y for _, y in poly), 6)]].append((round((lefts[c] - low) / unit), c))
    for row in rows:
        row.sort()
    return rows


def _points_up(poly: Sequence[tuple[float, float]]) -> bool | None:
    """For a triangle, whether its lone corner is on top (None for other outlines)."""
    if len(poly) != 3:
        return None
    ys = sorted(y for _, y in poly)
    return ys[0] < ys[1] - 1e-9


def picture_text(puzzle: LanePuzzle, cells: str, plain: bool = False, marks: Iterable[int] = ()) -> str:
    """A picture (one palette character a cell) as text: see the module's documentation."""
    g = puzzle.geometry
    marked = set(marks)
    if plain:
        text_rows = getattr(g, "text_rows", None)
        if text_rows is not None and not marked:
            return "\n".join(text_rows(cells))
        return "\n".join("".join(cells[c] + ("*" if c in marked else "") for _, c in row)
                         for row in _layout(puzzle))
    colour = puzzle.is_color
    rgb = {col.char: col.rgb for col in puzzle.palette}
    background = puzzle.palette[0].char

    def glyph(c: int, up: bool | None) -> str:
        filled = cells[c] != background
        if c in marked:
            return MARK
        shape = ("█" if filled else "·") if up is None else ("▲" if up else "▼") if filled else ("△" if up else "▽")
        if colour and filled:
            red, green, blue = rgb.get(cells[c], (128, 128, 128))
            return f"\x1b[38;2;{red};{green};{blue}m{shape}\x1b[0m"
        return shape

    return "\n".join(_text_lines(puzzle, glyph))


def _text_lines(puzzle: LanePuzzle, glyph: Callable[[int, bool | None], str]) -> list[str]:
    """The cells laid out as text (:func:`_layout`), each drawn by ``glyph(cell, up)`` (``up``:
    whether a triangle points up, None for another outline)."""
    g = puzzle.geometry
    lines = []
    for row in _layout(puzzle):
        out, at = [], 0
        for column, c in row:
            out.append(" " * (column - at))
            at = column + 1
            out.append(glyph(c, _points_up(g.cell_polygon(c))))
        lines.append("".join(out))
    return lines


def picture_svg(puzzle: LanePuzzle, cells: str, cell: int = 16, text: bool = True) -> str:
    """An SVG picture of ``cells`` (a solution) in the puzzle's colours: each cell's outline
    ``cell`` pixels a side, the grid lines, and with ``text`` the clues beyond the lanes' ends
    (:func:`satnono.render.picture_layout`, which draws every geometry)."""
    from .render import picture_svg as svg

    return svg(puzzle, cells, cell, text)


def picture_png(puzzle: LanePuzzle, cells: str, scale: int = 16, text: bool = True) -> bytes:
    """A PNG picture of ``cells``, ``scale`` pixels a cell side, as :func:`picture_svg`'s."""
    from .render import picture_png as png

    return png(puzzle, cells, scale, text)


# --------------------------------------------------------------------------
# A diagnosis (:func:`satnono.diagnose.diagnose`) of a puzzle of another geometry: the heat map


def _heat_levels(d: Diagnosis) -> list[int]:
    from .diagnose import lane_heat

    return lane_heat(d)


def heat_text(d: Diagnosis, ascii: bool = False) -> str:
    """The heat map of a diagnosis as text, the cells laid out as :func:`picture_text` lays them:
    cells settled by line logic as the picture shows them (white and black triangles, or ``.``
    and ``#`` with ``ascii``), the other levels by :data:`satnono.render.ASCII_GLYPHS`'s
    characters (undetermined ``?``, ambiguous ``!``, in a conflicting lane ``x``, found by search
    ``-`` and ``+``), then a legend.  In colour a cell line logic fills shows its colour's
    character (as a rectangle's map does), and the legend names the colours."""
    from .render import ASCII_GLYPHS, LEVEL_NAMES

    p = d.puzzle
    assert isinstance(p, LanePuzzle)
    levels = _heat_levels(d)
    colour = not plain_black(p.palette)  # a cell line logic fills shows its colour's character

    def glyph(c: int, up: bool | None) -> str:
        v = levels[c]
        if colour and v == 1:
            return d.after_line[c]
        if ascii or v > 1 or up is None:
            return ASCII_GLYPHS[v]
        return ("▲" if up else "▼") if v else ("△" if up else "▽")

    lines = [line.rstrip() for line in _text_lines(p, glyph)]
    used = [v for v in sorted(set(levels)) if not (colour and v == 1)]
    shown = ["#" if v == 1 and ascii else "." if v == 0 and ascii else "▲▼" if v == 1 else "△▽" if v == 0
             else ASCII_GLYPHS[v] for v in used]
    names = [f"{glyph} {LEVEL_NAMES[v]}" for glyph, v in zip(shown, used)]
    if colour:
        names = [f"{col.char} {col.name}" for col in p.palette[1:]] + [
            name.replace("black, but", "a colour, but") for name in names]
    lines.append("legend: " + ", ".join(names))
    return "\n".join(lines)


def heat_svg(d: Diagnosis, cell: int = 16) -> str:
    """The heat map of a diagnosis as SVG: :func:`satnono.render.render_svg`, which draws every
    geometry (each cell's outline filled with its level's colour, the clues beyond the lanes' ends,
    the placement counts, conflicting lanes framed, a title and a legend)."""
    from .render import render_svg

    return render_svg(d, cell)


def heat_png(d: Diagnosis, scale: int | None = None) -> bytes:
    """The heat map of a diagnosis as PNG (:func:`satnono.render.render_png`)."""
    from .render import render_png

    return render_png(d, scale)


__all__ = ["heat_png", "heat_svg", "heat_text", "picture_png", "picture_svg", "picture_text"]
