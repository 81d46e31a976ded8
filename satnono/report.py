"""Formatting of grids and verdicts as text and JSON-ready dicts.

No logic beyond formatting; nothing here prints.
"""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from .clues import line_blocks
from .model import BLACK, Color, Puzzle, plain_black
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
    if not isinstance(res.puzzle, Puzzle):  # a puzzle of another geometry
        return lane_verdict_text(res)
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
    return f"{text}  [{size}, {res.stats.unknown_after_propagation} cells left after line logic, {times_text(res)}]"


def times_text(res: Any) -> str:
    """A result's wall seconds, and its CPU seconds when they were measured (``--jobs``): ``1.234 s``,
    ``1.234 s, 2.401 s CPU over 2 searches``."""
    text = f"{res.seconds:.3f} s"
    cpu = getattr(res, "cpu_seconds", None)
    if cpu is not None:
        jobs = getattr(res, "jobs", 1)
        text += f", {cpu:.3f} s CPU" + (f" over {jobs} searches" if jobs > 1 else "")
    return text


def with_cpu(d: dict[str, Any], res: Any) -> dict[str, Any]:
    """``d`` with the result's CPU seconds and searches after its ``seconds``, when they were measured."""
    cpu = getattr(res, "cpu_seconds", None)
    if cpu is None:
        return d
    out: dict[str, Any] = {}
    for key, value in d.items():
        out[key] = value
        if key == "seconds":
            out["cpu_seconds"] = round(cpu, 6)
            out["jobs"] = getattr(res, "jobs", 1)
    return out


def result_dict(res: CheckResult, file: str, index: int | None) -> dict[str, Any]:
    """The JSON object for one puzzle (coordinates 0-based)."""
    if not isinstance(res.puzzle, Puzzle):  # a puzzle of another geometry
        return lane_result_dict(res, file, index)
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
    d = with_cpu(d, res)
    if p.has_blots:  # the clues, "?" for a blot (the JSON reader reads them back), and the lengths found
        from .formats.jsonfmt import clue_json

        chars = p.chars if p.is_color else None
        d["rows"] = [clue_json(c, chars) for c in p.row_clues]
        d["columns"] = [clue_json(c, chars) for c in p.column_clues]
        d["blots"] = [{"axis": axis, "index": i, "block": j, "length": n}
                      for axis, i, j, n in blot_lengths(p, res.solutions[0])] if res.solutions else []
    return d


def blot_lengths(puzzle: Any, grid: Sequence[str]) -> list[tuple[str, int, int, int]]:
    """``(axis, line, block, length)`` (0-based) of every blotted block as ``grid`` shows it."""
    index = {ch: v for v, ch in enumerate(puzzle.chars)}
    out = []
    for axis in ("row", "column"):
        for i, clue in enumerate(puzzle.clues(axis)):
            if not clue.blots:
                continue
            cells = grid[i] if axis == "row" else "".join(r[i] for r in grid)
            lengths, _ = line_blocks(cells, index)
            out += [(axis, i, j, lengths[j]) for j in range(len(clue.lengths)) if clue.is_blotted(j)]
    return out


def blot_lengths_text(puzzle: Any, grid: Sequence[str]) -> str:
    """The blotted lengths ``grid`` shows, e.g. ``blotted lengths: row 1 block 2 = 3, column 4 block 1 = 1``
    (rows, columns and blocks from 1)."""
    found = ", ".join(f"{axis} {i + 1} block {j + 1} = {n}" for axis, i, j, n in blot_lengths(puzzle, grid))
    return f"blotted lengths: {found}"


def error_dict(file: str, index: int | None, message: str) -> dict[str, Any]:
    d: dict[str, Any] = {"file": file}
    if index is not None:
        d["index"] = index
    d.update({"status": Status.ERROR.value, "line_solvable": False, "solutions": [], "diff": [],
              "reason": message, "seconds": 0.0, "stats": {}})
    return d


# --- count, classify, fix, explain (the text the commands print) ------------------------------


def count_dict(res: Any, file: str, index: int | None, cpu: float | None = None) -> dict[str, Any]:
    """The JSON object of one counted puzzle (``satnono count --json``); a puzzle of another
    geometry has its ``geometry`` and ``cells`` instead of width and height; ``cpu_seconds`` after
    ``seconds`` when ``cpu`` was measured (``--jobs``)."""
    p = res.puzzle
    d: dict[str, Any] = {"file": file}
    if index is not None:
        d["index"] = index
    size = ({"width": p.width, "height": p.height} if isinstance(p, Puzzle)
            else {"geometry": p.geometry.as_json(), "cells": p.geometry.cell_count})
    d.update({
        "name": p.name, **size,
        "count": res.count, "exact": res.exact, "capped": res.capped, "status": res.status,
        "line_solvable": res.line_solvable,
        "unknown_after_propagation": res.unknown_after_propagation,
        "components": [c.as_dict() for c in res.components],
        "seconds": round(res.seconds, 6), **({} if cpu is None else {"cpu_seconds": round(cpu, 6)}),
        "reason": res.reason,
    })
    return d


def count_text(res: Any, cpu: float | None = None) -> str:
    """A count in words, e.g. ``2 solutions  [0.001 s]``, with its components when there are several
    (and the CPU seconds, ``cpu``, when they were measured: ``--jobs``)."""
    n = f"{res.count:,}"
    noun = "solution" if res.count == 1 else "solutions"
    text = f"{n} {noun}" if res.exact else f"at least {n} {noun} (a lower bound: {res.reason})"
    if res.exact and res.count == 0 and res.reason:
        text += f": {res.reason}"
    if res.line_solvable:
        text += " (line-solvable)"
    comps = res.components
    if len(comps) > 1 or (comps and comps[0].method != "enumeration"):
        shown = ", ".join(
            f"{c.size} cells: {'' if c.exact else '>= '}{c.count:,} ({c.method})" for c in comps[:8])
        more = f", ... {len(comps) - 8} more" if len(comps) > 8 else ""
        text += f"  [{len(comps)} independent component{'s' if len(comps) != 1 else ''}: {shown}{more}]"
    return f"{text}  [{res.seconds:.3f} s{'' if cpu is None else f', {cpu:.3f} s CPU'}]"


def classify_text(rec: dict[str, Any]) -> str:
    """One classify record as a line of text."""
    where = label(rec["file"], rec.get("index"))
    if rec["class"] == "error":
        return f"{where}: error: {rec['reason']}"
    cls = rec["class"]
    if rec.get("grade"):
        cls += f" (level {rec['level']}: {rec['grade']})"
    elif rec.get("level") and rec["level"] != cls:
        cls += f" (level {rec['level']})"
    count = rec["count"]
    shown = f"{count:,}" if rec["count_exact"] else f">= {count:,}"
    noun = "solution" if count == 1 and rec["count_exact"] else "solutions"
    extra = f", {rec['reason']}" if rec["class"] == "unknown" and rec.get("reason") else ""
    size = (f"{rec['width']}x{rec['height']}" if rec.get("geometry") is None
            else f"{'triddler' if rec['geometry'].get('kind') == 'triangle' else rec['geometry'].get('kind')} "
                 f"of {rec.get('cells')} cells")
    return (f"{where}: {cls}  [{size}, {rec['unknown_after_line']} cells left "
            f"after line logic, {shown} {noun}, {rec['seconds']:.3f} s{extra}]")


def classify_summary(summary: dict[str, Any]) -> tuple[Any, list[str]]:
    """The end of ``satnono classify``: a table of puzzles per class (a ``rich`` table) and the
    lines that follow it (unique and line-solvable puzzles, levels, time)."""
    from rich.table import Table

    table = Table(title="classify summary", title_justify="left")
    table.add_column("class")
    table.add_column("puzzles", justify="right")
    table.add_column("share", justify="right")
    total = summary["puzzles"] or 1
    for cls, n in summary["classes"].items():
        table.add_row(cls, str(n), f"{100 * n / total:.1f}%")
    table.add_row("total", str(summary["puzzles"]), "", end_section=True)
    unique = summary["unique"]
    lines = []
    if unique:
        lines.append(f"unique: {unique}; line-solvable: {summary['line_solvable']} of them "
                     f"({100 * summary['line_solvable_share_of_unique']:.1f}%), "
                     f"needing more than line logic: {unique - summary['line_solvable']}")
    else:
        lines.append("unique: 0")
    if summary["levels"]:
        lv = summary["levels"]
        lines.append(f"levels of unique puzzles: line {lv['line']}, probe {lv['probe']}, probe2 {lv['probe2']}, "
                     f"search {lv['search']}")
    lines.append(f"time in puzzles: {summary['seconds']:.1f} s")
    return table, lines


def fix_text(file: str, res: Any, ascii: bool = False, tty: bool = False) -> list[str]:
    """The lines of ``satnono fix``: the verdict, the picture, the proposals (rows and columns
    from 1).  ``tty``: stdout is a terminal (colour pictures are drawn in colour there)."""
    lanes = not isinstance(res.puzzle, Puzzle)  # another geometry: cells by number, named by it

    def where(x: Any) -> str:
        if x.cell is not None:
            from .lanes import cell_name

            return cell_name(res.puzzle.geometry, x.cell)
        return f"row {x.row + 1} col {x.col + 1}"

    pal = res.puzzle.palette

    def colour(ch: str) -> str:
        if not res.puzzle.is_color:
            return "white" if ch == "." else "black" if ch == "#" else f"{pal[1].name} ({ch})"
        if ch == ".":
            return "background"
        col = next(c for c in pal if c.char == ch)
        return f"{col.name} ({ch})"

    out = []
    if res.status == Status.MULTIPLE:
        verdict = f"several solutions (a second one differs in {len(res.diff)} cells)"
    elif res.status == Status.UNIQUE:
        verdict = "unique (line-solvable)" if res.line_solvable else "unique, but not line-solvable"
    else:
        verdict = res.status.value
    out.append(f"{file}: {verdict}")
    if res.reason:
        out.append(res.reason)
    plain = ascii or (res.puzzle.is_color and not tty)
    if res.goal is not None and res.needs_fix:
        src = "from the file" if res.goal_from == "file" else "the first solution found: the file has none"
        if res.diff:
            gl = ASCII if ascii else UNICODE
            if lanes:
                out.append(f"picture ({src}); cells that differ in another solution marked "
                           f"{'*' if plain else '×'}:")
            elif res.puzzle.is_color:
                out.append(f"picture ({src}); cells that differ in another solution marked "
                           f"{'*' if plain else '××'}:")
            else:
                out.append(f"picture ({src}); cells that differ in another solution drawn "
                           f"{gl['diff_black']} (black here) and {gl['diff_white']} (white here):")
        else:
            out.append(f"picture ({src}):")
        if lanes:
            from .lanerender import picture_text

            out.append(picture_text(res.puzzle, res.goal, plain, res.diff))
        else:
            out.append(render_grid(res.goal, plain, res.diff, palette=pal))
    for title, prop in (("givens for a unique solution", res.givens_unique),
                        ("givens for a line-solvable puzzle", res.givens_line)):
        if prop is None:
            if res.needs_fix:
                out.append(f"{title}: not found in time")
            continue
        if not prop.givens:
            out.append(f"{title}: none needed")
            continue
        cells = ", ".join(f"{where(g)} {colour(g.char)}" for g in prop.givens)
        extra = ", line-solvable too" if prop.target == "unique" and prop.line_solvable else ""
        n = len(prop.givens)
        out.append(f"{title} ({n} cell{'s' if n != 1 else ''}, verified{extra}): {cells}")
    reveal = getattr(res, "blots_reveal", None)
    if reveal is not None:
        names = {(lane.family, lane.index): lane.name for lane in res.puzzle.lanes} if lanes else {}
        shown = ", ".join(f"{names.get((x.axis, x.line)) or f'{x.axis} {x.line + 1}'} block {x.block + 1} = {x.length}"
                          for x in reveal.reveals)
        n = len(reveal.reveals)
        extra = ", line-solvable too" if reveal.line_solvable else ""
        out.append(f"blots to reveal for a unique solution ({n} number{'s' if n != 1 else ''}, verified{extra}): "
                   f"{shown}")
    elif getattr(res, "blots_note", None):
        out.append(f"blots: {res.blots_note}")
    if res.needs_fix and res.goal is not None:
        total = res.puzzle.geometry.cell_count if lanes else res.puzzle.height * res.puzzle.width
        if res.edits:
            out.append("single-cell edits (verified), nearest to the ambiguity first:")
            for e in res.edits:
                kind = "unique, line-solvable" if e.line_solvable else "unique, not line-solvable"
                was = res.goal[e.cell] if lanes else res.goal[e.row][e.col]
                out.append(f"  {where(e)}: {colour(was)} -> {colour(e.char)}  ({kind})")
        else:
            # a unique picture that needs search wants a line-solvable edit, not a unique one
            goal = "line-solvable" if res.status is Status.UNIQUE else "unique"
            out.append(f"no single-cell edit makes it {goal}" + ("" if res.edits_tried == total else " (among those tried)"))
        out.append(f"edits tried: {res.edits_tried} of {total} cells" + (" (time ran out)" if res.timed_out else ""))
    return out


def step_lines(step: Any, number: str, indent: str = "") -> list[str]:
    """An explanation step as text (``number`` first); a probe's refutation chain follows, indented."""
    out = [f"{indent}{number} {step.text}"]
    if step.kind == "probe":
        for k, sub in enumerate(step.chain, 1):
            out.extend(step_lines(sub, f"{k}.", indent + "     "))
    return out


