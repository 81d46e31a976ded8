"""Belief propagation hints (:mod:`satnono.logic.beliefs`): each line's messages and median starts
against enumeration of the line's completions, the compiled module bit-identical to the Python
reference (black and white, colour, blotted), and the hints reaching CaDiCaL as the phases of
the first search."""

from __future__ import annotations

import hashlib
import math
import random
from pathlib import Path

import pytest
from _native_build import can_build
from _oracles import colourings

from satnono import load_all
from satnono.lines import LineSolver
from satnono.logic import beliefs
from satnono.logic.propagate import propagate
from satnono.logic.state import initial_state
from satnono.model import Puzzle
from satnono.palette import default_palette
from satnono.solve import Checker

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
SOURCE = Path(beliefs.__file__).with_name("_beliefs.c")


# --------------------------------------------------------------------------- one line


def _enumerated(lengths, colors, blots, nvals, weights):
    """(messages, start distributions) of a line by summing over every colouring of its cells
    whose runs are the clue's blocks (a blotted block: any length): nothing of the DP reused."""
    n, k = len(weights), len(lengths)
    ext = [[0.0] * nvals for _ in range(n)]
    start = [[0.0] * n for _ in range(k)]
    z = 0.0
    for ls, starts, _ends, vals in colourings(n, nvals - 1).get(tuple(colors), ()):
        if any(m != c and j not in blots for j, (m, c) in enumerate(zip(ls, lengths))):
            continue
        ws = [weights[i][v] for i, v in enumerate(vals)]
        full = math.prod(ws)
        z += full
        for i, v in enumerate(vals):
            ext[i][v] += math.prod(ws[:i] + ws[i + 1:])
        for j, s in enumerate(starts):
            start[j][s] += full
    return ext, start, z


def _random_line(rng: random.Random):
    nvals = rng.choice((2, 2, 3, 4))
    n = rng.randint(1, 7)
    vals = [rng.randrange(nvals) for _ in range(n)]
    lengths, colors = [], []
    i = 0
    while i < n:  # the runs of a random colouring: a clue that fits
        v, m = vals[i], 1
        while i + m < n and vals[i + m] == v:
            m += 1
        if v:
            lengths.append(m)
            colors.append(v)
        i += m
    blots = tuple(j for j in range(len(lengths)) if rng.random() < 0.3)
    allowed = []
    for i in range(n):
        bits = sum(1 << v for v in range(nvals) if rng.random() < 0.7) or 1 << vals[i]
        allowed.append(bits | (1 << vals[i]) if rng.random() < 0.8 else bits)
    weights = [[rng.uniform(0.01, 1.0) if (allowed[i] >> v) & 1 else 0.0 for v in range(nvals)] for i in range(n)]
    return tuple(lengths), tuple(colors), blots, nvals, weights, allowed


def test_line_messages_are_the_weighted_counts_of_completions() -> None:
    """The extrinsic message of each cell and the median start of each block, against the
    weighted sum over every completion of the line (colour, blots, excluded values)."""
    rng = random.Random(7)
    checked = 0
    for _ in range(1500):
        lengths, colors, blots, nvals, weights, allowed = _random_line(rng)
        n, k = len(weights), len(lengths)
        ext, start, z = _enumerated(lengths, colors, blots, nvals, weights)
        out = [[-1.0] * nvals for _ in range(n)]
        st = [-1] * k
        ok = beliefs.line_messages(lengths, colors, blots, nvals, weights, allowed, out, st)
        assert ok == (z > 0)
        if not ok:
            assert out == [[-1.0] * nvals for _ in range(n)] and st == [-1] * k  # left as they were
            continue
        checked += 1
        for i in range(n):
            norm = sum(ext[i][v] for v in range(nvals) if (allowed[i] >> v) & 1)
            want = [ext[i][v] / norm if (allowed[i] >> v) & 1 and norm > 0 else 0.0 for v in range(nvals)]
            assert out[i] == pytest.approx(want, rel=1e-9, abs=1e-12)
        for j in range(k):
            cum, med = 0.0, n - 1
            near = False
            for p in range(n):
                cum += start[j][p] / z
                near |= abs(cum - 0.5) < 1e-9
                if cum >= 0.5:
                    med = p
                    break
            if not near:  # (a cumulative sum within rounding of 1/2 may fall either way)
                assert st[j] == med
    assert checked > 1000


