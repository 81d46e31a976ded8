"""The words every verb answers in: one verdict vocabulary and one limits value.

:class:`Status` is the one verdict enum (check, count, diagnose, classify, the
editor, explanations); it is ``str``-valued, so ``status == "unique"`` holds and
JSON shows the word.  :class:`Limits` carries the budgets a run may spend, as one
value that a worker or a remote task can be handed.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

#: The SAT back end used unless another is named (python-sat's CaDiCaL 1.9.5).
DEFAULT_SOLVER = "cadical195"


class Status(str, Enum):
    """The verdict on a puzzle: one of five words.

    A ``str``-valued enum: ``str()`` and f-strings give the word, and so does JSON.

    >>> Status("multiple") is Status.MULTIPLE, Status.NONE == "none", Status.UNKNOWN.name
    (True, True, 'UNKNOWN')
    >>> [str(s) for s in Status]
    ['unique', 'multiple', 'none', 'unknown', 'error']
    >>> Status("maybe")
    Traceback (most recent call last):
    ...
    ValueError: 'maybe' is not a valid Status
    """

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"
    ERROR = "error"

    def __str__(self) -> str:
        return str.__str__(self)

    def __format__(self, spec: str) -> str:
        return str.__format__(self, spec)


@dataclass(frozen=True, slots=True)
class Limits:
    """What one settle, count or explanation may spend (None: no bound).

    >>> Limits(timeout=5).with_timeout(None).timeout is None
    True
    """

    timeout: float | None = None
    """Seconds for the whole run."""
    max_solutions: int | None = None
    """Stop counting once this many solutions are known to exist."""
    probe_budget: int | None = None
    """Line-solver calls the probing of an explanation or a grade may make."""
    enum_cap: int | None = None
    """Models enumerated per component before an exact counter takes over."""

    def with_timeout(self, timeout: float | None) -> Limits:
        return replace(self, timeout=timeout)
