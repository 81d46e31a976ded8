"""Line propagation to a fixpoint.

Each dirty line is solved completely by its kernel (:mod:`satnono.lines`,
whatever the clue's kind); the colours it newly excludes from cells mark the
crossing lines dirty; this repeats until nothing changes, a line admits no
placement (contradiction) or every cell is known.  Black and white is the
one-colour case: two exclusion masks per line (not background = black, not
black = white).  The extra lanes a rectangle's ``line`` rules add are solved after
each fixpoint of its rows and columns, by the same solver.  After a line fixpoint the puzzle's
other rules narrow the state and the lines they touched are solved again.

A black-and-white grid (sides of up to 4,096 cells), propagated through a plain
:class:`~satnono.lines.LineSolver`, runs its line fixpoint in the compiled core
(``bw_fixpoint`` in ``satnono/lines/_native.c``; masks as arrays of 64-bit words, each
line solved as ``solve_line`` solves it): the sweeps below, in the same order, so the same
masks, dirty flags, line-solver calls and contradiction (``tests/test_native.py``).
"""

from __future__ import annotations

import time
from typing import Sequence

from ..clues import COLUMN, ROW, LineClue
from ..lanes import LINE, Lane
from ..lines import LineSolver, SolvesLines
from ..lines.bits import Mask, bit_list, native_core
from ..rules.protocol import narrow
from .state import Contradiction, Deadline, GridState

__all__ = ["propagate", "scatter_limit", "transpose", "TRANSPOSE_MAX_SIDE"]

_native = native_core()


def _scatter(bits: Mask, index: int, cross: list[Mask], dirty: list[bool]) -> None:
    """Set bit ``index`` in ``cross[i]`` for every bit i of ``bits``; mark those lines dirty."""
    one = 1 << index
    while bits:
        low = bits & -bits
        i = low.bit_length() - 1
        cross[i] |= one
        dirty[i] = True
        bits ^= low


_DELTA_MASKS: dict[int, list[tuple[int, int]]] = {}


def _delta_masks(side: int) -> list[tuple[int, int]]:
    """For a ``side`` x ``side`` bit matrix (side a power of two), the delta swaps of a transposition.

    Level j swaps the j x j blocks above and below the diagonal of every
    2j x 2j block: element (r, c) with r & j == 0 and c & j != 0 trades
    places with (r + j, c - j), j * (side - 1) bits further up.
    """
    found = _DELTA_MASKS.get(side)
    if found is None:
        found = []
        nbytes = side >> 3
        zero = bytes(nbytes)
        j = side >> 1
        while j:
            row = sum(1 << c for c in range(side) if c & j).to_bytes(nbytes, "little")
            mask = int.from_bytes(b"".join(zero if r & j else row for r in range(side)), "little")
            found.append((j * (side - 1), mask))
            j >>= 1
        _DELTA_MASKS[side] = found
    return found


def transpose(masks: list[Mask], width: int) -> list[Mask]:
    """The ``width`` column masks of the matrix whose row masks are ``masks`` (bit c = column c).

    The rows are packed into one int (a square of power-of-two side, at least
    8 so rows are whole bytes), transposed by log2(side) delta swaps, and
    read back: about 0.5 ms for 512 x 512, where setting bits one by one
    costs about 0.3 microseconds a bit.
    """
    side = 8
    while side < len(masks) or side < width:
        side <<= 1
    nbytes = side >> 3
    x = int.from_bytes(b"".join(m.to_bytes(nbytes, "little") for m in masks), "little")
    for shift, mask in _delta_masks(side):
        t = (x ^ (x >> shift)) & mask
        x ^= t ^ (t << shift)
    buf = x.to_bytes(nbytes * side, "little")
    fb = int.from_bytes
    return [fb(buf[i * nbytes:(i + 1) * nbytes], "little") for i in range(width)]


#: Grids with a longer side than this never use the transposition (its masks would take
#: over 100 MB, and a sweep's cells one by one cost less).
TRANSPOSE_MAX_SIDE = 4096


