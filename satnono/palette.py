"""Palettes: the colours of a puzzle, background first, and their laws.

Colour 0 is the background (character ``.``); colours 1..K are the block
colours, each with a name, one character and an RGB value.  Black and white is
the one-colour palette :data:`BW_PALETTE`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Iterable, Sequence

BLACK = "#"
WHITE = "."
BACKGROUND = WHITE

#: Largest number of block colours (the background not counted).
MAX_COLORS = 32

#: Characters a block colour may not use in grids.
RESERVED_CHARS = frozenset(".?|[]\\") | frozenset(" \t\r\n")


@dataclass(frozen=True)
class Color:
    """One palette entry: a frozen value.

    >>> Color("red", "r", (255, 0, 0))
    Color(name='red', char='r', rgb=(255, 0, 0))
    """

    name: str
    """The colour's name (``black``, ``red``, ...)."""
    char: str
    """The one character that shows a cell of this colour in grids."""
    rgb: tuple[int, int, int]
    """Red, green, blue, each 0..255."""

    @property
    def hex(self) -> str:
        """``#rrggbb``."""
        return "#%02x%02x%02x" % self.rgb


Palette = tuple[Color, ...]
"""Index 0 is the background; 1..K the block colours."""

BW_PALETTE: Palette = (Color("white", WHITE, (255, 255, 255)), Color("black", BLACK, (0, 0, 0)))


def plain_black(palette: Sequence[Color]) -> bool:
    """True when the one block colour of ``palette`` is black drawn ``#`` (black and white as
    before colour support); False for colour and for a one-colour palette of its own (red ``r``),
    which every reader, writer and picture keeps as it is."""
    return len(palette) == 2 and palette[1] == BW_PALETTE[1]

_HEX = r"[0-9a-fA-F]+"
_RGB = r"#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})"


def is_hex(text: str) -> bool:
    """One or more hexadecimal digits and nothing else.

    >>> is_hex("ff80A0"), is_hex(""), is_hex("#fff")
    (True, False, False)
    """
    return re.fullmatch(_HEX, text) is not None


def parse_rgb(text: str) -> tuple[int, int, int]:
    """``#rrggbb``, ``rrggbb``, ``#rgb`` or ``rgb`` (hex digits) as an RGB triple.

    Raises:
        ValueError: for anything else.

    >>> parse_rgb("#ff8000"), parse_rgb("0f0")
    ((255, 128, 0), (0, 255, 0))
    """
    m = re.fullmatch(_RGB, text.strip())
    if m is None:
        raise ValueError(f"malformed RGB colour {text.strip()[:20]!r} (expected 3 or 6 hex digits, like #ff0000)")
    digits = m.group(1)
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    return (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


#: Distinct, readable colours (name, RGB) for palettes built without RGB values.
_DEFAULT_COLORS = [
    ("black", (0, 0, 0)), ("red", (220, 40, 40)), ("green", (40, 150, 40)), ("blue", (40, 80, 220)),
    ("yellow", (240, 190, 20)), ("purple", (150, 60, 180)), ("cyan", (20, 170, 190)),
    ("orange", (240, 120, 20)), ("brown", (120, 80, 40)), ("pink", (240, 110, 170)),
    ("gray", (110, 110, 110)), ("lime", (150, 200, 60)),
]
_DEFAULT_RGB = [rgb for _, rgb in _DEFAULT_COLORS]


def default_palette(k: int) -> Palette:
    """A palette of ``k`` block colours with characters ``a``, ``b``, ... (``#`` for k = 1)
    and distinct default colours: what generated colour puzzles use.

    >>> [c.char for c in default_palette(3)]
    ['.', 'a', 'b', 'c']
    """
    if k == 1:
        return BW_PALETTE
    if not 1 <= k <= MAX_COLORS:
        raise ValueError(f"the number of colours must be 1..{MAX_COLORS}, got {k}")
    chars = "abcdefghijklmnopqrstuvwxyzABCDEF"
    return (BW_PALETTE[0], *(
        Color(_default_name(i), chars[i - 1], default_rgb(i))
        for i in range(1, k + 1)))


def default_rgb(i: int) -> tuple[int, int, int]:
    """A distinct colour for block colour ``i`` (1-based) when a file gives none."""
    if i - 1 < len(_DEFAULT_RGB):
        return _DEFAULT_RGB[i - 1]
    # beyond the table: spread hues deterministically
    h = (i * 0.618033988749895) % 1.0
    import colorsys

    r, g, b = colorsys.hsv_to_rgb(h, 0.75, 0.8)
    return (int(r * 255), int(g * 255), int(b * 255))


def check_palette(palette: Sequence[Color]) -> Palette:
    """Validate a palette and return it as a tuple.

    Raises:
        ValueError: fewer than two entries, more than ``MAX_COLORS`` block
            colours, a background character other than ``.``, a reserved or
            repeated character, or a repeated name.
    """
    pal = tuple(palette)
    if len(pal) < 2:
        raise ValueError("a palette needs the background and at least one block colour")
    if len(pal) - 1 > MAX_COLORS:
        raise ValueError(f"{len(pal) - 1} block colours; at most {MAX_COLORS} are supported")
    if pal[0].char != BACKGROUND:
        raise ValueError(f"the background's character must be {BACKGROUND!r}, got {pal[0].char!r}")
    seen_chars: set[str] = set()
    seen_names: set[str] = set()
    for col in pal:
        if len(col.char) != 1:
            raise ValueError(f"colour {col.name!r}: its character must be one character, got {col.char!r}")
        if col is not pal[0] and (col.char in RESERVED_CHARS or not col.char.isprintable()):
            raise ValueError(f"colour {col.name!r}: character {col.char!r} is reserved")
        if col.char in seen_chars:
            raise ValueError(f"two colours use the character {col.char!r}")
        if col.name in seen_names:
            raise ValueError(f"two colours are named {col.name!r}")
        if len(col.rgb) != 3 or any(not (0 <= x <= 255) for x in col.rgb):
            raise ValueError(f"colour {col.name!r}: RGB values must be 0..255, got {col.rgb!r}")
        seen_chars.add(col.char)
        seen_names.add(col.name)
    return pal


def palette_for_chars(chars: Iterable[str]) -> Palette:
    """The palette of a grid given only as characters: black and white for ``#``/``.``,
    else one colour per distinct non-background character (sorted), with default RGB."""
    found = sorted(set(chars) - {BACKGROUND})
    if not found or found == [BLACK]:
        return BW_PALETTE
    return check_palette((BW_PALETTE[0], *(Color(_default_name(i), ch, default_rgb(i)) for i, ch in enumerate(found, 1))))


def _default_name(i: int) -> str:
    return _DEFAULT_COLORS[i - 1][0] if i <= len(_DEFAULT_COLORS) else f"color{i}"
