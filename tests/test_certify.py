"""Certificates (issue 40): ``satnono check --certify DIR`` and ``satnono verify``.

Every kind of puzzle (black and white, colour, blotted, givens and each eagerly encoded rule;
unique line-solvable, unique after search, multiple, none) is certified and verified, and
drat-trim (built from ``../shared/tools/drat-trim`` beside the repository; skipped without it or
a C compiler) accepts every proof unchanged.  Tampered certificates are rejected with a line
naming what is wrong: one clue number, one cell of a solution, one literal or line of a proof,
a dropped proof line, a swapped formula, an edited manifest, a deduction; also when the
manifest's hashes are made to match again (as anyone can).  Each such test is shown to matter:
with the one check that catches it made permissive, the tampered certificate would pass.
Garbage, truncated and huge files give one line, not a traceback.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import satnono
import satnono.certify
from satnono.certify import verifier
from satnono.certify.drat import check as drat_check
from satnono.certify.puzzle import read_grid, read_puzzle
from satnono.certify.reference import dimacs, encode
from satnono.certify.writer import CertifyError, certify, clauses
from satnono.cli import cli
from satnono.clues import line_blocks
from satnono.formats import dumps
from satnono.model import Puzzle, clues_of_grid, default_palette
from satnono.rules import rule_from_json

ROOT = Path(__file__).resolve().parents[1]
DRAT_TRIM_SOURCE = ROOT.parent / "shared" / "tools" / "drat-trim" / "drat-trim.c"

#: (kind, colours, verdict): a grid whose puzzle (clues only, with the kind's rule) has it:
#: 'line' unique and line-solvable, 'search' unique after search, 'multiple'.
GRIDS = {
    ("plain", 1, "line"): ("##.#.", "####.", "##.#.", "#.#.#", ".####", "#.##."),
    ("plain", 1, "search"): ("#.....#", "....#.#", "....##.", "#...##.", "......#"),
    ("plain", 1, "multiple"): (".#..#.#", ".#.....", "###..##", ".###.##", "..#.#..", "#....#.", ".##.##."),
    ("plain", 2, "line"): ("....b", "aa...", "..a.b", "..a..", "a....", "a...."),
    ("plain", 2, "search"): (".aa...", "aab..b", "aab.b.", "....b.", "ab...b"),
    ("plain", 2, "multiple"): ("..aaa.", "bba..b", "b..bb.", "a.ab..", "b....."),
    ("blotted", 1, "line"): ("...###", ".#.###", "..#...", "..##.."),
    ("blotted", 1, "search"): ("..###.", "#.#.##", "###.##", "#.#..#"),
    ("blotted", 1, "multiple"): ("#.#.##", ".#...#", "####.#", "##.#.#", "###..#", "###..#"),
    ("blotted", 2, "line"): ("..a.", "aba.", "....", ".a..", "ab.a"),
    ("blotted", 2, "search"): ("....b.a", "bb..a..", "a.....b", ".bb..a.", ".ab..a.", "ab...ba"),
    ("blotted", 2, "multiple"): (".ab....", ".......", ".....bb", "...a...", "a..a...", "...b..."),
    ("givens", 1, "line"): ("###..", "....#", "#...#", "#.###"),
    ("givens", 1, "search"): ("##.###.", "...#...", "###....", "..#.##.", ".....#.", "..#####", "..##..."),
    ("givens", 2, "search"): ("..b...b", ".a..b.b", "...bbaa", "bbb....", ".......", "..ab...", ".b.b..b"),
    ("givens", 2, "multiple"): ("....ab", "a..a.a", "b...a.", ".a...b", "......", "..ab..", "...b.."),
    ("symmetric", 1, "line"): ("#.....#", "..#.#..", "#.#.#.#", "#######"),
    ("symmetric", 1, "search"): (".##.", "....", "#..#", "#..#", ".##."),
    ("symmetric", 2, "search"): ("aaaa", "aaaa", "bbbb", ".bb.", "b..b", "a..a", ".aa."),
    ("symmetric", 2, "multiple"): (".....", ".b.b.", "..b..", "b.a.b"),
    ("count", 1, "line"): ("#..#..#", "#..#...", "#.##.##", "###.#.#", "##.####", "####.##"),
    ("count", 1, "search"): ("#.#...", ".####.", ".#####", "####.."),
    ("count", 2, "search"): ("a.abb", "b....", "..ba.", ".ab.a", ".b.ba", "a.a..", "b...."),
    ("count", 2, "multiple"): (".abab.", ".b.bba", ".b.a.a", "aba..a"),
    ("no-square", 1, "line"): ("#.###", ".#..#", "#..##", "#.##."),
    ("no-square", 1, "search"): (".##.", "...#", "...#", ".#.#", "#.#."),
    ("no-square", 2, "search"): ("aab.b.a", "...bb.a", ".aba.b.", ".a....b", "...abab"),
    ("no-square", 2, "multiple"): ("..b.", "b...", "a...", "ba.a", ".a.a", "...b"),
    ("line", 1, "line"): (".###.", "#####", ".###.", "##.#.", "#####"),
    ("line", 1, "search"): ("#..#", "..##", "..##", "#...", ".##.", "##..", "...."),
    ("line", 2, "search"): ("a.a..", "b.ab.", "....a", "aa.a."),
    ("line", 2, "multiple"): ("b.b..aa", "bbba...", "..b....", ".a...b.", "b.a.aaa"),
}


def _puzzle(kind: str, k: int, grid: tuple[str, ...]) -> Puzzle:
    p = Puzzle.from_grid(grid, palette=None if k == 1 else default_palette(k)).replace(goal=None)
    if kind == "blotted":
        rows = tuple(tuple(("?" if (i + j) % 2 == 0 else n, c) for j, (n, c) in enumerate(zip(ls, cs)))
                     for i, (ls, cs) in enumerate(zip(p.rows, p.row_colors)))
        return p.replace(rows=rows, row_colors=())
    if kind == "givens":
        return p.replace(givens=((0, 0, p.chars.index(grid[0][0])), (len(grid) - 1, 1, p.chars.index(grid[-1][1]))))
    rule = {"symmetric": {"rule": "symmetric", "axis": "left-right"}, "no-square": {"rule": "no-square"},
            "count": {"rule": "count", "op": "=", "n": sum(ch != "." for row in grid for ch in row)}}.get(kind)
    if kind == "line":
        n = min(len(grid), len(grid[0]))
        lengths, colours = line_blocks("".join(grid[i][i] for i in range(n)), {c: i for i, c in enumerate(p.chars)})
        clue = list(lengths) if k == 1 else [[m, p.chars[c]] for m, c in zip(lengths, colours)]
        rule = {"rule": "line", "cells": [[i, i] for i in range(n)], "clue": clue}
    return p if rule is None else p.replace(rules=(rule_from_json(rule),))


def _none_puzzles() -> dict[str, Puzzle]:
    """Puzzles without a solution: proved by SAT, by line logic, by the totals, by a rule."""
    sat_rows = ("...#..", ".##..#", "..#.##", "###.#.", ".###.#")
    sat_cols = ("...#..", ".##...", "..#.##", "###.#.", "####.#")
    line_rows = (".##..#", "...#..", "..####", "###...")
    line_cols = (".#...#", "...#..", ".#####", "###...")
    # row 1 is colour a, row 2 colour b; the column says b above a
    colour = Puzzle.from_clues(rows=[[(1, 1)], [(1, 2)]], columns=[[(1, 2), (1, 1)]], palette=default_palette(2))
    return {
        "none-bw-sat": Puzzle.from_clues(clues_of_grid(sat_rows)[0], clues_of_grid(sat_cols)[1]),
        "none-bw-line": Puzzle.from_clues(clues_of_grid(line_rows)[0], clues_of_grid(line_cols)[1]),
        "none-bw-totals": Puzzle.from_clues(rows=[[1]], columns=[[1], [1]]),
        "none-colour": colour,
        "none-count": _puzzle("plain", 1, GRIDS[("plain", 1, "line")]).replace(
            rules=(rule_from_json({"rule": "count", "op": "<=", "n": 3}),)),
    }


def _cases() -> dict[str, Puzzle]:
    out = {f"{kind}-{'bw' if k == 1 else 'colour'}-{verdict}": _puzzle(kind, k, grid)
           for (kind, k, verdict), grid in GRIDS.items()}
    out.update(_none_puzzles())
    return out


CASES = _cases()


@pytest.fixture(scope="session")
def certs(tmp_path_factory) -> dict[str, Path]:
    """A certificate of every case, written once."""
    root = tmp_path_factory.mktemp("certs")
    return {name: Path(certify(p, str(root / name)).path) for name, p in CASES.items()}


@pytest.fixture(scope="session")
def drat_trim(tmp_path_factory) -> str:
    """drat-trim, built from the shared copy of its source (skipped when it cannot be)."""
    cc = shutil.which("cc") or shutil.which("gcc")
    if not DRAT_TRIM_SOURCE.is_file() or cc is None:
        pytest.skip("drat-trim's source or a C compiler is missing")
    exe = tmp_path_factory.mktemp("drat-trim") / "drat-trim"
    r = subprocess.run([cc, "-O2", "-o", str(exe), str(DRAT_TRIM_SOURCE)], capture_output=True, text=True)
    if r.returncode:
        pytest.skip(f"drat-trim does not build: {r.stderr[-200:]}")
    return str(exe)


def _manifest(d: Path) -> dict:
    return json.loads((d / "certificate.json").read_text())


def _rehash(d: Path) -> None:
    """Make the manifest's SHA-256 match the files again, as anyone can."""
    m = _manifest(d)
    m["files"] = {name: hashlib.sha256((d / name).read_bytes()).hexdigest() for name in m["files"]}
    (d / "certificate.json").write_text(json.dumps(m))


