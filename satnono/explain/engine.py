"""Explaining a solve step by step: line steps in a person's order, probe steps, a grade.

A *line step* settles cells of one row or column from that line's clue and the
cells already known in it.  Every line step is checked against the complete line
solver (:mod:`satnono.linesolve`): the cells a technique names must be forced by
the line alone, and a technique's name is used only when its own simple rule
yields exactly the cells the step claims; otherwise the step falls back to the
general reason ("every placement that fits puts black here").

Techniques, easiest first (the ``rank``):

==========  ====  ==============================================================
name        rank  rule
==========  ====  ==============================================================
empty       0     the clue is 0: every cell is white
complete    1     all the line's black cells are known: the rest is white
fill        1     only as many cells are not white as the clue has black: all black
edge        2     a block has one possible position, against the edge or a known
                  white cell: its cells are black, the cells beside it white
fixed       2     a block has one possible position (known black cells pin it)
overlap     3     a block's leftmost and rightmost positions overlap: black there
gap         4     a run of free cells between white cells (or the edge) shorter
                  than every block: white
reach       4     cells outside every block's range of positions: white
placements  5     the general case: every placement of the clue that fits the
                  known cells puts this value here
==========  ====  ==============================================================

Colour puzzles (more than one block colour) keep, per cell, the set of colours
it may still have (:class:`~satnono.propagate.GridState`'s exclusion masks).  A
colour step lists the cells it settles in ``cells`` (value: the palette
character) and, in ``excluded``, the cells it only rules colours out of, with
the characters ruled out; nothing is applied silently, so replaying ``cells``
and ``excluded`` reaches exactly the state the engine (and propagation) reaches.
The colour techniques (:func:`color_line_move`), with the same ranks:

==========  ====  ==============================================================
empty       0     the clue is 0: every cell is background
absent      0     the clue has no block of some colour: no cell has that colour
complete    1     all of a colour's cells are known: no other cell has it
fill        1     only as many cells can be coloured as the clue needs: none is background
edge/fixed  2     a block has one position: its cells have its colour, the cells
                  beside it do not
overlap     3     a block's leftmost and rightmost positions overlap: its colour there
reach       4     cells no block of some colour can reach: not that colour
placements  5     the general case (counted by :func:`~satnono.diagnose.count_color_placements`)
==========  ====  ==============================================================

A colour probe assumes one colour of a cell and, refuted, rules that colour
out (the cell is settled when one colour is left).

At each point the engine takes, among all lines that can make progress, the
easiest technique, then the line with the most new cells, then rows before
columns and the lowest index.  Only lines whose cells changed are looked at
again (on grids over :data:`STRICT_MAX_CELLS` cells, by rounds: see :class:`Engine`).

When no line makes progress, a *probe step* assumes one cell's value and shows
by line steps that some line then has no placement, so the cell has the other
value (depth 1); depth 2 allows depth-1 probes inside the assumption.  The
probe taken is the cheapest refutation found (fewest line-solver calls; cells
next to known cells are tried first), and its chain keeps only the steps the
contradiction depends on.  Probing is bounded by a budget of line-solver calls
(deterministic) and optionally a deadline; when it runs out the explanation
stops with an "at least" grade.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..components import bit_list
from ..diagnose import after_line_grid, count_color_placements, count_placements
from ..linesolve import ColorLineResult, LineResult, LineSolver, Mask
from ..model import BLACK, WHITE, Puzzle
from ..propagate import COLUMN, ROW, Contradiction, Deadline, GridState, known_of, initial_state, propagate

#: Technique name -> rank (lower is easier).
TECHNIQUES: dict[str, int] = {
    "empty": 0,
    "absent": 0,
    "complete": 1,
    "fill": 1,
    "edge": 2,
    "fixed": 2,
    "overlap": 3,
    "gap": 4,
    "reach": 4,
    "placements": 5,
}
#: Difficulty levels, easiest first; ``multiple``, ``none`` and ``unknown`` are outside the scale.
LEVELS = ("line", "probe", "probe2", "search")

#: A depth-1 refutation costing at most this many line-solver calls ends the search for an easier one.
QUICK_REFUTATION = 4

#: With more open cells than this, the search for the cheapest depth-1 refutation stops
#: :data:`PROBE_WINDOW` cells after the first one found (with fewer, every cell is tried).
FULL_SCAN_CELLS = 600
#: After the first depth-1 refutation, this many more cells are tried for a cheaper one.
PROBE_WINDOW = 24

#: Grids up to this many cells get the strict easiest-first order (see :class:`Engine`).
STRICT_MAX_CELLS = 100 * 100

#: Default probing effort for one puzzle, in line-solver calls (deterministic, unlike time).
DEFAULT_PROBE_BUDGET = 120_000


class BudgetExhausted(Exception):
    """The probing budget ran out."""


class _TooCostly(Exception):
    """A trial passed its line-solver call limit."""


class _Limited:
    """A line solver that raises :class:`_TooCostly` after ``limit`` calls."""

    __slots__ = ("solver", "left")

    def __init__(self, solver: LineSolver, limit: int) -> None:
        self.solver = solver
        self.left = limit

    def __call__(self, clue, n, black, white):
        self.left -= 1
        if self.left < 0:
            raise _TooCostly
        return self.solver(clue, n, black, white)

    def color(self, lengths, colors, n, excluded):
        self.left -= 1
        if self.left < 0:
            raise _TooCostly
        return self.solver.color(lengths, colors, n, excluded)

    def solve(self, clue, n, excluded):
        self.left -= 1
        if self.left < 0:
            raise _TooCostly
        return self.solver.solve(clue, n, excluded)

    @property
    def calls(self) -> int:
        return self.solver.calls


# --------------------------------------------------------------------------
# Steps


@dataclass(slots=True)
class Step:
    """One deduction.  Cells are 0-based ``(row, col, value)`` with value ``#`` or ``.``
    (in colour: the palette character of the colour the cell is settled to)."""

    kind: str
    """``line`` or ``probe``."""
    axis: str
    """``row`` or ``column``: the line of a line step; for a probe step, the line that ended
    without a placement in the refutation."""
    index: int
    clue: tuple[int, ...]
    cells: list[tuple[int, int, str]]
    technique: str
    text: str
    placements: int | None = None
    """For ``placements`` steps: how many placements of the clue fit the known cells."""
    probe: tuple[int, int, str] | None = None
    """For a probe step: the assumed ``(row, col, value)``, refuted by ``chain``."""
    chain: list["Step"] = field(default_factory=list)
    depth: int = 0
    """Probing depth (0 for a line step)."""
    excluded: list[tuple[int, int, str]] | None = None
    """Colour puzzles only: ``(row, col, chars)`` for the cells this step does not settle but
    rules colours out of (``chars``: the palette characters ruled out); None in black and white."""
    colors: str | None = None
    """Colour puzzles only: the palette character of each block of ``clue``."""

    def touched(self) -> list[tuple[int, int, str]]:
        """The cells the step settles or rules colours out of."""
        return self.cells + self.excluded if self.excluded else self.cells

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "line": self.axis,
            "index": self.index,
            "clue": list(self.clue),
            "cells": [[r, c, v] for r, c, v in self.cells],
            "technique": self.technique,
            "text": self.text,
        }
        if self.colors is not None:
            d["colors"] = list(self.colors)
        if self.excluded is not None:
            d["excluded"] = [[r, c, v] for r, c, v in self.excluded]
        if self.placements is not None:
            d["placements"] = self.placements
        if self.kind == "probe":
            assert self.probe is not None
            d["probe"] = list(self.probe)
            d["depth"] = self.depth
            d["chain"] = [s.as_dict() for s in self.chain]
        return d


def clue_text(clue: Sequence[int]) -> str:
    return " ".join(map(str, clue)) or "0"


def _runs(positions: list[int]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for p in positions:
        if out and out[-1][1] == p - 1:
            out[-1] = (out[-1][0], p)
        else:
            out.append((p, p))
    return out


def _where(axis: str, positions: list[int]) -> str:
    """``columns 3-5 and 9`` (1-based) for positions along a row; ``rows ...`` along a column."""
    noun = "column" if axis == ROW else "row"
    parts = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in _runs(positions)]
    if len(positions) > 1:
        noun += "s"
    if len(parts) > 1:
        return f"{noun} {', '.join(parts[:-1])} and {parts[-1]}"
    return f"{noun} {parts[0]}"


def _settles(axis: str, black: Mask, white: Mask) -> str:
    parts = []
    if black:
        parts.append(f"{_where(axis, bit_list(black))} black")
    if white:
        parts.append(f"{_where(axis, bit_list(white))} white")
    return " and ".join(parts)


def _block(j: int, k: int) -> str:
    """``the block`` of a one-block clue, else ``the 2nd block``."""
    return "the block" if k == 1 else f"the {_ordinal(j)} block"


def _ordinal(j: int) -> str:
    n = j + 1
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# --------------------------------------------------------------------------
# Techniques: cheap rules, each checked against the complete line solver


@dataclass(slots=True)
class LineMove:
    """What the easiest technique settles in one line (before it becomes a :class:`Step`)."""

    rank: int
    technique: str
    black: Mask
    white: Mask
    reason: Callable[[], str]
    """The reason in words (built only for the step that is taken)."""


def _span(v: Mask) -> tuple[int, int]:
    """Lowest and highest set bit."""
    return (v & -v).bit_length() - 1, v.bit_length() - 1


def _pinned(clue: Sequence[int], starts: Sequence[Mask], n: int) -> list[tuple[int, int, int, Mask, Mask]]:
    """``(j, length, start, cells, flank)`` for each block j with a single possible start:
    its cells and the cells just beside it (inside the line)."""
    out = []
    for j, (c, v) in enumerate(zip(clue, starts)):
        if v & (v - 1):
            continue
        s = v.bit_length() - 1
        flank = 0
        if s > 0:
            flank |= 1 << (s - 1)
        if s + c < n:
            flank |= 1 << (s + c)
        out.append((j, c, s, ((1 << c) - 1) << s, flank))
    return out


def line_move(clue: tuple[int, ...], n: int, black: Mask, white: Mask, res: LineResult,
              axis: str) -> LineMove | None:
    """The easiest honest move on one line, or None if the complete solver finds nothing new.

    ``res`` is :func:`~satnono.linesolve.solve_line` of the same line.  A
    technique is used only when the cells its rule yields are new cells that
    the complete solver also forces; the fallback ``placements`` takes all of
    the solver's new cells.
    """
    full = (1 << n) - 1
    unknown = full & ~(black | white)
    new_b = res.black & ~black
    new_w = res.white & ~white
    if not (new_b | new_w):
        return None

    def ok(b: Mask, w: Mask) -> bool:
        return bool(b | w) and not (b & ~new_b) and not (w & ~new_w)

    if not clue:
        if ok(0, unknown):
            return LineMove(0, "empty", 0, unknown, lambda: "the clue is 0, so every cell is white")
    total = sum(clue)
    nb = black.bit_count()
    if nb == total and ok(0, unknown):
        known = f"all {total} black cells of the clue are" if total != 1 else "the clue's only black cell is"
        return LineMove(1, "complete", 0, unknown, lambda: f"{known} already known, so the other cells are white")
    if (full & ~white).bit_count() == total and ok(unknown, 0):
        need = f"{total} black cells and only {total} cells are" if total != 1 else "1 black cell and only 1 cell is"
        return LineMove(1, "fill", unknown, 0, lambda: f"the clue needs {need} not white, so all are black")
    # blocks with a single possible position
    pb = pw = 0
    edge = True
    pinned: list[tuple[int, int, int, list[str]]] = []
    for j, c, s, cells, flank in _pinned(clue, res.starts, n):
        b, w = cells & unknown, flank & unknown
        if not (b | w):
            continue
        pb |= b
        pw |= w
        against = []
        if s == 0 or s + c == n:
            against.append("the edge")
        if (s > 0 and (white >> (s - 1)) & 1) or (s + c < n and (white >> (s + c)) & 1):
            against.append("a white cell")
        if not against:
            edge = False
        pinned.append((j, c, s, against))
    if ok(pb, pw):
        def pinned_text() -> str:
            said = [f"{_block(j, len(clue))} ({c}) fits only at {_where(axis, list(range(s, s + c)))}"
                    + (f", against {' and '.join(against)}" if against else "") for j, c, s, against in pinned]
            tail = "; its cells are black and the cells beside it white" if len(pinned) == 1 else \
                "; their cells are black and the cells beside them white"
            return "; ".join(said) + tail

        return LineMove(2, "edge" if edge else "fixed", pb, pw, pinned_text)
    # overlap of each block's leftmost and rightmost positions
    ob = 0
    spans: list[tuple[int, int, int, int]] = []
    for j, (c, v) in enumerate(zip(clue, res.starts)):
        lo, hi = _span(v)
        if hi < lo + c:
            cells = (((1 << (lo + c - hi)) - 1) << hi) & unknown
            if cells:
                ob |= cells
                spans.append((j, c, lo, hi))
    if ok(ob, 0):
        return LineMove(3, "overlap", ob, 0, lambda: "; ".join(
            f"{_block(j, len(clue))} ({c}) lies within {_where(axis, list(range(lo, hi + c)))} wherever it goes, "
            f"so it always covers {_where(axis, list(range(hi, lo + c)))}" for j, c, lo, hi in spans))
    # gaps too small for any block
    if clue:
        smallest = min(clue)
        gw = 0
        free = full & ~white
        small: list[tuple[int, int]] = []
        pos = 0
        while free >> pos:
            rest = free >> pos
            start = pos + ((rest & -rest).bit_length() - 1)
            seg_end = start
            while seg_end < n and (free >> seg_end) & 1:
                seg_end += 1
            seg = ((1 << (seg_end - start)) - 1) << start
            if seg_end - start < smallest and not (seg & black):
                gw |= seg
                small.append((start, seg_end))
            pos = seg_end
        if ok(0, gw):
            return LineMove(4, "gap", 0, gw, lambda: "the free cells at " + "; ".join(
                _where(axis, list(range(a, b))) for a, b in small) + f" are fewer than the smallest block ({smallest})")
        # cells outside every block's range
        cover = 0
        for c, v in zip(clue, res.starts):
            lo, hi = _span(v)
            cover |= ((1 << (hi + c - lo)) - 1) << lo
        rw = full & ~cover & unknown
        if ok(0, rw):
            return LineMove(4, "reach", 0, rw,
                            lambda: "no block can reach these cells in any of its possible positions")
    return LineMove(5, "placements", new_b, new_w, lambda: "")


# --------------------------------------------------------------------------
# Colour lines: the same idea over per-colour exclusion masks


@dataclass(slots=True)
class ColorMove:
    """What the easiest technique rules out in one line of a colour puzzle."""

    rank: int
    technique: str
    ex: tuple[Mask, ...]
    """Per colour index, the cells of the line newly ruled out for that colour."""
    reason: Callable[[], str]

    @property
    def size(self) -> int:
        m = 0
        for x in self.ex:
            m |= x
        return m.bit_count()


def color_word(puzzle: Puzzle, v: int) -> str:
    """How a step names colour index ``v``: ``background``, or the palette name with its character."""
    if v == 0:
        return "background"
    col = puzzle.palette[v]
    if col.name == col.char or col.name.startswith("#"):  # no name of its own: the character
        return f"colour {col.char}"
    return f"{col.name} ({col.char})"


def color_line_move(puzzle: Puzzle, lengths: tuple[int, ...], colors: tuple[int, ...], n: int,
                    cur: tuple[Mask, ...], res: ColorLineResult, axis: str) -> ColorMove | None:
    """:func:`line_move` for a line of a colour puzzle.

    ``cur[v]`` are the cells known not to have colour v and ``res`` is
    :func:`~satnono.linesolve.solve_color_line` of the same line.  A technique
    is used only when every exclusion its rule yields is new and also found by
    the complete solver; the fallback ``placements`` takes all of the solver's
    new exclusions.
    """
    full = (1 << n) - 1
    nv = len(cur)
    new = [res.excluded[v] & ~cur[v] for v in range(nv)]
    if not any(new):
        return None
    may = [full & ~e for e in cur]
    word = lambda v: color_word(puzzle, v)  # noqa: E731

    def ok(ex: list[Mask]) -> bool:
        return any(ex) and all(not (x & ~nw) for x, nw in zip(ex, new))

    def make(rank: int, name: str, ex: list[Mask], reason: Callable[[], str]) -> ColorMove:
        return ColorMove(rank, name, tuple(ex), reason)

    present = sorted(set(colors))
    if not lengths:
        ex = [0] + [may[v] for v in range(1, nv)]
        if ok(ex):
            return make(0, "empty", ex, lambda: "the clue is 0, so every cell is background")
    absent = [v for v in range(1, nv) if v not in present]
    ex = [0] * nv
    for v in absent:
        ex[v] = may[v]
    if lengths and ok(ex):
        gone = [v for v in absent if ex[v]]
        return make(0, "absent", ex, lambda: f"the clue has no {_or(list(map(word, gone)))} block, "
                    f"so no cell is {_or(list(map(word, gone)))}")
    known = known_of(cur, full)
    total = {v: sum(c for c, col in zip(lengths, colors) if col == v) for v in present}
    ex = [0] * nv
    done = []
    for v in present:
        settled = may[v] & known
        if settled.bit_count() == total[v]:
            ex[v] = may[v] & ~settled
            if ex[v]:
                done.append(v)
    if ok(ex):
        return make(1, "complete", ex, lambda: "; ".join(
            f"all {total[v]} {word(v)} cells of the clue are already known, so no other cell is {word(v)}"
            if total[v] != 1 else f"the clue's only {word(v)} cell is already known, so no other cell is {word(v)}"
            for v in done))
    coloured = 0
    for v in present:
        coloured |= may[v]
    need = sum(lengths)
    if coloured.bit_count() == need:
        ex = [may[0] & coloured] + [0] * (nv - 1)
        if ok(ex):
            return make(1, "fill", ex, lambda: f"the clue needs {need} coloured cells and only {need} "
                        f"cell{'s' if need != 1 else ''} can be coloured, so none of them is background")
    # blocks with a single possible position
    ex = [0] * nv
    edge = True
    pinned: list[tuple[int, int, int, int, list[str]]] = []
    for j, c, s, cells, flank in _pinned(lengths, res.starts, n):
        col = colors[j]
        got = False
        for w in range(nv):
            if w != col and may[w] & cells:
                ex[w] |= may[w] & cells
                got = True
        if may[col] & flank:
            ex[col] |= may[col] & flank
            got = True
        if not got:
            continue
        against = []
        if s == 0 or s + c == n:
            against.append("the edge")
        if (s > 0 and (cur[col] >> (s - 1)) & 1) or (s + c < n and (cur[col] >> (s + c)) & 1):
            against.append(f"a cell that is not {word(col)}")
        if not against:
            edge = False
        pinned.append((j, c, col, s, against))
    if ok(ex):
        def pinned_text() -> str:
            said = [f"{_block(j, len(lengths))} ({c}{puzzle.chars[col]}) fits only at "
                    f"{_where(axis, list(range(s, s + c)))}" + (f", against {' and '.join(against)}" if against else "")
                    for j, c, col, s, against in pinned]
            tail = "; its cells are {0} and the cells beside it are not {0}" if len(pinned) == 1 else \
                "; their cells have their colours and the cells beside each are not of its colour"
            return "; ".join(said) + tail.format(word(pinned[0][2]))

        return make(2, "edge" if edge else "fixed", ex, pinned_text)
    # overlap of each block's leftmost and rightmost positions
    ex = [0] * nv
    spans: list[tuple[int, int, int, int, int]] = []
    for j, (c, col, v) in enumerate(zip(lengths, colors, res.starts)):
        lo, hi = _span(v)
        if hi < lo + c:
            cells = ((1 << (lo + c - hi)) - 1) << hi
            got = False
            for w in range(nv):
                if w != col and may[w] & cells:
                    ex[w] |= may[w] & cells
                    got = True
            if got:
                spans.append((j, c, col, lo, hi))
    if ok(ex):
        return make(3, "overlap", ex, lambda: "; ".join(
            f"{_block(j, len(lengths))} ({c}{puzzle.chars[col]}) lies within "
            f"{_where(axis, list(range(lo, hi + c)))} wherever it goes, so it always covers "
            f"{_where(axis, list(range(hi, lo + c)))}, which are {word(col)}" for j, c, col, lo, hi in spans))
    # cells that no block of some colour can reach
    ex = [0] * nv
    for v in present:
        cover = 0
        for c, col, st in zip(lengths, colors, res.starts):
            if col == v:
                lo, hi = _span(st)
                cover |= ((1 << (hi + c - lo)) - 1) << lo
        ex[v] = may[v] & ~cover & full
    if ok(ex):
        far = [v for v in present if ex[v]]
        return make(4, "reach", ex, lambda: "no " + _or(list(map(word, far))) +
                    " block can reach these cells in any of its possible positions")
    return make(5, "placements", new, lambda: "")


def _or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _not(words: list[str]) -> str:
    if len(words) == 1:
        return f"not {words[0]}"
    if len(words) == 2:
        return f"neither {words[0]} nor {words[1]}"
    return "none of " + ", ".join(words)


def color_cells(puzzle: Puzzle, axis: str, i: int, n: int, cur: tuple[Mask, ...], ex: Sequence[Mask]
                ) -> tuple[list[tuple[int, int, str]], list[tuple[int, int, str]], str]:
    """The cells a colour move settles, the cells it only rules colours out of, and both in words."""
    full = (1 << n) - 1
    chars = puzzle.chars
    after = [c | e for c, e in zip(cur, ex)]
    settled = known_of(tuple(after), full) & ~known_of(cur, full)
    touched = 0
    for e in ex:
        touched |= e
    cells: list[tuple[int, int, str]] = []
    excluded: list[tuple[int, int, str]] = []
    by_value: dict[int, list[int]] = {}
    by_gone: dict[tuple[int, ...], list[int]] = {}
    for pos in bit_list(touched):
        if (settled >> pos) & 1:
            v = next(v for v, a in enumerate(after) if not (a >> pos) & 1)
            by_value.setdefault(v, []).append(pos)
            cells.append((i, pos, chars[v]) if axis == ROW else (pos, i, chars[v]))
        else:
            gone = tuple(v for v, e in enumerate(ex) if (e >> pos) & 1)
            by_gone.setdefault(gone, []).append(pos)
            ch = "".join(chars[v] for v in gone)
            excluded.append((i, pos, ch) if axis == ROW else (pos, i, ch))
    cells.sort()
    excluded.sort()
    parts = [f"{_where(axis, ps)} {color_word(puzzle, v)}" for v, ps in sorted(by_value.items())]
    parts += [f"{_where(axis, ps)} {_not([color_word(puzzle, v) for v in gone])}"
              for gone, ps in sorted(by_gone.items())]
    return cells, excluded, " and ".join(parts)


# --------------------------------------------------------------------------
# The engine


def _line_text(name: str, placements: int | None, verb: str, settles: str, reason: Callable[[], str]) -> str:
    """A line step's sentence: the technique's reason, or for ``placements`` their number."""
    if placements is not None:
        return (f"{name}: every one of the {placements:,} placements of the clue that fit the known cells "
                f"{verb} {settles}")
    return f"{name}: {reason()}: {settles}"


class LineContradiction(Exception):
    def __init__(self, axis: str, index: int, text: str | None = None) -> None:
        super().__init__(axis, index)
        self.axis = axis
        self.index = index
        self.text = text
        """For a rule (``axis == "rule"``, ``index`` into ``puzzle.all_rules``): the rule's own reason."""


