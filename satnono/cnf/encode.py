"""CNF encoding of what line propagation left open, over the lanes of any geometry.

Block-start order encoding ("order-only", see ``shared/guide/encodings.md``):
for block j of a line, y[j,p] means "block j starts at or before p".  Each
block's ladder spans only the start positions the complete line solver still
allows; known cells are constants and are substituted away; lines with no
unknown cell are not encoded at all.

Cell variables are fixed: cell ``cell`` (a number of the puzzle's geometry,
:mod:`satnono.lanes`) has colour v (1..K) is variable ``cell * K + v`` (``cell + 1``
in black and white), so a model reads back without a lookup; on a rectangle
cell (r, c) is ``r * width + c``.  Block variables follow.

The driver below is written once for every geometry and every kind of line: it
iterates the puzzle's lanes (a rectangle's rows, then its columns, then the extra lines its
``line`` rules add; a triddler's three families), and each open lane's clauses come from the builder for its clue
(:mod:`satnono.cnf.ladders`; blotted lines add an end ladder,
:mod:`satnono.cnf.blotted`).  In black and white the builder folds the known
cells in as constants (compiled, for a lane of evenly spaced cells as for any
other); the other builders leave them to unit clauses over the cells of the
lanes they encoded.  The state behind it is a rectangle's
:class:`~satnono.logic.state.GridState` (bit masks by row and column) or any
geometry's :class:`~satnono.logic.lanes.LaneState`; both give a lane's masks as
the line kernels take them.

Clauses per encoded line (constants folded in):

* ladder        y[j,p] -> y[j,p+1]
* holes         s_j != p for p between the lowest and highest valid start
* order         y[j+1,p] -> y[j,p-c_j-1]   (a white cell separates blocks)
* white side    block j covers i -> x_i          (x_i v -y[j,i] v y[j,i-c_j])
* black side    x_i -> the last block started by i covers i
                (-x_i v y[0,i]) and (-x_i v -y[j,i] v y[j+1,i] v -y[j,i-c_j])

The black-side clauses are kept for cells already known black: each block's
valid starts respect such a cell on their own, but a combination of blocks can
still skip it.
"""

from __future__ import annotations

import gc
import time
from contextlib import contextmanager
from itertools import compress
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Sequence

from ..clues import LineClue
from ..lanes import Lane
from ..lines import LineSolver
from ..lines.bits import known_of
from ..logic.lanes import LaneState
from ..logic.state import Deadline, GridState
from ..model import Grid, Puzzle, grid_from_masks
from ..rules.protocol import is_lane
from .ladders import Builder, CellList, CellMap, Clause, bw_line_clauses_flat, ladders, line_clauses, unflatten

if TYPE_CHECKING:
    from ..lanepuzzle import LanePuzzle
    from ..logic.beliefs import Hints

State = GridState | LaneState
"""A rectangle's bit-mask state or any geometry's per-cell state."""

__all__ = ["Encoding", "State", "cell_vars", "encode", "estimate", "line_clauses", "open_lanes", "solution_grid",
           "takes_flat"]


