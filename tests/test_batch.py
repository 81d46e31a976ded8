"""The batch engine (satnono.batch): inline and local back ends, order, chunking, lost items,
Ganak inside daemonic workers, check/count/classify batch mode on the command line, and the
single preemptible worker of the editor."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satnono.batch import Lost, run, runner_for, single
from satnono.batch.inline import InlineRunner
from satnono.batch.inputs import load_tasks
from satnono.batch.local import LocalRunner
from satnono.batch.ordered import Chunker, Reorder, in_order
from satnono.batch.single import SingleWorker, WorkerStopped
from satnono.classify import Options, run_batch

ROOT = Path(__file__).resolve().parents[1]
TOURNAMENT = Path(__file__).resolve().parents[2] / "shared" / "corpus" / "tournament" / "nonogramrecord" / "question"


def _double_or_die(x: int) -> int:
    """A task function: 2x, or the worker process dies (x < 0), or it raises (x == 0)."""
    if x < 0:
        os._exit(3)
    if x == 0:
        raise ValueError("zero")
    return 2 * x


def _ganak_four(_: object) -> int:
    from satnono.counting import ganak_count

    return ganak_count([[1, 2, 3]], [1, 2], timeout=60)


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _cli(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], cwd=ROOT, env=_env(), capture_output=True,
                          text=True, timeout=timeout)


@pytest.fixture(scope="module")
def small_set(tmp_path_factory) -> Path:
    """The first 30 puzzles of a tournament file as a JSON list."""
    if not (TOURNAMENT / "icga2017.txt").is_file():
        pytest.skip("tournament corpus not available")
    from satnono.formats import load_all

    puzzles = load_all(str(TOURNAMENT / "icga2017.txt"))[:30]
    path = tmp_path_factory.mktemp("batch") / "set.json"
    path.write_text(json.dumps([{"rows": [list(c) for c in p.rows], "columns": [list(c) for c in p.columns]}
                                for p in puzzles]))
    return path


def _no_seconds(text: str) -> list[dict]:
    out = []
    for line in text.splitlines():
        rec = json.loads(line)
        rec.pop("seconds", None)
        if isinstance(rec.get("components"), list):
            for comp in rec["components"]:
                comp.pop("seconds", None)
        if isinstance(rec.get("stats"), dict):
            rec.pop("stats")
        out.append(rec)
    return out


# --- order and chunks ------------------------------------------------------------------------


def test_in_order_holds_back_early_results():
    stream = [(3, "d"), (1, "b"), (0, "a"), (2, "c")]
    assert list(in_order(stream)) == [(0, "a"), (1, "b"), (2, "c"), (3, "d")]
    assert list(in_order([(7, "y"), (5, "x")], [5, 7])) == [(5, "x"), (7, "y")]
    assert list(in_order([(1, "b"), (0, "a")], [0])) == [(0, "a"), (1, "b")]  # unnamed ones last


def test_reorder_returns_what_is_due_as_results_come():
    r = Reorder(range(4))
    assert r.put(2, "c") == [] and r.put(1, "b") == []
    assert r.put(0, "a") == [(0, "a"), (1, "b"), (2, "c")]
    assert r.put(3, "d") == [(3, "d")] and r.rest() == []
    r = Reorder([5, 7])
    assert r.put(9, "z") == [] and r.put(7, "y") == [] and r.put(5, "x") == [(5, "x"), (7, "y")]
    assert r.rest() == [(9, "z")]


def test_chunker_batches_tiny_items_and_isolates_hard_ones():
    c = Chunker(target=1.0, first=4, most=1000)
    c.observe(0.004, 4)  # 1 ms an item
    assert c.size == 1000
    c.observe(5.0, 1000)  # 5 ms an item: at once to 200
    assert c.size == 200
    c.observe(20.0, 1)  # a hard item: alone
    assert c.size == 1


# --- inline and local ------------------------------------------------------------------------


def test_inline_and_local_give_the_same_results_and_lost_items():
    items = [(k, x) for k, x in enumerate([5, 0, 7, 1, 2, 3])]
    inline = dict(run(_double_or_die, items))
    local = dict(run(_double_or_die, items, workers=2))
    assert inline == local
    assert inline[0] == 10 and isinstance(inline[1], Lost) and "ValueError: zero" in inline[1].reason


def test_local_worker_death_is_one_lost_item_and_the_pool_goes_on():
    items = [(k, x) for k, x in enumerate([1, -1, 2, 3, -1, 4, 5])]
    runner = LocalRunner(2)
    try:
        got = dict(runner.run(_double_or_die, items))
    finally:
        runner.close()
    assert {k: v for k, v in got.items() if not isinstance(v, Lost)} == {0: 2, 2: 4, 3: 6, 5: 8, 6: 10}
    assert all(isinstance(got[k], Lost) and "died" in got[k].reason for k in (1, 4))
    assert runner.counters["lost"] == 2 and runner.counters["max_in_flight"] <= 4


def test_local_hung_item_is_lost_as_timed_out():
    t0 = time.monotonic()
    got = dict(run(time.sleep, [(0, 0.01), (1, 60)], workers=2, hang_after=1.0))
    assert time.monotonic() - t0 < 20
    assert got[0] is None and isinstance(got[1], Lost) and got[1].timed_out


def test_window_is_bounded_with_an_endless_input():
    import itertools

    runner = LocalRunner(2)
    try:
        stream = runner.run(abs, ((k, -k) for k in itertools.count()))
        first = [next(stream) for _ in range(500)]
        stream.close()
    finally:
        runner.close(cancel=True)
    assert len(first) == 500 and runner.counters["max_in_flight"] <= 4
    assert runner.counters["submitted"] <= 504


def test_runner_for_picks_the_back_end():
    assert isinstance(runner_for(1), InlineRunner)
    r = runner_for(2)
    try:
        assert isinstance(r, LocalRunner) and r.slots == 2
    finally:
        r.close()


def test_ganak_runs_inside_daemonic_pool_workers():
    """Ganak is a plain subprocess: a multiprocessing child cannot start in a daemonic worker."""
    got = dict(run(_ganak_four, [(0, None), (1, None)], workers=2))
    assert got == {0: 4, 1: 4}


def test_classify_inline_and_local_records_agree(small_set):
    tasks = load_tasks([str(small_set)])
    one = {t.seq: r for t, r in run_batch(tasks, Options())}
    two = {t.seq: r for t, r in run_batch(tasks, Options(), workers=2)}
    for recs in (one, two):
        for r in recs.values():
            r.pop("seconds")
    assert one == two and len(one) == 30


# --- the command line ------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["check", "count"])
def test_check_and_count_workers_match_one_process(small_set, command):
    a = _cli(command, "--json", str(small_set), f"{small_set}#3")
    b = _cli(command, "--json", "--workers", "2", str(small_set), f"{small_set}#3")
    assert a.returncode == b.returncode
    assert _no_seconds(a.stdout) == _no_seconds(b.stdout) and len(a.stdout.splitlines()) == 31


def test_check_workers_text_and_unreadable_input(small_set, tmp_path):
    bad = tmp_path / "bad.non"
    bad.write_text("width 3\nheight x\n")
    a = _cli("check", str(bad), f"{small_set}#1", f"{small_set}#2")
    b = _cli("check", "--workers", "2", str(bad), f"{small_set}#1", f"{small_set}#2")
    assert a.returncode == b.returncode == 6
    strip = [line.split("  [")[0] for line in a.stdout.splitlines()]
    assert strip == [line.split("  [")[0] for line in b.stdout.splitlines()] and len(strip) == 2
    assert a.stderr.splitlines()[0] == b.stderr.splitlines()[0]


def test_scheduler_without_the_extra_is_one_line():
    code = ("import sys; sys.modules['distributed'] = None\n"
            "from satnono.cli import main\n"
            "sys.exit(main(['classify', '--scheduler', 'tcp://127.0.0.1:9', sys.argv[1]]))")
    out = subprocess.run([sys.executable, "-c", code, str(ROOT / "puzzles" / "webpbn" / "webpbn-00001.xml")],
                         cwd=ROOT, env=_env(), capture_output=True, text=True, timeout=60)
    assert out.returncode == 7
    assert out.stderr.strip().splitlines() == [
        "satnono: --scheduler needs Dask: pip install 'satnono[dask]' (dask[distributed] is not installed)"]


# --- one worker for an interactive caller (the editor) ----------------------------------------


def test_single_worker_skips_overtaken_requests_and_replaces_a_stuck_worker(monkeypatch):
    async def scenario():
        worker = SingleWorker("thread")
        worker.start()
        first = asyncio.create_task(worker.run("c", 1, 1.0, time.sleep, 0.3))
        await asyncio.sleep(0.05)
        second = asyncio.create_task(worker.run("c", 2, 1.0, lambda: "two"))
        third = asyncio.create_task(worker.run("c", 3, 1.0, lambda: "three"))
        out = await asyncio.gather(first, second, third)
        worker.stop()
        return out

    assert asyncio.run(scenario()) == [None, None, "three"]

    monkeypatch.setattr(single, "GRACE", 0.5)

    async def stuck():
        worker = SingleWorker("process")
        worker.start()
        try:
            with pytest.raises(WorkerStopped, match="the sleep worker stopped responding and was restarted"):
                await worker.run("c", 1, 0.0, time.sleep, 30)
            return await worker.run("c", 2, 5.0, abs, -4)
        finally:
            worker.stop()

    t0 = time.monotonic()
    assert asyncio.run(stuck()) == 4
    assert time.monotonic() - t0 < 20


def test_single_worker_a_newer_request_stops_an_older_running_call():
    async def scenario():
        worker = SingleWorker("process", preempt=True)
        worker.start()
        try:
            t0 = time.monotonic()
            old = asyncio.create_task(worker.run("c", 1, 60.0, time.sleep, 30))
            await asyncio.sleep(1.0)
            new = await worker.run("c", 2, 60.0, abs, -7)
            return await old, new, time.monotonic() - t0
        finally:
            worker.stop()

    old, new, seconds = asyncio.run(scenario())
    assert old is None and new == 7 and seconds < 20


def test_single_worker_kinds():
    with pytest.raises(ValueError, match="kind"):
        SingleWorker("processes")
    assert not SingleWorker("thread", preempt=True).preempt  # a thread cannot be stopped
    assert SingleWorker("process", preempt=True).preempt
