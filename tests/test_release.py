"""The release (issue 38): the version written in one place, ``satnono --version``, and a wheel a
stranger installs and runs with no compiler."""

from __future__ import annotations

import sys

import pytest
from click.testing import CliRunner
from conftest import ROOT

import satnono
from satnono.cli import cli, group

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _version(env: dict[str, str] | None = None) -> list[str]:
    r = CliRunner().invoke(cli, ["--version"], env=env)
    assert r.exit_code == 0, r.output
    return r.output.splitlines()


def test_the_version_is_written_once():
    """pyproject.toml reads the version from ``satnono.__version__``: a release bumps one line."""
    with open(ROOT / "pyproject.toml", "rb") as f:
        project = tomllib.load(f)
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "satnono.__version__"}
    lines = [line for line in (ROOT / "satnono" / "__init__.py").read_text().splitlines()
             if line.startswith("__version__ = ")]
    assert lines == [f'__version__ = "{satnono.__version__}"']  # a literal, read without importing satnono


def test_version_names_satnono_python_python_sat_and_the_core(monkeypatch):
    monkeypatch.delenv("SATNONO_PURE", raising=False)
    out = _version()
    assert out[0] == f"satnono {satnono.__version__}"
    assert out[1].startswith(f"Python {sys.version.split()[0]} (")
    assert out[2].startswith("python-sat ") and "CaDiCaL" in out[2]
    assert out[3].startswith("compiled core: ")
    assert len(out) == 4


def test_version_announces_the_pure_python_fallback_once(monkeypatch):
    """Without the compiled core (not built: no compiler at install time) the pure-Python reference
    runs, and ``--version`` says so, once."""
    from satnono.lines import bits

    monkeypatch.delenv("SATNONO_PURE", raising=False)
    monkeypatch.setattr(bits, "native_core", lambda name="_native", package=None: None)
    out = _version()
    assert [line for line in out if "pure Python" in line] == ["compiled core: not built (pure Python fallback, slower)"]


def test_version_says_when_the_core_is_switched_off():
    out = _version({"SATNONO_PURE": "1"})
    assert out[-1] == "compiled core: off (SATNONO_PURE is set: pure Python, slower)"


def test_version_names_a_missing_part_of_the_core(monkeypatch):
    from satnono.lines import bits

    real = bits.native_core
    monkeypatch.delenv("SATNONO_PURE", raising=False)
    monkeypatch.setattr(bits, "native_core",
                        lambda name="_native", package=None: None if name == "_beliefs" else real(name, package))
    if any(real(name, package) is None for package, name in group.CORE):
        pytest.skip("this tree's compiled core is not built")
    assert _version()[-1] == "compiled core: partly built (no satnono.logic._beliefs: pure Python there, slower)"
