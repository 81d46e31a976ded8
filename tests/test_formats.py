"""Tests for satnono.formats: the real corpus, round trips, error positions, save.

Black-and-white and colour puzzles go through the same tests where the behaviour is the same:
round trips, clues without a goal, error positions (one-line errors with file and line, also
through the command line) and damaged files are parametrized over the clue kind (``bw``,
``color``).  What only colour has (palette declarations in each format, pictures with many
colours, the corpus colour puzzles) is tested on colour alone, in the last sections.
"""

from __future__ import annotations

import io
import json
import os
import re
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from PIL import Image

import satnono
from satnono.cli import cli
from satnono.errors import ParseError, PuzzleTooLarge, UnsupportedPuzzle
from satnono.formats import (
    FORMATS,
    WRITABLE_FORMATS,
    dumps,
    format_from_suffix,
    load,
    load_all,
    loads,
    save,
)
from satnono.formats.picture import write_png, write_ppm
from satnono.formats.sniff import sniff
from satnono.model import BW_PALETTE, MAX_COLORS, MAX_SIDE, Color, Puzzle

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"

#: Formats that carry each kind of information.
GOAL_FORMATS = {"non", "xml", "json", "pbm", "txt", "ppm", "png"}
TITLE_FORMATS = {"non", "xml", "json", "png"}  # exactly (every writable format: tests/test_metadata.py)
PICTURE_FORMATS = {"pbm", "txt", "ppm", "png"}
#: Binary formats (their damaged-file test draws binary junk).
BINARY_FORMATS = {"ppm", "png"}
#: Formats that hold colour puzzles.
COLOUR_FORMATS = ("non", "xml", "json", "ppm", "png")
#: Formats that keep the palette's names and characters exactly.
EXACT_PALETTE_FORMATS = ("xml", "json")


def corpus(pattern: str) -> list[Path]:
    """Corpus files matching a glob (empty when the corpus is absent)."""
    return sorted(CORPUS.glob(pattern)) if CORPUS.is_dir() else []


def need_corpus() -> None:
    if not CORPUS.is_dir():
        pytest.skip(f"no corpus at {CORPUS}")


def clue_key(p: Puzzle) -> tuple[object, object]:
    return p.rows, p.columns


def goal_reproduces_clues(p: Puzzle) -> bool:
    assert p.goal is not None
    return clue_key(Puzzle.from_grid(p.goal)) == clue_key(p)


def ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(CORPUS)) for p in paths]


# --------------------------------------------------------------------------- corpus

XML_FILES = corpus("webpbn-survey/**/*.xml")
COLOUR_XML = [p for p in XML_FILES if "color" in p.name]
BW_XML = [p for p in XML_FILES if "color" not in p.name]
NON_FILES = corpus("nonogram-db/db/**/*.non") + corpus("picross-solver/**/*.non")
NIN_FILES = corpus("jwilk-nonogram/data/*.nin")
QUESTION_FILES = corpus("tournament/nonogramrecord/question/*.txt")


def test_corpus_is_complete() -> None:
    need_corpus()
    assert len(XML_FILES) == 26 and len(COLOUR_XML) == 2
    assert len(NON_FILES) == 52
    assert len(NIN_FILES) == 151
    assert len(QUESTION_FILES) == 3


@pytest.mark.parametrize("path", BW_XML, ids=ids(BW_XML))
def test_webpbn_black_and_white(path: Path) -> None:
    [p] = load_all(str(path))
    assert p.source == str(path)
    assert p.height > 0 and p.width > 0
    assert sum(map(sum, p.rows)) == sum(map(sum, p.columns))
    if re.fullmatch(r"([6-9]|1[0-2])-dom\.xml", path.name):
        assert p.goal is None
    else:
        assert p.goal is not None and goal_reproduces_clues(p)
    assert load(str(path), "xml") == p  # the DOCTYPE is accepted with an explicit format too


@pytest.mark.parametrize("path", COLOUR_XML, ids=ids(COLOUR_XML))
def test_webpbn_colour_is_read(path: Path) -> None:
    p = load(str(path))  # read further in test_corpus_colour_puzzles_settle_unique
    assert p.is_color and p.goal is not None and p.is_solution(p.goal)


def test_webpbn_metadata() -> None:
    need_corpus()
    p = load(str(CORPUS / "webpbn-survey/webpbn-00001.xml"))
    assert p.name == "Demo Puzzle from Front Page"
    assert p.meta[:4] == (
        ("author", "Jan Wolter"),
        ("authorid", "jan"),
        ("copyright", "(c) Copyright 2004 by Jan Wolter"),
        ("id", "#1 (v.1)"),
    )
    assert ("source", "webpbn.com") in p.meta  # from the <puzzleset>
    assert (p.width, p.height) == (5, 10)
    assert p.rows[:3] == ((2,), (2, 1), (1, 1))
    assert p.columns == ((2, 1), (2, 1, 3), (7,), (1, 3), (2, 1))
    assert p.goal is not None and p.goal[0] == ".##.."
    faase = load(str(CORPUS / "webpbn-survey/faase.xml"))  # defaultcolor="color1", char '@'
    assert faase.goal is not None and goal_reproduces_clues(faase)
    desc = dict(load(str(CORPUS / "webpbn-survey/webpbn-01611.xml")).meta)["description"]
    assert "couldn't" in desc  # &apos; decoded


@pytest.mark.parametrize("path", NON_FILES, ids=ids(NON_FILES))
def test_non_corpus(path: Path) -> None:
    [p] = load_all(str(path))
    assert p.source == str(path)
    assert p.name
    meta = dict(p.meta)
    assert "catalogue" in meta and "author" in meta
    assert sum(map(sum, p.rows)) == sum(map(sum, p.columns))
    if p.goal is None:
        assert path.name == "cauldron.non"
        assert (p.width, p.height) == (512, 512)
    else:
        assert goal_reproduces_clues(p)


