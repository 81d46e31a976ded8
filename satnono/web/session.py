"""The level editor's library calls: plain JSON-ready data in and out, no HTTP.

The page and the server exchange a *document*, a dict:

``grid``
    The picture, a list of row strings over ``.`` (background) and the
    palette's characters (``#`` for black and white puzzles).
``palette``
    ``None`` or absent (black and white), or the background then each block colour as
    ``{"name", "char", "rgb": "#rrggbb"}``; the background's char is ``.``, a
    palette of one block colour draws with ``#``, at most
    :data:`~satnono.model.MAX_COLORS` block colours.  Characters are ones a
    typed clue can name: no digits, no ``,``, one UTF-16 unit.
``row_clues``, ``column_clues``
    One entry per line: ``None`` when the clue is the picture's own (derived),
    or the blocks the author typed (the picture need not match): each a length
    (colour 1) or ``[length, char]``.
``name``, ``meta``
    Title and other properties (``[[key, value], ...]``), kept from the file.
``level``
    ``None``, or for a picross game level ``{"completed": bool, "ppm": b64,
    "pbm": b64, "level": b64}`` (the original files' bytes, base64, each may be
    ``None``), so that saving keeps the reward image and unchanged files as they were.
    A level is black and white: a colour picture is refused as one (its picture is a PBM).

:func:`analyze` (the live verdict) and :func:`propose` (fix proposals) are
pure functions of a document, run by the server in worker processes.
:class:`Editor` holds the one file the user named on the command line (and
the folder it is in): opening, saving over it on an explicit Save, saving
under a new name in that folder, downloading in any writable format.
"""

from __future__ import annotations

import base64
import dataclasses
import io
import json
import os
import zipfile
from typing import Any

from ..diagnose import diagnose
from ..errors import ParseError, SatnonoError
from ..formats import WRITABLE_FORMATS, dumps, format_from_suffix, load_all, loads, save
from ..formats import level as levelfmt
from ..linesolve import LineSolver
from ..model import (BLACK, BW_PALETTE, MAX_COLORS, WHITE, Color, Palette, Puzzle, check_palette,
                     color_clues_of_grid, parse_rgb)
from ..formats._palette import SPARE_CHARS
from ..solve import Checker, InternalError

#: Largest side the editor accepts (the page offers 1 to 100).
MAX_SIDE = 100
#: Default seconds for one verdict and for one round of fix proposals.
CHECK_TIMEOUT = 5.0
FIX_TIMEOUT = 10.0

#: What a download in each format is called (by suffix).
DOWNLOAD_SUFFIX = {"non": ".non", "xml": ".xml", "nin": ".nin", "mk": ".mk", "cwd": ".cwd",
                   "json": ".json", "pbm": ".pbm", "txt": ".txt", "level": ".zip"}
#: Formats the editor can save and download.
SAVE_FORMATS: tuple[str, ...] = (*WRITABLE_FORMATS, "level")

Doc = dict[str, Any]

_LINES = LineSolver()  # one per worker process: repeated lines are solved once


class DocError(SatnonoError):
    """A document or request from the page is malformed or beyond the limits."""


# ---------------------------------------------------------------------------
# documents


def _clue_list(value: Any, n: int, what: str, palette: Palette) -> list[tuple[tuple[int, ...], tuple[int, ...]] | None]:
    """Typed clues as ``(lengths, colours)``, ``None`` where the picture's own clue stands."""
    if value is None:
        return [None] * n
    if not isinstance(value, list) or len(value) != n:
        raise DocError(f"{what} must be a list of {n} entries")
    index = {c.char: i for i, c in enumerate(palette) if i}
    out: list[tuple[tuple[int, ...], tuple[int, ...]] | None] = []
    for i, clue in enumerate(value):
        if clue is None:
            out.append(None)
            continue
        if not isinstance(clue, list) or len(clue) > MAX_SIDE:
            raise DocError(f"{what} {i + 1}: a clue is a list of at most {MAX_SIDE} blocks")
        lengths: list[int] = []
        colors: list[int] = []
        for block in clue:
            n_: Any = block
            col: int | None = 1
            if isinstance(block, list):
                n_, col = (block[0], index.get(block[1])) if len(block) == 2 and isinstance(block[1], str) else (None, 1)
            if not isinstance(n_, int) or isinstance(n_, bool) or not 0 <= n_ <= MAX_SIDE:
                raise DocError(f"{what} {i + 1}: a clue is a list of block lengths from 0 to {MAX_SIDE}"
                               " (or [length, colour character] pairs)")
            if col is None:
                raise DocError(f"{what} {i + 1}: block {block!r} names a colour the palette does not have")
            if n_:
                lengths.append(n_)
                colors.append(col)
        out.append((tuple(lengths), tuple(colors)))
    return out


