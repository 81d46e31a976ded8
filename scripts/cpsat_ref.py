"""In-run reference for ``scripts/bench.py``: an OR-tools CP-SAT automaton model.

The model is the textbook one, written here so that the benchmark compares
against a known, reproducible baseline in the same process:

* one Boolean per cell (black and white), or one integer 0..K per cell
  (colour, :func:`check_color`);
* per row and per column one ``add_automaton`` over the line's cells, the DFA
  of ``0* 1^c1 0+ 1^c2 0+ ... 1^ck 0*`` (in colour, blocks of their colour
  symbol with the ``0+`` separator only between blocks of the same colour,
  ``0*`` between different colours);
* solve on one worker (``num_workers=1``: one core, fair), then add
  ``sum of differences from the first solution >= 1`` and solve again, so a
  verdict is ``unique``, ``multiple``, ``none`` or ``unknown`` (time limit).

The time limit covers both solves together.  Solutions are checked against the
clues before they are returned.

Requires ``ortools`` (``pip install -e '.[bench]'``); :data:`AVAILABLE` says
whether it imported.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Sequence

try:  # optional dependency
    from ortools.sat.python import cp_model
    import ortools

    AVAILABLE = True
    VERSION: str | None = getattr(ortools, "__version__", "?")
except ImportError:  # pragma: no cover - depends on the environment
    cp_model = None  # type: ignore[assignment]
    AVAILABLE = False
    VERSION = None

Clue = tuple[int, ...]
Grid = tuple[str, ...]


@dataclass(slots=True)
class RefResult:
    status: str
    """``unique``, ``multiple``, ``none`` or ``unknown`` (same words as satnono)."""
    solutions: tuple[Grid, ...] = ()
    reason: str | None = None
    solves: int = 0


def line_automaton(clue: Sequence[int]) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Transition triples ``(state, symbol, next)`` and final states of the DFA
    for one clue, starting state 0.

    State ``i`` (0 <= i <= L) means the first ``i`` symbols of the pattern
    ``1^c1 0 1^c2 0 ... 1^ck`` (length ``L``) have been read; state ``L+1``
    is "finished, reading trailing zeros".
    """
    clue = [c for c in clue if c > 0]
    if not clue:
        return [(0, 0, 0)], [0]
    pattern: list[int] = []
    for k, c in enumerate(clue):
        if k:
            pattern.append(0)
        pattern.extend([1] * c)
    n = len(pattern)
    triples: list[tuple[int, int, int]] = []
    for i in range(n + 1):
        # Before the first block, or just after a mandatory separator: more zeros allowed.
        if i == 0 or pattern[i - 1] == 0:
            triples.append((i, 0, i))
        if i < n:
            triples.append((i, pattern[i], i + 1))
    triples.append((n, 0, n + 1))
    triples.append((n + 1, 0, n + 1))
    return triples, [n, n + 1]


def _clues_of(grid: Grid) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    def clue(cells: str) -> Clue:
        return tuple(len(run) for run in cells.split(".") if run)

    return tuple(clue(r) for r in grid), tuple(clue("".join(c)) for c in zip(*grid))


def check(rows: Sequence[Clue], columns: Sequence[Clue], time_limit: float | None = 60.0,
          workers: int = 1, rules: Sequence[dict] = ()) -> RefResult:
    """Settle a puzzle given by its clues (and extra ``rules``, JSON objects as in a
    puzzle file: see :func:`add_rules`); see the module docstring."""
    if not AVAILABLE:
        raise RuntimeError("ortools is not installed (pip install 'ortools>=9.10')")
    rows = [tuple(r) for r in rows]
    columns = [tuple(c) for c in columns]
    h, w = len(rows), len(columns)
    t0 = time.monotonic()
    m = cp_model.CpModel()
    x = [[m.new_bool_var(f"x{r}_{c}") for c in range(w)] for r in range(h)]
    cache: dict[Clue, tuple[list[tuple[int, int, int]], list[int]]] = {}

    def automaton(clue: Clue):
        a = cache.get(clue)
        if a is None:
            a = cache[clue] = line_automaton(clue)
        return a

    _add_lines(m, x, rows, columns, automaton)
    add_rules(m, x, rules, automaton)
    return _settle(m, time_limit, workers, t0,
                   read=lambda solver: tuple("".join("#" if solver.boolean_value(x[r][c]) else "." for c in range(w))
                                             for r in range(h)),
                   clues_ok=lambda g: _clues_of(g) == (tuple(rows), tuple(columns)) and all(
                       rule_holds(rule, g) for rule in rules),
                   differs=lambda s1: [x[r][c].Not() if s1[r][c] == "#" else x[r][c]
                                       for r in range(h) for c in range(w)])


