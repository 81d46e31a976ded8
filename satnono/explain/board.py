"""The geometry's side of an explanation: how steps name a puzzle's cells, the partial states an
explanation starts from, and how its results are laid out (:class:`Board`, :func:`board_of`).

The engine and the explainer take their line steps and probes over the lanes of any puzzle
(``puzzle.lanes``, ``puzzle.lane_clues``) through a :class:`~satnono.logic.probe.Cells` view of
its state; what differs by geometry is said here:

* :class:`GridBoard`, a rectangle (:class:`~satnono.model.Puzzle`): a step's cells are
  ``(row, col, value)``; the cells a line step settles are named along its line (``columns
  3-5`` of a row), on an extra line (a ``line`` rule's lane, ``extra line 1``) by row and
  column (``cells (1,1) and (2,2)``), a cell alone ``cell (row 2, column 3)``; a partial state
  is rows over ``#``, ``.``, ``?`` (in colour the palette's characters and ``?``);
* :class:`LaneBoard`, any other geometry (:class:`~satnono.lanepuzzle.LanePuzzle`, a triddler):
  a step's cells are ``(cell, value)`` (the geometry's cell numbers), named by row
  (``row 2, cells 1-3``: :func:`cells_text`); a partial state is one character a cell in cell
  order, or a triangle grid's text rows (:func:`state_of_rows`).

Positions in a technique's reason count along the lane from its start whatever the geometry
(``columns`` of a row, ``rows`` of a column, ``positions`` of any other lane).

>>> from satnono.lanes import Triangle
>>> from satnono.lanepuzzle import LanePuzzle
>>> b = board_of(LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#"))
>>> b.ref(4), b.cell_name(4), b.where(0, [1, 2])
((4,), 'row 2, cell 2', 'row 1, cells 2-3')
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import defaultdict
from functools import cached_property
from typing import Any, Sequence

from ..lanepuzzle import LanePuzzle
from ..lanes import LINE, Geometry, cell_name
from ..logic.lanes import LaneState
from ..logic.probe import Cells, GridCells, LaneCells, extra_crossing
from ..logic.state import GridState, initial_state
from ..clues import COLUMN, ROW, LineClue
from ..model import BLACK, WHITE, Puzzle
from .techniques import _where, lane_label

__all__ = ["Board", "GridBoard", "LaneBoard", "board_of", "cells_text", "rows_of", "state_from_cells",
           "state_from_known", "state_of_rows"]


class Board(ABC):
    """What an explanation says of one puzzle's geometry; :func:`board_of` gives a puzzle's."""

    joiner = " and "
    """Between the groups of cells a step settles (``columns 1-3 black and column 5 white``)."""

    def __init__(self, puzzle: Any) -> None:
        self.puzzle = puzzle
        self.lanes = puzzle.lanes
        self._labels: dict[int, str] = {}

    @cached_property
    def lane_info(self) -> list[tuple[int, LineClue, str]]:
        """Per lane, what the engine looks a lane up by: its length, its clue and :meth:`along`."""
        along = self.along
        return [(len(lane.cells), clue, along(k)) for k, (lane, clue) in
                enumerate(zip(self.lanes, self.puzzle.lane_clues))]

    def label(self, k: int) -> str:
        """Lane ``k`` as a step names it, with its clue (:func:`~satnono.explain.techniques.lane_label`)."""
        text = self._labels.get(k)
        if text is None:
            text = self._labels[k] = lane_label(self.puzzle, k)
        return text

    @abstractmethod
    def ref(self, cell: int) -> tuple[int, ...]:
        """A cell as a step holds it, before its value: ``(row, col)`` or ``(cell,)``."""
        ...

    @abstractmethod
    def cell_of(self, ref: Sequence[int]) -> int:
        """The cell number of a step's ``ref``."""
        ...

    def refs(self, k: int, positions: Sequence[int]) -> list[tuple[int, ...]]:
        """:meth:`ref` of the cells at ``positions`` of lane ``k``."""
        cells, ref = self.lanes[k].cells, self.ref
        return [ref(cells[i]) for i in positions]

    def cells_at(self, k: int, positions: Sequence[int], values: Sequence[str]) -> list[tuple[Any, ...]]:
        """The cells at ``positions`` of lane ``k`` with their ``values``, as a step holds them."""
        return [(*ref, v) for ref, v in zip(self.refs(k, positions), values)]

    def apply(self, cells: Cells, step: Any, color: bool) -> set[int]:
        """Apply what ``step`` claims to the state ``cells`` (its cells; in colour, ``color``, its
        exclusions too); the lanes it touched."""
        cell_of = self.cell_of
        touched: set[int] = set()
        index = self.value_index()
        for *ref, ch in step.cells:
            cell = cell_of(ref)
            cells.set(cell, index[ch])
            touched.update(cells.crossing(cell))
        for *ref, gone in step.excluded or ():
            cell = cell_of(ref)
            for ch in gone:
                cells.exclude(cell, index[ch])
            touched.update(cells.crossing(cell))
        return touched

    def touched_lanes(self, cells: Cells, step: Any) -> set[int]:
        """The lanes through the cells ``step`` settles or rules values out of."""
        cell_of, crossing = self.cell_of, cells.crossing
        return {k for *ref, _ in step.touched() for k in crossing(cell_of(ref))}

    @abstractmethod
    def key(self, cell: int) -> Any:
        """A cell in a list of cells (``remaining``, a hint's ``wrong``): ``(row, col)`` or the
        cell number."""
        ...

    @abstractmethod
    def cell_name(self, cell: int) -> str:
        """A cell as a sentence names it alone: ``cell (row 2, column 3)``, ``row 2, cell 3``."""
        ...

    @abstractmethod
    def where(self, k: int, positions: Sequence[int]) -> str:
        """The cells at ``positions`` (0-based, increasing) of lane ``k``, as a step that settles
        them names them."""
        ...

    def along(self, k: int) -> str:
        """What the positions of lane ``k`` are called in a technique's reason, as
        :func:`~satnono.explain.techniques.line_move` takes it (its ``axis``): a rectangle's
        row counts columns, a column rows, any other lane positions."""
        return "lane"

    def step_name(self, k: int) -> str | None:
        """What a step on lane ``k`` records as its :attr:`~satnono.explain.Step.name`."""
        return None

    @abstractmethod
    def start(self, known: Any = None) -> Cells:
        """The state an explanation starts from: the puzzle's given cells, and those of ``known``
        (a partial state, see the class).  Raises ValueError (one line) on one that does not fit."""
        ...

    @abstractmethod
    def picture_of(self, known: Any) -> str:
        """A partial state as one character a cell, in cell order."""
        ...

    def with_known(self, known: Any) -> Any:
        """The puzzle with the filled cells of ``known`` (checked by :meth:`start`) given too;
        None when they contradict its own given cells."""
        index = self.value_index()
        filled = {self.key(cell): index[ch] for cell, ch in enumerate(self.picture_of(known)) if ch != "?"}
        try:
            return self.puzzle.with_givens(filled)
        except ValueError:  # a known cell against a given one: no solution has both
            return None

    @abstractmethod
    def rows(self, picture: str) -> tuple[str, ...]:
        """A picture (one character a cell) as the rows people read."""
        ...

    @abstractmethod
    def shape(self) -> dict[str, Any]:
        """The puzzle's size in an explanation's JSON form."""
        ...

    def broken_rule(self, picture: str) -> int | None:
        """The index in ``puzzle.all_rules`` of the first rule that rejects a complete picture (one
        character a cell), or None."""
        shown = self.rule_view(picture)
        return next((i for i, rule in enumerate(self.puzzle.all_rules) if not rule.accepts(shown)), None)

    def rule_view(self, picture: str) -> Any:
        """A complete picture as the puzzle's rules read it (``accepts``): the picture itself
        (any geometry's lane rules), a rectangle's rows."""
        return picture

    def value_index(self) -> dict[str, int]:
        """The value of each character a state or step may hold: the palette's, and ``#``
        and ``.`` for black and white in a two-value palette."""
        index = {ch: v for v, ch in enumerate(self.puzzle.chars)}
        if len(index) == 2:
            index.setdefault(BLACK, 1)
            index.setdefault(WHITE, 0)
        return index


