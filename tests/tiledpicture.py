"""Comparing the game's ``--render-map`` picture with Tiled's own ``tmxrasterizer``.

Tiled is given a copy of the map, written beside nothing (a temporary folder, every path in
it absolute), made from the document the game's loader reads (``game.maps.document``):
templates applied, every tileset embedded, an infinite map made finite on the game's grid,
group layers folded into their layers, with each tile layer's cells and each layer's offset as
the model has them (the document pytmx reads holds a layer's palette and whole-pixel offsets).
What the copy changes, and why:

* **Object shapes are left out.** Tiled draws every rectangle, ellipse, polygon, point and text
  object as an outline with a translucent fill (it is an editor: these are the author's marks).
  The game draws only tile objects: a shape is collision, a start or a trigger, never a
  picture.
* **Objects the game brings to life are left out**: coins, walkers, platforms, switches,
  checkpoints, the goal and the player's start (``game.maps.art.is_body``). In play the game
  draws each as what it is, where it is at the time; a picture of the map has none of them.
* **Tiled 1.8's gaps are filled.** Debian's rasterizer (Tiled 1.8) draws the whole image of an
  image-collection tile that shows only a part of it (Tiled 1.9's sub-rectangles): the copy
  points such a tile at an image of just that part. It leaves the map's background colour out:
  its picture is laid over that colour before comparing. It does not draw the tile object of a
  template whose tileset is its own: the copy has the template applied.

Pixels are compared premultiplied, so two clear pixels match whatever colour they hide, and
a pixel is "different" when some channel is more than 1 apart.
"""

from __future__ import annotations

import copy
import os
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pygame

from game.maps.art import is_body
from game.maps.level import read_map

SUBRECT = ("x", "y", "width", "height")


def map_tree(path: Path) -> ET.Element:
    """The map as one finite TMX tree, as the game's loader reads it: its document, with each
    tile layer's cells (the document pytmx reads holds only the different tiles a layer places)
    and its tile objects where the game placed them (so Tiled is not to align them again)."""
    document, model = read_map(path, play=False)
    root = copy.deepcopy(document.tree)
    layers = [el for el in root if el.tag in ("layer", "objectgroup", "imagelayer")]
    for el, layer in zip(layers, model.layers, strict=True):
        for axis, value in zip("xy", layer.look.offset):  # the document's are whole px
            el.set(f"offset{axis}", repr(value))
        if el.tag == "layer":
            el.find("data").text = ",".join(map(str, layer.cells))
    for ts in root.iter("tileset"):
        ts.attrib.pop("objectalignment", None)
    return root


def tiled_copy(path: Path, folder: Path) -> Path:
    """Write the copy of the map described above into ``folder``; return its path."""
    root = map_tree(path)
    for i, ts in enumerate(list(root)):
        if ts.tag != "tileset":
            continue
        for n, tile in enumerate(ts.findall("tile")):
            image = tile.find("image")
            if image is not None and any(tile.get(k) for k in SUBRECT):
                image.set("source", str(_cut(tile, image, folder, f"{i}-{n}.png")))
                for k in SUBRECT:
                    tile.attrib.pop(k, None)
                image.attrib.pop("width", None)
                image.attrib.pop("height", None)
    for group in root.iter("objectgroup"):
        for obj in group.findall("object"):
            if obj.get("gid") is None or is_body(obj.get("name", ""), obj.get("type", "")):
                group.remove(obj)
    out = folder / "map.tmx"
    ET.ElementTree(root).write(out, encoding="UTF-8", xml_declaration=True)
    return out


def _cut(tile: ET.Element, image: ET.Element, folder: Path, name: str) -> Path:
    sheet = pygame.image.load(image.get("source"))
    x, y = int(tile.get("x", 0)), int(tile.get("y", 0))
    w = int(tile.get("width", sheet.get_width() - x))
    h = int(tile.get("height", sheet.get_height() - y))
    area = pygame.Rect(x, y, w, h).clip(sheet.get_rect())
    part = pygame.Surface(area.size, pygame.SRCALPHA)  # RGBA: a palette's clear colour stays clear
    part.blit(sheet, (0, 0), area)
    pygame.image.save(part, str(folder / name))
    return folder / name


def tmxrasterizer() -> str | None:
    return shutil.which("tmxrasterizer")


def tiled_picture(tool: str, path: Path, out: Path, ms: int = 0) -> pygame.Surface:
    args = [tool, "--no-smoothing"]
    if ms:
        args += ["--advance-animations", str(ms)]
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_RUNTIME_DIR=str(out.parent))
    proc = subprocess.run([*args, str(path), str(out)], capture_output=True, text=True, env=env,
                          timeout=300)
    if proc.returncode or not out.exists():
        raise RuntimeError(f"tmxrasterizer failed on {path}: {proc.stderr[-500:]}")
    return pygame.image.load(str(out))


def differences(ours: pygame.Surface, ref: pygame.Surface) -> pygame.Surface:
    """|ours - ref| per channel, premultiplied (both the same size)."""
    a = ours.copy().premul_alpha()
    b = ref.copy().premul_alpha()
    d = a.copy()
    d.blit(b, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
    b.blit(a, (0, 0), special_flags=pygame.BLEND_RGBA_SUB)
    d.blit(b, (0, 0), special_flags=pygame.BLEND_RGBA_ADD)
    return d


def differing(ours: pygame.Surface, ref: pygame.Surface, background=None,
              tolerance: int = 1, strip: int = 256) -> int:
    """Pixels more than ``tolerance`` apart on some channel, ``ref`` laid over ``background``
    first (an RGB colour, or None). Compared a strip of rows at a time: a big map's picture
    is hundreds of MB, and a whole copy of it more."""
    w, h = ours.get_size()
    bad = 0
    for top in range(0, h, strip):
        rows = pygame.Rect(0, top, w, min(strip, h - top))
        under = pygame.Surface(rows.size, pygame.SRCALPHA)
        if background is not None:
            under.fill((*background, 255))
        under.blit(ref.subsurface(rows), (0, 0))
        d = differences(ours.subsurface(rows), under)
        same = pygame.transform.threshold(None, d, (0, 0, 0, 0), (tolerance,) * 4,
                                          set_behavior=0)
        bad += rows.w * rows.h - same
    return bad
