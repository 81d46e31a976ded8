"""Belief propagation over lanes (:mod:`satnono.logic.beliefs`, issue 39).

* A rectangle's hints are pinned: the digests below were made by the rows-and-columns code
  before it iterated lanes (commit 452201c), on every bundled rectangle that line logic leaves
  open, the first puzzles of the tournament files and seeded random colour and blotted
  pictures; the compiled module and the Python reference must both still give them, bit for bit.
* Any lanes (cells in no lane, one, two, three or more) and triddlers: the compiled module
  gives the Python reference's hints to the bit.
* Against enumeration: exact marginals where the lanes form a tree; on small triddlers the
  hints of the cells every solution agrees on, known cells, median starts that are starts of
  some placement (tests/_triddler_oracle.py's enumeration).
* In a triddler's search (hints from the start): the phases reach CaDiCaL for the open cells and
  the ladders of all three families, and neither hints nor hunches change a verdict.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest
from _triddler_oracle import _blocks

from satnono import load_all
from satnono.lines import LineSolver
from satnono.logic import beliefs
from satnono.logic.propagate import propagate
from satnono.logic.state import initial_state
from satnono.model import Puzzle
from satnono.palette import default_palette

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
TOURNAMENT = CORPUS / "tournament" / "nonogramrecord" / "question"


def _digest(hints: beliefs.Hints) -> str:
    """The hints of a rectangle, every float by its exact bits."""
    text = repr((hints.cells, hints.row_starts, hints.column_starts, hints.rounds,
                 [x.hex() for x in hints.confidence]))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _random_rectangle(rng: random.Random, kind: str) -> Puzzle:
    """A random picture's puzzle: ``bw``, ``colour`` (2 or 3 colours), ``blotted`` (some numbers
    of a black-and-white or colour picture hidden), or ``colour36`` (36x40, 2 colours, 47 %)."""
    if kind == "colour36":
        h, w, k, d = 36, 40, 2, 0.47
    else:
        h, w = rng.randint(8, 20), rng.randint(8, 20)
        k = 1 if kind == "bw" else rng.choice((2, 3)) if kind == "colour" else rng.choice((1, 2))
        d = rng.uniform(0.4, 0.7)
    pal = default_palette(k)
    chars = "".join(c.char for c in pal)
    grid = tuple("".join(rng.choice(chars[1:]) if rng.random() < d else "." for _ in range(w)) for _ in range(h))
    p = Puzzle.from_grid(grid, palette=pal).replace(goal=None)
    if kind == "blotted":
        def spell(blocks):
            return [("?" if rng.random() < 0.3 else n, chars[v]) for n, v in blocks]
        p = Puzzle.from_clues([spell(p.row_blocks(r)) for r in range(h)],
                              [spell(p.column_blocks(c)) for c in range(w)], palette=pal)
    return p


def _bundled() -> list[tuple[str, Puzzle]]:
    out = []
    for f in sorted((ROOT / "puzzles").rglob("*")):
        if f.suffix in (".non", ".xml", ".nin") and "triddler" not in f.name:
            out += [(f"{f.parent.name}/{f.name}", p) for p in load_all(str(f))[:1] if isinstance(p, Puzzle)]
    return out


def _tournament() -> list[tuple[str, Puzzle]]:
    out = []
    for name in ("taai2011", "icga2017", "icga2020"):
        path = TOURNAMENT / f"{name}.txt"
        if path.is_file():
            out += [(f"{name}#{i}", p) for i, p in enumerate(load_all(str(path))[:4])]
    return out


def _random_set() -> list[tuple[str, Puzzle]]:
    out = []
    for kind, count in (("bw", 6), ("colour", 8), ("blotted", 8), ("colour36", 2)):
        rng = random.Random(f"beliefs-{kind}")
        out += [(f"{kind}#{i}", _random_rectangle(rng, kind)) for i in range(count)]
    return out


#: phase_hints of each puzzle's state after line logic (and, "@start", before it), by the
#: rows-and-columns code of 452201c.
PINNED = {
    "dom/10-dom.xml": "fd2d3d0336cf9ec6",
    "dom/11-dom.xml": "d318457fa696b37e",
    "dom/12-dom.xml": "f29ae6259f231e4e",
    "dom/3-dom.xml": "f18462ef171fd52b",
    "dom/4-dom.xml": "dc103382bc965427",
    "dom/5-dom.xml": "ed8fd70c280c5fba",
    "dom/6-dom.xml": "17f28152d3b059c7",
    "dom/7-dom.xml": "790dd49cb7ab30d6",
    "dom/8-dom.xml": "1ae900c2aef973d5",
    "dom/9-dom.xml": "d1526a1317adc024",
    "jwilk/data001.nin": "3a55900e5ac84396",
    "jwilk/data001.nin@start": "54fbe9c8af29c52f",
    "jwilk/data016.nin": "10c0b6344cadf8ad",
    "jwilk/data022.nin": "fc58680127bf7a55",
    "jwilk/data038.nin": "2c60d1f0c018c647",
    "jwilk/data047.nin": "8d2337e2834b0fba",
    "jwilk/data083.nin": "c64e79f93466fe16",
    "jwilk/data084.nin": "f74af4620a29b821",
    "jwilk/data085.nin": "9f1def78dbe8c8ff",
    "jwilk/data087.nin": "cd36118d8ee83b63",
    "jwilk/data091.nin": "0774b5410819842d",
    "jwilk/data120.nin": "9590b0921084ebd9",
    "jwilk/data144.nin": "5e75389a4865afc6",
    "picross-solver/webpbn-35105-wild.non": "a8f33dba71d77110",
    "satnono/colour-search-10x10.non": "6bd734e51b2ba554",
    "satnono/colour-search-10x10.non@start": "625f9917b8fb54fc",
    "webpbn/faase.xml": "78fa2f5bcdad3743",
    "webpbn/knotty.xml": "1bdfd61961c0d00f",
    "webpbn/webpbn-00023.xml": "6ca973c541b8d915",
    "webpbn/webpbn-00023.xml@start": "6ca973c541b8d915",
    "webpbn/webpbn-00027.xml": "6ce0a5c396406ef9",
    "webpbn/webpbn-00065.xml": "2126b5dbf925845e",
    "webpbn/webpbn-00436.xml": "5552f1de9282e099",
    "webpbn/webpbn-00803.xml": "73aaaba2d8078b48",
    "webpbn/webpbn-01611.xml": "9ed03de1dcba16de",
    "webpbn/webpbn-06574.xml": "1de821d8b8343751",
    "taai2011#0": "78421fb5bad775d2",
    "taai2011#0@start": "5523d6f5927ef0e7",
    "taai2011#1": "3671bcc35c80b7c0",
    "taai2011#2": "5385b27cdcb50506",
    "taai2011#3": "d19999217083683b",
    "icga2017#0": "75f2bcb642ff0dc8",
    "icga2017#1": "4d22935b261ce428",
    "icga2017#2": "e318d092c13db7f9",
    "icga2017#3": "7f414f0bb8072844",
    "icga2020#0": "128ada4fc5a2a2c9",
    "icga2020#1": "12acacc657b4ffac",
    "icga2020#3": "223c033a79cbb8dc",
    "bw#0": "7524b59d6757ccdf",
    "bw#0@start": "f5ed1f583067f13e",
    "bw#1": "e508ebbc7ad947d7",
    "bw#1@start": "ba2de99788086d6f",
    "bw#2": "02f837de175661a6",
    "bw#2@start": "8d26ba52a472b153",
    "bw#3": "89be4dfd6796a1e3",
    "bw#3@start": "b763d2e91f365567",
    "bw#4": "b0d44a2db00980ae",
    "bw#4@start": "9a9121178049fb8f",
    "bw#5": "6ce320eb8c02728e",
    "bw#5@start": "9ed4a7d7e1c532f7",
    "colour#0": "c9cc6c6e8127251e",
    "colour#0@start": "2847c8510c46276e",
    "colour#1": "d2ec741a42c11752",
    "colour#1@start": "88873230d682a139",
    "colour#2": "f3b5ff89a2b1b547",
    "colour#2@start": "d65bc6117162c300",
    "colour#3": "0e4e656ee9a2372c",
    "colour#3@start": "7c163625fbff85ff",
    "colour#4": "4e46ab96f24e2738",
    "colour#4@start": "f45ff7523855d378",
    "colour#5": "0713c6f1d2904ffa",
    "colour#5@start": "584e919b61122cc3",
    "colour#6": "1ba3a1942e8adc16",
    "colour#6@start": "90976742d47050a4",
    "colour#7": "2a45afd724c68002",
    "colour#7@start": "e330ebec50f6ed76",
    "blotted#0": "2d2e474bd2c4b7df",
    "blotted#0@start": "dd9659b77bc0246a",
    "blotted#1": "d96a221e248ddb23",
    "blotted#1@start": "2dbde656ccfe0c24",
    "blotted#2": "fade1f37404f0ef4",
    "blotted#2@start": "9730744e10645c6a",
    "blotted#3": "fe7670b51745feb7",
    "blotted#3@start": "34d77394278e561a",
    "blotted#4": "372422ab1ec42e0d",
    "blotted#4@start": "468d94d406aab5fc",
    "blotted#5": "f249a646b4a070d7",
    "blotted#5@start": "1d9e007f44802abe",
    "blotted#6": "b78a122351ec928f",
    "blotted#6@start": "67e804834ec22bd9",
    "blotted#7": "b8de0fd25c9a2f74",
    "blotted#7@start": "fc197401cdbd6c95",
    "colour36#0": "feee81dbab56f207",
    "colour36#1": "2987cba8d5e77d90",
}


def _pinned_cases() -> list[tuple[str, Puzzle, bool]]:
    """``(name, puzzle, propagated)`` of every pinned digest whose puzzle is here."""
    cases = []
    for name, p in _bundled() + _tournament() + _random_set():
        for propagated in (True, False):
            key = name if propagated else f"{name}@start"
            if key in PINNED:
                cases.append((key, p, propagated))
    return cases


def _state(p: Puzzle, propagated: bool):
    state = initial_state(p)
    if propagated:
        assert propagate(state, LineSolver()) is None
    return state


def test_rectangle_hints_are_pinned(monkeypatch) -> None:
    """The compiled module (where built) and the Python reference give the digests of the
    rows-and-columns code; the reference is checked on the grids up to 450 cells (its
    time)."""
    cases = _pinned_cases()
    assert len(cases) >= 50
    for key, p, propagated in cases:
        state = _state(p, propagated)
        assert _digest(beliefs.phase_hints(state)) == PINNED[key], key
    monkeypatch.setattr(beliefs, "_native", None)
    checked = 0
    for key, p, propagated in cases:
        if p.height * p.width <= 450:
            state = _state(p, propagated)
            assert _digest(beliefs.phase_hints(state)) == PINNED[key], (key, "the Python reference")
            checked += 1
    assert checked >= 50


# --------------------------------------------------------------------------- any lanes: compiled = reference

needs_native = pytest.mark.skipif(beliefs._native is None, reason="the compiled module is not built here")


def _runs(values: list[int]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The clue of a line of colour indices (0 background): its blocks' lengths and colours."""
    blocks = _blocks(values)
    return tuple(n for n, _ in blocks), tuple(v for _, v in blocks)


