"""``satnono check``, ``solve`` and ``convert``."""

from __future__ import annotations

import sys

import click

from ..errors import SatnonoError
from ..model import Puzzle
from .checking import check_files, solve_files
from .common import EXIT_INPUT, EXIT_USAGE, err
from .options import (
    BATCH_EXIT_HELP,
    EXIT_HELP,
    JOBS_HELP,
    JOBS_NOT_WITH_WORKERS,
    CliExit,
    ascii_option,
    cell_option,
    done,
    force_option,
    format_option,
    grade_option,
    jobs_option,
    json_option,
    picture_outputs,
    png_option,
    progress_option,
    rule_option,
    scheduler_option,
    solver_option,
    svg_option,
    max_memory_option,
    no_jobs_with_workers,
    timeout_option,
    workers_option,
)


@click.command(epilog=EXIT_HELP + BATCH_EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@rule_option()
@timeout_option()
@max_memory_option
@solver_option
@json_option()
@grade_option
@progress_option
@workers_option()
@scheduler_option
@jobs_option(JOBS_HELP + JOBS_NOT_WITH_WORKERS)
@click.option("--certify", "certify_dir", metavar="DIR", default=None,
              help="Also write a certificate of each verdict into DIR, one directory per puzzle named after "
                   "its file (NAME, or NAME#k for the k-th puzzle of a file): the puzzle, its reference CNF, "
                   "the solutions, a DRAT proof, the line deductions; check it with 'satnono verify'. "
                   "An existing certificate is not overwritten (exit 6; --force replaces it); a puzzle "
                   "that cannot be certified (not settled, a lazily encoded rule such as connected, a "
                   "user-written rule) is one line on stderr and exit 6.")
@force_option("With --certify: replace existing certificates.")
def check(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool,
          grade: bool, progress: bool | None, workers: int, scheduler: str | None, jobs: int | str,
          certify_dir: str | None, force: bool) -> None:
    """Print a verdict for every puzzle: unique (line-solvable or not), multiple, none or unknown.

    With --grade each puzzle is also graded as 'satnono explain' grades it
    (level line, probe, probe2 or search; multiple, none or unknown outside
    the scale; steps, probes, exact, text), with probing bounded so that it
    adds at most about half a second ('exact': false marks a lower bound, "at
    least"): in --json the object's 'difficulty' (its 'seconds' include the
    grading), otherwise a 'grade:' line.

    Many files are checked in one process; with --json each puzzle gives one
    JSON object per line (fields: file, index for multi-puzzle files, name,
    width, height, status, line_solvable, colors, palette, solutions as row
    strings of the palette's characters, diff as 0-based [row, col], reason,
    seconds, stats; a puzzle with blotted clues adds rows and columns, its
    clues with "?" for a blot, and blots, the lengths the first solution
    shows: [{"axis", "index", "block", "length"}, ...] 0-based).

    With --jobs other than 1 the times shown are wall seconds and the CPU seconds
    of every process the puzzle took (in --json: seconds, cpu_seconds, and jobs,
    the searches that ran); with --scheduler, each puzzle's searches run on the
    Dask cluster, one puzzle after the other.
    """
    no_jobs_with_workers(jobs, workers)
    if certify_dir is not None:
        if grade:
            raise click.UsageError("--certify and --grade do not go together")
        if jobs != 1:
            raise click.UsageError("--certify and --jobs do not go together (a certificate's proof comes from one search)")
        from .certify import certify_files

        done(certify_files(files, certify_dir, force, fmt, timeout, solver, as_json, progress, workers, scheduler))
        return
    done(check_files(files, fmt, timeout, solver, as_json, grade, progress, workers, scheduler, jobs))


@click.command(epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@rule_option()
@timeout_option()
@max_memory_option
@solver_option
@json_option()
@ascii_option
@svg_option("Also draw the (first) solution as SVG in OUT.")
@png_option("Also draw the (first) solution as PNG in OUT.")
@cell_option
@force_option("Overwrite the --svg/--png files if they exist.")
@grade_option
@jobs_option()
def solve(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool, ascii_: bool,
          svg_out: str | None, png_out: str | None, cell: int, force: bool, grade: bool, jobs: int | str) -> None:
    """Print the solution of every puzzle; for an ambiguous puzzle also a second
    solution with the cells that differ marked.

    Colour puzzles are drawn in 24-bit colour on a terminal, and as the
    palette's characters ('.' background) with --ascii or when stdout is not a
    terminal. --svg/--png draw the first solution in the puzzle's colours (one
    puzzle only: give FILE#k for a multi-puzzle file); nothing is drawn when
    there is no solution.  A puzzle with blotted clues also prints the lengths
    each solution shows ("blotted lengths: row 1 block 2 = 3, ...").
    """
    outputs = picture_outputs(svg_out, png_out, force)
    if outputs and len(files) != 1:
        raise click.UsageError("--svg/--png draw one puzzle: give one FILE")
    done(solve_files(files, fmt, timeout, solver, as_json, ascii_, tuple(outputs), cell, force, grade, jobs))


def _to_help() -> str:
    from ..formats import WRITABLE_FORMATS
    from ..formats.sniff import formats_text

    return (f"Output format, by default the one TARGET's suffix names (any case): {formats_text(WRITABLE_FORMATS)}. "
            "'-' as TARGET writes non unless --to names another.")


@click.command()
@click.argument("source")
@click.argument("target")
@click.option("--from", "from_fmt", default=None, metavar="FMT", help="Input format (sniffed by default).")
@click.option("--to", "to_fmt", default=None, metavar="FMT", help=_to_help())
@force_option("Overwrite TARGET if it exists.")
def convert(source: str, target: str, from_fmt: str | None, to_fmt: str | None, force: bool) -> None:
    """Convert one puzzle from SOURCE to TARGET ('-' writes to stdout).

    Exit codes: 0 done, 2 usage error (also an output format that cannot be told from TARGET's
    suffix or that satnono does not write), 6 unreadable input or unwritable output.
    """
    from ..formats import dumps, load, output_format, save, unkept_metadata

    try:
        out_fmt = output_format(target, to_fmt or ("non" if target == "-" else None))
    except ValueError as e:
        raise CliExit(EXIT_USAGE, str(e) if to_fmt else f"{e}; or name the format with --to FMT") from None
    try:
        puzzle = load(source, from_fmt)
        if target == "-":
            out = dumps(puzzle, out_fmt)
            if isinstance(out, bytes):
                sys.stdout.buffer.write(out)
            else:
                click.echo(out, nl=not out.endswith("\n"))
        else:
            save(puzzle, target, out_fmt, overwrite=force)
        left = unkept_metadata(puzzle, out_fmt)
        if left:  # written as asked, but not silently
            keep = "xml and json" if not isinstance(puzzle, Puzzle) else "xml, json, non and png"
            err(f"note: {target}: the {out_fmt} format cannot hold {_listed(left)}, left out ({keep} keep them)")
    except FileExistsError:
        raise CliExit(EXIT_INPUT, f"{target}: exists; not overwritten (use --force)") from None
    except (SatnonoError, ValueError, OSError) as e:
        raise CliExit(EXIT_INPUT, str(e)) from None


def _listed(words: list[str], most: int = 3) -> str:
    """``a, b and c`` (the first ``most``, then how many more)."""
    if len(words) > most:
        words = [*words[:most], f"{len(words) - most} more"]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]
