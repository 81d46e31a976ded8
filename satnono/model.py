"""The puzzle model: palettes, clues, grids and their basic laws.

A *block* is a run of cells of one colour, ``(length, colour)``; a *clue* is
the sequence of blocks of one line, top to bottom for a column and left to
right for a row.  Colours are indices into the puzzle's *palette*: colour 0 is
the background, colours 1..K are block colours.  Two consecutive blocks of the
same colour need at least one background cell between them; blocks of
different colours may touch.  A black-and-white puzzle is the one-colour case
(K = 1) of the same model.

A puzzle stores its clues as two parallel tuples per line: ``rows[i]`` the
block lengths and ``row_colors[i]`` their colours (likewise for columns), so
that the one-colour hot paths read plain int tuples; :meth:`Puzzle.row_blocks`
and :meth:`Puzzle.column_blocks` give the ``(length, colour)`` view.

A *grid* is a tuple of row strings over the palette's characters: ``.`` for
the background, ``#`` for black in black and white, a colour's ``char`` in
colour.  ``?`` is reserved for an unknown cell in partial grids.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from functools import cached_property
from typing import Iterable, Mapping, Sequence

from .clues import LineClue, line_blocks
from .lanes import LINE, Lane, Rectangle
from .palette import (  # noqa: F401  (re-exported)
    BACKGROUND,
    BLACK,
    BW_PALETTE,
    MAX_COLORS,
    WHITE,
    Color,
    Palette,
    check_palette,
    default_palette,
    default_rgb,
    palette_for_chars,
    parse_rgb,
    plain_black,
)
from .rules import Givens, bind, is_lane, lane_of

Clue = tuple[int, ...]
"""The block lengths of one line."""
Colors = tuple[int, ...]
"""The colour index (1..K) of each block of one line."""
Block = tuple[int, int]
"""``(length, colour)``."""
Grid = tuple[str, ...]

UNKNOWN = "?"

#: Largest accepted side length; larger puzzles are refused with a clear error.
MAX_SIDE = 10_000
#: Largest accepted number of cells.
MAX_CELLS = 4_000_000

@dataclass(frozen=True)
class Puzzle:
    """A nonogram: row and column clues over a palette, plus optional metadata.

    Clues may be given as lists of lengths (every block of colour 1) or of
    ``(length, colour)`` pairs, where a colour is an index into ``palette``,
    a palette name or a palette character.  A frozen dataclass: the clues are
    normalised when it is made (:meth:`replace` normalises them again).
    """

    rows: tuple[Clue, ...]
    """Row clues (block lengths), top to bottom."""
    columns: tuple[Clue, ...]
    """Column clues (block lengths), left to right."""
    name: str | None = None
    """A title, if the file gave one."""
    goal: Grid | None = None
    """The intended picture, if the file carried one (not trusted: it is checked, never assumed)."""
    meta: tuple[tuple[str, str], ...] = ()
    """Other properties from the file (author, copyright, licence, ...), in file order."""
    source: str | None = None
    """Where the puzzle came from: the file name as given, with ``#k`` for the k-th puzzle of a multi-puzzle file."""
    palette: Palette = BW_PALETTE
    """Background first, then the block colours."""
    row_colors: tuple[Colors, ...] = ()
    """The colour of each block of each row (all 1 when omitted)."""
    column_colors: tuple[Colors, ...] = ()
    """The colour of each block of each column (all 1 when omitted)."""
    givens: tuple[tuple[int, int, int], ...] = ()
    """Cells revealed to the player: ``(row, col, colour index)`` (0-based; index 0 is the
    background, 1 black in black and white), sorted.  Every solution must agree with them."""
    rules: tuple = ()
    """Extra rules every solution keeps (see :mod:`satnono.rules`), bound to this puzzle."""
    row_blots: tuple[int, ...] = ()
    """Per row, the blotted blocks (bit j set: block j's length is hidden, at least 1; its
    entry in ``rows`` is then 1).  All 0 when omitted."""
    column_blots: tuple[int, ...] = ()
    """Per column, the blotted blocks, as ``row_blots``."""
    _all_rules: tuple = field(default=(), init=False, repr=False, compare=False)
    row_clues: tuple[LineClue, ...] = field(default=(), init=False, repr=False, compare=False)
    """Each row's clue as one :class:`~satnono.clues.LineClue` (what the kernels take)."""
    column_clues: tuple[LineClue, ...] = field(default=(), init=False, repr=False, compare=False)
    """Each column's clue as one :class:`~satnono.clues.LineClue`."""

    def replace(self, **changes: object) -> Puzzle:
        """A new puzzle with some fields changed, normalised again (``dataclasses.replace``)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def __post_init__(self) -> None:
        # Normalise so that every consumer sees the same clue shape: tuples of
        # positive lengths with a colour each, an empty line as ``()``.
        pal = check_palette(self.palette)
        lookup = _color_lookup(pal)  # clues may name a colour by the character given
        goal = None if self.goal is None else tuple(self.goal)
        object.__setattr__(self, "palette", pal)
        lookup.update(_color_lookup(pal))
        for lengths_attr, colors_attr, blots_attr, clues_attr in (
                ("rows", "row_colors", "row_blots", "row_clues"),
                ("columns", "column_colors", "column_blots", "column_clues")):
            lines = tuple(getattr(self, lengths_attr))
            given = getattr(self, colors_attr) or None  # omitted: every block colour 1
            if given is not None and len(given) != len(lines):
                raise ValueError(f"{len(lines)} {lengths_attr} but {len(given)} {colors_attr}")
            given_blots = getattr(self, blots_attr) or None
            if given_blots is not None and len(given_blots) != len(lines):
                raise ValueError(f"{len(lines)} {lengths_attr} but {len(given_blots)} {blots_attr}")
            lengths_out = []
            colors_out = []
            blots_out = []
            for i, clue in enumerate(lines):
                lengths, colors, blots = _normalise_blocks(clue, None if given is None else given[i], lookup,
                                                           len(pal) - 1)
                if given_blots is not None and given_blots[i]:
                    if given_blots[i] >> len(lengths):
                        raise ValueError(f"{lengths_attr[:-1]} {i + 1}: blots name a block the clue does not have")
                    blots |= given_blots[i]
                    lengths = tuple(1 if (blots >> j) & 1 else c for j, c in enumerate(lengths))
                lengths_out.append(lengths)
                colors_out.append(colors)
                blots_out.append(blots)
            object.__setattr__(self, lengths_attr, tuple(lengths_out))
            object.__setattr__(self, colors_attr, tuple(colors_out))
            object.__setattr__(self, blots_attr, tuple(blots_out))
            object.__setattr__(self, clues_attr, tuple(map(LineClue, lengths_out, colors_out, blots_out)))
        object.__setattr__(self, "goal", goal)
        if self.givens:
            object.__setattr__(self, "givens", _normalise_givens(self.givens, len(self.rows), len(self.columns), len(pal) - 1))
        object.__setattr__(self, "meta", tuple((str(k), str(v)) for k, v in self.meta))
        if self.rules:
            object.__setattr__(self, "rules", tuple(bind(rule, self) for rule in self.rules))
        if self.givens:
            object.__setattr__(self, "_all_rules", (Givens(self.givens).bind(self), *self.rules))
        else:
            object.__setattr__(self, "_all_rules", self.rules)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.columns)

    @property
    def ncolors(self) -> int:
        """The number of block colours K (1 in black and white)."""
        return len(self.palette) - 1

    @property
    def is_color(self) -> bool:
        """True for a puzzle with more than one block colour."""
        return len(self.palette) > 2

    @property
    def chars(self) -> str:
        """The grid character of each colour index, background first."""
        return "".join(c.char for c in self.palette)

    @property
    def metadata(self) -> dict[str, str]:
        return dict(self.meta)

    @cached_property
    def geometry(self) -> Rectangle:
        """The puzzle's shape: a :class:`~satnono.lanes.Rectangle` of ``height`` rows and
        ``width`` columns (cells row-major), whose lanes are the rows then the columns."""
        return Rectangle(self.height, self.width)

    @cached_property
    def lanes(self) -> tuple[Lane, ...]:
        """The rows (lanes ``0 .. height - 1``) then the columns, as :class:`~satnono.lanes.Lane`;
        then one lane of family ``"line"`` for each rule that is a lane (the ``line`` rule:
        :attr:`line_rules`), its cells numbered ``r * width + c``."""
        own = self.geometry.lanes()
        if not self.line_rules:
            return own
        w = self.width
        extra = tuple(Lane(LINE, j, tuple(r * w + c for r, c in lane_of(self.rules[i])[0]))  # type: ignore[index]
                      for j, i in enumerate(self.line_rules))
        return own + extra

    @cached_property
    def lane_clues(self) -> tuple[LineClue, ...]:
        """The clue of each lane of :attr:`lanes`: the rows', the columns', the extra lines'."""
        return self.row_clues + self.column_clues + self.line_clues

    @cached_property
    def line_rules(self) -> tuple[int, ...]:
        """The index in :attr:`rules` of each rule that is an extra lane of the puzzle (the
        ``line`` rule, :func:`~satnono.rules.is_lane`), in rule order: the lane ``("line", j)`` of
        :attr:`lanes`, named "extra line j + 1", is ``rules[line_rules[j]]``."""
        return tuple(i for i, rule in enumerate(self.rules) if is_lane(rule))

    @cached_property
    def line_clues(self) -> tuple[LineClue, ...]:
        """The clue of each extra lane (:attr:`line_rules`)."""
        return tuple(lane_of(self.rules[i])[1] for i in self.line_rules)  # type: ignore[index]

    @cached_property
    def cell_rules(self) -> tuple:
        """The rules that are not lanes (every rule but ``line``): what propagation narrows with
        and the encoder encodes as rules (the givens are known cells of the initial state)."""
        return tuple(rule for rule in self.rules if not is_lane(rule)) if self.line_rules else self.rules

    def row_blocks(self, i: int) -> tuple[Block, ...]:
        """Row ``i``'s clue as ``(length, colour)`` blocks."""
        return tuple(zip(self.rows[i], self.row_colors[i]))

    def column_blocks(self, i: int) -> tuple[Block, ...]:
        """Column ``i``'s clue as ``(length, colour)`` blocks."""
        return tuple(zip(self.columns[i], self.column_colors[i]))

    def line(self, axis: str, i: int) -> tuple[Clue, Colors]:
        """``(lengths, colours)`` of row, column or extra line ``i`` (``axis`` is ``"row"``,
        ``"column"`` or ``"line"``)."""
        if axis == "row":
            return self.rows[i], self.row_colors[i]
        if axis == LINE:
            clue = self.line_clues[i]
            return clue.lengths, clue.colors
        return self.columns[i], self.column_colors[i]

    def clue(self, axis: str, i: int) -> LineClue:
        """Row, column or extra line ``i``'s clue as one :class:`~satnono.clues.LineClue`."""
        if axis == "row":
            return self.row_clues[i]
        return self.line_clues[i] if axis == LINE else self.column_clues[i]

    def clues(self, axis: str) -> tuple[LineClue, ...]:
        """Every row's (``axis == "row"``), column's or extra line's (``"line"``) clue."""
        if axis == "row":
            return self.row_clues
        return self.line_clues if axis == LINE else self.column_clues

    @property
    def has_blots(self) -> bool:
        """True when some clue number is hidden (blotted)."""
        return any(self.row_blots) or any(self.column_blots)

    def min_length(self, axis: str, i: int) -> int:
        """The fewest cells the clue of row, column or extra line ``i`` fits in: its blocks (a blot counts
        1), plus one background cell between consecutive blocks of the same colour."""
        return self.clue(axis, i).min_length()

    def clue_text(self, axis: str, i: int) -> str:
        """One line's clue as a person reads it: ``3 1`` in black and white, ``3a 1b`` in colour
        (the palette's characters), ``?`` for a blotted length, ``0`` for an empty line."""
        return self.clue(axis, i).text(self.chars, self.is_color)

    @classmethod
    def from_clues(
        cls,
        rows: Iterable[Iterable[object]],
        columns: Iterable[Iterable[object]],
        **kwargs: object,
    ) -> Puzzle:
        """Build a puzzle, normalising clues (a lone ``0`` means an empty line).

        >>> Puzzle.from_clues(rows=[[1], [1]], columns=[[1], [1]]).is_color
        False
        """
        return cls(rows=tuple(rows), columns=tuple(columns), **kwargs)  # type: ignore[arg-type]

    @classmethod
    def from_grid(cls, grid: Sequence[str], palette: Sequence[Color] | None = None, **kwargs: object) -> Puzzle:
        """The puzzle whose clues describe ``grid`` (which becomes its goal).

        Without ``palette`` a grid over ``#``/``.`` is black and white, and any
        other characters become block colours with default RGB values.
        """
        g = tuple(grid)
        pal = palette_for_chars("".join(g)) if palette is None else check_palette(palette)
        g = check_grid(g, pal)
        if len(pal) == 2:  # one block colour: the black-and-white clues (cells of any one character)
            rows, cols = clues_of_grid(g)
            kwargs.setdefault("goal", g)
            return cls(rows=rows, columns=cols, palette=pal, **kwargs)  # type: ignore[arg-type]
        rl, rc, cl, cc = color_clues_of_grid(g, pal)
        kwargs.setdefault("goal", g)
        return cls(rows=rl, columns=cl, palette=pal, row_colors=rc, column_colors=cc, **kwargs)  # type: ignore[arg-type]

    def with_source(self, source: str | None) -> Puzzle:
        """The same puzzle with ``source`` set (a copy: the clues are normalised already, so
        they are not normalised again)."""
        new = copy.copy(self)
        object.__setattr__(new, "source", source)
        return new

    def with_givens(self, cells: Mapping[tuple[int, int], int] | Iterable[Sequence[int]]) -> Puzzle:
        """The same puzzle with more given cells, each kept as the :class:`~satnono.rules.Givens`
        rule keeps the puzzle's own: ``cells`` maps ``(row, col)`` to a colour index (True/False for
        black/white in black and white), or is ``(row, col, colour index)`` triples.

        Raises:
            ValueError: a cell outside the grid or the palette, or given a value other than the
                puzzle's own given for it.

        >>> p = Puzzle.from_grid(["#.", ".#"]).with_givens({(0, 0): True})
        >>> p.givens, p.all_rules[0].name
        (((0, 0, 1),), 'givens')
        """
        extra = ([(r, c, int(v)) for (r, c), v in cells.items()] if isinstance(cells, Mapping)
                 else list(cells))
        givens = _normalise_givens((*self.givens, *extra), self.height, self.width, self.ncolors)
        new = copy.copy(self)  # (the clues are normalised already)
        object.__setattr__(new, "givens", givens)
        object.__setattr__(new, "_all_rules", (Givens(givens).bind(new), *self.rules) if givens else self.rules)
        return new

    @property
    def all_rules(self) -> tuple:
        """The givens (as a :class:`~satnono.rules.Givens` rule, first) and the extra rules:
        what every consumer (propagation, encoding, verification, counting) applies."""
        return self._all_rules

    def is_solution(self, grid: Sequence[str]) -> bool:
        """True when ``grid`` has this puzzle's size, satisfies every clue, agrees with the givens
        and keeps every rule."""
        if len(grid) != self.height or any(len(r) != self.width for r in grid):
            return False
        chars = self.chars
        if any(r.strip(chars) for r in grid):  # a character outside the palette
            return False
        if any(grid[r][c] != chars[v] for r, c, v in self.givens):
            return False
        if self.rules and not all(rule.accepts(tuple(grid)) for rule in self.rules):
            return False
        if self.has_blots:
            rl, rc, cl, cc = color_clues_of_grid(tuple(grid), self.palette)
            return (_blotted_match(rl, rc, self.row_clues) and _blotted_match(cl, cc, self.column_clues))
        if not self.is_color:  # one block colour, '#' or its own character
            rows, cols = clues_of_grid(tuple(grid))
            return rows == self.rows and cols == self.columns
        rl, rc, cl, cc = color_clues_of_grid(tuple(grid), self.palette)
        return rl == self.rows and cl == self.columns and rc == self.row_colors and cc == self.column_colors

    def sum_mismatch(self) -> bool:
        """True when row clues and column clues disagree on the number of cells of some colour
        (with blots: when the side without a blot of a colour asks for fewer cells of it than
        the other side's least total)."""
        if self.has_blots:
            return self.totals_conflict() is not None
        if not self.is_color:
            return sum(map(sum, self.rows)) != sum(map(sum, self.columns))
        return self.color_totals("row") != self.color_totals("column")

    def color_totals(self, axis: str) -> list[int]:
        """Cells of each colour (index 0 unused) the row or column clues ask for (a blot
        counts 1: with blots these are least totals)."""
        tot = [0] * len(self.palette)
        lengths, colors = (self.rows, self.row_colors) if axis == "row" else (self.columns, self.column_colors)
        for ls, cs in zip(lengths, colors):
            for n, col in zip(ls, cs):
                tot[col] += n
        return tot

    def blot_counts(self, axis: str) -> list[int]:
        """Blotted blocks of each colour (index 0 unused) in the row or column clues."""
        out = [0] * len(self.palette)
        for clue in self.clues(axis):
            for j, col in enumerate(clue.colors):
                if (clue.blots >> j) & 1:
                    out[col] += 1
        return out

    def totals_conflict(self) -> int | None:
        """The first colour whose row and column totals cannot agree, or None.  A side with no
        blot of colour v asks for exactly its total; a side with blots for at least it."""
        rt, ct = self.color_totals("row"), self.color_totals("column")
        rb, cb = self.blot_counts("row"), self.blot_counts("column")
        for v in range(1, len(rt)):
            if (not rb[v] and rt[v] < ct[v]) or (not cb[v] and ct[v] < rt[v]) or (
                    not rb[v] and not cb[v] and rt[v] != ct[v]):
                return v
        return None


