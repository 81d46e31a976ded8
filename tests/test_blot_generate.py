"""Blotting pictures on purpose (satnono.blot), fix's blots to reveal and generate --blot,
checked against an independent enumeration on small grids (every grid, every line placement)."""

from __future__ import annotations

import itertools
import json
import random

import pytest
from click.testing import CliRunner

from satnono.blot import (
    BlotError,
    blot,
    hidden_numbers,
    hide_numbers,
    numbers,
    with_blots,
)
from satnono.fixer import fix
from satnono.model import Puzzle
from satnono.solve import Checker


def _blocks(cells: str) -> list[tuple[int, str]]:
    out: list[list] = []
    prev = "."
    for ch in cells:
        if ch != "." and ch == prev:
            out[-1][0] += 1
        elif ch != ".":
            out.append([1, ch])
        prev = ch
    return [(n, ch) for n, ch in out]


def _fits(cells: str, clue, chars: str) -> bool:
    """Does a line fit a clue with blots? Written from the rule, not from satnono's kernels."""
    blocks = _blocks(cells)
    if len(blocks) != len(clue.lengths):
        return False
    return all(ch == chars[c] and (clue.is_blotted(j) or n == want)
               for j, ((n, ch), want, c) in enumerate(zip(blocks, clue.lengths, clue.colors)))


def _solutions(p: Puzzle) -> list[tuple[str, ...]]:
    chars = p.chars
    rows = [["".join(t) for t in itertools.product(chars, repeat=p.width) if _fits("".join(t), clue, chars)]
            for clue in p.row_clues]
    return [g for g in itertools.product(*rows)
            if all(_fits("".join(col), clue, chars) for col, clue in zip(zip(*g), p.column_clues))]


def _line_solvable(p: Puzzle) -> bool:
    """Line logic by enumeration over cell domains (the colours a cell may still take): each line
    keeps, per cell, the values some placement that fits the domains gives it."""
    chars = p.chars
    h, w = p.height, p.width
    dom = [[set(chars) for _ in range(w)] for _ in range(h)]
    changed = True
    while changed:
        changed = False
        for axis, n, m in (("row", h, w), ("column", w, h)):
            for i in range(n):
                cells = [(i, k) if axis == "row" else (k, i) for k in range(m)]
                fit = [t for t in itertools.product(chars, repeat=m)
                       if all(t[k] in dom[r][c] for k, (r, c) in enumerate(cells))
                       and _fits("".join(t), p.clue(axis, i), chars)]
                assert fit  # the goal is a solution
                for k, (r, c) in enumerate(cells):
                    vals = {t[k] for t in fit}
                    if vals != dom[r][c]:
                        dom[r][c] = vals
                        changed = True
    return all(len(d) == 1 for row in dom for d in row)


def _pictures(h: int, w: int, chars: str, count: int, seed: int):
    rng = random.Random(seed)
    return [tuple("".join(rng.choice(chars) for _ in range(w)) for _ in range(h)) for _ in range(count)]


SMALL = [(3, 3, ".#", 40, 1), (4, 4, ".#", 25, 2), (3, 3, ".ab", 25, 3)]


@pytest.mark.parametrize("h,w,chars,count,seed", SMALL)
def test_blot_meets_the_requirement_and_is_maximal_by_brute_force(h, w, chars, count, seed):
    done = {"unique": 0, "line": 0}
    for pic in _pictures(h, w, chars, count, seed):
        base = Puzzle.from_grid(pic)
        unique = _solutions(base) == [pic]
        for require in ("unique", "line"):
            ok = unique if require == "unique" else _line_solvable(base)
            if not ok:
                with pytest.raises(BlotError):
                    blot(pic, require=require)
                continue
            r = blot(pic, require=require, seed=seed)
            p = r.puzzle
            assert r.hidden == len(hidden_numbers(p)) == len(r.blots) and r.total == len(numbers(base))
            assert _solutions(p) == [pic]
            if require == "line":
                assert _line_solvable(p)
            # maximal: hiding any one more number breaks the requirement
            for num in set(numbers(base)) - set(r.blots):
                more = with_blots(base, [*r.blots, num])
                if require == "unique":
                    assert len(_solutions(more)) > 1
                else:
                    assert not _line_solvable(more)
            done[require] += 1
    assert done["unique"] >= 3 and done["line"] >= 3


