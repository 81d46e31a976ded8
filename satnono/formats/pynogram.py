"""pynogram's INI-like text files (``[clues]`` with ``columns =`` and ``rows =``).

The syntax, as pynogram's own example files use it::

    # a comment; so is a line starting with ';'
    [colors]                 # optional: NAME = (DESCRIPTION) CHAR
    r = (red) %              # (keys may be indented)

    [clues]
    columns = 3 1, 1 1 1,    # clues separated by commas and/or new lines
        '1 1 1', "1 3"       # an item may be quoted
    rows =
        4                    # 0 or '' is an empty line
        1, 4, 1              # the first value may follow '=' or start on the next line
        4                    # continuation lines are indented deeper than their key

``#`` and ``;`` start a comment at the beginning of a line or after a space.
A block may carry a colour suffix (``2r``): the name of an entry of the
``[colors]`` section, whose description is an SVG colour name (``red``), an RGB
triple (``(89, 11, 255)``) or hex digits (``88CC44``), and whose character
shows the colour in grids (kept when it is usable, else a free one is chosen).
A block without a suffix is black (pynogram's default colour).  A colour used
by a clue but not defined is an error naming the line; a file whose blocks use
one colour is a black-and-white puzzle.

nonogrid's TOML files (:mod:`satnono.formats.nonogrid`) hold the same clue
lists in TOML strings and share :func:`parse_items`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError
from ..model import MAX_SIDE, Clue, Puzzle
from ._palette import RGB, build_palette, puzzle_of_blocks, rgb_of_name, rgb_of_spec
from ._text import check_size, parse_int, split_lines, strip_comment

#: A block as written: its length and its colour name (None: the default colour, black).
Block = tuple[int, "str | None"]

_SECTION = re.compile(r"\s*\[\s*([^\]]*?)\s*\]\s*")
_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*[=:](.*)")
_BLOCK = re.compile(r"([0-9]+)\s*([A-Za-z_][\w-]*)?")
_COLOUR_DEF = re.compile(r"\(\s*(.*?)\s*\)\s*(\S)?\s*")


@dataclass(frozen=True, slots=True)
class ColourDef:
    """One entry of a ``[colors]`` section: ``name = (description) char``."""

    name: str
    description: str
    char: str | None
    line: int | None


def parse_block(token: str, source: str | None, line: int | None) -> Block:
    """``3`` or ``3r`` (a colour suffix) as ``(length, colour)``."""
    m = _BLOCK.fullmatch(token)
    if m is None:
        raise ParseError(f"a block should be a number with an optional colour letter, got {token[:20]!r}",
                         source, line)
    n = parse_int(m.group(1), "block length", source, line)
    if n > MAX_SIDE:
        raise ParseError(f"block length {n} is longer than any supported line (at most {MAX_SIDE} cells)",
                         source, line)
    return n, m.group(2)


def parse_items(text: str, first_line: int, source: str | None) -> list[tuple[int, list[Block]]]:
    """The clues of a ``columns``/``rows`` value: ``(line number, blocks)`` per clue.

    Items are separated by commas and new lines; blank and comment lines only
    separate; a trailing comma is allowed; quotes around an item are dropped;
    ``0`` or an empty quoted item is an empty clue.
    """
    out: list[tuple[int, list[Block]]] = []
    for k, raw in enumerate(text.split("\n")):
        line_no = first_line + k
        body = strip_comment(raw).strip()
        if not body:
            continue
        if body.endswith(","):
            body = body[:-1]
        for item in body.split(","):
            item = item.strip()
            if len(item) >= 2 and item[0] == item[-1] and item[0] in "'\"":
                item = item[1:-1].strip()
            elif item[:1] in ("'", '"') or item[-1:] in ("'", '"'):
                raise ParseError(f"unbalanced quote in {item[:30]!r}", source, line_no)
            blocks = [parse_block(t, source, line_no) for t in item.split()]
            out.append((line_no, [b for b in blocks if b[0]]))
    return out


DEFAULT_COLOUR = "black"
_TRIPLE = re.compile(r"\(?\s*([0-9]+)\s*,\s*([0-9]+)\s*,\s*([0-9]+)\s*\)?")


def colour_rgb(d: ColourDef, source: str | None) -> RGB:
    """The RGB of a ``[colors]`` entry: an SVG colour name, an RGB triple or hex digits."""
    m = _TRIPLE.fullmatch(d.description)
    if m is not None:
        rgb = tuple(int(x) for x in m.groups())
        if any(x > 255 for x in rgb):
            raise ParseError(f"colour {d.name!r}: RGB values must be 0..255, got {d.description[:30]!r}",
                             source, d.line)
        return rgb  # type: ignore[return-value]
    try:
        return rgb_of_spec(d.description)
    except ValueError as e:
        raise ParseError(f"colour {d.name!r}: {e}", source, d.line) from None


def to_puzzle(columns: list[tuple[int, list[Block]]], rows: list[tuple[int, list[Block]]],
              defs: list[ColourDef], source: str | None, line: int | None) -> Puzzle:
    """The puzzle of parsed clues over the ``[colors]`` definitions (black and white when
    the blocks use only black; a lone colour of its own is kept)."""
    by_name = {d.name: d for d in defs}
    used: dict[str, int] = {}  # colour name -> line of first use, in order of first use
    for ln, blocks in (*columns, *rows):
        for _, key in blocks:
            used.setdefault(key or DEFAULT_COLOUR, ln)
    if not used or (len(used) == 1 and DEFAULT_COLOUR in used and DEFAULT_COLOUR not in by_name):
        def plain(items: list[tuple[int, list[Block]]]) -> tuple[Clue, ...]:
            return tuple(tuple(n for n, _ in blocks) for _, blocks in items)

        return build(plain(columns), plain(rows), source, line)
    order = sorted(used, key=lambda k: k != DEFAULT_COLOUR)  # black (the default) first, then by first use
    colours = []
    for key in order:
        d = by_name.get(key)
        if d is None:
            if key != DEFAULT_COLOUR:
                raise ParseError(f"colour {key!r} is not defined in [colors]", source, used[key])
            colours.append((key, ["#"], (0, 0, 0)))
            continue
        prefs = [c for c in (d.char, key if len(key) == 1 else None) if c]
        name = d.description if rgb_of_name(d.description) is not None else key  # "red", else the key
        colours.append((name, prefs, colour_rgb(d, source)))
    palette = build_palette(None, colours, source, line)
    index = {key: i for i, key in enumerate(order, 1)}

    def blocks_of(items: list[tuple[int, list[Block]]]) -> list[tuple[tuple[int, int], ...]]:
        return [tuple((n, index[key or DEFAULT_COLOUR]) for n, key in blocks) for _, blocks in items]

    check_size(len(columns), len(rows), source, line)
    return puzzle_of_blocks(blocks_of(rows), blocks_of(columns), palette)


def parse_colour_def(name: str, value: str, source: str | None, line: int | None) -> ColourDef:
    m = _COLOUR_DEF.fullmatch(value.strip())
    if m is None:
        raise ParseError(f"a colour should read NAME = (DESCRIPTION) CHAR, got {value.strip()[:30]!r}",
                         source, line)
    return ColourDef(name, m.group(1), m.group(2), line)


def build(columns: tuple[Clue, ...], rows: tuple[Clue, ...], source: str | None, line: int | None) -> Puzzle:
    check_size(len(columns), len(rows), source, line)
    return Puzzle(rows=rows, columns=columns)


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a pynogram text file."""
    lines = split_lines(text)
    section: str | None = None
    values: dict[tuple[str, str], tuple[int, list[str]]] = {}  # (section, key) -> (first line, value lines)
    current: tuple[str, str] | None = None
    key_indent = 0
    for i, raw in enumerate(lines, 1):
        body = strip_comment(raw)
        if not body.strip():
            continue
        indent = len(body) - len(body.lstrip())
        if current is not None and indent > key_indent:  # a continuation line (indented deeper than its key)
            values[current][1].append(body)
            continue
        m = _SECTION.fullmatch(body)
        if m is not None:
            section = m.group(1).lower()
            current = None
            continue
        km = _KEY.fullmatch(body.strip())
        if km is None:
            raise ParseError(f"expected 'KEY = VALUE' or a [section], got {body.strip()[:30]!r}", source, i)
        if section is None:
            raise ParseError("a value before any [section] (expected [clues])", source, i)
        current = (section, km.group(1).lower())
        if current in values:
            raise ParseError(f"{km.group(1)!r} given twice in [{section}]", source, i)
        values[current] = (i, [km.group(2)])
        key_indent = indent
    for name in ("columns", "rows"):
        if ("clues", name) not in values:
            raise ParseError(f"no '{name} =' in a [clues] section", source, len(lines) or None)
    defs = [parse_colour_def(key, "\n".join(v), source, line)
            for (sec, key), (line, v) in values.items() if sec in ("colors", "colours")]
    clues = {}
    for name in ("columns", "rows"):
        line, v = values[("clues", name)]
        clues[name] = parse_items("\n".join(v), line, source)
    return [to_puzzle(clues["columns"], clues["rows"], defs, source, values[("clues", "columns")][0])]
