from __future__ import annotations

from pathlib import Path

import pytest


ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture
def corpus() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("shared corpus not available")
    return CORPUS


@pytest.fixture
def phases_given(monkeypatch) -> list[list[int]]:
    """Every list of phases a settle hands its SAT session (``SatSession.set_phases``), in order,
    filled as the test runs."""
    from satnono import sat

    calls: list[list[int]] = []
    real = sat.SatSession.set_phases

    def spy(self, literals):  # type: ignore[no-untyped-def]
        calls.append(list(literals))
        return real(self, literals)

    monkeypatch.setattr(sat.SatSession, "set_phases", spy)
    return calls


@pytest.fixture(autouse=True)
def _command_line_state():
    """A command run in this process (click's CliRunner, or ``main([...])``) leaves what its options
    set for every later read: ``--rule`` (``formats.EXTRA_RULES``), ``--background``
    (``formats.DEFAULT_BACKGROUND``) and ``--max-memory`` (``memory.LIMIT``); a real run exits
    with it.  Each test starts from the defaults."""
    yield
    from satnono import memory
    from satnono.formats import DEFAULT_BACKGROUND, EXTRA_RULES

    EXTRA_RULES.set(())
    DEFAULT_BACKGROUND.set(None)
    memory.LIMIT.set("auto")
