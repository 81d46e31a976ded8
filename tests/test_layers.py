"""Module ownership: only sat.py imports pysat, only cnf/ganak.py imports pyganak, only batch/dask.py imports dask (batch/dask_portfolio.py through it),
only the cli/ package imports click or prints, only web/server.py knows HTTP (starlette, uvicorn)."""

from __future__ import annotations

import ast
from pathlib import Path

PKG = Path(__file__).resolve().parents[1] / "satnono"

OWNERS = {"pysat": {"sat.py"}, "pyganak": {"cnf/ganak.py"}, "dask": {"batch/dask.py"},
          "distributed": {"batch/dask.py"}, "click": {"cli/*"},
          "starlette": {"web/server.py"}, "uvicorn": {"web/server.py"}}


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    out = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            out |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            out.add(node.module.split(".")[0])
    return out


def _prints(path: Path) -> bool:
    tree = ast.parse(path.read_text())
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "print" for n in ast.walk(tree)
    )


def _owned(rel: str, owners: set[str]) -> bool:
    """``rel`` is one of ``owners`` (a path, or ``DIR/*`` for every module of a package)."""
    return rel in owners or any(o.endswith("/*") and rel.startswith(o[:-1]) for o in owners)


def _in_cli(f: Path) -> bool:
    return f.relative_to(PKG).parts[0] == "cli"


def test_single_owners():
    for f in PKG.rglob("*.py"):
        rel = str(f.relative_to(PKG))
        for mod, owners in OWNERS.items():
            if mod in _imports(f):
                assert _owned(rel, owners), f"{rel} imports {mod}"


def test_the_cli_package_is_what_the_layer_rules_cover():
    """The ownership rules above name the cli package by path: it must exist and hold the click
    importer and the printer (a rename would silently exempt nothing and check nothing)."""
    cli = [f for f in PKG.rglob("*.py") if _in_cli(f)]
    assert (PKG / "cli" / "__init__.py") in cli and not (PKG / "cli.py").exists()
    assert any("click" in _imports(f) for f in cli)
    assert sum("import click" in f.read_text() for f in cli) >= 6  # the group, the options, the command modules


def test_only_cli_prints():
    for f in PKG.rglob("*.py"):
        if not _in_cli(f):
            assert not _prints(f), f"{f.relative_to(PKG)} calls print()"


#: The heavy third-party stacks, by their packages' module names: python-sat (pysat, and its
#: compiled solvers, pysolvers), numpy and the web stack.
HEAVY = ("pysat", "pysolvers", "numpy", "starlette", "uvicorn")


def test_a_line_solvable_check_imports_no_heavy_stack():
    """`satnono check` on a line-solvable puzzle never imports python-sat, numpy or the web stack:
    they are imported by what needs them (a CNF, the generator, the editor)."""
    import subprocess
    import sys

    code = ("import sys\nfrom satnono.cli import main\nmain(['check', sys.argv[1]])\n"
            f"print(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r}))")
    puzzle = str(PKG.parent / "puzzles" / "webpbn" / "webpbn-00001.xml")
    out = subprocess.run([sys.executable, "-c", code, puzzle], capture_output=True, text=True, check=True,
                         stdin=subprocess.DEVNULL)
    assert "unique (line-solvable)" in out.stdout
    assert out.stdout.strip().splitlines()[-1] == "[]"
