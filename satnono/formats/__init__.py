"""Reading and writing puzzle files.

>>> p = loads("width 2\\nheight 1\\nrows\\n2\\ncolumns\\n1\\n1\\n")[0]
>>> p.rows, p.columns
(((2,),), ((1,), (1,)))
>>> print(dumps(p, "nin"), end="")
2 1
2
1
1

Formats (the ``fmt`` names): ``non`` (Simpson/mikix ``.non``), ``xml`` (webpbn),
``nin`` (Wilk), ``mk`` (pbnsolve), ``cwd`` (QNonograms/Copris), ``g`` (Olšák,
written for triddlers only), ``tournament`` (TAAI/ICGA ``$n`` files, read
only), ``json``, ``pbm`` (P1 and P4 read, P1 written), ``txt`` (a ``#``/``.`` or 0/1 picture),
``pynogram`` (pynogram's INI-like text, read only), ``nonogrid`` (nonogrid's
TOML, read only), ``picross`` (picross-solver's ``GRID`` text), and the colour
pictures ``ppm`` (P3 and P6 read, P6 written) and ``png``.  Colour puzzles are
read and written in ``non``, ``xml`` and ``json`` (read in ``g``, ``pynogram``
and ``nonogrid``); the other clue formats are black and white only.
Without ``fmt`` the format is told from the content: the plausible readers
are tried in turn and the first that reads the file wins, the file suffix only
breaking ties (see :mod:`satnono.formats.sniff`).

Every malformed input raises :class:`~satnono.errors.ParseError` (or
:class:`~satnono.errors.UnsupportedPuzzle` / :class:`~satnono.errors.PuzzleTooLarge`)
naming the file and, where it makes sense, the line.  Clues that cannot be
satisfied are *not* parse errors: the solver reports them.

A multi-puzzle file (tournament sets, webpbn puzzlesets, JSON lists, ``.nonpack``
bundles) gives puzzles whose ``source`` is ``path#k`` (k from 1); ``FILE#k``
selects puzzle k when loading.

A puzzle's title and properties (``name``, ``meta``) go through unchanged: exactly in
:data:`METADATA_FORMATS`, as one-line comments in :data:`LINE_METADATA_FORMATS`; the formats of
clues or cells alone (``nin``, ``mk``, ``cwd``, ``txt``) leave them out, and
:func:`unkept_metadata` names what a format leaves out.

``level`` is a picross game level: ``NAME.level`` is read with the ``NAME.pbm``
beside it (by suffix only); :func:`satnono.formats.level.save` writes the three files.

**Triddlers** (triangular cells, :mod:`satnono.formats.triddler`) are read from webpbn XML
(``<puzzle type="triddler">``), Olšák ``.g`` (``#t``) and JSON (a ``"geometry"`` object, see
:mod:`satnono.formats.jsonfmt`) as :class:`~satnono.lanepuzzle.LanePuzzle` values, not
:class:`~satnono.model.Puzzle`: the readers give :data:`AnyPuzzle`, and a puzzleset or JSON list
may mix grids and triddlers.  They are written in :data:`TRIDDLER_FORMATS` (``xml``, ``g``,
``json``; satnono writes ``g`` for triddlers only); extra rules (:data:`EXTRA_RULES`) apply
to them as lane rules (:func:`satnono.lanerules.lane_rule_from`: ``count`` and ``connected``;
the others have no meaning on a triangle and are the puzzle's one-line error), and only
``json`` keeps their givens and rules.
"""

from __future__ import annotations

import importlib
import os
import sys
from contextvars import ContextVar
from types import ModuleType
from typing import Callable, Union

from ..errors import ParseError, PuzzleTooLarge, UnsupportedPuzzle
from ..lanepuzzle import LanePuzzle
from ..model import Puzzle
from ..rules.protocol import name_of
from ._text import decode_text, is_digits, parse_int
from .sniff import SIGNATURE_FORMATS, candidates, format_from_suffix, formats_text, order, sniff
from .writing import WriteError, save_folder, write_atomic

#: What the readers give: a rectangular puzzle (:class:`~satnono.model.Puzzle`), or a puzzle of
#: another geometry (:class:`~satnono.lanepuzzle.LanePuzzle`: a triddler).
AnyPuzzle = Union[Puzzle, LanePuzzle]

