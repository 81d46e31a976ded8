"""One puzzle's portfolio (:mod:`satnono.portfolio`, ``check --scheduler ADDRESS --jobs N``) on a
Dask cluster: :class:`DaskPortfolio` runs each member as a task (:func:`member_task`) that runs its
search in a child process of the worker and stops it when the run's stop event is set.

It sits below :mod:`satnono.solve` and :mod:`satnono.portfolio` (whose searches it runs), on a
:class:`~satnono.batch.dask.DaskRunner` of the batch engine above them.
"""

from __future__ import annotations

import time
import uuid
from contextlib import suppress
from typing import Any

from . import BatchError
from .dask import _POLL, DaskRunner, _distributed

#: Seconds between two looks of a member task at its stop event (and its cancellation).
MEMBER_POLL = 0.25
#: Seconds the client waits for the tasks of a finished portfolio to stop and report their CPU.
STOP_WAIT = 3.0


class DaskPortfolio:
    """A portfolio's members (:mod:`satnono.portfolio`) as tasks on a Dask cluster: one monster
    puzzle, many machines.  Each task runs its member from the start in a child process of its
    worker (``python -m satnono.portfolio``: encode, try, go on), and stops it when the run's
    stop event (a ``distributed.Event``) is set or the task is cancelled: a running Dask task
    cannot be killed from the client, a child process can.  The first answer wins; then the
    event is set and the other tasks cancelled.  A worker that dies takes its member's process
    with it (``PR_SET_PDEATHSIG``); the scheduler runs the task again elsewhere while the other
    members go on.  Close it (or use it as a context manager) to disconnect."""

    def __init__(self, address: str) -> None:
        self.runner = DaskRunner(address)
        self.client = self.runner.client

    @property
    def slots(self) -> int:
        """The cluster's threads: what ``--jobs auto`` stands for on it."""
        return self.runner.slots

    def __enter__(self) -> DaskPortfolio:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.runner.close(cancel=True)

    def run(self, search: Any, members: list[Any]) -> Any:
        distributed = _distributed()
        from ..portfolio import FRESH_GRACE, Referee, Request

        token = uuid.uuid4().hex[:12]
        stop = distributed.Event(f"satnono-portfolio-{token}", client=self.client)
        referee = Referee(search, len(members))
        futures = {}
        for k, member in enumerate(members):
            fut = self.client.submit(member_task, Request.of(search, member), stop.name,
                                     key=f"satnono-member-{token}-{k}", pure=False, retries=2)
            futures[fut] = k
        done = distributed.as_completed(list(futures), loop=self.client.loop)
        deadline = None if search.deadline is None else search.deadline + FRESH_GRACE
        cpu = 0.0
        finished: set[Any] = set()
        try:
            over = False
            while not over:
                if deadline is not None and time.monotonic() >= deadline:
                    break
                if self.client.status != "running":
                    self._lost()
                if not done.has_ready():
                    time.sleep(_POLL)
                    continue
                for fut in done.next_batch(block=False):
                    finished.add(fut)
                    k = futures[fut]
                    if fut.status == "finished":
                        seconds, messages = fut.result()
                        cpu += seconds
                        for message in messages:
                            over = referee.take(k, message) or over
                            if message[0] in ("done", "error"):
                                break
                        else:  # (a member process that died on its worker)
                            over = referee.lost(k, "ended without an answer on its Dask worker") or over
                    else:
                        exc = fut.exception() if fut.status == "error" else None
                        why = f"failed on the Dask cluster ({type(exc).__name__ if exc else fut.status})"
                        over = referee.lost(k, why) or over
                    if over:
                        break
                if len(finished) == len(futures):
                    break
        finally:
            cpu += self._stop(stop, [f for f in futures if f not in finished])
        return referee.outcome(cpu)

    def _stop(self, stop: Any, running: list[Any]) -> float:
        """Stop the member tasks still running (their CPU seconds, for those that report in time)."""
        if not running:
            with suppress(Exception):
                stop.clear()  # (nobody looks at it any more: the scheduler forgets it)
            return 0.0
        distributed = _distributed()
        cpu = 0.0
        with suppress(Exception):
            stop.set()
            result = distributed.wait(running, timeout=STOP_WAIT)
            for fut in result.done:
                if fut.status == "finished":
                    cpu += fut.result()[0]
            if not result.not_done:
                stop.clear()
        with suppress(Exception):
            self.client.cancel(running, force=True)
        return cpu

    def _lost(self) -> None:
        raise BatchError(f"lost the Dask scheduler at {self.runner._where()}")


def member_task(request: Any, stop: str) -> tuple[float, list[tuple[str, Any]]]:
    """A portfolio member on a Dask worker (the task function): the member runs in a child process
    (``python -m satnono.portfolio``) until it answers, the event ``stop`` is set, the task is
    cancelled, or its time (and some) has passed.  Returns the child's CPU seconds and its
    messages (``first``, then ``done`` or ``error``)."""
    from multiprocessing.connection import Connection

    from ..portfolio import FRESH_GRACE, spawn, stop as stop_member

    distributed = _distributed()
    pids: list[int] = []
    messages: list[tuple[str, Any]] = []
    cpu = 0.0
    try:
        _, fd = spawn(request, pids.append)
        conn = Connection(fd, writable=False)
        event = distributed.Event(stop)
        end = None if request.seconds is None else time.monotonic() + request.seconds + 2 * FRESH_GRACE
        try:
            while end is None or time.monotonic() < end:
                if conn.poll(MEMBER_POLL):
                    try:
                        message = conn.recv()
                    except EOFError:
                        break
                    messages.append(message)
                    if message[0] in ("done", "error"):
                        break
                elif event.is_set() or _cancelled():
                    break
        finally:
            conn.close()
    finally:
        for pid in pids:
            cpu = stop_member(pid)
    return cpu, messages


def _cancelled() -> bool:
    """Whether the task running in this thread was cancelled (its client went away)."""
    try:
        worker = _distributed().worker
        ts = worker.get_worker().state.tasks.get(worker.thread_state.key)
        return ts is None or ts.state in ("cancelled", "released")
    except Exception:  # (not in a task, or another distributed: only the event counts)
        return False
