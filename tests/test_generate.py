"""Puzzle generation: every accepted puzzle meets its requirement and density band,
checked by oracles written here from brute-force enumeration (independent of
satnono's solvers); determinism across workers; the vectorised engine against
the core; the CLI."""

from __future__ import annotations

import itertools
import json
import os
from functools import lru_cache

import numpy as np
import pytest
from click.testing import CliRunner

import satnono
from satnono.cli import cli, main
from satnono.formats import load
from satnono.errors import UnsupportedOperation
from satnono.generation import GenerateSpec, GridCanvas, decide, draw, generate
from satnono.lines.switches import find_switch
from satnono.lines.vector import (
    MAX_FAST_SIDE,
    clue_arrays,
    grid_of,
    handles,
    pack,
    propagate_many,
    solve_lines,
    supports,
)
from satnono.lines import solve_line
from satnono.model import Puzzle, default_palette
from satnono.logic.propagate import propagate
from satnono.logic.state import GridState
from satnono.lines import LineSolver


# ---------------------------------------------------------------------------
# independent oracles (brute force over line placements)


def clue_of(cells: str) -> tuple[int, ...]:
    out, run = [], 0
    for ch in cells:
        if ch == "#":
            run += 1
        elif run:
            out.append(run)
            run = 0
    if run:
        out.append(run)
    return tuple(out)


@lru_cache(maxsize=None)
def placements(clue: tuple[int, ...], n: int) -> tuple[str, ...]:
    return tuple("".join(bits) for bits in itertools.product(".#", repeat=n) if clue_of("".join(bits)) == clue)


def count_solutions(rows, cols, givens=None, limit=2) -> int:
    """Solutions by depth-first search over row placements, pruned by column prefixes."""
    h, w = len(rows), len(cols)
    givens = givens or {}
    prefixes = [set() for _ in range(w)]
    for c in range(w):
        for pl in placements(tuple(cols[c]), h):
            for k in range(h + 1):
                prefixes[c].add(pl[:k])
    opts = []
    for r in range(h):
        opts.append([pl for pl in placements(tuple(rows[r]), w)
                     if all((pl[c] == "#") == b for (rr, c), b in givens.items() if rr == r)])
    found = 0
    cols_so_far = [""] * w

    def dfs(r: int) -> bool:
        nonlocal found
        if r == h:
            found += 1
            return found >= limit
        for pl in opts[r]:
            new = [cols_so_far[c] + pl[c] for c in range(w)]
            if all(new[c] in prefixes[c] for c in range(w)):
                saved = cols_so_far[:]
                cols_so_far[:] = new
                if dfs(r + 1):
                    return True
                cols_so_far[:] = saved
        return False

    dfs(0)
    return found


def line_logic(rows, cols, givens=None) -> list[list[str | None]]:
    """The fixpoint of complete line logic, from brute-force line enumeration: '#', '.' or None."""
    h, w = len(rows), len(cols)
    grid: list[list[str | None]] = [[None] * w for _ in range(h)]
    for (r, c), b in (givens or {}).items():
        grid[r][c] = "#" if b else "."
    changed = True
    while changed:
        changed = False
        for axis in (0, 1):
            for i in range(h if axis == 0 else w):
                n = w if axis == 0 else h
                known = [grid[i][j] if axis == 0 else grid[j][i] for j in range(n)]
                clue = tuple((rows if axis == 0 else cols)[i])
                fits = [pl for pl in placements(clue, n) if all(k is None or k == x for k, x in zip(known, pl))]
                assert fits, "line logic met a contradiction on a goal's own clues"
                for j in range(n):
                    if known[j] is None and len({pl[j] for pl in fits}) == 1:
                        if axis == 0:
                            grid[i][j] = fits[0][j]
                        else:
                            grid[j][i] = fits[0][j]
                        changed = True
    return grid


def line_solvable(rows, cols, givens=None) -> bool:
    return all(x is not None for row in line_logic(rows, cols, givens) for x in row)


def open_cells(rows, cols) -> int:
    return sum(x is None for row in line_logic(rows, cols) for x in row)


