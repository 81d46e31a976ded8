"""Exceptions raised by satnono's library code.

The library never prints and never exits; the CLI turns these into one-line
messages and documented exit codes.
"""

from __future__ import annotations


class SatnonoError(Exception):
    """Root of every error satnono raises on purpose."""


class ParseError(SatnonoError, ValueError):
    """A puzzle file could not be read.

    ``source`` is the file name as given (``-`` for standard input) and
    ``line`` the 1-based line number the problem was found on, when known.
    ``str(err)`` is a one-line message naming both.
    """

    def __init__(self, message: str, source: str | None = None, line: int | None = None) -> None:
        self.message = message
        self.source = source
        self.line = line
        super().__init__(self._format())

    def _format(self) -> str:
        where = self.source or "<input>"
        if self.line is not None:
            where = f"{where}:{self.line}"
        return f"{where}: {self.message}"

    def located(self, source: str | None = None, line: int | None = None) -> "ParseError":
        """Return a copy with the file name (and line, if still unknown) filled in."""
        return ParseError(
            self.message,
            self.source if self.source is not None else source,
            self.line if self.line is not None else line,
        )


class UnsupportedPuzzle(ParseError):
    """The file is well formed but describes something satnono cannot solve yet
    (for example a triddler or blotted clues)."""


class PuzzleTooLarge(ParseError):
    """The puzzle's size is beyond what satnono accepts (see ``model.MAX_SIDE``)."""


class UnsupportedOperation(SatnonoError):
    """A back end or kernel was asked for something it cannot do (a SAT back end, or
    the vectorised line kernel on lines it cannot hold); the message is one sentence."""
