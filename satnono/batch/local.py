"""The local back end: a crash-isolating pool of worker processes on this machine.

Workers take ``(seq, pickled (fn, item))`` from a shared queue and report on their own pipe
what they start and what they finish (a pipe write is synchronous, so the parent always knows
which item a worker was running).  A worker that dies (a crash in native code, the OOM killer,
``kill -9``) is replaced, and the item it was running comes back as
:class:`~satnono.batch.Lost`; an item running past ``hang_after`` seconds has its worker killed
the same way.  Workers ignore SIGINT and SIGTERM (the parent decides, and stops them), and are
started fork-or-spawn through :func:`satnono.interrupt.mp_context`.
"""

from __future__ import annotations

import os
import pickle
import queue
import time
from multiprocessing.connection import wait
from typing import Any, Callable, Iterable, Iterator

from ..interrupt import children_starting, ignore_in_child, mp_context
from . import Lost

#: How long :meth:`LocalRunner.run` waits for a report before it looks at its workers.
_POLL = 0.2


def _worker_main(tasks: Any, conn: Any) -> None:
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
                os._exit(0)
            continue
        if msg is None:
            return
        seq, blob = msg
        conn.send(("start", seq))
        try:
            fn, item = pickle.loads(blob)  # here, so that an item this process cannot load is lost, not hung
            out: Any = fn(item)
        except Exception as e:  # a bug must not end the batch; the item says so
            out = Lost(f"internal error: {type(e).__name__}: {e}")
        try:
            data = pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL)
        except Exception as e:  # a result that cannot be pickled
            data = pickle.dumps(Lost(f"internal error: {type(e).__name__}: {e}"))
        conn.send(("done", seq, data))


class _Worker:
    def __init__(self, proc: Any, conn: Any) -> None:
        self.proc = proc
        self.conn = conn
        self.seq: int | None = None
        """The item it is running."""
        self.since = 0.0


class LocalRunner:
    """``workers`` processes fed through a queue, at most ``2 * workers`` items in flight."""

    def __init__(self, workers: int, start_method: str | None = None, hang_after: float | None = None) -> None:
        self.ctx = mp_context(start_method)
        self.slots = workers
        self.hang_after = hang_after
        self.tasks = self.ctx.Queue()
        self.workers: list[_Worker] = []
        self.counters = {"submitted": 0, "max_in_flight": 0, "lost": 0, "replaced": 0}
        for _ in range(workers):
            self._spawn()

    def _spawn(self) -> None:
        recv, send = self.ctx.Pipe(duplex=False)
        p = self.ctx.Process(target=_worker_main, args=(self.tasks, send), daemon=True)
        with children_starting():
            p.start()
        send.close()
        self.workers.append(_Worker(p, recv))

    def _reports(self, timeout: float) -> Iterator[tuple[int, Any]]:
        """Finished ``(seq, result)`` pairs (a :class:`Lost` when a worker died on it)."""
        by_conn = {w.conn: w for w in self.workers}
        for ready in wait(list(by_conn), timeout):
            w = by_conn[ready]  # type: ignore[index]  # wait() hands back the connections it was given
            conn = w.conn
            try:
                msg = conn.recv()
            except (EOFError, OSError):
                yield from self._bury(w, hung=False)
                continue
            if msg[0] == "start":
                w.seq, w.since = msg[1], time.monotonic()
            else:
                w.seq = None
                yield msg[1], pickle.loads(msg[2])
        if self.hang_after is not None:
            now = time.monotonic()
            for w in list(self.workers):
                if w.seq is not None and now - w.since > self.hang_after:
                    yield from self._bury(w, hung=True)

    def _bury(self, w: _Worker, hung: bool) -> Iterator[tuple[int, Any]]:
        """Replace a dead (or hung: killed here) worker; its item is lost."""
        if w.proc.is_alive():
            w.proc.kill()
        w.proc.join()
        w.conn.close()
        self.workers.remove(w)
        self.counters["replaced"] += 1
        self._spawn()
        if w.seq is not None:
            self.counters["lost"] += 1
            why = (f"did not finish within {self.hang_after:g} s (its worker was stopped)" if hung
                   else "internal error: the worker process died on this puzzle")
            yield w.seq, Lost(why, timed_out=hung)

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
                self.tasks.put((seq, pickle.dumps((fn, item), protocol=pickle.HIGHEST_PROTOCOL)))
                inflight += 1
                self.counters["submitted"] += 1
                self.counters["max_in_flight"] = max(self.counters["max_in_flight"], inflight)
            if exhausted and inflight == 0:
                return
            for got in self._reports(_POLL):
                inflight -= 1
                yield got

    def close(self, cancel: bool = False) -> None:
        if cancel:
            for w in self.workers:
                if w.proc.is_alive():
                    w.proc.kill()
        else:
            for _ in self.workers:
                self.tasks.put(None)
        for w in self.workers:
            w.proc.join(timeout=5)
            if w.proc.is_alive():
                w.proc.kill()
                w.proc.join()
            w.conn.close()
        self.tasks.cancel_join_thread()
        self.tasks.close()
