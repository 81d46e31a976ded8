"""Whole explanations: :class:`Explainer` runs the :class:`~satnono.explain.engine.Engine`'s
line steps and, when no lane makes progress, probe steps, and grades the result, on a puzzle of
any geometry.

A *probe step* assumes one cell's value and shows by line steps (and rule steps)
that some lane (or rule) then cannot be kept, so the cell has another value (depth
1); depth 2 allows depth-1 probes inside the assumption.  A picture logic completes
is checked against every rule (``accepts``): one a rule rejects ends the
explanation with no solution.  The probe taken is the cheapest
refutation the :class:`~satnono.logic.probe.Prober` finds, and its chain keeps
only the steps the contradiction depends on (:func:`_prune`).  When the probing
budget (or the deadline) runs out, the explanation stops with an "at least" grade.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ..lines import LineSolver
from ..logic.probe import DEFAULT_PROBE_BUDGET, BudgetExhausted, Cells, Prober, cells_of
from ..model import BLACK, WHITE
from ..results import Limits
from ..rules.protocol import describe
from .board import Board, board_of
from .engine import Engine, LineContradiction, rule_step
from .grade import end_note, grade
from .techniques import Step, black_and_white, color_word, lane_label


def _prune(chain: list[Step], end: int | None, crossing: Callable[[Step], set[int]]) -> list[Step]:
    """The steps of a refutation that the final contradiction depends on, in order.

    ``end`` is the lane without a placement (None for a rule); ``crossing(step)`` the lanes
    through the cells a step touched.  A line step depends on every cell known in its lane
    before it; walking backwards from the lane without a placement keeps the steps that set
    such cells.  A nested probe step (or a rule step) depends on the whole grid, so once one
    is needed every step before it is kept.  Replaying the kept steps in order gives each kept
    lane the same known cells, hence the same deductions and the same contradiction.
    """
    if end is None:  # a rule reads the whole grid
        return list(chain)
    needed = {end}
    keep = [False] * len(chain)
    for k in range(len(chain) - 1, -1, -1):
        st = chain[k]
        if needed.isdisjoint(crossing(st)):
            continue
        if st.kind in ("probe", "rule"):
            for q in range(k + 1):
                keep[q] = True
            break
        keep[k] = True
        needed.add(st.lane)  # type: ignore[arg-type]
    return [s for s, kp in zip(chain, keep) if kp]


# --------------------------------------------------------------------------
# Whole explanations


@dataclass(slots=True)
class Explanation:
    """Everything :func:`explain` found, on a puzzle of any geometry."""

    puzzle: Any
    """A :class:`~satnono.model.Puzzle` or a :class:`~satnono.lanepuzzle.LanePuzzle`."""
    steps: list[Step]
    picture: str
    """The cells reached, one character a cell in cell order: ``#`` and ``.`` (in colour the
    palette's characters), ``?`` for cells logic could not settle."""
    solved: bool
    status: str
    """``solved`` (logic settled every cell), ``stuck`` (logic stops), ``none`` (a lane has no placement),
    ``budget`` (the probing budget ran out) or ``truncated`` (``max_steps`` reached)."""
    difficulty: dict[str, Any]
    note: str
    """What happens after the last step, in words."""
    seconds: float = 0.0

    @property
    def grid(self) -> tuple[str, ...]:
        """:attr:`picture` as rows: a rectangle's rows, a triangle grid's text rows (webpbn's
        solution rows, each between ``/`` or ``\\``), any other geometry's cells as one row."""
        return board_of(self.puzzle).rows(self.picture)

    @property
    def remaining(self) -> list[Any]:
        """The open cells: ``(row, col)`` on a rectangle, cell numbers on any other geometry."""
        key = board_of(self.puzzle).key
        return [key(cell) for cell, ch in enumerate(self.picture) if ch == "?"]

    def as_dict(self) -> dict[str, Any]:
        """The JSON form: a rectangle's size is its width and height, any other geometry's its
        ``geometry`` and ``cells`` (the cell count)."""
        board = board_of(self.puzzle)
        return {
            "name": self.puzzle.name,
            **board.shape(),
            "steps": [s.as_dict() for s in self.steps],
            "solved": self.solved,
            "status": self.status,
            "remaining": [list(k) if isinstance(k, tuple) else k for k in self.remaining],
            "grid": list(self.grid),
            "difficulty": self.difficulty,
            "note": self.note,
            "seconds": round(self.seconds, 6),
        }


