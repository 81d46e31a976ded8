"""A complete line solver for blocks whose length is a range (blotted clues).

A blotted clue number hides a block's length: the block has its colour and a
length of at least 1.  This kernel takes the general form, a length range per
block, ``lo[j] <= length <= hi[j]`` (an ordinary block has ``lo = hi``, a blot
``lo = 1, hi = n``), in black and white (one block colour) and in colour.  The
rules are those of ordinary blocks: consecutive blocks of the same colour need
at least one background cell between them, blocks of different colours may
touch.

:func:`solve_range_line` is generalised arc consistency for one line, bit-parallel
like :mod:`satnono.lines.bw` (read its header first); a set of positions is an
int.  Per block j with colour ``col`` and ``P`` = the cells that may have ``col``:

* ``S_j`` (left pass): the starts reachable from the left, as for fixed lengths:
  positions reached by walking right through may-be-background cells from the
  previous block's exclusive ends (one cell further first when the colours are
  the same), where ``lo_j`` cells in a row may have ``col``.
* ``Q_j``: the exclusive ends reachable from the left: ``S_j << lo_j``, then
  walked right through ``P`` by at most ``hi_j - lo_j`` steps.  The walk is one
  addition (the carry runs along a run of ``P``) when no run of ``P`` is longer
  than ``hi_j`` (a blot: the bound never binds); otherwise a logarithmic number
  of doubling steps.
* The same pass on the mirrored line gives, for each block, the starts from
  which the block and every block after it fit (its mirrored exclusive ends)
  and the last cells after which the following blocks fit (its mirrored
  starts).  A start (a last cell) is valid iff it is valid from both sides: the
  halves are independent once the block's start (or end) is fixed.
* Cells a block can cover: every valid start s and valid last cell e with
  ``lo <= e - s + 1 <= hi`` and ``[s, e]`` in ``P`` form a placement (left and
  right halves are independent).  With fixed length this is ``spread(starts,
  lo)``.  When the upper bound never binds, the cells covered in one run of
  ``P`` are exactly ``[first valid start, last valid end]`` of that run (every
  valid end has a valid start before it in its run, and conversely), the cells
  reached by walking right from the valid starts and left from the valid ends
  through ``P``.  Otherwise one AND per length in the range.
* A cell may be background iff it lies in some gap j from both sides, as in
  :func:`satnono.lines.color.solve_color_line`.

:func:`count_range_placements` counts the placements exactly with a dynamic
programme over blocks and exclusive ends (prefix sums make it O(k n)).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .bits import BYTE_REVERSED as _BYTE_REVERSED, Mask, runs_of, spread


class RangeLineResult(NamedTuple):
    """What one line with length ranges implies."""

    excluded: tuple[Mask, ...]
    """For each colour index v (0 = background), every cell that no placement gives colour v
    (includes the cells excluded before)."""
    starts: tuple[Mask, ...]
    """For each block, the mask of its valid start cells."""
    ends: tuple[Mask, ...]
    """For each block, the mask of its valid last cells."""


def _walk(q: Mask, passable: Mask, d: int) -> Mask:
    """Positions reached from ``q`` by at most ``d`` steps right, a step from p needing cell p passable.

    Doubling: with W_t the positions reached in at most t steps, W_{t+b} = W_t | ((W_t &
    runs(passable, b)) << b) for b <= t.
    """
    w = q | ((q & passable) << 1)
    have = 1
    r = passable  # runs of length `have`
    while have < d:
        if have <= d - have:
            w |= (w & r) << have
            r &= r >> have
            have += have
        else:
            step = d - have
            w |= (w & runs_of(passable, step)) << step
            have = d
    return w


def _pass(lo: Sequence[int], hi: Sequence[int], colors: Sequence[int], n: int,
          may: list[Mask]) -> tuple[list[Mask], list[Mask], list[Mask]] | None:
    """Left-to-right pass: (LF_0..LF_k, S_0..S_{k-1}, Q_0..Q_{k-1}), or None if nothing fits.

    ``LF_j``: positions q such that blocks 0..j-1 fit in cells [0, e) and cells [e, q) may be
    background (no separating cell added).  ``S_j``: starts of block j reachable from the left
    (with ``lo_j`` cells that may have its colour).  ``Q_j``: exclusive ends of block j reachable
    from the left.
    """
    bg = may[0] | (1 << n)  # a virtual background cell n ends the line
    lf: list[Mask] = []
    ss: list[Mask] = []
    qs: list[Mask] = []
    fit: dict[tuple[int, int], Mask] = {}
    e = 1
    prev = 0
    for a, b, col in zip(lo, hi, colors):
        reach = ((bg + (e & bg)) ^ bg) | e
        lf.append(reach)
        if col == prev:  # same colour: at least one background cell first
            e2 = (e & bg) << 1
            reach = ((bg + (e2 & bg)) ^ bg) | e2
        p = may[col]
        f = fit.get((a, col))
        if f is None:
            f = fit[(a, col)] = runs_of(p, a)
        s = reach & f
        if not s:
            return None
        ss.append(s)
        q = s << a
        if b > a:
            if b >= n or not runs_of(p, b + 1):  # no run longer than b: walk to the end of each run
                q = ((p + (q & p)) ^ p) | q
            else:
                q = _walk(q, p, b - a)
        qs.append(q)
        e = q
        prev = col
    reach = ((bg + (e & bg)) ^ bg) | e
    if not (reach >> n) & 1:
        return None
    lf.append(reach)
    return lf, ss, qs


def solve_range_line(lo: tuple[int, ...], hi: tuple[int, ...], colors: tuple[int, ...], n: int,
                     excluded: tuple[Mask, ...]) -> RangeLineResult | None:
    """Solve one line whose blocks have length ranges, completely.

    Block j has colour ``colors[j]`` (1..K) and a length in ``lo[j]..hi[j]`` (``1 <= lo[j] <=
    hi[j]``; a blotted block is ``1..n``).  ``excluded[v]`` is the mask of cells known not to
    have colour v (v = 0 the background; ``len(excluded)`` is K + 1, 2 in black and white).
    Returns None when no placement fits; otherwise every cell's colours that no placement
    allows are added to ``excluded``, with each block's valid starts and valid last cells.

    >>> r = solve_range_line((1, 1), (3, 3), (1, 1), 4, (0b0010, 0))
    >>> [bin(x) for x in r.excluded], [bin(x) for x in r.starts], [bin(x) for x in r.ends]
    (['0b1010', '0b100'], ['0b11', '0b1000'], ['0b10', '0b1000'])
    """
    full = (1 << n) - 1
    nvals = len(excluded)
    k = len(lo)
    may = [full & ~x for x in excluded]
    fwd = _pass(lo, hi, colors, n, may)
    if fwd is None:
        return None
    # mirror with one padded width (whole bytes, >= n + 2 bits): bit b -> bit top - b
    size = (n + 9) >> 3
    top = (size << 3) - 1
    drop = top + 1 - n  # a mirrored cell i' = n - 1 - i comes back as cell i after >> drop
    table = _BYTE_REVERSED
    fb = int.from_bytes
    rmay = [0] * nvals
    for v in {0, *colors}:  # only the values this line has are read
        rmay[v] = fb(may[v].to_bytes(size, "big").translate(table), "little") >> drop
    rlo, rhi, rcolors = lo[::-1], hi[::-1], colors[::-1]
    bwd = _pass(rlo, rhi, rcolors, n, rmay)
    if bwd is None:  # cannot happen when the forward pass succeeded; kept as a guard
        return None
    lf, sf, qf = fwd
    lb, sb, qb = bwd
    starts: list[Mask] = []
    ends: list[Mask] = []
    can = [0] * nvals
    for j in range(k):
        a, b, col = lo[j], hi[j], colors[j]
        jb = k - 1 - j
        # a mirrored exclusive end q' is the start n - q'; a mirrored start s' the last cell n - 1 - s'
        vs = sf[j] & (fb(qb[jb].to_bytes(size, "big").translate(table), "little") >> (drop - 1))
        if not vs:
            return None
        starts.append(vs)
        if a == b:  # a fixed length: the valid ends are the valid starts moved
            ends.append(vs << (a - 1))
            can[col] |= spread(vs, a)
            continue
        ve = (qf[j] >> 1) & (fb(sb[jb].to_bytes(size, "big").translate(table), "little") >> drop)
        if not ve:
            return None
        ends.append(ve)
        p = may[col]
        if b >= n or not runs_of(p, b + 1):
            # per run of p: [first valid start, last valid end]
            right = (((p + (vs & p)) ^ p) | vs) & p
            rve = fb(ve.to_bytes(size, "big").translate(table), "little") >> drop
            rp = rmay[col]
            rleft = (((rp + (rve & rp)) ^ rp) | rve) & rp
            left = fb(rleft.to_bytes(size, "big").translate(table), "little") >> drop
            can[col] |= right & left
        else:
            r = runs_of(p, a)
            for length in range(a, b + 1):
                if length > a:
                    r &= p >> (length - 1)
                    if not r:
                        break
                x = vs & (ve >> (length - 1)) & r
                if x:
                    can[col] |= spread(x, length)
    can_bg = 0
    for j in range(k + 1):
        can_bg |= lf[j] & (fb((lb[k - j] & full).to_bytes(size, "big").translate(table), "little") >> drop)
    can[0] = can_bg & may[0]
    covered = 0
    for x in can:
        covered |= x
    if covered != full:  # cannot happen when both passes succeeded; kept as a guard
        return None
    return RangeLineResult(tuple(full & ~x for x in can), tuple(starts), tuple(ends))


def count_range_placements(lo: tuple[int, ...], hi: tuple[int, ...], colors: tuple[int, ...], n: int,
                           excluded: tuple[Mask, ...]) -> int:
    """The exact number of placements of the blocks that agree with ``excluded``.

    Arguments as for :func:`solve_range_line`.  A dynamic programme over blocks: ``F[q]`` is
    the number of ways to place the blocks so far with the last one's exclusive end at q;
    ``G[p]`` sums ``F[q]`` over the q whose cells [q, p) may all be background; a block of
    lengths ``lo..hi`` ending before q starts at some s with cells [s, q) of its colour, a
    window of s summed with prefix sums.

    >>> count_range_placements((1,), (3,), (1,), 3, (0, 0))
    6
    """
    full = (1 << n) - 1
    bg = [(full & ~excluded[0]) >> i & 1 for i in range(n)]
    f = [0] * (n + 1)
    f[0] = 1
    prev = 0
    runs: dict[int, list[int]] = {}

    def through_background(f: list[int]) -> list[int]:
        g = [0] * (n + 1)
        acc = 0
        for p in range(n + 1):
            acc = f[p] + (acc if p and bg[p - 1] else 0)
            g[p] = acc
        return g

    for a, b, col in zip(lo, hi, colors):
        g = through_background(f)
        if col == prev:  # at least one background cell: start s needs cell s - 1 background
            g = [0] + [g[s - 1] if bg[s - 1] else 0 for s in range(1, n + 1)]
        prefix = [0] * (n + 2)  # prefix[s] = g[0] + ... + g[s - 1]
        for s in range(n + 1):
            prefix[s + 1] = prefix[s] + g[s]
        run = runs.get(col)
        if run is None:  # run[q]: cells of this colour in a row ending at cell q - 1
            may = full & ~excluded[col]
            run = [0] * (n + 1)
            for q in range(1, n + 1):
                run[q] = run[q - 1] + 1 if (may >> (q - 1)) & 1 else 0
            runs[col] = run
        f = [0] * (n + 1)
        for q in range(a, n + 1):
            longest = min(b, run[q])
            if longest >= a:  # starts q - longest .. q - a
                f[q] = prefix[q - a + 1] - prefix[q - longest]
        prev = col
    return through_background(f)[n]
