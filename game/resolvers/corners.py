"""``corners``: probe the corners of the destination box.

Article: "Intermediate Game Tutorial #4 - Tile Based Map Collision Detection", Parallel
Realities (2 October 2011), http://www.parallelrealities.co.uk/2011/10/

Axis order: x then y.

The technique, as the article teaches it:

1. Work out where the box would be after the horizontal part of the move alone.
2. Look up the tiles under the corners of its *leading* edge (the right edge when moving right,
   the left edge when moving left). If either is not empty, the move is blocked: put the body as
   close to that tile column as it can go.
3. A box taller than a tile could straddle a small tile with both corners free of it, so the edge
   is cut into tile-sized segments: besides the two corners, a probe point sits every tile height
   along the edge, and every point's tile is looked up.
4. Do the same for the vertical part, probing the bottom edge (moving down, which also means
   "standing on something": ``on_ground``) or the top edge (moving up), cut into tile-wide segments.

Only the destination is looked at, so a fast body could skip a thin tile between two probes: the
shared mover sub-steps this resolver (``destination_only = True``) into parts shorter than half a
tile and half the body, which no tile can hide between.

Departures from the article, and why:

* **No 1 px gap.** Moving right, the article places the body at ``column * TILE - w - 1``: one
  pixel short of the wall it hit. Here every stop is exactly on the tile's edge, in all four
  directions (touching is not overlapping), so pushing into a wall or resting on a floor never
  changes the position and reports the contact every tick.
* **The same "inside the body" rule on both axes.** The article's horizontal probe takes the
  body's last pixel (``x + w - 1``) but its vertical probe takes ``x + w``, the first pixel *past*
  the body. A body standing flush against a wall on its right then probes the wall's column while
  falling and lands on the wall: it sticks to it instead of sliding down. Here the probes along an
  edge cover the span [start + EPS, end - EPS] on both axes, so a tile that is only touched is
  never probed sideways.
* **floor, not int().** The article turns pixels into rows with C integer division, which
  truncates toward zero: y = -10 lands in row 0, so a body above the top of the map collides with
  the first row of tiles. Here cells come from ``math.floor`` (-10 is row -1, outside the map).
* **The vertical probe uses the new x.** The article tests the vertical move at the *old* x (it
  applies the motion only at the end), so a diagonal move can land its corner inside a tile that
  the horizontal step had just moved it over. Here the vertical probes use the x that the
  horizontal step produced.
* **Cells outside the map are empty, not a reason to skip.** The article drops the whole test when
  any probe point lies outside the map, so a body partly above the top ignores every wall. Here
  every point is probed and the grid answers "empty" outside the map; the mover makes the map's
  sides walls.
* **Tile kinds.** The article only knows blank and non-blank. Here a one-way tile blocks only a
  body moving down whose bottom was at or above its top at the start of the *tick* (the mover
  passes that bottom to every sub-step as ``one_way_bottom``), not merely before this call's
  move, and never when dropping through; sideways and from below it is empty. So a body that
  falls past a platform's end and reaches its column in a later sub-step, its bottom already
  below the top, is still caught: the bottom-edge probe lifts it onto the platform, or, when a
  tile above leaves no room, the mover stops it at the platform's end. Slope tiles are not
  supported as slopes: each is a full solid box.
* **Only collision.** The article's ``onGround`` reset, fall-out-of-the-map respawn and camera
  belong to the player, world and camera modules; this resolver only reports contacts and never
  changes velocity.
"""

from __future__ import annotations

import math
from typing import ClassVar

from game.maps.grid import EMPTY, EPS, ONE_WAY, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, NoOptions, Probe, one_way_counts)


def _segment_cells(start: float, end: float, size: int) -> range:
    """Cells of the probe points along an edge covering [start, end], for tiles ``size`` px long.

    The points are the near corner, one every ``size`` px after it, and the far corner. A span
    that only touches a tile border (within EPS) stays out of the next cell. The near corner is in
    cell ``floor((start + EPS) / size)``; a point k whole tiles further is exactly k cells further
    (floor(a + k) = floor(a) + k), so the steps visit consecutive cells, and the far corner,
    ``ceil((end - EPS) / size) - 1``, is at most one cell past the last step. The points' cells are
    therefore this range (one cell for an edge shorter than a tile: its two corners share it or
    sit in neighbours, which the range then holds).
    """
    first = math.floor((start + EPS) / size)
    last = math.ceil((end - EPS) / size) - 1
    return range(first, (last if last > first else first) + 1)  # max(first, last), faster


class CornersResolver(BoxResolver):
    name: ClassVar[str] = "corners"
    article: ClassVar[Article] = Article(
        'Intermediate Game Tutorial #4 - Tile Based Map Collision Detection',
        'Parallel Realities',
        '2011',
        'http://www.parallelrealities.co.uk/2011/10/')
    axis_order: ClassVar[str] = "x then y"
    supports_slopes: ClassVar[bool] = False
    destination_only: ClassVar[bool] = True
    summary: ClassVar[str] = ("probe the leading edge's corners of the destination box, "
                              "split into tile-sized segments")
    Options: ClassVar[type] = NoOptions

    def __init__(self, options: NoOptions | None = None) -> None:
        self.options = options or NoOptions()

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        tw, th = grid.tile_w, grid.tile_h
        cols, rows, kinds = grid.cols, grid.rows, grid.kinds  # kinds[row * cols + col]
        flags = 0

        # Horizontal first: the leading edge of the destination, top corner to bottom corner.
        # One-way tiles never block sideways; slopes are solid boxes.
        if dx:
            nx = x + dx
            # the column the leading edge ends in; an edge exactly on a border has not entered
            # the next column
            col = math.ceil((nx + w) / tw) - 1 if dx > 0 else math.floor(nx / tw)
            cells = _segment_cells(y, y + h, th)
            if probe is not None:
                probe.extend((col, row) for row in cells)
            blocked = False
            if 0 <= col < cols:  # outside the map every cell is empty
                for row in cells:
                    if 0 <= row < rows:
                        k = kinds[row * cols + col]
                        if k != EMPTY and k != ONE_WAY:
                            blocked = True
                            break
            if blocked:
                if dx > 0:
                    x, flags = col * tw - w, HIT_RIGHT
                else:
                    x, flags = (col + 1) * tw, HIT_LEFT
            else:
                x = nx

        # Then vertical, probing along the bottom or top edge at the x just found.
        if dy:
            ny = y + dy
            row = math.ceil((ny + h) / th) - 1 if dy > 0 else math.floor(ny / th)
            one_way_blocks = (dy > 0 and not drop_through
                              and one_way_counts(one_way_bottom, row * th))
            cells = _segment_cells(x, x + w, tw)
            if probe is not None:
                probe.extend((col, row) for col in cells)
            blocked = False
            if 0 <= row < rows:
                at = row * cols
                for col in cells:
                    if 0 <= col < cols:
                        k = kinds[at + col]
                        if k != EMPTY and (k != ONE_WAY or one_way_blocks):
                            blocked = True
                            break
            if blocked:
                if dy > 0:
                    y, flags = row * th - h, flags | ON_GROUND
                else:
                    y, flags = (row + 1) * th, flags | HIT_CEILING
            else:
                y = ny

        return x, y, flags
