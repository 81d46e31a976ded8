"""Picross game levels: ``NAME.level`` with ``NAME.pbm`` and ``NAME.ppm`` beside it.

A level is three files sharing a name:

* ``NAME.level``: ``0`` or ``1`` ("completed"), optional whitespace around it;
* ``NAME.pbm``: the solution picture (any PBM :mod:`satnono.formats.pbm` reads);
* ``NAME.ppm``: the reward image shown once the level is solved.  satnono never
  reads its pixels: it is carried as bytes and written back as it was.

Reading gives the PBM's puzzle with ``("completed", "0"|"1")`` in its ``meta``.
:func:`write_files` gives the bytes of the three files; it keeps the original
bytes of a file whose content did not change (a P4 PBM stays P4), so saving an
unchanged level rewrites nothing.  :func:`save` writes them, each atomically,
the ``.level`` file last.

A level is black and white: the game reads its picture from a PBM, and
``NAME.ppm`` is already the reward image, so there is no place for a colour
picture.  Writing a colour puzzle as a level raises :class:`ValueError` with
the formats that hold colour (nothing is written).
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import ParseError
from ..model import WHITE, Puzzle
from . import pbm

SUFFIX = ".level"
COMPLETED = "completed"


@dataclass(frozen=True)
class LevelFiles:
    """The paths of a level's three files."""

    level: str
    pbm: str
    ppm: str


def paths(level_path: str) -> LevelFiles:
    """The three file names of the level at ``level_path`` (``NAME.level``)."""
    stem, _ = os.path.splitext(level_path)
    return LevelFiles(stem + SUFFIX, stem + ".pbm", stem + ".ppm")


