"""Replace the images of Tiled maps by placeholders of the same size.

Used for tests/data/real_maps: where a public map's art has no clear licence to redistribute, its
images are replaced, keeping every file name, size and tile grid, so the map's XML stays as it was
and Tiled still draws it.

    uv run python tools/make_placeholder_art.py [--missing-only] MAP_OR_TILESET...

Each map, tileset or template given (.tmx/.tsx/.tx, or Tiled's JSON: .tmj/.tsj/.tj/.json) is read
with its external tilesets and templates; every image they name is overwritten. A tileset sheet
gets one flat colour per tile (from a hash of the image's file name and the tile's index) with a
1 px darker border; margins and spacing stay transparent. An image of its own (a collection
tile, an image layer) is one such tile. PNG, GIF, BMP and TGA keep their
format; the output depends only on the file names and sizes, so runs are repeatable.

With --missing-only, only the images that are absent are written (at the size the XML gives): for
a public map whose repository never had an image it names.
"""

from __future__ import annotations

import os
import struct
import sys
import xml.etree.ElementTree as ET
import zlib
from dataclasses import dataclass
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
import pygame  # noqa: E402


class UsageError(Exception):
    """A mistake in what the tool was given: reported as one ``error:`` line, exit code 2."""


@dataclass(frozen=True)
class Grid:
    """How a sheet image splits into tiles; a one-tile grid covers an image of its own."""
    tile_w: int
    tile_h: int
    margin: int = 0
    spacing: int = 0


