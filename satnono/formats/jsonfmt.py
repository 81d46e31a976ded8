"""A JSON puzzle format (there is no standard; this one reads the common shapes).

Schema written by :func:`write` (every key but ``rows``/``columns`` optional)::

    {"title": "Dancer", "author": "...", "rows": [[2], [2, 1], []],
     "columns": [[2, 1], ...], "goal": [".##..", ...]}

A blotted block (its length hidden, at least 1) is ``"?"``, in colour ``["?", char]``.
A colour puzzle adds its palette and writes each block as ``[length, char]``::

    {"colors": {"a": {"name": "red", "rgb": "#ff0000"},
                "b": {"name": "green", "rgb": "#00ff00"}},
     "rows": [[[3, "a"], [1, "b"]], []], "columns": [...],
     "goal": ["aaab", "...."]}

(``"background": {"name": ..., "rgb": ...}`` is written when the background
is not white.)

Reading:

* the clues are ``rows`` and ``columns`` (or ``cols``; teall's ``hor``/``ver``
  are accepted for rows/columns); a clue is a list of blocks, a single
  integer, or a string of blocks separated by spaces or commas; ``[]``,
  ``[0]`` and ``""`` are empty;
* inside a list a length is a JSON integer (``"1"`` and ``1.0`` are refused
  alike); a whole clue may be one string such as ``"3 1"`` or ``"3a 1b"``;
* a block is a length (``3``), or in colour ``[3, "a"]`` or ``"3a"``; a
  blotted block is ``"?"`` (``["?", "a"]`` or ``"?a"`` in colour)
  where the colour is a character of ``colors``, a colour name, or (in a
  pair) a colour number from 1 in ``colors`` order; a bare length has colour
  1 (the first of ``colors``);
* ``colors`` (or, when ``colors`` is not an object or a list, ``palette``: the
  list ``check --json`` prints) maps each colour's grid character to ``{"name", "rgb"}`` or to
  just an RGB (``"#ff0000"``) or a colour name; without ``colors``, the colour
  characters of the clues (or of the goal) become colours with default RGB
  values, in sorted order; with ``colors``, an unknown colour is an error;
* the palette holds the colours the blocks use (clues and goal), in
  ``colors`` order; a puzzle using one colour is black and white;
* ``title`` (else ``name``) is the name; ``goal`` is a list of row strings: in
  black and white ``#``/``.`` (``X``/``x``/``1`` black, ``-``/``0`` white
  also accepted), in colour the colour characters and ``.``; missing clues
  are derived from the goal;
* every other key with a string, number or boolean value goes to ``meta``, and so
  does each ``[key, value]`` pair of a ``"meta"`` list, in document order (the
  writer's form when a property cannot be a key of its own: a key the format
  reads as something else, such as ``name`` or ``rows``, or a key given twice);
  strings are kept as written;
* a top-level list of such objects is a multi-puzzle file.

**The geometry form**: a puzzle of any geometry (:mod:`satnono.lanes`), as satnono writes a
triddler (:func:`write_lanes`); the worked example of webpbn's triddler specification::

    {"title": "Example", "author": "Jan Wolter",
     "geometry": {"kind": "triangle", "topleft": 2, "bottomleft": 1, "bottom": 2,
                  "bottomright": 2, "topright": 1, "top": 2},
     "clues": [[1, 1, 1], [2, 3], [1], [3], [2, 1], [3], [1], [2, 1], [3], [2]],
     "goal": "#.#.###.###..#.."}

* ``geometry`` is the geometry's JSON form (:func:`satnono.lanes.geometry_from_json`):
  ``{"kind": "triangle", ...}`` with the six sides of the hexagon (webpbn's clue sets, Olšák's
  A..F), or ``{"kind": "rectangle", "height": H, "width": W}``;
* ``clues`` holds one clue per lane, in the geometry's lane order (a triangle's: the rows top to
  bottom, each read from the left; the ``/`` lines left to right along the top, then down the
  upper right side, each read from its top end; the ``\\`` lines left to right along the
  bottom, then up the lower right side, each read from its top-left end), each clue written as
  a row's above: lengths, ``"?"`` for a blot, ``[n, "c"]`` or ``"nc"`` in colour, or one string;
* ``colors`` (``palette``) and ``background`` as above;
* ``goal`` (optional) is one string, a character per cell in the geometry's cell order (a
  triangle's: row by row, each row left to right, as webpbn's image without its ``/`` and
  ``\\`` row ends; a rectangle's: row by row), in black and white ``#``/``.`` (and the
  other cell characters above), in colour the colour characters and ``.``; without ``clues``
  the clues are the goal's;
* the title and properties as above (``geometry`` and ``clues`` are never properties);
* ``givens`` (optional) are cells revealed to the player, ``[cell, value]`` pairs: ``cell`` a
  0-based cell number in cell order, ``value`` a palette character (``#``/``.`` in black and
  white) or a colour index (0 the background); satnono writes ``[cell, "char"]``, sorted;
* ``rules`` (optional) are the rule objects of a grid's ``rules`` (:mod:`satnono.rules.spec`)
  where they make sense on the geometry (:mod:`satnono.lanerules`): ``{"rule": "count", "op":
  ">=", "n": 10, "color": "r"}``, ``{"rule": "connected"}`` (edge neighbours: a triangle's
  three), ``{"rule": "givens", "cells": [[cell, value], ...]}`` (adds to ``givens``); a rule
  without meaning there (``symmetric``, ``no-square``, ``line``) is an error of one line;
* ``rows``/``columns`` beside a ``geometry`` are an error;
* a ``rectangle`` geometry reads as the same rectangular puzzle in the form above (``clues``:
  the rows, then the columns), givens and rules included; satnono writes rectangles in the
  ``rows``/``columns`` form, and puzzles of other geometries (a triangle's: a
  :class:`~satnono.lanepuzzle.LanePuzzle`) in the geometry form.

JSON gives no positions below the document level, so errors in the values name
the offending key and index instead of a line (syntax errors have a line).
"""

