"""``--jobs N|auto`` on the command line: check, solve and count with a portfolio of searches.

Its output (wall and CPU seconds, ``cpu_seconds`` and ``jobs`` in JSON; ``--jobs 1`` as without
the option), usage errors, and no process left behind after a timeout, Ctrl-C or SIGTERM to the
process group, or the command killed outright (its members die with it).  Safety limits only:
nothing asserts how fast anything is."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

psutil = pytest.importorskip("psutil")

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
#: a 40x33 two-colour picture whose first SAT search takes seconds (see tests/test_interrupt.py)
HARD = str(ROOT / "tests" / "data" / "long-search-colour.json")


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONUNBUFFERED="1",
                PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], cwd=ROOT, env=_env(), capture_output=True,
                          text=True, timeout=600)


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "satnono", *args], cwd=ROOT, env=_env(), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)


def _members_of(proc: subprocess.Popen, n: int, limit: float = 120) -> list:
    """The ``n`` member processes of the CLI process ``proc``, once they exist."""
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        assert proc.poll() is None, proc.communicate()
        kids = psutil.Process(proc.pid).children(recursive=True)
        if len(kids) >= n:
            return kids
        time.sleep(0.02)
    proc.kill()
    raise AssertionError("the members did not start")


def _gone(procs: list, limit: float = 30) -> bool:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        alive = [p for p in procs if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
        if not alive:
            return True
        time.sleep(0.05)
    return False


def test_cli_jobs_output_and_usage():
    path = str(PUZZLES / "dom" / "12-dom.xml")
    one = _cli("check", path, "--json")
    also_one = _cli("check", path, "--json", "--jobs", "1")
    strip = lambda out: {k: v for k, v in json.loads(out).items() if k != "seconds"}  # noqa: E731
    assert strip(one.stdout) == strip(also_one.stdout) and "cpu_seconds" not in one.stdout
    two = _cli("check", path, "--json", "--jobs", "2")
    d = json.loads(two.stdout)
    assert two.returncode == 0 and d["status"] == "unique" and d["jobs"] == 2 and d["cpu_seconds"] > 0
    assert list(d)[list(d).index("seconds") + 1] == "cpu_seconds"
    text = _cli("check", path, "--jobs", "auto")
    assert text.returncode == 0 and " s CPU" in text.stdout
    solved = _cli("solve", path, "--jobs", "2", "--ascii")
    assert solved.returncode == 0 and solved.stdout.startswith(path + ": unique")
    counted = _cli("count", path, "--jobs", "2", "--json")
    assert counted.returncode == 0 and json.loads(counted.stdout)["count"] == 1
    assert "cpu_seconds" in json.loads(counted.stdout)
    for bad in (["--jobs", "0"], ["--jobs", "x"], ["--jobs", "2", "--workers", "2"]):
        r = _cli("check", path, *bad)
        assert r.returncode == 2, (bad, r.stderr)
    assert _cli("count", path, "--jobs", "2", "--scheduler", "local:1").returncode == 2


def test_cli_timeout_leaves_no_process():
    proc = _start("check", HARD, "--jobs", "2", "--timeout", "3")
    kids = _members_of(proc, 2)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 5, err
    assert b"unknown" in out and b"over 2 searches" in out
    assert _gone(kids)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM])
def test_cli_signal_to_the_group_leaves_no_process(sig):
    proc = _start("check", HARD, "--jobs", "2")
    kids = _members_of(proc, 2)
    os.killpg(proc.pid, sig)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], err
    assert b"Traceback" not in err
    assert _gone(kids)


def test_members_die_with_their_parent():
    proc = _start("check", HARD, "--jobs", "2")
    kids = _members_of(proc, 2)
    proc.kill()  # SIGKILL: no clean-up in the parent at all
    proc.communicate(timeout=60)
    assert _gone(kids)


def test_diagnose_and_fix_take_jobs():
    """diagnose and fix: the same verdicts and ambiguity region with --jobs 2 as with one, the CPU
    of every process in --json and beside the time in diagnose's text."""
    for path in (PUZZLES / "jwilk" / "data001.nin", PUZZLES / "dom" / "12-dom.xml"):
        one = _cli("diagnose", str(path), "--json")
        two = _cli("diagnose", str(path), "--json", "--jobs", "2")
        assert one.returncode == two.returncode, two.stderr
        d1, d2 = json.loads(one.stdout), json.loads(two.stdout)
        assert "cpu_seconds" not in d1 and d2["cpu_seconds"] > 0
        assert (d1["status"], d1["ambiguous"], d1["ambiguity_complete"]) == \
            (d2["status"], d2["ambiguous"], d2["ambiguity_complete"])
        fixed = _cli("fix", str(path), "--json", "--jobs", "2")
        assert fixed.returncode == _cli("fix", str(path), "--json").returncode, fixed.stderr
        f = json.loads(fixed.stdout)
        assert f["status"] == d1["status"] and f["cpu_seconds"] > 0
    text = _cli("diagnose", str(PUZZLES / "dom" / "12-dom.xml"), "--jobs", "2")
    assert " s CPU]" in text.stdout.splitlines()[0]


def test_generate_takes_jobs():
    """generate --jobs 2: the same puzzles, byte for byte, as with one job (a candidate's verdict
    does not depend on which search gives it); the CPU on the closing line; not with --workers."""
    args = ("generate", "--size", "12x12", "--count", "3", "--seed", "5", "--require", "search", "--colors", "2")
    one, two = _cli(*args), _cli(*args, "--jobs", "2")
    assert one.returncode == two.returncode == 0, two.stderr
    assert one.stdout == two.stdout and one.stdout.count("\n") == 3
    assert " s CPU" in two.stderr and " s CPU" not in one.stderr
    assert _cli(*args, "--jobs", "2", "--workers", "2").returncode == 2
