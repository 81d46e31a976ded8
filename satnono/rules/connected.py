"""``connected``: the filled cells (or the cells of one colour) form one 4-connected region.

Connectivity is too big to encode up front, so it is encoded lazily: a solution
that breaks it is cut off with one clause per extra region and the search goes
on.  For a region C of the rejected grid, its border B (the 4-neighbours of C
outside it, all without the value in that grid), a cell x of C and a cell y of
another region, every connected grid in which x and y have the value joins
them by a path, and that path leaves C through a cell of B:

    not x  or  not y  or  (some cell of B has the value)

The rejected grid breaks the clause (x, y have the value, B has none of it),
so each cut removes it and no grid the rule accepts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from .common import (Cell, Clause, Lit, ValueRule, RuleConflict, bits, forbid, fold, grid_values, has,
                     known_masks, may_masks)


def _regions(cells: set[Cell]) -> list[list[Cell]]:
    """The 4-connected regions of a set of cells."""
    seen: set[Cell] = set()
    out = []
    for start in sorted(cells):
        if start in seen:
            continue
        seen.add(start)
        region, todo = [], [start]
        while todo:
            r, c = todo.pop()
            region.append((r, c))
            for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
                if nb in cells and nb not in seen:
                    seen.add(nb)
                    todo.append(nb)
        out.append(region)
    return out


def _cells(masks: Sequence[int]) -> set[Cell]:
    return {(r, c) for r, m in enumerate(masks) for c in bits(m)}


@dataclass(frozen=True)
class Connected(ValueRule):
    """The filled cells (the cells of colour ``color``, when given) form one 4-connected region."""

    color: str | None = None
    name = "connected"
    lazy = True
    value: int | None = None



    def narrow(self, state, touched=None) -> RuleConflict | None:
        # The regions of the cells that may still have the value: every known one must lie
        # in a single region, and once one is known, the other regions cannot have it.
        known = _cells(known_masks(state, self.value))
        if not known:
            return None
        regions = _regions(_cells(may_masks(state, self.value)))
        holding = [reg for reg in regions if known.intersection(reg)]
        if len(holding) > 1:
            (r1, c1), (r2, c2) = min(known.intersection(holding[0])), min(known.intersection(holding[1]))
            return RuleConflict(self.name, f"the {self._what()} at row {r1 + 1} column {c1 + 1} and at row {r2 + 1} "
                                           f"column {c2 + 1} can no longer be joined")
        for reg in regions:
            if reg is not holding[0]:
                for r, c in reg:
                    forbid(state, r, c, self.value)
        return None

    def _has(self, lit: Lit, state, r: int, c: int) -> list[int] | bool:
        """The literals of "cell (r, c) has the value" (one of them true), or a constant."""
        left = state.possible(r, c) if state is not None else list(range(self.nvals))
        vs = [v for v in left if has(v, self.value)]
        if not vs:
            return False
        if len(vs) == len(left):
            return True
        return [lit(r, c, v) for v in vs]

    def cut(self, grid: Sequence[str], lit: Lit, state=None) -> list[Clause] | None:
        vals = grid_values(grid, self.chars)
        cells = {(r, c) for r, row in enumerate(vals) for c, v in enumerate(row) if has(v, self.value)}
        regions = sorted(_regions(cells), key=len)
        if len(regions) < 2:
            return None
        h, w = len(vals), len(vals[0])
        y = regions[-1][0]
        out: list[Clause] = []
        for reg in regions[:-1]:
            x = reg[0]
            border = {nb for r, c in reg for nb in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                      if 0 <= nb[0] < h and 0 <= nb[1] < w and nb not in cells}
            lits: list[int | bool] = []
            for (r, c), sign in ((x, -1), (y, -1)):  # x and y with the colour they have in this grid
                v = vals[r][c]
                known = state is not None and state.possible(r, c) == [v]
                lits.append(False if known else sign * lit(r, c, v))
            for r, c in sorted(border):
                hv = self._has(lit, state, r, c)
                lits.extend(hv if isinstance(hv, list) else [hv])
            cl = fold(lits)
            if cl is not None:
                out.append(cl)
        return out

    def keep(self, values: list[list[int]], rng) -> list[list[int]]:
        cells = {(r, c) for r, row in enumerate(values) for c, v in enumerate(row) if has(v, self.value)}
        regions = _regions(cells)
        if len(regions) > 1:  # keep the largest region
            biggest = max(regions, key=len)
            for reg in regions:
                if reg is not biggest:
                    for r, c in reg:
                        values[r][c] = 0
        return values

    def accepts(self, grid: Sequence[str]) -> bool:
        vals = grid_values(grid, self.chars)
        cells = {(r, c) for r, row in enumerate(vals) for c, v in enumerate(row) if has(v, self.value)}
        return len(_regions(cells)) <= 1

    def scope(self) -> Iterable[frozenset[Cell]]:
        return [frozenset((r, c) for r in range(self.height) for c in range(self.width))]


