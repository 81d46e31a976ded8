"""Library calls, for a puzzle of any geometry: :func:`explain`, :func:`next_hint` and
:func:`difficulty`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..lines import LineSolver
from ..logic.probe import DEFAULT_PROBE_BUDGET, BudgetExhausted
from ..results import Limits
from ..solve import Checker, CheckResult, Status
from .board import board_of
from .engine import LineContradiction
from .explainer import Explainer, Explanation
from .grade import grade
from .techniques import Step, black_and_white, color_word, contradiction_text

#: Probing budget (line-solver calls) of the difficulty that ``check --json`` reports: small, so
#: that the grade never makes a check noticeably slower; the grade says "at least" when it runs out.
CHECK_PROBE_BUDGET = 30_000
#: Seconds the difficulty of ``check --json`` may take at most (a huge line-solvable puzzle has
#: thousands of steps; past this the step count is reported as a lower bound).
CHECK_SECONDS = 0.5


def _verdict_of(checker: Checker, puzzle: Any, timeout: float | None):
    """The verdict on ``puzzle`` (``none`` for None: known cells that contradict its givens)."""
    def verdict() -> str:
        return Status.NONE.value if puzzle is None else checker.check(puzzle, timeout).status.value

    return verdict


def explain(puzzle: Any, known: Any = None, max_steps: int | None = None,
            max_depth: int = 2, probe_budget: int = DEFAULT_PROBE_BUDGET, *, limits: Limits = Limits(),
            verdict_timeout: float | None = 10.0, line_solver: LineSolver | None = None) -> Explanation:
    """Explain how ``puzzle`` (of any geometry) is solved, step by step (see
    :mod:`satnono.explain.explainer`).

    ``known`` is an optional partial state to start from: a rectangle's rows over ``#``, ``.``,
    ``?`` (in colour the palette's characters and ``?``); on another geometry one character a
    cell in cell order, or a triangle grid's text rows (:class:`~satnono.explain.board.Board`).
    ``max_depth`` caps probing (0: line logic only).  ``probe_budget`` bounds probing in
    line-solver calls and ``limits`` the explanation in time
    (:class:`~satnono.results.Limits`: a timeout, a deadline); when either runs out the
    explanation stops with status ``budget`` and an "at least" grade.  When logic stops
    before the end, the puzzle (with the known cells) is checked (SAT, ``verdict_timeout``
    seconds) to say honestly whether the rest is unique.

    Raises ValueError (one line): a state that does not fit the puzzle.

    >>> from satnono.lanes import Triangle
    >>> from satnono.lanepuzzle import LanePuzzle
    >>> ex = explain(LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False))
    >>> ex.difficulty["text"], ex.picture
    ('line logic only, 3 steps', '#..#.#')
    >>> print(ex.steps[1].text)
    \\ line 2 (clue 1): the clue's only black cell is already known, so the other cells are white: row 1, cells 2-3 white
    """
    board = board_of(puzzle)
    if known is not None:
        board.start(known)  # (a state that does not fit: before any check)
    lines = line_solver or LineSolver()
    checker = Checker(line_solver=lines)
    ex = Explainer(lines, max_depth, probe_budget)
    with_known = puzzle if known is None else board.with_known(known)
    return ex.explain(puzzle, known, max_steps, limits, verdict=_verdict_of(checker, with_known, verdict_timeout))


def difficulty(puzzle: Any, result: CheckResult | None = None, probe_budget: int = CHECK_PROBE_BUDGET,
               *, limits: Limits = Limits(CHECK_SECONDS), line_solver: LineSolver | None = None
               ) -> dict[str, Any]:
    """The difficulty grade of ``puzzle`` (of any geometry; a dict, see
    :func:`satnono.explain.grade.grade`), black and white or colour.

    With ``result`` (the puzzle's :class:`CheckResult`) no SAT call is made:
    puzzles with several solutions or none are graded from it at once, and a
    unique one is explained with probing bounded by ``probe_budget`` and the
    whole explanation by ``limits`` (:data:`CHECK_SECONDS` by default).  Without
    ``result`` the puzzle is checked first, within ``limits`` too.  ``steps_exact``
    is false when the steps were cut short (then ``steps`` is a lower bound).
    """
    lines = line_solver or LineSolver()
    if result is None:
        result = Checker(line_solver=lines).settle(puzzle, limits=limits).result
    st = result.status
    if st is not Status.UNIQUE:
        level = {Status.MULTIPLE: "multiple", Status.NONE: "none"}.get(st, "unknown")
        d = grade([], "stuck", level if level != "unknown" else None, 2)
        d.update(steps_exact=False, text=d["text"].split(",")[0])  # no steps were taken
        return d
    ex = Explainer(lines, 2, probe_budget)
    d = ex.explain(puzzle, limits=limits, verdict=lambda: "unique").difficulty
    if result.line_solvable and (d["level"] != "line" or not d["exact"]):
        # cut short by the time limit: the level is known from the check, the steps are a lower bound
        d.update(level="line", rank=0, exact=True, steps_exact=False,
                 text=f"line logic only, at least {d['steps']} steps (stopped at the time limit)")
    return d


@dataclass(slots=True)
class Hint:
    """What :func:`next_hint` says."""

    kind: str
    """``step`` (the next deduction), ``wrong`` (filled cells that contradict the solution),
    ``solved``, ``stuck`` (no deduction by logic) or ``contradiction`` (the filled cells fit no solution)."""
    text: str
    step: Step | None = None
    wrong: list[Any] = field(default_factory=list)
    """The filled cells that differ from the solution: 0-based ``(row, col)`` on a rectangle,
    cell numbers on any other geometry."""
    status: str | None = None
    """The puzzle's verdict (``unique``, ``multiple``, ``none``, ``unknown``)."""

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "step": self.step.as_dict() if self.step else None,
                "wrong": [list(w) if isinstance(w, tuple) else w for w in self.wrong], "status": self.status}


