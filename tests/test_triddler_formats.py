"""satnono.formats.triddler: triddlers in webpbn XML and Olšák .g, and the test oracles.

The worked example of webpbn's specification is written here in both formats (by hand, from
the clue numbers of the specification) and must read to the same triddler, whose one
solution the oracles find.  Round trips XML -> puzzle -> XML, .g -> puzzle -> .g and XML <-> .g
run on random triddlers; random pictures must be among the solutions of their own clues.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from _triddler_oracle import brute_force, line_solve, satisfies, solve
from satnono.clues import LineClue
from satnono.errors import ParseError
from satnono.formats import (EXTRA_RULES, TRIDDLER_FORMATS, dumps, load, load_each, loads, output_format, save,
                             unkept_metadata)
from satnono.formats.sniff import sniff
from satnono.formats.jsonfmt import write_lanes
from satnono.formats.triddler import clue_set, read_g, read_xml, write_g, write_xml
from satnono.lanepuzzle import LanePuzzle, clues_of_picture
from satnono.lanes import CLUE_SETS, Rectangle, Triangle
from satnono.palette import BW_PALETTE, Color, default_palette

# ---------------------------------------------------------------------------------------------
# The worked example (webpbn's specification): rows ABCDE, FGHIJK, LMNOP


def _line(*counts: int) -> str:
    return "<line>" + "".join(f"<count>{n}</count>" for n in counts) + "</line>"


EXAMPLE_SETS = {
    "topleft": [(1, 1, 1), (2, 3)], "bottomleft": [(1,)],
    "top": [(3,), (2, 1)], "topright": [(3,)],
    "bottom": [(1,), (2, 1)], "bottomright": [(3,), (2,)],
}


def example_xml(sets: dict[str, list[tuple[int, ...]]] = EXAMPLE_SETS, extra: str = "",
                attrs: str = 'type="triddler"') -> str:
    body = "".join(f'<clues type="{name}">' + "".join(_line(*c) for c in lines) + "</clues>\n"
                   for name, lines in sets.items())
    return f'<?xml version="1.0"?>\n<puzzleset>\n<puzzle {attrs}>\n<title>Example</title>\n{body}{extra}</puzzle>\n</puzzleset>\n'


# The same clues in .g: TopRight and Top list their lines backwards, Bottom and BottomRight
# (the \ lines) read each line from its bottom end.  No closing ':' line.
EXAMPLE_G = """This is webpbn's worked example.
#t
: TopLeft
1 1 1
2 3
: BottomLeft
1
: Bottom
1
1 2
: BottomRight
3
2
: TopRight
3
: Top
2 1
3
"""

LETTERS = "ABCDEFGHIJKLMNOP"


def test_worked_example_reads_the_same_in_both_formats():
    x = read_xml(example_xml(), "example.xml")[0]
    g = read_g(EXAMPLE_G, "example.g")[0]
    assert x.geometry == g.geometry == Triangle.from_sides(2, 1, 2, 2, 1, 2)
    assert x.clues == g.clues and x.palette == g.palette == BW_PALETTE
    assert x.name == "Example" and g.name is None
    for name, lines in EXAMPLE_SETS.items():
        assert [c.lengths for c in clue_set(x, name)] == lines


def test_worked_example_has_one_solution():
    puzzle = read_xml(example_xml(), "example.xml")[0]
    # by hand: rows 1 and 2 are full-ish (1 1 1 in 5, 2 3 in 6), then the lines settle the rest
    black = set("ACEFGIJKN")
    picture = "".join("#" if ch in black else "." for ch in LETTERS)
    assert clues_of_picture(puzzle.geometry, picture) == puzzle.clues
    assert brute_force(puzzle) == [picture]
    assert solve(puzzle, limit=None) == [picture]
    domains = line_solve(puzzle)
    assert domains is not None and all(d in (1, 2) for d in domains)  # line logic settles it


# ---------------------------------------------------------------------------------------------
# Random triddlers


@st.composite
def geometries(draw: st.DrawFn, max_cells: int) -> Triangle:
    a, b, c, d = (draw(st.integers(0, 3)) for _ in range(4))
    e, f = a + b - d, c + d - a
    assume(e >= 0 and f >= 0 and a + b > 0 and f + e > 0 and a + f > 0)
    g = Triangle(a, b, c, d, e, f)
    assume(g.cell_count <= max_cells)
    return g


@st.composite
def pictures(draw: st.DrawFn, max_cells: int, colours: tuple[int, ...]) -> tuple[Triangle, str, tuple[Color, ...]]:
    g = draw(geometries(max_cells))
    k = draw(st.sampled_from(colours))
    palette = default_palette(k)
    cells = "".join(draw(st.lists(st.sampled_from([c.char for c in palette]), min_size=g.cell_count,
                                  max_size=g.cell_count)))
    return g, cells, palette


FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                        HealthCheck.too_slow])


@FAST
@given(pictures(24, (1,)))
def test_a_black_and_white_picture_is_among_its_solutions(case):
    g, cells, palette = case
    puzzle = LanePuzzle.from_picture(g, cells, palette)
    found = brute_force(puzzle)
    assert cells in found
    assert sorted(solve(puzzle, limit=None)) == sorted(found)
    for other in found:
        assert clues_of_picture(g, other, palette) == puzzle.clues


@FAST
@given(pictures(12, (2,)))
def test_a_two_colour_picture_is_among_its_solutions(case):
    g, cells, palette = case
    puzzle = LanePuzzle.from_picture(g, cells, palette)
    found = brute_force(puzzle)
    assert cells in found
    assert sorted(solve(puzzle, limit=None)) == sorted(found)


@FAST
@given(pictures(16, (1, 2)), st.data())
def test_a_changed_clue_loses_the_picture(case, data):
    """The oracles can say no: add a block to one lane's clue and the picture is no solution."""
    g, cells, palette = case
    puzzle = LanePuzzle.from_picture(g, cells, palette)
    i = data.draw(st.integers(0, len(puzzle.clues) - 1))
    clue = puzzle.clues[i]
    changed = LineClue(clue.lengths + (1,), clue.colors + (1,))
    bad = LanePuzzle(g, puzzle.clues[:i] + (changed,) + puzzle.clues[i + 1:], palette)
    assert cells not in brute_force(bad)
    assert cells not in solve(bad, limit=None)


