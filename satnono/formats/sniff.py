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
    rectangle at least 2 wide and 2 high (a 0/1 picture rather than numbers), and then
    before the suffix's format too.

:func:`order` puts the suffix's format first when it is a candidate; when there
is no candidate it gives just the suffix's format (so that its reader reports
the precise error).  :func:`satnono.formats.loads` tries the readers in that
order and takes the first that reads the file: the content decides, the suffix
only breaks ties.  :func:`sniff` is the first of :func:`order`.
"""

from __future__ import annotations

import os
import re
from typing import Iterable

from ..palette import is_hex
from ._text import is_digits, split_lines, strip_comment

#: The one table of file suffixes: the format each names (lower case; a format may have several,
#: its usual one first).  It is the reading hint (:func:`format_from_suffix`), the format
#: :func:`satnono.formats.save` and ``convert`` write a file in, and the suffixes ``--help``
#: lists (:func:`formats_text`).  Formats whose files share another format's suffix have none
#: of their own: the content tells them apart (``tournament``, ``pynogram`` and picross-solver's
#: own files are ``.txt``, Nonny's are ``.non``).
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
    ".picross": "picross",
}

_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
_NON_WORDS = frozenset({"width", "height", "rows", "columns", "goal", "title", "by", "copyright", "catalogue",
                        "license", "maxrule", "color", "colour"})
_SECTIONS = ("clues", "colors", "colours")  # pynogram's and nonogrid's section names
#: Cell characters of a text grid, black then white.
GRID_BLACK, GRID_WHITE = "#Xx1", ".-0"
GRID_CELLS = frozenset(GRID_BLACK + GRID_WHITE)

#: Formats recognised by an unmistakable signature (the numbered points 1-4 above): when
#: the content shows one, the file is in it, and its reader's error is the one to report.
SIGNATURE_FORMATS = frozenset({"pbm", "xml", "json", "tournament", "picross", "pynogram", "nonogrid", "nonogramsorg",
                               "pzl"})

# The patterns are compiled when first used (re caches them): telling a file's format tries few.
_PBM = {"14": r"P[14](?:\s|#)", "36": r"P[36](?:\s|#)"}
_HEX_COLOR = r"#[0-9A-Fa-f]{6}"
_TOURNAMENT_HEADER = r"\$\s*\S*"
_SECTION = r"\s*\[\s*([^\]]*?)\s*\]\s*"
_NONNY_COLOR = r"(?i)\s*colou?r\s+(\S+)\s+#?([0-9A-Fa-f]{6})(?:\s+(\S))?\s*"
_NAMED_CLUE = r"\s*[A-Za-z][\w-]*:?[\s,]+[0-9]"
_SPACED = r"\S(?:[ \t]\S)*"
_HEADERLESS_LINE = r"[0-9]+(?:\t+[0-9]+)*|"
_TOML = r'(?m)"""|\'\'\'|^[ \t]*defs[ \t]*='


def _netpbm(head: str | bytes, digits: str) -> bool:
    """``P`` and one of ``digits`` then whitespace or ``#`` (``P1``/``P4``: PBM, ``P3``/``P6``: PPM)."""
    if isinstance(head, bytes):
        return re.match(_PBM[digits].encode(), head) is not None
    return re.match(_PBM[digits], head) is not None


def is_hex_color(token: str) -> bool:
    """``#rrggbb``."""
    return re.fullmatch(_HEX_COLOR, token) is not None


def tournament_header(line: str) -> bool:
    """A ``$<n>`` puzzle header (a stripped line): ``$``, then at most one word."""
    return re.fullmatch(_TOURNAMENT_HEADER, line) is not None


def section_header(line: str) -> str | None:
    """The name in a ``[name]`` line (a comment after it allowed), lower-case; None for other lines."""
    m = re.fullmatch(_SECTION, strip_comment(line))
    return None if m is None else m.group(1).lower()


def looks_like_pynogram(lines: list[str]) -> bool:
    """True when a line is a ``[clues]`` or ``[colors]`` section header (pynogram, nonogrid)."""
    return any(section_header(line) in _SECTIONS for line in lines)


