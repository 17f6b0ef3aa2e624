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
from dataclasses import replace

import pygame

from game.maps.art import (NO_ART, ImageLayerArt, Look, ObjectLayerArt, TileLayer,
                           TileLayerArt)
from game.maps.level import Level
from game.view.mapart import Animator, ArtPictures, draw_image_layer, draw_objects, tinted
from game.view.projection import Projection, picture_bounds
from game.view.tiledraw import Stamps, TileImages

HEX_TURN = 60  # degrees clockwise: Tiled's diagonal flip on a hexagonal map


def render_projected(level: Level, images: TileImages, seconds: float = 0.0) -> pygame.Surface:
    """The whole map (not orthogonal) ``seconds`` into its animations, on a picture as big as
    Tiled makes it (:func:`game.view.projection.picture_bounds`)."""
    bounds = picture_bounds(level)
    out = pygame.Surface(bounds.size, pygame.SRCALPHA)
    if level.view.background:
        out.fill((*level.view.background, 255))
    projection = Projection.of(level)
    ms = int(seconds * 1000)
    animator = Animator(level, images.picture)
    animated = {g: [f for f, _ in frames] for g, frames in animator.frames_of.items()}
    changed = animator.at(ms)
    pictures = ArtPictures(level, images.picture, images.load)
    made: dict = {}

    def stamps(tint, opacity: float) -> dict:
        """gid -> (picture, dx, dy) from its cell's anchor, tinted, at ``opacity``."""
        if (tint, 1.0) not in made:
            st = Stamps(level, images, tint, animated)
            for gid, img in changed.items():
                st.show(gid, img)
            shapes = dict(st.shapes)
            if level.view.orientation.kind == "hexagonal":
                shapes.update(_hex_turned(level, images, tint))
            made[tint, 1.0] = shapes
        if (tint, opacity) not in made:
            made[tint, opacity] = {g: (_faded(img, opacity), dx, dy)
                                   for g, (img, dx, dy) in made[tint, 1.0].items()}
        return made[tint, opacity]

    origin = bounds.topleft
    art = level.view.art if level.view.art is not None else NO_ART
    order = art.layers or tuple(TileLayerArt(i, Look()) for i in range(len(level.view.layers)))
    place = projection.place if projection.kind == "isometric" else None
    for item in order:
        if isinstance(item, TileLayerArt):
            layer = level.view.layers[item.index] if item.index < len(level.view.layers) else None
            if layer is not None and layer.visible and layer.opacity > 0:
                draw_cells(out, layer, stamps(item.look.tint, layer.opacity), projection, origin)
        elif isinstance(item, ObjectLayerArt):
            draw_objects(out, item, pictures, origin, ms, place)
        elif isinstance(item, ImageLayerArt):
            draw_image_layer(out, item, pictures, origin)
    return out


def draw_cells(target: pygame.Surface, layer: TileLayer, shapes: dict, projection: Projection,
               origin: tuple[int, int]) -> None:
    """One tile layer, every cell in Tiled's order, onto ``target`` whose top-left is at
    ``origin`` (screen px). ``shapes`` are the pictures at the layer's opacity: Tiled draws
    each tile at the layer's opacity, so where a layer's pictures overlap, they show through
    each other."""
    if not layer.gids:
        return
    ox, oy = round(layer.offset[0]) - origin[0], round(layer.offset[1]) - origin[1]
    gids = layer.gids
    target.fblits([(s[0], (x + s[1] + ox, y + s[2] + oy)) for col, row, x, y in projection.cells()
                   if (g := gids[row][col]) and (s := shapes.get(g))])


def _faded(image: pygame.Surface, opacity: float) -> pygame.Surface:
    if opacity >= 1:
        return image
    out = image.copy()
    out.set_alpha(round(opacity * 255))
    return out


def _hex_turned(level: Level, images: TileImages, tint) -> dict:
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
        turned, left, top = turn(tinted(plain, tint), degrees)
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
