"""What the built-in rules share: errors, conflicts, colour binding, grid masks and literals.

A rule speaks of a *value* (a colour index of the puzzle, 0 the background)
or of *filled* cells (any value but the background).  ``value=None`` means
filled.  The masks below are per row, bit c = column c, read off a
:class:`~satnono.logic.state.GridState` (``row_ex[v][r]``: cells of row r that
cannot have value v).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator, Sequence

from ..errors import SatnonoError

Cell = tuple[int, int]
Clause = list[int]
Lit = Callable[[int, int, int], int]
"""``lit(r, c, v)``: the variable "cell (r, c) has block colour v" (v >= 1)."""


class RuleError(SatnonoError, ValueError):
    """A rule's parameters are wrong for the puzzle (one line, naming the rule)."""


@dataclass(frozen=True)
class RuleConflict:
    """Why a rule proved that no solution exists (the rule's counterpart of a line contradiction)."""

    rule: str
    reason: str
    axis: str = "rule"
    index: int = -1
    fits: bool = True

    def describe(self, puzzle: object = None) -> str:
        return f"rule {self.rule}: {self.reason}"


def resolve_value(puzzle, color: str | None, rule: str) -> int | None:
    """The colour index a rule's ``color`` (a palette character or name) stands for; None for 'filled'."""
    if color is None:
        return None
    for i, col in enumerate(puzzle.palette):
        if i and (col.char == color or col.name == color):
            return i
    chars = ", ".join(repr(c.char) for c in puzzle.palette[1:])
    raise RuleError(f"rule {rule}: colour {color!r} is not in the puzzle's palette ({chars})")



def cells_text(cells: Sequence[Cell], shown: int = 4) -> str:
    """The first ``shown`` cells, 1-based, as messages name a line's cells: ``(1,1), (2,2), ...``."""
    text = ", ".join(f"({r + 1},{c + 1})" for r, c in cells[:shown])
    return text + (", ..." if len(cells) > shown else "")


def bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def may_masks(state, value: int | None) -> list[int]:
    """Per row, the cells that may still have ``value`` (any block colour for None)."""
    full = (1 << state.width) - 1
    if value is not None:
        return [full & ~m for m in state.row_ex[value]]
    out = []
    for r in range(state.height):
        no = full
        for v in range(1, state.nvals):
            no &= state.row_ex[v][r]
        out.append(full & ~no)
    return out


def known_masks(state, value: int | None) -> list[int]:
    """Per row, the cells known to have ``value`` (to be filled, for None)."""
    if value is None:
        return list(state.row_ex[0])
    full = (1 << state.width) - 1
    out = []
    for r in range(state.height):
        k = full
        for v in range(state.nvals):
            if v != value:
                k &= state.row_ex[v][r]
        out.append(k)
    return out


def forbid(state, r: int, c: int, value: int | None) -> None:
    """Record that cell (r, c) does not have ``value`` (is background, for None)."""
    if value is None:
        for v in range(1, state.nvals):
            state.exclude(r, c, v)
    else:
        state.exclude(r, c, value)


def force(state, r: int, c: int, value: int | None) -> None:
    """Record that cell (r, c) has ``value`` (is filled, for None)."""
    if value is None:
        state.exclude(r, c, 0)
    else:
        for v in range(state.nvals):
            if v != value:
                state.exclude(r, c, v)


def empty_cell(state) -> Cell | None:
    """A cell with no value left, if any."""
    full = (1 << state.width) - 1
    for r in range(state.height):
        none = full
        for ex in state.row_ex:
            none &= ex[r]
        if none:
            return r, (none & -none).bit_length() - 1
    return None


def grid_values(grid: Sequence[str], chars: str) -> list[list[int]]:
    index = {ch: i for i, ch in enumerate(chars)}
    return [[index.get(ch, -1) for ch in row] for row in grid]


def has(v: int, value: int | None) -> bool:
    return v > 0 if value is None else v == value


