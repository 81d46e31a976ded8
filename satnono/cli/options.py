"""The options the commands share, written once, the exit-code epilogs of ``--help``, and
:class:`CliExit`, the one way a command ends with an exit code."""

from __future__ import annotations

import os
from typing import Callable

import click

from ..interrupt import SIGNALS
from ..results import DEFAULT_SOLVER, SOLVERS
from .common import EXIT_INPUT, err


class CliExit(click.ClickException):
    """End a command with ``exit_code``, after ``satnono: message`` on stderr when there is one."""

    def __init__(self, exit_code: int, message: str | None = None) -> None:
        super().__init__(message or "")
        self.exit_code = exit_code  # type: ignore[misc]  # click declares it on the class

    def show(self, file=None) -> None:  # type: ignore[no-untyped-def,override]
        if self.message:
            err(self.message)


def done(code: int) -> None:
    """End a command with ``code`` (nothing to do for 0)."""
    if code:
        raise CliExit(code)


# --- exit codes in --help ----------------------------------------------------------

INTERNAL = (1, "internal error (a bug: please report it)")
USAGE = (2, "usage error (bad option or argument)")


def exit_help(*rows: tuple[int, str], tail: str = "") -> str:
    """An epilog listing exit codes (``rows``: code, meaning), then ``tail``."""
    lines = ["\b", "Exit codes:"] + [f"  {code}  {text}" for code, text in rows]
    return "\n".join(lines) + (f"\n{tail}" if tail else "")


EXIT_HELP = exit_help(
    (0, "every puzzle is unique"), INTERNAL, USAGE,
    (3, "some puzzle has several solutions"),
    (4, "some puzzle has no solution"),
    (5, "some puzzle was not settled in time (--timeout) or within the memory limit (--max-memory)"),
    (6, "some input could not be read (the rest of the batch still runs)"),
    tail="A batch exits with the largest of 3-6 that applies (0 if all are unique);\n"
         "1 takes precedence over everything.")
#: The batch back ends' code, appended to the epilog of the commands that take --workers/--scheduler.
BATCH_EXIT_HELP = ("\n  7  the batch back end failed: the Dask scheduler cannot be reached or went "
                   "away (--scheduler), or (generate) a worker died on a chunk; finished results are kept")
#: The last line of a batch command's epilog whose codes are 5-6.
BATCH_5_6 = "A batch exits with the largest of 5-6 that applies; 1 takes precedence."


# --- inputs -----------------------------------------------------------------------------

def _format_help() -> str:
    from ..formats import FORMATS
    from ..formats.sniff import formats_text

    return (f"Input format: {formats_text(FORMATS)}; told from the content by default (the file suffix only "
            "breaks ties).")


format_option = click.option("-f", "--format", "fmt", default=None, metavar="FMT", help=_format_help())


def _rule_option(ctx: click.Context, param: click.Parameter, value: tuple[str, ...]) -> tuple:
    from ..formats import EXTRA_RULES

    if not value:
        EXTRA_RULES.set(())
        return ()
    from ..rules import RuleError, rule_from_spec

    try:
        rules = tuple(rule_from_spec(text) for text in value)
    except RuleError as e:
        raise click.BadParameter(str(e)) from None
    token = EXTRA_RULES.set(rules)  # (without the option: () above, nothing of an earlier call stays)
    ctx.call_on_close(lambda: EXTRA_RULES.reset(token))  # nor of this one after it, in this process
    return rules


RULE_HELP = ("An extra rule every solution keeps (repeatable): symmetric:AXIS (left-right, top-bottom, "
             "rotate180, transpose), count:=N / count:>=N / count:<=N [:COLOUR], no-square[:COLOUR], "
             "connected[:COLOUR]. Rules in a JSON puzzle file apply too. A rule that does not fit a "
             "puzzle (e.g. a colour its palette lacks) is that puzzle's input error (FILE#k in a "
             "multi-puzzle file; exit 6), and the other puzzles are judged as usual.")


def rule_option(help: str = RULE_HELP, expose_value: bool = False) -> Callable:
    """``--rule RULE`` (repeatable), bound to every puzzle the command reads."""
    return click.option("--rule", "rules", multiple=True, metavar="RULE", callback=_rule_option,
                        expose_value=expose_value, help=help)


