"""Throughput of the batch engine's back ends (issue 18): puzzles per second.

Workloads: classify on the three tournament files (nonogramrecord icga2017, icga2020,
taai2011) and ``generate --size 25x25 --require unique``.  Back ends: the local pool with 1 and
2 workers, a LocalCluster with 1 and 2 workers, and a real ``dask scheduler`` + 2
``dask worker --nthreads 1`` processes on loopback.  Times are measured from the moment the
workers exist (cluster start-up is reported apart).  The per-task overhead of a Dask back end
is its time against the local pool with the same number of workers, minus one.

Prints per workload and back end: items, seconds, items per second and the cluster's start-up
seconds; then each Dask back end's overhead against the local pool with as many workers.
Goal (issue 18): a Dask overhead under 5 % on the tournament files.

    bench.py batch --limit 200 --gen-count 50            # quick
    bench.py batch --backends local2,lc2,real --limit 0  # whole files
    bench.py batch --limit 400 --gen-count 300           # the figures of the docs

The real cluster's processes get the repository on PYTHONPATH (they import satnono from it).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import benchlib
from benchlib import ROOT

from satnono.batch.inputs import load_tasks
from satnono.classify import Options, run_batch
from satnono.generation import generate

FILES = ("icga2017.txt", "icga2020.txt", "taai2011.txt")
BACKENDS = ("local1", "local2", "lc1", "lc2", "real")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class RealCluster:
    """``dask scheduler`` + 2 ``dask worker --nthreads 1`` on 127.0.0.1."""

    def __init__(self) -> None:
        dask = Path(sys.executable).parent / "dask"
        env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        port = _free_port()
        self.address = f"tcp://127.0.0.1:{port}"
        quiet = dict(stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True, env=env)
        self.procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                                        "--dashboard-address", f"127.0.0.1:{_free_port()}", "--no-show"], **quiet)]
        self.procs += [subprocess.Popen([str(dask), "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1",
                                         "--no-dashboard"], **quiet) for _ in range(2)]
        import distributed

        with distributed.Client(self.address, timeout=60, set_as_default=False) as c:
            c.wait_for_workers(2, timeout=90)

    def stop(self) -> None:
        for p in self.procs:
            os.killpg(p.pid, signal.SIGTERM)
            p.wait()


def _where(backend: str, real: RealCluster | None) -> dict:
    return {"local1": {"workers": 1}, "local2": {"workers": 2}, "lc1": {"scheduler": "local:1"},
            "lc2": {"scheduler": "local:2"}, "real": {"scheduler": real.address if real else None}}[backend]


def bench_classify(path: Path, limit: int, where: dict) -> tuple[int, float, float]:
    """(puzzles, seconds from workers up, start-up seconds)."""
    tasks = load_tasks([str(path)])
    if limit:
        tasks = tasks[:limit]
    t0 = time.perf_counter()
    up: list[float] = []
    n = 0
    for _ in run_batch(tasks, Options(), on_start=lambda *a: up.append(time.perf_counter()), **where):
        n += 1
    t1 = time.perf_counter()
    start = (up[0] if up else t0)
    return n, t1 - start, start - t0


def bench_generate(count: int, where: dict) -> tuple[int, int, float, float]:
    """(accepted, candidates, seconds from workers up, start-up seconds)."""
    g = generate(25, 25, count=count, seed=1, require="unique", workers=where.get("workers", 1),
                 scheduler=where.get("scheduler"))
    up: list[float] = []
    g.on_start = lambda runner: up.append(time.perf_counter())
    t0 = time.perf_counter()
    n = sum(1 for _ in g)
    t1 = time.perf_counter()
    start = up[0] if up else t0
    return n, g.stats.tried, t1 - start, start - t0


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("batch", __doc__)
    ap.add_argument("--limit", type=int, default=200, help="puzzles per tournament file (0: all 1000)")
    ap.add_argument("--gen-count", type=int, default=200, help="puzzles to generate (0: skip)")
    ap.add_argument("--backends", default=",".join(BACKENDS), help=f"comma-separated subset of {', '.join(BACKENDS)}")
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)
    questions = args.corpus / benchlib.TOURNAMENT / "question"
    backends = [b for b in args.backends.split(",") if b]
    real = RealCluster() if "real" in backends else None
    rates: dict[tuple[str, str], float] = {}
    try:
        print(f"{'workload':<24}{'backend':<9}{'items':>7}{'seconds':>9}{'items/s':>9}{'start s':>9}")
        for name in FILES:
            for b in backends:
                n, secs, start = bench_classify(questions / name, args.limit, _where(b, real))
                rates[(name, b)] = n / secs
                print(f"{'classify ' + name:<24}{b:<9}{n:>7}{secs:>9.2f}{n / secs:>9.1f}{start:>9.2f}", flush=True)
        if args.gen_count:
            for b in backends:
                n, tried, secs, start = bench_generate(args.gen_count, _where(b, real))
                rates[("generate", b)] = n / secs
                print(f"{'generate 25x25 unique':<24}{b:<9}{n:>7}{secs:>9.2f}{n / secs:>9.2f}{start:>9.2f}"
                      f"  ({tried} candidates, {tried / secs:.0f}/s)", flush=True)
    finally:
        if real is not None:
            real.stop()
    print("\nDask overhead against the local pool with as many workers (time ratio - 1):")
    for (work, b), rate in sorted(rates.items()):
        base = {"lc1": "local1", "lc2": "local2", "real": "local2"}.get(b)
        if base and (work, base) in rates:
            print(f"  {work:<22}{b:<6} vs {base:<7}{100 * (rates[(work, base)] / rate - 1):+6.1f} %")
    return 0
