"""Two small triddler solvers for the tests, independent of satnono's line kernels and drivers.

* :func:`brute_force`: every solution of a small triddler (up to about 24 cells in black and
  white, 12 in two colours), by giving the cells values in cell order and checking each lane
  against its clue as soon as its last cell has one (whole lanes only: no line logic).
* :func:`solve`: line logic (a plain dynamic programme over each lane's placements) to a
  fixpoint, then backtracking on a cell; fast enough for the public example triddlers of a few
  hundred cells.  :func:`line_solve` is the line logic alone, :func:`line_solvable` whether it
  settles every cell.
* :func:`check_fix`: ``fix``'s proposals checked against those two.
* The rules read here, not by satnono's rule code: :func:`keeps` (a picture keeps ``count:OPN[:c]``
  or ``connected[:c]``, on the cells that share a side), :func:`truth` (the enumeration filtered
  by givens and rules) and :func:`line_and_rule_logic` (lane logic and the rules' narrowing to
  their common fixpoint: a count reached or only just reachable; the cells that may have a value
  but cannot be joined to the known ones).  The narrowing is monotone, so the fixpoint does not
  depend on the order.

Both read a :class:`satnono.lanepuzzle.LanePuzzle` (a plain value: its geometry's lanes, their
clues and the palette; nothing of satnono's solving code is used) and give solutions as strings
of palette characters in cell order.
"""

from __future__ import annotations

import random
from collections import deque
from typing import Any, Callable, Mapping, Sequence

from satnono.clues import LineClue
from satnono.lanepuzzle import LanePuzzle


def random_puzzle(rng: random.Random, geometry: Any, colours: int = 1) -> LanePuzzle:
    """The puzzle of a random picture of ``geometry`` in ``colours`` block colours (about a
    third of the cells background in black and white), its goal not kept."""
    from satnono.palette import default_palette

    palette = default_palette(colours)
    chars = "".join(c.char for c in palette)
    picture = "".join(rng.choice(chars[0] * 2 + chars[1:]) for _ in range(geometry.cell_count))
    return LanePuzzle.from_picture(geometry, picture, palette, keep_goal=False)


def _blocks(values: Sequence[int]) -> list[tuple[int, int]]:
    """``(length, colour)`` of the runs of non-background values."""
    out: list[tuple[int, int]] = []
    prev = 0
    for v in values:
        if v and v == prev:
            out[-1] = (out[-1][0] + 1, v)
        elif v:
            out.append((1, v))
        prev = v
    return out


def satisfies(values: Sequence[int], clue: LineClue) -> bool:
    """Whether a line of colour indices (0 background) shows ``clue`` (a blot: any length >= 1)."""
    runs = _blocks(values)
    if len(runs) != len(clue.lengths):
        return False
    return all(c == col and (clue.is_blotted(j) or n == length)
               for j, ((n, c), length, col) in enumerate(zip(runs, clue.lengths, clue.colors)))


def _as_text(spec: LanePuzzle, values: Sequence[int]) -> str:
    return "".join(spec.palette[v].char for v in values)


def brute_force(spec: LanePuzzle, limit: int | None = None) -> list[str]:
    """All solutions (at most ``limit``), in increasing order of the cells' colour indices."""
    n = spec.geometry.cell_count
    k = len(spec.palette) - 1
    complete_at: list[list[tuple[tuple[int, ...], LineClue]]] = [[] for _ in range(n)]
    for lane, clue in tuple(zip(spec.lanes, spec.clues)):
        complete_at[max(lane.cells)].append((lane.cells, clue))
    values = [0] * n
    out: list[str] = []

    def visit(i: int) -> bool:
        if i == n:
            out.append(_as_text(spec, values))
            return limit is not None and len(out) >= limit
        for v in range(k + 1):
            values[i] = v
            if all(satisfies([values[c] for c in cells], clue) for cells, clue in complete_at[i]):
                if visit(i + 1):
                    return True
        values[i] = 0
        return False

    visit(0)
    return out


