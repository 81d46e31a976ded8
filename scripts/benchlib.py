"""What the sub-commands of ``scripts/bench.py`` share: where the repository and the corpus are,
the named puzzle sets (``load_set``, ``load_spec``), the clues-only view of a puzzle, the
``satnono`` command, child-process CPU, and the argument parser every sub-command starts from.

Importing it puts the repository first on ``sys.path``, so that the scripts run the checkout's
own satnono (``bench.py compare`` relies on it for the base commit's tree).  satnono itself is
imported only where a set is loaded.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import shutil
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from satnono.model import Puzzle

SCRIPTS = Path(__file__).resolve().parent
ROOT = SCRIPTS.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

#: The corpus: ``$SATNONO_CORPUS``, else ``../shared/corpus`` beside the repository.
DEFAULT_CORPUS = Path(os.environ.get("SATNONO_CORPUS", ROOT.parent / "shared" / "corpus"))

SURVEY = "webpbn-survey"
TOURNAMENT = "tournament/nonogramrecord"
TOURNAMENT_SETS = ("taai2011", "icga2017", "icga2020")
DEFAULT_SETS = ("survey", "dom", "wilk", "nonogram-db", "cauldron", *TOURNAMENT_SETS, "random", "colour")
ALL_SETS = (*DEFAULT_SETS, "hard", "rules", "connected", "deadline", "colour36")
ALIASES = {"tournament": TOURNAMENT_SETS, "default": DEFAULT_SETS}
SETTLED = {"unique", "multiple", "none"}
#: Random puzzles: (height, width, density), RANDOM_COUNT of each, from seed RANDOM_SEED: 120, as
#: in the mix of issue 19 (442 puzzles: survey, n-Dom, 300 tournament, 120 random).
RANDOM_KINDS = ((20, 20, 0.5), (20, 20, 0.6), (30, 30, 0.5), (30, 30, 0.6))
RANDOM_COUNT = 30
RANDOM_SEED = 20240605
#: Random colour puzzles: sizes, colour counts and fractions of filled cells, COLOUR_COUNT of each.
COLOUR_SIZES = ((20, 20), (30, 30))
COLOUR_KS = (2, 3, 4, 5)
COLOUR_DENSITIES = (0.5, 0.7)
COLOUR_COUNT = 3
COLOUR_SEED = 20261123
#: Puzzles with rules (issue 21): sizes, RULES_COUNT pictures per size and rule kind, from RULES_SEED.
RULES_SIZES = (25, 30)
RULES_KINDS = ("symmetric", "count", "no-square", "line")
RULES_COUNT = 5
RULES_SEED = 20261124
#: Deadlines (issue 19, cause 3): random colour pictures, each drawn from ``random.Random(seed)``
#: (side 30-40, 2-3 colours, fill 0.45-0.7, as in the issue).  Seeds 0 and 1 are the first two
#: draws; the others are the draws among seeds 0-399 that need the most search while settling in
#: seconds (most draws settle in under 1,000 conflicts).
DEADLINE_SEEDS = (0, 1, 83, 303, 374, 208, 158)
#: Issue 19's own example, unselected: COLOUR36_COUNT random pictures of 36 rows and 40 columns,
#: each cell filled with probability 0.47 and then one of two colours uniformly, seeds 0, 1, ...
COLOUR36_COUNT = 20


# --------------------------------------------------------------------------- sets

@dataclass
class Item:
    """One puzzle of a set, with what we know about its answer."""

    name: str
    puzzle: Puzzle
    published: tuple[str, ...] | None = None  # a published solution (tournament files)
    expect_unique: bool = False
    expect_published: bool = False  # a tournament puzzle: a missing published solution is a problem


def _natural(p: Path) -> list:
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", str(p))]


def _files(corpus: Path, pattern: str) -> list[Path]:
    return sorted(corpus.glob(pattern), key=_natural)


def _load(corpus: Path, paths: list[Path], expect_unique: bool = False) -> list[Item]:
    from satnono.formats import load_all

    out = []
    for p in paths:
        for pz in load_all(str(p)):
            out.append(Item(os.path.relpath(pz.source or str(p), corpus), pz, expect_unique=expect_unique))
    return out


def _published(path: Path) -> dict[str, tuple[str, ...]]:
    """Tournament solution file: ``$n`` then rows of TAB-separated 0/1."""
    sols: dict[str, list[str]] = {}
    cur: list[str] | None = None
    for line in path.read_text().splitlines():
        line = line.strip()
        if line.startswith("$"):
            cur = sols.setdefault(line[1:].strip().lstrip("0") or "0", [])
        elif line and cur is not None:
            cur.append("".join("#" if v == "1" else "." for v in line.split()))
    return {k: tuple(v) for k, v in sols.items()}


def _tournament(corpus: Path, name: str) -> list[Item]:
    from satnono.formats import load_all

    q = corpus / TOURNAMENT / "question" / f"{name}.txt"
    s = corpus / TOURNAMENT / "solution" / f"{name}.txt"
    pub = _published(s) if s.is_file() else {}
    items = []
    for k, pz in enumerate(load_all(str(q)), 1):
        n = pz.metadata.get("id", str(k))
        items.append(Item(f"{name}#{n}", pz, published=pub.get(n), expect_published=True))
    return items


def _random() -> list[Item]:
    from satnono.model import Puzzle

    rng = random.Random(RANDOM_SEED)
    items = []
    for h, w, d in RANDOM_KINDS:
        for i in range(1, RANDOM_COUNT + 1):
            grid = tuple("".join("#" if rng.random() < d else "." for _ in range(w)) for _ in range(h))
            name = f"random-{h}x{w}-d{d}#{i}"
            items.append(Item(name, Puzzle.from_grid(grid, source=name)))
    return items


def colour_grid(rng: random.Random, h: int, w: int, chars: str, fill: float) -> tuple[str, ...]:
    """A random h x w picture: each cell filled with probability ``fill``, then one of ``chars``
    uniformly (``.`` the background)."""
    return tuple("".join(rng.choice(chars) if rng.random() < fill else "." for _ in range(w)) for _ in range(h))


def palette_chars(k: int) -> str:
    """The grid characters of ``default_palette(k)``'s colours, the background left out."""
    from satnono.model import default_palette

    return "".join(c.char for c in default_palette(k))[1:]


