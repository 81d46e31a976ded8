"""Repairing an ambiguous (or not line-solvable) picture.

Two kinds of proposal, each verified by :meth:`satnono.solve.Checker.check`
before it is returned:

* **givens**: cells of the goal revealed to the player.  A greedy search adds,
  one at a time, the cell that leaves the fewest cells open after line
  propagation — for uniqueness chosen among the cells where the goal and
  another solution differ, for line-solvability among the open cells — then
  drops every given that is not needed (so the set is minimal under removal).
* **edits**: one cell of the picture flipped, clues recomputed.  Cells near
  the ambiguity (the cells where two solutions differ and the cells line logic
  leaves open) are tried first; every flip is propagated (vectorised, so all
  line-solvable edits are found cheaply), flips with a 2x2 switch are skipped,
  and the rest go to SAT while time remains.

Black-and-white rectangles without rules are scored and edited on the vectorised
kernel (:mod:`satnono.lines.vector`); the others (colour, rules, blots, and every puzzle of
another geometry, such as a triddler: its cells by number, named by row and place in the row)
by the library's own propagation, every edit to any other colour or to background.
The first check, the greedy givens searches, the edit loop and the rule for taking an edit are
shared by every geometry.

The result is data (:class:`FixResult`, JSON through :meth:`FixResult.as_dict`);
nothing here prints.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union

import numpy as np

from .blot import RevealProposal, reveal_blots
from .errors import SatnonoError
from .generation import other_solution
from .lines.vector import grid_of, handles, propagate_many, supports, switch_of
from .model import BLACK, Grid, Puzzle
from .rules.protocol import name_of
from .results import Limits, cpu_seconds
from .solve import Checker, CheckResult, Start, Status, solutions_differ

if TYPE_CHECKING:
    from .lanepuzzle import LanePuzzle

#: A solution as the puzzle holds it: a rectangle's rows, another geometry's one string of cells.
Picture = Union[Grid, str]

DEFAULT_TIMEOUT = 20.0
DEFAULT_MAX_EDITS = 5
#: Cells scored per greedy step (an even sample when there are more candidates).
SCORE_SAMPLE = 96
#: Flipped pictures propagated per vectorised batch.
EDIT_BATCH = 128


class FixError(SatnonoError):
    """The puzzle cannot be worked on (its goal does not satisfy its clues)."""


@dataclass(frozen=True)
class Given:
    """A revealed cell, 0-based."""

    row: int
    col: int
    black: bool
    """True when the cell is filled (black, or any block colour)."""
    char: str = ""
    """The cell's character in the grid (``#``/``.`` in black and white, a palette character in colour)."""
    cell: int | None = None
    """On a geometry other than the rectangle, the cell's number (``row`` and ``col`` are then
    its row and its place in that row, as :func:`satnono.lanes.cell_name` says it)."""

    def __post_init__(self) -> None:
        if not self.char:
            object.__setattr__(self, "char", BLACK if self.black else ".")

    @property
    def key(self) -> Any:
        """The cell as the puzzle numbers it: ``(row, col)`` on a rectangle, else its number."""
        return (self.row, self.col) if self.cell is None else self.cell


@dataclass
class GivenProposal:
    """A set of givens and what it achieves (verified)."""

    target: str
    """``"unique"`` or ``"line"``."""
    givens: tuple[Given, ...]
    check: CheckResult
    """The verification: ``Checker.check`` with these givens."""

    @property
    def line_solvable(self) -> bool:
        return self.check.line_solvable


@dataclass
class EditProposal:
    """One flipped cell of the picture that makes the puzzle unique (verified)."""

    row: int
    col: int
    black: bool
    """True when the cell's new value is filled (black, or any block colour)."""
    puzzle: Puzzle | LanePuzzle
    """The edited puzzle (clues recomputed, goal edited)."""
    check: CheckResult
    char: str = ""
    """The cell's new character (``#``/``.``, or a palette character in colour)."""
    cell: int | None = None
    """On another geometry, the cell's number (as :attr:`Given.cell`)."""

    def __post_init__(self) -> None:
        if not self.char:
            self.char = BLACK if self.black else "."

    @property
    def key(self) -> Any:
        """The cell as the puzzle numbers it (as :attr:`Given.key`)."""
        return (self.row, self.col) if self.cell is None else self.cell

    @property
    def line_solvable(self) -> bool:
        return self.check.line_solvable


