"""Belief propagation over lanes (:mod:`satnono.logic.beliefs`, issue 39).

* A rectangle's hints are pinned: the digests below were made by the rows-and-columns code
  before it iterated lanes (commit 452201c), on every bundled rectangle that line logic leaves
  open, the first puzzles of the tournament files and seeded random colour and blotted
  pictures; the compiled module and the Python reference must both still give them, bit for bit.
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

import pytest

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
    rows-and-columns code; the reference is checked on the grids up to 1,000 cells (its
    time)."""
    cases = _pinned_cases()
    assert len(cases) >= 50
    for key, p, propagated in cases:
        state = _state(p, propagated)
        assert _digest(beliefs.phase_hints(state)) == PINNED[key], key
    monkeypatch.setattr(beliefs, "_native", None)
    checked = 0
    for key, p, propagated in cases:
        if p.height * p.width <= 1000:
            state = _state(p, propagated)
            assert _digest(beliefs.phase_hints(state)) == PINNED[key], (key, "the Python reference")
            checked += 1
    assert checked >= 40
