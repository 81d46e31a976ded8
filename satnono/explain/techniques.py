"""The line techniques of an explanation: :class:`Step`, :data:`TECHNIQUES`, :func:`line_move`,
:func:`color_line_move` and the wording of steps.

A *line step* settles cells of one row or column from that line's clue and the
cells already known in it.  Every line step is checked against the complete line
solver (:mod:`satnono.lines`): the cells a technique names must be forced by
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
it may still have (:class:`~satnono.logic.state.GridState`'s exclusion masks).  A
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
placements  5     the general case (counted by :func:`~satnono.lines.count.count_line`)
==========  ====  ==============================================================
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ..lines.bits import bit_list
from ..lines import ColorLineResult, LineResult, Mask
from ..model import Puzzle, plain_black
from ..rules.protocol import describe
from ..clues import COLUMN, ROW
from ..lines.bits import known_of

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


# --------------------------------------------------------------------------
# Steps


@dataclass(slots=True)
class Step:
    """One deduction, on a puzzle of any geometry.  Its cells are the cell followed by a value
    (``#`` or ``.``; in colour the palette character of the colour the cell is settled to): on a
    rectangle ``(row, col, value)``, 0-based, on any other geometry ``(cell, value)`` with the
    geometry's cell number (:meth:`Board.ref <satnono.explain.board.Board.ref>`)."""

    kind: str
    """``line``, ``probe`` or ``rule``."""
    axis: str
    """The family of the lane (``row``, ``column``, ``/``, ``\\``): the lane of a line step; for
    a probe step, the lane that ended without a placement in the refutation (``rule`` for a rule
    step, or a probe refuted by a rule)."""
    index: int
    """0-based within the family (for ``rule``: the rule's index in ``puzzle.all_rules``)."""
    clue: tuple[int, ...]
    cells: list[tuple[Any, ...]]
    technique: str
    text: str
    placements: int | None = None
    """For ``placements`` steps: how many placements of the clue fit the known cells."""
    probe: tuple[Any, ...] | None = None
    """For a probe step: the assumed cell and value (``(row, col, value)`` on a rectangle),
    refuted by ``chain``."""
    chain: list["Step"] = field(default_factory=list)
    depth: int = 0
    """Probing depth (0 for a line step)."""
    excluded: list[tuple[Any, ...]] | None = None
    """Colour puzzles only: the cells this step does not settle but rules colours out of, each
    followed by the palette characters ruled out (``(row, col, chars)`` on a rectangle); None in
    black and white."""
    colors: str | None = None
    """Colour puzzles only: the palette character of each block of ``clue``."""
    lane: int | None = None
    """The lane of ``axis`` and ``index``, 0-based among all the puzzle's lanes (``puzzle.lanes``);
    None for a rule."""
    name: str | None = None
    """The lane as people say it (``/ line 4``) on a puzzle of another geometry than the
    rectangle, whose steps keep naming their line by ``axis`` and ``index`` alone (None there, and
    for a rule).  In the JSON form when set."""

    @property
    def family(self) -> str:
        """:attr:`axis`, by the lanes' word."""
        return self.axis

    def touched(self) -> list[tuple[Any, ...]]:
        """The cells the step settles or rules colours out of."""
        return self.cells + self.excluded if self.excluded else self.cells

    def as_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "kind": self.kind,
            "line": self.axis,
            "index": self.index,
        }
        if self.name is not None:
            d["name"] = self.name
        d.update({
            "clue": list(self.clue),
            "cells": [list(cell) for cell in self.cells],
            "technique": self.technique,
            "text": self.text,
        })
        if self.colors is not None:
            d["colors"] = list(self.colors)
        if self.excluded is not None:
            d["excluded"] = [list(cell) for cell in self.excluded]
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


def _runs(positions: Sequence[int]) -> list[tuple[int, int]]:
    """The runs of consecutive numbers of increasing ``positions``: ``(first, last)`` each."""
    out: list[tuple[int, int]] = []
    if not positions:
        return out
    start = prev = positions[0]
    for p in positions[1:]:
        if p != prev + 1:
            out.append((start, prev))
            start = p
        prev = p
    out.append((start, prev))
    return out


def _where(axis: str, positions: Sequence[int]) -> str:
    """``columns 3-5 and 9`` (1-based) for positions along a row; ``rows ...`` along a column;
    ``positions ...`` along a lane of any other family (counted from the lane's start)."""
    noun = "column" if axis == ROW else "row" if axis == COLUMN else "position"
    parts = [f"{a + 1}" if a == b else f"{a + 1}-{b + 1}" for a, b in _runs(positions)]
    if len(positions) > 1:
        noun += "s"
    if len(parts) > 1:
        return f"{noun} {', '.join(parts[:-1])} and {parts[-1]}"
    return f"{noun} {parts[0]}"


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

    ``res`` is :func:`~satnono.lines.bw.solve_line` of the same line.  A
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


def black_and_white(puzzle: Puzzle) -> bool:
    """Whether steps word ``puzzle``'s cells ``black`` and ``white`` (its one block colour is
    plain black ``#``, with blotted clues or without), the one test every wording of an
    explanation (line steps, probes, hints) makes; otherwise cells are named by
    :func:`color_word`: a colour puzzle, and a one-colour puzzle of its own (red ``r``)."""
    return plain_black(puzzle.palette)


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
    :func:`~satnono.lines.color.solve_color_line` of the same line.  A technique
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
            said = (f"the clue needs {need} coloured cells and only {need} cells can be coloured, so none of "
                    "them is background" if need != 1 else
                    "the clue needs 1 coloured cell and only 1 cell can be coloured, so it is not background")
            return make(1, "fill", ex, lambda: said)
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


def line_text(name: str, placements: int | None, verb: str, settles: str, reason: Callable[[], str]) -> str:
    """A line step's sentence: the technique's reason, or for ``placements`` their number."""
    if placements == 1:
        return f"{name}: the only placement of the clue that fits the known cells {verb} {settles}"
    if placements is not None:
        return (f"{name}: every one of the {placements:,} placements of the clue that fit the known cells "
                f"{verb} {settles}")
    return f"{name}: {reason()}: {settles}"


def lane_label(puzzle: Any, k: int) -> str:
    """Lane ``k`` of ``puzzle.lanes`` as a step names it, with its clue: ``row 3 (clue 1 2)``,
    ``/ line 4 (clue 2r 1b)``."""
    clue = puzzle.lane_clues[k]
    return f"{puzzle.lanes[k].name} (clue {clue.text(puzzle.chars, puzzle.is_color)})"


def lane_number(puzzle: Any, family: str, index: int) -> int:
    """The position in ``puzzle.lanes`` of the ``index``-th lane of ``family``."""
    if isinstance(puzzle, Puzzle) and family in (ROW, COLUMN):  # the rows, then the columns
        return index if family == ROW else puzzle.height + index
    return next(k for k, lane in enumerate(puzzle.lanes) if lane.family == family and lane.index == index)


def contradiction_text(puzzle: Any, axis: str, index: int) -> str:
    """What cannot be kept, up to the cells it is kept with: a lane's clue (``axis`` its family),
    or a rule (``axis == "rule"``)."""
    if axis == "rule":
        return f"the rule {describe(puzzle.all_rules[index])} cannot be kept with"
    return f"{lane_label(puzzle, lane_number(puzzle, axis, index))} has no placement that fits"
