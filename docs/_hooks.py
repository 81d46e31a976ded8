"""MkDocs hooks of satnono's site (named in mkdocs.yml; not a page).

* The ``satnono`` click group loads its commands lazily (``satnono.cli.group.LazyGroup``):
  mkdocs-click reads a group's ``commands`` when it has any, so every command is loaded first
  and the CLI reference always shows them all, whatever was imported before.
* The editor's screenshots live where the browser tests write them (``tests/screenshots``);
  they are served as ``assets/screenshots/NAME.png`` from there, not copied into ``docs/``.
* mkdocs-click writes click 8.3's "no default" marker as a default (``Sentinel.UNSET``); the
  reference shows an empty cell instead.
* ``<!-- LAYERS -->`` on a page becomes the layer list of ``tests/test_layering.py`` (the rule the
  test enforces), so the architecture page cannot drift from it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import click
from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parents[1]
SCREENSHOTS = ROOT / "tests" / "screenshots"


def on_config(config):
    from satnono.cli.group import cli

    ctx = click.Context(cli)
    for name in cli.list_commands(ctx):
        cli.get_command(ctx, name)
    return config


def on_files(files, config):
    for png in sorted(SCREENSHOTS.glob("*.png")):
        files.append(File.generated(config, f"assets/screenshots/{png.name}", abs_src_path=str(png)))
    return files


def layers_block() -> str:
    """``LAYERS`` of tests/test_layering.py, read without importing the test, one layer a line."""
    tree = ast.parse((ROOT / "tests" / "test_layering.py").read_text(encoding="utf-8"))
    for node in tree.body:
        target = getattr(node, "target", None) or (getattr(node, "targets", None) or [None])[0]
        if isinstance(target, ast.Name) and target.id == "LAYERS":
            layers = ast.literal_eval(node.value)
            break
    else:
        raise RuntimeError("tests/test_layering.py has no LAYERS")
    lines = [f"{i:2}  " + ", ".join(m.removeprefix("satnono.") or m for m in layer) for i, layer in enumerate(layers, 1)]
    return "```text\n" + "\n".join(lines) + "\n```"


def on_page_markdown(markdown, page, config, files):
    if "<!-- LAYERS -->" in markdown:
        markdown = markdown.replace("<!-- LAYERS -->", layers_block())
    return markdown


def on_page_content(html, page, config, files):
    return html.replace("<code>Sentinel.UNSET</code>", "")
