"""Line steps in a person's order: :class:`Engine`, rule steps, and the states steps start from.

At each point the engine takes, among all lines that can make progress, the
easiest technique (:data:`~satnono.explain.techniques.TECHNIQUES`), then the
line with the most new cells, then rows before columns and the lowest index.
Only lines whose cells changed are looked at again (on grids over
:data:`STRICT_MAX_CELLS` cells, by rounds: see :class:`Engine`).  When no line
makes progress, a puzzle's extra rules may settle cells (:func:`rule_step`),
and then probing takes over (:mod:`satnono.explain.explainer`).
"""

from __future__ import annotations

import heapq
from typing import Sequence

from ..lines import LineSolver, Mask
from ..lines.bits import bit_list
from ..lines.count import count_line, count_placements
from ..logic.state import COLUMN, ROW, GridState, initial_state, partial_grid
from ..model import BLACK, WHITE, Puzzle
from ..rules.protocol import describe, name_of, narrow, narrows
from .techniques import (TECHNIQUES, ColorMove, LineMove, Step, black_and_white, clue_text, color_cells,
                         color_line_move, line_move, line_text, settled_text)

#: Grids up to this many cells get the strict easiest-first order (see :class:`Engine`).
STRICT_MAX_CELLS = 100 * 100


class LineContradiction(Exception):
    """A line (``axis`` ``row`` or ``column``, 0-based ``index``) has no placement that fits
    the known cells, or a rule (``axis == "rule"``) cannot be kept."""

    def __init__(self, axis: str, index: int, text: str | None = None) -> None:
        super().__init__(axis, index)
        self.axis = axis
        self.index = index
        self.text = text
        """For a rule (``axis == "rule"``, ``index`` into ``puzzle.all_rules``): the rule's own reason."""


def rule_step(state: GridState) -> "Step | None":
    """The first rule that settles cells of ``state`` or rules colours out of them (not
    applied), as a step of kind ``rule``; raises the internal contradiction when a rule
    cannot be kept.  Rules read the whole grid, so a rule step depends on every cell."""
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
        return Step("rule", "rule", i, (), cells, name_of(rule), text,
                    excluded=excluded if state.nvals > 2 else None)
    return None


