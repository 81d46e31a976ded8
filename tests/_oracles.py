"""Oracles shared by tests: simple implementations that the library's faster code is checked against.

Brute force, independent of satnono's kernels and solver: :func:`brute_clue` solves one line of
any kind (black and white, colour, blotted) by trying every colouring; :func:`brute_bw_line` and
:func:`brute_line` are the black-and-white and colour line oracles by placements;
:func:`brute_force_solutions` and :func:`grid_solutions` enumerate the solutions of small
black-and-white and colour grids (:func:`puzzle_solutions`: either, by the puzzle's kind).

:func:`palette` (and ``PAL2``) builds the small test palettes the colour tests share.

:func:`probe` is single-cell contradiction probing written plainly (every value of every open
cell, no budget, no ordering, no shortcuts), the independent check of the explanations'
depth-1 grade (:class:`satnono.logic.probe.Prober`).  It lived in ``satnono.classify``.
"""

from __future__ import annotations

import functools
import itertools
from collections import defaultdict

from satnono.clues import LineClue
from satnono.lines import LineSolver
from satnono.model import BW_PALETTE, Color, Puzzle, default_rgb, line_clue
from satnono.logic.propagate import propagate
from satnono.logic.state import Contradiction, GridState


def probe(state: GridState, lines: LineSolver, deadline: float | None = None) -> Contradiction | None:
    """Single-cell contradiction probing, in place, repeated until nothing changes.

    Each unknown cell is given each value it may still have (black, then
    white; in colour each colour, then the background) and propagated from
    its row and column; a value that contradicts is excluded from the cell
    (which is propagated at once).  Returns a :class:`Contradiction` if the
    puzzle turns out to have no solution.  Raises :class:`~satnono.logic.state.Deadline`.
    """
    h, w = state.height, state.width
    changed = True
    while changed:
        changed = False
        for r, c in state.unknown_cells():
            for value in sorted(state.possible(r, c), reverse=True):
                if state.cell(r, c) is not None:
                    break
                if value not in state.possible(r, c):
                    continue
                trial = state.copy()
                trial.set_cell(r, c, value)
                if _propagate_from(trial, lines, r, c, h, w, deadline) is not None:
                    state.exclude(r, c, value)
                    bad = _propagate_from(state, lines, r, c, h, w, deadline)
                    if bad is not None:
                        return bad
                    changed = True
    return None


def _propagate_from(state: GridState, lines: LineSolver, r: int, c: int, h: int, w: int,
                    deadline: float | None) -> Contradiction | None:
    dr = [False] * h
    dc = [False] * w
    dr[r] = True
    dc[c] = True
    return propagate(state, lines, dr, dc, deadline)


def palette(k: int) -> tuple[Color, ...]:
    """White background and ``k`` block colours named c1..ck, written a, b, c, ..."""
    return (BW_PALETTE[0],) + tuple(Color(f"c{v}", chr(ord("a") + v - 1), default_rgb(v)) for v in range(1, k + 1))


PAL2 = palette(2)


# --- brute force: lines and grids, independent of satnono's kernels and solver -------------------
#
# A black-and-white line is a string over "#" / "."; a colour line a string over "." (background,
# colour 0) and chr(ord("a") + v - 1) for colour v >= 1.


def bw_line_placements(clue: tuple[int, ...], n: int) -> list[str]:
    """Every string of n cells over '#'/'.' whose clue is ``clue`` (by trying all 2^n)."""
    return ["".join(bits) for bits in itertools.product(".#", repeat=n) if line_clue("".join(bits)) == clue]


def brute_force_solutions(p: Puzzle, limit: int | None = None) -> list[tuple[str, ...]]:
    """All solutions of a black-and-white puzzle by enumerating row placements and checking columns."""
    rows = [bw_line_placements(c, p.width) for c in p.rows]
    out = []
    for combo in itertools.product(*rows):
        if all(line_clue("".join(col)) == clue for col, clue in zip(zip(*combo), p.columns)):
            out.append(tuple(combo))
            if limit is not None and len(out) >= limit:
                break
    return out


def brute_bw_line(clue: tuple[int, ...], n: int, black: int, white: int):
    """(forced black, forced white, valid starts per block) of a black-and-white line, or None,
    by trying all 2^n strings."""
    full = (1 << n) - 1
    can_b = can_w = 0
    starts = [0] * len(clue)
    found = False
    for bits in itertools.product(".#", repeat=n):
        s = "".join(bits)
        if line_clue(s) != clue:
            continue
        m = sum(1 << i for i, ch in enumerate(s) if ch == "#")
        if m & white or black & ~m:
            continue
        found = True
        can_b |= m
        can_w |= full & ~m
        pos = 0
        for j, c in enumerate(clue):
            i = s.index("#" * c, pos)
            starts[j] |= 1 << i
            pos = i + c + 1
    if not found:
        return None
    return full & ~can_w, full & ~can_b, tuple(starts)


