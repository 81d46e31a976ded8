"""The ``satnono`` click group; each command's module is imported when the command is first used
(click's ``examples/complex`` pattern), so ``satnono check`` never loads the editor or the generator."""

from __future__ import annotations

import importlib

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
}


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
@click.version_option(__version__, prog_name="satnono")
@click.option("--background", metavar="COLOUR", default=None, callback=background_option, expose_value=False,
              help="The background colour of PPM/PNG pictures read by any command (a colour name or "
                   "#rrggbb; white by default), e.g. satnono --background '#00ff00' check level.png")
def cli() -> None:
    """satnono: solve nonograms and prove their solutions unique, with line logic and SAT.

    FILE arguments may be '-' (standard input) or FILE#k (the k-th puzzle of a
    multi-puzzle file, counting from 1).
    """
