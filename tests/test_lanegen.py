"""Generating triddlers (satnono.generation over a satnono.lanegen shape, ``satnono generate
--shape``): every accepted puzzle meets its requirement when settled again from its clues alone,
small ones against a brute-force count written here; reproducibility by seed and across workers;
colours and styles; the CLI's files read back by ``satnono check``; bad shapes as usage errors."""

from __future__ import annotations

import itertools
import json
import os
from functools import lru_cache

import pytest
from click.testing import CliRunner

from satnono.cli import cli
from satnono.formats import load
from satnono.lanecheck import settle_lanes
from satnono.generation import GenerateSpec, canvas_for, draw, evaluate_chunk, generate_on
from satnono.lanegen import parse_shape, shape_label
from satnono.lanepuzzle import LanePuzzle
from satnono.lanes import Triangle
from satnono.results import Status

SHAPES = ["hexagon:3", "parallelogram:3x4", "triangle:6"]


def resettled(p: LanePuzzle):
    """The verdict on the puzzle's clues alone (its goal dropped)."""
    return settle_lanes(p.replace(goal=None))


def meets(p: LanePuzzle, require: str) -> bool:
    r = resettled(p)
    if require == "line":
        return r.status is Status.UNIQUE and r.line_solvable
    if require == "unique":
        return r.status is Status.UNIQUE
    assert require == "search"
    return r.status is Status.UNIQUE and not r.line_solvable


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("require", ["line", "unique", "search"])
def test_each_requirement_on_each_shape(shape, require):
    geometry = parse_shape(shape)
    for seed in (0, 1, 2):
        g = generate_on(geometry, 2, seed=seed, require=require, max_candidates=3000)
        puzzles = list(g)
        assert len(puzzles) == 2 and not g.exhausted, (shape, require, seed, g.stats.as_dict())
        for p in puzzles:
            assert p.geometry == geometry and p.goal is not None
            assert p.is_solution(p.goal)
            assert meets(p, require), (shape, require, seed, p.name)
            cls = dict(p.meta)["class"]
            assert cls == ("line" if resettled(p).line_solvable else "search")
            assert cls == {"line": "line", "search": "search"}.get(require, cls)
            assert resettled(p).solutions[0] == p.goal
            filled = sum(ch != "." for ch in p.goal)
            assert 0.2 * geometry.cell_count - 1e-9 <= filled <= 0.7 * geometry.cell_count + 1e-9
        assert g.stats.accepted == 2 and g.stats.tried >= 2


# ---------------------------------------------------------------------------
# an independent oracle: every picture of a small grid, its clues computed here


def clue_key(lanes, cells: str) -> tuple:
    key = []
    for lane in lanes:
        lengths: list[int] = []
        colours: list[str] = []
        prev = "."
        for i in lane:
            ch = cells[i]
            if ch != ".":
                if ch == prev:
                    lengths[-1] += 1
                else:
                    lengths.append(1)
                    colours.append(ch)
            prev = ch
        key.append(tuple(zip(lengths, colours)))
    return tuple(key)


@lru_cache(maxsize=None)
def picture_counts(shape: str) -> dict:
    g = parse_shape(shape)
    lanes = [lane.cells for lane in g.lanes()]
    counts: dict = {}
    for bits in itertools.product(".#", repeat=g.cell_count):
        k = clue_key(lanes, "".join(bits))
        counts[k] = counts.get(k, 0) + 1
    return counts


