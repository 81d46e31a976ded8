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

from typing import NamedTuple

from .model import Clue

Mask = int


class LineResult(NamedTuple):
    """What one line implies."""

    black: Mask
    """Every cell that is black in all placements (includes the known black cells)."""
    white: Mask
    """Every cell that is white in all placements (includes the known white cells)."""
    starts: tuple[Mask, ...]
    """For each block, the mask of its valid start positions."""


_BYTE_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def _reverse(x: Mask, width: int) -> Mask:
    """Mirror the low ``width`` bits of ``x`` (which must have no higher bits set).

    Big-endian bytes with each byte's bits reversed, read back little-endian, is
    the bit-reversal of the whole byte string; the shift drops the padding.
    """
    if width <= 0:
        return 0
    size = (width + 7) >> 3
    return int.from_bytes(x.to_bytes(size, "big").translate(_BYTE_REVERSED), "little") >> ((size << 3) - width)


def _reach(starts: Mask, passable: Mask) -> Mask:
    """Every position reachable by walking right from ``starts`` through ``passable`` cells."""
    return ((passable + (starts & passable)) ^ passable) | starts


def _runs_of(mask: Mask, c: int) -> Mask:
    """Positions p such that bits p..p+c-1 of ``mask`` are all set."""
    r = mask
    have = 1
    while have < c:
        step = have if have <= c - have else c - have
        r &= r >> step
        have += step
    return r


def spread(v: Mask, c: int) -> Mask:
    """OR of ``v`` shifted left by 0..c-1 (cells covered by blocks of length c starting in v)."""
    r = v
    have = 1
    while have < c:
        step = have if have <= c - have else c - have
        r |= r << step
        have += step
    return r


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


def solve_line(clue: Clue, n: int, black: Mask = 0, white: Mask = 0) -> LineResult | None:
    """Solve one line completely.

    Returns ``None`` when no placement of ``clue`` in ``n`` cells agrees with
    the known ``black`` and ``white`` cells; otherwise a :class:`LineResult`.

    Known ends are trimmed first: if cells ``[0, t)`` are all known and cell
    ``t - 1`` is white, every placement puts the first blocks exactly on the
    black runs of ``[0, t)`` (or none fits, when their lengths differ from the
    clue's), so only the cells between such a prefix and a suffix of the same
    kind, with the blocks left over, go through the full solver.  On a large
    grid late in propagation this halves the work per line.

    >>> r = solve_line((3,), 4)
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
    table = _BYTE_REVERSED
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


class LineSolver:
    """:func:`solve_line` with a result cache keyed by ``(clue, n, black, white)``;
    :meth:`color` does the same for :func:`solve_color_line`.

    One instance can serve many puzzles; the cache is bounded by ``max_entries``
    (cleared wholesale when full, which keeps the hot path a single dict lookup).
    """

    __slots__ = ("_cache", "_color_cache", "max_entries", "calls", "hits")

    def __init__(self, max_entries: int = 1 << 20) -> None:
        self._cache: dict[tuple[Clue, int, Mask, Mask], LineResult | None] = {}
        self._color_cache: dict[tuple, ColorLineResult | None] = {}
        self.max_entries = max_entries
        self.calls = 0
        self.hits = 0

    def color(self, lengths: Clue, colors: tuple[int, ...], n: int,
              excluded: tuple[Mask, ...]) -> ColorLineResult | None:
        """:func:`solve_color_line`, cached."""
        self.calls += 1
        key = (lengths, colors, n, excluded)
        cache = self._color_cache
        try:
            r = cache[key]
            self.hits += 1
            return r
        except KeyError:
            pass
        r = solve_color_line(lengths, colors, n, excluded)
        if len(cache) >= self.max_entries:
            cache.clear()
        cache[key] = r
        return r

    def __call__(self, clue: Clue, n: int, black: Mask, white: Mask) -> LineResult | None:
        self.calls += 1
        key = (clue, n, black, white)
        try:
            r = self._cache[key]
            self.hits += 1
            return r
        except KeyError:
            pass
        r = solve_line(clue, n, black, white)
        if len(self._cache) >= self.max_entries:
            self._cache.clear()
        self._cache[key] = r
        return r


class ColorLineResult(NamedTuple):
    """What one line of a colour puzzle implies."""

    excluded: tuple[Mask, ...]
    """For each colour index v (0 = background), every cell that cannot have colour v
    in any placement (includes the cells excluded before)."""
    starts: tuple[Mask, ...]
    """For each block, the mask of its valid start positions."""


def solve_color_line(lengths: Clue, colors: tuple[int, ...], n: int,
                     excluded: tuple[Mask, ...]) -> ColorLineResult | None:
    """Solve one line of a colour puzzle completely.

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

    >>> r = solve_color_line((1, 1), (1, 2), 2, (0, 0, 0))
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
    table = _BYTE_REVERSED
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

