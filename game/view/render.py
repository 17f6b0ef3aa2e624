"""Drawing a level's map: every layer in file order, as Tiled composes them.

Tile layers are kept drawn around the camera in view buffers (``game.view.viewbuffer``), so a
frame costs one blit per run of layers however many tiles are on screen, and the memory kept
depends on the view's size alone. Tile objects and image layers are drawn each frame, animated
tiles redraw only the cells whose frame changed (``game.view.mapart``). ``render_bands`` is the
whole map a band of rows at a time (``--render-map``), ``render_whole`` the whole map at once
(the checks against Tiled); its picture has at most MAX_PICTURE_PX pixels, said before
anything is drawn.
"""

from __future__ import annotations

import time
from collections.abc import Iterator

import pygame

from game.errors import UserError
from game.maps.art import NO_ART, ImageLayerArt, Look, ObjectLayerArt, TileLayer, TileLayerArt
from game.maps.level import Level
from game.view.mapart import (Animator, ArtPictures, draw_image_layer, draw_objects, far_off,
                              parallax_shift)
from game.view.projected import projected_bands
from game.view.projection import picture_bounds
from game.view.tiledraw import Stamps, TileImages, compose, map_bounds
from game.view.viewbuffer import ViewBuffer

BUFFER_BUDGET = 128 << 20  # bytes: the view buffers one renderer keeps (a few for most maps)
MAX_PICTURE_PX = 100_000_000  # px: the most a whole map's picture has (--render-map)
BAND_PX = 1 << 22  # px: a whole map's picture is drawn this much at a time (or a row)

__all__ = ["MapRenderer", "TileImages", "map_bounds", "picture_bounds", "render_area",
           "render_bands", "render_map", "render_whole", "whole_picture"]


def render_area(level: Level, images: TileImages, area: pygame.Rect,
                front: bool | None = None) -> pygame.Surface:
    """The visible tile layers inside ``area`` (map px), in file order, on a transparent surface:
    all of them, or (``front`` True/False) only those in front of / behind the sprites (the
    game's view, whose doors game/view/living.py draws each frame)."""
    stamps = Stamps(level, images)
    return compose(level, [(layer, stamps) for layer in level.view.layers if front is None or (
        layer.in_front == front and not layer.door)], area)


def render_map(level: Level, images: TileImages) -> pygame.Surface:
    """The whole map's tile layers at scale 1 (as ``tmxrasterizer`` draws them with the object
    layers hidden)."""
    return render_area(level, images, map_bounds(level))


def whole_picture(level: Level) -> pygame.Rect:
    """The rectangle of the map's whole picture (:func:`picture_bounds`), or a UserError when
    it has more than MAX_PICTURE_PX pixels: said before anything is drawn."""
    bounds = picture_bounds(level)
    if bounds.w * bounds.h > MAX_PICTURE_PX:
        raise UserError(level.path, f"its whole picture would be {bounds.w:,}x{bounds.h:,} px "
                        f"({bounds.w * bounds.h:,} px, the map and how far its layers are "
                        f"offset); at most {MAX_PICTURE_PX:,} px are drawn; draw a smaller "
                        "map, or move layers offset far away back in Tiled")
    return bounds