@dataclass(slots=True)
class Encoding:
    """A CNF over cell and block-start variables, of a puzzle of any geometry.

    Cells are numbered as the puzzle's geometry numbers them (:mod:`satnono.lanes`; a rectangle's
    row-major, ``r * width + c``): "cell ``cell`` has block colour v" is :meth:`var` ``(cell, v)``
    = ``cell * K + v``.  A rectangle's encoding also names cells by ``(r, c)``
    (:attr:`unknown_cells`, :attr:`color_var` ``(r, c, v)``, :meth:`cell_value`); another
    geometry's by number everywhere (:attr:`width` 0).

    The clauses are kept in one of two forms: as lists (:attr:`clauses`), or, from
    ``encode(..., flat=True)``, flat (:attr:`flat`: C ints, each clause's literals then 0), which
    the compiled feeder hands to CaDiCaL without a Python object per clause or literal.  Reading
    :attr:`clauses` of a flat encoding makes the lists, which are its clauses from then on."""

    _clauses: list[Clause] | None
    nvars: int
    width: int
    """A rectangle's columns (cell (r, c) is number ``r * width + c``); 0 for another geometry."""
    height: int
    """A rectangle's rows; 0 for another geometry."""
    unknown_vars: list[int]
    """Variables of the cells left unknown by propagation (the ones a solution is read from)."""
    unsat: bool = False
    """True when constant folding produced the empty clause."""
    lines: int = 0
    """Number of lanes encoded."""
    block_vars: int = field(default=0)
    selectors: dict[tuple[str, int], int] = field(default_factory=dict)
    """With ``selectors=True``: the literal that switches each lane's clauses on, keyed by the
    lane's ``(family, index)`` (a rectangle's ``("row", r)``, ``("column", c)``, an extra line's
    ``("line", j)``), and each other rule's, keyed ``("rule", i)`` (i its index in ``all_rules``)."""

    ncolors: int = 1
    """Block colours K: cell ``cell`` has colour v (1..K) is variable ``cell * K + v``."""
    _unknown_cells: list[Any] | None = None
    """:attr:`unknown_cells`, once known (a black-and-white rectangle's are made on first use)."""
    allowed: dict[Any, tuple[int, ...]] = field(default_factory=dict)
    """Colour puzzles: the colour indices (0 = background) each unknown cell may still have,
    keyed as :attr:`unknown_cells`."""
    ladder_lines: list[tuple[str, int, int, tuple[int, ...]]] = field(default_factory=list)
    """The encoded lanes with start ladders only (not blotted): ``(family, index, first ladder
    variable, valid starts per block)``, from which :func:`satnono.cnf.ladders.ladders` gives
    every block's ladder variables (for :meth:`hint_phases`)."""
    flat: bytes | None = None
    """The clauses in the flat form (:func:`satnono.cnf.ladders.flatten`), until :attr:`clauses` is read."""
    flat_count: int = 0
    """How many clauses :attr:`flat` holds."""
    fed: bool = False
    """True when the flat clauses went straight to a ``sink`` as they were made (:func:`encode`):
    the encoding then keeps no copy of them, and reading :attr:`clauses` is an error."""
    open_rows: list[int] = field(default_factory=list)
    """A rectangle's: per row, the mask of its cells left unknown by propagation (the cells of
    :attr:`unknown_cells`)."""
    _open_cells: list[int] | None = None
    """:attr:`open_cells`, once known (a rectangle's are made on first use)."""
    state: State | None = field(default=None, repr=False, compare=False)
    """The state the clauses were made at (not a copy): rules fold and cut over it."""
    _ladders: list[tuple[list[int], list[int], list[int], int]] | None = None
    """:func:`satnono.cnf.ladders.ladders` of each of :attr:`ladder_lines`, made on first use."""
    color_var: Callable[..., int] = field(init=False, repr=False, compare=False)
    """The variable "a cell has block colour v" with the cell named as the puzzle's rules name
    it: ``color_var(r, c, v)`` on a rectangle (``cell_var`` when K = 1), ``color_var(cell, v)``
    (:meth:`var`) on another geometry."""

    def __post_init__(self) -> None:
        k, w = self.ncolors, self.width
        self.color_var = (lambda r, c, v: (r * w + c) * k + v) if w else self.var

    @property
    def unknown_cells(self) -> list[Any]:
        """The cells left unknown by propagation, in cell order: ``(r, c)`` on a rectangle (row by
        row, from :attr:`open_rows`), cell numbers on another geometry (as the state names them)."""
        if self._unknown_cells is None:
            w = self.width
            self._unknown_cells = [divmod(cell, w) for cell in self.open_cells]
        return self._unknown_cells

    @property
    def open_cells(self) -> list[int]:
        """The cells left unknown by propagation, by number, in order (:attr:`unknown_cells`)."""
        if self._open_cells is None:
            self._open_cells = _set_cells(self.open_rows, self.width)
        return self._open_cells

    def line_ladders(self) -> list[tuple[list[int], list[int], list[int], int]]:
        """``(los, his, bases, next_var)`` of each of :attr:`ladder_lines` (:func:`ladders`)."""
        if self._ladders is None:
            self._ladders = [ladders(first, starts) for _axis, _index, first, starts in self.ladder_lines]
        return self._ladders

    @property
    def clauses(self) -> list[Clause]:
        """The clauses as lists (made from the flat form on first use; they are the clauses then)."""
        if self._clauses is None:
            if self.fed:
                raise ValueError("the clauses of this encoding went to the SAT solver as they were made; "
                                 "encode again without a sink to read them")
            self._clauses = unflatten(self.flat or b"")
            self.flat = None
        return self._clauses

    @clauses.setter
    def clauses(self, clauses: list[Clause]) -> None:
        self._clauses = clauses
        self.flat = None

    @property
    def nclauses(self) -> int:
        return self.flat_count if self._clauses is None else len(self._clauses)

    def clause_data(self) -> list[Clause] | bytes:
        """The clauses for :class:`satnono.sat.SatSession`: the flat form when there is one."""
        return self._clauses if self._clauses is not None else (self.flat or b"")

    def var(self, cell: int, v: int) -> int:
        """The variable "cell ``cell`` (by number) has block colour v" (v >= 1), on any geometry."""
        return cell * self.ncolors + v

    def cell_var(self, r: int, c: int) -> int:
        """A black-and-white rectangle's variable of cell (r, c)."""
        return r * self.width + c + 1

    def value(self, model: Sequence[int], cell: int) -> int:
        """Colour index of an unknown cell (by number) in a model (0 background)."""
        k = self.ncolors
        base = cell * k
        for v in range(1, k + 1):
            x = base + v
            if x <= len(model) and model[x - 1] > 0:
                return v
        return 0

    def cell_value(self, model: Sequence[int], r: int, c: int) -> int:
        """Colour index of a rectangle's unknown cell (r, c) in a model (0 background)."""
        return self.value(model, r * self.width + c)

    def model_of(self, solution: Grid | str, chars: str) -> list[int]:
        """A model (signed literals by variable) that gives the unknown cells their values in
        ``solution`` (a rectangle's grid, another geometry's picture, over the palette characters
        ``chars``): for :meth:`blocking_clause` and :meth:`phases` of a solution known beforehand."""
        picture = solution if isinstance(solution, str) else "".join(solution)
        k = self.ncolors
        model = [-(i + 1) for i in range(self.nvars)]
        for cell in self.open_cells:
            v = chars.index(picture[cell])
            if v:
                x = cell * k + v
                model[x - 1] = x
        return model

    def blocking_clause(self, model: Sequence[int]) -> list[int]:
        """The clause that excludes ``model`` on the unknown cells."""
        if self.ncolors == 1:
            n = len(model)
            return [-model[v - 1] if v <= n else v for v in self.unknown_vars]
        k = self.ncolors
        out = []
        for key, cell in zip(self.unknown_cells, self.open_cells):
            v = self.value(model, cell)
            if v:
                out.append(-(cell * k + v))
            else:
                out += [cell * k + u for u in self.allowed[key] if u]
        return out

    def cut(self, rule: Any, solution: Grid | str) -> list[Clause] | None:
        """The clauses a lazily encoded ``rule`` gives to cut off ``solution`` (which it rejects),
        over this encoding's variables and state; None when it has none."""
        from ..rules.protocol import cut

        return cut(rule, solution, self.color_var, self.state)  # type: ignore[arg-type]

    def hint_phases(self, hints: Hints) -> list[int]:
        """Phases from belief propagation (:func:`satnono.logic.beliefs.phase_hints`, over the
        lanes of any geometry): each unknown cell's most likely value, and each encoded lane's
        block ladder y[j,p] true from the block's median start on."""
        k = self.ncolors
        cells = hints.cells
        if k == 1:  # (a cell's variable is its index + 1)
            out = [x if cells[x - 1] else -x for x in self.unknown_vars]
        else:
            out = []
            for cell in self.open_cells:
                best = cells[cell]
                base = cell * k
                out += [base + v if v == best else -(base + v) for v in range(1, k + 1)]
        extend = out.extend
        by_family = hints.by_family
        for (axis, index, _first, _starts), (los, his, bases, _) in zip(self.ladder_lines, self.line_ladders()):
            family = by_family.get(axis)
            medians = None if family is None else family[index]
            if medians is None:
                continue
            for lo, hi, base, m in zip(los, his, bases, medians):
                m = lo if m < lo else hi if m > hi else m
                extend(range(-(base + lo), -(base + m), -1))  # y[j,p] false below the median start
                extend(range(base + m, base + hi))  # and true from it
        return out

    def hunches(self, hints: Hints, share: float) -> list[int]:
        """Assumptions from belief propagation: the open cells whose most likely value is the
        surest (:attr:`Hints.confidence`), ``share`` of them, the surest first (ties in
        cell order), each as the literals that give it that value (a colour cell hinted
        background: none of its colours)."""
        conf, cells, k = hints.confidence, hints.cells, self.ncolors
        if k == 1:  # (a cell's variable is its index + 1)
            # the surest first, ties in cell order (a reversed sort keeps equal keys in order)
            order = sorted(self.unknown_vars, key=[0.0, *conf].__getitem__, reverse=True)
            return [x if cells[x - 1] else -x for x in order[:int(len(order) * share)]]
        out: list[int] = []
        picked = sorted(zip(self.open_cells, self.unknown_cells), key=lambda ck: -conf[ck[0]])
        for cell, key in picked[:int(len(picked) * share)]:
            base, best = cell * k, cells[cell]
            out += [base + best] if best else [-(base + v) for v in self.allowed[key] if v]
        return out

    def phases(self, model: Sequence[int], with_ladders: bool = False) -> list[int]:
        """The model's literals on the unknown cells' variables (to search near it); with
        ``with_ladders``, on the ladder variables of :meth:`hint_phases` too (the forced phases a
        hinted search left there would otherwise pull the next search away from the model)."""
        k = self.ncolors
        n = len(model)
        if k == 1:
            out = [model[v - 1] for v in self.unknown_vars if v <= n]
        else:
            out = []
            for cell in self.open_cells:
                base = cell * k
                out += [model[x - 1] for x in range(base + 1, base + k + 1) if x <= n]
        if with_ladders:
            for (_axis, _index, first, _starts), lad in zip(self.ladder_lines, self.line_ladders()):
                out += model[first - 1:min(lad[3], n + 1) - 1]
        return out


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cyclic garbage collector (if it runs) for the duration.

    Encoding allocates a list per clause, tens of thousands per puzzle; they
    hold only ints, so they can form no cycle, but each few hundred of them
    trigger a collection, which cost a third of the encoding time.
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            gc.enable()


