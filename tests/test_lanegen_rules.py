"""Generating triddlers with rules and blotted clues (``satnono generate --shape ... --rule ...
--blot``): every puzzle, as generated and as blotted, checked against tests/_triddler_oracle.py
(the enumeration, and the fixpoint of lane logic and the rules' narrowing, with the rules read
from their --rule spelling there, never by satnono's rule code): its one solution the goal, its
line-solvability and class as --require asks, its blots maximal; the lane rules' keep; the files
written in each format read back identically and checked again by ``satnono check``; the
formats and rules that cannot be written refused in one line."""

from __future__ import annotations

import contextvars
import json
import os
import random

import pytest
from click.testing import CliRunner

from _triddler_oracle import keeps, line_and_rule_logic, regions, truth
from satnono.blot import blot, hidden_numbers
from satnono.cli import cli
from satnono.formats import load, loads
from satnono.generation import generate_on
from satnono.lanegen import parse_shape
from satnono.lanepuzzle import LanePuzzle
from satnono.palette import default_palette
from satnono.rules import rule_from_spec

# ---------------------------------------------------------------------------
# the oracle: the enumeration and the line-and-rule fixpoint of tests/_triddler_oracle.py, with the
# rules as it reads them from their --rule spelling


def solutions(p: LanePuzzle, specs: list[str]) -> list[str]:
    """Every solution of ``p``: the enumeration over its clues (blots any length), kept by the rules."""
    return truth(p.replace(rules=(), goal=None), specs)


def line_solves(p: LanePuzzle, specs: list[str]) -> bool:
    """Whether lane logic and the rules' narrowing, to their joint fixpoint, settle every cell."""
    dom = line_and_rule_logic(p.replace(rules=(), goal=None), specs)
    return dom is not None and all(d & (d - 1) == 0 for d in dom)


def meets(p: LanePuzzle, specs: list[str], require: str) -> None:
    """``p`` meets ``require`` by the oracle: the goal its only solution, line-solvable or not as
    asked, and its class (``line`` or ``search``) what the oracle says."""
    assert solutions(p, specs) == [p.goal], p.name
    line = line_solves(p, specs)
    assert line is {"line": True, "search": False}.get(require, line), (p.name, require)
    assert dict(p.meta)["class"] == ("line" if line else "search")


def with_hidden(p: LanePuzzle, number: tuple[str, int, int]) -> LanePuzzle:
    """``p`` with one more clue number hidden, made here."""
    clues = list(p.clues)
    for k, (lane, clue) in enumerate(zip(p.lanes, p.clues)):
        if (lane.family, lane.index) == number[:2]:
            j = number[2]
            lengths = list(clue.lengths)
            lengths[j] = 1
            clues[k] = clue._replace(lengths=tuple(lengths), blots=clue.blots | 1 << j)
    return p.replace(clues=tuple(clues))


# ---------------------------------------------------------------------------
# generated puzzles against the oracle

CASES = [  # shape, colours, rules
    ("triangle:4", 1, ["connected"]),
    ("parallelogram:2x4", 1, ["count:=8"]),
    ("hexagon:2", 1, ["connected"]),
    ("hexagon:2", 1, ["count:>=10", "connected"]),
    ("sides:2,1,2,2,1,2", 1, ["count:<=7"]),
    ("hexagon:2", 1, []),
    ("parallelogram:2x3", 2, ["connected:a"]),
    ("triangle:3", 2, ["count:=3:b"]),
    ("parallelogram:2x3", 2, ["connected", "count:>=2:a"]),
]


