"""Rules: what must hold besides the clues.

A rule is an object with these methods (the built-in rules of :mod:`satnono.rules.spec`
and :class:`Givens` are examples; a user-written rule needs only ``name``,
``clauses`` and ``accepts``, everything else has a default):

``name``
    a short name, used in messages (``rule NAME: ...``).
``bind(puzzle) -> rule``
    check the rule's parameters against a puzzle (a one-line :class:`RuleError`
    when they do not fit) and return a copy that knows the grid; :class:`~satnono.model.Puzzle`
    binds its rules when it is made.  Optional.
``narrow(state, touched=None) -> conflict | None``
    exclude values of cells of a :class:`~satnono.propagate.GridState` that no grid
    keeping the rule can have (``state.exclude(r, c, v)``; ``state.possible(r, c)``
    lists what is left), or return a conflict (an object with ``describe(puzzle)``)
    when no such grid agrees with the state.  Called after each line fixpoint of
    propagation; ``touched`` is the set of cells ``(r, c)`` whose values changed since the
    rules last ran on this state (None: look at everything), so a rule may look only
    near them.  States are copied on trial, so a rule keeps no state of its own and
    undoing is free.  Optional.
``clauses(lit, new_var, state=None) -> list of clauses``
    CNF over ``lit(r, c, v)``, the variable "cell (r, c) has block colour v"
    (v >= 1; black is v = 1), with fresh variables from ``new_var()`` (which counts up
    by one).  With ``state``, cells it knows may be folded to constants: their
    variables are not otherwise tied to the state.
``cut(grid, lit, state=None) -> clauses | None`` and ``lazy = True``
    for rules too big to encode up front: clauses that exclude ``grid`` (a grid the
    rule rejects) and no grid it accepts.  The settle pipeline adds them and searches
    again (lazy encoding).  Optional.
``accepts(grid) -> bool``
    whether a complete grid (rows of palette characters) keeps the rule.  Every
    solution satnono reports is checked with it.
``scope() -> iterable of frozensets of cells``
    the cells the rule couples, so that counting keeps coupled cells in one
    component.  Optional (default: every cell, one group).
``as_json() -> dict``
    the rule as a JSON object of a puzzle file (``{"rule": NAME, ...}``); formats that
    cannot hold a rule refuse the puzzle.  Optional (such a rule cannot be saved).
``keep(values, rng) -> values``
    change a drawn picture (lists of colour indices) so that it keeps the rule, for
    the generator (which checks ``accepts`` afterwards).  Optional.
"""

from __future__ import annotations

from typing import Any, Callable, Iterable, Protocol, Sequence, runtime_checkable

from .common import BuiltinRule, Cell, Clause, RuleConflict, RuleError
from .givens import Givens


@runtime_checkable
class Rule(Protocol):
    """The methods every rule has; see the module docstring for the optional ones."""

    name: str

    def clauses(self, lit: Callable[[int, int, int], int], new_var: Callable[[], int],
                state: Any = None) -> list[Clause]: ...

    def accepts(self, grid: Sequence[str]) -> bool: ...


def bind(rule: Any, puzzle: Any) -> Any:
    """The rule bound to ``puzzle`` (rules without ``bind`` are used as they are)."""
    if not isinstance(rule, Rule):
        raise RuleError(f"{rule!r} is not a rule: it needs a name, clauses() and accepts()")
    b = getattr(rule, "bind", None)
    return rule if b is None else b(puzzle)


def narrow(rules: Iterable[Any], state: Any, touched: Any = None) -> Any:
    """Let every rule narrow ``state``; the first conflict, or None."""
    for rule in rules:
        f = getattr(rule, "narrow", None)
        if f is not None:
            bad = f(state, touched)
            if bad is not None:
                return bad
    return None


def scopes(rule: Any, height: int, width: int) -> Iterable[frozenset[Cell]]:
    f = getattr(rule, "scope", None)
    if f is None:
        return [frozenset((r, c) for r in range(height) for c in range(width))]
    return f()


def cut(rule: Any, grid: Sequence[str], lit: Callable[[int, int, int], int], state: Any = None) -> list[Clause] | None:
    f = getattr(rule, "cut", None)
    return None if f is None else f(grid, lit, state)


def is_lazy(rule: Any) -> bool:
    """Whether the rule's clauses alone do not capture it (``lazy = True``: it relies on ``cut``)."""
    return bool(getattr(rule, "lazy", False))


def to_json(rule: Any) -> dict[str, Any] | None:
    f = getattr(rule, "as_json", None)
    return None if f is None else f()


def describe(rule: Any) -> str:
    f = getattr(rule, "text", None)
    return f() if f is not None else str(getattr(rule, "name", rule))


from .spec import BUILTIN, rule_from_json, rule_from_spec  # noqa: E402  (spec imports the rule classes)

RULES = {**BUILTIN, "givens": Givens}
"""Rule classes by name."""


def find_rule(name: str) -> type:
    """The rule class called ``name`` (a one-line :class:`RuleError` if there is none)."""
    try:
        return RULES[name]
    except KeyError:
        raise RuleError(f"unknown rule {name!r} (known: {', '.join(sorted(RULES))})") from None


__all__ = ["BuiltinRule", "Givens", "RULES", "Rule", "RuleConflict", "RuleError", "bind", "cut", "describe",
           "find_rule", "is_lazy", "narrow", "rule_from_json", "rule_from_spec", "scopes", "to_json"]
