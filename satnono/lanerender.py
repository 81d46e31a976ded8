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

from typing import TYPE_CHECKING, Iterable, Sequence
from xml.sax.saxutils import escape

from .lanepuzzle import LanePuzzle

if TYPE_CHECKING:
    from .diagnose import Diagnosis

GRID_RGB = (150, 150, 150)
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
    lines = []
    for row in _layout(puzzle):
        out, at = [], 0
        for column, c in row:
            out.append(" " * (column - at))
            at = column + 1
            up = _points_up(g.cell_polygon(c))
            filled = cells[c] != background
            if c in marked:
                glyph = MARK
            elif up is None:
                glyph = "█" if filled else "·"
            else:
                glyph = ("▲" if up else "▼") if filled else ("△" if up else "▽")
            if colour and filled and c not in marked:
                red, green, blue = rgb.get(cells[c], (128, 128, 128))
                glyph = f"\x1b[38;2;{red};{green};{blue}m{glyph}\x1b[0m"
            out.append(glyph)
        lines.append("".join(out))
    return "\n".join(lines)


def _hex(rgb: Sequence[int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def picture_svg(puzzle: LanePuzzle, cells: str, cell: int = 16,
                fills: Sequence[Sequence[int]] | None = None) -> str:
    """An SVG picture of ``cells`` (a solution) in the puzzle's colours: each cell's outline
    ``cell`` pixels a side, filled, with thin grid lines; ``fills``: each cell's RGB colour
    instead (``cells`` is then not read)."""
    g = puzzle.geometry
    rgb = {c.char: c.rgb for c in puzzle.palette}
    background = puzzle.palette[0].char
    polys = [g.cell_polygon(c) for c in range(g.cell_count)]
    m = 2
    width = max((x for poly in polys for x, _ in poly), default=0.0) * cell + 2 * m
    height = max((y for poly in polys for _, y in poly), default=0.0) * cell + 2 * m
    title = escape(puzzle.name or puzzle.source or "nonogram")
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
             f'viewBox="0 0 {width:.2f} {height:.2f}">', f"<title>{title}</title>",
             f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="#ffffff"/>']
    for c, poly in enumerate(polys):
        points = " ".join(f"{m + x * cell:.2f},{m + y * cell:.2f}" for x, y in poly)
        if fills is not None:
            fill = _hex(fills[c])
        else:
            fill = "#ffffff" if cells[c] == background else _hex(rgb.get(cells[c], (128, 128, 128)))
        parts.append(f'<polygon points="{points}" fill="{fill}" stroke="{_hex(GRID_RGB)}" stroke-width="0.5"/>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def picture_png(puzzle: LanePuzzle, cells: str, scale: int = 16,
                fills: Sequence[Sequence[int]] | None = None) -> bytes:
    """A PNG picture of ``cells``, ``scale`` pixels a cell side (Pillow); ``fills`` as
    :func:`picture_svg`'s."""
    import io

    from PIL import Image, ImageDraw
    from PIL.PngImagePlugin import PngInfo

    g = puzzle.geometry
    rgb = {c.char: c.rgb for c in puzzle.palette}
    background = puzzle.palette[0].char
    polys = [g.cell_polygon(c) for c in range(g.cell_count)]
    m = 2
    width = int(max((x for poly in polys for x, _ in poly), default=0.0) * scale) + 2 * m + 1
    height = int(max((y for poly in polys for _, y in poly), default=0.0) * scale) + 2 * m + 1
    image = Image.new("RGB", (width, height), (255, 255, 255))
    draw = ImageDraw.Draw(image)
    for c, poly in enumerate(polys):
        if fills is not None:
            fill = tuple(fills[c])
        else:
            fill = (255, 255, 255) if cells[c] == background else tuple(rgb.get(cells[c], (128, 128, 128)))
        draw.polygon([(m + x * scale, m + y * scale) for x, y in poly], fill=fill, outline=GRID_RGB)
    info = PngInfo()
    if puzzle.name is not None:
        info.add_itxt("Title", puzzle.name)
    out = io.BytesIO()
    image.save(out, format="PNG", pnginfo=info)
    return out.getvalue()


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
    ``-`` and ``+``), then a legend."""
    from .render import ASCII_GLYPHS, LEVEL_NAMES

    p = d.puzzle
    assert isinstance(p, LanePuzzle)
    g = p.geometry
    levels = _heat_levels(d)
    lines = []
    for row in _layout(p):
        out, at = [], 0
        for column, c in row:
            out.append(" " * (column - at))
            at = column + 1
            v = levels[c]
            up = _points_up(g.cell_polygon(c))
            if ascii or v > 1 or up is None:
                out.append(ASCII_GLYPHS[v])
            else:
                out.append(("▲" if up else "▼") if v else ("△" if up else "▽"))
        lines.append("".join(out).rstrip())
    used = sorted(set(levels))
    shown = ["#" if v == 1 and ascii else "." if v == 0 and ascii else "▲▼" if v == 1 else "△▽" if v == 0
             else ASCII_GLYPHS[v] for v in used]
    lines.append("legend: " + ", ".join(f"{glyph} {LEVEL_NAMES[v]}" for glyph, v in zip(shown, used)))
    return "\n".join(lines)


def heat_svg(d: Diagnosis, cell: int = 16) -> str:
    """The heat map of a diagnosis as SVG: each cell's outline filled with its level's colour
    (:data:`satnono.render.COLOURS`)."""
    from .render import COLOURS

    assert isinstance(d.puzzle, LanePuzzle)
    return picture_svg(d.puzzle, "", cell, fills=[COLOURS[v] for v in _heat_levels(d)])


def heat_png(d: Diagnosis, scale: int = 16) -> bytes:
    """The heat map of a diagnosis as PNG (:func:`heat_svg`'s colours)."""
    from .render import COLOURS

    assert isinstance(d.puzzle, LanePuzzle)
    return picture_png(d.puzzle, "", scale, fills=[COLOURS[v] for v in _heat_levels(d)])


__all__ = ["heat_png", "heat_svg", "heat_text", "picture_png", "picture_svg", "picture_text"]
