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
    exclude values of cells of a :class:`~satnono.logic.state.GridState` that no grid
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
``lane() -> (cells, clue)``
    the rule is one more lane of the puzzle: its cells ``(r, c)`` in the order the clue reads
    them, and the clue (a :class:`~satnono.clues.LineClue`).  The puzzle adds it to its lanes
    (:attr:`~satnono.model.Puzzle.lanes`, family ``"line"``) and every driver takes it as a lane:
    the line kernels with their cache in propagation, the ladders in the encoder, its segments in
    components, its name in diagnoses.  Its ``narrow``, ``clauses`` and ``scope`` are not used
    (:func:`narrows` is false for it).  Optional (the built-in ``line`` rule has it).
``as_json() -> dict``
    the rule as a JSON object of a puzzle file (``{"rule": NAME, ...}``); formats that
    cannot hold a rule refuse the puzzle.  Optional (such a rule cannot be saved).
``keep(values, rng) -> values``
    change a drawn picture (lists of colour indices) so that it keeps the rule, for
    the generator (which checks ``accepts`` afterwards).  Optional.

:mod:`satnono.rules.protocol` calls the optional hooks with their defaults; every consumer
goes through it.
"""

from __future__ import annotations

from typing import Any

from .common import BuiltinRule, Cell, Clause, RuleConflict, RuleError
from .givens import Givens
from .protocol import (Rule, bind, cut, describe, is_lane, is_lazy, keep, lane_of, name_of, narrow, narrows, scopes,
                       to_json)
from .spec import BUILTIN_CLASSES, builtin, rule_from_json, rule_from_spec


def find_rule(name: str) -> type:
    """The rule class called ``name`` (a one-line :class:`RuleError` if there is none)."""
    if name == "givens":
        return Givens
    if name in BUILTIN_CLASSES:
        return builtin(name)
    raise RuleError(f"unknown rule {name!r} (known: {', '.join(sorted([*BUILTIN_CLASSES, 'givens']))})")


def __getattr__(name: str) -> Any:
    """``RULES``: every rule class by name (importing the built-in rules' modules)."""
    if name == "RULES":
        return {**{rule: builtin(rule) for rule in BUILTIN_CLASSES}, "givens": Givens}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["BuiltinRule", "Givens", "RULES", "Rule", "RuleConflict", "RuleError", "bind", "cut", "describe",
           "find_rule", "is_lane", "is_lazy", "keep", "lane_of", "name_of", "narrow", "narrows", "rule_from_json",
           "rule_from_spec", "scopes", "to_json"]
