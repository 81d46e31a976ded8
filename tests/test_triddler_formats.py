"""satnono.formats.triddler: triddlers in webpbn XML and Olšák .g, and the test oracles.

The worked example of webpbn's specification is written here in both formats (by hand, from
the clue numbers of the specification) and must read to the same triddler, whose one
solution the oracles find.  Round trips XML -> puzzle -> XML, .g -> puzzle -> .g and XML <-> .g
run on random triddlers; random pictures must be among the solutions of their own clues.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from _triddler_oracle import brute_force, line_solve, satisfies, solve
from satnono.clues import LineClue
from satnono.errors import ParseError
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
    again = write_g(first)  # (.g names a colour by its puzzle: a name other than its RGB's common one is lost once)
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
