"""Generating puzzles that are line-solvable, unique, or unique but hard, on any geometry.

One driver for every geometry (:class:`Generation`): candidate ``i`` is a random picture drawn
from an RNG seeded by ``(seed, i)`` alone and changed to keep the rules (each rule's ``keep``);
it is kept if its density lies in the band, it keeps every rule and its clues meet the
requirement.  Candidates are accepted strictly in index order, so the output depends only on the
seed and the options, never on ``workers`` or on how candidates were grouped.

What differs by geometry sits behind a :class:`Canvas`, the seam: the shape of the array a
picture is drawn in (its cells in the geometry's order when flattened), what ``smooth``
averages over, how drawn values become a picture and a picture a puzzle, the shape's name in
titles, and whether a batch of pictures can be judged at once.  :func:`canvas_for` gives a
geometry's: :class:`GridCanvas` for a :class:`~satnono.lanes.Rectangle` (a
:class:`~satnono.model.Puzzle`'s rows, 3x3 smoothing, the vectorised fast path below) and
:class:`LaneCanvas` for any other (a :class:`~satnono.lanepuzzle.LanePuzzle`, one value a cell,
smoothing over each cell's edge neighbours and theirs; a triddler's shapes are named by
:func:`satnono.lanegen.shape_label`), so a new geometry is generated with nothing more.

Requirements (``require``):

* ``line``: line propagation alone determines every cell (no SAT);
* ``unique``: line-solvable, or the SAT check proves the goal the only solution;
* ``search``: unique but *not* line-solvable, with at least ``min_open``
  cells left open by line logic;
* ``any``: only the density band (and the rules) are enforced.

Styles: ``noise`` draws a target density ``p`` uniformly from the density
band and makes each cell filled with probability ``p`` (the actual density is
then checked against the band); ``smooth`` is Tatham's recipe (uniform noise,
one pass of neighbourhood averaging: 3x3 on a grid) thresholded so that exactly
``round(p * cells)`` cells are filled.  With ``colors`` > 1 each filled cell then
takes a colour: independently with ``noise``, the colour of the highest of K
twice-smoothed noise fields with ``smooth``.  Acceptance depends mostly on density (see
``shared/guide/generation.md``): ``line``/``unique`` puzzles come from the
upper half of the default band, ``search`` puzzles mostly from 0.4-0.6, so a
narrower band makes generation faster.

The rectangle's fast path, per chunk of black-and-white candidates without rules:

1. reject by density before computing any clue;
2. propagate all candidates of the chunk at once with the vectorised (numpy)
   complete line solver (:func:`satnono.lines.vector.propagate_many`) — the
   fixpoint of complete line solving does not depend on order, so this equals
   :func:`satnono.logic.propagate.propagate`;
3. for a stalled candidate, look for a 2x2 switch (:mod:`satnono.lines.switches`:
   four open cells whose exchange keeps all four clues): proof of a second
   solution without SAT;
4. otherwise encode the residue and ask SAT for a solution other than the goal
   (phases set to the goal); unsatisfiable means unique.

Every other candidate (colour, rules, any other geometry) goes on its own through the
library's line propagation (:meth:`satnono.solve.Checker.propagate`) and settle pipeline
(:meth:`satnono.solve.Checker.settle`, the picture the known solution).  Both paths end in the
same decision tree (:func:`decide`).

Line logic or a SAT call that exceeds ``timeout`` rejects its candidate (counted as
``timeout``): the only outcome that can depend on machine speed.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Protocol, Union, runtime_checkable

import numpy as np

from .lanepuzzle import LanePuzzle
from .lanerules import LaneCount
from .lanes import Geometry, Rectangle, Triangle
from .lines.vector import fits, grid_of, handles, propagate_many, row_masks, switch_of
from .model import BLACK, MAX_COLORS, MAX_SIDE, Grid, Puzzle, default_palette
from .lines import LineSolver, shared_solver
from .logic.state import Deadline, GridState
from .palette import Palette
from .results import Limits, Status
from .rules.count import Count
from .rules.protocol import keep
from .solve import Checker, Start

REQUIREMENTS = ("line", "unique", "search", "any")
STYLES = ("noise", "smooth")
DEFAULT_DENSITY = (0.2, 0.7)
#: Default SAT time limit per candidate, seconds.
DEFAULT_TIMEOUT = 10.0

# Verdict codes of one candidate.
ACCEPT = "accept"
DENSITY = "density"
# Rejection reasons ("class" rejections).
STALLED = "stalled"  # not line-solvable (require=line)
LINE = "line"  # line-solvable (require=search)
OPEN = "open"  # fewer open cells than min_open (require=search)
AMBIGUOUS = "ambiguous"
TIMEOUT = "timeout"
RULE = "rule"  # the drawn picture breaks a rule even after the rules' keep()

Picture = Union[Grid, str]
"""A picture as the puzzle's solutions are written: a rectangle's rows, or one palette
character a cell in the geometry's cell order."""

