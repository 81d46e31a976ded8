"""``satnono explain`` and ``satnono hint``: the deductions a person would make, and the next one."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

import click

from ..errors import SatnonoError
from ..model import Puzzle
from ..report import explanation_head, label, step_lines
from .common import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_MULTIPLE,
    EXIT_NONE,
    EXIT_UNIQUE,
    EXIT_USAGE,
    batch_code,
    err,
    iter_puzzles,
)
from .options import (
    INTERNAL,
    USAGE,
    CliExit,
    ascii_option,
    done,
    exit_help,
    force_option,
    format_option,
    json_option,
    rule_option,
    svg_option,
    max_memory_option,
    timeout_option,
)

GRADE_HELP = """\b
Difficulty (the grade):
  level   the hardest technique needed, on the scale
          line    line logic alone settles every cell
          probe   also probing depth 1: assume one cell, line logic
                  reaches a line with no placement, so the cell has
                  the other value (in colour: not the assumed colour)
          probe2  also probing depth 2 (depth-1 probes inside the
                  assumption)
          search  unique, but line logic and probing to depth 2 stop
          (outside the scale: multiple, none, unknown)
  steps   the number of steps (line steps + probe steps) of the
          explanation, in the order a person would take them
  probes  the number of probe steps
  exact   false when the probing budget ran out: the level is then a
          lower bound ("at least")"""

EXPLAIN_EXIT_HELP = exit_help(
    (0, "logic settles every cell of every puzzle"), INTERNAL, USAGE,
    (3, "logic stops before the end for some puzzle (it needs search, has\n"
        "     several solutions, the probing budget ran out, or --max-steps)"),
    (4, "some puzzle has no solution (a line has no placement)"),
    (6, "some input could not be read, or OUT exists (use --force)"))

HINT_EXIT_HELP = exit_help(
    (0, "a hint is given (or the grid is already solved)"), INTERNAL, USAGE,
    (3, "no cell follows by line logic or probing (the rest needs search,\n"
        "     or the puzzle has several solutions)"),
    (4, "a filled cell is wrong, the filled cells fit no solution, or the\n"
        "     puzzle has no solution"),
    (6, "the puzzle or the state could not be read"))


#: Largest number of cells (steps x grid cells) that ``explain --svg`` draws (about 90 MB of SVG).
SVG_MAX_CELLS = 1_000_000


def _read_state(path: str) -> list[tuple[int, str]]:
    """The rows of a state file ('-' is stdin) with their line numbers; blank lines and
    '%'/';' comments are skipped.  :func:`_state_rows` checks their characters."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        raise SatnonoError(f"{path}: cannot read: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise SatnonoError(f"{path}: not a text file") from None
    rows = []
    for n, line in enumerate(text.splitlines(), 1):
        t = line.strip()
        if not t or t[0] in "%;":
            continue
        rows.append((n, t))
    return rows


def _known(path: str, numbered: list[tuple[int, str]], puzzle: Any) -> Any:
    """The partial state of a state file, as :func:`satnono.explain.explain` takes it for the
    puzzle, checked: a rectangle's rows over its characters and '?' ('#', '.', '?' in black
    and white; the palette's characters and '?' in colour), a triddler's text rows.  Raises
    SatnonoError (one line, naming the file)."""
    from ..explain import board_of

    if isinstance(puzzle, Puzzle):  # the characters first, by line
        chars = puzzle.chars if puzzle.is_color else "#." + puzzle.chars
        for n, t in numbered:
            bad = set(t) - set(chars + "?")
            if bad:
                if not puzzle.is_color:
                    raise SatnonoError(f"{path}:{n}: a state row holds only '#', '.' and '?', not "
                                       f"{''.join(sorted(bad))!r}")
                raise SatnonoError(f"{path}:{n}: a state row holds only the palette's characters {chars!r} and '?', "
                                   f"not {''.join(sorted(bad))!r}")
    board = board_of(puzzle)
    rows = [t for _, t in numbered]
    try:
        known = rows if isinstance(puzzle, Puzzle) else board.picture_of(rows)
        board.start(known)
    except ValueError as e:
        raise SatnonoError(f"{path}: {e}") from None
    return known


