"""Triddlers (triangular nonograms) in webpbn XML and Olšák's ``.g``, read and written.

A triddler is read into a :class:`~satnono.lanepuzzle.LanePuzzle` (the value of a puzzle of any
geometry): its :class:`~satnono.lanes.Triangle` geometry, one :class:`~satnono.clues.LineClue`
per lane (in ``geometry.lanes()`` order: the rows, the ``/`` lines, the ``\\`` lines), the
palette, the title and properties, and the goal picture when the file stores one.  The writers
take a ``LanePuzzle`` whose geometry is a ``Triangle`` (anything else: a one-line ValueError).
:func:`satnono.formats.webpbn.read` and :func:`satnono.formats.olsak.read` hand triddlers to
the readers here, so :func:`satnono.formats.loads` reads them like any puzzle.  The conventions below were settled on the public example
files (webpbn's worked example, number-loom's and Olšák's triddlers): read so, and only so,
each has exactly one solution.

**webpbn XML** (``<puzzle type="triddler">``, :func:`read_xml`, :func:`write_xml`):

* Six ``<clues>`` sets: ``topleft`` and ``bottomleft`` (the rows above and below the left
  side's bend), ``top`` and ``topright`` (the ``/`` lines), ``bottom`` and ``bottomright``
  (the ``\\`` lines), in the order and direction of :class:`~satnono.lanes.Triangle`'s lanes.
  A set may be empty or left out (a sharp corner); their sizes are the hexagon's sides, which
  must close (``E = A + B - D``, ``F = C + D - A``).
* Colours, blots (``<count>0</count>``), the title and properties are read as the grid reader
  :mod:`satnono.formats.webpbn` reads them (its code is reused).
* The goal image (the first ``<solution type="goal">``) is row by row, each row between ``/``
  or ``\\`` following the slope of the outline (:meth:`~satnono.lanes.Triangle.text_rows`);
  whitespace between rows, and inside a row unless a colour uses it as its ``char``, is
  ignored.  Without any ``<clues>`` the geometry and the clues are derived from the goal.
* The writer writes the six sets in the order above (empty ones too), BW as ``.``/``X``.

**Olšák ``.g``** with ``#t`` (:func:`read_g`, :func:`write_g`):

* A ``#t`` (``#T``) line before the first ``:`` line marks a triddler; ``#d`` starts the
  colour table, read as :mod:`satnono.formats.olsak` reads it (a number without a letter has
  the colour of key ``1:``); a key ``6:`` (the colour outside the hexagon in Olšák's XPM
  output) is skipped.
* Six groups of clue lines, each after a ``:`` line: ``TopLeft``, ``BottomLeft``, ``Bottom``,
  ``BottomRight``, ``TopRight``, ``Top`` (A..F), counter-clockwise.  ``TopRight`` and ``Top``
  list their lines in the reverse of the XML order, and the lines of ``Bottom`` and
  ``BottomRight`` (the ``\\`` lines) read from their bottom end, the reverse of the XML
  direction.  A blank line is an empty clue.  A seventh ``:`` line ends the data; without it
  ``Top`` has the ``F = C + D - A`` lines the outline needs (lines missing at the end of the
  file are empty clues; surplus lines must be blank).
* ``.g`` holds no title, properties, goal or blotted clue: the writer leaves the first three
  out and refuses a blot (one line).  Colour names come from the table's colour spec (a
  common name, else the RGB's common name, else ``#rrggbb``), as for grids.

Every malformed input raises :class:`~satnono.errors.ParseError` naming the file and line.

>>> p = read_g("#t\\n: TopLeft\\n1\\n: BottomLeft\\n: Bottom\\n1\\n: BottomRight\\n: TopRight\\n1\\n: Top\\n", None)[0]
>>> p.geometry.sides, [c.lengths for c in p.clues]
((1, 0, 1, 0, 1, 0), [(1,), (1,), (1,)])
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Sequence
from xml.sax.saxutils import escape, quoteattr

from ..clues import LineClue
from ..errors import ParseError, PuzzleTooLarge
from ..lanepuzzle import LanePuzzle, clues_of_picture
from ..lanes import CLUE_SETS, SIDE_ORDER, Triangle
from ..model import BLOT, MAX_CELLS, MAX_SIDE, WHITE, Color
from ..palette import BW_PALETTE
from ._palette import build_palette, rgb_of_name, split_blocks
from ._text import decode_text, is_blank, split_lines
from .olsak import _Colour, _table_entry, colour_keys
from .webpbn import Blocks, _parse_tree, _properties, _Puzzle, _title, xml_head

#: The names of Olšák's six groups, in file order (A..F).
G_GROUPS = ("TopLeft", "BottomLeft", "Bottom", "BottomRight", "TopRight", "Top")
_ROW_DELIMITERS = "/\\"


def clue_set(puzzle: LanePuzzle, name: str) -> tuple[LineClue, ...]:
    """The clues of one of webpbn's six clue sets (``topleft`` ... ``bottomright``) of a
    triddler, in the set's order.

    Raises:
        ValueError: the puzzle is not a triddler, or ``name`` is no clue set.

    >>> p = LanePuzzle.from_picture(Triangle.triangle(2), "#.##")
    >>> [c.lengths for c in clue_set(p, "topleft")], [c.lengths for c in clue_set(p, "topright")]
    ([(1,), (2,)], [(2,), (1,)])
    """
    geometry = _triangle(puzzle, "clue_set")
    family, span = geometry.clue_set(name)
    start = {"row": 0, "/": geometry.rows, "\\": geometry.rows + geometry.family_size("/")}[family]
    return puzzle.clues[start + span.start:start + span.stop]


def _triangle(puzzle: LanePuzzle, what: str) -> Triangle:
    """The puzzle's triangle geometry, else a one-line ValueError saying ``what`` takes triddlers only."""
    geometry = puzzle.geometry
    if not isinstance(geometry, Triangle):
        kind = getattr(geometry, "kind", type(geometry).__name__)
        raise ValueError(f"{what} takes triddlers only (a triangle geometry); this puzzle's geometry is {kind!r}")
    return geometry


