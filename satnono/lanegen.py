"""Generating triddlers: random triangular pictures that are line-solvable, unique, or unique
but hard, as :mod:`satnono.generation` makes rectangles.

Generate-and-test over a :class:`~satnono.lanes.Triangle` (a hexagon, a parallelogram, a big
triangle, or any hexagon by its six sides; :func:`parse_shape` reads them): candidate ``i`` is
a random picture drawn from an RNG seeded by ``(seed, i)`` alone; it is kept if its density
lies in the band and its clues meet the requirement.  Candidates are accepted strictly in index
order, so the output depends only on the seed and the options, never on ``workers``.

* ``noise``: a target density ``p`` drawn uniformly from the band, each cell filled with
  probability ``p`` (the actual density is then checked against the band);
* ``smooth``: uniform noise averaged over each cell's neighbourhood (the cell, its edge
  neighbours and theirs: ten triangles, the 3x3 of a square grid), the ``round(p * cells)``
  highest cells filled, so filled cells form larger areas.

With ``colors`` > 1 each filled cell then takes one of the colours ``a``, ``b``, ...
(:func:`satnono.palette.default_palette`): independently with ``noise``, the colour of the
highest of K twice-smoothed noise fields with ``smooth``.

The requirements and the decision tree are those of rectangles
(:func:`satnono.generation.decide`): line logic over the lanes
(:func:`satnono.logic.lanes.propagate`) first; a picture it leaves open is settled by
:func:`satnono.lanecheck.settle_lanes` (SAT on the open lanes) when ``require`` asks for
uniqueness.  Every accepted puzzle has been settled by :func:`~satnono.lanecheck.settle_lanes`
with the verdict its class names (``line``: unique and line-solvable; ``search``: unique, not
line-solvable).  A picture with several solutions is drawn again (the next candidate), as for
rectangles: nothing is flipped or revealed.  A SAT call past ``timeout`` rejects its candidate
(``timeout``): the only outcome that can depend on machine speed.

>>> g = generate_lanes(parse_shape("hexagon:2"), count=2, seed=1)
>>> [p.name for p in g], g.stats.accepted
(['gen-hexagon2-1-0', 'gen-hexagon2-1-1'], 2)
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from .generation import (
    ACCEPT,
    DEFAULT_DENSITY,
    DEFAULT_TIMEOUT,
    DENSITY,
    TIMEOUT,
    Generation,
    Verdict,
    check_options,
    decide,
)
from .lanecheck import settle_lanes
from .solve import CheckResult
from .lanepuzzle import LanePuzzle
from .lanes import Triangle
from .lines import shared_solver
from .logic.lanes import LaneState, cell_lanes, propagate
from .logic.state import Deadline
from .palette import default_palette
from .results import Limits, Status

#: The largest side a shape may have (a hexagon of side 60 has 21,600 cells).
MAX_SHAPE_SIDE = 60

#: What ``--shape`` accepts, for help texts and errors.
SHAPE_SYNTAX = "hexagon:N, parallelogram:ROWSxWIDTH, triangle:N or sides:A,B,C,D,E,F"

_SHAPE = re.compile(r"\s*(hexagon|parallelogram|triangle|sides)\s*:\s*(.*?)\s*", re.IGNORECASE)


def parse_shape(text: str) -> Triangle:
    """The triangle grid a shape names: ``hexagon:N`` (the regular hexagon of side N, ``6 N²``
    cells), ``parallelogram:ROWSxWIDTH`` (ROWS rows of ``2 * WIDTH`` triangles, leaning ``/``),
    ``triangle:N`` (the big triangle of side N pointing up, ``N²`` cells) or
    ``sides:A,B,C,D,E,F`` (any hexagon, its sides in Olšák's order: topleft, bottomleft,
    bottom, bottomright, topright, top).

    Raises:
        ValueError: anything else, or a side out of 1..:data:`MAX_SHAPE_SIDE` (one line).

    >>> parse_shape("hexagon:2").cell_count, parse_shape("parallelogram:3x5").row_lengths()
    (24, (10, 10, 10))
    >>> parse_shape("triangle:3").row_lengths(), parse_shape("sides:2,1,2,2,1,2").cell_count
    ((1, 3, 5), 16)
    """
    m = _SHAPE.fullmatch(text or "")
    if not m:
        raise ValueError(f"expected {SHAPE_SYNTAX}, got {text!r}"[:200])
    kind, arg = m.group(1).lower(), m.group(2)
    pattern = {"hexagon": r"(\d+)", "triangle": r"(\d+)", "parallelogram": r"(\d+)\s*[xX]\s*(\d+)",
               "sides": r"(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*(\d+)"}[kind]
    m = re.fullmatch(pattern, arg)
    if not m:
        want = {"hexagon": "hexagon:N such as hexagon:4", "triangle": "triangle:N such as triangle:6",
                "parallelogram": "parallelogram:ROWSxWIDTH such as parallelogram:3x5",
                "sides": "sides:A,B,C,D,E,F such as sides:2,1,2,2,1,2"}[kind]
        raise ValueError(f"expected {want}, got {text!r}"[:200])
    numbers = [int(x) for x in m.groups()]
    least = 0 if kind == "sides" else 1
    if any(not least <= n <= MAX_SHAPE_SIDE for n in numbers):
        raise ValueError(f"each side of a {kind} must be between {least} and {MAX_SHAPE_SIDE}, got {text.strip()!r}")
    if kind == "hexagon":
        return Triangle.hexagon(numbers[0])
    if kind == "triangle":
        return Triangle.triangle(numbers[0])
    if kind == "parallelogram":
        return Triangle.parallelogram(numbers[0], numbers[1])
    return Triangle.from_sides(*numbers)  # a ValueError of its own when the sides do not close


def shape_label(geometry: Triangle) -> str:
    """A short name of the shape for puzzle titles: ``hexagon4``, ``parallelogram3x5``,
    ``triangle6``, else ``sides2-1-2-2-1-2``.

    >>> shape_label(parse_shape("hexagon:4")), shape_label(parse_shape("sides:3,0,3,0,3,0"))
    ('hexagon4', 'triangle3')
    """
    a, b, c, d, e, f = geometry.sides
    if a == b == c == d == e == f:
        return f"hexagon{a}"
    if b == d == f == 0 and a == c == e:
        return f"triangle{a}"
    if b == 0 and e == 0 and a == d and c == f:
        return f"parallelogram{a}x{c}"
    return "sides" + "-".join(map(str, geometry.sides))


@dataclass(frozen=True)
class LaneGenerateSpec:
    """Everything a worker needs to judge candidates (picklable)."""

    geometry: Triangle
    seed: int
    lo: float
    hi: float
    require: str
    style: str
    min_open: int
    timeout: float | None
    colors: int = 1

    @property
    def label(self) -> str:
        return shape_label(self.geometry)


class LaneGeneration(Generation):
    """An iterable of accepted triddlers (:class:`~satnono.lanepuzzle.LanePuzzle`, each with its
    goal); ``stats`` (:class:`satnono.generation.GenerateStats`) is updated as it runs, and
    ``exhausted`` is True when ``max_candidates`` ran out first: :class:`satnono.generation.Generation`
    with the triddler's candidates, judged one by one (so in small chunks)."""

    MIN_CHUNK = 2
    CHUNK_MARGIN = 2

    def accepted(self, i: int, cls: str, rows: Any) -> LanePuzzle:
        return _puzzle(self.spec, i, cls, rows[0])

    def max_chunk(self) -> int:
        return 64

    @staticmethod
    def chunk_task(item: tuple[Any, int, int]) -> list[Verdict]:
        return _evaluate_chunk(item)