class GridBoard(Board):
    """A rectangle's board (see the module)."""

    def __init__(self, puzzle: Puzzle) -> None:
        super().__init__(puzzle)
        self.width = puzzle.width
        self.extra = extra_crossing(puzzle)
        """The extra lanes (``line`` rules) through each cell that has any."""

    def ref(self, cell: int) -> tuple[int, int]:
        return divmod(cell, self.width)

    def cell_of(self, ref: Sequence[int]) -> int:
        r, c = ref
        return r * self.width + c

    key = ref

    def cell_name(self, cell: int) -> str:
        r, c = divmod(cell, self.width)
        return f"cell (row {r + 1}, column {c + 1})"

    def touched_lanes(self, cells: Cells, step: Any) -> set[int]:
        h, w, extra = self.puzzle.height, self.width, self.extra
        out = set()
        for r, c, _ in step.touched():
            out.add(r)
            out.add(h + c)
            if extra:
                out.update(extra.get(r * w + c, ()))
        return out

    def refs(self, k: int, positions: Sequence[int]) -> list[tuple[int, ...]]:
        lane = self.lanes[k]
        i = lane.index
        if lane.family == ROW:
            return [(i, pos) for pos in positions]
        if lane.family == COLUMN:
            return [(pos, i) for pos in positions]
        return [divmod(lane.cells[pos], self.width) for pos in positions]

    def cells_at(self, k: int, positions: Sequence[int], values: Sequence[str]) -> list[tuple[Any, ...]]:
        lane = self.lanes[k]
        i = lane.index
        if lane.family == ROW:
            return [(i, pos, v) for pos, v in zip(positions, values)]
        if lane.family == COLUMN:
            return [(pos, i, v) for pos, v in zip(positions, values)]
        return [(*ref, v) for ref, v in zip(self.refs(k, positions), values)]

    def apply(self, cells: Cells, step: Any, color: bool) -> set[int]:
        state = cells.state
        h = state.height
        touched: set[int] = set()
        add = touched.add
        if color:
            index = self.value_index()
            for r, c, ch in step.cells:
                state.set_cell(r, c, index[ch])
                add(r)
                add(h + c)
            for r, c, gone in step.excluded or ():
                for ch in gone:
                    state.exclude(r, c, index[ch])
                add(r)
                add(h + c)
        else:  # black and white: a step's cells are '#' or '.'
            for r, c, ch in step.cells:
                state.set_cell(r, c, ch == BLACK)
                add(r)
                add(h + c)
        if self.extra:  # the extra lanes through the step's cells
            w, extra = self.width, self.extra
            for r, c, _ in step.touched():
                touched.update(extra.get(r * w + c, ()))
        return touched

    def where(self, k: int, positions: Sequence[int]) -> str:
        lane = self.lanes[k]
        if lane.family in (ROW, COLUMN):
            return _where(lane.family, positions)
        names = [f"({r + 1},{c + 1})" for r, c in self.refs(k, positions)]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        return f"cell{'s' if len(names) > 1 else ''} {listed}"

    def along(self, k: int) -> str:
        return self.lanes[k].family

    def step_name(self, k: int) -> str | None:
        """An extra line's name (``extra line 1``); None for a row or a column, whose steps are
        named by ``axis`` and ``index``."""
        lane = self.lanes[k]
        return lane.name if lane.family == LINE else None

    def start(self, known: Sequence[str] | None = None) -> GridCells:
        p = self.puzzle
        return GridCells(initial_state(p) if known is None else state_from_known(p, known))

    def picture_of(self, known: Sequence[str]) -> str:
        return "".join(known)

    def rows(self, picture: str) -> tuple[str, ...]:
        w = self.width
        return tuple(picture[i:i + w] for i in range(0, len(picture), w))

    def shape(self) -> dict[str, Any]:
        return {"width": self.puzzle.width, "height": self.puzzle.height}

    rule_view = rows


