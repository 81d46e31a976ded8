"""Compatibility module: the generator now lives in :mod:`satnono.generation`, the numpy
batch line kernel in :mod:`satnono.lines.vector` and the 2x2 switches in
:mod:`satnono.lines.switches`.  The old public names are re-exported here."""

from __future__ import annotations

from .generation import (
    ACCEPT,
    AMBIGUOUS,
    DEFAULT_DENSITY,
    DEFAULT_TIMEOUT,
    DENSITY,
    LINE,
    OPEN,
    REQUIREMENTS,
    RULE,
    STALLED,
    STYLES,
    TIMEOUT,
    GenerateStats,
    Generation,
    draw,
    generate,
    other_solution,
)
from .lines.switches import find_switch
from .lines.vector import (
    MAX_FAST_SIDE,
    U64,
    clue_arrays,
    grid_of,
    pack,
    propagate_many,
    solve_lines,
    unpack,
)

__all__ = [
    "ACCEPT",
    "AMBIGUOUS",
    "DEFAULT_DENSITY",
    "DEFAULT_TIMEOUT",
    "DENSITY",
    "LINE",
    "MAX_FAST_SIDE",
    "OPEN",
    "REQUIREMENTS",
    "RULE",
    "STALLED",
    "STYLES",
    "TIMEOUT",
    "U64",
    "GenerateStats",
    "Generation",
    "clue_arrays",
    "draw",
    "find_switch",
    "generate",
    "grid_of",
    "other_solution",
    "pack",
    "propagate_many",
    "solve_lines",
    "unpack",
]