#: Longest colour name the editor takes.
MAX_NAME = 40
#: Characters a colour may not use in the editor: a typed clue ``3a 1b`` could not name them.
_UNTYPABLE = set("0123456789,")


def editable_char(ch: str) -> bool:
    """True when a block colour's character can be typed in a clue and indexed by the page."""
    return len(ch) == 1 and ch not in _UNTYPABLE and ord(ch) <= 0xFFFF


def check_palette_doc(value: Any) -> Palette:
    """The palette of a document, validated (:data:`BW_PALETTE` when absent)."""
    if value is None:
        return BW_PALETTE
    if not isinstance(value, list) or not 2 <= len(value) <= MAX_COLORS + 1:
        raise DocError(f"the palette must list the background and 1 to {MAX_COLORS} colours")
    out = []
    for i, e in enumerate(value):
        if not (isinstance(e, dict) and all(isinstance(e.get(k), str) for k in ("name", "char", "rgb"))):
            raise DocError(f"palette entry {i}: give its name, char and rgb (#rrggbb) as strings")
        name = e["name"].strip()
        if not name or len(name) > MAX_NAME or not name.isprintable():
            raise DocError(f"palette entry {i}: a colour's name is 1 to {MAX_NAME} printable characters")
        if len(e["rgb"]) > 7:
            raise DocError(f"colour {name!r}: malformed RGB colour (expected #rrggbb)")
        try:
            rgb = parse_rgb(e["rgb"])
        except ValueError as x:
            raise DocError(f"colour {name!r}: {x}") from None
        if i and len(e["char"]) == 1 and not editable_char(e["char"]):
            raise DocError(f"colour {name!r}: character {e['char']!r} cannot be typed in a clue (no digits, no ',')")
        out.append(Color(name, e["char"], rgb))
    try:
        pal = check_palette(out)
    except ValueError as x:
        raise DocError(f"palette: {x}") from None
    if len(pal) == 2 and pal[1].char != BLACK:
        raise DocError(f"a palette of one colour draws with '#', not {pal[1].char!r}")
    return pal


def palette_doc(palette: Palette) -> list[dict[str, str]]:
    """A palette as the page holds it."""
    return [{"name": c.name, "char": c.char, "rgb": c.hex} for c in palette]


def check_grid(grid: Any, chars: str = WHITE + BLACK) -> list[str]:
    """The picture of a document, validated (rectangular, 1 to :data:`MAX_SIDE` a side, over ``chars``)."""
    if not isinstance(grid, list) or not grid or not all(isinstance(r, str) for r in grid):
        raise DocError("the picture must be a non-empty list of row strings")
    h, w = len(grid), len(grid[0])
    if not (1 <= h <= MAX_SIDE and 1 <= w <= MAX_SIDE):
        raise DocError(f"the editor handles 1 to {MAX_SIDE} rows and columns; got {w}x{h}")
    for r, row in enumerate(grid):
        if len(row) != w:
            raise DocError(f"picture row {r + 1} has {len(row)} cells, expected {w}")
        if row.strip(chars):
            allowed = " and ".join(repr(ch) for ch in chars) if len(chars) == 2 else f"the palette's {chars!r}"
            raise DocError(f"picture row {r + 1} has characters other than {allowed}")
    return grid


