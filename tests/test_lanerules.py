"""Rules and givens on puzzles of any geometry (:mod:`satnono.lanerules`): verdicts, counts and
line-solvable flags on small triddlers against an enumeration (the brute force of
``_triddler_oracle`` without rules, its pictures filtered by checks written here: the count of a
colour's cells, connectivity by a breadth-first search over the geometry's neighbours, the
givens); the refusals of rules without meaning on a triangle; JSON; the command line."""

from __future__ import annotations

import json
import random
import re

import pytest
import _triddler_oracle as oracle
from _triddler_oracle import brute_force
from click.testing import CliRunner

from satnono.clues import LineClue
from satnono.errors import ParseError
from satnono.formats import EXTRA_RULES, dumps, load_each, loads
from satnono.lanecheck import count_lanes, settle_lanes
from satnono.lanepuzzle import LanePuzzle, clue_text
from satnono.lanerules import LaneConnected, LaneCount, LaneGivens, lane_rule_from
from satnono.lanes import Rectangle, Triangle
from satnono.palette import BW_PALETTE, Color
from satnono.results import Status
from satnono.rules import RuleError, rule_from_json, rule_from_spec

TWO = (Color("white", ".", (255, 255, 255)), Color("red", "r", (255, 0, 0)), Color("blue", "b", (0, 0, 255)))

BW_SHAPES = [Triangle.from_sides(2, 1, 2, 2, 1, 2), Triangle.triangle(4), Triangle.hexagon(1), Triangle.triangle(3),
             Triangle.parallelogram(2, 3)]
COLOUR_SHAPES = [Triangle.triangle(3), Triangle.hexagon(1), Triangle.parallelogram(2, 3)]


# --- the independent checks ----------------------------------------------------------------------

def _truth(p: LanePuzzle, specs, givens) -> list[str]:
    return oracle.truth(p, specs, givens)


def _line_logic_picture(p: LanePuzzle, specs, givens) -> str | None:
    """The picture the oracle's lane logic and the rules' narrowing settle with the givens, '' on
    a contradiction, None when they leave a cell open (a rectangle's line-solvable: its rules
    narrow after each line fixpoint too)."""
    domains = oracle.line_and_rule_logic(p, specs, givens)
    if domains is None:
        return ""
    if any(d & (d - 1) for d in domains):
        return None
    return "".join(p.chars[d.bit_length() - 1] for d in domains)


# --- the puzzles -----------------------------------------------------------------------------

def _draw(rng: random.Random, geometry, chars: str) -> str:
    """A random picture, or a region grown from one cell (so that ``connected`` often holds)."""
    n = geometry.cell_count
    if rng.random() < 0.5:
        return "".join(rng.choice(chars) for _ in range(n))
    cells = {rng.randrange(n)}
    for _ in range(rng.randint(1, n)):
        cells.add(rng.choice(geometry.neighbours(rng.choice(sorted(cells)))))
    return "".join(rng.choice(chars[1:]) if c in cells else chars[0] for c in range(n))


def _blot(p: LanePuzzle, rng: random.Random, share: float) -> LanePuzzle:
    """Some block lengths hidden (many solutions, whose cell counts differ)."""
    clues = []
    for c in p.clues:
        blots = sum(1 << j for j in range(len(c.lengths)) if rng.random() < share)
        clues.append(LineClue(tuple(1 if (blots >> j) & 1 else n for j, n in enumerate(c.lengths)), c.colors, blots))
    return p.replace(clues=tuple(clues))


