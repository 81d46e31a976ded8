"""Line deductions, replayed: a plain complete solver for one lane, and the check of a
certificate's ``deductions.json``.

Part of the trust base: it imports nothing of satnono outside ``satnono.certify``.  A *lane* is
a row, a column or a rule.  The state is, per cell, the values it may still have (a bit mask
over the values 0..K), at first every value but for the given cells.  A lane's *narrowing*
keeps, of each of its cells' values, those that some grid keeping the lane's constraint alone
(and the state) gives the cell: for a row, a column or a ``line`` rule, the paths of its graph
(:func:`~satnono.certify.reference.line_graph`) that paint only allowed values; for the other
rules, :func:`~satnono.certify.puzzle.narrow_rule`.

``deductions.json`` is ``{"steps": [[lane, index, [[row, col, chars], ...]], ...]}``: lane
``"row"``, ``"column"`` or ``"rule"`` (index 0-based, rules in the file's order), and per cell
the characters of the values it may still have after the step.  Each step must narrow each
cell it names, no further than the lane's narrowing goes.  Replayed from the start, the steps
reach the solution (a line-solvable puzzle) or a state no lane narrows (one that is not).
"""

from __future__ import annotations

import json
from functools import lru_cache
from itertools import accumulate

from .puzzle import Spec, narrow_rule
from .reference import line_graph

_graph = lru_cache(maxsize=4096)(line_graph)


def solve_line(n: int, blocks: tuple, allowed: list[int], nvals: int) -> list[int] | None:
    """Per cell, the values (a mask over 0..nvals-1) that some placement of ``blocks`` painting
    only allowed values gives it; None when there is no such placement."""
    row = n + 1
    # bad[v][i]: how many of the cells before i cannot have value v
    bad = [[0, *accumulate(not (a >> v) & 1 for a in allowed)] for v in range(nvals)]
    usable = []  # the edges painting allowed values only: (node, head node, edge)
    for e in _graph(n, blocks):
        u, p, q, colour, size = e
        if bad[colour][p + size] == bad[colour][p] and bad[0][q] == bad[0][p + size]:
            usable.append((u, u + q - p + (row if colour else 0), e))
    reached, live = {0}, {len(blocks) * row + n}
    for u, head, _ in usable:
        if u in reached:
            reached.add(head)
    paint = [[0] * (n + 1) for _ in range(nvals)]  # paint[v]: +1 where an edge starts v, -1 after
    for u, head, (_, p, q, colour, size) in reversed(usable):
        if u in reached and head in live:  # an edge on a path from the source to the sink
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


def lanes(spec: Spec) -> list[tuple[str, int]]:
    return ([("row", i) for i in range(spec.height)] + [("column", i) for i in range(spec.width)]
            + [("rule", i) for i in range(len(spec.rules))])


def narrow(spec: Spec, lane: tuple[str, int], state: list[list[int]]) -> dict | None:
    """The lane's narrowing: the new value masks of the cells it may change, None when no grid
    keeps the lane's constraint in this state."""
    kind, i = lane
    if kind == "row":
        cells, blocks = [(i, c) for c in range(spec.width)], spec.rows[i]
    elif kind == "column":
        cells, blocks = [(r, i) for r in range(spec.height)], spec.columns[i]
    elif spec.rules[i][0] == "line":
        cells, blocks = list(spec.rules[i][1]), spec.rules[i][2]
    else:
        return narrow_rule(spec, spec.rules[i], state)
    new = solve_line(len(cells), blocks, [state[r][c] for r, c in cells], len(spec.chars))
    return None if new is None else dict(zip(cells, new))


def replay(spec: Spec, data: bytes, line_solvable: bool, solution: list[list[int]]) -> str | None:
    """Why the deductions of ``deductions.json`` do not certify ``line_solvable`` (the puzzle
    is solved by them, to ``solution``, or they end where no lane narrows), or None."""
    try:
        steps = json.loads(data)["steps"]
    except (ValueError, RecursionError, TypeError, KeyError):
        return "not a JSON object with 'steps'"
    h, w = spec.height, spec.width
    state = [[(1 << len(spec.chars)) - 1] * w for _ in range(h)]
    for r, c, v in spec.givens:
        state[r][c] = 1 << v
    size = {"row": h, "column": w, "rule": len(spec.rules)}
    if not isinstance(steps, list) or len(steps) > h * w * len(spec.chars):
        return "'steps' is not a list of at most one step per cell and value"
    for k, step in enumerate(steps, 1):
        if not (isinstance(step, list) and len(step) == 3 and step[0] in ("row", "column", "rule") and _index(step[1], size[step[0]])
                and isinstance(step[2], list)):
            return f"step {k}: expected [lane, index, cells]"
        exact = narrow(spec, (step[0], step[1]), state)
        if exact is None:
            return f"step {k}: {step[0]} {step[1] + 1} admits no grid"
        seen = set()
        for cell in step[2]:
            if not (isinstance(cell, list) and len(cell) == 3 and _index(cell[0], h) and _index(cell[1], w)
                    and isinstance(cell[2], str) and cell[2] and not cell[2].strip(spec.chars)
                    and (cell[0], cell[1]) not in seen):
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
    for lane in lanes(spec):
        exact = narrow(spec, lane, state)
        if exact is None or any(state[r][c] & ~m for (r, c), m in exact.items()):
            return f"{lane[0]} {lane[1] + 1} narrows the state the deductions end in: it is not stuck"
    return None


def _index(x: object, size: int) -> bool:
    return type(x) is int and 0 <= x < size