def _copy(src: Path, tmp_path: Path, name: str = "cert") -> Path:
    dst = tmp_path / name
    shutil.copytree(src, dst)
    return dst


def _formula_with_block(d: Path) -> bytes:
    """formula.cnf with the blocking clause appended (the header's clause count one more):
    what docs/certificates.md tells drat-trim users to make."""
    head, rest = (d / "formula.cnf").read_bytes().split(b"\n", 1)
    _, _, nvars, nclauses = head.split()
    return b"p cnf %s %d\n" % (nvars, int(nclauses) + 1) + rest + _manifest(d)["blocking_clause"].encode() + b"\n"


# --- every kind certified and verified -------------------------------------------------------

@pytest.mark.parametrize("name", CASES)
def test_every_kind_is_certified_and_verified(certs, name):
    d = certs[name]
    m = _manifest(d)
    verdict = name.rsplit("-", 1)[-1] if not name.startswith("none") else "none"
    expected = {"line": ("unique", True), "search": ("unique", False), "multiple": ("multiple", False),
                "none": ("none", False)}[verdict if verdict in ("line", "search", "multiple") else "none"]
    assert (m["verdict"], m["line_solvable"]) == expected
    assert sorted(os.listdir(d)) == sorted([*verifier.FILES[m["verdict"]], "certificate.json"])
    ok, message = verifier.verify(str(d))
    assert ok, message
    assert message.startswith(m["verdict"])


