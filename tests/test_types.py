"""The library type-checks: ``mypy satnono`` (settings in pyproject.toml) reports no error.

CI runs the README's test command, so the type check runs with the suite.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_mypy_is_clean():
    pytest.importorskip("mypy", reason="mypy is in the test extra")
    out = subprocess.run([sys.executable, "-m", "mypy", "--no-incremental", "satnono"], cwd=ROOT,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stdout[-4000:] + out.stderr[-2000:]
    assert "Success" in out.stdout, out.stdout[-2000:]
