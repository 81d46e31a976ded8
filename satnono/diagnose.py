"""Where a puzzle is ambiguous or contradictory: diagnostics for puzzle authors.

:func:`diagnose` reports, as data, for a puzzle of any geometry (one driver over the puzzle's
lanes, :attr:`~satnono.model.Puzzle.lanes` and ``lane_clues``: a rectangle's rows and columns,
a triddler's rows, ``/`` lines and ``\\`` lines; the state and the settle pipeline are
:meth:`satnono.solve.Checker.settle`'s):

* the grid after line logic (cells ``#``, ``.`` or ``?``; a picture string on another geometry);
* every lane that still has more than one placement, with the exact
  number of placements (:func:`~satnono.lines.count.count_line`, a small DP);
* for a puzzle with several solutions, the *ambiguity region*: the cells whose
  value is not the same in all solutions.  For each undetermined cell, one SAT
  call under an assumption asks for a solution with the other value; every
  solution found marks all the cells where it differs from the first, so most
  cells need no call of their own;
* for a puzzle with no solution, a *minimal* set of lanes whose
  clues admit no solution together: every lane of the unpropagated puzzle is
  encoded behind a selector literal (keyed ``(lane.family, lane.index)``; a rectangle's extra
  lines, its ``line`` rules, are lanes ``("line", j)``), the unsatisfiable
  core over the selectors is taken and shrunk by deletion until removing any one lane makes
  the rest satisfiable.  The extra rules are behind selectors too; a lazily encoded one
  (``connected``) cuts off each model it rejects with clauses behind its selector, so
  it takes part in the conflict as the others do.  Totals that disagree
  (:func:`totals_mismatch`) are the reason given, and the two families their fallback
  conflict when the search runs out of time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from .cnf.encode import encode, solution_grid
from .lanes import COLUMN, LINE, ROW
from .lines import LineSolver
from .lines.bits import known_of
from .lines.count import count_line
from .model import BACKGROUND, Grid, Puzzle
from .logic.state import Contradiction, GridState, initial_state, partial_grid
from .sat import DEFAULT_SOLVER, SatSession
from .results import Limits, Status, cpu_seconds
from .rules.protocol import describe, is_lazy
from .solve import Checker, Settlement, solutions_differ, solve_keeping_rules, sum_mismatch_reason, verified

if TYPE_CHECKING:
    from .clues import LineClue
    from .lanepuzzle import LanePuzzle
    from .logic.lanes import LaneState

Cell = tuple[int, int]
Line = tuple[str, int]

#: Seconds allowed for the minimal-conflict search when no timeout is given
#: (clues whose totals disagree can make it a hard, pigeonhole-like SAT problem).
CONFLICT_TIMEOUT = 30.0


@dataclass(slots=True)
class OpenLine:
    """A lane (a row or a column of a rectangle) that line logic left with several placements."""

    axis: str
    """The lane's family: ``"row"``, ``"column"`` (``"/"``, ``"\\"`` on a triangle)."""
    index: int
    clue: tuple[int, ...]
    placements: int
    unknown: int
    """Undetermined cells in the line."""
    colors: str | None = None
    """In colour: the character of each block's colour."""
    text: str | None = None
    """The clue as a person reads it (``?`` for a blotted length)."""

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"axis": self.axis, "index": self.index, "clue": self._clue_json(),
                             "placements": self.placements, "unknown": self.unknown}
        if self.colors is not None:
            d["colors"] = list(self.colors)
        return d

    def _clue_json(self) -> list[Any]:
        """The lengths, ``"?"`` for a blotted one (read off the text, which marks them)."""
        if self.text is None or "?" not in self.text:
            return list(self.clue)
        return ["?" if part.startswith("?") else n for part, n in zip(self.text.split(), self.clue)]


