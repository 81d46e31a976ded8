"""Brute-force oracles shared by tests, independent of satnono's solver."""

from __future__ import annotations

import itertools

from satnono.model import Puzzle, line_clue


def line_placements(clue: tuple[int, ...], n: int) -> list[str]:
    """Every string of n cells over '#'/'.' whose clue is ``clue`` (brute force)."""
    return ["".join(bits) for bits in itertools.product(".#", repeat=n) if line_clue("".join(bits)) == clue]


def brute_force_solutions(p: Puzzle, limit: int | None = None) -> list[tuple[str, ...]]:
    """All solutions by enumerating row placements and checking columns (independent of satnono's solver)."""
    rows = [line_placements(c, p.width) for c in p.rows]
    out = []
    for combo in itertools.product(*rows):
        if all(line_clue("".join(col)) == clue for col, clue in zip(zip(*combo), p.columns)):
            out.append(tuple(combo))
            if limit is not None and len(out) >= limit:
                break
    return out
