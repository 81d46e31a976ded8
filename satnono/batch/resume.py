"""The resume file: finished results, one JSON line each, written only by the parent."""

from __future__ import annotations

import json
import os
from typing import Any, Iterable

from ..errors import SatnonoError
from .inputs import Key, result_key


class ResumeFileError(SatnonoError):
    """The resume file is not one satnono wrote (it is left untouched)."""


def _valid_record(rec: object, classes: Iterable[str]) -> bool:
    if not isinstance(rec, dict) or not isinstance(rec.get("file"), str) or rec.get("class") not in set(classes):
        return False
    index = rec.get("index")
    if index is not None and (type(index) is not int or index < 1):
        return False
    # written by earlier versions when Ctrl-C landed inside a SAT call: not a result
    return not (rec["class"] == "error" and "caught keyboard interrupt" in str(rec.get("reason")).lower())


class ResultLog:
    """An append-only JSON-lines file of finished results.

    Opening reads the results already there.  Damaged lines (a torn last line
    left by a crash, lines that are not JSON objects with a ``file`` and a
    ``class``) are dropped and the file is rewritten atomically without them
    (:attr:`dropped` says how many), so that it stays valid JSON lines.  A
    non-empty file without a single valid record is refused with
    :class:`ResumeFileError` and left as it is: it is not a resume file (a
    puzzle or a random file given by mistake).  :meth:`append` writes one whole
    line with a single ``write`` and fsyncs it.
    """

    #: The values a record's ``class`` may take (the classify classes by default).
    classes: tuple[str, ...] = ("line", "search", "multiple", "none", "unknown", "error")

    def __init__(self, path: str, classes: Iterable[str] | None = None) -> None:
        self.path = path
        if classes is not None:
            self.classes = tuple(classes)
        self.records: dict[Key, dict[str, Any]] = {}
        self.dropped = 0
        """Damaged lines dropped from the file when it was opened."""
        self._load()
        self._fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def _load(self) -> None:
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            return
        keep: list[bytes] = []
        rewrite = False
        for line in data.splitlines(keepends=True):
            if not line.strip():
                rewrite = True  # blank lines are not JSON lines
                continue
            try:
                rec = json.loads(line) if line.endswith(b"\n") else None  # no newline: a torn write
            except ValueError:
                rec = None
            if isinstance(rec, dict) and _valid_record(rec, self.classes):
                self._remember(rec)
                keep.append(line)
            else:
                self.dropped += 1
                rewrite = True
        if self.dropped and not keep:
            raise ResumeFileError(
                f"{self.path}: not a satnono resume file (no line is a classify result); "
                "left untouched: give another file to --resume")
        if rewrite:
            from ..formats import write_atomic

            write_atomic(self.path, b"".join(keep), overwrite=True)

    def __contains__(self, key: Key) -> bool:
        return key in self.records

    def append(self, record: dict[str, Any]) -> None:
        data = (json.dumps(record) + "\n").encode("utf-8")
        view = memoryview(data)
        while view:
            n = os.write(self._fd, view)
            view = view[n:]
        os.fsync(self._fd)
        self._remember(record)

    def _remember(self, record: dict[str, Any]) -> None:
        """Index ``record`` by its result's identity; a stream's (standard input, a pipe) has none:
        it stays in the file but is never taken for a later run's puzzle."""
        key = result_key(record["file"], record.get("index"))
        if key is not None:
            self.records[key] = record

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> "ResultLog":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