def clues(goal):
    return [clue_of(r) for r in goal], [clue_of("".join(c)) for c in zip(*goal)]


def meets(require: str, goal, min_open: int = 0) -> bool:
    rows, cols = clues(goal)
    if require == "any":
        return True
    if require == "line":
        return line_solvable(rows, cols)
    unique = count_solutions(rows, cols) == 1
    if require == "unique":
        return unique
    return unique and not line_solvable(rows, cols) and open_cells(rows, cols) >= min_open


def in_band(goal, lo, hi) -> bool:
    cells = len(goal) * len(goal[0])
    black = sum(r.count("#") for r in goal)
    return lo * cells - 1e-9 <= black <= hi * cells + 1e-9


def index_of(p: Puzzle) -> int:
    return int(p.name.rsplit("-", 1)[1])


# ---------------------------------------------------------------------------
# every accepted puzzle meets its requirement; every rejected one fails it


CASES = [
    (4, 4, "line", (0.2, 0.7), "noise", 0),
    (5, 5, "unique", (0.2, 0.7), "noise", 0),
    (6, 5, "unique", (0.3, 0.6), "smooth", 0),
    (5, 6, "search", (0.2, 0.7), "noise", 0),
    (6, 6, "search", (0.3, 0.7), "smooth", 2),
    (6, 6, "line", (0.4, 0.6), "smooth", 0),
    (5, 4, "any", (0.5, 0.6), "noise", 0),
]


@pytest.mark.parametrize("w,h,require,band,style,min_open", CASES)
def test_accepted_exactly_the_candidates_that_qualify(w, h, require, band, style, min_open):
    n = 400 if require == "search" else 120
    gen = generate(w, h, count=10 ** 6, seed=7, density=band, require=require, style=style, min_open=min_open,
                   max_candidates=n)
    got = {index_of(p): p for p in gen}
    assert gen.exhausted and gen.stats.tried == n
    for i in range(n):
        goal = grid_of(draw(gen.spec, i))
        expected = in_band(goal, *band) and meets(require, goal, min_open)
        assert (i in got) == expected, (i, goal)
        if i in got:
            p = got[i]
            assert p.goal == goal
            assert (list(p.rows), list(p.columns)) == clues(goal)
            assert p.name == f"gen-{w}x{h}-7-{i}"
    st = gen.stats
    assert st.tried == st.rejected_density + st.rejected_class + st.accepted
    assert st.accepted == len(got)


# per kind: the generate() arguments and how many puzzles they give
KIND_RUNS = {
    "bw": dict(width=6, height=6, count=6, seed=11, density=(0.35, 0.65)),
    "color": dict(width=10, height=8, count=3, seed=5, colors=2, density=(0.3, 0.7), max_candidates=5000),
}


@pytest.mark.parametrize("require", ["line", "unique", "search"])
@pytest.mark.parametrize("kind,style", [("bw", "noise"), ("color", "noise"), ("color", "smooth")])
def test_generated_puzzles_meet_requirement_and_band(kind, style, require):
    """Every accepted puzzle has its density band and its requirement: checked by the brute-force
    oracles above in black and white, by the solver in both kinds."""
    kw = KIND_RUNS[kind]
    band = kw["density"]
    ps = list(generate(**kw, require=require, style=style))
    assert len(ps) == kw["count"]
    for p in ps:
        assert p.is_color == (kind == "color")
        if kind == "color":
            assert p.palette == default_palette(2)
        cells = p.width * p.height
        filled = sum(ch != "." for row in p.goal for ch in row)
        assert band[0] * cells - 1e-9 <= filled <= band[1] * cells + 1e-9
        r = satnono.check(p)
        assert r.status.value == "unique" and r.solutions[0] == p.goal
        if require == "line":
            assert r.line_solvable
        if require == "search":
            assert not r.line_solvable
        if kind == "bw":
            assert in_band(p.goal, *band)
            assert meets(require, p.goal)
            if require != "unique":
                assert p.metadata["class"] == require


