"""Build satnono's release and install it as a stranger would, in a new virtual environment: the
helpers of ``tests/test_release.py``, and the start-up figure of issue 38 (``satnono check`` on a
1x1 puzzle against ``python -c pass``, whole processes, in a regular, non-editable install).

    python tests/release_tools.py            # builds a wheel, installs it, 30 paired runs, prints
    python tests/release_tools.py -n 50      # 50 pairs

For a script: :func:`measure_release_startup` (build, install, measure) or :func:`startup_pairs`
(measure an installed command).  Nothing here touches the environment running it: the new
environment reaches this one's packages (the dependencies) through a ``.pth`` file, satnono
itself left out, so installing needs neither a network nor a compiler.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: What a copy of the source tree leaves out: the repository, build products, caches.
IGNORE = shutil.ignore_patterns(".git", "build", "dist", "*.egg-info", "__pycache__", "*.so", "*.pyd",
                                ".hypothesis", ".pytest_cache", ".mypy_cache", "bench-out", ".benchmarks", "site")

#: Build tools missing here (not an error of the project): the build is skipped, not failed.
MISSING_TOOLS = ("No module named build", "Could not find a version that satisfies the requirement",
                 "No matching distribution found")


def clean_env(**extra: str) -> dict[str, str]:
    """This process's environment without what would show a new environment this tree's satnono
    (``PYTHONPATH``) or change how it runs (``SATNONO_PURE``), with ``extra`` added."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "SATNONO_PURE")}
    return {**env, **extra}


class ToolsMissing(RuntimeError):
    """The build front end or the build back end cannot be had here (offline, not installed)."""


def copy_tree(root: Path, dest: Path) -> Path:
    """A copy of the source tree at ``dest`` (so that building writes nothing into ``root``)."""
    shutil.copytree(root, dest, ignore=IGNORE)
    return dest


def has_build() -> bool:
    """Whether the ``build`` front end is installed here (else :func:`build` uses ``pip wheel``)."""
    r = subprocess.run([sys.executable, "-c", "import build.__main__"], capture_output=True, env=clean_env(),
                       cwd=tempfile.gettempdir())
    return r.returncode == 0


def build(source: Path, outdir: Path, *, wheel_only: bool = False, env: dict[str, str] | None = None) -> list[Path]:
    """``python -m build`` of ``source`` (a tree or an sdist) into ``outdir``: from a tree, the sdist
    and then the wheel built from that sdist (so the sdist is shown to hold what a build needs).
    Without the ``build`` front end, ``pip wheel``: the wheel only, built from ``source`` itself."""
    if has_build():
        cmd = [sys.executable, "-m", "build", "--outdir", str(outdir), *(["--wheel"] if wheel_only else []),
               str(source)]
    else:
        cmd = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(outdir), str(source)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=str(outdir.parent), env=clean_env(**(env or {})),
                       timeout=600)
    if r.returncode:
        log = r.stdout + r.stderr
        if any(m in log for m in MISSING_TOOLS):
            raise ToolsMissing(log[-2000:])
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{log[-4000:]}")
    return sorted(outdir.iterdir())


def fresh_venv(path: Path, deps_from: str = sys.executable) -> Path:
    """A new virtual environment at ``path`` (without pip) that sees the packages of ``deps_from``'s
    environment, satnono's own files left out; returns its ``python``."""
    venv.EnvBuilder(with_pip=False, symlinks=os.name != "nt").create(path)
    python = path / ("Scripts" if os.name == "nt" else "bin") / ("python.exe" if os.name == "nt" else "python")
    out = subprocess.run([deps_from, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib']); "
                          "print(sysconfig.get_paths()['platlib'])"], capture_output=True, text=True, check=True,
                         env=clean_env())
    farm = path / "deps"
    farm.mkdir()
    for site in dict.fromkeys(out.stdout.split()):
        for entry in Path(site).iterdir():
            name = entry.name.lower()
            if name.startswith(("satnono", "__editable__", "_satnono")) or name.endswith(".pth") \
                    or (farm / entry.name).exists():
                continue
            (farm / entry.name).symlink_to(entry, target_is_directory=entry.is_dir())
    site_packages = subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                   capture_output=True, text=True, check=True).stdout.strip()
    Path(site_packages, "satnono-test-deps.pth").write_text(f"{farm}\n")
    return python


def pip_install(python: Path, *args: str, env: dict[str, str] | None = None) -> None:
    """``pip install --no-index ARGS`` into ``python``'s environment (with this environment's pip)."""
    cmd = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-index", "--quiet",
           "--disable-pip-version-check", *args]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=str(python.parent), env=clean_env(**(env or {})),
                       timeout=300)
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)} failed:\n{(r.stdout + r.stderr)[-4000:]}")


def command(python: Path) -> Path:
    """The ``satnono`` command installed beside ``python``."""
    return python.with_name("satnono.exe" if os.name == "nt" else "satnono")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _run(cmd: list[str], cwd: str, env: dict[str, str]) -> tuple[float, float]:
    cpu = _children_cpu()
    t0 = time.perf_counter()
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, cwd=cwd, env=env)
    wall = time.perf_counter() - t0
    if r.returncode:
        raise RuntimeError(f"{' '.join(cmd)} exited {r.returncode}: {r.stderr.decode(errors='replace')[-500:]}")
    return wall, _children_cpu() - cpu