def generate_lanes(
    geometry: Triangle,
    count: int,
    seed: int = 0,
    density: tuple[float, float] = DEFAULT_DENSITY,
    require: str = "line",
    style: str = "noise",
    min_open: int = 0,
    workers: int = 1,
    timeout: float | None = DEFAULT_TIMEOUT,
    max_candidates: int | None = None,
    colors: int = 1,
    scheduler: str | None = None,
) -> LaneGeneration:
    """Up to ``count`` random triddlers on ``geometry`` (a :class:`~satnono.lanes.Triangle`,
    see :func:`parse_shape`) meeting ``require`` (``line``, ``unique``, ``search`` or ``any``),
    with the arguments of :func:`satnono.generation.generate`.  Each puzzle keeps its goal and is
    named ``gen-SHAPE-seed-i`` (:func:`shape_label`, i the candidate index); the same arguments
    give the same puzzles whatever ``workers`` is.

    Raises:
        ValueError: an argument is out of range.
    """
    if not isinstance(geometry, Triangle):
        raise ValueError(f"expected a triangle grid (satnono.lanes.Triangle), got {type(geometry).__name__}")
    lo, hi = check_options(count, seed, density, require, style, min_open, workers, timeout, max_candidates, colors)
    spec = LaneGenerateSpec(geometry, seed, lo, hi, require, style, min_open, timeout, colors)
    return LaneGeneration(spec, count, workers, max_candidates, scheduler)


