"""``diagnose`` on puzzles of another geometry (triddlers), against brute force.

Every figure the diagnosis gives is checked by enumerating pictures in the test: the verdict and
the ambiguity region (all solutions, :func:`tests._triddler_oracle.brute_force`), each open lane's
number of placements (every filling of its open cells that the picture after line logic allows),
and the conflicting lanes of a puzzle with no solution (no picture keeps all of their clues, and
leaving out any one of them, some picture keeps the rest).
"""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from satnono.cli import cli
from satnono.clues import LineClue
from satnono.diagnose import diagnose, lane_heat
from satnono.formats import load, save
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.render import render_heatmap
from satnono.results import Status

from _triddler_oracle import brute_force, random_puzzle, satisfies

SHAPES = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.triangle(4), Triangle.parallelogram(2, 3),
          Triangle.from_sides(2, 1, 2, 2, 1, 2)]


def _broken(rng: random.Random, p: LanePuzzle) -> LanePuzzle:
    """``p`` with one lane's clue changed (often leaving no solution)."""
    clues = list(p.clues)
    k = rng.randrange(len(clues))
    n = len(p.lanes[k].cells)
    lengths = tuple(sorted({rng.randint(1, max(1, n // 2)) for _ in range(rng.randint(1, 2))}))
    clues[k] = LineClue(lengths, (1,) * len(lengths))
    return p.replace(clues=tuple(clues))


def _values(p: LanePuzzle, picture: str) -> list[int]:
    return [p.chars.index(ch) for ch in picture]


def _placements(p: LanePuzzle, lane_index: int, after: str) -> int:
    """Fillings of the lane's open cells (``?`` in ``after``) that keep its clue."""
    lane, clue = p.lanes[lane_index], p.clues[lane_index]
    known = [None if after[c] == "?" else p.chars.index(after[c]) for c in lane.cells]
    holes = [i for i, v in enumerate(known) if v is None]
    found = 0
    for fill in itertools.product(range(len(p.palette)), repeat=len(holes)):
        values = list(known)
        for i, v in zip(holes, fill):
            values[i] = v
        found += satisfies(values, clue)  # type: ignore[arg-type]
    return found


def _satisfiable(p: LanePuzzle, lanes: list[int]) -> bool:
    """Whether some picture keeps the clues of ``lanes`` (indices into ``p.lanes``)."""
    n, k = p.geometry.cell_count, len(p.palette)
    for values in itertools.product(range(k), repeat=n):
        if all(satisfies([values[c] for c in p.lanes[i].cells], p.clues[i]) for i in lanes):
            return True
    return False


def _check(p: LanePuzzle) -> None:
    d = diagnose(p)
    truth = brute_force(p)
    expected = Status.NONE if not truth else Status.UNIQUE if len(truth) == 1 else Status.MULTIPLE
    assert d.status == expected, d.reason
    n = p.geometry.cell_count
    if expected is Status.NONE:
        keys = [(lane.family, lane.index) for lane in p.lanes]
        conflict = [keys.index(key) for key in d.conflict]
        assert conflict and d.conflict_minimal
        assert not _satisfiable(p, conflict)
        for i in conflict:
            assert _satisfiable(p, [j for j in conflict if j != i])
        return
    assert len(d.after_line) == n and set(d.after_line) <= set(p.chars) | {"?"}
    assert d.undetermined == [c for c in range(n) if d.after_line[c] == "?"]
    assert all(d.after_line[c] in ("?", s[c]) for s in truth for c in range(n))  # line logic is sound
    if expected is Status.MULTIPLE:
        assert d.ambiguity_complete
        assert set(d.ambiguous) == {c for c in range(n) if len({s[c] for s in truth}) > 1}
    else:
        assert d.solutions == truth
    open_lanes = {(o.axis, o.index): o.placements for o in d.open_lines}
    for k, lane in enumerate(p.lanes):
        if any(d.after_line[c] == "?" for c in lane.cells):
            count = _placements(p, k, d.after_line)
            assert open_lanes.get((lane.family, lane.index), 1) == count or count <= 1 and \
                (lane.family, lane.index) not in open_lanes
    levels = lane_heat(d)
    assert len(levels) == n and all(levels[c] == 3 for c in d.ambiguous)


@pytest.mark.parametrize("seed", range(40))
def test_black_and_white_triddlers_against_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    p = random_puzzle(rng, SHAPES[seed % len(SHAPES)])
    _check(p)


@pytest.mark.parametrize("seed", range(40))
def test_contradictory_triddlers_give_a_minimal_conflict(seed: int) -> None:
    rng = random.Random(1000 + seed)
    shape = SHAPES[seed % 3]  # up to 9 cells: every picture is enumerated for each subset
    _check(_broken(rng, random_puzzle(rng, shape)))


@pytest.mark.parametrize("seed", range(12))
def test_two_colour_triddlers_against_brute_force(seed: int) -> None:
    rng = random.Random(2000 + seed)
    _check(random_puzzle(rng, SHAPES[seed % 2], colours=2))


def test_a_clue_too_long_for_its_lane_is_named() -> None:
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    clues = list(p.clues)
    clues[0] = LineClue((2, 2), (1, 1))
    d = diagnose(p.replace(clues=tuple(clues)))
    assert d.status == Status.NONE
    assert d.reason == "row 1: clue 2 2 needs 5 cells but the lane has 3"
    assert d.conflict == [("row", 0)] and d.conflict_minimal


def test_a_blotted_lane_in_a_conflict_keeps_its_hidden_numbers_hidden_in_json() -> None:
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    clues = list(p.clues)
    clues[0] = LineClue((1, 1), (1, 1), blots=0b01)  # "? 1" needs 3 cells: the lane has 3
    clues[1] = LineClue((1, 1, 1), (1, 1, 1), blots=0b101)  # "? 1 ?" needs 5
    d = diagnose(p.replace(clues=tuple(clues)))
    assert d.status == Status.NONE and d.conflict == [("row", 1)] and d.conflict_minimal
    assert d.as_dict()["conflict"] == [{"axis": "row", "index": 1, "clue": ["?", 1, "?"]}]


def _ambiguous_file(tmp_path) -> str:
    rng = random.Random(7)
    while True:
        p = random_puzzle(rng, Triangle.hexagon(2))
        if len(brute_force(p, 3)) > 1:
            break
    path = str(tmp_path / "amb.xml")
    save(p.replace(name="ambiguous"), path)
    return path


def test_the_command_line_diagnoses_a_triddler(tmp_path) -> None:
    path = _ambiguous_file(tmp_path)
    runner = CliRunner()
    r = runner.invoke(cli, ["diagnose", path])
    assert r.exit_code == 3, r.output
    first = r.output.splitlines()[0]
    assert first.startswith(f"{path}: several solutions  [triddler of 24 cells, ")
    assert "ambiguity region: " in r.output and "legend: " in r.output and "ambiguous" in r.output
    r = runner.invoke(cli, ["diagnose", "--json", "--ascii", path])
    d = json.loads(r.output)
    assert r.exit_code == 3 and d["status"] == "multiple" and d["cells"] == 24
    assert d["geometry"]["kind"] == "triangle" and all(isinstance(c, int) for c in d["ambiguous"])
    assert len(d["after_line"]) == 24 and len(d["solutions"]) == 2
    svg, png = tmp_path / "h.svg", tmp_path / "h.png"
    r = runner.invoke(cli, ["diagnose", "--svg", str(svg), "--png", str(png), "--ascii", path])
    assert r.exit_code == 3 and svg.read_text().count("<polygon") == 24
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "!" in r.output  # the ambiguous cells in --ascii


def test_the_command_line_diagnoses_the_bundled_triddler() -> None:
    r = CliRunner().invoke(cli, ["diagnose", "puzzles/satnono/snowflake-triddler.xml"])
    assert r.exit_code == 0, r.output
    assert "unique (line-solvable)  [triddler of 96 cells, 0 cells undetermined" in r.output


def test_a_triddler_out_of_time_is_drawn_open() -> None:
    """Out of time before line logic has a state: every cell is drawn undetermined (the map
    failed on an empty ``after_line`` before), and the command exits 5."""
    path = "puzzles/satnono/snowflake-triddler.xml"
    p = load(path)
    d = diagnose(p, timeout=0)
    assert d.status == Status.UNKNOWN and d.reason == "timed out during line propagation"
    assert d.after_line == "?" * p.geometry.cell_count and set(lane_heat(d)) == {2}
    r = CliRunner().invoke(cli, ["diagnose", "--timeout", "1e-9", path])
    assert r.exit_code == 5, r.output
    rows = r.output.splitlines()[2:-1]
    assert "".join(rows).replace(" ", "") == "?" * p.geometry.cell_count
    assert r.output.splitlines()[-1] == "legend: ? undetermined by line logic"


@pytest.mark.parametrize("seed", range(4))
def test_a_colour_triddler_s_map_shows_each_settled_cell_s_colour(seed: int) -> None:
    """The text map of a colour triddler draws a cell line logic fills by its colour's
    character and names the colours in the legend (it drew every colour as black)."""
    rng = random.Random(3000 + seed)
    p = random_puzzle(rng, Triangle.hexagon(2), colours=2)
    d = diagnose(p)
    lines = render_heatmap(d, ascii=seed % 2 == 1).splitlines()
    glyphs = "".join(lines[:-1]).replace(" ", "")
    assert len(glyphs) == p.geometry.cell_count
    filled = [c for c, ch in enumerate(d.after_line) if ch not in ("?", p.chars[0])]
    assert filled and all(glyphs[c] == d.after_line[c] for c in filled)
    others = set(glyphs[c] for c in range(len(glyphs)) if c not in filled)
    assert not others & set(p.chars[1:])
    legend = lines[-1]
    assert legend.startswith("legend: " + ", ".join(f"{col.char} {col.name}" for col in p.palette[1:]) + ", ")
    assert "▲▼" not in legend and "#" not in legend


def _family_totals(p: LanePuzzle) -> dict[str, int]:
    """Filled cells each family's clues ask for (the test's own sums over the clues)."""
    out: dict[str, int] = {}
    for lane, clue in zip(p.lanes, p.clues):
        out[lane.family] = out.get(lane.family, 0) + sum(clue.lengths)
    return out


def _one_block_more(rng: random.Random, g: Triangle) -> LanePuzzle:
    """A picture's triddler with one more block of 1 in a row that has room for it."""
    p = LanePuzzle.from_picture(g, "".join(rng.choice("#....") for _ in range(g.cell_count)), keep_goal=False)
    clues = list(p.clues)
    k = next(k for k, lane in enumerate(p.lanes)
             if lane.family == "row" and clues[k].min_length() + 2 <= len(lane.cells))
    clues[k] = clues[k]._replace(lengths=clues[k].lengths + (1,), colors=clues[k].colors + (1,))
    return p.replace(clues=tuple(clues))


@pytest.mark.parametrize("seed", range(4))
def test_totals_that_disagree_are_the_reason(seed: int, monkeypatch) -> None:
    """One more block in a row than the picture has: the rows ask for one cell more than the /
    lines and the \\ lines, which is the reason given (as a rectangle's row and column totals
    are); the conflict is the SAT search's when it finishes, else (time out: made so here) the
    lanes of the two families, not proved minimal."""
    rng = random.Random(6000 + seed)
    shapes = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.parallelogram(2, 3), Triangle.hexagon(3)]
    p = _one_block_more(rng, shapes[seed])
    totals = _family_totals(p)
    assert totals["row"] == totals["/"] + 1 == totals["\\"] + 1
    reason = f"row clues total {totals['row']} black cells but / line clues total {totals['/']}"
    d = diagnose(p)
    assert d.status == Status.NONE and d.reason == reason
    assert d.after_line == "?" * p.geometry.cell_count and d.conflict and d.conflict_minimal
    if p.geometry.cell_count <= 12:
        keys = [(lane.family, lane.index) for lane in p.lanes]
        conflict = [keys.index(key) for key in d.conflict]
        assert not _satisfiable(p, conflict)
        assert all(_satisfiable(p, [j for j in conflict if j != i]) for i in conflict)
    monkeypatch.setattr("satnono.diagnose.minimal_conflict", lambda *args, **kwargs: None)
    d = diagnose(p)
    assert d.reason == reason and not d.conflict_minimal
    assert d.conflict == [(lane.family, lane.index) for lane in p.lanes if lane.family in ("row", "/")]