def _normalise_givens(givens: Iterable[Sequence[int]], h: int, w: int, k: int) -> tuple[tuple[int, int, int], ...]:
    """Givens as sorted ``(row, col, colour)`` triples (a bool colour: black/white)."""
    out: dict[tuple[int, int], int] = {}
    for g in givens:
        if len(g) != 3:
            raise ValueError(f"a given cell is (row, col, colour), got {g!r}")
        r, c, v = (int(x) for x in g)
        if not (0 <= r < h and 0 <= c < w):
            raise ValueError(f"given cell ({r}, {c}) is outside the {w}x{h} grid")
        if not 0 <= v <= k:
            raise ValueError(f"given cell ({r}, {c}) has colour {v}, not 0..{k}")
        if out.setdefault((r, c), v) != v:
            raise ValueError(f"given cell ({r}, {c}) is given twice with different colours")
    return tuple(sorted((r, c, v) for (r, c), v in out.items()))


def _color_lookup(palette: Palette) -> dict[object, int]:
    """Colour index by index, name and character (block colours only)."""
    out: dict[object, int] = {}
    for i, col in enumerate(palette):
        if i == 0:
            continue
        out[i] = i
        out.setdefault(col.name, i)
        out.setdefault(col.char, i)
    return out


BLOT = "?"
"""How a blotted (hidden) block length is written in clues: ``"?"`` (``None`` is accepted too)."""


