"""``satnono count`` and ``satnono classify``: many puzzles, in input order, on this machine or a
Dask cluster."""

from __future__ import annotations

import json
import sys

import click

from ..report import classify_summary, classify_text
from .common import (
    EXIT_INPUT,
    EXIT_INTERNAL,
    EXIT_UNIQUE,
    EXIT_UNKNOWN,
    SIGNALS,
    Bar,
    batch_code,
    batch_started,
    err,
    stopped,
)
from .counting import count_files
from .options import (
    BATCH_5_6,
    BATCH_EXIT_HELP,
    INTERNAL,
    JOBS_HELP,
    JOBS_NOT_WITH_WORKERS,
    USAGE,
    CliExit,
    done,
    exit_help,
    format_option,
    jobs_option,
    json_option,
    no_jobs_with_workers,
    progress_option,
    rule_option,
    scheduler_option,
    solver_option,
    max_memory_option,
    timeout_option,
    workers_option,
)

COUNT_EXIT_HELP = exit_help(
    (0, "every puzzle was counted (exactly, or up to --max)"), INTERNAL, USAGE,
    (5, "some count is only a lower bound because time ran out (--timeout)"),
    (6, "some input could not be read (the rest of the batch still runs)"),
    tail=BATCH_5_6)

CLASSIFY_EXIT_HELP = exit_help(
    (0, "every puzzle was classified (whatever its class)"),
    (1, "internal error on some puzzle (recorded as class 'error'; the batch goes on)"), USAGE,
    (5, "some puzzle was not settled in time or within the memory limit (class 'unknown')"),
    (6, "some input could not be read, e.g. a malformed file (class 'error')"),
    (130, "interrupted (Ctrl-C); the --resume file keeps every finished result"),
    (143, "terminated (SIGTERM); likewise"),
    tail=BATCH_5_6) + BATCH_EXIT_HELP


@click.command("count", epilog=COUNT_EXIT_HELP + BATCH_EXIT_HELP)
@click.argument("files", nargs=-1, required=True)
@format_option
@rule_option()
@click.option("--max", "max_solutions", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop as soon as N solutions are known to exist; the count is then a proven "
                   "lower bound of at least N (exact: false). Default: count them all.")
@timeout_option()
@max_memory_option
@click.option("--exact", is_flag=True,
              help="Count exactly even when --max is given (Ganak counts components past the "
                   "enumeration cap).")
@solver_option
@json_option()
@workers_option()
@scheduler_option
@jobs_option(JOBS_HELP + JOBS_NOT_WITH_WORKERS + " Here for the search of each puzzle's first solution, on this "
             "machine (not with --scheduler); "
             "the CPU seconds of every process are shown (cpu_seconds in --json).")
def count_cmd(files: tuple[str, ...], fmt: str | None, max_solutions: int | None, timeout: float | None,
              exact: bool, solver: str, as_json: bool, workers: int, scheduler: str | None, jobs: int | str) -> None:
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
    no_jobs_with_workers(jobs, workers)
    if jobs != 1 and scheduler:
        raise click.UsageError("count --jobs runs on this machine: not with --scheduler")
    done(count_files(files, fmt, max_solutions, timeout, exact, solver, as_json, workers, scheduler, jobs))


def _print_summary(summary: dict, console) -> None:  # type: ignore[no-untyped-def]
    table, lines = classify_summary(summary)
    console.print(table)
    for text in lines:
        console.print(text, highlight=False, markup=False, soft_wrap=True)


@click.command("classify", epilog=CLASSIFY_EXIT_HELP)
@click.argument("paths", nargs=-1, required=True)
@format_option
@rule_option()
@click.option("--max", "max_solutions", type=click.IntRange(min=2), default=2, show_default=True, metavar="N",
              help="Count solutions until N are found (N >= 2); the count is then a lower bound "
                   "(count_exact: false).")
