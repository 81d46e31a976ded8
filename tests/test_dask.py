"""The Dask back end with real Dask processes: a `dask scheduler` and two `dask worker
--nthreads 1` subprocesses on 127.0.0.1 (free ports), and LocalClusters.

Same records as the local pool for classify, check, count and generate; a worker SIGKILLed
mid-run (one record per puzzle); the scheduler stopped mid-run (one line, exit 7, records kept,
a rerun with --resume does only what is missing); Ctrl-C on the client (exit 130, futures
cancelled); bounded submission with 20,000 tiny puzzles; a hung task given up."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

from satnono.batch import Lost  # noqa: E402
from satnono.batch.inputs import Task  # noqa: E402
from satnono.classify import Options, run_batch  # noqa: E402
from satnono.model import Puzzle  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tournament" / "nonogramrecord" / "question"
DASK = Path(sys.executable).parent / "dask"
#: a 40x33 two-colour picture whose first SAT search takes seconds (see tests/test_interrupt.py)
HARD = str(ROOT / "tests" / "data" / "long-search-colour.json")
LONG = 1000  # puzzles in the long set


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONUNBUFFERED="1",
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """A scheduler and two one-thread workers, each its own process group."""

    def __init__(self, workers: int = 2) -> None:
        if not DASK.exists():
            pytest.skip("the dask command is not installed")
        self.address = f"tcp://127.0.0.1:{_free_port()}"
        port = self.address.rsplit(":", 1)[1]
        self.scheduler = self._start([str(DASK), "scheduler", "--host", "127.0.0.1", "--port", port,
                                      "--dashboard-address", f"127.0.0.1:{_free_port()}", "--no-show",
                                      # a cluster left behind by a killed test run stops by itself
                                      "--idle-timeout", "600"])
        self.workers = [self._start([str(DASK), "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1",
                                     "--no-dashboard", "--death-timeout", "20"]) for _ in range(workers)]
        self.wait_for_workers(workers)

    @staticmethod
    def _start(args: list[str]) -> subprocess.Popen:
        return subprocess.Popen(args, cwd=ROOT, env=_env(), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                start_new_session=True)

    def wait_for_workers(self, n: int) -> None:
        with distributed.Client(self.address, timeout=60, set_as_default=False) as c:
            c.wait_for_workers(n, timeout=90)

    def worker_process(self) -> psutil.Process:
        """A worker process proper (the nanny's child that runs tasks)."""
        for nanny in self.workers:
            for child in psutil.Process(nanny.pid).children():
                if "spawn_main" in " ".join(child.cmdline()):
                    return child
        raise AssertionError("no worker process found")

    def processing(self) -> int:
        with distributed.Client(self.address, timeout=30, set_as_default=False) as c:
            return sum(len(keys) for keys in c.processing().values())

    def stop(self) -> None:
        for p in [*self.workers, self.scheduler]:
            if p.poll() is None:
                os.killpg(p.pid, signal.SIGKILL)
            p.wait()


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()
    yield c
    c.stop()


def _set(tmp_path_factory, n: int, name: str = "icga2017.txt") -> Path:
    if not (TOURNAMENT / name).is_file():
        pytest.skip("tournament corpus not available")
    from satnono.formats import load_all

    puzzles = load_all(str(TOURNAMENT / name))[:n]
    path = tmp_path_factory.mktemp("dask") / f"set{n}.json"
    path.write_text(json.dumps([{"rows": [list(c) for c in p.rows], "columns": [list(c) for c in p.columns]}
                                for p in puzzles]))
    return path


@pytest.fixture(scope="module")
def small_set(tmp_path_factory) -> Path:
    return _set(tmp_path_factory, 24)


@pytest.fixture(scope="module")
def long_set(tmp_path_factory) -> Path:
    """Several seconds of work on two workers."""
    return _set(tmp_path_factory, LONG, "icga2020.txt")


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], cwd=ROOT, env=_env(), capture_output=True,
                          text=True, timeout=timeout)


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "satnono", *args], cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def _lines(path: Path) -> int:
    return path.read_bytes().count(b"\n") if path.exists() else 0


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, limit: float = 120) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if _lines(path) >= n:
            return
        if proc.poll() is not None:
            raise AssertionError(f"finished too early: {proc.stderr.read().decode()}")
        time.sleep(0.02)
    raise AssertionError("no progress")


def _records(text: str) -> list[dict]:
    out = []
    for line in text.splitlines():
        rec = json.loads(line)
        rec.pop("seconds", None)
        rec.pop("stats", None)
        if isinstance(rec.get("components"), list):
            for comp in rec["components"]:
                comp.pop("seconds", None)
        out.append(rec)
    return out