@dataclass
class FixResult:
    puzzle: Puzzle | LanePuzzle
    status: Status
    """The verdict on the puzzle as given."""
    line_solvable: bool = False
    goal: Picture | None = None
    goal_from: str = "file"
    """``"file"`` or ``"solver"`` (no goal in the file: the first solution found)."""
    other: Grid | None = None
    """Another solution, when the puzzle is ambiguous."""
    diff: tuple[tuple[int, int], ...] = ()
    """Cells where ``goal`` and ``other`` differ."""
    givens_unique: GivenProposal | None = None
    givens_line: GivenProposal | None = None
    blots_reveal: RevealProposal | None = None
    """For an ambiguous blotted puzzle: the fewest blots (found greedily) whose lengths, shown,
    make it unique."""
    blots_note: str | None = None
    """Why no blots are proposed for an ambiguous blotted puzzle (revealing all is not enough)."""
    edits: list[EditProposal] = field(default_factory=list)
    edits_tried: int = 0
    """Flips examined (of ``height * width``)."""
    timed_out: bool = False
    reason: str | None = None
    """Why nothing was proposed (no solution, nothing to fix)."""
    seconds: float = 0.0
    cpu_seconds: float | None = None
    """CPU seconds of every process the fix took, when its verdict was allowed several jobs (else None)."""

    @property
    def needs_fix(self) -> bool:
        return self.status == Status.MULTIPLE or (self.status == Status.UNIQUE and not self.line_solvable)

    def as_dict(self, file: str | None = None) -> dict[str, Any]:
        """The one JSON shape of a fix proposal (the CLI's and the editor's).

        ``file`` is the file name the puzzle came from (``None`` when there is none).  Each
        given and each edit carries its character twice, as ``value`` and as ``char``.
        """

        def at(x: Given | EditProposal) -> dict[str, Any]:
            return {"row": x.row, "col": x.col} if x.cell is None else {"cell": x.cell, "row": x.row, "col": x.col}

        def cells(prop: GivenProposal | None) -> dict[str, Any] | None:
            if prop is None:
                return None
            return {"givens": [{**at(g), "black": g.black, "value": g.char, "char": g.char}
                               for g in prop.givens],
                    "count": len(prop.givens), "line_solvable": prop.line_solvable}

        p = self.puzzle
        shape: dict[str, Any] = ({"width": p.width, "height": p.height} if isinstance(p, Puzzle)
                                 else {"geometry": p.geometry.as_json(), "cells": p.geometry.cell_count})
        picture = list if isinstance(p, Puzzle) else str  # a rectangle's rows, another geometry's one string
        return {
            "file": file,
            "name": self.puzzle.name,
            **shape,
            "status": self.status.value,
            "line_solvable": self.line_solvable,
            "goal": picture(self.goal) if self.goal else None,
            "goal_from": self.goal_from,
            "other": picture(self.other) if self.other else None,
            "diff": [list(x) if isinstance(x, tuple) else x for x in self.diff],
            "givens_unique": cells(self.givens_unique),
            "givens_line": cells(self.givens_line),
            "blots_reveal": None if self.blots_reveal is None else {
                "blots": [{"axis": x.axis, "line": x.line, "block": x.block, "length": x.length,
                           "value": x.char, "char": x.char} for x in self.blots_reveal.reveals],
                "count": len(self.blots_reveal.reveals),
                "line_solvable": self.blots_reveal.line_solvable},
            "blots_note": self.blots_note,
            "edits": [{**at(e), "black": e.black, "value": e.char, "char": e.char,
                       "line_solvable": e.line_solvable} for e in self.edits],
            "edits_tried": self.edits_tried,
            "timed_out": self.timed_out,
            "reason": self.reason,
            "seconds": round(self.seconds, 6),
            **({} if self.cpu_seconds is None else {"cpu_seconds": round(self.cpu_seconds, 6)}),
        }