@pytest.mark.parametrize("colors", [1, 3])
def test_blot_maximal_on_medium_puzzles_by_satnono(colors):
    from satnono.generation import generate

    checker = Checker()
    for p in generate(10, 10, 2, seed=5, colors=colors, require="unique"):
        r = blot(p, require="unique", seed=2, checker=checker)
        chk = checker.check(r.puzzle)
        assert chk.status == "unique" and chk.solutions == (p.goal,) and r.hidden > 0
        for num in set(numbers(p)) - set(r.blots):
            assert checker.check(with_blots(p, [*r.blots, num])).status == "multiple"
        r = blot(p, require="line", seed=2, checker=checker) if checker.check(p).line_solvable else None
        if r is not None:
            assert checker.check(r.puzzle).line_solvable
            for num in set(numbers(p)) - set(r.blots):
                assert not checker.check(with_blots(p, [*r.blots, num])).line_solvable


def test_blot_is_deterministic_by_seed_and_keeps_given_blots():
    from satnono.generation import generate

    p = next(iter(generate(12, 12, 1, seed=4, require="line")))
    a, b = blot(p, seed=3), blot(p, seed=3)
    assert a.blots == b.blots and a.puzzle == b.puzzle
    c = blot(p, seed=4)
    assert c.blots != a.blots  # another order (for this picture): another maximal set
    start = with_blots(p, a.blots[:3])
    again = blot(start, seed=9)
    assert set(a.blots[:3]) <= set(again.blots)
    assert blot(p, seed=3, max_hidden=5).hidden == 5


def test_blot_refuses_bad_input():
    with pytest.raises(BlotError, match="no goal"):
        blot(Puzzle.from_clues([[1]], [[1]]))
    with pytest.raises(BlotError, match="not unique"):
        blot(["#.", ".#"])
    with pytest.raises(ValueError, match="require"):
        blot(["#"], require="search")


@pytest.mark.parametrize("h,w,chars,seed", [(4, 4, ".#", 7), (3, 3, ".ab", 8)])
def test_fix_reveals_blots_that_make_the_puzzle_unique_by_brute_force(h, w, chars, seed):
    seen = 0
    for pic in _pictures(h, w, chars, 60, seed):
        base = Puzzle.from_grid(pic)
        if _solutions(base) != [pic]:
            continue
        for s in range(3):
            p = hide_numbers(pic, 0.7, seed=s)
            if len(_solutions(p)) < 2:
                continue
            res = fix(p, timeout=30)
            prop = res.blots_reveal
            assert prop is not None and res.blots_note is None
            shown = {(x.axis, x.line, x.block) for x in prop.reveals}
            assert shown <= set(hidden_numbers(p))
            # the proposal, rebuilt from the goal's lengths, is unique (brute force)
            after = with_blots(base, set(hidden_numbers(p)) - shown)
            assert after == prop.puzzle and _solutions(after) == [pic]
            for x in prop.reveals:
                assert x.length == {(a, i, j): n for a, i, j, n in _goal_numbers(base)}[(x.axis, x.line, x.block)]
            # minimal under removal
            for x in shown:
                assert len(_solutions(with_blots(base, set(hidden_numbers(p)) - (shown - {x})))) > 1
            d = res.as_dict()["blots_reveal"]
            assert d["count"] == len(prop.reveals) and {b["axis"] for b in d["blots"]} <= {"row", "column"}
            seen += 1
    assert seen >= 5


def _goal_numbers(base: Puzzle):
    return [(axis, i, j, n) for axis in ("row", "column") for i, c in enumerate(base.clues(axis))
            for j, n in enumerate(c.lengths)]


def test_fix_says_when_revealing_every_blot_is_not_enough():
    p = hide_numbers(["#.", ".#"], 1.0)
    res = fix(p, timeout=10)
    assert res.status == "multiple" and res.blots_reveal is None and "every blot" in res.blots_note


def test_generate_blot_cli_counts_and_verdicts():
    from satnono.cli import cli

    run = CliRunner().invoke(cli, ["generate", "--size", "8x8", "-n", "2", "--seed", "3", "--blot",
                                    "--require", "unique"])
    assert run.exit_code == 0, run.output
    lines = [json.loads(x) for x in run.stdout.splitlines()]
    assert len(lines) == 2
    hidden = 0
    for doc in lines:
        p = Puzzle.from_clues(doc["rows"], doc["columns"], goal=tuple(doc["goal"]))
        hidden += len(hidden_numbers(p))
        assert _solutions(p) == [p.goal] if p.height * p.width <= 16 else Checker().check(p).status == "unique"
    assert f"blotted {hidden} of " in run.stderr
    bad = CliRunner().invoke(cli, ["generate", "--size", "5x5", "-n", "1", "--seed", "1", "--blot",
                                    "--require", "any"])
    assert bad.exit_code == 2 and "--blot" in bad.output