def contradiction_text(puzzle: Puzzle, axis: str, index: int) -> str:
    """What cannot be kept, up to the cells it is kept with: a line's clue, or a rule (``axis == "rule"``)."""
    if axis == "rule":
        from ..rules import describe
        return f"the rule {describe(puzzle.all_rules[index])} cannot be kept with"
    return f"{axis} {index + 1} (clue {puzzle.clue_text(axis, index)}) has no placement that fits"


def rule_step(state: GridState) -> "Step | None":
    """The first rule that settles cells of ``state`` or rules colours out of them (not
    applied), as a step of kind ``rule``; raises the internal contradiction when a rule
    cannot be kept.  Rules read the whole grid, so a rule step depends on every cell."""
    p = state.puzzle
    chars = p.chars
    for i, rule in enumerate(p.all_rules):
        narrow = getattr(rule, "narrow", None)
        if narrow is None:
            continue
        trial = state.copy()
        bad = narrow(trial, None)
        if bad is not None:
            raise LineContradiction("rule", i, bad.describe(p))
        cells: list[tuple[int, int, str]] = []
        excluded: list[tuple[int, int, str]] = []
        for r in range(state.height):
            for c in range(state.width):
                before, after = state.possible(r, c), trial.possible(r, c)
                if after == before:
                    continue
                if len(after) == 1:
                    cells.append((r, c, chars[after[0]]))
                else:
                    excluded.append((r, c, "".join(chars[v] for v in before if v not in after)))
        if not cells and not excluded:
            continue
        wording = getattr(rule, "step_text", None)
        from ..rules import describe
        if wording is not None and cells:
            r, c, _ = cells[0]
            text = wording(r, c)
        else:
            text = f"by the rule {describe(rule)}, cell (row {(cells or excluded)[0][0] + 1}, " \
                   f"column {(cells or excluded)[0][1] + 1}) is settled"
        n = len(cells) + len(excluded)
        if n > 1:
            text += f" (and {n - 1} more cell{'s' if n > 2 else ''} by the same rule)"
        return Step("rule", "rule", i, (), cells, getattr(rule, "name", "rule"), text,
                    excluded=excluded if state.nvals > 2 else None)
    return None


