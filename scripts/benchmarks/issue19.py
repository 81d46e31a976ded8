"""Pieces of ``bench.py sets`` for the targets of issue 19 (performance).

* :func:`probe_encode` / :func:`probe_settle`: the *plain order-encoding probe*, an independent
  baseline written here (not satnono's encoder): the block-start order encoding of a black and
  white puzzle built from its clues alone, with no line solving and no propagation (every
  block's starts range over [earliest, latest] from its clue alone), solved with python-sat's
  CaDiCaL 1.9.5 with default options: a first solution, then a blocking clause over every cell
  variable and a second call, so it settles what satnono settles (unique / multiple / none).
  The clause scheme is the one of the guide's encodings note, section 1.2: y[j,p] = "block j
  starts at or before p"; ladder y[j,p] -> y[j,p+1]; order y[j+1,p] -> y[j,p-c_j-1]; white
  side "block j covers cell i -> x_i"; black side "x_i -> the last block started by i covers i".
* :func:`measure_startup_cpu`: CPU of ``python -c pass`` against ``satnono check`` on a 1x1
  puzzle, whole processes, alternated, medians; :func:`measure_json_cpu`: ``check --json``
  against plain ``check`` on a batch of puzzles, the same way.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from benchlib import children_cpu

#: A literal that is constant: the clause scheme's "y[j,p] is false for p < lo, true for p >= hi".
TRUE, FALSE = "T", "F"


def _neg(lit: int | str) -> int | str:
    if lit == TRUE:
        return FALSE
    if lit == FALSE:
        return TRUE
    return -lit  # type: ignore[operator]


class _Cnf:
    """Clauses over fresh variables; constants are folded away as clauses are added.
    ``empty`` is set when a clause loses every literal (the puzzle has no solution)."""

    def __init__(self, nvars: int = 0) -> None:
        self.nvars = nvars
        self.clauses: list[list[int]] = []
        self.empty = False

    def new(self) -> int:
        self.nvars += 1
        return self.nvars

    def add(self, *lits: int | str) -> None:
        if TRUE in lits:
            return
        clause = [lit for lit in lits if lit != FALSE]
        if not clause:
            self.empty = True
        else:
            self.clauses.append(clause)  # type: ignore[arg-type]


def _encode_line(cnf: _Cnf, clue: Sequence[int], cells: Sequence[int]) -> None:
    """The order encoding of one line: ``cells`` are the cell variables (true = black)."""
    n, k = len(cells), len(clue)
    lo = [sum(clue[:j]) + j for j in range(k)]
    hi = [n - (sum(clue[j:]) + (k - 1 - j)) for j in range(k)]
    if any(h < low for low, h in zip(lo, hi)):
        cnf.add()  # the clue does not fit the line
        return
    y = [{p: cnf.new() for p in range(lo[j], hi[j])} for j in range(k)]

    def Y(j: int, p: int) -> int | str:  # the note's name for y[j,p], constants folded in
        if j >= k or p < lo[j]:
            return FALSE
        if p >= hi[j]:
            return TRUE
        return y[j][p]

    for j in range(k):
        for p in range(lo[j], hi[j]):
            cnf.add(-y[j][p], Y(j, p + 1))  # ladder
        if j + 1 < k:
            for p in range(lo[j + 1], hi[j + 1]):  # order: s[j+1] >= s[j] + c[j] + 1
                cnf.add(-y[j + 1][p], Y(j, p - clue[j] - 1))
    for i, x in enumerate(cells):
        for j in range(k):  # white side: block j covers i -> x_i
            if lo[j] <= i < hi[j] + clue[j]:
                cnf.add(x, _neg(Y(j, i)), Y(j, i - clue[j]))
        cnf.add(-x, Y(0, i))  # black side: some block has started by i ...
        for j in range(k):  # ... and the last one that has still covers i
            cnf.add(-x, _neg(Y(j, i)), Y(j + 1, i), _neg(Y(j, i - clue[j])))


def probe_encode(rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]],
                 givens: Sequence[tuple[int, int, int]] = ()) -> tuple[_Cnf, list[list[int]]]:
    """The CNF of a black and white puzzle and its cell variables (``cells[r][c]``, true = black)."""
    h, w = len(rows), len(columns)
    cells = [[r * w + c + 1 for c in range(w)] for r in range(h)]
    cnf = _Cnf(h * w)
    for r, clue in enumerate(rows):
        _encode_line(cnf, clue, cells[r])
    for c, clue in enumerate(columns):
        _encode_line(cnf, clue, [cells[r][c] for r in range(h)])
    for r, c, colour in givens:
        cnf.add(cells[r][c] if colour else -cells[r][c])
    return cnf, cells


def probe_settle(rows: Sequence[Sequence[int]], columns: Sequence[Sequence[int]],
                 givens: Sequence[tuple[int, int, int]] = ()) -> tuple[str, list[tuple[str, ...]]]:
    """``(status, solutions)``: 'unique', 'multiple' or 'none', with up to two solutions as rows
    of '#' and '.'."""
    from pysat.solvers import Solver

    cnf, cells = probe_encode(rows, columns, givens)
    if cnf.empty:
        return "none", []
    flat = [v for row in cells for v in row]
    sols: list[tuple[str, ...]] = []
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as s:
        for _ in range(2):
            if not s.solve():
                break
            model = s.get_model() or []
            true = {v for v in model if v > 0}
            sols.append(tuple("".join("#" if v in true else "." for v in row) for row in cells))
            if not flat:
                break  # a 0-cell grid has one picture, the empty one
            s.add_clause([-v if v in true else v for v in flat])
    return ("none", "unique", "multiple")[len(sols)], sols


@dataclass
class ProbeResult:
    """The probe over a mix: CPU seconds of both, counts and disagreements."""

    puzzles: int = 0
    probe_cpu: float = 0.0
    satnono_cpu: float = 0.0  # satnono's CPU on these puzzles in the main run
    #: satnono's CPU settling the puzzles again next to the probe's runs of them (blocks of
    #: :data:`PAIR_BLOCK`, alternately first; None: not paired).  The probe runs minutes after
    #: the main run; on a machine whose speed drifts (this one's probe took 11.4 to 16.8 s, the
    #: main run 4.2 to 5.9 s, for the same work across runs) only the paired figure compares
    #: like with like, so it is the one the ratio uses.
    paired_cpu: float | None = None
    skipped: int = 0  # colour, rules or blots: not for this probe
    statuses: dict[str, int] = field(default_factory=dict)
    problems: list[tuple[str, str]] = field(default_factory=list)  # (name, message): disagreements, bad solutions

    @property
    def ratio(self) -> float | None:
        mine = self.satnono_cpu if self.paired_cpu is None else self.paired_cpu
        return mine / self.probe_cpu if self.probe_cpu > 0 else None


#: Puzzles per block of :func:`run_probe`'s pairing: each side settles a block back to back (the
#: caches warm, as in a run of its own), the blocks alternate which side goes first.
PAIR_BLOCK = 25


def run_probe(entries: Sequence[tuple[str, object, str, float]],
              resettle: Callable[[str, object], tuple[str, float]] | None = None) -> ProbeResult:
    """Run the probe on ``(name, puzzle, satnono status, satnono CPU s)`` entries; the probe's
    CPU is ``time.process_time`` around encode + solve of each puzzle.

    ``resettle(name, puzzle) -> (status, CPU s)``, when given, settles the puzzles with satnono
    again next to the probe's runs of them, in blocks of :data:`PAIR_BLOCK` (satnono first on even
    blocks, the probe first on odd ones), for :attr:`ProbeResult.paired_cpu`; a verdict that
    differs from the main run's is a problem (unless one of them is ``unknown``).  (Settling puzzle by puzzle in turn cost both sides
    their warm caches: satnono read 12 % slower than in its own run.)"""
    res = ProbeResult(paired_cpu=None if resettle is None else 0.0)
    mine = [e for e in entries if not (e[1].is_color or e[1].rules  # type: ignore[attr-defined]
                                       or any(e[1].row_blots) or any(e[1].column_blots))]  # type: ignore[attr-defined]
    res.skipped = len(entries) - len(mine)

    def again(block: Sequence[tuple[str, object, str, float]]) -> None:
        for name, p, status, _cpu in block:
            got, cpu = resettle(name, p)  # type: ignore[misc]
            res.paired_cpu = (res.paired_cpu or 0.0) + cpu
            if got != status and "unknown" not in (got, status):  # (a time limit may end either run)
                res.problems.append((name, f"satnono's verdict changed between runs: {status}, then {got}"))

    for b in range(0, len(mine), PAIR_BLOCK):
        block = mine[b:b + PAIR_BLOCK]
        if resettle is not None and (b // PAIR_BLOCK) % 2 == 0:
            again(block)
        for name, p, status, cpu in block:
            c0 = time.process_time()
            got, sols = probe_settle(p.rows, p.columns, p.givens)  # type: ignore[attr-defined]
            res.probe_cpu += time.process_time() - c0
            res.satnono_cpu += cpu
            res.puzzles += 1
            res.statuses[got] = res.statuses.get(got, 0) + 1
            for s in sols:
                if not p.is_solution(s):  # type: ignore[attr-defined]
                    res.problems.append((name, "a probe solution does not satisfy the clues"))
            if status in ("unique", "multiple", "none") and status != got:
                res.problems.append((name, f"verdicts disagree: satnono {status}, order-encoding probe {got}"))
        if resettle is not None and (b // PAIR_BLOCK) % 2 == 1:
            again(block)
    return res


# --------------------------------------------------------------------------- start-up (CPU)

def paired_cpu(cmds: dict[str, list[str]], pairs: int, cwd: str | None = None) -> dict[str, float]:
    """Median CPU seconds (user + system of the child) of each command, the commands run in turn
    ``pairs`` times; raises when one exits with a code that is not a verdict's (0 unique,
    3 multiple, 4 none, 5 unknown)."""
    times: dict[str, list[float]] = {k: [] for k in cmds}
    for _ in range(pairs):
        for key, cmd in cmds.items():
            c0 = children_cpu()
            proc = subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
            times[key].append(children_cpu() - c0)
            if proc.returncode not in (0, 3, 4, 5):
                raise RuntimeError(f"{' '.join(cmd[:3])} ... exited {proc.returncode}: {proc.stderr.decode()[-300:]}")
    return {k: statistics.median(v) for k, v in times.items()}


def measure_startup_cpu(satnono_cmd: Sequence[str], python: str, pairs: int = 20,
                        cwd: str | None = None) -> dict[str, float]:
    """Median CPU seconds of ``python -c pass`` and of ``satnono check`` on a 1x1 puzzle, whole
    processes, run alternately ``pairs`` times.  Keys: 'python', 'satnono', 'ratio'."""
    with tempfile.TemporaryDirectory() as tmp:
        one = os.path.join(tmp, "one.non")
        with open(one, "w") as f:
            f.write("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
        med = paired_cpu({"python": [python, "-c", "pass"], "satnono": [*satnono_cmd, "check", one]}, pairs, cwd)
    med["ratio"] = med["satnono"] / med["python"] if med["python"] > 0 else float("inf")
    med["editable"] = float(editable_install(python))
    return med


def editable_install(python: str) -> bool:
    """Whether ``python``'s environment holds satnono as an editable install (``pip install -e``):
    then every start of that Python, ``python -c pass`` included, runs the editable import finder
    its ``.pth`` file loads (pathlib, importlib.util, ...), which makes the start-up ratio read lower
    than in a regular install."""
    out = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=False).stdout.strip()
    return bool(out) and has_editable_pth(Path(out))


def has_editable_pth(site_packages: Path) -> bool:
    """Whether ``site_packages`` has the ``.pth`` file of an editable install of satnono."""
    return any(site_packages.glob("__editable__*satnono*.pth"))


def measure_json_cpu(satnono_cmd: Sequence[str], big: str, count: int = 100, pairs: int = 5,
                     cwd: str | None = None) -> dict[str, float]:
    """Median CPU seconds of ``satnono check --json`` and of plain ``check`` on the first ``count``
    puzzles of the multi-puzzle file ``big`` (``big#1 ... big#count``), whole processes, run
    alternately ``pairs`` times.  Keys: 'json', 'plain', 'ratio'."""
    picks = [f"{big}#{k}" for k in range(1, count + 1)]
    med = paired_cpu({"json": [*satnono_cmd, "check", "--json", *picks], "plain": [*satnono_cmd, "check", *picks]},
                     pairs, cwd)
    med["ratio"] = med["json"] / med["plain"] if med["plain"] > 0 else float("inf")
    return med


def measure_pick(big: os.PathLike | str, satnono_cmd: Sequence[str], count: int = 50, repeat: int = 3,
                 cwd: str | None = None) -> tuple[float, float]:
    """``satnono check F#1 ... F#count`` on a multi-puzzle file (a 1000-puzzle tournament file)
    against ``check`` on the same puzzles as separate JSON files: best-of-``repeat`` wall seconds
    of each, run alternately (issue 19: at most 1.2x)."""
    from satnono.formats import dumps, load_all

    with tempfile.TemporaryDirectory() as tmp:
        separate = []
        for k, p in enumerate(load_all(str(big))[:count], 1):
            path = os.path.join(tmp, f"p{k}.json")
            with open(path, "w") as f:
                f.write(dumps(p, "json"))  # type: ignore[arg-type]
            separate.append(path)
        picked = [*satnono_cmd, "check", *(f"{big}#{k}" for k in range(1, count + 1))]
        files = [*satnono_cmd, "check", *separate]
        best = [float("inf"), float("inf")]
        for _ in range(repeat):
            for side, cmd in enumerate((picked, files)):
                t0 = time.perf_counter()
                subprocess.run(cmd, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=cwd)
                best[side] = min(best[side], time.perf_counter() - t0)
    return best[0], best[1]


def probe_rows(rows: Sequence, note: str, out: Callable[[str], None],
               resettle: Callable[[str, object], tuple[str, float]] | None = None) -> ProbeResult:
    """Settle the puzzles of bench's ``rows`` (``.item.name``, ``.item.puzzle``, ``.status``,
    ``.cpu``, ``.problems``) with the probe (each next to satnono's settle of it again, with
    ``resettle``: see :func:`run_probe`), print what it found, and add every disagreement
    with satnono (or bad probe solution) to that row's problems."""
    out(f"\n== plain order-encoding probe (issue 19): {len(rows)} puzzles ({note})")
    if not rows:
        out("   no puzzle of the mix was run")
        return ProbeResult()
    by_name = {r.item.name: r for r in rows}
    res = run_probe([(r.item.name, r.item.puzzle, r.status, r.cpu) for r in rows], resettle)
    for name, msg in res.problems:
        by_name[name].problems.append(msg)
    ratio = "n/a" if res.ratio is None else f"{res.ratio:.3f}x"
    if res.paired_cpu is None:
        out(f"   satnono CPU {res.satnono_cpu:.3f} s, probe CPU {res.probe_cpu:.3f} s (encode + solve, this process):"
            f" satnono / probe {ratio} (target 0.3x or less)")
    else:
        main = "n/a" if res.probe_cpu <= 0 else f"{res.satnono_cpu / res.probe_cpu:.3f}x"
        out(f"   satnono CPU {res.paired_cpu:.3f} s settled again next to the probe (blocks of {PAIR_BLOCK}), probe CPU"
            f" {res.probe_cpu:.3f} s (encode + solve, this process): satnono / probe {ratio} (target 0.3x or less);"
            f" satnono's main run took {res.satnono_cpu:.3f} s ({main} against this probe)")
    out(f"   probe verdicts {dict(sorted(res.statuses.items()))}"
        + (f"; {res.skipped} colour, blotted or ruled puzzles skipped" if res.skipped else ""))
    if res.problems:
        out(f"   !!! {len(res.problems)} problems between satnono and the probe:")
        for name, msg in res.problems[:20]:
            out(f"     !!! {name}: {msg}")
    else:
        out("   verdicts: satnono and the probe agree on every puzzle")
    return res
