"""satnono.explain on triddlers with extra rules (issue 39): ``count``, ``connected`` (on the
triangles that share a side) and givens, against truths of the test's own: the solutions are the
brute force of tests/_triddler_oracle.py filtered by the rules as that module reads them, and
"line and rule logic" is its lane logic with the rules' narrowing written there (a count reached
or only just reachable; the cells that may have a value but cannot be joined to the known ones)
taken to their common fixpoint.  The narrowing is monotone, so that fixpoint does not depend on
the order: an explanation without probing must reach exactly it, rule step by rule step."""

from __future__ import annotations

import json
import random
import re

import pytest
from click.testing import CliRunner

from _triddler_oracle import _lane_logic, _lanes_of, _propagate, brute_force
import _triddler_oracle as oracle
from satnono.classify import classify_puzzle
from satnono.cli import cli
from satnono.clues import LineClue
from satnono.explain import Step, difficulty, explain, next_hint
from satnono.explain.board import board_of, cells_text
from satnono.explain.rulesteps import lane_rule_step
from satnono.formats import dumps
from satnono.lanepuzzle import LanePuzzle
from satnono.lanerules import lane_rule_from
from satnono.lanes import Triangle, cell_name
from satnono.logic.probe import LaneCells
from satnono.logic.state import initial_state
from satnono.palette import BW_PALETTE, Color

TWO = (Color("white", ".", (255, 255, 255)), Color("red", "r", (255, 0, 0)), Color("blue", "b", (0, 0, 255)))
BW_SHAPES = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.triangle(4), Triangle.parallelogram(2, 3),
             Triangle.hexagon(2)]
COLOUR_SHAPES = [Triangle.hexagon(1), Triangle.triangle(3), Triangle.parallelogram(2, 3)]


# --- the puzzles -------------------------------------------------------------------------------------

def _blot(p: LanePuzzle, rng: random.Random, share: float) -> LanePuzzle:
    """Some block lengths hidden: then counts of cells differ between solutions."""
    clues = []
    for c in p.clues:
        blots = sum(1 << j for j in range(len(c.lengths)) if rng.random() < share)
        clues.append(LineClue(tuple(1 if blots >> j & 1 else n for j, n in enumerate(c.lengths)), c.colors, blots))
    return p.replace(clues=tuple(clues))


def _cases(shapes, palette, seeds: int, tag: str):
    """``(puzzle, specs, givens)``: puzzles of several solutions (blotted ones among them), with
    the rules that split their solutions (counts taken from one solution), givens and mixes."""
    chars = "".join(c.char for c in palette)
    for g in shapes:
        rng = random.Random(f"explain-lane-rules-{tag}-{g.as_json()}")
        made = 0
        while made < seeds:
            picture = "".join(rng.choice(chars[0] * 2 + chars[1:]) for _ in range(g.cell_count))
            p = _blot(LanePuzzle.from_picture(g, picture, palette, keep_goal=False), rng, rng.choice((0, 0.4, 0.8)))
            sols = brute_force(p, limit=300)
            if not 2 <= len(sols) < 300:
                continue
            made += 1
            some = rng.choice(sols)
            colour = rng.choice(chars[1:]) if len(chars) > 2 else None
            c = "" if colour is None else f":{colour}"
            k = sum(oracle.rule_mask(p, colour) >> chars.index(ch) & 1 for ch in some)
            given = [(cell, chars.index(some[cell])) for cell in rng.sample(range(g.cell_count), 2)]
            yield p, ("connected",), ()
            yield p, (f"connected{c}",), given[:1]
            yield p, (f"count:={k}{c}",), ()
            yield p, (f"count:{rng.choice(('>=', '<='))}{k}",), ()
            yield p, ("connected", f"count:={k}{c}"), given[1:]
            yield p, (f"count:={k + 1}{c}",), ()


def _blotted(geometry, picture: str, blots: list[int]) -> LanePuzzle:
    """The puzzle of a picture with the blocks of ``blots`` (a mask per lane) hidden."""
    p = LanePuzzle.from_picture(geometry, picture, keep_goal=False)
    return p.replace(clues=tuple(LineClue(tuple(1 if b >> j & 1 else n for j, n in enumerate(c.lengths)), c.colors, b)
                                 for c, b in zip(p.clues, blots)))


