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
Its ``givens`` are ``[[row, k], ...]``, the k-th triangle of a row (as the page and the verdict
name cells; the library's ``(cell, value)`` pairs are made of them); its ``rules`` are those
with a meaning on a triangle grid (``count``, ``connected``: :func:`satnono.lanerules.lane_rule_from`
refuses the others in one line).  A triddler is never a level, and has at most
:data:`EDITOR_MAX_CELLS` cells.
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
from ..lanes import Rectangle, Triangle
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

    One path for every geometry: the document gives a geometry (a rectangle: its picture's rows
    and columns; a triddler: ``geometry``), its picture row by row, one typed clue or ``None``
    a lane (:func:`typed_clues`), the givens as cells ``[row, k]`` of the picture's rows and
    the rules; the lanes without a typed clue take the picture's own.  Only the last step,
    building the library's value, differs: a rectangle is a :class:`~satnono.model.Puzzle`
    (as it always was), another geometry a :class:`~satnono.lanepuzzle.LanePuzzle`.

    Raises:
        DocError: the document is malformed or beyond the editor's limits.
    """
    if not isinstance(doc, dict):
        raise DocError("the document must be a JSON object")
    geometry, grid, palette = _geometry_and_picture(doc)
    typed = typed_clues(doc, geometry, palette)
    name, meta = _name_and_meta(doc)
    cells = "".join(grid)
    chars = "".join(c.char for c in palette)
    givens = [(cell, chars.index(cells[cell])) for cell in _given_cells(doc.get("givens"), grid, not isinstance(geometry, Rectangle))]
    if isinstance(geometry, Rectangle):
        return _rectangle(grid, palette, typed, name, meta, givens, doc)
    own = clues_of_picture(geometry, cells, palette)
    clues = tuple(d if t is None else _lane_clue(t) for t, d in zip(typed, own))
    try:
        p = LanePuzzle(geometry, clues, palette, name, meta, givens=tuple(givens),
                       rules=_lane_rules(doc.get("rules"), geometry))
    except ValueError as e:
        raise DocError(str(e)) from None
    return p.replace(goal=cells) if p.is_solution(cells) else p


def lane_puzzle_of(doc: Doc) -> LanePuzzle:
    """:func:`puzzle_of` of a triddler's document (``geometry`` set).

    Raises:
        DocError: the document is malformed, beyond the editor's limits, or not a triddler's.
    """
    if not isinstance(doc, dict) or doc.get("geometry") is None:
        raise DocError("a triddler's document gives its geometry")
    p = puzzle_of(doc)
    assert isinstance(p, LanePuzzle)
    return p


def _geometry_and_picture(doc: Doc) -> tuple[Rectangle | Triangle, tuple[str, ...], Palette]:
    """The document's geometry, its picture (row strings: a rectangle's rows, a triangle grid's
    rows of triangles) and palette, checked in the order the page's messages expect."""
    if doc.get("geometry") is None:
        palette = check_palette_doc(doc.get("palette"))
        grid = _picture(doc.get("grid"), palette)
        return Rectangle(len(grid), len(grid[0])), grid, palette
    g = check_triangle(doc.get("geometry"))
    palette = check_palette_doc(doc.get("palette"))
    rows = doc.get("grid")
    lengths = g.row_lengths()
    if not isinstance(rows, list) or len(rows) != len(lengths) or not all(isinstance(r, str) for r in rows):
        raise DocError(f"the picture must be a list of {len(lengths)} row strings (one a row of triangles)")
    grid = tuple(rows)
    for r, (row, n) in enumerate(zip(grid, lengths)):
        if len(row) != n:
            raise DocError(f"row {r + 1} of the picture must have {n} cells, got {len(row)}")
    bad = set("".join(grid)) - {c.char for c in palette}
    if bad:
        raise DocError(f"the picture uses the character {min(bad)!r}, which is in no colour of the palette")
    for key in ("row_clues", "column_clues"):
        if doc.get(key) is not None:
            raise DocError(f"a triddler's clues are lane_clues (one per lane), not {key}")
    if doc.get("level"):
        raise DocError("a triddler cannot be a game level")
    return g, grid, palette


Typed = tuple[tuple[Any, ...], tuple[int, ...]]


