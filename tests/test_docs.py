"""Every command of the ``satnono`` group has help text and is named in README.md (as
sqlite-utils' test_docs does)."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from satnono.cli import cli

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
COMMANDS = cli.list_commands(click.Context(cli))


def test_the_group_lists_every_command():
    assert set(COMMANDS) == {"check", "classify", "convert", "count", "diagnose", "edit", "explain", "fix",
                             "generate", "hint", "solve"}


@pytest.mark.parametrize("name", COMMANDS)
def test_command_has_help(name):
    command = cli.get_command(click.Context(cli), name)
    assert isinstance(command, click.Command)
    assert command.help and command.help.strip()
    assert command.get_short_help_str().strip()
    r = CliRunner().invoke(cli, [name, "--help"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith(f"Usage: cli {name} ") or r.output.startswith(f"Usage: satnono {name} ")


@pytest.mark.parametrize("name", COMMANDS)
def test_command_is_documented_in_readme(name):
    assert f"satnono {name}" in README


@pytest.mark.parametrize("name", COMMANDS)
def test_exit_codes_are_documented(name):
    """Each command's --help says what its exit codes mean (an epilog, or convert's last paragraph)."""
    command = cli.get_command(click.Context(cli), name)
    text = (command.epilog or "") + (command.help or "")
    assert "Exit codes:" in text