def test_automaton_of_colour_and_blots() -> None:
    """States, in one row: a block of another colour is entered past the gap; a blotted block
    is one state that keeps its colour."""
    emit, stay, skip, first = beliefs.automaton((1, 2), (1, 2), (0,))
    assert emit == [-1, 1, 0, 2, 2, 0]
    assert stay == [0, 1, 0, -1, -1, 0]
    assert skip == [False, False, False, True, False, False]
    assert first == [-1, 0, -1, 1, -1, -1]


# --------------------------------------------------------------------------- the compiled module


def _args(state, rounds=beliefs.ROUNDS, tolerance=beliefs.TOLERANCE):
    p = state.puzzle
    h, w, nv = state.height, state.width, state.nvals
    allowed = []
    for r in range(h):
        for c in range(w):
            allowed.append(sum(1 << v for v in range(nv) if not (state.row_ex[v][r] >> c) & 1))
    lanes = [range(r * w, r * w + w) for r in range(h)] + [list(range(c, h * w, w)) for c in range(w)]
    return (h * w, nv, lanes, [beliefs._spec(cl) for cl in p.row_clues + p.column_clues],
            allowed, rounds, beliefs.DAMPING, tolerance, beliefs.FLOOR)


def _random_puzzle(rng: random.Random, kind: str) -> Puzzle:
    k = 1 if kind in ("bw", "blotted-bw") else rng.choice((2, 3))
    h, w = rng.randint(2, 13), rng.randint(2, 13)
    d = rng.uniform(0.3, 0.75)
    pal = default_palette(k)
    chars = "".join(c.char for c in pal)[1:]
    grid = tuple("".join(rng.choice(chars) if rng.random() < d else "." for _ in range(w)) for _ in range(h))
    p = Puzzle.from_grid(grid, palette=pal)
    if kind.startswith("blotted"):
        all_chars = "".join(c.char for c in pal)

        def spell(blocks):
            return [("?" if rng.random() < 0.3 else n, all_chars[v]) for n, v in blocks]
        p = Puzzle.from_clues([spell(p.row_blocks(r)) for r in range(h)],
                              [spell(p.column_blocks(c)) for c in range(w)], palette=pal)
    return p


needs_native = pytest.mark.skipif(beliefs._native is None, reason="the compiled module is not built here")


@needs_native
@pytest.mark.parametrize("kind", ["bw", "colour", "blotted-bw", "blotted-colour"])
def test_native_hints_are_bit_identical(kind: str) -> None:
    """The C transcription gives exactly the reference's hints, before and after line logic,
    with every round count (early stops included)."""
    rng = random.Random(hash(kind) & 0xFFFF)
    lines = LineSolver()
    for t in range(40):
        p = _random_puzzle(rng, kind)
        state = initial_state(p)
        for propagated in (False, True):
            if propagated and propagate(state, lines) is not None:
                break
            for rounds, tol in ((beliefs.ROUNDS, beliefs.TOLERANCE), (1, 0.0), (3, 0.0)):
                args = _args(state, rounds, tol)
                assert beliefs._native.lane_hints(*args) == beliefs.lane_hints(*args), (kind, t, propagated, rounds)
            hints = beliefs.phase_hints(state)  # (its own reading of the state's cells and lanes)
            assert (hints.cells, hints.starts, hints.rounds, hints.confidence) == beliefs.lane_hints(*_args(state))


@needs_native
def test_native_hints_on_tournament_puzzles() -> None:
    lines = LineSolver()
    path = CORPUS / "tournament" / "nonogramrecord" / "question" / "icga2017.txt"
    if not path.is_file():
        pytest.skip("corpus not present")
    for p in load_all(str(path))[:6]:
        state = initial_state(p)
        assert propagate(state, lines) is None
        args = _args(state)
        assert beliefs._native.lane_hints(*args) == beliefs.lane_hints(*args)