from __future__ import annotations

import json
import re
from typing import Any, Sequence

from ..clues import LineClue
from ..errors import ParseError
from ..lanepuzzle import LanePuzzle, clues_of_picture
from ..lanes import Geometry, Rectangle, Triangle, geometry_from_json
from ..model import BLACK, BLOT, BW_PALETTE, MAX_SIDE, WHITE, Color, Palette, Puzzle, clues_of_grid, default_rgb
from ..rules.protocol import name_of, to_json
from ._palette import RGB, build_palette, name_for_rgb, puzzle_of_blocks, rgb_of_name, rgb_of_spec
from ._text import check_size, parse_block

_ROWS = ("rows", "hor")
_COLUMNS = ("columns", "cols", "ver")
_RESERVED = frozenset(_ROWS + _COLUMNS + ("title", "name", "goal", "colors", "colours", "background", "givens",
                                          "rules", "geometry", "clues"))
_GOAL_CELLS = {"#": BLACK, "X": BLACK, "x": BLACK, "1": BLACK, ".": WHITE, "-": WHITE, "0": WHITE}
_COLOUR_TOKEN = re.compile(r"([0-9]+|\?)([^0-9\s,?])")

RawClue = tuple[tuple["int | str", "str | int | None"], ...]
"""A clue as read: ``(length, colour key)`` per block (a blotted length is ``"?"``), ``None``
for a bare length."""


def read(text: str, source: str | None) -> list[Puzzle | LanePuzzle]:
    """All puzzles of a JSON document (one object, or a list of objects): a ``"geometry"`` of kind
    ``triangle`` gives a :class:`~satnono.lanepuzzle.LanePuzzle`, any other object a
    :class:`~satnono.model.Puzzle`."""
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


def _length(item: Any, where: str, source: str | None) -> int | str:
    if isinstance(item, str) and item.strip() == BLOT:
        return BLOT
    if isinstance(item, bool) or not isinstance(item, (int, str)):
        raise ParseError(f"{where}: expected a whole number, got {str(item)[:20]!r}", source)
    if isinstance(item, int):
        if item < 0:
            raise ParseError(f"{where}: block length must not be negative, got {item}", source)
        if item > MAX_SIDE:
            raise ParseError(
                f"{where}: block length is longer than any supported line (at most {MAX_SIDE} cells)", source
            )
        return item
    try:
        return parse_block(item.strip(), source, None)
    except ParseError as e:
        raise ParseError(f"{where}: {e.message}", source) from None


def _clue(value: Any, where: str, source: str | None) -> RawClue:
    if isinstance(value, bool):
        raise ParseError(f"{where}: expected a list of block lengths, got {value!r}", source)
    if isinstance(value, int):
        items: list[Any] = [value]
    elif isinstance(value, str):
        items = [t for t in re.split(r"[\s,]+", value.strip()) if t]
    elif isinstance(value, list):
        # numbers inside a list must be JSON integers: "1" is refused like 1.0 (a whole clue
        # may still be one string such as "3 1"); colour blocks are [3, "a"] or "3a"
        bad = next((j for j, x in enumerate(value)
                    if isinstance(x, bool) or not (isinstance(x, (int, list)) or x == BLOT
                                                   or (isinstance(x, str) and _COLOUR_TOKEN.fullmatch(x.strip())))),
                   None)
        if bad is not None:
            got = json.dumps(value[bad])
            raise ParseError(f"{where}[{bad}]: expected a whole number, got {got[:20]}", source)
        items = value
    else:
        raise ParseError(f"{where}: expected a list of block lengths, got {type(value).__name__}", source)
    out: list[tuple[int | str, str | int | None]] = []
    for j, item in enumerate(items):
        key: str | int | None = None
        if isinstance(item, list):
            if len(item) != 2 or isinstance(item[1], bool) or not isinstance(item[1], (str, int)):
                raise ParseError(f"{where}[{j}]: a colour block is [length, colour], got {str(item)[:30]}", source)
            item, key = item
            if isinstance(item, bool) or not (isinstance(item, int) or item == BLOT):
                raise ParseError(f"{where}[{j}]: expected a whole number, got {json.dumps(item)[:20]}", source)
            if isinstance(key, str) and not key:
                raise ParseError(f"{where}[{j}]: empty colour", source)
        elif isinstance(item, str):
            m = _COLOUR_TOKEN.fullmatch(item.strip())
            if m is not None:
                item, key = m.group(1), m.group(2)
        n = _length(item, f"{where}[{j}]", source)
        if n:
            out.append((n, key))
    return tuple(out)


