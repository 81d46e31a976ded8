"""``diagnose`` and ``fix`` on two-colour triddlers (up to 12 cells), plain and with blotted
numbers, against :mod:`tests._triddler_oracle`: every solution by enumeration, line logic by
its plain dynamic programme, and each figure recomputed here from them (the ambiguity region,
each open lane's placements over the picture line logic leaves, a conflict's unsatisfiability
and minimality, the proposals' uniqueness, the blots' lengths in the goal).
"""

from __future__ import annotations

import itertools
import random

import pytest

from _triddler_oracle import _blocks, brute_force, check_fix, line_solvable, line_solve, satisfies
from satnono.clues import LineClue
from satnono.diagnose import diagnose
from satnono.fixer import fix
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.palette import default_palette
from satnono.results import Status

KINDS = ["colour", "colour-blotted"]
SHAPES = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.parallelogram(2, 2), Triangle.parallelogram(2, 3)]
PALETTE = default_palette(2)
CHARS = "".join(c.char for c in PALETTE)


def _picture(rng: random.Random, g: Triangle) -> str:
    return "".join(rng.choice(CHARS[0] * 2 + CHARS[1:]) for _ in range(g.cell_count))


def _make(kind: str, rng: random.Random, g: Triangle, picture: str) -> LanePuzzle:
    p = LanePuzzle.from_picture(g, picture, PALETTE, keep_goal=False)
    if kind == "colour-blotted":  # about a third of the numbers hidden (written 1)
        clues = []
        for clue in p.clues:
            blots = sum(1 << j for j in range(len(clue.lengths)) if rng.random() < 0.35)
            clues.append(clue._replace(blots=blots, lengths=tuple(
                1 if blots >> j & 1 else n for j, n in enumerate(clue.lengths))))
        p = p.replace(clues=tuple(clues))
    return p


def _values(picture: str) -> list[int]:
    return [CHARS.index(ch) for ch in picture]


def _placements(p: LanePuzzle, k: int, domains: list[int]) -> int:
    """Fillings of lane k's cells from their line-logic domains that keep its clue."""
    cells = p.lanes[k].cells
    choices = [[v for v in range(len(PALETTE)) if domains[c] >> v & 1] for c in cells]
    return sum(satisfies(list(values), p.clues[k]) for values in itertools.product(*choices))


def _some(p: LanePuzzle, lanes: list[int]) -> bool:
    n = p.geometry.cell_count
    return any(all(satisfies([values[c] for c in p.lanes[i].cells], p.clues[i]) for i in lanes)
               for values in itertools.product(range(len(PALETTE)), repeat=n))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(8))
