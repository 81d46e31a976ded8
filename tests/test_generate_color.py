"""generate --colors K: seeded colour puzzles that meet their requirement."""

from __future__ import annotations

import pytest

from satnono import check
from satnono.generation import generate
from satnono.model import default_palette


@pytest.mark.parametrize("require", ["line", "unique", "search"])
@pytest.mark.parametrize("style", ["noise", "smooth"])
def test_requirements_hold(require, style):
    g = generate(10, 8, 3, seed=5, require=require, style=style, colors=2, density=(0.3, 0.7),
                 max_candidates=5000)
    puzzles = list(g)
    assert len(puzzles) == 3
    for p in puzzles:
        assert p.is_color and p.palette == default_palette(2)
        cells = p.width * p.height
        filled = sum(ch != "." for row in p.goal for ch in row)
        assert 0.3 * cells - 1e-9 <= filled <= 0.7 * cells + 1e-9
        r = check(p)
        assert r.status.value == "unique" and r.solutions[0] == p.goal
        if require == "line":
            assert r.line_solvable
        if require == "search":
            assert not r.line_solvable


def test_deterministic_and_independent_of_workers():
    a = [p.goal for p in generate(12, 12, 4, seed=9, colors=4, require="unique")]
    b = [p.goal for p in generate(12, 12, 4, seed=9, colors=4, require="unique")]
    c = [p.goal for p in generate(12, 12, 4, seed=9, colors=4, require="unique", workers=2)]
    assert a == b == c
    assert len({ch for g in a for row in g for ch in row}) == 5  # background and four colours


def test_black_and_white_output_unchanged_by_the_colour_option():
    """colors=1 is the black-and-white generator, candidate for candidate."""
    a = [p.goal for p in generate(8, 8, 3, seed=2)]
    b = [p.goal for p in generate(8, 8, 3, seed=2, colors=1)]
    assert a == b and all(set("".join(g)) <= {"#", "."} for g in a)


def test_bad_colour_count():
    with pytest.raises(ValueError):
        generate(5, 5, 1, colors=0)
    with pytest.raises(ValueError):
        generate(5, 5, 1, colors=33)
