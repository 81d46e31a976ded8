"""Explanations, hints and grades over lanes: puzzles of any geometry (:mod:`satnono.lanes`),
triddlers first.

The same steps as the rectangle explainer (:mod:`satnono.explain.explainer`), over a
:class:`~satnono.logic.lanes.LaneState`:

* a *line step* settles cells of one lane (named as people say it: ``row 3``, ``/ line 4``,
  ``\\ line 2``) from its clue and the cells already known in it, with the same techniques
  (:data:`~satnono.explain.techniques.TECHNIQUES`) and the same checks against the complete
  line solver; *positions* in its reason count along the lane from its start (a row from the
  left, a ``/`` line from its top end, a ``\\`` line from its top-left end), and the cells it
  settles are named ``row R, cell K`` (:func:`cell_name`: K counts from the left within row R);
* a *probe step* assumes a cell's value and shows by line steps that some lane then has no
  placement, so the cell has another value (depth 1); depth 2 allows depth-1 probes inside
  the assumption;
* the grade (:func:`~satnono.explain.grade.grade`): ``line``, ``probe``, ``probe2``,
  ``search`` with the rectangle's meaning and ``exact`` flags.

A partial state is a string of one character a cell in cell order (``?`` unknown); for a
triddler :func:`state_of_rows` reads it from webpbn's text rows (:meth:`Triangle.text_rows`).

>>> from satnono.lanes import Triangle
>>> from satnono.lanepuzzle import LanePuzzle
>>> p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
>>> ex = explain_lanes(p)
>>> ex.difficulty["text"], ex.picture
('line logic only, 3 steps', '#..#.#')
>>> print(ex.steps[1].text)
\\ line 2 (clue 1): the clue's only black cell is already known, so the other cells are white: row 1, cells 2-3 white
"""

from __future__ import annotations

import re
import time
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..lanepuzzle import LanePuzzle, clue_text
from ..lanes import ROW, Geometry, cell_name
from ..lines import LineSolver, Mask
from ..lines.bits import bit_list, known_of
from ..lines.count import count_line, count_placements
from ..logic.lanes import LaneState, cell_lanes, propagate
from ..logic.probe import DEFAULT_PROBE_BUDGET, BudgetExhausted
from ..logic.state import Deadline
from ..results import Limits
from .grade import end_note, grade
from .techniques import (TECHNIQUES, ColorMove, LineMove, black_and_white, color_line_move, color_word,
                         line_move, line_text)

__all__ = ["RULES_NOT_EXPLAINED", "LaneContradiction", "LaneEngine", "LaneExplainer", "LaneExplanation", "LaneHint",
           "LaneStep", "apply_step", "cell_name", "cells_text", "explain_lanes", "initial_state", "lane_difficulty",
           "lane_hint", "rows_of", "state_from_cells", "state_of_rows"]


# --------------------------------------------------------------------------
# Naming cells


def _spans(ks: list[int]) -> str:
    """``1, 3-5 and 7`` of 1-based numbers in increasing order."""
    runs: list[list[int]] = []
    for k in ks:
        if runs and runs[-1][1] == k - 1:
            runs[-1][1] = k
        else:
            runs.append([k, k])
    parts = [f"{a}" if a == b else f"{a}-{b}" for a, b in runs]
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"


def cells_text(geometry: Geometry, cells: Sequence[int]) -> str:
    """Cells grouped by row: ``row 2, cells 3-5 and row 3, cell 1`` (any geometry: as
    :func:`cell_name` names them one by one, joined with ``and``)."""
    cells = sorted(cells)
    if geometry.kind != "triangle":
        return " and ".join(cell_name(geometry, c) for c in cells)
    by_row: dict[int, list[int]] = defaultdict(list)
    for c in cells:
        r = geometry.coordinates(c)[0]  # type: ignore[attr-defined]
        by_row[r].append(c - geometry.row_cells(r).start + 1)  # type: ignore[attr-defined]
    return " and ".join(f"row {r + 1}, cell{'s' if len(ks) > 1 else ''} {_spans(ks)}" for r, ks in by_row.items())


_COLUMNS = re.compile(r"\bcolumn(s?)\b")


def _positions(text: str) -> str:
    """A technique's reason (worded for a row: ``columns 3-5``) with positions along a lane."""
    return _COLUMNS.sub(lambda m: "position" + m.group(1), text)


# --------------------------------------------------------------------------
# Steps


