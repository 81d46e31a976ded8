"""The clauses of one line: order-encoded block-start ladders.

Block-start order encoding ("order-only", see ``shared/guide/encodings.md``):
for block j of a line, y[j,p] means "block j starts at or before p".  Each
block's ladder spans only the start positions the complete line solver still
allows; known cells are constants and are substituted away; lines with no
unknown cell are not encoded at all.

Cell variables are fixed: cell (r, c) is variable ``r * width + c + 1``, so a
model reads back without a lookup.  Block variables follow.

Clauses per encoded line (constants folded in):

* ladder        y[j,p] -> y[j,p+1]
* holes         s_j != p for p between the lowest and highest valid start
* order         y[j+1,p] -> y[j,p-c_j-1]   (a white cell separates blocks)
* white side    block j covers i -> x_i          (x_i v -y[j,i] v y[j,i-c_j])
* black side    x_i -> the last block started by i covers i
                (-x_i v y[0,i]) and (-x_i v -y[j,i] v y[j+1,i] v -y[j,i-c_j])

The black-side clauses are kept for cells already known black: each block's
valid starts respect such a cell on their own, but a combination of blocks can
still skip it.
"""

from __future__ import annotations

from array import array
from typing import Callable, NamedTuple, Sequence

from ..lines.bits import native_core, spread

Clause = list[int]


def flatten(clauses: list[Clause]) -> bytes:
    """Clauses as C ints, each clause's literals followed by 0 (the flat form of
    :class:`satnono.cnf.encode.Encoding`)."""
    out = array("i")
    for cl in clauses:
        if 0 in cl:  # (it would end the clause early)
            raise ValueError(f"a clause with the literal 0: {cl!r}")
        out.extend(cl)
        out.append(0)
    return out.tobytes()


def unflatten(data: bytes) -> list[Clause]:
    """The clauses of :func:`flatten`'s form, as lists."""
    lits = array("i")
    lits.frombytes(data)
    flat = lits.tolist()
    out: list[Clause] = []
    start = 0
    for i, x in enumerate(flat):
        if not x:
            out.append(flat[start:i])
            start = i + 1
    return out


class CellMap(NamedTuple):
    """The cell variables of one black-and-white line as an affine map: cell i is
    ``base + i * stride`` (a row: ``r * width + 1``, 1; a column: ``c + 1``, ``width``).

    A callable like any ``cell_var``; given one, :func:`bw_line_clauses` can use the compiled core.
    """

    base: int
    stride: int

    def __call__(self, i: int) -> int:
        return self.base + i * self.stride


class CellList(NamedTuple):
    """The cell variables of one black-and-white lane of any cells: cell i is ``base + cells[i]``
    (a triddler's lane in black and white: ``1``, the lane's cell numbers).

    A callable like any ``cell_var``; given one, :func:`bw_line_clauses` can use the compiled core.
    """

    base: int
    cells: tuple[int, ...]

    def __call__(self, i: int) -> int:
        return self.base + self.cells[i]


def cell_map(base: int, cells: Sequence[int]) -> CellMap | CellList:
    """The cell variables ``base + cell`` of a lane's ``cells``: a :class:`CellMap` when they are
    a ``range`` (a rectangle's row or column), else a :class:`CellList`."""
    if type(cells) is range:
        return CellMap(base + cells.start, cells.step)
    return CellList(base, tuple(cells))


class Builder:
    """Collects the clauses of the lines of one encoding, each line behind its selector when asked."""

    __slots__ = ("clauses", "next_var", "unsat", "guard", "selectors", "chunks", "count", "sink")

    def __init__(self, first_free: int, selectors: bool, flat: bool = False,
                 sink: Callable[[bytes], object] | None = None) -> None:
        self.clauses: list[Clause] = []
        self.next_var = first_free
        self.unsat = False
        self.guard: int | None = None
        self.selectors: dict[tuple[str, int], int] | None = {} if selectors else None
        #: with ``flat`` (never with selectors): the clauses in their flat form, line by line
        #: (:func:`flatten`), and how many; ``clauses`` stays empty
        self.chunks: list[bytes] | None = [] if flat and not selectors else None
        self.count = 0
        #: with ``flat``: where each line's flat clauses go as they are made (they are not kept)
        self.sink = sink if self.chunks is not None else None

    def start_line(self, axis: str, index: int) -> None:
        """With selectors, give the next line's clauses a fresh selector literal."""
        if self.selectors is not None:
            self.guard = self.next_var
            self.selectors[(axis, index)] = self.next_var
            self.next_var += 1

    def extend(self, clauses: list[Clause]) -> None:
        """Add one line's clauses (constants already folded), under the current guard."""
        if self.guard is None:
            if not all(clauses):
                self.unsat = True
        else:
            g = -self.guard
            clauses = [[g, *cl] for cl in clauses]
        if self.chunks is not None:
            self._chunk(flatten(clauses))
            self.count += len(clauses)
        else:
            self.clauses.extend(clauses)

    def extend_flat(self, data: bytes, count: int, empty: bool) -> None:
        """Add one line's clauses in their flat form (a flat builder only)."""
        assert self.chunks is not None and self.guard is None
        if empty:
            self.unsat = True
        self._chunk(data)
        self.count += count

    def _chunk(self, data: bytes) -> None:
        assert self.chunks is not None
        if self.sink is not None:
            self.sink(data)
        else:
            self.chunks.append(data)