def blot(clue: LineClue, blots: int) -> LineClue:
    """``clue`` with the blocks of ``blots`` blotted (their length the least, 1)."""
    lengths = tuple(1 if blots >> j & 1 else n for j, n in enumerate(clue.lengths))
    return LineClue(lengths, clue.colors, blots)


def test_blotted_clues_in_the_oracles():
    g = Triangle.hexagon(1)
    puzzle = LanePuzzle.from_picture(g, "##.###", keep_goal=False)
    blotted = LanePuzzle(g, tuple(blot(c, (1 << len(c.lengths)) - 1) for c in puzzle.clues))
    found = brute_force(blotted)
    assert "##.###" in found and sorted(solve(blotted, limit=None)) == sorted(found)
    assert len(found) > len(brute_force(puzzle))
    assert satisfies([1, 1, 0, 2], LineClue((5, 1), (1, 2), blots=1)) and not satisfies([1, 0], LineClue((2,), (1,)))


# ---------------------------------------------------------------------------------------------
# Round trips

TEXT = st.text(alphabet="abc XYZ 019 <>&'\"é-", min_size=1, max_size=12)
KEYS = st.sampled_from(["author", "copyright", "description", "license", "my key", "title", "x"])


@st.composite
def triddlers(draw: st.DrawFn, blots: bool = True, extras: bool = True) -> LanePuzzle:
    g, cells, palette = draw(pictures(60, (1, 2, 3)))
    assume(set(cells) >= {c.char for c in palette[1:]} or len(palette) == 2)
    clues = clues_of_picture(g, cells, palette)
    if blots:
        clues = tuple(blot(c, draw(st.integers(0, (1 << len(c.lengths)) - 1))) for c in clues)
    if not extras:
        return LanePuzzle(g, clues, palette)
    name = draw(st.none() | TEXT)
    meta = tuple(draw(st.lists(st.tuples(KEYS, TEXT), max_size=3)))
    goal = draw(st.none() | st.just(cells))
    return LanePuzzle(g, clues, palette, name, meta, goal)


ROUND = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much,
                                                                         HealthCheck.too_slow])


@ROUND
@given(triddlers())
def test_xml_round_trip(puzzle):
    text = write_xml(puzzle)
    again = read_xml(text, "t.xml")[0]
    assert again == puzzle
    assert write_xml(again) == text


@ROUND
@given(triddlers(blots=False, extras=False))
def test_g_round_trip(puzzle):
    text = write_g(puzzle)
    first = read_g(text, "t.g")[0]
    assert first.geometry == puzzle.geometry and first.clues == puzzle.clues
    assert [(c.char, c.rgb) for c in first.palette] == [(c.char, c.rgb) for c in puzzle.palette]
    again = write_g(first)  # (.g names a colour by its spec: a name other than its RGB's common one is lost once)
    assert read_g(again, "t.g")[0] == first and write_g(read_g(again, "t.g")[0]) == again
    assert read_g(text.encode(), "t.g")[0] == first


