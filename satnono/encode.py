"""Compatibility names: the CNF encoder now lives in :mod:`satnono.cnf.encode`."""

from .cnf.encode import Encoding, cell_vars, encode, line_clauses, solution_grid  # noqa: F401
from .cnf.ladders import bw_line_clauses, color_line_clauses  # noqa: F401
