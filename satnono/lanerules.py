"""Rules over cells: what a puzzle of any geometry (:class:`~satnono.lanepuzzle.LanePuzzle`) keeps
besides its clues.

The rectangle's rules (:mod:`satnono.rules`) speak of rows and columns; these speak of the cells of
a :class:`~satnono.lanes.Geometry` (numbered ``0 .. cell_count - 1``) and its edge neighbours.
Three are built in, made from the same ``--rule`` text and JSON objects as the rectangle's
(:func:`lane_rule_from`):

* :class:`LaneCount` (``count:=N``, ``count:>=10:r``; ``{"rule": "count", "op": ">=", "n": 10,
  "color": "r"}``): exactly, at least or at most N cells are filled (have colour ``r``), as
  clauses over the cell variables with the cardinality encoding of
  :mod:`satnono.rules.cardinality`;
* :class:`LaneConnected` (``connected[:r]``): the filled cells (of colour ``r``) form one region
  of edge neighbours (:meth:`~satnono.lanes.Geometry.neighbours`: a triangle's three), encoded
  lazily: a picture that breaks it is cut off (:meth:`LaneConnected.cut`) and the search goes on;
* :class:`LaneGivens`: cells revealed to the player, the puzzle's ``givens`` (``(cell, value)``
  pairs): exclusions in the line-logic state before propagation (:meth:`LaneGivens.narrow`), and
  unit clauses.

A rule that has no meaning on a geometry is refused in one line (a :class:`~satnono.rules.RuleError`,
a ``ValueError``): ``symmetric`` (on any axis, for now), ``no-square`` (2x2 squares), ``line`` and
a rectangle's ``givens`` (rows and columns).

**The lane rule protocol** (:mod:`satnono.rules`'s, with cells for ``(row, column)`` pairs):

``name``
    a short name for messages.
``bind(puzzle) -> rule``
    check the rule against a :class:`~satnono.lanepuzzle.LanePuzzle` (a one-line ``ValueError``)
    and return a copy that knows its cells and palette.  Optional.
``narrow(state)``
    exclusions every solution has, made in a :class:`~satnono.logic.lanes.LaneState` once, before
    line logic (``state.excluded[cell]``: bit v set when the cell cannot have value v).  Optional.
``deduce(state) -> RuleConflict | None``
    what the rule forces given what a :class:`~satnono.logic.lanes.LaneState` knows (narrowed in
    place), taken after each fixpoint of line logic until nothing changes: by propagation
    (:func:`~satnono.logic.lanes.propagate_state`, so a triddler's line-solvable counts it as a
    rectangle's counts its rules' ``narrow``), the explanations and their probing
    (:mod:`satnono.explain`, :mod:`satnono.logic.probe`); the
    :class:`~satnono.rules.common.RuleConflict` when the state cannot keep the rule.  Sound, and
    monotone (more known cells force no fewer).  Optional.
``clauses(var, new_var, state=None) -> list of clauses``
    CNF over ``var(cell, v)``, the variable "cell has block colour v" (v >= 1), fresh variables
    from ``new_var()``.  With ``state``, the cells it knows **must** be folded to constants: the
    encoder leaves their variables free (black and white).
``cut(cells, var, state=None) -> clauses | None`` and ``lazy = True``
    clauses that exclude the picture ``cells`` (which the rule rejects) and no picture it
    accepts; the search adds them and goes on.  Optional.
``accepts(cells) -> bool``
    whether a complete picture (one palette character per cell, in cell order) keeps the rule;
    every picture satnono reports is checked with it.
``keep(values, rng) -> values``
    a drawn picture (a list of colour indices in cell order, 0 the background) changed, in place
    or anew, so that it keeps the rule, with ``rng`` (a :class:`random.Random`) for any choice:
    what :mod:`satnono.generation` draws with (``count`` fills or clears cells at random,
    ``connected`` keeps the largest region).  Optional: without it the generator only filters.
``as_json() -> dict`` and ``text() -> str``
    the rule as a puzzle file's JSON object and as ``--rule`` spells it.  Optional.

>>> from satnono.lanes import Triangle
>>> from satnono.lanepuzzle import LanePuzzle
>>> p = LanePuzzle.from_picture(Triangle.triangle(2), "#.##", rules=(lane_rule_from("count:=3"),))
>>> p.rules, p.breaks("#.##")
((LaneCount(op='=', n=3, color=None, value=None),), None)
>>> lane_rule_from("no-square", Triangle.triangle(2))
Traceback (most recent call last):
    ...
satnono.rules.common.RuleError: rule no-square: 2x2 squares have no meaning on a triangle geometry
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterable, Mapping, Sequence

from .rules.cardinality import at_least, at_most, exactly
from .rules.common import Clause, RuleConflict, RuleError, ValueWording, resolve_value

if TYPE_CHECKING:
    from .lanes import Geometry
    from .lanepuzzle import LanePuzzle

Var = Callable[[int, int], int]
"""``var(cell, v)``: the variable "``cell`` has block colour ``v``" (v >= 1)."""

OPS = {"=": "exactly", ">=": "at least", "<=": "at most"}


def _possible(state: Any, cell: int, nvals: int) -> list[int]:
    """The values ``cell`` may have: the state's, or every value without a state."""
    return list(range(nvals)) if state is None else state.possible(cell)