def encode(
    state: State,
    solver: LineSolver,
    rows: Iterable[int] | None = None,
    columns: Iterable[int] | None = None,
    selectors: bool = False,
    flat: bool = False,
    deadline: float | None = None,
    sink: Callable[[bytes], object] | None = None,
    tick: Callable[[int, int], object] | None = None,
    lanes: Iterable[int] | None = None,
) -> Encoding:
    """Encode the lanes of a propagated, consistent ``state`` (of ``state.puzzle``, a rectangle's
    :class:`GridState` or any geometry's :class:`LaneState`) that still have unknown cells, and
    the puzzle's rules.

    ``lanes`` (indices into ``puzzle.lanes``), or on a rectangle ``rows``/``columns``, restrict
    the encoding to those lanes (used for independent components and diagnosis); by default
    every lane with an unknown cell (:func:`open_lanes`).
    With ``selectors`` every clause of a lane carries the negation of a fresh
    selector variable, so a lane is enforced only when its selector is assumed
    true (for unsatisfiable cores over lanes); a lane whose clue cannot fit at
    all then contributes the clause ``[-selector]``.
    ``flat``: keep the clauses in the flat form (:class:`Encoding`) where that is the quicker
    way (black and white without selectors or rules: :func:`takes_flat`); with ``sink`` as well,
    each lane's flat clauses are handed to ``sink`` as soon as they are made (a SAT session's
    ``add_clauses``) and not kept (:attr:`Encoding.fed`), so a large puzzle's CNF is never held
    twice.  ``tick(done, total)`` is called before each lane (for progress displays).

    Raises:
        Deadline: the monotonic clock passed ``deadline`` (checked before each lane).
    """
    puzzle = state.puzzle
    flat = flat and not selectors and takes_flat(puzzle)
    with _collector_paused():
        todo = open_lanes(state, rows, columns, lanes)
        enc = _encode(state, solver, todo, selectors, flat, deadline, sink if flat else None, tick)
        if _cell_rules(puzzle):  # (the givens alone are known cells of the state, the lanes encoded above)
            _encode_rules(enc, state, puzzle.all_rules, selectors)
        return enc


