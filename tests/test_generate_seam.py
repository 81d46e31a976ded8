"""The generator's seam (satnono.generation.Canvas), proven beyond the two built-in geometries:
the toy geometry of tests/test_geometry_seam.py (a rectangle with its ``\\`` diagonals as a
third family of lanes) generated with nothing more than the geometry, and a canvas written here
(pictures drawn as 2-D arrays on that geometry); every candidate's verdict checked against the
triddler oracle's enumeration and plain line logic (tests/_triddler_oracle.py), which share
nothing with satnono's drivers.  Then the rectangle drawn through the generic canvas against its
own fast path, and a lane rule on a triddler against an enumeration."""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar, Mapping, Sequence

import numpy as np
import pytest
from _triddler_oracle import brute_force, line_solve
from test_geometry_seam import Diagonals

from satnono.generation import GenerateSpec, LaneCanvas, canvas_for, draw, generate, generate_on
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Geometry, Lane, Rectangle, Triangle
from satnono.palette import Palette
from satnono.rules.spec import rule_from_spec


def expected_verdict(p: LanePuzzle, require: str, min_open: int = 0) -> bool:
    """Whether the oracle says ``p`` (its goal dropped) meets ``require``."""
    solutions = brute_force(p.replace(goal=None))
    assert p.goal in solutions
    domains = line_solve(p)
    assert domains is not None
    n_open = sum(bool(d & (d - 1)) for d in domains)
    unique = len(solutions) == 1
    return {"line": n_open == 0, "unique": unique,
            "search": unique and n_open > 0 and n_open >= min_open, "any": True}[require]


@dataclass(frozen=True)
class Sheared:
    """A fourth geometry, looser than the diagonals (whose pictures are nearly all line-solvable):
    an ``n`` x ``n`` square whose clues are on its rows and its wrapped diagonals (cells
    ``(r, (r + k) mod n)``), so that stalled, ambiguous and search-only pictures all occur."""

    n: int

    kind: ClassVar[str] = "sheared"
    families: ClassVar[tuple[str, ...]] = ("row", "diagonal")

    @property
    def cell_count(self) -> int:
        return self.n * self.n

    def lanes(self) -> tuple[Lane, ...]:
        return self._lanes

    @cached_property
    def _lanes(self) -> tuple[Lane, ...]:
        n = self.n
        rows = tuple(Lane("row", r, range(r * n, r * n + n)) for r in range(n))
        return rows + tuple(Lane("diagonal", k, tuple(r * n + (r + k) % n for r in range(n))) for k in range(n))

    def neighbours(self, cell: int) -> tuple[int, ...]:
        return Rectangle(self.n, self.n).neighbours(cell)

    def cell_polygon(self, cell: int) -> tuple[tuple[float, float], ...]:
        return Rectangle(self.n, self.n).cell_polygon(cell)

    def as_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "n": self.n}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Sheared:
        return cls(data["n"])


@dataclass(frozen=True)
class SquareDrawing:
    """A canvas of the test's own: the toy geometry's pictures drawn as ``(height, width)``
    arrays (smoothed over 3x3 cells), made into its LanePuzzle (cells row-major)."""

    geometry: Diagonals

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.geometry.height, self.geometry.width)

    @property
    def label(self) -> str:
        return f"diag{self.geometry.height}x{self.geometry.width}"

    def smooth(self, v: np.ndarray) -> np.ndarray:
        h, w = v.shape
        out = np.empty_like(v)
        for r, c in itertools.product(range(h), range(w)):
            out[r, c] = v[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2].mean()
        return out

    def picture(self, values: np.ndarray, chars: str) -> str:
        return "".join(chars[int(v)] for v in values.ravel())

    def puzzle(self, picture, palette: Palette, rules: Sequence = (), *, name=None, meta=()) -> LanePuzzle:
        return LanePuzzle.from_picture(self.geometry, picture, palette, name=name, meta=meta, rules=rules)

    def batch_judge(self, blank):
        return None


@pytest.mark.parametrize("canvas", [Diagonals(3, 4), SquareDrawing(Diagonals(4, 3)), Sheared(4)],
                         ids=["diagonals", "diagonals-drawn-by-a-canvas-of-its-own", "sheared"])
@pytest.mark.parametrize("require,style,colors", [("line", "noise", 1), ("unique", "smooth", 1),
                                                  ("search", "noise", 1), ("unique", "noise", 2)])
