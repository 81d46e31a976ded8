"""The format tests and `.non` tokenising written without regular expressions (start-up: `re`
and the `enum` it loads cost more than Python's own start-up) against the regular expressions
they replace, kept here as the oracle, on generated text."""

from __future__ import annotations

import importlib
import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from satnono.formats import _text, non
from satnono.palette import parse_rgb

# characters that matter to the tests, plus Unicode whitespace and digits of other scripts
ALPHABET = "0123456789 \t\u00a0\u2003\u0663abcfxAFRXGIDcolurwsdef$#[];:,=._-'\"\u017f\u212a\r\x0b"
line = st.text(ALPHABET, max_size=14)
lines = st.lists(line, max_size=6)
sniff = importlib.import_module("satnono.formats.sniff")  # the package's `sniff` is the function
SETTINGS = settings(max_examples=400, deadline=None)


def _regex_nonny(lines: list[str]) -> bool:
    """satnono.formats.nonny.looks_like before it moved, with its regular expressions."""
    color = re.compile(r"\s*colou?r\s+(\S+)\s+(#?[0-9A-Fa-f]{6})(?:\s+(\S))?\s*", re.IGNORECASE)
    named = re.compile(r"\s*[A-Za-z][\w-]*:?[\s,]+[0-9]")
    keywords = {"width", "height", "rows", "columns", "goal", "title", "by", "copyright", "catalogue", "license",
                "maxrule", "color", "colour"}
    in_block = False
    for ln in lines:
        s = ln.strip()
        if not s:
            continue
        m = color.fullmatch(s)
        if m is not None and (len(m.group(1)) > 1 or m.group(3) is not None):
            return True
        if s.lower().split()[0] in ("rows", "columns") and len(s.split()) == 1:
            in_block = True
            continue
        if in_block and named.match(s) and s.split()[0].rstrip(":").lower() not in keywords:
            return True
        if s[:1].isalpha():
            in_block = False
    return False


@SETTINGS
@given(line)
@example("$ 12")
@example("$12 x")
def test_tournament_header(s):
    s = s.strip()
    assert sniff.tournament_header(s) == (re.fullmatch(r"\$\s*\S*", s) is not None)


@SETTINGS
@given(line)
@example("[ clues ] # c")
@example("[a]]")
def test_section_header(s):
    m = re.fullmatch(r"\s*\[\s*([^\]]*?)\s*\]\s*", _text.strip_comment(s))
    assert sniff.section_header(s) == (m.group(1).lower() if m else None)


@SETTINGS
@given(st.lists(line.map(str.strip).filter(bool), max_size=4))
@example(["2", "#ff00AA x"])
def test_pzl(filled):
    old = len(filled) >= 2 and filled[0].isdigit() and re.fullmatch(r"#[0-9A-Fa-f]{6}", filled[1].split()[0]) is not None
    assert sniff.looks_like_pzl(filled) == old


@SETTINGS
@given(lines)
@example(["rows", "red 1 yellow 4"])
@example(["color red FF0000"])
@example(["colour a #ff0000 x"])
@example(["COLOR a ff0000 xy"])
@example(["color red ff0000 xy"])
@example(["rows", "a: 1"])
@example(["rows", "width 1"])
def test_nonny_dialect(ls):
    assert sniff.looks_like_nonny(ls) == _regex_nonny(ls)


@SETTINGS
@given(line)
@example("color red FF0000 *")
@example("COLOUR a #ff0000")
@example("color red ff0000 xy")
@example("color red #ff00zz")
def test_nonny_colour_line(s):
    """The Nonny reader's colour lines, parsed once for the sniffer and the reader."""
    s = s.strip()
    m = re.fullmatch(r"\s*colou?r\s+(\S+)\s+(#?[0-9A-Fa-f]{6})(?:\s+(\S))?\s*", s, re.IGNORECASE)
    assert sniff.nonny_color(s) == ((m.group(1), m.group(2).lstrip("#"), m.group(3)) if m else None)