def _puzzle(spec: LaneGenerateSpec, i: int, cls: str, cells: str) -> LanePuzzle:
    meta = (("seed", str(spec.seed)), ("candidate", str(i)), ("class", cls))
    return LanePuzzle.from_picture(spec.geometry, cells, default_palette(spec.colors),
                                   name=f"gen-{spec.label}-{spec.seed}-{i}", meta=meta)


# ---------------------------------------------------------------------------
# Drawing candidates

_NEAR: dict[Triangle, tuple[np.ndarray, np.ndarray]] = {}


def _neighbourhoods(geometry: Triangle) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, the cells within two edge steps (itself included) as an index array padded with
    0 and its mask of real entries: what ``smooth`` averages over."""
    got = _NEAR.get(geometry)
    if got is None:
        n = geometry.cell_count
        near = []
        for c in range(n):
            ring = {c, *geometry.neighbours(c)}
            ring |= {m for x in tuple(ring) for m in geometry.neighbours(x)}
            near.append(sorted(ring))
        width = max(map(len, near))
        idx = np.zeros((n, width), dtype=np.int64)
        mask = np.zeros((n, width), dtype=bool)
        for c, cells in enumerate(near):
            idx[c, :len(cells)] = cells
            mask[c, :len(cells)] = True
        got = _NEAR[geometry] = (idx, mask)
    return got


def _smooth(geometry: Triangle, v: np.ndarray) -> np.ndarray:
    """Mean of ``v`` over each cell's neighbourhood (:func:`_neighbourhoods`)."""
    idx, mask = _neighbourhoods(geometry)
    return np.where(mask, v[idx], 0.0).sum(axis=1) / mask.sum(axis=1)


def draw(spec: LaneGenerateSpec, i: int) -> np.ndarray:
    """Candidate ``i``: one int8 per cell (0 the background, 1..K a colour), in cell order, from
    ``(seed, i)`` only."""
    rng = np.random.default_rng([spec.seed, i])
    geometry = spec.geometry
    n = geometry.cell_count
    p = rng.uniform(spec.lo, spec.hi) if spec.hi > spec.lo else spec.lo
    if spec.style == "noise":
        filled = rng.random(n) < p
    else:
        v = _smooth(geometry, rng.random(n))
        k = int(round(p * n))
        filled = np.zeros(n, bool)
        if k >= n:
            filled[:] = True
        elif k > 0:
            filled[np.argpartition(-v, k - 1)[:k]] = True
    if spec.colors == 1:
        return filled.astype(np.int8)
    if spec.style == "noise":
        col = rng.integers(1, spec.colors + 1, size=n, dtype=np.int8)
    else:
        fields = np.stack([_smooth(geometry, _smooth(geometry, rng.random(n))) for _ in range(spec.colors)])
        col = (np.argmax(fields, axis=0) + 1).astype(np.int8)
    return np.where(filled, col, np.int8(0))


