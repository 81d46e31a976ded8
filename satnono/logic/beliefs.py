"""Where the solutions probably are: loopy belief propagation between the lanes of any
geometry (a rectangle's rows and columns, a triddler's three families, extra lines), for the SAT
solver's first search.

Line logic keeps what *every* completion of a lane agrees on; when it stops, most cells are
open, and CaDiCaL's first search has to find a picture that every lane accepts.  On puzzles with
many solutions (random tournament puzzles) or hard ones (Knotty) that search is nearly all the
time.  Here each lane tells each of its cells how likely every value is, given what the
crossing lanes told it the round before:

* a lane's message to cell i is its *extrinsic* distribution: the weighted number of the lane's
  completions that give cell i value v, every other cell j weighing in with its prior from the
  lanes crossing there (cell i's own prior left out), computed exactly by forward-backward
  over the clue's automaton;
* a cell's prior in a lane is the message of the other lane that holds it (a rectangle's
  crossing line), or where more lanes cross (a triddler's three) the product of theirs, scaled
  to sum to 1;
* the open lanes (those with an open cell) exchange messages in the puzzle's lane order (a
  rectangle's rows, then its columns) for :data:`ROUNDS` rounds (damped), or until no message
  moves by more than :data:`TOLERANCE`;
* a cell's belief is the product of its lanes' messages; a block's start is the median of its
  posterior start distribution in its lane.

:func:`phase_hints` gives the most likely value of every cell, how sure it is (that value's
share of the cell's belief) and the median start of every block of every open lane;
:meth:`satnono.cnf.encode.Encoding.hint_phases` turns them into CaDiCaL phases (cell variables
and block-start ladders), :meth:`~satnono.cnf.encode.Encoding.hunches` the surest of them into
assumptions for the first rounds of that search (:func:`satnono.solve.solve_on_hunches`).
Phases and assumptions are hints: they change which solution is found first and how fast,
never whether one exists.

The arithmetic is specified to the operation (IEEE doubles, each sum in a fixed order, scaling
by the maximum), so the compiled module ``satnono.logic._beliefs`` (``_beliefs.c``, a
transcription of this file) gives bit-identical hints; ``tests/test_beliefs.py`` and
``tests/test_beliefs_lanes.py`` demand it.  The compiled module takes any lanes as lists of
cell numbers; a cell held by two lanes (every cell of a rectangle) reads its crossing lane's
message directly, so a rectangle's hints cost what its rows-and-columns code did, and are the
same to the bit.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

from ..clues import COLUMN, ROW
from ..lanes import Lane
from ..lines.bits import known_of, native_core
from .lanes import LaneState
from .state import Deadline, GridState

#: Rounds of message passing (each: every open lane; a rectangle's rows, then its columns).  Measured on 50-puzzle
#: samples of each tournament file (hints from the start): 10 rounds cut the first search's
#: conflicts to 0.42-0.57x, 20 rounds to 0.42x on icga2017 (0.56x with 10); on 600 puzzles 10 to 60
#: rounds and damping 0.3 to 0.9 were within the noise of each other.
ROUNDS = 20
#: Message passing stops early once no message moves by more than this in a round.
TOLERANCE = 1e-7
#: The weight of the old message in each update after the first round.
DAMPING = 0.5
#: The least weight a cell's prior gives a value the cell may still have (a message near 0
#: never rules a value out: only line logic does).
FLOOR = 1e-4


@dataclass(frozen=True, slots=True)
class Hints:
    """What belief propagation suggests, over the lanes of the puzzle's geometry."""

    cells: list[int]
    """``cells[x]``: the most likely value of cell x (0 the background, 1..K a block colour;
    known cells their value); a rectangle's cell (r, c) is ``r * width + c``."""
    lanes: tuple[Lane, ...]
    """The puzzle's lanes (:attr:`starts` follows them)."""
    starts: list[tuple[int, ...] | None]
    """Per lane, the median start of each of its blocks (None for a lane with no open cell, or
    whose clue its cells contradict)."""
    rounds: int
    """The rounds of message passing that ran."""
    confidence: list[float]
    """Per cell, the share of its belief that its most likely value has (1.0 for a known
    cell; 0.0 for an open cell whose beliefs all vanished)."""

    @property
    def by_family(self) -> dict[str, list[tuple[int, ...] | None]]:
        """:attr:`starts` by family, each family's lanes by index: ``by_family["row"][r]``."""
        out: dict[str, list[tuple[int, ...] | None]] = {}
        for lane, medians in zip(self.lanes, self.starts):
            family = out.setdefault(lane.family, [])
            family += [None] * (lane.index + 1 - len(family))
            family[lane.index] = medians
        return out

    @property
    def row_starts(self) -> list[tuple[int, ...] | None]:
        """A rectangle's :attr:`starts` of the rows (empty for a geometry without rows)."""
        return self.by_family.get(ROW, [])

    @property
    def column_starts(self) -> list[tuple[int, ...] | None]:
        """A rectangle's :attr:`starts` of the columns (empty for a geometry without columns)."""
        return self.by_family.get(COLUMN, [])


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


