"""A complete line solver on Python-int bitmasks.

Given one line's clue and the cells already known (``black`` and ``white``
masks, bit ``i`` = cell ``i``), :func:`solve_line` finds *every* cell forced
by that line alone (generalised arc consistency for one line) together with the
set of valid start positions of each block, or reports that no placement fits.

The method is a bit-parallel dynamic programme over block index: a set of
positions is an int, "walk right through cells that may be white" is one
addition (the carry runs along each run of ones), and "c cells in a row may be
black" is a logarithmic number of AND-shifts.  Each line costs O(k log c)
big-int operations for k blocks, whatever its length.

Definitions used below, for a line of n cells with a virtual white cell n:

* ``L_j`` is the set of q in 0..n+1 such that cells [0, q) can hold blocks
  0..j-1 consistently with cell q-1 white (or q = 0).
* ``S_j`` is the set of starts s of block j reachable from the left:
  s in L_j, cells s..s+c_j-1 may be black, cell s+c_j may be white.
* The same pass on the mirrored line gives the right-hand sets; a start is
  valid iff it is valid from both sides (the two halves are independent once
  the block and its separators are fixed), and a cell may be white iff for
  some gap j it is a white gap cell from the left and from the right.
"""

from __future__ import annotations

from operator import itemgetter
from typing import NamedTuple

from .bits import BYTE_REVERSED, Mask, native_core, reach as _reach, reverse as _reverse, runs_of as _runs_of, spread

Clue = tuple[int, ...]


class _LineFacts(NamedTuple):
    black: Mask
    white: Mask
    starts: tuple[Mask, ...]


class LineResult(_LineFacts):
    """What one line implies: ``black``, every cell that is black in all placements (the known
    black cells included); ``white``, every cell white in all placements; ``starts``, for each
    block, the mask of its valid start positions."""

    __slots__ = ()

    excluded = property(itemgetter(0, 1), doc="""``(black, white)``: what every kernel's result
    has, per value the cells that cannot have it (not background = black, not black = white).""")


def _forward(clue: Clue, n: int, may_black: Mask, may_white: Mask) -> tuple[list[Mask], list[Mask]] | None:
    """Left-to-right pass: (L_0..L_k, S_0..S_{k-1}), or None if infeasible.

    ``may_white`` includes the virtual white cell n.
    """
    ls: list[Mask] = []
    ss: list[Mask] = []
    fit: dict[int, Mask] = {}  # block length -> starts where it fits and is followed by a may-white cell
    e = 1
    for c in clue:
        reach = ((may_white + (e & may_white)) ^ may_white) | e  # _reach, inlined: this is the hot loop
        ls.append(reach)
        f = fit.get(c)
        if f is None:
            f = fit[c] = _runs_of(may_black, c) & (may_white >> c)
        s = reach & f
        if not s:
            return None
        ss.append(s)
        e = s << (c + 1)
    reach = _reach(e, may_white)
    if not (reach >> (n + 1)) & 1:
        return None
    ls.append(reach)
    return ls, ss


def _run_starts(x: Mask, lengths: Clue) -> list[Mask] | None:
    """The start bits of the runs of ``x`` if their lengths are exactly ``lengths``, else None."""
    s = x & ~(x << 1)
    out = []
    total = 0
    for c in lengths:
        low = s & -s
        s ^= low
        out.append(low)
        total += (low << c) - low  # the run of c cells from low
    return out if not s and total == x else None


