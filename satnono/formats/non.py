"""Steve Simpson's ``.non`` format with the mikix/nonogram-db extensions.

Reading rules:

* ``width W`` / ``columns W`` and ``height H`` / ``rows H`` give the size; a
  bare ``rows`` (``columns``) line starts a block of clue lines: numbers
  separated by commas (spaces are tolerated).  The block runs until the next
  line that starts with a letter (a keyword or property) or the end of the file.
* Empty lines inside a clue block: if the block holds exactly H (W) non-blank
  lines, blank lines are separators and an empty clue is written ``0``
  (Simpson).  Otherwise blank lines count as empty clues, starting right after
  the ``rows`` line, and only blank lines may follow the H-th (mikix, pbnsolve).
  See :func:`satnono.formats._text.take_rules`.
* ``goal "0110..."`` (quoted or not) is the picture row by row, ``0`` blank and
  any other character filled (in colour, a colour letter is a cell of that
  colour).  Without a ``rows`` or ``columns`` block the missing clues are
  derived from the goal.
* ``title`` becomes the puzzle name; ``by`` is stored as ``author``; every
  other ``word value`` line (``copyright``, ``catalogue``, ``license``, ...) is
  kept in ``meta`` in file order.  Values may be quoted (inside the quotes,
  spaces are kept); HTML entities (``&copy;``) are decoded.  Empty values are
  dropped.  ``property "KEY" "VALUE"`` (two quoted strings) is the property
  KEY: the writer's form for a key that cannot be a property word (not a
  lower-case word, or one of the format's own words: ``width``, ``rows``,
  ``goal``, ``title``, ``by``, ...), so every property round-trips.
* Lines that start with neither a letter nor a digit are ignored (mikix:
  "parsers must ignore any line that they don't recognize"); so are
  ``maxrule`` and pbnsolve's ``saved`` lines.
* Colour (mikix): ``color a #ff0000`` declares colour ``a`` (a letter, which
  becomes the colour's grid character; the RGB is ``#rrggbb``, ``#rgb`` or a
  common colour name); clue blocks are ``3a,1b`` and goal cells are letters.
  When a file declares colours, a letter it does not declare is an error;
  without ``color`` lines, letters in the clues still make colours (default
  RGB values, letters in sorted order).  A block without a letter, and a goal
  cell that is neither ``0`` nor a letter, has the default colour: the only
  declared colour, else black (``#000000``, grid character ``#``).  A file
  whose single colour is black is a black-and-white puzzle (``#``); a single
  colour of its own (``color a #ff0000``) stays that colour.  The writer declares
  every colour and gives every block its letter (a palette character that is
  not an ASCII letter is replaced by a free letter).
* A ``.nonpack`` bundle (puzzles separated by a line of ``====``) gives
  several puzzles.
* The file is UTF-8 (mikix); a line that is not is read as Latin-1 (Windows-1252),
  as webpbn's exports write a title or author with accents
  (:func:`satnono.formats._text.decode_text`).  The writer's text is UTF-8.
"""

from __future__ import annotations

import html
import re

from ..errors import ParseError, PuzzleTooLarge
from ..model import BLACK, MAX_SIDE, WHITE, Palette, Puzzle, default_rgb, parse_rgb, plain_black
from ._palette import RGB, RawBlock, build_palette, name_for_rgb, puzzle_of_blocks, rgb_of_name, split_blocks
from ._text import check_size, is_blank, parse_int, split_lines, take_rules
from .sniff import looks_like_nonny

_KEYWORD_LINE = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)(?:\s+(.*))?")
_SEPARATOR = re.compile(r"={4,}\s*")
_CLUE_START = frozenset("0123456789-+,")
_IGNORED = frozenset({"maxrule", "saved"})
_STRUCTURAL = frozenset({"width", "height", "rows", "columns", "goal", "maxrule", "color", "colour", "saved"})
#: Words a property cannot be written as (read as something else; ``property`` is kept for the pair form).
_NOT_PROPERTY_WORDS = _STRUCTURAL | {"title", "by", "property"}


