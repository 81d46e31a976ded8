"""Solution counting: brute force, components, exact counters, bounds, CLI."""

from __future__ import annotations

import collections
import itertools
import json
import math
import multiprocessing
import random
import time
from functools import lru_cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from satnono.cli import main
from satnono.lines.segments import line_segments
from satnono.logic.components import split
from satnono.counting import count, dp_count, ganak_count
from satnono.cnf.encode import encode
from satnono.lines import LineSolver
from satnono.model import Puzzle, clues_of_grid, line_clue
from satnono.results import Limits
from satnono.logic.propagate import propagate
from satnono.logic.state import GridState

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


# --------------------------------------------------------------------------
# Oracles independent of satnono's solver


def _placements(clue: tuple[int, ...], n: int) -> list[str]:
    return ["".join(b) for b in itertools.product(".#", repeat=n) if line_clue("".join(b)) == clue]


def brute_count(p: Puzzle) -> int:
    """Solutions by enumerating row placements and checking columns."""
    rows = [_placements(c, p.width) for c in p.rows]
    n = 0
    for combo in itertools.product(*rows):
        if all(line_clue("".join(col)) == clue for col, clue in zip(zip(*combo), p.columns)):
            n += 1
    return n


def random_grid(rng: random.Random, h: int, w: int, density: float) -> list[str]:
    return ["".join("#" if rng.random() < density else "." for _ in range(w)) for _ in range(h)]


def sequences_without_repeats(k: int) -> int:
    """Words with k each of three letters, no letter twice in a row (the 3 x 3k puzzle below)."""

    @lru_cache(None)
    def f(a: int, b: int, c: int, last: int) -> int:
        if a == b == c == 0:
            return 1
        rem = (a, b, c)
        total = 0
        for s in range(3):
            if s != last and rem[s]:
                r = list(rem)
                r[s] -= 1
                total += f(r[0], r[1], r[2], s)
        return total

    return f(k, k, k, -1)


# --------------------------------------------------------------------------
# Brute force


@pytest.mark.parametrize("h,w", [(1, 1), (1, 4), (2, 2), (2, 3), (3, 2), (3, 3), (2, 4), (4, 2),
                                 (3, 4), (4, 3), (4, 4)])
def test_every_clue_set_of_small_grids_counts_like_brute_force(h, w):
    # The number of grids sharing a clue set is that clue set's number of solutions.
    tally: collections.Counter = collections.Counter()
    for bits in itertools.product(".#", repeat=h * w):
        tally[clues_of_grid(tuple("".join(bits[r * w:(r + 1) * w]) for r in range(h)))] += 1
    lines = LineSolver()
    for (rows, cols), solutions in tally.items():
        res = count(Puzzle(rows, cols), line_solver=lines)
        assert res.exact and res.count == solutions, (rows, cols)
        assert res.status == ("unique" if solutions == 1 else "multiple")


def test_random_puzzles_up_to_5x5_count_like_brute_force():
    rng = random.Random(2024)
    lines = LineSolver()
    statuses = collections.Counter()
    for _ in range(400):
        h, w = rng.randint(1, 5), rng.randint(1, 5)
        p = Puzzle.from_grid(random_grid(rng, h, w, rng.uniform(0.2, 0.8)))
        if rng.random() < 0.35:  # perturb one clue: often no solution at all
            rows = list(p.rows)
            rows[rng.randrange(h)] = tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2)))
            p = Puzzle.from_clues(rows, p.columns)
        res = count(p, line_solver=lines)
        expected = brute_count(p)
        assert res.exact and res.count == expected, (p.rows, p.columns)
        statuses[res.status] += 1
        if expected:
            assert res.solution is not None and p.is_solution(res.solution)
    assert statuses["none"] and statuses["multiple"] and statuses["unique"]


def test_exact_counters_agree_with_enumeration():
    rng = random.Random(5)
    lines = LineSolver()
    for i in range(60):
        p = Puzzle.from_grid(random_grid(rng, rng.randint(2, 6), rng.randint(2, 6), 0.5))
        want = count(p, line_solver=lines, enum_cap=10**9).count
        assert count(p, line_solver=lines, enum_cap=1).count == want  # transfer matrix
        if i < 12:  # Ganak: a subprocess each
            res = count(p, line_solver=lines, enum_cap=1, use_dp=False)
            assert res.exact and res.count == want
            state = GridState(p)
            propagate(state, lines)
            if state.unknown_count():
                assert any(c.method == "ganak" for c in res.components) or want <= 1


def test_dp_count_counts_completions_of_a_state():
    rng = random.Random(9)
    lines = LineSolver()
    for _ in range(100):
        p = Puzzle.from_grid(random_grid(rng, rng.randint(1, 5), rng.randint(1, 5), 0.5))
        state = GridState(p)
        if propagate(state, lines) is None:
            assert dp_count(state) == brute_count(p)