@click.command("explain", epilog=GRADE_HELP + "\n\n" + EXPLAIN_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option()
@json_option()
@svg_option(type=click.Path(), help="Draw every step as SVG into the new folder OUT (OUT/step-0001.svg, ...): the step's line "
                   "shaded, its new cells outlined. One puzzle only, at most a million cells in all "
                   "(steps x grid size; use --max-steps for large puzzles). Rectangular puzzles only: a "
                   "triddler is refused in one line.")
@force_option("Replace OUT if it exists (only a folder holding step-*.svg files).")
@click.option("--max-steps", type=click.IntRange(min=0), default=None, metavar="N", help="Stop after N steps.")
@click.option("--depth", type=click.IntRange(0, 2), default=2, show_default=True,
              help="Deepest probing: 0 line logic only, 1 or 2.")
@click.option("--budget", type=click.IntRange(min=0), default=None, metavar="CALLS",
              help="Probing effort per puzzle in line-solver calls (default 120000, up to about a second); when it "
                   "runs out the grade is a lower bound.")
@click.option("--state", "state_file", default=None, metavar="PARTIAL",
              help="Start from this partly solved grid (rows of '#', '.', '?'; in colour the palette's "
                   "characters and '?'; a triddler's rows as webpbn writes them, each between '/' or '\\') "
                   "instead of the empty grid.")
@timeout_option(1.0, "Time for the uniqueness check (SAT) that words how an explanation ends when logic stops.")
@max_memory_option
@click.option("--grids", is_flag=True, help="Draw the grid after every step, its line marked and new cells highlighted.")
@click.option("--step", "only_step", type=click.IntRange(min=1), default=None, metavar="K",
              help="Show only step K, with its grid.")
@ascii_option
def explain_cmd(file: str, fmt: str | None, as_json: bool, svg_out: str | None, force: bool, max_steps: int | None,
                depth: int, budget: int | None, state_file: str | None, timeout: float, grids: bool,
                only_step: int | None, ascii_: bool) -> None:
    """Explain, step by step, how each puzzle of FILE is solved, and grade it.

    Line steps name the row or column (counted from 1), its clue, the cells
    they settle and why: a block's overlap between its leftmost and rightmost
    positions (overlap), a block pinned against the edge or a white cell
    (edge) or by known cells (fixed), a line whose black cells are all known
    (complete) or whose free cells are all needed (fill), a gap too small for
    any block (gap), cells no block reaches (reach), an empty clue (empty), or
    the general case: every placement that fits puts this value here
    (placements, with their number). Easy steps come first. When line logic
    is stuck, a probe step shows that assuming a cell's value leads to a line
    with no placement (its refutation chain follows, indented). When neither
    settles the rest, the explanation says so and why.

    Colour puzzles are explained too: a step may settle cells (their colour)
    or only rule colours out of cells; techniques as above (but gap), plus absent (the
    clue has no block of some colour), with complete per colour, fill ruling
    out the background, and reach per colour. A probe assumes one colour and
    rules it out. Grids and SVG are drawn in the puzzle's colours.

    An extra line (a 'line' rule) is a lane of the puzzle: its steps are line
    steps on 'extra line N' (counted from 1 in rule order), naming the cells
    they settle as (row,column).

    --json prints one object per puzzle: file, index (multi-puzzle files),
    name, width, height, steps (kind 'line', 'probe' or 'rule', line 'row',
    'column' or 'line' -- an extra line, with its name --, index from 0,
    clue, cells as [row, col, value] with value '#'
    or '.' -- in colour the palette character; colour steps add colors (each
    block's character) and excluded as [row, col, characters ruled out] for
    cells not settled; technique, text; probe steps add probe [row, col,
    assumed value], depth and chain), solved, status, remaining (0-based
    [row, col] left open), grid ('?' for open cells), difficulty, note,
    seconds.

    Triddlers (and puzzles of any geometry) are explained the same way over
    their lanes: a line step names its lane (row 3, / line 4, \\ line 2,
    counted from 1) and the cells it settles as 'row R, cell K' (K counted
    from the left within row R); positions in a reason count along the lane
    from its start (a row from the left, a / line from its top end, a \\
    line from its top-left end). --grids draws the cells after every step as
    webpbn's text rows; --svg is for rectangles only. Their --json has
    geometry and cells (the cell count) instead of width and height; a
    step's line is the lane's family ('row', '/', '\\'), index from 0
    within it, name (as in the text), cells as [cell, value] (cell numbers
    from 0, row by row, each row left to right); probe [cell, value];
    remaining lists cell numbers and grid the text rows ('?' open).
    """
    from ..explain import DEFAULT_PROBE_BUDGET, explain
    from ..explain.draw import draw_step, replay, step_legend, svg_files
    from ..formats import save_folder

    if svg_out is not None and os.path.lexists(svg_out) and not force:
        raise CliExit(EXIT_INPUT, f"{svg_out}: exists; not overwritten (use --force)")
    numbered = None
    if state_file is not None:
        try:
            numbered = _read_state(state_file)
        except SatnonoError as e:
            raise CliExit(EXIT_INPUT, str(e)) from None
    items = list(iter_puzzles((file,), fmt))
    if svg_out is not None and len(items) > 1:
        raise click.UsageError(f"--svg draws one puzzle, but {file} holds {len(items)}; pick one with FILE#k")
    codes: list[int] = []
    for fname, index, puzzle, error in items:
        if error is not None:
            codes.append(EXIT_INPUT)
            if as_json:
                click.echo(json.dumps({"file": fname, **({"index": index} if index is not None else {}),
                                       "status": "error", "reason": error}))
            err(error)
            continue
        assert puzzle is not None
        where = label(fname, index)
        if svg_out is not None and not isinstance(puzzle, Puzzle):
            raise CliExit(EXIT_INPUT, f"{where}: explain --svg draws rectangular puzzles only; "
                                      "a triddler's steps are shown as text (--grids draws its rows)")
        known = None
        if numbered is not None:
            try:
                known = _known(state_file, numbered, puzzle)  # type: ignore[arg-type]
            except SatnonoError as e:
                err(str(e))
                codes.append(EXIT_INPUT)
                continue
        try:
            ex = explain(puzzle, known, max_steps, depth,
                         DEFAULT_PROBE_BUDGET if budget is None else budget, verdict_timeout=timeout)
        except ValueError as e:  # (a state that does not fit: _known checked it already)
            err(f"{where}: {e}")
            codes.append(EXIT_INPUT)
            continue
        except Exception as e:  # a bug: one line, no traceback
            err(f"{where}: internal error: {type(e).__name__}: {e}")
            codes.append(EXIT_INTERNAL)
            continue
        codes.append(EXIT_UNIQUE if ex.solved else EXIT_NONE if ex.status == "none" else EXIT_MULTIPLE)
        if svg_out is not None and len(ex.steps) * puzzle.width * puzzle.height > SVG_MAX_CELLS:
            raise CliExit(EXIT_INPUT, f"{svg_out}: {len(ex.steps)} steps of a {puzzle.width}x{puzzle.height} grid "
                                      f"are too many to draw (over {SVG_MAX_CELLS:,} cells in all); use --max-steps")
        if svg_out is not None:
            try:
                save_folder(svg_out, svg_files(puzzle, ex.steps, known), overwrite=force,
                            replaceable=lambda n: n.startswith("step-") and n.endswith(".svg"))
            except FileExistsError:
                raise CliExit(EXIT_INPUT, f"{svg_out}: exists and is not a folder of step-*.svg files; "
                                          "not replaced") from None
            except OSError as e:
                raise CliExit(EXIT_INPUT, f"{svg_out}: cannot write: {e.strerror or e}") from None
        if as_json:
            d: dict[str, Any] = {"file": fname}
            if index is not None:
                d["index"] = index
            d.update(ex.as_dict())
            click.echo(json.dumps(d))
            continue
        click.echo(explanation_head(where, ex))
        if only_step is not None and only_step > len(ex.steps):
            err(f"{where}: step {only_step} does not exist (the explanation has {len(ex.steps)})")
            codes.append(EXIT_USAGE)
            continue
        if grids or only_step is not None:
            click.echo(step_legend(puzzle, ascii_))
        for k, (before, st) in enumerate(replay(puzzle, ex.steps, known), 1):
            if only_step is not None and k != only_step:
                continue
            for text in step_lines(st, f"{k}."):
                click.echo(text)
            if grids or only_step is not None:
                click.echo(draw_step(puzzle, before, st, ascii_))
                click.echo("")
        click.echo(ex.note)
        if svg_out is not None:
            click.echo(f"wrote {len(ex.steps)} SVG files into {svg_out}")
    done(batch_code(codes))


@click.command("hint", epilog=HINT_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option()
@click.option("--state", "state_file", required=True, metavar="PARTIAL",
              help="The partly solved grid: one row per line of '#' (black), '.' (white), '?' (unknown) -- "
                   "in colour the palette's characters ('.' the background) and '?'; a triddler's rows as "
                   "webpbn writes them, each between '/' or '\\' following the outline; '-' reads standard input.")
@json_option()
@timeout_option(10.0, "Time for checking the puzzle's solution (SAT).")
@max_memory_option
@ascii_option
def hint_cmd(file: str, fmt: str | None, state_file: str, as_json: bool, timeout: float, ascii_: bool) -> None:
    """The easiest next deduction from a partly solved grid of the puzzle in FILE.

    If a filled cell contradicts the solution, names it instead (and gives no
    hint). With --json: one object with kind ('step', 'wrong', 'solved',
    'stuck' or 'contradiction'), text, step (as in 'explain --json', or null),
    wrong (0-based [row, col] of wrong filled cells) and status (the
    puzzle's verdict).

    A triddler's state is its rows as webpbn writes a solution, each row
    between '/' or '\\' following the slope of the outline, '?' for an
    unknown cell; cells are named 'row R, cell K' and wrong lists cell
    numbers (from 0, row by row); the text output draws the rows after the
    step.
    """
    from ..explain import next_hint
    from ..explain.draw import draw_step, step_legend
    from ..formats import load
    from ..results import Limits

    try:
        puzzle = load(file, fmt)
        known = _known(state_file, _read_state(state_file), puzzle)
    except SatnonoError as e:
        raise CliExit(EXIT_INPUT, str(e)) from None
    try:
        h = next_hint(puzzle, known, Limits(timeout))
    except ValueError as e:
        raise CliExit(EXIT_INPUT, f"{state_file}: {e}") from None
    except Exception as e:  # a bug: one line, no traceback
        raise CliExit(EXIT_INTERNAL, f"{file}: internal error: {type(e).__name__}: {e}") from None
    if as_json:
        click.echo(json.dumps({"file": file, **h.as_dict()}))
    else:
        click.echo(f"{h.kind}: {h.text}")
        if h.step is not None:
            click.echo(step_legend(puzzle, ascii_, hint=True))
            click.echo(draw_step(puzzle, known, h.step, ascii_))
        elif h.wrong and isinstance(puzzle, Puzzle):  # (a rectangle's grid with the wrong cells marked)
            from ..report import render_grid

            pal = puzzle.palette if puzzle.is_color else None
            marks = [(r, c) for r, c in h.wrong]
            shown = [row.replace("?", ".") for row in known]
            click.echo("(filled cells that differ from the solution are marked; unknown cells are drawn "
                       + ("as background)" if pal else "white)"))
            click.echo(render_grid(shown, ascii_, marks, pal))
    code = {"step": EXIT_UNIQUE, "solved": EXIT_UNIQUE, "stuck": EXIT_MULTIPLE}.get(h.kind, EXIT_NONE)
    done(code)