def looks_like_pzl(filled: list[str]) -> bool:
    """True when the first non-blank lines are a colour count and a ``#rrggbb`` colour."""
    return len(filled) >= 2 and filled[0].isdigit() and is_hex_color(filled[1].split()[0])


def looks_like_picross(filled: list[str]) -> bool:
    """True when the first line that is not a comment is a ``GRID`` line."""
    for line in filled:
        if line.startswith("#"):
            continue
        return line.split(None, 1)[0] == "GRID"
    return False


def nonny_color(s: str) -> tuple[str, str, str | None] | None:
    """A stripped ``color NAME RRGGBB [C]`` line (``colour`` too, any case; ``#`` before the RGB
    optional) as ``(NAME, RRGGBB, C or None)``; None for any other line."""
    m = re.fullmatch(_NONNY_COLOR, s)
    return None if m is None else (m.group(1), m.group(2), m.group(3))


def _named_clue(s: str) -> bool:
    """A clue line that starts with a colour name (``red 1 yellow 4``, ``red: 1``): a letter, word
    characters or ``-``, an optional ``:``, then separators and a digit."""
    return re.match(_NAMED_CLUE, s) is not None


def looks_like_nonny(lines: list[str]) -> bool:
    """True when a ``.non`` file is in the Nonny game's colour dialect rather than mikix's."""
    in_block = False
    for line in lines:
        s = line.strip()
        if not s:
            continue
        color = nonny_color(s)
        if color is not None and (len(color[0]) > 1 or color[2] is not None):  # mikix: 'color a #ff0000'
            return True
        if s.lower().split()[0] in ("rows", "columns") and len(s.split()) == 1:
            in_block = True
            continue
        if in_block and _named_clue(s) and s.split()[0].rstrip(":").lower() not in _NON_WORDS:
            return True
        if s[:1].isalpha():
            in_block = False
    return False


def _spaced(x: str) -> bool:
    """Cells separated by single spaces or TABs (``# . #``)."""
    return re.fullmatch(_SPACED, x) is not None


def grid_rows(lines: list[str]) -> list[str]:
    """The lines of a text grid with trailing whitespace removed, and the separators of spaced cells."""
    rows = [x.rstrip() for x in lines]
    body = [x.lstrip() for x in rows if x]
    if body and all(_spaced(x) for x in body) and any(len(x) > 1 for x in body):
        return ["".join(x.split()) for x in rows]
    return rows


def looks_like_grid(lines: list[str]) -> bool:
    """True when every non-blank line holds grid characters only."""
    body = [x for x in grid_rows(lines) if x]
    return bool(body) and all(ch in GRID_CELLS for x in body for ch in x)


def looks_like_picture(lines: list[str]) -> bool:
    """A grid of at least two rows, all of the same length (at least 2): more likely a picture
    than a list of numbers even when its rows are 0/1 digits."""
    body = [x for x in grid_rows(lines) if x]
    return (looks_like_grid(lines) and len(body) >= 2 and len(body[0]) >= 2
            and all(len(x) == len(body[0]) for x in body))


def looks_headerless(lines: list[str]) -> bool:
    """True for a headerless tournament puzzle: TAB-separated numbers only, an even line count, some TAB."""
    body = list(lines)
    while body and not body[-1].strip():
        body.pop()
    if not body or len(body) % 2 or not any("\t" in x for x in body):
        return False
    # each line: numbers separated by TABs (x.strip() takes TABs at the ends away)
    return all(re.fullmatch(_HEADERLESS_LINE, x.strip()) for x in body)


def _toml(text: str) -> bool:
    """TOML's multi-line strings or a ``defs`` key: nonogrid's dialect rather than pynogram's."""
    return re.search(_TOML, text) is not None


def format_from_suffix(path: str) -> str | None:
    """The format a file name's suffix suggests, or ``None``.

    >>> format_from_suffix("puzzles/Dancer.NON")
    'non'
    """
    return SUFFIXES.get(os.path.splitext(path)[1].lower())