def _lane_logic(domains: Sequence[int], clue: LineClue) -> list[int] | None:
    """The values each cell of a lane can still take (bit c: colour c, bit 0 background) in some
    placement of ``clue`` over ``domains``; ``None`` when there is none."""
    n, m = len(domains), len(clue.lengths)
    colours = clue.colors
    gap = [1 if j + 1 < m and colours[j + 1] == colours[j] else 0 for j in range(m)]
    lengths = [range(1, n + 1) if clue.is_blotted(j) else (clue.lengths[j],) for j in range(m)]
    # bad[c][x]: how many of the first x cells cannot take colour c
    used = {0, *colours}
    bad = {c: [0] * (n + 1) for c in used}
    for c in used:
        for x in range(n):
            bad[c][x + 1] = bad[c][x] + (0 if domains[x] >> c & 1 else 1)

    def run_ok(s: int, length: int, c: int) -> bool:
        return s + length <= n and bad[c][s + length] == bad[c][s]

    def free(x: int) -> bool:
        return x < n and bool(domains[x] & 1)

    fwd = [[False] * (n + 2) for _ in range(m + 1)]
    fwd[0][0] = True
    for i in range(n + 1):
        for j in range(m + 1):
            if not fwd[j][i]:
                continue
            if free(i):
                fwd[j][i + 1] = True
            if j < m:
                for length in lengths[j]:
                    e = i + length
                    if run_ok(i, length, colours[j]):
                        if not gap[j]:
                            fwd[j + 1][e] = True
                        elif free(e):
                            fwd[j + 1][e + 1] = True
    if not fwd[m][n]:
        return None
    back = [[False] * (n + 2) for _ in range(m + 1)]
    back[m][n] = True
    for i in range(n - 1, -1, -1):
        for j in range(m, -1, -1):
            ok = free(i) and back[j][i + 1]
            if not ok and j < m:
                for length in lengths[j]:
                    e = i + length
                    if run_ok(i, length, colours[j]) and (
                            back[j + 1][e] if not gap[j] else free(e) and back[j + 1][e + 1]):
                        ok = True
                        break
            back[j][i] = ok
    out = [0] * n
    for x in range(n):
        if free(x) and any(fwd[j][x] and back[j][x + 1] for j in range(m + 1)):
            out[x] |= 1
    for j in range(m):
        bit = 1 << colours[j]
        for s in range(n):
            if not fwd[j][s]:
                continue
            for length in lengths[j]:
                e = s + length
                if not run_ok(s, length, colours[j]):
                    continue
                if gap[j]:
                    if not (free(e) and back[j + 1][e + 1]):
                        continue
                    out[e] |= 1
                elif not back[j + 1][e]:
                    continue
                for x in range(s, e):
                    out[x] |= bit
    return out


def _propagate(spec: LanePuzzle, domains: list[int], dirty: set[int], lanes_of: list[list[int]]) -> bool:
    lanes = tuple(zip(spec.lanes, spec.clues))
    while dirty:
        i = dirty.pop()
        cells, clue = lanes[i][0].cells, lanes[i][1]
        new = _lane_logic([domains[c] for c in cells], clue)
        if new is None:
            return False
        for c, d in zip(cells, new):
            if d != domains[c]:
                domains[c] = d
                dirty.update(lanes_of[c])
    return True


def _lanes_of(spec: LanePuzzle) -> list[list[int]]:
    out: list[list[int]] = [[] for _ in range(spec.geometry.cell_count)]
    for i, (lane, _) in enumerate(tuple(zip(spec.lanes, spec.clues))):
        for c in lane.cells:
            out[c].append(i)
    return out


def line_solve(spec: LanePuzzle) -> list[int] | None:
    """The cells' possible values (bit masks) after line logic alone; ``None``: a contradiction."""
    full = (1 << len(spec.palette)) - 1
    domains = [full] * spec.geometry.cell_count
    if not _propagate(spec, domains, set(range(len(spec.clues))), _lanes_of(spec)):
        return None
    return domains