@dataclass(slots=True)
class LaneStep:
    """One deduction over lanes.  Cells are cell numbers (0-based, the geometry's order) with a
    palette character (``#`` or ``.`` in black and white)."""

    kind: str
    """``line`` or ``probe``."""
    family: str
    """The lane's family (``row``, ``/``, ``\\\\``, ...): the lane of a line step; for a probe
    step, the lane that ended without a placement in the refutation."""
    index: int
    """0-based within the family."""
    lane: int
    """0-based among all lanes of the puzzle (``geometry.lanes()`` order)."""
    name: str
    """The lane as people say it (``/ line 4``)."""
    clue: tuple[int, ...]
    cells: list[tuple[int, str]]
    technique: str
    text: str
    placements: int | None = None
    probe: tuple[int, str] | None = None
    """For a probe step: the assumed ``(cell, value)``, refuted by ``chain``."""
    chain: list["LaneStep"] = field(default_factory=list)
    depth: int = 0
    excluded: list[tuple[int, str]] | None = None
    """Colour puzzles only: ``(cell, chars)`` for the cells the step rules colours out of
    without settling them."""
    colors: str | None = None
    """Colour puzzles only: each block's palette character."""

    @property
    def axis(self) -> str:
        return self.family

    def touched(self) -> list[tuple[int, str]]:
        """The cells the step settles or rules colours out of."""
        return self.cells + self.excluded if self.excluded else self.cells

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "line": self.family,
            "index": self.index,
            "name": self.name,
            "clue": list(self.clue),
            "cells": [[c, v] for c, v in self.cells],
            "technique": self.technique,
            "text": self.text,
        }
        if self.colors is not None:
            d["colors"] = list(self.colors)
        if self.excluded is not None:
            d["excluded"] = [[c, v] for c, v in self.excluded]
        if self.placements is not None:
            d["placements"] = self.placements
        if self.kind == "probe":
            assert self.probe is not None
            d["probe"] = list(self.probe)
            d["depth"] = self.depth
            d["chain"] = [s.as_dict() for s in self.chain]
        return d


class LaneContradiction(Exception):
    """Lane ``lane`` (0-based among all lanes) has no placement that fits the known cells."""

    def __init__(self, lane: int) -> None:
        super().__init__(lane)
        self.lane = lane


def _lane_label(puzzle: LanePuzzle, k: int) -> str:
    """``/ line 4 (clue 2 1)``."""
    return f"{puzzle.lanes[k].name} (clue {clue_text(puzzle.clues[k], puzzle.chars)})"


def contradiction_text(puzzle: LanePuzzle, k: int) -> str:
    return f"{_lane_label(puzzle, k)} has no placement that fits"


# --------------------------------------------------------------------------
# States


#: Why a puzzle with extra rules is not explained (its rules would need steps of their own).
RULES_NOT_EXPLAINED = "extra rules on a triddler are not explained yet (explain, hint and the grade)"


def _check_rules(puzzle: LanePuzzle) -> None:
    if getattr(puzzle, "rules", ()):
        raise ValueError(RULES_NOT_EXPLAINED)


def initial_state(puzzle: LanePuzzle) -> LaneState:
    """Nothing known but the puzzle's given cells (its ``givens``, when it has them)."""
    state = LaneState.empty(puzzle.geometry.cell_count, len(puzzle.palette))
    for cell, v in getattr(puzzle, "givens", ()) or ():
        state.excluded[cell] |= state.full & ~(1 << v)
    return state


def state_from_cells(puzzle: LanePuzzle, known: str) -> LaneState:
    """A :class:`LaneState` with the puzzle's given cells and the cells of ``known`` set: one
    character a cell in cell order, ``?`` unknown, otherwise a palette character (``#`` is the
    block colour of a one-colour palette too).

    Raises ValueError (one line) naming the first bad cell.
    """
    n = puzzle.geometry.cell_count
    if len(known) != n:
        raise ValueError(f"the state has {len(known)} cells, the puzzle {n}")
    chars = puzzle.chars
    index = {ch: v for v, ch in enumerate(chars)}
    if len(chars) == 2:
        index.setdefault("#", 1)
    state = initial_state(puzzle)
    full = state.full
    for cell, ch in enumerate(known):
        if ch == "?":
            continue
        if ch not in index:
            allowed = "', '".join(sorted(index))
            raise ValueError(f"{cell_name(puzzle.geometry, cell)}: {ch!r} is not one of '{allowed}' or '?'")
        state.excluded[cell] |= full & ~(1 << index[ch])  # (against a given cell: no value left)
    return state


