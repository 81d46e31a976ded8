"""Brute-force oracles for colour puzzles, independent of satnono's solver.

A line is a string of characters ``'.'`` (background, colour 0) and
``chr(ord('a') + v - 1)`` for colour v >= 1.
"""

from __future__ import annotations

import itertools


def char_of(v: int) -> str:
    return "." if v == 0 else chr(ord("a") + v - 1)


def blocks_of(cells: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(lengths, colours) of a line string, by run splitting."""
    lengths: list[int] = []
    colors: list[int] = []
    for ch, run in itertools.groupby(cells):
        if ch != ".":
            lengths.append(len(list(run)))
            colors.append(ord(ch) - ord("a") + 1)
    return tuple(lengths), tuple(colors)


def line_placements(lengths, colors, n: int) -> list[tuple[str, tuple[int, ...]]]:
    """Every (line string, block starts) of n cells with exactly these blocks (by recursion)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    k = len(lengths)

    def rec(j: int, pos: int, prefix: str, starts: tuple[int, ...]) -> None:
        if j == k:
            out.append((prefix + "." * (n - pos), starts))
            return
        gap = 1 if j > 0 and colors[j] == colors[j - 1] else 0
        for s in range(pos + gap, n - lengths[j] + 1):
            rec(j + 1, s + lengths[j], prefix + "." * (s - pos) + char_of(colors[j]) * lengths[j], starts + (s,))

    rec(0, 0, "", ())
    return out


def brute_line(lengths, colors, n: int, excluded: tuple[int, ...]):
    """(excluded after, starts) for one line by enumeration, or None when nothing fits."""
    nvals = len(excluded)
    can = [0] * nvals
    starts = [0] * len(lengths)
    found = False
    for cells, st in line_placements(lengths, colors, n):
        vals = [0 if ch == "." else ord(ch) - ord("a") + 1 for ch in cells]
        if any((excluded[v] >> i) & 1 for i, v in enumerate(vals)):
            continue
        found = True
        for i, v in enumerate(vals):
            can[v] |= 1 << i
        for j, s in enumerate(st):
            starts[j] |= 1 << s
    if not found:
        return None
    full = (1 << n) - 1
    return tuple(full & ~c for c in can), tuple(starts)


def grid_solutions(rows, row_colors, columns, column_colors, limit: int | None = None) -> list[tuple[str, ...]]:
    """All solutions of a colour puzzle by enumerating row placements and checking columns."""
    w = len(columns)
    per_row = [[cells for cells, _ in line_placements(ls, cs, w)] for ls, cs in zip(rows, row_colors)]
    want = list(zip(columns, column_colors))
    out = []
    for combo in itertools.product(*per_row):
        if all(blocks_of("".join(col)) == want[c] for c, col in enumerate(zip(*combo))):
            out.append(tuple(combo))
            if limit is not None and len(out) >= limit:
                break
    return out
