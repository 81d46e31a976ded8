"""The DRAT checker of the certificates (satnono/certify/drat.py, compiled as _drat.c): it accepts
CaDiCaL's proofs (text and binary) and hand-made RAT proofs, rejects tampered ones naming the
lemma, reads garbage without raising, and agrees with drat-trim, built from
../shared/tools/drat-trim (the cross-checks are skipped where that or a C compiler is missing)."""

from __future__ import annotations

import hashlib
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from pysat.examples.genhard import PHP
from pysat.solvers import Solver

from satnono.certify import drat

SOURCE = Path(drat.__file__).with_name("_drat.c")
DRAT_TRIM = Path(__file__).resolve().parents[2] / "shared" / "tools" / "drat-trim"

sys.path.insert(0, str(Path(__file__).parent))
from _native_build import can_build  # noqa: E402


# -- helpers --------------------------------------------------------------------------------


def both(clauses, proof, nvars=None) -> drat.DratResult:
    """The verdict of the compiled and of the Python checker, which must be the same."""
    native = drat._native
    if native is None:
        return drat.check(clauses, proof, nvars)
    try:
        fast = drat.check(clauses, proof, nvars)
        drat._native = None
        slow = drat.check(clauses, proof, nvars)
    finally:
        drat._native = native
    assert fast == slow
    return fast


def random_3sat(seed: int, nvars: int, ratio: float = 5.0) -> list[list[int]]:
    rng = random.Random(seed)
    return [[v * rng.choice((1, -1)) for v in rng.sample(range(1, nvars + 1), 3)]
            for _ in range(round(ratio * nvars))]


def cadical(clauses) -> tuple[bool, bytes]:
    """(satisfiable, the text DRAT proof CaDiCaL 1.9.5 writes when not)."""
    with Solver(name="cadical195", with_proof=True, bootstrap_with=clauses) as s:
        sat = s.solve()
        return sat, b"" if sat else "".join(f"{line}\n" for line in s.get_proof()).encode()


def unsat_formulas() -> list[tuple[str, int, list[list[int]], bytes]]:
    """(name, variables, clauses, proof): random 3-SAT at ratio 5 and pigeonhole formulas."""
    out = []
    for seed in range(40):
        nvars = 20 + seed % 5 * 10
        clauses = random_3sat(seed, nvars)
        sat, proof = cadical(clauses)
        if not sat:
            out.append((f"3sat-{nvars}-{seed}", nvars, clauses, proof))
        if len(out) == 12:
            break
    for holes in (2, 3, 4, 5, 6):
        php = PHP(holes)
        out.append((f"php-{holes}", php.nv, php.clauses, cadical(php.clauses)[1]))
    return out


FORMULAS = unsat_formulas()


def dimacs(nvars: int, clauses) -> bytes:
    return (f"p cnf {nvars} {len(clauses)}\n" + "".join(" ".join(map(str, c)) + " 0\n" for c in clauses)).encode()


def text_clauses(proof: bytes) -> list[tuple[bool, list[int]]]:
    out = []
    for line in proof.decode().splitlines():
        words = line.split()
        if words and words[0] != "c":
            out.append((words[0] == "d", [int(w) for w in words[words[0] == "d":-1]]))
    return out


def binary(proof: bytes) -> bytes:
    """The text proof written as binary DRAT."""
    out = bytearray()
    for delete, lits in text_clauses(proof):
        out += b"d" if delete else b"a"
        for lit in lits + [0]:
            n = 2 * abs(lit) + (lit < 0)
            while n > 127:
                out.append(n & 127 | 128)
                n >>= 7
            out.append(n)
    return bytes(out)


def lines_of(proof: bytes) -> list[bytes]:
    return proof.splitlines(keepends=True)


def lemma_lines(proof: bytes) -> list[int]:
    """The indexes (0-based) of the proof's lemma lines (not deletions, comments, blanks)."""
    return [i for i, line in enumerate(lines_of(proof)) if line.split() and line.split()[0] not in (b"d", b"c")]


NAMED = re.compile(r"lemma (\d+) \(line (\d+) of the proof\)")