def state_of_rows(puzzle: LanePuzzle, rows: Sequence[str]) -> str:
    """The cells of a partial state written as rows: a triangle grid's as webpbn's text rows
    (each row between ``/`` or ``\\`` following the outline, :meth:`Triangle.text_rows`), any
    other geometry's cells in cell order, the rows joined.

    Raises ValueError (one line) on a row count, length or end that does not fit.
    """
    parse = getattr(puzzle.geometry, "parse_text_rows", None)
    if parse is not None:
        return str(parse(list(rows)))
    return "".join(rows)


def rows_of(puzzle: LanePuzzle, picture: str) -> list[str]:
    """The picture as rows: a triangle grid's text rows, else one row."""
    rows = getattr(puzzle.geometry, "text_rows", None)
    return list(rows(picture)) if rows is not None else [picture]


# --------------------------------------------------------------------------
# Line steps in a person's order


class LaneEngine:
    """Line steps in a person's order on a :class:`LaneState` (changed in place): the easiest
    technique on any lane, then the lane with the most new cells, then the lowest lane.  A lane
    without a placement raises :class:`LaneContradiction`."""

    def __init__(self, puzzle: LanePuzzle, state: LaneState, solver: LineSolver) -> None:
        self.puzzle = puzzle
        self.state = state
        self.solver = solver
        self.lanes = puzzle.lanes
        self.crossing = cell_lanes([lane.cells for lane in self.lanes], len(state.excluded))
        self.color = not black_and_white(puzzle)  # type: ignore[arg-type]
        self.moves: dict[int, tuple[tuple[int, int, int], LineMove | ColorMove]] = {}
        for k in range(len(self.lanes)):
            self._look(k)

    def _look(self, k: int) -> None:
        self.moves.pop(k, None)
        cells = self.lanes[k].cells
        n = len(cells)
        clue = self.puzzle.clues[k]
        cur = self.state.lane_excluded(cells)
        mv: LineMove | ColorMove | None
        if clue.blots:  # only the general technique knows hidden lengths
            found = self.solver.solve(clue, n, cur)
            if found is None:
                raise LaneContradiction(k)
            gone = tuple(x & ~y for x, y in zip(found.excluded, cur))
            mv = ColorMove(TECHNIQUES["placements"], "placements", gone, lambda: "") if any(gone) else None
        elif self.color:
            cres = self.solver.color(clue.lengths, clue.colors, n, cur)
            if cres is None:
                raise LaneContradiction(k)
            mv = color_line_move(self.puzzle, clue.lengths, clue.colors, n, cur, cres, ROW)  # type: ignore[arg-type]
        else:
            res = self.solver(clue.lengths, n, cur[0], cur[1])
            if res is None:
                raise LaneContradiction(k)
            mv = line_move(clue.lengths, n, cur[0], cur[1], res, ROW)
        if mv is not None:
            size = sum(x.bit_count() for x in _exclusions(mv))
            self.moves[k] = ((mv.rank, -size, k), mv)

    def next_move(self) -> tuple[int, LineMove | ColorMove] | None:
        if not self.moves:
            return None
        key, mv = min(self.moves.values(), key=lambda m: m[0])
        return key[2], mv

    def make_step(self, k: int, mv: LineMove | ColorMove) -> LaneStep:
        p = self.puzzle
        lane = self.lanes[k]
        clue = p.clues[k]
        n = len(lane.cells)
        cur = self.state.lane_excluded(lane.cells)
        ex = _exclusions(mv)
        chars = p.chars
        full = (1 << n) - 1
        after = [c | e for c, e in zip(cur, ex)]
        settled = known_of(tuple(after), full) & ~known_of(cur, full)
        touched = 0
        for e in ex:
            touched |= e
        cells: list[tuple[int, str]] = []
        excluded: list[tuple[int, str]] = []
        by_value: dict[int, list[int]] = defaultdict(list)
        by_gone: dict[tuple[int, ...], list[int]] = defaultdict(list)
        for pos in bit_list(touched):
            cell = lane.cells[pos]
            if (settled >> pos) & 1:
                v = next(v for v, a in enumerate(after) if not (a >> pos) & 1)
                cells.append((cell, chars[v]))
                by_value[v].append(cell)
            else:
                gone = tuple(v for v, e in enumerate(ex) if (e >> pos) & 1)
                excluded.append((cell, "".join(chars[v] for v in gone)))
                by_gone[gone].append(cell)
        cells.sort()
        excluded.sort()
        g = p.geometry
        word = self._word
        parts = [f"{cells_text(g, cs)} {word(v)}" for v, cs in sorted(by_value.items(), key=lambda t: -t[0])]
        parts += [f"{cells_text(g, cs)} {_not([word(v) for v in gone])}" for gone, cs in sorted(by_gone.items())]
        settles = "; ".join(parts)
        verb = "makes" if self.color else "puts"
        placements: int | None = None
        if clue.blots:
            placements = count_line(clue, n, cur)
            blots = clue.blots.bit_count()
            which = "the blotted block" if blots == 1 else f"the {blots} blotted blocks"
            every = ("the only placement that fits" if placements == 1 else
                     f"every one of the {placements:,} placements that fit")
            text = (f"{_lane_label(p, k)}: whatever the length of {which} (at least 1), {every} the known cells "
                    f"{verb} {settles}")
        else:
            if mv.technique == "placements":
                placements = (count_line(clue, n, cur) if self.color
                              else count_placements(clue.lengths, n, cur[0], cur[1]))
            reason = mv.reason
            text = line_text(_lane_label(p, k), placements, verb, settles, lambda: _positions(reason()))
        return LaneStep("line", lane.family, lane.index, k, lane.name, clue.lengths, cells, mv.technique, text,
                        placements, excluded=excluded if self.color else None,
                        colors="".join(chars[v] for v in clue.colors) if self.color else None)

    def _word(self, v: int) -> str:
        if not self.color:
            return "black" if v else "white"
        return color_word(self.puzzle, v)  # type: ignore[arg-type]

    def apply_step(self, st: LaneStep) -> None:
        """Apply what a step claims (its cells, in colour its exclusions too) and look again at
        every lane it touches."""
        s = self.state
        index = {ch: v for v, ch in enumerate(self.puzzle.chars)}
        full = s.full
        touched: set[int] = set()
        for cell, ch in st.cells:
            s.excluded[cell] |= full & ~(1 << index[ch])
            touched.update(self.crossing[cell])
        for cell, gone in st.excluded or ():
            for ch in gone:
                s.excluded[cell] |= 1 << index[ch]
            touched.update(self.crossing[cell])
        for k in sorted(touched):
            self._look(k)

    def step(self, record: list[LaneStep] | None = None) -> LaneStep | None:
        """Apply and return the easiest line step (appended to ``record`` first), or None at the
        fixpoint."""
        got = self.next_move()
        if got is None:
            return None
        st = self.make_step(*got)
        if record is not None:
            record.append(st)
        self.apply_step(st)
        return st


