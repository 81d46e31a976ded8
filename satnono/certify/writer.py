"""Writing certificates: :func:`certify`.

Not part of the trust base: the writer uses satnono's whole pipeline (the verdict, the line
kernels for the deductions, CaDiCaL for the proofs), because ``satnono verify`` checks
everything it writes with the trust base alone.

A certificate is a directory:

``puzzle.json``
    the puzzle as read, in satnono's JSON format (clues, palette, blots, givens, rules);
``formula.cnf``
    the reference encoding of ``puzzle.json`` (:mod:`satnono.certify.reference`), DIMACS;
``solution`` (unique, multiple) and ``solution2`` (multiple)
    a solution, one row of palette characters a line;
``proof.drat`` (unique, none)
    a text DRAT proof (CaDiCaL 1.9.5's, through python-sat) that ``formula.cnf`` with the
    blocking clause of ``solution`` appended (unique), or ``formula.cnf`` alone (none), is
    unsatisfiable;
``deductions.json`` (unique, multiple)
    the line deductions from the empty grid (replayed by :mod:`satnono.certify.verifier`): to the solution
    for a line-solvable puzzle, else to the state where every lane is stuck;
``certificate.json``
    the manifest: verdict, flags, versions, the SHA-256 of each file, the variable map.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import sys
import tempfile
import time

from ..errors import SatnonoError
from .puzzle import Spec, grid_error, read_puzzle
from .reference import ENCODER_VERSION, blocking_clause, dimacs, encode, variable_map
from .verifier import FILES, MANIFEST

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..model import Puzzle
    from ..solve import Checker, CheckResult

FORMAT = "satnono-certificate"
FORMAT_VERSION = 1
PROOF_FORMAT = "DRAT, text (CaDiCaL 1.9.5 through python-sat)"
#: Conflicts of each slice of a proof search that has a deadline.
PROOF_SLICE = 20_000


class CertifyError(SatnonoError):
    """A puzzle that cannot be certified, or a certificate that cannot be written (one line)."""


class Certificate:
    """What :func:`certify` wrote: ``path``, ``verdict``, ``line_solvable``, ``seconds`` (the
    certificate's own work, the verdict's excluded), ``proof_bytes``, ``result`` (the check)."""

    def __init__(self, path: str, verdict: str, line_solvable: bool, seconds: float, proof_bytes: int,
                 result: CheckResult) -> None:
        self.path, self.verdict, self.line_solvable = path, verdict, line_solvable
        self.seconds, self.proof_bytes, self.result = seconds, proof_bytes, result

    def __repr__(self) -> str:
        return f"Certificate({self.path!r}, {self.verdict!r}, line_solvable={self.line_solvable})"


def refusal(puzzle: Puzzle) -> str | None:
    """Why ``puzzle`` cannot be certified (a lazily encoded rule, a rule certificates do not
    cover), or None."""
    from ..rules.spec import BUILTIN

    for rule in puzzle.rules:
        name = getattr(rule, "name", type(rule).__name__)
        if getattr(rule, "lazy", False):
            return f"rule {name} is encoded lazily (its cuts are not certified)"
        if type(rule) not in BUILTIN.values():
            return f"rule {name} is not a built-in rule (certificates cover symmetric, count, no-square and line)"
    return None


def spec_of(puzzle: Puzzle) -> Spec:
    """The puzzle as the trust base sees it, made from satnono's model (to compare with what
    :func:`~satnono.certify.puzzle.read_puzzle` reads back from the JSON written)."""
    def blocks(clue) -> tuple:  # type: ignore[no-untyped-def]
        return tuple((None if clue.is_blotted(j) else n, c) for j, (n, c) in enumerate(zip(clue.lengths, clue.colors)))

    rules: list[tuple] = []
    for rule in puzzle.rules:
        if rule.name == "symmetric":
            rules.append(("symmetric", rule.axis))
        elif rule.name == "count":
            rules.append(("count", rule.op, rule.n, rule.value))
        elif rule.name == "no-square":
            rules.append(("no-square", rule.value))
        elif rule.name == "line":
            rules.append(("line", tuple(rule.cells), tuple(zip(rule.lengths, rule.colors))))
    return Spec(puzzle.height, puzzle.width, puzzle.chars, tuple(map(blocks, puzzle.row_clues)),
                tuple(map(blocks, puzzle.column_clues)), tuple(puzzle.givens), tuple(rules))


def clauses(lines: list[str]) -> list[list[int]]:
    """The clauses of DIMACS lines as lists of literals (for CaDiCaL)."""
    return [[int(x) for x in line.split()[:-1]] for line in lines]


def values(spec: Spec, grid) -> list[list[int]]:  # type: ignore[no-untyped-def]
    return [[spec.chars.index(ch) for ch in row] for row in grid]


def prove(nvars: int, clauses: list[list[int]], deadline: float | None = None) -> bytes:
    """A text DRAT proof that ``clauses`` are unsatisfiable, by CaDiCaL 1.9.5; CertifyError
    when they are satisfiable (a wrong verdict: a bug) or the deadline passes."""
    from ..sat import refutation_proof

    found, lines = refutation_proof(clauses, deadline, PROOF_SLICE)
    if found is None:
        raise CertifyError("timed out while proving the verdict for the certificate")
    if found:
        raise CertifyError("internal error: the reference formula has a solution the verdict rules out "
                           "(please report it)")
    return ("\n".join(lines) + "\n").encode("ascii")


def deductions(puzzle: Puzzle, checker: Checker | None = None) -> tuple[list, bool]:
    """The line deductions satnono's kernels make from the empty grid (rows, columns, then the
    rules, until nothing changes), as ``deductions.json`` steps, and whether they solve the grid."""
    from ..lines import LineSolver
    from ..lines.bits import bit_list
    from ..logic.state import initial_state

    solver = checker.lines if checker is not None else LineSolver()
    state = initial_state(puzzle)
    chars, nvals = puzzle.chars, len(puzzle.chars)
    h, w = puzzle.height, puzzle.width
    line_rules = puzzle.line_rules
    steps: list = []
    dirty = {"row": [True] * h, "column": [True] * w}

    def record(kind: str, index: int, cells: set) -> None:
        steps.append([kind, index, [[r, c, "".join(chars[v] for v in state.possible(r, c))] for r, c in sorted(cells)]])
        for r, c in cells:
            dirty["row"][r] = dirty["column"][c] = True

    while True:
        before = len(steps)
        for kind, clues, n in (("row", puzzle.row_clues, w), ("column", puzzle.column_clues, h)):
            for i in range(len(clues)):
                if not dirty[kind][i]:
                    continue
                dirty[kind][i] = False
                ex = state.line_excluded(kind, i)
                res = solver.solve(clues[i], n, ex)
                if res is None:
                    raise CertifyError(f"internal error: {kind} {i + 1} has no placement (please report it)")
                cells = set()
                for v, (old, new) in enumerate(zip(ex, res.excluded)):
                    for j in bit_list(new & ~old):
                        cell = (i, j) if kind == "row" else (j, i)
                        state.exclude(*cell, v)
                        cells.add(cell)
                if cells:
                    record(kind, i, cells)
                    dirty[kind][i] = False
        if len(steps) == before:
            for index, rule in enumerate(puzzle.rules):
                before_rule = [ex[:] for ex in state.row_ex]
                if index in line_rules:  # an extra lane (a line rule): solved as a lane, recorded as its rule
                    j = line_rules.index(index)
                    lane = puzzle.lanes[h + w + j]
                    ex = state.lane_masks(lane)
                    res = solver.solve(puzzle.line_clues[j], len(lane.cells), ex)
                    if res is None:
                        raise CertifyError(f"internal error: rule {rule.name} has no grid (please report it)")
                    for v, (old, new) in enumerate(zip(ex, res.excluded)):
                        for i in bit_list(new & ~old):
                            state.exclude(*divmod(lane.cells[i], w), v)
                elif rule.narrow(state, None) is not None:
                    raise CertifyError(f"internal error: rule {rule.name} has no grid (please report it)")
                narrowed = {(r, c) for o, ex in zip(before_rule, state.row_ex) for r, (a, b) in enumerate(zip(o, ex))
                            for c in bit_list(a ^ b)}
                if narrowed:
                    record("rule", index, narrowed)
            if len(steps) == before:
                return steps, state.unknown_count() == 0


def _version() -> str:
    """satnono's version (its package is loaded whenever this module is: read off it, not
    imported from it, which would import the command-line layer's package from here)."""
    return str(sys.modules["satnono"].__version__)


