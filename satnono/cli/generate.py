"""``satnono generate``: random puzzles that meet a requirement."""

from __future__ import annotations

import json
import os
import re
import sys

from typing import TYPE_CHECKING, Any, Callable

import click

from ..model import Puzzle
from ..results import cpu_seconds
from .common import EXIT_INPUT, EXIT_UNKNOWN, SIGNALS, Bar, batch_started, err, stopped
from .options import (
    BATCH_EXIT_HELP,
    INTERNAL,
    JOBS_HELP,
    JOBS_NOT_WITH_WORKERS,
    CliExit,
    exit_help,
    jobs_option,
    rule_option,
    scheduler_option,
    max_memory_option,
    no_jobs_with_workers,
    timeout_option,
    workers_option,
)

if TYPE_CHECKING:
    from ..lanepuzzle import LanePuzzle
    from ..lanes import Triangle

GENERATE_EXIT_HELP = exit_help(
    (0, "COUNT puzzles were generated"), INTERNAL,
    (2, "usage error (bad --size, --shape, --density or other option)"),
    (5, "--max-candidates ran out first (the puzzles found are written)"),
    (6, "an output file already exists (nothing is written) or cannot be written"))

_GEN_SUFFIX = {"json": "json", "non": "non", "pbm": "pbm", "xml": "xml", "g": "g"}
#: The formats --format takes for a grid (--size) and for a triddler (--shape), the default first.
_GRID_FORMATS = ("json", "non", "pbm")
_TRIDDLER_FORMATS = ("xml", "json", "g")
#: Of those, the ones that hold blotted clues and rules (with --blot, --rule).
_GRID_BLOTS = ("json",)
_TRIDDLER_BLOTS = ("xml", "json")
_RULES = ("json",)


def _size_option(ctx: click.Context, param: click.Parameter, value: str | None) -> tuple[int, int] | None:
    from ..model import MAX_SIDE

    if value is None:
        return None
    m = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value or "")
    if not m:
        raise click.BadParameter(f"expected WIDTHxHEIGHT such as 20x15, got {value!r}")
    w, h = int(m.group(1)), int(m.group(2))
    if not (1 <= w <= MAX_SIDE and 1 <= h <= MAX_SIDE):
        raise click.BadParameter(f"each side must be between 1 and {MAX_SIDE}, got {w}x{h}")
    return w, h


def _shape_option(ctx: click.Context, param: click.Parameter, value: str | None) -> Triangle | None:
    if value is None:
        return None
    from ..lanegen import parse_shape

    try:
        return parse_shape(value)
    except ValueError as e:
        raise click.BadParameter(str(e)) from None


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


def _puzzle_json_line(p: Puzzle | LanePuzzle) -> str:
    """The puzzle in satnono's JSON format (palette and colours included), on one line; a grid's
    blotted number is written ``"?"`` (``["?", "a"]`` in colour)."""
    from ..formats import dumps

    doc = json.loads(dumps(p, "json"))
    if isinstance(p, Puzzle) and p.has_blots:
        for key, axis in (("rows", "row"), ("columns", "column")):
            for i, clue in enumerate(p.clues(axis)):
                for j in range(len(clue.lengths)):
                    if clue.is_blotted(j):
                        line = doc[key][i]
                        line[j] = ["?", line[j][1]] if isinstance(line[j], list) else "?"
    return json.dumps(doc, ensure_ascii=False)


def _out_paths(out_dir: str, count: int, fmt: str) -> list[str]:
    """The files --out will hold; exits 6 when one exists or the directory cannot be made."""
    digits = max(4, len(str(count)))
    paths = [os.path.join(out_dir, f"puzzle-{k:0{digits}d}.{_GEN_SUFFIX[fmt]}") for k in range(1, count + 1)]
    existing = [p for p in paths if os.path.lexists(p)]
    if existing:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise CliExit(EXIT_INPUT, f"{existing[0]}: exists{more}; refusing to overwrite (nothing written)")
    try:
        os.makedirs(out_dir, exist_ok=True)
    except OSError as e:
        raise CliExit(EXIT_INPUT, f"{out_dir}: cannot create the directory: {e.strerror or e}") from None
    return paths


@click.command(epilog=GENERATE_EXIT_HELP + BATCH_EXIT_HELP)
@click.option("--size", "size", default=None, callback=_size_option, metavar="WxH",
              help="Width x height of a grid, e.g. 25x25 (or --shape for a triddler).")
@click.option("--shape", "shape", default=None, callback=_shape_option, metavar="SHAPE",
              help="A triddler (triangular cells) instead of a grid: hexagon:N (the regular hexagon of side N), "
                   "parallelogram:ROWSxWIDTH (ROWS rows of 2*WIDTH triangles), triangle:N (the big triangle of "
                   "side N) or sides:A,B,C,D,E,F (any hexagon, sides as in .g); e.g. --shape hexagon:4. Not "
                   "with --size.")
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
              help="noise: independent cells; smooth: noise averaged over 3x3 (larger connected areas; on a "
                   "triddler over each triangle's neighbours and theirs).")