def assert_names_its_lemma(result: drat.DratResult, proof: bytes) -> int:
    """The rejection names a lemma by number and line, and that line holds that lemma."""
    assert not result.ok
    m = NAMED.search(result.message)
    assert m, result.message
    number, line = int(m[1]), int(m[2])
    assert lemma_lines(proof)[number - 1] == line - 1
    assert result.lemmas == number
    return number


@pytest.fixture(scope="session")
def drat_trim(tmp_path_factory) -> Path | None:
    """drat-trim, built from ../shared/tools/drat-trim (never copied into this repository);
    None where that or a C compiler is missing: the cross-checks are left out."""
    source = DRAT_TRIM / "drat-trim.c"
    cc = shutil.which("cc") or shutil.which("gcc")
    if not source.exists() or cc is None:
        return None
    exe = tmp_path_factory.mktemp("drat-trim") / "drat-trim"
    subprocess.run([cc, "-O2", "-o", str(exe), str(source)], check=True, capture_output=True)
    return exe


def trim_verdict(exe: Path | None, tmp: Path, nvars: int, clauses, proof: bytes, *options: str) -> str:
    """drat-trim's output on the formula and proof (written to files in ``tmp``; "" without it)."""
    cnf, drup = tmp / "f.cnf", tmp / "f.drat"
    cnf.write_bytes(dimacs(nvars, clauses))
    drup.write_bytes(proof)
    if exe is None:
        return ""
    run = subprocess.run([str(exe), str(cnf), str(drup), "-t", "100", *options],
                         capture_output=True, text=True, timeout=200)
    return run.stdout


def trim_accepts(exe: Path | None, tmp: Path, nvars: int, clauses, proof: bytes, *options: str) -> bool | None:
    """Whether drat-trim accepts the proof (None without it)."""
    out = trim_verdict(exe, tmp, nvars, clauses, proof, *options)
    if exe is None:
        return None
    assert ("s VERIFIED" in out) != ("s NOT VERIFIED" in out), out
    return "s VERIFIED" in out


# -- (1) CaDiCaL's proofs, (4) in binary -------------------------------------------------------


@pytest.mark.parametrize("name, nvars, clauses, proof", FORMULAS, ids=[f[0] for f in FORMULAS])
def test_cadical_proofs_are_accepted(name, nvars, clauses, proof, drat_trim, tmp_path) -> None:
    result = both(clauses, proof, nvars)
    assert result.ok, result.message
    lemmas = len(lemma_lines(proof))
    assert result.lemmas == lemmas and result.message == f"verified: {lemmas} lemmas checked (0 RAT)"
    assert trim_accepts(drat_trim, tmp_path, nvars, clauses, proof) is not False
    cnf, drup = tmp_path / "f.cnf", tmp_path / "f.drat"
    assert drat.check_files(str(cnf), str(drup)) == result


@pytest.mark.parametrize("name, nvars, clauses, proof", FORMULAS, ids=[f[0] for f in FORMULAS])
def test_binary_proofs_are_accepted(name, nvars, clauses, proof, drat_trim, tmp_path) -> None:
    data = binary(proof)
    assert drat.is_binary(data) and not drat.is_binary(proof)
    result = both(clauses, data, nvars)
    assert result.ok and result.lemmas == len(lemma_lines(proof)), result.message
    assert trim_accepts(drat_trim, tmp_path, nvars, clauses, data) is not False
    assert drat.check_files(str(tmp_path / "f.cnf"), str(tmp_path / "f.drat")) == result


def test_binary_detection_is_drat_trims() -> None:
    """Text proofs (comments, blank lines, deletions) read as text; binary ones as binary."""
    assert not drat.is_binary(b"c a comment with Letters\n1 -2 0\n")
    assert drat.is_binary(b"c a comment, with a comma\n")  # (among the first 12 bytes: drat-trim reads binary)
    assert not drat.is_binary(b"d 1 2 0\n0\n")
    assert drat.is_binary(b"c\tcomment\n")  # a tab: drat-trim reads binary
    assert drat.is_binary(b"a\x02\x00")
    assert drat.is_binary(b"d\x02\x04\x00")
    assert drat.is_binary(b"") and drat.is_binary(b"0")  # (as drat-trim: too short for text)


