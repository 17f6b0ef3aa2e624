"""Drawing what a map shows beyond its tile cells (``game.maps.art``): animated tiles, tile
objects, image layers, tints and parallax, the way Tiled draws them.

* :class:`Animator` knows which tiles are animated and which frame each shows at a time; the map
  renderer redraws only the cells whose frame changed (``game.view.render``).
* :func:`draw_objects` and :func:`draw_image_layer` draw an object layer's tile objects and an
  image layer each frame (they are few pictures; a map's thousands of cells stay buffered).
* :func:`parallax_shift` is where Tiled puts a layer with a parallax factor: shifted by
  ``(view centre - parallax origin) * (1 - factor)``, so at the parallax origin every layer is
  where the map has it.

What is made from the map's pictures is bounded, whatever the map asks for: stretched tile
objects and tinted image layers are kept up to a budget of bytes each (``Kept``); a tile object
whose stretched picture would pass :data:`BIG_OBJECT` pixels (or :data:`BIG_SIDE` a side: an
object 100000 px wide, say) is drawn the part a view sees at a time, never whole; an image
layer's picture is tinted once per tint, or the part a view sees as it is drawn when its copy
finds no room; its opacity is set as it is drawn, never copied.
"""

from __future__ import annotations

import math
from dataclasses import replace

import pygame

from game.maps.art import WHITE, ImageLayerArt, MapArt, ObjectLayerArt, TileImage, key
from game.maps.level import Level
from game.view.surfaces import Kept, nbytes