def _clues(doc: dict[str, Any], keys: tuple[str, ...], where: str, source: str | None) -> tuple[RawClue, ...] | None:
    key = next((k for k in keys if k in doc), None)
    if key is None:
        return None
    value = doc[key]
    if not isinstance(value, list):
        raise ParseError(f"{where}{key}: expected a list of clues", source)
    if len(value) == 0:
        raise ParseError(f"{where}{key}: the puzzle has no cells", source)
    return tuple(_clue(v, f"{where}{key}[{i}]", source) for i, v in enumerate(value))


def _goal_rows(value: Any, where: str, source: str | None) -> list[str]:
    if not isinstance(value, list) or not value or not all(isinstance(r, str) for r in value):
        raise ParseError(f"{where}goal: expected a non-empty list of row strings", source)
    for i, row in enumerate(value):
        if len(row) != len(value[0]):
            raise ParseError(f"{where}goal[{i}]: has {len(row)} cells, row 0 has {len(value[0])}", source)
    if not value[0]:
        raise ParseError(f"{where}goal: the rows are empty", source)
    return value


def _goal(rows: list[str], where: str, source: str | None) -> tuple[str, ...]:
    out = []
    for i, row in enumerate(rows):
        try:
            out.append("".join(_GOAL_CELLS[ch] for ch in row))
        except KeyError as e:
            raise ParseError(f"{where}goal[{i}]: unexpected character {e.args[0]!r} (use '#' and '.')", source) from None
    return tuple(out)


def _colour_spec(value: Any, where: str, source: str | None) -> tuple[str | None, RGB]:
    """``(name or None, rgb)`` of one ``colors`` entry."""
    name = None
    spec = value
    if isinstance(value, dict):
        name = value.get("name")
        spec = value.get("rgb")
        if name is not None and (not isinstance(name, str) or not name):
            raise ParseError(f"{where}.name: expected a non-empty string", source)
        if spec is None:
            if name is None or rgb_of_name(name) is None:
                raise ParseError(f"{where}: no 'rgb' (and no known colour name)", source)
            spec = name
    if not isinstance(spec, str):
        raise ParseError(f"{where}: expected a colour like \"#ff0000\" or {{\"name\": ..., \"rgb\": ...}}", source)
    try:
        rgb = rgb_of_spec(spec)
    except ValueError as e:
        raise ParseError(f"{where}: {e}", source) from None
    if name is None and rgb_of_name(spec) is not None:
        name = spec.strip().lower()
    return name, rgb


class _Palette:
    """The colours of a colour JSON puzzle, and the index of each colour key."""

    def __init__(self, doc: dict[str, Any], prefix: str, source: str | None,
                 clues: list[RawClue], goal_rows: list[str] | None) -> None:
        self.source = source
        self.prefix = prefix
        colours_key = _colours_key(doc)
        given = doc.get(colours_key) if colours_key else None
        entries: list[tuple[str, str | None, RGB]] = []  # (char, name, rgb) in file order
        list_background = None
        if isinstance(given, list):  # [{"char", "name", "rgb"}, ...] as 'check --json' prints 'palette'
            given, list_background = self._from_list(given, f"{prefix}{colours_key}", source)
        if given is not None:
            if not isinstance(given, dict) or not given:
                raise ParseError(f'{prefix}{colours_key}: expected an object mapping colour characters to colours, '
                                 f'like {{"r": {{"name": "red", "rgb": "#ff0000"}}}}, or a list of '
                                 f'{{"char": "r", "name": "red", "rgb": "#ff0000"}}', source)
            for ch, v in given.items():
                if len(ch) != 1:
                    raise ParseError(f"{prefix}{colours_key}: a colour's key is its one grid character, got {ch!r}", source)
                name, rgb = _colour_spec(v, f"{prefix}{colours_key}.{ch}", source)
                entries.append((ch, name, rgb))
        else:
            found = {k for c in clues for _, k in c if isinstance(k, str)}
            found |= {ch for r in goal_rows or [] for ch in r if ch != WHITE}
            if any(isinstance(k, int) for c in clues for _, k in c):
                raise ParseError(f"{prefix}colors: colour numbers need a 'colors' object", source)
            entries = [(ch, None, default_rgb(i)) for i, ch in enumerate(sorted(found), 1)]
        self.entries = entries
        # characters first: a character wins over another colour's name
        self.by_char: dict[str, int] = {ch: i for i, (ch, _, _) in enumerate(entries)}
        self.lookup: dict[str | int, int] = {ch: i for ch, i in self.by_char.items()}
        for i, (_, name, _) in enumerate(entries):
            self.lookup.setdefault(i + 1, i)
            if name is not None:
                self.lookup.setdefault(name, i)
        bg = doc.get("background")
        self.background = list_background
        if bg is not None:
            name, rgb = _colour_spec(bg, f"{prefix}background", source)
            self.background = Color(name or name_for_rgb(rgb), WHITE, rgb)

    @staticmethod
    def _from_list(value: list, where: str, source: str | None) -> tuple[dict[str, Any], Color | None]:
        """The list form of a palette as the object form, and its background entry (char '.')."""
        out: dict[str, Any] = {}
        background = None
        for i, e in enumerate(value):
            if not (isinstance(e, dict) and isinstance(e.get("char"), str) and len(e["char"]) == 1):
                raise ParseError(f'{where}[{i}]: expected {{"char": "r", "name": "red", "rgb": "#ff0000"}} '
                                 "(char: one grid character)", source)
            spec = {k: e[k] for k in ("name", "rgb") if k in e}
            if e["char"] == WHITE:
                name, rgb = _colour_spec(spec, f"{where}[{i}]", source)
                background = Color(name or name_for_rgb(rgb), WHITE, rgb)
            elif e["char"] in out:
                raise ParseError(f"{where}[{i}]: the character {e['char']!r} names two colours", source)
            else:
                out[e["char"]] = spec
        return out, background

    def key_index(self, key: str | int | None, where: str) -> int:
        """Position in ``entries`` of a clue's colour key."""
        if key is None:
            return 0
        i = self.lookup.get(key)
        if i is None:
            raise ParseError(f"{where}: colour {key!r} is not in the palette ('colors')", self.source)
        return i

    def char_index(self, ch: str, where: str) -> int:
        i = self.by_char.get(ch)
        if i is None:
            raise ParseError(f"{where}: unexpected character {ch!r} (not a colour of 'colors', nor '.')", self.source)
        return i