class LaneBoard(Board):
    """The board of a puzzle of any other geometry (see the module)."""

    joiner = "; "

    def __init__(self, puzzle: LanePuzzle) -> None:
        super().__init__(puzzle)
        self.geometry = puzzle.geometry

    def ref(self, cell: int) -> tuple[int]:
        return (cell,)

    def cell_of(self, ref: Sequence[int]) -> int:
        return ref[0]

    def key(self, cell: int) -> int:
        return cell

    def cell_name(self, cell: int) -> str:
        return cell_name(self.geometry, cell)

    def where(self, k: int, positions: Sequence[int]) -> str:
        cells = self.lanes[k].cells
        return cells_text(self.geometry, [cells[i] for i in positions])

    def step_name(self, k: int) -> str:
        return self.lanes[k].name

    def start(self, known: str | Sequence[str] | None = None) -> LaneCells:
        p = self.puzzle
        if known is None:
            return LaneCells(initial_state(p))  # type: ignore[arg-type]  # (a LaneState)
        return LaneCells(state_from_cells(p, self.picture_of(known)))

    def picture_of(self, known: str | Sequence[str]) -> str:
        return known if isinstance(known, str) else state_of_rows(self.puzzle, known)

    def rows(self, picture: str) -> tuple[str, ...]:
        return tuple(rows_of(self.puzzle, picture))

    def shape(self) -> dict[str, Any]:
        return {"geometry": self.geometry.as_json(), "cells": self.geometry.cell_count}