class Engine:
    """Line steps in a person's order on a :class:`GridState` (changed in place).

    :meth:`step` applies the easiest step until no line makes progress; a line
    without any placement raises the internal contradiction (caught by the
    callers).

    *Strict* order (grids up to :data:`STRICT_MAX_CELLS` cells) looks again at
    every line a step touched before the next step is chosen, so each step is
    the easiest available at that moment.  On larger grids that costs one
    complete line solve per touched line per step (minutes on 512 x 512), so
    the order goes by *rounds*: lines touched by a step are looked at again
    once no step found in the current round is left, so each line is solved
    about as often as in plain propagation; within a round, easiest first.
    """

    def __init__(self, state: GridState, solver: LineSolver, strict: bool | None = None) -> None:
        self.state = state
        self.solver = solver
        p = state.puzzle
        self.h, self.w = state.height, state.width
        self.strict = strict if strict is not None else self.h * self.w <= STRICT_MAX_CELLS
        self.clues = list(p.rows) + list(p.columns)
        self.color = state.nvals > 2
        if self.color:
            self.colors = list(p.row_colors or ()) + list(p.column_colors or ())
        self.version = [0] * (self.h + self.w)
        self.heap: list[tuple[int, int, int, int, LineMove]] = []
        self.dirty: set[int] = set()
        for lid in range(self.h + self.w):
            self._look(lid)

    def _line(self, lid: int) -> tuple[str, int, int, Mask, Mask]:
        s = self.state
        if lid < self.h:
            return ROW, lid, self.w, s.row_black[lid], s.row_white[lid]
        j = lid - self.h
        return COLUMN, j, self.h, s.col_black[j], s.col_white[j]

    def _color_line(self, lid: int) -> tuple[str, int, int, tuple[Mask, ...]]:
        if lid < self.h:
            return ROW, lid, self.w, self.state.line_excluded(ROW, lid)
        return COLUMN, lid - self.h, self.h, self.state.line_excluded(COLUMN, lid - self.h)

    def _look(self, lid: int) -> None:
        if self.color:
            axis, i, n, cur = self._color_line(lid)
            res = self.solver.color(self.clues[lid], self.colors[lid], n, cur)
            if res is None:
                raise LineContradiction(axis, i)
            cm = color_line_move(self.state.puzzle, self.clues[lid], self.colors[lid], n, cur, res, axis)
            if cm is not None:
                heapq.heappush(self.heap, (cm.rank, -cm.size, lid, self.version[lid], cm))  # type: ignore[arg-type]
            return
        axis, i, n, b, w = self._line(lid)
        res = self.solver(self.clues[lid], n, b, w)
        if res is None:
            raise LineContradiction(axis, i)
        mv = line_move(self.clues[lid], n, b, w, res, axis)
        if mv is not None:
            heapq.heappush(self.heap, (mv.rank, -(mv.black | mv.white).bit_count(), lid,
                                       self.version[lid], mv))

    def next_move(self) -> tuple[int, LineMove] | None:
        """The easiest pending move (without applying it)."""
        heap = self.heap
        while True:
            while heap:
                rank, neg, lid, ver, mv = heap[0]
                if ver == self.version[lid] and lid not in self.dirty:
                    return lid, mv
                heapq.heappop(heap)
            if not self.dirty:
                return None
            dirty = sorted(self.dirty)  # the next round
            self.dirty.clear()
            for lid in dirty:
                self._look(lid)

    def make_step(self, lid: int, mv: LineMove) -> Step:
        if self.color:
            return self._make_color_step(lid, mv)  # type: ignore[arg-type]
        axis, i, n, b, w = self._line(lid)
        clue = self.clues[lid]
        cells: list[tuple[int, int, str]] = []
        for pos in bit_list(mv.black | mv.white):
            v = BLACK if (mv.black >> pos) & 1 else WHITE
            cells.append((i, pos, v) if axis == ROW else (pos, i, v))
        cells.sort()
        placements = count_placements(clue, n, b, w) if mv.technique == "placements" else None
        text = _line_text(f"{axis} {i + 1} (clue {clue_text(clue)})", placements, "puts",
                          _settles(axis, mv.black, mv.white), mv.reason)
        return Step("line", axis, i, clue, cells, mv.technique, text, placements)

    def _make_color_step(self, lid: int, mv: ColorMove) -> Step:
        axis, i, n, cur = self._color_line(lid)
        p = self.state.puzzle
        lengths, colors = self.clues[lid], self.colors[lid]
        cells, excluded, settles = color_cells(p, axis, i, n, cur, mv.ex)
        placements = count_color_placements(lengths, colors, n, cur) if mv.technique == "placements" else None
        text = _line_text(f"{axis} {i + 1} (clue {p.clue_text(axis, i)})", placements, "makes", settles, mv.reason)
        return Step("line", axis, i, lengths, cells, mv.technique, text, placements, excluded=excluded,
                    colors="".join(p.chars[v] for v in colors))

    def apply_step(self, st: Step) -> None:
        """Apply what a step claims (its cells, and in colour its exclusions) and look again
        at every line it touches."""
        if st.excluded is None:
            self.apply_cells(st.cells)
            return
        s = self.state
        index = {ch: v for v, ch in enumerate(s.puzzle.chars)}
        for r, c, v in st.cells:
            s.set_cell(r, c, index[v])
        for r, c, gone in st.excluded:
            for ch in gone:
                s.exclude(r, c, index[ch])
        self._touch({lid for r, c, _ in st.touched() for lid in (r, self.h + c)})

    def apply_cells(self, cells: Sequence[tuple[int, int, str]]) -> None:
        """Set cells (as a step claims them) and look again at every line they touch."""
        s = self.state
        touched = set()
        for r, c, v in cells:
            s.set_cell(r, c, v == BLACK)
            touched.add(r)
            touched.add(self.h + c)
        self._touch(touched)

    def _touch(self, touched: set[int]) -> None:
        for lid in sorted(touched):
            self.version[lid] += 1
        if not self.strict:
            self.dirty |= touched
            return
        for lid in sorted(touched):
            self._look(lid)

    def step(self, record: list[Step] | None = None) -> Step | None:
        """Apply and return the easiest line step, or None at the fixpoint.

        The step is appended to ``record`` before it is applied, so a step that
        leads to a contradiction is recorded too.
        """
        got = self.next_move()
        if got is None:
            return None
        lid, mv = got
        st = self.make_step(lid, mv)
        if record is not None:
            record.append(st)
        self.apply_step(st)
        return st