def read(text: str, source: str | None) -> list[Puzzle]:
    """All puzzles in a ``.non`` file (several for a ``====``-separated bundle); a file in the
    Nonny game's colour dialect is read by :mod:`satnono.formats.nonny` (told by content)."""
    lines = split_lines(text)
    if looks_like_nonny(lines):
        from . import nonny

        return nonny.read(text, source)
    chunks: list[tuple[int, list[str]]] = []
    start = 0
    for i, line in enumerate(lines):
        if _separator(line):
            chunks.append((start, lines[start:i]))
            start = i + 1
    chunks.append((start, lines[start:]))
    chunks = [(offset, chunk) for offset, chunk in chunks if not all(is_blank(x) for x in chunk)]
    if not chunks:
        raise ParseError("empty file", source)
    return [_read_one(chunk, offset, source) for offset, chunk in chunks]


def _unquote(value: str) -> str:
    value = value.strip()
    if len(value) >= 2 and value[0] == '"' and value[-1] == '"':
        value = value[1:-1]
    elif value.startswith('"'):
        value = value[1:]
    if "&" in value:  # an entity
        value = html.unescape(value)
    return value


def _pair(value: str) -> tuple[str, str] | None:
    """The key and value of ``property "KEY" "VALUE"``'s value (two quoted strings, as the writer
    writes them: a ``"`` inside is ``&quot;``), unquoted; None for another value.

    >>> _pair('"Source URL" "a &amp; b"'), _pair('"one string"'), _pair('words')
    (('Source URL', 'a & b'), None, None)
    """
    if value.count('"') != 4 or value[:1] != '"' or value[-1:] != '"':
        return None
    end = value.index('"', 1)
    if not value[end + 1:value.index('"', end + 1)].isspace():
        return None
    return _unquote(value[:end + 1]), _unquote(value[value.index('"', end + 1):])


def _separator(line: str) -> bool:
    """A bundle's separator line: four or more ``=`` (then whitespace)."""
    return _SEPARATOR.fullmatch(line) is not None


def _keyword_line(s: str) -> tuple[str, str] | None:
    """A stripped line as ``(keyword, value)``: an ASCII letter, then letters, digits, ``_`` or
    ``-``, then nothing or whitespace and the value; None for other lines."""
    m = _KEYWORD_LINE.fullmatch(s)
    return None if m is None else (m.group(1), (m.group(2) or "").strip())


