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

The ``satnono`` command is the console entry point :func:`main` (``[project.scripts]`` in
pyproject.toml); ``python -m satnono`` runs the same.
"""

from __future__ import annotations

import sys
from typing import Any

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
    err,
    iter_puzzles,
    stop_code,
)

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
    """The ``satnono`` command: run it on ``argv`` (by default the process's arguments) and return
    its exit code (the console script exits with it)."""
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
        return _with_click(args)
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