def test_a_third_geometry_accepts_exactly_the_candidates_that_qualify(canvas, require, style, colors):
    n = 60
    gen = generate_on(canvas, count=10 ** 6, seed=3, require=require, style=style, colors=colors, max_candidates=n)
    got = {int(dict(p.meta)["candidate"]): p for p in gen}
    assert gen.exhausted and gen.stats.tried == n
    assert got or (require == "search" and not isinstance(canvas, Sheared))  # (diagonals: nearly all line-solvable)
    if isinstance(canvas, Sheared) and require != "line":  # every branch of the decision tree taken
        assert gen.stats.reasons["ambiguous"] > 0 and gen.stats.classes["search"] > 0, gen.stats
    spec = gen.spec
    geometry = spec.canvas.geometry
    cells = geometry.cell_count
    chars = ".#" if colors == 1 else ".ab"
    for i in range(n):
        picture = "".join(chars[int(v)] for v in np.asarray(draw(spec, i)).ravel())
        filled = sum(ch != "." for ch in picture)
        in_band = 0.2 * cells - 1e-9 <= filled <= 0.7 * cells + 1e-9
        p = LanePuzzle.from_picture(geometry, picture, spec.palette)
        assert (i in got) == (in_band and expected_verdict(p, require)), (i, picture)
        if i in got:
            q = got[i]
            assert isinstance(q, LanePuzzle) and q.geometry == geometry
            assert q.goal == picture and q.clues == p.clues
            assert q.name == f"gen-{spec.canvas.label}-3-{i}"
    if not isinstance(canvas, SquareDrawing):
        assert spec.canvas == LaneCanvas(canvas) and isinstance(canvas, Geometry)
    st = gen.stats
    assert st.tried == st.rejected_density + st.rejected_class + st.accepted == n


def test_the_rectangle_through_the_generic_canvas_is_its_own_fast_path():
    """Noise pictures are the same numbers in any array shape, so a rectangle generated through
    LaneCanvas (one at a time, over its lanes) gives the puzzles its GridCanvas gives (the
    vectorised kernel, 2x2 switches and goal-guided SAT for black and white)."""
    for require, colors in (("line", 1), ("unique", 1), ("search", 1), ("unique", 2)):
        opts = dict(count=5, seed=4, require=require, colors=colors, density=(0.35, 0.65), max_candidates=2000)
        grid = generate(6, 5, **opts)
        lanes = generate_on(LaneCanvas(Rectangle(5, 6), "6x5"), **opts)
        a = [(p.name, "".join(p.goal), p.meta) for p in grid]
        b = [(p.name, p.goal, p.meta) for p in lanes]
        assert a == b and len(a) == 5, require
        assert grid.stats.as_dict()["rejections"] == lanes.stats.as_dict()["rejections"]


def test_a_lane_rule_on_a_triddler_is_kept_and_judged_under():
    """count:>=9 on the 16 triangles of triangle:4: every accepted puzzle keeps it and is the only
    picture with its clues that keeps it (the enumeration of all 2^16 pictures)."""
    geometry = Triangle.triangle(4)
    rule = rule_from_spec("count:>=9")
    gen = generate_on(geometry, 4, seed=2, require="unique", rules=[rule], max_candidates=500)
    puzzles = list(gen)
    assert len(puzzles) == 4
    lanes = [lane.cells for lane in geometry.lanes()]
    keyed: dict = {}
    for bits in itertools.product(".#", repeat=geometry.cell_count):
        picture = "".join(bits)
        if picture.count("#") >= 9:
            key = tuple(tuple(len(run) for run in "".join(picture[c] for c in lane).split(".") if run) for lane in lanes)
            keyed[key] = keyed.get(key, 0) + 1
    for p in puzzles:
        assert p.rules and p.goal.count("#") >= 9
        key = tuple(tuple(len(run) for run in "".join(p.goal[c] for c in lane).split(".") if run) for lane in lanes)
        assert keyed[key] == 1, p.name
    assert gen.stats.reasons["rule"] == 0  # (count's keep fills pictures with fewer up to 9: none is refused)


def test_what_the_seam_refuses():
    with pytest.raises(ValueError, match="asks for 30 cells, but the hexagon2 shape has 24"):
        generate_on(Triangle.hexagon(2), 1, rules=[rule_from_spec("count:>=30")])
    with pytest.raises(ValueError, match="no meaning"):
        generate_on(Triangle.hexagon(2), 1, rules=[rule_from_spec("no-square")])
    with pytest.raises(ValueError, match="expected a geometry"):
        canvas_for("hexagon:3")  # type: ignore[arg-type]
    assert isinstance(GenerateSpec(canvas_for(Triangle.hexagon(2)), 0, 0.2, 0.7, "any", "noise", 0, None).blank(),
                      LanePuzzle)
