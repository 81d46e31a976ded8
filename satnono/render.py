"""Drawing a :class:`~satnono.diagnose.Diagnosis`: terminal text, SVG and PNG.

Pure formatting: every function returns a string or bytes; nothing prints or
writes files.  The PNG encoder is written out here (zlib + struct), so no
imaging library is needed.

Cell levels (see :func:`satnono.diagnose.heat`): white and black by line
logic; undetermined by line logic; ambiguous (differs between solutions);
undetermined in a line of a minimal conflict; white or black in every
solution but found only by search.
"""

from __future__ import annotations

import struct
import zlib
from html import escape
from typing import Sequence

from .diagnose import Diagnosis, heat
from .propagate import COLUMN, ROW

UNICODE_GLYPHS = ("··", "██", "??", "▓▓", "XX", "░░", "▒▒")
ASCII_GLYPHS = (".", "#", "?", "!", "x", "-", "+")
LEVEL_NAMES = ("white", "black", "undetermined by line logic", "ambiguous (differs between solutions)",
               "undetermined, in a conflicting line", "white, but only found by search",
               "black, but only found by search")
#: RGB colours of the levels in SVG and PNG.
COLOURS = ((0xFF, 0xFF, 0xFF), (0x22, 0x22, 0x22), (0xF2, 0xC9, 0x4C), (0xE5, 0x39, 0x35),
           (0x8E, 0x24, 0xAA), (0xD6, 0xE4, 0xF0), (0x4A, 0x6F, 0x94))
GRID_RGB = (0xBB, 0xBB, 0xBB)


def _clue_text(clue: Sequence[int]) -> str:
    return " ".join(map(str, clue)) or "0"


def _ordinal_list(items: Sequence[tuple[int, int]], limit: int = 12) -> str:
    shown = ", ".join(f"{i + 1} ({n:,})" for i, n in items[:limit])
    if len(items) > limit:
        shown += f", ... ({len(items) - limit} more)"
    return shown


def render_heatmap(d: Diagnosis, ascii: bool = False) -> str:
    """The grid with each cell drawn by level; open rows carry their number of
    placements on the right, conflicting rows a marker; a legend follows."""
    glyphs = ASCII_GLYPHS if ascii else UNICODE_GLYPHS
    levels = heat(d)
    row_notes: dict[int, str] = {o.index: f"{o.placements:,}" for o in d.open_lines if o.axis == ROW}
    for axis, i in d.conflict:
        if axis == ROW:
            row_notes[i] = "<- conflict"
    out = []
    for r, row in enumerate(levels):
        line = "".join(glyphs[v] for v in row)
        note = row_notes.get(r)
        out.append(f"{line}  {note}" if note else line)
    cols = [(o.index, o.placements) for o in d.open_lines if o.axis == COLUMN]
    conflict_cols = [i for axis, i in d.conflict if axis == COLUMN]
    if conflict_cols:
        mark = [" " * len(glyphs[0])] * d.puzzle.width
        for i in conflict_cols:
            mark[i] = "^" * len(glyphs[0])
        out.append("".join(mark).rstrip() + "  conflict")
    used = sorted({v for row in levels for v in row})
    out.append("legend: " + ", ".join(f"{glyphs[v].strip() or glyphs[v]} {LEVEL_NAMES[v]}" for v in used))
    if cols:
        out.append("columns with several placements (placements): " + _ordinal_list(cols))
    return "\n".join(out)


def render_summary(d: Diagnosis) -> str:
    """A few lines of prose: the verdict, open lines, ambiguity, conflict."""
    p = d.puzzle
    out = []
    status = {"unique": "unique", "multiple": "several solutions", "none": "no solution",
              "unknown": "not settled"}[d.status]
    how = ""
    if d.status == "unique":
        how = " (line-solvable)" if d.line_solvable else " (needs more than line logic)"
    out.append(f"{status}{how}  [{p.width}x{p.height}, {len(d.undetermined)} cells undetermined "
               f"after line logic, {d.seconds:.3f} s]")
    if d.reason and d.status in ("none", "unknown"):
        out.append(f"why: {d.reason}")
    rows = [(o.index, o.placements) for o in d.open_lines if o.axis == ROW]
    cols = [(o.index, o.placements) for o in d.open_lines if o.axis == COLUMN]
    if rows:
        out.append(f"rows with several placements after line logic: {len(rows)}: " + _ordinal_list(rows))
    if cols:
        out.append(f"columns with several placements after line logic: {len(cols)}: " + _ordinal_list(cols))
    if d.status == "multiple":
        note = "" if d.ambiguity_complete else " (at least: time ran out before every cell was tested)"
        out.append(f"ambiguity region: {len(d.ambiguous)} cells differ between solutions{note}")
    if d.conflict:
        names = ", ".join(f"{a} {i + 1} [{_clue_text(p.rows[i] if a == ROW else p.columns[i])}]"
                          for a, i in d.conflict)
        quality = "minimal" if d.conflict_minimal else "not proved minimal"
        out.append(f"conflicting lines ({len(d.conflict)}, {quality}): {names}")
    return "\n".join(out)


# --------------------------------------------------------------------------
# SVG


