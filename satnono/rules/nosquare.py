"""``no-square``: no 2x2 block of filled cells (or of cells of one colour)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .common import (Cell, Clause, Lit, ValueRule, Literals, RuleConflict, bits, fold, forbid, grid_values, has,
                     known_masks, neg)


@dataclass(frozen=True)
class NoSquare(ValueRule):
    """No 2x2 square whose four cells are all filled (all of colour ``color``, when given)."""

    color: str | None = None
    name = "no-square"
    value: int | None = None


    def squares(self) -> list[tuple[Cell, Cell, Cell, Cell]]:
        return [((r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1))
                for r in range(self.height - 1) for c in range(self.width - 1)]

    def narrow(self, state, touched=None) -> RuleConflict | None:
        # In the square with top-left (r, c): three known cells forbid the fourth.
        # Bit c of a = both of row r's cells c, c+1 known; likewise b for row r + 1.
        known = known_masks(state, self.value)
        for r in range(state.height - 1):
            k0, k1 = known[r], known[r + 1]
            a, b = k0 & (k0 >> 1), k1 & (k1 >> 1)
            full = a & b
            if full:
                c = (full & -full).bit_length() - 1
                return RuleConflict(self.name, f"the 2x2 square at rows {r + 1}-{r + 2}, columns {c + 1}-{c + 2} "
                                               f"is all {'filled' if self.value is None else repr(self.chars[self.value])}")
            for row, mask in ((r + 1, (a & (k1 >> 1)) | ((a & k1) << 1)),
                              (r, (b & (k0 >> 1)) | ((b & k0) << 1))):
                for c in bits(mask & ~known[row]):
                    forbid(state, row, c, self.value)
        return None

    def clauses(self, lit: Lit, new_var: Callable[[], int], state=None) -> list[Clause]:
        lits = Literals(lit, new_var, state, self.value, self.nvals)
        out: list[Clause] = []
        for sq in self.squares():
            cl = fold(neg(lits.of(*cell)) for cell in sq)
            if cl is not None:
                out.append(cl)
        return lits.extra + out

    def keep(self, values: list[list[int]], rng) -> list[list[int]]:
        for sq in self.squares():  # break each full square at a random corner
            if all(has(values[r][c], self.value) for r, c in sq):
                r, c = rng.choice(sq)
                values[r][c] = 0
        return values

    def accepts(self, grid: Sequence[str]) -> bool:
        vals = grid_values(grid, self.chars)
        return not any(all(has(vals[r][c], self.value) for r, c in sq) for sq in self.squares())

    def scope(self) -> Iterable[frozenset[Cell]]:
        return [frozenset(sq) for sq in self.squares()]


