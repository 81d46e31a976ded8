"""The fuzzing harness shared by tests/test_fuzz.py (a bounded run) and scripts/fuzz.py (a long one).

Every *target* is one way satnono reads input: each format's reader by name, the sniffer
(no format given), ``FILE#k`` selection, JSON and PBM bytes.  A target is one row of
:data:`TARGETS`: a name, the seed files it starts from, and how to read bytes.  Adding a
reader (PPM, PNG, ...) is one more row.

Inputs are valid files mutated by Hypothesis strategies: truncation, byte flips,
inserted and deleted bytes, numbers made huge or negative, lines duplicated, dropped or
swapped (wrong counts), other encodings (UTF-16, Latin-1, a BOM, CR and CRLF line ends).

The property (:func:`check_input`): reading either gives puzzles, or raises the
documented :class:`~satnono.errors.ParseError` (a subclass included) with a one-line
message naming the file.  Puzzles read are well formed, and small ones are solved to a
verdict (unique, multiple or a clean ``none`` for unsatisfiable clues) whose solutions
satisfy the clues.
"""

from __future__ import annotations

import atexit
import os
import random
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from hypothesis import strategies as st

from satnono.errors import ParseError
from satnono.formats import dumps, load_all, loads
from satnono.model import MAX_SIDE, Puzzle, default_palette
from satnono.solve import check

PEERS = Path(__file__).parent / "data" / "peers"


def _puzzles() -> list[Puzzle]:
    rng = random.Random(13)
    out = [Puzzle.from_grid(["#.#", ".##", "#.."], name="small"), Puzzle.from_grid(["#"])]
    for w, h in ((5, 4), (7, 7), (10, 3)):
        out.append(Puzzle.from_grid(["".join(rng.choice("#.") for _ in range(w)) for _ in range(h)],
                                    name=f"r{w}x{h}"))
    for k, (w, h) in ((2, (4, 3)), (3, (6, 5)), (5, (8, 6))):  # colour puzzles
        pal = default_palette(k)
        chars = "".join(c.char for c in pal)
        out.append(Puzzle.from_grid(["".join(rng.choice(chars) for _ in range(w)) for _ in range(h)],
                                    palette=pal, name=f"c{k}-{w}x{h}"))
    return out


def _written(fmt: str) -> list[bytes]:
    out = []
    for p in _puzzles():
        try:
            text = dumps(p, fmt)
        except ValueError:  # a black-and-white-only format and a colour puzzle
            continue
        out.append(text if isinstance(text, bytes) else text.encode("utf-8"))
    return out


def _peer(prefix: str) -> list[bytes]:
    return [f.read_bytes() for f in sorted(PEERS.glob(prefix + "*"))
            if f.stat().st_size < 4000 and "invalid" not in f.name]


_HAND = {
    "g": [b": rows\n1 1\n3\n1\n: columns\n2\n1\n2\n", b"# comment\n:\n1\n2\n:\n2\n1\n"],
    "tournament": [b"$1\n1\n1 1\n2\n2\n1 1\n1\n$2\n1\n1\n", b"2\t1\n1\n2\n1\n"],
    "pynogram": [b"[clues]\ncolumns = 1 1, 2, '1'\nrows =\n    1\n    2\n    1 1\n"],
    "nonogrid": [b'[clues]\ncolumns = """\n1 1\n2\n1\n"""\nrows = "1, 2, 1 1"\n'],
    "pbm": [b"P4\n3 2\n\xa0\x40", b"P1\n# c\n2 2\n1 0\n0 1\n"],
    "ppm": [b"P3\n2 2\n255\n255 0 0  255 255 255\n0 0 255  255 0 0\n", b"P6\n1 2\n255\n\x00\x00\x00\xff\x00\x00"],
    "level": [b"0\n", b"1\n", b" 1 \n"],
}
_HAND["g"] = _HAND["g"] + [b"#d\n  0:  white\n  1:X black\n  r:r #ff0000\n: rows\n1 1r\n2r\n: columns\n1\n1r 1r\n"]
_HAND["pynogram"] = _HAND["pynogram"] + [
    b"[colors]\nr = (red) %\ng = (0, 255, 0) *\n[clues]\ncolumns = 1r, 1g 1, 1\nrows = 1r 1g, 1 1\n"]
_HAND["nonny"] = [b"title \"Bow\"\nwidth 3\nheight 2\ncolor red FF0000 #\ncolor yellow FFFF00 @\nrows\n"
                  b"red 1 yellow 1 red 1\nyellow: 1\ncolumns\nred 1\nyellow 2\nred 1\n"]
