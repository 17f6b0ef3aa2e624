"""Drawing a level's tile layers: tile images with Tiled's flips, composed in file order.

Each visible tile layer is drawn in file order with its opacity and offset, exactly as Tiled
composes them. While the game runs, the layers around the view are kept drawn on one surface
that follows the camera (see :class:`MapRenderer`), so a frame costs one blit however many tiles
are on screen, and the memory kept depends on the view's size alone.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping, Sequence

import pygame

from game.errors import UserError
from game.maps.art import NO_ART, WHITE, ImageLayerArt, Look, ObjectLayerArt, TileLayerArt
from game.maps.level import Level, TileImage, TileLayer
from game.view.mapart import (Animator, ArtPictures, draw_image_layer, draw_objects,
                              parallax_shift, tinted)

CELL = (128, 32)  # px: the grid on which view buffers are placed and sorted out
MARGIN = 128  # px of map a view buffer holds beyond each side of the view
WHOLE_MAP = 1 << 22  # px (16 MB): a map no bigger is kept whole by a view buffer


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
    ``game.maps.imagefile``), so these checks only meet a file changed since the level was loaded.
    """

    def __init__(self, level: Level, convert: bool = True) -> None:
        self._sheets: dict[str, pygame.Surface] = {}
        self._convert = convert
        art = level.art
        # Tiled's transparent colours (a tileset's or image layer's ``trans``), by file
        self._keyed = {os.path.normpath(k): v for k, v in art.transparent.items()} if art else {}
        self.images: dict[int, pygame.Surface] = {}
        self._pictures: dict[TileImage, pygame.Surface] = {}
        self._check_sizes(level)
        for gid, info in level.tiles.items():
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
            keyed = self._keyed.get(os.path.normpath(os.path.abspath(key)))
            if keyed is not None:  # Tiled's transparent colour: see-through, as alpha
                sheet.set_colorkey(keyed)
                clear = pygame.Surface(sheet.get_size(), pygame.SRCALPHA)
                clear.blit(sheet, (0, 0))
                sheet = clear
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


