"""Helpers shared by the colour readers and writers: colour names, palette characters.

Every reader builds its palette the same way (:func:`build_palette`): the
background is colour 0 with the character ``.``; each block colour keeps the
character the file gave it when that character is usable (one printable
character, not reserved by the grid syntax, not taken by an earlier colour),
otherwise it gets the first free character of :data:`SPARE_CHARS`.  A file
whose one block colour is black (named ``black``, RGB ``000000``) is a
black-and-white puzzle drawn ``#`` (:data:`~satnono.model.BW_PALETTE`), as
before colour support; any other lone colour keeps its name, character and
RGB (a red ``r`` stays red ``r``), and so does the background.

Colour names (X11 ``rgb.txt`` values, as Olšák's ``.g`` files and webpbn use
them) are in :data:`COLOR_NAMES`; :func:`name_for_rgb` names an RGB exactly
matching one of them and otherwise gives its ``#rrggbb``.
"""

from __future__ import annotations

from typing import Sequence

from ..errors import ParseError
from ..model import BACKGROUND, BW_PALETTE, MAX_COLORS, MAX_SIDE, Color, Palette, Puzzle, parse_rgb, plain_black
from ..palette import RESERVED_CHARS, is_hex

RGB = tuple[int, int, int]

#: Common colour names with their X11 ``rgb.txt`` values (``green`` is X11's
#: ``#00ff00``, not CSS's ``#008000``).  Spaces and case are ignored when reading.
COLOR_NAMES: dict[str, RGB] = {
    "white": (255, 255, 255),
    "black": (0, 0, 0),
    "red": (255, 0, 0),
    "green": (0, 255, 0),
    "blue": (0, 0, 255),
    "yellow": (255, 255, 0),
    "orange": (255, 165, 0),
    "brown": (165, 42, 42),
    "gray": (190, 190, 190),
    "grey": (190, 190, 190),
    "purple": (160, 32, 240),
    "pink": (255, 192, 203),
    "cyan": (0, 255, 255),
    "magenta": (255, 0, 255),
    "violet": (238, 130, 238),
    "navy": (0, 0, 128),
    "maroon": (176, 48, 96),
    "gold": (255, 215, 0),
    "beige": (245, 245, 220),
    "tan": (210, 180, 140),
    "olive": (128, 128, 0),
    "teal": (0, 128, 128),
    "silver": (192, 192, 192),
    "salmon": (250, 128, 114),
    "khaki": (240, 230, 140),
    "turquoise": (64, 224, 208),
    "darkred": (139, 0, 0),
    "darkgreen": (0, 100, 0),
    "darkblue": (0, 0, 139),
    "darkgray": (169, 169, 169),
    "darkgrey": (169, 169, 169),
    "lightgray": (211, 211, 211),
    "lightgrey": (211, 211, 211),
    "lightblue": (173, 216, 230),
    "lightgreen": (144, 238, 144),
    "skyblue": (135, 206, 235),
}

_NAME_OF_RGB: dict[RGB, str] = {}
for _name, _rgb in COLOR_NAMES.items():
    _NAME_OF_RGB.setdefault(_rgb, _name)

#: Characters given, in this order, to block colours whose own character is unusable.
SPARE_CHARS = (
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
    "#*%@&+=$~^!<>/:;,_-'\"`{}()"
)


def rgb_of_name(name: str) -> RGB | None:
    """The RGB of a colour name in :data:`COLOR_NAMES` (case and spaces ignored), else ``None``."""
    return COLOR_NAMES.get("".join(ch for ch in name if ch != "_" and not ch.isspace()).lower())


def name_for_rgb(rgb: RGB) -> str:
    """The common name of an RGB value when there is one, else its ``#rrggbb``."""
    return _NAME_OF_RGB.get(rgb) or "#%02x%02x%02x" % rgb


def rgb_of_spec(spec: str) -> RGB:
    """A colour given as a name of :data:`COLOR_NAMES` or as hex digits (``#ff0000``, ``f00``).

    Raises:
        ValueError: neither.
    """
    named = rgb_of_name(spec)
    if named is not None:
        return named
    try:
        return parse_rgb(spec)
    except ValueError:
        if spec.strip().startswith("#") or is_hex(spec.strip()):
            raise
        raise ValueError(f"unknown colour name {spec.strip()[:30]!r} (use a common name or #rrggbb)") from None


def usable_char(ch: str) -> bool:
    """True when ``ch`` may show a block colour in grids."""
    return len(ch) == 1 and ch != BACKGROUND and ch not in RESERVED_CHARS and ch.isprintable()


def assign_chars(preferred: Sequence[Sequence[str]]) -> list[str]:
    """One distinct grid character per block colour.

    ``preferred[i]`` lists the characters colour ``i`` would like, best first.
    A first pass gives each colour its first usable, untaken preference (earlier
    colours win); a second pass gives the others the first free
    :data:`SPARE_CHARS`.  Deterministic.
    """
    out: list[str | None] = [None] * len(preferred)
    taken: set[str] = set()
    for i, wants in enumerate(preferred):
        for ch in wants:
            if usable_char(ch) and ch not in taken:
                out[i] = ch
                taken.add(ch)
                break
    spare = (ch for ch in SPARE_CHARS if ch not in taken)
    return [ch if ch is not None else next(spare) for ch in out]


def unique_names(names: Sequence[str]) -> list[str]:
    """``names`` with repeats made distinct (``red``, ``red-2``, ...)."""
    seen: set[str] = set()
    out = []
    for name in names:
        candidate, k = name, 1
        while candidate in seen:
            k += 1
            candidate = f"{name}-{k}"
        seen.add(candidate)
        out.append(candidate)
    return out