def puzzle_of(doc: Any) -> Puzzle:
    """The puzzle a document describes; its goal is the picture when the picture satisfies the clues."""
    if not isinstance(doc, dict):
        raise DocError("the document must be a JSON object")
    palette = check_palette_doc(doc.get("palette"))
    grid = check_grid(doc.get("grid"), "".join(c.char for c in palette))
    h, w = len(grid), len(grid[0])
    rows_typed = _clue_list(doc.get("row_clues"), h, "row", palette)
    cols_typed = _clue_list(doc.get("column_clues"), w, "column", palette)
    rl, rc, cl, cc = color_clues_of_grid(tuple(grid), palette)
    rows = [t if t is not None else d for t, d in zip(rows_typed, zip(rl, rc))]
    cols = [t if t is not None else d for t, d in zip(cols_typed, zip(cl, cc))]
    name = doc.get("name")
    if name is not None and not isinstance(name, str):
        raise DocError("name must be a string")
    meta = doc.get("meta") or []
    if not isinstance(meta, list) or not all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m) for m in meta):
        raise DocError("meta must be a list of [key, value] strings")
    lvl = doc.get("level")
    if lvl is not None:
        if not isinstance(lvl, dict):
            raise DocError("level must be an object")
        meta = [m for m in meta if m[0] != levelfmt.COMPLETED] + [[levelfmt.COMPLETED, "1" if lvl.get("completed") else "0"]]
    chars = "".join(c.char for c in palette)
    givens = tuple((r, c, chars.index(grid[r][c])) for r, c in _given_cells(doc.get("givens"), h, w))
    p = Puzzle(tuple(r[0] for r in rows), tuple(c[0] for c in cols), name or None, None,
               tuple((k, v) for k, v in meta), palette=palette,
               row_colors=tuple(r[1] for r in rows), column_colors=tuple(c[1] for c in cols), givens=givens)
    if doc.get("rules"):
        p = _with_rules(p, doc["rules"])
    if p.is_solution(grid):
        p = dataclasses.replace(p, goal=tuple(grid))
    return p


#: Most rules a document may carry.
MAX_RULES = 20


def _with_rules(puzzle: Puzzle, value: Any) -> Puzzle:
    """``puzzle`` with the document's rules (JSON objects as in a puzzle file; not givens,
    which the document holds as revealed cells)."""
    from ..rules import RuleError, rule_from_json

    if not isinstance(value, list) or len(value) > MAX_RULES:
        raise DocError(f"rules must be a list of at most {MAX_RULES} rule objects")
    try:
        rules = tuple(rule_from_json(obj) for obj in value)
        return dataclasses.replace(puzzle, rules=rules)
    except (RuleError, ValueError) as e:
        raise DocError(str(e)) from None


def _given_cells(value: Any, h: int, w: int) -> list[tuple[int, int]]:
    """The document's revealed cells: ``[[row, col], ...]`` (0-based); each shows the picture's value there."""
    if value is None:
        return []
    if not isinstance(value, list) or len(value) > h * w:
        raise DocError("givens must be a list of [row, col] cells")
    out = set()
    for g in value:
        if not (isinstance(g, list) and len(g) == 2 and all(type(x) is int for x in g)
                and 0 <= g[0] < h and 0 <= g[1] < w):
            raise DocError(f"givens: {json.dumps(g)[:30]} is not a [row, col] cell of the {w}x{h} picture")
        out.add((g[0], g[1]))
    return sorted(out)


def _b64(data: bytes | None) -> str | None:
    return None if data is None else base64.b64encode(data).decode("ascii")


def _unb64(value: Any, what: str) -> bytes | None:
    if value is None:
        return None
    if not isinstance(value, str):
        raise DocError(f"{what} must be base64 text")
    try:
        return base64.b64decode(value, validate=True)
    except ValueError:
        raise DocError(f"{what} is not valid base64") from None