class Engine:
    """Line steps in a person's order on a :class:`GridState` (changed in place).

    :meth:`step` applies the easiest step until no line makes progress; a line
    without any placement raises the internal contradiction (caught by the
    callers).

    *Strict* order (grids up to :data:`STRICT_MAX_CELLS` cells) looks again at
    every line a step touched before the next step is chosen, so each step is
    the easiest available at that moment.  On larger grids that costs one
    complete line solve per touched line per step (minutes on 512 x 512), so
    the order goes by *rounds*: lines touched by a step are looked at again
    once no step found in the current round is left, so each line is solved
    about as often as in plain propagation; within a round, easiest first.
    """

    def __init__(self, state: GridState, solver: LineSolver, strict: bool | None = None) -> None:
        self.state = state
        self.solver = solver
        p = state.puzzle
        self.h, self.w = state.height, state.width
        self.strict = strict if strict is not None else self.h * self.w <= STRICT_MAX_CELLS
        self.clues = list(p.rows) + list(p.columns)
        self.lineclues = list(p.row_clues) + list(p.column_clues)
        # the way (and so the wording) follows the palette alone: colour, and a one-colour puzzle
        # of its own (its steps name its colour, not "black"), go the colour way (exclusions per
        # value); black and white the black-and-white way, blots or not (a blotted line takes the
        # general technique: only it knows hidden lengths)
        self.color = not black_and_white(p)
        if self.color:
            self.colors = list(p.row_colors) + list(p.column_colors)
        self.version = [0] * (self.h + self.w)
        self.heap: list[tuple[int, int, int, int, LineMove]] = []
        self.dirty: set[int] = set()
        for lid in range(self.h + self.w):
            self._look(lid)

    def _line(self, lid: int) -> tuple[str, int, int, Mask, Mask]:
        s = self.state
        if lid < self.h:
            return ROW, lid, self.w, s.row_black[lid], s.row_white[lid]
        j = lid - self.h
        return COLUMN, j, self.h, s.col_black[j], s.col_white[j]

    def _color_line(self, lid: int) -> tuple[str, int, int, tuple[Mask, ...]]:
        if lid < self.h:
            return ROW, lid, self.w, self.state.line_excluded(ROW, lid)
        return COLUMN, lid - self.h, self.h, self.state.line_excluded(COLUMN, lid - self.h)

    def _look(self, lid: int) -> None:
        if self.color:
            axis, i, n, cur = self._color_line(lid)
            clue = self.lineclues[lid]
            if clue.blots:  # only the general technique knows hidden lengths
                found = self.solver.solve(clue, n, cur)
                if found is None:
                    raise LineContradiction(axis, i)
                gone = tuple(x & ~y for x, y in zip(found.excluded, cur))
                if any(gone):
                    bm = ColorMove(TECHNIQUES["placements"], "placements", gone, lambda: "")
                    heapq.heappush(self.heap, (bm.rank, -bm.size, lid, self.version[lid], bm))  # type: ignore[arg-type, misc]
                return
            cres = self.solver.color(self.clues[lid], self.colors[lid], n, cur)
            if cres is None:
                raise LineContradiction(axis, i)
            cm = color_line_move(self.state.puzzle, self.clues[lid], self.colors[lid], n, cur, cres, axis)
            if cm is not None:
                heapq.heappush(self.heap, (cm.rank, -cm.size, lid, self.version[lid], cm))  # type: ignore[arg-type, misc]
            return
        axis, i, n, b, w = self._line(lid)
        if self.lineclues[lid].blots:  # only the general technique knows hidden lengths
            found = self.solver.solve(self.lineclues[lid], n, (b, w))
            if found is None:
                raise LineContradiction(axis, i)
            nb, nw = found.excluded[0] & ~b, found.excluded[1] & ~w  # (not white, not black)
            if nb | nw:
                pm = LineMove(TECHNIQUES["placements"], "placements", nb, nw, lambda: "")
                heapq.heappush(self.heap, (pm.rank, -(nb | nw).bit_count(), lid, self.version[lid], pm))
            return
        res = self.solver(self.clues[lid], n, b, w)
        if res is None:
            raise LineContradiction(axis, i)
        mv = line_move(self.clues[lid], n, b, w, res, axis)
        if mv is not None:
            heapq.heappush(self.heap, (mv.rank, -(mv.black | mv.white).bit_count(), lid,
                                       self.version[lid], mv))

    def next_move(self) -> tuple[int, LineMove] | None:
        """The easiest pending move (without applying it)."""
        heap = self.heap
        while True:
            while heap:
                rank, neg, lid, ver, mv = heap[0]
                if ver == self.version[lid] and lid not in self.dirty:
                    return lid, mv
                heapq.heappop(heap)
            if not self.dirty:
                return None
            dirty = sorted(self.dirty)  # the next round
            self.dirty.clear()
            for lid in dirty:
                self._look(lid)

    def make_step(self, lid: int, mv: LineMove) -> Step:
        if self.color:
            return self._make_color_step(lid, mv)  # type: ignore[arg-type]
        axis, i, n, b, w = self._line(lid)
        clue = self.clues[lid]
        cells: list[tuple[int, int, str]] = []
        for pos in bit_list(mv.black | mv.white):
            v = BLACK if (mv.black >> pos) & 1 else WHITE
            cells.append((i, pos, v) if axis == ROW else (pos, i, v))
        cells.sort()
        lineclue = self.lineclues[lid]
        settles = settled_text(axis, mv.black, mv.white)
        placements: int | None
        if lineclue.blots:
            placements = count_line(lineclue, n, (b, w))
            text = _blotted_text(self.state.puzzle, axis, i, placements, "puts", settles)
        else:
            placements = count_placements(clue, n, b, w) if mv.technique == "placements" else None
            text = line_text(f"{axis} {i + 1} (clue {clue_text(clue)})", placements, "puts", settles, mv.reason)
        return Step("line", axis, i, clue, cells, mv.technique, text, placements)

    def _make_color_step(self, lid: int, mv: ColorMove) -> Step:
        axis, i, n, cur = self._color_line(lid)
        p = self.state.puzzle
        clue = self.lineclues[lid]
        lengths, colors = clue.lengths, clue.colors
        cells, excluded, settles = color_cells(p, axis, i, n, cur, mv.ex)
        placements = count_line(clue, n, cur) if mv.technique == "placements" else None
        text = line_text(f"{axis} {i + 1} (clue {p.clue_text(axis, i)})", placements, "makes", settles, mv.reason)
        if clue.blots:
            assert placements is not None  # a blotted line has only the general technique
            text = _blotted_text(p, axis, i, placements, "makes", settles)
        return Step("line", axis, i, lengths, cells, mv.technique, text, placements, excluded=excluded,
                    colors="".join(p.chars[v] for v in colors))

    def apply_step(self, st: Step) -> None:
        """Apply what a step claims (its cells, and in colour its exclusions) and look again
        at every line it touches."""
        if st.excluded is None:
            self.apply_cells(st.cells)
            return
        s = self.state
        index = {ch: v for v, ch in enumerate(s.puzzle.chars)}
        for r, c, v in st.cells:
            s.set_cell(r, c, index[v])
        for r, c, gone in st.excluded:
            for ch in gone:
                s.exclude(r, c, index[ch])
        self._touch({lid for r, c, _ in st.touched() for lid in (r, self.h + c)})

    def apply_cells(self, cells: Sequence[tuple[int, int, str]]) -> None:
        """Set cells (as a step claims them) and look again at every line they touch."""
        s = self.state
        touched = set()
        for r, c, v in cells:
            s.set_cell(r, c, v == BLACK)
            touched.add(r)
            touched.add(self.h + c)
        self._touch(touched)

    def _touch(self, touched: set[int]) -> None:
        for lid in sorted(touched):
            self.version[lid] += 1
        if not self.strict:
            self.dirty |= touched
            return
        for lid in sorted(touched):
            self._look(lid)

    def step(self, record: list[Step] | None = None) -> Step | None:
        """Apply and return the easiest line step, or None at the fixpoint.

        The step is appended to ``record`` before it is applied, so a step that
        leads to a contradiction is recorded too.
        """
        got = self.next_move()
        if got is None:
            return None
        lid, mv = got
        st = self.make_step(lid, mv)
        if record is not None:
            record.append(st)
        self.apply_step(st)
        return st




