"""The one-way data flow, checked: every module of ``satnono`` imports only from its own layer or
the layers above it in :data:`LAYERS` (lazy imports inside functions included; imports under
``if TYPE_CHECKING:`` are type annotations only and do not count)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parents[1] / "satnono"

#: Top to bottom: a module may import from its layer and the layers above, never below.
#: Each entry is a module or a package prefix (``satnono.lines`` covers ``satnono.lines.*``).
LAYERS: list[list[str]] = [
    ["satnono.errors", "satnono.interrupt", "satnono.memory"],
    ["satnono.clues", "satnono.results", "satnono.palette", "satnono.lanes"],
    ["satnono.lines", "satnono.cnf.ladders", "satnono.cnf.blotted"],
    ["satnono.rules"],
    ["satnono.model", "satnono.lanepuzzle", "satnono.lanerules"],
    ["satnono.formats"],
    ["satnono.logic.state", "satnono.logic.propagate", "satnono.logic.lanes"],
    # the numpy batch kernel and the 2x2 switches work on whole pictures (Puzzle in, arrays out;
    # pictures beyond the kernel's side fall back to the scalar propagation)
    ["satnono.lines.vector", "satnono.lines.switches"],
    ["satnono.logic.probe", "satnono.logic.components", "satnono.logic.beliefs"],
    ["satnono.cnf.encode", "satnono.sat", "satnono.cnf.ganak", "satnono.cnf"],
    ["satnono.batch"],
    # a settle with jobs > 1 runs its portfolio (lazily), whose members are settles' searches
    ["satnono.solve", "satnono.portfolio"],
    ["satnono.batch.dask_portfolio"],  # one puzzle's portfolio on the batch engine's Dask client
    # certificates: the writer settles with satnono.solve; the trust base imports nothing of
    # satnono outside satnono.certify (tests/test_certify_reference.py checks that by AST)
    ["satnono.certify"],
    ["satnono.counting", "satnono.lanecheck"],  # settle_lanes and count_lanes: the two pipelines by name
    ["satnono.diagnose"],
    ["satnono.explain"],
    ["satnono.classify", "satnono.batch.tasks"],  # the check and count batches' task functions
    ["satnono.generation", "satnono.lanegen"],
    ["satnono.blot"],
    ["satnono.fixer"],
    ["satnono.report", "satnono.render", "satnono.lanerender"],
    ["satnono.web", "satnono.cli", "satnono.__main__", "satnono"],
]


def _module_name(path: Path) -> str:
    rel = path.relative_to(PKG.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> int | None:
    """The layer of ``module``: the longest matching entry wins."""
    best, best_len = None, -1
    for i, layer in enumerate(LAYERS):
        for entry in layer:
            if (module == entry or module.startswith(entry + ".")) and len(entry) > best_len:
                best, best_len = i, len(entry)
    return best


def _type_checking_lines(tree: ast.AST) -> set[int]:
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for sub in node.body:
                for n in ast.walk(sub):
                    if hasattr(n, "lineno"):
                        out.add(n.lineno)
    return out


def _satnono_imports(path: Path, module: str) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text())
    skip = _type_checking_lines(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    out = []
    for node in ast.walk(tree):
        if getattr(node, "lineno", None) in skip:
            continue
        if isinstance(node, ast.Import):
            out += [(node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "satnono"]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
                names = [target] if node.module else [f"{target}.{a.name}" for a in node.names]
            elif node.module and node.module.split(".")[0] == "satnono":
                names = [node.module]
            else:
                continue
            for name in names:
                # ``from . import x`` may name a submodule: judge it by the submodule
                out.append((node.lineno, name))
    return out


MODULES = sorted(PKG.rglob("*.py"))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PKG)))
def test_no_upward_import(path):
    module = _module_name(path)
    mine = _layer(module)
    assert mine is not None, f"{module} is in no layer: add it to LAYERS"
    for line, target in _satnono_imports(path, module):
        theirs = _layer(target)
        if theirs is None:  # a name imported from a package, not a module
            continue
        assert theirs <= mine, (f"{module}:{line} imports {target} from a lower layer "
                                f"({LAYERS[theirs][0]} is below {LAYERS[mine][0]})")


def test_every_layer_entry_exists():
    names = {_module_name(p) for p in MODULES}
    for layer in LAYERS:
        for entry in layer:
            assert any(n == entry or n.startswith(entry + ".") for n in names), f"{entry} names no module"