def _cases(shapes, palette, seeds: int):
    """``(puzzle, specs, givens)``: each puzzle with no rule, each rule alone, givens, and mixes;
    the counts' bounds taken from the puzzle's solutions so that they split them."""
    chars = "".join(c.char for c in palette)
    colours = chars[1:] if len(chars) > 2 else [None]
    for g in shapes:
        for seed in range(seeds):
            rng = random.Random(f"lanerules-{g.as_json()}-{seed}-{len(chars)}")
            p = _blot(LanePuzzle.from_picture(g, _draw(rng, g, chars), palette, keep_goal=False), rng,
                      (0.0, 0.6, 0.9)[seed % 3])
            sols = brute_force(p) or [_draw(rng, g, chars)]
            some = rng.choice(sols)
            colour = rng.choice(colours)
            k = sum(oracle.rule_mask(p, colour) >> chars.index(ch) & 1 for ch in some)
            c = "" if colour is None else f":{colour}"
            op = rng.choice(("=", ">=", "<="))
            cells = rng.sample(range(g.cell_count), rng.randint(1, 3))
            givens = [(cell, chars.index(some[cell])) for cell in cells]
            wrong = [(cells[0], rng.randrange(len(chars)))]
            yield p, (), ()
            yield p, ("connected",), ()
            yield p, (f"connected{c}",), ()
            yield p, (f"count:{op}{k}{c}",), ()
            yield p, (f"count:={k + 1}",), ()
            yield p, (), givens
            yield p, (), wrong
            yield p, ("connected", f"count:>={k}{c}"), ()
            yield p, (f"connected{c}",), givens[:1]
            yield p, (f"count:<={k}{c}",), wrong


def _id(case) -> str:
    p, specs, givens = case
    return (f"{p.geometry.cell_count}:" + "|".join(clue_text(c, p.chars) for c in p.clues)
            + f"/{','.join(specs)}/{givens}")


def _check(p: LanePuzzle, specs, givens) -> None:
    rules = tuple(lane_rule_from(rule_from_spec(s), p.geometry) if i % 2 else rule_from_spec(s)
                  for i, s in enumerate(specs))  # both kinds taken
    q = p.replace(rules=rules, givens=tuple(givens))
    truth = _truth(p, specs, givens)
    res = settle_lanes(q)
    expected = Status.NONE if not truth else Status.UNIQUE if len(truth) == 1 else Status.MULTIPLE
    assert res.status == expected, res.reason
    assert set(res.solutions) <= set(truth) and len(res.solutions) == min(len(truth), 2)
    assert all(q.breaks(s) is None for s in res.solutions)
    settled = _line_logic_picture(p, specs, givens)
    assert res.line_solvable == (bool(settled) and settled in truth)
    if settled and settled not in truth:  # line logic's only picture breaks a rule: no solution
        assert res.status is Status.NONE and res.reason.startswith("rule ")
    counted = count_lanes(q)
    assert counted.exact and counted.count == len(truth)
    if len(truth) > 2:
        capped = count_lanes(q, max_solutions=2)
        assert capped.count == 2 and not capped.exact


BW_CASES = list(_cases(BW_SHAPES, BW_PALETTE, 6))
COLOUR_CASES = list(_cases(COLOUR_SHAPES, TWO, 3))


@pytest.mark.parametrize("case", BW_CASES, ids=_id)
def test_black_and_white_triddlers_with_rules_against_an_enumeration(case):
    _check(*case)


@pytest.mark.parametrize("case", COLOUR_CASES, ids=_id)
def test_two_colour_triddlers_with_rules_against_an_enumeration(case):
    _check(*case)


def test_the_cases_are_not_trivial():
    """The rules split the solutions of some puzzles: not every answer is all or nothing."""
    split = {spec.split(":")[0] for p, specs, givens in BW_CASES + COLOUR_CASES for spec in specs
             if 0 < len(_truth(p, (spec,), ())) < len(brute_force(p))}
    assert split == {"count", "connected"}
    assert any(len(_truth(p, specs, givens)) > 2 for p, specs, givens in BW_CASES if specs)


# --- the rules, one by one -----------------------------------------------------------------------

def test_a_rule_that_rejects_the_only_line_logic_picture_leaves_no_solution():
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    assert settle_lanes(p).line_solvable
    res = settle_lanes(p.replace(rules=(lane_rule_from("connected"),)))
    assert res.status is Status.NONE and not res.line_solvable
    assert res.reason == "rule connected: the filled cells at row 1, cell 1 and at row 2, cell 3 can no longer be joined"
    assert count_lanes(p.replace(rules=(lane_rule_from("connected"),))).count == 0
    kept = settle_lanes(p.replace(rules=(lane_rule_from("count:=3"),)))
    assert kept.status is Status.UNIQUE and kept.line_solvable


