"""Reference encoder for tests: the first, straightforward form of satnono's line encoding.

Every clause is built with all its literals, constants included, and then
folded (a true literal drops the clause, false literals are removed).  The
production encoder in :mod:`satnono.cnf.encode` computes the index ranges where no
folding is needed instead; tests check that both give the same clauses.
"""

from __future__ import annotations

from typing import Iterable

Clause = list[int]

# Constants stand in for literals whose value is known; they never reach a clause.
_TRUE = True
_FALSE = False


class _Builder:
    """Collects folded clauses (no selector guard: the reference never needs one)."""

    def __init__(self, first_free: int) -> None:
        self.clauses: list[Clause] = []
        self.next_var = first_free

    def add(self, lits: Iterable[int | bool]) -> None:
        if any(lit is _TRUE for lit in lits):
            return
        self.clauses.append([lit for lit in lits if lit is not _FALSE])


def _neg(lit: int | bool) -> int | bool:
    if lit is _TRUE:
        return _FALSE
    if lit is _FALSE:
        return _TRUE
    return -lit  # type: ignore[operator]


def _encode_line(
    b: _Builder,
    clue: tuple[int, ...],
    n: int,
    starts: tuple[int, ...],
    black: int,
    white: int,
    cell_var,
) -> None:
    k = len(clue)
    # each block's ladder spans its lowest to highest valid start, numbered in block order
    valid = [[p for p in range(n) if (v >> p) & 1] for v in starts]
    los = [ps[0] for ps in valid]
    his = [ps[-1] for ps in valid]
    bases = []
    for lo, hi in zip(los, his):
        bases.append(b.next_var - lo)
        b.next_var += hi - lo

    def y(j: int, p: int) -> int | bool:
        if j >= k or p < los[j]:
            return _FALSE
        if p >= his[j]:
            return _TRUE
        return bases[j] + p

    def x(i: int) -> int | bool:
        if (black >> i) & 1:
            return _TRUE
        if (white >> i) & 1:
            return _FALSE
        return cell_var(i)

    add = b.add
    for j, c in enumerate(clue):
        lo, hi, v = los[j], his[j], starts[j]
        base = bases[j]
        for p in range(lo, hi - 1):
            add((-(base + p), base + p + 1))
        for p in range(lo + 1, hi):
            if not (v >> p) & 1:
                add((-(base + p), base + p - 1))
        if j + 1 < k:
            for p in range(los[j + 1], his[j + 1]):
                add((-y(j + 1, p), y(j, p - c - 1)))
        # white side: block j covering an unknown cell makes it black
        cover = 0
        q = v
        while q:
            low = q & -q
            s = low.bit_length() - 1
            cover |= ((1 << c) - 1) << s
            q ^= low
        cover &= ~(black | white)
        while cover:
            low = cover & -cover
            i = low.bit_length() - 1
            cover ^= low
            add((cell_var(i), _neg(y(j, i)), y(j, i - c)))
    # black side: a black cell is covered by the last block started at or before it
    for i in range(n):
        if (white >> i) & 1:
            continue
        xi = x(i)
        nx = _neg(xi)
        add((nx, y(0, i)))
        for j, c in enumerate(clue):
            add((nx, _neg(y(j, i)), y(j + 1, i), _neg(y(j, i - c))))


def reference_line_clauses(first_var, clue, n, starts, black, white, cell_var):
    """The clauses of one line and the next free variable, the reference way."""
    b = _Builder(first_var)
    _encode_line(b, clue, n, starts, black, white, cell_var)
    return b.clauses, b.next_var
