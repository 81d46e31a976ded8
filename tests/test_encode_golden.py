"""The rectangle's CNF, byte for byte: the SHA-256 of the DIMACS text (and of what the encoding
object says of it: variables, open cells, selectors, ladders) of every bundled rectangular puzzle,
at three states (nothing known, the line fixpoint, a seeded share of a solution revealed), with
and without selectors, flat and not, fed to a sink, with the puzzle's rules and with extra rules
added here, against ``tests/data/encode-golden.json``, made by the encoder of commit 1d125b3
(before the lane driver).  ``python tests/test_encode_golden.py`` writes the file again (only
when a change of the CNF is meant)."""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

from satnono.cnf.encode import encode, estimate
from satnono.formats import load
from satnono.lines import LineSolver
from satnono.logic.propagate import propagate
from satnono.logic.state import initial_state
from satnono.model import Puzzle
from satnono.rules import rule_from_json

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).with_name("data") / "encode-golden.json"
#: fresh and revealed states of grids above this many cells are left out (minutes in Python)
BIG = 40_000


def _puzzles() -> list[tuple[str, Puzzle]]:
    out = []
    for path in sorted((ROOT / "puzzles").rglob("*")):
        if path.suffix not in (".xml", ".non", ".nin", ".json") or path.name == "expected.txt":
            continue
        p = load(str(path))
        if isinstance(p, Puzzle):
            out.append((str(path.relative_to(ROOT / "puzzles")), p))
    return out


def _with_rules(p: Puzzle) -> Puzzle:
    """``p`` with rules that have clauses (and a lazy one) and, when a solution is known, two of
    its cells given."""
    h, w = p.height, p.width
    extra = {} if not p.is_color else {"color": p.palette[1].char}
    specs = [{"rule": "count", "op": ">=", "n": 1, **extra}, {"rule": "no-square", **extra},
             {"rule": "connected", **extra}, {"rule": "symmetric", "axis": "rotate180"}]
    rules = tuple(rule_from_json(s) for s in specs)
    p = p.replace(rules=rules)
    solution = _solution(p)
    if solution is None:
        return p
    return p.with_givens({(r, c): p.chars.index(solution[r][c]) for r, c in ((0, 0), (h - 1, w - 1))})


def _solution(p: Puzzle):
    """A solution of ``p`` known without search (line logic's, or a goal that is one), or None."""
    lines = LineSolver()
    fix = initial_state(p)
    if propagate(fix, lines) is None and fix.unknown_count() == 0:
        return fix.grid()
    return p.goal if p.goal and p.is_solution(p.goal) else None


def _digest(enc, fed: bytes | None = None) -> str:
    h = hashlib.sha256()
    meta = (enc.nvars, enc.nclauses, enc.unsat, enc.lines, enc.block_vars, sorted(enc.selectors.items()),
            enc.ncolors, enc.unknown_vars, enc.unknown_cells, sorted(enc.allowed.items()), enc.ladder_lines,
            enc.open_rows, enc.fed)
    h.update(repr(meta).encode())
    if fed is not None:
        h.update(fed)
        return h.hexdigest()
    h.update(f"p cnf {enc.nvars} {enc.nclauses}\n".encode())
    for cl in enc.clauses:
        h.update((" ".join(map(str, cl)) + " 0\n").encode())
    return h.hexdigest()


def _states(p: Puzzle, lines: LineSolver):
    """``(name, state)``: nothing known, the line fixpoint, 40 % of a solution revealed."""
    big = p.height * p.width > BIG
    fresh = initial_state(p)
    if not big:
        yield "fresh", fresh
    fix = fresh.copy()
    if propagate(fix, lines) is not None:
        return
    yield "fixpoint", fix
    solution = _solution(p)
    if solution is None or big:
        return
    rng = random.Random(39)
    shown = fresh.copy()
    for r in range(p.height):
        for c in range(p.width):
            if rng.random() < 0.4 and shown.cell(r, c) is None:
                shown.set_cell(r, c, p.chars.index(solution[r][c]))
    yield "revealed", shown


def _fed(state, lines: LineSolver) -> str:
    chunks: list[bytes] = []
    fed = encode(state, lines, flat=True, sink=chunks.append)
    return _digest(fed, b"".join(chunks)) if fed.fed else _digest(fed)


#: what is hashed of each state: ``name -> f(state, lines)``
KINDS = {
    "estimate": lambda st, ls: repr(estimate(st, ls)),
    "lists": lambda st, ls: _digest(encode(st, ls)),
    "selectors": lambda st, ls: _digest(encode(st, ls, selectors=True)),
    "flat": lambda st, ls: _digest(encode(st, ls, flat=True)),
    "sink": _fed,
    "every line": lambda st, ls: _digest(encode(st, ls, rows=range(st.height), columns=range(st.width),
                                                selectors=True)),
    "some lines": lambda st, ls: _digest(encode(st, ls, rows=range(0, st.height, 2), columns=range(1, st.width, 3))),
}


def digests() -> dict[str, str]:
    lines = LineSolver()
    out: dict[str, str] = {}
    for name, p0 in _puzzles():
        variants = [("", p0)]
        if p0.height * p0.width <= 2500:
            variants.append(("+rules", _with_rules(p0)))
        for tag, p in variants:
            for sname, state in _states(p, lines):
                for kind, make in KINDS.items():
                    try:
                        out[f"{name}{tag} {sname} {kind}"] = make(state, lines)
                    except ValueError as e:  # (a line with no placement: the message is golden too)
                        out[f"{name}{tag} {sname} {kind}"] = f"error: {e}"
    return out


def test_rectangle_cnf_is_byte_identical_to_the_golden_file():
    want = json.loads(GOLDEN.read_text())
    got = digests()
    assert got.keys() == want.keys()
    assert [k for k in want if got[k] != want[k]] == []


if __name__ == "__main__":
    GOLDEN.write_text(json.dumps(digests(), indent=0, sort_keys=True) + "\n")
    sys.exit(0)
