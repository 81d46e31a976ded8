"""Exact placement counts of one line (big ints), beside the kernels that solve it."""

from __future__ import annotations

from typing import Sequence

from .bits import Mask


def count_placements(clue: Sequence[int], n: int, black: Mask = 0, white: Mask = 0) -> int:
    """The number of placements of ``clue`` in ``n`` cells that agree with the known cells.

    Exact for any size (a Python int).

    >>> count_placements((1,), 5), count_placements((2, 1), 6), count_placements((1,), 3, black=0b010)
    (5, 6, 1)
    """
    k = len(clue)
    # ways[p]: placements of blocks j.. in cells [p, n) (cells before the first block white)
    ways = [0] * (n + 1)
    ways[n] = 1
    for p in range(n - 1, -1, -1):
        ways[p] = ways[p + 1] if not (black >> p) & 1 else 0
    for j in range(k - 1, -1, -1):
        c = clue[j]
        nxt = ways
        ways = [0] * (n + 1)
        for p in range(n - 1, -1, -1):
            total = ways[p + 1] if not (black >> p) & 1 else 0
            end = p + c
            if end <= n and not (white >> p) & ((1 << c) - 1):
                if end == n:
                    total += nxt[n]
                elif not (black >> end) & 1:
                    total += nxt[end + 1]
            ways[p] = total
    return ways[0]


def count_color_placements(lengths: Sequence[int], colors: Sequence[int], n: int,
                           excluded: Sequence[Mask]) -> int:
    """:func:`count_placements` for a line of a colour puzzle: ``excluded[v]`` are the cells
    known not to have colour v (0 the background); same-colour neighbours need a gap.

    >>> count_color_placements((1, 1), (1, 2), 3, (0, 0, 0)), count_color_placements((1, 1), (1, 1), 3, (0, 0))
    (3, 1)
    """
    k = len(lengths)
    full = (1 << n) - 1
    may = [full & ~e for e in excluded]
    bg = may[0]
    # nxt[p]: placements of blocks j+1.. in cells [p, n); start with blocks k.. (none): all background
    nxt = [0] * (n + 2)
    nxt[n] = 1
    for p in range(n - 1, -1, -1):
        nxt[p] = nxt[p + 1] if (bg >> p) & 1 else 0
    for j in range(k - 1, -1, -1):
        c, col = lengths[j], colors[j]
        gap = j + 1 < k and colors[j + 1] == col
        cur = [0] * (n + 2)
        for p in range(n - 1, -1, -1):
            total = cur[p + 1] if (bg >> p) & 1 else 0
            end = p + c
            if end <= n and (may[col] >> p) & ((1 << c) - 1) == (1 << c) - 1:
                if not gap:
                    total += nxt[end]
                elif end < n and (bg >> end) & 1:
                    total += nxt[end + 1]
            cur[p] = total
        nxt = cur
    return nxt[0]


def count_line(clue, n: int, excluded: Sequence[Mask]) -> int:
    """The placements of a :class:`~satnono.clues.LineClue` agreeing with ``excluded``
    (per colour, the cells known not to have it), whatever its kind."""
    if clue.blots:
        from .blotted import count_range_placements

        lo, hi = clue.ranges(n)
        return count_range_placements(lo, hi, clue.colors, n, tuple(excluded))
    if len(excluded) == 2:
        return count_placements(clue.lengths, n, excluded[0], excluded[1])
    return count_color_placements(clue.lengths, clue.colors, n, excluded)
