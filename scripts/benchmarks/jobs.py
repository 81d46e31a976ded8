"""``--jobs N`` against ``--jobs 1`` (issue 41): wall seconds, paired, in the same run.

    bench.py jobs                                # every group, --jobs 2 against 1
    bench.py jobs colour36 --colour36-count 10   # a smoke test: the first 10 draws
    bench.py jobs deadline hard                  # #158, Knotty and Faase
    bench.py jobs tournament --pick-from 100     # the hardest 20 of the first 100 of each file
    bench.py jobs --jobs 4 --csv jobs.csv

What it measures.  Each puzzle is settled from its clues alone (``Checker.check``, a fresh
Checker each time: no line cache carried over) once with ``--jobs 1`` and once with ``--jobs
N``, the two runs back to back, the first of them alternating from puzzle to puzzle so that a
change of load on a shared machine hits both sides alike.  Per run: wall seconds
(``time.perf_counter``), CPU seconds (the portfolio's, its members included; the process's own
with one job), the verdict, the winning member.  The load average is printed before and after:
on a loaded machine the portfolio's members share the cores with everything else, and its
figures mean little.

Groups (default: all four):
  colour36    issue 19's 36x40 two-colour pictures, seeds 0 to --colour36-count - 1 (80), each
              run with --timeout 60: how many settle within 10 s, how many not within 60 s
  deadline    the deadline set's #158 (benchlib.DEADLINE_SEEDS), --timeout 60
  hard        Knotty and Faase, --timeout 600
  tournament  the 20 tournament puzzles (taai2011, icga2017, icga2020) that need the most
              conflicts with one job (a first pass over the first --pick-from puzzles of each
              file, default all 1,000; conflicts do not depend on the load), --timeout 60

Targets (issue 41), PASS / FAIL / not run:
  colour36 with --jobs N: at least 76 of the 80 within 10 s, none unsettled at 60 s;
  #158 with --jobs N within 5 s;
  Knotty, Faase and the 20 tournament puzzles: --jobs N wall <= 0.7x --jobs 1 (each of Knotty
    and Faase, the twenty's total);
  every verdict settled both ways agrees.
That ``--jobs 1`` leaves every other figure of bench.py as it was (its code path is the one
search of before) is measured by ``bench.py compare --base COMMIT SETS`` (CPU, paired rounds).

CSV columns (--csv): group puzzle jobs status wall_s cpu_s conflicts members winner reason.
Exit status: 0 every target run passed, 1 otherwise.
"""

from __future__ import annotations

import csv
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import benchlib
from benchlib import COLOUR36_COUNT, SETTLED, TOURNAMENT_SETS, Item, clues_only, load_set

GROUPS = ("colour36", "deadline", "hard", "tournament")
COLOUR36_DRAWS = 80
WITHIN = 10.0  # colour36: settled within this many seconds ...
COLOUR36_TIMEOUT = 60.0  # ... and none unsettled at this
DEADLINE_NAME = "#158"
DEADLINE_TARGET = 5.0
HARD_TIMEOUT = 600.0
TIMEOUT = 60.0
RATIO = 0.7
TOURNAMENT_PICK = 20
COLUMNS = ["group", "puzzle", "jobs", "status", "wall_s", "cpu_s", "conflicts", "members", "winner", "reason"]


@dataclass
class Run:
    group: str
    puzzle: str
    jobs: int
    status: str
    wall: float
    cpu: float
    conflicts: int
    members: int
    winner: int | None
    reason: str

    def csv(self) -> dict:
        return {"group": self.group, "puzzle": self.puzzle, "jobs": self.jobs, "status": self.status,
                "wall_s": f"{self.wall:.6f}", "cpu_s": f"{self.cpu:.6f}", "conflicts": self.conflicts,
                "members": self.members, "winner": "" if self.winner is None else self.winner,
                "reason": self.reason}