def _solve_line_py(clue: Clue, n: int, black: Mask = 0, white: Mask = 0) -> LineResult | None:
    """Solve one line completely (the Python reference of :func:`solve_line`).

    Returns ``None`` when no placement of ``clue`` in ``n`` cells agrees with
    the known ``black`` and ``white`` cells; otherwise a :class:`LineResult`.

    Known ends are trimmed first: if cells ``[0, t)`` are all known and cell
    ``t - 1`` is white, every placement puts the first blocks exactly on the
    black runs of ``[0, t)`` (or none fits, when their lengths differ from the
    clue's), so only the cells between such a prefix and a suffix of the same
    kind, with the blocks left over, go through the full solver.  On a large
    grid late in propagation this halves the work per line.

    >>> r = _solve_line_py((3,), 4)
    >>> bin(r.black), bin(r.white), [bin(s) for s in r.starts]
    ('0b110', '0b0', ['0b11'])
    """
    if black & white:
        return None
    full = (1 << n) - 1
    unknown = full & ~(black | white)
    if unknown:
        # cells [0, t) known with cell t - 1 white (t = 0: no such prefix);
        # cells (t2, n) known with cell t2 white (t2 = n: no such suffix)
        t = (white & ((unknown & -unknown) - 1)).bit_length()
        hi = unknown.bit_length()
        after = white >> hi
        t2 = hi + (after & -after).bit_length() - 1 if after else n
        if t == 0 and t2 == n:
            return _solve(clue, n, black, white)
    else:
        t = t2 = n  # a complete line: it is its own prefix
    k = len(clue)
    pre = black & ((1 << t) - 1)
    suf = black >> (t2 + 1) if t2 < n else 0
    m = (pre & ~(pre << 1)).bit_count()
    m2 = (suf & ~(suf << 1)).bit_count()
    if m + m2 > k or (not unknown and m != k):
        return None
    pre_starts = _run_starts(pre, clue[:m])
    suf_starts = _run_starts(suf, clue[k - m2:])
    if pre_starts is None or suf_starts is None:
        return None
    if not unknown:
        return LineResult(black, white, tuple(pre_starts))
    size = t2 - t
    mask = (1 << size) - 1
    sub = _solve(clue[m:k - m2], size, (black >> t) & mask, (white >> t) & mask)
    if sub is None:
        return None
    return LineResult(
        black | (sub.black << t),
        white | (sub.white << t),
        (*pre_starts, *(v << t for v in sub.starts), *(v << (t2 + 1) for v in suf_starts)),
    )


def _solve(clue: Clue, n: int, black: Mask, white: Mask) -> LineResult | None:
    """The full bit-parallel solver (:func:`solve_line` without trimming); ``black & white == 0``."""
    full = (1 << n) - 1
    k = len(clue)
    if k == 0:
        if black:
            return None
        return LineResult(0, full, ())
    may_black = full & ~white
    may_white = (full & ~black) | (1 << n)
    fwd = _forward(clue, n, may_black, may_white)
    if fwd is None:
        return None
    rclue = clue[::-1]
    rmay_black = _reverse(may_black, n)
    rmay_white = _reverse(may_white & full, n) | (1 << n)
    bwd = _forward(rclue, n, rmay_black, rmay_white)
    if bwd is None:  # cannot happen when the forward pass succeeded; kept as a guard
        return None
    lf, sf = fwd
    lb, sb = bwd

    # Mirror the backward sets back, all with one padded width (a whole number
    # of bytes, >= n + 2 bits): bit b of a set lands on bit pad - 1 - b.  A
    # mirrored start s' of block j is the original start n - c_j - s', i.e. the
    # mirrored bit shifted right by pad - 1 - n + c_j; a mirrored gap position
    # n - i is original cell i after a shift by pad - 1 - n.
    size = (n + 9) >> 3
    shift = (size << 3) - 1 - n
    table = BYTE_REVERSED
    fb = int.from_bytes
    rsb = [fb(x.to_bytes(size, "big").translate(table), "little") for x in sb]
    rlb = [fb(x.to_bytes(size, "big").translate(table), "little") for x in lb]

    starts = []
    by_length: dict[int, Mask] = {}  # valid starts of all blocks of one length: spread once per length
    for j, c in enumerate(clue):
        v = sf[j] & (rsb[k - 1 - j] >> (shift + c))
        if not v:
            return None
        starts.append(v)
        by_length[c] = by_length.get(c, 0) | v
    can_black = 0
    for c, v in by_length.items():
        can_black |= spread(v, c)

    can_white = 0
    for j in range(k + 1):
        can_white |= lf[j] & (rlb[k - j] >> (shift - 1))
    can_white = (can_white >> 1) & may_white & full

    forced_black = full & ~can_white
    forced_white = full & ~can_black
    if forced_black & forced_white:
        return None
    return LineResult(forced_black, forced_white, tuple(starts))


solve_line = _solve_line_py
"""Solve one line completely: :func:`_solve_line_py`, or its C transcription in the compiled
core (``satnono.lines._native``: lines of any length, on 128-bit masks up to ``KERNEL_MAX_N`` cells and
on arrays of 64-bit words beyond; it hands unusual arguments to the Python reference) when that was
built and ``SATNONO_PURE`` is not set.  Same results."""

_native = native_core()
NATIVE = _native is not None
"""Whether :func:`solve_line` is the compiled kernel."""
if _native is not None:
    _native.configure(LineResult, _solve_line_py)
    solve_line = _native.solve_line
