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
A block may carry a colour suffix (``2r``); colour puzzles are refused for now
with :class:`~satnono.errors.UnsupportedPuzzle`, but blocks are parsed as
``(length, colour name or None)`` and the ``[colors]`` section into
:class:`ColourDef`, so that reading them in colour is a small change.

nonogrid's TOML files (:mod:`satnono.formats.nonogrid`) hold the same clue
lists in TOML strings and share :func:`parse_items`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import ParseError, UnsupportedPuzzle
from ..model import MAX_SIDE, Clue, Puzzle
from ._text import COLOUR_MESSAGE, check_size, parse_int, split_lines

#: A block as written: its length and its colour name (None: the default colour, black).
Block = tuple[int, "str | None"]

_SECTION = re.compile(r"\s*\[\s*([^\]]*?)\s*\]\s*")
_KEY = re.compile(r"([A-Za-z_][\w-]*)\s*[=:](.*)")
_BLOCK = re.compile(r"([0-9]+)\s*([A-Za-z_][\w-]*)?")
_COLOUR_DEF = re.compile(r"\(\s*(.*?)\s*\)\s*(\S)?\s*")

#: Section headers that mark a file as pynogram's (or nonogrid's).
SECTIONS = ("clues", "colors", "colours")


@dataclass(frozen=True, slots=True)
class ColourDef:
    """One entry of a ``[colors]`` section: ``name = (description) char``."""

    name: str
    description: str
    char: str | None
    line: int | None


def strip_comment(line: str) -> str:
    """``line`` without a ``#``/``;`` comment (one that starts the line or follows whitespace)."""
    for i, ch in enumerate(line):
        if ch in "#;" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


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


def to_clues(items: list[tuple[int, list[Block]]], source: str | None) -> tuple[Clue, ...]:
    """Block lists as b/w clues; a colour block is refused (colour support comes later)."""
    clues = []
    for line, blocks in items:
        if any(colour is not None for _, colour in blocks):
            raise UnsupportedPuzzle(COLOUR_MESSAGE, source, line)
        clues.append(tuple(n for n, _ in blocks))
    return tuple(clues)


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
    palette = [parse_colour_def(key, "\n".join(v), source, line)
               for (sec, key), (line, v) in values.items() if sec in ("colors", "colours")]
    del palette  # parsed (and checked) now; used once colour puzzles are supported
    clues = {}
    for name in ("columns", "rows"):
        line, v = values[("clues", name)]
        clues[name] = to_clues(parse_items("\n".join(v), line, source), source)
    return [build(clues["columns"], clues["rows"], source, values[("clues", "columns")][0])]


def looks_like(lines: list[str]) -> bool:
    """True when a line is a ``[clues]`` or ``[colors]`` section header."""
    for line in lines:
        m = _SECTION.fullmatch(strip_comment(line))
        if m is not None and m.group(1).lower() in SECTIONS:
            return True
    return False
