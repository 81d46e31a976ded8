#!/usr/bin/env python3
"""satnono's benchmarks, one entry: ``python scripts/bench.py SUB-COMMAND [ARGUMENTS]``.

Each sub-command is a module of ``scripts/benchmarks/`` or ``scripts/studies/`` with a
``main(argv) -> exit status``; :data:`COMMANDS` names them, one line each.  Without a
sub-command the arguments are those of ``sets`` (``bench.py survey dom --no-reference`` is
``bench.py sets survey dom --no-reference``), so the commands of earlier notes still run.
``bench.py --help`` lists the sub-commands; ``bench.py help NAME`` is ``bench.py NAME --help``.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path
from typing import Callable, NamedTuple

SCRIPTS = Path(__file__).resolve().parent
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))


class Command(NamedTuple):
    """A sub-command: ``target`` is ``module`` or ``module:function`` (importable from
    ``scripts/``; the function, ``main`` by default, takes the remaining arguments and returns the
    exit status), ``summary`` the line ``bench.py --help`` prints for it."""

    target: str
    summary: str
    study: bool = False  # a one-off investigation (scripts/studies/), listed apart


#: The sub-commands, in the order ``--help`` lists them; a new one is one line here.
COMMANDS: dict[str, Command] = {
    "sets": Command("benchmarks.sets", "named puzzle sets against in-run CP-SAT: CSV, totals, targets of issues 5, 10, 19"),
    "compare": Command("benchmarks.compare", "`sets` on a base commit and on the working tree in turn: CPU after/before"),
    "limits": Command("benchmarks.limits", "`check --timeout T` processes, 100-2000 a side: within T? peak memory"),
    "blotted": Command("benchmarks.blotted", "blotted clues, satnono against CP-SAT: the same verdicts, >= 5x faster"),
    "triddler": Command("benchmarks.triddler", "random triddlers (hexagons, side 6-12) against CP-SAT: the same verdicts, >= 5x faster"),
    "batch": Command("benchmarks.batch", "classify and generate, puzzles per second: local pool against Dask"),
    "explain": Command("benchmarks.explain", "`explain`: 30x30 line-solvable < 1 s, survey set < 10 s; colour figures"),
    "editor": Command("benchmarks.editor", "the editor's live verdict on random pictures: median and worst seconds"),
    "generate": Command("benchmarks.generate", "`generate`, puzzles per second per case against issue 4's targets"),
    "certify": Command("bench_certify", "`check --certify` against `check`, then `verify`: <= 3x, <= the certify run"),
    "jobs": Command("benchmarks.jobs", "`--jobs 2` against `--jobs 1`, wall, paired: colour36, #158, Knotty, Faase, hardest tournament"),
    "startup": Command("benchmarks.startup", "check/solve/count and each puzzle kind, whole processes in a regular install, against `python -c pass`"),
    "native": Command("studies.native", "the compiled core against pure Python: CPU per set", study=True),
    "beliefs": Command("studies.beliefs", "compiled belief propagation replayed call by call, or against a commit's",
                       study=True),
    "feeder": Command("studies.feeder", "three ways clauses reach CaDiCaL (flat, lists, python-sat): CPU per set",
                      study=True),
}
#: What runs when the first argument names no sub-command (a set, an option, or nothing).
DEFAULT = "sets"


def resolve(name: str) -> Callable[[list[str]], int]:
    """The function that runs the sub-command ``name``."""
    module, _, function = COMMANDS[name].target.partition(":")
    return getattr(importlib.import_module(module), function or "main")


def overview() -> str:
    """What ``bench.py --help`` prints: the sub-commands, a line each."""
    width = max(map(len, COMMANDS))
    lines = [
        "usage: bench.py [SUB-COMMAND] [ARGUMENTS ...]",
        "",
        "satnono's benchmarks, one entry.  `bench.py SUB-COMMAND --help` says what it measures, how, and its",
        f"targets.  Without a sub-command the arguments are those of `{DEFAULT}`: `bench.py survey dom",
        f"--no-reference` is `bench.py {DEFAULT} survey dom --no-reference`.",
    ]
    for title, study in (("benchmarks (scripts/benchmarks/):", False),
                         ("studies, one-off investigations (scripts/studies/):", True)):
        lines += ["", title]
        lines += [f"  {name:{width}}  {c.summary}" for name, c in COMMANDS.items() if c.study == study]
    lines += ["", "The corpus: --corpus DIR, or $SATNONO_CORPUS, else ../shared/corpus beside the repository."]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv[:1] == ["help"] and argv[1:2] and argv[1] in COMMANDS:  # bench.py help NAME
        argv = [argv[1], "--help"]
    if argv[:1] in (["-h"], ["--help"], ["help"]):
        print(overview())
        return 0
    if argv and argv[0] in COMMANDS:
        return resolve(argv[0])(argv[1:])
    return resolve(DEFAULT)(argv)


if __name__ == "__main__":
    sys.exit(main())
