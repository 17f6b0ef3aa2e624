"""The loader's limits (docs/levels.md, "Limits"), checked before pytmx or pygame sees a file,
and the budget a map and everything it pulls in spend against them.

Hostile files are refused before anything large is read, decoded or parsed: every ``MAX_*``
here is far above any real level and low enough that the worst file within them loads in
seconds and well under 1 GB.
"""

from __future__ import annotations

import stat
from dataclasses import dataclass
from pathlib import Path

from game.errors import quoted

# --- Limits (docs/levels.md, "Limits"), checked before pytmx or pygame sees the file -----------
MAX_XML_BYTES = 64_000_000  # the .tmx and every .tsx it uses (once per use), together
MAX_XML_ELEMENTS = 100_000  # XML elements in the .tmx and its .tsx files, together
MAX_JSON_VALUES = 6_000_000  # values in the JSON files (.tmj, .tsj, .tj) together, bounded by
#                               their commas before parsing: a tile layer's cell is one each
MAX_JSON_KEYS = 2_000_000  # keys of JSON objects in those files together, bounded by their colons
MAX_XML_DEPTH = 64  # elements inside elements
MAX_XML_ATTRIBUTES = 256  # attributes of one element
MAX_XML_ATTRIBUTES_TOTAL = 500_000  # attributes of one file, bounded by its '=' signs before
#                                     parsing (expat builds an element's attributes whole)
MAX_GROUP_DEPTH = 32  # group layers inside group layers
MAX_MAP_CELLS = 2_000_000  # the map's width x height, in tiles
MAX_LAYER_CELLS = 4_000_000  # tile layers x the map's cells: what the loader decodes and keeps
MAX_MAP_PX = 1_000_000  # the map's width and height in px; how far objects and offsets reach
MAX_TILE_PX = 4096  # the map's tile width and height
# The smallest tile side: a body crosses one tile per sub-step at most, so tiny tiles under a big
# body at top speed multiply a tick's work (1 px tiles: ~5 s of work per second played).
MIN_TILE_PX = 4
MAX_BODY_PX = 256  # a spawn's or walker's rectangle, width and height; as [player] width/height
MAX_WALKERS = 5000  # objects of class walker in one map (each is stepped every tick)
MAX_TILESETS = 1000  # tilesets of the map (each is read and checked)
MAX_LAYERS = 1000  # layers of every kind: tile, object, image and group layers
MAX_TILES = 262_144  # tiles of all tilesets together (pytmx walks every one)
MAX_TILE_VARIANTS = 65_536  # different gids (a tile with its flips) the layers place
MAX_POINTS = 100_000  # polygon and polyline points in the map and its tilesets, together
MAX_SHAPE_CELLS = 2_000_000  # cells x points of the collision objects that are not upright
#                               rectangles, under their bounding boxes (each is clipped)
MAX_IMAGE_BYTES = 64_000_000  # the image files the map uses, together
MAX_IMAGE_SIDE = 16_384  # an image's width and height, px
MAX_IMAGE_PIXELS = 64_000_000  # what the window holds: every image file, plus a copy of every
#                                tile of an image collection and of every different tile placed


@dataclass
class Budget:
    """What the map and everything it pulls in have used so far of the shared ``MAX_*`` limits."""

    xml_bytes: int = 0
    xml_elements: int = 0
    json_values: int = 0
    json_keys: int = 0
    tiles: int = 0
    points: int = 0
    image_bytes: int = 0
    image_pixels: int = 0


RESAVE = "re-save the file from Tiled"


def file_kind(path: Path) -> str:
    """"file", "folder", "other" (a device, a pipe...) or "missing" (also for a path the system
    refuses, too long or with a NUL in it: Path.is_file raises for some of those)."""
    try:
        mode = path.stat().st_mode
    except (OSError, ValueError):
        return "missing"
    return "file" if stat.S_ISREG(mode) else "folder" if stat.S_ISDIR(mode) else "other"


def showable(text: str) -> str:
    """``text`` as a window can show it (its caption, the pixel font): each character that is
    neither printable nor a space -- a NUL or a control character, half of a surrogate pair
    from a JSON escape or from a file name that is not UTF-8 -- as ``?``."""
    return "".join(c if c.isprintable() or c.isspace() else "?" for c in text)


TITLE_CHARS = 80  # a level's title as the game shows it (the HUD, the caption, the title screen)


def title_text(text: str) -> str:
    """A level's title as the game shows it: one line, at most TITLE_CHARS characters, each one
    a window can show (:func:`showable`)."""
    return showable(" ".join(text.split())[:TITLE_CHARS])


def shown(text: str | None, limit: int = 60) -> str:
    """A name or path from the file as an error line shows it: as is, or quoted and cut."""
    text = text or ""
    return text if len(text) <= limit and text.isprintable() else quoted(text, limit)