@ROUND
@given(triddlers(blots=False))
def test_xml_and_g_carry_the_same_triddler(puzzle):
    from_xml = read_xml(write_xml(puzzle), "t.xml")[0]
    via_g = read_g(write_g(from_xml), "t.g")[0]
    assert via_g.geometry == from_xml.geometry and via_g.clues == from_xml.clues
    assert [(c.char, c.rgb) for c in via_g.palette] == [(c.char, c.rgb) for c in from_xml.palette]
    back = read_xml(write_xml(via_g), "t.xml")[0]
    assert back == via_g  # .g's colour names survive XML


@ROUND
@given(triddlers())
def test_json_round_trip(puzzle):
    text = dumps(puzzle, "json")
    [again] = loads(text, source="t.json")
    assert isinstance(again, LanePuzzle) and again.source == "t.json"
    assert again == puzzle.with_source("t.json")
    assert dumps(again, "json") == text and write_lanes(again) == text


@ROUND
@given(triddlers())
def test_xml_and_json_carry_the_same_triddler(puzzle):
    """Blots, names, properties and the goal: everything goes through both ways."""
    [from_xml] = loads(dumps(puzzle, "xml"), source="t.xml")
    [via_json] = loads(dumps(from_xml, "json"), source="t.json")
    [back] = loads(dumps(via_json, "xml"), source="t.xml")
    assert from_xml.source == back.source == "t.xml" and via_json.source == "t.json"
    assert via_json.with_source(None) == from_xml.with_source(None) == puzzle
    assert back == from_xml


@ROUND
@given(triddlers(blots=False))
def test_xml_g_and_json_carry_the_same_clues(puzzle):
    """XML -> .g -> JSON -> XML: .g keeps the outline, the clues and the colours (not the title,
    properties and goal, which unkept_metadata names)."""
    via_g = loads(dumps(loads(dumps(puzzle, "xml"))[0], "g"), source="t.g")[0]
    assert via_g.source == "t.g" and (via_g.geometry, via_g.clues) == (puzzle.geometry, puzzle.clues)
    assert [(c.char, c.rgb) for c in via_g.palette] == [(c.char, c.rgb) for c in puzzle.palette]
    assert via_g.name is None and not via_g.meta and via_g.goal is None
    left = unkept_metadata(puzzle, "g")
    assert ("the title" in left) == (puzzle.name is not None) and ("the goal picture" in left) == bool(puzzle.goal)
    assert len(left) == (puzzle.name is not None) + len(puzzle.meta) + (puzzle.goal is not None)
    assert unkept_metadata(puzzle, "xml") == unkept_metadata(puzzle, "json") == []
    via_json = loads(dumps(via_g, "json"))[0]
    assert via_json.with_source(None) == via_g.with_source(None)
    back = loads(dumps(via_json, "xml"))[0]
    assert back.with_source(None) == via_g.with_source(None)
    assert dumps(back, "g") == dumps(via_g, "g")


def test_g_writes_each_group_in_olsaks_order():
    puzzle = read_xml(example_xml(), "example.xml")[0]
    text = write_g(puzzle)
    assert text.startswith("#t\n") and text.endswith(": end\n")
    body = [line for line in text.splitlines()[1:]]
    assert body[:-1] == [line for line in EXAMPLE_G.splitlines()[2:]]


# ---------------------------------------------------------------------------------------------
# Reading details


def test_number_loom_style_xml():
    """number-loom writes defaultcolor="white", a space for white and color= on every count."""
    xml = """<?xml version="1.0"?>
<puzzleset><puzzle type="triddler" defaultcolor="white">
<color name="white" char=" ">FFFFFF</color><color name="black" char="#">000000</color>
<clues type="topleft"><line><count color="black">1</count></line></clues>
<clues type="top"></clues>
<clues type="topright"><line><count color="black">1</count></line></clues>
<clues type="bottom"><line><count color="black">1</count></line></clues>
<clues type="bottomright"/>
<solution type="goal"><image>
/#\\
</image></solution>
</puzzle></puzzleset>"""
    puzzle = read_xml(xml, "nl.xml")[0]
    assert puzzle.geometry == Triangle.triangle(1) and puzzle.palette == BW_PALETTE and puzzle.goal == "#"
    assert [c.lengths for c in puzzle.clues] == [(1,), (1,), (1,)]


def test_goal_image_with_spaces_as_cells_and_a_derived_geometry():
    g = Triangle.hexagon(1)
    image = "\n".join(g.text_rows("X X  X"))
    xml = f"""<puzzleset><puzzle type="triddler"><color name="white" char=" ">fff</color>
<color name="black" char="X">000</color><solution><image>
  {image}
</image></solution></puzzle></puzzleset>"""
    puzzle = read_xml(xml, "img.xml")[0]
    assert puzzle.geometry == g and puzzle.goal == "#.#..#"
    assert puzzle.clues == clues_of_picture(g, "#.#..#")
    assert read_xml(write_xml(puzzle), "again.xml")[0] == puzzle


