"""What every command shares: the exit codes, writing a line (as ``click.echo`` does), the
progress bar, reading the FILE arguments."""

from __future__ import annotations

import codecs
import os
import sys
from typing import Any, Iterator, NoReturn

from ..errors import ParseError
from ..interrupt import SIGNALS, Terminated
from ..model import Puzzle

EXIT_UNIQUE = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_MULTIPLE = 3
EXIT_NONE = 4
EXIT_UNKNOWN = 5
EXIT_INPUT = 6
EXIT_BATCH = 7
EXIT_SIGINT = 130
EXIT_SIGTERM = 143

# --- interruption ------------------------------------------------------------
# Ctrl-C (SIGINT) raises KeyboardInterrupt, SIGTERM raises Terminated (a KeyboardInterrupt),
# both in the main thread; inside a SAT call python-sat catches SIGINT and satnono.sat turns
# it into KeyboardInterrupt too.  Writing a result (a resume-file line, an output file) is a
# critical section: a signal that arrives during it takes effect right after it, so a record
# is either written whole and counted, or not written at all.


def stop_code(e: BaseException) -> int:
    return EXIT_SIGTERM if isinstance(e, Terminated) else EXIT_SIGINT


def fail(code: int, message: str | None = None) -> NoReturn:
    """End the command with exit ``code``, after ``satnono: message`` on stderr when given."""
    from .options import CliExit  # click is loaded only when a command ends this way

    raise CliExit(code, message)


def stopped(e: BaseException, done: int, total: int | None, what: str = "puzzles", extra: str = "") -> NoReturn:
    """Report an interruption on stderr and exit 130 (SIGINT) or 143 (SIGTERM)."""
    verb = "terminated" if isinstance(e, Terminated) else "interrupted"
    of = f" of {total}" if total is not None else ""
    err(f"{verb} after {done}{of} {what}{extra}")
    fail(stop_code(e))


def batch_code(codes: list[int]) -> int:
    if EXIT_INTERNAL in codes:
        return EXIT_INTERNAL
    return max(codes, default=EXIT_UNIQUE)


# --- output ---------------------------------------------------------------------

_ANSI = r"\033\[[0-?]*[ -/]*[@-~]"  # compiled when some output has a code (re caches it)


def _isatty(stream) -> bool:  # type: ignore[no-untyped-def]
    try:
        return bool(stream.isatty())
    except Exception:
        return False


def _plain(stream) -> bool:  # type: ignore[no-untyped-def]
    """True when a text line can be written to ``stream`` as is: ``click.echo`` would not re-wrap
    it (an ASCII-configured stream) and it is no Jupyter kernel's."""
    try:
        ascii_ = codecs.lookup(getattr(stream, "encoding", None) or "ascii").name == "ascii"
    except LookupError:
        return False
    return not ascii_ and not type(stream).__module__.startswith("ipykernel.")


def echo(text: str = "", err: bool = False) -> None:
    """Write ``text`` and a newline to stdout (stderr with ``err``) and flush, as ``click.echo``
    does: ANSI codes are stripped when the stream is not a terminal."""
    stream = sys.stderr if err else sys.stdout
    if stream is None:
        return
    if not _plain(stream):
        import click

        click.echo(text, err=err)
        return
    out = text + "\n"
    if "\033" in out and not _isatty(stream):
        import re  # not at start-up: plain output has no codes

        out = re.sub(_ANSI, "", out)
    stream.write(out)
    stream.flush()


def err(msg: str) -> None:
    """``satnono: msg`` on stderr, on one line whatever the message holds (an error from a library,
    such as Dask's, may span several)."""
    lines = msg.splitlines()
    one = msg if len(lines) <= 1 else " ".join(part.strip() for part in lines if part.strip())
    echo(f"satnono: {one}", err=True)


