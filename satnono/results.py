"""The words every verb answers in: one verdict vocabulary and one limits value.

:class:`Status` is the one verdict enum (check, count, diagnose, classify, the
editor, explanations); it is ``str``-valued, so ``status == "unique"`` holds and
JSON shows the word.  :class:`Limits` carries the budgets a run may spend, as one
value that a worker or a remote task can be handed.
"""

from __future__ import annotations

from enum import Enum

from .values import Frozen


#: The SAT back end used unless another is named (python-sat's CaDiCaL 1.9.5).
DEFAULT_SOLVER = "cadical195"


class Status(str, Enum):
    """The verdict on a puzzle."""

    UNIQUE = "unique"
    MULTIPLE = "multiple"
    NONE = "none"
    UNKNOWN = "unknown"
    ERROR = "error"

    def __str__(self) -> str:
        return self.value


class Limits(Frozen):
    """What one settle, count or explanation may spend (None: no bound); a frozen value (see
    :mod:`satnono.values`).

    >>> Limits(timeout=5).with_timeout(None).timeout is None
    True
    """

    __slots__ = __match_args__ = ("timeout", "max_solutions", "probe_budget", "enum_cap")

    timeout: float | None
    """Seconds for the whole run."""
    max_solutions: int | None
    """Stop counting once this many solutions are known to exist."""
    probe_budget: int | None
    """Line-solver calls the probing of an explanation or a grade may make."""
    enum_cap: int | None
    """Models enumerated per component before an exact counter takes over."""

    def __init__(self, timeout: float | None = None, max_solutions: int | None = None,
                 probe_budget: int | None = None, enum_cap: int | None = None) -> None:
        object.__setattr__(self, "timeout", timeout)
        object.__setattr__(self, "max_solutions", max_solutions)
        object.__setattr__(self, "probe_budget", probe_budget)
        object.__setattr__(self, "enum_cap", enum_cap)

    def with_timeout(self, timeout: float | None) -> "Limits":
        return Limits(timeout, self.max_solutions, self.probe_budget, self.enum_cap)