class Explainer:
    """Runs explanations of puzzles of any geometry; keep one for a batch so the line-solver
    cache is shared."""

    def __init__(self, line_solver: LineSolver | None = None, max_depth: int = 2,
                 probe_budget: int = DEFAULT_PROBE_BUDGET) -> None:
        self.lines = line_solver or LineSolver()
        self.max_depth = max_depth
        self.probe_budget = probe_budget

    def refutation(self, cells: Cells, cell: int, value: int, depth: int, prober: Prober,
                   board: Board | None = None) -> tuple[list[Step], LineContradiction] | None:
        """The readable chain refuting ``cell = value`` on a copy of the state ``cells``, and the
        contradiction it ends in; None when the assumption leads to none."""
        board = board or board_of(cells.puzzle)
        trial = cells.copy()
        trial.set(cell, value)
        chain: list[Step] = []
        rules = trial.puzzle.rules
        try:
            eng = Engine(trial, self.lines, board=board)
            while True:
                st = eng.step(chain)
                if st is None and rules:
                    rs = rule_step(trial, board)
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
                    pr = self.probe_step(trial, *found, depth=1, prober=prober, board=board)
                    if pr is None:
                        return None
                    chain.append(pr)
                    eng.apply_step(pr)
        except LineContradiction as e:
            return _prune(chain, e.lane, lambda st: board.touched_lanes(trial, st)), e

    def probe_step(self, cells: Cells, cell: int, value: int, depth: int, prober: Prober,
                   board: Board | None = None) -> Step | None:
        """The probe step refuting ``cell = value`` (a colour index: in black and white 1 is
        black), or None when the assumption leads to no contradiction."""
        board = board or board_of(cells.puzzle)
        got = self.refutation(cells, cell, value, depth, prober, board)
        if got is None:
            return None
        chain, bad = got
        p = cells.puzzle
        ref = board.ref(cell)
        chars = p.chars
        k = bad.lane
        clue = () if k is None else p.lane_clues[k].lengths
        found: list[tuple[Any, ...]] = []
        excluded: list[tuple[Any, ...]] | None = None
        colors: str | None = None
        if not black_and_white(p):  # the colour is ruled out; the cell is settled when one colour is left
            word = color_word(p, value)
            left = [v for v in cells.possible(cell) if v != value]
            excluded = []
            if len(left) == 1:
                found.append((*ref, chars[left[0]]))
                then = f"so it is not {word}: it is {color_word(p, left[0])}"
            else:
                excluded.append((*ref, chars[value]))
                then = f"so it is not {word}"
            assumed = chars[value]
            colors = "" if k is None else "".join(chars[v] for v in p.lane_clues[k].colors)
        else:
            word = "black" if value else "white"
            assumed = BLACK if value else WHITE
            found.append((*ref, WHITE if value else BLACK))
            then = f"so it is {'white' if value else 'black'}"
        text = (f"if {board.cell_name(cell)} were {word}, {_would_fail(p, bad)} after {_chain_size(chain)}, "
                f"{then}")
        return Step("probe", bad.axis, bad.index, clue, found, "probe" if depth == 1 else "probe2", text,
                    probe=(*ref, assumed), chain=chain, depth=depth, excluded=excluded, colors=colors, lane=k,
                    name=None if k is None else board.step_name(k))

    def explain(self, puzzle: Any, known: Any = None, max_steps: int | None = None,
                limits: Limits = Limits(), verdict: Callable[[], str] | None = None) -> Explanation:
        """Explain ``puzzle`` (of any geometry) from nothing known but its given cells, or from
        ``known``: a partial state as :meth:`Board.start <satnono.explain.board.Board.start>`
        reads it (a rectangle's rows over ``#``, ``.``, ``?``; a triddler's cells or text rows).

        ``limits`` bounds the explanation (a timeout from when it starts, a deadline); when it
        runs out the explanation stops, truncated, with an "at least" grade.  ``verdict`` is a
        callable returning the puzzle's status (``unique``, ``multiple``, ``none``,
        ``unknown``) used to word what happens when logic stops; None leaves the verdict
        unsettled.

        Raises ValueError (one line): a state that does not fit the puzzle.
        """
        t0 = time.monotonic()
        deadline = limits.deadline_from(t0)
        board = board_of(puzzle)
        cells = board.start(known)
        prober = Prober(self.lines, self.probe_budget, deadline)
        steps: list[Step] = []
        status = "stuck"
        out_of_time = False
        bad: tuple[str, int] | None = None
        rules = puzzle.rules
        try:
            eng = Engine(cells, self.lines, board=board)
            while True:
                if max_steps is not None and len(steps) >= max_steps:
                    status = "truncated"
                    break
                if deadline is not None and not len(steps) & 15 and time.monotonic() > deadline:
                    status, out_of_time = "truncated", True
                    break
                st = eng.step(steps)
                if st is None and rules:
                    rs = rule_step(cells, board)
                    if rs is not None:
                        steps.append(rs)
                        eng.apply_step(rs)
                        continue
                if st is None:
                    if cells.unknown_count() == 0:
                        status = "solved"
                        break
                    pr = self._probe(cells, prober, board)
                    if pr is None:
                        break
                    steps.append(pr)
                    eng.apply_step(pr)
        except LineContradiction as e:
            status, bad = "none", (e.axis, e.index)
        except BudgetExhausted:
            status = "budget"
        unknown = cells.unknown_count()
        if not unknown and status in ("solved", "truncated") and puzzle.all_rules:
            broken = board.broken_rule(cells.picture())
            if broken is not None:  # (a rule that deduces nothing, or not all it could)
                status, bad = "none", ("rule", broken)
        solved = status == "solved" or (status == "truncated" and unknown == 0)
        if solved:
            status = "solved"
        verdict_status = None
        if status in ("stuck", "budget") and verdict is not None:
            verdict_status = verdict()
        text = end_note(puzzle, status, bad, verdict_status, unknown, self.max_depth, out_of_time, known is not None)
        diff = grade(steps, status, verdict_status, self.max_depth, prober.insufficient)
        return Explanation(puzzle, steps, cells.picture(), solved, status, diff, text, time.monotonic() - t0)

    def _probe(self, cells: Cells, prober: Prober, board: Board) -> Step | None:
        for depth in range(1, self.max_depth + 1):
            found = prober.find(cells, depth)
            if found is not None:
                st = self.probe_step(cells, *found, depth=depth, prober=prober, board=board)
                if st is None:  # cannot happen: the fast search and the engine agree
                    raise RuntimeError("a probe refuted by propagation has no readable refutation")
                return st
        return None

    def next_step(self, state: Any, with_probes: bool = True, past_absent: bool = False) -> Step | None:
        """The easiest next step from ``state`` (a :class:`GridState`, a
        :class:`~satnono.logic.lanes.LaneState` or its :class:`~satnono.logic.probe.Cells` view;
        not applied), or None.

        With ``past_absent`` (colour hints: a partial grid cannot show ruled-out colours, and
        that a line has no cell of a colour its clue lacks is read off the clue), the
        ``absent`` exclusions are taken as known first, on a copy of ``state``; an ``absent``
        step is returned only when nothing else follows.

        Raises the internal contradiction when a lane of ``state`` has no placement.
        """
        cells = cells_of(state)
        board = board_of(cells.puzzle)
        first_absent = None
        if past_absent and not black_and_white(cells.puzzle):
            cells = cells.copy()
            eng = Engine(cells, self.lines, board=board)
            got = eng.next_move()
            while got is not None and got[1].technique == "absent":
                st = eng.make_step(*got)
                first_absent = first_absent or st
                eng.apply_step(st)
                got = eng.next_move()
        else:
            eng = Engine(cells, self.lines, board=board)
            got = eng.next_move()
        if got is not None:
            return eng.make_step(*got)
        if cells.puzzle.rules:
            rs = rule_step(cells, board)
            if rs is not None:
                return rs
        if not with_probes or cells.unknown_count() == 0:
            return first_absent
        return self._probe(cells, Prober(self.lines, self.probe_budget, None), board) or first_absent


def _would_fail(p: Any, bad: LineContradiction) -> str:
    if bad.axis == "rule":
        return f"the rule {describe(p.all_rules[bad.index])} could not be kept"
    return f"{lane_label(p, bad.lane)} would have no placement"  # type: ignore[arg-type]


def _chain_size(chain: Sequence[Step]) -> str:
    """``5 line steps`` or ``3 line steps and 1 nested probe``."""
    nested = sum(1 for s in chain if s.kind == "probe")
    how = f"{len(chain) - nested} line step{'s' if len(chain) - nested != 1 else ''}"
    if nested:
        how += f" and {nested} nested probe{'s' if nested != 1 else ''}"
    return how
