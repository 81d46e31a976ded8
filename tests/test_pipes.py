"""Pipes: a directory walk never opens what is not a regular file (a named pipe would block it
until a writer came), it skips it with a one-line note and goes on; a pipe named on the command
line (a FIFO, bash's ``<(...)``) is read as a stream, once, its format told from its bytes.

Every satnono run here is a subprocess with a timeout: a regression (a walk or a second read
blocked on a pipe) fails with ``TimeoutExpired`` instead of hanging the suite.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GUARD = 60  # seconds: a hang guard, not a timing

pytestmark = pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")

# A unique puzzle, one with two solutions (a 2x2 diagonal), and the two as one webpbn puzzleset.
UNIQUE = "width 2\nheight 1\nrows\n2\ncolumns\n1\n1\n"
TWO = "width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n"
SET = """<?xml version="1.0"?>
<puzzleset>
<puzzle type="grid"><clues type="columns"><line><count>1</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>2</count></line></clues></puzzle>
<puzzle type="grid"><clues type="columns"><line><count>1</count></line><line><count>1</count></line></clues>
<clues type="rows"><line><count>1</count></line><line><count>1</count></line></clues></puzzle>
</puzzleset>
"""


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def _satnono(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], cwd=cwd, env=_env(),
                          capture_output=True, text=True, timeout=GUARD)


def _bash(script: str, cwd: Path) -> subprocess.CompletedProcess:
    """``script`` run by bash, with ``satnono`` a function running this tree's satnono."""
    prelude = f'satnono() {{ "{sys.executable}" -m satnono "$@"; }}\n'
    return subprocess.run(["bash", "-c", prelude + script], cwd=cwd, env=_env(), capture_output=True,
                          text=True, timeout=GUARD)


def _rows(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines()]