def _cell_rules(puzzle: Puzzle | LanePuzzle) -> bool:
    """Whether the puzzle has rules besides the lanes (a rectangle's ``line`` rules are lanes)."""
    return any(not is_lane(rule) for rule in puzzle.rules)


def takes_flat(puzzle: Puzzle | LanePuzzle) -> bool:
    """Whether :func:`encode` makes ``puzzle``'s clauses in the flat form when asked (black and
    white without blotted clues or rules other than extra lanes, any geometry; selectors never)."""
    return len(puzzle.palette) == 2 and not puzzle.has_blots and not _cell_rules(puzzle)


def open_lanes(state: State, rows: Iterable[int] | None = None, columns: Iterable[int] | None = None,
               lanes: Iterable[int] | None = None) -> list[tuple[Lane, LineClue]]:
    """The lanes to encode with their clues: those of ``lanes`` (indices into the puzzle's
    lanes), or of a rectangle's ``rows`` and ``columns``, as given; by default every lane with
    an unknown cell, in the puzzle's lane order."""
    puzzle = state.puzzle
    all_lanes, clues = puzzle.lanes, puzzle.lane_clues
    if lanes is not None:
        return [(all_lanes[i], clues[i]) for i in lanes]
    if isinstance(state, GridState):  # rows then columns: their known masks, no lane masks
        h, w = state.height, state.width
        given = rows is not None or columns is not None
        full_w, full_h = (1 << w) - 1, (1 << h) - 1
        if rows is None:
            rows = [r for r in range(h) if state.known_row(r) != full_w]
        if columns is None:
            columns = [c for c in range(w) if state.known_column(c) != full_h]
        picked = [*rows, *(h + c for c in columns)]
        others = range(h + w, h + w if given else len(all_lanes))  # (any lane past the rows and columns)
    else:
        if rows is not None or columns is not None:
            raise ValueError("rows and columns name a rectangle's lanes; give lanes")
        picked, others = [], range(len(all_lanes))
    for i in others:
        lane = all_lanes[i]
        full = (1 << len(lane.cells)) - 1
        if known_of(state.lane_masks(lane), full) != full:
            picked.append(i)
    return [(all_lanes[i], clues[i]) for i in picked]


