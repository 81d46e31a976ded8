"""The words every verb answers in: one verdict vocabulary and one limits value.

:class:`Status` is the one verdict enum (check, count, diagnose, classify, the
editor, explanations); it is ``str``-valued, so ``status == "unique"`` holds and
JSON shows the word.  :class:`Limits` is what one settle may spend, as one value.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

#: The SAT back end used unless another is named (python-sat's CaDiCaL 1.9.5).
DEFAULT_SOLVER = "cadical195"

#: Back ends that can be chosen with ``--solver`` (all incremental: clauses may be added after a solve).
#: The value says how a deadline is kept (see :mod:`satnono.sat`); a ``terminate``
#: back end falls back to ``budget`` where the native timer is not available.
SOLVERS: dict[str, str] = {
    "cadical195": "terminate",
    "cadical153": "terminate",
    "glucose4": "interrupt",
    "glucose42": "interrupt",
    "glucose3": "interrupt",
    "minisat22": "interrupt",
    "maplechrono": "interrupt",
    "mergesat3": "interrupt",
}

#: Difficulty levels, easiest first (the explain grade, classify's ``level``); ``multiple``,
#: ``none`` and ``unknown`` are outside the scale.
LEVELS = ("line", "probe", "probe2", "search")


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


@dataclass(frozen=True)
class Limits:
    """What one settle may spend (None: no bound): ``Limits(timeout=5)``, five seconds from
    when it starts; ``Limits(deadline=d)``, until the monotonic time ``d`` (a caller's own
    deadline, shared by several steps).  With both, the earlier ends the run.

    >>> Limits(timeout=5).deadline_from(100.0), Limits(deadline=90.0, timeout=5).deadline_from(100.0)
    (105.0, 90.0)
    >>> Limits().deadline_from(100.0) is None
    True
    """

    timeout: float | None = None
    """Seconds, from the start of the run."""
    deadline: float | None = None
    """A :func:`time.monotonic` time the run must end by."""

    def deadline_from(self, start: float) -> float | None:
        """The monotonic time the run must end by when it starts at ``start`` (None: never)."""
        if self.timeout is None:
            return self.deadline
        end = start + self.timeout
        return end if self.deadline is None else min(end, self.deadline)