def test_larger_puzzles_checked_by_core_and_brute_line_logic():
    checker = satnono.Checker()
    for p in generate(12, 10, count=4, seed=3, require="search", min_open=4):
        r = checker.check(p)
        assert r.status.value == "unique" and not r.line_solvable
        assert r.stats.unknown_after_propagation >= 4
        assert not line_solvable(p.rows, p.columns)
    for p in generate(15, 15, count=4, seed=3, require="line", style="smooth"):
        assert line_solvable(p.rows, p.columns)


def test_stats_and_classes():
    gen = generate(8, 8, count=5, seed=2, require="unique")
    ps = list(gen)
    st = gen.stats
    assert st.accepted == 5 == len(ps)
    assert st.tried == st.rejected_density + st.rejected_class + st.accepted
    assert 0 < st.acceptance_rate <= 1
    assert st.seconds_per_accepted is not None and st.seconds_per_accepted >= 0
    assert sum(st.classes.values()) == 5
    d = st.as_dict()
    assert {"tried", "rejected_density", "rejected_class", "acceptance_rate", "seconds_per_accepted"} <= d.keys()
    # a second pass gives the same puzzles and fresh counts
    again = list(gen)
    assert [p.goal for p in again] == [p.goal for p in ps]
    assert gen.stats.accepted == 5


def test_density_rejection_counts():
    gen = generate(4, 4, count=3, seed=1, density=(0.5, 0.5), require="any")
    ps = list(gen)
    assert all(sum(r.count("#") for r in p.goal) == 8 for p in ps)
    assert gen.stats.rejected_density > 0


def test_smooth_density_is_exact():
    spec = generate(10, 10, 1, seed=4, density=(0.3, 0.6), style="smooth").spec
    for i in range(30):
        d = int(draw(spec, i).sum())
        assert 30 <= d <= 60


def test_bad_arguments():
    for kw in (dict(width=0, height=5), dict(width=5, height=5, density=(0.7, 0.2)),
               dict(width=5, height=5, density=(-0.1, 0.5)), dict(width=5, height=5, require="hard"),
               dict(width=5, height=5, style="blobs"), dict(width=5, height=5, seed=-1),
               dict(width=5, height=5, workers=0), dict(width=5, height=5, timeout=0)):
        kw.setdefault("count", 1)
        with pytest.raises(ValueError):
            generate(**kw)


def test_bad_colour_count():
    with pytest.raises(ValueError):
        generate(5, 5, 1, colors=0)
    with pytest.raises(ValueError):
        generate(5, 5, 1, colors=33)


def test_package_api():
    a = [p.goal for p in satnono.generate(7, 7, 3, seed=5)]
    b = [p.goal for p in satnono.generate(7, 7, 3, seed=5)]
    assert a == b and len(a) == 3
    assert [p.goal for p in satnono.generate(7, 7, 3, seed=6)] != a


# ---------------------------------------------------------------------------
# determinism


def _lines(ps):
    from satnono.formats import dumps

    return "".join(dumps(p, "json") for p in ps)


@pytest.mark.parametrize("kind", ["bw", "color"])
def test_same_output_whatever_workers(kind):
    """The same seed gives the same puzzles, run twice or on two workers."""
    if kind == "bw":
        opts = dict(count=12, seed=99, require="unique", density=(0.4, 0.6))
    else:
        opts = dict(count=4, seed=9, colors=4, require="unique")
    one = _lines(generate(12, 12, workers=1, **opts))
    again = _lines(generate(12, 12, workers=1, **opts))
    two = _lines(generate(12, 12, workers=2, **opts))
    assert one == again == two and one
    if kind == "color":
        goals = [p.goal for p in generate(12, 12, **opts)]
        assert len({ch for g in goals for row in g for ch in row}) == 5  # background and four colours


def test_black_and_white_output_unchanged_by_the_colour_option():
    """colors=1 is the black-and-white generator, candidate for candidate."""
    a = [p.goal for p in generate(8, 8, 3, seed=2)]
    b = [p.goal for p in generate(8, 8, 3, seed=2, colors=1)]
    assert a == b and all(set("".join(g)) <= {"#", "."} for g in a)


