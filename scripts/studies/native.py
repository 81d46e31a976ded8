#!/usr/bin/env python3
"""The compiled core against the pure-Python path: CPU time per set, and the ratio.

    bench.py native                       # icga2017:300, survey, cauldron, colour
    bench.py native icga2017:300 --rounds 3
    bench.py native icga2017:300 --profile 15

Each measurement runs in a child process (one ``Checker`` per set, as ``bench.py sets`` does),
once with the compiled core and once with ``SATNONO_PURE=1``, alternating, ``--rounds``
times; the CPU time is taken inside the child (``time.process_time`` around the checks, so
start-up and loading are left out), and the best round of each mode is reported.  The
verdicts and solutions of the two modes must agree (the exit code is 1 otherwise).
``--profile N`` prints the N functions with the most cumulative time in one more native run.
Prints per set: puzzles, native CPU s, pure CPU s and pure / native.  A study: no target; it
says what the compiled core is worth (and the pure-Python fallback costs).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import benchlib

DEFAULT = ("icga2017:300", "survey", "cauldron", "colour")


def _child(spec: str, corpus: Path, profile: int) -> None:
    from satnono.cnf import ladders
    from satnono.lines import bw, color
    from satnono.solve import Checker

    _, items = benchlib.load_spec(spec, corpus)
    checker = Checker()
    prof = None
    if profile:
        import cProfile

        prof = cProfile.Profile(time.process_time)  # CPU time: a shared machine's load stays out
        prof.enable()
    t0 = time.process_time()
    digest = hashlib.sha256()
    for it in items:
        r = checker.check(it.puzzle)
        digest.update(repr((it.name, str(r.status), r.solutions)).encode())
    cpu = time.process_time() - t0
    if prof is not None:
        import io
        import pstats

        prof.disable()
        out = io.StringIO()
        pstats.Stats(prof, stream=out).sort_stats("cumulative").print_stats(profile)
        sys.stderr.write(out.getvalue())
    print(json.dumps({"cpu": cpu, "n": len(items), "verdicts": digest.hexdigest(),
                      "native": [bw.NATIVE, ladders.NATIVE, color.NATIVE]}))


def _run(spec: str, corpus: Path, pure: bool, profile: int = 0) -> dict:
    env = dict(os.environ)
    env.pop("SATNONO_PURE", None)
    if pure:
        env["SATNONO_PURE"] = "1"
    cmd = [sys.executable, str(benchlib.SCRIPTS / "bench.py"), "native", "--child", spec, "--corpus", str(corpus),
           "--profile", str(profile)]
    run = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise SystemExit(f"bench_native: {spec} failed:\n{run.stderr}")
    if profile:
        sys.stdout.write(run.stderr)
    return json.loads(run.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("native", __doc__)
    ap.add_argument("sets", nargs="*", default=list(DEFAULT), help="sets of bench.py sets, NAME:LIMIT for the first LIMIT")
    benchlib.add_corpus(ap)
    ap.add_argument("--rounds", type=int, default=1, help="native/pure pairs per set, the best of each kept (default 1)")
    ap.add_argument("--profile", type=int, default=0, help="print the top N of a native profile per set")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    if a.child:
        _child(a.child, a.corpus, a.profile)
        return 0
    bad = 0
    print(f"{'set':<16} {'puzzles':>7} {'native s':>9} {'pure s':>9} {'pure/native':>11}")
    for spec in a.sets:
        best: dict[bool, dict] = {}
        for _ in range(a.rounds):
            for pure in (False, True):
                r = _run(spec, a.corpus, pure)
                if r["native"] != [not pure] * 3:
                    print(f"{spec}: the {'pure' if pure else 'native'} run used native={r['native']}")
                    bad += 1
                if pure not in best or r["cpu"] < best[pure]["cpu"]:
                    best[pure] = r
        nat, pur = best[False], best[True]
        if nat["verdicts"] != pur["verdicts"]:
            print(f"{spec}: the verdicts or solutions differ between native and pure!")
            bad += 1
        print(f"{spec:<16} {nat['n']:>7} {nat['cpu']:>9.2f} {pur['cpu']:>9.2f} {pur['cpu'] / nat['cpu']:>10.2f}x")
        if a.profile:
            for pure in (False, True):
                print(f"--- {spec}, {'pure' if pure else 'native'}, cumulative CPU seconds")
                _run(spec, a.corpus, pure, a.profile)
    return 1 if bad else 0

