"""Memory limits: what this machine has, the default limit of one settle, and sizes in words.

Line logic needs little memory; the CNF of what it leaves open can need a lot: its block
ladders grow with each open line's blocks times their slack, so a random 400x400 picture
(about 100 blocks and 100 cells of slack in every line) makes about 8 million variables and
32 million clauses, some 5 GB once CaDiCaL holds them.  :class:`satnono.solve.Checker`
estimates the encoding before making it (:func:`satnono.cnf.encode.estimate`) and answers
``unknown`` with the reason when the estimate is over its ``max_memory``, rather than let the
operating system kill the process half-way.
"""

from __future__ import annotations

import os
import re
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Callable

#: The environment variable that sets the limit where no ``--max-memory`` is given (as a size,
#: or ``none``).
ENV = "SATNONO_MAX_MEMORY"
#: The limit of the settles of this context: bytes, None (no limit) or ``"auto"`` (``$SATNONO_MAX_MEMORY``
#: if set, else :func:`default_limit`); set by the command line's ``--max-memory`` and by batch
#: workers for the items they run (:class:`Limited`).
LIMIT: ContextVar[int | None | str] = ContextVar("satnono_max_memory", default="auto")

#: The share of the machine's memory one settle may take by default (with several local
#: workers, each takes its part of it) ...
DEFAULT_SHARE = 0.5
#: ... and at the most, whatever the machine: a CNF past this (a random picture of about 380x380
#: that line logic cannot open) is beyond any search tried here in minutes (a random 400x400,
#: 8 million variables, ran 4 minutes and grew to 6 GB without a first solution), so by default
#: it is refused at once; ``--max-memory`` lets it be tried.
DEFAULT_CAP = 4 << 30

_UNITS = {"": 1, "b": 1, "k": 1 << 10, "kb": 1 << 10, "kib": 1 << 10, "m": 1 << 20, "mb": 1 << 20,
          "mib": 1 << 20, "g": 1 << 30, "gb": 1 << 30, "gib": 1 << 30, "t": 1 << 40, "tb": 1 << 40,
          "tib": 1 << 40}
_SIZE = r"(?i)\s*(\d+(?:\.\d*)?|\.\d+)\s*([a-z]*)\s*"


def parse_size(text: str) -> int:
    """Bytes from a size such as ``2G``, ``1.5GB``, ``800M``, ``512MiB`` or ``1000000`` (units
    are powers of 1024; a bare number is bytes).

    >>> parse_size("2G"), parse_size("1.5gb"), parse_size("800 MiB"), parse_size("4096")
    (2147483648, 1610612736, 838860800, 4096)

    Raises:
        ValueError: not a size, or not above zero.
    """
    m = re.fullmatch(_SIZE, text)
    unit = _UNITS.get(m.group(2).lower()) if m else None
    if m is None or unit is None:
        raise ValueError(f"{text!r} is not a size (examples: 2G, 1.5GB, 800M, 512MiB)")
    size = int(float(m.group(1)) * unit)
    if size <= 0:
        raise ValueError(f"{text!r}: a memory limit must be above zero")
    return size


def format_size(size: float) -> str:
    """A byte count in words, to two or three significant figures.

    >>> format_size(4.6e9), format_size(2 << 30), format_size(300 << 20), format_size(900)
    ('4.3 GB', '2.0 GB', '300 MB', '900 bytes')
    """
    for unit, scale in (("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if size >= scale:
            value = size / scale
            return f"{value:.1f} {unit}" if value < 10 else f"{value:.0f} {unit}"
    return f"{int(size)} bytes"


def physical_memory() -> int | None:
    """The memory this process may use at the most: the machine's physical memory, or less
    where a control group or an address-space limit (``ulimit -v``) says so; None where none of
    them can be read."""
    found: list[int] = []
    try:
        found.append(os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"))
    except (ValueError, OSError, AttributeError):
        pass
    for path in ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"):
        try:
            with open(path) as f:
                text = f.read().strip()
        except OSError:
            continue
        if text.isdigit() and int(text) < 1 << 60:  # ("max", or a huge number: no limit)
            found.append(int(text))
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_AS)
        if soft != resource.RLIM_INFINITY and soft > 0:
            found.append(soft)
    except (ImportError, ValueError, OSError):
        pass
    return min(found) if found else None


def default_limit(workers: int = 1) -> int:
    """The default memory limit of one settle: :data:`DEFAULT_SHARE` of :func:`physical_memory`,
    shared among ``workers`` local worker processes, and :data:`DEFAULT_CAP` at the most (the cap
    alone where the machine's memory cannot be read)."""
    total = physical_memory()
    if total is None:
        return DEFAULT_CAP
    return min(int(total * DEFAULT_SHARE / max(1, workers)), DEFAULT_CAP)


def parse_limit(text: str) -> int | None:
    """A memory limit as the command line takes it: a size (:func:`parse_size`), or ``none`` /
    ``off`` for no limit.

    >>> parse_limit("none") is None, parse_limit("1G")
    (True, 1073741824)
    """
    if text.strip().lower() in ("none", "off", "unlimited"):
        return None
    return parse_size(text)


def current(workers: int = 1) -> int | None:
    """The limit in force (see :data:`LIMIT`), in bytes or None; ``workers``: how many local
    processes share the machine's default."""
    value = LIMIT.get()
    if value != "auto":
        return value  # type: ignore[return-value]
    env = os.environ.get(ENV, "").strip()
    if env:
        try:
            return parse_limit(env)
        except ValueError:
            pass  # (the command line reports a bad value; here the default stands)
    return default_limit(workers)


@dataclass(frozen=True)
class Limited:
    """``fn`` run under the memory limit ``limit`` (as :data:`LIMIT` holds it): what a batch worker,
    in another process or on another machine, runs for each item."""

    fn: Callable[[Any], Any]
    limit: int | None | str

    def __call__(self, item: Any) -> Any:
        token = LIMIT.set(self.limit)
        try:
            return self.fn(item)
        finally:
            LIMIT.reset(token)
