"""Classification of puzzles and corpora: classes, probing, batches, the resume file, CLI."""

from __future__ import annotations

import csv
import io
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from satnono.batch.inputs import discover, load_tasks
from satnono.batch.resume import ResultLog, ResumeFileError
from satnono.classify import CLASSES, Options, classify_puzzle, run_batch, summarize
from satnono.cli import main
from satnono.lines import LineSolver
from satnono.model import Puzzle
from satnono.logic.propagate import propagate
from satnono.logic.state import GridState

from _oracles import probe  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

LINE = ["##.##", "#....", "#...#", "..#.#", "....#"]
PROBE = ["##...", "..#.#", "#..#.", "#.##.", ".###."]  # unique, not line-solvable, probing solves it
MULTIPLE = ["#.", ".#"]


def _non(p: Puzzle) -> str:
    rows = "\n".join(" ".join(map(str, r)) or "0" for r in p.rows)
    cols = "\n".join(" ".join(map(str, c)) or "0" for c in p.columns)
    return f"width {p.width}\nheight {p.height}\nrows\n{rows}\ncolumns\n{cols}\n"


def _json_set(puzzles: list[Puzzle]) -> str:
    return json.dumps([{"rows": [list(r) for r in p.rows], "columns": [list(c) for c in p.columns]}
                       for p in puzzles])


# --------------------------------------------------------------------------
# One puzzle


def test_classes():
    assert classify_puzzle(Puzzle.from_grid(LINE))["class"] == "line"
    rec = classify_puzzle(Puzzle.from_grid(PROBE))
    assert rec["class"] == "search" and rec["count"] == 1 and rec["count_exact"]
    assert rec["unknown_after_line"] > 0 and rec["level"] is None
    rec = classify_puzzle(Puzzle.from_grid(MULTIPLE))
    assert rec["class"] == "multiple" and rec["count"] == 2 and not rec["count_exact"]
    rec = classify_puzzle(Puzzle.from_grid(MULTIPLE), max_solutions=3)
    assert rec["count"] == 2 and rec["count_exact"]
    assert classify_puzzle(Puzzle.from_clues([[2], [1]], [[1], [1, 1]]))["class"] == "none"
    big = Puzzle.from_grid(["".join(random.Random(r).choice("#.") for _ in range(40)) for r in range(40)])
    rec = classify_puzzle(big, timeout=1e-6)
    assert rec["class"] == "unknown" and rec["reason"]


def test_max_caps_the_count():
    p = Puzzle.from_clues([[1]] * 5, [[1]] * 5)  # 120 solutions
    rec = classify_puzzle(p, max_solutions=2)
    assert rec["class"] == "multiple" and rec["count"] == 2 and not rec["count_exact"]
    rec = classify_puzzle(p, max_solutions=500)
    assert rec["count"] == 120 and rec["count_exact"]


def test_probing_levels():
    assert classify_puzzle(Puzzle.from_grid(LINE), probing=True)["level"] == "line"
    rec = classify_puzzle(Puzzle.from_grid(PROBE), probing=True)
    assert rec["level"] == "probe" and rec["unknown_after_probe"] == 0
    assert classify_puzzle(Puzzle.from_grid(MULTIPLE), probing=True)["level"] is None


def test_probe_keeps_cells_it_cannot_settle():
    # A lone 2x2 switch: both values of every cell propagate without contradiction.
    p = Puzzle.from_grid(MULTIPLE)
    state = GridState(p)
    lines = LineSolver()
    propagate(state, lines)
    assert probe(state, lines) is None and state.unknown_count() == 4


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
def test_probing_level_search_on_a_dom_puzzle():
    from satnono.formats import load

    rec = classify_puzzle(load(str(CORPUS / "webpbn-survey" / "dom" / "6-dom.xml")), probing=True, timeout=30)
    # depth-1 probing cannot settle it: the level is probe2 or search (a lower bound when the budget ran out)
    assert rec["class"] == "search" and rec["level"] in ("probe2", "search") and rec["unknown_after_probe"] > 0
    assert rec["level_exact"] in (True, False) and rec["grade"]