def _random_lanes(rng: random.Random, ncell: int, nlanes: int, longest: int) -> list[list[int]]:
    """Lanes of random cells in random order: cells in no lane, one, two or several."""
    return [rng.sample(range(ncell), rng.randint(1, min(longest, ncell))) for _ in range(nlanes)]


def _clued(rng: random.Random, lanes: list[list[int]], nvals: int, blots: bool):
    """``(clues, allowed, picture)``: each lane's clue read off a random picture (some blocks
    blotted with ``blots``), each cell allowed its value and some others."""
    ncell = 1 + max(x for lane in lanes for x in lane)
    picture = [rng.randrange(nvals) for _ in range(ncell)]
    clues = []
    for lane in lanes:
        lengths, colors = _runs([picture[x] for x in lane])
        spotted = tuple(j for j in range(len(lengths)) if blots and rng.random() < 0.3)
        clues.append((tuple(1 if j in spotted else n for j, n in enumerate(lengths)), colors, spotted))
    allowed = [1 << v | sum(1 << u for u in range(nvals) if rng.random() < 0.6) for v in picture]
    return clues, allowed, picture


@needs_native
def test_compiled_equals_the_reference_on_any_lanes() -> None:
    """Lanes of random cells (cells in no lane, in one, two, three or more; colour, blots,
    cells known or open), every round count: the same hints to the bit."""
    rng = random.Random(39)
    for t in range(300):
        ncell = rng.randint(1, 14)
        nvals = rng.choice((2, 2, 3, 4))
        lanes = _random_lanes(rng, ncell, rng.randint(1, 9), 7)
        ncell = 1 + max(x for lane in lanes for x in lane)
        clues, allowed, _ = _clued(rng, lanes, nvals, blots=rng.random() < 0.3)
        for rounds, tol in ((beliefs.ROUNDS, beliefs.TOLERANCE), (1, 0.0), (4, 0.0)):
            args = (ncell, nvals, lanes, clues, allowed, rounds, beliefs.DAMPING, tol, beliefs.FLOOR)
            assert beliefs._native.lane_hints(*args) == beliefs.lane_hints(*args), (t, rounds)
        # a lane given as a range or a tuple is the same lane
        args = (ncell, nvals, [tuple(lane) for lane in lanes], clues, allowed, 3, beliefs.DAMPING, 0.0, beliefs.FLOOR)
        assert beliefs._native.lane_hints(*args) == beliefs.lane_hints(*args)


