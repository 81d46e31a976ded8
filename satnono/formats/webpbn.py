"""Jan Wolter's webpbn XML format (``.xml``, ``.pbn``), black and white only.

Parsed with :mod:`defusedxml` (no entity expansion, no external references, and
the DTD named in a ``<!DOCTYPE>`` is never fetched).  Reading rules:

* The root is ``<puzzleset>`` (a bare ``<puzzle>`` root is accepted too) with
  one or more ``<puzzle>`` elements.
* ``<clues type="rows|columns">`` hold one ``<line>`` per row/column with
  ``<count>`` children; an empty ``<line/>`` is an empty line.
* Colours: the background is ``backgroundcolor`` (default ``white``); a count
  without ``color`` has ``defaultcolor`` (default ``black``).  A puzzle whose
  blocks (clues and goal image together) use more than one colour raises
  :class:`UnsupportedPuzzle`; so do triddlers and blotted clues
  (``<count>0</count>``).  ``defaultcolor="white"`` with every count marked
  ``color="black"`` (number-loom's export) is an ordinary black-and-white puzzle.
* The first ``<solution>`` of type ``goal`` (the default type) becomes the goal:
  rows delimited by ``|``, whitespace outside a declared colour character
  ignored.  Missing clues are derived from the goal.
* ``title`` becomes the name; ``author authorid copyright description source id
  note`` go to ``meta`` in file order (puzzleset-level ones are appended when
  the puzzle lacks them).

Errors carry the line of the offending element.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from ..errors import ParseError, UnsupportedPuzzle
from ..model import BLACK, WHITE, Clue, Puzzle, clues_of_grid
from ._text import COLOUR_MESSAGE, check_size, parse_block

_META_TAGS = ("author", "authorid", "copyright", "description", "source", "id", "note")
DOCTYPE = '<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">'


class _LineBuilder(ET.TreeBuilder):
    """A tree builder that remembers the line each element starts on."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[ET.Element, int] = {}
        self.parser: Any = None

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:  # type: ignore[override]
        elem = super().start(tag, attrs)
        self.lines[elem] = int(self.parser.parser.CurrentLineNumber)
        return elem


def _parse_tree(data: str | bytes, source: str | None) -> tuple[ET.Element, dict[ET.Element, int]]:
    builder = _LineBuilder()
    parser = DefusedXMLParser(target=builder)
    builder.parser = parser
    try:
        parser.feed(data)
        root = parser.close()
    except ET.ParseError as e:
        line = e.position[0] if getattr(e, "position", None) else None
        msg = str(e).split(":")[0] if str(e) else "malformed XML"
        raise ParseError(f"malformed XML: {msg}", source, line) from None
    except DefusedXmlException as e:
        line = _current_line(parser)
        kind = type(e).__name__
        what = {
            "EntitiesForbidden": "entity declarations are not allowed",
            "ExternalReferenceForbidden": "external references are not allowed",
            "DTDForbidden": "DTDs are not allowed",
        }.get(kind, "forbidden XML construct")
        raise ParseError(f"unsafe XML: {what}", source, line) from None
    except (ValueError, LookupError, UnicodeError, RecursionError) as e:
        raise ParseError(f"malformed XML: {e}", source, _current_line(parser)) from None
    return root, builder.lines


def _current_line(parser: Any) -> int | None:
    try:
        return int(parser.parser.CurrentLineNumber)
    except Exception:  # the expat parser may already be gone
        return None


def _text(elem: ET.Element) -> str:
    return "".join(elem.itertext()).strip()


def read(data: str | bytes, source: str | None) -> list[Puzzle]:
    """All puzzles of a webpbn XML document."""
    root, lines = _parse_tree(data, source)
    if root.tag == "puzzle":
        return [_Puzzle(root, lines, source, [], None).build()]
    if root.tag != "puzzleset":
        raise ParseError(f"expected a <puzzleset> root element, found <{root.tag}>", source, lines.get(root))
    set_meta = [(c.tag, _text(c)) for c in root if c.tag in _META_TAGS and _text(c)]
    set_title = next((_text(c) for c in root if c.tag == "title" and _text(c)), None)
    puzzles = [_Puzzle(p, lines, source, set_meta, set_title).build() for p in root if p.tag == "puzzle"]
    if not puzzles:
        raise ParseError("no <puzzle> element in the <puzzleset>", source, lines.get(root))
    return puzzles


