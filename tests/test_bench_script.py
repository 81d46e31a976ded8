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
    bench = _load_script("benchmarks.sets")
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
    """A module of scripts/ by its import name there, e.g. ``benchmarks.sets`` (bench.py puts
    scripts/ on sys.path for its sub-commands, and so does this)."""
    import importlib

    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    return importlib.import_module(name)


def _brute(rows, columns, givens=()):
    """Every grid with these clues that keeps the givens: the shared brute-force oracle, filtered."""
    from _oracles import brute_force_solutions

    from satnono.model import Puzzle

    grids = brute_force_solutions(Puzzle.from_clues(rows, columns))
    return [g for g in grids if all(g[r][c] == ".#"[v] for r, c, v in givens)]


def test_order_probe_against_brute_force() -> None:
    """The plain order-encoding probe settles small random puzzles as brute force does: the
    verdict from the solution count capped at 2, and every solution it reports is one of them."""
    import random

    from satnono.model import line_clue as _runs

    probe = _load_script("benchmarks.issue19")
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


def test_issue19_targets_table(monkeypatch) -> None:
    """The issue-19 table on fabricated rows: a row passes, fails, or is 'not run' when its
    sets were not run (or the tournament files were cut by --limit); the editor is only named."""
    bench = _load_script("benchmarks.sets")
    monkeypatch.setattr(bench, "TOURNAMENT_PUZZLES", 9)  # three fabricated files of 3 puzzles
    from satnono.model import Puzzle

    p = Puzzle.from_clues([(1,)], [(1,)])

    def rows(name: str, n: int, cpu: float, status: str = "unique") -> list:
        return [bench.Row(name, bench.Item(f"{name}#{k}", p), status=status, cpu=cpu) for k in range(1, n + 1)]

    def by_label(ts: list) -> dict:
        return {t.label: t for t in ts}

    def verdicts(ts: list) -> dict:
        lines: list[str] = []
        bench.print_targets(ts, lines.append, "issue 19")
        assert lines[0] == "\n== targets (issue 19)"
        assert len(lines) == len(ts) + 2
        start = 3 + 52 + 1 + 11 + 1 + 9 + 1 + 7 + 2  # label, figure, limit, ratio columns
        for t, line in zip(ts, lines[2:]):
            assert line[3:3 + len(t.label)] == t.label
        return {t.label: line[start:].split("  (")[0] for t, line in zip(ts, lines[2:])}

    none = bench.targets19({})
    v = verdicts(none)
    assert v.pop("editor") == "see bench.py editor"
    assert set(v.values()) == {"not run"}
    assert all(t.figure is None and t.passed is None for t in none if t.label != "editor")

    fast = {"taai2011": rows("taai2011", 3, 0.5), "icga2017": rows("icga2017", 3, 0.5),
            "icga2020": rows("icga2020", 3, 0.5), "cauldron": rows("cauldron", 1, 0.05),
            "colour36": [*rows("colour36", 2, 3.0, "multiple"), *rows("colour36", 1, 9.0, "multiple")]}
    deadline = bench.DeadlineSummary(puzzles=2, same=2, cpu_plain=4.0, cpu_timed=4.2,
                                     worst_plain=rows("deadline", 1, 3.0)[0], near_ratio=1.05)
    probe = bench.issue19.ProbeResult(puzzles=10, probe_cpu=10.0, satnono_cpu=2.0)
    startup = "start-up: `check` 1x1 / `python -c pass` (CPU)"
    editable = by_label(bench.targets19(fast, startup_cpu={"python": 0.02, "satnono": 0.03, "ratio": 1.5,
                                                           "editable": 1.0}))[startup]
    assert "an editable install" in editable.note and editable.passed
    ts = by_label(bench.targets19(fast, startup_cpu={"python": 0.02, "satnono": 0.03, "ratio": 1.5},
                                  json_cpu={"json": 1.0, "plain": 1.0, "ratio": 1.0}, deadline=deadline,
                                  pick=(1.0, 1.0), probe=probe, mix_note="m"))
    ok = {label for label, t in ts.items() if t.passed}
    assert ok == set(ts) - {"Knotty settled (CPU)", "Faase settled (CPU)", "editor"}, ts
    assert ts["tournament 3000 puzzles total CPU"].figure == 4.5
    assert ts["mix: satnono CPU / plain order-encoding probe CPU"].figure == 0.2
    assert ts["deadline set: worst puzzle, no time limit (CPU)"].figure == 3.0
    assert ts["colour36 (36x40, 2 colours, 47 %): worst (CPU)"].figure == 9.0
    assert "an editable install" not in ts[startup].note
    assert "3 of 3 settled within 10 s, median 3.00 s" in ts["colour36 (36x40, 2 colours, 47 %): worst (CPU)"].note

    slow = {**fast, "icga2020": [*rows("icga2020", 2, 0.5), *rows("icga2020", 1, 2.5)],
            "cauldron": rows("cauldron", 1, 0.2), "hard": [bench.Row("hard", bench.Item("knotty.xml", p),
                                                                       status="unique", cpu=61.0)],
            # an unsettled picture is the worst, whatever its time
            "colour36": [*rows("colour36", 1, 12.0, "multiple"), *rows("colour36", 1, 5.0, "unknown")]}
    bad = bench.DeadlineSummary(puzzles=2, same=1, cpu_plain=4.0, cpu_timed=4.0,
                                worst_plain=rows("deadline", 1, 11.0)[0], near_ratio=None)
    wrong = bench.issue19.ProbeResult(puzzles=10, probe_cpu=10.0, satnono_cpu=2.0,
                                            problems=[("x", "verdicts disagree")])
    ts = by_label(bench.targets19(slow, startup_cpu={"python": 0.02, "satnono": 0.05, "ratio": 2.5},
                                  json_cpu={"json": 1.1, "plain": 1.0, "ratio": 1.1}, deadline=bad,
                                  pick=(1.3, 1.0), probe=wrong))
    failed = {label for label, t in ts.items() if t.passed is False}
    assert failed == {
        "start-up: `check` 1x1 / `python -c pass` (CPU)", "`check --json` / `check`, 100 puzzles (CPU)",
        "--timeout 200: puzzles where it changes anything", "tournament max single puzzle CPU",
        "mix: satnono CPU / plain order-encoding probe CPU",  # 0.2x, but a disagreement
        "cauldron 512x512 CPU", "`check F#1 ... F#50` / 50 files (wall)", "Knotty settled (CPU)",
        "deadline set: worst puzzle, no time limit (CPU)", "colour36 (36x40, 2 colours, 47 %): worst (CPU)"}, failed
    assert ts["colour36 (36x40, 2 colours, 47 %): worst (CPU)"].figure == 5.0
    # an unsettled draw counts as slower than any settled one in the median
    assert "0 of 2 settled within 10 s, median unsettled" in ts["colour36 (36x40, 2 colours, 47 %): worst (CPU)"].note
    assert ts["tournament 3000 puzzles total CPU"].passed  # 6.5 s: within 100 s
    assert ts["Faase settled (CPU)"].passed is None  # not among the hard rows
    assert "DISAGREEMENTS" in ts["mix: satnono CPU / plain order-encoding probe CPU"].note
    v = verdicts(list(ts.values()))
    assert v["Knotty settled (CPU)"] == "FAIL" and v["Faase settled (CPU)"] == "not run"
    assert v["tournament 3000 puzzles total CPU"] == "PASS"
    # an unsettled tournament puzzle fails the total, however fast
    uns = {**fast, "icga2017": rows("icga2017", 3, 0.1, status="unknown")}
    assert by_label(bench.targets19(uns))["tournament 3000 puzzles total CPU"].passed is False
    # files cut short (--limit): the tournament targets are not run, however fast
    cut = by_label(bench.targets19({**fast, "icga2017": rows("icga2017", 2, 0.1)}))
    for label in ("tournament 3000 puzzles total CPU", "tournament max single puzzle CPU"):
        assert cut[label].passed is None and cut[label].figure is None and "whole files" in cut[label].note


