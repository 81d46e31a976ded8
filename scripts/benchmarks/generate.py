#!/usr/bin/env python3
"""Throughput of ``satnono generate`` with default options, one core, against issue 4's targets.

Targets (issue 4), accepted puzzles per CPU second: >= 100 line-solvable 25x25, >= 20 unique
30x30, >= 5 line-solvable 50x50, >= 5 ``search`` 20x20 (unique, not line-solvable).  The
process is pinned to one core.  For every case the script

1. runs :func:`satnono.generation.generate` (workers=1, default density band,
   style and timeout) until it has accepted ``count`` puzzles, and reports
   accepted puzzles per second of wall-clock and of CPU time, with the ratio
   to the target (>= 1.0 means the target is met);
2. runs a *reference* in the same process: the same candidates (drawn by
   :func:`satnono.generation.draw`, filtered by density) settled one by one by
   plain ``Checker.check`` (line propagation, then SAT: no vectorised
   propagation, no switch detection, no goal-guided SAT; for ``line`` just the
   core's scalar propagation, ``Checker.propagate``), within a time budget;
   then the fast path again on exactly those candidates.  It reports both
   rates, the speed-up, and whether both accepted the same candidates.

CPU time is the honest figure on a shared machine; wall-clock is what a user
sees.  The last lines name the cases whose target is met and missed (CPU).  Usage::

    bench.py generate            # all cases
    bench.py generate --quick    # fewer puzzles, smaller reference budget
    bench.py generate --json out.json
"""

from __future__ import annotations

import json
import os
import time

import benchlib

from satnono.generation import draw, generate
from satnono.lines.vector import grid_of
from satnono.model import Puzzle
from satnono.solve import Checker, Status

CASES = [
    # (width, height, require, target puzzles per second, puzzles to generate)
    (25, 25, "line", 100.0, 300),
    (30, 30, "unique", 20.0, 80),
    (50, 50, "line", 5.0, 20),
    (20, 20, "search", 5.0, 20),
]


def fast_run(w, h, require, count, seed, max_candidates=None):
    g = generate(w, h, count, seed=seed, require=require, max_candidates=max_candidates)
    c0, t0 = time.process_time(), time.perf_counter()
    names = [p.name for p in g]
    return names, g.stats, time.perf_counter() - t0, time.process_time() - c0


def reference_run(w, h, require, seed, budget, spec):
    """Plain Checker.check on candidates 0, 1, ... until ``budget`` CPU seconds are spent."""
    checker = Checker()
    cells = w * h
    accepted = []
    c0, t0 = time.process_time(), time.perf_counter()
    i = 0
    timeouts = 0
    while time.process_time() - c0 < budget:
        g = draw(spec, i)
        d = int(g.sum())
        if spec.lo * cells - 1e-9 <= d <= spec.hi * cells + 1e-9:
            p = Puzzle.from_grid(grid_of(g))
            if require == "line":  # the core's scalar propagation decides it; SAT would only waste time
                state, _ = checker.propagate(p)
                if state.is_complete():
                    accepted.append(f"gen-{w}x{h}-{seed}-{i}")
                i += 1
                continue
            r = checker.check(p, timeout=spec.timeout)
            if r.status == Status.UNKNOWN:
                timeouts += 1
            ok = {
                "line": r.line_solvable,
                "unique": r.status == Status.UNIQUE,
                "search": r.status == Status.UNIQUE and not r.line_solvable
                and r.stats.unknown_after_propagation >= spec.min_open,
                "any": True,
            }[require]
            if ok:
                accepted.append(f"gen-{w}x{h}-{seed}-{i}")
        i += 1
    return i, accepted, time.perf_counter() - t0, time.process_time() - c0, timeouts


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("generate", __doc__)
    ap.add_argument("--quick", action="store_true", help="fewer puzzles and a 3 s reference budget")
    ap.add_argument("--seed", type=int, default=2026, help="generation seed (default 2026)")
    ap.add_argument("--budget", type=float, default=None, help="reference CPU seconds per case (default 15, quick 3)")
    ap.add_argument("--no-reference", action="store_true", help="skip the plain-Checker reference")
    ap.add_argument("--json", metavar="FILE", help="also write the figures as JSON")
    args = ap.parse_args(argv)
    budget = args.budget if args.budget is not None else (3.0 if args.quick else 15.0)
    try:
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    except (AttributeError, OSError):
        pass
    print(f"satnono generate throughput, one core, default options (seed {args.seed})")
    print(f"{'case':<18} {'puzzles':>7} {'tried':>6} {'acc.rate':>8} {'/s wall':>8} {'/s cpu':>8} {'target':>6} "
          f"{'ratio(cpu)':>10} {'ratio(wall)':>11}")
    rows = []
    for w, h, req, target, count in CASES:
        if args.quick:
            count = max(5, count // 4)
        names, st, wall, cpu = fast_run(w, h, req, count, args.seed)
        rate_w, rate_c = len(names) / wall, len(names) / cpu
        case = f"{w}x{h} {req}"
        print(f"{case:<18} {len(names):>7} {st.tried:>6} {st.acceptance_rate:>8.3f} {rate_w:>8.1f} {rate_c:>8.1f} "
              f"{target:>6.0f} {rate_c / target:>10.2f} {rate_w / target:>11.2f}", flush=True)
        rows.append(dict(case=case, width=w, height=h, require=req, target=target, puzzles=len(names),
                         stats=st.as_dict(), wall=wall, cpu=cpu, per_second_wall=rate_w, per_second_cpu=rate_c,
                         ratio_cpu=rate_c / target, ratio_wall=rate_w / target))
    if not args.no_reference:
        print()
        print(f"reference: plain Checker.check on the same candidates ({budget:.0f} s CPU budget per case)")
        print(f"{'case':<18} {'cands':>6} {'ref acc':>7} {'ref /s':>8} {'fast /s':>8} {'speed-up':>8} {'same':>5}")
        for row in rows:
            w, h, req = row["width"], row["height"], row["require"]
            spec = generate(w, h, 1, seed=args.seed, require=req).spec
            n, ref_acc, ref_wall, ref_cpu, timeouts = reference_run(w, h, req, args.seed, budget, spec)
            names, st, wall, cpu = fast_run(w, h, req, 10 ** 9, args.seed, max_candidates=n)
            ref_rate = len(ref_acc) / ref_cpu
            fast_rate = len(names) / cpu
            same = names == ref_acc
            speed = (ref_cpu / n) / (cpu / n)
            print(f"{row['case']:<18} {n:>6} {len(ref_acc):>7} {ref_rate:>8.2f} {fast_rate:>8.1f} {speed:>7.1f}x "
                  f"{'yes' if same else 'NO':>5}" + (f"  ({timeouts} reference timeouts)" if timeouts else ""),
                  flush=True)
            row["reference"] = dict(candidates=n, accepted=len(ref_acc), cpu=ref_cpu, wall=ref_wall,
                                    per_second_cpu=ref_rate, fast_cpu_same_candidates=cpu,
                                    fast_per_second_cpu=fast_rate, speedup=speed, same_accepted=same,
                                    timeouts=timeouts)
    print()
    met = [r["case"] for r in rows if r["ratio_cpu"] >= 1.0]
    missed = [r["case"] for r in rows if r["ratio_cpu"] < 1.0]
    print("targets met (CPU time): " + (", ".join(met) or "none"))
    if missed:
        print("targets missed (CPU time): " + ", ".join(missed))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=2)
    return 0

