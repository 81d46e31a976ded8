"""Telling a puzzle file's format from its content, with the file suffix as a hint.

:func:`candidates` lists the formats the content could be, most likely first:

1. ``pbm``: starts with ``P1`` or ``P4`` then whitespace or ``#`` (exclusive);
   likewise ``ppm`` with ``P3`` or ``P6``; ``png``: the PNG signature (exclusive);
2. ``xml``: the first non-blank character is ``<`` (exclusive);
3. ``json``: the first non-blank character is ``{`` or ``[`` (exclusive);
4. ``tournament``: the first non-blank line is a ``$<n>`` header (exclusive);
5. ``non``: some line starts with a ``.non`` keyword (``width``, ``height``,
   ``rows``, ``columns``, ``goal``, ``title``, ``by``, ``copyright``,
   ``catalogue``, ``license``, ``maxrule``, ``color``);
6. ``g``: some line starts with ``:``;
7. ``tournament`` (headerless): only TAB-separated numbers and blank lines,
   some TAB, an even number of lines (the other clue-list formats use spaces);
8. ``mk``: the first non-blank line is two numbers and a later line is ``#``;
   otherwise ``nin`` then ``mk`` when the first line is two numbers;
9. ``cwd``: the first two non-blank lines are one number each;
10. ``txt``: every non-blank line holds only ``#``, ``.``, ``X``, ``x``, ``-``.

:func:`sniff` returns the suffix's format when it is a candidate, else the first
candidate, else the suffix's format (so that its reader reports the precise
error), else ``None``.
"""

from __future__ import annotations

import os
import re

from ._text import split_lines
from .textgrid import looks_like_grid
from .tournament import looks_headerless

SUFFIXES = {
    ".non": "non",
    ".nonpack": "non",
    ".level": "level",
    ".xml": "xml",
    ".pbn": "xml",
    ".nin": "nin",
    ".mk": "mk",
    ".cwd": "cwd",
    ".g": "g",
    ".txt": "txt",
    ".json": "json",
    ".pbm": "pbm",
    ".ppm": "ppm",
    ".png": "png",
}

_PBM = re.compile(r"P[14](?:\s|#)")
_PBM_BYTES = re.compile(rb"P[14](?:\s|#)")
_PPM = re.compile(r"P[36](?:\s|#)")
_PPM_BYTES = re.compile(rb"P[36](?:\s|#)")
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_NON_WORD = re.compile(
    r"(?:width|height|rows|columns|goal|title|by|copyright|catalogue|license|maxrule|colou?r)(?:\s|$)",
    re.IGNORECASE,
)
_TWO_INTS = re.compile(r"[0-9]+\s+[0-9]+")
_ONE_INT = re.compile(r"[0-9]+")
_HEADER = re.compile(r"\$\s*\S*")


def format_from_suffix(path: str) -> str | None:
    """The format a file name's suffix suggests, or ``None``.

    >>> format_from_suffix("puzzles/Dancer.NON")
    'non'
    """
    return SUFFIXES.get(os.path.splitext(path)[1].lower())


def candidates(data: str | bytes) -> list[str]:
    """The formats ``data`` could be in, most likely first (see the module doc)."""
    if isinstance(data, bytes):
        if data.startswith(_PNG_MAGIC):
            return ["png"]
        head = data.lstrip(b" \t\r\n\v\f")
        if head.startswith(b"\xef\xbb\xbf"):
            head = head[3:].lstrip(b" \t\r\n\v\f")
        if _PBM_BYTES.match(head):
            return ["pbm"]
        if _PPM_BYTES.match(head):
            return ["ppm"]
        if head.startswith(b"<"):
            return ["xml"]
        text = data.decode("utf-8", errors="replace")
    else:
        text = data
    start = text.lstrip("\ufeff \t\r\n\v\f")
    if _PBM.match(start):
        return ["pbm"]
    if _PPM.match(start):
        return ["ppm"]
    if start[:1] == "<":
        return ["xml"]
    if start[:1] in ("{", "["):
        return ["json"]
    lines = split_lines(text)
    filled = [x.strip() for x in lines if x.strip()]
    if not filled:
        return []
    if _HEADER.fullmatch(filled[0]):
        return ["tournament"]
    out = []
    if any(_NON_WORD.match(x) for x in filled):
        out.append("non")
    if any(x.startswith(":") for x in filled):
        out.append("g")
    if looks_headerless(lines):
        out.append("tournament")
    if _TWO_INTS.fullmatch(filled[0]):
        out += ["mk"] if "#" in filled else ["nin", "mk"]
    if len(filled) >= 2 and _ONE_INT.fullmatch(filled[0]) and _ONE_INT.fullmatch(filled[1]):
        out.append("cwd")
    if looks_like_grid(lines):
        out.append("txt")
    return out


def sniff(data: str | bytes, hint: str | None = None) -> str | None:
    """The format of ``data``: the ``hint`` (from the suffix) if plausible, else the best guess.

    >>> sniff("5 5\\n1\\n")
    'nin'
    >>> sniff("3\\n3\\n1\\n", hint="cwd")
    'cwd'
    """
    found = candidates(data)
    if hint in found:
        return hint
    if found:
        return found[0]
    return hint