def ladders(first_var: int, starts: tuple[int, ...]) -> tuple[list[int], list[int], list[int], int]:
    """Ladder variables for blocks with valid start masks ``starts``, from ``first_var``.

    Returns ``(los, his, bases, next_var)``: block j's ladder y[j,p] ("starts at
    or before p") is the variable ``bases[j] + p`` for ``los[j] <= p < his[j]``
    (lowest and highest valid start), the constant false below, true from ``his[j]``.
    """
    los: list[int] = []
    his: list[int] = []
    bases: list[int] = []
    nv = first_var
    for v in starts:
        lo = (v & -v).bit_length() - 1
        hi = v.bit_length() - 1
        los.append(lo)
        his.append(hi)
        bases.append(nv - lo)
        nv += hi - lo
    return los, his, bases, nv


def order_clauses(out: list[Clause], j: int, gap: int, starts: tuple[int, ...],
                   los: list[int], his: list[int], bases: list[int]) -> None:
    """Append block j's ladder, hole and order clauses.

    * ladder  y[j,p] -> y[j,p+1]
    * holes   s_j != p for p between the lowest and highest valid start
    * order   y[j+1,p] -> y[j,p-gap]: block j+1 starts at least ``gap`` cells
              after block j (its length, plus one when a background cell must
              separate them); dropped, being true, from p - gap >= hi_j
    """
    lo, hi, v, base = los[j], his[j], starts[j], bases[j]
    out += [[-(base + p), base + p + 1] for p in range(lo, hi - 1)]
    out += [[-(base + p), base + p - 1] for p in range(lo + 1, hi) if not (v >> p) & 1]
    if j + 1 < len(starts):
        lo1, hi1, base1 = los[j + 1], his[j + 1], bases[j + 1]
        app = out.append
        for p in range(lo1, min(hi1, hi + gap)):
            q = p - gap
            app([-(base1 + p), base + q] if q >= lo else [-(base1 + p)])