def _colour(corpus: Path) -> list[Item]:
    """Random colour puzzles (fixed seed) and the corpus's colour files."""
    from satnono.model import Puzzle, default_palette

    rng = random.Random(COLOUR_SEED)
    items = []
    for h, w in COLOUR_SIZES:
        for k in COLOUR_KS:
            pal, chars = default_palette(k), palette_chars(k)
            for d in COLOUR_DENSITIES:
                for i in range(1, COLOUR_COUNT + 1):
                    grid = colour_grid(rng, h, w, chars, d)
                    name = f"colour-{h}x{w}-k{k}-d{d}#{i}"
                    items.append(Item(name, Puzzle.from_grid(grid, palette=pal, source=name)))
    if corpus.is_dir():
        items += _load(corpus, _files(corpus, f"{SURVEY}/webpbn-color-*.xml"), expect_unique=True)
    return items


def _rules(kinds: tuple[str, ...]) -> list[Item]:
    """Random square pictures drawn to keep one rule each (its ``keep``), settled under it.

    ``symmetric`` cycles through the four axes; ``count`` is exactly the picture's number of
    black cells; ``line`` is the main diagonal with the picture's own clue there;
    ``connected`` keeps the largest black region of a denser picture."""
    from satnono.model import Puzzle, clues_of_grid
    from satnono.rules import rule_from_json

    rng = random.Random(RULES_SEED)
    axes = ("left-right", "top-bottom", "rotate180", "transpose")
    items = []
    for n in RULES_SIZES:
        blank = Puzzle.from_grid(["." * n] * n)
        for kind in kinds:
            for i in range(1, RULES_COUNT + 1):
                d = 0.45 if kind == "connected" else 0.5
                values = [[int(rng.random() < d) for _ in range(n)] for _ in range(n)]
                if kind == "symmetric":
                    spec = {"rule": "symmetric", "axis": axes[i % 4]}
                elif kind in ("no-square", "connected"):
                    spec = {"rule": kind}
                else:
                    spec = None
                if spec is not None:
                    values = rule_from_json(spec).bind(blank).keep(values, rng)
                grid = tuple("".join("#" if v else "." for v in row) for row in values)
                if kind == "count":
                    spec = {"rule": "count", "op": "=", "n": sum(map(sum, values))}
                elif kind == "line":
                    diagonal = "".join(grid[k][k] for k in range(n))
                    spec = {"rule": "line", "cells": [[k, k] for k in range(n)],
                            "clue": list(clues_of_grid((diagonal,))[0][0])}
                name = f"{kind}-{n}x{n}#{i}"
                items.append(Item(name, Puzzle.from_grid(grid, source=name, rules=(rule_from_json(spec),))))
    return items