def test_native_module_is_built_from_this_source() -> None:
    """Where a C compiler and Python's headers are there, the install built the module, from
    this tree's ``_beliefs.c`` (a stale build would hide a change to the reference)."""
    if not can_build():
        pytest.skip("no C compiler or Python headers here: the Python reference runs")
    import importlib
    mod = importlib.import_module("satnono.logic._beliefs")
    assert mod.SOURCE_SHA256 == hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def test_bad_arguments_are_errors_not_crashes() -> None:
    if beliefs._native is None:
        pytest.skip("the compiled module is not built here")
    g = beliefs._native.lane_hints
    one = ((1,), (1,), ())
    with pytest.raises(ValueError):
        g(1, 2, [[0], [0]], [one], [3], 5, 0.5, 0.0, 1e-4)  # one clue missing
    with pytest.raises(ValueError):
        g(1, 2, [[0], [1]], [one, one], [3], 5, 0.5, 0.0, 1e-4)  # no cell 1
    with pytest.raises(ValueError):
        g(2, 2, [[0, 1]], [one], [3], 5, 0.5, 0.0, 1e-4)  # an allowed set missing
    with pytest.raises(TypeError):
        g(1, 2, [0], [one], [3], 5, 0.5, 0.0, 1e-4)  # a lane that is no sequence
    # a clue its lane cannot hold (an unpropagated, inconsistent state): the lane is skipped, as by the reference
    for args in ((2, 2, [[0, 1], [0], [1]], [((3,), (1,), ()), one, one], [3, 3], 5, 0.5, 0.0, 1e-4),
                 (2, 2, [[0, 1], [0], [1]], [((1, 1, 1), (1, 1, 1), ()), one, one], [3, 3], 5, 0.5, 0.0, 1e-4),
                 (1, 2, [[0], [0]], [((10**9,), (1,), ()), one], [3], 5, 0.5, 0.0, 1e-4)):
        if args[3][0][0][0] < 100:
            assert g(*args) == beliefs.lane_hints(*args)
        assert g(*args)[1][0] is None
    with pytest.raises(ValueError):
        g(1, 2, [[0], [0]], [((1,), (5,), ()), one], [3], 5, 0.5, 0.0, 1e-4)  # no such colour
    with pytest.raises(TypeError):
        g(1, 2, [[0], [0]], [((1,), (1,)), one], [3], 5, 0.5, 0.0, 1e-4)


# --------------------------------------------------------------------------- hints as phases


def _several_solutions(kind: str) -> Puzzle:
    rng = random.Random(3)
    lines = LineSolver()
    while True:
        k = 1 if kind == "bw" else 2
        pal = default_palette(k)
        chars = "".join(c.char for c in pal)[1:]
        grid = tuple("".join(rng.choice(chars) if rng.random() < 0.5 else "." for _ in range(12)) for _ in range(12))
        p = Puzzle.from_grid(grid, palette=pal).replace(goal=None)  # (a goal would be the first solution)
        state = initial_state(p)
        propagate(state, lines)
        if state.unknown_count() > 40:
            return p