def _add_lines(m, x, rows, columns, automaton) -> None:
    """One ``add_automaton`` per row and per column of the cell variables ``x``."""
    h, w = len(rows), len(columns)
    for r in range(h):
        trans, finals = automaton(rows[r])
        m.add_automaton(x[r], 0, finals, trans)
    for c in range(w):
        trans, finals = automaton(columns[c])
        m.add_automaton([x[r][c] for r in range(h)], 0, finals, trans)


def _mirror(axis: str, h: int, w: int, r: int, c: int) -> tuple[int, int]:
    return {"left-right": (r, w - 1 - c), "top-bottom": (h - 1 - r, c), "rotate180": (h - 1 - r, w - 1 - c),
            "transpose": (c, r)}[axis]


def add_rules(m, x, rules: Sequence[dict], automaton) -> None:
    """The black-and-white rules as CP-SAT constraints: ``symmetric`` (equal mirror cells),
    ``count`` (a linear constraint on the sum), ``no-square`` (each 2x2 sum at most 3)
    and ``line`` (the clue's automaton over the line's cells).  ``connected`` has no
    simple CP-SAT form and is refused."""
    h, w = len(x), len(x[0])
    for rule in rules:
        kind = rule["rule"]
        if kind == "symmetric":
            for r in range(h):
                for c in range(w):
                    mr, mc = _mirror(rule["axis"], h, w, r, c)
                    if (r, c) < (mr, mc):
                        m.add(x[r][c] == x[mr][mc])
        elif kind == "count":
            total = sum(x[r][c] for r in range(h) for c in range(w))
            op, n = rule["op"], rule["n"]
            m.add(total == n if op == "=" else total >= n if op == ">=" else total <= n)
        elif kind == "no-square":
            for r in range(h - 1):
                for c in range(w - 1):
                    m.add(x[r][c] + x[r][c + 1] + x[r + 1][c] + x[r + 1][c + 1] <= 3)
        elif kind == "line":
            trans, finals = automaton(tuple(rule["clue"]))
            m.add_automaton([x[r][c] for r, c in rule["cells"]], 0, finals, trans)
        else:
            raise ValueError(f"the CP-SAT reference has no model of rule {kind!r}")


def rule_holds(rule: dict, grid: Grid) -> bool:
    """Whether a black-and-white grid keeps a rule (written from the definitions, for checking)."""
    h, w = len(grid), len(grid[0])
    kind = rule["rule"]
    if kind == "symmetric":
        return all(grid[r][c] == grid[mr][mc] for r in range(h) for c in range(w)
                   for mr, mc in [_mirror(rule["axis"], h, w, r, c)])
    if kind == "count":
        k = sum(row.count("#") for row in grid)
        return {"=": k == rule["n"], ">=": k >= rule["n"], "<=": k <= rule["n"]}[rule["op"]]
    if kind == "no-square":
        return not any(grid[r][c] == grid[r][c + 1] == grid[r + 1][c] == grid[r + 1][c + 1] == "#"
                       for r in range(h - 1) for c in range(w - 1))
    if kind == "line":
        cells = "".join(grid[r][c] for r, c in rule["cells"])
        return tuple(len(run) for run in cells.split(".") if run) == tuple(rule["clue"])
    raise ValueError(kind)