# --------------------------------------------------------------------------
# Probing


class Prober:
    """Finds refutations of single-cell assumptions with fast propagation, within a budget."""

    def __init__(self, solver: LineSolver, budget: int, deadline: float | None) -> None:
        self.solver = solver
        self.budget = budget
        self.deadline = deadline
        self.exhausted = False
        self.insufficient = 0
        """The deepest probing depth seen to settle nothing in some state reached (a lower bound)."""

    def _charge(self, calls0: int) -> None:
        self.budget -= self.solver.calls - calls0
        if self.budget < 0 or (self.deadline is not None and time.monotonic() > self.deadline):
            self.exhausted = True
            raise BudgetExhausted

    def _propagate_from(self, state: GridState, r: int, c: int, limit: int | None = None) -> Contradiction | None:
        """Propagate ``state`` in place from the row and column of a cell just set, charging the budget.

        With ``limit``, gives up (raises :class:`_TooCostly`) after that many line-solver calls.
        """
        dr = [False] * state.height
        dc = [False] * state.width
        dr[r] = True
        dc[c] = True
        calls0 = self.solver.calls
        solver = self.solver if limit is None else _Limited(self.solver, limit)
        try:
            bad = propagate(state, solver, dr, dc, self.deadline)
        except Deadline:
            self.exhausted = True
            raise BudgetExhausted from None
        finally:
            if limit is not None:
                self._charge(calls0)
        if limit is None:
            self._charge(calls0)
        return bad

    def refutes(self, state: GridState, r: int, c: int, black: bool, depth: int) -> Contradiction | None:
        """The contradiction that setting ``(r, c)`` leads to by line logic (with depth-1
        probing inside when ``depth`` is 2), or None."""
        return self._trial(state, r, c, black, depth)[1]

    def _trial(self, state: GridState, r: int, c: int, black: bool, depth: int,
               limit: int | None = None) -> tuple[GridState, Contradiction | None]:
        trial = state.copy()
        trial.set_cell(r, c, black)
        bad = self._propagate_from(trial, r, c, limit)
        if bad is not None or depth < 2:
            return trial, bad
        return trial, self.fixpoint(trial)

    def fixpoint(self, state: GridState) -> Contradiction | None:
        """Single-cell contradiction probing (depth 1), in place, repeated until nothing changes.

        Each unknown cell is set black, then white, and propagated from its row
        and column; a value that contradicts fixes the cell to the other value
        (which is propagated at once).  Returns a contradiction if the state
        turns out to have no solution.
        """
        changed = True
        while changed:
            changed = False
            safe = _new_safe(state)
            for r, c in state.unknown_cells():
                if state.cell(r, c) is not None:
                    continue
                for black in _values(state, r, c):
                    if safe.has(r, c, black):
                        continue
                    trial, bad = self._trial(state, r, c, black, 1)
                    if bad is None:
                        safe.add(trial)
                        continue
                    if state.nvals > 2:
                        state.exclude(r, c, black)
                    else:
                        state.set_cell(r, c, not black)
                    bad = self._propagate_from(state, r, c)
                    if bad is not None:
                        return bad
                    changed = True
                    safe = _new_safe(state)  # the state grew: what was safe may not be now
                    break
        return None

    def find(self, state: GridState, depth: int) -> tuple[int, int, bool] | None:
        """A refutable assumption ``(r, c, black)`` at this depth, the cheapest to refute
        at depth 1 (fewest line-solver calls); None when there is none."""
        best: tuple[int, int, int, bool] | None = None
        window = None
        safe = _new_safe(state)
        order = _probe_order(state)
        for r, c in order:
            if window is not None:
                window -= 1
                if window < 0:  # a refutation is in hand and no cheaper one showed up nearby
                    break
            for black in _values(state, r, c):
                if safe.has(r, c, black):
                    continue
                calls0 = self.solver.calls
                try:
                    # once a refutation is in hand, only a cheaper one is of interest
                    trial, bad = self._trial(state, r, c, black, depth,
                                             None if best is None or depth > 1 else best[0])
                except _TooCostly:
                    continue
                if bad is None:
                    safe.add(trial)
                    continue
                work = self.solver.calls - calls0
                if depth > 1:
                    return r, c, black
                if best is None or work < best[0]:
                    best = (work, r, c, black)
                    if work <= QUICK_REFUTATION:  # as easy as refutations get: stop looking
                        return best[1:]
                if window is None and len(order) > FULL_SCAN_CELLS:
                    window = PROBE_WINDOW
        if best is None:
            self.insufficient = max(self.insufficient, depth)
            return None
        return best[1:]


