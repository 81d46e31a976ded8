"""One status line on stderr while a long settle runs: which phase it is in, how far, for how long.

Shown on a terminal only, and only once a puzzle has taken :data:`PhaseStatus.AFTER` seconds
(so a batch of quick puzzles writes nothing); a search inside the SAT solver does not report
back until it ends, so its line says what it is doing and since when.
"""

from __future__ import annotations

import sys
import time

#: Each phase of :meth:`satnono.solve.Checker.settle` in words.
PHASES = {
    "lines": "line logic",
    "encoding": "encoding the open cells for the SAT solver",
    "hints": "belief propagation for the search's hints",
    "search": "SAT search for a solution",
    "proof": "SAT search for a second solution (or the proof that there is none)",
}


class PhaseStatus:
    """The ``progress`` callback of a :class:`satnono.solve.Checker` that draws the status line."""

    #: Seconds a puzzle runs before its status is shown.
    AFTER = 0.1
    #: Seconds between two redraws of the same phase.
    EVERY = 0.2

    def __init__(self, show: bool | None = None, stream=None) -> None:  # type: ignore[no-untyped-def]
        self.stream = stream if stream is not None else sys.stderr
        self.show = self.stream.isatty() if show is None else show
        self.label = ""
        self.t0 = time.monotonic()
        self.drawn = 0.0  # when the line was last drawn (0: nothing on screen)
        self.phase = ""

    def start(self, label: str) -> None:
        """A new puzzle, named ``label`` on the line."""
        self.clear()
        self.label, self.t0, self.phase = label, time.monotonic(), ""

    def __call__(self, phase: str, share: float | None) -> None:
        if not self.show:
            return
        now = time.monotonic()
        if now - self.t0 < self.AFTER or (phase == self.phase and now - self.drawn < self.EVERY):
            return
        self.phase = phase
        words = PHASES.get(phase, phase)
        part = f" {share:.0%}" if share is not None else ""
        self.stream.write(f"\r\x1b[K{self.label}: {words}{part} (at {now - self.t0:.1f} s)")
        self.stream.flush()
        self.drawn = now

    def clear(self) -> None:
        """Take the line off the screen (before a verdict is printed)."""
        if self.drawn:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self.drawn = 0.0