AnyPuzzle = Union[Puzzle, LanePuzzle]

#: One candidate's verdict: ``(index, verdict, class, picture)``; ``picture`` only when accepted.
Verdict = tuple[int, str, str, Picture | None]


# ---------------------------------------------------------------------------
# Statistics and the public iterator


@dataclass
class GenerateStats:
    """What a generation run cost.  Counts stop at the last accepted candidate
    (or at ``max_candidates``), so they are the same whatever ``workers`` is."""

    tried: int = 0
    """Candidates drawn."""
    rejected_density: int = 0
    """Candidates outside the density band (rejected before any clue was computed)."""
    rejected_class: int = 0
    """Candidates in the band that did not meet the requirement."""
    accepted: int = 0
    seconds: float = 0.0
    reasons: Counter = field(default_factory=Counter)
    """Class rejections by reason: stalled, line, open, ambiguous, timeout, rule."""
    classes: Counter = field(default_factory=Counter)
    """Accepted puzzles by class: line, search (unique, not line-solvable) or unchecked."""

    @property
    def acceptance_rate(self) -> float:
        return self.accepted / self.tried if self.tried else 0.0

    @property
    def seconds_per_accepted(self) -> float | None:
        return self.seconds / self.accepted if self.accepted else None

    def as_dict(self) -> dict:
        return {
            "tried": self.tried,
            "rejected_density": self.rejected_density,
            "rejected_class": self.rejected_class,
            "accepted": self.accepted,
            "acceptance_rate": round(self.acceptance_rate, 6),
            "seconds": round(self.seconds, 6),
            "seconds_per_accepted": None if self.accepted == 0 else round(self.seconds / self.accepted, 6),
            "rejections": dict(sorted(self.reasons.items())),
            "classes": dict(sorted(self.classes.items())),
        }


# ---------------------------------------------------------------------------
# The seam: what differs by geometry


@dataclass
class Candidate:
    """A drawn picture in the density band that waits for its verdict."""

    index: int
    values: np.ndarray
    """As :func:`draw` gave it (and the rules' ``keep`` changed it)."""
    picture: Picture | None = None
    """Its picture, once made."""
    puzzle: AnyPuzzle | None = None
    """Its puzzle (the clues the picture gives, the rules bound), once made."""


BatchJudge = Callable[["GenerateSpec", list[Candidate]], Iterator[tuple[str, str]]]
"""Judges candidates together: ``(verdict, class)`` for each, in order (:func:`decide`'s)."""


@runtime_checkable
class Canvas(Protocol):
    """What the generator needs of a geometry: how pictures are drawn over its cells and how a
    picture becomes a puzzle.  :class:`LaneCanvas` serves any
    :class:`~satnono.lanes.Geometry`; :class:`GridCanvas` is the rectangle's."""

    @property
    def geometry(self) -> Geometry:
        """The cells and lanes the pictures are drawn on."""
        ...

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the array a picture is drawn in: its cells in the geometry's cell order
        when flattened."""
        ...

    @property
    def label(self) -> str:
        """The shape as puzzle titles name it (``gen-LABEL-SEED-I``): ``8x8``, ``hexagon3``."""
        ...

    def smooth(self, v: np.ndarray) -> np.ndarray:
        """The mean of ``v`` (an array of :attr:`shape`) over each cell's neighbourhood: what
        ``style="smooth"`` averages."""
        ...

    def picture(self, values: np.ndarray, chars: str) -> Picture:
        """The picture of drawn values (colour indices, 0 the background; bools in black and
        white) in the palette's characters ``chars``."""
        ...

    def puzzle(self, picture: Picture, palette: Palette, rules: Sequence = (), *, name: str | None = None,
               meta: tuple[tuple[str, str], ...] = ()) -> AnyPuzzle:
        """The puzzle whose clues ``picture`` gives, the picture its goal, ``rules`` bound to it.

        Raises:
            ValueError: a rule that does not fit the puzzle (one line).
        """
        ...

    def batch_judge(self, blank: AnyPuzzle) -> BatchJudge | None:
        """A judge of many candidates at once for puzzles like ``blank`` (the empty picture's,
        with the palette and rules), or None: each is settled on its own."""
        ...


_NEAR: dict[Geometry, tuple[np.ndarray, np.ndarray]] = {}


