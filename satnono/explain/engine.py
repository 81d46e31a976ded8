"""Line steps in a person's order over a puzzle's lanes: :class:`Engine`, and rule steps.

At each point the engine takes, among all lanes that can make progress, the
easiest technique (:data:`~satnono.explain.techniques.TECHNIQUES`), then the
lane with the most new cells, then the first lane in ``puzzle.lanes`` order (a
rectangle's rows before its columns, each by index).  Only lanes whose cells
changed are looked at again (on puzzles over :data:`STRICT_MAX_CELLS` cells, by
rounds: see :class:`Engine`).  The state is seen through its
:class:`~satnono.logic.probe.Cells` view (a rectangle's bit masks, any other
geometry's lane state) and steps are worded by the puzzle's
:class:`~satnono.explain.board.Board`.  When no lane makes progress, the
puzzle's extra rules may settle cells (:func:`rule_step`: a rectangle's rules,
any other geometry's lane rules, :mod:`satnono.explain.rulesteps`), and then
probing takes over (:mod:`satnono.explain.explainer`).
"""

from __future__ import annotations

import heapq
from collections import defaultdict
from typing import Any, Sequence

from ..lines import LineSolver, Mask
from ..lines.bits import bit_list, known_of
from ..lines.count import count_line, count_placements
from ..logic.probe import Cells, cells_of
from ..logic.state import GridState, partial_grid
from ..model import BLACK, WHITE
from ..rules.protocol import describe, name_of, narrow, narrows
from .board import Board, board_of, state_from_known
from .techniques import (TECHNIQUES, ColorMove, LineMove, Step, _not, black_and_white, color_line_move, color_word,
                         lane_label, line_move, line_text)

__all__ = ["STRICT_MAX_CELLS", "Engine", "LineContradiction", "rule_step", "state_from_known", "state_grid"]

#: Puzzles up to this many cells get the strict easiest-first order (see :class:`Engine`).
STRICT_MAX_CELLS = 100 * 100


class LineContradiction(Exception):
    """A lane (its family ``axis``, ``row`` or ``column`` on a rectangle, and its 0-based
    ``index`` in it; ``lane`` its position in ``puzzle.lanes``) has no placement that fits the
    known cells, or a rule (``axis == "rule"``) cannot be kept."""

    def __init__(self, axis: str, index: int, text: str | None = None, lane: int | None = None) -> None:
        super().__init__(axis, index)
        self.axis = axis
        self.index = index
        self.text = text
        """For a rule (``axis == "rule"``, ``index`` into ``puzzle.all_rules``): the rule's own reason."""
        self.lane = lane


def rule_step(state: Any, board: Board | None = None) -> "Step | None":
    """The first rule that settles cells of ``state`` or rules colours out of them (not applied),
    as a step of kind ``rule``; raises the internal contradiction when a rule cannot be kept.
    Rules read the whole grid, so a rule step depends on every cell.

    ``state``: a rectangle's :class:`GridState` (its rules' ``narrow``, worded as before), or
    any state's :class:`~satnono.logic.probe.Cells` view (another geometry's lane rules'
    ``deduce``: :func:`~satnono.explain.rulesteps.lane_rule_step`)."""
    view = cells_of(state)
    if not isinstance(view.state, GridState):
        from .rulesteps import lane_rule_step

        return lane_rule_step(view, board)  # type: ignore[arg-type]
    state = view.state
    p = state.puzzle
    chars = p.chars
    for i, rule in enumerate(p.all_rules):
        if not narrows(rule):
            continue
        trial = state.copy()
        bad = narrow([rule], trial, None)
        if bad is not None:
            raise LineContradiction("rule", i, bad.describe(p))
        cells: list[tuple[int, int, str]] = []
        excluded: list[tuple[int, int, str]] = []
        for r in range(state.height):
            for c in range(state.width):
                before, after = state.possible(r, c), trial.possible(r, c)
                if after == before:
                    continue
                if len(after) == 1:
                    cells.append((r, c, chars[after[0]]))
                else:
                    excluded.append((r, c, "".join(chars[v] for v in before if v not in after)))
        if not cells and not excluded:
            continue
        wording = getattr(rule, "step_text", None)  # (the built-in rules' own wording of a step)
        if wording is not None and cells:
            r, c, _ = cells[0]
            text = wording(r, c)
        else:
            text = f"by the rule {describe(rule)}, cell (row {(cells or excluded)[0][0] + 1}, " \
                   f"column {(cells or excluded)[0][1] + 1}) is settled"
        n = len(cells) + len(excluded)
        if n > 1:
            text += f" (and {n - 1} more cell{'s' if n > 2 else ''} by the same rule)"
        return Step("rule", "rule", i, (), cells, name_of(rule), text,  # type: ignore[arg-type]
                    excluded=excluded if state.nvals > 2 else None)  # type: ignore[arg-type]
    return None


