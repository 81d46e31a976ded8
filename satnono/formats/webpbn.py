"""Jan Wolter's webpbn XML format (``.xml``, ``.pbn``), black and white or colour.

Parsed with :mod:`defusedxml` (no entity expansion, no external references, and
the DTD named in a ``<!DOCTYPE>`` is never fetched).  Reading rules:

* The root is ``<puzzleset>`` (a bare ``<puzzle>`` root is accepted too) with
  one or more ``<puzzle>`` elements.
* ``<clues type="rows|columns">`` hold one ``<line>`` per row/column with
  ``<count>`` children; an empty ``<line/>`` is an empty line.
* Colours: the background is ``backgroundcolor`` (default ``white``); a count
  without ``color`` has ``defaultcolor`` (default ``black``).  ``<color
  name="red" char="*">FF0000</color>`` declares a colour (RGB of 3 or 6 hex
  digits).  ``white`` and ``black`` used without a declaration are ``fff``
  (``.``) and ``000`` (``X``); another colour named only in a ``count color=``
  is added when its name is a common colour name (or when the file declares
  no colour at all, with a default RGB), else it is an error.  The palette
  holds the colours the blocks use (clues and goal image): the default colour
  first, then the others in declaration order.  Each block colour keeps its
  webpbn ``char`` unless that is unusable (``.``, ``?``, ``|``, ``[``,
  ``]``, space, or taken) and then gets a free one; the background's char
  becomes ``.``.  A puzzle whose blocks use one colour is black and white
  (``#``), as are number-loom's exports (``defaultcolor="white"`` with every
  count marked ``color="black"``).
* A ``<puzzle type="triddler">`` is a triddler (triangular cells), read by
  :mod:`satnono.formats.triddler` into a :class:`~satnono.lanepuzzle.LanePuzzle`
  with the colours, blots and properties read as here; a puzzleset may mix grids
  and triddlers, each read as what it is.  Another ``type`` raises
  :class:`UnsupportedPuzzle`.
* A blotted clue (``<count>0</count>``, as webpbn writes it) is a block of
  unknown length, at least 1, in the colour of its ``color`` attribute (or the
  default colour); the writer writes a blot back the same way.
* The first ``<solution>`` of type ``goal`` (the default type) becomes the goal:
  rows delimited by ``|``, whitespace outside a declared colour character
  ignored.  Missing clues are derived from the goal.
* ``title`` becomes the name; every other child element of the ``<puzzle>`` that
  holds text alone (webpbn's ``author authorid copyright description source id
  note``, and any other, such as ``<catalogue>`` or ``<license>``) goes to ``meta``
  under its tag, and ``<meta name="KEY">value</meta>`` under its ``name``, in file
  order (puzzleset-level ones are appended when the puzzle lacks them).  The text
  is kept as written, surrounding spaces and line breaks included (as pbnsolve
  reads it; pretty-printers leave a text-only element's content alone); an empty
  element is no property, and an empty ``<title>`` is an empty name.
* The writer writes the name and every property: webpbn's own elements, any other
  key that can be a tag as ``<key>``, and a key that cannot (not an XML name, or
  a tag of the format's structure) as ``<meta name="key">``; readers that do not
  know them (pbnsolve) skip them.  XML 1.0 cannot hold control characters other
  than tab, line feed and carriage return: a name or property holding one is
  refused (ValueError), not written without it.

Errors carry the line of the offending element.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser

from ..errors import ParseError, UnsupportedPuzzle
from ..lanepuzzle import LanePuzzle
from ..model import BLACK, BLOT, BW_PALETTE, WHITE, Color, Palette, Puzzle, default_rgb, parse_rgb
from ._palette import RGB, build_palette, puzzle_of_blocks, rgb_of_name
from ._text import check_size, parse_block


#: Tags of the format's structure: never read as a property, and a property with such a key
#: is written ``<meta name="key">``.
_STRUCTURE_TAGS = frozenset({"puzzleset", "puzzle", "title", "color", "clues", "line", "count", "solution", "image",
                             "meta"})
#: A key written as its own element: an XML name of ASCII letters, digits, ``_ - .`` (not ``xml...``).
_TAG = re.compile(r"(?!(?i:xml))[A-Za-z_][A-Za-z0-9_.-]*")
#: Characters XML 1.0 cannot hold, even as a character reference.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")
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


def _properties(parent: ET.Element) -> list[tuple[str, str]]:
    """The properties among ``parent``'s children, in file order: ``<meta name="KEY">`` and every
    element holding text alone that is not part of the format's structure, its text as written
    (an empty one is no property)."""
    out = []
    for c in parent:
        if not isinstance(c.tag, str) or c.tag.startswith("{") or len(c):
            continue
        value = c.text or ""
        if c.tag == "meta":
            key = c.get("name")
            if key and value:
                out.append((key, value))
        elif c.tag not in _STRUCTURE_TAGS and value:
            out.append((c.tag, value))
    return out


def _title(parent: ET.Element) -> str | None:
    """The text of the first ``<title>`` child, as written (None: there is none)."""
    title = parent.find("title")
    return None if title is None else "".join(title.itertext())


def read(data: str | bytes, source: str | None) -> list[Puzzle | LanePuzzle]:
    """All puzzles of a webpbn XML document: grids as :class:`~satnono.model.Puzzle`, triddlers
    as :class:`~satnono.lanepuzzle.LanePuzzle`."""
    root, lines = _parse_tree(data, source)
    if root.tag == "puzzle":
        return [_read_puzzle(root, lines, source, [], None)]
    if root.tag != "puzzleset":
        raise ParseError(f"expected a <puzzleset> root element, found <{root.tag}>", source, lines.get(root))
    set_meta = _properties(root)
    set_title = _title(root) or None
    puzzles = [_read_puzzle(p, lines, source, set_meta, set_title) for p in root if p.tag == "puzzle"]
    if not puzzles:
        raise ParseError("no <puzzle> element in the <puzzleset>", source, lines.get(root))
    return puzzles


def _read_puzzle(elem: ET.Element, lines: dict[ET.Element, int], source: str | None,
                 set_meta: list[tuple[str, str]], set_title: str | None) -> Puzzle | LanePuzzle:
    """One ``<puzzle>``: a grid, or a triddler (read by :mod:`satnono.formats.triddler`)."""
    if elem.get("type", "grid") == "triddler":
        from .triddler import _TriddlerReader

        return _TriddlerReader(elem, lines, source, set_meta, set_title).build_triddler()
    return _Puzzle(elem, lines, source, set_meta, set_title).build()


Blocks = tuple[tuple["int | str", str], ...]
"""A clue as read: ``(length, colour name)`` per block; a blotted length is ``"?"``."""


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
        self.used: dict[str, ET.Element] = {}  # block colour -> first element using it
        self.declared: dict[str, tuple[str | None, RGB, ET.Element]] = {}  # name -> (char, rgb, element)
        self.char_names: dict[str, str] = {}  # declared char -> colour name

    def error(self, message: str, elem: ET.Element | None) -> ParseError:
        return ParseError(message, self.source, self.lines.get(elem) if elem is not None else None)

    def use_colour(self, colour: str, elem: ET.Element) -> str:
        """Record a block colour (a name, or a declared colour's ``char`` when no colour has that
        name) and return its name."""
        if colour not in self.declared and colour in self.char_names:
            colour = self.char_names[colour]
        if colour == self.background:
            raise self.error(f"a block has the background colour {colour!r}", elem)
        self.used.setdefault(colour, elem)
        return colour

    def clue_line(self, line: ET.Element) -> Blocks:
        blocks = []
        for count in line:
            if count.tag != "count":
                continue
            n: int | str = parse_block(_text(count), self.source, self.lines.get(count))
            if n == 0:  # webpbn's blot: a hidden length, at least 1
                n = BLOT
            colour = self.use_colour(count.get("color", self.default), count)
            blocks.append((n, colour))
        return tuple(blocks)

    def declare_colours(self) -> dict[str, str]:
        """Read the ``<color>`` elements; the colour name of each declared char."""
        chars: dict[str, str] = {}
        for c in self.elem.iter("color"):
            name, char = c.get("name"), c.get("char")
            if name is None:
                raise self.error("<color> without a name", c)
            if char is not None:
                if len(char) != 1:
                    raise self.error(f"colour char must be one character, got {char!r}", c)
                chars[char] = name
            if _text(c):
                try:
                    rgb = parse_rgb(_text(c))
                except ValueError as e:
                    raise self.error(f"colour {name!r}: {e}", c) from None
            else:
                rgb = rgb_of_name(name) or default_rgb(len(self.declared) + 1)
            self.declared[name] = (char, rgb, c)
        self.char_names = dict(chars)
        if self.default not in self.declared and self.default in chars:
            self.default = chars[self.default]
        names = set(chars.values())
        for name, char in (("white", "."), ("black", "X")):
            if name not in names and char not in chars:
                chars[char] = name
        return chars

    def palette(self) -> tuple[Palette, dict[str, int]]:
        """The palette of the used colours and the index of each colour name."""
        declared = list(self.declared)
        order = sorted(self.used, key=lambda n: (n != self.default, n not in self.declared,
                                                 declared.index(n) if n in self.declared else 0))
        blocks = [(name, *self.colour_of(name)) for name in order]
        _, bg_rgb = self.colour_of(self.background)
        pal = build_palette(Color(self.background, WHITE, bg_rgb), blocks, self.source, self.lines.get(self.elem))
        return pal, {name: i for i, name in enumerate(order, 1)}

    def colour_of(self, name: str) -> tuple[list[str], RGB]:
        """The preferred chars and RGB of a colour name."""
        if name in self.declared:
            char, rgb, _ = self.declared[name]
            return ([char] if char else []), rgb
        fallback = {"white": ".", "black": "X"}
        named = rgb_of_name(name)
        if named is None:
            if self.declared:
                raise self.error(f"colour {name!r} is not declared by a <color> element", self.used.get(name, self.elem))
            # no palette in the file: distinct default colours (the background stays white)
            named = default_rgb(list(self.used).index(name) + 1) if name in self.used else BW_PALETTE[0].rgb
        return ([fallback[name]] if name in fallback else []), named

    def build(self) -> Puzzle:
        elem = self.elem
        kind = elem.get("type", "grid")
        if kind != "grid":
            raise UnsupportedPuzzle(f"puzzle type {kind!r} is not supported", self.source, self.lines.get(elem))
        chars = self.declare_colours()
        clues: dict[str, tuple[Blocks, ...]] = {}
        for c in elem.iter("clues"):
            kind = c.get("type", "")
            if kind not in ("rows", "columns"):
                raise self.error(f"<clues> type must be 'rows' or 'columns', got {kind!r}", c)
            if kind in clues:
                raise self.error(f"a second <clues type={kind!r}>", c)
            clues[kind] = tuple(self.clue_line(line) for line in c if line.tag == "line")
            if not clues[kind]:
                raise self.error(f"<clues type={kind!r}> has no <line>", c)
        named_goal = self.goal(chars)
        rows, columns = clues.get("rows"), clues.get("columns")
        if named_goal is not None:
            image = next(elem.iter("image"))
            if (rows is not None and len(rows) != len(named_goal)) or (
                columns is not None and len(columns) != len(named_goal[0])
            ):
                raise self.error(
                    f"the goal is {len(named_goal[0])}x{len(named_goal)} but the clues are "
                    f"{len(columns) if columns is not None else '?'}x{len(rows) if rows is not None else '?'}",
                    image,
                )
        elif rows is None or columns is None:
            missing = "rows" if rows is None else "columns"
            raise self.error(f"no <clues type={missing!r}> and no goal to derive them from", elem)
        pal, index = self.palette()
        chars_of = {name: pal[i].char for name, i in index.items()}
        goal = None
        if named_goal is not None:
            goal = tuple("".join(WHITE if n is None else chars_of[n] for n in row) for row in named_goal)
        width = len(columns) if columns is not None else len(named_goal[0]) if named_goal else 0
        height = len(rows) if rows is not None else len(named_goal) if named_goal else 0
        check_size(width, height, self.source, self.lines.get(elem))
        name = _title(elem)
        if not name:
            name = self.set_title or name  # an empty <title/>: the set's title, else an empty name
        meta = _properties(elem)
        have = {k for k, _ in meta}
        meta += [(k, v) for k, v in self.set_meta if k not in have]
        return puzzle_of_blocks(
            None if rows is None else [tuple((n, index[c]) for n, c in line) for line in rows],
            None if columns is None else [tuple((n, index[c]) for n, c in line) for line in columns],
            pal, goal, name=name, meta=tuple(meta),
        )

    def goal(self, chars: dict[str, str]) -> tuple[tuple[str | None, ...], ...] | None:
        for sol in self.elem.iter("solution"):
            if sol.get("type", "goal") != "goal":
                continue
            image = sol.find("image")
            if image is None:
                raise self.error("<solution> without an <image>", sol)
            return self.image(image, chars)
        return None

    def image(self, image: ET.Element, chars: dict[str, str]) -> tuple[tuple[str | None, ...], ...]:
        """The goal image as rows of colour names (``None`` for the background)."""
        parts = (image.text or "").split("|")
        if len(parts) % 2 == 0:
            raise self.error("goal image rows must be enclosed in '|' characters", image)
        if any(p.strip() for p in parts[::2]):
            raise self.error("goal image has text outside the '|...|' rows", image)
        rows = []
        for part in parts[1::2]:
            cells: list[str | None] = []
            for ch in part:
                colour = chars.get(ch)
                if colour is None:
                    if ch.isspace():
                        continue
                    raise self.error(f"goal image uses undeclared character {ch!r}", image)
                if colour == self.background:
                    cells.append(None)
                else:
                    self.use_colour(colour, image)
                    cells.append(colour)
            rows.append(tuple(cells))
        if not rows or not rows[0]:
            raise self.error("the goal image is empty", image)
        if any(len(r) != len(rows[0]) for r in rows):
            raise self.error("goal image rows have different lengths", image)
        check_size(len(rows[0]), len(rows), self.source, self.lines.get(image))
        return tuple(rows)


def _meta_text(s: str, what: str) -> str:
    """A name or property as XML character data, exactly (spaces kept, a carriage return as
    ``&#13;``, which a parser would otherwise read as a line feed).

    Raises:
        ValueError: ``s`` holds a character XML 1.0 cannot hold.
    """
    bad = _NOT_XML.search(s)
    if bad is not None:
        raise ValueError(f"the xml format cannot store {what}: it holds the control character "
                         f"U+{ord(bad.group()):04X}, which XML 1.0 cannot hold; write the puzzle as non or json")
    return escape(s, {"\r": "&#13;"})


def xml_head(puzzle, kind: str) -> list[str]:  # type: ignore[no-untyped-def]
    """The lines of a one-puzzle webpbn document up to its clues, for a puzzle (a grid or a
    triddler) of ``kind`` (the ``type`` attribute): the ``<puzzle>`` element with the default
    and background colours, the title, the properties and the ``<color>`` declarations (black and
    white as white ``.`` and black ``X``)."""
    pal = puzzle.palette
    colour = pal != BW_PALETTE
    head = f'<puzzle type="{kind}" defaultcolor="black">'
    if colour:
        bg = "" if pal[0].name == "white" else f" backgroundcolor={quoteattr(pal[0].name)}"
        head = f'<puzzle type="{kind}" defaultcolor={quoteattr(pal[1].name)}{bg}>'
    out = ['<?xml version="1.0"?>', DOCTYPE, "<puzzleset>", head]
    if puzzle.name is not None:
        out.append(f"<title>{_meta_text(puzzle.name, 'the title')}</title>")
    for k, v in puzzle.meta:
        value = _meta_text(v, f"property {k!r}")
        if _TAG.fullmatch(k) and k not in _STRUCTURE_TAGS:
            out.append(f"<{k}>{value}</{k}>")
        else:
            _meta_text(k, f"the key of property {k!r}")  # refused as the value would be
            out.append(f"<meta name={quoteattr(k)}>{value}</meta>")
    if colour:
        out += [f"<color name={quoteattr(c.name)} char={quoteattr(c.char)}>{c.hex[1:].upper()}</color>" for c in pal]
    else:
        out += [
            f'<color name="white" char={quoteattr(".")}>FFFFFF</color>',
            f'<color name="black" char={quoteattr("X")}>000000</color>',
        ]
    return out


def write(puzzle: Puzzle) -> str:
    """The puzzle as a one-puzzle webpbn XML document.

    Black and white uses white ``.`` and black ``X``; a colour puzzle declares
    its palette (names, characters, RGB), makes colour 1 the ``defaultcolor``
    and marks every other block with ``color=``.
    """

    def text(s: str) -> str:
        s = "".join(ch for ch in s if ch in "\t\n\r" or (ch >= " " and ch not in "\ufffe\uffff" and not "\ud800" <= ch <= "\udfff"))
        return escape(s, {"\r": "&#13;"})

    pal = puzzle.palette
    colour = pal != BW_PALETTE  # colour, a one-colour puzzle of its own (red 'r') or a background of its own
    out = xml_head(puzzle, "grid")
    names = [quoteattr(c.name) for c in pal]
    for kind, count in (("columns", puzzle.width), ("rows", puzzle.height)):
        out.append(f'<clues type="{kind}">')
        for i in range(count):
            clue = puzzle.clue("row" if kind == "rows" else "column", i)
            out.append(
                "<line>"
                + "".join(
                    f"<count>{0 if clue.is_blotted(j) else n}</count>" if c == 1
                    else f"<count color={names[c]}>{0 if clue.is_blotted(j) else n}</count>"
                    for j, (n, c) in enumerate(zip(clue.lengths, clue.colors))
                )
                + "</line>"
            )
        out.append("</clues>")
    if puzzle.goal is not None:
        out += ['<solution type="goal">', "<image>"]
        if colour:
            out += ["|" + text(row) + "|" for row in puzzle.goal]
        else:
            out += ["|" + row.replace(BLACK, "X") + "|" for row in puzzle.goal]
        out += ["</image>", "</solution>"]
    out += ["</puzzle>", "</puzzleset>"]
    return "\n".join(out) + "\n"