def test_a_binary_rejection_names_its_byte() -> None:
    clauses = PHP(3).clauses
    data = binary(b"1 0\n0\n")  # lemma 1 (-p1 not RUP: ...)
    result = both(clauses, data)
    assert not result.ok
    assert re.fullmatch(r"lemma 1 \(byte offset 0 of the proof\) is neither RUP nor RAT", result.message)
    result = both(clauses, b"d\x02\x00" + b"q\x00")
    assert result.message == "not a DRAT proof: byte offset 3: byte 0x71, where a binary clause starts with 'a' or 'd'"
    result = both(clauses, b"a\x02\x04")
    assert result.message.startswith("not a DRAT proof: byte offset 0: the last clause does not end with 0")
    result = both(clauses, b"a\x80\x80\x80\x80\x80\x01\x00")
    assert result.message == "not a DRAT proof: byte offset 1: a literal out of range (binary DRAT)"


# -- (2) tampering ------------------------------------------------------------------------------

PHP5 = next(f for f in FORMULAS if f[0] == "php-5")
SAT3 = next(f for f in FORMULAS if f[0].startswith("3sat-40"))


@pytest.mark.parametrize("formula", [PHP5, SAT3], ids=["php", "3sat"])
def test_dropping_a_needed_lemma_is_caught(formula) -> None:
    name, nvars, clauses, proof = formula
    lines = lines_of(proof)
    caught = 0
    for i in lemma_lines(proof)[::7]:
        tampered = b"".join(lines[:i] + lines[i + 1 :])
        result = both(clauses, tampered, nvars)
        if not result.ok:
            caught += 1
            if "empty clause" not in result.message:
                assert assert_names_its_lemma(result, tampered) >= lemma_lines(proof).index(i) + 1
    assert caught >= 3


@pytest.mark.parametrize("formula", [PHP5, SAT3], ids=["php", "3sat"])
def test_flipping_a_literal_is_caught_at_that_lemma(formula) -> None:
    name, nvars, clauses, proof = formula
    lines = lines_of(proof)
    caught = 0
    for n, i in enumerate(lemma_lines(proof)[:-1], 1):
        words = lines[i].split()
        words[0] = words[0][1:] if words[0].startswith(b"-") else b"-" + words[0]
        tampered = b"".join(lines[:i] + [b" ".join(words) + b"\n"] + lines[i + 1 :])
        result = both(clauses, tampered, nvars)
        if not result.ok and "empty clause" not in result.message:
            assert assert_names_its_lemma(result, tampered) >= n
            caught += assert_names_its_lemma(result, tampered) == n
        if caught >= 5:
            break
    assert caught >= 5


def test_the_empty_clause_must_be_there() -> None:
    name, nvars, clauses, proof = PHP5
    assert proof.endswith(b"\n0\n")
    body = proof[:-2]
    lemmas = len(lemma_lines(body))
    without = f"the proof does not derive the empty clause: it ends after {lemmas} lemmas without it"
    for tampered in (body, body + b"c 0\n", body + b"\n\n"):
        assert both(clauses, tampered, nvars) == drat.DratResult(False, without, lemmas)
    unit = next(line for line in reversed(lines_of(body)) if len(line.split()) == 2 and line[:1] != b"d")
    assert not both(clauses, body + unit, nvars).ok  # the last 0 replaced by a lemma