@pytest.mark.parametrize("shape,colours,specs", CASES)
@pytest.mark.parametrize("require", ["line", "unique", "search"])
def test_generated_with_rules_and_blots_against_the_oracle(shape, colours, specs, require):
    geometry = parse_shape(shape)
    rules = [rule_from_spec(s) for s in specs]
    found = 0
    for seed in (0, 1):
        g = generate_on(geometry, 2, seed=seed, require=require, colors=colours, rules=rules, max_candidates=400)
        for p in g:
            found += 1
            assert p.geometry == geometry and not p.has_blots
            assert [r.as_json() for r in p.rules] == [rule_from_spec(s).as_json() for s in specs]
            meets(p, specs, require)
            keep = "line" if require == "line" else "unique"
            r = blot(p, require=keep, seed=seed)
            b = r.puzzle
            assert b.goal == p.goal and b.rules == p.rules and r.hidden == len(hidden_numbers(b)) > 0
            for lane, clue, full in zip(b.lanes, b.clues, p.clues):  # the blots hide numbers, nothing else
                assert clue.colors == full.colors and all(clue.is_blotted(j) or n == full.lengths[j]
                                                          for j, n in enumerate(clue.lengths)), lane.name
            assert solutions(b, specs) == [p.goal]
            if keep == "line":
                assert line_solves(b, specs)
            # maximal: one more hidden number breaks the requirement
            shown = [(lane.family, lane.index, j) for lane, clue in zip(b.lanes, b.clues)
                     for j in range(len(clue.lengths)) if not clue.is_blotted(j)]
            for number in random.Random(seed).sample(shown, min(6, len(shown))):
                more = with_hidden(b, number)
                if keep == "unique":
                    assert len(solutions(more, specs)) > 1, number
                else:
                    assert not line_solves(more, specs), number
    if require != "search":
        assert found == 4, (shape, specs, require)


def test_search_puzzles_with_rules_come():
    """Not vacuous: --require search finds puzzles under the rules on these small shapes."""
    for shape, colours, specs in [("hexagon:2", 1, ["count:=12"]), ("parallelogram:2x4", 1, ["count:=8"]),
                                  ("parallelogram:2x3", 2, ["connected:a"])]:
        g = generate_on(parse_shape(shape), 2, seed=0, require="search", colors=colours,
                        rules=[rule_from_spec(s) for s in specs], max_candidates=1000)
        got = list(g)
        assert len(got) == 2, (shape, g.stats.as_dict())
        for p in got:
            meets(p, specs, "search")


def test_rules_are_drawn_not_only_filtered():
    """With the lane rules' keep every drawn picture keeps them (count exactly, connected by the
    largest region): no candidate is rejected for breaking a rule."""
    geometry = parse_shape("hexagon:3")
    for colours, specs in ((1, ["connected"]), (1, ["count:=25"]), (2, ["connected:b"]), (2, ["count:=12:a"])):
        g = generate_on(geometry, 3, seed=4, require="unique", colors=colours,
                        rules=[rule_from_spec(s) for s in specs], max_candidates=300)
        got = list(g)
        assert len(got) == 3 and g.stats.reasons["rule"] == 0, (specs, g.stats.as_dict())
        for p in got:
            assert all(keeps(p, p.goal, spec) for spec in specs)


def test_keep_hooks():
    from satnono.lanerules import LaneConnected, LaneCount

    p = LanePuzzle.from_picture(parse_shape("hexagon:2"), "." * 24)
    rng = random.Random(1)
    for _ in range(50):
        values = [rng.choice((0, 0, 1)) for _ in range(24)]
        kept = LaneConnected().bind(p).keep(list(values), random.Random(2))
        found = regions(p.geometry, {c for c, v in enumerate(values) if v})
        biggest = max(found, key=len) if found else set()  # (the first of the largest, by least cell)
        assert {c for c, v in enumerate(kept) if v} == biggest
        for op, n in (("=", 9), (">=", 12), ("<=", 4)):
            kept = LaneCount(op, n).bind(p).keep(list(values), random.Random(3))
            k, before = sum(map(bool, kept)), sum(map(bool, values))
            want = {"=": n, ">=": max(n, before), "<=": min(n, before)}[op]
            assert k == want and all(v == 0 or kept[c] == v for c, v in enumerate(values) if kept[c])
    # in colour, the rule's colour is given; a count above the cells leaves the picture
    q = LanePuzzle.from_picture(parse_shape("hexagon:2"), "." * 24, default_palette(2))
    kept = LaneCount("=", 5, "b").bind(q).keep([1] * 3 + [0] * 21, random.Random(0))
    assert kept.count(2) == 5 and kept.count(1) <= 3
    assert LaneCount(">=", 30).bind(p).keep([0] * 24, random.Random(0)) == [0] * 24


# ---------------------------------------------------------------------------
# the command line: files read back, checked again, refusals


