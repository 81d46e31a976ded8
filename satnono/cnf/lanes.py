"""The CNF of what line logic left open, over lanes: any geometry's cells, one clue per lane.

Variables: cell ``c`` has block colour ``v`` (1..K) is ``c * K + v`` (in black and white, K = 1:
cell ``c`` is filled is ``c + 1``); no colour variable true is the background.  Every lane with an
open cell gets the clauses of :func:`satnono.cnf.ladders.line_clauses` (the order-encoded block
starts that rows and columns get, blotted lanes included), from the kernel's valid starts at the
state.  What the state knows of the cells of those lanes is folded in as constants in black and
white and pinned by unit clauses in colour, so every model agrees with the state (the cells of
no encoded lane are known, and read from the state).

Extra rules (:mod:`satnono.lanerules`) add their clauses over the same variables
(``rule.clauses(var, new_var, state)``: a ``count`` as a cardinality encoding), the cells the
state knows folded to constants, with fresh variables after the lanes'; a lazy rule
(``connected``) adds nothing here, and :meth:`LaneEncoding.cut` gives the clauses that cut off a
picture it rejects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from ..clues import LineClue
from ..lines import SolvesLines
from ..logic.lanes import LaneState
from .ladders import line_clauses


@dataclass
class LaneEncoding:
    """The clauses, their variable count and how to read a model."""

    colours: int
    """K, the block colours."""
    clauses: list[list[int]] = field(default_factory=list)
    nvars: int = 0
    open_cells: list[int] = field(default_factory=list)
    """The cells line logic left open (a solution is read from their variables)."""
    allowed: dict[int, list[int]] = field(default_factory=dict)
    """The values each open cell may still have."""
    lanes: int = 0
    """How many lanes were encoded."""
    state: LaneState | None = None
    """The state the clauses were made at (rules fold the cells it knows)."""
    selectors: dict[tuple[str, int], int] = field(default_factory=dict)
    """With selectors (:func:`encode_lanes`): the literal that switches each lane's clauses on, by
    ``(family, index)``, and each rule's, by ``("rule", i)``."""

    def var(self, cell: int, v: int) -> int:
        """The variable "``cell`` has block colour ``v``" (v >= 1)."""
        return cell * self.colours + v

    def value(self, model: Sequence[int], cell: int) -> int:
        """The value a model gives an open cell (0 the background)."""
        for v in range(1, self.colours + 1):
            x = self.var(cell, v)
            if x <= len(model) and model[x - 1] > 0:
                return v
        return 0

    def cut(self, rule: Any, cells: str) -> list[list[int]] | None:
        """The clauses a lazy ``rule`` gives to cut off the picture ``cells`` (which it rejects),
        over this encoding's variables and state; None when it has none."""
        f = getattr(rule, "cut", None)
        return None if f is None else f(cells, self.var, self.state)

    # What the settle pipeline (:meth:`satnono.solve.Checker.settle`) and counting ask of any
    # encoding, as :class:`satnono.cnf.encode.Encoding` has it for a rectangle.
    unsat: bool = False
    """True when a lane with no placement was encoded (its empty clause)."""
    fed: bool = False
    """Always False: the clauses are kept (:meth:`clause_data`)."""

    @property
    def nclauses(self) -> int:
        return len(self.clauses)

    @property
    def ncolors(self) -> int:
        return self.colours

    @property
    def unknown_cells(self) -> list[int]:
        """The open cells (:attr:`open_cells`), under :class:`~satnono.cnf.encode.Encoding`'s name."""
        return self.open_cells

    def clause_data(self) -> list[list[int]]:
        return self.clauses

    def color_var(self, cell: int, v: int) -> int:
        """:meth:`var`, under the name rules' ``cut`` is handed (:func:`satnono.solve.rule_cuts`)."""
        return self.var(cell, v)

    def model_of(self, picture: str, chars: str) -> list[int]:
        """A model that gives the open cells their values in ``picture`` (a solution known
        beforehand), for :meth:`blocking_clause` and :meth:`phases`."""
        model = [-(i + 1) for i in range(self.nvars)]
        for cell in self.open_cells:
            v = chars.index(picture[cell])
            if v:
                model[self.var(cell, v) - 1] = self.var(cell, v)
        return model

    def phases(self, model: Sequence[int], with_ladders: bool = False) -> list[int]:
        """The model's literals on the open cells' variables (to search near it); lanes carry
        no hints, so ``with_ladders`` adds nothing."""
        n = len(model)
        return [model[x - 1] for cell in self.open_cells for v in range(1, self.colours + 1)
                if (x := self.var(cell, v)) <= n]

    def picture(self, model: Sequence[int]) -> str:
        """The solution a model gives: the state's known cells, the model's values of the open ones."""
        assert self.state is not None and self.state.puzzle is not None
        chars = self.state.puzzle.chars
        cells = list(self.state.picture(chars))
        for cell in self.open_cells:
            cells[cell] = chars[self.value(model, cell)]
        return "".join(cells)

    def blocking_clause(self, model: Sequence[int]) -> list[int]:
        """The clause that every assignment of the open cells but the model's keeps."""
        out: list[int] = []
        for cell in self.open_cells:
            v = self.value(model, cell)
            if v:
                out.append(-self.var(cell, v))
            else:
                out += [self.var(cell, u) for u in self.allowed[cell] if u]
        return out


