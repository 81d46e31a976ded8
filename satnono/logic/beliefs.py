"""Where the solutions probably are: loopy belief propagation between rows and columns, for the
SAT solver's first search.

Line logic keeps what *every* completion of a line agrees on; when it stops, most cells are
open, and CaDiCaL's first search has to find a grid that every line accepts.  On puzzles with
many solutions (random tournament puzzles) or hard ones (Knotty) that search is nearly all the
time.  Here each line tells each of its cells how likely every value is, given what the
crossing lines told it the round before:

* a line's message to cell i is its *extrinsic* distribution: the weighted number of the line's
  completions that give cell i value v, every other cell j weighing in with the crossing line's
  message for its value (cell i's own prior left out), computed exactly by forward-backward
  over the clue's automaton;
* rows and columns exchange messages for :data:`ROUNDS` rounds (damped, the rows first), or
  until no message moves by more than :data:`TOLERANCE`;
* a cell's belief is the product of its row's and its column's message; a block's start is
  the median of its posterior start distribution in its line.

:func:`phase_hints` gives the most likely value of every cell, how sure it is (that value's
share of the cell's belief) and the median start of every block of every open line;
:meth:`satnono.cnf.encode.Encoding.hint_phases` turns them into CaDiCaL phases (cell variables
and block-start ladders), :meth:`~satnono.cnf.encode.Encoding.hunches` the surest of them into
assumptions for the first rounds of that search (:func:`satnono.solve.solve_on_hunches`).
Phases and assumptions are hints: they change which solution is found first and how fast,
never whether one exists.

The arithmetic is specified to the operation (IEEE doubles, each sum in a fixed order, scaling
by the maximum), so the compiled module ``satnono.logic._beliefs`` (``_beliefs.c``, a
transcription of this file) gives bit-identical hints; ``tests/test_beliefs.py`` demands it.

The hints are a rectangle's fast path (its rows and columns, as the encoding's phases and
ladders take them): :func:`satnono.solve.first_try` gives the search of any other geometry no
hints, so nothing here runs on a triddler.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from ..lines.bits import native_core
from .state import Deadline

if TYPE_CHECKING:
    from .state import GridState

#: Rounds of message passing (each: every open row, then every open column).  Measured on 50-puzzle
#: samples of each tournament file (hints from the start): 10 rounds cut the first search's
#: conflicts to 0.42-0.57x, 20 rounds to 0.42x on icga2017 (0.56x with 10); on 600 puzzles 10 to 60
#: rounds and damping 0.3 to 0.9 were within the noise of each other.
ROUNDS = 20
#: Message passing stops early once no message moves by more than this in a round.
TOLERANCE = 1e-7
#: The weight of the old message in each update after the first round.
DAMPING = 0.5
#: The least weight a crossing line's message gives a value the cell may still have (a
#: message near 0 never rules a value out: only line logic does).
FLOOR = 1e-4


class Hints:
    """What belief propagation suggests: ``cells[r * width + c]`` is the most likely value
    of cell (r, c) (0 the background, 1..K a block colour; known cells their value);
    ``row_starts[r]`` / ``column_starts[c]`` the median start of each block of the line
    (None for a line with no open cell, or whose clue its cells contradict)."""

    __slots__ = ("cells", "row_starts", "column_starts", "rounds", "confidence")

    def __init__(self, cells: list[int], row_starts: list[tuple[int, ...] | None],
                 column_starts: list[tuple[int, ...] | None], rounds: int, confidence: list[float]) -> None:
        self.cells = cells
        self.row_starts = row_starts
        self.column_starts = column_starts
        self.rounds = rounds
        """The rounds of message passing that ran."""
        self.confidence = confidence
        """Per cell, the share of its belief that its most likely value has (1.0 for a known
        cell; 0.0 for an open cell whose beliefs all vanished)."""


def automaton(lengths: tuple[int, ...], colors: tuple[int, ...],
              blots: tuple[int, ...]) -> tuple[list[int], list[int], list[bool], list[int]]:
    """The clue's automaton over cell values, its states in one row: gap 0, block 0's cells, gap
    1, ..., gap k.  Per state s: ``emit[s]``, the value a cell takes moving into s from s - 1
    (-1 for state 0); ``stay[s]``, the value of a cell that keeps s (a gap: the background; a
    blotted block's one state: its colour, for any length >= 1; -1: none); ``skip[s]``, whether s
    (a block's first cell) is also entered from s - 2, past the gap, when the block before has
    another colour; ``first[s]``, the block whose first cell s is (-1 for none).  The accepting
    states are the last (gap k) and, for a clue with blocks, the one before it.  ``blots``: the
    indices of the blotted blocks.

    >>> automaton((2,), (1,), ())
    ([-1, 1, 1, 0], [0, -1, -1, 0], [False, False, False, False], [-1, 0, -1, -1])
    """
    emit, stay, skip, first = [-1], [0], [False], [-1]
    for j, (n, col) in enumerate(zip(lengths, colors)):
        blot = j in blots
        for t in range(1 if blot else n):
            emit.append(col)
            stay.append(col if blot else -1)
            skip.append(t == 0 and j > 0 and colors[j - 1] != col)
            first.append(j if t == 0 else -1)
        emit.append(0)
        stay.append(0)
        skip.append(False)
        first.append(-1)
    return emit, stay, skip, first


def _rescale(values: list[float], top: float) -> bool:
    """Divide ``values`` by their maximum ``top`` in place; False when every one is 0."""
    if top == 0.0:
        return False
    for s in range(len(values)):
        values[s] = values[s] / top
    return True


def line_messages(lengths: tuple[int, ...], colors: tuple[int, ...], blots: tuple[int, ...], nvals: int,
                  weights: list[list[float]], allowed: list[int],
                  out: list[list[float]], starts: list[int]) -> bool:
    """One line's extrinsic messages to its cells, and its blocks' median starts.

    ``weights[i][v]`` is the prior weight of value v at cell i (0 for a value the cell cannot
    have: bit v of ``allowed[i]`` clear); ``out[i]`` receives the normalised message (0 for
    values not allowed), ``starts`` the median start of each block.  Returns False, leaving
    ``out`` and ``starts`` as they were, when no completion has positive weight.
    """
    emit, stay, skip, first = automaton(lengths, colors, blots)
    ns = len(emit)
    n = len(weights)
    k = len(lengths)
    # forward: alpha[i][s], the weight of the prefixes of i cells that end in state s, scaled
    # so that the largest is 1
    alpha = [[0.0] * ns for _ in range(n + 1)]
    alpha[0][0] = 1.0
    for i in range(n):
        a, w, new = alpha[i], weights[i], alpha[i + 1]
        top = 0.0
        for s in range(ns):
            acc = 0.0
            if stay[s] >= 0:
                acc = a[s] * w[stay[s]]
            if s >= 1:
                acc = acc + a[s - 1] * w[emit[s]]
            if skip[s]:
                acc = acc + a[s - 2] * w[emit[s]]
            new[s] = acc
            if acc > top:
                top = acc
        if not _rescale(new, top):
            return False
    # backward, with each cell's messages and block starts taken on the way
    beta = [0.0] * ns
    beta[ns - 1] = 1.0
    if k:
        beta[ns - 2] = 1.0
    msgs = [[0.0] * nvals for _ in range(n)]
    start_p = [[0.0] * n for _ in range(k)]
    for i in range(n - 1, -1, -1):
        a, w, b = alpha[i], weights[i], beta
        e = [0.0] * nvals
        st = [0.0] * k
        for s in range(ns):  # every transition at cell i, by its source state
            if stay[s] >= 0:
                e[stay[s]] = e[stay[s]] + a[s] * b[s]
            if s + 1 < ns:
                x = a[s] * b[s + 1]
                e[emit[s + 1]] = e[emit[s + 1]] + x
                if first[s + 1] >= 0:
                    st[first[s + 1]] = st[first[s + 1]] + x
            if s + 2 < ns and skip[s + 2]:
                x = a[s] * b[s + 2]
                e[emit[s + 2]] = e[emit[s + 2]] + x
                st[first[s + 2]] = st[first[s + 2]] + x
        total = 0.0
        for v in range(nvals):
            total = total + w[v] * e[v]
        if total == 0.0:
            return False
        for j in range(k):
            start_p[j][i] = (st[j] * w[colors[j]]) / total
        mi, norm = msgs[i], 0.0
        bits = allowed[i]
        for v in range(nvals):
            if (bits >> v) & 1:
                norm = norm + e[v]
        for v in range(nvals):
            mi[v] = e[v] / norm if (bits >> v) & 1 and norm > 0.0 else 0.0
        # the step back: beta for cell i from beta for cell i + 1
        new = [0.0] * ns
        top = 0.0
        for s in range(ns):
            acc = 0.0
            if stay[s] >= 0:
                acc = w[stay[s]] * b[s]
            if s + 1 < ns:
                acc = acc + w[emit[s + 1]] * b[s + 1]
            if s + 2 < ns and skip[s + 2]:
                acc = acc + w[emit[s + 2]] * b[s + 2]
            new[s] = acc
            if acc > top:
                top = acc
        if not _rescale(new, top):
            return False
        beta = new
    for i in range(n):
        out[i][:] = msgs[i]
    for j in range(k):
        cum, med = 0.0, n - 1
        for p in range(n):
            cum = cum + start_p[j][p]
            if cum >= 0.5:
                med = p
                break
        starts[j] = med
    return True


def grid_hints(height: int, width: int, nvals: int, rows: list[tuple], columns: list[tuple],
               allowed: list[int], rounds: int = ROUNDS, damping: float = DAMPING,
               tolerance: float = TOLERANCE, floor: float = FLOOR,
               deadline: float | None = None) -> tuple[list[int], list, list, int, list[float]] | None:
    """Belief propagation over a grid (the Python reference of ``_beliefs.grid_hints``).

    ``rows``/``columns`` are ``(lengths, colors, blotted block indices)`` per line; ``allowed[r * width + c]``
    the bit set of the values cell (r, c) may have (bit 0 the background).  Returns ``(cells,
    row_starts, column_starts, rounds run, confidence)`` as in :class:`Hints`, or None once the
    monotonic clock has passed ``deadline`` (checked before each line).
    """
    ncell = height * width
    uniform = [[0.0] * nvals for _ in range(ncell)]
    for x in range(ncell):
        bits = allowed[x]
        cnt = bin(bits).count("1")
        for v in range(nvals):
            if (bits >> v) & 1:
                uniform[x][v] = 1.0 / cnt
    to_rows = [m[:] for m in uniform]  # the columns' messages: priors of the rows
    to_cols = [m[:] for m in uniform]  # the rows' messages: priors of the columns
    open_rows = [r for r in range(height) if any(allowed[r * width + c] & (allowed[r * width + c] - 1)
                                                 for c in range(width))]
    open_cols = [c for c in range(width) if any(allowed[r * width + c] & (allowed[r * width + c] - 1)
                                                for r in range(height))]
    row_starts: list = [None] * height
    col_starts: list = [None] * width
    keep = 1.0 - damping
    ran = 0
    for rnd in range(rounds):
        ran = rnd + 1
        moved = 0.0
        for axis in (0, 1):
            if axis == 0:
                lines, n, prior, dest, clues, found = open_rows, width, to_rows, to_cols, rows, row_starts
            else:
                lines, n, prior, dest, clues, found = open_cols, height, to_cols, to_rows, columns, col_starts
            for li in lines:
                if deadline is not None and time.monotonic() >= deadline:
                    return None
                cells = [li * width + c for c in range(n)] if axis == 0 else [r * width + li for r in range(n)]
                weights = []
                for x in cells:
                    bits, m = allowed[x], prior[x]
                    weights.append([(m[v] if m[v] > floor else floor) if (bits >> v) & 1 else 0.0
                                    for v in range(nvals)])
                out = [[0.0] * nvals for _ in range(n)]
                lengths, colors, blots = clues[li]
                st = [0] * len(lengths)
                if not line_messages(lengths, colors, blots, nvals, weights, [allowed[x] for x in cells], out, st):
                    continue
                found[li] = tuple(st)
                for i, x in enumerate(cells):
                    if allowed[x] & (allowed[x] - 1):  # an open cell
                        old, new = dest[x], out[i]
                        for v in range(nvals):
                            nv = new[v] if rnd == 0 else damping * old[v] + keep * new[v]
                            d = nv - old[v]
                            if d < 0.0:
                                d = -d
                            if d > moved:
                                moved = d
                            old[v] = nv
        if moved <= tolerance:
            break
    cells_out = [0] * ncell
    confidence = [1.0] * ncell
    for x in range(ncell):
        bits = allowed[x]
        best, arg, total = -1.0, 0, 0.0
        for v in range(nvals):
            if (bits >> v) & 1:
                b = to_rows[x][v] * to_cols[x][v] if bits & (bits - 1) else 1.0
                total = total + b
                if b > best:
                    best, arg = b, v
        cells_out[x] = arg
        if bits & (bits - 1):  # an open cell: its best value's share of its belief
            confidence[x] = best / total if total > 0.0 else 0.0
    return cells_out, row_starts, col_starts, ran, confidence


_native = native_core("_beliefs", "satnono.logic")
NATIVE = _native is not None
"""Whether :func:`phase_hints` runs the compiled transcription."""


def work(state: GridState, rounds: int | None = None) -> int:
    """The size of :func:`phase_hints`'s work on ``state``: rounds x the cells x automaton
    states of its open lines (the time it takes is about proportional to it)."""
    p = state.puzzle
    total = 0
    for n, full, known, clues, count in ((state.width, (1 << state.width) - 1, state.known_row, p.row_clues,
                                          state.height),
                                         (state.height, (1 << state.height) - 1, state.known_column,
                                          p.column_clues, state.width)):
        for i in range(count):
            if known(i) != full:  # (a blotted block's stored length is its least, 1: one state, as here)
                lengths = clues[i].lengths
                total += n * (sum(lengths) + len(lengths) + 1)
    return (ROUNDS if rounds is None else rounds) * total


def _spec(clue) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    blots = clue.blots
    return clue.lengths, clue.colors, tuple(j for j in range(len(clue.lengths)) if (blots >> j) & 1) if blots else ()


def phase_hints(state: GridState, rounds: int | None = None, deadline: float | None = None) -> Hints:
    """Belief propagation over the open lines of a propagated, consistent ``state``
    (:data:`ROUNDS` rounds at the most unless ``rounds`` says otherwise).

    Raises:
        Deadline: the monotonic clock passed ``deadline`` (checked before each line).
    """
    p = state.puzzle
    h, w, nvals = state.height, state.width, state.nvals
    allowed: list[int] = []
    span = range(w)
    for r in range(h):  # bit v of a cell: it may still have value v
        row = [0] * w
        for v in range(nvals):
            ex, bit = state.row_ex[v][r], 1 << v
            row = [a if (ex >> c) & 1 else a | bit for a, c in zip(row, span)]
        allowed += row
    rows = [_spec(cl) for cl in p.row_clues]
    cols = [_spec(cl) for cl in p.column_clues]
    impl = _native.grid_hints if _native is not None else grid_hints
    if deadline is not None and time.monotonic() >= deadline:
        raise Deadline("belief propagation ran past its deadline")
    found = impl(h, w, nvals, rows, cols, allowed, ROUNDS if rounds is None else rounds, DAMPING, TOLERANCE, FLOOR,
                 deadline)
    if found is None:
        raise Deadline("belief propagation ran past its deadline")
    cells, rs, cs, ran, confidence = found
    return Hints(cells, rs, cs, ran, confidence)
