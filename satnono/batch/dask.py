"""The Dask back end: with :mod:`satnono.batch.dask_portfolio`, the only modules that import
dask/distributed.

``DaskRunner("tcp://host:8786")`` (or ``tls://...``) connects to a running scheduler;
``DaskRunner("local")`` / ``"local:N"`` starts a ``LocalCluster`` of N one-thread worker
processes bound to 127.0.0.1 (the only case where satnono listens on a port).  TLS settings
come from Dask's own configuration (``distributed.comm.tls.*``, e.g. the environment
variables ``DASK_DISTRIBUTED__COMM__TLS__CA_FILE``, ``..._CLIENT__CERT`` and ``..._CLIENT__KEY``).

Items are grouped in chunks of about :data:`TARGET_SECONDS` of work (measured as results come
in: tiny puzzles batched, hard ones alone), and at most :attr:`DaskRunner.window` chunks are in
flight, so a million puzzles never means a million futures.  Results come back through
``distributed.as_completed``.  A worker killed mid-task is Dask's business: the scheduler runs
the task again elsewhere (after repeated deaths it is a :class:`~satnono.batch.Lost`).  A chunk
that runs far past its items' time limits is cancelled and its items are lost as timed out.
Losing the scheduler raises :class:`~satnono.batch.BatchError` after the results that did
arrive; closing the runner with ``cancel`` (Ctrl-C) cancels every future.

One puzzle's portfolio on the cluster (``check --scheduler ADDRESS --jobs N``) is
:class:`satnono.batch.dask_portfolio.DaskPortfolio`, which runs on a :class:`DaskRunner`'s client.
"""

from __future__ import annotations

import logging
import os
import time
import uuid
from typing import Any, Callable, Iterable, Iterator, Sized

from . import BatchError, Lost, run_chunk
from .ordered import Chunker

#: Seconds of work a chunk aims at (``$SATNONO_CHUNK_SECONDS`` overrides it: raise it on a
#: large cluster to keep the scheduler under about 1,000 tasks per second).
TARGET_SECONDS = 1.0
#: Largest number of items in one chunk.
MAX_CHUNK = 1000
#: Seconds without a scheduler after which the run stops.
SCHEDULER_GRACE = 10.0
_POLL = 0.005
_HEALTH_EVERY = 0.5

_MISSING = ("--scheduler needs Dask: pip install 'satnono[dask]' (dask[distributed] is not installed)")


def _distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise BatchError(_MISSING) from None
    return distributed


def parse_local(address: str) -> int | None:
    """The number of workers of ``local`` / ``local:N`` (0: one per CPU), or None for an address.

    >>> parse_local("local:3"), parse_local("local"), parse_local("tcp://10.0.0.1:8786")
    (3, 0, None)
    """
    if address == "local":
        return 0
    if address.startswith("local:"):
        n = address[6:]
        if not n.isdigit() or int(n) < 1:
            raise BatchError(f"--scheduler {address}: expected local or local:N with N >= 1")
        return int(n)
    return None


def _target_from_env() -> float:

    value = os.environ.get("SATNONO_CHUNK_SECONDS", "")
    try:
        return float(value) if float(value) > 0 else TARGET_SECONDS
    except ValueError:
        if value:
            raise BatchError(f"SATNONO_CHUNK_SECONDS={value!r}: expected a number of seconds") from None
        return TARGET_SECONDS


def _quiet() -> None:
    """Silence the client's own logging (reconnection chatter would tear the one-line error
    and the progress bar); Dask configures its loggers one by one, so each is set."""
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado")]
    for name in ["distributed", "tornado", *names]:
        logging.getLogger(name).setLevel(logging.CRITICAL + 1)