def test_the_manifest_holds_the_variable_map_and_versions(certs):
    m = _manifest(certs["plain-bw-search"])
    h, w = 5, 7
    assert m["variables"]["cells"] == [[r * w + c + 1 for c in range(w)] for r in range(h)]
    assert m["satnono_version"] == satnono.__version__ and m["encoder_version"] == "1"
    assert "DRAT, text" in m["proof"]["format"] and m["blocking_clause"].endswith(" 0")
    colour = _manifest(certs["plain-colour-search"])
    assert colour["variables"]["cells"][0][1] == [4, 5, 6] and colour["variables"]["values"] == ".ab"
    assert [len(s) for s in m["files"].values()] == [64] * 5


@pytest.mark.parametrize("name", [n for n in CASES if not n.endswith("multiple")])
def test_drat_trim_accepts_every_proof_unchanged(certs, drat_trim, tmp_path, name):
    d = certs[name]
    cnf = d / "formula.cnf"
    if _manifest(d)["verdict"] == "unique":
        cnf = tmp_path / "formula+block.cnf"
        cnf.write_bytes(_formula_with_block(d))
    r = subprocess.run([drat_trim, str(cnf), str(d / "proof.drat")], capture_output=True, text=True, timeout=120)
    assert "s VERIFIED" in r.stdout, r.stdout[-500:]


def test_the_documented_drat_trim_recipe_works(certs, drat_trim, tmp_path):
    """docs/certificates.md's one line that makes formula+block.cnf, then drat-trim on it."""
    doc = (ROOT / "docs" / "certificates.md").read_text()
    (recipe,) = [line for line in doc.splitlines() if line.startswith("python3 -c ")]
    d = _copy(certs["plain-colour-search"], tmp_path)
    subprocess.run(recipe, shell=True, cwd=d, check=True, timeout=60)
    assert (d / "formula+block.cnf").read_bytes() == _formula_with_block(certs["plain-colour-search"])
    r = subprocess.run([drat_trim, "formula+block.cnf", "proof.drat"], cwd=d, capture_output=True, text=True, timeout=120)
    assert "s VERIFIED" in r.stdout