def _bw_line_clauses_py(
    first_var: int,
    clue: tuple[int, ...],
    n: int,
    starts: tuple[int, ...],
    black: int,
    white: int,
    cell_var,
) -> tuple[list[Clause], int]:
    """The clauses of one line and the next free variable (the Python reference of
    :func:`bw_line_clauses`).

    Block j's ladder y[j,p] is a variable for lo_j <= p < hi_j (lowest and
    highest valid start); below lo_j it is the constant false, from hi_j on
    true, and y[k,.] is false.  Every family below is written for the index
    ranges where no literal is a constant that satisfies the clause, and drops
    the literals that are constant false, so no clause is built only to be
    thrown away.  The constant cases that should not arise after a complete
    line solver (a forced cell still unknown) are still folded correctly.
    """
    if type(cell_var) is CellMap:
        m0, m1 = cell_var  # (not base and stride: this function's loops rebind ``base``)
        cell_var = (lambda i: m0 + i) if m1 == 1 else (lambda i: m0 + i * m1)
    elif type(cell_var) is CellList:
        m0, cells = cell_var
        cell_var = lambda i: m0 + cells[i]  # noqa: E731
    k = len(clue)
    los, his, bases, nv = ladders(first_var, starts)
    out: list[Clause] = []
    app = out.append
    for j, c in enumerate(clue):
        order_clauses(out, j, c + 1, starts, los, his, bases)
        lo, hi, v, base = los[j], his[j], starts[j], bases[j]
        # white side: block j covering an unknown cell i makes it black:
        # x_i v -y[j,i] v y[j,i-c]; -y[j,i] is false from i >= hi, y[j,i-c] false below lo
        cover = 0
        q = v
        while q:
            low = q & -q
            cover |= ((1 << c) - 1) << (low.bit_length() - 1)
            q ^= low
        cover &= ~(black | white)
        while cover:
            low = cover & -cover
            i = low.bit_length() - 1
            cover ^= low
            cl = [cell_var(i)]
            if i < hi:
                cl.append(-(base + i))
            if i - c >= lo:
                cl.append(base + i - c)
            app(cl)
    # black side: a black (or unknown) cell i is covered by the last block started by i:
    # (-x_i v y[0,i]) and, for each j, (-x_i v -y[j,i] v y[j+1,i] v -y[j,i-c_j]).
    # The j-th clause is satisfied unless lo_j + c_j <= i < hi_{j+1}; a known
    # black cell contributes no literal, a known white cell no clause.
    nxl: list[Clause | None] = [
        None if (white >> i) & 1 else [] if (black >> i) & 1 else [-cell_var(i)] for i in range(n)
    ]
    if k == 0:  # an empty clue: every cell white
        out += [x[:] for x in nxl if x is not None]
        return out, nv
    lo0, base0 = los[0], bases[0]
    for i in range(min(his[0], n)):
        x = nxl[i]
        if x is not None:
            app(x + [base0 + i] if i >= lo0 else x[:])
    for j, c in enumerate(clue):
        lo, hi, base = los[j], his[j], bases[j]
        if j + 1 < k:
            lo1, end, base1 = los[j + 1], his[j + 1], bases[j + 1]
        else:
            lo1, end, base1 = n, n, 0  # y[k,.] is false
        hic = hi + c
        for i in range(lo + c, min(end, n)):
            x = nxl[i]
            if x is None:
                continue
            cl = x + [-(base + i)] if i < hi else x[:]
            if i >= lo1:
                cl.append(base1 + i)
            if i < hic:
                cl.append(c - base - i)
            app(cl)
    return out, nv


_native = native_core()
NATIVE = _native is not None
"""Whether :func:`bw_line_clauses` uses the compiled core (for a :class:`CellMap`)."""


def bw_line_clauses(
    first_var: int,
    clue: tuple[int, ...],
    n: int,
    starts: tuple[int, ...],
    black: int,
    white: int,
    cell_var,
) -> tuple[list[Clause], int]:
    """The clauses of one line and the next free variable (see :func:`_bw_line_clauses_py`).

    With a :class:`CellMap` or a :class:`CellList` for ``cell_var`` and the compiled core
    built (and ``SATNONO_PURE`` not set) its C transcription writes them: the same clauses in
    the same order.
    """
    kind = type(cell_var)
    if kind is CellMap or kind is CellList:
        if _native is not None:
            r = _native.bw_line_clauses(first_var, clue, n, starts, black, white, *cell_var)
            if r is not NotImplemented:
                return r
        if kind is CellMap:
            base, stride = cell_var  # the Python builder calls it once a cell: a closure is cheaper
            cell_var = (lambda i: base + i) if stride == 1 else (lambda i: base + i * stride)
    return _bw_line_clauses_py(first_var, clue, n, starts, black, white, cell_var)


def bw_line_clauses_flat(first_var: int, clue: tuple[int, ...], n: int, starts: tuple[int, ...], black: int,
                         white: int, cell: CellMap | CellList) -> tuple[bytes, int, int, bool]:
    """:func:`bw_line_clauses` in the flat form (:func:`flatten`): ``(data, clause count, next
    variable, whether a clause is empty)``; the compiled core writes it without a Python object
    per clause (the same clauses in the same order), the reference's lists are flattened."""
    if _native is not None:
        r = _native.bw_line_clauses(first_var, clue, n, starts, black, white, *cell, True)
        if r is not NotImplemented:
            return r
    cls, nv = bw_line_clauses(first_var, clue, n, starts, black, white, cell)
    return flatten(cls), len(cls), nv, not all(cls)


