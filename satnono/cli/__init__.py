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

Loading click costs about three times Python's own start-up, more than checking a small puzzle,
and tools call ``satnono check FILE`` once per puzzle.  So the plainest command lines of
:data:`QUICK` (a verb, its files and a flag or two) call the function their click command calls,
with the same arguments, without loading click; everything else (any other option, ``--help``,
an error) goes through click.  ``tests/test_cli_quick.py`` checks that both ways make the same call.
"""

from __future__ import annotations

import importlib
import os
import sys
from functools import partial
from typing import Any, Callable

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
    "QUICK",
    "main",
    "quick_call",
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


#: The command lines :func:`main` runs without click: verb -> (module of this package, the function
#: the verb's click command calls, {flag: the keyword it sets to True}).  The files are the
#: function's first argument; the other arguments keep their defaults, which are the command's.
QUICK: dict[str, tuple[str, str, dict[str, str]]] = {
    "check": ("checking", "check_files", {"--json": "as_json"}),
    "solve": ("checking", "solve_files", {"--json": "as_json", "--ascii": "ascii_"}),
    "count": ("counting", "count_files", {"--json": "as_json"}),
}
#: Environment variables that set an option of those commands (click reads them): when one is
#: set, the command line goes through click.
QUICK_ENVVARS = ("SATNONO_MAX_MEMORY", "SATNONO_SCHEDULER")


def quick_call(args: list[str]) -> Callable[[], int] | None:
    """The call of a command line of :data:`QUICK` (it returns the exit code), or None when the
    command line is anything else: another verb or option, ``--help``, no file, an argument
    starting with ``-`` (other than ``-`` itself, standard input), a variable of
    :data:`QUICK_ENVVARS` set."""
    if not args or args[0] not in QUICK or any(name in os.environ for name in QUICK_ENVVARS):
        return None
    module, name, flags = QUICK[args[0]]
    files: list[str] = []
    keywords: dict[str, bool] = {}
    for arg in args[1:]:
        if arg in flags:
            keywords[flags[arg]] = True
        elif arg == "-" or not arg.startswith("-"):
            files.append(arg)
        else:
            return None
    if not files:
        return None
    function = getattr(importlib.import_module(f"{__package__}.{module}"), name)
    return partial(_fresh, partial(function, tuple(files), **keywords))


def _fresh(call: Callable[[], int]) -> int:
    """``call()`` with the settings that options of click's path set for each command (to their
    defaults here: no extra rule, no picture background, the automatic memory limit), so that
    nothing of an earlier call in this process stays."""
    from ..formats import DEFAULT_BACKGROUND, EXTRA_RULES
    from ..memory import LIMIT

    DEFAULT_BACKGROUND.set(None)
    EXTRA_RULES.set(())
    LIMIT.set("auto")
    return call()


def _main(args: list[str]) -> int:
    try:
        quick = quick_call(args)
        return quick() if quick is not None else _with_click(args)
    except BrokenPipeError:  # stdout's reader went away (``| head``): code 1 and no message, as click does
        _quiet_stdout()
        return EXIT_INTERNAL
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


def _quiet_stdout() -> None:
    """Point stdout at the null device, so that flushing it at exit does not complain again about
    the pipe whose reader went away (the recipe of Python's ``signal`` documentation)."""
    try:
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):  # no real stdout to redirect
        pass


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