def test_blotted_counts_in_xml():
    sets = dict(EXAMPLE_SETS, topleft=[(0, 1, 1), (2, 3)])
    puzzle = read_xml(example_xml(sets), "b.xml")[0]
    assert puzzle.clues[0] == LineClue((1, 1, 1), (1, 1, 1), blots=1)
    assert "<line><count>0</count><count>1</count><count>1</count></line>" in write_xml(puzzle)
    with pytest.raises(ValueError, match="cannot hold blotted clues .row 1 has one.") as info:
        write_g(puzzle)
    assert "\n" not in str(info.value)


def test_colour_g_file():
    text = """bees, small
#T
#d
  1:*  #B39D5A  gold-ish
  g:g  #CCFFFF  light green
  6:   gray     outside (XPM)
: A
1 1g
: B
: C
1g
: D
: E
1g 1
: F
:
"""
    puzzle = read_g(text, "c.g")[0]
    assert puzzle.geometry == Triangle.triangle(1)
    assert [(c.name, c.char, c.rgb) for c in puzzle.palette] == [
        ("white", ".", (255, 255, 255)), ("#b39d5a", "*", (0xB3, 0x9D, 0x5A)), ("#ccffff", "g", (0xCC, 0xFF, 0xFF))]
    # A's row and E's / line read as written; C's \\ line is read from its bottom end in .g
    assert puzzle.clues == (LineClue((1, 1), (1, 2)), LineClue((1, 1), (2, 1)), LineClue((1,), (2,)))
    assert read_g(write_g(puzzle), "c2.g")[0] == puzzle


def test_g_without_the_closing_line():
    # a parallelogram: Top needs F = C + D - A = 2 lines, the file ends after one (an empty clue
    # follows); blank lines after the last group are no clues
    text = "#t\n: A\n1\n: B\n: C\n1\n1\n: D\n1\n: E\n: F\n1"
    for ending in ("", "\n", "\n\n\n"):
        puzzle = read_g(text + ending, "t.g")[0]
        assert puzzle.geometry == Triangle.parallelogram(1, 2)
        assert [c.lengths for c in clue_set(puzzle, "top")] == [(), (1,)]  # Top lists its lines backwards


# ---------------------------------------------------------------------------------------------
# Errors: one line, naming the file and the line


def _error(reader, text, source):
    with pytest.raises(ParseError) as info:
        reader(text, source)
    message = str(info.value)
    assert "\n" not in message and message.startswith(source)
    return message


XML_ERRORS = [
    ("<puzzleset><puzzle type='triddler'>", r"t\.xml:1: malformed XML"),
    (example_xml(attrs='type="grid"'), r"t\.xml:3: a puzzle of type 'grid', not a triddler"),
    (example_xml(dict(EXAMPLE_SETS, rows=[(1,)])), r"t\.xml:\d+: a triddler's <clues> type is one of"),
    (example_xml(dict(EXAMPLE_SETS, topright=[(3,), (1,)])), r"t\.xml:3: the clue sets .* make no hexagon"),
    (example_xml({}), r"t\.xml:3: a triddler needs its <clues> sets"),
    (example_xml(extra='<clues type="top"></clues>'), r"t\.xml:\d+: a second <clues type='top'>"),
    (example_xml(extra="<solution><image>/.X...\\ \\......\\ \\...../</image></solution>"),
     r"t\.xml:\d+: goal image row 2 must be written /\.\.\./"),
    (example_xml(extra="<solution><image>/.X...\\ /...../ \\...../</image></solution>"),
     r"t\.xml:\d+: goal image row 2 has 5 cells, the outline 6"),
    (example_xml(extra="<solution><image>/.X...\\ /.....X/</image></solution>"),
     r"t\.xml:\d+: the goal image has 2 rows, the clues 3"),
    (example_xml(extra="<solution><image>/.Q...\\ /......X/ \\...../</image></solution>"),
     r"t\.xml:\d+: goal image uses undeclared character 'Q'"),
    (example_xml(extra="<solution><image>x/.X...\\</image></solution>"), r"t\.xml:\d+: goal image has 'x' outside"),
    (example_xml(extra="<solution><image>/.X...</image></solution>"), r"t\.xml:\d+: goal image row 1 has no closing"),
    (example_xml(extra="<solution></solution>"), r"t\.xml:\d+: <solution> without an <image>"),
    ("<puzzleset></puzzleset>", r"t\.xml:1: no <puzzle> element"),
    ("<nonogram/>", r"t\.xml:1: expected a <puzzleset> root"),
]


