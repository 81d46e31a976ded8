"""The level editor's library calls: plain JSON-ready data in and out, no HTTP.

The page and the server exchange *documents* (dicts, described and validated in
:mod:`satnono.web.document`; :func:`puzzle_of` turns one into a
:class:`~satnono.model.Puzzle`, :func:`doc_of` a puzzle into one).

:func:`analyze` (the live verdict) and :func:`propose` (fix proposals) are
pure functions of a document or of the puzzle :func:`puzzle_of` made of it
(the server validates each request once, in its event loop, and hands the
puzzle to a worker process).  :class:`Editor` holds the one file the user
named on the command line (and the folder it is in): opening, saving over it
on an explicit Save, saving under a new name in that folder, downloading in
any writable format.
"""

from __future__ import annotations

import base64
import copy
import io
import os
import zipfile
from typing import Any, cast

from ..diagnose import diagnose
from ..errors import ParseError
from ..formats import TRIDDLER_FORMATS, WRITABLE_FORMATS, dumps, format_from_suffix, load_all, loads, read_bytes, save
from ..formats import level as levelfmt
from ..formats.jsonfmt import clue_json
from ..lines import shared_solver
from ..lanepuzzle import LanePuzzle
from ..lanes import Geometry, Rectangle, Triangle
from ..model import MAX_COLORS, WHITE, Color, Puzzle, default_palette
from ..report import palette_list
from ..rules.protocol import to_json
from ..solve import Checker
from .document import (EDITOR_MAX_SIDE, EDITOR_SPARE_CHARS, Doc, DocError, check_palette_doc, check_triangle_size,
                       editable_char, puzzle_of)

#: Default seconds for one verdict and for one round of fix proposals.
CHECK_TIMEOUT = 5.0
FIX_TIMEOUT = 10.0

#: What a download in each format is called (by suffix).
DOWNLOAD_SUFFIX = {"non": ".non", "xml": ".xml", "nin": ".nin", "mk": ".mk", "cwd": ".cwd",
                   "json": ".json", "pbm": ".pbm", "txt": ".txt", "level": ".zip"}
#: Formats the editor can save and download.
SAVE_FORMATS: tuple[str, ...] = (*WRITABLE_FORMATS, "level")
#: Formats the editor saves and downloads a triddler in.
TRIDDLER_SAVE_FORMATS: tuple[str, ...] = TRIDDLER_FORMATS
#: Largest side of a new hexagonal triddler (``6 * 20 ** 2`` cells).
MAX_HEXAGON_SIDE = 20



def page_limits() -> dict[str, Any]:
    """The library's limits and defaults the page applies while drawing (``api/state`` sends them):
    ``max_side`` (:data:`EDITOR_MAX_SIDE`), ``max_colors``, ``default_colors`` (``[name, "#rrggbb"]``
    for block colours 1, 2, ..., as :func:`satnono.model.default_palette` names them),
    ``spare_chars`` (the characters new colours get, in order) and ``max_hexagon_side`` (the
    largest side of a new triddler, :data:`MAX_HEXAGON_SIDE`)."""
    return {"max_side": EDITOR_MAX_SIDE, "max_colors": MAX_COLORS, "max_hexagon_side": MAX_HEXAGON_SIDE,
            "default_colors": [[c.name, c.hex] for c in default_palette(MAX_COLORS)[1:]],
            "spare_chars": EDITOR_SPARE_CHARS}


def _puzzle(doc: Doc | Puzzle | LanePuzzle) -> Puzzle | LanePuzzle:
    """The puzzle of a document, or the puzzle itself when the caller already validated the document."""
    return doc if isinstance(doc, (Puzzle, LanePuzzle)) else puzzle_of(doc)


# ---------------------------------------------------------------------------
# documents of files


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