def _blotted_match(lengths: Sequence[Clue], colors: Sequence[Colors], clues: Sequence[LineClue]) -> bool:
    """True when the blocks of a grid's lines match clues that may have blotted lengths."""
    for ls, cs, clue in zip(lengths, colors, clues):
        if cs != clue.colors:
            return False
        b = clue.blots
        if any(n != c for j, (n, c) in enumerate(zip(ls, clue.lengths)) if not (b >> j) & 1):
            return False
    return True


def _normalise_blocks(clue: Iterable[object], colors: Iterable[int] | None,
                      lookup: dict[object, int], k: int) -> tuple[Clue, Colors, int]:
    """Lengths, colours and blots of one line; zero-length blocks (``[0]`` for an empty line)
    are dropped; a blotted length (``"?"`` or ``None``) becomes 1 with its bit set in the blots."""
    items = tuple(clue)
    if colors is None and set(map(type, items)) <= {int}:  # the common case: plain lengths
        ints: tuple[int, ...] = items  # type: ignore[assignment]
        if min(ints, default=0) < 0:
            raise ValueError(f"negative block length in clue {list(ints)}")
        lengths_only = ints if 0 not in ints else tuple(x for x in ints if x)
        return lengths_only, (1,) * len(lengths_only), 0
    lengths: list[int] = []
    cols: list[int] = []
    blots = 0
    given = None if colors is None else list(colors)
    if given is not None and len(given) != len(items):
        raise ValueError(f"clue {items!r} has {len(items)} blocks but {len(given)} colours")
    for j, item in enumerate(items):
        if isinstance(item, (tuple, list)):
            if len(item) != 2:
                raise ValueError(f"a block must be a length or (length, colour), got {item!r}")
            n, col = item
            c = lookup.get(col)
            if c is None:
                raise ValueError(f"block colour {col!r} is not in the palette")
        else:
            n = item
            c = 1 if given is None else given[j]
            if c not in lookup or isinstance(c, bool):
                raise ValueError(f"block colour {c!r} is not a colour index 1..{k}")
        if n is None or n == BLOT:
            blots |= 1 << len(lengths)
            n = 1
        elif isinstance(n, bool) or not isinstance(n, int):
            n = int(n)  # type: ignore[call-overload]
        if n < 0:
            raise ValueError(f"negative block length in clue {items!r}")
        if n:
            lengths.append(n)
            cols.append(int(c))  # type: ignore[arg-type]
    return tuple(lengths), tuple(cols), blots


