"""Tile pictures and one tile layer drawn: Tiled's flips, the pictures cut once from their
sheets (with a tileset's transparent colour), and a layer's tiles blitted into an area of the
map as Tiled composes them (bottom-left anchored, with the layer's opacity and offset)."""

from __future__ import annotations

import copy
import os
from collections.abc import Mapping, Sequence

import pygame

from game.errors import UserError
from game.maps.art import WHITE, TileImage, TileLayer
from game.maps.level import Level
from game.view.mapart import sized, tinted
from game.view.surfaces import Kept


def flip_tile(image: pygame.Surface, flip_h: bool, flip_v: bool, flip_d: bool) -> pygame.Surface:
    """Apply Tiled's flip flags: the diagonal flip (swap x and y) first, then h, then v."""
    if flip_d:
        # Swapping x and y is a quarter turn clockwise followed by a horizontal mirror.
        image = pygame.transform.flip(pygame.transform.rotate(image, -90), True, False)
    if flip_h or flip_v:
        image = pygame.transform.flip(image, flip_h, flip_v)
    return image


def see_through(image: pygame.Surface, rgb: tuple[int, int, int]) -> pygame.Surface:
    """``image`` with Tiled's transparent colour ``rgb`` made clear: its pixels of that colour
    (whatever their alpha) become transparent, every other pixel stays exactly as it was, a
    translucent one too. (A colour key would have SDL blend the image onto the clear copy,
    darkening its translucent pixels.)"""
    out = pygame.Surface(image.get_size(), pygame.SRCALPHA, 32)
    plain = image.copy()
    plain.set_alpha(None)  # copy the pixels, alpha and all, rather than blend them
    out.blit(plain, (0, 0))
    keyed = pygame.mask.from_threshold(out, (*rgb, 255), (1, 1, 1, 255))
    keyed.to_surface(out, setcolor=(0, 0, 0, 0), unsetcolor=None)
    return out


class TileImages:
    """gid -> Surface, cut from the tileset images named by the level (loaded once each).

    A tileset image that cannot be read, or is smaller than the tiles cut from it, raises
    :class:`UserError` naming the image and what to change, never a bare pygame error. The level
    loader has already checked every image it names (format, size, the whole file: see
    ``game.maps.imagefile``), so these checks only meet a file changed since the level was loaded.
    """

    def __init__(self, level: Level, convert: bool = True) -> None:
        self._sheets: dict[str, pygame.Surface] = {}
        self._convert = convert
        art = level.view.art
        # Tiled's transparent colours (a tileset's or image layer's ``trans``), by file
        self._keyed = {os.path.normpath(k): v for k, v in art.transparent.items()} if art else {}
        self.images: dict[int, pygame.Surface] = {}
        self._pictures: dict[TileImage, pygame.Surface] = {}
        self._check_sizes(level)
        for gid, info in level.view.tiles.items():
            self.images[gid] = self._cut(info)

    def picture(self, info: TileImage) -> pygame.Surface:
        """Any tile's picture (an animation frame, a tile object's tile), cut once."""
        got = self._pictures.get(info)
        if got is None:
            got = self._pictures[info] = self._cut(info)
        return got

    def load(self, source: str) -> pygame.Surface:
        """A whole picture (an image layer's), with its transparent colour applied."""
        return self._sheet(source)

    def _check_sizes(self, level: Level) -> None:
        """Every image must hold the furthest tile cut from it (a half-exported sheet does not)."""
        needed: dict[str, tuple[int, int]] = {}
        for info in level.view.tiles.values():
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
            keyed = self._keyed.get(os.path.normpath(os.path.abspath(key)))
            if keyed is not None:
                sheet = see_through(sheet, keyed)
            if self._convert and pygame.display.get_surface() is not None:
                sheet = sheet.convert_alpha()
            self._sheets[key] = sheet
        return self._sheets[key]

    def _cut(self, info: TileImage) -> pygame.Surface:
        sheet = self._sheet(info.source)
        tile = sheet.subsurface(pygame.Rect(info.rect)).copy() if info.rect else sheet.copy()
        if info.size is not None and tile.get_size() != info.size:
            tile = sized(tile, info.size, info.fit)
        return flip_tile(tile, info.flip_h, info.flip_v, info.flip_d)

    def get(self, gid: int) -> pygame.Surface | None:
        return self.images.get(gid)