def build_palette(
    background: Color | None,
    blocks: Sequence[tuple[str, Sequence[str], RGB]],
    source: str | None,
    line: int | None = None,
) -> Palette:
    """The palette of a file: ``background`` (white when ``None``; its character is
    always ``.``) and the block colours ``(name, preferred chars, rgb)`` in index order.

    No block colour (every line empty), or one that is black named ``black``, gives black
    and white (``#``, :data:`~satnono.model.BW_PALETTE` over the file's background); any other
    lone colour is kept as the file gave it.

    Raises:
        ParseError: more than ``MAX_COLORS`` block colours.
    """
    if len(blocks) > MAX_COLORS:
        raise ParseError(f"{len(blocks)} block colours; at most {MAX_COLORS} are supported", source, line)
    bg = BW_PALETTE[0] if background is None else Color(background.name, BACKGROUND, background.rgb)
    if not blocks or (len(blocks) == 1 and is_black(blocks[0][0], blocks[0][2])):
        return BW_PALETTE if bg == BW_PALETTE[0] else (bg, BW_PALETTE[1])
    chars = assign_chars([prefs for _, prefs, _ in blocks])
    names = unique_names([bg.name] + [name for name, _, _ in blocks])
    return (Color(names[0], BACKGROUND, bg.rgb),) + tuple(
        Color(names[i], ch, rgb) for i, ((_, _, rgb), ch) in enumerate(zip(blocks, chars), 1)
    )


def is_black(name: str, rgb: RGB) -> bool:
    """True for the colour black and white puzzles draw ``#``: named ``black``, RGB ``000000``."""
    return rgb == (0, 0, 0) and name.strip().lower() == "black"


def require_bw(puzzle: Puzzle, fmt: str) -> None:
    """Refuse to write a colour puzzle (or a one-colour puzzle whose colour is not black ``#``)
    in a black-and-white-only format.

    Raises:
        ValueError: the puzzle has a block colour other than black ``#``.
    """
    if puzzle.is_color:
        raise ValueError(
            f"the {fmt} format holds black-and-white puzzles only; write colour puzzles as non, xml, json, ppm or png"
        )
    if not plain_black(puzzle.palette):
        col = puzzle.palette[1]
        raise ValueError(
            f"the {fmt} format holds black-and-white puzzles only and this puzzle's colour is {col.name} "
            f"({col.char!r}, {col.hex}); write it as non, xml, json, ppm or png"
        )


#: str.translate's table that deletes the ASCII digits (what is left of a string of them is empty)
_NOT_DIGITS = dict.fromkeys(range(ord("0"), ord("9") + 1))

RawBlock = tuple[int, "str | None"]
"""A block as read from a file: its length and the colour key written after it (``None``: none)."""


def split_blocks(text: str, commas: bool, source: str | None, line: int | None) -> list[RawBlock]:
    """A colour clue line (``3a,1b`` / ``3y 1o``) as ``(length, key)`` pairs, zeros dropped; its
    items are separated by whitespace, and with ``commas`` also by commas (:func:`split_tokens`).

    A key is the one character after the number; a plain number has key ``None``.

    Raises:
        ParseError: for a token that is not a length with at most one colour character.
    """
    from ._text import leading_digits, parse_block, split_tokens

    body = text.strip()
    if not body:
        return []
    tokens = split_tokens(body, commas)
    sizes = list(map(len, tokens))
    if min(sizes) > 0 and max(sizes) <= 4 and not "".join(tokens).translate(_NOT_DIGITS):
        # plain lengths (the usual clue line): read at once, each as the loop below would
        lengths = list(map(int, tokens))
        if max(lengths) <= MAX_SIDE:
            return [(n, None) for n in lengths if n]
    out: list[RawBlock] = []
    for token in tokens:
        digits = leading_digits(token)
        key = token[digits:]
        if not digits or len(key) > 1:
            if digits and key[:1].isalpha():
                raise ParseError(f"a block is a length and one colour letter, got {token[:20]!r}", source, line)
            parse_block(token, source, line)  # reports the precise problem
            raise ParseError(f"unexpected clue item {token[:20]!r}", source, line)  # pragma: no cover
        n = parse_block(token[:digits], source, line)
        if n:
            out.append((n, key or None))
    return out


Blocks = Sequence[tuple["int | str", int]]
"""``(length, colour index)`` blocks of one line; a length may be ``"?"`` (a blot)."""


def puzzle_of_blocks(
    rows: Sequence[Blocks] | None,
    columns: Sequence[Blocks] | None,
    palette: Palette,
    goal: tuple[str, ...] | None = None,
    **kwargs: object,
) -> Puzzle:
    """The puzzle of ``(length, colour index)`` clues over ``palette``; missing clues
    (``None``) are derived from ``goal``.  A black-and-white puzzle gets plain lengths."""
    if rows is None or columns is None:
        assert goal is not None, "clues are missing and there is no goal to derive them from"
        derived = Puzzle.from_grid(goal, palette=palette)
        if rows is None:
            rows = [derived.row_blocks(i) for i in range(derived.height)]
        if columns is None:
            columns = [derived.column_blocks(i) for i in range(derived.width)]
    if len(palette) == 2:  # the common case, kept on the fast path of plain lengths
        return Puzzle.from_clues(rows=[[n for n, _ in b] for b in rows], columns=[[n for n, _ in b] for b in columns],
                                 goal=goal, palette=palette, **kwargs)
    return Puzzle.from_clues(rows=rows, columns=columns, goal=goal, palette=palette, **kwargs)
