"""Time the editor's live verdict on random pictures (the page's `api/analyze` call).

    bench.py editor [--size 30x30] [--count 50] [--seed 1] [--colors K]
    bench.py editor --colors 3 --count 30      # issue 19's target: the density 0.3 row's worst

Prints, per density, the median and worst seconds of `satnono.web.session.analyze`
(line logic, placement counts, SAT verdict and ambiguity region) and the statuses seen;
then the same through the HTTP app (Starlette test client, worker processes), which adds
JSON and the process hop.  With `--colors K` (2 or more) the pictures have K colours
(each filled cell one of them, uniformly), as the page sends them: with a palette.
Densities 0.3, 0.5 and 0.7, `--count` pictures each, drawn from a fixed seed; wall seconds
(`time.perf_counter`) of each call, in this process.

Target (issue 19): the worst of 30 random 30x30 three-colour pictures at 30 % fill within
1 s (`--colors 3 --count 30`, the density 0.3 row).  No PASS/FAIL is printed: the figures
are read against it (`bench.py sets`'s issue-19 table points here).
"""

from __future__ import annotations

import random
import statistics
import time
from collections import Counter

import benchlib

from satnono.model import default_palette
from satnono.report import palette_list
from satnono.web import server, session


def pictures(w: int, h: int, count: int, density: float, seed: int, colors: int = 1) -> list[list[str]]:
    rng = random.Random(f"{seed}-{density}-{colors}")
    return [list(benchlib.colour_grid(rng, h, w, benchlib.palette_chars(colors), density)) for _ in range(count)]


def document(grid: list[str], colors: int) -> dict:
    return {"grid": grid, "palette": palette_list(default_palette(colors))}


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("editor", __doc__)
    ap.add_argument("--size", default="30x30", help="picture size WxH (default 30x30)")
    ap.add_argument("--count", type=int, default=50, help="pictures per density (default 50)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the pictures (default 1)")
    ap.add_argument("--colors", type=int, default=1, help="block colours (1: black and white)")
    a = ap.parse_args(argv)
    w, h = (int(x) for x in a.size.lower().split("x"))
    k = a.colors
    print(f"{w}x{h}, {k} colour{'s' if k > 1 else ''}, {a.count} random pictures per density, library call in this process")
    for density in (0.3, 0.5, 0.7):
        times, statuses = [], Counter()
        for grid in pictures(w, h, a.count, density, a.seed, k):
            t0 = time.perf_counter()
            r = session.analyze(document(grid, k))
            times.append(time.perf_counter() - t0)
            statuses[r["status"] + ("/line" if r["line_solvable"] else "")] += 1
        print(f"  density {density}: median {statistics.median(times):.3f} s, worst {max(times):.3f} s, "
              f"{dict(statuses)}")

    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    app = server.create_app(session.Editor(None), "t", ["testserver"])
    with TestClient(app) as client:
        times = []
        for v, grid in enumerate(pictures(w, h, a.count, 0.5, a.seed, k)):
            t0 = time.perf_counter()
            r = client.post("/t/api/analyze", json={"version": v, "doc": document(grid, k)})
            r.raise_for_status()
            times.append(time.perf_counter() - t0)
        print(f"through HTTP (worker process), density 0.5: median {statistics.median(times):.3f} s, "
              f"worst {max(times):.3f} s")
    return 0