# --------------------------------------------------------------------------
# Components


def test_line_segments_cut_only_where_blocks_cannot_cross():
    # clue 1 1 in 5 cells with cell 2 white: each block keeps to its side
    assert line_segments((1, 1), 5, 0, 0b00100, (0b00011, 0b11000)) == [(0, 2, 0, 1), (3, 5, 1, 2)]
    # clue 1 in 5 cells with cell 2 white: the block may be on either side: no cut
    assert line_segments((1,), 5, 0, 0b00100, (0b11011,)) == [(0, 5, 0, 1)]


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 9), st.integers(2, 9), st.floats(0.45, 0.8), st.integers(0, 2**32 - 1))
def test_component_product_equals_undecomposed_count(h, w, density, seed):
    p = Puzzle.from_grid(random_grid(random.Random(seed), h, w, density))
    lines = LineSolver()
    state = GridState(p)
    assert propagate(state, lines) is None
    comps = split(state, lines)
    cells = [c for comp in comps for c in comp.cells]
    assert sorted(cells) == sorted(state.unknown_cells())  # a partition of the unknown cells
    whole = count(p, line_solver=lines, decompose=False, use_dp=False, enum_cap=10**9)
    parts = count(p, line_solver=lines, use_dp=False, enum_cap=10**9)
    assert whole.exact and parts.exact
    product = 1
    for c in parts.components:
        product *= c.count
    assert product == parts.count == whole.count
    assert len(parts.components) == len(comps)


def _puzzle_with_components(k: int) -> Puzzle:
    """A dense random picture whose residue splits into at least k components.

    Dense random pictures leave isolated 2x2 switches (encodings.md §3.4).
    """
    rng = random.Random(3)
    lines = LineSolver()
    for _ in range(200):
        p = Puzzle.from_grid(random_grid(rng, 40, 40, 0.63))
        state = GridState(p)
        propagate(state, lines)
        if len(split(state, lines)) >= k:
            return p
    raise AssertionError(f"no picture with {k} components")


def test_a_puzzle_with_several_components_multiplies():
    p = _puzzle_with_components(3)
    lines = LineSolver()
    res = count(p, line_solver=lines)
    assert res.exact and len(res.components) >= 3
    assert res.count == math.prod(c.count for c in res.components)
    assert res.count == count(p, line_solver=lines, decompose=False).count


# --------------------------------------------------------------------------
# Large counts


@pytest.mark.parametrize("n", range(1, 9))
def test_all_ones_puzzle_has_n_factorial_solutions(n):
    res = count(Puzzle.from_clues([[1]] * n, [[1]] * n))
    assert res.exact and res.count == math.factorial(n)


def test_ten_by_ten_all_ones_is_exact_in_seconds():
    t0 = time.monotonic()
    res = count(Puzzle.from_clues([[1]] * 10, [[1]] * 10), limits=Limits(60))
    assert res.exact and res.count == 3628800 and type(res.count) is int
    assert time.monotonic() - t0 < 15


def test_counts_beyond_10_to_30_are_exact_ints():
    k = 35  # 3 rows of 35 single cells, 105 columns of one cell each
    res = count(Puzzle.from_clues([[1] * k] * 3, [[1]] * (3 * k)), limits=Limits(60))
    want = sequences_without_repeats(k)
    assert want > 10**30
    assert res.exact and type(res.count) is int and res.count == want


# --------------------------------------------------------------------------
# Bounds: --max and timeouts


def test_max_stops_with_a_lower_bound():
    p = Puzzle.from_clues([[1]] * 6, [[1]] * 6)  # 720 solutions
    res = count(p, max_solutions=10)
    assert not res.exact and res.capped and res.count == 10 and res.status == "multiple"
    capped = count(p, max_solutions=720)  # 720 found: no proof that there are no more
    assert capped.count == 720 and not capped.exact and capped.capped
    exact = count(p, max_solutions=721)
    assert exact.exact and exact.count == 720 and not exact.capped
    one = count(p, max_solutions=1)
    assert one.count == 1 and not one.exact and one.status == "unknown"
    assert count(p, max_solutions=1, exact=True).count == 720  # --exact overrides --max


def test_max_with_components_is_a_proven_lower_bound():
    p = _puzzle_with_components(3)
    lines = LineSolver()
    full = count(p, line_solver=lines)
    assert full.count >= 8
    for m in range(1, full.count + 2):
        res = count(p, max_solutions=m, line_solver=lines)
        if res.exact:
            assert res.count == full.count < m
        else:
            assert m <= res.count <= full.count and res.capped


def _hard_puzzle() -> Puzzle:
    # 25x25 at density 0.4: about 9 million solutions; Ganak needs over a minute.
    rng = random.Random(5)
    return Puzzle.from_grid(random_grid(rng, 25, 25, 0.4))


