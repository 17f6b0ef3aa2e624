"""``main.py --render-map MAP --out PNG [--time SECONDS]``: the whole map as the game draws it,
at scale 1, saved as a PNG (thumbnails, checking a map, tests against Tiled's rasterizer).

The PNG is written by this module itself, with a text chunk ``Software: tilecollide
--render-map`` in it: an existing ``--out`` file is replaced only when it is such a PNG, so a
mistyped path never overwrites a user's file. It is written as every file the game writes is
(``game.runs.files``): whole or not at all, keeping the permissions of a picture it replaces.
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

import pygame

from game.errors import UserError, print_note, quoted
from game.runs import files
from game.maps.level import load_level
from game.view.render import TileImages, render_whole

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


def png_bytes(surface: pygame.Surface) -> bytes:
    """``surface`` as an RGBA PNG carrying :data:`MARK`."""
    w, h = surface.get_size()
    pixels = pygame.image.tobytes(surface, "RGBA")
    rows = b"".join(b"\0" + pixels[y * w * 4:(y + 1) * w * 4] for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (struct.pack(">I", len(data)) + kind + data
                + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))
    return (SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"tEXt", MARK) + chunk(b"IDAT", zlib.compress(rows, 6))
            + chunk(b"IEND", b""))


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
    picture = render_whole(level, TileImages(level, convert=False), seconds)
    data = png_bytes(picture)
    check_out(out)  # still new, or still ours, after the drawing
    try:
        files.write_file(out, lambda f: f.write(data), ".render-map-")
    except OSError as exc:
        raise files.target_error("--out", out, f"cannot write the picture "
                                 f"({files.reason(exc)})") from None
    return out

