"""``check --scheduler ADDRESS --jobs N``: one puzzle's portfolio on a Dask cluster, with real
``dask scheduler`` / ``dask worker`` processes on 127.0.0.1 (tests/test_dask.py's Cluster).

The verdict is the one search's; the losing member is stopped (its process on the worker ends);
a worker SIGKILLed mid-run loses nothing (the other member goes on, the scheduler runs the lost
one again); Ctrl-C on the client stops the members on the workers.  Safety limits only: nothing
asserts how fast anything is."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

distributed = pytest.importorskip("distributed")
psutil = pytest.importorskip("psutil")

from test_dask import Cluster  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: a 40x33 two-colour picture whose first SAT search takes seconds (multiple solutions)
HARD = str(ROOT / "tests" / "data" / "long-search-colour.json")


@pytest.fixture(scope="module")
def cluster():
    c = Cluster()
    yield c
    c.stop()


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONUNBUFFERED="1",
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "satnono", *args], cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def _members(cluster: Cluster) -> list:
    """The member processes (``python -m satnono.portfolio``) under the cluster's workers."""
    out = []
    for nanny in cluster.workers:
        try:
            kids = psutil.Process(nanny.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            continue
        for p in kids:
            try:
                if "satnono.portfolio" in " ".join(p.cmdline()):
                    out.append(p)
            except psutil.NoSuchProcess:
                pass
    return out


def _wait_members(cluster: Cluster, proc: subprocess.Popen, n: int, limit: float = 180) -> list:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        assert proc.poll() is None, proc.communicate()
        found = _members(cluster)
        if len(found) >= n:
            return found
        time.sleep(0.05)
    raise AssertionError("the members did not start on the workers")


def _gone(procs: list, limit: float = 60) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if not [p for p in procs if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]:
            return True
        time.sleep(0.1)
    return False


def test_one_puzzle_on_the_cluster_has_the_one_searchs_verdict(cluster):
    proc = _start("check", HARD, "--scheduler", cluster.address, "--jobs", "2", "--json")
    members = _wait_members(cluster, proc, 2)
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 3, err
    d = json.loads(out)
    assert d["status"] == "multiple" and d["jobs"] == 2 and d["cpu_seconds"] > 0
    assert _gone(members)  # the loser was stopped on its worker
    assert not _members(cluster)


def test_a_worker_killed_mid_run_loses_nothing(cluster):
    proc = _start("check", HARD, "--scheduler", cluster.address, "--jobs", "2")
    members = _wait_members(cluster, proc, 2)
    victim = members[0].parent()  # the worker process running a member
    victim.kill()
    out, err = proc.communicate(timeout=900)
    assert proc.returncode == 3, err
    assert b"multiple solutions" in out and b"over 2 searches" in out
    assert _gone(members)
    cluster.wait_for_workers(2)  # (the nanny starts a new worker)
    assert not _members(cluster)


def test_ctrl_c_on_the_client_stops_the_members(cluster):
    proc = _start("check", HARD, "--scheduler", cluster.address, "--jobs", "2")
    members = _wait_members(cluster, proc, 2)
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert b"Traceback" not in err
    assert _gone(members)


def test_a_timeout_on_the_cluster_stops_the_members(cluster):
    proc = _start("check", HARD, "--scheduler", cluster.address, "--jobs", "2", "--timeout", "3", "--json")
    members = _wait_members(cluster, proc, 2)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 5, err
    d = json.loads(out)
    assert d["status"] == "unknown" and d["jobs"] == 2
    assert _gone(members)
