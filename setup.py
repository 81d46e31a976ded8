"""Build configuration beyond pyproject.toml: the optional compiled core.

``satnono._native`` (``satnono/_native.c``, plain C on the CPython API) speeds up the
black-and-white line kernel and clause builder.  It is optional: where it cannot be
compiled (no C compiler or no Python headers) the install goes on without it and
satnono runs its pure-Python reference implementations, which give the same results.
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "satnono._native",
            sources=["satnono/_native.c"],
            optional=True,
        )
    ]
)