class Stamps:
    """A level's tile images ready to draw: gid -> (image, height), the biggest image's size, and
    the gids whose image fills a cell with opaque pixels. Fully opaque images are kept without
    an alpha channel: the same pixels, blitted faster."""

    def __init__(self, level: Level, images: TileImages, tint=WHITE,
                 animated: Mapping[int, Sequence[pygame.Surface]] | None = None) -> None:
        tw, th = level.tile_size
        self.tint = tint
        self.shapes: dict[int, tuple[pygame.Surface, int]] = {}
        fill_cell = set()
        for gid, img in images.images.items():
            img = self._ready(img)
            w, h = img.get_size()
            if not img.get_flags() & pygame.SRCALPHA and (w, h) == (tw, th) and (
                    not animated or gid not in animated):  # a frame may not fill it
                fill_cell.add(gid)
            self.shapes[gid] = (img, h)
        self.fill_cell = frozenset(fill_cell)
        sizes = [img.get_size() for img, _ in self.shapes.values()]
        sizes += [f.get_size() for frames in (animated or {}).values() for f in frames]
        self.biggest = (max((w for w, _ in sizes), default=tw), max((h for _, h in sizes),
                                                                    default=th))

    def _ready(self, img: pygame.Surface) -> pygame.Surface:
        """The picture tinted, and without an alpha channel if it is opaque everywhere."""
        img = tinted(img, self.tint)
        w, h = img.get_size()
        if pygame.mask.from_surface(img, 254).count() == w * h:  # alpha 255 everywhere
            plain = pygame.Surface((w, h))
            plain.blit(img, (0, 0))
            img = plain
        return img

    def show(self, gid: int, img: pygame.Surface) -> None:
        """Draw ``gid`` as ``img`` from now on (an animation's next frame)."""
        img = self._ready(img)
        self.shapes[gid] = (img, img.get_height())


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
    big_w, big_h = stamps.biggest
    rows, cols = len(layer.gids), len(layer.gids[0])
    # The cells whose images may reach into the area.
    c0 = max(0, (area.left - ox - big_w) // tw + 1)
    c1 = min(cols, -(-(area.right - ox) // tw))
    r0 = max(0, (area.top - oy) // th)
    r1 = min(rows, -(-(area.bottom - oy - th + big_h) // th))
    if c0 >= c1 or r0 >= r1:
        return
    ax, ay = area.topleft
    xs = [c * tw + ox - ax for c in range(c0, c1)]
    shapes = stamps.shapes
    seq: list[tuple[pygame.Surface, tuple[int, int]]] = []
    for r in range(r0, r1):
        y = (r + 1) * th + oy - ay  # the cell's bottom edge
        seq += [(s[0], (x, y - s[1])) for g, x in zip(layer.gids[r][c0:c1], xs)
                if g and (s := shapes.get(g))]
    if not seq:
        return
    if layer.opacity >= 1:
        target.fblits(seq)
    else:
        dest = pygame.Surface(target.get_size(), pygame.SRCALPHA)
        dest.fblits(seq)
        dest.set_alpha(round(layer.opacity * 255))
        target.blit(dest, (0, 0))


def _compose(level: Level, layers: Sequence[tuple[TileLayer, Stamps]],
             area: pygame.Rect) -> pygame.Surface:
    surf = pygame.Surface(area.size, pygame.SRCALPHA)
    for layer, stamps in layers:
        draw_layer(surf, layer, level, stamps, area)
    return surf


def render_area(level: Level, images: TileImages, area: pygame.Rect,
                front: bool | None = None) -> pygame.Surface:
    """The visible tile layers inside ``area`` (map px), in file order, on a transparent surface:
    all of them, or (``front`` True/False) only those in front of / behind the sprites (the
    game's view, whose doors game/view/living.py draws each frame)."""
    stamps = Stamps(level, images)
    return _compose(level, [(layer, stamps) for layer in level.layers if front is None or (
        layer.in_front == front and not layer.door)], area)


def map_bounds(level: Level, layers: Sequence[TileLayer] | None = None) -> pygame.Rect:
    """The map's rectangle grown to hold every visible layer's offset (of ``layers``, or all),
    as Tiled sizes an export."""
    g = level.grid
    full = pygame.Rect(0, 0, g.width_px, g.height_px)
    bounds = full.copy()
    for layer in level.layers if layers is None else layers:
        if layer.visible:
            bounds.union_ip(full.move(round(layer.offset[0]), round(layer.offset[1])))
    return bounds


def render_map(level: Level, images: TileImages) -> pygame.Surface:
    """The whole map's tile layers at scale 1 (as ``tmxrasterizer`` draws them with the object
    layers hidden)."""
    return render_area(level, images, map_bounds(level))


def render_whole(level: Level, images: TileImages, seconds: float = 0.0) -> pygame.Surface:
    """The whole map at scale 1 as the game draws it, ``seconds`` into its animations: the
    background colour, then every visible layer in file order (tile layers, tile objects, image
    layers) with its opacity, offset and tint. Parallax layers are where a camera centred on
    the map's parallax origin sees them: at their place in the map, as Tiled exports them."""
    bounds = map_bounds(level)
    g = level.grid
    for a in level.art.layers if level.art is not None else ():  # image layers' offsets too
        if isinstance(a, ImageLayerArt) and a.look.visible:
            bounds.union_ip(pygame.Rect(round(a.look.offset[0]), round(a.look.offset[1]),
                                        g.width_px, g.height_px))
    out = pygame.Surface(bounds.size, pygame.SRCALPHA)
    if level.background:
        out.fill((*level.background, 255))
    renderer = MapRenderer(level, images)
    renderer.update(seconds)
    centre = renderer.origin
    renderer.draw(out, bounds.topleft, centre=centre)
    renderer.draw(out, bounds.topleft, front=True, centre=centre)
    return out


# What the part of a cell inside the map holds, for choosing how to blit it.
EMPTY, OPAQUE, MIXED = 0, 1, 2


class _ViewBuffer:
    """One set of tile layers, drawn around the view on one surface that follows the camera.

    The surface holds the whole map when the map is small (WHOLE_MAP); else the view plus about
    ``MARGIN`` px on every side (or the whole map along an axis where it is short), on a grid
    of ``CELL`` px. While the view stays inside it, a frame costs one blit: a plain copy while
    the layers are opaque wherever the map is; else one blit of the run-length encoded whole
    map, or one blended blit per run of rows of cells not empty across the view. (Encoded
    blits round translucent pixels apart from pygame's blend, by 1 at most.) When the view
    leaves it, the surface is placed around the view again: what it holds is scrolled along and
    only the strips that came into it are drawn from the tiles. Its size is set by the view's
    (or by the map's, when that is at most WHOLE_MAP), never by how far the camera goes.
    """

    def __init__(self, level: Level, layers: Sequence[tuple[TileLayer, Stamps]],
                 bounds: pygame.Rect) -> None:
        self.level = level
        self.pairs = list(layers)  # (layer, the stamps it is drawn with: its tint's)
        self.layers = [layer for layer, _ in self.pairs]
        self.bounds = bounds  # map px that may hold tiles; the view's rest is left untouched
        self.surface: pygame.Surface | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)  # map px the surface covers
        self._view = (0, 0)  # the size of the view it was made for
        # True: the surface has no alpha channel and every cell in the map is OPAQUE. False:
        # ``cells`` says what each cell in the map holds.
        self.opaque = True
        self.cells: dict[tuple[int, int], int] = {}  # (col, row) on the CELL grid -> kind
        self._version = 0  # counts changes of ``cells``, for the cached rows below
        self._rows_key: tuple | None = None
        self._rows: list[tuple[int, int]] = []
        self._animated: dict[int, list[pygame.Rect]] | None = None  # gid -> where it is drawn

    def animate(self, gids: Mapping[int, object] | set[int], every: set[int]) -> None:
        """Redraw what the surface holds of the cells showing ``gids``, whose pictures changed
        (``every``: all the map's animated gids, to find their cells once)."""
        if self.surface is None or not gids:
            return
        if self._animated is None:
            self._animated = self._cells_of(every)
        cw, ch = CELL
        r = self.rect
        todo: set[tuple[int, int]] = set()
        for gid in gids:
            for a in self._animated.get(gid, ()):
                a = a.clip(r)
                if a.w and a.h:
                    todo.update((i, j) for j in range(a.top // ch, (a.bottom - 1) // ch + 1)
                                for i in range(a.left // cw, (a.right - 1) // cw + 1))
        if todo:
            self._redraw([pygame.Rect(i * cw, j * ch, cw, ch).clip(r) for i, j in sorted(todo)],
                         keep=r)

    def _cells_of(self, gids: set[int]) -> dict[int, list[pygame.Rect]]:
        tw, th = self.level.tile_size
        out: dict[int, list[pygame.Rect]] = {}
        for layer, stamps in self.pairs:
            if not layer.visible or not layer.gids:
                continue
            bw, bh = stamps.biggest
            ox, oy = round(layer.offset[0]), round(layer.offset[1])
            for row, cells in enumerate(layer.gids):
                for col, gid in enumerate(cells):
                    if gid in gids:
                        out.setdefault(gid, []).append(pygame.Rect(
                            col * tw + ox, (row + 1) * th + oy - bh, bw, bh))
        return out

    def size_for(self, view: tuple[int, int]) -> tuple[int, int]:
        """Size of the surface kept for a view of this size (px): the whole map when it has at
        most WHOLE_MAP pixels (then the surface never moves); else the view plus MARGIN on every
        side, on the cell grid, or the whole map along an axis where the map is at most twice
        that long."""
        spans, covers = [], []
        for k, cell in enumerate(CELL):
            spans.append(-(-(view[k] + 2 * MARGIN) // cell) * cell)
            lo, hi = self.bounds.topleft[k], self.bounds.bottomright[k]
            covers.append(-(-hi // cell) * cell - lo // cell * cell)
        if covers[0] * covers[1] <= WHOLE_MAP:
            return covers[0], covers[1]
        w, h = (c if c <= 2 * s else s for s, c in zip(spans, covers))
        return w, h

    def nbytes(self) -> int:
        s = self.surface
        return 0 if s is None else s.get_width() * s.get_height() * s.get_bytesize()

    def draw(self, target: pygame.Surface, origin: tuple[int, int]) -> None:
        view = pygame.Rect(origin, target.get_size())
        seen = view.clip(self.bounds)
        if not seen.w or not seen.h:
            return
        self._follow(seen, view.size)
        bx, by = self.rect.topleft
        # Translucent layers over the whole map, drawn for good: run-length encoded, a blit
        # skips the transparent runs (encoding costs a pass over the surface, too much to redo
        # on every move). Not onto a target with alpha: SDL's encoded blits get its alpha wrong.
        rle = (not self.opaque and self.rect.contains(self.bounds)
               and not target.get_flags() & pygame.SRCALPHA)
        if rle != bool(self.surface.get_flags() & pygame.RLEACCEL):
            self.surface.set_alpha(255, pygame.RLEACCEL if rle else 0)
        if self.opaque or rle:
            target.blit(self.surface, (seen.x - view.x, seen.y - view.y), seen.move(-bx, -by))
            return
        for y0, y1 in self._rows_to_blend(seen):
            y0, y1 = max(y0, seen.top), min(y1, seen.bottom)
            target.blit(self.surface, (seen.x - view.x, y0 - view.y),
                        (seen.x - bx, y0 - by, seen.w, y1 - y0))

    def _rows_to_blend(self, seen: pygame.Rect) -> list[tuple[int, int]]:
        """Map y ranges of the runs of rows of cells that are not all EMPTY across ``seen``."""
        cw, ch = CELL
        cols = range(seen.left // cw, (seen.right - 1) // cw + 1)
        rows = range(seen.top // ch, (seen.bottom - 1) // ch + 1)
        key = (cols, rows, self._version)
        if key != self._rows_key:
            out: list[tuple[int, int]] = []
            cells = self.cells
            for j in rows:
                if any(cells.get((i, j), EMPTY) != EMPTY for i in cols):
                    if out and out[-1][1] == j * ch:
                        out[-1] = (out[-1][0], (j + 1) * ch)
                    else:
                        out.append((j * ch, (j + 1) * ch))
            self._rows_key, self._rows = key, out
        return self._rows

    def _place(self, seen: pygame.Rect, size: tuple[int, int]) -> pygame.Rect:
        """Where the surface goes: on the cell grid, holding ``seen`` with about MARGIN px
        around it, and no further past the map's edges than it must."""
        pos = []
        for k, cell in enumerate(CELL):
            start, length, span = seen.topleft[k], seen.size[k], size[k]
            want = (start - MARGIN) // cell * cell
            want = min(want, -(-self.bounds.bottomright[k] // cell) * cell - span)
            want = max(want, self.bounds.topleft[k] // cell * cell)
            lowest = -(-(start + length - span) // cell) * cell  # still holding ``seen``
            pos.append(min(max(want, lowest), start // cell * cell))
        return pygame.Rect(pos, size)

    def _follow(self, seen: pygame.Rect, view: tuple[int, int]) -> None:
        """Make the surface hold ``seen`` (the map's part of a view of size ``view``), drawing
        only what it does not hold yet."""
        if self.surface is not None and self.rect.contains(seen) and self._view == view:
            return
        size = self.size_for(view)
        old = self.rect
        if self.surface is None or self.surface.get_size() != size:
            self.surface, self.opaque, self.cells = pygame.Surface(size), True, {}
            old = pygame.Rect(0, 0, 0, 0)
        self._view = view
        if old.contains(seen):
            return
        new = self.rect = self._place(seen, size)
        if not new.colliderect(old):
            self._redraw([new], keep=None)
            return
        self.surface.scroll(old.x - new.x, old.y - new.y)
        x0, x1 = max(new.left, old.left), min(new.right, old.right)  # columns kept
        todo = []
        if new.left < old.left:
            todo.append(pygame.Rect(new.left, new.top, old.left - new.left, new.h))
        elif new.right > old.right:
            todo.append(pygame.Rect(old.right, new.top, new.right - old.right, new.h))
        if new.top < old.top:
            todo.append(pygame.Rect(x0, new.top, x1 - x0, old.top - new.top))
        elif new.bottom > old.bottom:
            todo.append(pygame.Rect(x0, old.bottom, x1 - x0, new.bottom - old.bottom))
        self._redraw(todo, keep=new.clip(old))

    def _redraw(self, areas: list[pygame.Rect], keep: pygame.Rect | None) -> None:
        """Draw ``areas`` (map px, on the cell grid, inside ``self.rect``) from the tiles; the
        surface's pixels in ``keep`` are still good."""
        r = self.rect
        # An area one layer covers with opaque tiles is drawn straight onto the surface from
        # that layer on (what is under it does not show); any other area is drawn apart, on a
        # transparent strip, to learn where it is opaque or empty.
        direct, strips = [], []
        for a in areas:
            under = self._covered_from(a)
            if under is None:
                strips.append((_compose(self.level, self.pairs, a), a))
            else:
                direct.append((a, under))
        opaque = (self.opaque or keep is None) and all(
            self._all_opaque(strip, a) for strip, a in strips)
        if not opaque:
            cw, ch = CELL
            if self.opaque:
                cells = {} if keep is None else dict.fromkeys(self._cells_in(keep), OPAQUE)
            else:  # forget the cells scrolled out
                cells = {k: v for k, v in self.cells.items()
                         if r.left <= k[0] * cw < r.right and r.top <= k[1] * ch < r.bottom}
            for a, _ in direct:
                cells.update(dict.fromkeys(self._cells_in(a), OPAQUE))
            for strip, a in strips:
                cells.update(self._classify(strip, a))
            opaque = all(v == OPAQUE for v in cells.values())
            self.cells = {} if opaque else cells
            self._version += 1
        if opaque != self.opaque:  # change the surface's format, keeping its pixels
            surf = pygame.Surface(r.size, 0 if opaque else pygame.SRCALPHA)
            surf.blit(self.surface, (0, 0))
            self.surface, self.opaque = surf, opaque
        for a, under in direct:
            part = self.surface.subsurface(a.move(-r.x, -r.y))
            for layer, stamps in self.pairs[under:]:
                draw_layer(part, layer, self.level, stamps, a)
        for strip, a in strips:
            if not opaque:
                strip.set_alpha(None)  # replace the pixels, alpha too, instead of blending
            self.surface.blit(strip, (a.x - r.x, a.y - r.y))

    def _covered_from(self, area: pygame.Rect) -> int | None:
        """Index in ``self.layers`` of the last layer whose tiles cover the map's part of
        ``area`` with opaque pixels, or None."""
        part = area.clip(self.bounds)
        if not part.w or not part.h:
            return None
        tw, th = self.level.tile_size
        for k in range(len(self.layers) - 1, -1, -1):
            layer = self.layers[k]
            if not layer.visible or layer.opacity < 1 or not layer.gids:
                continue
            ox, oy = round(layer.offset[0]), round(layer.offset[1])
            c0, r0 = (part.left - ox) // tw, (part.top - oy) // th
            c1, r1 = -(-(part.right - ox) // tw), -(-(part.bottom - oy) // th)
            if c0 < 0 or r0 < 0 or r1 > len(layer.gids) or c1 > len(layer.gids[0]):
                continue
            fill = self.pairs[k][1].fill_cell
            if all(fill.issuperset(layer.gids[j][c0:c1]) for j in range(r0, r1)):
                return k
        return None

    def _all_opaque(self, strip: pygame.Surface, area: pygame.Rect) -> bool:
        """Whether the strip drawn for ``area`` is opaque wherever the map is."""
        part = area.clip(self.bounds)
        if not part.w or not part.h:
            return True
        solid = pygame.mask.from_surface(strip, 254)  # alpha 255
        return solid.overlap_area(pygame.mask.Mask(part.size, fill=True),
                                  (part.x - area.x, part.y - area.y)) == part.w * part.h

    def _cells_in(self, area: pygame.Rect) -> Iterator[tuple[int, int]]:
        """The cells of ``area`` (on the cell grid) that lie in the map."""
        cw, ch = CELL
        inside = area.clip(self.bounds)
        if inside.w and inside.h:
            for j in range(inside.top // ch, (inside.bottom - 1) // ch + 1):
                for i in range(inside.left // cw, (inside.right - 1) // cw + 1):
                    yield i, j

    def _classify(self, strip: pygame.Surface, area: pygame.Rect
                  ) -> Iterator[tuple[tuple[int, int], int]]:
        """(cell, EMPTY/OPAQUE/MIXED) for the cells of ``area`` that lie in the map, drawn in
        ``strip``."""
        cw, ch = CELL
        seen = pygame.mask.from_surface(strip, 0)  # alpha > 0
        solid = pygame.mask.from_surface(strip, 254)  # alpha 255
        for i, j in self._cells_in(area):
            part = pygame.Rect(i * cw, j * ch, cw, ch).clip(self.bounds)
            full = pygame.mask.Mask(part.size, fill=True)
            at = (part.x - area.x, part.y - area.y)
            if solid.overlap_area(full, at) == part.w * part.h:
                kind = OPAQUE
            elif seen.overlap_area(full, at) == 0:
                kind = EMPTY
            else:
                kind = MIXED
            yield (i, j), kind


class Recent:
    """Things made for the last two frames, by key (text images, panels, overlays): what a frame
    asks for again is reused; what neither this frame nor the one before asked for is let go.
    So what is kept follows what is on screen, however long the game runs.
    Call :meth:`next_frame` once a frame."""

    def __init__(self) -> None:
        self._now: dict = {}
        self._before: dict = {}

    def get(self, key, make):
        """The thing kept for ``key``, made by ``make()`` if neither frame has it."""
        got = self._now.get(key)
        if got is None:
            got = self._before.get(key)
            if got is None:
                got = make()
            self._now[key] = got
        return got

    def next_frame(self) -> None:
        self._before, self._now = self._now, {}

    def __len__(self) -> int:
        return len(self._now.keys() | self._before.keys())


def same_format(a: pygame.Surface, b: pygame.Surface) -> bool:
    return a.get_bitsize() == b.get_bitsize() and a.get_masks() == b.get_masks()


def blit_scaled(src: pygame.Surface, factor: int, dest: pygame.Surface) -> None:
    """``src`` scaled up ``factor`` times (nearest neighbour) onto ``dest`` at (0, 0), cut at
    ``dest``'s edges: the same pixels as ``dest.blit(pygame.transform.scale(src, (w * factor,
    h * factor)), (0, 0))``, without making and filling a window-sized surface each frame.

    The source pixels shown whole are scaled straight into ``dest``; the last column and row,
    which ``dest``'s edge cuts, are scaled apart (small surfaces) and blitted."""
    w, h = src.get_size()
    dw, dh = dest.get_size()
    if not same_format(src, dest):  # scale() writes only into its own format
        dest.blit(pygame.transform.scale(src, (w * factor, h * factor)), (0, 0))
        return
    fw, fh = min(w, dw // factor), min(h, dh // factor)  # source px shown whole
    if fw and fh:
        pygame.transform.scale(src.subsurface(0, 0, fw, fh), (fw * factor, fh * factor),
                               dest.subsurface(0, 0, fw * factor, fh * factor))
    if fw < w and fh:
        part = src.subsurface(fw, 0, w - fw, fh)
        dest.blit(pygame.transform.scale(part, ((w - fw) * factor, fh * factor)),
                  (fw * factor, 0))
    if fh < h:
        part = src.subsurface(0, fh, w, h - fh)
        dest.blit(pygame.transform.scale(part, (w * factor, (h - fh) * factor)),
                  (0, fh * factor))


class MapRenderer:
    """Draws the part of the map a camera sees, layer by layer as Tiled composes them.

    Runs of tile layers that share a parallax factor are kept drawn in view buffers (see
    :class:`_ViewBuffer`); a map of plain tile layers has two: the layers behind the sprites
    (:meth:`draw`) and those in front of them (:meth:`draw_front`: after the map's first object
    layer; often none). Tile objects and image layers are drawn each frame in their place in the
    file (``game.view.mapart``); animated tiles redraw only the buffered cells whose frame
    changed (:meth:`update`). Memory: per buffer a surface of at most WHOLE_MAP pixels or twice
    the view plus 2 MARGINs and a CELL along each axis (see :meth:`_ViewBuffer.size_for`),
    4 bytes a pixel, however big the map and however far the camera goes.
    """

    def __init__(self, level: Level, images: TileImages) -> None:
        self.level, self.images = level, images
        art = level.art if level.art is not None else NO_ART
        self.pictures = ArtPictures(level, images.picture, images.load)
        self.animator = Animator(level, images.picture)
        animated = {g: [f for f, _ in frames] for g, frames in self.animator.frames_of.items()}
        self._stamps: dict = {}  # tint -> Stamps

        def stamps(tint) -> Stamps:
            if tint not in self._stamps:
                self._stamps[tint] = Stamps(level, images, tint, animated)
            return self._stamps[tint]

        self.origin = art.parallax_origin
        bounds = map_bounds(level)
        self._passes: tuple[list, list] = ([], [])  # (behind the sprites, in front)
        looks = {a.index: a.look for a in art.layers if isinstance(a, TileLayerArt)}
        front = False
        run: list = []  # tile layers of the current buffer

        def close_run() -> None:
            if run:
                pairs = [(layer, st) for layer, st, _ in run]
                self._passes[front].append(("tiles", _ViewBuffer(level, pairs, bounds),
                                            run[0][2]))
                run.clear()

        order = art.layers or tuple(TileLayerArt(i, _look_of(layer))
                                    for i, layer in enumerate(level.layers))
        for item in order:
            if isinstance(item, TileLayerArt):
                if item.index >= len(level.layers):
                    continue
                layer = level.layers[item.index]
                if layer.in_front != front:
                    close_run()
                    front = layer.in_front
                look = looks.get(item.index, item.look)
                if layer.door or not layer.visible:  # doors: game/view/living.py, each frame
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
        for st in self._stamps.values():
            for gid, img in changed.items():
                st.show(gid, img)
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
        for kind, item, factor in self._passes[front]:
            at = origin
            if factor != (1.0, 1.0):
                dx, dy = parallax_shift(factor, centre, self.origin)
                at = (origin[0] - dx, origin[1] - dy)
            if kind == "tiles":
                item.draw(target, at)
            elif kind == "objects":
                draw_objects(target, item, self.pictures, at, self._ms)
            else:
                draw_image_layer(target, item, self.pictures, at)

    def draw_front(self, target: pygame.Surface, origin: tuple[int, int]) -> None:
        if self.has_front:
            self.draw(target, origin, front=True)


def _look_of(layer: TileLayer) -> Look:
    return Look(layer.visible, layer.opacity, layer.offset)
