"""``line``: an extra line of any cells (a diagonal, a ring, ...) with its own clue.

The rule is one more lane of the puzzle (:meth:`Line.lane`; the lane ``("line", j)`` of
:attr:`~satnono.model.Puzzle.lanes` for the puzzle's j-th line rule, "extra line j + 1" to
people): it is propagated by the same line kernels as rows and columns, with their cache, encoded
by the same order-encoded block starts and cut into segments as they are, so what holds for a
row holds for it.  The rule object itself is what files hold and what verifies a solution.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Sequence

from ..clues import LineClue, line_blocks
from .common import BuiltinRule, Cell, RuleError, cells_text


@dataclass(frozen=True)
class Line(BuiltinRule):
    """The cells ``cells`` (0-based ``(row, col)``, in reading order) read as one line
    satisfy ``clue``: block lengths, or ``[length, colour]`` pairs in colour.

    A lane of the puzzle (:meth:`lane`): it has no narrowing, clauses or scope of its own (the
    base's, which do nothing); the puzzle propagates, encodes and splits it as a lane."""

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
        """The clue as a person reads it (as a row's: ``3 1``, in colour ``3a 1b``, ``0``)."""
        return LineClue(self.lengths, self.colors).text(self.chars, len(self.chars) > 2)

    def lane(self) -> tuple[tuple[Cell, ...], LineClue]:
        """The extra lane this rule is: its cells ``(r, c)`` in reading order, and its clue."""
        return self.cells, LineClue(self.lengths, self.colors)

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

    def as_json(self) -> dict[str, object]:
        return {"rule": self.name, "cells": [list(c) for c in self.cells], "clue": [
            b if not isinstance(b, tuple) else list(b) for b in self.clue]}

    def text(self) -> str:
        return f"line {cells_text(self.cells)} clue {self.clue_text()}"