def line_clue(cells: str) -> Clue:
    """The clue of one line given as a string of ``#``/``.``."""
    return tuple(map(len, filter(None, cells.split(WHITE))))


def check_grid(grid: Sequence[str], palette: Sequence[Color] = BW_PALETTE) -> Grid:
    """Validate a rectangular grid over the palette's characters and return it as a tuple."""
    g = tuple(grid)
    if not g or not g[0]:
        raise ValueError("empty grid")
    w = len(g[0])
    allowed = "".join(c.char for c in palette)
    for r, row in enumerate(g):
        if len(row) != w:
            raise ValueError(f"grid row {r + 1} has {len(row)} cells, expected {w}")
        if row.strip(allowed):
            bad = set(row) - set(allowed)
            shown = " and ".join(repr(ch) for ch in allowed) if len(allowed) == 2 else repr(allowed)
            raise ValueError(f"grid row {r + 1} has characters other than {shown}: {''.join(sorted(bad))!r}")
    return g


def clues_of_grid(grid: Grid) -> tuple[tuple[Clue, ...], tuple[Clue, ...]]:
    """Row and column clues of a grid."""
    rows = tuple(line_clue(r) for r in grid)
    if not grid:
        return rows, ()
    w = len(grid[0])
    if any(len(r) != w for r in grid):
        raise ValueError("grid rows differ in length")
    flat = "".join(grid)  # column c is every w-th character from c (rows must all have width w)
    cols = tuple(line_clue(flat[c::w]) for c in range(w))
    return rows, cols