class _Safe:
    """Assumptions known to lead to no contradiction from one state.

    A cell value that a consistent trial implied can only imply a subset of
    that trial's cells (logic is monotone), so it cannot contradict either and
    need not be tried -- as long as the state does not change.
    """

    __slots__ = ("black", "white")

    def __init__(self, height: int) -> None:
        self.black = [0] * height
        self.white = [0] * height

    def has(self, r: int, c: int, black: bool) -> bool:
        return bool(((self.black if black else self.white)[r] >> c) & 1)

    def add(self, trial: GridState) -> None:
        for r, (b, w) in enumerate(zip(trial.row_black, trial.row_white)):
            self.black[r] |= b
            self.white[r] |= w


class _SafeColor:
    """:class:`_Safe` for colour puzzles: per colour index, the cells that some consistent
    trial settled to that colour."""

    __slots__ = ("settled",)

    def __init__(self, state: GridState) -> None:
        self.settled = [[0] * state.height for _ in range(state.nvals)]

    def has(self, r: int, c: int, value: int) -> bool:
        return bool((self.settled[value][r] >> c) & 1)

    def add(self, trial: GridState) -> None:
        full = (1 << trial.width) - 1
        for r in range(trial.height):
            exs = [ex[r] for ex in trial.row_ex]
            known = known_of(tuple(exs), full)
            for v, e in enumerate(exs):
                self.settled[v][r] |= known & ~e