def _no_rules(puzzle: LanePuzzle, fmt: str) -> None:
    """A one-line ValueError when the puzzle has given cells or rules, which ``fmt`` cannot hold
    (the words of :func:`satnono.formats.dumps` for a grid)."""
    if puzzle.givens:
        raise ValueError(f"the {fmt} format cannot store given (revealed) cells; write the puzzle as json")
    if puzzle.rules:
        from ..rules.protocol import name_of

        names = ", ".join(name_of(rule) for rule in puzzle.rules)
        raise ValueError(f"the {fmt} format cannot store rules ({names}); write the puzzle as json")


def _check_size(geometry: Triangle, source: str | None, line: int | None) -> None:
    longest = max(geometry.family_size(f) for f in geometry.families)
    if longest > MAX_SIDE or geometry.cell_count > MAX_CELLS:
        raise PuzzleTooLarge(f"a triddler of sides {' '.join(map(str, geometry.sides))} is too large "
                             f"(at most {MAX_SIDE} lanes of a family and {MAX_CELLS} cells)", source, line)


# ---------------------------------------------------------------------------------------------
# webpbn XML


def read_xml(data: str | bytes, source: str | None) -> list[LanePuzzle]:
    """The triddlers of a webpbn XML document (every ``<puzzle>`` must be a triddler)."""
    root, lines = _parse_tree(data, source)
    if root.tag == "puzzle":
        return [_TriddlerReader(root, lines, source, [], None).build_triddler()]
    if root.tag != "puzzleset":
        raise ParseError(f"expected a <puzzleset> root element, found <{root.tag}>", source, lines.get(root))
    set_meta = _properties(root)
    set_title = _title(root) or None
    puzzles = [_TriddlerReader(p, lines, source, set_meta, set_title).build_triddler()
               for p in root if p.tag == "puzzle"]
    if not puzzles:
        raise ParseError("no <puzzle> element in the <puzzleset>", source, lines.get(root))
    return puzzles


_ImageRow = tuple[str, str, tuple["str | None", ...]]
"""A goal image row as read: its opening and closing characters and its cells' colour names."""