@dataclass(slots=True)
class Diagnosis:
    """Everything :func:`diagnose` found out about a puzzle."""

    puzzle: Puzzle | LanePuzzle
    status: Status
    """The verdict: ``unique``, ``multiple``, ``none`` or ``unknown`` (a :class:`~satnono.results.Status`)."""
    line_solvable: bool = False
    after_line: Grid = ()
    """The grid after line logic: ``#`` black, ``.`` white, ``?`` undetermined (for a puzzle of
    another geometry one string, a character a cell).  Cells elsewhere are ``(row, col)`` on a
    rectangle and cell numbers on another geometry; solutions are pictures there."""
    open_lines: list[OpenLine] = field(default_factory=list)
    undetermined: list[Cell] = field(default_factory=list)
    solutions: list[Grid] = field(default_factory=list)
    """Up to two solutions."""
    ambiguous: list[Cell] = field(default_factory=list)
    """Cells whose value differs between solutions (empty unless ``multiple``)."""
    ambiguity_complete: bool = True
    """False when time ran out before every undetermined cell was tested:
    ``ambiguous`` is then a subset of the true region."""
    conflict: list[Line] = field(default_factory=list)
    """For ``none``: a set of lines whose clues admit no solution together."""
    conflict_minimal: bool = False
    """True when removing any line of ``conflict`` leaves satisfiable clues (proved)."""
    conflict_rules: list[str] = field(default_factory=list)
    """The rules (as ``--rule`` spells them; ``givens`` for the given cells) that belong to the
    conflict with the lines of ``conflict``."""
    reason: str | None = None
    seconds: float = 0.0
    cpu_seconds: float | None = None
    """CPU seconds of every process the diagnosis took, when it was allowed several jobs (else None)."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; coordinates are 0-based ``[row, col]`` (cell numbers on another
        geometry, with its ``geometry`` and ``cells`` instead of width and height, and its
        pictures strings); a blotted length is ``"?"``."""
        p = self.puzzle
        rectangle = isinstance(p, Puzzle)
        shape: dict[str, Any] = ({"width": p.width, "height": p.height} if isinstance(p, Puzzle)
                                 else {"geometry": p.geometry.as_json(), "cells": p.geometry.cell_count})
        picture: Callable[[Any], Any] = list if rectangle else str  # a rectangle's rows, else one string
        cell: Callable[[Any], Any] = list if rectangle else int  # [row, col], else a cell number
        clues = {(lane.family, lane.index): clue for lane, clue in zip(p.lanes, p.lane_clues)}

        def lane(family: str, index: int) -> dict[str, Any]:
            c = clues[(family, index)]
            return {"axis": family, "index": index, "clue": _clue_json(c),
                    **({"colors": [p.chars[v] for v in c.colors]} if p.is_color else {})}

        return {
            "name": p.name,
            **shape,
            "status": self.status,
            "line_solvable": self.line_solvable,
            "after_line": picture(self.after_line),
            "open_lines": [o.as_dict() for o in self.open_lines],
            "undetermined": [cell(c) for c in self.undetermined],
            "solutions": [picture(s) for s in self.solutions],
            "ambiguous": [cell(c) for c in self.ambiguous],
            "ambiguity_complete": self.ambiguity_complete,
            "conflict": [lane(a, i) for a, i in self.conflict],
            "conflict_minimal": self.conflict_minimal,
            "conflict_rules": list(self.conflict_rules),
            "reason": self.reason,
            "seconds": round(self.seconds, 6),
            **({} if self.cpu_seconds is None else {"cpu_seconds": round(self.cpu_seconds, 6)}),
        }


def _clue_json(clue: LineClue) -> list[Any]:
    """A clue's lengths for JSON, ``"?"`` for a blotted one."""
    return ["?" if clue.is_blotted(j) else n for j, n in enumerate(clue.lengths)]


def open_lines(state: GridState | LaneState) -> list[OpenLine]:
    """The lanes of ``state`` (a rectangle's rows then columns, another geometry's lanes in its
    order) with more than one placement left, from each lane's masks (:meth:`lane_masks`)."""
    p = state.puzzle
    out = []
    for lane, clue in zip(p.lanes, p.lane_clues):
        n = len(lane.cells)
        full = (1 << n) - 1
        ex = state.lane_masks(lane)
        unknown = (full & ~known_of(ex, full)).bit_count()
        if not unknown:
            continue
        k = count_line(clue, n, ex)
        if k > 1:
            colors = "".join(p.chars[v] for v in clue.colors) if p.is_color else None
            out.append(OpenLine(lane.family, lane.index, clue.lengths, k, unknown, colors,
                                clue.text(p.chars, p.is_color)))
    return out


#: A rectangle's selectors in a conflict: columns, rows (by name, as always), extra lines, rules.
_RECTANGLE_ORDER = {COLUMN: 0, ROW: 1, LINE: 2, "rule": 3}


