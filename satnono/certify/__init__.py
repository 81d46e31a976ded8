"""Certificates: verdicts that come with a proof anyone can check without trusting satnono (issue #40).

>>> import satnono, satnono.certify, tempfile, os
>>> p = satnono.Puzzle.from_clues(rows=[[1], [1]], columns=[[1], [1]])
>>> out = os.path.join(tempfile.mkdtemp(), "two")
>>> satnono.certify(p, out).verdict                  # the module is callable: certify()
'multiple'
>>> satnono.certify.verify(out)
(True, 'multiple: two solutions checked, the line deductions replayed')

:func:`certify` (:mod:`~satnono.certify.writer`) settles a puzzle and writes its certificate
directory; :func:`verify` (:mod:`~satnono.certify.verifier`) checks one with the trust base
alone: :mod:`~satnono.certify.puzzle` (reading ``puzzle.json``, what clues and rules mean, the
solution check), :mod:`~satnono.certify.reference` (the reference encoder),
:mod:`~satnono.certify.verifier` (the checks, the replay of the line deductions among them) and
the DRAT checker compiled from ``_drat.c`` (where it is not built: :mod:`~satnono.certify.drat`),
which import nothing else of satnono.
"""

from __future__ import annotations

import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from .verifier import verify
    from .writer import Certificate, CertifyError, certify

__all__ = ["Certificate", "CertifyError", "certify", "verify"]
_LAZY = {"Certificate": "writer", "CertifyError": "writer", "certify": "writer", "verify": "verifier"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(f".{module}", __name__), name)


class _CallableModule(types.ModuleType):
    """``satnono.certify(puzzle, directory, ...)`` is :func:`satnono.certify.writer.certify`."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from .writer import certify

        return certify(*args, **kwargs)


sys.modules[__name__].__class__ = _CallableModule
