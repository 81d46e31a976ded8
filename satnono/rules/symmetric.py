"""``symmetric``: the picture equals its mirror image."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .common import (BuiltinRule, Cell, Clause, Lit, Literals, RuleConflict, RuleError, bits, empty_cell,
                     fold, neg)
from ..lines.bits import reverse

AXES = ("left-right", "top-bottom", "rotate180", "transpose")


@dataclass(frozen=True)
class Symmetric(BuiltinRule):
    """Cell (r, c) has the value of its mirror image across ``axis``: ``left-right``
    (a vertical mirror line), ``top-bottom``, ``rotate180`` (point symmetry) or
    ``transpose`` (the main diagonal; square grids only)."""

    axis: str
    name = "symmetric"

    def __post_init__(self) -> None:
        if self.axis not in AXES:
            raise RuleError(f"rule symmetric: axis {self.axis!r} is not one of {', '.join(AXES)}")

    def bind(self, puzzle) -> "Symmetric":
        if self.axis == "transpose" and puzzle.height != puzzle.width:
            raise RuleError(f"rule symmetric: transpose needs a square grid, not {puzzle.width}x{puzzle.height}")
        b = dataclasses.replace(self)
        b._bound_to(puzzle)
        return b

    def mirror(self, r: int, c: int) -> Cell:
        h, w, a = self.height, self.width, self.axis
        if a == "left-right":
            return r, w - 1 - c
        if a == "top-bottom":
            return h - 1 - r, c
        if a == "rotate180":
            return h - 1 - r, w - 1 - c
        return c, r

    def pairs(self) -> list[tuple[Cell, Cell]]:
        """Each cell with its mirror image, once per pair (cells on the mirror line left out)."""
        out = []
        for r in range(self.height):
            for c in range(self.width):
                m = self.mirror(r, c)
                if (r, c) < m:
                    out.append(((r, c), m))
        return out

    def narrow(self, state, touched=None) -> RuleConflict | None:
        # Each cell takes on its mirror's exclusions; the mirror is an involution, so one
        # pass leaves both cells of every pair with the union of the two.
        h, w, a = state.height, state.width, self.axis
        for v in range(state.nvals):
            rows, cols = state.row_ex[v], state.col_ex[v]
            for r in range(h):
                if a == "left-right":
                    m = reverse(rows[r], w)
                elif a == "top-bottom":
                    m = rows[h - 1 - r]
                elif a == "rotate180":
                    m = reverse(rows[h - 1 - r], w)
                else:
                    m = cols[r]
                for c in bits(m & ~rows[r]):
                    state.exclude(r, c, v)
        bad = empty_cell(state)
        if bad is not None:
            r, c = bad
            mr, mc = self.mirror(r, c)
            return RuleConflict(self.name, f"row {r + 1} column {c + 1} and its mirror image "
                                           f"(row {mr + 1} column {mc + 1}) can have no common value")
        return None

    def clauses(self, lit: Lit, new_var: Callable[[], int], state=None) -> list[Clause]:
        out: list[Clause] = []
        pairs = self.pairs()
        for v in range(1, self.nvals):  # equal block colours imply equal backgrounds
            lits = Literals(lit, new_var, state, v, self.nvals)
            for a, b in pairs:
                x, y = lits.of(*a), lits.of(*b)
                for cl in ((neg(x), y), (x, neg(y))):
                    f = fold(cl)
                    if f is not None:
                        out.append(f)
        return out

    def keep(self, values: list[list[int]], rng) -> list[list[int]]:
        for (r, c), (mr, mc) in self.pairs():  # mirror drawing: the first half is copied
            values[mr][mc] = values[r][c]
        return values

    def accepts(self, grid: Sequence[str]) -> bool:
        return all(grid[r][c] == grid[m[0]][m[1]] for (r, c), m in self.pairs())

    def scope(self) -> Iterable[frozenset[Cell]]:
        return [frozenset(p) for p in self.pairs()]

    def as_json(self) -> dict[str, object]:
        return {"rule": self.name, "axis": self.axis}

    def text(self) -> str:
        return f"symmetric:{self.axis}"

    def step_text(self, r: int, c: int) -> str:
        """How an explanation words a cell this rule set."""
        mr, mc = self.mirror(r, c)
        return f"by symmetry ({self.axis}), row {r + 1} column {c + 1} equals row {mr + 1} column {mc + 1}"
