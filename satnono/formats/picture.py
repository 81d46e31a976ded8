"""Colour pictures: Netpbm ``P3``/``P6`` (``.ppm``) and PNG (``.png``), read and written.

A picture is a puzzle's goal, one pixel per cell (a game's level image, as a
level editor stores it); its clues are derived from it.  Reading rules:

* The picture's distinct colours become the palette.  The background is white
  (``#ffffff``) unless the reader is given another ``background`` colour
  (``load(path, background="#00ff00")``); a background colour that does not
  occur simply leaves no empty cell.
* Block colours are numbered, and given the grid characters ``a``, ``b``,
  ``c``, ... in the order they first appear (row by row from the top left).
  Their names are the common colour names of
  :data:`satnono.formats._palette.COLOR_NAMES` when the RGB matches exactly,
  else ``#rrggbb``.
* A picture whose one block colour is pure black is black and white (grid
  character ``#``; on white exactly :data:`~satnono.model.BW_PALETTE`); a
  lone colour of its own (red) keeps its RGB and the character ``a``.
* More than :data:`~satnono.model.MAX_COLORS` block colours is an error that
  says how many the picture has.
* PPM samples may have any maxval from 1 to 65535 (two bytes per sample above
  255, as Netpbm says); they are scaled to 0..255, so colours that differ only
  below that precision are one colour.  ``#`` comments are allowed in the
  header, and for P3 among the samples.  Data after a P6 raster is ignored;
  after a P3 raster only whitespace and comments may follow.
* PNG (any mode Pillow reads: palette, grey, RGB, with or without alpha):
  fully transparent pixels are background; a partly transparent pixel is an
  error naming it (flatten the image first).  A ``Title`` text chunk is the
  puzzle's name and a ``satnono:properties`` chunk (a JSON list of ``[key,
  value]`` pairs) its properties: the PNG writer stores them there, exactly.
* PPM: header comments ``# Key: value`` are the title (``# Title: ...``) and the
  properties, as the PPM writer writes them (text on one line, see
  :mod:`satnono.formats._comments`).

Writing (:func:`write_ppm`, :func:`write_png`) draws the goal, or any grid of
the puzzle (a solution), with the palette's RGB values, ``scale`` pixels per
cell (1 by default).  :func:`satnono.formats.dumps` writes the goal at scale 1
(P6 for ``ppm``).
"""

from __future__ import annotations

import io
import json
import re
from typing import Sequence

import numpy as np

from ..errors import ParseError
from ..model import BACKGROUND, MAX_COLORS, Color, Puzzle
from ._comments import comment_lines
from ._palette import RGB, build_palette, name_for_rgb, rgb_of_spec
from ._text import check_size, parse_int
from .pbm import _Header, open_header, with_properties

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
#: The PNG text chunk of a puzzle's properties: a JSON list of ``[key, value]`` pairs.
PROPERTIES_KEY = "satnono:properties"
WHITE_RGB: RGB = (255, 255, 255)
_P3_BODY = re.compile(rb"[0-9\s]*")


def background_rgb(background: str | Sequence[int] | None) -> RGB:
    """The background colour a reader option names (white when ``None``).

    Raises:
        ValueError: neither a colour name nor ``#rrggbb`` (nor an RGB triple).
    """
    if background is None:
        return WHITE_RGB
    if isinstance(background, str):
        try:
            return rgb_of_spec(background)
        except ValueError as e:
            raise ValueError(f"background colour: {e}") from None
    rgb = tuple(int(x) for x in background)
    if len(rgb) != 3 or any(not 0 <= x <= 255 for x in rgb):
        raise ValueError(f"background colour: expected three values 0..255, got {background!r}")
    return rgb  # type: ignore[return-value]


def puzzle_of_pixels(pixels: np.ndarray, source: str | None, background: str | Sequence[int] | None = None) -> Puzzle:
    """The puzzle whose goal is an ``(height, width, 3)`` array of 8-bit RGB pixels."""
    bg = background_rgb(background)
    height, width = pixels.shape[:2]
    packed = (pixels[..., 0].astype(np.uint32) << 16) | (pixels[..., 1].astype(np.uint32) << 8) | pixels[..., 2]
    flat = packed.ravel()
    values, first, inverse = np.unique(flat, return_index=True, return_inverse=True)
    bg_code = (bg[0] << 16) | (bg[1] << 8) | bg[2]
    # block colours in order of first appearance
    order = [int(k) for k in np.argsort(first, kind="stable") if int(values[k]) != bg_code]
    if len(order) > MAX_COLORS:
        raise ParseError(
            f"the picture has {len(order)} colours besides the background; at most {MAX_COLORS} are supported",
            source,
        )
    rgbs: list[RGB] = [(int(values[k]) >> 16, (int(values[k]) >> 8) & 255, int(values[k]) & 255) for k in order]
    # one palette path for every format: a lone black is black and white ('#'), any other colour keeps its RGB
    palette = build_palette(Color(name_for_rgb(bg), BACKGROUND, bg),
                            [(name_for_rgb(rgb), [], rgb) for rgb in rgbs], source)
    chars = [c.char for c in palette[1:]] if order else []
    lut = np.full(len(values), ord(BACKGROUND), dtype=np.uint32)
    for k, ch in zip(order, chars):
        lut[k] = ord(ch)
    cells = lut[inverse.ravel()].reshape(height, width)
    grid = tuple("".join(map(chr, row)) for row in cells.tolist())
    return Puzzle.from_grid(grid, palette=palette)


