"""A puzzle's title and properties as ``# Key: value`` comment lines.

picross-solver writes its grids' metadata so (``# Author: ...`` before a ``GRID`` line), and
the Netpbm pictures (``.pbm``, ``.ppm``) take comments in their header: other readers skip
them, satnono's keep them.  A comment is one line, so what such a format holds is the text
on one line: line breaks and runs of whitespace become one space, spaces at either end go,
keys are read in lower case.  A key is a word of letters, digits, ``_`` and spaces, at most
31 characters, from an ASCII letter (the comments that read so are taken as properties, not
prose); a property with another key cannot be held (see :func:`held_key`).

>>> comment_lines("  The  Dancer ", (("author", "Jan\\nWolter"), ("a:b", "x")))
['# Title: The Dancer', '# Author: Jan Wolter']
>>> parse_comment("# Author: Jan Wolter "), parse_comment("# a remark"), parse_comment("#Size:2x2")
(('author', 'Jan Wolter'), None, ('size', '2x2'))
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"#\s*([A-Za-z][\w ]{0,30}?)\s*:\s*(.*\S)\s*")
_KEY = re.compile(r"[A-Za-z][\w ]{0,30}")


def one_line(text: str) -> str:
    """``text`` on one line: whitespace runs (line breaks too) as one space, none at either end."""
    return " ".join(text.split())


def held_key(key: str, title: bool = True) -> bool:
    """Whether a property with ``key`` can be written as a comment that reads back (to the key in
    lower case, whitespace runs as one space); with ``title`` (the name is a ``# Title:``
    comment), not a property named ``title``."""
    key = one_line(key)
    return _KEY.fullmatch(key) is not None and not (title and key.lower() == "title")


def comment_lines(name: str | None, meta: tuple[tuple[str, str], ...], title: bool = True) -> list[str]:
    """``# Key: value`` lines for the properties that can be held (see :func:`held_key`), after
    ``# Title: ...`` for the name when ``title``; a blank value is none."""
    pairs = [("title", name)] if title and name is not None else []
    pairs += [(k, v) for k, v in meta if held_key(k, title)]
    return [f"# {one_line(k).capitalize()}: {one_line(v)}" for k, v in pairs if one_line(v)]


def parse_comment(line: str) -> tuple[str, str] | None:
    """``(key, value)`` of a ``# Key: value`` comment line (the key in lower case); None for another line."""
    m = _COMMENT.fullmatch(line.strip())
    if m is None:
        return None
    return one_line(m.group(1)).lower(), m.group(2)
