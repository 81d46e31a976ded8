"""diagnose and classify on colour puzzles, against brute force."""

from __future__ import annotations

import pytest

import random

from satnono.classify import classify_puzzle
from satnono.diagnose import count_color_placements, diagnose
from satnono.model import Puzzle
from tests._brute_color import blocks_of, char_of, grid_solutions, line_placements
from tests._oracles import PAL2, palette


def test_color_placements_match_brute_force():
    rng = random.Random(12)
    for _ in range(1500):
        k = rng.randint(2, 4)
        n = rng.randint(1, 10)
        cells = "".join(char_of(rng.choice([0, 0] + list(range(1, k + 1)))) for _ in range(n))
        lengths, colors = blocks_of(cells)
        excluded = [0] * (k + 1)
        for i in range(n):
            for v in range(k + 1):
                if rng.random() < 0.1:
                    excluded[v] |= 1 << i
        want = sum(
            1 for line, _ in line_placements(lengths, colors, n)
            if not any((excluded[0 if ch == "." else ord(ch) - 96] >> i) & 1 for i, ch in enumerate(line))
        )
        assert count_color_placements(lengths, colors, n, excluded) == want


def test_ambiguity_region_is_where_solutions_disagree():
    rng = random.Random(13)
    multiple = 0
    for _ in range(80):
        k = rng.choice((2, 3))
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        grid = tuple("".join(rng.choice("." * k + "abc"[:k]) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        sols = grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors)
        d = diagnose(p)
        want = "unique" if len(sols) == 1 else "multiple"
        assert d.status == want
        region = sorted({(r, c) for s in sols for r in range(h) for c in range(w) if s[r][c] != sols[0][r][c]})
        if want == "multiple":
            multiple += 1
            assert d.ambiguous == region and d.ambiguity_complete
        for r, c in d.undetermined:
            assert d.after_line[r][c] == "?"
        for r, row in enumerate(d.after_line):
            for c, ch in enumerate(row):
                if ch != "?":
                    assert all(s[r][c] == ch for s in sols)
        for o in d.open_lines:
            assert o.placements > 1 and o.colors is not None
    assert multiple > 5


def test_conflicting_colour_lines():
    """A row asks for red where every crossing column asks for blue: `none` with a minimal set of lines."""
    p = Puzzle.from_clues(rows=[[(2, "a")], [(2, "b")]], columns=[[(1, "b"), (1, "a")], [(1, "b"), (1, "a")]],
                          palette=PAL2)
    assert not p.sum_mismatch()
    d = diagnose(p)
    assert d.status == "none" and d.conflict and d.conflict_minimal
    rec = classify_puzzle(p)
    assert rec["class"] == "none"


def test_sum_mismatch_names_the_colour():
    p = Puzzle.from_clues(rows=[[(1, "a")]], columns=[[(1, "b")]], palette=PAL2)
    d = diagnose(p)
    assert d.status == "none" and "c1" in d.reason


def test_classify_with_probing_in_colour():
    rng = random.Random(14)
    seen = set()
    for _ in range(60):
        k = rng.choice((2, 3))
        h, w = rng.randint(2, 4), rng.randint(2, 4)
        grid = tuple("".join(rng.choice("." * k + "abc"[:k]) for _ in range(w)) for _ in range(h))
        p = Puzzle.from_grid(grid, palette=palette(k))
        rec = classify_puzzle(p, probing=True, max_solutions=1000)
        n = len(grid_solutions(p.rows, p.row_colors, p.columns, p.column_colors, limit=1001))
        assert rec["count"] == n and rec["count_exact"]
        if rec["class"] in ("line", "search"):
            assert rec["level"] in ("line", "probe", "probe2", "search")
            seen.add(rec["level"])
        else:
            assert rec["class"] == "multiple"
    assert "line" in seen


def test_conflicting_colour_lines_are_listed_with_their_colours(tmp_path):
    import json as _json

    from click.testing import CliRunner

    from satnono.cli import cli

    path = tmp_path / "cc.json"
    path.write_text(_json.dumps({"colors": {"a": "#ff0000", "b": "#0000ff"},
                                 "rows": [[[1, "a"], [1, "b"]], [[1, "b"], [1, "a"]]],
                                 "columns": [[[1, "a"], [1, "b"]], [[1, "a"], [1, "a"]]]}))
    run = CliRunner().invoke
    assert "column 2 [1a 1a]" in run(cli, ["diagnose", str(path)]).stdout
    d = _json.loads(run(cli, ["diagnose", "--json", str(path)]).stdout)
    assert d["conflict"] == [{"axis": "column", "index": 1, "clue": [1, 1], "colors": ["a", "a"]}]


def _text_box(it, em: float):
    """The horizontal extent of a layout text item, as the layout itself estimates widths."""
    w = len(it.text) * em * it.size
    x = it.x - (w if it.anchor == "end" else w / 2 if it.anchor == "middle" else 0)
    return x, x + w


@pytest.mark.parametrize("seed", range(12))
def test_picture_marks_differ_from_every_palette_colour_and_text_fits(seed):
    """Diagnose pictures: the undetermined, ambiguous and conflict marks stay apart from every
    colour of the puzzle (orange #FFAC2B was the undetermined yellow's twin) and every text
    fits the canvas, small and large, colour and black and white (issue 20, item 4)."""
    import random as _random

    from satnono import render
    from satnono.diagnose import diagnose
    from satnono.model import Color, Puzzle

    rng = _random.Random(seed)
    k = rng.randint(1, 5)
    near = [(0xFF, 0xAC, 0x2B), (0xF2, 0xC9, 0x4C), (0xE5, 0x39, 0x35), (0x8E, 0x24, 0xAA)]
    rgbs = [rng.choice(near) if rng.random() < 0.5 else tuple(rng.randrange(256) for _ in range(3)) for _ in range(k)]
    rgbs = list(dict.fromkeys(rgbs))
    pal = (Color("white", ".", (255, 255, 255)),) + tuple(
        Color(f"c{i}", "abcde"[i], rgb) for i, rgb in enumerate(rgbs))
    h, w = rng.choice([(1, 3), (3, 1), (5, 5), (12, 9), (30, 25)])
    grid = ["".join(rng.choice(".." + "abcde"[:len(rgbs)]) for _ in range(w)) for _ in range(h)]
    p = Puzzle.from_grid(grid, palette=pal) if len(pal) > 2 else Puzzle.from_grid(
        [r.replace("a", "#") for r in grid])
    marks = render.mark_colours(p.palette)
    for level, rgb in marks.items():
        assert all(render._distance(rgb, c.rgb) >= render.MARK_DISTANCE for c in p.palette), (level, rgb)
    lay = render.layout(diagnose(p, timeout=5))
    for it in lay.items:
        if isinstance(it, render._Text) and not it.rotate:
            x1, x2 = _text_box(it, render._EM)
            assert 0 <= x1 and x2 <= lay.width, (it.text, x1, x2, lay.width)
            assert 0 < it.y <= lay.height
