"""Drawing a level's tile layers: tile images with Tiled's flips, composed in file order.

The map is drawn in chunks (squares of tiles rendered once, on first sight, then reused), so a
frame costs a handful of blits however many tiles are on screen. Each chunk holds every visible
tile layer in file order, each with its opacity and offset, exactly as Tiled composes them.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pygame

from game.errors import UserError
from game.level import Level, TileImage, TileLayer

CHUNK = 256  # px per side of a cached chunk


def flip_tile(image: pygame.Surface, flip_h: bool, flip_v: bool, flip_d: bool) -> pygame.Surface:
    """Apply Tiled's flip flags: the diagonal flip (swap x and y) first, then h, then v."""
    if flip_d:
        # Swapping x and y is a quarter turn clockwise followed by a horizontal mirror.
        image = pygame.transform.flip(pygame.transform.rotate(image, -90), True, False)
    if flip_h or flip_v:
        image = pygame.transform.flip(image, flip_h, flip_v)
    return image


class TileImages:
    """gid -> Surface, cut from the tileset images named by the level (loaded once each).

    A tileset image that cannot be read, or is smaller than the tiles cut from it, raises
    :class:`UserError` naming the image and what to change, never a bare pygame error. The level
    loader has already checked every image it names (format, size, the whole file: see
    ``game.imagefile``), so these checks only meet a file changed since the level was loaded.
    """

    def __init__(self, level: Level, convert: bool = True) -> None:
        self._sheets: dict[str, pygame.Surface] = {}
        self._convert = convert
        self.images: dict[int, pygame.Surface] = {}
        self._check_sizes(level)
        for gid, info in level.tiles.items():
            self.images[gid] = self._cut(info)

    def _check_sizes(self, level: Level) -> None:
        """Every image must hold the furthest tile cut from it (a half-exported sheet does not)."""
        needed: dict[str, tuple[int, int]] = {}
        for info in level.tiles.values():
            if info.rect:
                x, y, w, h = info.rect
                key = os.path.normpath(info.source)
                nw, nh = needed.get(key, (0, 0))
                needed[key] = (max(nw, x + w), max(nh, y + h))
        for key, (nw, nh) in needed.items():
            iw, ih = self._sheet(key).get_size()
            if iw < nw or ih < nh:
                raise UserError(key, f"tileset image {os.path.basename(key)} is {iw}x{ih} px but "
                                f"the tileset needs at least {nw}x{nh}; export the full tileset "
                                "image (or, if the tileset is meant to be smaller, set its image "
                                "size and tile count in Tiled)")

    def _sheet(self, source: str) -> pygame.Surface:
        key = os.path.normpath(source)
        if key not in self._sheets:
            if not os.path.isfile(key):
                raise UserError(key, "tileset image not found; put the image back or fix the "
                                "tileset's image path in Tiled")
            try:
                sheet = pygame.image.load(key)
            except (pygame.error, OSError, ValueError) as exc:
                raise UserError(key, f"cannot read this image ({exc or type(exc).__name__}); "
                                "save it again as PNG, GIF, BMP or JPEG") from None
            if self._convert and pygame.display.get_surface() is not None:
                sheet = sheet.convert_alpha()
            self._sheets[key] = sheet
        return self._sheets[key]

    def _cut(self, info: TileImage) -> pygame.Surface:
        sheet = self._sheet(info.source)
        tile = sheet.subsurface(pygame.Rect(info.rect)).copy() if info.rect else sheet.copy()
        return flip_tile(tile, info.flip_h, info.flip_v, info.flip_d)

    def get(self, gid: int) -> pygame.Surface | None:
        return self.images.get(gid)