def test_workers_stats_identical():
    g1 = generate(9, 9, count=6, seed=5, require="search", workers=1)
    g2 = generate(9, 9, count=6, seed=5, require="search", workers=2)
    assert [p.goal for p in g1] == [p.goal for p in g2]
    d1, d2 = g1.stats.as_dict(), g2.stats.as_dict()
    for k in ("tried", "rejected_density", "rejected_class", "accepted", "rejections", "classes"):
        assert d1[k] == d2[k]


# ---------------------------------------------------------------------------
# the vectorised engine against the core


def _core_state(goal_rows, givens=None):
    p = Puzzle.from_grid(goal_rows)
    st = GridState(p)
    for (r, c), b in (givens or {}).items():
        st.set_cell(r, c, b)
    assert propagate(st, LineSolver()) is None
    return st


@pytest.mark.parametrize("w,h", [(1, 1), (1, 6), (7, 1), (5, 4), (13, 9), (20, 20), (62, 5), (3, 62), (64, 3)])
def test_propagate_many_equals_core(w, h):
    rng = np.random.default_rng(w * 100 + h)
    B = 40 if w * h < 1000 else 8
    goals = rng.random((B, h, w)) < rng.uniform(0.2, 0.8, size=(B, 1, 1))
    giv = rng.random((B, h, w)) < 0.05
    for with_givens in (False, True):
        kb0 = goals & giv if with_givens else None
        kw0 = ~goals & giv if with_givens else None
        kb, kw = propagate_many(goals, kb0, kw0)
        for b in range(B):
            givens = {(int(r), int(c)): bool(goals[b, r, c]) for r, c in zip(*np.nonzero(giv[b]))} if with_givens else None
            st = _core_state(grid_of(goals[b]), givens)
            if w <= 64:
                assert [int(x) for x in pack(kb[b])] == st.row_black
                assert [int(x) for x in pack(kw[b])] == st.row_white
            else:
                assert not (kb[b] & kw[b]).any()
            assert (kb[b] <= goals[b]).all() and (kw[b] <= ~goals[b]).all()


def test_solve_lines_equals_solve_line():
    rng = np.random.default_rng(1)
    for n in (1, 2, 5, 17, 31, 62):
        m = 300
        lines = rng.random((m, n)) < rng.uniform(0.1, 0.9, size=(m, 1))
        know = rng.random((m, n)) < rng.uniform(0, 0.8, size=(m, 1))
        clue, rclue, k = clue_arrays(lines)
        black = pack(lines & know)
        white = pack(~lines & know)
        fb, fw = solve_lines(np.full(m, n, np.uint64), black, white, clue, rclue, k)
        for i in range(m):
            c = tuple(int(x) for x in clue[i, :k[i]])
            ref = solve_line(c, n, int(black[i]), int(white[i]))
            assert ref is not None
            assert (int(fb[i]), int(fw[i])) == (ref.black, ref.white), (n, i)


def test_find_switch_gives_a_second_solution():
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(60):
        g = rng.random((8, 8)) < 0.35
        rows = [int(x) for x in pack(g)]
        cols = [int(x) for x in pack(np.ascontiguousarray(g.T))]
        full = [(1 << 8) - 1] * 8
        sw = find_switch(rows, cols, full, full)
        if sw is None:
            continue
        found += 1
        (r1, c1), (r2, c2) = sw
        g2 = g.copy()
        for r, c in ((r1, c1), (r1, c2), (r2, c1), (r2, c2)):
            g2[r, c] = not g2[r, c]
        assert (g2 != g).sum() == 4
        assert clues(grid_of(g2)) == clues(grid_of(g))
    assert found > 20


# ---------------------------------------------------------------------------
# command line


def run(*args):
    return CliRunner().invoke(cli, list(args))


