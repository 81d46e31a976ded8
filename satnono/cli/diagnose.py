"""``satnono diagnose`` and ``satnono fix``: where a puzzle goes wrong, and how to mend it."""

from __future__ import annotations

import json
import sys
from typing import TYPE_CHECKING

import click

from ..errors import ParseError
from ..model import Puzzle
from ..solve import InternalError, Status
from .common import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_UNIQUE,
    EXIT_UNKNOWN,
)
from .options import (
    INTERNAL,
    JOBS_HELP,
    USAGE,
    CliExit,
    ascii_option,
    done,
    exit_help,
    force_option,
    format_option,
    jobs_option,
    json_option,
    picture_outputs,
    png_option,
    rule_option,
    solver_option,
    svg_option,
    max_memory_option,
    timeout_option,
    write_pictures,
)

if TYPE_CHECKING:
    from ..lanepuzzle import LanePuzzle

DIAGNOSE_EXIT_HELP = exit_help(
    (0, "the puzzle is unique"), INTERNAL, USAGE,
    (3, "the puzzle has several solutions"),
    (4, "the puzzle has no solution"),
    (5, "not settled in time (--timeout) or within the memory limit (--max-memory)"),
    (6, "the input could not be read, or an output file exists (use --force) or cannot be written"))

FIX_EXIT_HELP = exit_help(
    (0, "proposals printed (or nothing to fix: unique and line-solvable already)"), INTERNAL,
    (2, "usage error"),
    (4, "the clues have no solution"),
    (5, "time ran out before verified givens were found (what was found is printed)"),
    (6, "the file could not be read, holds several puzzles (use FILE#k),\n"
        "     or its goal picture does not satisfy its clues"))


def _load(file: str, fmt: str | None) -> Puzzle | LanePuzzle:
    """The one puzzle of FILE, of any geometry; exits 6 when it cannot be read."""
    from ..formats import load

    try:
        return load(file, fmt)
    except ParseError as e:
        raise CliExit(EXIT_INPUT, str(e)) from None


@click.command("diagnose", epilog=DIAGNOSE_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option()
@timeout_option()
@max_memory_option
@solver_option
@svg_option("Write the heat map as SVG to OUT.", type=click.Path(dir_okay=False))
@png_option("Write the heat map as PNG to OUT.", type=click.Path(dir_okay=False))
@force_option("Overwrite OUT files that exist.")
@json_option("One JSON object on stdout instead of text.")
@ascii_option
@jobs_option(JOBS_HELP + " Here for the puzzle's verdict; the CPU seconds of every "
             "process are shown (cpu_seconds in --json).")
def diagnose_cmd(file: str, fmt: str | None, timeout: float | None, solver: str, svg_out: str | None,
                 png_out: str | None, force: bool, as_json: bool, ascii_: bool, jobs: int | str) -> None:
    """Show a puzzle author where a puzzle is ambiguous or contradictory.

    FILE holds one puzzle (or use FILE#k), of any geometry (a triddler's
    lanes are its rows, / lines and \\ lines). After line logic: the rows and
    columns that still have more than one placement (and how many), the
    undetermined cells; for several solutions, the ambiguity region (the cells
    whose value is not the same in all solutions); for no solution, a minimal
    set of rows and columns (and of the extra rules) whose clues together
    admit no solution (removing any one of them leaves satisfiable clues).

    Text output is a heat map: black and white cells settled by line logic,
    cells line logic leaves open, ambiguous cells, and cells of conflicting
    lines. --json gives the same as data (0-based [row, col] and line indices;
    on another geometry cell numbers, with geometry and cells for width and
    height): name, width, height, status, line_solvable, after_line (rows of '#', '.',
    '?'), open_lines (axis, index, clue, placements, unknown), undetermined,
    solutions, ambiguous, ambiguity_complete, conflict (axis, index, clue;
    "?" for a blotted number), conflict_minimal, conflict_rules, reason,
    seconds.
    """
    from ..diagnose import diagnose
    from ..render import render_heatmap, render_png, render_summary, render_svg

    outputs = picture_outputs(svg_out, png_out, force)
    puzzle = _load(file, fmt)
    try:
        d = diagnose(puzzle, timeout, solver, jobs=jobs)
    except Exception as e:  # a bug: one line, no traceback
        raise CliExit(EXIT_INTERNAL, f"{file}: internal error: {type(e).__name__}: {e}") from None
    if isinstance(puzzle, Puzzle):
        write_pictures(outputs, force, lambda kind: render_svg(d).encode("utf-8") if kind == "svg" else render_png(d))
    else:  # another geometry: the cells' outlines, coloured by level
        from ..lanerender import heat_png, heat_svg

        write_pictures(outputs, force, lambda kind: heat_svg(d).encode("utf-8") if kind == "svg" else heat_png(d))
    if as_json:
        click.echo(json.dumps({"file": file, **d.as_dict()}))
    else:
        click.echo(f"{file}: {render_summary(d)}")
        click.echo(render_heatmap(d, ascii_))
    done({"unique": EXIT_UNIQUE, "multiple": EXIT_MULTIPLE, "none": EXIT_NONE}.get(d.status, EXIT_UNKNOWN))


@click.command("fix", epilog=FIX_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option()
@timeout_option(20.0, "Time limit for the whole search.")
@max_memory_option
@click.option("--max-edits", type=click.IntRange(min=0), default=5, show_default=True,
              help="Edits to propose of each kind (line-solvable; unique only).")
@json_option()
@ascii_option
@jobs_option(JOBS_HELP + " Here for the puzzle's own verdict (the candidates' "
             "are small); cpu_seconds in --json counts every process.")
def fix_cmd(file: str, fmt: str | None, timeout: float, max_edits: int, as_json: bool, ascii_: bool,
            jobs: int | str) -> None:
    """Propose how to make an ambiguous (or not line-solvable) picture unique.

    Two kinds of proposal, each verified before it is printed: given cells
    (revealed to the player) that make the solution unique, and a set that
    makes it line-solvable; and single-cell edits of the picture (clues
    recomputed) that make it unique.  Without a goal picture in the file the
    first solution found is taken as the picture.  Rows and columns count from
    1 in text and from 0 in --json; on a triddler a cell is named by its row
    and its place in the row ("row 3, cell 5"), with its number ("cell", from
    0) in --json.
    """
    from ..fixer import FixError, fix
    from ..report import fix_text

    puzzle = _load(file, fmt)
    try:
        res = fix(puzzle, timeout=timeout, max_edits=max_edits, jobs=jobs)  # type: ignore[arg-type]  # (any geometry)
    except FixError as e:
        raise CliExit(EXIT_INPUT, f"{file}: {e}") from None
    except InternalError as e:
        raise CliExit(EXIT_INTERNAL, f"internal error: {e}") from None
    if res.status == Status.NONE:
        code = EXIT_NONE
    elif res.needs_fix and (res.givens_unique is None or res.givens_line is None):
        code = EXIT_UNKNOWN
    elif res.status == Status.UNKNOWN:
        code = EXIT_UNKNOWN
    else:
        code = 0
    if as_json:
        click.echo(json.dumps(res.as_dict(file)))  # the one shape of a fix proposal
    else:
        for line in fix_text(file, res, ascii_, sys.stdout.isatty()):
            click.echo(line)
    done(code)
