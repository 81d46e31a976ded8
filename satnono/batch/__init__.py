"""One batch engine: run a function over many items on some back end, results with their index.

The engine knows no verb.  A *task function* is a top-level, pure, picklable function of one
item (the item carries the puzzle data, never a path) that returns a picklable result.  A
:class:`Runner` takes ``(seq, item)`` pairs and yields ``(seq, result)`` pairs in completion
order; ``result`` is a :class:`Lost` when the item could not be run (its worker process died on
it, it raised, or it ran past its time limit).  :func:`satnono.batch.ordered.in_order` puts the
stream back in input order.

Back ends (:func:`runner_for`):

* ``inline`` (:mod:`satnono.batch.inline`): this process, one item after the other;
* ``local`` (:mod:`satnono.batch.local`): a crash-isolating pool of worker processes;
* ``dask`` (:mod:`satnono.batch.dask`): a Dask cluster, ``tcp://HOST:PORT``, ``tls://...`` or
  ``local[:N]`` (a ``LocalCluster`` on 127.0.0.1); the only module that imports dask.

Order, resume files and output stay in the parent: workers only compute.  For an interactive
caller, :class:`satnono.batch.single.SingleWorker` runs one call at a time in one worker process,
skipping (or stopping) the calls a newer request overtook: the editor's verdicts and fix
proposals.  This package is the only one that starts processes.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Generator, Any, Callable, Iterable, Iterator, Protocol

from ..errors import SatnonoError

#: The environment variable naming a Dask scheduler when ``--scheduler`` is not given.
SCHEDULER_ENV = "SATNONO_SCHEDULER"


@dataclass(frozen=True)
class Lost:
    """The result of an item that could not be run; ``reason`` says why, in one line."""

    reason: str
    timed_out: bool = False
    """True when the item ran past its time limit (else its worker died, or it raised)."""


class BatchError(SatnonoError):
    """The back end failed as a whole (the Dask extra is missing, the scheduler went away).

    Results already yielded stay valid; the message is one line.
    """


class Runner(Protocol):
    """A back end: tasks in, ``(seq, result | Lost)`` out in completion order."""

    slots: int
    """How many items run at once (worker processes or threads)."""
    counters: dict[str, int]
    """What the run cost (``submitted``, ``max_in_flight``, ...); for tests and benchmarks."""

    def run(self, fn: Callable[[Any], Any], items: Iterable[tuple[int, Any]],
            chunked: bool = True) -> Iterator[tuple[int, Any]]:
        """Apply ``fn`` to every item; items are taken from ``items`` only as room frees up
        (a bounded window), so ``items`` may be lazy or endless.  ``chunked`` lets the back
        end group cheap items into one task."""
        ...

    def close(self, cancel: bool = False) -> None:
        """Stop the workers; ``cancel``: drop what is still running (Ctrl-C, an error)."""
        ...


def run_chunk(fn: Callable[[Any], Any], chunk: list[tuple[int, Any]]) -> tuple[float, list[tuple[int, Any]]]:
    """Run ``fn`` on each ``(seq, item)`` of ``chunk`` (in a worker); returns the seconds it
    took and the ``(seq, result)`` pairs.  An exception becomes that item's :class:`Lost`."""
    t0 = time.perf_counter()
    out = []
    for seq, item in chunk:
        try:
            out.append((seq, fn(item)))
        except Exception as e:  # a bug must not take the other items of the chunk with it
            out.append((seq, Lost(f"internal error: {type(e).__name__}: {e}")))
    return time.perf_counter() - t0, out


def scheduler_from(option: str | None) -> str | None:
    """The scheduler to use: the option, else ``$SATNONO_SCHEDULER``, else None (no Dask)."""
    if option:
        return option
    return os.environ.get(SCHEDULER_ENV) or None


def runner_for(workers: int = 1, scheduler: str | None = None, *, start_method: str | None = None,
               hang_after: float | None = None) -> Runner:
    """The back end for ``workers`` local processes or a Dask ``scheduler`` address.

    ``hang_after``: seconds an item may take before it is given up as :class:`Lost` (a per-item
    time limit is honoured by the library; this only catches an item that hangs past it).
    ``start_method`` forces ``fork`` or ``spawn`` for the local pool.

    Raises:
        BatchError: the Dask extra is missing, or the scheduler cannot be reached.
    """
    if scheduler:
        from .dask import DaskRunner

        return DaskRunner(scheduler, hang_after=hang_after)
    if workers <= 1:
        from .inline import InlineRunner

        return InlineRunner()
    from .local import LocalRunner

    return LocalRunner(workers, start_method=start_method, hang_after=hang_after)


def hang_limit(timeout: float | None) -> float | None:
    """Seconds after which a task with a per-puzzle ``timeout`` is taken for hung (``hang_after``)."""
    return None if timeout is None else 2.0 * timeout + 30.0


def run(fn: Callable[[Any], Any], items: Iterable[tuple[int, Any]], *, workers: int = 1,
        scheduler: str | None = None, chunked: bool = True, start_method: str | None = None,
        hang_after: float | None = None,
        on_start: Callable[[Runner], None] | None = None) -> Generator[tuple[int, Any], None, None]:
    """Run ``fn`` over ``items`` on the back end :func:`runner_for` picks; yields
    ``(seq, result | Lost)`` as they finish (:func:`satnono.batch.ordered.in_order` puts
    them in input order).

    ``on_start(runner)`` is called once the workers exist (start a progress display there:
    local workers are forked before any display thread runs).  Closing the generator, an
    exception or Ctrl-C in the caller stops the workers and drops what was running.

    >>> sorted(run(abs, enumerate([-2, 3, -5])))
    [(0, 2), (1, 3), (2, 5)]
    """
    from ..memory import LIMIT, Limited, current

    # the memory limit goes with the work: local workers share this machine's default; a Dask
    # worker takes its own machine's unless one was given
    fn = Limited(fn, LIMIT.get() if scheduler and LIMIT.get() == "auto" else current(workers))
    runner = runner_for(workers, scheduler, start_method=start_method, hang_after=hang_after)
    clean = False
    try:
        if on_start is not None:
            on_start(runner)
        yield from runner.run(fn, items, chunked)
        clean = True
    finally:
        runner.close(cancel=not clean)


__all__ = ["BatchError", "Lost", "Runner", "SCHEDULER_ENV", "run", "run_chunk", "runner_for", "scheduler_from"]
