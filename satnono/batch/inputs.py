"""Batch inputs: the puzzles named by files, directories and multi-puzzle files, as tasks.

Everything is read in the parent: a :class:`Task` carries the puzzle itself, so workers (on
this machine or on a cluster) need no access to the files.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Iterable, Iterator

from ..errors import ParseError
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
    puzzle: Puzzle | None
    error: str | None = None

    @property
    def key(self) -> Key:
        return result_key(self.file, self.index)


def result_key(file: str, index: int | None) -> Key:
    """The identity of a result, as used by the resume file."""
    return (os.path.realpath(file) if file != "-" else file, index)


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


def discover(paths: Iterable[str], exclude: Iterable[str] = ()) -> Iterator[str]:
    """The puzzle files named by ``paths``: files as given, directories walked
    recursively in sorted order (see :func:`_looks_like_puzzle`); ``exclude`` are
    paths never to read (the resume file)."""
    skip = {os.path.realpath(p) for p in exclude}
    for path in paths:
        if path != "-" and os.path.isdir(path):
            for root, dirs, files in os.walk(path):
                dirs.sort()
                for name in sorted(files):
                    full = os.path.join(root, name)
                    if os.path.realpath(full) in skip or name.startswith("."):
                        continue
                    if _looks_like_puzzle(full):
                        yield full
        elif path == "-" or os.path.realpath(path) not in skip:
            yield path


def load_tasks(paths: Iterable[str], fmt: str | None = None, exclude: Iterable[str] = ()) -> list[Task]:
    """Every puzzle of every input, in input order, as tasks (unreadable inputs as error tasks; a
    puzzle an extra rule does not fit is an error task of its own, with its index)."""
    from ..formats import load_each

    tasks: list[Task] = []
    for path in discover(paths, exclude):
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


def _index_of(path: str, puzzle: Puzzle | ParseError, default: int | None) -> int | None:
    src = puzzle.source or ""
    if src.startswith(path + "#") and src[len(path) + 1:].isdigit():
        return int(src[len(path) + 1:])
    return default
