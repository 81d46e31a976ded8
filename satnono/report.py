"""Formatting of grids and verdicts as text and JSON-ready dicts.

No logic beyond formatting; nothing here prints.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from .model import BLACK, Color, plain_black
from .solve import CheckResult, Status

UNICODE = {"black": "██", "white": "··", "diff_black": "▓▓", "diff_white": "░░"}
ASCII = {"black": "#", "white": ".", "diff_black": "@", "diff_white": "o"}


def render_grid(grid: Sequence[str], ascii: bool = False, marks: Iterable[tuple[int, int]] = (),
                palette: Sequence[Color] | None = None) -> str:
    """A grid as text; cells in ``marks`` are drawn with the "differs" glyphs.

    With a colour ``palette`` (any but plain black ``#``) the cells are drawn
    in 24-bit terminal colour, or with ``ascii`` as the palette's characters
    (marked cells followed by ``*``).
    """
    if palette is not None and not plain_black(palette):
        return _render_color_grid(grid, ascii, set(marks), palette)
    g = ASCII if ascii else UNICODE
    marked = set(marks)
    lines = []
    for r, row in enumerate(grid):
        out = []
        for c, ch in enumerate(row):
            black = ch == BLACK
            if (r, c) in marked:
                out.append(g["diff_black"] if black else g["diff_white"])
            else:
                out.append(g["black"] if black else g["white"])
        lines.append("".join(out))
    return "\n".join(lines)


def _render_color_grid(grid: Sequence[str], ascii: bool, marked: set[tuple[int, int]],
                       palette: Sequence[Color]) -> str:
    if ascii:
        if not marked:
            return "\n".join(grid)
        return "\n".join("".join(ch + ("*" if (r, c) in marked else " ") for c, ch in enumerate(row)).rstrip()
                         for r, row in enumerate(grid))
    rgb = {col.char: col.rgb for col in palette}
    lines = []
    for r, row in enumerate(grid):
        out = []
        for c, ch in enumerate(row):
            red, green, blue = rgb.get(ch, (128, 128, 128))
            if (r, c) in marked:
                fg = "0;0;0" if red * 299 + green * 587 + blue * 114 > 128000 else "255;255;255"
                out.append(f"\x1b[48;2;{red};{green};{blue}m\x1b[38;2;{fg}m××")
            else:
                out.append(f"\x1b[48;2;{red};{green};{blue}m  ")
        lines.append("".join(out) + "\x1b[0m")
    return "\n".join(lines)


def diff_legend(ascii: bool = False, color: bool = False) -> str:
    if color:
        mark = "*" if ascii else "××"
        return f"(cells that differ from the first solution are marked {mark})"
    g = ASCII if ascii else UNICODE
    return f"(cells that differ from the first solution: {g['diff_black']} black here, {g['diff_white']} white here)"


def palette_list(palette: Sequence[Color]) -> list[dict[str, str]]:
    """The palette as JSON: background first, each with ``name``, ``char`` and ``rgb`` (``#rrggbb``)."""
    return [{"name": c.name, "char": c.char, "rgb": c.hex} for c in palette]


def label(file: str, index: int | None) -> str:
    return file if index is None else f"{file}#{index}"


def verdict_text(res: CheckResult) -> str:
    """A short human verdict, e.g. ``unique (line-solvable)``."""
    p = res.puzzle
    size = f"{p.width}x{p.height}"
    st = res.status
    if st is Status.UNIQUE:
        how = "line-solvable" if res.line_solvable else "needs search beyond line logic"
        text = f"unique ({how})"
    elif st is Status.MULTIPLE:
        text = f"multiple solutions (two shown differ in {len(res.diff)} cells)"
    elif st is Status.NONE:
        text = f"no solution: {res.reason}"
    elif st is Status.UNKNOWN:
        text = f"unknown: {res.reason}"
    else:
        text = f"error: {res.reason}"
    return f"{text}  [{size}, {res.stats.unknown_after_propagation} cells left after line logic, {res.seconds:.3f} s]"


def result_dict(res: CheckResult, file: str, index: int | None) -> dict[str, Any]:
    """The JSON object for one puzzle (coordinates 0-based)."""
    p = res.puzzle
    d: dict[str, Any] = {"file": file}
    if index is not None:
        d["index"] = index
    d.update(
        {
            "name": p.name,
            "width": p.width,
            "height": p.height,
            "status": res.status.value,
            "line_solvable": res.line_solvable,
            "colors": p.ncolors,
            "palette": palette_list(p.palette),
            "solutions": [list(s) for s in res.solutions],
            "diff": [list(rc) for rc in res.diff],
            "reason": res.reason,
            "seconds": round(res.seconds, 6),
            "stats": res.stats.as_dict(),
        }
    )
    return d


def error_dict(file: str, index: int | None, message: str) -> dict[str, Any]:
    d: dict[str, Any] = {"file": file}
    if index is not None:
        d["index"] = index
    d.update({"status": Status.ERROR.value, "line_solvable": False, "solutions": [], "diff": [],
              "reason": message, "seconds": 0.0, "stats": {}})
    return d
