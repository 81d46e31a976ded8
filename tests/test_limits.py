"""The deadline reaches every phase of a settle, and the memory limit refuses a CNF too large to
hold, before it is built (issue 42, item 2).

Timing is never measured here (scripts/bench.py limits does that on whole processes): a phase
is made to outlast its deadline by a progress callback that moves the deadline's clock past it
when the phase starts, so each test knows which phase the deadline met.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time

import pytest

from satnono import Checker, Puzzle, Status
from satnono import memory
from satnono import sat as sat_module
from satnono.cnf.encode import encode, estimate
from satnono.lines import LineSolver
from satnono.logic import beliefs
from satnono.logic.propagate import propagate
from satnono.logic.state import Deadline, initial_state
from satnono.model import default_palette
from satnono.sat import FEED_SLICE, SatSession, memory_needed


def _picture(seed: int, n: int, colours: int = 1, fill: float = 0.5, blots: bool = False) -> Puzzle:
    rng = random.Random(seed)
    pal = default_palette(colours)
    chars = "".join(c.char for c in pal)[1:]
    grid = tuple("".join(rng.choice(chars) if rng.random() < fill else "." for _ in range(n)) for _ in range(n))
    p = Puzzle.from_grid(grid, palette=pal, goal=None)
    if blots:  # black and white: every third clue's first block hidden

        def blot(clues) -> list:
            return [["?", *c.lengths[1:]] if i % 3 == 0 and c.lengths else list(c.lengths)
                    for i, c in enumerate(clues)]
        p = Puzzle.from_clues(blot(p.row_clues), blot(p.column_clues))
    return p


def _open_state(p: Puzzle):
    lines = LineSolver()
    st = initial_state(p)
    assert propagate(st, lines) is None
    return st, lines


KINDS = {
    "black and white": dict(colours=1),
    "colour": dict(colours=3, fill=0.6),
    "blotted": dict(colours=1, blots=True),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("seed", range(6))
def test_the_estimate_counts_variables_exactly_and_clauses_from_above(kind: str, seed: int) -> None:
    st, lines = _open_state(_picture(seed, 18 + 5 * seed, **KINDS[kind]))
    if not st.unknown_count():
        pytest.skip("line logic settled this picture")
    enc = encode(st, lines)
    nvars, nclauses = estimate(st, lines)
    if kind != "blotted":  # (a blotted line's end ladders are counted as long as its start ladders)
        assert nvars == enc.nvars
    else:
        assert enc.nvars <= nvars <= 2 * enc.nvars
    assert enc.nclauses <= nclauses <= 2 * enc.nclauses


def test_a_settle_over_the_memory_limit_is_unknown_before_anything_is_encoded() -> None:
    p = _picture(1, 60)
    st, lines = _open_state(p)
    need = memory_needed(*estimate(st, lines))
    refused = Checker(max_memory=need // 2).check(p)
    assert refused.status is Status.UNKNOWN
    assert "memory limit" in refused.reason and "(--max-memory to raise it)" in refused.reason
    assert refused.stats.cnf_vars == 0 and refused.stats.sat_calls == 0
    settled = Checker(max_memory=need * 2).check(p)
    assert settled.status is not Status.UNKNOWN and settled.stats.sat_calls >= 1
    assert Checker(max_memory=None).check(p).status is settled.status


def test_the_limit_in_force_comes_from_the_context_then_the_environment(monkeypatch) -> None:
    monkeypatch.delenv(memory.ENV, raising=False)
    assert memory.current() == memory.default_limit()
    total = memory.physical_memory()
    assert memory.default_limit() == min(total // 2, memory.DEFAULT_CAP)
    assert memory.default_limit(64) == pytest.approx(total / 2 / 64, abs=1)
    monkeypatch.setenv(memory.ENV, "3G")
    assert memory.current() == 3 << 30
    monkeypatch.setenv(memory.ENV, "none")
    assert memory.current() is None
    token = memory.LIMIT.set(5 << 20)
    try:
        assert memory.current() == 5 << 20
        p = _picture(1, 60)
        assert "memory limit of 5.0 MB" in Checker().check(p).reason  # "auto": the limit in force
        assert Checker(max_memory=None).check(p).status is not Status.UNKNOWN
    finally:
        memory.LIMIT.reset(token)
    # what a batch worker runs carries the limit with it
    wrapped = memory.Limited(lambda item: (item, memory.current()), 7 << 20)
    assert wrapped("x") == ("x", 7 << 20) and memory.LIMIT.get() == "auto"


@pytest.mark.parametrize("text", ["", "2X", "-1G", "0", "G", "1.5.2M"])
def test_a_bad_memory_limit_is_refused(text: str) -> None:
    with pytest.raises(ValueError):
        memory.parse_limit(text)


def test_the_physical_memory_is_known_here() -> None:
    total = memory.physical_memory()
    assert total is not None and total > 64 << 20


class _Clock:
    """A progress callback that puts the settle's deadline in the past when ``phase`` starts, by
    moving the clock (``time.monotonic``) forward."""

    def __init__(self, monkeypatch, phase: str) -> None:
        self.phase, self.skew, self.seen = phase, 0.0, []
        real = time.monotonic
        monkeypatch.setattr(time, "monotonic", lambda: real() + self.skew)

    def __call__(self, phase: str, share) -> None:
        self.seen.append(phase)
        if phase == self.phase:
            self.skew = 10_000.0


@pytest.mark.parametrize("kind", KINDS)
def test_the_deadline_reaches_the_encoding(monkeypatch, kind: str) -> None:
    p = _picture(2, 40, **KINDS[kind])
    clock = _Clock(monkeypatch, "encoding")
    r = Checker(progress=clock).check(p, timeout=100)
    assert clock.seen[-1] == "encoding"
    assert r.status is Status.UNKNOWN and r.reason == "timed out while encoding the open cells for the SAT solver"
    assert r.stats.sat_calls == 0


def test_the_deadline_reaches_the_hints(monkeypatch) -> None:
    search = _picture(8, 28, colours=2)  # tests/test_sat_deadline.py's SEARCH: its first try runs out
    clock = _Clock(monkeypatch, "hints")
    raised = []
    real = beliefs.phase_hints

    def spy(state, rounds=None, deadline=None):
        try:
            return real(state, rounds, deadline)
        except Deadline:
            raised.append(deadline)
            raise

    monkeypatch.setattr(beliefs, "phase_hints", spy)
    r = Checker(progress=clock).check(search, timeout=100)
    assert clock.seen[-1] == "hints" and len(raised) == 1
    assert r.status is Status.UNKNOWN and r.reason == "timed out before a first solution was found"


def test_the_deadline_reaches_the_second_search(monkeypatch) -> None:
    p = _picture(2, 40)
    clock = _Clock(monkeypatch, "proof")
    r = Checker(progress=clock).check(p, timeout=100)
    assert clock.seen[-1] == "proof"
    assert r.status is Status.UNKNOWN and len(r.solutions) == 1
    assert r.reason == "found a solution, but timed out before proving it unique"


def test_hints_stop_at_their_deadline_in_c_and_in_python() -> None:
    st, _ = _open_state(_picture(3, 30))
    with pytest.raises(Deadline):
        beliefs.phase_hints(st, deadline=time.monotonic() - 1)
    for impl in filter(None, (beliefs.lane_hints, getattr(beliefs._native, "lane_hints", None))):
        args = (1, 2, [[0], [0]], [((1,), (1,), ())] * 2, [3], 20, 0.5, 1e-7, 1e-4)
        assert impl(*args, time.monotonic() - 1) is None
        assert impl(*args, time.monotonic() + 1e6) == impl(*args)


def test_a_long_list_of_clauses_is_handed_over_in_slices_that_keep_the_deadline() -> None:
    clauses = [[i, i + 1] for i in range(1, FEED_SLICE + 10)]
    with SatSession() as s:
        assert s.add_clauses(clauses, deadline=time.monotonic() - 1) is False
    with SatSession() as s:
        assert s.add_clauses(clauses, deadline=time.monotonic() + 1e6) is True
        assert s.solve() is True


def test_a_settle_that_ran_out_of_time_answers_first_and_frees_its_solver_before_the_next(monkeypatch) -> None:
    p = _picture(2, 40)
    clock = _Clock(monkeypatch, "proof")
    checker = Checker(progress=clock)
    assert checker.check(p, timeout=100).status is Status.UNKNOWN
    held = [thing for until, thing in sat_module._LATE.items if until == 0.0]
    assert len(held) == 1 and held[0].solver is not None  # answered, its solver not freed yet
    clock.skew, clock.phase = 0.0, "never"
    assert checker.check(_picture(3, 12)).status is not Status.UNKNOWN
    assert not [thing for until, thing in sat_module._LATE.items if until == 0.0]  # freed before it ran


def test_the_command_line_takes_max_memory(tmp_path) -> None:
    from satnono.formats import save

    f = tmp_path / "p.non"
    save(_picture(1, 60), str(f))
    run = [sys.executable, "-m", "satnono", "check"]
    out = subprocess.run([*run, "--max-memory", "1M", str(f)], capture_output=True, text=True)
    assert out.returncode == 5 and "memory limit of 1.0 MB (--max-memory to raise it)" in out.stdout, out
    out = subprocess.run([*run, "--max-memory", "none", str(f)], capture_output=True, text=True)
    assert out.returncode in (0, 3) and "memory limit" not in out.stdout
    out = subprocess.run([*run, "--max-memory", "12 parsecs", str(f)], capture_output=True, text=True)
    assert out.returncode == 2 and "--max-memory" in out.stderr and "Traceback" not in out.stderr
    env_run = subprocess.run([*run, "--json", str(f)], capture_output=True, text=True,
                             env={**__import__("os").environ, memory.ENV: "1M"})
    assert env_run.returncode == 5 and "memory limit of 1.0 MB" in env_run.stdout


def test_the_status_line_names_each_phase_on_a_terminal() -> None:
    import io

    from satnono.cli.status import PhaseStatus

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Tty()
    status = PhaseStatus(stream=out)
    status.AFTER = 0.0
    status.start("big.non")
    checker = Checker(progress=status)
    checker.check(_picture(2, 40))
    status.clear()
    text = out.getvalue()
    assert "big.non: line logic" in text and "big.non: encoding the open cells for the SAT solver" in text
    assert "SAT search for a second solution" in text and text.endswith("\r\x1b[K")
    quiet = io.StringIO()  # not a terminal: nothing
    status = PhaseStatus(stream=quiet)
    Checker(progress=status).check(_picture(2, 40))
    assert quiet.getvalue() == ""


def test_reading_a_file_counts_towards_its_puzzles_timeout(tmp_path, monkeypatch) -> None:
    from satnono.cli import checking
    from satnono.formats import save

    single, other = tmp_path / "one.non", tmp_path / "two.non"
    save(_picture(1, 20), str(single))
    save(_picture(2, 12), str(other))
    items, reading = checking._read_timed((str(single), str(other)), None)
    assert [i[0] for i in items] == [str(single), str(other)] and set(reading) == {str(single), str(other)}
    assert all(0 <= seconds < 5 for seconds in reading.values())
    asked = []

    class Spy(Checker):
        def check(self, puzzle, timeout=None):
            asked.append(timeout)
            return super().check(puzzle, timeout)

    p = _picture(1, 20)
    late = checking._check_in_time(Spy(), p, 2.0, 2.5)
    assert late.status is Status.UNKNOWN and late.reason == "timed out while reading its file (2.5 s)"
    assert asked == [] and late.seconds == 2.5 and late.stats.unknown_after_propagation == 400
    res = checking._check_in_time(Spy(), p, 2.0, 0.5)
    assert asked == [1.5] and res.seconds >= 0.5
    checking._check_in_time(Spy(), p, None, 0.5)
    assert asked == [1.5, None]


def test_local_workers_keep_the_memory_limit_given(tmp_path) -> None:
    from satnono.formats import save

    f = tmp_path / "p.non"
    save(_picture(1, 60), str(f))
    out = subprocess.run([sys.executable, "-m", "satnono", "classify", "--workers", "2", "--json", "--max-memory", "1M",
                          str(f), str(f)], capture_output=True, text=True)
    import json

    rows = [json.loads(line) for line in out.stdout.splitlines()]
    assert out.returncode == 5 and len(rows) == 2, out
    assert all(r["class"] == "unknown" and "memory limit of 1.0 MB" in r["reason"] for r in rows)
