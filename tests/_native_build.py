"""What the compiled-kernel tests share: whether this machine can build the extensions, and the
digest of the sources a module must have been built from (its C file, then the shared header,
as ``setup.py`` records it)."""

from __future__ import annotations

import hashlib
import shutil
import sysconfig
from pathlib import Path

LINES = Path(__file__).resolve().parents[1] / "satnono" / "lines"
HEADER = "_native_masks.h"


def can_build() -> bool:
    """A C compiler and the Python headers are there: the install must have built the kernels."""
    include = sysconfig.get_paths().get("include")
    has_header = bool(include) and (Path(include) / "Python.h").exists()
    return has_header and bool(shutil.which("cc") or shutil.which("gcc"))


def source_sha(module: str) -> str:
    """The SHA-256 ``setup.py`` gives the module ``module`` (``_native``, ``_native_color``)."""
    digest = hashlib.sha256()
    for name in (f"{module}.c", HEADER):
        digest.update((LINES / name).read_bytes())
    return digest.hexdigest()