class _Reader:
    def __init__(self, lines: list[str], offset: int, source: str | None) -> None:
        self.lines = lines
        self.offset = offset
        self.source = source
        self.size: dict[str, tuple[int, int]] = {}  # "width"/"height" -> (value, line)
        self.blocks: dict[str, tuple[int, list[tuple[int, str]], int]] = {}
        self.goal: tuple[str, int] | None = None
        self.name: str | None = None
        self.meta: list[tuple[str, str]] = []
        self.colors: dict[str, tuple[RGB, int]] = {}  # declared letter -> (rgb, line)

    def error(self, message: str, line: int | None) -> ParseError:
        return ParseError(message, self.source, line)

    def set_size(self, key: str, value: str, line: int) -> None:
        n = parse_int(value.split()[0] if value.split() else value, key, self.source, line)
        if n == 0:
            raise self.error(f"{key} must be at least 1", line)
        if n > MAX_SIDE:
            raise PuzzleTooLarge(f"{key} {n} is too large (at most {MAX_SIDE})", self.source, line)
        old = self.size.get(key)
        if old is not None and old[0] != n:
            raise self.error(f"{key} given twice: {old[0]} on line {old[1]}, now {n}", line)
        self.size[key] = (n, line)

    def run(self) -> Puzzle:
        lines = self.lines
        i = 0
        while i < len(lines):
            lineno = self.offset + i + 1
            s = lines[i].strip()
            i += 1
            if not s:
                continue
            if s[0] in _CLUE_START:
                raise self.error("clue line outside a 'rows' or 'columns' section", lineno)
            word = _keyword_line(s)
            if word is None:
                continue  # not a recognisable line: ignored, as the format says
            key, value = word[0].lower(), word[1]
            if key in ("width", "height") or (key in ("rows", "columns") and value):
                self.set_size("height" if key in ("height", "rows") else "width", value, lineno)
            elif key in ("rows", "columns"):
                if key in self.blocks:
                    raise self.error(f"a second '{key}' section (the first is on line {self.blocks[key][0]})", lineno)
                block: list[tuple[int, str]] = []
                # a '?' (a blot, which .non cannot hold) is a clue line too: refused, not ignored
                while i < len(lines) and (is_blank(lines[i]) or lines[i].strip()[0] in _CLUE_START
                                          or lines[i].strip()[0] == "?"):
                    block.append((self.offset + i + 1, lines[i]))
                    i += 1
                end = self.offset + i + 1 if i < len(lines) else self.offset + len(lines)
                self.blocks[key] = (lineno, block, end)
            elif key == "goal":
                if self.goal is not None:
                    raise self.error(f"a second goal (the first is on line {self.goal[1]})", lineno)
                self.goal = ("".join(_unquote(value).split()), lineno)
            elif key in ("color", "colour"):
                self.declare_color(value, lineno)
            elif key in _IGNORED:
                continue
            elif key == "title":
                self.name = _unquote(value)
            elif key == "property" and _pair(value) is not None:
                k, v = _pair(value)  # type: ignore[misc]
                if k and v:
                    self.meta.append((k, v))
            else:
                v = _unquote(value)
                if v:
                    self.meta.append(("author" if key == "by" else key, v))
        return self.build()

    def declare_color(self, value: str, line: int) -> None:
        parts = value.split()
        if len(parts) != 2 or len(parts[0]) != 1 or not _is_letter(parts[0]):
            raise self.error("a colour line is 'color LETTER #rrggbb', e.g. 'color a #ff0000'", line)
        letter, spec = parts
        try:
            rgb = rgb_of_name(spec) or parse_rgb(spec)
        except ValueError as e:
            raise self.error(str(e), line) from None
        if letter in self.colors:
            raise self.error(f"colour {letter!r} declared twice (first on line {self.colors[letter][1]})", line)
        self.colors[letter] = (rgb, line)

    def clues(self, key: str, count: int | None) -> list[tuple[int, list[RawBlock]]] | None:
        if key not in self.blocks:
            return None
        kw_line, block, end = self.blocks[key]
        what = "row" if key == "rows" else "column"
        if count is None:
            chosen = [item for item in block if not is_blank(item[1])]
            if not chosen:
                raise self.error(f"'{key}' section has no clue lines", kw_line)
        else:
            chosen = take_rules(block, count, what, self.source, end)
        return [(n, split_blocks(t, True, self.source, n)) for n, t in chosen]

    def build(self) -> Puzzle:
        if not self.size and not self.blocks and self.goal is None:
            first = self.offset + 1
            raise self.error("no puzzle found (expected width, height, rows, columns or goal lines)", first)
        height = self.size.get("height", (None, None))[0]
        width = self.size.get("width", (None, None))[0]
        where = max((ln for _, ln in self.size.values()), default=None)
        if width is not None and height is not None:
            check_size(width, height, self.source, where)
        rows = self.clues("rows", height)
        columns = self.clues("columns", width)
        if height is None and rows is not None:
            height = len(rows)
        if width is None and columns is not None:
            width = len(columns)
        cells = None
        if self.goal is not None:
            cells, line = self.goal
            if width is None or height is None:
                raise self.error("a goal needs the width and height to be known", line)
            check_size(width, height, self.source, line)
            if len(cells) != width * height:
                raise self.error(
                    f"goal has {len(cells)} cells, expected {width}x{height} = {width * height}", line
                )
        palette, index = self.palette(rows, columns, cells)
        chars = "".join(c.char for c in palette)
        default = index.get(None, 1)
        goal = None
        if cells is not None:
            assert width is not None and height is not None and self.goal is not None
            if len(palette) == 2:  # one colour: '#', or the lone declared colour's letter
                flat = "".join(WHITE if ch == "0" else palette[1].char for ch in cells)
            else:
                try:
                    flat = "".join(
                        WHITE if ch == "0" else chars[index[ch] if _is_letter(ch) else default] for ch in cells
                    )
                except KeyError as e:
                    raise self.error(f"the goal uses colour {e.args[0]!r}, which no 'color' line declares",
                                     self.goal[1]) from None
            goal = tuple(flat[r * width : (r + 1) * width] for r in range(height))
        row_clues = self.resolve(rows, index) if rows is not None else None
        col_clues = self.resolve(columns, index) if columns is not None else None
        if row_clues is None and goal is None:
            raise self.error("no 'rows' section (and no goal to derive it from)", None)
        if col_clues is None and goal is None:
            raise self.error("no 'columns' section (and no goal to derive it from)", None)
        assert width is not None and height is not None
        check_size(width, height, self.source, where)
        return puzzle_of_blocks(row_clues, col_clues, palette, goal, name=self.name, meta=tuple(self.meta))

    def palette(self, rows: list[tuple[int, list[RawBlock]]] | None, columns: list[tuple[int, list[RawBlock]]] | None,
                cells: str | None) -> tuple[Palette, dict[str | None, int]]:
        """The palette, and the colour index of each letter (``None``: the default colour)."""
        lines = (rows or []) + (columns or [])
        letters = {k for _, blocks in lines for _, k in blocks if k is not None}
        plain = any(k is None for _, blocks in lines for _, k in blocks)
        colour = bool(self.colors or letters or (not lines and cells and any(_is_letter(ch) for ch in cells)))
        if not colour:
            return build_palette(None, [("black", [BLACK], (0, 0, 0))], self.source), {None: 1}
        if cells is not None:
            letters |= {ch for ch in cells if _is_letter(ch)}
            plain = plain or any(ch != "0" and not _is_letter(ch) for ch in cells)
        if self.colors:
            for n, blocks in lines:
                for _, k in blocks:
                    if k is not None and k not in self.colors:
                        raise self.error(f"colour {k!r} is not declared (no 'color {k} ...' line)", n)
            if cells is not None and self.goal is not None:
                bad = sorted({ch for ch in cells if _is_letter(ch)} - set(self.colors))
                if bad:
                    raise self.error(f"the goal uses colour {bad[0]!r}, which no 'color' line declares", self.goal[1])
            rgbs = {k: rgb for k, (rgb, _) in self.colors.items()}
        else:
            rgbs = {k: default_rgb(i + 1) for i, k in enumerate(sorted(letters), 1)}
        # the default colour: the only declared one, else black
        default = next(iter(rgbs)) if len(self.colors) == 1 else None
        used = letters | ({default} if plain else set())
        order: list[str | None] = [k for k in rgbs if k in used] + ([None] if None in used else [])
        if not order:
            return build_palette(None, [], self.source), {None: 1, **{k: 1 for k in rgbs}}
        index: dict[str | None, int] = {k: i for i, k in enumerate(order, 1)}
        if default is not None:
            index[None] = index[default]
        blocks_out = [("black", [BLACK], (0, 0, 0)) if k is None else (name_for_rgb(rgbs[k]), [k], rgbs[k]) for k in order]
        line = next(iter(self.colors.values()))[1] if self.colors else None
        return build_palette(None, blocks_out, self.source, line), index

    def resolve(self, lines: list[tuple[int, list[RawBlock]]], index: dict[str | None, int]) -> list[tuple[tuple[int, int], ...]]:
        return [tuple([(n, index[k]) for n, k in blocks]) for _, blocks in lines]