def test_non_and_xml_copies_agree() -> None:
    """picross-solver's .non copies of webpbn puzzles have the survey XML's clues."""
    need_corpus()
    pairs = 0
    for non_path in corpus("picross-solver/webpbn/*.non"):
        number = non_path.name.split("-")[1]
        xml_path = CORPUS / "webpbn-survey" / f"webpbn-{number}.xml"
        if xml_path.exists():
            a, b = load(str(non_path)), load(str(xml_path))
            assert clue_key(a) == clue_key(b) and a.goal == b.goal, non_path.name
            pairs += 1
    assert pairs == 10
    assert clue_key(load(str(CORPUS / "nonogram-db/db/webpbn/1.non"))) == clue_key(
        load(str(CORPUS / "webpbn-survey/webpbn-00001.xml"))
    )


@pytest.mark.parametrize("path", NIN_FILES[:: max(1, len(NIN_FILES) // 40)], ids=ids(NIN_FILES[:: max(1, len(NIN_FILES) // 40)]))
def test_nin_corpus_sample(path: Path) -> None:
    [p] = load_all(str(path))
    width, height = map(int, path.read_text().split("\n", 1)[0].split())
    assert (p.width, p.height) == (width, height)


def test_nin_corpus_all_and_quirks() -> None:
    need_corpus()
    for path in NIN_FILES:
        p = load(str(path))
        width, height = map(int, path.read_text().split("\n", 1)[0].split())
        assert (p.width, p.height) == (width, height), path.name
    data142 = load(str(CORPUS / "jwilk-nonogram/data/data142.nin"))  # clue lines repeated five times
    assert (data142.width, data142.height) == (25, 20)
    lines = (CORPUS / "jwilk-nonogram/data/data142.nin").read_text().splitlines()
    assert data142.rows[0] == tuple(map(int, lines[1].split()))
    assert data142.columns[-1] == tuple(map(int, lines[45].split()))
    data135 = load(str(CORPUS / "jwilk-nonogram/data/data135.nin"))  # line 16 is "0"
    assert data135.rows[14] == ()


def read_solutions(path: Path) -> list[tuple[str, ...]]:
    """A tournament solution file: ``$n`` then 25 lines of TAB-separated 0/1."""
    grids: list[tuple[str, ...]] = []
    rows: list[str] = []
    for line in path.read_text().splitlines():
        if line.startswith("$"):
            if rows:
                grids.append(tuple(rows))
            rows = []
        elif line.strip():
            rows.append("".join("#" if v == "1" else "." for v in line.split()))
    grids.append(tuple(rows))
    return grids


@pytest.mark.parametrize("path", QUESTION_FILES, ids=ids(QUESTION_FILES))
def test_tournament_sets(path: Path) -> None:
    puzzles = load_all(str(path))
    assert len(puzzles) == 1000
    solutions = read_solutions(path.parent.parent / "solution" / path.name)
    assert len(solutions) == 1000
    for k, (p, grid) in enumerate(zip(puzzles, solutions), 1):
        assert (p.width, p.height) == (25, 25)
        assert p.source == f"{path}#{k}"
        assert p.metadata["id"] == str(k)
        assert p.is_solution(grid), f"{path.name} ${k}"
    assert load(f"{path}#7") == puzzles[6]
    assert load_all(f"{path}#1000") == [puzzles[-1]]


def test_tournament_quirks() -> None:
    need_corpus()
    question = CORPUS / "tournament/nonogramrecord/question"
    p = load(str(question / "icga2020.txt#816"))  # CRLF, and a blank line = empty column 3
    assert p.columns[2] == () and p.width == 25
    with pytest.raises(ParseError, match=r"#k") as e:
        load(str(question / "taai2011.txt"))
    assert e.value.line is None and str(e.value).startswith(str(question / "taai2011.txt"))
    with pytest.raises(ParseError, match="no puzzle #1001"):
        load(str(question / "taai2011.txt#1001"))
    cannot = load(str(CORPUS / "tournament/cgi-lab/PuzzleCannotSolve.txt"))  # no '$' header
    assert (cannot.width, cannot.height) == (25, 25)
    assert cannot.columns[0] == (3, 2, 2, 1, 1) and cannot.source.endswith("PuzzleCannotSolve.txt")


def test_sniffing_corpus_ignores_misleading_suffix(tmp_path: Path) -> None:
    """Content decides: corpus files copied under a wrong suffix still load."""
    need_corpus()
    for src, fmt in [
        (CORPUS / "nonogram-db/db/webpbn/1.non", "non"),
        (CORPUS / "webpbn-survey/webpbn-00001.xml", "xml"),
        (CORPUS / "jwilk-nonogram/data/data001.nin", "nin"),
        (CORPUS / "tournament/cgi-lab/PuzzleCannotSolve.txt", "tournament"),
    ]:
        text = src.read_bytes()
        assert sniff(text) == fmt
        target = tmp_path / (src.stem + ".json")
        target.write_bytes(text)
        assert clue_key(load(str(target))) == clue_key(load(str(src)))


# --------------------------------------------------------------------------- round trips

TITLES = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff"),
    min_size=1,
    max_size=20,
).map(str.strip).filter(bool)


@st.composite
def grids(draw: st.DrawFn) -> tuple[str, ...]:
    h = draw(st.integers(1, 12))
    w = draw(st.integers(1, 12))
    return tuple(draw(st.text(alphabet="#.", min_size=w, max_size=w)) for _ in range(h))


@st.composite
def puzzles(draw: st.DrawFn) -> Puzzle:
    """A random grid's puzzle, sometimes without its goal, sometimes with a title and meta."""
    p = Puzzle.from_grid(draw(grids()))
    name = draw(st.none() | TITLES)
    meta = tuple(draw(st.lists(st.tuples(st.sampled_from(["author", "copyright", "license"]), TITLES), max_size=2, unique_by=lambda kv: kv[0])))
    goal = p.goal if draw(st.booleans()) else None
    return Puzzle(p.rows, p.columns, name=name, goal=goal, meta=meta)


@st.composite
def clue_puzzles(draw: st.DrawFn) -> Puzzle:
    """Well-formed clues that need not be solvable (they still must round-trip)."""
    line = st.lists(st.integers(1, 30), max_size=5).map(tuple)
    rows = draw(st.lists(line, min_size=1, max_size=12))
    cols = draw(st.lists(line, min_size=1, max_size=12))
    return Puzzle(tuple(rows), tuple(cols))


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


#: Formats that keep the goal's characters, by kind (a colour picture names its colours anew).
GOAL_KEPT = {"bw": GOAL_FORMATS, "color": {*EXACT_PALETTE_FORMATS, "non"}}
ROUND_TRIPS = [("bw", fmt) for fmt in WRITABLE_FORMATS] + [("color", fmt) for fmt in COLOUR_FORMATS]


def kind_puzzles(kind: str) -> st.SearchStrategy[Puzzle]:
    return puzzles() if kind == "bw" else colour_puzzles()


@pytest.mark.parametrize("kind, fmt", ROUND_TRIPS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_round_trip(kind: str, fmt: str, data: st.DataObject) -> None:
    p = data.draw(kind_puzzles(kind))
    if fmt in PICTURE_FORMATS and p.goal is None:
        with pytest.raises(ValueError, match="no goal"):
            dumps(p, fmt)
        return
    text = dumps(p, fmt)
    [q] = loads(text, fmt)
    assert clue_key(q) == clue_key(p)
    if fmt in GOAL_KEPT[kind]:
        assert q.goal == p.goal
    if fmt in TITLE_FORMATS:
        assert q.name == p.name
    if fmt in TITLE_FORMATS:
        assert q.meta == p.meta
    if kind == "color":
        assert q.is_color and canonical(q) == canonical(p)
        assert q.is_solution(q.goal)
        if fmt in EXACT_PALETTE_FORMATS:
            assert set(q.palette) == set(p.palette)
        if fmt == "non":  # letters are kept, RGB too; names come from the RGB
            assert {(c.char, c.rgb) for c in q.palette} == {(c.char, c.rgb) for c in p.palette}
    assert sniff(text) == fmt
    [r] = loads(text)  # sniffed
    assert r == q
    [s] = loads(text if isinstance(text, bytes) else text.encode("utf-8"), source=f"puzzle.{fmt}")  # suffix agrees
    assert s == q.with_source(f"puzzle.{fmt}")
    # writing what was read gives the same file (a fixed point)
    assert dumps(q, fmt) == dumps(loads(dumps(q, fmt), fmt)[0], fmt)


@pytest.mark.parametrize("fmt", sorted(set(WRITABLE_FORMATS) - PICTURE_FORMATS))
@settings(max_examples=40, deadline=None)
@given(p=clue_puzzles())
def test_round_trip_unsolvable_clues(fmt: str, p: Puzzle) -> None:
    text = dumps(p, fmt)
    assert clue_key(loads(text, fmt)[0]) == clue_key(p)
    assert sniff(text) == fmt


#: Formats that cannot hold clues without a goal (pictures), by kind.
GOAL_ONLY = {"bw": sorted(PICTURE_FORMATS), "color": ["ppm", "png"]}


@pytest.mark.parametrize("kind", ["bw", "color"])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_clues_without_goal_round_trip(kind: str, data: st.DataObject) -> None:
    import dataclasses

    bare = dataclasses.replace(data.draw(kind_puzzles(kind)), goal=None)
    for fmt in ("non", "xml", "json"):
        [q] = loads(dumps(bare, fmt), fmt)
        assert canonical(q) == canonical(bare) and q.goal is None
    for fmt in GOAL_ONLY[kind]:
        with pytest.raises(ValueError, match="no goal"):
            dumps(bare, fmt)


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


@settings(max_examples=30, deadline=None)
@given(ps=st.lists(puzzles(), min_size=2, max_size=4))
def test_multi_puzzle_json_and_nonpack(ps: list[Puzzle]) -> None:
    import json

    text = "[" + ",".join(str(dumps(p, "json")) for p in ps) + "]"
    json.loads(text)
    got = loads(text, source="set.json")
    assert [clue_key(q) for q in got] == [clue_key(p) for p in ps]
    assert [q.source for q in got] == [f"set.json#{k}" for k in range(1, len(ps) + 1)]
    pack = "====\n".join(str(dumps(p, "non")) for p in ps)
    assert [clue_key(q) for q in loads(pack, "non")] == [clue_key(p) for p in ps]


def test_pbm_raw_p4() -> None:
    grid = ("#.#.#.#.#", ".........", "########.")
    data = b"P4\n# a comment\n9 3\n" + bytes([0b10101010, 0b10000000, 0, 0, 0b11111111, 0b00000000]) + b"\n"
    [p] = loads(data)
    assert p.goal == grid and clue_key(p) == clue_key(Puzzle.from_grid(grid))
    with pytest.raises(ParseError, match="truncated"):
        loads(data[:-3], "pbm")
    plain = "P1\n# c\n9 3\n1 0 1 0 1 0 1 0 1\n000000000 # comment\n11111111\n0\n"
    assert loads(plain)[0].goal == grid


def test_text_grid_variants() -> None:
    [p] = loads("\nX-x\n-X-  \n\n", "txt")
    assert p.goal == ("#.#", ".#.")
    assert sniff("##\n..\n") == "txt"


# --------------------------------------------------------------------------- .non conventions

NON_ZERO = """title "t"
width 3
height 4

rows
1,1
0
3
0

columns
2
1
2
"""

NON_BLANK = """title "t"
width 3
height 4

rows
1,1

3


columns
2
1
2
"""

NON_SIMPSON_SPACED = """width 3
height 4
rows

1,1

0
3

0

columns
2
1
2
"""


def test_non_blank_and_zero_empties_agree() -> None:
    a, b, c = (loads(t, "non")[0] for t in (NON_ZERO, NON_BLANK, NON_SIMPSON_SPACED))
    assert clue_key(a) == clue_key(b) == clue_key(c) == (((1, 1), (), (3,), ()), ((2,), (1,), (2,)))
    for text in (NON_ZERO, NON_BLANK, NON_SIMPSON_SPACED):  # CRLF and a BOM change nothing
        assert loads("\ufeff" + text.replace("\n", "\r\n"), "non")[0] == loads(text, "non")[0]
        assert loads(("\ufeff" + text.replace("\n", "\r\n")).encode())[0] == loads(text)[0]


def test_non_corpus_with_blank_empties() -> None:
    """Real files rewritten with blank lines for their '0' lines give the same puzzles."""
    need_corpus()
    for name in ["nonogram-db/db/gnonograms/42.non", "picross-solver/webpbn/webpbn-36459-moss.non"]:
        text = (CORPUS / name).read_text()
        blank = re.sub(r"(?m)^0$", "", text)
        assert blank != text
        assert loads(blank, "non")[0] == loads(text, "non")[0], name


def test_non_details() -> None:
    text = (
        'catalogue "x #1"\ntitle "A &amp; B"\nby ""\nlicense\nlicense CC-BY-3.0\n# comment line\n'
        "mystery words here\nwidth 2\nheight 1\nrows\n2\ncolumns\n1\n1\ngoal 11\n"
    )
    [p] = loads(text)
    assert p.name == "A & B" and p.goal == ("##",)
    assert p.meta == (("catalogue", "x #1"), ("license", "CC-BY-3.0"), ("mystery", "words here"))
    [q] = loads('width 2\nheight 2\ngoal "1001"\n')  # clues derived from the goal
    assert clue_key(q) == (((1,), (1,)), ((1,), (1,)))
    [r] = loads("rows\n1\n2\ncolumns\n2\n1\n")  # size from the clue counts
    assert (r.width, r.height) == (2, 2)
    [s] = loads("width 1\nheight 1\nrows\n1\ncolumns\n5\n")  # cannot fit: not a parse error
    assert s.columns == ((5,),)


# --------------------------------------------------------------------------- error positions

BROKEN = [
    # (fmt, text, line, message fragment)
    ("non", "width 3\nheight 2\nrows\n1\n1,x\ncolumns\n1\n1\n1\n", 5, "whole number"),
    ("non", "width 3\nheight 2\nrows\n1\n-2\ncolumns\n1\n1\n1\n", 5, "negative"),
    ("non", "width 3\nheight 2\nrows\n1\n1\n1\ncolumns\n1\n1\n1\n", 6, "too many row"),
    ("non", "width 3\nheight 3\nrows\n1\n1\ncolumns\n1\n1\n1\n", 6, "expected 3 row"),
    ("non", "width 3\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n", 8, "expected 3 column"),  # end of file: its last line
    ("non", "width 2\nheight 1\nrows\n1\ncolumns\n1\n0\ngoal \"101\"\n", 8, "goal has 3 cells"),
    ("non", "width x\n", 1, "width"),
    ("non", "width 0\nheight 1\n", 1, "at least 1"),
    ("non", "title \"t\"\n1,2\n", 2, "outside"),
    ("non", "width 2\nheight 1\nrows\n1\n", None, "columns"),
    ("nin", "2 2\n1\n1\nx\n1\n", 4, "whole number"),
    ("nin", "2 2\n1\n1\n1\n", 4, "expected 2 column"),
    ("nin", "2\n1\n", 1, "width height"),
    ("nin", "\n2 2 2\n1\n1\n1\n1\n", 2, "width height"),
    ("mk", "2 2\n1\n1\n1\n#\n1\n1\n", 4, "too many row"),
    ("mk", "2 2\n1\n1\n1\n1\n", 5, "no '#'"),
    ("mk", "2 2\n1\n1\n#\n1\n1\n1\n", 7, "too many column"),
    ("cwd", "2\n2\n1\n1\n\n1\n", 6, "expected 2 column"),
    ("cwd", "2 3\n2\n", 1, "height alone"),
    ("cwd", "1\n1\n1\n\n1\n1\n", 6, "unexpected text"),
    ("tournament", "$1\n1\n1\n1\n$2\n1\n1\n1\n1\n", 4, "even number"),
    ("tournament", "$1\n1\t1\n1\n1\n1\n$x\n1\n1\n", 6, "'$<number>'"),
    ("tournament", "junk\n$1\n1\n1\n", 1, "before the first"),
    ("tournament", "$1\n1\n1\t-1\n", 3, "negative"),
    ("g", ": rows\n1\n2 a\n: columns\n1\n1\n", 3, "whole number"),
    ("g", "1\n2\n", 2, "':' line"),
    ("json", '{"rows": [[1]],\n "columns": [[1]\n}', 3, "malformed JSON"),
    ("json", '{"rows": [[1]], "columns": [[-1]]}', None, "columns[0][0]: block length must not be negative"),
    ("json", '{"rows": [[1]]}', None, "columns: missing"),
    ("json", '{"rows": [[1]], "columns": [[1], [1]], "goal": ["#", "."]}', None, "size differs"),
    ("xml", '<?xml version="1.0"?>\n<puzzleset>\n<puzzle>\n<clues type="rows">\n<line><count>x</count></line>\n</clues>\n</puzzle>\n</puzzleset>\n', 5, "whole number"),
    ("xml", "<puzzleset>\n<puzzle>\n</puzzleset>\n", 3, "malformed XML"),
    ("xml", '<puzzleset>\n<puzzle>\n<clues type="rows"><line><count>1</count></line></clues>\n</puzzle>\n</puzzleset>\n', 2, "no <clues type='columns'>"),
    ("xml", "<puzzleset>\n</puzzleset>\n", 1, "no <puzzle>"),
    ("xml", '<puzzleset><puzzle>\n<clues type="rows"><line><count>1</count></line></clues>\n<clues type="columns"><line><count>1</count></line></clues>\n<solution><image>\n|X|\n|X\n</image></solution></puzzle></puzzleset>', 4, "'|'"),
    ("pbm", "P1\n2 2\n1 0\n0 2\n", 4, "0 or 1"),
    ("pbm", "P1\n2 2\n1 0\n0\n", 4, "3 pixels"),
    ("pbm", "P1\n# c\n2 x\n", 3, "height"),
    ("pbm", "P1\n2 2\n1 0 0 1\n1\n", 4, "after the image"),
    ("txt", "##\n#.\n#\n", 3, "has 1 cells"),
    ("txt", "##\n#o\n", 2, "'o'"),
    ("txt", "##\n\n##\n", 2, "blank line"),
]

#: Bad colour input: (file name, text, line, message fragment).
BROKEN_COLOUR = [
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
BROKEN_COLOUR += [  # JSON has no lines
    ("p.json", '{"colors": {"a": "#ff00zz"}, "rows": [["1a"]], "columns": [["1a"]]}', None, "colors.a: malformed RGB"),
    ("p.json", '{"colors": {"a": "red", "b": "blue"}, "rows": [["1a", "1c"]], "columns": [["1a"], ["1b"]]}', None,
     "rows[0]: colour 'c' is not in the palette"),
    ("p.json", '{"colors": {"ab": "red"}, "rows": [["1a"]], "columns": [["1a"]]}', None, "one grid character"),
    ("p.json", '{"colors": {"a": "red", "b": "blue"}, "goal": ["az"]}', None, "goal[0]: unexpected character 'z'"),
]
#: Every broken file by kind: (kind, file name, text, line, fragment).
ALL_BROKEN = [("bw", f"broken.{fmt}", text, line, fragment) for fmt, text, line, fragment in BROKEN] + [
    ("color", *case) for case in BROKEN_COLOUR
]


@pytest.mark.parametrize("kind, name, text, line, fragment", ALL_BROKEN,
                         ids=[f"{c[0]}-{c[1]}-{k}" for k, c in enumerate(ALL_BROKEN)])
def test_error_positions(tmp_path: Path, kind: str, name: str, text: str, line: int | None, fragment: str) -> None:
    """A one-line error naming the file and line, read with its format and as a file by sniffing
    (the command line too) where sniffing picks the same reader."""
    fmt = name.rsplit(".", 1)[1]
    source = name
    with pytest.raises(ParseError) as e:
        loads(text, fmt, source=source)
    err = e.value
    assert err.line == line, str(err)
    assert err.source == source
    assert fragment in err.message, str(err)
    message = str(err)
    assert "\n" not in message and message.startswith(source + (f":{line}: " if line else ": "))
    if fmt in ("tournament", "g") and kind == "bw":  # sniffing picks another reader for these texts
        return
    if text == "2 2\n1\n1\n1\n1\n":  # a valid .nin file: content beats the .mk suffix
        assert loads(text, source=source)[0].rows == ((1,), (1,))
        return
    with pytest.raises(ParseError):
        loads(text, source=source)
    if sniff(text, fmt) not in (fmt, None):  # sniffing picks another reader, whose error differs
        return
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ParseError) as e:
        load(str(path))
    assert fragment in e.value.message and e.value.line == line
    where = f"{path}:{line}:" if line else f"{path}:"
    assert str(e.value).startswith(where + " ") and "\n" not in str(e.value)
    r = CliRunner().invoke(cli, ["check", str(path)])
    assert r.exit_code == 6 and "Traceback" not in r.output
    err_lines = r.stderr.strip().splitlines()
    assert len(err_lines) == 1 and where in err_lines[0] and fragment in err_lines[0]


def test_unsupported_puzzles() -> None:
    # a blotted clue (<count>0</count>) is read since issue 17 (tests/test_blotted_io.py)
    xml = ('<puzzleset><puzzle>\n<clues type="rows"><line><count>0</count></line></clues>\n'
           '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>')
    assert loads(xml, "xml")[0].row_clues[0].blots == 1
    # triddlers are read since issue 39 (tests/test_triddler_formats.py): an empty one is malformed
    with pytest.raises(ParseError, match="a triddler needs its <clues> sets") as e:
        loads('<puzzleset><puzzle type="triddler"></puzzle></puzzleset>', "xml")
    assert not isinstance(e.value, UnsupportedPuzzle)
    with pytest.raises(UnsupportedPuzzle, match="puzzle type 'hexagonal' is not supported"):
        loads('<puzzleset><puzzle type="hexagonal"></puzzle></puzzleset>', "xml")
    with pytest.raises(UnsupportedPuzzle, match="triangle"):
        loads("#d\n 1:X black\n t:/ black/red\n: rows\n1\n: columns\n1\n", "g")
    # number-loom: defaultcolor="white" with every count coloured black is black and white
    loom = (
        '<puzzleset><puzzle defaultcolor="white"><color name="white" char=" ">FFFFFF</color>'
        '<color name="black" char="#">000000</color>'
        '<clues type="rows"><line><count color="black">1</count></line></clues>'
        '<clues type="columns"><line><count color="black">1</count></line></clues>'
        "<solution><image>|#|</image></solution></puzzle></puzzleset>"
    )
    assert loads(loom)[0].goal == ("#",)


def test_xml_goal_only_and_safety() -> None:
    [p] = loads('<puzzleset><puzzle><solution type="goal"><image>|.X|\n|XX|</image></solution></puzzle></puzzleset>')
    assert clue_key(p) == (((1,), (2,)), ((1,), (2,)))
    bomb = '<?xml version="1.0"?>\n<!DOCTYPE lolz [\n<!ENTITY lol "lol">\n<!ENTITY lol2 "&lol;&lol;">\n]>\n<puzzleset>&lol2;</puzzleset>'
    with pytest.raises(ParseError, match="entity"):
        loads(bomb)
    external = '<?xml version="1.0"?>\n<!DOCTYPE p [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n<puzzleset>&x;</puzzleset>'
    with pytest.raises(ParseError):
        loads(external)


def test_sizes() -> None:
    with pytest.raises(PuzzleTooLarge) as e:
        loads(f"width {MAX_SIDE + 1}\nheight 1\n", "non")
    assert e.value.line == 1
    with pytest.raises(PuzzleTooLarge):
        loads(b"P4\n100000 100000\n", "pbm")
    with pytest.raises(PuzzleTooLarge):
        loads("P1 5000 5000\n")  # 25 million cells
    with pytest.raises(PuzzleTooLarge) as e:
        loads("width 5000\nheight 5000\nrows\n", "non")
    assert e.value.line == 2
    with pytest.raises(PuzzleTooLarge) as e:
        loads("\n5000 5000\n", "nin")
    assert e.value.line == 2
    with pytest.raises(ParseError, match="no cells") as e:
        loads("0 3\n", "nin")
    assert not isinstance(e.value, PuzzleTooLarge)
    with pytest.raises(ParseError, match="too large"):
        loads("1 1\n" + "9" * 5000 + "\n1\n", "nin")
    with pytest.raises(ParseError, match="longer than any supported line"):
        loads(f"1 1\n{MAX_SIDE + 1}\n1\n", "nin")


def test_sniff_failures_and_hints() -> None:
    with pytest.raises(ParseError, match="cannot tell the format of mystery.dat") as e:
        loads("hello world\n", source="mystery.dat")
    assert str(e.value).startswith("mystery.dat: ")
    with pytest.raises(ParseError, match="empty file"):
        loads(" \n\n", source="x.non")
    with pytest.raises(ParseError, match="unknown format"):
        loads("1 1\n1\n1\n", "nonsense")
    with pytest.raises(ParseError, match="not UTF-8 or Latin-1 text") as e:
        loads(b"width 1\n\x00\xff\xfe\n", source="bad.non")
    assert e.value.line == 2
    # the suffix breaks ties between plausible readers ...
    assert sniff("1\n1\n1\n\n1\n", "cwd") == "cwd"
    assert sniff("2 2\n1\n1\n1\n1\n", "mk") == "mk"
    assert sniff("2 2\n1\n1\n1\n1\n", None) == "nin"
    # ... but cannot override clear content
    assert sniff("$1\n1\n1\n", "txt") == "tournament"
    assert sniff("2 2\n1\n1\n1\n1\n", "non") == "nin"
    assert sniff("2\t1\n1\n2\n1\n") == "tournament"  # headerless: TABs, an even line count
    assert sniff("2\t1\t1\n1\n2\n") is None  # odd line count: not a square puzzle
    # a broken file of no recognisable shape goes to its suffix's reader for a precise error
    with pytest.raises(ParseError, match="outside") as e:
        loads("1,2\n", source="broken.non")
    assert e.value.line == 1
    assert format_from_suffix("a/b.PBN") == "xml" and format_from_suffix("x.dat") is None


# --------------------------------------------------------------------------- garbage in, ParseError out

TOKENS = [
    "width ", "height ", "rows", "columns", "goal ", '"', "title ", "1", "2", "0", "12", ",", " ", "\t",
    "\n", "\n", "\r\n", "#", ".", "X", "$1", "$", ":", "-", "P1", "P4", "<", ">", "{", "}", "[", "]",
    '"rows"', '"columns"', '"goal"', ": ", "<puzzleset>", "<puzzle>", "</puzzle>", "<clues type=\"rows\">",
    "<line>", "</line>", "<count>", "</count>", "</clues>", "<solution>", "<image>", "|", "color a", "3b",
    "99999999999", "\x00", "é", "====\n",
]
garbage_text = st.one_of(
    st.text(max_size=200),
    st.lists(st.sampled_from(TOKENS), max_size=60).map("".join),
)
garbage_bytes = st.one_of(
    st.binary(max_size=200),
    st.tuples(st.sampled_from([b"P4 3 2\n", b"P4\n#c\n9 2 ", b"P1 2 2\n", b"\xef\xbb\xbf", b"<a>"]), st.binary(max_size=20)).map(
        lambda t: t[0] + t[1]
    ),
)


def loads_or_parse_error(data: str | bytes, fmt: str | None) -> None:
    try:
        result = loads(data, fmt, source="garbage")
    except ParseError as e:
        assert "\n" not in str(e) and str(e).startswith("garbage")
        return
    assert result and all(isinstance(p, Puzzle) for p in result)
    for p in result:
        assert p.height > 0 and p.width > 0


@pytest.mark.parametrize("fmt", [None, *FORMATS])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.one_of(garbage_text, garbage_bytes))
def test_garbage_gives_parse_error(fmt: str | None, data: str | bytes) -> None:
    loads_or_parse_error(data, fmt)


DAMAGED = [("bw", fmt) for fmt in sorted(set(WRITABLE_FORMATS) - BINARY_FORMATS)] + [
    ("color", fmt) for fmt in sorted(BINARY_FORMATS)
]


@pytest.mark.parametrize("kind, fmt", DAMAGED)
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(data=st.data())
def test_damaged_files_give_parse_error(kind: str, fmt: str, data: st.DataObject) -> None:
    """Text formats are damaged with text, pictures (drawn in colour) with bytes."""
    p = data.draw(kind_puzzles(kind))
    assume(fmt not in PICTURE_FORMATS or p.goal is not None)
    text = dumps(p, fmt)
    cut = data.draw(st.integers(0, len(text)))
    if isinstance(text, bytes):
        junk: str | bytes = data.draw(st.binary(max_size=4))
    else:
        junk = data.draw(st.sampled_from(["", "x", "-", "0", "\n", "\t", "#", "9999999999", '"', "<", "|"]))
    damaged = text[:cut] + junk + text[cut + data.draw(st.integers(0, 3)) :]
    loads_or_parse_error(damaged, fmt)
    loads_or_parse_error(damaged, None)
    loads_or_parse_error(text[:cut], fmt)


# --------------------------------------------------------------------------- files, stdin, FILE#k, save

def test_load_files_and_selectors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    a, b = Puzzle.from_grid(["#."], name="a"), Puzzle.from_grid([".#", "##"], name="b")
    multi = tmp_path / "two.json"
    multi.write_text("[" + str(dumps(a, "json")) + "," + str(dumps(b, "json")) + "]")
    got = load_all(str(multi))
    assert [p.name for p in got] == ["a", "b"]
    assert [p.source for p in got] == [f"{multi}#1", f"{multi}#2"]
    with pytest.raises(ParseError, match=r"holds 2 puzzles; choose one with .*two\.json#k"):
        load(str(multi))
    assert load(f"{multi}#2").source == f"{multi}#2"
    assert load_all(f"{multi}#1") == [got[0]]
    for bad, fragment in [("#3", "no puzzle #3"), ("#0", "start at 1"), ("#x", "positive integer"), ("#-1", "positive integer")]:
        with pytest.raises(ParseError, match=fragment) as e:
            load(f"{multi}{bad}")
        assert e.value.source == str(multi)
    hashed = tmp_path / "odd#1.non"  # a file whose name contains '#'
    hashed.write_text(str(dumps(a, "non")))
    assert load(str(hashed)).source == str(hashed)
    single = tmp_path / "one.nin"
    single.write_text("1 1\n1\n1\n")
    assert load(f"{single}#1").source == str(single)
    with pytest.raises(ParseError, match="no such file") as e:
        load(str(tmp_path / "missing.non"))
    assert e.value.line is None and e.value.source == str(tmp_path / "missing.non")
    with pytest.raises(ParseError, match="no such file"):
        load(str(tmp_path / "missing.non#2"))
    with pytest.raises(ParseError, match="directory"):
        load(str(tmp_path))
    latin = tmp_path / "latin.json"  # JSON is UTF-8 (RFC 8259); .non takes Latin-1 (test_encodings.py)
    latin.write_bytes('{"title": "caf\xe9", "rows": [[1]], "columns": [[1]]}'.encode("latin-1"))
    with pytest.raises(ParseError, match="not UTF-8 text"):
        load(str(latin))
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"1 1\n1\n1\n")))
    p = load("-")
    assert p.source == "-" and p.rows == ((1,),)