def _exclusions(mv: LineMove | ColorMove) -> tuple[Mask, ...]:
    """Per value, the lane positions a move rules it out of (black and white: black cells are
    not background, white cells not black)."""
    if isinstance(mv, LineMove):
        return (mv.black, mv.white)
    return mv.ex


def _not(words: list[str]) -> str:
    if len(words) == 1:
        return f"not {words[0]}"
    if len(words) == 2:
        return f"neither {words[0]} nor {words[1]}"
    return "none of " + ", ".join(words)


# --------------------------------------------------------------------------
# Probing


class _Prober:
    """Refutations of single-cell assumptions by fast propagation (depth 2: depth-1 probing
    inside), within a budget of line-solver calls and a deadline."""

    def __init__(self, puzzle: LanePuzzle, solver: LineSolver, budget: int, deadline: float | None) -> None:
        self.lanes = [lane.cells for lane in puzzle.lanes]
        self.clues = puzzle.clues
        self.crossing = cell_lanes(self.lanes, puzzle.geometry.cell_count)
        self.solver = solver
        self.budget = budget
        self.deadline = deadline
        self.insufficient = 0

    def _propagate(self, state: LaneState, cell: int) -> int | None:
        calls0 = self.solver.calls
        try:
            return propagate(state, self.lanes, self.clues, self.solver, self.deadline, todo=self.crossing[cell],
                             crossing=self.crossing)
        except Deadline:
            raise BudgetExhausted from None
        finally:
            self.budget -= self.solver.calls - calls0
            if self.budget < 0 or (self.deadline is not None and time.monotonic() > self.deadline):
                raise BudgetExhausted

    def trial(self, state: LaneState, cell: int, value: int, depth: int) -> int | None:
        """The lane that assuming ``cell = value`` leaves without a placement, or None."""
        t = state.copy()
        t.excluded[cell] = t.full & ~(1 << value)
        bad = self._propagate(t, cell)
        if bad is not None or depth < 2:
            return bad
        return self.fixpoint(t)

    def fixpoint(self, state: LaneState) -> int | None:
        """Depth-1 probing in place until nothing changes; a lane without a placement, or None."""
        changed = True
        while changed:
            changed = False
            for cell in state.open_cells():
                for v in state.possible(cell):
                    if state.value(cell) is not None:
                        break
                    if self.trial(state, cell, v, 1) is not None:
                        state.excluded[cell] |= 1 << v
                        changed = True
                        bad = self._propagate(state, cell)
                        if bad is not None:
                            return bad
        return None

    def find(self, state: LaneState, depth: int) -> tuple[int, int] | None:
        """An assumption ``(cell, value)`` refuted at ``depth``: at depth 1 the one refuted with
        the fewest line-solver calls (the shortest chain, most often), at depth 2 the first."""
        best: tuple[int, int, int] | None = None
        for cell in state.open_cells():
            for v in state.possible(cell):
                calls0 = self.solver.calls
                if self.trial(state, cell, v, depth) is not None:
                    if depth > 1:
                        return cell, v
                    cost = self.solver.calls - calls0
                    if best is None or cost < best[0]:
                        best = (cost, cell, v)
        if best is None:
            self.insufficient = max(self.insufficient, depth)
            return None
        return best[1], best[2]


