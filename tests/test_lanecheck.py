"""Settling puzzles of any geometry over their lanes (satnono.lanecheck), against an enumeration
written for the tests (tests/_triddler_oracle.py: every picture, lane by lane, no line kernels)
on small triddlers: verdicts, exact counts, line-solvability, the solutions themselves."""

from __future__ import annotations

import random

import pytest
from _triddler_oracle import brute_force, line_solve

from satnono.clues import LineClue
from satnono.lanecheck import count_lanes, settle_lanes
from satnono.lanepuzzle import LanePuzzle, clue_text
from satnono.lanes import Rectangle, Triangle
from satnono.palette import BW_PALETTE, Color
from satnono.results import Limits, Status

TWO = (Color("white", ".", (255, 255, 255)), Color("red", "r", (255, 0, 0)), Color("blue", "b", (0, 0, 255)))

BW_SHAPES = [Triangle.triangle(2), Triangle.triangle(3), Triangle.hexagon(1), Triangle.parallelogram(2, 3),
             Triangle.triangle(4), Triangle.from_sides(2, 1, 2, 2, 1, 2), Triangle.parallelogram(3, 3, "\\"),
             Triangle.hexagon(2)]
COLOUR_SHAPES = [Triangle.triangle(2), Triangle.hexagon(1), Triangle.triangle(3), Triangle.parallelogram(2, 3)]


def _picture(rng: random.Random, cells: int, chars: str, fill: float) -> str:
    return "".join(rng.choice(chars[1:]) if rng.random() < fill else chars[0] for _ in range(cells))


def _puzzles(shapes, palette, seeds: int, blots: bool = False):
    chars = "".join(c.char for c in palette)
    for g in shapes:
        for seed in range(seeds):
            rng = random.Random(f"{g}-{seed}-{blots}")
            p = LanePuzzle.from_picture(g, _picture(rng, g.cell_count, chars, rng.choice((0.3, 0.5, 0.7))),
                                        palette, keep_goal=False)
            clues = list(p.clues)
            if blots:  # hide some lengths (a blotted block's entry is 1)
                clues = [c._replace(blots=sum(1 << j for j in range(len(c.lengths)) if rng.random() < 0.3))
                         for c in clues]
                clues = [c._replace(lengths=tuple(1 if (c.blots >> j) & 1 else n for j, n in enumerate(c.lengths)))
                         for c in clues]
            elif seed % 3 == 2:  # change one clue: often no solution left
                k = rng.randrange(len(clues))
                c = clues[k]
                clues[k] = c._replace(lengths=(c.lengths[0] + 1, *c.lengths[1:])) if c.lengths else \
                    LineClue((1,), (1,))
            yield p.replace(clues=tuple(clues))


def _ids(p: LanePuzzle) -> str:
    return f"{p.geometry.sides}:" + "|".join(clue_text(c, p.chars) for c in p.clues)


def _check(p: LanePuzzle) -> None:
    truth = brute_force(p)
    res = settle_lanes(p)
    expected = Status.NONE if not truth else Status.UNIQUE if len(truth) == 1 else Status.MULTIPLE
    assert res.status == expected, res.reason
    assert set(res.solutions) <= set(truth) and len(res.solutions) == min(len(truth), 2)
    if len(res.solutions) == 2:
        assert res.diff and all(res.solutions[0][i] != res.solutions[1][i] for i in res.diff)
    domains = line_solve(p)
    solvable = domains is not None and all(d & (d - 1) == 0 for d in domains)
    assert res.line_solvable == solvable
    counted = count_lanes(p)
    assert counted.exact and counted.count == len(truth)
    if len(truth) > 2:
        capped = count_lanes(p, max_solutions=2)
        assert capped.count == 2 and not capped.exact


@pytest.mark.parametrize("puzzle", list(_puzzles(BW_SHAPES, BW_PALETTE, 12)), ids=_ids)
def test_black_and_white_triddlers_against_an_enumeration(puzzle):
    _check(puzzle)


@pytest.mark.parametrize("puzzle", list(_puzzles(COLOUR_SHAPES, TWO, 8)), ids=_ids)
def test_two_colour_triddlers_against_an_enumeration(puzzle):
    _check(puzzle)


@pytest.mark.parametrize("puzzle", list(_puzzles(BW_SHAPES[:5], BW_PALETTE, 6, blots=True)) +
                         list(_puzzles(COLOUR_SHAPES[:3], TWO, 4, blots=True)), ids=_ids)
def test_blotted_triddlers_against_an_enumeration(puzzle):
    _check(puzzle)


def _hard(shapes, palette, per_shape: int):
    """Puzzles of random pictures that line logic does not finish (by the oracle's own line
    logic): the searches, a second solution and the uniqueness proofs."""
    chars = "".join(c.char for c in palette)
    for g in shapes:
        rng = random.Random(f"hard-{g}")
        found = 0
        for _ in range(400):
            p = LanePuzzle.from_picture(g, _picture(rng, g.cell_count, chars, rng.choice((0.4, 0.5, 0.6))), palette,
                                        keep_goal=False)
            domains = line_solve(p)
            if domains is not None and any(d & (d - 1) for d in domains):
                yield p
                found += 1
                if found == per_shape:
                    break


