"""``diagnose`` and ``fix`` on triddlers of every clue kind (plain, blotted numbers, given cells, a
``count`` rule), against enumeration written here: :func:`tests._triddler_oracle.brute_force`
gives the pictures that keep the clues, and this file filters them by the givens and the rule
itself (never by satnono's rules); line-solvability is the oracle's plain line logic.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable

import pytest

from _triddler_oracle import _blocks, brute_force, check_fix, line_solvable, satisfies
from satnono.clues import LineClue
from satnono.diagnose import diagnose
from satnono.fixer import fix
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerules import LaneCount
from satnono.lanes import Triangle
from satnono.results import Status

KINDS = ["plain", "blotted", "givens", "count"]
SMALL = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.parallelogram(2, 2)]  # up to 9 cells
LARGER = [Triangle.triangle(4), Triangle.parallelogram(2, 3), Triangle.hexagon(2)]  # up to 24 cells


def _picture(rng: random.Random, g: Triangle) -> str:
    return "".join(rng.choice("..#") for _ in range(g.cell_count))


def _make(kind: str, rng: random.Random, g: Triangle, picture: str) -> tuple[LanePuzzle, Callable[[str], bool]]:
    """A puzzle of ``kind`` whose clues come from ``picture``, and the test's own reading of what
    its extra conditions (givens, rule) ask of a picture."""
    p = LanePuzzle.from_picture(g, picture, keep_goal=False)
    if kind == "blotted":  # about a third of the numbers hidden (a hidden length is written 1)
        clues = []
        for clue in p.clues:
            blots = sum(1 << j for j in range(len(clue.lengths)) if rng.random() < 0.35)
            clues.append(clue._replace(blots=blots, lengths=tuple(
                1 if blots >> j & 1 else n for j, n in enumerate(clue.lengths))))
        return p.replace(clues=tuple(clues)), lambda s: True
    if kind == "givens":
        cells = rng.sample(range(g.cell_count), 2)
        givens = {c: int(picture[c] == "#") for c in cells}
        return p.with_givens(givens), lambda s: all((s[c] == "#") == bool(v) for c, v in givens.items())
    if kind == "count":
        n = picture.count("#")
        return p.replace(rules=(LaneCount("=", n),)), lambda s: s.count("#") == n
    return p, lambda s: True


def _truth(p: LanePuzzle, extra: Callable[[str], bool]) -> list[str]:
    return [s for s in brute_force(p) if extra(s)]


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(10))
def test_diagnose_agrees_with_enumeration(kind: str, seed: int) -> None:
    rng = random.Random(seed * 31 + KINDS.index(kind))
    g = LARGER[seed % len(LARGER)]
    p, extra = _make(kind, rng, g, _picture(rng, g))
    d = diagnose(p)
    truth = _truth(p, extra)
    expected = Status.NONE if not truth else Status.UNIQUE if len(truth) == 1 else Status.MULTIPLE
    assert d.status == expected, d.reason
    n = g.cell_count
    assert all(d.after_line[c] in ("?", s[c]) for s in truth for c in range(n))  # line logic is sound
    for cell, v in p.givens:
        assert d.after_line[cell] == ".#"[v]
    if expected is Status.MULTIPLE:
        assert d.ambiguity_complete
        assert set(d.ambiguous) == {c for c in range(n) if len({s[c] for s in truth}) > 1}
    elif expected is Status.UNIQUE:
        assert d.solutions == truth
        assert d.line_solvable == line_solvable(p, {}, extra)
    for o in d.open_lines:  # each open lane's placements: fillings of its open cells keeping its clue
        k = next(k for k, lane in enumerate(p.lanes) if (lane.family, lane.index) == (o.axis, o.index))
        lane, clue = p.lanes[k], p.clues[k]
        holes = [i for i, c in enumerate(lane.cells) if d.after_line[c] == "?"]
        count = 0
        for fill in itertools.product((0, 1), repeat=len(holes)):
            values = [0 if d.after_line[c] == "?" else ".#".index(d.after_line[c]) for c in lane.cells]
            for i, v in zip(holes, fill):
                values[i] = v
            count += satisfies(values, clue)
        assert o.placements == count > 1 and o.unknown == len(holes)


def _some(p: LanePuzzle, lanes: list[int], extra: Callable[[str], bool] | None) -> bool:
    """Whether some picture keeps the clues of ``lanes`` (and ``extra``, when given)."""
    for values in itertools.product((0, 1), repeat=p.geometry.cell_count):
        if all(satisfies([values[c] for c in p.lanes[i].cells], p.clues[i]) for i in lanes) and (
                extra is None or extra("".join(".#"[v] for v in values))):
            return True
    return False


def _contradictory(kind: str, rng: random.Random) -> tuple[LanePuzzle, Callable[[str], bool]]:
    """A small puzzle of ``kind`` with no solution: a lane's clue changed, a given against every
    solution, or a count no solution has."""
    while True:
        g = SMALL[rng.randrange(len(SMALL))]
        picture = _picture(rng, g)
        p, extra = _make(kind, rng, g, picture)
        if kind == "givens":
            truth = brute_force(p.replace(givens=()))
            cell = rng.randrange(g.cell_count)
            if all(s[cell] == picture[cell] for s in truth):
                flipped = {c: v for c, v in p.givens}
                flipped[cell] = 1 - int(picture[cell] == "#")
                p = p.replace(givens=tuple(flipped.items()))
                extra = (lambda f: lambda s: all((s[c] == "#") == bool(v) for c, v in f.items()))(flipped)
        elif kind == "count":
            n = picture.count("#") + rng.choice((-1, 1))
            p, extra = p.replace(rules=(LaneCount("=", n),)), (lambda s, n=n: s.count("#") == n)
        else:
            clues = list(p.clues)
            k = rng.randrange(len(clues))
            clues[k] = LineClue((rng.randint(1, len(p.lanes[k].cells)),), (1,))
            p = p.replace(clues=tuple(clues))
        if not _truth(p, extra):
            return p, extra


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(8))
def test_a_conflict_is_unsatisfiable_minimal_and_in_lane_order(kind: str, seed: int) -> None:
    p, extra = _contradictory(kind, random.Random(100 + seed * 7 + KINDS.index(kind)))
    d = diagnose(p)
    assert d.status == Status.NONE and d.conflict_minimal
    keys = [(lane.family, lane.index) for lane in p.lanes]
    conflict = [keys.index(key) for key in d.conflict]
    assert conflict == sorted(conflict)  # rows, / lines, \ lines, as the puzzle has them
    # the given cells are fixed (part of the board, never in the conflict); the count rule is in
    # it when it is needed
    assert d.conflict_rules == [] or kind == "count" and d.conflict_rules == [f"count:={p.rules[0].n}"]
    ruled = bool(d.conflict_rules)
    assert conflict or ruled
    cond = extra if ruled or kind == "givens" else None
    assert not _some(p, conflict, cond)
    for i in conflict:  # any lane left out: some picture keeps the rest
        assert _some(p, [j for j in conflict if j != i], cond)
    if ruled:  # the rule left out: the lanes alone are satisfiable
        assert _some(p, conflict, None)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(8))
def test_fix_proposals_make_the_puzzle_unique(kind: str, seed: int) -> None:
    rng = random.Random(500 + seed * 13 + KINDS.index(kind))
    for _ in range(300):  # a puzzle that needs fixing: several solutions, or unique but not line-solvable
        g = LARGER[rng.randrange(len(LARGER))]
        picture = _picture(rng, g)
        p, extra = _make(kind, rng, g, picture)
        truth = _truth(p, extra)
        if len(truth) > 1 or (truth and not line_solvable(p, {}, extra)):
            break
    else:
        raise AssertionError("no puzzle to fix was drawn")
    res = fix(p, timeout=None, max_edits=3)
    rule = extra if kind != "givens" else (lambda s: True)  # an edit keeps the rule; a given on its cell follows it

    def solutions(q: LanePuzzle) -> list[str]:
        return [s for s in brute_force(q) if rule(s) and all(s[c] == ".#"[v] for c, v in q.givens)]

    check_fix(p, res, solutions, lambda q, givens: line_solvable(q, givens, rule))


def _reveal_checked(p: LanePuzzle, res) -> None:  # type: ignore[no-untyped-def]
    """``fix``'s blots to reveal, against enumeration: each number's length is its block's in the
    goal, and shown they leave the goal the only solution; a note instead only when even every
    number shown leaves several solutions."""
    goal = res.goal
    keys = [(lane.family, lane.index) for lane in p.lanes]
    if res.blots_reveal is None:
        assert res.blots_note == "revealing every blot leaves the puzzle ambiguous: no blots proposed"
        full = LanePuzzle.from_picture(p.geometry, goal, keep_goal=False)
        assert len(brute_force(full, 2)) > 1
        return
    clues = list(p.clues)
    for x in res.blots_reveal.reveals:
        k = keys.index((x.axis, x.line))
        runs = _blocks([".#".index(goal[c]) for c in p.lanes[k].cells])
        assert clues[k].blots >> x.block & 1 and runs[x.block][0] == x.length
        lengths = list(clues[k].lengths)
        lengths[x.block] = x.length
        clues[k] = clues[k]._replace(lengths=tuple(lengths), blots=clues[k].blots & ~(1 << x.block))
    assert brute_force(p.replace(clues=tuple(clues))) == [goal]


@pytest.mark.parametrize("seed", range(12))
def test_fix_reveals_blotted_numbers_of_a_triddler(seed: int) -> None:
    rng = random.Random(900 + seed)
    while True:  # unique with every number shown, ambiguous with some hidden
        g = LARGER[rng.randrange(len(LARGER))]
        picture = _picture(rng, g)
        if len(brute_force(LanePuzzle.from_picture(g, picture, keep_goal=False), 2)) != 1:
            continue
        p, _ = _make("blotted", rng, g, picture)
        if len(brute_force(p, 2)) > 1:
            break
    if seed % 2:  # the picture as the goal: shown in full its numbers make it unique, so some are proposed
        p = p.replace(goal=picture)
    res = fix(p, timeout=None, max_edits=1)
    assert res.status is Status.MULTIPLE and res.goal in brute_force(p)
    assert res.goal == picture or not seed % 2
    _reveal_checked(p, res)
    assert res.blots_reveal is not None or not seed % 2


def test_the_command_line_names_the_numbers_to_reveal_by_lane(tmp_path) -> None:
    from click.testing import CliRunner

    from satnono.cli import cli
    from satnono.formats import save

    rng = random.Random(901)
    while True:
        g = Triangle.hexagon(2)
        picture = _picture(rng, g)
        if len(brute_force(LanePuzzle.from_picture(g, picture, keep_goal=False), 2)) != 1:
            continue
        p, _ = _make("blotted", rng, g, picture)
        if len(brute_force(p, 2)) > 1:
            break
    path = str(tmp_path / "blotted.json")
    save(p.replace(goal=picture), path)
    r = CliRunner().invoke(cli, ["fix", path])
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if x.startswith("blots to reveal for a unique solution ("))
    names = {lane.name for lane in p.lanes}
    shown = line.split("): ", 1)[1].split(", ")
    assert shown and all(x.rsplit(" block ", 1)[0] in names for x in shown)


def test_givens_that_fill_a_whole_lane_still_give_a_minimal_conflict() -> None:
    """Every picture of the six-triangle hexagon, its first row given in every way: when no
    picture keeps the clues and the givens, the conflict is non-empty, unsatisfiable with the
    givens and minimal (a lane the givens fill is encoded too)."""
    g = Triangle.hexagon(1)
    for pic in itertools.product(".#", repeat=g.cell_count):
        p = LanePuzzle.from_picture(g, "".join(pic), keep_goal=False)
        for fill in itertools.product((0, 1), repeat=len(p.lanes[0].cells)):
            q = p.with_givens(dict(zip(p.lanes[0].cells, fill)))

            def given(s: str, q: LanePuzzle = q) -> bool:
                return all(s[c] == ".#"[v] for c, v in q.givens)

            if _truth(q, given):
                continue
            d = diagnose(q)
            keys = [(lane.family, lane.index) for lane in q.lanes]
            conflict = [keys.index(key) for key in d.conflict]
            assert d.status == Status.NONE and conflict and d.conflict_minimal and not d.conflict_rules
            assert not _some(q, conflict, given)
            assert all(_some(q, [j for j in conflict if j != i], given) for i in conflict)