def _prune(puzzle: LanePuzzle, crossing: list[list[int]], chain: list[LaneStep], end: int) -> list[LaneStep]:
    """The steps of a refutation that the final contradiction depends on, in order (as the
    rectangle explainer's: a line step depends on the known cells of its lane; a nested probe
    on every cell, so every step before it is kept)."""
    needed = {end}
    keep = [False] * len(chain)
    for k in range(len(chain) - 1, -1, -1):
        st = chain[k]
        if not any(lane in needed for cell, _ in st.touched() for lane in crossing[cell]):
            continue
        if st.kind == "probe":
            for q in range(k + 1):
                keep[q] = True
            break
        keep[k] = True
        needed.add(st.lane)
    return [s for s, kp in zip(chain, keep) if kp]


def _chain_size(chain: Sequence[LaneStep]) -> str:
    nested = sum(1 for s in chain if s.kind == "probe")
    how = f"{len(chain) - nested} line step{'s' if len(chain) - nested != 1 else ''}"
    if nested:
        how += f" and {nested} nested probe{'s' if nested != 1 else ''}"
    return how


# --------------------------------------------------------------------------
# Whole explanations


@dataclass(slots=True)
class LaneExplanation:
    """Everything :func:`explain_lanes` found (as :class:`~satnono.explain.Explanation`)."""

    puzzle: LanePuzzle
    steps: list[LaneStep]
    picture: str
    """The cells reached, one palette character a cell in cell order, ``?`` for open cells."""
    solved: bool
    status: str
    """``solved``, ``stuck``, ``none``, ``budget`` or ``truncated`` (as the rectangle's)."""
    difficulty: dict[str, Any]
    note: str
    seconds: float = 0.0

    @property
    def remaining(self) -> list[int]:
        """The open cells (cell numbers)."""
        return [c for c, ch in enumerate(self.picture) if ch == "?"]

    @property
    def grid(self) -> list[str]:
        """The cells reached as rows (a triangle grid's text rows)."""
        return rows_of(self.puzzle, self.picture)

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.puzzle.name,
            "geometry": self.puzzle.geometry.as_json(),
            "cells": self.puzzle.geometry.cell_count,
            "steps": [s.as_dict() for s in self.steps],
            "solved": self.solved,
            "status": self.status,
            "remaining": self.remaining,
            "grid": self.grid,
            "difficulty": self.difficulty,
            "note": self.note,
            "seconds": round(self.seconds, 6),
        }


