"""An independent DRAT proof checker: does a clausal proof refute a CNF formula?

This module is part of the trust base of satnono's certificates (issue #40): it imports
nothing else of satnono.  ``satnono verify`` calls :func:`check_files`.  It reads the proofs
drat-trim (https://github.com/marijnheule/drat-trim) reads, text or binary, and every proof it
accepts drat-trim accepts; drat-trim accepts a little more: it checks only the lemmas that the
empty clause needs, tries every literal of a lemma as the RAT pivot, and stops at the first
conflict of unit propagation without asking for the empty clause.

The proof format (DRAT)
-----------------------
A proof is a sequence of clauses, each a list of non-zero integers ended by ``0``: a *lemma*
added to the formula (``1 -2 0``) or a deletion (``d 1 -2 0``).  Text proofs may hold comment
lines (``c ...``) between clauses.  Binary proofs (drat-trim's format, told from the first
bytes as drat-trim does) write each clause as the byte ``a`` (add) or ``d`` (delete), then each
literal as the unsigned number ``2*|lit| + (lit < 0)`` in 7-bit groups, low group first, the
high bit set on every byte but a number's last, then a ``0`` byte.  Variables above the
formula's may appear in the proof (extension variables).

The check (forward, RUP and RAT)
--------------------------------
The checker keeps the *active* clauses (the formula's, then each accepted lemma; a deletion
removes one active clause with the same literals) and the *top-level assignment*: the literals
unit propagation derives from the active clauses.  For each lemma C, in the proof's order:

- **RUP** (reverse unit propagation): assume every literal of C false and unit-propagate over
  the active clauses; C is accepted if this reaches a conflict (C follows from them).
- **RAT** (resolution asymmetric tautology) when RUP fails, on C's first literal p (the pivot):
  C is accepted if p is not false at the top level and, for every active clause D that contains
  -p, the clause C + (D without -p) is RUP.  Adding C then keeps a satisfiable formula
  satisfiable.
- Otherwise the proof is rejected, naming the lemma: its number (lemmas are counted from 1,
  deletions and comments not counted) and its line (text) or byte offset (binary) in the proof.

The proof is accepted when it adds the empty clause and that clause is RUP (the active clauses
propagate to a conflict).  A formula that unit propagation alone refutes needs no proof.
Lines after the empty clause are not read.

Unit propagation uses two watched literals per clause (a clause is visited only when one of
its two watched literals becomes false).  Three simplifications keep it short, and sound:

- A clause true at the top level when added is not stored (it can never propagate); a clause
  with one literal not false at the top level is not stored either: that literal is assigned.
  Deleting a clause that is not stored (a unit among them) does nothing, as in drat-trim.
- A deletion never undoes the top-level assignment: each assigned literal stays, as if the
  proof had added it as a unit lemma (it was RUP) and never deleted it.  For RAT, such a unit
  would be a clause holding -p, so a pivot false at the top level fails RAT (its resolvent
  would be C without p, whose RUP check is C's, which failed).
- RAT scans all stored clauses for -p (no occurrence lists): slow only for proofs with many
  RAT lemmas, which CaDiCaL does not write.

Two implementations give the same verdicts: ``_drat.c`` (compiled when satnono is installed
with a C compiler; used unless ``SATNONO_PURE`` is set) and :func:`_check_py` below, the same
algorithm in plain Python (slow: for small proofs, and the reference for the C code).  Memory
grows with the data read, never with a header's claims: variables are numbered in the order
they appear, so ``p cnf 2000000000 1`` costs nothing.
"""

from __future__ import annotations

import operator
import os
import re
import stat
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from types import ModuleType

INT_MAX = 2**31 - 1  # the largest variable (as in drat-trim, which reads C ints)

