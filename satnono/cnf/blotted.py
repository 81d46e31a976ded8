"""CNF of one line whose blocks have length ranges (blotted clues).

The order encoding of :mod:`satnono.cnf.encode` with an END ladder beside each
block's start ladder, since a block's end no longer follows from its start.
For block j (colour ``col_j``, length ``lo_j..hi_j``):

* y[j,p] "block j starts at or before p", z[j,p] "block j's last cell is at or
  before p"; each ladder spans only the valid starts (ends) given, constant
  false below the lowest, true from the highest.  A block of fixed length
  (lo = hi) has no end ladder of its own: z[j,p] is y[j,p-lo+1], so such a
  block costs what it costs in :mod:`satnono.cnf.encode`.

Clauses (constant literals folded):

* ladder      y[j,p] -> y[j,p+1], z[j,p] -> z[j,p+1]
* holes       s_j != p, e_j != p for the invalid p between the lowest and highest valid one
* length      z[j,p] -> y[j,p-lo_j+1]  (e - s + 1 >= lo_j)
              y[j,p] -> z[j,p+hi_j-1]  (e - s + 1 <= hi_j)   (lo_j < hi_j only)
* order       y[j+1,p] -> z[j,p-1-same_j]   (s_{j+1} >= e_j + 1 + [col_j == col_{j+1}])
* cover       block j covers i (s_j <= i <= e_j) -> cell i has col_j:
              x_{i,col_j} v -y[j,i] v z[j,i-1]
* support     cell i has colour v -> the last block started by i covers i and has colour v:
              (-x_iv v y[0,i]) and for each j (-x_iv v -y[j,i] v y[j+1,i] [v -z[j,i-1] when col_j = v])
* absent      -x_iv for the colours v in 1..K the line has no block of

Blocks are ordered and disjoint, so a cell covered by some block is covered by
the last block started by it; cover and support make "cell i has colour v"
equivalent to "the block covering i has colour v", and "no colour" (the
background) equivalent to "uncovered".  A colouring of the line fixes its
blocks (maximal runs; same-colour blocks never touch), so the ladders are
functionally determined by the cells and the models projected onto the cell
literals are exactly the placements.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

Clause = list[int]

_TRUE = object()
_FALSE = object()


class _Ladder:
    """Order variables "position <= p" over the valid positions ``mask`` from ``first_var``."""

    __slots__ = ("base", "high", "low", "mask")

    def __init__(self, first_var: int, mask: int) -> None:
        self.mask = mask
        self.low = (mask & -mask).bit_length() - 1
        self.high = mask.bit_length() - 1
        self.base = first_var - self.low  # variable of p is base + p for low <= p < high

    def moved(self, d: int) -> _Ladder:
        """The same variables read as "position + d <= p" (no new variable, no clause of its own)."""
        other = _Ladder.__new__(_Ladder)
        other.mask = self.mask << d
        other.low = self.low + d
        other.high = self.high + d
        other.base = self.base - d
        return other

    @property
    def size(self) -> int:
        return self.high - self.low

    def le(self, p: int):
        """The literal "position <= p" (or a constant)."""
        if p < self.low:
            return _FALSE
        if p >= self.high:
            return _TRUE
        return self.base + p

    def gt(self, p: int):
        """The literal "position > p" (or a constant)."""
        if p < self.low:
            return _TRUE
        if p >= self.high:
            return _FALSE
        return -(self.base + p)

    def clauses(self, out: list[Clause]) -> None:
        """Ladder and hole clauses."""
        low, high, base, mask = self.low, self.high, self.base, self.mask
        out += [[-(base + p), base + p + 1] for p in range(low, high - 1)]
        out += [[-(base + p), base + p - 1] for p in range(low + 1, high) if not (mask >> p) & 1]


def _add(out: list[Clause], *lits) -> None:
    """Append the clause of ``lits`` with constants folded (nothing when one is true)."""
    cl = []
    for x in lits:
        if x is _TRUE:
            return
        if x is not _FALSE:
            cl.append(x)
    out.append(cl)


def _neg(x):
    return _FALSE if x is _TRUE else _TRUE if x is _FALSE else -x


def range_line_clauses(first_var: int, lo: Sequence[int], hi: Sequence[int], colors: Sequence[int], n: int,
                       starts: Sequence[int], ends: Sequence[int], cell_lit: Callable[[int, int], int],
                       ncolors: int | None = None) -> tuple[list[Clause], int]:
    """The clauses of one line with length ranges, and the next free variable.

    Block j has colour ``colors[j]`` (1..K) and a length in ``lo[j]..hi[j]``; ``starts[j]`` and
    ``ends[j]`` are the masks of its valid start and last cells (from
    :func:`satnono.lines.blotted.solve_range_line`, or any supersets; a fixed-length block's
    ends are read off its starts).  ``cell_lit(i, v)`` is the
    literal "cell i has colour v"; it is called for v >= 1 only: the background is the absence
    of every colour, which these clauses make equivalent to "uncovered" (in black and white,
    where the background literal of a cell is the negation of its colour-1 literal, the two
    agree).  ``ncolors`` is K; colours 1..K that no block of the line has are impossible in it
    (default: up to the largest colour of the line, at least 1).  Known cells are not folded:
    the caller adds them as unit clauses.  The ladder variables are numbered from
    ``first_var``.  A block without a valid start or end gives the empty clause.
    """
    k = len(lo)
    out: list[Clause] = []
    full = (1 << n) - 1
    # a block of length >= lo starts at n - lo at the latest (the ends need no such cut: the
    # length clauses keep the start lo - 1 cells before the end)
    starts = [m & (full >> (a - 1)) for m, a in zip(starts, lo)]
    ends = [m & full for m in ends]
    if any(not m for m in starts) or any(not m for m in ends):
        return [[]], first_var
    nv = first_var
    ys: list[_Ladder] = []
    zs: list[_Ladder] = []
    for s, e, a, b in zip(starts, ends, lo, hi):
        y = _Ladder(nv, s)
        nv += y.size
        if a == b:  # a fixed length: the end ladder is the start ladder moved
            z = y.moved(a - 1)
        else:
            z = _Ladder(nv, e)
            nv += z.size
        ys.append(y)
        zs.append(z)
    for j in range(k):
        y, z, a, b, col = ys[j], zs[j], lo[j], hi[j], colors[j]
        y.clauses(out)
        if a != b:
            z.clauses(out)
            for p in range(z.low, min(y.high + a - 1, n)):  # e <= p -> s <= p - a + 1
                _add(out, z.gt(p), y.le(p - a + 1))
            for p in range(y.low, min(z.high - b + 1, n)):  # s <= p -> e <= p + b - 1
                _add(out, y.gt(p), z.le(p + b - 1))
        if j + 1 < k:
            y1 = ys[j + 1]
            gap = 1 + (colors[j + 1] == col)
            for p in range(y1.low, min(z.high + gap, n)):  # s_{j+1} <= p -> e_j <= p - gap
                _add(out, y1.gt(p), z.le(p - gap))
        for i in range(y.low, min(z.high + 1, n)):  # s <= i <= e -> cell i has col
            _add(out, cell_lit(i, col), y.gt(i), z.le(i - 1))
    # support (k >= 1 here): over the cells where block j can be the last block started
    # (y[j,i] not false, y[j+1,i] not true)
    for v in sorted(set(colors)):
        xs = [-cell_lit(i, v) for i in range(n)]
        for i in range(min(ys[0].high, n)):
            _add(out, xs[i], ys[0].le(i))
        for j in range(k):
            y, z = ys[j], zs[j]
            end = min(ys[j + 1].high, n) if j + 1 < k else n
            same = colors[j] == v
            for i in range(y.low, end):
                _add(out, xs[i], y.gt(i), ys[j + 1].le(i) if j + 1 < k else _FALSE,
                     _neg(z.le(i - 1)) if same else _FALSE)
    top = max(max(colors, default=1), 1) if ncolors is None else ncolors
    present = set(colors)
    for v in range(1, top + 1):
        if v not in present:
            out += [[-cell_lit(i, v)] for i in range(n)]
    return out, nv