def fix(
    puzzle: Puzzle | LanePuzzle,
    timeout: float | None = DEFAULT_TIMEOUT,
    max_edits: int = DEFAULT_MAX_EDITS,
    checker: Checker | None = None,
    jobs: int | str = 1,
) -> FixResult:
    """Propose givens and single-cell edits that make ``puzzle`` unique and line-solvable.

    ``puzzle`` may be of any geometry (a :class:`~satnono.lanepuzzle.LanePuzzle` too: its cells
    by number).

    ``timeout`` bounds the whole search (seconds, ``None`` for no bound); the
    givens come first, the edits use what is left.  At most ``max_edits``
    edits are returned for each outcome (line-solvable; unique but not
    line-solvable).  ``jobs``: searches at once for the puzzle's own verdict (the first, and
    often the longest, settle; :attr:`~satnono.results.Limits.jobs`); other than 1,
    ``cpu_seconds`` counts every process.

    Raises:
        FixError: the puzzle's goal does not satisfy its clues.
    """
    t0 = time.monotonic()
    cpu0 = cpu_seconds() if jobs != 1 else None
    deadline = None if timeout is None else t0 + timeout
    checker = checker or Checker()

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.monotonic(), 1e-3)

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    goal: Picture | None = puzzle.goal
    if goal is not None and not puzzle.is_solution(goal):  # type: ignore[arg-type]  # (each geometry's own picture)
        broken = [name_of(r) for r in puzzle.rules if not r.accepts(goal)]
        raise FixError(f"the goal picture breaks the rule {', '.join(broken)}" if broken
                       else "the goal picture does not satisfy the clues")
    first = checker.check(puzzle, timeout=left(), jobs=jobs)
    res = FixResult(puzzle, first.status, first.line_solvable)

    def done() -> FixResult:
        res.seconds = time.monotonic() - t0
        if cpu0 is not None:
            res.cpu_seconds = cpu_seconds() - cpu0
        return res

    if first.status == Status.NONE:
        res.reason = first.reason or "the clues have no solution"
        return done()
    if first.status == Status.UNKNOWN:
        res.timed_out = True
        res.reason = first.reason or "timed out"
        return done()
    goal = puzzle.goal
    if goal is None:
        goal = first.solutions[0]
        res.goal_from = "solver"
    res.goal = goal
    if first.status == Status.MULTIPLE:
        res.other = next(s for s in first.solutions if s != goal)
        res.diff = solutions_differ(goal, res.other)
    elif first.line_solvable:
        res.reason = "already unique and line-solvable: nothing to fix"
        return done()

    if first.status == Status.MULTIPLE and puzzle.has_blots:
        reveal = reveal_blots(puzzle, goal, res.other, checker, deadline)
        if reveal is None:
            res.timed_out = True
            return done()
        if isinstance(reveal, str):
            res.blots_note = reveal
        else:
            res.blots_reveal = reveal

    search: _Search
    if isinstance(puzzle, Puzzle) and handles(puzzle):
        search = _VectorSearch(puzzle, goal, checker)  # type: ignore[arg-type]  # (a rectangle's goal is its rows)
    else:
        search = _CheckerSearch(puzzle, goal, checker)

    # (a) givens
    uniq = _givens_unique(puzzle, goal, res, first, checker, left, out_of_time, search.best)
    if uniq is None:
        res.timed_out = True
        return done()
    res.givens_unique = uniq
    line = _givens_line(puzzle, uniq, checker, left, out_of_time, search.best)
    if line is None:
        res.timed_out = True
        return done()
    res.givens_line = line

    # (b) edits
    _edits(puzzle, res, checker, max_edits, search, left, out_of_time)
    return done()


# ---------------------------------------------------------------------------
# givens


def _sample(cells: list[tuple[int, int]], n: int) -> list[tuple[int, int]]:
    if len(cells) <= n:
        return cells
    step = len(cells) / n
    return [cells[int(i * step)] for i in range(n)]


def _located(puzzle: Puzzle | LanePuzzle, cell: Any) -> tuple[int, int, int | None]:
    """``(row, col, cell number)`` of a cell: a rectangle's ``(row, col)`` as it is (no number),
    another geometry's numbered cell by its row and its place in the row
    (:func:`satnono.lanes.cell_name`'s words)."""
    if isinstance(puzzle, Puzzle):
        return cell[0], cell[1], None
    g = puzzle.geometry
    if g.kind == "triangle":
        r = g.coordinates(cell)[0]  # type: ignore[attr-defined]
        return r, cell - g.row_cells(r).start, cell  # type: ignore[attr-defined]
    if g.kind == "rectangle":
        return (*divmod(cell, g.width), cell)  # type: ignore[attr-defined]
    return 0, cell, cell


def _as_givens(givens: Mapping[Any, bool | int], puzzle: Puzzle | LanePuzzle) -> tuple[Given, ...]:
    chars = puzzle.chars
    return tuple(Given(*_located(puzzle, cell)[:2], bool(v), chars[int(v)], _located(puzzle, cell)[2])
                 for cell, v in sorted(givens.items()))