def _has(v: int, value: int | None) -> bool:
    return v > 0 if value is None else v == value


def _known_may(state: Any, value: int | None) -> tuple[list[int], list[int]]:
    """The cells of a :class:`~satnono.logic.lanes.LaneState` known to have ``value`` (to be
    filled, for None) and the cells that may still have it (the known ones among them)."""
    full = state.full
    mask = full & ~1 if value is None else 1 << value
    known, may = [], []
    for cell, ex in enumerate(state.excluded):
        if mask & ~ex:
            may.append(cell)
            if not full & ~ex & ~mask:
                known.append(cell)
    return known, may


def _forbid(state: Any, cells: Iterable[int], value: int | None) -> None:
    """The cells cannot have ``value`` (are background, for None)."""
    mask = state.full & ~1 if value is None else 1 << value
    for cell in cells:
        state.excluded[cell] |= mask


class LaneRule:
    """Base of the built-in lane rules: unbound (its parameters only) until :meth:`bind` returns a
    copy that knows the puzzle's cells, palette and geometry.  What binding learns is kept
    outside the dataclass fields, so two rules are equal when their parameters are."""

    name = "rule"
    lazy = False
    cells_count = 0
    nvals = 0
    chars = ""

    def bind(self, puzzle: LanePuzzle) -> LaneRule:
        b = dataclasses.replace(self)  # type: ignore[type-var]
        b._bound_to(puzzle)
        return b

    def _bound_to(self, puzzle: LanePuzzle) -> None:
        object.__setattr__(self, "cells_count", puzzle.geometry.cell_count)
        object.__setattr__(self, "nvals", len(puzzle.palette))
        object.__setattr__(self, "chars", "".join(c.char for c in puzzle.palette))

    def _values(self, cells: str) -> list[int]:
        index = {ch: i for i, ch in enumerate(self.chars)}
        return [index.get(ch, -1) for ch in cells]

    def clauses(self, var: Var, new_var: Callable[[], int], state: Any = None) -> list[Clause]:
        return []

    def cut(self, cells: str, var: Var, state: Any = None) -> list[Clause] | None:
        return None

    def accepts(self, cells: str) -> bool:
        raise NotImplementedError

    def as_json(self) -> dict[str, object]:
        raise NotImplementedError

    def text(self) -> str:
        raise NotImplementedError


class _ValueRule(ValueWording, LaneRule):
    """A rule about the filled cells, or with ``color`` (a palette character or name) the cells of
    that colour; :meth:`bind` resolves it to ``value``."""

    color: str | None
    value: int | None

    def bind(self, puzzle: LanePuzzle) -> LaneRule:
        b = dataclasses.replace(self, value=resolve_value(puzzle, self.color, self.name))  # type: ignore[type-var]
        b._bound_to(puzzle)
        return b

    def _literal(self, var: Var, new_var: Callable[[], int], state: Any, cell: int,
                 aux: list[Clause]) -> int | bool:
        """"``cell`` has the value" as a literal, or True / False when the state knows; a cell
        that may have several block colours (the value 'filled', in colour) gets a new variable
        f <-> OR of its colour variables (its clauses go to ``aux``)."""
        left = _possible(state, cell, self.nvals)
        colours = [v for v in left if _has(v, self.value)]
        if not colours:
            return False
        if len(colours) == len(left):
            return True
        if len(colours) == 1:
            return var(cell, colours[0])
        f = new_var()
        xs = [var(cell, v) for v in colours]
        aux.append([-f, *xs])
        aux += [[-x, f] for x in xs]
        return f


