#!/usr/bin/env python3
"""Before/after: ``bench.py sets`` on a base commit and on the working tree, alternately.

    bench.py compare --base 09215aa survey dom wilk nonogram-db cauldron random
    bench.py compare --base HEAD~3 --rounds 3 survey

The base commit is checked out into a temporary ``git worktree`` (removed at
the end), its compiled core built in place (``setup.py build_ext --inplace``,
as ``pip install .`` would) so that both sides run with it; each round runs the
base tree's own ``scripts/bench.py`` with the sets named (the form every commit's
bench.py takes) and then this tree's, each in a fresh process with the tree's own
satnono on PYTHONPATH (``--no-reference --no-startup``), so both
see the same machine at nearly the same moment.  For every set it prints the
CPU seconds of each run, the smallest per side (the least disturbed by other
load on a shared machine), and the ratio after/before; a set more than
``--tolerance`` (default 10 %) slower FAILs.  Verdicts must agree puzzle by
puzzle; a disagreement FAILs too.

Exit status: 0 all sets within tolerance and agreeing, 1 otherwise, 2 usage.
"""

from __future__ import annotations

import csv
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

import benchlib
from benchlib import ROOT


def run_bench(tree: Path, sets: list[str], corpus: Path, out_csv: Path, timeout: float,
              limit: int | None = None) -> dict:
    """Run ``tree``'s bench.py on ``sets``; return {set: (cpu seconds, {puzzle: status})}."""
    cmd = [sys.executable, str(tree / "scripts" / "bench.py"), *sets, "--no-reference", "--no-startup",
           "--quiet", "--timeout", str(timeout), "--csv", str(out_csv), "--corpus", str(corpus)]
    if limit is not None:
        cmd += ["--limit", str(limit)]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(tree)  # the tree's own satnono, whatever is installed
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    if proc.returncode not in (0, 1):  # bench.py exits 1 when a target fails: still a measurement
        raise SystemExit(f"bench.py in {tree} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    cpu: dict[str, float] = defaultdict(float)
    status: dict[str, dict[str, str]] = defaultdict(dict)
    with out_csv.open() as f:
        for row in csv.DictReader(f):
            cpu[row["set"]] += float(row["cpu_s"])
            status[row["set"]][row["puzzle"]] = row["status"]
    return {s: (cpu[s], status[s]) for s in cpu}


def build_native(tree: Path) -> None:
    """Build a checkout's compiled core in place, as ``pip install .`` would, so that both sides
    run with it (a bare checkout has only the C sources and would fall back to pure Python).
    A tree without extensions, or without a compiler, runs as it is: said on stderr."""
    if not any(tree.glob("satnono/**/*.c")):
        return
    proc = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree,
                          capture_output=True, text=True)
    if proc.returncode != 0:
        print(f"note: the base's compiled core did not build, it runs pure Python: {proc.stderr.strip()[-300:]}",
              file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("compare", __doc__)
    ap.add_argument("sets", nargs="+", metavar="SET", help="sets of bench.py sets, e.g. survey dom wilk")
    ap.add_argument("--base", required=True, help="the commit to compare against (any git revision)")
    ap.add_argument("--rounds", type=int, default=2, help="base/current pairs to run (default 2)")
    ap.add_argument("--tolerance", type=float, default=0.10, help="allowed slow-down, as a fraction (default 0.10)")
    ap.add_argument("--timeout", type=float, default=60.0, help="per-puzzle time limit passed to bench.py (default 60)")
    ap.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N puzzles of each set")
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)
    if args.rounds < 1:
        ap.error("--rounds must be at least 1")
    rev = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, capture_output=True, text=True)
    if rev.returncode != 0:
        ap.error(f"unknown revision {args.base!r}")
    base_rev = rev.stdout.strip()
    with tempfile.TemporaryDirectory(prefix="satnono-base-") as tmp:
        base_tree = Path(tmp) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base_tree), base_rev], cwd=ROOT, check=True)
        try:
            build_native(base_tree)
            runs: dict[str, list[dict]] = {"base": [], "current": []}
            for r in range(args.rounds):
                for side, tree in (("base", base_tree), ("current", ROOT)):
                    print(f"round {r + 1}/{args.rounds}: {side} ...", file=sys.stderr, flush=True)
                    runs[side].append(run_bench(tree, args.sets, args.corpus, Path(tmp) / f"{side}-{r}.csv",
                                                args.timeout, args.limit))
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=ROOT)
    ok = True
    print(f"before: {base_rev}   after: working tree   rounds: {args.rounds}   (CPU seconds; min per side)")
    print(f"{'set':14} {'before runs':>22} {'after runs':>22} {'before':>9} {'after':>9} {'after/before':>13}  verdict")
    # the sets the CSVs name: an alias such as 'tournament' comes back as its member sets
    for s in dict.fromkeys(k for run in runs["base"] + runs["current"] for k in run):
        if s not in runs["base"][0] or s not in runs["current"][0]:
            print(f"{s:14} (not run on both sides)")
            continue
        b = [run[s][0] for run in runs["base"]]
        a = [run[s][0] for run in runs["current"]]
        ratio = min(a) / min(b) if min(b) > 0 else float("inf")
        same = all(run[s][1] == runs["base"][0][s][1] for run in runs["base"] + runs["current"])
        good = ratio <= 1 + args.tolerance and same
        ok &= good
        verdict = ("PASS" if good else "FAIL") + ("" if same else " (verdicts differ)")
        print(f"{s:14} {' '.join(f'{x:.3f}' for x in b):>22} {' '.join(f'{x:.3f}' for x in a):>22} "
              f"{min(b):9.3f} {min(a):9.3f} {ratio:13.3f}  {verdict}")
    return 0 if ok else 1