BlockLine = tuple[tuple["int | str", int], ...]
"""A clue as ``(length, colour index)`` per block (a blotted length ``"?"``)."""


def _block_colours(doc: dict[str, Any], prefix: str, source: str | None,
                   groups: dict[str, Sequence[RawClue]], goal_rows: list[str] | None,
                   goal_where: str | None = None) -> tuple[Palette, dict[str, list[BlockLine]], tuple[str, ...] | None]:
    """The palette of a colour puzzle (the colours its blocks use, in ``colors`` order), its
    clues (``groups``: the clues under each key, e.g. ``rows`` and ``columns``) with colour
    indices in that palette, and the goal's rows in its characters.  Errors name the key and
    index of the offending clue, and ``goal_where`` (default ``goal[r]``) of a goal row."""
    pal = _Palette(doc, prefix, source, [c for group in groups.values() for c in group], goal_rows)
    if not pal.entries:
        raise ParseError(f"{prefix}colors: no block colour", source)
    # entry positions used by each line (clues) and cell (goal)
    pos = {key: [tuple((n, pal.key_index(k, f"{prefix}{key}[{i}]")) for n, k in c) for i, c in enumerate(group)]
           for key, group in groups.items()}
    goal_pos = [[-1 if ch == WHITE else pal.char_index(ch, goal_where or f"{prefix}goal[{r}]") for ch in row]
                for r, row in enumerate(goal_rows or [])]
    used = {i for lines in pos.values() for line in lines for _, i in line}
    used |= {i for row in goal_pos for i in row if i >= 0}
    order = [i for i in range(len(pal.entries)) if i in used]
    new_index = {old: new for new, old in enumerate(order, 1)}
    palette = build_palette(pal.background, [
        (pal.entries[i][1] or name_for_rgb(pal.entries[i][2]), [pal.entries[i][0]], pal.entries[i][2]) for i in order
    ], source)
    chars = "".join(c.char for c in palette)
    blocks = {key: [tuple((n, new_index[i]) for n, i in c) for c in lines] for key, lines in pos.items()}
    goal = None
    if goal_rows is not None:
        goal = tuple("".join(WHITE if i < 0 else chars[new_index[i]] for i in row) for row in goal_pos)
    return palette, blocks, goal


def _colour_puzzle(doc: dict[str, Any], prefix: str, source: str | None, rows: tuple[RawClue, ...] | None,
                   columns: tuple[RawClue, ...] | None, goal_rows: list[str] | None, **kwargs: Any) -> Puzzle:
    palette, blocks, goal = _block_colours(doc, prefix, source, {"rows": rows or (), "columns": columns or ()},
                                           goal_rows)
    if goal is not None:
        if (rows is not None and len(rows) != len(goal)) or (columns is not None and len(columns) != len(goal[0])):
            raise ParseError(f"{prefix}goal: its size differs from the clues'", source)
    check_size(len(goal[0]) if columns is None else len(columns),  # type: ignore[index]
               len(goal) if rows is None else len(rows), source, None)  # type: ignore[arg-type]
    return puzzle_of_blocks(
        None if rows is None else blocks["rows"],
        None if columns is None else blocks["columns"],
        palette, goal, **kwargs,
    )


def _puzzle(doc: Any, where: str, source: str | None) -> Puzzle | LanePuzzle:
    prefix = f"{where}." if where else ""
    if isinstance(doc, dict) and "geometry" in doc:
        q = _geometry_puzzle(doc, prefix, source)
        if isinstance(q, LanePuzzle):
            if doc.get("givens") is not None:
                q = q.replace(givens=_lane_givens(doc["givens"], q, prefix, source))
            if doc.get("rules") is not None:
                q = _lane_rules(doc["rules"], q, prefix, source)
            return q
        p = q
    else:
        p = _puzzle_clues(doc, where, source)
    if isinstance(doc, dict) and doc.get("givens") is not None:
        p = p.replace(givens=_givens(doc["givens"], p, prefix, source))
    if isinstance(doc, dict) and doc.get("rules") is not None:
        p = _rules(doc["rules"], p, prefix, source)
    return p


