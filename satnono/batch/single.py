"""One worker for an interactive caller: one call at a time, overtaken requests skipped.

The editor asks for a verdict after each edit; only the answer to the latest edit matters.  A
:class:`SingleWorker` runs one kind of library call in one worker (a spawned process, or a
thread for tests), one call at a time, from an asyncio event loop.  Each request carries its
client and an edit number: a request that a newer one from the same client overtook while it
waited is skipped without running (:meth:`SingleWorker.run` returns None).  With ``preempt``
(processes only), a newer request also stops the call still running for an older one: its
worker is killed and replaced, and the older request returns None.

Each call has its own time limit inside the library; a worker still busy :data:`GRACE`
seconds past it (or one that died) is killed and replaced, and the call raises
:class:`WorkerStopped`.
"""

from __future__ import annotations

import asyncio
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable

from ..errors import SatnonoError

#: A worker still busy this long (seconds) after its call's own time limit is killed.
GRACE = 10.0
#: How many clients' latest edit numbers are remembered (pages long gone are forgotten).
CLIENTS = 64


class WorkerStopped(SatnonoError):
    """The worker overran its call's time limit by far, or died; it was replaced for the next call."""


class SingleWorker:
    """Runs one kind of call, one at a time, in one worker: ``kind`` is ``"process"`` (a spawned
    process) or ``"thread"``.

    ``warm`` (processes only) is a top-level function run in each new worker process first, so
    that the first real call does not pay for imports.  ``preempt``: a newer request from the
    same client stops the call running for an older one (processes only: a thread cannot be
    stopped).  Call :meth:`start` (optional: the first call starts the worker) and :meth:`stop`.
    """

    def __init__(self, kind: str = "process", preempt: bool = False,
                 warm: Callable[[], Any] | None = None) -> None:
        if kind not in ("process", "thread"):
            raise ValueError(f"kind must be 'process' or 'thread', not {kind!r}")
        self.kind = kind
        self.preempt = preempt and kind == "process"
        self.warm = warm
        self.executor: Executor | None = None
        self.latest: dict[str, int] = {}
        """The newest edit number asked for, per client."""
        self.running: tuple[str, int] | None = None
        """The client and edit number of the call running now."""
        self._lock: asyncio.Lock | None = None

    def start(self) -> None:
        """Start the worker (a process is warmed up with ``warm``)."""
        if self.kind == "thread":
            self.executor = ThreadPoolExecutor(1)
        else:
            self.executor = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
            if self.warm is not None:
                self.executor.submit(self.warm)

    def stop(self) -> None:
        """Stop the worker; a running call is dropped (a process is killed)."""
        if self.executor is not None:
            self._kill()
            self.executor = None

    def _kill(self) -> None:
        ex = self.executor
        if isinstance(ex, ProcessPoolExecutor):
            for p in list(getattr(ex, "_processes", {}).values()):  # no public way to stop a running call
                p.kill()
            ex.shutdown(wait=True, cancel_futures=True)  # the workers are gone: this only tidies up
        elif ex is not None:
            ex.shutdown(wait=False, cancel_futures=True)  # a thread cannot be stopped: let it run out

    def _stale(self, client: str, version: int) -> bool:
        return version < self.latest.get(client, -1)

    async def run(self, client: str, version: int, limit: float, fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` in the worker, or None when a newer request from ``client`` overtook this
        one (edit number ``version``).  ``limit`` is the call's own time limit in seconds.

        Raises:
            WorkerStopped: the worker was still busy :data:`GRACE` seconds past ``limit``, or died.
        """
        if self._stale(client, version):
            return None
        self.latest[client] = version
        if len(self.latest) > CLIENTS:  # forget pages long gone
            self.latest.pop(next(iter(self.latest)))
        if self.preempt and self.running is not None and self.running[0] == client:
            self._kill()  # the older call's answer would be dropped anyway
            self.executor = None
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            if self._stale(client, version):
                return None
            if self.executor is None:
                self.start()
            loop = asyncio.get_running_loop()
            fut = loop.run_in_executor(self.executor, fn, *args)
            self.running = (client, version)
            try:
                return await asyncio.wait_for(fut, limit + GRACE)
            except (asyncio.TimeoutError, BrokenProcessPool):
                if self._stale(client, version):
                    return None  # stopped for a newer request
                self._kill()  # a worker that overran or died is replaced for the next call
                self.executor = None
                raise WorkerStopped(f"the {fn.__name__} worker stopped responding and was restarted") from None
            finally:
                self.running = None


__all__ = ["GRACE", "SingleWorker", "WorkerStopped"]
