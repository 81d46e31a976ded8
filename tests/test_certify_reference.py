"""The trust base of certificates (issue 40) against brute force: the reference encoder's formula
has exactly the puzzle's solutions as models, on the cell variables (every grid of small
puzzles of every kind: black and white, colour, blotted, givens, each eagerly encoded rule);
unit propagation on a line's clauses finds every value no placement allows (what makes line
deductions RUP lemmas); the replay's line solver and rule narrowing are exact; the puzzle
reader reads what satnono's JSON writer writes; and the trust base imports nothing of the fast
encoder, the line kernels, the logic or the compiled core (by AST)."""

from __future__ import annotations

import ast
import itertools
import random
from pathlib import Path

import pytest
from pysat.solvers import Solver

from satnono.certify.puzzle import Spec, fits, grid_error, read_puzzle
from satnono.certify.reference import Encoder, encode, literal, nvalues, variable, variable_map
from satnono.certify.puzzle import narrow, solve_line
from satnono.certify.writer import clauses, spec_of
from satnono.formats import dumps
from satnono.model import Puzzle, default_palette
from satnono.rules import rule_from_json

PKG = Path(__file__).resolve().parents[1] / "satnono"
#: The modules one reads to trust a certified verdict.
TRUST_BASE = ("puzzle", "reference", "verifier", "drat")


def runs(values: list[int]) -> list[tuple[int, int]]:
    """The blocks ``(length, colour)`` a line of values shows."""
    out: list[list[int]] = []
    for i, v in enumerate(values):
        if v and i and values[i - 1] == v:
            out[-1][0] += 1
        elif v:
            out.append([1, v])
    return [(n, v) for n, v in out]


def _random_grid(rng: random.Random, h: int, w: int, k: int, density: float = 0.55) -> tuple[str, ...]:
    chars = ".#" if k == 1 else ".abcd"[:k + 1]
    return tuple("".join(chars[rng.randint(1, k)] if rng.random() < density else "." for _ in range(w))
                 for _ in range(h))


def _puzzle(grid: tuple[str, ...], k: int, blot: float = 0.0, rng: random.Random | None = None, **kw) -> Puzzle:
    """The puzzle of ``grid`` (clues only), a share ``blot`` of its row numbers blotted."""
    p = Puzzle.from_grid(grid, palette=None if k == 1 else default_palette(k)).replace(goal=None)
    if blot and rng is not None:
        rows = tuple(tuple(("?" if rng.random() < blot else n, c) for n, c in zip(ls, cs))
                     for ls, cs in zip(p.rows, p.row_colors))
        p = p.replace(rows=rows, row_colors=())
    return p.replace(**kw) if kw else p


def _spec(p: Puzzle) -> Spec:
    """The puzzle as a certificate's reader sees it: through satnono's JSON writer."""
    return read_puzzle(dumps(p, "json").encode("utf-8"))


def _values(spec: Spec, model: set[int]) -> tuple[tuple[int, ...], ...]:
    k = nvalues(spec)
    out = []
    for r in range(spec.height):
        row = []
        for c in range(spec.width):
            if k == 1:
                row.append(int(variable(spec, r, c, 1) in model))
            else:
                (v,) = [v for v in range(k + 1) if variable(spec, r, c, v) in model]
                row.append(v)
        out.append(tuple(row))
    return tuple(out)


def _models(spec: Spec) -> set:
    """Every model of the formula, read on the cell variables (blocking clauses over them)."""
    out = set()
    with Solver(name="cadical195", bootstrap_with=clauses(encode(spec)[1])) as s:
        while s.solve():
            g = _values(spec, {x for x in s.get_model() if x > 0})
            assert g not in out
            out.add(g)
            s.add_clause([-literal(spec, r, c, g[r][c]) for r in range(spec.height) for c in range(spec.width)])
    return out


def _brute(spec: Spec, p: Puzzle) -> set:
    """Every grid, kept when certify's solution check accepts it, which must be exactly when
    satnono's own ``Puzzle.is_solution`` does."""
    k, h, w = nvalues(spec), spec.height, spec.width
    out = set()
    for cells in itertools.product(range(k + 1), repeat=h * w):
        g = [list(cells[r * w:(r + 1) * w]) for r in range(h)]
        ok = grid_error(spec, g) is None
        assert ok == p.is_solution(tuple("".join(spec.chars[v] for v in row) for row in g)), g
        if ok:
            out.add(tuple(map(tuple, g)))
    return out