def _neighbourhoods(geometry: Geometry) -> tuple[np.ndarray, np.ndarray]:
    """Per cell, the cells within two edge steps (itself included) as an index array padded with
    0 and its mask of real entries: what :meth:`LaneCanvas.smooth` averages over (a triangle's
    ten, the 3x3 of a square grid)."""
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


@dataclass(frozen=True)
class LaneCanvas:
    """Pictures on any geometry: one value a cell in its cell order, smoothed over each cell's
    edge neighbours and theirs, made into a :class:`~satnono.lanepuzzle.LanePuzzle`.

    >>> from satnono.lanes import Triangle
    >>> canvas = LaneCanvas(Triangle.triangle(2), "triangle2")
    >>> canvas.shape, canvas.picture(np.array([1, 0, 1, 1], np.int8), ".#")
    ((4,), '#.##')
    """

    geometry: Geometry
    label: str = ""
    """The shape in titles (default: the geometry's ``kind``)."""

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.geometry.kind)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.geometry.cell_count,)

    def smooth(self, v: np.ndarray) -> np.ndarray:
        idx, mask = _neighbourhoods(self.geometry)
        return np.where(mask, v[idx], 0.0).sum(axis=1) / mask.sum(axis=1)

    def picture(self, values: np.ndarray, chars: str) -> str:
        return "".join(chars[v] for v in values.tolist())

    def puzzle(self, picture: Picture, palette: Palette, rules: Sequence = (), *, name: str | None = None,
               meta: tuple[tuple[str, str], ...] = ()) -> LanePuzzle:
        assert isinstance(picture, str)
        return LanePuzzle.from_picture(self.geometry, picture, palette, name=name, meta=meta, rules=rules)

    def batch_judge(self, blank: AnyPuzzle) -> BatchJudge | None:
        return None


@dataclass(frozen=True)
class GridCanvas:
    """Pictures on a ``height`` x ``width`` rectangle: ``(height, width)`` arrays, smoothed over
    3x3 cells, made into a :class:`~satnono.model.Puzzle`; black-and-white puzzles without rules
    are judged a chunk at a time by the vectorised kernel (:func:`_judge_together`).

    >>> GridCanvas(2, 3).label, GridCanvas(2, 3).picture(np.array([[1, 0, 0], [0, 1, 1]], bool), ".#")
    ('3x2', ('#..', '.##'))
    """

    height: int
    width: int

    @property
    def geometry(self) -> Rectangle:
        return Rectangle(self.height, self.width)

    @property
    def shape(self) -> tuple[int, ...]:
        return (self.height, self.width)

    @property
    def label(self) -> str:
        return f"{self.width}x{self.height}"

    def smooth(self, v: np.ndarray) -> np.ndarray:
        return _box3(v)

    def picture(self, values: np.ndarray, chars: str) -> Grid:
        if values.dtype == bool and chars == ".#":
            return grid_of(values)
        lut = np.array(list(chars))
        return tuple("".join(r) for r in lut[values.astype(np.int8)])

    def puzzle(self, picture: Picture, palette: Palette, rules: Sequence = (), *, name: str | None = None,
               meta: tuple[tuple[str, str], ...] = ()) -> Puzzle:
        return Puzzle.from_grid(picture, palette=palette, rules=tuple(rules), name=name, meta=meta)

    def batch_judge(self, blank: AnyPuzzle) -> BatchJudge | None:
        return _judge_together if handles(blank) else None  # type: ignore[arg-type]


def _box3(v: np.ndarray) -> np.ndarray:
    """Mean over each cell's 3x3 neighbourhood (cells outside the grid left out)."""
    h, w = v.shape
    p = np.zeros((h + 2, w + 2))
    p[1:-1, 1:-1] = v
    ones = np.zeros((h + 2, w + 2))
    ones[1:-1, 1:-1] = 1.0
    s = np.zeros((h, w))
    n = np.zeros((h, w))
    for dr in range(3):
        for dc in range(3):
            s += p[dr:dr + h, dc:dc + w]
            n += ones[dr:dr + h, dc:dc + w]
    return s / n


def canvas_for(geometry: Geometry | Canvas) -> Canvas:
    """The canvas of a geometry: a rectangle's :class:`GridCanvas`, a triangle's
    :class:`LaneCanvas` named by its shape, any other geometry's :class:`LaneCanvas`; a canvas
    is its own.

    Raises:
        ValueError: neither a geometry nor a canvas.

    >>> from satnono.lanes import Triangle
    >>> canvas_for(Rectangle(4, 5)), canvas_for(Triangle.hexagon(3)).label
    (GridCanvas(height=4, width=5), 'hexagon3')
    """
    if isinstance(geometry, Rectangle):
        return GridCanvas(geometry.height, geometry.width)
    if isinstance(geometry, Triangle):
        from .lanegen import shape_label

        return LaneCanvas(geometry, shape_label(geometry))
    if isinstance(geometry, Canvas):
        return geometry
    if isinstance(geometry, Geometry):
        return LaneCanvas(geometry)
    raise ValueError(f"expected a geometry (satnono.lanes.Geometry) or a canvas, got {type(geometry).__name__}")