def _read_one(lines: list[str], offset: int, source: str | None) -> Puzzle:
    return _Reader(lines, offset, source).run()


def _is_letter(ch: str) -> bool:
    return ch.isascii() and ch.isalpha()


def _quote(value: str) -> str:
    escaped = value.replace("&", "&amp;").replace('"', "&quot;").replace("\n", "&#10;").replace("\r", "&#13;")
    return f'"{escaped}"'


def property_line(key: str, value: str) -> str:
    """The line of one property, read back as ``(key, value)``: ``word "value"`` (``by`` for
    ``author``) when the key is a lower-case word that is none of the format's own, else
    ``property "KEY" "VALUE"``.

    >>> property_line("author", "Jan"), property_line("catalogue", "webpbn.com #1")
    ('by "Jan"', 'catalogue "webpbn.com #1"')
    >>> property_line("Source URL", "x"), property_line("width", "5")
    ('property "Source URL" "x"', 'property "width" "5"')
    """
    if key == "author":
        return f"by {_quote(value)}"
    if key == key.lower() and _keyword_line(key) == (key, "") and key not in _NOT_PROPERTY_WORDS:
        return f"{key} {_quote(value)}"
    return f"property {_quote(key)} {_quote(value)}"


def _clue_text(blocks: tuple[tuple[int, int], ...], letters: str) -> str:
    """One clue: ``3,1`` (``letters`` empty: black and white) or ``3a,1b``."""
    if not blocks:
        return "0"
    return ",".join(f"{n}{letters[c] if letters else ''}" for n, c in blocks)


