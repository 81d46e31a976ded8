'''nonogrid's TOML files: pynogram's clue lists in TOML strings.

::

    [colors]                        # optional
    defs = ['r = (red) %']          # NAME = (DESCRIPTION) CHAR, as in pynogram

    [clues]
    columns = """
        3 1, 1 1 1
        '1 1 1', 1 3
    """
    rows = "4, 1, 4, 1, 4"

``columns`` and ``rows`` are strings (or arrays of strings, one clue each) in
the syntax of :mod:`satnono.formats.pynogram`, comments included.  The TOML is
read with the standard library's ``tomllib`` (``tomli`` before Python 3.11).
Colour puzzles are refused for now, as in pynogram's files.
'''

from __future__ import annotations

import re
from typing import Any

from ..errors import ParseError
from ..model import Puzzle
from .pynogram import parse_colour_def, parse_items, to_puzzle

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

_AT_LINE = re.compile(r"\(at line (\d+)")


def _key_line(text: str, key: str) -> int | None:
    """The 1-based line of ``key =`` in the raw text (for error messages)."""
    m = re.search(rf"(?m)^[ \t]*{key}[ \t]*=[ \t]*(\"\"\"|''')?[ \t]*(\r?\n)?", text)
    if m is None:
        return None
    line = text.count("\n", 0, m.start()) + 1
    return line + 1 if m.group(1) and m.group(2) else line  # TOML drops the newline after """


def _value(clues: dict[str, Any], key: str, text: str, source: str | None) -> list:
    line = _key_line(text, key)
    if key not in clues:
        raise ParseError(f"no '{key} =' in the [clues] table", source)
    v = clues[key]
    if isinstance(v, str):
        return parse_items(v, line or 1, source)
    if isinstance(v, list) and all(isinstance(x, (str, int)) and not isinstance(x, bool) for x in v):
        items = []
        for x in v:
            got = parse_items(str(x), line or 1, source)
            if len(got) != 1:
                raise ParseError(f"each entry of the {key} array should be one clue, got {str(x)[:30]!r}",
                                 source, line)
            items.append(got[0])
        return items
    raise ParseError(f"{key} should be a string of clues, got a TOML {type(v).__name__}", source, line)


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a nonogrid TOML file."""
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        m = _AT_LINE.search(str(e))
        msg = _AT_LINE.split(str(e))[0].strip() or "invalid TOML"
        raise ParseError(f"invalid TOML: {msg}", source, int(m.group(1)) if m else None) from None
    except RecursionError:
        raise ParseError("invalid TOML: nested too deeply", source) from None
    clues = doc.get("clues")
    if not isinstance(clues, dict):
        raise ParseError("no [clues] table", source)
    colours = doc.get("colors", doc.get("colours", {}))
    if not isinstance(colours, dict):
        raise ParseError("[colors] should be a table", source)
    defs = colours.get("defs", [])
    if not isinstance(defs, list) or not all(isinstance(d, str) for d in defs):
        raise ParseError("[colors] defs should be an array of strings", source, _key_line(text, "defs"))
    parsed = []
    for d in defs:
        name, sep, value = d.partition("=")
        if not sep or not name.strip():
            raise ParseError(f"a colour should read NAME = (DESCRIPTION) CHAR, got {d[:30]!r}", source,
                             _key_line(text, "defs"))
        parsed.append(parse_colour_def(name.strip(), value, source, _key_line(text, "defs")))
    columns = _value(clues, "columns", text, source)
    rows = _value(clues, "rows", text, source)
    return [to_puzzle(columns, rows, parsed, source, _key_line(text, "columns"))]
