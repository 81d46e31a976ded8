"""Colour puzzle files: round trips in every colour format, the corpus colour
puzzles, pictures (PPM, PNG), and bad colour input (one-line errors with file and line)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from PIL import Image

import satnono
from satnono.cli import cli
from satnono.errors import ParseError, UnsupportedPuzzle
from satnono.formats import dumps, load, loads, save
from satnono.formats.picture import write_png, write_ppm
from satnono.formats.sniff import sniff
from satnono.model import BW_PALETTE, MAX_COLORS, Color, Puzzle

from conftest import CORPUS

COLOUR_FORMATS = ("non", "xml", "json", "ppm", "png")
#: Formats that keep the palette's names and characters exactly.
EXACT_PALETTE_FORMATS = ("xml", "json")


def canonical(p: Puzzle) -> tuple[object, ...]:
    """Clues and goal with colours as RGB values: independent of colour order, names and characters."""
    rgb = [c.rgb for c in p.palette]
    rows = tuple(tuple((n, rgb[c]) for n, c in p.row_blocks(i)) for i in range(p.height))
    cols = tuple(tuple((n, rgb[c]) for n, c in p.column_blocks(i)) for i in range(p.width))
    by_char = {c.char: c.rgb for c in p.palette}
    goal = None if p.goal is None else tuple(tuple(by_char[ch] for ch in row) for row in p.goal)
    return rows, cols, goal, rgb[0]


@st.composite
def colour_puzzles(draw: st.DrawFn, chars: str = "abcdefghij") -> Puzzle:
    """A random grid over 2-5 block colours (each used), with a palette of distinct non-white RGB values."""
    k = draw(st.integers(2, 5))
    picked = draw(st.lists(st.sampled_from(chars), min_size=k, max_size=k, unique=True))
    w = draw(st.integers(1, 7))
    h = draw(st.integers(1, 7))
    cells = draw(st.lists(st.sampled_from(["."] + picked), min_size=w * h, max_size=w * h))
    used = [ch for ch in picked if ch in cells]
    assume(len(used) >= 2)
    rgbs = draw(
        st.lists(st.tuples(*[st.integers(0, 255)] * 3).filter(lambda c: c != (255, 255, 255)),
                 min_size=len(used), max_size=len(used), unique=True)
    )
    names = draw(st.lists(st.text("abcdefghijklmnopqrstuvwxyz -\"&<>'é", min_size=1, max_size=8).map(str.strip)
                          .filter(lambda s: s and s != "white"), min_size=len(used), max_size=len(used), unique=True))
    palette = (BW_PALETTE[0], *(Color(n, ch, rgb) for n, ch, rgb in zip(names, used, rgbs)))
    grid = ["".join(cells[r * w : (r + 1) * w]) for r in range(h)]
    title = draw(st.none() | st.text("Abc xyz", min_size=1, max_size=10).map(str.strip).filter(bool))
    return Puzzle.from_grid(grid, palette=palette, name=title)


@pytest.mark.parametrize("fmt", COLOUR_FORMATS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(p=colour_puzzles())
def test_colour_round_trip(fmt: str, p: Puzzle) -> None:
    data = dumps(p, fmt)
    [q] = loads(data, source=f"puzzle.{fmt}")  # sniffed, suffix agrees
    assert sniff(data) == fmt
    assert q.is_color and canonical(q) == canonical(p)
    assert q.is_solution(q.goal)
    if fmt in EXACT_PALETTE_FORMATS:
        assert set(q.palette) == set(p.palette)
        assert q.goal == p.goal
    if fmt == "non":  # letters are kept, RGB too; names come from the RGB
        assert {(c.char, c.rgb) for c in q.palette} == {(c.char, c.rgb) for c in p.palette}
        assert q.goal == p.goal
    if fmt in ("xml", "json", "non"):
        assert q.name == p.name
    # writing what was read gives the same file (a fixed point)
    assert dumps(q, fmt) == dumps(loads(dumps(q, fmt), fmt)[0], fmt)


@pytest.mark.parametrize("fmt", ("xml", "json", "non"))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(p=colour_puzzles(chars="X*%@&+1#~"))
def test_colour_round_trip_punctuation_chars(fmt: str, p: Puzzle) -> None:
    """webpbn-style characters (even digits and '#') survive xml and json; .non maps them to letters."""
    [q] = loads(dumps(p, fmt), fmt)
    assert canonical(q) == canonical(p)
    if fmt != "non":
        assert set(q.palette) == set(p.palette) and q.goal == p.goal
    else:
        assert all(c.char.isalpha() for c in q.palette[1:])


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(p=colour_puzzles())
def test_clues_without_goal_round_trip(p: Puzzle) -> None:
    import dataclasses

    bare = dataclasses.replace(p, goal=None)
    for fmt in ("non", "xml", "json"):
        [q] = loads(dumps(bare, fmt), fmt)
        assert canonical(q) == canonical(bare) and q.goal is None
    for fmt in ("ppm", "png"):
        with pytest.raises(ValueError, match="no goal"):
            dumps(bare, fmt)


# --------------------------------------------------------------------------- the corpus colour puzzles

@pytest.mark.parametrize("name", ["webpbn-color-00047.xml", "webpbn-color-00220.xml"])
def test_corpus_colour_puzzles_settle_unique(name: str) -> None:
    path = CORPUS / "webpbn-survey" / name
    if not path.is_file():
        pytest.skip("shared corpus not available")
    p = load(str(path))
    assert p.is_color and p.ncolors == 4
    assert [(c.name, c.char, c.hex) for c in p.palette] == [
        ("white", ".", "#ffffff"), ("black", "X", "#000000"), ("red", "*", "#ff0000"),
        ("green", "%", "#00b000"), ("blue", "@", "#4040ff"),
    ]
    res = satnono.check(p)
    assert res.status.value == "unique"
    assert p.is_solution(res.solutions[0]) and res.solutions[0] == p.goal
    for fmt in COLOUR_FORMATS:
        [q] = loads(dumps(p, fmt), fmt)
        assert canonical(q) == canonical(p)


# --------------------------------------------------------------------------- reading details

def test_non_colour_file() -> None:
    text = (
        'title "Flag"\nwidth 3\nheight 2\ncolor r #ff0000\ncolor g green\n\nrows\n2r,1g\n1g\n'
        'columns\n1r\n1r\n2g\ngoal "rrg00g"\n'
    )
    [p] = loads(text, source="flag.non")
    assert p.chars == ".rg" and [c.name for c in p.palette] == ["white", "red", "green"]
    assert p.row_blocks(0) == ((2, 1), (1, 2)) and p.goal == ("rrg", "..g")
    assert satnono.check(p).status.value == "unique"
    out = dumps(p, "non")
    assert "color r #ff0000\ncolor g #00ff00" in out and "2r,1g" in out and 'goal "rrg00g"' in out


def test_non_letters_without_colour_lines_and_default_black() -> None:
    [p] = loads("width 3\nheight 1\nrows\n1a,1b,1\ncolumns\n1a\n1b\n1\n", "non")
    assert p.chars == ".ab#" and p.palette[3].name == "black" and p.row_colors == ((1, 2, 3),)
    # one declared colour: plain numbers are that colour, which the puzzle keeps (issue 20, item 1)
    [q] = loads("width 2\nheight 1\ncolor a #ff0000\nrows\n1a\ncolumns\n1\n0\n", "non")
    assert q.palette == (BW_PALETTE[0], Color("red", "a", (255, 0, 0))) and q.rows == ((1,),)
    assert q.column_colors == ((1,), ()) and not q.is_color


def test_webpbn_colour_rules() -> None:
    xml = (
        '<puzzleset><puzzle defaultcolor="red" backgroundcolor="paper">\n'
        '<color name="paper" char=" ">ffffee</color>\n'
        '<color name="red" char=".">f00</color>\n'
        '<color name="unused" char="u">123456</color>\n'
        '<clues type="rows"><line><count>1</count><count color="blue">1</count></line></clues>\n'
        '<clues type="columns"><line><count>1</count></line><line><count color="blue">1</count></line></clues>\n'
        "<solution><image>|.b|</image></solution>\n"  # 'b' is undeclared
        "</puzzle></puzzleset>"
    )
    with pytest.raises(ParseError, match="undeclared character 'b'") as e:
        loads(xml, source="w.xml")
    assert e.value.line == 7
    [p] = loads(xml.replace("<solution><image>|.b|</image></solution>", ""), source="w.xml")
    # background ' ' becomes '.', red's '.' is taken by the background: red gets a free char;
    # blue is added from its common name; 'unused' is left out
    assert [(c.name, c.char, c.rgb) for c in p.palette] == [
        ("paper", ".", (255, 255, 238)), ("red", "a", (255, 0, 0)), ("blue", "b", (0, 0, 255)),
    ]
    assert p.row_colors == ((1, 2),)
    text = dumps(p, "xml")
    assert 'defaultcolor="red" backgroundcolor="paper"' in text
    [q] = loads(text)
    assert q.palette == p.palette and q.rows == p.rows and q.row_colors == p.row_colors


def test_webpbn_one_colour_keeps_its_colour() -> None:
    # issue 20, item 1: a lone red stays red 'r' (it was renamed black '#'); solved by the b/w kernels
    xml = (
        '<puzzleset><puzzle defaultcolor="red"><color name="red" char="r">ff0000</color>'
        '<clues type="rows"><line><count>1</count></line></clues>'
        '<clues type="columns"><line><count>1</count></line></clues>'
        "<solution><image>|r|</image></solution></puzzle></puzzleset>"
    )
    [p] = loads(xml)
    assert p.palette == (BW_PALETTE[0], Color("red", "r", (255, 0, 0))) and p.goal == ("r",) and not p.is_color
    assert satnono.check(p).solutions == (("r",),)
    # a lone black named black is black and white, drawn '#' whatever its declared char
    [q] = loads(xml.replace('name="red" char="r">ff0000', 'name="black" char="X">000000')
                .replace('defaultcolor="red"', 'defaultcolor="black"').replace("|r|", "|X|"))
    assert q.palette == BW_PALETTE and q.goal == ("#",)


def test_olsak_colour_table() -> None:
    text = (
        "A flag\n#d\n  0:  #fffff0  paper\n  1:*  black\n  r:&  red   (a comment)\n  b:b  #0000FF\n"
        "  this line is a comment\n: rows\n1 2r\n1b\n: columns\n1\n1r 1b\n1r\n"
    )
    [p] = loads(text, source="flag.g")
    assert [(c.name, c.char, c.hex) for c in p.palette] == [
        ("#fffff0", ".", "#fffff0"),
        ("black", "*", "#000000"), ("red", "&", "#ff0000"), ("blue", "b", "#0000ff"),
    ]
    assert p.row_blocks(0) == ((1, 1), (2, 2)) and p.column_blocks(1) == ((1, 2), (1, 3))
    assert satnono.check(p).status.value == "unique"
    # webpbn's own olsak export of a black-and-white puzzle
    [q] = loads("#d\n   0:   #FFFFFF   white\n   1:X  #000000   black\n: rows\n1\n: columns\n1\n", "g")
    assert q.palette == BW_PALETTE and q.rows == ((1,),)


def test_json_colour_shapes() -> None:
    doc = {
        "title": "j", "colors": {"a": {"name": "red", "rgb": "#ff0000"}, "b": "#00ff00"},
        "rows": [["1a", "1b"], [[1, "red"], [1, 2]]], "columns": "1a 1a\n1b 1b".split("\n"),
    }
    [p] = loads(json.dumps(doc), source="j.json")
    assert p.chars == ".ab" and p.row_colors == ((1, 2), (1, 2)) and p.column_colors == ((1, 1), (2, 2))
    assert [c.name for c in p.palette] == ["white", "red", "green"]  # X11 green
    back = json.loads(str(dumps(p, "json")))
    assert back["colors"] == {"a": {"name": "red", "rgb": "#ff0000"}, "b": {"name": "green", "rgb": "#00ff00"}}
    assert back["rows"] == [[[1, "a"], [1, "b"]], [[1, "a"], [1, "b"]]]
    # a goal alone over letters is a colour puzzle
    [g] = loads('{"goal": ["ab", "b."]}', "json")
    assert g.chars == ".ab" and g.rows == ((1, 1), (1,))


def test_pictures_ppm_and_png() -> None:
    # P3 with comments, maxval 15
    [p] = loads(b"P3\n# level 1\n3 1\n15\n15 0 0  15 15 15\n# mid\n0 0 15\n", source="l.ppm")
    assert p.goal == ("a.b",) and [c.name for c in p.palette] == ["white", "red", "blue"]
    # 16-bit P6
    samples = np.array([[65535, 0, 0], [0, 0, 0]], dtype=">u2")
    [q] = loads(b"P6\n2 1\n65535\n" + samples.tobytes(), source="l16.ppm")
    assert q.goal == ("ab",) and [c.rgb for c in q.palette[1:]] == [(255, 0, 0), (0, 0, 0)]
    # black on white is black and white; a chosen background
    [bw] = loads(b"P3\n2 1\n255\n0 0 0 255 255 255\n")
    assert bw.palette == BW_PALETTE and bw.goal == ("#.",)
    [green] = loads(b"P3\n3 1\n255\n0 255 0 255 0 0 255 255 255\n", background="#00ff00")
    assert green.goal == (".ab",) and green.palette[0].rgb == (0, 255, 0)
    with pytest.raises(ValueError, match="background colour"):
        loads(b"P3\n1 1\n255\n0 0 0\n", background="not-a-colour")
    # PNG: palette mode with a transparent index, written back with scale
    img = Image.new("P", (3, 2))
    img.putpalette([255, 0, 0, 0, 0, 255, 9, 9, 9])
    img.putdata([0, 2, 1, 2, 0, 0])
    img.info["transparency"] = 2
    buf = io.BytesIO()
    img.save(buf, format="PNG", transparency=2)
    [r] = loads(buf.getvalue(), source="l.png")
    assert r.goal == ("a.b", ".aa")
    big = Image.open(io.BytesIO(write_png(r, scale=3)))
    assert big.size == (9, 6) and big.getpixel((8, 0)) == (0, 0, 255) and big.getpixel((4, 1)) == (255, 255, 255)
    # 16-bit grey is scaled, not clipped
    buf = io.BytesIO()
    Image.fromarray(np.array([[0, 65535, 32768]], dtype=np.uint16)).save(buf, format="PNG")
    [grey] = loads(buf.getvalue())
    assert grey.goal == ("a.b",) and [c.hex for c in grey.palette] == ["#ffffff", "#000000", "#808080"]
    ppm = write_ppm(r, grid=("b.a", ".bb"))  # any grid of the puzzle, e.g. a solution
    assert ppm.startswith(b"P6\n3 2\n255\n") and ppm[11:14] == b"\x00\x00\xff"
    with pytest.raises(ValueError, match="outside the palette"):
        write_ppm(r, grid=("z..", "..."))


def test_writing_pictures_and_colour_through_save(tmp_path: Path) -> None:
    p = Puzzle.from_grid(["ab", "b."], name="two")
    for fmt in ("png", "ppm", "xml", "json", "non"):
        target = tmp_path / f"t.{fmt}"
        save(p, str(target))
        assert canonical(load(str(target))) == canonical(p)
    for fmt in ("nin", "mk", "cwd", "pbm", "txt"):
        with pytest.raises(ValueError, match="black-and-white puzzles only"):
            dumps(p, fmt)


# --------------------------------------------------------------------------- bad colour input

BAD_TEXT = [
    ("u.non", "width 2\nheight 1\ncolor a #ff0000\ncolor b #00ff00\nrows\n1a,1z\ncolumns\n1a\n1b\n", 6,
     "colour 'z' is not declared"),
    ("rgb.non", "width 1\nheight 1\ncolor a #ff00\nrows\n1a\ncolumns\n1a\n", 3, "malformed RGB"),
    ("c.non", "width 1\nheight 1\ncolor 7 #ff0000\nrows\n1\ncolumns\n1\n", 3, "color LETTER"),
    ("g.non", 'width 2\nheight 1\ncolor a #ff0000\ncolor b #00ff00\ngoal "az"\n', 5, "goal uses colour 'z'"),
    ("two.non", "width 2\nheight 1\nrows\n1ab\ncolumns\n1\n1\n", 4, "one colour letter"),
    ("rgb.xml", '<puzzleset><puzzle>\n<color name="red" char="r">GG0000</color>\n</puzzle></puzzleset>', 2,
     "malformed RGB"),
    ("u.xml", '<puzzleset><puzzle>\n<color name="red" char="r">ff0000</color>\n<clues type="rows">\n'
     '<line><count color="red">1</count><count color="zork">1</count></line></clues>\n'
     '<clues type="columns"><line><count color="red">1</count></line><line><count color="zork">1</count>'
     '</line></clues></puzzle></puzzleset>', 4, "'zork' is not declared"),
    ("name.g", "#d\n 1:* black\n r:r reddish\n: rows\n1\n: columns\n1\n", 3, "unknown colour name 'reddish'"),
    ("rgb.g", "#d\n 1:* black\n r:r #12345\n: rows\n1\n: columns\n1\n", 3, "malformed RGB"),
    ("u.g", "#d\n 1:* black\n r:r red\n: rows\n1 1q\n: columns\n1\n1\n", 5, "colour 'q' is not declared"),
    ("d.g", "#d\n r:r red\n b:b blue\n: rows\n1r 1\n: columns\n1r\n1b\n", 5, "no default colour"),
    ("l.g", ": rows\n1r\n: columns\n1\n", 2, "colour 'r' is not declared"),
    ("big.ppm", "P3\n1 1\n255\n0 0 256\n", 4, "above the maxval"),
    ("huge.ppm", "P3\n1 1\n255\n0 0\n" + "9" * 5000 + "\n", 5, "above the maxval"),
    ("max.ppm", "P3\n1 1\n0\n0 0 0\n", 3, "maxval"),
    ("short.ppm", "P3\n2 1\n255\n0 0 0\n", 4, "3 samples"),
]


@pytest.mark.parametrize("name,text,line,message", BAD_TEXT, ids=[b[0] for b in BAD_TEXT])
def test_bad_colour_input_names_file_and_line(tmp_path: Path, name: str, text: str, line: int, message: str) -> None:
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ParseError) as e:
        load(str(path))
    assert message in e.value.message and e.value.line == line
    assert str(e.value).startswith(f"{path}:{line}: ") and "\n" not in str(e.value)
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 6 and "Traceback" not in r.output
    err = r.stderr.strip().splitlines()
    assert len(err) == 1 and f"{path}:{line}:" in err[0] and message in err[0]


def test_bad_json_colours() -> None:
    cases = [
        ('{"colors": {"a": "#ff00zz"}, "rows": [["1a"]], "columns": [["1a"]]}', "colors.a: malformed RGB"),
        ('{"colors": {"a": "red", "b": "blue"}, "rows": [["1a", "1c"]], "columns": [["1a"], ["1b"]]}',
         "rows[0]: colour 'c' is not in the palette"),
        ('{"colors": {"ab": "red"}, "rows": [["1a"]], "columns": [["1a"]]}', "one grid character"),
        ('{"colors": {"a": "red", "b": "blue"}, "goal": ["az"]}', "goal[0]: unexpected character 'z'"),
    ]
    for text, message in cases:
        with pytest.raises(ParseError) as e:
            loads(text, source="p.json")
        assert message in str(e.value) and str(e.value).startswith("p.json: ")


def _png(pixels: np.ndarray, mode: str) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels, mode).save(buf, format="PNG")
    return buf.getvalue()


def test_bad_pictures(tmp_path: Path) -> None:
    many = np.zeros((1, MAX_COLORS + 1, 3), dtype=np.uint8)
    many[0, :, 0] = np.arange(MAX_COLORS + 1)  # 33 distinct colours, none white
    cases = {
        "many.png": (_png(many, "RGB"), f"the picture has {MAX_COLORS + 1} colours besides the background; "
                                         f"at most {MAX_COLORS}"),
        "many.ppm": (b"P6\n33 1\n255\n" + many.tobytes(), f"{MAX_COLORS + 1} colours"),
        "alpha.png": (_png(np.array([[[255, 0, 0, 255], [0, 0, 0, 128]]], dtype=np.uint8), "RGBA"),
                      "pixel (row 1, column 2) is partly transparent (alpha 128)"),
        "cut.png": (_png(many, "RGB")[:40], "PNG"),
        "cut.ppm": (b"P6\n2 2\n255\n\x00\x00\x00", "truncated P6"),
    }
    for name, (data, message) in cases.items():
        path = tmp_path / name
        path.write_bytes(data)
        with pytest.raises(ParseError) as e:
            load(str(path))
        assert message in str(e.value) and str(e.value).startswith(f"{path}: "), str(e.value)
        r = CliRunner().invoke(cli, ["check", str(path)])
        assert r.exit_code == 6 and len(r.stderr.strip().splitlines()) == 1 and "Traceback" not in r.output
    # exactly MAX_COLORS colours is fine
    [p] = loads(_png(many[:, :MAX_COLORS], "RGB"))
    assert p.ncolors == MAX_COLORS
    # a fully transparent pixel is background
    [q] = loads(_png(np.array([[[255, 0, 0, 255], [0, 0, 0, 0], [0, 0, 255, 255]]], dtype=np.uint8), "RGBA"))
    assert q.goal == ("a.b",)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(p=colour_puzzles(), data=st.data())
def test_damaged_pictures_give_parse_error(p: Puzzle, data: st.DataObject) -> None:
    fmt = data.draw(st.sampled_from(["ppm", "png"]))
    raw = bytes(dumps(p, fmt))
    cut = data.draw(st.integers(0, len(raw)))
    junk = data.draw(st.binary(max_size=4))
    damaged = raw[:cut] + junk + raw[cut + data.draw(st.integers(0, 3)) :]
    for attempt in (damaged, raw[:cut]):
        try:
            loads(attempt, fmt, source=f"d.{fmt}")
        except ParseError as e:
            assert "\n" not in str(e)


def test_convert_writes_pictures(tmp_path: Path) -> None:
    src = tmp_path / "flag.non"
    src.write_text("width 2\nheight 1\ncolor a #ff0000\ncolor b #0000ff\nrows\n1a,1b\ncolumns\n1a\n1b\n"
                   'goal "ab"\n')
    for suffix in ("png", "ppm"):
        out = tmp_path / f"flag.{suffix}"
        r = CliRunner().invoke(cli, ["convert", str(src), str(out)])
        assert r.exit_code == 0, r.output
        assert canonical(load(str(out))) == canonical(load(str(src)))
    r = CliRunner().invoke(cli, ["convert", str(src), str(tmp_path / "flag.nin")])
    assert r.exit_code == 6 and "black-and-white puzzles only" in r.stderr


def test_triangle_colours_unsupported() -> None:
    with pytest.raises(UnsupportedPuzzle, match="triangle colours"):
        loads("#d\n 1:* black\n t:/ black/orange\n: rows\n1\n: columns\n1\n", "g", source="t.g")


def test_readme_json_example_is_what_we_read_and_write() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    block = readme.split("```json\n", 1)[1].split("```", 1)[0]
    [p] = loads(block, source="README.json")
    assert p.name == "Flag" and p.chars == ".ab" and p.goal == ("aab", "...") and p.is_solution(p.goal)
    assert json.loads(str(dumps(p, "json"))) == json.loads(block)


def test_webpbn_without_colour_declarations_gets_distinct_defaults() -> None:
    xml = (
        '<puzzleset><puzzle defaultcolor="ink" backgroundcolor="paper">'
        '<clues type="rows"><line><count>1</count><count color="leaf">1</count></line></clues>'
        '<clues type="columns"><line><count>1</count></line><line><count color="leaf">1</count></line></clues>'
        "</puzzle></puzzleset>"
    )
    [p] = loads(xml)
    assert [c.name for c in p.palette] == ["paper", "ink", "leaf"]
    assert p.palette[0].rgb == (255, 255, 255) and p.palette[1].rgb != p.palette[2].rgb
    assert satnono.check(p).solutions[0] == ("ab",)


def test_json_palette_in_list_form_is_read_back_from_check_json(tmp_path):
    """'colors' as a list of {char, name, rgb} (what check --json prints as 'palette', the
    background entry included) is read, so our own output can be read back (issue 20, item 2)."""
    import json as _json

    from click.testing import CliRunner

    from satnono.cli import cli
    from satnono.formats import load_all

    src = str(Path(__file__).resolve().parents[1] / "puzzles" / "satnono" / "colour-search-10x10.non")
    p0 = load_all(src)[0]
    out = CliRunner().invoke(cli, ["check", "--json", src]).stdout
    d = _json.loads(out.splitlines()[0])
    doc = {"colors": d["palette"],
           "rows": [[[n, p0.chars[c]] for n, c in p0.row_blocks(i)] for i in range(p0.height)],
           "columns": [[[n, p0.chars[c]] for n, c in p0.column_blocks(i)] for i in range(p0.width)]}
    path = tmp_path / "back.json"
    path.write_text(_json.dumps(doc))
    p = load_all(str(path))[0]
    assert p.palette == p0.palette and p.rows == p0.rows and p.row_colors == p0.row_colors
    bad = tmp_path / "bad.json"
    bad.write_text(_json.dumps({**doc, "colors": [{"name": "red"}]}))
    r = CliRunner().invoke(cli, ["check", str(bad)])
    assert r.exit_code == 6 and '"char": "r", "name": "red", "rgb": "#ff0000"' in r.output
    bad.write_text(_json.dumps({**doc, "colors": 3}))
    r = CliRunner().invoke(cli, ["check", str(bad)])
    assert "or a list of" in r.output and "Traceback" not in r.output
