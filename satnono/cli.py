"""The ``satnono`` command line: the only module that imports click or prints."""

from __future__ import annotations

import json
import os
import signal
import sys
from typing import Iterator

import click

from . import __version__
from .errors import ParseError, SatnonoError
from .interrupt import SIGNALS, Terminated
from .model import Puzzle, plain_black
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


EXIT_SIGINT = 130
EXIT_SIGTERM = 143


# --- interruption ------------------------------------------------------------
# Ctrl-C (SIGINT) raises KeyboardInterrupt, SIGTERM raises Terminated (a KeyboardInterrupt),
# both in the main thread; inside a SAT call python-sat catches SIGINT and satnono.sat turns
# it into KeyboardInterrupt too.  Writing a result (a resume-file line, an output file) is a
# critical section: a signal that arrives during it takes effect right after it, so a record
# is either written whole and counted, or not written at all.


_SIGNALS = SIGNALS


def _stop_code(e: BaseException) -> int:
    return EXIT_SIGTERM if isinstance(e, Terminated) else EXIT_SIGINT


def _stopped(e: BaseException, done: int, total: int | None, what: str = "puzzles", extra: str = "") -> None:
    """Report an interruption on stderr and exit 130 (SIGINT) or 143 (SIGTERM)."""
    verb = "terminated" if isinstance(e, Terminated) else "interrupted"
    of = f" of {total}" if total is not None else ""
    _err(f"{verb} after {done}{of} {what}{extra}")
    sys.exit(_stop_code(e))


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
    help="Input format (non, xml, nin, mk, cwd, g, tournament, json, pbm, txt, ppm, png, pynogram, nonogrid, "
         "picross); told from the content by default (the file suffix only breaks ties).",
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


def _rule_option(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple:
    from .formats import EXTRA_RULES

    if not value:
        EXTRA_RULES.set(())
        return ()
    from .rules import RuleError, rule_from_spec

    try:
        rules = tuple(rule_from_spec(text) for text in value)
    except RuleError as e:
        raise click.BadParameter(str(e)) from None
    EXTRA_RULES.set(rules)  # also without the option: nothing of an earlier call stays
    return rules


grade_option = click.option(
    "--grade", is_flag=True,
    help="Also grade each puzzle as 'satnono explain' does (the 'difficulty' of --json, a 'grade:' line "
         "otherwise); probing bounded to about half a second a puzzle. Off by default: it costs more than the verdict.")

RULE_HELP = ("An extra rule every solution keeps (repeatable): symmetric:AXIS (left-right, top-bottom, "
             "rotate180, transpose), count:=N / count:>=N / count:<=N [:COLOUR], no-square[:COLOUR], "
             "connected[:COLOUR]. Rules in a JSON puzzle file apply too.")
rule_option = click.option("--rule", "rules", multiple=True, metavar="RULE", callback=_rule_option,
                           expose_value=False, help=RULE_HELP)


def _background_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    from .formats import DEFAULT_BACKGROUND

    if value is not None:
        from .formats.picture import background_rgb

        try:
            background_rgb(value)
        except ValueError as e:
            raise click.BadParameter(str(e)) from None
    DEFAULT_BACKGROUND.set(value)  # also without the option: nothing of an earlier call stays
    from .formats import EXTRA_RULES
    EXTRA_RULES.set(())  # set again by the command's --rule, if it has one
    return value


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="satnono")
@click.option("--background", metavar="COLOUR", default=None, callback=_background_option, expose_value=False,
              help="The background colour of PPM/PNG pictures read by any command (a colour name or "
                   "#rrggbb; white by default), e.g. satnono --background '#00ff00' check level.png")
def cli() -> None:
    """satnono: solve nonograms and prove their solutions unique, with line logic and SAT.

    FILE arguments may be '-' (standard input) or FILE#k (the k-th puzzle of a
    multi-puzzle file, counting from 1).
    """


class _Bar:
    """A progress bar on stderr (by default only when stderr is a terminal); text for stdout
    goes through :meth:`echo` so that it does not tear the bar."""

    def __init__(self, label: str, show: bool | None = None) -> None:
        self.label = label
        self.show = show if show is not None else sys.stderr.isatty()
        self.progress = None

    def start(self, total: int, completed: int = 0) -> None:
        if not self.show or self.progress is not None:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        console = Console(stderr=True)
        self.progress = Progress(TextColumn(self.label), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                                 console=console, redirect_stdout=False, redirect_stderr=False,
                                 transient=console.is_terminal)
        self.progress.start()
        self.progress.add_task(self.label, total=total, completed=completed)

    def advance(self) -> None:
        if self.progress is not None:
            self.progress.advance(self.progress.task_ids[0])

    def echo(self, text: str, err: bool = False) -> None:
        if self.progress is not None and (err or sys.stdout.isatty()) and sys.stderr.isatty():
            # one terminal: print above the live bar (through its console)
            self.progress.console.print(text, markup=False, highlight=False, soft_wrap=True)
        else:
            click.echo(text, err=err)

    def stop(self) -> None:
        if self.progress is not None:
            self.progress.stop()
            self.progress = None


def _run_checks(files, fmt, timeout, solver, emit, bar: _Bar, checker: Checker | None = None,
                workers: int = 1, scheduler: str | None = None, graded: bool = False) -> int:
    checker = checker or Checker(solver)
    items = list(iter_puzzles(files, fmt))
    codes: list[int] = []
    batch = None
    if workers > 1 or scheduler:  # on the batch engine: results in input order, graded in the workers
        from .classify import check_task, run_items

        lead = next((k for k, it in enumerate(items) if it[3] is None), len(items))
        batch = run_items(check_task, [(p, timeout, solver, graded) for _, _, p, e in items if e is None],
                          workers, scheduler, timeout, on_start=_batch_started(bar, len(items), lead))
    else:
        bar.start(len(items))
    try:
        for file, index, puzzle, error in items:
            if error is not None:
                with _SIGNALS.critical():
                    codes.append(EXIT_INPUT)
                    emit(file, index, None, error)
                    bar.advance()
                continue
            assert puzzle is not None
            extra = {}
            try:
                if batch is None:
                    res = checker.check(puzzle, timeout)
                else:
                    kind, res, diff = _batched(next(batch)[1])
                    if kind == "lost":
                        with _SIGNALS.critical():
                            codes.append(EXIT_UNKNOWN if diff else EXIT_INTERNAL)
                            emit(file, index, None, f"{label(file, index)}: {res}")
                            bar.advance()
                        continue
                    if kind == "internal":
                        raise InternalError(res)
                    extra = {"difficulty": diff} if graded else {}
            except InternalError as e:
                with _SIGNALS.critical():
                    codes.append(EXIT_INTERNAL)
                    emit(file, index, None, f"internal error: {e}")
                    bar.advance()
                continue
            with _SIGNALS.critical():
                codes.append(STATUS_EXIT[res.status])
                emit(file, index, res, None, **extra)
                bar.advance()
    except KeyboardInterrupt as e:
        bar.stop()
        sys.stdout.flush()
        _stopped(e, len(codes), len(items))
    finally:
        bar.stop()
        if batch is not None:
            batch.close()
    return _batch_code(codes)


def _batched(result):  # type: ignore[no-untyped-def]
    """A check task's result as ``(kind, payload, extra)``; a lost task as ``("lost", reason, timed_out)``."""
    from .batch import Lost

    if isinstance(result, Lost):
        return "lost", result.reason, result.timed_out
    return result