def _conflict_order(puzzle: Puzzle | LanePuzzle, key: tuple[str, int]) -> Any:
    """Where a selector's key (a lane's ``(family, index)``, or ``("rule", i)``) comes in a
    conflict: a rectangle's by name (columns, rows, rules, as always), its extra lines (its
    ``line`` rules) after the rows; another geometry's lanes in its own order (rows, / lines,
    \\ lines), then the rules."""
    if isinstance(puzzle, Puzzle):
        return _RECTANGLE_ORDER[key[0]], key[1]
    if key[0] == "rule":
        return (len(puzzle.lanes), key[1])
    return (next(k for k, lane in enumerate(puzzle.lanes) if (lane.family, lane.index) == key), 0)


def minimal_conflict(puzzle: Puzzle | LanePuzzle, deadline: float | None = None, solver: str = DEFAULT_SOLVER,
                     line_solver: LineSolver | None = None) -> tuple[list[Line], bool] | None:
    """A set of lines whose clues together admit no solution, and whether it is proved minimal.

    Returns None when the clues are satisfiable, or when time ran out before
    any conflict was proved.  With the full time the set is minimal: removing
    any one line leaves satisfiable clues.  A clue that cannot fit in its
    line at all is a conflict of one line.
    """
    lines = line_solver or LineSolver()
    state = initial_state(puzzle)
    # every lane, a known one too (its clue may be what the givens break)
    enc = encode(state, lines, lanes=range(len(puzzle.lanes)), selectors=True)
    by_lit = {lit: key for key, lit in enc.selectors.items()}
    # a lazily encoded rule (connected) has no clauses of its own: each model it rejects is cut
    # off by clauses guarded by its selector (true of every picture the rule accepts, so they
    # hold for every set of lanes tried; without the rule's selector they say nothing)
    lazy = [(enc.selectors[("rule", i)], rule) for i, rule in enumerate(puzzle.all_rules)
            if is_lazy(rule) and ("rule", i) in enc.selectors]

    def satisfiable(sat: SatSession, assumed: list[int]) -> bool | None:
        while True:
            r = sat.solve(deadline, assumed)
            if not r or not lazy:
                return r
            picture = solution_grid(state, enc, sat.model())
            on = set(assumed)
            cuts = [[-guard, *cl] for guard, rule in lazy if guard in on and not rule.accepts(picture)
                    for cl in (enc.cut(rule, picture) or ())]
            if not cuts:
                return True
            for cl in cuts:
                sat.add_clause(cl)

    with SatSession(enc.clauses, solver) as sat:
        current = list(enc.selectors.values())
        r = satisfiable(sat, current)
        if r is None or r:
            return None
        core = [lit for lit in sat.core() if lit in by_lit] or current
        # Deletion: try each line without it; still UNSAT -> drop it (and keep only the new core).
        i = 0
        minimal = True
        core = sorted(core, key=lambda lit: _conflict_order(puzzle, by_lit[lit]))
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            r = satisfiable(sat, trial)
            if r is None:
                minimal = False
                break
            if r:
                i += 1  # needed
                continue
            smaller = set(sat.core())
            core = [lit for lit in trial if lit in smaller] or trial
            # positions before i are already known to be needed and are kept by the core
    return [by_lit[lit] for lit in core], minimal


def totals_mismatch(puzzle: Puzzle | LanePuzzle) -> tuple[str, list[Line]] | None:
    """Two families of lanes that each hold every cell once (a rectangle's rows and columns, a
    triddler's rows, / lines and \\ lines) whose clues cannot ask for the same number of cells of
    some colour: why (:func:`~satnono.solve.totals_reason`'s words), and the lanes of the two families
    (in the puzzle's order); None when they agree."""
    if isinstance(puzzle, Puzzle):
        if not puzzle.sum_mismatch():
            return None
        why, families = sum_mismatch_reason(puzzle), (ROW, COLUMN)
    else:
        found = puzzle.totals_mismatch()
        if found is None:
            return None
        why, families = found
    return why, [(lane.family, lane.index) for lane in puzzle.lanes if lane.family in families]


