"""Blotting a picture's clues on purpose: hide as many clue numbers as the puzzle allows.

:func:`blot` takes a picture (a grid, or a :class:`~satnono.model.Puzzle` or a
:class:`~satnono.lanepuzzle.LanePuzzle` of any geometry with a goal) and hides clue numbers
one at a time, in a random order drawn from ``seed``, keeping each blot only when the puzzle
still meets ``require``:

* ``"unique"``: the goal stays the only solution (:meth:`satnono.solve.Checker.settle`);
* ``"line"``: line logic alone still settles every cell.

A blot only loosens a puzzle: when hiding a number breaks the requirement, hiding it on top
of any larger set of blots breaks it too.  So one greedy pass that tries each number once
ends at a *maximal* set: hiding any one further number breaks the requirement.  Each trial
is propagated first (cheap, and a line-solvable trial is unique without SAT); on a rectangle
in black and white without rules a 2x2 switch among the cells line logic leaves open proves a
second solution without SAT; only then does one SAT call look for a solution other than the
goal.  One :class:`~satnono.solve.Checker` (one line-solver cache) serves the whole pass.
The result is checked again before it is returned.

How far it gets (``python scripts/bench.py blotted --reach``: the five 20x20 line-solvable
pictures of ``generate(20, 20, 5, seed=1)``, blot seed 0): ``require="unique"`` hides 52 % of
the clue numbers on average (50-55 %, e.g. 112 of 224), ``require="line"`` 50 % (46-54 %); a
pass takes 0.8-1.6 s (unique, about 100 SAT checks) and 0.2-0.3 s (line, no SAT) on one core.

:func:`hide_numbers` hides a given fraction of the numbers at random with no requirement
(what the blotted benchmark settles).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Union, overload

from .errors import SatnonoError
from .lanepuzzle import LanePuzzle
from .model import Grid, Puzzle, color_clues_of_grid
from .results import Limits, Status
from .solve import Checker, CheckResult, Start

if TYPE_CHECKING:
    from .clues import LineClue

REQUIRES = ("unique", "line")
#: Blots scored (by a propagation each) per greedy step of :func:`reveal_blots`.
REVEAL_SAMPLE = 24

Number = tuple[str, int, int]
"""One clue number: ``(axis, line, block)``, 0-based (``axis`` is ``"row"`` or ``"column"``; on
another geometry a lane's ``(family, index, block)``)."""

AnyPuzzle = Union[Puzzle, LanePuzzle]


class BlotError(SatnonoError, ValueError):
    """The picture cannot be blotted as asked (no goal, or it does not meet the requirement
    even with no number hidden)."""


@dataclass
class BlotResult:
    """What :func:`blot` did."""

    puzzle: AnyPuzzle
    """The blotted puzzle (its goal is the picture)."""
    require: str
    hidden: int
    """Clue numbers hidden in ``puzzle`` (those the input had hidden already included)."""
    total: int
    """Clue numbers of the picture, hidden or not."""
    blots: tuple[Number, ...] = ()
    """The numbers hidden, in the order they were hidden (the input's own blots first)."""
    check: CheckResult | None = None
    """The final verification of ``puzzle``."""
    tried: int = 0
    """Numbers tried."""
    sat_calls: int = 0
    """Trials that needed the SAT check (neither line logic nor a switch settled them)."""
    timed_out: bool = False
    """True when ``timeout`` stopped the pass (or a SAT call): the blots are valid, maybe not maximal."""
    seconds: float = 0.0
    stats: dict[str, int] = field(default_factory=dict)

    @property
    def fraction(self) -> float:
        return self.hidden / self.total if self.total else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "require": self.require,
            "hidden": self.hidden,
            "total": self.total,
            "fraction": round(self.fraction, 6),
            "blots": [list(b) for b in self.blots],
            "line_solvable": bool(self.check and self.check.line_solvable),
            "tried": self.tried,
            "sat_calls": self.sat_calls,
            "timed_out": self.timed_out,
            "seconds": round(self.seconds, 6),
        }


# ---------------------------------------------------------------------------
# Clue numbers and puzzles with a chosen set of them hidden