@pytest.mark.parametrize("shape", ["triangle:4", "parallelogram:2x4"])
def test_unique_against_brute_force(shape):
    geometry = parse_shape(shape)
    lanes = [lane.cells for lane in geometry.lanes()]
    counts = picture_counts(shape)
    for require in ("line", "unique", "search"):
        g = generate_on(geometry, 3, seed=5, require=require, max_candidates=4000)
        got = list(g)
        if require != "search":
            assert len(got) == 3
        for p in got:
            assert counts[clue_key(lanes, p.goal)] == 1, (shape, require, p.name)
    # and what is rejected as ambiguous has another picture of the same clues
    spec = GenerateSpec(canvas_for(geometry), 5, 0.2, 0.7, "unique", "noise", 0, None)
    for i in range(40):
        verdict = evaluate_chunk(spec, i, i + 1)[0][1]
        picture = "".join(".#"[v] for v in draw(spec, i).tolist())
        if verdict == "ambiguous":
            assert counts[clue_key(lanes, picture)] > 1
        elif verdict == "accept":
            assert counts[clue_key(lanes, picture)] == 1


# ---------------------------------------------------------------------------
# reproducibility, colours, styles


def test_the_same_seed_gives_the_same_puzzles():
    geometry = parse_shape("hexagon:3")
    first = [(p.name, p.goal, p.clues) for p in generate_on(geometry, 3, seed=7, require="unique")]
    again = [(p.name, p.goal, p.clues) for p in generate_on(geometry, 3, seed=7, require="unique")]
    other = [(p.name, p.goal, p.clues) for p in generate_on(geometry, 3, seed=8, require="unique")]
    assert first == again and first != other
    assert all(name.startswith("gen-hexagon3-7-") for name, _, _ in first)
    spec = GenerateSpec(canvas_for(geometry), 7, 0.2, 0.7, "line", "smooth", 0, None, colors=2)
    assert (draw(spec, 3) == draw(spec, 3)).all()


@pytest.mark.parametrize("style", ["noise", "smooth"])
def test_colours(style):
    geometry = parse_shape("parallelogram:3x4")
    g = generate_on(geometry, 4, seed=3, require="unique", colors=3, style=style)
    puzzles = list(g)
    assert len(puzzles) == 4
    for p in puzzles:
        assert [c.char for c in p.palette] == [".", "a", "b", "c"]
        assert set(p.goal) <= set(".abc")
        assert meets(p, "unique")
    assert set("".join(p.goal for p in puzzles)) == set(".abc")


def test_smooth_gathers_filled_cells():
    """Smooth pictures have more filled neighbours per filled cell than noise at the same density."""
    geometry = parse_shape("hexagon:6")

    def together(style: str) -> float:
        spec = GenerateSpec(canvas_for(geometry), 1, 0.5, 0.5, "any", style, 0, None)
        same = total = 0
        for i in range(5):
            v = draw(spec, i)
            for c in range(geometry.cell_count):
                for m in geometry.neighbours(c):
                    total += 1
                    same += v[c] == v[m]
        return same / total

    assert together("smooth") > together("noise") + 0.1


def test_shapes():
    assert parse_shape("hexagon:4") == Triangle.hexagon(4)
    assert parse_shape(" Parallelogram : 3 X 5 ") == Triangle.parallelogram(3, 5)
    assert parse_shape("triangle:6") == Triangle.triangle(6)
    assert parse_shape("sides:2,1,2,2,1,2") == Triangle.from_sides(2, 1, 2, 2, 1, 2)
    assert [shape_label(parse_shape(s)) for s in ("hexagon:4", "parallelogram:3x5", "triangle:6", "sides:2,1,2,2,1,2")] \
        == ["hexagon4", "parallelogram3x5", "triangle6", "sides2-1-2-2-1-2"]
    for bad in ("", "hexagon", "hexagon:", "hexagon:0", "hexagon:-1", "hexagon:61", "hexagon:2x3", "square:3",
                "parallelogram:3", "parallelogram:0x4", "triangle:a", "sides:1,2,3", "sides:1,1,1,1,1,2"):
        with pytest.raises(ValueError) as e:
            parse_shape(bad)
        assert "\n" not in str(e.value)


def test_bad_arguments():
    g = parse_shape("triangle:3")
    for kwargs in ({"count": -1}, {"density": (0.8, 0.2)}, {"require": "hard"}, {"style": "blobs"},
                   {"colors": 0}, {"workers": 0}, {"seed": -1}):
        args = {"count": 1, **kwargs}
        with pytest.raises(ValueError):
            generate_on(g, **args)
    with pytest.raises(ValueError):
        generate_on("hexagon:3", 1)  # type: ignore[arg-type]


