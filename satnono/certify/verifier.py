"""Checking a certificate: :func:`verify`, what ``satnono verify CERT`` runs: the checks ``check_*`` below, in order
(the first that fails is the answer), each file read up to a size limit.  Part of the trust base: it imports nothing
of satnono outside ``satnono.certify``."""

from __future__ import annotations

import hashlib
import json
import os
import stat

from .puzzle import Spec, grid_error, lanes, narrow, read_grid, read_puzzle
from .reference import ENCODER_VERSION, blocking_clause, dimacs, encode, variable_map

try:  # the DRAT checker: compiled from _drat.c; where that is not built, or SATNONO_PURE is set, its twin in Python
    from ._drat import check as drat_check  # type: ignore[import-not-found]
except ImportError:
    from .drat import check_text as drat_check
if os.environ.get("SATNONO_PURE", "") not in ("", "0"):
    from .drat import check_text as drat_check

MANIFEST = "certificate.json"
FILES = {"unique": ("puzzle.json", "formula.cnf", "solution", "deductions.json", "proof.drat"),
         "multiple": ("puzzle.json", "formula.cnf", "solution", "solution2", "deductions.json"),
         "none": ("puzzle.json", "formula.cnf", "proof.drat")}
#: The largest file of each name read, in bytes: a larger one is refused, not read.
LIMITS = {MANIFEST: 64 << 20, "puzzle.json": 64 << 20, "solution": 64 << 20, "solution2": 64 << 20,
          "deductions.json": 256 << 20, "formula.cnf": 1 << 30, "proof.drat": 2 << 30}
VERIFIED, TRIVIAL = 0, 1  # the DRAT checker's verdicts that accept a proof (TRIVIAL: unit propagation refutes alone)


class Rejected(Exception):
    """What is wrong with a certificate (one line)."""


def _read(directory: str, name: str) -> bytes:
    """A file of the certificate: a regular file (a named pipe is refused, not waited on) within its size limit."""
    limit, path = LIMITS[name], os.path.join(directory, name)
    try:
        with open(path, "rb", opener=lambda path, flags: os.open(path, flags | os.O_NONBLOCK)) as f:
            info = os.fstat(f.fileno())
            if not stat.S_ISREG(info.st_mode):
                raise Rejected(f"{name}: not a regular file")
            if info.st_size > limit or len(data := f.read(info.st_size + 1)) > limit:  # (not read when too large)
                raise Rejected(f"{name}: larger than {limit >> 20} MB")
    except OSError as e:
        raise Rejected(f"{name}: cannot read: {e.strerror or e}") from None
    return data


def verify(directory: str) -> tuple[bool, str]:
    """``(True, what was checked)`` for a sound certificate, else ``(False, what is wrong)``."""
    try:
        if not os.path.isdir(directory):
            raise Rejected("not a directory")
        m = check_manifest(directory)
        spec, nvars, lines = check_formula(directory, m)
        grids = check_solutions(directory, m, spec)
        check_deductions(directory, m, spec, grids)
        return True, check_proof(directory, m, spec, nvars, lines, grids)
    except Rejected as e:
        return False, str(e)
    except MemoryError:
        return False, "out of memory"
    except RecursionError:
        return False, "too deeply nested"


def check_manifest(directory: str) -> dict:
    """1. The manifest, of a known verdict, lists that verdict's files with their SHA-256."""
    try:
        m = json.loads(_read(directory, MANIFEST))
    except (ValueError, RecursionError):
        raise Rejected(f"{MANIFEST}: not JSON") from None
    if not isinstance(m, dict) or m.get("verdict") not in ("unique", "multiple", "none") \
            or not isinstance(m.get("line_solvable"), bool):
        raise Rejected(f"{MANIFEST}: no verdict (unique, multiple or none) and line_solvable flag")
    files = FILES[m["verdict"]]
    if not isinstance(m.get("files"), dict) or sorted(m["files"]) != sorted(files):
        raise Rejected(f"{MANIFEST}: a {m['verdict']} certificate lists the files {', '.join(files)}")
    for name in files:
        if hashlib.sha256(_read(directory, name)).hexdigest() != m["files"][name]:
            raise Rejected(f"{name}: its SHA-256 differs from the one in {MANIFEST}")
    if m.get("encoder_version") != ENCODER_VERSION:
        raise Rejected(f"{MANIFEST}: encoder version {m.get('encoder_version')!r}; this verifier has {ENCODER_VERSION}")
    if m["line_solvable"] and m["verdict"] != "unique":
        raise Rejected(f"{MANIFEST}: a {m['verdict']} puzzle cannot be line-solvable")
    return m


