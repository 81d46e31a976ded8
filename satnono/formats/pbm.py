"""Netpbm bitmaps: plain ``P1`` (read and written) and raw ``P4`` (read only).

A picture, 1 = black; its clues are derived from it and it becomes the goal.
``#`` comments are allowed in the header (and, for P1, among the pixels).  The
size is checked against the limits before any pixel is read.  Data after the
P4 raster is ignored (Netpbm allows several images in one file); after a P1
raster only whitespace and comments may follow.  Header comments that read
``# Key: value`` are the title (``# Title: ...``) and the properties, as the
writer writes them (text on one line, see :mod:`satnono.formats._comments`);
other comments are not kept.
"""

from __future__ import annotations

import re

from ..errors import ParseError
from ..model import BLACK, WHITE, Puzzle
from ._comments import comment_lines, parse_comment
from ._palette import require_bw
from ._text import check_size, parse_int

_SPACE = b" \t\r\n\v\f"
_TO_CELLS = str.maketrans({"1": BLACK, "0": WHITE})


class _Header:
    def __init__(self, data: bytes, source: str | None, kind: str = "PBM") -> None:
        self.data = data
        self.pos = 0
        self.line = 1
        self.source = source
        self.kind = kind
        self.comments: list[str] = []  # the header's comment lines, '#' included

    def properties(self) -> tuple[str | None, tuple[tuple[str, str], ...]]:
        """The title and the properties of the header's ``# Key: value`` comments."""
        name = None
        meta = []
        for line in self.comments:
            pair = parse_comment(line)
            if pair is None:
                continue
            if pair[0] == "title" and name is None:
                name = pair[1]
            else:
                meta.append(pair)
        return name, tuple(meta)

    def token(self, what: str) -> str:
        data = self.data
        while self.pos < len(data):
            ch = data[self.pos]
            if ch in _SPACE:
                self.line += ch == 0x0A
                self.pos += 1
            elif ch == 0x23:  # '#': a comment to the end of the line
                end = data.find(b"\n", self.pos)
                end = len(data) if end < 0 else end
                self.comments.append(_comment_text(data[self.pos:end]))
                self.pos = end
            else:
                break
        start = self.pos
        while self.pos < len(data) and data[self.pos] not in _SPACE and data[self.pos] != 0x23:
            self.pos += 1
        if start == self.pos:
            raise ParseError(f"the {self.kind} header ends before the {what}", self.source, self.line)
        return data[start : self.pos].decode("latin-1")


def _comment_text(raw: bytes) -> str:
    """A header comment's text: UTF-8 (as the writers write it), else Latin-1."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def with_properties(puzzle: Puzzle, head: _Header) -> Puzzle:
    """``puzzle`` with the title and properties of ``head``'s comments (the puzzle unchanged when it has none)."""
    name, meta = head.properties()
    return puzzle if name is None and not meta else puzzle.replace(name=name, meta=meta)


def open_header(data: bytes, source: str | None, noun: str, magics: tuple[bytes, ...]) -> tuple[_Header, bytes, int, int]:
    """The Netpbm header's magic number, width and height (checked against the size
    limits), with the reader positioned after the height."""
    stripped = data.lstrip(_SPACE)
    head = _Header(stripped, source, noun.split()[0])
    head.line += data[: len(data) - len(stripped)].count(b"\n")
    magic = head.data[:2]
    if magic not in magics:
        expected = " or ".join(repr(m.decode()) for m in magics)
        raise ParseError(f"not a {noun} (expected {expected})", source, 1)
    head.pos = 2
    width = parse_int(head.token("width"), "width", source, head.line)
    height = parse_int(head.token("height"), "height", source, head.line)
    check_size(width, height, source, head.line)
    return head, magic, width, height


def read(data: bytes | str, source: str | None) -> list[Puzzle]:
    """The picture of a PBM file as a puzzle with that goal."""
    if isinstance(data, str):
        try:
            data = data.encode("latin-1" if data.lstrip().startswith("P4") else "utf-8")
        except UnicodeError:
            raise ParseError("a raw (P4) PBM must be read as bytes", source) from None
    head, magic, width, height = open_header(data, source, "PBM bitmap", (b"P1", b"P4"))
    grid = _raw(head, width, height) if magic == b"P4" else _plain(head, width, height)
    return [with_properties(Puzzle.from_grid(grid), head)]


def _raw(head: _Header, width: int, height: int) -> tuple[str, ...]:
    data, pos = head.data, head.pos
    if pos >= len(data) or data[pos] not in _SPACE:
        raise ParseError("expected one whitespace byte after the P4 header", head.source, head.line)
    pos += 1
    row_bytes = (width + 7) // 8
    need = row_bytes * height
    if len(data) - pos < need:
        raise ParseError(
            f"truncated P4 image: {need} bytes of pixels expected, {len(data) - pos} found", head.source
        )
    bits = 8 * row_bytes
    return tuple(
        format(int.from_bytes(data[pos + r * row_bytes : pos + (r + 1) * row_bytes], "big"), f"0{bits}b")[
            :width
        ].translate(_TO_CELLS)
        for r in range(height)
    )


def _plain(head: _Header, width: int, height: int) -> tuple[str, ...]:
    need = width * height
    text = head.data[head.pos :].decode("latin-1")
    pixels: list[str] = []
    have = 0
    for k, raw in enumerate(text.split("\n")):
        line = head.line + k
        body = "".join(raw.split("#", 1)[0].split())
        if not body:
            continue
        if have >= need:
            raise ParseError("unexpected data after the image", head.source, line)
        if re.fullmatch(r"[01]+", body) is None:
            bad = next(ch for ch in body if ch not in "01")
            raise ParseError(f"a P1 pixel must be 0 or 1, got {bad!r}", head.source, line)
        if have + len(body) > need:
            raise ParseError("unexpected data after the image", head.source, line)
        pixels.append(body)
        have += len(body)
    if have < need:
        raise ParseError(
            f"the image has {have} pixels, {width}x{height} = {need} expected",
            head.source,
            head.line + text.rstrip("\r\n").count("\n"),
        )
    flat = "".join(pixels).translate(_TO_CELLS)
    return tuple(flat[r * width : (r + 1) * width] for r in range(height))


def write(puzzle: Puzzle) -> str:
    """The goal as a plain (P1) PBM; lines are at most 70 characters long.

    >>> write(Puzzle.from_grid(["#.", ".#"]))
    'P1\\n2 2\\n10\\n01\\n'

    Raises:
        ValueError: when the puzzle has no goal.
    """
    require_bw(puzzle, "pbm")
    if puzzle.goal is None:
        raise ValueError("the pbm format stores a picture, and this puzzle has no goal to write")
    out = ["P1", *comment_lines(puzzle.name, puzzle.meta)]
    out.append(f"{puzzle.width} {puzzle.height}")
    for row in puzzle.goal:
        bits = "".join("1" if ch == BLACK else "0" for ch in row)
        out += [bits[i : i + 70] for i in range(0, len(bits), 70)]
    return "\n".join(out) + "\n"