@dataclass(frozen=True)
class LaneCount(_ValueRule):
    """``op`` (``=``, ``>=``, ``<=``) ``n`` cells are filled, or have colour ``color`` when given.

    A count above the puzzle's cells (``=`` or ``>=``) is well formed and kept by no picture."""

    op: str
    n: int
    color: str | None = None
    value: int | None = None
    name = "count"

    def __post_init__(self) -> None:
        if self.op not in OPS:
            raise RuleError(f"rule count: operator {self.op!r} is not one of =, >=, <=")
        if isinstance(self.n, bool) or not isinstance(self.n, int) or self.n < 0:
            raise RuleError(f"rule count: n must be a whole number >= 0, not {self.n!r}")

    def _params(self) -> dict[str, object]:
        return {"op": self.op, "n": self.n}

    def _spec(self) -> str:
        return f":{self.op}{self.n}"

    def deduce(self, state: Any) -> RuleConflict | None:
        """With as many cells known to have the value as the count allows (``=``, ``<=``), no
        other cell has it; with only as many cells that may have it as it needs (``=``, ``>=``),
        every one of them has it (the rectangle's :class:`~satnono.rules.count.Count` words)."""
        known, may = _known_may(state, self.value)
        k, m, n = len(known), len(may), self.n
        if self.op != ">=":
            if k > n:
                return RuleConflict(self.name, f"{k} {self._what()} are already known, at most {n} allowed")
            if k == n and m > k:
                _forbid(state, sorted(set(may) - set(known)), self.value)
        if self.op != "<=":
            if m < n:
                return RuleConflict(self.name, f"only {m} cells can still be among the {self._what()}, "
                                               f"at least {n} needed")
            if m == n and m > k:
                full = state.full
                keep = full & ~1 if self.value is None else 1 << self.value
                for cell in may:
                    state.excluded[cell] |= full & ~keep
        return None

    def clauses(self, var: Var, new_var: Callable[[], int], state: Any = None) -> list[Clause]:
        aux: list[Clause] = []
        xs: list[int] = []
        fixed = 0
        for cell in range(self.cells_count):
            x = self._literal(var, new_var, state, cell, aux)
            if x is True:
                fixed += 1
            elif x is not False:
                xs.append(x)
        card = {"=": exactly, ">=": at_least, "<=": at_most}[self.op](xs, self.n - fixed, new_var)
        return aux + card

    def keep(self, values: list[int], rng: Any) -> list[int]:
        """A drawn picture (one colour index a cell, 0 the background) changed to keep the count,
        as the rectangle's :meth:`Count.keep <satnono.rules.count.Count.keep>` changes a grid:
        too many cells with the value, some chosen at random cleared; too few, some chosen at
        random among the others given it (in colour, for "filled", a random block colour).  A
        count above the cells is left as it is (no picture keeps it)."""
        n = self.n
        if self.op != "<=" and n > len(values):
            return values
        have = [cell for cell, v in enumerate(values) if _has(v, self.value)]
        k = len(have)
        if k > n and self.op != ">=":
            for cell in rng.sample(have, k - n):
                values[cell] = 0
        elif k < n and self.op != "<=":
            spare = [cell for cell, v in enumerate(values) if not _has(v, self.value)]
            for cell in rng.sample(spare, min(n - k, len(spare))):
                values[cell] = self.value if self.value is not None else rng.randrange(1, self.nvals)
        return values

    def accepts(self, cells: str) -> bool:
        k = sum(_has(v, self.value) for v in self._values(cells))
        return {"=": k == self.n, ">=": k >= self.n, "<=": k <= self.n}[self.op]


def regions(cells: Iterable[int], neighbours: Sequence[Sequence[int]]) -> list[list[int]]:
    """The regions of edge neighbours (``neighbours[c]``: the cells next to ``c``) of a set of
    cells, each in the order a search found it, the regions in order of their least cell."""
    chosen = set(cells)
    seen: set[int] = set()
    out = []
    for start in sorted(chosen):
        if start in seen:
            continue
        seen.add(start)
        region, todo = [], [start]
        while todo:
            c = todo.pop()
            region.append(c)
            for d in neighbours[c]:
                if d in chosen and d not in seen:
                    seen.add(d)
                    todo.append(d)
        out.append(region)
    return out


