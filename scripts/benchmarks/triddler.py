#!/usr/bin/env python3
"""Random triddlers, satnono against an in-run CP-SAT model (issue 39): ``bench.py triddler``.

What it measures: how fast ``satnono.lanecheck.settle_lanes`` settles random triddlers (puzzles
on the triangular grid, three families of lanes) against a CP-SAT model of the same lanes,
and that both give the same verdicts.

The puzzles: per side of a regular hexagon (``Triangle.hexagon(side)``, ``6 * side ** 2``
cells; ``--sides 6-12``), ``--count`` random pictures, each cell filled with probability
``d`` (the densities of ``--densities``, in turn: 0.4 0.5 0.6 0.7 by default; 0.4-0.5 on a
hexagon mostly have several solutions and need the search, 0.6-0.7 are mostly unique), in
black and white or, with ``--colours K``, each filled cell one of K colours uniformly.  The
clues are the picture's (``LanePuzzle.from_picture(..., keep_goal=False)``).  ``--broken B``
more puzzles per side have one lane's clue altered (a block one longer or shorter, or a
block added to an empty lane), so that ``none`` is tested too; they are named ``~``.  Every
picture comes from ``random.Random("triddler-SEED-SIDE-K-i")``: reproducible, and a larger
``--count`` keeps the first puzzles.

The solvers, one puzzle at a time in this process, after a warm-up on a small puzzle that needs
satnono's search (imports, CaDiCaL and CP-SAT loaded; not counted):

* satnono: ``settle_lanes(puzzle, Limits(timeout=T), line_solver=...)``, one ``LineSolver``
  (one line cache) for the whole run, as a batch would;
* CP-SAT (written here, none of satnono's encoders or kernels): one Boolean per cell (an
  integer 0..K in colour) and per lane one ``add_automaton`` over the lane's cells, the DFA of
  the lane's clue (``0* b1 ... 0+ ... bk 0*``, the ``0+`` only between blocks of one colour);
  a first solution, then a clause "some cell differs from it" and a second solve: ``unique``,
  ``multiple``, ``none``, or ``unknown`` when the timeout (covering both solves and the model's
  construction) runs out.  ``--cpsat-workers N``, or CP-SAT's default (all the cores).

Seconds are wall seconds (``time.perf_counter``) of each call; the CPU seconds (all of
CP-SAT's threads) are printed beside them.

Checks: the verdicts must be identical (both settled and different, or one ``unknown``, is
printed with ``!!!`` and the exit status is 1); every solution either side reports is checked
against every lane's clue (``LanePuzzle.breaks``); the two solutions of ``multiple`` must
differ; two ``unique`` must be the same picture; an unbroken puzzle is never ``none`` and its
``unique`` solution is the picture it was drawn from.

Output: per side the puzzles, satnono's verdicts (unique, multiple, none, unknown), how many
needed the search (not line-solvable), how many verdicts agree, total and median seconds of
each solver and the ratio CP-SAT total / satnono total, against the target: satnono at least
5x faster in total, with the same verdicts (PASS/FAIL per side and overall); then the
hardest puzzles of each solver with satnono's statistics (cells open after line logic,
CNF size, SAT calls).

``--quick``: sides 4-5, 3 puzzles each and 1 altered, timeout 10 s, unless the options say
otherwise (a test runs it; its seconds are too small to judge the target by).
"""

from __future__ import annotations

import gc
import os
import random
import statistics
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import benchlib  # noqa: F401  (puts the checkout first on sys.path)

from satnono.clues import LineClue
from satnono.lanecheck import settle_lanes
from satnono.lanepuzzle import LanePuzzle, clue_text
from satnono.lanes import Triangle
from satnono.lines import LineSolver
from satnono.palette import default_palette
from satnono.results import Limits

try:  # optional dependency (pip install -e '.[bench]')
    import ortools
    from ortools.sat.python import cp_model

    ORTOOLS: str | None = getattr(ortools, "__version__", "?")