def _settle(m, time_limit: float | None, workers: int, t0: float, read, clues_ok, differs) -> RefResult:
    """Solve ``m`` for a first solution, exclude it (``differs(s1)``: Booleans one of which
    must hold in another solution) and solve again; every grid ``read`` is checked with
    ``clues_ok``.  The time limit covers both solves."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = workers
    solves = 0

    def run() -> int | None:
        nonlocal solves
        if time_limit is not None:
            left = time_limit - (time.monotonic() - t0)
            if left <= 0:
                return None
            solver.parameters.max_time_in_seconds = left
        solves += 1
        return solver.solve(m)

    def verified(g: Grid) -> Grid:
        if not clues_ok(g):
            raise AssertionError("CP-SAT reference produced a grid that does not satisfy the clues")
        return g

    st = run()
    if st == cp_model.INFEASIBLE:
        return RefResult("none", solves=solves)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return RefResult("unknown", reason="time limit before a first solution", solves=solves)
    s1 = verified(read(solver))
    m.add_bool_or(differs(s1))  # at least one cell differs from the first solution
    st = run()
    if st == cp_model.INFEASIBLE:
        return RefResult("unique", (s1,), solves=solves)
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return RefResult("unknown", (s1,), reason="time limit before uniqueness was proved", solves=solves)
    s2 = verified(read(solver))
    if s2 == s1:
        raise AssertionError("CP-SAT reference returned the excluded solution again")
    return RefResult("multiple", (s1, s2), solves=solves)


def color_line_automaton(lengths: Sequence[int], colors: Sequence[int],
                         blots: int = 0) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Transition triples and final states of the DFA of one colour line (symbols: 0
    background, v >= 1 colour v), starting state 0.

    States: ``S(j, t)`` -- t cells of block j read (t = 0: before block j,
    zeros allowed); ``E(j)`` -- block j complete; ``Z`` -- trailing zeros.
    A blotted block j (bit j of ``blots``) is complete after one cell and ``E(j)`` reads
    more of its colour: its length is 1..n, whatever the cells make it.
    """
    k = len(lengths)
    if k == 0:
        return [(0, 0, 0)], [0]
    ids: dict[tuple, int] = {}

    def sid(key: tuple) -> int:
        return ids.setdefault(key, len(ids))

    sid(("S", 0, 0))  # state 0
    triples: list[tuple[int, int, int]] = []

    def start_block(src: int, j: int) -> None:
        """From ``src``, reading colour_j begins block j."""
        nxt = ("E", j) if lengths[j] == 1 else ("S", j, 1)
        triples.append((src, colors[j], sid(nxt)))

    lengths = [1 if (blots >> j) & 1 else n for j, n in enumerate(lengths)]
    for j in range(k):
        s0 = sid(("S", j, 0))
        triples.append((s0, 0, s0))
        start_block(s0, j)
        for t in range(1, lengths[j]):
            nxt = ("E", j) if t + 1 == lengths[j] else ("S", j, t + 1)
            triples.append((sid(("S", j, t)), colors[j], sid(nxt)))
        e = sid(("E", j))
        if (blots >> j) & 1:  # a blot: any length >= 1
            triples.append((e, colors[j], e))
        if j + 1 < k:
            triples.append((e, 0, sid(("S", j + 1, 0))))
            if colors[j + 1] != colors[j]:
                start_block(e, j + 1)
        else:
            z = sid(("Z",))
            triples.append((e, 0, z))
            triples.append((z, 0, z))
    return triples, [ids[("E", k - 1)], ids[("Z",)]]


def _color_clues_of(grid: Grid, chars: str):
    def blocks(cells: str):
        out = []
        prev = ""
        for ch in cells:
            if ch == prev and out:
                out[-1][0] += 1
                continue
            prev = ch if ch != chars[0] else ""
            if ch != chars[0]:
                out.append([1, chars.index(ch)])
        return tuple(tuple(b) for b in out)

    return tuple(blocks(r) for r in grid), tuple(blocks("".join(c)) for c in zip(*grid))