def test_cli_stdout_json_lines():
    r = run("generate", "--size", "8x6", "--count", "3", "--seed", "4", "--require", "unique")
    assert r.exit_code == 0, r.output
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(docs) == 3
    for d in docs:
        assert len(d["rows"]) == 6 and len(d["columns"]) == 8 and len(d["goal"]) == 6
        assert count_solutions(d["rows"], d["columns"]) == 1
    assert "candidates tried" in r.stderr and "rejected by density" in r.stderr and "acceptance rate" in r.stderr
    again = run("generate", "--size", "8x6", "--count", "3", "--seed", "4", "--require", "unique", "--workers", "2")
    assert again.stdout == r.stdout


@pytest.mark.parametrize("fmt", ["json", "non", "pbm"])
def test_cli_out_dir(tmp_path, fmt):
    out = tmp_path / "set"
    r = run("generate", "--size", "6x6", "--count", "3", "--seed", "1", "--out", str(out), "--format", fmt)
    assert r.exit_code == 0, r.output
    names = sorted(os.listdir(out))
    assert names == [f"puzzle-000{k}.{fmt}" for k in (1, 2, 3)]
    for n in names:
        p = load(str(out / n))
        assert p.goal is not None and line_solvable(p.rows, p.columns)
    if fmt == "json":
        d = json.loads((out / names[0]).read_text())
        assert {"rows", "columns", "goal"} <= d.keys()
        assert all(set(row) <= {"#", "."} for row in d["goal"])


def test_cli_refuses_to_overwrite(tmp_path):
    out = tmp_path / "set"
    out.mkdir()
    (out / "puzzle-0002.json").write_text("precious")
    r = run("generate", "--size", "5x5", "--count", "3", "--seed", "1", "--out", str(out))
    assert r.exit_code == 6
    assert "puzzle-0002.json" in r.stderr and "refusing to overwrite" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert sorted(os.listdir(out)) == ["puzzle-0002.json"]
    assert (out / "puzzle-0002.json").read_text() == "precious"


def test_cli_same_files_for_any_workers(tmp_path):
    for k in (1, 2):
        r = run("generate", "--size", "10x10", "--count", "4", "--seed", "8", "--require", "search",
                "--out", str(tmp_path / f"w{k}"), "--workers", str(k))
        assert r.exit_code == 0, r.output
    for n in sorted(os.listdir(tmp_path / "w1")):
        assert (tmp_path / "w1" / n).read_bytes() == (tmp_path / "w2" / n).read_bytes()


@pytest.mark.parametrize("args", [
    ["--size", "10"], ["--size", "0x5"], ["--size", "axb"], ["--density", "0.8-0.2"], ["--density", "1.5"],
    ["--density", "x-y"], ["--count", "0"], ["--require", "hard"], ["--style", "blobs"], ["--workers", "0"],
    ["--format", "non"], ["--min-open", "3"], ["--format", "xml", "--out", "somewhere"],
])
def test_cli_bad_options(args):
    base = {"--size": "5x5", "--count": "1", "--seed": "1"}
    argv = ["generate"]
    for k, v in base.items():
        if k not in args:
            argv += [k, v]
    r = run(*(argv + args))
    assert r.exit_code == 2, (args, r.output)


def test_cli_max_candidates_exit_code():
    assert main(["generate", "--size", "20x20", "--count", "5", "--seed", "1", "--density", "0.2-0.25",
                 "--max-candidates", "5"]) == 5
    assert main(["generate", "--size", "4x4", "--count", "1", "--seed", "1"]) == 0


def test_fast_side_limit_is_sane():
    assert MAX_FAST_SIDE <= 62


def test_supports_says_what_the_vectorised_kernel_takes():
    from satnono.rules import rule_from_json

    bw = Puzzle.from_grid(["#.", ".#"])
    assert supports(bw) and handles(bw)
    assert supports(Puzzle.from_grid(["#.", ".#"], givens=((0, 0, 1),)))  # givens are known cells
    assert supports(Puzzle.from_grid(["#" * 62] * 2)) and supports(Puzzle.from_grid(["#"] * 62))
    wide, tall = Puzzle.from_grid(["#" * 63]), Puzzle.from_grid(["#"] * 63)
    assert not supports(wide) and not supports(tall)
    assert handles(wide) and handles(tall)  # propagate_many takes them, one picture at a time
    colour = Puzzle.from_grid(["ab", ".a"], palette=default_palette(2))
    ruled = Puzzle.from_grid(["#.", ".#"], rules=(rule_from_json({"rule": "connected"}),))
    for p in (colour, ruled):
        assert not supports(p) and not handles(p)


