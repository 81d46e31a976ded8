#!/usr/bin/env python3
"""The compiled clause feeder against python-sat's binding, puzzle by puzzle in one process.

    python scripts/bench_feeder.py                          # the three tournament files, first 300 each
    python scripts/bench_feeder.py taai2011 icga2017 icga2020 --limit 1000
    python scripts/bench_feeder.py survey dom random

``satnono.sat`` hands clauses to CaDiCaL through ``feed_clauses`` of the compiled core (one C
loop over every literal, calling CaDiCaL's own ``Solver::add``) where it can, and through
python-sat's binding (one Python call per clause) otherwise.  This settles every puzzle both
ways, one right after the other (the order alternating from puzzle to puzzle, one ``Checker``
for both, as ``bench.py`` has one per set), so both sides see the machine in the same state: on
a shared machine whose speed drifts by tens of percent between runs, that is what resolves a
difference of a few percent.  It prints per set and in all the CPU seconds of each side, their
ratio and the milliseconds saved a puzzle.  The two ways must find the same verdicts, solutions
and conflict counts (exit 1 otherwise; exit 2 when the feeder is not available here).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE.parent) not in sys.path:
    sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

import bench  # noqa: E402

import satnono.sat as sat_module  # noqa: E402
from satnono.solve import Checker  # noqa: E402

DEFAULT_SETS = bench.TOURNAMENT_SETS


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sets", nargs="*", default=list(DEFAULT_SETS), help="sets of scripts/bench.py")
    ap.add_argument("--limit", type=int, default=300, help="puzzles per set (default 300)")
    ap.add_argument("--corpus", type=Path, default=bench.DEFAULT_CORPUS, help=f"the corpus directory (default {bench.DEFAULT_CORPUS})")
    args = ap.parse_args(argv)

    feed_call = sat_module._feed_call
    with sat_module.SatSession([[1]]) as probe:
        if probe._feed is None:
            print("the compiled clause feeder is not available here (no compiled core, not Linux, "
                  "or python-sat's CaDiCaL symbol not found)")
            return 2

    def binding(name: str, inner: object) -> None:
        return None

    totals = {"feeder": 0.0, "binding": 0.0}
    puzzles = 0
    bad = 0
    print(f"{'set':12s} {'puzzles':>7s} {'feeder s':>9s} {'binding s':>9s} {'ratio':>7s} {'saved ms':>9s}")
    try:
        for name in args.sets:
            items = bench.load_set(name, args.corpus, args.limit)
            checker = Checker()
            cpu = {"feeder": 0.0, "binding": 0.0}
            for i, item in enumerate(items):
                puzzle = bench.clues_only(item.puzzle)
                found = {}
                for side in (("feeder", "binding") if i % 2 else ("binding", "feeder")):
                    sat_module._feed_call = feed_call if side == "feeder" else binding  # type: ignore[assignment]
                    c0 = time.process_time()
                    r = checker.check(puzzle)
                    cpu[side] += time.process_time() - c0
                    found[side] = (r.status, r.solutions, r.stats.conflicts)
                if found["feeder"] != found["binding"]:
                    bad += 1
                    print(f"   !!! {item.name}: feeder {found['feeder'][0].value} in {found['feeder'][2]} conflicts, "
                          f"binding {found['binding'][0].value} in {found['binding'][2]}")
            n = len(items)
            puzzles += n
            for side in cpu:
                totals[side] += cpu[side]
            print(_row(name, n, cpu))
    finally:
        sat_module._feed_call = feed_call  # type: ignore[assignment]
    print(_row("all", puzzles, totals))
    print("the same verdicts, solutions and conflicts both ways" if not bad
          else f"!!! {bad} puzzles differ between the two ways")
    return 1 if bad else 0


def _row(name: str, n: int, cpu: dict[str, float]) -> str:
    ratio = cpu["feeder"] / cpu["binding"] if cpu["binding"] else float("nan")
    saved = (cpu["binding"] - cpu["feeder"]) / n * 1e3 if n else float("nan")
    return f"{name:12s} {n:7d} {cpu['feeder']:9.2f} {cpu['binding']:9.2f} {ratio:7.3f} {saved:9.2f}"


if __name__ == "__main__":
    sys.exit(main())
