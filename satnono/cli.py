"""The ``satnono`` command line: the only module that imports click or prints."""

from __future__ import annotations

import json
import os
import sys
from typing import Iterator

import click

from . import __version__
from .errors import ParseError, SatnonoError
from .model import Puzzle
from .report import diff_legend, error_dict, label, render_grid, result_dict, verdict_text
from .sat import DEFAULT_SOLVER, SOLVERS
from .solve import Checker, CheckResult, InternalError, Status

EXIT_UNIQUE = 0
EXIT_INTERNAL = 1
EXIT_USAGE = 2
EXIT_MULTIPLE = 3
EXIT_NONE = 4
EXIT_UNKNOWN = 5
EXIT_INPUT = 6

STATUS_EXIT = {
    Status.UNIQUE: EXIT_UNIQUE,
    Status.MULTIPLE: EXIT_MULTIPLE,
    Status.NONE: EXIT_NONE,
    Status.UNKNOWN: EXIT_UNKNOWN,
    Status.ERROR: EXIT_INPUT,
}

EXIT_HELP = """\b
Exit codes:
  0  every puzzle is unique
  1  internal error (a bug: please report it)
  2  usage error (bad option or argument)
  3  some puzzle has several solutions
  4  some puzzle has no solution
  5  some puzzle was not settled in time (--timeout)
  6  some input could not be read (the rest of the batch still runs)
A batch exits with the largest of 3-6 that applies (0 if all are unique);
1 takes precedence over everything."""


def _batch_code(codes: list[int]) -> int:
    if EXIT_INTERNAL in codes:
        return EXIT_INTERNAL
    return max(codes, default=EXIT_UNIQUE)


def _err(msg: str) -> None:
    click.echo(f"satnono: {msg}", err=True)


def _locate(arg: str, puzzle: Puzzle) -> tuple[str, int | None]:
    """``(file, index)`` of a loaded puzzle: index is set for puzzles of multi-puzzle files."""
    src = puzzle.source or arg
    base, sep, tail = src.rpartition("#")
    if sep and tail.isdigit() and not os.path.exists(src):
        return base, int(tail)
    return src, None


def iter_puzzles(files: tuple[str, ...], fmt: str | None) -> Iterator[tuple[str, int | None, Puzzle | None, str | None]]:
    """Yield ``(file, index, puzzle, error)`` for every puzzle of every file argument."""
    from .formats import load_all

    for arg in files:
        try:
            puzzles = load_all(arg, fmt)
        except ParseError as e:
            yield arg, None, None, str(e)
            continue
        for p in puzzles:
            yield (*_locate(arg, p), p, None)


format_option = click.option(
    "-f", "--format", "fmt", default=None, metavar="FMT",
    help="Input format (non, xml, nin, mk, cwd, tournament, json, pbm, txt); sniffed from content by default.",
)
timeout_option = click.option(
    "-t", "--timeout", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
    help="Give up on a puzzle after this many seconds (verdict 'unknown'). Default: no limit.",
)
solver_option = click.option(
    "--solver", type=click.Choice(list(SOLVERS)), default=DEFAULT_SOLVER, show_default=True,
    help="SAT back end (python-sat name).",
)
json_option = click.option("--json", "as_json", is_flag=True, help="One JSON object per puzzle per line on stdout.")
ascii_option = click.option("--ascii", "ascii_", is_flag=True, help="Draw grids with ASCII characters instead of Unicode blocks.")


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="satnono")
def cli() -> None:
    """satnono: solve nonograms and prove their solutions unique, with line logic and SAT.

    FILE arguments may be '-' (standard input) or FILE#k (the k-th puzzle of a
    multi-puzzle file, counting from 1).
    """