def settle(group: str, item: Item, jobs: int, timeout: float) -> Run:
    """One run of ``item`` with ``jobs`` (a fresh Checker; the clues alone)."""
    from satnono.solve import Checker

    puzzle = clues_only(item.puzzle)
    checker = Checker()
    c0, w0 = time.process_time(), time.perf_counter()
    st = checker.settle(puzzle, limits=_limits(timeout, jobs))
    wall = time.perf_counter() - w0
    res = st.result
    cpu = res.cpu_seconds if res.cpu_seconds is not None else time.process_time() - c0
    winner = st.outcome.winner if st.outcome is not None else None
    for s in res.solutions:  # (verified by satnono already; the benchmark checks again)
        assert puzzle.is_solution(s), f"{item.name}: a reported solution breaks the clues"
    return Run(group, item.name, jobs, str(res.status), wall, cpu, res.stats.conflicts, res.jobs, winner,
               res.reason or "")


def _limits(timeout: float, jobs: int):  # type: ignore[no-untyped-def]
    from satnono.results import Limits

    return Limits(timeout, jobs=jobs)


def paired(group: str, items: list[Item], jobs: int, timeout: float, out: list[Run], say) -> list[tuple[Run, Run]]:  # type: ignore[no-untyped-def]
    """Each item with one job and with ``jobs``, back to back, alternating which goes first."""
    pairs = []
    for i, item in enumerate(items):
        order = (1, jobs) if i % 2 == 0 else (jobs, 1)
        runs = {n: settle(group, item, n, timeout) for n in order}
        one, many = runs[1], runs[jobs]
        out += [one, many]
        pairs.append((one, many))
        agree = "" if not (one.status in SETTLED and many.status in SETTLED) or one.status == many.status \
            else "  !!! verdicts differ"
        say(f"  {item.name}: {one.status} {one.wall:.2f} s | --jobs {jobs}: {many.status} {many.wall:.2f} s "
            f"({many.cpu:.2f} s CPU, member {many.winner}){agree}")
    return pairs


def hardest_tournament(corpus: Path, pick_from: int | None, count: int, say) -> list[Item]:  # type: ignore[no-untyped-def]
    """The ``count`` tournament puzzles that need the most conflicts with one job."""
    from satnono.solve import Checker

    scored = []
    checker = Checker()
    for name in TOURNAMENT_SETS:
        items = load_set(name, corpus, pick_from)
        for item in items:
            res = checker.check(clues_only(item.puzzle), TIMEOUT)
            scored.append((res.stats.conflicts, item))
        say(f"  picked from {name}: {len(items)} puzzles")
    scored.sort(key=lambda x: -x[0])
    return [item for _, item in scored[:count]]