def _sha(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def certify(puzzle: Puzzle, directory: str, *, result: CheckResult | None = None, checker: Checker | None = None,
            timeout: float | None = None, force: bool = False) -> Certificate:
    """Settle ``puzzle`` (or take ``result``, its settled check) and write its certificate into
    ``directory`` (made; an existing one is replaced only with ``force``, and only when it is
    a certificate).  CertifyError (one line) when the puzzle cannot be certified: a lazily
    encoded or user-written rule, a verdict that is not unique, multiple or none, an existing
    directory, time out."""
    why = refusal(puzzle)
    if why is not None:
        raise CertifyError(f"cannot certify: {why}")
    if os.path.lexists(directory) and not (force and _replaceable(directory)):
        raise CertifyError(f"{directory}: exists; not overwritten (use --force)" if not force else
                           f"{directory}: exists and is not a certificate; not overwritten")
    from ..formats import dumps

    if result is None:
        from ..solve import Checker

        result = (checker or Checker()).check(puzzle, timeout)
    t0 = time.monotonic()
    deadline = None if timeout is None else t0 + max(timeout - result.seconds, 0.0)
    verdict = result.status.value
    if verdict not in FILES:
        raise CertifyError(f"cannot certify: the puzzle is not settled ({verdict}: {result.reason})")
    text = dumps(puzzle, "json")
    puzzle_json = text.encode("utf-8") if isinstance(text, str) else text
    spec = read_puzzle(puzzle_json)
    if spec != spec_of(puzzle):
        raise CertifyError("cannot certify: the puzzle's JSON form reads back differently (please report it)")
    grids = [values(spec, g) for g in result.solutions]
    for g in grids:
        why = grid_error(spec, g)
        if why is not None:
            raise CertifyError(f"internal error: a solution fails the certificate's check: {why} (please report it)")
    nvars, lines = encode(spec)
    files = {"puzzle.json": puzzle_json, "formula.cnf": dimacs(nvars, lines)}
    manifest: dict = {"format": FORMAT, "format_version": FORMAT_VERSION, "verdict": verdict,
                      "line_solvable": bool(result.line_solvable), "satnono_version": _version(),
                      "encoder_version": ENCODER_VERSION, "source": puzzle.source,
                      "formula": {"variables": nvars, "clauses": len(lines)}}
    for name, rows in zip(("solution", "solution2"), result.solutions):
        files[name] = "".join(row + "\n" for row in rows).encode("utf-8")
    if verdict != "none":
        steps, solved = deductions(puzzle, checker)
        if solved != bool(result.line_solvable):
            raise CertifyError("internal error: the line deductions disagree with the verdict (please report it)")
        files["deductions.json"] = json.dumps({"steps": steps}, separators=(",", ":")).encode("ascii")
    if verdict != "multiple":
        block = blocking_clause(spec, grids[0]) if verdict == "unique" else None
        files["proof.drat"] = prove(nvars, clauses(lines) + ([block] if block else []), deadline)
        manifest["proof"] = {"file": "proof.drat", "format": PROOF_FORMAT,
                             "refutes": "formula.cnf with blocking_clause appended" if block else "formula.cnf"}
        if block:
            manifest["blocking_clause"] = " ".join(map(str, block)) + " 0"
    manifest["files"] = {name: _sha(data) for name, data in files.items()}
    manifest["variables"] = {
        "values": spec.chars,
        "description": ("cell (r, c), 0-based, is variable r*W+c+1, true when filled" if len(spec.chars) == 2 else
                        "cell (r, c) has value v (0 background, v the v-th colour) when variable "
                        "(r*W+c)*(K+1)+v+1 is true"),
        "cells": variable_map(spec)}
    files[MANIFEST] = (json.dumps(manifest, indent=1) + "\n").encode("utf-8")
    _write(directory, files, force)
    return Certificate(directory, verdict, bool(result.line_solvable), time.monotonic() - t0,
                       len(files.get("proof.drat", b"")), result)


def _replaceable(directory: str) -> bool:
    """Whether ``--force`` may replace ``directory``: a certificate (or an empty directory)."""
    return (os.path.isdir(directory) and not os.path.islink(directory)
            and (not os.listdir(directory) or os.path.isfile(os.path.join(directory, MANIFEST))))


def _write(directory: str, files: dict[str, bytes], force: bool) -> None:
    """The files, manifest last, into a new directory beside ``directory``, then renamed to it:
    an interrupted write leaves no half certificate under the name."""
    parent = os.path.dirname(os.path.abspath(directory))
    try:
        os.makedirs(parent, exist_ok=True)
        tmp = tempfile.mkdtemp(prefix=f".{os.path.basename(directory)}.", dir=parent)
    except OSError as e:
        raise CertifyError(f"{directory}: cannot write: {e.strerror or e}") from None
    try:
        for name, data in files.items():
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(data)
        if os.path.lexists(directory):
            if not (force and _replaceable(directory)):
                raise CertifyError(f"{directory}: exists; not overwritten (use --force)")
            shutil.rmtree(directory)
        os.rename(tmp, directory)
    except OSError as e:
        shutil.rmtree(tmp, ignore_errors=True)
        raise CertifyError(f"{directory}: cannot write: {e.strerror or e}") from None
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
