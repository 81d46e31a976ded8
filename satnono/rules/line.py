"""``line``: an extra line of any cells (a diagonal, a ring, ...) with its own clue.

It is solved by the same line kernels as rows and columns and encoded by the
same order-encoded block starts, so what holds for a row holds for it.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from ..clues import LineClue, line_blocks
from ..lines import solve_clue
from .common import BuiltinRule, Cell, Clause, Lit, RuleConflict, RuleError, bits


def _clue_text(lengths: Sequence[int], colors: Sequence[int], chars: str) -> str:
    if not lengths:
        return "0"
    if len(set(colors)) <= 1 and len(chars) <= 2:
        return " ".join(map(str, lengths))
    return " ".join(f"{n}{chars[v]}" for n, v in zip(lengths, colors))


@dataclass(frozen=True)
class Line(BuiltinRule):
    """The cells ``cells`` (0-based ``(row, col)``, in reading order) read as one line
    satisfy ``clue``: block lengths, or ``[length, colour]`` pairs in colour."""

    cells: tuple[Cell, ...]
    clue: tuple[object, ...]
    name = "line"
    lengths: tuple[int, ...] = ()
    colors: tuple[int, ...] = ()

    def bind(self, puzzle) -> "Line":
        h, w = puzzle.height, puzzle.width
        cells = []
        for cell in self.cells:
            if (not isinstance(cell, (list, tuple)) or len(cell) != 2
                    or not all(isinstance(x, int) and not isinstance(x, bool) for x in cell)):
                raise RuleError(f"rule line: a cell must be [row, col], not {cell!r}")
            r, c = cell
            if not (0 <= r < h and 0 <= c < w):
                raise RuleError(f"rule line: cell [{r}, {c}] is outside the {w}x{h} grid")
            cells.append((r, c))
        if not cells:
            raise RuleError("rule line: the line has no cells")
        if len(set(cells)) != len(cells):
            raise RuleError("rule line: a cell appears twice in the line")
        lengths, colors = [], []
        index = {}
        for i, col in enumerate(puzzle.palette):
            if i:
                index[col.char] = index[col.name] = index[i] = i
        for block in self.clue:
            if isinstance(block, (list, tuple)) and len(block) == 2:
                n, col = block
            else:
                n, col = block, 1
            if isinstance(n, bool) or not isinstance(n, int) or n < 0:
                raise RuleError(f"rule line: a clue length must be a whole number >= 0, not {n!r}")
            if col not in index or (isinstance(col, bool)):
                raise RuleError(f"rule line: colour {col!r} is not in the puzzle's palette")
            if n:
                lengths.append(n)
                colors.append(index[col])
        b = dataclasses.replace(self, cells=tuple(cells), lengths=tuple(lengths), colors=tuple(colors))
        b._bound_to(puzzle)
        return b

    def clue_text(self) -> str:
        return _clue_text(self.lengths, self.colors, self.chars)

    def _excluded(self, state) -> tuple[int, ...]:
        out = []
        for ex in state.row_ex:
            m = 0
            for i, (r, c) in enumerate(self.cells):
                m |= ((ex[r] >> c) & 1) << i
            out.append(m)
        return tuple(out)

    def _solve(self, state, ex: tuple[int, ...]) -> tuple[int, ...] | None:
        res = solve_clue(self._clue(), len(self.cells), ex)
        return None if res is None else res.excluded

    def _clue(self) -> LineClue:
        return LineClue(self.lengths, self.colors)

    def narrow(self, state, touched=None) -> RuleConflict | None:
        ex = self._excluded(state)
        after = self._solve(state, ex)
        if after is None:
            need = self._clue().min_length()
            if need > len(self.cells):  # the clue cannot fit at all: no solution, as for a row or column
                return RuleConflict(self.name, f"clue {self.clue_text()} needs {need} cells but the extra line "
                                               f"{self._cells_text()} has {len(self.cells)}", fits=False)
            return RuleConflict(self.name, f"clue {self.clue_text()} cannot be placed in the extra line's cells "
                                           f"{self._cells_text()}")
        for v, (old, new) in enumerate(zip(ex, after)):
            for i in bits(new & ~old):
                r, c = self.cells[i]
                state.exclude(r, c, v)
        return None

    def _cells_text(self) -> str:
        shown = ", ".join(f"({r + 1},{c + 1})" for r, c in self.cells[:4])
        return shown + (", ..." if len(self.cells) > 4 else "")

    def clauses(self, lit: Lit, new_var: Callable[[], int], state=None) -> list[Clause]:
        """The line's order-encoded clauses over the cells' variables; the block-start
        variables are taken from ``new_var`` (which must count up by one)."""
        from ..cnf.ladders import line_clauses  # the line clauses (the one place that writes them)

        n = len(self.cells)
        ex = self._excluded(state) if state is not None else tuple(0 for _ in range(self.nvals))
        res = solve_clue(self._clue(), n, ex)
        if res is None:
            return [[]]
        first = new_var()
        cells = self.cells
        cell = (lambda i: lit(cells[i][0], cells[i][1], 1)) if self.nvals == 2 else None
        cl, nv = line_clauses(first, self._clue(), n, res, ex if cell else res.excluded,
                              lambda i, v: lit(cells[i][0], cells[i][1], v), cell)
        if cell is None:
            # what the line's cells cannot be, as units (as the encoder does for rows and columns)
            for i, (r, c) in enumerate(self.cells):
                left = [v for v in range(self.nvals) if not (res.excluded[v] >> i) & 1]
                cl += [[-lit(r, c, v)] for v in range(1, self.nvals) if v not in left]
                if 0 not in left:
                    cl.append([lit(r, c, v) for v in left])
        for _ in range(nv - first - 1):
            new_var()
        return cl

    def keep(self, values: list[list[int]], rng) -> list[list[int]]:
        # draw the clue's blocks into the line's cells at a random placement: the slack
        # (cells beyond the minimum) is shared out among the k + 1 gaps uniformly
        n, k = len(self.cells), len(self.lengths)
        gaps = [0] + [int(a == b) for a, b in zip(self.colors, self.colors[1:])] + [0]
        slack = n - sum(self.lengths) - sum(gaps)
        if slack < 0:  # the clue cannot fit: no picture keeps the rule
            return values
        cuts = sorted(rng.randrange(slack + 1) for _ in range(k))
        extra = [b - a for a, b in zip([0] + cuts, cuts + [slack])]
        line = []
        for j in range(k):
            line += [0] * (gaps[j] + extra[j]) + [self.colors[j]] * self.lengths[j]
        line += [0] * (n - len(line))
        for (r, c), v in zip(self.cells, line):
            values[r][c] = v
        return values

    def accepts(self, grid: Sequence[str]) -> bool:
        cells = "".join(grid[r][c] for r, c in self.cells)
        index = {ch: i for i, ch in enumerate(self.chars)}
        if any(ch not in index for ch in cells):
            return False
        lengths, colors = line_blocks(cells, index)
        return lengths == self.lengths and colors == self.colors

    def scope(self) -> Iterable[frozenset[Cell]]:
        return [frozenset(self.cells)]

    def as_json(self) -> dict[str, object]:
        return {"rule": self.name, "cells": [list(c) for c in self.cells], "clue": [
            b if not isinstance(b, tuple) else list(b) for b in self.clue]}

    def text(self) -> str:
        return f"line {self._cells_text()} clue {self.clue_text()}"
