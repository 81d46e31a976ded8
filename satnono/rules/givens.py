"""``givens``: cells revealed to the player, the first rule.

``Puzzle.givens`` holds them as ``(row, col, colour index)`` triples (read and
written by the JSON format as ``"givens"``); every consumer sees them as this
rule, first in :attr:`satnono.model.Puzzle.all_rules`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .common import BuiltinRule, Cell, Clause, Lit, RuleError


@dataclass(frozen=True)
class Givens(BuiltinRule):
    """Cell (r, c) has colour index v for every ``(r, c, v)`` of ``cells`` (0 the background)."""

    cells: tuple[tuple[int, int, int], ...]
    name = "givens"

    def bind(self, puzzle) -> "Givens":
        for r, c, v in self.cells:
            if not (0 <= r < puzzle.height and 0 <= c < puzzle.width and 0 <= v < len(puzzle.palette)):
                raise RuleError(f"rule givens: cell [{r}, {c}, {v}] is outside the puzzle or its palette")
        b = Givens(tuple(self.cells))
        b._bound_to(puzzle)
        return b

    def narrow(self, state, touched=None):
        # A cell given a value the state excludes is left with none; propagation then
        # reports the contradiction on a line through it.
        for r, c, v in self.cells:
            state.set_cell(r, c, v)
        return None

    def clauses(self, lit: Lit, new_var: Callable[[], int], state=None) -> list[Clause]:
        out: list[Clause] = []
        for r, c, v in self.cells:
            if state is not None and state.possible(r, c) == [v]:
                continue
            if v:
                out.append([lit(r, c, v)])
            else:
                out += [[-lit(r, c, u)] for u in range(1, self.nvals)]
        return out

    def accepts(self, grid: Sequence[str]) -> bool:
        return all(grid[r][c] == self.chars[v] for r, c, v in self.cells)

    def scope(self) -> Iterable[frozenset[Cell]]:
        return [frozenset([(r, c)]) for r, c, _ in self.cells]

    def as_json(self) -> dict[str, object]:
        return {"rule": self.name, "cells": [list(t) for t in self.cells]}

    def text(self) -> str:
        return f"givens ({len(self.cells)} cells)"