def _new_safe(state: GridState) -> "_Safe | _SafeColor":
    return _SafeColor(state) if state.nvals > 2 else _Safe(state.height)


_BW_VALUES = (True, False)


def _values(state: GridState, r: int, c: int) -> Sequence[int]:
    """The values a probe may assume for an open cell: black then white, or in colour
    each block colour the cell may have, then the background."""
    if state.nvals == 2:
        return _BW_VALUES
    left = state.possible(r, c)
    return left[1:] + left[:1] if left[0] == 0 else left


def _probe_order(state: GridState) -> list[tuple[int, int]]:
    """Unknown cells, those with most known neighbours first (where a person looks), then row-major."""
    cells = state.unknown_cells()

    def known(r: int, c: int) -> int:
        k = 0
        for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= rr < state.height and 0 <= cc < state.width and state.cell(rr, cc) is not None:
                k += 1
        return k

    return sorted(cells, key=lambda rc: (-known(*rc), rc))


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


def state_grid(state: GridState) -> tuple[str, ...]:
    """The known cells as rows over ``#``, ``.`` and ``?`` (in colour the palette's characters and ``?``)."""
    return after_line_grid(state)


def state_from_known(puzzle: Puzzle, known: Sequence[str]) -> GridState:
    """A :class:`GridState` with the cells of ``known`` set: rows over ``#``, ``.``, ``?`` in
    black and white, over the palette's characters (``.`` the background) and ``?`` in colour.

    Raises ValueError naming the first bad row.
    """
    if len(known) != puzzle.height:
        raise ValueError(f"the state has {len(known)} rows, the puzzle {puzzle.height}")
    state = initial_state(puzzle)  # the puzzle's given cells, then the state's
    if state.nvals > 2:
        index = {ch: v for v, ch in enumerate(puzzle.chars)}
        for r, row in enumerate(known):
            if len(row) != puzzle.width:
                raise ValueError(f"state row {r + 1} has {len(row)} cells, the puzzle is {puzzle.width} wide")
            for c, ch in enumerate(row):
                if ch in index:
                    state.set_cell(r, c, index[ch])
                elif ch != "?":
                    raise ValueError(f"state row {r + 1} column {c + 1}: {ch!r} is not one of the palette's "
                                     f"characters {puzzle.chars!r} or '?'")
        return state
    black = puzzle.chars[1]  # '#', or a one-colour palette's own character (steps still say '#')
    for r, row in enumerate(known):
        if len(row) != puzzle.width:
            raise ValueError(f"state row {r + 1} has {len(row)} cells, the puzzle is {puzzle.width} wide")
        for c, ch in enumerate(row):
            if ch == BLACK or ch == black:
                state.set_cell(r, c, True)
            elif ch == WHITE:
                state.set_cell(r, c, False)
            elif ch != "?":
                raise ValueError(f"state row {r + 1} column {c + 1}: {ch!r} is not one of '#', '.', '?'")
    return state