#: ``connected`` settles cells of a solvable puzzle only rarely on small triddlers (hidden lengths
#: and given white cells wall a pocket off): two found by a random search.
CONNECTED = [(_blotted(Triangle.hexagon(2), "#####.....##......#.....", [1, 1, 0, 0, 1, 0, 1, 1, 0, 1, 0, 1]),
              ("connected",), ((9, 0), (2, 1), (20, 0))),
             (_blotted(Triangle.triangle(4), ".##.##...###....", [0, 1, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1]),
              ("connected",), ((6, 0), (12, 0), (3, 0)))]

CASES = list(_cases(BW_SHAPES, BW_PALETTE, 4, "bw")) + list(_cases(COLOUR_SHAPES, TWO, 3, "two")) + CONNECTED


def _with(p: LanePuzzle, specs, givens) -> LanePuzzle:
    return p.replace(rules=tuple(lane_rule_from(s) for s in specs), givens=tuple(givens))


def _id(case) -> str:
    p, specs, givens = case
    return f"{p.geometry.cell_count}-{len(p.chars)}:{'|'.join(specs)}/{givens}"


# --- replaying steps ---------------------------------------------------------------------------------

def _start(p: LanePuzzle) -> list[int]:
    dom = [(1 << len(p.chars)) - 1] * p.geometry.cell_count
    for c, v in p.givens:
        dom[c] = 1 << v
    return dom


def _apply(p: LanePuzzle, st: Step, dom: list[int]) -> list[int]:
    index = {ch: v for v, ch in enumerate(p.chars)}
    dom = list(dom)
    for cell, ch in st.cells:
        assert dom[cell] >> index[ch] & 1, f"{st.text}: sets a value already ruled out"
        dom[cell] = 1 << index[ch]
    for cell, gone in st.excluded or ():
        for ch in gone:
            assert dom[cell] >> index[ch] & 1, f"{st.text}: rules out a value already ruled out"
            dom[cell] &= ~(1 << index[ch])
    return dom


def _picture(p: LanePuzzle, dom: list[int]) -> str:
    return "".join(p.chars[d.bit_length() - 1] if d and not d & (d - 1) else "?" for d in dom)


def _spec_of(q: LanePuzzle, st: Step, specs) -> str:
    """The spec of a rule step's rule (its index counts the givens, first in ``all_rules``)."""
    return specs[st.index - (1 if q.givens else 0)]


def _check_rule_step(q: LanePuzzle, st: Step, specs, dom: list[int]) -> None:
    """A rule step claims exactly what the test's narrowing of its rule gives, in words naming
    the cells as a triddler's steps do."""
    spec = _spec_of(q, st, specs)
    want = list(dom)
    assert oracle.narrow_rule(q, spec, want)
    assert want != dom and _apply(q, st, dom) == want, st.text
    assert st.kind == st.axis == "rule" and st.technique == spec.split(":")[0] and st.lane is None
    assert st.text.startswith(f"by the rule {spec} (")
    g = q.geometry
    if st.excluded is None:  # black and white: every cell settled, black ones named before white ones
        black = [c for c, ch in st.cells if ch == "#"]
        white = [c for c, ch in st.cells if ch == "."]
        words = [f"{cells_text(g, black)} black"] * bool(black) + [f"{cells_text(g, white)} white"] * bool(white)
        assert st.text.endswith(": " + "; ".join(words)), st.text


def _refutes(q: LanePuzzle, st: Step, specs, dom: list[int]) -> None:
    """A probe's assumption and its chain leave its lane without a placement (the oracle's lane
    logic) or its rule unkeepable (the test's narrowing)."""
    index = {ch: v for v, ch in enumerate(q.chars)}
    cell, ch = st.probe
    trial = list(dom)
    trial[cell] = 1 << index[ch]
    for sub in st.chain:
        trial = _apply(q, sub, trial)
    if st.axis == "rule":
        assert not oracle.narrow_rule(q, _spec_of(q, st, specs), trial), st.text
        assert "the rule " + _spec_of(q, st, specs) + " could not be kept" in st.text
    else:
        assert _lane_logic([trial[c] for c in q.lanes[st.lane].cells], q.clues[st.lane]) is None, st.text