def test_diagnose_agrees_with_enumeration(kind: str, seed: int) -> None:
    rng = random.Random(4000 + seed * 7 + KINDS.index(kind))
    g = SHAPES[seed % len(SHAPES)]
    for _ in range(500):  # several solutions (most small ones are line-solvable)
        p = _make(kind, rng, g, _picture(rng, g))
        truth = brute_force(p)
        if len(truth) > 1:
            break
    else:
        raise AssertionError("no ambiguous triddler was drawn")
    d = diagnose(p)
    n = g.cell_count
    assert d.status is Status.MULTIPLE and not d.line_solvable
    domains = line_solve(p)
    assert domains is not None
    expected_after = "".join(CHARS[d_.bit_length() - 1] if d_ & (d_ - 1) == 0 else "?" for d_ in domains)
    assert d.after_line == expected_after
    assert d.ambiguity_complete and d.undetermined == [c for c in range(n) if expected_after[c] == "?"]
    assert set(d.ambiguous) == {c for c in range(n) if len({s[c] for s in truth}) > 1}
    assert all(s in truth for s in d.solutions) and len(d.solutions) == 2
    counts = {(o.axis, o.index): o.placements for o in d.open_lines}
    for k, lane in enumerate(p.lanes):
        placements = _placements(p, k, domains)
        assert counts.get((lane.family, lane.index), 1) == (placements if placements > 1 else 1)
        if kind == "colour-blotted" and (lane.family, lane.index) in counts:
            shown = next(o for o in d.open_lines if (o.axis, o.index) == (lane.family, lane.index))
            assert shown.as_dict()["clue"] == ["?" if p.clues[k].is_blotted(j) else x
                                               for j, x in enumerate(p.clues[k].lengths)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
def test_a_conflict_is_unsatisfiable_and_minimal(kind: str, seed: int) -> None:
    rng = random.Random(4500 + seed * 7 + KINDS.index(kind))
    for _ in range(200):
        g = SHAPES[rng.randrange(3)]  # up to 9 cells: each subset of lanes enumerated
        p = _make(kind, rng, g, _picture(rng, g))
        clues = list(p.clues)
        k = rng.randrange(len(clues))
        length = rng.randint(1, len(p.lanes[k].cells))
        clues[k] = LineClue((length,), (rng.randint(1, 2),), blots=int(kind == "colour-blotted" and rng.random() < 0.3))
        p = p.replace(clues=tuple(clues))
        if not brute_force(p, 1):
            break
    else:
        raise AssertionError("no contradictory triddler was drawn")
    d = diagnose(p)
    assert d.status is Status.NONE and d.conflict_minimal and not d.conflict_rules
    keys = [(lane.family, lane.index) for lane in p.lanes]
    conflict = [keys.index(key) for key in d.conflict]
    assert conflict == sorted(conflict)  # in the puzzle's own lane order
    assert not _some(p, conflict)
    for i in conflict:
        assert _some(p, [j for j in conflict if j != i])
    for entry, k in zip(d.as_dict()["conflict"], conflict):
        clue = p.clues[k]
        assert entry["clue"] == ["?" if clue.is_blotted(j) else x for j, x in enumerate(clue.lengths)]
        assert entry["colors"] == [CHARS[c] for c in clue.colors]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
def test_fix_proposals_make_the_puzzle_unique(kind: str, seed: int) -> None:
    rng = random.Random(5000 + seed * 7 + KINDS.index(kind))
    for _ in range(300):  # several solutions, or unique but not line-solvable
        g = SHAPES[rng.randrange(len(SHAPES))]
        p = _make(kind, rng, g, _picture(rng, g))
        truth = brute_force(p)
        if len(truth) > 1 or not line_solvable(p):
            break
    else:
        raise AssertionError("no puzzle to fix was drawn")
    res = fix(p, timeout=None, max_edits=3)
    check_fix(p, res, brute_force, line_solvable)
    goal = res.goal
    for e in res.edits:  # each lane's clue is the edited picture's, its hidden numbers written 1
        edited = e.puzzle.goal
        for clue, lane in zip(e.puzzle.clues, p.lanes):
            runs = _blocks(_values("".join(edited[c] for c in lane.cells)))
            assert [(1 if clue.is_blotted(j) else n, c) for j, (n, c) in enumerate(runs)] == \
                list(zip(clue.lengths, clue.colors))
    if kind == "colour-blotted" and res.blots_reveal is not None:
        clues = list(p.clues)
        keys = [(lane.family, lane.index) for lane in p.lanes]
        for x in res.blots_reveal.reveals:
            k = keys.index((x.axis, x.line))
            runs = _blocks(_values("".join(goal[c] for c in p.lanes[k].cells)))
            assert clues[k].is_blotted(x.block) and runs[x.block][0] == x.length
            assert x.char == CHARS[runs[x.block][1]]
            lengths = list(clues[k].lengths)
            lengths[x.block] = x.length
            clues[k] = clues[k]._replace(lengths=tuple(lengths), blots=clues[k].blots & ~(1 << x.block))
        assert brute_force(p.replace(clues=tuple(clues))) == [goal]
