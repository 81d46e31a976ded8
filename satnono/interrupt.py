"""Ctrl-C (SIGINT) and SIGTERM: what the command line installs, and critical sections.

:meth:`Signals.install` (called by the CLI's entry point, in the main thread) makes
SIGINT raise :class:`KeyboardInterrupt` and SIGTERM raise :class:`Terminated` (a
``KeyboardInterrupt``), unless the signal was ignored when the process started.

:func:`critical` marks a block that must not be cut in the middle (writing a result,
freeing a native SAT solver): a signal that arrives during it takes effect right after
it.  Without installed handlers (the library used from another program) ``critical`` is
harmless and Python's default behaviour applies.
"""

from __future__ import annotations

import signal
from contextlib import contextmanager
from typing import Iterator


class Terminated(KeyboardInterrupt):
    """Raised in the main thread when SIGTERM arrives (once the handlers are installed)."""


class Signals:
    def __init__(self) -> None:
        self.installed = False
        self.deferring = 0
        self.pending: int | None = None

    def install(self) -> list[tuple[int, object]]:
        """Handle SIGINT and SIGTERM (unless ignored, e.g. under nohup); returns what to restore."""
        saved = []
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                old = signal.getsignal(sig)
                if old == signal.SIG_IGN:
                    continue
                signal.signal(sig, self._handle)
                saved.append((sig, old))
            except ValueError:  # not the main thread: leave the defaults
                break
        self.installed = bool(saved)
        return saved

    def restore(self, saved: list[tuple[int, object]]) -> None:
        for sig, old in saved:
            signal.signal(sig, old)  # type: ignore[arg-type]
        self.installed = False

    def _handle(self, signum: int, frame: object) -> None:
        if self.deferring:
            if self.pending is None:
                self.pending = signum
            return
        self._raise(signum)

    @staticmethod
    def _raise(signum: int) -> None:
        if signum == signal.SIGTERM:
            raise Terminated()
        raise KeyboardInterrupt()

    @contextmanager
    def critical(self) -> Iterator[None]:
        """Defer SIGINT/SIGTERM until the block is done."""
        self.deferring += 1
        try:
            yield
        finally:
            self.deferring -= 1
            if not self.deferring and self.pending is not None:
                sig, self.pending = self.pending, None
                self._raise(sig)


SIGNALS = Signals()


def critical():  # type: ignore[no-untyped-def]
    """A block during which SIGINT and SIGTERM wait (see :meth:`Signals.critical`)."""
    return SIGNALS.critical()