@pytest.mark.parametrize("text, pattern", XML_ERRORS)
def test_xml_errors(text, pattern):
    assert re.match(pattern, _error(read_xml, text, "t.xml"))


def test_xml_error_lines_point_at_the_element():
    text = example_xml(extra="<solution><image>/.X...\\ /...../ \\...../</image></solution>")
    lineno = next(i for i, line in enumerate(text.splitlines(), 1) if "<image>" in line)
    assert _error(read_xml, text, "t.xml").startswith(f"t.xml:{lineno}:")
    bad = example_xml().replace("<count>2</count><count>3</count>", "<count>2</count><count>x</count>")
    lineno = next(i for i, line in enumerate(bad.splitlines(), 1) if ">x<" in line)
    assert re.match(rf"t\.xml:{lineno}: block length should be a whole number", _error(read_xml, bad, "t.xml"))


G_ERRORS = [
    ("", r"t\.g: empty file"),
    (EXAMPLE_G.replace("#t\n", ""), r"t\.g:2: not a triddler: no '#t' line"),
    ("#t\n: A\n1\n: B\n: C\n", r"t\.g:5: a triddler has six groups"),
    (EXAMPLE_G.replace(": TopRight\n3\n", ": TopRight\n3\n3\n"), r"t\.g:14: the groups of 2, 1, 2, 2 and 2 lines"),
    (EXAMPLE_G + "\n4\n", r"t\.g:20: the Top group has 2 lines .F = C \+ D - A.; this one is more"),
    (EXAMPLE_G.replace("2 1\n3\n", "2 1\n: end\n"), r"t\.g:18: the Top group has 1 lines before the closing"),
    (EXAMPLE_G.replace("2 3\n", "2 3x4\n"), r"t\.g:5: a block is a length and one colour letter"),
    (EXAMPLE_G.replace("2 3\n", "2 ?\n"), r"t\.g:5: a blotted clue \('\?'\) cannot be written in this format"),
    (EXAMPLE_G.replace("2 3\n", "2 3r\n"), r"t\.g:5: a number without a colour letter|t\.g:5: colour 'r' is not"),
    ("#t\n#d\n a:a #00ff00\n" + EXAMPLE_G.split("#t\n")[1], r"t\.g:\d+: a number without a colour letter"),
    ("#t\n#d\n a:a nocolour\n" + EXAMPLE_G.split("#t\n")[1], r"t\.g:3: unknown colour name 'nocolour'"),
    ("#t\n#d\n a:a red\n a:b blue\n:", r"t\.g:4: colour 'a' declared twice"),
]


@pytest.mark.parametrize("text, pattern", G_ERRORS)
def test_g_errors(text, pattern):
    assert re.match(pattern, _error(read_g, text, "t.g")), _error(read_g, text, "t.g")


def test_bad_bytes_and_puzzles():
    _error(read_g, b"#t\n: A\n\xff\xfe\x00\n", "bin.g")
    g = Triangle.hexagon(1)
    for kwargs, message in [({"clues": ()}, "6 lanes but 0 clues"),
                            ({"clues": (LineClue((1,), (2,)),) * 6}, "outside the palette"),
                            ({"clues": (LineClue((2,), (1,), blots=1),) * 6}, "a blotted length is written 1"),
                            ({"clues": (LineClue((1,), (1,), blots=2),) * 6}, "blots name a block it does not"),
                            ({"clues": (LineClue((), ()),) * 6, "goal": "#"}, "the goal has 1 cells"),
                            ({"clues": (LineClue((), ()),) * 6, "goal": "#...x."}, "the character 'x'")]:
        with pytest.raises(ValueError, match=message):
            LanePuzzle(g, **kwargs)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="control character"):
        write_xml(LanePuzzle.from_picture(g, "......", name="a\x01b"))
    square = LanePuzzle.from_picture(Rectangle(1, 2), "#.")
    for writer, who in ((write_xml, "the triddler XML writer"), (write_g, "the .g writer"),
                        (lambda p: clue_set(p, "top"), "clue_set")):
        with pytest.raises(ValueError) as info:
            writer(square)
        assert str(info.value) == f"{who} takes triddlers only (a triangle geometry); this puzzle's geometry " \
                                  f"is 'rectangle'"


def test_with_source_is_a_copy_with_the_source_set():
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", name="six")
    q = p.with_source("six.xml#2")
    assert q.source == "six.xml#2" and p.source is None and q.replace(source=None) == p
    assert CLUE_SETS == ("topleft", "bottomleft", "top", "topright", "bottom", "bottomright")


# ---------------------------------------------------------------------------------------------
# Through satnono.formats: the format told from the content, sources, several puzzles, rules


