"""The numpy batch line kernel: complete line solving of many black-and-white lines at once.

Lines of up to :data:`MAX_FAST_SIDE` cells are packed into uint64 masks (bit i
= cell i) and solved by the same method as :func:`satnono.lines.bw.solve_line`,
one numpy operation for all lines; :func:`propagate_many` runs line
propagation to the fixpoint for a batch of pictures of one size.

The kernel knows black-and-white clues only: :func:`supports` says whether it
can work on a puzzle, and the kernel raises
:class:`satnono.errors.UnsupportedOperation` when called on lines it cannot
handle.  Callers that get ``False`` use the scalar path.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..errors import UnsupportedOperation
from ..model import Grid, Puzzle
from .switches import find_switch

if TYPE_CHECKING:
    from . import LineSolver

#: Longest line the vectorised engine handles (bits n+1 of a uint64 are used).
MAX_FAST_SIDE = 62

U64 = np.uint64


def handles(puzzle: Puzzle) -> bool:
    """True when :func:`propagate_many` (and the array helpers here) can work on ``puzzle``:
    black-and-white clues and no rules, any size.  Givens are fine (pass them as known
    cells).  Sides beyond :data:`MAX_FAST_SIDE` are propagated one picture at a time
    by the scalar propagation; :func:`supports` says whether the vectorised kernel
    itself runs.  Blotted clues are not handled (the kernel takes fixed lengths)."""
    return not puzzle.is_color and not puzzle.rules and not puzzle.has_blots


def supports(puzzle: Puzzle) -> bool:
    """True when the vectorised kernel solves every line of ``puzzle``: black-and-white
    clues, no rules, both sides at most :data:`MAX_FAST_SIDE` (givens are fine).

    >>> from satnono.model import Puzzle
    >>> supports(Puzzle.from_grid(["#.", ".#"])), supports(Puzzle.from_grid(["#" * 63]))
    (True, False)
    """
    return handles(puzzle) and max(puzzle.width, puzzle.height) <= MAX_FAST_SIDE


def fits(h: int, w: int) -> bool:
    """True when pictures of ``h`` x ``w`` cells go through the vectorised kernel."""
    return max(h, w) <= MAX_FAST_SIDE


def grid_of(a: np.ndarray) -> Grid:
    """A bool array as row strings of ``#``/``.``."""
    lut = np.array([ord("."), ord("#")], np.uint8)
    b = lut[a.astype(np.uint8)]
    return tuple(row.tobytes().decode("ascii") for row in b)


def row_masks(a: np.ndarray) -> list[int]:
    """Rows of a 2-D bool array as Python int masks, bit c = column c (any width)."""
    w = a.shape[1]
    if w <= 64:
        return [int(x) for x in pack(a)]
    weights = [1 << c for c in range(w)]
    return [sum(weights[c] for c in np.flatnonzero(row)) for row in a]


def switch_of(goal: np.ndarray, open_: np.ndarray) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """:func:`satnono.lines.switches.find_switch` on a ``(h, w)`` bool goal and its open cells."""
    return find_switch(row_masks(goal), row_masks(np.ascontiguousarray(goal.T)), row_masks(open_),
                       row_masks(np.ascontiguousarray(open_.T)))


# ---------------------------------------------------------------------------
# The vectorised complete line solver (many lines of the same length at once)

_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def _rev64(x: np.ndarray) -> np.ndarray:
    """Bit-reverse each uint64."""
    return _REV8[x.byteswap().view(np.uint8)].view(U64)


def _nsteps(cmax: int) -> int:
    n, have = 0, 1
    while have < cmax:
        have += min(have, cmax - have)
        n += 1
    return n


def _spread(v: np.ndarray, c: np.ndarray, nsteps: int) -> np.ndarray:
    """OR of ``v`` shifted left by 0..c-1 (per element c)."""
    r = v
    have = np.ones_like(c)
    for _ in range(nsteps):
        step = np.minimum(have, c - np.minimum(c, have))
        r = r | (r << step)
        have = have + step
    return r


def _forward(cl, act, may_black, may_white, m, ar):
    """Left-to-right pass for every line: the reach sets L_0..L_kmax and start sets S_0..S_kmax-1."""
    cmax = max((int(c.max()) for c in cl), default=0)
    # runs[t][p]: cells p..p+t may all be black (one table serves every block)
    runs = np.empty((max(cmax, 1), m), U64)
    runs[0] = may_black
    for t in range(1, cmax):
        runs[t] = runs[t - 1] & (may_black >> U64(t))
    e = np.ones(m, U64)
    pw = may_white
    ls, ss = [], []
    for j, c in enumerate(cl):
        reach = ((pw + (e & pw)) ^ pw) | e
        ls.append(reach)
        s = reach & runs[np.maximum(c, U64(1)) - U64(1), ar] & (may_white >> c)
        ss.append(s)
        e = np.where(act[j], s << (c + U64(1)), e)
    ls.append(((pw + (e & pw)) ^ pw) | e)
    return ls, ss


