"""One line at a time: the line kernels, behind one cache and one dispatch.

A line is a :class:`~satnono.clues.LineClue`, its length ``n`` and what is
known of its cells: ``excluded[v]``, the mask of cells known *not* to have
colour ``v`` (``v = 0`` the background; bit ``i`` = cell ``i``).  In black and
white ``excluded = (black, white)``: the cells that are not background are the
black ones, the cells that are not black the white ones.

:meth:`LineSolver.solve` answers, for any kind of clue, every colour each cell
can no longer have and the valid start positions of each block (or ``None``
when no placement fits).  The kind picks the kernel:

* ``bw`` and ``color``: :func:`~satnono.lines.color.solve_color_line`, which
  passes lines of one block colour to the black-and-white kernel
  :func:`~satnono.lines.bw.solve_line`;
* ``blotted`` (a length is hidden): :func:`~satnono.lines.blotted.solve_range_line`,
  the same DP with a length range per block.

Every kernel is complete for its line (generalised arc consistency).  The
kernels are pure functions of ints; the cache is the only state, one per
:class:`LineSolver`, and :func:`shared_solver` is the one per process that
workers use.
"""

from __future__ import annotations

from typing import NamedTuple, Protocol

from .bits import Mask, known_of, spread
from .bw import Clue, LineResult, solve_line
from .color import ColorLineResult, solve_color_line

__all__ = ["Clue", "ColorLineResult", "LineResult", "LineSolver", "Mask", "Solved", "SolvesLines", "known_of",
           "shared_solver", "solve_clue", "solve_color_line", "solve_line", "spread"]


class SolvesLines(Protocol):
    """What a line driver needs of a solver: :meth:`LineSolver.solve` (a budgeted wrapper has it too)."""

    def solve(self, clue, n: int, excluded: tuple[Mask, ...]) -> Solved | ColorLineResult | LineResult | None: ...


class Solved(NamedTuple):
    """What one line implies, whatever its kind: ``excluded``, per colour index (0 the
    background), every cell no placement gives that colour; ``starts``, per block, its valid
    start cells; ``ends``, per block, its valid last cells (blotted lines only; elsewhere start
    + length - 1)."""

    excluded: tuple[Mask, ...]
    starts: tuple[Mask, ...]
    ends: tuple[Mask, ...] | None = None


class LineSolver:
    """The line kernels with one result cache.

    :meth:`solve` takes any clue; ``solver(clue, n, black, white)`` is the
    black-and-white call and :meth:`color` the colour call, kept for their many
    callers.  All three share one dict (their keys cannot collide: they differ in
    shape).  One instance can serve many puzzles; the cache is bounded by
    ``max_entries`` (cleared wholesale when full, which keeps the hot path a single
    dict lookup).
    """

    __slots__ = ("_cache", "max_entries", "calls", "hits")

    def __init__(self, max_entries: int = 1 << 20) -> None:
        self._cache: dict[tuple, object] = {}
        self.max_entries = max_entries
        self.calls = 0
        self.hits = 0

    def _store(self, key: tuple, value: object) -> None:
        cache = self._cache
        if len(cache) >= self.max_entries:
            cache.clear()
        cache[key] = value

    def solve(self, clue, n: int, excluded: tuple[Mask, ...]) -> Solved | ColorLineResult | LineResult | None:
        """Solve one line of any kind (see the module's docstring); cached.

        The result has ``excluded`` and ``starts`` (and ``ends`` on a blotted line).
        """
        self.calls += 1
        if len(excluded) == 2 and not clue.blots:
            # two values and no blot (black and white), the hot case: the black-and-white
            # kernel's own entry (the colours are all 1), whose result reads as ``excluded`` too
            black, white = excluded
            key: tuple = (clue.lengths, n, black, white)
            cache = self._cache
            try:
                r = cache[key]
                self.hits += 1
                return r  # type: ignore[return-value]
            except KeyError:
                pass
            r = solve_line(clue.lengths, n, black, white)
            if len(cache) >= self.max_entries:  # _store, inlined: this is the hot path
                cache.clear()
            cache[key] = r
            return r
        key = (clue, n, excluded)
        try:
            r = self._cache[key]
            self.hits += 1
            return r  # type: ignore[return-value]
        except KeyError:
            pass
        out = solve_clue(clue, n, excluded)
        self._store(key, out)
        return out

    def color(self, lengths: Clue, colors: tuple[int, ...], n: int,
              excluded: tuple[Mask, ...]) -> ColorLineResult | None:
        """:func:`solve_color_line`, cached."""
        self.calls += 1
        key = (lengths, colors, n, excluded)
        try:
            r = self._cache[key]
            self.hits += 1
            return r  # type: ignore[return-value]
        except KeyError:
            pass
        r = solve_color_line(lengths, colors, n, excluded)
        self._store(key, r)
        return r

    def __call__(self, clue: Clue, n: int, black: Mask, white: Mask) -> LineResult | None:
        """:func:`solve_line` (black and white), cached."""
        self.calls += 1
        key = (clue, n, black, white)
        try:
            r = self._cache[key]
            self.hits += 1
            return r  # type: ignore[return-value]
        except KeyError:
            pass
        r = solve_line(clue, n, black, white)
        self._store(key, r)
        return r


def solve_clue(clue, n: int, excluded: tuple[Mask, ...]) -> Solved | ColorLineResult | None:
    """:meth:`LineSolver.solve` without a cache: the kernel for ``clue``'s kind."""
    if not clue.blots:
        return solve_color_line(clue.lengths, clue.colors, n, excluded)
    from .blotted import solve_range_line

    lo, hi = clue.ranges(n)
    res = solve_range_line(lo, hi, clue.colors, n, excluded)
    return None if res is None else Solved(res.excluded, res.starts, res.ends)


_SHARED: LineSolver | None = None


def shared_solver() -> LineSolver:
    """The line solver of this process, for callers that keep none of their own (workers,
    the editor's lanes): one cache per process instead of one per module."""
    global _SHARED
    if _SHARED is None:
        _SHARED = LineSolver()
    return _SHARED
