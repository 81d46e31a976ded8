"""Step-by-step explanations, hints and difficulty grades (issue 12), for a puzzle of any
geometry (a rectangle, a triddler: issue 39).

* :func:`explain` — the ordered deductions from nothing known (or a partial state) to the
  solution, as far as line logic and probing go;
* :func:`next_hint` — the easiest next deduction from a partly solved state, or the filled
  cell that is wrong;
* :func:`difficulty` — the grade of a puzzle (see the README, "Difficulty").

One engine serves every geometry: its line steps and probes iterate the puzzle's lanes
(``puzzle.lanes``, ``puzzle.lane_clues``), its state is seen cell by cell
(:class:`~satnono.logic.probe.Cells`: a rectangle's bit masks, any other geometry's lane
state) and its words for cells come from the puzzle's :class:`~satnono.explain.board.Board`.

The modules: :mod:`~satnono.explain.techniques` (the line techniques and the wording of
steps), :mod:`~satnono.explain.board` (what differs by geometry),
:mod:`~satnono.explain.engine` (line steps in a person's order),
:mod:`~satnono.explain.explainer` (whole explanations, with probe steps found by
:mod:`satnono.logic.probe`), :mod:`~satnono.explain.grade` (the grade),
:mod:`~satnono.explain.hint` (the library calls) and :mod:`~satnono.explain.draw` (text and
SVG pictures of steps).
"""

from __future__ import annotations

from ..logic.probe import DEFAULT_PROBE_BUDGET
from .board import Board, board_of, state_from_known
from .engine import state_grid
from .explainer import Explainer, Explanation
from .grade import LEVELS
from .hint import Hint, difficulty, explain, next_hint
from .techniques import TECHNIQUES, Step, line_move

__all__ = ["explain", "next_hint", "difficulty", "Hint", "Explanation", "Explainer", "Step", "LEVELS",
           "TECHNIQUES", "DEFAULT_PROBE_BUDGET", "Board", "board_of", "line_move",
           "state_from_known", "state_grid"]
