"""Files of other solvers: pynogram's INI-like text, nonogrid's TOML, picross-solver's GRID
text, 0/1 pictures; and telling formats apart by content (the suffix only breaks ties).

The example files under tests/data/peers are the peers' own (see the README there).
Generated files are checked against the clues of random grids (``Puzzle.from_grid``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from satnono.cli import main
from satnono.errors import ParseError
from satnono.formats import dumps, load, load_all, loads
from satnono.formats.sniff import sniff
from satnono.model import Puzzle
from satnono.solve import check

PEERS = Path(__file__).parent / "data" / "peers"

HELLO = [  # "Hello!" as drawn in the comments of pynogram's and nonogrid's hello files
    "#.....#...........#.#.....#",
    "#.....#...........#.#.....#",
    "#.....#....##.....#.#.....#",
]


def test_pynogram_and_nonogrid_examples_agree():
    for name in ("hello", "MLP"):
        a = load(str(PEERS / f"pynogram-{name}.txt"))
        b = load(str(PEERS / f"nonogrid-{name}.toml"))
        assert a.rows == b.rows and a.columns == b.columns
    hello = load(str(PEERS / "pynogram-hello.txt"))
    assert (hello.width, hello.height) == (22, 7)
    assert hello.columns[:6] == ((7,), (1,), (1,), (1,), (7,), ())  # 'H'
    assert hello.columns[6:11] == ((3,), (1, 1, 1), (1, 1, 1), (2,), ())  # 'e', items quoted or not
    assert hello.rows[0] == (1, 1, 1)  # the first item on the 'rows =' line itself
    res = check(hello)
    assert res.status.value == "unique" and hello.is_solution(res.solutions[0])


def test_pynogram_p_letter_matches_its_picture():
    p = load(str(PEERS / "pynogram-p.txt"))
    assert (p.width, p.height) == (8, 11)
    assert p.rows[0] == () and p.rows[1] == (4,) and p.columns[3] == (2, 2)
    solution = check(p).solutions[0]
    assert solution[2] == ".######."


def test_colour_files_read_in_colour():
    """pynogram's and nonogrid's UK flag: red and blue from their [colors] sections, the same puzzle."""
    a = load(str(PEERS / "pynogram-uk.txt"))
    b = load(str(PEERS / "nonogrid-UK.toml"))
    assert a.is_color and a == b.with_source(a.source)
    assert [(c.name, c.char, c.hex) for c in a.palette] == [
        ("white", ".", "#ffffff"), ("red", "%", "#ff0000"), ("blue", "*", "#0000ff")]
    assert a.column_blocks(0) == ((1, 1), (5, 2), (3, 1), (5, 2), (1, 1))
    res = check(a)
    assert res.status.value == "unique" and res.line_solvable
    assert res.solutions[0][0] == "%%%***********%%%***********%%%"


@pytest.mark.parametrize("text, fragment, line", [
    ("[colors]\nr = (nosuchcolour) %\n[clues]\ncolumns = 1r 1\nrows = 1r, 1\n", "unknown colour name", 2),
    ("[colors]\nr = (256, 0, 0) %\n[clues]\ncolumns = 1r 1\nrows = 1r, 1\n", "0..255", 2),
    ("[colors]\nr = (red) %\n[clues]\ncolumns = 1r 1\nrows = 1g, 1\n", "'g' is not defined", 5),
])
def test_colour_definition_errors(text, fragment, line):
    with pytest.raises(ParseError) as e:
        loads(text, "pynogram", source="x.txt")
    assert fragment in e.value.message, e.value.message
    assert e.value.line == line


def test_colour_triples_and_hex():
    text = ("[colors]\ng = (0, 255, 0) *\nr = (FF0000) &\n[clues]\n"
            "columns = 1g, 1r\nrows = 1g 1r\n")
    p = loads(text, "pynogram", source="x.txt")[0]
    assert [(c.char, c.rgb) for c in p.palette[1:]] == [("*", (0, 255, 0)), ("&", (255, 0, 0))]
    assert check(p).solutions == (("*&",),)


def test_picross_solver_files():
    puzzles = load_all(str(PEERS / "picross-example_input.txt"))
    assert [p.name for p in puzzles] == ["Fish", "Two Notes"]
    fish = puzzles[0]
    assert (fish.width, fish.height) == (22, 20) and fish.rows[0] == () and fish.rows[2] == (2, 1, 3)
    assert check(fish).status.value == "unique"
    dom = load_all(str(PEERS / "picross-domino_logic.txt"))
    assert [p.name for p in dom][:2] == ["3-Dom", "4-Dom"]
    assert all(check(p).status.value == "unique" for p in dom[:3])
    with pytest.raises(ParseError, match="unexpected 'GRILL'") as e:
        load_all(str(PEERS / "picross-invalid_input.txt"))
    assert e.value.line == 105


@pytest.mark.parametrize("text, fragment, line", [
    ("GRID a\n[ 1 ]\n", "outside a ROWS or COLUMNS", 2),
    ("GRID a\nROWS\n[ 1 ]\n", "no COLUMNS", 1),
    ("GRID a\nROWS\n[ 1 x ]\nCOLUMNS\n[ 1 ]\n", "whole number", 3),
    ("GRID a\nROWS\n[ 1\nCOLUMNS\n[ 1 ]\n", "[ n n ... ]", 3),
    ("GRID a\nROWS\n[ 1 ]\nROWS\n", "twice", 4),
    ("GRID a\nROWS\nCOLUMNS\n", "no cells", 1),
])
def test_picross_errors(text, fragment, line):
    with pytest.raises(ParseError) as e:
        loads(text, source="x.txt")
    assert fragment in e.value.message and e.value.line == line


@pytest.mark.parametrize("text, fragment, line", [
    ("[clues]\ncolumns = 1\n", "no 'rows ='", 2),  # the end of the file
    ("[clues]\ncolumns = 1\nrows = 1 x\n", "number with an optional colour", 3),
    ("[clues]\ncolumns = '1\nrows = 1\n", "unbalanced quote", 2),
    ("columns = 1\n[clues]\n", "before any [section]", 1),
    ("[clues]\ncolumns = 1\ncolumns = 1\n", "twice", 3),
    ("[clues]\ncolumns = 1\nrows = 99999999999\n", "too large", 3),
    ("[colors]\nr = red\n[clues]\ncolumns = 1\nrows = 1\n", "NAME = (DESCRIPTION) CHAR", 2),
    ("[clues]\ncolumns = 1\nrows = 1r\n", "colour", 3),
])
def test_pynogram_errors(text, fragment, line):
    with pytest.raises(ParseError) as e:
        loads(text, "pynogram", source="x.txt")
    assert fragment in e.value.message, e.value.message
    assert e.value.line == line


@pytest.mark.parametrize("text, fragment", [
    ('[clues]\ncolumns = "1"\nrows = [1, [2]]\n', "string of clues"),
    ('[clues]\ncolumns = """\n1\n', "invalid TOML"),
    ('[colors]\ndefs = "x"\n[clues]\ncolumns = "1"\nrows = "1"\n', "array of strings"),
    ('title = "x"\n', "no [clues]"),
])
def test_nonogrid_errors(text, fragment):
    with pytest.raises(ParseError, match=re.escape(fragment)):
        loads(text, "nonogrid", source="x.toml")


