"""Checkers of explanations against independent truth, one per kind of puzzle (black and white,
colour), used by ``tests/test_explain.py``.

Black and white (``bw_*``): the replay state is the grid of known cells ('#', '.', '?').  A line
step's cells are forced by its line alone given the cells known before it: brute force over the
line's placements (lines up to :data:`BW_BRUTE_MAX` cells) or the complete line solver (longer
lines); its technique name is true (the simple rule behind it, computed here by brute force, yields
those cells); a probe step's chain replays (each chain step sound in turn) to a line with no
placement.

Colour (``color_*``): the replay state, :class:`Replay`, is a set of possible colours per cell,
kept here alone.  What a line step claims (settled cells, and colours ruled out of unsettled
cells) is new and forced by its line alone given the state before it: brute force over the line's
placements (``tests/_oracles.py``) on short lines, the complete colour line solver on long ones;
its technique's own simple rule, recomputed here by brute force, yields exactly what it claims;
every probe step's chain replays to a line with no placement.
"""

from __future__ import annotations

import itertools

from _oracles import brute_line, color_line_placements

from satnono import Puzzle
from satnono.explain.draw import replay
from satnono.lines import LineSolver, solve_color_line, solve_line
from satnono.model import BLACK, WHITE, line_clue
from satnono.logic.propagate import propagate
from satnono.logic.state import GridState

BW_BRUTE_MAX = 14  # black-and-white lines up to this length are checked by enumerating all 2^n fillings
COLOR_BRUTE_MAX = 12  # colour lines up to this length are checked by enumerating their placements



# --------------------------------------------------------------------------------------------------
# black and white


def _placements(clue: tuple[int, ...], known: str) -> list[str]:
    """Every filling of the line that has clue ``clue`` and agrees with ``known`` ('#', '.', '?')."""
    n = len(known)
    out = []
    for bits in itertools.product(".#", repeat=n):
        s = "".join(bits)
        if all(k == "?" or k == ch for k, ch in zip(known, s)) and line_clue(s) == clue:
            out.append(s)
    return out


def _starts(s: str) -> list[int]:
    return [i for i in range(len(s)) if s[i] == BLACK and (i == 0 or s[i - 1] == WHITE)]


def _line_of(grid, axis: str, index: int) -> str:
    if axis == "row":
        return grid[index]
    return "".join(row[index] for row in grid)


def _masks(line: str) -> tuple[int, int]:
    b = sum(1 << i for i, ch in enumerate(line) if ch == BLACK)
    w = sum(1 << i for i, ch in enumerate(line) if ch == WHITE)
    return b, w


def bw_check_line_step(puzzle: Puzzle, grid, step) -> None:
    """Assert that ``step`` is forced by its line alone and that its technique name is true."""
    clue = puzzle.rows[step.index] if step.axis == "row" else puzzle.columns[step.index]
    assert tuple(step.clue) == clue
    known = _line_of(grid, step.axis, step.index)
    n = len(known)
    pos = {}
    for r, c, v in step.cells:
        p = c if step.axis == "row" else r
        assert (r == step.index) if step.axis == "row" else (c == step.index), "a cell off the step's line"
        assert known[p] == "?", "a step claims a cell that was already known"
        pos[p] = v
    assert pos, "a step that settles nothing"
    if n <= BW_BRUTE_MAX:
        fits = _placements(clue, known)
        assert fits, "the line had no placement before the step"
        for p, v in pos.items():
            assert all(f[p] == v for f in fits), f"{step.text}: cell {p} is not forced"
        _bw_technique(step, clue, known, fits, pos)
    else:
        b, w = _masks(known)
        res = solve_line(clue, n, b, w)
        assert res is not None
        for p, v in pos.items():
            assert (res.black if v == BLACK else res.white) >> p & 1, f"{step.text}: cell {p} is not forced"