except ImportError:  # pragma: no cover - depends on the environment
    cp_model = None  # type: ignore[assignment]
    ORTOOLS = None

SIDES = "6-12"
COUNT = 10
BROKEN = 2
SEED = 39
DENSITIES = (0.4, 0.5, 0.6, 0.7)
TIMEOUT = 60.0
TARGET = 5.0
SETTLED = {"unique", "multiple", "none"}


# --------------------------------------------------------------------------- puzzles

@dataclass
class Case:
    """One puzzle of the run: ``goal`` is the picture it was drawn from (None once a clue was
    altered: then nothing is known of its answer)."""

    name: str
    side: int
    puzzle: LanePuzzle
    goal: str | None
    note: str = ""


def random_picture(rng: random.Random, cells: int, chars: str, density: float) -> str:
    """Each cell filled with probability ``density``, then one of ``chars[1:]`` uniformly."""
    fill = chars[1:]
    return "".join(rng.choice(fill) if rng.random() < density else chars[0] for _ in range(cells))


def alter(rng: random.Random, puzzle: LanePuzzle) -> tuple[LanePuzzle, str]:
    """``puzzle`` with one lane's clue altered: a block one longer or shorter (still fitting
    the lane), or a block of 1 added to an empty lane."""
    lanes = puzzle.lanes
    k = len(puzzle.palette) - 1
    while True:
        i = rng.randrange(len(lanes))
        old = puzzle.clues[i]
        n = len(lanes[i].cells)
        if not old.lengths:
            new = LineClue((1,), (rng.randint(1, k),))
        else:
            j = rng.randrange(len(old.lengths))
            lengths = list(old.lengths)
            lengths[j] += rng.choice((-1, 1))
            if lengths[j] == 0:
                continue
            new = LineClue(tuple(lengths), old.colors)
        if new.min_length() <= n and new != old:
            break
    clues = list(puzzle.clues)
    clues[i] = new
    note = f"{lanes[i].name}: {clue_text(old, puzzle.chars)} -> {clue_text(new, puzzle.chars)}"
    return puzzle.replace(clues=tuple(clues)), note


def draw(side: int, count: int, broken: int, seed: int, colours: int, densities: Sequence[float]) -> list[Case]:
    """``count`` random puzzles on the hexagon of ``side``, then ``broken`` with one clue altered."""
    geometry = Triangle.hexagon(side)
    palette = default_palette(colours)
    chars = "".join(c.char for c in palette)
    out = []
    for i in range(count + broken):
        rng = random.Random(f"triddler-{seed}-{side}-{colours}-{i}")
        d = densities[i % len(densities)]
        picture = random_picture(rng, geometry.cell_count, chars, d)
        name = f"hex{side}-d{d:g}-#{i + 1}"
        puzzle = LanePuzzle.from_picture(geometry, picture, palette, name=name, keep_goal=False)
        if i < count:
            out.append(Case(name, side, puzzle, picture))
        else:
            puzzle, note = alter(rng, puzzle)
            out.append(Case(name + "~", side, puzzle.replace(name=name + "~"), None, note))
    return out


# --------------------------------------------------------------------------- CP-SAT reference

