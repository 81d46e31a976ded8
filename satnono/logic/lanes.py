"""Line logic over lanes: the cells of any geometry (:mod:`satnono.lanes`), one clue per lane.

The state is one int per cell, :attr:`LaneState.excluded`: bit ``v`` set when the cell is known not
to have value ``v`` (0 the background, 1..K the block colours).  :func:`propagate` runs the line
kernels (:class:`~satnono.lines.LineSolver`, the same ones that solve rows and columns) over the
lanes until nothing changes: each lane's cells are gathered into the kernels' masks (bit ``i`` =
the lane's ``i``-th cell), and what a lane rules out is scattered back to its cells, whose other
lanes are then solved again.  At the fixpoint every lane agrees with the state (each kernel is
complete for its line), or one lane has no placement left.

>>> from satnono.clues import LineClue
>>> from satnono.lanes import Triangle
>>> from satnono.lines import LineSolver
>>> g = Triangle.triangle(2)          # 4 cells: one on top, three below
>>> clues = [LineClue((1,), (1,)), LineClue((2,), (1,)), LineClue((2,), (1,)), LineClue((1,), (1,)),
...          LineClue((), ()), LineClue((3,), (1,))]
>>> state = LaneState.empty(g.cell_count, 2)
>>> propagate(state, [lane.cells for lane in g.lanes()], clues, LineSolver()) is None, state.picture(".#")
(True, '#.##')
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Sequence

from ..clues import LineClue
from ..lanes import Lane
from ..lines import SolvesLines
from ..rules.common import RuleConflict
from .state import Contradiction, Deadline


@dataclass
class LaneState:
    """What is known of each cell: ``excluded[cell]`` has bit ``v`` set when the cell cannot have
    value ``v``; ``values`` is K + 1 (the background and K block colours)."""

    excluded: list[int]
    values: int
    puzzle: Any = field(default=None, repr=False, compare=False)
    """The puzzle whose cells these are (:func:`lane_state` sets it), or None."""

    @classmethod
    def empty(cls, cells: int, values: int) -> LaneState:
        """Nothing known of ``cells`` cells of ``values`` possible values."""
        return cls([0] * cells, values)

    def copy(self) -> LaneState:
        return LaneState(list(self.excluded), self.values, self.puzzle)

    @property
    def full(self) -> int:
        """The mask of every value."""
        return (1 << self.values) - 1

    def possible(self, cell: int) -> list[int]:
        """The values ``cell`` may still have."""
        ex = self.excluded[cell]
        return [v for v in range(self.values) if not (ex >> v) & 1]

    def value(self, cell: int) -> int | None:
        """The value of a cell with one left, else None."""
        left = self.full & ~self.excluded[cell]
        return left.bit_length() - 1 if left and not left & (left - 1) else None

    def open_cells(self) -> list[int]:
        """The cells with more than one value left, in order."""
        return [c for c in range(len(self.excluded)) if self.value(c) is None]

    def solved(self) -> bool:
        return all(self.value(c) is not None for c in range(len(self.excluded)))

    def unknown_cells(self) -> list[int]:
        """:meth:`open_cells`, under :meth:`GridState.unknown_cells
        <satnono.logic.state.GridState.unknown_cells>`'s name (cells by number here)."""
        return self.open_cells()

    def is_complete(self) -> bool:
        """:meth:`solved`, under :class:`~satnono.logic.state.GridState`'s name."""
        return self.solved()

    def unknown_count(self) -> int:
        """The cells with more than one value left (as :meth:`GridState.unknown_count
        <satnono.logic.state.GridState.unknown_count>`)."""
        return len(self.open_cells())

    def grid(self) -> str:
        """The picture of a solved state in the puzzle's palette characters (as
        :meth:`GridState.grid <satnono.logic.state.GridState.grid>`)."""
        return self.picture(self.puzzle.chars)

    def picture(self, chars: str, unknown: str = "?") -> str:
        """One character a cell: its value's in ``chars``, ``unknown`` while open."""
        out = []
        for c in range(len(self.excluded)):
            v = self.value(c)
            out.append(unknown if v is None else chars[v])
        return "".join(out)

    def lane_excluded(self, cells: Sequence[int]) -> tuple[int, ...]:
        """What the state knows of a lane's cells, as the kernels take it: per value, the mask of
        the lane's positions that cannot have it."""
        masks = [0] * self.values
        for i, cell in enumerate(cells):
            ex = self.excluded[cell]
            v = 0
            while ex:
                if ex & 1:
                    masks[v] |= 1 << i
                ex >>= 1
                v += 1
        return tuple(masks)


    def lane_masks(self, lane: Lane) -> tuple[int, ...]:
        """:meth:`lane_excluded` of ``lane``'s cells (as :meth:`GridState.lane_masks
        <satnono.logic.state.GridState.lane_masks>`)."""
        return self.lane_excluded(lane.cells)