def test_givens_narrow_before_line_logic():
    sols = ['...#.####.......', '..##.###........', '####.###........']
    p = _three()
    assert sorted(brute_force(p)) == sorted(sols)
    res = settle_lanes(p.replace(givens=((0, 1),)))  # cell 0 filled: only the third
    assert res.status is Status.UNIQUE and res.solutions == (sols[2],) and res.line_solvable
    res = settle_lanes(p.replace(givens=((0, 1), (1, 0))))
    assert res.status is Status.NONE and "with the given cells" in res.reason


def test_givens_are_checked_and_sorted():
    p = LanePuzzle.from_picture(Triangle.triangle(2), "#.##", keep_goal=False)
    q = p.replace(givens=((3, 1), (0, 1), (3, 1)))
    assert q.givens == ((0, 1), (3, 1)) and q.all_rules == (LaneGivens(((0, 1), (3, 1))),)
    assert q.breaks("#.##") is None and q.breaks("#.#.")
    for givens, message in [(((4, 1),), "given cell 4 is outside the puzzle's 4 cells (0..3)"),
                            (((0, 2),), "given cell 0 has value 2, not 0..1"),
                            (((0, 1), (0, 0)), "given cell 0 is given twice with different values"),
                            (((0, 1, 1),), "a given cell is (cell, value), two whole numbers, got (0, 1, 1)")]:
        with pytest.raises(ValueError) as info:
            p.replace(givens=givens)
        assert str(info.value) == message


def test_breaks_names_a_given_and_a_rule():
    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    assert p.replace(givens=((1, 1),)).breaks("#..#.#") == "cell 1: given '#', picture '.'"
    assert p.replace(rules=(lane_rule_from("count:<=2"),)).breaks("#..#.#") == "rule count:<=2: the picture breaks it"


def test_the_rules_from_specs_json_and_bound_rectangle_rules():
    assert lane_rule_from("count:>=10:r") == LaneCount(">=", 10, "r")
    assert lane_rule_from({"rule": "count", "op": ">=", "n": 10, "color": "r"}) == LaneCount(">=", 10, "r")
    assert lane_rule_from(rule_from_json({"rule": "connected", "color": "r"})) == LaneConnected("r")
    from satnono.model import Puzzle

    grid = Puzzle.from_grid(["#.", ".#"], rules=(rule_from_spec("count:=2"), rule_from_spec("connected")))
    assert [lane_rule_from(r) for r in grid.rules] == [LaneCount("=", 2), LaneConnected()]
    lane = LaneCount("=", 2)
    assert lane_rule_from(lane) is lane
    assert LaneCount("=", 2).as_json() == rule_from_spec("count:=2").as_json() == {"rule": "count", "op": "=", "n": 2}
    assert LaneConnected("r").text() == "connected:r" and LaneCount(">=", 3, "r").text() == "count:>=3:r"


def test_colour_rules_resolve_their_colour():
    p = LanePuzzle.from_picture(Triangle.triangle(2), "r.bb", TWO, keep_goal=False)
    q = p.replace(rules=(rule_from_spec("count:=2:b"), rule_from_spec("connected:blue")))
    assert [r.value for r in q.rules] == [2, 2]
    assert settle_lanes(q).status is Status.UNIQUE
    with pytest.raises(ValueError) as info:
        p.replace(rules=(rule_from_spec("connected:g"),))
    assert str(info.value) == "rule connected: colour 'g' is not in the puzzle's palette ('r', 'b')"


def test_connected_cuts_exclude_the_picture_and_no_connected_one():
    g = Triangle.from_sides(2, 1, 2, 2, 1, 2)
    p = LanePuzzle.from_picture(g, "#" * 16, keep_goal=False)
    rule = p.replace(rules=(LaneConnected(),)).rules[0]
    picture = "#" + "." * 14 + "#"
    [clause] = rule.cut(picture, lambda cell, v: cell + 1)
    assert -1 in clause and -16 in clause and not rule.accepts(picture)
    border = {c + 1 for c in g.neighbours(0)}
    assert set(clause) == {-1, -16} | border
    assert rule.cut("#" * 16, lambda cell, v: cell + 1) is None


# --- refusals ----------------------------------------------------------------------------------