class _TriddlerReader(_Puzzle):
    """webpbn's grid reader (:class:`satnono.formats.webpbn._Puzzle`: colours, counts, blots,
    properties) with a triddler's clue sets and solution image."""

    def build_triddler(self) -> LanePuzzle:
        elem = self.elem
        kind = elem.get("type", "grid")
        if kind != "triddler":
            raise self.error(f"a puzzle of type {kind!r}, not a triddler (read it as a grid)", elem)
        chars = self.declare_colours()
        sets: dict[str, tuple[Blocks, ...]] = {}
        for c in elem.iter("clues"):
            set_name = c.get("type", "")
            if set_name not in CLUE_SETS:
                raise self.error(f"a triddler's <clues> type is one of {', '.join(CLUE_SETS)}; got {set_name!r}", c)
            if set_name in sets:
                raise self.error(f"a second <clues type={set_name!r}>", c)
            sets[set_name] = tuple(self.clue_line(line) for line in c if line.tag == "line")
        image_elem, image = self.triddler_goal(chars)
        if sets:
            try:
                geometry = Triangle(*(len(sets.get(name, ())) for name in SIDE_ORDER))
            except ValueError as e:
                counts = ", ".join(f"{name} {len(sets.get(name, ()))}" for name in CLUE_SETS)
                raise self.error(f"the clue sets ({counts}) make no hexagon: {e}", elem) from None
        elif image is not None:
            geometry = self.geometry_of_image(image, image_elem)
        else:
            raise self.error("a triddler needs its <clues> sets (topleft ... bottomright) or a goal image", elem)
        _check_size(geometry, self.source, self.lines.get(elem))
        if image is not None:
            self.check_image(geometry, image, image_elem)
        pal, index = self.palette()
        goal = None
        if image is not None:
            chars_of = {name: pal[i].char for name, i in index.items()}
            goal = "".join(WHITE if n is None else chars_of[n] for _, _, row in image for n in row)
        if sets:
            lines = [sets.get(name, ()) for name in ("topleft", "bottomleft", "top", "topright", "bottom",
                                                     "bottomright")]
            clues = tuple(_line_clue(blocks, index) for group in lines for blocks in group)
        else:
            assert goal is not None
            clues = clues_of_picture(geometry, goal, pal)
        name = _title(elem)
        if not name:
            name = self.set_title or name
        meta = _properties(elem)
        have = {k for k, _ in meta}
        meta += [(k, v) for k, v in self.set_meta if k not in have]
        return LanePuzzle(geometry, clues, pal, name, tuple(meta), goal)

    def triddler_goal(self, chars: dict[str, str]) -> tuple[ET.Element | None, list[_ImageRow] | None]:
        """The first goal image's rows (with their end characters), or ``(None, None)``."""
        for sol in self.elem.iter("solution"):
            if sol.get("type", "goal") != "goal":
                continue
            image = sol.find("image")
            if image is None:
                raise self.error("<solution> without an <image>", sol)
            return image, self.triddler_image(image, chars)
        return None, None

    def triddler_image(self, image: ET.Element, chars: dict[str, str]) -> list[_ImageRow]:
        text = image.text or ""
        rows: list[_ImageRow] = []
        i, n = 0, len(text)
        while True:
            while i < n and text[i] not in _ROW_DELIMITERS:
                if not text[i].isspace():
                    raise self.error(f"goal image has {text[i]!r} outside its rows (each row is written "
                                     f"between '/' or '\\' characters)", image)
                i += 1
            if i == n:
                break
            start, i = text[i], i + 1
            cells: list[str | None] = []
            while i < n and text[i] not in _ROW_DELIMITERS:
                ch = text[i]
                colour = chars.get(ch)
                if colour is None:
                    if not ch.isspace():
                        raise self.error(f"goal image uses undeclared character {ch!r}", image)
                elif colour == self.background:
                    cells.append(None)
                else:
                    cells.append(self.use_colour(colour, image))
                i += 1
            if i == n:
                raise self.error(f"goal image row {len(rows) + 1} has no closing '/' or '\\'", image)
            rows.append((start, text[i], tuple(cells)))
            i += 1
        if not rows:
            raise self.error("the goal image is empty", image)
        return rows

    def geometry_of_image(self, image: list[_ImageRow], elem: ET.Element | None) -> Triangle:
        """The outline a goal image draws: its row ends give the bends, its first row the top."""
        a = sum(1 for left, _, _ in image if left == "/")
        e = sum(1 for _, right, _ in image if right == "\\")
        b, d = len(image) - a, len(image) - e
        for f in range(len(image[0][2]) + 1):
            try:
                geometry = Triangle(a, b, f + a - d, d, e, f)
            except ValueError:
                continue
            if geometry.row_lengths() == tuple(len(row) for _, _, row in image):
                return geometry
        raise self.error("the goal image's rows draw no hexagon of triangles", elem)

    def check_image(self, geometry: Triangle, image: list[_ImageRow], elem: ET.Element | None) -> None:
        if len(image) != geometry.rows:
            raise self.error(f"the goal image has {len(image)} rows, the clues {geometry.rows}", elem)
        for r, (left, right, cells) in enumerate(image):
            want = geometry.row_ends(r)
            if (left, right) != want:
                raise self.error(f"goal image row {r + 1} must be written {want[0]}...{want[1]} (the slope of "
                                 f"the outline), got {left}...{right}", elem)
            if len(cells) != len(geometry.row_cells(r)):
                raise self.error(f"goal image row {r + 1} has {len(cells)} cells, the outline "
                                 f"{len(geometry.row_cells(r))}", elem)