# verdicts of a check, shared with _drat.c: (code, lemmas, rat, line, offset)
VERIFIED, TRIVIAL, NOT_REDUNDANT, EMPTY_NOT_RUP, NO_EMPTY = 0, 1, 2, 3, 4
BAD_LITERAL, UNTERMINATED, BAD_PREFIX, FORMULA_LITERAL, NO_MEMORY = 5, 6, 7, 8, 9


@dataclass(frozen=True)
class DratResult:
    """A verdict: ``ok`` when the proof refutes the formula; ``message`` one line saying so or
    what failed; ``lemmas`` the number of lemmas checked."""

    ok: bool  # the proof refutes the formula
    message: str
    lemmas: int = 0


def _load_native() -> ModuleType | None:
    if os.environ.get("SATNONO_PURE", "") not in ("", "0"):
        return None
    try:
        from . import _drat  # type: ignore[attr-defined]
    except ImportError:
        return None
    return _drat


_native = _load_native()  # None: _check_py runs


# -- reading ---------------------------------------------------------------------------------


def parse_dimacs(data: bytes, source: str = "formula") -> tuple[int, list[list[int]]]:
    """The variable count and clauses of a DIMACS CNF file, read strictly: comment lines
    (``c ...``), one header ``p cnf VARIABLES CLAUSES``, then exactly CLAUSES clauses, each
    ended by ``0``, of literals within 1..VARIABLES.  ValueError (one line, naming ``the
    {source}`` and the line) otherwise."""
    fast = _parse_dimacs_fast(data)
    if fast is not None:
        return fast

    def bad(lineno: int, what: str) -> ValueError:
        return ValueError(f"the {source}: line {lineno}: {what}")

    nvars = nclauses = -1
    clauses: list[list[int]] = []
    clause: list[int] = []
    lineno = 0
    for lineno, line in enumerate(data.split(b"\n"), 1):
        tokens = line.split()
        if not tokens or tokens[0][:1] == b"c":
            continue
        if tokens[0] == b"p":
            if nvars >= 0:
                raise bad(lineno, "a second header")
            if len(tokens) != 4 or tokens[1] != b"cnf" or not all(t.isdigit() for t in tokens[2:]):
                raise bad(lineno, "the header is not 'p cnf VARIABLES CLAUSES'")
            nvars, nclauses = int(tokens[2]), int(tokens[3])
            if nvars > INT_MAX:
                raise bad(lineno, f"more than {INT_MAX} variables")
            continue
        if nvars < 0:
            raise bad(lineno, "a clause before the header 'p cnf VARIABLES CLAUSES'")
        try:  # (int() of tokens made of these bytes only takes -?[0-9]+)
            if line.translate(None, b"-0123456789 \t\r\v\f"):
                raise ValueError
            numbers = list(map(int, tokens))
        except ValueError:
            token = next(t for t in tokens if _literal(t) is None)
            raise bad(lineno, f"{_show(token)} is not a literal") from None
        for lit in numbers:
            if lit == 0:
                if len(clauses) == nclauses:
                    raise bad(lineno, f"more clauses than the header's {nclauses}")
                clauses.append(clause)
                clause = []
            elif not -nvars <= lit <= nvars:
                raise bad(lineno, f"literal {lit} is not of a variable 1..{nvars}")
            else:
                clause.append(lit)
    if nvars < 0:
        raise ValueError(f"the {source}: no header 'p cnf VARIABLES CLAUSES'")
    if clause:
        raise bad(lineno, "the last clause does not end with 0")
    if len(clauses) != nclauses:
        raise ValueError(f"the {source}: {len(clauses)} clauses, but the header says {nclauses}")
    return nvars, clauses


