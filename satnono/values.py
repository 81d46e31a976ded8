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


def named_tuple(typename: str, fields: tuple[str, ...], defaults: tuple = (), module: str | None = None) -> type:
    """A base class for a named tuple, as :func:`collections.namedtuple` makes it (fields read by
    name, ``_fields``, ``_replace``, ``_asdict``, the same ``repr``, pickled as a tuple), without
    importing :mod:`collections`, which a line-solvable ``satnono check`` would otherwise load
    for this alone.  ``defaults`` apply to the last fields.

    >>> Pair = named_tuple("Pair", ("a", "b"), defaults=(0,))
    >>> p = Pair(1)
    >>> p, p.b, p._replace(b=2), p == (1, 0), Pair(a=3, b=4)._asdict()
    (Pair(a=1, b=0), 0, Pair(a=1, b=2), True, {'a': 3, 'b': 4})
    """
    from operator import itemgetter

    required = len(fields) - len(defaults)
    params = ", ".join(name if i < required else f"{name}=_d{i - required}" for i, name in enumerate(fields))
    scope: dict = {"_tuple_new": tuple.__new__, **{f"_d{i}": d for i, d in enumerate(defaults)}}
    # the one generated function, as namedtuple's: a constructor taking the fields by name
    exec(f"def __new__(_cls, {params}):\n    return _tuple_new(_cls, ({', '.join(fields)},))\n", scope)
    new = scope["__new__"]
    new.__qualname__ = f"{typename}.__new__"

    def __repr__(self: tuple) -> str:
        shown = ", ".join(f"{name}={value!r}" for name, value in zip(fields, self))
        return f"{self.__class__.__name__}({shown})"

    def _replace(self: tuple, **changes: object) -> tuple:
        values = [changes.pop(name, value) for name, value in zip(fields, self)]
        if changes:
            raise ValueError(f"got unexpected field names: {list(changes)!r}")
        return tuple.__new__(type(self), values)

    def _asdict(self: tuple) -> dict:
        return dict(zip(fields, self))

    def __getnewargs__(self: tuple) -> tuple:
        return tuple(self)

    body: dict = {"__slots__": (), "_fields": fields, "__match_args__": fields, "__new__": new,
                  "__repr__": __repr__, "_replace": _replace, "_asdict": _asdict, "__getnewargs__": __getnewargs__,
                  "_field_defaults": dict(zip(fields[required:], defaults)), "__module__": module or __name__}
    for i, name in enumerate(fields):
        body[name] = property(itemgetter(i), doc=f"Field {i} ({name}).")
    return type(typename, (tuple,), body)
