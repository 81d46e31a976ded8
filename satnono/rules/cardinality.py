"""Cardinality constraints as clauses: a totalizer with outputs cut at the bound for small
bounds, Batcher's odd-even merge sorting network for large ones.

Only rules need them (the ``count`` rule), and rules receive a fresh-variable
function instead of importing the CNF layer, so the encoding lives here.

Totalizer (Bailleux and Boufkhad 2003): a binary tree whose node over m input
literals has unary outputs o_1..o_m, o_t true iff at least t inputs are true.
A node with children outputs a_1..a_p and b_1..b_q gets, for every i, j
(a_0 = b_0 = true, a_{p+1} = b_{q+1} = false):

* up:   a_i and b_j imply o_{i+j}            (-a_i v -b_j v o_{i+j})
* down: not a_{i+1} and not b_{j+1} imply not o_{i+j+1}

Outputs above ``cap`` are never needed, so each node keeps at most ``cap``
outputs and the up clauses saturate at o_cap (o_cap then means "at least
cap").  A down clause for o_t with t <= cap only ever reads a child output
a_{i+1} with i + 1 <= t <= cap, which the child has unless it has fewer than
i + 1 inputs, where the constant false is right.  So o_1..o_cap keep their
exact meaning, and the bound is one unit clause on an output.
"""

from __future__ import annotations

from typing import Callable, Sequence

Clause = list[int]


def _tree(lits: Sequence[int], cap: int, new_var: Callable[[], int], out: list[Clause]) -> list[int]:
    if len(lits) == 1:
        return [lits[0]]
    mid = len(lits) // 2
    a = _tree(lits[:mid], cap, new_var, out)
    b = _tree(lits[mid:], cap, new_var, out)
    p, q = len(a), len(b)
    m = min(p + q, cap)
    o = [new_var() for _ in range(m)]
    for i in range(p + 1):
        for j in range(q + 1):
            t = i + j
            if 1 <= t:  # up
                cl = [o[min(t, m) - 1]]
                if i:
                    cl.append(-a[i - 1])
                if j:
                    cl.append(-b[j - 1])
                out.append(cl)
            if t + 1 <= m:  # down
                cl = [-o[t]]
                if i < p:
                    cl.append(a[i])
                if j < q:
                    cl.append(b[j])
                out.append(cl)
    return o


#: Largest output count for which the totalizer is used; above it the sorting network
#: (O(m log^2 m) comparators instead of O(m * cap) clauses per level).
TOTALIZER_MAX_CAP = 24


class _Network:
    """Batcher's odd-even merge sort over literals (True/False constants folded), sorting
    descending: ``out[t - 1]`` is true iff at least t inputs are true.  Each comparator
    (a, b) -> (a or b, a and b) is encoded in both directions (6 clauses, 2 variables)."""

    def __init__(self, new_var: Callable[[], int], out: list[Clause]) -> None:
        self.new_var, self.out = new_var, out

    def _max(self, a, b):
        if a is True or b is True:
            return True
        if a is False:
            return b
        if b is False:
            return a
        c = self.new_var()
        self.out += [[-a, c], [-b, c], [a, b, -c]]
        return c

    def _min(self, a, b):
        if a is False or b is False:
            return False
        if a is True:
            return b
        if b is True:
            return a
        d = self.new_var()
        self.out += [[-a, -b, d], [a, -d], [b, -d]]
        return d

    def compare(self, xs: list, i: int, j: int) -> None:
        xs[i], xs[j] = self._max(xs[i], xs[j]), self._min(xs[i], xs[j])

    def merge(self, xs: list, lo: int, n: int, r: int) -> None:
        step = r * 2
        if step < n:
            self.merge(xs, lo, n, step)
            self.merge(xs, lo + r, n, step)
            for i in range(lo + r, lo + n - r, step):
                self.compare(xs, i, i + r)
        else:
            self.compare(xs, lo, lo + r)

    def sort(self, xs: list, lo: int, n: int) -> None:
        if n > 1:
            m = n // 2
            self.sort(xs, lo, m)
            self.sort(xs, lo + m, m)
            self.merge(xs, lo, n, 1)


def _sorted(lits: Sequence[int], new_var: Callable[[], int], out: list[Clause]) -> list:
    size = 1
    while size < len(lits):
        size *= 2
    xs: list = list(lits) + [False] * (size - len(lits))
    _Network(new_var, out).sort(xs, 0, size)
    return xs[:len(lits)]


def _unit(x) -> list[Clause]:
    """The clauses saying literal-or-constant ``x`` holds."""
    return [] if x is True else [[]] if x is False else [[x]]


def at_least(lits: Sequence[int], k: int, new_var: Callable[[], int]) -> list[Clause]:
    """Clauses saying at least ``k`` of ``lits`` are true."""
    m = len(lits)
    if k <= 0:
        return []
    if k > m:
        return [[]]
    if k == m:
        return [[x] for x in lits]
    if k > m - k + 1:  # cheaper as "at most m - k are false"
        return at_most([-x for x in lits], m - k, new_var)
    if k == 1:
        return [list(lits)]
    out: list[Clause] = []
    if k > TOTALIZER_MAX_CAP:
        return out + _unit(_sorted(lits, new_var, out)[k - 1])
    o = _tree(lits, k, new_var, out)
    out.append([o[k - 1]])
    return out


def at_most(lits: Sequence[int], k: int, new_var: Callable[[], int]) -> list[Clause]:
    """Clauses saying at most ``k`` of ``lits`` are true."""
    m = len(lits)
    if k < 0:
        return [[]]
    if k >= m:
        return []
    if k == 0:
        return [[-x] for x in lits]
    if k + 1 > m - k:  # cheaper as "at least m - k are false"
        return at_least([-x for x in lits], m - k, new_var)
    out: list[Clause] = []
    if k + 1 > TOTALIZER_MAX_CAP:
        o = _sorted(lits, new_var, out)[k]
        return out + _unit(True if o is False else False if o is True else -o)
    o2 = _tree(lits, k + 1, new_var, out)
    out.append([-o2[k]])
    return out


def exactly(lits: Sequence[int], k: int, new_var: Callable[[], int]) -> list[Clause]:
    """Clauses saying exactly ``k`` of ``lits`` are true (one network serves both bounds)."""
    m = len(lits)
    if k < 0 or k > m:
        return [[]]
    if min(k, m - k) + 1 <= TOTALIZER_MAX_CAP:
        return at_least(lits, k, new_var) + at_most(lits, k, new_var)
    out: list[Clause] = []
    o = _sorted(lits, new_var, out)
    low = o[k - 1] if k else True
    high = o[k] if k < m else False
    return out + _unit(low) + _unit(True if high is False else False if high is True else -high)