def doc_of(puzzle: Puzzle | LanePuzzle, fmt: str | None = None, level: dict[str, Any] | None = None,
           timeout: float = CHECK_TIMEOUT) -> Doc:
    """The document for a puzzle read from a file.

    The picture is the file's goal when it satisfies the clues; otherwise the
    first solution found; when there is none (or none in time), an empty
    picture with every clue typed.  The palette is the file's, with the
    characters the page cannot use replaced (:func:`editable`).

    A triddler's document is :func:`lane_doc_of`'s.

    Raises:
        DocError: the puzzle is larger than :data:`EDITOR_MAX_SIDE` a side (a triddler: than
            :data:`~satnono.web.document.EDITOR_MAX_CELLS` cells), or of a geometry the editor
            does not draw.
    """
    if isinstance(puzzle, LanePuzzle):
        return lane_doc_of(puzzle, fmt, timeout)
    h, w = puzzle.height, puzzle.width
    if not (1 <= h <= EDITOR_MAX_SIDE and 1 <= w <= EDITOR_MAX_SIDE):
        raise DocError(f"the editor handles 1 to {EDITOR_MAX_SIDE} rows and columns; this puzzle is {w}x{h}")
    puzzle = editable(puzzle)
    grid: tuple[str, ...] | None = puzzle.goal if puzzle.goal is not None and puzzle.is_solution(puzzle.goal) else None
    if grid is None:
        res = Checker(line_solver=shared_solver()).check(puzzle, timeout=timeout)
        if res.solutions:
            grid = res.solutions[0]
    chars = puzzle.chars

    def typed(axis: str, i: int) -> list[Any]:  # "?" for a blotted length
        return clue_json(puzzle.clue(axis, i), chars if puzzle.is_color else None)

    # blotted clues stay typed (the picture shows lengths, not blots); without a picture every clue is
    typed_rows: list[Any] = [typed("row", i) if puzzle.row_clues[i].blots else None for i in range(h)]
    typed_cols: list[Any] = [typed("column", i) if puzzle.column_clues[i].blots else None for i in range(w)]
    if grid is None:
        grid = tuple(WHITE * w for _ in range(h))
        typed_rows = [typed("row", i) for i in range(h)]
        typed_cols = [typed("column", i) for i in range(w)]
    meta = [[k, v] for k, v in puzzle.meta if not (level is not None and k == levelfmt.COMPLETED)]
    # revealed cells show the picture's value: kept when the picture is a solution (which agrees with them)
    givens = [[r, c] for r, c, _ in puzzle.givens] if puzzle.is_solution(grid) else []
    return {"grid": list(grid), "palette": palette_list(puzzle.palette), "row_clues": typed_rows,
            "column_clues": typed_cols, "name": puzzle.name, "meta": meta, "level": level, "format": fmt,
            "givens": givens, "rules": [doc for rule in puzzle.rules if (doc := to_json(rule)) is not None]}


def lane_doc_of(puzzle: LanePuzzle, fmt: str | None = None, timeout: float = CHECK_TIMEOUT) -> Doc:
    """The document of a triddler (see :mod:`satnono.web.document`): its picture as
    :func:`doc_of` chooses one, ``lane_clues`` typed where a clue is blotted (all of them
    without a picture), its ``givens`` as ``[row, k]`` cells and its ``rules``, and what the
    page draws from: ``polygons`` (each cell's corners) and ``lanes`` (each lane's ``family``,
    ``index``, ``name``, ``cells`` and ``clue`` as ``[length, char]`` blocks, a blotted length ``"?"``).

    The givens are never dropped: without a solution to show, the empty picture shows the
    given cells' values (every clue is typed then, so the picture does not change them).

    Raises:
        DocError: not a triangle grid, or beyond the editor's limits.
    """
    g = puzzle.geometry
    if not isinstance(g, Triangle):
        raise DocError(f"{puzzle.source or 'the puzzle'}: the editor draws rectangles and triangle grids, "
                       f"not a geometry of kind {g.kind!r}")
    check_triangle_size(g)
    puzzle = _lane_editable(puzzle)
    cells: str | None = puzzle.goal if puzzle.goal is not None and puzzle.is_solution(puzzle.goal) else None
    if cells is None:
        res = Checker(line_solver=shared_solver()).check(puzzle, timeout=timeout)
        if res.solutions:
            cells = str(res.solutions[0])  # (a picture: one character a cell)
    chars = puzzle.chars
    typed = [clue_json(c, chars) if c.blots else None for c in puzzle.clues]
    if cells is None:
        picture = list(WHITE * g.cell_count)
        for cell, v in puzzle.givens:
            picture[cell] = chars[v]
        cells = "".join(picture)
        typed = [clue_json(c, chars) for c in puzzle.clues]
    at = page_cells(g)
    doc: Doc = {"geometry": g.as_json(), "grid": ["".join(cells[i] for i in g.row_cells(r)) for r in range(g.rows)],
                "palette": palette_list(puzzle.palette), "lane_clues": typed,
                "name": puzzle.name, "meta": [[k, v] for k, v in puzzle.meta], "level": None, "format": fmt,
                "givens": [at[cell] for cell, _ in puzzle.givens],
                "rules": [obj for rule in puzzle.rules if (obj := to_json(rule)) is not None]}
    return with_drawing(doc, puzzle)