def color_clues_of_grid(grid: Grid, palette: Sequence[Color]) -> tuple[
        tuple[Clue, ...], tuple[Colors, ...], tuple[Clue, ...], tuple[Colors, ...]]:
    """Row lengths, row colours, column lengths and column colours of a grid over ``palette``."""
    index = {c.char: i for i, c in enumerate(palette)}
    rows = [line_blocks(r, index) for r in grid]
    w = len(grid[0]) if grid else 0
    if any(len(r) != w for r in grid):
        raise ValueError("grid rows differ in length")
    flat = "".join(grid)
    cols = [line_blocks(flat[c::w], index) for c in range(w)]
    return (tuple(r[0] for r in rows), tuple(r[1] for r in rows),
            tuple(c[0] for c in cols), tuple(c[1] for c in cols))


def grid_from_color_masks(masks: Sequence[Sequence[int]], width: int, chars: str) -> Grid:
    """Rows given per colour (``masks[v][r]``: bit c set when cell (r, c) has colour v >= 1) to row strings."""
    out = []
    for r in range(len(masks[0]) if masks else 0):
        cells = [chars[0]] * width
        for v in range(1, len(masks)):
            m = masks[v][r]
            while m:
                low = m & -m
                cells[low.bit_length() - 1] = chars[v]
                m ^= low
        out.append("".join(cells))
    return tuple(out)


