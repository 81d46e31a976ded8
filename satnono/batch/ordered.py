"""Putting a completion-order stream back in input order, and sizing chunks of work."""

from __future__ import annotations

import itertools
from typing import Any, Iterable, Iterator


class Reorder:
    """Results in the order of ``order`` (default 0, 1, 2, ...) from results given in any
    order: :meth:`put` holds back those that come early and returns those now due.  The push
    side of :func:`in_order`, for a caller that must act on each result as it finishes (write
    it to a resume file, count it) and print them in input order.

    >>> r = Reorder()
    >>> r.put(1, "b")
    []
    >>> r.put(0, "a")
    [(0, 'a'), (1, 'b')]
    """

    def __init__(self, order: Iterable[int] | None = None) -> None:
        self._want = iter(order) if order is not None else itertools.count()
        self._held: dict[int, Any] = {}
        self._next = next(self._want, None)

    def put(self, seq: int, result: Any) -> list[tuple[int, Any]]:
        """Take the result of ``seq``; returns the ``(seq, result)`` pairs now due, in order."""
        self._held[seq] = result
        due = []
        while self._next is not None and self._next in self._held:
            due.append((self._next, self._held.pop(self._next)))
            self._next = next(self._want, None)
        return due

    def rest(self) -> list[tuple[int, Any]]:
        """What is still held back, by ``seq`` (what the order did not name: nothing, when it
        names every item and all were put)."""
        rest = sorted(self._held.items())
        self._held.clear()
        return rest


def in_order(stream: Iterable[tuple[int, Any]], order: Iterable[int] | None = None) -> Iterator[tuple[int, Any]]:
    """Re-emit ``(seq, result)`` pairs in the order of ``order`` (default 0, 1, 2, ...),
    holding back those that finish early (see :class:`Reorder`).

    >>> list(in_order([(2, "c"), (0, "a"), (1, "b")]))
    [(0, 'a'), (1, 'b'), (2, 'c')]
    >>> list(in_order([(9, "y"), (4, "x")], [4, 9]))
    [(4, 'x'), (9, 'y')]
    """
    ordered = Reorder(order)
    for seq, result in stream:
        yield from ordered.put(seq, result)
    yield from ordered.rest()


class Chunker:
    """Chunk sizes that make one task about ``target`` seconds of work: tiny items are
    grouped, hard ones go alone.  Sizes start at ``first`` and follow the measured
    seconds per item (an exponential average over finished chunks), within ``1..most``.

    >>> c = Chunker(target=1.0, first=1, most=500)
    >>> c.size
    1
    >>> c.observe(0.01, 1); c.size   # 10 ms an item: 100 to a chunk
    100
    >>> c.observe(30.0, 100); c.size  # 0.3 s an item now
    3
    """

    def __init__(self, target: float = 1.0, first: int = 1, most: int = 1000) -> None:
        self.target = target
        self.most = most
        self.per_item: float | None = None
        self.size = first

    def observe(self, seconds: float, items: int) -> None:
        if items <= 0:
            return
        x = max(seconds / items, 1e-6)
        self.per_item = x if self.per_item is None else max(x, 0.5 * self.per_item + 0.5 * x)
        self.size = max(1, min(self.most, int(self.target / self.per_item)))

    def take(self, items: Iterator[tuple[int, Any]]) -> list[tuple[int, Any]]:
        """The next chunk from ``items`` (empty when they are exhausted)."""
        return list(itertools.islice(items, self.size))