FADED_BUDGET = 32 << 20  # bytes: the faded copies of tiles (translucent layers) kept at most
TINTED_BUDGET = 64 << 20  # bytes: the tinted copies of tiles (tinted layers) kept at most


class Stamps:
    """A level's tile images ready to draw: ``shapes[gid]`` is (image, dx, dy), where the image's
    top-left goes from its cell's bottom-left corner (Tiled anchors a tile there, then moves it
    by its tileset's drawing offset); ``reach``, how far any image reaches from a cell
    (left, right, top, bottom, px from the cell's bottom-left corner); and the gids whose image
    fills a cell with opaque pixels. Fully opaque images are kept without an alpha channel: the
    same pixels, blitted faster.

    The pictures are the tiles' own, once: a layer's tint and opacity are applied as the layer
    is drawn (:func:`draw_layer`): to the whole layer at once where its tiles cannot overlap,
    else to each tile drawn (:meth:`dressed`), those copies kept up to a budget; so a map of
    many tints holds no copy of all its tiles per tint. :meth:`tinted` gives the stamps a
    tinted layer is drawn with, sharing these pictures."""

    def __init__(self, level: Level, images: TileImages,
                 animated: Mapping[int, Sequence[pygame.Surface]] | None = None) -> None:
        tw, th = level.tile_size
        self.tint = WHITE
        self.offsets = level.view.tile_offsets
        self._faded = Kept(FADED_BUDGET)
        self._tinted = Kept(TINTED_BUDGET)
        self.shapes: dict[int, tuple[pygame.Surface, int, int]] = {}
        fill_cell = set()
        animated = animated or {}
        for gid, img in images.images.items():
            if gid in animated:  # Tiled shows an animation's first frame, not the tile's own
                img = animated[gid][0]
            img = self._ready(img)
            w, h = img.get_size()
            if not img.get_flags() & pygame.SRCALPHA and (w, h) == (tw, th) and (
                    gid not in animated) and gid not in self.offsets:  # a frame may not fill it
                fill_cell.add(gid)
            self._put(gid, img)
        self.fill_cell = frozenset(fill_cell)
        left, right, top, bottom = 0, tw, -th, 0
        for gid, (img, dx, dy) in self.shapes.items():
            w, h = img.get_size()
            for frame in animated.get(gid, ()):
                w, h = max(w, frame.get_width()), max(h, frame.get_height())
                dy = min(dy, self.offsets.get(gid, (0, 0))[1] - h)
            left, right = min(left, dx), max(right, dx + w)
            top, bottom = min(top, dy), max(bottom, dy + h)
        self.reach = (left, right, top, bottom)

    def tinted(self, tint) -> Stamps:
        """These stamps for a layer of tint ``tint`` (RGBA): the same pictures (an animation's
        next frame shows in both), drawn tinted; a tint that is not opaque leaves no cell
        filled."""
        if tint == self.tint:
            return self
        out = copy.copy(self)
        out.tint = tint
        if tint[3] < 255:
            out.fill_cell = frozenset()
        return out

    def _put(self, gid: int, img: pygame.Surface) -> None:
        dx, dy = self.offsets.get(gid, (0, 0))
        self.shapes[gid] = (img, dx, dy - img.get_height())

    @staticmethod
    def _ready(img: pygame.Surface) -> pygame.Surface:
        """The picture without an alpha channel if it is opaque everywhere."""
        w, h = img.get_size()
        if pygame.mask.from_surface(img, 254).count() == w * h:  # alpha 255 everywhere
            plain = pygame.Surface((w, h))
            plain.blit(img, (0, 0))
            img = plain
        return img

    def dressed(self, seq: list, opacity: float) -> list:
        """``seq`` (picture, place) as a layer drawn with these stamps shows it: each picture
        tinted, and faded to the layer's ``opacity``, as Tiled draws a translucent layer (its
        overlapping tiles show through each other). The copies are kept while there is room
        (TINTED_BUDGET, FADED_BUDGET)."""
        alpha = round(opacity * 255) if opacity < 1 else None
        if self.tint == WHITE:
            return seq if alpha is None else [(self.faded(img, alpha), at) for img, at in seq]
        tint, kept = self.tint, self._tinted

        def dress(img: pygame.Surface) -> pygame.Surface:
            got = kept.find((img, tint, alpha))
            if got is None:
                got = tinted(img, tint)  # a copy with an alpha channel, faded as it is
                if alpha is not None:
                    got.set_alpha(alpha)
                kept.keep((img, tint, alpha), got)
            return got
        return [(dress(img), at) for img, at in seq]

    def faded(self, img: pygame.Surface, alpha: int) -> pygame.Surface:
        """``img`` drawn at ``alpha`` (0-255) of its opacity: a copy, kept while there is room
        (FADED_BUDGET)."""
        # the surface itself is the key, not its id: a freed one's id comes back
        got = self._faded.find((img, alpha))
        if got is None:
            # with an alpha channel: SDL blends a plain surface's alpha onto a transparent
            # target as if the target were black and opaque
            got = pygame.Surface(img.get_size(), pygame.SRCALPHA)
            got.blit(img, (0, 0))
            got.set_alpha(alpha)
            self._faded.keep((img, alpha), got)
        return got

    def show(self, gid: int, img: pygame.Surface) -> None:
        """Draw ``gid`` as ``img`` from now on (an animation's next frame), in every layer
        drawn with these stamps or their tinted ones."""
        self._put(gid, self._ready(img))