class DaskRunner:
    """Runs items on a Dask cluster; see the module docstring."""

    def __init__(self, address: str, *, hang_after: float | None = None, window: int | None = None,
                 target: float | None = None) -> None:
        distributed = _distributed()
        _quiet()
        self.address = address
        self.hang_after = hang_after
        self.target = target or _target_from_env()
        self.cluster = None
        self._futures: dict[Any, tuple[list[tuple[int, Any]], float]] = {}
        self.counters = {"submitted": 0, "chunks": 0, "in_flight": 0, "max_in_flight": 0, "lost": 0,
                         "timed_out": 0, "largest_chunk": 0, "resubmitted": 0}
        self._tries: dict[str, int] = {}
        n = parse_local(address)
        try:
            if n is not None:
                dashboard = "127.0.0.1:0"  # a free port: several runs may share the machine
                self.cluster = distributed.LocalCluster(
                    n_workers=n or (os.cpu_count() or 1), threads_per_worker=1, processes=True,
                    host="127.0.0.1", dashboard_address=dashboard, worker_dashboard_address=None,
                    silence_logs=logging.CRITICAL)
                self.client = distributed.Client(self.cluster, set_as_default=False)
            else:
                if "://" not in address:
                    raise BatchError(f"--scheduler {address}: expected tcp://HOST:PORT, tls://HOST:PORT, "
                                     "local or local:N")
                self.client = distributed.Client(address, timeout=SCHEDULER_GRACE, set_as_default=False)
        except BatchError:
            raise
        except Exception as e:  # OSError, TimeoutError, a TLS error ...
            self._close_cluster()
            raise BatchError(f"cannot reach the Dask scheduler at {address}: {type(e).__name__}: {e}") from None
        _quiet()  # again: connecting created more loggers
        self.slots = max(1, sum(self.client.nthreads().values()))
        self.window = window or max(8, 2 * self.slots)
        self.dashboard: str | None = None
        """The dashboard's address, when the scheduler serves one."""
        try:
            if "dashboard" in self.client.scheduler_info().get("services", {}):
                self.dashboard = self.client.dashboard_link
        except Exception:
            pass
        self._token = uuid.uuid4().hex[:12]

    # -- running -------------------------------------------------------------------------

    def run(self, fn: Callable[[Any], Any], items: Iterable[tuple[int, Any]],
            chunked: bool = True) -> Iterator[tuple[int, Any]]:
        distributed = _distributed()
        left = len(items) if isinstance(items, Sized) else None  # known: the last chunks are kept small
        it = iter(items)
        chunker = Chunker(self.target, first=4, most=MAX_CHUNK) if chunked else Chunker(first=1, most=1)
        done = distributed.as_completed(loop=self.client.loop)
        exhausted = False
        last_health = time.monotonic()
        missing_since: float | None = None
        while True:
            while not exhausted and len(self._futures) < self.window:
                if left is not None:  # every worker keeps about two chunks until the end
                    chunker.size = min(chunker.size, max(1, left // (2 * self.slots)))
                chunk = chunker.take(it)
                if left is not None:
                    left -= len(chunk)
                if not chunk:
                    exhausted = True
                    break
                self._submit(done, fn, chunk)
            if exhausted and not self._futures:
                return
            if done.has_ready():
                for fut in done.next_batch(block=False):
                    yield from self._collect(fut, chunker, done, fn)
                continue
            time.sleep(_POLL)
            now = time.monotonic()
            if now - last_health >= _HEALTH_EVERY:
                last_health = now
                if self.client.status == "running":
                    missing_since = None
                else:
                    missing_since = missing_since or now
                    if now - missing_since > SCHEDULER_GRACE or self.client.status in ("closed", "closing"):
                        self._scheduler_lost()
                yield from self._hung(now)

    def _submit(self, done: Any, fn: Callable[[Any], Any], chunk: list[tuple[int, Any]]) -> None:
        key = f"satnono-{self._token}-{self.counters['chunks']}"
        fut = self.client.submit(run_chunk, fn, chunk, key=key, pure=False, retries=1)
        self._futures[fut] = (chunk, time.monotonic())
        done.add(fut)
        c = self.counters
        c["chunks"] += 1
        c["submitted"] += len(chunk)
        c["largest_chunk"] = max(c["largest_chunk"], len(chunk))
        c["in_flight"] = len(self._futures)
        c["max_in_flight"] = max(c["max_in_flight"], len(self._futures))

    def _collect(self, fut: Any, chunker: Chunker, done: Any, fn: Callable[[Any], Any]) -> Iterator[tuple[int, Any]]:
        entry = self._futures.pop(fut, None)
        self.counters["in_flight"] = len(self._futures)
        if entry is None:  # cancelled as hung: already reported
            return
        chunk, _ = entry
        if fut.status == "finished":
            try:
                seconds, pairs = fut.result()
            except Exception as e:  # the result could not be fetched
                if self.client.status != "running":
                    self._scheduler_lost(e)
                self._again(done, fn, chunk, fut)  # e.g. its worker died before it was gathered
                return
            chunker.observe(seconds, len(chunk))
            yield from pairs
            return
        if self.client.status != "running":
            self._scheduler_lost()
        if fut.status != "error":
            # cancelled, not by us; or finished and then lost with its worker before it was
            # read here (the scheduler has made it pending again): run it again, under a new key
            if fut.status != "cancelled":
                fut.cancel()
            self._again(done, fn, chunk, fut)
            return
        exc = fut.exception()
        why = (f"internal error: the worker process died on this puzzle ({type(exc).__name__})"
               if type(exc).__name__ == "KilledWorker" else f"internal error: {type(exc).__name__}: {exc}")
        self.counters["lost"] += len(chunk)
        for seq, _ in chunk:
            yield seq, Lost(why)

    def _again(self, done: Any, fn: Callable[[Any], Any], chunk: list[tuple[int, Any]], fut: Any) -> None:
        """Submit a chunk again (its result was lost on the way); a third loss ends the run."""
        tries = self._tries.get(fut.key, 0) + 1
        if tries > 2:
            raise BatchError(f"the results of a task were lost {tries} times on the Dask cluster at {self._where()}")
        self.counters["resubmitted"] += 1
        self._submit(done, fn, chunk)
        self._tries[f"satnono-{self._token}-{self.counters['chunks'] - 1}"] = tries

    def _hung(self, now: float) -> Iterator[tuple[int, Any]]:
        """Give up chunks that ran far past their items' time limits."""
        if self.hang_after is None:
            return
        queued = 1 + self.window // self.slots  # chunks that may run before this one on a worker
        for fut, (chunk, since) in list(self._futures.items()):
            if now - since <= self.hang_after * len(chunk) * queued:
                continue
            del self._futures[fut]
            self.counters["timed_out"] += len(chunk)
            self._stop(fut)
            for seq, _ in chunk:
                yield seq, Lost(f"did not finish within {self.hang_after:g} s on its Dask worker", timed_out=True)

    def _stop(self, fut: Any) -> None:
        """Cancel a hung task and restart the worker running it (a thread cannot be stopped)."""
        try:
            busy = [w for w, keys in self.client.processing().items() if fut.key in keys]
            self.client.cancel(fut, force=True)
            if busy:
                self.client.restart_workers(busy, timeout=30, raise_for_error=False)
        except Exception:
            pass

    def _scheduler_lost(self, cause: BaseException | None = None) -> None:
        why = f": {type(cause).__name__}: {cause}" if cause is not None else ""
        raise BatchError(f"lost the Dask scheduler at {self._where()}{why}; finished results are kept "
                         "(rerun with --resume to do only what is missing)")

    def _where(self) -> str:
        return self.address if self.cluster is None else "the LocalCluster"

    # -- closing -------------------------------------------------------------------------

    def close(self, cancel: bool = False) -> None:
        futures = list(self._futures)
        self._futures.clear()
        try:
            if futures and self.client.status == "running":
                self.client.cancel(futures, force=True)
        except Exception:
            pass
        try:
            self.client.close(timeout=5)
        except Exception:
            pass
        self._close_cluster()

    def _close_cluster(self) -> None:
        if self.cluster is not None:
            try:
                self.cluster.close(timeout=10)
            except Exception:
                pass
            self.cluster = None
