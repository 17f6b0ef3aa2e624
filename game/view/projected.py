"""A whole isometric, staggered or hexagonal map drawn at scale 1, as Tiled draws it
(``--render-map``; such maps are drawn, never played).

Layers in file order: a tile layer's cells in the order and places of
:class:`game.view.projection.Projection`, each picture with its flips, its tileset's drawing
offset, the layer's offset, opacity and tint; tile objects projected (isometric maps) or where
the file has them; image layers at their offset, as on an orthogonal map. Orthogonal maps never
come here: the game's view buffers draw them (``game.view.render``).

On a hexagonal map Tiled reads a tile's diagonal-flip bit as a turn of 60 degrees clockwise
and its bit 28 as a turn of 120 (after its horizontal and vertical flips; both bits add up):
such a tile is turned about its picture's middle. The loader numbers a tile placed with bit 28
apart from the same tile without it (``game.maps.art``: its picture is its own).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import replace

import pygame

from game.maps.art import (NO_ART, ImageLayerArt, Look, ObjectLayerArt, TileLayer,
                           TileLayerArt)
from game.maps.level import Level
from game.view.mapart import Animator, ArtPictures, draw_image_layer, draw_objects
from game.view.projection import Projection
from game.view.tiledraw import Stamps, TileImages

HEX_TURN = 60  # degrees clockwise: Tiled's diagonal flip on a hexagonal map


def projected_bands(level: Level, images: TileImages, bands: Iterable[pygame.Rect],
                    seconds: float = 0.0) -> Iterator[pygame.Surface]:
    """The whole map (not orthogonal) ``seconds`` into its animations, each of ``bands``
    (screen px of the picture, as big as Tiled makes it:
    :func:`game.view.projection.picture_bounds`) drawn in turn: every layer in file order onto
    each band, of a tile layer only the cells whose pictures reach into it."""
    projection = Projection.of(level)
    ms = int(seconds * 1000)
    animator = Animator(level, images.picture)
    animated = {g: [f for f, _ in frames] for g, frames in animator.frames_of.items()}
    stamps = Stamps(level, images, animated)
    for gid, img in animator.at(ms).items():
        stamps.show(gid, img)
    shapes = dict(stamps.shapes)  # the tiles' pictures once, untinted (each layer tints its)
    if level.view.orientation.kind == "hexagonal":
        shapes.update(_hex_turned(level, images))
    reach = (min((dy for _, _, dy in shapes.values()), default=0),
             max((dy + img.get_height() for img, _, dy in shapes.values()), default=0))
    pictures = ArtPictures(level, images.picture, images.load)
    art = level.view.art if level.view.art is not None else NO_ART
    order = art.layers or tuple(TileLayerArt(i, Look()) for i in range(len(level.view.layers)))
    place = projection.place if projection.kind == "isometric" else None
    for band in bands:
        out = pygame.Surface(band.size, pygame.SRCALPHA)
        if level.view.background:
            out.fill((*level.view.background, 255))
        for item in order:
            if isinstance(item, TileLayerArt):
                layer = (level.view.layers[item.index] if item.index < len(level.view.layers)
                         else None)
                if layer is not None and layer.visible and layer.opacity > 0:
                    draw_cells(out, layer, shapes, projection, band,
                               stamps.tinted(item.look.tint), reach)
            elif isinstance(item, ObjectLayerArt):
                draw_objects(out, item, pictures, band.topleft, ms, place)
            elif isinstance(item, ImageLayerArt):
                draw_image_layer(out, item, pictures, band.topleft)
        yield out


def draw_cells(target: pygame.Surface, layer: TileLayer, shapes: dict, projection: Projection,
               area: pygame.Rect, stamps: Stamps, reach: tuple[int, int]) -> None:
    """One tile layer's cells in Tiled's order onto ``target``, which shows ``area`` (screen
    px): the cells whose pictures (``shapes``: gid -> picture and where it goes from its
    cell's anchor; ``reach``: how far above and below the anchor they go at most) may reach
    into it, tinted and faded as the layer says (``stamps``: the layer's)."""
    if not layer.gids:
        return
    ox, oy = round(layer.offset[0]), round(layer.offset[1])
    lines = projection.lines_between(area.top - oy - reach[1], area.bottom - oy - reach[0])
    ox, oy = ox - area.x, oy - area.y
    gids = layer.gids
    seq = [(s[0], (x + s[1] + ox, y + s[2] + oy)) for col, row, x, y in projection.cells(lines)
           if (g := gids[row][col]) and (s := shapes.get(g))]
    target.fblits(stamps.dressed(seq, layer.opacity))


def _hex_turned(level: Level, images: TileImages) -> dict:
    """The pictures of the turned tiles of a hexagonal map (its diagonal flip a 60-degree turn,
    Tiled's bit 28 a 120-degree one), turned as Tiled turns them: flipped, then turned about the
    picture's middle, which stays where it was (an animated one keeps its own picture)."""
    out = {}
    for gid, info in level.view.tiles.items():
        if not info.flip_d and not info.turned_120:
            continue
        plain = images.picture(replace(info, flip_d=False, turned_120=False))
        w, h = plain.get_size()
        degrees = HEX_TURN * info.flip_d + 2 * HEX_TURN * info.turned_120
        turned, left, top = turn(plain, degrees)
        dx, dy = level.view.tile_offsets.get(gid, (0, 0))
        # the middle is (dx + w/2, dy - h/2) from the cell's anchor
        out[gid] = (turned, dx + w // 2 + left, dy - (h + 1) // 2 + top)
    return out


def turn(image: pygame.Surface, degrees: float) -> tuple[pygame.Surface, int, int]:
    """``image`` turned ``degrees`` clockwise about its middle, each pixel of the result taking
    the picture's pixel under its centre (as Qt turns a picture without smoothing), and where
    the result's top-left is from the whole px at or left of and above the image's middle."""
    w, h = image.get_size()
    a = math.radians(degrees)
    cos, sin = math.cos(a), math.sin(a)
    half_w, half_h = (abs(w * cos) + abs(h * sin)) / 2, (abs(w * sin) + abs(h * cos)) / 2
    fx, fy = (w % 2) / 2, (h % 2) / 2  # the middle's place inside its px
    left, top = math.floor(fx - half_w), math.floor(fy - half_h)
    right, bottom = math.ceil(fx + half_w), math.ceil(fy + half_h)
    tw, th = right - left, bottom - top
    src = pygame.image.tobytes(image.convert_alpha() if pygame.display.get_surface() else
                               image, "RGBA")
    out = bytearray(tw * th * 4)
    for j in range(th):
        vy = top + j + 0.5 - fy
        for i in range(tw):
            vx = left + i + 0.5 - fx
            sx, sy = vx * cos + vy * sin + w / 2, -vx * sin + vy * cos + h / 2
            if 0 <= sx < w and 0 <= sy < h:
                at = (int(sy) * w + int(sx)) * 4
                out[(j * tw + i) * 4:(j * tw + i) * 4 + 4] = src[at:at + 4]
    return pygame.image.frombytes(bytes(out), (tw, th), "RGBA"), left, top