def _bw_technique(step, clue, known: str, fits: list[str], pos: dict[int, str]) -> None:
    """The simple rule behind the technique name, by brute force, yields the step's cells."""
    t = step.technique
    n = len(known)
    unknown = {i for i, ch in enumerate(known) if ch == "?"}
    black = {p for p, v in pos.items() if v == BLACK}
    white = {p for p, v in pos.items() if v == WHITE}
    starts = [sorted({_starts(f)[j] for f in fits}) for j in range(len(clue))]
    if t == "empty":
        assert not clue and white == unknown
    elif t == "complete":
        assert known.count(BLACK) == sum(clue) and white == unknown and not black
    elif t == "fill":
        assert n - known.count(WHITE) == sum(clue) and black == unknown and not white
    elif t in ("edge", "fixed"):
        cover = set()
        for j, c in enumerate(clue):
            if len(starts[j]) == 1:
                s = starts[j][0]
                cover |= set(range(s - 1, s + c + 1))
        assert set(pos) <= cover
    elif t == "overlap":
        assert not white
        for p in black:
            assert any(max(starts[j]) <= p < min(starts[j]) + c for j, c in enumerate(clue))
    elif t == "gap":
        assert not black
        for p in white:
            a = p
            while a > 0 and known[a - 1] != WHITE:
                a -= 1
            b = p
            while b < n - 1 and known[b + 1] != WHITE:
                b += 1
            assert b - a + 1 < min(clue) and BLACK not in known[a:b + 1]
    elif t == "reach":
        assert not black
        for p in white:
            assert not any(min(starts[j]) <= p < max(starts[j]) + c for j, c in enumerate(clue))
    else:
        assert t == "placements" and step.placements == len(fits)


def bw_check_steps(puzzle: Puzzle, steps, known=None) -> tuple[str, ...]:
    """Check every step in order (probe chains recursively); return the grid reached."""
    grid = tuple(known or ["?" * puzzle.width] * puzzle.height)
    for before, stp in replay(puzzle, steps, grid):
        assert before == grid
        if stp.kind == "line":
            bw_check_line_step(puzzle, before, stp)
        else:
            bw_check_probe_step(puzzle, before, stp)
        rows = [list(r) for r in grid]
        for r, c, v in stp.cells:
            rows[r][c] = v
        grid = tuple("".join(r) for r in rows)
    return grid


def bw_check_probe_step(puzzle: Puzzle, grid, stp) -> None:
    r, c, assumed = stp.probe
    assert grid[r][c] == "?"
    assert stp.cells == [(r, c, WHITE if assumed == BLACK else BLACK)]
    trial = [list(row) for row in grid]
    trial[r][c] = assumed
    trial = tuple("".join(x) for x in trial)
    end = bw_check_steps(puzzle, stp.chain, trial)
    line = _line_of(end, stp.axis, stp.index)
    clue = puzzle.rows[stp.index] if stp.axis == "row" else puzzle.columns[stp.index]
    b, w = _masks(line)
    assert solve_line(clue, len(line), b, w) is None, "the refutation does not end in a line without placement"
    if len(line) <= BW_BRUTE_MAX:
        assert not _placements(clue, line)
    nested = [s.depth for s in stp.chain if s.kind == "probe"]
    assert stp.depth >= 1 + max(nested, default=0)
    assert stp.technique == ("probe" if stp.depth == 1 else "probe2")


def fixpoint_grid(puzzle: Puzzle) -> tuple[str, ...]:
    state = GridState(puzzle)
    assert propagate(state, LineSolver()) is None
    from satnono.explain import state_grid

    return state_grid(state)


# --------------------------------------------------------------------------------------------------
# colour