def _parse_dimacs_fast(data: bytes) -> tuple[int, list[list[int]]] | None:
    """What parse_dimacs reads from a file of comment lines, the header, then clauses with no
    comment between them (the common file), read twice as fast; None for any other file or
    any fault, for parse_dimacs to read line by line and name the fault."""
    start = 0
    while True:  # the header, after the comment lines
        end = data.find(b"\n", start) % (len(data) + 1)  # (-1: the end)
        tokens = data[start:end].split()
        if tokens and tokens[0][:1] != b"c":
            break
        if end == len(data):
            return None
        start = end + 1
    if len(tokens) != 4 or tokens[:2] != [b"p", b"cnf"] or not tokens[2].isdigit() or not tokens[3].isdigit():
        return None
    nvars, nclauses = int(tokens[2]), int(tokens[3])
    body = data[end + 1 :]
    if nvars > INT_MAX or body.translate(None, b"-0123456789 \t\n\r\v\f"):
        return None  # (anything but literals: a comment, a second header, a stray byte)
    try:
        numbers = list(map(int, body.split()))  # (of these bytes, int() takes -?[0-9]+ only)
    except ValueError:
        return None
    if numbers and (numbers[-1] != 0 or max(numbers) > nvars or -min(numbers) > nvars):
        return None
    clauses: list[list[int]] = []
    start = 0
    while start < len(numbers) and len(clauses) < nclauses:
        end = numbers.index(0, start)
        clauses.append(numbers[start:end])
        start = end + 1
    return (nvars, clauses) if start == len(numbers) and len(clauses) == nclauses else None


def _literal(token: bytes) -> int | None:
    """A literal (or 0) written as ``-?[0-9]+`` within +-INT_MAX; None if ``token`` is not one."""
    digits = token[1:] if token[:1] == b"-" else token
    if not digits.isdigit():
        return None
    value = int(token)
    return value if abs(value) <= INT_MAX else None


def _show(token: bytes) -> str:
    text = token[:20].decode("ascii", "backslashreplace")
    return repr(text + ("..." if len(token) > 20 else ""))


def is_binary(proof: bytes) -> bool:
    """Whether drat-trim reads ``proof`` as binary DRAT: a byte among its first 12 that text
    DRAT does not use (beyond the letters of a leading comment ``c ...``)."""
    text = b"\n\r -0123456789cd"
    if len(proof) < 2:
        return True  # (as drat-trim: an empty or one-byte proof holds no text clause)
    comment = proof[:2] == b"c "
    for i, byte in enumerate(proof[:12]):
        if byte not in text and (i < 2 or not comment or not 65 <= byte <= 122):
            return True
    return False


class _Bad(Exception):
    """A proof that cannot be read: its verdict code, line (text) and byte offset."""

    def __init__(self, code: int, line: int, offset: int) -> None:
        super().__init__(code, line, offset)
        self.code, self.line, self.offset = code, line, offset


def _text_clauses(data: bytes) -> Iterator[tuple[bool, list[int], int, int]]:
    """(deletion, literals, line, offset) of each clause of a text proof; _Bad if unreadable."""
    lits: list[int] = []
    delete, start, line, start_offset = False, 0, 1, -1
    counted = comment_end = 0  # newlines counted up to offset `counted`; a comment up to comment_end
    for match in _TOKEN.finditer(data):
        at = match.start()
        if at < comment_end:
            continue
        line += data.count(b"\n", counted, at)
        counted, token = at, match.group()
        if start_offset < 0:  # a clause starts here
            if token[:1] == b"c":  # a comment line
                comment_end = data.find(b"\n", at) % (len(data) + 1)  # (-1: to the end)
                continue
            start, start_offset = line, at
            if token == b"d":
                delete = True
                continue
        lit = _literal(token)
        if lit is None:
            raise _Bad(BAD_LITERAL, line, at)
        if lit:
            lits.append(lit)
            continue
        yield delete, lits, start, start_offset
        lits, delete, start_offset = [], False, -1
    if start_offset >= 0:
        raise _Bad(UNTERMINATED, start, start_offset)


_TOKEN = re.compile(rb"[^ \t\n\r\v\f]+")  # (the ASCII white space of bytes.split() and _drat.c)