def _line_clue(blocks: Sequence[tuple[int | str, str]], index: dict[str, int]) -> LineClue:
    """A clue of ``(length, colour name)`` blocks, a blotted length ``"?"``."""
    blots = sum(1 << j for j, (n, _) in enumerate(blocks) if n == BLOT)
    return LineClue(tuple(1 if n == BLOT else int(n) for n, _ in blocks), tuple(index[c] for _, c in blocks), blots)


def write_xml(puzzle: LanePuzzle) -> str:
    """The triddler as a one-puzzle webpbn XML document: colours and properties as
    :func:`satnono.formats.webpbn.write` writes a grid's, the six clue sets, and the goal image
    when there is one.

    Raises:
        ValueError: not a triddler, a name or property XML cannot hold, a goal whose colour
            character is ``/`` (it would end the image's rows), given cells or rules (only json
            holds them).
    """
    geometry = _triangle(puzzle, "the triddler XML writer")
    _no_rules(puzzle, "xml")
    pal = puzzle.palette
    colour = pal != BW_PALETTE
    out = xml_head(puzzle, "triddler")
    shown = [c.char for c in pal] if colour else [WHITE, "X"]
    names = [quoteattr(c.name) for c in pal]
    for set_name in CLUE_SETS:
        out.append(f'<clues type="{set_name}">')
        for clue in clue_set(puzzle, set_name):
            out.append("<line>" + "".join(
                f"<count>{0 if clue.is_blotted(j) else n}</count>" if c == 1
                else f"<count color={names[c]}>{0 if clue.is_blotted(j) else n}</count>"
                for j, (n, c) in enumerate(zip(clue.lengths, clue.colors))) + "</line>")
        out.append("</clues>")
    if puzzle.goal is not None:
        slash = [c.name for c, ch in zip(pal, shown) if ch in _ROW_DELIMITERS]
        if slash:
            raise ValueError(f"colour {slash[0]!r} is drawn {'/'!r}, which ends the rows of a triddler's "
                             f"goal image; give it another character")
        to_shown = {c.char: ch for c, ch in zip(pal, shown)}
        cells = "".join(to_shown[ch] for ch in puzzle.goal)
        out += ['<solution type="goal">', "<image>"]
        out += [escape(row) for row in geometry.text_rows(cells)]
        out += ["</image>", "</solution>"]
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------------------------------
# Olšák .g