def letters_of(puzzle: Puzzle) -> str:
    """The ``.non`` letter of each colour index (index 0 is ``0``): the palette
    character when it is an ASCII letter, else the first free letter."""
    from ._palette import assign_chars

    spare = [[c.char] if _is_letter(c.char) else [] for c in puzzle.palette[1:]]
    chars = assign_chars(spare)
    # assign_chars falls back to SPARE_CHARS, which start with the letters
    assert all(_is_letter(ch) for ch in chars)
    return "0" + "".join(chars)


def write(puzzle: Puzzle) -> str:
    """The puzzle as a ``.non`` file (empty lines written ``0``, properties quoted;
    a colour puzzle declares its colours and writes ``3a,1b``).

    >>> print(write(Puzzle.from_clues([[1], []], [[1], []])), end="")
    width 2
    height 2
    <BLANKLINE>
    rows
    1
    0
    <BLANKLINE>
    columns
    1
    0
    """
    out: list[str] = []
    if puzzle.name is not None:
        out.append(f"title {_quote(puzzle.name)}")
    for key, value in puzzle.meta:
        out.append(property_line(key, value))
    out += [f"width {puzzle.width}", f"height {puzzle.height}"]
    letters = "" if plain_black(puzzle.palette) else letters_of(puzzle)  # one colour of its own: declared too
    if letters:
        out += [""] + [f"color {letters[i]} {c.hex}" for i, c in enumerate(puzzle.palette) if i]
    out += ["", "rows"]
    out += [_clue_text(puzzle.row_blocks(i), letters) for i in range(puzzle.height)]
    out += ["", "columns"]
    out += [_clue_text(puzzle.column_blocks(i), letters) for i in range(puzzle.width)]
    if puzzle.goal is not None:
        if letters:
            table = str.maketrans(puzzle.chars, letters)
            cells = "".join(row.translate(table) for row in puzzle.goal)
        else:
            cells = "".join("0" if ch == WHITE else "1" for row in puzzle.goal for ch in row)
        out += ["", 'goal "' + cells + '"']
    return "\n".join(out) + "\n"
