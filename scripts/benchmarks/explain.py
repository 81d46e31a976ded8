#!/usr/bin/env python3
"""Speed of ``satnono explain`` against issue 12's two targets.

1. A 30x30 line-solvable puzzle explained in under 1 s: five generated
   30x30 line-solvable puzzles (fixed seeds) and the bundled 34x34
   webpbn-00016; the figure is the slowest.
2. The webpbn survey set explained in one process in under 10 s: every
   black-and-white puzzle of ``webpbn-survey`` (the survey puzzles, Knotty,
   Faase and the ten Dom puzzles; its two colour files are in figure 3),
   with the command's defaults (probing depth 2, budget of
   :data:`satnono.explain.DEFAULT_PROBE_BUDGET` line-solver calls, a 1 s
   uniqueness check when logic stops), one :class:`LineSolver` shared, as
   ``satnono explain`` shares it within a run.

3. Colour puzzles (no target of their own; the same 1 s per puzzle is shown):
   random 20x20 and 30x30 colour puzzles (2 to 5 colours, fixed seed, as
   ``bench.py sets``'s colour set draws them: most have several
   solutions, so probing runs until its budget), generated 30x30
   line-solvable colour puzzles (2, 3 and 4 colours, seed 0), the bundled
   ``webpbn-color-00047`` (31x18) and ``webpbn-color-00220`` (40x40) and the
   generated 3-colour 10x10 search puzzle, with the command's defaults.

Both wall-clock and CPU time are printed (the machine is shared); the targets are read on
wall-clock, PASS/FAIL printed for 1 and 2; exit 1 when one fails.  Usage::

    bench.py explain
    bench.py explain --corpus DIR      # default $SATNONO_CORPUS or ../shared/corpus
"""

from __future__ import annotations

import os
import time

import benchlib

from satnono.errors import SatnonoError
from satnono.explain import explain
from satnono.formats import load_all
from satnono.generation import generate
from satnono.lines import LineSolver

PUZZLES = str(benchlib.ROOT / "puzzles")


def _timed(fn):
    w0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - w0, time.process_time() - c0


def target_30x30() -> bool:
    print("== 1. a 30x30 line-solvable puzzle in under 1 s ==")
    puzzles = [(f"generated 30x30 seed {s}", p) for s in range(5)
               for p in generate(30, 30, 1, seed=s, density=(0.55, 0.7), require="line")]
    bundled = os.path.join(PUZZLES, "webpbn", "webpbn-00016.xml")
    puzzles.append(("webpbn-00016 (34x34)", load_all(bundled)[0]))
    worst = 0.0
    for name, p in puzzles:
        ex, wall, cpu = _timed(lambda: explain(p))
        worst = max(worst, wall)
        print(f"  {name:28s} {ex.difficulty['text']:40s} wall {wall:6.3f} s  cpu {cpu:6.3f} s")
    ok = worst < 1.0
    print(f"  slowest: {worst:.3f} s  target < 1 s: {'PASS' if ok else 'FAIL'}")
    return ok


def target_survey(corpus: str) -> bool:
    print("== 2. the webpbn survey set in one process in under 10 s ==")
    root = os.path.join(corpus, "webpbn-survey")
    files = []
    for base, dirs, names in os.walk(root):
        dirs.sort()
        files += [os.path.join(base, n) for n in sorted(names) if n.endswith(".xml")]
    lines = LineSolver()
    total_wall = total_cpu = 0.0
    levels: dict[str, int] = {}
    skipped = []
    for f in files:
        try:
            puzzles = load_all(f)
        except SatnonoError as e:
            skipped.append(f"{os.path.relpath(f, root)} ({str(e).split(': ', 1)[-1]})")
            continue
        for p in puzzles:
            if p.is_color:  # figure 3
                continue
            ex, wall, cpu = _timed(lambda: explain(p, line_solver=lines, verdict_timeout=1.0))
            total_wall += wall
            total_cpu += cpu
            d = ex.difficulty
            levels[d["level"] + ("" if d["exact"] else " (at least)")] = \
                levels.get(d["level"] + ("" if d["exact"] else " (at least)"), 0) + 1
            print(f"  {os.path.relpath(f, root):26s} {p.width:3d}x{p.height:<3d} {d['text'][:60]:60s} "
                  f"open {len(ex.remaining):5d}  wall {wall:6.3f} s")
    for s in skipped:
        print(f"  skipped: {s}")
    ok = total_wall < 10.0
    print(f"  levels: {', '.join(f'{k} {v}' for k, v in sorted(levels.items()))}")
    print(f"  total: wall {total_wall:.2f} s, cpu {total_cpu:.2f} s  target < 10 s: {'PASS' if ok else 'FAIL'}")
    return ok


def colour_figures() -> bool:
    print("== 3. colour puzzles (figures; 1 s per puzzle shown for comparison) ==")
    import random

    from satnono.model import Puzzle, default_palette

    rng = random.Random(benchlib.COLOUR_SEED)
    puzzles = []
    for h, w in ((20, 20), (30, 30)):
        for k in (2, 3, 5):
            pal, chars = default_palette(k), benchlib.palette_chars(k)
            for d in (0.5, 0.7):
                grid = benchlib.colour_grid(rng, h, w, chars, d)
                puzzles.append((f"random {h}x{w} k{k} d{d}", Puzzle.from_grid(grid, palette=pal)))
    for k in (2, 3, 4):
        for i, p in enumerate(generate(30, 30, 2, seed=0, colors=k, require="line", density=(0.6, 0.8),
                                       max_candidates=3000)):
            puzzles.append((f"generated 30x30 k{k} line #{i + 1}", p))
    for name in ("webpbn/webpbn-color-00047.xml", "webpbn/webpbn-color-00220.xml", "satnono/colour-search-10x10.non"):
        puzzles.append((os.path.basename(name), load_all(os.path.join(PUZZLES, name))[0]))
    lines = LineSolver()
    worst = total_wall = total_cpu = 0.0
    for name, p in puzzles:
        ex, wall, cpu = _timed(lambda: explain(p, line_solver=lines, verdict_timeout=1.0))
        worst = max(worst, wall)
        total_wall += wall
        total_cpu += cpu
        print(f"  {name:30s} {p.width:3d}x{p.height:<3d} {ex.difficulty['text'][:52]:52s} "
              f"open {len(ex.remaining):4d}  wall {wall:6.3f} s  cpu {cpu:6.3f} s")
    print(f"  slowest: {worst:.3f} s; total: wall {total_wall:.2f} s, cpu {total_cpu:.2f} s  "
          f"(under 1 s each: {'yes' if worst < 1.0 else 'no'})")
    return True


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("explain", __doc__)
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)
    a = target_30x30()
    b = target_survey(args.corpus) if os.path.isdir(os.path.join(args.corpus, "webpbn-survey")) else None
    if b is None:
        print("survey set not found: pass --corpus")
    colour_figures()
    return 0 if a and b is not False else 1

