"""A puzzle's title and properties through every writer and its reader.

The rule: nothing the user had is lost or changed on the way through a reader and a writer.
``non``, ``xml``, ``json`` and ``png`` hold the title and every property exactly (spaces at
either end, quotes, ``&``, ``<``, line breaks, any key, a key given twice); ``picross``, ``pbm``
and ``ppm`` hold them as comments, text on one line; ``nin``, ``mk``, ``cwd`` and ``txt`` hold
clues or cells alone.  What a format leaves out, :func:`satnono.formats.unkept_metadata` names.

webpbn's ``.non`` exports (``catalogue "webpbn.com #1"``, ``title``, ``by``, ``copyright``) lost
their catalogue in XML, and 155 of 6,746 titles their last space (``title "Self portrait "``).
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from satnono.formats import (
    LINE_METADATA_FORMATS,
    METADATA_FORMATS,
    WRITABLE_FORMATS,
    dumps,
    loads,
    unkept_metadata,
)
from satnono.model import Color, Puzzle

#: Formats of clues or cells alone.
NO_METADATA_FORMATS = ("nin", "mk", "cwd", "txt")
#: Formats that hold colour puzzles.
COLOUR_FORMATS = ("non", "xml", "json", "ppm", "png")

TITLE = '  Dancer & <Co> "q" \'s ü — 舞 '
META = (
    ("catalogue", "webpbn.com #1"),
    ("author", "Jan Wolter "),
    ("copyright", "© Copyright 2004 by Jan Wolter"),
    ("license", "CC-BY-3.0"),
    ("description", " a <stick> figure & \"friend\",\nline two\r\nthree\tand a tab "),
    ("note", "first"),
    ("note", "second"),  # a key given twice
    ("source url", "https://webpbn.com/1"),  # not a word
    ("License", "upper case"),
    ("width", "5"),  # the formats' own words
    ("name", "Dancer's name"),
    ("title", "a property named title"),
    ("by", "a property named by"),
    ("meta", "a property named meta"),
    ("property", "a property named property"),
    ("a:b", "a colon in the key"),
    ("size", "10x10"),
)


def one_line(text: str) -> str:
    return " ".join(text.split())


def comment_key(key: str) -> bool:
    """A key the comment formats hold: a word of letters, digits, _ and spaces from an ASCII letter."""
    k = one_line(key)
    return bool(k) and k[0].isascii() and k[0].isalpha() and len(k) <= 31 and all(c.isalnum() or c in "_ " for c in k)


def expected(p: Puzzle, fmt: str) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    """The title and properties a puzzle read back from ``fmt`` has, as the README documents."""
    if fmt in METADATA_FORMATS:
        return p.name, p.meta
    if fmt in NO_METADATA_FORMATS:
        return None, ()
    assert fmt in LINE_METADATA_FORMATS
    name = one_line(p.name) if p.name is not None and one_line(p.name) else None
    skip = {"size"} if fmt == "picross" else {"title"}  # picross-solver's '# Size:'; pbm/ppm: '# Title:' is the name
    meta = tuple((one_line(k).lower(), one_line(v)) for k, v in p.meta
                 if comment_key(k) and one_line(k).lower() not in skip and one_line(v))
    return name, meta


def puzzle(fmt: str, name: str | None = TITLE, meta: tuple[tuple[str, str], ...] = META, colour: bool = False) -> Puzzle:
    if colour:
        palette = (Color("white", ".", (255, 255, 255)), Color("red", "r", (255, 0, 0)), Color("blue", "b", (0, 0, 255)))
        return Puzzle.from_grid(["rb.", ".rr"], palette=palette, name=name, meta=meta)
    return Puzzle.from_grid(["##.", ".#."], name=name, meta=meta)


def round_trip(p: Puzzle, fmt: str) -> Puzzle:
    text = dumps(p, fmt)
    [q] = loads(text, fmt)
    [r] = loads(text.encode("utf-8") if isinstance(text, str) else text, source=f"puzzle.{fmt}")  # as from a file
    assert (r.name, r.meta) == (q.name, q.meta)
    return q


def test_the_tables_cover_every_writable_format() -> None:
    assert sorted(METADATA_FORMATS + LINE_METADATA_FORMATS + NO_METADATA_FORMATS) == sorted(WRITABLE_FORMATS)


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS)
def test_every_field_a_format_holds_survives(fmt: str) -> None:
    p = puzzle(fmt)
    q = round_trip(p, fmt)
    assert (q.name, q.meta) == expected(p, fmt)
    assert q.rows == p.rows and q.columns == p.columns


@pytest.mark.parametrize("fmt", COLOUR_FORMATS)
def test_every_field_survives_in_colour(fmt: str) -> None:
    p = puzzle(fmt, colour=True)
    q = round_trip(p, fmt)
    assert q.is_color and (q.name, q.meta) == expected(p, fmt)


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS)
def test_what_a_format_leaves_out_is_named(fmt: str) -> None:
    """unkept_metadata names exactly the title and the properties (by key) that do not come back."""
    p = puzzle(fmt)
    q = round_trip(p, fmt)
    lost = [] if q.name is not None else ["the title"]
    back = list(q.meta)
    for k, v in p.meta:
        got = (k, v) if fmt in METADATA_FORMATS else (one_line(k).lower(), one_line(v))
        if got in back:
            back.remove(got)
        else:
            lost.append(f"property {k!r}")
    assert unkept_metadata(p, fmt) == lost
    assert back == []  # nothing made up either


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS)
def test_a_puzzle_without_metadata_gets_none(fmt: str) -> None:
    q = round_trip(puzzle(fmt, name=None, meta=()), fmt)
    assert (q.name, q.meta) == (None, ())


@pytest.mark.parametrize("fmt", ["non", "xml", "json", "png"])
def test_an_empty_title_stays_empty(fmt: str) -> None:
    assert round_trip(puzzle(fmt, name="", meta=()), fmt).name == ""


# --------------------------------------------------------------------------- webpbn's .non exports

WEBPBN_NON = """catalogue "webpbn.com #11288"
title "Desert Silluete "
by "Aldege Cholette"
copyright "&copy; Copyright 2012 by Aldege Cholette"
license CC-BY-3.0
width 3
height 2