# ---------------------------------------------------------------------------- generated files

grids = st.integers(1, 7).flatmap(lambda w: st.lists(
    st.text(alphabet="#.", min_size=w, max_size=w), min_size=1, max_size=7))


def _pynogram_text(p: Puzzle, draw) -> str:
    def item(c, k):
        body = " ".join(map(str, c)) or draw(st.sampled_from(["0", "''"]))
        quote = draw(st.sampled_from(["", "'", '"'])) if c else ""
        return f"{quote}{body}{quote}"

    def value(clues):
        out, line = [], []
        for k, c in enumerate(clues):
            line.append(item(c, k))
            if draw(st.booleans()):
                out.append(", ".join(line) + draw(st.sampled_from(["", ",", "  # note", " ; note"])))
                line = []
                if draw(st.booleans()):
                    out.append("")  # a blank separator
        if line:
            out.append(", ".join(line))
        first = out.pop(0) if draw(st.booleans()) else ""
        return first + "\n" + "".join(f"    {x}\n" for x in out)

    return ("# generated\n[colors]\n\n[clues]\n"
            f"columns = {value(p.columns)}\n# between\nrows ={value(p.rows)}")


@settings(max_examples=60, deadline=None)
@given(grid=grids, data=st.data())
def test_pynogram_round_trip(grid, data):
    p = Puzzle.from_grid(grid)
    text = _pynogram_text(p, data.draw)
    [q] = loads(text, source="gen.txt")  # sniffed from content, whatever the suffix says
    assert (q.rows, q.columns) == (p.rows, p.columns), text
    toml = ('[clues]\ncolumns = """\n' + "\n".join(" ".join(map(str, c)) or "0" for c in p.columns)
            + '\n"""\nrows = "' + ", ".join(" ".join(map(str, c)) or "0" for c in p.rows) + '"\n')
    [r] = loads(toml, source="gen.non")
    assert (r.rows, r.columns) == (p.rows, p.columns), toml


