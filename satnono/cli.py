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
    help="Input format (non, xml, nin, mk, cwd, g, tournament, json, pbm, txt, pynogram, nonogrid, picross); "
         "told from the content by default (the file suffix only breaks ties).",
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


def _run_checks(files, fmt, timeout, solver, emit, bar: _Bar) -> int:
    checker = Checker(solver)
    items = list(iter_puzzles(files, fmt))
    codes: list[int] = []
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
            try:
                res = checker.check(puzzle, timeout)
            except InternalError as e:
                with _SIGNALS.critical():
                    codes.append(EXIT_INTERNAL)
                    emit(file, index, None, f"internal error: {e}")
                    bar.advance()
                continue
            with _SIGNALS.critical():
                codes.append(STATUS_EXIT[res.status])
                emit(file, index, res, None)
                bar.advance()
    except KeyboardInterrupt as e:
        bar.stop()
        sys.stdout.flush()
        _stopped(e, len(codes), len(items))
    finally:
        bar.stop()
    return _batch_code(codes)


progress_option = click.option("--progress/--no-progress", default=None,
                               help="Progress bar on stderr. Default: when stderr is a terminal.")


@cli.command(epilog=EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@timeout_option
@solver_option
@json_option
@progress_option
def check(files: tuple[str, ...], fmt: str | None, timeout: float | None, solver: str, as_json: bool,
          progress: bool | None) -> None:
    """Print a verdict for every puzzle: unique (line-solvable or not), multiple, none or unknown.

    Many files are checked in one process; with --json each puzzle gives one
    JSON object per line (fields: file, index for multi-puzzle files, name,
    width, height, status, line_solvable, solutions, diff as 0-based [row, col],
    reason, seconds, stats).
    """
    bar = _Bar("check", progress)

    def emit(file: str, index: int | None, res: CheckResult | None, error: str | None) -> None:
        if as_json:
            d = result_dict(res, file, index) if res is not None else error_dict(file, index, error or "")
            bar.echo(json.dumps(d))
            if error is not None:
                bar.echo(f"satnono: {error}", err=True)
        elif res is not None:
            bar.echo(f"{label(file, index)}: {verdict_text(res)}")
        else:
            bar.echo(f"satnono: {error or ''}", err=True)

    sys.exit(_run_checks(files, fmt, timeout, solver, emit, bar))


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

    sys.exit(_run_checks(files, fmt, timeout, solver, emit, _Bar("solve", False)))


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
    d: dict[str, object] = {}
    if p.name is not None:
        d["title"] = p.name
    for k, v in p.meta:
        d.setdefault(k, v)
    d["rows"] = [list(c) for c in p.rows]
    d["columns"] = [list(c) for c in p.columns]
    if p.goal is not None:
        d["goal"] = list(p.goal)
    return json.dumps(d)


@cli.command(epilog=GENERATE_EXIT_HELP)
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
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write puzzle-0001.EXT, ... into this directory (created if missing). Default: JSON lines on stdout.")
@click.option("--format", "fmt", type=click.Choice(list(_GEN_SUFFIX)), default="json", show_default=True,
              help="File format with --out.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True, metavar="SECONDS",
              help="SAT time limit per candidate; a candidate that exceeds it is rejected.")
@click.option("--max-candidates", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after drawing N candidates. Default: no limit.")
def generate(size: tuple[int, int], count: int, seed: int, density: tuple[float, float], require: str, min_open: int,
             style: str, workers: int, out_dir: str | None, fmt: str, timeout: float, max_candidates: int | None) -> None:
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
    gen = _generate(w, h, count, seed=seed, density=density, require=require, style=style, min_open=min_open,
                    workers=workers, timeout=timeout, max_candidates=max_candidates)
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
    _err(f"generated {written} of {count} puzzles ({w}x{h}, require {require}, style {style}, "
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
        return {"givens": [{"row": g.row, "col": g.col, "black": g.black} for g in prop.givens],
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
        "edits": [{"row": e.row, "col": e.col, "black": e.black, "line_solvable": e.line_solvable} for e in res.edits],
        "edits_tried": res.edits_tried,
        "timed_out": res.timed_out,
        "reason": res.reason,
        "seconds": round(res.seconds, 6),
    }


@cli.command("fix", epilog=FIX_EXIT_HELP)
@click.argument("file")
@format_option
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

    def colour(black: bool) -> str:
        return "black" if black else "white"

    if res.status == Status.MULTIPLE:
        verdict = f"several solutions (a second one differs in {len(res.diff)} cells)"
    elif res.status == Status.UNIQUE:
        verdict = "unique (line-solvable)" if res.line_solvable else "unique, but not line-solvable"
    else:
        verdict = res.status.value
    click.echo(f"{file}: {verdict}")
    if res.reason:
        click.echo(res.reason)
    if res.goal is not None and res.needs_fix:
        src = "from the file" if res.goal_from == "file" else "the first solution found: the file has none"
        if res.diff:
            from .report import ASCII, UNICODE

            gl = ASCII if ascii_ else UNICODE
            click.echo(f"picture ({src}); cells that differ in another solution drawn "
                       f"{gl['diff_black']} (black here) and {gl['diff_white']} (white here):")
        else:
            click.echo(f"picture ({src}):")
        click.echo(render_grid(res.goal, ascii_, res.diff))
    for title, prop in (("givens for a unique solution", res.givens_unique),
                        ("givens for a line-solvable puzzle", res.givens_line)):
        if prop is None:
            if res.needs_fix:
                click.echo(f"{title}: not found in time")
            continue
        if not prop.givens:
            click.echo(f"{title}: none needed")
            continue
        cells = ", ".join(f"{where(g.row, g.col)} {colour(g.black)}" for g in prop.givens)
        extra = ", line-solvable too" if prop.target == "unique" and prop.line_solvable else ""
        n = len(prop.givens)
        click.echo(f"{title} ({n} cell{'s' if n != 1 else ''}, verified{extra}): {cells}")
    if res.needs_fix and res.goal is not None:
        total = res.puzzle.height * res.puzzle.width
        if res.edits:
            click.echo("single-cell edits (verified), nearest to the ambiguity first:")
            for e in res.edits:
                kind = "unique, line-solvable" if e.line_solvable else "unique, not line-solvable"
                click.echo(f"  {where(e.row, e.col)}: {colour(not e.black)} -> {colour(e.black)}  ({kind})")
        else:
            click.echo("no single-cell edit makes it unique" + ("" if res.edits_tried == total else " (among those tried)"))
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


@cli.command("count", epilog=COUNT_EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@click.option("--max", "max_solutions", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop as soon as N solutions are known to exist; the count is then a proven "
                   "lower bound of at least N (exact: false). Default: count them all.")
@timeout_option
@click.option("--exact", is_flag=True,
              help="Count exactly even when --max is given (Ganak counts components past the "
                   "enumeration cap).")
@solver_option
@json_option
def count_cmd(files: tuple[str, ...], fmt: str | None, max_solutions: int | None, timeout: float | None,
              exact: bool, solver: str, as_json: bool) -> None:
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
                res = count_solutions(puzzle, max_solutions, timeout, exact, solver, line_solver=lines)
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
    sys.exit(_batch_code(codes))


CLASSIFY_EXIT_HELP = """\b
Exit codes:
  0  every puzzle was classified (whatever its class)
  1  internal error on some puzzle (recorded as class 'error'; the batch goes on)
  2  usage error (bad option or argument)
  5  some puzzle was not settled in time (class 'unknown')
  6  some input could not be read, e.g. a colour puzzle (class 'error')
  130  interrupted (Ctrl-C); the --resume file keeps every finished result
  143  terminated (SIGTERM); likewise
A batch exits with the largest of 5-6 that applies; 1 takes precedence."""


def _classify_text(rec: dict) -> str:
    where = label(rec["file"], rec.get("index"))
    if rec["class"] == "error":
        return f"{where}: error: {rec['reason']}"
    cls = rec["class"]
    if rec.get("level") and rec["level"] != cls:
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
        lines.append(f"levels of unique puzzles: line {lv['line']}, probe {lv['probe']}, search {lv['search']}")
    lines.append(f"time in puzzles: {summary['seconds']:.1f} s")
    for text in lines:
        console.print(text, highlight=False, markup=False, soft_wrap=True)


@cli.command("classify", epilog=CLASSIFY_EXIT_HELP)
@click.argument("paths", nargs=-1, required=True)
@format_option
@click.option("--max", "max_solutions", type=click.IntRange(min=2), default=2, show_default=True, metavar="N",
              help="Count solutions until N are found (N >= 2); the count is then a lower bound "
                   "(count_exact: false).")
@timeout_option
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes.")
@click.option("--resume", "resume", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Append each result to FILE as a JSON line as soon as it finishes (fsynced); "
                   "puzzles already in FILE (same file and index) are not run again.")
@json_option
@click.option("--csv", "as_csv", is_flag=True, help="CSV on stdout (a header, then one row per puzzle).")
@click.option("--probe", "probing", is_flag=True,
              help="Also rate unique puzzles by single-cell contradiction probing: level line, probe or search.")
@progress_option
@solver_option
def classify_cmd(paths: tuple[str, ...], fmt: str | None, max_solutions: int, timeout: float | None,
                 workers: int, resume: str | None, as_json: bool, as_csv: bool, probing: bool,
                 progress: bool | None, solver: str) -> None:
    """Classify every puzzle of files, directories (recursive) and multi-puzzle files.

    Classes: line (line logic alone solves it), search (unique, but needs more
    than line logic), multiple, none, unknown (not settled in --timeout seconds),
    error (unreadable input, e.g. a colour puzzle). Directories are walked in
    sorted order; files without a puzzle suffix are read only when their content
    clearly is a puzzle (READMEs, licences and CSV files are skipped).

    Results come in input order: one line per puzzle, or with --json one object
    per line (file, index, name, width, height, class, level, line_solvable,
    unknown_after_line, unknown_after_probe, count, count_exact, components,
    seconds, reason), or --csv. A summary table (counts per class,
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
        with closing(run_batch(todo, Options(max_solutions, timeout, probing, solver), workers,
                               on_start=lambda: bar.start(len(tasks), len(tasks) - len(todo)))) as stream:
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

    outputs = [(o, kind) for o, kind in ((svg_out, "svg"), (png_out, "png")) if o]
    if svg_out and png_out and os.path.abspath(svg_out) == os.path.abspath(png_out):
        raise click.UsageError("--svg and --png name the same file")
    for path, _ in outputs:
        if os.path.lexists(path) and not force:
            _err(f"{path}: exists; not overwritten (use --force)")
            sys.exit(EXIT_INPUT)
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
    from .formats import write_atomic

    for path, kind in outputs:
        data = render_svg(d).encode("utf-8") if kind == "svg" else render_png(d)
        try:
            with _SIGNALS.critical():
                write_atomic(path, data, overwrite=force)
        except FileExistsError:
            _err(f"{path}: exists; not overwritten (use --force)")
            sys.exit(EXIT_INPUT)
        except OSError as e:
            _err(f"{path}: cannot write: {e.strerror or e}")
            sys.exit(EXIT_INPUT)
    if as_json:
        click.echo(json.dumps({"file": file, **d.as_dict()}))
    else:
        click.echo(f"{file}: {render_summary(d)}")
        click.echo(render_heatmap(d, ascii_))
    code = {"unique": EXIT_UNIQUE, "multiple": EXIT_MULTIPLE, "none": EXIT_NONE}.get(d.status, EXIT_UNKNOWN)
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
    except KeyboardInterrupt as e:
        _err("terminated" if isinstance(e, Terminated) else "interrupted")
        return _stop_code(e)
    return 0


def entry() -> None:
    sys.exit(main())
