"""``corners``: probe the corners of the destination box.

Article: "Intermediate Game Tutorial #4 - Tile Based Map Collision Detection", Parallel
Realities (2 October 2011), http://www.parallelrealities.co.uk/2011/10/

Axis order: x then y.

The technique, as the article teaches it (the article's ``checkToMap``: here
:meth:`CornersResolver.move_box`, then :func:`check_horizontal` and :func:`check_vertical`):

1. Work out where the box would be after the horizontal part of the move alone.
2. Look up the tiles under the corners of its *leading* edge (the right edge when moving right,
   the left edge when moving left). If either is not empty, the move is blocked: put the body as
   close to that tile column as it can go.
3. A box taller than a tile could straddle a small tile with both corners free of it, so the edge
   is cut into tile-sized segments: besides the two corners, a probe point sits every tile height
   along the edge, and every point's tile is looked up.
4. Do the same for the vertical part, probing the bottom edge (moving down, which also means
   "standing on something": ``on_ground``) or the top edge (moving up), cut into tile-wide segments.

Beyond the article, after its code and each joined to it at one line marked ``# >> beyond the
article``: one-way tiles (:func:`one_way_blocks`), and slopes and half tiles on a map that has
them (:func:`across_slopes_probes`, :func:`vertical_on_slopes`). Play moves bodies with the
fast twin :class:`game.resolvers.fast.corners.FastCorners`: the same probes over the grid's bytes,
in while loops, handing any probe that must read a slope to this code.

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
  tile above leaves no room, the mover stops it at the platform's end.
* **Ladders.** The grid makes a ladder's top cell a one-way tile (``game.maps.grid.with_ladders``)
  and its other cells empty: the bottom probes find a ladder's top as they find a plank, and no
  probe meets the rest of a ladder. Climbing is the player's (``game.sim.player``); climbing down
  moves with ``drop_through``.
* **Slopes and half tiles: the probes read the surface's height.** The article's probe asks only
  "is this point's tile blank?". A slope tile here is solid only under its straight surface (a
  half tile is a slope of equal heights), so a probe in a slope tile asks whether the box reaches
  below the surface, over the part of its edge in that tile. Moving down, the bottom edge's
  probes land the body on the highest point of the surface under it; a bottom edge that crossed
  into the next row also probes the row it left (a slope there reaches down to that row's
  bottom). Moving up, a slope met from below is a ceiling at its bottom. Moving sideways on a map
  with slopes, a blocked probe is looked at again by :func:`across_slopes`: the probe at the
  leading bottom corner reads the slope's height there, and if the climb to it is at most a
  45-degree one over the move (a slope rising ahead, or the ground beside the top of the slope the
  body stands on) and the lifted box is free, the body is lifted onto it and moves on (see
  :mod:`game.resolvers.footing`); any other probe that is below a surface (a steeper step, a half
  tile's side, a slope's full-height side, a wall) stops the body as close as it can go: at the
  tile's side or where the surface reaches its bottom. Only the leading edge is probed, as in the
  article, and the column it left when it crossed into the next one (a slope there rises to that
  column's far side, which is now under the body); behind that, the highest point of the
  surface under the body can only stay or fall. Walking down a slope is the shared mover's
  ground snap.
* **Only collision.** The article's ``onGround`` reset, fall-out-of-the-map respawn and camera
  belong to the player, world and camera modules; this resolver only reports contacts and never
  changes velocity.
"""

from __future__ import annotations

import math
from math import ceil, floor
from typing import ClassVar

from game.maps.grid import EPS, ONE_WAY, SLOPE, SOLID, TileGrid
from game.resolvers.base import (HIT_CEILING, HIT_LEFT, HIT_RIGHT, ON_GROUND, Article,
                                 BoxResolver, NoOptions, Probe, one_way_counts)
from game.resolvers.footing import (across_line, climbs_onto, on_slope, room_at, top_under,
                                    wall_x)


class CornersResolver(BoxResolver):
    name: ClassVar[str] = "corners"
    article: ClassVar[Article] = Article(
        'Intermediate Game Tutorial #4 - Tile Based Map Collision Detection',
        'Parallel Realities',
        '2011',
        'http://www.parallelrealities.co.uk/2011/10/')
    axis_order: ClassVar[str] = "x then y"
    supports_slopes: ClassVar[bool] = True
    destination_only: ClassVar[bool] = True
    summary: ClassVar[str] = ("probe the leading edge's corners of the destination box, "
                              "split into tile-sized segments")
    Options: ClassVar[type] = NoOptions

    def __init__(self, options: NoOptions | None = None) -> None:
        self.options = options or NoOptions()

    def move_box(self, grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                 dy: float, one_way_bottom: float, drop_through: bool,
                 probe: Probe) -> tuple[float, float, int]:
        flags = 0
        if dx:  # test the horizontal movement first
            x, y, flags = check_horizontal(grid, x, y, w, h, dx, probe)
        if dy:  # then the vertical, at the x just found
            y, landed_or_ceiling = check_vertical(grid, x, y, w, h, dy, one_way_bottom,
                                                  drop_through, probe)
            flags |= landed_or_ceiling
        return x, y, flags