def _cells_of(state: State) -> tuple[int, int, Callable[[int], list[int]]]:
    """``(cell count, K, possible)``: ``possible(cell)`` the values a cell (by number) may still have."""
    if isinstance(state, GridState):
        w = state.width
        return state.height * w, state.nvals - 1, lambda cell: state.possible(*divmod(cell, w))
    return len(state.excluded), state.values - 1, state.possible


def estimate(state: State, solver: LineSolver, deadline: float | None = None) -> tuple[int, int]:
    """About how many variables and clauses :func:`encode` would make for ``state`` (every open
    lane), without making them: the block ladders' variables exactly (one per valid start of each
    block past its first, twice for a blotted line's end ladders), the clauses from the families
    of :mod:`satnono.cnf.ladders` (ladder, holes, order, cover and support, each about one per
    ladder step and colour of the line).  For memory limits, checked before anything is encoded:
    a random 400x400 picture has about 8 million variables and 32 million clauses.

    Raises:
        Deadline: the monotonic clock passed ``deadline`` (checked before each lane).
    """
    ncells, k, _ = _cells_of(state)
    nvars, nclauses = ncells * k, 0
    for lane, clue in open_lanes(state):
        if deadline is not None and time.monotonic() >= deadline:
            raise Deadline("estimating the encoding ran past its deadline")
        n = len(lane.cells)
        res = solver.solve(clue, n, state.lane_masks(lane))
        if res is None:
            continue
        steps = sum(v.bit_length() - (v & -v).bit_length() for v in res.starts)
        if clue.blots:
            steps *= 2
        colours = len(set(clue.colors)) if k > 1 else 1
        nvars += steps
        nclauses += (3 + colours) * steps + n * k + sum(clue.lengths)
    return nvars, nclauses


