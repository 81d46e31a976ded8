"""A puzzle of any geometry: its lanes (:mod:`satnono.lanes`) and one clue per lane.

:class:`LanePuzzle` is the plain value the triddler formats read and write, and what
:mod:`satnono.lanecheck` settles.  A picture is one palette character per cell, in the
geometry's cell order (a triangle's: row by row, each row left to right).

>>> from satnono.lanes import Triangle
>>> p = LanePuzzle.from_picture(Triangle.triangle(2), "#.##")
>>> [c.lengths for c in p.clues], p.breaks("#.##"), p.breaks("####")
([(1,), (2,), (2,), (1,), (), (3,)], None, 'row 2: clue 2, picture 3')
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .clues import LineClue, line_blocks
from .lanes import Geometry, Lane
from .palette import BW_PALETTE, Palette, check_palette


def clue_text(clue: LineClue, chars: str) -> str:
    """A clue as people write it: ``3 1``, ``2r 1b`` in colour, ``?`` for a blot, ``0`` when empty."""
    if not clue.lengths:
        return "0"
    colour = len(chars) > 2
    return " ".join(("?" if (clue.blots >> j) & 1 else str(n)) + (chars[v] if colour else "")
                    for j, (n, v) in enumerate(zip(clue.lengths, clue.colors)))


def fits(clue: LineClue, values: str, index: dict[str, int]) -> bool:
    """Whether a lane's cells (palette characters, in lane order) show ``clue``'s blocks: the same
    colours in order, and the same lengths except a blotted block's, which may be any."""
    lengths, colours = line_blocks(values, index)
    if colours != clue.colors:
        return False
    return all((clue.blots >> j) & 1 or n == m for j, (n, m) in enumerate(zip(lengths, clue.lengths)))


