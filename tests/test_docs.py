"""The documentation cannot drift from the program (issue 38, item 3).

* Every command of the ``satnono`` group has help text, exit codes in its ``--help``, and is named in
  README.md and on a page of the site (as sqlite-utils' test_docs does).
* ``mkdocs build --strict`` builds the site (``docs/``, ``mkdocs.yml``) without a single warning:
  a broken link, a page missing from the nav, a reference page that the code no longer matches.
* Every example in README.md and ``docs/**/*.md`` is run (:func:`examples`):

  - a ``console`` block: each ``$ COMMAND`` runs in bash and its output (stdout and stderr, as a
    terminal shows them) must be the lines under it; a line ``...`` stands for any number of
    lines, and times are masked as :func:`masked` says (the rule of ``test_cli_startup``, widened
    to every ``N.NNN s``, the ``"seconds"`` of JSON and the stderr statistics);
  - an ``sh`` block: each command runs and must not fail with a usage error, an internal error
    or a traceback;
  - a ``pycon`` block is a doctest; a ``python`` block is executed;
  - a block after ``<!-- not run: REASON -->`` (it installs, serves, or takes minutes) is checked
    without running it: a ``satnono`` command's sub-command, options and choices must exist
    (:func:`check_satnono_args`), a script's options must be in its ``--help``, a ``pip install``
    extra must be in ``pyproject.toml``.

  The commands of one page run one after the other in a scratch directory of their own, where
  ``puzzles/`` is the repository's and ``satnono`` is this checkout's ``python -m satnono``.
* The quick start keeps its two lines, the test line first of its kind (``.ci/run`` greps it), and
  README.md stays within 200 lines; the picture README and the site show is what satnono draws.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from satnono.cli import cli

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
SITE_TEXT = "\n".join(p.read_text(encoding="utf-8") for p in sorted(DOCS.rglob("*.md")))
COMMANDS = cli.list_commands(click.Context(cli))

QUICK_START = ("pip install . && satnono check puzzles/webpbn/webpbn-00065.xml",
               "pip install '.[test]' && python -m pytest -q")
PICTURE = ("docs/assets/mum-diagnose.svg", ["diagnose", "--svg", "{out}", "puzzles/webpbn/webpbn-00065.xml"])


# --- the commands ----------------------------------------------------------------------------------

def test_the_group_lists_every_command():
    assert set(COMMANDS) >= {"check", "classify", "convert", "count", "diagnose", "edit", "explain", "fix",
                             "generate", "hint", "solve"}


@pytest.mark.parametrize("name", COMMANDS)
def test_command_has_help(name):
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.help and command.help.strip()
    assert command.get_short_help_str().strip()
    r = CliRunner().invoke(cli, [name, "--help"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"Usage: cli {name} ") or r.output.startswith(f"Usage: satnono {name} ")


@pytest.mark.parametrize("name", COMMANDS)
def test_command_is_documented(name):
    """README names every command, and a page of the site shows it at work (the CLI reference is
    generated, so it is not enough)."""
    assert f"satnono {name}" in README
    assert re.search(rf"^\$ satnono {name}\b|satnono {name}\b", SITE_TEXT, re.M)


@pytest.mark.parametrize("name", COMMANDS)
def test_exit_codes_are_documented(name):
    """Each command's --help says what its exit codes mean (an epilog, or convert's last paragraph)."""
    command = cli.get_command(click.Context(cli), name)
    text = (command.epilog or "") + (command.help or "")
    assert "Exit codes:" in text


# --- README ------------------------------------------------------------------------------------------

def test_readme_is_short():
    assert len(README.splitlines()) <= 200


def test_quick_start_lines_are_unchanged():
    lines = README.splitlines()
    for line in QUICK_START:
        assert line in lines, line
    first_test_line = next(x for x in lines if x.startswith("pip install '.[test]'"))  # what .ci/run runs
    assert first_test_line == QUICK_START[1]


def test_readme_and_site_show_what_satnono_draws(tmp_path):
    """The picture of README and the site's home page is ``satnono diagnose --svg`` of Mum, as drawn now."""
    path, args = PICTURE
    out = tmp_path / "mum.svg"
    r = subprocess.run([sys.executable, "-m", "satnono", *[a.format(out=out) for a in args]], cwd=ROOT,
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert out.read_bytes() == (ROOT / path).read_bytes(), f"redraw it: satnono {' '.join(args).format(out=path)}"
    assert path in README


# --- the site ------------------------------------------------------------------------------------------

def test_mkdocs_build_strict(tmp_path):
    """The site builds with --strict and no warning at all (broken links, pages outside the nav,
    reference pages the code no longer matches)."""
    for module in ("mkdocs", "material", "mkdocstrings", "mkdocstrings_handlers.python", "mkdocs_click"):
        pytest.importorskip(module)
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"),
                        "-d", str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True, env=env,
                       timeout=600)
    log = r.stdout + r.stderr
    assert r.returncode == 0, log
    assert not re.search(r"^\s*(WARNING|ERROR)\b", log, re.M), log
    cli_page = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for name in COMMANDS:  # every command, loaded lazily or not, has its section
        assert f'id="satnono-{name}"' in cli_page, name