def with_drawing(doc: Doc, puzzle: LanePuzzle) -> Doc:
    """``doc`` with the ``polygons`` and ``lanes`` of a triddler the page draws (:func:`lane_doc_of`)."""
    g = puzzle.geometry
    chars = puzzle.chars
    doc["polygons"] = [[[round(x, 4), round(y, 4)] for x, y in g.cell_polygon(c)] for c in range(g.cell_count)]
    doc["lanes"] = [{"family": lane.family, "index": lane.index, "name": lane.name, "cells": list(lane.cells),
                     "clue": clue_json(clue, chars)} for lane, clue in zip(puzzle.lanes, puzzle.clues)]
    return doc


def new_triddler(side: Any) -> Doc:
    """The document of an empty hexagonal triddler of ``side`` (1 to :data:`MAX_HEXAGON_SIDE`).

    Raises:
        DocError: ``side`` is not a whole number in that range.
    """
    if type(side) is not int or not 1 <= side <= MAX_HEXAGON_SIDE:
        raise DocError(f"a new triddler's hexagon side is a whole number from 1 to {MAX_HEXAGON_SIDE}")
    g = Triangle.hexagon(side)
    return lane_doc_of(LanePuzzle.from_picture(g, WHITE * g.cell_count))


def _lane_editable(puzzle: LanePuzzle) -> LanePuzzle:
    """:func:`editable` for a triddler: colour characters the page cannot type are replaced."""
    pal = puzzle.palette
    taken = {c.char for c in pal}
    spare = (ch for ch in EDITOR_SPARE_CHARS if ch not in taken)
    new = [c if i == 0 or editable_char(c.char) else Color(c.name, next(spare), c.rgb) for i, c in enumerate(pal)]
    if [c.char for c in new] == [c.char for c in pal]:
        return puzzle
    table = str.maketrans(puzzle.chars, "".join(c.char for c in new))
    return puzzle.replace(palette=tuple(new), goal=None if puzzle.goal is None else puzzle.goal.translate(table))


def editable(puzzle: Puzzle) -> Puzzle:
    """``puzzle`` with palette characters the page can type and index: a colour whose character
    is a digit, ``,`` or outside the BMP gets a spare one (its goal is redrawn to match); a
    one-colour puzzle keeps its own character.  Names and RGB values stay."""
    pal = puzzle.palette
    taken = {c.char for c in pal}
    spare = (ch for ch in EDITOR_SPARE_CHARS if ch not in taken)
    new = [c if i == 0 or editable_char(c.char) else Color(c.name, next(spare), c.rgb) for i, c in enumerate(pal)]
    if [c.char for c in new] == [c.char for c in pal]:
        return puzzle
    table = str.maketrans(puzzle.chars, "".join(c.char for c in new))
    goal = None if puzzle.goal is None else tuple(r.translate(table) for r in puzzle.goal)
    return puzzle.replace(palette=tuple(new), goal=goal)


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


def _single(puzzles: list[Puzzle | LanePuzzle], name: str, fmt: str | None, timeout: float) -> Doc:
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


