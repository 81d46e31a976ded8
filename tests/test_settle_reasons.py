"""The reasons ``check`` gives for "no solution" read the same on every geometry, and agree with
``diagnose``: clue totals that differ between two families of lanes that each hold every cell
once, and a rule broken by the only picture line logic leaves."""

from __future__ import annotations

import pytest

from satnono.clues import LineClue
from satnono.diagnose import diagnose
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.model import Puzzle
from satnono.results import Status
from satnono.solve import check

from _triddler_oracle import brute_force


class FirstCellWhite:
    """A user rule with clauses only (no ``narrow``): line logic cannot see it, so the only
    picture line logic leaves may break it.  It gives no clauses either (a rule that relies on the
    check of the final picture)."""

    name = "first-white"

    def clauses(self, lit, new_var, state=None):
        return []

    def accepts(self, grid) -> bool:
        return grid[0][0] == "."

    def text(self) -> str:
        return "first cell white"


@pytest.mark.parametrize("picture", [
    Puzzle.from_grid(["#.", ".#"]).with_givens({(0, 0): True}),
    LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False),
], ids=["rectangle", "triddler"])
def test_a_rule_broken_by_line_logics_only_picture_is_named_alike(picture):
    assert check(picture).status is Status.UNIQUE and check(picture).line_solvable
    res = check(picture.replace(rules=(FirstCellWhite(),)))
    assert res.status is Status.NONE and not res.line_solvable
    assert res.reason == "rule first cell white: the only picture line logic leaves breaks it"


def _triddler() -> LanePuzzle:
    return LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)


def test_a_triddler_whose_families_disagree_on_totals_gets_the_totals_as_the_reason():
    p = _triddler()
    bad = p.replace(clues=(*p.clues[:-1], LineClue((1, 1), (1, 1))))  # the last \ line asks for one more cell
    assert brute_force(bad) == []  # (the enumeration: no picture)
    res = check(bad)
    assert res.status is Status.NONE
    assert res.reason == "row clues total 3 black cells but \\ line clues total 4"
    assert diagnose(bad).reason == res.reason
    assert res.stats.unknown_after_propagation == 6  # (decided before line logic ran)


def test_totals_that_a_blot_could_make_agree_are_no_reason():
    p = _triddler()
    first = p.clues[0]
    blotted = p.replace(clues=(LineClue(first.lengths, first.colors, blots=1), *p.clues[1:]))
    assert blotted.totals_mismatch() is None
    assert check(blotted).status is not Status.NONE


@pytest.mark.parametrize("picture", [
    Puzzle.from_grid(["#.#", ".#.", "#.#"]),
    LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False),
], ids=["rectangle", "triddler"])
def test_a_clue_that_cannot_fit_is_named_before_the_totals_it_breaks(picture):
    """Both wrong, the lane whose clue cannot fit is the reason (as ``diagnose`` gives it)."""
    lane = picture.lanes[0]
    clue = LineClue((len(lane.cells),) * 2, (1, 1))  # two blocks as long as the lane: never fit
    if isinstance(picture, Puzzle):
        bad = Puzzle.from_clues([list(clue.lengths)] + [list(r) for r in picture.rows[1:]],
                                [list(c) for c in picture.columns])
    else:
        bad = picture.replace(clues=(clue, *picture.clues[1:]))
    res = check(bad)
    assert res.status is Status.NONE
    assert res.reason.startswith(f"row 1: clue {len(lane.cells)} {len(lane.cells)} needs ")
    assert diagnose(bad).reason == res.reason