def run(*args):
    return CliRunner().invoke(cli, ["generate", *args])


def read(path: str, fmt: str | None = None):
    """The file's puzzles as a fresh process reads them (the CLI's --rule, which the commands run
    here set for every later read, left out)."""
    if fmt is None:
        return contextvars.Context().run(load, path)
    return contextvars.Context().run(loads, path, fmt)


def check_json(path: str) -> dict:
    r = CliRunner().invoke(cli, ["check", "--json", path])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout.splitlines()[0])


@pytest.mark.parametrize("shape,colours,specs,require,blotted,fmt", [
    ("hexagon:2", 1, ["connected"], "line", True, None),  # json, the default with --rule
    ("hexagon:2", 1, ["count:=12"], "search", True, "json"),
    ("hexagon:2", 1, ["count:>=10", "connected"], "unique", True, None),
    ("triangle:4", 1, [], "unique", True, None),  # xml holds blots
    ("parallelogram:2x3", 2, [], "line", True, "xml"),
    ("parallelogram:2x3", 2, ["connected:a"], "unique", False, "json"),
    ("hexagon:2", 1, ["count:<=9"], "unique", False, None),
])
def test_cli_files_hold_rules_and_blots(tmp_path, shape, colours, specs, require, blotted, fmt):
    args = ["--shape", shape, "--count", "3", "--seed", "3", "--require", require, "--colors", str(colours),
            "--max-candidates", "3000"]
    for s in specs:
        args += ["--rule", s]
    if blotted:
        args.append("--blot")
    lines = run(*args)
    assert lines.exit_code == 0, lines.output
    streamed = [read(line, "json")[0] for line in lines.stdout.splitlines()]
    out = tmp_path / "set"
    r = run(*args, "--out", str(out), *(["--format", fmt] if fmt else []))
    assert r.exit_code == 0, r.output
    suffix = fmt or ("json" if specs else "xml")
    names = sorted(os.listdir(out))
    assert names == [f"puzzle-000{k}.{suffix}" for k in (1, 2, 3)]
    assert ("blotted " in r.stderr) is blotted
    for name, first in zip(names, streamed):
        path = str(out / name)
        p = read(path)
        assert isinstance(p, LanePuzzle)
        assert p.with_source(None) == first.with_source(None)  # the file holds what stdout gives
        assert [rule.as_json() for rule in p.rules] == [rule_from_spec(s).as_json() for s in specs]
        assert p.has_blots is blotted
        meets(p, specs, require)
        d = check_json(path)
        assert d["status"] == "unique" and d["solutions"] == [p.goal]
        assert d["line_solvable"] is (dict(p.meta)["class"] == "line")
        if require != "unique":
            assert d["line_solvable"] is (require == "line")


def test_cli_same_output_with_workers():
    args = ["--shape", "hexagon:2", "--count", "3", "--seed", "5", "--require", "unique", "--rule", "connected",
            "--blot"]
    one, two = run(*args), run(*args, "--workers", "2")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    assert one.stdout == two.stdout and one.stdout.count('"?"') > 0


@pytest.mark.parametrize("args,says", [
    (["--rule", "symmetric:left-right"], "symmetric"),
    (["--rule", "no-square"], "2x2 squares have no meaning on a triangle"),
    (["--rule", "connected:z"], "connected"),
    (["--rule", "count:>=100"], "no picture keeps it"),
    (["--rule", "count:=1"], "density"),
    (["--rule", "connected", "--format", "xml", "--out", "x"], "--format xml cannot hold rules"),
    (["--rule", "connected", "--format", "g", "--out", "x"], "--format g cannot hold rules"),
    (["--blot", "--format", "g", "--out", "x"], "--format g cannot hold blotted clues; use xml or json"),
    (["--blot", "--require", "any"], "--blot keeps puzzles unique or line-solvable"),
])
def test_cli_refusals(tmp_path, monkeypatch, args, says):
    monkeypatch.chdir(tmp_path)
    r = run("--shape", "hexagon:2", "--count", "1", "--seed", "1", *args)
    assert r.exit_code == 2, (args, r.output)
    errors = [line for line in r.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and says in errors[0], r.stderr
    assert not os.path.exists("x")
