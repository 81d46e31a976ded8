"""Issue 20: a puzzle's colours, names and characters survive every reader, writer and verb;
the Nonny ``.non`` dialect, Izaron's ``.pzl`` and saved nonograms.org pages are read."""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import satnono
from satnono.cli import cli
from satnono.errors import ParseError
from satnono.formats import dumps, loads
from satnono.formats.sniff import sniff
from satnono.model import BW_PALETTE, Color, Puzzle

RED = (BW_PALETTE[0], Color("red", "r", (208, 0, 0)))


def _grid(rng: random.Random, h: int, w: int, chars: str) -> tuple[str, ...]:
    return tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h))


# ---- item 1: a one-colour puzzle keeps its colour through every verb ----------------------------

RED_XML = """<?xml version="1.0"?>
<puzzleset><puzzle type="grid" defaultcolor="red">
<color name="white" char=".">FFFFFF</color>
<color name="red" char="r">d00000</color>
<clues type="columns"><line><count color="r">2</count></line><line><count color="r">1</count></line></clues>
<clues type="rows"><line><count color="r">2</count></line><line><count color="r">1</count></line></clues>
<solution type="goal"><image>|rr||r.|</image></solution>
</puzzle></puzzleset>
"""


def test_one_colour_check_json_and_convert(tmp_path) -> None:
    src = tmp_path / "red.xml"
    src.write_text(RED_XML)
    r = CliRunner().invoke(cli, ["check", "--json", str(src)])
    doc = json.loads(r.output)
    assert doc["palette"] == [{"name": "white", "char": ".", "rgb": "#ffffff"},
                              {"name": "red", "char": "r", "rgb": "#d00000"}]
    assert doc["solutions"] == [["rr", "r."]]
    for fmt in ("xml", "non", "json", "ppm", "png"):
        out = tmp_path / f"out.{fmt}"
        r = CliRunner().invoke(cli, ["convert", str(src), str(out)])
        assert r.exit_code == 0, r.output
        back = satnono.load(str(out))
        assert back.palette[1].rgb == (208, 0, 0), fmt
        assert back.rows == ((2,), (1,)) and back.columns == ((2,), (1,))
        if fmt in ("xml", "json"):  # these hold the name and the character too
            assert back.palette == RED
    for fmt in ("nin", "mk", "cwd", "pbm", "txt", "picross"):  # black and white only: refused in one line
        out = tmp_path / f"out.{fmt}"
        r = CliRunner().invoke(cli, ["convert", "--to", fmt, str(src), str(out)])
        assert r.exit_code == 6 and not out.exists() and "red" in r.output and len(r.output.strip().splitlines()) == 1


def test_one_colour_ppm_and_non_keep_their_colour(tmp_path) -> None:
    ppm = tmp_path / "red.ppm"
    ppm.write_text("P3\n2 2\n255\n255 0 0  255 0 0\n255 0 0  255 255 255\n")
    p = satnono.load(str(ppm))
    assert p.palette[1] == Color("red", "a", (255, 0, 0)) and p.goal == ("aa", "a.")
    out = tmp_path / "out.xml"
    assert CliRunner().invoke(cli, ["convert", str(ppm), str(out)]).exit_code == 0
    assert 'name="red"' in out.read_text() and "FF0000" in out.read_text()
    [q] = loads("width 2\nheight 2\ncolor a #ff0000\nrows\n2a\n1a\ncolumns\n2a\n1a\n", "non")
    assert q.palette[1] == Color("red", "a", (255, 0, 0)) and satnono.check(q).solutions == (("aa", "a."),)


def test_one_colour_pictures_diagnose_and_fix() -> None:
    [p] = loads(RED_XML)
    from satnono.diagnose import diagnose
    from satnono.render import render_svg

    svg = render_svg(diagnose(p))
    assert "#d00000" in svg.lower() and "#222222" not in svg.lower()
    assert "".join(diagnose(p).after_line) == "rrr."
    # a puzzle with two solutions: fix proposes edits drawn in the puzzle's character
    amb = Puzzle.from_grid(("r.", ".r"), palette=RED)
    from satnono.fixer import fix

    res = fix(amb, timeout=10)
    assert res.goal == ("r.", ".r") and res.other == (".r", "r.")
    assert all(g.char in ".r" for g in res.givens_unique.givens)


