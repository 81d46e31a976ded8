"""One short-lived child process running a satnono module: ``python -m MODULE``.

For work that cannot be interrupted in-process (Ganak): the request goes to the child's
standard input as a pickle, the reply comes back on its standard output, and the child is
killed when the time limit passes, when the caller is interrupted, or when this process dies.
A plain ``subprocess`` (not a ``multiprocessing`` child), so it also starts inside daemonic
workers such as a local pool's or a Dask worker's.

The child's side of the protocol is :func:`satnono.interrupt.ignore_in_child` first thing, then
read the request from stdin and write the reply to stdout (see :mod:`satnono.cnf.ganak`).
"""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
from typing import Any

from ..interrupt import children_starting


class ChildFailed(RuntimeError):
    """The child exited without a reply."""


def call_module(module: str, request: Any, timeout: float | None) -> tuple[bool, Any]:
    """Run ``python -m module`` on ``request``; ``(True, reply)``, or ``(False, None)`` when
    ``timeout`` seconds passed first (the child is then killed).

    The child runs with this process's ``sys.path`` (so it imports the same satnono), its
    stderr goes to ours, and SIGINT/SIGTERM are held back while it starts (it ignores them:
    this process decides, and kills it).

    Raises:
        ChildFailed: the child exited without a reply (its exit code is in the message).
    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
    data = pickle.dumps(request, protocol=pickle.HIGHEST_PROTOCOL)
    with children_starting():
        proc = subprocess.Popen([sys.executable, "-m", module, str(os.getpid())], stdin=subprocess.PIPE,
                                stdout=subprocess.PIPE, env=env)
    try:
        try:
            out, _ = proc.communicate(data, timeout=timeout)
        except subprocess.TimeoutExpired:
            return False, None
        if not out:
            raise ChildFailed(f"{module} exited without a result (exit code {proc.returncode})")
        return True, pickle.loads(out)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        for f in (proc.stdin, proc.stdout):
            if f is not None:
                f.close()