def lane_automaton(lengths: Sequence[int], colours: Sequence[int]) -> tuple[list[tuple[int, int, int]], list[int]]:
    """Transition triples ``(state, symbol, next)`` and the final states of the DFA that
    accepts exactly the lanes with these blocks (symbol 0 the background, v >= 1 colour v),
    starting in state 0.  States: ``(j, t)``, t cells of block j read (t = 0: waiting for block
    j, background allowed); ``("end", j)``, block j complete; ``("tail",)``, background after
    the last block."""
    k = len(lengths)
    if k == 0:
        return [(0, 0, 0)], [0]
    ids: dict[tuple, int] = {}

    def state(key: tuple) -> int:
        return ids.setdefault(key, len(ids))

    state((0, 0))
    triples = []

    def enter(src: int, j: int) -> None:  # reading colour j's first cell begins block j
        triples.append((src, colours[j], state(("end", j) if lengths[j] == 1 else (j, 1))))

    for j in range(k):
        wait = state((j, 0))
        triples.append((wait, 0, wait))
        enter(wait, j)
        for t in range(1, lengths[j]):
            triples.append((state((j, t)), colours[j], state(("end", j) if t + 1 == lengths[j] else (j, t + 1))))
        end = state(("end", j))
        if j + 1 < k:
            triples.append((end, 0, state((j + 1, 0))))
            if colours[j + 1] != colours[j]:  # blocks of two colours may touch
                enter(end, j + 1)
        else:
            tail = state(("tail",))
            triples += [(end, 0, tail), (tail, 0, tail)]
    return triples, [ids[("end", k - 1)], ids[("tail",)]]


@dataclass
class RefResult:
    status: str
    solutions: tuple[str, ...] = ()
    reason: str | None = None


def cpsat_settle(puzzle: LanePuzzle, timeout: float | None, workers: int | None) -> RefResult:
    """The verdict of the CP-SAT model of ``puzzle``'s lanes (see the module docstring): only
    the lanes' cell lists, the clues and the palette are read."""
    t0 = time.monotonic()
    if puzzle.has_blots:
        raise ValueError("the CP-SAT reference of bench triddler has no blotted clues")
    chars = puzzle.chars
    k = len(chars) - 1
    n = puzzle.geometry.cell_count
    m = cp_model.CpModel()
    x = [m.new_bool_var(f"c{i}") if k == 1 else m.new_int_var(0, k, f"c{i}") for i in range(n)]
    cache: dict[LineClue, tuple] = {}
    for lane, clue in zip(puzzle.lanes, puzzle.clues):
        dfa = cache.get(clue)
        if dfa is None:
            dfa = cache[clue] = lane_automaton(clue.lengths, clue.colors)
        triples, finals = dfa
        m.add_automaton([x[i] for i in lane.cells], 0, finals, triples)
    solver = cp_model.CpSolver()
    if workers is not None:
        solver.parameters.num_workers = workers

    def solve() -> int | None:
        if timeout is not None:
            left = timeout - (time.monotonic() - t0)
            if left <= 0:
                return None
            solver.parameters.max_time_in_seconds = left
        st = solver.solve(m)
        if st == cp_model.MODEL_INVALID:
            raise RuntimeError(f"CP-SAT: invalid model: {m.validate()}")
        return st

    def read() -> str:
        return "".join(chars[solver.value(v)] for v in x)

    st = solve()
    if st == cp_model.INFEASIBLE:
        return RefResult("none")
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return RefResult("unknown", reason="timed out before a first solution")
    first = read()
    if k == 1:
        m.add_bool_or([v.Not() if ch != chars[0] else v for v, ch in zip(x, first)])
    else:
        differs = []
        for v, ch in zip(x, first):
            b = m.new_bool_var("")
            m.add(v != chars.index(ch)).only_enforce_if(b)
            differs.append(b)
        m.add_bool_or(differs)
    st = solve()
    if st == cp_model.INFEASIBLE:
        return RefResult("unique", (first,))
    if st not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return RefResult("unknown", (first,), reason="timed out before uniqueness was proved")
    return RefResult("multiple", (first, read()))


# --------------------------------------------------------------------------- the run

@dataclass
class Row:
    case: Case
    status: str = ""
    line_solvable: bool = False
    open_cells: int = 0
    cnf: tuple[int, int] = (0, 0)
    sat_calls: int = 0
    solutions: tuple[str, ...] = ()
    seconds: float = 0.0
    cpu: float = 0.0
    ref_status: str = ""
    ref_seconds: float = 0.0
    ref_cpu: float = 0.0
    problems: list[str] = field(default_factory=list)


