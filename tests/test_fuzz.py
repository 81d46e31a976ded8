"""Fuzzing every reader with mutated valid files (a bounded run; scripts/fuzz.py runs longer).

See tests/_fuzz.py for the targets, the mutations and the property: only the documented
ParseError may escape a reader, and what is read is sound (small puzzles get a verdict
whose solutions satisfy the clues; unsatisfiable clues give a clean 'none').
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from _fuzz import TARGETS, check_input, mutated
from satnono.errors import UnsupportedPuzzle
from satnono.formats import FORMATS


def test_every_reader_is_a_target():
    names = {t.name for t in TARGETS}
    assert set(FORMATS) <= names and {"sniff", "FILE#k", "pbm-bytes", "ppm-bytes"} <= names
    for t in TARGETS:
        assert t.pool(), f"no seed files for {t.name}"


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
def test_seeds_are_read(target):
    """The unmutated seeds are valid files (else the mutations would test little)."""
    if target.name == "FILE#k":
        return
    class _Fixed:
        def draw(self, strategy):
            if target.name == "level":
                return True  # the seed is the .level file (a picture seed then fails: skipped below)
            return "dat" if target.name in ("sniff", "ppm-bytes") else "1"

    for data in target.pool():
        if target.name == "level" and data.startswith(b"P"):
            continue  # a picture seed, mutated as the level's .pbm
        try:
            puzzles = target.read(data, _Fixed())  # no exception: every seed reads
        except UnsupportedPuzzle:  # triangle colours and the like: refused on purpose
            continue
        assert puzzles


@pytest.mark.parametrize("target", TARGETS, ids=lambda t: t.name)
@settings(max_examples=150, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(d=st.data())
def test_mutated_files_read_or_give_parse_error(target, d):
    data = mutated(d, target.pool())
    check_input(target, data, d)