@pytest.mark.parametrize("seed", range(4))
def test_one_colour_solutions_match_brute_force(seed: int) -> None:
    # the black-and-white kernels solve it; the solutions use 'r' (independent truth: enumerate every grid)
    rng = random.Random(seed)
    goal = _grid(rng, 3, 3, ".r")
    p = Puzzle.from_grid(goal, palette=RED)
    every = [tuple("".join(".r"[(m >> (3 * r + c)) & 1] for c in range(3)) for r in range(3)) for m in range(512)]
    truth = [g for g in every if p.is_solution(g)]
    res = satnono.check(p)
    assert set(res.solutions) <= set(truth) and goal in truth
    assert res.status.value == ("unique" if len(truth) == 1 else "multiple")
    from satnono.counting import count

    assert count(p, exact=True).count == len(truth)


# ---- item 7: Nonny's .non dialect ---------------------------------------------------------------

RAINBOW = """title "Bow"
by "someone"
width 3
height 2

color red FF0000 #
color yellow FFFF00 @

rows
red 1 yellow 1 red 1
yellow: 1

columns
red 1
yellow 2
red 1
"""


def test_nonny_dialect() -> None:
    [p] = loads(RAINBOW, source="bow.non")
    assert sniff(RAINBOW) == "nonny"
    assert [(c.name, c.char, c.rgb) for c in p.palette] == [
        ("white", ".", (255, 255, 255)), ("red", "#", (255, 0, 0)), ("yellow", "@", (255, 255, 0))]
    assert p.row_blocks(0) == ((1, 1), (1, 2), (1, 1)) and p.row_blocks(1) == ((1, 2),)
    assert p.name == "Bow" and p.metadata == {"author": "someone"}
    assert satnono.check(p).solutions == (("#@#", ".@."),)
    # black is Nonny's default colour; a lone black is black and white
    [q] = loads("width 2\nheight 1\nrows\n1 black 1\ncolumns\n1\n1\ncolor black 000000 X\n", "non")
    assert q.palette == BW_PALETTE and q.rows == ((1, 1),)
    # the mikix dialect is not mistaken for Nonny's
    assert sniff("width 1\nheight 1\ncolor a #ff0000\nrows\n1a\ncolumns\n1a\n") == "non"


@pytest.mark.parametrize("text, line, words", [
    ("width 2\nheight 1\ncolor red FF0000 #\nrows\nred 1 blue 1\ncolumns\nred 1\nred 1\n", 5, "'blue'"),
    ("width 2\nheight 2\ncolor red FF0000 #\nrows\nred 1\n", 5, "rows block has 1"),
    ("width 1\nheight 1\ncolor red FF0000 #\nrows\nred 1x!\ncolumns\nred 1\n", 5, "unexpected clue item"),
])
def test_nonny_errors(text: str, line: int, words: str) -> None:
    with pytest.raises(ParseError) as e:
        loads(text, source="bad.non", fmt="nonny")
    assert f"bad.non:{line}:" in str(e.value) and words in str(e.value)


def _nonny(p: Puzzle) -> str:
    """A Nonny-dialect file written independently of the reader (names as colour words)."""
    out = [f"width {p.width}", f"height {p.height}"]
    out += [f"color {c.name} {c.hex[1:].upper()} {c.char}" for c in p.palette[1:]]
    for key, count, axis in (("rows", p.height, "row"), ("columns", p.width, "column")):
        out.append(key)
        for i in range(count):
            ls, cs = p.line(axis, i)
            out.append(" ".join(f"{p.palette[c].name} {n}" for n, c in zip(ls, cs)) or "0")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(5))
