"""Oracles shared by tests: simple implementations that the library's faster code is checked against.

:func:`probe` is single-cell contradiction probing written plainly (every value of every open
cell, no budget, no ordering, no shortcuts), the independent check of the explanations'
depth-1 grade (:class:`satnono.logic.probe.Prober`).  It lived in ``satnono.classify``.
"""

from __future__ import annotations

from satnono.linesolve import LineSolver
from satnono.propagate import Contradiction, GridState, propagate


def probe(state: GridState, lines: LineSolver, deadline: float | None = None) -> Contradiction | None:
    """Single-cell contradiction probing, in place, repeated until nothing changes.

    Each unknown cell is given each value it may still have (black, then
    white; in colour each colour, then the background) and propagated from
    its row and column; a value that contradicts is excluded from the cell
    (which is propagated at once).  Returns a :class:`Contradiction` if the
    puzzle turns out to have no solution.  Raises :class:`~satnono.propagate.Deadline`.
    """
    h, w = state.height, state.width
    changed = True
    while changed:
        changed = False
        for r, c in state.unknown_cells():
            for value in sorted(state.possible(r, c), reverse=True):
                if state.cell(r, c) is not None:
                    break
                if value not in state.possible(r, c):
                    continue
                trial = state.copy()
                trial.set_cell(r, c, value)
                if _propagate_from(trial, lines, r, c, h, w, deadline) is not None:
                    state.exclude(r, c, value)
                    bad = _propagate_from(state, lines, r, c, h, w, deadline)
                    if bad is not None:
                        return bad
                    changed = True
    return None


def _propagate_from(state: GridState, lines: LineSolver, r: int, c: int, h: int, w: int,
                    deadline: float | None) -> Contradiction | None:
    dr = [False] * h
    dc = [False] * w
    dr[r] = True
    dc[c] = True
    return propagate(state, lines, dr, dc, deadline)