# ----------------------------------------------------------------------------------------------
# The article: probe the leading edge of the destination, a tile apart
# ----------------------------------------------------------------------------------------------

def segment_cells(start: float, end: float, size: int) -> range:
    """The cells of the probe points along an edge covering [start, end], for tiles ``size`` px
    long: the near corner, a point every ``size`` px after it, and the far corner.

    A span that only touches a tile border (within EPS) stays out of the next cell. The near
    corner is in cell ``floor((start + EPS) / size)``; a point k whole tiles further is exactly k
    cells further (floor(a + k) = floor(a) + k), so the steps visit consecutive cells, and the
    far corner, ``ceil((end - EPS) / size) - 1``, is at most one cell past the last step. The
    points' cells are therefore this range (one cell for an edge shorter than a tile: its two
    corners share it or sit in neighbours, which the range then holds).
    """
    first = floor((start + EPS) / size)
    last = ceil((end - EPS) / size) - 1
    return range(first, max(first, last) + 1)


def check_horizontal(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                     probe: Probe) -> tuple[float, float, int]:
    """The horizontal part of the move: (x, y, HIT_LEFT or HIT_RIGHT if blocked, else 0)."""
    tw = grid.tile_w
    nx = x + dx  # where the box would be after the horizontal part alone
    # the column its leading edge ends in (an edge exactly on a border has not entered the next)
    col = ceil((nx + w) / tw) - 1 if dx > 0 else floor(nx / tw)
    rows = segment_cells(y, y + h, grid.tile_h)  # the probe points down that edge
    if probe is not None:
        probe.extend((col, row) for row in rows)
    # a probe point's tile that is not blank blocks (one-way tiles never block sideways)
    blocked = any(grid.kind(col, row) in (SOLID, SLOPE) for row in rows)
    if grid.slopes:  # >> beyond the article: slopes (each probe reads the surface's height)
        return across_slopes_probes(grid, x, y, w, h, dx, col, rows, blocked, probe)
    if not blocked:
        return nx, y, 0
    # place the body as close to that tile column as it can go
    if dx > 0:
        return col * tw - w, y, HIT_RIGHT
    return (col + 1) * tw, y, HIT_LEFT


def check_vertical(grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
                   one_way_bottom: float, drop_through: bool, probe: Probe) -> tuple[float, int]:
    """The vertical part of the move: (y, ON_GROUND or HIT_CEILING if blocked, else 0)."""
    th = grid.tile_h
    ny = y + dy
    # the row the bottom edge (moving down) or the top edge (moving up) ends in
    row = ceil((ny + h) / th) - 1 if dy > 0 else floor(ny / th)
    cols = segment_cells(x, x + w, grid.tile_w)  # the probe points along that edge
    if probe is not None:
        probe.extend((col, row) for col in cols)
    kinds = [grid.kind(col, row) for col in cols]
    blocked = SOLID in kinds or (  # >> beyond the article: one-way tiles
        ONE_WAY in kinds and one_way_blocks(dy, drop_through, one_way_bottom, row * th))
    if grid.slopes:  # >> beyond the article: slopes
        on_slopes = vertical_on_slopes(grid, x, y, w, h, dy, row, cols, blocked,
                                       SLOPE in kinds, probe)
        if on_slopes is not None:
            return on_slopes
    if not blocked:
        return ny, 0
    if dy > 0:
        return row * th - h, ON_GROUND  # standing on something: on the ground
    return (row + 1) * th, HIT_CEILING


# ----------------------------------------------------------------------------------------------
# Beyond the article: one-way tiles, slopes and half tiles
# ----------------------------------------------------------------------------------------------

def one_way_blocks(dy: float, drop_through: bool, one_way_bottom: float, top: float) -> bool:
    """Does a one-way tile whose top is ``top`` block this vertical move? Only a body moving
    down whose bottom was at or above the top when the tick began, and not dropping through."""
    return dy > 0.0 and not drop_through and one_way_counts(one_way_bottom, top)


def across_slopes_probes(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                         col: int, rows: range, blocked: bool,
                         probe: Probe) -> tuple[float, float, int]:
    """The horizontal part on a map with slopes: a leading edge that crossed into the next
    column probes the column it left too (a slope there rises to that column's far side, now
    under the body); a blocked probe is then judged by the tile's shape (:func:`across_slopes`).
    """
    tw = grid.tile_w
    left = ceil((x + w) / tw) - 1 if dx > 0.0 else floor(x / tw)
    if left != col and any(grid.kind(left, row) == SLOPE for row in rows):
        blocked = True
        if probe is not None:
            probe.extend((left, row) for row in rows)
    else:
        left = col
    if blocked:
        return across_slopes(grid, x, y, w, h, dx, left, col, rows)
    return x + dx, y, 0