def test_kernel_refuses_lines_it_cannot_hold():
    lines = np.zeros((2, 63), bool)
    lines[:, ::2] = True
    clue, rclue, k = clue_arrays(lines)
    zero = np.zeros(2, np.uint64)
    with pytest.raises(UnsupportedOperation) as e:
        solve_lines(np.full(2, 63, np.uint64), zero, zero, clue, rclue, k)
    assert "62" in str(e.value) and "\n" not in str(e.value)
    with pytest.raises(UnsupportedOperation):
        pack(np.zeros((1, 65), bool))
    assert int(pack(np.ones((1, 64), bool))[0]) == (1 << 64) - 1


def _decision_table(require, min_open, n_open, unique):
    """The acceptance rules as the module docstring states them, written out case by case."""
    if require == "line":
        return ("accept", "line") if n_open == 0 else ("stalled", "")
    if require == "unique":
        if n_open == 0:
            return "accept", "line"
        return {True: ("accept", "search"), False: ("ambiguous", ""), None: ("timeout", "")}[unique]
    assert require == "search"
    if n_open == 0:
        return "line", ""
    if n_open < min_open:
        return "open", ""
    return {True: ("accept", "search"), False: ("ambiguous", ""), None: ("timeout", "")}[unique]


@pytest.mark.parametrize("require", ["line", "unique", "search"])
def test_one_decision_tree(require):
    for min_open, n_open, unique in itertools.product((0, 3), (0, 1, 3, 9), (True, False, None)):
        spec = GenerateSpec(GridCanvas(5, 5), 0, 0.2, 0.7, require, "noise", min_open, None)
        asked: list[int] = []

        def answer(u=unique, asked=asked):
            asked.append(1)
            return u

        got = decide(spec, n_open, answer)
        assert got == _decision_table(require, min_open, n_open, unique)
        # uniqueness is asked for exactly when the verdict depends on it
        assert bool(asked) == (got[1] == "search" or got[0] in ("ambiguous", "timeout"))


@pytest.mark.parametrize("require,kw", [("line", {}), ("unique", {}), ("search", {"min_open": 3})])
def test_vectorised_and_scalar_paths_agree(require, kw, monkeypatch):
    """Black-and-white candidates judged by the library's propagation and Checker (the colour
    path) get the same verdicts as on the vectorised kernel, switches and goal-guided SAT."""
    from satnono import generation

    opts = dict(count=4, seed=11, require=require, density=(0.35, 0.65), max_candidates=3000, **kw)
    fast = generate(8, 7, **opts)
    a = [(p.name, p.goal, p.meta) for p in fast]
    monkeypatch.setattr(generation, "handles", lambda puzzle: False)
    slow = generate(8, 7, **opts)
    b = [(p.name, p.goal, p.meta) for p in slow]
    assert a == b and len(a) == 4
    da, db = fast.stats.as_dict(), slow.stats.as_dict()
    for k in ("tried", "rejected_density", "rejected_class", "accepted", "rejections", "classes"):
        assert da[k] == db[k]


def test_package_generate_survives_the_module_import():
    import satnono.fixer  # imports the generation module
    import satnono.generation

    assert callable(satnono.generate) and len(list(satnono.generate(4, 4, 1, seed=1))) == 1


def test_sat_timeout_rejects_and_is_counted():
    gen = generate(20, 20, count=1, seed=1, require="search", density=(0.45, 0.55), timeout=1e-9,
                   max_candidates=200)
    assert list(gen) == []
    assert gen.exhausted and gen.stats.reasons["timeout"] > 0


def test_zero_count():
    gen = generate(5, 5, count=0, seed=1)
    assert list(gen) == [] and gen.stats.tried == 0