def typed_clues(doc: Doc, geometry: Rectangle | Triangle, palette: Palette) -> list[Typed | None]:
    """The typed clue of each lane of ``geometry``, in its lane order (``None`` where the
    picture's own clue stands): a rectangle's ``row_clues`` then ``column_clues``, another
    geometry's ``lane_clues``."""
    if isinstance(geometry, Rectangle):
        return (_clue_list(doc.get("row_clues"), geometry.height, "row", palette)
                + _clue_list(doc.get("column_clues"), geometry.width, "column", palette))
    lanes = geometry.lanes()
    return _clue_list(doc.get("lane_clues"), len(lanes), "lane_clues", palette, [lane.name for lane in lanes])


def _name_and_meta(doc: Doc) -> tuple[str | None, tuple[tuple[str, str], ...]]:
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
    return name or None, tuple((k, v) for k, v in meta)


def _rectangle(grid: tuple[str, ...], palette: Palette, typed: list[Typed | None], name: str | None,
               meta: tuple[tuple[str, str], ...], givens: list[tuple[int, int]], doc: Doc) -> Puzzle:
    """The :class:`~satnono.model.Puzzle` of a rectangle's document (its lanes the rows, then
    the columns; givens ``(row, col, value)``; rules of :mod:`satnono.rules`)."""
    h, w = len(grid), len(grid[0])
    rl, rc, cl, cc = color_clues_of_grid(grid, palette)
    own = list(zip(rl, rc)) + list(zip(cl, cc))
    clues = [t if t is not None else d for t, d in zip(typed, own)]
    rows, cols = clues[:h], clues[h:]
    p = Puzzle(tuple(r[0] for r in rows), tuple(c[0] for c in cols), name, None, meta, palette=palette,
               row_colors=tuple(r[1] for r in rows), column_colors=tuple(c[1] for c in cols),
               givens=tuple((*divmod(cell, w), v) for cell, v in givens))
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


def _given_cells(value: Any, grid: tuple[str, ...], triddler: bool) -> list[int]:
    """The document's revealed cells, ``[[row, k], ...]`` (0-based: the k-th cell of the
    picture's row; a rectangle's ``[row, col]``), as cell numbers; each shows the picture's
    value there."""
    if value is None:
        return []
    what = "[row, k]" if triddler else "[row, col]"
    starts = [0]
    for row in grid:
        starts.append(starts[-1] + len(row))
    if not isinstance(value, list) or len(value) > starts[-1]:
        raise DocError(f"givens must be a list of {what} cells")
    out = set()
    for g in value:
        if not (isinstance(g, list) and len(g) == 2 and all(type(x) is int for x in g)
                and 0 <= g[0] < len(grid) and 0 <= g[1] < len(grid[g[0]])):
            shape = f"{len(grid[0])}x{len(grid)} picture" if not triddler else \
                f"picture (rows of {', '.join(str(len(r)) for r in grid)} cells)"[:120]
            raise DocError(f"givens: {json.dumps(g)[:30]} is not a {what} cell of the {shape}")
        out.add(starts[g[0]] + g[1])
    return sorted(out)


def _lane_rules(value: Any, geometry: Triangle) -> tuple[Any, ...]:
    """The rules of a triddler's document (JSON objects as in a puzzle file), made lane rules
    (:func:`satnono.lanerules.lane_rule_from`): ``count`` and ``connected``; a rule with no
    meaning on the geometry (``symmetric``, ``no-square``, ``line``, a ``givens`` rule: the
    document holds its givens as cells) is refused in one line."""
    from ..lanerules import lane_rule_from
    from ..rules import RuleError, rule_from_json

    if value is None:
        return ()
    if not isinstance(value, list) or len(value) > MAX_RULES:
        raise DocError(f"rules must be a list of at most {MAX_RULES} rule objects")
    try:
        return tuple(lane_rule_from(rule_from_json(obj), geometry) for obj in value)
    except (RuleError, ValueError) as e:
        raise DocError(str(e)) from None


__all__ = ["Doc", "DocError", "EDITOR_MAX_CELLS", "EDITOR_MAX_SIDE", "EDITOR_MAX_TRIANGLE_SIDE", "EDITOR_SPARE_CHARS",
           "MAX_NAME", "MAX_RULES", "check_palette_doc", "check_triangle", "check_triangle_size", "editable_char",
           "lane_puzzle_of", "puzzle_of"]
