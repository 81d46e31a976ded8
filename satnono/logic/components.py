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
component's cells unknown; :func:`satnono.cnf.encode.encode` of that state encodes
exactly the lines crossing the component.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..clues import COLUMN, ROW
from ..lines import LineSolver
from ..lines.bits import bit_list, known_of
from ..lines.segments import line_segments
from ..model import Grid
from ..rules.protocol import scopes
from .state import GridState

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
    for axis, count, n in ((ROW, h, w), (COLUMN, w, h)):
        full = (1 << n) - 1
        clues = p.clues(axis)
        for idx in range(count):
            ex = state.line_excluded(axis, idx)
            known = known_of(ex, full)
            if known == full:
                continue
            # cut at cells known to be background; "black" is any other known cell
            white = full
            for e in ex[1:]:
                white &= e
            black = known & ~white
            res = solver.solve(clues[idx], n, ex)
            if res is None:
                raise ValueError(f"{axis} {idx} is inconsistent; propagate first")
            unknown = full & ~(black | white)
            for a, b, j0, j1 in line_segments(clues[idx].lengths, n, black, white, res.starts,
                                              getattr(res, "ends", None)):
                cells = bit_list(unknown & (((1 << (b - a)) - 1) << a))
                ids = [idx * w + i if axis == ROW else i * w + idx for i in cells]
                for other in ids[1:]:
                    uf.union(ids[0], other)
                segs.append((Segment(axis, idx, a, b, (j0, j1)), ids[0]))
    # rules: cells a rule couples stay in one component
    open_cells = set(state.unknown_cells())
    for rule in p.all_rules:
        for group in scopes(rule, h, w):
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