def render_svg(d: Diagnosis, cell: int = 16) -> str:
    """An SVG image of the heat map, with clue-independent margins showing the
    number of placements of open lines and marking conflicting lines."""
    p = d.puzzle
    levels = heat(d)
    h, w = p.height, p.width
    margin_r = 8 * cell
    margin_b = 3 * cell
    top = 2 * cell
    width = w * cell + margin_r + cell
    height = top + h * cell + margin_b + 3 * cell
    fills = ["#%02x%02x%02x" % c for c in COLOURS]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{max(8, cell * 3 // 4)}">',
        f"<title>{escape(p.name or p.source or 'nonogram')}: {escape(d.status)}</title>",
        f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
        f'<text x="{cell // 2}" y="{cell * 4 // 3}">{escape(p.name or p.source or "")} '
        f'({escape(d.status)})</text>',
    ]
    x0, y0 = cell // 2, top
    for r, row in enumerate(levels):
        for c, v in enumerate(row):
            if v:
                parts.append(f'<rect x="{x0 + c * cell}" y="{y0 + r * cell}" width="{cell}" '
                             f'height="{cell}" fill="{fills[v]}"/>')
    grid = "#%02x%02x%02x" % GRID_RGB
    for r in range(h + 1):
        sw = 1.5 if r % 5 == 0 or r == h else 0.5
        parts.append(f'<line x1="{x0}" y1="{y0 + r * cell}" x2="{x0 + w * cell}" y2="{y0 + r * cell}" '
                     f'stroke="{grid}" stroke-width="{sw}"/>')
    for c in range(w + 1):
        sw = 1.5 if c % 5 == 0 or c == w else 0.5
        parts.append(f'<line x1="{x0 + c * cell}" y1="{y0}" x2="{x0 + c * cell}" y2="{y0 + h * cell}" '
                     f'stroke="{grid}" stroke-width="{sw}"/>')
    for o in d.open_lines:
        if o.axis == ROW:
            parts.append(f'<text x="{x0 + w * cell + 4}" y="{y0 + o.index * cell + cell * 3 // 4}">'
                         f"{o.placements:,}</text>")
        else:
            cx = x0 + o.index * cell + cell // 2
            cy = y0 + h * cell + 4
            parts.append(f'<text transform="translate({cx},{cy}) rotate(90)" dy="0.35em">{o.placements:,}</text>')
    for axis, i in d.conflict:
        if axis == ROW:
            parts.append(f'<rect x="{x0}" y="{y0 + i * cell}" width="{w * cell}" height="{cell}" '
                         f'fill="none" stroke="#d50000" stroke-width="2"/>')
        else:
            parts.append(f'<rect x="{x0 + i * cell}" y="{y0}" width="{cell}" height="{h * cell}" '
                         f'fill="none" stroke="#d50000" stroke-width="2"/>')
    used = sorted({v for row in levels for v in row})
    ly = y0 + h * cell + margin_b
    lx = x0
    for v in used:
        parts.append(f'<rect x="{lx}" y="{ly}" width="{cell}" height="{cell}" fill="{fills[v]}" '
                     f'stroke="{grid}"/>')
        parts.append(f'<text x="{lx + cell + 4}" y="{ly + cell * 3 // 4}">{escape(LEVEL_NAMES[v])}</text>')
        ly += cell + 4
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------
# PNG


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def encode_png(pixels: Sequence[bytes], width: int) -> bytes:
    """A PNG file from rows of RGB bytes (3 bytes per pixel, 8 bits per channel)."""
    raw = b"".join(b"\x00" + row for row in pixels)  # filter type 0 on every scanline
    ihdr = struct.pack(">IIBBBBB", width, len(pixels), 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", ihdr)
            + _png_chunk(b"IDAT", zlib.compress(raw, 9)) + _png_chunk(b"IEND", b""))


def render_png(d: Diagnosis, cell: int | None = None) -> bytes:
    """A PNG image of the heat map (cells with 1-pixel grid lines; conflicting
    lines framed in red)."""
    levels = heat(d)
    h, w = d.puzzle.height, d.puzzle.width
    if cell is None:
        cell = max(3, min(16, 800 // max(h, w, 1)))
    step = cell + 1
    width = w * step + 1
    height = h * step + 1
    grid_px = bytes(GRID_RGB)
    colour_px = [bytes(c) for c in COLOURS]
    line_row = grid_px * width
    rows: list[bytes] = []
    for r in range(h):
        rows.append(line_row)
        body = bytearray(grid_px)
        for v in levels[r]:
            body += colour_px[v] * cell + grid_px
        rows.extend([bytes(body)] * cell)
    rows.append(line_row)
    if d.conflict:
        red = bytes((0xD5, 0x00, 0x00))
        canvas = [bytearray(x) for x in rows]
        for axis, i in d.conflict:
            if axis == ROW:
                for y in (i * step, (i + 1) * step):
                    canvas[y][:] = red * width
                for y in range(i * step, (i + 1) * step + 1):
                    canvas[y][0:3] = red
                    canvas[y][(width - 1) * 3:width * 3] = red
            else:
                for y in range(height):
                    for x in (i * step, (i + 1) * step):
                        canvas[y][x * 3:x * 3 + 3] = red
                for y in (0, height - 1):
                    canvas[y][i * step * 3:((i + 1) * step + 1) * 3] = red * (step + 1)
        rows = [bytes(x) for x in canvas]
    return encode_png(rows, width)
