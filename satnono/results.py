"""The words every verb answers in: one verdict vocabulary and one limits value.

:class:`Status` is the one verdict enum (check, count, diagnose, classify, the
editor, explanations); it is ``str``-valued, so ``status == "unique"`` holds and
JSON shows the word.  :class:`Limits` carries the budgets a run may spend, as one
value that a worker or a remote task can be handed.
"""

from __future__ import annotations

from .values import Frozen

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing at start-up
if TYPE_CHECKING:
    from typing import ClassVar, Iterator


#: The SAT back end used unless another is named (python-sat's CaDiCaL 1.9.5).
DEFAULT_SOLVER = "cadical195"


class _StatusType(type):
    """Iteration over the verdicts, in their order (as over an enum)."""

    def __iter__(cls) -> Iterator[Status]:
        return iter(cls._members.values())  # type: ignore[attr-defined]

    def __len__(cls) -> int:
        return len(cls._members)  # type: ignore[attr-defined]


class Status(str, metaclass=_StatusType):
    """The verdict on a puzzle: one of five words, each a single instance.

    It behaves as a ``str``-valued enum (``Status.UNIQUE.value``, ``.name``, ``Status("unique")
    is Status.UNIQUE``, ``list(Status)``, identity kept through pickling) without loading
    :mod:`enum`, which with :mod:`re` would cost more than Python's own start-up.

    >>> Status("multiple") is Status.MULTIPLE, Status.NONE == "none", Status.UNKNOWN.name
    (True, True, 'UNKNOWN')
    >>> [str(s) for s in Status]
    ['unique', 'multiple', 'none', 'unknown', 'error']
    >>> Status("maybe")
    Traceback (most recent call last):
    ...
    ValueError: 'maybe' is not a valid Status
    """

    __slots__ = ()
    _members: ClassVar[dict[str, Status]] = {}

    UNIQUE: ClassVar[Status]
    MULTIPLE: ClassVar[Status]
    NONE: ClassVar[Status]
    UNKNOWN: ClassVar[Status]
    ERROR: ClassVar[Status]

    def __new__(cls, value: str) -> Status:
        try:
            return cls._members[value]
        except (KeyError, TypeError):
            raise ValueError(f"{value!r} is not a valid Status") from None

    @property
    def value(self) -> str:
        return str.__str__(self)

    @property
    def name(self) -> str:
        return self.value.upper()

    def __str__(self) -> str:
        return self.value

    def __repr__(self) -> str:
        return f"<Status.{self.name}: {self.value!r}>"

    def __reduce__(self) -> tuple[type[Status], tuple[str]]:
        return (Status, (self.value,))

    def __copy__(self) -> Status:
        return self

    def __deepcopy__(self, memo: dict) -> Status:
        return self


for _word in ("unique", "multiple", "none", "unknown", "error"):
    Status._members[_word] = str.__new__(Status, _word)
    setattr(Status, _word.upper(), Status._members[_word])
del _word


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
