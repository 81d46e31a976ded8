"""The editor's document: what the page sends, validated into a :class:`~satnono.model.Puzzle`.

A document is a dict:

``grid``
    The picture, a list of row strings over ``.`` (background) and the
    palette's characters (``#`` for black and white puzzles).
``palette``
    ``None`` or absent (black and white), or the background then each block colour as
    ``{"name", "char", "rgb": "#rrggbb"}`` (:func:`satnono.report.palette_list`); the
    background's char is ``.``, a palette of one block colour draws with ``#``, at most
    :data:`~satnono.model.MAX_COLORS` block colours.  Characters are ones a
    typed clue can name: no digits, no ``,``, one UTF-16 unit (:func:`editable_char`).
``row_clues``, ``column_clues``
    One entry per line: ``None`` when the clue is the picture's own (derived),
    or the blocks the author typed (the picture need not match): each a length
    (colour 1) or ``[length, char]``.
``name``, ``meta``
    Title and other properties (``[[key, value], ...]``), kept from the file.
``givens``
    Revealed cells, ``[[row, col], ...]`` (0-based): each shows the picture's value there.
``rules``
    Extra rules, JSON objects as in a puzzle file (see :mod:`satnono.rules`).
``level``
    ``None``, or for a picross game level ``{"completed": bool, "ppm": b64,
    "pbm": b64, "level": b64}`` (the original files' bytes, base64, each may be
    ``None``), so that saving keeps the reward image and unchanged files as they were.
    A level is black and white: a colour picture is refused as one (its picture is a PBM).

A *triddler* (a puzzle on :class:`~satnono.lanes.Triangle`'s grid) is a document with
``geometry``, the geometry's JSON form (:meth:`~satnono.lanes.Triangle.as_json`); its ``grid``
is one string a row of triangles (each left to right, the rows' lengths those of the geometry),
and ``lane_clues`` takes the place of ``row_clues`` and ``column_clues``: one entry per lane,
in ``geometry.lanes()`` order (rows, ``/`` lines, ``\\`` lines), ``None`` or typed as above.
A triddler has no givens, rules or level, and at most :data:`EDITOR_MAX_CELLS` cells.
:func:`~satnono.web.session.doc_of` adds what the page draws from: ``polygons`` (each cell's
corners, in cell order) and ``lanes`` (each lane's family, index, name, cells and clue); the
page need not send them back, and they are never read.

The checks here are the editor's own stricter schema (JSON lists and objects as the
page builds them, :data:`EDITOR_MAX_SIDE`); what a palette, a picture and a clue
mean is checked by the model (:func:`~satnono.model.check_palette`,
:func:`~satnono.model.check_grid`, :class:`~satnono.model.Puzzle`).
"""

from __future__ import annotations

import json
from typing import Any

from ..clues import LineClue
from ..errors import SatnonoError
from ..formats import level as levelfmt
from ..formats._palette import SPARE_CHARS
from ..lanepuzzle import LanePuzzle, clues_of_picture
from ..lanes import Triangle
from ..model import BLOT, BW_PALETTE, MAX_COLORS, Color, Palette, Puzzle, check_grid, check_palette, \
    color_clues_of_grid, parse_rgb

#: Largest side the editor handles, smaller than the library's :data:`~satnono.model.MAX_SIDE`
#: on purpose: the page draws every cell and asks for a verdict after every edit, and at
#: 100 x 100 (10,000 cells) both stay interactive.
EDITOR_MAX_SIDE = 100
#: Most cells of a triddler the editor takes: a hexagon of side 20 (``6 * 20 ** 2``).
EDITOR_MAX_CELLS = 2400
#: Largest side of a triddler's outline (a big triangle of side 40 has 1,600 cells).
EDITOR_MAX_TRIANGLE_SIDE = 40
#: Longest colour name the editor takes.
MAX_NAME = 40
#: Most rules a document may carry.
MAX_RULES = 20
#: Characters a colour may not use in the editor: a typed clue ``3a 1b`` could not name them.
_UNTYPABLE = set("0123456789,")

Doc = dict[str, Any]


class DocError(SatnonoError):
    """A document or request from the page is malformed or beyond the limits."""


def editable_char(ch: str) -> bool:
    """True when a block colour's character can be typed in a clue and indexed by the page."""
    return len(ch) == 1 and ch not in _UNTYPABLE and ord(ch) <= 0xFFFF


