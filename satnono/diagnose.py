"""Where a puzzle is ambiguous or contradictory: diagnostics for puzzle authors.

:func:`diagnose` reports, as data:

* the grid after line logic (cells ``#``, ``.`` or ``?``);
* every row and column that still has more than one placement, with the exact
  number of placements (:func:`count_placements`, a small DP);
* for a puzzle with several solutions, the *ambiguity region*: the cells whose
  value is not the same in all solutions.  For each undetermined cell, one SAT
  call under an assumption asks for a solution with the other value; every
  solution found marks all the cells where it differs from the first, so most
  cells need no call of their own;
* for a puzzle with no solution, a *minimal* set of rows and columns whose
  clues admit no solution together: every line of the unpropagated puzzle is
  encoded behind a selector literal, the unsatisfiable core over the selectors
  is taken and shrunk by deletion until removing any one line makes the rest
  satisfiable.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Sequence

from .encode import encode, solution_grid
from .linesolve import LineSolver, Mask
from .model import Grid, Puzzle, grid_diff
from .propagate import COLUMN, ROW, Contradiction, Deadline, GridState, initial_state, propagate
from .sat import DEFAULT_SOLVER, SatSession
from .solve import sum_mismatch_reason

Cell = tuple[int, int]
Line = tuple[str, int]

#: Seconds allowed for the minimal-conflict search when no timeout is given
#: (clues whose totals disagree can make it a hard, pigeonhole-like SAT problem).
CONFLICT_TIMEOUT = 30.0


def count_placements(clue: Sequence[int], n: int, black: Mask = 0, white: Mask = 0) -> int:
    """The number of placements of ``clue`` in ``n`` cells that agree with the known cells.

    Exact for any size (a Python int).

    >>> count_placements((1,), 5), count_placements((2, 1), 6), count_placements((1,), 3, black=0b010)
    (5, 6, 1)
    """
    k = len(clue)
    # ways[p]: placements of blocks j.. in cells [p, n) (cells before the first block white)
    ways = [0] * (n + 1)
    ways[n] = 1
    for p in range(n - 1, -1, -1):
        ways[p] = ways[p + 1] if not (black >> p) & 1 else 0
    for j in range(k - 1, -1, -1):
        c = clue[j]
        nxt = ways
        ways = [0] * (n + 1)
        for p in range(n - 1, -1, -1):
            total = ways[p + 1] if not (black >> p) & 1 else 0
            end = p + c
            if end <= n and not (white >> p) & ((1 << c) - 1):
                if end == n:
                    total += nxt[n]
                elif not (black >> end) & 1:
                    total += nxt[end + 1]
            ways[p] = total
    return ways[0]


def count_color_placements(lengths: Sequence[int], colors: Sequence[int], n: int,
                           excluded: Sequence[Mask]) -> int:
    """:func:`count_placements` for a line of a colour puzzle: ``excluded[v]`` are the cells
    known not to have colour v (0 the background); same-colour neighbours need a gap.

    >>> count_color_placements((1, 1), (1, 2), 3, (0, 0, 0)), count_color_placements((1, 1), (1, 1), 3, (0, 0))
    (3, 1)
    """
    k = len(lengths)
    full = (1 << n) - 1
    may = [full & ~e for e in excluded]
    bg = may[0]
    # nxt[p]: placements of blocks j+1.. in cells [p, n); start with blocks k.. (none): all background
    nxt = [0] * (n + 2)
    nxt[n] = 1
    for p in range(n - 1, -1, -1):
        nxt[p] = nxt[p + 1] if (bg >> p) & 1 else 0
    for j in range(k - 1, -1, -1):
        c, col = lengths[j], colors[j]
        gap = j + 1 < k and colors[j + 1] == col
        cur = [0] * (n + 2)
        for p in range(n - 1, -1, -1):
            total = cur[p + 1] if (bg >> p) & 1 else 0
            end = p + c
            if end <= n and (may[col] >> p) & ((1 << c) - 1) == (1 << c) - 1:
                if not gap:
                    total += nxt[end]
                elif end < n and (bg >> end) & 1:
                    total += nxt[end + 1]
            cur[p] = total
        nxt = cur
    return nxt[0]


@dataclass(slots=True)
class OpenLine:
    """A row or column that line logic left with several placements."""

    axis: str
    index: int
    clue: tuple[int, ...]
    placements: int
    unknown: int
    """Undetermined cells in the line."""
    colors: str | None = None
    """In colour: the character of each block's colour."""

    def as_dict(self) -> dict[str, Any]:
        d = {"axis": self.axis, "index": self.index, "clue": list(self.clue),
             "placements": self.placements, "unknown": self.unknown}
        if self.colors is not None:
            d["colors"] = list(self.colors)
        return d