_HAND["pzl"] = [b"2\n#ff0000\n#0000ff\n\n2 2\n\n2 1 255 0 0 1 0 0 255\n1 1 0 0 255\n1 1 255 0 0\n2 1 0 0 255 1 0 0 255\n"]
_HAND["nonogramsorg"] = [b"<html><head><title>T</title></head>\n<script>\nvar d=[[0,0,0,0],[2,0,0,10],[1,0,0,10],"
                         b"[1,0,0,10],[0,0,0,0],[0,0,0,0],[1,0,0,10],[0,0,0,0],[1,1,1,1]];\n</script></html>\n"]
_HAND["nonogrid"] = _HAND["nonogrid"] + [
    b'[colors]\ndefs = ["r = (FF0000) &", "b = (blue) *"]\n[clues]\ncolumns = "1r, 1b"\nrows = "1r 1b"\n']


def seeds(fmt: str) -> list[bytes]:
    """Valid files of ``fmt`` to mutate."""
    from satnono.formats import WRITABLE_FORMATS

    out = list(_HAND.get(fmt, []))
    if fmt == "level":
        return [x for x in out] + [_LEVEL_PBM, b"P4\n3 2\n\xa0\x40"]  # flags, and pictures for the .pbm
    if fmt in WRITABLE_FORMATS:
        out += _written(fmt)
    out += _peer({"pynogram": "pynogram-", "nonogrid": "nonogrid-", "picross": "picross-"}.get(fmt, "-none-"))
    return out


def all_seeds() -> list[bytes]:
    from satnono.formats import FORMATS

    return [s for f in FORMATS if f != "level" for s in seeds(f)]  # a level is told by its suffix only


# --------------------------------------------------------------------------- mutations

_NUMBER = re.compile(rb"[0-9]+")
_BIG = [b"0", b"00", b"-1", b"10001", b"4000001", b"99999999999", b"9" * 40, b"1e5", b"1.0", b"0x10"]


def _truncate(data: bytes, d: st.DataObject) -> bytes:
    return data[: d.draw(st.integers(0, len(data)))]


def _flip(data: bytes, d: st.DataObject) -> bytes:
    if not data:
        return data
    b = bytearray(data)
    for _ in range(d.draw(st.integers(1, 4))):
        i = d.draw(st.integers(0, len(b) - 1))
        b[i] ^= 1 << d.draw(st.integers(0, 7))
    return bytes(b)


def _insert(data: bytes, d: st.DataObject) -> bytes:
    i = d.draw(st.integers(0, len(data)))
    junk = d.draw(st.one_of(st.binary(min_size=1, max_size=8),
                            st.sampled_from([b"\n", b"\r", b" ", b"\t", b",", b"#", b"[", b"]", b'"', b"'",
                                             b"<", b"\x00", b"\xff", "é".encode(), b"$1\n", b"GRID x\n",
                                             b"[clues]\n", b"ROWS\n", b"rows\n", b"3r"])))
    return data[:i] + junk + data[i:]


def _delete(data: bytes, d: st.DataObject) -> bytes:
    i = d.draw(st.integers(0, len(data)))
    return data[:i] + data[i + d.draw(st.integers(1, 16)):]


def _huge(data: bytes, d: st.DataObject) -> bytes:
    spans = [m.span() for m in _NUMBER.finditer(data)]
    if not spans:
        return data
    a, b = d.draw(st.sampled_from(spans))
    return data[:a] + d.draw(st.sampled_from(_BIG)) + data[b:]


def _lines(data: bytes, d: st.DataObject) -> bytes:
    lines = data.split(b"\n")
    if len(lines) < 2:
        return data
    i = d.draw(st.integers(0, len(lines) - 1))
    j = d.draw(st.integers(0, len(lines) - 1))
    how = d.draw(st.sampled_from(["dup", "drop", "swap", "blank"]))
    if how == "dup":
        lines.insert(i, lines[i])
    elif how == "drop":
        del lines[i]
    elif how == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    else:
        lines.insert(i, b"")
    return b"\n".join(lines)


def _encoding(data: bytes, d: st.DataObject) -> bytes:
    how = d.draw(st.sampled_from(["utf16", "utf16le", "latin1", "bom", "crlf", "cr", "nul"]))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return data
    if how == "utf16":
        return text.encode("utf-16")
    if how == "utf16le":
        return text.encode("utf-16-le")
    if how == "latin1":
        return (text + "\ncafé").encode("latin-1", errors="replace")
    if how == "bom":
        return b"\xef\xbb\xbf" + data
    if how == "crlf":
        return data.replace(b"\n", b"\r\n")
    if how == "cr":
        return data.replace(b"\n", b"\r")
    return data.replace(b"\n", b"\x00\n", 1)