#: The characters new colours get, in order (the library's spare characters a clue can type).
EDITOR_SPARE_CHARS = "".join(ch for ch in SPARE_CHARS if editable_char(ch))


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
    return pal


def _picture(grid: Any, palette: Palette) -> tuple[str, ...]:
    """The picture of a document: a list of row strings, 1 to :data:`EDITOR_MAX_SIDE` a side,
    then :func:`satnono.model.check_grid` (rectangular, over the palette's characters)."""
    if not isinstance(grid, list) or not grid or not all(isinstance(r, str) for r in grid):
        raise DocError("the picture must be a non-empty list of row strings")
    h, w = len(grid), len(grid[0])
    if not (1 <= h <= EDITOR_MAX_SIDE and 1 <= w <= EDITOR_MAX_SIDE):
        raise DocError(f"the editor handles 1 to {EDITOR_MAX_SIDE} rows and columns; got {w}x{h}")
    try:
        return check_grid(grid, palette)
    except ValueError as e:
        raise DocError(str(e)) from None


def _clue_list(value: Any, n: int, what: str, palette: Palette,
               names: list[str] | None = None) -> list[tuple[tuple[Any, ...], tuple[int, ...]] | None]:
    """Typed clues as ``(lengths, colours)`` (a blotted length is ``"?"``), ``None`` where the
    picture's own clue stands; ``names`` names the lines in messages (default ``what`` and the number)."""
    if value is None:
        return [None] * n
    if not isinstance(value, list) or len(value) != n:
        raise DocError(f"{what} must be a list of {n} entries")
    index = {c.char: i for i, c in enumerate(palette) if i}
    out: list[tuple[tuple[Any, ...], tuple[int, ...]] | None] = []
    for i, clue in enumerate(value):
        if clue is None:
            out.append(None)
            continue
        label = names[i] if names is not None else f"{what} {i + 1}"
        if not isinstance(clue, list) or len(clue) > EDITOR_MAX_SIDE:
            raise DocError(f"{label}: a clue is a list of at most {EDITOR_MAX_SIDE} blocks")
        lengths: list[Any] = []
        colors: list[int] = []
        for block in clue:
            n_: Any = block
            col: int | None = 1
            if isinstance(block, list):
                n_, col = (block[0], index.get(block[1])) if len(block) == 2 and isinstance(block[1], str) else (None, 1)
            if n_ != BLOT and (not isinstance(n_, int) or isinstance(n_, bool) or not 0 <= n_ <= EDITOR_MAX_SIDE):
                raise DocError(f"{label}: a clue is a list of block lengths from 0 to {EDITOR_MAX_SIDE}"
                               ' or "?" for a blot (or [length, colour character] pairs)')
            if col is None:
                raise DocError(f"{label}: block {block!r} names a colour the palette does not have")
            if n_:
                lengths.append(n_)
                colors.append(col)
        out.append((tuple(lengths), tuple(colors)))
    return out


def puzzle_of(doc: Any) -> Puzzle | LanePuzzle:
    """The puzzle a document describes; its goal is the picture when the picture satisfies the clues.

    Raises:
        DocError: the document is malformed or beyond the editor's limits.
    """
    if not isinstance(doc, dict):
        raise DocError("the document must be a JSON object")
    if doc.get("geometry") is not None:
        return lane_puzzle_of(doc)
    palette = check_palette_doc(doc.get("palette"))
    grid = _picture(doc.get("grid"), palette)
    h, w = len(grid), len(grid[0])
    rows_typed = _clue_list(doc.get("row_clues"), h, "row", palette)
    cols_typed = _clue_list(doc.get("column_clues"), w, "column", palette)
    rl, rc, cl, cc = color_clues_of_grid(grid, palette)
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
        p = p.replace(goal=grid)
    return p


def check_triangle(value: Any) -> Triangle:
    """The triangle grid of a document's ``geometry``, within the editor's limits."""
    if not isinstance(value, dict):
        raise DocError("geometry must be a JSON object (a triangle's six sides)")
    if value.get("kind") != Triangle.kind:
        raise DocError(f"the editor draws a geometry of kind 'triangle' (a rectangle is a plain grid), got {value.get('kind')!r}"[:200])
    for side in value.values():
        if type(side) is int and side > EDITOR_MAX_TRIANGLE_SIDE:
            raise DocError(f"the editor handles triddlers of at most {EDITOR_MAX_CELLS} cells (a hexagon of side 20) "
                           f"and sides of at most {EDITOR_MAX_TRIANGLE_SIDE}")
    try:
        g = Triangle.from_json(value)
    except ValueError as e:
        raise DocError(f"geometry: {e}") from None
    check_triangle_size(g)
    return g