GRID_XML = ('<puzzle><clues type="rows"><line><count>1</count></line></clues>'
            '<clues type="columns"><line><count>1</count></line></clues></puzzle>')


def _example() -> LanePuzzle:
    return read_xml(example_xml(), "example.xml")[0]


@pytest.mark.parametrize("fmt", ["xml", "g", "json"])
def test_loads_tells_each_format_and_sets_the_source(tmp_path, fmt):
    puzzle = _example()
    text = dumps(puzzle, fmt)
    assert sniff(text) == fmt
    for source in (f"t.{fmt}", "t.dat", None):  # by content: the suffix, or none, changes nothing
        [got] = loads(text, source=source)
        assert isinstance(got, LanePuzzle) and got.source == source
        assert (got.geometry, got.clues) == (puzzle.geometry, puzzle.clues)
    path = tmp_path / f"one.{fmt}"
    path.write_text(text)
    assert load(str(path)).source == str(path) and load(str(path), fmt).source == str(path)
    assert [p.source for p in load_each(str(path))] == [str(path)]


def test_the_public_example_shapes_are_told_from_their_content():
    """number-loom's .g has a free-text first line and no closing ':' line; its XML writes a
    space for white and a colour on every count."""
    assert sniff(EXAMPLE_G) == "g" and loads(EXAMPLE_G)[0].clues == _example().clues
    loom = ('<?xml version="1.0"?>\n<puzzleset><puzzle type="triddler" defaultcolor="white">'
            '<color name="white" char=" ">FFFFFF</color><color name="black" char="#">000000</color>'
            '<clues type="topleft"><line><count color="black">1</count></line></clues>'
            '<clues type="topright"><line><count color="black">1</count></line></clues>'
            '<clues type="bottom"><line><count color="black">1</count></line></clues></puzzle></puzzleset>')
    assert loads(loom, source="loom.xml")[0].geometry == Triangle.triangle(1)


def test_several_puzzles_have_sources_with_their_number(tmp_path):
    two = dumps(_example(), "xml").replace("</puzzle>\n</puzzleset>",
                                            "</puzzle>\n" + GRID_XML + "\n" + dumps(_example(), "xml").split(
                                                "<puzzleset>\n")[1])
    got = loads(two, source="s.xml")
    assert [(type(p).__name__, p.source) for p in got] == [
        ("LanePuzzle", "s.xml#1"), ("Puzzle", "s.xml#2"), ("LanePuzzle", "s.xml#3")]
    assert got[0].name == "Example" and got[1].rows == ((1,),)
    listed = "[" + dumps(_example(), "json") + ", " + '{"rows": [[1]], "columns": [[1]]}' + "]"
    got = loads(listed, source="s.json")
    assert [(type(p).__name__, p.source) for p in got] == [("LanePuzzle", "s.json#1"), ("Puzzle", "s.json#2")]
    path = tmp_path / "s.xml"
    path.write_text(two)
    picked = load(f"{path}#3")
    assert isinstance(picked, LanePuzzle) and picked.source == f"{path}#3"
    assert [p.source for p in load_each(f"{path}#2")] == [f"{path}#2"]


def test_extra_rules_without_meaning_on_a_triangle_refuse_a_triddler_in_one_line(tmp_path):
    from satnono.rules import rule_from_json

    path = tmp_path / "s.xml"
    path.write_text(dumps(_example(), "xml").replace("</puzzle>\n</puzzleset>", "</puzzle>\n" + GRID_XML
                                                     + "\n</puzzleset>"))
    single = tmp_path / "t.g"
    single.write_text(EXAMPLE_G)
    token = EXTRA_RULES.set((rule_from_json({"rule": "no-square"}),))
    try:
        first, grid = load_each(str(path))
        [alone] = load_each(str(single))
        [picked] = load_each(f"{path}#1")
    finally:
        EXTRA_RULES.reset(token)
    for item, where in ((first, f"{path}#1"), (alone, str(single)), (picked, f"{path}#1")):
        assert isinstance(item, ParseError)
        assert str(item) == f"{where}: rule no-square: 2x2 squares have no meaning on a triangle geometry"
    assert not isinstance(grid, ParseError) and len(grid.rules) == 1


def test_writing_a_triddler_in_a_format_that_cannot_hold_one():
    puzzle = _example()
    for fmt in ("non", "nin", "pbm", "png", "picross"):
        with pytest.raises(ValueError) as info:
            dumps(puzzle, fmt)
        assert str(info.value) == (f"the {fmt} format cannot hold a triddler; the formats that hold one: "
                                   "xml (.xml, .pbn), g (.g), json (.json)")
    with pytest.raises(ValueError, match="unknown format 'nonsense'"):
        dumps(puzzle, "nonsense")
    assert TRIDDLER_FORMATS == ("xml", "g", "json")
    blotted = puzzle.replace(clues=(puzzle.clues[0]._replace(lengths=(1, 1, 1), blots=1),) + puzzle.clues[1:])
    with pytest.raises(ValueError, match=r"^the g format cannot hold blotted clues \(row 1 has one\); write the "
                                         r"triddler as xml or json$"):
        dumps(blotted, "g")