def _rules(value: Any, puzzle: Puzzle, where: str, source: str | None) -> Puzzle:
    """``"rules": [{"rule": NAME, ...}, ...]`` (see :mod:`satnono.rules.spec`); a ``givens``
    rule adds to the puzzle's givens."""
    from ..rules import RuleError, rule_from_json

    if not isinstance(value, list):
        raise ParseError(f'{where}rules: expected a list of rules like {{"rule": "no-square"}}', source)
    rules = []
    for i, obj in enumerate(value):
        try:
            if isinstance(obj, dict) and obj.get("rule") == "givens":
                if set(obj) != {"rule", "cells"}:
                    raise RuleError('rule givens: write {"rule": "givens", "cells": [[row, col, value], ...]}')
                givens = _givens(obj["cells"], puzzle, f"{where}rules[{i}].", source)
                puzzle = puzzle.replace(givens=puzzle.givens + givens)
                continue
            rule = rule_from_json(obj)
            rules.append(rule)
            puzzle.replace(rules=(rule,))  # bound here, so an error names this rule
        except (RuleError, ValueError) as e:
            if isinstance(e, ParseError):
                raise
            raise ParseError(f"{where}rules[{i}]: {e}", source) from None
    return puzzle.replace(rules=puzzle.rules + tuple(rules))


def _lane_givens(value: Any, puzzle: LanePuzzle, where: str, source: str | None) -> tuple[tuple[int, int], ...]:
    """``"givens": [[cell, value], ...]`` of a puzzle of another geometry: 0-based cells revealed
    to the player; a value is a palette character (``#``/``.`` in black and white), or a colour
    index.  The puzzle's givens and these, checked and sorted."""
    if not isinstance(value, list):
        raise ParseError(f"{where}givens: expected a list of [cell, value]", source)
    chars = puzzle.chars
    n = puzzle.geometry.cell_count
    out = list(puzzle.givens)
    for i, g in enumerate(value):
        ok = isinstance(g, list) and len(g) == 2 and type(g[0]) is int
        v = g[1] if ok else None
        if isinstance(v, str) and len(v) == 1 and v in chars:
            v = chars.index(v)
        elif isinstance(v, str) and not puzzle.is_color and v in _GOAL_CELLS:
            v = 1 if _GOAL_CELLS[v] == "#" else 0
        if not ok or type(v) is not int or not 0 <= v < len(chars):
            raise ParseError(f"{where}givens[{i}]: expected [cell, value] with value one of "
                             f"{', '.join(repr(ch) for ch in chars)}, got {json.dumps(g)[:40]}", source)
        if not 0 <= g[0] < n:
            raise ParseError(f"{where}givens[{i}]: cell {g[0]} is outside the {puzzle.geometry.kind}'s "
                             f"{n} cells (0..{n - 1})", source)
        out.append((g[0], v))
    try:
        return puzzle.replace(givens=tuple(out)).givens  # checked and sorted by the puzzle
    except ValueError as e:
        raise ParseError(f"{where}givens: {e}", source) from None


def _lane_rules(value: Any, puzzle: LanePuzzle, where: str, source: str | None) -> LanePuzzle:
    """``"rules": [{"rule": NAME, ...}, ...]`` of a puzzle of another geometry: the grid's rule
    objects made lane rules (:func:`satnono.lanerules.lane_rule_from`); a ``givens`` rule adds to
    the puzzle's givens."""
    from ..lanerules import lane_rule_from
    from ..rules import RuleError, rule_from_json

    if not isinstance(value, list):
        raise ParseError(f'{where}rules: expected a list of rules like {{"rule": "connected"}}', source)
    rules = []
    for i, obj in enumerate(value):
        try:
            if isinstance(obj, dict) and obj.get("rule") == "givens":
                if set(obj) != {"rule", "cells"}:
                    raise RuleError('rule givens: write {"rule": "givens", "cells": [[cell, value], ...]}')
                puzzle = puzzle.replace(givens=_lane_givens(obj["cells"], puzzle, f"{where}rules[{i}].", source))
                continue
            rule = lane_rule_from(rule_from_json(obj), puzzle.geometry)
            rules.append(puzzle.replace(rules=(rule,)).rules[0])  # bound here, so an error names this rule
        except (RuleError, ValueError) as e:
            if isinstance(e, ParseError):
                raise
            raise ParseError(f"{where}rules[{i}]: {e}", source) from None
    return puzzle.replace(rules=puzzle.rules + tuple(rules))