def check_formula(directory: str, m: dict) -> tuple[Spec, int, list[str]]:
    """2. The puzzle is one, and formula.cnf and the variable map are its reference encoder's."""
    try:
        spec = read_puzzle(_read(directory, "puzzle.json"))
    except ValueError as e:
        raise Rejected(f"puzzle.json: {e}") from None
    stored = _read(directory, "formula.cnf")
    try:  # (the encoding may not grow beyond what the stored formula could hold)
        nvars, lines = encode(spec, budget=len(stored))
    except OverflowError:
        raise Rejected("formula.cnf: not the reference encoding of puzzle.json (that would be larger)") from None
    if stored != dimacs(nvars, lines):
        raise Rejected("formula.cnf: not the reference encoding of puzzle.json")
    if not isinstance(m.get("variables"), dict) or m["variables"].get("cells") != variable_map(spec):
        raise Rejected(f"{MANIFEST}: the variable map is not the reference encoder's")
    return spec, nvars, lines


def check_solutions(directory: str, m: dict, spec: Spec) -> list[list[list[int]]]:
    """3. Each solution keeps the clues, the givens and the rules; two solutions differ."""
    grids = []
    for name in ("solution", "solution2")[:{"unique": 1, "multiple": 2, "none": 0}[m["verdict"]]]:
        try:
            grids.append(read_grid(spec, _read(directory, name)))
        except ValueError as e:
            raise Rejected(f"{name}: {e}") from None
        if (why := grid_error(spec, grids[-1])) is not None:
            raise Rejected(f"{name}: not a solution: {why}")
    if len(grids) == 2 and grids[0] == grids[1]:
        raise Rejected("solution2: the same grid as solution")
    return grids


def check_deductions(directory: str, m: dict, spec: Spec, grids: list) -> None:
    """4. The line deductions replay to the solution, or to a stuck state, as line_solvable says."""
    if m["verdict"] != "none":
        why = replay(spec, _read(directory, "deductions.json"), m["line_solvable"], grids[0])
        if why is not None:
            raise Rejected(f"deductions.json: {why}")


def replay(spec: Spec, data: bytes, line_solvable: bool, solution: list[list[int]]) -> str | None:
    """Why ``deductions.json``, ``{"steps": [[lane, index, [[row, col, chars], ...]], ...]}``, does not certify
    ``line_solvable``, or None.  Replayed from the givens, each step (lane ``"row"``, ``"column"`` or ``"rule"``, index
    0-based) narrows the cells it names (to the values of these chars) no further than the lane's :func:`narrow`, and
    they end at the solution (a line-solvable puzzle) or where no lane narrows (one that is not)."""
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
    if line_solvable and open_cells:
        return f"the deductions leave {open_cells} cells open, but the puzzle is said to be line-solvable"
    if line_solvable and state != [[1 << v for v in row] for row in solution]:
        return "the deductions reach a grid other than the solution"
    if not line_solvable and not open_cells:
        return "the deductions solve the puzzle, but it is said not to be line-solvable"
    for kind, i, rule in [] if line_solvable else lanes(spec):  # (not line-solvable: no lane narrows the state)
        exact = narrow(spec, rule, state)
        if exact is None or any(state[r][c] & ~m for (r, c), m in exact.items()):
            return f"{kind} {i + 1} narrows the state the deductions end in: it is not stuck"
    return None

def check_proof(directory: str, m: dict, spec: Spec, nvars: int, lines: list[str], grids: list) -> str:
    """5. The DRAT proof refutes formula.cnf with the solution's blocking clause (unique), or alone (none)."""
    if m["verdict"] == "multiple":
        return "multiple: two solutions checked, the line deductions replayed"
    proof = _read(directory, "proof.drat")
    if m["verdict"] == "unique":
        block = " ".join(map(str, blocking_clause(spec, grids[0]))) + " 0"
        if m.get("blocking_clause") != block:
            raise Rejected(f"{MANIFEST}: blocking_clause is not the one of the solution")
        lines = [*lines, block]
    code, lemmas, rat, offset = drat_check(("\n".join(lines) + "\n").encode("ascii"), proof)
    if code not in (VERIFIED, TRIVIAL):
        from .drat import explain  # (the words of a rejection)

        raise Rejected(f"proof.drat: {explain((code, lemmas, rat, offset), proof)}")
    how = f"{lemmas} lemmas checked ({rat} RAT)"
    if code == TRIVIAL:
        how = "unit propagation alone refutes the formula (0 lemmas checked)"
    if m["verdict"] == "none":
        return f"none: proof.drat refutes formula.cnf (verified: {how})"
    kind = "line-solvable" if m["line_solvable"] else "not line-solvable"
    return (f"unique ({kind}): the solution checked, the deductions replayed, proof.drat refutes every other grid "
            f"(verified: {how})")