def scatter_limit(side: int) -> int:
    """How many new cells are set one by one, on a grid whose longer side is ``side``, before a transposition pays.

    A cell costs about 0.3 microseconds; a transposition of the padded
    ``side`` x ``side`` square about 2 ns a bit at side 512, 4.5 ns at 4096.
    """
    if side > TRANSPOSE_MAX_SIDE:
        return 1 << 62
    return 32 + (side * side >> (7 if side <= 1024 else 6))


def _push(changes: list[tuple[int, Mask]], nbits: int, masks: list[Mask], width: int,
          cross: list[Mask], dirty: list[bool]) -> None:
    """Copy the new cells of one colour from a swept axis to the crossing lines.

    ``changes`` lists ``(line, new cells)``; ``nbits`` is their total count.
    Up to :func:`scatter_limit` cells are set one by one; more (a large grid
    early on) by transposing the swept axis's masks.
    """
    if nbits <= scatter_limit(max(len(masks), width)):
        for i, bits in changes:
            _scatter(bits, i, cross, dirty)
        return
    for c, m in enumerate(transpose(masks, width)):
        if m != cross[c]:
            cross[c] = m
            dirty[c] = True


def propagate(
    state: GridState,
    solver: SolvesLines,
    dirty_rows: list[bool] | None = None,
    dirty_cols: list[bool] | None = None,
    deadline: float | None = None,
) -> Contradiction | None:
    """Run line solving on ``state`` (in place) to a fixpoint.

    A rectangle's :class:`GridState` takes the fast path (the bit masks, rows and columns swept
    in turn, the compiled fixpoint); any other geometry's
    :class:`~satnono.logic.lanes.LaneState` is propagated lane by lane
    (:func:`satnono.logic.lanes.propagate_state`).

    By default every line starts dirty.  Returns a :class:`Contradiction` if a
    line admits no placement, else None.  Raises :class:`Deadline` when the
    monotonic clock passes ``deadline``.

    A rectangle's extra lanes (its ``line`` rules: ``puzzle.lanes`` past the rows and columns)
    are lanes as the rows and columns are: after each fixpoint of the rows and columns, each extra
    lane whose cells changed is solved by the same ``solver`` (its cache; the compiled kernel of
    its kind) and what it settles makes its cells' rows and columns dirty again, until the rows,
    the columns and the extra lanes agree.  ``dirty_rows``/``dirty_cols`` given, an extra lane
    starts dirty when it has a cell in a dirty row or column.  Its contradiction is a lane's
    (``axis == "line"``).

    With rules (``puzzle.cell_rules``: every rule but the lanes; the givens, the first of
    ``puzzle.all_rules``, are set by :func:`initial_state`), each line fixpoint is followed by
    every rule's ``narrow``; the lines whose cells it changed are solved again, until neither
    lines nor rules change anything.  A rule's conflict is returned as the contradiction (it has
    ``describe`` too).
    """
    if not isinstance(state, GridState):  # another geometry: the lanes one by one
        from .lanes import propagate_state

        return propagate_state(state, solver, deadline)
    p = state.puzzle
    rules = p.cell_rules
    if dirty_rows is None:
        dirty_rows = [True] * state.height
    if dirty_cols is None:
        dirty_cols = [True] * state.width
    extra = p.lanes[state.height + state.width:] if p.line_rules else ()
    solved = _extra_start(state, extra, dirty_rows, dirty_cols) if extra else []
    after_rules = None  # the row masks when the rules last ran: what changed since is "touched"
    while True:
        bad = _lines_fixpoint(state, solver, dirty_rows, dirty_cols, deadline)
        if bad is not None:
            return bad
        if extra:
            bad, changed = _extra_sweep(state, solver, extra, p.line_clues, solved, dirty_rows, dirty_cols)
            if bad is not None:
                return bad
            if changed:  # the rows and columns through what the extra lines settled, again
                continue
        if not rules:
            return None
        rows_before = [ex[:] for ex in state.row_ex]
        touched = None if after_rules is None else _changed_cells(after_rules, rows_before)
        if touched is not None and not touched:
            return None  # nothing new since the rules last looked
        bad = narrow(rules, state, touched)
        if bad is not None:
            return bad
        after_rules = [ex[:] for ex in state.row_ex]
        changed = False
        for r, bits in enumerate(_changed_rows(rows_before, after_rules)):
            if bits:
                dirty_rows[r] = changed = True
                for c in bit_list(bits):
                    dirty_cols[c] = True
        if not changed:
            return None


