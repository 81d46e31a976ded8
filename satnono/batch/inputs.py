"""Batch inputs: the puzzles named by files, directories and multi-puzzle files, as tasks.

Everything is read in the parent: a :class:`Task` carries the puzzle itself, so workers (on
this machine or on a cluster) need no access to the files.
"""

from __future__ import annotations

import errno
import os
import stat
from dataclasses import dataclass
from typing import Callable, Iterable, Iterator

from ..errors import ParseError
from ..lanepuzzle import LanePuzzle
from ..model import Puzzle

Key = tuple[str, "int | None"]


@dataclass(slots=True)
class Task:
    """One unit of a batch: a puzzle, or an input that failed to load."""

    seq: int
    """Position in input order."""
    file: str
    index: int | None
    """1-based position in a multi-puzzle file; None for a single-puzzle file."""
    puzzle: Puzzle | LanePuzzle | None
    error: str | None = None

    @property
    def key(self) -> Key | None:
        return result_key(self.file, self.index)


def result_key(file: str, index: int | None) -> Key | None:
    """The identity of a result, as used by the resume file; None for a puzzle read from a stream
    (standard input, a pipe, a device: no regular file), which has no identity from one run to
    the next (``<(...)`` is /dev/fd/63 in every run), so it is never taken from the resume file."""
    if file == "-":
        return None
    try:
        mode = os.stat(file).st_mode
    except OSError:
        mode = None  # no such file (e.g. FILE#k's error): its name is its identity
    if mode is not None and not stat.S_ISREG(mode):
        return None
    return (os.path.realpath(file), index)


def _looks_like_puzzle(path: str) -> bool:
    """Whether a file met while walking a directory should be read as a puzzle.

    Files with a puzzle suffix are; other files only when their content has
    the unmistakable signature of a format (PBM, XML, JSON, a ``$n`` tournament
    header, picross-solver's ``GRID`` line, a pynogram/nonogrid ``[clues]``
    section).  READMEs, licences and CSV tables are skipped.
    """
    from ..formats.sniff import SIGNATURE_FORMATS, candidates, format_from_suffix

    if format_from_suffix(path) is not None:
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(1 << 16)
    except OSError:
        return True  # let the reader report it
    found = candidates(head)
    return bool(found) and found[0] in SIGNATURE_FORMATS


#: The kinds of files that are not regular files, in words (see :func:`_not_regular`).
_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"))


def _not_regular(path: str) -> str | None:
    """What ``path``, met in a directory walk, is when it is no regular file (nor a symbolic link
    to one), in words: a named pipe (opening one waits for a writer), a socket, a device, or a
    symbolic link that leads to no file (dangling, or a loop); None for a regular file, and when
    it cannot be told (the reader then says why the file cannot be read)."""
    try:
        mode = os.stat(path).st_mode
    except OSError as e:
        if not os.path.islink(path):
            return None
        if e.errno == errno.ELOOP:
            return "a symbolic link in a loop"
        if isinstance(e, FileNotFoundError):
            try:
                return f"a dangling symbolic link to {os.readlink(path)}"
            except OSError:
                return "a dangling symbolic link"
        return None
    if stat.S_ISREG(mode):
        return None
    return next((what for test, what in _KINDS if test(mode)), "neither a file nor a directory")


def discover(paths: Iterable[str], exclude: Iterable[str] = (),
             note: Callable[[str], None] | None = None) -> Iterator[str]:
    """The puzzle files named by ``paths``: files as given, directories walked
    recursively in sorted order (see :func:`_looks_like_puzzle`); ``exclude`` are
    paths never to read (the resume file).

    A walk skips what is not a regular file (named pipes, sockets, devices, symbolic links to
    nothing: see :func:`_not_regular`), each with ``note("PATH: skipped: not a regular file
    (a named pipe)")`` when ``note`` is given; it never opens one.  A path named in ``paths``
    is given as is: a named pipe there (or bash's ``<(...)``, a /dev/fd/N) is read as a stream.
    """
    skip = {os.path.realpath(p) for p in exclude}
    for path in paths:
        if path != "-" and os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if os.path.realpath(full) in skip or name.startswith("."):
                        continue
                    what = _not_regular(full)
                    if what is not None:
                        if note is not None:
                            note(f"{full}: skipped: not a regular file ({what})")
                        continue
                    if _looks_like_puzzle(full):
                        yield full
        elif path == "-" or os.path.realpath(path) not in skip:
            yield path


def load_tasks(paths: Iterable[str], fmt: str | None = None, exclude: Iterable[str] = (),
               note: Callable[[str], None] | None = None) -> list[Task]:
    """Every puzzle of every input, in input order, as tasks (unreadable inputs as error tasks; a
    puzzle an extra rule does not fit is an error task of its own, with its index); ``note`` hears
    of what a directory walk skips (see :func:`discover`)."""
    from ..formats import load_each

    tasks: list[Task] = []
    for path in discover(paths, exclude, note):
        try:
            puzzles = load_each(path, fmt)
        except ParseError as e:
            tasks.append(Task(len(tasks), path, None, None, str(e)))
            continue
        except (OSError, ValueError) as e:
            tasks.append(Task(len(tasks), path, None, None, f"{path}: {e}"))
            continue
        many = len(puzzles) > 1
        for k, p in enumerate(puzzles, 1):
            index = _index_of(path, p, k) if many else _index_of(path, p, None)
            if isinstance(p, ParseError):
                tasks.append(Task(len(tasks), path, index, None, str(p)))
            else:
                tasks.append(Task(len(tasks), path, index, p))
    return tasks


def _index_of(path: str, puzzle: Puzzle | LanePuzzle | ParseError, default: int | None) -> int | None:
    src = puzzle.source or ""
    if src.startswith(path + "#") and src[len(path) + 1:].isdigit():
        return int(src[len(path) + 1:])
    return default
