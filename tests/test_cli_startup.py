"""The ``satnono`` command's front door (issue 38): a console entry point, ``satnono.cli:main``
(``[project.scripts]``), which ``python -m satnono`` runs too; the plainest command lines skip click (see tests/test_cli_quick.py)."""

from __future__ import annotations

import io
import os
import subprocess
import sys

import pytest
from conftest import PUZZLES, ROOT

from satnono.cli import main
from satnono.cli.common import Bar

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

DANCER = str(PUZZLES / "webpbn" / "webpbn-00001.xml")  # unique, line-solvable
MULTI = str(PUZZLES / "jwilk" / "data001.nin")  # several solutions


def _satnono(*args: str, **kwargs) -> subprocess.CompletedProcess:  # type: ignore[no-untyped-def]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True, text=True, env=env,
                          stdin=subprocess.DEVNULL, timeout=120, **kwargs)


@pytest.fixture()
def files(tmp_path):
    none = tmp_path / "none.non"
    none.write_text("width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n")
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": [[1]], "columns": ')
    tiny = tmp_path / "tiny.json"
    tiny.write_text('{"rows": [[1]], "columns": [[1]]}\n')
    return {"none": str(none), "bad": str(bad), "tiny": str(tiny)}


def test_the_command_is_a_console_entry_point():
    """pyproject.toml declares the command (no hand-written script, no scripts in setup.py)."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)["project"]
    assert project["scripts"] == {"satnono": "satnono.cli:main"}
    assert "scripts" not in project.get("dynamic", [])
    assert not (ROOT / "satnono" / "cli" / "bin").exists()
    assert "scripts=" not in (ROOT / "setup.py").read_text()


def test_main_is_the_command(files, capsys):
    """What the console script calls: the exit code is returned, the output printed."""
    assert main(["check", files["tiny"], MULTI]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{files['tiny']}: unique (line-solvable)")
    assert out[1].startswith(f"{MULTI}: multiple solutions")
    assert main(["check", "--bogus", files["tiny"]]) == 2


def test_python_m_satnono_runs_the_command(files, tmp_path):
    r = _satnono("check", files["tiny"], cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout.startswith(f"{files['tiny']}: unique (line-solvable)"), r.stderr
    r = _satnono("--version", cwd=str(tmp_path))
    assert r.returncode == 0 and r.stdout.startswith("satnono ")


def test_exit_codes_of_the_command(files):
    assert _satnono("check", files["tiny"]).returncode == 0
    assert _satnono("check", MULTI).returncode == 3
    assert _satnono("check", files["none"]).returncode == 4
    r = _satnono("check", files["bad"], files["tiny"])
    assert r.returncode == 6 and r.stderr.startswith(f"satnono: {files['bad']}") and len(r.stderr.splitlines()) == 1
    r = _satnono("check")
    assert r.returncode == 2 and "Usage:" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("count", [1, 300])
def test_a_closed_stdout_ends_with_code_1_and_no_traceback(count):
    """``satnono check ... | head -0``: the reader has gone; the command stops quietly with code 1."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.Popen([sys.executable, "-m", "satnono", "check", *[DANCER] * count], stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 1
    assert err == ""


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("show, total, shown", [
    (None, 1, False), (None, 2, True), (True, 1, True), (False, 5, False),
])
def test_the_default_bar_needs_a_terminal_and_more_than_one_puzzle(monkeypatch, show, total, shown):
    """By default (no --progress/--no-progress) a terminal gets a bar only for several puzzles, so a
    one-puzzle check never loads rich; --progress still shows one for a single puzzle."""
    monkeypatch.setattr(sys, "stderr", _Terminal())
    bar = Bar("check", show)
    bar.start(total)
    try:
        assert (bar.progress is not None) == shown
    finally:
        bar.stop()
