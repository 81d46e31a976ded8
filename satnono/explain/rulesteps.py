"""Rule steps on a puzzle of any geometry other than the rectangle: what a lane rule
(:mod:`satnono.lanerules`: ``count``, ``connected`` or a rule of your own with a ``deduce``)
forces from the cells known, worded as the puzzle's line steps name cells (``row 2, cells
1-3``).

The engine takes a rule step when no lane makes progress (:func:`lane_rule_step`, through
:func:`~satnono.explain.engine.rule_step`): the first rule of ``puzzle.all_rules`` that settles
cells or rules values out of them, by the rule's own ``deduce``, the narrowing that probing
(:class:`~satnono.logic.probe.LaneCells`) applies too.  A rule that cannot be kept with the
known cells raises the engine's contradiction.

>>> from satnono.lanes import Triangle
>>> from satnono.lanepuzzle import LanePuzzle
>>> from satnono.lanerules import lane_rule_from
>>> from satnono.logic.state import initial_state
>>> p = LanePuzzle.from_picture(Triangle.triangle(2), "#.##", rules=(lane_rule_from("count:<=0"),))
>>> print(lane_rule_step(LaneCells(initial_state(p)), board_of(p)).text)
by the rule count:<=0 (at most 0 filled cells), no cell is filled: row 1, cell 1 and row 2, cells 1-3 white
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from ..lanerules import LaneConnected, LaneCount
from ..lanes import cell_name
from ..logic.lanes import LaneState
from ..logic.probe import LaneCells
from ..rules.protocol import describe, name_of
from .board import Board, board_of, cells_text
from .engine import LineContradiction
from .techniques import Step, _not, black_and_white, color_word

__all__ = ["lane_rule_step"]

OPS = {"=": "exactly", ">=": "at least", "<=": "at most"}


def lane_rule_step(cells: LaneCells, board: Board | None = None) -> Step | None:
    """The first rule of ``cells.puzzle.all_rules`` whose ``deduce`` settles cells of the state
    or rules values out of them (not applied), as a step of kind ``rule`` (``index`` the rule's
    place in ``all_rules``); raises the engine's contradiction when a rule cannot be kept.  A
    rule step depends on every cell."""
    p = cells.puzzle
    board = board if board is not None else board_of(p)
    state: LaneState = cells.state
    for i, rule in enumerate(p.all_rules):
        deduce = getattr(rule, "deduce", None)
        if deduce is None:
            continue
        trial = state.copy()
        bad = deduce(trial)
        if bad is not None:
            raise LineContradiction("rule", i, bad.describe(p))
        changed = [c for c, (a, b) in enumerate(zip(state.excluded, trial.excluded)) if a != b]
        if not changed:
            continue
        settled, excluded, words = _settles(p, state, trial, changed)
        text = f"by the rule {describe(rule)}{_reason(p, rule, state, trial, changed)}: {words}"
        return Step("rule", "rule", i, (), settled, name_of(rule), text,
                    excluded=None if black_and_white(p) else excluded)
    return None


def _word(p: Any, v: int) -> str:
    """A value as steps name it: ``black``/``white``, or in colour :func:`color_word`."""
    if black_and_white(p):
        return "black" if v else "white"
    return color_word(p, v)


def _settles(p: Any, before: LaneState, after: LaneState, changed: list[int]
             ) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], str]:
    """The cells a rule step settles and those it only rules values out of (as a step holds
    them), and both in words: the settled cells by value (black before white), then the others
    by the values ruled out."""
    chars = p.chars
    g = p.geometry
    settled: list[tuple[Any, ...]] = []
    excluded: list[tuple[Any, ...]] = []
    by_value: defaultdict[int, list[int]] = defaultdict(list)
    by_gone: defaultdict[tuple[int, ...], list[int]] = defaultdict(list)
    for cell in changed:
        v = after.value(cell)
        if v is not None:
            settled.append((cell, chars[v]))
            by_value[v].append(cell)
        else:
            new = after.excluded[cell] & ~before.excluded[cell]
            gone = tuple(u for u in range(after.values) if new >> u & 1)
            excluded.append((cell, "".join(chars[u] for u in gone)))
            by_gone[gone].append(cell)
    order = sorted(by_value, reverse=black_and_white(p))  # black before white, as line steps say them
    parts = [f"{cells_text(g, by_value[v])} {_word(p, v)}" for v in order]
    parts += [f"{cells_text(g, cs)} {_not([_word(p, u) for u in gone])}" for gone, cs in sorted(by_gone.items())]
    return settled, excluded, "; ".join(parts)


def _adjective(p: Any, value: int | None) -> str:
    """What a rule's cells are: ``filled``, or their colour (``red (r)``; ``black`` in black and
    white)."""
    return "filled" if value is None else _word(p, value)


def _has(state: LaneState, cell: int, value: int | None, known: bool) -> bool:
    """Whether ``cell`` is known to have ``value`` (``known``), or may still have it."""
    mask = state.full & ~1 if value is None else 1 << value
    left = state.full & ~state.excluded[cell]
    return bool(left) and not left & ~mask if known else bool(left & mask)


def _reason(p: Any, rule: Any, before: LaneState, after: LaneState, changed: list[int]) -> str:
    """Why a built-in rule forces what it does (after the rule's name), or nothing for any
    other rule."""
    if isinstance(rule, LaneCount):
        n, adj = rule.n, _adjective(p, rule.value)
        head = f" ({OPS[rule.op]} {n} {adj} cell{'s' if n != 1 else ''}), "
        if not any(_has(after, c, rule.value, False) for c in changed):  # the count is reached
            if n == 0:
                return head + f"no cell is {adj}"
            known = "it is" if n == 1 else f"all {n} of them are"
            return head + f"{known} already known, so no other cell is {adj}"
        left = "1 cell" if n == 1 else f"{n} cells"
        return head + f"only {left} can still be {adj}, so {'it is' if n == 1 else 'all of them are'}"
    if isinstance(rule, LaneConnected):
        adj = _adjective(p, rule.value)
        anchor = next(c for c in range(len(before.excluded)) if _has(before, c, rule.value, True))
        return (f" (the {adj} cells form one region of cells that share a side), no path of cells that can "
                f"still be {adj} joins these cells to the {adj} cell at {cell_name(p.geometry, anchor)}")
    return ""
