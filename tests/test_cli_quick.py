"""The command lines ``satnono`` runs without click (``satnono.cli.QUICK``): each makes the very call
its click command makes, and anything else goes through click."""

from __future__ import annotations

import inspect
import itertools
from typing import Any

import click
import pytest

import satnono.cli as cli_pkg
from satnono.cli import QUICK, QUICK_ENVVARS, quick_call
from satnono.cli.group import cli as click_group

FILE_SETS = (["a.non"], ["a.non", "b.xml#2"], ["-"], ["-", "c d.json"])


def _bound(function, args: tuple, kwargs: dict) -> dict[str, Any]:
    """The arguments of a call by name, defaults filled in."""
    bound = inspect.signature(function).bind(*args, **kwargs)
    bound.apply_defaults()
    return dict(bound.arguments)


def _quick(args: list[str]) -> tuple[Any, dict[str, Any]]:
    call = quick_call(args)
    assert call is not None, args
    inner = call.args[0]  # partial(_fresh, partial(function, files, **flags))
    return inner.func, _bound(inner.func, inner.args, inner.keywords)


def _through_click(args: list[str], monkeypatch) -> tuple[Any, dict[str, Any]]:
    """The function the click command of ``args`` calls, and its arguments by name."""
    verb = args[0]
    module, name, _ = QUICK[verb]
    real = getattr(__import__(f"satnono.cli.{module}", fromlist=[name]), name)
    calls: list[dict[str, Any]] = []

    def record(*a: Any, **k: Any) -> int:
        calls.append(_bound(real, a, k))
        return 0

    command_module = click_group.get_command(click.Context(click_group), verb).callback.__module__
    monkeypatch.setattr(f"{command_module}.{name}", record)
    assert cli_pkg._with_click(list(args)) == 0
    assert len(calls) == 1
    return real, calls[0]


def _command_lines():
    for verb, (_, _, flags) in QUICK.items():
        for n in range(len(flags) + 1):
            for chosen in itertools.combinations(flags, n):
                for files in FILE_SETS:
                    yield [verb, *chosen, *files]
                yield [verb, *files[:1], *chosen]  # flags after a file, as click allows


@pytest.mark.parametrize("args", list(_command_lines()), ids=" ".join)
def test_a_quick_command_line_makes_the_call_click_makes(args, monkeypatch):
    for name in QUICK_ENVVARS:
        monkeypatch.delenv(name, raising=False)
    assert _quick(args) == _through_click(args, monkeypatch)


@pytest.mark.parametrize("args", [
    [], ["check"], ["check", "--json"], ["check", "--help"], ["check", "-h", "a.non"], ["--version"],
    ["check", "-t", "5", "a.non"], ["check", "--timeout=5", "a.non"], ["check", "--", "a.non"],
    ["check", "-x"], ["check", "--ascii", "a.non"], ["solve", "--svg", "o.svg", "a.non"],
    ["count", "--max", "3", "a.non"], ["explain", "a.non"], ["classify", "a.non"],
    ["--background", "#00ff00", "check", "a.non"], ["check", "--rule", "count:=1", "a.non"],
], ids=repr)
def test_every_other_command_line_goes_through_click(args, monkeypatch):
    for name in QUICK_ENVVARS:
        monkeypatch.delenv(name, raising=False)
    assert quick_call(args) is None


@pytest.mark.parametrize("name", QUICK_ENVVARS)
def test_an_option_set_in_the_environment_goes_through_click(name, monkeypatch):
    monkeypatch.setenv(name, "1G")
    assert quick_call(["check", "a.non"]) is None


@pytest.mark.parametrize("verb", sorted(QUICK))
def test_the_table_follows_the_click_commands(verb):
    """Each quick flag is a flag of the command setting that parameter, and every environment
    variable the command reads is one that sends a command line to click."""
    command = click_group.get_command(click.Context(click_group), verb)
    flags = {opt: p.name for p in command.params if isinstance(p, click.Option) and p.is_flag
             for opt in p.opts}
    for flag, keyword in QUICK[verb][2].items():
        assert flags.get(flag) == keyword
    envvars = {p.envvar for p in command.params if p.envvar}
    assert envvars <= set(QUICK_ENVVARS)
    files = [p for p in command.params if isinstance(p, click.Argument)]
    assert [p.name for p in files] == ["files"] and files[0].nargs == -1


def test_a_quick_run_resets_what_an_earlier_command_set(tmp_path, capsys):
    """A --rule or --max-memory of an earlier call in the same process does not leak into a quick one."""
    from satnono.cli import main

    tiny = tmp_path / "tiny.json"
    tiny.write_text('{"rows": [[1]], "columns": [[1]]}\n')
    assert main(["check", "--rule", "count:=0", str(tiny)]) == 4
    assert main(["check", str(tiny)]) == 0
    assert "unique" in capsys.readouterr().out.splitlines()[-1]
