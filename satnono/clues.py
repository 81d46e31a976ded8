"""What one line's clue says, as one value: :class:`LineClue`.

A clue is the sequence of blocks of one line: their lengths, their colours
(indices 1..K into the puzzle's palette) and which of them are *blotted*
(their length hidden: at least 1, whatever the solution shows).  Every line
kernel, driver and counter takes a ``LineClue``; what kind of line it is
(black and white, colour, blotted) is read off the value, never off the puzzle.

Also here: the two axis names, so that renderers need not import propagation
to spell them.
"""

from __future__ import annotations

from typing import Mapping, NamedTuple

ROW = "row"
COLUMN = "column"
AXES = (ROW, COLUMN)


class LineClue(NamedTuple):
    """One line's clue: ``lengths``, the block lengths (a blotted block holds its least
    length, 1); ``colors``, each block's colour index (1..K); ``blots``, bit j set when block j
    is blotted (its length is unknown, at least 1).

    >>> c = LineClue((3, 1), (1, 1))
    >>> c.min_length(), c.kind
    (5, 'bw')
    >>> LineClue((1, 2), (1, 2)).kind, LineClue((1, 2), (1, 1), blots=0b01).kind
    ('color', 'blotted')
    >>> c, c._replace(blots=1)
    (LineClue(lengths=(3, 1), colors=(1, 1), blots=0), LineClue(lengths=(3, 1), colors=(1, 1), blots=1))
    """

    lengths: tuple[int, ...]
    colors: tuple[int, ...]
    blots: int = 0

    @property
    def kind(self) -> str:
        """``"blotted"`` when a length is hidden, else ``"color"`` when blocks of two colours
        meet in the line, else ``"bw"`` (one block colour: the black-and-white kernel)."""
        if self.blots:
            return "blotted"
        cs = self.colors
        return "color" if cs and cs.count(cs[0]) != len(cs) else "bw"

    def min_length(self) -> int:
        """The fewest cells the clue fits in: its blocks (blots count 1), plus one background
        cell between consecutive blocks of the same colour."""
        cs = self.colors
        return sum(self.lengths) + sum(1 for a, b in zip(cs, cs[1:]) if a == b)

    def is_blotted(self, j: int) -> bool:
        return bool((self.blots >> j) & 1)

    def ranges(self, n: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """Per block, the least and the greatest length: ``(lo, hi)``; a blot is ``1..n``."""
        lo = self.lengths
        hi = tuple(n if (self.blots >> j) & 1 else c for j, c in enumerate(lo))
        return lo, hi

    def text(self, chars: str = ".#", color: bool = False) -> str:
        """As a person reads it: ``3 1`` in black and white, ``3a 1b`` in colour (``chars`` are
        the palette's characters), ``?`` for a blotted length, ``0`` for an empty line.

        >>> LineClue((3, 1), (1, 1), blots=0b10).text(), LineClue((2, 1), (1, 2)).text(".ab", True)
        ('3 ?', '2a 1b')
        """
        if not self.lengths:
            return "0"
        parts = []
        for j, (n, c) in enumerate(zip(self.lengths, self.colors)):
            num = "?" if (self.blots >> j) & 1 else str(n)
            parts.append(f"{num}{chars[c]}" if color else num)
        return " ".join(parts)


def line_blocks(cells: str, index: Mapping[str, int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The ``(lengths, colours)`` of one line of a colour grid; ``index`` maps characters to colours (0 background)."""
    lengths: list[int] = []
    colors: list[int] = []
    prev = ""
    for ch in cells:
        if ch == prev and lengths:
            lengths[-1] += 1
            continue
        prev = ch
        col = index[ch]
        if col:
            lengths.append(1)
            colors.append(col)
        else:
            prev = ""
    return tuple(lengths), tuple(colors)