def _keys(path: Path) -> list[tuple]:
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""  # whole lines only
    return [(r["file"], r["index"]) for r in map(json.loads, lines[:-1])]


# --- same answers ------------------------------------------------------------------------------


@pytest.mark.parametrize("command", [["classify", "--json"], ["check", "--json"], ["count", "--json"]])
def test_real_cluster_gives_the_local_records(cluster, small_set, command):
    local = _cli(*command, "--workers", "2", str(small_set))
    remote = _cli(*command, "--scheduler", cluster.address, str(small_set))
    assert remote.returncode == local.returncode, remote.stderr
    want = [line for line in local.stdout.splitlines() if line.startswith("{")]
    got = [line for line in remote.stdout.splitlines() if line.startswith("{")]
    assert _records("\n".join(got)) == _records("\n".join(want)) and len(want) == 24


def test_scheduler_from_the_environment(cluster, small_set):
    env_run = subprocess.run([sys.executable, "-m", "satnono", "check", f"{small_set}#2"], cwd=ROOT,
                             env=dict(_env(), SATNONO_SCHEDULER=cluster.address), capture_output=True, text=True,
                             timeout=120)
    local = _cli("check", f"{small_set}#2")
    assert env_run.stdout.split("  [")[0] == local.stdout.split("  [")[0]
    assert env_run.returncode == local.returncode


def test_generate_is_byte_identical_on_a_cluster(cluster):
    args = ["generate", "--size", "12x12", "--count", "4", "--seed", "7", "--require", "unique"]
    one = _cli(*args)
    remote = _cli(*args, "--scheduler", cluster.address)
    assert remote.returncode == 0, remote.stderr
    assert remote.stdout == one.stdout and len(one.stdout.splitlines()) == 4


def test_local_cluster_gives_the_same_records_and_puzzles(small_set):
    local = _cli("classify", "--json", str(small_set))
    lc = _cli("classify", "--json", "--scheduler", "local:2", str(small_set))
    assert lc.returncode == local.returncode, lc.stderr
    assert _records(lc.stdout) == _records(local.stdout)
    args = ["generate", "--size", "10x10", "--count", "3", "--seed", "2", "--require", "search"]
    assert _cli(*args, "--scheduler", "local:1").stdout == _cli(*args).stdout


def test_timeout_is_honoured_on_workers(cluster):
    t0 = time.monotonic()
    out = _cli("classify", "--json", "--timeout", "0.5", "--scheduler", cluster.address, HARD)
    assert time.monotonic() - t0 < 60
    rec = json.loads(out.stdout.splitlines()[0])
    assert rec["class"] == "unknown" and out.returncode == 5


# --- failures ----------------------------------------------------------------------------------


def test_sigkill_of_a_worker_keeps_one_record_per_puzzle(cluster, long_set, tmp_path):
    log = tmp_path / "resume.jsonl"
    proc = _start("classify", "--json", "--resume", str(log), "--scheduler", cluster.address, str(long_set))
    _wait_for_lines(log, 20, proc)
    os.kill(cluster.worker_process().pid, signal.SIGKILL)
    assert _lines(log) < LONG  # mid-run
    _, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    keys = _keys(log)
    assert len(keys) == len(set(keys)) == LONG
    assert all(json.loads(line)["class"] != "error" for line in log.read_text().splitlines())
    cluster.wait_for_workers(2)  # the nanny restarted it


def test_scheduler_gone_is_one_line_and_a_rerun_does_only_what_is_missing(long_set, tmp_path):
    log = tmp_path / "resume.jsonl"
    first = Cluster()
    try:
        proc = _start("classify", "--json", "--resume", str(log), "--scheduler", first.address, str(long_set))
        _wait_for_lines(log, 20, proc)
        os.killpg(first.scheduler.pid, signal.SIGKILL)
        _, err = proc.communicate(timeout=120)
    finally:
        first.stop()
    assert proc.returncode == 7
    lines = [line for line in err.decode().splitlines() if not line.startswith("satnono: Dask dashboard")]
    assert len(lines) == 1 and lines[0].startswith("satnono: lost the Dask scheduler"), err
    kept = _keys(log)
    assert len(kept) == len(set(kept)) and 20 <= len(kept) < LONG
    second = Cluster()
    try:
        again = _cli("classify", "--json", "--resume", str(log), "--scheduler", second.address, str(long_set))
    finally:
        second.stop()
    assert again.returncode == 0, again.stderr
    keys = _keys(log)
    assert keys[:len(kept)] == kept and len(keys) == len(set(keys)) == LONG  # only the missing ones were added