def test_nonny_reads_random_puzzles(seed: int) -> None:
    rng = random.Random(seed)
    pal = (BW_PALETTE[0], Color("navy", "n", (0, 0, 128)), Color("gold", "$", (255, 215, 0)),
           Color("leaf", "0", (80, 200, 120)))
    p = Puzzle.from_grid(_grid(rng, 4, 5, ".n$0"), palette=pal)
    [q] = loads(_nonny(p), fmt="nonny")
    used = [c for i, c in enumerate(pal) if i == 0 or any(c.char in r for r in p.goal)]
    assert q.palette == (tuple(used) if len(used) > 1 else BW_PALETTE)
    assert q.is_solution(p.goal)
    assert [q.palette[c].rgb for cs in q.row_colors for c in cs] == [p.palette[c].rgb for cs in p.row_colors for c in cs]


# ---- item 7: Izaron's .pzl ----------------------------------------------------------------------

def _pzl(p: Puzzle, extra: tuple[str, ...] = ()) -> str:
    out = [str(len(p.palette) - 1 + len(extra))] + [c.hex for c in p.palette[1:]] + list(extra)
    out += ["", f"{p.height} {p.width}", ""]
    for axis, count in (("row", p.height), ("column", p.width)):
        for i in range(count):
            ls, cs = p.line(axis, i)
            out.append(" ".join([str(len(ls))] + [f"{n} {' '.join(map(str, p.palette[c].rgb))}" for n, c in zip(ls, cs)]) + " ")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("seed", range(5))
def test_pzl_reads_random_puzzles(seed: int) -> None:
    rng = random.Random(seed)
    pal = (BW_PALETTE[0], Color("red", "a", (255, 0, 0)), Color("#123456", "b", (0x12, 0x34, 0x56)))
    p = Puzzle.from_grid(_grid(rng, 4, 6, ".ab"), palette=pal)
    text = _pzl(p, extra=("#00ff00",))  # a listed colour no clue uses is left out
    assert sniff(text) == "pzl" and sniff(text, "pzl") == "pzl"
    [q] = loads(text, source="x.pzl")
    used = [c.rgb for i, c in enumerate(pal) if i and any(c.char in r for r in p.goal)]
    assert [c.rgb for c in q.palette[1:]] == used or (used == [] and q.palette == BW_PALETTE)
    assert [[q.palette[c].rgb for c in cs] for cs in q.column_colors] == \
        [[p.palette[c].rgb for c in cs] for cs in p.column_colors]
    assert q.rows == p.rows and q.columns == p.columns


def test_pzl_errors() -> None:
    with pytest.raises(ParseError, match=r"x.pzl:5: row 1: colour #00ff00 is not in the file's colour list"):
        loads("1\n#ff0000\n1 1\n\n1 1 0 255 0\n1 1 255 0 0\n", source="x.pzl", fmt="pzl")
    with pytest.raises(ParseError, match=r"x.pzl:4: the file ends where"):
        loads("1\n#ff0000\n2 1\n1 1 255 0 0\n", source="x.pzl", fmt="pzl")


# ---- item 7: a saved nonograms.org page ---------------------------------------------------------

