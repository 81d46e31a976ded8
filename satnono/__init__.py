"""satnono: settle nonograms exhaustively — solve, prove unique or show a second
solution, and tell line-solvable puzzles from ones that need search.

>>> import satnono
>>> p = satnono.Puzzle.from_clues(rows=[[1], [1]], columns=[[1], [1]])
>>> satnono.check(p).status.value
'multiple'
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

#: The version, written here only (pyproject.toml reads it; ``satnono --version`` prints it).
__version__ = "0.1.0"

from .errors import ParseError, PuzzleTooLarge, SatnonoError, UnsupportedPuzzle
from .model import Puzzle
from .results import Limits, Status
from .solve import Checker, CheckResult, Stats, check

if TYPE_CHECKING:
    from .explain.hint import next_hint
    from .lanepuzzle import LanePuzzle

#: Names imported on first use: the puzzles of other geometries (triddlers) and their pipeline.
_LAZY = {"LanePuzzle": ".lanepuzzle", "Triangle": ".lanes", "Rectangle": ".lanes", "settle_lanes": ".lanecheck",
         "count_lanes": ".lanecheck"}


def __getattr__(name: str) -> Any:
    """``next_hint`` is imported on first use (PEP 562): the explanation engine is loaded only by
    what explains; so is ``certify``, a callable module: ``satnono.certify(puzzle, directory)``
    writes a certificate, ``satnono.certify.verify(directory)`` checks one."""
    if name == "next_hint":
        from .explain.hint import next_hint

        return next_hint
    if name in ("certify", *_LAZY):
        import importlib

        if name == "certify":
            return importlib.import_module(".certify", __name__)
        return getattr(importlib.import_module(_LAZY[name], __name__), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load(path: str, fmt: str | None = None) -> Puzzle | LanePuzzle:
    """Read one puzzle (``FILE#k`` picks the k-th of a multi-puzzle file): a :class:`Puzzle`, or a
    :class:`~satnono.lanepuzzle.LanePuzzle` for a triddler."""
    from .formats import load as _load

    return _load(path, fmt)


def load_all(path: str, fmt: str | None = None) -> list[Puzzle | LanePuzzle]:
    """Read every puzzle of a file."""
    from .formats import load_all as _load_all

    return _load_all(path, fmt)


def generate(*args, **kwargs):
    """Random puzzles meeting a requirement; see :func:`satnono.generation.generate`.

    Imported lazily so that ``import satnono`` does not load numpy.
    """
    from .generation import generate as _generate

    return _generate(*args, **kwargs)


def fix(*args, **kwargs):
    """Givens and single-cell edits that make a picture unique; see :func:`satnono.fixer.fix`."""
    from .fixer import fix as _fix

    return _fix(*args, **kwargs)


__all__ = [
    "__version__",
    "Puzzle",
    "Status",
    "Limits",
    "CheckResult",
    "Stats",
    "Checker",
    "check",
    "load",
    "load_all",
    "generate",
    "fix",
    "next_hint",
    "certify",
    "LanePuzzle",
    "Triangle",
    "Rectangle",
    "settle_lanes",
    "count_lanes",
    "SatnonoError",
    "ParseError",
    "UnsupportedPuzzle",
    "PuzzleTooLarge",
]