def cell_lanes(lanes: Sequence[Sequence[int]], cells: int) -> list[list[int]]:
    """For each cell, the indices of the lanes that hold it."""
    out: list[list[int]] = [[] for _ in range(cells)]
    for k, lane in enumerate(lanes):
        for cell in lane:
            out[cell].append(k)
    return out


def propagate(state: LaneState, lanes: Sequence[Sequence[int]], clues: Sequence[LineClue], solver: SolvesLines,
              deadline: float | None = None, todo: Sequence[int] | None = None,
              crossing: Sequence[Sequence[int]] | None = None) -> int | None:
    """Line logic to its fixpoint, narrowing ``state`` in place; the index of a lane that has no
    placement left (``state`` is then partly narrowed), or None.

    ``todo``: the lanes to start from (default every lane: each is solved at least once);
    ``crossing``: :func:`cell_lanes` of ``lanes``, when the caller keeps it.  Raises
    :class:`~satnono.logic.state.Deadline` when the monotonic ``deadline`` passes.
    """
    from time import monotonic

    crossing = crossing if crossing is not None else cell_lanes(lanes, len(state.excluded))
    queue = deque(range(len(lanes)) if todo is None else todo)
    queued = set(queue)
    excluded = state.excluded
    done = 0
    while queue:
        if deadline is not None and not done % 64 and monotonic() > deadline:
            raise Deadline()
        done += 1
        k = queue.popleft()
        queued.discard(k)
        cells = lanes[k]
        before = state.lane_excluded(cells)
        res = solver.solve(clues[k], len(cells), before)
        if res is None:
            return k
        for v, (old, new) in enumerate(zip(before, res.excluded)):
            added = new & ~old
            while added:
                low = added & -added
                cell = cells[low.bit_length() - 1]
                excluded[cell] |= 1 << v
                for other in crossing[cell]:
                    if other != k and other not in queued:
                        queue.append(other)
                        queued.add(other)
                added ^= low
    return None


def lane_state(puzzle: Any) -> LaneState:
    """A fresh state of a puzzle of any geometry (a :class:`~satnono.lanepuzzle.LanePuzzle`),
    narrowed by its rules that narrow (the given cells) before line logic."""
    state = LaneState([0] * puzzle.geometry.cell_count, len(puzzle.palette), puzzle)
    for rule in puzzle.all_rules:
        narrow = getattr(rule, "narrow", None)
        if narrow is not None:
            narrow(state)
    return state


def propagate_state(state: LaneState, solver: SolvesLines,
                    deadline: float | None = None) -> Contradiction | RuleConflict | None:
    """:func:`propagate` over the lanes and clues of ``state.puzzle``, and after each fixpoint its
    rules' ``deduce`` (what a ``count`` or ``connected`` forces), again from the lanes through the
    cells they settled, until neither changes: a rectangle's rules narrow after each line fixpoint
    the same way (:func:`satnono.logic.propagate.propagate`).  The
    :class:`~satnono.logic.state.Contradiction` of the first lane left with no placement, a rule's
    :class:`~satnono.rules.common.RuleConflict` when the state cannot keep it, or None."""
    puzzle = state.puzzle
    lanes = [lane.cells for lane in puzzle.lanes]
    crossing = cell_lanes(lanes, len(state.excluded))
    deducing = [rule for rule in puzzle.all_rules if getattr(rule, "deduce", None) is not None]
    todo: Sequence[int] | None = None
    while True:
        bad = propagate(state, lanes, puzzle.lane_clues, solver, deadline, todo, crossing)
        if bad is not None:
            lane = puzzle.lanes[bad]
            return Contradiction(lane.family, lane.index, True)
        if not deducing:
            return None
        before = list(state.excluded)
        for rule in deducing:
            conflict = rule.deduce(state)
            if conflict is not None:
                return conflict
        changed = [cell for cell, (old, new) in enumerate(zip(before, state.excluded)) if old != new]
        if not changed:
            return None
        todo = sorted({k for cell in changed for k in crossing[cell]})


__all__ = ["LaneState", "cell_lanes", "lane_state", "propagate", "propagate_state"]