@pytest.mark.parametrize("spec, message", [
    ("symmetric:left-right", "rule symmetric:left-right: symmetry is not supported on a triangle geometry, "
                             "on any axis (for now)"),
    ("symmetric:transpose", "rule symmetric:transpose: symmetry is not supported on a triangle geometry, "
                            "on any axis (for now)"),
    ("symmetric:rotate180", "rule symmetric:rotate180: symmetry is not supported on a triangle geometry, "
                            "on any axis (for now)"),
    ("no-square", "rule no-square: 2x2 squares have no meaning on a triangle geometry"),
    ("no-square:r", "rule no-square:r: 2x2 squares have no meaning on a triangle geometry"),
])
def test_a_rule_without_meaning_on_a_triangle_is_refused_in_one_line(spec, message):
    p = LanePuzzle.from_picture(Triangle.triangle(2), "r.bb", TWO, keep_goal=False)
    for rule in (rule_from_spec(spec), spec):
        with pytest.raises(RuleError) as info:
            p.replace(rules=(rule,))
        assert str(info.value) == message and "\n" not in message
    with pytest.raises(ValueError, match="^rule "):
        lane_rule_from(spec, p.geometry)


def test_line_and_rectangle_givens_are_refused():
    g = Triangle.triangle(2)
    with pytest.raises(RuleError, match=r"^rule line: its cells are \(row, column\) pairs, which a triangle "
                                        r"geometry has not$"):
        lane_rule_from({"rule": "line", "cells": [[0, 0], [1, 1]], "clue": [1]}, g)
    from satnono.rules import Givens

    with pytest.raises(RuleError, match=r"^rule givens: its cells are \(row, column\) pairs"):
        lane_rule_from(Givens(((0, 0, 1),)), g)
    with pytest.raises(RuleError, match="^rule no-square: 2x2 squares have no meaning on a geometry other"):
        lane_rule_from("no-square")
    with pytest.raises(RuleError, match="^rule no-square: not supported on the lanes of a rectangle geometry"):
        lane_rule_from("no-square", Rectangle(2, 2))


# --- reading and writing -------------------------------------------------------------------------

def _three() -> LanePuzzle:
    """A blotted triddler of three solutions of 5, 5 and 7 cells, one of them connected."""
    blot, empty = LineClue((1,), (1,), 1), LineClue((), ())
    clues = (blot, blot, empty, blot, LineClue((1, 1), (1, 1), 3), empty, blot, blot, blot, blot)
    return LanePuzzle(Triangle.from_sides(2, 1, 2, 2, 1, 2), clues, name="Three")


def test_json_round_trip_with_givens_and_rules():
    p = _three().replace(givens=((5, 1), (0, 0)), rules=(lane_rule_from("count:=5"), lane_rule_from("connected")))
    text = dumps(p, "json")
    assert '  "givens": [\n    [0, "."],\n    [5, "#"]\n  ],\n' in text
    assert '  "rules": [\n    {"rule": "count", "op": "=", "n": 5},\n    {"rule": "connected"}\n  ]\n' in text
    [back] = loads(text)
    assert back == p and back.rules == p.rules and back.givens == p.givens
    colour = LanePuzzle.from_picture(Triangle.triangle(2), "r.bb", TWO, givens=((1, 0), (2, 2)),
                                     rules=(rule_from_spec("count:>=1:r"),))
    text = dumps(colour, "json")
    assert '[2, "b"]' in text and loads(text)[0] == colour


def test_json_reads_givens_as_characters_or_values_and_the_givens_rule():
    doc = json.loads(dumps(_three(), "json"))
    doc["givens"] = [[5, 1], [0, "."], [6, "X"]]
    doc["rules"] = [{"rule": "givens", "cells": [[7, "#"]]}, {"rule": "count", "op": ">=", "n": 5}]
    [p] = loads(json.dumps(doc))
    assert p.givens == ((0, 0), (5, 1), (6, 1), (7, 1)) and p.rules == (LaneCount(">=", 5),)


