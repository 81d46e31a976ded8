"""The ``satnono`` click group; each command's module is imported when the command is first used
(click's ``examples/complex`` pattern), so ``satnono check`` never loads the editor or the generator."""

from __future__ import annotations

import importlib
import os
import sys

import click

from .. import __version__
from .options import background_option

#: command name -> "module:attribute" under satnono.cli
COMMANDS = {
    "check": "check:check",
    "classify": "batch:classify_cmd",
    "convert": "check:convert",
    "count": "batch:count_cmd",
    "diagnose": "diagnose:diagnose_cmd",
    "edit": "edit:edit_cmd",
    "explain": "explain:explain_cmd",
    "fix": "diagnose:fix_cmd",
    "generate": "generate:generate",
    "hint": "explain:hint_cmd",
    "solve": "check:solve",
    "verify": "certify:verify_cmd",
}


#: The compiled core: (package, module) of each optional C extension setup.py builds (each has a
#: pure-Python reference that gives the same results where it is not built).
CORE = (("satnono.lines", "_native"), ("satnono.lines", "_native_color"), ("satnono.logic", "_beliefs"),
        ("satnono.certify", "_drat"))

#: The SAT back ends python-sat names by version, as their users know them.
SOLVER_NAMES = {"cadical195": "CaDiCaL 1.9.5", "cadical153": "CaDiCaL 1.5.3"}


def core_status() -> str:
    """Whether the compiled core is in use: ``in use``, ``off (...)``, ``not built (...)`` or
    ``partly built (...)``; without it satnono runs its pure-Python reference (same results, slower)."""
    from ..lines.bits import native_core

    if os.environ.get("SATNONO_PURE", "") not in ("", "0"):
        return "off (SATNONO_PURE is set: pure Python, slower)"
    missing = [f"{package}.{name}" for package, name in CORE if native_core(name, package) is None]
    if not missing:
        return "in use"
    if len(missing) == len(CORE):
        return "not built (pure Python fallback, slower)"
    return f"partly built (no {', '.join(missing)}: pure Python there, slower)"


def version_text() -> str:
    """What ``satnono --version`` prints: satnono's version, Python's, python-sat's and its default
    SAT solver's, and whether the compiled core is in use."""
    import platform
    from importlib.metadata import PackageNotFoundError, version

    from ..results import DEFAULT_SOLVER

    try:
        pysat = version("python-sat")
    except PackageNotFoundError:
        pysat = "not installed"
    return "\n".join([
        f"satnono {__version__}",
        f"Python {platform.python_version()} ({platform.python_implementation()}, {sys.executable})",
        f"python-sat {pysat} (SAT solver: {SOLVER_NAMES.get(DEFAULT_SOLVER, DEFAULT_SOLVER)})",
        f"compiled core: {core_status()}",
    ])


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(version_text())
        ctx.exit()


class LazyGroup(click.Group):
    """A group whose commands live in modules named by :data:`COMMANDS`, imported on first use."""

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(self.lazy))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            module, _, attr = self.lazy[cmd_name].partition(":")
            command = getattr(importlib.import_module(f"{__package__}.{module}"), attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"satnono.cli.{module}.{attr} is not a click command")
            self.add_command(command, cmd_name)
        return super().get_command(ctx, cmd_name)


@click.group(cls=LazyGroup, lazy=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True, callback=_show_version,
              help="Show the versions of satnono, Python and python-sat, and whether the compiled core is "
                   "in use, and exit.")
@click.option("--background", metavar="COLOUR", default=None, callback=background_option, expose_value=False,
              help="The background colour of PPM/PNG pictures read by any command (a colour name or "
                   "#rrggbb; white by default), e.g. satnono --background '#00ff00' check level.png")
def cli() -> None:
    """satnono: solve nonograms and prove their solutions unique, with line logic and SAT.

    FILE arguments may be '-' (standard input) or FILE#k (the k-th puzzle of a
    multi-puzzle file, counting from 1).
    """
