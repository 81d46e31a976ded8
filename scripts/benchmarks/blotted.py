#!/usr/bin/env python3
"""Blotted clues (issue 17), satnono against a CP-SAT model: ``bench.py blotted [--limit N]``.

The puzzles of the corpus sets that ``bench.py sets`` loads (survey, n-Dom, Wilk, nonogram-db and
the colour set: random colour pictures and the survey's colour files) with 20 %, 40 % and
60 % of their clue numbers blotted (``satnono.blot.hide_numbers``, seed 17), each settled by
satnono (one ``Checker`` per fraction) and by the in-run CP-SAT model
(``cpsat_ref.check_blotted``: an automaton per line in which a blotted block's length is
free).  Per fraction it prints the puzzles, the verdicts that agree (they must all), satnono
CPU seconds, CP-SAT CPU seconds and the ratio; the target is satnono at least 5x faster in
total.  Every solution is checked against the blotted clues; a ``unique`` must be the goal
picture where the file has one, ``none`` is wrong wherever a goal exists.  Exit 1 on any
disagreement or wrong verdict.

``--reach``: how far the generator gets instead: :func:`satnono.blot.blot` with
``require="unique"`` and ``"line"`` on five 20x20 line-solvable generated pictures: per
picture the numbers hidden, SAT checks and seconds, then the mean and range per requirement.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import benchlib
from benchlib import load_set

from satnono.blot import blot, hide_numbers
from satnono.solve import Checker

FRACTIONS = (0.2, 0.4, 0.6)
SEED = 17
SETS = ("survey", "dom", "wilk", "nonogram-db", "colour")
SETTLED = {"unique", "multiple", "none"}


def problems(puzzle, status: str, solutions, who: str) -> list[str]:
    out = [f"{who}: a solution breaks the blotted clues" for s in solutions if not puzzle.is_solution(s)]
    goal = puzzle.goal
    if goal is not None and puzzle.is_solution(goal):
        if status == "none":
            out.append(f"{who}: 'none' but the goal satisfies the blotted clues")
        elif status == "unique" and solutions and tuple(solutions[0]) != tuple(goal):
            out.append(f"{who}: 'unique' but not the goal")
    return out


def run(corpus: Path, limit: int | None, timeout: float, out: Callable[[str], None]) -> int:
    import cpsat_ref

    if not cpsat_ref.AVAILABLE:
        out("bench blotted: needs ortools for the CP-SAT reference (pip install -e '.[bench]')")
        return 2
    items = [(name, it) for name in SETS for it in load_set(name, corpus, limit)]
    out(f"satnono bench blotted: {len(items)} puzzles ({', '.join(SETS)}; --limit {limit}) x fractions "
        f"{', '.join(f'{f:.0%}' for f in FRACTIONS)}, seed {SEED}; timeout {timeout:g} s each side; "
        f"reference: OR-tools {cpsat_ref.VERSION} CP-SAT, 1 worker")
    out(f"{'blotted':>7} {'puzzles':>7} {'same':>5} {'satnono s':>10} {'CP-SAT s':>9} {'ratio':>7}   satnono verdicts")
    bad = 0
    tot_sat = tot_ref = 0.0
    for frac in FRACTIONS:
        checker = Checker()
        sat_cpu = ref_cpu = 0.0
        same = 0
        verdicts: Counter = Counter()
        for name, it in items:
            p = hide_numbers(it.puzzle, frac, seed=SEED)
            c0 = time.process_time()
            res = checker.check(p, timeout)
            sat_cpu += time.process_time() - c0
            lines = [(c.lengths, c.colors, c.blots) for c in p.row_clues], [(c.lengths, c.colors, c.blots)
                                                                            for c in p.column_clues]
            c0 = time.process_time()
            ref = cpsat_ref.check_blotted(*lines, p.chars, timeout)
            ref_cpu += time.process_time() - c0
            st = str(res.status)
            verdicts[st] += 1
            probs = problems(p, st, res.solutions, "satnono") + problems(p, ref.status, ref.solutions, "CP-SAT")
            if st in SETTLED and ref.status in SETTLED and st != ref.status:
                probs.append(f"verdicts differ: satnono {st}, CP-SAT {ref.status}")
            elif st == ref.status:
                same += 1
            else:  # one side did not settle within the timeout: said, not hidden
                out(f"  ~ {it.name} at {frac:.0%}: satnono {st}, CP-SAT {ref.status}")
            if probs:
                bad += 1
                out(f"  !!! {it.name} at {frac:.0%}: {'; '.join(probs)}")
        tot_sat += sat_cpu
        tot_ref += ref_cpu
        ratio = ref_cpu / sat_cpu if sat_cpu else float("inf")
        out(f"{frac:7.0%} {len(items):7d} {same:5d} {sat_cpu:10.3f} {ref_cpu:9.3f} {ratio:6.1f}x   "
            f"{dict(sorted(verdicts.items()))}")
    ratio = tot_ref / tot_sat if tot_sat else float("inf")
    ok = ratio >= 5.0 and not bad
    out(f"{'all':>7} {3 * len(items):7d} {'':5} {tot_sat:10.3f} {tot_ref:9.3f} {ratio:6.1f}x   "
        f"target: satnono >= 5x faster with the same verdicts: {'PASS' if ok else 'FAIL'}")
    return 1 if bad else 0


def reach(out: Callable[[str], None], count: int = 5, seed: int = 1) -> int:
    """How many clue numbers :func:`blot` hides on 20x20 line-solvable pictures."""
    from satnono.generation import generate

    pics = list(generate(20, 20, count, seed=seed, require="line"))
    checker = Checker()
    out(f"blot on {count} 20x20 line-solvable pictures (generate(20, 20, {count}, seed={seed})), blot seed 0:")
    for require in ("unique", "line"):
        fr, secs = [], []
        for p in pics:
            r = blot(p, require=require, seed=0, checker=checker)
            fr.append(r.fraction)
            secs.append(r.seconds)
            out(f"  {require:6} {p.name}: hid {r.hidden} of {r.total} numbers ({r.fraction:.0%}), "
                f"{r.sat_calls} SAT checks, {r.seconds:.2f} s")
        out(f"  {require:6} mean {sum(fr) / len(fr):.0%} (range {min(fr):.0%}-{max(fr):.0%}), "
            f"{sum(secs) / len(secs):.2f} s per picture")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("blotted", __doc__)
    ap.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N puzzles of each set")
    ap.add_argument("--timeout", type=float, default=60.0, help="per puzzle and side, seconds (default 60)")
    benchlib.add_corpus(ap)
    ap.add_argument("--reach", action="store_true", help="how far the generator gets, instead")
    args = ap.parse_args(argv)

    def out(msg: str = "") -> None:
        print(msg, flush=True)

    if args.reach:
        return reach(out)
    if not args.corpus.is_dir():
        out(f"bench blotted: corpus not found at {args.corpus} (use --corpus or SATNONO_CORPUS)")
        return 2
    return run(args.corpus, args.limit, args.timeout, out)