@overload
def _base(picture: LanePuzzle) -> tuple[LanePuzzle, str]: ...


@overload
def _base(picture: Puzzle | Sequence[str]) -> tuple[Puzzle, Grid]: ...


@overload
def _base(picture: AnyPuzzle | Sequence[str]) -> tuple[AnyPuzzle, Grid | str]: ...


def _base(picture: AnyPuzzle | Sequence[str]) -> tuple[AnyPuzzle, Grid | str]:
    """The picture's puzzle with every number shown (rules, givens, name and meta kept) and its goal."""
    if isinstance(picture, LanePuzzle):
        if picture.goal is None:
            raise BlotError("blotting needs the picture: the puzzle has no goal")
        if not picture.is_solution(picture.goal):
            raise BlotError("the goal picture does not satisfy the puzzle's clues")
        return picture.replace(clues=_lane_clues_of(picture, picture.goal)), picture.goal
    if isinstance(picture, Puzzle):
        goal = picture.goal
        if goal is None:
            raise BlotError("blotting needs the picture: the puzzle has no goal")
        if not picture.is_solution(goal):
            raise BlotError("the goal picture does not satisfy the puzzle's clues")
        rl, rc, cl, cc = color_clues_of_grid(goal, picture.palette)
        full = picture.replace(rows=rl, columns=cl, row_colors=rc, column_colors=cc,
                                   row_blots=(), column_blots=())
        return full, goal
    p = Puzzle.from_grid(tuple(picture))
    assert p.goal is not None
    return p, p.goal


def numbers(puzzle: AnyPuzzle) -> list[Number]:
    """Every clue number of ``puzzle``, rows first, in order (on another geometry lane by lane,
    ``(family, index, block)``)."""
    if isinstance(puzzle, LanePuzzle):
        return [(lane.family, lane.index, j) for lane, clue in zip(puzzle.lanes, puzzle.lane_clues)
                for j in range(len(clue.lengths))]
    return [(axis, i, j) for axis in ("row", "column") for i, clue in enumerate(puzzle.clues(axis))
            for j in range(len(clue.lengths))]


def hidden_numbers(puzzle: Puzzle | LanePuzzle) -> list[Number]:
    """The clue numbers ``puzzle`` hides, rows first, in order (on another geometry lane by lane,
    ``(family, index, block)``)."""
    if not isinstance(puzzle, Puzzle):
        return [(lane.family, lane.index, j) for lane, clue in zip(puzzle.lanes, puzzle.lane_clues)
                for j in range(len(clue.lengths)) if clue.is_blotted(j)]
    return [(axis, i, j) for axis in ("row", "column") for i, clue in enumerate(puzzle.clues(axis))
            for j in range(len(clue.lengths)) if clue.is_blotted(j)]


@overload
def with_blots(full: LanePuzzle, hidden: Iterable[Number]) -> LanePuzzle: ...


@overload
def with_blots(full: Puzzle, hidden: Iterable[Number]) -> Puzzle: ...


@overload
def with_blots(full: AnyPuzzle, hidden: Iterable[Number]) -> AnyPuzzle: ...


def with_blots(full: AnyPuzzle, hidden: Iterable[Number]) -> AnyPuzzle:
    """``full`` (every number shown) with the numbers ``hidden`` blotted, everything else kept
    (another geometry's blotted lengths written 1, as :class:`~satnono.lanepuzzle.LanePuzzle`
    holds them)."""
    if isinstance(full, LanePuzzle):
        keep = set(hidden)
        clues = []
        for lane, clue in zip(full.lanes, full.clues):
            blots = sum(1 << j for j in range(len(clue.lengths)) if (lane.family, lane.index, j) in keep)
            clues.append(clue._replace(blots=blots, lengths=tuple(1 if blots >> j & 1 else n
                                                                  for j, n in enumerate(clue.lengths))))
        return full.replace(clues=tuple(clues))
    rb = [0] * full.height
    cb = [0] * full.width
    for axis, i, j in hidden:
        (rb if axis == "row" else cb)[i] |= 1 << j
    return full.replace(row_blots=tuple(rb), column_blots=tuple(cb))