def _givens_unique(puzzle, goal, res, first, checker, left, out_of_time, best: _Best) -> GivenProposal | None:
    """Givens that make the puzzle unique.  ``best(givens, cells)`` picks the next cell;
    a given's value is the goal's at that cell."""
    givens: dict[tuple[int, int], bool | int] = {}
    if res.status == Status.UNIQUE:
        return GivenProposal("unique", (), first)
    other = res.other
    while True:
        if out_of_time():
            return None
        cells = list(solutions_differ(goal, other))
        cell = best(givens, cells)
        givens[cell] = _given_value(puzzle, goal, cell)
        chk = checker.check(puzzle.with_givens(givens), timeout=left())
        if chk.status == Status.UNIQUE:
            break
        if chk.status != Status.MULTIPLE:
            return None
        other = next(s for s in chk.solutions if s != goal)
    # minimal under removal: drop each given that is not needed (latest first)
    for cell in list(reversed(list(givens))):
        if out_of_time():
            return None
        trial = {k: v for k, v in givens.items() if k != cell}
        chk = checker.check(puzzle.with_givens(trial), timeout=left())
        if chk.status == Status.UNIQUE:
            givens = trial
        elif chk.status == Status.UNKNOWN:
            return None
    chk = checker.check(puzzle.with_givens(givens), timeout=left())
    if chk.status != Status.UNIQUE:
        return None
    return GivenProposal("unique", _as_givens(givens, puzzle), chk)


def _givens_after_edit(puzzle: Puzzle, r: int, c: int, value: int) -> tuple[tuple[int, int, int], ...]:
    """The puzzle's givens once cell (r, c) of the picture becomes colour ``value``
    (a given on that cell follows the picture)."""
    return tuple((gr, gc, value if (gr, gc) == (r, c) else v) for gr, gc, v in puzzle.givens)


def _given_value(puzzle: Puzzle | LanePuzzle, goal: Picture, cell: Any) -> bool | int:
    """The value a given takes: black or white in black and white, the colour index in colour."""
    if not isinstance(puzzle, Puzzle):  # another geometry: a picture, cells by number
        return puzzle.chars.index(goal[cell])
    ch = goal[cell[0]][cell[1]]
    return puzzle.chars.index(ch) if puzzle.is_color else ch == puzzle.chars[1]


def _givens_line(puzzle, uniq: GivenProposal, checker, left, out_of_time, best: _Best) -> GivenProposal | None:
    """Givens (a superset of ``uniq``'s) that make the puzzle line-solvable; ``best`` as above."""
    if uniq.check.line_solvable:
        return GivenProposal("line", uniq.givens, uniq.check)
    goal = uniq.check.solutions[0]
    givens = {x.key: _given_value(puzzle, goal, x.key) for x in uniq.givens}
    while True:
        if out_of_time():
            return None
        state, bad = checker.propagate(puzzle.with_givens(givens))
        if bad is not None:  # cannot happen: the givens come from a solution
            return None
        open_cells = state.unknown_cells()
        if not open_cells:
            break
        cell = best(givens, open_cells)
        givens[cell] = _given_value(puzzle, goal, cell)
    for cell in list(givens):
        trial = {k: v for k, v in givens.items() if k != cell}
        state, bad = checker.propagate(puzzle.with_givens(trial))
        if bad is None and state.is_complete():
            givens = trial
    chk = checker.check(puzzle.with_givens(givens), timeout=left())
    if chk.status != Status.UNIQUE or not chk.line_solvable:
        return None
    return GivenProposal("line", _as_givens(givens, puzzle), chk)


# ---------------------------------------------------------------------------
# edits


def _edit_order(res: FixResult, open_mask: np.ndarray) -> list[tuple[int, int]]:
    """Every cell, nearest to the ambiguity first (Chebyshev distance, then row-major)."""
    h, w = open_mask.shape
    region = open_mask.copy()
    for r, c in res.diff:
        region[r, c] = True
    if not region.any():
        return [(r, c) for r in range(h) for c in range(w)]
    # distance transform by repeated 3x3 dilation (grids are small)
    dist = np.full((h, w), h + w, np.int64)
    cur = region.copy()
    d = 0
    dist[cur] = 0
    while not cur.all():
        p = np.zeros((h + 2, w + 2), bool)
        p[1:-1, 1:-1] = cur
        nxt = cur.copy()
        for dr in range(3):
            for dc in range(3):
                nxt |= p[dr:dr + h, dc:dc + w]
        d += 1
        dist[nxt & ~cur] = d
        cur = nxt
    order = np.lexsort((np.arange(h * w), dist.ravel()))
    return [divmod(int(i), w) for i in order]


