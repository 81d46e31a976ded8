"""Helpers shared by the line-oriented readers: lines, numbers, clue blocks, sizes.

Every helper raises :class:`~satnono.errors.ParseError` with the file name and a
1-based line number; none lets a raw ``ValueError`` escape.
"""

from __future__ import annotations

import re
from typing import Sequence

from ..errors import ParseError, PuzzleTooLarge
from ..model import MAX_CELLS, MAX_SIDE, Clue

_DIGITS = re.compile(r"[0-9]*")
#: More digits than this cannot be a block length (checked before ``int()``,
#: which refuses strings of thousands of digits with a bare ``ValueError``).
_MAX_DIGITS = 9


def is_digits(text: str) -> bool:
    """One or more ASCII digits and nothing else (``str.isdigit`` also takes other scripts' digits).

    >>> is_digits("042"), is_digits(""), is_digits("4 2"), is_digits("\u0664")
    (True, False, False, False)
    """
    return bool(text) and _DIGITS.fullmatch(text) is not None


def leading_digits(text: str) -> int:
    """How many ASCII digits ``text`` starts with."""
    m = _DIGITS.match(text)  # (it matches the empty string too)
    return 0 if m is None else m.end()


def split_tokens(body: str, commas: bool = False) -> list[str]:
    """The tokens of a stripped clue line: separated by whitespace runs, and with ``commas`` also by a
    comma with any whitespace around it (an empty token stays between two commas, for its reader to
    report).  Whitespace is Unicode's, as ``str.split`` and a regex's ``\\s`` see it.

    >>> split_tokens("3 1"), split_tokens("3a, 1b 2"), split_tokens("1,,2", commas=True)
    (['3', '1'], ['3a,', '1b', '2'], ['1', '', '2'])
    >>> split_tokens("3a, 1b 2", commas=True), split_tokens("", commas=True)
    (['3a', '1b', '2'], [''])
    """
    if not commas:
        return body.split() if body else [""]
    if body.replace(",", "").isalnum():  # no whitespace at all (the usual "2,1,3"): the commas alone split
        return body.split(",")
    out: list[str] = []
    for piece in body.split(","):
        words = piece.split()
        out.extend(words if words else [""])
    return out


def strip_comment(line: str) -> str:
    """``line`` without a ``#``/``;`` comment (one that starts the line or follows whitespace)."""
    if "#" not in line and ";" not in line:
        return line
    for i, ch in enumerate(line):
        if ch in "#;" and (i == 0 or line[i - 1].isspace()):
            return line[:i]
    return line


#: The bytes of text in Windows-1252 (the Latin-1 of the web and of Windows): the whitespace
#: controls, printable ASCII and every byte from 0x80 that Windows-1252 defines.  NUL and the
#: other controls, DEL and 0x81/0x8D/0x8F/0x90/0x9D do not occur in text.
_LATIN1_TEXT = bytes([*b"\t\n\v\f\r", *range(0x20, 0x7F),
                      *(b for b in range(0x80, 0x100) if b not in (0x81, 0x8D, 0x8F, 0x90, 0x9D))])


def _line_of(data: bytes, at: int) -> int:
    """The 1-based line of byte ``at``, lines counted as :func:`split_lines` counts them."""
    return data.count(b"\n", 0, at) + 1 if b"\n" in data else data.count(b"\r", 0, at) + 1