def _cases(kind: str, count: int, seed: int) -> list[Puzzle]:
    rng = random.Random(f"{kind}-{seed}")
    out = []
    while len(out) < count:
        k = 2 if kind.endswith("colour") else 1
        h, w = (rng.randint(1, 3), rng.randint(1, 3)) if k == 2 else (rng.randint(1, 4), rng.randint(1, 4))
        grid = _random_grid(rng, h, w, k)
        if kind.startswith("blotted"):
            out.append(_puzzle(grid, k, 0.4, rng))
        elif kind.startswith("givens"):
            cells = rng.sample([(r, c) for r in range(h) for c in range(w)], min(2, h * w))
            out.append(_puzzle(grid, k, givens=tuple((r, c, rng.randint(0, k)) for r, c in cells)))
        elif kind.startswith("symmetric"):
            axes = ["left-right", "top-bottom", "rotate180"] + (["transpose"] if h == w else [])
            out.append(_puzzle(grid, k, rules=(rule_from_json({"rule": "symmetric", "axis": rng.choice(axes)}),)))
        elif kind.startswith("count"):
            spec = {"rule": "count", "op": rng.choice(["=", ">=", "<="]), "n": rng.randint(0, h * w)}
            if k == 2 and rng.random() < 0.5:
                spec["color"] = "b"
            out.append(_puzzle(grid, k, rules=(rule_from_json(spec),)))
        elif kind.startswith("no-square"):
            spec = {"rule": "no-square"} if k == 1 or rng.random() < 0.5 else {"rule": "no-square", "color": "a"}
            out.append(_puzzle(grid, k, rules=(rule_from_json(spec),)))
        elif kind.startswith("line"):
            cells = rng.sample([[r, c] for r in range(h) for c in range(w)], rng.randint(1, min(4, h * w)))
            clue = [rng.randint(1, 2) for _ in range(rng.randint(0, 2))]
            if k == 2:
                clue = [[n, rng.choice("ab")] for n in clue]
            out.append(_puzzle(grid, k, rules=(rule_from_json({"rule": "line", "cells": cells, "clue": clue}),)))
        else:
            out.append(_puzzle(grid, k))
    return out


KINDS = {"bw": 60, "colour": 12, "blotted": 40, "blotted-colour": 10, "givens": 20, "givens-colour": 6,
         "symmetric": 20, "symmetric-colour": 6, "count": 25, "count-colour": 6, "no-square": 20,
         "no-square-colour": 6, "line": 20, "line-colour": 6}


@pytest.mark.parametrize("kind", KINDS)
def test_the_formulas_models_are_exactly_the_solutions(kind):
    for p in _cases(kind, KINDS[kind], seed=40):
        spec = _spec(p)
        assert spec == spec_of(p)
        assert _models(spec) == _brute(spec, p), dumps(p, "json")


def test_an_unsatisfiable_puzzle_has_no_model():
    p = Puzzle.from_clues(rows=[[3]], columns=[[1], [1]])  # a clue too long for its row
    assert _models(_spec(p)) == set() and _brute(_spec(p), p) == set()
    assert "0" in encode(_spec(p))[1]  # the empty clause


def test_the_variable_map_is_the_documented_one():
    bw = _spec(Puzzle.from_clues(rows=[[1]] * 3, columns=[[1]] * 4))
    assert [variable(bw, r, c, 1) for r in range(3) for c in range(4)] == list(range(1, 13))
    assert variable_map(bw)[2][1] == 2 * 4 + 1 + 1 and literal(bw, 2, 1, 0) == -10
    colour = _spec(_puzzle(("ab.", ".ba"), 2))
    assert variable_map(colour)[1][2] == [(1 * 3 + 2) * 3 + v + 1 for v in range(3)]
    assert encode(colour)[0] > 2 * 3 * 3  # auxiliary variables follow the cells'


# --- unit propagation is complete on a line: line deductions are RUP lemmas -------------------

def _line_encoder(n: int, k: int) -> tuple[Spec, Encoder]:
    chars = ".#" if k == 1 else ".abc"[:k + 1]
    spec = Spec(1, n, chars, ((),), ((),) * n, (), ())
    enc = Encoder(spec)
    if k > 1:
        for c in range(n):
            xs = [variable(spec, 0, c, v) for v in range(k + 1)]
            enc.add(*xs)
            for i, a in enumerate(xs):
                for b in xs[i + 1:]:
                    enc.add(-a, -b)
    return spec, enc


