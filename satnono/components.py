"""Compatibility names: the independent components now live in :mod:`satnono.logic.components`."""

from .lines.segments import line_segments  # noqa: F401
from .logic.components import Component, Segment, component_state, split  # noqa: F401