class Bar:
    """A progress bar on stderr (by default only when stderr is a terminal and there is more than
    one puzzle: a bar for one puzzle tells nothing, and loading rich for it would cost more than
    checking a small puzzle); text for stdout goes through :meth:`echo` so that it does not tear
    the bar."""

    def __init__(self, label: str, show: bool | None = None) -> None:
        self.label = label
        self.auto = show is None
        self.show = show if show is not None else sys.stderr.isatty()
        self.progress: Any = None  # a rich Progress once shown

    def start(self, total: int, completed: int = 0) -> None:
        if not self.show or self.progress is not None or (self.auto and total <= 1):
            return
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        console = Console(stderr=True)
        self.progress = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=console, redirect_stdout=False, redirect_stderr=False,
                                 transient=console.is_terminal)
        self.progress.start()
        self.progress.add_task(self.label, total=total, completed=completed)

    def advance(self) -> None:
        if self.progress is not None:
            self.progress.advance(self.progress.task_ids[0])

    def echo(self, text: str, err: bool = False) -> None:
        if self.progress is not None and (err or sys.stdout.isatty()) and sys.stderr.isatty():
            # one terminal: print above the live bar (through its console)
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            echo(text, err=err)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None  # a rich Progress once shown


def batch_started(bar: Bar, total: int, done: int = 0):  # type: ignore[no-untyped-def]
    """The batch engine's start callback: say where the Dask dashboard is, start the bar."""
    def started(runner) -> None:  # type: ignore[no-untyped-def]
        if getattr(runner, "dashboard", None):
            err(f"Dask dashboard: {runner.dashboard}")
        bar.start(total, done)
    return started


# --- input --------------------------------------------------------------------------


def locate(arg: str, puzzle: Any) -> tuple[str, int | None]:
    """``(file, index)`` of a loaded puzzle (or of the error of one, by the source it names): index
    is set for puzzles of multi-puzzle files."""
    src = puzzle.source or arg
    base, sep, tail = src.rpartition("#")
    if sep and tail.isdigit() and not os.path.exists(src):
        return base, int(tail)
    return src, None


def iter_puzzles(files: tuple[str, ...], fmt: str | None,
                 rectangles: str | None = None) -> Iterator[tuple[str, int | None, Any, str | None]]:
    """Yield ``(file, index, puzzle, error)`` for every puzzle of every file argument: a file that
    cannot be read gives one error; a puzzle an extra rule does not fit gives its own (with its
    index), and the file's other puzzles are yielded as usual.  A puzzle is a
    :class:`~satnono.model.Puzzle` or, from a triddler file, a
    :class:`~satnono.lanepuzzle.LanePuzzle`; with ``rectangles`` (the command's name) a triddler
    is an error of its own (:func:`rectangles_only`)."""
    from ..formats import load_each

    for arg in files:
        try:
            puzzles = load_each(arg, fmt)
        except ParseError as e:
            yield arg, None, None, str(e)
            continue
        for p in puzzles:
            if isinstance(p, ParseError):
                yield (*locate(arg, p), None, str(p))
            elif rectangles is not None and not isinstance(p, Puzzle):
                yield (*locate(arg, p), None, rectangles_only(p, rectangles))
            else:
                yield (*locate(arg, p), p, None)


def rectangles_only(puzzle: Any, command: str) -> str:
    """The one-line error of a command that takes rectangular puzzles only, for ``puzzle`` (a
    puzzle of another geometry)."""
    return (f"{puzzle.source or 'the puzzle'}: {command} works on rectangular puzzles; triddlers are not "
            f"supported by {command} yet (check, solve, count, classify and convert take them)")


__all__ = [
    "EXIT_BATCH",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_MULTIPLE",
    "EXIT_NONE",
    "EXIT_SIGINT",
    "EXIT_SIGTERM",
    "EXIT_UNIQUE",
    "EXIT_UNKNOWN",
    "EXIT_USAGE",
    "SIGNALS",
    "Bar",
    "batch_code",
    "batch_started",
    "echo",
    "err",
    "fail",
    "iter_puzzles",
    "locate",
    "rectangles_only",
    "stop_code",
    "stopped",
]