def test_issue19_mix_entries() -> None:
    """The mix: survey, dom and random whole, each tournament file cut to its first 100."""
    bench = _load_script("benchmarks.sets")
    from satnono.model import Puzzle

    p = Puzzle.from_clues([(1,)], [(1,)])
    results = {name: [bench.Row(name, bench.Item(f"{name}#{k}", p)) for k in range(n)]
               for name, n in (("survey", 5), ("dom", 2), ("icga2017", 150), ("random", 40), ("cauldron", 1))}
    rows, note = bench.mix_entries(results)
    assert len(rows) == 5 + 2 + 100 + 40
    assert [r.item.name for r in rows[7:9]] == ["icga2017#0", "icga2017#1"]
    assert note == "survey 5, dom 2, icga2017 100, random 40; not run: taai2011, icga2020"


def test_bench_feeder_runs_the_three_ways(corpus: Path) -> None:
    """bench.py feeder settles each puzzle with the compiled feeder from the flat form and
    from lists, and through python-sat's binding, and demands the same results (exit 2 where the
    feeder is missing)."""
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "feeder", "dom", "--limit", "6", "--corpus", str(corpus)],
        capture_output=True, text=True, timeout=120,
    )
    if proc.returncode == 2:
        pytest.skip("no compiled clause feeder here: " + proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "the same verdicts, solutions, clauses and conflicts all three ways" in proc.stdout
    row = next(line.split() for line in proc.stdout.splitlines() if line.startswith("dom "))
    assert row[1] == "6" and all(float(x) > 0 for x in row[2:5])


def test_bench_beliefs_replays_recorded_hints(corpus: Path) -> None:
    """bench.py beliefs records the hints of real settles, checks them against the Python
    reference and replays them (exit 2 where the compiled module is not built)."""
    proc = subprocess.run(
        [sys.executable, str(SCRIPT), "beliefs", "taai2011:6", "--rounds", "1",
         "--corpus", str(corpus)],
        capture_output=True, text=True, timeout=120,
    )
    if proc.returncode == 2:
        pytest.skip("no compiled belief propagation here: " + proc.stdout.strip())
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if "no settle of these sets needed the hints" not in proc.stdout:
        assert "calls against the Python reference: identical" in proc.stdout
        assert "this tree: best of 1" in proc.stdout


def test_probe_pairs_satnono_with_each_puzzle() -> None:
    """With ``resettle``, satnono settles the puzzles again next to the probe's runs of them, in
    blocks (satnono first on even blocks, after the probe on odd ones), the ratio is of those
    paired figures, and a verdict that changed between runs is a problem; colour puzzles are
    skipped on both sides."""
    probe = _load_script("benchmarks.issue19")
    from satnono.model import Puzzle

    plain = [Puzzle.from_grid(g) for g in (["#.", ".#"], ["##", "#."], ["#"])]
    entries = [(f"p{i}", p, ("multiple", "unique", "unique")[i], 5.0) for i, p in enumerate(plain)]
    entries.insert(1, ("colour", Puzzle.from_grid(["ab", "b."]), "unique", 9.0))  # not for this probe
    calls: list[str] = []
    real_settle = probe.probe_settle

    def settle(*a, **k):
        calls.append("probe")
        return real_settle(*a, **k)

    def resettle(name, puzzle):
        calls.append(name)
        return ("unique" if name != "p0" else "multiple"), 0.25 if name != "p2" else 0.5

    probe.probe_settle, block = settle, probe.PAIR_BLOCK
    probe.PAIR_BLOCK = 2
    try:
        res = probe.run_probe(entries, resettle)
    finally:
        probe.probe_settle, probe.PAIR_BLOCK = real_settle, block
    assert calls == ["p0", "p1", "probe", "probe", "probe", "p2"]
    assert res.puzzles == 3 and res.skipped == 1 and res.satnono_cpu == 15.0 and res.paired_cpu == 1.0
    assert res.ratio == res.paired_cpu / res.probe_cpu
    assert not res.problems
    assert probe.run_probe(entries).paired_cpu is None  # unpaired: the main run's figure

    changed = probe.run_probe(entries, lambda name, p: ("none", 0.1))
    assert {n for n, _ in changed.problems} == {"p0", "p1", "p2"}
    assert all("changed between runs" in m for _, m in changed.problems)
    assert not probe.run_probe(entries, lambda name, p: ("unknown", 0.1)).problems  # a time limit ran out


def test_colour36_draws_are_counted_by_the_option() -> None:
    lib = _load_script("benchlib")
    items = lib.load_set("colour36", lib.DEFAULT_CORPUS, None)
    assert len(items) == lib.COLOUR36_COUNT
    more = lib.load_set("colour36", lib.DEFAULT_CORPUS, None, colour36_count=lib.COLOUR36_COUNT + 3)
    assert [it.name for it in more[:lib.COLOUR36_COUNT]] == [it.name for it in items]  # seeds 0, 1, ... as before
    assert [it.name.rsplit("#", 1)[1] for it in more[-3:]] == [str(lib.COLOUR36_COUNT + k) for k in range(3)]
    assert all((it.puzzle.height, it.puzzle.width) == (36, 40) for it in more)
    # no draws is a mistake, not an empty set that reads "not run"; the sets sub-command named or not
    for args in (["colour36", "--colour36-count", "0"], ["sets", "colour36", "--colour36-count", "-2"]):
        proc = subprocess.run([sys.executable, str(SCRIPT), *args, "--no-startup"],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and "--colour36-count must be at least 1" in proc.stderr, proc.stderr
        assert "usage: bench.py sets" in proc.stderr


def test_an_editable_install_is_recognised(tmp_path: Path) -> None:
    issue19 = _load_script("benchmarks.issue19")
    assert not issue19.has_editable_pth(tmp_path)
    (tmp_path / "__editable__.other-1.0.pth").write_text("")
    assert not issue19.has_editable_pth(tmp_path)  # another project's
    (tmp_path / "__editable__.satnono-0.1.0.pth").write_text("")
    assert issue19.has_editable_pth(tmp_path)
    assert isinstance(issue19.editable_install(sys.executable), bool)


def test_every_sub_command_says_what_it_measures(capsys) -> None:
    """bench.py --help lists every sub-command on a line of its own, and each sub-command's --help
    reads as ``bench.py NAME`` and carries its module's whole description."""
    import importlib

    bench = _load_script("bench")
    lib = _load_script("benchlib")
    # a first word that names a set runs `sets`: no sub-command may take a set's name
    assert not set(bench.COMMANDS) & {*lib.ALL_SETS, *lib.ALIASES, "help"}
    assert bench.main(["--help"]) == 0
    listing = capsys.readouterr().out
    for name, command in bench.COMMANDS.items():
        assert sum(line.startswith(f"  {name} ") for line in listing.splitlines()) == 1, name
        assert command.summary in listing
        with pytest.raises(SystemExit) as stop:
            bench.main([name, "--help"])
        assert stop.value.code == 0
        out = capsys.readouterr().out
        assert out.startswith(f"usage: bench.py {name}"), out[:200]
        doc = importlib.import_module(command.target.partition(":")[0]).__doc__
        assert doc and len(doc.strip().splitlines()) >= 5 and doc.strip().splitlines()[0] in out, name
    with pytest.raises(SystemExit):  # bench.py help NAME is NAME --help
        bench.main(["help", "limits"])
    assert capsys.readouterr().out.startswith("usage: bench.py limits")


def test_an_unknown_word_points_to_the_sub_commands() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "no-such-thing", "--no-startup"],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert "unknown set(s) no-such-thing" in proc.stderr and "bench.py --help" in proc.stderr, proc.stderr