def test_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    p = Puzzle.from_grid(["#.", "##"], name="s")
    target = tmp_path / "p.non"
    save(p, str(target))
    assert load(str(target)) == p.with_source(str(target))
    before = target.read_bytes()
    with pytest.raises(FileExistsError):
        save(Puzzle.from_grid(["#"]), str(target))
    assert target.read_bytes() == before
    save(p, str(target), fmt="json", overwrite=True)  # explicit format wins over the suffix
    assert target.read_text().startswith("{")
    assert os.listdir(tmp_path) == ["p.non"]  # no temporary files left behind

    def crash(*args: object) -> None:
        raise OSError("disk on fire")

    monkeypatch.setattr(os, "replace", crash)
    with pytest.raises(OSError, match="disk on fire"):
        save(p, str(target), fmt="nin", overwrite=True)
    assert target.read_text().startswith("{")  # the old file is intact
    assert os.listdir(tmp_path) == ["p.non"]
    monkeypatch.undo()
    with pytest.raises(ValueError, match="no goal"):
        save(Puzzle.from_clues([[1]], [[1]]), str(tmp_path / "x.pbm"))
    assert not (tmp_path / "x.pbm").exists()
    with pytest.raises(ValueError, match="output format"):
        save(p, str(tmp_path / "x.unknown"))
    save(p, str(tmp_path / "x.pbm"))
    assert (tmp_path / "x.pbm").read_text() == "P1\n# Title: s\n2 2\n10\n11\n"
    assert load(str(tmp_path / "x.pbm")).goal == p.goal and load(str(tmp_path / "x.pbm")).name == "s"