FAR = 1 << 30  # px: a view this far from a layer's place sees none of it, wherever it is
OBJECTS_BUDGET = 64 << 20  # bytes: the tile objects' stretched, turned, tinted pictures kept
IMAGES_BUDGET = 64 << 20  # bytes: the tinted copies of image layers' pictures kept
BIG_OBJECT = 1 << 21  # px: a tile object's picture past this (or past BIG_SIDE a side) is
BIG_SIDE = 4096  # drawn the part a view sees at a time
PIECE = 2048  # px: the most a side of such a part is (a wider view is drawn in several)
PATTERN = 256  # px: a repeated image layer's picture is drawn in a pattern about this long
HELD = 32 << 20  # bytes of pictures an object layer gathers before it draws them


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
    for a view whose centre is at ``centre`` (map px). Exact, however far: factors multiply
    through group layers (1000 in each of a few groups), so a layer may move far past any map
    (:func:`far_off` keeps such a place within what SDL takes)."""
    return (_whole((centre[0] - origin[0]) * (1.0 - factor[0])),
            _whole((centre[1] - origin[1]) * (1.0 - factor[1])))


def _whole(value: float) -> int:
    try:
        return round(value)
    except (OverflowError, ValueError):  # infinite, or not a number
        return FAR if value > 0 else -FAR if value < 0 else 0


def far_off(value: int) -> int:
    """A view's place (map px) kept within +-FAR: past that it sees nothing of a map (maps,
    offsets and objects reach 10^8 px at most) wherever it is, and SDL takes 32-bit places."""
    return max(-FAR, min(FAR, value))


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
    """The pictures of tile objects and image layers, each stretched, turned and tinted once
    and kept while there is room (OBJECTS_BUDGET, IMAGES_BUDGET); of a big tile object, the
    part a view sees (:meth:`object_part`)."""

    def __init__(self, level: Level, picture, load) -> None:
        self.level, self._picture, self._load = level, picture, load
        self._made = Kept(OBJECTS_BUDGET, lambda got: nbytes(got[0]))
        self._tinted = Kept(IMAGES_BUDGET)
        self._frames_of: dict[TileImage, tuple] = {}  # picture -> (its frames, their ms)
        self._sizes: dict[int, tuple] = {}  # id(object layer) -> (it, sizes)
        art = level.view.art
        self._frames = art.frames if art is not None else {}

    def sizes(self, layer: ObjectLayerArt) -> list[tuple[tuple[int, int], bool, float]]:
        """Each tile object's picture size (whole px), whether it is :func:`big`, and how far
        its picture reaches from the point it stands on, however it turns (px): worked out
        once per layer."""
        got = self._sizes.get(id(layer))
        if got is None or got[0] is not layer:
            sizes = [(max(1, round(o.w)), max(1, round(o.h))) for o in layer.objects]
            got = self._sizes[id(layer)] = (layer, [
                (size, big(size, o.rotation),
                 math.hypot(*size) + abs(o.shift[0]) + abs(o.shift[1]) + 2)
                for size, o in zip(sizes, layer.objects)])
        return got[1]

    def frame(self, image: TileImage, ms: int) -> TileImage:
        """The picture a tile object of ``image`` shows ``ms`` into its animation."""
        frames = self._frames_of.get(image)
        if frames is None:  # worked out once per picture, not every frame
            found = self._frames.get(key(image.source, image.rect)) or ()
            frames = self._frames_of[image] = (
                tuple(replace(image, source=src, rect=rect) for src, rect, _ in found),
                [f[2] for f in found])
        return frames[0][frame_index(frames[1], ms)] if frames[0] else image

    def tile_object(self, image: TileImage, w: float, h: float, rotation: float, tint,
                    ms: int, pivot: float = 0.0, shift: tuple[float, float] = (0.0, 0.0)
                    ) -> tuple[pygame.Surface, tuple[float, float]]:
        """The object's picture and where its top-left goes relative to the point it stands on
        and turns about: its bottom-left corner, or ``pivot`` of its width further right (0.5:
        the middle of its bottom edge, as on isometric maps); ``shift`` (its tileset's drawing
        offset) moves the picture from there before it turns. Only for an object that is not
        :func:`big`."""
        image = self.frame(image, ms)
        k = (image, round(w), round(h), rotation, tint, pivot, shift)
        got = self._made.find(k)
        if got is None:
            img = self._picture(image)
            size = (max(1, round(w)), max(1, round(h)))
            if img.get_size() != size:
                img = sized(img, size, image.fit)  # stretched, or fitted (Tiled's fillmode)
            img = tinted(img, tint)
            middle = _middle(size, pivot, shift, rotation)
            if rotation % 360:
                img = pygame.transform.rotate(img, -rotation)
            got = self._made.keep(k, (img, (middle.x - img.get_width() / 2,
                                            middle.y - img.get_height() / 2)))
        return got

    def object_part(self, image: TileImage, size: tuple[int, int], rotation: float, tint,
                    pivot: float, shift: tuple[float, float], at: tuple[float, float],
                    view: pygame.Rect) -> tuple[pygame.Surface, tuple[int, int]] | None:
        """What ``view`` (map px, at most PIECE a side) sees of a big tile object standing on
        ``at``: the part of its stretched (or fitted) picture under the view, tinted and
        turned, and where that part's top-left goes (map px); None if the view sees none of
        it. Its pixels are those of :meth:`tile_object`'s picture, give or take one at the
        edges of its source pixels; nothing as big as the whole object is ever made."""
        w, h = size
        middle = _middle(size, pivot, shift, rotation)
        cx, cy = at[0] + middle.x, at[1] + middle.y  # the picture's middle, map px
        # the view's corners in the unturned picture's px (turned back about the middle)
        corners = [pygame.math.Vector2(x - cx, y - cy).rotate(-rotation)
                   for x, y in (view.topleft, view.topright, view.bottomleft, view.bottomright)]
        left = max(0, math.floor(min(c.x for c in corners) + w / 2) - 2)
        top = max(0, math.floor(min(c.y for c in corners) + h / 2) - 2)
        right = min(w, math.ceil(max(c.x for c in corners) + w / 2) + 2)
        bottom = min(h, math.ceil(max(c.y for c in corners) + h / 2) + 2)
        if left >= right or top >= bottom:
            return None
        part = pygame.Rect(left, top, right - left, bottom - top)
        piece = tinted(_scaled_part(self._picture(image), size, image.fit, part), tint)
        if not rotation % 360:
            return piece, (math.floor(cx - w / 2 + left + 0.5), math.floor(cy - h / 2 + top + 0.5))
        piece = pygame.transform.rotate(piece, -rotation)
        mid = pygame.math.Vector2(left + part.w / 2 - w / 2, top + part.h / 2 - h / 2)
        mid = mid.rotate(rotation)
        return piece, (math.floor(cx + mid.x - piece.get_width() / 2 + 0.5),
                       math.floor(cy + mid.y - piece.get_height() / 2 + 0.5))

    def image_layer(self, layer: ImageLayerArt) -> pygame.Surface | None:
        """The image layer's picture, tinted: kept once per picture and tint (its opacity is
        set as it is drawn); None when its tinted copy finds no room (IMAGES_BUDGET): then
        :func:`draw_image_layer` tints the part a view sees."""
        img = self.picture(layer)
        tint = layer.look.tint
        if tint == WHITE:
            return img
        k = (layer.source, img.get_size(), tint)
        if k not in self._tinted and nbytes(img) > self._tinted.room():
            return None
        return self._tinted.get(k, lambda: tinted(img, tint))

    def picture(self, layer: ImageLayerArt) -> pygame.Surface:
        """The image layer's picture as its file has it; a small one the layer repeats, in a
        pattern of it about PATTERN px long along each axis it repeats along (kept while there
        is room), so a tiny picture repeated across a view is a few blits, not one a pixel."""
        img = self._load(layer.source)
        w, h = img.get_size()
        nx = PATTERN // w if layer.repeat_x and 0 < w < PATTERN // 2 else 1
        ny = PATTERN // h if layer.repeat_y and 0 < h < PATTERN // 2 else 1
        if nx == ny == 1:
            return img
        k = (layer.source, (w * nx, h * ny))
        got = self._tinted.find(k)
        if got is None:
            if nbytes(img) * nx * ny > self._tinted.room():
                return img
            one = img.copy()
            one.set_alpha(None)  # copied as it is, never blended
            got = pygame.Surface((w * nx, h * ny), pygame.SRCALPHA)
            got.fblits([(one, (i * w, j * h)) for j in range(ny) for i in range(nx)])
            self._tinted.keep(k, got)
        return got


def _middle(size: tuple[int, int], pivot: float, shift: tuple[float, float],
            rotation: float) -> pygame.math.Vector2:
    """The picture's middle from the point a tile object stands on, after it turned clockwise
    about that point (y down: Vector2.rotate turns clockwise); the turned picture keeps it."""
    middle = pygame.math.Vector2(size[0] * (0.5 - pivot) + shift[0], -size[1] / 2 + shift[1])
    return middle.rotate(rotation) if rotation % 360 else middle


def big(size: tuple[int, int], rotation: float) -> bool:
    """Is a tile object's picture of ``size``, turned, too big to make whole (BIG_OBJECT)?"""
    w, h = size
    if (w + h + 2) ** 2 <= BIG_OBJECT:  # however it turns (most objects: at once)
        return False
    if rotation % 360:
        a = math.radians(rotation)
        w, h = (abs(w * math.cos(a)) + abs(h * math.sin(a)) + 2,
                abs(w * math.sin(a)) + abs(h * math.cos(a)) + 2)
    return w * h > BIG_OBJECT or max(w, h, *size) > BIG_SIDE