def problems(case: Case, status: str, solutions: Sequence[str], who: str) -> list[str]:
    """What is wrong with one solver's answer on its own."""
    out = []
    for s in solutions:
        why = case.puzzle.breaks(s)
        if why is not None:
            out.append(f"{who}: a solution breaks a clue ({why})")
    if status == "multiple" and len(solutions) == 2 and solutions[0] == solutions[1]:
        out.append(f"{who}: 'multiple' with the same picture twice")
    if status in ("unique", "multiple") and not solutions:
        out.append(f"{who}: '{status}' without a solution")
    if case.goal is not None:
        if status == "none":
            out.append(f"{who}: 'none', but the puzzle was drawn from a picture")
        elif status == "unique" and solutions and solutions[0] != case.goal:
            out.append(f"{who}: 'unique', but not the picture the puzzle was drawn from")
    return out


def settle_satnono(row: Row, timeout: float | None, lines: LineSolver) -> None:
    c0, t0 = time.process_time(), time.perf_counter()
    try:
        r = settle_lanes(row.case.puzzle, Limits(timeout=timeout), line_solver=lines)
    except Exception as e:  # noqa: BLE001 - reported, never hidden
        row.seconds, row.cpu = time.perf_counter() - t0, time.process_time() - c0
        row.status = "error"
        row.problems.append(f"satnono raised {type(e).__name__}: {e}")
        return
    row.seconds, row.cpu = time.perf_counter() - t0, time.process_time() - c0
    row.status = str(r.status)
    row.line_solvable = r.line_solvable
    row.open_cells = r.stats.unknown_after_propagation
    row.cnf = (r.stats.cnf_vars, r.stats.cnf_clauses)
    row.sat_calls = r.stats.sat_calls
    row.solutions = r.solutions
    row.problems += problems(row.case, row.status, r.solutions, "satnono")


def settle_cpsat(row: Row, timeout: float | None, workers: int | None) -> None:
    c0, t0 = time.process_time(), time.perf_counter()
    r = cpsat_settle(row.case.puzzle, timeout, workers)
    row.ref_seconds, row.ref_cpu = time.perf_counter() - t0, time.process_time() - c0
    row.ref_status = r.status
    row.problems += problems(row.case, r.status, r.solutions, "CP-SAT")
    mine = row.solutions
    if row.status != r.status:
        kind = "contradict" if {row.status, r.status} <= SETTLED else "differ (a timeout or an error)"
        row.problems.append(f"verdicts {kind}: satnono {row.status}, CP-SAT {r.status}")
    elif r.status == "unique" and mine and r.solutions and mine[0] != r.solutions[0]:
        row.problems.append("both 'unique' but with different pictures")


def parse_sides(text: str) -> list[int]:
    """``6-12`` or ``6,8,10`` (or a mix)."""
    out: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        out += range(int(lo), int(hi or lo) + 1)
    if not out or min(out) < 1:
        raise ValueError(f"bad --sides {text!r}")
    return out


def _ratio(ref: float, sat: float) -> float:
    return ref / sat if sat > 0 else float("inf")


