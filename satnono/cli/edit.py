"""``satnono edit``: the level editor in the browser."""

from __future__ import annotations

import sys

import click

from ..errors import ParseError
from .common import EXIT_INPUT
from .options import INTERNAL, USAGE, CliExit, exit_help, max_memory_option, timeout_option

EDIT_EXIT_HELP = exit_help(
    (0, "the editor was stopped (Ctrl+C)"), INTERNAL, USAGE,
    (6, "FILE could not be read, or the address could not be bound"))


@click.command("edit", epilog=EDIT_EXIT_HELP)
@click.argument("file", required=False)
@click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
              help="Port to listen on (0: a free one).")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Anything but the loopback address exposes the editor to the network.")
@click.option("--no-browser", is_flag=True, help="Do not open the page in the default browser.")
@timeout_option(5.0, "Time limit for each verdict (then the page says 'unknown').")
@max_memory_option
def edit_cmd(file: str | None, port: int, host: str, no_browser: bool, timeout: float) -> None:
    """Draw a puzzle in the browser and see live whether it is a good one.

    Serves a local page (its URL is the first line printed) with a grid to
    paint in black and white or with a palette of colours (up to 32), the
    clues as a player sees them, the verdict recomputed on every
    edit (unique and line-solvable, unique but needs search, multiple with the
    differing cells marked, none, unknown), the placements left per row and
    column, and the fix proposals of `satnono fix`. FILE (any format satnono
    reads, colour ones included, FILE#k, or a black-and-white picross level
    NAME.level with NAME.pbm and NAME.ppm beside it) is opened, and Save
    writes back to it; a FILE that does not
    exist yet is created on the first Save. Stop with Ctrl+C.
    """
    from ..web.session import DocError, Editor

    editor = Editor(file, timeout=timeout)
    try:
        editor.initial()  # a file that cannot be read is reported here, not in the page
    except (ParseError, DocError) as e:
        raise CliExit(EXIT_INPUT, str(e)) from None
    from ..web.server import serve

    def ready(url: str) -> None:
        click.echo(url)
        sys.stdout.flush()
        if not no_browser:
            import webbrowser

            webbrowser.open(url)

    try:
        serve(editor, host, port, ready)
    except KeyboardInterrupt:  # Ctrl+C: the server has shut down cleanly
        return
    except OSError as e:
        raise CliExit(EXIT_INPUT, f"cannot listen on {host}:{port}: {e.strerror or e}") from None