@dataclass(frozen=True)
class LanePuzzle:
    """Clues on the lanes of a geometry, over a palette, with a title, properties and the
    picture the file stores, if any.

    Raises ``ValueError`` (one line) when the parts do not fit together: a clue count other
    than the geometry's lane count, a malformed clue (a length below 1, a blot bit beyond the
    clue's blocks, a blotted block whose length is not written 1), a colour outside the
    palette, a goal of the wrong size or with a character the palette does not have, a given
    cell outside the cells or the palette (or given two values), a rule that does not fit (a
    colour the palette lacks) or has no meaning on the geometry (``symmetric``, ``no-square``:
    :func:`~satnono.lanerules.lane_rule_from`).
    """

    geometry: Geometry
    """The cells and their lanes."""
    clues: tuple[LineClue, ...]
    """One clue per lane, in ``geometry.lanes()`` order."""
    palette: Palette = BW_PALETTE
    """Colour 0 the background, 1..K the block colours (:mod:`satnono.palette`)."""
    name: str | None = None
    """The title, if the file gave one."""
    meta: tuple[tuple[str, str], ...] = ()
    """Other properties (author, copyright, ...), in file order."""
    goal: str | None = None
    """The goal picture if the file stores one (not trusted: checked, never assumed)."""
    source: str | None = None
    """Where the puzzle came from: the file name as given, ``#k`` for the k-th of a file."""
    givens: tuple[tuple[int, int], ...] = ()
    """Cells revealed to the player: ``(cell, value)`` pairs (value a colour index, 0 the
    background), sorted, each cell once."""
    rules: tuple = ()
    """Extra rules every solution keeps, bound to this puzzle: lane rules
    (:mod:`satnono.lanerules`: ``count``, ``connected`` or rules of your own); a built-in rule of
    :mod:`satnono.rules` given here is turned into its lane version
    (:func:`~satnono.lanerules.lane_rule_from`), or refused when it has no meaning on the geometry."""

    def __post_init__(self) -> None:
        check_palette(self.palette)
        lanes = self.geometry.lanes()
        if len(self.clues) != len(lanes):
            raise ValueError(f"the geometry has {len(lanes)} lanes but {len(self.clues)} clues were given")
        k = len(self.palette) - 1
        for lane, clue in zip(lanes, self.clues):
            if len(clue.lengths) != len(clue.colors) or any(n < 1 for n in clue.lengths):
                raise ValueError(f"{lane.name}: malformed clue {repr(clue)[:150]}")
            if clue.blots < 0 or clue.blots >> len(clue.lengths):
                raise ValueError(f"{lane.name}: malformed clue {repr(clue)[:150]} "
                                 f"(its blots name a block it does not have)")
            if any(n != 1 for j, n in enumerate(clue.lengths) if (clue.blots >> j) & 1):
                raise ValueError(f"{lane.name}: malformed clue {repr(clue)[:150]} (a blotted length is written 1)")
            if any(not 1 <= c <= k for c in clue.colors):
                raise ValueError(f"{lane.name}: a block colour outside the palette's 1..{k}")
        if self.goal is not None:
            if len(self.goal) != self.geometry.cell_count:
                raise ValueError(f"the goal has {len(self.goal)} cells, the geometry {self.geometry.cell_count}")
            bad = set(self.goal) - {c.char for c in self.palette}
            if bad:
                raise ValueError(f"the goal uses the character {min(bad)!r}, which is in no colour of the palette")
        if self.givens or self.rules:
            from .lanerules import LaneGivens, lane_rule_from, normalise_givens
            from .rules.protocol import bind

            givens = normalise_givens(self.givens, self.geometry.cell_count, len(self.palette))
            object.__setattr__(self, "givens", givens)
            rules = tuple(bind(lane_rule_from(rule, self.geometry), self) for rule in self.rules)
            object.__setattr__(self, "rules", rules)
            object.__setattr__(self, "_all_rules", ((LaneGivens(givens).bind(self),) if givens else ()) + rules)
        else:
            object.__setattr__(self, "_all_rules", ())

    @classmethod
    def from_picture(cls, geometry: Geometry, cells: str, palette: Palette = BW_PALETTE, *,
                     name: str | None = None, meta: tuple[tuple[str, str], ...] = (),
                     keep_goal: bool = True, givens: Sequence[Sequence[int]] = (),
                     rules: Sequence[object] = ()) -> LanePuzzle:
        """The puzzle whose clues a picture gives, the picture kept as its goal unless
        ``keep_goal`` is false, with ``givens`` and ``rules`` (as the fields).

        Raises:
            ValueError: a picture of the wrong size or with a character the palette lacks, a given
                cell or a rule that does not fit.
        """
        return cls(geometry, clues_of_picture(geometry, cells, palette), palette, name, meta,
                   cells if keep_goal else None, givens=tuple(givens),  # type: ignore[arg-type]
                   rules=tuple(rules))

    def replace(self, **changes: object) -> LanePuzzle:
        """A copy with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def with_source(self, source: str | None) -> LanePuzzle:
        """The same puzzle with ``source`` set (a copy, not checked again), as
        :meth:`satnono.model.Puzzle.with_source`."""
        new = copy.copy(self)
        object.__setattr__(new, "source", source)
        return new

    @property
    def chars(self) -> str:
        """The palette's characters, the background first."""
        return "".join(c.char for c in self.palette)

    @property
    def is_color(self) -> bool:
        """More than one block colour."""
        return len(self.palette) > 2

    @property
    def has_blots(self) -> bool:
        return any(c.blots for c in self.clues)

    @property
    def lanes(self) -> tuple[Lane, ...]:
        return self.geometry.lanes()

    @property
    def all_rules(self) -> tuple:
        """The givens (as a :class:`~satnono.lanerules.LaneGivens` rule, first) and the extra
        rules: what settling and counting apply."""
        return self._all_rules  # type: ignore[attr-defined, no-any-return]

    @property
    def lane_clues(self) -> tuple[LineClue, ...]:
        """The clue of each lane of :attr:`lanes` (the field ``clues``, under the name
        :class:`~satnono.model.Puzzle` gives them too)."""
        return self.clues

    def with_givens(self, cells: Mapping[int, int] | Iterable[Sequence[int]]) -> LanePuzzle:
        """The same puzzle with more given cells: ``cells`` maps a cell to a value (a colour
        index, 0 the background; True/False for black/white), or is ``(cell, value)`` pairs (as
        :meth:`Puzzle.with_givens <satnono.model.Puzzle.with_givens>` for a rectangle's cells).

        Raises:
            ValueError: a cell outside the geometry or a value outside the palette, or a cell
                given two values.
        """
        extra = [(cell, int(v)) for cell, v in cells.items()] if isinstance(cells, Mapping) else list(cells)
        return self.replace(givens=(*self.givens, *extra))  # type: ignore[arg-type]

    def lane_clue(self, family: str, index: int) -> LineClue:
        """The clue of the ``index``-th lane (0-based) of ``family``, as
        :meth:`Puzzle.clue <satnono.model.Puzzle.clue>` gives a row's or a column's."""
        for lane, clue in zip(self.lanes, self.clues):
            if lane.family == family and lane.index == index:
                return clue
        raise KeyError(f"no {family} lane {index + 1}")

    def clue_text(self, family: str, index: int) -> str:
        """A lane's clue as people write it (:func:`clue_text`), as
        :meth:`Puzzle.clue_text <satnono.model.Puzzle.clue_text>` gives a row's or a column's."""
        return clue_text(self.lane_clue(family, index), self.chars)

    def breaks(self, cells: str) -> str | None:
        """Why a picture is not a solution (a wrong size or character, the first lane whose clue it
        breaks, the first given cell it differs in, the first rule it breaks), or None when it is
        one."""
        if len(cells) != self.geometry.cell_count:
            return f"the picture has {len(cells)} cells, the puzzle {self.geometry.cell_count}"
        index = {c.char: i for i, c in enumerate(self.palette)}
        if set(cells) - set(index):
            return f"the picture uses {min(set(cells) - set(index))!r}, which is in no colour of the palette"
        for lane, clue in zip(self.lanes, self.clues):
            values = "".join(cells[i] for i in lane.cells)
            if not fits(clue, values, index):
                shown = LineClue(*line_blocks(values, index))
                return f"{lane.name}: clue {clue_text(clue, self.chars)}, picture {clue_text(shown, self.chars)}"
        chars = self.chars
        for cell, v in self.givens:
            if cells[cell] != chars[v]:
                return f"cell {cell}: given {chars[v]!r}, picture {cells[cell]!r}"
        for rule in self.rules:
            if not rule.accepts(cells):
                from .rules.protocol import describe

                return f"rule {describe(rule)}: the picture breaks it"
        return None

    def is_solution(self, cells: str) -> bool:
        return self.breaks(cells) is None

    def totals_mismatch(self) -> tuple[str, tuple[str, str]] | None:
        """Two families of lanes that each hold every cell once (a triddler's rows, / lines and
        \\ lines) whose clues cannot ask for the same number of cells of some colour: why, and the
        two families; None when they agree.  A blotted number counts 1, so a family with a blot of
        a colour gives only a least total of it.  (A rectangle's rows and columns:
        :meth:`Puzzle.sum_mismatch <satnono.model.Puzzle.sum_mismatch>`.)

        >>> from satnono.lanes import Triangle
        >>> p = LanePuzzle.from_picture(Triangle.hexagon(1), "#.....")
        >>> p.totals_mismatch() is None
        True
        >>> p.replace(clues=(*p.clues[:-1], LineClue((1, 1), (1, 1)))).totals_mismatch()  # one \\ line's clue made 1 1
        ('row clues total 1 black cells but \\\\ line clues total 3', ('row', '\\\\'))
        """
        from .lanes import FAMILY_NAMES

        n, k = self.geometry.cell_count, len(self.palette)
        families: dict[str, list[LineClue]] = {}
        cells: dict[str, list[int]] = {}
        for lane, clue in zip(self.lanes, self.clues):
            families.setdefault(lane.family, []).append(clue)
            cells.setdefault(lane.family, []).extend(lane.cells)
        totals: list[tuple[str, list[int], list[bool]]] = []  # (family, least total, whether only least) a colour
        for family, clues in families.items():
            if sorted(cells[family]) != list(range(n)):
                continue  # (a family that does not hold every cell once says nothing about totals)
            least, blotted = [0] * k, [False] * k
            for clue in clues:
                for j, (length, v) in enumerate(zip(clue.lengths, clue.colors)):
                    least[v] += length  # (a blotted length is held as 1)
                    blotted[v] = blotted[v] or clue.is_blotted(j)
            totals.append((family, least, blotted))
        for v in range(1, k):
            for i, (f, least_f, blot_f) in enumerate(totals):
                for g, least_g, blot_g in totals[i + 1:]:
                    if (not blot_f[v] and least_g[v] > least_f[v]) or (not blot_g[v] and least_f[v] > least_g[v]):
                        colour = self.palette[v]
                        name = f"{colour.name} ({colour.char!r})" if self.is_color else "black"

                        def total(family: str, least: list[int], blot: list[bool]) -> str:
                            return f"{FAMILY_NAMES.get(family, family)} clues total {'at least ' * blot[v]}{least[v]}"

                        return f"{total(f, least_f, blot_f)} {name} cells but {total(g, least_g, blot_g)}", (f, g)
        return None


def clues_of_picture(geometry: Geometry, cells: str, palette: Palette = BW_PALETTE) -> tuple[LineClue, ...]:
    """One clue per lane of ``geometry`` for a picture of one palette character per cell.

    Raises:
        ValueError: a picture of the wrong size or with a character the palette lacks.
    """
    if len(cells) != geometry.cell_count:
        raise ValueError(f"the picture has {len(cells)} cells, the geometry {geometry.cell_count}")
    index = {c.char: i for i, c in enumerate(palette)}
    bad = set(cells) - set(index)
    if bad:
        raise ValueError(f"the picture uses the character {min(bad)!r}, which is in no colour of the palette")
    return tuple(LineClue(*line_blocks("".join(cells[i] for i in lane.cells), index)) for lane in geometry.lanes())


def cells_differ(a: Sequence[str], b: Sequence[str]) -> tuple[int, ...]:
    """The cells where two pictures differ."""
    return tuple(i for i, (x, y) in enumerate(zip(a, b)) if x != y)


__all__ = ["LanePuzzle", "cells_differ", "clue_text", "clues_of_picture", "fits"]