class Explainer:
    """Runs explanations; keep one for a batch so the line-solver cache is shared."""

    def __init__(self, line_solver: LineSolver | None = None, max_depth: int = 2,
                 probe_budget: int = DEFAULT_PROBE_BUDGET) -> None:
        self.lines = line_solver or LineSolver()
        self.max_depth = max_depth
        self.probe_budget = probe_budget

    def refutation(self, state: GridState, r: int, c: int, black: bool, depth: int,
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

    def probe_step(self, state: GridState, r: int, c: int, black: bool, depth: int,
                   prober: Prober) -> Step | None:
        got = self.refutation(state, r, c, black, depth, prober)
        if got is None:
            return None
        chain, (axis, index) = got
        p = state.puzzle
        if state.nvals > 2:
            return self._color_probe_step(state, r, c, int(black), depth, chain, axis, index)
        assumed = BLACK if black else WHITE
        value = WHITE if black else BLACK
        clue = () if axis == "rule" else p.rows[index] if axis == ROW else p.columns[index]
        how = _chain_size(chain)
        text = (f"if cell (row {r + 1}, column {c + 1}) were {'black' if black else 'white'}, "
                f"{_would_fail(p, axis, index)} after {how}, "
                f"so it is {'white' if black else 'black'}")
        return Step("probe", axis, index, clue, [(r, c, value)], "probe" if depth == 1 else "probe2", text,
                    probe=(r, c, assumed), chain=chain, depth=depth)

    def _color_probe_step(self, state: GridState, r: int, c: int, value: int, depth: int, chain: list[Step],
                          axis: str, index: int) -> Step:
        p = state.puzzle
        chars = p.chars
        left = [v for v in state.possible(r, c) if v != value]
        cells: list[tuple[int, int, str]] = []
        excluded: list[tuple[int, int, str]] = []
        word = color_word(p, value)
        if len(left) == 1:
            cells.append((r, c, chars[left[0]]))
            then = f"so it is not {word}: it is {color_word(p, left[0])}"
        else:
            excluded.append((r, c, chars[value]))
            then = f"so it is not {word}"
        how = _chain_size(chain)
        text = (f"if cell (row {r + 1}, column {c + 1}) were {word}, "
                f"{_would_fail(p, axis, index)} after {how}, "
                f"{then}")
        lengths, colors = ((), ()) if axis == "rule" else p.line(axis, index)
        return Step("probe", axis, index, lengths, cells, "probe" if depth == 1 else "probe2", text,
                    probe=(r, c, chars[value]), chain=chain, depth=depth, excluded=excluded,
                    colors="".join(chars[v] for v in colors))

    def explain(self, puzzle: Puzzle, known: Sequence[str] | None = None, max_steps: int | None = None,
                deadline: float | None = None, verdict=None) -> Explanation:
        """Explain ``puzzle`` from the empty grid (or from ``known``).

        ``verdict`` is a callable returning the puzzle's status (``unique``,
        ``multiple``, ``none``, ``unknown``) used to word what happens when
        logic stops; None leaves the verdict unsettled.
        """
        t0 = time.monotonic()
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
        note = _note(puzzle, status, bad, verdict_status, state.unknown_count(), self.max_depth, out_of_time,
                     known is not None)
        diff = grade(steps, status, verdict_status, self.max_depth, prober.insufficient)
        return Explanation(puzzle, steps, state_grid(state), solved, status, diff, note,
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
        from ..rules import describe
        return f"the rule {describe(p.all_rules[index])} could not be kept"
    return f"{axis} {index + 1} (clue {p.clue_text(axis, index)}) would have no placement"


def _chain_size(chain: Sequence[Step]) -> str:
    """``5 line steps`` or ``3 line steps and 1 nested probe``."""
    nested = sum(1 for s in chain if s.kind == "probe")
    how = f"{len(chain) - nested} line step{'s' if len(chain) - nested != 1 else ''}"
    if nested:
        how += f" and {nested} nested probe{'s' if nested != 1 else ''}"
    return how


def _note(puzzle: Puzzle, status: str, bad: tuple[str, int] | None, verdict: str | None, unknown: int,
          max_depth: int, out_of_time: bool = False, from_state: bool = False) -> str:
    if status == "solved":
        return "solved: every cell is settled"
    if status == "none":
        assert bad is not None
        axis, i = bad
        head = "the given cells fit no solution" if from_state else "no solution"
        return f"{head}: {contradiction_text(puzzle, axis, i)} the known cells"
    if status == "truncated":
        why = "the time limit ran out" if out_of_time else "stopped after the requested number of steps"
        return f"{why}; {unknown} cells are still open"
    probe = "line logic and probing" if max_depth else "line logic"
    if status == "budget":
        head = f"the probing budget ran out with {unknown} cells open"
    else:
        depth = f" up to depth {max_depth}" if max_depth else ""
        head = f"{probe}{depth} settle no more cells; {unknown} are open"
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
