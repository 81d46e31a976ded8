"""``bench.py triddler`` (issue 39): random triddlers, satnono against an in-run CP-SAT model.

The quick run ends with its table and identical verdicts; the CP-SAT model's lane automaton
accepts exactly the lanes with the clue's blocks; a verdict that differs is printed loudly and
makes the exit status 1.
"""

from __future__ import annotations

import importlib
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ortools")

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "bench.py"


def _module():
    if str(ROOT / "scripts") not in sys.path:
        sys.path.insert(0, str(ROOT / "scripts"))
    return importlib.import_module("benchmarks.triddler")


def _table(text: str) -> dict[str, list[str]]:
    """The table's rows by their first word (a side, or ``all``)."""
    rows = {}
    for line in text.splitlines():
        m = re.match(r"^\s*(\d+|all)\s+(.*\|.*\|.*\|.*)$", line)
        if m:
            rows[m.group(1)] = line.replace("|", " ").split()
    return rows


def test_quick_run_prints_the_table_with_identical_verdicts() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "triddler", "--quick"],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "side cells puzzles unique multi none unkn search same" in out
    assert "!!!" not in out
    rows = _table(out)
    assert set(rows) == {"4", "5", "all"}
    for side, cells in (("4", 96), ("5", 150)):
        r = rows[side]
        assert int(r[1]) == cells and int(r[2]) == 4  # 3 drawn + 1 altered
        assert sum(map(int, r[3:7])) == 4  # unique + multiple + none + unknown
        assert r[8] == "4"  # same verdicts
    total = rows["all"]  # "all", puzzles, unique, multiple, none, unknown, search, same, ...
    assert total[1] == "8" and total[7] == "8" and total[5] == "0"
    assert int(total[3]) >= 1 and int(total[4]) >= 1 and int(total[6]) >= 1  # multiple, none, search seen
    assert "verdicts: 8 of 8 identical" in out
    assert "solutions checked against every lane's clue: all hold" in out
    assert re.search(r"ratio CP-SAT total / satnono total: .* = [\d.]+x; target: satnono >= 5x faster", out)
    assert "default workers" in out and "hardest for satnono:" in out and "hardest for CP-SAT:" in out


def test_help_says_what_it_measures() -> None:
    proc = subprocess.run([sys.executable, str(SCRIPT), "triddler", "--help"], capture_output=True, text=True,
                          timeout=60)
    assert proc.returncode == 0
    assert "bench.py triddler" in proc.stdout and "5x faster" in proc.stdout and "--cpsat-workers" in proc.stdout
    listing = subprocess.run([sys.executable, str(SCRIPT), "--help"], capture_output=True, text=True, timeout=60)
    assert re.search(r"^\s+triddler\s+random triddlers", listing.stdout, re.M)


def _blocks(values: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    lengths: list[int] = []
    colours: list[int] = []
    prev = 0
    for v in values:
        if v and v == prev:
            lengths[-1] += 1
        elif v:
            lengths.append(1)
            colours.append(v)
        prev = v
    return tuple(lengths), tuple(colours)


def _accepts(dfa, values) -> bool:
    triples, finals = dfa
    step = {(s, v): t for s, v, t in triples}
    state = 0
    for v in values:
        if (state, v) not in step:
            return False
        state = step[(state, v)]
    return state in finals


@pytest.mark.parametrize("k,n", [(1, 7), (2, 5), (3, 4)])
def test_lane_automaton_accepts_exactly_the_clue(k: int, n: int) -> None:
    tri = _module()
    lanes = [v for m in range(n + 1) for v in itertools.product(range(k + 1), repeat=m)]
    clues = sorted({_blocks(v) for v in lanes})
    for lengths, colours in clues:
        dfa = tri.lane_automaton(lengths, colours)
        for v in lanes:
            assert _accepts(dfa, v) == (_blocks(v) == (lengths, colours)), (lengths, colours, v)


def test_cpsat_reference_on_small_triddlers() -> None:
    tri = _module()
    from satnono.lanecheck import settle_lanes

    seen = set()
    for k in (1, 2, 3):
        for case in tri.draw(2, 6, 2, 7, k, (0.3, 0.5, 0.7)):
            ref = tri.cpsat_settle(case.puzzle, 30.0, 1)
            mine = settle_lanes(case.puzzle)
            assert ref.status == str(mine.status), case.name
            assert all(case.puzzle.breaks(s) is None for s in ref.solutions)
            assert tri.problems(case, ref.status, ref.solutions, "CP-SAT") == []
            seen.add(ref.status)
    assert {"unique", "none"} <= seen


def test_a_differing_verdict_is_loud_and_fails(monkeypatch: pytest.MonkeyPatch, capsys) -> None:
    tri = _module()
    real = tri.cpsat_settle
    flip = {"unique": "multiple", "multiple": "unique", "none": "unique", "unknown": "none"}

    def wrong(puzzle, timeout, workers):
        r = real(puzzle, timeout, workers)
        return tri.RefResult(flip[r.status], r.solutions)

    monkeypatch.setattr(tri, "cpsat_settle", wrong)
    assert tri.main(["--quick", "--sides", "4", "--hardest", "0"]) == 1
    out = capsys.readouterr().out
    assert "!!! hex4-" in out and "verdicts contradict" in out and "DIFFER" in out and "FAIL" in out
