"""``diagnose``'s minimal conflict when a lazily encoded rule (``connected``) is what leaves no
solution, on triddlers and on rectangles, against enumeration.

The rule has no clauses of its own: it cuts off each picture it rejects.  A conflict must still
name it with the lanes it contradicts.  Every picture is enumerated here, and connectedness is
the test's own reading (a triddler's cells are neighbours when their outlines share a side, two
corners; a rectangle's when they share a side): no picture keeps the conflicting lanes' clues
and is connected, and leaving out any one lane, or the rule, some picture keeps the rest.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Sequence

import pytest
from click.testing import CliRunner

from _triddler_oracle import satisfies
from satnono.cli import cli
from satnono.diagnose import diagnose
from satnono.formats import save
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerules import LaneConnected
from satnono.lanes import Triangle
from satnono.model import Puzzle
from satnono.results import Status
from satnono.rules import rule_from_spec

TRIDDLERS = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.parallelogram(2, 2),
             Triangle.parallelogram(2, 3)]  # 6 to 12 cells


def _joined(filled: set[int], near: Callable[[int], Sequence[int]]) -> bool:
    if not filled:
        return True
    seen, todo = set(), [min(filled)]
    while todo:
        cell = todo.pop()
        if cell not in seen:
            seen.add(cell)
            todo += [m for m in near(cell) if m in filled]
    return seen == filled


def _side_neighbours(g: Triangle) -> list[list[int]]:
    """Cells whose outlines share two corners (a side), from the outlines alone."""
    corners = [{(round(x, 6), round(y, 6)) for x, y in g.cell_polygon(c)} for c in range(g.cell_count)]
    return [[m for m in range(g.cell_count) if m != c and len(corners[c] & corners[m]) == 2]
            for c in range(g.cell_count)]


class _Board:
    """A puzzle's lanes as cell lists, their clues, and the test's reading of ``connected``."""

    def __init__(self, lanes: list[tuple[tuple[str, int], list[int], object]], n: int,
                 near: Callable[[int], Sequence[int]]) -> None:
        self.keys = [key for key, _, _ in lanes]
        self.lanes = lanes
        self.n = n
        self.near = near

    def some_picture(self, keys: list[tuple[str, int]], connected: bool) -> bool:
        """Whether some picture keeps the clues of the lanes ``keys`` (and is connected when asked)."""
        chosen = [(cells, clue) for key, cells, clue in self.lanes if key in keys]
        for values in itertools.product((0, 1), repeat=self.n):
            if all(satisfies([values[c] for c in cells], clue) for cells, clue in chosen):  # type: ignore[arg-type]
                if not connected or _joined({c for c in range(self.n) if values[c]}, self.near):
                    return True
        return False


def _triddler_board(p: LanePuzzle) -> _Board:
    near = _side_neighbours(p.geometry)  # type: ignore[arg-type]
    return _Board([((lane.family, lane.index), list(lane.cells), clue) for lane, clue in zip(p.lanes, p.clues)],
                  p.geometry.cell_count, near.__getitem__)


def _rectangle_board(p: Puzzle) -> _Board:
    h, w = p.height, p.width
    lanes: list[tuple[tuple[str, int], list[int], object]] = []
    for r in range(h):
        lanes.append((("row", r), [r * w + c for c in range(w)], p.lane_clues[r]))
    for c in range(w):
        lanes.append((("column", c), [r * w + c for r in range(h)], p.lane_clues[h + c]))

    def near(cell: int) -> list[int]:
        r, c = divmod(cell, w)
        return [rr * w + cc for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1))
                if 0 <= rr < h and 0 <= cc < w]

    return _Board(lanes, h * w, near)


def _check(d, board: _Board) -> None:  # type: ignore[no-untyped-def]
    assert d.status == Status.NONE
    assert d.conflict_rules == ["connected"] and d.conflict_minimal
    keys = list(d.conflict)
    assert keys and len(set(keys)) == len(keys)
    assert not board.some_picture(keys, connected=True)  # the conflict: lanes and rule
    assert board.some_picture(keys, connected=False)  # the rule is needed
    for key in keys:  # every lane is needed
        assert board.some_picture([k for k in keys if k != key], connected=True), key


def _disconnected_triddler(rng: random.Random, g: Triangle) -> LanePuzzle | None:
    """A triddler whose clues have solutions, none of them connected (None: not this picture)."""
    picture = "".join(rng.choice("#.") for _ in range(g.cell_count))
    p = LanePuzzle.from_picture(g, picture, keep_goal=False)
    board = _triddler_board(p)
    if not board.some_picture(board.keys, connected=False) or board.some_picture(board.keys, connected=True):
        return None
    return p.replace(rules=(LaneConnected(),))


@pytest.mark.parametrize("seed", range(6))
def test_a_triddler_s_conflict_names_the_connected_rule(seed: int) -> None:
    rng = random.Random(seed)
    g = TRIDDLERS[seed % len(TRIDDLERS)]
    for _ in range(2000):
        p = _disconnected_triddler(rng, g)
        if p is not None:
            break
    else:
        pytest.fail("no disconnected triddler drawn")
    d = diagnose(p)
    _check(d, _triddler_board(p))
    order = [(lane.family, lane.index) for lane in p.lanes]
    assert d.conflict == sorted(d.conflict, key=order.index)  # in the puzzle's own lane order


@pytest.mark.parametrize("shape", [(2, 2), (3, 3), (3, 4)])
def test_a_rectangle_s_conflict_names_the_connected_rule(shape: tuple[int, int]) -> None:
    h, w = shape
    rng = random.Random(h * 10 + w)
    found = 0
    for _ in range(3000):
        grid = tuple("".join(rng.choice("#.") for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid)
        board = _rectangle_board(p)
        if board.some_picture(board.keys, connected=True):
            continue
        d = diagnose(p.replace(rules=(rule_from_spec("connected"),)))
        _check(d, board)
        found += 1
        if found == 3:
            break
    assert found == 3


def test_the_command_line_names_the_rule_in_a_triddler_s_conflict(tmp_path) -> None:
    rng = random.Random(11)
    while (p := _disconnected_triddler(rng, Triangle.parallelogram(2, 3))) is None:
        pass
    path = str(tmp_path / "apart.json")
    save(p.replace(rules=()), path)
    r = CliRunner().invoke(cli, ["diagnose", "--rule", "connected", path])
    assert r.exit_code == 4, r.output
    assert "conflicting lines (" in r.output and ", minimal): " in r.output
    assert "rules in the conflict: connected" in r.output