def _binary_clauses(data: bytes) -> Iterator[tuple[bool, list[int], int, int]]:
    """(deletion, literals, 0, offset) of each clause of a binary proof; _Bad if unreadable."""
    i, n = 0, len(data)
    while i < n:
        start = i
        if data[i] not in b"ad":
            raise _Bad(BAD_PREFIX, 0, i)
        delete = data[i] == 0x64
        i += 1
        lits: list[int] = []
        while True:
            lit_at, number, shift = i, 0, 0
            while True:
                if i >= n:
                    raise _Bad(UNTERMINATED, 0, start)
                byte = data[i]
                i += 1
                number |= (byte & 127) << shift
                if byte < 128:
                    break
                shift += 7
                if shift >= 35:
                    raise _Bad(BAD_LITERAL, 0, lit_at)
            if number == 0:
                break
            if number == 1 or number >> 1 > INT_MAX:
                raise _Bad(BAD_LITERAL, 0, lit_at)
            lits.append(-(number >> 1) if number & 1 else number >> 1)
        yield delete, lits, 0, start


# -- the checker in Python (the reference of _drat.c) -----------------------------------------


class _Checker:
    """Active clauses with two watched literals, and the top-level assignment.

    A variable is numbered 1, 2, ... as it first appears; literal ``x`` of variable ``v`` is
    ``2*v`` and ``-x`` is ``2*v + 1`` (so ``lit ^ 1`` is its negation).  A stored clause
    watches its first two literals."""

    def __init__(self) -> None:
        self.number: dict[int, int] = {}  # a variable as written -> its number
        self.value = [0, 0]  # per literal: 1 true, -1 false, 0 unassigned
        self.watches: list[list[int]] = [[], []]  # per literal: the clauses watching it
        self.trail: list[int] = []  # the true literals, in the order assigned
        self.head = 0  # trail[:head] has been propagated
        self.clauses: list[list[int] | None] = []  # stored clauses (None once deleted)
        self.table: dict[tuple[int, ...], list[int]] = {}  # sorted literals -> stored clauses
        self.conflict = False  # the top level is in conflict: the formula is refuted

    def literals(self, lits: Sequence[int]) -> list[int]:
        """``lits`` as internal literals, repeats left out (the first literal stays first)."""
        out: list[int] = []
        for x in lits:
            v = self.number.get(abs(x))
            if v is None:
                v = self.number[abs(x)] = len(self.number) + 1
                self.value += (0, 0)
                self.watches += ([], [])
            lit = 2 * v + (x < 0)
            if lit not in out:
                out.append(lit)
        return out

    def assign(self, lit: int) -> None:
        self.value[lit], self.value[lit ^ 1] = 1, -1
        self.trail.append(lit)

    def propagate(self) -> bool:
        """Unit propagation from the unpropagated trail; False on a conflict."""
        value, watches, clauses = self.value, self.watches, self.clauses
        while self.head < len(self.trail):
            false = self.trail[self.head] ^ 1
            self.head += 1
            ws, keep = watches[false], []
            for i, k in enumerate(ws):
                c = clauses[k]
                if c is None:
                    continue  # deleted: its watch goes
                if c[0] == false:
                    c[0], c[1] = c[1], c[0]
                if value[c[0]] == 1:
                    keep.append(k)
                    continue
                for j in range(2, len(c)):
                    if value[c[j]] != -1:  # a new literal to watch
                        c[1], c[j] = c[j], c[1]
                        watches[c[1]].append(k)
                        break
                else:
                    keep.append(k)
                    if value[c[0]] == -1:
                        keep.extend(ws[i + 1 :])
                        watches[false] = keep
                        return False
                    self.assign(c[0])
            watches[false] = keep
        return True

    def backtrack(self, mark: int) -> None:
        for lit in self.trail[mark:]:
            self.value[lit] = self.value[lit ^ 1] = 0
        del self.trail[mark:]
        self.head = mark

    def add(self, lits: list[int]) -> None:
        """Make ``lits`` active (at the top level)."""
        if self.conflict or any(self.value[x] == 1 for x in lits):
            return
        open_ = [x for x in lits if self.value[x] == 0]
        if len(open_) < 2:
            if not open_:
                self.conflict = True
            else:
                self.assign(open_[0])
                self.conflict = not self.propagate()
            return
        c = open_[:2] + [x for x in lits if x not in open_[:2]]
        k = len(self.clauses)
        self.clauses.append(c)
        self.watches[c[0]].append(k)
        self.watches[c[1]].append(k)
        self.table.setdefault(tuple(sorted(c)), []).append(k)

    def delete(self, lits: list[int]) -> None:
        """Make a stored clause with the literals ``lits`` inactive, if there is one."""
        found = self.table.get(tuple(sorted(lits)))
        if found:
            self.clauses[found.pop()] = None

    def rup(self, lits: list[int]) -> bool:
        """Whether assuming ``lits`` false propagates to a conflict."""
        if self.conflict:
            return True
        mark, ok = len(self.trail), False
        for x in lits:
            if self.value[x] == 1:
                ok = True
                break
            if self.value[x] == 0:
                self.assign(x ^ 1)
        ok = ok or not self.propagate()
        self.backtrack(mark)
        return ok

    def rat(self, lits: list[int]) -> bool:
        """Whether ``lits`` is RAT on its first literal."""
        if not lits or self.value[lits[0]] == -1:
            return False
        neg = lits[0] ^ 1
        for c in self.clauses:
            if c is not None and neg in c and not self.rup(lits + [x for x in c if x != neg]):
                return False
        return True