def solve_lines(n: np.ndarray, black: np.ndarray, white: np.ndarray, clue: np.ndarray, rclue: np.ndarray,
                k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Complete line solving of ``m`` lines (of up to 62 cells) at once.

    ``n``: the length of each line (uint64); ``black``/``white``: known cells
    per line (uint64, bit i = cell i); ``clue``/``rclue``: ``(m, kmax)``
    uint64 block lengths, left-aligned, and the same reversed per line; ``k``:
    blocks per line.  Returns the masks of cells forced black and forced white
    (known ones included).  The lines must be consistent (as when their known
    cells come from propagating a real solution).  Same method as
    :func:`satnono.lines.bw.solve_line`, one numpy operation for all lines.
    """
    m, kmax = clue.shape
    if m and int(np.max(n)) > MAX_FAST_SIDE:
        raise UnsupportedOperation(f"the vectorised line kernel takes lines of at most {MAX_FAST_SIDE} cells, "
                                   f"got {int(np.max(n))}")
    one = U64(1)
    vbit = one << n
    full = vbit - one
    may_black = full & ~white
    may_white = (full & ~black) | vbit
    cl = [np.ascontiguousarray(clue[:, j]) for j in range(kmax)]
    rcl = [np.ascontiguousarray(rclue[:, j]) for j in range(kmax)]
    act = [k > j for j in range(kmax)]
    ar = np.arange(m)
    lf, sf = _forward(cl, act, may_black, may_white, m, ar)
    sh = U64(64) - n
    rmb = _rev64(may_black) >> sh
    rmw = (_rev64(may_white & full) >> sh) | vbit
    lb, sb = _forward(rcl, act, rmb, rmw, m, ar)
    can_black = np.zeros(m, U64)
    if kmax:
        sbs = np.stack(sb)
        base = U64(63) - n
        for j in range(kmax):
            c = cl[j]
            g = sbs[np.maximum(k - 1 - j, 0), ar]
            v = sf[j] & (_rev64(g) >> (base + c))  # mirror over the n - c + 1 start positions
            can_black |= np.where(act[j], _spread(v, c, _nsteps(int(c.max()))), U64(0))
    lbs = np.stack(lb)
    can_white = np.zeros(m, U64)
    for j in range(kmax + 1):
        left = (lf[j] >> one) & full
        right = _rev64((lbs[np.maximum(k - j, 0), ar] >> one) & full) >> sh
        if j == 0:
            can_white |= left & right
        else:
            can_white |= np.where(k >= j, left & right, U64(0))
    can_white &= may_white
    return full & ~can_white, full & ~can_black


def clue_arrays(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clues of the lines of a ``(m, n)`` bool array: ``(clue, rclue, k)`` as for :func:`solve_lines`."""
    m, n = a.shape
    p = np.zeros((m, n + 2), np.int8)
    p[:, 1:-1] = a
    d = np.diff(p, axis=1)
    sl, sp = np.nonzero(d == 1)
    _, ep = np.nonzero(d == -1)
    lengths = (ep - sp).astype(U64)
    k = np.bincount(sl, minlength=m)
    kmax = int(k.max()) if m else 0
    first = np.zeros(m, np.int64)
    if m:
        first[1:] = np.cumsum(k)[:-1]
    idx = np.arange(len(sl)) - first[sl]
    clue = np.zeros((m, kmax), U64)
    clue[sl, idx] = lengths
    rclue = np.zeros((m, kmax), U64)
    rclue[sl, k[sl] - 1 - idx] = lengths
    return clue, rclue, k.astype(np.int64)


def _pad(a: np.ndarray, kmax: int) -> np.ndarray:
    out = np.zeros((a.shape[0], kmax), a.dtype)
    out[:, :a.shape[1]] = a
    return out


def pack(a: np.ndarray) -> np.ndarray:
    """Rows of a ``(m, n <= 64)`` bool array as uint64 masks (bit i = column i)."""
    m, n = a.shape
    if n > 64:
        raise UnsupportedOperation(f"uint64 masks hold lines of at most 64 cells, got {n}")
    b = np.packbits(a, axis=1, bitorder="little")
    out = np.zeros((m, 8), np.uint8)
    out[:, :b.shape[1]] = b
    return out.view("<u8").ravel().astype(U64, copy=False)


def unpack(x: np.ndarray, n: int) -> np.ndarray:
    """uint64 masks to a ``(m, n)`` bool array (the inverse of :func:`pack`)."""
    m = x.shape[0]
    b = np.ascontiguousarray(x, dtype="<u8").view(np.uint8).reshape(m, 8)
    return np.unpackbits(b, axis=1, bitorder="little", count=n).view(bool)


def propagate_many(goals: np.ndarray, known_black: np.ndarray | None = None,
                   known_white: np.ndarray | None = None,
                   lines: LineSolver | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Line propagation to the fixpoint for ``B`` pictures of one size at once.

    ``goals``: ``(B, h, w)`` bool, each a solution of its own clues (the clues
    are computed from it).  Optional starting knowledge ``known_*`` (cells of
    the goal revealed, e.g. givens) must agree with the goals.  Returns the
    known-black and known-white ``(B, h, w)`` arrays at the fixpoint: what
    :func:`satnono.logic.propagate.propagate` finds (the fixpoint of complete line
    solving does not depend on the order lines are visited in).  Sides up to
    :data:`MAX_FAST_SIDE` are vectorised; larger pictures go through
    :func:`satnono.logic.propagate.propagate` one at a time, with the line solver
    ``lines`` (a fresh one by default).

    Rows and columns are solved together in rounds (every dirty line of every
    picture in one vectorised call), each round from the knowledge the last
    one left.
    """
    B, h, w = goals.shape
    if not fits(h, w):
        return _propagate_scalar(goals, known_black, known_white, lines)
    if B == 0:
        return np.zeros((0, h, w), bool), np.zeros((0, h, w), bool)
    bh = B * h
    rc, rrc, rk = clue_arrays(goals.reshape(bh, w))
    cc, rcc, ck = clue_arrays(np.ascontiguousarray(goals.transpose(0, 2, 1)).reshape(B * w, h))
    kmax = max(rc.shape[1], cc.shape[1])
    clue = np.concatenate((_pad(rc, kmax), _pad(cc, kmax)))
    rclue = np.concatenate((_pad(rrc, kmax), _pad(rcc, kmax)))
    kk = np.concatenate((rk, ck))
    lens = np.concatenate((np.full(bh, w, U64), np.full(B * w, h, U64)))
    fulls = (U64(1) << lens) - U64(1)
    mb = np.zeros(bh + B * w, U64)
    mw = np.zeros(bh + B * w, U64)
    if known_black is not None:
        mb[:bh] = pack(known_black.reshape(bh, w))
        mb[bh:] = pack(np.ascontiguousarray(known_black.transpose(0, 2, 1)).reshape(B * w, h))
    if known_white is not None:
        mw[:bh] = pack(known_white.reshape(bh, w))
        mw[bh:] = pack(np.ascontiguousarray(known_white.transpose(0, 2, 1)).reshape(B * w, h))
    dirty = np.ones(bh + B * w, bool)
    nmax = max(h, w)

    def scatter(idx: np.ndarray, bits: np.ndarray, masks: np.ndarray) -> None:
        """Copy new cells of lines ``idx`` into their crossing lines and mark those dirty."""
        sel = bits != 0
        if not sel.any():
            return
        li, pos = np.nonzero(unpack(bits[sel], nmax))
        src = idx[sel][li]
        row = src < bh
        b_r, r = np.divmod(src, h)
        b_c, c = np.divmod(src - bh, w)
        tgt = np.where(row, bh + b_r * w + pos, b_c * h + pos)
        bit = U64(1) << np.asarray(np.where(row, r, c)).astype(U64)
        fresh = (masks[tgt] & bit) == 0  # not already found by the crossing line itself
        tgt, bit = tgt[fresh], bit[fresh]
        np.bitwise_or.at(masks, tgt, bit)
        dirty[tgt] = True

    while True:
        idx = np.flatnonzero(dirty)
        if not idx.size:
            break
        dirty[idx] = False
        bl, wh = mb[idx], mw[idx]
        open_ = (bl | wh) != fulls[idx]  # a complete line is consistent: nothing to learn
        if not open_.all():
            idx, bl, wh = idx[open_], bl[open_], wh[open_]
            if not idx.size:
                break
        k = kk[idx]
        km = int(k.max())
        fb, fw = solve_lines(lens[idx], bl, wh, clue[idx, :km], rclue[idx, :km], k)
        nb = fb & ~bl
        nw = fw & ~wh
        mb[idx] |= nb
        mw[idx] |= nw
        scatter(idx, nb, mb)
        scatter(idx, nw, mw)
    kb = unpack(mb[:bh], w).reshape(B, h, w)
    kw = unpack(mw[:bh], w).reshape(B, h, w)
    return kb, kw


def _propagate_scalar(goals: np.ndarray, known_black: np.ndarray | None, known_white: np.ndarray | None,
                      lines: LineSolver | None) -> tuple[np.ndarray, np.ndarray]:
    from ..logic.propagate import propagate
    from ..logic.state import GridState
    from . import LineSolver

    B, h, w = goals.shape
    kb = np.zeros((B, h, w), bool)
    kw = np.zeros((B, h, w), bool)
    if lines is None:
        lines = LineSolver()
    for b in range(B):
        p = Puzzle.from_grid(grid_of(goals[b]))
        st = GridState(p)
        if known_black is not None:
            for r, c in zip(*np.nonzero(known_black[b])):
                st.set_cell(int(r), int(c), True)
        if known_white is not None:
            for r, c in zip(*np.nonzero(known_white[b])):
                st.set_cell(int(r), int(c), False)
        bad = propagate(st, lines)
        if bad is not None:
            raise ValueError("the known cells contradict the goal")
        for r in range(h):
            kb[b, r] = [(st.row_black[r] >> c) & 1 for c in range(w)]
            kw[b, r] = [(st.row_white[r] >> c) & 1 for c in range(w)]
    return kb, kw