def draw_layer(target: pygame.Surface, layer: TileLayer, level: Level, stamps: Stamps,
               area: pygame.Rect) -> None:
    """Draw one tile layer's part inside ``area`` (map px) onto ``target`` (whose 0,0 is area's).

    Every tile that reaches into the area is drawn, even from cells outside it (images bigger
    than a cell; Tiled anchors them at the cell's bottom-left corner), so areas drawn apart
    join without seams."""
    if not layer.visible or layer.opacity <= 0 or not layer.gids:
        return
    tw, th = level.tile_size
    # Offsets are whole px (pytmx reads no others); rounding keeps positions ints all the same.
    ox, oy = round(layer.offset[0]), round(layer.offset[1])
    left, right, top, bottom = stamps.reach
    rows, cols = len(layer.gids), len(layer.gids[0])
    # The cells whose images may reach into the area.
    c0 = max(0, (area.left - ox - right) // tw + 1)
    c1 = min(cols, -(-(area.right - ox - left) // tw))
    r0 = max(0, (area.top - oy - bottom) // th)
    r1 = min(rows, -(-(area.bottom - oy - th - top) // th))
    if c0 >= c1 or r0 >= r1:
        return
    ax, ay = area.topleft
    xs = range(c0 * tw + ox - ax, c1 * tw + ox - ax, tw)  # the cells' left edges
    ys = range((r0 + 1) * th + oy - ay, (r1 + 1) * th + oy - ay, th)  # their bottom edges
    shapes = stamps.shapes
    # one comprehension for the whole area: a tall narrow strip (a view buffer's new column)
    # has many short rows, and a comprehension per row cost about as much as its tiles
    seq = [(s[0], (x + s[1], y + s[2])) for y, row in zip(ys, layer.gids[r0:r1])
           for g, x in zip(row[c0:c1], xs) if g and (s := shapes.get(g))]
    if not seq:
        return
    if (layer.opacity >= 1 and stamps.tint == WHITE) or stamps.reach != (0, tw, -th, 0):
        target.fblits(stamps.dressed(seq, layer.opacity))
        return
    # Each tile on its cell and no bigger: no two overlap, so the layer drawn apart, tinted and
    # faded as one is each tile tinted and faded (the same pixels, no copy of a tile made).
    apart = pygame.Surface(target.get_size(), pygame.SRCALPHA)
    apart.fblits(seq)
    if stamps.tint != WHITE:
        apart.fill(stamps.tint, special_flags=pygame.BLEND_RGBA_MULT)
    if layer.opacity < 1:
        apart.set_alpha(round(layer.opacity * 255))
    target.blit(apart, (0, 0))


def compose(level: Level, layers: Sequence[tuple[TileLayer, Stamps]],
             area: pygame.Rect) -> pygame.Surface:
    surf = pygame.Surface(area.size, pygame.SRCALPHA)
    for layer, stamps in layers:
        draw_layer(surf, layer, level, stamps, area)
    return surf


def map_bounds(level: Level, layers: Sequence[TileLayer] | None = None) -> pygame.Rect:
    """The map's rectangle grown to hold every visible layer's offset (of ``layers``, or all),
    as Tiled sizes an export."""
    g = level.grid
    full = pygame.Rect(0, 0, g.width_px, g.height_px)
    bounds = full.copy()
    for layer in level.view.layers if layers is None else layers:
        if layer.visible:
            bounds.union_ip(full.move(round(layer.offset[0]), round(layer.offset[1])))
    return bounds
