"""The puzzle of a certificate, read from its ``puzzle.json`` (satnono's JSON: docs/formats.md); what its clues and
rules mean; the solution check.  Part of the trust base: it imports nothing of satnono outside ``satnono.certify``.
In a grid, value 0 is the background and v the v-th colour; a *state* holds per cell a bit mask of its values left."""

from __future__ import annotations

import json
from collections import namedtuple
from functools import lru_cache
from itertools import accumulate, groupby, product

AXES = ("left-right", "top-bottom", "rotate180", "transpose")
MAX_CELLS = 4_000_000


#: A puzzle.  ``chars``: the background ``.`` then each block colour's character (value v is ``chars[v]``).  A clue (in
#: ``rows`` and ``columns``): its blocks ``(length, colour)``, the length None when blotted.  ``givens``: ``(row, col,
#: value)``, sorted.  ``rules``: ``("symmetric", axis)``, ``("count", op, n, value)``, ``("no-square", value)`` and
#: ``("line", cells, blocks)``, where a value None means any block colour.
Spec = namedtuple("Spec", "height width chars rows columns givens rules")


def _int(x: object, what: str, low: int = 0, high: int = 1 << 31) -> int:
    if type(x) is not int or not low <= x <= high:
        raise ValueError(f"{what}: expected a whole number from {low} to {high}, got {json.dumps(x)[:20]}")
    return x


def read_puzzle(data: bytes) -> Spec:
    """The puzzle of ``puzzle.json``; ValueError (one line) when it is not one."""
    try:
        doc = json.loads(data)
    except (ValueError, RecursionError) as e:
        raise ValueError(f"not JSON ({type(e).__name__})") from None
    if not isinstance(doc, dict):
        raise ValueError("expected a JSON object")
    colours = doc.get("colors", {"#": {"name": "black"}})
    if not isinstance(colours, dict) or not 1 <= len(colours) <= 32:
        raise ValueError("colors: expected an object of 1 to 32 colours")
    chars = "." + "".join(colours)
    if len(set(chars)) != len(chars) or any(len(ch) != 1 for ch in colours):
        raise ValueError("colors: each colour's key is one character, not '.' nor repeated")
    names = [None] + [v.get("name") if isinstance(v, dict) else None for v in colours.values()]

    def colour(x: object, what: str, numbers: bool = False) -> int:
        """A colour's value, from its char or name (or, in a line rule's clue, its number)."""
        if isinstance(x, str) and x in chars[1:]:
            return chars.index(x)
        if isinstance(x, str) and x in names:
            return names.index(x)
        if numbers and type(x) is int and 1 <= x < len(chars):
            return x
        raise ValueError(f"{what}: {json.dumps(x)[:20]} is not a colour of the puzzle")

    def blocks(clue: object, what: str, line_rule: bool = False) -> tuple:
        """A clue's blocks (a line rule's: no blots, and blocks of length 0 left out)."""
        if not isinstance(clue, list):
            raise ValueError(f"{what}: expected a list of blocks")
        out = []
        for j, b in enumerate(clue):
            n, c = (b if isinstance(b, list) and len(b) == 2 else (b, 1))
            n = None if n == "?" and not line_rule else _int(n, f"{what}[{j}]", 0 if line_rule else 1, 1 << 24)
            c = colour(c, f"{what}[{j}]", line_rule) if c != 1 or isinstance(b, list) else 1
            if n != 0:
                out.append((n, c))
        return tuple(out)

    lines = {}
    for key in ("rows", "columns"):
        if not isinstance(doc.get(key), list) or not doc[key]:
            raise ValueError(f"{key}: expected a non-empty list of clues")
        lines[key] = tuple(blocks(clue, f"{key}[{i}]") for i, clue in enumerate(doc[key]))
    h, w = len(lines["rows"]), len(lines["columns"])
    if h * w > MAX_CELLS:
        raise ValueError(f"{w}x{h} is more than {MAX_CELLS} cells")
    for key in ("givens", "rules"):
        if not isinstance(doc.get(key, []), list):
            raise ValueError(f"{key}: expected a list")
    givens: dict[tuple[int, int], int] = {}
    for i, g in enumerate(doc.get("givens", [])):
        if not (isinstance(g, list) and len(g) == 3 and isinstance(g[2], str) and g[2] in chars):
            raise ValueError(f"givens[{i}]: expected [row, col, char]")
        r, c = _int(g[0], f"givens[{i}]", 0, h - 1), _int(g[1], f"givens[{i}]", 0, w - 1)
        if givens.setdefault((r, c), chars.index(g[2])) != chars.index(g[2]):
            raise ValueError(f"givens[{i}]: cell ({r}, {c}) is given two values")
    rules: list[tuple] = []
    for i, rule in enumerate(doc.get("rules", [])):
        what = f"rules[{i}]"
        name = rule.get("rule") if isinstance(rule, dict) else None
        value = None if not isinstance(rule, dict) or rule.get("color") is None else colour(rule["color"], what)
        if name == "symmetric" and rule.get("axis") in AXES and (rule["axis"] != "transpose" or h == w):
            rules.append(("symmetric", rule["axis"]))
        elif name == "count" and rule.get("op") in ("=", ">=", "<="):
            rules.append(("count", rule["op"], _int(rule.get("n"), what, 0, 1 << 62), value))
        elif name == "no-square":
            rules.append(("no-square", value))
        elif name == "line" and isinstance(rule.get("cells"), list) and rule["cells"]:
            cells = tuple((_int(c[0], what, 0, h - 1), _int(c[1], what, 0, w - 1)) if isinstance(c, list)
                          and len(c) == 2 else (-1, -1) for c in rule["cells"])
            if (-1, -1) in cells or len(set(cells)) != len(cells):
                raise ValueError(f"{what}: the cells of a line rule are distinct [row, col] pairs")
            rules.append(("line", cells, blocks(rule.get("clue"), f"{what}.clue", True)))
        elif name == "connected":
            raise ValueError(f"{what}: rule connected is encoded lazily; certificates do not cover it")
        else:
            raise ValueError(f"{what}: not a rule certificates cover ({json.dumps(rule)[:40]})")
    return Spec(h, w, chars, lines["rows"], lines["columns"], tuple(sorted((r, c, v) for (r, c), v in givens.items())),
                tuple(rules))