class _Puzzle:
    def __init__(
        self,
        elem: ET.Element,
        lines: dict[ET.Element, int],
        source: str | None,
        set_meta: list[tuple[str, str]],
        set_title: str | None,
    ) -> None:
        self.elem = elem
        self.lines = lines
        self.source = source
        self.set_meta = set_meta
        self.set_title = set_title
        self.background = elem.get("backgroundcolor", "white")
        self.default = elem.get("defaultcolor", "black")
        self.used: dict[str, int] = {}  # block colour -> first line using it

    def error(self, message: str, elem: ET.Element | None) -> ParseError:
        return ParseError(message, self.source, self.lines.get(elem) if elem is not None else None)

    def use_colour(self, colour: str, elem: ET.Element) -> None:
        if colour == self.background:
            raise self.error(f"a block has the background colour {colour!r}", elem)
        self.used.setdefault(colour, self.lines.get(elem, 0))
        if len(self.used) > 1:
            raise UnsupportedPuzzle(COLOUR_MESSAGE, self.source, self.lines.get(elem))

    def clue_line(self, line: ET.Element) -> Clue:
        blocks = []
        for count in line:
            if count.tag != "count":
                continue
            n = parse_block(_text(count), self.source, self.lines.get(count))
            if n == 0:
                raise UnsupportedPuzzle("blotted clues are not supported yet", self.source, self.lines.get(count))
            self.use_colour(count.get("color", self.default), count)
            blocks.append(n)
        return tuple(blocks)

    def build(self) -> Puzzle:
        elem = self.elem
        kind = elem.get("type", "grid")
        if kind == "triddler":
            raise UnsupportedPuzzle("triddlers are not supported yet", self.source, self.lines.get(elem))
        if kind != "grid":
            raise UnsupportedPuzzle(f"puzzle type {kind!r} is not supported", self.source, self.lines.get(elem))
        chars: dict[str, str] = {}
        for c in elem.iter("color"):
            name, char = c.get("name"), c.get("char")
            if name is None:
                raise self.error("<color> without a name", c)
            if char is not None:
                if len(char) != 1:
                    raise self.error(f"colour char must be one character, got {char!r}", c)
                chars[char] = name
        names = set(chars.values())
        for name, char in (("white", "."), ("black", "X")):
            if name not in names and char not in chars:
                chars[char] = name
        clues: dict[str, tuple[Clue, ...]] = {}
        for c in elem.iter("clues"):
            kind = c.get("type", "")
            if kind not in ("rows", "columns"):
                raise self.error(f"<clues> type must be 'rows' or 'columns', got {kind!r}", c)
            if kind in clues:
                raise self.error(f"a second <clues type={kind!r}>", c)
            clues[kind] = tuple(self.clue_line(line) for line in c if line.tag == "line")
            if not clues[kind]:
                raise self.error(f"<clues type={kind!r}> has no <line>", c)
        goal = self.goal(chars)
        rows, columns = clues.get("rows"), clues.get("columns")
        if goal is not None:
            g_rows, g_cols = clues_of_grid(goal)
            if (rows is not None and len(rows) != len(goal)) or (columns is not None and len(columns) != len(goal[0])):
                raise self.error(
                    f"the goal is {len(goal[0])}x{len(goal)} but the clues are "
                    f"{len(columns) if columns is not None else '?'}x{len(rows) if rows is not None else '?'}",
                    next(elem.iter("image")),
                )
            rows = g_rows if rows is None else rows
            columns = g_cols if columns is None else columns
        if rows is None or columns is None:
            missing = "rows" if rows is None else "columns"
            raise self.error(f"no <clues type={missing!r}> and no goal to derive them from", elem)
        check_size(len(columns), len(rows), self.source, self.lines.get(elem))
        name = next((_text(c) for c in elem if c.tag == "title" and _text(c)), self.set_title)
        meta = [(c.tag, _text(c)) for c in elem if c.tag in _META_TAGS and _text(c)]
        have = {k for k, _ in meta}
        meta += [(k, v) for k, v in self.set_meta if k not in have]
        return Puzzle(rows=rows, columns=columns, name=name, goal=goal, meta=tuple(meta))

    def goal(self, chars: dict[str, str]) -> tuple[str, ...] | None:
        for sol in self.elem.iter("solution"):
            if sol.get("type", "goal") != "goal":
                continue
            image = sol.find("image")
            if image is None:
                raise self.error("<solution> without an <image>", sol)
            return self.image(image, chars)
        return None

    def image(self, image: ET.Element, chars: dict[str, str]) -> tuple[str, ...]:
        parts = (image.text or "").split("|")
        if len(parts) % 2 == 0:
            raise self.error("goal image rows must be enclosed in '|' characters", image)
        if any(p.strip() for p in parts[::2]):
            raise self.error("goal image has text outside the '|...|' rows", image)
        rows = []
        for part in parts[1::2]:
            cells = []
            for ch in part:
                colour = chars.get(ch)
                if colour is None:
                    if ch.isspace():
                        continue
                    raise self.error(f"goal image uses undeclared character {ch!r}", image)
                if colour == self.background:
                    cells.append(WHITE)
                else:
                    self.use_colour(colour, image)
                    cells.append(BLACK)
            rows.append("".join(cells))
        if not rows or not rows[0]:
            raise self.error("the goal image is empty", image)
        if any(len(r) != len(rows[0]) for r in rows):
            raise self.error("goal image rows have different lengths", image)
        check_size(len(rows[0]), len(rows), self.source, self.lines.get(image))
        return tuple(rows)


def write(puzzle: Puzzle) -> str:
    """The puzzle as a one-puzzle webpbn XML document (colours white ``.`` and black ``X``)."""

    def text(s: str) -> str:
        s = "".join(ch for ch in s if ch in "\t\n\r" or (ch >= " " and ch not in "\ufffe\uffff" and not "\ud800" <= ch <= "\udfff"))
        return escape(s, {"\r": "&#13;"})

    out = ['<?xml version="1.0"?>', DOCTYPE, "<puzzleset>", '<puzzle type="grid" defaultcolor="black">']
    if puzzle.name is not None:
        out.append(f"<title>{text(puzzle.name)}</title>")
    out += [f"<{k}>{text(v)}</{k}>" for k, v in puzzle.meta if k in _META_TAGS]
    out += [
        f'<color name="white" char={quoteattr(".")}>FFFFFF</color>',
        f'<color name="black" char={quoteattr("X")}>000000</color>',
    ]
    for kind, lines in (("columns", puzzle.columns), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        out += ["<line>" + "".join(f"<count>{n}</count>" for n in clue) + "</line>" for clue in lines]
        out.append("</clues>")
    if puzzle.goal is not None:
        out += ['<solution type="goal">', "<image>"]
        out += ["|" + row.replace(BLACK, "X") + "|" for row in puzzle.goal]
        out += ["</image>", "</solution>"]
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
