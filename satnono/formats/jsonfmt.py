"""A JSON puzzle format (there is no standard; this one reads the common shapes).

Schema written by :func:`write` (every key but ``rows``/``columns`` optional)::

    {"title": "Dancer", "author": "...", "rows": [[2], [2, 1], []],
     "columns": [[2, 1], ...], "goal": [".##..", ...]}

Reading:

* the clues are ``rows`` and ``columns`` (or ``cols``; teall's ``hor``/``ver``
  are accepted for rows/columns); a clue is a list of JSON integers (``"1"``
  and ``1.0`` inside a list are refused alike), a single integer, or a string
  of numbers separated by spaces or commas; ``[]``, ``[0]`` and ``""`` are empty;
* ``title`` (else ``name``) is the name; ``goal`` is a list of row strings of
  ``#``/``.`` (``X``/``x``/``1`` black, ``-``/``0`` white also accepted);
  missing clues are derived from the goal;
* every other key with a string, number or boolean value goes to ``meta``;
* a top-level list of such objects is a multi-puzzle file.

JSON gives no positions below the document level, so errors in the values name
the offending key and index instead of a line (syntax errors have a line).
"""

from __future__ import annotations

import json
import re
from typing import Any

from ..errors import ParseError
from ..model import BLACK, MAX_SIDE, WHITE, Clue, Puzzle, clues_of_grid
from ._text import check_size, parse_block

_ROWS = ("rows", "hor")
_COLUMNS = ("columns", "cols", "ver")
_RESERVED = frozenset(_ROWS + _COLUMNS + ("title", "name", "goal"))
_GOAL_CELLS = {"#": BLACK, "X": BLACK, "x": BLACK, "1": BLACK, ".": WHITE, "-": WHITE, "0": WHITE}