def test_max_candidates_runs_out():
    g = generate_on(parse_shape("hexagon:3"), 5, seed=1, density=(0.2, 0.25), max_candidates=4)
    assert len(list(g)) < 5 and g.exhausted and g.stats.tried == 4


# ---------------------------------------------------------------------------
# command line


def run(*args):
    return CliRunner().invoke(cli, list(args))


def check_json(path: str) -> dict:
    r = run("check", "--json", path)
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout.splitlines()[0])


@pytest.mark.parametrize("shape,require,fmt", [
    ("hexagon:3", "line", None), ("parallelogram:3x5", "search", "json"), ("triangle:6", "unique", "g"),
    ("hexagon:2", "unique", "xml"),
])
def test_cli_files_read_back_by_check(tmp_path, shape, require, fmt):
    out = tmp_path / "set"
    args = ["generate", "--shape", shape, "--count", "3", "--seed", "2", "--require", require, "--out", str(out)]
    r = run(*(args + (["--format", fmt] if fmt else [])))
    assert r.exit_code == 0, r.output
    suffix = fmt or "xml"
    names = sorted(os.listdir(out))
    assert names == [f"puzzle-000{k}.{suffix}" for k in (1, 2, 3)]
    assert "generated 3 of 3 triddlers" in r.stderr
    for name in names:
        d = check_json(str(out / name))
        assert d["geometry"] == parse_shape(shape).as_json() and d["status"] == "unique"
        assert d["line_solvable"] is (require == "line") or require == "unique"
        if require == "search":
            assert d["line_solvable"] is False
        p = load(str(out / name))
        assert isinstance(p, LanePuzzle)
        if suffix != "g":  # .g keeps no goal
            assert p.goal == d["solutions"][0]


def test_cli_stdout_colours_and_workers():
    args = ["generate", "--shape", "triangle:5", "--count", "3", "--seed", "4", "--require", "unique", "--colors", "2"]
    r = run(*args)
    assert r.exit_code == 0, r.output
    docs = [json.loads(line) for line in r.stdout.splitlines()]
    assert len(docs) == 3
    for d in docs:
        assert d["geometry"]["kind"] == "triangle" and len(d["goal"]) == 25 and d["title"].startswith("gen-triangle5-4-")
    assert "2 colours" in r.stderr
    again = run(*(args + ["--workers", "2"]))
    assert again.exit_code == 0, again.output
    assert again.stdout == r.stdout


@pytest.mark.parametrize("args,says", [
    (["--shape", "hex:3"], "--shape"), (["--shape", "hexagon:0"], "--shape"), (["--shape", "parallelogram:3"], "--shape"),
    (["--shape", "sides:1,1,1,1,1,2"], "--shape"), (["--shape", "hexagon:3", "--size", "5x5"], "do not go together"),
    ([], "--size WxH"), (["--shape", "hexagon:3", "--format", "pbm", "--out", "x"], "--format pbm"),
    (["--shape", "hexagon:3", "--format", "xml"], "needs --out"), (["--shape", "hexagon:3", "--blot", "--require", "any"], "--blot"),
    (["--shape", "hexagon:3", "--rule", "symmetric:left-right"], "--rule"), (["--size", "5x5", "--format", "g", "--out", "x"], "triddlers"),
    (["--shape", "hexagon:3", "--min-open", "2"], "--min-open"),
])
def test_cli_bad_shapes_are_usage_errors(tmp_path, args, says):
    r = CliRunner().invoke(cli, ["generate", "--count", "1", "--seed", "1"] + args)
    assert r.exit_code == 2, (args, r.output)
    errors = [line for line in r.stderr.splitlines() if line.startswith("Error:")]
    assert len(errors) == 1 and says in errors[0], r.stderr
    assert not os.path.exists("x")
