"""Time the editor's live verdict on random pictures (the page's `api/analyze` call).

    python scripts/bench_editor.py [--size 30x30] [--count 50] [--seed 1] [--colors K]

Prints, per density, the median and worst seconds of `satnono.web.session.analyze`
(line logic, placement counts, SAT verdict and ambiguity region) and the statuses seen;
then the same through the HTTP app (Starlette test client, worker processes), which adds
JSON and the process hop.  With `--colors K` (2 or more) the pictures have K colours
(each filled cell one of them, uniformly), as the page sends them: with a palette.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections import Counter

from satnono.model import default_palette
from satnono.report import palette_list
from satnono.web import server, session


def pictures(w: int, h: int, count: int, density: float, seed: int, colors: int = 1) -> list[list[str]]:
    rng = random.Random(f"{seed}-{density}-{colors}")
    chars = [c.char for c in default_palette(colors)[1:]]
    return [["".join(rng.choice(chars) if rng.random() < density else "." for _ in range(w)) for _ in range(h)]
            for _ in range(count)]


def document(grid: list[str], colors: int) -> dict:
    return {"grid": grid, "palette": palette_list(default_palette(colors))}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", default="30x30")
    ap.add_argument("--count", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--colors", type=int, default=1, help="block colours (1: black and white)")
    a = ap.parse_args()
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


if __name__ == "__main__":
    main()
