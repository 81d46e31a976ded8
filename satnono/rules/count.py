"""``count``: exactly, at least or at most N cells are filled (or have one colour)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Sequence

from .cardinality import at_least, at_most, exactly
from .common import (Cell, Clause, Lit, ValueRule, Literals, RuleConflict, RuleError, bits, forbid, force, grid_values,
                     has, known_masks, may_masks)

OPS = {"=": "exactly", ">=": "at least", "<=": "at most"}


@dataclass(frozen=True)
class Count(ValueRule):
    """``op`` (``=``, ``>=``, ``<=``) ``n`` cells are filled, or have colour ``color``
    (a palette character or name) when it is given."""

    op: str
    n: int
    color: str | None = None
    name = "count"
    value: int | None = None

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise RuleError(f"rule count: operator {self.op!r} is not one of =, >=, <=")
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 0:
            raise RuleError(f"rule count: n must be a whole number >= 0, not {self.n!r}")

    # bind() is ValueRule's: a count that asks for more cells than the grid has is well formed
    # (no input error), and no grid keeps it: narrow() says so, as for a clue too long for its row

    def _too_many(self) -> RuleConflict | None:
        """The conflict of an ``=`` or ``>=`` count above the number of cells of the grid."""
        cells = self.height * self.width
        if self.op == "<=" or self.n <= cells:
            return None
        return RuleConflict(self.name, f"{OPS[self.op]} {self.n} {self._what()} asked for, but the "
                                       f"{self.width}x{self.height} grid has {cells} cells", fits=False)

    def _params(self) -> dict[str, object]:
        return {"op": self.op, "n": self.n}

    def _spec(self) -> str:
        return f":{self.op}{self.n}"

    def narrow(self, state, touched=None) -> RuleConflict | None:
        too_many = self._too_many()
        if too_many is not None:
            return too_many
        known = known_masks(state, self.value)
        may = may_masks(state, self.value)
        k = sum(m.bit_count() for m in known)
        m = sum(x.bit_count() for x in may)
        n, op = self.n, self.op
        if op != ">=":
            if k > n:
                return RuleConflict(self.name, f"{k} {self._what()} are already known, at most {n} allowed")
            if k == n and m > k:  # the rest cannot have it
                for r in range(state.height):
                    for c in bits(may[r] & ~known[r]):
                        forbid(state, r, c, self.value)
        if op != "<=":
            if m < n:
                return RuleConflict(self.name, f"only {m} cells can still be among the {self._what()}, "
                                               f"at least {n} needed")
            if m == n and m > k:  # every cell that may have it has it
                for r in range(state.height):
                    for c in bits(may[r] & ~known[r]):
                        force(state, r, c, self.value)
        return None

    def clauses(self, lit: Lit, new_var: Callable[[], int], state=None) -> list[Clause]:
        lits = Literals(lit, new_var, state, self.value, self.nvals)
        xs: list[int] = []
        fixed = 0
        for r in range(self.height):
            for c in range(self.width):
                x = lits.of(r, c)
                if x is True:
                    fixed += 1
                elif x is not False:
                    xs.append(x)
        need = self.n - fixed
        card = {"=": exactly, ">=": at_least, "<=": at_most}[self.op](xs, need, new_var)
        return lits.extra + card

    def keep(self, values: list[list[int]], rng) -> list[list[int]]:
        cells = [(r, c) for r in range(len(values)) for c in range(len(values[0]))]
        have = [cell for cell in cells if has(values[cell[0]][cell[1]], self.value)]
        k, n = len(have), self.n
        if self._too_many() is not None:  # no picture keeps it: leave the picture
            return values
        if k > n and self.op != ">=":  # clear cells at random
            for r, c in rng.sample(have, k - n):
                values[r][c] = 0
        elif k < n and self.op != "<=":  # fill cells at random (in the rule's colour, or a random block colour)
            spare = [cell for cell in cells if not has(values[cell[0]][cell[1]], self.value)]
            for r, c in rng.sample(spare, min(n - k, len(spare))):
                values[r][c] = self.value if self.value is not None else rng.randrange(1, self.nvals)
        return values

    def accepts(self, grid: Sequence[str]) -> bool:
        vals = grid_values(grid, self.chars)
        k = sum(has(v, self.value) for row in vals for v in row)
        return {"=": k == self.n, ">=": k >= self.n, "<=": k <= self.n}[self.op]

    def scope(self) -> Iterable[frozenset[Cell]]:
        return [frozenset((r, c) for r in range(self.height) for c in range(self.width))]


