"""The trust base of certificates is small and documented (issue 40, point 4): docs/certificates.md ("What one must
trust") names each file one reads to trust a verified certificate with its size as ``wc -l`` counts it, and their
total, which is under 1,000 lines; and the plain-Python DRAT checker that replaces the compiled one where it is not
built, with its size.  The files named are exactly those the verifier imports within satnono (so the list cannot
miss one), and the sizes are the files' (so the docs cannot drift)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CERTIFY = ROOT / "satnono" / "certify"
DOC = ROOT / "docs" / "certificates.md"
#: The files one reads to trust a verified certificate; drat.py is the fallback of _drat.c, counted apart.
TRUST_BASE = ("puzzle.py", "reference.py", "verifier.py", "_drat.c")
FALLBACK = "drat.py"


def wc_l(name: str) -> int:
    """The number of lines of a file as ``wc -l`` counts them (its newlines)."""
    return (CERTIFY / name).read_bytes().count(b"\n")


def stated() -> tuple[dict[str, int], int]:
    """The sizes docs/certificates.md's section "What one must trust" gives each file, and the total it gives."""
    text = DOC.read_text()
    section = text[text.index("## What one must trust"):text.index("## What it costs")]
    sizes = {m[1]: int(m[2]) for m in re.finditer(r"^\| `satnono/certify/([\w.]+)` \| (\d+) \|", section, re.M)}
    (total,) = re.findall(r"^\| \*\*total\*\* \| \*\*([\d,]+)\*\* \|", section, re.M)
    return sizes, int(total.replace(",", ""))


def imported_modules(name: str) -> set[str]:
    """The modules of satnono.certify that a module imports (at any level of its code)."""
    out = set()
    for node in ast.walk(ast.parse((CERTIFY / f"{name}.py").read_text())):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            out |= {node.module} if node.module else {a.name for a in node.names}
    return out


def test_the_docs_give_each_files_size_as_wc_counts_it():
    sizes, _ = stated()
    assert set(sizes) == {*TRUST_BASE, FALLBACK}
    for name, size in sizes.items():
        assert size == wc_l(name), (name, size, wc_l(name))


def test_the_trust_base_is_under_1000_lines_and_the_docs_give_its_total():
    _, total = stated()
    assert total == sum(wc_l(name) for name in TRUST_BASE)
    assert total < 1000


def test_the_docs_name_every_module_the_verifier_reads():
    """From the verifier, its imports within satnono.certify and theirs: the trust base's Python modules, the compiled
    checker and its Python fallback, nothing else (the writer, for one, is not among them)."""
    seen, todo = set(), ["verifier"]
    while todo:
        name = todo.pop()
        seen.add(name)
        todo += [m for m in imported_modules(name) if m not in seen and m != "_drat"]
    python = {f"{name}.py" for name in seen}
    assert python - {FALLBACK} == {name for name in TRUST_BASE if name.endswith(".py")}
    assert "_drat" in imported_modules("verifier") and FALLBACK in python