def render_bands(level: Level, images: TileImages, seconds: float = 0.0
                 ) -> Iterator[pygame.Surface]:
    """The whole map at scale 1 as the game draws it (see :func:`render_whole`), a band of
    rows at a time, top to bottom: what ``--render-map`` writes, in memory that does not grow
    with the picture (each band at most BAND_PX pixels, or one row; no view buffer kept)."""
    bounds = whole_picture(level)
    rows = max(1, BAND_PX // max(1, bounds.w))
    areas = [pygame.Rect(bounds.x, y, bounds.w, min(rows, bounds.bottom - y))
             for y in range(bounds.top, bounds.bottom, rows)]
    if not level.view.orientation.orthogonal:
        yield from projected_bands(level, images, areas, seconds)
        return
    renderer = MapRenderer(level, images, doors=True, budget=0)
    renderer.update(seconds)
    for area in areas:
        out = pygame.Surface(area.size, pygame.SRCALPHA)
        if level.view.background:
            out.fill((*level.view.background, 255))
        renderer.draw(out, area.topleft, centre=renderer.origin)
        renderer.draw(out, area.topleft, front=True, centre=renderer.origin)
        yield out


def render_whole(level: Level, images: TileImages, seconds: float = 0.0) -> pygame.Surface:
    """The whole map at scale 1 as the game draws it, ``seconds`` into its animations: the
    background colour, then every visible layer in file order (tile layers, tile objects, image
    layers) with its opacity, offset and tint; doors as the map has them. Parallax layers are
    where a camera centred on the map's parallax origin sees them: at their place in the map,
    as Tiled exports them. The picture is as big as Tiled makes it (:func:`picture_bounds`;
    at most MAX_PICTURE_PX pixels, else a UserError). A map of another orientation
    (isometric, staggered, hexagonal) is drawn by ``game.view.projected``."""
    bounds = whole_picture(level)
    out = pygame.Surface(bounds.size, pygame.SRCALPHA)
    y = 0
    for band in render_bands(level, images, seconds):
        band.set_alpha(None)  # copied, not blended
        out.blit(band, (0, y))
        y += band.get_height()
    return out


class MapRenderer:
    """Draws the part of the map a camera sees, layer by layer as Tiled composes them.

    Runs of tile layers that share a parallax factor are kept drawn in view buffers (see
    :class:`ViewBuffer`); a map of plain tile layers has two: the layers behind the sprites
    (:meth:`draw`) and those in front of them (:meth:`draw_front`: after the map's first object
    layer; often none). Tile objects and image layers are drawn each frame in their place in the
    file (``game.view.mapart``); animated tiles redraw only the buffered cells whose frame
    changed (:meth:`update`). Memory: per buffer a surface of at most WHOLE_MAP pixels or twice
    the view plus 2 MARGINs and a CELL along each axis (see :meth:`ViewBuffer.size_for`),
    4 bytes a pixel, however big the map and however far the camera goes; and buffers up to
    ``budget`` bytes in all: a map of more runs than that (hundreds of layers, parallax factors
    in turn) has the rest drawn from their tiles each frame.
    """

    def __init__(self, level: Level, images: TileImages, doors: bool = False,
                 budget: int = BUFFER_BUDGET) -> None:
        """``doors``: draw the door layers with the rest, as the map has them (a picture of the
        map); in play they are left to ``game.view.living``, which draws them open or shut.
        ``budget``: bytes of view buffers kept at most (0: none, every run of tile layers is
        drawn from its tiles each time, as for a picture drawn once)."""
        self.level, self.images = level, images
        self.budget = budget
        self._buffered: tuple[tuple[int, int], frozenset[int]] | None = None
        art = level.view.art if level.view.art is not None else NO_ART
        self.pictures = ArtPictures(level, images.picture, images.load)
        self.animator = Animator(level, images.picture)
        animated = {g: [f for f, _ in frames] for g, frames in self.animator.frames_of.items()}
        self._stamps = Stamps(level, images, animated)  # the tiles' pictures, once
        tinted: dict = {}  # tint -> the stamps of the layers of that tint (the same pictures)

        def stamps(tint) -> Stamps:
            if tint not in tinted:
                tinted[tint] = self._stamps.tinted(tint)
            return tinted[tint]

        self.origin = art.parallax_origin
        bounds = map_bounds(level)
        self._passes: tuple[list, list] = ([], [])  # (behind the sprites, in front)
        looks = {a.index: a.look for a in art.layers if isinstance(a, TileLayerArt)}
        front = False
        run: list = []  # tile layers of the current buffer

        def close_run() -> None:
            if run:
                pairs = [(layer, st) for layer, st, _ in run]
                # the map grown by how far tiles reach past their cells (big tiles, drawing
                # offsets), so none is cut at the map's edge
                left, right, top, bottom = (min(st.reach[0] for _, st in pairs),
                                            max(st.reach[1] for _, st in pairs),
                                            min(st.reach[2] for _, st in pairs),
                                            max(st.reach[3] for _, st in pairs))
                tw, th = level.tile_size
                reach = pygame.Rect(bounds.x + left, bounds.y + top + th,
                                    bounds.w - left + right - tw, bounds.h - top - th + bottom)
                self._passes[front].append(("tiles", ViewBuffer(level, pairs, reach,
                                                                animated.keys()), run[0][2]))
                run.clear()

        order = art.layers or tuple(TileLayerArt(i, _look_of(layer))
                                    for i, layer in enumerate(level.view.layers))
        for item in order:
            if isinstance(item, TileLayerArt):
                if item.index >= len(level.view.layers):
                    continue
                layer = level.view.layers[item.index]
                if layer.in_front != front:
                    close_run()
                    front = layer.in_front
                look = looks.get(item.index, item.look)
                if (layer.door and not doors) or not layer.visible:
                    continue
                if run and run[0][2] != look.parallax:
                    close_run()
                run.append((layer, stamps(look.tint), look.parallax))
            else:
                close_run()
                if isinstance(item, ObjectLayerArt) and item.sprites:
                    self._passes[False].append(("objects", item, item.look.parallax))
                    front = True
                elif isinstance(item, ObjectLayerArt):
                    if item.objects:
                        self._passes[front].append(("objects", item, item.look.parallax))
                else:
                    self._passes[front].append(("image", item, item.look.parallax))
        close_run()
        self.has_front = bool(self._passes[True])
        # map px the tile layers may draw in: the map grown by how far tiles reach past it
        self.bounds = bounds.unionall([p[1].bounds for passes in self._passes for p in passes
                                       if p[0] == "tiles"])
        self.animated = set(self.animator.frames_of)
        self._ms = 0
        # Until update() is first called, animations run on real time from now.
        self._manual, self._start = False, time.monotonic()

    @property
    def cache_bytes(self) -> int:
        """Bytes of pixels kept between frames."""
        return sum(p[1].nbytes() for passes in self._passes for p in passes if p[0] == "tiles")

    def update(self, seconds: float) -> None:
        """Show the map as it is ``seconds`` after it started: animated tiles at their frame."""
        self._manual = True
        self._advance(int(seconds * 1000))

    def _advance(self, ms: int) -> None:
        self._ms = ms
        changed = self.animator.at(ms)
        if not changed:
            return
        for gid, img in changed.items():
            self._stamps.show(gid, img)
        for passes in self._passes:
            for p in passes:
                if p[0] == "tiles":
                    p[1].animate(changed, self.animated)

    def draw(self, target: pygame.Surface, origin: tuple[int, int], front: bool = False,
             centre: tuple[float, float] | None = None) -> None:
        """Draw the layers behind the sprites (or, ``front``, those in front) that a view of
        ``target``'s size at ``origin`` (map px of its top-left) sees onto ``target``.
        Parallax layers move by where the view's ``centre`` is (by default, the target's).

        Draw onto the same target every frame: SDL encodes a run-length encoded buffer for the
        surface it is blitted onto, and a new target means decoding and encoding it again
        (milliseconds for a whole map)."""
        if self.animated and not self._manual and not front:
            self._advance(int((time.monotonic() - self._start) * 1000))
        if centre is None:
            w, h = target.get_size()
            centre = (origin[0] + w / 2, origin[1] + h / 2)
        size = target.get_size()
        buffered = (self._buffered[1] if self._buffered is not None
                    and self._buffered[0] == size else self._buffered_for(size))
        for kind, item, factor in self._passes[front]:
            at = origin
            if factor != (1.0, 1.0):
                dx, dy = parallax_shift(factor, centre, self.origin)
                at = (origin[0] - dx, origin[1] - dy)
                if kind != "image":  # (a repeated picture needs the exact place)
                    at = (far_off(at[0]), far_off(at[1]))  # far past any map: nowhere
            if kind == "tiles":
                if id(item) in buffered:
                    item.draw(target, at)
                else:
                    item.draw_direct(target, at)
            elif kind == "objects":
                draw_objects(target, item, self.pictures, at, self._ms)
            else:
                draw_image_layer(target, item, self.pictures, at)

    def _buffered_for(self, size: tuple[int, int]) -> frozenset[int]:
        """The runs of tile layers kept in view buffers for a view of ``size``: in drawing
        order, as many as the budget holds; the others are drawn from their tiles each
        frame (a map of hundreds of runs: many parallax factors in turn)."""
        if self._buffered is None or self._buffered[0] != size:
            left, chosen = self.budget, set()
            for passes in self._passes:
                for kind, item, _ in passes:
                    if kind != "tiles":
                        continue
                    w, h = item.size_for(size)
                    need = (w + 1) * h * 4
                    if need <= left:
                        chosen.add(id(item))
                        left -= need
                    else:
                        item.release()
            self._buffered = (size, frozenset(chosen))
        return self._buffered[1]

    def draw_front(self, target: pygame.Surface, origin: tuple[int, int]) -> None:
        if self.has_front:
            self.draw(target, origin, front=True)


def _look_of(layer: TileLayer) -> Look:
    return Look(layer.visible, layer.opacity, layer.offset)