def test_import_satnono_is_enough():
    """``satnono.certify`` needs no import of its own, and ``import satnono`` does not load it."""
    code = ("import sys, satnono; assert 'satnono.certify' not in sys.modules; "
            "p = satnono.Puzzle.from_clues(rows=[[1]], columns=[[1]]); import tempfile, os; "
            "d = os.path.join(tempfile.mkdtemp(), 'c'); print(satnono.certify(p, d).verdict, satnono.certify.verify(d)[0])")
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.stdout.split() == ["unique", "True"], r.stderr


def test_certificates_of_satisfiable_formulas_show_the_solutions(certs):
    """The solution files are the verdict's solutions: the formula with the blocking clause is
    unsatisfiable, and it is satisfiable without it (a solution exists)."""
    from pysat.solvers import Solver

    d = certs["plain-bw-search"]
    formula = clauses(encode(read_puzzle((d / "puzzle.json").read_bytes()))[1])
    with Solver(name="cadical195", bootstrap_with=formula) as s:
        assert s.solve()
        s.add_clause([int(x) for x in _manifest(d)["blocking_clause"].split()[:-1]])
        assert not s.solve()


# --- tampering -----------------------------------------------------------------------------------

def _edit_json(path: Path, change) -> None:  # type: ignore[no-untyped-def]
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def _bump_clue(d: Path) -> None:
    def change(doc):  # type: ignore[no-untyped-def]
        row = doc["rows"][0]
        row[0] = row[0] + 1 if isinstance(row[0], int) else [row[0][0] + 1, row[0][1]]
    _edit_json(d / "puzzle.json", change)


def _reencode(d: Path) -> None:
    """formula.cnf made again from puzzle.json (a consistent forgery of both)."""
    (d / "formula.cnf").write_bytes(dimacs(*encode(read_puzzle((d / "puzzle.json").read_bytes()))))


def _flip_cell(d: Path, *, name: str = "solution") -> None:
    rows = (d / name).read_text().splitlines()
    chars = _manifest(d)["variables"]["values"]
    rows[1] = chars[(chars.index(rows[1][0]) + 1) % len(chars)] + rows[1][1:]
    (d / name).write_text("".join(r + "\n" for r in rows))


def _proof_lines(d: Path) -> list[str]:
    return (d / "proof.drat").read_text().splitlines()


def _write_proof(d: Path, lines: list[str]) -> None:
    (d / "proof.drat").write_text("".join(line + "\n" for line in lines))


def _clauses_checked(d: Path) -> tuple[int, list[list[int]]]:
    nvars, lines = encode(read_puzzle((d / "puzzle.json").read_bytes()))
    block = _manifest(d).get("blocking_clause")
    return nvars, clauses(lines) + ([[int(x) for x in block.split()[:-1]]] if block else [])


def _flip_literal(d: Path) -> None:
    """Negate one literal of one lemma, the first such change that breaks the proof."""
    lines = _proof_lines(d)
    nvars, formula = _clauses_checked(d)
    for i, line in enumerate(lines):
        words = line.split()
        if words[0] == "d" or len(words) < 2:
            continue
        words[0] = str(-int(words[0]))
        tampered = [*lines[:i], " ".join(words), *lines[i + 1:]]
        if not drat_check(formula, "\n".join(tampered).encode(), nvars).ok:
            _write_proof(d, tampered)
            return
    raise AssertionError("no literal's negation breaks the proof")


def _drop_needed_lemma(d: Path) -> None:
    """Drop one lemma (not the empty clause) that the proof needs."""
    lines = _proof_lines(d)
    nvars, formula = _clauses_checked(d)
    for i in reversed(range(len(lines))):
        if lines[i].startswith("d") or lines[i].strip() == "0":
            continue
        tampered = lines[:i] + lines[i + 1:]
        if not drat_check(formula, "\n".join(tampered).encode(), nvars).ok:
            _write_proof(d, tampered)
            return
    raise AssertionError("no lemma is needed")


def _drop_empty_clause(d: Path) -> None:
    _write_proof(d, [line for line in _proof_lines(d) if line.strip() != "0"])