def test_g_is_written_for_triddlers_only(tmp_path):
    assert output_format("out.g") == output_format("out.G") == output_format("x", "g") == "g"
    grid = loads("width 1\nheight 1\nrows\n1\ncolumns\n1\n")[0]
    with pytest.raises(ValueError) as info:
        dumps(grid, "g")
    message = str(info.value)
    assert message.startswith("satnono writes .g for triddlers only") and "\n" not in message
    assert "non (.non, .nonpack)" in message
    with pytest.raises(ValueError, match="for triddlers only"):
        save(grid, str(tmp_path / "grid.g"))
    assert not (tmp_path / "grid.g").exists()
    save(_example(), str(tmp_path / "t.g"))
    assert (tmp_path / "t.g").read_text() == write_g(_example())


def test_convert_writes_a_triddler_in_g_and_says_what_it_leaves_out(tmp_path):
    from click.testing import CliRunner

    from satnono.cli import cli

    source = tmp_path / "t.xml"
    source.write_text(dumps(_example().replace(goal="#.#.#" "##.###" "..#.."), "xml"))
    r = CliRunner().invoke(cli, ["convert", str(source), str(tmp_path / "t.g")])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "t.g").read_text() == write_g(_example())
    [note] = r.stderr.strip().splitlines()
    assert "the g format cannot hold the title and the goal picture" in note
    grid = tmp_path / "grid.non"
    grid.write_text("width 1\nheight 1\nrows\n1\ncolumns\n1\n")
    r = CliRunner().invoke(cli, ["convert", str(grid), str(tmp_path / "grid.g")])
    assert r.exit_code != 0 and not (tmp_path / "grid.g").exists() and "Traceback" not in r.output
    [line] = r.output.strip().splitlines()
    assert "satnono writes .g for triddlers only" in line
    assert unkept_metadata(_example(), "g") == ["the title"]


# ---------------------------------------------------------------------------------------------
# The JSON form


def test_the_json_form_of_the_worked_example():
    text = """{
      "title": "Example", "author": "Jan",
      "geometry": {"kind": "triangle", "topleft": 2, "bottomleft": 1, "bottom": 2,
                   "bottomright": 2, "topright": 1, "top": 2},
      "clues": [[1, 1, 1], "2 3", 1, [3], [2, 1], [3], [1], "2,1", [3], [2]],
      "goal": "#.#.###.###..#.."
    }"""
    [puzzle] = loads(text, source="ex.json")
    assert (puzzle.geometry, puzzle.clues) == (_example().geometry, _example().clues)
    assert puzzle.name == "Example" and puzzle.meta == (("author", "Jan"),) and puzzle.source == "ex.json"
    assert puzzle.goal == "".join("#" if ch in "ACEFGIJKN" else "." for ch in LETTERS)  # cell order
    assert puzzle.breaks(puzzle.goal) is None
    derived = loads(text.replace('"clues": [[1, 1, 1], "2 3", 1, [3], [2, 1], [3], [1], "2,1", [3], [2]],', ""))[0]
    assert derived.clues == puzzle.clues and derived.goal == puzzle.goal  # no clues: the goal's


def test_json_colours_and_blots_on_a_triddler():
    text = json.dumps({
        "geometry": Triangle.hexagon(1).as_json(),
        "colors": {"r": {"name": "red", "rgb": "#ff0000"}, "b": "blue"},
        "clues": [[[1, "r"], [1, "b"]], ["?r"], [["?", "b"]], "1b 1r", [], [1, [1, 2]]],
    })
    [puzzle] = loads(text)
    assert [c.name for c in puzzle.palette] == ["white", "red", "blue"]
    assert puzzle.clues[:6] == (LineClue((1, 1), (1, 2)), LineClue((1,), (1,), 1), LineClue((1,), (2,), 1),
                                LineClue((1, 1), (2, 1)), LineClue((), ()), LineClue((1, 1), (1, 2)))


def test_a_rectangle_in_the_geometry_form_is_a_grid():
    plain = loads('{"rows": [[1], []], "columns": [[1], []], "goal": ["#.", ".."], "title": "t"}')[0]
    form = loads('{"geometry": {"kind": "rectangle", "height": 2, "width": 2}, "clues": [[1], [], [1], []],'
                 ' "goal": "#...", "title": "t", "givens": [[0, 0, "#"]]}')[0]
    assert form == plain.replace(givens=((0, 0, 1),))
    colour = loads('{"geometry": {"kind": "rectangle", "height": 1, "width": 2}, "colors": {"r": "red"},'
                   ' "clues": [["1r"], ["1r"], []], "goal": "r."}')[0]
    assert colour.rows == ((1,),) and colour.goal == ("r.",) and colour.palette[1].name == "red"


