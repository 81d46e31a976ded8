"""The local back end: a crash-isolating pool of worker processes on this machine.

Workers take ``(seq, fn, item)`` from a queue and put back what they start and what they
finish.  A worker that dies (a crash in native code, the OOM killer, ``kill -9``) is replaced,
and the item it was running comes back as :class:`~satnono.batch.Lost`; an item running past
``hang_after`` seconds has its worker killed the same way.  Workers ignore SIGINT and SIGTERM
(the parent decides, and stops them), and are started fork-or-spawn through
:func:`satnono.interrupt.mp_context`.
"""

from __future__ import annotations

import os
import queue
import time
from typing import Any, Callable, Iterable, Iterator

from ..interrupt import children_starting, ignore_in_child, mp_context
from . import Lost

#: How long :meth:`LocalRunner.run` waits for a result before it looks at its workers.
_POLL = 0.2


def _worker_main(tasks: Any, results: Any) -> None:
    """A pool worker: run items until a None arrives (runs in a child process)."""
    # the parent decides what Ctrl-C and SIGTERM do (it kills the workers); a worker that
    # died of the signal sent to the whole process group would be taken for a crash
    ignore_in_child()
    from ..sat import leave_sigint_alone

    leave_sigint_alone()
    parent = os.getppid()
    while True:
        try:
            msg = tasks.get(timeout=1.0)
        except queue.Empty:
            if os.getppid() != parent:  # the parent died (killed): do not linger
                results.cancel_join_thread()
                os._exit(0)
            continue
        if msg is None:
            return
        seq, fn, item = msg
        results.put(("start", seq, os.getpid()))
        try:
            out: Any = fn(item)
        except Exception as e:  # a bug must not end the batch; the item says so
            out = Lost(f"internal error: {type(e).__name__}: {e}")
        results.put(("done", seq, out))


class LocalRunner:
    """``workers`` processes fed through a queue, at most ``2 * workers`` items in flight."""

    def __init__(self, workers: int, start_method: str | None = None, hang_after: float | None = None) -> None:
        self.ctx = mp_context(start_method)
        self.slots = workers
        self.hang_after = hang_after
        self.tasks = self.ctx.Queue()
        self.results = self.ctx.Queue()
        self.procs: list[Any] = []
        self.current: dict[int, tuple[int, float]] = {}  # pid -> (seq being run, since)
        self.counters = {"submitted": 0, "max_in_flight": 0, "lost": 0, "replaced": 0}
        for _ in range(workers):
            self._spawn()

    def _spawn(self) -> None:
        p = self.ctx.Process(target=_worker_main, args=(self.tasks, self.results), daemon=True)
        with children_starting():
            p.start()
        self.procs.append(p)

    def _get(self, timeout: float) -> tuple[int, Any] | None:
        """A finished ``(seq, result)`` (a :class:`Lost` when a worker died on it), or None."""
        try:
            kind, seq, payload = self.results.get(timeout=timeout)
        except queue.Empty:
            return self._check_workers()
        if kind == "start":
            self.current[payload] = (seq, time.monotonic())
            return None
        for pid, (s, _) in list(self.current.items()):
            if s == seq:
                del self.current[pid]
        return seq, payload

    def _check_workers(self) -> tuple[int, Any] | None:
        now = time.monotonic()
        for p in list(self.procs):
            hung = False
            if self.hang_after is not None and p.pid in self.current:
                hung = now - self.current[p.pid][1] > self.hang_after
                if hung and p.is_alive():
                    p.kill()
                    p.join()
            if not p.is_alive():
                self.procs.remove(p)
                lost = self.current.pop(p.pid, None)
                self.counters["replaced"] += 1
                self._spawn()
                if lost is not None:
                    self.counters["lost"] += 1
                    why = (f"did not finish within {self.hang_after:g} s (its worker was stopped)" if hung
                           else "internal error: the worker process died on this puzzle")
                    return lost[0], Lost(why, timed_out=hung)
        return None

    def run(self, fn: Callable[[Any], Any], items: Iterable[tuple[int, Any]],
            chunked: bool = True) -> Iterator[tuple[int, Any]]:
        pending = iter(items)
        inflight = 0
        limit = 2 * self.slots
        exhausted = False
        while True:
            while not exhausted and inflight < limit:
                nxt = next(pending, None)
                if nxt is None:
                    exhausted = True
                    break
                seq, item = nxt
                self.tasks.put((seq, fn, item))
                inflight += 1
                self.counters["submitted"] += 1
                self.counters["max_in_flight"] = max(self.counters["max_in_flight"], inflight)
            if exhausted and inflight == 0:
                return
            got = self._get(_POLL)
            if got is not None:
                inflight -= 1
                yield got

    def close(self, cancel: bool = False) -> None:
        if cancel:
            for p in self.procs:
                if p.is_alive():
                    p.kill()
        else:
            for _ in self.procs:
                self.tasks.put(None)
        for p in self.procs:
            p.join(timeout=5)
            if p.is_alive():
                p.kill()
                p.join()
        self.tasks.cancel_join_thread()
        self.results.cancel_join_thread()
        self.tasks.close()
        self.results.close()