def run(sides: list[int], count: int, broken: int, seed: int, colours: int, densities: Sequence[float],
        timeout: float | None, workers: int | None, hardest: int, out: Callable[[str], None]) -> int:
    worker_text = (f"--cpsat-workers {workers}" if workers is not None else
                   f"default workers (num_workers unset: CP-SAT uses the cores; os.cpu_count() = {os.cpu_count()})")
    out(f"satnono bench triddler: regular hexagons of side {', '.join(map(str, sides))}; per side {count} random "
        f"pictures (densities {' '.join(f'{d:g}' for d in densities)} in turn) + {broken} with one clue altered (~); "
        f"{'black and white' if colours == 1 else f'{colours} colours'}; seed {seed}; timeout "
        f"{'none' if timeout is None else f'{timeout:g} s'} per puzzle and solver")
    out(f"reference: OR-tools {ORTOOLS} CP-SAT, an automaton per lane, {worker_text}; seconds are wall seconds "
        f"per puzzle summed, after a warm-up puzzle that needs satnono's search")

    # warm-up: imports, CaDiCaL and CP-SAT loaded, not counted
    lines = LineSolver()
    for i in range(100):  # the first small picture that needs the search (so CaDiCaL is loaded too)
        warm = draw(3, 1, 0, seed + 1 + i, colours, (0.4,))[0]
        if settle_lanes(warm.puzzle, Limits(timeout=timeout), line_solver=lines).stats.sat_calls:
            break
    cpsat_settle(warm.puzzle, timeout, workers)

    all_rows: list[Row] = []
    head = (f"{'side':>4} {'cells':>5} {'puzzles':>7} {'unique':>6} {'multi':>5} {'none':>4} {'unkn':>4} "
            f"{'search':>6} {'same':>4} | {'satnono s':>9} {'median':>7} | {'CP-SAT s':>9} {'median':>7} | "
            f"{'ratio':>7} {'CPU ratio':>9}  target >= {TARGET:g}x")
    out("")
    out(head)
    out("-" * len(head))
    for side in sides:
        rows = [Row(c) for c in draw(side, count, broken, seed, colours, densities)]
        gc.collect()  # the garbage of the other solver's phase is not collected in this one's time
        for row in rows:  # satnono over the whole set, then CP-SAT over it
            settle_satnono(row, timeout, lines)
        gc.collect()
        for row in rows:
            settle_cpsat(row, timeout, workers)
        for row in rows:
            if row.problems:
                out(f"  !!! {row.case.name}{f' ({row.case.note})' if row.case.note else ''}: "
                    + "; ".join(row.problems))
        all_rows += rows
        out(_line(f"{side:>4} {Triangle.hexagon(side).cell_count:>5}", rows))
    out("-" * len(head))
    out(_line(f"{'all':>4} {'':>5}", all_rows))

    bad = [r for r in all_rows if r.problems]
    sat_total = sum(r.seconds for r in all_rows)
    ref_total = sum(r.ref_seconds for r in all_rows)
    ratio = _ratio(ref_total, sat_total)
    same = sum(r.status == r.ref_status for r in all_rows)
    out("")
    out(f"verdicts: {same} of {len(all_rows)} identical" + ("" if same == len(all_rows) else
                                                          f"  !!! {len(all_rows) - same} DIFFER"))
    out(f"solutions checked against every lane's clue: "
        f"{'all hold' if not any('breaks' in p for r in all_rows for p in r.problems) else '!!! SOME BREAK A CLUE'}")
    out(f"CPU seconds: satnono {sum(r.cpu for r in all_rows):.3f}, CP-SAT {sum(r.ref_cpu for r in all_rows):.3f} "
        f"(all its threads)")
    ok = ratio >= TARGET and not bad
    out(f"ratio CP-SAT total / satnono total: {ref_total:.3f} s / {sat_total:.3f} s = {ratio:.2f}x; target: satnono "
        f">= {TARGET:g}x faster with the same verdicts: {'PASS' if ok else 'FAIL'}")
    if hardest > 0:
        for title, key in (("satnono", lambda r: r.seconds), ("CP-SAT", lambda r: r.ref_seconds)):
            out("")
            out(f"hardest for {title}:")
            for r in sorted(all_rows, key=key, reverse=True)[:hardest]:
                search = "line-solvable" if r.line_solvable else (
                    "line logic left a lane no placement" if not r.sat_calls else f"{r.open_cells} open after line logic, CNF {r.cnf[0]} vars {r.cnf[1]} clauses, "
                    f"{r.sat_calls} SAT calls")
                out(f"  {r.case.name:<16} {r.status:<8} satnono {r.seconds:8.3f} s  CP-SAT {r.ref_seconds:8.3f} s  "
                    f"({search})")
    if bad:
        out("")
        out(f"!!! {len(bad)} puzzle(s) with problems (above, marked !!!): exit status 1")
    return 1 if bad else 0