Reader = Callable[..., list[AnyPuzzle]]

__all__ = [
    "AnyPuzzle",
    "BLOTS_FORMATS",
    "FORMATS",
    "TRIDDLER_FORMATS",
    "WRITABLE_FORMATS",
    "LINE_METADATA_FORMATS",
    "METADATA_FORMATS",
    "blots_text",
    "dumps",
    "format_from_suffix",
    "output_format",
    "load",
    "load_all",
    "load_each",
    "loads",
    "save",
    "WriteError",
    "save_folder",
    "sniff",
    "unkept_metadata",
    "write_atomic",
]


class _Lazy:
    """A reader or writer of the module ``satnono.formats.<module>``, imported when first called:
    reading a JSON file loads the JSON reader alone, and pictures (numpy) only when one is read."""

    __slots__ = ("__name__", "module", "name")

    def __init__(self, module: str, name: str) -> None:
        self.module = module
        self.name = name
        self.__name__ = name

    def __call__(self, *args, **kwargs):
        return getattr(_submodule(self.module), self.name)(*args, **kwargs)

    def __repr__(self) -> str:
        return f"<{__name__}.{self.module}.{self.name}>"


def _picture(name: str) -> Callable:
    """A function of :mod:`satnono.formats.picture` (which loads numpy), imported when first called."""
    return _Lazy("picture", name)


_READERS: dict[str, Reader] = {
    "level": _Lazy("level", "read"),  # picross game levels: NAME.level + NAME.pbm + NAME.ppm
    "non": _Lazy("non", "read"),
    "xml": _Lazy("webpbn", "read"),
    "nin": _Lazy("nin", "read"),
    "mk": _Lazy("mk", "read"),
    "cwd": _Lazy("cwd", "read"),
    "g": _Lazy("olsak", "read"),
    "tournament": _Lazy("tournament", "read"),
    "json": _Lazy("jsonfmt", "read"),
    "pbm": _Lazy("pbm", "read"),
    "txt": _Lazy("textgrid", "read"),
    "ppm": _picture("read_ppm"),
    "png": _picture("read_png"),
    "pynogram": _Lazy("pynogram", "read"),
    "nonogrid": _Lazy("nonogrid", "read"),
    "picross": _Lazy("picross", "read"),
    "nonny": _Lazy("nonny", "read"),
    "pzl": _Lazy("pzl", "read"),
    "nonogramsorg": _Lazy("nonogramsorg", "read"),
}
#: Readers given the raw bytes (XML declares its own encoding; P4, P6 and PNG are binary).
_BYTES_READERS = frozenset({"xml", "pbm", "ppm", "png"})
#: Readers of line-based text with free text in it (titles, authors, names, comments), which old
#: files hold in Latin-1 (webpbn's .non exports): a line that is not UTF-8 is read as Latin-1
#: (Windows-1252).  The other readers take UTF-8 only: JSON and TOML by their specifications, and
#: the rest hold numbers and cells alone (a byte that is not UTF-8 is no clue).
_LATIN1_READERS = frozenset({"non", "nonny", "g", "picross", "pynogram"})
#: Readers of pictures, which take a ``background`` colour.
_PICTURE_READERS = frozenset({"ppm", "png"})

_WRITERS: dict[str, Callable[[Puzzle], str | bytes]] = {
    "non": _Lazy("non", "write"),
    "xml": _Lazy("webpbn", "write"),
    "nin": _Lazy("nin", "write"),
    "mk": _Lazy("mk", "write"),
    "cwd": _Lazy("cwd", "write"),
    "json": _Lazy("jsonfmt", "write"),
    "pbm": _Lazy("pbm", "write"),
    "txt": _Lazy("textgrid", "write"),
    "ppm": _picture("write_ppm"),
    "png": _picture("write_png"),
    "picross": _Lazy("picross", "write"),
}
#: The writers of puzzles of other geometries (:class:`~satnono.lanepuzzle.LanePuzzle`): xml and
#: g hold triddlers, json any geometry.
_LANE_WRITERS: dict[str, Callable[[LanePuzzle], str]] = {
    "xml": _Lazy("triddler", "write_xml"),
    "g": _Lazy("triddler", "write_g"),
    "json": _Lazy("jsonfmt", "write_lanes"),
}