def char_of(v: int) -> str:
    return "." if v == 0 else chr(ord("a") + v - 1)


def blocks_of(cells: str) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """(lengths, colours) of a colour line string, by run splitting."""
    lengths: list[int] = []
    colors: list[int] = []
    for ch, run in itertools.groupby(cells):
        if ch != ".":
            lengths.append(len(list(run)))
            colors.append(ord(ch) - ord("a") + 1)
    return tuple(lengths), tuple(colors)


def color_line_placements(lengths, colors, n: int) -> list[tuple[str, tuple[int, ...]]]:
    """Every (line string, block starts) of n cells with exactly these blocks (by recursion)."""
    out: list[tuple[str, tuple[int, ...]]] = []
    k = len(lengths)

    def rec(j: int, pos: int, prefix: str, starts: tuple[int, ...]) -> None:
        if j == k:
            out.append((prefix + "." * (n - pos), starts))
            return
        gap = 1 if j > 0 and colors[j] == colors[j - 1] else 0
        for s in range(pos + gap, n - lengths[j] + 1):
            rec(j + 1, s + lengths[j], prefix + "." * (s - pos) + char_of(colors[j]) * lengths[j], starts + (s,))

    rec(0, 0, "", ())
    return out


def brute_line(lengths, colors, n: int, excluded: tuple[int, ...]):
    """(excluded after, starts) for one colour line by enumeration, or None when nothing fits."""
    nvals = len(excluded)
    can = [0] * nvals
    starts = [0] * len(lengths)
    found = False
    for cells, st in color_line_placements(lengths, colors, n):
        vals = [0 if ch == "." else ord(ch) - ord("a") + 1 for ch in cells]
        if any((excluded[v] >> i) & 1 for i, v in enumerate(vals)):
            continue
        found = True
        for i, v in enumerate(vals):
            can[v] |= 1 << i
        for j, s in enumerate(st):
            starts[j] |= 1 << s
    if not found:
        return None
    full = (1 << n) - 1
    return tuple(full & ~c for c in can), tuple(starts)


def grid_solutions(rows, row_colors, columns, column_colors, limit: int | None = None) -> list[tuple[str, ...]]:
    """All solutions of a colour puzzle by enumerating row placements and checking columns."""
    w = len(columns)
    per_row = [[cells for cells, _ in color_line_placements(ls, cs, w)] for ls, cs in zip(rows, row_colors)]
    want = list(zip(columns, column_colors))
    out = []
    for combo in itertools.product(*per_row):
        if all(blocks_of("".join(col)) == want[c] for c, col in enumerate(zip(*combo))):
            out.append(tuple(combo))
            if limit is not None and len(out) >= limit:
                break
    return out



def puzzle_solutions(p: Puzzle, limit: int | None = None) -> list[tuple[str, ...]]:
    """All solutions of a puzzle of either kind, by the brute force of its kind."""
    if p.is_color:
        return grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors, limit=limit)
    return brute_force_solutions(p, limit=limit)


@functools.cache
def colourings(n: int, k: int) -> dict[tuple[int, ...], list[tuple]]:
    """Every colouring of n cells with values 0..k, keyed by the colours of its runs:
    a list of (lengths, starts, last cells, values)."""
    by: dict[tuple[int, ...], list[tuple]] = defaultdict(list)
    for vals in itertools.product(range(k + 1), repeat=n):
        lengths, starts, ends, colors = [], [], [], []
        i = 0
        for v, run in itertools.groupby(vals):
            m = len(list(run))
            if v:
                colors.append(v)
                lengths.append(m)
                starts.append(i)
                ends.append(i + m - 1)
            i += m
        by[tuple(colors)].append((tuple(lengths), tuple(starts), tuple(ends), vals))
    return by


def brute_clue(clue: LineClue, n: int, excluded: tuple[int, ...]):
    """Any kind of line (black and white, colour, blotted): ``(excluded after, starts, ends)``, or
    None when nothing fits, by trying every colouring of the n cells with the values
    ``0..len(excluded) - 1`` and keeping those whose runs are the clue's blocks (a blotted block:
    any length).  Nothing of the kernels' method is reused; meant for n up to ~8."""
    nvals = len(excluded)
    lo, hi = clue.ranges(n)
    can = [0] * nvals
    st = [0] * len(lo)
    en = [0] * len(lo)
    found = False
    for lengths, starts, ends, vals in colourings(n, nvals - 1).get(tuple(clue.colors), ()):
        if not all(a <= m <= b for a, m, b in zip(lo, lengths, hi)):
            continue
        if any((excluded[v] >> i) & 1 for i, v in enumerate(vals)):
            continue
        found = True
        for i, v in enumerate(vals):
            can[v] |= 1 << i
        for j in range(len(lo)):
            st[j] |= 1 << starts[j]
            en[j] |= 1 << ends[j]
    if not found:
        return None
    full = (1 << n) - 1
    return tuple(full & ~c for c in can), tuple(st), tuple(en)