class _Found:
    """The edits found so far and the rule for taking a verified one: unique, and at most
    ``max_edits`` of each kind (line-solvable; unique only, wanted only when the puzzle is
    ambiguous, since an already-unique puzzle only wants line-solvable edits)."""

    def __init__(self, res: FixResult, max_edits: int) -> None:
        self.res = res
        self.max_edits = max_edits
        self.want_unique = res.status == Status.MULTIPLE
        self.n_line = self.n_search = 0

    def full(self) -> bool:
        """Enough line-solvable edits (the best kind): the search stops."""
        return self.n_line >= self.max_edits

    def wants(self, line: bool) -> bool:
        return self.n_line < self.max_edits if line else self.want_unique and self.n_search < self.max_edits

    def take(self, r: int, c: int, black: bool, edited: Puzzle | LanePuzzle, chk: CheckResult, char: str = "",
             expect: bool | None = None, cell: int | None = None) -> None:
        """Keep the edit of cell (r, c) when its check ``chk`` says unique (and line-solvable as
        ``expect`` says, when given) and its kind is still wanted; an unverified edit (out of
        time) is not proposed."""
        if chk.status != Status.UNIQUE or (expect is not None and chk.line_solvable != expect):
            return
        if not self.wants(chk.line_solvable):
            return
        if chk.line_solvable:
            self.n_line += 1
        else:
            self.n_search += 1
        self.res.edits.append(EditProposal(r, c, black, edited, chk, char, cell))


def _edits(puzzle: Puzzle | LanePuzzle, res: FixResult, checker: Checker, max_edits: int, search: _Search,
           left: Callable[[], float | None], out_of_time: Callable[[], bool]) -> None:
    """Single-cell edits, nearest to the ambiguity first, until time or enough line-solvable ones."""
    state, _ = checker.propagate(puzzle)
    if isinstance(puzzle, Puzzle):
        h, w = puzzle.height, puzzle.width
        open_mask = np.zeros((h, w), bool)
        for r, c in state.unknown_cells():
            open_mask[r, c] = True
        order: list[Any] = _edit_order(res, open_mask)
    else:
        order = _lane_edit_order(puzzle, res, state.unknown_cells())
    search.edits(order, _Found(res, max_edits), left, out_of_time)
    if out_of_time() and res.edits_tried < len(order):
        res.timed_out = True
    res.edits.sort(key=lambda e: (not e.line_solvable, order.index(e.key)))


def _lane_edit_order(puzzle: LanePuzzle, res: FixResult, open_cells: list[int]) -> list[int]:
    """Every cell of a puzzle of another geometry, nearest to the ambiguity first (steps between
    cells that share an edge or a corner, then cell order)."""
    g = puzzle.geometry
    n = g.cell_count
    corners: dict[tuple[float, float], list[int]] = {}
    for cell in range(n):
        for x, y in g.cell_polygon(cell):
            corners.setdefault((round(x, 6), round(y, 6)), []).append(cell)
    near: list[set[int]] = [set() for _ in range(n)]
    for cells in corners.values():
        for cell in cells:
            near[cell].update(cells)
    dist = [n] * n
    diff: list[int] = list(res.diff)  # type: ignore[arg-type]  # (cell numbers here)
    frontier = sorted(set(open_cells) | set(diff))
    if not frontier:
        return list(range(n))
    for cell in frontier:
        dist[cell] = 0
    d = 0
    while frontier:
        d += 1
        nxt = sorted({m for cell in frontier for m in near[cell] if dist[m] > d})
        for m in nxt:
            dist[m] = d
        frontier = nxt
    return sorted(range(n), key=lambda cell: (dist[cell], cell))


_Best = Callable[[Mapping[tuple[int, int], bool | int], list[tuple[int, int]]], tuple[int, int]]