def vertical_on_slopes(grid: TileGrid, x: float, y: float, w: float, h: float, dy: float,
                       row: int, cols: range, blocked: bool, slope: bool,
                       probe: Probe) -> tuple[float, int] | None:
    """The vertical part on a map with slopes, where a slope changes the article's answer:
    (y, flags), or None where it does not. Falling, the bottom edge's probes read the slope's
    height, and a bottom that crossed into the next row probes the row it left first (its
    slopes reach down to its bottom); rising, a slope's solid part is a ceiling to a body that
    meets it from below (one already across a slope of height 0, :func:`footing.across_line`,
    meets it from neither side: it is not in the way)."""
    th = grid.tile_h
    ny = y + dy
    start = ceil((y + h) / th) - 1 if dy > 0.0 else row
    if dy > 0.0 and (slope or start != row):
        return _down_slopes(grid, x, w, h, ny, start, row, cols, blocked, probe)
    if dy < 0.0 and slope and not blocked:
        for col in cols:
            if (grid.kind(col, row) == SLOPE and not across_line(grid, col, row, x, y, w, h)
                    and ny + h > top_under(grid, SLOPE, col, row, x, x + w) + EPS):
                return (row + 1) * th, HIT_CEILING
        return ny, 0
    return None


def across_slopes(grid: TileGrid, x: float, y: float, w: float, h: float, dx: float,
                  left: int, col: int, cells: range) -> tuple[float, float, int]:
    """The horizontal step on a map with slopes, once a probe of the leading edge (in column
    ``col``, and ``left``, the column it left, rows ``cells``) found a blocking tile:
    (x, y, flags).

    Each probed tile is judged by its shape: a slope only where the leading edge's part of the
    body reaches below its surface. One at the bottom corner that the body can climb onto
    (:func:`footing.climbs_onto`) is a floor: the body is lifted onto the highest such top if
    the lifted box is free. Any other blocks, and the body goes as close as it can: to the
    tile's side, or where a slope's surface reaches its bottom.
    """
    nx, bottom = x + dx, y + h
    rightward = dx > 0
    stop = math.inf if rightward else -math.inf  # the leading edge's farthest free x
    floor = math.inf
    standing = None  # on a slope at the start? (asked only if a solid tile could be a floor)
    lifts: list[tuple[int, int, int]] = []
    for col in ((left, col) if left != col else (col,)):
        for row in cells:
            kind = grid.kind(col, row)
            if kind != SOLID and kind != SLOPE:
                continue
            top = top_under(grid, kind, col, row, nx, nx + w)
            if bottom <= top + EPS:
                continue  # the probe points are above the slope's surface
            if kind == SOLID and standing is None:
                standing = on_slope(grid, x, w, bottom)
            if ((kind == SLOPE or standing)
                    and climbs_onto(grid, kind, col, row, top, x, w, bottom, bottom, dx, 0.0)):
                lifts.append((kind, col, row))
                floor = top if top < floor else floor
                continue
            edge = wall_x(grid, kind, col, row, bottom, rightward)
            stop = edge if (edge < stop if rightward else edge > stop) else stop
    if stop == (math.inf if rightward else -math.inf):  # nothing blocks
        if not lifts:
            return nx, y, 0
        if room_at(grid, nx, floor - h, w, h):
            return nx, floor - h, 0
    elif lifts:
        # a wall ahead: go as far as it lets, lifted onto the floors there if there is room
        at = stop - w if rightward else stop
        if (at > x) if rightward else (at < x):
            top = min(top_under(grid, kind, col, row, at, at + w) for kind, col, row in lifts)
            lift_to = (top if top < bottom else bottom) - h
            if room_at(grid, at, lift_to, w, h):
                return at, lift_to, HIT_RIGHT if rightward else HIT_LEFT
    for kind, col, row in lifts:  # no room above, or a wall beside them: each is a wall too
        edge = wall_x(grid, kind, col, row, bottom, rightward)
        stop = edge if (edge < stop if rightward else edge > stop) else stop
    if rightward:
        return (stop - w if stop - w > x else x), y, HIT_RIGHT  # never back past the start
    return (stop if stop < x else x), y, HIT_LEFT


def _down_slopes(grid: TileGrid, x: float, w: float, h: float, ny: float, start: int, row: int,
                 cells: range, blocked: bool, probe: Probe) -> tuple[float, int]:
    """The falling step on a map with slopes: the highest top the bottom edge's probes reach
    below, in the row the bottom started in (only its slopes can be there), then in the row it
    ends in (``blocked``: a flat tile there blocks). Returns (y, ON_GROUND or 0)."""
    bottom = ny + h
    for r in ((start, row) if start != row else (row,)):
        if r != row and probe is not None:
            probe.extend((col, r) for col in cells)
        best = r * grid.tile_h if r == row and blocked else math.inf
        for col in cells:
            if grid.kind(col, r) == SLOPE:
                top = top_under(grid, SLOPE, col, r, x, x + w)
                if bottom > top + EPS and top < best:
                    best = top
        if best != math.inf:
            return best - h, ON_GROUND
    return ny, 0
