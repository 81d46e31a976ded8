"""Start-up of the command line (issue 19): a plain ``satnono check FILE...`` runs without click
(``satnono.cli._plain_check``) and must behave exactly as the same call through click."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import pytest
from conftest import PUZZLES

from satnono.cli import _plain_check
from satnono.cli.common import Bar

DANCER = str(PUZZLES / "webpbn" / "webpbn-00001.xml")  # unique, line-solvable
EDGE = str(PUZZLES / "webpbn" / "webpbn-00023.xml")  # unique, needs search
MULTI = str(PUZZLES / "jwilk" / "data001.nin")  # several solutions


def _satnono(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "satnono", *args], capture_output=True, text=True,
                          env={**os.environ, **(env or {})}, timeout=120)


def _masked(text: str) -> str:
    return re.sub(r"\d+\.\d{3} s\]", "T s]", text)


@pytest.fixture()
def files(tmp_path):
    none = tmp_path / "none.non"
    none.write_text("width 2\nheight 1\nrows\n3\ncolumns\n1\n1\n")
    bad = tmp_path / "bad.json"
    bad.write_text('{"rows": [[1]], "columns": ')
    tiny = tmp_path / "tiny.json"
    tiny.write_text('{"rows": [[1]], "columns": [[1]]}\n')
    return {"none": str(none), "bad": str(bad), "tiny": str(tiny), "missing": str(tmp_path / "missing.non")}


@pytest.mark.parametrize("case", [
    ["tiny"], ["DANCER"], ["DANCER", "EDGE", "MULTI"], ["none", "tiny"], ["bad", "DANCER"], ["missing"],
    ["MULTI#1"], ["MULTI#9"], ["none", "bad", "MULTI"],
])
def test_plain_check_is_the_click_command(files, case):
    """Same stdout, stderr and exit code with and without click ('--' sends the call through click)."""
    named = {"DANCER": DANCER, "EDGE": EDGE, "MULTI": MULTI, **files}
    args = [named.get(c.split("#")[0], c) + ("#" + c.split("#")[1] if "#" in c else "") for c in case]
    fast = _satnono("check", *args)
    slow = _satnono("check", "--", *args)
    assert fast.returncode == slow.returncode
    assert _masked(fast.stdout) == _masked(slow.stdout)
    assert fast.stderr == slow.stderr
    assert "Traceback" not in fast.stderr
    assert fast.stdout or fast.stderr


def test_exit_codes_of_plain_check(files):
    assert _satnono("check", files["tiny"]).returncode == 0
    assert _satnono("check", MULTI).returncode == 3
    assert _satnono("check", files["none"]).returncode == 4
    r = _satnono("check", files["bad"], files["tiny"])
    assert r.returncode == 6 and r.stderr.startswith(f"satnono: {files['bad']}") and len(r.stderr.splitlines()) == 1


@pytest.mark.parametrize("args", [
    [], ["check"], ["solve", "x"], ["check", "--json", "x"], ["check", "x", "-t", "1"], ["check", "-h"],
    ["--background", "red", "check", "x"], ["check", "--", "x"], ["check", "x", "--progress"], ["count", "x"],
])
def test_anything_but_plain_file_arguments_goes_through_click(args):
    assert _plain_check(args) is None


def test_the_scheduler_variable_goes_through_click(monkeypatch, files):
    monkeypatch.setenv("SATNONO_SCHEDULER", "local:1")
    assert _plain_check(["check", files["tiny"]]) is None


def test_plain_check_runs_in_process(files, capsys):
    assert _plain_check(["check", files["tiny"], MULTI]) == 3
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"{files['tiny']}: unique (line-solvable)")
    assert out[1].startswith(f"{MULTI}: multiple solutions")


def test_plain_check_loads_neither_click_nor_the_heavy_modules(files):
    """The whole point of the fast path: a line-solvable puzzle is read and checked with no click,
    no python-sat, no explain engine, no numpy, no web stack, no dask, no rich (stderr no terminal)."""
    code = ("import sys; from satnono.cli import main\n"
            "code = main(['check', sys.argv[1]])\n"
            "heavy = ('click', 'pysat', 'satnono.explain', 'numpy', 'PIL', 'starlette', 'uvicorn', 'dask',"
            " 'distributed', 'rich', 'satnono.rules', 'satnono.classify', 'satnono.generator', 'satnono.web',"
            " 'satnono.formats.webpbn', 'satnono.formats.non')\n"
            "print(code, sorted(m for m in heavy if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code, files["tiny"]], capture_output=True, text=True,
                         check=True, stdin=subprocess.DEVNULL)
    assert out.stdout.strip().splitlines()[-1] == "0 []"


#: What a plain ``satnono check`` on a ``.non`` file must not load: ``re`` with the ``enum`` it
#: loads costs more than Python's own start-up (``re`` is imported by pip's console-script launcher,
#: so the installed command is a script of our own, ``satnono/cli/bin/satnono``).
NOT_AT_START_UP = {"re", "enum", "html", "contextlib", "typing", "signal", "importlib", "collections", "click", "pysat",
                   "numpy", "satnono.formats.nonny", "satnono.formats.pynogram", "satnono.formats.tournament"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LAUNCHER = os.path.join(ROOT, "satnono", "cli", "bin", "satnono")


@pytest.mark.parametrize("text", [
    "width 1\nheight 1\nrows\n1\ncolumns\n1\n",
    'title "a &amp; b"\nwidth 2\nheight 1\n\nrows\n1, 0\ncolumns\n1\n0\n',  # html only for an entity
    "width 2\nheight 1\ncolor a #ff0000\nrows\n1a\ncolumns\n1a\n0\n",
])
def test_the_installed_command_on_a_non_file_loads_no_re_nor_enum(tmp_path, text):
    """The installed command (the script setup.py installs), run without site-packages (``-S``: the
    development install's import hook loads ``re`` itself), on a ``.non`` file line logic finishes."""
    path = tmp_path / "one.non"
    path.write_text(text)
    out = subprocess.run([sys.executable, "-S", "-X", "importtime", LAUNCHER, "check", str(path)],
                         capture_output=True, text=True, stdin=subprocess.DEVNULL, cwd=str(tmp_path),
                         env={**os.environ, "PYTHONPATH": ROOT}, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "unique (line-solvable)" in out.stdout
    loaded = {line.rsplit("|", 1)[1].strip() for line in out.stderr.splitlines() if line.startswith("import time:")}
    assert "satnono.cli.checking" in loaded  # the measure works
    if "&amp;" in text:  # an entity to unescape: html (which needs re) then, and only then
        assert "html" in loaded and sorted(NOT_AT_START_UP & loaded - {"html", "re", "enum", "collections"}) == []
    else:
        assert sorted(NOT_AT_START_UP & loaded) == []


def test_setup_installs_the_launcher_script():
    """setup.py installs ``satnono/cli/bin/satnono`` as the command on POSIX (a console script on
    Windows); the script calls the same entry point."""
    with open(os.path.join(ROOT, "setup.py")) as f:
        setup = f.read()
    assert 'os.path.join("satnono", "cli", "bin", "satnono")' in setup
    assert '"satnono = satnono.cli:entry"' in setup
    with open(LAUNCHER) as f:
        script = f.read()
    assert script.startswith("#!python\n") and "from satnono.cli import entry" in script
    assert "\nimport re" not in script


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