@pytest.mark.parametrize("extra, pattern", [
    ({"rules": [{"rule": "no-square"}]}, r"^t\.json: rules\[0\]: rule no-square: 2x2 squares have no meaning on a "
                                         r"triangle geometry$"),
    ({"rules": [{"rule": "symmetric", "axis": "left-right"}]}, r"^t\.json: rules\[0\]: rule symmetric:left-right: "
                                                               r"symmetry is not supported"),
    ({"rules": [{"rule": "connected", "color": "q"}]}, r"^t\.json: rules\[0\]: rule connected: colour 'q'"),
    ({"rules": {"rule": "connected"}}, r"^t\.json: rules: expected a list of rules"),
    ({"givens": [[99, "#"]]}, r"^t\.json: givens\[0\]: cell 99 is outside the triangle's 16 cells \(0\.\.15\)$"),
    ({"givens": [[0, 1, 1]]}, r"^t\.json: givens\[0\]: expected \[cell, value\] with value one of '\.', '#'"),
    ({"givens": [[0, "#"], [0, "."]]}, r"^t\.json: givens: given cell 0 is given twice with different values$"),
    ({"rules": [{"rule": "givens", "cells": [[0, "?"]]}]}, r"^t\.json: rules\[0\]\.givens\[0\]: expected \[cell, "),
])
def test_json_errors_on_givens_and_rules_are_one_line(extra, pattern):
    doc = {**json.loads(dumps(_three(), "json")), **extra}
    with pytest.raises(ParseError) as info:
        loads(json.dumps(doc), source="t.json")
    assert "\n" not in str(info.value)
    assert re.search(pattern, str(info.value)), str(info.value)


@pytest.mark.parametrize("fmt", ["xml", "g"])
def test_xml_and_g_refuse_givens_and_rules_in_one_line(fmt):
    p = _three()
    with pytest.raises(ValueError) as info:
        dumps(p.replace(givens=((0, 1),)), fmt)
    assert str(info.value) == f"the {fmt} format cannot store given (revealed) cells; write the puzzle as json"
    with pytest.raises(ValueError) as info:
        dumps(p.replace(rules=(lane_rule_from("count:=5"), lane_rule_from("connected"))), fmt)
    assert str(info.value) == f"the {fmt} format cannot store rules (count, connected); write the puzzle as json"


def test_extra_rules_bind_to_a_triddler_or_refuse_it(tmp_path):
    path = tmp_path / "three.xml"
    path.write_text(dumps(_three(), "xml"))
    token = EXTRA_RULES.set((rule_from_spec("connected"), rule_from_spec("count:=5")))
    try:
        [p] = load_each(str(path))
    finally:
        EXTRA_RULES.reset(token)
    assert p.rules == (LaneConnected(), LaneCount("=", 5))
    token = EXTRA_RULES.set((rule_from_spec("no-square"),))
    try:
        [item] = load_each(str(path))
    finally:
        EXTRA_RULES.reset(token)
    assert isinstance(item, ParseError)
    assert str(item) == f"{path}: rule no-square: 2x2 squares have no meaning on a triangle geometry"


def test_the_command_line_takes_rules_on_a_triddler(tmp_path):
    from satnono.cli import cli

    path = tmp_path / "three.xml"
    path.write_text(dumps(_three(), "xml"))
    runner = CliRunner()
    r = runner.invoke(cli, ["check", str(path)])
    assert r.exit_code == 3 and "multiple solutions" in r.output, r.output
    r = runner.invoke(cli, ["check", "--rule", "connected", str(path)])
    assert r.exit_code == 0 and f"{path}: unique (needs search beyond line logic)" in r.output, r.output
    r = runner.invoke(cli, ["count", str(path)])
    assert r.exit_code == 0 and f"{path}: 3 solutions" in r.output, r.output
    r = runner.invoke(cli, ["count", "--rule", "count:=5", str(path)])
    assert r.exit_code == 0 and f"{path}: 2 solutions" in r.output, r.output
    r = runner.invoke(cli, ["count", "--rule", "count:=5", "--rule", "connected", str(path)])
    assert r.exit_code == 0 and f"{path}: 0 solutions" in r.output, r.output
    r = runner.invoke(cli, ["check", "--rule", "symmetric:left-right", str(path)])
    assert r.exit_code == 6, r.output
    assert r.output.strip().splitlines()[-1] == (f"satnono: {path}: rule symmetric:left-right: symmetry is not "
                                                 f"supported on a triangle geometry, on any axis (for now)")