# --- running the examples --------------------------------------------------------------------------------

@dataclass
class Block:
    page: Path
    line: int  # 1-based line of the opening fence
    lang: str
    text: str
    skip: str | None = None  # the reason of a <!-- not run: ... --> marker

    def where(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.+?)\s*-->")


def blocks(page: Path) -> list[Block]:
    """The fenced code blocks of a Markdown page (also inside list items)."""
    lines = page.read_text(encoding="utf-8").splitlines()
    out, i = [], 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = m.groups()
        start, body = i, []
        i += 1
        while i < len(lines) and not (lines[i].strip().startswith(fence) and lines[i].strip().strip(fence[0]) == ""):
            body.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].lstrip())
            i += 1
        i += 1
        before = next((x for x in reversed(lines[:start]) if x.strip()), "")
        skip = NOT_RUN.search(before)
        out.append(Block(page, start + 1, lang.lower(), "\n".join(body) + "\n", skip.group(1) if skip else None))
    return out


def masked(text: str) -> str:
    """Output with its times masked: test_cli_startup's ``N.NNN s]`` and every other ``N.N s``
    (statistics, summaries), the ``"seconds"`` of JSON; trailing spaces dropped."""
    text = re.sub(r"\b\d+\.\d+ s\b", "T s", text)
    text = re.sub(r'"seconds": [0-9.e-]+', '"seconds": T', text)
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def matches(expected: list[str], actual: list[str]) -> bool:
    """Line by line; an expected line ``...`` stands for any number of lines."""
    if not expected:
        return not actual
    if expected[0] == "...":
        return any(matches(expected[1:], actual[k:]) for k in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and matches(expected[1:], actual[1:])


def console_steps(text: str) -> list[tuple[str, list[str]]]:
    """``$ command`` lines (a trailing ``\\`` continues one) with the output lines under each."""
    steps: list[tuple[str, list[str]]] = []
    lines = text.rstrip("\n").split("\n")
    i = 0
    while i < len(lines):
        if not lines[i].startswith("$ "):
            raise AssertionError(f"output before any command: {lines[i]!r}")
        command = lines[i][2:]
        while command.endswith("\\"):
            i += 1
            command = command[:-1] + "\n" + lines[i]
        i += 1
        output = []
        while i < len(lines) and not lines[i].startswith("$ "):
            output.append(lines[i])
            i += 1
        steps.append((command, output))
    return steps


def sh_commands(text: str) -> list[str]:
    """The commands of an ``sh`` block: one a line (``\\`` continues), comments and blank lines left out."""
    out, pending = [], ""
    for line in text.split("\n"):
        if not pending and (not line.strip() or line.lstrip().startswith("#")):
            continue
        pending += line
        if pending.endswith("\\"):
            pending = pending[:-1] + " "
            continue
        out.append(pending.strip())
        pending = ""
    return out


@pytest.fixture(scope="module")
def bin_dir(tmp_path_factory) -> Path:
    """A ``satnono`` that runs this checkout (whatever is installed), first on PATH."""
    d = tmp_path_factory.mktemp("bin")
    exe = d / "satnono"
    exe.write_text(f'#!/bin/sh\nexec "{sys.executable}" -m satnono "$@"\n')
    exe.chmod(0o755)
    return d


def shell(command: str, cwd: Path, bin_dir: Path, timeout: float = 300) -> subprocess.CompletedProcess:
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", "COLUMNS": "80", "NO_COLOR": "1", "TERM": "dumb"}
    env.pop("SATNONO_SCHEDULER", None)
    return subprocess.run(["bash", "-c", f"set -o pipefail\n( {command}\n) 2>&1"], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=timeout)


def run_console(block: Block, cwd: Path, bin_dir: Path) -> None:
    for command, expected in console_steps(block.text):
        r = shell(command, cwd, bin_dir)
        got = masked(r.stdout).split("\n") if masked(r.stdout) else []
        want = masked("\n".join(expected)).split("\n") if masked("\n".join(expected)) else []
        assert "Traceback" not in r.stdout, f"{block.where()}: $ {command}\n{r.stdout}"
        assert matches(want, got), (f"{block.where()}: $ {command}\n--- the page shows:\n" + "\n".join(want)
                                    + "\n--- satnono prints:\n" + "\n".join(got))


def run_sh(block: Block, cwd: Path, bin_dir: Path) -> None:
    for command in sh_commands(block.text):
        r = shell(command, cwd, bin_dir)
        assert r.returncode not in (1, 2) and "Traceback" not in r.stdout, \
            f"{block.where()}: {command}\nexit {r.returncode}\n{r.stdout}"


def run_python(block: Block, cwd: Path, namespace: dict) -> None:
    """A ``pycon`` block as a doctest, a ``python`` block executed; the blocks of a page share
    ``namespace``, as a reader's session would."""
    old = os.getcwd()
    os.chdir(cwd)
    try:
        if block.lang == "pycon":
            test = doctest.DocTestParser().get_doctest(block.text, namespace, block.where(), str(block.page),
                                                       block.line)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            report: list[str] = []
            runner.run(test, out=report.append, clear_globs=False)
            namespace.update(test.globs)  # (a DocTest works on a copy)
            assert runner.failures == 0, "".join(report)
        else:
            exec(compile(block.text, block.where(), "exec"), namespace)
    finally:
        os.chdir(old)


# --- checking what is not run ------------------------------------------------------------------------------

EXTERNAL = {"dask", "nohup", "cd", "ls", "cat", "export", "cc", "python3", "sha256sum", "head", "tail", "grep",
            "sed", "wc", "echo", "printf", "mkdir", "rm", "cp", "mv"}  # the reader's tools, not ours


def _words(command: str) -> list[list[str]]:
    """The simple commands of a command line (split at ``&&``, ``||``, ``;``, ``|``, quotes
    respected), without environment assignments, redirections and comments."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    tokens = list(lexer)
    out: list[list[str]] = [[]]
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token in ("&&", "||", ";", "|", "&"):
            out.append([])
        elif token in (">", ">>", "<", ">&", "<&", "&>"):
            if out[-1] and out[-1][-1].isdigit():  # 2>/dev/null, 2>&1: the descriptor goes too
                out[-1].pop()
            i += 1  # and the target
        else:
            out[-1].append(token)
        i += 1
    cleaned = []
    for words in out:
        while words and re.match(r"^[A-Z_][A-Z0-9_]*=", words[0]):
            words.pop(0)
        if words:
            cleaned.append(words)
    return cleaned


def _option_table(command: click.Command) -> dict[str, click.Option]:
    table = {}
    for p in command.get_params(click.Context(command)):
        if isinstance(p, click.Option):
            for name in (*p.opts, *p.secondary_opts):
                table[name] = p
    return table


def check_satnono_args(args: list[str], where: str) -> None:
    """A satnono command line names a command, and options and choices it has (nothing is run)."""
    group_opts = _option_table(cli)
    i = 0
    while i < len(args) and args[i].startswith("-"):
        opt = group_opts.get(args[i].split("=")[0])
        assert opt is not None, f"{where}: satnono has no option {args[i]}"
        i += 1 if opt.is_flag or "=" in args[i] else 2
    assert i < len(args), f"{where}: no command in satnono {' '.join(args)}"
    command = cli.get_command(click.Context(cli), args[i])
    assert command is not None, f"{where}: satnono has no command {args[i]!r}"
    opts = _option_table(command)
    rest = args[i + 1:]
    j = 0
    while j < len(rest):
        word = rest[j]
        if word == "--":
            break
        if word.startswith("-") and word != "-" and not re.match(r"^-\d", word):
            name, _, value = word.partition("=")
            opt = opts.get(name)
            assert opt is not None, f"{where}: satnono {args[i]} has no option {name}"
            if not (opt.is_flag or opt.count):
                if not value:
                    j += 1
                    assert j < len(rest), f"{where}: {name} needs a value"
                    value = rest[j]
                if isinstance(opt.type, click.Choice) and "{" not in value and value.isidentifier():
                    assert value in opt.type.choices, f"{where}: {name} {value}: not one of {opt.type.choices}"
        j += 1


def check_script(words: list[str], where: str, bin_dir: Path) -> None:
    """``python scripts/NAME.py [SUB] ...``: the script exists and its --help (the sub-command's
    when it has sub-commands) names every option used."""
    script = ROOT / words[1]
    assert script.is_file(), f"{where}: no {words[1]}"
    options = [w.split("=")[0] for w in words[2:] if w.startswith("--")]
    helps = []
    for sub in ([words[2]] if len(words) > 2 and not words[2].startswith("-") else []) + [None]:
        r = subprocess.run([sys.executable, str(script), *([sub] if sub else []), "--help"], cwd=ROOT,
                           capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT)})
        if r.returncode == 0:
            helps.append(r.stdout)
    assert helps, f"{where}: {words[1]} --help fails"
    for opt in options:
        assert any(re.search(rf"(?<![\w-]){re.escape(opt)}(?![\w-])", h) for h in helps), \
            f"{where}: {words[1]} has no option {opt}"


def check_pip(words: list[str], where: str) -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    for w in words[2:]:
        m = re.match(r"^(?:\.|satnono)\[([\w,-]+)\]$", w)
        if m:
            for extra in m.group(1).split(","):
                assert re.search(rf"^{re.escape(extra)}\s*=\s*\[", pyproject, re.M), f"{where}: no extra {extra}"


def check_unrun(block: Block, bin_dir: Path) -> None:
    if block.lang in ("console",):
        commands = [c for c, _ in console_steps(block.text)]
    elif block.lang in ("sh", "bash", "shell"):
        commands = sh_commands(block.text)
    else:
        return  # python that needs a server or a cluster: shown, not checked
    for command in commands:
        for words in _words(command):
            if words[0] == "satnono":
                check_satnono_args(words[1:], block.where())
            elif words[0] == "python" and len(words) > 1 and words[1].startswith("scripts/"):
                check_script(words, block.where(), bin_dir)
            elif words[0] == "python" and words[1:3] == ["-m", "pytest"]:
                continue
            elif words[0] in ("pip", "python") and "install" in words:
                check_pip(words[words.index("install") - 1:], block.where())
            else:
                assert words[0] in EXTERNAL or words[0].startswith(("./", "../")), \
                    f"{block.where()}: nothing checks {' '.join(words)!r}"


RUN = {"console": run_console, "sh": run_sh, "bash": run_sh, "shell": run_sh}


@pytest.mark.parametrize("page", PAGES, ids=[str(p.relative_to(ROOT)) for p in PAGES])
def test_examples(page, tmp_path, bin_dir):
    """Every example of the page, in order, in a scratch directory of the page's own."""
    (tmp_path / "puzzles").symlink_to(ROOT / "puzzles")
    namespace: dict = {"__name__": "__docs__"}
    for block in blocks(page):
        if block.skip is not None:
            check_unrun(block, bin_dir)
        elif block.lang in RUN:
            RUN[block.lang](block, tmp_path, bin_dir)
        elif block.lang in ("pycon", "python", "py"):
            run_python(block, tmp_path, namespace)


def test_every_shell_block_is_console_sh_or_marked():
    """A shell example is written so that the test above can run or check it: ``console`` (with
    ``$``), ``sh``, or after a not-run marker; a block with no language is text."""
    for page in PAGES:
        for block in blocks(page):
            if block.lang in ("console",):
                console_steps(block.text)  # raises on output before a command
            assert block.lang not in ("shell-session", "sh-session"), block.where()
            if block.lang in ("", "text") and re.search(r"^\$ ", block.text, re.M):
                raise AssertionError(f"{block.where()}: a shell session in a text block (use ```console)")