_BITS_TO_CELLS = str.maketrans("01", WHITE + BLACK)


def grid_from_masks(masks: Sequence[int], width: int, chars: str = WHITE + BLACK) -> Grid:
    """Rows given as int bitmasks (bit c = column c filled) to row strings over ``chars``
    (background, block colour: a one-colour puzzle's own characters)."""
    if width <= 0:
        return tuple("" for _ in masks)
    full = (1 << width) - 1
    spec = f"0{width}b"
    table = _BITS_TO_CELLS if chars == WHITE + BLACK else str.maketrans("01", chars[:2])
    # binary digits run from the highest bit down: reverse so column 0 comes first
    return tuple(format(m & full, spec)[::-1].translate(table) for m in masks)


def masks_from_grid(grid: Sequence[str], chars: str = WHITE + BLACK) -> list[int]:
    """Row strings to int bitmasks (bit c = column c has the block character ``chars[1]``; any
    other character is a clear bit): the inverse of :func:`grid_from_masks`."""
    black = chars[1]
    table = str.maketrans(chars[:2], "01") if chars[0] != black else str.maketrans(black, "1")
    out = []
    for row in grid:
        digits = row[::-1].translate(table)  # (binary digits run from the highest bit down)
        if digits and not digits.strip("01"):
            out.append(int(digits, 2))
        else:  # other characters (or an empty row): bit by bit
            out.append(sum(1 << c for c, ch in enumerate(row) if ch == black))
    return out


def grid_diff(a: Sequence[str], b: Sequence[str]) -> list[tuple[int, int]]:
    """The ``(row, col)`` cells where two grids of the same size differ, row-major."""
    return [
        (r, c)
        for r, (ra, rb) in enumerate(zip(a, b))
        if ra != rb
        for c, (x, y) in enumerate(zip(ra, rb))
        if x != y
    ]


def meta_from_mapping(m: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple((str(k), str(v)) for k, v in m.items())