def _scaled_part(image: pygame.Surface, size: tuple[int, int], fit: bool,
                 part: pygame.Rect) -> pygame.Surface:
    """The ``part`` (px of the box) of ``image`` drawn into a box of ``size`` as :func:`sized`
    draws it (stretched, or fitted and centred), made without the whole box: only the source
    pixels under the part are scaled, each axis in one piece where a source pixel is drawn
    smaller than the part, else a few pieces of one source pixel each, cut to the part."""
    out = pygame.Surface(part.size, pygame.SRCALPHA)
    sw, sh = image.get_size()
    inner = pygame.Rect(0, 0, *size)
    if fit:
        k = min(size[0] / max(1, sw), size[1] / max(1, sh))
        iw, ih = max(1, round(sw * k)), max(1, round(sh * k))
        inner = pygame.Rect((size[0] - iw) // 2, (size[1] - ih) // 2, iw, ih)
    seen = part.clip(inner)
    if not seen.w or not seen.h or not sw or not sh:
        return out
    xs = _spans(sw, inner.w, seen.x - inner.x, seen.w)
    ys = _spans(sh, inner.h, seen.y - inner.y, seen.h)
    for sx, sn, dx, dn in xs:
        for sy, sm, dy, dm in ys:
            block = pygame.transform.scale(image.subsurface(sx, sy, sn, sm), (dn, dm))
            out.blit(block, (inner.x + dx - part.x, inner.y + dy - part.y))
    return out


def _spans(source: int, drawn: int, start: int, length: int) -> list[tuple[int, int, int, int]]:
    """Along one axis, a picture of ``source`` px drawn ``drawn`` px long: the pieces that
    cover ``start`` .. ``start + length`` of the drawing, each (first source px, source px,
    first drawn px, drawn px)."""
    scale = drawn / source
    first = max(0, min(source - 1, math.floor(start / scale)))
    last = max(first + 1, min(source, math.ceil((start + length) / scale)))

    def at(i: int) -> int:
        return round(i * scale)
    if scale <= length:  # one piece, no longer than the part and a few source px
        return [(first, last - first, at(first), max(1, at(last) - at(first)))]
    out = []
    for i in range(first, last):  # each source px drawn longer than the part: cut to it
        lo, hi = max(at(i), start - 1), min(at(i + 1), start + length + 1)
        if hi > lo:
            out.append((i, 1, lo, hi - lo))
    return out


def draw_objects(target: pygame.Surface, layer: ObjectLayerArt, pictures: ArtPictures,
                 origin: tuple[int, int], ms: int, place=None) -> None:
    """An object layer's tile objects, for a view whose top-left is at ``origin`` (map px,
    the layer's parallax already applied). ``place(obj)`` -> (x, y, pivot): where an object
    stands on a map of another orientation (``game.view.projection``); by default its
    bottom-left corner at (obj.x, obj.y)."""
    if not layer.look.visible or layer.look.opacity <= 0 or not layer.objects:
        return
    view = pygame.Rect(origin, target.get_size())
    tint = layer.look.tint
    # a translucent layer's objects are drawn apart, then blended in at its opacity
    apart: list[pygame.Surface] = []

    def draw(seq: list) -> None:
        if layer.look.opacity >= 1:
            target.fblits(seq)
            return
        if not apart:
            apart.append(pygame.Surface(target.get_size(), pygame.SRCALPHA))
        apart[0].fblits(seq)

    seq, held = [], 0
    for obj, (size, is_big, reach) in zip(layer.objects, pictures.sizes(layer)):
        ax, ay, pivot = (obj.x, obj.y, 0.0) if place is None else place(obj)
        if not view.colliderect((ax - reach, ay - reach, 2 * reach, 2 * reach)):
            continue  # out of sight however it turns: its picture is not made
        if is_big:
            image = pictures.frame(obj.image, ms)
            for piece in _pieces(view):
                got = pictures.object_part(image, size, obj.rotation, tint, pivot, obj.shift,
                                           (ax, ay), piece)
                if got is not None:  # over what came before it
                    seq.append((got[0], (got[1][0] - view.x, got[1][1] - view.y)))
                    draw(seq)
                    seq, held = [], 0
            continue
        img, (dx, dy) = pictures.tile_object(obj.image, obj.w, obj.h, obj.rotation, tint, ms,
                                             pivot, obj.shift)
        x, y = math.floor(ax + dx + 0.5), math.floor(ay + dy + 0.5)  # Qt rounds halves up
        if view.colliderect((x, y, img.get_width(), img.get_height())):
            seq.append((img, (x - view.x, y - view.y)))
            held += nbytes(img)
            if held > HELD:  # pictures no longer kept are not held on to either
                draw(seq)
                seq, held = [], 0
    if seq:
        draw(seq)
    if apart:
        apart[0].set_alpha(round(layer.look.opacity * 255))
        target.blit(apart[0], (0, 0))


def _pieces(view: pygame.Rect) -> list[pygame.Rect]:
    """``view`` cut into parts of at most PIECE px a side."""
    return [pygame.Rect(x, y, min(PIECE, view.right - x), min(PIECE, view.bottom - y))
            for y in range(view.top, view.bottom, PIECE)
            for x in range(view.left, view.right, PIECE)]


def draw_image_layer(target: pygame.Surface, layer: ImageLayerArt, pictures: ArtPictures,
                     origin: tuple[int, int]) -> None:
    """An image layer: its picture at the layer's offset, repeated along x and/or y across the
    view if the layer asks; ``origin`` may be any whole number (a parallax factor multiplied
    through groups puts a layer far away: a repeated picture's place is still exact)."""
    if not layer.look.visible or layer.look.opacity <= 0:
        return
    plain = pictures.picture(layer)
    w, h = plain.get_size()
    if not w or not h:
        return
    x0, y0 = round(layer.look.offset[0]) - origin[0], round(layer.look.offset[1]) - origin[1]
    tw, th = target.get_size()
    xs = range(x0 % w - w if layer.repeat_x else x0, tw if layer.repeat_x else x0 + 1, w)
    ys = range(y0 % h - h if layer.repeat_y else y0, th if layer.repeat_y else y0 + 1, h)
    places = [(x, y) for y in ys for x in xs if x < tw and y < th and x + w > 0 and y + h > 0]
    if not places:
        return
    alpha = round(layer.look.opacity * 255) if layer.look.opacity < 1 else None
    img = pictures.image_layer(layer)
    if img is None:  # no room for a tinted copy: each part in view tinted as it is drawn
        view = target.get_rect()
        for x, y in places:
            seen = view.clip((x, y, w, h))
            part = tinted(plain.subsurface(seen.move(-x, -y)), layer.look.tint)
            if alpha is not None:
                part.set_alpha(alpha)
            target.blit(part, seen.topleft)
        return
    before = img.get_alpha()
    if alpha is not None:
        img.set_alpha(alpha)  # the opacity as it is drawn: the picture is shared
    try:
        target.fblits([(img, at) for at in places])
    finally:
        if alpha is not None:
            img.set_alpha(before)
