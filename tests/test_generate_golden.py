"""``satnono generate``'s output pinned byte for byte: for each option set below and each seed,
the JSON lines on stdout (or the files ``--out`` writes) and the closing statistics on stderr
(its seconds masked), recorded from the generator as it was before the rectangle's and the
triddler's generators became one driver (tests/golden_generate/).

Regenerate (only when an output is meant to change, and say why in the commit)::

    python tests/test_generate_golden.py --write
"""

from __future__ import annotations

import json
import os
import re
import sys
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner

GOLDEN = Path(__file__).parent / "golden_generate"

#: name -> (the generate options but --seed, the seeds).
SETS: dict[str, tuple[list[str], range]] = {
    "grid-line": (["--size", "10x10", "--count", "4"], range(20)),
    "grid-unique-smooth": (["--size", "10x9", "--count", "2", "--require", "unique", "--style", "smooth",
                            "--density", "0.3-0.6"], range(20)),
    "grid-search": (["--size", "9x9", "--count", "2", "--require", "search", "--min-open", "3"], range(20)),
    "grid-any": (["--size", "6x7", "--count", "3", "--require", "any", "--density", "0.4-0.5"], range(20)),
    "grid-colour": (["--size", "7x6", "--count", "2", "--require", "unique", "--colors", "2"], range(20)),
    "grid-colour-smooth": (["--size", "8x8", "--count", "2", "--require", "line", "--colors", "3",
                            "--style", "smooth"], range(20)),
    "grid-rules": (["--size", "7x7", "--count", "2", "--require", "unique", "--rule", "symmetric:left-right",
                    "--rule", "connected"], range(20)),
    "grid-colour-rule": (["--size", "6x6", "--count", "2", "--colors", "2", "--rule", "count:>=6:a"], range(20)),
    "grid-count-rule": (["--size", "6x6", "--count", "2", "--rule", "count:>=15"], range(20)),
    "grid-20-unique": (["--size", "20x20", "--count", "1", "--require", "unique", "--density", "0.45-0.6"], range(10)),
    "grid-wide": (["--size", "70x3", "--count", "1", "--require", "unique", "--density", "0.5-0.7"], range(5)),
    "grid-blot": (["--size", "6x6", "--count", "2", "--blot"], range(10)),
    "grid-non": (["--size", "8x6", "--count", "2", "--format", "non", "--out", "{out}"], range(5)),
    "grid-pbm": (["--size", "6x8", "--count", "2", "--format", "pbm", "--out", "{out}"], range(5)),
    "grid-exhausted": (["--size", "8x8", "--count", "5", "--require", "search", "--max-candidates", "30"], range(5)),
    "tri-hexagon-line": (["--shape", "hexagon:3", "--count", "2"], range(20)),
    "tri-parallelogram-search": (["--shape", "parallelogram:3x4", "--count", "2", "--require", "search"], range(20)),
    "tri-triangle-unique-colour": (["--shape", "triangle:5", "--count", "2", "--require", "unique", "--colors", "2",
                                    "--style", "smooth"], range(10)),
    "tri-hexagon5-search": (["--shape", "hexagon:5", "--count", "1", "--require", "search", "--min-open", "10"],
                            range(10)),
    "tri-sides-any": (["--shape", "sides:2,1,2,2,1,2", "--count", "2", "--require", "any"], range(10)),
    "tri-hexagon-xml": (["--shape", "hexagon:2", "--count", "2", "--require", "unique", "--out", "{out}"], range(5)),
    "tri-g": (["--shape", "triangle:4", "--count", "2", "--format", "g", "--out", "{out}"], range(5)),
}

_SECONDS = re.compile(r"\d+\.\d+ s\b")


def run(name: str, seed: int) -> dict:
    """What ``generate`` gives for one option set and seed: its exit code, stdout, the files it
    wrote (name -> text) and stderr with the seconds masked."""
    options, _ = SETS[name]
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "out")
        args = ["generate", *(a.replace("{out}", out) for a in options), "--seed", str(seed)]
        from satnono.cli import cli

        r = CliRunner().invoke(cli, args)
        files = {}
        if os.path.isdir(out):
            for f in sorted(os.listdir(out)):
                files[f] = Path(out, f).read_text(encoding="utf-8")
    return {"exit": r.exit_code, "stdout": r.stdout, "files": files,
            "stderr": _SECONDS.sub("X s", r.stderr.replace(out, "OUT"))}


def golden(name: str) -> dict:
    return json.loads((GOLDEN / f"{name}.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("name", list(SETS))
def test_generate_output_is_pinned(name):
    want = golden(name)
    _, seeds = SETS[name]
    assert sorted(want, key=int) == [str(s) for s in seeds]
    for seed in seeds:
        got = run(name, seed)
        assert got == want[str(seed)], (name, seed)


def test_the_golden_files_are_not_empty():
    """Each set accepted puzzles (or, for grid-exhausted, ran out as pinned), so the pins bite."""
    for name in SETS:
        for seed, got in golden(name).items():
            assert got["stdout"] or got["files"] or name == "grid-exhausted", (name, seed)
            assert ("ran out" in got["stderr"]) == (got["exit"] == 5)
            assert got["exit"] in (0, 5)


def _write() -> None:
    GOLDEN.mkdir(exist_ok=True)
    for name, (_, seeds) in SETS.items():
        data = {str(seed): run(name, seed) for seed in seeds}
        if any(v["exit"] not in (0, 5) for v in data.values()):
            sys.exit(f"{name}: generate failed; nothing written for it")
        (GOLDEN / f"{name}.json").write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        print(name, sum(v["exit"] == 0 for v in data.values()), "of", len(data), "complete", file=sys.stderr)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_generate_golden.py --write")
    _write()
