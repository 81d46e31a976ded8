"""Where one line falls apart into independent segments (for the components of a grid)."""

from __future__ import annotations

from typing import Sequence

from .bits import Mask


def line_segments(clue: Sequence[int], n: int, black: Mask, white: Mask,
                  starts: Sequence[Mask], ends: Sequence[Mask] | None = None) -> list[tuple[int, int, int, int]]:
    """Cut one line into independent segments: ``(start, stop, first_block, last_block)``.

    ``starts`` are the valid block start masks of the line (from the line
    solver, for the known cells ``black``/``white``; ``white`` are the cells known to be
    background), ``ends`` their valid last cells when the lengths are not fixed (a blotted
    line).  Cuts are made only at known-white cells; only segments holding an unknown cell
    are returned.

    >>> line_segments((1, 1), 5, 0, 0b00100, (0b00011, 0b11000))
    [(0, 2, 0, 1), (3, 5, 1, 2)]
    """
    k = len(clue)
    # lo_start[j] = min(V_j); hi_end[j] = max(V_j) + c_j (one past the last cell block j can cover)
    lo_start = [(v & -v).bit_length() - 1 for v in starts]
    if ends is None:
        hi_end = [v.bit_length() - 1 + c for v, c in zip(starts, clue)]
    else:
        hi_end = [e.bit_length() for e in ends]
    unknown = ((1 << n) - 1) & ~(black | white)
    out: list[tuple[int, int, int, int]] = []
    seg_start = 0
    seg_block = 0
    j = 0  # blocks 0..j-1 lie entirely before the current position
    i = 0
    w = white
    while w:
        low = w & -w
        i = low.bit_length() - 1
        w ^= low
        # advance j over the blocks that always end at or before i
        while j < k and hi_end[j] <= i:
            j += 1
        if j < k and not i < lo_start[j]:
            continue  # block j may cover or straddle i: no cut here
        # cut at i: blocks seg_block..j-1 live in [seg_start, i)
        if seg_start < i and (unknown >> seg_start) & ((1 << (i - seg_start)) - 1):
            out.append((seg_start, i, seg_block, j))
        seg_start = i + 1
        seg_block = j
    if seg_start < n and unknown >> seg_start:
        out.append((seg_start, n, seg_block, k))
    return out
