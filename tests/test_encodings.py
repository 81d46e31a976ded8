"""Text encodings: Latin-1 (Windows-1252) puzzle files are read, UTF-8 is written.

webpbn's ``.non`` exports carry their title and author in Latin-1 (Windows-1252) when they are
not ASCII.  The line-based formats with free text (``.non`` and Nonny's dialect, ``.g``,
picross-solver's text, pynogram's text) read a line that is not UTF-8 as Latin-1; the formats
that hold numbers only, JSON (UTF-8 by RFC 8259) and TOML (UTF-8 by its spec) still refuse
non-UTF-8 bytes, and bytes that are no text at all (NUL and other control bytes) are refused in
every format with one line naming the file and line, exit code 6.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from satnono.cli import cli
from satnono.errors import ParseError
from satnono.formats import load, load_all, loads

TITLE = "Café Öland ’92"  # ’ is 0x92 in Windows-1252 (a C1 control in ISO-8859-1)
AUTHOR = "Åsa Pérez"
COPYRIGHT = "© 2010 Åsa Pérez"


def non_text(title: str = TITLE, author: str = AUTHOR) -> str:
    """A small unique .non puzzle (a 3x3 cross) with the given title and author."""
    return (f'catalogue "test #1"\ntitle "{title}"\nby "{author}"\ncopyright "{COPYRIGHT}"\n'
            "width 3\nheight 3\n\nrows\n1\n3\n1\n\ncolumns\n1\n3\n1\n")


def latin1(text: str) -> bytes:
    return text.encode("cp1252")


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


# --------------------------------------------------------------------------- .non in Latin-1


def test_a_latin1_non_file_reads_as_its_characters(tmp_path) -> None:
    data = latin1(non_text())
    with pytest.raises(UnicodeDecodeError):
        data.decode("utf-8")  # the file really is not UTF-8
    path = tmp_path / "latin1.non"
    path.write_bytes(data)
    p = load(str(path))
    assert p.name == TITLE
    assert ("author", AUTHOR) in p.meta and ("copyright", COPYRIGHT) in p.meta
    assert p.rows == ((1,), (3,), (1,)) and p.columns == ((1,), (3,), (1,))
    # and from bytes with the format sniffed (no suffix), as a directory walk reads them
    [q] = loads(data)
    assert q.name == TITLE and ("author", AUTHOR) in q.meta


def test_check_reads_a_latin1_non_file(tmp_path) -> None:
    path = tmp_path / "latin1.non"
    path.write_bytes(latin1(non_text()))
    r = run("check", str(path))
    assert r.exit_code == 0, r.output
    assert "unique" in r.output and "UTF-8" not in r.output
    r = run("check", "--json", str(path))
    assert r.exit_code == 0, r.output
    doc = json.loads(r.output)
    assert doc["status"] == "unique" and doc["name"] == TITLE


@pytest.mark.parametrize("suffix", [".non", ".json", ".xml"])
def test_convert_writes_utf8_with_the_same_characters(tmp_path, suffix: str) -> None:
    src = tmp_path / "latin1.non"
    src.write_bytes(latin1(non_text()))
    out = tmp_path / f"out{suffix}"
    r = run("convert", str(src), str(out))
    assert r.exit_code == 0, r.output
    text = out.read_bytes().decode("utf-8")  # strict: the output is UTF-8
    assert TITLE in text and AUTHOR in text
    back = load(str(out))
    assert back.name == TITLE and ("author", AUTHOR) in back.meta
    assert back.rows == ((1,), (3,), (1,)) and back.columns == ((1,), (3,), (1,))


def test_a_utf8_file_is_read_as_utf8_once(tmp_path) -> None:
    """No double decoding: UTF-8 stays UTF-8, even text that reads as Latin-1 mojibake."""
    for title in (TITLE, "CafÃ© (sic)"):
        path = tmp_path / "utf8.non"
        path.write_bytes(non_text(title).encode("utf-8"))
        assert load(str(path)).name == title
    path.write_bytes(b"\xef\xbb\xbf" + non_text().encode("utf-8"))  # a BOM too
    assert load(str(path)).name == TITLE


def test_a_line_that_is_not_utf8_is_read_as_latin1_the_others_as_utf8(tmp_path) -> None:
    """A file with a UTF-8 line and a Latin-1 line (edited with two editors) keeps both."""
    head, _, rest = non_text().partition("\nby ")
    path = tmp_path / "mixed.non"
    path.write_bytes(head.encode("utf-8") + b"\nby " + latin1(rest))
    p = load(str(path))
    assert p.name == TITLE and ("author", AUTHOR) in p.meta and ("copyright", COPYRIGHT) in p.meta


# --------------------------------------------------------------------------- the other formats

LATIN1_FORMATS = {
    # format: (file text with TITLE in its free text, what the reader keeps of it)
    "nonny": ('title "{t}"\nwidth 1\nheight 1\ncolor red FF0000 r\nrows\nred 1\ncolumns\nred 1\n', "name"),
    "picross": ("# Author: {t}\nGRID {t}\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n", "name"),
    "g": ("{t}\n: rows\n1\n: columns\n1\n", None),  # a preamble (comments only)
    "pynogram": ("# {t}\n[clues]\ncolumns = 1\nrows = 1\n", None),  # a comment
}


@pytest.mark.parametrize("fmt", sorted(LATIN1_FORMATS))
def test_line_based_formats_with_free_text_read_latin1(fmt: str) -> None:
    template, kept = LATIN1_FORMATS[fmt]
    data = latin1(template.format(t=TITLE))
    for given in (fmt, None):  # named, and sniffed from the bytes
        [p] = loads(data, given, source="x")
        assert p.rows == ((1,), ) and p.columns == ((1,),)
        if kept == "name":
            assert p.name == TITLE


@pytest.mark.parametrize("fmt, data", [
    ("json", '{"title": "%s", "rows": [[1]], "columns": [[1]]}'),
    ("nonogrid", '# %s\n[clues]\ncolumns = "1"\nrows = "1"\n'),
    ("nin", "1 1\n1\n1\n%s\n"),
])
def test_formats_that_must_be_utf8_still_refuse_latin1(fmt: str, data: str) -> None:
    with pytest.raises(ParseError, match="not UTF-8 text") as e:
        loads(latin1(data % TITLE), fmt, source="x")
    assert "\n" not in str(e.value) and e.value.line == (data % TITLE).count("\n", 0, (data % TITLE).index("é")) + 1


# --------------------------------------------------------------------------- binary input


@pytest.mark.parametrize("data, line", [
    (b"width 2\nheight 2\n\x00\x01\x02\xff\xfe\x80\x00", 3),
    (b"title \"\xe9\x00\"\nwidth 1\n", 1),  # Latin-1, then a NUL
    (b"\xff\xfew\x00i\x00d\x00t\x00h\x00", 1),  # UTF-16
    (b"width 1\nheight 1\nrows\n1\ncolumns\n1\n\x8d\x90\n", 7),  # bytes Windows-1252 leaves undefined
])
def test_binary_input_is_one_line_exit_6(tmp_path, data: bytes, line: int) -> None:
    path = tmp_path / "junk.non"
    path.write_bytes(data)
    with pytest.raises(ParseError, match="not UTF-8 or Latin-1 text") as e:
        load(str(path))
    assert e.value.line == line
    r = run("check", str(path))
    assert r.exit_code == 6
    [message] = r.output.strip().splitlines()
    assert message.startswith(f"satnono: {path}:{line}: not UTF-8 or Latin-1 text")
    assert "Traceback" not in r.output


def test_classify_walks_a_folder_of_latin1_files(tmp_path) -> None:
    """A suffixless file is sniffed from its bytes in a directory walk: Latin-1 ones too."""
    (tmp_path / "a.non").write_bytes(latin1(non_text()))
    (tmp_path / "b").write_bytes(latin1(LATIN1_FORMATS["picross"][0].format(t=TITLE)))
    r = run("classify", "--json", "--workers", "1", str(tmp_path))
    assert r.exit_code == 0, r.output
    rows = [json.loads(line) for line in r.output.splitlines() if line.startswith("{")]
    assert [(row["file"].rsplit("/", 1)[1], row["class"]) for row in rows] == [("a.non", "line"), ("b", "line")]
    assert load_all(str(tmp_path / "b"))[0].name == TITLE