def _triddlers(rng: random.Random, count: int, shapes, blotted: float = 0.0) -> list:
    """Random triddlers: pictures of ``shapes`` (b/w; two colours up to 16 cells), a share
    ``blotted`` of them with about a third of their lanes' first block blotted."""
    from _triddler_oracle import random_puzzle

    from satnono.clues import LineClue

    out = []
    for _ in range(count):
        g = rng.choice(shapes)
        p = random_puzzle(rng, g, rng.choice((1, 2)) if g.cell_count <= 16 else 1)
        if rng.random() < blotted:
            p = p.replace(clues=tuple(LineClue((1, *c.lengths[1:]), c.colors, 1) if c.lengths and rng.random() < 0.3
                                      else c for c in p.clues))
        out.append(p)
    return out


def _propagated(p):
    from satnono.logic.lanes import propagate_state

    state = initial_state(p)
    return state if propagate_state(state, LineSolver()) is None else None


@needs_native
def test_compiled_equals_the_reference_on_triddlers(monkeypatch) -> None:
    """phase_hints of triddler states (three lanes a cell), before and after line logic."""
    from satnono.lanes import Triangle

    rng = random.Random(7)
    shapes = (Triangle.hexagon(2), Triangle.hexagon(3), Triangle.parallelogram(4, 5), Triangle.triangle(5))
    seen = 0
    for p in _triddlers(rng, 40, shapes, blotted=0.3):
        for state in (initial_state(p), _propagated(p)):
            if state is None:
                continue
            compiled = beliefs.phase_hints(state)
            monkeypatch.setattr(beliefs, "_native", None)
            assert beliefs.phase_hints(state) == compiled
            monkeypatch.undo()
            seen += state.unknown_count() > 0
    assert seen > 40