Move = LineMove | ColorMove


class Engine:
    """Line steps in a person's order on a puzzle's state (changed in place): a
    :class:`GridState`, a :class:`~satnono.logic.lanes.LaneState` or its
    :class:`~satnono.logic.probe.Cells` view.

    :meth:`step` applies the easiest step until no lane makes progress; a lane
    without any placement raises the internal contradiction (caught by the
    callers).

    *Strict* order (puzzles up to :data:`STRICT_MAX_CELLS` cells) looks again at
    every lane a step touched before the next step is chosen, so each step is
    the easiest available at that moment.  On larger grids that costs one
    complete line solve per touched lane per step (minutes on 512 x 512), so
    the order goes by *rounds*: lanes touched by a step are looked at again
    once no step found in the current round is left, so each lane is solved
    about as often as in plain propagation; within a round, easiest first.
    """

    def __init__(self, state: Any, solver: LineSolver, strict: bool | None = None,
                 board: Board | None = None) -> None:
        self.cells: Cells = cells_of(state)
        self.state = self.cells.state
        self.solver = solver
        p = self.cells.puzzle
        self.puzzle = p
        self.board = board if board is not None else board_of(p)
        self.lanes = p.lanes
        self.clues = p.lane_clues
        self._info = self.board.lane_info
        self._masks = self.cells.lane_masks
        self.strict = strict if strict is not None else p.geometry.cell_count <= STRICT_MAX_CELLS
        # the way (and so the wording) follows the palette alone: colour, and a one-colour puzzle
        # of its own (its steps name its colour, not "black"), go the colour way (exclusions per
        # value); black and white the black-and-white way, blots or not (a blotted lane takes the
        # general technique: only it knows hidden lengths)
        self.color = not black_and_white(p)
        self.version = [0] * len(self.lanes)
        self.heap: list[tuple[int, int, int, int, Move]] = []
        self.dirty: set[int] = set()
        for k in range(len(self.lanes)):
            self._look(k)

    def _contradiction(self, k: int) -> LineContradiction:
        lane = self.lanes[k]
        return LineContradiction(lane.family, lane.index, lane=k)

    def _look(self, k: int) -> None:
        n, clue, along = self._info[k]
        cur = self._masks(k)
        if clue.blots:  # only the general technique knows hidden lengths
            found = self.solver.solve(clue, n, cur)
            if found is None:
                raise self._contradiction(k)
            gone = tuple(x & ~y for x, y in zip(found.excluded, cur))
            if self.color:
                if any(gone):
                    bm = ColorMove(TECHNIQUES["placements"], "placements", gone, lambda: "")
                    heapq.heappush(self.heap, (bm.rank, -bm.size, k, self.version[k], bm))
            else:
                nb, nw = gone  # (not white, not black)
                if nb | nw:
                    pm = LineMove(TECHNIQUES["placements"], "placements", nb, nw, lambda: "")
                    heapq.heappush(self.heap, (pm.rank, -(nb | nw).bit_count(), k, self.version[k], pm))
            return
        if self.color:
            cres = self.solver.color(clue.lengths, clue.colors, n, cur)
            if cres is None:
                raise self._contradiction(k)
            cm = color_line_move(self.puzzle, clue.lengths, clue.colors, n, cur, cres, along)
            if cm is not None:
                heapq.heappush(self.heap, (cm.rank, -cm.size, k, self.version[k], cm))
            return
        b, w = cur
        res = self.solver(clue.lengths, n, b, w)
        if res is None:
            raise self._contradiction(k)
        mv = line_move(clue.lengths, n, b, w, res, along)
        if mv is not None:
            heapq.heappush(self.heap, (mv.rank, -(mv.black | mv.white).bit_count(), k, self.version[k], mv))

    def next_move(self) -> tuple[int, Move] | None:
        """The easiest pending move (without applying it): its lane and the move."""
        heap = self.heap
        while True:
            while heap:
                rank, neg, k, ver, mv = heap[0]
                if ver == self.version[k] and k not in self.dirty:
                    return k, mv
                heapq.heappop(heap)
            if not self.dirty:
                return None
            dirty = sorted(self.dirty)  # the next round
            self.dirty.clear()
            for k in dirty:
                self._look(k)

    def make_step(self, k: int, mv: Move) -> Step:
        """The step of a move on lane ``k`` (not applied)."""
        n, clue, _ = self._info[k]
        cur = self._masks(k)
        board = self.board
        excluded: list[tuple[Any, ...]] | None
        colors: str | None
        if self.color:
            cells, excluded, settles = _color_cells(board, k, n, cur, mv.ex)  # type: ignore[union-attr]
            verb = "makes"
            colors = "".join(self.puzzle.chars[v] for v in clue.colors)
            placements = count_line(clue, n, cur) if mv.technique == "placements" else None
        else:
            cells, settles = _bw_cells(board, k, mv.black, mv.white)  # type: ignore[union-attr]
            excluded = colors = None
            verb = "puts"
            if clue.blots:
                placements = count_line(clue, n, cur)
            else:
                placements = count_placements(clue.lengths, n, cur[0], cur[1]) if mv.technique == "placements" \
                    else None
        if clue.blots:
            assert placements is not None  # a blotted lane has only the general technique
            text = _blotted_text(self.puzzle, k, placements, verb, settles)
        else:
            text = line_text(board.label(k), placements, verb, settles, mv.reason)
        lane = self.lanes[k]
        return Step("line", lane.family, lane.index, clue.lengths, cells, mv.technique, text, placements,
                    excluded=excluded, colors=colors, lane=k, name=board.step_name(k))

    def apply_step(self, st: Step) -> None:
        """Apply what a step claims (its cells, and in colour its exclusions) and look again
        at every lane it touches."""
        self._touch(self.board.apply(self.cells, st, self.color))

    def _touch(self, touched: set[int]) -> None:
        for k in sorted(touched):
            self.version[k] += 1
        if not self.strict:
            self.dirty |= touched
            return
        for k in sorted(touched):
            self._look(k)

    def step(self, record: list[Step] | None = None) -> Step | None:
        """Apply and return the easiest line step, or None at the fixpoint.

        The step is appended to ``record`` before it is applied, so a step that
        leads to a contradiction is recorded too.
        """
        got = self.next_move()
        if got is None:
            return None
        k, mv = got
        st = self.make_step(k, mv)
        if record is not None:
            record.append(st)
        self.apply_step(st)
        return st


