"""Proofs of a second solution without SAT: 2x2 switches.

A switch is four open cells (r1, c1), (r1, c2), (r2, c1), (r2, c2) of the goal
whose exchange keeps all four clues; its existence proves the goal is not the
only solution.  Masks are Python ints (bit c of a row, bit r of a column).
"""

from __future__ import annotations

from collections.abc import Sequence


def _blocks(mask: int) -> list[tuple[int, int]]:
    """``(start, end)`` (inclusive) of each run of ones, left to right."""
    out = []
    while mask:
        s = (mask & -mask).bit_length() - 1
        run = ((mask >> s) + 1) & ~(mask >> s)
        ln = run.bit_length() - 1
        out.append((s, s + ln - 1))
        mask &= ~(((1 << ln) - 1) << s)
    return out


def _clue(mask: int) -> tuple[int, ...]:
    return tuple(e - s + 1 for s, e in _blocks(mask))


def _swaps(mask: int, n: int, open_: int) -> list[tuple[int, int]]:
    """Pairs ``(a, b)`` of open cells, a black and b white, whose exchange keeps the line's clue:
    a block shifted by one, or a 1-block moved past other 1-blocks only."""
    out = []
    for s, e in _blocks(mask):
        if e + 1 < n and not (mask >> (e + 2)) & 1 and (open_ >> s) & 1 and (open_ >> (e + 1)) & 1:
            out.append((s, e + 1))
        if s >= 1 and (s < 2 or not (mask >> (s - 2)) & 1) and (open_ >> e) & 1 and (open_ >> (s - 1)) & 1:
            out.append((e, s - 1))
        if s == e and (open_ >> s) & 1:
            b = s + 2
            while b < n:
                if (mask >> b) & 1:
                    if (mask >> (b + 1)) & 1:
                        break
                    b += 1
                    continue
                if not (mask >> (b - 1)) & 1 and not (mask >> (b + 1)) & 1 and (open_ >> b) & 1:
                    out.append((s, b))
                b += 1
            b = s - 2
            while b >= 0:
                if (mask >> b) & 1:
                    if b >= 1 and (mask >> (b - 1)) & 1:
                        break
                    b -= 1
                    continue
                if (b == 0 or not (mask >> (b - 1)) & 1) and not (mask >> (b + 1)) & 1 and (open_ >> b) & 1:
                    out.append((s, b))
                b -= 1
    return out


def find_switch(rows: Sequence[int], cols: Sequence[int], open_rows: Sequence[int],
                open_cols: Sequence[int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A 2x2 switch of the goal among the open cells, or None.

    ``rows``/``cols``: the goal as int masks per row (bit c) and per column
    (bit r); ``open_*``: the cells line logic left open, the same way.
    Returns ``((r1, c1), (r2, c2))``: flipping cells (r1, c1), (r1, c2),
    (r2, c1), (r2, c2) gives another grid with the same clues (checked here by
    recomputing the four clues).
    """
    h, w = len(rows), len(cols)
    colp: list[dict[int, set[int]] | None] = [None] * w
    rowp: list[set[tuple[int, int]] | None] = [None] * h

    def cp(c: int) -> dict[int, set[int]]:
        d = colp[c]
        if d is None:
            d = {}
            for a, b in _swaps(cols[c], h, open_cols[c]) if open_cols[c] else ():
                d.setdefault(a, set()).add(b)
            colp[c] = d
        return d

    def rp(r: int) -> set[tuple[int, int]]:
        s = rowp[r]
        if s is None:
            s = rowp[r] = set(_swaps(rows[r], w, open_rows[r])) if open_rows[r] else set()
        return s

    for r1 in range(h):
        if not open_rows[r1]:
            continue
        for c1, c2 in rp(r1):
            for r2 in cp(c1).get(r1, ()):
                if (c2, c1) in rp(r2) and r1 in cp(c2).get(r2, ()):
                    fr = (1 << c1) | (1 << c2)
                    fc = (1 << r1) | (1 << r2)
                    if (_clue(rows[r1] ^ fr) == _clue(rows[r1]) and _clue(rows[r2] ^ fr) == _clue(rows[r2])
                            and _clue(cols[c1] ^ fc) == _clue(cols[c1]) and _clue(cols[c2] ^ fc) == _clue(cols[c2])):
                        return (r1, c1), (r2, c2)
    return None