#: The reader modules, loaded on first use; ``satnono.formats.non`` and the like still work as
#: attributes (PEP 562), as does ``tempfile``, which only the writers need.
_SUBMODULES = frozenset({"cwd", "jsonfmt", "level", "mk", "nin", "non", "nonogrid", "olsak", "pbm", "picross",
                         "picture", "pynogram", "textgrid", "tournament", "triddler", "webpbn"})


def _submodule(name: str) -> ModuleType:
    """``satnono.formats.<name>``, imported."""
    return importlib.import_module(f"{__name__}.{name}")


def __getattr__(name: str):
    if name in _SUBMODULES:
        return _submodule(name)
    if name == "tempfile":
        import tempfile

        return tempfile
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: The formats that store given (revealed) cells.
GIVENS_FORMATS: tuple[str, ...] = ("json",)
#: Formats that store a puzzle's extra rules (see :mod:`satnono.rules`).
RULES_FORMATS: tuple[str, ...] = ("json",)
#: Formats that store blotted clues (a block length hidden, at least 1).
BLOTS_FORMATS: tuple[str, ...] = ("xml", "json")
#: Formats that hold a puzzle's title and every property exactly, any text (XML 1.0 refuses
#: control characters other than tab and line breaks).
METADATA_FORMATS: tuple[str, ...] = ("non", "xml", "json", "png")
#: Formats that hold the title and the properties as text on one line, in comments (keys in lower
#: case, keys of a word of letters, digits and spaces alone; see :mod:`satnono.formats._comments`).
LINE_METADATA_FORMATS: tuple[str, ...] = ("picross", "pbm", "ppm")
#: Every format name ``load``/``loads`` accept as ``fmt``.
FORMATS: tuple[str, ...] = tuple(_READERS)
#: The format names ``dumps``/``save`` accept for a rectangular puzzle (:class:`~satnono.model.Puzzle`).
WRITABLE_FORMATS: tuple[str, ...] = tuple(_WRITERS)
#: The formats that hold a triddler (a :class:`~satnono.lanepuzzle.LanePuzzle` of a
#: :class:`~satnono.lanes.Triangle`): ``g`` is written for triddlers only.
TRIDDLER_FORMATS: tuple[str, ...] = tuple(_LANE_WRITERS)

STDIN = "-"

#: The background colour of pictures when a reader call gives none (the command line's ``--background``).
DEFAULT_BACKGROUND: ContextVar[str | None] = ContextVar("satnono_picture_background", default=None)
#: Rules added to every puzzle :func:`load_all` reads (the command line's ``--rule``).
EXTRA_RULES: ContextVar[tuple] = ContextVar("satnono_extra_rules", default=())


def loads(
    text: str | bytes, fmt: str | None = None, source: str | None = None, background: str | None = None
) -> list[AnyPuzzle]:
    """Every puzzle in ``text`` (a triddler as a :class:`~satnono.lanepuzzle.LanePuzzle`), each
    with its ``source`` set (``source``, or ``source#k`` for puzzle k of several); ``source`` (a
    file name) is also used in errors and as a format hint.

    ``background`` (a colour name or ``#rrggbb``) is the background colour of a
    picture (``ppm``, ``png``; by default :data:`DEFAULT_BACKGROUND`'s value, else
    white); other formats ignore it.

    Raises:
        ParseError: the input is malformed, not text (UTF-8; in the line-based formats with free
            text, .non, .g, picross and pynogram, also Latin-1), of unknown format, or ``fmt`` is unknown.
        UnsupportedPuzzle: a puzzle type the reader does not know, triangle colours.
        PuzzleTooLarge: a side above ``model.MAX_SIDE`` or more than ``model.MAX_CELLS`` cells.
        ValueError: ``background`` is not a colour.
    """
    if background is None:
        background = DEFAULT_BACKGROUND.get()
    if background is not None:
        _picture("background_rgb")(background)  # a bad option is the caller's error, whatever the file
    if fmt is not None and fmt not in _READERS:
        raise ParseError(f"unknown format {fmt!r} (known: {', '.join(FORMATS)})", source)
    data: str | bytes = bytes(text) if isinstance(text, (bytearray, memoryview)) else text
    if isinstance(data, str) and data.startswith("\ufeff"):
        data = data[1:]
    if fmt is None:
        blank = data.strip(b" \t\r\n\v\f\xef\xbb\xbf") if isinstance(data, bytes) else data.strip()
        if not blank:
            raise ParseError("empty file", source)
        hint = format_from_suffix(source) if source and source != STDIN else None
        if hint == "level":  # a level is its suffix: its content, 0 or 1, names no format
            fmt = hint
    if fmt is None:
        tried = order(data, hint)
        if not tried:
            raise ParseError(
                f"cannot tell the format of {_name(source)} "
                f"(tried: {', '.join(f for f in FORMATS if f != 'level')}; none fits); "
                "name it with -f/--format FMT", source)
        puzzles = _read_first(data, tried, source, hint, background)
    else:
        puzzles = _read(data, fmt, source, background)
    if len(puzzles) == 1:
        return [puzzles[0].with_source(source)]
    return [p.with_source(f"{source}#{k}" if source else None) for k, p in enumerate(puzzles, 1)]