@dataclass(frozen=True)
class LaneConnected(_ValueRule):
    """The filled cells (the cells of colour ``color``, when given) form one region of edge
    neighbours of the geometry (no cells at all, too).

    Encoded lazily: for a picture that breaks it, :meth:`cut` gives, for each region C but the
    largest, a cell x of C, a cell y of the largest region and C's border B (the neighbours of C
    outside it, none of which has the value in that picture) the clause

        not x  or  not y  or  (some cell of B has the value)

    Every connected picture in which x and y have the value joins them by a path that leaves C
    through a cell of B, so the clause keeps every such picture and removes the rejected one."""

    color: str | None = None
    value: int | None = None
    name = "connected"
    lazy = True
    neighbours: tuple[tuple[int, ...], ...] = dataclasses.field(default=(), compare=False, repr=False)
    geometry: ClassVar[Any] = None
    """The bound puzzle's geometry (:meth:`bind` sets it), which names cells in a conflict."""

    def bind(self, puzzle: LanePuzzle) -> LaneRule:
        b = super().bind(puzzle)
        g = puzzle.geometry
        object.__setattr__(b, "neighbours", tuple(tuple(g.neighbours(c)) for c in range(g.cell_count)))
        object.__setattr__(b, "geometry", g)
        return b

    def deduce(self, state: Any) -> RuleConflict | None:
        """The cells that may still have the value fall into regions of edge neighbours: every
        known one must lie in one region, and then no cell of another region has the value (the
        rectangle's :class:`~satnono.rules.connected.Connected` words)."""
        known, may = _known_may(state, self.value)
        if not known:
            return None
        inside = set(known)
        found = regions(may, self.neighbours)
        holding = [region for region in found if inside.intersection(region)]
        if len(holding) > 1:
            from .lanes import cell_name

            a, b = (cell_name(self.geometry, min(inside.intersection(r))) for r in holding[:2])
            return RuleConflict(self.name, f"the {self._what()} at {a} and at {b} can no longer be joined")
        _forbid(state, (c for region in found if region is not holding[0] for c in region), self.value)
        return None

    def _regions(self, cells: str) -> list[list[int]]:
        return regions((c for c, v in enumerate(self._values(cells)) if _has(v, self.value)), self.neighbours)

    def cut(self, cells: str, var: Var, state: Any = None) -> list[Clause] | None:
        found = sorted(self._regions(cells), key=len)
        if len(found) < 2:
            return None
        vals = self._values(cells)
        y = found[-1][0]
        out: list[Clause] = []
        for region in found[:-1]:
            x = region[0]
            inside = set(region)
            border = sorted({d for c in region for d in self.neighbours[c] if d not in inside})
            clause: list[int] = []
            for cell in (x, y):  # x and y with the colour they have in this picture
                v = vals[cell]
                if _possible(state, cell, self.nvals) != [v]:  # else "not x" is false: left out
                    clause.append(-var(cell, v))
            satisfied = False
            for b in border:
                left = _possible(state, b, self.nvals)
                colours = [v for v in left if _has(v, self.value)]
                if colours and len(colours) == len(left):  # the state says b has the value
                    satisfied = True
                    break
                clause += [var(b, v) for v in colours]
            if not satisfied:
                out.append(clause)
        return out

    def keep(self, values: list[int], rng: Any) -> list[int]:
        """A drawn picture (one colour index a cell, 0 the background) changed to keep the rule,
        as the rectangle's :meth:`Connected.keep <satnono.rules.connected.Connected.keep>`
        changes a grid: the largest region of the cells with the value (of edge neighbours; the
        first found of the largest, in order of their least cell) is kept, the cells of every
        other region become background."""
        found = regions((c for c, v in enumerate(values) if _has(v, self.value)), self.neighbours)
        if len(found) > 1:
            biggest = max(found, key=len)
            for region in found:
                if region is not biggest:
                    for cell in region:
                        values[cell] = 0
        return values

    def accepts(self, cells: str) -> bool:
        return len(self._regions(cells)) <= 1


@dataclass(frozen=True)
class LaneGivens(LaneRule):
    """Cell ``cell`` has colour index ``v`` (0 the background) for every ``(cell, v)`` of
    ``cells``: a puzzle's givens (:attr:`~satnono.lanepuzzle.LanePuzzle.givens`), which every
    consumer sees as this rule, first in :attr:`~satnono.lanepuzzle.LanePuzzle.all_rules`."""

    cells: tuple[tuple[int, int], ...]
    name = "givens"

    def bind(self, puzzle: LanePuzzle) -> LaneRule:
        n, k = puzzle.geometry.cell_count, len(puzzle.palette)
        for cell, v in self.cells:
            if not (0 <= cell < n and 0 <= v < k):
                raise RuleError(f"rule givens: [{cell}, {v}] is outside the puzzle's {n} cells or its palette")
        return super().bind(puzzle)

    def narrow(self, state: Any) -> None:
        """Every value but the given one excluded (a cell the state already excludes it from is
        left with none: line logic then finds a lane with no placement)."""
        for cell, v in self.cells:
            state.excluded[cell] |= state.full & ~(1 << v)

    def clauses(self, var: Var, new_var: Callable[[], int], state: Any = None) -> list[Clause]:
        out: list[Clause] = []
        for cell, v in self.cells:
            if state is not None and state.possible(cell) == [v]:
                continue
            if v:
                out.append([var(cell, v)])
            else:
                out += [[-var(cell, u)] for u in range(1, self.nvals)]
        return out

    def accepts(self, cells: str) -> bool:
        return all(cells[cell] == self.chars[v] for cell, v in self.cells)

    def as_json(self) -> dict[str, object]:
        return {"rule": self.name, "cells": [list(t) for t in self.cells]}

    def text(self) -> str:
        return f"givens ({len(self.cells)} cells)"


