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

import re
from typing import Any, Mapping

from .common import BuiltinRule, RuleError
from .connected import Connected
from .count import Count
from .line import Line
from .nosquare import NoSquare
from .symmetric import AXES, Symmetric

BUILTIN: dict[str, type[BuiltinRule]] = {
    "symmetric": Symmetric, "count": Count, "no-square": NoSquare, "connected": Connected, "line": Line,
}
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
            raise RuleError(f"rule symmetric: write symmetric:AXIS with AXIS one of {', '.join(AXES)}")
        return Symmetric(parts[0])
    if name == "count":
        m = _COUNT.match(parts[0]) if parts else None
        if m is None or len(parts) > 2:
            raise RuleError(f"rule count: write count:=N, count:>=N or count:<=N (then :COLOUR for one colour), not {text!r}")
        return Count(m.group(1), int(m.group(2)), parts[1] if len(parts) == 2 else None)
    if name in ("no-square", "connected"):
        if len(parts) > 1:
            raise RuleError(f"rule {name}: write {name} or {name}:COLOUR, not {text!r}")
        return BUILTIN[name](parts[0] if parts else None)  # type: ignore[call-arg]
    if name in ("line", "givens"):
        raise RuleError(f"rule {name}: only a puzzle file can give it (JSON \"rules\")")
    raise RuleError(f"unknown rule {name!r} (known: {', '.join(sorted(BUILTIN))}, givens)")


def rule_from_json(obj: Any) -> BuiltinRule:
    """A built-in rule from its JSON object (unbound)."""
    if not isinstance(obj, Mapping) or not isinstance(obj.get("rule"), str):
        raise RuleError('a rule must be an object with a "rule" name, e.g. {"rule": "no-square"}')
    name = obj["rule"]
    if name not in _KEYS:
        raise RuleError(f"unknown rule {name!r} (known: {', '.join(sorted(BUILTIN))}, givens)")
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
            raise RuleError(f"rule symmetric: axis must be one of {', '.join(AXES)}")
        return Symmetric(obj["axis"])
    if name == "count":
        return Count(str(obj["op"]), obj["n"], color)
    if name == "line":
        cells, clue = obj["cells"], obj["clue"]
        if not isinstance(cells, list) or not isinstance(clue, list):
            raise RuleError("rule line: cells and clue must be lists")
        return Line(tuple(tuple(c) if isinstance(c, list) else c for c in cells),
                    tuple(tuple(b) if isinstance(b, list) else b for b in clue))
    return BUILTIN[name](color)  # type: ignore[call-arg]