def _blotted_text(p: Puzzle, axis: str, i: int, placements: int, verb: str, settles: str) -> str:
    """A blotted line's step (the general technique): its placements, whatever the hidden lengths."""
    blots = p.clue(axis, i).blots.bit_count()
    which = "the blotted block" if blots == 1 else f"the {blots} blotted blocks"
    every = ("the only placement that fits" if placements == 1 else
             f"every one of the {placements:,} placements that fit")
    return (f"{axis} {i + 1} (clue {p.clue_text(axis, i)}): whatever the length of {which} "
            f"(at least 1), {every} the known cells {verb} {settles}")


def state_grid(state: GridState) -> tuple[str, ...]:
    """The known cells as rows over ``#``, ``.`` and ``?`` (in colour the palette's characters and ``?``)."""
    return partial_grid(state)


def state_from_known(puzzle: Puzzle, known: Sequence[str]) -> GridState:
    """A :class:`GridState` with the cells of ``known`` set: rows over ``#``, ``.``, ``?`` in
    black and white, over the palette's characters (``.`` the background) and ``?`` in colour.

    Raises ValueError naming the first bad row.
    """
    if len(known) != puzzle.height:
        raise ValueError(f"the state has {len(known)} rows, the puzzle {puzzle.height}")
    state = initial_state(puzzle)  # the puzzle's given cells, then the state's
    if state.nvals > 2:
        index = {ch: v for v, ch in enumerate(puzzle.chars)}
        for r, row in enumerate(known):
            if len(row) != puzzle.width:
                raise ValueError(f"state row {r + 1} has {len(row)} cells, the puzzle is {puzzle.width} wide")
            for c, ch in enumerate(row):
                if ch in index:
                    state.set_cell(r, c, index[ch])
                elif ch != "?":
                    raise ValueError(f"state row {r + 1} column {c + 1}: {ch!r} is not one of the palette's "
                                     f"characters {puzzle.chars!r} or '?'")
        return state
    black = puzzle.chars[1]  # '#', or a one-colour palette's own character (steps still say '#')
    for r, row in enumerate(known):
        if len(row) != puzzle.width:
            raise ValueError(f"state row {r + 1} has {len(row)} cells, the puzzle is {puzzle.width} wide")
        for c, ch in enumerate(row):
            if ch == BLACK or ch == black:
                state.set_cell(r, c, True)
            elif ch == WHITE:
                state.set_cell(r, c, False)
            elif ch != "?":
                raise ValueError(f"state row {r + 1} column {c + 1}: {ch!r} is not one of '#', '.', '?'")
    return state