def test_formats_lists() -> None:
    assert set(WRITABLE_FORMATS) <= set(FORMATS)
    assert {"non", "json", "pbm", "txt", "xml", "nin"} <= set(WRITABLE_FORMATS)
    assert {"non", "xml", "nin", "mk", "cwd", "tournament", "json", "pbm", "txt"} <= set(FORMATS)
    with pytest.raises(ValueError, match="cannot write"):
        dumps(Puzzle.from_grid(["#"]), "tournament")


@pytest.mark.parametrize("item, why", [('"1"', "expected a whole number"), ("1.0", "expected a whole number"),
                                       ("true", "expected a whole number"), ("null", "expected a whole number"),
                                       ("[1]", "a colour block is [length, colour]"),
                                       ('["1", "a"]', "expected a whole number")])
def test_json_numbers_in_a_clue_list_must_be_integers(item: str, why: str) -> None:
    """A string and a float inside a clue list are refused alike (issue 13); a list inside a
    clue list is a colour block, whose length must be an integer too."""
    with pytest.raises(ParseError) as e:
        loads('{"rows": [[' + item + ']], "columns": [[1]]}', source="a.json")
    got = item if why != "expected a whole number" or not item.startswith("[") else '"1"'
    assert e.value.message == f"rows[0][0]: {why}, got {got}"
    # a whole clue written as one string stays accepted
    assert loads('{"rows": ["1"], "columns": [[1]]}')[0].rows == ((1,),)