@timeout_option()
@max_memory_option
@workers_option()
@scheduler_option
@click.option("--resume", "resume", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Append each result to FILE as a JSON line as soon as it finishes (fsynced); "
                   "puzzles already in FILE (same file and index) are not run again (those read "
                   "from standard input or a pipe always are).")
@json_option()
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
    clearly is a puzzle (READMEs, licences and CSV files are skipped). What is
    not a regular file (a named pipe, socket or device, a symbolic link to
    nothing) is skipped with a note on stderr; a pipe named as a PATH (a named
    pipe, or <(...)) is read as a stream, its format told from its content.

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

    from ..batch.inputs import load_tasks
    from ..batch.ordered import Reorder
    from ..batch.resume import ResultLog, ResumeFileError
    from ..classify import CSV_FIELDS, Options, run_batch, summarize

    if as_json and as_csv:
        raise click.UsageError("choose one of --json and --csv")
    tasks = load_tasks(paths, fmt, exclude=[resume] if resume else (), note=err)
    if not tasks:
        err("no puzzle files found")
    log = None
    if resume:
        try:
            log = ResultLog(resume)
        except ResumeFileError as e:
            raise CliExit(EXIT_INPUT, str(e)) from None
        except OSError as e:
            raise CliExit(EXIT_INPUT, f"{resume}: cannot open the resume file: {e.strerror or e}") from None
        if log.dropped:
            err(f"{resume}: dropped {log.dropped} damaged line(s) (incomplete, not JSON or not a "
                "classify result); the file was rewritten without them")
    results: dict[int, dict] = {}
    if log is not None:
        for t in tasks:
            key = t.key
            rec = log.records.get(key) if key is not None else None  # (a stream's puzzles always run)
            if rec is not None:
                results[t.seq] = rec
    todo = [t for t in tasks if t.seq not in results]
    err_console = Console(stderr=True)
    writer = csv_mod.writer(sys.stdout, lineterminator="\n") if as_csv else None
    bar = Bar("classify", progress)

    def emit(rec: dict) -> None:
        if as_json:
            bar.echo(json.dumps(rec))
        elif writer is not None:
            writer.writerow(["" if rec.get(f) is None else rec.get(f) for f in CSV_FIELDS])
        elif rec["class"] != "error":
            bar.echo(classify_text(rec))
        if rec["class"] == "error":
            bar.echo(f"satnono: {rec['reason']}", err=True)

    if writer is not None:
        writer.writerow(CSV_FIELDS)
    ordered = Reorder(range(len(tasks)))
    stop: KeyboardInterrupt | None = None

    def emit_due(seq: int) -> None:
        for _, rec in ordered.put(seq, results[seq]):
            emit(rec)

    try:
        for seq in sorted(results):  # those from the resume file
            emit_due(seq)
        with closing(run_batch(todo, Options(max_solutions, timeout, probing, solver), workers, scheduler=scheduler,
                               on_start=batch_started(bar, len(tasks), len(tasks) - len(todo)))) as stream:
            for task, rec in stream:
                with SIGNALS.critical():  # the record is written and counted, or neither
                    if log is not None:
                        log.append(rec)
                    results[task.seq] = rec
                    bar.advance()
                    emit_due(task.seq)
    except KeyboardInterrupt as e:
        stop = e
    finally:
        bar.stop()
        if log is not None:
            log.close()
        sys.stdout.flush()
    if stop is not None:
        where = f"; {resume} holds every finished result" if resume else ""
        stopped(stop, len(results), len(tasks), extra=where)
    records = [results[t.seq] for t in tasks]
    summary = summarize(records)
    if as_json or as_csv:
        _print_summary(summary, err_console)
    else:
        _print_summary(summary, Console(file=sys.stdout, highlight=False))
    codes = [EXIT_UNIQUE]
    for rec in records:
        if rec["class"] == "unknown":
            codes.append(EXIT_UNKNOWN)
        elif rec["class"] == "error":
            internal = str(rec.get("reason") or "").startswith("internal error")
            codes.append(EXIT_INTERNAL if internal else EXIT_INPUT)
    done(batch_code(codes))