def analyze(doc: Doc | Puzzle, timeout: float = CHECK_TIMEOUT) -> dict[str, Any]:
    """The live verdict on a document (or on the puzzle :func:`puzzle_of` made of it):
    :func:`satnono.diagnose.diagnose`, which verifies every solution it gives, as data for the page.

    Keys: ``status`` (``unique``, ``multiple``, ``none``, ``unknown``),
    ``line_solvable``, ``left`` (cells line logic leaves open), ``undetermined``
    and ``ambiguous`` (``[row, col]`` cells: where two solutions differ),
    ``row_counts`` / ``column_counts`` (placements left per line after line
    logic, as decimal strings, ``None`` where at most one), ``conflict``
    (``[axis, index]`` lines), ``conflict_rules``, ``reason``, ``picture_ok`` (the picture
    satisfies the clues), ``timeout``, ``seconds``.

    Raises:
        DocError: the document is malformed.
        InternalError: a solution failed its re-check against the clues (a bug).
    """
    puzzle = _puzzle(doc)
    # the cells where two solutions differ (probing every open cell for the whole region costs seconds)
    d = diagnose(puzzle, timeout=timeout, line_solver=shared_solver(), probe_cells=False)
    if isinstance(puzzle, LanePuzzle):
        at = page_cells(puzzle.geometry)
        cells: Any = lambda keys: [at[c] for c in keys]  # noqa: E731
        rows: list[str | None] | None = None
        cols: list[str | None] | None = None
    else:
        cells = lambda keys: [list(c) for c in keys]  # noqa: E731
        rows, cols = [None] * puzzle.height, [None] * puzzle.width
        for o in d.open_lines:
            (rows if o.axis == "row" else cols)[o.index] = str(o.placements)
    return {
        "status": d.status,
        "line_solvable": d.line_solvable,
        "left": len(d.undetermined),
        "undetermined": cells(d.undetermined),
        "ambiguous": cells(d.ambiguous),
        "row_counts": rows,
        "column_counts": cols,
        "conflict": [[a, i] for a, i in d.conflict],
        "conflict_rules": list(d.conflict_rules),
        "reason": d.reason,
        "picture_ok": puzzle.goal is not None,
        "timeout": timeout,
        "seconds": round(d.seconds, 6),
    }


def page_cells(g: Geometry) -> list[list[int]]:
    """Each cell of a geometry as the page names it, ``[row, k]``: the k-th cell of its row
    (a triangle grid's row of triangles, a rectangle's row)."""
    if isinstance(g, Triangle):
        return [[r, k] for r in range(g.rows) for k in range(len(g.row_cells(r)))]
    if isinstance(g, Rectangle):
        return [[r, c] for r in range(g.height) for c in range(g.width)]
    raise DocError(f"the editor draws rectangles and triangle grids, not a geometry of kind {g.kind!r}")


def propose(doc: Doc | Puzzle, timeout: float = FIX_TIMEOUT, max_edits: int = 5) -> dict[str, Any]:
    """The proposals of :func:`satnono.fix` for the picture of a document (or of the puzzle
    :func:`puzzle_of` made of it), as the page shows them (:meth:`~satnono.fixer.FixResult.as_dict`).

    Only for a picture that satisfies its clues: each edit sets one cell of that picture to
    ``char`` (another colour or the background; ``black`` is true for any colour).  On a
    triddler each given and edit also names its ``cell`` by number, and ``row``, ``col`` are
    its row and its place in the row (``[row, k]``, as the page names cells).
    """
    from ..fixer import FixError, fix

    puzzle = _puzzle(doc)
    if puzzle.goal is None:
        return {"status": "skipped", "reason": "the picture does not match the typed clues", "edits": [],
                "givens_unique": None, "givens_line": None}
    try:
        # fix takes a puzzle of any geometry (a LanePuzzle too), though its annotation names Puzzle
        res = fix(cast(Puzzle, puzzle), timeout=timeout, max_edits=max_edits, checker=Checker(line_solver=shared_solver()))
    except FixError as e:
        raise DocError(str(e)) from None
    return res.as_dict()  # the one shape of a fix proposal, as fix --json prints it


# ---------------------------------------------------------------------------
# files