def _color_cells(m, x, chars: str):
    """For a model whose cells ``x[r][c]`` are colour indices: how a solution is read back as a
    grid, and the literals "the cell differs from grid s1" (for the second-solution search)."""
    h, w = len(x), len(x[0]) if x else 0

    def read(solver) -> Grid:
        return tuple("".join(chars[solver.value(x[r][c])] for c in range(w)) for r in range(h))

    def differs(s1: Grid) -> list:
        out = []
        for r in range(h):
            for c in range(w):
                b = m.new_bool_var("")
                v = chars.index(s1[r][c])
                m.add(x[r][c] != v).only_enforce_if(b)
                m.add(x[r][c] == v).only_enforce_if(~b)
                out.append(b)
        return out

    return read, differs


def _color_model(rows: Sequence, columns: Sequence, chars: str, automaton_of):
    """One integer 0..K per cell and one automaton per line, ``automaton_of(line's clue)`` (made
    once per distinct clue): the model, how a solution is read back, and the literals "differs
    from grid s1" (:func:`_color_cells`)."""
    h, w, k = len(rows), len(columns), len(chars) - 1
    m = cp_model.CpModel()
    x = [[m.new_int_var(0, k, f"x{r}_{c}") for c in range(w)] for r in range(h)]
    cache: dict = {}

    def automaton(line):
        a = cache.get(line)
        if a is None:
            a = cache[line] = automaton_of(line)
        return a

    _add_lines(m, x, rows, columns, automaton)
    read, differs = _color_cells(m, x, chars)
    return m, read, differs


def check_color(rows: Sequence[Sequence[tuple[int, int]]], columns: Sequence[Sequence[tuple[int, int]]],
                chars: str, time_limit: float | None = 60.0, workers: int = 1) -> RefResult:
    """Settle a colour puzzle given by its ``(length, colour)`` blocks; ``chars`` are the
    grid characters of colours 0..K (background first).  See the module docstring."""
    if not AVAILABLE:
        raise RuntimeError("ortools is not installed (pip install 'ortools>=9.10')")
    rows = [tuple(tuple(b) for b in r) for r in rows]
    columns = [tuple(tuple(b) for b in c) for c in columns]
    t0 = time.monotonic()
    m, read, differs = _color_model(rows, columns, chars,
                                    lambda blocks: color_line_automaton([b[0] for b in blocks], [b[1] for b in blocks]))
    return _settle(m, time_limit, workers, t0, read=read,
                   clues_ok=lambda g: _color_clues_of(g, chars) == (tuple(rows), tuple(columns)),
                   differs=differs)


def check_blotted(rows: Sequence[tuple[Sequence[int], Sequence[int], int]],
                  columns: Sequence[tuple[Sequence[int], Sequence[int], int]], chars: str,
                  time_limit: float | None = 60.0, workers: int = 1) -> RefResult:
    """Settle a puzzle with blotted clues (black and white or colour): each line is
    ``(lengths, colours, blots)`` as in ``satnono.clues.LineClue`` (bit j of ``blots``: block j's
    length is hidden).  One integer 0..K per cell, one automaton per line
    (:func:`color_line_automaton`), in which a blotted block's length is free (1..n): the
    automaton's loop on its colour plays the length variable.  ``chars``: the grid characters
    of colours 0..K.  Solutions are checked against the clues (known lengths equal, colours
    and block counts equal)."""
    if not AVAILABLE:
        raise RuntimeError("ortools is not installed (pip install 'ortools>=9.10')")
    rows = [(tuple(a), tuple(b), int(c)) for a, b, c in rows]
    columns = [(tuple(a), tuple(b), int(c)) for a, b, c in columns]
    t0 = time.monotonic()
    m, read, differs = _color_model(rows, columns, chars, lambda line: color_line_automaton(*line))

    def fits(blocks, line) -> bool:
        lengths, colors, blots = line
        return (tuple(c for _, c in blocks) == colors and
                all(n == want or (blots >> j) & 1 for j, ((n, _), want) in enumerate(zip(blocks, lengths))))

    def clues_ok(g: Grid) -> bool:
        rb, cb = _color_clues_of(g, chars)
        return all(map(fits, rb, rows)) and all(map(fits, cb, columns))

    return _settle(m, time_limit, workers, t0, read=read, clues_ok=clues_ok, differs=differs)