def _run_checks(files, fmt, timeout, solver, emit) -> int:
    checker = Checker(solver)
    codes: list[int] = []
    for file, index, puzzle, error in iter_puzzles(files, fmt):
        if error is not None:
            codes.append(EXIT_INPUT)
            emit(file, index, None, error)
            continue
        assert puzzle is not None
        try:
            res = checker.check(puzzle, timeout)
        except InternalError as e:
            codes.append(EXIT_INTERNAL)
            emit(file, index, None, f"internal error: {e}")
            continue
        codes.append(STATUS_EXIT[res.status])
        emit(file, index, res, None)
    return _batch_code(codes)


@cli.command(epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@timeout_option
@solver_option
@json_option
def check(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool) -> None:
    """Print a verdict for every puzzle: unique (line-solvable or not), multiple, none or unknown.

    Many files are checked in one process; with --json each puzzle gives one
    JSON object per line (fields: file, index for multi-puzzle files, name,
    width, height, status, line_solvable, solutions, diff as 0-based [row, col],
    reason, seconds, stats).
    """

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None) -> None:
        if as_json:
            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            click.echo(json.dumps(d))
            if error is not None:
                _err(error)
        elif res is not None:
            click.echo(f"{label(file, index)}: {verdict_text(res)}")
        else:
            _err(error or "")

    sys.exit(_run_checks(files, fmt, timeout, solver, emit))


@cli.command(epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@timeout_option
@solver_option
@json_option
@ascii_option
def solve(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool, ascii_: bool) -> None:
    """Print the solution of every puzzle; for an ambiguous puzzle also a second
    solution with the cells that differ marked."""

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None) -> None:
        if as_json:
            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            click.echo(json.dumps(d))
            if error is not None:
                _err(error)
            return
        if res is None:
            _err(error or "")
            return
        click.echo(f"{label(file, index)}: {verdict_text(res)}")
        if res.solutions:
            click.echo(render_grid(res.solutions[0], ascii_))
        if len(res.solutions) > 1:
            click.echo("second solution " + diff_legend(ascii_) + ":")
            click.echo(render_grid(res.solutions[1], ascii_, res.diff))
        click.echo("")

    sys.exit(_run_checks(files, fmt, timeout, solver, emit))


@cli.command()
@click.argument("source")
@click.argument("target")
@click.option("--from", "from_fmt", default=None, metavar="FMT", help="Input format (sniffed by default).")
@click.option("--to", "to_fmt", default=None, metavar="FMT", help="Output format (from TARGET's suffix by default).")
@click.option("--force", is_flag=True, help="Overwrite TARGET if it exists.")
def convert(source: str, target: str, from_fmt: str | None, to_fmt: str | None, force: bool) -> None:
    """Convert one puzzle from SOURCE to TARGET ('-' writes to stdout).

    Exit codes: 0 done, 2 usage error, 6 unreadable input or unwritable output.
    """
    from .formats import dumps, format_from_suffix, load, save

    try:
        puzzle = load(source, from_fmt)
        if target == "-":
            fmt = to_fmt or "non"
            out = dumps(puzzle, fmt)
            if isinstance(out, bytes):
                sys.stdout.buffer.write(out)
            else:
                click.echo(out, nl=not out.endswith("\n"))
        else:
            fmt = to_fmt or format_from_suffix(target)
            if fmt is None:
                raise click.UsageError(f"cannot tell the output format from {target!r}; use --to")
            save(puzzle, target, fmt, overwrite=force)
    except FileExistsError:
        _err(f"{target}: exists; not overwritten (use --force)")
        sys.exit(EXIT_INPUT)
    except (SatnonoError, ValueError, OSError) as e:
        _err(str(e))
        sys.exit(EXIT_INPUT)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    try:
        cli.main(args=argv, prog_name="satnono", standalone_mode=False)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else EXIT_INTERNAL
    except click.exceptions.Abort:
        _err("aborted")
        return 130
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except KeyboardInterrupt:
        _err("interrupted")
        return 130
    return 0


def entry() -> None:
    sys.exit(main())
