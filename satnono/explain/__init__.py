"""Step-by-step explanations, hints and difficulty grades (issue 12).

* :func:`explain` — the ordered deductions from the empty grid (or a partial
  grid) to the solution, as far as line logic and probing go;
* :func:`next_hint` — the easiest next deduction from a partly solved grid, or
  the filled cell that is wrong;
* :func:`difficulty` — the grade of a puzzle (see the README, "Difficulty").

See :mod:`satnono.explain.engine` for the techniques and the order of steps.
"""

from __future__ import annotations

from .engine import (DEFAULT_PROBE_BUDGET, LEVELS, TECHNIQUES, Explainer, Explanation, Step,
                     line_move, state_from_known, state_grid)
from .hint import Hint, difficulty, explain, next_hint

__all__ = ["explain", "next_hint", "difficulty", "Hint", "Explanation", "Explainer", "Step", "LEVELS",
           "TECHNIQUES", "DEFAULT_PROBE_BUDGET", "line_move", "state_from_known", "state_grid"]