def export(doc: Any, fmt: str) -> tuple[str, bytes]:
    """``(file name, content)`` of a download of the document in ``fmt`` (a level is a zip of its three files).

    Raises:
        DocError: unknown format, or a picture format and the picture does not match the clues.
    """
    puzzle = puzzle_of(doc)
    stem = _stem(doc)
    if isinstance(puzzle, LanePuzzle):
        _triddler_format(fmt)
    try:
        if fmt == "level" and isinstance(puzzle, Puzzle):  # (a triddler is never a level: refused above)
            ppm, old_level, old_pbm = _level_parts(doc)
            parts = levelfmt.write_files(puzzle, ppm, old_level, old_pbm)
            buf = io.BytesIO()
            with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
                for suffix, data in parts.items():
                    z.writestr(stem + suffix, data)
            return stem + ".zip", buf.getvalue()
        if fmt not in WRITABLE_FORMATS and not isinstance(puzzle, LanePuzzle):
            raise DocError(f"cannot write format {fmt!r} (writable: {', '.join(SAVE_FORMATS)})")
        content = dumps(puzzle, fmt)
    except ValueError as e:
        raise DocError(_no_goal(str(e))) from None
    data = content.encode("utf-8") if isinstance(content, str) else content
    return stem + DOWNLOAD_SUFFIX.get(fmt, "." + fmt), data


def _triddler_format(fmt: Any) -> None:
    if fmt not in TRIDDLER_SAVE_FORMATS:
        raise DocError(f"a triddler is saved in {', '.join(TRIDDLER_SAVE_FORMATS)}, not {fmt}"[:200])


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
        self._kept: tuple[tuple, Doc] | None = None  # (file stamp, the document read from it)
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

        The file is read (and, without a picture, solved) once: later calls give a copy of
        the first document for as long as the file stays as it was (a Save changes it).

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
        stamp = self._stamp(self.path)
        if self._kept is None or self._kept[0] != stamp:
            self._kept = (stamp, self._read(self.path))
        return copy.deepcopy(self._kept[1])

    def _read(self, path: str) -> Doc:
        fmt = format_from_suffix(path)
        if fmt == "level":
            files = levelfmt.paths(path)
            lvl, pbm = read_bytes(files.level), read_bytes(files.pbm)
            ppm = read_bytes(files.ppm) if os.path.exists(files.ppm) else None
            if ppm is not None:
                levelfmt.check_ppm(ppm, files.ppm)
            puzzle = levelfmt.parse(lvl, pbm, path, files.pbm)
            return doc_of(puzzle, "level", _level_extra(puzzle, lvl, pbm, ppm), self.timeout)
        puzzles = load_all(path if self.selector is None else f"{path}#{self.selector}")
        if self.selector is None and len(puzzles) != 1:
            raise DocError(f"{path} holds {len(puzzles)} puzzles; the editor opens one: give FILE#k (k from 1)")
        return doc_of(puzzles[0], fmt, None, self.timeout)

    def _stamp(self, path: str) -> tuple:
        """What tells whether the file (a level: its three files) changed since it was read."""
        files = levelfmt.paths(path) if format_from_suffix(path) == "level" else None
        out: list[Any] = [path, self.selector]
        for p in (files.level, files.pbm, files.ppm) if files is not None else (path,):
            try:
                st = os.stat(p)
                out.append((st.st_ino, st.st_size, st.st_mtime_ns))
            except OSError:
                out.append(None)
        return tuple(out)

    def save(self, doc: Any) -> str:
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

    def save_as(self, doc: Any, name: Any, fmt: str | None = None, overwrite: bool = False) -> str:
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
        triddler = isinstance(doc, dict) and doc.get("geometry") is not None
        if fmt not in SAVE_FORMATS and not (triddler and fmt in TRIDDLER_SAVE_FORMATS):
            raise DocError(f"cannot write format {fmt!r} (writable: {', '.join(SAVE_FORMATS)})")
        puzzle = puzzle_of(doc)
        if isinstance(puzzle, LanePuzzle):
            _triddler_format(fmt)
        try:
            if fmt == "level" and isinstance(puzzle, Puzzle):  # (a triddler is never a level: refused above)
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


__all__ = ["Editor", "DocError", "analyze", "propose", "export", "open_bytes", "doc_of", "lane_doc_of", "new_triddler",
           "puzzle_of",
           "page_limits", "check_palette_doc", "editable", "editable_char"]