progress_option = click.option("--progress/--no-progress", default=None,
                               help="Progress bar on stderr. Default: when stderr is a terminal.")

# --- batch back ends (satnono.batch): --workers N local processes, --scheduler for Dask --------
EXIT_BATCH = 7
BATCH_EXIT_HELP = ("\n  7  the batch back end failed: the Dask scheduler cannot be reached or went "
                   "away (--scheduler), or (generate) a worker died on a chunk; finished results are kept")
workers_option = click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
                              help="Worker processes on this machine (results in input order).")
scheduler_option = click.option(
    "--scheduler", envvar="SATNONO_SCHEDULER", default=None, metavar="ADDRESS",
    help="Run on a Dask cluster: tcp://HOST:PORT or tls://HOST:PORT (TLS from Dask's config), or "
         "local[:N] for a LocalCluster of N workers on 127.0.0.1; also $SATNONO_SCHEDULER. "
         "Needs pip install 'satnono[dask]'.")


def _batch_started(bar: "_Bar", total: int, done: int = 0):  # type: ignore[no-untyped-def]
    """The batch engine's start callback: say where the Dask dashboard is, start the bar."""
    def started(runner) -> None:  # type: ignore[no-untyped-def]
        if getattr(runner, "dashboard", None):
            _err(f"Dask dashboard: {runner.dashboard}")
        bar.start(total, done)
    return started