def _extra_start(state: GridState, extra: Sequence[Lane], dirty_rows: list[bool],
                 dirty_cols: list[bool]) -> list[tuple[Mask, ...] | None]:
    """Per extra lane, its masks as if it had just been solved (it need not be solved at first), or
    None (it must be): a lane is solved at first when one of its cells is in a dirty row or column
    (every lane, when every line starts dirty)."""
    w = state.width
    out: list[tuple[Mask, ...] | None] = []
    for lane in extra:
        dirty = any(dirty_rows[cell // w] or dirty_cols[cell % w] for cell in lane.cells)
        out.append(None if dirty else state.lane_masks(lane))
    return out


def _extra_sweep(state: GridState, solver: SolvesLines, extra: Sequence[Lane], clues: Sequence[LineClue],
                 solved: list[tuple[Mask, ...] | None], dirty_rows: list[bool],
                 dirty_cols: list[bool]) -> tuple[Contradiction | None, bool]:
    """Solve once each extra lane (a ``line`` rule's) whose cells changed since it was last solved
    (``solved``: its masks then, updated here), with the same line solver as the rows and columns
    (its cache); mark the rows and columns of the cells it settles dirty.  The contradiction of a
    lane left without a placement, and whether any cell changed."""
    changed = False
    w = state.width
    for j, lane in enumerate(extra):
        ex = state.lane_masks(lane)
        if ex == solved[j]:
            continue
        clue, cells = clues[j], lane.cells
        res = solver.solve(clue, len(cells), ex)
        if res is None:
            return Contradiction(LINE, j, solver.solve(clue, len(cells), (0,) * len(ex)) is not None), changed
        after = res.excluded
        if after != ex:
            changed = True
            for v, (old, new) in enumerate(zip(ex, after)):
                for i in bit_list(new & ~old):
                    r, c = divmod(cells[i], w)
                    state.exclude(r, c, v)
                    dirty_rows[r] = dirty_cols[c] = True
        solved[j] = after
    return None, changed


def _changed_rows(before: list[list[Mask]], after: list[list[Mask]]) -> list[Mask]:
    """Per row, the cells whose exclusions differ between two copies of ``row_ex``."""
    out = [0] * len(before[0])
    for ex0, ex1 in zip(before, after):
        for r, (a, b) in enumerate(zip(ex0, ex1)):
            out[r] |= a ^ b
    return out


def _changed_cells(before: list[list[Mask]], after: list[list[Mask]]) -> set[tuple[int, int]]:
    """The cells whose exclusions differ between two copies of ``row_ex``."""
    return {(r, c) for r, bits in enumerate(_changed_rows(before, after)) for c in bit_list(bits)}



def _lines_fixpoint(
    state: GridState,
    solver: SolvesLines,
    dirty_rows: list[bool],
    dirty_cols: list[bool],
    deadline: float | None,
) -> Contradiction | None:
    """:func:`propagate` without rules: the lines alone to their fixpoint.

    A line is solved even when all its cells are known: that is where a line
    completed by crossing lines is checked against its own clue.
    """
    p = state.puzzle
    h, w = state.height, state.width
    row_clues, col_clues = p.row_clues, p.column_clues
    rex, cex = state.row_ex, state.col_ex
    if _native is not None and type(solver) is LineSolver and len(rex) == 2 and not p.has_blots:
        # black and white through the plain line solver: the same sweeps in C (NotImplemented:
        # a side beyond 4,096 cells, and the sweeps below do it)
        bad = _native_fixpoint(state, solver, dirty_rows, dirty_cols, deadline, _native)
        if bad is not NotImplemented:
            return bad
    while True:
        if deadline is not None and time.monotonic() > deadline:
            raise Deadline
        bad = _sweep(ROW, row_clues, w, rex, cex, dirty_rows, dirty_cols, solver)
        if bad is not None:
            return bad
        if deadline is not None and time.monotonic() > deadline:  # (and between the two sweeps: a
            raise Deadline                                        # large grid's take seconds each)
        bad = _sweep(COLUMN, col_clues, h, cex, rex, dirty_cols, dirty_rows, solver)
        if bad is not None:
            return bad
        if not any(dirty_rows) and not any(dirty_cols):
            return None


def _native_fixpoint(state: GridState, solver: LineSolver, dirty_rows: list[bool], dirty_cols: list[bool],
                     deadline: float | None, core) -> Contradiction | None:
    """:func:`_lines_fixpoint` of a black-and-white grid in the compiled core (``bw_fixpoint``:
    the same sweeps, so the same masks, dirty flags, line-solver calls and contradiction), or
    NotImplemented (nothing changed) for a grid it does not take (a side beyond 4,096 cells)."""
    p, rex, cex = state.puzzle, state.row_ex, state.col_ex
    r = core.bw_fixpoint(p.rows, p.columns, rex[0], rex[1], cex[0], cex[1], dirty_rows, dirty_cols,
                         deadline, time.monotonic)
    if r is NotImplemented:
        return r  # type: ignore[no-any-return]
    calls, what, index = r
    solver.calls += calls
    if what == 0:
        return None
    if what == 3:
        raise Deadline
    axis, clues, n = (ROW, p.row_clues, state.width) if what == 1 else (COLUMN, p.column_clues, state.height)
    return Contradiction(axis, index, solver.solve(clues[index], n, (0, 0)) is not None)


def _sweep(axis: str, clues, n: int, ex: list[list[Mask]], cross_ex: list[list[Mask]],
           dirty: list[bool], cross_dirty: list[bool], solver: SolvesLines) -> Contradiction | None:
    """Solve every dirty line of one axis once, then push each colour's new exclusions to the
    crossing lines.

    Two values (black and white, the common case) are read and written as a pair of
    locals, more values through a loop; the work is the same.
    """
    nvals = len(ex)
    news: list[list[tuple[int, Mask]]] = [[] for _ in range(nvals)]
    bad = None
    solve = solver.solve
    ex0, ex1 = ex[0], ex[1]
    new0, new1 = news[0], news[1]
    two = nvals == 2
    for i, is_dirty in enumerate(dirty):
        if not is_dirty:
            continue
        dirty[i] = False
        cur: tuple[Mask, ...]
        if two:
            old0, old1 = cur = (ex0[i], ex1[i])
        else:
            cur = tuple([e[i] for e in ex])
        res = solve(clues[i], n, cur)
        if res is None:
            bad = Contradiction(axis, i, solve(clues[i], n, (0,) * nvals) is not None)
            break
        after = res.excluded
        if two:
            a0, a1 = after
            if a0 != old0:
                ex0[i] = a0
                new0.append((i, a0 & ~old0))
            if a1 != old1:
                ex1[i] = a1
                new1.append((i, a1 & ~old1))
        elif after != cur:
            for exv, newv, a, old in zip(ex, news, after, cur):
                if a != old:
                    exv[i] = a
                    newv.append((i, a & ~old))
    for exv, newv, crossv in zip(ex, news, cross_ex):  # pushed even on a contradiction: both views agree
        _push(newv, sum([d.bit_count() for _, d in newv]), exv, n, crossv, cross_dirty)
    return bad
