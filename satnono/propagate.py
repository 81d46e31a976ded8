"""Compatibility names: the grid state and propagation now live in :mod:`satnono.logic`."""

from .clues import COLUMN, ROW  # noqa: F401
from .lines.bits import known_of  # noqa: F401
from .logic.propagate import TRANSPOSE_MAX_SIDE, propagate, scatter_limit, transpose  # noqa: F401
from .logic.state import Contradiction, Deadline, GridState, initial_state  # noqa: F401
