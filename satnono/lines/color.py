"""The colour line kernel: blocks of several colours, a gap only between same-colour neighbours."""

from __future__ import annotations

from typing import NamedTuple

from .bits import BYTE_REVERSED, Mask, native_core, runs_of as _runs_of, spread
from .bw import Clue, solve_line


class ColorLineResult(NamedTuple):
    """What one line of a colour puzzle implies: ``excluded``, for each colour index v
    (0 = background), every cell that cannot have colour v in any placement (the cells
    excluded before included); ``starts``, for each block, the mask of its valid start
    positions."""

    excluded: tuple[Mask, ...]
    starts: tuple[Mask, ...]


def _solve_color_line_py(lengths: Clue, colors: tuple[int, ...], n: int,
                         excluded: tuple[Mask, ...]) -> ColorLineResult | None:
    """Solve one line of a colour puzzle completely (the Python reference of :func:`solve_color_line`).

    ``excluded[v]`` is the mask of cells already known not to have colour
    ``v`` (``v = 0`` the background, ``1..K`` the block colours).  Returns
    ``None`` when no placement of the blocks fits; otherwise every cell's
    colours that no placement allows are added to ``excluded``.

    The method is the black-and-white one (:func:`solve_line`) with one
    change: the gap after block j is mandatory only when block j + 1 has the
    same colour, so "block j may end at e" and "block j + 1 may start at s"
    are kept as separate position sets.  A line whose blocks all have one
    colour ``a`` is a black-and-white line over {background, a} and goes
    through :func:`solve_line` itself.

    >>> r = _solve_color_line_py((1, 1), (1, 2), 2, (0, 0, 0))
    >>> [bin(x) for x in r.excluded], [bin(s) for s in r.starts]
    (['0b11', '0b10', '0b1'], ['0b1', '0b10'])
    """
    full = (1 << n) - 1
    nvals = len(excluded)
    k = len(lengths)
    first = colors[0] if k else 1
    if all(c == first for c in colors):
        # one block colour (or none): background versus that colour
        res = solve_line(lengths, n, excluded[0] & full, excluded[first] & full)
        if res is None:
            return None
        ex = [full] * nvals
        ex[0] = res.black
        ex[first] = res.white
        return ColorLineResult(tuple(ex), res.starts)
    may = [full & ~e for e in excluded]
    fwd = _color_pass(lengths, colors, n, may)
    if fwd is None:
        return None
    # mirror with one padded width (whole bytes, >= n + 2 bits): bit b -> bit n - 1 - b
    size = (n + 9) >> 3
    drop = (size << 3) - n
    table = BYTE_REVERSED
    fb = int.from_bytes
    rmay = [0] * nvals
    for v in {0, *colors}:  # only the colours this line has are read
        rmay[v] = fb(may[v].to_bytes(size, "big").translate(table), "little") >> drop
    bwd = _color_pass(lengths[::-1], colors[::-1], n, rmay)
    if bwd is None:  # cannot happen when the forward pass succeeded; kept as a guard
        return None
    lf, sf = fwd
    lb, sb = bwd
    starts = []
    can = [0] * nvals
    for j, c in enumerate(lengths):
        v = sf[j] & (fb(sb[k - 1 - j].to_bytes(size, "big").translate(table), "little") >> (drop + c - 1))
        if not v:
            return None
        starts.append(v)
        can[colors[j]] |= spread(v, c)
    can_bg = 0
    for j in range(k + 1):
        can_bg |= lf[j] & (fb((lb[k - j] & full).to_bytes(size, "big").translate(table), "little") >> drop)
    can[0] = can_bg & may[0]
    covered = 0
    for x in can:
        covered |= x
    if covered != full:
        return None
    return ColorLineResult(tuple(full & ~x for x in can), tuple(starts))


solve_color_line = _solve_color_line_py
"""Solve one line of a colour puzzle completely: :func:`_solve_color_line_py`, or its C
transcription (``satnono.lines._native_color``, lines of up to ``KERNEL_MAX_N`` cells; it hands
every other line to the Python reference, and one-colour lines to :func:`solve_line`) when that
was built and ``SATNONO_PURE`` is not set.  Same results."""


def _color_pass(lengths: Clue, colors: tuple[int, ...], n: int,
                may: list[Mask]) -> tuple[list[Mask], list[Mask]] | None:
    """Left-to-right pass of :func:`solve_color_line`: (LF_0..LF_k, S_0..S_{k-1}), or None.

    ``S_j`` is the set of starts of block j reachable from the left; ``LF_j``
    the set of positions q such that blocks 0..j-1 fit in cells [0, e) and
    cells [e, q) may all be background.
    """
    bg = may[0] | (1 << n)  # a virtual background cell n ends the line
    lf: list[Mask] = []
    ss: list[Mask] = []
    fit: dict[tuple[int, int], Mask] = {}
    e = 1
    prev = 0
    for c, col in zip(lengths, colors):
        reach = ((bg + (e & bg)) ^ bg) | e
        lf.append(reach)
        if col == prev:  # same colour: at least one background cell first
            e2 = (e & bg) << 1
            reach = ((bg + (e2 & bg)) ^ bg) | e2
        f = fit.get((c, col))
        if f is None:
            f = fit[(c, col)] = _runs_of(may[col], c)
        s = reach & f
        if not s:
            return None
        ss.append(s)
        e = s << c
        prev = col
    reach = ((bg + (e & bg)) ^ bg) | e
    if not (reach >> n) & 1:
        return None
    lf.append(reach)
    return lf, ss



_native = native_core("_native_color")
NATIVE = _native is not None
"""Whether :func:`solve_color_line` is the compiled kernel."""
if _native is not None:
    _native.configure(ColorLineResult, _solve_color_line_py, solve_line)
    solve_color_line = _native.solve_color_line