def test_timeout_gives_a_lower_bound_and_kills_ganak():
    t0 = time.monotonic()
    res = count(_hard_puzzle(), limits=Limits(2.0))
    assert time.monotonic() - t0 < 6
    assert not res.exact and not res.capped and res.count >= 1
    assert res.status in ("multiple", "unknown")
    assert not multiprocessing.active_children()


def test_a_deadline_bounds_the_count_as_a_timeout_does():
    p = _hard_puzzle()
    t0 = time.monotonic()
    res = count(p, limits=Limits(deadline=t0 + 2.0))  # a caller's own deadline
    assert time.monotonic() - t0 < 6 and not res.exact and res.count >= 1
    res = count(p, limits=Limits(timeout=600, deadline=time.monotonic() - 1))  # the earlier one ends it
    assert not res.exact
    with pytest.raises(TypeError):
        count(p, timeout=1.0)  # the limits value, as Checker.settle takes it


def test_ganak_count_times_out_and_counts():
    lines = LineSolver()
    state = GridState(_hard_puzzle())
    propagate(state, lines)
    enc = encode(state, lines)
    t0 = time.monotonic()
    assert ganak_count(enc.clauses, enc.unknown_vars, timeout=0.5) is None
    assert time.monotonic() - t0 < 3
    assert not multiprocessing.active_children()
    assert ganak_count([[1, 2, 3]], [1, 2], timeout=30) == 4
    assert ganak_count([[1, 2, 3]], [1, 2, 3], timeout=30) == 7


def test_ganak_on_unsat_input_prints_nothing(capfd):
    assert ganak_count([[1], [-1]], [1], timeout=30) == 0
    out, _ = capfd.readouterr()
    assert out == ""


def test_trivial_verdicts():
    assert count(Puzzle.from_grid(["##", "#."])).count == 1
    line = count(Puzzle.from_grid(["##", "#."]))
    assert line.line_solvable and line.exact and line.status == "unique" and not line.components
    contradiction = count(Puzzle.from_clues([[2], [1]], [[1], [1, 1]]))
    assert contradiction.count == 0 and contradiction.exact and contradiction.status == "none"
    totals = count(Puzzle.from_clues([[1]], [[]]))
    assert totals.count == 0 and totals.exact and "total" in (totals.reason or "")


# --------------------------------------------------------------------------
# CLI


def _write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text)
    return str(path)


ALL_ONES_4 = "width 4\nheight 4\nrows\n1\n1\n1\n1\ncolumns\n1\n1\n1\n1\n"


def test_cli_count_json(tmp_path, capsys):
    f = _write(tmp_path, "p.non", ALL_ONES_4)
    assert main(["count", "--json", f]) == 0
    d = json.loads(capsys.readouterr().out)
    assert d["file"] == f and d["count"] == 24 and d["exact"] is True and "index" not in d
    assert {"seconds", "components", "status"} <= set(d)
    assert d["components"][0]["size"] == 16 and d["components"][0]["count"] == 24


def test_cli_count_multi_puzzle_file_and_max(tmp_path, capsys):
    f = _write(tmp_path, "set.json", json.dumps([
        {"rows": [[1]] * 4, "columns": [[1]] * 4},
        {"rows": [[1], [1]], "columns": [[1], [1]]},
    ]))
    assert main(["count", "--json", "--max", "3", f]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [d["index"] for d in out] == [1, 2]
    assert out[0]["exact"] is False and out[0]["count"] == 3 and out[0]["capped"] is True
    assert out[1]["exact"] is True and out[1]["count"] == 2
    assert main(["count", f + "#2"]) == 0
    assert "2 solutions" in capsys.readouterr().out


def test_cli_count_bad_input(tmp_path, capsys):
    bad = _write(tmp_path, "bad.non", "width 2\nheight 1\nrows\n2\ncolumns\n1\nx\n")
    assert main(["count", bad, str(tmp_path / "missing.non")]) == 6
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    errors = captured.err.strip().splitlines()
    assert len(errors) == 2 and "bad.non:" in errors[0] and "missing.non" in errors[1]


def test_cli_count_timeout_exit_code(capsys, tmp_path):
    p = _hard_puzzle()
    rows = "\n".join(" ".join(map(str, r)) or "0" for r in p.rows)
    cols = "\n".join(" ".join(map(str, c)) or "0" for c in p.columns)
    f = _write(tmp_path, "hard.non", f"width 25\nheight 25\nrows\n{rows}\ncolumns\n{cols}\n")
    assert main(["count", "--json", "--timeout", "1", f]) == 5
    d = json.loads(capsys.readouterr().out)
    assert d["exact"] is False and d["capped"] is False and d["count"] >= 1


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
def test_corpus_counts():
    f = CORPUS / "jwilk-nonogram" / "data" / "data084.nin"
    from satnono.formats import load

    res = count(load(str(f)))
    assert res.exact and res.count == 12