def _encode(colours: list[tuple[int, int, int]], picture: list[list[int]], rng: random.Random) -> list[list[int]]:
    """The inverse of the documented decoding, with random offsets (as the site's script varies them)."""
    def value(v: int) -> list[int]:
        m = rng.randint(v + 12, v + 60)  # x0%m + x1%m - x2%m == v with each part < m
        a = rng.randint(0, v)
        c = rng.randint(0, 10)
        return [a + m * rng.randint(0, 3), v - a + c + m * rng.randint(0, 3), c + m * rng.randint(0, 3), m]

    h, w = len(picture), len(picture[0])
    d = [[rng.randint(0, 99) for _ in range(4)], value(w), value(h), value(len(colours))]
    x = [rng.randint(0, 50) for _ in range(4)]
    d.append(x)
    for r, g, b in colours:
        d.append([r + x[1], g + x[0], b + x[3], rng.randint(0, 9)])
    runs = [(r, c0, c1 - c0, v) for r, row in enumerate(picture)
            for c0, c1, v in _runs(row) if v]
    n = len(runs)
    m = 1000
    q = int(n ** 0.5)
    while q * q > n:
        q -= 1
    rest = n - q * q
    d.append([q, rest // 2, rest % 2, m])
    x = [rng.randint(0, 50) for _ in range(4)]
    d.append(x)
    for r, c0, ln, v in runs:
        d.append([c0 + 1 + x[0], ln + x[1], v + x[2], r + 1 + x[3]])
    return d


def _runs(row: list[int]):
    c = 0
    while c < len(row):
        e = c
        while e < len(row) and row[e] == row[c]:
            e += 1
        yield c, e, row[c]
        c = e


@pytest.mark.parametrize("seed", range(6))
def test_nonograms_org_page(seed: int) -> None:
    rng = random.Random(seed)
    k = rng.randint(1, 3)
    colours = [(0, 0, 0), (251, 242, 4), (244, 149, 28)][:k]
    picture = [[rng.randint(0, k) for _ in range(5)] for _ in range(4)]
    page = ("<!DOCTYPE html>\n<html><head><title>Cat &amp; dog</title></head><body>\n<script>\n"
            f"var d={json.dumps(_encode(colours, picture, rng)).replace(' ', '')};\n</script></body></html>\n")
    assert sniff(page) == "nonogramsorg" and sniff(page.encode()) == "nonogramsorg"
    [p] = loads(page, source="p.html")
    assert p.name == "Cat & dog"
    used = sorted({v for r in picture for v in r} - {0})
    assert [c.rgb for c in p.palette[1:]] == [colours[v - 1] for v in used] or (used == [] and p.palette == BW_PALETTE)
    rgb = {c.char: c.rgb for c in p.palette}
    assert [[rgb[ch] if ch != "." else 0 for ch in row] for row in p.goal] == \
        [[colours[v - 1] if v else 0 for v in row] for row in picture]


def test_nonograms_org_errors() -> None:
    with pytest.raises(ParseError, match=r"p.html:2: nonograms.org solution array: entry 1"):
        loads("<html>\nvar d=[[1,2,3,4]];\n</html>", source="p.html")
    with pytest.raises(ParseError, match=r"p.html: no nonograms.org solution array"):
        loads("<html></html>", source="p.html", fmt="nonogramsorg")


# ---- guard: round trips over every format that carries colour -----------------------------------

#: What each format holds of a palette: xml and json the names, characters and RGB; non (mikix)
#: the RGB and a letter per colour (names come from the RGB); ppm and png the RGB only (characters
#: a, b, ... and names from the RGB).  A lone black named black is black and white ('#') in all.
#: (The .g format is read only here, so it has no round trip.)
HOLDS = {"xml": {"name", "char", "rgb"}, "json": {"name", "char", "rgb"}, "non": {"rgb"}, "ppm": {"rgb"},
         "png": {"rgb"}}
NAMES = st.text("abcdefghijklmnopqrstuvwxyz", min_size=3, max_size=8).filter(lambda s: s not in ("white", "black"))
CHARS = "abcdefghijkmnopqrstuvwxyzABCDEFG#@$%&*+=~"


@st.composite
def puzzles(draw) -> Puzzle:
    k = draw(st.integers(1, 6))
    names = draw(st.lists(NAMES, min_size=k, max_size=k, unique=True))
    chars = draw(st.lists(st.sampled_from(CHARS), min_size=k, max_size=k, unique=True))
    rgbs = draw(st.lists(st.tuples(*[st.integers(0, 255)] * 3).filter(lambda c: c != (255, 255, 255)),
                         min_size=k, max_size=k, unique=True))
    pal = (BW_PALETTE[0], *(Color(n, ch, rgb) for n, ch, rgb in zip(names, chars, rgbs)))
    h, w = draw(st.integers(1, 4)), draw(st.integers(1, 4))
    cells = "." + "".join(chars)
    grid = tuple("".join(draw(st.sampled_from(cells)) for _ in range(w)) for _ in range(h))
    return Puzzle.from_grid(grid, palette=pal)


def _used(p: Puzzle) -> Puzzle:
    """The puzzle over the colours its picture uses (readers keep only those)."""
    used = [i for i in range(1, len(p.palette)) if any(p.palette[i].char in r for r in p.goal)]
    if not used:
        return Puzzle.from_grid(p.goal, palette=BW_PALETTE)
    return Puzzle.from_grid(p.goal, palette=(p.palette[0], *(p.palette[i] for i in used)))


@pytest.mark.parametrize("fmt", sorted(HOLDS))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(p=puzzles())
def test_round_trip_keeps_palette_clues_and_goal(fmt: str, p: Puzzle) -> None:
    want = _used(p)
    [q] = loads(dumps(want, fmt), fmt)
    [r] = loads(dumps(q, fmt), fmt)  # a second round trip changes nothing
    assert (r.palette, r.goal, r.rows, r.row_colors, r.columns, r.column_colors) == \
        (q.palette, q.goal, q.rows, q.row_colors, q.columns, q.column_colors)
    # the same picture and the same clues, colour by colour (RGB), in every format
    assert _rgb_picture(q) == _rgb_picture(want)
    assert _rgb_clues(q) == _rgb_clues(want)
    if fmt in ("xml", "json", "non"):  # pictures number colours by first appearance instead
        assert [c.rgb for c in q.palette] == [c.rgb for c in want.palette]
    if "name" in HOLDS[fmt]:
        assert [c.name for c in q.palette] == [c.name for c in want.palette]
    black_alone = len(want.palette) == 2 and want.palette[1].rgb == (0, 0, 0) and want.palette[1].name == "black"
    if "char" in HOLDS[fmt] and not black_alone:
        assert q.palette == want.palette and q.goal == want.goal
    # check --json's solutions use the file's own characters
    sol = satnono.check(q).solutions
    assert sol and all(set("".join(s)) <= set(q.chars) for s in sol) and (q.goal in sol or len(sol) > 1)


def _rgb_picture(p: Puzzle) -> tuple:
    rgb = {c.char: c.rgb for c in p.palette}
    return tuple(tuple(rgb[ch] for ch in row) for row in p.goal)


def _rgb_clues(p: Puzzle) -> tuple:
    return tuple(tuple((n, p.palette[c].rgb) for n, c in zip(ls, cs))
                 for ls, cs in (*zip(p.rows, p.row_colors), *zip(p.columns, p.column_colors)))


@settings(max_examples=20, deadline=None)
@given(p=puzzles())
def test_check_json_reads_back(p: Puzzle) -> None:
    want = _used(p)
    r = CliRunner().invoke(cli, ["check", "--json", "-"], input=dumps(want, "json"))
    doc = json.loads(r.output)
    assert all(set("".join(s)) <= set(want.chars) for s in doc["solutions"])
    # the verdict's palette and first solution, read back as a puzzle, are the same puzzle
    [q] = loads(json.dumps({"colors": doc["palette"], "goal": doc["solutions"][0]}), "json")
    assert q.palette == want.palette and q.rows == want.rows and q.row_colors == want.row_colors
    assert q.columns == want.columns and q.column_colors == want.column_colors


def test_one_colour_explain_svg_in_its_colour(tmp_path) -> None:
    src = tmp_path / "red.xml"
    src.write_text(RED_XML)
    out = tmp_path / "steps"
    r = CliRunner().invoke(cli, ["explain", "--svg", str(out), str(src)])
    assert r.exit_code == 0, r.output
    svg = (out / "step-0001.svg").read_text()
    assert 'fill="#d00000"' in svg and 'fill="#222222"' not in svg


def test_nonny_default_colour_replaced_is_a_one_line_error(tmp_path) -> None:
    """A clue in the default colour after a 'color' line replaced it (same RGB) is refused on one
    line naming the file and line (found by fuzzing: it was a KeyError)."""
    src = tmp_path / "x.non"
    src.write_text("width 1\nheight 1\ncolor dark 000000 #\nrows\n1\ncolumns\n1\n")
    r = CliRunner().invoke(cli, ["check", "-f", "nonny", str(src)])
    assert r.exit_code == 6, r.output
    assert f"{src}:5: colour 'black' is used but not defined" in r.output
    assert "Traceback" not in r.output