def _puzzle_clues(doc: Any, where: str, source: str | None) -> Puzzle:
    if not isinstance(doc, dict):
        raise ParseError(f"{where or 'document'}: expected a JSON object describing a puzzle", source)
    prefix = f"{where}." if where else ""
    rows = _clues(doc, _ROWS, prefix, source)
    columns = _clues(doc, _COLUMNS, prefix, source)
    goal_rows = _goal_rows(doc["goal"], prefix, source) if doc.get("goal") is not None else None
    name = next((doc[k] for k in ("title", "name") if isinstance(doc.get(k), str)), None)
    meta = tuple(_meta(doc))
    if isinstance(doc.get("title"), str) and isinstance(doc.get("name"), str):
        meta = (("name", doc["name"]),) + meta
    keyed = any(k is not None for c in (rows or ()) + (columns or ()) for _, k in c)
    odd_goal = goal_rows is not None and any(ch not in _GOAL_CELLS for r in goal_rows for ch in r)
    if _colours_key(doc) or keyed or odd_goal:
        if rows is None and columns is None and goal_rows is None:
            raise ParseError(f"{prefix}rows: missing (and no goal)", source)
        if goal_rows is None and (rows is None or columns is None):
            raise ParseError(f"{prefix}{'rows' if rows is None else 'columns'}: missing (and no goal)", source)
        return _colour_puzzle(doc, prefix, source, rows, columns, goal_rows, name=name, meta=meta)
    row_lengths = None if rows is None else tuple(tuple(n for n, _ in c) for c in rows)
    col_lengths = None if columns is None else tuple(tuple(n for n, _ in c) for c in columns)
    goal = _goal(goal_rows, prefix, source) if goal_rows is not None else None
    if goal is not None:
        g_rows, g_cols = clues_of_grid(goal)
        if (row_lengths is not None and len(row_lengths) != len(goal)) or (
            col_lengths is not None and len(col_lengths) != len(goal[0])
        ):
            raise ParseError(f"{prefix}goal: its size differs from the clues'", source)
        row_lengths = g_rows if row_lengths is None else row_lengths
        col_lengths = g_cols if col_lengths is None else col_lengths
    if row_lengths is None or col_lengths is None:
        raise ParseError(f"{prefix}{'rows' if row_lengths is None else 'columns'}: missing (and no goal)", source)
    check_size(len(col_lengths), len(row_lengths), source, None)
    return Puzzle.from_clues(rows=row_lengths, columns=col_lengths, name=name, goal=goal, meta=meta)


def _geometry_puzzle(doc: dict[str, Any], prefix: str, source: str | None) -> Puzzle | LanePuzzle:
    """A puzzle of the geometry form: ``geometry``, one clue per lane in ``clues``, the goal as
    one string of cells; a rectangle's is a :class:`~satnono.model.Puzzle`."""
    value = doc["geometry"]
    if not isinstance(value, dict):
        raise ParseError(f'{prefix}geometry: expected an object like {{"kind": "triangle", "topleft": 2, ...}}',
                         source)
    try:
        geometry = geometry_from_json(value)
    except ValueError as e:
        raise ParseError(f"{prefix}geometry: {e}", source) from None
    other = next((k for k in _ROWS + _COLUMNS if k in doc), None)
    if other is not None:
        raise ParseError(f"{prefix}{other}: a puzzle with a 'geometry' has one clue per lane in 'clues' "
                         f"(a rectangle's rows, then its columns), not {other!r}", source)
    _check_geometry_size(geometry, source)
    lanes = geometry.lanes()
    raw: tuple[RawClue, ...] | None = None
    if doc.get("clues") is not None:
        value = doc["clues"]
        if not isinstance(value, list):
            raise ParseError(f"{prefix}clues: expected a list of clues, one per lane", source)
        if len(value) != len(lanes):
            raise ParseError(f"{prefix}clues: the {geometry.kind} has {len(lanes)} lanes, so {len(lanes)} clues; "
                             f"got {len(value)}", source)
        raw = tuple(_clue(v, f"{prefix}clues[{i}]", source) for i, v in enumerate(value))
    goal: str | None = None
    if doc.get("goal") is not None:
        goal = doc["goal"]
        if not isinstance(goal, str):
            raise ParseError(f"{prefix}goal: expected one string, a character per cell in cell order", source)
        if len(goal) != geometry.cell_count:
            raise ParseError(f"{prefix}goal: has {len(goal)} cells, the {geometry.kind} {geometry.cell_count}",
                             source)
    if raw is None and goal is None:
        raise ParseError(f"{prefix}clues: missing (and no goal)", source)
    name = next((doc[k] for k in ("title", "name") if isinstance(doc.get(k), str)), None)
    meta = tuple(_meta(doc))
    if isinstance(doc.get("title"), str) and isinstance(doc.get("name"), str):
        meta = (("name", doc["name"]),) + meta
    keyed = any(k is not None for c in raw or () for _, k in c)
    if _colours_key(doc) or keyed or (goal is not None and any(ch not in _GOAL_CELLS for ch in goal)):
        palette, blocks, goal_rows = _block_colours(doc, prefix, source, {"clues": raw or ()},
                                                    None if goal is None else [goal], f"{prefix}goal")
        lines: list[BlockLine] | None = None if raw is None else blocks["clues"]
        cells = None if goal_rows is None else goal_rows[0]
    else:
        palette = BW_PALETTE
        lines = None if raw is None else [tuple((n, 1) for n, _ in c) for c in raw]
        cells = None
        if goal is not None:
            bad = next((i for i, ch in enumerate(goal) if ch not in _GOAL_CELLS), None)
            if bad is not None:
                raise ParseError(f"{prefix}goal: unexpected character {goal[bad]!r} at cell {bad} (use '#' and '.')",
                                 source)
            cells = "".join(_GOAL_CELLS[ch] for ch in goal)
    if isinstance(geometry, Rectangle):
        h, w = geometry.height, geometry.width
        return puzzle_of_blocks(None if lines is None else lines[:h], None if lines is None else lines[h:], palette,
                                None if cells is None else tuple(cells[r * w:(r + 1) * w] for r in range(h)),
                                name=name, meta=meta)
    if lines is None:
        assert cells is not None
        clues = clues_of_picture(geometry, cells, palette)
    else:
        clues = tuple(_lane_clue(line) for line in lines)
    try:
        return LanePuzzle(geometry, clues, palette, name, meta, cells)
    except ValueError as e:
        raise ParseError(f"{prefix}clues: {e}", source) from None


