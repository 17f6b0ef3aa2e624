"""Drawing what a map shows beyond its tile cells (``game.maps.art``): animated tiles, tile
objects, image layers, tints and parallax, the way Tiled draws them.

* :class:`Animator` knows which tiles are animated and which frame each shows at a time; the map
  renderer redraws only the cells whose frame changed (``game.view.render``).
* :func:`draw_objects` and :func:`draw_image_layer` draw an object layer's tile objects and an
  image layer each frame (they are few pictures; a map's thousands of cells stay buffered).
* :func:`parallax_shift` is where Tiled puts a layer with a parallax factor: shifted by
  ``(view centre - parallax origin) * (1 - factor)``, so at the parallax origin every layer is
  where the map has it.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pygame

from game.maps.art import WHITE, ImageLayerArt, MapArt, ObjectLayerArt, TileImage, key
from game.maps.level import Level


def tinted(image: pygame.Surface, tint) -> pygame.Surface:
    """``image`` multiplied by a tint colour (RGBA), as Tiled tints a layer."""
    if tint == WHITE:
        return image
    out = image.convert_alpha() if pygame.display.get_surface() else image.copy()
    if not out.get_flags() & pygame.SRCALPHA:
        alpha = pygame.Surface(out.get_size(), pygame.SRCALPHA)
        alpha.blit(out, (0, 0))
        out = alpha
    out.fill(tint, special_flags=pygame.BLEND_RGBA_MULT)
    return out


def parallax_shift(factor: tuple[float, float], centre: tuple[float, float],
                   origin: tuple[float, float]) -> tuple[int, int]:
    """How far (whole px) a layer with this parallax factor moves from its place in the map,
    for a view whose centre is at ``centre`` (map px)."""
    return (round((centre[0] - origin[0]) * (1.0 - factor[0])),
            round((centre[1] - origin[1]) * (1.0 - factor[1])))


def frame_index(durations, ms: int) -> int:
    """Which frame an animation of these frame durations (ms) shows ``ms`` into it, as Tiled
    advances one: a frame gives way once its time is *over* (at exactly 100 ms a first frame
    of 100 ms still shows, at 101 the second), and the animation loops."""
    total = sum(durations)
    if ms <= 0 or total <= 0:
        return 0
    t = (ms - 1) % total
    for i, d in enumerate(durations):
        if t < d:
            return i
        t -= d
    return 0


def sized(image: pygame.Surface, size: tuple[int, int], fit: bool) -> pygame.Surface:
    """``image`` drawn into a box of ``size`` as Tiled draws a tile at another size: stretched
    to it, or (``fit``) scaled alike both ways as far as the box allows and centred in it."""
    w, h = image.get_size()
    if not fit:
        return pygame.transform.scale(image, (max(1, size[0]), max(1, size[1])))
    k = min(size[0] / max(1, w), size[1] / max(1, h))
    inner = pygame.transform.scale(image, (max(1, round(w * k)), max(1, round(h * k))))
    box = pygame.Surface(size, pygame.SRCALPHA)
    box.blit(inner, ((size[0] - inner.get_width()) // 2, (size[1] - inner.get_height()) // 2))
    return box


class Animator:
    """The frame each animated tile shows: ``frames_of[gid]`` lists (picture, ms) for the map's
    animated gids (pytmx gids of the tile layers), ``at(ms)`` the gids whose frame changed."""

    def __init__(self, level: Level, picture) -> None:
        art: MapArt | None = level.view.art
        self.frames_of: dict[int, tuple[tuple[pygame.Surface, int], ...]] = {}
        self.shown: dict[int, int] = {}
        if art is None or not art.frames:
            return
        for gid, info in level.view.tiles.items():
            frames = art.frames.get(key(info.source, info.rect))
            if frames:
                self.frames_of[gid] = tuple(
                    (picture(replace(info, source=src, rect=rect)), ms)
                    for src, rect, ms in frames)
                self.shown[gid] = 0

    def frame_at(self, gid: int, ms: int) -> int:
        return frame_index([d for _, d in self.frames_of[gid]], ms)

    def at(self, ms: int) -> dict[int, pygame.Surface]:
        """The animated gids whose frame changed since the last call, with their new picture."""
        changed = {}
        for gid in self.frames_of:
            i = self.frame_at(gid, ms)
            if i != self.shown[gid]:
                self.shown[gid] = i
                changed[gid] = self.frames_of[gid][i][0]
        return changed


class ArtPictures:
    """The pictures of tile objects and image layers, each turned, stretched and tinted once."""

    def __init__(self, level: Level, picture, load) -> None:
        self.level, self._picture, self._load = level, picture, load
        self._made: dict = {}
        self._frames_of: dict[TileImage, tuple] = {}  # picture -> (its frames, their ms)
        art = level.view.art
        self._frames = art.frames if art is not None else {}

    def tile_object(self, image: TileImage, w: float, h: float, rotation: float, tint,
                    ms: int, pivot: float = 0.0, shift: tuple[float, float] = (0.0, 0.0)
                    ) -> tuple[pygame.Surface, tuple[float, float]]:
        """The object's picture and where its top-left goes relative to the point it stands on
        and turns about: its bottom-left corner, or ``pivot`` of its width further right (0.5:
        the middle of its bottom edge, as on isometric maps); ``shift`` (its tileset's drawing
        offset) moves the picture from there before it turns."""
        frames = self._frames_of.get(image)
        if frames is None:  # worked out once per picture, not every frame
            found = self._frames.get(key(image.source, image.rect)) or ()
            frames = self._frames_of[image] = (
                tuple(replace(image, source=src, rect=rect) for src, rect, _ in found),
                [f[2] for f in found])
        if frames[0]:
            image = frames[0][frame_index(frames[1], ms)]
        k = (image, round(w), round(h), rotation, tint, pivot, shift)
        got = self._made.get(k)
        if got is None:
            img = self._picture(image)
            size = (max(1, round(w)), max(1, round(h)))
            if img.get_size() != size:
                img = sized(img, size, image.fit)  # stretched, or fitted (Tiled's fillmode)
            img = tinted(img, tint)
            # The picture's middle from the pivot, before and after turning clockwise about it
            # (y down: Vector2.rotate turns clockwise); the turned picture keeps its middle.
            middle = pygame.math.Vector2(size[0] * (0.5 - pivot) + shift[0],
                                         -size[1] / 2 + shift[1])
            if rotation % 360:
                img = pygame.transform.rotate(img, -rotation)
                middle = middle.rotate(rotation)
            got = (img, (middle.x - img.get_width() / 2, middle.y - img.get_height() / 2))
            self._made[k] = got
        return got

    def image_layer(self, layer: ImageLayerArt) -> pygame.Surface:
        k = ("image", layer.source, layer.look.tint, layer.look.opacity)
        got = self._made.get(k)
        if got is None:
            img = tinted(self._load(layer.source), layer.look.tint)
            if layer.look.opacity < 1:
                img = img.copy()
                img.set_alpha(round(layer.look.opacity * 255))
            got = self._made[k] = img
        return got


def draw_objects(target: pygame.Surface, layer: ObjectLayerArt, pictures: ArtPictures,
                 origin: tuple[int, int], ms: int, place=None) -> None:
    """An object layer's tile objects, for a view whose top-left is at ``origin`` (map px,
    the layer's parallax already applied). ``place(obj)`` -> (x, y, pivot): where an object
    stands on a map of another orientation (``game.view.projection``); by default its
    bottom-left corner at (obj.x, obj.y)."""
    if not layer.look.visible or layer.look.opacity <= 0 or not layer.objects:
        return
    view = pygame.Rect(origin, target.get_size())
    seq = []
    for obj in layer.objects:
        ax, ay, pivot = (obj.x, obj.y, 0.0) if place is None else place(obj)
        img, (dx, dy) = pictures.tile_object(obj.image, obj.w, obj.h, obj.rotation,
                                             layer.look.tint, ms, pivot, obj.shift)
        x, y = math.floor(ax + dx + 0.5), math.floor(ay + dy + 0.5)  # Qt rounds halves up
        if view.colliderect((x, y, img.get_width(), img.get_height())):
            seq.append((img, (x - view.x, y - view.y)))
    if not seq:
        return
    if layer.look.opacity >= 1:
        target.fblits(seq)
        return
    part = pygame.Surface(target.get_size(), pygame.SRCALPHA)
    part.fblits(seq)
    part.set_alpha(round(layer.look.opacity * 255))
    target.blit(part, (0, 0))


def draw_image_layer(target: pygame.Surface, layer: ImageLayerArt, pictures: ArtPictures,
                     origin: tuple[int, int]) -> None:
    """An image layer: its picture at the layer's offset, repeated along x and/or y across the
    view if the layer asks."""
    if not layer.look.visible or layer.look.opacity <= 0:
        return
    img = pictures.image_layer(layer)
    w, h = img.get_size()
    if not w or not h:
        return
    x0, y0 = round(layer.look.offset[0]) - origin[0], round(layer.look.offset[1]) - origin[1]
    tw, th = target.get_size()
    xs = range(x0 % w - w if layer.repeat_x else x0, tw if layer.repeat_x else x0 + 1, w)
    ys = range(y0 % h - h if layer.repeat_y else y0, th if layer.repeat_y else y0 + 1, h)
    target.fblits([(img, (x, y)) for y in ys for x in xs
                   if x < tw and y < th and x + w > 0 and y + h > 0])
