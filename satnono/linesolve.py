"""Compatibility names: the line kernels now live in :mod:`satnono.lines`."""

from .lines import ColorLineResult, LineResult, LineSolver, Mask, solve_color_line, solve_line, spread  # noqa: F401
from .lines.bw import Clue  # noqa: F401