def _deadline_picture(seed: int) -> Item:
    from satnono.model import Puzzle, default_palette

    rng = random.Random(seed)
    h, w = rng.randint(30, 40), rng.randint(30, 40)
    k, d = rng.choice((2, 3)), rng.uniform(0.45, 0.7)
    grid = colour_grid(rng, h, w, palette_chars(k), d)
    name = f"deadline-{h}x{w}-k{k}-d{d:.2f}#{seed}"
    return Item(name, Puzzle.from_grid(grid, palette=default_palette(k), source=name))


def _colour36(seed: int) -> Item:
    from satnono.model import Puzzle, default_palette

    grid = colour_grid(random.Random(seed), 36, 40, palette_chars(2), 0.47)
    name = f"colour-36x40-k2-d0.47#{seed}"
    return Item(name, Puzzle.from_grid(grid, palette=default_palette(2), source=name))


def load_set(name: str, corpus: Path, limit: int | None, colour36_count: int = COLOUR36_COUNT) -> list[Item]:
    """The puzzles of the set ``name`` (one of :data:`ALL_SETS`), the first ``limit`` of them."""
    if name == "survey":
        items = _load(corpus, _files(corpus, f"{SURVEY}/webpbn-0*.xml"), expect_unique=True)
    elif name == "dom":
        items = _load(corpus, _files(corpus, f"{SURVEY}/dom/*-dom.xml"), expect_unique=True)
    elif name == "wilk":
        items = _load(corpus, _files(corpus, "jwilk-nonogram/data/*.nin"))
    elif name == "nonogram-db":
        items = _load(corpus, _files(corpus, "nonogram-db/db/**/*.non"))
    elif name == "cauldron":
        items = _load(corpus, [corpus / "picross-solver" / "cauldron.non"])
    elif name in TOURNAMENT_SETS:
        items = _tournament(corpus, name)
    elif name == "hard":
        items = _load(corpus, [corpus / SURVEY / "knotty.xml", corpus / SURVEY / "faase.xml"])
    elif name == "random":
        items = _random()
    elif name == "colour":
        items = _colour(corpus)
    elif name == "rules":
        items = _rules(RULES_KINDS)
    elif name == "connected":
        items = _rules(("connected",))
    elif name == "deadline":
        items = [_deadline_picture(seed) for seed in DEADLINE_SEEDS]
    elif name == "colour36":
        items = [_colour36(seed) for seed in range(colour36_count)]
    else:  # the parsers check set names
        raise ValueError(name)
    return items[:limit] if limit is not None else items


def load_spec(spec: str, corpus: Path) -> tuple[str, list[Item]]:
    """``SET`` or ``SET:LIMIT`` (the first LIMIT puzzles of SET): its name and its items."""
    name, _, limit = spec.partition(":")
    return name, load_set(name, corpus, int(limit) if limit else None)


#: False (the default): satnono is given each puzzle's clues alone, as the reference is, and a
#: stored solution (a file's goal picture) only checks the verdict; True (``bench.py sets
#: --stored-solutions``): the puzzle as read, so a stored solution is the first solution and one
#: SAT call remains.
USE_STORED_SOLUTIONS = False


def clues_only(p: Puzzle) -> Puzzle:
    """``p`` without its goal picture, unless :data:`USE_STORED_SOLUTIONS`."""
    return p if USE_STORED_SOLUTIONS or p.goal is None else p.replace(goal=None)


# --------------------------------------------------------------------------- processes

def satnono_command(*, module: bool = False, interpreter: bool = False) -> list[str]:
    """The ``satnono`` command beside this interpreter (what a user runs), else the one on
    ``PATH``, else ``python -m satnono`` (always that with ``module``).  ``interpreter``: run the
    command's script with this interpreter (its own ``#!`` line may name another Python)."""
    if not module:
        exe = Path(sys.executable).with_name("satnono")
        found = str(exe) if exe.is_file() else shutil.which("satnono")
        if found:
            return [sys.executable, found] if interpreter else [found]
    return [sys.executable, "-m", "satnono"]


def children_cpu() -> float:
    """CPU seconds (user + system) of this process's finished children so far."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


# --------------------------------------------------------------------------- command line

def parser(name: str, doc: str | None, **kwargs: object) -> argparse.ArgumentParser:
    """The parser of the sub-command ``name``: its usage reads ``bench.py NAME``, its ``--help``
    the whole of ``doc`` (the module's docstring: what it measures, how, and its targets)."""
    return argparse.ArgumentParser(prog=f"bench.py {name}", description=doc,
                                   formatter_class=argparse.RawDescriptionHelpFormatter, **kwargs)  # type: ignore[arg-type]


def add_corpus(ap: argparse.ArgumentParser) -> None:
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS,
                    help=f"the corpus directory (default: $SATNONO_CORPUS or {DEFAULT_CORPUS})")