def lane_hints(ncell: int, nvals: int, lanes: Sequence[Sequence[int]], clues: Sequence[tuple], allowed: list[int],
               rounds: int = ROUNDS, damping: float = DAMPING, tolerance: float = TOLERANCE, floor: float = FLOOR,
               deadline: float | None = None) -> tuple[list[int], list, int, list[float]] | None:
    """Belief propagation over the lanes of any geometry (the Python reference of
    ``_beliefs.lane_hints``).

    ``lanes`` are the cell numbers of each lane in reading order, ``clues`` each lane's
    ``(lengths, colors, blotted block indices)``, ``allowed[x]`` the bit set of the values cell x
    may have (bit 0 the background).  Each lane's cell is one *place*, in lane order; each place
    holds its lane's message to the cell, and a lane's prior at a cell is the message of the
    cell's other place (a rectangle's: the crossing line's), or with several the product of
    theirs in lane order scaled to sum to 1, or with none the uniform one.  Each round solves
    the open lanes (those with an open cell) in lane order.  Returns ``(cells, starts per lane,
    rounds run, confidence)`` as in :class:`Hints`, or None once the monotonic clock has passed
    ``deadline`` (checked before each lane).
    """
    places = [x for lane in lanes for x in lane]
    offsets = [0]
    for lane in lanes:
        offsets.append(offsets[-1] + len(lane))
    at: list[list[int]] = [[] for _ in range(ncell)]  # each cell's places, in lane order
    for o, x in enumerate(places):
        at[x].append(o)
    uniform = [[0.0] * nvals for _ in range(ncell)]
    for x in range(ncell):
        bits = allowed[x]
        cnt = bin(bits).count("1")
        for v in range(nvals):
            if (bits >> v) & 1:
                uniform[x][v] = 1.0 / cnt
    msg = [uniform[x][:] for x in places]  # (updated in place: a list stands for its place)
    others = [[msg[q] for q in at[x] if q != o] for o, x in enumerate(places)]
    open_lanes = [k for k, lane in enumerate(lanes) if any(allowed[x] & (allowed[x] - 1) for x in lane)]
    found: list = [None] * len(lanes)
    keep = 1.0 - damping
    ran = 0
    for rnd in range(rounds):
        ran = rnd + 1
        moved = 0.0
        for k in open_lanes:
            if deadline is not None and time.monotonic() >= deadline:
                return None
            cells, base = lanes[k], offsets[k]
            weights = []
            for i, x in enumerate(cells):
                bits, crossing = allowed[x], others[base + i]
                if len(crossing) == 1:
                    m = crossing[0]
                elif not crossing:
                    m = uniform[x]
                else:  # the product of the other places' messages, scaled to sum to 1
                    m = crossing[0][:]
                    for mo in crossing[1:]:
                        for v in range(nvals):
                            m[v] = m[v] * mo[v]
                    total = 0.0
                    for v in range(nvals):
                        if (bits >> v) & 1:
                            total = total + m[v]
                    if total > 0.0:
                        for v in range(nvals):
                            m[v] = m[v] / total
                weights.append([(m[v] if m[v] > floor else floor) if (bits >> v) & 1 else 0.0
                                for v in range(nvals)])
            n = len(cells)
            out = [[0.0] * nvals for _ in range(n)]
            lengths, colors, blots = clues[k]
            st = [0] * len(lengths)
            if not line_messages(lengths, colors, blots, nvals, weights, [allowed[x] for x in cells], out, st):
                continue
            found[k] = tuple(st)
            for i, x in enumerate(cells):
                if allowed[x] & (allowed[x] - 1):  # an open cell
                    old, new = msg[base + i], out[i]
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
                b = 1.0
                if bits & (bits - 1) and at[x]:  # an open cell: the product of its places' messages
                    b = msg[at[x][0]][v]
                    for o in at[x][1:]:
                        b = b * msg[o][v]
                total = total + b
                if b > best:
                    best, arg = b, v
        cells_out[x] = arg
        if bits & (bits - 1):  # an open cell: its best value's share of its belief
            confidence[x] = best / total if total > 0.0 else 0.0
    return cells_out, found, ran, confidence


