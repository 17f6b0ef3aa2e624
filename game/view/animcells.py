"""Animated tiles drawn over a view buffer each frame, so the buffer itself never changes.

A view buffer (``game.view.viewbuffer``) keeps a run of tile layers drawn on one surface; a
translucent one is run-length encoded for fast blits, and redrawing an animated cell into it
would mean encoding the whole surface again each time a frame changes (milliseconds). So where
it gives the same picture, the buffer is drawn without its animated tiles, and each frame the
ones in view are blitted on top, at their current frame: a few dozen small blits.

It gives the same picture when nothing in the run is drawn over an animated cell: every layer of
the run at full opacity and untinted, at the same offset, every tile the size of a cell and on
it (no big tiles, no drawing offsets), and no later layer of the run with a tile on an animated
cell.
Otherwise :func:`plan` says None and the buffer redraws animated cells itself.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence

import pygame

from game.maps.art import WHITE, TileLayer
from game.maps.level import Level
from game.view.tiledraw import Stamps

BUCKET = 256  # px: animated cells are found by the view in squares of this size


class AnimatedCells:
    """The animated cells of one run of layers, by where they are: each frame, :meth:`draw`
    blits the ones a view sees with their current picture (from the run's shared stamps, which
    the renderer moves to each animation's next frame)."""

    def __init__(self, cells: list[tuple[int, int, int, Stamps]], tile: tuple[int, int]) -> None:
        self.tile = tile
        self.buckets: dict[tuple[int, int], list[tuple[int, int, int, Stamps]]] = {}
        for x, y, gid, stamps in cells:  # (x, y): the cell's bottom-left corner, map px
            key = (x // BUCKET, (y - tile[1]) // BUCKET)
            self.buckets.setdefault(key, []).append((x, y, gid, stamps))

    def draw(self, target: pygame.Surface, view: pygame.Rect) -> None:
        """Blit the animated cells that ``view`` (map px of ``target``) sees."""
        tw, th = self.tile
        vx, vy = view.topleft
        seq = []
        get = self.buckets.get
        for j in range((view.top - th) // BUCKET, view.bottom // BUCKET + 1):
            for i in range((view.left - tw) // BUCKET, view.right // BUCKET + 1):
                for x, y, gid, stamps in get((i, j), ()):
                    img, dx, dy = stamps.shapes[gid]
                    seq.append((img, (x + dx - vx, y + dy - vy)))
        if seq:
            target.fblits(seq)


def plan(level: Level, pairs: Sequence[tuple[TileLayer, Stamps]], animated: set[int]
         ) -> tuple[list[tuple[TileLayer, Stamps]], AnimatedCells] | None:
    """(the run's layers with stamps that leave the animated tiles out, the animated cells to
    draw over them), or None when drawing them on top would not give the same picture."""
    layers = [(k, layer, stamps) for k, (layer, stamps) in enumerate(pairs)
              if layer.visible and layer.gids]
    if not animated or not layers:
        return None
    tw, th = level.tile_size
    offsets = {(round(layer.offset[0]), round(layer.offset[1])) for _, layer, _ in layers}
    if len(offsets) != 1 or any(stamps.reach != (0, tw, -th, 0) or stamps.tint != WHITE
                                for _, _, stamps in layers):
        return None
    (ox, oy), = offsets
    cells = []
    for n, (k, layer, stamps) in enumerate(layers):
        later = [other.gids for _, other, _ in layers[n + 1:]]
        for r, row in enumerate(layer.gids):
            if animated.isdisjoint(row):
                continue
            for c, gid in enumerate(row):
                if gid in animated:
                    if layer.opacity < 1 or any(g[r][c] for g in later):
                        return None
                    cells.append((c * tw + ox, (r + 1) * th + oy, gid, stamps))
    if not cells:
        return None
    still = {}
    for layer, stamps in pairs:
        if id(stamps) not in still:
            still[id(stamps)] = copy.copy(stamps)
            still[id(stamps)].shapes = {g: s for g, s in stamps.shapes.items()
                                        if g not in animated}
    return ([(layer, still[id(stamps)]) for layer, stamps in pairs],
            AnimatedCells(cells, (tw, th)))