class LaneExplainer:
    """Runs explanations over lanes; keep one for a batch so the line-solver cache is shared."""

    def __init__(self, line_solver: LineSolver | None = None, max_depth: int = 2,
                 probe_budget: int = DEFAULT_PROBE_BUDGET) -> None:
        self.lines = line_solver or LineSolver()
        self.max_depth = max_depth
        self.probe_budget = probe_budget

    def refutation(self, puzzle: LanePuzzle, state: LaneState, cell: int, value: int, depth: int,
                   prober: _Prober) -> tuple[list[LaneStep], int] | None:
        """The readable chain refuting ``cell = value`` on a copy of ``state``, and the lane
        left without a placement."""
        trial = state.copy()
        trial.excluded[cell] = trial.full & ~(1 << value)
        chain: list[LaneStep] = []
        try:
            eng = LaneEngine(puzzle, trial, self.lines)
            while True:
                if eng.step(chain) is None:
                    if depth < 2:
                        return None
                    found = prober.find(trial, 1)
                    if found is None:
                        return None
                    pr = self.probe_step(puzzle, trial, *found, depth=1, prober=prober)
                    if pr is None:
                        return None
                    chain.append(pr)
                    eng.apply_step(pr)
        except LaneContradiction as e:
            return _prune(puzzle, prober.crossing, chain, e.lane), e.lane

    def probe_step(self, puzzle: LanePuzzle, state: LaneState, cell: int, value: int, depth: int,
                   prober: _Prober) -> LaneStep | None:
        """The probe step refuting ``cell = value``, or None when the assumption leads to no
        contradiction."""
        got = self.refutation(puzzle, state, cell, value, depth, prober)
        if got is None:
            return None
        chain, k = got
        chars = puzzle.chars
        lane = puzzle.lanes[k]
        clue = puzzle.clues[k]
        cells: list[tuple[int, str]] = []
        excluded: list[tuple[int, str]] | None = None
        colors: str | None = None
        if not black_and_white(puzzle):  # type: ignore[arg-type]
            word = color_word(puzzle, value)  # type: ignore[arg-type]
            left = [v for v in state.possible(cell) if v != value]
            excluded = []
            if len(left) == 1:
                cells.append((cell, chars[left[0]]))
                then = f"so it is not {word}: it is {color_word(puzzle, left[0])}"  # type: ignore[arg-type]
            else:
                excluded.append((cell, chars[value]))
                then = f"so it is not {word}"
            colors = "".join(chars[v] for v in clue.colors)
        else:
            word = "black" if value else "white"
            cells.append((cell, chars[1 - value]))
            then = f"so it is {'white' if value else 'black'}"
        text = (f"if {cell_name(puzzle.geometry, cell)} were {word}, {_lane_label(puzzle, k)} would have no "
                f"placement after {_chain_size(chain)}, {then}")
        return LaneStep("probe", lane.family, lane.index, k, lane.name, clue.lengths, cells,
                        "probe" if depth == 1 else "probe2", text, probe=(cell, chars[value]), chain=chain,
                        depth=depth, excluded=excluded, colors=colors)

    def _probe(self, puzzle: LanePuzzle, state: LaneState, prober: _Prober) -> LaneStep | None:
        for depth in range(1, self.max_depth + 1):
            found = prober.find(state, depth)
            if found is not None:
                st = self.probe_step(puzzle, state, *found, depth=depth, prober=prober)
                if st is None:  # cannot happen: propagation and the engine agree
                    raise RuntimeError("a probe refuted by propagation has no readable refutation")
                return st
        return None

    def explain(self, puzzle: LanePuzzle, known: str | None = None, max_steps: int | None = None,
                limits: Limits = Limits(), verdict: Callable[[], str] | None = None) -> LaneExplanation:
        """Explain ``puzzle`` from nothing known (or from ``known``: one character a cell, ``?``
        unknown); ``limits`` and ``verdict`` as :meth:`satnono.explain.Explainer.explain`'s.

        Raises ValueError (one line): a state that does not fit, a puzzle with extra rules."""
        _check_rules(puzzle)
        t0 = time.monotonic()
        deadline = limits.deadline_from(t0)
        state = initial_state(puzzle) if known is None else state_from_cells(puzzle, known)
        prober = _Prober(puzzle, self.lines, self.probe_budget, deadline)
        steps: list[LaneStep] = []
        status = "stuck"
        out_of_time = False
        bad: int | None = None
        try:
            eng = LaneEngine(puzzle, state, self.lines)
            while True:
                if max_steps is not None and len(steps) >= max_steps:
                    status = "truncated"
                    break
                if deadline is not None and not len(steps) & 15 and time.monotonic() > deadline:
                    status, out_of_time = "truncated", True
                    break
                if eng.step(steps) is None:
                    if not state.open_cells():
                        status = "solved"
                        break
                    pr = self._probe(puzzle, state, prober)
                    if pr is None:
                        break
                    steps.append(pr)
                    eng.apply_step(pr)
        except LaneContradiction as e:
            status, bad = "none", e.lane
        except BudgetExhausted:
            status = "budget"
        open_cells = len(state.open_cells())
        if status == "truncated" and not open_cells:
            status = "solved"
        verdict_status = verdict() if status in ("stuck", "budget") and verdict is not None else None
        if status == "none":
            assert bad is not None
            head = "the given cells fit no solution" if known is not None else "no solution"
            note = f"{head}: {contradiction_text(puzzle, bad)} the known cells"
        else:
            note = end_note(puzzle, status, None, verdict_status, open_cells,  # type: ignore[arg-type]
                            self.max_depth, out_of_time, known is not None)
        diff = grade(steps, status, verdict_status, self.max_depth, prober.insufficient)  # type: ignore[arg-type]
        return LaneExplanation(puzzle, steps, state.picture(puzzle.chars), status == "solved", status, diff, note,
                               time.monotonic() - t0)

    def next_step(self, puzzle: LanePuzzle, state: LaneState, with_probes: bool = True,
                  past_absent: bool = False) -> LaneStep | None:
        """The easiest next step from ``state`` (not applied), or None; as
        :meth:`satnono.explain.Explainer.next_step` (``past_absent``: in colour, the ``absent``
        exclusions are taken as known first, on a copy).  Raises :class:`LaneContradiction`."""
        first_absent = None
        if past_absent and not black_and_white(puzzle):  # type: ignore[arg-type]
            state = state.copy()
            eng = LaneEngine(puzzle, state, self.lines)
            got = eng.next_move()
            while got is not None and got[1].technique == "absent":
                st = eng.make_step(*got)
                first_absent = first_absent or st
                eng.apply_step(st)
                got = eng.next_move()
        else:
            eng = LaneEngine(puzzle, state, self.lines)
            got = eng.next_move()
        if got is not None:
            return eng.make_step(*got)
        if not with_probes or not state.open_cells():
            return first_absent
        return self._probe(puzzle, state, _Prober(puzzle, self.lines, self.probe_budget, None)) or first_absent