def background_option(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """The group's ``--background``: the background colour of pictures read by any command."""
    from ..formats import DEFAULT_BACKGROUND

    if value is not None:
        from ..formats.picture import background_rgb

        try:
            background_rgb(value)
        except ValueError as e:
            raise click.BadParameter(str(e)) from None
    DEFAULT_BACKGROUND.set(value)  # also without the option: nothing of an earlier call stays
    from ..formats import EXTRA_RULES
    EXTRA_RULES.set(())  # set again by the command's --rule, if it has one
    return value


# --- limits -----------------------------------------------------------------------------


def _max_memory_option(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None | str:
    from ..memory import LIMIT, parse_limit

    if value is None:
        LIMIT.set("auto")  # also without the option: nothing of an earlier call stays
        return "auto"
    try:
        limit = parse_limit(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None
    LIMIT.set(limit)  # (batch workers get it with each item: satnono.batch.run)
    return limit


MAX_MEMORY_HELP = ("The memory one puzzle may take (e.g. 2G, 800M; 'none' for no limit): a puzzle whose SAT "
                   "encoding would need more is answered 'unknown' with the reason, before it is built. "
                   "Default: $SATNONO_MAX_MEMORY, else half of this machine's memory (shared among --workers), "
                   "4G at the most.")


def max_memory_option(fn: Callable) -> Callable:
    """``--max-memory SIZE`` (also ``$SATNONO_MAX_MEMORY``), for every settle the command makes."""
    return click.option("--max-memory", metavar="SIZE", envvar="SATNONO_MAX_MEMORY", callback=_max_memory_option,
                        expose_value=False, help=MAX_MEMORY_HELP)(fn)


TIMEOUT_HELP = "Give up on a puzzle after this many seconds (verdict 'unknown'). Default: no limit."


def timeout_option(default: float | None = None, help: str = TIMEOUT_HELP, short: bool = True) -> Callable:
    """``-t/--timeout SECONDS`` (a positive number); its default shown when there is one."""
    names = ("-t", "--timeout") if short else ("--timeout",)
    return click.option(*names, type=click.FloatRange(min=0, min_open=True), default=default,
                        show_default=default is not None, metavar="SECONDS", help=help)


solver_option = click.option(
    "--solver", type=click.Choice(list(SOLVERS)), default=DEFAULT_SOLVER, show_default=True,
    help="SAT back end (python-sat name).",
)


def workers_option(help: str = "Worker processes on this machine (results in input order).") -> Callable:
    return click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help=help)


def _jobs_option(ctx: click.Context, param: click.Parameter, value: str) -> int | str:
    if value == "auto":
        return "auto"
    if value.isdigit() and int(value) >= 1:
        return int(value)
    raise click.BadParameter(f"expected a whole number of at least 1 or 'auto', not {value!r}")


JOBS_HELP = ("Searches of each puzzle at once, each in a process of its own: N, or auto for one per core "
             "(with --scheduler, per thread of the Dask cluster). Differently configured SAT searches of "
             "the same puzzle race and the first answer wins: the same verdicts as with 1, sooner on hard "
             "puzzles, for up to N times the CPU; a puzzle with several solutions may show another second "
             "solution from run to run. 1 (the default) is one deterministic search.")
#: The sentence of JOBS_HELP for the commands that also take --workers.
JOBS_NOT_WITH_WORKERS = " Not with --workers (which runs several puzzles at once, one search each)."


def jobs_option(help: str = JOBS_HELP) -> Callable:
    """``--jobs N|auto``: a portfolio of searches per puzzle (:attr:`satnono.results.Limits.jobs`)."""
    return click.option("--jobs", metavar="N|auto", default="1", show_default=True, callback=_jobs_option,
                        help=help)


def no_jobs_with_workers(jobs: int | str, workers: int) -> None:
    """The usage error for ``--jobs`` other than 1 with ``--workers`` above 1."""
    if jobs != 1 and workers > 1:
        raise click.UsageError("--jobs and --workers do not go together: --workers checks several puzzles at "
                               "once with one search each, --jobs runs several searches of one puzzle at a time")


scheduler_option = click.option(
    "--scheduler", envvar="SATNONO_SCHEDULER", default=None, metavar="ADDRESS",
    help="Run on a Dask cluster: tcp://HOST:PORT or tls://HOST:PORT (TLS from Dask's config), or "
         "local[:N] for a LocalCluster of N workers on 127.0.0.1; also $SATNONO_SCHEDULER. "
         "Needs pip install 'satnono[dask]'.")

# --- output -----------------------------------------------------------------------------

JSON_HELP = "One JSON object per puzzle per line on stdout."


def json_option(help: str = JSON_HELP) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help=help)


ascii_option = click.option("--ascii", "ascii_", is_flag=True,
                            help="Draw grids with ASCII characters instead of Unicode blocks.")
progress_option = click.option("--progress/--no-progress", default=None,
                               help="Progress bar on stderr. Default: when stderr is a terminal and there is more "
                                    "than one puzzle.")
grade_option = click.option(
    "--grade", is_flag=True,
    help="Also grade each puzzle as 'satnono explain' does (the 'difficulty' of --json, a 'grade:' line "
         "otherwise); probing bounded to about half a second a puzzle. Off by default: it costs more than the verdict.")

# --- pictures ---------------------------------------------------------------------------


def svg_option(help: str, type: click.ParamType | None = None) -> Callable:
    return click.option("--svg", "svg_out", type=type, default=None, metavar="OUT", help=help)


def png_option(help: str, type: click.ParamType | None = None) -> Callable:
    return click.option("--png", "png_out", type=type, default=None, metavar="OUT", help=help)


def force_option(help: str) -> Callable:
    return click.option("--force", is_flag=True, help=help)


cell_option = click.option("--cell", type=click.IntRange(1, 64), default=16, show_default=True,
                           help="Pixels per cell in --svg/--png pictures.")


def picture_outputs(svg_out: str | None, png_out: str | None, force: bool) -> list[tuple[str, str]]:
    """The pictures asked for, as ``(path, kind)``; exits 6 when one exists and --force is not given."""
    outputs = [(o, kind) for o, kind in ((svg_out, "svg"), (png_out, "png")) if o]
    if svg_out and png_out and os.path.abspath(svg_out) == os.path.abspath(png_out):
        raise click.UsageError("--svg and --png name the same file")
    for path, _ in outputs:
        if os.path.lexists(path) and not force:
            raise CliExit(EXIT_INPUT, f"{path}: exists; not overwritten (use --force)")
    return outputs


def write_pictures(outputs: list[tuple[str, str]], force: bool, render: Callable[[str], bytes]) -> None:
    """Write each picture (``render(kind)`` gives its bytes) atomically; exits 6 when one cannot be written."""
    from ..formats import write_atomic

    for path, kind in outputs:
        data = render(kind)
        try:
            with SIGNALS.critical():
                write_atomic(path, data, overwrite=force)
        except FileExistsError:
            raise CliExit(EXIT_INPUT, f"{path}: exists; not overwritten (use --force)") from None
        except OSError as e:
            raise CliExit(EXIT_INPUT, f"{path}: cannot write: {e.strerror or e}") from None