def _name(source: str | None) -> str:
    return source if source and source != STDIN else "the input"


def _read(data: str | bytes, fmt: str, source: str | None, background: str | None = None) -> list[AnyPuzzle]:
    if isinstance(data, bytes) and fmt not in _BYTES_READERS:
        data = decode_text(data, source, latin1=fmt in _LATIN1_READERS)
    if fmt in _PICTURE_READERS:
        return _READERS[fmt](data, source, background=background)
    return _READERS[fmt](data, source)


def _read_first(data: str | bytes, tried: list[str], source: str | None, hint: str | None,
                background: str | None = None) -> list[AnyPuzzle]:
    """The puzzles of the first format in ``tried`` whose reader takes ``data``.

    A colour puzzle (:class:`UnsupportedPuzzle`) ends the search: the format was
    recognised.  When every reader fails, the error is the reader's own (precise,
    with its line) if the content shows a format's signature or could be in the
    suffix's format; otherwise one error naming each format tried and why it
    refused the file.
    """
    errors: list[ParseError] = []
    for fmt in tried:
        try:
            return _read(data, fmt, source, background)
        except UnsupportedPuzzle:
            raise
        except ParseError as e:
            errors.append(e)
    if tried[0] in SIGNATURE_FORMATS and tried[0] in candidates(data):  # the content names its format
        raise errors[0]
    if hint in tried:
        first = errors[tried.index(hint)]
        if hint in candidates(data):  # content and suffix agree: the reader's own error
            raise first
        # the content fits no format: say so, with what the suffix's reader found
        raise ParseError(f"{first.message} (read as {hint} because of the file's suffix: its content "
                         "fits no format; name one with -f/--format FMT)", first.source, first.line)
    if all(isinstance(e, PuzzleTooLarge) for e in errors):
        raise errors[0]
    why = "; ".join(f"not {fmt} ({_short(e)})" for fmt, e in zip(tried, errors))
    raise ParseError(f"cannot tell the format of {_name(source)}: {why}; name it with -f/--format FMT", source)


def _short(e: ParseError) -> str:
    return f"line {e.line}: {e.message}" if e.line is not None else e.message


def split_selector(path: str) -> tuple[str, int | None]:
    """``FILE#k`` into ``(FILE, k)``; a path that exists as given has no selector."""
    if path == STDIN or "#" not in path or os.path.exists(path):
        return path, None
    base, _, frag = path.rpartition("#")
    number = frag.strip()
    if base != STDIN and not os.path.exists(base) and not is_digits(number[1:] if number[:1] in "+-" else number):
        return path, None  # neither a file nor a selector: report the missing file
    if not is_digits(frag):
        raise ParseError(f"the puzzle number after '#' must be a positive integer, got {frag!r}", base)
    k = parse_int(frag, "puzzle number", base, None)
    if k == 0:
        raise ParseError("puzzle numbers start at 1 (FILE#1 is the first puzzle)", base)
    return base, k