def _geometry_text(geometry: Geometry | None) -> str:
    return "a geometry other than the rectangle" if geometry is None else f"a {geometry.kind} geometry"


def lane_rule_from(rule: Any, geometry: Geometry | None = None) -> Any:
    """The lane version of a rectangle rule (a built-in rule of :mod:`satnono.rules`, bound or
    unbound, as :func:`~satnono.rules.rule_from_spec` and :func:`~satnono.rules.rule_from_json`
    make them), unbound; also of its ``--rule`` text or JSON object.  A lane rule (or any other
    object, taken for one: see the protocol above) is returned as it is.

    Raises:
        RuleError: a malformed spec, or a rule that has no meaning on ``geometry`` (one line,
            naming the rule and the geometry): ``symmetric`` (any axis, for now), ``no-square``,
            ``line``, a rectangle's ``givens``.

    >>> lane_rule_from({"rule": "count", "op": ">=", "n": 10, "color": "r"})
    LaneCount(op='>=', n=10, color='r', value=None)
    >>> lane_rule_from("connected")
    LaneConnected(color=None, value=None)
    """
    if isinstance(rule, str) or isinstance(rule, Mapping):
        from .rules.spec import rule_from_json, rule_from_spec

        rule = rule_from_spec(rule) if isinstance(rule, str) else rule_from_json(rule)
    if isinstance(rule, LaneRule):
        return rule
    from .rules.common import BuiltinRule

    if not isinstance(rule, BuiltinRule):
        return rule
    where = _geometry_text(geometry)
    name = rule.name
    if name == "count":
        return LaneCount(rule.op, rule.n, rule.color)  # type: ignore[attr-defined]
    if name == "connected":
        return LaneConnected(rule.color)  # type: ignore[attr-defined]
    if name == "symmetric":
        raise RuleError(f"rule {rule.text()}: symmetry is not supported on {where}, on any axis (for now)")
    if name == "no-square":
        if geometry is not None and geometry.kind == "rectangle":
            raise RuleError(f"rule {rule.text()}: not supported on the lanes of {where} (a grid puzzle takes it)")
        raise RuleError(f"rule {rule.text()}: 2x2 squares have no meaning on {where}")
    if name == "line":
        raise RuleError(f"rule line: its cells are (row, column) pairs, which {where} has not")
    if name == "givens":
        raise RuleError(f"rule givens: its cells are (row, column) pairs, which {where} has not "
                        f"(give the puzzle's givens as (cell, value) pairs)")
    raise RuleError(f"rule {name}: not supported on {where}")


def normalise_givens(givens: Iterable[Sequence[int]], cells: int, values: int) -> tuple[tuple[int, int], ...]:
    """Givens as sorted ``(cell, value)`` pairs, each checked: a cell of ``0 .. cells - 1``, a
    value of ``0 .. values - 1``, a cell given once (twice alike is once).

    Raises:
        ValueError: a malformed pair, a cell or value out of range, a cell given two values
            (one line).
    """
    out: dict[int, int] = {}
    for g in givens:
        if (not isinstance(g, (tuple, list)) or len(g) != 2
                or any(isinstance(x, bool) or not isinstance(x, int) for x in g)):
            raise ValueError(f"a given cell is (cell, value), two whole numbers, got {g!r}"[:200])
        cell, v = g
        if not 0 <= cell < cells:
            raise ValueError(f"given cell {cell} is outside the puzzle's {cells} cells (0..{cells - 1})")
        if not 0 <= v < values:
            raise ValueError(f"given cell {cell} has value {v}, not 0..{values - 1}")
        if out.setdefault(cell, v) != v:
            raise ValueError(f"given cell {cell} is given twice with different values")
    return tuple(sorted(out.items()))


__all__ = ["LaneConnected", "LaneCount", "LaneGivens", "LaneRule", "lane_rule_from", "normalise_givens", "regions"]
