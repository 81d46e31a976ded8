"""`bench.py limits`: does `satnono check --timeout T` answer within T at every size, and how
much memory does it take?

Random pictures (every cell black with probability --fill, seeded) of the sizes given, written
as `.non` files without their solution, are checked by whole `satnono check` processes with
`--timeout T` (and the default `--max-memory`, or the one given).  For each run it prints the
wall time from the process's start to its end (reading the file, start-up and exit included),
the ratio to T, the peak resident memory of the process (the kernel's figure, ru_maxrss of the
finished child), the verdict and its reason, and PASS/FAIL against the targets of issue 42:
the answer within 10 % + 1 s of T at every size, and a 400x400 picture within 2 GB.  A last
row checks a picture with no timeout under a memory limit below its estimate: it must answer
`unknown` at once, naming the limit.

    bench.py limits                          # 100, 200, 400, 800, 2000; T = 5 and 20
    bench.py limits --sizes 400 --timeouts 5,10,30 --repeat 3
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import tempfile
import time

import benchlib

GB = 1 << 30


def picture_non(n: int, fill: float, seed: int) -> str:
    """A random n x n picture's clues as a .non file (no goal: the solver knows no solution)."""
    from satnono.formats import dumps
    from satnono.model import Puzzle

    rng = random.Random(seed)
    rows = ["".join("#" if rng.random() < fill else "." for _ in range(n)) for _ in range(n)]
    puzzle = Puzzle.from_grid(rows, name=f"random {n}x{n} fill {fill} seed {seed}", goal=None)
    return str(dumps(puzzle, "non"))


def run(command: list[str]) -> tuple[float, int, int, str]:
    """(wall seconds, peak RSS in bytes, exit code, first line of output) of one whole process
    (its own rusage, reaped with wait4)."""
    with tempfile.TemporaryFile("w+") as out:
        t0 = time.monotonic()
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
        wall = time.monotonic() - t0
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        first = (out.read().strip().splitlines() or [""])[0]
    return wall, usage.ru_maxrss * 1024, proc.returncode, first


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("limits", __doc__)
    ap.add_argument("--sizes", default="100,200,400,800,2000", help="picture sides (default %(default)s)")
    ap.add_argument("--timeouts", default="5,20", help="values of --timeout T, seconds (default %(default)s)")
    ap.add_argument("--fill", type=float, default=0.5, help="share of black cells (default %(default)s)")
    ap.add_argument("--repeat", type=int, default=1, help="runs of each size and T (default %(default)s)")
    ap.add_argument("--max-memory", default=None, help="passed to satnono check (default: its own default)")
    ap.add_argument("--satnono", default=shutil.which("satnono") or "satnono", help="the command (default %(default)s)")
    args = ap.parse_args(argv)
    sizes = [int(x) for x in args.sizes.split(",") if x]
    timeouts = [float(x) for x in args.timeouts.split(",") if x]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        files = {}
        for n in sizes:
            files[n] = os.path.join(tmp, f"random-{n}.non")
            with open(files[n], "w") as f:
                f.write(picture_non(n, args.fill, seed=n))
        print(f"{'size':>9} {'T s':>6} {'wall s':>8} {'wall/T':>7} {'peak':>8}  {'target':<5} verdict")
        for n in sizes:
            for t in timeouts:
                for _ in range(args.repeat):
                    cmd = [args.satnono, "check", "--timeout", f"{t:g}", files[n]]
                    if args.max_memory:
                        cmd[2:2] = ["--max-memory", args.max_memory]
                    wall, peak, rc, first = run(cmd)
                    ok = wall <= 1.1 * t + 1.0 and rc in (0, 3, 4, 5) and (n != 400 or peak <= 2 * GB)
                    failed += not ok
                    verdict = first.split(": ", 1)[-1]
                    print(f"{n:>4}x{n:<4} {t:>6g} {wall:>8.2f} {wall / t:>7.2f} {peak / GB:>6.2f}GB  "
                          f"{'PASS' if ok else 'FAIL':<5} {verdict[:110]}")
        n = max(sizes)
        cmd = [args.satnono, "check", "--max-memory", "256M", files[n]]
        wall, peak, rc, first = run(cmd)
        ok = rc == 5 and "memory limit" in first and peak <= 2 * GB
        failed += not ok
        print(f"{n:>4}x{n:<4} {'none':>6} {wall:>8.2f} {'':>7} {peak / GB:>6.2f}GB  {'PASS' if ok else 'FAIL':<5} "
              f"(--max-memory 256M) {first.split(': ', 1)[-1][:110]}")
    print(f"{failed} of the targets failed" if failed else "every target passed")
    return 1 if failed else 0