#: The bytes of every pipe read so far, by (device, inode): a pipe can be read only once, so a
#: second look at one (``p#1 p#2``, or ``p`` named twice) gets the same bytes instead of blocking
#: (a named pipe) or finding it empty (``<(...)``'s /dev/fd/N).
_PIPES: dict[tuple[int, int], bytes] = {}


def _pipe_id(path: str) -> tuple[int, int] | None:
    """``(device, inode)`` of ``path`` when it is a pipe (a FIFO, or a /dev/fd/N of one); None otherwise."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    import stat

    return (st.st_dev, st.st_ino) if stat.S_ISFIFO(st.st_mode) else None


def _read_bytes(path: str) -> bytes:
    """The bytes of ``path`` (``-``: standard input), read in one go: a pipe is read as a stream
    (to its end), once (see :data:`_PIPES`); the format is then told from these bytes alone."""
    if path == STDIN:
        buffer = getattr(sys.stdin, "buffer", None)
        if buffer is not None:
            return bytes(buffer.read())
        return sys.stdin.read().encode("utf-8")
    pipe = _pipe_id(path)
    if pipe is not None and pipe in _PIPES:
        return _PIPES[pipe]
    try:
        with open(path, "rb") as f:
            data = f.read()
        if pipe is not None:
            _PIPES[pipe] = data
        return data
    except FileNotFoundError:
        raise ParseError("no such file", path) from None
    except IsADirectoryError:
        raise ParseError("is a directory, not a puzzle file", path) from None
    except PermissionError:
        raise ParseError("permission denied", path) from None
    except OSError as e:
        raise ParseError(f"cannot read the file: {e.strerror or e}", path) from None


#: The bytes of a file (``-``: standard input); a ParseError naming it when it cannot be read.
read_bytes = _read_bytes


#: Readers that can read puzzle k of a multi-puzzle file without parsing the others:
#: ``index(text, source) -> (count, puzzle k)``.
_INDEXERS: dict[str, Callable] = {"tournament": _Lazy("tournament", "index")}


class _Picker:
    """The puzzles of one multi-puzzle file, read one at a time on demand (each once)."""

    __slots__ = ("count", "_read", "_done")

    def __init__(self, count: int, read: Callable[[int], AnyPuzzle]) -> None:
        self.count = count
        self._read = read
        self._done: dict[int, AnyPuzzle] = {}

    def get(self, k: int) -> AnyPuzzle:
        p = self._done.get(k)
        if p is None:
            p = self._done[k] = self._read(k)
        return p


# The last multi-puzzle file read through a ``FILE#k`` selector, so that ``check F#1 ... F#50``
# reads F once (and, in a format with an index, parses only the 50 puzzles):
# (path, format, background, mtime, size) -> its puzzles (as read: the extra rules are bound to
# the puzzle picked, by :func:`load_each`).  A pipe is known by its inode (its mtime changes as it
# is written; its bytes, read once, are in :data:`_PIPES`).
_LAST_PARSED: list[tuple[tuple, _Picker]] = []


def _file_key(path: str, fmt, background) -> tuple | None:
    if path == STDIN:
        return None
    try:
        st = os.stat(path)
    except OSError:
        return None
    import stat

    if stat.S_ISFIFO(st.st_mode):
        return (os.path.abspath(path), fmt, background, "pipe", st.st_dev, st.st_ino)
    return (os.path.abspath(path), fmt, background, st.st_mtime_ns, st.st_size)


def _picker(path: str, fmt: str | None, background: str | None) -> _Picker:
    """The puzzles of ``path`` for a ``#k`` selector: remembered from the last call on the same
    unchanged file, else read (through the format's index when it has one)."""
    key = _file_key(path, fmt, background)
    if key is not None and _LAST_PARSED and _LAST_PARSED[0][0] == key:
        return _LAST_PARSED[0][1]
    data = _read_bytes(path)
    picker = _indexed(data, fmt, path, background)
    if picker is None:
        puzzles = loads(data, fmt, source=path, background=background)
        picker = _Picker(len(puzzles), lambda k: puzzles[k - 1])
    _LAST_PARSED[:] = [] if key is None else [(key, picker)]
    return picker


def _indexed(data: bytes, fmt: str | None, path: str, background: str | None) -> _Picker | None:
    """A picker over the format's index, when the file's format (``fmt``, else the one
    :func:`loads` would try first) has one and the index reads; None otherwise (then the whole
    file is read, which also gives the same error a plain read would)."""
    if fmt is None:
        hint = format_from_suffix(path) if path != STDIN else None
        tried = order(data, hint) if data.strip() else []
        fmt = tried[0] if tried else None
    indexer = _INDEXERS.get(fmt) if fmt is not None else None
    if indexer is None:
        return None
    try:
        count, read = indexer(data.decode("utf-8-sig"), path)
    except (ParseError, UnicodeDecodeError):
        return None

    def one(k: int) -> AnyPuzzle:
        return read(k).with_source(f"{path}#{k}" if count > 1 else path)

    return _Picker(count, one)


def load_each(path: str, fmt: str | None = None, background: str | None = None) -> list[AnyPuzzle | ParseError]:
    """Every puzzle in the file ``path`` as :func:`load_all` reads it (``FILE#k``: puzzle k alone),
    each with the extra rules (:data:`EXTRA_RULES`) bound to it on its own: a puzzle a rule does
    not fit is, in its place, its own :class:`ParseError` (naming ``FILE#k`` in a multi-puzzle
    file), and the file's other puzzles are unaffected.  A triddler (a puzzle of another
    geometry) takes them as lane rules (:func:`satnono.lanerules.lane_rule_from`); a rule that has
    no meaning on its geometry (``symmetric``, ``no-square``) is such a ParseError.

    Raises:
        ParseError: the file itself cannot be read: as :func:`loads`, or ``#k`` is out of range.
    """
    base, k = split_selector(path)
    if k is None:
        puzzles = loads(_read_bytes(base), fmt, source=base, background=background)
    else:
        picker = _picker(base, fmt, background)
        if k > picker.count:
            held = "one puzzle" if picker.count == 1 else f"{picker.count} puzzles"
            raise ParseError(f"there is no puzzle #{k}: the file holds {held}", base)
        puzzles = [picker.get(k)]
    rules = EXTRA_RULES.get()
    return [_with_rules(p, rules, base) for p in puzzles] if rules else list(puzzles)


def load_all(path: str, fmt: str | None = None, background: str | None = None) -> list[AnyPuzzle]:
    """Every puzzle in the file ``path`` (``-`` is standard input); ``FILE#k`` gives just puzzle k.

    ``background``: a picture's background colour, as in :func:`loads`.

    Raises:
        ParseError: as :func:`loads`, or the file cannot be read, or ``#k`` is out of range, or
            an extra rule does not fit one of the puzzles (the first such; see :func:`load_each`).
    """
    puzzles = load_each(path, fmt, background)
    for p in puzzles:
        if isinstance(p, ParseError):
            raise p
    return puzzles  # type: ignore[return-value]


def _with_rules(puzzle: AnyPuzzle, rules: tuple, source: str) -> AnyPuzzle | ParseError:
    """``puzzle`` with ``rules`` added (bound to it), or the ParseError, naming the puzzle, of a
    rule that does not fit it (for a puzzle of another geometry: made a lane rule, or refused when
    it has no meaning there)."""
    try:
        return puzzle.replace(rules=puzzle.rules + tuple(rules))
    except ValueError as e:
        return ParseError(str(e), puzzle.source or source)


def load(path: str, fmt: str | None = None, background: str | None = None) -> AnyPuzzle:
    """The one puzzle of ``path``, or puzzle k of a multi-puzzle file named ``FILE#k``
    (``background``: a picture's background colour, as in :func:`loads`).

    Raises:
        ParseError: as :func:`load_all`, or the file holds several puzzles and no ``#k`` was given.
    """
    puzzles = load_each(path, fmt, background=background)
    if len(puzzles) != 1:
        n = len(puzzles)
        raise ParseError(f"the file holds {n} puzzles; choose one with {path}#k (k from 1 to {n})", path)
    if isinstance(puzzles[0], ParseError):
        raise puzzles[0]
    return puzzles[0]


def dumps(puzzle: AnyPuzzle, fmt: str) -> str | bytes:
    """The puzzle in format ``fmt``: one of :data:`WRITABLE_FORMATS` for a rectangular puzzle,
    of :data:`TRIDDLER_FORMATS` for a triddler (``json`` for a puzzle of any other geometry).

    Raises:
        ValueError: ``fmt`` cannot be written, or it stores a picture (``pbm``, ``txt``,
            ``ppm``, ``png``) and the puzzle has no goal, or it is black and white only
            and the puzzle has colours, or the puzzle has given cells and ``fmt`` is not
            in :data:`GIVENS_FORMATS` (rules: :data:`RULES_FORMATS`, blotted clues:
            :data:`BLOTS_FORMATS`), or a rule that cannot be written as JSON, or (``xml``) a
            title or property holds a control character XML 1.0 cannot hold; a rectangular
            puzzle in ``g`` (written for triddlers only), a triddler in a format outside
            :data:`TRIDDLER_FORMATS` (``g``: with blotted clues).
    """
    if isinstance(puzzle, LanePuzzle):
        return _dumps_lanes(puzzle, fmt)
    writer = _WRITERS.get(fmt)
    if writer is None:
        if fmt in _LANE_WRITERS:
            raise ValueError(f"satnono writes .{fmt} for triddlers only: a grid is read from the {fmt} format "
                             f"({fmt!r}) but not written in it; the formats satnono writes grids in: "
                             f"{formats_text(WRITABLE_FORMATS)}")
        raise ValueError(_not_writable(fmt))
    if puzzle.givens and fmt not in GIVENS_FORMATS:
        raise ValueError(f"the {fmt} format cannot store given (revealed) cells; write the puzzle as "
                         f"{' or '.join(GIVENS_FORMATS)}")
    if puzzle.has_blots and fmt not in BLOTS_FORMATS:
        raise ValueError(f"the {fmt} format cannot store blotted clues ({blots_text(puzzle)}); write the puzzle as "
                         f"{' or '.join(BLOTS_FORMATS)}")
    if puzzle.rules and fmt not in RULES_FORMATS:
        names = ", ".join(name_of(rule) for rule in puzzle.rules)
        raise ValueError(f"the {fmt} format cannot store rules ({names}); write the puzzle as "
                         f"{' or '.join(RULES_FORMATS)}")
    return writer(puzzle)


def _dumps_lanes(puzzle: LanePuzzle, fmt: str) -> str:
    """A puzzle of another geometry in ``fmt`` (one of :data:`TRIDDLER_FORMATS`)."""
    writer = _LANE_WRITERS.get(fmt)
    if writer is None:
        if fmt not in _WRITERS:
            raise ValueError(_not_writable(fmt))
        if puzzle.geometry.kind != "triangle":
            raise ValueError(f"the {fmt} format cannot hold a puzzle of geometry {puzzle.geometry.kind!r}; "
                             f"write it as json")
        raise ValueError(f"the {fmt} format cannot hold a triddler; the formats that hold one: "
                         f"{formats_text(TRIDDLER_FORMATS)}")
    return writer(puzzle)


def unkept_metadata(puzzle: AnyPuzzle, fmt: str) -> list[str]:
    """What of the puzzle's title and properties :func:`dumps` in ``fmt`` leaves out, in words
    (``'the title'``, ``"property 'author'"``): everything in a format of clues or cells alone
    (``nin``, ``mk``, ``cwd``, ``txt``), the properties a comment cannot hold in ``picross``,
    ``pbm`` and ``ppm``, nothing in :data:`METADATA_FORMATS`.  (The comment formats also put text
    on one line: that changes a value's spaces, it leaves nothing out.)

    A triddler keeps everything in ``xml`` and ``json``; ``g`` leaves out its title, its
    properties and its goal picture.

    >>> p = Puzzle.from_grid(["#"], name="Dot", meta=[("author", "Jan"), ("a:b", "c")])
    >>> unkept_metadata(p, "nin"), unkept_metadata(p, "picross"), unkept_metadata(p, "xml")
    (['the title', "property 'author'", "property 'a:b'"], ["property 'a:b'"], [])
    """
    if isinstance(puzzle, LanePuzzle):
        if fmt in ("xml", "json"):
            return []
        left = ([] if puzzle.name is None else ["the title"]) + [f"property {k!r}" for k, _ in puzzle.meta]
        return left + ([] if puzzle.goal is None else ["the goal picture"])
    if fmt in METADATA_FORMATS:
        return []
    title = [] if puzzle.name is None or (fmt in LINE_METADATA_FORMATS and puzzle.name.strip()) else ["the title"]
    if fmt not in LINE_METADATA_FORMATS:
        return title + [f"property {k!r}" for k, _ in puzzle.meta]
    from ._comments import held_key, one_line

    return title + [f"property {k!r}" for k, v in puzzle.meta
                    if not (held_key(k, fmt != "picross") and one_line(v) and (fmt != "picross" or one_line(k).lower() != "size"))]


def blots_text(puzzle: Puzzle, most: int = 4) -> str:
    """The blotted blocks of a puzzle in words, rows and columns and blocks from 1, e.g.
    ``row 1 block 2, column 3 block 1`` (the first ``most``, then how many more).

    >>> blots_text(Puzzle.from_clues([["?"], [1]], [[1], [2, "?"]]))
    'row 1 block 1, column 2 block 2'
    """
    names = [f"{axis} {i + 1} block {j + 1}"
             for axis in ("row", "column") for i, clue in enumerate(puzzle.clues(axis))
             for j in range(len(clue.lengths)) if clue.is_blotted(j)]
    more = f" and {len(names) - most} more" if len(names) > most else ""
    return ", ".join(names[:most]) + more


def _not_writable(fmt: str) -> str:
    known = "cannot write" if fmt in _READERS else "unknown"
    return (f"{known} format {fmt!r}; the formats satnono writes: {formats_text(WRITABLE_FORMATS)}; "
            f"for triddlers: {formats_text(TRIDDLER_FORMATS)}")


def output_format(path: str, fmt: str | None = None) -> str:
    """The format :func:`save` writes ``path`` in: ``fmt``, by default the one its suffix names
    (:data:`satnono.formats.sniff.SUFFIXES`, any case).  ``g`` is one (satnono writes it for
    triddlers only: :func:`dumps` refuses a grid in it).

    >>> output_format("out.PICROSS"), output_format("out.txt", "picross"), output_format("t.g")
    ('picross', 'picross', 'g')

    Raises:
        ValueError: ``fmt`` is not a format satnono writes; without ``fmt``, the name (``-``
            too) has no suffix, one of no format, or one of a format satnono only reads.  The
            message, one sentence, lists the formats satnono writes with their suffixes.
    """
    if fmt is not None:
        if fmt not in _WRITERS and fmt not in _LANE_WRITERS:
            raise ValueError(_not_writable(fmt))
        return fmt
    writable = formats_text(WRITABLE_FORMATS) + f"; for triddlers: {formats_text(TRIDDLER_FORMATS)}"
    suffix = os.path.splitext(path)[1] if path != STDIN else ""
    found = format_from_suffix(path) if suffix else None
    if found is None:
        why = f"{suffix!r} is the suffix of no format" if suffix else "it has no suffix"
        raise ValueError(f"cannot tell the output format from the name {path!r}: {why}; "
                         f"the formats satnono writes, with their suffixes: {writable}")
    if found not in _WRITERS and found not in _LANE_WRITERS:
        raise ValueError(f"cannot write {path!r}: its suffix {suffix!r} is the {found} format's, which satnono "
                         f"reads but does not write; the formats it writes, with their suffixes: {writable}")
    return found


def save(puzzle: AnyPuzzle, path: str, fmt: str | None = None, overwrite: bool = False) -> None:
    """Write the puzzle to ``path`` (``-`` is standard output) in ``fmt``, by default the suffix's format
    (see :func:`output_format`).

    The file is written to a temporary file in the same directory and moved into
    place, so a crash never leaves a half-written file.

    Raises:
        FileExistsError: ``path`` exists and ``overwrite`` is false.
        ValueError: as :func:`output_format` (no ``fmt`` and a suffix that names no format
            satnono writes), or as :func:`dumps`.
        OSError: the file cannot be written.
    """
    fmt = output_format(path, fmt)
    content = dumps(puzzle, fmt)
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path == STDIN:
        out = getattr(sys.stdout, "buffer", None)
        if out is not None:
            out.write(data)
            out.flush()
        else:
            sys.stdout.write(data.decode("utf-8"))
        return
    write_atomic(path, data, overwrite)
