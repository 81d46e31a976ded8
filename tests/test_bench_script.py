"""The benchmark script runs end to end on a tiny set and writes the promised CSV."""

from __future__ import annotations

import csv
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "bench.py"

EXPECTED_COLUMNS = {
    "set", "puzzle", "height", "width", "status", "line_solvable", "unknown_after_propagation",
    "cnf_vars", "cnf_clauses", "sat_calls", "conflicts", "cpu_s", "wall_s", "maxrss_mb",
    "ref_status", "ref_cpu_s", "ref_wall_s", "ref_maxrss_mb", "speedup", "agree", "problems", "reason",
}


def test_bench_dom_limit_3(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "bench.csv"
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "dom", "--limit", "3", "--no-reference", "--no-startup",
         "--quiet", "--corpus", str(corpus), "--csv", str(out)],
        capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    with out.open(newline="") as f:
        reader = csv.DictReader(f)
        assert set(reader.fieldnames or ()) == EXPECTED_COLUMNS
        rows = list(reader)
    assert [r["puzzle"] for r in rows] == [f"webpbn-survey/dom/{n}-dom.xml" for n in (3, 4, 5)]
    for r in rows:
        assert r["set"] == "dom"
        assert r["status"] == "unique"
        assert r["problems"] == ""
        assert float(r["cpu_s"]) >= 0 and float(r["wall_s"]) >= 0
        assert r["ref_status"] == ""
    assert "== targets (issues 5 and 10)" in proc.stdout
    assert "n-Dom 3..12 total CPU" in proc.stdout


def test_cpsat_reference_verdicts() -> None:
    pytest.importorskip("ortools")
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import cpsat_ref
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    # unique: a 2x3 picture
    r = cpsat_ref.check([(2,), (1, 1)], [(2,), (1,), (1,)], time_limit=10)
    assert r.status == "unique" and r.solutions == (("##.", "#.#"),)
    # multiple: the diagonal pair
    r = cpsat_ref.check([(1,), (1,)], [(1,), (1,)], time_limit=10)
    assert r.status == "multiple" and set(r.solutions) == {("#.", ".#"), (".#", "#.")}
    # none, and empty lines
    assert cpsat_ref.check([(2,), ()], [(1,), ()], time_limit=10).status == "none"
    assert cpsat_ref.check([(), ()], [(), ()], time_limit=10).status == "unique"


def test_bench_verify_flags_wrong_verdicts() -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("satnono_bench", SCRIPT)
    bench = importlib.util.module_from_spec(spec)
    sys.modules["satnono_bench"] = bench  # dataclasses look their module up
    try:
        spec.loader.exec_module(bench)  # type: ignore[union-attr]
    finally:
        del sys.modules["satnono_bench"]
    from satnono.model import Puzzle

    assert [bench.bound_mark(r, u) for r, u in ((0, 0), (2, 0), (0, 1), (3, 4))] == ["", ">", "<", "?"]
    p = Puzzle.from_clues([(1,), (1,)], [(1,), (1,)])
    a, b = ("#.", ".#"), (".#", "#.")
    item = bench.Item("t", p, published=a, expect_published=True)
    assert bench.verify(item, "multiple", (a, b), "x") == []
    assert bench.verify(item, "unique", (a,), "x") == []
    assert any("differs from the published" in m for m in bench.verify(item, "unique", (b,), "x"))
    assert any("'none'" in m for m in bench.verify(item, "none", (), "x"))
    assert any("does not satisfy" in m for m in bench.verify(item, "multiple", (a, ("##", "..")), "x"))
    assert any("identical" in m for m in bench.verify(item, "multiple", (a, a), "x"))
    bad = bench.Item("t", p, published=("##", ".."), expect_published=True)
    assert any("published solution does not satisfy" in m for m in bench.verify(bad, "multiple", (a, b), "x"))
    assert any("no published" in m for m in bench.verify(bench.Item("t", p, expect_published=True), "multiple", (a, b), "x"))
    assert any("expected unique" in m for m in bench.verify(bench.Item("t", p, expect_unique=True), "multiple", (a, b), "x"))


def _load_script(name: str):
    """A module of scripts/ by file (bench.py puts scripts/ on sys.path for its own modules)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location(f"satnono_{name}", ROOT / "scripts" / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses look their module up
    try:
        spec.loader.exec_module(mod)  # type: ignore[union-attr]
    finally:
        del sys.modules[spec.name]
    return mod


def _runs(line: str) -> tuple[int, ...]:
    return tuple(len(run) for run in line.split(".") if run)


def _brute(rows, columns, givens=()):
    """Every grid whose rows and columns have the clues (and that keeps the givens), by
    enumerating each row's 2^w patterns and every combination of them."""
    import itertools

    h, w = len(rows), len(columns)
    patterns = ["".join(bits) for bits in itertools.product(".#", repeat=w)]
    per_row = [[p for p in patterns if _runs(p) == tuple(rows[r])
                and all(p[c] == ".#"[v] for rr, c, v in givens if rr == r)] for r in range(h)]
    return [g for g in itertools.product(*per_row)
            if all(_runs("".join(g[r][c] for r in range(h))) == tuple(columns[c]) for c in range(w))]


def test_order_probe_against_brute_force() -> None:
    """The plain order-encoding probe settles small random puzzles as brute force does: the
    verdict from the solution count capped at 2, and every solution it reports is one of them."""
    import random

    probe = _load_script("bench_issue19")
    rng = random.Random(19)
    seen = {"unique": 0, "multiple": 0, "none": 0}
    for _ in range(400):
        h, w = rng.choice((1, 2, 3, 4, 4, 4)), rng.choice((1, 2, 3, 4, 4, 4))
        d = rng.random()
        grid = ["".join("#" if rng.random() < d else "." for _ in range(w)) for _ in range(h)]
        rows = [_runs(r) for r in grid]
        other = grid if rng.random() < 0.6 else [
            "".join("#" if rng.random() < d else "." for _ in range(w)) for _ in range(h)]
        columns = [_runs("".join(other[r][c] for r in range(h))) for c in range(w)]
        givens = []
        if rng.random() < 0.2:
            r, c = rng.randrange(h), rng.randrange(w)
            givens.append((r, c, int(grid[r][c] == "#") if rng.random() < 0.8 else rng.randint(0, 1)))
        truth = _brute(rows, columns, givens)
        status, sols = probe.probe_settle(rows, columns, givens)
        assert status == ("none", "unique", "multiple")[min(len(truth), 2)], (rows, columns, givens, truth)
        assert len(sols) == min(len(truth), 2) and len(set(sols)) == len(sols)
        assert all(s in truth for s in sols), (rows, columns, sols)
        seen[status] += 1
    assert min(seen.values()) >= 20, seen  # every verdict drawn often enough to mean something
    # clues that do not fit their line: 'none' without a solver call
    assert probe.probe_settle([(3,)], [(1,), (1,)]) == ("none", [])