def _lane_clue(line: BlockLine) -> LineClue:
    """A clue of ``(length, colour index)`` blocks, a blotted length ``"?"`` (written 1)."""
    blots = sum(1 << j for j, (n, _) in enumerate(line) if n == BLOT)
    return LineClue(tuple(1 if n == BLOT else int(n) for n, _ in line), tuple(c for _, c in line), blots)


def _check_geometry_size(geometry: Geometry, source: str | None) -> None:
    """A rectangle's or a triangle's size within satnono's limits (before its lanes are made)."""
    if isinstance(geometry, Rectangle):
        check_size(geometry.width, geometry.height, source, None)
    elif isinstance(geometry, Triangle):
        from .triddler import _check_size

        _check_size(geometry, source, None)


def _meta(doc: dict[str, Any]) -> list[tuple[str, str]]:
    """The properties of a puzzle object, in document order: every other key with a scalar value,
    and the pairs of a ``"meta": [[key, value], ...]`` list (an empty value is no property)."""
    out = []
    for k, v in doc.items():
        if k in _RESERVED:
            continue
        if k == "meta" and _is_pairs(v):
            out += [(key, _scalar(value)) for key, value in v if key and _scalar(value) != ""]
        elif isinstance(v, (str, int, float, bool)) and _scalar(v) != "":
            out.append((str(k), _scalar(v)))
    return out


def _is_pairs(value: Any) -> bool:
    """``value`` is a list of ``[key, value]`` pairs: a string key, a scalar value."""
    return isinstance(value, list) and all(
        isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
        and isinstance(pair[1], (str, int, float, bool)) for pair in value)


def _colours_key(doc: dict[str, Any]) -> str | None:
    """The key of the palette: ``colors`` (or ``colours``), else the ``palette`` list that
    ``check --json`` prints beside its ``colors`` count."""
    for key in ("colors", "colours"):
        if key in doc and not (isinstance(doc[key], int) and isinstance(doc.get("palette"), list)):
            return key
    return "palette" if isinstance(doc.get("palette"), list) else None