# --------------------------------------------------------------------------- against enumeration


def _satisfies(values: list[int], clue: tuple) -> bool:
    lengths, colors, blots = clue
    got_lengths, got_colors = _runs(values)
    return got_colors == colors and all(j in blots or n == m for j, (n, m) in enumerate(zip(got_lengths, lengths)))


@pytest.mark.parametrize("impl", ["compiled", "python"])
def test_hints_are_the_marginals_on_a_tree(impl: str) -> None:
    """Belief propagation is exact where the lanes form a tree: a spine lane and, through each of
    its cells, one or two rib lanes of their own cells (cells in one, two and three lanes).  With
    no floor and enough rounds each cell's confidence is the share of the solutions (counted by
    enumeration) that give it its hinted value, and no value is in more of them."""
    if impl == "compiled" and beliefs._native is None:
        pytest.skip("the compiled module is not built here")
    run = beliefs._native.lane_hints if impl == "compiled" else beliefs.lane_hints
    import itertools

    rng = random.Random(1)
    checked = 0
    while checked < 25:
        nvals = rng.choice((2, 2, 3))
        spine = list(range(rng.randint(2, 4)))
        lanes, ncell = [spine], len(spine)
        for x in spine:
            for _ in range(rng.choice((1, 1, 2))):
                extra = list(range(ncell, ncell + rng.randint(1, 2)))
                ncell += len(extra)
                rib = extra[:]
                rib.insert(rng.randrange(len(rib) + 1), x)
                lanes.append(rib)
        if nvals ** ncell > 40_000:
            continue
        clues, _, _ = _clued(rng, lanes, nvals, blots=False)
        allowed = [(1 << nvals) - 1] * ncell
        counts = [[0] * nvals for _ in range(ncell)]
        for values in itertools.product(range(nvals), repeat=ncell):
            if all(_satisfies([values[x] for x in lane], clue) for lane, clue in zip(lanes, clues)):
                for x, v in enumerate(values):
                    counts[x][v] += 1
        total = sum(counts[0])
        cells, _starts, _ran, confidence = run(ncell, nvals, lanes, clues, allowed, 200, beliefs.DAMPING, 1e-12, 0.0)
        for x in range(ncell):
            share = [c / total for c in counts[x]]
            if max(share) < 1.0:  # (a cell of one value left is reported as known: confidence 1)
                assert confidence[x] == pytest.approx(share[cells[x]], abs=1e-9), (lanes, clues, x)
                assert share[cells[x]] == pytest.approx(max(share), abs=1e-9)
        checked += 1


