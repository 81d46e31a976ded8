"""The DRAT checker in plain Python, and the words of its verdicts: does a clausal proof refute a CNF formula?

``satnono verify`` checks proofs with the compiled checker, ``_drat.c`` (docs/certificates.md,
"The DRAT checker", says what it checks); this module is its twin in plain Python,
:func:`check_text`, the same algorithm with the same names and the same verdicts, which runs
where ``_drat.c`` is not built or ``SATNONO_PURE`` is set (slow: for small proofs, and the
reference the tests hold the C code to).  It also words a verdict (:func:`explain`), reads
DIMACS files strictly (:func:`parse_dimacs`) and checks a formula given as lists
(:func:`check`) or files (:func:`check_files`), drat-trim's use.

Both read the proofs drat-trim (https://github.com/marijnheule/drat-trim) reads, text or
binary, and every proof they accept drat-trim accepts; drat-trim accepts a little more: it
checks only the lemmas that the empty clause needs, tries every literal of a lemma as the RAT
pivot, and stops at the first conflict of unit propagation without asking for the empty clause.
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

# the verdicts, _drat.c's: (code, lemmas, rat, offset); NO_MEMORY is check()'s own (MemoryError)
VERIFIED, TRIVIAL, NOT_REDUNDANT, EMPTY_NOT_RUP, NO_EMPTY = 0, 1, 2, 3, 4
BAD_LITERAL, UNTERMINATED, BAD_PREFIX, BAD_FORMULA, NO_MEMORY = 5, 6, 7, 8, 9


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


_native = _load_native()  # None: check_text runs


# -- the checker in Python (_drat.c's twin) --------------------------------------------------------


def is_binary(proof: bytes) -> bool:
    """Whether drat-trim reads ``proof`` as binary DRAT: fewer than 2 bytes, or a byte among its
    first 12 that text DRAT does not use (letters allowed after a leading ``c ``)."""
    for i, byte in enumerate(proof[:12]):
        letter = i >= 2 and proof[:2] == b"c " and 65 <= byte <= 122
        if not letter and byte not in b"\n\r -0123456789cd":
            return True
    return len(proof) < 2


class _Bad(Exception):
    """A proof that cannot be read: its verdict code, and where reading failed."""

    def __init__(self, code: int, offset: int) -> None:
        super().__init__(code, offset)
        self.code, self.offset = code, offset


_TOKEN = re.compile(rb"[^ \t\n\r\v\f]+")  # (the ASCII white space of bytes.split() and _drat.c)


def _literal(token: bytes) -> int | None:
    """A literal (or 0) written as ``-?[0-9]+`` within +-INT_MAX; None if ``token`` is not one."""
    digits = token[1:] if token[:1] == b"-" else token
    if not digits.isdigit():
        return None
    value = int(token)
    return value if abs(value) <= INT_MAX else None


def _text_clauses(data: bytes) -> Iterator[tuple[bool, list[int], int]]:
    """(deletion, literals, offset) of each clause of a text proof (_drat.c's read_text); _Bad."""
    lits: list[int] = []
    delete, start, comment_end = False, -1, 0
    for match in _TOKEN.finditer(data):
        at, token = match.start(), match.group()
        if at < comment_end:
            continue
        if start < 0:  # a clause starts here
            if token[:1] == b"c":  # a comment, to the end of its line
                comment_end = data.find(b"\n", at) % (len(data) + 1)  # (-1: to the end)
                continue
            start = at
            if token == b"d":
                delete = True
                continue
        lit = _literal(token)
        if lit is None:
            raise _Bad(BAD_LITERAL, at)
        if lit:
            lits.append(lit)
            continue
        yield delete, lits, start
        lits, delete, start = [], False, -1
    if start >= 0:
        raise _Bad(UNTERMINATED, start)


def _binary_clauses(data: bytes) -> Iterator[tuple[bool, list[int], int]]:
    """(deletion, literals, offset) of each clause of a binary proof (_drat.c's read_binary); _Bad."""
    i, n = 0, len(data)
    while i < n:
        start = i
        if data[i] not in b"ad":
            raise _Bad(BAD_PREFIX, i)
        delete = data[i] == 0x64
        i += 1
        lits: list[int] = []
        while True:
            at, number, shift = i, 0, 0
            while True:
                if shift == 35:
                    raise _Bad(BAD_LITERAL, at)
                if i >= n:
                    raise _Bad(UNTERMINATED, start)
                byte = data[i]
                i += 1
                number |= (byte & 127) << shift
                if byte < 128:
                    break
                shift += 7
            if number == 0:
                break
            if number == 1 or number >> 1 > INT_MAX:
                raise _Bad(BAD_LITERAL, at)
            lits.append(-(number >> 1) if number & 1 else number >> 1)
        yield delete, lits, start


class _Checker:
    """_drat.c's Checker: the active clauses, watching two literals each, and the top level.

    A variable is numbered 1, 2, ... as it first appears; literal ``x`` of variable ``v`` is
    ``2*v`` and ``-x`` is ``2*v + 1`` (so ``lit ^ 1`` is its negation).  A stored clause is a
    list of literals, its first two watched; None once deleted."""

    def __init__(self) -> None:
        self.number: dict[int, int] = {}  # a variable as written -> its number
        self.value = [0, 0]  # per literal: 1 true, -1 false, 0 unassigned
        self.watches: list[list[int]] = [[], []]  # per literal: the clauses watching it
        self.trail: list[int] = []  # the true literals, in order: trail[:head] is propagated
        self.head = 0
        self.clauses: list[list[int] | None] = []
        self.conflict = False  # the top level is in conflict

    def literals(self, lits: Sequence[int]) -> list[int]:
        """``lits`` as literals, repeats left out (the first literal stays first)."""
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
        """Unit propagation of the trail not yet propagated: whether it reaches a conflict."""
        value, watches, clauses = self.value, self.watches, self.clauses
        while self.head < len(self.trail):
            false = self.trail[self.head] ^ 1
            self.head += 1
            ws, kept = watches[false], []
            for i, k in enumerate(ws):
                c = clauses[k]
                if c is None:
                    continue  # deleted: the watch goes
                if c[0] == false:
                    c[0], c[1] = c[1], c[0]
                if value[c[0]] == 1:
                    kept.append(k)
                    continue
                for j in range(2, len(c)):
                    if value[c[j]] != -1:  # c[j] is not false: watched instead
                        c[1], c[j] = c[j], c[1]
                        watches[c[1]].append(k)
                        break
                else:
                    kept.append(k)
                    if value[c[0]] == -1:
                        watches[false] = kept + ws[i + 1 :]
                        return True
                    self.assign(c[0])
            watches[false] = kept
        return False

    def add(self, lits: list[int]) -> None:
        """Make ``lits`` active at the top level: stored (with 2 literals or more), watching two literals not false
        if it has them; made true if it has a single literal not false, a conflict if none."""
        c = [x for x in lits if self.value[x] >= 0] + [x for x in lits if self.value[x] < 0]
        opened = sum(self.value[x] >= 0 for x in lits)
        if len(c) >= 2:
            self.clauses.append(c)
            self.watches[c[0]].append(len(self.clauses) - 1)
            self.watches[c[1]].append(len(self.clauses) - 1)
        if opened == 1 and self.value[c[0]] == 0:
            self.assign(c[0])
            self.conflict = self.conflict or self.propagate()
        self.conflict = self.conflict or opened == 0

    def delete(self, lits: list[int]) -> None:
        """One stored clause with the literals ``lits``, if any, made inactive: it watches two of them.
        (A unit is not stored: no deletion undoes the top level.)"""
        wanted = set(lits)
        for x in lits:
            for k in self.watches[x]:
                c = self.clauses[k]
                if c is not None and len(c) == len(wanted) and wanted.issuperset(c):
                    self.clauses[k] = None
                    return

    def rup(self, lits: list[int]) -> bool:
        """Whether ``lits`` is RUP: assumed false, they propagate to a conflict."""
        mark, found = len(self.trail), self.conflict
        for x in lits:
            if found or self.value[x] == 1:
                found = True
                break
            if self.value[x] == 0:
                self.assign(x ^ 1)
        found = found or self.propagate()
        for lit in self.trail[mark:]:
            self.value[lit] = self.value[lit ^ 1] = 0
        del self.trail[mark:]
        self.head = mark
        return found

    def rat(self, lits: list[int]) -> bool:
        """Whether ``lits`` is RAT on its first literal."""
        if self.value[lits[0]] == -1:
            return False
        neg = lits[0] ^ 1
        for c in self.clauses:
            if c is not None and neg in c and not self.rup(lits + [x for x in c if x != neg]):
                return False
        return True


def check_text(formula: bytes, proof: bytes) -> tuple[int, int, int, int]:
    """The verdict ``(code, lemmas, rat, offset)`` of ``proof`` (text or binary DRAT) on
    ``formula`` (DIMACS clauses, text, no header): ``_drat.check``, in Python."""
    checker = _Checker()
    try:
        for delete, lits, _ in _text_clauses(formula):
            if delete:
                return BAD_FORMULA, 0, 0, 0
            checker.add(checker.literals(lits))
    except _Bad:
        return BAD_FORMULA, 0, 0, 0
    if checker.conflict:
        return TRIVIAL, 0, 0, 0
    lemmas = rat = offset = 0
    try:
        for delete, lits, offset in (_binary_clauses if is_binary(proof) else _text_clauses)(proof):
            internal = checker.literals(lits)
            if delete:
                checker.delete(internal)
                continue
            lemmas += 1
            if not checker.rup(internal):
                if not internal:
                    return EMPTY_NOT_RUP, lemmas, rat, offset
                if not checker.rat(internal):
                    return NOT_REDUNDANT, lemmas, rat, offset
                rat += 1
            if not internal:
                return VERIFIED, lemmas, rat, offset
            checker.add(internal)
    except _Bad as bad:
        return bad.code, lemmas, rat, bad.offset
    return NO_EMPTY, lemmas, rat, offset


# -- the words of a verdict, and the checks of lists and of files -----------------------------------


def explain(verdict: tuple[int, int, int, int], proof: bytes) -> str:
    """A verdict ``(code, lemmas, rat, offset)`` of ``proof`` in words, one line."""
    code, lemmas, rat, offset = verdict
    binary, line = is_binary(proof), proof.count(b"\n", 0, offset) + 1
    where = f"byte offset {offset}" if binary else f"line {line}"
    if code == VERIFIED:
        return f"verified: {lemmas} lemmas checked ({rat} RAT)"
    if code == TRIVIAL:
        return "verified: unit propagation alone refutes the formula (0 lemmas checked)"
    if code == NOT_REDUNDANT:
        return f"lemma {lemmas} ({where} of the proof) is neither RUP nor RAT"
    if code == EMPTY_NOT_RUP:
        return (f"the proof does not derive the empty clause: lemma {lemmas} ({where} of the proof), "
                "the empty clause, does not follow by unit propagation")
    if code == NO_EMPTY:
        return f"the proof does not derive the empty clause: it ends after {lemmas} lemmas without it"
    if code == BAD_LITERAL and binary:
        return f"not a DRAT proof: {where}: a literal out of range (binary DRAT)"
    if code == BAD_LITERAL:
        return f"not a DRAT proof: {where}: {_show(proof[offset : offset + 64].split()[0])} is not a literal"
    if code == UNTERMINATED:
        return f"not a DRAT proof: {where}: the last clause does not end with 0 (a truncated proof?)"
    if code == BAD_PREFIX:
        return f"not a DRAT proof: {where}: byte {proof[offset]:#04x}, where a binary clause starts with 'a' or 'd'"
    if code == BAD_FORMULA:
        return "the formula: not DIMACS clauses"
    return "out of memory while checking the proof"


def _show(token: bytes) -> str:
    text = token[:20].decode("ascii", "backslashreplace")
    return repr(text + ("..." if len(token) > 20 else ""))


def check(clauses: list[list[int]], proof: bytes, nvars: int | None = None) -> DratResult:
    """Whether ``proof`` (text or binary DRAT) refutes the formula ``clauses`` (lists of
    non-zero ints, within 1..``nvars`` when it is given).  Never raises on bad input."""
    if isinstance(proof, str):
        proof = proof.encode("utf-8", "surrogateescape")
    proof = bytes(proof)
    limit = INT_MAX if nvars is None else max(0, min(nvars, INT_MAX))
    for k, clause in enumerate(clauses, 1):
        if not isinstance(clause, (list, tuple)):
            return DratResult(False, f"the formula: clause {k} is not a list of literals")
        for x in clause:
            try:
                lit = operator.index(x)
            except TypeError:
                lit = 0
            if lit == 0 or abs(lit) > limit:
                return DratResult(False, f"the formula: clause {k} has {x!r}, not a literal of variables 1..{limit}")
    formula = "".join(" ".join(map(str, map(operator.index, c))) + " 0\n" for c in clauses).encode("ascii")
    try:
        verdict = (_native.check if _native is not None else check_text)(formula, proof)
    except MemoryError:
        verdict = (NO_MEMORY, 0, 0, 0)
    ok = verdict[0] in (VERIFIED, TRIVIAL)
    return DratResult(ok, explain(verdict, proof), verdict[1] if verdict[0] not in (TRIVIAL, NO_MEMORY) else 0)


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
