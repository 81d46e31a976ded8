"""``satnono verify CERT...`` and what ``satnono check --certify DIR`` adds to a check: a
certificate directory per puzzle (:mod:`satnono.certify`)."""

from __future__ import annotations

import glob
import json
import os
import re

import click

from ..report import error_dict, label, result_dict, verdict_text
from ..results import DEFAULT_SOLVER
from .common import EXIT_INPUT, Bar, batch_code
from .options import CliExit, done, exit_help

VERIFY_EXIT_HELP = exit_help(
    (0, "every certificate checks"),
    (1, "some certificate does not check (one line each on stderr says what failed)"),
    (2, "usage error (bad option or argument)"))


@click.command(epilog=VERIFY_EXIT_HELP)
@click.argument("certs", nargs=-1, required=True, metavar="CERT...")
def verify_cmd(certs: tuple[str, ...]) -> None:
    """Check certificates that 'satnono check --certify DIR' wrote (each CERT a directory).

    Independently of satnono's solver: the puzzle's formula is rebuilt with the reference
    encoder and compared byte for byte, the files' SHA-256 checked, each solution checked
    against the clues, givens and rules, the line deductions replayed with a line solver of
    its own and the DRAT proof checked by a DRAT checker of its own.  One line per CERT:
    'CERT: verified: ...' on stdout, or 'satnono: CERT: what failed' on stderr.
    """
    from ..certify.verifier import verify

    failed = 0
    for cert in certs:
        ok, message = verify(cert)
        if ok:
            click.echo(f"{cert}: verified: {message}")
        else:
            failed += 1
            click.echo(f"satnono: {cert}: {message}", err=True)
    done(1 if failed else 0)


def _name(file: str, index: int | None) -> str:
    """A certificate's directory name: the file's name without its suffix, ``#k`` for the k-th
    puzzle of a multi-puzzle file (``FILE#k`` given keeps its ``#k``); ``stdin`` for ``-``."""
    m = re.fullmatch(r"(.*)#(\d+)", file) if index is None else None
    path, k = (m.group(1), m.group(2)) if m else (file, None if index is None else str(index))
    stem = "stdin" if path == "-" else os.path.splitext(os.path.basename(path.rstrip("/")))[0] or "puzzle"
    return stem if k is None else f"{stem}#{k}"


def _existing(out_dir: str, files: tuple[str, ...]) -> list[str]:
    """The certificates of ``files`` that exist already (as far as the names tell before reading)."""
    found = []
    for file in files:
        name = _name(file, None)
        found += [p for p in [os.path.join(out_dir, name)] if os.path.lexists(p)]
        if "#" not in name:
            found += sorted(glob.glob(os.path.join(glob.escape(out_dir), glob.escape(name) + "#*")))
    return found


def certify_files(files: tuple[str, ...], out_dir: str, force: bool = False, fmt: str | None = None,
                  timeout: float | None = None, solver: str = DEFAULT_SOLVER, as_json: bool = False,
                  progress: bool | None = None, workers: int = 1, scheduler: str | None = None) -> int:
    """``satnono check --certify DIR``: the verdict of each puzzle as ``check`` prints it and its
    certificate written into ``out_dir``; the exit code (6 also when a certificate could not be
    written)."""
    from ..certify.writer import CertifyError, certify
    from ..solve import Checker
    from .checking import run_checks

    existing = [] if force else _existing(out_dir, files)
    if existing:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise CliExit(EXIT_INPUT, f"{existing[0]}: exists{more}; not overwritten (use --force; nothing written)")
    checker = Checker(solver)
    bar = Bar("check", progress)
    used: dict[str, int] = {}
    failed = []

    def emit(file: str, index: int | None, res, error: str | None, **extra) -> None:  # type: ignore[no-untyped-def]
        if res is None:
            if as_json:
                bar.echo(json.dumps(error_dict(file, index, error or "")))
            bar.echo(f"satnono: {error or ''}", err=True)
            return
        name = _name(file, index)
        used[name] = used.get(name, 0) + 1
        path = os.path.join(out_dir, name if used[name] == 1 else f"{name}~{used[name]}")
        why = None
        try:
            cert = certify(res.puzzle, path, result=res, checker=checker, timeout=timeout, force=force)
        except CertifyError as e:
            why = f"{label(file, index)}: no certificate: {e}"
            failed.append(why)
        if as_json:
            d = result_dict(res, file, index)
            d["certificate"] = None if why else cert.path
            bar.echo(json.dumps(d))
        else:
            bar.echo(f"{label(file, index)}: {verdict_text(res)}")
            if why is None:
                bar.echo(f"  certificate: {cert.path}")
        if why is not None:
            bar.echo(f"satnono: {why}", err=True)

    code = run_checks(files, fmt, timeout, solver, emit, bar, checker, workers, scheduler)
    return batch_code([code] + [EXIT_INPUT] * len(failed))
