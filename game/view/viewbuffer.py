"""The view buffer: one run of tile layers kept drawn around the camera on one surface, so a
frame costs one blit however many tiles are on screen (``game.view.render.MapRenderer`` keeps one
per run of layers)."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence

import pygame

from game.maps.art import TileLayer
from game.maps.level import Level
from game.view.animcells import AnimatedCells, plan
from game.view.tiledraw import Stamps, compose, draw_layer

CELL = (128, 32)  # px: the grid on which view buffers are placed and sorted out
MARGIN = 128  # px of map a view buffer holds beyond each side of the view
WHOLE_MAP = 1 << 22  # px (16 MB): a map no bigger is kept whole by a view buffer

# What the part of a cell inside the map holds, for choosing how to blit it.
EMPTY, OPAQUE, MIXED = 0, 1, 2


class ViewBuffer:
    """One set of tile layers, drawn around the view on one surface that follows the camera.

    The surface holds the whole map when the map is small (WHOLE_MAP); else as much as the view
    plus ``MARGIN`` px on every side (or the whole map along an axis where it is short), on a
    grid of ``CELL`` px, that room placed ahead of the view where it moves. While the view
    stays inside it, a frame costs one blit: a plain copy while the layers are opaque wherever
    the map is; else one blit of the run-length encoded whole map, or one blended blit per run
    of rows of cells not empty across the view. (Encoded blits round translucent pixels apart
    from pygame's blend, by 1 at most.) When the view leaves it, the surface is placed around
    the view again: what it holds is scrolled along and only the strips that came into it are
    drawn from the tiles. Its size is set by the view's (or by the map's, when that is at most
    WHOLE_MAP), never by how far the camera goes.

    Not a ring buffer (new strips drawn over the old ones, the view blitted in up to four
    pieces where it wraps): one was built and measured slower here. A view cut at the ring's
    vertical seam is two copies per row, 44 us more a 1280x720 frame, and the seam is in the
    view most of the time; that costs more than the scrolls it saves (a scroll per 64 frames
    of a steady pan).
    """

    def __init__(self, level: Level, layers: Sequence[tuple[TileLayer, Stamps]],
                 bounds: pygame.Rect, animated: set[int] | frozenset = frozenset()) -> None:
        """``animated``: the map's animated gids. Where it gives the same picture, they are
        left out of the surface and drawn over it each frame (``game.view.animcells``)."""
        self.level = level
        self.pairs = list(layers)  # (layer, the stamps it is drawn with: its tint's)
        self.every = self.pairs  # the same, animated tiles and all (for drawing without it)
        self.overlay: AnimatedCells | None = None
        planned = plan(level, self.pairs, set(animated)) if animated else None
        if planned is not None:
            self.pairs, self.overlay = planned
        self.layers = [layer for layer, _ in self.pairs]
        self.bounds = bounds  # map px that may hold tiles; the view's rest is left untouched
        self.surface: pygame.Surface | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)  # map px the surface covers (but its last column)
        self._view = (0, 0)  # the size of the view it was made for
        self._last = (0, 0)  # map px of the top-left of what the view saw last frame
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
        if self.surface is None or not gids or self.overlay is not None:
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
            if self.surface.get_flags() & pygame.RLEACCEL:
                # drawing onto an encoded surface decodes and encodes it again for every
                # blit: once, here, and it is encoded again at its next draw
                self.surface.set_alpha(255, 0)
            self._redraw([pygame.Rect(i * cw, j * ch, cw, ch).clip(r) for i, j in sorted(todo)],
                         keep=r)

    def _cells_of(self, gids: set[int]) -> dict[int, list[pygame.Rect]]:
        tw, th = self.level.tile_size
        out: dict[int, list[pygame.Rect]] = {}
        for layer, stamps in self.pairs:
            if not layer.visible or not layer.gids:
                continue
            left, right, top, bottom = stamps.reach
            ox, oy = round(layer.offset[0]), round(layer.offset[1])
            for row, cells in enumerate(layer.gids):
                for col, gid in enumerate(cells):
                    if gid in gids:
                        out.setdefault(gid, []).append(pygame.Rect(
                            col * tw + ox + left, (row + 1) * th + oy + top, right - left,
                            bottom - top))
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

    def release(self) -> None:
        """Let the surface go (it is made again at the next :meth:`draw`)."""
        self.surface, self._animated = None, None
        self.rect = pygame.Rect(0, 0, 0, 0)

    def draw_direct(self, target: pygame.Surface, origin: tuple[int, int]) -> None:
        """Draw the layers straight from their tiles onto ``target``, keeping nothing: what a
        renderer does with the runs its budget holds no surface for. (Blended layer by layer
        rather than as one run: translucent pixels may round apart by a level.)"""
        area = pygame.Rect(origin, target.get_size())
        if not area.colliderect(self.bounds):
            return
        for layer, stamps in self.every:
            draw_layer(target, layer, self.level, stamps, area)

    def draw(self, target: pygame.Surface, origin: tuple[int, int]) -> None:
        view = pygame.Rect(origin, target.get_size())
        seen = view.clip(self.bounds)
        if not seen.w or not seen.h:
            return
        self._follow(seen, view.size)
        self._last = seen.topleft
        bx, by = self.rect.topleft
        # most frames: a plain copy (an opaque surface is never encoded, nor looked at for it)
        if self.opaque or self._encoded_for(target):
            target.blit(self.surface, (seen.x - view.x, seen.y - view.y), seen.move(-bx, -by))
        else:
            for y0, y1 in self._rows_to_blend(seen):
                y0, y1 = max(y0, seen.top), min(y1, seen.bottom)
                target.blit(self.surface, (seen.x - view.x, y0 - view.y),
                            (seen.x - bx, y0 - by, seen.w, y1 - y0))
        if self.overlay is not None:
            self.overlay.draw(target, view)

    def _encoded_for(self, target: pygame.Surface) -> bool:
        """Whether the translucent surface is blitted onto ``target`` whole, run-length encoded
        (encoding or decoding it to match)."""
        # Translucent layers over the whole map, drawn for good: run-length encoded, a blit
        # skips the transparent runs (encoding costs a pass over the surface, too much to redo
        # on every move). Not onto a target with alpha: SDL's encoded blits get its alpha wrong.
        rle = self.rect.contains(self.bounds) and not target.get_flags() & pygame.SRCALPHA
        if rle != bool(self.surface.get_flags() & pygame.RLEACCEL):
            self.surface.set_alpha(255, pygame.RLEACCEL if rle else 0)
        return rle

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

    def _place(self, seen: pygame.Rect, size: tuple[int, int],
               motion: tuple[int, int]) -> pygame.Rect:
        """Where the surface goes: on the cell grid, holding ``seen``, and no further past the
        map's edges than it must. Along an axis the view moves (``motion``: px since the
        frame before), all the room the surface has beyond the view is ahead of it, so the
        next move comes as late as it can (twice as late as with the room on both sides, in
        strips twice as wide: as many tiles drawn, half the scrolls); along an axis it does not
        move, about MARGIN px on each side."""
        pos = []
        for k, cell in enumerate(CELL):
            start, length, span = seen.topleft[k], seen.size[k], size[k]
            if motion[k] > 0:
                want = start // cell * cell
            elif motion[k] < 0:
                want = -(-(start + length) // cell) * cell - span
            else:
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
        if self.surface is None or self.rect.size != size:
            self.surface, self.opaque, self.cells = _buffer_surface(size, 0), True, {}
            old = pygame.Rect(0, 0, 0, 0)
        self._view = view
        if old.contains(seen):
            return
        motion = (seen.x - self._last[0], seen.y - self._last[1])
        new = self.rect = self._place(seen, size, motion)
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
                strips.append((compose(self.level, self.pairs, a), a))
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
            surf = _buffer_surface(r.size, 0 if opaque else pygame.SRCALPHA)
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


def _buffer_surface(size: tuple[int, int], flags: int) -> pygame.Surface:
    """A surface for a view buffer of ``size``, one column wider, never drawn on or shown, so
    that its rows are not a multiple of 16 bytes apart.

    SDL 2 copies a surface onto another (no blending) with SSE streaming stores when both
    surfaces' rows start on 16-byte boundaries, and else row by row with the C library's
    ``memcpy``. Streaming stores bypass the cache; ``memcpy`` keeps the target in it. On the
    machine this was measured on (SDL 2.32, 1280x720 view), the view was cut from the buffer a
    tenth faster with ``memcpy``; and with streaming stores a part of the view whose width is
    not a multiple of 16 px took three times as long as the whole view."""
    return pygame.Surface((size[0] + 1, size[1]), flags)