def _random_line(rng: random.Random, k: int, n: int) -> tuple:
    vals = [rng.randrange(k + 1) if rng.random() < 0.6 else 0 for _ in range(n)]
    blocks = tuple((None if rng.random() < 0.2 else m, v) for m, v in runs(vals))
    if rng.random() < 0.2:  # some clues no grid of the line has
        blocks = tuple((rng.randint(1, 3), rng.randint(1, k)) for _ in range(rng.randint(0, 3)))
    return blocks


def _propagate(clauses: list[list[int]], units: list[int]) -> tuple[bool, set[int]]:
    """Unit propagation, plainly: ``(no conflict, the literals it makes true)``."""
    true = set(units)
    changed = True
    while changed:
        changed = False
        for cl in clauses:
            if any(x in true for x in cl):
                continue
            left = [x for x in cl if -x not in true]
            if not left:
                return False, true
            if len(left) == 1:
                true.add(left[0])
                changed = True
    return True, true


def test_unit_propagation_finds_every_value_a_line_rules_out():
    rng = random.Random(40)
    for _ in range(400):
        k, n = rng.choice([1, 1, 2, 3]), rng.randint(1, 8)
        blocks = _random_line(rng, k, n)
        spec, enc = _line_encoder(n, k)
        enc.line([(0, c) for c in range(n)], blocks)
        allowed = [rng.randrange(1, 1 << (k + 1)) if rng.random() < 0.4 else (1 << (k + 1)) - 1 for _ in range(n)]
        units = [-literal(spec, 0, c, v) for c in range(n) for v in range(k + 1) if not (allowed[c] >> v) & 1]
        ok, implied = _propagate(clauses(enc.lines), units)
        support = solve_line(n, blocks, allowed, k + 1)
        if support is None:  # no placement: unit propagation finds a conflict
            assert not ok, (blocks, allowed)
            continue
        assert ok, (blocks, allowed)
        for c in range(n):
            for v in range(k + 1):
                if not (support[c] >> v) & 1:
                    assert -literal(spec, 0, c, v) in implied, (blocks, allowed, c, v)


# --- the replay's own solvers --------------------------------------------------------------------

def test_the_replays_line_solver_is_exact():
    rng = random.Random(41)
    for _ in range(3000):
        k, n = rng.choice([1, 2, 3]), rng.randint(1, 7)
        blocks = _random_line(rng, k, n)
        allowed = [rng.randrange(1, 1 << (k + 1)) if rng.random() < 0.5 else (1 << (k + 1)) - 1 for _ in range(n)]
        support, found = [0] * n, False
        for line in itertools.product(range(k + 1), repeat=n):
            if all((allowed[i] >> line[i]) & 1 for i in range(n)) and fits(list(line), blocks):
                found = True
                for i in range(n):
                    support[i] |= 1 << line[i]
        got = solve_line(n, blocks, allowed, k + 1)
        assert (got is None) == (not found) and (got is None or got == support), (n, blocks, allowed)


@pytest.mark.parametrize("rule", [
    {"rule": "symmetric", "axis": "left-right"}, {"rule": "symmetric", "axis": "rotate180"},
    {"rule": "symmetric", "axis": "transpose"}, {"rule": "count", "op": "=", "n": 4},
    {"rule": "count", "op": ">=", "n": 6}, {"rule": "count", "op": "<=", "n": 2},
    {"rule": "count", "op": "=", "n": 3, "color": "a"}, {"rule": "no-square"}, {"rule": "no-square", "color": "b"},
    {"rule": "line", "cells": [[0, 0], [1, 1], [2, 2]], "clue": [1, 1]}])
def test_a_rules_narrowing_is_exact(rule):
    """A rule lane keeps of each cell's values exactly those some grid keeping the rule alone
    (and the state) gives it; None exactly when there is no such grid."""
    rng = random.Random(str(rule))
    k = 2 if rule.get("color") else 1
    spec = _spec(_puzzle(_random_grid(rng, 3, 3, k), k, rules=(rule_from_json(rule),)))
    everything = (1 << (k + 1)) - 1
    grids = [[list(cells[r * 3:r * 3 + 3]) for r in range(3)] for cells in itertools.product(range(k + 1), repeat=9)]
    keeps = [g for g in grids if _keeps_rule(spec, g)]
    for _ in range(150):
        state = [[rng.randrange(1, everything + 1) if rng.random() < 0.3 else everything for _ in range(3)]
                 for _ in range(3)]
        support = [[0] * 3 for _ in range(3)]
        found = False
        for g in keeps:
            if all((state[r][c] >> g[r][c]) & 1 for r in range(3) for c in range(3)):
                found = True
                for r in range(3):
                    for c in range(3):
                        support[r][c] |= 1 << g[r][c]
        got = narrow(spec, spec.rules[0], state)
        assert (got is None) == (not found), state
        if got is not None:
            new = [[got.get((r, c), state[r][c]) for c in range(3)] for r in range(3)]
            assert new == support, (state, got)


