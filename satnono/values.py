"""Plain slotted value classes that behave as dataclasses do, for the classes every run creates.

``@dataclass`` builds each class by generating and ``exec``-ing code, and importing
:mod:`dataclasses` loads :mod:`inspect` (with ``ast``, ``dis``, ``tokenize``): for ``satnono check``
on a small puzzle that costs more than Python's own start-up.  A class derived from
:class:`Record` (mutable) or :class:`Frozen` lists its fields in ``__match_args__`` and writes
its ``__init__``; equality (same class, same fields), ``repr``, hashing (frozen only: a mutable
record is unhashable, as an ``eq=True`` dataclass) and pickling are those of the dataclass it
replaces.

>>> class Point(Frozen):
...     __slots__ = __match_args__ = ("x", "y")
...     def __init__(self, x: int, y: int = 0) -> None:
...         object.__setattr__(self, "x", x)
...         object.__setattr__(self, "y", y)
>>> Point(1) == Point(1, 0), Point(1), hash(Point(1)) == hash(Point(1, 0))
(True, Point(x=1, y=0), True)
"""

from __future__ import annotations


class Record:
    """A mutable record: compared and shown by the fields named in ``__match_args__``."""

    __slots__ = ()
    __match_args__: tuple[str, ...] = ()

    def _key(self) -> tuple:
        return tuple(getattr(self, name) for name in self.__match_args__)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is self.__class__:
            return self._key() == other._key()  # type: ignore[attr-defined]
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # mutable, as an eq=True dataclass

    def __repr__(self) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(self.__match_args__, self._key()))
        return f"{self.__class__.__qualname__}({shown})"

    def _slots(self) -> tuple[str, ...]:
        return tuple(name for cls in reversed(type(self).__mro__) for name in getattr(cls, "__slots__", ()))

    def __getstate__(self) -> list:
        return [getattr(self, name) for name in self._slots()]

    def __setstate__(self, state: list) -> None:
        for name, value in zip(self._slots(), state):
            object.__setattr__(self, name, value)


class Frozen(Record):
    """A frozen record: hashable, and assigning or deleting a field raises
    :class:`dataclasses.FrozenInstanceError` (an :class:`AttributeError`)."""

    __slots__ = ()

    def __hash__(self) -> int:  # type: ignore[override]  # a Record has none
        return hash(self._key())

    def __setattr__(self, name: str, value: object) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        from dataclasses import FrozenInstanceError

        raise FrozenInstanceError(f"cannot delete field {name!r}")
