"""The rule protocol, read in one place: what every rule has (:class:`Rule`) and the helpers
that call its optional hooks with their defaults (see :mod:`satnono.rules` for the hooks).

Every consumer of rules (propagation, encoding, counting, explanation, the formats) calls these
instead of looking the hooks up itself, so that a user rule with only ``name``, ``clauses`` and
``accepts`` works everywhere.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol, Sequence, runtime_checkable

from ..clues import LineClue
from .common import Cell, Clause, RuleError


@runtime_checkable
class Rule(Protocol):
    """The methods every rule has; see :mod:`satnono.rules` for the optional ones."""

    name: str

    def clauses(self, lit: Callable[[int, int, int], int], new_var: Callable[[], int],
                state: Any = None) -> list[Clause]: ...

    def accepts(self, grid: Sequence[str]) -> bool: ...


def name_of(rule: Any) -> str:
    """The rule's name (its class's name when it has none)."""
    return getattr(rule, "name", type(rule).__name__)


def bind(rule: Any, puzzle: Any) -> Any:
    """The rule bound to ``puzzle`` (rules without ``bind`` are used as they are)."""
    if not isinstance(rule, Rule):
        raise RuleError(f"{rule!r} is not a rule: it needs a name, clauses() and accepts()")
    b = getattr(rule, "bind", None)
    return rule if b is None else b(puzzle)


def lane_of(rule: Any) -> tuple[tuple[Cell, ...], LineClue] | None:
    """The extra lane a rule is (its ``lane()``: the cells ``(r, c)`` in the order its clue reads
    them, and the clue), or None for a rule that is no lane."""
    f = getattr(rule, "lane", None)
    return None if f is None else f()  # type: ignore[no-any-return]


def is_lane(rule: Any) -> bool:
    """Whether the rule is an extra lane of the puzzle (it has ``lane()``): the drivers take it as
    a lane, never through its ``narrow``, ``clauses`` or ``scope``."""
    return getattr(rule, "lane", None) is not None


def narrows(rule: Any) -> bool:
    """Whether the rule has a ``narrow`` hook (it may exclude values during propagation); a rule
    that is a lane (:func:`is_lane`) is propagated as a lane, not narrowed."""
    return getattr(rule, "narrow", None) is not None and not is_lane(rule)


def narrow(rules: Iterable[Any], state: Any, touched: Any = None) -> Any:
    """Let every rule narrow ``state`` (but the lanes: :func:`narrows`); the first conflict, or None."""
    for rule in rules:
        f = getattr(rule, "narrow", None)
        if f is not None and not is_lane(rule):
            bad = f(state, touched)
            if bad is not None:
                return bad
    return None


def scopes(rule: Any, height: int, width: int) -> Iterable[frozenset[Cell]]:
    """The groups of cells the rule couples (default: every cell, one group; none for a lane,
    whose segments couple its cells as a row's do)."""
    if is_lane(rule):
        return []
    f = getattr(rule, "scope", None)
    if f is None:
        return [frozenset((r, c) for r in range(height) for c in range(width))]
    return f()


def cut(rule: Any, grid: Sequence[str], lit: Callable[[int, int, int], int], state: Any = None) -> list[Clause] | None:
    """Clauses that exclude ``grid`` (which the rule rejects), or None (the rule has no ``cut``)."""
    f = getattr(rule, "cut", None)
    return None if f is None else f(grid, lit, state)


def is_lazy(rule: Any) -> bool:
    """Whether the rule's clauses alone do not capture it (``lazy = True``: it relies on ``cut``)."""
    return bool(getattr(rule, "lazy", False))


def keep(rule: Any, values: list[list[int]], rng: Any) -> list[list[int]]:
    """A drawn picture changed to keep the rule (unchanged when the rule has no ``keep``)."""
    f = getattr(rule, "keep", None)
    return values if f is None else f(values, rng)


def to_json(rule: Any) -> dict[str, Any] | None:
    """The rule as a puzzle file's JSON object, or None (it has no ``as_json``: it cannot be saved)."""
    f = getattr(rule, "as_json", None)
    return None if f is None else f()


def describe(rule: Any) -> str:
    """The rule in words: its ``text()``, else its name."""
    f = getattr(rule, "text", None)
    return f() if f is not None else str(getattr(rule, "name", rule))