class Replay:
    """Possible colour indices per cell, changed only by what steps claim."""

    def __init__(self, puzzle: Puzzle, known=None) -> None:
        self.p = puzzle
        self.index = {ch: v for v, ch in enumerate(puzzle.chars)}
        nv = len(puzzle.palette)
        self.poss = [[set(range(nv)) for _ in range(puzzle.width)] for _ in range(puzzle.height)]
        for r, row in enumerate(known or ()):
            for c, ch in enumerate(row):
                if ch != "?":
                    self.poss[r][c] = {self.index[ch]}

    def copy(self) -> "Replay":
        other = Replay.__new__(Replay)
        other.p, other.index = self.p, self.index
        other.poss = [[set(x) for x in row] for row in self.poss]
        return other

    def cells(self, axis: str, i: int) -> list[set[int]]:
        if axis == "row":
            return self.poss[i]
        return [row[i] for row in self.poss]

    def excluded(self, axis: str, i: int) -> tuple[int, ...]:
        cells = self.cells(axis, i)
        return tuple(sum(1 << k for k, s in enumerate(cells) if v not in s) for v in range(len(self.p.palette)))

    def claims(self, stp) -> dict[tuple[int, int], set[int]]:
        """The colours each touched cell loses by the step, checked to be well formed."""
        out: dict[tuple[int, int], set[int]] = {}
        for r, c, ch in stp.cells:
            assert len(ch) == 1 and ch in self.index
            v = self.index[ch]
            assert v in self.poss[r][c] and len(self.poss[r][c]) > 1, "a settled cell that was known or impossible"
            out[(r, c)] = self.poss[r][c] - {v}
        for r, c, chars in stp.excluded:
            gone = {self.index[ch] for ch in chars}
            assert gone and gone <= self.poss[r][c], "an exclusion that is not new"
            assert len(self.poss[r][c] - gone) > 1, "a cell left with one colour must be listed as settled"
            assert (r, c) not in out
            out[(r, c)] = gone
        return out

    def apply(self, stp) -> None:
        for (r, c), gone in self.claims(stp).items():
            self.poss[r][c] -= gone

    def grid(self) -> tuple[str, ...]:
        chars = self.p.chars
        return tuple("".join(chars[next(iter(s))] if len(s) == 1 else "?" for s in row) for row in self.poss)


def color_check_line_step(rp: Replay, stp) -> None:
    p = rp.p
    lengths, colors = p.line(stp.axis, stp.index)
    assert tuple(stp.clue) == lengths and stp.colors == "".join(p.chars[v] for v in colors)
    claims = rp.claims(stp)
    assert claims, "a step that changes nothing"
    line_cells = rp.cells(stp.axis, stp.index)
    n = len(line_cells)
    pos: dict[int, set[int]] = {}
    for (r, c), gone in claims.items():
        assert (r == stp.index) if stp.axis == "row" else (c == stp.index), "a cell off the step's line"
        pos[c if stp.axis == "row" else r] = gone
    ex = rp.excluded(stp.axis, stp.index)
    if n <= COLOR_BRUTE_MAX:
        fits = [(cells, starts) for cells, starts in color_line_placements(lengths, colors, n)
                if all(value_of(ch) in line_cells[k] for k, ch in enumerate(cells))]
        assert fits, "the line had no placement before the step"
        for k, gone in pos.items():
            assert all(value_of(f[k]) not in gone for f, _ in fits), f"{stp.text}: cell {k} is not forced"
        assert brute_line(lengths, colors, n, ex) is not None
        check_color_technique(stp, lengths, colors, line_cells, fits, pos)
    else:
        res = solve_color_line(lengths, colors, n, ex)
        assert res is not None
        for k, gone in pos.items():
            assert all((res.excluded[v] >> k) & 1 for v in gone), f"{stp.text}: cell {k} is not forced"
        if stp.technique == "placements":
            assert stp.placements and stp.placements > 0


def value_of(ch: str) -> int:
    """The colour index of a character as the oracles write it ('.' is 0, 'a' is 1, ...)."""
    return 0 if ch == "." else ord(ch) - ord("a") + 1