def tile_colour(name: str, index: int) -> tuple[int, int, int]:
    """A mid-bright colour that differs from tile to tile and from image to image."""
    h = zlib.crc32(f"{name}:{index}".encode())
    return tuple(70 + (h >> shift & 0xFF) * 150 // 255 for shift in (0, 8, 16))


def darker(c: tuple[int, int, int]) -> tuple[int, int, int]:
    return tuple(v * 3 // 5 for v in c)


def placeholder(name: str, size: tuple[int, int], grid: Grid | None,
                colours: int = 1 << 24) -> pygame.Surface:
    """Flat bordered tiles; with ``colours`` set (a GIF palette) colours repeat every colours/2."""
    w, h = size
    surf = pygame.Surface((w, h), pygame.SRCALPHA)
    surf.fill((0, 0, 0, 0))
    g = grid or Grid(w, h)
    if g.tile_w <= 0 or g.tile_h <= 0:
        g = Grid(w, h)
    step_x, step_y = g.tile_w + g.spacing, g.tile_h + g.spacing
    index = 0
    y = g.margin
    while y + g.tile_h <= h:
        x = g.margin
        while x + g.tile_w <= w:
            c = tile_colour(name, index % max(1, colours // 2))
            surf.fill(darker(c) + (255,), (x, y, g.tile_w, g.tile_h))
            if g.tile_w > 2 and g.tile_h > 2:
                surf.fill(c + (255,), (x + 1, y + 1, g.tile_w - 2, g.tile_h - 2))
            index += 1
            x += step_x
        y += step_y
    if index == 0:  # smaller than one tile: one flat block
        surf.fill(tile_colour(name, 0) + (255,))
    return surf


def lzw(pixels: bytes, min_size: int = 8) -> bytes:
    """GIF's variable-width LZW, least significant bit first; a clear code when the table fills."""
    clear, end = 1 << min_size, (1 << min_size) + 1
    out = bytearray()
    acc = nbits = 0

    def emit(code: int, width: int) -> None:
        nonlocal acc, nbits
        acc |= code << nbits
        nbits += width
        while nbits >= 8:
            out.append(acc & 0xFF)
            acc >>= 8
            nbits -= 8

    table: dict[bytes, int] = {}
    width, next_code = min_size + 1, end + 1
    emit(clear, width)
    current = b""
    for p in pixels:
        grown = current + bytes((p,))
        if not current or grown in table:
            current = grown
            continue
        emit(table[current] if len(current) > 1 else current[0], width)
        if next_code == 4096:
            emit(clear, width)
            table.clear()
            width, next_code = min_size + 1, end + 1
        else:
            table[grown] = next_code
            next_code += 1
            if next_code > (1 << width) and width < 12:
                width += 1
        current = bytes((p,))
    if current:
        emit(table[current] if len(current) > 1 else current[0], width)
    emit(end, width)
    if nbits:
        out.append(acc & 0xFF)
    return bytes(out)


def write_gif(surface: pygame.Surface, path: Path) -> None:
    """A GIF (pygame writes none): up to 255 colours, index 0 clear."""
    w, h = surface.get_size()
    palette: dict[tuple[int, int, int], int] = {}
    pixels = bytearray()
    for y in range(h):
        for x in range(w):
            r, g, b, a = surface.get_at((x, y))
            if a == 0:
                pixels.append(0)
                continue
            if (r, g, b) not in palette and len(palette) < 255:
                palette[(r, g, b)] = len(palette) + 1
            pixels.append(palette.get((r, g, b), 1))
    table = bytearray(3 * 256)
    for rgb, i in palette.items():
        table[3 * i:3 * i + 3] = bytes(rgb)
    bits = lzw(bytes(pixels))
    blocks = b"".join(bytes([len(bits[i:i + 255])]) + bits[i:i + 255]
                      for i in range(0, len(bits), 255))
    data = (b"GIF89a" + struct.pack("<HHBBB", w, h, 0xF7, 0, 0) + bytes(table)
            + b"\x21\xF9\x04\x01\x00\x00\x00\x00"  # graphic control: colour 0 is clear
            + b"\x2C" + struct.pack("<HHHHB", 0, 0, w, h, 0)
            + b"\x08" + blocks + b"\x00\x3B")
    path.write_bytes(data)


def image_size(path: Path, element: ET.Element) -> tuple[int, int]:
    """The image's real size; the size the XML gives where pygame cannot read the file."""
    try:
        return pygame.image.load(str(path)).get_size()
    except (pygame.error, FileNotFoundError):
        w, h = element.get("width"), element.get("height")
        if not (w and h):
            raise UsageError(f"{path}: cannot read this image and the map gives no size for it: "
                             "put the original image back first") from None
        return int(w), int(h)


def save(surface: pygame.Surface, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)  # --missing-only: its folder may be missing
    if path.suffix.lower() == ".gif":
        write_gif(surface, path)
    elif path.suffix.lower() in (".png", ".bmp", ".tga"):
        pygame.image.save(surface, str(path))
    else:
        raise UsageError(f"{path}: can only write PNG, GIF, BMP or TGA placeholders: "
                         "convert this image in the source first")


def tiled_root(path: Path) -> ET.Element:
    """A Tiled file as TMX elements: its XML, or the elements Tiled would write for its JSON
    (the game's own reading of the JSON formats, game/maps/tiled_json.py)."""
    if path.suffix.lower() not in (".json", ".tmj", ".tsj", ".tj"):
        return ET.parse(path).getroot()
    from game.maps import tiled_json

    doc = tiled_json.parse_json(path.read_bytes(), "a Tiled file")
    make = {"map": tiled_json.map_element, "tileset": tiled_json.tileset_element,
            "template": tiled_json.template_element}.get(doc.get("type", "map"))
    if make is None:
        raise ValueError(f"its JSON type is {doc.get('type')!r}")
    return make(doc)


def images_of(path: Path, seen: set[Path]) -> dict[Path, tuple[ET.Element, Grid | None]]:
    """Every image a map, tileset or template names (following external files), with its grid."""
    path = path.resolve()
    if path in seen:
        return {}
    seen.add(path)
    try:
        root = tiled_root(path)
    except FileNotFoundError:
        raise UsageError(f"{path}: no such file: name a .tmx, .tsx or .tx file") from None
    except (ET.ParseError, ValueError) as e:
        raise UsageError(f"{path}: not a Tiled file ({e}): "
                         "name a .tmx, .tsx or .tx file (or their JSON)") from None
    found: dict[Path, tuple[ET.Element, Grid | None]] = {}
    sheets = {id(ts.find("image")): ts for ts in root.iter("tileset")
              if ts.find("image") is not None}
    for el in root.iter():
        source = el.get("source") or el.get("template")
        if not source:
            continue
        target = path.parent / source
        if el.tag == "image":
            ts = sheets.get(id(el))
            grid = None
            if ts is not None:
                try:
                    grid = Grid(*(int(ts.get(k, 0)) for k in
                                  ("tilewidth", "tileheight", "margin", "spacing")))
                except ValueError:
                    raise UsageError(f"{path}: tileset {ts.get('name')!r} has a size that is not "
                                     "a whole number: fix it in Tiled") from None
            found.setdefault(target.resolve(), (el, grid))
        elif el.tag in ("tileset", "template", "object"):
            found.update(images_of(target, seen))
    return found


def main(argv: list[str]) -> int:
    missing_only = "--missing-only" in argv
    argv = [a for a in argv if a != "--missing-only"]
    if not argv or any(a.startswith("-") for a in argv):
        print("error: usage: make_placeholder_art.py [--missing-only] MAP_OR_TILESET... "
              "(.tmx, .tsx or .tx files whose images are replaced)", file=sys.stderr)
        return 2
    try:
        seen: set[Path] = set()
        images: dict[Path, tuple[ET.Element, Grid | None]] = {}
        for arg in argv:
            images.update(images_of(Path(arg), seen))
        for target, (element, grid) in sorted(images.items()):
            if missing_only and target.exists():
                continue
            size = image_size(target, element)
            colours = 254 if target.suffix.lower() == ".gif" else 1 << 24
            save(placeholder(target.name, size, grid, colours), target)
            print(f"{target}: {size[0]}x{size[1]} placeholder")
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