def suffixes_of(fmt: str) -> tuple[str, ...]:
    """The suffixes :data:`SUFFIXES` gives ``fmt``, its usual one first.

    >>> suffixes_of("xml"), suffixes_of("tournament")
    (('.xml', '.pbn'), ())
    """
    return tuple(suffix for suffix, name in SUFFIXES.items() if name == fmt)


def formats_text(formats: Iterable[str]) -> str:
    """The formats with their suffixes, as help text and errors list them.

    >>> formats_text(["xml", "nin", "tournament"])
    'xml (.xml, .pbn), nin (.nin), tournament'
    """
    return ", ".join(f"{fmt} ({', '.join(suffixes_of(fmt))})" if suffixes_of(fmt) else fmt for fmt in formats)


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
        if _netpbm(head, "14"):
            return ["pbm"]
        if _netpbm(head, "36"):
            return ["ppm"]
        text = data.decode("utf-8", errors="replace")
        if _saved_page(text):
            return ["nonogramsorg"]
        if head.startswith(b"<"):
            return ["xml"]
    else:
        text = data
    start = text.lstrip("\ufeff \t\r\n\v\f")
    if _netpbm(start, "14"):
        return ["pbm"]
    if _netpbm(start, "36"):
        return ["ppm"]
    if _saved_page(text):  # a saved puzzle page (HTML): before XML
        return ["nonogramsorg"]
    if start[:1] == "<":
        return ["xml"]
    lines = split_lines(text)
    if start[:1] == "[" and looks_like_pynogram(lines):  # a [clues] section, not a JSON list
        return ["nonogrid", "pynogram"] if _toml(text) else ["pynogram", "nonogrid"]
    if start[:1] in ("{", "["):
        return ["json"]
    filled = [x.strip() for x in lines if x.strip()]
    if not filled:
        return []
    if tournament_header(filled[0]):
        return ["tournament"]
    if looks_like_pzl(filled):
        return ["pzl"]
    if looks_like_picross(filled):
        return ["picross"]
    if looks_like_pynogram(lines):
        return ["nonogrid", "pynogram"] if _toml(text) else ["pynogram", "nonogrid"]
    out = []
    picture = looks_like_picture(lines)
    if picture:
        out.append("txt")
    if any(x.split(None, 1)[0].lower() in _NON_WORDS for x in filled):
        out += ["nonny", "non"] if looks_like_nonny(lines) else ["non"]
    if any(x.startswith(":") for x in filled):
        out.append("g")
    if looks_headerless(lines):
        out.append("tournament")
    first = filled[0].split()
    if len(first) == 2 and is_digits(first[0]) and is_digits(first[1]):
        out += ["mk"] if "#" in filled else ["nin", "mk"]
    if len(filled) >= 2 and is_digits(filled[0]) and is_digits(filled[1]):
        out.append("cwd")
    if not picture and looks_like_grid(lines):
        out.append("txt")
    return out


def order(data: str | bytes, hint: str | None = None) -> list[str]:
    """The formats to try on ``data``, in order: the candidates, ``hint`` (the suffix's
    format) first when it is one of them (but after ``txt`` for a picture); just ``[hint]`` when
    there is no candidate.

    >>> order("01\\n01\\n00\\n00\\n", "cwd"), order("2\\n1\\n1\\n1\\n1\\n", "cwd")
    (['txt', 'cwd'], ['cwd'])
    """
    found = candidates(data)
    if hint in found and not (found[0] == "txt" and hint != "txt" and _picture(data)):
        return [hint] + [f for f in found if f != hint]
    if found:
        return found
    return [hint] if hint else []


def _picture(data: str | bytes) -> bool:
    """A rectangle of picture cells at least 2x2 (point 10): a picture whatever the suffix says."""
    text = data.decode("utf-8", errors="replace") if isinstance(data, bytes) else data
    return looks_like_picture(split_lines(text))


def sniff(data: str | bytes, hint: str | None = None) -> str | None:
    """The format of ``data``: the ``hint`` (from the suffix) if plausible, else the best guess.

    >>> sniff("5 5\\n1\\n")
    'nin'
    >>> sniff("3\\n3\\n1\\n", hint="cwd")
    'cwd'
    """
    tried = order(data, hint)
    return tried[0] if tried else None