def read(text: str, source: str | None) -> list[Puzzle]:
    """All puzzles of a JSON document (one object, or a list of objects)."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ParseError(f"malformed JSON: {e.msg}", source, e.lineno) from None
    except (RecursionError, ValueError) as e:
        raise ParseError(f"malformed JSON: {type(e).__name__}", source) from None
    if isinstance(doc, dict):
        return [_puzzle(doc, "", source)]
    if isinstance(doc, list):
        if not doc:
            raise ParseError("the JSON list holds no puzzles", source)
        return [_puzzle(item, f"[{k}]", source) for k, item in enumerate(doc)]
    raise ParseError("expected a JSON object (or a list of objects) describing a puzzle", source)


def _clue(value: Any, where: str, source: str | None) -> Clue:
    if isinstance(value, bool):
        raise ParseError(f"{where}: expected a list of block lengths, got {value!r}", source)
    if isinstance(value, int):
        items: list[Any] = [value]
    elif isinstance(value, str):
        items = [t for t in re.split(r"[\s,]+", value.strip()) if t]
    elif isinstance(value, list):
        # numbers inside a list must be JSON integers: "1" is refused like 1.0 (a whole clue
        # may still be one string such as "3 1")
        bad = next((j for j, x in enumerate(value) if isinstance(x, bool) or not isinstance(x, int)), None)
        if bad is not None:
            got = json.dumps(value[bad])
            raise ParseError(f"{where}[{bad}]: expected a whole number, got {got[:20]}", source)
        items = value
    else:
        raise ParseError(f"{where}: expected a list of block lengths, got {type(value).__name__}", source)
    out = []
    for j, item in enumerate(items):
        if isinstance(item, int):
            if item < 0:
                raise ParseError(f"{where}[{j}]: block length must not be negative, got {item}", source)
            if item > MAX_SIDE:
                raise ParseError(
                    f"{where}[{j}]: block length is longer than any supported line (at most {MAX_SIDE} cells)", source
                )
            n = item
        else:
            try:
                n = parse_block(item.strip(), source, None)
            except ParseError as e:
                raise ParseError(f"{where}[{j}]: {e.message}", source) from None
        if n:
            out.append(n)
    return tuple(out)


def _clues(doc: dict[str, Any], keys: tuple[str, ...], where: str, source: str | None) -> tuple[Clue, ...] | None:
    key = next((k for k in keys if k in doc), None)
    if key is None:
        return None
    value = doc[key]
    if not isinstance(value, list):
        raise ParseError(f"{where}{key}: expected a list of clues", source)
    if len(value) == 0:
        raise ParseError(f"{where}{key}: the puzzle has no cells", source)
    return tuple(_clue(v, f"{where}{key}[{i}]", source) for i, v in enumerate(value))


def _goal(value: Any, where: str, source: str | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(r, str) for r in value):
        raise ParseError(f"{where}goal: expected a non-empty list of row strings", source)
    rows = []
    for i, row in enumerate(value):
        try:
            rows.append("".join(_GOAL_CELLS[ch] for ch in row))
        except KeyError as e:
            raise ParseError(f"{where}goal[{i}]: unexpected character {e.args[0]!r} (use '#' and '.')", source) from None
        if len(row) != len(value[0]):
            raise ParseError(f"{where}goal[{i}]: has {len(row)} cells, row 0 has {len(value[0])}", source)
    if not rows[0]:
        raise ParseError(f"{where}goal: the rows are empty", source)
    return tuple(rows)


def _puzzle(doc: Any, where: str, source: str | None) -> Puzzle:
    if not isinstance(doc, dict):
        raise ParseError(f"{where or 'document'}: expected a JSON object describing a puzzle", source)
    prefix = f"{where}." if where else ""
    rows = _clues(doc, _ROWS, prefix, source)
    columns = _clues(doc, _COLUMNS, prefix, source)
    goal = _goal(doc["goal"], prefix, source) if doc.get("goal") is not None else None
    if goal is not None:
        g_rows, g_cols = clues_of_grid(goal)
        if (rows is not None and len(rows) != len(goal)) or (columns is not None and len(columns) != len(goal[0])):
            raise ParseError(f"{prefix}goal: its size differs from the clues'", source)
        rows = g_rows if rows is None else rows
        columns = g_cols if columns is None else columns
    if rows is None or columns is None:
        raise ParseError(f"{prefix}{'rows' if rows is None else 'columns'}: missing (and no goal)", source)
    check_size(len(columns), len(rows), source, None)
    name = next((doc[k] for k in ("title", "name") if isinstance(doc.get(k), str)), None)
    meta = tuple(
        (str(k), _scalar(v))
        for k, v in doc.items()
        if k not in _RESERVED and isinstance(v, (str, int, float, bool)) and _scalar(v) != ""
    )
    if isinstance(doc.get("title"), str) and isinstance(doc.get("name"), str):
        meta = (("name", doc["name"]),) + meta
    return Puzzle(rows=rows, columns=columns, name=name, goal=goal, meta=meta)


def _scalar(v: str | int | float | bool) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def write(puzzle: Puzzle) -> str:
    """The puzzle as a JSON object (one clue per line, meta as extra string keys).

    >>> print(write(Puzzle.from_clues([[1]], [[1]])), end="")
    {
      "rows": [
        [1]
      ],
      "columns": [
        [1]
      ]
    }
    """
    parts: list[str] = []
    if puzzle.name is not None:
        parts.append(f'  "title": {json.dumps(puzzle.name, ensure_ascii=False)}')
    seen = set()
    for k, v in puzzle.meta:
        if k not in _RESERVED and k not in seen:
            seen.add(k)
            parts.append(f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}")
    for key, lines in (("rows", puzzle.rows), ("columns", puzzle.columns)):
        body = ",\n".join(f"    {json.dumps(list(c))}" for c in lines)
        parts.append(f'  "{key}": [\n{body}\n  ]')
    if puzzle.goal is not None:
        body = ",\n".join(f"    {json.dumps(r)}" for r in puzzle.goal)
        parts.append(f'  "goal": [\n{body}\n  ]')
    return "{\n" + ",\n".join(parts) + "\n}\n"