MUTATIONS: list[Callable[[bytes, st.DataObject], bytes]] = [
    _truncate, _flip, _insert, _delete, _huge, _lines, _encoding]


def mutated(d: st.DataObject, pool: list[bytes]) -> bytes:
    """A seed from ``pool`` with one to three mutations applied."""
    data = d.draw(st.sampled_from(pool))
    for _ in range(d.draw(st.integers(1, 3))):
        data = d.draw(st.sampled_from(MUTATIONS))(data, d)
    return data


# --------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    name: str
    pool: Callable[[], list[bytes]]
    read: Callable[[bytes, st.DataObject], list[Puzzle]]


def _reader(fmt: str) -> Callable[[bytes, st.DataObject], list[Puzzle]]:
    if fmt == "level":
        return _level
    return lambda data, d: loads(data, fmt, source=f"fuzz.{fmt}")


def _sniffed(data: bytes, d: st.DataObject) -> list[Puzzle]:
    suffix = d.draw(st.sampled_from(["dat", "non", "txt", "mk", "nin", "json", "toml", "pbm", "xml", "cwd"]))
    return loads(data, None, source=f"fuzz.{suffix}")


_TMP = tempfile.mkdtemp(prefix="satnono-fuzz-")
atexit.register(shutil.rmtree, _TMP, True)


_LEVEL_PBM = b"P1\n3 2\n1 0 1\n0 1 0\n"


def _level(data: bytes, d: st.DataObject) -> list[Puzzle]:
    """A level trio on disk: the mutated bytes as the ``.level`` file, or as the ``.pbm`` picture beside a
    valid ``.level`` (a level is read by its path, with its picture beside it)."""
    folder = tempfile.mkdtemp(dir=_TMP)
    flag, picture = (data, _LEVEL_PBM) if d.draw(st.booleans()) else (b"1\n", data)
    for name, content in (("lv.level", flag), ("lv.pbm", picture), ("lv.ppm", b"P3\n1 1\n255\n0 0 0\n")):
        with open(os.path.join(folder, name), "wb") as f:
            f.write(content)
    return load_all(os.path.join(folder, "lv.level"))


def _selected(data: bytes, d: st.DataObject) -> list[Puzzle]:
    path = os.path.join(_TMP, "multi.txt")
    with open(path, "wb") as f:
        f.write(data)
    k = d.draw(st.sampled_from(["1", "2", "3", "0", "-1", "x", "99999999999999", " 1"]))
    return load_all(f"{path}#{k}")


def _targets() -> list[Target]:
    from satnono.formats import FORMATS

    out = [Target(f, (lambda f=f: seeds(f)), _reader(f)) for f in FORMATS]
    out.append(Target("sniff", all_seeds, _sniffed))
    out.append(Target("FILE#k", lambda: seeds("tournament") + seeds("json") + seeds("picross") + seeds("xml"),
                      _selected))
    out.append(Target("pbm-bytes", lambda: seeds("pbm"), lambda data, d: loads(data, source="image.pbm")))
    out.append(Target("ppm-bytes", lambda: seeds("ppm") + seeds("png"),
                      lambda data, d: loads(data, source=f"image.{d.draw(st.sampled_from(['ppm', 'png', 'dat']))}")))
    return out


TARGETS = _targets()
SMALL = 64  # cells: puzzles up to this size are solved as well


def check_input(target: Target, data: bytes, d: st.DataObject) -> str:
    """Read ``data`` through ``target``; return the outcome ("ok", "parse-error", "none", ...).

    Raises AssertionError when anything but a ParseError escapes, or a result is not sound.
    """
    try:
        puzzles = target.read(data, d)
    except ParseError as e:
        text = str(e)
        assert "\n" not in text and "Traceback" not in text, text
        assert e.source is not None and text.startswith(e.source), text
        return "parse-error"
    assert puzzles and all(isinstance(p, Puzzle) for p in puzzles)
    for p in puzzles:
        if p.goal is not None:
            assert len(p.goal) == p.height and all(len(r) == p.width and not r.strip(p.chars) for r in p.goal)
    outcome = "ok"
    for p in puzzles:
        assert 1 <= p.width <= MAX_SIDE and 1 <= p.height <= MAX_SIDE
        for clue in p.rows + p.columns:  # a clue longer than its line is allowed: its verdict is 'none'
            assert all(type(n) is int and 0 < n <= MAX_SIDE for n in clue)
        if p.width * p.height <= SMALL:
            res = check(p, timeout=5)
            for s in res.solutions:
                assert p.is_solution(s)
            if res.status.value == "none":
                outcome = "none"
    return outcome
