#!/usr/bin/env python3
"""Certificates (issue 40): what ``satnono check --certify`` costs and what ``satnono verify`` costs.

    python scripts/bench_certify.py                      # everything below
    python scripts/bench_certify.py tournament --limit 200
    python scripts/bench_certify.py hard colour36 --timeout 120

``tournament``: for each of the three tournament files (1,000 puzzles of 25x25 each), whole
``satnono`` processes on blocks of ``--block`` puzzles (``FILE#k`` arguments): ``satnono check``
and ``satnono check --certify DIR`` (each first in turn, so that both see the same machine),
then ``satnono verify DIR/*``; their CPU seconds (user + system) and wall seconds.  Targets, on the totals of the three files and figures of this one run: certify at most
3x the plain check, verify at most the certify run.  Printed besides: the verdicts, the total
size of the proofs and of the certificates.  Every certificate must verify.

``hard`` (Knotty and Faase, webpbn survey) and ``colour36`` (issue 19's 36x40 two-colour
draws, seeds 0 to 19), clues only (no goal picture): each puzzle settled within ``--timeout``
(60 s), then, when it settles, its certificate written and verified, in this process; the
seconds of each step and the sizes printed.

Certificates go to a temporary directory (``--out DIR`` to keep them there instead).  Exit 1
when a target fails or a certificate does not verify.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parent
if str(SCRIPTS) not in sys.path:
    sys.path.insert(0, str(SCRIPTS))

import benchlib  # noqa: E402  (puts the repository first on sys.path)

PARTS = ("tournament", "hard", "colour36")
RATIO_CERTIFY = 3.0  # check --certify / check, at most
RATIO_VERIFY = 1.0  # verify / check --certify, at most


def _run(cmd: list[str]) -> tuple[float, float, subprocess.CompletedProcess]:
    """(CPU seconds, wall seconds, the finished process) of one command."""
    cpu0, t0 = benchlib.children_cpu(), time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    return benchlib.children_cpu() - cpu0, time.monotonic() - t0, proc


def _size(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file())


def tournament(corpus: Path, out: Path, limit: int | None, block: int, say,  # type: ignore[no-untyped-def]
               keep_certificates: bool) -> bool:
    satnono = benchlib.satnono_command()
    totals = {"check": 0.0, "certify": 0.0, "verify": 0.0}
    proofs = certificates = 0
    verdicts: dict[str, int] = {}
    ok = True
    say(f"{'file':10} {'puzzles':>7} {'check s':>8} {'certify s':>10} {'ratio':>6} {'verify s':>9} {'ratio':>6}"
        f" {'wall: check':>12} {'certify':>8} {'verify':>7}")
    turn = 0
    for name in benchlib.TOURNAMENT_SETS:
        path = corpus / benchlib.TOURNAMENT / "question" / f"{name}.txt"
        count = len(benchlib.load_set(name, corpus, limit))
        cpu = {"check": 0.0, "certify": 0.0, "verify": 0.0}
        wall = dict(cpu)
        where = out / name
        for start in range(1, count + 1, block):  # blocks of puzzles, check and certify in turn first
            files = [f"{path}#{k}" for k in range(start, min(start + block, count + 1))]
            here = where / str(start)
            runs = [("check", [*satnono, "check", *files]), ("certify", [*satnono, "check", "--certify", str(here), *files])]
            turn += 1
            for what, cmd in runs[::1 if turn % 2 else -1]:
                c, w, proc = _run(cmd)
                cpu[what] += c
                wall[what] += w
                if proc.returncode in (1, 2) or (what == "certify" and proc.returncode == 6):
                    say(f"  FAIL {name} #{start}: {what} exit {proc.returncode}: {proc.stderr.strip()[-300:]}")
                    ok = False
            dirs = sorted(str(p) for p in here.iterdir())
            c, w, proc = _run([*satnono, "verify", *dirs])
            cpu["verify"] += c
            wall["verify"] += w
            if proc.returncode != 0 or len(dirs) != len(files):
                say(f"  FAIL {name} #{start}: verify exit {proc.returncode} ({len(dirs)} certificates of {len(files)}): "
                    f"{proc.stderr.strip()[-300:]}")
                ok = False
            for d in map(Path, dirs):
                m = json.loads((d / "certificate.json").read_text())
                kind = m["verdict"] + (" (line-solvable)" if m["line_solvable"] else "")
                verdicts[kind] = verdicts.get(kind, 0) + 1
                if (d / "proof.drat").exists():
                    proofs += (d / "proof.drat").stat().st_size
            certificates += _size(here)
            if not keep_certificates:
                shutil.rmtree(here)
        for what in totals:
            totals[what] += cpu[what]
        say(f"{name:10} {count:7} {cpu['check']:8.1f} {cpu['certify']:10.1f} {cpu['certify'] / cpu['check']:6.2f} "
            f"{cpu['verify']:9.1f} {cpu['verify'] / cpu['certify']:6.2f} {wall['check']:12.1f} {wall['certify']:8.1f} "
            f"{wall['verify']:7.1f}")
    r_cert = totals["certify"] / totals["check"]
    r_verify = totals["verify"] / totals["certify"]
    say(f"{'total':10} {'':7} {totals['check']:8.1f} {totals['certify']:10.1f} {r_cert:6.2f} {totals['verify']:9.1f} "
        f"{r_verify:6.2f}")
    say(f"verdicts: {', '.join(f'{n} {k}' for k, n in sorted(verdicts.items()))}")
    say(f"proofs: {proofs / 1e6:.2f} MB in all; certificates: {certificates / 1e6:.1f} MB in all")
    for what, ratio, target in (("check --certify / check", r_cert, RATIO_CERTIFY),
                                ("verify / check --certify", r_verify, RATIO_VERIFY)):
        passed = ratio <= target
        ok = ok and passed
        say(f"target {what}: {ratio:.2f} (at most {target:g}) {'PASS' if passed else 'FAIL'}")
    return ok


def settle_and_certify(items, out: Path, timeout: float, say) -> bool:  # type: ignore[no-untyped-def]
    """Each puzzle, clues only: settled, certified, verified, in this process."""
    from satnono.certify import verify
    from satnono.certify.writer import CertifyError, certify
    from satnono.solve import Checker

    ok = True
    say(f"{'puzzle':28} {'size':>6} {'verdict':>18} {'check s':>8} {'certify s':>10} {'verify s':>9} {'proof MB':>9}"
        f" {'cert MB':>8}")
    for item in items:
        p = benchlib.clues_only(item.puzzle)
        checker = Checker()
        t0 = time.process_time()
        res = checker.check(p, timeout)
        t_check = time.process_time() - t0
        verdict = res.status.value + (" (line)" if res.line_solvable else "")
        where = out / item.name.replace("/", "_")
        if verdict == "unknown":
            say(f"{item.name:28} {p.width}x{p.height:<3} {verdict:>18} {t_check:8.2f} {'(not settled: no certificate)':>30}")
            continue
        t0 = time.process_time()
        try:
            cert = certify(p, str(where), result=res, checker=checker)
        except CertifyError as e:
            say(f"  FAIL {item.name}: {e}")
            ok = False
            continue
        t_cert = time.process_time() - t0
        t0 = time.process_time()
        good, message = verify(str(where))
        t_verify = time.process_time() - t0
        if not good:
            say(f"  FAIL {item.name}: {message}")
            ok = False
        say(f"{item.name:28} {p.width}x{p.height:<3} {verdict:>18} {t_check:8.2f} {t_cert:10.2f} {t_verify:9.2f} "
            f"{cert.proof_bytes / 1e6:9.2f} {_size(where) / 1e6:8.2f}")
    return ok


def main(argv: list[str] | None = None) -> int:
    ap = benchlib.parser("certify", __doc__)
    ap.add_argument("parts", nargs="*", metavar="PART", help=f"what to run: {', '.join(PARTS)} (default: all)")
    ap.add_argument("--limit", type=int, default=None, metavar="N",
                    help="tournament: the first N puzzles of each file only (default: all 1,000)")
    ap.add_argument("--timeout", type=float, default=60.0, metavar="S",
                    help="hard, colour36: seconds to settle each puzzle (default 60)")
    ap.add_argument("--block", type=int, default=250, metavar="N",
                    help="tournament: puzzles per process; check and check --certify run on each block in "
                         "turn, so that both see the same machine (default 250)")
    ap.add_argument("--out", default=None, metavar="DIR",
                    help="write the certificates into DIR and keep them (by default they go to a temporary "
                         "directory, and the tournament's are deleted block by block, once counted)")
    benchlib.add_corpus(ap)
    args = ap.parse_args(argv)
    parts = args.parts or list(PARTS)
    if set(parts) - set(PARTS):
        ap.error(f"unknown part {sorted(set(parts) - set(PARTS))[0]!r} (choose from {', '.join(PARTS)})")
    corpus = Path(args.corpus)

    def say(line: str = "") -> None:
        print(line, flush=True)

    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="satnono-certify-"))
    out.mkdir(parents=True, exist_ok=True)
    ok = True
    try:
        if "tournament" in parts:
            say("== tournament: satnono check, check --certify, verify (whole processes, CPU seconds)")
            ok = tournament(corpus, out / "tournament", args.limit, args.block, say, bool(args.out)) and ok
        for part, name in (("hard", "hard"), ("colour36", "colour36")):
            if part in parts:
                say(f"== {part}: clues only, settled within {args.timeout:g} s, certified and verified (CPU seconds)")
                ok = settle_and_certify(benchlib.load_set(name, corpus, None), out / part, args.timeout, say) and ok
    finally:
        if not args.out:
            shutil.rmtree(out, ignore_errors=True)
    say("ALL PASS" if ok else "SOME FAIL")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