# --------------------------------------------------------------------------
# Inputs and summary


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "a.non").write_text(_non(Puzzle.from_grid(LINE)))
    (tmp_path / "sub" / "set.json").write_text(_json_set([Puzzle.from_grid(PROBE), Puzzle.from_grid(MULTIPLE)]))
    (tmp_path / "sub" / "deeper" / "none.non").write_text(_non(Puzzle.from_clues([[2], [1]], [[1], [1, 1]])))
    (tmp_path / "sub" / "broken.non").write_text("width 2\nheight 1\nrows\nx\n")
    (tmp_path / "README.md").write_text("# notes\nby hand, rows and columns\n")
    (tmp_path / "LICENSE").write_text("MIT\n\nby someone\n")
    (tmp_path / "table.csv").write_text("a,b\n1,2\n")
    (tmp_path / "colour.xml").write_text(
        '<?xml version="1.0"?><puzzleset><puzzle type="grid" defaultcolor="black">'
        '<color name="white" char=".">FFFFFF</color><color name="black" char="X">000000</color>'
        '<color name="red" char="r">FF0000</color>'
        '<clues type="columns"><line><count>1</count></line><line><count color="red">1</count></line></clues>'
        '<clues type="rows"><line><count>1</count><count color="red">1</count></line></clues>'
        '</puzzle></puzzleset>')
    return tmp_path


def test_discover_walks_directories_and_skips_non_puzzles(tree):
    found = [os.path.relpath(p, tree) for p in discover([str(tree)])]
    assert found == ["a.non", "colour.xml", os.path.join("sub", "broken.non"), os.path.join("sub", "set.json"),
                     os.path.join("sub", "deeper", "none.non")]


def test_batch_classes_and_summary(tree):
    tasks = load_tasks([str(tree)])
    assert [(os.path.basename(t.file), t.index) for t in tasks] == [
        ("a.non", None), ("colour.xml", None), ("broken.non", None), ("set.json", 1), ("set.json", 2),
        ("none.non", None)]
    recs = {(os.path.basename(t.file), t.index): r for t, r in run_batch(tasks, Options())}
    assert {k: r["class"] for k, r in recs.items()} == {
        ("a.non", None): "line", ("colour.xml", None): "line", ("broken.non", None): "error",
        ("set.json", 1): "search", ("set.json", 2): "multiple", ("none.non", None): "none"}
    assert "broken.non:4" in recs[("broken.non", None)]["reason"]  # file and line
    s = summarize(recs.values())
    assert s["puzzles"] == 6 and s["unique"] == 3 and s["line_solvable"] == 2
    assert s["classes"] == {"line": 2, "search": 1, "multiple": 1, "none": 1, "unknown": 0, "error": 1}
    assert s["line_solvable_share_of_unique"] == pytest.approx(2 / 3)


def test_workers_give_the_same_results_as_one_process(tmp_path):
    rng = random.Random(4)
    puzzles = [Puzzle.from_grid(["".join(rng.choice("#.") for _ in range(7)) for _ in range(7)]) for _ in range(30)]
    f = tmp_path / "set.json"
    f.write_text(_json_set(puzzles))
    tasks = load_tasks([str(f)])
    one = {t.index: r for t, r in run_batch(tasks, Options())}
    two = {t.index: r for t, r in run_batch(tasks, Options(), workers=2)}
    strip = lambda r: {k: v for k, v in r.items() if k != "seconds"}  # noqa: E731
    assert sorted(one) == sorted(two) == list(range(1, 31))
    assert all(strip(one[i]) == strip(two[i]) for i in one)


# --------------------------------------------------------------------------
# The resume file


def test_result_log_drops_a_torn_last_line(tmp_path):
    path = tmp_path / "log.jsonl"
    good = [{"file": "a", "index": 1, "class": "line"}, {"file": "a", "index": 2, "class": "none"}]
    path.write_text("".join(json.dumps(r) + "\n" for r in good) + '{"file": "a", "ind')
    log = ResultLog(str(path))
    assert log.dropped == 1 and len(log.records) == 2
    log.append({"file": "a", "index": 3, "class": "multiple"})
    log.close()
    lines = path.read_text().splitlines()
    assert [json.loads(line)["index"] for line in lines] == [1, 2, 3]