def read_grid(spec: Spec, data: bytes) -> list[list[int]]:
    """A solution file (one row of palette characters a line) as values; ValueError otherwise."""
    try:
        rows = data.decode("utf-8").split("\n")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    if rows[-1] != "" or len(rows) != spec.height + 1:
        raise ValueError(f"expected {spec.height} rows, each ended by a newline")
    for r, row in enumerate(rows[:-1]):
        if len(row) != spec.width or row.strip(spec.chars):
            raise ValueError(f"row {r + 1}: expected {spec.width} characters of {spec.chars!r}")
    return [[spec.chars.index(ch) for ch in row] for row in rows[:-1]]


def lanes(spec: Spec) -> list[tuple[str, int, tuple]]:
    """``(kind, index, rule)`` of each row, column, rule: a row or a column is the rule ``("line", cells, clue)``."""
    h, w = spec.height, spec.width
    return ([("row", r, ("line", [(r, c) for c in range(w)], spec.rows[r])) for r in range(h)]
            + [("column", c, ("line", [(r, c) for r in range(h)], spec.columns[c])) for c in range(w)]
            + [("rule", i, rule) for i, rule in enumerate(spec.rules)])


def mirror(spec: Spec, axis: str, r: int, c: int) -> tuple[int, int]:
    """The cell (r, c) must equal under ``symmetric:axis``: (c, r), or the row and/or the column turned over."""
    if axis == "transpose":
        return c, r
    return (r if axis == "left-right" else spec.height - 1 - r), (c if axis == "top-bottom" else spec.width - 1 - c)


def fits(values: list[int], blocks: tuple) -> bool:
    """Whether a line of values matches its clue: its runs of one block colour are the blocks (a blot any length)."""
    runs = [(len(list(run)), v) for v, run in groupby(values) if v]
    return len(runs) == len(blocks) and all(v == c and n in (None, m) for (m, v), (n, c) in zip(runs, blocks))


def line_graph(n: int, blocks: tuple) -> list[tuple[int, int, int, int, int, int]]:
    """The edges on some source-to-sink path of the graph of a line of n cells, ordered by p: ``(u, v, p, q, colour,
    L)`` goes from node u (at cell p) to node v (at cell q), painting cells p..p+L-1 ``colour`` and p+L..q-1 the
    background.  Node (j, p), numbered j*(n+1) + p, is on a path when blocks 0..j-1 fit before cell p (``first[j] <=
    p``) and blocks j..k-1 from it on (``p <= last[j]``), each at its least length (1 for a blot)."""
    k, row = len(blocks), n + 1
    least = [1 if length is None else length for length, _ in blocks]
    gap = [1 if j + 1 < k and blocks[j + 1][1] == blocks[j][1] else 0 for j in range(k)]
    first, last = [0] * (k + 1), [n] * (k + 1)
    for j in range(k):
        first[j + 1] = first[j] + least[j] + gap[j]
    for j in reversed(range(k)):
        last[j] = last[j + 1] - least[j] - gap[j]
    edges: list[tuple[int, int, int, int, int, int]] = []
    if first[k] > n:
        return edges  # the blocks do not fit the line
    for p in range(n):
        for j in range(k + 1):
            if not first[j] <= p <= last[j]:
                continue
            if p < last[j]:
                edges.append((j * row + p, j * row + p + 1, p, p + 1, 0, 0))
            if j < k:
                length, colour = blocks[j]
                for size in (range(1, last[j + 1] - gap[j] - p + 1) if length is None else (length,)):
                    q = p + size + gap[j]
                    if q <= last[j + 1]:
                        edges.append((j * row + p, (j + 1) * row + q, p, q, colour, size))
    return edges