def check_triangle_size(g: Triangle) -> None:
    """Refuse a triangle grid beyond :data:`EDITOR_MAX_CELLS` or :data:`EDITOR_MAX_TRIANGLE_SIDE`."""
    if max(g.sides) > EDITOR_MAX_TRIANGLE_SIDE or g.cell_count > EDITOR_MAX_CELLS:
        raise DocError(f"the editor handles triddlers of at most {EDITOR_MAX_CELLS} cells (a hexagon of side 20) and "
                       f"sides of at most {EDITOR_MAX_TRIANGLE_SIDE}; this one has {g.cell_count} cells")


def _lane_clue(typed: tuple[tuple[Any, ...], tuple[int, ...]]) -> LineClue:
    """A typed clue (a blotted length ``"?"``) as a :class:`LineClue` (a blotted block holds 1)."""
    lengths, colours = typed
    blots = sum(1 << j for j, n in enumerate(lengths) if n == BLOT)
    return LineClue(tuple(1 if n == BLOT else n for n in lengths), tuple(colours), blots)


def lane_puzzle_of(doc: Doc) -> LanePuzzle:
    """The triddler a document describes (``geometry`` set); its goal is the picture when the
    picture satisfies the clues.

    Raises:
        DocError: the document is malformed or beyond the editor's limits.
    """
    g = check_triangle(doc.get("geometry"))
    palette = check_palette_doc(doc.get("palette"))
    grid = doc.get("grid")
    lengths = g.row_lengths()
    if not isinstance(grid, list) or len(grid) != len(lengths) or not all(isinstance(r, str) for r in grid):
        raise DocError(f"the picture must be a list of {len(lengths)} row strings (one a row of triangles)")
    for r, (row, n) in enumerate(zip(grid, lengths)):
        if len(row) != n:
            raise DocError(f"row {r + 1} of the picture must have {n} cells, got {len(row)}")
    cells = "".join(grid)
    bad = set(cells) - {c.char for c in palette}
    if bad:
        raise DocError(f"the picture uses the character {min(bad)!r}, which is in no colour of the palette")
    for key in ("row_clues", "column_clues"):
        if doc.get(key) is not None:
            raise DocError(f"a triddler's clues are lane_clues (one per lane), not {key}")
    for key, what in (("givens", "revealed cells"), ("rules", "rules"), ("level", "a game level")):
        if doc.get(key):
            raise DocError(f"{what} are for rectangles in the editor so far, not for a triddler"
                           if key != "level" else "a triddler cannot be a game level")
    lanes = g.lanes()
    typed = _clue_list(doc.get("lane_clues"), len(lanes), "lane_clues", palette, [lane.name for lane in lanes])
    own = clues_of_picture(g, cells, palette)
    clues = tuple(d if t is None else _lane_clue(t) for t, d in zip(typed, own))
    name = doc.get("name")
    if name is not None and not isinstance(name, str):
        raise DocError("name must be a string")
    meta = doc.get("meta") or []
    if not isinstance(meta, list) or not all(
            isinstance(m, list) and len(m) == 2 and all(isinstance(x, str) for x in m) for m in meta):
        raise DocError("meta must be a list of [key, value] strings")
    try:
        p = LanePuzzle(g, clues, palette, name or None, tuple((k, v) for k, v in meta))
    except ValueError as e:
        raise DocError(str(e)) from None
    return p.replace(goal=cells) if p.is_solution(cells) else p


def _with_rules(puzzle: Puzzle, value: Any) -> Puzzle:
    """``puzzle`` with the document's rules (JSON objects as in a puzzle file; not givens,
    which the document holds as revealed cells)."""
    from ..rules import RuleError, rule_from_json

    if not isinstance(value, list) or len(value) > MAX_RULES:
        raise DocError(f"rules must be a list of at most {MAX_RULES} rule objects")
    try:
        rules = tuple(rule_from_json(obj) for obj in value)
        return puzzle.replace(rules=rules)
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


__all__ = ["Doc", "DocError", "EDITOR_MAX_CELLS", "EDITOR_MAX_SIDE", "EDITOR_MAX_TRIANGLE_SIDE", "EDITOR_SPARE_CHARS",
           "MAX_NAME", "MAX_RULES", "check_palette_doc", "check_triangle", "check_triangle_size", "editable_char",
           "lane_puzzle_of", "puzzle_of"]
