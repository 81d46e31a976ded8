"""Cardinality constraints as clauses: a totalizer with outputs cut at the bound.

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
    o = _tree(lits, k + 1, new_var, out)
    out.append([-o[k]])
    return out


def exactly(lits: Sequence[int], k: int, new_var: Callable[[], int]) -> list[Clause]:
    """Clauses saying exactly ``k`` of ``lits`` are true."""
    return at_least(lits, k, new_var) + at_most(lits, k, new_var)