def test_result_log_rewrites_a_file_with_a_bad_middle_line(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"file": "a", "index": 1, "class": "line"}\nnot json\n\n[1, 2]\n'
                    '{"file": "a", "index": "x", "class": "line"}\n{"file": "a", "index": 2, "class": "none"}')
    log = ResultLog(str(path))
    # the last line parses but has no newline: it may be torn mid-number, so it is redone
    assert set(log.records) == {(os.path.realpath("a"), 1)} and log.dropped == 4
    log.append({"file": "a", "index": 2, "class": "search"})
    log.close()
    lines = path.read_text().splitlines(keepends=True)
    assert all(line.endswith("\n") for line in lines)
    assert [json.loads(x)["index"] for x in lines] == [1, 2]  # valid JSON lines again


def test_result_log_forgets_records_of_an_old_interrupted_sat_call(tmp_path):
    path = tmp_path / "log.jsonl"
    path.write_text('{"file": "a", "index": 1, "class": "line"}\n'
                    '{"file": "a", "index": 2, "class": "error", "reason": "internal error: error: '
                    'Caught keyboard interrupt"}\n')
    log = ResultLog(str(path))
    log.close()
    assert set(log.records) == {(os.path.realpath("a"), 1)} and log.dropped == 1


def test_result_log_takes_every_classify_class(tmp_path):
    # the resume file's default classes are classify's: one record of each is kept
    assert ResultLog.classes == CLASSES
    path = tmp_path / "log.jsonl"
    path.write_text("".join(json.dumps({"file": "a", "index": k + 1, "class": c}) + "\n" for k, c in enumerate(CLASSES)))
    log = ResultLog(str(path))
    log.close()
    assert log.dropped == 0 and [r["class"] for r in log.records.values()] == list(CLASSES)


@pytest.mark.parametrize("content", [bytes(range(256)) * 3, b"width 2\nheight 1\n", b"\x00\n\n{}\n"])
def test_result_log_refuses_a_file_that_is_not_a_resume_file(tmp_path, content):
    path = tmp_path / "log.jsonl"
    path.write_bytes(content)
    with pytest.raises(ResumeFileError, match="not a satnono resume file"):
        ResultLog(str(path))
    assert path.read_bytes() == content  # untouched


def test_cli_resume_with_damaged_files(tmp_path, capsys):
    f = tmp_path / "a.non"
    f.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    log = tmp_path / "r.jsonl"
    log.write_bytes(bytes(range(1, 256)))
    assert main(["classify", str(f), "--resume", str(log), "--json"]) == 6
    err = capsys.readouterr().err
    assert "not a satnono resume file" in err and err.count("\n") == 1
    assert log.read_bytes() == bytes(range(1, 256))
    other = tmp_path / "b.non"
    other.write_text("width 1\nheight 1\nrows\n0\ncolumns\n0\n")
    log.write_text(json.dumps({"file": str(other), "index": None, "class": "line"}) + "\n\x00garbage\n")
    assert main(["classify", str(f), "--resume", str(log), "--json"]) == 0
    err = capsys.readouterr().err
    assert "dropped 1 damaged line" in err
    records = [json.loads(x) for x in log.read_text().splitlines()]
    assert [r["file"] for r in records] == [str(other), str(f)]


def _random_set(tmp_path: Path, n: int, size: int = 10) -> Path:
    rng = random.Random(12)
    puzzles = [Puzzle.from_grid(["".join("#" if rng.random() < 0.5 else "." for _ in range(size))
                                 for _ in range(size)]) for _ in range(n)]
    f = tmp_path / "set.json"
    f.write_text(_json_set(puzzles))
    return f


def _start(args: list[str], cwd: Path) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", "satnono", *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)


def _wait_for_lines(path: Path, n: int, proc: subprocess.Popen, limit: float = 60) -> None:
    t0 = time.monotonic()
    while time.monotonic() - t0 < limit:
        if path.exists() and path.read_bytes().count(b"\n") >= n:
            return
        if proc.poll() is not None:
            raise AssertionError(f"finished too early: {proc.stderr.read().decode()}")
        time.sleep(0.005)
    raise AssertionError("no progress")