@dataclass(slots=True)
class Diagnosis:
    """Everything :func:`diagnose` found out about a puzzle."""

    puzzle: Puzzle
    status: str
    """``unique``, ``multiple``, ``none`` or ``unknown``."""
    line_solvable: bool = False
    after_line: Grid = ()
    """The grid after line logic: ``#`` black, ``.`` white, ``?`` undetermined."""
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

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; coordinates are 0-based ``[row, col]``."""
        p = self.puzzle
        return {
            "name": p.name,
            "width": p.width,
            "height": p.height,
            "status": self.status,
            "line_solvable": self.line_solvable,
            "after_line": list(self.after_line),
            "open_lines": [o.as_dict() for o in self.open_lines],
            "undetermined": [list(c) for c in self.undetermined],
            "solutions": [list(s) for s in self.solutions],
            "ambiguous": [list(c) for c in self.ambiguous],
            "ambiguity_complete": self.ambiguity_complete,
            "conflict": [{"axis": a, "index": i, "clue": list(_clue(p, a, i)),
                          **({"colors": [p.chars[v] for v in p.line(a, i)[1]]} if p.is_color else {})}
                         for a, i in self.conflict],
            "conflict_minimal": self.conflict_minimal,
            "conflict_rules": list(self.conflict_rules),
            "reason": self.reason,
            "seconds": round(self.seconds, 6),
        }


def _clue(p: Puzzle, axis: str, index: int) -> tuple[int, ...]:
    return p.rows[index] if axis == ROW else p.columns[index]


def after_line_grid(state: GridState) -> Grid:
    if state.nvals > 2:
        chars = state.puzzle.chars
        return tuple("".join("?" if (v := state.cell(r, c)) is None else chars[v] for c in range(state.width))
                     for r in range(state.height))
    out = []
    ink = state.puzzle.chars[1]  # '#', or a one-colour puzzle's own character
    for r in range(state.height):
        b, w = state.row_black[r], state.row_white[r]
        out.append("".join(ink if (b >> c) & 1 else "." if (w >> c) & 1 else "?" for c in range(state.width)))
    return tuple(out)


def open_lines(state: GridState) -> list[OpenLine]:
    """Rows then columns of ``state`` with more than one placement left."""
    p = state.puzzle
    out = []
    for axis, n_lines, n, clues in ((ROW, state.height, state.width, p.rows),
                                    (COLUMN, state.width, state.height, p.columns)):
        full = (1 << n) - 1
        for i in range(n_lines):
            if state.nvals > 2:
                known = state.known_row(i) if axis == ROW else state.known_column(i)
                unknown = (full & ~known).bit_count()
                if not unknown:
                    continue
                colors = p.line(axis, i)[1]
                k = count_color_placements(clues[i], colors, n, state.line_excluded(axis, i))
                if k > 1:
                    out.append(OpenLine(axis, i, clues[i], k, unknown, "".join(p.chars[v] for v in colors)))
                continue
            b, w = state.line(axis, i)
            unknown = (full & ~(b | w)).bit_count()
            if not unknown:
                continue
            k = count_placements(clues[i], n, b, w)
            if k > 1:
                out.append(OpenLine(axis, i, clues[i], k, unknown))
    return out


def minimal_conflict(puzzle: Puzzle, deadline: float | None = None, solver: str = DEFAULT_SOLVER,
                     line_solver: LineSolver | None = None) -> tuple[list[Line], bool] | None:
    """A set of lines whose clues together admit no solution, and whether it is proved minimal.

    Returns None when the clues are satisfiable, or when time ran out before
    any conflict was proved.  With the full time the set is minimal: removing
    any one line leaves satisfiable clues.  A clue that cannot fit in its
    line at all is a conflict of one line.
    """
    lines = line_solver or LineSolver()
    state = initial_state(puzzle)
    enc = encode(state, lines, rows=range(puzzle.height), columns=range(puzzle.width), selectors=True)
    by_lit = {lit: key for key, lit in enc.selectors.items()}
    with SatSession(enc.clauses, solver) as sat:
        current = list(enc.selectors.values())
        r = sat.solve(deadline, current)
        if r is None or r:
            return None
        core = [lit for lit in sat.core() if lit in by_lit] or current
        # Deletion: try each line without it; still UNSAT -> drop it (and keep only the new core).
        i = 0
        minimal = True
        core = sorted(core, key=lambda lit: by_lit[lit])
        while i < len(core):
            trial = core[:i] + core[i + 1:]
            r = sat.solve(deadline, trial)
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


def diagnose(puzzle: Puzzle, timeout: float | None = None, solver: str = DEFAULT_SOLVER,
             line_solver: LineSolver | None = None, probe_cells: bool = True) -> Diagnosis:
    """Diagnose ``puzzle``: see the module documentation.

    ``timeout`` bounds the whole run; what did not finish is flagged
    (``status`` ``unknown``, ``ambiguity_complete`` or ``conflict_minimal`` false).
    ``probe_cells=False`` skips the per-cell ambiguity test and reports only the
    cells where the first two solutions differ.
    """
    t0 = time.monotonic()
    deadline = None if timeout is None else t0 + timeout
    lines = line_solver or LineSolver()
    d = Diagnosis(puzzle, "unknown")

    def finish() -> Diagnosis:
        d.seconds = time.monotonic() - t0
        return d

    def no_solution(reason: str) -> Diagnosis:
        d.status = "none"
        d.reason = reason
        # the cells line logic left open (all of them when it did not run): the same cells
        # in the header, the JSON and the map
        d.undetermined = [(r, c) for r, row in enumerate(d.after_line) for c, ch in enumerate(row) if ch == "?"]
        limit = deadline if deadline is not None else time.monotonic() + CONFLICT_TIMEOUT
        found = minimal_conflict(puzzle, limit, solver, lines)
        if found is not None:
            keys, d.conflict_minimal = found
            d.conflict = [k for k in keys if k[0] != "rule"]
            if any(k[0] == "rule" for k in keys):
                from .rules import describe
                d.conflict_rules = [describe(puzzle.all_rules[i]) for a, i in keys if a == "rule"]
        elif puzzle.sum_mismatch():
            # the totals prove the conflict; the SAT search for a small core ran out of time
            d.conflict = [(ROW, i) for i in range(puzzle.height)] + [(COLUMN, i) for i in range(puzzle.width)]
            d.conflict_minimal = False
        return finish()

    state = initial_state(puzzle)
    for axis, n_lines, n in ((ROW, puzzle.height, puzzle.width), (COLUMN, puzzle.width, puzzle.height)):
        for i in range(n_lines):
            if puzzle.min_length(axis, i) > n:  # the most specific reason: a clue that cannot fit
                d.after_line = tuple("?" * puzzle.width for _ in range(puzzle.height))
                return no_solution(Contradiction(axis, i, False).describe(puzzle))
    if puzzle.sum_mismatch():
        d.after_line = tuple("?" * puzzle.width for _ in range(puzzle.height))
        return no_solution(sum_mismatch_reason(puzzle))
    try:
        bad = propagate(state, lines, deadline=deadline)
    except Deadline:
        d.reason = "timed out during line propagation"
        return finish()
    d.after_line = after_line_grid(state)
    if bad is not None:
        return no_solution(bad.describe(puzzle))
    d.undetermined = state.unknown_cells()
    d.open_lines = open_lines(state)
    if not d.undetermined:
        d.status = "unique"
        d.line_solvable = True
        d.solutions = [state.grid()]
        return finish()

    enc = encode(state, lines)
    if enc.unsat:
        return no_solution("the constraints left by line logic are contradictory")
    def grid_of(model: list[int]) -> Grid:
        return solution_grid(state, enc, model)

    with SatSession(enc.clauses, solver) as sat:
        r = sat.solve(deadline)
        if r is None:
            d.reason = "timed out before a first solution was found"
            return finish()
        if not r:
            return no_solution("no solution (proved by SAT search after line propagation)")
        first = sat.model()
        s1 = grid_of(first)
        d.solutions = [s1]
        # Is there a second solution?  Guard the blocking clause so it can be retracted.
        act = enc.nvars + 1
        sat.add_clause([-act] + enc.blocking_clause(first))
        r = sat.solve(deadline, [act])
        if r is None:
            d.reason = "found a solution, but timed out before proving it unique"
            return finish()
        if not r:
            d.status = "unique"
            return finish()
        d.status = "multiple"
        s2 = grid_of(sat.model())  # read the model before the solver state changes
        sat.add_clause([-act])
        d.solutions.append(s2)
        varies = {(rr, cc) for rr, cc in grid_diff(s1, s2)}
        if probe_cells:
            chars = puzzle.chars
            next_act = act + 1
            for rc in enc.unknown_cells:
                if rc in varies:
                    continue
                # a solution in which this cell differs from the first one
                value = chars.index(s1[rc[0]][rc[1]])
                if value:
                    assume = [-enc.color_var(*rc, value)]
                else:  # background: some colour instead (a guarded clause over the cell's colours)
                    assume = [next_act]
                    sat.add_clause([-next_act] + [enc.color_var(*rc, v) for v in range(1, enc.ncolors + 1)])
                    next_act += 1
                r = sat.solve(deadline, assume)
                if r:  # read the model before the solver state changes
                    varies.update(grid_diff(s1, grid_of(sat.model())))
                if not value:
                    sat.add_clause([-assume[0]])
                if r is None:
                    d.ambiguity_complete = False
                    break
        else:
            d.ambiguity_complete = False
        d.ambiguous = sorted(varies)
    return finish()


def heat(d: Diagnosis) -> list[list[int]]:
    """A level per cell for drawing.

    0 white (background) and 1 black (any block colour) by line logic; 2 left open by line logic (value not
    settled here); 3 ambiguous (differs between solutions); 4 an open cell of a
    line in the minimal conflict of a puzzle with no solution; 5 and 6 left
    open by line logic but white (5) or black (6) in every solution (shown when
    that is known: a unique puzzle, or a complete ambiguity region).
    """
    p = d.puzzle
    grid = [[0] * p.width for _ in range(p.height)]
    for r, row in enumerate(d.after_line):
        for c, ch in enumerate(row):
            grid[r][c] = 0 if ch == "." else 2 if ch == "?" else 1
    settled = d.solutions and (d.status == "unique" or (d.status == "multiple" and d.ambiguity_complete))
    if settled:
        s1 = d.solutions[0]
        for r, c in d.undetermined:
            grid[r][c] = 5 if s1[r][c] == "." else 6
    for r, c in d.ambiguous:
        grid[r][c] = 3
    for axis, i in d.conflict:
        cells = [(i, c) for c in range(p.width)] if axis == ROW else [(r, i) for r in range(p.height)]
        for r, c in cells:
            if grid[r][c] == 2:
                grid[r][c] = 4
    return grid