rows
2
1

columns
1
2
0

goal "110010"
"""


@pytest.mark.parametrize("fmt", ["xml", "json"])
def test_a_webpbn_export_goes_through_and_back_unchanged(fmt: str) -> None:
    [p] = loads(WEBPBN_NON, "non")
    assert p.name == "Desert Silluete "
    assert p.meta == (("catalogue", "webpbn.com #11288"), ("author", "Aldege Cholette"),
                      ("copyright", "© Copyright 2012 by Aldege Cholette"), ("license", "CC-BY-3.0"))
    [q] = loads(dumps(p, fmt), fmt)
    assert (q.name, q.meta, q.rows, q.columns, q.goal) == (p.name, p.meta, p.rows, p.columns, p.goal)
    [r] = loads(dumps(q, "non"), "non")
    assert r == p and dumps(r, "non") == dumps(p, "non")


def test_xml_writes_the_catalogue_and_every_property() -> None:
    [p] = loads(WEBPBN_NON, "non")
    xml = dumps(p, "xml")
    assert "<title>Desert Silluete </title>" in xml
    assert "<catalogue>webpbn.com #11288</catalogue>" in xml and "<license>CC-BY-3.0</license>" in xml
    assert "<author>Aldege Cholette</author>" in xml
    odd = p.replace(meta=(("source url", "u"), ("title", "t"), ("xmlish", "x"), ("color", "c")))
    xml = dumps(odd, "xml")
    for line in ('<meta name="source url">u</meta>', '<meta name="title">t</meta>', '<meta name="xmlish">x</meta>',
                 '<meta name="color">c</meta>'):
        assert line in xml


def test_xml_text_is_read_as_written() -> None:
    """The text of a metadata element is kept as written, as pbnsolve reads it; an empty element is
    no property; unknown elements holding text are properties too."""
    xml = ('<puzzleset><source>webpbn.com</source><puzzle>\n<title>Self portrait </title>\n'
           '<author> Jan  Wolter</author><catalogue>webpbn.com #1</catalogue><note></note>'
           '<meta name="source url">u </meta><meta>no name</meta>'
           '<clues type="rows"><line><count>1</count></line></clues>'
           '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>')
    [p] = loads(xml, "xml")
    assert p.name == "Self portrait "
    assert p.meta == (("author", " Jan  Wolter"), ("catalogue", "webpbn.com #1"), ("source url", "u "),
                      ("source", "webpbn.com"))
    [q] = loads(xml.replace("<title>Self portrait </title>", "<title></title>"), "xml")
    assert q.name == ""
    [r] = loads(xml.replace("<title>Self portrait </title>", "<title/>").replace(
        "<puzzleset>", "<puzzleset><title>The set</title>"), "xml")
    assert r.name == "The set"


def test_xml_refuses_what_xml_cannot_hold() -> None:
    with pytest.raises(ValueError, match=r"cannot store the title: it holds the control character U\+0007"):
        dumps(Puzzle.from_grid(["#"], name="bell\x07"), "xml")
    with pytest.raises(ValueError, match="cannot store property 'author'"):
        dumps(Puzzle.from_grid(["#"], meta=[("author", "a\x1bb")]), "xml")
    for fmt in ("non", "json"):  # which hold it
        q = round_trip(Puzzle.from_grid(["#"], name="bell\x07", meta=[("author", "a\x1bb")]), fmt)
        assert (q.name, q.meta) == ("bell\x07", (("author", "a\x1bb"),))


def test_non_property_lines() -> None:
    p = Puzzle.from_grid(["#"], meta=[("Source URL", 'a "quoted" &amp; value'), ("width", "5")])
    text = dumps(p, "non")
    assert 'property "Source URL" "a &quot;quoted&quot; &amp;amp; value"\nproperty "width" "5"\n' in text
    assert loads(text, "non")[0].meta == p.meta
    # a property line of another shape is the property 'property', as any unknown word
    [q] = loads('property one "two"\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n', "non")
    assert q.meta == (("property", 'one "two"'),)


def test_json_meta_pairs() -> None:
    p = Puzzle.from_grid(["#"], name="t", meta=[("name", "n"), ("rows", "r"), ("author", "a"), ("author", "b")])
    text = dumps(p, "json")
    assert '"meta": [\n    ["name", "n"],\n    ["rows", "r"],\n    ["author", "a"],\n    ["author", "b"]\n  ]' in text
    assert loads(text, "json")[0].meta == p.meta
    # plain keys stay keys of their own
    assert '"author": "a",' in dumps(p.replace(meta=(("author", "a"), ("license", "x"))), "json")
    # a "meta" that is no list of pairs is read as before: a string is a property, anything else ignored
    [q] = loads('{"meta": "m", "rows": [[1]], "columns": [[1]]}', "json")
    assert q.meta == (("meta", "m"),)
    [r] = loads('{"meta": {"a": 1}, "rows": [[1]], "columns": [[1]]}', "json")
    assert r.meta == ()


def test_picture_comments_are_read() -> None:
    """pbm and ppm keep the header's '# Key: value' comments; other comments stay ignored."""
    [p] = loads(b"P1\n# Created by GIMP\n# Title: Cat\n# CREATOR: GIMP PNM Filter\n2 1\n10\n", "pbm")
    assert p.name == "Cat" and p.meta == (("creator", "GIMP PNM Filter"),)
    [q] = loads(b"P1\n# a comment\n2 1\n10\n", "pbm")
    assert (q.name, q.meta) == (None, ())