def _encode_rules(enc: Encoding, state: State, rules: Sequence[Any], selectors: bool) -> None:
    """Append the clauses of ``rules``, each rule behind a selector keyed ``("rule", i)`` (i its
    index in ``rules``, the puzzle's ``all_rules``) with ``selectors``; a rule that is a lane (a
    ``line`` rule) is left out: its lane is encoded with the others (:func:`open_lanes`).

    A rule may speak of any cell, so the cells the state knows are pinned by unit clauses
    (the line clauses fold known cells away in black and white, and pin them only on open
    lanes in colour); a rule given ``state`` may fold them itself, which saves clauses.  A
    rectangle's rules are handed :meth:`Encoding.color_var` ``(r, c, v)``, another geometry's
    ``(cell, v)`` (the same method, two arguments).
    """
    k = enc.ncolors
    ncells, _, possible = _cells_of(state)
    values = k + 1
    pins = []
    for cell in range(ncells):
        left = possible(cell)
        if len(left) == values:
            continue
        pins += [[-(cell * k + v)] for v in range(1, k + 1) if v not in left]
        if 0 not in left:
            pins.append([cell * k + v for v in left])
    enc.clauses += pins
    nv = enc.nvars + 1

    def new_var() -> int:
        nonlocal nv
        nv += 1
        return nv - 1

    for i, rule in enumerate(rules):
        if is_lane(rule):  # (encoded with the lanes)
            continue
        guard = new_var() if selectors else None
        clauses = rule.clauses(enc.color_var, new_var, state)
        if guard is None:
            if not all(clauses):
                enc.unsat = True
        else:
            enc.selectors[("rule", i)] = guard
            clauses = [[-guard, *cl] for cl in clauses]
        enc.clauses.extend(clauses)
    enc.nvars = nv - 1


def _encode(
    state: State,
    solver: LineSolver,
    todo: list[tuple[Lane, LineClue]],
    selectors: bool,
    flat: bool = False,
    deadline: float | None = None,
    sink: Callable[[bytes], object] | None = None,
    tick: Callable[[int, int], object] | None = None,
) -> Encoding:
    """The clauses of the lanes of ``todo`` at ``state`` (the one driver, every geometry)."""
    ncells, k, possible = _cells_of(state)
    b = Builder(ncells * k + 1, selectors, flat, sink)
    flat = b.chunks is not None
    folded_kind = k == 1  # one variable a cell: the black-and-white builder folds known cells
    pinned: set[int] = set()  # cells of lanes whose builder does not fold them
    ladder_lines: list[tuple[str, int, int, tuple[int, ...]]] = []
    total = len(todo)
    for done, (lane, clue) in enumerate(todo):
        if deadline is not None and time.monotonic() >= deadline:
            raise Deadline(f"encoding ran past its deadline at {lane.name}")
        if tick is not None:
            tick(done, total)
        b.start_line(lane.family, lane.index)
        cells = lane.cells
        n = len(cells)
        ex = state.lane_masks(lane)
        res = solver.solve(clue, n, ex)
        if res is None:
            if not selectors:
                raise ValueError(f"{lane.family} {lane.index} is inconsistent; propagate first")
            b.extend([[]])
            continue
        folded = folded_kind and not clue.blots
        if not clue.blots:
            ladder_lines.append((lane.family, lane.index, b.next_var, res.starts))
        if folded:  # cell i is variable cells[i] + 1 (cell_map, inline: it runs once a lane)
            cell = CellMap(cells.start + 1, cells.step) if type(cells) is range else CellList(1, tuple(cells))
            if flat:
                data, count, b.next_var, empty = bw_line_clauses_flat(b.next_var, clue.lengths, n, res.starts,
                                                                      ex[0], ex[1], cell)
                b.extend_flat(data, count, empty)
                continue
            cls, b.next_var = line_clauses(b.next_var, clue, n, res, ex, None, cell)
        else:
            cls, b.next_var = line_clauses(b.next_var, clue, n, res, ex, lambda j, v, cells=cells: cells[j] * k + v)
            pinned.update(cells)
        b.extend(cls)
    b.guard = None
    # what propagation knows of the pinned cells, as unit clauses (and "not background" as a
    # clause over the colours left)
    pins: list[Clause] = []
    for c in sorted(pinned):
        left = possible(c)
        base = c * k
        for v in range(1, k + 1):
            if v not in left:
                pins.append([-(base + v)])
        if 0 not in left:
            pins.append([base + v for v in left])  # (empty when nothing is left: unsat)
    if pins:
        b.extend(pins)
    keys: list[Any] | None
    open_cells: list[int] | None
    allowed: dict[Any, tuple[int, ...]]
    if isinstance(state, GridState):  # the open cells (r, c) are made on first use (Encoding.unknown_cells)
        w, h = state.width, state.height
        open_rows = state.open_rows()
        if k == 1:  # (a cell's variable is its number + 1; the cells by number on first use too)
            keys = open_cells = None
            unknown_vars = _set_cells(open_rows, w, 1)
            allowed = {}
        else:
            open_cells = _set_cells(open_rows, w)
            keys = [divmod(c, w) for c in open_cells]
            unknown_vars = [c * k + v for c in open_cells for v in range(1, k + 1)]
            allowed = {(r, c): tuple(state.possible(r, c)) for r, c in keys}
    else:
        w = h = 0
        keys = open_cells = state.open_cells()
        open_rows = []
        unknown_vars = [c * k + v for c in open_cells for v in range(1, k + 1)]
        allowed = {c: tuple(state.possible(c)) for c in open_cells} if k > 1 else {}
    return Encoding(
        open_rows=open_rows,
        _clauses=None if flat else b.clauses,
        flat=b"".join(b.chunks) if b.chunks is not None and sink is None else None,
        flat_count=b.count,
        fed=sink is not None,
        nvars=b.next_var - 1,
        width=w,
        height=h,
        unknown_vars=unknown_vars,
        unsat=b.unsat,
        lines=len(todo),
        block_vars=b.next_var - 1 - ncells * k - len(b.selectors or ()),
        selectors=b.selectors or {},
        ncolors=k,
        _unknown_cells=keys,
        allowed=allowed,
        ladder_lines=ladder_lines,
        _open_cells=open_cells,
        state=state,
    )


