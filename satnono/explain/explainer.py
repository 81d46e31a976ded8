"""Whole explanations: :class:`Explainer` runs the :class:`~satnono.explain.engine.Engine`'s
line steps and, when no line makes progress, probe steps, and grades the result.

A *probe step* assumes one cell's value and shows by line steps that some line
(or rule) then cannot be kept, so the cell has another value (depth 1); depth 2
allows depth-1 probes inside the assumption.  The probe taken is the cheapest
refutation the :class:`~satnono.logic.probe.Prober` finds, and its chain keeps
only the steps the contradiction depends on (:func:`_prune`).  When the probing
budget (or the deadline) runs out, the explanation stops with an "at least" grade.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Sequence

from ..lines import LineSolver
from ..logic.probe import DEFAULT_PROBE_BUDGET, BudgetExhausted, Prober
from ..model import BLACK, WHITE, Puzzle
from ..results import Limits
from ..logic.state import COLUMN, ROW, GridState, initial_state
from ..rules.protocol import describe
from .engine import Engine, LineContradiction, rule_step, state_from_known, state_grid
from .grade import end_note, grade
from .techniques import Step, black_and_white, color_word


def _prune(chain: list[Step], end: tuple[str, int]) -> list[Step]:
    """The steps of a refutation that the final contradiction depends on, in order.

    A line step depends on every cell known in its line before it; walking
    backwards from the line without a placement keeps the steps that set such
    cells.  A nested probe step depends on the whole grid, so once one is
    needed every step before it is kept.  Replaying the kept steps in order
    gives each kept line the same known cells, hence the same deductions and
    the same contradiction.
    """
    if end[0] == "rule":  # a rule reads the whole grid
        return list(chain)
    needed_lines = {end}
    keep = [False] * len(chain)
    for k in range(len(chain) - 1, -1, -1):
        st = chain[k]
        if not any((ROW, r) in needed_lines or (COLUMN, c) in needed_lines for r, c, _ in st.touched()):
            continue
        if st.kind in ("probe", "rule"):
            for q in range(k + 1):
                keep[q] = True
            break
        keep[k] = True
        needed_lines.add((st.axis, st.index))
    return [s for s, kp in zip(chain, keep) if kp]


# --------------------------------------------------------------------------
# Whole explanations


@dataclass(slots=True)
class Explanation:
    """Everything :func:`explain` found."""

    puzzle: Puzzle
    steps: list[Step]
    grid: tuple[str, ...]
    """The grid reached: ``#`` and ``.`` (in colour the palette's characters), ``?`` for cells
    logic could not settle."""
    solved: bool
    status: str
    """``solved`` (logic settled every cell), ``stuck`` (logic stops), ``none`` (a line has no placement),
    ``budget`` (the probing budget ran out) or ``truncated`` (``max_steps`` reached)."""
    difficulty: dict[str, Any]
    note: str
    """What happens after the last step, in words."""
    seconds: float = 0.0

    @property
    def remaining(self) -> list[tuple[int, int]]:
        return [(r, c) for r, row in enumerate(self.grid) for c, ch in enumerate(row) if ch == "?"]

    def as_dict(self) -> dict[str, Any]:
        p = self.puzzle
        return {
            "name": p.name,
            "width": p.width,
            "height": p.height,
            "steps": [s.as_dict() for s in self.steps],
            "solved": self.solved,
            "status": self.status,
            "remaining": [list(rc) for rc in self.remaining],
            "grid": list(self.grid),
            "difficulty": self.difficulty,
            "note": self.note,
            "seconds": round(self.seconds, 6),
        }


class Explainer:
    """Runs explanations; keep one for a batch so the line-solver cache is shared."""

    def __init__(self, line_solver: LineSolver | None = None, max_depth: int = 2,
                 probe_budget: int = DEFAULT_PROBE_BUDGET) -> None:
        self.lines = line_solver or LineSolver()
        self.max_depth = max_depth
        self.probe_budget = probe_budget

    def refutation(self, state: GridState, r: int, c: int, black: int, depth: int,
                   prober: Prober) -> tuple[list[Step], tuple[str, int]] | None:
        """The readable chain refuting ``(r, c) = black`` on a copy of ``state``."""
        trial = state.copy()
        trial.set_cell(r, c, black)
        chain: list[Step] = []
        try:
            eng = Engine(trial, self.lines)
            while True:
                st = eng.step(chain)
                if st is None and trial.puzzle.rules:
                    rs = rule_step(trial)
                    if rs is not None:
                        chain.append(rs)
                        eng.apply_step(rs)
                        continue
                if st is None:
                    if depth < 2:
                        return None
                    found = prober.find(trial, 1)
                    if found is None:
                        return None
                    pr = self.probe_step(trial, *found, depth=1, prober=prober)
                    if pr is None:
                        return None
                    chain.append(pr)
                    eng.apply_step(pr)
        except LineContradiction as e:
            return _prune(chain, (e.axis, e.index)), (e.axis, e.index)

    def probe_step(self, state: GridState, r: int, c: int, black: int | bool, depth: int,
                   prober: Prober) -> Step | None:
        """The probe step refuting ``(r, c) = black`` (in colour: the colour index ``black``),
        or None when the assumption leads to no contradiction."""
        got = self.refutation(state, r, c, black, depth, prober)
        if got is None:
            return None
        chain, (axis, index) = got
        p = state.puzzle
        cells: list[tuple[int, int, str]] = []
        excluded: list[tuple[int, int, str]] | None = None
        colors: str | None = None
        if not black_and_white(p):  # the colour is ruled out; the cell is settled when one colour is left
            chars = p.chars
            value = int(black)
            word = color_word(p, value)
            left = [v for v in state.possible(r, c) if v != value]
            excluded = []
            if len(left) == 1:
                cells.append((r, c, chars[left[0]]))
                then = f"so it is not {word}: it is {color_word(p, left[0])}"
            else:
                excluded.append((r, c, chars[value]))
                then = f"so it is not {word}"
            assumed = chars[value]
            clue, line_colors = ((), ()) if axis == "rule" else p.line(axis, index)
            colors = "".join(chars[v] for v in line_colors)
        else:
            word = "black" if black else "white"
            assumed = BLACK if black else WHITE
            cells.append((r, c, WHITE if black else BLACK))
            then = f"so it is {'white' if black else 'black'}"
            clue = () if axis == "rule" else p.rows[index] if axis == ROW else p.columns[index]
        text = (f"if cell (row {r + 1}, column {c + 1}) were {word}, "
                f"{_would_fail(p, axis, index)} after {_chain_size(chain)}, "
                f"{then}")
        return Step("probe", axis, index, clue, cells, "probe" if depth == 1 else "probe2", text,
                    probe=(r, c, assumed), chain=chain, depth=depth, excluded=excluded, colors=colors)

    def explain(self, puzzle: Puzzle, known: Sequence[str] | None = None, max_steps: int | None = None,
                limits: Limits = Limits(), verdict=None) -> Explanation:
        """Explain ``puzzle`` from the empty grid (or from ``known``).

        ``limits`` bounds the explanation (a timeout from when it starts, a deadline); when it
        runs out the explanation stops, truncated, with an "at least" grade.  ``verdict`` is a
        callable returning the puzzle's status (``unique``, ``multiple``, ``none``,
        ``unknown``) used to word what happens when logic stops; None leaves the verdict
        unsettled.
        """
        t0 = time.monotonic()
        deadline = limits.deadline_from(t0)
        state = initial_state(puzzle) if known is None else state_from_known(puzzle, known)
        prober = Prober(self.lines, self.probe_budget, deadline)
        steps: list[Step] = []
        status = "stuck"
        out_of_time = False
        bad: tuple[str, int] | None = None
        try:
            eng = Engine(state, self.lines)
            while True:
                if max_steps is not None and len(steps) >= max_steps:
                    status = "truncated"
                    break
                if deadline is not None and not len(steps) & 15 and time.monotonic() > deadline:
                    status, out_of_time = "truncated", True
                    break
                st = eng.step(steps)
                if st is None and puzzle.rules:
                    rs = rule_step(state)
                    if rs is not None:
                        steps.append(rs)
                        eng.apply_step(rs)
                        continue
                if st is None:
                    if state.unknown_count() == 0:
                        status = "solved"
                        break
                    pr = self._probe(state, prober)
                    if pr is None:
                        break
                    steps.append(pr)
                    eng.apply_step(pr)
        except LineContradiction as e:
            status, bad = "none", (e.axis, e.index)
        except BudgetExhausted:
            status = "budget"
        solved = status == "solved" or (status == "truncated" and state.unknown_count() == 0)
        if solved:
            status = "solved"
        verdict_status = None
        if status in ("stuck", "budget") and verdict is not None:
            verdict_status = verdict()
        text = end_note(puzzle, status, bad, verdict_status, state.unknown_count(), self.max_depth, out_of_time,
                        known is not None)
        diff = grade(steps, status, verdict_status, self.max_depth, prober.insufficient)
        return Explanation(puzzle, steps, state_grid(state), solved, status, diff, text,
                           time.monotonic() - t0)

    def _probe(self, state: GridState, prober: Prober) -> Step | None:
        for depth in range(1, self.max_depth + 1):
            found = prober.find(state, depth)
            if found is not None:
                st = self.probe_step(state, *found, depth=depth, prober=prober)
                if st is None:  # cannot happen: the fast search and the engine agree
                    raise RuntimeError("a probe refuted by propagation has no readable refutation")
                return st
        return None

    def next_step(self, state: GridState, with_probes: bool = True, past_absent: bool = False) -> Step | None:
        """The easiest next step from ``state`` (not applied), or None.

        With ``past_absent`` (colour hints: a partial grid cannot show ruled-out colours, and
        that a line has no cell of a colour its clue lacks is read off the clue), the
        ``absent`` exclusions are taken as known first, on a copy of ``state``; an ``absent``
        step is returned only when nothing else follows.

        Raises the internal contradiction when a line of ``state`` has no placement.
        """
        first_absent = None
        if past_absent and state.nvals > 2:
            state = state.copy()
            eng = Engine(state, self.lines)
            got = eng.next_move()
            while got is not None and got[1].technique == "absent":
                st = eng.make_step(*got)
                first_absent = first_absent or st
                eng.apply_step(st)
                got = eng.next_move()
        else:
            eng = Engine(state, self.lines)
            got = eng.next_move()
        if got is not None:
            return eng.make_step(*got)
        if state.puzzle.rules:
            rs = rule_step(state)
            if rs is not None:
                return rs
        if not with_probes or state.unknown_count() == 0:
            return first_absent
        return self._probe(state, Prober(self.lines, self.probe_budget, None)) or first_absent


def _would_fail(p: Puzzle, axis: str, index: int) -> str:
    if axis == "rule":
        return f"the rule {describe(p.all_rules[index])} could not be kept"
    return f"{axis} {index + 1} (clue {p.clue_text(axis, index)}) would have no placement"


def _chain_size(chain: Sequence[Step]) -> str:
    """``5 line steps`` or ``3 line steps and 1 nested probe``."""
    nested = sum(1 for s in chain if s.kind == "probe")
    how = f"{len(chain) - nested} line step{'s' if len(chain) - nested != 1 else ''}"
    if nested:
        how += f" and {nested} nested probe{'s' if nested != 1 else ''}"
    return how
