"""satnono: settle nonograms exhaustively — solve, prove unique or show a second
solution, and tell line-solvable puzzles from ones that need search.

>>> import satnono
>>> p = satnono.Puzzle.from_clues(rows=[[1], [1]], columns=[[1], [1]])
>>> satnono.check(p).status.value
'multiple'
"""

from __future__ import annotations

__version__ = "0.1.0"

from .errors import ParseError, PuzzleTooLarge, SatnonoError, UnsupportedPuzzle
from .model import Puzzle
from .solve import Checker, CheckResult, Stats, Status, check


def load(path: str, fmt: str | None = None) -> Puzzle:
    """Read one puzzle (``FILE#k`` picks the k-th of a multi-puzzle file)."""
    from .formats import load as _load

    return _load(path, fmt)


def load_all(path: str, fmt: str | None = None) -> list[Puzzle]:
    """Read every puzzle of a file."""
    from .formats import load_all as _load_all

    return _load_all(path, fmt)


# ``generate`` and ``fix`` are also the names of their submodules: importing a
# submodule rebinds the package attribute to the module, so those modules make
# themselves callable (delegating to the function) and both spellings work.
def generate(*args, **kwargs):  # type: ignore[no-redef]
    """Random puzzles meeting a requirement; see :func:`satnono.generate.generate`.

    Imported lazily so that ``import satnono`` does not load numpy.
    """
    from .generate import generate as _generate

    return _generate(*args, **kwargs)


def fix(*args, **kwargs):  # type: ignore[no-redef]
    """Givens and single-cell edits that make a picture unique; see :func:`satnono.fix.fix`."""
    from .fix import fix as _fix

    return _fix(*args, **kwargs)


__all__ = [
    "__version__",
    "Puzzle",
    "Status",
    "CheckResult",
    "Stats",
    "Checker",
    "check",
    "load",
    "load_all",
    "generate",
    "fix",
    "SatnonoError",
    "ParseError",
    "UnsupportedPuzzle",
    "PuzzleTooLarge",
]