# --------------------------------------------------------------------------
# Verdicts and the library calls


def _status_from(puzzle: LanePuzzle, state: LaneState, limits: Limits, lines: LineSolver) -> str:
    """The verdict (``unique``, ``multiple``, ``none``, ``unknown``) on the solutions that keep
    the known cells of ``state``: line logic, then SAT on what is left."""
    from ..cnf.lanes import encode_lanes
    from ..results import DEFAULT_SOLVER
    from ..sat import SatSession

    deadline = limits.deadline_from(time.monotonic())
    state = state.copy()
    lanes = [lane.cells for lane in puzzle.lanes]
    try:
        if propagate(state, lanes, puzzle.clues, lines, deadline) is not None:
            return "none"
    except Deadline:
        return "unknown"
    if not state.open_cells():
        return "unique"
    enc = encode_lanes(state, lanes, puzzle.clues, lines)
    found = 0
    with SatSession(enc.clauses, DEFAULT_SOLVER) as s:
        while found < 2:
            ok = s.solve(deadline)
            if ok is None:
                return "multiple" if found > 1 else "unknown"
            if not ok:
                break
            found += 1
            s.add_clause(enc.blocking_clause(s.model()))
    return {0: "none", 1: "unique"}.get(found, "multiple")


def explain_lanes(puzzle: LanePuzzle, known: str | None = None, max_steps: int | None = None, max_depth: int = 2,
                  probe_budget: int = DEFAULT_PROBE_BUDGET, *, limits: Limits = Limits(),
                  verdict_timeout: float | None = 10.0, line_solver: LineSolver | None = None) -> LaneExplanation:
    """:func:`satnono.explain.explain` for a puzzle of any geometry: ``known`` is one character a
    cell in cell order (``?`` unknown; :func:`state_of_rows` reads a triddler's text rows).
    When logic stops before the end, the puzzle (with the known cells) is checked, within
    ``verdict_timeout`` seconds, to say whether the rest is unique.

    Raises ValueError (one line) on a state that does not fit the puzzle, or a puzzle with extra
    rules (:data:`RULES_NOT_EXPLAINED`).
    """
    _check_rules(puzzle)
    lines = line_solver or LineSolver()
    start = initial_state(puzzle) if known is None else state_from_cells(puzzle, known)

    def verdict() -> str:
        return _status_from(puzzle, start, Limits(verdict_timeout), lines)

    return LaneExplainer(lines, max_depth, probe_budget).explain(puzzle, known, max_steps, limits, verdict)