@SETTINGS
@given(lines)
@example(["1\t2", "3"])
@example(["1\t\t2", "", ""])
@example(["1 \t2", "3"])
def test_headerless_tournament(ls):
    body = list(ls)
    while body and not body[-1].strip():
        body.pop()
    old = bool(body) and not len(body) % 2 and any("\t" in x for x in body) and \
        all(re.fullmatch(r"[0-9]+(\t+[0-9]+)*|", x.strip()) is not None for x in body)
    assert sniff.looks_headerless(ls) == old


@SETTINGS
@given(st.text(ALPHABET + "\n'\"", max_size=30))
@example('x\n  defs = 1')
@example("a'''b")
def test_toml(text):
    old = re.search(r'"""|\'\'\'|^[ \t]*defs[ \t]*=', text, re.MULTILINE) is not None
    assert sniff._toml(text) == old


@SETTINGS
@given(st.text("P1436 \t#x\u00a0", max_size=4), st.binary(max_size=4))
@example("P1 ", b"P4\n")
@example("P6\u00a0", b"P3\xa0")
def test_netpbm_signatures(text, data):
    for digits, pattern in (("14", "P[14](?:\\s|#)"), ("36", "P[36](?:\\s|#)")):
        assert sniff._netpbm(text, digits) == (re.match(pattern, text) is not None)
        for head in (data, b"P" + data):
            assert sniff._netpbm(head, digits) == (re.match(pattern.encode(), head) is not None)


@SETTINGS
@given(lines)
@example(["# . #", ".  #"])
@example(["# .", "#"])
def test_grid_rows(ls):
    spaced = re.compile(r"\S(?:[ \t]\S)*")
    rows = [x.rstrip() for x in ls]
    body = [x.lstrip() for x in rows if x]
    old = ["".join(x.split()) for x in rows] if body and all(spaced.fullmatch(x) for x in body) and \
        any(len(x) > 1 for x in body) else rows
    assert sniff.grid_rows(ls) == old


@SETTINGS
@given(line)
@example("1,,2")
@example("1 , 2,")
@example(",1")
def test_split_tokens(s):
    body = s.strip()
    if body:
        assert _text.split_tokens(body, commas=True) == re.split(r"\s*,\s*|\s+", body)
        assert _text.split_tokens(body) == re.split(r"\s+", body)


@SETTINGS
@given(line)
@example("0123")
@example("\u0663")
def test_is_digits(s):
    assert _text.is_digits(s) == (re.fullmatch(r"[0-9]+", s) is not None)


@SETTINGS
@given(line)
@example("width 5")
@example("width5 x")
@example("a-b_c\tvalue  ")
def test_non_keyword_lines(s):
    s = s.strip()
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9_-]*)(?:\s+(.*))?", s)
    assert non._keyword_line(s) == ((m.group(1), (m.group(2) or "").strip()) if m else None)


@SETTINGS
@given(line)
@example("==== ")
@example(" ====")
@example("===")
@example("=====\t")
@example("====x")
def test_non_separator(s):
    assert non._separator(s) == (re.fullmatch(r"={4,}\s*", s) is not None)


@SETTINGS
@given(st.text("#0123456789abcdefABCDEFg \t", max_size=9))
@example("#fA0")
@example(" ff8000 ")
def test_parse_rgb(s):
    m = re.fullmatch(r"#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})", s.strip())
    try:
        got = parse_rgb(s)
    except ValueError:
        assert m is None
    else:
        assert m is not None
        digits = m.group(1) if len(m.group(1)) == 6 else "".join(ch * 2 for ch in m.group(1))
        assert got == (int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16))


@SETTINGS
@given(st.text("widthrowsclumnWIDTHROWS \t5", max_size=10))
@example("Width 5")
@example("rows")
@example("rowsx")
def test_non_keyword_sniff(s):
    s = s.strip()
    if s:
        old = re.compile(r"(?:width|height|rows|columns|goal|title|by|copyright|catalogue|license|maxrule|colou?r)"
                         r"(?:\s|$)", re.IGNORECASE).match(s) is not None
        assert ("non" in sniff.candidates(s + "\n")) == old or not old
        assert (s.split(None, 1)[0].lower() in sniff._NON_WORDS) == old