def encode_lanes(state: LaneState, lanes: Sequence[Sequence[int]], clues: Sequence[LineClue],
                 solver: SolvesLines, rules: Sequence[Any] = (),
                 selectors: Sequence[tuple[str, int]] | None = None) -> LaneEncoding:
    """The clauses of ``lanes`` (``clues``, one a lane) at ``state``, a fixpoint of
    :func:`satnono.logic.lanes.propagate` (every lane has a placement there), and those of
    ``rules`` (lane rules, :mod:`satnono.lanerules`).

    ``selectors``: each lane's key (``(family, index)``); then every lane is encoded (whatever
    the state knows of it) with each of its clauses behind a fresh selector literal, kept in
    :attr:`LaneEncoding.selectors` by that key, and each rule's behind one keyed ``("rule", i)``:
    assumed true, the lane's clue holds (for unsatisfiable cores over lanes; a lane with no
    placement is then the clause ``[-selector]``, not a contradiction of the whole)."""
    k = state.values - 1
    enc = LaneEncoding(k, state=state)
    enc.open_cells = state.open_cells()
    enc.allowed = {cell: state.possible(cell) for cell in enc.open_cells}
    is_open = set(enc.open_cells)
    next_var = len(state.excluded) * k + 1
    encoded: set[int] = set()  # the cells of the encoded lanes
    guard: int | None = None
    for k_lane, (cells, clue) in enumerate(zip(lanes, clues)):
        if selectors is None and not any(cell in is_open for cell in cells):
            continue
        if selectors is not None:
            guard = enc.selectors[selectors[k_lane]] = next_var
            next_var += 1
        encoded.update(cells)
        ex = state.lane_excluded(cells)
        res = solver.solve(clue, len(cells), ex)
        if res is None:  # not a fixpoint: the lane has no placement
            if guard is None:
                enc.clauses.append([])
                enc.unsat = True
            else:
                enc.clauses.append([-guard])
            continue

        def lit(i: int, v: int, cells: Sequence[int] = cells) -> int:
            return enc.var(cells[i], v)

        if k == 1 and not clue.blots:  # black and white: the known cells folded in as constants
            cls, next_var = line_clauses(next_var, clue, len(cells), res, ex, lit, lambda i, cells=cells: enc.var(cells[i], 1))
        else:
            cls, next_var = line_clauses(next_var, clue, len(cells), res, res.excluded, lit)
        enc.clauses += cls if guard is None else [[-guard, *cl] for cl in cls]
        enc.lanes += 1
    if k > 1 or any(clue.blots for clue in clues):  # pin what the state knows of the cells encoded
        for cell in sorted(encoded):
            left = state.possible(cell)
            enc.clauses += [[-enc.var(cell, v)] for v in range(1, k + 1) if v not in left]
            if 0 not in left:
                enc.clauses.append([enc.var(cell, v) for v in left])
    for i, rule in enumerate(rules):
        if selectors is not None:
            guard = enc.selectors[("rule", i)] = next_var
            next_var += 1
        made = [next_var]

        def new_var(made: list[int] = made) -> int:
            made[0] += 1
            return made[0] - 1

        cls = rule.clauses(enc.var, new_var, state)
        enc.clauses += cls if selectors is None else [[-guard, *cl] for cl in cls]  # type: ignore[operator]
        next_var = made[0]
    enc.nvars = next_var - 1
    return enc


__all__ = ["LaneEncoding", "encode_lanes"]
