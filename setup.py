"""Build configuration beyond pyproject.toml: the optional compiled core.

``satnono.lines._native`` (``satnono/lines/_native.c``, plain C on the CPython API) speeds
up the black-and-white line kernel and clause builder; ``satnono.lines._native_color``
(``satnono/lines/_native_color.c``) the colour line kernel; ``satnono.logic._beliefs``
(``satnono/logic/_beliefs.c``) the belief propagation that gives the SAT solver its first
phases.  All are optional: where they cannot be
compiled (no C compiler or no Python headers) the install goes on without it and
satnono runs its pure-Python reference implementations, which give the same results.

The built module is also copied beside its source (as ``build_ext --inplace`` would), so
that tests run from the source tree after ``pip install .`` (``python -m pytest`` imports
``satnono`` from the tree, not from site-packages) use and check it.  The module records the
SHA-256 of the C source it was built from; ``tests/test_native.py`` and
``tests/test_native_color.py`` fail on a stale build.
"""

import hashlib
import os
import shutil

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.join("satnono", "lines", "_native.c")
COLOR_SOURCE = os.path.join("satnono", "lines", "_native_color.c")
HEADER = os.path.join("satnono", "lines", "_native_masks.h")
BELIEFS_SOURCE = os.path.join("satnono", "logic", "_beliefs.c")


def _source_sha(*sources: str) -> str:
    """The SHA-256 of the concatenated ``sources`` (a module's C file, then the shared header)."""
    digest = hashlib.sha256()
    try:
        for source in sources:
            with open(os.path.join(HERE, source), "rb") as f:
                digest.update(f.read())
    except OSError:
        return ""
    return digest.hexdigest()


class BuildExt(build_ext):
    """``build_ext`` that also leaves the built core in the source tree (when it can)."""

    def run(self) -> None:
        super().run()
        if self.inplace:
            return
        for ext in self.extensions:
            built = self.get_ext_fullpath(ext.name)
            if not os.path.exists(built):
                continue  # optional and not built: satnono runs pure Python
            dest = os.path.join(HERE, *ext.name.split(".")[:-1], os.path.basename(built))
            # a new file renamed over the old one: a process running the tree's copy keeps its
            # mapping (writing into the mapped file would kill it with SIGBUS)
            tmp = f"{dest}.{os.getpid()}.tmp"
            try:
                shutil.copyfile(built, tmp)
                os.replace(tmp, dest)
            except OSError:
                try:
                    os.unlink(tmp)
                except OSError:
                    pass  # a read-only tree: only the installed copy has it


setup(
    ext_modules=[
        Extension(
            "satnono.lines._native",
            sources=[SOURCE],
            depends=[HEADER],
            define_macros=[("SATNONO_NATIVE_SHA256", f'"{_source_sha(SOURCE, HEADER)}"')],
            optional=True,
        ),
        Extension(
            # floating point without contraction: the hints must be bit-identical to the Python reference
            "satnono.logic._beliefs",
            sources=[BELIEFS_SOURCE],
            define_macros=[("SATNONO_BELIEFS_SHA256", f'"{_source_sha(BELIEFS_SOURCE)}"')],
            extra_compile_args=[] if os.name == "nt" else ["-ffp-contract=off"],
            optional=True,
        ),
        Extension(
            "satnono.lines._native_color",
            sources=[COLOR_SOURCE],
            depends=[HEADER],
            define_macros=[("SATNONO_NATIVE_COLOR_SHA256", f'"{_source_sha(COLOR_SOURCE, HEADER)}"')],
            optional=True,
        ),
        Extension(
            # the DRAT proof checker of the certificates (pure Python in drat.py where not built)
            "satnono.certify._drat",
            sources=[os.path.join("satnono", "certify", "_drat.c")],
            define_macros=[("SATNONO_DRAT_SHA256", f'"{_source_sha(os.path.join("satnono", "certify", "_drat.c"))}"')],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": BuildExt},
)
