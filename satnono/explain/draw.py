"""Drawing explanation steps: terminal text and SVG.  Pure formatting: nothing prints or writes.

A rectangle's steps are drawn as a grid (:func:`render_step`, its line marked and its new cells
highlighted; :func:`render_svg`); any other geometry's as the rows people read (a triangle
grid's text rows, :func:`draw_step`).
"""

from __future__ import annotations

from html import escape
from typing import Any, Iterator, Sequence

from ..model import BLACK, WHITE, Color, Puzzle, plain_black
from ..clues import COLUMN, ROW, LineClue
from ..lanes import LINE
from .board import board_of
from .techniques import Step

#: Glyphs: black, white, unknown, new black, new white.
UNICODE = ("██", "··", "  ", "▓▓", "░░")
ASCII = ("#", ".", "?", "@", "o")


def replay(puzzle: Any, steps: Sequence[Step], known: Any = None) -> Iterator[tuple[Any, Step]]:
    """``(state before the step, step)`` for each step, applying each step's cells in turn: the
    state a rectangle's rows (as ``known`` is given), any other geometry's cells (one character
    a cell, ``?`` open)."""
    if isinstance(puzzle, Puzzle):
        grid = [list(row) for row in (known or ["?" * puzzle.width] * puzzle.height)]
        for st in steps:
            yield tuple("".join(r) for r in grid), st
            for r, c, v in st.cells:
                grid[r][c] = v
        return
    cells = list(board_of(puzzle).picture_of(known) if known is not None else "?" * puzzle.geometry.cell_count)
    for st in steps:
        yield "".join(cells), st
        for cell, v in st.cells:
            cells[cell] = v


def draw_step(puzzle: Any, before: Any, step: Step, ascii: bool = False) -> str:
    """The state after ``step``: a rectangle's grid as :func:`render_step` draws it (in the
    puzzle's colours), any other geometry's rows (a triangle grid's text rows, ``?`` open)."""
    if isinstance(puzzle, Puzzle):
        return render_step(before, step, ascii, puzzle.palette if puzzle.is_color else None)
    board = board_of(puzzle)
    cells = list(board.picture_of(before))
    for cell, v in step.cells:
        cells[cell] = v
    return "\n".join(board.rows("".join(cells)))


def step_legend(puzzle: Any, ascii: bool = False, hint: bool = False) -> str:
    """What :func:`draw_step` shows, in words (after each step of an explanation, or after a
    ``hint``'s step)."""
    if isinstance(puzzle, Puzzle):
        return legend(ascii, puzzle.palette if puzzle.is_color else None)
    if hint:
        return "(the cells after the step; '?' unknown)"
    return "(the cells after each step, as webpbn writes a triddler's rows; '?' unknown)"


def apply(grid: Sequence[str], step: Step) -> tuple[str, ...]:
    rows = [list(r) for r in grid]
    for r, c, v in step.cells:
        rows[r][c] = v
    return tuple("".join(r) for r in rows)


def _fg(rgb: tuple[int, int, int]) -> str:
    """Black or white text, whichever reads on a cell of colour ``rgb``."""
    red, green, blue = rgb
    return "0;0;0" if red * 299 + green * 587 + blue * 114 > 128000 else "255;255;255"


def _render_color_step(after: Sequence[str], step: Step, ascii: bool, palette: Sequence[Color]) -> str:
    """:func:`render_step` for a colour puzzle: cells in 24-bit terminal colour (background
    cells dotted, open cells blank, the step's cells and the cells it rules colours out of
    marked), or with ``ascii`` the palette's characters, ``?`` open, marked cells followed by ``*``."""
    marked = {(r, c) for r, c, _ in step.touched()}
    rgb = {col.char: col.rgb for col in palette}
    bg = palette[0].char
    lines = []
    for r, row in enumerate(after):
        if ascii:
            text = "".join(ch + ("*" if (r, c) in marked else " ") for c, ch in enumerate(row)).rstrip()
        else:
            out = []
            for c, ch in enumerate(row):
                if ch == "?":
                    out.append("\x1b[0m" + ("▒▒" if (r, c) in marked else "  "))
                    continue
                red, green, blue = rgb.get(ch, (128, 128, 128))
                glyph = "◆◆" if (r, c) in marked else "··" if ch == bg else "  "
                out.append(f"\x1b[48;2;{red};{green};{blue}m\x1b[38;2;{_fg((red, green, blue))}m{glyph}")
            text = "".join(out) + "\x1b[0m"
        if step.axis == ROW and r == step.index:
            text += "  <" if ascii else "  ◀"
        lines.append(text)
    if step.axis == COLUMN:
        lines.append(" " * (2 * step.index) + ("^" if ascii else "▲"))
    return "\n".join(lines)