def _check_log(path: Path, n: int) -> None:
    lines = path.read_bytes().split(b"\n")
    assert lines[-1] == b""  # ends with a newline: no partial line
    records = [json.loads(line) for line in lines[:-1]]  # every line is valid JSON
    keys = [(r["file"], r["index"]) for r in records]
    assert len(keys) == len(set(keys)) == n  # nothing lost, nothing duplicated
    assert sorted(k[1] for k in keys) == list(range(1, n + 1))


@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGINT])
def test_resume_survives_an_interruption(tmp_path, sig):
    n = 300
    f = _random_set(tmp_path, n)
    log = tmp_path / "log.jsonl"
    args = ["classify", str(f), "--workers", "2", "--resume", str(log), "--json"]
    proc = _start(args, tmp_path)
    _wait_for_lines(log, 20, proc)
    os.killpg(proc.pid, sig)  # the whole process group, like a crash or Ctrl-C in a terminal
    proc.communicate(timeout=30)
    if sig == signal.SIGINT:
        assert proc.returncode == 130
    done_before = log.read_bytes().count(b"\n")
    assert 20 <= done_before < n
    if sig == signal.SIGKILL:
        with open(log, "ab") as fh:  # a write torn by the crash
            fh.write(b'{"file": "' + str(f).encode() + b'", "index": 9')
    proc = _start(args, tmp_path)
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    _check_log(log, n)
    # the output of the resumed run lists every puzzle, in input order
    assert [json.loads(line)["index"] for line in out.decode().splitlines()] == list(range(1, n + 1))
    assert b"classify summary" in err


# --------------------------------------------------------------------------
# CLI


def test_cli_text_output_and_summary(tree, capsys):
    code = main(["classify", str(tree)])
    out = capsys.readouterr()
    assert code == 6  # unreadable inputs
    assert "classify summary" in out.out and "line-solvable: 2 of them" in out.out
    assert "a.non: line" in out.out and "colour.xml: line" in out.out and "set.json#2: multiple" in out.out
    assert "broken.non:4" in out.err and "error" not in out.out.split("classify summary")[0]
    assert "Traceback" not in out.err


def test_cli_json_keeps_stdout_machine_readable(tree, capsys):
    main(["classify", "--json", str(tree / "sub")])
    out = capsys.readouterr()
    records = [json.loads(line) for line in out.out.splitlines()]
    assert [r["class"] for r in records] == ["error", "search", "multiple", "none"]
    assert "classify summary" in out.err and "classify summary" not in out.out


def test_cli_csv(tree, capsys):
    main(["classify", "--csv", "--probe", str(tree / "sub" / "set.json")])
    rows = list(csv.DictReader(io.StringIO(capsys.readouterr().out)))
    assert [(r["index"], r["class"], r["level"]) for r in rows] == [("1", "search", "probe"), ("2", "multiple", "")]


def test_cli_usage_and_missing_input(tmp_path, capsys):
    assert main(["classify", "--json", "--csv", str(tmp_path)]) == 2
    assert main(["classify", str(tmp_path / "nope.non")]) == 6
    err = capsys.readouterr().err
    assert "nope.non" in err and "Traceback" not in err


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
def test_corpus_colour_files_are_classified(capsys):
    code = main(["classify", "--json", str(CORPUS / "webpbn-survey" / "webpbn-color-00047.xml"),
                 str(CORPUS / "jwilk-nonogram" / "data" / "data001.nin")])
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert code == 0  # colour puzzles are classified like the others: no unreadable input
    assert records[0]["class"] == "line"
    assert records[1]["class"] == "multiple"


def test_result_log_rewrite_is_atomic(tmp_path, monkeypatch):
    """A crash while a damaged resume file is rewritten leaves the old file as it was."""
    import satnono.formats as formats

    path = tmp_path / "log.jsonl"
    original = '{"file": "a", "index": 1, "class": "line"}\nnot json\n'
    path.write_text(original)

    def crash(*args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(formats.os, "replace", crash)
    with pytest.raises(OSError):
        ResultLog(str(path))
    assert path.read_text() == original
    assert os.listdir(tmp_path) == ["log.jsonl"]  # no temporary file left
