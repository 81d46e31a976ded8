"""Generating puzzles that are line-solvable, unique, or unique but hard.

Generate-and-test: candidate ``i`` is a random picture drawn from an RNG seeded
by ``(seed, i)`` alone; it is kept if its density lies in the band and its
clues meet the requirement.  Candidates are accepted strictly in index order,
so the output depends only on the seed and the options, never on ``workers``
or on how candidates were grouped.

Requirements (``require``):

* ``line``: line propagation alone determines every cell (no SAT);
* ``unique``: line-solvable, or the SAT check proves the goal the only solution;
* ``search``: unique but *not* line-solvable, with at least ``min_open``
  cells left open by line logic;
* ``any``: only the density band is enforced.

Styles: ``noise`` draws a target density ``p`` uniformly from the density
band and makes each cell black with probability ``p`` (the actual density is
then checked against the band); ``smooth`` is Tatham's recipe (uniform noise,
one pass of 3x3 averaging) thresholded so that exactly ``round(p * cells)``
cells are black.  Acceptance depends mostly on density (see
``shared/guide/generation.md``): ``line``/``unique`` puzzles come from the
upper half of the default band, ``search`` puzzles mostly from 0.4-0.6, so a
narrower band makes generation faster.

The fast path, per chunk of black-and-white candidates without rules:

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

Colour candidates and candidates with rules go one at a time through the
library's own propagation and :meth:`satnono.solve.Checker.check`.  Both paths
end in the same decision tree (:func:`decide`).

A SAT call that exceeds ``timeout`` rejects its candidate (counted as
``timeout``): the only outcome that can depend on machine speed.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np

from .lines.vector import fits, grid_of, handles, propagate_many, row_masks, switch_of
from .model import BLACK, MAX_COLORS, MAX_SIDE, Grid, Puzzle, default_palette
from .lines import LineSolver, shared_solver
from .logic.state import GridState
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

#: One candidate's verdict: ``(index, verdict, class, rows)``; ``rows`` only when accepted.
Verdict = tuple[int, str, str, tuple[str, ...] | None]


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
    """Class rejections by reason: stalled, line, open, ambiguous, timeout."""
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


@dataclass(frozen=True)
class GenerateSpec:
    """Everything a worker needs to judge candidates (picklable)."""

    width: int
    height: int
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


class Generation:
    """An iterable of accepted puzzles; ``stats`` is updated as it runs.

    >>> g = generate(5, 5, count=2, seed=1)
    >>> [p.name for p in g]
    ['gen-5x5-1-0', 'gen-5x5-1-1']
    >>> g.stats.accepted
    2
    """

    #: Chunks (:meth:`_chunks`) hold at least this many candidates, and this many more than the
    #: acceptance rate says are needed.
    MIN_CHUNK = 16
    CHUNK_MARGIN = 8

    def __init__(self, spec: Any, count: int, workers: int, max_candidates: int | None,
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

    def accepted(self, i: int, cls: str, rows: Any) -> Any:
        """The puzzle of accepted candidate ``i`` (of class ``cls``; ``rows``: its picture)."""
        return _puzzle(self.spec, i, cls, rows)

    def max_chunk(self) -> int:
        """The most candidates a chunk holds."""
        return _max_chunk(self.spec)

    @staticmethod
    def chunk_task(item: tuple[Any, int, int]) -> list[Verdict]:
        """The verdicts on a chunk ``(spec, start, stop)`` (a worker's task: a module's function)."""
        return _evaluate_chunk(item)

    def __iter__(self) -> Iterator[Puzzle]:
        st = self.stats = GenerateStats()  # a fresh count for every pass
        self.exhausted = False
        t0 = time.monotonic()
        if self.count <= 0:
            return
        verdicts = self._verdicts()
        try:
            for i, verdict, cls, rows in verdicts:
                st.tried += 1
                if verdict == DENSITY:
                    st.rejected_density += 1
                elif verdict == ACCEPT:
                    st.accepted += 1
                    st.classes[cls] += 1
                    st.seconds = time.monotonic() - t0
                    yield self.accepted(i, cls, rows)
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
        large enough to amortise the vectorised calls, and about as many candidates
        as the acceptance rate seen so far says are still needed (checked in
        the order they are consumed, so little is judged in vain); ``ahead`` is the
        number of chunks in flight."""
        start = 0
        limit = self.max_candidates
        cap = self.max_chunk()
        while limit is None or start < limit:
            st = self.stats
            rate = (st.accepted + 1) / (st.tried + 2)
            want = int((self.count - st.accepted) / rate * 1.1) + self.CHUNK_MARGIN
            size = max(self.MIN_CHUNK, min(cap, want // ahead))
            stop = start + size if limit is None else min(start + size, limit)
            yield start, stop
            start = stop

    def _verdicts(self) -> Generator[Verdict, None, None]:
        if self.workers <= 1 and not self.scheduler:
            for start, stop in self._chunks(1):
                yield from self.chunk_task((self.spec, start, stop))
            return
        from .batch import BatchError, Lost, run
        from .batch.ordered import in_order

        ahead = [2 * self.workers]

        def started(runner) -> None:  # type: ignore[no-untyped-def]
            ahead[0] = 2 * runner.slots
            if self.on_start is not None:
                self.on_start(runner)

        def items() -> Iterator[tuple[int, tuple[Any, int, int]]]:
            for k, (start, stop) in enumerate(self._chunks(ahead[0])):
                yield k, (self.spec, start, stop)

        # chunks are consumed strictly in index order, so the output does not depend on the back end
        stream = run(self.chunk_task, items(), workers=self.workers, scheduler=self.scheduler, chunked=False,
                     start_method="spawn", on_start=started)
        try:
            for k, verdicts in in_order(stream):
                if isinstance(verdicts, Lost):
                    raise BatchError(f"a chunk of candidates could not be judged: {verdicts.reason}")
                yield from verdicts
        finally:
            stream.close()  # stops the workers at once


def _max_chunk(spec: GenerateSpec) -> int:
    # about 250k cells per vectorised batch: larger ones buy little
    return int(max(16, min(1024, 250_000 // (spec.width * spec.height))))


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
) -> Generation:
    """Up to ``count`` random puzzles of ``width`` x ``height`` meeting ``require``.

    Returns a :class:`Generation`: iterate it for the puzzles (each with its
    ``goal`` and a name ``gen-WxH-seed-i``, i the candidate index), read
    ``.stats`` for the counts.  The same arguments give the same puzzles,
    whatever ``workers`` is (as long as no SAT call hits ``timeout``), and on a Dask
    ``scheduler`` too (see :func:`satnono.batch.runner_for`).
    ``max_candidates`` bounds the number of candidates drawn (``None``: no bound).
    ``colors`` > 1 gives colour puzzles over :func:`satnono.model.default_palette`:
    the density band counts every non-background cell, and each filled cell
    takes a colour (independently with ``noise``, in smoothed regions with
    ``smooth``).  ``rules`` (see :mod:`satnono.rules`): each drawn picture is first
    changed to keep them (each rule's ``keep``: mirror drawing for ``symmetric``, the
    largest region for ``connected``, ...), and a puzzle is accepted only when it keeps
    every rule and meets ``require`` under them (its clues and the rules together).

    Raises:
        ValueError: an argument is out of range.
    """
    if not (isinstance(width, int) and isinstance(height, int)) or not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise ValueError(f"size must be between 1x1 and {MAX_SIDE}x{MAX_SIDE}, got {width}x{height}")
    lo, hi = check_options(count, seed, density, require, style, min_open, workers, timeout, max_candidates, colors)
    rules = tuple(rules)
    if rules:  # bound once here, so that a rule that does not fit is refused before any work
        bound = Puzzle.from_grid(["." * width] * height, palette=default_palette(colors), rules=rules).rules
        cells = width * height
        for rule in bound:  # a count of filled cells outside the density band: no candidate could pass
            if isinstance(rule, Count) and rule.op != "<=" and rule.n > cells:
                # no picture keeps it (the puzzles it binds to have no solution, not an input error)
                raise ValueError(f"rule {rule.text()} asks for {rule.n} cells, but the {width}x{height} grid "
                                 f"has {cells}: no picture keeps it")
            if isinstance(rule, Count) and rule.value is None:
                n, op = rule.n, rule.op
                if (op != ">=" and n < lo * cells - 1e-9) or (op != "<=" and n > hi * cells + 1e-9):
                    raise ValueError(f"rule {rule.text()} asks for {n} filled cells of {cells}, outside the "
                                     f"density band {lo:g}-{hi:g}; widen --density")
    spec = GenerateSpec(width, height, seed, lo, hi, require, style, min_open, timeout, colors, rules)
    return Generation(spec, count, workers, max_candidates, scheduler)


def _puzzle(spec: GenerateSpec, i: int, cls: str, rows: tuple[str, ...] | None) -> Puzzle:
    assert rows is not None
    meta = (("seed", str(spec.seed)), ("candidate", str(i)), ("class", cls))
    return Puzzle.from_grid(rows, palette=default_palette(spec.colors), rules=spec.rules,
                            name=f"gen-{spec.width}x{spec.height}-{spec.seed}-{i}", meta=meta)


# ---------------------------------------------------------------------------
# Drawing candidates


def draw(spec: GenerateSpec, i: int) -> np.ndarray:
    """Candidate ``i``: a ``(height, width)`` bool array (True = black), from ``(seed, i)`` only.

    With ``spec.colors`` > 1, an int8 array of colour indices (0 background):
    the same filled cells, then a colour for each from the same generator.
    """
    rng = np.random.default_rng([spec.seed, i])
    filled = _draw_filled(spec, rng)
    k = spec.colors
    if k == 1:
        return filled
    h, w = spec.height, spec.width
    if spec.style == "noise":
        col = rng.integers(1, k + 1, size=(h, w), dtype=np.int8)
    else:  # smooth: the colour whose smoothed noise field is highest, so colours form regions
        fields = np.stack([_box3(_box3(rng.random((h, w)))) for _ in range(k)])
        col = (np.argmax(fields, axis=0) + 1).astype(np.int8)
    return np.where(filled, col, np.int8(0))


def _draw_filled(spec: GenerateSpec, rng: np.random.Generator) -> np.ndarray:
    h, w = spec.height, spec.width
    p = rng.uniform(spec.lo, spec.hi) if spec.hi > spec.lo else spec.lo
    if spec.style == "noise":
        return rng.random((h, w)) < p
    v = _box3(rng.random((h, w)))
    k = int(round(p * h * w))
    out = np.zeros(h * w, bool)
    if k >= h * w:
        out[:] = True
    elif k > 0:
        out[np.argpartition(-v.ravel(), k - 1)[:k]] = True
    return out.reshape(h, w)


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
                   puzzle: Puzzle | None = None, lines: LineSolver | None = None) -> Grid | bool | None:
    """Ask the settle pipeline for a solution other than ``goal`` given the propagated
    knowledge (``kb``/``kw``: the cells known black and white, at the line fixpoint).

    ``lines``: the line solver to encode with (by default this process's shared one).
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
    res = checker.settle(puzzle, start, Limits(timeout)).result
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
    """The acceptance decision tree, the same for black-and-white and colour: ``(verdict, class)``.

    Asked for a candidate in the density band (and ``require`` not ``any``):
    ``n_open`` is the number of cells line propagation leaves open (0: line-solvable);
    ``unique()``, called only when the tree needs it, is True when the goal is the only
    solution, False when there is another, None when that was not settled in time.

    >>> spec = GenerateSpec(5, 5, 0, 0.2, 0.7, "search", "noise", 3, None)
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


def _in_band(spec: GenerateSpec, filled: int) -> bool:
    cells = spec.height * spec.width
    return spec.lo * cells - 1e-9 <= filled <= spec.hi * cells + 1e-9


def evaluate_chunk(spec: GenerateSpec, start: int, stop: int) -> list[Verdict]:
    """Verdicts ``(index, verdict, class, rows)`` for candidates ``start..stop-1``, in order.

    ``verdict`` is ACCEPT, DENSITY or a rejection reason; ``rows`` is the
    picture of an accepted candidate.  Black-and-white candidates without rules are
    propagated together by :func:`satnono.lines.vector.propagate_many`; the others one
    at a time by the library's own propagation and check.
    """
    blank = Puzzle.from_grid(["." * spec.width] * spec.height, palette=default_palette(spec.colors),
                             rules=spec.rules)
    if not handles(blank):
        return [_evaluate_one(spec, i) for i in range(start, stop)]
    h, w = spec.height, spec.width
    cells = h * w
    grids = []
    in_band = []
    out: list = [None] * (stop - start)
    for i in range(start, stop):
        g = draw(spec, i)
        if not _in_band(spec, int(np.count_nonzero(g))):
            out[i - start] = (i, DENSITY, "", None)
            continue
        if spec.require == "any":
            out[i - start] = (i, ACCEPT, "unchecked", grid_of(g))
            continue
        grids.append(g)
        in_band.append(i)
    if grids:
        goals = np.stack(grids)
        kb, kw = propagate_many(goals, lines=None if fits(h, w) else _checker().lines)
        open_counts = cells - np.count_nonzero(kb | kw, axis=(1, 2))
        for j, i in enumerate(in_band):
            verdict, cls = decide(spec, int(open_counts[j]), partial(_unique, goals[j], kb[j], kw[j], spec.timeout))
            out[i - start] = (i, verdict, cls, grid_of(goals[j]) if verdict == ACCEPT else None)
    return out


def _unique(goal: np.ndarray, kb: np.ndarray, kw: np.ndarray, timeout: float | None) -> bool | None:
    """Is the black-and-white ``goal`` the only solution, given what propagation found?
    A 2x2 switch among the open cells says no without SAT; otherwise SAT decides."""
    if switch_of(goal, ~(kb | kw)) is not None:
        return False
    other = other_solution(goal, kb, kw, timeout)
    return None if other is None else other is False


def _evaluate_chunk(item: tuple[GenerateSpec, int, int]) -> list[Verdict]:
    """The batch task of generate: :func:`evaluate_chunk` on one chunk (runs in a worker)."""
    return evaluate_chunk(*item)


def _kept(spec: GenerateSpec, i: int, g: np.ndarray, pal) -> np.ndarray:
    """Candidate ``i``'s picture changed to keep the spec's rules (their ``keep``), from ``(seed, i)`` only."""
    import random

    rules = Puzzle.from_grid(["." * spec.width] * spec.height, palette=pal, rules=spec.rules).rules
    values = np.asarray(g, dtype=np.int8).tolist()
    rng = random.Random(f"{spec.seed}-{i}-rules")
    for rule in rules:
        values = keep(rule, values, rng)
    return np.array(values, dtype=np.int8)


def _evaluate_one(spec: GenerateSpec, i: int) -> Verdict:
    """The verdict on candidate ``i`` of a colour puzzle, or one with rules, through the
    library's own propagation and settle pipeline (the vectorised engine is black-and-white
    clues only)."""
    checker = _checker()
    g = draw(spec, i)
    pal = default_palette(spec.colors)
    if spec.rules:
        g = _kept(spec, i, g, pal)
    if not _in_band(spec, int(np.count_nonzero(g))):
        return i, DENSITY, "", None
    chars = np.array([c.char for c in pal])
    rows = tuple("".join(r) for r in chars[g.astype(np.int8)])
    p = Puzzle.from_grid(rows, palette=pal, rules=spec.rules)
    if spec.rules and not all(rule.accepts(rows) for rule in p.rules):
        return i, RULE, "", None
    if spec.require == "any":
        return i, ACCEPT, "unchecked", rows
    state, bad = checker.propagate(p)
    if bad is not None:  # cannot happen: the picture itself is a solution
        raise RuntimeError("internal error: a generated picture contradicts its own clues")

    def unique() -> bool | None:  # the drawn picture is a solution: one SAT call looks for another
        status = checker.settle(p, Start(state, propagated=True, known=rows), Limits(spec.timeout)).result.status
        return True if status is Status.UNIQUE else False if status is Status.MULTIPLE else None

    verdict, cls = decide(spec, state.unknown_count(), unique)
    return i, verdict, cls, rows if verdict == ACCEPT else None