def render_step(before: Sequence[str], step: Step, ascii: bool = False,
                palette: Sequence[Color] | None = None) -> str:
    """The grid after ``step`` with its new cells highlighted and its line marked
    (an arrow at the end of a row, a caret under a column).  With a colour ``palette``
    the cells are drawn in the puzzle's colours."""
    if palette is not None and len(palette) > 2:
        return _render_color_step(apply(before, step), step, ascii, palette)
    g = ASCII if ascii else UNICODE
    new = {(r, c): v for r, c, v in step.cells}
    after = apply(before, step)
    lines = []
    for r, row in enumerate(after):
        out = []
        for c, ch in enumerate(row):
            v = new.get((r, c))
            if v is not None:
                out.append(g[3] if v == BLACK else g[4])
            else:
                out.append(g[0] if ch == BLACK else g[1] if ch == WHITE else g[2])
        text = "".join(out)
        if step.axis == ROW and r == step.index:
            text += "  <" if ascii else "  ◀"
        lines.append(text)
    if step.axis == COLUMN:  # (a rule's or an extra line's cells are not in one row or column)
        cw = len(g[0])
        lines.append(" " * (cw * step.index) + ("^" if ascii else "▲"))
    return "\n".join(lines)


def legend(ascii: bool = False, palette: Sequence[Color] | None = None) -> str:
    if palette is not None and len(palette) > 2:
        if ascii:
            return ("(cells as the palette's characters, '?' open; '*' marks the cells the step settles or rules "
                    "colours out of; the marked line is the step's line)")
        return ("(cells in the puzzle's colours, ·· background, blank open; ◆◆ marks the cells the step settles, "
                "▒▒ open cells it rules colours out of; the marked line is the step's line)")
    g = ASCII if ascii else UNICODE
    unknown = "'?'" if ascii else "blank"
    return (f"({g[3]} new black, {g[4]} new white, {g[0]} black, {g[1]} white, {unknown} unknown; "
            "the marked line is the step's line)")


# --------------------------------------------------------------------------
# SVG

_CELL = 18
_FONT = 10


def _clue_labels(clue: LineClue) -> list[str]:
    """The clue's numbers as drawn, ``?`` for a blotted (hidden) length; ``0`` for an empty line."""
    return ["?" if clue.is_blotted(j) else str(n) for j, n in enumerate(clue.lengths)] or ["0"]


def _label_fills(puzzle: Puzzle, axis: str, i: int) -> list[str]:
    """A ``fill`` attribute per clue number, last block first: the block's colour in a colour
    puzzle (nothing in black and white)."""
    lengths, colors = puzzle.line(axis, i)
    if not puzzle.is_color or not lengths:
        return [""] * max(1, len(lengths))
    return [f' fill="{puzzle.palette[v].hex}"' for v in reversed(colors)]


#: Width of an average character of the heading, in ems (as the diagnosis pictures estimate it).
HEADING_EM = 0.62