_graph = lru_cache(maxsize=4096)(line_graph)


def solve_line(n: int, blocks: tuple, allowed: list[int], nvals: int) -> list[int] | None:
    """Per cell, the values (a mask over 0..nvals-1) that some placement of ``blocks`` painting only allowed values
    gives it; None when there is no such placement."""
    # bad[v][i]: how many of the cells before i cannot have value v
    bad = [[0, *accumulate(not (a >> v) & 1 for a in allowed)] for v in range(nvals)]
    usable = [(u, v, p, q, colour, size) for u, v, p, q, colour, size in _graph(n, blocks)  # painting allowed values
              if bad[colour][p + size] == bad[colour][p] and bad[0][q] == bad[0][p + size]]
    reached, live = {0}, {len(blocks) * (n + 1) + n}
    for u, v, p, q, colour, size in usable:
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
    # masks[v][i]: 1 << v if some of these edges paints cell i v (as many as the running sum of paint[v] says)
    masks = [[1 << v if depth else 0 for depth in accumulate(paint[v][:n])] for v in range(nvals)]
    return list(map(sum, zip(*masks)))


def narrow(spec: Spec, rule: tuple, state: list[list[int]]) -> dict | None:
    """A lane's narrowing: of the values its cells may still have in ``state``, those some grid keeping its rule (and
    the state) gives them, as the new masks of the cells it may change; None when there is no such grid.  A line:
    :func:`solve_line`; ``symmetric``: the values a cell shares with its mirror image; ``count``: what the numbers of
    cells that must and that may count allow; ``no-square``: no fourth cell of a square whose others must count."""
    if rule[0] == "line":
        new = solve_line(len(rule[1]), rule[2], [state[r][c] for r, c in rule[1]], len(spec.chars))
        return None if new is None else dict(zip(rule[1], new))
    cells = [(r, c) for r in range(spec.height) for c in range(spec.width)]
    out = {}
    if rule[0] == "symmetric":
        for r, c in cells:
            m = mirror(spec, rule[1], r, c)
            out[(r, c)] = state[r][c] & state[m[0]][m[1]]
        return None if 0 in out.values() else out
    counts = (1 << len(spec.chars)) - 2 if rule[-1] is None else 1 << rule[-1]  # the values that count
    must = {(r, c) for r, c in cells if not state[r][c] & ~counts}
    may = {(r, c) for r, c in cells if state[r][c] & counts}
    if rule[0] == "count":
        op, n = rule[1], rule[2]
        if (op != ">=" and len(must) > n) or (op != "<=" and len(may) < n):
            return None
        if op != ">=" and len(must) == n:  # the cells that may count do not
            return {(r, c): state[r][c] & ~counts for r, c in may - must}
        if op != "<=" and len(may) == n:  # the cells that may count do
            return {(r, c): state[r][c] & counts for r, c in may - must}
        return {}
    for r, c in product(range(spec.height - 1), range(spec.width - 1)):  # no-square: each square
        square = {(r + dr, c + dc) for dr in (0, 1) for dc in (0, 1)}
        if len(square & must) == 4:
            return None
        if len(square & must) == 3:
            for r4, c4 in square - must:  # the fourth cell
                out[(r4, c4)] = state[r4][c4] & ~counts
    return out


def grid_error(spec: Spec, grid: list[list[int]]) -> str | None:
    """Why ``grid`` (values) is not a solution of the puzzle, or None when it is."""
    state = [[1 << v for v in row] for row in grid]  # (a rule keeps a grid when it keeps it as a state)
    for kind, i, rule in lanes(spec):
        if rule[0] == "line" and not fits([grid[r][c] for r, c in rule[1]], rule[2]):
            return f"{kind} {i + 1} does not match its clue" if kind != "rule" else f"rule {i + 1} (line) is broken"
        if rule[0] != "line" and narrow(spec, rule, state) is None:
            return f"rule {i + 1} ({rule[0]}) is broken"
    for r, c, v in spec.givens:
        if grid[r][c] != v:
            return f"cell ({r}, {c}) differs from its given value"
    return None