@workers_option("Processes judging candidates (the output does not depend on it).")
@scheduler_option
@click.option("--out", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Write puzzle-0001.EXT, ... into this directory (created if missing). Default: JSON lines on stdout.")
@click.option("--format", "fmt", type=click.Choice(list(_GEN_SUFFIX)), default=None,
              help="File format with --out: json (default), non or pbm for a grid; xml (default; json with "
                   "--rule, which xml cannot hold), json or g for a triddler.")
@timeout_option(10.0, "SAT time limit per candidate; a candidate that exceeds it is rejected.")
@max_memory_option
@click.option("--max-candidates", type=click.IntRange(min=1), default=None, metavar="N",
              help="Stop after drawing N candidates. Default: no limit.")
@click.option("--colors", "colors", type=click.IntRange(min=1, max=32), default=1, show_default=True, metavar="K",
              help="Block colours: 1 is black and white; K > 1 gives colour puzzles (colours a, b, ... with "
                   "default RGB; the density band counts every non-background cell).")
@click.option("--blot", is_flag=True, default=False,
              help="Then hide as many clue numbers of each puzzle as possible (greedy, from --seed) while it "
                   "still meets --require (line: line-solvable; unique and search: unique); a hidden number "
                   "is written \"?\". JSON only for a grid; xml or json for a triddler.")
@rule_option("A rule every puzzle keeps (repeatable; spelled as for check): pictures are drawn to keep it "
             "(mirrored for symmetric, one region for connected: on a triddler of triangles that share a "
             "side; count fills or clears cells at random) and --require is judged under it. A triddler "
             "takes count and connected. Written in json only.",
             expose_value=True)
@jobs_option(JOBS_HELP + JOBS_NOT_WITH_WORKERS + " Here for each candidate's uniqueness test (the same puzzles; "
             "it pays only when those tests take seconds); the closing line shows the CPU of every process.")
def generate(size: tuple[int, int] | None, shape: Triangle | None, count: int, seed: int, density: tuple[float, float],
             require: str, min_open: int, style: str, workers: int, scheduler: str | None, out_dir: str | None,
             fmt: str | None, timeout: float, max_candidates: int | None, colors: int, blot: bool, rules: tuple,
             jobs: int | str) -> None:
    """Generate random puzzles that meet a requirement (line-solvable by default): grids of
    --size WxH, or triddlers (triangular cells) of --shape, e.g. hexagon:4, parallelogram:3x5 or
    triangle:6, written as xml (default with --out), json or g.

    Candidate i is drawn from (SEED, i) alone and candidates are accepted in
    order, so the same options give byte-identical output for any --workers.
    Statistics (candidates tried, rejected by density and by class,
    acceptance rate, time per puzzle) go to standard error.
    """
    from ..generation import generate_on
    from ..lanes import Rectangle

    no_jobs_with_workers(jobs, workers)
    if jobs != 1 and scheduler:
        raise click.UsageError("generate --jobs runs on this machine: not with --scheduler")
    if size is not None and shape is not None:
        raise click.UsageError("--shape and --size do not go together: --size WxH makes grids, --shape SHAPE triddlers")
    if size is None and shape is None:
        raise click.UsageError("give --size WxH (a grid) or --shape SHAPE (a triddler, e.g. hexagon:4)")
    grid = size is not None
    formats = _GRID_FORMATS if grid else _TRIDDLER_FORMATS
    if fmt is not None and fmt not in formats:
        raise click.UsageError(f"--format {fmt} is for triddlers (--shape); a grid is written as {', '.join(formats)}"
                               if grid else f"--format {fmt} cannot hold a triddler; use {', '.join(formats)}")
    if min_open and require != "search":
        raise click.UsageError("--min-open applies only to --require search")
    if out_dir is None and fmt not in (None, "json"):
        raise click.UsageError(f"--format {fmt} needs --out (standard output gets JSON lines)")
    if grid and colors > 1 and fmt == "pbm":
        raise click.UsageError("--format pbm holds black and white only; use json or non for --colors > 1")
    if blot and require == "any":
        raise click.UsageError("--blot keeps puzzles unique or line-solvable: use it with --require line, unique or search")
    holds_blots = _GRID_BLOTS if grid else _TRIDDLER_BLOTS
    if blot and fmt is not None and fmt not in holds_blots:
        raise click.UsageError(f"--format {fmt} cannot hold blotted clues; use {' or '.join(holds_blots)} with --blot")
    if not grid and rules and fmt is not None and fmt not in _RULES:
        raise click.UsageError(f"--format {fmt} cannot hold rules; use json with --rule")
    if out_dir is None:
        fmt = "json"
    elif fmt is None:  # the first format that holds what is asked for
        fmt = next(f for f in formats if f in _RULES) if rules else formats[0]
    paths = _out_paths(out_dir, count, fmt) if out_dir is not None else []
    if rules and out_dir is not None and fmt != "json":
        raise click.UsageError(f"--format {fmt} cannot hold rules; use json with --rule")
    geometry = Rectangle(size[1], size[0]) if size is not None else shape
    assert geometry is not None
    try:
        gen = generate_on(geometry, count, seed=seed, density=density, require=require, style=style, min_open=min_open,
                          workers=workers, timeout=timeout, max_candidates=max_candidates, colors=colors, rules=rules,
                          scheduler=scheduler, jobs=jobs)
    except ValueError as e:  # a rule that does not fit the size or palette
        raise click.BadParameter(str(e), param_hint="'--rule'") from None
    gen.on_start = batch_started(Bar("generate", False), 0)
    hidden = numbers = 0
    blotter = None
    if blot:
        from ..blot import blot as blot_picture
        from ..solve import Checker

        checker = Checker()
        keep = "line" if require == "line" else "unique"

        def blotter(p: Puzzle | LanePuzzle) -> Puzzle | LanePuzzle:
            nonlocal hidden, numbers
            r = blot_picture(p, require=keep, seed=seed, checker=checker)
            hidden += r.hidden
            numbers += r.total
            cls = "line" if r.check is not None and r.check.line_solvable else "search"  # blots may end line-solvability
            meta = tuple((k, cls if k == "class" else v) for k, v in r.puzzle.meta)
            return r.puzzle.replace(meta=meta)
    cpu0 = cpu_seconds() if jobs != 1 else None
    written = _write_all(gen, count, out_dir, paths, fmt, blotter)
    cpu = "" if cpu0 is None else f", {cpu_seconds() - cpu0:.2f} s CPU"
    canvas = gen.spec.canvas
    noun = "puzzles" if grid else "triddlers"
    where = canvas.label if grid else f"{canvas.label}, {canvas.geometry.cell_count} cells"
    err(f"generated {written} of {count} {noun} ({where}{f', {colors} colours' if colors > 1 else ''}, "
        f"require {require}, style {style}, "
        f"density {density[0]:g}-{density[1]:g}): {_stats_text(gen.stats)}{cpu}")
    if blot:
        err(f"blotted {hidden} of {numbers} clue numbers ({100 * hidden / numbers if numbers else 0:.1f}%), "
            f"keeping every puzzle {'line-solvable' if require == 'line' else 'unique'}")
    if gen.exhausted:
        raise CliExit(EXIT_UNKNOWN, f"--max-candidates {max_candidates} ran out before {count} {noun} were accepted")


def _write_all(gen: Any, count: int, out_dir: str | None, paths: list[str], fmt: str | None,
               transform: Callable[[Any], Any] | None = None) -> int:
    """Write every puzzle ``gen`` gives (after ``transform``): as a file of ``paths`` with
    ``out_dir``, else as a JSON line on stdout; the number written.  Ctrl-C, a file that appeared
    meanwhile or one that cannot be written end the command with its code."""
    from ..formats import save

    written = 0
    try:
        for p in gen:
            if transform is not None:
                p = transform(p)
            with SIGNALS.critical():  # a puzzle is written whole and counted, or not at all
                if out_dir is None:
                    click.echo(_puzzle_json_line(p))
                else:
                    save(p, paths[written], fmt, overwrite=False)
                written += 1
    except KeyboardInterrupt as e:
        sys.stdout.flush()
        stopped(e, written, count, extra=f"; {out_dir} holds every finished file" if out_dir else "")
    except FileExistsError:
        raise CliExit(EXIT_INPUT, f"{paths[written]}: appeared while generating; refusing to overwrite") from None
    except OSError as e:
        raise CliExit(EXIT_INPUT, f"{paths[written] if out_dir else 'stdout'}: cannot write: {e.strerror or e}") from None
    return written


def _stats_text(st: Any) -> str:
    """How the candidates fared (:class:`satnono.generation.GenerateStats`), for the closing line."""
    reasons = ", ".join(f"{k} {v}" for k, v in sorted(st.reasons.items()))
    per = f"{st.seconds_per_accepted:.4f} s" if st.seconds_per_accepted is not None else "-"
    return (f"{st.tried} candidates tried, {st.rejected_density} rejected by density, {st.rejected_class} rejected "
            f"by class{f' ({reasons})' if reasons else ''}, acceptance rate {100 * st.acceptance_rate:.1f}%, "
            f"{per} per accepted puzzle, {st.seconds:.2f} s in all")
