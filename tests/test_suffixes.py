"""File suffixes: one table (:data:`satnono.formats.sniff.SUFFIXES`) names the format of each
suffix, for reading hints, for writing (``convert IN OUT``, :func:`satnono.formats.save`) and for
the help text; ``convert`` writes a file with any suffix of a writable format in that format, and
refuses the others (a read-only format's suffix, an unknown one) in one line (exit 2)."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner

from satnono.cli import cli
from satnono.errors import ParseError
from satnono.formats import FORMATS, WRITABLE_FORMATS, dumps, load, loads, save
from satnono.formats.sniff import SUFFIXES, format_from_suffix

from conftest import PUZZLES

DANCER = str(PUZZLES / "webpbn" / "webpbn-00001.xml")  # black and white, with its goal picture

#: (format, suffix) for every suffix the table gives a writable format.
WRITABLE_SUFFIXES = [(fmt, suffix) for suffix, fmt in SUFFIXES.items() if fmt in WRITABLE_FORMATS]
# (.g is written for triddlers only: a grid to .g is refused by the writer, below)
READ_ONLY_SUFFIXES = [(fmt, suffix) for suffix, fmt in SUFFIXES.items() if fmt not in WRITABLE_FORMATS and fmt != "g"]


def run(*args: str):
    return CliRunner().invoke(cli, list(args))


def flat(text: str) -> str:
    """Help text with click's line wrapping undone."""
    return " ".join(text.split())


def suffixes(fmt: str) -> list[str]:
    return [suffix for suffix, f in SUFFIXES.items() if f == fmt]


@pytest.mark.parametrize("fmt", WRITABLE_FORMATS)
def test_every_writable_format_has_a_suffix(fmt: str) -> None:
    assert suffixes(fmt), f"no suffix for {fmt}: convert cannot tell it from a file name"


@pytest.mark.parametrize("fmt, suffix", WRITABLE_SUFFIXES + [("picross", ".PICROSS"), ("xml", ".Pbn")])
def test_convert_writes_each_suffix_in_its_format(tmp_path, fmt: str, suffix: str) -> None:
    out = tmp_path / f"out{suffix}"
    r = run("convert", DANCER, str(out))
    assert r.exit_code == 0, r.output
    source = load(DANCER)
    written = dumps(source, fmt)
    assert out.read_bytes() == (written.encode("utf-8") if isinstance(written, str) else written)
    back = load(str(out))  # read back, the content and the suffix telling the format
    assert (back.rows, back.columns) == (source.rows, source.columns)
    # the library's save takes the suffix alike
    again = tmp_path / f"again{suffix}"
    save(source, str(again))
    assert again.read_bytes() == out.read_bytes()


def test_convert_to_picross_by_its_suffix(tmp_path) -> None:
    """The field report: 'convert x.non out.picross' said 'cannot tell the output format'."""
    src = tmp_path / "x.non"
    src.write_text("title \"two\"\nwidth 2\nheight 1\nrows\n1\ncolumns\n1\n0\n")
    out = tmp_path / "out.picross"
    r = run("convert", str(src), str(out))
    assert r.exit_code == 0, r.output
    assert out.read_text() == "GRID two\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n[ ]\n"


def test_a_picross_suffix_is_a_reading_hint_too() -> None:
    """A file the content cannot place goes to its suffix's reader, for that reader's own error."""
    assert format_from_suffix("a/b.picross") == "picross"
    with pytest.raises(ParseError, match="expected GRID, ROWS, COLUMNS") as e:
        loads("hello\n", source="broken.picross")
    assert e.value.line == 1


@pytest.mark.parametrize("fmt, suffix", READ_ONLY_SUFFIXES)
def test_a_read_only_formats_suffix_is_refused_in_one_line(tmp_path, fmt: str, suffix: str) -> None:
    out = tmp_path / f"out{suffix}"
    r = run("convert", DANCER, str(out))
    assert r.exit_code == 2 and not out.exists()
    [line] = r.output.strip().splitlines()
    assert line.startswith("satnono: ") and f"{fmt} format" in line and suffix in line
    for writable in WRITABLE_FORMATS:
        assert f"{writable} (" in line
    for writable, known in WRITABLE_SUFFIXES:
        assert known in line


@pytest.mark.parametrize("name", ["out.foo", "out", "out.non.bak"])
def test_an_unknown_suffix_names_the_known_ones(tmp_path, name: str) -> None:
    out = tmp_path / name
    r = run("convert", DANCER, str(out))
    assert r.exit_code == 2 and not out.exists()
    [line] = r.output.strip().splitlines()
    assert "cannot tell the output format" in line and "--to" in line
    for _, suffix in WRITABLE_SUFFIXES:
        assert suffix in line


@pytest.mark.parametrize("args", [["--to", "g"], []])
def test_a_grid_to_g_is_refused_in_one_line(tmp_path, args: list[str]) -> None:
    """satnono writes .g for triddlers only: a grid's conversion to it is an output it cannot
    write (exit 6), with the grid formats named."""
    out = tmp_path / ("out.non" if args else "out.g")
    r = run("convert", *args, DANCER, str(out))
    assert r.exit_code == 6 and not out.exists()
    [line] = r.output.strip().splitlines()
    assert "satnono writes .g for triddlers only" in line and all(f"{w} (" in line for w in WRITABLE_FORMATS)


@pytest.mark.parametrize("to", ["nonsense"])
def test_to_a_format_that_cannot_be_written_is_one_line(tmp_path, to: str) -> None:
    out = tmp_path / "out.non"
    r = run("convert", "--to", to, DANCER, str(out))
    assert r.exit_code == 2 and not out.exists()
    [line] = r.output.strip().splitlines()
    assert repr(to) in line and all(f"{w} (" in line for w in WRITABLE_FORMATS)


def test_to_overrides_the_suffix(tmp_path) -> None:
    out = tmp_path / "out.txt"
    assert run("convert", "--to", "picross", DANCER, str(out)).exit_code == 0
    assert out.read_text() == dumps(load(DANCER), "picross")


def test_convert_help_lists_each_writable_format_with_its_suffixes() -> None:
    r = run("convert", "--help")
    assert r.exit_code == 0
    text = flat(r.output)
    for fmt in WRITABLE_FORMATS:
        assert f"{fmt} ({', '.join(suffixes(fmt))})" in text
    to_help = text.split("--to FMT", 1)[1].split("--force", 1)[0]
    for fmt, suffix in READ_ONLY_SUFFIXES:  # only what convert can write
        assert not re.search(rf"(?<!\w){fmt} \(", to_help) and not re.search(rf"[ (]{re.escape(suffix)}[,)]", to_help)


def test_format_option_help_lists_every_format_and_its_suffixes() -> None:
    text = flat(run("check", "--help").output)
    help_f = text.split("--format FMT", 1)[1].split(" --", 1)[0]
    for fmt in FORMATS:
        assert f" {fmt}" in help_f
        if suffixes(fmt):
            assert f"{fmt} ({', '.join(suffixes(fmt))})" in help_f


def test_readme_names_every_suffix_of_the_table() -> None:
    page = (PUZZLES.parent / "docs" / "formats.md").read_text(encoding="utf-8")
    section = page.split("## Suffixes", 1)[1].split("\n## ", 1)[0]
    for suffix in SUFFIXES:
        assert f"`{suffix}`" in section, suffix