def doc_of(puzzle: Puzzle, fmt: str | None = None, level: dict[str, Any] | None = None,
           timeout: float = CHECK_TIMEOUT) -> Doc:
    """The document for a puzzle read from a file.

    The picture is the file's goal when it satisfies the clues; otherwise the
    first solution found; when there is none (or none in time), an empty
    picture with every clue typed.  The palette is the file's, with the
    characters the page cannot use replaced (:func:`editable`).

    Raises:
        DocError: the puzzle is larger than :data:`MAX_SIDE` a side.
    """
    h, w = puzzle.height, puzzle.width
    if not (1 <= h <= MAX_SIDE and 1 <= w <= MAX_SIDE):
        raise DocError(f"the editor handles 1 to {MAX_SIDE} rows and columns; this puzzle is {w}x{h}")
    puzzle = editable(puzzle)
    grid: tuple[str, ...] | None = puzzle.goal if puzzle.goal is not None and puzzle.is_solution(puzzle.goal) else None
    if grid is None:
        res = Checker(line_solver=_LINES).check(puzzle, timeout=timeout)
        if res.solutions:
            grid = res.solutions[0]
    typed_rows: list[Any] = [None] * h
    typed_cols: list[Any] = [None] * w
    if grid is None:
        grid = tuple(WHITE * w for _ in range(h))
        chars = puzzle.chars

        def typed(axis: str, i: int) -> list[Any]:
            lengths, colors = puzzle.line(axis, i)
            return [[n, chars[c]] for n, c in zip(lengths, colors)] if puzzle.is_color else list(lengths)

        typed_rows = [typed("row", i) for i in range(h)]
        typed_cols = [typed("column", i) for i in range(w)]
    meta = [[k, v] for k, v in puzzle.meta if not (level is not None and k == levelfmt.COMPLETED)]
    # revealed cells show the picture's value: kept when the picture is a solution (which agrees with them)
    givens = [[r, c] for r, c, _ in puzzle.givens] if puzzle.is_solution(grid) else []
    return {"grid": list(grid), "palette": palette_doc(puzzle.palette), "row_clues": typed_rows,
            "column_clues": typed_cols, "name": puzzle.name, "meta": meta, "level": level, "format": fmt,
            "givens": givens, "rules": [rule.as_json() for rule in puzzle.rules if hasattr(rule, "as_json")]}


