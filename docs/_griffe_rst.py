"""A griffe extension for satnono's API pages (named in mkdocs.yml): satnono's docstrings are
written for Sphinx-style roles and doctests; this turns them into the Markdown mkdocstrings
renders, without changing the docstrings themselves.

* ``:func:`~satnono.x.y``` becomes ```y```, ``:class:`satnono.Puzzle``` becomes ```satnono.Puzzle```;
* a run of doctest lines (``>>> ...`` and the output up to a blank line) becomes a ``pycon``
  code block (bare, Markdown would read ``>>>`` as nested quotes);
* a paragraph ending in ``::`` (a reST literal block follows) ends in ``:``.
"""

from __future__ import annotations

import re

import griffe

ROLE = re.compile(r":(?:py:)?(?:func|class|mod|data|meth|attr|exc|obj|const|ref):`~?([^`<]*?)(?:\s*<([^>`]+)>)?`")


def _role(m: re.Match) -> str:
    text, target = m.group(1), m.group(2)
    if target is None and m.group(0).split("`")[1].startswith("~"):
        text = text.rsplit(".", 1)[-1]
    return f"`{text.strip()}`"


def to_markdown(text: str) -> str:
    text = ROLE.sub(_role, text)
    out: list[str] = []
    lines = text.split("\n")
    i, fenced = 0, False
    while i < len(lines):
        line = lines[i]
        stripped = line.lstrip()
        if stripped.startswith("```"):  # an existing code block is left as it is
            fenced = not fenced
        if fenced or stripped.startswith("```"):
            out.append(line)
            i += 1
            continue
        if stripped.startswith(">>>"):
            indent = line[: len(line) - len(stripped)]
            block = []
            while i < len(lines) and lines[i].strip():
                block.append(lines[i][len(indent):] if lines[i].startswith(indent) else lines[i].strip())
                i += 1
            out += [f"{indent}```pycon", *(indent + b for b in block), f"{indent}```"]
            continue
        if line.rstrip().endswith("::") and not stripped.startswith(".."):
            line = line.rstrip()[:-1]
        out.append(line)
        i += 1
    return "\n".join(out)


class RestToMarkdown(griffe.Extension):
    """Rewrites every docstring once the package is loaded (the package's own included)."""

    def on_package(self, *, pkg: griffe.Module, **kwargs) -> None:
        self._walk(pkg, set())

    def _walk(self, obj: griffe.Object, seen: set[int]) -> None:
        if id(obj) in seen or obj.is_alias:
            return
        seen.add(id(obj))
        if obj.docstring is not None:
            obj.docstring.value = to_markdown(obj.docstring.value)
        for member in obj.members.values():
            if not member.is_alias:
                self._walk(member, seen)