def revealed(puzzle: Puzzle | LanePuzzle, shown: Iterable[Number]) -> Puzzle | LanePuzzle:
    """``puzzle`` (with a goal) with the numbers ``shown`` no longer hidden: their lengths are the goal's."""
    keep = set(hidden_numbers(puzzle)) - set(shown)
    if not isinstance(puzzle, Puzzle):  # another geometry: the goal's clues, ``keep`` blotted (written 1)
        assert puzzle.goal is not None
        return with_blots(puzzle.replace(clues=_lane_clues_of(puzzle, puzzle.goal)), keep)
    full, _ = _base(puzzle)
    return with_blots(full, keep)


def _lane_clues_of(puzzle: LanePuzzle, picture: str) -> tuple[LineClue, ...]:
    """The clues of ``picture`` on ``puzzle``'s geometry, lane by lane."""
    from .lanepuzzle import LanePuzzle

    return LanePuzzle.from_picture(puzzle.geometry, picture, puzzle.palette).clues


def hide_numbers(picture: Puzzle | Sequence[str], fraction: float, seed: int = 0) -> Puzzle:
    """The picture's puzzle with ``round(fraction * numbers)`` of its clue numbers hidden, chosen
    at random from ``seed`` with no requirement (the verdict may become ``multiple``).  A puzzle
    without a goal (and without blots) has its own clues blotted."""
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction must be between 0 and 1, got {fraction}")
    if isinstance(picture, Puzzle) and picture.goal is None and not picture.has_blots:
        full = picture  # no picture: the clues as they are
    else:
        full, _ = _base(picture)
    nums = numbers(full)
    chosen = random.Random(seed).sample(nums, round(fraction * len(nums)))
    return with_blots(full, chosen)


# ---------------------------------------------------------------------------
# The greedy pass


class _Judge:
    """Does a puzzle (the picture's, with some numbers hidden) meet the requirement?"""

    def __init__(self, require: str, goal: Grid | str, checker: Checker, deadline: float | None) -> None:
        self.require = require
        self.goal = goal
        self.checker = checker
        self.deadline = deadline
        self.sat_calls = 0
        self.timed_out = False

    def __call__(self, p: AnyPuzzle) -> bool:
        from .logic.state import Deadline

        try:
            state, bad = self.checker.propagate(p, deadline=self.deadline)
        except Deadline:
            self.timed_out = True
            return False
        if bad is not None:  # the goal satisfies every clue: cannot happen
            raise RuntimeError("internal error: the picture contradicts its own blotted clues")
        if state.is_complete():
            return True
        if self.require == "line":
            return False
        if isinstance(p, Puzzle) and not p.is_color and not p.rules and self._switch(p, state.unknown_cells()):
            return False
        self.sat_calls += 1
        start = Start(state, propagated=True, known=self.goal,  # type: ignore[arg-type]  # (a str on a LanePuzzle)
                      switch_looked=not p.rules)  # (without rules: _switch above looked)
        res = self.checker.settle(p, start, Limits(deadline=self.deadline)).result
        if res.status is Status.UNKNOWN:
            self.timed_out = True
        return res.status is Status.UNIQUE

    def _switch(self, p: Puzzle, open_cells: list[tuple[int, int]]) -> bool:
        """A 2x2 switch among the open cells: four cells whose exchange keeps the four lines'
        blocks exactly (so their clues, blotted or not): a second solution."""
        import numpy as np

        from .lines.vector import switch_of

        ink = p.chars[1]
        g = np.array([[ch == ink for ch in row] for row in self.goal], dtype=bool)
        open_ = np.zeros(g.shape, dtype=bool)
        for r, c in open_cells:
            open_[r, c] = True
        return switch_of(g, open_) is not None