def _tiles_in(layer: TileLayer, level: Level, area: pygame.Rect
              ) -> Iterator[tuple[int, int, int]]:
    """(gid, x, y) of the layer's tiles whose images may touch ``area`` (map px)."""
    tw, th = level.tile_size
    ox, oy = layer.offset
    rows = len(layer.gids)
    cols = len(layer.gids[0]) if rows else 0
    # Tile images may be taller than the grid cell (Tiled anchors them at the bottom-left).
    c0 = max(0, int((area.left - ox) // tw) - 1)
    c1 = min(cols, int((area.right - ox) // tw) + 2)
    r0 = max(0, int((area.top - oy) // th) - 1)
    r1 = min(rows, int((area.bottom - oy) // th) + 2)
    for r in range(r0, r1):
        row = layer.gids[r]
        for c in range(c0, c1):
            gid = row[c]
            if gid:
                yield gid, c * tw + ox, r * th + oy


def draw_layer(target: pygame.Surface, layer: TileLayer, level: Level, images: TileImages,
               area: pygame.Rect) -> None:
    """Draw one tile layer's part inside ``area`` (map px) onto ``target`` (whose 0,0 is area's)."""
    if not layer.visible or layer.opacity <= 0:
        return
    th = level.tile_size[1]
    if layer.opacity >= 1:
        dest = target
    else:
        dest = pygame.Surface(target.get_size(), pygame.SRCALPHA)
    seq = []
    for gid, x, y in _tiles_in(layer, level, area):
        img = images.get(gid)
        if img is not None:
            # Tiled draws a tile image with its bottom-left corner at the cell's bottom-left.
            seq.append((img, (round(x - area.x), round(y + th - img.get_height() - area.y))))
    dest.fblits(seq)
    if dest is not target:
        dest.set_alpha(round(layer.opacity * 255))
        target.blit(dest, (0, 0))


def render_area(level: Level, images: TileImages, area: pygame.Rect,
                front: bool | None = None) -> pygame.Surface:
    """The visible tile layers inside ``area`` (map px), in file order, on a transparent surface:
    all of them, or (``front`` True/False) only those in front of / behind the sprites."""
    surf = pygame.Surface(area.size, pygame.SRCALPHA)
    for layer in level.layers:
        if front is None or layer.in_front == front:
            draw_layer(surf, layer, level, images, area)
    return surf


def map_bounds(level: Level) -> pygame.Rect:
    """The map's rectangle grown to hold every visible layer's offset, as Tiled sizes an export."""
    g = level.grid
    full = pygame.Rect(0, 0, g.width_px, g.height_px)
    bounds = full.copy()
    for layer in level.layers:
        if layer.visible:
            bounds.union_ip(full.move(round(layer.offset[0]), round(layer.offset[1])))
    return bounds


def render_map(level: Level, images: TileImages) -> pygame.Surface:
    """The whole map at scale 1, object layers left out (as ``tmxrasterizer`` draws it)."""
    return render_area(level, images, map_bounds(level))


class MapRenderer:
    """Draws the part of the map a camera sees, from cached chunks.

    Two sets of chunks: the layers behind the sprites (:meth:`draw`) and those in front of them
    (:meth:`draw_front`, tile layers after the map's first object layer; often none).
    """

    def __init__(self, level: Level, images: TileImages) -> None:
        self.level, self.images = level, images
        self._chunks: dict[tuple[int, int, bool], pygame.Surface | None] = {}
        self.has_front = any(layer.in_front and layer.visible for layer in level.layers)

    def _chunk(self, cx: int, cy: int, front: bool) -> pygame.Surface | None:
        key = (cx, cy, front)
        if key not in self._chunks:
            area = pygame.Rect(cx * CHUNK, cy * CHUNK, CHUNK, CHUNK)
            chunk = render_area(self.level, self.images, area, front)
            if chunk.get_bounding_rect().width == 0:
                chunk = None  # nothing drawn here: skip the blit
            elif pygame.display.get_surface() is not None:
                chunk = self._fast(chunk)
            self._chunks[key] = chunk
        return self._chunks[key]

    @staticmethod
    def _fast(chunk: pygame.Surface) -> pygame.Surface:
        """The quickest surface to blit with the same pixels: opaque chunks lose their alpha
        channel; the others are run-length encoded, which skips their transparent runs."""
        w, h = chunk.get_size()
        if pygame.mask.from_surface(chunk, 254).count() == w * h:
            return chunk.convert()
        chunk = chunk.convert_alpha()
        chunk.set_alpha(255, pygame.RLEACCEL)
        return chunk

    def draw(self, target: pygame.Surface, origin: tuple[int, int], front: bool = False) -> None:
        ox, oy = origin
        w, h = target.get_size()
        g = self.level.grid
        x0, y0 = max(0, ox) // CHUNK, max(0, oy) // CHUNK
        x1 = min(g.width_px + CHUNK, ox + w) // CHUNK
        y1 = min(g.height_px + CHUNK, oy + h) // CHUNK
        blits = []
        for cy in range(y0, y1 + 1):
            for cx in range(x0, x1 + 1):
                chunk = self._chunk(cx, cy, front)
                if chunk is not None:
                    blits.append((chunk, (cx * CHUNK - ox, cy * CHUNK - oy)))
        target.fblits(blits)

    def draw_front(self, target: pygame.Surface, origin: tuple[int, int]) -> None:
        if self.has_front:
            self.draw(target, origin, front=True)