def solve(spec: LanePuzzle, limit: int | None = 2) -> list[str]:
    """Solutions (at most ``limit``) by line logic and backtracking."""
    lanes_of = _lanes_of(spec)
    first = line_solve(spec)
    out: list[str] = []
    if first is None:
        return out

    def visit(domains: list[int]) -> bool:
        open_cells = [c for c, d in enumerate(domains) if d & (d - 1)]
        if not open_cells:
            out.append(_as_text(spec, [d.bit_length() - 1 for d in domains]))
            return limit is not None and len(out) >= limit
        cell = min(open_cells, key=lambda c: bin(domains[c]).count("1"))
        d = domains[cell]
        for v in range(d.bit_length()):
            if d >> v & 1:
                trial = list(domains)
                trial[cell] = 1 << v
                if _propagate(spec, trial, set(lanes_of[cell]), lanes_of) and visit(trial):
                    return True
        return False

    visit(first)
    return out


def line_solvable(spec: LanePuzzle, givens: Mapping[int, int] = {},
                  keeps: Callable[[str], bool] = lambda picture: True) -> bool:
    """Whether line logic alone, from the puzzle's given cells and ``givens`` (cell -> value),
    settles every cell, and the picture it leaves passes ``keeps`` (the caller's reading of a
    rule)."""
    domains = [(1 << len(spec.palette)) - 1] * spec.geometry.cell_count
    for cell, v in [*spec.givens, *givens.items()]:
        domains[cell] = 1 << v
    if not _propagate(spec, domains, set(range(len(spec.clues))), _lanes_of(spec)):
        return False
    if any(d & (d - 1) for d in domains):
        return False
    return keeps(_as_text(spec, [d.bit_length() - 1 for d in domains]))


def check_fix(p: LanePuzzle, res: Any, solutions: Callable[[LanePuzzle], list[str]],
              solvable: Callable[[LanePuzzle, Mapping[int, int]], bool]) -> None:
    """``fix``'s result ``res`` on the ambiguous or not line-solvable ``p``, against the caller's
    oracle: ``solutions(q)`` is every solution of a puzzle ``q`` (the enumeration, filtered by the
    caller's reading of its givens and rules), ``solvable(q, givens)`` whether line logic settles
    ``q`` from ``givens`` (cell -> value).  The verdict; the goal one of the solutions; each set
    of givens read off the goal and leaving it the only solution (line-solvable for the second);
    each edit one cell of the goal changed, keeping the rules and the hidden numbers hidden, its
    puzzle's only solution that picture, its line-solvable flag the oracle's."""
    from satnono.results import Status

    truth = solutions(p)
    assert res.status is (Status.MULTIPLE if len(truth) > 1 else Status.UNIQUE)
    goal, chars = res.goal, p.chars
    assert goal in truth
    for prop, line in ((res.givens_unique, False), (res.givens_line, True)):
        assert prop is not None
        givens = {g.cell: chars.index(g.char) for g in prop.givens}
        assert all(goal[c] == chars[v] for c, v in givens.items())
        assert [s for s in truth if all(s[c] == chars[v] for c, v in givens.items())] == [goal]
        if line:
            assert solvable(p, givens)
    for e in res.edits:
        edited = goal[:e.cell] + e.char + goal[e.cell + 1:]
        assert e.char != goal[e.cell] and e.puzzle.goal == edited
        assert e.puzzle.rules == p.rules  # (a rule an edit could not keep is never dropped)
        assert [clue.blots for clue in e.puzzle.clues] == [clue.blots for clue in p.clues]  # hidden stay hidden
        assert solutions(e.puzzle) == [edited]
        assert e.line_solvable == solvable(e.puzzle, {})


# --- the rules, as read here ---------------------------------------------------------------------