def parse_completed(text: str | bytes, source: str | None) -> bool:
    """The ``completed`` flag of a ``.level`` file's content."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    body = text.strip()
    if body not in ("0", "1"):
        line = 1 + text[: len(text) - len(text.lstrip())].count("\n")
        shown = body.splitlines()[0][:20] if body else ""
        raise ParseError(f"a .level file holds 0 or 1 (completed), got {shown!r}", source, line)
    return body == "1"


def check_ppm(data: bytes, source: str | None) -> None:
    """Reject a reward image that is not a PPM (its pixels are not read)."""
    if data.lstrip(b" \t\r\n")[:2] not in (b"P3", b"P6"):
        raise ParseError("not a PPM image (expected 'P3' or 'P6')", source, 1)


def parse(level_text: str | bytes, pbm_data: bytes, source: str | None, pbm_source: str | None = None) -> Puzzle:
    """The puzzle of a level given the content of its ``.level`` and ``.pbm`` files."""
    done = parse_completed(level_text, source)
    puzzle = pbm.read(pbm_data, pbm_source)[0]
    name = os.path.splitext(os.path.basename(source))[0] if source else None
    return Puzzle(puzzle.rows, puzzle.columns, name, puzzle.goal, ((COMPLETED, "1" if done else "0"),), source)


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise ParseError(f"the level's {what} is missing", path) from None
    except OSError as e:
        raise ParseError(f"cannot read the level's {what}: {e.strerror or e}", path) from None


def read(data: str, source: str | None) -> list[Puzzle]:
    """The reader used by :func:`satnono.formats.loads`: the picture comes from ``NAME.pbm`` beside ``source``."""
    if source is None or source == "-":
        raise ParseError("a .level file is read with its NAME.pbm beside it: give its path", source)
    files = paths(source)
    return [parse(data, _read(files.pbm, "picture (NAME.pbm)"), source, files.pbm)]


def completed(puzzle: Puzzle) -> bool:
    return puzzle.metadata.get(COMPLETED, "0") == "1"


def ppm_of(puzzle: Puzzle) -> bytes:
    """A reward image for a new level: the picture itself, black on white (binary PPM)."""
    if puzzle.goal is None:
        raise ValueError("a level stores a picture, and this puzzle has no goal to write")
    px = bytearray()
    for row in puzzle.goal:
        for ch in row:
            px += b"\xff\xff\xff" if ch == WHITE else b"\x00\x00\x00"
    return f"P6\n{puzzle.width} {puzzle.height}\n255\n".encode("ascii") + bytes(px)


def write_files(puzzle: Puzzle, ppm: bytes | None = None, old_level: bytes | None = None,
                old_pbm: bytes | None = None) -> dict[str, bytes]:
    """The bytes of the level's files, by suffix (``.level``, ``.pbm``, ``.ppm``).

    ``old_level`` and ``old_pbm`` are the files as read: each is kept byte for
    byte when it still says the same (same flag, same picture).  ``ppm`` is the
    reward image to keep; without one, :func:`ppm_of` draws the picture.

    Raises:
        ValueError: the puzzle has colours or no goal picture.
    """
    require_bw_level(puzzle)
    if puzzle.goal is None:
        raise ValueError("a level stores a picture, and this puzzle has no goal to write")
    flag = completed(puzzle)
    level = old_level
    if level is None or _same_flag(level, flag) is False:
        level = b"1\n" if flag else b"0\n"
    picture = old_pbm
    if picture is None or not _same_picture(picture, puzzle):
        # the picture alone: a level's name is its file's, its flag the .level file's (and the
        # game's reader may take no comments)
        picture = pbm.write(puzzle.replace(name=None, meta=())).encode("ascii")
    return {SUFFIX: level, ".pbm": picture, ".ppm": ppm if ppm is not None else ppm_of(puzzle)}


def require_bw_level(puzzle: Puzzle) -> None:
    """Refuse what a level cannot hold: colours (its picture is a black-and-white PBM) and revealed cells.

    Raises:
        ValueError: the puzzle has more than one block colour, given cells, rules or blotted clues.
    """
    if puzzle.is_color:
        raise ValueError(f"a level's picture is a black-and-white PBM and this picture has {puzzle.ncolors} colours: "
                         "save it as xml, json, non, ppm or png")
    if puzzle.givens:
        raise ValueError("a level stores no revealed cells: save the puzzle as json, or remove them")
    if puzzle.rules:
        raise ValueError("a level stores no rules: save the puzzle as json, or remove them")
    if puzzle.has_blots:
        from . import blots_text

        raise ValueError(f"a level stores no blotted clues ({blots_text(puzzle)}): save the puzzle as xml or json")


def _same_flag(data: bytes, flag: bool) -> bool:
    try:
        return parse_completed(data, None) == flag
    except ParseError:
        return False


def _same_picture(data: bytes, puzzle: Puzzle) -> bool:
    try:
        return pbm.read(data, None)[0].goal == puzzle.goal
    except ParseError:
        return False


def save(puzzle: Puzzle, level_path: str, ppm: bytes | None = None, overwrite: bool = False,
         old_level: bytes | None = None, old_pbm: bytes | None = None) -> LevelFiles:
    """Write the level's three files beside ``level_path``, each atomically, the ``.level`` last.

    An existing ``NAME.ppm`` is never rewritten: the reward image is the game's,
    not ours.  Without ``overwrite`` nothing is written when any of the other
    two files exists.

    Raises:
        FileExistsError: a file exists and ``overwrite`` is false.
        ValueError: the puzzle has no goal picture.
        OSError: a file cannot be written.
    """
    from . import write_atomic

    files = paths(level_path)
    if not overwrite:
        for p in (files.level, files.pbm, files.ppm):
            if os.path.lexists(p):
                raise FileExistsError(17, "refusing to overwrite an existing file", p)
    keep_ppm = os.path.exists(files.ppm)
    data = write_files(puzzle, ppm, old_level, old_pbm)
    if not keep_ppm:
        write_atomic(files.ppm, data[".ppm"], overwrite)
    for suffix, path in ((".pbm", files.pbm), (SUFFIX, files.level)):
        if old_bytes_equal(path, data[suffix]):
            continue
        write_atomic(path, data[suffix], overwrite)
    return files


def old_bytes_equal(path: str, data: bytes) -> bool:
    """True when ``path`` exists and already holds exactly ``data``."""
    try:
        with open(path, "rb") as f:
            return f.read() == data
    except OSError:
        return False