# --- the library against the truths -----------------------------------------------------------------

@pytest.mark.parametrize("case", CASES, ids=_id)
def test_line_and_rule_steps_reach_the_fixpoint_of_line_and_rule_logic(case):
    """Without probing, the explanation's line and rule steps reach exactly the fixpoint of the
    test's line and rule logic; it is solved exactly when that fixpoint settles every cell, and
    then it is the one solution the enumeration finds."""
    p, specs, givens = case
    q = _with(p, specs, givens)
    truth = oracle.truth(p, specs, givens)
    want = oracle.line_and_rule_logic(p, specs, givens)
    ex = explain(q, max_depth=0, verdict_timeout=5)
    if want is None:
        assert ex.status == "none" and not truth and ex.difficulty["level"] == "none"
        return
    dom = _start(q)
    for st in ex.steps:
        if st.kind == "rule":
            _check_rule_step(q, st, specs, dom)
        else:
            assert st.kind == "line"
        assert all(s[c] == ch for s in truth for c, ch in st.cells), f"unsound: {st.text}"
        dom = _apply(q, st, dom)
    assert dom == want and ex.picture == _picture(q, want)
    complete = all(d and not d & (d - 1) for d in want)
    assert ex.solved == complete == (len(truth) == 1 and truth[0] == ex.picture), (truth, ex.picture)
    if ex.solved:
        assert ex.difficulty["level"] == "line" and ex.difficulty["exact"]


@pytest.mark.parametrize("case", CASES[::2], ids=_id)
def test_probing_honours_the_rules_and_the_grade_and_hint_agree(case):
    p, specs, givens = case
    q = _with(p, specs, givens)
    truth = oracle.truth(p, specs, givens)
    ex = explain(q, verdict_timeout=5)
    dom = _start(q)
    for st in ex.steps:
        assert all(s[c] == ch for s in truth for c, ch in st.cells), f"unsound: {st.text}"
        assert all(s[c] not in gone for s in truth for c, gone in st.excluded or ()), f"unsound: {st.text}"
        if st.kind == "probe":
            _refutes(q, st, specs, dom)
        elif st.kind == "rule":
            _check_rule_step(q, st, specs, dom)
        dom = _apply(q, st, dom)
    level = ex.difficulty["level"]
    if not truth:
        assert level == "none" and not ex.solved
    elif len(truth) > 1:
        assert level == "multiple" and not ex.solved
    else:
        assert level in ("line", "probe", "probe2", "search") and ex.difficulty["exact"]
        assert ex.solved == (level != "search") and (not ex.solved or ex.picture == truth[0])
        assert difficulty(q)["level"] == level
    if len(truth) != 1 or len(q.chars) > 2:  # (a colour hint takes the absent colours as known first)
        return
    h = next_hint(q, "?" * q.geometry.cell_count)
    assert h.kind == "step" and h.step.text == ex.steps[0].text
    # the hint from the cells before a rule step is that step
    before = _start(q)
    for st in ex.steps:
        if st.kind == "rule":
            h = next_hint(q, _picture(q, before))
            assert h.kind == "step" and h.step.kind == "rule" and h.step.text == st.text
            break
        before = _apply(q, st, before)


def test_the_cases_are_not_trivial():
    """Rule steps settle cells, a rule step decides some explanations, probes end on a rule, and
    some puzzles are unique only by their rules."""
    rule_steps = decided = 0
    for p, specs, givens in CASES:
        ex = explain(_with(p, specs, givens), max_depth=0, verdict_timeout=5)
        steps = [st for st in ex.steps if st.kind == "rule"]
        rule_steps += len(steps)
        decided += bool(steps) and ex.solved
    assert rule_steps >= 10 and decided >= 3
    assert {spec.split(":")[0] for p, specs, givens in CASES for st in
            explain(_with(p, specs, givens), max_depth=0, verdict_timeout=5).steps if st.kind == "rule"
            for spec in [_spec_of(_with(p, specs, givens), st, specs)]} == {"count", "connected"}


