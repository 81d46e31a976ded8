#!/usr/bin/env python3
"""The compiled clause feeder against python-sat's binding, puzzle by puzzle in one process.

    bench.py feeder                          # the three tournament files, first 300 each
    bench.py feeder taai2011 icga2017 icga2020 --limit 1000
    bench.py feeder survey dom random

``satnono.sat`` hands clauses to CaDiCaL through the compiled core where it can: ``feed_flat``
for an encoding kept in the flat form (C ints, each clause's literals then 0, written by the
compiled clause builder without a Python object per clause: ``encode(..., flat=True)``, which
settle asks for when the session can take it, ``satnono.sat.feeds_flat``), or ``feed_clauses``
for clauses as lists (one C loop over every literal, calling CaDiCaL's own ``Solver::add``);
otherwise through python-sat's binding (one Python call per clause).  This settles every puzzle
the three ways, one right after the other (the order rotating from puzzle to puzzle, one
``Checker`` for all, as ``bench.py sets`` has one per set), so all sides see the machine in the same
state: on a shared machine whose speed drifts by tens of percent between runs, that is what
resolves a difference of a few percent.  It prints per set and in all the CPU seconds of each
side, the ratios flat / lists and lists / binding, and the milliseconds the flat form saves a
puzzle against lists.  The three ways must find the same verdicts, solutions, clause counts and
conflict counts (exit 1 otherwise; exit 2 when the feeder is not available here).  A study:
no target; it chose the flat form (flat / lists below 1) and the compiled feeder (lists /
binding below 1).
"""

from __future__ import annotations

import time

import benchlib

import satnono.sat as sat_module
from satnono.solve import Checker

DEFAULT_SETS = benchlib.TOURNAMENT_SETS


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("feeder", __doc__)
    ap.add_argument("sets", nargs="*", default=list(DEFAULT_SETS), help="sets of bench.py sets")
    ap.add_argument("--limit", type=int, default=300, help="puzzles per set (default 300)")
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)

    feed_call = sat_module._feed_call
    with sat_module.SatSession([[1]]) as probe:
        if probe._feed is None:
            print("the compiled clause feeder is not available here (no compiled core, not Linux, "
                  "or python-sat's CaDiCaL symbol not found)")
            return 2

    def binding(name: str, inner: object) -> None:
        return None

    feeds_flat = sat_module.feeds_flat
    sides = ("flat", "lists", "binding")

    def use(side: str) -> None:
        sat_module._feed_call = feed_call if side != "binding" else binding  # type: ignore[assignment]
        sat_module.feeds_flat = feeds_flat if side == "flat" else (lambda name: False)  # type: ignore[assignment]

    totals = dict.fromkeys(sides, 0.0)
    puzzles = 0
    bad = 0
    print(f"{'set':12s} {'puzzles':>7s} {'flat s':>8s} {'lists s':>8s} {'binding s':>9s} {'flat/lists':>10s} "
          f"{'lists/binding':>13s} {'saved ms':>9s}")
    try:
        for name in args.sets:
            items = benchlib.load_set(name, args.corpus, args.limit)
            checker = Checker()
            cpu = dict.fromkeys(sides, 0.0)
            for i, item in enumerate(items):
                puzzle = benchlib.clues_only(item.puzzle)
                found = {}
                for side in sides[i % 3:] + sides[:i % 3]:
                    use(side)
                    c0 = time.process_time()
                    r = checker.check(puzzle)
                    cpu[side] += time.process_time() - c0
                    found[side] = (r.status, r.solutions, r.stats.conflicts, r.stats.cnf_clauses)
                if not found["flat"] == found["lists"] == found["binding"]:
                    bad += 1
                    print(f"   !!! {item.name}: " + ", ".join(f"{side} {found[side][0].value} in {found[side][2]} conflicts"
                                                        for side in sides))
            n = len(items)
            puzzles += n
            for side in cpu:
                totals[side] += cpu[side]
            print(_row(name, n, cpu))
    finally:
        use("flat")
    print(_row("all", puzzles, totals))
    print("the same verdicts, solutions, clauses and conflicts all three ways" if not bad
          else f"!!! {bad} puzzles differ between the ways")
    return 1 if bad else 0


def _row(name: str, n: int, cpu: dict[str, float]) -> str:
    def ratio(a: float, b: float) -> float:
        return a / b if b else float("nan")

    saved = (cpu["lists"] - cpu["flat"]) / n * 1e3 if n else float("nan")
    return (f"{name:12s} {n:7d} {cpu['flat']:8.2f} {cpu['lists']:8.2f} {cpu['binding']:9.2f} "
            f"{ratio(cpu['flat'], cpu['lists']):10.3f} {ratio(cpu['lists'], cpu['binding']):13.3f} {saved:9.2f}")