def blot(picture: AnyPuzzle | Sequence[str], require: str = "unique", seed: int = 0,
         timeout: float | None = None, checker: Checker | None = None,
         max_hidden: int | None = None) -> BlotResult:
    """Hide as many clue numbers of ``picture`` as possible while the puzzle meets ``require``.

    ``picture``: a grid (row strings; ``#``/``.`` or colour characters) or a puzzle with a goal,
    a :class:`~satnono.model.Puzzle` or a :class:`~satnono.lanepuzzle.LanePuzzle` of any
    geometry (its rules, givens, palette, name and meta are kept; numbers it hides already stay
    hidden).
    ``require``: ``"unique"`` or ``"line"`` (see the module docstring).  The numbers are tried
    in a random order drawn from ``seed``: the same arguments give the same blots.
    ``timeout`` bounds the pass (seconds); when it runs out the blots found so far are
    returned (valid, but maybe not maximal: ``timed_out``).  ``max_hidden`` stops once that
    many numbers are hidden.  ``checker``: the one to settle with (its line cache is reused).

    Raises:
        BlotError: no goal, or the picture's puzzle does not meet ``require`` to begin with.
        ValueError: ``require`` is not one of :data:`REQUIRES`.

    >>> r = blot(["##.", "#..", "###"], seed=1)
    >>> r.hidden, r.total, [r.puzzle.clue_text("row", i) for i in range(3)]
    (5, 7, ['2', '?', '?'])
    """
    if require not in REQUIRES:
        raise ValueError(f"require must be one of {', '.join(REQUIRES)}, got {require!r}")
    t0 = time.monotonic()
    deadline = None if timeout is None else t0 + timeout
    checker = checker or Checker()
    full, goal = _base(picture)
    start = hidden_numbers(picture) if isinstance(picture, (Puzzle, LanePuzzle)) else []
    judge = _Judge(require, goal, checker, deadline)
    current = with_blots(full, start) if start else full
    if not judge(current):
        what = "unique" if require == "unique" else "line-solvable"
        if judge.timed_out:
            raise BlotError(f"timed out before the picture was proved {what}")
        raise BlotError(f"the picture is not {what}{' with its blots' if start else ''}: nothing can be hidden")
    hidden = list(start)
    todo = sorted(set(numbers(full)) - set(start))
    random.Random(seed).shuffle(todo)
    tried = 0
    # "unique" runs two passes: first the numbers whose blot keeps the puzzle line-solvable (no SAT),
    # then, over the numbers that pass refused, the SAT-checked one.  Every number refused by the
    # second pass was refused against a subset of the final blots, so the set is still maximal.
    for level in (["line", "unique"] if require == "unique" else ["line"]):
        judge.require = level
        refused = []
        for num in todo:
            if max_hidden is not None and len(hidden) >= max_hidden:
                break
            if deadline is not None and time.monotonic() >= deadline:
                judge.timed_out = True
                break
            tried += 1
            trial = with_blots(full, [*hidden, num])
            if judge(trial):
                hidden.append(num)
                current = trial
            else:
                refused.append(num)
        todo = refused
    judge.require = require
    final = checker.check(current)
    ok = final.status is Status.UNIQUE and final.solutions[0] == goal and (
        require == "unique" or final.line_solvable)
    if not ok:
        raise RuntimeError(f"internal error: the blotted puzzle is {final.status}"
                           f"{'' if final.line_solvable else ', not line-solvable'} after the pass")
    return BlotResult(current, require, len(hidden), len(numbers(full)), tuple(hidden), final, tried,
                      judge.sat_calls, judge.timed_out, time.monotonic() - t0,
                      stats=final.stats.as_dict())


# ---------------------------------------------------------------------------
# Blots to reveal (fix)


@dataclass(frozen=True)
class Reveal:
    """A hidden clue number shown to the player, 0-based: block ``block`` of row or column ``line``."""

    axis: str
    """``"row"`` or ``"column"`` (another geometry's lane family: ``"/"``, ...)."""
    line: int
    block: int
    length: int
    """The block's length in the goal."""
    char: str
    """The block's colour, as its grid character (``#`` in black and white)."""


@dataclass
class RevealProposal:
    """Blots to reveal (their lengths shown) that make a blotted puzzle unique (verified)."""

    reveals: tuple[Reveal, ...]
    puzzle: Puzzle | LanePuzzle
    """The puzzle with those numbers shown."""
    check: CheckResult

    @property
    def line_solvable(self) -> bool:
        return self.check.line_solvable