def _check_py(clauses: Sequence[Sequence[int]], proof: bytes, binary: bool, limit: int) -> tuple[int, int, int, int, int]:
    """The verdict (code, lemmas, rat, line, offset) of ``proof`` on ``clauses``, whose
    literals must be within +-``limit``: the Python reference of ``_drat.check``."""
    checker = _Checker()
    for k, clause in enumerate(clauses, 1):
        if not isinstance(clause, (list, tuple)):
            return FORMULA_LITERAL, k, -1, 0, 0
        for j, x in enumerate(clause):
            try:
                x = operator.index(x)
            except TypeError:
                return FORMULA_LITERAL, k, j, 0, 0
            if x == 0 or abs(x) > limit:
                return FORMULA_LITERAL, k, j, 0, 0
        checker.add(checker.literals(clause))
    if checker.conflict:
        return TRIVIAL, 0, 0, 0, 0
    lemmas = rat = 0
    try:
        for delete, lits, line, offset in (_binary_clauses if binary else _text_clauses)(proof):
            internal = checker.literals(lits)
            if delete:
                if len(internal) > 1:
                    checker.delete(internal)
                continue
            lemmas += 1
            if not checker.rup(internal):
                if not internal:
                    return EMPTY_NOT_RUP, lemmas, rat, line, offset
                if not checker.rat(internal):
                    return NOT_REDUNDANT, lemmas, rat, line, offset
                rat += 1
            if not internal:
                return VERIFIED, lemmas, rat, 0, 0
            checker.add(internal)
    except _Bad as bad:
        return bad.code, lemmas, rat, bad.line, bad.offset
    return NO_EMPTY, lemmas, rat, 0, 0


# -- the interface ---------------------------------------------------------------------------


def check(clauses: list[list[int]], proof: bytes, nvars: int | None = None) -> DratResult:
    """Whether ``proof`` (text or binary DRAT) refutes the formula ``clauses`` (lists of
    non-zero ints, within 1..``nvars`` when it is given).  Never raises on bad input."""
    if isinstance(proof, str):
        proof = proof.encode("utf-8", "surrogateescape")
    proof = bytes(proof)
    binary = is_binary(proof)
    limit = INT_MAX if nvars is None else max(0, min(nvars, INT_MAX))
    try:
        if _native is not None:
            verdict = _native.check(clauses, proof, binary, limit)
        else:
            verdict = _check_py(clauses, proof, binary, limit)
    except MemoryError:
        verdict = (NO_MEMORY, 0, 0, 0, 0)
    return _result(verdict, clauses, proof, binary, limit)


