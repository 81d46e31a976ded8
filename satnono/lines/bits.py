"""Bit helpers shared by the line kernels: a set of cells (or positions) is a Python int,
bit ``i`` = cell ``i``."""

from __future__ import annotations

import importlib
import os
from types import ModuleType

Mask = int


def native_core(name: str = "_native", package: str | None = None) -> ModuleType | None:
    """A compiled module of ``package`` (by default this one: ``_native``, the black-and-white
    core; ``_native_color``, the colour kernel; ``satnono.logic``'s ``_beliefs``), or None when
    it was not built or ``SATNONO_PURE`` is set (to anything but ``0`` or nothing): the callers
    then use their Python reference."""
    if os.environ.get("SATNONO_PURE", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module(f"{package or __package__}.{name}")
    except ImportError:
        return None

BYTE_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def reverse(x: Mask, width: int) -> Mask:
    """Mirror the low ``width`` bits of ``x`` (which must have no higher bits set).

    Big-endian bytes with each byte's bits reversed, read back little-endian, is
    the bit-reversal of the whole byte string; the shift drops the padding.
    """
    if width <= 0:
        return 0
    size = (width + 7) >> 3
    return int.from_bytes(x.to_bytes(size, "big").translate(BYTE_REVERSED), "little") >> ((size << 3) - width)


def reach(starts: Mask, passable: Mask) -> Mask:
    """Every position reachable by walking right from ``starts`` through ``passable`` cells."""
    return ((passable + (starts & passable)) ^ passable) | starts


def runs_of(mask: Mask, c: int) -> Mask:
    """Positions p such that bits p..p+c-1 of ``mask`` are all set."""
    r = mask
    have = 1
    while have < c:
        step = have if have <= c - have else c - have
        r &= r >> step
        have += step
    return r


def spread(v: Mask, c: int) -> Mask:
    """OR of ``v`` shifted left by 0..c-1 (cells covered by blocks of length c starting in v)."""
    r = v
    have = 1
    while have < c:
        step = have if have <= c - have else c - have
        r |= r << step
        have += step
    return r


def known_of(excluded: tuple[Mask, ...], full: Mask) -> Mask:
    """Cells where at most one value is left (every value but one excluded)."""
    one = two = 0
    for ex in excluded:
        may = full & ~ex
        two |= one & may
        one |= may
    return full & ~two


def bit_list(mask: Mask) -> list[int]:
    """The positions of the set bits of ``mask``, lowest first.

    >>> bit_list(0b10110)
    [1, 2, 4]
    """
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