@contextmanager
def _writer(fifo: Path, text: str):
    """A thread writing ``text`` into the named pipe ``fifo`` once (opening it waits for a reader)."""
    t = threading.Thread(target=fifo.write_text, args=(text,), daemon=True)
    t.start()
    try:
        yield t
    finally:
        t.join(GUARD)
        if t.is_alive():  # nobody read the pipe: open it for reading once, so that the writer ends
            fd = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
            t.join(GUARD)
            os.close(fd)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A directory with two puzzles, two named pipes (one with a puzzle suffix), a socket and a
    dangling symbolic link."""
    d = tmp_path / "d"
    d.mkdir()
    (d / "a.non").write_text(UNIQUE)
    (d / "b.non").write_text(TWO)
    os.mkfifo(d / "p")
    os.mkfifo(d / "q.non")
    (d / "gone.non").symlink_to(d / "missing.non")
    s = socket.socket(socket.AF_UNIX)
    try:
        s.bind(str(d / "s.non"))
    except OSError:  # a path too long for a socket's address: the test goes without one
        pass
    finally:
        s.close()
    return d


def test_a_walk_skips_pipes_sockets_and_dangling_links_with_a_note(tree: Path):
    r = _satnono("classify", "--json", str(tree), cwd=tree.parent)
    assert r.returncode == 0, r.stderr
    rows = _rows(r.stdout)
    assert [(Path(row["file"]).name, row["class"]) for row in rows] == [("a.non", "line"), ("b.non", "multiple")]
    notes = [line for line in r.stderr.splitlines() if line.startswith("satnono:")]
    expected = [f"satnono: {tree / 'gone.non'}: skipped: not a regular file (a dangling symbolic link to "
                f"{tree / 'missing.non'})",
                f"satnono: {tree / 'p'}: skipped: not a regular file (a named pipe)",
                f"satnono: {tree / 'q.non'}: skipped: not a regular file (a named pipe)"]
    if (tree / "s.non").exists():
        expected.append(f"satnono: {tree / 's.non'}: skipped: not a regular file (a socket)")
    assert notes == expected


def test_discover_tells_its_note_and_yields_only_regular_files(tree: Path):
    code = ("import json, sys\nfrom satnono.batch.inputs import discover\nnotes = []\n"
            "print(json.dumps([list(discover([sys.argv[1]], note=notes.append)), notes]))")
    r = subprocess.run([sys.executable, "-c", code, str(tree)], cwd=tree.parent, env=_env(), capture_output=True,
                       text=True, timeout=GUARD)  # in a subprocess: a walk that opens a pipe blocks
    assert r.returncode == 0, r.stderr
    found, notes = json.loads(r.stdout)
    assert [Path(p).name for p in found] == ["a.non", "b.non"]
    assert [n.split(": skipped: ")[0] for n in notes] == [str(tree / n) for n in sorted(os.listdir(tree))
                                                          if n not in ("a.non", "b.non")]


@pytest.mark.parametrize("verb, expect", [("check", "unique"), ("count", "1 solution"), ("classify", "line")])
def test_a_named_pipe_on_the_command_line_is_read_as_a_stream(verb, expect, tmp_path: Path):
    fifo = tmp_path / "pipe"  # no suffix: the format is told from the bytes
    os.mkfifo(fifo)
    with _writer(fifo, UNIQUE):
        r = _satnono(verb, str(fifo), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"{fifo}: {expect}"), r.stdout


@pytest.mark.parametrize("args", [["#1", "#2"], ["", "#2"], ["#2", ""]], ids=["k-k", "whole-k", "k-whole"])
@pytest.mark.parametrize("verb", ["check", "classify"])
def test_a_named_pipe_is_read_once_for_all_its_selectors(verb, args, tmp_path: Path):
    """One writer, one pass over the pipe: a second open would wait for a writer for ever."""
    fifo = tmp_path / "set"
    os.mkfifo(fifo)
    with _writer(fifo, SET):
        r = _satnono(verb, "--json", *(f"{fifo}{a}" for a in args), cwd=tmp_path)
    rows = _rows(r.stdout)
    status = "status" if verb == "check" else "class"
    want = {1: "unique" if verb == "check" else "line", 2: "multiple"}

    def expected(a: str) -> list[tuple]:
        if not a:
            return [(str(fifo), 1, want[1]), (str(fifo), 2, want[2])]
        k = int(a[1:])  # check names FILE#k's puzzle (FILE, k); classify names the input as given
        return [(str(fifo), k, want[k]) if verb == "check" else (f"{fifo}{a}", None, want[k])]

    assert [(row["file"], row["index"], row[status]) for row in rows] == [e for a in args for e in expected(a)]
    assert r.returncode == (3 if verb == "check" else 0), r.stderr


@pytest.mark.skipif(shutil.which("bash") is None or not os.path.isdir("/dev/fd"), reason="needs bash and /dev/fd")
@pytest.mark.parametrize("verb, expect", [("check", "unique"), ("count", "1 solution"), ("classify", "line")])
def test_process_substitution(verb, expect, tmp_path: Path):
    (tmp_path / "u").write_text(UNIQUE)
    r = _bash(f"satnono {verb} <(cat u)", tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("/dev/fd/") and f": {expect}" in r.stdout.splitlines()[0], r.stdout
    webpbn = ROOT / "puzzles" / "webpbn" / "webpbn-00065.xml"
    if webpbn.exists():
        r = _bash(f"satnono {verb} <(cat '{webpbn}')", tmp_path)
        assert r.returncode == 0 and r.stdout.startswith("/dev/fd/"), r.stderr


@pytest.mark.skipif(shutil.which("bash") is None or not os.path.isdir("/dev/fd"), reason="needs bash and /dev/fd")
def test_one_process_substitution_read_once_for_a_selector_and_the_whole(tmp_path: Path):
    """A second read of the same /dev/fd/N would find the pipe empty."""
    (tmp_path / "set.xml").write_text(SET)
    r = _bash("exec 3< <(cat set.xml); satnono check --json /dev/fd/3#2 /dev/fd/3", tmp_path)
    assert [(row["index"], row["status"]) for row in _rows(r.stdout)] == [
        (2, "multiple"), (1, "unique"), (2, "multiple")], r.stderr
    assert r.returncode == 3


@pytest.mark.skipif(shutil.which("bash") is None or not os.path.isdir("/dev/fd"), reason="needs bash and /dev/fd")
def test_a_resume_file_never_takes_a_pipes_puzzle_for_another_runs(tmp_path: Path):
    """``<(...)`` is /dev/fd/63 in every run, a named pipe the same path whatever is written into
    it: their puzzles are run again, while a regular file's are resumed."""
    (tmp_path / "u.non").write_text(UNIQUE)
    (tmp_path / "t.non").write_text(TWO)
    log = tmp_path / "r.jsonl"
    first = _bash("satnono classify --json --resume r.jsonl <(cat u.non) u.non", tmp_path)
    assert [row["class"] for row in _rows(first.stdout)] == ["line", "line"], first.stderr
    again = _bash("satnono classify --json --resume r.jsonl <(cat t.non) u.non", tmp_path)
    assert [row["class"] for row in _rows(again.stdout)] == ["multiple", "line"], again.stderr
    assert len(log.read_text().splitlines()) == 3  # u.non's result was taken from the file
    fifo = tmp_path / "p"
    os.mkfifo(fifo)
    for text, cls in ((UNIQUE, "line"), (TWO, "multiple")):
        with _writer(fifo, text):
            r = _satnono("classify", "--json", "--resume", str(log), str(fifo), cwd=tmp_path)
        assert [row["class"] for row in _rows(r.stdout)] == [cls], r.stderr