class Literals:
    """Literals of "cell has value" with the state's known cells folded to constants.

    ``of(r, c)`` is an int literal, or True / False when the state knows the
    answer.  For 'filled' in a colour puzzle a cell with several colours left
    gets one auxiliary variable f <-> OR of its colour variables (made once).
    """

    def __init__(self, lit: Lit, new_var: Callable[[], int], state, value: int | None, nvals: int) -> None:
        self.lit, self.new_var, self.state, self.value, self.nvals = lit, new_var, state, value, nvals
        self.extra: list[Clause] = []
        self._aux: dict[Cell, int] = {}

    def of(self, r: int, c: int) -> int | bool:
        value, state = self.value, self.state
        if state is not None:
            left = state.possible(r, c)
            if value is None:
                if 0 not in left:
                    return True
                if left == [0]:
                    return False
                colours = [v for v in left if v]
            else:
                if value not in left:
                    return False
                if left == [value]:
                    return True
                colours = [value]
        else:
            colours = [value] if value is not None else list(range(1, self.nvals))
        if len(colours) == 1:
            return self.lit(r, c, colours[0])
        key = (r, c)
        f = self._aux.get(key)
        if f is None:
            f = self._aux[key] = self.new_var()
            xs = [self.lit(r, c, v) for v in colours]
            self.extra.append([-f, *xs])
            self.extra += [[-x, f] for x in xs]
        return f


def fold(lits: Iterable[int | bool]) -> Clause | None:
    """A clause from literals and constants: None when a constant True satisfies it."""
    out = []
    for x in lits:
        if x is True:
            return None
        if x is not False:
            out.append(x)
    return out


def neg(x: int | bool) -> int | bool:
    return (not x) if isinstance(x, bool) else -x


class BuiltinRule:
    """Base of the built-in rules: unbound (parameters only, as read from JSON or
    ``--rule``) until :meth:`bind` checks them against a puzzle and returns a copy that
    knows the grid's size and palette.  Rules are immutable values: a grid state is
    copied on trial, so a rule keeps no hidden state and undoing costs nothing."""

    name = "rule"
    lazy = False
    height = width = nvals = 0
    chars = ""

    def bind(self, puzzle) -> "BuiltinRule":
        raise NotImplementedError

    def _bound_to(self, puzzle) -> None:
        object.__setattr__(self, "height", puzzle.height)
        object.__setattr__(self, "width", puzzle.width)
        object.__setattr__(self, "nvals", len(puzzle.palette))
        object.__setattr__(self, "chars", "".join(c.char for c in puzzle.palette))

    def narrow(self, state, touched=None) -> RuleConflict | None:
        return None

    def clauses(self, lit: Lit, new_var: Callable[[], int], state=None) -> list[Clause]:
        return []

    def cut(self, grid: Sequence[str], lit: Lit, state=None) -> list[Clause] | None:
        """Clauses that exclude ``grid`` (which this rule rejects) and no grid it accepts."""
        return None

    def keep(self, values: list[list[int]], rng) -> list[list[int]]:
        """Change a drawn picture (colour indices, 0 background) so that it keeps this
        rule, for the generator; ``rng`` is a ``random.Random``.  The result is checked
        with :meth:`accepts` afterwards, so a best effort is allowed."""
        return values

    def accepts(self, grid: Sequence[str]) -> bool:
        raise NotImplementedError

    def scope(self) -> Iterable[frozenset[Cell]]:
        return ()

    def as_json(self) -> dict[str, object]:
        raise NotImplementedError

    def text(self) -> str:
        """The rule as ``--rule`` would spell it (or its JSON, for rules only files hold)."""
        raise NotImplementedError


class ValueWording:
    """How a rule about the filled cells, or with ``color`` about the cells of one colour, names
    itself: in messages, in JSON and as ``--rule`` spells it (for the rules of grids, here, and of
    any geometry, :mod:`satnono.lanerules`)."""

    name: str
    color: str | None
    value: int | None
    chars: str

    def _what(self) -> str:
        return "filled cells" if self.value is None else f"cells of colour {self.chars[self.value]!r}"

    def _params(self) -> dict[str, object]:
        """The rule's own JSON keys (besides ``rule`` and ``color``)."""
        return {}

    def _spec(self) -> str:
        """The rule's own part of its ``--rule`` spelling (besides the name and ``:COLOUR``)."""
        return ""

    def as_json(self) -> dict[str, object]:
        out: dict[str, object] = {"rule": self.name, **self._params()}
        if self.color is not None:
            out["color"] = self.color
        return out

    def text(self) -> str:
        return self.name + self._spec() + (f":{self.color}" if self.color is not None else "")


class ValueRule(ValueWording, BuiltinRule):
    """A built-in rule about the filled cells, or, with ``color`` (a palette character or
    name), about the cells of that colour; :meth:`bind` resolves the colour to ``value``."""

    color: str | None
    value: int | None

    def bind(self, puzzle) -> "ValueRule":
        b = dataclasses.replace(self, value=resolve_value(puzzle, self.color, self.name))  # type: ignore[type-var]
        b._bound_to(puzzle)
        return b