def _in_band(spec: LaneGenerateSpec, filled: int) -> bool:
    cells = spec.geometry.cell_count
    return spec.lo * cells - 1e-9 <= filled <= spec.hi * cells + 1e-9


# ---------------------------------------------------------------------------
# Judging candidates


def evaluate_chunk(spec: LaneGenerateSpec, start: int, stop: int) -> list[Verdict]:
    """Verdicts ``(index, verdict, class, (cells,))`` for candidates ``start..stop-1``, in order;
    ``(cells,)`` (the picture, one palette character a cell) only when accepted."""
    return [evaluate_one(spec, i) for i in range(start, stop)]


def _evaluate_chunk(item: tuple[LaneGenerateSpec, int, int]) -> list[Verdict]:
    """The batch task: :func:`evaluate_chunk` on one chunk (runs in a worker)."""
    return evaluate_chunk(*item)


def evaluate_one(spec: LaneGenerateSpec, i: int) -> Verdict:
    """The verdict on candidate ``i``: line logic first, then (when the decision tree asks)
    :func:`~satnono.lanecheck.settle_lanes` for uniqueness; an accepted candidate of class
    ``line`` is settled too, so that every accepted puzzle carries settle_lanes' verdict."""
    values = draw(spec, i)
    if not _in_band(spec, int(np.count_nonzero(values))):
        return i, DENSITY, "", None
    palette = default_palette(spec.colors)
    chars = "".join(c.char for c in palette)
    cells = "".join(chars[v] for v in values.tolist())
    if spec.require == "any":
        return i, ACCEPT, "unchecked", (cells,)
    puzzle = LanePuzzle.from_picture(spec.geometry, cells, palette, keep_goal=False)
    lines = shared_solver()
    lanes = [lane.cells for lane in spec.geometry.lanes()]
    n = spec.geometry.cell_count
    state = LaneState.empty(n, len(palette))
    deadline = Limits(spec.timeout).deadline_from(time.monotonic())
    try:
        bad = propagate(state, lanes, puzzle.clues, lines, deadline, crossing=cell_lanes(lanes, n))
    except Deadline:
        return i, TIMEOUT, "", None
    if bad is not None:  # cannot happen: the picture itself is a solution
        raise RuntimeError("internal error: a generated triddler contradicts its own clues")
    settled: list[CheckResult] = []

    def unique() -> bool | None:
        res = settle_lanes(puzzle, Limits(spec.timeout), line_solver=lines)
        settled.append(res)
        return True if res.status is Status.UNIQUE else False if res.status is Status.MULTIPLE else None

    verdict, cls = decide(spec, len(state.open_cells()), unique)  # type: ignore[arg-type]
    if verdict != ACCEPT:
        return i, verdict, cls, None
    if not settled:  # class line: settle it too (line logic again, no SAT)
        unique()
    res = settled[-1]
    if res.status is Status.UNKNOWN:
        return i, TIMEOUT, "", None
    if res.status is not Status.UNIQUE or res.line_solvable != (cls == "line") or res.solutions != (cells,):
        raise RuntimeError(f"internal error: candidate {i} of class {cls} settled {res.status.value}"
                           f"{' (line-solvable)' if res.line_solvable else ''}")
    return i, ACCEPT, cls, (cells,)


__all__ = ["LaneGenerateSpec", "LaneGeneration", "MAX_SHAPE_SIDE", "SHAPE_SYNTAX", "draw", "evaluate_chunk",
           "evaluate_one", "generate_lanes", "parse_shape", "shape_label"]