def diagnose(puzzle: Puzzle | LanePuzzle, timeout: float | None = None, solver: str = DEFAULT_SOLVER,
             line_solver: LineSolver | None = None, probe_cells: bool = True, jobs: int | str = 1) -> Diagnosis:
    """Diagnose ``puzzle``: see the module documentation.

    ``timeout`` bounds the whole run; what did not finish is flagged
    (``status`` ``unknown``, ``ambiguity_complete`` or ``conflict_minimal`` false).
    ``probe_cells=False`` skips the per-cell ambiguity test and reports only the
    cells where the first two solutions differ.  ``jobs``: searches at once for the verdict
    (:attr:`~satnono.results.Limits.jobs`); other than 1, ``cpu_seconds`` counts every process.
    """
    t0 = time.monotonic()
    cpu0 = cpu_seconds() if jobs != 1 else None
    deadline = None if timeout is None else t0 + timeout
    lines = line_solver or LineSolver()
    d = Diagnosis(puzzle, Status.UNKNOWN)

    def finish() -> Diagnosis:
        d.seconds = time.monotonic() - t0
        if cpu0 is not None:
            d.cpu_seconds = cpu_seconds() - cpu0
        return d

    def no_solution(reason: str) -> Diagnosis:
        d.status = Status.NONE
        d.reason = reason
        # the cells line logic left open (all of them when it did not run): the same cells
        # in the header, the JSON and the map
        if isinstance(puzzle, Puzzle):
            d.undetermined = [(r, c) for r, row in enumerate(d.after_line) for c, ch in enumerate(row) if ch == "?"]
        else:
            d.undetermined = [i for i, ch in enumerate(d.after_line) if ch == "?"]  # type: ignore[misc]
        limit = deadline if deadline is not None else time.monotonic() + CONFLICT_TIMEOUT
        found = minimal_conflict(puzzle, limit, solver, lines)
        if found is not None:
            keys, d.conflict_minimal = found
            d.conflict = [k for k in keys if k[0] != "rule"]
            if any(k[0] == "rule" for k in keys):
                d.conflict_rules = [describe(puzzle.all_rules[i]) for a, i in keys if a == "rule"]
        elif (mismatch := totals_mismatch(puzzle)) is not None:
            # the totals prove the conflict; the SAT search for a small core ran out of time
            d.conflict = mismatch[1]
            d.conflict_minimal = False
        return finish()

    unknown = (tuple("?" * puzzle.width for _ in range(puzzle.height)) if isinstance(puzzle, Puzzle)
               else "?" * puzzle.geometry.cell_count)
    for lane, clue in zip(puzzle.lanes, puzzle.lane_clues):
        if clue.min_length() > len(lane.cells):  # the most specific reason: a clue that cannot fit
            d.after_line = unknown  # type: ignore[assignment]
            return no_solution(Contradiction(lane.family, lane.index, False).describe(puzzle))
    mismatch = totals_mismatch(puzzle)
    if mismatch is not None:
        d.after_line = unknown  # type: ignore[assignment]
        return no_solution(mismatch[0])
    st = Checker(solver, lines).settle(puzzle, limits=Limits(deadline=deadline, jobs=jobs), keep_open=probe_cells)
    try:
        return _diagnosis(d, st, deadline, probe_cells, finish, no_solution)
    finally:
        st.close()


