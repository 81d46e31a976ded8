"""The colour brute-force oracles under their old names; they live in ``tests/_oracles.py``.

Kept for the tests that still import this module (``test_fix_color.py``, ``test_givens.py``).
"""

from __future__ import annotations

try:  # imported as tests._brute...
    from ._oracles import blocks_of, brute_line, char_of, grid_solutions
    from ._oracles import color_line_placements as line_placements
except ImportError:  # imported with tests/ on sys.path
    from _oracles import blocks_of, brute_line, char_of, grid_solutions
    from _oracles import color_line_placements as line_placements

__all__ = ["blocks_of", "brute_line", "char_of", "grid_solutions", "line_placements"]
