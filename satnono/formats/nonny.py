"""The Nonny game's colour ``.non`` dialect (gkikola/nonny, ``src/puzzle/puzzle_io.cpp``), read only.

It is Simpson's ``.non`` with colours written another way than mikix's extension:

* ``color NAME RRGGBB [SYMBOL]`` declares a colour (a name of any length, six hex
  digits with or without ``#``, and the one character that draws it); a colour
  named ``background`` redefines the background.  Nonny's default palette is
  ``black`` (``000000``, drawn ``X``) and the white background.
* A clue line is numbers with colour names between them, ``red 1 yellow 4 red 1``
  (Nonny also writes ``red: 1, 2``): a name holds until the next name on the same
  line, and a line starts in ``black``.  Commas, colons and blanks separate items;
  a name may also follow its number directly (``1red``).  Blank lines are skipped;
  an empty line is written ``0``.
* ``width``/``height`` give the size, bare ``rows``/``columns`` start the clue
  blocks (H and W non-blank lines); ``title`` becomes the name, ``by`` the author,
  other ``word value`` lines are kept as properties.

It is told from mikix's dialect by content
(:func:`~satnono.formats.sniff.looks_like_nonny`): a ``color`` line with a
multi-character name or a symbol after the RGB, or a clue line that starts with a
colour name.  The palette holds the colours the clues use, in declaration
order, each keeping its name, symbol and RGB (a lone ``black`` is black and white,
drawn ``#``).
"""

from __future__ import annotations

import html
import re

from ..errors import ParseError
from ..model import Color, Puzzle
from ._palette import RGB, build_palette, puzzle_of_blocks
from ._text import check_size, parse_block, parse_int, split_lines
from .sniff import nonny_color

_WORD = re.compile(r"\s*([A-Za-z][\w-]*)\s*(.*?)\s*")
_ITEM = re.compile(r"([0-9]+)([A-Za-z][\w-]*)?|([A-Za-z][\w-]*)")


def _unquote(value: str) -> str:
    v = value.strip()
    if len(v) >= 2 and v[0] == v[-1] == '"':
        v = v[1:-1]
    return html.unescape(v)


class _Reader:
    def __init__(self, lines: list[str], source: str | None) -> None:
        self.lines = lines
        self.source = source
        self.width: int | None = None
        self.height: int | None = None
        self.background: tuple[str, RGB] = ("white", (255, 255, 255))
        self.colors: dict[str, tuple[str | None, RGB, int]] = {"black": ("X", (0, 0, 0), 0)}  # name -> (symbol, rgb, line)
        self.rows: list[list[tuple[int, str]]] | None = None
        self.columns: list[list[tuple[int, str]]] | None = None
        self.used: dict[str, int] = {}  # colour name -> first line using it
        self.name: str | None = None
        self.meta: list[tuple[str, str]] = []

    def error(self, message: str, line: int | None) -> ParseError:
        return ParseError(message, self.source, line)

    def run(self) -> Puzzle:
        i = 0
        while i < len(self.lines):
            s = self.lines[i].strip()
            i += 1
            if not s or not s[0].isalpha():
                continue
            m = _WORD.fullmatch(s)
            if m is None:  # a line that starts with a letter outside A-Z: not understood, ignored
                continue
            word, arg = m.group(1).lower(), m.group(2)
            if word in ("width", "height") or (word in ("rows", "columns") and arg):
                n = parse_int(arg, word, self.source, i)
                setattr(self, "width" if word in ("width", "columns") else "height", n)
            elif word in ("rows", "columns"):
                i = self.block(word, i)
            elif word in ("color", "colour"):
                self.color(s, i)
            elif word == "title":
                self.name = _unquote(arg) or None
            elif arg:
                self.meta.append(("author" if word == "by" else word, _unquote(arg)))
        return self.build()

    def color(self, text: str, line: int) -> None:
        m = nonny_color(text)
        if m is None:
            raise self.error(f"a colour line reads 'color NAME RRGGBB SYMBOL', got {text.strip()[:40]!r}", line)
        name, hexa, symbol = m
        rgb = (int(hexa[0:2], 16), int(hexa[2:4], 16), int(hexa[4:6], 16))
        if name == "background":
            self.background = (name, rgb)
            return
        # Nonny replaces a colour with the same name or the same RGB value
        for old, (_, old_rgb, _) in list(self.colors.items()):
            if old == name or old_rgb == rgb:
                del self.colors[old]
        self.colors[name] = (symbol, rgb, line)

    def block(self, word: str, start: int) -> int:
        count = self.height if word == "rows" else self.width
        if count is None:
            raise self.error(f"'{word}' comes before the {'height' if word == 'rows' else 'width'}", start)
        out: list[list[tuple[int, str]]] = []
        i = start
        while len(out) < count:
            if i >= len(self.lines):
                raise self.error(f"the {word} block has {len(out)} clue lines, expected {count}", i)
            i += 1
            clue = self.clue(self.lines[i - 1], i)
            if clue is not None:
                out.append(clue)
        setattr(self, word, out)
        return i

    def clue(self, text: str, line: int) -> list[tuple[int, str]] | None:
        """One clue line as ``(length, colour name)`` blocks; ``None`` for a blank line."""
        colour = "black"
        blocks: list[tuple[int, str]] = []
        numbers = False
        for token in re.split(r"[,:\s]+", text.strip()):
            if not token:
                continue
            m = _ITEM.fullmatch(token)
            if m is None:
                raise self.error(f"unexpected clue item {token[:20]!r} (numbers and colour names)", line)
            if m.group(1) is not None:
                numbers = True
                n = parse_block(m.group(1), self.source, line)
                if n:
                    blocks.append((n, colour))
                    self.used.setdefault(colour, line)
            new = m.group(2) or m.group(3)
            if new is not None:
                if new not in self.colors:
                    raise self.error(f"colour {new!r} is not declared (no 'color {new} RRGGBB SYMBOL' line)", line)
                colour = new
        if not numbers:
            if blocks or not text.strip():
                return None
            raise self.error(f"a clue line without a number: {text.strip()[:30]!r}", line)
        return blocks

    def build(self) -> Puzzle:
        if self.rows is None or self.columns is None:
            raise self.error(f"no '{'rows' if self.rows is None else 'columns'}' block", None)
        assert self.width is not None and self.height is not None
        check_size(self.width, self.height, self.source, None)
        for name, line in sorted(self.used.items(), key=lambda kv: kv[1]):
            if name not in self.colors:  # e.g. 'black' (the default) replaced by a colour of its RGB
                raise self.error(f"colour {name!r} is used but not defined (a later 'color' line replaced it)", line)
        order = [name for name in self.colors if name in self.used]
        first = min(self.used.values(), default=None)
        palette = build_palette(Color(self.background[0], ".", self.background[1]),
                                [(name, [self.colors[name][0] or ""], self.colors[name][1]) for name in order],
                                self.source, first)
        index = {name: i for i, name in enumerate(order, 1)}
        return puzzle_of_blocks([tuple((n, index[c]) for n, c in b) for b in self.rows],
                                [tuple((n, index[c]) for n, c in b) for b in self.columns],
                                palette, None, name=self.name, meta=tuple(self.meta))


def read(text: str, source: str | None) -> list[Puzzle]:
    """The one puzzle of a Nonny ``.non`` file."""
    return [_Reader(split_lines(text), source).run()]
