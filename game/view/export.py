"""``main.py --render-map MAP --out PNG [--time SECONDS]``: the whole map as the game draws it,
at scale 1, saved as a PNG (thumbnails, checking a map, tests against Tiled's rasterizer).

The PNG is written by this module itself, with a text chunk ``Software: tilecollide
--render-map`` in it: an existing ``--out`` file is replaced only when it is such a PNG, so a
mistyped path never overwrites a user's file. It is written as every file the game writes is
(``game.runs.files``): whole or not at all, keeping the permissions of a picture it replaces.
The picture is bounded before it is drawn (``game.view.render.MAX_PICTURE_PX``), then drawn and
written a band of rows at a time, so its memory does not grow with it.
"""

from __future__ import annotations

import io
import math
import struct
import zlib
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

import pygame

from game.errors import UserError, print_note, quoted
from game.runs import files
from game.maps.level import load_level
from game.view.render import TileImages, render_bands, whole_picture

MARK = b"Software\0tilecollide --render-map"
SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_SECONDS = 1e9  # --time: far past any animation's loop, small enough to stay exact in ms


def parse_time(text: str | None) -> float:
    if text is None:
        return 0.0
    try:
        seconds = float(text)
    except ValueError:
        raise UserError("command line", f"--time {quoted(text)} is not a number of seconds") \
            from None
    if not math.isfinite(seconds) or not 0 <= seconds <= MAX_SECONDS:
        raise UserError("command line", f"--time must be from 0 to {MAX_SECONDS:g} seconds, not "
                        f"{quoted(text)}")
    return seconds


def write_png(f: BinaryIO, size: tuple[int, int], bands: Iterable[pygame.Surface]) -> None:
    """An RGBA PNG of ``size`` carrying :data:`MARK`, written to ``f`` from ``bands`` (its rows,
    top to bottom, a surface each), each band compressed as it comes: the whole picture is
    never held."""
    w, h = size

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    f.write(SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"tEXt", MARK))
    packer = zlib.compressobj(6)
    row = w * 4
    for band in bands:
        pixels = pygame.image.tobytes(band, "RGBA")
        data = packer.compress(b"".join(b"\0" + pixels[at:at + row]
                                        for at in range(0, len(pixels), row)))
        if data:
            f.write(chunk(b"IDAT", data))
    f.write(chunk(b"IDAT", packer.flush()) + chunk(b"IEND", b""))


def png_bytes(surface: pygame.Surface) -> bytes:
    """``surface`` as an RGBA PNG carrying :data:`MARK`."""
    out = io.BytesIO()
    write_png(out, surface.get_size(), [surface])
    return out.getvalue()


def written_here(path: Path) -> bool:
    """Is ``path`` a PNG this command wrote (its first chunks carry :data:`MARK`)?"""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return False
    if not head.startswith(SIGNATURE):
        return False
    at = len(SIGNATURE)
    while at + 8 <= len(head):
        size, kind = struct.unpack(">I4s", head[at:at + 8])
        if kind == b"tEXt":
            return head[at + 8:at + 8 + size] == MARK
        if kind == b"IDAT":
            return False
        at += 12 + size
    return False


def check_out(out: Path) -> None:
    """Refuse an --out that is not a new file or a PNG this command wrote (game.runs.files)."""
    files.check_target(out, "--out", written_here, "picture")


def export(map_path: Path, out: Path, seconds: float,
           player_size: tuple[float, float], notes=print_note) -> Path:
    """Render ``map_path`` to ``out`` (see the module's docstring). What the loader had to guess
    about the map goes to ``notes`` (a ``note:`` line each on standard error), as when it is
    played."""
    check_out(out)
    level = load_level(map_path, player_size, play=False)
    for line in level.notes:
        notes(line)
    size = whole_picture(level).size  # its size bounded before anything is drawn
    images = TileImages(level, convert=False)

    def write(f: BinaryIO) -> None:
        write_png(f, size, render_bands(level, images, seconds))
        check_out(out)  # still new, or still ours, after the drawing

    try:
        files.write_file(out, write, ".render-map-")
    except OSError as exc:
        raise files.target_error("--out", out, f"cannot write the picture "
                                 f"({files.reason(exc)})") from None
    return out

