"""The difficulty grade of an explanation (see the README, "Difficulty"): :func:`grade`,
the scale :data:`LEVELS` and the note that ends an explanation (:func:`end_note`).

:func:`~satnono.explain.difficulty` (in :mod:`satnono.explain.hint`) grades a whole puzzle;
a grade is computed only on request (``check --grade``, ``explain``, ``classify --probe``).
"""

from __future__ import annotations

from typing import Any, Sequence

from ..results import LEVELS
from .techniques import TECHNIQUES, Step, contradiction_text

__all__ = ["LEVELS", "end_note", "grade"]


def end_note(puzzle: Any, status: str, bad: tuple[str, int] | None, verdict: str | None, unknown: int,
             max_depth: int, out_of_time: bool = False, from_state: bool = False) -> str:
    """What happens after an explanation's last step, in words (its ``note``); ``bad`` the lane
    (its family and index) or rule that cannot be kept when ``status`` is ``none``."""
    if status == "solved":
        return "solved: every cell is settled"
    if status == "none":
        assert bad is not None
        axis, i = bad
        head = "the given cells fit no solution" if from_state else "no solution"
        return f"{head}: {contradiction_text(puzzle, axis, i)} the known cells"
    if status == "truncated":
        why = "the time limit ran out" if out_of_time else "stopped after the requested number of steps"
        return f"{why}; {unknown} cell{'s are' if unknown != 1 else ' is'} still open"
    probe = "line logic and probing" if max_depth else "line logic"
    if status == "budget":
        head = f"the probing budget ran out with {unknown} cell{'s' if unknown != 1 else ''} open"
    else:
        depth = f" up to depth {max_depth}" if max_depth else ""
        head = f"{probe}{depth} settle no more cells; {unknown} {'are' if unknown != 1 else 'is'} open"
    if verdict == "unique":
        return f"{head}: the rest needs search (the puzzle is unique only globally)"
    if verdict == "multiple":
        return f"{head}: the puzzle has several solutions, so no logic can settle the rest"
    if verdict == "none":
        return f"{head}: the puzzle has no solution"
    return f"{head}: whether the rest is unique was not settled"


def grade(steps: Sequence[Step], status: str, verdict: str | None, max_depth: int,
          insufficient: int = 0) -> dict[str, Any]:
    """The difficulty of an explanation (see the README, "Difficulty").

    ``level`` is the hardest technique needed: ``line`` (line logic only),
    ``probe`` (probing depth 1), ``probe2`` (depth 2) or ``search`` (unique, but
    beyond probing to ``max_depth``); outside the scale: ``multiple``, ``none``
    and ``unknown``.  ``exact`` is false when the budget ran out or steps were
    cut short: the level is then a lower bound ("at least": one above the
    deepest probe used, or above the deepest probing depth ``insufficient``
    that was seen to settle nothing, whichever is higher); ``steps_exact``
    is false when the steps were cut short (``steps`` is then a lower bound).
    """
    line_steps = sum(1 for s in steps if s.kind == "line")
    probes = [s for s in steps if s.kind == "probe"]
    depth = max((s.depth for s in probes), default=0)
    hardest = max((TECHNIQUES[s.technique] for s in steps if s.kind == "line"), default=None)
    hardest_name = None
    if hardest is not None:
        hardest_name = next(t for t, r in TECHNIQUES.items() if r == hardest and
                            any(s.technique == t for s in steps))
    by_depth = ["line", "probe", "probe2"]
    exact = True
    if status == "solved":
        level = by_depth[depth]
    elif status == "none" or verdict == "none":
        level = "none"
    elif verdict == "multiple":
        level = "multiple"
    elif status == "truncated":
        level, exact = by_depth[depth], False
    elif status == "budget":
        # stopped while looking for a probe: at least one level above the deepest probe used
        # and above the deepest depth seen to settle nothing
        low = max(depth, insufficient + 1, 1)
        level, exact = (by_depth[low] if low <= 2 else "search"), False
    elif verdict == "unique":
        # logic to max_depth is exhausted: search when that is depth 2, else at least the next depth
        if max_depth >= 2:
            level = "search"
        else:
            level, exact = by_depth[max_depth + 1], False
    else:
        level, exact = "unknown", False
    rank = LEVELS.index(level) if level in LEVELS else None
    words = {"line": "line logic only", "probe": "needs probing (depth 1)", "probe2": "needs probing (depth 2)",
             "search": "needs search beyond probing", "multiple": "several solutions",
             "none": "no solution", "unknown": "not settled"}[level]
    if not exact and level in LEVELS:
        words = "needs at least " + {"line": "line logic", "probe": "probing (depth 1)",
                                     "probe2": "probing (depth 2)", "search": "search"}[level]
    steps_exact = status in ("solved", "stuck", "none")
    n = len(steps)
    plural = "s" if n != 1 else ""
    text = words + (f", {n} step{plural}" if steps_exact else f", stopped after {n} step{plural}")
    if probes:
        text += f", {len(probes)} probe{'s' if len(probes) != 1 else ''}"
    return {
        "level": level,
        "rank": rank,
        "exact": exact,
        "steps": len(steps),
        "steps_exact": steps_exact,
        "line_steps": line_steps,
        "probes": len(probes),
        "max_depth": depth,
        "hardest_line_technique": hardest_name,
        "text": text,
    }