class _Search:
    """How one kind of puzzle is scored and edited: ``best(givens, cells)`` picks the cell whose
    revelation leaves the fewest open cells; ``edits`` tries the flips of ``order``."""

    def __init__(self, puzzle: Puzzle | LanePuzzle, goal: Picture, checker: Checker) -> None:
        self.puzzle = puzzle
        self.goal = goal
        self.checker = checker

    def best(self, givens: Mapping[tuple[int, int], bool | int], cells: list[tuple[int, int]]) -> tuple[int, int]:
        raise NotImplementedError

    def edits(self, order: list[tuple[int, int]], found: _Found, left: Callable[[], float | None],
              out_of_time: Callable[[], bool]) -> None:
        raise NotImplementedError


def _in_palette(puzzle: Puzzle, grid: Grid) -> Grid:
    """A ``#``/``.`` picture in the puzzle's own characters ('#', or a one-colour puzzle's)."""
    ink = puzzle.chars[1]
    return grid if ink == BLACK else tuple(row.replace(BLACK, ink) for row in grid)


class _VectorSearch(_Search):
    """Black and white without rules: whole batches of pictures propagated at once
    (:func:`satnono.lines.vector.propagate_many`), 2x2 switches and goal-guided SAT
    before the verifying check."""

    puzzle: Puzzle
    goal: Grid

    def __init__(self, puzzle: Puzzle, goal: Grid, checker: Checker) -> None:
        super().__init__(puzzle, goal, checker)
        self.g = np.array([[ch == puzzle.chars[1] for ch in row] for row in goal], dtype=bool)
        # beyond the vectorised kernel propagation runs one picture at a time: keep batches short
        self.fast = supports(puzzle)

    def _batch(self, n: int) -> int:
        return n if self.fast else max(4, n // 8)

    def _open_after(self, base: Mapping[tuple[int, int], bool | int], extra: list[tuple[int, int]]) -> np.ndarray:
        """Open cells left by propagation with ``base`` givens plus each cell of ``extra`` in turn."""
        g = self.g
        B = len(extra)
        h, w = g.shape
        known = np.zeros((h, w), bool)
        for (r, c) in base:
            known[r, c] = True
        kn = np.repeat(known[None], B, axis=0)
        for b, (r, c) in enumerate(extra):
            kn[b, r, c] = True
        goals = np.repeat(g[None], B, axis=0)
        kb, kw = propagate_many(goals, kn & goals, kn & ~goals, lines=self.checker.lines)
        return h * w - np.count_nonzero(kb | kw, axis=(1, 2))

    def best(self, givens: Mapping[tuple[int, int], bool | int], cells: list[tuple[int, int]]) -> tuple[int, int]:
        """Ties: first in row-major order."""
        cand = _sample(sorted(cells), self._batch(SCORE_SAMPLE))
        counts = self._open_after(givens, cand)
        return cand[int(np.argmin(counts))]

    def edits(self, order: list[tuple[int, int]], found: _Found, left: Callable[[], float | None],
              out_of_time: Callable[[], bool]) -> None:
        puzzle, checker, res = self.puzzle, self.checker, found.res
        step = self._batch(EDIT_BATCH)
        for start in range(0, len(order), step):
            if out_of_time() or found.full():
                break
            cells = order[start:start + step]
            goals = np.repeat(self.g[None], len(cells), axis=0)
            for b, (r, c) in enumerate(cells):
                goals[b, r, c] = not goals[b, r, c]
            kb, kw = propagate_many(goals, lines=checker.lines)
            for b, (r, c) in enumerate(cells):
                if out_of_time() or found.full():
                    break
                res.edits_tried += 1
                known = kb[b] | kw[b]
                line = bool(known.all())
                if not found.wants(line):
                    continue
                if not line and switch_of(goals[b], ~known) is not None:
                    continue
                edited = Puzzle.from_grid(_in_palette(puzzle, grid_of(goals[b])), palette=puzzle.palette,
                                          name=puzzle.name, meta=puzzle.meta,
                                          givens=_givens_after_edit(puzzle, r, c, int(goals[b, r, c])))
                if not line and other_solution(goals[b], kb[b], kw[b], left(), puzzle=edited,
                                               lines=checker.lines) is not False:
                    continue  # ambiguous, or out of time
                filled = bool(goals[b, r, c])
                found.take(r, c, filled, edited, checker.check(edited, timeout=left()),
                           puzzle.chars[1] if filled else ".", expect=line)  # in the puzzle's own characters


#: Cells scored per greedy step in colour (each costs one propagation in Python).
COLOR_SCORE_SAMPLE = 24


def _edited(puzzle: Puzzle | LanePuzzle, goal: Any, cell: Any, ch: str) -> Puzzle | LanePuzzle | None:
    """``puzzle`` with ``cell`` of its picture ``goal`` changed to ``ch``: clues recomputed, a given
    on that cell following the picture, the rules kept (the edit is verified with them), and the
    blots kept where a lane's blocks stay the same; None when the edit changes the blocks of a
    blotted lane (a blot there would have no block to stay on: such an edit is not proposed rather
    than dropping the blot)."""
    value = puzzle.chars.index(ch)
    if isinstance(puzzle, Puzzle):
        r, c = cell
        row = goal[r]
        edited = Puzzle.from_grid(goal[:r] + (row[:c] + ch + row[c + 1:],) + goal[r + 1:], palette=puzzle.palette,
                                  name=puzzle.name, meta=puzzle.meta, givens=_givens_after_edit(puzzle, r, c, value),
                                  rules=puzzle.rules)
        if not puzzle.has_blots:
            return edited
        if edited.row_colors[r] != puzzle.row_colors[r] or edited.column_colors[c] != puzzle.column_colors[c]:  # type: ignore[index]
            return None
        return edited.replace(row_blots=puzzle.row_blots, column_blots=puzzle.column_blots)
    from .lanepuzzle import LanePuzzle

    givens = tuple((g, value if g == cell else v) for g, v in puzzle.givens)
    lane_edited = LanePuzzle.from_picture(puzzle.geometry, goal[:cell] + ch + goal[cell + 1:], puzzle.palette,
                                          name=puzzle.name, meta=puzzle.meta, givens=givens, rules=puzzle.rules)
    if not puzzle.has_blots:
        return lane_edited
    clues = []
    for old, new in zip(puzzle.clues, lane_edited.clues):
        if old.blots and (len(old.lengths), old.colors) != (len(new.lengths), new.colors):
            return None
        clues.append(new._replace(blots=old.blots, lengths=tuple(1 if (old.blots >> j) & 1 else n
                                                                  for j, n in enumerate(new.lengths))))
    return lane_edited.replace(clues=tuple(clues))


class _CheckerSearch(_Search):
    """Any puzzle (colour, rules): givens scored by the library's propagation, edits that
    change one cell to any other colour or to background, each through the check."""

    def best(self, givens: Mapping[tuple[int, int], bool | int], cells: list[tuple[int, int]]) -> tuple[int, int]:
        cand = _sample(sorted(cells), COLOR_SCORE_SAMPLE)
        scores = []
        for cell in cand:
            trial = dict(givens)
            trial[cell] = _given_value(self.puzzle, self.goal, cell)
            state, _ = self.checker.propagate(self.puzzle.with_givens(trial))
            scores.append(state.unknown_count())
        return cand[scores.index(min(scores))]

    def edits(self, order: list[Any], found: _Found, left: Callable[[], float | None],
              out_of_time: Callable[[], bool]) -> None:
        """Each cell of ``order`` changed to every other value (:func:`_edited`), each edit
        verified by the check."""
        puzzle, goal, res = self.puzzle, self.goal, found.res
        chars = puzzle.chars
        rectangle = isinstance(puzzle, Puzzle)
        for cell in order:
            if out_of_time() or found.full():
                break
            res.edits_tried += 1
            now = goal[cell[0]][cell[1]] if rectangle else goal[cell]
            for ch in chars:
                if ch == now:
                    continue
                edited = _edited(puzzle, goal, cell, ch)
                if edited is None:
                    continue
                r, c, number = _located(puzzle, cell)
                found.take(r, c, ch != chars[0], edited, self._check(edited, found, left), ch, cell=number)

    def _check(self, edited: Puzzle | LanePuzzle, found: _Found, left: Callable[[], float | None]) -> CheckResult:
        """The check of an edit.  When only line-solvable edits are still wanted, line logic
        decides first: an edit it leaves open is not settled by search (its verdict, unknown,
        is not taken), and one it settles goes on from that state (verified as always)."""
        if found.wants(False):
            return self.checker.check(edited, timeout=left())
        state, bad = self.checker.propagate(edited)
        if bad is not None or state.unknown_count():
            return CheckResult(edited, Status.UNKNOWN, reason="not line-solvable (not searched)")
        return self.checker.settle(edited, Start(state=state, propagated=True), Limits(timeout=left())).result