def _scale(samples: np.ndarray, maxval: int) -> np.ndarray:
    """Samples of ``0..maxval`` as 8-bit values, rounded."""
    if maxval == 255:
        return samples.astype(np.uint8)
    return ((samples.astype(np.uint64) * 255 + maxval // 2) // maxval).astype(np.uint8)


def read_ppm(data: bytes | str, source: str | None, background: str | Sequence[int] | None = None) -> list[Puzzle]:
    """The picture of a PPM file (P3 or P6) as a puzzle with that goal."""
    if isinstance(data, str):
        data = data.encode("latin-1", errors="replace")
    head, magic, width, height = open_header(data, source, "PPM picture", (b"P3", b"P6"))
    maxval = parse_int(head.token("maxval"), "maxval", source, head.line)
    if not 1 <= maxval <= 65535:
        raise ParseError(f"maxval must be between 1 and 65535, got {maxval}", source, head.line)
    samples = _raw(head, width, height, maxval) if magic == b"P6" else _plain(head, width, height, maxval)
    if int(samples.max(initial=0)) > maxval:
        raise ParseError(f"a sample is above the maxval {maxval}", source, None if magic == b"P6" else head.line)
    pixels = _scale(samples, maxval).reshape(height, width, 3)
    return [with_properties(puzzle_of_pixels(pixels, source, background), head)]


def _raw(head: _Header, width: int, height: int, maxval: int) -> np.ndarray:
    data, pos = head.data, head.pos
    if pos >= len(data) or data[pos] not in b" \t\r\n\v\f":
        raise ParseError("expected one whitespace byte after the P6 header", head.source, head.line)
    pos += 1
    size = 1 if maxval < 256 else 2
    need = width * height * 3 * size
    if len(data) - pos < need:
        raise ParseError(f"truncated P6 image: {need} bytes of pixels expected, {len(data) - pos} found", head.source)
    return np.frombuffer(data, dtype=np.uint8 if size == 1 else ">u2", count=width * height * 3, offset=pos)


def _plain(head: _Header, width: int, height: int, maxval: int) -> np.ndarray:
    need = width * height * 3
    values: list[int] = []
    body = head.data[head.pos :]
    for k, raw in enumerate(body.split(b"\n")):
        line = head.line + k
        text = raw.split(b"#", 1)[0]
        if not text.strip():
            continue
        if _P3_BODY.fullmatch(text) is None:
            bad = next(chr(ch) for ch in text if chr(ch) not in "0123456789 \t\r\v\f")
            raise ParseError(f"a P3 sample must be a whole number, got {bad!r}", head.source, line)
        tokens = text.split()
        if any(len(t.lstrip(b"0")) > 5 for t in tokens):  # above 65535 whatever the maxval (no huge int())
            big = next(t for t in tokens if len(t.lstrip(b"0")) > 5).decode()
            raise ParseError(f"sample {big[:12]}{'...' if len(big) > 12 else ''} is above the maxval {maxval}",
                             head.source, line)
        row = [int(t) for t in tokens]
        if len(values) + len(row) > need:
            raise ParseError("unexpected data after the image", head.source, line)
        high = max(row)
        if high > maxval:
            raise ParseError(f"sample {high} is above the maxval {maxval}", head.source, line)
        values += row
    if len(values) < need:
        raise ParseError(
            f"the image has {len(values)} samples, {width}x{height}x3 = {need} expected",
            head.source,
            head.line + body.rstrip(b"\r\n").count(b"\n"),
        )
    return np.array(values, dtype=np.uint32)


def read_png(data: bytes | str, source: str | None, background: str | Sequence[int] | None = None) -> list[Puzzle]:
    """The picture of a PNG file as a puzzle with that goal."""
    from PIL import Image  # Pillow is only needed for PNG

    if isinstance(data, str):
        raise ParseError("a PNG picture must be read as bytes", source)
    try:
        with Image.open(io.BytesIO(data), formats=["PNG"]) as img:
            width, height = img.size
            check_size(width, height, source, None)
            title = img.info.get("Title")
            properties = img.info.get(PROPERTIES_KEY)
            if img.mode.startswith("I"):  # 16-bit grey: scale, as Pillow's conversion would clip
                grey16 = np.asarray(img).astype(np.int64).clip(0, 65535)
                grey = _scale(grey16, 65535)
                rgba = np.repeat(grey[..., None], 4, axis=2)
                clear = img.info.get("transparency")
                rgba[..., 3] = 255
                if isinstance(clear, int):
                    rgba[grey16 == clear, 3] = 0
                has_alpha = isinstance(clear, int)
            else:
                has_alpha = "A" in img.getbands() or "transparency" in img.info
                rgba = np.asarray(img.convert("RGBA" if has_alpha else "RGB"))
    except ParseError:
        raise
    except Image.UnidentifiedImageError:
        raise ParseError("not a PNG picture (or a damaged one)", source) from None
    except Exception as e:  # Pillow raises many kinds (OSError, SyntaxError, ValueError, ...)
        raise ParseError(f"damaged PNG picture: {str(e).splitlines()[0] if str(e) else type(e).__name__}", source) from None
    if has_alpha:
        alpha = rgba[..., 3]
        partial = np.argwhere((alpha > 0) & (alpha < 255))
        if len(partial):
            r, c = (int(x) for x in partial[0])
            raise ParseError(
                f"pixel (row {r + 1}, column {c + 1}) is partly transparent (alpha {int(alpha[r, c])}); "
                "only fully transparent (background) or opaque pixels are allowed: flatten the image first",
                source,
            )
        pixels = rgba[..., :3].copy()
        pixels[alpha == 0] = background_rgb(background)
    else:
        pixels = rgba[..., :3]
    puzzle = puzzle_of_pixels(pixels, source, background)
    if isinstance(title, str):
        puzzle = puzzle.replace(name=str(title))
    if isinstance(properties, str):
        try:
            pairs = json.loads(properties)
        except ValueError:
            pairs = None
        if isinstance(pairs, list) and all(isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p)
                                           for p in pairs):
            puzzle = puzzle.replace(meta=tuple((k, v) for k, v in pairs if k and v))
    return [puzzle]


def _pixels(puzzle: Puzzle, grid: Sequence[str] | None, fmt: str, scale: int) -> np.ndarray:
    if grid is None:
        grid = puzzle.goal
        if grid is None:
            raise ValueError(f"the {fmt} format stores a picture, and this puzzle has no goal to write")
    if isinstance(scale, bool) or not isinstance(scale, int) or scale < 1:
        raise ValueError(f"scale must be a whole number of pixels per cell, at least 1, got {scale!r}")
    lut = np.zeros((0x110000 if any(ord(c.char) > 255 for c in puzzle.palette) else 256, 3), dtype=np.uint8)
    for c in puzzle.palette:
        lut[ord(c.char)] = c.rgb
    known = set(puzzle.chars)
    for r, row in enumerate(grid):
        if not set(row) <= known:
            raise ValueError(f"grid row {r + 1} has characters outside the palette: {''.join(sorted(set(row) - known))!r}")
    codes = np.array([[ord(ch) for ch in row] for row in grid], dtype=np.uint32)
    pixels = lut[codes]
    if scale > 1:
        pixels = pixels.repeat(scale, axis=0).repeat(scale, axis=1)
    return pixels


def write_ppm(puzzle: Puzzle, grid: Sequence[str] | None = None, scale: int = 1) -> bytes:
    """A raw (P6) PPM of ``grid`` (the goal by default), ``scale`` pixels per cell.

    >>> write_ppm(Puzzle.from_grid(["#."]))
    b'P6\\n2 1\\n255\\n\\x00\\x00\\x00\\xff\\xff\\xff'

    Raises:
        ValueError: no grid and no goal, a bad ``scale``, or a grid character outside the palette.
    """
    pixels = _pixels(puzzle, grid, "ppm", scale)
    head = ["P6", *comment_lines(puzzle.name, puzzle.meta)]
    head += [f"{pixels.shape[1]} {pixels.shape[0]}", "255"]
    return ("\n".join(head) + "\n").encode("utf-8") + pixels.tobytes()


def write_png(puzzle: Puzzle, grid: Sequence[str] | None = None, scale: int = 1) -> bytes:
    """A PNG of ``grid`` (the goal by default), ``scale`` pixels per cell.

    Raises:
        ValueError: as :func:`write_ppm`.
    """
    from PIL import Image
    from PIL.PngImagePlugin import PngInfo

    pixels = _pixels(puzzle, grid, "png", scale)
    info = PngInfo()
    if puzzle.name is not None:
        info.add_itxt("Title", puzzle.name)
    if puzzle.meta:
        info.add_itxt(PROPERTIES_KEY, json.dumps([list(kv) for kv in puzzle.meta], ensure_ascii=False))
    out = io.BytesIO()
    Image.fromarray(pixels, "RGB").save(out, format="PNG", pnginfo=info, optimize=False)
    return out.getvalue()