# --- wording, one by one -----------------------------------------------------------------------------

def test_count_and_connected_steps_in_words():
    g = Triangle.triangle(2)  # one cell on top, three below: 0 / 1 2 3
    p = LanePuzzle.from_picture(g, "#.##", keep_goal=False)
    ex = explain(p.replace(rules=(lane_rule_from("count:<=0"),)), verdict_timeout=5)
    assert ex.status == "none" and all(st.kind == "line" for st in ex.steps)  # the clues need black cells
    assert ex.note == "no solution: the rule count:<=0 cannot be kept with the known cells"
    # blotted puzzles: the count decides the hidden lengths
    for g, picture, spec, text in [
            (Triangle.hexagon(1), "..##.#", "count:>=5",
             "by the rule count:>=5 (at least 5 filled cells), only 5 cells can still be filled, so all of them are: "
             "row 1, cells 1-3 black"),
            (Triangle.triangle(3), "...####..", "count:<=4",
             "by the rule count:<=4 (at most 4 filled cells), all 4 of them are already known, so no other cell is "
             "filled: row 2, cells 1-2 white")]:
        p = _blot(LanePuzzle.from_picture(g, picture, keep_goal=False), random.Random(0), 1.0)
        truth = oracle.truth(p, (spec,))
        assert len(brute_force(p)) > 1 and len(truth) == 1
        ex = explain(p.replace(rules=(lane_rule_from(spec),)), verdict_timeout=5)
        assert ex.solved and ex.picture == truth[0] and ex.difficulty["text"].startswith("line logic only")
        assert [st.text for st in ex.steps if st.kind == "rule"] == [text]
    # in colour: a colour's count, the background ruled out of cells by a count of filled cells
    p = LanePuzzle.from_picture(Triangle.triangle(2), "rb.b", TWO, keep_goal=False)
    q = p.replace(rules=(lane_rule_from("count:>=4"),))
    st = lane_rule_step(LaneCells(initial_state(q)), board_of(q))
    assert st.text == ("by the rule count:>=4 (at least 4 filled cells), only 4 cells can still be filled, so all "
                       "of them are: row 1, cell 1 and row 2, cells 1-3 not background")
    assert st.cells == [] and st.excluded == [(0, "."), (1, "."), (2, "."), (3, ".")]
    q = p.replace(rules=(lane_rule_from("count:=0:r"),))
    st = lane_rule_step(LaneCells(initial_state(q)), board_of(q))
    assert st.text.startswith("by the rule count:=0:r (exactly 0 red (r) cells), no cell is red (r): ")
    # connected: a pocket walled off by white cells
    p, specs, givens = CONNECTED[1]
    ex = explain(_with(p, specs, givens), verdict_timeout=5)
    assert ex.solved and [st.text for st in ex.steps if st.kind == "rule"] == [
        "by the rule connected (the filled cells form one region of cells that share a side), no path of cells that "
        "can still be filled joins these cells to the filled cell at row 4, cell 1: row 3, cell 4 white"]
    # connected in two colours: two red cells that cannot be joined
    p = LanePuzzle.from_picture(Triangle.triangle(3), "r" + "." * 7 + "r", TWO, keep_goal=False)
    ex = explain(p.replace(rules=(lane_rule_from("connected:r"),)), verdict_timeout=5)
    assert ex.status == "none" and ex.note == "no solution: the rule connected:r cannot be kept with the known cells"


