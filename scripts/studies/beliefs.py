#!/usr/bin/env python3
"""Belief propagation's compiled core alone: the hints of real settles, timed call by call.

    bench.py beliefs                      # tournament 3 x 150, colour 30, random 40
    bench.py beliefs --base HEAD~1        # against that commit's _beliefs.c, alternately
    bench.py beliefs taai2011:300 --rounds 7

The puzzles are settled first (``Checker``, clues only, 20 s each) with every call of the
compiled ``lane_hints`` recorded; then those calls are replayed ``--rounds`` times and the best
round is printed (CPU seconds of the calls alone: no encoding, no search).  Every replayed result
must equal the recorded one, and the first ``--check`` calls must equal the Python reference
(``satnono.logic.beliefs.lane_hints``): the hints are bit-identical by design.  ``--base REV``
builds that commit's ``satnono/logic/_beliefs.c`` in a temporary directory with this Python's
compiler flags (and ``-ffp-contract=off``, as ``setup.py`` does), replays the same calls with it
in alternate rounds, demands the same results and prints the ratio (a commit whose module has
``lane_hints``: before the hints iterated lanes its entry was the rectangle's ``grid_hints``).
Exit 1 on a difference, 2 when the compiled module is not built here.  A study: no target; it told whether a change to
``_beliefs.c`` paid (the ratio this tree / base below 1).
"""

from __future__ import annotations

import importlib.util
import shlex
import subprocess
import sysconfig
import tempfile
import time
from pathlib import Path

import benchlib
from benchlib import ROOT

from satnono.logic import beliefs
from satnono.solve import Checker

DEFAULT = ("taai2011:150", "icga2017:150", "icga2020:150", "colour:30", "random:40")


def record(specs: list[str], corpus: Path) -> list[tuple]:
    """The arguments of every compiled ``lane_hints`` call made while settling the sets."""
    calls: list[tuple] = []
    core = beliefs._native
    assert core is not None

    class Recorder:
        def __getattr__(self, name: str):  # type: ignore[no-untyped-def]
            return getattr(core, name)

        def lane_hints(self, *args):  # type: ignore[no-untyped-def]
            calls.append(args)
            return core.lane_hints(*args)

    beliefs._native = Recorder()  # type: ignore[assignment]
    try:
        for spec in specs:
            checker = Checker()
            for item in benchlib.load_spec(spec, corpus)[1]:
                checker.check(benchlib.clues_only(item.puzzle), 20)
    finally:
        beliefs._native = core
    return calls


def build(rev: str, tmp: Path):  # type: ignore[no-untyped-def]
    """The module compiled from ``rev``'s ``satnono/logic/_beliefs.c``."""
    src = tmp / "_beliefs.c"
    src.write_bytes(subprocess.run(["git", "-C", str(ROOT), "show", f"{rev}:satnono/logic/_beliefs.c"],
                                   check=True, capture_output=True).stdout)
    out = tmp / ("_beliefs" + sysconfig.get_config_var("EXT_SUFFIX"))
    cc = shlex.split(sysconfig.get_config_var("CC") or "cc")
    flags = shlex.split(sysconfig.get_config_var("CFLAGS") or "")
    subprocess.run([*cc, *flags, "-ffp-contract=off", "-shared", "-fPIC", f"-I{sysconfig.get_paths()['include']}",
                    str(src), "-o", str(out)], check=True)
    spec = importlib.util.spec_from_file_location("_beliefs", out)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def replay(module, calls: list[tuple]) -> tuple[float, list]:  # type: ignore[no-untyped-def]
    c0 = time.process_time()
    got = [module.lane_hints(*a) for a in calls]
    return time.process_time() - c0, got


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("beliefs", __doc__)
    ap.add_argument("sets", nargs="*", default=list(DEFAULT), help="SET or SET:LIMIT (sets of bench.py sets)")
    ap.add_argument("--rounds", type=int, default=5, help="replays of the recorded calls, the best kept (default 5)")
    ap.add_argument("--check", type=int, default=20, help="calls compared with the Python reference (default 20)")
    ap.add_argument("--base", help="a commit whose _beliefs.c to time against")
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)
    if beliefs._native is None:
        print("the compiled belief propagation is not built here (or SATNONO_PURE is set)")
        return 2
    calls = record(args.sets, args.corpus)
    if not calls:
        print("no settle of these sets needed the hints")
        return 0
    cells = sum(a[0] for a in calls)
    print(f"{len(calls)} lane_hints calls recorded ({cells / len(calls):.0f} cells a call on average)")
    bad = 0
    for a in calls[:args.check]:
        if beliefs._native.lane_hints(*a) != beliefs.lane_hints(*a):
            bad += 1
    print(f"the first {min(args.check, len(calls))} calls against the Python reference: "
          + ("identical" if not bad else f"{bad} DIFFER"))
    sides = {"this tree": beliefs._native}
    with tempfile.TemporaryDirectory() as tmp:
        if args.base:
            sides = {f"base {args.base}": build(args.base, Path(tmp)), **sides}
        best = {k: float("inf") for k in sides}
        want = None
        for _ in range(args.rounds):
            for label, module in sides.items():
                cpu, got = replay(module, calls)
                best[label] = min(best[label], cpu)
                if want is None:
                    want = got
                elif got != want:
                    bad += 1
                    print(f"!!! {label}: results differ")
    for label, cpu in best.items():
        print(f"{label:>20s}: best of {args.rounds} {cpu:.3f} s, {cpu / len(calls) * 1e3:.3f} ms a call")
    if args.base:
        print(f"ratio this tree / base: {best['this tree'] / best[f'base {args.base}']:.3f}")
    return 1 if bad else 0