def _scalar(v: str | int | float | bool) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def write(puzzle: Puzzle) -> str:
    """The puzzle as a JSON object (one clue per line, meta as extra string keys, or as one
    ``"meta"`` list of ``[key, value]`` pairs when a key is reserved or repeated).

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
    parts = _head(puzzle.name, puzzle.meta)
    if puzzle.palette != BW_PALETTE:  # colour, one colour of its own (red 'r'), or a background of its own
        parts += _colours(puzzle.palette)
        chars = puzzle.chars
        for key, axis, count in (("rows", "row", puzzle.height), ("columns", "column", puzzle.width)):
            body = ",\n".join(
                "    " + json.dumps(clue_json(puzzle.clue(axis, i), chars), ensure_ascii=False) for i in range(count)
            )
            parts.append(f'  "{key}": [\n{body}\n  ]')
    else:
        for key, lines in (("rows", puzzle.row_clues), ("columns", puzzle.column_clues)):
            body = ",\n".join(f"    {json.dumps(clue_json(c))}" for c in lines)
            parts.append(f'  "{key}": [\n{body}\n  ]')
    if puzzle.goal is not None:
        body = ",\n".join(f"    {json.dumps(r, ensure_ascii=False)}" for r in puzzle.goal)
        parts.append(f'  "goal": [\n{body}\n  ]')
    if puzzle.givens:
        chars = puzzle.chars
        body = ",\n".join(f"    {json.dumps([r, c, chars[v]], ensure_ascii=False)}" for r, c, v in puzzle.givens)
        parts.append(f'  "givens": [\n{body}\n  ]')
    if puzzle.rules:
        parts.append(_rules_json(puzzle.rules))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _rules_json(rules: Sequence[Any]) -> str:
    """The ``"rules"`` lines: each rule's JSON object on a line of its own.

    Raises:
        ValueError: a rule without a JSON form (``as_json``).
    """
    docs = []
    for rule in rules:
        doc = to_json(rule)
        if doc is None:
            raise ValueError(f"rule {name_of(rule)!r} has no JSON form (as_json), so it cannot be saved")
        docs.append(f"    {json.dumps(doc, ensure_ascii=False)}")
    return '  "rules": [\n' + ",\n".join(docs) + "\n  ]"


def write_lanes(puzzle: LanePuzzle) -> str:
    """A puzzle of any geometry (a triddler) in the geometry form: the title and properties as
    :func:`write` writes them, ``geometry``, the palette unless black and white, one clue per lane
    in ``clues`` (one a line), the goal as one string, the givens as ``[cell, "char"]`` pairs and
    the rules as their JSON objects (one a line).

    Raises:
        ValueError: a rule without a JSON form (``as_json``).

    >>> from satnono.lanes import Triangle
    >>> print(write_lanes(LanePuzzle.from_picture(Triangle.triangle(1), "#", name="Dot")), end="")
    {
      "title": "Dot",
      "geometry": {"kind": "triangle", "topleft": 1, "bottomleft": 0, "bottom": 1, "bottomright": 0, "topright": 1, "top": 0},
      "clues": [
        [1],
        [1],
        [1]
      ],
      "goal": "#"
    }
    """
    parts = _head(puzzle.name, puzzle.meta)
    parts.append(f'  "geometry": {json.dumps(puzzle.geometry.as_json())}')
    chars = None
    if puzzle.palette != BW_PALETTE:
        parts += _colours(puzzle.palette)
        chars = puzzle.chars
    body = ",\n".join("    " + json.dumps(clue_json(c, chars), ensure_ascii=False) for c in puzzle.clues)
    parts.append(f'  "clues": [\n{body}\n  ]')
    if puzzle.goal is not None:
        parts.append(f'  "goal": {json.dumps(puzzle.goal, ensure_ascii=False)}')
    if puzzle.givens:
        chars = puzzle.chars
        body = ",\n".join(f"    {json.dumps([cell, chars[v]], ensure_ascii=False)}" for cell, v in puzzle.givens)
        parts.append(f'  "givens": [\n{body}\n  ]')
    if puzzle.rules:
        parts.append(_rules_json(puzzle.rules))
    return "{\n" + ",\n".join(parts) + "\n}\n"


def _head(name: str | None, meta: Sequence[tuple[str, str]]) -> list[str]:
    """The lines of the title and the properties: each a key of its own, or one ``"meta"`` list
    of pairs when a key is reserved or repeated."""
    parts: list[str] = []
    if name is not None:
        parts.append(f'  "title": {json.dumps(name, ensure_ascii=False)}')
    keys = [k for k, _ in meta]
    if len(set(keys)) == len(keys) and not any(k in _RESERVED or k == "meta" for k in keys):
        for k, v in meta:  # each property a key of its own
            parts.append(f"  {json.dumps(k, ensure_ascii=False)}: {json.dumps(v, ensure_ascii=False)}")
    elif meta:  # a key the reader takes for something else, or a key twice: the pairs, in order
        body = ",\n".join(f"    {json.dumps([k, v], ensure_ascii=False)}" for k, v in meta)
        parts.append(f'  "meta": [\n{body}\n  ]')
    return parts


def _colours(pal: Palette) -> list[str]:
    """The lines of a palette other than black and white: the background unless white, the colours."""
    parts = []
    if pal[0].name != "white" or pal[0].rgb != (255, 255, 255):
        parts.append(f'  "background": {_colour_json(pal[0])}')
    body = ",\n".join(f"    {json.dumps(c.char, ensure_ascii=False)}: {_colour_json(c)}" for c in pal[1:])
    parts.append(f'  "colors": {{\n{body}\n  }}')
    return parts


def clue_json(clue: LineClue, chars: str | None = None) -> list:
    """One clue as JSON: lengths (``"?"`` for a blot), or with ``chars`` (the palette's characters)
    ``[length, char]`` pairs.

    >>> clue_json(LineClue((3, 1), (1, 1), 0b10)), clue_json(LineClue((1, 2), (2, 1), 0b01), ".ab")
    ([3, '?'], [['?', 'b'], [2, 'a']])
    """
    lengths = [BLOT if (clue.blots >> j) & 1 else n for j, n in enumerate(clue.lengths)]
    if chars is None:
        return lengths
    return [[n, chars[c]] for n, c in zip(lengths, clue.colors)]


def _givens(value: Any, puzzle: Puzzle, where: str, source: str | None) -> tuple[tuple[int, int, int], ...]:
    """``"givens": [[row, col, value], ...]``: 0-based cells revealed to the player; a value is a
    grid character of the puzzle (``#``/``.`` in black and white), or a colour index."""
    if not isinstance(value, list):
        raise ParseError(f"{where}givens: expected a list of [row, col, value]", source)
    chars = puzzle.chars
    out = []
    for i, g in enumerate(value):
        ok = isinstance(g, list) and len(g) == 3 and all(type(x) is int for x in g[:2])
        v = g[2] if ok else None
        if isinstance(v, str) and len(v) == 1 and v in chars:
            v = chars.index(v)
        elif isinstance(v, str) and not puzzle.is_color and v in _GOAL_CELLS:
            v = 1 if _GOAL_CELLS[v] == "#" else 0
        if not ok or type(v) is not int or not 0 <= v < len(chars):
            raise ParseError(f"{where}givens[{i}]: expected [row, col, value] with value one of "
                             f"{', '.join(repr(ch) for ch in chars)}, got {json.dumps(g)[:40]}", source)
        r, c = g[0], g[1]
        if not (0 <= r < puzzle.height and 0 <= c < puzzle.width):
            raise ParseError(f"{where}givens[{i}]: cell ({r}, {c}) is outside the "
                             f"{puzzle.width}x{puzzle.height} grid", source)
        out.append((r, c, v))
    try:
        return puzzle.replace(givens=tuple(out)).givens  # checked and sorted by the model
    except ValueError as e:
        raise ParseError(f"{where}givens: {e}", source) from None


def _colour_json(c: Color) -> str:
    return json.dumps({"name": c.name, "rgb": c.hex}, ensure_ascii=False)