def _placements_starts(cells_allowed: list[int], clue: tuple, nvals: int) -> list[set[int]]:
    """Per block, where it starts in some placement of ``clue`` over the cells' allowed values."""
    import itertools

    starts: list[set[int]] = [set() for _ in clue[0]]
    options = [[v for v in range(nvals) if (bits >> v) & 1] for bits in cells_allowed]
    for values in itertools.product(*options):
        if _satisfies(list(values), clue):
            j, prev = -1, 0
            for i, v in enumerate(values):
                if v and (v != prev):
                    j += 1
                    starts[j].add(i)
                prev = v
    return starts


def test_triddler_hints_agree_with_the_enumeration() -> None:
    """On small triddlers (up to 24 cells; 16 in two colours) after line logic, against every
    solution (tests/_triddler_oracle.py's enumeration): a known cell is hinted its value, sure;
    an open cell a value it may have; the hints of the open cells that every solution gives
    one value mostly that value (loopy propagation is not exact: 90 % and more here, where one
    round without the crossing lanes' say gets about 75 %); every median start a start of its
    block in some placement of the lane."""
    from _triddler_oracle import brute_force

    from satnono.lanes import Triangle

    rng = random.Random(5)
    shapes = (Triangle.hexagon(2), Triangle.parallelogram(3, 4), Triangle.triangle(4), Triangle.parallelogram(2, 5))
    agree = forced = starts_checked = 0
    for p in _triddlers(rng, 200, shapes):
        state = _propagated(p)
        assert state is not None
        if not state.open_cells():
            continue
        solutions = brute_force(p)
        hints = beliefs.phase_hints(state)
        nvals = len(p.palette)
        for x in range(p.geometry.cell_count):
            left = state.possible(x)
            assert hints.cells[x] in left
            if len(left) == 1:
                assert hints.cells[x] == left[0] and hints.confidence[x] == 1.0
                continue
            assert 1.0 / len(left) - 1e-12 <= hints.confidence[x] <= 1.0
            values = {s[x] for s in solutions}
            if len(values) == 1:
                forced += 1
                agree += p.chars[hints.cells[x]] == values.pop()
        for lane, clue, medians in zip(p.lanes, p.clues, hints.starts):
            if medians is None:
                assert all(state.value(x) is not None for x in lane.cells)
                continue
            full = (1 << nvals) - 1
            possible = _placements_starts([full & ~state.excluded[x] for x in lane.cells], beliefs._spec(clue), nvals)
            assert all(m in where for m, where in zip(medians, possible)), (lane, clue, medians)
            starts_checked += 1
    assert forced > 100 and starts_checked > 300
    assert agree >= 0.9 * forced, (agree, forced)


def test_work_counts_a_triddlers_open_lanes() -> None:
    """work() of a triddler state: rounds x cells x automaton states of the lanes with an open
    cell, counted here from the lanes and the clues."""
    from satnono.lanes import Triangle

    rng = random.Random(2)
    for p in _triddlers(rng, 20, (Triangle.hexagon(3), Triangle.parallelogram(4, 6)), blotted=0.5):
        state = _propagated(p)
        if state is None:
            continue
        want = 0
        for lane, clue in zip(p.lanes, p.clues):
            if any(state.value(x) is None for x in lane.cells):
                want += len(lane.cells) * (sum(clue.lengths) + len(clue.lengths) + 1)
        assert beliefs.work(state, rounds=3) == 3 * want


