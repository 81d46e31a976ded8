"""Ganak, the exact projected model counter: the only module that imports pyganak.

Ganak cannot be interrupted, so it runs in a child process that is killed at the deadline:
:func:`satnono.counting.ganak_count` starts ``python -m satnono.cnf.ganak PARENT_PID`` through
:func:`satnono.batch.child.call_module` with ``(nvars, clauses, sampling)`` on stdin; the child
answers ``("ok", count)`` or ``("error", text)`` on stdout.
"""

from __future__ import annotations

import os
import pickle
import sys
from typing import Sequence

from ..interrupt import ignore_in_child


def compact(clauses: Sequence[Sequence[int]], sampling: Sequence[int]) -> tuple[int, list[list[int]], list[int]]:
    """Renumber the variables densely (the sampling set first): ``(nvars, clauses, sampling)``.

    >>> compact([[5, -9]], [9])
    (2, [[2, -1]], [1])
    """
    ids: dict[int, int] = {}
    for v in sampling:
        ids.setdefault(abs(v), len(ids) + 1)
    out: list[list[int]] = []
    for cl in clauses:
        row = []
        for lit in cl:
            v = ids.setdefault(abs(lit), len(ids) + 1)
            row.append(v if lit > 0 else -v)
        out.append(row)
    return len(ids), out, [ids[abs(v)] for v in sampling]


def count(nvars: int, clauses: list[list[int]], sampling: list[int]) -> int:
    """The number of models of ``clauses`` projected on ``sampling`` (in this process)."""
    from pyganak import Counter

    c = Counter(verbose=0, seed=0)
    c.new_vars(nvars)
    c.add_clauses(clauses)
    c.set_sampling_set(sampling)
    return int(c.count())


def _die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when its parent dies (Ganak cannot be interrupted)."""
    try:
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(1, int(signal.SIGKILL), 0, 0, 0)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent died before the request took effect
        os._exit(1)


def main() -> None:
    """The child: read the request on stdin, answer on stdout (which Ganak never sees)."""
    # Ctrl-C and SIGTERM are for the parent, which kills this process; dying of them here
    # would look like a Ganak failure and could be reported before the parent stops
    ignore_in_child()
    if len(sys.argv) > 1 and sys.argv[1].isdigit():
        _die_with_parent(int(sys.argv[1]))
    # Ganak prints to the C-level stdout on some inputs: keep it off the reply channel.
    reply = os.fdopen(os.dup(1), "wb")
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, 1)
    os.close(devnull)
    try:
        nvars, clauses, sampling = pickle.loads(sys.stdin.buffer.read())
        answer: tuple[str, object] = ("ok", count(nvars, clauses, sampling))
    except BaseException as e:  # report anything, including a failed import
        answer = ("error", f"{type(e).__name__}: {e}")
    reply.write(pickle.dumps(answer))
    reply.close()


if __name__ == "__main__":
    main()
