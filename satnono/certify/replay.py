"""Line deductions, replayed: a plain complete solver for one lane, and the check of a certificate's
``deductions.json``.  Part of the trust base: it imports nothing of satnono outside ``satnono.certify``.

A *lane* is a row, a column or a rule (:func:`~satnono.certify.puzzle.lanes`).  Its *narrowing* keeps of each of its
cells' values those that some grid keeping the lane's rule alone, and the state, gives the cell: for a line, the paths
of its graph (:func:`~satnono.certify.reference.line_graph`) that paint only values the state allows; for another
rule, :func:`~satnono.certify.puzzle.narrow_rule`.  ``deductions.json`` is ``{"steps": [[lane, index, [[row, col,
chars], ...]], ...]}``: lane ``"row"``, ``"column"`` or ``"rule"`` (index 0-based), and per cell the characters of
the values it may still have after the step, which must narrow it, no further than the lane's narrowing goes.
Replayed from the start (every value, but for the givens), the steps must reach the solution (a line-solvable
puzzle) or a state that no lane narrows (one that is not).
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import accumulate

from .puzzle import Spec, lanes, narrow_rule
from .reference import line_graph

_graph = lru_cache(maxsize=4096)(line_graph)


def solve_line(n: int, blocks: tuple, allowed: list[int], nvals: int) -> list[int] | None:
    """Per cell, the values (a mask over 0..nvals-1) that some placement of ``blocks`` painting only allowed values
    gives it; None when there is no such placement."""
    # bad[v][i]: how many of the cells before i cannot have value v
    bad = [[0, *accumulate(not (a >> v) & 1 for a in allowed)] for v in range(nvals)]
    usable = [(u, v, p, q, colour, size) for u, v, p, q, colour, size in _graph(n, blocks)  # painting allowed values
              if bad[colour][p + size] == bad[colour][p] and bad[0][q] == bad[0][p + size]]
    reached, live = {0}, {len(blocks) * (n + 1) + n}
    for u, v, *_ in usable:
        if u in reached:
            reached.add(v)
    paint = [[0] * (n + 1) for _ in range(nvals)]  # paint[v]: +1 where an edge starts v, -1 after
    for u, v, p, q, colour, size in reversed(usable):
        if u in reached and v in live:  # an edge on a path from the source to the sink
            live.add(u)
            paint[colour][p] += 1
            paint[colour][p + size] -= 1
            paint[0][p + size] += 1
            paint[0][q] -= 1
    if 0 not in live:
        return None
    out = [0] * n
    for v in range(nvals):
        for i, depth in enumerate(accumulate(paint[v][:n])):
            if depth:
                out[i] |= 1 << v
    return out


def narrow(spec: Spec, rule: tuple, state: list[list[int]]) -> dict | None:
    """A lane's narrowing (its rule's): the new value masks of the cells it may change, None when no grid keeps the
    rule in this state."""
    if rule[0] != "line":
        return narrow_rule(spec, rule, state)
    new = solve_line(len(rule[1]), rule[2], [state[r][c] for r, c in rule[1]], len(spec.chars))
    return None if new is None else dict(zip(rule[1], new))


def replay(spec: Spec, data: bytes, line_solvable: bool, solution: list[list[int]]) -> str | None:
    """Why the deductions of ``deductions.json`` do not certify ``line_solvable`` (the puzzle is solved by them, to
    ``solution``, or they end where no lane narrows), or None."""
    try:
        steps = json.loads(data)["steps"]
    except (ValueError, RecursionError, TypeError, KeyError):
        return "not a JSON object with 'steps'"
    h, w = spec.height, spec.width
    rules = {(kind, i): rule for kind, i, rule in lanes(spec)}
    state = [[(1 << len(spec.chars)) - 1] * w for _ in range(h)]
    for r, c, v in spec.givens:
        state[r][c] = 1 << v
    if not isinstance(steps, list) or len(steps) > h * w * len(spec.chars):
        return "'steps' is not a list of at most one step per cell and value"
    for k, step in enumerate(steps, 1):
        if not (isinstance(step, list) and len(step) == 3 and isinstance(step[0], str) and type(step[1]) is int
                and (step[0], step[1]) in rules and isinstance(step[2], list)):
            return f"step {k}: expected [lane, index, cells]"
        exact = narrow(spec, rules[(step[0], step[1])], state)
        if exact is None:
            return f"step {k}: {step[0]} {step[1] + 1} admits no grid"
        seen = set()
        for cell in step[2]:
            if not (isinstance(cell, list) and len(cell) == 3 and type(cell[0]) is int and type(cell[1]) is int
                    and 0 <= cell[0] < h and 0 <= cell[1] < w and isinstance(cell[2], str) and cell[2]
                    and not cell[2].strip(spec.chars) and (cell[0], cell[1]) not in seen):
                return f"step {k}: expected distinct [row, col, values] cells"
            r, c = cell[0], cell[1]
            seen.add((r, c))
            mask = sum({1 << spec.chars.index(ch) for ch in cell[2]})
            if mask & ~state[r][c] or mask == state[r][c]:
                return f"step {k}: cell ({r}, {c}) is not narrowed to {cell[2]!r}"
            if exact.get((r, c), state[r][c]) & ~mask:
                return f"step {k}: {step[0]} {step[1] + 1} does not imply cell ({r}, {c}) is one of {cell[2]!r}"
            state[r][c] = mask
    open_cells = sum(bin(m).count("1") > 1 for row in state for m in row)
    if line_solvable:
        if open_cells:
            return f"the deductions leave {open_cells} cells open, but the puzzle is said to be line-solvable"
        if any(state[r][c] != 1 << solution[r][c] for r in range(h) for c in range(w)):
            return "the deductions reach a grid other than the solution"
        return None
    if not open_cells:
        return "the deductions solve the puzzle, but it is said not to be line-solvable"
    for kind, i, rule in lanes(spec):
        exact = narrow(spec, rule, state)
        if exact is None or any(state[r][c] & ~m for (r, c), m in exact.items()):
            return f"{kind} {i + 1} narrows the state the deductions end in: it is not stuck"
    return None