def decode_text(data: bytes, source: str | None, latin1: bool = False) -> str:
    """The text of a file's bytes: UTF-8 (a BOM dropped); with ``latin1``, a line that is not
    UTF-8 is read as Latin-1 (Windows-1252, which webpbn's ``.non`` exports and old editors
    write), each line decoded once.

    >>> decode_text("Åsa\\n".encode("utf-8"), None, True), decode_text(b"\\xc5sa\\n", None, True)
    ('Åsa\\n', 'Åsa\\n')

    Raises:
        ParseError: bytes that are not UTF-8 (with ``latin1``: that are no text in Latin-1
            either: NUL and other control bytes), naming the line of the first.
    """
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        bad = e.start
    utf16 = " (UTF-16: save it as UTF-8)" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
    if not latin1:
        raise ParseError(f"not UTF-8 text (byte 0x{data[bad]:02x}){utf16}", source, _line_of(data, bad)) from None
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    junk = body.translate(None, _LATIN1_TEXT)
    if junk:
        at = body.index(junk[:1])  # every byte before the first junk byte is text
        raise ParseError(f"not UTF-8 or Latin-1 text (byte 0x{junk[0]:02x}){utf16}", source, _line_of(body, at))
    out = []
    for line in body.split(b"\n"):
        try:
            out.append(line.decode("utf-8"))
        except UnicodeDecodeError:
            out.append(line.decode("cp1252"))
    return "\n".join(out)


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` without their terminators (LF, CRLF or lone CR).

    A final line terminator does not start an extra empty line, so the list
    index plus one is the line number an editor shows.

    >>> split_lines("a\\r\\nb\\n")
    ['a', 'b']
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    if "\n" not in text and "\r" in text:
        lines = text.split("\r")
    else:
        lines = [ln[:-1] if ln.endswith("\r") else ln for ln in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def parse_int(token: str, what: str, source: str | None, line: int | None) -> int:
    """A non-negative decimal integer of at most nine digits.

    Raises:
        ParseError: for anything else, naming ``what`` the number was meant to be.
    """
    if is_digits(token):
        if len(token.lstrip("0")) > _MAX_DIGITS:
            raise ParseError(f"{what} {token[:20]}{'...' if len(token) > 20 else ''} is too large", source, line)
        return int(token)
    if token[:1] == "-" and is_digits(token[1:]):
        raise ParseError(f"{what} must not be negative, got {token[:20]!r}", source, line)
    raise ParseError(f"{what} should be a whole number, got {token[:20]!r}", source, line)


def parse_block(token: str, source: str | None, line: int | None) -> int:
    """One block length of a clue.

    Raises:
        ParseError: for anything that is not a length in ``0..MAX_SIDE`` (a blotted length
            ``?`` with a sentence saying which formats hold one).
    """
    try:
        n = parse_int(token, "block length", source, line)
    except ParseError:
        if token.strip() == "?":  # looked at only when the token is not a number
            raise ParseError("a blotted clue ('?') cannot be written in this format: use webpbn XML "
                             "(<count>0</count>) or JSON (\"?\")", source, line) from None
        raise
    if n > MAX_SIDE:
        raise ParseError(
            f"block length {n} is longer than any supported line (at most {MAX_SIDE} cells)", source, line
        )
    return n


def parse_clue(text: str, source: str | None, line: int | None) -> Clue:
    """A clue line: block lengths separated by whitespace; blank or ``0`` means empty.

    >>> parse_clue("1 0\t3", None, 1)
    (1, 3)
    """
    tokens = text.split()
    return tuple(n for n in (parse_block(t, source, line) for t in tokens) if n)


def check_size(width: int, height: int, source: str | None, line: int | None) -> None:
    """Refuse empty and oversized puzzles before anything proportional is allocated.

    Raises:
        ParseError: when a side is zero.
        PuzzleTooLarge: when a side exceeds ``MAX_SIDE`` or the area ``MAX_CELLS``.
    """
    if width <= 0 or height <= 0:
        raise ParseError(f"the puzzle has no cells (width {width}, height {height})", source, line)
    if width > MAX_SIDE or height > MAX_SIDE:
        raise PuzzleTooLarge(
            f"a {width}x{height} puzzle is too large (each side at most {MAX_SIDE})", source, line
        )
    if width * height > MAX_CELLS:
        raise PuzzleTooLarge(
            f"a {width}x{height} puzzle is too large (at most {MAX_CELLS} cells)", source, line
        )


def is_blank(line: str) -> bool:
    return not line.strip()


def take_rules(
    block: Sequence[tuple[int, str]], count: int, what: str, source: str | None, end_line: int
) -> list[tuple[int, str]]:
    """Pick ``count`` clue lines out of ``block`` (pairs of line number and text).

    Two conventions exist for an empty line: ``0`` (blank lines are mere
    separators) and a blank line.  The rule:

    1. if exactly ``count`` lines are non-blank, they are the clues and every
       blank line is a separator (Simpson's ``.non``);
    2. otherwise blank lines count as empty clues: the first ``count`` lines of
       the block are the clues and whatever follows must be blank (mikix's
       ``.non``, pbnsolve's ``.mk``).

    ``end_line`` is the line that ended the block (for the error message).

    Raises:
        ParseError: at the first surplus clue line, or at ``end_line`` when too few.
    """
    filled = [item for item in block if not is_blank(item[1])]
    if len(filled) == count:
        return filled
    if len(filled) > count:
        raise ParseError(f"too many {what} clues: expected {count}", source, filled[count][0])
    if len(block) >= count and all(is_blank(text) for _, text in block[count:]):
        return list(block[:count])
    if len(block) < count:
        raise ParseError(
            f"expected {count} {what} clues, found {len(filled)}"
            + (f" and {len(block) - len(filled)} blank lines" if len(block) > len(filled) else ""),
            source,
            end_line,
        )
    extra = next(n for n, text in block[count:] if not is_blank(text))
    raise ParseError(
        f"expected {count} {what} clues; found {len(filled)} clue lines and "
        f"{len(block) - len(filled)} blank lines (write an empty line as 0)",
        source,
        extra,
    )
