#!/usr/bin/env python3
"""A long fuzzing run over every reader (the test suite runs a bounded one).

Uses the harness of tests/_fuzz.py: each target (a format's reader, the sniffer,
FILE#k, PBM bytes) reads valid files mutated by Hypothesis; only ParseError may escape
and what is read must be sound.  Prints, per target, how many inputs ran and what came
of them (read, ParseError, 'none' verdicts), and every failure with its input.

    python scripts/fuzz.py                      # 2,000 inputs per target
    python scripts/fuzz.py -n 20000 --target sniff --target json
    python scripts/fuzz.py --seed 7             # another random sequence

Exit status: 0 when no target failed, 1 otherwise.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, seed, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from _fuzz import TARGETS, check_input, mutated  # noqa: E402


def run(target, n: int, rng_seed: int) -> tuple[Counter, str | None]:
    outcomes: Counter = Counter()

    @seed(rng_seed)
    @settings(max_examples=n, deadline=None, database=None, derandomize=False, print_blob=True,
              suppress_health_check=list(HealthCheck))
    @given(d=st.data())
    def prop(d):
        data = mutated(d, target.pool())
        outcomes[check_input(target, data, d)] += 1
        outcomes["inputs"] += 1

    try:
        prop()
    except Exception as e:  # Hypothesis re-raises the failure on the shrunk input
        return outcomes, f"{type(e).__name__}: {e}"
    return outcomes, None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", type=int, default=2000, help="inputs per target (default 2000)")
    ap.add_argument("--target", action="append", help="only these targets (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    chosen = [t for t in TARGETS if not args.target or t.name in args.target]
    if not chosen:
        print(f"no such target; choose from: {', '.join(t.name for t in TARGETS)}", file=sys.stderr)
        return 2
    failures = 0
    total = 0
    t0 = time.monotonic()
    print(f"{'target':<12} {'inputs':>8} {'read':>8} {'ParseError':>10} {'none':>6} {'seconds':>8}  (none: read, clues unsatisfiable)")
    for t in chosen:
        t1 = time.monotonic()
        outcomes, failure = run(t, args.n, args.seed)
        total += outcomes["inputs"]
        print(f"{t.name:<12} {outcomes['inputs']:>8} {outcomes['ok']:>8} {outcomes['parse-error']:>10} "
              f"{outcomes['none']:>6} {time.monotonic() - t1:>8.1f}")
        if failure:
            failures += 1
            print(f"  FAILED: {failure}")
    print(f"{total} inputs in {time.monotonic() - t0:.0f} s; {failures} target(s) failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
