"""The words every verb answers in: one verdict vocabulary and one limits value.

:class:`Status` is the one verdict enum (check, count, diagnose, classify, the
editor, explanations); it is ``str``-valued, so ``status == "unique"`` holds and
JSON shows the word.  :class:`Limits` is what one settle may spend, as one value.
"""

from __future__ import annotations

import os
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
    deadline, shared by several steps).  With both, the earlier ends the run.  ``jobs``: how
    many searches of the puzzle may run at once, each in its own process (a portfolio,
    :mod:`satnono.portfolio`); ``"auto"``, one per core this process may use.

    >>> Limits(timeout=5).deadline_from(100.0), Limits(deadline=90.0, timeout=5).deadline_from(100.0)
    (105.0, 90.0)
    >>> Limits().deadline_from(100.0) is None
    True
    >>> Limits(jobs=3).until(7.0)
    Limits(timeout=None, deadline=7.0, jobs=3)
    >>> Limits(jobs=0)
    Traceback (most recent call last):
    ...
    ValueError: jobs must be a whole number of at least 1 or 'auto', not 0
    """

    timeout: float | None = None
    """Seconds, from the start of the run."""
    deadline: float | None = None
    """A :func:`time.monotonic` time the run must end by."""
    jobs: int | str = 1
    """Searches of one puzzle at once: 1 (one search in this process, deterministic), N, or ``"auto"``."""

    def __post_init__(self) -> None:
        if self.jobs != "auto" and (type(self.jobs) is not int or self.jobs < 1):
            raise ValueError(f"jobs must be a whole number of at least 1 or 'auto', not {self.jobs!r}")

    def job_count(self) -> int:
        """The number of searches ``jobs`` stands for (``"auto"``: the cores this process may use)."""
        return self.jobs if isinstance(self.jobs, int) else auto_jobs()

    def until(self, deadline: float | None) -> Limits:
        """The same jobs until the monotonic ``deadline`` (a step of a longer run)."""
        return Limits(deadline=deadline, jobs=self.jobs)

    def deadline_from(self, start: float) -> float | None:
        """The monotonic time the run must end by when it starts at ``start`` (None: never)."""
        if self.timeout is None:
            return self.deadline
        end = start + self.timeout
        return end if self.deadline is None else min(end, self.deadline)


def auto_jobs() -> int:
    """The cores this process may run on (its CPU affinity; the machine's count where that is
    not known): what ``jobs="auto"`` stands for."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def cpu_seconds() -> float:
    """CPU seconds (user and system) of this process so far and of its children that have ended
    and been waited for (a portfolio's members, a Ganak child): the measure of a run with ``--jobs``.
    """
    import resource
    import time

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime
