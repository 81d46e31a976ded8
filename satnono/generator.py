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

The fast path, per chunk of candidates:

1. reject by density before computing any clue;
2. propagate all candidates of the chunk at once with a vectorised (numpy)
   complete line solver — the fixpoint of complete line solving does not
   depend on order, so this equals :func:`satnono.propagate.propagate`;
3. for a stalled candidate, look for a 2x2 switch (four open cells whose
   exchange keeps all four clues): proof of a second solution without SAT;
4. otherwise encode the residue and ask SAT for a solution other than the goal
   (phases set to the goal); unsatisfiable means unique.

A SAT call that exceeds ``timeout`` rejects its candidate (counted as
``timeout``): the only outcome that can depend on machine speed.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from .model import MAX_COLORS, MAX_SIDE, Grid, Puzzle, default_palette

REQUIREMENTS = ("line", "unique", "search", "any")
STYLES = ("noise", "smooth")
DEFAULT_DENSITY = (0.2, 0.7)
#: Default SAT time limit per candidate, seconds.
DEFAULT_TIMEOUT = 10.0
#: Longest line the vectorised engine handles (bits n+1 of a uint64 are used).
MAX_FAST_SIDE = 62

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

U64 = np.uint64


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
class _Spec:
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

    def __init__(self, spec: _Spec, count: int, workers: int, max_candidates: int | None,
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

    def __iter__(self) -> Iterator[Puzzle]:
        spec = self.spec
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
                    yield _puzzle(spec, i, cls, rows)
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
        cap = _max_chunk(self.spec)
        while limit is None or start < limit:
            st = self.stats
            rate = (st.accepted + 1) / (st.tried + 2)
            want = int((self.count - st.accepted) / rate * 1.1) + 8
            size = max(16, min(cap, want // ahead))
            stop = start + size if limit is None else min(start + size, limit)
            yield start, stop
            start = stop

    def _verdicts(self) -> Iterator[tuple[int, str, str, tuple[str, ...] | None]]:
        if self.workers <= 1 and not self.scheduler:
            for start, stop in self._chunks(1):
                yield from _evaluate(self.spec, start, stop)
            return
        from .batch import BatchError, Lost, run
        from .batch.ordered import in_order

        ahead = [2 * self.workers]

        def started(runner) -> None:  # type: ignore[no-untyped-def]
            ahead[0] = 2 * runner.slots
            if self.on_start is not None:
                self.on_start(runner)

        def items() -> Iterator[tuple[int, tuple[_Spec, int, int]]]:
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


def _evaluate_chunk(item: tuple[_Spec, int, int]) -> list[tuple[int, str, str, tuple[str, ...] | None]]:
    """The batch task of generate: :func:`_evaluate` on one chunk (runs in a worker)."""
    return _evaluate(*item)


def _max_chunk(spec: _Spec) -> int:
    # about 250k cells per vectorised batch: larger ones buy little
    return int(max(16, min(1024, 250_000 // (spec.width * spec.height))))


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
    rules = tuple(rules)
    if rules:  # bound once here, so that a rule that does not fit is refused before any work
        bound = Puzzle.from_grid(["." * width] * height, palette=default_palette(colors), rules=rules).rules
        cells = width * height
        for rule in bound:  # a count of filled cells outside the density band: no candidate could pass
            if getattr(rule, "name", "") == "count" and getattr(rule, "value", 0) is None:
                n, op = rule.n, rule.op
                if (op != ">=" and n < lo * cells - 1e-9) or (op != "<=" and n > hi * cells + 1e-9):
                    raise ValueError(f"rule {rule.text()} asks for {n} filled cells of {cells}, outside the "
                                     f"density band {lo:g}-{hi:g}; widen --density")
    spec = _Spec(width, height, seed, lo, hi, require, style, min_open, timeout, colors, rules)
    return Generation(spec, count, workers, max_candidates, scheduler)


def _puzzle(spec: _Spec, i: int, cls: str, rows: tuple[str, ...] | None) -> Puzzle:
    assert rows is not None
    meta = (("seed", str(spec.seed)), ("candidate", str(i)), ("class", cls))
    return Puzzle.from_grid(rows, palette=default_palette(spec.colors), rules=spec.rules,
                            name=f"gen-{spec.width}x{spec.height}-{spec.seed}-{i}", meta=meta)


# ---------------------------------------------------------------------------
# Drawing candidates


def draw(spec: _Spec, i: int) -> np.ndarray:
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


def _draw_filled(spec: _Spec, rng: np.random.Generator) -> np.ndarray:
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


def grid_of(a: np.ndarray) -> Grid:
    """A bool array as row strings of ``#``/``.``."""
    lut = np.array([ord("."), ord("#")], np.uint8)
    b = lut[a.astype(np.uint8)]
    return tuple(row.tobytes().decode("ascii") for row in b)


# ---------------------------------------------------------------------------
# The vectorised complete line solver (many lines of the same length at once)

_REV8 = np.array([int(f"{i:08b}"[::-1], 2) for i in range(256)], dtype=np.uint8)


def _rev64(x: np.ndarray) -> np.ndarray:
    """Bit-reverse each uint64."""
    return _REV8[x.byteswap().view(np.uint8)].view(U64)


def _nsteps(cmax: int) -> int:
    n, have = 0, 1
    while have < cmax:
        have += min(have, cmax - have)
        n += 1
    return n


def _spread(v: np.ndarray, c: np.ndarray, nsteps: int) -> np.ndarray:
    """OR of ``v`` shifted left by 0..c-1 (per element c)."""
    r = v
    have = np.ones_like(c)
    for _ in range(nsteps):
        step = np.minimum(have, c - np.minimum(c, have))
        r = r | (r << step)
        have = have + step
    return r


def _forward(cl, act, may_black, may_white, m, ar):
    """Left-to-right pass for every line: the reach sets L_0..L_kmax and start sets S_0..S_kmax-1."""
    cmax = max((int(c.max()) for c in cl), default=0)
    # runs[t][p]: cells p..p+t may all be black (one table serves every block)
    runs = np.empty((max(cmax, 1), m), U64)
    runs[0] = may_black
    for t in range(1, cmax):
        runs[t] = runs[t - 1] & (may_black >> U64(t))
    e = np.ones(m, U64)
    pw = may_white
    ls, ss = [], []
    for j, c in enumerate(cl):
        reach = ((pw + (e & pw)) ^ pw) | e
        ls.append(reach)
        s = reach & runs[np.maximum(c, U64(1)) - U64(1), ar] & (may_white >> c)
        ss.append(s)
        e = np.where(act[j], s << (c + U64(1)), e)
    ls.append(((pw + (e & pw)) ^ pw) | e)
    return ls, ss


def solve_lines(n: np.ndarray, black: np.ndarray, white: np.ndarray, clue: np.ndarray, rclue: np.ndarray,
                k: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Complete line solving of ``m`` lines (of up to 62 cells) at once.

    ``n``: the length of each line (uint64); ``black``/``white``: known cells
    per line (uint64, bit i = cell i); ``clue``/``rclue``: ``(m, kmax)``
    uint64 block lengths, left-aligned, and the same reversed per line; ``k``:
    blocks per line.  Returns the masks of cells forced black and forced white
    (known ones included).  The lines must be consistent (as when their known
    cells come from propagating a real solution).  Same method as
    :func:`satnono.linesolve.solve_line`, one numpy operation for all lines.
    """
    m, kmax = clue.shape
    one = U64(1)
    vbit = one << n
    full = vbit - one
    may_black = full & ~white
    may_white = (full & ~black) | vbit
    cl = [np.ascontiguousarray(clue[:, j]) for j in range(kmax)]
    rcl = [np.ascontiguousarray(rclue[:, j]) for j in range(kmax)]
    act = [k > j for j in range(kmax)]
    ar = np.arange(m)
    lf, sf = _forward(cl, act, may_black, may_white, m, ar)
    sh = U64(64) - n
    rmb = _rev64(may_black) >> sh
    rmw = (_rev64(may_white & full) >> sh) | vbit
    lb, sb = _forward(rcl, act, rmb, rmw, m, ar)
    can_black = np.zeros(m, U64)
    if kmax:
        sbs = np.stack(sb)
        base = U64(63) - n
        for j in range(kmax):
            c = cl[j]
            g = sbs[np.maximum(k - 1 - j, 0), ar]
            v = sf[j] & (_rev64(g) >> (base + c))  # mirror over the n - c + 1 start positions
            can_black |= np.where(act[j], _spread(v, c, _nsteps(int(c.max()))), U64(0))
    lbs = np.stack(lb)
    can_white = np.zeros(m, U64)
    for j in range(kmax + 1):
        left = (lf[j] >> one) & full
        right = _rev64((lbs[np.maximum(k - j, 0), ar] >> one) & full) >> sh
        if j == 0:
            can_white |= left & right
        else:
            can_white |= np.where(k >= j, left & right, U64(0))
    can_white &= may_white
    return full & ~can_white, full & ~can_black


def clue_arrays(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Clues of the lines of a ``(m, n)`` bool array: ``(clue, rclue, k)`` as for :func:`solve_lines`."""
    m, n = a.shape
    p = np.zeros((m, n + 2), np.int8)
    p[:, 1:-1] = a
    d = np.diff(p, axis=1)
    sl, sp = np.nonzero(d == 1)
    _, ep = np.nonzero(d == -1)
    lengths = (ep - sp).astype(U64)
    k = np.bincount(sl, minlength=m)
    kmax = int(k.max()) if m else 0
    first = np.zeros(m, np.int64)
    if m:
        first[1:] = np.cumsum(k)[:-1]
    idx = np.arange(len(sl)) - first[sl]
    clue = np.zeros((m, kmax), U64)
    clue[sl, idx] = lengths
    rclue = np.zeros((m, kmax), U64)
    rclue[sl, k[sl] - 1 - idx] = lengths
    return clue, rclue, k.astype(np.int64)


def _pad(a: np.ndarray, kmax: int) -> np.ndarray:
    out = np.zeros((a.shape[0], kmax), a.dtype)
    out[:, :a.shape[1]] = a
    return out


def pack(a: np.ndarray) -> np.ndarray:
    """Rows of a ``(m, n <= 64)`` bool array as uint64 masks (bit i = column i)."""
    m = a.shape[0]
    b = np.packbits(a, axis=1, bitorder="little")
    out = np.zeros((m, 8), np.uint8)
    out[:, :b.shape[1]] = b
    return out.view("<u8").ravel().astype(U64, copy=False)


def unpack(x: np.ndarray, n: int) -> np.ndarray:
    """uint64 masks to a ``(m, n)`` bool array (the inverse of :func:`pack`)."""
    m = x.shape[0]
    b = np.ascontiguousarray(x, dtype="<u8").view(np.uint8).reshape(m, 8)
    return np.unpackbits(b, axis=1, bitorder="little", count=n).view(bool)


def propagate_many(goals: np.ndarray, known_black: np.ndarray | None = None,
                   known_white: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Line propagation to the fixpoint for ``B`` pictures of one size at once.

    ``goals``: ``(B, h, w)`` bool, each a solution of its own clues (the clues
    are computed from it).  Optional starting knowledge ``known_*`` (cells of
    the goal revealed, e.g. givens) must agree with the goals.  Returns the
    known-black and known-white ``(B, h, w)`` arrays at the fixpoint: what
    :func:`satnono.propagate.propagate` finds (the fixpoint of complete line
    solving does not depend on the order lines are visited in).  Sides up to
    :data:`MAX_FAST_SIDE` are vectorised; larger pictures go through
    :func:`satnono.propagate.propagate` one at a time.

    Rows and columns are solved together in rounds (every dirty line of every
    picture in one vectorised call), each round from the knowledge the last
    one left.
    """
    B, h, w = goals.shape
    if max(h, w) > MAX_FAST_SIDE:
        return _propagate_scalar(goals, known_black, known_white)
    if B == 0:
        return np.zeros((0, h, w), bool), np.zeros((0, h, w), bool)
    bh = B * h
    rc, rrc, rk = clue_arrays(goals.reshape(bh, w))
    cc, rcc, ck = clue_arrays(np.ascontiguousarray(goals.transpose(0, 2, 1)).reshape(B * w, h))
    kmax = max(rc.shape[1], cc.shape[1])
    clue = np.concatenate((_pad(rc, kmax), _pad(cc, kmax)))
    rclue = np.concatenate((_pad(rrc, kmax), _pad(rcc, kmax)))
    kk = np.concatenate((rk, ck))
    lens = np.concatenate((np.full(bh, w, U64), np.full(B * w, h, U64)))
    fulls = (U64(1) << lens) - U64(1)
    mb = np.zeros(bh + B * w, U64)
    mw = np.zeros(bh + B * w, U64)
    if known_black is not None:
        mb[:bh] = pack(known_black.reshape(bh, w))
        mb[bh:] = pack(np.ascontiguousarray(known_black.transpose(0, 2, 1)).reshape(B * w, h))
    if known_white is not None:
        mw[:bh] = pack(known_white.reshape(bh, w))
        mw[bh:] = pack(np.ascontiguousarray(known_white.transpose(0, 2, 1)).reshape(B * w, h))
    dirty = np.ones(bh + B * w, bool)
    nmax = max(h, w)

    def scatter(idx: np.ndarray, bits: np.ndarray, masks: np.ndarray) -> None:
        """Copy new cells of lines ``idx`` into their crossing lines and mark those dirty."""
        sel = bits != 0
        if not sel.any():
            return
        li, pos = np.nonzero(unpack(bits[sel], nmax))
        src = idx[sel][li]
        row = src < bh
        b_r, r = np.divmod(src, h)
        b_c, c = np.divmod(src - bh, w)
        tgt = np.where(row, bh + b_r * w + pos, b_c * h + pos)
        bit = U64(1) << np.where(row, r, c).astype(U64)
        fresh = (masks[tgt] & bit) == 0  # not already found by the crossing line itself
        tgt, bit = tgt[fresh], bit[fresh]
        np.bitwise_or.at(masks, tgt, bit)
        dirty[tgt] = True

    while True:
        idx = np.flatnonzero(dirty)
        if not idx.size:
            break
        dirty[idx] = False
        bl, wh = mb[idx], mw[idx]
        open_ = (bl | wh) != fulls[idx]  # a complete line is consistent: nothing to learn
        if not open_.all():
            idx, bl, wh = idx[open_], bl[open_], wh[open_]
            if not idx.size:
                break
        k = kk[idx]
        km = int(k.max())
        fb, fw = solve_lines(lens[idx], bl, wh, clue[idx, :km], rclue[idx, :km], k)
        nb = fb & ~bl
        nw = fw & ~wh
        mb[idx] |= nb
        mw[idx] |= nw
        scatter(idx, nb, mb)
        scatter(idx, nw, mw)
    kb = unpack(mb[:bh], w).reshape(B, h, w)
    kw = unpack(mw[:bh], w).reshape(B, h, w)
    return kb, kw


def _propagate_scalar(goals, known_black, known_white):
    from .propagate import GridState, propagate

    B, h, w = goals.shape
    kb = np.zeros((B, h, w), bool)
    kw = np.zeros((B, h, w), bool)
    lines = _line_solver()
    for b in range(B):
        p = Puzzle.from_grid(grid_of(goals[b]))
        st = GridState(p)
        if known_black is not None:
            for r, c in zip(*np.nonzero(known_black[b])):
                st.set_cell(int(r), int(c), True)
        if known_white is not None:
            for r, c in zip(*np.nonzero(known_white[b])):
                st.set_cell(int(r), int(c), False)
        bad = propagate(st, lines)
        if bad is not None:
            raise ValueError("the known cells contradict the goal")
        for r in range(h):
            kb[b, r] = [(st.row_black[r] >> c) & 1 for c in range(w)]
            kw[b, r] = [(st.row_white[r] >> c) & 1 for c in range(w)]
    return kb, kw


# ---------------------------------------------------------------------------
# Proofs of a second solution: 2x2 switches

def _blocks(mask: int) -> list[tuple[int, int]]:
    """``(start, end)`` (inclusive) of each run of ones, left to right."""
    out = []
    while mask:
        s = (mask & -mask).bit_length() - 1
        run = ((mask >> s) + 1) & ~(mask >> s)
        ln = run.bit_length() - 1
        out.append((s, s + ln - 1))
        mask &= ~(((1 << ln) - 1) << s)
    return out


def _clue(mask: int) -> tuple[int, ...]:
    return tuple(e - s + 1 for s, e in _blocks(mask))


def _swaps(mask: int, n: int, open_: int) -> list[tuple[int, int]]:
    """Pairs ``(a, b)`` of open cells, a black and b white, whose exchange keeps the line's clue:
    a block shifted by one, or a 1-block moved past other 1-blocks only."""
    out = []
    for s, e in _blocks(mask):
        if e + 1 < n and not (mask >> (e + 2)) & 1 and (open_ >> s) & 1 and (open_ >> (e + 1)) & 1:
            out.append((s, e + 1))
        if s >= 1 and (s < 2 or not (mask >> (s - 2)) & 1) and (open_ >> e) & 1 and (open_ >> (s - 1)) & 1:
            out.append((e, s - 1))
        if s == e and (open_ >> s) & 1:
            b = s + 2
            while b < n:
                if (mask >> b) & 1:
                    if (mask >> (b + 1)) & 1:
                        break
                    b += 1
                    continue
                if not (mask >> (b - 1)) & 1 and not (mask >> (b + 1)) & 1 and (open_ >> b) & 1:
                    out.append((s, b))
                b += 1
            b = s - 2
            while b >= 0:
                if (mask >> b) & 1:
                    if b >= 1 and (mask >> (b - 1)) & 1:
                        break
                    b -= 1
                    continue
                if (b == 0 or not (mask >> (b - 1)) & 1) and not (mask >> (b + 1)) & 1 and (open_ >> b) & 1:
                    out.append((s, b))
                b -= 1
    return out


def find_switch(rows: Sequence[int], cols: Sequence[int], open_rows: Sequence[int],
                open_cols: Sequence[int]) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """A 2x2 switch of the goal among the open cells, or None.

    ``rows``/``cols``: the goal as int masks per row (bit c) and per column
    (bit r); ``open_*``: the cells line logic left open, the same way.
    Returns ``((r1, c1), (r2, c2))``: flipping cells (r1, c1), (r1, c2),
    (r2, c1), (r2, c2) gives another grid with the same clues (checked here by
    recomputing the four clues).
    """
    h, w = len(rows), len(cols)
    colp: list[dict[int, set[int]] | None] = [None] * w
    rowp: list[set[tuple[int, int]] | None] = [None] * h

    def cp(c: int) -> dict[int, set[int]]:
        d = colp[c]
        if d is None:
            d = {}
            for a, b in _swaps(cols[c], h, open_cols[c]) if open_cols[c] else ():
                d.setdefault(a, set()).add(b)
            colp[c] = d
        return d

    def rp(r: int) -> set[tuple[int, int]]:
        s = rowp[r]
        if s is None:
            s = rowp[r] = set(_swaps(rows[r], w, open_rows[r])) if open_rows[r] else set()
        return s

    for r1 in range(h):
        if not open_rows[r1]:
            continue
        for c1, c2 in rp(r1):
            for r2 in cp(c1).get(r1, ()):
                if (c2, c1) in rp(r2) and r1 in cp(c2).get(r2, ()):
                    fr = (1 << c1) | (1 << c2)
                    fc = (1 << r1) | (1 << r2)
                    if (_clue(rows[r1] ^ fr) == _clue(rows[r1]) and _clue(rows[r2] ^ fr) == _clue(rows[r2])
                            and _clue(cols[c1] ^ fc) == _clue(cols[c1]) and _clue(cols[c2] ^ fc) == _clue(cols[c2])):
                        return (r1, c1), (r2, c2)
    return None


def _masks(a: np.ndarray) -> list[int]:
    """Rows of a 2-D bool array as Python int masks (any width)."""
    h, w = a.shape
    if w <= 64:
        return [int(x) for x in pack(a)]
    weights = [1 << c for c in range(w)]
    return [sum(weights[c] for c in np.flatnonzero(row)) for row in a]


# ---------------------------------------------------------------------------
# SAT: is the goal the only solution?

_LINES = None


def _line_solver():
    global _LINES
    if _LINES is None:
        from .linesolve import LineSolver

        _LINES = LineSolver()
    return _LINES


def other_solution(goal: np.ndarray, kb: np.ndarray, kw: np.ndarray, timeout: float | None,
                   puzzle: Puzzle | None = None) -> Grid | bool | None:
    """Ask SAT for a solution other than ``goal`` given the propagated knowledge.

    Returns the other grid, ``False`` when the goal is the only solution, or
    ``None`` when ``timeout`` ran out.
    """
    from .encode import encode
    from .propagate import GridState
    from .sat import SatSession

    h, w = goal.shape
    if puzzle is None:
        puzzle = Puzzle.from_grid(grid_of(goal))
    st = GridState(puzzle)
    st.row_black[:] = _masks(kb)  # in place: row_black is row_ex[0]
    st.row_white[:] = _masks(kw)
    st.col_black[:] = _masks(np.ascontiguousarray(kb.T))
    st.col_white[:] = _masks(np.ascontiguousarray(kw.T))
    deadline = None if timeout is None else time.monotonic() + timeout
    enc = encode(st, _line_solver())
    if enc.unsat:  # the goal itself satisfies every clause: cannot happen
        raise RuntimeError("the goal does not satisfy its own clues")
    flat = goal.ravel()
    with SatSession(enc.clauses) as sat:
        sat.set_phases([v if flat[v - 1] else -v for v in range(1, h * w + 1)])
        sat.add_clause([-v if flat[v - 1] else v for v in enc.unknown_vars])
        r = sat.solve(deadline)
        if r is None:
            return None
        if not r:
            return False
        model = sat.model()
    other = goal.copy().ravel()
    for v in enc.unknown_vars:
        other[v - 1] = v <= len(model) and model[v - 1] > 0
    return grid_of(other.reshape(h, w))


# ---------------------------------------------------------------------------
# Judging a chunk of candidates


def _evaluate(spec: _Spec, start: int, stop: int) -> list[tuple[int, str, str, tuple[str, ...] | None]]:
    """Verdicts ``(index, verdict, class, rows)`` for candidates ``start..stop-1``, in order.

    ``verdict`` is ACCEPT, DENSITY or a rejection reason; ``rows`` is the
    picture of an accepted candidate.
    """
    if spec.colors > 1 or spec.rules:  # the vectorised engine knows black-and-white clues only
        return [_evaluate_color(spec, i) for i in range(start, stop)]
    h, w = spec.height, spec.width
    cells = h * w
    grids = []
    in_band = []
    out: list = [None] * (stop - start)
    for i in range(start, stop):
        g = draw(spec, i)
        d = int(np.count_nonzero(g))
        if not (spec.lo * cells - 1e-9 <= d <= spec.hi * cells + 1e-9):
            out[i - start] = (i, DENSITY, "", None)
            continue
        if spec.require == "any":
            out[i - start] = (i, ACCEPT, "unchecked", grid_of(g))
            continue
        grids.append(g)
        in_band.append(i)
    if grids:
        goals = np.stack(grids)
        kb, kw = propagate_many(goals)
        open_counts = cells - np.count_nonzero(kb | kw, axis=(1, 2))
        for j, i in enumerate(in_band):
            out[i - start] = (i, *_classify(spec, goals[j], kb[j], kw[j], int(open_counts[j])))
    return out


def _classify(spec: _Spec, goal: np.ndarray, kb: np.ndarray, kw: np.ndarray, n_open: int):
    req = spec.require
    if n_open == 0:
        if req == "search":
            return LINE, "", None
        return ACCEPT, "line", grid_of(goal)
    if req == "line":
        return STALLED, "", None
    if req == "search" and n_open < spec.min_open:
        return OPEN, "", None
    open_ = ~(kb | kw)
    if find_switch(_masks(goal), _masks(np.ascontiguousarray(goal.T)), _masks(open_),
                   _masks(np.ascontiguousarray(open_.T))) is not None:
        return AMBIGUOUS, "", None
    other = other_solution(goal, kb, kw, spec.timeout)
    if other is None:
        return TIMEOUT, "", None
    if other is False:
        return ACCEPT, "search", grid_of(goal)
    return AMBIGUOUS, "", None


_CHECKER = None


def _kept(spec: _Spec, i: int, g: np.ndarray, pal) -> np.ndarray:
    """Candidate ``i``'s picture changed to keep the spec's rules (their ``keep``), from ``(seed, i)`` only."""
    import random

    rules = Puzzle.from_grid(["." * spec.width] * spec.height, palette=pal, rules=spec.rules).rules
    values = np.asarray(g, dtype=np.int8).tolist()
    rng = random.Random(f"{spec.seed}-{i}-rules")
    for rule in rules:
        keep = getattr(rule, "keep", None)
        if keep is not None:
            values = keep(values, rng)
    return np.array(values, dtype=np.int8)


def _evaluate_color(spec: _Spec, i: int) -> tuple[int, str, str, tuple[str, ...] | None]:
    """The verdict on candidate ``i`` of a colour puzzle, or one with rules, through the
    library's own propagation and check (the vectorised engine is black-and-white clues only)."""
    global _CHECKER
    from .solve import Checker, Status

    if _CHECKER is None:
        _CHECKER = Checker()
    g = draw(spec, i)
    pal = default_palette(spec.colors)
    if spec.rules:
        g = _kept(spec, i, g, pal)
    cells = spec.height * spec.width
    d = int(np.count_nonzero(g))
    if not (spec.lo * cells - 1e-9 <= d <= spec.hi * cells + 1e-9):
        return i, DENSITY, "", None
    chars = np.array([c.char for c in pal])
    rows = tuple("".join(r) for r in chars[g.astype(np.int8)])
    p = Puzzle.from_grid(rows, palette=pal, rules=spec.rules)
    if spec.rules and not all(rule.accepts(rows) for rule in p.rules):
        return i, RULE, "", None
    if spec.require == "any":
        return i, ACCEPT, "unchecked", rows
    state, bad = _CHECKER.propagate(p)
    if bad is not None:  # cannot happen: the picture itself is a solution
        raise RuntimeError("internal error: a generated picture contradicts its own clues")
    n_open = state.unknown_count()
    req = spec.require
    if n_open == 0:
        return (i, LINE, "", None) if req == "search" else (i, ACCEPT, "line", rows)
    if req == "line":
        return i, STALLED, "", None
    if req == "search" and n_open < spec.min_open:
        return i, OPEN, "", None
    res = _CHECKER.check(p, spec.timeout)
    if res.status is Status.UNIQUE:
        return i, ACCEPT, "search", rows
    if res.status is Status.MULTIPLE:
        return i, AMBIGUOUS, "", None
    return i, TIMEOUT, "", None