def test_selectors_parse_a_multi_puzzle_file_once(tmp_path, monkeypatch):
    """`check F#1 ... F#k` reads and parses F once per process (it parsed F k times);
    a changed file is read again."""
    import satnono.formats as formats

    path = tmp_path / "many.json"
    doc = [{"rows": [[1]], "columns": [[1]]}, {"rows": [[1], [0]], "columns": [[1]]}, {"rows": [[0]], "columns": [[0]]}]
    path.write_text(json.dumps(doc))
    calls = []
    real = formats.loads
    monkeypatch.setattr(formats, "loads", lambda *a, **k: calls.append(1) or real(*a, **k))
    got = [formats.load(f"{path}#{k}") for k in (1, 2, 3, 2)]
    assert len(calls) == 1
    assert [p.height for p in got] == [1, 2, 1, 2]
    path.write_text(json.dumps(doc[:2]))  # changed (size): read again
    with pytest.raises(formats.ParseError, match="there is no puzzle #3"):
        formats.load(f"{path}#3")
    assert len(calls) == 2


def test_a_selector_on_a_tournament_file_parses_only_that_puzzle(tmp_path):
    """FILE#k on a format with an index (tournament sets) parses puzzle k alone (issue 19:
    `check F#1 ... F#50` on a 1000-puzzle file cost 1.5x the same puzzles as files): puzzle k
    read so equals puzzle k of a whole read, a malformed puzzle elsewhere does not stop it, and
    puzzle k's own error names its line."""
    import random

    import satnono.formats as formats
    from satnono.model import Puzzle

    rng = random.Random(7)
    chunks = []
    for k in range(1, 7):
        n = rng.randrange(1, 6)
        p = Puzzle.from_grid(["".join(rng.choice("#.") for _ in range(n)) for _ in range(n)])
        body = [" ".join(map(str, c)) or "0" for c in (*p.columns, *p.rows)]
        chunks.append("\n".join([f"${k}", *[b.replace(" ", "\t") for b in body]]))
    good = tmp_path / "set.txt"
    good.write_text("\n".join(chunks) + "\n")
    whole = formats.load_all(str(good))
    picked = [formats.load(f"{good}#{k}") for k in range(1, len(whole) + 1)]
    assert picked == whole and [p.source for p in picked] == [p.source for p in whole]
    assert [p.meta for p in picked] == [p.meta for p in whole]

    bad = tmp_path / "bad.txt"
    lines = "\n".join(chunks).splitlines()
    second = lines.index("$2")
    lines[second + 1] = "1\tx"
    bad.write_text("\n".join(lines) + "\n")
    assert formats.load(f"{bad}#1") == whole[0].with_source(f"{bad}#1")
    assert formats.load(f"{bad}#3") == whole[2].with_source(f"{bad}#3")
    with pytest.raises(ParseError) as e:
        formats.load(f"{bad}#2")
    assert e.value.line == second + 2
    with pytest.raises(ParseError):
        formats.load_all(str(bad))  # a whole read still refuses the file
    with pytest.raises(ParseError, match="there is no puzzle #7: the file holds 6 puzzles"):
        formats.load(f"{bad}#7")


