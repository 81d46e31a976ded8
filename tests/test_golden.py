"""Golden verdicts over the bundled puzzles (puzzles/expected.txt)."""

from __future__ import annotations

import pytest

from satnono import Checker, Status, load

from conftest import PUZZLES  # noqa: E402


def _expected():
    for line in (PUZZLES / "expected.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip() if line.startswith("#") else line.strip()
        if not line:
            continue
        path, status, line_solvable, *flags = line.split()
        yield path, status, line_solvable, flags


CASES = [c[:3] for c in _expected() if "slow" not in c[3]]
_checker = Checker()


def test_golden_file_covers_every_bundled_puzzle():
    listed = {c[0] for c in _expected()}
    on_disk = {
        str(f.relative_to(PUZZLES))
        for f in PUZZLES.rglob("*")
        if f.suffix in {".xml", ".non", ".nin"} and f.is_file()
    }
    assert on_disk == listed


@pytest.mark.parametrize("path,status,line_solvable", CASES, ids=[c[0] for c in CASES])
def test_golden(path, status, line_solvable):
    p = load(str(PUZZLES / path))
    res = _checker.check(p, timeout=60)
    assert res.status.value == status
    assert res.line_solvable == (line_solvable == "yes")
    for s in res.solutions:
        assert p.is_solution(s)
    if res.status is Status.UNIQUE and p.goal is not None:
        assert res.solutions[0] == p.goal
    if res.status is Status.MULTIPLE:
        assert res.solutions[0] != res.solutions[1] and res.diff