def board_of(puzzle: Puzzle | LanePuzzle) -> Board:
    """The :class:`Board` of a puzzle: a rectangle's, or any other geometry's."""
    return GridBoard(puzzle) if isinstance(puzzle, Puzzle) else LaneBoard(puzzle)


# --------------------------------------------------------------------------
# Rectangles: partial states as rows


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


# --------------------------------------------------------------------------
# Other geometries: cells by row, partial states one character a cell


def _spans(ks: list[int]) -> str:
    """``1, 3-5 and 7`` of 1-based numbers in increasing order."""
    runs: list[list[int]] = []
    for k in ks:
        if runs and runs[-1][1] == k - 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def cells_text(geometry: Geometry, cells: Sequence[int]) -> str:
    """Cells grouped by row: ``row 2, cells 3-5 and row 3, cell 1`` (any geometry: as
    :func:`~satnono.lanes.cell_name` names them one by one, joined with ``and``).

    >>> from satnono.lanes import Triangle
    >>> cells_text(Triangle.from_sides(2, 1, 2, 2, 1, 2), [5, 6, 7, 9, 11])
    'row 2, cells 1-3 and 5 and row 3, cell 1'
    """
    cells = sorted(cells)
    if geometry.kind != "triangle":
        return " and ".join(cell_name(geometry, c) for c in cells)
    by_row: dict[int, list[int]] = defaultdict(list)
    for c in cells:
        r = geometry.coordinates(c)[0]  # type: ignore[attr-defined]
        by_row[r].append(c - geometry.row_cells(r).start + 1)  # type: ignore[attr-defined]
    return " and ".join(f"row {r + 1}, cell{'s' if len(ks) > 1 else ''} {_spans(ks)}" for r, ks in by_row.items())


def state_from_cells(puzzle: LanePuzzle, known: str) -> LaneState:
    """The :class:`~satnono.logic.lanes.LaneState` of the puzzle's given cells and the cells of
    ``known``: one character a cell in cell order, ``?`` unknown, otherwise a palette character
    (``#`` and ``.`` are black and white in a two-value palette).

    Raises ValueError (one line) naming the first bad cell.
    """
    n = puzzle.geometry.cell_count
    if len(known) != n:
        raise ValueError(f"the state has {len(known)} cells, the puzzle {n}")
    index = LaneBoard(puzzle).value_index()
    state: LaneState = initial_state(puzzle)  # type: ignore[assignment]
    full = state.full
    for cell, ch in enumerate(known):
        if ch == "?":
            continue
        if ch not in index:
            allowed = "', '".join(sorted(index))
            raise ValueError(f"{cell_name(puzzle.geometry, cell)}: {ch!r} is not one of '{allowed}' or '?'")
        state.excluded[cell] |= full & ~(1 << index[ch])  # (against a given cell: no value left)
    return state


def state_of_rows(puzzle: LanePuzzle, rows: Sequence[str]) -> str:
    """The cells of a partial state written as rows: a triangle grid's as webpbn's text rows
    (each row between ``/`` or ``\\`` following the outline, :meth:`Triangle.text_rows
    <satnono.lanes.Triangle.text_rows>`), any other geometry's cells in cell order, the rows joined.

    Raises ValueError (one line) on a row count, length or end that does not fit.
    """
    parse = getattr(puzzle.geometry, "parse_text_rows", None)
    if parse is not None:
        return str(parse(list(rows)))
    return "".join(rows)


def rows_of(puzzle: LanePuzzle, picture: str) -> list[str]:
    """The picture as rows: a triangle grid's text rows, else one row."""
    rows = getattr(puzzle.geometry, "text_rows", None)
    return list(rows(picture)) if rows is not None else [picture]
