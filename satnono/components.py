"""Independent components of what line propagation left open.

After propagation the unknown cells often fall apart into regions that do not
influence each other: the puzzle's solutions are then the free combinations of
each region's solutions, and the number of solutions is the product of the
regions' counts (``shared/guide/encodings.md`` §3.4).

A line constrains its unknown cells jointly only within a *segment*.  A line
can be cut at a known-white cell ``i`` when, for some ``j``, every valid start
of blocks ``0..j-1`` keeps those blocks before ``i`` and every valid start of
blocks ``j..k-1`` keeps them after ``i``::

    max(V[j-1]) + c[j-1] <= i < min(V[j])

(``V`` are the block start masks of the complete line solver).  Then every
placement of the line is a placement of blocks ``0..j-1`` in ``[0, i)`` next to
one of blocks ``j..k-1`` in ``(i, n)``, chosen independently: the line's
constraint is the conjunction of one constraint per segment.  Two unknown cells
are *connected* when they lie in one segment of a row or of a column; the
connected classes are the components.  Every segment constraint mentions the
unknown cells of one component only, so the constraints split by component.

Encoding one component: :func:`component_state` fixes every cell outside the
component to its value in one solution of the whole puzzle (any solution works,
since the other components do not interact with this one) and leaves the
component's cells unknown; :func:`satnono.encode.encode` of that state encodes
exactly the lines crossing the component.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Sequence

from .linesolve import LineSolver, Mask
from .model import Grid
from .propagate import COLUMN, ROW, GridState

Cell = tuple[int, int]


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of one line whose unknown cells are constrained together."""

    axis: str
    """``"row"`` or ``"column"``."""
    index: int
    """0-based line index."""
    start: int
    """First cell of the segment along the line (0-based)."""
    stop: int
    """One past the last cell of the segment."""
    blocks: tuple[int, int]
    """The half-open range ``[first, last)`` of block indices placed in the segment."""


@dataclass(slots=True)
class Component:
    """A set of unknown cells whose values do not depend on the other unknown cells."""

    cells: list[Cell]
    """The component's unknown cells, row-major, 0-based ``(row, col)``."""
    segments: list[Segment] = field(default_factory=list)
    """The line segments holding the component's cells."""

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def rows(self) -> list[int]:
        return sorted({r for r, _ in self.cells})

    @property
    def columns(self) -> list[int]:
        return sorted({c for _, c in self.cells})


def line_segments(clue: Sequence[int], n: int, black: Mask, white: Mask,
                  starts: Sequence[Mask]) -> list[tuple[int, int, int, int]]:
    """Cut one line into independent segments: ``(start, stop, first_block, last_block)``.

    ``starts`` are the valid block start masks of the line (from the line
    solver, for the known cells ``black``/``white``).  Cuts are made only at
    known-white cells; only segments holding an unknown cell are returned.

    >>> line_segments((1, 1), 5, 0, 0b00100, (0b00011, 0b11000))
    [(0, 2, 0, 1), (3, 5, 1, 2)]
    """
    k = len(clue)
    # lo_start[j] = min(V_j); hi_end[j] = max(V_j) + c_j (one past the last cell block j can cover)
    lo_start = [(v & -v).bit_length() - 1 for v in starts]
    hi_end = [v.bit_length() - 1 + c for v, c in zip(starts, clue)]
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


class _UnionFind:
    __slots__ = ("parent",)

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, a: int) -> int:
        p = self.parent
        while p[a] != a:
            p[a] = p[p[a]]
            a = p[a]
        return a

    def union(self, a: int, b: int) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[rb] = ra


def bit_list(mask: Mask) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def split(state: GridState, solver: LineSolver) -> list[Component]:
    """The independent components of a propagated, consistent ``state``.

    Components are ordered by their first cell (row-major); a complete state
    has none.

    Raises:
        ValueError: a line of ``state`` admits no placement (propagate first).
    """
    p = state.puzzle
    h, w = state.height, state.width
    uf = _UnionFind(h * w)
    segs: list[tuple[Segment, int]] = []  # (segment, a cell id in it)
    for axis, count, n, clues in ((ROW, h, w, p.rows), (COLUMN, w, h, p.columns)):
        full = (1 << n) - 1
        for idx in range(count):
            if state.nvals == 2:
                black, white = state.line(axis, idx)
                if (black | white) == full:
                    continue
                res = solver(clues[idx], n, black, white)
            else:
                # colour: cut at cells known to be background; "black" is any other known cell
                known = state.known_row(idx) if axis == ROW else state.known_column(idx)
                if known == full:
                    continue
                ex = state.line_excluded(axis, idx)
                white = full
                for e in ex[1:]:
                    white &= e
                black = known & ~white
                res = solver.color(clues[idx], p.line(axis, idx)[1], n, ex)
            if res is None:
                raise ValueError(f"{axis} {idx} is inconsistent; propagate first")
            unknown = full & ~(black | white)
            for a, b, j0, j1 in line_segments(clues[idx], n, black, white, res.starts):
                cells = bit_list(unknown & (((1 << (b - a)) - 1) << a))
                ids = [idx * w + i if axis == ROW else i * w + idx for i in cells]
                for other in ids[1:]:
                    uf.union(ids[0], other)
                segs.append((Segment(axis, idx, a, b, (j0, j1)), ids[0]))
    # rules: cells a rule couples stay in one component
    open_cells = set(state.unknown_cells())
    for rule in p.all_rules:
        scope = getattr(rule, "scope", None)
        groups_of_rule = scope() if scope is not None else [frozenset(open_cells)]
        for group in groups_of_rule:
            ids = [r * w + c for r, c in group if (r, c) in open_cells]
            for other in ids[1:]:
                uf.union(ids[0], other)
    groups: dict[int, Component] = {}
    for r, c in state.unknown_cells():
        root = uf.find(r * w + c)
        comp = groups.get(root)
        if comp is None:
            comp = groups[root] = Component([])
        comp.cells.append((r, c))
    for seg, cell_id in segs:
        groups[uf.find(cell_id)].segments.append(seg)
    return list(groups.values())


def component_state(state: GridState, component: Component, solution: Grid) -> GridState:
    """A copy of ``state`` in which every unknown cell outside ``component`` takes its
    value in ``solution`` (a solution of the whole puzzle); the component's cells stay unknown."""
    sub = state.copy()
    inside = set(component.cells)
    chars = state.puzzle.chars
    for r, c in state.unknown_cells():
        if (r, c) not in inside:
            sub.set_cell(r, c, chars.index(solution[r][c]))
    return sub