def test_sigint_on_the_client_cancels_the_futures(cluster, long_set, tmp_path):
    log = tmp_path / "resume.jsonl"
    proc = _start("classify", "--json", "--resume", str(log), "--scheduler", cluster.address, str(long_set))
    _wait_for_lines(log, 10, proc)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "interrupted after" in err.decode()
    keys = _keys(log)  # whole lines, one per puzzle
    assert len(keys) == len(set(keys)) < LONG
    t0 = time.monotonic()
    while cluster.processing() and time.monotonic() - t0 < 10:  # cancelled: nothing left running
        time.sleep(0.2)
    assert cluster.processing() == 0


def test_bad_scheduler_address_is_one_line():
    out = _cli("check", "--scheduler", f"tcp://127.0.0.1:{_free_port()}",
               str(ROOT / "puzzles" / "webpbn" / "webpbn-00001.xml"), timeout=120)
    assert out.returncode == 7
    assert len(out.stderr.strip().splitlines()) == 1 and "cannot reach the Dask scheduler" in out.stderr


# --- the engine's own counters -----------------------------------------------------------------


def test_bounded_submission_with_20000_tiny_puzzles(cluster):
    tiny = Puzzle.from_clues(rows=[[1], []], columns=[[1], []])
    tasks = [Task(k, "tiny.json", k + 1, tiny) for k in range(20_000)]
    runners = []
    recs = dict((t.seq, r) for t, r in run_batch(tasks, Options(), scheduler=cluster.address,
                                                on_start=runners.append))
    (runner,) = runners
    c = runner.counters
    assert len(recs) == 20_000 and all(r["class"] == "line" for r in recs.values())
    assert c["submitted"] == 20_000
    assert c["max_in_flight"] <= runner.window <= 200  # never 20,000 futures
    assert c["chunks"] <= 2_000 and c["largest_chunk"] > 10  # tiny puzzles travel in chunks


def test_a_hung_task_is_given_up():
    from satnono.batch.dask import DaskRunner

    runner = DaskRunner("local:1", hang_after=1.0)
    try:
        t0 = time.monotonic()
        got = dict(runner.run(time.sleep, [(0, 0.01), (1, 600)], chunked=False))
        assert time.monotonic() - t0 < 60
    finally:
        runner.close(cancel=True)
    assert got[0] is None and isinstance(got[1], Lost) and got[1].timed_out


class _Future:
    def __init__(self, status: str, key: str, exc: BaseException | None = None) -> None:
        self.status, self.key, self._exc, self.cancelled = status, key, exc, False

    def exception(self):
        return self._exc

    def cancel(self) -> None:
        self.cancelled = True


class _Client:
    status = "running"

    def __init__(self) -> None:
        self.submitted: list[_Future] = []

    def submit(self, fn, fn_arg, chunk, key, pure, retries):
        fut = _Future("pending", key)
        fut.chunk = chunk
        self.submitted.append(fut)
        return fut


def _runner_with(client):
    from satnono.batch.dask import DaskRunner

    r = DaskRunner.__new__(DaskRunner)  # no cluster: only the bookkeeping of collected futures
    r.client, r._futures, r._tries, r._token = client, {}, {}, "t"
    r.counters = {"submitted": 0, "chunks": 0, "in_flight": 0, "max_in_flight": 0, "lost": 0,
                  "timed_out": 0, "largest_chunk": 0, "resubmitted": 0}
    return r


@pytest.mark.parametrize("status", ["pending", "lost", "cancelled"])
def test_a_chunk_lost_after_it_finished_is_run_again_not_reported(status):
    """A future that finished and then lost its worker before its result was read is pending
    again when collected; it has no exception.  It was reported as lost with "internal error:
    NoneType: None" (the test above caught it now and then); it is run again, under a new key."""
    client = _Client()
    r = _runner_with(client)
    chunk = [(0, "a"), (1, "b")]
    old = _Future(status, "satnono-t-0")
    r._futures[old] = (chunk, 0.0)
    r.counters["chunks"] = 1
    done: set = set()
    assert list(r._collect(old, None, done, len)) == []
    assert old.cancelled is (status != "cancelled")
    assert [f.chunk for f in client.submitted] == [chunk] and client.submitted[0] in done
    assert r.counters["resubmitted"] == 1 and r.counters["lost"] == 0


def test_a_chunk_that_failed_is_reported_lost_with_its_error():
    r = _runner_with(_Client())
    chunk = [(0, "a"), (1, "b")]
    bad = _Future("error", "satnono-t-0", ValueError("boom"))
    r._futures[bad] = (chunk, 0.0)
    got = list(r._collect(bad, None, set(), len))
    assert [seq for seq, _ in got] == [0, 1]
    assert all(isinstance(x, Lost) and "ValueError: boom" in str(x.reason) for _, x in got)
    assert r.counters["lost"] == 2
