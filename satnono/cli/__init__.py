"""The ``satnono`` command line: the only package that imports click or prints.

``cli`` is the click group (:mod:`satnono.cli.group`); each command lives in a module of this
package, imported when the command is first used:

* :mod:`~satnono.cli.check`: check, solve, convert;
* :mod:`~satnono.cli.batch`: count, classify;
* :mod:`~satnono.cli.diagnose`: diagnose, fix;
* :mod:`~satnono.cli.explain`: explain, hint;
* :mod:`~satnono.cli.generate`, :mod:`~satnono.cli.edit`.

Options shared by several commands, the exit-code epilogs and :class:`~satnono.cli.options.CliExit`
(the one way a command ends with a code) are in :mod:`~satnono.cli.options`.

Start-up: a plain ``satnono check FILE...`` (no option at all) is the most common call and
should cost little more than starting Python, so :func:`main` runs it without loading click
(:func:`_plain_check`); anything else goes through click.  Both run the same
:func:`satnono.cli.checking.check_files` with the command's defaults.
"""

from __future__ import annotations

import errno
import os
import sys

from ..errors import SatnonoError
from ..interrupt import Terminated
from .common import (
    EXIT_BATCH,
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_SIGINT,
    EXIT_SIGTERM,
    EXIT_UNIQUE,
    EXIT_UNKNOWN,
    EXIT_USAGE,
    SIGNALS,
    echo,
    err,
    iter_puzzles,
    stop_code,
)

TYPE_CHECKING = False  # typing.TYPE_CHECKING without loading typing at start-up
if TYPE_CHECKING:
    from typing import Any

__all__ = [
    "EXIT_BATCH",
    "EXIT_INPUT",
    "EXIT_INTERNAL",
    "EXIT_MULTIPLE",
    "EXIT_NONE",
    "EXIT_SIGINT",
    "EXIT_SIGTERM",
    "EXIT_UNIQUE",
    "EXIT_UNKNOWN",
    "EXIT_USAGE",
    "CliExit",
    "cli",
    "entry",
    "iter_puzzles",
    "main",
]


def __getattr__(name: str) -> Any:
    """``cli`` and ``CliExit`` load click, so they are imported on first use (PEP 562)."""
    if name == "cli":
        from .group import cli

        return cli
    if name == "CliExit":
        from .options import CliExit

        return CliExit
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    saved = SIGNALS.install()
    if SIGNALS.sigint_ignored():
        # started with SIGINT ignored (nohup, a background job): python-sat must not catch it either
        from ..sat import leave_sigint_alone

        leave_sigint_alone()
    try:
        return _main(list(sys.argv[1:] if argv is None else argv))
    finally:
        SIGNALS.restore(saved)


def _main(args: list[str]) -> int:
    try:
        code = _plain_check(args)
        return code if code is not None else _with_click(args)
    except SatnonoError as e:  # the batch engine's back end failed (BatchError): one line
        from ..batch import BatchError

        if not isinstance(e, BatchError):
            raise
        err(str(e))
        return EXIT_BATCH
    except KeyboardInterrupt as e:
        err("terminated" if isinstance(e, Terminated) else "interrupted")
        return stop_code(e)
    except Exception as e:
        import click

        if isinstance(e, click.ClickException):  # CliExit (a command's exit code) or a usage error
            e.show()
            return e.exit_code
        raise


def _with_click(args: list[str]) -> int:
    import click

    from .group import cli

    try:
        cli.main(args=args, prog_name="satnono", standalone_mode=False)
    except click.exceptions.Abort as e:  # click's wrapping of a KeyboardInterrupt
        raise (e.__cause__ if isinstance(e.__cause__, KeyboardInterrupt) else KeyboardInterrupt()) from None
    except SystemExit as e:  # click's own exit when stdout is a closed pipe (EPIPE): code 1
        return int(e.code or 0) if not isinstance(e.code, str) else EXIT_INTERNAL
    return 0


def _plain_check(args: list[str]) -> int | None:
    """Run ``satnono check FILE...`` without click when nothing but file arguments is given (and
    ``$SATNONO_SCHEDULER`` is unset); ``None`` when click must parse the arguments.

    Everything click would do for such a call is done here the same way: the group's and the
    command's option callbacks (no picture background, no extra rules), the command's defaults
    (:func:`~satnono.cli.checking.check_files`), an interruption reported after an empty line on
    stderr (click's ``Abort``), and exit code 1 when stdout is a closed pipe.
    """
    if len(args) < 2 or args[0] != "check" or os.environ.get("SATNONO_SCHEDULER"):
        return None
    files = args[1:]
    if any(a.startswith("-") and a != "-" for a in files):
        return None
    from ..formats import DEFAULT_BACKGROUND, EXTRA_RULES
    from .checking import check_files

    DEFAULT_BACKGROUND.set(None)
    EXTRA_RULES.set(())
    try:
        return check_files(tuple(files))
    except (KeyboardInterrupt, EOFError) as e:
        echo("", err=True)
        raise e if isinstance(e, KeyboardInterrupt) else KeyboardInterrupt() from None
    except OSError as e:
        if e.errno != errno.EPIPE:
            raise
        sys.stdout = _Pacified(sys.stdout)
        sys.stderr = _Pacified(sys.stderr)
        return 1


class _Pacified:
    """A stream whose ``flush`` ignores a closed pipe, so that the interpreter's last flush at exit
    does not fail again (click's ``PacifyFlushWrapper``)."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def flush(self) -> None:
        try:
            self._stream.flush()
        except OSError as e:
            if e.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)


def entry() -> None:
    sys.exit(main())
