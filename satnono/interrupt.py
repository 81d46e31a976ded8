"""Ctrl-C (SIGINT) and SIGTERM: what the command line installs, and critical sections.

:meth:`Signals.install` (called by the CLI's entry point, in the main thread) makes
SIGINT raise :class:`KeyboardInterrupt` and SIGTERM raise :class:`Terminated` (a
``KeyboardInterrupt``), unless the signal was ignored when the process started.

:func:`critical` marks a block that must not be cut in the middle (writing a result,
freeing a native SAT solver): a signal that arrives during it takes effect right after
it.  Without installed handlers (the library used from another program) ``critical`` is
harmless and Python's default behaviour applies.

A handler may run inside a finaliser (``__del__``, a weakref callback), where Python
prints and drops any exception.  A signal whose exception may have been dropped so is
raised again at the next :func:`checkpoint` (each critical section and each SAT call
starts with one), so a Ctrl-C is never lost.
"""

from __future__ import annotations

import signal


class Terminated(KeyboardInterrupt):
    """Raised in the main thread when SIGTERM arrives (once the handlers are installed)."""


class Signals:
    def __init__(self) -> None:
        self.installed = False
        self.deferring = 0
        self.pending: int | None = None
        self.raised: int | None = None  # a signal already raised (its exception may have been dropped)

    def install(self) -> list[tuple[int, object]]:
        """Handle SIGINT and SIGTERM (unless ignored, e.g. under nohup); returns what to restore."""
        saved: list[tuple[int, object]] = []
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

    @staticmethod
    def sigint_ignored() -> bool:
        """SIGINT is ignored (the process started so, under nohup or as a background job)."""
        return signal.getsignal(signal.SIGINT) == signal.SIG_IGN

    def restore(self, saved: list[tuple[int, object]]) -> None:
        for sig, old in saved:
            signal.signal(sig, old)  # type: ignore[arg-type]
        self.installed = False
        self.raised = self.pending = None

    def _handle(self, signum: int, frame: object) -> None:
        if self.deferring:
            if self.pending is None:
                self.pending = signum
            return
        self._raise(signum)

    def _raise(self, signum: int) -> None:
        self.raised = signum
        if signum == signal.SIGTERM:
            raise Terminated()
        raise KeyboardInterrupt()

    def checkpoint(self) -> None:
        """Raise again a signal that was raised before (the process is stopping).

        Only with the handlers installed: a program using the library may catch a
        KeyboardInterrupt and go on.
        """
        if self.installed and self.raised is not None and not self.deferring:
            self._raise(self.raised)

    def note(self, signum: int) -> None:
        """Record a signal that was turned into an exception elsewhere (inside a SAT call)."""
        if self.installed:
            self.raised = signum

    def reinstall_sigint(self) -> None:
        """Put Python's SIGINT handler back at the OS level (python-sat leaves its own
        installed after it caught a SIGINT inside a call)."""
        try:
            signal.signal(signal.SIGINT, signal.getsignal(signal.SIGINT))
        except (ValueError, TypeError):  # not the main thread, or no Python-level handler
            pass

    def critical(self, check: bool = True) -> _Critical:
        """Defer SIGINT/SIGTERM until the block is done.  ``check=False``: enter even when a
        signal was raised before (clean-up that must run whatever stopped the process)."""
        return _Critical(self, check)


class _Critical:
    """The context of :meth:`Signals.critical`."""

    __slots__ = ("check", "signals")

    def __init__(self, signals: Signals, check: bool) -> None:
        self.signals = signals
        self.check = check

    def __enter__(self) -> None:
        if self.check:
            self.signals.checkpoint()
        self.signals.deferring += 1

    def __exit__(self, *exc: object) -> None:
        s = self.signals
        s.deferring -= 1
        if not s.deferring and s.pending is not None:
            sig, s.pending = s.pending, None
            s._raise(sig)


SIGNALS = Signals()


def critical(check: bool = True) -> _Critical:
    """A block during which SIGINT and SIGTERM wait (see :meth:`Signals.critical`)."""
    return SIGNALS.critical(check)


def checkpoint() -> None:
    """Raise again a SIGINT/SIGTERM whose exception may have been dropped by a finaliser."""
    SIGNALS.checkpoint()


_CHILD_SIGNALS = frozenset({signal.SIGINT, signal.SIGTERM})


class children_starting:
    """Hold SIGINT and SIGTERM back in this thread while child processes start (a ``with`` block).

    A signal sent to the whole process group (a terminal's Ctrl-C) would otherwise reach a
    child before it could ignore it, and kill it with a traceback.  Children inherit the
    held-back signals and call :func:`ignore_in_child` first thing; what arrives here
    meanwhile is delivered as soon as the block ends.
    """

    __slots__ = ("old",)

    def __enter__(self) -> None:
        self.old = signal.pthread_sigmask(signal.SIG_BLOCK, _CHILD_SIGNALS) if hasattr(signal, "pthread_sigmask") \
            else None

    def __exit__(self, *exc: object) -> None:
        if self.old is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, self.old)


def ignore_in_child() -> None:
    """In a child process: ignore SIGINT and SIGTERM (the parent decides, and stops its
    children), then let them through again (a held-back one is dropped)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _CHILD_SIGNALS)


def mp_context(method: str | None = None):  # type: ignore[no-untyped-def]
    """The multiprocessing context for child processes: ``method`` if given, else fork while
    this process runs a single thread (cheap, and safe then), spawn otherwise."""
    import multiprocessing  # only what starts processes pays for it (and for threading)
    import threading

    if method is None:
        forkable = "fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
        method = "fork" if forkable else "spawn"
    return multiprocessing.get_context(method)
