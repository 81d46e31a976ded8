"""Every writer against every feature a puzzle can have: it holds the feature (read back
unchanged) or refuses with one line naming it, never a silent drop (issue 20, 'Guard it').

Adding a feature is one entry in FEATURES: a puzzle that has it and a test of whether a
read-back puzzle still has it."""

from __future__ import annotations

import pytest

from satnono.formats import WRITABLE_FORMATS, dumps, loads
from satnono.model import Color, Puzzle
from satnono.rules import rule_from_json

GRID = ["#.##", ".#..", "##.#", "#..#"]
PAL = (Color("white", ".", (255, 255, 255)), Color("red", "r", (200, 0, 0)), Color("blue", "b", (0, 0, 200)))


def _colour() -> Puzzle:
    return Puzzle.from_grid(["r.bb", ".r..", "rb.r", "b..r"], palette=PAL)


def _givens() -> Puzzle:
    return Puzzle.from_grid(GRID, givens=[(0, 0, 1), (1, 0, 0)])


def _rules() -> Puzzle:
    return Puzzle.from_grid(GRID, rules=(rule_from_json({"rule": "no-square"}),
                                         rule_from_json({"rule": "count", "op": ">=", "n": 3})))


#: What of a palette each format can hold: JSON and XML everything; mikix's .non colour lines
#: a character and an RGB per colour (no names: read back as the hex); pictures the RGB only.
PALETTE_HOLDS = {"non": ("char", "rgb"), "ppm": ("rgb",), "png": ("rgb",)}


def _same_palette(fmt: str, p: Puzzle, q: Puzzle) -> bool:
    fields = PALETTE_HOLDS.get(fmt, ("name", "char", "rgb"))
    return [tuple(getattr(c, f) for f in fields) for c in q.palette] == \
        [tuple(getattr(c, f) for f in fields) for c in p.palette]


def _blots() -> Puzzle:
    return Puzzle.from_clues([[1, "?"], ["?"], [2, 1], ["?", "?"]], [["?"], [1, 1], ["?"], [3]])


def _colour_blots() -> Puzzle:
    return Puzzle.from_clues([[("?", "r"), ("?", "b")], [(1, "r")], [("?", "r"), (1, "b"), (1, "r")], [(1, "b"), (1, "r")]],
                             [[(2, "r"), ("?", "b")], [(1, "r"), (1, "b")], [("?", "b")], [(1, "b"), ("?", "r")]],
                             palette=PAL)


def _same_clues(fmt: str, p: Puzzle, q: Puzzle) -> bool:
    return q.row_clues == p.row_clues and q.column_clues == p.column_clues


FEATURES = {
    # name: (a puzzle with it, does a read-back puzzle keep it?, the word a refusal uses)
    "colour": (_colour, lambda fmt, p, q: _same_palette(fmt, p, q) and q.row_colors == p.row_colors, "colour"),
    "givens": (_givens, lambda fmt, p, q: q.givens == p.givens, "given"),
    "blots": (_blots, _same_clues, "blotted"),
    "colour blots": (_colour_blots, lambda fmt, p, q: _same_clues(fmt, p, q) and _same_palette(fmt, p, q), "blotted"),
    "rules": (_rules, lambda fmt, p, q: [r.as_json() for r in q.rules] == [r.as_json() for r in p.rules], "rules"),
}


@pytest.mark.parametrize("feature", sorted(FEATURES))
@pytest.mark.parametrize("fmt", WRITABLE_FORMATS)
def test_every_writer_keeps_a_feature_or_refuses_it(fmt, feature):
    make, kept, word = FEATURES[feature]
    p = make()
    try:
        data = dumps(p, fmt)
    except ValueError as e:
        msg = str(e)
        assert "\n" not in msg and word in msg, (fmt, feature, msg)
        return
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    (q,) = loads(raw, fmt)
    assert kept(fmt, p, q), (fmt, feature)
    assert q.rows == p.rows and q.columns == p.columns