def read_g(data: str | bytes, source: str | None) -> list[LanePuzzle]:
    """The one triddler of an Olšák ``.g`` file with ``#t``."""
    text = decode_text(data, source, latin1=True) if isinstance(data, bytes) else data
    lines = split_lines(text)
    marks = [i for i, line in enumerate(lines) if line.lstrip().startswith(":")]
    triddler = False
    in_table = False
    table: dict[str, _Colour] = {}
    for i in range(marks[0] if marks else len(lines)):
        s = lines[i].strip()
        if s[:2] in ("#t", "#T"):
            triddler = True
        if s[:2] in ("#d", "#D"):
            in_table = True
        elif s.startswith("#"):
            in_table = False
        elif in_table and s and not s.startswith("6:"):  # 6: the colour outside the hexagon (XPM)
            entry = _table_entry(lines[i], i + 1, source)
            if entry is not None:
                if entry.key in table:
                    raise ParseError(f"colour {entry.key!r} declared twice (first on line {table[entry.key].line})",
                                     source, i + 1)
                table[entry.key] = entry
    if not triddler:
        if all(is_blank(x) for x in lines):
            raise ParseError("empty file", source)
        raise ParseError("not a triddler: no '#t' line before the first ':' line", source,
                         marks[0] + 1 if marks else 1)
    if len(marks) < 6:
        raise ParseError(f"a triddler has six groups of clue lines ({', '.join(G_GROUPS)}), each after a ':' "
                         f"line; found {len(marks)} ':' lines", source, (marks[-1] + 1) if marks else len(lines) or 1)
    groups = [list(range(marks[g] + 1, marks[g + 1])) for g in range(5)]
    a, b, c, d, e = map(len, groups)
    f = c + d - a
    try:
        geometry = Triangle(a, b, c, d, e, f)
    except ValueError as err:
        raise ParseError(f"the groups of {a}, {b}, {c}, {d} and {e} lines (A..E) make no hexagon: {err}",
                         source, marks[4] + 1) from None
    _check_size(geometry, source, marks[0] + 1)
    end = marks[6] if len(marks) > 6 else len(lines)
    top = list(range(marks[5] + 1, end))
    surplus = [i for i in top[f:] if not is_blank(lines[i])]
    if surplus:
        raise ParseError(f"the Top group has {f} lines (F = C + D - A); this one is more", source, surplus[0] + 1)
    if len(top) < f and len(marks) > 6:
        raise ParseError(f"the Top group has {len(top)} lines before the closing ':' line; the outline needs "
                         f"F = C + D - A = {f}", source, marks[6] + 1)
    groups.append(top[:f])
    raw = [[(i + 1, split_blocks(lines[i], False, source, i + 1)) for i in group] for group in groups]
    raw[5] += [(len(lines), [])] * (f - len(raw[5]))  # lines missing at the end of the file: empty clues
    palette, index = colour_keys([item for group in raw for item in group], table, source, marks[0] + 1)

    def clue(blocks: list[tuple[int, str | None]], backwards: bool) -> LineClue:
        pairs = [(n, index["1" if k is None else k]) for n, k in blocks]
        if backwards:
            pairs.reverse()
        return LineClue(tuple(n for n, _ in pairs), tuple(col for _, col in pairs))

    tl, bl, bottom, br, tr, tp = raw
    rows = [clue(blk, False) for _, blk in tl + bl]
    slash = [clue(blk, False) for _, blk in reversed(tp)] + [clue(blk, False) for _, blk in reversed(tr)]
    back = [clue(blk, True) for _, blk in bottom + br]
    return [LanePuzzle(geometry, tuple(rows + slash + back), palette)]


def write_g(puzzle: LanePuzzle) -> str:
    """The triddler as an Olšák ``.g`` file: ``#t``, a colour table unless it is black and white,
    the six groups A..F and a closing ``:`` line.  The title, properties and goal are left out.

    Raises:
        ValueError: not a triddler, a blotted clue (``.g`` cannot hold one), given cells or rules
            (only json holds them).
    """
    _triangle(puzzle, "the .g writer")
    _no_rules(puzzle, "g")
    for lane, clue in zip(puzzle.lanes, puzzle.clues):
        if clue.blots:
            raise ValueError(f"the g format cannot hold blotted clues ({lane.name} has one); write the triddler "
                             f"as xml or json")
    pal = puzzle.palette
    out = ["#t"]
    keys = ["1"] * len(pal)
    if pal != BW_PALETTE:
        free = iter(ch for ch in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                    if ch not in {c.char for c in pal[1:]})
        keys = ["0"] + [c.char if c.char.isascii() and c.char.isalpha() else next(free) for c in pal[1:]]
        out.append("#d")
        for key, col in zip(keys, pal):
            spec_text = col.name if rgb_of_name(col.name) == col.rgb and col.name.isalpha() else col.hex
            shown = WHITE if key == "0" else col.char
            out.append(f"   {key}:{shown}  {spec_text}   {' '.join(col.name.split())}")
    bw = pal == BW_PALETTE

    def text(clue: LineClue, backwards: bool) -> str:
        items = [f"{n}" if bw else f"{n}{keys[c]}" for n, c in zip(clue.lengths, clue.colors)]
        return " ".join(reversed(items) if backwards else items)

    groups = {
        "TopLeft": [text(c, False) for c in clue_set(puzzle, "topleft")],
        "BottomLeft": [text(c, False) for c in clue_set(puzzle, "bottomleft")],
        "Bottom": [text(c, True) for c in clue_set(puzzle, "bottom")],
        "BottomRight": [text(c, True) for c in clue_set(puzzle, "bottomright")],
        "TopRight": [text(c, False) for c in reversed(clue_set(puzzle, "topright"))],
        "Top": [text(c, False) for c in reversed(clue_set(puzzle, "top"))],
    }
    for name in G_GROUPS:
        out.append(f": {name}")
        out += groups[name]
    out.append(": end")
    return "\n".join(out) + "\n"