def _set_cells(rows: list[int], width: int, first: int = 0) -> list[int]:
    """``first`` plus the number (row-major) of every cell set in the masks ``rows`` of ``width``
    cells each, in order: the bits read as text, not one by one (a 25x25 puzzle's few hundred open
    cells cost a twentieth of the bit loop)."""
    bits = "".join([format(row, f"0{width}b")[::-1] for row in rows]).encode().translate(_BITS)
    return list(compress(range(first, first + len(bits)), bits))


_BITS = bytes.maketrans(b"01", b"\0\1")


def solution_grid(state: State, enc: Encoding, model: Sequence[int]) -> Grid:
    """The solution of a model: the state's known cells plus the model's values of the unknown
    ones; a rectangle's grid, another geometry's picture (a string, one palette character a
    cell, which a rule reads as a grid reads its rows)."""
    if not isinstance(state, GridState):
        chars = state.puzzle.chars
        cells = list(state.picture(chars))
        for cell in enc.open_cells:
            cells[cell] = chars[enc.value(model, cell)]
        return "".join(cells)  # type: ignore[return-value]
    if enc.ncolors > 1:
        full = state.copy()
        for r, c in enc.unknown_cells:
            full.set_cell(r, c, enc.cell_value(model, r, c))
        return full.grid()
    w = state.width
    hw = state.height * w
    # the model's value of every cell variable (cell (r, c) is variable r * w + c + 1) as the
    # digits '0'/'1' (beyond the model: false), read row by row onto the unknown cells
    digits = bytes(map(_POSITIVE, model[:hw])).ljust(hw, b"\0").translate(_DIGITS)
    rows = [b | (int(digits[r * w:(r + 1) * w][::-1], 2) & o) if o else b
            for r, (b, o) in enumerate(zip(state.row_black, enc.open_rows))]
    return grid_from_masks(rows, w, state.puzzle.chars)


_POSITIVE = (0).__lt__  # a literal's truth
_DIGITS = bytes.maketrans(b"\0\1", b"01")


def cell_vars(enc: Encoding, cells: Iterable[tuple[int, int]] | Iterable[int]) -> list[int]:
    """Every variable that fixes the value of the given cells (one per cell in black and white, K
    in colour): a rectangle's ``(r, c)``, another geometry's cell numbers."""
    k = enc.ncolors
    if enc.width:
        return [enc.color_var(r, c, v) for r, c in cells for v in range(1, k + 1)]  # type: ignore[misc]
    return [cell * k + v for cell in cells for v in range(1, k + 1)]  # type: ignore[operator]