@settings(max_examples=60, deadline=None)
@given(grid=grids)
def test_picross_round_trip(grid):
    p = Puzzle.from_grid(grid, name="gen")
    text = dumps(p, "picross")
    assert sniff(text) == "picross"
    [q] = loads(text)
    assert (q.rows, q.columns, q.name) == (p.rows, p.columns, "gen")


@settings(max_examples=60, deadline=None)
@given(grid=grids, spaced=st.booleans())
@example(grid=[".#", ".#", "..", ".."], spaced=False)  # also a valid .cwd file (1x1, empty clues)
def test_01_pictures(grid, spaced):
    sep = " " if spaced else ""
    text = "\n".join(sep.join("1" if ch == "#" else "0" for ch in row) for row in grid) + "\n"
    [q] = loads(text, source="pic.cwd")
    p = Puzzle.from_grid(grid)
    if len(grid) >= 2 and len(grid[0]) >= 2:  # a rectangle of 0/1 digits is a picture, whatever the suffix
        assert q.goal == p.goal
    [r] = loads(text, "txt")
    assert r.goal == p.goal


# ---------------------------------------------------------------------------- telling formats apart


def test_content_decides_and_the_suffix_breaks_ties(tmp_path):
    nin = "2 2\n1\n1\n1\n1\n"
    f = tmp_path / "renamed.mk"  # a .nin file given the .mk suffix
    f.write_text(nin)
    assert load(str(f)).rows == ((1,), (1,))
    g = tmp_path / "hello.non"  # pynogram's file under a misleading suffix
    g.write_text((PEERS / "pynogram-hello.txt").read_text())
    assert load(str(g)).width == 22
    pic = tmp_path / "pic.txt"
    pic.write_text("0010110\n0101001\n1110001\n")
    assert load(str(pic)).goal == ("..#.##.", ".#.#..#", "###...#")
    assert sniff("1\n1\n1\n\n1\n", "cwd") == "cwd"  # a real tie: the suffix decides


@pytest.mark.parametrize("text", ["hello world\n", "= = =\n", "\x01\x02\n"])
def test_cannot_tell_names_the_file_and_what_was_tried(text):
    with pytest.raises(ParseError) as e:
        loads(text, source="mystery.dat")
    msg = str(e.value)
    assert msg.startswith("mystery.dat: cannot tell the format of mystery.dat (tried: ")
    assert "-f/--format" in msg and "\n" not in msg


def test_several_plausible_readers_all_failing_are_named():
    with pytest.raises(ParseError) as e:
        loads("2 2\n1\n1\n", source="short.dat")
    msg = e.value.message
    assert msg.startswith("cannot tell the format of short.dat: not nin (") and "not mk (" in msg


def test_format_option_forces_a_reader(tmp_path, capsys):
    f = tmp_path / "p.txt"
    f.write_text("1\n1\n1\n1\n")  # a 1x1 cwd puzzle, or a one-column picture
    assert main(["check", "-f", "txt", str(f)]) == 0
    assert "unique" in capsys.readouterr().out
    assert load(str(f), "txt").goal == ("#", "#", "#", "#")
    assert load(str(f), "cwd").width == 1


def test_errors_for_files_of_unknown_shape():
    # a prose file with a '.non' keyword at the start of a line: not blamed on .non's syntax alone
    with pytest.raises(ParseError) as e:
        loads("Notes\n\nheight and width are given first.\n", source="notes.md")
    assert e.value.message.startswith("cannot tell the format of notes.md: not non (line 3: ")
    # no format fits, the suffix's reader is tried: its error says that is why it was chosen
    with pytest.raises(ParseError) as e:
        loads("3 3 1\n1 1\n3\n", source="other.txt")
    assert "because of the file's suffix" in e.value.message and e.value.line == 1
    # content and suffix agree: the reader's own precise error
    with pytest.raises(ParseError) as e:
        loads("##\n#o\n", source="grid.txt")
    assert e.value.message.startswith("unexpected character 'o'") and e.value.line == 2
    # a clear signature (GRID): that reader's error, whatever the suffix
    with pytest.raises(ParseError) as e:
        loads("GRID a\nROWS\n[ 1 ]\n", source="a.non")
    assert "no COLUMNS" in e.value.message