@pytest.mark.parametrize("puzzle", list(_hard(BW_SHAPES[3:], BW_PALETTE, 10)) + list(_hard(COLOUR_SHAPES, TWO, 6)),
                         ids=_ids)
def test_triddlers_that_need_a_search_against_an_enumeration(puzzle):
    _check(puzzle)


def test_a_rectangle_settles_over_its_lanes_as_over_rows_and_columns():
    """The lane pipeline on the rectangle geometry gives satnono's rectangle verdicts."""
    from satnono.model import Puzzle
    from satnono.solve import check

    rng = random.Random(7)
    for _ in range(30):
        h, w = rng.randint(2, 5), rng.randint(2, 5)
        rows = tuple("".join(rng.choice("#.") for _ in range(w)) for _ in range(h))
        square = Puzzle.from_grid(rows)
        lanes = LanePuzzle(Rectangle(h, w), square.row_clues + square.column_clues)
        a, b = check(square), settle_lanes(lanes)
        assert a.status == b.status and a.line_solvable == b.line_solvable
        assert "".join(a.solutions[0]) in b.solutions or a.status != Status.UNIQUE


def test_the_deadline_gives_unknown_with_a_reason():
    g = Triangle.hexagon(3)
    rng = random.Random(3)
    p = LanePuzzle.from_picture(g, _picture(rng, g.cell_count, ".#", 0.5), keep_goal=False)
    res = settle_lanes(p, Limits(deadline=0.0))
    assert res.status == Status.UNKNOWN and "timed out" in (res.reason or "")


def test_a_lane_that_cannot_be_placed_is_named():
    g = Triangle.triangle(2)
    p = LanePuzzle.from_picture(g, "####", keep_goal=False)
    clues = list(p.clues)
    clues[0] = LineClue((2,), (1,))  # row 1 has one cell
    res = settle_lanes(p.replace(clues=tuple(clues)))
    assert res.status == Status.NONE and res.reason and res.reason.startswith("row 1: clue 2")


def test_count_counts_a_triddler_by_enumeration():
    """satnono.counting.count on a puzzle of another geometry: the exact count, and with --max a
    lower bound that says it was capped (as for rectangles)."""
    from satnono.counting import count
    from satnono.report import count_dict

    several = [p for p in _hard(BW_SHAPES[3:], BW_PALETTE, 10) if len(brute_force(p)) > 2][:5]
    assert several
    for p in several:
        truth = len(brute_force(p))
        full = count(p)
        assert (full.count, full.exact, full.capped, full.status) == (truth, True, False, "multiple")
        capped = count(p, max_solutions=2)
        assert (capped.count, capped.exact, capped.capped) == (2, False, True)
        d = count_dict(capped, "f.xml", None)
        assert d["geometry"] == p.geometry.as_json() and "width" not in d and d["count"] == 2
        assert count(p, max_solutions=2, exact=True).count == truth


def test_classify_sorts_a_triddler_and_names_its_shape():
    from satnono.classify import classify_puzzle
    from satnono.report import classify_text

    p = next(iter(_hard([Triangle.hexagon(2)], BW_PALETTE, 1)))
    truth = brute_force(p)
    rec = classify_puzzle(p, probing=True)
    assert rec["class"] == ("multiple" if len(truth) > 1 else "search") and rec["width"] is None
    assert rec["geometry"] == p.geometry.as_json() and rec["cells"] == 24
    line = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    rec = classify_puzzle(line, probing=True)
    assert (rec["class"], rec["level"]) == ("line", "line")
    assert "[triddler of 6 cells, 0 cells left" in classify_text({"file": "t.xml", "index": None, **rec})


@pytest.mark.parametrize("seed", range(12))
def test_count_splits_a_triddler_and_counts_past_the_enumeration_cap(seed):
    """The rectangle's counting pipeline on a triddler: components (their counts multiply), and
    past the enumeration cap Ganak on a component; the count is the enumeration's."""
    import random

    from satnono.counting import count

    rng = random.Random(seed)
    g = (Triangle.hexagon(2), Triangle.triangle(4), Triangle.parallelogram(2, 3))[seed % 3]
    while True:
        p = LanePuzzle.from_picture(g, "".join(rng.choice("..#") for _ in range(g.cell_count)), keep_goal=False)
        truth = brute_force(p)
        if len(truth) > 2:
            break
    for kw in ({}, {"enum_cap": 2}, {"decompose": False, "enum_cap": 2}):
        r = count(p, **kw)
        assert r.exact and r.count == len(truth), (kw, r.reason)
        assert r.solution in truth and sum(c.size for c in r.components) == r.unknown_after_propagation
