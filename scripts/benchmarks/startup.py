"""Start-up cost of the command line (issue 19): ``satnono check`` on a 1x1 puzzle, as a whole
process, against ``python -c pass``.

Runs N pairs of processes, alternately (so that a load change on a shared machine hits both
sides alike), and prints the median wall seconds of each side and their ratio, and the same for
the children's CPU seconds (user + system), which a loaded machine distorts less.  Target:
issue 19 asked for a ratio of at most 2 (its table in `bench.py sets`); issue 38 withdrew it
for at most 4x `python -c pass`, median of 30 paired runs, in a regular (non-editable) install.

    bench.py startup                  # 20 pairs, the installed console script
    bench.py startup -n 50 --module   # python -m satnono instead
    bench.py startup --puzzle FILE    # another puzzle (any format; may be repeated)
    bench.py startup --kinds          # the 1x1 JSON, a small XML and a small .non file

The first (unmeasured) run of each command writes the ``.pyc`` files even when
``PYTHONDONTWRITEBYTECODE`` is set, as ``pip install`` does: without them every run compiles
satnono from source, which is no user's start-up.  Whether the package is installed editable
matters too: an editable install's path hook makes ``python -c pass`` itself load ``re``,
``pathlib`` and more, so measure a plain ``pip install .`` in a fresh venv as well.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time

import benchlib
from benchlib import ROOT, children_cpu

KINDS = (ROOT / "puzzles" / "webpbn" / "webpbn-00001.xml", ROOT / "puzzles" / "nonogram-db" / "26167.non")


def run(cmd: list[str], ok: tuple[int, ...] = (0,), env: dict[str, str] | None = None) -> tuple[float, float]:
    """Wall and CPU seconds of one process."""
    cpu0 = children_cpu()
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT, check=False, env=env)
    seconds = time.perf_counter() - t0
    if proc.returncode not in ok:
        raise SystemExit(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode(errors='replace')[-300:]}")
    return seconds, children_cpu() - cpu0


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("startup", __doc__)
    ap.add_argument("-n", "--runs", type=int, default=20, help="pairs of processes (default 20)")
    ap.add_argument("--module", action="store_true", help="run python -m satnono, not the console script")
    ap.add_argument("--puzzle", action="append", default=None,
                    help="a puzzle to check (any format; may be repeated; default: a 1x1 JSON puzzle)")
    ap.add_argument("--kinds", action="store_true", help="also a small XML and a small .non puzzle of the corpus")
    args = ap.parse_args(argv)
    tmp = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    tmp.write('{"rows": [[1]], "columns": [[1]]}\n')
    tmp.close()
    puzzles = list(args.puzzle or [tmp.name])
    if args.kinds:
        puzzles += [str(p) for p in KINDS]
    bare = [sys.executable, "-c", "pass"]
    print(f"{args.runs} runs each, alternating (PYTHONPATH={os.environ.get('PYTHONPATH', '')!s})")
    try:
        for puzzle in puzzles:
            check = [*benchlib.satnono_command(module=args.module, interpreter=True), "check", puzzle]
            writing = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
            run(check, env=writing), run(bare)  # warm the file cache and write the .pyc files before measuring
            ours, base = [], []
            for _ in range(args.runs):
                ours.append(run(check))
                base.append(run(bare))
            shown = " ".join(os.path.basename(c) if c in (sys.executable,) else c for c in check)
            if puzzle == tmp.name:
                shown = shown.replace(puzzle, "1x1.json")
            for k, what in ((0, "wall"), (1, "CPU")):
                a, b = [x[k] for x in ours], [x[k] for x in base]
                m_ours, m_base = statistics.median(a), statistics.median(b)
                print(f"  {what}: {shown:<55} median {m_ours:.4f} s  (min {min(a):.4f})")
                print(f"  {what}: {'python -c pass':<55} median {m_base:.4f} s  (min {min(b):.4f})")
                print(f"  {what} ratio {m_ours / m_base:.2f}x")
    finally:
        os.unlink(tmp.name)
    return 0

