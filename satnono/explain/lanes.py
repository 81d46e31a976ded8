"""The names the triddlers' explainer had, for the callers that still use them: explanations,
hints and grades of a puzzle of any geometry are :mod:`satnono.explain`'s own
(:func:`~satnono.explain.explain`, :func:`~satnono.explain.next_hint`,
:func:`~satnono.explain.difficulty`, :class:`~satnono.explain.Explainer`)."""

from __future__ import annotations

from .board import RULES_NOT_EXPLAINED
from .explainer import Explainer as LaneExplainer
from .hint import difficulty as lane_difficulty

__all__ = ["RULES_NOT_EXPLAINED", "LaneExplainer", "lane_difficulty"]
