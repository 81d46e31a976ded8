"""The CNF of given lanes of any geometry: :func:`encode_lanes`, a thin door to the one driver,
:func:`satnono.cnf.encode.encode` (kept for its callers until they call ``encode`` itself).

Variables: cell ``c`` has block colour ``v`` (1..K) is ``c * K + v`` (in black and white, K = 1:
cell ``c`` is filled is ``c + 1``); no colour variable true is the background.
"""

from __future__ import annotations

from typing import Any, Sequence

from ..clues import LineClue
from ..lanes import LINE, Lane
from ..lines import SolvesLines
from ..logic.lanes import LaneState
from .encode import Encoding, _collector_paused, _encode, _encode_rules

LaneEncoding = Encoding
"""The encoding of any geometry (:class:`satnono.cnf.encode.Encoding`), under its old name."""


def encode_lanes(state: LaneState, lanes: Sequence[Sequence[int]], clues: Sequence[LineClue],
                 solver: SolvesLines, rules: Sequence[Any] = ()) -> Encoding:
    """The clauses of those of ``lanes`` (cell numbers, ``clues`` one a lane) with an open cell at
    ``state``, a fixpoint of :func:`satnono.logic.lanes.propagate`, and those of ``rules`` (lane
    rules, :mod:`satnono.lanerules`): :func:`satnono.cnf.encode.encode`'s driver over lanes given
    apart from a puzzle."""
    is_open = set(state.open_cells())
    todo = [(Lane(LINE, i, cells), clue) for i, (cells, clue) in enumerate(zip(lanes, clues))
            if any(cell in is_open for cell in cells)]
    with _collector_paused():
        enc = _encode(state, solver, todo, False)  # type: ignore[arg-type]
        if rules:
            _encode_rules(enc, state, rules, False)
    return enc


__all__ = ["LaneEncoding", "encode_lanes"]