# --------------------------------------------------------------------------- hints in a triddler's search


@pytest.mark.parametrize("colours", [1, 2])
def test_a_triddler_search_starts_from_the_hints(colours: int, monkeypatch, phases_given) -> None:
    """With hints from the start (no first try), settle gives CaDiCaL a triddler's hints: one
    phase for every variable of an open cell and of the ladders of every family's encoded lanes,
    a ladder false below its block's median start and true from it; the verdict is the
    enumeration's."""
    from _triddler_oracle import random_puzzle, solve

    import satnono.solve
    from satnono.cnf.ladders import ladders
    from satnono.lanes import Triangle
    from satnono.solve import Checker

    monkeypatch.setattr(satnono.solve, "first_try", lambda state: 0)  # (the hints at once)
    calls = phases_given
    rng = random.Random(colours)
    done = 0
    families: set[str] = set()
    for _ in range(100):
        p = random_puzzle(rng, Triangle.hexagon(3 if colours == 1 else 4), colours)
        state = _propagated(p)
        if state is None or state.unknown_count() < (20 if colours == 1 else 10):
            continue
        calls.clear()
        out = Checker().settle(p, keep_open=True)
        try:
            enc = out.enc
            assert enc is not None and out.state is not None
            hints = beliefs.phase_hints(out.state)
            assert calls and calls[0] == enc.hint_phases(hints)
            lits = calls[0]
            assert len({abs(x) for x in lits}) == len(lits)
            k = enc.ncolors
            for cell in enc.open_cells:
                true = [x for x in lits if x > 0 and (x - 1) // k == cell and x <= enc.var(cell, k)]
                assert [(x - 1) % k + 1 for x in true] == ([hints.cells[cell]] if hints.cells[cell] else [])
            for family, index, first, starts in enc.ladder_lines:
                los, his, bases, _ = ladders(first, starts)
                medians = hints.by_family[family][index]
                assert medians is not None
                for j in range(len(starts)):
                    phase = [x > 0 for x in lits if bases[j] + los[j] <= abs(x) < bases[j] + his[j]]
                    assert len(phase) == his[j] - los[j] and phase == sorted(phase)
                families.add(family)
            want = solve(p, limit=2)
            assert out.result.status.value == ("unique" if len(want) == 1 else "multiple")
            assert all(s in want or len(want) == 2 for s in out.result.solutions)
        finally:
            out.close()
        done += 1
        if done == 4:
            break
    assert done == 4 and families == {"row", "/", "\\"}


@pytest.mark.parametrize("hunch", ["hinted", "its opposite", "out of conflicts"])
def test_hints_never_decide_a_triddler_verdict(hunch: str, monkeypatch) -> None:
    """Hints and hunches on every triddler search, the hunches the hints, the opposite of a
    solution or rounds of one conflict: the verdict and solutions are the enumeration's."""
    from _triddler_oracle import brute_force

    import satnono.solve
    from satnono.cnf.encode import Encoding
    from satnono.lanes import Triangle
    from satnono.solve import Checker

    monkeypatch.setattr(satnono.solve, "first_try", lambda state: 0)
    hinted: list[int] = []
    real = beliefs.phase_hints
    monkeypatch.setattr(beliefs, "phase_hints", lambda state, **kw: hinted.append(1) or real(state, **kw))
    forced: list[list[int]] = []
    if hunch == "its opposite":
        monkeypatch.setattr(Encoding, "hunches", lambda self, hints, share: forced[0])
    if hunch == "out of conflicts":
        monkeypatch.setattr(satnono.solve, "hunch_budget", lambda state: 1)
    rng = random.Random(hash(hunch) & 0xFFFF)
    shapes = (Triangle.hexagon(2), Triangle.parallelogram(3, 4), Triangle.triangle(4))
    seen: dict[str, int] = {}
    for p in _triddlers(rng, 300, shapes, blotted=0.2):
        state = _propagated(p)
        if state is not None and state.unknown_count() == 0:
            continue  # (line logic settles it: nothing to search)
        truth = brute_force(p)
        forced.clear()
        if truth:  # every open cell the other way from the first solution
            k = len(p.palette) - 1
            lits: list[int] = []
            for cell in range(p.geometry.cell_count):
                v = p.chars.index(truth[0][cell])
                lits += [-(cell * k + v)] if v else [cell * k + 1]
            forced.append(lits)
        else:
            forced.append([])
        r = Checker().check(p)
        expect = "none" if not truth else "unique" if len(truth) == 1 else "multiple"
        assert r.status.value == expect, (hunch, p)
        assert all(s in truth for s in r.solutions) and len(set(r.solutions)) == len(r.solutions)
        seen[expect] = seen.get(expect, 0) + 1
    assert seen.get("multiple", 0) >= 10 and seen.get("unique", 0) >= 3, seen
    assert len(hinted) >= sum(seen.values()) // 2  # (most searches take the hints)


def test_a_rectangles_extra_line_is_one_more_lane() -> None:
    """A rectangle's ``line`` rule is a lane of the puzzle: its diagonal cells are in three lanes,
    the compiled module and the reference agree, and the line's encoded ladder gets phases from
    its median starts as the rows' and columns' do."""
    from satnono.cnf.encode import encode
    from satnono.cnf.ladders import ladders
    from satnono.model import clues_of_grid
    from satnono.rules import rule_from_json

    rng = random.Random(3)
    lines = LineSolver()
    tried = 0
    for _ in range(60):
        if tried == 3:
            break
        n = rng.randint(10, 16)
        grid = ["".join("#" if rng.random() < 0.5 else "." for _ in range(n)) for _ in range(n)]
        diagonal = "".join(grid[k][k] for k in range(n))
        spec = {"rule": "line", "cells": [[k, k] for k in range(n)], "clue": list(clues_of_grid((diagonal,))[0][0])}
        p = Puzzle.from_grid(grid, rules=(rule_from_json(spec),)).replace(goal=None)
        assert [lane.family for lane in p.lanes].count("line") == 1
        state = _state(p, True)
        if not any(state.cell(k, k) is None for k in range(n)):
            continue
        hints = beliefs.phase_hints(state)
        if beliefs._native is not None:
            native, beliefs._native = beliefs._native, None
            try:
                assert beliefs.phase_hints(state) == hints
            finally:
                beliefs._native = native
        medians = hints.by_family["line"][0]
        assert medians is not None and len(medians) == len(p.lane_clues[-1].lengths)
        enc = encode(state, lines)
        lits = set(enc.hint_phases(hints))
        for family, _index, first, starts in enc.ladder_lines:
            if family == "line":  # (one line, encoded when it has an open cell)
                los, his, bases, _ = ladders(first, starts)
                for j in range(len(starts)):
                    ladder = range(bases[j] + los[j], bases[j] + his[j])
                    m = bases[j] + min(max(medians[j], los[j]), his[j])
                    assert all((x in lits) == (x >= m) and (-x in lits) == (x < m) for x in ladder)
                tried += 1
    assert tried == 3


def test_a_triddlers_hints_only_for_a_first_search_past_the_first_try(monkeypatch):
    """As on a rectangle: an easy first search never pays for belief propagation; a longer one
    gets it once, and the verdict is the oracle's (line logic and backtracking)."""
    from _triddler_oracle import random_puzzle, solve as oracle
    from satnono.lanes import Triangle
    from satnono.solve import Checker

    calls: list[int] = []
    real = beliefs.phase_hints

    def spy(state, rounds=None, deadline=None):  # type: ignore[no-untyped-def]
        calls.append(state.unknown_count())
        return real(state, rounds, deadline)

    monkeypatch.setattr(beliefs, "phase_hints", spy)
    easy, longer = (random_puzzle(random.Random(seed), Triangle.hexagon(5)) for seed in (3, 47))
    r = Checker().check(easy)
    assert r.stats.sat_calls == 2 and calls == []
    assert r.solutions == tuple(oracle(easy))
    r = Checker().check(longer)
    assert r.stats.sat_calls == 3 and len(calls) == 1 and calls[0] == r.stats.unknown_after_propagation
    assert r.solutions == tuple(oracle(longer))