JSON_ERRORS = [
    ('{"geometry": "triangle", "clues": []}', r'geometry: expected an object like \{"kind": "triangle"'),
    ('{"geometry": {"kind": "hexagon"}}', r"geometry: unknown geometry kind 'hexagon'"),
    ('{"geometry": {"kind": "triangle", "topleft": 1}}', r"geometry: a triangle geometry needs 'bottomleft'"),
    ('{"geometry": {"kind": "triangle", "topleft": 1, "bottomleft": 1, "bottom": 1, "bottomright": 1,'
     ' "topright": 1, "top": 9}}', r"geometry: the sides 1 1 1 1 1 9 .* do not close a hexagon"),
    ('{"geometry": %s, "clues": [[1], [1]]}', r"clues: the triangle has 3 lanes, so 3 clues; got 2"),
    ('{"geometry": %s, "clues": [[1], [1], [1.5]]}', r"clues\[2\]\[0\]: expected a whole number, got 1\.5"),
    ('{"geometry": %s, "clues": [[1], [1], {"a": 1}]}', r"clues\[2\]: expected a list of block lengths"),
    ('{"geometry": %s, "colors": {"r": "red"}, "clues": [[1], [1], [[1, "g"]]]}',
     r"clues\[2\]: colour 'g' is not in the palette"),
    ('{"geometry": %s, "goal": "##"}', r"goal: has 2 cells, the triangle 1"),
    ('{"geometry": %s, "goal": ["#"]}', r"goal: expected one string, a character per cell"),
    ('{"geometry": %s, "colors": {"r": "red"}, "goal": "q"}', r"goal: unexpected character 'q'"),
    ('{"geometry": %s}', r"clues: missing \(and no goal\)"),
    ('{"geometry": %s, "rows": [[1]], "clues": [[1], [1], [1]]}', r"rows: a puzzle with a 'geometry' has one clue"),
    ('{"geometry": %s, "clues": [[1], [1], [1]], "rules": [{"rule": "no-square"}]}',
     r"rules\[0\]: rule no-square: 2x2 squares have no meaning on a triangle geometry"),
    ('{"geometry": %s, "clues": [[1], [1], [1]], "givens": [[1, "#"]]}',
     r"givens\[0\]: cell 1 is outside the triangle's 1 cells \(0\.\.0\)"),
    ('[{"rows": [[1]], "columns": [[1]]}, {"geometry": %s, "clues": [[1], [1]]}]', r"\[1\]\.clues: the triangle has 3"),
    ('{"geometry": {"kind": "triangle", "topleft": 99999, "bottomleft": 0, "bottom": 99999, "bottomright": 0,'
     ' "topright": 99999, "top": 0}}', r"a triddler of sides .* is too large"),
]


@pytest.mark.parametrize("text, pattern", JSON_ERRORS)
def test_json_errors_name_the_key_and_index(text, pattern):
    if "%s" in text:
        text = text % json.dumps(Triangle.triangle(1).as_json())
    with pytest.raises(ParseError) as info:
        loads(text, source="t.json")
    message = str(info.value)
    assert "\n" not in message and message.startswith("t.json: ")
    assert re.search(pattern, message), message


BAD_IMAGE = example_xml(extra="<solution><image>/.X...\\ /...../ \\...../</image></solution>")


@pytest.mark.parametrize("fmt, text, line, start", [
    ("xml", BAD_IMAGE, next(i for i, x in enumerate(BAD_IMAGE.splitlines(), 1) if "<image>" in x),
     "goal image row 2 has 5 cells"),
    ("g", EXAMPLE_G.replace("2 3\n", "2 3x4\n"), 5, "a block is a length"),
    ("json", '{"geometry": {"kind": "triangle"},\n "clues": [}', 2, "malformed JSON"),
])
def test_errors_through_loads_name_the_file_and_line(tmp_path, fmt, text, line, start):
    path = tmp_path / f"t.{fmt}"
    path.write_text(text)
    for source, read in ((f"t.{fmt}", lambda: loads(text, source=f"t.{fmt}")),
                         ("t.dat", lambda: loads(text, fmt, "t.dat")), (str(path), lambda: load(str(path)))):
        with pytest.raises(ParseError) as info:
            read()
        message = str(info.value)
        assert "\n" not in message and message.startswith(f"{source}:{line}: {start}"), message