def explanation_head(where: str, ex: Any) -> str:
    """The first line of an explanation (of a puzzle of any geometry): its grade in words, the
    size (:func:`shape_text`), what is left, the time."""
    # an explanation stops at the first contradiction it meets: its open cells are no figure
    # of the puzzle then ('check' and 'diagnose' give the cells line logic left)
    left = "contradiction found" if ex.status == "none" else f"{len(ex.remaining)} cells left open"
    return f"{where}: {ex.difficulty['text']}  [{shape_text(ex.puzzle.geometry)}, {left}, {ex.seconds:.3f} s]"


# --- puzzles of any geometry (satnono.lanepuzzle) -----------------------------------


def shape_text(geometry: Any) -> str:
    """A puzzle's size as people say it: ``15x10`` for a rectangle, ``triddler of 96 cells``."""
    if geometry.kind == "rectangle":
        return f"{geometry.width}x{geometry.height}"
    if geometry.kind == "triangle":
        return f"triddler of {geometry.cell_count} cells"
    return f"{geometry.kind} of {geometry.cell_count} cells"


def lane_verdict_text(res: Any) -> str:
    """:func:`verdict_text` of the :class:`~satnono.solve.CheckResult` of a puzzle of another geometry."""
    st = res.status
    if st is Status.UNIQUE:
        text = f"unique ({'line-solvable' if res.line_solvable else 'needs search beyond line logic'})"
    elif st is Status.MULTIPLE:
        text = f"multiple solutions (two shown differ in {len(res.diff)} cells)"
    elif st is Status.NONE:
        text = f"no solution: {res.reason}"
    else:
        text = f"{st.value}: {res.reason}"
    return (f"{text}  [{shape_text(res.puzzle.geometry)}, {res.stats.unknown_after_propagation} cells left after "
            f"line logic, {times_text(res)}]")


def lane_blot_lengths(puzzle: Any, cells: str) -> list[tuple[str, int, int, int]]:
    """``(family, lane, block, length)`` (0-based) of every blotted block as the picture ``cells``
    (a solution of a :class:`~satnono.lanepuzzle.LanePuzzle`) shows it."""
    index = {ch: v for v, ch in enumerate(puzzle.chars)}
    out = []
    for lane, clue in zip(puzzle.lanes, puzzle.clues):
        if clue.blots:
            lengths, _ = line_blocks("".join(cells[c] for c in lane.cells), index)
            out += [(lane.family, lane.index, j, n) for j, n in enumerate(lengths) if (clue.blots >> j) & 1]
    return out


def lane_blot_lengths_text(puzzle: Any, cells: str) -> str:
    """:func:`blot_lengths_text` of a puzzle of any geometry: ``blotted lengths: / line 2 block 1 = 3``."""
    from .lanes import FAMILY_NAMES

    found = ", ".join(f"{FAMILY_NAMES.get(family, family)} {i + 1} block {j + 1} = {n}"
                      for family, i, j, n in lane_blot_lengths(puzzle, cells))
    return f"blotted lengths: {found}"


def lane_result_dict(res: Any, file: str, index: int | None) -> dict[str, Any]:
    """The JSON object of the :class:`~satnono.solve.CheckResult` of a puzzle of another geometry: as :func:`result_dict`, with the
    ``geometry`` (its JSON form) and ``cells`` instead of width and height, each solution one string
    of palette characters in the geometry's cell order, ``diff`` the cells (0-based) where the two
    shown differ; when some clues are blotted, the clues of every lane (``lanes``: family, index,
    clue) and the lengths the first solution shows (``blots``: family, index, block, length)."""
    p = res.puzzle
    d: dict[str, Any] = {"file": file}
    if index is not None:
        d["index"] = index
    d.update({
        "name": p.name,
        "geometry": p.geometry.as_json(),
        "cells": p.geometry.cell_count,
        "status": res.status.value,
        "line_solvable": res.line_solvable,
        "colors": len(p.palette) - 1,
        "palette": palette_list(p.palette),
        "solutions": list(res.solutions),
        "diff": list(res.diff),
        "reason": res.reason,
        "seconds": round(res.seconds, 6),
        "stats": res.stats.as_dict(),
    })
    d = with_cpu(d, res)
    if p.has_blots:
        from .formats.jsonfmt import clue_json

        chars = p.chars if p.is_color else None
        d["lanes"] = [{"family": lane.family, "index": lane.index, "clue": clue_json(clue, chars)}
                      for lane, clue in zip(p.lanes, p.clues)]
        d["blots"] = [{"family": family, "index": i, "block": j, "length": n}
                      for family, i, j, n in lane_blot_lengths(p, res.solutions[0])] if res.solutions else []
    return d