def _bw_cells(board: Board, k: int, black: Mask, white: Mask) -> tuple[list[tuple[Any, ...]], str]:
    """The cells a black-and-white move settles (sorted) and the words for them: the black
    cells, then the white ones."""
    positions = bit_list(black | white)
    cells = board.cells_at(k, positions, [BLACK if (black >> pos) & 1 else WHITE for pos in positions])
    cells.sort()
    parts = []
    if black:
        parts.append(f"{board.where(k, bit_list(black))} black")
    if white:
        parts.append(f"{board.where(k, bit_list(white))} white")
    return cells, board.joiner.join(parts)


def _color_cells(board: Board, k: int, n: int, cur: tuple[Mask, ...], ex: Sequence[Mask]
                 ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], str]:
    """The cells a colour move settles, the cells it only rules colours out of, and both in
    words (the settled cells by value, then the others by the values ruled out)."""
    p = board.puzzle
    full = (1 << n) - 1
    chars = p.chars
    after = [c | e for c, e in zip(cur, ex)]
    settled = known_of(tuple(after), full) & ~known_of(cur, full)
    touched = 0
    for e in ex:
        touched |= e
    cells: list[tuple[Any, ...]] = []
    excluded: list[tuple[Any, ...]] = []
    by_value: defaultdict[int, list[int]] = defaultdict(list)
    by_gone: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)
    positions = bit_list(touched)
    for ref, pos in zip(board.refs(k, positions), positions):
        if (settled >> pos) & 1:
            v = next(v for v, a in enumerate(after) if not (a >> pos) & 1)
            by_value[v].append(pos)
            cells.append((*ref, chars[v]))
        else:
            gone = tuple(v for v, e in enumerate(ex) if (e >> pos) & 1)
            by_gone[gone].append(pos)
            excluded.append((*ref, "".join(chars[v] for v in gone)))
    cells.sort()
    excluded.sort()
    parts = [f"{board.where(k, ps)} {color_word(p, v)}" for v, ps in sorted(by_value.items())]
    parts += [f"{board.where(k, ps)} {_not([color_word(p, v) for v in gone])}" for gone, ps in sorted(by_gone.items())]
    return cells, excluded, board.joiner.join(parts)


def _blotted_text(p: Any, k: int, placements: int, verb: str, settles: str) -> str:
    """A blotted lane's step (the general technique): its placements, whatever the hidden lengths."""
    blots = p.lane_clues[k].blots.bit_count()
    which = "the blotted block" if blots == 1 else f"the {blots} blotted blocks"
    every = ("the only placement that fits" if placements == 1 else
             f"every one of the {placements:,} placements that fit")
    return f"{lane_label(p, k)}: whatever the length of {which} (at least 1), {every} the known cells {verb} {settles}"


def state_grid(state: GridState) -> tuple[str, ...]:
    """The known cells as rows over ``#``, ``.`` and ``?`` (in colour the palette's characters and ``?``)."""
    return partial_grid(state)
