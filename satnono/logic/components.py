"""Independent components of what line propagation left open.

After propagation the unknown cells often fall apart into regions that do not
influence each other: the puzzle's solutions are then the free combinations of
each region's solutions, and the number of solutions is the product of the
regions' counts (``shared/guide/encodings.md`` §3.4).

A line (a lane of any geometry: a rectangle's row or column or the extra line of a ``line``
rule, a triddler's three families) constrains its unknown cells jointly only within a *segment*.  A line
can be cut at a known-white cell ``i`` when, for some ``j``, every valid start
of blocks ``0..j-1`` keeps those blocks before ``i`` and every valid start of
blocks ``j..k-1`` keeps them after ``i``::

    max(V[j-1]) + c[j-1] <= i < min(V[j])

(``V`` are the block start masks of the complete line solver).  Then every
placement of the line is a placement of blocks ``0..j-1`` in ``[0, i)`` next to
one of blocks ``j..k-1`` in ``(i, n)``, chosen independently: the line's
constraint is the conjunction of one constraint per segment.  Two unknown cells
are *connected* when they lie in one segment of a lane; the
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
from typing import Any, overload

from ..lines import LineSolver
from ..lines.bits import bit_list, known_of
from ..lines.segments import line_segments
from ..model import Grid
from ..rules.protocol import scopes
from .lanes import LaneState
from .state import GridState

Cell = Any
"""A rectangle's ``(row, col)``, another geometry's cell number."""


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of one line whose unknown cells are constrained together."""

    axis: str
    """The lane's family: ``"row"``, ``"column"``, ``"/"``, ... (:attr:`satnono.lanes.Lane.family`)."""
    index: int
    """0-based lane index within its family."""
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
    """The component's unknown cells in cell order: a rectangle's 0-based ``(row, col)``
    (row-major), another geometry's cell numbers."""
    segments: list[Segment] = field(default_factory=list)
    """The line segments holding the component's cells."""

    @property
    def size(self) -> int:
        return len(self.cells)

    @property
    def rows(self) -> list[int]:
        """A rectangle's component: the rows it touches."""
        return sorted({r for r, _ in self.cells})

    @property
    def columns(self) -> list[int]:
        """A rectangle's component: the columns it touches."""
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


def split(state: GridState | LaneState, solver: LineSolver) -> list[Component]:
    """The independent components of a propagated, consistent ``state``: a rectangle's
    :class:`GridState` (components of ``(row, col)`` cells) or any geometry's
    :class:`~satnono.logic.lanes.LaneState` (components of cell numbers).

    The segments are cut along every lane of the puzzle.  Components are ordered by their
    first cell (in cell order: row-major on a rectangle); a complete state has none.  Cells a
    rule couples stay in one component (a rule of another geometry, which names no scope, couples
    every open cell; the givens are known cells and couple none; a ``line`` rule is a lane, cut
    into segments as the others).

    Raises:
        ValueError: a lane of ``state`` admits no placement (propagate first).
    """
    p = state.puzzle
    rectangle = isinstance(state, GridState)
    ncells = state.height * state.width if rectangle else len(state.excluded)  # type: ignore[union-attr]
    uf = _UnionFind(ncells)
    segs: list[tuple[Segment, int]] = []  # (segment, a cell id in it)
    for lane, clue in zip(p.lanes, p.lane_clues):
        n = len(lane.cells)
        full = (1 << n) - 1
        ex = state.lane_masks(lane)
        known = known_of(ex, full)
        if known == full:
            continue
        # cut at cells known to be background; "black" is any other known cell
        white = full
        for e in ex[1:]:
            white &= e
        black = known & ~white
        res = solver.solve(clue, n, ex)
        if res is None:
            raise ValueError(f"{lane.family} {lane.index} is inconsistent; propagate first")
        unknown = full & ~(black | white)
        cells = lane.cells
        for a, b, j0, j1 in line_segments(clue.lengths, n, black, white, res.starts, getattr(res, "ends", None)):
            ids = [cells[i] for i in bit_list(unknown & (((1 << (b - a)) - 1) << a))]
            for other in ids[1:]:
                uf.union(ids[0], other)
            segs.append((Segment(lane.family, lane.index, a, b, (j0, j1)), ids[0]))
    if rectangle:
        w = state.width  # type: ignore[union-attr]
        keys: list = state.unknown_cells()  # type: ignore[assignment]
        numbers = [r * w + c for r, c in keys]
        # rules: cells a rule couples stay in one component
        open_cells = set(keys)
        for rule in p.all_rules:
            for group in scopes(rule, state.height, w):  # type: ignore[union-attr]
                ids = [r * w + c for r, c in group if (r, c) in open_cells]
                for other in ids[1:]:
                    uf.union(ids[0], other)
    else:
        keys = numbers = state.open_cells()  # type: ignore[union-attr]
        is_open = set(numbers)
        for rule in p.rules:
            scope = getattr(rule, "scope", None)
            for coupled in (scope() if scope is not None else [numbers]):
                ids = [cell for cell in coupled if cell in is_open]
                for other in ids[1:]:
                    uf.union(ids[0], other)
    groups: dict[int, Component] = {}
    for key, cell in zip(keys, numbers):
        root = uf.find(cell)
        comp = groups.get(root)
        if comp is None:
            comp = groups[root] = Component([])
        comp.cells.append(key)
    for seg, cell_id in segs:
        groups[uf.find(cell_id)].segments.append(seg)
    return list(groups.values())


@overload
def component_state(state: GridState, component: Component, solution: Grid) -> GridState: ...


@overload
def component_state(state: LaneState, component: Component, solution: str) -> LaneState: ...


def component_state(state: GridState | LaneState, component: Component, solution: Grid | str) -> GridState | LaneState:
    """A copy of ``state`` in which every unknown cell outside ``component`` takes its
    value in ``solution`` (a solution of the whole puzzle: a rectangle's grid, another
    geometry's picture); the component's cells stay unknown."""
    sub = state.copy()
    inside = set(component.cells)
    chars = state.puzzle.chars
    if isinstance(sub, GridState):
        for r, c in sub.unknown_cells():
            if (r, c) not in inside:
                sub.set_cell(r, c, chars.index(solution[r][c]))
        return sub
    full = sub.full
    for cell in sub.open_cells():
        if cell not in inside:
            sub.excluded[cell] = full & ~(1 << chars.index(solution[cell]))
    return sub