def test_picross_refuses_colour_like_the_other_black_and_white_formats(tmp_path):
    from click.testing import CliRunner

    from satnono.cli import cli

    src = str(Path(__file__).resolve().parents[1] / "puzzles" / "satnono" / "colour-search-10x10.non")
    out = tmp_path / "c.txt"
    r = CliRunner().invoke(cli, ["convert", "--to", "picross", src, str(out)])
    assert r.exit_code == 6 and "picross format holds black-and-white puzzles only" in r.output
    assert len(r.output.strip().splitlines()) == 1 and not out.exists()


def test_a_failed_write_names_the_target_not_the_temporary_file(tmp_path, monkeypatch):
    """convert and the editor's Save word a failed write as every writer does:
    'PATH: cannot write: REASON', never the hidden temporary file or an errno (issue 20, item 6)."""
    import errno as _errno

    from click.testing import CliRunner

    import satnono.formats as formats
    from satnono.cli import cli

    def read_only(*a, **k):
        raise OSError(_errno.EROFS, "Read-only file system", str(tmp_path / ".x.json.abcd.tmp"))

    monkeypatch.setattr(formats.tempfile, "mkstemp", read_only)
    src = str(Path(__file__).resolve().parents[1] / "puzzles" / "webpbn" / "webpbn-00001.xml")
    target = tmp_path / "x.json"
    r = CliRunner().invoke(cli, ["convert", src, str(target)])
    assert r.exit_code == 6
    assert r.output.strip() == f"satnono: {target}: cannot write: Read-only file system"
    assert not target.exists()


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


# --------------------------------------------------------------------------- bad colour pictures

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
    page = (Path(__file__).resolve().parents[1] / "docs" / "formats.md").read_text(encoding="utf-8")
    block = page.split("```json\n", 1)[1].split("```", 1)[0]
    [p] = loads(block, source="formats.json")
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
