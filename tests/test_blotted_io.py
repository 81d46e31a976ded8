"""Blotted clues through the formats (issue 17, point 5): webpbn XML ``<count>0</count>`` and
JSON ``"?"`` / ``["?", "r"]`` read and written back; every other writer refuses them."""

from __future__ import annotations

import json
import random

import pytest

from satnono.errors import ParseError
from satnono.formats import BLOTS_FORMATS, WRITABLE_FORMATS, dumps, loads
from satnono.model import Color, Puzzle

PAL = (Color("white", ".", (255, 255, 255)), Color("red", "r", (200, 0, 0)), Color("blue", "b", (0, 0, 200)),
       Color("green", "g", (0, 160, 0)))


def _random_blotted(rng: random.Random, colours: int) -> Puzzle:
    """A random picture's puzzle with a random subset of its clue numbers blotted."""
    h, w = rng.randint(1, 7), rng.randint(1, 7)
    chars = ".#" if colours == 1 else "." + "rbg"[:colours]
    grid = ["".join(rng.choice(chars) for _ in range(w)) for _ in range(h)]
    used = [c for c in PAL[1:colours + 1] if any(c.char in row for row in grid)]
    pal = None if colours == 1 or not used else (PAL[0], *used)  # the readers keep the colours used
    p = Puzzle.from_grid(grid, palette=pal)
    keep_goal = rng.random() < 0.5

    def blot(axis: str) -> list[list[object]]:
        out = []
        for clue in p.clues(axis):
            line: list[object] = []
            for n, c in zip(clue.lengths, clue.colors):
                length: object = "?" if rng.random() < 0.4 else n
                line.append(length if colours == 1 else (length, p.chars[c]))
            out.append(line)
        return out

    return Puzzle.from_clues(blot("row"), blot("column"), palette=p.palette, name=f"r{rng.random():.3f}",
                             goal=p.goal if keep_goal else None)


@pytest.mark.parametrize("fmt", BLOTS_FORMATS)
@pytest.mark.parametrize("colours", [1, 2, 3])
def test_random_blotted_puzzles_round_trip(fmt: str, colours: int) -> None:
    rng = random.Random(17 * colours + len(fmt))
    blotted = 0
    for _ in range(60):
        p = _random_blotted(rng, colours)
        blotted += p.has_blots
        data = dumps(p, fmt)
        (q,) = loads(data.encode("utf-8") if isinstance(data, str) else data, fmt)
        assert q.row_clues == p.row_clues and q.column_clues == p.column_clues, data
        assert q.palette == p.palette and q.goal == p.goal and q.name == p.name
        assert dumps(q, fmt) == data  # written back the same way
        # without a format: the sniffer finds it
        (r,) = loads(data.encode("utf-8") if isinstance(data, str) else data)
        assert r.row_clues == p.row_clues
    assert blotted > 30


@pytest.mark.parametrize("fmt", [f for f in WRITABLE_FORMATS if f not in BLOTS_FORMATS])
def test_other_writers_refuse_blots_in_one_line(fmt: str) -> None:
    p = Puzzle.from_grid(["#.#", "##.", "..#"])
    p = Puzzle.from_clues([[1, 1], ["?"], [1]], p.columns, goal=p.goal)
    with pytest.raises(ValueError) as e:
        dumps(p, fmt)
    msg = str(e.value)
    assert "\n" not in msg and "blotted" in msg and "row 2 block 1" in msg, msg


def test_level_refuses_blots() -> None:
    from satnono.formats import level

    p = Puzzle.from_clues([["?"], [1]], [[1], [1]], goal=("#.", ".#"))
    with pytest.raises(ValueError, match="blotted clues .row 1 block 1."):
        level.write_files(p)


XML = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="black">
<color name="white" char=".">fff</color><color name="black" char="X">000</color>
<color name="red" char="r">f00</color>
<clues type="columns">
<line><count>0</count></line>
<line><count color="red">0</count></line>
</clues>
<clues type="rows">
<line><count>1</count><count color="red">0</count></line>
<line></line>
</clues>
</puzzle></puzzleset>
"""


def test_xml_blot_takes_the_colour_of_its_count() -> None:
    (p,) = loads(XML.encode(), "xml")
    assert p.has_blots and p.is_color
    red = p.chars.index("r")
    assert p.column_clues[1].colors == (red,) and p.column_clues[1].blots == 1
    assert p.column_clues[0].colors == (p.chars.index("X" if "X" in p.chars else "#"),)
    assert p.row_clues[0].blots == 0b10 and p.row_clues[0].lengths == (1, 1)
    assert p.clue_text("row", 0) == "1X ?r" or p.clue_text("row", 0).endswith("?r")
    assert '<count color="red">0</count>' in dumps(p, "xml")


def test_json_blots_in_every_spelling() -> None:
    doc = {"rows": ["? 1", [1, "?"], [["?", "r"]], "?r 1"], "columns": [["?"], [1, ["?", 2]], [], ["?"]],
           "colors": {"#": "black", "r": "red"}}
    (p,) = loads(json.dumps(doc), "json")
    assert [c.text(p.chars, True) for c in p.row_clues] == ["?# 1#", "1# ?#", "?r", "?r 1#"]
    assert [c.text(p.chars, True) for c in p.column_clues] == ["?#", "1# ?r", "0", "?#"]
    bw = {"rows": [["?"], "? 2"], "columns": ["?", [1, "?"]]}
    (q,) = loads(json.dumps(bw), "json")
    assert not q.is_color and [c.text() for c in q.row_clues] == ["?", "? 2"]
    assert [c.text() for c in q.column_clues] == ["?", "1 ?"]


@pytest.mark.parametrize("bad", [["??"], ["?", "x"], [["?", ""]], [-1]])
def test_json_bad_blots_are_one_line_errors(bad: list) -> None:
    with pytest.raises(ParseError) as e:
        loads(json.dumps({"rows": [bad], "columns": [[1]]}), "json")
    assert "\n" not in str(e.value)


def test_check_json_of_a_blotted_puzzle_reads_back() -> None:
    from satnono.report import result_dict
    from satnono.solve import check

    for p in (Puzzle.from_clues([["?"], [1, "?"]], [["?"], [1], [1]]),
              Puzzle.from_clues([[("?", "r"), (1, "b")], [("?", "b")]], [[("?", "r")], [(1, "b")]],
                                palette=PAL[:3])):
        d = result_dict(check(p), "x.json", None)
        (q,) = loads(json.dumps(d), "json")
        assert q.row_clues == p.row_clues and q.column_clues == p.column_clues
        assert q.palette == p.palette
