"""satnono over named puzzle sets, in one process, with an in-run CP-SAT reference.

    bench.py sets [SET ...] [options]       (or without `sets`: bench.py survey dom ...)
    bench.py                                 # the default sets, with the reference
    bench.py survey dom --no-reference       # quick: satnono only
    bench.py tournament --csv t.csv          # taai2011 + icga2017 + icga2020 (minutes)
    bench.py hard --timeout 600 --ref-timeout 600       # Knotty and Faase
    bench.py deadline --no-reference --no-startup       # --timeout 200 against none
    bench.py rules connected                 # extra rules, CP-SAT with the same rules
    bench.py survey dom tournament random --no-reference   # issue 19's table, with the probe
    bench.py dom --limit 3 --no-reference --no-startup --csv /tmp/b.csv   # smoke test

What it measures.  Each set is settled one puzzle at a time with one `Checker` per set (a
shared line cache, as the command line has), satnono given the clues alone (a stored
solution only checks the verdict; --stored-solutions gives it the puzzle as read).  Per
puzzle: CPU seconds (`time.process_time`) and wall seconds around `Checker.check` (loading
is timed apart and left out), the verdict, the work done (unknown cells after propagation,
CNF variables and clauses, SAT calls, conflicts) and the peak RSS (on Linux VmHWM, reset
before each puzzle through /proc/self/clear_refs, freed heap handed back before each set;
elsewhere ru_maxrss, the process peak so far).  The targets use CPU seconds; on the shared
2-core machines the same run varied by up to +-20 %: compare figures of one run.
  Start-up (first, while the process is small, unless --no-startup): best of 5 wall
seconds, process start to exit, of `python -c "import satnono.cli"` and of `satnono check`
on a small survey puzzle, with the child's peak RSS from `/usr/bin/time -f %M`; then issue
19's CPU figures of whole processes, alternated, medians: `satnono check` on a 1x1 puzzle
against `python -c pass` (20 pairs), `check --json` against `check` on 100 tournament
puzzles, and `check F#1 ... F#50` against the same 50 puzzles as files (best of 3).
  The reference (scripts/cpsat_ref.py, needs ortools: pip install -e '.[bench]'; skipped
with a note without it) runs on each set right after satnono: one Boolean per cell and
one automaton per line (colour: an integer per cell), one worker, a second solve for
uniqueness; its time includes building the model; speed-up = reference CPU / satnono CPU.
A speed-up marked '>' is a lower bound (the reference timed out on some puzzles), '<' an
upper bound (satnono did), '?' neither (both did).
  The plain order-encoding probe (benchmarks/issue19.py: the clues alone, no line
solving, CaDiCaL 1.9.5 defaults, a blocking clause and a second call) runs on issue 19's
mix (survey, dom, the first 100 puzzles of each tournament file, random: 442 puzzles) when
those sets are run, or with --probe; satnono settles the same puzzles again next to it
(blocks of 25, each side first in turn) and the ratio is of those paired figures.

Correctness, checked while it runs (every violation printed with !!! and in the CSV's
`problems` column; any makes the exit status 1): every solution satisfies the clues; two
'multiple' solutions differ; a 'unique' equals the published solution (tournament) or the
file's goal picture wherever that grid satisfies the clues; 'none' is wrong when such a
grid exists; survey and n-Dom puzzles are 'unique'; satnono and the reference (and the
probe) agree wherever both settled.

Prints per set: CPU and wall totals, the slowest puzzle, status counts, line-solvable
count, conflicts, the reference's figures and speed-up, disagreements, correctness, the 5
worst puzzles; then a summary table of all sets, the overall worst, start-up, peak RSS and
two target tables with PASS / FAIL / not run ("not run": its sets were not run, or were cut
by --limit):
  issues 5 and 10: survey total <= 1 s; n-Dom 3..12 <= 1 s; tournament 3000 puzzles
    <= 60 s, worst puzzle <= 2 s, every verdict proved; Wilk + nonogram-db <= 1.5 s;
    cauldron <= 0.3 s; colour set: CP-SAT / satnono >= 5x with the same verdicts;
    `satnono check` small puzzle <= 0.3 s wall; Knotty and Faase <= 600 s each; peak RSS
    <= 1024 MB.
  issue 19: start-up `check` 1x1 / `python -c pass` <= 2x (CPU); `check --json` / `check`
    <= 1.05x; --timeout 200 changes no conflict count nor solution (deadline set);
    --timeout 1 honoured within 10 %; tournament 3000 puzzles <= 100 s, worst <= 2 s;
    mix: satnono / probe <= 0.3x; cauldron <= 0.1 s; `F#1 ... F#50` / 50 files <= 1.2x;
    Knotty and Faase <= 60 s; the deadline set's and colour36's worst <= 10 s; the
    editor's target is measured by `bench.py editor`.

Sets (the default: survey dom wilk nonogram-db cauldron taai2011 icga2017 icga2020
random colour; `tournament` = the three tournament files):
  survey       the 12 black-and-white webpbn survey puzzles (Knotty, Faase and the
               colour files left out)
  dom          3-Dom to 12-Dom
  wilk         151 puzzles (jwilk-nonogram)
  nonogram-db  39 puzzles
  cauldron     512x512 (picross-solver)
  taai2011, icga2017, icga2020
               1000 puzzles each, checked against the published solutions
  random       20x20 and 30x30 at densities 0.5 and 0.6, 30 of each (120), fixed seed
  colour       48 random colour puzzles (20x20 and 30x30; 2-5 colours; 50 and 70 %
               filled; 3 of each) and the survey's two colour puzzles; target: satnono
               >= 5x faster than the CP-SAT colour model, the same verdicts
  hard         Knotty and Faase (never in the default run)
  rules        random 25x25 and 30x30 pictures under one rule each (symmetric, count,
               no-square, line), CP-SAT with the same rule
  connected    the same under `connected` (no CP-SAT model: its lazy cuts are reported)
  deadline     seven random colour pictures (30-40 a side, 2-3 colours, 45-70 % filled),
               each settled without a time limit and with --timeout 200 (the search must
               not change), the two hardest with --timeout 1 (honoured within 10 %)
  colour36     issue 19's example, unselected: 36x40 pictures, 2 colours, 47 % filled,
               seeds 0 to --colour36-count - 1 (20): the worst, how many within 10 s, median

CSV columns (--csv): set puzzle height width status line_solvable
unknown_after_propagation cnf_vars cnf_clauses sat_calls conflicts cpu_s wall_s maxrss_mb
ref_status ref_cpu_s ref_wall_s ref_maxrss_mb speedup agree problems reason.

Deadlines change the search: with a time limit CaDiCaL 1.9.5 runs in conflict-budget
slices and every new slice sends the search elsewhere, so the first slice is as long as a
conservative rate allows (`SatSession.SLOW_RATE`); `satnono check` without --timeout makes
one unlimited call.  Long runs: `nohup python scripts/bench.py tournament --csv t.csv >
t.log 2>&1 &`.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import benchlib
from benchlib import (
    ALIASES, ALL_SETS, COLOUR36_COUNT, DEFAULT_CORPUS, DEFAULT_SETS, ROOT, SETTLED, SURVEY, TOURNAMENT, TOURNAMENT_SETS,
    Item, clues_only, load_set, satnono_command,
)
from benchmarks import issue19

from satnono.solve import Checker


#: The deadline set (issue 19, cause 3): each picture settled twice in the same run, without a time
#: limit and with DEADLINE_TIMEOUT: the conflicts must be the same.  Then the deadline itself:
#: DEADLINE_NEAR seconds on the two puzzles that need the most search.
DEADLINE_TIMEOUT = 200.0
DEADLINE_NEAR = 1.0

COLUMNS = [
    "set", "puzzle", "height", "width", "status", "line_solvable", "unknown_after_propagation",
    "cnf_vars", "cnf_clauses", "sat_calls", "conflicts", "cpu_s", "wall_s", "maxrss_mb",
    "ref_status", "ref_cpu_s", "ref_wall_s", "ref_maxrss_mb", "speedup", "agree", "problems", "reason",
]


# --------------------------------------------------------------------------- running

@dataclass
class Row:
    set: str
    item: Item
    status: str = ""
    line_solvable: bool = False
    stats: dict = field(default_factory=dict)
    cpu: float = 0.0
    wall: float = 0.0
    maxrss_mb: float = 0.0
    reason: str = ""
    problems: list[str] = field(default_factory=list)
    ref_status: str = ""
    ref_cpu: float | None = None
    ref_wall: float | None = None
    ref_maxrss_mb: float | None = None

    @property
    def agree(self) -> str:
        if not self.ref_status:
            return ""
        if self.status in SETTLED and self.ref_status in SETTLED:
            return "yes" if self.status == self.ref_status else "NO"
        return "n/a"

    def csv(self) -> dict:
        st = self.stats
        p = self.item.puzzle
        return {
            "set": self.set, "puzzle": self.item.name, "height": p.height, "width": p.width,
            "status": self.status, "line_solvable": int(self.line_solvable),
            "unknown_after_propagation": st.get("unknown_after_propagation", ""),
            "cnf_vars": st.get("cnf_vars", ""), "cnf_clauses": st.get("cnf_clauses", ""),
            "sat_calls": st.get("sat_calls", ""), "conflicts": st.get("conflicts", ""),
            "cpu_s": f"{self.cpu:.6f}", "wall_s": f"{self.wall:.6f}", "maxrss_mb": f"{self.maxrss_mb:.1f}",
            "ref_status": self.ref_status,
            "ref_cpu_s": "" if self.ref_cpu is None else f"{self.ref_cpu:.6f}",
            "ref_wall_s": "" if self.ref_wall is None else f"{self.ref_wall:.6f}",
            "ref_maxrss_mb": "" if self.ref_maxrss_mb is None else f"{self.ref_maxrss_mb:.1f}",
            "speedup": "" if self.ref_cpu is None or self.cpu <= 0 else f"{self.ref_cpu / self.cpu:.2f}",
            "agree": self.agree, "problems": "; ".join(self.problems), "reason": self.reason,
        }


def maxrss_mb(who: int = resource.RUSAGE_SELF) -> float:
    return resource.getrusage(who).ru_maxrss / 1024.0  # Linux: KiB


class Rss:
    """Peak resident memory per puzzle.

    On Linux the peak (VmHWM) can be reset by writing 5 to
    ``/proc/self/clear_refs``, so each puzzle gets the process's own peak while
    it ran (reference runs do not pollute satnono's figures).  Elsewhere the
    figure is ``ru_maxrss``, the process peak so far (an upper bound).
    """

    def __init__(self) -> None:
        self.overall = maxrss_mb()
        self.resettable = False
        try:
            self._hwm()
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")
            self.resettable = True
        except (OSError, ValueError):
            pass

    @staticmethod
    def _hwm() -> float:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024.0
        raise ValueError("no VmHWM")

    def reset(self) -> None:
        if self.resettable:
            self.overall = max(self.overall, self._hwm())
            with open("/proc/self/clear_refs", "w") as f:
                f.write("5")

    @staticmethod
    def trim() -> None:
        """Give freed heap back to the OS (glibc), so an earlier reference run
        does not inflate the next set's figures."""
        import gc

        gc.collect()
        try:
            import ctypes

            ctypes.CDLL("libc.so.6").malloc_trim(0)
        except (OSError, AttributeError):
            pass

    def peak(self) -> float:
        mb = self._hwm() if self.resettable else maxrss_mb()
        self.overall = max(self.overall, mb)
        return mb


RSS: Rss | None = None


def rss() -> Rss:
    global RSS
    if RSS is None:
        RSS = Rss()
    return RSS


def verify(item: Item, status: str, solutions, who: str) -> list[str]:
    """Everything that is wrong with a verdict, as messages (empty: fine)."""
    p = item.puzzle
    probs = []
    for s in solutions:
        if not p.is_solution(s):
            probs.append(f"{who}: a reported solution does not satisfy the clues")
    if status == "multiple" and len(solutions) >= 2 and solutions[0] == solutions[1]:
        probs.append(f"{who}: 'multiple' with two identical solutions")
    if status == "error":
        probs.append(f"{who}: error")
    known = None
    if item.expect_published and item.published is None:
        probs.append("no published solution found for this puzzle")
    if item.published is not None:
        if not p.is_solution(item.published):
            probs.append("published solution does not satisfy the clues")
        else:
            known = ("published solution", item.published)
    elif p.goal is not None and p.is_solution(p.goal):
        known = ("goal picture", p.goal)
    if known is not None:
        what, grid = known
        if status == "none":
            probs.append(f"{who}: 'none' but the {what} satisfies the clues")
        elif status == "unique" and solutions and tuple(solutions[0]) != tuple(grid):
            probs.append(f"{who}: 'unique' solution differs from the {what}")
    if item.expect_unique and status in SETTLED and status != "unique":
        probs.append(f"{who}: expected unique, got {status}")
    return probs


def run_satnono(name: str, items: list[Item], timeout: float | None, progress: Callable[[str], None]) -> list[Row]:
    checker = Checker()
    rows = []
    rss().trim()
    for i, it in enumerate(items, 1):
        row = Row(name, it)
        rss().reset()
        puzzle = clues_only(it.puzzle)  # made before the clock starts: not satnono's work
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            res = checker.check(puzzle, timeout)
        except Exception as e:  # a bug in satnono: record it, keep going
            row.cpu, row.wall = time.process_time() - c0, time.perf_counter() - w0
            row.status, row.reason = "error", f"{type(e).__name__}: {e}"
            row.problems = [f"satnono raised {type(e).__name__}: {e}"]
        else:
            row.cpu, row.wall = time.process_time() - c0, time.perf_counter() - w0
            row.status = str(res.status)
            row.line_solvable = res.line_solvable
            row.stats = res.stats.as_dict()
            row.reason = res.reason or ""
            row.problems = verify(it, row.status, res.solutions, "satnono")
        row.maxrss_mb = rss().peak()
        rows.append(row)
        if row.cpu > 1.0 or row.problems or row.status in ("unknown", "error"):
            progress(f"  {it.name}: {row.status} in {row.cpu:.2f} s CPU"
                     + (f"  !!! {'; '.join(row.problems)}" if row.problems else ""))
        if i % 250 == 0:
            progress(f"  ... satnono {name}: {i}/{len(items)}")
    return rows


@dataclass
class DeadlineSummary:
    """What :func:`run_deadline` measured, for the targets of issue 19."""

    puzzles: int = 0
    same: int = 0  # puzzles with the same status, conflicts and solutions with and without the time limit
    cpu_plain: float = 0.0
    cpu_timed: float = 0.0
    worst_plain: Row | None = None  # the slowest run without a time limit
    near_ratio: float | None = None  # worst wall / DEADLINE_NEAR of the runs stopped by it (None: none was)


def run_deadline(items: list[Item], out: Callable[[str], None], summary: DeadlineSummary | None = None) -> list[Row]:
    """Settle each puzzle without a time limit and with DEADLINE_TIMEOUT (a fresh ``Checker``
    each time, so no run inherits the other's line cache); print the conflicts and CPU seconds
    of both, the totals and their ratio; then settle the two puzzles that needed the most
    conflicts with DEADLINE_NEAR seconds and print how long that took.  Returns the rows of
    the runs with DEADLINE_TIMEOUT (for the summary and the correctness checks); ``summary``,
    when given, is filled in."""

    solutions: dict[int, tuple] = {}

    def settle(it: Item, timeout: float | None) -> Row:
        row = Row("deadline", it)
        rss().reset()
        puzzle = clues_only(it.puzzle)
        c0, w0 = time.process_time(), time.perf_counter()
        res = Checker().check(puzzle, timeout)
        row.cpu, row.wall = time.process_time() - c0, time.perf_counter() - w0
        row.maxrss_mb = rss().peak()
        row.status, row.line_solvable = str(res.status), res.line_solvable
        row.stats, row.reason = res.stats.as_dict(), res.reason or ""
        row.problems = verify(it, row.status, res.solutions, "satnono")
        solutions[id(row)] = res.solutions
        return row

    out(f"   {'puzzle':34} {'conflicts':>10} {'with -t':>10} {'CPU s':>8} {'with -t':>8}  status")
    plain_rows, timed_rows = [], []
    same = 0
    for it in items:
        plain, timed = settle(it, None), settle(it, DEADLINE_TIMEOUT)
        differ = [what for what, a, b in (
            ("status", plain.status, timed.status),
            ("conflicts", plain.stats.get("conflicts"), timed.stats.get("conflicts")),
            ("solutions", solutions[id(plain)], solutions[id(timed)])) if a != b]
        same += not differ
        out(f"   {it.name:34} {plain.stats.get('conflicts', 0):10d} {timed.stats.get('conflicts', 0):10d}"
            f" {plain.cpu:8.2f} {timed.cpu:8.2f}  {timed.status}" + (f"  !!! {', '.join(differ)} differ" if differ else ""))
        plain_rows.append(plain)
        timed_rows.append(timed)
    cpu_plain, cpu_timed = sum(r.cpu for r in plain_rows), sum(r.cpu for r in timed_rows)
    out(f"   total CPU: without a time limit {cpu_plain:.2f} s, with --timeout {DEADLINE_TIMEOUT:g} {cpu_timed:.2f} s;"
        f" ratio {cpu_timed / cpu_plain if cpu_plain else float('nan'):.2f}x")
    out(f"   target (issue 19): the same conflicts and solutions with and without --timeout {DEADLINE_TIMEOUT:g}:"
        f" {'PASS' if same == len(items) else 'FAIL'} ({same} of {len(items)} puzzles)")
    hardest = sorted(plain_rows, key=lambda r: -r.stats.get("conflicts", 0))[:2]
    worst_ratio = 0.0
    for r in hardest:
        near = settle(r.item, DEADLINE_NEAR)
        ratio = near.wall / DEADLINE_NEAR
        if near.status == "unknown":
            worst_ratio = max(worst_ratio, ratio)
        out(f"   --timeout {DEADLINE_NEAR:g} on {r.item.name}: {near.status} after {near.wall:.3f} s wall ({ratio:.2f}x)"
            + ("" if near.status == "unknown" else " (settled in time: says nothing about the deadline)"))
    if worst_ratio:
        out(f"   target (issue 19): the deadline honoured within 10 %: {'PASS' if worst_ratio <= 1.1 else 'FAIL'}"
            f" (worst {worst_ratio:.2f}x)")
    if summary is not None:
        summary.puzzles, summary.same = len(items), same
        summary.cpu_plain, summary.cpu_timed = cpu_plain, cpu_timed
        summary.worst_plain = max(plain_rows, key=lambda r: r.cpu, default=None)
        summary.near_ratio = worst_ratio or None
    return timed_rows


def run_reference(rows: list[Row], timeout: float | None, progress: Callable[[str], None]) -> None:
    import cpsat_ref

    for i, row in enumerate(rows, 1):
        p = row.item.puzzle
        rss().reset()
        c0, w0 = time.process_time(), time.perf_counter()
        try:
            if any(getattr(r, "lazy", False) for r in p.rules):
                continue  # connected: no CP-SAT model (its cuts are reported instead)
            if p.is_color:
                ref = cpsat_ref.check_color([p.row_blocks(i) for i in range(p.height)],
                                            [p.column_blocks(i) for i in range(p.width)], p.chars, timeout)
            else:
                ref = cpsat_ref.check(p.rows, p.columns, timeout, rules=[r.as_json() for r in p.rules])
        except Exception as e:
            row.ref_cpu, row.ref_wall = time.process_time() - c0, time.perf_counter() - w0
            row.ref_maxrss_mb = rss().peak()
            row.ref_status = "error"
            row.problems.append(f"reference raised {type(e).__name__}: {e}")
            continue
        row.ref_cpu, row.ref_wall = time.process_time() - c0, time.perf_counter() - w0
        row.ref_maxrss_mb = rss().peak()
        row.ref_status = ref.status
        row.problems += verify(row.item, ref.status, ref.solutions, "reference")
        if row.agree == "NO":
            row.problems.append(f"verdicts disagree: satnono {row.status}, reference {ref.status}")
        if row.ref_cpu > 5.0 or row.agree == "NO":
            progress(f"  [ref] {row.item.name}: {ref.status} in {row.ref_cpu:.2f} s CPU")
        if i % 250 == 0:
            progress(f"  ... reference {row.set}: {i}/{len(rows)}")


def probe_mix(results: dict[str, list[Row]], out: Callable[[str], None],
              timeout: float | None = None) -> tuple[issue19.ProbeResult, str]:
    """The plain order-encoding probe on the issue-19 mix (what of it was run), next to satnono
    settling the same puzzles again in blocks (with the main run's ``timeout``): see
    :func:`issue19.run_probe`."""
    rows, note = mix_entries(results)
    if "random" in results and len(results["random"]) != 120:
        note += f"; the issue's mix has 120 random puzzles, this one {len(results['random'])}"
    checkers: dict[str, Checker] = {}  # one per set, as in the main run
    by_name = {r.item.name: r for r in rows}

    def resettle(name: str, puzzle: object) -> tuple[str, float]:
        row = by_name[name]
        checker = checkers.setdefault(row.set, Checker())
        bare = clues_only(puzzle)  # type: ignore[arg-type]  # as in the main run, before the clock starts
        c0 = time.process_time()
        try:
            res = checker.check(bare, timeout)
        except Exception as e:  # a bug in satnono: a verdict that differs from the main run's
            return f"error ({type(e).__name__}: {e})", time.process_time() - c0
        return str(res.status), time.process_time() - c0

    return issue19.probe_rows(rows, note, out, resettle), note


# --------------------------------------------------------------------------- start-up

def measure_startup(corpus: Path, repeat: int = 5) -> dict[str, tuple[float, str, float | None]]:
    """Best-of-``repeat`` wall seconds, process start to exit, of two commands,
    with the child's peak RSS in MB (from ``/usr/bin/time -f %M`` when present,
    since a child's own ``ru_maxrss`` on Linux includes the parent's image at spawn)."""
    small = corpus / SURVEY / "webpbn-00001.xml"
    tmp = None
    if not small.is_file():
        tmp = tempfile.NamedTemporaryFile("w", suffix=".non", delete=False)
        tmp.write("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
        tmp.close()
        small = Path(tmp.name)
    cmds = {
        "import satnono.cli": [sys.executable, "-c", "import satnono.cli"],
        "satnono check (small)": [*satnono_command(), "check", str(small)],
    }
    gnu_time = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
    out = {}
    try:
        for label, cmd in cmds.items():
            best = float("inf")
            for _ in range(repeat):
                t0 = time.perf_counter()
                proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=ROOT)
                best = min(best, time.perf_counter() - t0)
                if proc.returncode not in (0, 3):
                    raise RuntimeError(f"{' '.join(cmd)} exited {proc.returncode}: {proc.stderr.decode()[-300:]}")
            rss = None
            if gnu_time:
                proc = subprocess.run([gnu_time, "-f", "%M", *cmd], stdout=subprocess.DEVNULL,
                                      stderr=subprocess.PIPE, cwd=ROOT, text=True)
                last = proc.stderr.strip().splitlines()[-1:] or [""]
                rss = int(last[0]) / 1024.0 if last[0].isdigit() else None
            shown = " ".join(os.path.relpath(c, corpus) if str(c).startswith(str(corpus)) else c for c in cmd)
            out[label] = (best, shown, rss)
    finally:
        if tmp is not None:
            os.unlink(tmp.name)
    return out


# --------------------------------------------------------------------------- report

def fmt_s(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def bound_mark(ref_unsettled: int, sat_unsettled: int) -> str:
    """How a speed-up with unsettled puzzles reads: '>' a lower bound (only the reference
    timed out), '<' an upper bound (only satnono did), '?' no bound (both did), '' exact."""
    if ref_unsettled:
        return "?" if sat_unsettled else ">"
    return "<" if sat_unsettled else ""


def summarise_set(name: str, rows: list[Row], load_s: float, with_ref: bool, out: Callable[[str], None]) -> None:
    cpu = sum(r.cpu for r in rows)
    wall = sum(r.wall for r in rows)
    counts = Counter(r.status for r in rows)
    out(f"\n== {name}: {len(rows)} puzzles (loaded in {load_s:.2f} s)")
    out(f"   satnono   CPU {cpu:9.3f} s   wall {wall:9.3f} s   max {max((r.cpu for r in rows), default=0):.3f} s"
        f"   status {dict(sorted(counts.items()))}")
    ls = sum(r.line_solvable for r in rows)
    out(f"             line-solvable {ls}/{len(rows)}; conflicts {sum(r.stats.get('conflicts', 0) for r in rows)}")
    if any(r.item.puzzle.rules for r in rows):
        by_rule = Counter(r.item.puzzle.rules[0].name for r in rows if r.item.puzzle.rules)
        out(f"             rules: {dict(sorted(by_rule.items()))}")
    lazy = [r for r in rows if any(getattr(x, "lazy", False) for x in r.item.puzzle.rules)]
    if lazy:
        cuts = sorted(r.stats.get("cuts", 0) for r in lazy)
        out(f"             lazy cuts per settle (connected): median {cuts[len(cuts) // 2]}, worst {cuts[-1]}, "
            f"none needed in {sum(c == 0 for c in cuts)} of {len(cuts)}")
    if with_ref:
        rc = [r.ref_cpu for r in rows if r.ref_cpu is not None]
        rcpu = sum(rc)
        rcounts = Counter(r.ref_status for r in rows)
        dis = [r for r in rows if r.agree == "NO"]
        out(f"   reference CPU {rcpu:9.3f} s   wall {sum(r.ref_wall or 0 for r in rows):9.3f} s   max {max(rc, default=0):.3f} s"
            f"   status {dict(sorted(rcounts.items()))}")
        ref_uns = sum(r.ref_status not in SETTLED for r in rows)
        sat_uns = sum(r.status not in SETTLED for r in rows)
        caveat = "".join([
            f"; a lower bound: the reference did not settle {ref_uns}" if ref_uns else "",
            f"; an upper bound: satnono did not settle {sat_uns}" if sat_uns else "",
        ])
        out(f"   speed-up (reference / satnono, CPU): {rcpu / cpu:.2f}x{caveat}" if cpu > 0 else "   speed-up: n/a")
        out(f"   verdicts disagree where both settled: {len(dis)}" + (" !!!" if dis else ""))
        for r in dis:
            out(f"     !!! {r.item.name}: satnono {r.status}, reference {r.ref_status}")
    pub = sum(r.item.published is not None for r in rows)
    goal = sum(r.item.published is None and r.item.puzzle.goal is not None for r in rows)
    out(f"   checked against a published solution: {pub}; against the file's goal picture: {goal}")
    probs = [r for r in rows if r.problems]
    if probs:
        out(f"   !!! {len(probs)} puzzles with correctness problems:")
        for r in probs[:20]:
            out(f"     !!! {r.item.name}: {'; '.join(r.problems)}")
        if len(probs) > 20:
            out(f"     !!! ... and {len(probs) - 20} more (see the CSV 'problems' column)")
    else:
        out("   correctness checks: all passed")
    worst(rows, out, with_ref)


def worst(rows: list[Row], out: Callable[[str], None], with_ref: bool, n: int = 5) -> None:
    out("   worst (satnono CPU):")
    out(f"     {'puzzle':34} {'size':>7} {'status':8} {'cpu_s':>8} {'left':>6} {'vars':>7} {'clauses':>8} {'confl':>7}"
        + (f" {'ref':8} {'ref_cpu':>8}" if with_ref else ""))
    for r in sorted(rows, key=lambda r: -r.cpu)[:n]:
        st = r.stats
        p = r.item.puzzle
        line = (f"     {r.item.name[-34:]:34} {f'{p.height}x{p.width}':>7} {r.status:8} {r.cpu:8.3f}"
                f" {st.get('unknown_after_propagation', '-'):>6} {st.get('cnf_vars', '-'):>7}"
                f" {st.get('cnf_clauses', '-'):>8} {st.get('conflicts', '-'):>7}")
        if with_ref:
            line += f" {r.ref_status or '-':8} {fmt_s(r.ref_cpu):>8}"
        out(line)


@dataclass
class Target:
    label: str
    figure: float | None
    target: float
    passed: bool | None
    unit: str = "s"
    note: str = ""
    verdict: str = ""  # printed instead of PASS / FAIL / not run (a target measured elsewhere)


def total_target(results: dict[str, list[Row]], label: str, sets: tuple[str, ...], limit: float,
                 note: str = "") -> Target:
    """Total satnono CPU over ``sets`` against ``limit``: every puzzle settled and the total within
    it; not run (figure None) unless every one of the sets was run."""
    fig = sum(r.cpu for s in sets for r in results[s]) if all(s in results for s in sets) else None
    unsettled = sum(r.status not in SETTLED for s in sets for r in results.get(s, []))
    ok = None if fig is None else (fig <= limit and unsettled == 0)
    if unsettled:
        note = (note + "; " if note else "") + f"{unsettled} not settled"
    return Target(label, fig, limit, ok, note=note)


#: The puzzles of the set ``hard``: a key in the file name, the name printed.
HARD_NAMES = (("knotty", "Knotty"), ("faase", "Faase"))


def hard_target(results: dict[str, list[Row]], key: str, label: str, limit: float) -> Target:
    """The target "this puzzle of the set ``hard`` settled within ``limit`` CPU seconds"."""
    rows = [r for r in results.get("hard", []) if key in r.item.name]
    if not rows:
        return Target(label, None, limit, None)
    r = rows[0]
    return Target(label, r.cpu, limit, r.status in SETTLED and r.cpu <= limit, note=r.status)


def targets(results: dict[str, list[Row]], startup: dict | None, peak_mb: float) -> list[Target]:
    out: list[Target] = []

    def total(label: str, sets: tuple[str, ...], limit: float, note: str = "") -> None:
        out.append(total_target(results, label, sets, limit, note))

    total("survey b/w (Knotty, Faase aside) total CPU", ("survey",), 1.0)
    total("n-Dom 3..12 total CPU", ("dom",), 1.0)
    t = TOURNAMENT_SETS
    total("tournament 3000 puzzles total CPU", t, 60.0)
    if all(s in results for s in t):
        mx = max(r.cpu for s in t for r in results[s])
        out.append(Target("tournament max single puzzle CPU", mx, 2.0, mx <= 2.0))
        uns = sum(r.status not in SETTLED for s in t for r in results[s])
        out.append(Target("tournament verdicts not proved", uns, 0, uns == 0, unit="", note="count"))
    else:
        out.append(Target("tournament max single puzzle CPU", None, 2.0, None))
    total("Wilk + nonogram-db total CPU", ("wilk", "nonogram-db"), 1.5)
    total("cauldron 512x512 CPU", ("cauldron",), 0.3)
    colour = results.get("colour")
    if colour is not None and all(r.ref_cpu is not None for r in colour):
        sat = sum(r.cpu for r in colour)
        ref = sum(r.ref_cpu for r in colour)  # type: ignore[misc]
        ratio = ref / sat if sat > 0 else float("inf")
        disagree = sum(r.agree == "NO" for r in colour)
        out.append(Target("colour set: reference CPU / satnono CPU", ratio, 5.0, ratio >= 5.0 and not disagree,
                          unit="x", note=f"satnono {sat:.2f} s, CP-SAT {ref:.2f} s, {disagree} disagreements"))
    else:
        out.append(Target("colour set: reference CPU / satnono CPU", None, 5.0, None, unit="x",
                          note="needs the colour set with the reference"))
    if startup:
        s = startup["satnono check (small)"]
        out.append(Target("`satnono check` small puzzle, start to exit (wall)", s[0], 0.3, s[0] <= 0.3))
    else:
        out.append(Target("`satnono check` small puzzle, start to exit (wall)", None, 0.3, None))
    out += [hard_target(results, key, f"{name} settled (CPU)", 600.0) for key, name in HARD_NAMES]
    out.append(Target("peak RSS over satnono's puzzles", peak_mb, 1024.0, peak_mb <= 1024.0, unit="MB"))
    return out


#: The puzzles of the three tournament files, which issue 19's tournament targets are about.
TOURNAMENT_PUZZLES = 3000
#: The issue-19 mix: these sets, the tournament files cut to their first MIX_TOURNAMENT puzzles.
MIX_SETS = ("survey", "dom", *TOURNAMENT_SETS, "random")
MIX_TOURNAMENT = 100


def mix_entries(results: dict[str, list[Row]]) -> tuple[list[Row], str]:
    """The rows of the issue-19 mix that were run, and how it is made up (as text)."""
    rows: list[Row] = []
    parts = []
    for name in MIX_SETS:
        if name in results:
            got = results[name][:MIX_TOURNAMENT] if name in TOURNAMENT_SETS else results[name]
            rows += got
            parts.append(f"{name} {len(got)}")
    missing = [n for n in MIX_SETS if n not in results]
    return rows, (", ".join(parts) + (f"; not run: {', '.join(missing)}" if missing else ""))


def targets19(results: dict[str, list[Row]], *, startup_cpu: dict | None = None, json_cpu: dict | None = None,
              deadline: DeadlineSummary | None = None, pick: tuple[float, float] | None = None,
              probe: issue19.ProbeResult | None = None, mix_note: str = "") -> list[Target]:
    """The targets of issue 19, each from this run's figures (figure None: its sets were not run)."""
    out: list[Target] = []
    if startup_cpu:
        note = f"satnono {startup_cpu['satnono'] * 1e3:.0f} ms, python {startup_cpu['python'] * 1e3:.0f} ms"
        if os.environ.get("PYTHONDONTWRITEBYTECODE"):
            note += "; PYTHONDONTWRITEBYTECODE is set: not meaningful"
        if startup_cpu.get("editable"):
            note += ("; an editable install: both pay its import finder at every start, so a regular"
                     " install (`pip install .`) reads higher")
        out.append(Target("start-up: `check` 1x1 / `python -c pass` (CPU)", startup_cpu["ratio"], 2.0,
                          startup_cpu["ratio"] <= 2.0, unit="x", note=note))
    else:
        out.append(Target("start-up: `check` 1x1 / `python -c pass` (CPU)", None, 2.0, None, unit="x"))
    if json_cpu:
        out.append(Target("`check --json` / `check`, 100 puzzles (CPU)", json_cpu["ratio"], 1.05,
                          json_cpu["ratio"] <= 1.05, unit="x",
                          note=f"json {json_cpu['json']:.3f} s, plain {json_cpu['plain']:.3f} s"))
    else:
        out.append(Target("`check --json` / `check`, 100 puzzles (CPU)", None, 1.05, None, unit="x"))
    label = f"--timeout {DEADLINE_TIMEOUT:g}: puzzles where it changes anything"
    if deadline is not None and deadline.puzzles:
        differ = deadline.puzzles - deadline.same
        ratio = deadline.cpu_timed / deadline.cpu_plain if deadline.cpu_plain else float("nan")
        out.append(Target(label, differ, 0, differ == 0, unit="",
                          note=f"same conflicts and solutions in {deadline.same} of {deadline.puzzles};"
                               f" CPU with / without {ratio:.2f}x"))
        if deadline.near_ratio is not None:
            out.append(Target(f"--timeout {DEADLINE_NEAR:g} honoured (wall / limit)", deadline.near_ratio, 1.1,
                              deadline.near_ratio <= 1.1, unit="x"))
        else:
            out.append(Target(f"--timeout {DEADLINE_NEAR:g} honoured (wall / limit)", None, 1.1, None, unit="x",
                              verdict="n/a", note="every run settled in time"))
    else:
        out.append(Target(label, None, 0, None, unit=""))
    t = TOURNAMENT_SETS
    if sum(len(results.get(s, ())) for s in t) == TOURNAMENT_PUZZLES:
        out.append(total_target(results, "tournament 3000 puzzles total CPU", t, 100.0))
        mx = max(r.cpu for s in t for r in results[s])
        out.append(Target("tournament max single puzzle CPU", mx, 2.0, mx <= 2.0))
    else:  # not run, or cut by --limit: the targets are about the whole files
        note = "needs the three whole files" if any(s in results for s in t) else ""
        out.append(Target("tournament 3000 puzzles total CPU", None, 100.0, None, note=note))
        out.append(Target("tournament max single puzzle CPU", None, 2.0, None, note=note))
    label = "mix: satnono CPU / plain order-encoding probe CPU"
    if probe is not None and probe.puzzles and probe.ratio is not None:
        ok = probe.ratio <= 0.3 and not probe.problems
        if probe.paired_cpu is None:
            note = f"{probe.puzzles} puzzles ({mix_note}); satnono {probe.satnono_cpu:.2f} s, probe {probe.probe_cpu:.2f} s"
        else:
            note = (f"{probe.puzzles} puzzles ({mix_note}); satnono {probe.paired_cpu:.2f} s next to the probe"
                    f" ({probe.satnono_cpu:.2f} s in the main run), probe {probe.probe_cpu:.2f} s")
        if probe.problems:
            note += f"; {len(probe.problems)} DISAGREEMENTS"
        out.append(Target(label, probe.ratio, 0.3, ok, unit="x", note=note))
    else:
        out.append(Target(label, None, 0.3, None, unit="x"))
    out.append(total_target(results, "cauldron 512x512 CPU", ("cauldron",), 0.1))
    out.append(Target("`check F#1 ... F#50` / 50 files (wall)", None if pick is None else pick[0] / pick[1], 1.2,
                      None if pick is None else pick[0] / pick[1] <= 1.2, unit="x",
                      note="" if pick is None else f"{pick[0]:.3f} s against {pick[1]:.3f} s, best of 3"))
    out += [hard_target(results, key, f"{name} settled (CPU)", 60.0) for key, name in HARD_NAMES]
    label = "deadline set: worst puzzle, no time limit (CPU)"
    w = deadline.worst_plain if deadline is not None else None
    if w is not None:
        out.append(Target(label, w.cpu, 10.0, w.status in SETTLED and w.cpu <= 10.0,
                          note=f"{w.item.name}, {w.status}; the set's seeds were chosen among draws that"
                               " settle in seconds: not a bound for every such picture"))
    else:
        out.append(Target(label, None, 10.0, None))
    label = "colour36 (36x40, 2 colours, 47 %): worst (CPU)"
    if results.get("colour36"):
        rows = results["colour36"]
        w36 = max(rows, key=lambda r: (r.status not in SETTLED, r.cpu))
        within = sum(r.status in SETTLED and r.cpu <= 10.0 for r in rows)
        med = statistics.median(r.cpu if r.status in SETTLED else math.inf for r in rows)
        out.append(Target(label, w36.cpu, 10.0, w36.status in SETTLED and w36.cpu <= 10.0,
                          note=f"{w36.item.name}, {w36.status}; {within} of {len(rows)} settled within 10 s,"
                               f" median {'unsettled' if math.isinf(med) else f'{med:.2f} s'}"))
    else:
        out.append(Target(label, None, 10.0, None))
    out.append(Target("editor", None, 0, None, unit="", verdict="see bench.py editor"))
    return out


def print_targets(ts: list[Target], out: Callable[[str], None], title: str = "issues 5 and 10") -> None:
    out(f"\n== targets ({title})")
    out(f"   {'target':52} {'figure':>11} {'limit':>9} {'ratio':>7}  verdict")
    for t in ts:
        fig = "-" if t.figure is None else (f"{t.figure:.3f} {t.unit}".strip() if t.unit else f"{t.figure:g}")
        lim = "-" if t.verdict and t.figure is None and not t.target else f"{t.target:g} {t.unit}".strip()
        ratio = "-" if t.figure is None or not t.target else f"{t.figure / t.target:.2f}"
        verdict = t.verdict or ("not run" if t.passed is None else ("PASS" if t.passed else "FAIL"))
        out(f"   {t.label:52} {fig:>11} {lim:>9} {ratio:>7}  {verdict}" + (f"  ({t.note})" if t.note else ""))


def git_version() -> str:
    try:
        r = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=ROOT, capture_output=True, text=True)
        return r.stdout.strip() or "?"
    except OSError:
        return "?"


# --------------------------------------------------------------------------- main

def expand_sets(names: list[str]) -> list[str]:
    out: list[str] = []
    for n in names or list(DEFAULT_SETS):
        for s in ALIASES.get(n, (n,)):
            if s not in out:
                out.append(s)
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = benchlib.parser("sets", __doc__)
    ap.add_argument("sets", nargs="*", metavar="SET",
                    help="sets to run (default: the default sets named above)")
    ap.add_argument("--timeout", type=float, default=60.0, help="satnono time limit per puzzle, seconds (default 60)")
    ap.add_argument("--ref-timeout", type=float, default=None,
                    help="reference time limit per puzzle, seconds (default: same as --timeout)")
    ap.add_argument("--reference", dest="reference", action=argparse.BooleanOptionalAction, default=True,
                    help="also run the CP-SAT reference (default on; skipped with a note if ortools is missing)")
    ap.add_argument("--csv", metavar="OUT", default=None, help="write one row per puzzle to OUT")
    ap.add_argument("--limit", type=int, default=None, metavar="N", help="only the first N puzzles of each set")
    ap.add_argument("--colour36-count", type=int, default=COLOUR36_COUNT, metavar="N",
                    help=f"draws of the colour36 set, seeds 0 to N-1 (default {COLOUR36_COUNT}); more draws show"
                         " more of the hard tail of such pictures")
    benchlib.add_corpus(ap)
    ap.add_argument("--startup", action=argparse.BooleanOptionalAction, default=True,
                    help="measure process start-up (default on)")
    ap.add_argument("--probe", action=argparse.BooleanOptionalAction, default=None,
                    help="settle the issue-19 mix (survey, dom, the first 100 puzzles of each tournament file, "
                         "random: those of them that were run) with the plain order-encoding probe too "
                         "(default: when survey, dom, random and a tournament file are all run)")
    ap.add_argument("--quiet", action="store_true", help="no per-puzzle progress lines")
    ap.add_argument("--stored-solutions", action="store_true",
                    help="give satnono the puzzles as read, stored solutions (goal pictures) included: "
                         "one SAT call (for a second solution) instead of two; by default only the clues")
    args = ap.parse_args(argv)
    bad = [s for s in args.sets if s not in ALL_SETS and s not in ALIASES]
    if bad:
        ap.error(f"unknown set(s) {', '.join(bad)}; choose from {', '.join([*ALL_SETS, *ALIASES])}"
                 " (the other sub-commands: bench.py --help)")
    if args.colour36_count < 1:
        ap.error(f"--colour36-count must be at least 1, not {args.colour36_count}")
    if args.ref_timeout is None:
        args.ref_timeout = args.timeout
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    benchlib.USE_STORED_SOLUTIONS = args.stored_solutions
    sets = expand_sets(args.sets)
    corpus: Path = args.corpus

    def out(msg: str = "") -> None:
        print(msg, flush=True)

    progress = (lambda msg: None) if args.quiet else out
    if not set(sets) <= {"random", "deadline"} and not corpus.is_dir():
        out(f"bench: corpus not found at {corpus} (use --corpus or SATNONO_CORPUS)")
        return 2

    startup = None
    if args.startup:  # first, while this process is small (see measure_startup)
        try:
            startup = measure_startup(corpus)
        except Exception as e:  # report, do not lose the run
            out(f"!!! start-up measurement failed: {e}")
    startup_cpu = json_cpu = None
    big = corpus / TOURNAMENT / "question" / f"{TOURNAMENT_SETS[1]}.txt"  # 1000 puzzles (issue 19)
    if args.startup:  # issue 19: CPU of whole processes, alternated (scripts/issue19.py)
        try:
            startup_cpu = issue19.measure_startup_cpu(satnono_command(), sys.executable, cwd=str(ROOT))
            progress(f"  start-up (CPU, median of 20 pairs): satnono {startup_cpu['satnono'] * 1e3:.0f} ms,"
                     f" python -c pass {startup_cpu['python'] * 1e3:.0f} ms, {startup_cpu['ratio']:.3f}x")
            if big.is_file():
                json_cpu = issue19.measure_json_cpu(satnono_command(), str(big), cwd=str(ROOT))
                progress(f"  check --json / check (CPU, 100 puzzles): {json_cpu['ratio']:.3f}x")
        except Exception as e:  # report, do not lose the run
            out(f"!!! start-up (CPU) measurement failed: {e}")
    pick = (issue19.measure_pick(big, satnono_command(), cwd=str(ROOT))
            if args.startup and big.is_file() else None)

    with_ref = args.reference
    ref_note = ""
    if with_ref:
        import cpsat_ref

        if not cpsat_ref.AVAILABLE:
            with_ref = False
            ref_note = "reference skipped: ortools is not installed (pip install -e '.[bench]')"
        else:
            ref_note = f"reference: OR-tools {cpsat_ref.VERSION} CP-SAT automaton model, 1 worker"
    else:
        ref_note = "reference: off (--no-reference)"

    children_mb = maxrss_mb(resource.RUSAGE_CHILDREN)
    gitv = git_version()
    out(f"satnono bench  git {gitv}  python {sys.version.split()[0]}  sets: {' '.join(sets)}")
    out(f"timeout {args.timeout:g} s (satnono), {args.ref_timeout:g} s (reference); {ref_note}")
    out("satnono is given " + ("the puzzles as read (stored solutions used)" if benchlib.USE_STORED_SOLUTIONS
                               else "the clues only (stored solutions just check the verdicts)"))

    results: dict[str, list[Row]] = {}
    deadline: DeadlineSummary | None = None
    load_times: dict[str, float] = {}
    writer = fh = None
    if args.csv:
        fh = open(args.csv, "w", newline="")
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
    interrupted = False
    try:
        for name in sets:
            t0 = time.perf_counter()
            items = load_set(name, corpus, args.limit, args.colour36_count)
            load_times[name] = time.perf_counter() - t0
            out(f"\n-- {name}: {len(items)} puzzles")
            if name == "deadline":  # its own time limits; the reference would take minutes a puzzle here
                deadline = DeadlineSummary()
                rows = run_deadline(items, out, deadline)
            else:
                rows = run_satnono(name, items, args.timeout, progress)
            results[name] = rows
            if with_ref and name != "deadline":
                run_reference(rows, args.ref_timeout, progress)
            summarise_set(name, rows, load_times[name], with_ref and name != "deadline", out)
            if writer is not None:
                writer.writerows(r.csv() for r in rows)
                fh.flush()
    except KeyboardInterrupt:
        interrupted = True
        out("\n!!! interrupted: the summary covers the sets completed so far")
    finally:
        if fh is not None:
            fh.close()

    probe, mix_note = None, ""
    run_probe = args.probe if args.probe is not None else (
        {"survey", "dom", "random"} <= set(results) and any(t in results for t in TOURNAMENT_SETS))
    if run_probe and not interrupted:
        probe, mix_note = probe_mix(results, out, args.timeout)

    all_rows = [r for rows in results.values() for r in rows]
    peak_sat = max((r.maxrss_mb for r in all_rows), default=0.0)
    peak_ref = max((r.ref_maxrss_mb or 0.0 for r in all_rows), default=0.0)
    out("\n================================ summary ================================")
    out(f"git {gitv}; satnono timeout {args.timeout:g} s, reference timeout {args.ref_timeout:g} s; {ref_note}")
    out(f"{'set':12} {'n':>5} {'satnono s':>10} {'max s':>8} {'unsettled':>9} {'reference s':>12} {'ref max s':>9}"
        f" {'ref unset':>9} {'speed-up':>8} {'disagree':>8} {'problems':>8}")
    for name, rows in results.items():
        cpu = sum(r.cpu for r in rows)
        uns = sum(r.status not in SETTLED for r in rows)
        probs = sum(bool(r.problems) for r in rows)
        if with_ref:
            rc = [r.ref_cpu or 0.0 for r in rows]
            rcpu = sum(rc)
            runs = sum(r.ref_status not in SETTLED for r in rows)
            mark = bound_mark(runs, uns)
            ref = f"{rcpu:12.3f} {max(rc, default=0):9.3f} {runs:9d} {mark:>1}{(rcpu / cpu if cpu else float('nan')):6.2f}x"
            dis = sum(r.agree == "NO" for r in rows)
        else:
            ref = f"{'-':>12} {'-':>9} {'-':>9} {'-':>8}"
            dis = 0
        out(f"{name:12} {len(rows):5d} {cpu:10.3f} {max((r.cpu for r in rows), default=0):8.3f} {uns:9d} {ref}"
            f" {dis:8d} {probs:8d}")
    if with_ref and any(r.status not in SETTLED or r.ref_status not in SETTLED for r in all_rows):
        out("(speed-up '>': the reference timed out on some puzzles, so the ratio is a lower bound;"
            " '<': satnono timed out on some, so it is an upper bound;"
            " '?': both timed out on some, so it is not a bound either way)")
    if all_rows:
        cpu = sum(r.cpu for r in all_rows)
        line = f"{'all':12} {len(all_rows):5d} {cpu:10.3f}"
        if with_ref:
            rcpu = sum(r.ref_cpu or 0.0 for r in all_rows)
            line += f"   reference {rcpu:.3f} s, speed-up {rcpu / cpu:.2f}x" if cpu else ""
        out(line)
        out("\noverall worst:")
        worst(all_rows, out, with_ref)
    if startup:
        out("\nstart-up (wall, process start to exit, best of 5):")
        for label, (sec, cmd, mb) in startup.items():
            out(f"   {label:24} {sec:.3f} s   peak RSS {'-' if mb is None else f'{mb:.1f} MB'}   ({cmd})")
    how = "per-puzzle VmHWM, reset before each puzzle" if rss().resettable else "ru_maxrss, cumulative"
    out(f"\npeak RSS ({how}): satnono puzzles {peak_sat:.1f} MB"
        + (f" ({max(all_rows, key=lambda r: r.maxrss_mb).item.name})" if all_rows else "")
        + (f"; reference puzzles {peak_ref:.1f} MB" if with_ref else "")
        + f"; whole process {max(rss().overall, peak_sat, peak_ref):.1f} MB")
    if startup:
        out(f"children ru_maxrss {children_mb:.1f} MB (start-up runs, measured first; on Linux it includes"
            " the parent's image at spawn, so see the per-command figures above)")
    if pick is not None:
        out(f"\nFILE#k: check F#1 ... F#50 {pick[0]:.3f} s, the same 50 puzzles as files {pick[1]:.3f} s,"
            f" ratio {pick[0] / pick[1]:.2f}x (target 1.2x or less)")
    print_targets(targets(results, startup, peak_sat), out)
    if startup_cpu and os.environ.get("PYTHONDONTWRITEBYTECODE"):
        out("\n!!! PYTHONDONTWRITEBYTECODE is set: no .pyc is written, so satnono may be compiled at every start;"
            " unset it (and run once to write the caches) for a meaningful start-up figure")
    print_targets(targets19(results, startup_cpu=startup_cpu, json_cpu=json_cpu, deadline=deadline, pick=pick,
                            probe=probe, mix_note=mix_note), out, "issue 19")

    nprob = sum(bool(r.problems) for r in all_rows)
    ndis = sum(r.agree == "NO" for r in all_rows)
    if nprob or ndis:
        out(f"\n!!! {nprob} puzzles with correctness problems, {ndis} verdict disagreements: see above and the CSV")
    else:
        out(f"\ncorrectness: all {len(all_rows)} verdicts checked, no problems, no disagreements")
    if args.csv:
        out(f"CSV: {args.csv}")
    return 1 if (nprob or ndis) else (130 if interrupted else 0)

