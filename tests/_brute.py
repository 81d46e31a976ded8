"""The black-and-white brute-force oracles under their old names; they live in ``tests/_oracles.py``.

Kept for the tests that still import this module (``test_givens.py``, ``test_rules.py``).
"""

from __future__ import annotations

try:  # imported as tests._brute...
    from ._oracles import brute_force_solutions
    from ._oracles import bw_line_placements as line_placements
except ImportError:  # imported with tests/ on sys.path
    from _oracles import brute_force_solutions
    from _oracles import bw_line_placements as line_placements

__all__ = ["brute_force_solutions", "line_placements"]