def _result(verdict: tuple[int, int, int, int, int], clauses: Sequence[Sequence[int]], proof: bytes,
            binary: bool, limit: int) -> DratResult:
    code, lemmas, rat, line, offset = verdict
    where = f"byte offset {offset}" if binary else f"line {line}"
    if code == VERIFIED:
        return DratResult(True, f"verified: {lemmas} lemmas checked ({rat} RAT)", lemmas)
    if code == TRIVIAL:
        return DratResult(True, "verified: unit propagation alone refutes the formula (0 lemmas checked)")
    if code == NOT_REDUNDANT:
        message = f"lemma {lemmas} ({where} of the proof) is neither RUP nor RAT"
    elif code == EMPTY_NOT_RUP:
        message = (f"the proof does not derive the empty clause: lemma {lemmas} ({where} of the proof), "
                   "the empty clause, does not follow by unit propagation")
    elif code == NO_EMPTY:
        message = f"the proof does not derive the empty clause: it ends after {lemmas} lemmas without it"
    elif code == BAD_LITERAL and binary:
        message = f"not a DRAT proof: {where}: a literal out of range (binary DRAT)"
    elif code == BAD_LITERAL:
        token = proof[offset : offset + 64].split()[0]
        message = f"not a DRAT proof: {where}: {_show(token)} is not a literal"
    elif code == UNTERMINATED:
        message = f"not a DRAT proof: {where}: the last clause does not end with 0 (a truncated proof?)"
    elif code == BAD_PREFIX:
        message = f"not a DRAT proof: {where}: byte {proof[offset]:#04x}, where a binary clause starts with 'a' or 'd'"
    elif code == FORMULA_LITERAL:
        clause = clauses[lemmas - 1]
        what = "is not a list of literals" if rat < 0 else f"has {clause[rat]!r}, not a literal of variables 1..{limit}"
        message = f"the formula: clause {lemmas} {what}"
        lemmas = 0
    else:
        message = "out of memory while checking the proof"
        lemmas = 0
    return DratResult(False, message, lemmas)


def check_files(cnf_path: str, proof_path: str, *, max_bytes: int = 2 << 30) -> DratResult:
    """Whether the DRAT proof in ``proof_path`` refutes the DIMACS formula in ``cnf_path``
    (each file at most ``max_bytes`` long).  Never raises on bad input."""
    try:
        formula = _read(cnf_path, "the formula", max_bytes)
        proof = _read(proof_path, "the proof", max_bytes)
        nvars, clauses = parse_dimacs(formula)
    except ValueError as error:
        return DratResult(False, str(error))
    except MemoryError:
        return DratResult(False, "out of memory while reading the formula and the proof")
    return check(clauses, proof, nvars)


def _read(path: str, what: str, max_bytes: int) -> bytes:
    """The bytes of ``path``, at most ``max_bytes`` of them; ValueError (one line) otherwise."""
    chunks, total = [], 0
    try:
        with open(path, "rb") as f:
            info = os.fstat(f.fileno())
            if stat.S_ISREG(info.st_mode) and info.st_size > max_bytes:
                raise ValueError(f"{what}: {path} has {info.st_size} bytes, more than the limit of {max_bytes}")
            while chunk := f.read(min(1 << 20, max_bytes + 1 - total)):
                chunks.append(chunk)
                total += len(chunk)
                if total > max_bytes:
                    raise ValueError(f"{what}: {path} has more than the limit of {max_bytes} bytes")
    except OSError as error:
        raise ValueError(f"{what}: cannot read {path}: {error.strerror or error}") from None
    return b"".join(chunks)