def test_truncated_proofs_are_rejected() -> None:
    name, nvars, clauses, proof = SAT3
    for cut in range(0, len(proof) - 2, max(1, len(proof) // 37)):
        result = both(clauses, proof[:cut], nvars)
        assert not result.ok
        assert "empty clause" in result.message or result.message.startswith("not a DRAT proof: line ")
        assert "\n" not in result.message
    data = binary(proof)
    for cut in range(0, len(data) - 2, max(1, len(data) // 37)):
        result = both(clauses, data[:cut], nvars)
        assert not result.ok and "\n" not in result.message


def test_another_formulas_proof_is_rejected() -> None:
    """(Between formulas that are both unsatisfiable, an accepted swap would not be wrong: a
    small pigeonhole formula is refuted by a larger one's proof, its extra variables taken as
    extension variables.  Random formulas of the same size do not share refutations.)"""
    randoms = [f for f in FORMULAS if f[0].startswith("3sat")]
    pairs = [(a, b) for a in randoms for b in randoms if a[1] == b[1] and a is not b]
    assert len(pairs) >= 6
    for (_, nvars, clauses, _), (_, _, _, proof) in pairs:
        result = both(clauses, proof, nvars)
        assert not result.ok and NAMED.search(result.message), result


def bogus_lemma_at(clauses, proof: bytes, nvars: int, index: int) -> tuple[bytes, bytes] | None:
    """A unit clause that is neither RUP nor RAT just before the index-th proof line, if any."""
    lines = lines_of(proof)
    for v in range(1, nvars + 1):
        for lit in (v, -v):
            tampered = b"".join(lines[:index] + [f"{lit} 0\n".encode()] + lines[index:])
            result = both(clauses, tampered, nvars)
            number = len([i for i in lemma_lines(tampered) if i <= index])
            if not result.ok and NAMED.search(result.message) and result.lemmas == number:
                return tampered, f"{lit} 0\n".encode()
    return None


@pytest.mark.parametrize("formula", [PHP5, SAT3], ids=["php", "3sat"])
def test_a_bogus_lemma_is_rejected_as_drat_trim_forward_does(formula, drat_trim, tmp_path) -> None:
    """A unit added in the middle that follows neither by RUP nor by RAT: named by us, and
    drat-trim's forward mode (-f, which checks every lemma too) fails at that line."""
    name, nvars, clauses, proof = formula
    index = len(lines_of(proof)) // 2
    found = bogus_lemma_at(clauses, proof, nvars, index)
    assert found is not None
    tampered, lemma = found
    result = both(clauses, tampered, nvars)
    assert_names_its_lemma(result, tampered)
    assert f"(line {index + 1} of the proof)" in result.message
    out = trim_verdict(drat_trim, tmp_path, nvars, clauses, tampered, "-f")
    assert drat_trim is None or f"failed at proof line {index + 1} " in out and "s NOT VERIFIED" in out, out


def test_random_tampering_agrees_with_drat_trim(drat_trim, tmp_path) -> None:
    """Proofs changed at random (a line dropped, a literal flipped, two lines swapped, a
    deletion added): C and Python agree; what we accept, drat-trim accepts too (it accepts
    more: it checks only the lemmas the empty clause needs, and needs no empty clause after a
    conflict, and takes any literal as the RAT pivot); drat-trim's forward mode (-f, every
    lemma checked, as ours) fails where we do."""
    rng = random.Random(7)
    accepted = failed_alike = 0
    for trial in range(48):  # (drat-trim takes 0.2 s to start)
        name, nvars, clauses, proof = FORMULAS[trial % len(FORMULAS)]
        lines = lines_of(proof)
        i, j = rng.randrange(len(lines) - 1), rng.randrange(len(lines) - 1)
        if trial % 4 == 0:
            del lines[i]
        elif trial % 4 == 1:
            i = rng.choice([k for k in lemma_lines(proof) if len(lines[k].split()) > 1])
            words = lines[i].split()
            k = rng.randrange(len(words) - 1)
            words[k] = words[k][1:] if words[k].startswith(b"-") else b"-" + words[k]
            lines[i] = b" ".join(words) + b"\n"
        elif trial % 4 == 2:
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, b"d " + lines[j].removeprefix(b"d "))
        tampered = b"".join(lines)
        ours = both(clauses, tampered, nvars)
        forward = trim_verdict(drat_trim, tmp_path, nvars, clauses, tampered, "-f")
        if ours.ok:
            assert trim_accepts(drat_trim, tmp_path, nvars, clauses, tampered) is not False
            accepted += 1
        failed = re.search(r"failed at proof line (\d+) ", forward)
        if "s VERIFIED" in forward and "RAT check on proof pivot failed" not in forward:
            # (drat-trim tries the other literals when the first is no RAT pivot; DRAT has the
            # pivot first, and so do we)
            assert ours.ok or "empty clause" in ours.message, ours
        elif failed and int(failed[1]) > 1:  # (drat-trim -f does not check the first step)
            assert not ours.ok, forward
            if "does not occur" not in forward:  # (a deletion of nothing is no step of drat-trim's)
                assert f"(line {failed[1]} of the proof)" in ours.message, (ours, failed[0])
                failed_alike += 1
    assert accepted >= 5 and (failed_alike >= 5 or drat_trim is None), (accepted, failed_alike)


# -- (3) RAT ------------------------------------------------------------------------------------


def test_extended_resolution_with_rat_lemmas(drat_trim, tmp_path) -> None:
    """x <-> (p1 & p2), x a new variable, defined by three RAT clauses, then CaDiCaL's proof:
    accepted by both; a clause on x that is no definition is rejected."""
    php = PHP(4)
    x, p1, p2 = php.nv + 1, 1, php.nv - 1  # (p1, p2: pigeon 1 in hole 1, the last pigeon in the last hole)
    definition = f"-{x} {p1} 0\n-{x} {p2} 0\n{x} -{p1} -{p2} 0\n".encode()
    proof = definition + cadical(php.clauses)[1]
    result = both(php.clauses, proof, php.nv)
    assert result.ok and result.message.endswith("(3 RAT)"), result.message
    assert trim_accepts(drat_trim, tmp_path, php.nv, php.clauses, proof) is not False
    bogus = definition + f"-{x} 0\n".encode()  # x false: resolvent with x|-p1|-p2 is not RUP
    result = both(php.clauses, bogus + b"0\n", php.nv)
    assert result.message == "lemma 4 (line 4 of the proof) is neither RUP nor RAT"
    assert trim_accepts(drat_trim, tmp_path, php.nv, php.clauses, bogus + cadical(php.clauses)[1], "-f") is not True
    # the pivot is the first literal: the same clause written pivot last is not RAT (drat-trim
    # tries every literal, with a warning)
    assert both(php.clauses, f"{p1} -{x} 0\n".encode(), php.nv).message == (
        "lemma 1 (line 1 of the proof) is neither RUP nor RAT")


def test_rat_against_a_pivot_false_at_the_top_level_fails() -> None:
    # 1 is forced false (the unit -1); 1 | 3 is neither RUP nor RAT on 1 (as it would be if
    # -1 were not known): (1 | 3) & -1 forces 3, which the formula does not
    clauses = [[-1], [1, 2], [-3, -2], [3, 4], [-4, 2]]
    assert both(clauses, b"1 3 0\n").message == "lemma 1 (line 1 of the proof) is neither RUP nor RAT"
    assert both(clauses, b"3 0\n").ok is False  # (no empty clause, or not RUP)


def test_large_extension_variables_cost_nothing() -> None:
    php = PHP(3)
    big = 2_000_000_000
    proof = f"-{big} 1 0\n-{big} 2 0\n{big} -1 -2 0\n".encode() + cadical(php.clauses)[1]
    assert both(php.clauses, proof).ok
    assert both(php.clauses, binary(proof)).ok


def test_deletions() -> None:
    """A deletion removes one copy of the clause with those literals, in any order; deleting a
    clause that is not there or a unit does nothing; deleting what the proof needs is caught."""
    clauses = [[1, 2], [1, -2], [-1, 2], [-1, -2]]
    assert both(clauses, b"d 2 1 0\nd 3 4 0\nd 1 0\n1 0\n0\n").ok is False  # 1 no longer RUP
    assert both(clauses, b"d 3 4 0\nd 1 0\nd 0\n1 0\n0\n").ok
    assert both(clauses + [[1, 2]], b"d 2 1 0\n1 0\n0\n").ok  # the other copy stays
    # a unit lemma stays, even when deleted
    assert both(clauses, b"1 0\nd 1 0\n0\n").ok
    # a top-level literal stays when its reason goes (2, from 1 and -1 | 2)
    clauses = [[1], [-1, 2], [-2, 3, 4], [-2, 3, -4], [-2, -3, 4], [-2, -3, -4]]
    assert both(clauses, b"d -1 2 0\n3 0\n0\n").message == "verified: 2 lemmas checked (0 RAT)"


# -- (5) garbage, (6) satisfiable formulas -----------------------------------------------------


def test_garbage_gives_one_line(tmp_path) -> None:
    name, nvars, clauses, proof = PHP5
    rng = random.Random(3)
    for size in (1, 2, 10, 100, 10_000):
        for _ in range(5):
            junk = bytes(rng.randrange(256) for _ in range(size))
            result = both(clauses, junk, nvars)
            assert not result.ok and "\n" not in result.message and result.message
            cnf = tmp_path / "junk.cnf"
            cnf.write_bytes(junk)
            result = drat.check_files(str(cnf), str(cnf))
            assert not result.ok and result.message.startswith("the formula: ") and "\n" not in result.message
    for junk, message in (  # (after a comment line: bytes such as x among the first 12 are binary DRAT)
        (b"1 2 x 0\n", "not a DRAT proof: line 2: 'x' is not a literal"),
        (b"d 1 2 0\n\n3 -99999999999 0\n", "not a DRAT proof: line 4: '-99999999999' is not a literal"),
        (b"d 1 2 0\n\nd 3 0\n1 2\n", "not a DRAT proof: line 5: the last clause does not end with 0 (a truncated proof?)"),
        (b"d 1 2 0\n1 c 0\n", "not a DRAT proof: line 3: 'c' is not a literal"),
        (b"d 1 2 0\nd1 0\n", "not a DRAT proof: line 3: 'd1' is not a literal"),
        (b"c \xff\xfe\n--1 0\n", "not a DRAT proof: line 3: '--1' is not a literal"),
        (b"d 1 2 0\n" + b"7" * 30 + b" 0\n", f"not a DRAT proof: line 3: {'7' * 20 + '...'!r} is not a literal"),
    ):
        junk = b"c 0123456789\n" + junk
        assert both(clauses, junk, nvars).message == message


def test_bad_formulas(tmp_path) -> None:
    cases = {
        b"": "the formula: no header 'p cnf VARIABLES CLAUSES'",
        b"1 2 0\n": "the formula: line 1: a clause before the header 'p cnf VARIABLES CLAUSES'",
        b"p cnf 2\n": "the formula: line 1: the header is not 'p cnf VARIABLES CLAUSES'",
        b"p cnf 2 1\n1 3 0\n": "the formula: line 2: literal 3 is not of a variable 1..2",
        b"p cnf 2 1\n1 2 0\n2 0\n": "the formula: line 3: more clauses than the header's 1",
        b"p cnf 2 2\n1 2 0\n": "the formula: 1 clauses, but the header says 2",
        b"p cnf 2 2\n1 2 0\n2": "the formula: line 3: the last clause does not end with 0",
        b"p cnf 2 1\np cnf 2 1\n": "the formula: line 2: a second header",
        b"p cnf 2 1\n1 +2 0\n": "the formula: line 2: '+2' is not a literal",
        b"p cnf 2 1\n%\n": "the formula: line 2: '%' is not a literal",
        b"p cnf 3000000000 1\n1 0\n": "the formula: line 1: more than 2147483647 variables",
    }
    for data, message in cases.items():
        with pytest.raises(ValueError) as error:
            drat.parse_dimacs(data)
        assert str(error.value) == message
        (tmp_path / "f.cnf").write_bytes(data)
        (tmp_path / "p").write_bytes(b"0\n")
        assert drat.check_files(str(tmp_path / "f.cnf"), str(tmp_path / "p")) == drat.DratResult(False, message)
    assert drat.parse_dimacs(b"c x\np cnf 3 2\n c y\n1 -2\n 0 3\n0\nc end\n") == (3, [[1, -2], [3]])
    with pytest.raises(ValueError, match="^the puzzle's formula: "):
        drat.parse_dimacs(b"", "puzzle's formula")
    # formulas given as lists
    assert both([[1, 0]], b"0\n").message == "the formula: clause 1 has 0, not a literal of variables 1..2147483647"
    assert both([[1], [2, 3]], b"0\n", 2).message == "the formula: clause 2 has 3, not a literal of variables 1..2"
    assert both([[1], "12"], b"0\n").message == "the formula: clause 2 is not a list of literals"
    assert both([[1.0]], b"0\n").message == "the formula: clause 1 has 1.0, not a literal of variables 1..2147483647"
    assert both([[2**40]], b"0\n").message.startswith("the formula: clause 1 has 1099511627776, not")


def test_huge_header_and_huge_files_stay_small(tmp_path) -> None:
    import resource

    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    cnf = tmp_path / "huge.cnf"
    cnf.write_bytes(b"p cnf 2000000000 2\n1999999999 0\n-1999999999 0\n")
    proof = tmp_path / "p.drat"
    proof.write_bytes(b"0\n")
    assert drat.check_files(str(cnf), str(proof)).ok  # (unit propagation refutes it)
    proof.write_bytes(b"2000000000 1 0\n-1999999999 -2000000000 0\n0\n")
    cnf.write_bytes(b"p cnf 2000000000 1\n1999999999 0\n")
    result = drat.check_files(str(cnf), str(proof))
    assert not result.ok and "neither RUP nor RAT" in result.message
    junk = tmp_path / "junk"
    with open(junk, "wb") as f:
        f.write(b"1 " * (5 << 20))
    result = drat.check_files(str(cnf), str(junk), max_bytes=1 << 20)
    assert result == drat.DratResult(False, f"the proof: {junk} has {10 << 20} bytes, more than the limit of {1 << 20}")
    result = drat.check_files(str(junk), str(proof), max_bytes=1 << 20)
    assert not result.ok and result.message.startswith("the formula: ")
    assert drat.check_files(str(tmp_path / "missing"), str(proof)).message.startswith(
        f"the formula: cannot read {tmp_path / 'missing'}: No such file")
    assert drat.check_files(str(cnf), str(tmp_path)).message.startswith(f"the proof: cannot read {tmp_path}: ")
    # the 10 MB of junk, read as a proof: one line, within a little memory
    result = drat.check_files(str(cnf), str(junk))
    assert result.message == "not a DRAT proof: line 1: the last clause does not end with 0 (a truncated proof?)"
    grown = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before  # (kB on Linux)
    assert grown < 400_000


def test_a_fifo_is_read_up_to_the_limit(tmp_path) -> None:
    import os
    import threading

    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:
            try:
                f.write(b"1 " * (1 << 20))
            except BrokenPipeError:
                pass

    writer = threading.Thread(target=write)
    writer.start()
    (tmp_path / "f.cnf").write_bytes(b"p cnf 1 1\n1 0\n")
    result = drat.check_files(str(tmp_path / "f.cnf"), str(fifo), max_bytes=1000)
    writer.join()
    assert result == drat.DratResult(False, f"the proof: {fifo} has more than the limit of 1000 bytes")


def test_satisfiable_formulas_are_never_refuted() -> None:
    """A satisfiable formula with any proof: CaDiCaL's proofs of other formulas, random lemmas,
    an empty proof: rejected."""
    rng = random.Random(11)
    sat_formulas = [(n, c) for n, c in ((20, random_3sat(s, 20, 3.5)) for s in range(60)) if cadical(c)[0]][:15]
    assert len(sat_formulas) >= 10
    for nvars, clauses in sat_formulas:
        assert both(clauses, b"", nvars).message == (
            "the proof does not derive the empty clause: it ends after 0 lemmas without it")
        result = both(clauses, b"0\n", nvars)
        assert result.message == ("the proof does not derive the empty clause: lemma 1 (line 1 of the proof), "
                                  "the empty clause, does not follow by unit propagation")
        for _, _, _, proof in rng.sample(FORMULAS, 3):
            assert not both(clauses, proof, nvars).ok
        for _ in range(5):
            lemmas = [[rng.choice((1, -1)) * rng.randint(1, nvars + 2) for _ in range(rng.randint(1, 3))]
                      for _ in range(rng.randint(1, 30))]
            proof = "".join(" ".join(map(str, c)) + " 0\n" for c in lemmas + [[]]).encode()
            assert not both(clauses, proof, nvars).ok


def test_trivially_unsatisfiable_formulas_need_no_proof() -> None:
    message = "verified: unit propagation alone refutes the formula (0 lemmas checked)"
    for clauses in ([[1], [-1]], [[]], [[1, 2], [-1], [-2]]):
        assert both(clauses, b"") == drat.DratResult(True, message)
        assert both(clauses, b"junk") == drat.DratResult(True, message)


def satisfiable(nvars: int, clauses) -> bool:
    return any(all(any((lit > 0) == bool(bits >> (abs(lit) - 1) & 1) for lit in c) for c in clauses)
               for bits in range(1 << nvars))


def test_random_small_proofs_c_and_python_agree_and_never_refute_a_satisfiable_formula() -> None:
    """Random formulas of up to 7 variables with random proofs (lemmas, some RAT-shaped over a
    new variable, repeated and opposite literals, deletions of formula clauses in any order,
    of nothing, of units): the compiled and the Python checker give the same verdicts, in text
    and in binary; a formula accepted as refuted is unsatisfiable (by brute force)."""
    rng = random.Random(5)
    accepted = 0
    for _ in range(3000):
        nvars = rng.randint(2, 6)
        lit = lambda n=nvars: rng.choice((1, -1)) * rng.randint(1, n)  # noqa: E731
        clauses = [[lit() for _ in range(rng.choice((1,) + (2, 3) * 6))] for _ in range(rng.randint(3, 25))]
        proof = []
        for _ in range(rng.randint(0, 12)):
            step = rng.random()
            if step < 0.2 and clauses:
                proof.append("d " + " ".join(map(str, rng.sample(c := rng.choice(clauses), len(c)))))
            elif step < 0.25:
                proof.append("d " + " ".join(str(lit()) for _ in range(rng.randint(0, 2))))
            else:
                proof.append(" ".join(str(lit(nvars + 1)) for _ in range(rng.choice((1, 1, 2, 3)))))
        if rng.random() < 0.8:
            proof.append("")
        text = "".join(f"{step} 0\n".lstrip() for step in proof).encode()
        result = both(clauses, text, nvars)
        if result.ok:
            accepted += "unit propagation alone" not in result.message
            assert not satisfiable(nvars, clauses), (clauses, text)
        in_binary = both(clauses, binary(text), nvars)
        assert (in_binary.ok, in_binary.lemmas) == (result.ok, result.lemmas)
        assert re.sub(r"byte offset \d+", "line", in_binary.message) == re.sub(r"line \d+", "line", result.message)
    assert accepted >= 20  # (refuted by a proof, not by unit propagation alone)


def test_parse_dimacs_reads_every_file_as_its_line_by_line_reading(monkeypatch) -> None:
    """parse_dimacs reads the common file (no comment after the header) in one go: it gives
    what the line-by-line reading gives, or the same error, on random files."""
    rng = random.Random(9)
    pieces = [b"1", b"-2", b"3", b"0", b"0", b" ", b" ", b"\n", b"\n", b"\r\n", b"\t", b"c x\n", b"-", b"+1", b"4",
              b"p cnf 3 2\n", b"00", b"-0", b"x", b"99999999999"]
    for _ in range(3000):
        data = b"p cnf %d %d\n" % (rng.randint(0, 4), rng.randint(0, 4)) if rng.random() < 0.9 else b""
        data = rng.choice((b"", b"c hi\n")) + data + b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        outcomes = []
        for fast in (True, False):
            if not fast:
                monkeypatch.setattr(drat, "_parse_dimacs_fast", lambda data: None)
            try:
                outcomes.append(drat.parse_dimacs(data))
            except ValueError as error:
                outcomes.append(str(error))
            monkeypatch.undo()
        assert outcomes[0] == outcomes[1], data


# -- the checker is no rubber stamp; the compiled module is this source -------------------------


def test_a_checker_that_accepts_every_lemma_fails_these_tests(monkeypatch) -> None:
    """With RUP and RAT always true, the tampering tests above fail (they test the checker)."""
    monkeypatch.setattr(drat, "_native", None)
    monkeypatch.setattr(drat._Checker, "rup", lambda self, lits: True)
    with pytest.raises(AssertionError):
        test_flipping_a_literal_is_caught_at_that_lemma(PHP5)
    with pytest.raises(AssertionError):
        test_satisfiable_formulas_are_never_refuted()


def test_native_module_is_built_from_this_source() -> None:
    if not can_build():
        pytest.skip("no C compiler or Python headers here: the Python checker runs")
    import importlib

    mod = importlib.import_module("satnono.certify._drat")
    assert mod.SOURCE_SHA256 == hashlib.sha256(SOURCE.read_bytes()).hexdigest()
    assert drat._native is mod or drat._native is None  # (None under SATNONO_PURE)