_native = native_core("_beliefs", "satnono.logic")
NATIVE = _native is not None
"""Whether :func:`phase_hints` runs the compiled transcription."""


def _allowed(state: GridState | LaneState) -> list[int]:
    """Per cell (by number), the bit set of the values it may still have (bit 0 the background)."""
    if isinstance(state, GridState):  # a rectangle's row masks, a row at a time
        allowed: list[int] = []
        span = range(state.width)
        for r in range(state.height):
            row = [0] * state.width
            for v in range(state.nvals):
                ex, bit = state.row_ex[v][r], 1 << v
                row = [a if (ex >> c) & 1 else a | bit for a, c in zip(row, span)]
            allowed += row
        return allowed
    full = state.full
    return [full & ~ex for ex in state.excluded]


def work(state: GridState | LaneState, rounds: int | None = None) -> int:
    """The size of :func:`phase_hints`'s work on ``state``: rounds x the cells x automaton
    states of its open lanes (the time it takes is about proportional to it)."""
    lanes = state.puzzle.lanes
    if isinstance(state, GridState):  # a lane's known cells from the state's masks
        full = [(1 << len(lane.cells)) - 1 for lane in lanes]
        opened = [known_of(state.lane_masks(lane), f) != f for lane, f in zip(lanes, full)]
    else:
        open_cells = {x for x, a in enumerate(_allowed(state)) if a & (a - 1)}
        opened = [not open_cells.isdisjoint(lane.cells) for lane in lanes]
    total = 0
    for lane, clue, is_open in zip(lanes, state.puzzle.lane_clues, opened):
        if is_open:  # (a blotted block's stored length is its least, 1: one state, as here)
            lengths = clue.lengths
            total += len(lane.cells) * (sum(lengths) + len(lengths) + 1)
    return (ROUNDS if rounds is None else rounds) * total


def _spec(clue) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    blots = clue.blots
    return clue.lengths, clue.colors, tuple(j for j in range(len(clue.lengths)) if (blots >> j) & 1) if blots else ()


def phase_hints(state: GridState | LaneState, rounds: int | None = None, deadline: float | None = None) -> Hints:
    """Belief propagation over the open lanes of a propagated, consistent ``state`` of any
    geometry (:data:`ROUNDS` rounds at the most unless ``rounds`` says otherwise).

    Raises:
        Deadline: the monotonic clock passed ``deadline`` (checked before each lane).
    """
    p = state.puzzle
    lanes = p.lanes
    allowed = _allowed(state)
    nvals = state.nvals if isinstance(state, GridState) else state.values
    clues = [_spec(cl) for cl in p.lane_clues]
    impl = _native.lane_hints if _native is not None else lane_hints
    if deadline is not None and time.monotonic() >= deadline:
        raise Deadline("belief propagation ran past its deadline")
    found = impl(len(allowed), nvals, [lane.cells for lane in lanes], clues, allowed,
                 ROUNDS if rounds is None else rounds, DAMPING, TOLERANCE, FLOOR, deadline)
    if found is None:
        raise Deadline("belief propagation ran past its deadline")
    cells, starts, ran, confidence = found
    return Hints(cells, lanes, starts, ran, confidence)
