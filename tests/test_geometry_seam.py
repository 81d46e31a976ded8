"""The geometry seam, proven by a third geometry built here and nowhere in satnono: a rectangle
with one more family of lanes, its diagonals (``\\`` from the top-left).  It is made through the
public API only (the Geometry protocol, LanePuzzle, settle_lanes, count_lanes, the pictures) and
checked against an enumeration of every picture."""

from __future__ import annotations

import itertools
import random
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Mapping

import pytest

from satnono.clues import LineClue
from satnono.lanecheck import count_lanes, settle_lanes
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerender import picture_svg, picture_text
from satnono.lanes import Geometry, Lane, Rectangle
from satnono.results import Status


@dataclass(frozen=True)
class Diagonals:
    """A ``height`` x ``width`` rectangle whose clues are on its rows, its columns and its
    ``\\`` diagonals (read from the top-left)."""

    height: int
    width: int

    kind: ClassVar[str] = "diagonals"
    families: ClassVar[tuple[str, ...]] = ("row", "column", "diagonal")

    @property
    def cell_count(self) -> int:
        return self.height * self.width

    def lanes(self) -> tuple[Lane, ...]:
        return self._lanes

    @cached_property
    def _lanes(self) -> tuple[Lane, ...]:
        h, w = self.height, self.width
        square = Rectangle(h, w).lanes()
        diagonals = []
        for k, d in enumerate(range(-(h - 1), w)):  # d = column - row
            cells = tuple(r * w + r + d for r in range(h) if 0 <= r + d < w)
            diagonals.append(Lane("diagonal", k, cells))
        return square + tuple(diagonals)

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return Rectangle(self.height, self.width).neighbours(cell)

    def cell_polygon(self, cell: int) -> tuple[tuple[float, float], ...]:
        return Rectangle(self.height, self.width).cell_polygon(cell)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "height": self.height, "width": self.width}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Diagonals:
        return cls(data["height"], data["width"])


def _enumerate(p: LanePuzzle) -> list[str]:
    chars = p.chars
    return ["".join(cells) for cells in itertools.product(chars, repeat=p.geometry.cell_count)
            if p.is_solution("".join(cells))]


def _puzzles():
    for h, w in ((2, 3), (3, 3), (3, 4), (4, 4)):
        g = Diagonals(h, w)
        for seed in range(6):
            rng = random.Random(f"{h}x{w}-{seed}")
            picture = "".join(rng.choice(".#") for _ in range(g.cell_count))
            p = LanePuzzle.from_picture(g, picture, keep_goal=False)
            if seed == 5:  # one clue changed: often no solution
                clues = list(p.clues)
                clues[-1] = LineClue((1,), (1,)) if not clues[-1].lengths else LineClue((), ())
                p = p.replace(clues=tuple(clues))
            yield p


def test_the_toy_geometry_keeps_the_protocol():
    g = Diagonals(3, 4)
    assert isinstance(g, Geometry)
    assert [lane.name for lane in g.lanes()][-2:] == ["diagonal 5", "diagonal 6"]
    covered = sorted(c for lane in g.lanes() if lane.family == "diagonal" for c in lane.cells)
    assert covered == list(range(g.cell_count))


@pytest.mark.parametrize("puzzle", list(_puzzles()), ids=lambda p: f"{p.geometry.height}x{p.geometry.width}")
def test_puzzles_on_a_third_geometry_settle_through_the_public_api(puzzle):
    truth = _enumerate(puzzle)
    res = settle_lanes(puzzle)
    assert res.status == (Status.NONE if not truth else Status.UNIQUE if len(truth) == 1 else Status.MULTIPLE)
    assert set(res.solutions) <= set(truth)
    counted = count_lanes(puzzle)
    assert counted.exact and counted.count == len(truth)
    if truth:  # and its pictures are drawn from the outlines it gives
        assert picture_text(puzzle, res.solutions[0]).count("█") == res.solutions[0].count("#")
        assert picture_svg(puzzle, res.solutions[0]).count("<polygon") == puzzle.geometry.cell_count
