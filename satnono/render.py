"""Drawing a :class:`~satnono.diagnose.Diagnosis`: terminal text, SVG and PNG.

Pure formatting: every function returns a string or bytes; nothing prints or
writes files.  SVG and PNG share one layout (:func:`layout`); the PNG is drawn
with Pillow.

Cell levels (see :func:`satnono.diagnose.heat`): white and black by line
logic; undetermined by line logic; ambiguous (differs between solutions);
undetermined in a line of a minimal conflict; white or black in every
solution but found only by search.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape
from typing import TYPE_CHECKING, Sequence

from .diagnose import Diagnosis, heat
from .lanes import FAMILY_NAMES
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
    out.append(f"{status}{how}  [{_size(p)}, {len(d.undetermined)} cells undetermined "
               f"after line logic, {d.seconds:.3f} s]")
    if d.reason and d.status in ("none", "unknown"):
        out.append(f"why: {d.reason}")
    for family in (ROW, COLUMN) if isinstance(p, Puzzle) else p.geometry.families:
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
# The picture shows what an author needs: a title (name and verdict), the clues along the
# top and the left, the heat map, the number of placements line logic leaves beside each
# row (right) and column (below) that has more than one, conflicting lines framed in red,
# and a legend.  The layout is computed once (sizes from a conservative estimate of text
# widths) and drawn by :func:`render_svg` or :func:`render_png`.

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


@dataclass(slots=True)
class Layout:
    """Where everything goes; ``x0``, ``y0`` is the top left corner of the grid."""

    width: int
    height: int
    x0: int
    y0: int
    cell: int
    title: str
    items: list = field(default_factory=list)


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


def layout(d: Diagnosis, cell: int = 16, text: bool = True) -> Layout:
    """The picture of ``d`` with cells of ``cell`` pixels; ``text=False`` leaves out the clues
    and placement counts (for grids too large for them to be read)."""
    p = d.puzzle
    assert isinstance(p, Puzzle), "layout() draws rectangles (lanerender draws other geometries)"
    levels = heat(d)
    h, w = p.height, p.width
    fs = max(8, round(cell * 0.75))  # clue and count text
    ts, ls = 14, 12  # title and legend text
    pad = 6
    margin = 8
    title = _title(d)
    colour = not plain_black(p.palette)  # a one-colour puzzle of its own is drawn in its colour
    rgb_of = {c.char: c.rgb for c in p.palette}
    ink = [TEXT_RGB] + [_readable(c.rgb) for c in p.palette[1:]]  # clue text per colour index
    row_clues = [" ".join(_numbers(c)) or "0" for c in p.row_clues] if text else []
    col_clues = [_numbers(c) or ["0"] for c in p.column_clues] if text else []
    col_inks = [[ink[v] for v in cs] or [TEXT_RGB] for cs in p.column_colors] if text else []
    row_counts = {o.index: f"{o.placements:,}" for o in d.open_lines if o.axis == ROW} if text else {}
    col_counts = {o.index: f"{o.placements:,}" for o in d.open_lines if o.axis == COLUMN} if text else {}
    left = int(max((len(t) for t in row_clues), default=0) * _EM * fs) + (pad if text else 0)
    top = max((len(c) for c in col_clues), default=0) * cell + (pad if text else 0)
    right = int(max((len(t) for t in row_counts.values()), default=0) * _EM * fs) + pad
    longest = max((len(t) for t in col_counts.values()), default=0)
    upright = longest == 1  # one-digit counts stand under their column, longer ones turn
    bottom = (fs + pad if upright and longest else int(longest * _EM * fs)) + pad
    used = sorted({v for row in levels for v in row})
    level_rgb = {**dict(enumerate(COLOURS)), **mark_colours(p.palette)}
    legend: list[tuple[tuple[int, int, int] | None, str, bool]] = [
        (level_rgb[v], LEVEL_NAMES[v], False) for v in used if not (colour and v in (1, 6))]
    chars = _settled_chars(d) if colour else []
    if colour:
        legend[:0] = [(c.rgb, f"{c.name} ({c.char})", False) for c in p.palette[1:]]
        if 6 in used:
            legend.append((_lighter((0x80, 0x80, 0x80)), "lighter: that colour, but only found by search", False))

    def fill(r: int, c: int, v: int) -> tuple[int, int, int]:
        if colour and v in (1, 6) and chars[r][c]:
            rgb = rgb_of[chars[r][c]]
            return _lighter(rgb) if v == 6 else rgb
        return level_rgb[v]
    if d.conflict:
        quality = "a minimal" if d.conflict_minimal else "a"
        legend.append((None, f"red frame: a line of {quality} set of clues that admit no solution together", True))
    if row_counts or col_counts:
        legend.append((None, "numbers right of rows and below columns: placements left after line logic", False))
    title_h = ts + pad
    x0 = margin + left
    y0 = margin + title_h + top
    legend_y = y0 + h * cell + bottom + pad
    legend_w = max((cell + 6 + len(t) * _EM * ls for _, t, _ in legend), default=0)
    width = int(max(x0 + w * cell + right + margin, margin * 2 + len(title) * _EM * ts, margin * 2 + legend_w))
    height = int(legend_y + len(legend) * (cell + 4) + margin)
    out = Layout(width, height, x0, y0, cell, title)
    items = out.items
    items.append(_Rect(0, 0, width, height, (0xFF, 0xFF, 0xFF)))
    items.append(_Text(margin, margin + ts, title, ts, bold=True))
    for r, row in enumerate(levels):
        for c, v in enumerate(row):
            if v:
                items.append(_Rect(x0 + c * cell, y0 + r * cell, cell, cell, fill(r, c, v)))
    for r in range(h + 1):
        items.append(_Line(x0, y0 + r * cell, x0 + w * cell, y0 + r * cell, GRID_RGB,
                           2 if r % 5 == 0 or r == h else 1))
    for c in range(w + 1):
        items.append(_Line(x0 + c * cell, y0, x0 + c * cell, y0 + h * cell, GRID_RGB,
                           2 if c % 5 == 0 or c == w else 1))
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
    for axis, i in d.conflict:
        if axis == ROW:
            items.append(_Rect(x0, y0 + i * cell, w * cell, cell, None, CONFLICT_RGB, 2))
        else:
            items.append(_Rect(x0 + i * cell, y0, cell, h * cell, None, CONFLICT_RGB, 2))
    ly = legend_y
    for swatch, t, frame in legend:
        if swatch is not None:
            items.append(_Rect(margin, ly, cell, cell, swatch, GRID_RGB, 1))
        elif frame:
            items.append(_Rect(margin + 1, ly + 1, cell - 2, cell - 2, None, CONFLICT_RGB, 2))
        items.append(_Text(margin + cell + 6, ly + base, t, ls))
        ly += cell + 4
    return out


def _hex(rgb: tuple[int, int, int]) -> str:
    return "#%02x%02x%02x" % rgb


def render_svg(d: Diagnosis, cell: int = 16) -> str:
    """An SVG picture of the diagnosis (see :func:`layout`)."""
    lay = layout(d, cell)
    p = d.puzzle
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{lay.width}" height="{lay.height}" '
        f'viewBox="0 0 {lay.width} {lay.height}" font-family="DejaVu Sans, Verdana, sans-serif">',
        f"<title>{escape(p.name or p.source or 'nonogram')}: {escape(d.status)}</title>",
    ]
    anchors = {"start": "start", "middle": "middle", "end": "end"}
    for it in lay.items:
        if isinstance(it, _Rect):
            fill = _hex(it.fill) if it.fill else "none"
            stroke = f' stroke="{_hex(it.stroke)}" stroke-width="{it.width:g}"' if it.stroke else ""
            parts.append(f'<rect x="{it.x:g}" y="{it.y:g}" width="{it.w:g}" height="{it.h:g}" fill="{fill}"{stroke}/>')
        elif isinstance(it, _Line):
            parts.append(f'<line x1="{it.x1:g}" y1="{it.y1:g}" x2="{it.x2:g}" y2="{it.y2:g}" '
                         f'stroke="{_hex(it.rgb)}" stroke-width="{it.width * 0.75:g}"/>')
        else:
            weight = ' font-weight="bold"' if it.bold else ""
            fill = f' fill="{_hex(it.rgb)}"' if it.rgb != TEXT_RGB else ""
            if it.rotate:
                parts.append(f'<text transform="translate({it.x:g},{it.y:g}) rotate(90)" dy="0.35em" '
                             f'font-size="{it.size}"{fill}>{escape(it.text)}</text>')
            else:
                parts.append(f'<text x="{it.x:g}" y="{it.y:g}" font-size="{it.size}" '
                             f'text-anchor="{anchors[it.anchor]}"{weight}{fill}>{escape(it.text)}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------
# PNG


def png_cell(d: Diagnosis) -> int:
    """The default cell size of :func:`render_png`: 16 pixels, less for large grids."""
    p = d.puzzle
    assert isinstance(p, Puzzle)
    return max(3, min(16, 1600 // max(p.height, p.width, 1)))


def render_png(d: Diagnosis, cell: int | None = None) -> bytes:
    """A PNG picture of the diagnosis (see :func:`layout`; drawn with Pillow).

    Clues and placement counts are left out when cells are under 8 pixels
    (grids over 200 cells a side by default): they could not be read.
    """
    import io

    from PIL import Image, ImageDraw, ImageFont

    cell = cell or png_cell(d)
    lay = layout(d, cell, text=cell >= 8)
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
        else:
            draw.text((it.x, it.y), it.text, font=font(it.size, it.bold), fill=it.rgb, anchor=anchors[it.anchor])
    buf = io.BytesIO()
    img.save(buf, "PNG", optimize=True)
    return buf.getvalue()


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