def color_line_clauses(first_var: int, lengths: tuple[int, ...], colors: tuple[int, ...], n: int,
                        starts: tuple[int, ...], lit, excluded: tuple[int, ...] | None = None) -> tuple[list[Clause], int]:
    """The clauses of one line of a colour puzzle and the next free variable.

    The ladders are those of :func:`bw_line_clauses`; ``lit(i, v)`` is the
    variable "cell i of this line has colour v".  The gap before block j + 1
    is ``c_j + [colour_j == colour_{j+1}]`` cells after block j's start.
    Known cells are not folded here: :func:`satnono.cnf.encode.encode` fixes them with
    unit clauses.  With ``excluded`` (per colour, the cells that cannot have
    it) the support clauses of a cell and a colour it cannot have are left
    out: the unit clause ``-x_iv`` satisfies them.

    * ladder, holes, order as in black and white, with the colour-dependent gap
    * cover       block j covers i -> cell i has colour_j
    * support     cell i has colour v -> the last block started by i covers i
                  and has colour v:  (-x_iv v y[0,i]) and for each j
                  (-x_iv v -y[j,i] v y[j+1,i] [v -y[j,i-c_j] when colour_j = v])
    """
    k = len(lengths)
    los, his, bases, nv = ladders(first_var, starts)
    out: list[Clause] = []
    app = out.append
    for j, c in enumerate(lengths):
        order_clauses(out, j, c + (j + 1 < k and colors[j] == colors[j + 1]), starts, los, his, bases)
        lo, hi, v, base = los[j], his[j], starts[j], bases[j]
        # cover: x_{i,colour_j} v -y[j,i] v y[j,i-c]; -y[j,i] is false from i >= hi, y[j,i-c] below lo
        col = colors[j]
        cover = spread(v, c)
        while cover:
            low = cover & -cover
            i = low.bit_length() - 1
            cover ^= low
            cl = [lit(i, col)]
            if i < hi:
                cl.append(-(base + i))
            if i - c >= lo:
                cl.append(base + i - c)
            app(cl)
    # support, written over the index ranges where block j can be the last block started by i
    # (lo_j <= i < hi_{j+1}), with constant literals resolved inline
    for col in sorted(set(colors)):
        xs = [-lit(i, col) for i in range(n)]
        skip = 0 if excluded is None else excluded[col]  # cells that cannot have this colour
        lo0, hi0, base0 = los[0], his[0], bases[0]
        for i in range(min(hi0, n)):  # y[0,i] is true from hi_0 on
            if not (skip >> i) & 1:
                app([xs[i], base0 + i] if i >= lo0 else [xs[i]])
        for j, c in enumerate(lengths):
            lo, hi, base = los[j], his[j], bases[j]
            if j + 1 < k:
                lo1, end, base1 = los[j + 1], his[j + 1], bases[j + 1]
            else:
                lo1, end, base1 = n, n, 0
            same = colors[j] == col
            for i in range(lo, min(end, n)):
                if (skip >> i) & 1:
                    continue
                cl = [xs[i]]
                if i < hi:
                    cl.append(-(base + i))
                if i >= lo1:
                    cl.append(base1 + i)
                if same:
                    q = i - c
                    if q < lo:
                        continue  # block j started by i covers i: satisfied
                    if q < hi:
                        cl.append(-(base + q))
                app(cl)
    return out, nv


def line_clauses(first_var: int, clue, n: int, res, excluded: tuple[int, ...], lit,
                 cell=None) -> tuple[list[Clause], int]:
    """The clauses of one line of any kind, and the next free variable.

    ``res`` is the line solver's result for the line (its valid starts, and ends for a
    blotted line), ``excluded`` what the state knows of its cells, ``lit(i, v)`` the
    variable "cell i has colour v".  Given ``cell(i)`` (black and white, one variable a
    cell: ``lit(i, 1)``) an unblotted line folds its known cells in as constants;
    otherwise the caller pins them with unit clauses.
    """
    if clue.blots:
        from .blotted import range_line_clauses

        lo, hi = clue.ranges(n)
        return range_line_clauses(first_var, lo, hi, clue.colors, n, res.starts, res.ends, lit,
                                  ncolors=len(excluded) - 1)
    if cell is not None:
        return bw_line_clauses(first_var, clue.lengths, n, res.starts, excluded[0], excluded[1], cell)
    cls, nv = color_line_clauses(first_var, clue.lengths, clue.colors, n, res.starts, lit, excluded)
    # a colour the line's clue does not have is impossible in it
    absent = [v for v in range(1, len(excluded)) if v not in clue.colors]
    cls += [[-lit(j, v)] for j in range(n) for v in absent]
    return cls, nv
