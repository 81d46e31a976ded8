"""Verdicts on the shared corpus: survey classification and tournament solutions.

Skipped when ../shared/corpus is absent.
"""

from __future__ import annotations

import csv

import pytest

from satnono import Checker, Status, load_all


def test_survey_black_and_white_verdicts(corpus):
    """Every survey puzzle but Knotty and Faase: unique, and line-solvable exactly as published."""
    summary = {}
    with open(corpus / "results" / "survey-sample-summary.csv", newline="") as f:
        for row in csv.DictReader(f):
            summary[row["name"]] = row
    checker = Checker()
    names = {1: "Dancer", 6: "Cat", 16: "Knot", 21: "Skid", 23: "Edge", 27: "Bucks", 65: "Mum",
             436: "Petro", 529: "Swing", 803: "Light", 1611: "Merka", 6574: "Forever"}
    for num, name in names.items():
        (p,) = load_all(str(corpus / "webpbn-survey" / f"webpbn-{num:05d}.xml"))
        res = checker.check(p, timeout=60)
        assert res.status is Status.UNIQUE, name
        assert res.line_solvable == summary[name]["line_solvable"].startswith("yes"), name
        assert res.solutions[0] == p.goal


def test_dom_unique(corpus):
    checker = Checker()
    for n in range(3, 13):
        (p,) = load_all(str(corpus / "webpbn-survey" / "dom" / f"{n}-dom.xml"))
        res = checker.check(p, timeout=60)
        assert res.status is Status.UNIQUE and not res.line_solvable
        assert p.is_solution(res.solutions[0])


def test_colour_puzzles_read(corpus):
    for f in (corpus / "webpbn-survey").glob("webpbn-color-*.xml"):
        [p] = load_all(str(f))
        assert p.is_color and p.goal is not None and p.is_solution(p.goal)


def _solutions(path):
    sols, cur = {}, None
    for line in path.read_text().replace("\r", "").split("\n"):
        if line.startswith("$"):
            cur = int(line[1:])
            sols[cur] = []
        elif line.strip() and cur is not None:
            sols[cur].append("".join("#" if x == "1" else "." for x in line.split("\t")))
    return {k: tuple(v) for k, v in sols.items()}


@pytest.mark.parametrize("name", ["taai2011", "icga2017", "icga2020"])
def test_tournament_sample_against_published_solutions(corpus, name):
    """A spread sample of each tournament file: the published solution satisfies the clues; unique
    verdicts reproduce it; multiple verdicts give two distinct solutions."""
    puzzles = load_all(str(corpus / "tournament" / "nonogramrecord" / "question" / f"{name}.txt"))
    published = _solutions(corpus / "tournament" / "nonogramrecord" / "solution" / f"{name}.txt")
    assert len(puzzles) == 1000
    checker = Checker()
    for k in range(0, 1000, 40):
        p = puzzles[k]
        sol = published[k + 1]
        assert p.is_solution(sol)
        res = checker.check(p, timeout=120)
        assert res.status in (Status.UNIQUE, Status.MULTIPLE)
        if res.status is Status.UNIQUE:
            assert res.solutions[0] == sol
        else:
            assert res.solutions[0] != res.solutions[1]
            assert all(p.is_solution(s) for s in res.solutions)