def editable(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with palette characters the page can type and index: a colour whose character
    is a digit, ``,`` or outside the BMP gets a spare one (its goal is redrawn to match); a
    palette of one colour draws with ``#``.  Names and RGB values stay."""
    pal = puzzle.palette
    if len(pal) == 2:
        new = [pal[0], Color(pal[1].name, BLACK, pal[1].rgb)]
    else:
        taken = {c.char for c in pal}
        spare = (ch for ch in SPARE_CHARS if ch not in taken and editable_char(ch))
        new = [c if i == 0 or editable_char(c.char) else Color(c.name, next(spare), c.rgb) for i, c in enumerate(pal)]
    if [c.char for c in new] == [c.char for c in pal]:
        return puzzle
    table = str.maketrans(puzzle.chars, "".join(c.char for c in new))
    goal = None if puzzle.goal is None else tuple(r.translate(table) for r in puzzle.goal)
    return dataclasses.replace(puzzle, palette=tuple(new), goal=goal)


def open_bytes(files: list[tuple[str, bytes]], timeout: float = CHECK_TIMEOUT) -> Doc:
    """The document for files the user picked or dropped on the page: ``[(name, content), ...]``.

    One puzzle file, or a level: ``NAME.level`` with ``NAME.pbm`` (and
    ``NAME.ppm``) among the files.

    Raises:
        ParseError: the file cannot be read (the message names it and the line).
        DocError: no file, several puzzles in the file, or too large for the editor.
    """
    if not files:
        raise DocError("no file given")
    by_name = {os.path.basename(n): d for n, d in files}
    levels = [n for n in by_name if n.lower().endswith(levelfmt.SUFFIX)]
    if levels:
        name = levels[0]
        stem = name[: -len(levelfmt.SUFFIX)]
        pbm = by_name.get(stem + ".pbm")
        if pbm is None:
            raise DocError(f"{name}: pick its picture {stem}.pbm too (and its reward image {stem}.ppm)")
        ppm = by_name.get(stem + ".ppm")
        if ppm is not None:
            levelfmt.check_ppm(ppm, stem + ".ppm")
        puzzle = levelfmt.parse(by_name[name], pbm, name, stem + ".pbm")
        return doc_of(puzzle, "level", _level_extra(puzzle, by_name[name], pbm, ppm), timeout)
    if len(files) != 1:
        raise DocError("pick one puzzle file (or a NAME.level with its NAME.pbm and NAME.ppm)")
    name, data = files[0]
    puzzles = loads(data, None, source=os.path.basename(name))
    return _single(puzzles, name, format_from_suffix(name), timeout)


def _single(puzzles: list[Puzzle], name: str, fmt: str | None, timeout: float) -> Doc:
    if len(puzzles) != 1:
        raise DocError(f"{name} holds {len(puzzles)} puzzles; the editor opens one (give FILE#k on the command line)")
    return doc_of(puzzles[0], fmt, None, timeout)


def _level_extra(puzzle: Puzzle, level_bytes: bytes, pbm: bytes, ppm: bytes | None) -> dict[str, Any]:
    return {"completed": levelfmt.completed(puzzle), "ppm": _b64(ppm), "pbm": _b64(pbm), "level": _b64(level_bytes)}


def _level_parts(doc: Doc) -> tuple[bytes | None, bytes | None, bytes | None]:
    lvl = doc.get("level") or {}
    return (_unb64(lvl.get("ppm"), "level.ppm"), _unb64(lvl.get("level"), "level.level"),
            _unb64(lvl.get("pbm"), "level.pbm"))


# ---------------------------------------------------------------------------
# verdicts and proposals (run in worker processes)


def analyze(doc: Doc, timeout: float = CHECK_TIMEOUT) -> dict[str, Any]:
    """The live verdict on a document: :func:`satnono.diagnose.diagnose`, as data for the page.

    Keys: ``status`` (``unique``, ``multiple``, ``none``, ``unknown``),
    ``line_solvable``, ``left`` (cells line logic leaves open), ``undetermined``
    and ``ambiguous`` (``[row, col]`` cells: where two solutions differ),
    ``row_counts`` / ``column_counts`` (placements left per line after line
    logic, as decimal strings, ``None`` where at most one), ``conflict``
    (``[axis, index]`` lines), ``reason``, ``picture_ok`` (the picture
    satisfies the clues), ``timeout``, ``seconds``.

    Raises:
        DocError: the document is malformed.
        InternalError: a solution failed its re-check against the clues (a bug).
    """
    puzzle = puzzle_of(doc)
    # the cells where two solutions differ (probing every open cell for the whole region costs seconds)
    d = diagnose(puzzle, timeout=timeout, line_solver=_LINES, probe_cells=False)
    for s in d.solutions:
        if not puzzle.is_solution(s):
            raise InternalError("the solver produced a grid that does not satisfy the clues")
    rows: list[str | None] = [None] * puzzle.height
    cols: list[str | None] = [None] * puzzle.width
    for o in d.open_lines:
        (rows if o.axis == "row" else cols)[o.index] = str(o.placements)
    return {
        "status": d.status,
        "line_solvable": d.line_solvable,
        "left": len(d.undetermined),
        "undetermined": [list(c) for c in d.undetermined],
        "ambiguous": [list(c) for c in d.ambiguous],
        "row_counts": rows,
        "column_counts": cols,
        "conflict": [[a, i] for a, i in d.conflict],
        "conflict_rules": list(d.conflict_rules),
        "reason": d.reason,
        "picture_ok": puzzle.goal is not None,
        "timeout": timeout,
        "seconds": round(d.seconds, 6),
    }


def propose(doc: Doc, timeout: float = FIX_TIMEOUT, max_edits: int = 5) -> dict[str, Any]:
    """The proposals of :func:`satnono.fix` for the picture of a document, as the page shows them.

    Only for a picture that satisfies its clues: each edit sets one cell of that picture to
    ``char`` (another colour or the background; ``black`` is true for any colour).
    """
    from ..fixer import FixError, fix

    puzzle = puzzle_of(doc)
    if puzzle.goal is None:
        return {"status": "skipped", "reason": "the picture does not match the typed clues", "edits": [],
                "givens_unique": None, "givens_line": None}
    try:
        res = fix(puzzle, timeout=timeout, max_edits=max_edits, checker=Checker(line_solver=_LINES))
    except FixError as e:
        raise DocError(str(e)) from None

    def givens(prop: Any) -> dict[str, Any] | None:
        if prop is None:
            return None
        return {"givens": [{"row": g.row, "col": g.col, "black": g.black, "char": g.char} for g in prop.givens],
                "count": len(prop.givens), "line_solvable": prop.line_solvable}

    return {"status": res.status.value, "line_solvable": res.line_solvable,
            "givens_unique": givens(res.givens_unique), "givens_line": givens(res.givens_line),
            "edits": [{"row": e.row, "col": e.col, "black": e.black, "char": e.char, "line_solvable": e.line_solvable}
                      for e in res.edits],
            "edits_tried": res.edits_tried, "timed_out": res.timed_out, "reason": res.reason,
            "seconds": round(res.seconds, 6)}


# ---------------------------------------------------------------------------
# files


def export(doc: Doc, fmt: str) -> tuple[str, bytes]:
    """``(file name, content)`` of a download of the document in ``fmt`` (a level is a zip of its three files).

    Raises:
        DocError: unknown format, or a picture format and the picture does not match the clues.
    """
    puzzle = puzzle_of(doc)
    stem = _stem(doc)
    try:
        if fmt == "level":
            ppm, old_level, old_pbm = _level_parts(doc)
            parts = levelfmt.write_files(puzzle, ppm, old_level, old_pbm)
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                for suffix, data in parts.items():
                    z.writestr(stem + suffix, data)
            return stem + ".zip", buf.getvalue()
        if fmt not in WRITABLE_FORMATS:
            raise DocError(f"cannot write format {fmt!r} (writable: {', '.join(SAVE_FORMATS)})")
        content = dumps(puzzle, fmt)
    except ValueError as e:
        raise DocError(_no_goal(str(e))) from None
    data = content.encode("utf-8") if isinstance(content, str) else content
    return stem + DOWNLOAD_SUFFIX.get(fmt, "." + fmt), data


def _no_goal(message: str) -> str:
    if "no goal" in message:
        return message.replace("this puzzle has no goal to write", "the picture does not match the typed clues")
    return message


def _stem(doc: Doc) -> str:
    name = doc.get("name") if isinstance(doc.get("name"), str) else None
    safe = "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in (name or "puzzle")).strip("-")
    return safe[:60] or "puzzle"


class Editor:
    """The file the editor was started on and the folder it may save in.

    ``path`` is ``None`` for a new, unnamed puzzle (then the folder is the
    working directory).  Only ``path`` is saved over (on an explicit Save),
    and new files go only into ``folder``, under a plain relative name.
    """

    def __init__(self, path: str | None = None, timeout: float = CHECK_TIMEOUT) -> None:
        self.timeout = timeout
        self.selector: int | None = None
        self.path: str | None = None
        self.folder = os.path.realpath(os.getcwd())
        if path is not None:
            base, k = _split(path)
            self.path = os.path.abspath(base)
            self.selector = k
            self.folder = os.path.realpath(os.path.dirname(self.path))

    @property
    def display_name(self) -> str | None:
        if self.path is None:
            return None
        return os.path.basename(self.path) + (f"#{self.selector}" if self.selector else "")

    def initial(self, width: int = 10, height: int = 10) -> Doc:
        """The document to start with: the named file, or an empty picture (also for a name that does not exist yet).

        Raises:
            ParseError: the file cannot be read.
            DocError: it holds several puzzles (without ``#k``) or is too large.
        """
        if self.path is None or not os.path.exists(self.path):
            name = None
            if self.path is not None:
                name = os.path.splitext(os.path.basename(self.path))[0]
            fmt = format_from_suffix(self.path) if self.path else None
            level = {"completed": False, "ppm": None, "pbm": None, "level": None} if fmt == "level" else None
            return {"grid": [WHITE * width] * height, "palette": None, "row_clues": [None] * height,
                    "column_clues": [None] * width, "name": name, "meta": [], "level": level, "format": fmt}
        fmt = format_from_suffix(self.path)
        if fmt == "level":
            files = levelfmt.paths(self.path)
            lvl, pbm = _read(files.level), _read(files.pbm)
            ppm = _read(files.ppm) if os.path.exists(files.ppm) else None
            if ppm is not None:
                levelfmt.check_ppm(ppm, files.ppm)
            puzzle = levelfmt.parse(lvl, pbm, self.path, files.pbm)
            return doc_of(puzzle, "level", _level_extra(puzzle, lvl, pbm, ppm), self.timeout)
        arg = self.path if self.selector is None else f"{self.path}#{self.selector}"
        puzzles = load_all(arg)
        if self.selector is None and len(puzzles) != 1:
            raise DocError(f"{self.path} holds {len(puzzles)} puzzles; the editor opens one: give FILE#k (k from 1)")
        return doc_of(puzzles[0], fmt, None, self.timeout)

    def save(self, doc: Doc) -> str:
        """Save over the file named on the command line (an explicit Save); returns its path.

        Raises:
            DocError: no file was named, it is one puzzle of several, or its format cannot be written.
            OSError: the file cannot be written.
        """
        if self.path is None:
            raise DocError("no file was named on the command line: use Save as")
        if self.selector is not None:
            raise DocError("this puzzle is one of several in its file; saving would lose the others: use Save as")
        fmt = format_from_suffix(self.path)
        if fmt != "level" and os.path.exists(self.path):
            try:
                n = len(load_all(self.path))
            except ParseError:
                n = 1
            if n > 1:
                raise DocError(f"{os.path.basename(self.path)} holds {n} puzzles; saving would lose the others: use Save as")
        return self._write(doc, self.path, fmt, overwrite=True)

    def save_as(self, doc: Doc, name: str, fmt: str | None = None, overwrite: bool = False) -> str:
        """Save under ``name`` in the editor's folder (never outside it); returns the path.

        The new file becomes the one Save writes to.

        Raises:
            DocError: the name leaves the folder or its format is unknown.
            FileExistsError: the file exists and ``overwrite`` is false.
            OSError: the file cannot be written.
        """
        path = self.resolve(name)
        fmt = fmt or format_from_suffix(path)
        if fmt is None:
            raise DocError(f"cannot tell the format from the name {name!r}: choose one")
        if fmt == "level" and not path.lower().endswith(levelfmt.SUFFIX):
            path += levelfmt.SUFFIX
        out = self._write(doc, path, fmt, overwrite)
        self.path, self.selector = path, None
        return out

    def resolve(self, name: str) -> str:
        """The absolute path of ``name`` inside the editor's folder.

        Raises:
            DocError: an empty or absolute name, ``..``, or a path that resolves outside the folder.
        """
        if not isinstance(name, str) or not name.strip() or "\x00" in name:
            raise DocError("give a file name")
        name = name.strip()
        if os.path.isabs(name) or name.startswith("~"):
            raise DocError(f"give a name inside {self.folder} (no absolute paths)")
        parts = name.replace("\\", "/").split("/")
        if ".." in parts:
            raise DocError("'..' is not allowed in a file name")
        path = os.path.join(self.folder, name)
        real = os.path.realpath(path)
        if os.path.commonpath([real, self.folder]) != self.folder:
            raise DocError(f"{name} is outside {self.folder}")
        if not os.path.isdir(os.path.dirname(real)):
            raise DocError(f"no folder {os.path.dirname(name)!r} in {self.folder}")
        return path

    def _write(self, doc: Doc, path: str, fmt: str | None, overwrite: bool) -> str:
        if fmt is None:
            raise DocError(f"cannot tell the format from the name {os.path.basename(path)!r}: use Save as with a format")
        if fmt not in SAVE_FORMATS:
            raise DocError(f"cannot write format {fmt!r} (writable: {', '.join(SAVE_FORMATS)})")
        puzzle = puzzle_of(doc)
        try:
            if fmt == "level":
                levelfmt.require_bw_level(puzzle)  # before "exists?": a colour picture cannot go there at all
                ppm, old_level, old_pbm = _level_parts(doc)
                levelfmt.save(puzzle, path, ppm, overwrite, old_level, old_pbm)
            else:
                save(puzzle, path, fmt, overwrite)
        except ValueError as e:
            raise DocError(_no_goal(str(e))) from None
        return path


def _split(path: str) -> tuple[str, int | None]:
    from ..formats import split_selector

    if os.path.exists(path):
        return path, None
    return split_selector(path)


def _read(path: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except OSError as e:
        raise ParseError(f"cannot read the file: {e.strerror or e}", path) from None


__all__ = ["Editor", "DocError", "analyze", "propose", "export", "open_bytes", "doc_of", "puzzle_of"]
