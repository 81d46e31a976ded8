"""The release (issue 38): the version written in one place, ``satnono --version``, and a wheel a
stranger installs and runs with no compiler."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest
import release_tools
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


def extensions() -> set[str]:
    """The modules setup.py compiles (its ``Extension`` names)."""
    text = (ROOT / "setup.py").read_text()
    return set(re.findall(r'Extension\(\s*(?:#[^\n]*\n\s*)*"(satnono\.[\w.]+)"', text))


def test_version_knows_every_compiled_module():
    assert len(extensions()) >= 3
    assert {f"{package}.{name}" for package, name in group.CORE} == extensions()


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


# --- the release: sdist, wheel, an install with no compiler ----------------------------------------

PUZZLE = ROOT / "puzzles" / "webpbn" / "webpbn-00065.xml"  # unique, needs search: the SAT path too
CORE_FILES = {str(p.relative_to(ROOT)) for p in (ROOT / "satnono").rglob("*.[ch]")}  # C sources, headers


def _run(cmd: list[str], cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run(cmd, capture_output=True, text=True, cwd=str(cwd), env=release_tools.clean_env(),
                          stdin=subprocess.DEVNULL, timeout=300)


def _verdict(text: str) -> str:
    return re.sub(r"\[.*\]", "", text).strip()  # the timing and sizes in brackets vary


@pytest.mark.release
@pytest.mark.skipif(os.name == "nt", reason="POSIX paths and CC=false")
def test_a_stranger_installs_the_wheel_with_no_compiler(tmp_path):
    """``python -m build`` makes an sdist (with the compiled core's C sources) and, from it, a wheel
    (with the core built); a new virtual environment installs the wheel with no compiler (CC=false)
    and no index, and ``satnono`` runs the main job from another directory.  A wheel built from the
    sdist with no compiler has no core: the pure-Python fallback gives the same verdict and
    ``--version`` says so.  (Without the ``build`` front end, ``pip wheel`` builds both wheels from
    the tree, and the sdist is not checked.)"""
    dist = tmp_path / "dist"
    dist.mkdir()
    try:
        release_tools.build(release_tools.copy_tree(ROOT, tmp_path / "src"), dist)
    except release_tools.ToolsMissing as e:
        pytest.skip(f"the build tools cannot be had here (offline?): {str(e)[-300:]}")
    sdists = list(dist.glob("*.tar.gz"))
    (wheel,) = dist.glob("*.whl")
    assert wheel.name.startswith(f"satnono-{satnono.__version__}-")
    for sdist in sdists:
        assert sdist.name == f"satnono-{satnono.__version__}.tar.gz"
        with tarfile.open(sdist) as tar:
            names = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
        assert CORE_FILES <= names and "setup.py" in names and "MANIFEST.in" in names
        assert not any(name.startswith("tests/") for name in names)
    with zipfile.ZipFile(wheel) as whl:
        names = set(whl.namelist())
        entry_points = next(whl.read(n).decode() for n in names if n.endswith(".dist-info/entry_points.txt"))
    built = {n for n in names if n.endswith((".so", ".pyd"))}
    assert {n.split(".")[0].replace("/", ".") for n in built} == extensions()
    assert not any(n.endswith((".c", ".h")) for n in names) and not any("/bin/" in n for n in names)
    assert "satnono = satnono.cli:main" in entry_points

    python = release_tools.fresh_venv(tmp_path / "venv")
    release_tools.pip_install(python, "--find-links", str(dist), "satnono", env={"CC": "false"})
    satnono_cmd = str(release_tools.command(python))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    where = _run([str(python), "-c", "import satnono; print(satnono.__file__)"], elsewhere)
    assert where.stdout.startswith(str(tmp_path / "venv")), where.stdout + where.stderr
    version = _run([satnono_cmd, "--version"], elsewhere)
    assert version.returncode == 0, version.stderr
    assert version.stdout.splitlines()[0] == f"satnono {satnono.__version__}"
    assert version.stdout.splitlines()[-1] == "compiled core: in use"
    compiled = _run([satnono_cmd, "check", str(PUZZLE)], elsewhere)
    assert compiled.returncode == 0, compiled.stderr
    assert _verdict(compiled.stdout) == f"{PUZZLE}: unique (needs search beyond line logic)"

    pure_dist = tmp_path / "pure"
    pure_dist.mkdir()
    source = sdists[0] if sdists else release_tools.copy_tree(ROOT, tmp_path / "src-pure")
    release_tools.build(source, pure_dist, wheel_only=True, env={"CC": "false"})
    (pure_wheel,) = pure_dist.glob("*.whl")
    with zipfile.ZipFile(pure_wheel) as whl:
        assert not any(n.endswith((".so", ".pyd")) for n in whl.namelist())
    release_tools.pip_install(python, "--force-reinstall", "--no-deps", str(pure_wheel), env={"CC": "false"})
    version = _run([satnono_cmd, "--version"], elsewhere)
    assert version.returncode == 0, version.stderr
    assert [line for line in version.stdout.splitlines() if "compiled core" in line] == [
        "compiled core: not built (pure Python fallback, slower)"]
    pure = _run([satnono_cmd, "check", str(PUZZLE)], elsewhere)
    assert (pure.returncode, _verdict(pure.stdout), pure.stderr) == (0, _verdict(compiled.stdout), "")