def lane_difficulty(puzzle: LanePuzzle, result: Any = None, probe_budget: int = 30_000, *,
                    limits: Limits = Limits(0.5), line_solver: LineSolver | None = None) -> dict[str, Any]:
    """:func:`satnono.explain.difficulty` for a puzzle of any geometry: ``result`` its
    :class:`~satnono.solve.CheckResult` (settled here when None).  A puzzle with extra rules
    is not graded (level ``unknown``, :data:`RULES_NOT_EXPLAINED`)."""
    from ..lanecheck import settle_lanes
    from ..results import Status

    if getattr(puzzle, "rules", ()):
        d = grade([], "stuck", None, 2)
        d.update(steps_exact=False, text=f"not graded: {RULES_NOT_EXPLAINED}")
        return d
    lines = line_solver or LineSolver()
    if result is None:
        result = settle_lanes(puzzle, limits, line_solver=lines)
    st = result.status
    if st is not Status.UNIQUE:
        level = {Status.MULTIPLE: "multiple", Status.NONE: "none"}.get(st, "unknown")
        d = grade([], "stuck", level if level != "unknown" else None, 2)
        d.update(steps_exact=False, text=d["text"].split(",")[0])
        return d
    d = LaneExplainer(lines, 2, probe_budget).explain(puzzle, limits=limits, verdict=lambda: "unique").difficulty
    if result.line_solvable and (d["level"] != "line" or not d["exact"]):
        d.update(level="line", rank=0, exact=True, steps_exact=False,
                 text=f"line logic only, at least {d['steps']} steps (stopped at the time limit)")
    return d


@dataclass(slots=True)
class LaneHint:
    """What :func:`lane_hint` says (as :class:`satnono.explain.Hint`; ``wrong`` holds cell numbers)."""

    kind: str
    text: str
    step: LaneStep | None = None
    wrong: list[int] = field(default_factory=list)
    status: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "step": self.step.as_dict() if self.step else None,
                "wrong": list(self.wrong), "status": self.status}


def lane_hint(puzzle: LanePuzzle, known: str, limits: Limits = Limits(10.0),
              probe_budget: int = DEFAULT_PROBE_BUDGET, line_solver: LineSolver | None = None) -> LaneHint:
    """:func:`satnono.explain.next_hint` for a puzzle of any geometry: ``known`` is one character
    a cell in cell order, ``?`` unknown.

    Raises ValueError (one line) on a state that does not fit the puzzle, or a puzzle with extra
    rules (:data:`RULES_NOT_EXPLAINED`).
    """
    from ..lanecheck import settle_lanes
    from ..results import Status

    _check_rules(puzzle)
    lines = line_solver or LineSolver()
    state = state_from_cells(puzzle, known)
    res = settle_lanes(puzzle, limits, line_solver=lines)
    status = res.status.value
    chars = puzzle.chars
    if res.status is Status.NONE:
        return LaneHint("contradiction", f"the puzzle itself has no solution: {res.reason}", status=status)
    if res.status is Status.UNIQUE:
        sol = res.solutions[0]
        index = {ch: v for v, ch in enumerate(chars)}
        if len(chars) == 2:
            index.setdefault("#", 1)
        wrong = [c for c, ch in enumerate(known) if ch != "?" and index[ch] != index[sol[c]]]
        if wrong:
            c = wrong[0]
            v = index[known[c]]
            bw = black_and_white(puzzle)  # type: ignore[arg-type]
            word = ("black" if v else "white") if bw else color_word(puzzle, v)  # type: ignore[arg-type]
            more = f" (and {len(wrong) - 1} more filled cell{'s' if len(wrong) > 2 else ''})" if len(wrong) > 1 else ""
            return LaneHint("wrong", f"{cell_name(puzzle.geometry, c)} is {word}, but the solution differs there{more}",
                            wrong=wrong, status=status)
    elif any(ch != "?" for ch in known) and _status_from(puzzle, state, limits, lines) == "none":
        return LaneHint("contradiction", "the filled cells fit no solution; the puzzle has several solutions "
                        "(or was not settled in time), so no single wrong cell can be named", status=status)
    if not state.open_cells():
        return LaneHint("solved", "every cell is filled: solved", status=status)
    try:
        step = LaneExplainer(lines, 2, probe_budget).next_step(puzzle, state, past_absent=True)
    except BudgetExhausted:
        return LaneHint("stuck", "no cell follows by line logic, and the probing budget ran out before a probe "
                        "was found", status=status)
    except LaneContradiction as e:
        return LaneHint("contradiction", f"{contradiction_text(puzzle, e.lane)} the filled cells", status=status)
    if step is None:
        why = {"unique": "the rest needs search (the puzzle is unique only globally)",
               "multiple": "the puzzle has several solutions, so no logic settles the rest"}.get(
            status, "whether the rest is unique was not settled")
        return LaneHint("stuck", f"no cell follows by line logic or probing to depth 2: {why}", status=status)
    return LaneHint("step", step.text, step=step, status=status)


def apply_step(puzzle: LanePuzzle, known: str, step: LaneStep) -> str:
    """``known`` (one character a cell, ``?`` open) with the cells ``step`` settles filled in."""
    cells = list(known)
    for cell, ch in step.cells:
        cells[cell] = ch
    return "".join(cells)
