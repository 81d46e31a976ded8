"""Start-up cost of the command line (issues 38 and 41): ``satnono check``, ``check --json``,
``solve`` and ``count`` on a 1x1 puzzle, and ``check`` on a small colour, blotted and rules puzzle,
each as a whole process against ``python -c pass`` of the same environment.  Target: each at most
4x, wall, median of 30 paired runs, in a regular (non-editable) install.

    bench.py startup                 # builds a wheel, installs it in a new venv, 30 pairs a row
    bench.py startup -n 50           # 50 pairs
    bench.py startup --here          # the satnono of this environment instead (no build)
    bench.py startup --only 'check 1x1'

Runs alternate (satnono, python, satnono, ...) so that a load change on a shared machine hits
both sides alike; the CPU ratio (user + system of the children) is printed too, as a loaded
machine distorts it less.  The first, unmeasured run of each command writes the ``.pyc`` files, as
``pip install`` does.  An editable install's import hook makes ``python -c pass`` itself slower,
so ``--here`` in an editable install reads low.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

import benchlib
from benchlib import ROOT

sys.path.insert(0, str(ROOT / "tests"))
import release_tools  # noqa: E402  (tests/release_tools.py: the build, the install and the pairs)


#: Imports every row above pays: the standard-library idioms of the code (dataclasses brings
#: inspect, ast and dis; typing brings re and collections), and click, which the quick command
#: lines skip.
FLOORS = {"stdlib idioms": ["import dataclasses, enum, typing, re, json, contextvars, signal"],
          "click": ["import click"]}


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("startup", __doc__)
    ap.add_argument("-n", "--runs", type=int, default=30, help="pairs of processes per row (default 30)")
    ap.add_argument("--here", action="store_true", help="measure this environment's satnono (no build)")
    ap.add_argument("--only", action="append", default=None, choices=sorted(release_tools.STARTUP_COMMANDS),
                    help="one row of the table (may be repeated)")
    args = ap.parse_args(argv)
    commands = {k: v for k, v in release_tools.STARTUP_COMMANDS.items() if not args.only or k in args.only}
    with tempfile.TemporaryDirectory() as tmp:
        if args.here:
            where, python = "this environment", sys.executable
            satnono = benchlib.satnono_command(interpreter=True)
        else:
            where = "a regular install of this tree (wheel in a new venv)"
            python = str(release_tools.release_install(Path(tmp)))
            satnono = [str(release_tools.command(Path(python)))]
        results = release_tools.startup_pairs(satnono, python, args.runs, commands)
        # what Python itself costs for the standard library's idioms, and click
        floors = {} if args.only else release_tools.startup_pairs([python, "-c"], python, args.runs, FLOORS)
    print(f"start-up, {where}, median of {args.runs} paired runs against python -c pass:")
    print("\n".join(release_tools.startup_table(results)))
    if floors:
        print("for comparison, python -c IMPORTS in the same environment:")
        print("\n".join(release_tools.startup_table(floors)[1:]))
    over = [label for label, m in results.items() if m["wall_ratio"] > 4]
    print(f"target <= 4x wall: {'met by every row' if not over else 'not met by ' + ', '.join(over)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
