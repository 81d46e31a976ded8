"""Step-by-step explanations, hints and difficulty grades (issue 12).

* :func:`explain` — the ordered deductions from the empty grid (or a partial
  grid) to the solution, as far as line logic and probing go;
* :func:`next_hint` — the easiest next deduction from a partly solved grid, or
  the filled cell that is wrong;
* :func:`difficulty` — the grade of a puzzle (see the README, "Difficulty");
* :func:`explain_lanes`, :func:`lane_hint`, :func:`lane_difficulty` — the same for a puzzle of
  any geometry (a triddler), over its lanes (:mod:`~satnono.explain.lanes`).

The modules: :mod:`~satnono.explain.techniques` (the line techniques and the wording of
steps), :mod:`~satnono.explain.engine` (line steps in a person's order),
:mod:`~satnono.explain.explainer` (whole explanations, with probe steps found by
:mod:`satnono.logic.probe`), :mod:`~satnono.explain.grade` (the grade) and
:mod:`~satnono.explain.hint` (the library calls).
"""

from __future__ import annotations

from ..logic.probe import DEFAULT_PROBE_BUDGET
from .engine import state_from_known, state_grid
from .explainer import Explainer, Explanation
from .grade import LEVELS
from .hint import Hint, difficulty, explain, next_hint
from .lanes import (LaneExplainer, LaneExplanation, LaneHint, LaneStep, explain_lanes, lane_difficulty,
                    lane_hint)
from .techniques import TECHNIQUES, Step, line_move

__all__ = ["explain", "next_hint", "difficulty", "Hint", "Explanation", "Explainer", "Step", "LEVELS",
           "TECHNIQUES", "DEFAULT_PROBE_BUDGET", "line_move", "state_from_known", "state_grid",
           "explain_lanes", "lane_hint", "lane_difficulty", "LaneExplainer", "LaneExplanation", "LaneHint",
           "LaneStep"]