def check_color_technique(stp, lengths, colors, line_cells, fits, pos) -> None:
    """The technique's simple rule, by brute force, yields exactly the step's claims."""
    t = stp.technique
    n = len(line_cells)
    nv = max(max(s) for s in line_cells) + 1 if line_cells else 1
    nv = max(nv, max(colors, default=0) + 1)
    may = [{k for k in range(n) if v in line_cells[k]} for v in range(nv)]
    claimed = {(k, v) for k, gone in pos.items() for v in gone}
    starts = [sorted({s[j] for _, s in fits}) for j in range(len(lengths))]
    known = {k: next(iter(s)) for k, s in enumerate(line_cells) if len(s) == 1}
    present = set(colors)
    if t == "empty":
        assert not lengths and claimed == {(k, v) for v in range(1, nv) for k in may[v]}
    elif t == "absent":
        assert lengths
        assert claimed == {(k, v) for v in range(1, nv) if v not in present for k in may[v]}
    elif t == "complete":
        for k, v in claimed:
            total = sum(c for c, col in zip(lengths, colors) if col == v)
            assert v in present and sum(1 for x in known.values() if x == v) == total
            assert known.get(k) != v
        done = {v for _, v in claimed}
        assert claimed == {(k, v) for v in done for k in may[v] if known.get(k) != v}
    elif t == "fill":
        coloured = set().union(*(may[v] for v in present)) if present else set()
        assert len(coloured) == sum(lengths)
        assert claimed == {(k, 0) for k in coloured if k in may[0]}
    elif t in ("edge", "fixed"):
        rule = set()
        for j, (c, col) in enumerate(zip(lengths, colors)):
            if len(starts[j]) == 1:
                s = starts[j][0]
                rule |= {(k, v) for k in range(s, s + c) for v in range(nv) if v != col and k in may[v]}
                rule |= {(k, col) for k in (s - 1, s + c) if 0 <= k < n and k in may[col]}
        assert claimed and claimed <= rule
    elif t == "overlap":
        for k, v in claimed:
            assert any(max(starts[j]) <= k < min(starts[j]) + c and v != col
                       for j, (c, col) in enumerate(zip(lengths, colors)))
    elif t == "reach":
        for k, v in claimed:
            assert v in present
            assert not any(col == v and min(starts[j]) <= k < max(starts[j]) + c
                           for j, (c, col) in enumerate(zip(lengths, colors)))
    else:
        assert t == "placements" and stp.placements == len(fits)
        forced = {(k, v) for k in range(n) for v in range(nv)
                  if v in line_cells[k] and all(value_of(f[k]) != v for f, _ in fits)}
        assert claimed == forced


def color_check_steps(puzzle: Puzzle, steps, rp: Replay | None = None) -> Replay:
    rp = rp or Replay(puzzle)
    for stp in steps:
        if stp.kind == "line":
            color_check_line_step(rp, stp)
        else:
            color_check_probe_step(rp, stp)
        rp.apply(stp)
    return rp


def color_check_probe_step(rp: Replay, stp) -> None:
    r, c, assumed = stp.probe
    v = rp.index[assumed]
    assert v in rp.poss[r][c] and len(rp.poss[r][c]) > 1
    assert rp.claims(stp) == {(r, c): {v}}, "a probe rules out exactly the assumed colour"
    trial = rp.copy()
    trial.poss[r][c] = {v}
    end = color_check_steps(rp.p, stp.chain, trial)
    lengths, colors = rp.p.line(stp.axis, stp.index)
    n = len(end.cells(stp.axis, stp.index))
    ex = end.excluded(stp.axis, stp.index)
    assert solve_color_line(lengths, colors, n, ex) is None, "the refutation does not end in a line without placement"
    if n <= COLOR_BRUTE_MAX:
        assert brute_line(lengths, colors, n, ex) is None
    nested = [s.depth for s in stp.chain if s.kind == "probe"]
    assert stp.depth >= 1 + max(nested, default=0)
    assert stp.technique == ("probe" if stp.depth == 1 else "probe2")


def fixpoint_exclusions(puzzle: Puzzle) -> list[list[int]]:
    state = GridState(puzzle)
    propagate(state, LineSolver())
    return [list(x) for x in state.row_ex]


def replay_exclusions(rp: Replay) -> list[list[int]]:
    nv = len(rp.p.palette)
    return [[sum(1 << c for c, s in enumerate(row) if v not in s) for row in rp.poss] for v in range(nv)]