@cli.command(epilog=EXIT_HELP + BATCH_EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@rule_option
@timeout_option
@solver_option
@json_option
@grade_option
@progress_option
@workers_option
@scheduler_option
def check(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool,
          grade: bool, progress: bool | None, workers: int, scheduler: str | None) -> None:
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
    seconds, stats).
    """
    checker = Checker(solver)
    bar = _Bar("check", progress)

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None, **graded) -> None:
        # with --grade: graded here, or in a batch worker (which counted its time in res.seconds too)
        difficulty = graded.get("difficulty") if res is not None else None
        if grade and res is not None and difficulty is None:
            difficulty = _graded(res, checker)
        if as_json:
            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            if difficulty is not None:
                d["difficulty"] = difficulty
            bar.echo(json.dumps(d))
            if error is not None:
                bar.echo(f"satnono: {error}", err=True)
        elif res is not None:
            bar.echo(f"{label(file, index)}: {verdict_text(res)}")
            if difficulty is not None:
                bar.echo(f"  grade: {difficulty['text']}")
        else:
            bar.echo(f"satnono: {error or ''}", err=True)

    sys.exit(_run_checks(files, fmt, timeout, solver, emit, bar, checker, workers, scheduler, graded=grade))


def _graded(res: CheckResult, checker: Checker) -> dict:
    """The difficulty grade of a checked puzzle (``satnono explain``'s); its time is added to
    ``res.seconds``, so that the seconds reported cover everything reported."""
    from .classify import graded

    return graded(res, checker)


def _picture_outputs(svg_out: str | None, png_out: str | None, force: bool) -> list[tuple[str, str]]:
    """The pictures asked for, as ``(path, kind)``; exits 6 when one exists and --force is not given."""
    outputs = [(o, kind) for o, kind in ((svg_out, "svg"), (png_out, "png")) if o]
    if svg_out and png_out and os.path.abspath(svg_out) == os.path.abspath(png_out):
        raise click.UsageError("--svg and --png name the same file")
    for path, _ in outputs:
        if os.path.lexists(path) and not force:
            _err(f"{path}: exists; not overwritten (use --force)")
            sys.exit(EXIT_INPUT)
    return outputs


def _write_pictures(outputs: list[tuple[str, str]], force: bool, render) -> None:
    """Write each picture (``render(kind)`` gives its bytes) atomically; exits 6 when one cannot be written."""
    from .formats import write_atomic

    for path, kind in outputs:
        data = render(kind)
        try:
            with _SIGNALS.critical():
                write_atomic(path, data, overwrite=force)
        except FileExistsError:
            _err(f"{path}: exists; not overwritten (use --force)")
            sys.exit(EXIT_INPUT)
        except OSError as e:
            _err(f"{path}: cannot write: {e.strerror or e}")
            sys.exit(EXIT_INPUT)


@cli.command(epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@rule_option
@timeout_option
@solver_option
@json_option
@ascii_option
@click.option("--svg", "svg_out", default=None, metavar="OUT", help="Also draw the (first) solution as SVG in OUT.")
@click.option("--png", "png_out", default=None, metavar="OUT", help="Also draw the (first) solution as PNG in OUT.")
@click.option("--cell", type=click.IntRange(1, 64), default=16, show_default=True,
              help="Pixels per cell in --svg/--png pictures.")
@click.option("--force", is_flag=True, help="Overwrite the --svg/--png files if they exist.")
@grade_option
def solve(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool, ascii_: bool,
          svg_out: str | None, png_out: str | None, cell: int, force: bool, grade: bool) -> None:
    """Print the solution of every puzzle; for an ambiguous puzzle also a second
    solution with the cells that differ marked.

    Colour puzzles are drawn in 24-bit colour on a terminal, and as the
    palette's characters ('.' background) with --ascii or when stdout is not a
    terminal. --svg/--png draw the first solution in the puzzle's colours (one
    puzzle only: give FILE#k for a multi-puzzle file); nothing is drawn when
    there is no solution.
    """
    outputs = _picture_outputs(svg_out, png_out, force)
    if outputs and len(files) != 1:
        raise click.UsageError("--svg/--png draw one puzzle: give one FILE")
    drawn = [0]

    def draw(res: CheckResult) -> None:
        from .formats.picture import write_png
        from .render import solution_svg

        drawn[0] += 1
        if drawn[0] > 1:
            if drawn[0] == 2:
                _err(f"{files[0]} holds several puzzles: only the first was drawn (choose one with FILE#k)")
            return
        if not res.solutions:
            _err(f"{files[0]}: no solution to draw")
            return
        grid = res.solutions[0]
        _write_pictures(outputs, force, lambda kind: solution_svg(res.puzzle, grid, cell).encode("utf-8")
                        if kind == "svg" else write_png(res.puzzle, grid, scale=cell))

    checker = Checker(solver)

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None) -> None:
        if outputs and res is not None:
            draw(res)
        difficulty = _graded(res, checker) if grade and res is not None else None
        if as_json:
            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            if difficulty is not None:
                d["difficulty"] = difficulty
            click.echo(json.dumps(d))
            if error is not None:
                _err(error)
            return
        if res is None:
            _err(error or "")
            return
        click.echo(f"{label(file, index)}: {verdict_text(res)}")
        if difficulty is not None:
            click.echo(f"grade: {difficulty['text']}")
        pal = res.puzzle.palette
        colour = not plain_black(pal)  # a one-colour puzzle of its own shows its own characters
        # colour grids: 24-bit terminal colour on a terminal, the palette's characters otherwise
        plain = ascii_ or (colour and not sys.stdout.isatty())
        if res.solutions:
            click.echo(render_grid(res.solutions[0], plain, palette=pal))
        if len(res.solutions) > 1:
            click.echo("second solution " + diff_legend(plain, colour) + ":")
            click.echo(render_grid(res.solutions[1], plain, res.diff, palette=pal))
        click.echo("")

    sys.exit(_run_checks(files, fmt, timeout, solver, emit, _Bar("solve", False), checker))


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


# --- the level editor (issue 11) --------------------------------------------

EDIT_EXIT_HELP = """\b
Exit codes:
  0  the editor was stopped (Ctrl+C)
  1  internal error (a bug: please report it)
  2  usage error (bad option or argument)
  6  FILE could not be read, or the address could not be bound"""


@cli.command("edit", epilog=EDIT_EXIT_HELP)
@click.argument("file", required=False)
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on (0: a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but the loopback address exposes the editor to the network.")
@click.option("--no-browser", is_flag=True, help="Do not open the page in the default browser.")
@click.option("-t", "--timeout", type=click.FloatRange(min=0, min_open=True), default=5.0, show_default=True,
              metavar="SECONDS", help="Time limit for each verdict (then the page says 'unknown').")
def edit_cmd(file: str | None, port: int, host: str, no_browser: bool, timeout: float) -> None:
    """Draw a puzzle in the browser and see live whether it is a good one.

    Serves a local page (its URL is the first line printed) with a grid to
    paint in black and white or with a palette of colours (up to 32), the
    clues as a player sees them, the verdict recomputed on every
    edit (unique and line-solvable, unique but needs search, multiple with the
    differing cells marked, none, unknown), the placements left per row and
    column, and the fix proposals of `satnono fix`. FILE (any format satnono
    reads, colour ones included, FILE#k, or a black-and-white picross level
    NAME.level with NAME.pbm and NAME.ppm beside it) is opened, and Save
    writes back to it; a FILE that does not
    exist yet is created on the first Save. Stop with Ctrl+C.
    """
    from .web.session import DocError, Editor

    editor = Editor(file, timeout=timeout)
    try:
        editor.initial()  # a file that cannot be read is reported here, not in the page
    except (ParseError, DocError) as e:
        _err(str(e))
        sys.exit(EXIT_INPUT)
    from .web.server import serve

    def ready(url: str) -> None:
        click.echo(url)
        sys.stdout.flush()
        if not no_browser:
            import webbrowser

            webbrowser.open(url)

    try:
        serve(editor, host, port, ready)
    except KeyboardInterrupt:  # Ctrl+C: the server has shut down cleanly
        sys.exit(0)
    except OSError as e:
        _err(f"cannot listen on {host}:{port}: {e.strerror or e}")
        sys.exit(EXIT_INPUT)


# --- generate and fix (issue 4) ---------------------------------------------

GENERATE_EXIT_HELP = """\b
Exit codes:
  0  COUNT puzzles were generated
  1  internal error (a bug: please report it)
  2  usage error (bad --size, --density or other option)
  5  --max-candidates ran out first (the puzzles found are written)
  6  an output file already exists (nothing is written) or cannot be written"""

_GEN_SUFFIX = {"json": "json", "non": "non", "pbm": "pbm"}


def _size_option(ctx: click.Context, param: click.Parameter, value: str) -> tuple[int, int]:
    import re

    from .model import MAX_SIDE

    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value or "")
    if not m:
        raise click.BadParameter(f"expected WIDTHxHEIGHT such as 20x15, got {value!r}")
    w, h = int(m.group(1)), int(m.group(2))
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise click.BadParameter(f"each side must be between 1 and {MAX_SIDE}, got {w}x{h}")
    return w, h


def _density_option(ctx: click.Context, param: click.Parameter, value: str) -> tuple[float, float]:
    parts = (value or "").split("-")
    try:
        if len(parts) != 2:
            raise ValueError
        lo, hi = (float(x.rstrip("%")) / (100 if x.strip().endswith("%") else 1) for x in parts)
    except ValueError:
        raise click.BadParameter(f"expected LO-HI such as 0.2-0.7 (or 20%-70%), got {value!r}") from None
    if not (0.0 <= lo <= hi <= 1.0):
        raise click.BadParameter(f"need 0 <= LO <= HI <= 1, got {value!r}")
    return lo, hi


def _puzzle_json_line(p: Puzzle) -> str:
    """The puzzle in satnono's JSON format (palette and colours included), on one line."""
    from .formats import dumps

    return json.dumps(json.loads(dumps(p, "json")), ensure_ascii=False)


@cli.command(epilog=GENERATE_EXIT_HELP + BATCH_EXIT_HELP)
@click.option("--size", "size", required=True, callback=_size_option, metavar="WxH", help="Width x height, e.g. 25x25.")
@click.option("-n", "--count", type=click.IntRange(min=1), required=True, help="Number of puzzles to generate.")
@click.option("--seed", type=click.IntRange(min=0), required=True, help="Seed: the same seed and options give the same puzzles.")
@click.option("--density", default="0.2-0.7", show_default=True, callback=_density_option, metavar="LO-HI",
              help="Fraction of black cells: each candidate's target density is drawn uniformly from "
                   "LO-HI and pictures outside it are rejected. Line-solvable puzzles come mostly "
                   "from above 0.55, search ones from 0.4-0.6: a narrower band is faster.")
@click.option("--require", type=click.Choice(["line", "unique", "search", "any"]), default="line", show_default=True,
              help="line: solvable by line logic alone; unique: one solution (SAT-proved when line logic stalls); "
                   "search: unique but NOT line-solvable; any: density band only.")
@click.option("--min-open", type=click.IntRange(min=0), default=0, show_default=True,
              help="With --require search: at least this many cells left open by line logic.")
@click.option("--style", type=click.Choice(["noise", "smooth"]), default="noise", show_default=True,
              help="noise: independent cells; smooth: noise averaged over 3x3 (larger connected areas).")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Processes judging candidates (the output does not depend on it).")
@scheduler_option
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write puzzle-0001.EXT, ... into this directory (created if missing). Default: JSON lines on stdout.")
@click.option("--format", "fmt", type=click.Choice(list(_GEN_SUFFIX)), default="json", show_default=True,
              help="File format with --out.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True, metavar="SECONDS",
              help="SAT time limit per candidate; a candidate that exceeds it is rejected.")
@click.option("--max-candidates", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after drawing N candidates. Default: no limit.")
@click.option("--colors", "colors", type=click.IntRange(min=1, max=32), default=1, show_default=True, metavar="K",
              help="Block colours: 1 is black and white; K > 1 gives colour puzzles (colours a, b, ... with "
                   "default RGB; the density band counts every non-background cell).")
@click.option("--rule", "rules", multiple=True, metavar="RULE", callback=_rule_option,
              help="A rule every puzzle keeps (repeatable; spelled as for check): pictures are drawn to keep it "
                   "(mirrored for symmetric, one region for connected) and --require is judged under it.")
def generate(size: tuple[int, int], count: int, seed: int, density: tuple[float, float], require: str, min_open: int,
             style: str, workers: int, scheduler: str | None, out_dir: str | None, fmt: str, timeout: float,
             max_candidates: int | None, colors: int, rules: tuple) -> None:
    """Generate random puzzles that meet a requirement (line-solvable by default).

    Candidate i is drawn from (SEED, i) alone and candidates are accepted in
    order, so the same options give byte-identical output for any --workers.
    Statistics (candidates tried, rejected by density and by class,
    acceptance rate, time per puzzle) go to standard error.
    """
    import os

    from .formats import save
    from .generator import generate as _generate

    w, h = size
    if min_open and require != "search":
        raise click.UsageError("--min-open applies only to --require search")
    if out_dir is None and fmt != "json":
        raise click.UsageError(f"--format {fmt} needs --out (standard output gets JSON lines)")
    if colors > 1 and fmt == "pbm":
        raise click.UsageError("--format pbm holds black and white only; use json or non for --colors > 1")
    paths: list[str] = []
    if out_dir is not None:
        digits = max(4, len(str(count)))
        paths = [os.path.join(out_dir, f"puzzle-{k:0{digits}d}.{_GEN_SUFFIX[fmt]}") for k in range(1, count + 1)]
        existing = [p for p in paths if os.path.lexists(p)]
        if existing:
            more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
            _err(f"{existing[0]}: exists{more}; refusing to overwrite (nothing written)")
            sys.exit(EXIT_INPUT)
        try:
            os.makedirs(out_dir, exist_ok=True)
        except OSError as e:
            _err(f"{out_dir}: cannot create the directory: {e.strerror or e}")
            sys.exit(EXIT_INPUT)
    if rules and out_dir is not None and fmt != "json":
        raise click.UsageError(f"--format {fmt} cannot hold rules; use json with --rule")
    try:
        gen = _generate(w, h, count, seed=seed, density=density, require=require, style=style, min_open=min_open,
                        workers=workers, timeout=timeout, max_candidates=max_candidates, colors=colors, rules=rules,
                        scheduler=scheduler)
    except ValueError as e:  # a rule that does not fit the size or palette
        raise click.BadParameter(str(e), param_hint="'--rule'") from None
    gen.on_start = _batch_started(_Bar("generate", False), 0)
    written = 0
    try:
        for p in gen:
            with _SIGNALS.critical():  # a puzzle is written whole and counted, or not at all
                if out_dir is None:
                    click.echo(_puzzle_json_line(p))
                else:
                    save(p, paths[written], fmt, overwrite=False)
                written += 1
    except KeyboardInterrupt as e:
        sys.stdout.flush()
        _stopped(e, written, count, extra=f"; {out_dir} holds every finished file" if out_dir else "")
    except FileExistsError:
        _err(f"{paths[written]}: appeared while generating; refusing to overwrite")
        sys.exit(EXIT_INPUT)
    except OSError as e:
        _err(f"{paths[written] if out_dir else 'stdout'}: cannot write: {e.strerror or e}")
        sys.exit(EXIT_INPUT)
    st = gen.stats
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(st.reasons.items()))
    per = f"{st.seconds_per_accepted:.4f} s" if st.seconds_per_accepted is not None else "-"
    _err(f"generated {written} of {count} puzzles ({w}x{h}{f', {colors} colours' if colors > 1 else ''}, "
         f"require {require}, style {style}, "
         f"density {density[0]:g}-{density[1]:g}): {st.tried} candidates tried, "
         f"{st.rejected_density} rejected by density, {st.rejected_class} rejected by class"
         f"{f' ({reasons})' if reasons else ''}, acceptance rate {100 * st.acceptance_rate:.1f}%, "
         f"{per} per accepted puzzle, {st.seconds:.2f} s in all")
    if gen.exhausted:
        _err(f"--max-candidates {max_candidates} ran out before {count} puzzles were accepted")
        sys.exit(EXIT_UNKNOWN)
    sys.exit(0)


FIX_EXIT_HELP = """\b
Exit codes:
  0  proposals printed (or nothing to fix: unique and line-solvable already)
  1  internal error (a bug: please report it)
  2  usage error
  4  the clues have no solution
  5  time ran out before verified givens were found (what was found is printed)
  6  the file could not be read, holds several puzzles (use FILE#k),
     or its goal picture does not satisfy its clues"""


def _fix_dict(file: str, res) -> dict:
    def cells(prop):
        if prop is None:
            return None
        return {"givens": [{"row": g.row, "col": g.col, "black": g.black, "value": g.char} for g in prop.givens],
                "count": len(prop.givens), "line_solvable": prop.line_solvable}

    h = res.puzzle.height
    w = res.puzzle.width
    return {
        "file": file,
        "name": res.puzzle.name,
        "width": w,
        "height": h,
        "status": res.status.value,
        "line_solvable": res.line_solvable,
        "goal": list(res.goal) if res.goal else None,
        "goal_from": res.goal_from,
        "other": list(res.other) if res.other else None,
        "diff": [list(x) for x in res.diff],
        "givens_unique": cells(res.givens_unique),
        "givens_line": cells(res.givens_line),
        "edits": [{"row": e.row, "col": e.col, "black": e.black, "value": e.char, "line_solvable": e.line_solvable}
                  for e in res.edits],
        "edits_tried": res.edits_tried,
        "timed_out": res.timed_out,
        "reason": res.reason,
        "seconds": round(res.seconds, 6),
    }


@cli.command("fix", epilog=FIX_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option
@click.option("-t", "--timeout", type=click.FloatRange(min=0, min_open=True), default=20.0, show_default=True,
              metavar="SECONDS", help="Time limit for the whole search.")
@click.option("--max-edits", type=click.IntRange(min=0), default=5, show_default=True,
              help="Edits to propose of each kind (line-solvable; unique only).")
@json_option
@ascii_option
def fix_cmd(file: str, fmt: str | None, timeout: float, max_edits: int, as_json: bool, ascii_: bool) -> None:
    """Propose how to make an ambiguous (or not line-solvable) picture unique.

    Two kinds of proposal, each verified before it is printed: given cells
    (revealed to the player) that make the solution unique, and a set that
    makes it line-solvable; and single-cell edits of the picture (clues
    recomputed) that make it unique.  Without a goal picture in the file the
    first solution found is taken as the picture.  Rows and columns count from
    1 in text and from 0 in --json.
    """
    from .fixer import FixError, fix
    from .formats import load

    try:
        puzzle = load(file, fmt)
    except ParseError as e:
        _err(str(e))
        sys.exit(EXIT_INPUT)
    try:
        res = fix(puzzle, timeout=timeout, max_edits=max_edits)
    except FixError as e:
        _err(f"{file}: {e}")
        sys.exit(EXIT_INPUT)
    except InternalError as e:
        _err(f"internal error: {e}")
        sys.exit(EXIT_INTERNAL)
    if res.status == Status.NONE:
        code = EXIT_NONE
    elif res.needs_fix and (res.givens_unique is None or res.givens_line is None):
        code = EXIT_UNKNOWN
    elif res.status == Status.UNKNOWN:
        code = EXIT_UNKNOWN
    else:
        code = 0
    if as_json:
        click.echo(json.dumps(_fix_dict(file, res)))
        sys.exit(code)

    def where(r: int, c: int) -> str:
        return f"row {r + 1} col {c + 1}"

    pal = res.puzzle.palette

    def colour(ch: str) -> str:
        if not res.puzzle.is_color:
            return "white" if ch == "." else "black" if ch == "#" else f"{pal[1].name} ({ch})"
        if ch == ".":
            return "background"
        col = next(c for c in pal if c.char == ch)
        return f"{col.name} ({ch})"

    if res.status == Status.MULTIPLE:
        verdict = f"several solutions (a second one differs in {len(res.diff)} cells)"
    elif res.status == Status.UNIQUE:
        verdict = "unique (line-solvable)" if res.line_solvable else "unique, but not line-solvable"
    else:
        verdict = res.status.value
    click.echo(f"{file}: {verdict}")
    if res.reason:
        click.echo(res.reason)
    plain = ascii_ or (res.puzzle.is_color and not sys.stdout.isatty())
    if res.goal is not None and res.needs_fix:
        src = "from the file" if res.goal_from == "file" else "the first solution found: the file has none"
        if res.diff:
            from .report import ASCII, UNICODE

            gl = ASCII if ascii_ else UNICODE
            if res.puzzle.is_color:
                click.echo(f"picture ({src}); cells that differ in another solution marked "
                           f"{'*' if plain else '××'}:")
            else:
                click.echo(f"picture ({src}); cells that differ in another solution drawn "
                           f"{gl['diff_black']} (black here) and {gl['diff_white']} (white here):")
        else:
            click.echo(f"picture ({src}):")
        click.echo(render_grid(res.goal, plain, res.diff, palette=pal))
    for title, prop in (("givens for a unique solution", res.givens_unique),
                        ("givens for a line-solvable puzzle", res.givens_line)):
        if prop is None:
            if res.needs_fix:
                click.echo(f"{title}: not found in time")
            continue
        if not prop.givens:
            click.echo(f"{title}: none needed")
            continue
        cells = ", ".join(f"{where(g.row, g.col)} {colour(g.char)}" for g in prop.givens)
        extra = ", line-solvable too" if prop.target == "unique" and prop.line_solvable else ""
        n = len(prop.givens)
        click.echo(f"{title} ({n} cell{'s' if n != 1 else ''}, verified{extra}): {cells}")
    if res.needs_fix and res.goal is not None:
        total = res.puzzle.height * res.puzzle.width
        if res.edits:
            click.echo("single-cell edits (verified), nearest to the ambiguity first:")
            for e in res.edits:
                kind = "unique, line-solvable" if e.line_solvable else "unique, not line-solvable"
                click.echo(f"  {where(e.row, e.col)}: {colour(res.goal[e.row][e.col])} -> {colour(e.char)}  ({kind})")
        else:
            # a unique picture that needs search wants a line-solvable edit, not a unique one
            goal = "line-solvable" if res.status is Status.UNIQUE else "unique"
            click.echo(f"no single-cell edit makes it {goal}" + ("" if res.edits_tried == total else " (among those tried)"))
        click.echo(f"edits tried: {res.edits_tried} of {total} cells" + (" (time ran out)" if res.timed_out else ""))
    sys.exit(code)


# ---------------------------------------------------------------------------
# count, classify, diagnose (issue 3)

COUNT_EXIT_HELP = """\b
Exit codes:
  0  every puzzle was counted (exactly, or up to --max)
  1  internal error (a bug: please report it)
  2  usage error (bad option or argument)
  5  some count is only a lower bound because time ran out (--timeout)
  6  some input could not be read (the rest of the batch still runs)
A batch exits with the largest of 5-6 that applies; 1 takes precedence."""


def _count_dict(res, file: str, index: int | None) -> dict:
    p = res.puzzle
    d: dict = {"file": file}
    if index is not None:
        d["index"] = index
    d.update({
        "name": p.name, "width": p.width, "height": p.height,
        "count": res.count, "exact": res.exact, "capped": res.capped, "status": res.status,
        "line_solvable": res.line_solvable,
        "unknown_after_propagation": res.unknown_after_propagation,
        "components": [c.as_dict() for c in res.components],
        "seconds": round(res.seconds, 6), "reason": res.reason,
    })
    return d


def _count_text(res) -> str:
    n = f"{res.count:,}"
    noun = "solution" if res.count == 1 else "solutions"
    text = f"{n} {noun}" if res.exact else f"at least {n} {noun} (a lower bound: {res.reason})"
    if res.exact and res.count == 0 and res.reason:
        text += f": {res.reason}"
    if res.line_solvable:
        text += " (line-solvable)"
    comps = res.components
    if len(comps) > 1 or (comps and comps[0].method != "enumeration"):
        shown = ", ".join(
            f"{c.size} cells: {'' if c.exact else '>= '}{c.count:,} ({c.method})" for c in comps[:8])
        more = f", ... {len(comps) - 8} more" if len(comps) > 8 else ""
        text += f"  [{len(comps)} independent component{'s' if len(comps) != 1 else ''}: {shown}{more}]"
    return f"{text}  [{res.seconds:.3f} s]"


@cli.command("count", epilog=COUNT_EXIT_HELP + BATCH_EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@rule_option
@click.option("--max", "max_solutions", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop as soon as N solutions are known to exist; the count is then a proven "
                   "lower bound of at least N (exact: false). Default: count them all.")
@timeout_option
@click.option("--exact", is_flag=True,
              help="Count exactly even when --max is given (Ganak counts components past the "
                   "enumeration cap).")
@solver_option
@json_option
@workers_option
@scheduler_option
def count_cmd(files: tuple[str, ...], fmt: str | None, max_solutions: int | None, timeout: float | None,
              exact: bool, solver: str, as_json: bool, workers: int, scheduler: str | None) -> None:
    """Count the solutions of every puzzle, exactly (integers of any size).

    Line logic first; the cells it leaves open are split into independent
    components whose counts multiply. Each component is enumerated with
    blocking clauses up to a cap, then counted by a row-by-row dynamic
    programme or by Ganak (in a subprocess killed at --timeout). When time
    runs out the count is a proven lower bound with exact: false.

    With --json, one object per puzzle per line: file, index (multi-puzzle
    files), name, width, height, count (integer), exact, capped (true when
    --max stopped the count), status, line_solvable, unknown_after_propagation,
    components (size, count, exact, method, seconds; largest first), seconds,
    reason.
    """
    from .counting import count as count_solutions
    from .linesolve import LineSolver

    lines = LineSolver()
    codes: list[int] = []
    items = list(iter_puzzles(files, fmt))
    batch = None
    if workers > 1 or scheduler:  # on the batch engine, results in input order
        from .batch import Lost
        from .classify import count_task, run_items

        batch = run_items(count_task, [(p, max_solutions, timeout, exact, solver) for _, _, p, e in items if e is None],
                          workers, scheduler, timeout, on_start=_batch_started(_Bar("count", False), 0))
    try:
        for file, index, puzzle, error in items:
            if error is not None:
                with _SIGNALS.critical():
                    codes.append(EXIT_INPUT)
                    if as_json:
                        click.echo(json.dumps({"file": file, "count": None, "exact": False, "status": "error",
                                               "reason": error}))
                    _err(error)
                continue
            assert puzzle is not None
            try:
                res = (count_solutions(puzzle, max_solutions, timeout, exact, solver, line_solver=lines)
                       if batch is None else next(batch)[1])
                if batch is not None and isinstance(res, Lost):
                    with _SIGNALS.critical():
                        codes.append(EXIT_UNKNOWN if res.timed_out else EXIT_INTERNAL)
                        _err(f"{label(file, index)}: {res.reason}")
                    continue
            except Exception as e:  # a bug: report it on one line, keep going
                with _SIGNALS.critical():
                    codes.append(EXIT_INTERNAL)
                    _err(f"{label(file, index)}: internal error: {type(e).__name__}: {e}")
                continue
            with _SIGNALS.critical():
                codes.append(EXIT_UNIQUE if res.exact or res.capped else EXIT_UNKNOWN)
                if as_json:
                    click.echo(json.dumps(_count_dict(res, file, index)))
                else:
                    click.echo(f"{label(file, index)}: {_count_text(res)}")
    except KeyboardInterrupt as e:
        sys.stdout.flush()
        _stopped(e, len(codes), len(items))
    finally:
        if batch is not None:
            batch.close()
    sys.exit(_batch_code(codes))


CLASSIFY_EXIT_HELP = """\b
Exit codes:
  0  every puzzle was classified (whatever its class)
  1  internal error on some puzzle (recorded as class 'error'; the batch goes on)
  2  usage error (bad option or argument)
  5  some puzzle was not settled in time (class 'unknown')
  6  some input could not be read, e.g. a malformed file (class 'error')
  130  interrupted (Ctrl-C); the --resume file keeps every finished result
  143  terminated (SIGTERM); likewise
A batch exits with the largest of 5-6 that applies; 1 takes precedence.""" + BATCH_EXIT_HELP


def _classify_text(rec: dict) -> str:
    where = label(rec["file"], rec.get("index"))
    if rec["class"] == "error":
        return f"{where}: error: {rec['reason']}"
    cls = rec["class"]
    if rec.get("grade"):
        cls += f" (level {rec['level']}: {rec['grade']})"
    elif rec.get("level") and rec["level"] != cls:
        cls += f" (level {rec['level']})"
    count = rec["count"]
    shown = f"{count:,}" if rec["count_exact"] else f">= {count:,}"
    noun = "solution" if count == 1 and rec["count_exact"] else "solutions"
    extra = f", {rec['reason']}" if rec["class"] == "unknown" and rec.get("reason") else ""
    return (f"{where}: {cls}  [{rec['width']}x{rec['height']}, {rec['unknown_after_line']} cells left "
            f"after line logic, {shown} {noun}, {rec['seconds']:.3f} s{extra}]")


def _summary_table(summary: dict, console) -> None:
    from rich.table import Table

    table = Table(title="classify summary", title_justify="left")
    table.add_column("class")
    table.add_column("puzzles", justify="right")
    table.add_column("share", justify="right")
    total = summary["puzzles"] or 1
    for cls, n in summary["classes"].items():
        table.add_row(cls, str(n), f"{100 * n / total:.1f}%")
    table.add_row("total", str(summary["puzzles"]), "", end_section=True)
    console.print(table)
    unique = summary["unique"]
    lines = []
    if unique:
        lines.append(f"unique: {unique}; line-solvable: {summary['line_solvable']} of them "
                     f"({100 * summary['line_solvable_share_of_unique']:.1f}%), "
                     f"needing more than line logic: {unique - summary['line_solvable']}")
    else:
        lines.append("unique: 0")
    if summary["levels"]:
        lv = summary["levels"]
        lines.append(f"levels of unique puzzles: line {lv['line']}, probe {lv['probe']}, probe2 {lv['probe2']}, "
                     f"search {lv['search']}")
    lines.append(f"time in puzzles: {summary['seconds']:.1f} s")
    for text in lines:
        console.print(text, highlight=False, markup=False, soft_wrap=True)


@cli.command("classify", epilog=CLASSIFY_EXIT_HELP)
@click.argument("paths", nargs=-1, required=True)
@format_option
@rule_option
@click.option("--max", "max_solutions", type=click.IntRange(min=2), default=2, show_default=True, metavar="N",
              help="Count solutions until N are found (N >= 2); the count is then a lower bound "
                   "(count_exact: false).")
@timeout_option
@workers_option
@scheduler_option
@click.option("--resume", "resume", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Append each result to FILE as a JSON line as soon as it finishes (fsynced); "
                   "puzzles already in FILE (same file and index) are not run again.")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="CSV on stdout (a header, then one row per puzzle).")
@click.option("--probe", "probing", is_flag=True,
              help="Also grade unique puzzles as 'satnono explain' does: level line, probe (probing depth 1), "
                   "probe2 (depth 2) or search, with steps, probes and the grade in words; the probing budget "
                   "is about a second per puzzle (level_exact: false marks a lower bound).")
@progress_option
@solver_option
def classify_cmd(paths: tuple[str, ...], fmt: str | None, max_solutions: int, timeout: float | None,
                 workers: int, scheduler: str | None, resume: str | None, as_json: bool, as_csv: bool,
                 probing: bool, progress: bool | None, solver: str) -> None:
    """Classify every puzzle of files, directories (recursive) and multi-puzzle files.

    Classes: line (line logic alone solves it), search (unique, but needs more
    than line logic), multiple, none, unknown (not settled in --timeout seconds),
    error (unreadable input, e.g. a malformed file). Directories are walked in
    sorted order; files without a puzzle suffix are read only when their content
    clearly is a puzzle (READMEs, licences and CSV files are skipped).

    Results come in input order: one line per puzzle, or with --json one object
    per line (file, index, name, width, height, class, level, line_solvable,
    unknown_after_line, unknown_after_probe, count, count_exact, components,
    seconds, reason, level_exact, steps, probes, grade), or --csv. A summary table (counts per class,
    line-solvable versus unique) ends text output; with --json or --csv it goes
    to stderr.
    """
    import csv as csv_mod
    from contextlib import closing

    from rich.console import Console

    from .classify import CSV_FIELDS, Options, ResultLog, ResumeFileError, load_tasks, run_batch, summarize

    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    tasks = load_tasks(paths, fmt, exclude=[resume] if resume else ())
    if not tasks:
        _err("no puzzle files found")
    log = None
    if resume:
        try:
            log = ResultLog(resume)
        except ResumeFileError as e:
            _err(str(e))
            sys.exit(EXIT_INPUT)
        except OSError as e:
            _err(f"{resume}: cannot open the resume file: {e.strerror or e}")
            sys.exit(EXIT_INPUT)
        if log.dropped:
            _err(f"{resume}: dropped {log.dropped} damaged line(s) (incomplete, not JSON or not a "
                 "classify result); the file was rewritten without them")
    results: dict[int, dict] = {}
    if log is not None:
        for t in tasks:
            rec = log.records.get(t.key)
            if rec is not None:
                results[t.seq] = rec
    todo = [t for t in tasks if t.seq not in results]
    err_console = Console(stderr=True)
    writer = csv_mod.writer(sys.stdout, lineterminator="\n") if as_csv else None
    bar = _Bar("classify", progress)

    def emit(rec: dict) -> None:
        if as_json:
            bar.echo(json.dumps(rec))
        elif writer is not None:
            writer.writerow(["" if rec.get(f) is None else rec.get(f) for f in CSV_FIELDS])
        elif rec["class"] != "error":
            bar.echo(_classify_text(rec))
        if rec["class"] == "error":
            bar.echo(f"satnono: {rec['reason']}", err=True)

    if writer is not None:
        writer.writerow(CSV_FIELDS)
    next_seq = 0
    stop: KeyboardInterrupt | None = None

    def flush_ready() -> None:
        nonlocal next_seq
        while next_seq < len(tasks) and next_seq in results:
            emit(results[next_seq])
            next_seq += 1

    try:
        flush_ready()
        with closing(run_batch(todo, Options(max_solutions, timeout, probing, solver), workers, scheduler=scheduler,
                               on_start=_batch_started(bar, len(tasks), len(tasks) - len(todo)))) as stream:
            for task, rec in stream:
                with _SIGNALS.critical():  # the record is written and counted, or neither
                    if log is not None:
                        log.append(rec)
                    results[task.seq] = rec
                    bar.advance()
                    flush_ready()
    except KeyboardInterrupt as e:
        stop = e
    finally:
        bar.stop()
        if log is not None:
            log.close()
        sys.stdout.flush()
    if stop is not None:
        where = f"; {resume} holds every finished result" if resume else ""
        _stopped(stop, len(results), len(tasks), extra=where)
    records = [results[t.seq] for t in tasks]
    summary = summarize(records)
    if as_json or as_csv:
        _summary_table(summary, err_console)
    else:
        _summary_table(summary, Console(file=sys.stdout, highlight=False))
    codes = [EXIT_UNIQUE]
    for rec in records:
        if rec["class"] == "unknown":
            codes.append(EXIT_UNKNOWN)
        elif rec["class"] == "error":
            internal = str(rec.get("reason") or "").startswith("internal error")
            codes.append(EXIT_INTERNAL if internal else EXIT_INPUT)
    sys.exit(_batch_code(codes))


DIAGNOSE_EXIT_HELP = """\b
Exit codes:
  0  the puzzle is unique
  1  internal error (a bug: please report it)
  2  usage error (bad option or argument)
  3  the puzzle has several solutions
  4  the puzzle has no solution
  5  not settled in time (--timeout)
  6  the input could not be read, or an output file exists (use --force) or cannot be written"""


@cli.command("diagnose", epilog=DIAGNOSE_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option
@timeout_option
@solver_option
@click.option("--svg", "svg_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Write the heat map as SVG to OUT.")
@click.option("--png", "png_out", type=click.Path(dir_okay=False), default=None, metavar="OUT",
              help="Write the heat map as PNG to OUT.")
@click.option("--force", is_flag=True, help="Overwrite OUT files that exist.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object on stdout instead of text.")
@ascii_option
def diagnose_cmd(file: str, fmt: str | None, timeout: float | None, solver: str, svg_out: str | None,
                 png_out: str | None, force: bool, as_json: bool, ascii_: bool) -> None:
    """Show a puzzle author where a puzzle is ambiguous or contradictory.

    FILE holds one puzzle (or use FILE#k). After line logic: the rows and
    columns that still have more than one placement (and how many), the
    undetermined cells; for several solutions, the ambiguity region (the cells
    whose value is not the same in all solutions); for no solution, a minimal
    set of rows and columns whose clues together admit no solution (removing
    any one of them leaves satisfiable clues).

    Text output is a heat map: black and white cells settled by line logic,
    cells line logic leaves open, ambiguous cells, and cells of conflicting
    lines. --json gives the same as data (0-based [row, col] and line indices):
    name, width, height, status, line_solvable, after_line (rows of '#', '.',
    '?'), open_lines (axis, index, clue, placements, unknown), undetermined,
    solutions, ambiguous, ambiguity_complete, conflict (axis, index, clue),
    conflict_minimal, reason, seconds.
    """
    from .diagnose import diagnose
    from .formats import load
    from .render import render_heatmap, render_png, render_summary, render_svg

    outputs = _picture_outputs(svg_out, png_out, force)
    try:
        puzzle = load(file, fmt)
    except ParseError as e:
        _err(str(e))
        sys.exit(EXIT_INPUT)
    try:
        d = diagnose(puzzle, timeout, solver)
    except Exception as e:  # a bug: one line, no traceback
        _err(f"{file}: internal error: {type(e).__name__}: {e}")
        sys.exit(EXIT_INTERNAL)
    _write_pictures(outputs, force, lambda kind: render_svg(d).encode("utf-8") if kind == "svg" else render_png(d))
    if as_json:
        click.echo(json.dumps({"file": file, **d.as_dict()}))
    else:
        click.echo(f"{file}: {render_summary(d)}")
        click.echo(render_heatmap(d, ascii_))
    code = {"unique": EXIT_UNIQUE, "multiple": EXIT_MULTIPLE, "none": EXIT_NONE}.get(d.status, EXIT_UNKNOWN)
    sys.exit(code)


# --- explain and hint (issue 12) ----------------------------------------------

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

EXPLAIN_EXIT_HELP = """\b
Exit codes:
  0  logic settles every cell of every puzzle
  1  internal error (a bug: please report it)
  2  usage error (bad option or argument)
  3  logic stops before the end for some puzzle (it needs search, has
     several solutions, the probing budget ran out, or --max-steps)
  4  some puzzle has no solution (a line has no placement)
  6  some input could not be read, or OUT exists (use --force)"""

HINT_EXIT_HELP = """\b
Exit codes:
  0  a hint is given (or the grid is already solved)
  1  internal error (a bug: please report it)
  2  usage error (bad option or argument)
  3  no cell follows by line logic or probing (the rest needs search,
     or the puzzle has several solutions)
  4  a filled cell is wrong, the filled cells fit no solution, or the
     puzzle has no solution
  6  the puzzle or the state could not be read"""


#: Largest number of cells (steps x grid cells) that ``explain --svg`` draws (about 90 MB of SVG).
SVG_MAX_CELLS = 1_000_000


def _step_lines(st, number: str, indent: str = "") -> list[str]:
    out = [f"{indent}{number} {st.text}"]
    if st.kind == "probe":
        for k, sub in enumerate(st.chain, 1):
            out.extend(_step_lines(sub, f"{k}.", indent + "     "))
    return out


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


def _state_rows(path: str, numbered: list[tuple[int, str]], puzzle) -> list[str]:
    """The state's rows, each checked to hold only the puzzle's characters and '?'
    ('#', '.', '?' in black and white; the palette's characters and '?' in colour)."""
    chars = puzzle.chars if puzzle.is_color else "#." + puzzle.chars
    for n, t in numbered:
        bad = set(t) - set(chars + "?")
        if bad:
            if not puzzle.is_color:
                raise SatnonoError(f"{path}:{n}: a state row holds only '#', '.' and '?', not {''.join(sorted(bad))!r}")
            raise SatnonoError(f"{path}:{n}: a state row holds only the palette's characters {chars!r} and '?', "
                               f"not {''.join(sorted(bad))!r}")
    return [t for _, t in numbered]


@cli.command("explain", epilog=GRADE_HELP + "\n\n" + EXPLAIN_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option
@json_option
@click.option("--svg", "svg_out", type=click.Path(), default=None, metavar="OUT",
              help="Draw every step as SVG into the new folder OUT (OUT/step-0001.svg, ...): the step's line "
                   "shaded, its new cells outlined. One puzzle only, at most a million cells in all "
                   "(steps x grid size; use --max-steps for large puzzles).")
@click.option("--force", is_flag=True, help="Replace OUT if it exists (only a folder holding step-*.svg files).")
@click.option("--max-steps", type=click.IntRange(min=0), default=None, metavar="N", help="Stop after N steps.")
@click.option("--depth", type=click.IntRange(0, 2), default=2, show_default=True,
              help="Deepest probing: 0 line logic only, 1 or 2.")
@click.option("--budget", type=click.IntRange(min=0), default=None, metavar="CALLS",
              help="Probing effort per puzzle in line-solver calls (default 120000, up to about a second); when it "
                   "runs out the grade is a lower bound.")
@click.option("--state", "state_file", default=None, metavar="PARTIAL",
              help="Start from this partly solved grid (rows of '#', '.', '?'; in colour the palette's "
                   "characters and '?') instead of the empty grid.")
@click.option("-t", "--timeout", type=click.FloatRange(min=0, min_open=True), default=1.0, show_default=True,
              metavar="SECONDS", help="Time for the uniqueness check (SAT) that words how an explanation ends "
                                      "when logic stops.")
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

    --json prints one object per puzzle: file, index (multi-puzzle files),
    name, width, height, steps (kind 'line' or 'probe', line 'row' or
    'column', index from 0, clue, cells as [row, col, value] with value '#'
    or '.' -- in colour the palette character; colour steps add colors (each
    block's character) and excluded as [row, col, characters ruled out] for
    cells not settled; technique, text; probe steps add probe [row, col,
    assumed value], depth and chain), solved, status, remaining (0-based
    [row, col] left open), grid ('?' for open cells), difficulty, note,
    seconds.
    """
    from .explain import DEFAULT_PROBE_BUDGET, explain
    from .explain.draw import legend, render_step, replay, svg_files
    from .formats import save_folder

    if svg_out is not None and os.path.lexists(svg_out) and not force:
        _err(f"{svg_out}: exists; not overwritten (use --force)")
        sys.exit(EXIT_INPUT)
    numbered = None
    if state_file is not None:
        try:
            numbered = _read_state(state_file)
        except SatnonoError as e:
            _err(str(e))
            sys.exit(EXIT_INPUT)
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
            _err(error)
            continue
        assert puzzle is not None
        known = None
        if numbered is not None:
            try:
                known = _state_rows(state_file, numbered, puzzle)  # type: ignore[arg-type]
            except SatnonoError as e:
                _err(str(e))
                codes.append(EXIT_INPUT)
                continue
        try:
            ex = explain(puzzle, known, max_steps, depth,
                         DEFAULT_PROBE_BUDGET if budget is None else budget, verdict_timeout=timeout)
        except ValueError as e:  # a state of the wrong size
            _err(f"{state_file}: {e}")
            codes.append(EXIT_INPUT)
            continue
        except Exception as e:  # a bug: one line, no traceback
            _err(f"{label(fname, index)}: internal error: {type(e).__name__}: {e}")
            codes.append(EXIT_INTERNAL)
            continue
        codes.append(EXIT_UNIQUE if ex.solved else EXIT_NONE if ex.status == "none" else EXIT_MULTIPLE)
        if svg_out is not None and len(ex.steps) * puzzle.width * puzzle.height > SVG_MAX_CELLS:
            _err(f"{svg_out}: {len(ex.steps)} steps of a {puzzle.width}x{puzzle.height} grid are too many to draw "
                 f"(over {SVG_MAX_CELLS:,} cells in all); use --max-steps")
            sys.exit(EXIT_INPUT)
        if svg_out is not None:
            try:
                save_folder(svg_out, svg_files(puzzle, ex.steps, known), overwrite=force,
                            replaceable=lambda n: n.startswith("step-") and n.endswith(".svg"))
            except FileExistsError:
                _err(f"{svg_out}: exists and is not a folder of step-*.svg files; not replaced")
                sys.exit(EXIT_INPUT)
            except OSError as e:
                _err(f"{svg_out}: cannot write: {e.strerror or e}")
                sys.exit(EXIT_INPUT)
        if as_json:
            d = {"file": fname}
            if index is not None:
                d["index"] = index
            d.update(ex.as_dict())
            click.echo(json.dumps(d))
            continue
        # an explanation stops at the first contradiction it meets: its open cells are no figure
        # of the puzzle then ('check' and 'diagnose' give the cells line logic left)
        left = "contradiction found" if ex.status == "none" else f"{len(ex.remaining)} cells left open"
        click.echo(f"{label(fname, index)}: {ex.difficulty['text']}  [{puzzle.width}x{puzzle.height}, "
                   f"{left}, {ex.seconds:.3f} s]")
        if only_step is not None and only_step > len(ex.steps):
            _err(f"{label(fname, index)}: step {only_step} does not exist (the explanation has {len(ex.steps)})")
            codes.append(EXIT_USAGE)
            continue
        pal = puzzle.palette if puzzle.is_color else None
        if grids or only_step is not None:
            click.echo(legend(ascii_, pal))
        for k, (before, st) in enumerate(replay(puzzle, ex.steps, known), 1):
            if only_step is not None and k != only_step:
                continue
            for text in _step_lines(st, f"{k}."):
                click.echo(text)
            if grids or only_step is not None:
                click.echo(render_step(before, st, ascii_, pal))
                click.echo("")
        click.echo(ex.note)
        if svg_out is not None:
            click.echo(f"wrote {len(ex.steps)} SVG files into {svg_out}")
    sys.exit(_batch_code(codes))


@cli.command("hint", epilog=HINT_EXIT_HELP)
@click.argument("file")
@format_option
@rule_option
@click.option("--state", "state_file", required=True, metavar="PARTIAL",
              help="The partly solved grid: one row per line of '#' (black), '.' (white), '?' (unknown) -- "
                   "in colour the palette's characters ('.' the background) and '?'; '-' reads standard input.")
@json_option
@click.option("-t", "--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              metavar="SECONDS", help="Time for checking the puzzle's solution (SAT).")
@ascii_option
def hint_cmd(file: str, fmt: str | None, state_file: str, as_json: bool, timeout: float, ascii_: bool) -> None:
    """The easiest next deduction from a partly solved grid of the puzzle in FILE.

    If a filled cell contradicts the solution, names it instead (and gives no
    hint). With --json: one object with kind ('step', 'wrong', 'solved',
    'stuck' or 'contradiction'), text, step (as in 'explain --json', or null),
    wrong (0-based [row, col] of wrong filled cells) and status (the
    puzzle's verdict).
    """
    from .explain import next_hint
    from .explain.draw import legend, render_step
    from .formats import load

    try:
        puzzle = load(file, fmt)
        known = _state_rows(state_file, _read_state(state_file), puzzle)
    except SatnonoError as e:
        _err(str(e))
        sys.exit(EXIT_INPUT)
    try:
        h = next_hint(puzzle, known, timeout)
    except ValueError as e:
        _err(f"{state_file}: {e}")
        sys.exit(EXIT_INPUT)
    except Exception as e:  # a bug: one line, no traceback
        _err(f"{file}: internal error: {type(e).__name__}: {e}")
        sys.exit(EXIT_INTERNAL)
    if as_json:
        click.echo(json.dumps({"file": file, **h.as_dict()}))
    else:
        click.echo(f"{h.kind}: {h.text}")
        pal = puzzle.palette if puzzle.is_color else None
        if h.step is not None:
            click.echo(legend(ascii_, pal))
            click.echo(render_step(known, h.step, ascii_, pal))
        elif h.wrong:
            from .report import render_grid

            marks = [(r, c) for r, c in h.wrong]
            shown = [row.replace("?", ".") for row in known]
            click.echo("(filled cells that differ from the solution are marked; unknown cells are drawn "
                       + ("as background)" if pal else "white)"))
            click.echo(render_grid(shown, ascii_, marks, pal))
    code = {"step": EXIT_UNIQUE, "solved": EXIT_UNIQUE, "stuck": EXIT_MULTIPLE}.get(h.kind, EXIT_NONE)
    sys.exit(code)


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the exit code."""
    saved = _SIGNALS.install()
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        # started with SIGINT ignored (nohup, a background job): python-sat must not catch it either
        from .sat import leave_sigint_alone

        leave_sigint_alone()
    try:
        return _main(argv)
    finally:
        _SIGNALS.restore(saved)


def _main(argv: list[str] | None) -> int:
    try:
        cli.main(args=argv, prog_name="satnono", standalone_mode=False)
    except SystemExit as e:
        return int(e.code or 0) if not isinstance(e.code, str) else EXIT_INTERNAL
    except click.exceptions.Abort as e:  # click's wrapping of a KeyboardInterrupt
        stop = e.__cause__ if isinstance(e.__cause__, KeyboardInterrupt) else KeyboardInterrupt()
        _err("terminated" if isinstance(stop, Terminated) else "interrupted")
        return _stop_code(stop)
    except click.ClickException as e:
        e.show()
        return e.exit_code
    except SatnonoError as e:  # the batch engine's back end failed (BatchError): one line
        from .batch import BatchError

        if not isinstance(e, BatchError):
            raise
        _err(str(e))
        return EXIT_BATCH
    except KeyboardInterrupt as e:
        _err("terminated" if isinstance(e, Terminated) else "interrupted")
        return _stop_code(e)
    return 0


def entry() -> None:
    sys.exit(main())