#: The puzzles of the start-up table (issues 38 and 41): small files of each kind, written by
#: :func:`startup_pairs` into a temporary directory.
STARTUP_PUZZLES = {
    "one.non": "width 1\nheight 1\nrows\n1\ncolumns\n1\n",
    "colour.non": ("width 3\nheight 3\ncolor r #ff0000\ncolor b #0000ff\nrows\n1r,1b\n2b,1r\n1r,1b\n"
                   "columns\n1r,1b,1r\n2b\n1r,1b\n"),
    "blotted.json": '{"rows": [[2], ["?"], [1, 1]], "columns": [[3], [2], [2]]}\n',
    "rules.json": ('{"rows": [[1], [2]], "columns": [[2], [1]], "rules": [{"rule": "count", "op": "=", "n": 3}, '
                   '{"rule": "no-square"}]}\n'),
}

#: The start-up table: a label and the ``satnono`` arguments (puzzles of :data:`STARTUP_PUZZLES`).
STARTUP_COMMANDS = {
    "check 1x1": ["check", "one.non"],
    "check --json 1x1": ["check", "--json", "one.non"],
    "solve 1x1": ["solve", "one.non"],
    "count 1x1": ["count", "one.non"],
    "check colour 3x3": ["check", "colour.non"],
    "check blotted 3x3": ["check", "blotted.json"],
    "check rules 2x2": ["check", "rules.json"],
}


def startup_pairs(satnono: list[str], python: str, pairs: int = 30,
                  commands: dict[str, list[str]] | None = None) -> dict[str, dict[str, float]]:
    """Each command line of ``commands`` (default :data:`STARTUP_COMMANDS`) against ``python -c pass``,
    whole processes, run alternately ``pairs`` times (after one unmeasured run of each, which writes
    the ``.pyc`` files): for each label, the median wall and CPU (user + system) seconds of each side
    and their ratios (keys ``python_wall``, ``satnono_wall``, ``wall_ratio``, ``python_cpu``,
    ``satnono_cpu``, ``cpu_ratio``, ``pairs``)."""
    results: dict[str, dict[str, float]] = {}
    env = clean_env()
    with tempfile.TemporaryDirectory() as tmp:
        for name, text in STARTUP_PUZZLES.items():
            Path(tmp, name).write_text(text)
        for label, args in (commands or STARTUP_COMMANDS).items():
            sides = {"python": [python, "-c", "pass"], "satnono": [*satnono, *args]}
            for cmd in sides.values():
                _run(cmd, tmp, env)
            times: dict[str, list[tuple[float, float]]] = {side: [] for side in sides}
            for _ in range(pairs):
                for side, cmd in sides.items():
                    times[side].append(_run(cmd, tmp, env))
            out: dict[str, float] = {"pairs": float(pairs)}
            for side, runs in times.items():
                out[f"{side}_wall"] = statistics.median(w for w, _ in runs)
                out[f"{side}_cpu"] = statistics.median(c for _, c in runs)
            out["wall_ratio"] = out["satnono_wall"] / out["python_wall"]
            out["cpu_ratio"] = out["satnono_cpu"] / out["python_cpu"] if out["python_cpu"] > 0 else float("inf")
            results[label] = out
    return results


def release_install(work: Path, root: Path = ROOT) -> Path:
    """Build the wheel of ``root`` under ``work`` and install it in a new virtual environment
    there; the environment's python."""
    dist = work / "dist"
    dist.mkdir()
    build(copy_tree(root, work / "src"), dist, wheel_only=True)
    python = fresh_venv(work / "venv")
    pip_install(python, "--no-deps", *map(str, dist.glob("*.whl")))
    return python


def measure_release_startup(root: Path = ROOT, pairs: int = 30,
                            commands: dict[str, list[str]] | None = None) -> dict[str, dict[str, float]]:
    """:func:`startup_pairs` in a regular (non-editable) install of ``root`` made for it (the start-up
    figures of issues 38 and 41: each ``wall_ratio`` ≤ 4)."""
    with tempfile.TemporaryDirectory() as tmp:
        python = release_install(Path(tmp), root)
        return startup_pairs([str(command(python))], str(python), pairs, commands)


def startup_table(results: dict[str, dict[str, float]]) -> list[str]:
    """The lines that show :func:`startup_pairs`' results."""
    lines = [f"{'command':<20} {'satnono ms':>10} {'python ms':>10} {'wall':>7} {'cpu':>7}  (median of paired runs, "
             "target <= 4x wall)"]
    for label, m in results.items():
        lines.append(f"{label:<20} {m['satnono_wall'] * 1000:>10.1f} {m['python_wall'] * 1000:>10.1f} "
                     f"{m['wall_ratio']:>6.2f}x {m['cpu_ratio']:>6.2f}x")
    return lines


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-n", "--pairs", type=int, default=30, help="pairs of processes (default 30)")
    args = ap.parse_args()
    print(f"start-up, regular install, median of {args.pairs} paired runs against python -c pass:")
    print("\n".join(startup_table(measure_release_startup(ROOT, args.pairs))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