def test_a_connected_step_names_the_known_cell_it_joins():
    """The cell a connected step joins to has the rule's value in every solution."""
    named = 0
    for p, specs, givens in CASES:
        q = _with(p, specs, givens)
        truth = oracle.truth(p, specs, givens)
        for st in explain(q, max_depth=0, verdict_timeout=5).steps:
            if st.kind == "rule" and st.technique == "connected":
                m = re.match(r"by the rule (connected(?::.)?) \(the (.+?) cells form one region of cells that share "
                             r"a side\), no path of cells that can still be \2 joins these cells to the \2 cell at "
                             r"(row \d+, cell \d+): ", st.text)
                assert m, st.text
                anchor = next(c for c in range(q.geometry.cell_count) if cell_name(q.geometry, c) == m.group(3))
                mask = oracle.rule_mask(q, oracle.parse_rule(_spec_of(q, st, specs))[3])
                assert all(mask >> q.chars.index(s[anchor]) & 1 for s in truth)
                named += bool(truth)
    assert named


def test_a_rule_without_deduce_is_checked_on_the_final_picture():
    """A rule of one's own that only judges complete pictures: an explanation whose logic
    completes a picture the rule rejects ends with no solution, naming the rule."""

    class NoTopCell:
        name = "no-top"

        def clauses(self, var, new_var, state=None):
            return [[-var(0, 1)]]

        def accepts(self, cells: str) -> bool:
            return cells[0] == "."

        def text(self) -> str:
            return "no-top"

    p = LanePuzzle.from_picture(Triangle.hexagon(1), "#..#.#", keep_goal=False)
    ex = explain(p.replace(rules=(NoTopCell(),)), verdict_timeout=5)
    assert ex.status == "none" and not ex.solved and ex.difficulty["level"] == "none"
    assert ex.note == "no solution: the rule no-top cannot be kept with the known cells"
    assert explain(p.replace(rules=(lane_rule_from("count:=3"),))).solved


# --- the commands ---------------------------------------------------------------------------------------

def _run(*args: str):
    return CliRunner().invoke(cli, list(args))


def _decided() -> tuple[LanePuzzle, list[str], str]:
    """A case whose explanation takes a rule step and is solved by line and rule logic."""
    for p, specs, givens in CASES:
        q = _with(p, specs, givens)
        ex = explain(q, max_depth=0, verdict_timeout=5)
        if ex.solved and any(st.kind == "rule" for st in ex.steps) and q.geometry.cell_count > 6:
            return q, list(specs), ex.picture
    raise AssertionError("no case decided by a rule step")


def test_explain_hint_classify_on_the_command_line(tmp_path):
    q, specs, picture = _decided()
    f = tmp_path / "rules.json"
    f.write_text(dumps(q, "json"))
    r = _run("explain", str(f))
    assert r.exit_code == 0, r.output
    assert re.search(r"^\d+\. by the rule (count|connected)\S* \(", r.output, re.M)
    assert r.output.splitlines()[-1] == "solved: every cell is settled"
    d = json.loads(_run("explain", "--json", str(f)).output)
    rule = next(st for st in d["steps"] if st["kind"] == "rule")
    assert rule["line"] == "rule" and rule["clue"] == [] and all(isinstance(c, int) for c, _ in rule["cells"])
    assert "name" not in rule and d["solved"] and d["difficulty"]["level"] == "line"
    # the same puzzle without its rules in the file, the rules from --rule
    bare = tmp_path / "bare.json"
    bare.write_text(dumps(q.replace(rules=()), "json"))
    args = [a for s in specs for a in ("--rule", s)]
    assert _run("explain", *args, str(bare)).output.split("\n", 1)[1] == r.output.split("\n", 1)[1]
    # hint: the first step; the rows drawn after it
    rows = q.geometry.text_rows("?" * q.geometry.cell_count)
    s = tmp_path / "state.txt"
    s.write_text("\n".join(rows) + "\n")
    h = _run("hint", str(f), "--state", str(s))
    assert h.exit_code == 0 and h.output.startswith("step: "), h.output
    assert h.output.splitlines()[0][len("step: "):] == r.output.splitlines()[1].split(". ", 1)[1]
    # the grade: check --grade and classify --probe
    g = _run("check", "--grade", str(f))
    assert g.exit_code == 0 and "  grade: line logic only" in g.output, g.output
    rec = classify_puzzle(q, probing=True)
    assert rec["level"] == "line" and rec["level_exact"] and "not graded" not in (rec.get("reason") or "")