def reveal_blots(puzzle: Puzzle | LanePuzzle, goal: Grid | str, other: Grid | str | None, checker: Checker | None = None,
                 deadline: float | None = None) -> RevealProposal | str | None:
    """The fewest blots found greedily whose lengths, shown, make the puzzle unique: as for the
    givens, one at a time the blot that leaves the fewest cells open after line propagation,
    chosen among the blots whose length in ``goal`` differs from the ``other`` solution's (so
    that revealing it rules that solution out), then every blot that is not needed dropped.
    ``puzzle`` is ambiguous, ``goal`` and ``other`` two of its solutions; ``deadline`` a
    monotonic time.  Returns a reason (str) when even every blot revealed leaves the puzzle
    ambiguous, None when time ran out; the proposal is verified.  (:func:`satnono.fixer.fix`
    proposes it for blotted puzzles, of any geometry: a number of another geometry's lane is
    ``(family, index, block)``.)"""
    checker = checker or Checker()

    def left() -> float | None:
        return None if deadline is None else max(deadline - time.monotonic(), 1e-3)

    def out_of_time() -> bool:
        return deadline is not None and time.monotonic() >= deadline

    p = puzzle if puzzle.goal == goal else puzzle.replace(goal=goal)
    hidden = hidden_numbers(p)
    chk = checker.check(revealed(p, hidden), timeout=left())
    if chk.status == Status.UNKNOWN:
        return None
    if chk.status != Status.UNIQUE:
        return "revealing every blot leaves the puzzle ambiguous: no blots proposed"
    true = _lengths(p, goal)
    chars = p.chars
    shown: list[Number] = []
    while True:
        if out_of_time() or other is None:
            return None
        theirs = _lengths(p, other)
        cands = [n for n in hidden if n not in shown and theirs[n] != true[n]]
        if not cands:  # cannot happen: the other solution breaks some hidden number's length
            return None
        scores = []
        for n in cands[:REVEAL_SAMPLE]:
            state, _ = checker.propagate(revealed(p, [*shown, n]))  # type: ignore[arg-type]  # (any geometry)
            scores.append(state.unknown_count())
        shown.append(cands[scores.index(min(scores))])
        chk = checker.check(revealed(p, shown), timeout=left())
        if chk.status == Status.UNIQUE:
            break
        if chk.status != Status.MULTIPLE:
            return None
        other = next(s for s in chk.solutions if s != goal)
    for n in list(reversed(shown)):  # minimal under removal (latest first)
        if out_of_time():
            return None
        trial = [x for x in shown if x != n]
        chk = checker.check(revealed(p, trial), timeout=left())
        if chk.status == Status.UNIQUE:
            shown = trial
        elif chk.status == Status.UNKNOWN:
            return None
    final = revealed(p, shown)
    chk = checker.check(final, timeout=left())
    if chk.status != Status.UNIQUE or chk.solutions[0] != goal:
        return None
    clue = p.clue if isinstance(p, Puzzle) else p.lane_clue
    reveals = tuple(Reveal(a, i, j, true[(a, i, j)], chars[clue(a, i).colors[j]]) for a, i, j in sorted(shown))
    return RevealProposal(reveals, final, chk)


def _lengths(puzzle: Puzzle | LanePuzzle, grid: Grid | str) -> dict[Number, int]:
    """The length of every block of ``grid``'s lines, by ``(axis, line, block)`` (another
    geometry's picture: its lanes', by ``(family, index, block)``)."""
    if not isinstance(puzzle, Puzzle):
        return {(lane.family, lane.index, j): n
                for lane, clue in zip(puzzle.lanes, _lane_clues_of(puzzle, grid))  # type: ignore[arg-type]
                for j, n in enumerate(clue.lengths)}
    rl, _, cl, _ = color_clues_of_grid(grid, puzzle.palette)  # type: ignore[arg-type]  # (a rectangle's rows)
    return {(axis, i, j): n for axis, lines in (("row", rl), ("column", cl))
            for i, line in enumerate(lines) for j, n in enumerate(line)}