def _line(lead: str, rows: list[Row]) -> str:
    verdicts = Counter(r.status for r in rows)
    sat = [r.seconds for r in rows]
    ref = [r.ref_seconds for r in rows]
    ratio = _ratio(sum(ref), sum(sat))
    cpu_ratio = _ratio(sum(r.ref_cpu for r in rows), sum(r.cpu for r in rows))
    same = sum(r.status == r.ref_status for r in rows)
    ok = ratio >= TARGET and same == len(rows) and not any(r.problems for r in rows)
    return (f"{lead} {len(rows):>7} {verdicts['unique']:>6} {verdicts['multiple']:>5} {verdicts['none']:>4} "
            f"{verdicts['unknown'] + verdicts['error']:>4} {sum(r.sat_calls > 0 for r in rows):>6} {same:>4} | "
            f"{sum(sat):9.3f} {statistics.median(sat):7.4f} | {sum(ref):9.3f} {statistics.median(ref):7.4f} | "
            f"{ratio:6.2f}x {cpu_ratio:8.2f}x  {'PASS' if ok else 'FAIL'}")


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("triddler", __doc__)
    ap.add_argument("--count", type=int, default=COUNT, metavar="N", help=f"random puzzles per side (default {COUNT})")
    ap.add_argument("--broken", type=int, default=BROKEN, metavar="B",
                    help=f"more puzzles per side with one clue altered (default {BROKEN})")
    ap.add_argument("--sides", default=SIDES, help=f"hexagon sides, e.g. 6-12 or 6,9,12 (default {SIDES})")
    ap.add_argument("--seed", type=int, default=SEED, help=f"seed of the pictures (default {SEED})")
    ap.add_argument("--colours", "--colors", type=int, default=1, choices=(1, 2, 3), metavar="K",
                    help="block colours: 1 black and white (default), 2 or 3")
    ap.add_argument("--densities", default=",".join(f"{d:g}" for d in DENSITIES), metavar="D,D,...",
                    help=f"fractions of filled cells, used in turn (default {','.join(f'{d:g}' for d in DENSITIES)})")
    ap.add_argument("--timeout", type=float, default=TIMEOUT,
                    help=f"seconds per puzzle and solver, 0 for none (default {TIMEOUT:g})")
    ap.add_argument("--cpsat-workers", type=int, default=None, metavar="N",
                    help="CP-SAT's num_workers (default: CP-SAT's own default, all the cores)")
    ap.add_argument("--hardest", type=int, default=5, metavar="N", help="list the N hardest puzzles of each solver")
    ap.add_argument("--quick", action="store_true",
                    help="a small run for tests: sides 4-5, 3 puzzles + 1 altered each, timeout 10 s")
    a = ap.parse_args(argv)
    if a.quick:  # new defaults: options given explicitly still win
        ap.set_defaults(sides="4-5", count=3, broken=1, timeout=10.0, hardest=3)
        a = ap.parse_args(argv)
    if ORTOOLS is None:
        print("bench triddler: needs ortools for the CP-SAT reference (pip install -e '.[bench]')")
        return 2
    try:
        sides = parse_sides(a.sides)
        densities = tuple(float(d) for d in a.densities.split(","))
    except ValueError as e:
        ap.error(str(e))
    if not all(0.0 <= d <= 1.0 for d in densities):
        ap.error("densities are fractions 0..1")
    if a.count + a.broken < 1:
        ap.error("no puzzles: --count + --broken must be at least 1")

    def out(msg: str = "") -> None:
        print(msg, flush=True)

    return run(sides, a.count, a.broken, a.seed, a.colours, densities, a.timeout or None, a.cpsat_workers,
               a.hardest, out)