def _truncate(d: Path) -> None:
    data = (d / "proof.drat").read_bytes()
    (d / "proof.drat").write_bytes(data[:len(data) // 2].rstrip(b"0 \n") + b" 1")


def _swap_formula(d: Path, other: Path) -> None:
    shutil.copy(other / "formula.cnf", d / "formula.cnf")


def _swap_puzzle(d: Path) -> None:
    """puzzle.json, formula.cnf and the variable map of another puzzle of the same size, the
    solution kept: a consistent forgery of all but the solution."""
    rows = (d / "solution").read_text().splitlines()
    rows[0] = ("." if rows[0][0] != "." else "#") + rows[0][1:]
    other = d.parent / "other"
    certify(Puzzle.from_grid(rows).replace(goal=None), str(other))
    for name in ("puzzle.json", "formula.cnf"):
        shutil.copy(other / name, d / name)
    _edit_json(d / "certificate.json", lambda m: m.update(variables=_manifest(other)["variables"]))


def _manifest_edit(change):  # type: ignore[no-untyped-def]
    return lambda d: _edit_json(d / "certificate.json", change)


def _wrong_deduction(d: Path) -> None:
    """The first step claims one more cell of its lane, fixed to the solution's value: true of
    the solution, but not what the lane implies (it would have said so)."""
    doc = json.loads((d / "deductions.json").read_text())
    solution = (d / "solution").read_text().splitlines()
    kind, index, cells = doc["steps"][0]
    named = {(r, c) for r, c, _ in cells}
    lane = [(index, c) for c in range(len(solution[0]))] if kind == "row" else [(r, index) for r in range(len(solution))]
    r, c = next(cell for cell in lane if cell not in named)
    cells.append([r, c, solution[r][c]])
    (d / "deductions.json").write_text(json.dumps(doc))


def _drop_steps(d: Path) -> None:
    doc = json.loads((d / "deductions.json").read_text())
    doc["steps"] = doc["steps"][:-1]
    (d / "deductions.json").write_text(json.dumps(doc))


def _apply(tamper, d: Path, certs: dict) -> None:  # type: ignore[no-untyped-def]
    """Run a tamper: ``tamper(d)``, or ``tamper(d, certs)`` for one that takes another certificate's files."""
    if tamper.__code__.co_argcount == 2:
        tamper(d, certs)
    else:
        tamper(d)


#: (name, the certificate tampered, what is done, what the message must say, the check that catches it)
TAMPERS = [
    ("clue", "plain-bw-search", _bump_clue, "formula.cnf: not the reference encoding of puzzle.json", "check_formula"),
    ("clue and its formula", "plain-bw-search", lambda d: (_bump_clue(d), _reencode(d)),
     "solution: not a solution: row 1 does not match its clue", "check_solutions"),
    ("solution cell", "plain-bw-search", _flip_cell, "solution: not a solution", "check_solutions"),
    ("second solution cell", "plain-colour-multiple", lambda d: _flip_cell(d, name="solution2"),
     "solution2: not a solution", "check_solutions"),
    ("proof literal", "plain-bw-search", _flip_literal, "proof.drat: lemma", "check_proof"),
    ("proof literal, none", "none-bw-sat", _flip_literal, "proof.drat: lemma", "check_proof"),
    ("proof line dropped", "plain-colour-search", _drop_needed_lemma, "proof.drat:", "check_proof"),
    ("empty clause dropped", "count-bw-search", _drop_empty_clause, "proof.drat: the proof does not derive the empty clause",
     "check_proof"),
    ("proof truncated", "plain-bw-search", _truncate, "proof.drat: not a DRAT proof", "check_proof"),
    ("proof of another puzzle", "plain-bw-search",
     lambda d, c: shutil.copy(c["plain-colour-search"] / "proof.drat", d / "proof.drat"), "proof.drat:",
     "check_proof"),
    ("formula swapped", "plain-bw-search", lambda d, c: _swap_formula(d, c["plain-bw-multiple"]),
     "formula.cnf: not the reference encoding of puzzle.json", "check_formula"),
    ("puzzle swapped", "plain-bw-line", _swap_puzzle, "solution: not a solution", "check_solutions"),
    ("variable map", "plain-bw-search", _manifest_edit(lambda m: m["variables"]["cells"][0].reverse()),
     "certificate.json: the variable map is not the reference encoder's", "check_formula"),
    ("blocking clause", "plain-bw-search", _manifest_edit(lambda m: m.update(blocking_clause="1 0")),
     "certificate.json: blocking_clause is not the one of the solution", "check_proof"),
    ("said line-solvable", "plain-bw-search", _manifest_edit(lambda m: m.update(line_solvable=True)),
     "deductions.json: the deductions leave", "check_deductions"),
    ("said not line-solvable", "plain-bw-line", _manifest_edit(lambda m: m.update(line_solvable=False)),
     "deductions.json: the deductions solve the puzzle", "check_deductions"),
    ("deduction not implied", "plain-bw-multiple", _wrong_deduction, "deductions.json: step 1:", "check_deductions"),
    ("deductions cut short", "plain-bw-line", _drop_steps, "deductions.json: the deductions leave", "check_deductions"),
    ("verdict", "plain-bw-search", _manifest_edit(lambda m: m.update(verdict="multiple")),
     "certificate.json: a multiple certificate lists the files", None),
    ("encoder version", "plain-bw-search", _manifest_edit(lambda m: m.update(encoder_version="0")),
     "certificate.json: encoder version '0'", None),
    ("multiple said line-solvable", "plain-bw-multiple", _manifest_edit(lambda m: m.update(line_solvable=True)),
     "certificate.json: a multiple puzzle cannot be line-solvable", None),
    ("garbage puzzle", "plain-bw-search", lambda d: (d / "puzzle.json").write_bytes(os.urandom(300)),
     "puzzle.json: not JSON", None),
    ("garbage solution", "plain-bw-search", lambda d: (d / "solution").write_bytes(b"\xff\x00" * 20),
     "solution: not UTF-8 text", None),
    ("garbage deductions", "plain-bw-multiple", lambda d: (d / "deductions.json").write_bytes(b"[" * 10**6),
     "deductions.json: not a JSON object", None),
    ("garbage proof", "none-bw-sat", lambda d: (d / "proof.drat").write_bytes(b"1 2 x 0\n"),
     "proof.drat: not a DRAT proof", None),
]


@pytest.mark.parametrize("tamper", [_flip_literal, _drop_needed_lemma])
def test_drat_trim_rejects_the_tampered_proofs_too(certs, drat_trim, tmp_path, tamper):
    """What the tamper tests below do to a proof's lemmas breaks it for drat-trim too (forward
    checking, -f: every lemma, as satnono's checker does).  (A proof without its last line, the
    empty clause, drat-trim accepts when its lemmas propagate to a conflict; satnono's checker
    wants the empty clause written, as CaDiCaL writes it.)"""
    d = _copy(certs["plain-bw-search"], tmp_path)
    tamper(d)
    cnf = tmp_path / "formula+block.cnf"
    cnf.write_bytes(_formula_with_block(d))
    r = subprocess.run([drat_trim, str(cnf), str(d / "proof.drat"), "-f"], capture_output=True, text=True, timeout=120)
    assert "s NOT VERIFIED" in r.stdout or "s VERIFIED" not in r.stdout, r.stdout[-500:]


@pytest.mark.parametrize("name, base, tamper, message, check", TAMPERS, ids=[t[0] for t in TAMPERS])
def test_a_tampered_certificate_is_rejected(certs, tmp_path, name, base, tamper, message, check):
    d = _copy(certs[base], tmp_path)
    _apply(tamper, d, certs)
    files = _manifest(d)["files"]
    ok, said = verifier.verify(str(d))
    assert not ok
    if any(hashlib.sha256((d / f).read_bytes()).hexdigest() != h for f, h in files.items() if (d / f).exists()):
        assert "SHA-256 differs" in said, said  # the files changed: their hashes tell first
    _rehash(d)  # and with the hashes made to match again, the check itself
    ok, said = verifier.verify(str(d))
    assert not ok and message in said, said
    assert "\n" not in said
    r = CliRunner().invoke(cli, ["verify", str(d)])
    assert r.exit_code == 1 and r.stderr.strip() == f"satnono: {d}: {said}"


def _lax_formula(directory, m):  # type: ignore[no-untyped-def]
    spec = read_puzzle((Path(directory) / "puzzle.json").read_bytes())
    return (spec, *encode(spec))


def _lax_solutions(directory, m, spec):  # type: ignore[no-untyped-def]
    names = ("solution", "solution2")[:{"unique": 1, "multiple": 2, "none": 0}[m["verdict"]]]
    return [read_grid(spec, (Path(directory) / name).read_bytes()) for name in names]


#: What each check becomes in a permissive verifier (reading what the later checks need).
LAX = {"check_formula": _lax_formula, "check_solutions": _lax_solutions,
       "check_deductions": lambda *args: None, "check_proof": lambda *args: "unique"}


@pytest.mark.parametrize("name, base, tamper, message, check", [t for t in TAMPERS if t[4]],
                         ids=[t[0] for t in TAMPERS if t[4]])
def test_each_check_matters(certs, tmp_path, monkeypatch, name, base, tamper, message, check):
    """The tamper tests test something: with the check that catches a tampering made
    permissive, the tampered certificate passes (the other checks do not see it) unless a
    later check catches it too; the untampered certificate passes either way."""
    d = _copy(certs[base], tmp_path)
    _apply(tamper, d, certs)
    _rehash(d)
    monkeypatch.setattr(verifier, check, LAX[check])
    ok, said = verifier.verify(str(d))
    assert message not in said
    if name not in ("clue", "clue and its formula", "solution cell", "puzzle swapped"):
        assert ok, said  # nothing else guards against it
    assert verifier.verify(str(certs[base]))[0]


def test_an_unchanged_copy_verifies(certs, tmp_path):
    d = _copy(certs["plain-bw-search"], tmp_path)
    _rehash(d)
    assert verifier.verify(str(d))[0]


# --- garbage, huge and missing files: one line -----------------------------------------------------

def test_a_huge_file_is_refused_unread(certs, tmp_path):
    d = _copy(certs["plain-bw-search"], tmp_path)
    with open(d / "proof.drat", "r+b") as f:
        f.truncate(3 << 30)  # sparse: 3 GB that are never read
    ok, said = verifier.verify(str(d))
    assert not ok and said == "proof.drat: larger than 2048 MB"
    (d / "proof.drat").unlink()
    with open(d / "certificate.json", "r+b") as f:
        f.truncate(100 << 20)
    assert verifier.verify(str(d)) == (False, "certificate.json: larger than 64 MB")


def test_a_puzzle_larger_than_its_formula_is_refused_early(certs, tmp_path):
    """A puzzle.json whose encoding would be far larger than formula.cnf stops the encoder
    early (its work is bounded by the stored formula's size), in one line."""
    d = _copy(certs["plain-colour-search"], tmp_path)
    doc = json.loads((d / "puzzle.json").read_text())
    doc["rows"], doc["columns"] = [[]] * 2000, [[]] * 2000
    doc["colors"] = {chr(ord("a") + i): {"name": f"c{i}", "rgb": "#000000"} for i in range(20)}
    (d / "puzzle.json").write_text(json.dumps(doc))
    _rehash(d)
    assert verifier.verify(str(d)) == (
        False, "formula.cnf: not the reference encoding of puzzle.json (that would be larger)")


@pytest.mark.parametrize("what, make, message", [
    ("no directory", lambda d: shutil.rmtree(d), "not a directory"),
    ("no manifest", lambda d: (d / "certificate.json").unlink(), "certificate.json: cannot read"),
    ("a file missing", lambda d: (d / "deductions.json").unlink(), "deductions.json: cannot read"),
    ("a directory for a file", lambda d: ((d / "solution").unlink(), (d / "solution").mkdir()), "solution:"),
    ("garbage manifest", lambda d: (d / "certificate.json").write_bytes(os.urandom(1000)), "certificate.json: not JSON"),
    ("a list for a manifest", lambda d: (d / "certificate.json").write_text("[]"), "certificate.json: no verdict"),
    ("no files", lambda d: _edit_json(d / "certificate.json", lambda m: m.pop("files")), "lists the files"),
    ("a list for the verdict", lambda d: _edit_json(d / "certificate.json", lambda m: m.update(verdict=[])),
     "certificate.json: no verdict"),
    ("a named pipe for a file", lambda d: ((d / "proof.drat").unlink(), os.mkfifo(d / "proof.drat")),
     "proof.drat: not a regular file"),
    ("a list for a lane", lambda d: (_edit_json(d / "deductions.json", lambda m: m.update(steps=[[[], 0, []]])),
                                     _rehash(d)), "deductions.json: step 1: expected [lane, index, cells]"),
    ("a number for the givens", lambda d: (_edit_json(d / "puzzle.json", lambda m: m.update(givens=5)), _rehash(d)),
     "puzzle.json: givens: expected a list"),
])
def test_a_broken_certificate_is_one_line(certs, tmp_path, what, make, message):
    d = _copy(certs["plain-bw-search"], tmp_path)
    make(d)
    ok, said = verifier.verify(str(d))
    assert not ok and message in said and "\n" not in said
    r = CliRunner().invoke(cli, ["verify", str(d)])
    assert r.exit_code == 1 and "Traceback" not in r.output


# --- the command line and the library ---------------------------------------------------------------

def _write(tmp_path: Path, name: str, puzzle: Puzzle) -> str:
    path = tmp_path / name
    path.write_text(dumps(puzzle, "json"))
    return str(path)


def test_check_certify_writes_one_directory_per_puzzle(tmp_path):
    a = _write(tmp_path, "a.json", CASES["plain-bw-search"])
    many = tmp_path / "many.json"
    many.write_text("[" + ",".join(dumps(CASES[n], "json") for n in ("plain-bw-line", "plain-bw-multiple")) + "]")
    out = tmp_path / "certs"
    r = CliRunner().invoke(cli, ["check", "--certify", str(out), a, str(many), f"{many}#2"])
    assert r.exit_code == 3, r.output
    assert sorted(os.listdir(out)) == ["a", "many#1", "many#2", "many#2~2"]
    assert f"certificate: {out / 'a'}" in r.output
    r = CliRunner().invoke(cli, ["verify", *(str(out / n) for n in sorted(os.listdir(out)))])
    assert r.exit_code == 0, r.output
    assert r.stdout.splitlines()[0] == f"{out / 'a'}: verified: " + verifier.verify(str(out / "a"))[1]


def test_check_certify_refuses_to_overwrite(tmp_path):
    a = _write(tmp_path, "a.json", CASES["plain-bw-line"])
    out = tmp_path / "certs"
    assert CliRunner().invoke(cli, ["check", "--certify", str(out), a]).exit_code == 0
    before = (out / "a" / "certificate.json").read_bytes()
    r = CliRunner().invoke(cli, ["check", "--certify", str(out), a])
    assert r.exit_code == 6 and "exists" in r.stderr and "--force" in r.stderr and r.stdout == ""
    r = CliRunner().invoke(cli, ["check", "--certify", str(out), "--force", a])
    assert r.exit_code == 0 and verifier.verify(str(out / "a"))[0]
    assert json.loads(before)["files"] == _manifest(out / "a")["files"]
    (out / "b").mkdir()
    (out / "b" / "notes.txt").write_text("mine")
    b = _write(tmp_path, "b.json", CASES["plain-bw-line"])
    r = CliRunner().invoke(cli, ["check", "--certify", str(out), "--force", b])
    assert r.exit_code == 6 and "is not a certificate" in r.stderr
    assert (out / "b" / "notes.txt").read_text() == "mine"


def test_check_certify_json_names_the_certificate(tmp_path):
    a = _write(tmp_path, "a.json", CASES["none-bw-sat"])
    r = CliRunner().invoke(cli, ["check", "--json", "--certify", str(tmp_path / "c"), a])
    assert r.exit_code == 4
    d = json.loads(r.stdout)
    assert d["status"] == "none" and d["certificate"] == str(tmp_path / "c" / "a")


def test_a_lazily_encoded_rule_is_refused_in_one_line(tmp_path):
    p = CASES["plain-bw-line"].replace(rules=(rule_from_json({"rule": "connected"}),))
    a = _write(tmp_path, "a.json", p)
    r = CliRunner().invoke(cli, ["check", "--certify", str(tmp_path / "c"), a])
    assert r.exit_code == 6
    assert r.stderr.strip().splitlines() == [f"satnono: {a}: no certificate: cannot certify: rule connected "
                                             "is encoded lazily (its cuts are not certified)"]
    assert not (tmp_path / "c" / "a").exists()
    with pytest.raises(CertifyError, match="connected"):
        certify(p, str(tmp_path / "d"))


def test_a_user_written_rule_is_refused():
    class Mine:
        name = "mine"

        def clauses(self, lit, new_var, state=None):  # type: ignore[no-untyped-def]
            return []

        def accepts(self, grid):  # type: ignore[no-untyped-def]
            return True

    p = CASES["plain-bw-line"].replace(rules=(Mine(),))
    with pytest.raises(CertifyError, match="not a built-in rule"):
        certify(p, "/nonexistent/never")


def test_the_library_certifies_and_verifies(tmp_path):
    out = str(tmp_path / "x")
    cert = satnono.certify(CASES["blotted-colour-search"], out)
    assert (cert.verdict, cert.line_solvable, cert.path) == ("unique", False, out) and cert.proof_bytes > 0
    assert satnono.certify.verify(out)[0]
    with pytest.raises(CertifyError, match="exists"):
        satnono.certify(CASES["blotted-colour-search"], out)
    assert satnono.certify(CASES["blotted-colour-search"], out, force=True).verdict == "unique"


def test_verify_needs_a_certificate():
    r = CliRunner().invoke(cli, ["verify"])
    assert r.exit_code == 2