def parse_rule(spec: str) -> tuple[str, str | None, int | None, str | None]:
    """``(name, op, n, colour)`` of ``count:OPN[:c]`` or ``connected[:c]``."""
    name, *parts = spec.split(":")
    if name == "count":
        op = parts[0].rstrip("0123456789")
        return name, op, int(parts[0][len(op):]), parts[1] if len(parts) > 1 else None
    assert name == "connected", spec
    return name, None, None, parts[0] if parts else None


def rule_mask(spec: LanePuzzle, colour: str | None) -> int:
    """The values a rule is about: every block colour, or one."""
    return ((1 << len(spec.chars)) - 2) if colour is None else 1 << spec.chars.index(colour)


def regions(geometry: Any, cells: set[int]) -> list[set[int]]:
    """``cells`` split into the regions of cells that share a side (``geometry.neighbours``)."""
    out: list[set[int]] = []
    seen: set[int] = set()
    for start in sorted(cells):
        if start in seen:
            continue
        region, todo = {start}, deque([start])
        while todo:
            c = todo.popleft()
            for d in geometry.neighbours(c):
                if d in cells and d not in region:
                    region.add(d)
                    todo.append(d)
        seen |= region
        out.append(region)
    return out


def keeps(spec: LanePuzzle, picture: str, rule: str) -> bool:
    """Whether ``picture`` keeps the rule ``rule`` (``count:OPN[:c]`` or ``connected[:c]``)."""
    name, op, n, colour = parse_rule(rule)
    cells = {c for c, ch in enumerate(picture) if rule_mask(spec, colour) >> spec.chars.index(ch) & 1}
    if name == "count":
        return {"=": len(cells) == n, ">=": len(cells) >= n, "<=": len(cells) <= n}[op]  # type: ignore[index]
    return len(regions(spec.geometry, cells)) <= 1


def truth(spec: LanePuzzle, rules: Sequence[str] = (), givens: Sequence[tuple[int, int]] = ()) -> list[str]:
    """Every solution of ``spec``'s clues that agrees with ``givens`` ((cell, value) pairs) and
    keeps every rule of ``rules``."""
    return [s for s in brute_force(spec) if all(s[c] == spec.chars[v] for c, v in givens)
            and all(keeps(spec, s, rule) for rule in rules)]


def narrow_rule(spec: LanePuzzle, rule: str, dom: list[int]) -> bool:
    """The rule's narrowing of the cells' possible values (in place); False when it cannot be kept."""
    name, op, n, colour = parse_rule(rule)
    m = rule_mask(spec, colour)
    known = {c for c, d in enumerate(dom) if d and not d & ~m}
    may = {c for c, d in enumerate(dom) if d & m}
    if name == "count":
        assert n is not None
        if op != ">=":
            if len(known) > n:
                return False
            if len(known) == n:
                for c in may - known:
                    dom[c] &= ~m
        if op != "<=":
            if len(may) < n:
                return False
            if len(may) == n:
                for c in may:
                    dom[c] &= m
        return True
    if not known:
        return True
    holding = [r for r in regions(spec.geometry, may) if r & known]
    if len(holding) > 1:
        return False
    for c in may - holding[0]:
        dom[c] &= ~m
    return True


def line_and_rule_logic(spec: LanePuzzle, rules: Sequence[str] = (),
                        givens: Sequence[tuple[int, int]] = ()) -> list[int] | None:
    """The cells' possible values (bit masks) at the fixpoint of lane logic and the rules'
    narrowing (the givens set first); None when a lane or a rule cannot be kept."""
    dom = [(1 << len(spec.chars)) - 1] * spec.geometry.cell_count
    for c, v in givens:
        dom[c] = 1 << v
    lanes_of = _lanes_of(spec)
    dirty = set(range(len(spec.clues)))
    while True:
        if not _propagate(spec, dom, dirty, lanes_of):
            return None
        before = list(dom)
        for rule in rules:
            if not narrow_rule(spec, rule, dom):
                return None
        dirty = {k for c, (a, b) in enumerate(zip(before, dom)) if a != b for k in lanes_of[c]}
        if not dirty:
            return dom