def render_svg(puzzle: Puzzle, before: Sequence[str], step: Step, number: int, total: int) -> str:
    """One step as a standalone SVG: clues, the grid after the step, the step's line
    shaded, its new cells outlined in red, and the step's sentence as the title."""
    h, w = puzzle.height, puzzle.width
    after = apply(before, step)
    new = {(r, c) for r, c, _ in step.touched()}
    left = max(len(_clue_labels(c)) for c in puzzle.row_clues) * _FONT + 8
    top = max(len(_clue_labels(c)) for c in puzzle.column_clues) * (_FONT + 2) + 30
    heading = f"Step {number} of {total} ({step.technique})"
    # the canvas is at least as wide as the heading (12 px sans-serif: about 0.62 em a character),
    # so a narrow puzzle does not cut it ("Step 1 o" on a 1x3)
    width = max(left + w * _CELL + 10, int(len(heading) * 12 * HEADING_EM) + 12)
    height = top + h * _CELL + 10
    title = f"Step {number} of {total}: {step.text}"
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="{_FONT}">',
           f"<title>{escape(title)}</title>",
           f'<rect width="{width}" height="{height}" fill="#ffffff"/>',
           f'<text x="4" y="14" font-size="12">{escape(heading)}</text>']
    for r, clue in enumerate(puzzle.row_clues):
        labels = _clue_labels(clue)
        fills = _label_fills(puzzle, "row", r)
        y = top + r * _CELL + _CELL * 0.7
        for k, t in enumerate(reversed(labels)):
            out.append(f'<text x="{left - 6 - k * _FONT}" y="{y:.1f}" text-anchor="end"{fills[k]}>{t}</text>')
    for c, clue in enumerate(puzzle.column_clues):
        labels = _clue_labels(clue)
        fills = _label_fills(puzzle, "column", c)
        x = left + c * _CELL + _CELL / 2
        for k, t in enumerate(reversed(labels)):
            out.append(f'<text x="{x:.1f}" y="{top - 4 - k * (_FONT + 2)}" text-anchor="middle"{fills[k]}>{t}</text>')
    # a colour puzzle, and a one-colour puzzle of its own, draw each cell in its colour
    colour = None if plain_black(puzzle.palette) else {col.char: col.hex for col in puzzle.palette}
    ink = "#222222"
    for r, row in enumerate(after):
        for c, ch in enumerate(row):
            x, y = left + c * _CELL, top + r * _CELL
            if colour is not None:
                fill = "#e8e8e8" if ch == "?" else colour.get(ch, "#e8e8e8")
            else:
                fill = ink if ch == BLACK else "#ffffff" if ch == WHITE else "#e8e8e8"
            out.append(f'<rect x="{x}" y="{y}" width="{_CELL}" height="{_CELL}" fill="{fill}" stroke="#bbbbbb"/>')
            if ch == WHITE:
                out.append(f'<circle cx="{x + _CELL / 2}" cy="{y + _CELL / 2}" r="1.5" fill="#888888"/>')
    if step.axis in (ROW, "column"):  # a rule step has no one line to frame
        if step.axis == ROW:
            lx, ly, lw, lh = left, top + step.index * _CELL, w * _CELL, _CELL
        else:
            lx, ly, lw, lh = left + step.index * _CELL, top, _CELL, h * _CELL
        out.append(f'<rect x="{lx}" y="{ly}" width="{lw}" height="{lh}" fill="#f2c94c" fill-opacity="0.35" '
                   f'stroke="#d4a017" stroke-width="2"/>')
    elif step.axis == LINE and step.lane is not None:  # an extra line: each of its cells shaded
        for cell in puzzle.lanes[step.lane].cells:
            r, c = divmod(cell, w)
            out.append(f'<rect x="{left + c * _CELL}" y="{top + r * _CELL}" width="{_CELL}" height="{_CELL}" '
                       f'fill="#f2c94c" fill-opacity="0.35" stroke="#d4a017" stroke-width="2"/>')
    for r, c in sorted(new):
        out.append(f'<rect x="{left + c * _CELL + 1.5}" y="{top + r * _CELL + 1.5}" width="{_CELL - 3}" '
                   f'height="{_CELL - 3}" fill="none" stroke="#e53935" stroke-width="2.5"/>')
    if step.probe is not None:
        r, c, _ = step.probe
        out.append(f'<rect x="{left + c * _CELL}" y="{top + r * _CELL}" width="{_CELL}" height="{_CELL}" '
                   f'fill="none" stroke="#1e88e5" stroke-width="3"/>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def svg_files(puzzle: Puzzle, steps: Sequence[Step], known: Sequence[str] | None = None) -> dict[str, bytes]:
    """``step-0001.svg``, ... for every step (at least four digits, more when needed)."""
    digits = max(4, len(str(len(steps))))
    return {f"step-{k:0{digits}d}.svg": render_svg(puzzle, before, st, k, len(steps)).encode("utf-8")
            for k, (before, st) in enumerate(replay(puzzle, steps, known), 1)}