@dataclass
class Target:
    name: str
    value: str
    ok: bool | None  # None: not run


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("jobs", __doc__)
    ap.add_argument("groups", nargs="*", choices=GROUPS, default=[], metavar="GROUP",
                    help=f"groups to run: {', '.join(GROUPS)} (default: all)")
    ap.add_argument("--jobs", type=int, default=2, help="jobs to compare with one (default 2)")
    ap.add_argument("--colour36-count", type=int, default=COLOUR36_DRAWS, metavar="N",
                    help=f"colour36 draws, seeds 0 to N-1 (default {COLOUR36_DRAWS}; bench.py sets uses {COLOUR36_COUNT})")
    ap.add_argument("--pick-from", type=int, default=None, metavar="N",
                    help="tournament: pick the hardest among the first N puzzles of each file (default all)")
    ap.add_argument("--csv", type=Path, default=None, help="write every run here")
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)
    if args.jobs < 2:
        ap.error("--jobs must be at least 2 (it is compared with 1)")
    groups = args.groups or list(GROUPS)

    def say(text: str) -> None:
        print(text, flush=True)

    say(f"bench.py jobs: --jobs {args.jobs} against --jobs 1, wall seconds; {os.cpu_count()} cores, "
        f"load average {os.getloadavg()[0]:.2f} at the start")
    runs: list[Run] = []
    targets: list[Target] = []
    agree = True

    def check_agreement(pairs: list[tuple[Run, Run]]) -> None:
        nonlocal agree
        for one, many in pairs:
            if one.status in SETTLED and many.status in SETTLED and one.status != many.status:
                agree = False

    if "colour36" in groups:
        items = load_set("colour36", args.corpus, None, args.colour36_count)
        say(f"colour36: {len(items)} draws, --timeout {COLOUR36_TIMEOUT:g}")
        pairs = paired("colour36", items, args.jobs, COLOUR36_TIMEOUT, runs, say)
        check_agreement(pairs)
        for side, pick in (("1", 0), (str(args.jobs), 1)):
            sel = [p[pick] for p in pairs]
            within = sum(r.status in SETTLED and r.wall <= WITHIN for r in sel)
            unsettled = sum(r.status not in SETTLED for r in sel)
            walls = sorted(r.wall for r in sel)
            say(f"  --jobs {side}: {within} of {len(sel)} within {WITHIN:g} s, {unsettled} unsettled at "
                f"{COLOUR36_TIMEOUT:g} s, median {walls[len(walls) // 2]:.2f} s, total {sum(walls):.1f} s")
        sel = [p[1] for p in pairs]
        full = len(items) == COLOUR36_DRAWS
        need = 76 * len(items) / COLOUR36_DRAWS
        within = sum(r.status in SETTLED and r.wall <= WITHIN for r in sel)
        targets.append(Target(f"colour36 --jobs {args.jobs}: within {WITHIN:g} s (>= 76 of 80)",
                              f"{within} of {len(sel)}", within >= need if full else None))
        unsettled = sum(r.status not in SETTLED for r in sel)
        targets.append(Target(f"colour36 --jobs {args.jobs}: unsettled at {COLOUR36_TIMEOUT:g} s (none)",
                              str(unsettled), unsettled == 0 if full else None))
    if "deadline" in groups:
        items = [it for it in load_set("deadline", args.corpus, None) if it.name.endswith(DEADLINE_NAME)]
        say(f"deadline {DEADLINE_NAME}: --timeout {TIMEOUT:g}")
        pairs = paired("deadline", items, args.jobs, TIMEOUT, runs, say)
        check_agreement(pairs)
        many = pairs[0][1]
        targets.append(Target(f"deadline {DEADLINE_NAME} --jobs {args.jobs} within {DEADLINE_TARGET:g} s",
                              f"{many.wall:.2f} s", many.status in SETTLED and many.wall <= DEADLINE_TARGET))
    ratio_groups: list[tuple[str, list[Item], float]] = []
    if "hard" in groups:
        for it in load_set("hard", args.corpus, None):
            ratio_groups.append((Path(it.name).stem.capitalize(), [it], HARD_TIMEOUT))
    if "tournament" in groups:
        say(f"tournament: picking the {TOURNAMENT_PICK} that need the most conflicts with one job ...")
        ratio_groups.append((f"tournament hardest {TOURNAMENT_PICK}",
                             hardest_tournament(args.corpus, args.pick_from, TOURNAMENT_PICK, say), TIMEOUT))
    for name, items, timeout in ratio_groups:
        say(f"{name}: --timeout {timeout:g}")
        pairs = paired(name, items, args.jobs, timeout, runs, say)
        check_agreement(pairs)
        one = sum(p[0].wall for p in pairs)
        many = sum(p[1].wall for p in pairs)
        settled = all(p[1].status in SETTLED for p in pairs)
        ratio = many / one if one > 0 else float("inf")
        targets.append(Target(f"{name}: --jobs {args.jobs} / --jobs 1 wall (<= {RATIO:g}x)",
                              f"{many:.2f} / {one:.2f} s = {ratio:.2f}x", settled and ratio <= RATIO))
    targets.append(Target("verdicts agree (--jobs 1 and --jobs N, where both settled)", "yes" if agree else "NO",
                          agree))
    if args.csv is not None:
        with args.csv.open("w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=COLUMNS)
            w.writeheader()
            for r in runs:
                w.writerow(r.csv())
    say(f"\nload average {os.getloadavg()[0]:.2f} at the end (on {os.cpu_count()} cores)")
    say("targets (issue 41):")
    for t in targets:
        word = "not run" if t.ok is None else "PASS" if t.ok else "FAIL"
        say(f"  {t.name:62} {t.value:>28}  {word}")
    return 0 if all(t.ok is not False for t in targets) else 1


if __name__ == "__main__":
    sys.exit(main())
