"""Built-in rules by name: from ``--rule`` text and from a puzzle file's JSON.

The syntax other tools write (fixed; see README *Rules*)::

    --rule symmetric:left-right      {"rule": "symmetric", "axis": "left-right"}
    --rule count:=40                 {"rule": "count", "op": "=", "n": 40}
    --rule count:>=10:r              {"rule": "count", "op": ">=", "n": 10, "color": "r"}
    --rule no-square[:r]             {"rule": "no-square"[, "color": "r"]}
    --rule connected[:r]             {"rule": "connected"[, "color": "r"]}
    (files only)                     {"rule": "line", "cells": [[r, c], ...], "clue": [3, 1]}
"""

from __future__ import annotations

import importlib
import re
from typing import Any, Mapping

from .common import BuiltinRule, RuleError

#: The built-in rules by name: the module of this package that defines each and its class.  A
#: module is imported when its rule is first named, so a puzzle without rules loads none of them.
BUILTIN_CLASSES = {
    "symmetric": ("symmetric", "Symmetric"), "count": ("count", "Count"), "no-square": ("nosquare", "NoSquare"),
    "connected": ("connected", "Connected"), "line": ("line", "Line"),
}


def builtin(name: str) -> type[BuiltinRule]:
    """The class of the built-in rule ``name`` (a key of :data:`BUILTIN_CLASSES`)."""
    module, cls = BUILTIN_CLASSES[name]
    rule_class: type[BuiltinRule] = getattr(importlib.import_module(f"{__package__}.{module}"), cls)
    return rule_class


def __getattr__(name: str) -> Any:
    """``BUILTIN``: every built-in rule class by name (importing them all)."""
    if name == "BUILTIN":
        return {rule: builtin(rule) for rule in BUILTIN_CLASSES}
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _axes() -> tuple[str, ...]:
    from .symmetric import AXES

    return AXES

_KEYS = {"symmetric": ({"axis"}, set()), "count": ({"op", "n"}, {"color"}), "no-square": (set(), {"color"}),
         "connected": (set(), {"color"}), "line": ({"cells", "clue"}, set())}
_COUNT = re.compile(r"(=|>=|<=)(\d+)$")


def rule_from_spec(text: str) -> BuiltinRule:
    """A rule from its ``--rule`` spelling (unbound: :meth:`bind` it to a puzzle)."""
    name, _, rest = text.strip().partition(":")
    parts = rest.split(":") if rest else []
    if text.strip().endswith(":") or any(not p for p in parts):
        raise RuleError(f"rule {name}: an empty part in {text!r} (write e.g. {name}:VALUE, or {name} alone)")
    if name == "symmetric":
        if len(parts) != 1:
            raise RuleError(f"rule symmetric: write symmetric:AXIS with AXIS one of {', '.join(_axes())}")
        return builtin("symmetric")(parts[0])  # type: ignore[call-arg]
    if name == "count":
        m = _COUNT.match(parts[0]) if parts else None
        if m is None or len(parts) > 2:
            raise RuleError(f"rule count: write count:=N, count:>=N or count:<=N (then :COLOUR for one colour), not {text!r}")
        return builtin("count")(m.group(1), int(m.group(2)), parts[1] if len(parts) == 2 else None)  # type: ignore[call-arg]
    if name in ("no-square", "connected"):
        if len(parts) > 1:
            raise RuleError(f"rule {name}: write {name} or {name}:COLOUR, not {text!r}")
        return builtin(name)(parts[0] if parts else None)  # type: ignore[call-arg]
    if name in ("line", "givens"):
        raise RuleError(f"rule {name}: only a puzzle file can give it (JSON \"rules\")")
    raise RuleError(f"unknown rule {name!r} (known: {', '.join(sorted(BUILTIN_CLASSES))}, givens)")


def rule_from_json(obj: Any) -> BuiltinRule:
    """A built-in rule from its JSON object (unbound)."""
    if not isinstance(obj, Mapping) or not isinstance(obj.get("rule"), str):
        raise RuleError('a rule must be an object with a "rule" name, e.g. {"rule": "no-square"}')
    name = obj["rule"]
    if name == "givens":  # (a puzzle's revealed cells are its "givens", not an entry of its "rules")
        raise RuleError('rule givens: revealed cells are the puzzle\'s "givens", not one of its "rules"')
    if name not in _KEYS:
        raise RuleError(f"unknown rule {name!r} (known: {', '.join(sorted(BUILTIN_CLASSES))}, givens)")
    need, optional = _KEYS[name]
    keys = set(obj) - {"rule"}
    if need - keys:
        raise RuleError(f"rule {name}: missing {', '.join(sorted(need - keys))}")
    if keys - need - optional:
        raise RuleError(f"rule {name}: unknown key {', '.join(sorted(keys - need - optional))}")
    color = obj.get("color")
    if color is not None and not isinstance(color, str):
        raise RuleError(f"rule {name}: color must be a palette character or name, not {color!r}")
    if name == "symmetric":
        if not isinstance(obj["axis"], str):
            raise RuleError(f"rule symmetric: axis must be one of {', '.join(_axes())}")
        return builtin("symmetric")(obj["axis"])  # type: ignore[call-arg]
    if name == "count":
        return builtin("count")(str(obj["op"]), obj["n"], color)  # type: ignore[call-arg]
    if name == "line":
        cells, clue = obj["cells"], obj["clue"]
        if not isinstance(cells, list) or not isinstance(clue, list):
            raise RuleError("rule line: cells and clue must be lists")
        return builtin("line")(tuple(tuple(c) if isinstance(c, list) else c for c in cells),  # type: ignore[call-arg]
                               tuple(tuple(b) if isinstance(b, list) else b for b in clue))
    return builtin(name)(color)  # type: ignore[call-arg]