def test_png_properties_chunk_is_checked() -> None:
    import io

    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    for junk in ("not json", '{"a": 1}', '[["a"]]', '[[1, 2]]'):
        info = PngInfo()
        info.add_itxt("satnono:properties", junk)
        out = io.BytesIO()
        Image.new("RGB", (1, 1)).save(out, format="PNG", pnginfo=info)
        [p] = loads(out.getvalue(), "png")
        assert p.meta == ()


# --------------------------------------------------------------------------- any text

TEXT = st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="\ufffe\uffff")
               | st.sampled_from(" \t\n\r\"'&<>;#=,:"), min_size=1, max_size=24)
KEYS = st.sampled_from(["author", "copyright", "catalogue", "license", "note", "title", "width", "by", "Source URL",
                        "meta", "property", "name", "rows", "é"]) | st.text(min_size=1, max_size=8)


def xml_holds(text: str) -> bool:
    return not any(ord(c) < 32 and c not in "\t\n\r" for c in text)


@pytest.mark.parametrize("fmt", METADATA_FORMATS)
@settings(max_examples=80, deadline=None)
@given(name=st.none() | TEXT, meta=st.lists(st.tuples(KEYS, TEXT), max_size=4))
def test_any_text_round_trips_exactly(fmt: str, name: str | None, meta: list[tuple[str, str]]) -> None:
    """Any title and any properties come back exactly: through the format, and through it and back
    to .non (XML 1.0 cannot hold control characters: the writer refuses them, tested above)."""
    assume(fmt != "xml" or all(xml_holds(k) for k, _ in meta))
    p = Puzzle.from_grid(["#."], name=name, meta=tuple(meta))
    q = round_trip(p, fmt)
    assert (q.name, q.meta) == (p.name, p.meta)
    [r] = loads(dumps(q, "non"), "non")
    assert (r.name, r.meta) == (p.name, p.meta)


def test_a_level_picture_holds_the_picture_alone() -> None:
    """A game level's PBM is the picture (its name is the file's, its flag the .level's): the
    properties of a puzzle read elsewhere (a © in its copyright) are not written there."""
    from satnono.formats import level

    p = Puzzle.from_grid(["#.", ".#"], name="Café", meta=[("copyright", "© 2004"), ("completed", "1")])
    files = level.write_files(p)
    assert files[".pbm"] == b"P1\n2 2\n10\n01\n" and files[".level"] == b"1\n"


def test_convert_says_what_a_format_leaves_out(tmp_path) -> None:
    """Written as asked, never silently: a note on stderr names what the target format cannot hold."""
    import subprocess
    import sys

    src = tmp_path / "p.non"
    src.write_text('title "Dot"\nby "Jan"\nwidth 1\nheight 1\n\nrows\n1\n\ncolumns\n1\n', encoding="utf-8")
    run = [sys.executable, "-m", "satnono", "convert", "--force", str(src)]
    lossy = subprocess.run([*run, str(tmp_path / "p.nin")], capture_output=True, text=True)
    assert lossy.returncode == 0 and lossy.stderr.count("\n") == 1
    assert "the nin format cannot hold the title and property 'author'" in lossy.stderr
    kept = subprocess.run([*run, str(tmp_path / "p.xml")], capture_output=True, text=True)
    assert kept.returncode == 0 and kept.stderr == ""