def _diagnosis(d: Diagnosis, st: Settlement, deadline: float | None, probe_cells: bool,
               finish: Callable[[], Diagnosis], no_solution: Callable[[str], Diagnosis]) -> Diagnosis:
    """Fill ``d`` from what the settle pipeline found, probing cells for the ambiguity region."""
    res, state, enc = st.result, st.state, st.enc
    if state is None or (enc is None and res.status is Status.UNKNOWN):
        d.reason = res.reason  # line propagation timed out
        if not isinstance(d.puzzle, Puzzle) and not isinstance(state, GridState):
            # each cell as line logic left it (every cell open when it had no state)
            d.after_line = ("?" * d.puzzle.geometry.cell_count if state is None  # type: ignore[assignment]
                            else state.picture(d.puzzle.chars))
        return finish()
    grid = isinstance(state, GridState)  # a rectangle's (else another geometry's, cells by number)
    d.after_line = partial_grid(state) if grid else state.picture(d.puzzle.chars)  # type: ignore[attr-defined]
    if st.contradiction is not None:
        return no_solution(st.contradiction.describe(d.puzzle))
    if res.status is Status.NONE and enc is None:  # line logic's only grid breaks a rule
        return no_solution(res.reason or "no solution")
    d.undetermined = state.unknown_cells() if grid else state.open_cells()  # type: ignore[attr-defined]
    d.open_lines = open_lines(state)
    if res.line_solvable:
        d.status = Status.UNIQUE
        d.line_solvable = True
        d.solutions = list(res.solutions)
        return finish()
    if res.status is Status.NONE:
        return no_solution(res.reason or "no solution")
    d.solutions = list(res.solutions)
    if res.status is Status.UNKNOWN:
        d.reason = res.reason
        return finish()
    if res.status is Status.UNIQUE:
        d.status = Status.UNIQUE
        return finish()
    d.status = Status.MULTIPLE
    s1, s2 = res.solutions
    varies = set(solutions_differ(s1, s2))
    if not probe_cells or st.sat is None or enc is None:
        d.ambiguity_complete = False
        d.ambiguous = sorted(varies)
        return finish()
    sat = st.sat
    chars = d.puzzle.chars
    next_act = enc.nvars + 1
    # The first solution is blocked already: each probe asks for a solution in which one more
    # cell differs from it (a solution found marks every cell where it differs).
    for cell in enc.unknown_cells:
        if cell in varies:
            continue
        if grid:
            value = chars.index(s1[cell[0]][cell[1]])
            lits = [enc.color_var(*cell, v) for v in range(1, enc.ncolors + 1)]
        else:
            value = chars.index(s1[cell])  # type: ignore[call-overload]  # (cell numbers)
            lits = [enc.color_var(cell, v) for v in range(1, enc.ncolors + 1)]  # type: ignore[call-arg, arg-type]
        if value:
            assume = [-lits[value - 1]]
        else:  # background: some colour instead (a guarded clause over the cell's colours)
            assume = [next_act]
            sat.add_clause([-next_act] + lits)
            next_act += 1
        got = solve_keeping_rules(sat, state, enc, deadline, assumptions=assume)
        if got:
            varies.update(solutions_differ(s1, verified(d.puzzle, got[0])))
        if not value:
            sat.add_clause([-assume[0]])
        if got is None:
            d.ambiguity_complete = False
            break
    d.ambiguous = sorted(varies)
    return finish()


def heat(d: Diagnosis) -> list[list[int]]:
    """:func:`lane_heat`'s levels of a rectangle's diagnosis, row by row."""
    p = d.puzzle
    assert isinstance(p, Puzzle), "heat() draws rectangles: lane_heat() any geometry"
    levels = lane_heat(d)
    return [levels[r * p.width:(r + 1) * p.width] for r in range(p.height)]


def lane_heat(d: Diagnosis) -> list[int]:
    """A level per cell for drawing, cell by cell (a rectangle's row by row).

    0 white (background) and 1 black (any block colour) by line logic; 2 left open by line logic (value not
    settled here); 3 ambiguous (differs between solutions); 4 an open cell of a
    lane in the minimal conflict of a puzzle with no solution; 5 and 6 left
    open by line logic but white (5) or black (6) in every solution (shown when
    that is known: a unique puzzle, or a complete ambiguity region).
    """
    p = d.puzzle
    rectangle = isinstance(p, Puzzle)  # its cells (row, col) numbered, its pictures' rows joined
    width = p.width if isinstance(p, Puzzle) else 0

    def number(cell: Any) -> int:
        return cell[0] * width + cell[1] if rectangle else cell

    levels = [0] * p.geometry.cell_count  # (every cell white when line logic left no grid: out of time)
    for cell, ch in enumerate("".join(d.after_line)):
        levels[cell] = 0 if ch == BACKGROUND else 2 if ch == "?" else 1
    if d.solutions and (d.status == "unique" or (d.status == "multiple" and d.ambiguity_complete)):
        first = "".join(d.solutions[0])
        for cell in map(number, d.undetermined):
            levels[cell] = 5 if first[cell] == BACKGROUND else 6
    for cell in map(number, d.ambiguous):
        levels[cell] = 3
    lanes = {(lane.family, lane.index): lane for lane in p.lanes}
    for key in d.conflict:
        for cell in lanes[key].cells:
            if levels[cell] == 2:
                levels[cell] = 4
    return levels