def _keeps_rule(spec: Spec, grid: list[list[int]]) -> bool:
    """Whether ``grid`` keeps the spec's rules (its clues and givens ignored)."""
    free = spec._replace(rows=tuple(tuple(runs(row)) for row in grid), givens=(),
                         columns=tuple(tuple(runs([row[c] for row in grid])) for c in range(spec.width)))
    return grid_error(free, grid) is None


# --- the puzzle reader ---------------------------------------------------------------------------

def test_the_reader_reads_what_satnonos_json_writer_writes():
    rng = random.Random(42)
    for kind in KINDS:
        for p in _cases(kind, 5, seed=rng.randrange(1000)):
            assert _spec(p) == spec_of(p), kind
    named = Puzzle.from_grid(("ab", "ba"), palette=default_palette(2)).replace(
        rules=(rule_from_json({"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [[1, 1], [1, "b"]]}),
               rule_from_json({"rule": "count", "op": "=", "n": 2, "color": default_palette(2)[2].name})))
    assert _spec(named) == spec_of(named)


@pytest.mark.parametrize("doc, what", [
    (b"", "not JSON"), (b"[1, 2]", "expected a JSON object"), (b'{"rows": [[1]]}', "columns"),
    (b'{"rows": [[1]], "columns": [[0]]}', "columns[0][0]"), (b'{"rows": [[-1]], "columns": [[1]]}', "rows[0][0]"),
    (b'{"rows": [[[1, "z"]]], "columns": [[1]]}', "not a colour"), (b'{"rows": [["1"]], "columns": [[1]]}', "rows[0][0]"),
    (b'{"rows": [[1]], "columns": [[1]], "rules": [{"rule": "connected"}]}', "connected"),
    (b'{"rows": [[1]], "columns": [[1]], "rules": [{"rule": "mine"}]}', "not a rule"),
    (b'{"rows": [[1]], "columns": [[1]], "givens": [[0, 5, "#"]]}', "givens[0]"),
    (b'{"rows": [[1], [1]], "columns": [[1]], "rules": [{"rule": "symmetric", "axis": "transpose"}]}', "rules[0]"),
    (b"[" * 100000, "not JSON")])
def test_the_reader_refuses_what_is_not_a_puzzle(doc, what):
    with pytest.raises(ValueError) as e:
        read_puzzle(doc)
    assert what in str(e.value) and "\n" not in str(e.value)


# --- the trust base imports nothing else of satnono ----------------------------------------------

def _satnono_imports(path: Path) -> list[str]:
    """Every satnono module ``path`` imports (relative imports resolved; lazy ones too)."""
    tree = ast.parse(path.read_text())
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out += [a.name for a in node.names if a.name.split(".")[0] == "satnono"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = "satnono.certify".split(".")[:3 - node.level]
                target = ".".join(base + ([node.module] if node.module else []))
                out += [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            elif node.module and node.module.split(".")[0] == "satnono":
                out.append(node.module)
    return out


@pytest.mark.parametrize("name", TRUST_BASE)
def test_the_trust_base_imports_only_the_trust_base(name):
    """Not the fast encoder (satnono.cnf), the line kernels (satnono.lines), the logic, the
    compiled core, nor anything else of satnono: only the trust base's own modules (and the
    DRAT checker its compiled twin)."""
    allowed = {f"satnono.certify.{m}" for m in TRUST_BASE} | {"satnono.certify._drat"}
    for target in _satnono_imports(PKG / "certify" / f"{name}.py"):
        assert target in allowed, f"satnono/certify/{name}.py imports {target}"
    text = (PKG / "certify" / f"{name}.py").read_text()
    for word in ("importlib", "__import__", "sys.modules"):
        assert word not in text, f"satnono/certify/{name}.py uses {word}"

