"""The reference encoder: a puzzle as a CNF formula whose models, read on the cell variables, are exactly its
solutions; its variables and clauses, in order, are the contract docs/certificates.md states ((1)-(5) are that page's).
Part of the trust base: it imports nothing of satnono outside ``satnono.certify`` (not the fast encoder, for one)."""

from __future__ import annotations

from collections import defaultdict
from itertools import combinations, product

from .puzzle import Spec, lanes, line_graph, mirror

ENCODER_VERSION = "1"


def nvalues(spec: Spec) -> int:
    """K, the number of block colours."""
    return len(spec.chars) - 1


def variable(spec: Spec, r: int, c: int, v: int) -> int:
    """The variable of "cell (r, c) has value v" (K = 1: the cell's one variable, for any v)."""
    return r * spec.width + c + 1 if nvalues(spec) == 1 else (r * spec.width + c) * len(spec.chars) + v + 1


def literal(spec: Spec, r: int, c: int, v: int | None) -> int:
    """The literal true when cell (r, c) has value v (None: any block colour)."""
    if v is None:
        return -literal(spec, r, c, 0)
    return -variable(spec, r, c, v) if nvalues(spec) == 1 and v == 0 else variable(spec, r, c, v)


def variable_map(spec: Spec) -> list:
    """Per row, per cell, its variable (K = 1) or the variable of each value 0..K."""
    k = nvalues(spec)
    return [[variable(spec, r, c, 1) if k == 1 else [variable(spec, r, c, v) for v in range(k + 1)]
             for c in range(spec.width)] for r in range(spec.height)]


def blocking_clause(spec: Spec, grid: list[list[int]]) -> list[int]:
    """The clause every grid but ``grid`` (values) satisfies."""
    return [-literal(spec, r, c, grid[r][c]) for r in range(spec.height) for c in range(spec.width)]