def next_hint(puzzle: Any, known: Any, limits: Limits = Limits(10.0),
              probe_budget: int = DEFAULT_PROBE_BUDGET, line_solver: LineSolver | None = None) -> Hint:
    """The easiest next deduction from the partly solved ``known`` (of a puzzle of any geometry).

    ``known`` is a list of row strings over ``#`` (black), ``.`` (white) and
    ``?`` (unknown); in a colour puzzle over the palette's characters (``.`` the
    background) and ``?``; on another geometry one character a cell in cell order, or a
    triangle grid's text rows.  The puzzle is checked first (SAT, each check within
    ``limits``: ten seconds by default): when
    it is unique, filled cells that differ from its solution are reported
    instead of a hint (kind ``wrong``).  When it has several solutions, filled
    cells can only be judged together: if they fit no solution the hint says
    so (kind ``contradiction``) without naming a cell.

    In colour, that a line has no cell of a colour its clue lacks (the
    ``absent`` technique) is taken as known, since a partial grid cannot show
    ruled-out colours: the hint is the easiest step after those (an ``absent``
    step only when nothing else follows).

    Raises ValueError when ``known`` does not match the puzzle's size or has
    other characters.

    >>> from satnono import Puzzle
    >>> p = Puzzle.from_grid(["##", "#."])
    >>> next_hint(p, ["??", "??"]).step.technique
    'fill'
    """
    lines = line_solver or LineSolver()
    board = board_of(puzzle)
    cells = board.start(known)
    checker = Checker(line_solver=lines)
    res = checker.settle(puzzle, limits=limits).result
    status = res.status.value
    picture = board.picture_of(known)
    if res.status is Status.NONE:
        return Hint("contradiction", f"the puzzle itself has no solution: {res.reason}", status=status)
    if res.status is Status.UNIQUE:
        sol = "".join(res.solutions[0])
        index = board.value_index()
        wrong = [cell for cell, ch in enumerate(picture) if ch != "?" and index[ch] != index[sol[cell]]]
        if wrong:
            cell = wrong[0]
            more = f" (and {len(wrong) - 1} more filled cell{'s' if len(wrong) > 2 else ''})" if len(wrong) > 1 else ""
            v = index[picture[cell]]
            # in a one-colour puzzle of its own, '#' is its colour too
            word = ("black" if v else "white") if black_and_white(puzzle) else color_word(puzzle, v)
            return Hint("wrong", f"{board.cell_name(cell)} is {word}, but the solution differs there{more}",
                        wrong=[board.key(c) for c in wrong], status=status)
    elif any(ch != "?" for ch in picture):
        with_known = board.with_known(known)
        if with_known is None or checker.settle(with_known, limits=limits).result.status is Status.NONE:
            return Hint("contradiction",
                        "the filled cells fit no solution; the puzzle has several solutions "
                        "(or was not settled in time), so no single wrong cell can be named",
                        status=status)
    if cells.unknown_count() == 0:
        return Hint("solved", "every cell is filled: solved", status=status)
    ex = Explainer(lines, 2, probe_budget)
    try:
        step = ex.next_step(cells, past_absent=True)
    except BudgetExhausted:
        return Hint("stuck", "no cell follows by line logic, and the probing budget ran out before a probe "
                    "was found", status=status)
    except LineContradiction as e:
        return Hint("contradiction", f"{contradiction_text(puzzle, e.axis, e.index)} the filled cells",
                    status=status)
    if step is None:
        why = {"unique": "the rest needs search (the puzzle is unique only globally)",
               "multiple": "the puzzle has several solutions, so no logic settles the rest"}.get(
            status, "whether the rest is unique was not settled")
        return Hint("stuck", f"no cell follows by line logic or probing to depth 2: {why}", status=status)
    return Hint("step", step.text, step=step, status=status)