@pytest.mark.parametrize("kind", ["bw", "colour"])
def test_first_search_starts_from_the_hints(kind: str, monkeypatch, phases_given) -> None:
    """settle gives CaDiCaL the hints before its first search: one phase for every variable of an
    open cell and of every ladder, a ladder false below its block's median start and true from it."""
    import satnono.solve

    monkeypatch.setattr(satnono.solve, "FIRST_TRY", 0)  # (no first try: the hints from the start)
    calls = phases_given
    p = _several_solutions(kind)
    out = Checker().settle(p, keep_open=True)
    try:
        enc, state = out.enc, out.state
        assert enc is not None and state is not None
        hints = beliefs.phase_hints(state)
        assert calls and calls[0] == enc.hint_phases(hints)
        lits = calls[0]
        assert len({abs(x) for x in lits}) == len(lits)
        k, w = enc.ncolors, enc.width
        cell_vars = {(r * w + c) * k + v for r, c in enc.unknown_cells for v in range(1, k + 1)}
        assert cell_vars <= {abs(x) for x in lits}
        for r, c in enc.unknown_cells:  # at most one colour true, the hinted one
            true = [x for x in lits if x > 0 and (x - 1) // k == r * w + c and x in cell_vars]
            assert len(true) <= 1
            assert [((x - 1) % k) + 1 for x in true] == ([hints.cells[r * w + c]] if hints.cells[r * w + c] else [])
        from satnono.cnf.ladders import ladders

        for axis, i, first, starts in enc.ladder_lines:
            los, his, bases, _ = ladders(first, starts)
            med = (hints.row_starts if axis == "row" else hints.column_starts)[i]
            assert med is not None
            for j in range(len(starts)):
                assert (starts[j] >> med[j]) & 1, "the median start is a valid start"
                phase = [x > 0 for x in lits if bases[j] + los[j] <= abs(x) < bases[j] + his[j]]
                assert phase == sorted(phase)  # false ... false, true ... true
        assert out.result.status.value == "multiple"
    finally:
        out.close()


@pytest.mark.parametrize("kind", ["bw", "colour"])
@pytest.mark.parametrize("first_try", [0, None])
def test_the_second_search_starts_from_the_first_solution(kind: str, first_try, monkeypatch, phases_given) -> None:
    """After a hinted first search every variable the hints forced, ladders included, is forced to
    the first solution's value for the second search: hint phases left on the ladders pulled it
    away from the first solution (a 36x40 two-colour picture: 100,000 conflicts for a second
    solution one conflict away).  Without hints only the cells are given (CaDiCaL's saved phases
    hold the rest)."""
    from satnono.cnf.ladders import ladders

    import satnono.solve

    monkeypatch.setattr(satnono.solve, "first_try", lambda state: first_try)  # 0: hints at once; None: none
    calls = phases_given
    out = Checker().settle(_several_solutions(kind), keep_open=True)
    try:
        enc, model = out.enc, out.first_model
        assert enc is not None and model is not None and out.result.status.value == "multiple"
        assert len(calls) == (2 if first_try == 0 else 1)
        second = calls[-1]
        assert all(model[abs(x) - 1] == x for x in second)  # the first solution's values
        wanted = set(enc.unknown_vars)
        if first_try == 0:
            for _axis, _i, first, starts in enc.ladder_lines:
                wanted |= set(range(first, ladders(first, starts)[3]))
            assert {abs(x) for x in calls[0]} <= wanted
        assert {abs(x) for x in second} == wanted
    finally:
        out.close()


def test_hints_are_exact_on_a_line_solvable_picture() -> None:
    """With nothing open the hints are the cells' values; on a puzzle line logic finishes
    nothing is encoded, so settle never asks for them."""
    p = Puzzle.from_grid(("##.", ".#.", "###"))
    state = initial_state(p)
    assert propagate(state, LineSolver()) is None and state.unknown_count() == 0
    hints = beliefs.phase_hints(state)
    assert hints.cells == [1, 1, 0, 0, 1, 0, 1, 1, 1]
    assert hints.row_starts == [None] * 3 and hints.rounds == 1


def test_the_first_try_grows_with_the_work_of_the_hints() -> None:
    """A 25x25 puzzle gets the short FIRST_TRY and hunch rounds of HUNCH_UNITS x SEARCH_UNIT
    conflicts; a larger open grid a try and a unit that grow with the square root of belief
    propagation's work (rounds x cells x automaton states of its open lines, counted here from the
    clues), so that a search shorter than computing the hints never pays for them."""
    from satnono.solve import FIRST_TRY, HUNCH_UNITS, SEARCH_UNIT, TRY_WORK, first_try, hunch_budget, search_unit

    lines = LineSolver()

    def counted(state) -> int:
        p, total = state.puzzle, 0
        for r in range(state.height):
            if state.known_row(r) != (1 << state.width) - 1:
                total += state.width * (sum(p.row_clues[r].lengths) + len(p.row_clues[r].lengths) + 1)
        for c in range(state.width):
            if state.known_column(c) != (1 << state.height) - 1:
                total += state.height * (sum(p.column_clues[c].lengths) + len(p.column_clues[c].lengths) + 1)
        return beliefs.ROUNDS * total

    for n, want_more in ((25, False), (100, True)):
        rng = random.Random(n)
        for _ in range(50):  # a random picture that line logic leaves mostly open
            grid = ["".join("#" if rng.random() < 0.5 else "." for _ in range(n)) for _ in range(n)]
            state = initial_state(Puzzle.from_grid(grid))
            propagate(state, lines)
            if state.unknown_count() > n * n // 2:
                break
        assert state.unknown_count() > n * n // 2
        w = beliefs.work(state)
        assert w == counted(state)
        assert (w > TRY_WORK) == want_more
        unit = int(SEARCH_UNIT * (w / TRY_WORK) ** 0.5) if want_more else SEARCH_UNIT
        assert search_unit(state) == unit and hunch_budget(state) == HUNCH_UNITS * unit
        assert first_try(state) == (unit if want_more else FIRST_TRY)
        assert FIRST_TRY < SEARCH_UNIT <= unit
    # a blotted block is one state of its automaton: a row of 4 cells with "?" is 4 x 3, its columns 3, 3, 1, 1
    p = Puzzle.from_clues([[("?", "#")]], [[(1, "#")], [(1, "#")], [], []], palette=default_palette(1))
    state = initial_state(p)
    assert len(beliefs.automaton((1,), (1,), (0,))[0]) == 3
    assert beliefs.work(state, rounds=1) == 4 * 3 + 3 + 3 + 1 + 1


# --------------------------------------------------------------------------- hunches: the surest hints, assumed


def test_confidence_is_the_likeliest_values_share() -> None:
    """Two solutions that mirror each other: every open cell is a coin toss; known cells are sure;
    an open cell's confidence is never below 1/(values it may have)."""
    state = initial_state(Puzzle.from_grid(("#.", ".#")))
    assert propagate(state, LineSolver()) is None and state.unknown_count() == 4
    assert beliefs.phase_hints(state).confidence == pytest.approx([0.5] * 4)
    lines = LineSolver()
    rng = random.Random(11)
    for kind in ("bw", "colour"):
        for _ in range(10):
            state = initial_state(_random_puzzle(rng, kind))
            if propagate(state, lines) is not None:
                continue
            hints = beliefs.phase_hints(state)
            for r in range(state.height):
                for c in range(state.width):
                    n = len(state.possible(r, c))
                    conf = hints.confidence[r * state.width + c]
                    assert conf == 1.0 if n == 1 else 1.0 / n - 1e-12 <= conf <= 1.0


@pytest.mark.parametrize("kind", ["bw", "colour"])
def test_hunches_are_the_surest_hints(kind: str) -> None:
    """``Encoding.hunches`` assumes the hinted value of the given share of the open cells, the
    surest first, and no cell it leaves out is surer than one it takes."""
    from satnono.cnf.encode import encode

    lines = LineSolver()
    state = initial_state(_several_solutions(kind))
    assert propagate(state, lines) is None
    enc = encode(state, lines)
    hints = beliefs.phase_hints(state)
    k, w, conf = enc.ncolors, enc.width, hints.confidence
    open_cells = [r * w + c for r, c in enc.unknown_cells]
    for share in (0.0, 0.3, 0.5, 1.0):
        lits = enc.hunches(hints, share)
        by_cell: dict[int, list[int]] = {}
        for x in lits:
            by_cell.setdefault((abs(x) - 1) // k, []).append(x)
        assert len(by_cell) == int(len(open_cells) * share)
        for x, got in by_cell.items():
            v = hints.cells[x]
            if k == 1:
                assert got == [x + 1 if v else -(x + 1)]
            else:
                assert got == ([x * k + v] if v else [-(x * k + u) for u in enc.allowed[divmod(x, w)] if u])
        order = list(by_cell)
        assert [conf[x] for x in order] == sorted((conf[x] for x in order), reverse=True)
        left = [conf[x] for x in open_cells if x not in by_cell]
        if by_cell and left:
            assert min(conf[x] for x in order) >= max(left)


def _runs(line: str, background: str = ".") -> tuple[tuple[int, str], ...]:
    """A line's blocks as (length, character) (the oracle's own reading)."""
    out: list[tuple[int, str]] = []
    prev = background
    for ch in line:
        if ch != background and prev == ch:
            out[-1] = (out[-1][0] + 1, ch)
        elif ch != background:
            out.append((1, ch))
        prev = ch
    return tuple(out)


def _brute_force(rows: list[tuple], columns: list[tuple], w: int, chars: str) -> list[tuple[str, ...]]:
    """Every grid over ``chars`` whose rows and columns have the given runs (enumeration)."""
    import itertools

    cands = [["".join(t) for t in itertools.product(chars, repeat=w) if _runs("".join(t)) == clue] for clue in rows]
    return [g for g in itertools.product(*cands) if all(_runs("".join(col)) == clue for col, clue in zip(zip(*g), columns))]


@pytest.mark.parametrize("kind", ["bw", "colour"])
@pytest.mark.parametrize("hunch", ["hinted", "a solution", "its opposite", "out of conflicts"])
def test_hunches_never_decide_a_verdict(kind: str, hunch: str, monkeypatch) -> None:
    """Whatever is assumed (the hints, one solution, the opposite of one, rounds that run out of
    conflicts at once), the verdict is the brute force's: on small random pictures (several
    solutions or one) and on one-block-a-line puzzles whose givens keep three rows to two columns
    (no solution, and no line sees it) or two rows to two columns (several); assuming a whole
    solution finds that one first."""
    import satnono.solve
    from satnono.cnf.encode import Encoding

    monkeypatch.setattr(satnono.solve, "first_try", lambda state: 0)  # hints and hunches on every search
    pal = default_palette(1 if kind == "bw" else 2)
    chars = "".join(c.char for c in pal)
    k = len(pal) - 1
    forced: list[list[int]] = []
    if hunch != "hinted":
        real = Encoding.hunches

        def hunches(self, hints, share):
            return forced[0] if forced else real(self, hints, share)

        monkeypatch.setattr(Encoding, "hunches", hunches)
    if hunch == "out of conflicts":
        monkeypatch.setattr(satnono.solve, "hunch_budget", lambda state: 1)  # (rounds of one conflict)
    rng = random.Random(hash((kind, hunch)) & 0xFFFF)
    seen: dict[str, int] = {}
    lines = LineSolver()
    for i in range(400):
        if sum(seen.values()) >= 30:
            break
        givens: dict[tuple[int, int], int] = {}
        if i % 2:  # a random picture: several solutions, or one
            h = w = 5 if kind == "bw" else 4
            grid = tuple("".join(rng.choice(chars[1:]) if rng.random() < 0.6 else chars[0] for _ in range(w))
                         for _ in range(h))
            p = Puzzle.from_grid(grid, palette=pal).replace(goal=None)
        else:  # one block a line, some rows kept to fewer columns than they are: no solution, which
            # no line sees (each of its lines keeps two ways or more); or as many: several
            h = w = 5
            p = Puzzle([[1]] * h, [[1]] * w, palette=pal, row_colors=((1,),) * h, column_colors=((1,),) * w)
            rows, cols = rng.sample(range(h), rng.choice((2, 3))), rng.sample(range(w), 2)
            givens = {(r, c): 0 for r in rows for c in range(w) if c not in cols}
        p = p.with_givens(givens)
        state = initial_state(p)
        if propagate(state, lines) is not None or state.unknown_count() == 0:
            continue  # (line logic settles it: no search to assume anything in)
        row_runs = [tuple((n, chars[v]) for n, v in p.row_blocks(r)) for r in range(h)]
        col_runs = [tuple((n, chars[v]) for n, v in p.column_blocks(c)) for c in range(w)]
        truth = _brute_force(row_runs, col_runs, w, chars)
        truth = [g for g in truth if all(chars.index(g[r][c]) == v for (r, c), v in givens.items())]
        forced.clear()
        if hunch in ("a solution", "its opposite") and truth:
            lits: list[int] = []
            for r, c in state.unknown_cells():
                v, base = chars.index(truth[0][r][c]), (r * w + c) * k
                if k == 1:
                    lits.append(base + 1 if (v == 1) == (hunch == "a solution") else -(base + 1))
                elif hunch == "a solution":
                    lits += [base + v] if v else [-(base + u) for u in range(1, k + 1)]
                else:
                    lits += [-(base + v)] if v else [base + 1]
            forced.append(lits)
        r = Checker().check(p)
        expect = "none" if not truth else "unique" if len(truth) == 1 else "multiple"
        assert r.status.value == expect, (kind, hunch, p.rows, p.columns, givens)
        assert all(s in truth for s in r.solutions) and len(set(r.solutions)) == len(r.solutions)
        if hunch == "a solution" and truth:
            assert r.solutions[0] == truth[0]
        seen[expect] = seen.get(expect, 0) + 1
    assert seen.get("none", 0) >= 5 and seen.get("multiple", 0) >= 5, seen