@dataclass(frozen=True)
class GenerateSpec:
    """Everything a worker needs to judge candidates (picklable)."""

    canvas: Canvas
    seed: int
    lo: float
    hi: float
    require: str
    style: str
    min_open: int
    timeout: float | None
    colors: int = 1
    rules: tuple = ()
    """Rules every accepted puzzle keeps (unbound; bound to each candidate's puzzle)."""
    jobs: int | str = 1
    """Searches at once for a candidate's uniqueness test (:attr:`satnono.results.Limits.jobs`)."""

    @property
    def cells(self) -> int:
        return math.prod(self.canvas.shape)

    @property
    def palette(self) -> Palette:
        return default_palette(self.colors)

    def blank(self) -> AnyPuzzle:
        """The puzzle of the empty picture, with the palette and the rules bound."""
        return self.canvas.puzzle(self.canvas.picture(np.zeros(self.canvas.shape, np.int8), _chars(self.palette)),
                                  self.palette, self.rules)


def _chars(palette: Palette) -> str:
    return "".join(c.char for c in palette)


class Generation:
    """An iterable of accepted puzzles; ``stats`` is updated as it runs.

    >>> g = generate(5, 5, count=2, seed=1)
    >>> [p.name for p in g]
    ['gen-5x5-1-0', 'gen-5x5-1-1']
    >>> g.stats.accepted
    2
    """

    def __init__(self, spec: GenerateSpec, count: int, workers: int, max_candidates: int | None,
                 scheduler: str | None = None) -> None:
        self.spec = spec
        self.count = count
        self.workers = workers
        self.scheduler = scheduler
        """A Dask scheduler (see :func:`satnono.batch.runner_for`) instead of local workers."""
        self.on_start: Callable[[Any], None] | None = None
        """Called with the batch runner once its workers exist (with workers > 1 or a scheduler)."""
        self.max_candidates = max_candidates
        self.stats = GenerateStats()
        self.exhausted = False
        """True when ``max_candidates`` ran out before ``count`` puzzles were accepted."""

    def accepted(self, i: int, cls: str, picture: Picture) -> AnyPuzzle:
        """The puzzle of accepted candidate ``i`` (of class ``cls``)."""
        spec = self.spec
        meta = (("seed", str(spec.seed)), ("candidate", str(i)), ("class", cls))
        return spec.canvas.puzzle(picture, spec.palette, spec.rules,
                                  name=f"gen-{spec.canvas.label}-{spec.seed}-{i}", meta=meta)

    def __iter__(self) -> Iterator[AnyPuzzle]:
        st = self.stats = GenerateStats()  # a fresh count for every pass
        self.exhausted = False
        t0 = time.monotonic()
        if self.count <= 0:
            return
        verdicts = self._verdicts()
        try:
            for i, verdict, cls, picture in verdicts:
                st.tried += 1
                if verdict == DENSITY:
                    st.rejected_density += 1
                elif verdict == ACCEPT:
                    st.accepted += 1
                    st.classes[cls] += 1
                    st.seconds = time.monotonic() - t0
                    assert picture is not None
                    yield self.accepted(i, cls, picture)
                    if st.accepted >= self.count:
                        st.seconds = time.monotonic() - t0
                        return
                else:
                    st.rejected_class += 1
                    st.reasons[verdict] += 1
                st.seconds = time.monotonic() - t0
            self.exhausted = True
            st.seconds = time.monotonic() - t0
        finally:
            verdicts.close()  # stops worker processes at once

    def _chunks(self, ahead: int) -> Iterator[tuple[int, int]]:
        """Index ranges to judge together.  Sizes only affect speed, never the output:
        about as many candidates as the acceptance rate seen so far says are still needed
        (checked in the order they are consumed, so little is judged in vain), at least
        ``least``; large enough to amortise the vectorised calls when a batch judge takes them
        (a rectangle's black-and-white pictures), small when each is settled on its own;
        ``ahead`` is the number of chunks in flight."""
        start = 0
        limit = self.max_candidates
        if self.spec.canvas.batch_judge(self.spec.blank()) is not None:
            # about 250k cells per vectorised batch: larger ones buy little
            least, margin, cap = 16, 8, int(max(16, min(1024, 250_000 // self.spec.cells)))
        else:
            least, margin, cap = 2, 2, 64
        while limit is None or start < limit:
            st = self.stats
            rate = (st.accepted + 1) / (st.tried + 2)
            want = int((self.count - st.accepted) / rate * 1.1) + margin
            size = max(least, min(cap, want // ahead))
            stop = start + size if limit is None else min(start + size, limit)
            yield start, stop
            start = stop

    def _verdicts(self) -> Generator[Verdict, None, None]:
        if self.workers <= 1 and not self.scheduler:
            for start, stop in self._chunks(1):
                yield from evaluate_chunk(self.spec, start, stop)
            return
        from .batch import BatchError, Lost, run
        from .batch.ordered import in_order

        ahead = [2 * self.workers]

        def started(runner) -> None:  # type: ignore[no-untyped-def]
            ahead[0] = 2 * runner.slots
            if self.on_start is not None:
                self.on_start(runner)

        def items() -> Iterator[tuple[int, tuple[GenerateSpec, int, int]]]:
            for k, (start, stop) in enumerate(self._chunks(ahead[0])):
                yield k, (self.spec, start, stop)

        # chunks are consumed strictly in index order, so the output does not depend on the back end
        stream = run(_evaluate_chunk, items(), workers=self.workers, scheduler=self.scheduler, chunked=False,
                     start_method="spawn", on_start=started)
        try:
            for k, verdicts in in_order(stream):
                if isinstance(verdicts, Lost):
                    raise BatchError(f"a chunk of candidates could not be judged: {verdicts.reason}")
                yield from verdicts
        finally:
            stream.close()  # stops the workers at once


def check_options(count: int, seed: int, density: tuple[float, float], require: str, style: str, min_open: int,
                  workers: int, timeout: float | None, max_candidates: int | None, colors: int) -> tuple[float, float]:
    """The checks of :func:`generate`'s options that every shape shares (a one-line ValueError for
    one out of range); the density band as floats."""
    if count < 0:
        raise ValueError(f"count must not be negative, got {count}")
    if not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    lo, hi = (float(x) for x in density)
    if not (0.0 <= lo <= hi <= 1.0):
        raise ValueError(f"density band must satisfy 0 <= LO <= HI <= 1, got {lo}-{hi}")
    if require not in REQUIREMENTS:
        raise ValueError(f"require must be one of {', '.join(REQUIREMENTS)}, got {require!r}")
    if style not in STYLES:
        raise ValueError(f"style must be one of {', '.join(STYLES)}, got {style!r}")
    if min_open < 0:
        raise ValueError(f"min_open must not be negative, got {min_open}")
    if workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    if timeout is not None and timeout <= 0:
        raise ValueError(f"timeout must be positive, got {timeout}")
    if max_candidates is not None and max_candidates < 0:
        raise ValueError(f"max_candidates must not be negative, got {max_candidates}")
    if not isinstance(colors, int) or not 1 <= colors <= MAX_COLORS:
        raise ValueError(f"colors must be between 1 and {MAX_COLORS}, got {colors!r}")
    return lo, hi


def generate_on(
    geometry: Geometry | Canvas,
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
    rules: Sequence = (),
    scheduler: str | None = None,
    jobs: int | str = 1,
) -> Generation:
    """Up to ``count`` random puzzles on ``geometry`` (any :class:`~satnono.lanes.Geometry`, or a
    :class:`Canvas` of one; a triddler's shapes: :func:`satnono.lanegen.parse_shape`) meeting
    ``require``.

    Returns a :class:`Generation`: iterate it for the puzzles (a rectangle's
    :class:`~satnono.model.Puzzle`, any other geometry's :class:`~satnono.lanepuzzle.LanePuzzle`,
    each with its ``goal`` and a name ``gen-LABEL-seed-i``, :attr:`Canvas.label` and i the
    candidate index), read ``.stats`` for the counts.  The same arguments give the same puzzles,
    whatever ``workers`` is (as long as no candidate hits ``timeout``), and on a Dask
    ``scheduler`` too (see :func:`satnono.batch.runner_for`).
    ``max_candidates`` bounds the number of candidates drawn (``None``: no bound).
    ``colors`` > 1 gives colour puzzles over :func:`satnono.model.default_palette`:
    the density band counts every non-background cell, and each filled cell
    takes a colour (independently with ``noise``, in smoothed regions with
    ``smooth``).  ``rules`` (see :mod:`satnono.rules`; on a geometry other than the rectangle
    :mod:`satnono.lanerules`): each drawn picture is first changed to keep them (each rule's
    ``keep``: mirror drawing for ``symmetric``, the largest region for ``connected``, ...; a
    rule without one only filters), and a puzzle is accepted only when it keeps every rule and
    meets ``require`` under them (its clues and the rules together).  ``jobs`` other than 1: a
    candidate's uniqueness test races that many searches (:mod:`satnono.portfolio`; the same
    puzzles), with ``workers`` 1 and no ``scheduler`` only.

    >>> from satnono.lanegen import parse_shape
    >>> g = generate_on(parse_shape("hexagon:2"), count=2, seed=1)
    >>> [p.name for p in g], g.stats.accepted
    (['gen-hexagon2-1-0', 'gen-hexagon2-1-1'], 2)

    Raises:
        ValueError: an argument is out of range, or a rule does not fit the geometry.
    """
    canvas = canvas_for(geometry)
    lo, hi = check_options(count, seed, density, require, style, min_open, workers, timeout, max_candidates, colors)
    if jobs != 1 and (workers > 1 or scheduler):
        raise ValueError("jobs and workers (or a scheduler) do not go together: workers judge several candidates "
                         "at once, jobs race several searches of one")
    spec = GenerateSpec(canvas, seed, lo, hi, require, style, min_open, timeout, colors, tuple(rules), jobs)
    if spec.rules:  # bound once here, so that a rule that does not fit is refused before any work
        cells = spec.cells
        for rule in spec.blank().rules:  # a count of filled cells outside the density band: no candidate could pass
            if not isinstance(rule, (Count, LaneCount)):
                continue
            if rule.op != "<=" and rule.n > cells:
                # no picture keeps it (the puzzles it binds to have no solution, not an input error)
                raise ValueError(f"rule {rule.text()} asks for {rule.n} cells, but the {canvas.label} "
                                 f"{'grid' if isinstance(canvas, GridCanvas) else 'shape'} has {cells}: "
                                 f"no picture keeps it")
            if rule.value is None:
                n, op = rule.n, rule.op
                if (op != ">=" and n < lo * cells - 1e-9) or (op != "<=" and n > hi * cells + 1e-9):
                    raise ValueError(f"rule {rule.text()} asks for {n} filled cells of {cells}, outside the "
                                     f"density band {lo:g}-{hi:g}; widen --density")
    return Generation(spec, count, workers, max_candidates, scheduler)


def generate(
    width: int,
    height: int,
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
    rules: Sequence = (),
    scheduler: str | None = None,
    jobs: int | str = 1,
) -> Generation:
    """Up to ``count`` random puzzles of ``width`` x ``height`` meeting ``require``:
    :func:`generate_on` a :class:`~satnono.lanes.Rectangle`, with its arguments.  Each puzzle is
    named ``gen-WxH-seed-i``.

    Raises:
        ValueError: an argument is out of range.
    """
    if not (isinstance(width, int) and isinstance(height, int)) or not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"size must be between 1x1 and {MAX_SIDE}x{MAX_SIDE}, got {width}x{height}")
    return generate_on(Rectangle(height, width), count, seed, density, require, style, min_open, workers, timeout,
                       max_candidates, colors, rules, scheduler, jobs)


# ---------------------------------------------------------------------------
# Drawing candidates


def draw(spec: GenerateSpec, i: int) -> np.ndarray:
    """Candidate ``i``: an array of the canvas's shape (a rectangle's ``(height, width)``,
    another geometry's one value a cell), from ``(seed, i)`` only: bools (True filled) in black
    and white; with ``spec.colors`` > 1 int8 colour indices (0 background), the same filled
    cells, then a colour for each from the same generator.
    """
    rng = np.random.default_rng([spec.seed, i])
    canvas = spec.canvas
    shape = canvas.shape
    p = rng.uniform(spec.lo, spec.hi) if spec.hi > spec.lo else spec.lo
    if spec.style == "noise":
        filled = rng.random(shape) < p
    else:
        v = canvas.smooth(rng.random(shape))
        n = v.size
        k = int(round(math.prod(shape, start=p)))  # (p * height * width on a grid, as it always was)
        out = np.zeros(n, bool)
        if k >= n:
            out[:] = True
        elif k > 0:
            out[np.argpartition(-v.ravel(), k - 1)[:k]] = True
        filled = out.reshape(shape)
    k = spec.colors
    if k == 1:
        return filled
    if spec.style == "noise":
        col = rng.integers(1, k + 1, size=shape, dtype=np.int8)
    else:  # smooth: the colour whose smoothed noise field is highest, so colours form regions
        fields = np.stack([canvas.smooth(canvas.smooth(rng.random(shape))) for _ in range(k)])
        col = (np.argmax(fields, axis=0) + 1).astype(np.int8)
    return np.where(filled, col, np.int8(0))


def _kept(spec: GenerateSpec, i: int, values: np.ndarray, rules: Sequence) -> np.ndarray:
    """Candidate ``i``'s picture changed to keep ``rules`` (bound; each one's ``keep``), from
    ``(seed, i)`` only."""
    import random

    out = np.asarray(values, dtype=np.int8).tolist()
    rng = random.Random(f"{spec.seed}-{i}-rules")
    for rule in rules:
        out = keep(rule, out, rng)
    return np.array(out, dtype=np.int8)


def _in_band(spec: GenerateSpec, filled: int) -> bool:
    cells = spec.cells
    return spec.lo * cells - 1e-9 <= filled <= spec.hi * cells + 1e-9


# ---------------------------------------------------------------------------
# SAT: is the goal the only solution?

_SHARED: Checker | None = None


def _checker() -> Checker:
    """The checker of this process, on the process's one line solver (and its cache), that
    every candidate judged here shares."""
    global _SHARED
    if _SHARED is None:
        _SHARED = Checker(line_solver=shared_solver())
    return _SHARED


def other_solution(goal: np.ndarray, kb: np.ndarray, kw: np.ndarray, timeout: float | None,
                   puzzle: Puzzle | None = None, lines: LineSolver | None = None, jobs: int | str = 1) -> Grid | bool | None:
    """Ask the settle pipeline for a solution other than ``goal`` given the propagated
    knowledge (``kb``/``kw``: the cells known black and white, at the line fixpoint).

    ``lines``: the line solver to encode with (by default this process's shared one); ``jobs``:
    searches at once (:attr:`satnono.results.Limits.jobs`).
    Returns the other grid (verified), ``False`` when the goal is the only solution, or
    ``None`` when ``timeout`` ran out.
    """
    if puzzle is None:
        puzzle = Puzzle.from_grid(grid_of(goal))
    st = GridState(puzzle)
    st.row_black[:] = row_masks(kb)  # in place: row_black is row_ex[0]
    st.row_white[:] = row_masks(kw)
    st.col_black[:] = row_masks(np.ascontiguousarray(kb.T))
    st.col_white[:] = row_masks(np.ascontiguousarray(kw.T))
    checker = _checker() if lines is None else Checker(line_solver=lines)
    ink = puzzle.chars[1]
    known = tuple(row.replace(BLACK, ink) for row in grid_of(goal)) if ink != BLACK else grid_of(goal)
    # (its callers look for a 2x2 switch first)
    start = Start(st, propagated=True, known=known, switch_looked=True)
    res = checker.settle(puzzle, start, Limits(timeout, jobs=jobs)).result
    if res.status is Status.MULTIPLE:
        return res.solutions[1]
    if res.status is Status.UNIQUE:
        return False
    if res.status is Status.NONE:  # the goal satisfies its own clues: cannot happen
        raise RuntimeError("the goal does not satisfy its own clues")
    return None


# ---------------------------------------------------------------------------
# Judging a chunk of candidates


def decide(spec: GenerateSpec, n_open: int, unique: Callable[[], bool | None]) -> tuple[str, str]:
    """The acceptance decision tree, the same for every geometry and palette: ``(verdict, class)``.

    Asked for a candidate in the density band (and ``require`` not ``any``):
    ``n_open`` is the number of cells line propagation leaves open (0: line-solvable);
    ``unique()``, called only when the tree needs it, is True when the goal is the only
    solution, False when there is another, None when that was not settled in time.

    >>> spec = GenerateSpec(GridCanvas(5, 5), 0, 0.2, 0.7, "search", "noise", 3, None)
    >>> decide(spec, 0, lambda: True), decide(spec, 2, lambda: True), decide(spec, 4, lambda: None)
    (('line', ''), ('open', ''), ('timeout', ''))
    """
    req = spec.require
    if n_open == 0:
        return (LINE, "") if req == "search" else (ACCEPT, "line")
    if req == "line":
        return STALLED, ""
    if req == "search" and n_open < spec.min_open:
        return OPEN, ""
    u = unique()
    if u is None:
        return TIMEOUT, ""
    return (ACCEPT, "search") if u else (AMBIGUOUS, "")


def evaluate_chunk(spec: GenerateSpec, start: int, stop: int) -> list[Verdict]:
    """Verdicts ``(index, verdict, class, picture)`` for candidates ``start..stop-1``, in order.

    ``verdict`` is ACCEPT, DENSITY or a rejection reason; ``picture`` is the picture of an
    accepted candidate.  Each candidate is drawn, changed to keep the rules, checked against
    the density band and the rules; those that ``require`` asks more of are judged by the
    canvas's batch judge (:meth:`Canvas.batch_judge`: a rectangle's black-and-white pictures
    without rules, together) or one at a time by the library's own propagation and settle
    pipeline (:func:`_judge_each`).
    """
    canvas = spec.canvas
    palette = spec.palette
    chars = _chars(palette)
    blank = spec.blank()
    out: list[Verdict | None] = []
    waiting: list[Candidate] = []
    for i in range(start, stop):
        values = draw(spec, i)
        if spec.rules:
            values = _kept(spec, i, values, blank.rules)
        if not _in_band(spec, int(np.count_nonzero(values))):
            out.append((i, DENSITY, "", None))
            continue
        c = Candidate(i, values)
        if spec.rules:  # bound to the picture's puzzle: a picture its rules' keep changed may still break one
            c.picture = canvas.picture(values, chars)
            c.puzzle = canvas.puzzle(c.picture, palette, spec.rules)
            if not all(rule.accepts(c.picture) for rule in c.puzzle.rules):
                out.append((i, RULE, "", None))
                continue
        if spec.require == "any":
            out.append((i, ACCEPT, "unchecked", canvas.picture(values, chars) if c.picture is None else c.picture))
            continue
        out.append(None)
        waiting.append(c)
    if waiting:
        judge = canvas.batch_judge(blank) or _judge_each
        slots = (k for k, v in enumerate(out) if v is None)
        for k, c, (verdict, cls) in zip(slots, waiting, judge(spec, waiting)):
            picture = None
            if verdict == ACCEPT:
                picture = canvas.picture(c.values, chars) if c.picture is None else c.picture
            out[k] = (c.index, verdict, cls, picture)
    return out  # type: ignore[return-value]


def _evaluate_chunk(item: tuple[GenerateSpec, int, int]) -> list[Verdict]:
    """The batch task of generate: :func:`evaluate_chunk` on one chunk (runs in a worker)."""
    return evaluate_chunk(*item)


def _judge_each(spec: GenerateSpec, candidates: list[Candidate]) -> Iterator[tuple[str, str]]:
    """Each candidate on its own, on any geometry, in colour, with rules: line logic
    (:meth:`satnono.solve.Checker.propagate`, within ``timeout``), then, when :func:`decide`
    asks, :meth:`~satnono.solve.Checker.settle` with the picture as the known solution (one
    SAT call looks for another)."""
    checker = _checker()
    canvas = spec.canvas
    palette = spec.palette
    chars = _chars(palette)
    for c in candidates:
        if c.picture is None:
            c.picture = canvas.picture(c.values, chars)
        if c.puzzle is None:
            c.puzzle = canvas.puzzle(c.picture, palette, spec.rules)
        p, picture = c.puzzle, c.picture
        try:
            state, bad = checker.propagate(p, Limits(spec.timeout).deadline_from(time.monotonic()))
        except Deadline:
            yield TIMEOUT, ""
            continue
        if bad is not None:  # cannot happen: the picture itself is a solution
            raise RuntimeError("internal error: a generated picture contradicts its own clues")
        n_open = state.unknown_count()
        if n_open == 0 and state.grid() != picture:
            raise RuntimeError(f"internal error: line logic settled candidate {c.index} to another picture")

        def unique(p: AnyPuzzle = p, state: Any = state, picture: Picture = picture) -> bool | None:
            start = Start(state, propagated=True, known=picture)  # type: ignore[arg-type]  # (a str on a LanePuzzle)
            status = checker.settle(p, start, Limits(spec.timeout, jobs=spec.jobs)).result.status
            return True if status is Status.UNIQUE else False if status is Status.MULTIPLE else None

        yield decide(spec, n_open, unique)


def _judge_together(spec: GenerateSpec, candidates: list[Candidate]) -> Iterator[tuple[str, str]]:
    """The rectangle's fast path for black-and-white pictures without rules: every candidate
    propagated at once by :func:`satnono.lines.vector.propagate_many`, then a 2x2 switch or SAT
    (:func:`_unique`) when :func:`decide` asks."""
    h, w = spec.canvas.shape
    goals = np.stack([c.values for c in candidates])
    kb, kw = propagate_many(goals, lines=None if fits(h, w) else _checker().lines)
    open_counts = h * w - np.count_nonzero(kb | kw, axis=(1, 2))
    for j in range(len(candidates)):
        yield decide(spec, int(open_counts[j]), partial(_unique, goals[j], kb[j], kw[j], spec.timeout, spec.jobs))


def _unique(goal: np.ndarray, kb: np.ndarray, kw: np.ndarray, timeout: float | None,
            jobs: int | str = 1) -> bool | None:
    """Is the black-and-white ``goal`` the only solution, given what propagation found?
    A 2x2 switch among the open cells says no without SAT; otherwise SAT decides."""
    if switch_of(goal, ~(kb | kw)) is not None:
        return False
    other = other_solution(goal, kb, kw, timeout, jobs=jobs)
    return None if other is None else other is False