class Encoder:
    """The clauses of one puzzle as DIMACS lines (``"-3 7 0"``), in ``lines``.  ``budget``: the most bytes their text
    may have; the work, counted before it is done (4 a clause, of 2 bytes at least; 1 a candidate edge of a line's
    graph), beyond twice the budget and a million is an OverflowError."""

    def __init__(self, spec: Spec, budget: int | None = None) -> None:
        self.spec, self.k = spec, nvalues(spec)
        self.nvars = spec.height * spec.width * (1 if self.k == 1 else self.k + 1)
        self.lines: list[str] = []
        self.budget = float("inf") if budget is None else 2 * budget + (1 << 20)

    def spend(self, work: int) -> None:
        """Count ``work`` about to be done against the budget."""
        self.budget -= work
        if self.budget < 0:
            raise OverflowError("the encoding is larger than allowed")

    def new(self) -> int:
        """A new auxiliary variable."""
        self.nvars += 1
        return self.nvars

    def add(self, *literals: int) -> None:
        """One clause (none: the empty clause)."""
        self.lines.append(" ".join(map(str, literals)) + " 0" if literals else "0")

    def line(self, cells: list[tuple[int, int]], blocks: tuple) -> None:
        """The clauses (1)-(5) of one line; its nodes' variables in the order of their numbers, then its edges'."""
        spec, write = self.spec, self.lines.append
        n, values = len(cells), range(self.k + 1)
        lit = [[literal(spec, r, c, v) for v in values] for r, c in cells]
        self.spend((len(blocks) + 1) * n + sum(n * n for length, _ in blocks if length is None))
        edges = line_graph(n, blocks)
        self.spend(4 * (sum(e[3] - e[2] for e in edges) + n * len(values)))
        if not edges:
            self.add()  # the clue cannot fit its cells
            return
        ends = sorted({e[0] for e in edges}.union(e[1] for e in edges))
        node = dict(zip(ends, range(self.nvars + 1, self.nvars + 1 + len(ends))))
        source, sink = 0, len(blocks) * (n + 1) + n
        ins, outs = defaultdict(list), defaultdict(list)  # the edges into and out of each node
        paints: list[list[list[int]]] = [[[] for _ in values] for _ in range(n)]  # paints[i][v]: edges painting i v
        first = self.nvars + len(ends) + 1  # the edges' variables follow the nodes'
        self.nvars += len(ends) + len(edges)
        self.add(node[source])                                                        # 1
        self.add(node[sink])
        for x, (u, v, p, q, colour, size) in enumerate(edges, first):
            write(f"-{x} {node[u]} 0")                                                # 2
            write(f"-{x} {node[v]} 0")
            outs[u].append(x)
            ins[v].append(x)
            for i in range(p, q):
                value = colour if i < p + size else 0
                write(f"-{x} {lit[i][value]} 0")                                      # 4
                paints[i][value].append(x)
        for u in ends:
            if u != source:
                write(f"-{node[u]} {' '.join(map(str, ins[u]))} 0")                     # 3
            if u != sink:
                write(f"-{node[u]} {' '.join(map(str, outs[u]))} 0")
        for i in range(n):
            for v in values:
                write(" ".join(map(str, (-lit[i][v], *paints[i][v]))) + " 0")          # 5

    def at_most(self, xs: list[int], most: int) -> None:
        """At most ``most`` of ``xs`` hold: Sinz's sequential counter (s[i][j]: at least j+1 of xs[0..i] hold)."""
        add, m = self.add, len(xs)
        if most >= m:
            return
        if most < 0:
            add()
            return
        if most == 0:
            for x in xs:
                add(-x)
            return
        self.spend(8 * m * most)
        s = [[self.new() for _ in range(most)] for _ in range(m - 1)]
        add(-xs[0], s[0][0])
        for j in range(1, most):
            add(-s[0][j])
        for i in range(1, m - 1):
            add(-xs[i], s[i][0])
            add(-s[i - 1][0], s[i][0])
            for j in range(1, most):
                add(-xs[i], -s[i - 1][j - 1], s[i][j])
                add(-s[i - 1][j], s[i][j])
            add(-xs[i], -s[i - 1][most - 1])
        add(-xs[m - 1], -s[m - 2][most - 1])

    def rule(self, rule: tuple) -> None:
        """The clauses of a rule (a ``line`` rule's, or a row's or a column's, are :meth:`line`'s)."""
        spec, add, k = self.spec, self.add, self.k
        if rule[0] == "line":
            self.line(list(rule[1]), rule[2])
            return
        cells = [(r, c) for r in range(spec.height) for c in range(spec.width)]
        self.spend(4 * len(cells) * (k + 1))
        if rule[0] == "symmetric":  # each cell's values those of its mirror image
            for r, c in cells:
                m = mirror(spec, rule[1], r, c)
                if (r, c) < m:
                    for v in range(1 if k == 1 else 0, k + 1):
                        a, b = literal(spec, r, c, v), literal(spec, *m, v)
                        add(-a, b)
                        add(a, -b)
        elif rule[0] == "count":  # "at most", and "at least n" as "at most cells - n" of the negations
            op, n, value = rule[1:]
            xs = [literal(spec, r, c, value) for r, c in cells]
            if op != ">=":
                self.at_most(xs, n)
            if op != "<=":
                self.at_most([-x for x in xs], len(xs) - n)
        else:  # no-square: no all-filled (or all-colour) 2x2 square
            for r, c in product(range(spec.height - 1), range(spec.width - 1)):
                add(*(-literal(spec, r + dr, c + dc, rule[1]) for dr in (0, 1) for dc in (0, 1)))


def encode(spec: Spec, budget: int | None = None) -> tuple[int, list[str]]:
    """``(number of variables, clauses as DIMACS lines)``: exactly one value per cell (several colours), the givens,
    each lane (:func:`~satnono.certify.puzzle.lanes`); OverflowError beyond ``budget`` (:class:`Encoder`)."""
    enc, k = Encoder(spec, budget), nvalues(spec)
    if k > 1:
        enc.spend(2 * spec.height * spec.width * (k + 1) * (k + 2))
        for r, c in product(range(spec.height), range(spec.width)):
            xs = [variable(spec, r, c, v) for v in range(k + 1)]
            enc.add(*xs)
            for a, b in combinations(xs, 2):
                enc.add(-a, -b)
    for r, c, v in spec.givens:
        enc.add(literal(spec, r, c, v))
    for _, _, rule in lanes(spec):
        enc.rule(rule)
    return enc.nvars, enc.lines


def dimacs(nvars: int, lines: list[str]) -> bytes:
    """The formula as DIMACS text: the header, then one clause a line."""
    return ("\n".join([f"p cnf {nvars} {len(lines)}", *lines]) + "\n").encode("ascii")
