"""Telling a puzzle file's format from its content, with the file suffix as a hint.

:func:`candidates` lists the formats the content could be, most likely first:

1. ``pbm``: starts with ``P1`` or ``P4`` then whitespace or ``#`` (exclusive);
   likewise ``ppm`` with ``P3`` or ``P6``; ``png``: the PNG signature (exclusive);
2. ``nonogramsorg``: a saved nonograms.org page's ``var d=[[...]];`` array (exclusive);
   ``xml``: the first non-blank character is ``<`` (exclusive);
3. ``json``: the first non-blank character is ``{`` or ``[`` (exclusive);
4. ``tournament``: the first non-blank line is a ``$<n>`` header (exclusive);
   ``picross``: the first line that is not a ``#`` comment is ``GRID ...`` (exclusive);
   ``pynogram`` and ``nonogrid``: a ``[clues]`` or ``[colors]`` section header
   (exclusive; ``nonogrid`` first when TOML's multi-line strings or a ``defs`` key show);
   ``pzl``: a colour count, then a ``#rrggbb`` line (exclusive);
5. ``non``: some line starts with a ``.non`` keyword (``width``, ``height``,
   ``rows``, ``columns``, ``goal``, ``title``, ``by``, ``copyright``,
   ``catalogue``, ``license``, ``maxrule``, ``color``); ``nonny`` first when the
   colours are written the Nonny game's way (``color red FF0000 #``, ``red 1 yellow 4``);
6. ``g``: some line starts with ``:``;
7. ``tournament`` (headerless): only TAB-separated numbers and blank lines,
   some TAB, an even number of lines (the other clue-list formats use spaces);
8. ``mk``: the first non-blank line is two numbers and a later line is ``#``;
   otherwise ``nin`` then ``mk`` when the first line is two numbers;
9. ``cwd``: the first two non-blank lines are one number each;
10. ``txt``: every non-blank line holds only picture cells (``#``, ``.``, ``X``,
    ``x``, ``-``, ``0``, ``1``); before ``cwd`` and ``nin`` when the lines form a
    rectangle at least 2 wide and 2 high (a 0/1 picture rather than numbers).

:func:`order` puts the suffix's format first when it is a candidate; when there
is no candidate it gives just the suffix's format (so that its reader reports
the precise error).  :func:`satnono.formats.loads` tries the readers in that
order and takes the first that reads the file: the content decides, the suffix
only breaks ties.  :func:`sniff` is the first of :func:`order`.
"""

from __future__ import annotations

import os
import re

from ._text import split_lines

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
    ".toml": "nonogrid",
    ".pzl": "pzl",
    ".html": "nonogramsorg",
    ".htm": "nonogramsorg",
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
_TOML = re.compile(r'"""|\'\'\'|^[ \t]*defs[ \t]*=', re.MULTILINE)


#: Formats recognised by an unmistakable signature (the numbered points 1-4 above): when
#: the content shows one, the file is in it, and its reader's error is the one to report.
SIGNATURE_FORMATS = frozenset({"pbm", "xml", "json", "tournament", "picross", "pynogram", "nonogrid", "nonogramsorg",
                               "pzl"})


def format_from_suffix(path: str) -> str | None:
    """The format a file name's suffix suggests, or ``None``.

    >>> format_from_suffix("puzzles/Dancer.NON")
    'non'
    """
    return SUFFIXES.get(os.path.splitext(path)[1].lower())


def _saved_page(text: str) -> bool:
    """A saved nonograms.org page (its reader is imported only for text that may be one)."""
    if "var d" not in text:
        return False
    from . import nonogramsorg

    return nonogramsorg.looks_like(text)


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
        text = data.decode("utf-8", errors="replace")
        if _saved_page(text):
            return ["nonogramsorg"]
        if head.startswith(b"<"):
            return ["xml"]
    else:
        text = data
    start = text.lstrip("\ufeff \t\r\n\v\f")
    if _PBM.match(start):
        return ["pbm"]
    if _PPM.match(start):
        return ["ppm"]
    if _saved_page(text):  # a saved puzzle page (HTML): before XML
        return ["nonogramsorg"]
    if start[:1] == "<":
        return ["xml"]
    lines = split_lines(text)
    if start[:1] == "[":
        from . import pynogram

        if pynogram.looks_like(lines):  # a [clues] section, not a JSON list
            return ["nonogrid", "pynogram"] if _TOML.search(text) else ["pynogram", "nonogrid"]
    if start[:1] in ("{", "["):
        return ["json"]
    # the readers whose tests follow are imported only when the content gets this far (a JSON,
    # XML or picture file loads none of them)
    from . import nonny, picross, pynogram, pzl
    from .textgrid import looks_like_grid, looks_like_picture
    from .tournament import looks_headerless

    filled = [x.strip() for x in lines if x.strip()]
    if not filled:
        return []
    if _HEADER.fullmatch(filled[0]):
        return ["tournament"]
    if pzl.looks_like(filled):
        return ["pzl"]
    if picross.looks_like(filled):
        return ["picross"]
    if pynogram.looks_like(lines):
        return ["nonogrid", "pynogram"] if _TOML.search(text) else ["pynogram", "nonogrid"]
    out = []
    picture = looks_like_picture(lines)
    if picture:
        out.append("txt")
    if any(_NON_WORD.match(x) for x in filled):
        out += ["nonny", "non"] if nonny.looks_like(lines) else ["non"]
    if any(x.startswith(":") for x in filled):
        out.append("g")
    if looks_headerless(lines):
        out.append("tournament")
    if _TWO_INTS.fullmatch(filled[0]):
        out += ["mk"] if "#" in filled else ["nin", "mk"]
    if len(filled) >= 2 and _ONE_INT.fullmatch(filled[0]) and _ONE_INT.fullmatch(filled[1]):
        out.append("cwd")
    if not picture and looks_like_grid(lines):
        out.append("txt")
    return out


def order(data: str | bytes, hint: str | None = None) -> list[str]:
    """The formats to try on ``data``, in order: the candidates, ``hint`` (the suffix's
    format) first when it is one of them; just ``[hint]`` when there is no candidate."""
    found = candidates(data)
    if hint in found:
        return [hint] + [f for f in found if f != hint]
    if found:
        return found
    return [hint] if hint else []


def sniff(data: str | bytes, hint: str | None = None) -> str | None:
    """The format of ``data``: the ``hint`` (from the suffix) if plausible, else the best guess.

    >>> sniff("5 5\\n1\\n")
    'nin'
    >>> sniff("3\\n3\\n1\\n", hint="cwd")
    'cwd'
    """
    tried = order(data, hint)
    return tried[0] if tried else None
